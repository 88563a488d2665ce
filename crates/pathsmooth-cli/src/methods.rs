//! The smoothing methods the CLI offers, with their command-line parameters, and one place
//! that turns a method name plus parameters into a library call.

use clap::{Args, ValueEnum};
use pathsmooth::curve::catmull_rom::{catmull_rom, CatmullRomParams, Ends};
use pathsmooth::curve::chaikin::{chaikin, chaikin_adaptive, AdaptiveParams, ChaikinParams};
use pathsmooth::{Point, Result};

/// Methods that need no map: corner cutters and splines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CurveMethod {
    /// Classic multi-pass Chaikin corner cutting.
    Chaikin,
    /// Chaikin that cuts only corners sharper than --angle-limit.
    AdaptiveChaikin,
    /// Catmull-Rom spline through every point (--alpha 0 uniform, 0.5 centripetal, 1 chordal).
    CatmullRom,
}

impl CurveMethod {
    /// Every curve method, in display order.
    pub const ALL: [CurveMethod; 3] = [
        CurveMethod::Chaikin,
        CurveMethod::AdaptiveChaikin,
        CurveMethod::CatmullRom,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            CurveMethod::Chaikin => "chaikin",
            CurveMethod::AdaptiveChaikin => "adaptive-chaikin",
            CurveMethod::CatmullRom => "catmull-rom",
        }
    }
}

/// Parameters of the curve methods (each method reads the ones it uses).
#[derive(Debug, Clone, Args)]
pub struct CurveParams {
    /// Chaikin passes (each roughly doubles the point count).
    #[arg(long, default_value_t = 4)]
    pub passes: u32,
    /// Chaikin cut ratio in (0, 0.5].
    #[arg(long, default_value_t = 0.25)]
    pub ratio: f64,
    /// Adaptive Chaikin: corners turning less than this many degrees are kept.
    #[arg(long, default_value_t = 30.0)]
    pub angle_limit: f64,
    /// Adaptive Chaikin: vertices turning more than this many degrees are dropped as
    /// spikes of noisy data (off unless given).
    #[arg(long)]
    pub outlier_limit: Option<f64>,
    /// Catmull-Rom: output points per segment.
    #[arg(long, default_value_t = 5)]
    pub subdivisions: usize,
    /// Catmull-Rom knot parameterisation α in [0, 1].
    #[arg(long, default_value_t = 0.5)]
    pub alpha: f64,
    /// Catmull-Rom ends: doubled end points (the article's choice) or reflected phantom points.
    #[arg(long, value_enum, default_value_t = EndPolicy::Doubled)]
    pub ends: EndPolicy,
    /// Treat the path as a closed loop.
    #[arg(long)]
    pub closed: bool,
}

impl Default for CurveParams {
    fn default() -> Self {
        CurveParams {
            passes: 4,
            ratio: 0.25,
            angle_limit: 30.0,
            outlier_limit: None,
            subdivisions: 5,
            alpha: 0.5,
            ends: EndPolicy::Doubled,
            closed: false,
        }
    }
}

/// Catmull-Rom end policy on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EndPolicy {
    /// p(−1) = p(0), p(n) = p(n−1).
    Doubled,
    /// p(−1) = 2p(0) − p(1), p(n) = 2p(n−1) − p(n−2).
    Reflected,
}

/// Runs a curve method on a path of any dimension.
pub fn smooth_curve<P: Point>(method: CurveMethod, p: &CurveParams, path: &[P]) -> Result<Vec<P>> {
    match method {
        CurveMethod::Chaikin => chaikin(
            path,
            ChaikinParams {
                ratio: p.ratio,
                passes: p.passes,
                closed: p.closed,
            },
        ),
        CurveMethod::AdaptiveChaikin => chaikin_adaptive(
            path,
            AdaptiveParams {
                angle_limit: p.angle_limit.to_radians(),
                outlier_limit: p.outlier_limit.map(f64::to_radians),
                ratio: p.ratio,
                max_passes: p.passes,
            },
        ),
        CurveMethod::CatmullRom => {
            let ends = match (p.closed, p.ends) {
                (true, _) => Ends::Closed,
                (false, EndPolicy::Doubled) => Ends::Doubled,
                (false, EndPolicy::Reflected) => Ends::Reflected,
            };
            let params = CatmullRomParams::uniform(p.subdivisions)
                .with_alpha(p.alpha)
                .with_ends(ends);
            catmull_rom(path, &params)
        }
    }
}
