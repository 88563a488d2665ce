//! The crowd benchmark (issue 30): one 60 Hz frame of `CrowdSimulation` on the
//! 512×512 Moving AI map random512-10-0 — agents walking their paths to random goals
//! within 48 cells, a new goal every 2.5–7.5 s (and on arrival), four doors closing and
//! opening every 3 s, the Smooth preset at radius 0.3 — for 1,000 and 10,000 agents on
//! one thread and 10,000 on two; 1,000 agents with goals anywhere on the map (long
//! re-plans); and 1,000 and 10,000 agents avoiding one another (ORCA, the defaults, as
//! `pathsmooth crowd --avoid`), and 1,000 avoiding on the maze maze512-4-0. The frame is all of it: doors, new goals, moves, re-plans
//! and repairs. The check of every path after the frame is `pathsmooth crowd`'s, not
//! timed here.
//!
//! Also what a door costs the world: a 3×3 box added and removed, beside a rebuild of the
//! distance field, and in a crowd, dropped on nine agents (pushed out) and beside them;
//! and the crowd on an engine's navmesh (Unity's export of a LayaAir level from the test
//! corpus, one floor), as the bindings run it there; and on a layered one (RecastDemo's
//! `nav_test` level as Detour baked it, floors over one another), with what a crate costs
//! there.
//!
//! `cargo bench -p pathsmooth-scenarios --bench crowd`.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd};
use pathsmooth::grid::DistanceField;
use pathsmooth::world::Obstacle;
use pathsmooth::{GridWorld, Preset};
use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation, EngineCrowd, LayeredCrowd};

// The Moving AI maps, as the library's tests and benches find and load them.
#[allow(dead_code)]
#[path = "../../pathsmooth/tests/common/maps.rs"]
mod support;

fn bench_crowd(c: &mut Criterion) {
    let name = "random/random512-10-0";
    let (map, _) = support::load(name);
    let mut group = c.benchmark_group("crowd/frame");
    group.sample_size(20);
    let runs = [
        ("goals within 48", 1_000, 1, 48.0, false),
        ("goals within 48", 10_000, 1, 48.0, false),
        ("goals within 48", 10_000, 2, 48.0, false),
        ("goals anywhere", 1_000, 1, f64::INFINITY, false),
        // Issue 40's bars: 1,000 agents avoiding under 1 ms, 10,000 under 8.
        ("avoiding, goals within 48", 1_000, 1, 48.0, true),
        ("avoiding, goals within 48", 10_000, 1, 48.0, true),
    ];
    for (what, agents, threads, goal_range, avoid) in runs {
        let scenario = CrowdScenario {
            agents,
            threads,
            goal_range,
            avoidance: avoid.then(Avoidance::default),
            ..CrowdScenario::default()
        };
        let world = GridWorld::new(map.clone()).expect("world");
        let mut sim = CrowdSimulation::new(world, scenario).expect("simulation");
        group.bench_function(
            BenchmarkId::new(
                format!("{what}, {agents} agents"),
                format!("{threads} thread(s)"),
            ),
            |b| b.iter(|| black_box(sim.frame().expect("frame"))),
        );
    }
    // Issue 40's bar for the maze: 1,000 agents avoiding under 4 ms (a goal 48 cells
    // away is often hundreds of cells away along the passages).
    let (maze, _) = support::load("mazes/maze512-4-0");
    let scenario = CrowdScenario {
        agents: 1_000,
        avoidance: Some(Avoidance::default()),
        ..CrowdScenario::default()
    };
    let world = GridWorld::new(maze).expect("world");
    let mut sim = CrowdSimulation::new(world, scenario).expect("simulation");
    group.bench_function("maze512-4-0, avoiding, goals within 48, 1000 agents", |b| {
        b.iter(|| black_box(sim.frame().expect("frame")))
    });
    group.finish();
}

/// What a door costs the world: adding and removing a 3×3 box obstacle on random512-10-0
/// (the distance field patched near it), beside a rebuild of the whole distance field
/// (what each change cost before the patch).
fn bench_obstacle(c: &mut Criterion) {
    let name = "random/random512-10-0";
    let (map, _) = support::load(name);
    let mut world = GridWorld::new(map.clone()).expect("world");
    let door = Obstacle::Box {
        min: DVec2::new(250.0, 250.0),
        max: DVec2::new(253.0, 253.0),
    };
    // The first change keeps the field without obstacles: not what a door costs after.
    let id = world.add_obstacle(door.clone()).expect("door");
    world.remove_obstacle(id).expect("door");
    let mut group = c.benchmark_group("crowd/obstacle");
    group.bench_function("add and remove a 3x3 door (patch)", |b| {
        b.iter(|| {
            let id = world.add_obstacle(black_box(door.clone())).expect("door");
            world.remove_obstacle(id).expect("door");
        })
    });
    group.bench_function("rebuild the distance field", |b| {
        b.iter(|| black_box(DistanceField::new(black_box(&map))))
    });
    // A crate dropped on nine standing agents (each pushed out), beside one dropped beside
    // them: the difference is what pushing costs. Each round lifts it and puts the agents
    // back (removed and added again, a plan from their point to itself each). The crate's
    // 3×3 cells and the 3×3 six cells east of them are all free (the first such near the
    // middle).
    let free = |x: i64, y: i64| (0..3).all(|j| (0..3).all(|i| map.is_passable(x + i, y + j)));
    let corner = (250..)
        .flat_map(|y| (250..260).map(move |x| (x, y)))
        .find(|&(x, y)| free(x, y) && free(x + 6, y))
        .expect("free cells");
    let lo = DVec2::new(corner.0 as f64, corner.1 as f64);
    let crate_ = Obstacle::Box {
        min: lo,
        max: lo + 3.0,
    };
    for (what, offset) in [("on 9 agents", 0.0), ("beside 9 agents", 6.0)] {
        let world = GridWorld::new(map.clone()).expect("world");
        let mut crowd = Crowd::new(world, 0.3, Preset::Smooth.steps()).expect("crowd");
        let spots: Vec<DVec2> = (0..9)
            .map(|k| lo + DVec2::new(0.5 + offset + (k % 3) as f64, 0.5 + (k / 3) as f64))
            .collect();
        let place = |crowd: &mut Crowd<GridWorld>| {
            for &p in &spots {
                crowd.add_agent(p, p, 1.0).expect("agent");
            }
        };
        place(&mut crowd);
        group.bench_function(format!("a 3x3 crate dropped {what} (crowd)"), |b| {
            b.iter(|| {
                let (id, _) = crowd
                    .add_obstacle(black_box(crate_.clone()))
                    .expect("crate");
                crowd.remove_obstacle(id).expect("crate");
                while !crowd.agents().is_empty() {
                    crowd.remove_agent(0).expect("agent");
                }
                place(&mut crowd);
            })
        });
    }
    group.finish();
}

/// The crowd on an engine's navmesh: `unity/lear315__LayaNavMesh.obj` of the test corpus
/// (Unity's `NavMesh.CalculateTriangulation` export of a LayaAir level: 2,030 triangles over
/// 80 × 80 m, 5,055 m² to walk, one floor), as the bindings run a crowd on it (a
/// `Crowd<SurfaceWorld>`, whose agents walk its plan view). Agents at random points (none within 2.5
/// radii of another), avoiding each other (ORCA, the defaults), the Smooth preset, 1.5 m/s,
/// each walking to a random point of the mesh and given another on arrival; one 60 Hz
/// frame. 1,000 agents of radius 0.15 m and 10,000 of 0.05 m: about the crowding of the
/// map benchmark's (agents' discs 0.45 % and 0.5 % of the floor, against 0.39 %).
fn bench_engine_navmesh(c: &mut Criterion) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pathsmooth/tests/data/corpus/unity/lear315__LayaNavMesh.obj");
    let mut group = c.benchmark_group("crowd/engine navmesh");
    group.sample_size(20);
    for (agents, radius) in [(1_000, 0.15), (10_000, 0.05)] {
        let mut scene = EngineCrowd::load(&file, agents, radius, 1).expect("the corpus file");
        group.bench_function(format!("{agents} agents, radius {radius}"), |b| {
            b.iter(|| black_box(scene.frame().expect("frame")))
        });
    }
    group.finish();
}

/// The crowd on a layered navmesh: `detour/nav_test.all_tiles_navmesh.bin` of the test
/// corpus (RecastDemo's `nav_test` level as C++ Recast and Detour baked it, tiled: 220
/// polygons, floors over one another, stairs and a bridge), agents placed and sent in 3D
/// (`Crowd::add_agent_on_surface`, each walking the sheet round its own path), avoiding
/// each other on their floors, the Smooth preset, 1.5 m/s, each given a new random target
/// on arrival (planned at once: a search on the surface, a sheet and its plan); one 60 Hz
/// frame. 1,000 agents of radius 0.15 m.
fn bench_layered_navmesh(c: &mut Criterion) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pathsmooth/tests/data/corpus/detour/nav_test.all_tiles_navmesh.bin");
    let mut group = c.benchmark_group("crowd/layered navmesh");
    group.sample_size(20);
    let mut scene = LayeredCrowd::load(&file, 1_000, 0.15, 1).expect("the corpus file");
    group.bench_function("1000 agents, radius 0.15", |b| {
        b.iter(|| black_box(scene.frame().expect("frame")))
    });
    // What a crate costs there: a disk of radius 0.5 m put on the floor at the middle of
    // the largest polygon and lifted again, on the world alone (the floor's polygons cut
    // and the surface rebuilt, twice) and under the 1,000 agents (each whose sheet reaches
    // it planned again, twice).
    let mut world = scene.crowd.world().clone();
    let s = world.mesh().surface();
    let area = |p: u32| {
        let ring: Vec<DVec2> = s.plan_polygon(p).collect();
        (0..ring.len())
            .map(|i| ring[i].perp_dot(ring[(i + 1) % ring.len()]))
            .sum::<f64>()
    };
    let largest = (0..s.num_polygons() as u32)
        .max_by(|&p, &q| area(p).total_cmp(&area(q)))
        .expect("polygons");
    let ring: Vec<DVec2> = s.plan_polygon(largest).collect();
    let centre = ring.iter().copied().sum::<DVec2>() / ring.len() as f64;
    let at = s.up().join(centre, s.floor_height(largest, centre));
    let crate_ = Obstacle::Disk {
        center: centre,
        radius: 0.5,
    };
    group.bench_function("a crate added and removed (world)", |b| {
        b.iter(|| {
            let id = (world.add_obstacle_on_floor(black_box(crate_.clone()), at)).expect("crate");
            world.remove_obstacle(id).expect("crate");
        })
    });
    group.bench_function("a crate added and removed under 1000 agents", |b| {
        b.iter(|| {
            let crowd = &mut scene.crowd;
            let (id, _) =
                (crowd.add_obstacle_on_floor(black_box(crate_.clone()), at)).expect("crate");
            crowd.remove_obstacle(id).expect("crate");
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_crowd,
    bench_obstacle,
    bench_engine_navmesh,
    bench_layered_navmesh
);
criterion_main!(benches);
