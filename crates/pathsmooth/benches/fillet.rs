//! Fillet smoothing against the A* search it follows, and the speed profile of an arc
//! path.
//!
//! `cargo bench -p pathsmooth --bench fillet`. Group `fillet_vs_astar`, on the longest scenarios of two
//! 512×512 Moving AI maps, agent radius 0.3, ρ = 3 cells: the world's A* with room for the
//! agent; the fillet step alone on the shortcut path (wall tests included); and the whole
//! pipeline Shortcut → Fillet on the A* path (input check, shortcut, fillet, sampling and
//! the final validation). The target: fillet smoothing under 5 % of A*. Group
//! `curve_profile`: `CurveProfile` on a filleted zig-zag of 200 corners (arcs of radius 2),
//! and the polyline `speed_profile` on the same curve sampled at chord error 10⁻³.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::DVec2;
use pathsmooth::follow::{speed_profile, Agent, CurveProfile};
use pathsmooth::{fillet_geometry, FilletParams, Filleter, GridWorld, Pipeline, Step, World};

mod support;

const MAPS: [&str; 2] = ["rooms/8room_000", "random/random512-10-0"];
const RADIUS: f64 = 0.3;
const RHO: f64 = 3.0;

fn bench_fillet_vs_astar(c: &mut Criterion) {
    let mut group = c.benchmark_group("fillet_vs_astar");
    group.sample_size(20);
    for name in MAPS {
        let (map, scen) = support::load(name);
        let world = GridWorld::new(map).unwrap();
        let s = &scen[scen.len() - 1];
        let (start, goal) = (s.start_point(), s.goal_point());
        let raw = world.find_path(start, goal, RADIUS).unwrap();
        let mut shortest = Pipeline::new(&world, RADIUS).unwrap().then(Step::Shortcut);
        let short = shortest.smooth(&raw).unwrap();
        let label = name.rsplit('/').next().unwrap();
        group.bench_with_input(BenchmarkId::new("astar", label), &(), |b, _| {
            b.iter(|| black_box(world.find_path(start, goal, RADIUS).unwrap()))
        });
        let params = FilletParams::new(RHO);
        let mut filleter = Filleter::new();
        group.bench_with_input(BenchmarkId::new("fillet_step", label), &(), |b, _| {
            b.iter(|| black_box(filleter.fillet(&world, &short, RADIUS, &params).unwrap()))
        });
        let mut pipeline = Pipeline::new(&world, RADIUS)
            .unwrap()
            .then(Step::Shortcut)
            .then(Step::Fillet(params));
        group.bench_with_input(
            BenchmarkId::new("shortcut_fillet_pipeline", label),
            &(),
            |b, _| b.iter(|| black_box(pipeline.smooth(&raw).unwrap())),
        );
    }
    group.finish();
}

fn bench_curve_profile(c: &mut Criterion) {
    let zigzag: Vec<DVec2> = (0..=200)
        .map(|k| DVec2::new(k as f64 * 10.0, if k % 2 == 0 { 0.0 } else { 8.0 }))
        .collect();
    let curve = fillet_geometry(&zigzag, &FilletParams::new(2.0))
        .unwrap()
        .curve;
    let polyline = curve.to_polyline(1e-3).unwrap();
    let agent = Agent::default();
    let mut group = c.benchmark_group("curve_profile");
    group.bench_function("exact_curve_200_arcs", |b| {
        b.iter(|| black_box(CurveProfile::new(&curve, &agent).unwrap()))
    });
    group.bench_function(BenchmarkId::new("polyline_samples", polyline.len()), |b| {
        b.iter(|| black_box(speed_profile(&polyline, &agent).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, bench_fillet_vs_astar, bench_curve_profile);
criterion_main!(benches);
