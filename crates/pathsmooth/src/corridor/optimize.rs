//! The optimiser ([`Solver`]), its parameters ([`SolverParams`]) and the one-call and batch
//! forms ([`optimize`], `solve_batch`, `solve_batch_into`).

// Loops index several parallel arrays at once (v, c, r, w, σ, τ…), as the maths does.
#![allow(clippy::needless_range_loop)]

use glam::DVec2;
#[cfg(feature = "rayon")]
use rayon::prelude::*;

use super::admm::Admm;
use super::operators::{
    apply_k, apply_kt, dual_objective, project_to_disk, smooth_and_length, step_sizes, LengthNorm,
};
use super::problem::Problem;
use crate::error::{Error, Result};

/// How often (in iterations) [`Stop::Tolerance`] evaluates the duality gap, so a
/// tolerance stop always lands on a multiple of it (or on the cap).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{optimize, Problem, SolverParams, GAP_CHECK_EVERY};
/// let p = Problem::new(vec![DVec2::ZERO, DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)], vec![0.0, 1.0, 0.0], vec![0.0, 1.0, 0.0], 1.0).unwrap();
/// let s = optimize(&p, &SolverParams::default()).unwrap();
/// assert_eq!(s.report.iterations % GAP_CHECK_EVERY, 0);
/// ```
pub const GAP_CHECK_EVERY: usize = 10;

/// The most iterations any [`Stop`] may ask for (10⁶, [`Error::BadParameter`] beyond):
/// it bounds a solve's time to 10⁶ sweeps over the waypoints and the energy history
/// ([`SolverParams::record_energy`]) to 10⁶ + 1 values (8 MB).
///
/// ```
/// use pathsmooth::corridor::{SolverParams, Stop, MAX_ITERATIONS};
/// let o = SolverParams { stop: Stop::Iterations(MAX_ITERATIONS + 1), ..Default::default() };
/// assert!(o.validate().is_err());
/// ```
pub const MAX_ITERATIONS: usize = 1_000_000;

/// When to stop iterating.
///
/// ```
/// use pathsmooth::corridor::Stop;
/// assert_eq!(Stop::default(), Stop::Tolerance { gap: 1e-3, max_iterations: 20_000 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stop {
    /// Exactly this many iterations (the chapter's way), 1..=[`MAX_ITERATIONS`].
    Iterations(usize),
    /// Until the relative duality gap (E − D)/E ≤ `gap`, at most `max_iterations`.
    Tolerance {
        /// Relative gap to reach, > 0.
        gap: f64,
        /// Iteration cap, 1..=[`MAX_ITERATIONS`].
        max_iterations: usize,
    },
}

impl Default for Stop {
    fn default() -> Self {
        Stop::Tolerance {
            gap: 1e-3,
            max_iterations: 20_000,
        }
    }
}

/// Solver parameters ([`Solver`]):
///
/// - `method`: this iteration ([`Method::ChambollePock`], the default) or ADMM
///   ([`Method::Admm`]) on the same problem; the parameters below are
///   Chambolle–Pock's, `stop`, `length` and `record_energy` apply to both.
/// - `alpha`, `beta`: balance the primal and dual steps (§20.4.3); with `scale_beta`
///   (default) the β of (20.9) is `beta·h^α`, which makes the iteration independent of the
///   map's units. Defaults α = 0.5, β = 4 (below).
/// - `relaxation` ρ ∈ (0, 2): over-relaxed Chambolle–Pock (Chambolle & Pock 2016, §5.1):
///   (v, y) ← (v, y) + ρ((ṽ, ŷ) − (v, y)) after each step. 1 is the chapter's algorithm;
///   the default 1.8 needs fewer iterations for a few extra flops per waypoint.
/// - `acceleration` γ ≥ 0: Chambolle & Pock (2011) Algorithm 2 applied to the dual, whose
///   F₁* = ½‖p‖² is strongly convex: after each step the dual steps shrink by
///   θ = 1/√(1+2γσ̄) (σ̄ the largest σᵢ), the primal steps grow by 1/θ, and the dual (not
///   the primal) is extrapolated. F₂* is not strongly convex, so this is a heuristic
///   here. It helps a badly chosen β but not well-chosen steps, so it is off (0) by
///   default.
/// - `stop`: [`Stop::Iterations`] (the chapter's fixed count) or [`Stop::Tolerance`]
///   (default, 1e-3): stop when the duality gap E(v) − D(y), relative to E(v), falls
///   below the tolerance. D(p, q) = Σᵢ ⟨cᵢ, gᵢ⟩ − rᵢ‖gᵢ‖ − ½‖p‖² with g = Kᵀ(p, q) is the
///   dual objective; by weak duality D ≤ min E, so the gap *certifies*
///   E(v) − min E ≤ tol·E(v), with no tuning and no false stops. It is evaluated every
///   [`GAP_CHECK_EVERY`] iterations at two dual points, the iterate y and the point of
///   v itself (p = K₁v, q = K₂v/‖K₂v‖), taking the better. The price of the certificate:
///   it is reached later than the true gap.
/// - `length`: the chapter's V,2 length norm, or the sum of segment lengths (V,1) whose
///   dual projection is point-wise onto unit disks ([`LengthNorm`] explains the
///   difference).
/// - `record_energy`: keep E(vᵏ) for every k (Figure 20.7b) in [`Solver::energies`].
///
/// Every stop runs at most [`MAX_ITERATIONS`] (10⁶) iterations, so a solve costs at most
/// 10⁶ sweeps over the waypoints and the recorded energies at most 8 MB.
///
/// # Defaults
///
/// α = 0.5, β = 4 and over-relaxation ρ = 1.8 (the chapter's example values are α = β = 1
/// at ρ = 1: [`SolverParams::chapter`]).
///
/// ```
/// use pathsmooth::corridor::SolverParams;
/// let o = SolverParams::default();
/// assert!(o.validate().is_ok());
/// assert!(SolverParams { alpha: 2.0, ..o }.validate().is_err()); // α must be in (0, 2)
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolverParams {
    /// α ∈ (0, 2) of (20.9).
    pub alpha: f64,
    /// β > 0 of (20.9) (multiplied by h^α when `scale_beta` is set).
    pub beta: f64,
    /// Use β·h^α in (20.9) instead of β. Scaling the map by s scales h by s, and the
    /// iterates scale with it exactly when β scales by s^α (τ ∝ β h^{2−α} must grow by
    /// s², σ ∝ h^α/β must stay put). So with this set the iteration count no longer
    /// depends on the map's units, which the chapter names as a reason α and β need
    /// re-tuning (§20.4.3). Default true; [`SolverParams::chapter`] clears it.
    pub scale_beta: bool,
    /// When to stop.
    pub stop: Stop,
    /// The length term's norm.
    pub length: LengthNorm,
    /// Over-relaxation ρ ∈ (0, 2); 1 = the chapter.
    pub relaxation: f64,
    /// Acceleration γ ≥ 0 (Algorithm 2 on the dual); 0 = the chapter. When γ > 0,
    /// `relaxation` is not applied.
    pub acceleration: f64,
    /// Record E(vᵏ) for every iteration k (index 0 = the start): at most
    /// [`MAX_ITERATIONS`] + 1 values.
    pub record_energy: bool,
    /// The iteration: the chapter's Chambolle–Pock (default; `alpha`, `beta`,
    /// `relaxation` and `acceleration` apply to it only) or ADMM.
    pub method: Method,
}

/// Which iteration solves the problem. Both minimise the same energy to the same
/// certified gap ([`Stop::Tolerance`]) and return waypoints in their disks.
///
/// ```
/// use pathsmooth::corridor::{Method, SolverParams};
/// assert_eq!(SolverParams::default().method, Method::ChambollePock);
/// let admm = SolverParams { method: Method::ADMM, ..Default::default() };
/// assert!(admm.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Method {
    /// The preconditioned primal-dual iteration of Langerak's chapter (module doc).
    #[default]
    ChambollePock,
    /// ADMM (the alternating direction method of multipliers; S. Boyd et al., "Distributed
    /// Optimization and Statistical Learning via the Alternating Direction Method of
    /// Multipliers", 2011) with the smoothness term's pentadiagonal system solved exactly
    /// (its LDLᵀ factors once per solve, O(n)), the disk constraint and the length term
    /// split off; its stopping gap is certified as Chambolle–Pock's. Fewer iterations than
    /// Chambolle–Pock on most long corridors, each somewhat costlier. `penalty` (> 0) is the
    /// disk constraint's ρ·h², `relaxation` ∈ (0, 2) the over-relaxation; [`Method::ADMM`] has
    /// the defaults.
    Admm {
        /// The disk constraint's penalty ρ₂, times h² (so it does not depend on units).
        penalty: f64,
        /// Over-relaxation α ∈ (0, 2); 1 is plain ADMM.
        relaxation: f64,
    },
}

impl Method {
    /// ADMM with its default penalty 2 and relaxation 1.8.
    pub const ADMM: Method = Method::Admm {
        penalty: 2.0,
        relaxation: 1.8,
    };
}

impl Default for SolverParams {
    fn default() -> Self {
        SolverParams {
            alpha: 0.5,
            beta: 4.0,
            scale_beta: true,
            stop: Stop::default(),
            length: LengthNorm::Chapter,
            relaxation: 1.8,
            acceleration: 0.0,
            record_energy: false,
            method: Method::ChambollePock,
        }
    }
}

impl SolverParams {
    /// The chapter's algorithm exactly: no relaxation or acceleration, a fixed number of
    /// iterations, the given α and β.
    ///
    /// ```
    /// use pathsmooth::corridor::{SolverParams, Stop};
    /// let o = SolverParams::chapter(100, 1.0, 1.0);
    /// assert_eq!(o.stop, Stop::Iterations(100));
    /// ```
    pub fn chapter(iterations: usize, alpha: f64, beta: f64) -> Self {
        SolverParams {
            alpha,
            beta,
            scale_beta: false,
            stop: Stop::Iterations(iterations),
            relaxation: 1.0,
            acceleration: 0.0,
            ..Default::default()
        }
    }

    /// Checks every parameter: α ∈ (0, 2), β > 0, ρ ∈ (0, 2), γ ≥ 0 (all finite), 1 to
    /// [`MAX_ITERATIONS`] iterations, a tolerance > 0 → else [`Error::BadParameter`].
    ///
    /// ```
    /// use pathsmooth::{corridor::{SolverParams, Stop}, Error};
    /// let o = SolverParams { alpha: 2.0, ..Default::default() };
    /// assert!(matches!(o.validate(), Err(Error::BadParameter { name: "alpha", .. })));
    /// let o = SolverParams { stop: Stop::Iterations(usize::MAX), ..Default::default() };
    /// assert!(matches!(o.validate(), Err(Error::BadParameter { name: "iterations", .. })));
    /// ```
    pub fn validate(&self) -> Result<()> {
        let open = |x: f64, lo: f64, hi: f64| x > lo && x < hi;
        if !open(self.alpha, 0.0, 2.0) {
            return Err(Error::param("alpha", self.alpha, "0 < α < 2"));
        }
        if !open(self.beta, 0.0, f64::INFINITY) {
            return Err(Error::param("beta", self.beta, "a finite β > 0"));
        }
        if !open(self.relaxation, 0.0, 2.0) {
            return Err(Error::param("relaxation", self.relaxation, "0 < ρ < 2"));
        }
        if !(self.acceleration.is_finite() && self.acceleration >= 0.0) {
            return Err(Error::param(
                "acceleration",
                self.acceleration,
                "a finite γ ≥ 0",
            ));
        }
        if let Method::Admm {
            penalty,
            relaxation,
        } = self.method
        {
            if !open(penalty, 0.0, f64::INFINITY) {
                return Err(Error::param("penalty", penalty, "a finite penalty > 0"));
            }
            if !open(relaxation, 0.0, 2.0) {
                return Err(Error::param("relaxation", relaxation, "0 < α < 2"));
            }
        }
        let k = self.max_iterations();
        if !(1..=MAX_ITERATIONS).contains(&k) {
            return Err(Error::param(
                "iterations",
                k as f64,
                "1 <= iterations <= 1000000 (MAX_ITERATIONS)",
            ));
        }
        match self.stop {
            Stop::Tolerance { gap, .. } if !open(gap, 0.0, f64::INFINITY) => {
                Err(Error::param("tolerance", gap, "a finite tolerance > 0"))
            }
            _ => Ok(()),
        }
    }

    fn max_iterations(&self) -> usize {
        match self.stop {
            Stop::Iterations(k) => k,
            Stop::Tolerance { max_iterations, .. } => max_iterations,
        }
    }
}

/// Where the iteration starts.
///
/// ```
/// use pathsmooth::corridor::Init;
/// let cold = Init::Centers;
/// assert!(matches!(cold, Init::Centers));
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Init<'a> {
    /// The chapter's start: v⁰ = c, p⁰ = q⁰ = 0.
    Centers,
    /// Warm start from this solver's previous result (primal and dual), e.g. solving again
    /// every frame on a slightly changed problem of the same size.
    Previous,
    /// Warm start from a given path (projected onto the disks first) and optionally the
    /// dual variables of an earlier [`Solution`] (projected onto their sets; Chambolle–Pock
    /// only: ADMM starts its multipliers at 0, and keeps its own with [`Init::Previous`]).
    From {
        /// One point per waypoint, dummies included.
        path: &'a [DVec2],
        /// The dual variables (p, q), one point each per waypoint.
        dual: Option<(&'a [DVec2], &'a [DVec2])>,
    },
}

/// What a solve did.
///
/// ```
/// use pathsmooth::corridor::Report;
/// let r = Report { iterations: 10, energy: 1.0, gap: None, converged: false };
/// assert_eq!(r.iterations, 10);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Report {
    /// Iterations run.
    pub iterations: usize,
    /// E(v) of the returned path.
    pub energy: f64,
    /// The last relative duality gap measured (only with [`Stop::Tolerance`]).
    pub gap: Option<f64>,
    /// True when the tolerance was reached (always false with [`Stop::Iterations`]).
    pub converged: bool,
}

/// An owned result of [`optimize`] (and of `solve_batch`, with the `rayon` feature).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{optimize, Problem, SolverParams};
/// let p = Problem::new(vec![DVec2::ZERO, DVec2::new(1.0, 0.5), DVec2::new(2.0, 0.0)], vec![0.0, 1.0, 0.0], vec![0.0, 1.0, 0.0], 1.0).unwrap();
/// let s = optimize(&p, &SolverParams::default()).unwrap();
/// assert_eq!(s.path.len(), 3);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The optimised waypoints, dummies included (see [`Problem::waypoints`]).
    pub path: Vec<DVec2>,
    /// Dual variable p (smoothness term), for warm starts.
    pub p: Vec<DVec2>,
    /// Dual variable q (length term), for warm starts.
    pub q: Vec<DVec2>,
    /// Energies per iteration when recorded, else empty.
    pub energies: Vec<f64>,
    /// What the solve did.
    pub report: Report,
}

/// The convex path optimiser of Langerak (Game AI Pro 3, ch. 20): the Chambolle–Pock
/// preconditioned primal-dual algorithm applied to the path energy (20.1), or ADMM on the
/// same problem ([`SolverParams::method`]). Reusable: it owns every buffer, so repeated
/// solves of problems of the same (or smaller) size allocate nothing.
///
/// # What it does
///
/// Minimises, over waypoints v each confined to its clearance disk,
///
/// E(v) = ½‖w δˢ(v)‖²_{V,2} + ‖δ⁺(v)‖_{V,2} + I_C(v)
///
/// (the energy of [`energy`](crate::corridor::energy); [`Problem`] for the disks, weights,
/// dummies and h). The iteration is (20.8) with the proximity operators of §20.4.2 (p ←
/// p/(1+σ) point-wise; q ← q / max(1, ‖q‖_{V,2}); v ← projection onto each disk) and the
/// diagonal step sizes (20.9) of Pock & Chambolle (2011), computed from the actual K with α
/// ∈ (0, 2) and β > 0.
///
/// It runs in the equivalent "primal first" order: v ← prox_G(v − T Kᵀ y), then
/// y ← prox_F*(y + Σ K(2v_new − v_old)). Started from y⁰ = prox_F*(Σ K c) (the chapter's
/// first dual step from p⁰ = q⁰ = 0, v⁰ = v̂⁰ = c) it produces exactly the chapter's
/// iterates vᵏ, and it is the form in which over-relaxation is defined.
///
/// # Limits
///
/// As in the chapter, the disks constrain the *waypoints*, not the segments between
/// them: two waypoints in overlapping disks can be joined by a segment that leaves both.
/// Denser corridors
/// ([`ProblemParams::max_spacing`](crate::corridor::ProblemParams::max_spacing)) shrink the
/// problem; guaranteeing validity on a map is the caller's job (the corridor smoother's
/// safe radii do it). Every returned waypoint is inside its disk up to rounding (≤ 1e-9 at
/// ordinary coordinates; relative to the coordinates' magnitude in general), radius-0
/// waypoints exactly at their centres.
///
/// # Cost
///
/// O(n) per iteration (a few dozen flops per waypoint), no allocation once the
/// [`Solver`]'s buffers have grown to the problem size. The gap check costs about two
/// iterations and runs every [`GAP_CHECK_EVERY`] iterations of a [`Stop::Tolerance`]
/// solve (a [`Stop::Iterations`] solve forms only its last dual point).
///
/// # Sources
///
/// - M. Langerak, "Optimization for Smooth Paths", Game AI Pro 3, ch. 20 (2017).
/// - A. Chambolle, T. Pock, "A first-order primal-dual algorithm for convex problems
///   with applications to imaging", J. Math. Imaging Vis. 40(1), 2011 (Algorithms 1, 2).
/// - T. Pock, A. Chambolle, "Diagonal preconditioning for first order primal-dual
///   algorithms in convex optimization", ICCV 2011 (the step sizes, Lemma 2).
/// - A. Chambolle, T. Pock, "An introduction to continuous optimization for imaging",
///   Acta Numerica 25, 2016 (over-relaxation).
///
/// # Example
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{DiskCorridor, Problem, ProblemParams, Solver, SolverParams, Stop};
/// let corridor = DiskCorridor::new(
///     vec![DVec2::ZERO, DVec2::new(2.0, 2.0), DVec2::new(4.0, 0.0), DVec2::new(6.0, 2.0)],
///     vec![1.0, 2.0, 2.0, 1.0],
///     Some(DVec2::X),
///     None,
/// )
/// .unwrap();
/// let problem = Problem::from_corridor(&corridor, &ProblemParams::default()).unwrap();
/// let mut solver = Solver::new();
/// let params = SolverParams {
///     stop: Stop::Tolerance { gap: 1e-6, max_iterations: 100_000 },
///     ..Default::default()
/// };
/// let report = solver.solve(&problem, &params).unwrap();
/// assert!(report.converged);
/// let path = problem.waypoints(solver.path());
/// assert_eq!(path[0], corridor.start());
/// assert_eq!(path[path.len() - 1], corridor.goal());
/// ```
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{Init, Problem, Solver, SolverParams};
/// let mut p = Problem::new(vec![DVec2::ZERO, DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)], vec![0.0, 1.0, 0.0], vec![0.0, 1.0, 0.0], 1.0).unwrap();
/// let mut solver = Solver::new();
/// let first = solver.solve(&p, &SolverParams::default()).unwrap();
/// p.centers[1].y = 1.1; // the world moved a little: solve again from the last answer
/// let again = solver.solve_from(&p, &SolverParams::default(), Init::Previous).unwrap();
/// assert!(again.iterations <= first.iterations);
/// ```
#[derive(Debug, Default, Clone)]
pub struct Solver {
    v: Vec<DVec2>,
    v_new: Vec<DVec2>,
    p: Vec<DVec2>,
    q: Vec<DVec2>,
    p_bar: Vec<DVec2>,
    q_bar: Vec<DVec2>,
    g: Vec<DVec2>,
    kp: Vec<DVec2>,
    kq: Vec<DVec2>,
    sigma: Vec<f64>,
    tau: Vec<f64>,
    /// Per waypoint, for the relaxed step: τᵢ/h, wᵢσᵢ/h and 1/(1 + σᵢ), found once a solve
    /// so the step multiplies instead of dividing.
    tau_h: Vec<f64>,
    sigma_wh: Vec<f64>,
    keep_p: Vec<f64>,
    energies: Vec<f64>,
    /// ADMM's own iterates and factors ([`Method::Admm`]); its feasible iterate is `v`.
    admm: Admm,
}

impl Solver {
    /// An empty solver; buffers grow on the first solve.
    ///
    /// ```
    /// let s = pathsmooth::corridor::Solver::new();
    /// assert!(s.path().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Solves from the chapter's start (v⁰ = c). The result is in [`Solver::path`].
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::{Problem, Solver, SolverParams};
    /// let p = Problem::new(vec![DVec2::ZERO, DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)], vec![0.0, 1.0, 0.0], vec![0.0, 0.0, 0.0], 1.0).unwrap();
    /// let mut s = Solver::new();
    /// s.solve(&p, &SolverParams::default()).unwrap();
    /// // No smoothness weight: the shortest path, the middle point on the straight line.
    /// assert!(s.path()[1].y.abs() < 1e-2);
    /// ```
    pub fn solve(&mut self, problem: &Problem, params: &SolverParams) -> Result<Report> {
        self.solve_from(problem, params, Init::Centers)
    }

    /// Solves from the given start. Errors: an invalid problem or parameters (see
    /// [`Problem::validate`], [`SolverParams::validate`]); [`Init::Previous`] or
    /// [`Init::From`] of the wrong length ([`Error::BadParameter`] `warm start`);
    /// [`Error::NonFinite`] if the arithmetic overflowed (coordinates near f64::MAX).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{corridor::{Init, Problem, Solver, SolverParams}, Error};
    /// let p = Problem::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 0.0], vec![0.0, 0.0], 1.0).unwrap();
    /// let e = Solver::new().solve_from(&p, &SolverParams::default(), Init::Previous);
    /// assert!(matches!(e, Err(Error::BadParameter { name: "warm start", .. })));
    /// ```
    pub fn solve_from(
        &mut self,
        problem: &Problem,
        params: &SolverParams,
        init: Init<'_>,
    ) -> Result<Report> {
        problem.validate()?;
        params.validate()?;
        let n = problem.len();
        self.start(problem, params, init)?;
        let mu = match params.method {
            Method::ChambollePock => {
                self.admm.forget();
                self.prepare_steps(problem, params, init)
            }
            Method::Admm { penalty, .. } => {
                let warm = matches!(init, Init::Previous);
                self.admm.prepare(problem, penalty, &self.v, warm);
                0.0 // no dual step size
            }
        };
        self.energies.clear();
        if params.record_energy {
            // At most MAX_ITERATIONS + 1 values: `validate` bounds the iterations.
            self.energies
                .push(smooth_and_length(problem, &self.v, params.length));
        }
        let report = self.iterate(problem, params, mu);
        self.finish(problem)?;
        let energy = smooth_and_length(problem, &self.v, params.length);
        debug_assert_eq!(self.v.len(), n);
        Ok(Report { energy, ..report })
    }

    /// The path of the last solve, dummies included (see [`Problem::waypoints`]).
    ///
    /// ```
    /// assert!(pathsmooth::corridor::Solver::new().path().is_empty());
    /// ```
    pub fn path(&self) -> &[DVec2] {
        &self.v
    }

    /// The dual variables (p, q) of the last solve. After [`Method::Admm`], the dual point
    /// its multipliers give at the last iteration, q not yet scaled into the unit ball
    /// (the dual point of ADMM's certificate).
    ///
    /// ```
    /// let s = pathsmooth::corridor::Solver::new();
    /// assert!(s.dual().0.is_empty());
    /// ```
    pub fn dual(&self) -> (&[DVec2], &[DVec2]) {
        (&self.p, &self.q)
    }

    /// E(vᵏ) per iteration of the last solve when `record_energy` was set (index 0 is
    /// the starting path), else empty. The chapter's Figure 20.7b.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::{Problem, Solver, SolverParams};
    /// let p = Problem::new(vec![DVec2::ZERO, DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)], vec![0.0, 1.0, 0.0], vec![0.0, 1.0, 0.0], 1.0).unwrap();
    /// let mut s = Solver::new();
    /// let o = SolverParams { record_energy: true, ..SolverParams::chapter(50, 1.0, 1.0) };
    /// s.solve(&p, &o).unwrap();
    /// assert_eq!(s.energies().len(), 51);
    /// assert!(s.energies()[50] < s.energies()[0]);
    /// ```
    pub fn energies(&self) -> &[f64] {
        &self.energies
    }

    /// An owned copy of the last result.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::{Problem, Solver, SolverParams};
    /// let p = Problem::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 0.0], vec![0.0, 0.0], 1.0).unwrap();
    /// let mut s = Solver::new();
    /// let r = s.solve(&p, &SolverParams::default()).unwrap();
    /// assert_eq!(s.solution(r).path, vec![DVec2::ZERO, DVec2::X]);
    /// ```
    pub fn solution(&self, report: Report) -> Solution {
        Solution {
            path: self.v.clone(),
            p: self.p.clone(),
            q: self.q.clone(),
            energies: self.energies.clone(),
            report,
        }
    }

    /// Chambolle–Pock's step sizes (returns μ), and the chapter's first dual step unless
    /// the start brought duals.
    fn prepare_steps(&mut self, problem: &Problem, params: &SolverParams, init: Init<'_>) -> f64 {
        let beta = if params.scale_beta {
            params.beta * problem.h.powf(params.alpha)
        } else {
            params.beta
        };
        let mu = step_sizes(problem, params.alpha, beta, &mut self.sigma, &mut self.tau);
        let inv_h = 1.0 / problem.h;
        for i in 0..problem.len() {
            self.tau_h[i] = self.tau[i] * inv_h;
            self.sigma_wh[i] = problem.weights[i] * inv_h * self.sigma[i];
            self.keep_p[i] = 1.0 / (1.0 + self.sigma[i]);
        }
        if !self.has_dual(init) {
            // The chapter's first dual step from p = q = 0 at v̂⁰ = v⁰.
            self.p.iter_mut().for_each(|x| *x = DVec2::ZERO);
            self.q.iter_mut().for_each(|x| *x = DVec2::ZERO);
            self.v_new.copy_from_slice(&self.v);
            self.dual_step(problem, params, mu, 1.0, false);
        }
        mu
    }

    fn has_dual(&self, init: Init<'_>) -> bool {
        match init {
            Init::Centers => false,
            Init::Previous => true,
            Init::From { dual, .. } => dual.is_some(),
        }
    }

    /// Sizes the buffers and sets v (and y for a warm start with duals).
    fn start(&mut self, problem: &Problem, params: &SolverParams, init: Init<'_>) -> Result<()> {
        let n = problem.len();
        let wrong = |len: usize| Error::param("warm start", len as f64, "one point per waypoint");
        match init {
            Init::Previous if self.v.len() != n => return Err(wrong(self.v.len())),
            Init::From { path, .. } if path.len() != n => return Err(wrong(path.len())),
            Init::From {
                dual: Some((p, q)), ..
            } if p.len() != n || q.len() != n => return Err(wrong(p.len().min(q.len()))),
            _ => {}
        }
        for buf in [
            &mut self.v,
            &mut self.v_new,
            &mut self.p,
            &mut self.q,
            &mut self.p_bar,
            &mut self.q_bar,
            &mut self.g,
            &mut self.kp,
            &mut self.kq,
        ] {
            buf.resize(n, DVec2::ZERO);
        }
        for buf in [
            &mut self.sigma,
            &mut self.tau,
            &mut self.tau_h,
            &mut self.sigma_wh,
            &mut self.keep_p,
        ] {
            buf.resize(n, 0.0);
        }
        match init {
            Init::Centers => self.v.copy_from_slice(&problem.centers),
            Init::Previous => {}
            Init::From { path, dual } => {
                if let Some(index) = path.iter().position(|x| !x.is_finite()) {
                    return Err(Error::NonFinite { index });
                }
                self.v.copy_from_slice(path);
                if let Some((p, q)) = dual {
                    if let Some(index) = p.iter().chain(q).position(|x| !x.is_finite()) {
                        return Err(Error::NonFinite { index: index % n });
                    }
                    self.p.copy_from_slice(p);
                    self.q.copy_from_slice(q);
                }
            }
        }
        for i in 0..n {
            self.v[i] = project_to_disk(self.v[i], problem.centers[i], problem.radii[i]);
            if problem.weights[i] == 0.0 {
                self.p[i] = DVec2::ZERO; // a zero row of K: its dual is irrelevant
            }
        }
        self.q[n - 1] = DVec2::ZERO;
        project_dual_q(&mut self.q, params.length);
        Ok(())
    }

    /// The main loop; returns the report without the final energy.
    fn iterate(&mut self, problem: &Problem, params: &SolverParams, mu0: f64) -> Report {
        let rho = params.relaxation;
        let accelerate = params.method == Method::ChambollePock && params.acceleration > 0.0;
        // Step scaling for the accelerated variant: Σ ← sΣ, T ← T/s; its extrapolated duals
        // start at the duals.
        let mut s = 1.0;
        let mut sigma_ref = 0.0;
        if accelerate {
            sigma_ref = self.sigma.iter().cloned().fold(0.0, f64::max);
            self.p_bar.copy_from_slice(&self.p);
            self.q_bar.copy_from_slice(&self.q);
        }
        debug_assert_eq!(self.v.len(), problem.len());
        let mut gap = None;
        let max = params.max_iterations();
        // The gap is checked only when it may stop the solve; the last iteration's dual
        // point is kept for [`Solver::dual`].
        let tolerance = matches!(params.stop, Stop::Tolerance { .. });
        for k in 1..=max {
            let check = (tolerance && k % GAP_CHECK_EVERY == 0) || k == max;
            match params.method {
                // ADMM's dual point comes from inside its step: ask for it when checking.
                Method::Admm { relaxation, .. } => {
                    let dual = check.then_some((&mut self.p[..], &mut self.q[..]));
                    self.admm
                        .step(problem, relaxation, params.length, &mut self.v, dual);
                }
                Method::ChambollePock if accelerate => {
                    self.accelerated_step(problem, params, mu0, sigma_ref, &mut s);
                }
                Method::ChambollePock => self.relaxed_step(problem, params.length, mu0, rho),
            }
            if params.record_energy {
                let e = self.feasible_energy(problem, params.length);
                self.energies.push(e);
            }
            if let Stop::Tolerance { gap: tol, .. } = params.stop
                && check
            {
                let g = self.relative_gap(problem, params.length);
                gap = Some(g);
                if g <= tol {
                    return Report {
                        iterations: k,
                        energy: 0.0,
                        gap,
                        converged: true,
                    };
                }
            }
        }
        Report {
            iterations: max,
            energy: 0.0,
            gap,
            converged: false,
        }
    }

    /// One (over-)relaxed Chambolle–Pock step in three fused passes over the waypoints:
    ///
    /// 1. ṽ = prox_G(v − T Kᵀy); x = 2ṽ − v; v ← v + ρ(ṽ − v);
    /// 2. p̂ = prox_{σF₁*}(p + σK₁x), p ← p + ρ(p̂ − p); q̂ = q + μK₂x (and its norm);
    /// 3. q ← q + ρ(proj_Q(q̂) − q).
    ///
    /// With ρ = 1 this is (20.8) (primal-first order). Kᵀ, K and the prox operators are
    /// those of [`apply_kt`], [`apply_k`] and §20.4.2, inlined so each pass reads the
    /// arrays once; the tests check it against the literal (20.8).
    fn relaxed_step(&mut self, problem: &Problem, norm: LengthNorm, mu: f64, rho: f64) {
        let n = problem.len();
        let inv_h = 1.0 / problem.h;
        let (c, r, w) = (
            &problem.centers[..n],
            &problem.radii[..n],
            &problem.weights[..n],
        );
        let (v, x, p, q, q_hat) = (
            &mut self.v[..n],
            &mut self.g[..n],
            &mut self.p[..n],
            &mut self.q[..n],
            &mut self.kq[..n],
        );
        let (tau_h, sigma_wh, keep_p) = (&self.tau_h[..n], &self.sigma_wh[..n], &self.keep_p[..n]);
        // Pass 1: primal step (Kᵀy needs y's neighbours only, so v updates in place).
        for i in 0..n {
            let wp = |j: usize| p[j] * w[j];
            let kt = if i == 0 {
                2.0 * wp(0) - wp(1) - q[0]
            } else if i + 1 < n {
                2.0 * wp(i) - wp(i - 1) - wp(i + 1) - (q[i] - q[i - 1])
            } else {
                -wp(i - 1) + q[i - 1]
            };
            let vt = project_to_disk(v[i] - kt * tau_h[i], c[i], r[i]);
            x[i] = 2.0 * vt - v[i];
            v[i] += (vt - v[i]) * rho;
        }
        // Pass 2: dual step at the extrapolated x.
        let mut q_norm2 = 0.0;
        for i in 0..n {
            let ds = if i == 0 {
                2.0 * x[0] - x[1]
            } else if i + 1 < n {
                2.0 * x[i] - x[i - 1] - x[i + 1]
            } else {
                -x[i - 1]
            };
            let p_hat = (p[i] + ds * sigma_wh[i]) * keep_p[i];
            p[i] += (p_hat - p[i]) * rho;
            let dq = if i + 1 < n {
                (x[i + 1] - x[i]) * (inv_h * mu)
            } else {
                DVec2::ZERO
            };
            q_hat[i] = q[i] + dq;
            q_norm2 += q_hat[i].length_squared();
        }
        // Pass 3: project q̂ onto the dual set and relax.
        match norm {
            LengthNorm::Chapter => {
                let scale = 1.0 / q_norm2.sqrt().max(1.0);
                for i in 0..n {
                    q[i] += (q_hat[i] * scale - q[i]) * rho;
                }
            }
            LengthNorm::SumOfLengths => {
                for i in 0..n {
                    let qh = q_hat[i] / q_hat[i].length().max(1.0);
                    q[i] += (qh - q[i]) * rho;
                }
            }
        }
    }

    /// One step of Chambolle & Pock (2011) Algorithm 2 on the dual (F₁* strongly
    /// convex): primal step at the extrapolated dual ȳ, dual step at the new v, then
    /// Σ ← θΣ, T ← T/θ (via `s`) and ȳ = y + θ(y − y_old).
    fn accelerated_step(
        &mut self,
        problem: &Problem,
        params: &SolverParams,
        mu0: f64,
        sigma_ref: f64,
        s: &mut f64,
    ) {
        let n = problem.len();
        apply_kt(problem, &self.p_bar, &self.q_bar, &mut self.g);
        for i in 0..n {
            let t = self.tau[i] / *s;
            self.v_new[i] = project_to_disk(
                self.v[i] - self.g[i] * t,
                problem.centers[i],
                problem.radii[i],
            );
        }
        self.p_bar.copy_from_slice(&self.p);
        self.q_bar.copy_from_slice(&self.q);
        self.v.copy_from_slice(&self.v_new);
        self.dual_step(problem, params, mu0 * *s, *s, false);
        let theta = 1.0 / (1.0 + 2.0 * params.acceleration * sigma_ref * *s).sqrt();
        for i in 0..n {
            self.p_bar[i] = self.p[i] + (self.p[i] - self.p_bar[i]) * theta;
            self.q_bar[i] = self.q[i] + (self.q[i] - self.q_bar[i]) * theta;
        }
        *s *= theta;
    }

    /// y ← prox_F*(y + Σ K x) where x = 2ṽ − v (`extrapolate`) or ṽ, with ṽ in `v_new`;
    /// `s` scales σ (the accelerated variant), `mu` is the (scaled) μ.
    fn dual_step(
        &mut self,
        problem: &Problem,
        params: &SolverParams,
        mu: f64,
        s: f64,
        extrapolate: bool,
    ) {
        let n = problem.len();
        if extrapolate {
            for i in 0..n {
                self.g[i] = 2.0 * self.v_new[i] - self.v[i];
            }
        } else {
            self.g.copy_from_slice(&self.v_new);
        }
        apply_k(problem, &self.g, &mut self.kp, &mut self.kq);
        for i in 0..n {
            let sig = self.sigma[i] * s;
            self.p[i] = (self.p[i] + self.kp[i] * sig) / (1.0 + sig);
            self.q[i] += self.kq[i] * mu;
        }
        project_dual_q(&mut self.q, params.length);
    }

    /// E(v) of the current iterate, projected if over-relaxation pushed it outside.
    fn feasible_energy(&mut self, problem: &Problem, norm: LengthNorm) -> f64 {
        for i in 0..problem.len() {
            self.g[i] = project_to_disk(self.v[i], problem.centers[i], problem.radii[i]);
        }
        smooth_and_length(problem, &self.g, norm)
    }

    /// (E(v) − max(D(y), D(y(v)))) / E(v), with v projected onto C and y(v) the dual
    /// point of v: p = K₁v, q = K₂v / ‖K₂v‖ (V,2) or point-wise normalised (V,1).
    fn relative_gap(&mut self, problem: &Problem, norm: LengthNorm) -> f64 {
        let n = problem.len();
        let e = self.feasible_energy(problem, norm);
        // D at the iterate (q is in its set after the prox; relaxation keeps it there as
        // a convex combination for ρ ≤ 1; for ρ > 1 project a copy).
        self.kp.copy_from_slice(&self.p);
        self.kq.copy_from_slice(&self.q);
        project_dual_q(&mut self.kq, norm);
        apply_kt(problem, &self.kp, &self.kq, &mut self.v_new);
        let d_iter = dual_objective(problem, &self.kp, &self.v_new);
        // D at the dual point of (projected) v, which sits in `g`.
        let (g, kp, kq) = (&self.g, &mut self.kp, &mut self.kq);
        apply_k(problem, g, kp, kq);
        match norm {
            LengthNorm::Chapter => {
                let l: f64 = kq.iter().map(|x| x.length_squared()).sum::<f64>().sqrt();
                if l > 0.0 {
                    kq.iter_mut().for_each(|x| *x /= l);
                }
            }
            LengthNorm::SumOfLengths => kq.iter_mut().for_each(|x| {
                let l = x.length();
                if l > 0.0 {
                    *x /= l;
                }
            }),
        }
        apply_kt(problem, kp, kq, &mut self.v_new);
        let d_v = dual_objective(problem, kp, &self.v_new);
        let d = d_iter.max(d_v);
        debug_assert!(n == self.v.len());
        let gap = (e - d).max(0.0);
        if e > 0.0 {
            gap / e
        } else if gap == 0.0 {
            0.0
        } else {
            f64::INFINITY
        }
    }

    /// Projects v onto the disks (pins radius-0 waypoints exactly) and checks finiteness.
    fn finish(&mut self, problem: &Problem) -> Result<()> {
        for i in 0..problem.len() {
            self.v[i] = project_to_disk(self.v[i], problem.centers[i], problem.radii[i]);
        }
        match self.v.iter().position(|x| !x.is_finite()) {
            Some(index) => Err(Error::NonFinite { index }),
            None => Ok(()),
        }
    }
}

/// prox of F₂*: projection onto ‖q‖_{V,2} ≤ 1 (the chapter) or onto |qᵢ| ≤ 1 (V,1).
fn project_dual_q(q: &mut [DVec2], norm: LengthNorm) {
    match norm {
        LengthNorm::Chapter => {
            let l = q.iter().map(|x| x.length_squared()).sum::<f64>().sqrt();
            if l > 1.0 {
                q.iter_mut().for_each(|x| *x /= l);
            }
        }
        LengthNorm::SumOfLengths => q.iter_mut().for_each(|x| {
            let l = x.length();
            if l > 1.0 {
                *x /= l;
            }
        }),
    }
}

/// Solves one problem from the chapter's start and returns an owned [`Solution`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{optimize, Problem, SolverParams};
/// let p = Problem::new(vec![DVec2::ZERO, DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)], vec![0.0, 0.5, 0.0], vec![0.0, 1.0, 0.0], 1.0).unwrap();
/// let s = optimize(&p, &SolverParams::default()).unwrap();
/// assert!(s.path[1].distance(DVec2::new(1.0, 1.0)) <= 0.5 + 1e-9);
/// ```
pub fn optimize(problem: &Problem, params: &SolverParams) -> Result<Solution> {
    let mut solver = Solver::new();
    let report = solver.solve(problem, params)?;
    Ok(solver.solution(report))
}

/// Solves many problems in parallel with rayon (one [`Solver`] per worker, reused across
/// the problems it takes). Results are in input order; each is independent. Cost: the sum
/// of the single solves, spread over rayon's thread pool. Needs the `rayon` feature.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{solve_batch, Problem, SolverParams};
/// let p = Problem::new(vec![DVec2::ZERO, DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)], vec![0.0, 0.5, 0.0], vec![0.0, 1.0, 0.0], 1.0).unwrap();
/// let out = solve_batch(&vec![p; 8], &SolverParams::default());
/// assert_eq!(out.len(), 8);
/// assert!(out.iter().all(|s| s.is_ok()));
/// ```
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub fn solve_batch(problems: &[Problem], params: &SolverParams) -> Vec<Result<Solution>> {
    problems
        .par_iter()
        .map_init(Solver::new, |solver, problem| {
            let report = solver.solve(problem, params)?;
            Ok(solver.solution(report))
        })
        .collect()
}

/// [`solve_batch`] writing only the paths into `out` (resized to match), allocating
/// nothing per problem once the worker solvers and `out`'s vectors have grown.
/// Returns the reports. Needs the `rayon` feature.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{solve_batch_into, Problem, SolverParams};
/// let p = Problem::new(vec![DVec2::ZERO, DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)], vec![0.0, 0.5, 0.0], vec![0.0, 1.0, 0.0], 1.0).unwrap();
/// let mut paths = Vec::new();
/// let reports = solve_batch_into(&vec![p; 4], &SolverParams::default(), &mut paths);
/// assert_eq!((paths.len(), reports.len()), (4, 4));
/// ```
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub fn solve_batch_into(
    problems: &[Problem],
    params: &SolverParams,
    out: &mut Vec<Vec<DVec2>>,
) -> Vec<Result<Report>> {
    out.resize_with(problems.len(), Vec::new);
    problems
        .par_iter()
        .zip(out.par_iter_mut())
        .map_init(Solver::new, |solver, (problem, path)| {
            let report = solver.solve(problem, params)?;
            path.clear();
            path.extend_from_slice(solver.path());
            Ok(report)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corridor::disks::DiskCorridor;
    use crate::corridor::problem::ProblemParams;

    #[test]
    fn a_disk_corridor_in_one_solve() {
        let c = DiskCorridor::new(
            vec![DVec2::ZERO, DVec2::new(2.0, 2.0), DVec2::new(4.0, 0.0)],
            vec![1.0, 2.0, 1.0],
            Some(DVec2::X),
            Some(DVec2::X),
        )
        .unwrap();
        // The problem of the corridor (default bathtub weights, dummies for its directions),
        // solved, and its waypoints from start to goal.
        let problem = Problem::from_corridor(&c, &ProblemParams::default()).unwrap();
        let mut solver = Solver::new();
        solver.solve(&problem, &SolverParams::default()).unwrap();
        let path = problem.waypoints(solver.path()).to_vec();
        assert_eq!(path.len(), 3);
        assert_eq!((path[0], path[2]), (c.start(), c.goal()));
        assert!(path[1].distance(c.centers[1]) <= 2.0 + 1e-9);
    }

    /// A wiggly corridor of `n` disks with facing directions at both ends (`seed` varies the
    /// wiggle, the radii and the directions), as a problem: bathtub weights, two dummies.
    fn wiggly(seed: u64, n: usize) -> Problem {
        let s = seed as f64;
        let centers = (0..n)
            .map(|i| DVec2::new(i as f64, 0.5 * (0.9 * i as f64 + s).sin()))
            .collect();
        let radii = (0..n)
            .map(|i| 0.8 + 0.6 * (1.3 * i as f64 + 2.0 * s).sin().abs())
            .collect();
        let (start, goal) = (DVec2::from_angle(s), DVec2::from_angle(2.0 * s + 1.0));
        let c = DiskCorridor::new(centers, radii, Some(start), Some(goal)).unwrap();
        Problem::from_corridor(&c, &ProblemParams::default()).unwrap()
    }

    /// Equation (20.8) written out literally: dual step at v̂, primal step, extrapolation.
    fn chapter_literal(pr: &Problem, alpha: f64, beta: f64, iterations: usize) -> Vec<DVec2> {
        let n = pr.len();
        let (mut sigma, mut tau) = (vec![0.0; n], vec![0.0; n]);
        let mu = step_sizes(pr, alpha, beta, &mut sigma, &mut tau);
        let (mut p, mut q) = (vec![DVec2::ZERO; n], vec![DVec2::ZERO; n]);
        let mut v = pr.centers.clone();
        let mut v_hat = v.clone();
        let (mut kp, mut kq, mut g) = (
            vec![DVec2::ZERO; n],
            vec![DVec2::ZERO; n],
            vec![DVec2::ZERO; n],
        );
        for _ in 0..iterations {
            apply_k(pr, &v_hat, &mut kp, &mut kq);
            for i in 0..n {
                p[i] = (p[i] + kp[i] * sigma[i]) / (1.0 + sigma[i]);
                q[i] += kq[i] * mu;
            }
            let norm = q.iter().map(|x| x.length_squared()).sum::<f64>().sqrt();
            q.iter_mut().for_each(|x| *x /= norm.max(1.0));
            apply_kt(pr, &p, &q, &mut g);
            for i in 0..n {
                let new = project_to_disk(v[i] - g[i] * tau[i], pr.centers[i], pr.radii[i]);
                v_hat[i] = 2.0 * new - v[i];
                v[i] = new;
            }
        }
        v
    }

    #[test]
    fn the_solver_reproduces_the_chapters_iteration_exactly() {
        for (seed, n, k) in [(1, 10, 1), (2, 25, 7), (3, 40, 100)] {
            let pr = wiggly(seed, n);
            let want = chapter_literal(&pr, 0.8, 1.3, k);
            let mut s = Solver::new();
            s.solve(&pr, &SolverParams::chapter(k, 0.8, 1.3)).unwrap();
            for i in 0..pr.len() {
                assert!(
                    s.path()[i].distance(want[i]) < 1e-12,
                    "iteration {k}, waypoint {i}"
                );
            }
        }
    }
}
