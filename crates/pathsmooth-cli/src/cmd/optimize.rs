//! `pathsmooth optimize`: the Chambolle–Pock corridor optimiser on a corridor of disks (or
//! on a problem dumped by an earlier run), with the energy per iteration and pictures in the
//! manner of Langerak's Figure 20.7.

use std::fmt::Write as _;

use anyhow::{bail, Result};
use clap::Args;
use glam::DVec2;
use pathsmooth::corridor::{optimize, Problem, ProblemParams, SolverParams, Stop};

use crate::files::{read_text, write_bytes, write_path_file};
use crate::picture::{png, Layer, Scene, PALETTE};

/// Arguments of `pathsmooth optimize`.
#[derive(Debug, Args)]
pub struct OptimizeArgs {
    /// Corridor JSON `{"centers": [[x,y],…], "radii": […], "start_dir"?, "goal_dir"?}`, or a
    /// problem written by `--dump-problem` (solved exactly as given); `-` reads stdin.
    #[arg(long)]
    pub corridor: String,
    /// Run exactly this many iterations (the chapter's way).
    #[arg(
        long,
        conflicts_with = "tolerance",
        allow_negative_numbers = true,
        value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..)
    )]
    pub iterations: Option<usize>,
    /// Stop when the relative duality gap is below this (guarantees the energy is within
    /// it of the optimum).
    #[arg(long, allow_negative_numbers = true)]
    pub tolerance: Option<f64>,
    /// Step-size parameter α in (0, 2) of the chapter's (20.9).
    #[arg(long, allow_negative_numbers = true)]
    pub alpha: Option<f64>,
    /// Step-size parameter β > 0 of (20.9).
    #[arg(long, allow_negative_numbers = true)]
    pub beta: Option<f64>,
    /// Write the optimised path (waypoints without the dummies) here; `-` for stdout.
    #[arg(long, short, default_value = "-")]
    pub output: String,
    /// Write the energy of every iteration as CSV (`iteration,energy`).
    #[arg(long)]
    pub energy_csv: Option<String>,
    /// Plot the energy per iteration into this PNG.
    #[arg(long)]
    pub energy_png: Option<String>,
    /// Write the discretised problem the solver saw (dummies included) as JSON.
    #[arg(long)]
    pub dump_problem: Option<String>,
    /// Draw the disks, the initial path, the path after a few iterations and the final path.
    #[arg(long)]
    pub png: Option<String>,
}

/// Runs `pathsmooth optimize`.
pub fn run(a: &OptimizeArgs) -> Result<()> {
    let problem = Problem::from_any_json(&read_text(&a.corridor)?, &ProblemParams::default())?;
    let options = solver_options(a)?;
    let solution = optimize(&problem, &options)?;
    write_path_file(&a.output, None, problem.waypoints(&solution.path))?;
    let r = &solution.report;
    let summary = format!(
        "{} waypoints, {} iterations, energy {:.6}{}",
        problem.len(),
        r.iterations,
        r.energy,
        r.gap
            .map(|g| format!(
                ", relative gap {g:.2e}{}",
                if r.converged { "" } else { " (not reached)" }
            ))
            .unwrap_or_default()
    );
    if a.output == "-" {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    if let Some(f) = &a.dump_problem {
        write_bytes(f, problem.to_json().as_bytes())?;
    }
    if let Some(f) = &a.energy_csv {
        let mut csv = String::from("iteration,energy\n");
        for (k, e) in solution.energies.iter().enumerate() {
            let _ = writeln!(csv, "{k},{e}");
        }
        write_bytes(f, csv.as_bytes())?;
    }
    if let Some(f) = &a.energy_png {
        write_bytes(
            f,
            &png::plot(
                "energy per iteration",
                "iteration",
                "E(v)",
                &solution.energies,
            )?,
        )?;
    }
    if let Some(f) = &a.png {
        write_bytes(
            f,
            &png::render(&iterations_scene(&problem, &options, &solution.path)?)?,
        )?;
    }
    Ok(())
}

fn solver_options(a: &OptimizeArgs) -> Result<SolverParams> {
    let mut o = SolverParams {
        record_energy: a.energy_csv.is_some() || a.energy_png.is_some(),
        ..SolverParams::default()
    };
    if let Some(alpha) = a.alpha {
        o.alpha = alpha;
    }
    if let Some(beta) = a.beta {
        o.beta = beta;
    }
    match (a.iterations, a.tolerance) {
        (Some(0), _) => bail!("--iterations must be at least 1"),
        (Some(n), _) => o.stop = Stop::Iterations(n),
        (None, Some(t)) => {
            o.stop = Stop::Tolerance {
                gap: t,
                max_iterations: 100_000,
            }
        }
        (None, None) => {}
    }
    o.validate()?;
    Ok(o)
}

/// Disks, the initial path (the centres), the path after 1, 5 and 20 iterations, and the
/// final path: the chapter's Figure 20.7a.
fn iterations_scene(
    problem: &Problem,
    options: &SolverParams,
    fin: &[DVec2],
) -> Result<Scene<'static>> {
    // Frame the disks, not just their centres.
    let extent: Vec<DVec2> = problem
        .centers
        .iter()
        .zip(&problem.radii)
        .flat_map(|(c, r)| [*c - DVec2::splat(*r), *c + DVec2::splat(*r)])
        .collect();
    let mut scene = Scene::for_points("corridor optimisation", extent.iter().chain(fin));
    scene.disks = problem
        .centers
        .iter()
        .copied()
        .zip(problem.radii.iter().copied())
        .filter(|(_, r)| *r > 0.0)
        .collect();
    scene
        .layers
        .push(Layer::raw("initial path (centres)", problem.initial_path()));
    for (i, k) in [1usize, 5, 20].into_iter().enumerate() {
        let o = SolverParams {
            stop: Stop::Iterations(k),
            record_energy: false,
            ..*options
        };
        let s = optimize(problem, &o)?;
        let mut layer = Layer::path(
            format!("after {k} iteration{}", if k == 1 { "" } else { "s" }),
            s.path,
            PALETTE[i + 4],
        );
        layer.width = 1.2;
        scene.layers.push(layer);
    }
    scene
        .layers
        .push(Layer::path("final path", fin.to_vec(), PALETTE[0]));
    scene.mark_ends(problem.waypoints(fin));
    Ok(scene)
}
