//! The crowd benchmark (issue 30): one 60 Hz frame of `CrowdSimulation` on the
//! 512×512 Moving AI map random512-10-0 — agents walking their paths to random goals
//! within 48 cells, a new goal every 2.5–7.5 s (and on arrival), four doors closing and
//! opening every 3 s, the Smooth preset at radius 0.3 — for 1,000 and 10,000 agents on
//! one thread and 10,000 on two; and 1,000 agents with goals anywhere on the map (long
//! re-plans). The frame is all of it: doors, new goals, moves, re-plans and repairs. The
//! check of every path after the frame is `pathsmooth crowd`'s, not timed here.
//!
//! Also what a door costs the world: a 3×3 box added and removed, beside a rebuild of the
//! distance field; and the crowd on an engine's navmesh (Unity's export of a LayaAir level
//! from the test corpus, one floor), as the bindings run it there.
//!
//! `cargo bench -p pathsmooth-scenarios --bench crowd`.

use std::collections::HashSet;
use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd};
use pathsmooth::grid::DistanceField;
use pathsmooth::navmesh::{load_surface, SurfaceMesh, SurfaceOptions, UpAxis};
use pathsmooth::world::{Obstacle, World};
use pathsmooth::{GridWorld, NavMeshWorld, Preset, SurfaceWorld};
use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation};

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
        ("goals within 48", 1_000, 1, 48.0),
        ("goals within 48", 10_000, 1, 48.0),
        ("goals within 48", 10_000, 2, 48.0),
        ("goals anywhere", 1_000, 1, f64::INFINITY),
    ];
    for (what, agents, threads, goal_range) in runs {
        let scenario = CrowdScenario {
            agents,
            threads,
            goal_range,
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
    group.finish();
}

/// A uniformly random point of `world`'s navmesh: a triangle drawn by area, a point in it.
fn sampler(world: &NavMeshWorld) -> impl FnMut(&mut fastrand::Rng) -> DVec2 + '_ {
    let mesh = world.navmesh().expect("a navmesh world");
    let mut total = 0.0;
    let cumulative: Vec<f64> = (0..mesh.num_triangles())
        .map(|t| {
            let [a, b, c] = mesh.triangle(t);
            total += (b - a).perp_dot(c - a).abs() / 2.0;
            total
        })
        .collect();
    move |rng| {
        let x = rng.f64() * total;
        let t = cumulative
            .partition_point(|&c| c < x)
            .min(cumulative.len() - 1);
        let [a, b, c] = mesh.triangle(t);
        let (mut s, mut u) = (rng.f64(), rng.f64());
        if s + u > 1.0 {
            (s, u) = (1.0 - s, 1.0 - u);
        }
        a + (b - a) * s + (c - a) * u
    }
}

/// The crowd on an engine's navmesh: `unity/lear315__LayaNavMesh.obj` of the test corpus
/// (Unity's `NavMesh.CalculateTriangulation` export of a LayaAir level: 2,030 triangles over
/// 80 × 80 m, 5,055 m² to walk, one floor), as the bindings run a crowd on it (the surface's
/// plan view, `SurfaceWorld::one_floor_world`). Agents at random points (none within 2.5
/// radii of another), avoiding each other (ORCA, the defaults), the Smooth preset, 1.5 m/s,
/// each walking to a random point of the mesh and given another on arrival; one 60 Hz
/// frame. 1,000 agents of radius 0.15 m and 10,000 of 0.05 m: about the crowding of the
/// map benchmark's (agents' discs 0.45 % and 0.5 % of the floor, against 0.39 %).
fn bench_engine_navmesh(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../pathsmooth/tests/data/corpus/unity/lear315__LayaNavMesh.obj"
    );
    let surface = load_surface(path, &SurfaceOptions::new(UpAxis::Y)).expect("the corpus file");
    let mesh = Arc::new(SurfaceMesh::new(surface).expect("a surface"));
    let world = SurfaceWorld::new(mesh);
    let world = world.one_floor_world().expect("one floor").clone();
    let mut group = c.benchmark_group("crowd/engine navmesh");
    group.sample_size(20);
    for (agents, radius) in [(1_000, 0.15), (10_000, 0.05)] {
        let mut rng = fastrand::Rng::with_seed(1);
        let mut point = sampler(&world);
        let mut crowd = Crowd::new(world.clone(), radius, Preset::Smooth.steps())
            .and_then(|c| c.with_avoidance(Some(Avoidance::default())))
            .expect("crowd");
        // Starts apart: a hash of cells 2.5 radii across, neighbours checked.
        let cell = 2.5 * radius;
        let key = |p: DVec2| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
        let mut taken: HashSet<(i64, i64)> = HashSet::new();
        while crowd.agents().len() < agents {
            let p = point(&mut rng);
            let (kx, ky) = key(p);
            let near = (-1..=1).any(|dx| (-1..=1).any(|dy| taken.contains(&(kx + dx, ky + dy))));
            if !near && crowd.add_agent(p, point(&mut rng), 1.5).is_ok() {
                taken.insert((kx, ky));
            }
        }
        group.bench_function(format!("{agents} agents, radius {radius}"), |b| {
            b.iter(|| {
                black_box(crowd.update(1.0 / 60.0).expect("frame"));
                for i in 0..crowd.agents().len() {
                    if crowd.agents()[i].arrived() {
                        let _ = crowd.set_target(i, point(&mut rng));
                    }
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_crowd, bench_obstacle, bench_engine_navmesh);
criterion_main!(benches);
