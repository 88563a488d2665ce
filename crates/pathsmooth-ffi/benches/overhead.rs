//! The cost of the C ABI: one smooth through `ps_pipeline_smooth_f64` against the same
//! `Pipeline::smooth_into` called from Rust, on the world's own plan of the longest
//! scenarios of a 512×512 Moving AI map (radius 0.3, the Smooth preset). Before the
//! criterion group runs, one line per scenario prints the ABI's overhead in percent, from
//! the medians of 301 calls of each, alternated.
//!
//! The same for a crowd's frame: 500 avoiding agents walking the map's scenarios,
//! `ps_crowd_update` and `ps_crowd_positions` against `Crowd::update` and a copy of the
//! positions from Rust, two crowds in lock-step (each frame of one alternated with the
//! same frame of the other).
//!
//! `cargo bench -p pathsmooth-ffi --bench overhead`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use pathsmooth::crowd::{Avoidance, Crowd};
use pathsmooth::glam::DVec2;
use pathsmooth::grid::{load_scenarios, GridMap};
use pathsmooth::{GridWorld, Pipeline, Preset};
use pathsmooth_ffi::*;

const MAP: &str = "rooms/8room_000";
const RADIUS: f64 = 0.3;

/// The map (the repository's `data/movingai/`) and its three longest scenarios' ends.
fn data() -> (GridMap, Vec<[DVec2; 2]>) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/movingai");
    let map_path = dir.join(format!("{MAP}.map"));
    let map = GridMap::load(&map_path).unwrap_or_else(|e| panic!("{}: {e}", map_path.display()));
    let scen_path = dir.join(format!("{MAP}.map.scen"));
    let scen =
        load_scenarios(&scen_path).unwrap_or_else(|e| panic!("{}: {e}", scen_path.display()));
    let longest = scen[scen.len() - 3..].iter();
    (
        map,
        longest.map(|s| [s.start_point(), s.goal_point()]).collect(),
    )
}

/// Median times of `a` and `b`, called alternately `rounds` times each, so that a change
/// of load on the machine hits both alike.
fn medians(rounds: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let t = Instant::now();
        a();
        ta.push(t.elapsed());
        let t = Instant::now();
        b();
        tb.push(t.elapsed());
    }
    ta.sort();
    tb.sort();
    (ta[rounds / 2], tb[rounds / 2])
}

fn overhead(c: &mut Criterion) {
    let (map, ends) = data();
    // The same cells for both: the library's world and the ABI's.
    let (w, h) = (map.width(), map.height());
    let cells: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| map.is_passable(x as i64, y as i64) as u8)
        .collect();
    let world = GridWorld::new(map).unwrap();
    let mut finder = Pipeline::new(&world, RADIUS).unwrap();
    let mut rust = Pipeline::preset(&world, RADIUS, Preset::Smooth).unwrap();
    let (mut abi_world, mut abi) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: the buffers live through the calls; the handles are destroyed at the end.
    unsafe {
        let s = ps_world_grid_new(cells.as_ptr(), w, h, 1.0, 0.0, 0.0, &mut abi_world);
        assert_eq!(s, PsStatus::PsOk);
        let s = ps_pipeline_new_preset(abi_world, PS_PRESET_SMOOTH, RADIUS, &mut abi);
        assert_eq!(s, PsStatus::PsOk);
    }
    let mut group = c.benchmark_group("smooth_through_the_abi");
    let mut out = Vec::new();
    let mut buf = vec![0.0; 2 << 16];
    for (i, [s, g]) in ends.iter().enumerate() {
        let path: Vec<DVec2> = finder.plan(*s, *g).unwrap();
        let flat: Vec<f64> = path.iter().flat_map(|p| [p.x, p.y]).collect();
        let mut len = 0;
        let mut rust_call = || rust.smooth_into(black_box(&path), &mut out).unwrap();
        let cap = buf.len() / 2;
        // SAFETY: as above.
        let mut abi_call = || unsafe {
            let p = black_box(flat.as_ptr());
            let s = ps_pipeline_smooth_f64(abi, p, path.len(), buf.as_mut_ptr(), cap, &mut len);
            assert_eq!(s, PsStatus::PsOk);
        };
        let (r, a) = medians(301, &mut rust_call, &mut abi_call);
        println!(
            "{MAP} scenario {i}: {} points in, Rust {r:?}, C ABI {a:?}: overhead {:+.1} %",
            path.len(),
            (a.as_secs_f64() / r.as_secs_f64() - 1.0) * 100.0
        );
        group.bench_function(BenchmarkId::new("rust", i), |b| b.iter(&mut rust_call));
        group.bench_function(BenchmarkId::new("c_abi", i), |b| b.iter(&mut abi_call));
    }
    group.finish();
    // SAFETY: made above, destroyed once.
    unsafe {
        ps_pipeline_destroy(abi);
        ps_world_destroy(abi_world);
    }
}

/// Agents of the crowd bench.
const AGENTS: usize = 500;

fn crowd_overhead(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/movingai");
    let map = GridMap::load(dir.join(format!("{MAP}.map"))).unwrap();
    let scen = load_scenarios(dir.join(format!("{MAP}.map.scen"))).unwrap();
    let (w, h) = (map.width(), map.height());
    let cells: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| map.is_passable(x as i64, y as i64) as u8)
        .collect();
    let mut rust = Crowd::new(GridWorld::new(map).unwrap(), RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(Some(Avoidance::default()))
        .unwrap();
    let (mut abi_world, mut abi) = (std::ptr::null_mut(), std::ptr::null_mut());
    let settings = PsCrowdSettings {
        avoidance: 1,
        ..Default::default()
    };
    // SAFETY: the buffers live through the calls; the handles are destroyed at the end.
    unsafe {
        let s = ps_world_grid_new(cells.as_ptr(), w, h, 1.0, 0.0, 0.0, &mut abi_world);
        assert_eq!(s, PsStatus::PsOk);
        let s = ps_crowd_new_preset(abi_world, PS_PRESET_SMOOTH, RADIUS, &settings, &mut abi);
        assert_eq!(s, PsStatus::PsOk);
    }
    for s in scen.iter().take(AGENTS) {
        let (p, g) = (s.start_point(), s.goal_point());
        rust.add_agent(p, g, 1.5).unwrap();
        let mut i = 0;
        // SAFETY: as above.
        let st = unsafe {
            let (p, g) = (PsPoint2d { x: p.x, y: p.y }, PsPoint2d { x: g.x, y: g.y });
            ps_crowd_add_agent(abi, p, g, 1.5, &mut i)
        };
        assert_eq!(st, PsStatus::PsOk);
    }
    let dt = 1.0 / 30.0;
    let mut out = vec![0.0; 2 * AGENTS];
    let mut buf = vec![0.0; 2 * AGENTS];
    let mut rust_call = || {
        black_box(rust.update(black_box(dt)).unwrap());
        for (k, a) in rust.agents().iter().enumerate() {
            let p = a.agent_path().position();
            out[2 * k] = p.x;
            out[2 * k + 1] = p.y;
        }
    };
    // SAFETY: as above.
    let mut abi_call = || unsafe {
        let mut len = 0;
        let s = ps_crowd_update(abi, black_box(dt), std::ptr::null_mut());
        assert_eq!(s, PsStatus::PsOk);
        let s = ps_crowd_positions(abi, buf.as_mut_ptr(), AGENTS, &mut len);
        assert_eq!((s, len), (PsStatus::PsOk, AGENTS));
    };
    let (r, a) = medians(301, &mut rust_call, &mut abi_call);
    println!(
        "{MAP} crowd of {AGENTS} avoiding agents, one frame and its positions: Rust {r:?}, C ABI {a:?}: overhead {:+.1} %",
        (a.as_secs_f64() / r.as_secs_f64() - 1.0) * 100.0
    );
    let mut group = c.benchmark_group("crowd_frame_through_the_abi");
    group.bench_function("rust", |b| b.iter(&mut rust_call));
    group.bench_function("c_abi", |b| b.iter(&mut abi_call));
    group.finish();
    // SAFETY: made above, destroyed once.
    unsafe {
        ps_crowd_destroy(abi);
        ps_world_destroy(abi_world);
    }
}

criterion_group!(benches, overhead, crowd_overhead);
criterion_main!(benches);
