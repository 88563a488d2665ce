//! Agent paths and temporary obstacles on one world (issue 30): a door (a box obstacle)
//! closed across a map's passages invalidates exactly the agent paths it
//! blocks (`GridWorld::obstacle_blocks`, checked against an independent segment–square
//! test here); repair makes them valid on the world with the door; removing the door gives
//! back the world exactly, so fresh plans equal the ones made before it closed, bit for
//! bit.

use crate::common;

use glam::DVec2;
use pathsmooth::crowd::{AgentPath, Repair};
use pathsmooth::world::Obstacle;
use pathsmooth::{GridWorld, Pipeline, Preset};

/// True when the segment comes closer than `r` to the closed box (at `r` = 0: enters its
/// open inside), by sampling densely: an independent, slightly conservative check used
/// only where it agrees strictly (samples 1/64 cell apart, margin 1/16 cell).
fn near_box(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2, r: f64, margin: f64) -> bool {
    let n = ((b - a).length() * 64.0).ceil().max(1.0) as usize;
    (0..=n).any(|k| point_gap(a.lerp(b, k as f64 / n as f64), lo, hi) < r + margin)
}

/// The distance from `p` to the closed box `lo`–`hi`.
fn point_gap(p: DVec2, lo: DVec2, hi: DVec2) -> f64 {
    (lo - p).max(p - hi).max(DVec2::ZERO).length()
}

#[test]
fn a_door_obstacle_invalidates_exactly_the_blocked_agent_paths_and_removing_it_restores_them() {
    let (map, scen) = common::load("dao/arena");
    let radius = 0.3;
    let mut world = GridWorld::new(map).unwrap();
    let scenarios = common::sample(&scen, 24);
    let ends: Vec<(DVec2, DVec2)> = scenarios
        .iter()
        .map(|s| (s.start_point(), s.goal_point()))
        .collect();
    // Agent paths before the door.
    let (paths, before): (Vec<AgentPath>, Vec<Vec<DVec2>>) = {
        let mut pipeline = Pipeline::preset(&world, radius, Preset::Smooth).unwrap();
        ends.iter()
            .filter_map(|&(a, b)| AgentPath::new(&mut pipeline, a, b).ok())
            .map(|c| {
                let p = c.path().to_vec();
                (c, p)
            })
            .unzip()
    };
    assert!(paths.len() >= 12, "{} agent paths", paths.len());
    // A door across the middle of an agent's path, as far as can be from every start
    // and goal (so it blocks ways, not agents).
    let away = |p: DVec2| {
        ends.iter()
            .map(|&(a, b)| a.distance(p).min(b.distance(p)))
            .fold(f64::INFINITY, f64::min)
    };
    let mid = before
        .iter()
        .map(|path| path[path.len() / 2])
        .max_by(|&p, &q| away(p).total_cmp(&away(q)))
        .unwrap();
    assert!(away(mid) > 4.0);
    let (lo, hi) = (
        mid.floor() - DVec2::splat(1.0),
        mid.floor() + DVec2::splat(2.0),
    );
    let door = world
        .add_obstacle(Obstacle::Box { min: lo, max: hi })
        .unwrap();
    let mut paths = paths;
    let mut pipeline = Pipeline::preset(&world, radius, Preset::Smooth).unwrap();
    let (mut blocked, mut repaired) = (0, 0);
    for (c, old) in paths.iter_mut().zip(&before) {
        let blocks = world.obstacle_blocks(door, old, radius).unwrap();
        // The independent check, where it is clear-cut.
        let near = old
            .windows(2)
            .any(|s| near_box(s[0], s[1], lo, hi, radius, 1.0 / 16.0));
        let far = !old
            .windows(2)
            .any(|s| near_box(s[0], s[1], lo, hi, radius, -1.0 / 16.0));
        if !near {
            assert!(!blocks);
        }
        if !far {
            assert!(blocks);
        }
        // Exactly the blocked agent paths are invalid (the door is the only change).
        assert_eq!(c.is_valid(&pipeline), !blocks);
        if blocks {
            blocked += 1;
            match c.repair(&mut pipeline) {
                Ok(Repair::Valid) => panic!("a blocked agent path reported valid"),
                Ok(_) => {
                    repaired += 1;
                    assert!(c.is_valid(&pipeline));
                    assert!(pathsmooth::is_valid(&world, c.path(), radius));
                }
                // The door may wall off the position or the target: stuck, with the reason.
                Err(e) => {
                    eprintln!("stuck: {e}");
                    assert!(c.is_stuck());
                }
            }
        } else {
            assert_eq!(c.repair(&mut pipeline).unwrap(), Repair::Valid);
            assert_eq!(c.path(), old.as_slice());
        }
    }
    assert!(blocked >= 1 && repaired >= 1);
    drop(pipeline);
    world.remove_obstacle(door).unwrap();
    // The world is what it was: fresh plans are the original ones, bit for bit.
    let mut pipeline = Pipeline::preset(&world, radius, Preset::Smooth).unwrap();
    for (c, old) in paths.iter_mut().zip(&before) {
        c.replan(&mut pipeline).unwrap();
        assert_eq!(c.path(), old.as_slice());
    }
    println!(
        "{} agent paths, {blocked} blocked by the door, {repaired} repaired",
        before.len()
    );
}

/// The distance between the segment `a`–`b` and the closed box `lo`–`hi`, for the test
/// below: by ternary search along the segment (the distance to a convex set is convex
/// along a line), to 1e-12 of the segment's length.
fn box_gap(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2) -> f64 {
    let gap = |t: f64| point_gap(a.lerp(b, t), lo, hi);
    let (mut s, mut e) = (0.0, 1.0);
    for _ in 0..200 {
        let (m1, m2) = (s + (e - s) / 3.0, e - (e - s) / 3.0);
        if gap(m1) <= gap(m2) {
            e = m2;
        } else {
            s = m1;
        }
    }
    gap(s).min(gap(0.0)).min(gap(1.0))
}

/// What lets a crowd keep its agents' measured clearances across a door that moves far
/// from them (`Crowd::add_obstacle` and `remove_obstacle`): a segment's clearance, capped
/// as the agents measure it, is the same to the bit after an obstacle comes and after it
/// goes, whenever the obstacle's box (`obstacle_bounds`) lies farther from the segment
/// than that clearance. Random segments and boxes on arena's grid and on its navmesh (a
/// fixed seed); the cases where the box is near are counted, not asserted.
#[test]
fn a_clearance_measured_before_an_obstacle_holds_after_it_when_the_obstacle_is_farther() {
    use pathsmooth::navmesh::NavMesh;
    use pathsmooth::world::ObstacleWorld;
    use pathsmooth::SurfaceWorld;
    let (map, _) = common::load("dao/arena");
    let mut rng = common::rng::Rng::new(40);
    let size = DVec2::new(map.width() as f64, map.height() as f64);
    fn check<W: ObstacleWorld>(
        world: &mut W,
        size: DVec2,
        rng: &mut common::rng::Rng,
        name: &str,
    ) -> usize {
        let cap = 0.3 + 1.0;
        let mut far = 0;
        for _ in 0..300 {
            let a = DVec2::new(rng.unit(), rng.unit()) * size;
            let b = a + rng.vec() * 6.0;
            if !world.segment_is_clear(a, b, 0.3) {
                continue;
            }
            let lo = DVec2::new(rng.unit(), rng.unit()) * (size - 3.0);
            let door = Obstacle::Box {
                min: lo,
                max: lo + DVec2::new(1.0, 3.0),
            };
            let Some(reach) = world.obstacle_bounds(&door).unwrap() else {
                continue;
            };
            let before = world.segment_clearance(a, b, cap);
            if box_gap(a, b, reach.min, reach.max) <= before * (1.0 + 1e-9) + 1e-9 {
                continue;
            }
            far += 1;
            let Ok(id) = world.add_obstacle(door) else {
                continue;
            };
            let with = world.segment_clearance(a, b, cap);
            assert_eq!(
                with.to_bits(),
                before.to_bits(),
                "{name}: {a} {b} beside {reach:?}"
            );
            // And the other way: measured with the obstacle, the same once it is gone.
            world.remove_obstacle(id).unwrap();
            let without = world.segment_clearance(a, b, cap);
            assert_eq!(
                without.to_bits(),
                with.to_bits(),
                "{name}: {a} {b} after {reach:?}"
            );
        }
        far
    }
    let mut grid = GridWorld::new(map.clone()).unwrap();
    let far = check(&mut grid, size, &mut rng, "grid");
    assert!(far > 100, "grid: only {far} far cases");
    let mut mesh = SurfaceWorld::from_navmesh(&NavMesh::from_grid(&map).unwrap()).unwrap();
    let far = check(&mut mesh, size, &mut rng, "navmesh");
    assert!(far > 100, "navmesh: only {far} far cases");
}
