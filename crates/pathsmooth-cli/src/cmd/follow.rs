//! `pathsmooth follow`: how long an agent needs to follow a path, and the samples.

use std::fmt::Write as _;

use anyhow::Result;
use clap::{Args, ValueEnum};
use pathsmooth::follow::{speed_profile, Agent, Steering};
use pathsmooth::io::PathData;

use crate::files::{read_path, write_bytes};

/// `--steering`: in which space the agent's turns are measured (see [`Steering`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SteeringArg {
    /// Between 3D directions (a drone, a swimmer).
    Full3d,
    /// Between headings in the ground (x–y) plane (a vehicle on terrain); lengths stay 3D.
    Ground,
}

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
    /// How turns of a 3D path are measured: between 3D directions, or between headings in
    /// the ground (x–y) plane. Lengths are 3D either way; 2D paths are the same in both.
    #[arg(long, value_enum, default_value_t = SteeringArg::Full3d)]
    pub steering: SteeringArg,
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
            steering: match self.steering {
                SteeringArg::Full3d => Steering::Full3d,
                SteeringArg::Ground => Steering::Ground,
            },
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
    /// Write samples (t, x, y, heading°, speed; t, x, y, z, heading°, speed for a 3D path)
    /// to this CSV file (`-` for stdout).
    #[arg(long)]
    pub csv: Option<String>,
    /// Samples per second for --csv.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub rate: f64,
}

/// Runs `pathsmooth follow`: a 2D path is followed in 2D, a 3D path in 3D (its length and
/// time are the 3D ones, and its samples have a z column).
pub fn run(a: &FollowArgs) -> Result<()> {
    let data = read_path(&a.input, None)?;
    let agent = a.agent.agent();
    agent.validate()?;
    let (profile, is_3d) = match &data {
        PathData::D2(p) => (speed_profile(p, &agent)?, false),
        PathData::D3(p) => (speed_profile(p, &agent)?, true),
    };
    let stops = profile.vertices().filter(|v| v.dwell > 0.0).count();
    let summary = format!(
        "length {:.3} m, traversal time {:.3} s, {} stop-and-rotate corners",
        profile.length(),
        profile.total_time(),
        stops
    );
    if let Some(f) = &a.csv {
        let mut out = String::from(if is_3d {
            "t,x,y,z,heading_deg,speed\n"
        } else {
            "t,x,y,heading_deg,speed\n"
        });
        for s in profile.samples(a.rate)? {
            let p = s.position;
            let _ = write!(out, "{},{},{},", s.t, p.x, p.y);
            if is_3d {
                let _ = write!(out, "{},", p.z);
            }
            let _ = writeln!(out, "{},{}", s.heading.to_degrees(), s.speed);
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
