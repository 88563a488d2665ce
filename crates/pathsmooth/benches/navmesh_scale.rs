//! Navmesh inputs that were quadratic (issue 32): the build of a fan of n triangles around
//! one vertex ([`NavMesh::from_polygons`], n = 10k, 40k, 100k; plus one query across the
//! fan), and a channel of 50k thin strips: the relaxation alone ([`relax_into`], 100k
//! portals, the default 64 sweeps) and the pipeline's relaxation step on the navmesh world
//! of the strips (a [`SurfaceWorld`] of one floor: search, portals, relaxation and the two
//! validations).
//!
//! And the import's adversarial layouts (issue 41, `tests/common/abuse.rs`) at 16,000 and
//! 65,000 polygons: `import_abuse/load/<layout>` builds the surface
//! ([`Surface::from_polygons_with`], T-junctions split, as the playground reads a posted
//! navmesh) or the scene's navmesh ([`NavMesh::from_scene`]); `import_abuse/plan/<layout>`
//! is the rest of such a request: the [`SurfaceMesh`] and one plan across it
//! ([`Pipeline::plan_surface`] with no steps: search, sheet, final check).
//!
//! Throughput is per polygon, so linear scaling shows as a constant time per element.
//!
//! `cargo bench -p pathsmooth --bench navmesh_scale`; the before/after numbers are in
//! `docs/hardening.md`.

mod support;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use glam::DVec2;
use pathsmooth::navmesh::portals_into;
use pathsmooth::navmesh::NavMesh;
use pathsmooth::navmesh::NavMeshQuery;
use pathsmooth::navmesh::{relax_into, RelaxParams};
use pathsmooth::navmesh::{Surface, SurfaceMesh, SurfaceOptions, UpAxis};
use pathsmooth::{Pipeline, Step, SurfaceWorld};
use support::abuse;

/// `n` triangles around the origin, their outer vertices on an arc of 270° of radius 100.
fn fan(n: usize) -> (Vec<DVec2>, Vec<Vec<u32>>) {
    let mut vertices = vec![DVec2::ZERO];
    for k in 0..=n {
        let a = k as f64 / n as f64 * 1.5 * std::f64::consts::PI;
        vertices.push(DVec2::new(a.cos(), a.sin()) * 100.0);
    }
    let polygons = (0..n as u32).map(|k| vec![0, k + 1, k + 2]).collect();
    (vertices, polygons)
}

/// `n` quadrilaterals 0.01 wide and 1 tall side by side along x: a channel 0.01·n long.
fn strips(n: usize) -> (Vec<DVec2>, Vec<Vec<u32>>) {
    let vertices = (0..=n)
        .flat_map(|k| {
            let x = k as f64 * 0.01;
            [DVec2::new(x, 0.0), DVec2::new(x, 1.0)]
        })
        .collect();
    let polygons = (0..n as u32)
        .map(|k| vec![2 * k, 2 * k + 2, 2 * k + 3, 2 * k + 1])
        .collect();
    (vertices, polygons)
}

fn fan_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("navmesh_fan");
    group.sample_size(10);
    for n in [10_000usize, 40_000, 100_000] {
        let (vertices, polygons) = fan(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("from_polygons", n), &n, |b, _| {
            b.iter(|| NavMesh::from_polygons(black_box(&vertices), &polygons).unwrap())
        });
        let mesh = NavMesh::from_polygons(&vertices, &polygons).unwrap();
        let mut query = NavMeshQuery::new();
        let (a, g) = (DVec2::new(50.0, 1.0), DVec2::new(-10.0, -50.0));
        group.bench_with_input(BenchmarkId::new("query", n), &n, |b, _| {
            b.iter(|| query.find_path(&mesh, a, g, 0.0).unwrap().len())
        });
    }
    group.finish();
}

fn strip_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("navmesh_strips");
    group.sample_size(10);
    let n = 50_000;
    let (vertices, polygons) = strips(n);
    let mesh = NavMesh::from_polygons(&vertices, &polygons).unwrap();
    let (a, g) = (
        DVec2::new(0.005, 0.1),
        DVec2::new(n as f64 * 0.01 - 0.005, 0.9),
    );
    let channel = mesh.find_channel(a, g).unwrap();
    let mut portals = Vec::new();
    portals_into(&mesh, &channel, &mut portals).unwrap();
    let mut out = Vec::new();
    group.throughput(Throughput::Elements(n as u64));
    group.bench_with_input(BenchmarkId::new("relax_into", n), &n, |b, _| {
        b.iter(|| relax_into(black_box(&portals), a, g, &RelaxParams::default(), &mut out).unwrap())
    });
    let world = SurfaceWorld::from_navmesh(&mesh).unwrap();
    let mut pipeline = Pipeline::new(&world, 0.0).unwrap().then(Step::relax());
    group.bench_with_input(BenchmarkId::new("pipeline_relax", n), &n, |b, _| {
        b.iter(|| pipeline.plan(a, g).unwrap().len())
    });
    group.finish();
}

fn import_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("import_abuse");
    group.sample_size(10);
    let options = SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::new(UpAxis::Z)
    };
    for n in [16_000usize, 65_000] {
        group.throughput(Throughput::Elements(n as u64));
        for (name, make) in abuse::SURFACES {
            let (vertices, polygons) = make(n);
            let load = || Surface::from_polygons_with(&vertices, &polygons, &[], &[], &options);
            group.bench_with_input(BenchmarkId::new(format!("load/{name}"), n), &n, |b, _| {
                b.iter(|| load().unwrap().num_polygons())
            });
            let surface = load().unwrap();
            let (a, g) = abuse::ends(name, n);
            group.bench_with_input(BenchmarkId::new(format!("plan/{name}"), n), &n, |b, _| {
                b.iter(|| {
                    let mesh = SurfaceMesh::new(surface.clone()).unwrap();
                    let mut planner = Pipeline::new(SurfaceWorld::new(mesh), 0.0).unwrap();
                    planner.plan_surface(a, g).unwrap().len()
                })
            });
        }
        // The column of holes is left out: spade's bulk loader is super-linear on it
        // (`docs/hardening.md`).
        let scene = abuse::holes(n);
        group.bench_with_input(BenchmarkId::new("load/holes", n), &n, |b, _| {
            b.iter(|| {
                NavMesh::from_scene(black_box(&scene))
                    .unwrap()
                    .num_triangles()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, fan_benches, strip_benches, import_benches);
criterion_main!(benches);
