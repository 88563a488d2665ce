//! Times a fixed run of frames of a crowd on an engine's navmesh (the criterion bench's
//! scene, `EngineCrowd`: Unity's LayaNavMesh export from the test corpus, seed 1) and
//! prints the mean, median and p99 frame, and the sum of the agents' positions after the
//! run: the same sum from two builds shows they gave the same answers. The criterion bench
//! cannot compare builds this closely (its frames differ between runs).
//!
//! `cargo run --release -p pathsmooth-scenarios --example engine_crowd_frames -- [AGENTS]
//! [FRAMES]` (1,000 agents of radius 0.15 m, or 0.05 m from 10,000; 300 frames).

use std::path::Path;
use std::time::Instant;

use glam::DVec2;
use pathsmooth_scenarios::EngineCrowd;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let agents: usize = args.next().map_or(Ok(1_000), |s| s.parse())?;
    let frames: usize = args.next().map_or(Ok(300), |s| s.parse())?;
    if frames == 0 {
        return Err("FRAMES must be at least 1".into());
    }
    let radius = if agents >= 10_000 { 0.05 } else { 0.15 };
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pathsmooth/tests/data/corpus/unity/lear315__LayaNavMesh.obj");
    let mut scene = EngineCrowd::load(&file, agents, radius, 1)?;
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        let start = Instant::now();
        scene.frame()?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let mean = times.iter().sum::<f64>() / frames as f64;
    times.sort_by(f64::total_cmp);
    let sum: DVec2 = scene
        .crowd
        .agents()
        .iter()
        .map(|a| a.agent_path().position())
        .sum();
    println!(
        "agents {agents} frames {frames} mean_ms {mean:.3} p50 {:.3} p99 {:.3} checksum {:.9} {:.9}",
        times[frames / 2],
        times[frames * 99 / 100],
        sum.x,
        sum.y
    );
    Ok(())
}
