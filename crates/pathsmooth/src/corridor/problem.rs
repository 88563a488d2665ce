//! The discretised problem ([`Problem`]) and how it is built from a corridor.

use glam::DVec2;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

#[cfg(feature = "serde")]
use super::disks::parse_json;
use super::disks::{check_radii, DiskCorridor};
use crate::error::{Error, Result};

/// Where the per-waypoint smoothness weights come from.
///
/// ```
/// use pathsmooth::corridor::Weights;
/// assert_eq!(Weights::default(), Weights::Bathtub { start: 10.0, end: 10.0, middle: 2.0 });
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Weights {
    /// The chapter's bathtub curve (§20.3, Figure 20.4): `start` (w_s) and `end` (w_e) near
    /// the ends, tapering to `middle` (w_m); 0 at the first and last waypoints.
    Bathtub {
        /// w_s, the weight next to the start.
        start: f64,
        /// w_e, the weight next to the goal.
        end: f64,
        /// w_m, the weight in the middle of the path.
        middle: f64,
    },
    /// One weight per waypoint of the problem, dummies included (so `len + 2` values for a
    /// corridor of `len` disks with both directions). Used as given.
    Given(Vec<f64>),
}

impl Default for Weights {
    /// The chapter's example curve: w_s = w_e = 10, w_m = 2.
    fn default() -> Self {
        Weights::Bathtub {
            start: 10.0,
            end: 10.0,
            middle: 2.0,
        }
    }
}

/// How far from the start/goal the dummy facing-direction waypoints sit.
///
/// ```
/// use pathsmooth::corridor::DirectionLength;
/// assert_eq!(DirectionLength::default(), DirectionLength::Spacing);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DirectionLength {
    /// One mean spacing `h` away along the normalised direction (the default): the
    /// dummy then looks like one more corridor step, whatever the direction's length.
    #[default]
    Spacing,
    /// The direction vector exactly as given (the chapter's literal "start − d"); its
    /// length then changes how strongly the end is bent.
    AsGiven,
}

/// Options for [`Problem::from_corridor`].
///
/// ```
/// use pathsmooth::corridor::{ProblemParams, Weights};
/// let o = ProblemParams { weights: Weights::Bathtub { start: 4.0, end: 4.0, middle: 1.0 }, ..Default::default() };
/// assert_eq!(o.direction_length, Default::default());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProblemParams {
    /// The smoothness weights.
    pub weights: Weights,
    /// Where the dummy waypoints go.
    pub direction_length: DirectionLength,
    /// Densify the corridor first so consecutive waypoints are at most this far apart, for
    /// a finer (smoother) optimised path: between disks a and b at distance d, the point at
    /// fraction t of the way gets the largest disk about it inside a or inside b (radius
    /// max(r_a − t·d, r_b − (1 − t)·d)), so the new disks add no space outside the
    /// corridor. At most [`MAX_WAYPOINTS`] waypoints. `None` (default) keeps one waypoint
    /// per disk.
    pub max_spacing: Option<f64>,
}

impl ProblemParams {
    /// Checks what can be checked without a corridor: bathtub weights finite and ≥ 0, a
    /// `max_spacing` finite and > 0 ([`Error::BadParameter`] naming the one that is not).
    /// Given weights are checked against the corridor, whose length they must match.
    pub fn validate(&self) -> Result<()> {
        if let Weights::Bathtub { start, end, middle } = self.weights {
            for (name, w) in [("w_s", start), ("w_e", end), ("w_m", middle)] {
                check_weight(name, w)?;
            }
        }
        match self.max_spacing {
            Some(s) if !(s > 0.0 && s.is_finite()) => {
                Err(Error::param("max_spacing", s, "a finite spacing > 0"))
            }
            _ => Ok(()),
        }
    }
}

/// The most waypoints densification ([`ProblemParams::max_spacing`]) may produce
/// ([`Error::OutputTooLarge`](crate::Error::OutputTooLarge) beyond).
pub const MAX_WAYPOINTS: usize = 1_000_000;

/// Inserts waypoints between consecutive disks so that no two consecutive centres are
/// more than `max_spacing` apart, for a finer (smoother) optimised path than one
/// waypoint per disk. Between disks (a, b) at distance d, the point at fraction t of the
/// way gets the radius max(r_a − t·d, r_b − (1 − t)·d): the largest disk about that point
/// inside disk a or inside disk b, so the new disks add no space outside the corridor
/// (and every radius is ≥ (r_a + r_b − d)/2 ≥ 0 because the disks overlap). Returns the
/// new centres and radii; the originals are kept at their places.
///
/// Errors: `max_spacing` not finite and > 0 ([`Error::BadParameter`]), more than
/// [`MAX_WAYPOINTS`] points ([`Error::OutputTooLarge`]), and the corridor's own errors.
pub(crate) fn densify(corridor: &DiskCorridor, max_spacing: f64) -> Result<(Vec<DVec2>, Vec<f64>)> {
    corridor.validate()?;
    if !(max_spacing.is_finite() && max_spacing > 0.0) {
        return Err(Error::param(
            "max_spacing",
            max_spacing,
            "a finite spacing > 0",
        ));
    }
    let (c, r) = (&corridor.centers, &corridor.radii);
    let pieces = |d: f64| (d / max_spacing).ceil().max(1.0);
    let total: f64 = 1.0
        + c.windows(2)
            .map(|w| pieces(w[0].distance(w[1])))
            .sum::<f64>();
    if total > MAX_WAYPOINTS as f64 {
        return Err(Error::OutputTooLarge {
            requested: total as u128,
            cap: MAX_WAYPOINTS,
        });
    }
    let mut centers = Vec::with_capacity(total as usize);
    let mut radii = Vec::with_capacity(total as usize);
    for i in 0..c.len() - 1 {
        centers.push(c[i]);
        radii.push(r[i]);
        let d = c[i].distance(c[i + 1]);
        let m = pieces(d) as usize;
        for k in 1..m {
            let t = k as f64 / m as f64;
            centers.push(c[i].lerp(c[i + 1], t));
            radii.push((r[i] - t * d).max(r[i + 1] - (1.0 - t) * d).max(0.0));
        }
    }
    centers.push(c[c.len() - 1]);
    radii.push(r[r.len() - 1]);
    Ok((centers, radii))
}

/// The discretised path-smoothing problem of Langerak (Game AI Pro 3, ch. 20, §20.2.1 and
/// §20.3): waypoints with clearance disks, per-waypoint weights and the normalisation `h`;
/// everything the solver sees:
///
/// - `centers`, `radii`: one disk per waypoint. A radius of 0 pins the waypoint to its
///   centre. From a [`DiskCorridor`], the start and the goal get radius 0 (they must not
///   move), and each facing direction adds a *dummy waypoint*, also of radius 0, one step
///   behind the start (`start − d`) or beyond the goal (`goal + d`); the smoothness term
///   at the start/goal then bends the path to leave/arrive along that direction (§20.3).
/// - `weights`: the smoothness weight `wᵢ` of each waypoint; lower favours short paths,
///   higher favours smooth ones. By default the chapter's bathtub curve ([`bathtub`]): `w_s`
///   at the first waypoint after the leading one, `w_e` at the one before the last, tapering
///   with a 4th power to `w_m` in the middle, and 0 at the first and last waypoints (the
///   dummies, or the start/goal themselves when a direction is absent, where the
///   second difference has no meaning).
/// - `h`: the mean distance between neighbouring corridor centres (dummies excluded), which
///   makes the energy scale-invariant.
///
/// The problem serialises as the "dump" format
/// `{"centers": [[x,y],…], "radii": […], "weights": […], "h": h}` (dummies included), so
/// any other convex solver can check a result, and a dumped problem can be read back and
/// solved exactly (`Problem::from_json`, with the `serde` feature).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{DiskCorridor, Problem, ProblemParams};
/// let corridor = DiskCorridor::new(
///     vec![DVec2::ZERO, DVec2::new(2.0, 1.0), DVec2::new(4.0, 0.0)],
///     vec![1.0, 1.5, 1.0],
///     Some(DVec2::X),
///     Some(DVec2::X),
/// )
/// .unwrap();
/// let p = Problem::from_corridor(&corridor, &ProblemParams::default()).unwrap();
/// assert_eq!(p.len(), 5); // dummy, start, middle, goal, dummy
/// assert_eq!(p.radii, vec![0.0, 0.0, 1.5, 0.0, 0.0]);
/// assert_eq!(p.waypoints(&p.centers), &corridor.centers[..]);
/// # #[cfg(feature = "serde")] {
/// let back = Problem::from_json(&p.to_json()).unwrap();
/// assert_eq!((back.centers, back.radii, back.weights, back.h), (p.centers, p.radii, p.weights, p.h));
/// # }
/// ```
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::Problem;
/// let centers = vec![DVec2::ZERO, DVec2::ONE, DVec2::new(2.0, 0.0)];
/// let p = Problem::new(centers, vec![0.0, 1.0, 0.0], vec![0.0, 1.0, 0.0], 1.4)?;
/// assert_eq!(p.len(), 3);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(deny_unknown_fields)
)]
pub struct Problem {
    /// Disk centres, one per waypoint (dummies included).
    pub centers: Vec<DVec2>,
    /// Disk radii; 0 pins the waypoint.
    pub radii: Vec<f64>,
    /// Smoothness weights wᵢ.
    pub weights: Vec<f64>,
    /// The normalisation constant h of the differencing operators.
    pub h: f64,
    /// Leading dummy waypoints (0 or 1) that are not part of the caller's path.
    #[cfg_attr(feature = "serde", serde(skip))]
    lead: usize,
    /// Trailing dummy waypoints (0 or 1).
    #[cfg_attr(feature = "serde", serde(skip))]
    trail: usize,
}

impl Problem {
    /// Builds and validates a problem from its four arrays (no dummies are marked: the
    /// whole array is the path). See [`Problem::validate`] for the errors.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{corridor::Problem, Error};
    /// let e = Problem::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 0.0], vec![0.0, 0.0], 0.0);
    /// assert!(matches!(e, Err(Error::BadParameter { name: "h", .. })));
    /// ```
    pub fn new(centers: Vec<DVec2>, radii: Vec<f64>, weights: Vec<f64>, h: f64) -> Result<Self> {
        let p = Problem {
            centers,
            radii,
            weights,
            h,
            lead: 0,
            trail: 0,
        };
        p.validate()?;
        Ok(p)
    }

    /// Builds the problem for a corridor: densified if `max_spacing` is set, start and goal
    /// pinned (radius 0), a pinned dummy waypoint for each facing direction, weights as
    /// asked (given weights count the densified waypoints and the dummies), h = the mean
    /// spacing of the (densified) centres (or, if every centre coincides, the largest
    /// radius, or 1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::{DiskCorridor, Problem, ProblemParams};
    /// let c = DiskCorridor::new(vec![DVec2::ZERO, DVec2::new(2.0, 0.0)], vec![1.0, 1.0], Some(DVec2::new(0.0, 5.0)), None).unwrap();
    /// let p = Problem::from_corridor(&c, &ProblemParams::default()).unwrap();
    /// assert_eq!(p.h, 2.0);
    /// // The dummy sits one spacing behind the start, against the facing direction.
    /// assert_eq!(p.centers[0], DVec2::new(0.0, -2.0));
    /// ```
    pub fn from_corridor(corridor: &DiskCorridor, params: &ProblemParams) -> Result<Self> {
        corridor.validate()?;
        let (disk_c, disk_r) = match params.max_spacing {
            Some(s) => densify(corridor, s)?,
            None => (corridor.centers.clone(), corridor.radii.clone()),
        };
        Self::from_disks(
            disk_c,
            disk_r,
            corridor.start_dir,
            corridor.goal_dir,
            params,
        )
    }

    /// [`from_corridor`](Self::from_corridor) for disks that need not overlap (a caller
    /// that guarantees the segments between waypoints by other means, as the safe radii
    /// of the corridor smoother do): no densification, the start and
    /// goal pinned, dummies for the facing directions, weights as asked.
    pub(crate) fn from_disks(
        disk_c: Vec<DVec2>,
        disk_r: Vec<f64>,
        start_dir: Option<DVec2>,
        goal_dir: Option<DVec2>,
        params: &ProblemParams,
    ) -> Result<Self> {
        let mut p = Problem::empty();
        p.assign_disks(&disk_c, &disk_r, start_dir, goal_dir, params)?;
        Ok(p)
    }

    /// A problem with no waypoints, whose memory [`assign_disks`](Self::assign_disks) and
    /// [`assign_window`](Self::assign_window) reuse (not a valid problem until then).
    pub(crate) fn empty() -> Self {
        Problem {
            centers: Vec::new(),
            radii: Vec::new(),
            weights: Vec::new(),
            h: 0.0,
            lead: 0,
            trail: 0,
        }
    }

    /// Makes this problem [`from_disks`](Self::from_disks)'s, reusing its memory.
    pub(crate) fn assign_disks(
        &mut self,
        disk_c: &[DVec2],
        disk_r: &[f64],
        start_dir: Option<DVec2>,
        goal_dir: Option<DVec2>,
        params: &ProblemParams,
    ) -> Result<()> {
        let h = normalisation(disk_c, disk_r);
        let m = disk_c.len();
        let dummy = |d: DVec2| match params.direction_length {
            DirectionLength::Spacing => d.normalize() * h,
            DirectionLength::AsGiven => d,
        };
        let lead = start_dir.is_some() as usize;
        let trail = goal_dir.is_some() as usize;
        let (centers, radii) = (&mut self.centers, &mut self.radii);
        centers.clear();
        radii.clear();
        if let Some(d) = start_dir {
            centers.push(disk_c[0] - dummy(d));
            radii.push(0.0);
        }
        centers.extend_from_slice(disk_c);
        radii.extend_from_slice(disk_r);
        radii[lead] = 0.0;
        radii[lead + m - 1] = 0.0;
        if let Some(d) = goal_dir {
            centers.push(disk_c[m - 1] + dummy(d));
            radii.push(0.0);
        }
        match &params.weights {
            Weights::Bathtub { start, end, middle } => {
                for (name, w) in [("w_s", *start), ("w_e", *end), ("w_m", *middle)] {
                    check_weight(name, w)?;
                }
                self.weights.resize(centers.len(), 0.0);
                bathtub_into(*start, *end, *middle, &mut self.weights);
            }
            Weights::Given(w) => self.weights.clone_from(w),
        }
        (self.h, self.lead, self.trail) = (h, lead, trail);
        self.validate()
    }

    /// Makes `window` the sub-problem of waypoints `from..=to` (indices into this problem, dummies
    /// included), with the same `h` and weights and its two ends pinned at their centres.
    /// Where the window cuts this problem (`from > 0`, `to < len − 1`), the waypoint beyond
    /// the cut comes too, as a dummy pinned at its centre with weight 0: the smoothness
    /// term at the cut then sees the neighbour it has in the whole problem. Used to solve
    /// a long corridor in windows cut on straight runs of its route, where the centres
    /// on either side of a cut lie on one line. `window`'s memory is reused.
    pub(crate) fn assign_window(&self, from: usize, to: usize, window: &mut Problem) {
        debug_assert!(from < to && to < self.len());
        let (before, after) = (from > 0, to + 1 < self.len());
        let lead = if before { 1 } else { self.lead };
        let trail = if after { 1 } else { self.trail };
        let range = from - before as usize..=to + after as usize;
        window.centers.clear();
        window
            .centers
            .extend_from_slice(&self.centers[range.clone()]);
        window.radii.clear();
        window.radii.extend_from_slice(&self.radii[range.clone()]);
        window.weights.clear();
        window.weights.extend_from_slice(&self.weights[range]);
        let (radii, weights) = (&mut window.radii, &mut window.weights);
        let m = radii.len();
        for k in [lead, m - 1 - trail] {
            radii[k] = 0.0;
        }
        for (k, cut) in [(0, before), (m - 1, after)] {
            if cut {
                radii[k] = 0.0;
                weights[k] = 0.0;
            }
        }
        (window.h, window.lead, window.trail) = (self.h, lead, trail);
    }

    /// Parses and validates the dump format. All waypoints are treated as the path (the
    /// file does not say which were dummies); radius-0 disks stay fixed. Malformed JSON
    /// and unknown keys are [`Error::Parse`]. Cost: O(n) in the text's length. Needs the
    /// `serde` feature.
    ///
    /// ```
    /// use pathsmooth::{corridor::Problem, Error};
    /// let e = Problem::from_json(r#"{"centers": [[0,0],[1,0]], "radii": [0, 0], "weights": [0], "h": 1}"#);
    /// assert!(matches!(e, Err(Error::BadParameter { name: "weights", .. })));
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn from_json(text: &str) -> Result<Self> {
        let p: Problem = parse_json(text)?;
        p.validate()?;
        Ok(p)
    }

    /// Reads either JSON form the CLI accepts: a dumped problem (it has an `"h"` key;
    /// solved exactly as given, `params` unused) or a caller's corridor (built with
    /// `params`). Errors as [`Problem::from_json`] / [`DiskCorridor::from_json`]. Needs the
    /// `serde` feature.
    ///
    /// ```
    /// use pathsmooth::corridor::{Problem, ProblemParams};
    /// let o = ProblemParams::default();
    /// let dump = r#"{"centers": [[0,0],[1,1],[2,0]], "radii": [0, 1, 0], "weights": [0, 1, 0], "h": 1.4}"#;
    /// assert_eq!(Problem::from_any_json(dump, &o).unwrap().h, 1.4);
    /// let corridor = r#"{"centers": [[0,0],[1,1],[2,0]], "radii": [1, 1, 1], "goal_dir": [1, 0]}"#;
    /// assert_eq!(Problem::from_any_json(corridor, &o).unwrap().len(), 4);
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn from_any_json(text: &str, params: &ProblemParams) -> Result<Self> {
        let value: serde_json::Value = parse_json(text)?;
        if value.get("h").is_some() {
            Problem::from_json(text)
        } else {
            Problem::from_corridor(&DiskCorridor::from_json(text)?, params)
        }
    }

    /// The dump format `{"centers": …, "radii": …, "weights": …, "h": …}`. Needs the `serde`
    /// feature.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::Problem;
    /// let p = Problem::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 0.0], vec![0.0, 0.0], 1.0).unwrap();
    /// assert_eq!(p.to_json(), r#"{"centers":[[0.0,0.0],[1.0,0.0]],"radii":[0.0,0.0],"weights":[0.0,0.0],"h":1.0}"#);
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Checks the problem: ≥ 2 waypoints ([`Error::TooFewPoints`]), finite centres
    /// ([`Error::NonFinite`]), one radius and one weight per centre and finite
    /// non-negative weights ([`Error::BadParameter`] `radii` / `weights`), radii finite and
    /// ≥ 0 ([`Error::BadRadius`]), h finite and > 0 ([`Error::BadParameter`] `h`).
    /// Disks need not overlap here: a problem is just a convex program.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::Problem;
    /// let mut p = Problem::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 0.0], vec![0.0, 0.0], 1.0).unwrap();
    /// p.weights[0] = f64::NAN;
    /// assert!(p.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        crate::geometry::check_path(&self.centers, 2, "the corridor optimiser")?;
        let n = self.centers.len();
        if self.radii.len() != n {
            return Err(Error::param(
                "radii",
                self.radii.len() as f64,
                "exactly one radius per centre",
            ));
        }
        if self.weights.len() != n {
            return Err(Error::param(
                "weights",
                self.weights.len() as f64,
                "exactly one weight per centre",
            ));
        }
        check_radii(&self.radii)?;
        for &w in &self.weights {
            check_weight("weights", w)?;
        }
        if !(self.h.is_finite() && self.h > 0.0) {
            return Err(Error::param("h", self.h, "a finite number > 0"));
        }
        if self.lead + self.trail >= n {
            return Err(Error::param(
                "waypoints",
                n as f64,
                "more waypoints than dummies",
            ));
        }
        Ok(())
    }

    /// Number of waypoints, dummies included.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::Problem;
    /// let p = Problem::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 0.0], vec![0.0, 0.0], 1.0).unwrap();
    /// assert_eq!(p.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.centers.len()
    }

    /// True when there are no waypoints (never for a validated problem).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::Problem;
    /// let p = Problem::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 0.0], vec![0.0, 0.0], 1.0).unwrap();
    /// assert!(!p.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.centers.is_empty()
    }

    /// The caller's part of a solution `v` (one point per waypoint): `v` without the
    /// dummy waypoints, so it runs from start to goal. A slice of another length than
    /// [`len`](Self::len) is not a solution of this problem and gives an empty slice.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::{DiskCorridor, Problem, ProblemParams};
    /// let c = DiskCorridor::new(vec![DVec2::ZERO, DVec2::X], vec![1.0, 1.0], None, Some(DVec2::Y)).unwrap();
    /// let p = Problem::from_corridor(&c, &ProblemParams::default()).unwrap();
    /// assert_eq!(p.waypoints(&p.centers), &[DVec2::ZERO, DVec2::X]);
    /// ```
    pub fn waypoints<'a>(&self, v: &'a [DVec2]) -> &'a [DVec2] {
        if v.len() != self.len() {
            return &[];
        }
        &v[self.lead..v.len() - self.trail]
    }

    /// The initial feasible path `v⁰ = c` (every centre lies in its own disk).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::Problem;
    /// let p = Problem::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 0.0], vec![0.0, 0.0], 1.0).unwrap();
    /// assert_eq!(p.initial_path(), p.centers);
    /// ```
    pub fn initial_path(&self) -> Vec<DVec2> {
        self.centers.clone()
    }
}

/// The chapter's bathtub weight curve (§20.3, Figure 20.4) for `n` waypoints (dummies
/// included), with the chapter's 1-based index i:
///
/// - `w_m + (w_s − w_m)·(1 − 2(i−2)/(n−3))⁴` for 2 ≤ i ≤ n/2,
/// - `w_m + (w_e − w_m)·(2(i−2)/(n−3) − 1)⁴` for n/2 < i ≤ n−1,
/// - 0 at i = 1 and i = n.
///
/// The formula divides by n − 3; for n = 3 the one inner waypoint gets the mean of w_s
/// and w_e, and for n ≤ 2 every weight is 0.
///
/// ```
/// use pathsmooth::corridor::bathtub;
/// let w = bathtub(20, 10.0, 10.0, 2.0); // Figure 20.4
/// assert_eq!((w[0], w[1], w[18], w[19]), (0.0, 10.0, 10.0, 0.0));
/// assert!(w[9] < 2.001 && w[10] < 2.001);
/// ```
pub fn bathtub(n: usize, w_s: f64, w_e: f64, w_m: f64) -> Vec<f64> {
    let mut w = vec![0.0; n];
    bathtub_into(w_s, w_e, w_m, &mut w);
    w
}

/// [`bathtub`] writing into `out` (its length is n).
fn bathtub_into(w_s: f64, w_e: f64, w_m: f64, out: &mut [f64]) {
    let n = out.len();
    out.fill(0.0);
    if n < 3 {
        return;
    }
    if n == 3 {
        out[1] = 0.5 * (w_s + w_e);
        return;
    }
    let span = (n - 3) as f64;
    for (k, w) in out.iter_mut().enumerate().take(n - 1).skip(1) {
        let i = k + 1; // the chapter's 1-based index
        let t = 2.0 * (i - 2) as f64 / span;
        *w = if 2 * i <= n {
            w_m + (w_s - w_m) * (1.0 - t).powi(4)
        } else {
            w_m + (w_e - w_m) * (t - 1.0).powi(4)
        };
    }
}

fn check_weight(name: &'static str, w: f64) -> Result<()> {
    if w.is_finite() && w >= 0.0 {
        Ok(())
    } else {
        Err(Error::param(name, w, "a finite number ≥ 0"))
    }
}

/// h: the mean spacing of the corridor centres, falling back to the largest radius and
/// then 1 when every centre coincides (h only sets the scale, it must not be 0).
fn normalisation(centers: &[DVec2], radii: &[f64]) -> f64 {
    let total: f64 = centers.windows(2).map(|w| w[0].distance(w[1])).sum();
    let h = total / (centers.len() - 1) as f64;
    if h > 0.0 {
        return h;
    }
    let r = radii.iter().cloned().fold(0.0, f64::max);
    if r > 0.0 {
        r
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_keeps_h_and_weights_pins_its_ends_and_the_waypoints_beyond_its_cuts() {
        let c: Vec<DVec2> = (0..6).map(|k| DVec2::new(k as f64, 0.0)).collect();
        let p = Problem::from_disks(
            c.clone(),
            vec![0.5; 6],
            Some(DVec2::X),
            None,
            &ProblemParams::default(),
        )
        .unwrap();
        // The start's dummy, then the six centres.
        assert_eq!(p.len(), 7);
        // From the start (its dummy kept) to centre 3, cut there: centre 4 comes along.
        let mut w = Problem::empty();
        p.assign_window(0, 4, &mut w);
        assert_eq!((w.len(), w.lead, w.trail, w.h), (6, 1, 1, p.h));
        assert_eq!(w.centers, p.centers[..6]);
        assert_eq!(w.radii, vec![0.0, 0.0, 0.5, 0.5, 0.0, 0.0]);
        assert_eq!(&w.weights[..5], &p.weights[..5]);
        assert_eq!(w.weights[5], 0.0);
        assert_eq!(w.waypoints(&w.centers), &c[..4]);
        // From the cut to the goal: centre 2 comes along before it.
        p.assign_window(4, 6, &mut w);
        assert_eq!((w.lead, w.trail), (1, 0));
        assert_eq!(w.centers, p.centers[3..]);
        assert_eq!(w.radii, vec![0.0, 0.0, 0.5, 0.0]);
        assert_eq!(w.weights[0], 0.0);
        assert_eq!(&w.weights[1..], &p.weights[4..]);
        assert_eq!(w.waypoints(&w.centers), &c[3..]);
        w.validate().unwrap();
    }

    #[test]
    fn bathtub_matches_the_chapter_formula_at_figure_20_4() {
        let w = bathtub(20, 10.0, 10.0, 2.0);
        // i = 10 (k = 9): first branch, t = 16/17 → 2 + 8·(1/17)⁴.
        assert!((w[9] - (2.0 + 8.0 / 17f64.powi(4))).abs() < 1e-15);
        // i = 11 (k = 10): second branch, t = 18/17 → 2 + 8·(1/17)⁴.
        assert!((w[10] - (2.0 + 8.0 / 17f64.powi(4))).abs() < 1e-15);
        // i = 5 (k = 4): 1 − 6/17 = 11/17.
        assert!((w[4] - (2.0 + 8.0 * (11.0f64 / 17.0).powi(4))).abs() < 1e-15);
        // Symmetric for w_s = w_e.
        for k in 0..20 {
            assert!((w[k] - w[19 - k]).abs() < 1e-12, "{k}");
        }
    }

    #[test]
    fn bathtub_uses_w_e_at_the_goal_end() {
        let w = bathtub(9, 5.0, 1.0, 0.5);
        assert_eq!(w[1], 5.0);
        assert_eq!(w[7], 1.0);
        assert_eq!((w[0], w[8]), (0.0, 0.0));
    }

    #[test]
    fn dummies_and_endpoints_are_pinned() {
        let c = DiskCorridor::new(
            vec![DVec2::ZERO, DVec2::new(1.0, 0.0), DVec2::new(2.0, 0.0)],
            vec![0.7, 1.0, 0.7],
            Some(DVec2::new(0.0, 3.0)),
            Some(DVec2::new(0.0, -3.0)),
        )
        .unwrap();
        let params = ProblemParams {
            direction_length: DirectionLength::AsGiven,
            ..Default::default()
        };
        let p = Problem::from_corridor(&c, &params).unwrap();
        assert_eq!(p.centers[0], DVec2::new(0.0, -3.0));
        assert_eq!(p.centers[4], DVec2::new(2.0, -3.0));
        assert_eq!(p.radii, vec![0.0, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!(p.weights[0], 0.0);
        assert_eq!(p.weights[4], 0.0);
        assert_eq!(p.h, 1.0);
    }

    #[test]
    fn given_weights_must_match_the_waypoint_count() {
        let c = DiskCorridor::new(vec![DVec2::ZERO, DVec2::X], vec![1.0, 1.0], None, None).unwrap();
        let bad = ProblemParams {
            weights: Weights::Given(vec![1.0; 3]),
            ..Default::default()
        };
        assert!(matches!(
            Problem::from_corridor(&c, &bad),
            Err(Error::BadParameter {
                name: "weights",
                ..
            })
        ));
        let neg = ProblemParams {
            weights: Weights::Bathtub {
                start: -1.0,
                end: 1.0,
                middle: 1.0,
            },
            ..Default::default()
        };
        assert!(matches!(
            Problem::from_corridor(&c, &neg),
            Err(Error::BadParameter { name: "w_s", .. })
        ));
    }

    #[test]
    #[cfg(feature = "serde")]
    fn any_json_tells_a_dump_from_a_corridor_and_reports_errors() {
        let o = ProblemParams::default();
        let bad_dump = r#"{"centers": [[0,0],[1,0]], "radii": [0, 0], "weights": [0, 0], "h": -1}"#;
        assert!(matches!(
            Problem::from_any_json(bad_dump, &o),
            Err(Error::BadParameter { name: "h", .. })
        ));
        let gap = r#"{"centers": [[0,0],[9,0]], "radii": [1, 1]}"#;
        assert_eq!(
            Problem::from_any_json(gap, &o),
            Err(Error::CorridorGap { a: 0, b: 1 })
        );
        assert!(matches!(
            Problem::from_any_json("[1, 2", &o),
            Err(Error::Parse { .. })
        ));
        // Unknown keys are refused in both forms, naming the key.
        let dump =
            r#"{"centers": [[0,0],[1,0]], "radii": [0, 0], "weights": [0, 0], "h": 1, "lead": 1}"#;
        let corridor = r#"{"centers": [[0,0],[1,0]], "radii": [1, 1], "weights": [0, 0]}"#;
        for (text, key) in [(dump, "lead"), (corridor, "weights")] {
            match Problem::from_any_json(text, &o) {
                Err(Error::Parse { message, .. }) => {
                    assert!(
                        message.contains(&format!("unknown field `{key}`")),
                        "{message}"
                    )
                }
                other => panic!("expected a parse error, got {other:?}"),
            }
        }
    }

    #[test]
    fn densified_disks_stay_inside_the_corridor() {
        let c = DiskCorridor::new(
            vec![
                DVec2::ZERO,
                DVec2::new(3.0, 4.0),
                DVec2::new(3.0, 4.5),
                DVec2::new(9.0, 4.5),
            ],
            vec![2.6, 2.5, 0.5, 5.6],
            None,
            None,
        )
        .unwrap();
        let (centers, radii) = densify(&c, 0.7).unwrap();
        assert!(centers
            .windows(2)
            .all(|w| w[0].distance(w[1]) <= 0.7 + 1e-12));
        for (p, r) in centers.iter().zip(&radii) {
            let inside = c
                .centers
                .iter()
                .zip(&c.radii)
                .any(|(q, rq)| p.distance(*q) + r <= rq + 1e-12);
            assert!(inside, "disk at {p:?} radius {r} leaves the corridor");
        }
        for (q, rq) in c.centers.iter().zip(&c.radii) {
            let k = centers.iter().position(|p| p == q).expect("original kept");
            assert_eq!(radii[k], *rq);
        }
        let o = ProblemParams {
            max_spacing: Some(0.7),
            ..Default::default()
        };
        let p = Problem::from_corridor(&c, &o).unwrap();
        assert_eq!(p.len(), centers.len());
        assert!(p.h <= 0.7);
        assert!(matches!(
            densify(&c, 0.0),
            Err(Error::BadParameter {
                name: "max_spacing",
                ..
            })
        ));
        assert!(matches!(
            densify(&c, 1e-9),
            Err(Error::OutputTooLarge { .. })
        ));
    }

    #[test]
    fn coincident_centres_still_get_a_positive_h() {
        let c =
            DiskCorridor::new(vec![DVec2::ONE, DVec2::ONE], vec![0.0, 0.0], None, None).unwrap();
        let p = Problem::from_corridor(&c, &ProblemParams::default()).unwrap();
        assert_eq!(p.h, 1.0);
    }

    #[test]
    fn densify_splits_long_gaps() {
        let c = DiskCorridor::new(
            vec![DVec2::ZERO, DVec2::new(4.0, 0.0)],
            vec![3.0, 2.0],
            None,
            None,
        )
        .unwrap();
        let (centers, radii) = densify(&c, 1.0).unwrap();
        assert_eq!(centers.len(), 5);
        assert_eq!(centers[1], DVec2::new(1.0, 0.0));
        assert_eq!(radii, vec![3.0, 2.0, 1.0, 1.0, 2.0]);
    }

    #[test]
    fn bathtub_into_three_waypoints() {
        let mut w = [1.0; 3];
        bathtub_into(4.0, 2.0, 1.0, &mut w);
        assert_eq!(w, [0.0, 3.0, 0.0]);
    }
}
