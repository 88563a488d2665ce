//! Times a fixed run of frames of a crowd on an engine's navmesh (the criterion bench's
//! scenes, seed 1) and prints the mean, median and p99 frame, and the sum of the agents'
//! positions after the run: the same sum from two builds shows they gave the same answers.
//! The criterion bench cannot compare builds this closely (its frames differ between runs).
//!
//! `cargo run --release -p pathsmooth-scenarios --example engine_crowd_frames --
//! [--layered] [--threads T] [AGENTS] [FRAMES]`: by default `EngineCrowd` on Unity's
//! LayaNavMesh export from the test corpus (1,000 agents of radius 0.15 m, or 0.05 m from
//! 10,000); with `--layered`, `LayeredCrowd` on RecastDemo's `nav_test` level as Detour
//! baked it (tiled, floors over one another; radius 0.15 m); 300 frames; the crowd updated
//! on T threads (default 1; the same walks on any number).

use std::path::Path;
use std::time::Instant;

use glam::DVec3;
use pathsmooth_scenarios::{EngineCrowd, LayeredCrowd};

/// A scene to time: one frame, and the agents' positions in 3D (height 0 when flat).
trait Scene {
    fn frame(&mut self) -> pathsmooth::Result<()>;
    fn checksum(&self) -> DVec3;
}

impl Scene for EngineCrowd {
    fn frame(&mut self) -> pathsmooth::Result<()> {
        EngineCrowd::frame(self).map(drop)
    }
    fn checksum(&self) -> DVec3 {
        let agents = self.crowd.agents().iter();
        agents.map(|a| a.agent_path().position().extend(0.0)).sum()
    }
}

impl Scene for LayeredCrowd {
    fn frame(&mut self) -> pathsmooth::Result<()> {
        LayeredCrowd::frame(self).map(drop)
    }
    fn checksum(&self) -> DVec3 {
        let agents = self.crowd.agents().iter();
        agents
            .map(|a| a.agent_path().position().extend(a.height()))
            .sum()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let layered = args.first().is_some_and(|a| a == "--layered");
    if layered {
        args.remove(0);
    }
    let mut threads = 1;
    if args.first().is_some_and(|a| a == "--threads") {
        threads = args.get(1).ok_or("--threads needs a number")?.parse()?;
        args.drain(..2);
    }
    let mut args = args.into_iter();
    let agents: usize = args.next().map_or(Ok(1_000), |s| s.parse())?;
    let frames: usize = args.next().map_or(Ok(300), |s| s.parse())?;
    if frames == 0 {
        return Err("FRAMES must be at least 1".into());
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pathsmooth/tests/data/corpus");
    let mut scene: Box<dyn Scene> = if layered {
        let file = corpus.join("detour/nav_test.all_tiles_navmesh.bin");
        let mut scene = LayeredCrowd::load(&file, agents, 0.15, 1)?;
        scene.crowd = scene.crowd.with_threads(threads)?;
        Box::new(scene)
    } else {
        let radius = if agents >= 10_000 { 0.05 } else { 0.15 };
        let file = corpus.join("unity/lear315__LayaNavMesh.obj");
        let mut scene = EngineCrowd::load(&file, agents, radius, 1)?;
        scene.crowd = scene.crowd.with_threads(threads)?;
        Box::new(scene)
    };
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        let start = Instant::now();
        scene.frame()?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let mean = times.iter().sum::<f64>() / frames as f64;
    times.sort_by(f64::total_cmp);
    let sum = scene.checksum();
    println!(
        "agents {agents} threads {threads} frames {frames} mean_ms {mean:.3} p50 {:.3} p99 {:.3} checksum {:.9} {:.9} {:.9}",
        times[frames / 2],
        times[frames * 99 / 100],
        sum.x,
        sum.y,
        sum.z
    );
    Ok(())
}
