//! What the slowest frames of the map benchmark's crowd did: runs the scenario of
//! `pathsmooth crowd --avoid` and prints the slowest frames with their plans, repairs and
//! doors, so that a p99 can be put down to what caused it.
//!
//! `cargo run --release -p pathsmooth-scenarios --example crowd_frame_spikes -- MAP.map
//! [AGENTS] [SECONDS] [PLAN_BUDGET]`

use std::time::Instant;

use pathsmooth::crowd::Avoidance;
use pathsmooth::{GridMap, GridWorld};
use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let map = args
        .next()
        .ok_or("usage: crowd_frame_spikes MAP [AGENTS] [SECONDS] [BUDGET]")?;
    let agents: usize = args.next().map_or(Ok(1_000), |s| s.parse())?;
    let seconds: f64 = args.next().map_or(Ok(10.0), |s| s.parse())?;
    let plan_budget = args.next().map(|s| s.parse()).transpose()?;
    let scenario = CrowdScenario {
        agents,
        plan_budget,
        avoidance: Some(Avoidance::default()),
        ..CrowdScenario::default()
    };
    let frames = (seconds * scenario.hz).round() as usize;
    let mut sim = CrowdSimulation::new(GridWorld::new(GridMap::load(&map)?)?, scenario)?;
    let mut times = Vec::with_capacity(frames);
    for k in 0..frames {
        let start = Instant::now();
        let f = sim.frame()?;
        times.push((start.elapsed().as_secs_f64() * 1e3, k, f));
    }
    let mean = times.iter().map(|t| t.0).sum::<f64>() / frames as f64;
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("mean {mean:.3} ms; the slowest 1 % and the next few:");
    println!("   ms  frame  replans adjusted repaired blocked doors±  waiting");
    for (ms, k, f) in times.iter().take(frames / 100 + 6) {
        let c = &f.crowd;
        let doors = f.doors_closed + f.doors_opened;
        println!(
            "{ms:6.3} {k:6} {:8} {:8} {:8} {:7} {doors:6} {:8}",
            c.replans, c.adjusted, c.repaired, f.blocked, c.waiting
        );
    }
    Ok(())
}
