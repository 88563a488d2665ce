//! Navmesh benches: the funnel on winding corridors of 10, 100 and 10,000 portals (point
//! agent and radius 0.3; throughput is per portal, so linear scaling shows as a constant
//! time per element), one portal-relaxation sweep for comparison, building the navmesh
//! of a 512×512 Moving AI map plus channel queries on it, and `navmesh_query`: the
//! pathsmooth query (Polyanya; radius 0 and 0.3) side by side with the `polyanya` crate on
//! the same triangles, 50 scenarios spread over each of two 512×512 maps and two smaller
//! ones (throughput: queries); and `one_world`: the pipeline (preset Shortest) on the same
//! scenarios through the `SurfaceWorld` of the same navmesh (`Surface::from_navmesh`: one
//! floor), the one world every navmesh goes through; and `line_of_sight`: the walk under every smoothing step's shortcut test, on
//! the segments a shortcut pass asks about (each query path's vertex to the next five),
//! many of which graze a wall's corner exactly (throughput: segments).
//!
//! The maps come from the repository's `data/movingai/`.

mod support;
use support::polyanya_mesh::polyanya_mesh;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use glam::DVec2;
use pathsmooth::grid::Scenario;
use pathsmooth::navmesh::Funnel;
use pathsmooth::navmesh::NavMesh;
use pathsmooth::navmesh::NavMeshQuery;
use pathsmooth::navmesh::{portals_into, Portal};
use pathsmooth::navmesh::{relax_into, RelaxParams};
use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
use pathsmooth::{Pipeline, Preset, SurfaceWorld};

/// A triangle strip of `n` portals along a winding channel 2 units wide: the left and right
/// banks follow a sine, and portals alternate between (L_k, R_k) and (L_{k+1}, R_k).
fn winding_corridor(n: usize) -> (Vec<Portal>, DVec2, DVec2) {
    let bank = |k: usize, side: f64| {
        let x = k as f64 * 0.7;
        DVec2::new(x, 4.0 * (x * 0.15).sin() + side)
    };
    let portals: Vec<Portal> = (0..n)
        .map(|i| {
            let k = i / 2;
            if i % 2 == 0 {
                Portal::new(bank(k, 1.0), bank(k, -1.0))
            } else {
                Portal::new(bank(k + 1, 1.0), bank(k, -1.0))
            }
        })
        .collect();
    let start = DVec2::new(-0.3, 0.0);
    let last = portals.last().map_or(DVec2::ZERO, |p| p.midpoint());
    (portals, start, last + DVec2::new(0.3, 0.0))
}

/// About 50 of a map's scenarios spread over its file, as (start, goal) points.
fn spread(scen: &[Scenario]) -> Vec<(DVec2, DVec2)> {
    scen.iter()
        .step_by(scen.len().div_ceil(50).max(1))
        .map(|s| (s.start_point(), s.goal_point()))
        .collect()
}

fn funnel_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("funnel");
    for &n in &[10usize, 100, 10_000] {
        let (portals, start, goal) = winding_corridor(n);
        let mut out = Vec::with_capacity(n + 2);
        // The steady-state form: a funnel kept across calls owns its chains.
        let mut funnel = Funnel::new();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("radius0", n), &n, |b, _| {
            b.iter(|| {
                funnel
                    .funnel_into(black_box(&portals), start, goal, 0.0, &mut out)
                    .unwrap();
                black_box(out.len())
            })
        });
        group.bench_with_input(BenchmarkId::new("radius0.3", n), &n, |b, _| {
            b.iter(|| {
                funnel
                    .funnel_into(black_box(&portals), start, goal, 0.3, &mut out)
                    .unwrap();
                black_box(out.len())
            })
        });
        let one_sweep = RelaxParams {
            max_passes: 1,
            ..RelaxParams::default()
        };
        group.bench_with_input(BenchmarkId::new("relax_1_sweep", n), &n, |b, _| {
            b.iter(|| {
                relax_into(black_box(&portals), start, goal, &one_sweep, &mut out).unwrap();
                black_box(out.len())
            })
        });
    }
    group.finish();
}

fn map_benches(c: &mut Criterion) {
    let name = "rooms/8room_000";
    let (map, scen) = support::load(name);
    let mut group = c.benchmark_group("navmesh_map");
    group.sample_size(10);
    group.bench_function("build_8room_000_512x512", |b| {
        b.iter(|| NavMesh::from_grid(black_box(&map)).unwrap())
    });
    let mesh = NavMesh::from_grid(&map).unwrap();
    eprintln!(
        "{name}: {} triangles, {} vertices",
        mesh.num_triangles(),
        mesh.vertices().len()
    );
    let queries = spread(&scen);
    let (mut ps, mut out, mut funnel) = (Vec::new(), Vec::new(), Funnel::new());
    group.bench_function("corridor_portals_funnel_50_queries", |b| {
        b.iter(|| {
            for &(a, g) in &queries {
                let corridor = mesh.find_channel(a, g).unwrap();
                portals_into(&mesh, &corridor, &mut ps).unwrap();
                funnel.funnel_into(&ps, a, g, 0.0, &mut out).unwrap();
            }
            black_box(out.len())
        })
    });
    group.finish();
}

fn query_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("navmesh_query");
    group.sample_size(20);
    for name in [
        "rooms/8room_000",
        "random/random512-10-0",
        "dao/den312d",
        "cities/Berlin_0_256",
    ] {
        let (map, scen) = support::load(name);
        let mesh = NavMesh::from_grid(&map).unwrap();
        let theirs = polyanya_mesh(&mesh);
        let queries = spread(&scen);
        let short = name.rsplit('/').next().unwrap_or(name);
        let label = format!("{short}_{}x{}", map.width(), map.height());
        group.throughput(Throughput::Elements(queries.len() as u64));
        let mut q = NavMeshQuery::new();
        for r in [0.0, 0.3] {
            group.bench_function(BenchmarkId::new(format!("pathsmooth_r{r}"), &label), |b| {
                b.iter(|| {
                    let mut n = 0;
                    for &(a, g) in &queries {
                        n += q.find_path(&mesh, a, g, r).map_or(0, |p| p.len());
                    }
                    black_box(n)
                })
            });
        }
        let to = |v: DVec2| glam033::Vec2::new(v.x as f32, v.y as f32);
        group.bench_function(BenchmarkId::new("polyanya_r0", &label), |b| {
            b.iter(|| {
                let mut n = 0;
                for &(a, g) in &queries {
                    n += theirs.path(to(a), to(g)).map_or(0, |p| p.path.len());
                }
                black_box(n)
            })
        });
    }
    group.finish();
}

fn one_world_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("one_world");
    group.sample_size(20);
    for name in ["rooms/8room_000", "dao/den312d"] {
        let (map, scen) = support::load(name);
        let mesh = NavMesh::from_grid(&map).unwrap();
        // Shared by the radii's worlds, as a server shares one mesh (no copy per world).
        let surface = std::sync::Arc::new(
            SurfaceMesh::new(Surface::from_navmesh(&mesh, UpAxis::Z).unwrap()).unwrap(),
        );
        let queries = spread(&scen);
        let short = name.rsplit('/').next().unwrap_or(name);
        group.throughput(Throughput::Elements(queries.len() as u64));
        for r in [0.0, 0.3] {
            let world = SurfaceWorld::new(std::sync::Arc::clone(&surface));
            let mut one = Pipeline::preset(world, r, Preset::Shortest).unwrap();
            let mut plan = |(a, g): (DVec2, DVec2)| one.plan(a, g).map_or(0, |p| p.len());
            group.bench_function(BenchmarkId::new(format!("surface_r{r}"), short), |b| {
                b.iter(|| black_box(queries.iter().copied().map(&mut plan).sum::<usize>()))
            });
        }
    }
    group.finish();
}

fn line_of_sight_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("line_of_sight");
    for name in ["rooms/8room_000", "dao/den312d"] {
        let (map, scen) = support::load(name);
        let mesh = NavMesh::from_grid(&map).unwrap();
        let mut q = NavMeshQuery::new();
        let segments: Vec<(DVec2, DVec2)> = spread(&scen)
            .into_iter()
            .filter_map(|(a, g)| q.find_path(&mesh, a, g, 0.0).ok().map(<[DVec2]>::to_vec))
            .flat_map(|p| {
                let n = p.len();
                (0..n)
                    .flat_map(|i| (i + 1..n.min(i + 6)).map(move |j| (i, j)))
                    .map(|(i, j)| (p[i], p[j]))
                    .collect::<Vec<_>>()
            })
            .collect();
        let short = name.rsplit('/').next().unwrap_or(name);
        group.throughput(Throughput::Elements(segments.len() as u64));
        group.bench_function(short, |b| {
            b.iter(|| {
                let clear = segments.iter().filter(|&&(a, b)| mesh.line_of_sight(a, b));
                black_box(clear.count())
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    funnel_benches,
    map_benches,
    query_benches,
    one_world_benches,
    line_of_sight_benches
);
criterion_main!(benches);
