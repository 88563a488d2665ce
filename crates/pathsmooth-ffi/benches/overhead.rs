//! The cost of the C ABI: one smooth through `ps_pipeline_smooth_f64` against the same
//! `Pipeline::smooth_into` called from Rust, on the world's own plan of the longest
//! scenarios of a 512×512 Moving AI map (radius 0.3, the Smooth preset). Before the
//! criterion group runs, one line per scenario prints the ABI's overhead in percent, from
//! the medians of 301 calls of each, alternated.
//!
//! `cargo bench -p pathsmooth-ffi --bench overhead`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
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

criterion_group!(benches, overhead);
criterion_main!(benches);
