//! Crowds on layered navmeshes that engines baked (RecastDemo's levels as C++ Recast and
//! Detour wrote them, and a game's Recast dump, from `tests/data/corpus/`: floors over one
//! another, bridges, stairs), agents drawn at random (fixed seeds) and sent across the
//! floors with avoidance on. Every frame is judged by the independent oracle of
//! `common/surface_oracle.rs`, which knows nothing of sheets or of the crowd:
//!
//! - each agent's move over the frame walks the surface in a straight line from the polygon
//!   it stood on (crossing shared edges only: no jump between floors, no wall crossed), and
//!   the height the crowd gives it is the floor's where the walk ends;
//! - no agent comes nearer a wall of its own floor than its radius (less 1 %);
//! - no two agents on one floor (heights less than the agent height apart) stand closer
//!   than the sum of their radii (less 1 %), while agents on floors one over the other
//!   do cross in plan view (counted: the floors are really in use);
//! - most agents arrive (the others are named with the reason).
#![cfg(feature = "serde")]

use crate::common;

use std::path::PathBuf;

use common::rng::Rng;
use common::surface_oracle::{plan_areas, random_point, SurfaceOracle};
use glam::{DVec2, DVec3};
use pathsmooth::crowd::{Avoidance, Crowd, DEFAULT_AGENT_HEIGHT};
use pathsmooth::navmesh::{load_surface, PolyId, Surface, SurfaceMesh, SurfaceOptions, UpAxis};
use pathsmooth::{Error, Preset, SurfaceWorld};

const RADIUS: f64 = 0.2;
const SPEED: f64 = 1.5;
const DT: f64 = 1.0 / 20.0;

/// The layered bakes: each has floors over one another.
const FILES: [&str; 3] = [
    "detour/dungeon.all_tiles_navmesh.bin",
    "detour/nav_test.all_tiles_navmesh.bin",
    "recast/janhohenheim__chainboom.poly_mesh.json",
];

fn load(file: &str) -> Surface {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/corpus")
        .join(file);
    load_surface(&path, &SurfaceOptions::new(UpAxis::Y)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// What the oracle saw over a run.
#[derive(Debug, Default)]
struct Seen {
    agents: usize,
    refused: usize,
    frames: usize,
    overlaps: usize,
    wall_hits: usize,
    /// Agent pairs closer than the sum of their radii in plan view on floors one over the
    /// other (agent-pair-frames).
    crossings: usize,
    arrived: usize,
}

/// Runs `agents` random agents on `file` for `seconds` and judges every frame.
fn run(file: &str, agents: usize, seconds: f64, seed: u64) -> Seen {
    let s = load(file);
    let oracle = SurfaceOracle::new(&s);
    let up = s.up();
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    assert!(!mesh.is_one_floor(), "{file}: floors over one another");
    let mut crowd = Crowd::new(SurfaceWorld::new(mesh), RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(Some(Avoidance::default()))
        .unwrap();
    let areas = plan_areas(&s);
    let mut rng = Rng::new(seed);
    let mut seen = Seen::default();
    // Where each agent stands by the oracle: its polygon and plan-view point; its goal.
    let (mut at, mut goals): (Vec<(PolyId, DVec2)>, Vec<DVec3>) = (Vec::new(), Vec::new());
    while crowd.agents().len() < agents {
        let (_, start) = random_point(&s, &mut rng, &areas);
        let (_, goal) = random_point(&s, &mut rng, &areas);
        match crowd.add_agent_on_surface(start, goal, SPEED) {
            Ok(i) => {
                let p = crowd.agents()[i].agent_path().position();
                let h = crowd.agents()[i].height();
                let polygon = on_floor(&oracle, &s, p, h)
                    .unwrap_or_else(|| panic!("{file}: agent {i} at {p} height {h} on no polygon"));
                at.push((polygon, p));
                goals.push(crowd.agent_point(i).map(|_| goal).unwrap());
            }
            // Start and goal in pieces that do not join, or with no room for the radius.
            Err(
                Error::Unreachable { .. }
                | Error::UnreachableOnSurface { .. }
                | Error::NoRoom { .. }
                | Error::Blocked { .. }
                | Error::TooNarrow { .. }
                | Error::TooClose { .. },
            ) => seen.refused += 1,
            Err(e) => panic!("{file}: agent {start} → {goal}: {e}"),
        }
    }
    seen.agents = agents;
    let mut arrived = vec![false; agents];
    let frames = (seconds / DT) as usize;
    for f in 0..frames {
        crowd.update(DT).unwrap();
        let now: Vec<(DVec2, f64)> = crowd
            .agents()
            .iter()
            .map(|a| (a.agent_path().position(), a.height()))
            .collect();
        for (i, &(p, h)) in now.iter().enumerate() {
            let what = format!("{file} frame {f} agent {i}");
            let (polygon, from) = at[i];
            let walked = oracle.walk(polygon, from, p).unwrap_or_else(|| {
                panic!("{what}: {from} → {p} does not walk the surface from {polygon}")
            });
            let last = *walked.last().unwrap();
            let floor = s.floor_height(last, p);
            assert!(
                (h - floor).abs() <= s.climb(),
                "{what}: height {h}, the walk ends on {last} at {floor}"
            );
            at[i] = (last, p);
            let clearance = oracle
                .segment_clearance_3d(last, (p, floor), (p, floor), last, RADIUS + 1.0)
                .unwrap();
            if clearance < RADIUS * 0.99 {
                seen.wall_hits += 1;
            }
            let goal = up.plan(goals[i]);
            if !arrived[i] && p.distance(goal) <= 1e-9 * (1.0 + goal.abs().max_element()) {
                arrived[i] = true;
            }
        }
        for i in 0..now.len() {
            for j in i + 1..now.len() {
                let ((p, h), (q, g)) = (now[i], now[j]);
                if p.distance(q) >= 2.0 * RADIUS * 0.99 {
                    continue;
                }
                if (h - g).abs() < DEFAULT_AGENT_HEIGHT {
                    seen.overlaps += 1;
                } else {
                    seen.crossings += 1;
                }
            }
        }
        seen.frames += 1;
    }
    seen.arrived = arrived.iter().filter(|&&a| a).count();
    for (i, a) in crowd.agents().iter().enumerate() {
        if !arrived[i] {
            eprintln!(
                "{file}: agent {i} at {} not arrived at {} (target {}, path {:?}, velocity {}, stuck: {:?}, error: {:?})",
                a.agent_path().position(),
                up.plan(goals[i]),
                a.agent_path().target(),
                a.agent_path().path().len(),
                a.velocity(),
                a.agent_path().stuck(),
                a.error()
            );
        }
    }
    seen
}

/// The polygon under plan-view `p` whose floor there is within the climb of `h`.
fn on_floor(oracle: &SurfaceOracle, s: &Surface, p: DVec2, h: f64) -> Option<PolyId> {
    (0..s.num_polygons() as PolyId)
        .filter(|&q| oracle.inside(q, p))
        .find(|&q| (s.floor_height(q, p) - h).abs() <= s.climb())
}

#[test]
fn agents_on_layered_bakes_keep_to_their_floors_and_never_meet_on_one() {
    let mut crossings = 0;
    for (k, file) in FILES.iter().enumerate() {
        let seen = run(file, 40, 90.0, 0x666c_6f6f_7273 + k as u64);
        eprintln!("{file}: {seen:?}");
        assert_eq!((seen.overlaps, seen.wall_hits), (0, 0), "{file}: {seen:?}");
        assert!(seen.arrived * 10 >= seen.agents * 9, "{file}: {seen:?}");
        crossings += seen.crossings;
    }
    assert!(crossings > 0, "no agents crossed one over the other");
}

/// Two agents that start at one plan-view point on floors one over the other walk exactly
/// as each would alone (bit for bit, every frame, avoidance on): the crowd never lets
/// agents on different floors meet, though they stand on each other's plan-view spot.
#[test]
fn agents_one_over_the_other_walk_as_if_alone() {
    let mut pairs = 0;
    for (k, file) in FILES.iter().enumerate() {
        let s = load(file);
        let oracle = SurfaceOracle::new(&s);
        let (up, areas) = (s.up(), plan_areas(&s));
        let mesh = std::sync::Arc::new(SurfaceMesh::new(s.clone()).unwrap());
        let crowd = || {
            Crowd::new(
                SurfaceWorld::new(mesh.clone()),
                RADIUS,
                Preset::Smooth.steps(),
            )
            .unwrap()
            .with_avoidance(Some(Avoidance::default()))
            .unwrap()
        };
        let mut rng = Rng::new(0x7061_6972 + k as u64);
        let mut found = 0;
        for _ in 0..20_000 {
            if found == 4 {
                break;
            }
            // A plan-view point over two floors an agent height or more apart.
            let (_, p) = random_point(&s, &mut rng, &areas);
            let p = up.plan(p);
            let mut floors: Vec<f64> = (0..s.num_polygons() as PolyId)
                .filter(|&q| oracle.inside(q, p))
                .map(|q| s.floor_height(q, p))
                .collect();
            floors.sort_by(f64::total_cmp);
            let (Some(&low), Some(&high)) = (floors.first(), floors.last()) else {
                continue;
            };
            if high - low < DEFAULT_AGENT_HEIGHT {
                continue;
            }
            let starts = [up.join(p, low), up.join(p, high)];
            let goals = [0, 1].map(|_| random_point(&s, &mut rng, &areas).1);
            let mut both = crowd();
            let mut alone = [crowd(), crowd()];
            let added = (0..2).all(|i| {
                both.add_agent_on_surface(starts[i], goals[i], SPEED)
                    .is_ok()
                    && alone[i]
                        .add_agent_on_surface(starts[i], goals[i], SPEED)
                        .is_ok()
            });
            if !added {
                continue;
            }
            found += 1;
            let first = [0, 1].map(|i| both.agents()[i].agent_path().position());
            assert_eq!(first[0], first[1], "{file}: both start at {p}");
            for f in 0..300 {
                both.update(DT).unwrap();
                for (i, crowd) in alone.iter_mut().enumerate() {
                    crowd.update(DT).unwrap();
                    assert_eq!(
                        both.agent_point(i).unwrap(),
                        crowd.agent_point(0).unwrap(),
                        "{file} frame {f}: the agent from {} walks otherwise beside the other floor's",
                        starts[i]
                    );
                }
            }
        }
        eprintln!("{file}: {found} pairs one over the other");
        pairs += found;
    }
    assert!(pairs >= 8, "{pairs} pairs");
}
