//! `pathsmooth follow`: how long an agent needs to follow a path, and the samples.

use std::fmt::Write as _;

use anyhow::{bail, Result};
use clap::Args;
use pathsmooth::follow::{speed_profile, Agent};

use crate::files::{read_path, write_bytes};

/// The agent's limits on the command line (defaults: [`Agent::default`]).
#[derive(Debug, Clone, Args)]
pub struct AgentArgs {
    /// Top speed, m/s (one grid cell = 1 m).
    #[arg(long, default_value_t = Agent::default().max_speed, allow_negative_numbers = true)]
    pub max_speed: f64,
    /// Largest acceleration, m/s².
    #[arg(long, default_value_t = Agent::default().max_accel, allow_negative_numbers = true)]
    pub max_accel: f64,
    /// Largest braking deceleration, m/s².
    #[arg(long, default_value_t = Agent::default().max_brake, allow_negative_numbers = true)]
    pub max_brake: f64,
    /// Largest lateral acceleration in curves, m/s².
    #[arg(long, default_value_t = Agent::default().max_lateral_accel, allow_negative_numbers = true)]
    pub max_lateral_accel: f64,
    /// Largest turn rate, degrees per second.
    #[arg(long, default_value_t = Agent::default().max_turn_rate.to_degrees(), allow_negative_numbers = true)]
    pub max_turn_rate: f64,
    /// Turns sharper than this many degrees stop the agent, which rotates in place.
    #[arg(long, default_value_t = Agent::default().stop_angle.to_degrees(), allow_negative_numbers = true)]
    pub stop_angle: f64,
    /// How far, in metres, the agent may leave a polyline vertex when rounding it.
    #[arg(long, default_value_t = Agent::default().max_corner_cut, allow_negative_numbers = true)]
    pub max_corner_cut: f64,
}

impl AgentArgs {
    /// The library's agent (angles converted to radians).
    pub fn agent(&self) -> Agent {
        Agent {
            max_speed: self.max_speed,
            max_accel: self.max_accel,
            max_brake: self.max_brake,
            max_lateral_accel: self.max_lateral_accel,
            max_turn_rate: self.max_turn_rate.to_radians(),
            stop_angle: self.stop_angle.to_radians(),
            max_corner_cut: self.max_corner_cut,
        }
    }
}

/// Arguments of `pathsmooth follow`.
#[derive(Debug, Args)]
pub struct FollowArgs {
    /// Path file (JSON or CSV); `-` reads stdin.
    #[arg(long, short, default_value = "-")]
    pub input: String,
    #[command(flatten)]
    pub agent: AgentArgs,
    /// Write samples (t, x, y, heading°, speed) to this CSV file (`-` for stdout).
    #[arg(long)]
    pub csv: Option<String>,
    /// Samples per second for --csv.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub rate: f64,
}

/// Runs `pathsmooth follow`.
pub fn run(a: &FollowArgs) -> Result<()> {
    let path = read_path(&a.input, None)?.to_2d();
    let agent = a.agent.agent();
    agent.validate()?;
    let profile = speed_profile(&path, &agent)?;
    // The library bounds coordinates, so the length is finite; a time can still overflow
    // when the agent's limits are absurdly small for the path (1e150 m at 1e-300 m/s).
    if !profile.total_time().is_finite() {
        bail!(
            "the traversal time of {:e} m at a top speed of {:e} m/s overflows",
            profile.length(),
            agent.max_speed
        );
    }
    let stops = profile.vertices().filter(|v| v.dwell > 0.0).count();
    let summary = format!(
        "length {:.3} m, traversal time {:.3} s, {} stop-and-rotate corners",
        profile.length(),
        profile.total_time(),
        stops
    );
    if let Some(f) = &a.csv {
        let mut out = String::from("t,x,y,heading_deg,speed\n");
        for s in profile.samples(a.rate)? {
            let _ = writeln!(
                out,
                "{},{},{},{},{}",
                s.t,
                s.position.x,
                s.position.y,
                s.heading.to_degrees(),
                s.speed
            );
        }
        write_bytes(f, out.as_bytes())?;
    }
    if a.csv.as_deref() == Some("-") {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    Ok(())
}
