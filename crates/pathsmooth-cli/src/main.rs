//! `pathsmooth`: the command-line face of the pathsmooth library.
//!
//! Every subcommand reads user data, so every failure is reported as one line on stderr
//! with a non-zero exit status; nothing here panics on bad input.

mod cmd;
mod files;
mod methods;
mod picture;
mod report;
mod serve;
mod surface;
mod table;

use std::process::ExitCode;

// The grid methods' comparison, the area costs and the demo map are the playground's,
// shared with `serve` and the static playground.
use pathsmooth_playground::{areas, compare, demo_map};

use clap::{Parser, Subcommand};

/// Smooth, short, collision-free paths from planner output.
#[derive(Debug, Parser)]
#[command(name = "pathsmooth", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Smooth every method's way on the embedded examples; write pictures and print metrics.
    Demo(cmd::demo::DemoArgs),
    /// Smooth a path file with a corner cutter or spline.
    Smooth(cmd::smooth::SmoothArgs),
    /// Plan on a Moving AI map with A*, then smooth; or on a navmesh (2D, or layered in 3D);
    /// print metrics, draw pictures.
    Plan(cmd::plan::PlanArgs),
    /// Time an agent following a path at the speeds its curvature allows.
    Follow(cmd::follow::FollowArgs),
    /// Optimise a path inside a corridor of disks (Chambolle–Pock, Game AI Pro 3 ch. 20).
    Optimize(cmd::optimize::OptimizeArgs),
    /// Run a scenario file through A* and every method; print a table per method.
    Bench(cmd::bench::BenchArgs),
    /// Simulate a crowd on a Moving AI map (random goals, doors closing and opening); time
    /// every frame, check every path after every frame.
    Crowd(cmd::crowd::CrowdArgs),
    /// Bake a Recast navmesh (navmesh JSON) from OBJ level geometry.
    #[cfg(feature = "bake")]
    Bake(cmd::bake::BakeArgs),
    /// Serve the interactive playground (a web page and a JSON API) over HTTP.
    Serve(cmd::serve::ServeArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: print as clap formats them.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // Usage errors in one line too: clap's message up to its usage lines, whose
            // continuation lines (the arguments missing) joined on; `--help` has the rest.
            let text = e.render().to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
                .map(str::trim)
                .collect();
            let message = match message.join(" ") {
                m if m.is_empty() => "invalid arguments".to_owned(),
                m => m,
            };
            eprintln!("pathsmooth: {message} (see --help)");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Demo(a) => cmd::demo::run(&a),
        Command::Smooth(a) => cmd::smooth::run(&a),
        Command::Plan(a) => cmd::plan::run(&a),
        Command::Bench(a) => cmd::bench::run(&a),
        Command::Follow(a) => cmd::follow::run(&a),
        Command::Crowd(a) => cmd::crowd::run(&a),
        Command::Optimize(a) => cmd::optimize::run(&a),
        Command::Serve(a) => cmd::serve::run(&a),
        #[cfg(feature = "bake")]
        Command::Bake(a) => cmd::bake::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One clear line: the chain of contexts, outermost first.
            let msg: Vec<String> = e.chain().map(|c| c.to_string()).collect();
            eprintln!("pathsmooth: error: {}", msg.join(": "));
            ExitCode::FAILURE
        }
    }
}
