//! `pathsmooth`: the command-line face of the pathsmooth library.
//!
//! Every subcommand reads user data, so every failure is reported as one line on stderr
//! with a non-zero exit status; nothing here panics on bad input.

mod cmd;
mod files;
mod methods;
mod picture;
mod table;

use std::process::ExitCode;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(a) => cmd::demo::run(&a),
        Command::Smooth(a) => cmd::smooth::run(&a),
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
