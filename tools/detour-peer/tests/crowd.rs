//! The crowd comparison's machinery on a small case (`detour_peer::crowd`): 30 agents on a
//! 32 × 32 window of random512-10-0 for 8 s. Both crowds move their agents and some arrive;
//! the independent check agrees, frame by frame, with a brute-force pair count, with
//! pathsmooth's own clearance (`World::clearance`) for the wall hits, and with pathsmooth's
//! `CrowdAgent::arrived`; and it catches a planted overlap and a planted wall hit.

use detour_peer::crowd::{
    overlaps, Check, DetourCrowd, Engine, PathsmoothCrowd, Scene, Window, ARRIVAL, HZ,
};
use glam::DVec2;
use pathsmooth::world::World;

const MAP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/movingai/random/random512-10-0.map"
);
const AGENTS: usize = 30;
const FRAMES: usize = 8 * 60;

fn scene() -> Scene {
    let window = Window {
        x0: 100,
        y0: 100,
        w: 32,
        h: 32,
    };
    Scene::new(std::path::Path::new(MAP), window, AGENTS).unwrap()
}

fn brute_pairs(at: &[DVec2], near: f64) -> usize {
    let mut n = 0;
    for i in 0..at.len() {
        for j in i + 1..at.len() {
            n += usize::from(at[i].distance(at[j]) < near);
        }
    }
    n
}

/// Steps `engine` and checks every frame against the brute-force count and pathsmooth's
/// clearance; returns (check, positions at the end, wall hits seen).
fn walk<'a>(engine: &mut dyn Engine, scene: &'a Scene) -> (Check<'a>, Vec<DVec2>) {
    let r = scene.radius;
    let mut check = Check::new(&scene.mesh, &scene.walls, r, scene.targets());
    let mut at = Vec::new();
    for frame in 0..FRAMES {
        engine.update(1.0 / HZ);
        engine.positions(&mut at);
        let (pairs, hits) = check.frame(&at);
        assert_eq!(pairs, brute_pairs(&at, 0.99 * 2.0 * r), "frame {frame}");
        let exact = at
            .iter()
            .filter(|&&p| scene.world.clearance(p) < 0.99 * r)
            .count();
        assert_eq!(hits, exact, "{} frame {frame}", engine.name());
    }
    (check, at)
}

#[test]
fn both_crowds_move_and_the_check_agrees() {
    let scene = scene();
    assert_eq!(scene.agents.len(), AGENTS);
    let starts: Vec<DVec2> = scene.agents.iter().map(|a| a.start).collect();

    let mut ps = PathsmoothCrowd::new(&scene).unwrap();
    let (check, at) = walk(&mut ps, &scene);
    let moved = at
        .iter()
        .zip(&starts)
        .filter(|(p, s)| p.distance(**s) > 1.0)
        .count();
    assert!(moved > AGENTS / 2, "pathsmooth moved {moved}");
    assert!(check.arrived() > 0, "pathsmooth: none arrived");
    // pathsmooth's own arrival (exactly at the target) implies the check's.
    for (i, a) in ps.crowd.agents().iter().enumerate() {
        if a.arrived() {
            assert!(check.reached[i], "agent {i}");
            assert!(
                a.agent_path().position().distance(scene.agents[i].target)
                    <= ARRIVAL * scene.radius
            );
        }
    }
    assert_eq!(ps.frames.failed, 0);
    println!(
        "pathsmooth: overlaps {}, wall hits {}, arrived {}/{AGENTS}, {:?}",
        check.overlaps,
        check.wall_hits,
        check.arrived(),
        ps.frames
    );

    let mut dt = DetourCrowd::new(&scene).unwrap();
    assert_eq!(dt.planned, AGENTS);
    let (check, at) = walk(&mut dt, &scene);
    let moved = at
        .iter()
        .zip(&starts)
        .filter(|(p, s)| p.distance(**s) > 1.0)
        .count();
    assert!(moved > AGENTS / 2, "Detour moved {moved}");
    assert!(check.arrived() > 0, "Detour: none arrived");
    println!(
        "Detour: overlaps {}, wall hits {}, arrived {}/{AGENTS}, states {:?}",
        check.overlaps,
        check.wall_hits,
        check.arrived(),
        dt.states()
    );
}

#[test]
fn the_check_catches_planted_contacts() {
    let scene = scene();
    let r = scene.radius;
    let mut at: Vec<DVec2> = scene.agents.iter().map(|a| a.start).collect();
    let mut check = Check::new(&scene.mesh, &scene.walls, r, scene.targets());
    // The starts are at least 2 r apart and have clearance ≥ r.
    assert_eq!(check.frame(&at), (0, 0));
    // Agent 1 planted 1.5 r from agent 0 (overlapping), agent 2 at 2 r (touching, not
    // counted), agent 3 on a wall.
    at[1] = at[0] + DVec2::new(1.5 * r, 0.0);
    at[2] = at[0] + DVec2::new(0.0, 2.0 * r);
    let [a, b] = scene.walls.edges()[0];
    at[3] = (a + b) / 2.0;
    let near = 0.99 * 2.0 * r;
    let expected = brute_pairs(&at, near);
    assert!(expected >= 1);
    let (pairs, hits) = check.frame(&at);
    assert_eq!(pairs, expected);
    assert!(hits >= 1);
    assert_eq!(overlaps(&at, near).0, expected);
    assert!((check.closest_pair - 0.75).abs() < 1e-9 || check.closest_pair < 0.75);
    assert_eq!(check.closest_wall, 0.0);
    // An agent at its target arrives.
    at[4] = scene.agents[4].target;
    check.frame(&at);
    assert!(check.reached[4]);
}
