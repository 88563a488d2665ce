//! `pathsmooth crowd`: the crowd benchmark (issue 30) on a Moving AI map: agents walking
//! to random goals while doors close and open, frame by frame, every path checked after
//! every frame. A thin shell over [`pathsmooth_scenarios::CrowdSimulation`].

use std::io::Write;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use glam::DVec2;
use pathsmooth::crowd::Avoidance;
use pathsmooth::follow::Agent;
use pathsmooth::grid::GridMap;
use pathsmooth::{Error, GridWorld};
use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation, SimFrame};

use crate::cmd::plan::PresetArg;
use crate::files::write_bytes;
use crate::picture::svg::{render_animation, Animation};
use crate::picture::Scene;
use crate::table::Table;

/// The most agents `--animate` draws (the first ones), to keep the file small.
pub const MAX_DRAWN: usize = 500;

const CROWD_HELP: &str = "\
Each frame is 1/60 s; --seconds S runs round(S × 60) frames. Only the simulation's frame \
(doors, new goals, every agent's move, re-plans and repairs) is timed; the check of every \
agent's path with the library's validator after each frame is not.

The last line of a run's output is always
  agents N frames F mean_ms X p99_ms Y replans_per_s Z invalid K
(p99: the 99th percentile of the frame times, nearest rank; K: agent-frames whose path \
failed the check). The exit status is 1 when K > 0, so scripts notice, and for bad input.

Before it, the line
  overlaps K wall_hits W arrived A/N
counts the contacts, summed over the frames (K: agent pairs closer than the sum of their \
radii by more than 1 %; W: agents closer than their radius to a wall or closed door by more \
than 1 %) and A the agents that reached at least one goal. Agents walk through one another \
unless --avoid is given.

--trace FILE writes `frame,agent,x,y` for every agent at the start (frame 0) and after \
every frame, in the map's cell coordinates.

--animate writes an animated SVG (SMIL): the map, the doors (opaque while closed) and the \
first 500 agents, sampled every --frames-every frames, looping over the simulated seconds.";

/// Arguments of `pathsmooth crowd` (defaults: `CrowdScenario::default()`).
#[derive(Debug, Args)]
#[command(after_help = CROWD_HELP)]
pub struct CrowdArgs {
    /// Moving AI `.map` file.
    #[arg(long)]
    pub map: String,
    /// Agents, placed at random reachable cells.
    #[arg(long, default_value_t = CrowdScenario::default().agents, allow_negative_numbers = true)]
    pub agents: usize,
    /// Simulated seconds (> 0): round(S × 60) frames.
    #[arg(long, allow_negative_numbers = true)]
    pub seconds: f64,
    /// The agents' radius, cells.
    #[arg(long, default_value_t = CrowdScenario::default().radius, allow_negative_numbers = true)]
    pub radius: f64,
    /// Doors: squares across the agents' first paths that close and open in turn.
    #[arg(long, default_value_t = CrowdScenario::default().doors, allow_negative_numbers = true)]
    pub doors: usize,
    /// Threads for the agents' updates (the results are the same for any number); more
    /// than the machine's cores are clamped to them.
    #[arg(long, default_value_t = CrowdScenario::default().threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// New goals lie within this many cells (on each axis) of the agent; `inf` or
    /// `anywhere`: anywhere on the map.
    #[arg(long, default_value_t = CrowdScenario::default().goal_range, value_parser = parse_range, allow_negative_numbers = true)]
    pub goal_range: f64,
    /// Each agent gets a new goal on arrival, else after ½ to 1½ times this many seconds.
    #[arg(long, default_value_t = CrowdScenario::default().retarget_seconds, allow_negative_numbers = true)]
    pub retarget: f64,
    /// Walking speed, cells per second.
    #[arg(long, default_value_t = CrowdScenario::default().speed, allow_negative_numbers = true)]
    pub speed: f64,
    /// The seed of every random choice (placements, goals, door times).
    #[arg(long, default_value_t = CrowdScenario::default().seed)]
    pub seed: u64,
    /// The most plans for new goals per frame, first given first served (the others wait,
    /// walking their old paths; a goal the agent's path sees takes no plan and never
    /// waits); all by default.
    #[arg(long)]
    pub plan_budget: Option<usize>,
    /// The agents avoid one another (ORCA, the library's `Avoidance::default()`); without
    /// it they walk through one another.
    #[arg(long)]
    pub avoid: bool,
    /// With --avoid: how far ahead (seconds) collisions with neighbours are avoided
    /// (default 2: longer turns earlier, but makes agents shy of crowds).
    #[arg(long, requires = "avoid", allow_negative_numbers = true)]
    pub time_horizon: Option<f64>,
    /// With --avoid: the most neighbours each agent avoids, the nearest first (default 10).
    #[arg(long, requires = "avoid", allow_negative_numbers = true)]
    pub max_neighbours: Option<usize>,
    /// With --avoid: how far ahead (seconds) an avoiding agent keeps off the walls near it
    /// (default 1).
    #[arg(long, requires = "avoid", allow_negative_numbers = true)]
    pub wall_time_horizon: Option<f64>,
    /// With --avoid: how far (cells, between centres) a neighbour is looked for; by default
    /// as far as anyone within the time horizon can come from.
    #[arg(long, requires = "avoid", allow_negative_numbers = true)]
    pub neighbour_distance: Option<f64>,
    /// The agents keep motion limits (the library's `follow::Agent::default()`: 4 cells/s²
    /// to speed up, 6 to brake, 4 sideways in bends): they start from rest, slow for
    /// bends and brake to stand at their goals; without it they walk at --speed from the
    /// first frame to the last.
    #[arg(long)]
    pub speed_profile: bool,
    /// With --speed-profile: the most an agent speeds up, cells/s².
    #[arg(long, requires = "speed_profile", allow_negative_numbers = true)]
    pub max_accel: Option<f64>,
    /// With --speed-profile: the most an agent brakes, cells/s².
    #[arg(long, requires = "speed_profile", allow_negative_numbers = true)]
    pub max_brake: Option<f64>,
    /// With --speed-profile: the most sideways acceleration in a bend, cells/s².
    #[arg(long, requires = "speed_profile", allow_negative_numbers = true)]
    pub max_lateral_accel: Option<f64>,
    /// How every path is smoothed (the library's presets).
    #[arg(long, value_enum, default_value_t = PresetArg::Smooth)]
    pub method: PresetArg,
    /// Write an animated SVG of the run to this file (`-` for stdout: the summary then
    /// goes to stderr); at most the first 500 agents are drawn.
    #[arg(long)]
    pub animate: Option<String>,
    /// Write every agent's position at the start (frame 0) and after every frame to this
    /// CSV file, `frame,agent,x,y`, in the map's cell coordinates (cell (x, y) covers
    /// [x, x+1) × [y, y+1)): the data to check the contact line with.
    #[arg(long)]
    pub trace: Option<String>,
    /// --animate: one picture every this many frames (default 6: 10 per second).
    #[arg(long, default_value_t = 6, allow_negative_numbers = true)]
    pub frames_every: u64,
}

/// Parses `--goal-range`: a number, or `inf` / `anywhere` for anywhere on the map.
fn parse_range(s: &str) -> std::result::Result<f64, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "anywhere" | "inf" | "infinity" => Ok(f64::INFINITY),
        t => t
            .parse::<f64>()
            .map_err(|_| format!("`{s}` is not a number (or `inf`, `anywhere`)")),
    }
}

/// The command-line flag of a scenario parameter the library names.
fn flag(name: &str) -> &str {
    match name {
        "retarget_seconds" => "retarget",
        "goal_range" => "goal-range",
        "plan_budget" => "plan-budget",
        "time_horizon" => "time-horizon",
        "max_neighbours" => "max-neighbours",
        "wall_time_horizon" => "wall-time-horizon",
        "neighbour_distance" => "neighbour-distance",
        "max_accel" => "max-accel",
        "max_brake" => "max-brake",
        "max_lateral_accel" => "max-lateral-accel",
        other => other,
    }
}

/// The motion limits of `--speed-profile` with the limits given (the library checks them).
fn speed_profile(a: &CrowdArgs) -> Agent {
    let d = Agent::default();
    Agent {
        max_accel: a.max_accel.unwrap_or(d.max_accel),
        max_brake: a.max_brake.unwrap_or(d.max_brake),
        max_lateral_accel: a.max_lateral_accel.unwrap_or(d.max_lateral_accel),
        ..d
    }
}

/// The avoidance of `--avoid` with the settings given (the library checks them).
fn avoidance(a: &CrowdArgs) -> Avoidance {
    let d = Avoidance::default();
    Avoidance {
        time_horizon: a.time_horizon.unwrap_or(d.time_horizon),
        max_neighbours: a.max_neighbours.unwrap_or(d.max_neighbours),
        wall_time_horizon: a.wall_time_horizon.unwrap_or(d.wall_time_horizon),
        neighbour_distance: a.neighbour_distance.or(d.neighbour_distance),
    }
}

/// Frame times and totals of a run.
#[derive(Debug, Default)]
struct Totals {
    /// Seconds per frame, in order.
    times: Vec<f64>,
    /// The frames' counts, summed.
    frames: SimFrame,
    invalid: usize,
    /// Agent-pair-frames and agent-frames in contact ([`CrowdSimulation::contacts`]).
    overlaps: usize,
    wall_hits: usize,
    arrived: usize,
}

/// `--trace`: every agent's position after every frame, streamed to a CSV file.
struct Trace {
    name: String,
    out: std::io::BufWriter<std::fs::File>,
}

impl Trace {
    fn create(name: &str) -> Result<Self> {
        if name == "-" {
            bail!("--trace -: expected a file name (stdout carries the summary)");
        }
        let file = std::fs::File::create(name).with_context(|| format!("{name}: cannot write"))?;
        let mut trace = Trace {
            name: name.to_string(),
            out: std::io::BufWriter::new(file),
        };
        trace.write(|o| writeln!(o, "frame,agent,x,y"))?;
        Ok(trace)
    }

    /// The rows of frame `frame`: each agent's position in cells.
    fn frame(&mut self, sim: &CrowdSimulation, frame: u64) -> Result<()> {
        let world = sim.crowd().world();
        for (i, a) in sim.crowd().agents().iter().enumerate() {
            let p = world.to_grid(a.agent_path().position());
            self.write(|o| writeln!(o, "{frame},{i},{},{}", p.x, p.y))?;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<()> {
        self.write(|o| o.flush())
    }

    fn write(
        &mut self,
        f: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
    ) -> Result<()> {
        f(&mut self.out).with_context(|| format!("{}: cannot write", self.name))
    }
}

/// The sampled positions and door states for `--animate`.
struct Recorder {
    every: u64,
    times: Vec<f64>,
    agents: Vec<Vec<DVec2>>,
    doors: Vec<Vec<bool>>,
}

impl Recorder {
    fn new(every: u64, sim: &CrowdSimulation) -> Self {
        let drawn = sim.crowd().agents().len().min(MAX_DRAWN);
        let mut r = Recorder {
            every,
            times: Vec::new(),
            agents: vec![Vec::new(); drawn],
            doors: vec![Vec::new(); sim.doors().count()],
        };
        r.sample(sim, 0.0);
        r
    }

    /// Records the state after frame `frame` of `last` (every `every`-th, and the last).
    fn after(&mut self, sim: &CrowdSimulation, frame: u64, last: u64, hz: f64) {
        if frame.is_multiple_of(self.every) || frame == last {
            self.sample(sim, frame as f64 / hz);
        }
    }

    fn sample(&mut self, sim: &CrowdSimulation, t: f64) {
        self.times.push(t);
        for (track, a) in self.agents.iter_mut().zip(sim.crowd().agents()) {
            track.push(a.agent_path().position());
        }
        for (track, (_, _, closed)) in self.doors.iter_mut().zip(sim.doors()) {
            track.push(closed);
        }
    }
}

/// Runs `pathsmooth crowd`.
pub fn run(a: &CrowdArgs) -> Result<()> {
    if !(a.seconds.is_finite() && a.seconds > 0.0) {
        bail!("--seconds {}: expected a finite number > 0", a.seconds);
    }
    if a.frames_every == 0 {
        bail!("--frames-every 0: expected at least 1");
    }
    // More threads than cores only cost: clamped, and said so.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if a.threads > cores {
        eprintln!(
            "note: --threads {} is more than the {cores} core(s) here; using {cores}",
            a.threads
        );
        cores
    } else {
        a.threads
    };
    let (method, preset) = a.method.preset();
    let scenario = CrowdScenario {
        agents: a.agents,
        radius: a.radius,
        speed: a.speed,
        retarget_seconds: a.retarget,
        goal_range: a.goal_range,
        doors: a.doors,
        threads,
        seed: a.seed,
        steps: preset.steps(),
        plan_budget: a.plan_budget,
        avoidance: a.avoid.then(|| avoidance(a)),
        speed_profile: a.speed_profile.then(|| speed_profile(a)),
        ..CrowdScenario::default()
    };
    let hz = scenario.hz;
    let frames = (a.seconds * hz).round();
    if frames < 1.0 || frames > u32::MAX as f64 {
        bail!(
            "--seconds {}: expected at least one frame (1/{hz} s) and at most {} frames",
            a.seconds,
            u32::MAX
        );
    }
    let frames = frames as u64;
    let map = GridMap::load(&a.map)?;
    let size = format!("{}×{}", map.width(), map.height());
    // The picture needs the walls only: the map without the doors the crowd's world blocks.
    let picture_map = a.animate.as_ref().map(|_| map.clone());
    let world = GridWorld::new(map).with_context(|| a.map.clone())?;

    let start = Instant::now();
    let mut sim = CrowdSimulation::new(world, scenario).map_err(|e| match e {
        Error::BadParameter { name, .. } => {
            anyhow::Error::new(e).context(format!("--{}", flag(name)))
        }
        e => anyhow::Error::new(e).context(a.map.clone()),
    })?;
    let setup = start.elapsed().as_secs_f64();

    let mut recorder = a
        .animate
        .as_ref()
        .map(|_| Recorder::new(a.frames_every, &sim));
    let mut totals = Totals {
        times: Vec::with_capacity(frames as usize),
        ..Totals::default()
    };
    let mut trace = a.trace.as_deref().map(Trace::create).transpose()?;
    if let Some(t) = &mut trace {
        t.frame(&sim, 0)?;
    }
    for k in 1..=frames {
        let t0 = Instant::now();
        let f = sim.frame()?;
        totals.times.push(t0.elapsed().as_secs_f64());
        totals.invalid += sim.check();
        let (overlaps, wall_hits) = sim.contacts();
        totals.overlaps += overlaps;
        totals.wall_hits += wall_hits;
        totals.frames += f;
        if let Some(r) = &mut recorder {
            r.after(&sim, k, frames, hz);
        }
        if let Some(t) = &mut trace {
            t.frame(&sim, k)?;
        }
    }
    if let Some(t) = trace {
        t.finish()?;
    }
    totals.arrived = sim.arrived();
    let seconds = frames as f64 / hz;
    let report = summary(a, (method, threads), &size, setup, seconds, &totals);

    if let (Some(file), Some(r), Some(map)) = (&a.animate, recorder, picture_map) {
        let world = GridWorld::new(map).with_context(|| a.map.clone())?;
        let svg = animation(a, method, &world, &sim, seconds, r);
        write_bytes(file, svg.as_bytes())?;
    }
    if a.animate.as_deref() == Some("-") {
        eprint!("{report}");
    } else {
        print!("{report}");
    }
    if totals.invalid > 0 {
        bail!(
            "{} agent-frames had a path that failed the check (see the last line)",
            totals.invalid
        );
    }
    Ok(())
}

/// The nearest-rank `p`-th percentile of sorted values (`p` in (0, 100]).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The table and the final line.
fn summary(
    a: &CrowdArgs,
    (method, threads): (&str, usize),
    size: &str,
    setup: f64,
    seconds: f64,
    t: &Totals,
) -> String {
    let mut sorted = t.times.clone();
    sorted.sort_by(f64::total_cmp);
    let ms = |s: f64| s * 1e3;
    let mean = ms(t.times.iter().sum::<f64>() / t.times.len().max(1) as f64);
    let (p50, p99) = (ms(percentile(&sorted, 50.0)), ms(percentile(&sorted, 99.0)));
    let max = ms(sorted.last().copied().unwrap_or(0.0));
    let replans_per_s = t.frames.crowd.replans as f64 / seconds;
    let range = if a.goal_range.is_finite() {
        format!("goal range {}", a.goal_range)
    } else {
        "goals anywhere".into()
    };
    let mut out = format!(
        "crowd on {} ({size}): {} agent(s) of radius {}, {} door(s), {method}, {range}, \
         {} thread(s), seed {}\n",
        a.map, a.agents, a.radius, a.doors, threads, a.seed
    );
    let mut table = Table::new(["", "value"]);
    let rows: [(&str, String); 19] = [
        ("setup ms", format!("{:.1}", ms(setup))),
        ("frames", t.times.len().to_string()),
        ("simulated s", format!("{seconds:.3}")),
        ("frame mean ms", format!("{mean:.3}")),
        ("frame p50 ms", format!("{p50:.3}")),
        ("frame p99 ms", format!("{p99:.3}")),
        ("frame max ms", format!("{max:.3}")),
        ("re-plans", t.frames.crowd.replans.to_string()),
        ("re-plans per s", format!("{replans_per_s:.1}")),
        ("new goals", t.frames.retargets.to_string()),
        ("adjusted targets", t.frames.crowd.adjusted.to_string()),
        (
            "refused / failed",
            format!("{} / {}", t.frames.crowd.refused, t.frames.crowd.failed),
        ),
        ("repaired paths", t.frames.crowd.repaired.to_string()),
        ("blocked by doors", t.frames.blocked.to_string()),
        (
            "doors closed / opened",
            format!("{} / {}", t.frames.doors_closed, t.frames.doors_opened),
        ),
        (
            "door-frames waiting for agents to leave",
            t.frames.doors_waiting.to_string(),
        ),
        ("agent-frames stuck", t.frames.crowd.stuck.to_string()),
        (
            "agent-frames waiting for a plan",
            t.frames.crowd.waiting.to_string(),
        ),
        ("invalid", t.invalid.to_string()),
    ];
    for (name, value) in rows {
        table.row([name.to_string(), value]);
    }
    out.push_str(&table.render());
    out.push_str(&format!(
        "overlaps {} wall_hits {} arrived {}/{}\n",
        t.overlaps, t.wall_hits, t.arrived, a.agents
    ));
    out.push_str(&format!(
        "agents {} frames {} mean_ms {mean:.3} p99_ms {p99:.3} replans_per_s {replans_per_s:.1} invalid {}\n",
        a.agents,
        t.times.len(),
        t.invalid
    ));
    out
}

/// The animated SVG of a run.
fn animation(
    a: &CrowdArgs,
    method: &str,
    world: &GridWorld,
    sim: &CrowdSimulation,
    seconds: f64,
    r: Recorder,
) -> String {
    let name = std::path::Path::new(&a.map)
        .file_name()
        .map_or(a.map.clone(), |n| n.to_string_lossy().into_owned());
    let mut scene = Scene::for_map(format!("crowd on {name}"), world);
    let drawn = r.agents.len();
    let shown = if drawn < a.agents {
        format!("the first {drawn} of {} agents", a.agents)
    } else {
        format!("{} agents", a.agents)
    };
    scene.set_heading([
        format!("crowd on {name}: {shown}, {method}, {seconds} s"),
        format!("{} door(s) (opaque: closed)", sim.doors().count()),
    ]);
    let radius = sim.crowd().radius();
    let anim = Animation {
        seconds,
        times: r.times,
        agents: r.agents.into_iter().map(|p| (radius, p)).collect(),
        doors: sim
            .doors()
            .zip(r.doors)
            .map(|((min, max, _), closed)| (min, max, closed))
            .collect(),
    };
    render_animation(&scene, &anim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p99_is_the_nearest_rank() {
        let v: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&v, 99.0), 198.0);
        assert_eq!(percentile(&v, 50.0), 100.0);
        assert_eq!(percentile(&v[..1], 99.0), 1.0);
        assert_eq!(percentile(&v[..100], 99.0), 99.0);
    }

    #[test]
    fn goal_range_takes_inf_and_anywhere() {
        assert_eq!(parse_range("inf"), Ok(f64::INFINITY));
        assert_eq!(parse_range("Anywhere"), Ok(f64::INFINITY));
        assert_eq!(parse_range("12.5"), Ok(12.5));
        assert!(parse_range("far").is_err());
    }
}
