//! A* on real 512×512 Moving AI maps, and the post-processing of its paths (shortcut,
//! validation, map-aware Chaikin, map-safe Catmull-Rom and corner cutting), so the cost of
//! post-processing can be read as a fraction of the search.
//!
//! `cargo bench -p pathsmooth --bench grid` (set `PATHSMOOTH_SHARED` unless `shared/`
//! sits beside the checkout). Before the criterion groups run, a summary line per map
//! prints each step's time as a percentage of A* on the same scenarios, and the whole
//! `shortcut-chaikin` / `shortcut-catmull-rom` pipelines of the CLI (shortcut, map-aware
//! smoothing, validation of the result) as one percentage each.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::DVec2;
use pathsmooth::curve::catmull_rom::{catmull_rom, CatmullRomParams};
use pathsmooth::curve::chaikin::ChaikinParams;
use pathsmooth::grid::astar::{astar, GridPath};
use pathsmooth::grid::{GridMap, Scenario};
use pathsmooth::map_safe::MapSafe;
use pathsmooth::shortcut::Shortcutter;
use pathsmooth::validate::{ValidationReport, Validator};

mod support;

const MAPS: [&str; 2] = ["rooms/8room_000", "random/random512-10-0"];
/// Scenarios per map: the longest ones in the file (scenario files are sorted by length).
const LONGEST: usize = 4;

fn load(name: &str) -> (GridMap, Vec<Scenario>) {
    let (map, scen) = support::load(name);
    let n = scen.len();
    (map, scen[n - LONGEST..].to_vec())
}

/// Wall-blind corner cutting (midpoints of the legs, three rounds), standing in for the
/// curve smoothers in map-safe form.
fn midpoint_cutter(p: &[DVec2]) -> pathsmooth::Result<Vec<DVec2>> {
    // Chaikin at ratio ½ cuts every leg at its midpoint.
    let midpoints = ChaikinParams {
        ratio: 0.5,
        passes: 3,
        closed: false,
    };
    pathsmooth::curve::chaikin(p, midpoints)
}

/// The CLI's Catmull-Rom (centripetal, 5 points per segment), for the map-safe wrapper.
fn catmull(p: &[DVec2]) -> pathsmooth::Result<Vec<DVec2>> {
    catmull_rom(p, &CatmullRomParams::uniform(5).with_alpha(0.5))
}

/// Mean time of `f` over enough repetitions to take ~`budget`.
fn time(budget: Duration, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut n = 0u32;
    while n < 3 || start.elapsed() < budget {
        f();
        n += 1;
    }
    start.elapsed() / n
}

fn summary(name: &str, map: &GridMap, scen: &[Scenario]) {
    let paths: Vec<GridPath> = scen
        .iter()
        .map(|s| astar(map, s.start, s.goal).unwrap())
        .collect();
    let validator = Validator::new(map);
    let mut shortcutter = Shortcutter::with_field(map, validator.field().clone());
    let mut safe = MapSafe::with_validator(validator.clone());
    let mut out = Vec::new();
    let mut report = ValidationReport::default();
    let budget = Duration::from_millis(300);
    let t_astar = time(budget, || {
        for s in scen {
            black_box(astar(map, s.start, s.goal).unwrap());
        }
    });
    let t_short = time(budget, || {
        for p in &paths {
            shortcutter.shortcut_into(&p.points, 0.0, &mut out).unwrap();
        }
    });
    let t_short_r = time(budget, || {
        for p in &paths {
            shortcutter.shortcut_into(&p.points, 0.4, &mut out).unwrap();
        }
    });
    let short: Vec<Vec<DVec2>> = paths
        .iter()
        .map(|p| {
            shortcutter.shortcut_into(&p.points, 0.0, &mut out).unwrap();
            out.clone()
        })
        .collect();
    let t_valid = time(budget, || {
        for p in &short {
            validator.validate_into(p, 0.0, &mut report).unwrap();
        }
    });
    let t_valid_raw = time(budget, || {
        for p in &paths {
            validator
                .validate_into(&p.points, 0.0, &mut report)
                .unwrap();
        }
    });
    let t_safe = time(budget, || {
        for p in &paths {
            black_box(safe.smooth(&p.points, 0.0, midpoint_cutter).unwrap());
        }
    });
    let chaikin = ChaikinParams::default();
    let mut smoothed = Vec::new();
    let t_chaikin_short = time(budget, || {
        for p in &short {
            safe.chaikin_into(p, 0.0, chaikin, &mut smoothed).unwrap();
        }
    });
    let t_chaikin_raw = time(budget, || {
        for p in &paths {
            safe.chaikin_into(&p.points, 0.0, chaikin, &mut smoothed)
                .unwrap();
        }
    });
    let t_catmull_short = time(budget, || {
        for p in &short {
            black_box(safe.smooth(p, 0.0, catmull).unwrap());
        }
    });
    // The CLI pipelines end to end: shortcut, smoothing, validation of the result.
    let t_pipeline_chaikin = time(budget, || {
        for p in &paths {
            shortcutter.shortcut_into(&p.points, 0.0, &mut out).unwrap();
            safe.chaikin_into(&out, 0.0, chaikin, &mut smoothed)
                .unwrap();
            validator
                .validate_into(&smoothed, 0.0, &mut report)
                .unwrap();
        }
    });
    let t_pipeline_catmull = time(budget, || {
        for p in &paths {
            shortcutter.shortcut_into(&p.points, 0.0, &mut out).unwrap();
            let s = safe.smooth(&out, 0.0, catmull).unwrap();
            validator.validate_into(&s, 0.0, &mut report).unwrap();
        }
    });
    let pct = |t: Duration| 100.0 * t.as_secs_f64() / t_astar.as_secs_f64();
    let cells: usize = paths.iter().map(|p| p.cells.len()).sum();
    println!(
        "{name}: {} paths, {cells} cells; A* {:.2?} per batch; shortcut {:.1}%, shortcut r=0.4 {:.1}%, \
         validate shortcut path {:.1}%, validate A* path {:.1}%, map-safe midpoint cutter {:.1}%, \
         map-aware Chaikin on shortcut path {:.1}% / on A* path {:.1}%, \
         map-safe Catmull-Rom on shortcut path {:.1}%; shortcut + its validation {:.1}%; \
         pipelines (shortcut, smoothing, validation): shortcut-chaikin {:.1}%, \
         shortcut-catmull-rom {:.1}% of A*",
        paths.len(),
        t_astar,
        pct(t_short),
        pct(t_short_r),
        pct(t_valid),
        pct(t_valid_raw),
        pct(t_safe),
        pct(t_chaikin_short),
        pct(t_chaikin_raw),
        pct(t_catmull_short),
        pct(t_short + t_valid),
        pct(t_pipeline_chaikin),
        pct(t_pipeline_catmull)
    );
}

fn bench_grid(c: &mut Criterion) {
    for name in MAPS {
        let (map, scen) = load(name);
        summary(name, &map, &scen);
        let paths: Vec<GridPath> = scen
            .iter()
            .map(|s| astar(&map, s.start, s.goal).unwrap())
            .collect();
        let validator = Validator::new(&map);
        let mut shortcutter = Shortcutter::with_field(&map, validator.field().clone());
        let mut safe = MapSafe::with_validator(validator.clone());
        let mut out = Vec::new();
        let mut report = ValidationReport::default();
        let short: Vec<Vec<DVec2>> = paths
            .iter()
            .map(|p| {
                shortcutter.shortcut_into(&p.points, 0.0, &mut out).unwrap();
                out.clone()
            })
            .collect();

        let mut g = c.benchmark_group(format!("grid/{name}"));
        g.sample_size(10);
        g.bench_function(BenchmarkId::new("astar", LONGEST), |b| {
            b.iter(|| {
                for s in &scen {
                    black_box(astar(&map, s.start, s.goal).unwrap());
                }
            })
        });
        for radius in [0.0, 0.4] {
            g.bench_function(BenchmarkId::new("shortcut", radius), |b| {
                b.iter(|| {
                    for p in &paths {
                        shortcutter
                            .shortcut_into(&p.points, radius, &mut out)
                            .unwrap();
                    }
                })
            });
        }
        g.bench_function("validate_shortcut_paths", |b| {
            b.iter(|| {
                for p in &short {
                    validator.validate_into(p, 0.0, &mut report).unwrap();
                }
            })
        });
        g.bench_function("validate_astar_paths", |b| {
            b.iter(|| {
                for p in &paths {
                    validator
                        .validate_into(&p.points, 0.0, &mut report)
                        .unwrap();
                }
            })
        });
        g.bench_function("map_safe_midpoint_cutter", |b| {
            b.iter(|| {
                for p in &paths {
                    black_box(safe.smooth(&p.points, 0.0, midpoint_cutter).unwrap());
                }
            })
        });
        let chaikin = ChaikinParams::default();
        let mut smoothed = Vec::new();
        g.bench_function("map_aware_chaikin_shortcut_paths", |b| {
            b.iter(|| {
                for p in &short {
                    safe.chaikin_into(p, 0.0, chaikin, &mut smoothed).unwrap();
                }
            })
        });
        g.bench_function("map_aware_chaikin_astar_paths", |b| {
            b.iter(|| {
                for p in &paths {
                    safe.chaikin_into(&p.points, 0.0, chaikin, &mut smoothed)
                        .unwrap();
                }
            })
        });
        g.bench_function("map_safe_catmull_rom_shortcut_paths", |b| {
            b.iter(|| {
                for p in &short {
                    black_box(safe.smooth(p, 0.0, catmull).unwrap());
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench_grid);
criterion_main!(benches);
