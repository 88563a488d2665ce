//! Catmull-Rom subdivision, pathsmooth vs the `splines` crate, on the Java article's case:
//! a 13-point route with 5 subdivisions per segment (61 output points).
//!
//! The article does not list its 13 waypoints, so the input is a 13-point A*-like route
//! (grid cell centres, 8-connected, with 45° and 90° turns). Both libraries evaluate the
//! same uniform curve with the article's doubled end points at the same 61 parameters;
//! the setup asserts they agree within 1e-9. `splines` gets its phantom keys at t = −1 and
//! t = n (the doubled ends) plus one more at t = n + 1, because it refuses to sample a
//! Catmull-Rom key without a key after the next one, even at the key itself; its `Spline`
//! is built once, outside the timed loop, and samples are pushed into a reused `Vec`, as
//! pathsmooth's `_into` form writes into one.
//!
//! Run: `cargo bench -p pathsmooth --bench catmull_rom`

use std::hint::black_box;
use std::ops::{Add, Div, Mul, Sub};

use criterion::{criterion_group, criterion_main, Criterion};
use glam::DVec2;
use pathsmooth::curve::{catmull_rom, catmull_rom_into, CatmullRomParams};
use splines::{Interpolate, Interpolation, Key, Spline};

const SUBDIVISIONS: usize = 5;

/// A 13-point A*-like route through grid cell centres.
fn route() -> Vec<DVec2> {
    [
        (0.5, 0.5),
        (1.5, 0.5),
        (2.5, 0.5),
        (3.5, 1.5),
        (4.5, 2.5),
        (4.5, 3.5),
        (4.5, 4.5),
        (5.5, 4.5),
        (6.5, 4.5),
        (7.5, 5.5),
        (7.5, 6.5),
        (8.5, 7.5),
        (9.5, 7.5),
    ]
    .iter()
    .map(|&(x, y)| DVec2::new(x, y))
    .collect()
}

/// A 2D value for `splines` (its glam support stops before glam 0.30): each operation
/// delegates per coordinate to `splines`' own `f64` implementation, with one key search
/// per sample for both coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
struct V2(DVec2);

impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2(self.0 + o.0)
    }
}
impl Sub for V2 {
    type Output = V2;
    fn sub(self, o: V2) -> V2 {
        V2(self.0 - o.0)
    }
}
impl Mul<f64> for V2 {
    type Output = V2;
    fn mul(self, k: f64) -> V2 {
        V2(self.0 * k)
    }
}
impl Div<f64> for V2 {
    type Output = V2;
    fn div(self, k: f64) -> V2 {
        V2(self.0 / k)
    }
}

impl Interpolate<f64> for V2 {
    fn step(t: f64, threshold: f64, a: Self, b: Self) -> Self {
        V2(DVec2::new(
            f64::step(t, threshold, a.0.x, b.0.x),
            f64::step(t, threshold, a.0.y, b.0.y),
        ))
    }
    fn lerp(t: f64, a: Self, b: Self) -> Self {
        V2(DVec2::new(
            <f64 as Interpolate<f64>>::lerp(t, a.0.x, b.0.x),
            <f64 as Interpolate<f64>>::lerp(t, a.0.y, b.0.y),
        ))
    }
    fn cosine(t: f64, a: Self, b: Self) -> Self {
        V2(DVec2::new(
            f64::cosine(t, a.0.x, b.0.x),
            f64::cosine(t, a.0.y, b.0.y),
        ))
    }
    fn cubic_hermite(
        t: f64,
        x: (f64, Self),
        a: (f64, Self),
        b: (f64, Self),
        y: (f64, Self),
    ) -> Self {
        let c = |f: fn(DVec2) -> f64| {
            f64::cubic_hermite(
                t,
                (x.0, f(x.1 .0)),
                (a.0, f(a.1 .0)),
                (b.0, f(b.1 .0)),
                (y.0, f(y.1 .0)),
            )
        };
        V2(DVec2::new(c(|v| v.x), c(|v| v.y)))
    }
    fn quadratic_bezier(t: f64, a: Self, u: Self, b: Self) -> Self {
        V2(DVec2::new(
            f64::quadratic_bezier(t, a.0.x, u.0.x, b.0.x),
            f64::quadratic_bezier(t, a.0.y, u.0.y, b.0.y),
        ))
    }
    fn cubic_bezier(t: f64, a: Self, u: Self, v: Self, b: Self) -> Self {
        V2(DVec2::new(
            f64::cubic_bezier(t, a.0.x, u.0.x, v.0.x, b.0.x),
            f64::cubic_bezier(t, a.0.y, u.0.y, v.0.y, b.0.y),
        ))
    }
    fn cubic_bezier_mirrored(t: f64, a: Self, u: Self, v: Self, b: Self) -> Self {
        V2(DVec2::new(
            f64::cubic_bezier_mirrored(t, a.0.x, u.0.x, v.0.x, b.0.x),
            f64::cubic_bezier_mirrored(t, a.0.y, u.0.y, v.0.y, b.0.y),
        ))
    }
}

/// The uniform curve with doubled ends as `splines` keys (key k at t = k).
fn splines_curve(path: &[DVec2]) -> Spline<f64, V2> {
    let n = path.len();
    let key = |t: f64, p: DVec2| Key::new(t, V2(p), Interpolation::CatmullRom);
    let mut keys = vec![key(-1.0, path[0])];
    keys.extend(path.iter().enumerate().map(|(k, p)| key(k as f64, *p)));
    keys.push(key(n as f64, path[n - 1]));
    keys.push(key(n as f64 + 1.0, path[n - 1]));
    Spline::from_vec(keys)
}

/// The 61 parameters: t = i + j/s.
fn parameters(n: usize) -> Vec<f64> {
    let step = 1.0 / SUBDIVISIONS as f64;
    (0..n - 1)
        .flat_map(|i| (0..SUBDIVISIONS).map(move |j| i as f64 + j as f64 * step))
        .chain(std::iter::once((n - 1) as f64))
        .collect()
}

fn sample_splines(spline: &Spline<f64, V2>, params: &[f64], out: &mut Vec<DVec2>) {
    out.clear();
    out.extend(
        params
            .iter()
            .map(|&t| spline.sample(t).expect("inside the keys").0),
    );
}

fn bench(c: &mut Criterion) {
    let path = route();
    let params = CatmullRomParams::uniform(SUBDIVISIONS);
    let spline = splines_curve(&path);
    let ts = parameters(path.len());

    // Same curve, same parameters.
    let ours = catmull_rom(&path, &params).unwrap();
    let mut theirs = Vec::new();
    sample_splines(&spline, &ts, &mut theirs);
    assert_eq!(ours.len(), 61);
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs) {
        assert!(a.distance(*b) < 1e-9, "pathsmooth {a} vs splines {b}");
    }

    let mut group = c.benchmark_group("catmull_rom_13pts_5subdiv");
    let mut out = Vec::with_capacity(ours.len());
    group.bench_function("pathsmooth_into", |b| {
        b.iter(|| {
            catmull_rom_into(black_box(&path), black_box(&params), &mut out).unwrap();
            black_box(&out);
        })
    });
    group.bench_function("pathsmooth_alloc", |b| {
        b.iter(|| black_box(catmull_rom(black_box(&path), black_box(&params)).unwrap()))
    });
    let centripetal = CatmullRomParams::centripetal(SUBDIVISIONS);
    group.bench_function("pathsmooth_into_centripetal", |b| {
        b.iter(|| {
            catmull_rom_into(black_box(&path), black_box(&centripetal), &mut out).unwrap();
            black_box(&out);
        })
    });
    let mut out_splines = Vec::with_capacity(ours.len());
    group.bench_function("splines_sample", |b| {
        b.iter(|| {
            sample_splines(black_box(&spline), black_box(&ts), &mut out_splines);
            black_box(&out_splines);
        })
    });
    group.bench_function("splines_build_and_sample", |b| {
        b.iter(|| {
            let spline = splines_curve(black_box(&path));
            sample_splines(&spline, black_box(&ts), &mut out_splines);
            black_box(&out_splines);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
