//! The grid methods the playground and the CLI offer, with their parameters (the CLI's
//! flags, with the `clap` feature), and one place that turns a method name plus parameters
//! into the library's pipeline steps.

use pathsmooth::corridor::{CorridorParams, Method, SolverParams};
use pathsmooth::curve::{CatmullRomParams, ChaikinParams, Ends};
use pathsmooth::{FilletParams, Step};

/// Parameters of the curve methods (each method reads the ones it uses).
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct CurveParams {
    /// Chaikin passes (each roughly doubles the point count).
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = 4, allow_negative_numbers = true)
    )]
    pub passes: u32,
    /// Chaikin cut ratio in (0, 0.5].
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = 0.25, allow_negative_numbers = true)
    )]
    pub ratio: f64,
    /// Adaptive Chaikin: corners turning less than this many degrees are kept.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = 30.0, allow_negative_numbers = true)
    )]
    pub angle_limit: f64,
    /// Adaptive Chaikin: vertices turning more than this many degrees are dropped as
    /// spikes of noisy data (off unless given).
    #[cfg_attr(feature = "clap", arg(long, allow_negative_numbers = true))]
    pub outlier_limit: Option<f64>,
    /// Catmull-Rom: output points per segment.
    #[cfg_attr(feature = "clap", arg(
        long,
        default_value_t = 5,
        allow_negative_numbers = true,
        value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..)
    ))]
    pub subdivisions: usize,
    /// Catmull-Rom knot parameterisation α in [0, 1].
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = 0.5, allow_negative_numbers = true)
    )]
    pub alpha: f64,
    /// Catmull-Rom ends: doubled end points (the article's choice) or reflected phantom points.
    #[cfg_attr(feature = "clap", arg(long, value_enum, default_value_t = EndPolicy::Doubled))]
    pub ends: EndPolicy,
    /// Treat the path as a closed loop.
    #[cfg_attr(feature = "clap", arg(long))]
    pub closed: bool,
    /// Fillet: the minimum turning radius ρ, world units.
    #[cfg_attr(
        feature = "clap",
        arg(long, default_value_t = 1.0, allow_negative_numbers = true)
    )]
    pub turn_radius: f64,
    /// Fillet: clothoid transitions (continuous curvature) instead of plain arcs.
    #[cfg_attr(feature = "clap", arg(long))]
    pub g2: bool,
    /// Fillet: grow arcs up to this radius where the legs and walls leave room (default:
    /// the turning radius).
    #[cfg_attr(feature = "clap", arg(long, allow_negative_numbers = true))]
    pub max_radius: Option<f64>,
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
            turn_radius: 1.0,
            g2: false,
            max_radius: None,
        }
    }
}

/// Catmull-Rom end policy on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum EndPolicy {
    /// p(−1) = p(0), p(n) = p(n−1).
    Doubled,
    /// p(−1) = 2p(0) − p(1), p(n) = 2p(n−1) − p(n−2).
    Reflected,
}

impl CurveParams {
    /// The Catmull-Rom parameters these arguments ask for (`closed` as given, or forced
    /// open for map methods).
    pub fn catmull_rom_params(&self, allow_closed: bool) -> CatmullRomParams {
        let ends = match (self.closed && allow_closed, self.ends) {
            (true, _) => Ends::Closed,
            (false, EndPolicy::Doubled) => Ends::Doubled,
            (false, EndPolicy::Reflected) => Ends::Reflected,
        };
        CatmullRomParams::uniform(self.subdivisions)
            .with_alpha(self.alpha)
            .with_ends(ends)
    }
}

impl CurveParams {
    /// The fillet parameters these arguments ask for (the library checks the radius).
    pub fn fillet_params(&self) -> FilletParams {
        let p =
            FilletParams::new(self.turn_radius).up_to(self.max_radius.unwrap_or(self.turn_radius));
        if self.g2 {
            p.g2()
        } else {
            p
        }
    }
}

/// Methods that plan on a grid map: A* and the post-processors run on its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum MapMethod {
    /// The raw A* path through cell centres.
    Astar,
    /// Line-of-sight shortcuts of the A* path.
    Shortcut,
    /// Map-aware Chaikin on the A* path (each corner cut as deeply as the walls allow).
    Chaikin,
    /// Map-safe Catmull-Rom on the A* path.
    CatmullRom,
    /// Shortcuts, then map-aware Chaikin.
    ShortcutChaikin,
    /// Shortcuts, then map-safe Catmull-Rom.
    ShortcutCatmullRom,
    /// Navmesh of the map (constrained Delaunay), the Polyanya search over its triangles
    /// (widths for the radius), then the funnel: the shortest path through that channel.
    Funnel,
    /// The same corridor, with nodes slid along its portal edges (portal relaxation).
    Relax,
    /// The A* path pulled taut in its navmesh channel (kept off the corners), then
    /// Langerak's path optimiser (Game AI Pro 3 ch. 20; ADMM unless --corridor-solver says
    /// otherwise) in a corridor of clearance disks along it, made valid on the map; corners
    /// still turning more than 10° cut by map-aware Chaikin.
    Corridor,
    /// Shortcuts, then fillets: each corner an arc of radius ≥ --turn-radius where the
    /// walls leave room (--g2: clothoid transitions). Not in the default lists.
    Fillet,
}

impl MapMethod {
    /// Every map method, in display order.
    pub const ALL: [MapMethod; 9] = [
        MapMethod::Astar,
        MapMethod::Shortcut,
        MapMethod::Chaikin,
        MapMethod::CatmullRom,
        MapMethod::ShortcutChaikin,
        MapMethod::ShortcutCatmullRom,
        MapMethod::Funnel,
        MapMethod::Relax,
        MapMethod::Corridor,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            MapMethod::Astar => "astar",
            MapMethod::Shortcut => "shortcut",
            MapMethod::Chaikin => "chaikin",
            MapMethod::CatmullRom => "catmull-rom",
            MapMethod::ShortcutChaikin => "shortcut-chaikin",
            MapMethod::ShortcutCatmullRom => "shortcut-catmull-rom",
            MapMethod::Funnel => "funnel",
            MapMethod::Relax => "relax",
            MapMethod::Corridor => "corridor",
            MapMethod::Fillet => "fillet",
        }
    }
}

impl MapMethod {
    /// The pipeline steps of this method (none for the raw A* path).
    pub fn steps(self, curve: &CurveParams, optimiser: &OptimiserParams) -> Vec<Step> {
        let chaikin = || {
            Step::Chaikin(ChaikinParams {
                ratio: curve.ratio,
                passes: curve.passes,
                closed: false,
            })
        };
        let catmull_rom = || Step::CatmullRom(curve.catmull_rom_params(false));
        match self {
            MapMethod::Astar => vec![],
            MapMethod::Shortcut => vec![Step::Shortcut],
            MapMethod::Chaikin => vec![chaikin()],
            MapMethod::CatmullRom => vec![catmull_rom()],
            MapMethod::ShortcutChaikin => vec![Step::Shortcut, chaikin()],
            MapMethod::ShortcutCatmullRom => vec![Step::Shortcut, catmull_rom()],
            MapMethod::Funnel => vec![Step::Funnel],
            MapMethod::Relax => vec![Step::relax()],
            MapMethod::Corridor => vec![optimiser.step()],
            MapMethod::Fillet => vec![Step::Shortcut, Step::Fillet(curve.fillet_params())],
        }
    }
}

/// Which iteration solves the corridor problem (the same energy; the step runs a fixed
/// count of either, `CORRIDOR_ITERATIONS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum CorridorSolver {
    /// ADMM with the smoothness system solved exactly (the library's corridor default).
    Admm,
    /// The chapter's Chambolle–Pock iteration (`--corridor-alpha`, `--corridor-beta`).
    ChambollePock,
}

impl CorridorSolver {
    /// Both iterations, in display order.
    pub const ALL: [CorridorSolver; 2] = [CorridorSolver::Admm, CorridorSolver::ChambollePock];

    /// The name the playground's `corridor_solver` and the CLI's `--corridor-solver` take.
    pub fn name(self) -> &'static str {
        match self {
            CorridorSolver::Admm => "admm",
            CorridorSolver::ChambollePock => "chambolle-pock",
        }
    }

    /// The corridor step's own default iteration ([`CorridorParams::default`]).
    pub fn library_default() -> Self {
        match CorridorParams::default().solver.method {
            Method::ChambollePock => CorridorSolver::ChambollePock,
            Method::Admm { .. } => CorridorSolver::Admm,
        }
    }

    /// The library's method.
    pub fn method(self) -> Method {
        match self {
            CorridorSolver::Admm => Method::ADMM,
            CorridorSolver::ChambollePock => Method::ChambollePock,
        }
    }
}

/// The corridor optimiser's options on the command line (the iteration, Langerak's α and
/// β of (20.9), the disks' spacing, windows; defaults: the library's).
#[derive(Debug, Clone)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct OptimiserParams {
    /// Corridor optimiser: the iteration that solves it.
    #[cfg_attr(feature = "clap", arg(long, value_enum, default_value_t = CorridorSolver::library_default()))]
    pub corridor_solver: CorridorSolver,
    /// Corridor optimiser, Chambolle–Pock only: α ∈ (0, 2) of the step sizes.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = SolverParams::default().alpha, allow_hyphen_values = true))]
    pub corridor_alpha: f64,
    /// Corridor optimiser, Chambolle–Pock only: β > 0, the balance of the primal and dual
    /// steps.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = SolverParams::default().beta, allow_hyphen_values = true))]
    pub corridor_beta: f64,
    /// Corridor optimiser: how far apart its disks are, as a fraction of the room the agent
    /// has there, in (0, 1]; 1 gives fewer disks, for paths slower to follow.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = CorridorParams::default().spacing, allow_hyphen_values = true))]
    pub corridor_spacing: f64,
    /// Corridor optimiser: solve in windows cut on the route's straight runs (faster; the
    /// paths are as short, but not the whole problem's optimum).
    #[cfg_attr(feature = "clap", arg(long))]
    pub corridor_windows: bool,
}

impl Default for OptimiserParams {
    fn default() -> Self {
        let (d, c) = (SolverParams::default(), CorridorParams::default());
        OptimiserParams {
            corridor_solver: CorridorSolver::library_default(),
            corridor_alpha: d.alpha,
            corridor_beta: d.beta,
            corridor_spacing: c.spacing,
            corridor_windows: c.windows,
        }
    }
}

impl OptimiserParams {
    /// The corridor step with these options (the library checks their ranges).
    pub fn step(&self) -> Step {
        let mut params = CorridorParams {
            spacing: self.corridor_spacing,
            windows: self.corridor_windows,
            ..Default::default()
        };
        params.solver.method = self.corridor_solver.method();
        params.solver.alpha = self.corridor_alpha;
        params.solver.beta = self.corridor_beta;
        Step::Corridor(params)
    }
}

#[cfg(all(test, feature = "clap"))]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn the_names_are_the_flags_values() {
        for s in CorridorSolver::ALL {
            let v = s.to_possible_value().unwrap();
            assert_eq!(v.get_name(), s.name());
        }
        assert_eq!(CorridorSolver::value_variants(), CorridorSolver::ALL);
        for m in MapMethod::ALL {
            assert_eq!(m.to_possible_value().unwrap().get_name(), m.name());
        }
    }
}
