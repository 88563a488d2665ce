//! Chaikin corner cutting: in place vs buffer-reusing vs allocating vs geo's
//! `ChaikinSmoothing`, each group on one input.
//!
//! Run: `cargo bench -p pathsmooth --bench chaikin`.
//!
//! All forms use f64 points (`DVec2` for pathsmooth, `LineString<f64>` for geo) and the
//! same ¾/¼ weights.
//!
//! What is compared. On *open* paths geo keeps the end points and also emits the cut
//! points `Q_0` and `R_{n−2}` of the two end segments, so a pass gives `2m` points where
//! pathsmooth gives `2m − 2` (the Terrator article's count): after 4 passes on 15 points,
//! geo returns 240 points and pathsmooth 210, not the same polyline. The
//! `chaikin_terrator_closed` group therefore also runs the same path as a *closed* loop,
//! where both libraries compute the identical curve bit for bit (tested in
//! `tests/chaikin_props.rs`; geo's output just repeats the first point at the end).
//!
//! - `in_place`: copies the input into a buffer sized once by `chaikin_output_len`, then
//!   `chaikin_in_place` (the copy is inside the timing, since in-place smoothing consumes
//!   its input).
//! - `into`: `chaikin_into` with a `Vec` reused across iterations.
//! - `alloc`: `chaikin`, a fresh `Vec` per call.
//! - `geo`: `LineString::chaikin_smoothing(4)`, a fresh `Vec` per pass.

mod support;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use geo::{ChaikinSmoothing, Coord, LineString};
use glam::{DVec2, Vec2};
use pathsmooth::curve::{
    chaikin, chaikin_in_place, chaikin_into, chaikin_output_len, ChaikinParams,
};
use support::paths::terrator;
use support::rng::Rng;

const PASSES: u32 = 4;

/// A deterministic random walk of `n` unit steps (the tests' seeded generator, fixed seed).
fn random_walk(n: usize) -> Vec<DVec2> {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut p = DVec2::ZERO;
    (0..n)
        .map(|_| {
            p += DVec2::from_angle(rng.unit() * std::f64::consts::TAU);
            p
        })
        .collect()
}

fn to_geo(path: &[DVec2]) -> LineString<f64> {
    path.iter().map(|p| Coord { x: p.x, y: p.y }).collect()
}

/// The four contenders on one input, in one group.
fn contenders(c: &mut Criterion, group: &str, id: Option<usize>, path: &[DVec2], closed: bool) {
    let params = ChaikinParams {
        passes: PASSES,
        closed,
        ..ChaikinParams::default()
    };
    let n = path.len();
    let mut g = c.benchmark_group(group);
    if n > 10_000 {
        g.sample_size(10);
        g.throughput(Throughput::Elements(n as u64));
    }
    let name = |f: &str| match id {
        Some(n) => BenchmarkId::new(f, n),
        None => BenchmarkId::from_parameter(f),
    };

    let mut buf = vec![DVec2::ZERO; chaikin_output_len(n, PASSES, closed).unwrap()];
    g.bench_function(name("in_place"), |b| {
        b.iter(|| {
            buf[..n].copy_from_slice(black_box(path));
            black_box(chaikin_in_place(&mut buf, n, &params).unwrap())
        })
    });
    drop(buf);

    let mut out = Vec::new();
    g.bench_function(name("into"), |b| {
        b.iter(|| {
            chaikin_into(black_box(path), &params, &mut out).unwrap();
            black_box(out.len())
        })
    });
    drop(out);

    g.bench_function(name("alloc"), |b| {
        b.iter(|| black_box(chaikin(black_box(path), &params).unwrap()))
    });

    let line = if closed {
        let mut loop_ = path.to_vec();
        loop_.push(path[0]);
        to_geo(&loop_)
    } else {
        to_geo(path)
    };
    g.bench_function(name("geo"), |b| {
        b.iter(|| black_box(black_box(&line).chaikin_smoothing(PASSES as usize)))
    });
    g.finish();
}

fn terrator_open(c: &mut Criterion) {
    contenders(c, "chaikin_terrator", None, &terrator(), false);
    // The article's own setting: f32 points in place.
    let path: Vec<Vec2> = terrator().iter().map(|p| p.as_vec2()).collect();
    let mut buf = vec![Vec2::ZERO; chaikin_output_len(15, PASSES, false).unwrap()];
    c.bench_function("chaikin_terrator/in_place_f32", |b| {
        b.iter(|| {
            buf[..15].copy_from_slice(black_box(&path));
            black_box(chaikin_in_place(&mut buf, 15, &ChaikinParams::default()).unwrap())
        })
    });
}

fn terrator_closed(c: &mut Criterion) {
    contenders(c, "chaikin_terrator_closed", None, &terrator(), true);
}

fn random_walks(c: &mut Criterion) {
    for n in [100_000, 1_000_000] {
        contenders(c, "chaikin_random_walk", Some(n), &random_walk(n), false);
    }
}

criterion_group!(benches, terrator_open, terrator_closed, random_walks);
criterion_main!(benches);
