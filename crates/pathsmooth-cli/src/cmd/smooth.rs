//! `pathsmooth smooth`: a path file in, a smoothed path file out.

use anyhow::Result;
use clap::Args;
use glam::DVec2;
use pathsmooth::io::{Format, PathData};
use pathsmooth::metrics::PathMetrics;
use pathsmooth::Point;

use crate::files::{read_path, write_bytes, write_path_file};
use crate::methods::{smooth_curve, CurveMethod, CurveParams};
use crate::picture::{svg, Layer, Scene, PALETTE};

/// Arguments of `pathsmooth smooth`.
#[derive(Debug, Args)]
pub struct SmoothArgs {
    /// Smoothing method.
    #[arg(long, value_enum)]
    pub method: CurveMethod,
    #[command(flatten)]
    pub params: CurveParams,
    /// Input path file (JSON or CSV); `-` reads stdin.
    #[arg(long, short, default_value = "-")]
    pub input: String,
    /// Output path file; `-` writes stdout.
    #[arg(long, short, default_value = "-")]
    pub output: String,
    /// File format of input and output (default: from the extension; JSON for stdout).
    #[arg(long, value_enum)]
    pub format: Option<FileFormat>,
    /// Also draw input and output into this SVG file (2D: x and y).
    #[arg(long)]
    pub svg: Option<String>,
    /// Print length and turning of input and output to stderr.
    #[arg(long)]
    pub metrics: bool,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FileFormat {
    /// `{"points": [[x, y], …]}`.
    Json,
    /// `x,y[,z]` lines.
    Csv,
}

impl From<FileFormat> for Format {
    fn from(f: FileFormat) -> Format {
        match f {
            FileFormat::Json => Format::Json,
            FileFormat::Csv => Format::Csv,
        }
    }
}

/// Runs `pathsmooth smooth`.
pub fn run(a: &SmoothArgs) -> Result<()> {
    let format = a.format.map(Format::from);
    match read_path(&a.input, format)? {
        PathData::D2(path) => smooth_and_write(a, format, &path),
        PathData::D3(path) => smooth_and_write(a, format, &path),
    }
}

fn smooth_and_write<P: Point>(a: &SmoothArgs, format: Option<Format>, path: &[P]) -> Result<()> {
    let out = smooth_curve(a.method, &a.params, path)?;
    write_path_file(&a.output, format, &out)?;
    if a.metrics {
        if a.method == CurveMethod::Fillet {
            let f = pathsmooth::fillet_geometry(&to_2d(path), &a.params.fillet_params())?;
            eprintln!(
                "fillet: {} corners, {} below the turning radius {}, max curvature {:.4}",
                f.turns,
                f.corners.len(),
                a.params.turn_radius,
                f.curve.max_curvature()
            );
        }
        for (label, p) in [("input", path), (a.method.name(), &out[..])] {
            let m = PathMetrics::of(p)?;
            eprintln!(
                "{label}: {} points, length {:.4}, max turn {:.2}°, total turn {:.2}°",
                m.points,
                m.length,
                m.max_turn.to_degrees(),
                m.total_turn.to_degrees()
            );
        }
    }
    if let Some(file) = &a.svg {
        let (input, output) = (to_2d(path), to_2d(&out));
        let mut scene = Scene::for_points(
            format!("pathsmooth smooth --method {}", a.method.name()),
            input.iter().chain(&output),
        );
        // Fillets are drawn as arcs (the same geometry again, without sampling).
        let curve = (a.method == CurveMethod::Fillet)
            .then(|| pathsmooth::fillet_geometry(&input, &a.params.fillet_params()))
            .transpose()?;
        scene.layers.push(Layer::raw("input", input));
        scene.layers.push(match curve {
            Some(f) => Layer::curve(a.method.name(), f.curve, output, PALETTE[0]),
            None => Layer::path(a.method.name(), output, PALETTE[0]),
        });
        write_bytes(file, svg::render(&scene).as_bytes())?;
    }
    Ok(())
}

fn to_2d<P: Point>(p: &[P]) -> Vec<DVec2> {
    pathsmooth::geometry::to_dvec2(p)
}
