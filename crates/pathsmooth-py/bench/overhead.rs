//! The Rust side of `bench/overhead.py`, timed the same way (best of 15 repeats of 50
//! batches): the 4 longest scenarios of random512-10-0 (512×512), A* with room for radius
//! 0.4, each smoothed by a "smooth" pipeline at 0.4 — the work of the criterion bench
//! `grid/random/random512-10-0/pipeline_shortcut-chaikin/0.4`, whose mean is noisier on a
//! shared machine than a best-of.
//!
//!     cargo run --release -p pathsmooth-py --example overhead

#[allow(dead_code)]
#[path = "../../pathsmooth/tests/common/maps.rs"]
mod maps;

use std::hint::black_box;
use std::time::Instant;

use pathsmooth::{GridWorld, Pipeline, Preset, World};

fn main() {
    let (map, scen) = maps::load("random/random512-10-0");
    let world = GridWorld::new(map).expect("free cells");
    let inputs: Vec<_> = scen[scen.len() - 4..]
        .iter()
        .map(|s| {
            world
                .find_path(s.start_point(), s.goal_point(), 0.4)
                .expect("a path")
        })
        .collect();
    let mut pipeline = Pipeline::preset(&world, 0.4, Preset::Smooth).expect("pipeline");
    let mut out = Vec::new();
    let best = |name: &str, f: &mut dyn FnMut()| {
        let mut best = f64::INFINITY;
        for _ in 0..15 {
            let t = Instant::now();
            for _ in 0..50 {
                f();
            }
            best = best.min(t.elapsed().as_secs_f64() / 50.0);
        }
        println!(
            "rust: {name}: {:.1} µs per batch (best of 15 × 50)",
            best * 1e6
        );
    };
    best(
        "smooth (a new Vec per path, as Python's new arrays)",
        &mut || {
            for p in &inputs {
                black_box(pipeline.smooth(p).unwrap());
            }
        },
    );
    let mut pipeline = Pipeline::preset(&world, 0.4, Preset::Smooth).expect("pipeline");
    best("smooth_into (buffers reused)", &mut || {
        for p in &inputs {
            pipeline.smooth_into(p, &mut out).unwrap();
        }
    });
}
