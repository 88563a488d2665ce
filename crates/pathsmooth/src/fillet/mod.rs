//! Fillet smoothing: each corner of a polyline replaced by a circular arc (or, with the G2
//! option, clothoid–arc–clothoid) tangent to both legs, of radius at least the minimum
//! turning radius ρ wherever the legs and the walls leave room.
//!
//! # The construction
//!
//! At a corner `P` with unit legs `u` (in) and `v` (out) and turn θ, an arc of radius `R`
//! tangent to both legs touches them at distance `d = R·tan(θ/2)` from `P` (the classic
//! fillet of drafting and CNC tool paths; for the clothoid option, `d = R·g(θ)` with the
//! spiral–curve–spiral closed form of highway design, see [`Transition`]). For each corner:
//!
//! 1. **Legs.** The radius starts at ρ (or the larger
//!    [`max_radius`](FilletParams::max_radius) asked for) and is lowered where the legs are
//!    too short: the tangent distances of the two corners sharing a leg must fit on it.
//!    Radii that do not fit are shrunk proportionally, then every radius is grown back as
//!    far as its legs' slack allows (three rounds), which gives the largest radii on most
//!    paths.
//! 2. **Walls** (map-aware form only). The curve is sampled into chords within the chord
//!    error `e`, and the chords are tested for clearance `r + e`: every point of the curve
//!    is within `e` of a chord, so the curve keeps clearance `r`, and so do the chords (the
//!    polyline the pipeline returns). A chord whose two ends have clearance ≥ `r + e` plus
//!    half its length is clear (clearance changes by at most the distance moved); the
//!    others get the world's segment test. A corner whose curve fails is bisected on its
//!    radius (to 0.2 %, at most 14 rounds) down to the largest radius found clear, or kept
//!    sharp. Radii whose tangent distance is within the corner's own slack
//!    (clearance − `r` − `e`) need no test: the curve lies in the triangle of the corner
//!    and its tangent points.
//! 3. **Joints.** The straight pieces left between curves lie on the input's segments and
//!    are tested too (rounding of the tangent points could make one clip a wall corner the
//!    input only touched); a failing piece keeps its two corners sharp.
//!
//! The pieces are built from the radii once, with the tangent points stored in them, so
//! neighbouring pieces meet exactly.
//!
//! A corner whose radius ends below ρ is **reported** ([`Corner`], with the reason:
//! legs too short, walls, or a U-turn), or an error in strict mode. A U-turn (θ = π, a
//! reversal) has no tangent fillet and is kept sharp; nearly reversing corners need legs
//! of `R·tan(θ/2)`, which they rarely have, and are reported as limited by their legs.
//! Duplicate points, zero-length legs and collinear points are dropped first.
//!
//! # What it guarantees
//!
//! - The result is tangent-continuous (G1) at every joint, except at corners kept sharp
//!   (radius 0, reported). With [`Transition::Clothoid`] its curvature is also continuous
//!   (G2) at every filleted corner.
//! - |curvature| ≤ 1/ρ everywhere except at reported corners.
//! - It is never longer than the input (a convex curve inside the triangle of its tangent
//!   points and the corner is shorter than the two sides), keeps the endpoints and the
//!   directions at both ends.
//! - Map-aware form: a valid input gives a curve with clearance ≥ `r` everywhere and a
//!   [`to_polyline`](crate::curve::exact::ExactCurve::to_polyline) at the same chord
//!   error that is valid for `r`.
//!
//! **Cost.** O(n) for the radii; per corner, one test of its chords (about
//! `θ·√(R/(8e))` chords, most settled by two clearance queries) and up to 14 more where
//! the walls are close. On the longest scenarios of two 512² Moving AI maps the fillet
//! step takes a few per cent of the A* search (`benches/fillet.rs`).
//!
//! The clothoids' points use the Fresnel integrals (Press et al., *Numerical Recipes*
//! §6.8), accurate to about 10⁻¹⁵ here; the fillet geometry is the classic tangent
//! fillet, and the clothoid transitions the symmetric spiral–curve–spiral of road and
//! railway design.
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::{fillet_geometry, FilletParams};
//! // A 90° corner with legs of 4: a quarter circle of radius 1.
//! let path = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0)];
//! let out = fillet_geometry(&path, &FilletParams::new(1.0))?;
//! let expected = 2.0 * 4.0 - 2.0 * 1.0 + std::f64::consts::FRAC_PI_2;
//! assert!((out.curve.length() - expected).abs() < 1e-12);
//! assert!(out.corners.is_empty() && out.curve.max_curvature() == 1.0);
//! # Ok::<(), pathsmooth::Error>(())
//! ```

mod corner;

use glam::DVec2;

use crate::curve::exact::{ExactCurve, Piece};
use crate::error::{Error, Result};
use crate::geometry::{angle_between, check_path, Point2};
use crate::validate::validate;
use crate::world::{check_input, path_is_clear, World};
use corner::CornerShape;

/// How a corner's curve is made.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Transition {
    /// A circular arc of radius `R`: tangent-continuous (G1); the curvature jumps from 0
    /// to `1/R` at the tangent points.
    Arc,
    /// Clothoid–arc–clothoid, symmetric: the curvature grows linearly from 0 to `1/R`
    /// along a clothoid, stays `1/R` along the arc and falls back to 0 (G2: the curvature
    /// is continuous; what vehicles with a bounded steering rate need). The two clothoids
    /// take `share` ∈ (0, 1] of the turn (1: no arc at all), each of length `share·θ·R`;
    /// the maximum curvature is `1/R` ≤ `1/ρ` as for the arc. Such a curve needs longer
    /// legs than an arc of the same radius.
    Clothoid {
        /// Fraction of the turn taken by the two clothoids, in (0, 1].
        share: f64,
    },
}

/// Parameters of fillet smoothing.
///
/// ```
/// use pathsmooth::{FilletParams, Transition};
/// let p = FilletParams::new(3.0).g2();
/// assert_eq!(p.transition, Transition::Clothoid { share: 0.5 });
/// assert_eq!(p.chord_error, 3e-3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FilletParams {
    /// The minimum turning radius ρ, world units (> 0).
    pub turn_radius: f64,
    /// The radius each corner aims for, world units: corners get the largest radius up to
    /// this that the legs and walls allow, and only those below ρ are reported. Values
    /// below ρ count as ρ. Larger radii make shorter paths that an agent with a lateral
    /// acceleration limit follows faster (v ≤ √(a_lat·R)), but they leave the corner
    /// farther and need longer legs.
    pub max_radius: f64,
    /// The largest distance between the curve and the polyline sampled from it (world
    /// units, > 0); the walls are tested with this margin added to the agent radius.
    pub chord_error: f64,
    /// Refuse a path with a corner below ρ ([`Error::CornerBelowTurnRadius`]) instead of
    /// reporting it.
    pub strict: bool,
    /// Arc or clothoid transitions.
    pub transition: Transition,
}

impl FilletParams {
    /// Circular fillets of radius `turn_radius`, a chord error of `turn_radius/1000`,
    /// corners below ρ reported (not an error).
    pub fn new(turn_radius: f64) -> Self {
        FilletParams {
            turn_radius,
            max_radius: turn_radius,
            chord_error: turn_radius * 1e-3,
            strict: false,
            transition: Transition::Arc,
        }
    }

    /// The same with clothoid transitions taking half of each turn (G2).
    pub fn g2(self) -> Self {
        FilletParams {
            transition: Transition::Clothoid { share: 0.5 },
            ..self
        }
    }

    /// The same aiming for radius `max_radius` (at least ρ) where there is room.
    pub fn up_to(self, max_radius: f64) -> Self {
        FilletParams { max_radius, ..self }
    }

    /// The same in strict mode.
    pub fn strict(self) -> Self {
        FilletParams {
            strict: true,
            ..self
        }
    }

    /// Checks the parameters ([`Error::BadParameter`] naming the first bad one).
    pub fn validate(&self) -> Result<()> {
        Error::check_positive("turn_radius", self.turn_radius, "a positive finite radius")?;
        Error::check_positive("max_radius", self.max_radius, "a positive finite radius")?;
        Error::check_positive(
            "chord_error",
            self.chord_error,
            "a positive finite distance",
        )?;
        if let Transition::Clothoid { share } = self.transition
            && !(share > 0.0 && share <= 1.0)
        {
            return Err(Error::param("share", share, "a fraction in (0, 1]"));
        }
        Ok(())
    }

    fn share(&self) -> f64 {
        match self.transition {
            Transition::Arc => 0.0,
            Transition::Clothoid { share } => share,
        }
    }
}

/// Why a corner's radius is below ρ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CornerLimit {
    /// Its legs are too short for a curve of radius ρ (shared with the neighbouring
    /// corners).
    Legs,
    /// The walls leave no room for a curve of radius ρ at the agent radius.
    Walls,
    /// A reversal (a 180° turn): no tangent fillet exists; kept sharp.
    UTurn,
}

impl CornerLimit {
    /// The reason in words.
    pub fn as_str(self) -> &'static str {
        match self {
            CornerLimit::Legs => "its legs are too short",
            CornerLimit::Walls => "the walls leave no room",
            CornerLimit::UTurn => "it is a U-turn",
        }
    }
}

/// A corner whose curve has a radius below ρ.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Corner {
    /// Index of the corner in the input path.
    pub index: usize,
    /// The corner point.
    pub at: DVec2,
    /// Its turn angle, radians.
    pub turn: f64,
    /// The radius it got (0: kept sharp).
    pub radius: f64,
    /// Why.
    pub limit: CornerLimit,
}

/// The result of fillet smoothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Filleted {
    /// The smoothed path as an exact curve (lines, arcs, clothoids).
    pub curve: ExactCurve,
    /// The corners whose radius is below ρ, in path order.
    pub corners: Vec<Corner>,
    /// How many corners the path had (after dropping duplicate and collinear points).
    pub turns: usize,
}

/// Fillet smoothing that keeps its scratch buffers and takes the world per call. See the
/// [module docs](self).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{is_valid, FilletParams, Filleter, GridMap, GridWorld};
/// let world = GridWorld::new(GridMap::from_rows(&["......", "......", "......", "...@@@"])?)?;
/// let path = [DVec2::new(0.5, 0.5), DVec2::new(2.5, 2.5), DVec2::new(5.5, 2.5)];
/// let out = Filleter::new().fillet(&world, &path, 0.3, &FilletParams::new(1.0))?;
/// assert!(is_valid(&world, &out.curve.to_polyline(1e-3)?, 0.3));
/// assert_eq!(out.curve.end(), path[2]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Filleter {
    scratch: Scratch,
}

/// The buffers of one run.
#[derive(Debug, Clone, Default)]
struct Scratch {
    /// The input in `f64`.
    input: Vec<DVec2>,
    /// The input without duplicates and collinear points.
    points: Vec<DVec2>,
    /// For each kept point, its index in the input.
    index: Vec<usize>,
    /// Per interior point: its shape, radius and limit.
    shapes: Vec<CornerShape>,
    radii: Vec<f64>,
    limits: Vec<Option<CornerLimit>>,
    /// Sampled points of one corner, and its pieces.
    samples: Vec<DVec2>,
    pieces: Vec<Piece>,
    /// The whole curve's pieces, the legs whose straight piece failed, and the corners
    /// below the turning radius: the result, before it is copied out.
    curve: Vec<Piece>,
    failed: Vec<usize>,
    corners: Vec<Corner>,
}

impl Filleter {
    /// A filleter with empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fillets `path` (valid on `world` for the agent radius `radius`) with minimum
    /// turning radius `params.turn_radius`; see the [module docs](self).
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks) ([`Error::EmptyPath`],
    /// [`Error::NonFinite`], [`Error::CoordinateOutOfRange`], [`Error::BadParameter`] for
    /// the radius, [`Error::OutsideWorld`]; a radius below the world's tolerance is taken
    /// as 0), [`Error::BadParameter`] for the parameters, [`Error::InvalidInputPath`] for an
    /// input that is not valid itself, and in strict mode
    /// [`Error::CornerBelowTurnRadius`] for the first corner below ρ.
    pub fn fillet<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        params: &FilletParams,
    ) -> Result<Filleted> {
        let turns = self.fillet_in_scratch(world, path, radius, params)?;
        let s = &self.scratch;
        Ok(Filleted {
            curve: ExactCurve::new(s.curve.clone())?,
            corners: s.corners.clone(),
            turns,
        })
    }

    /// [`fillet`](Self::fillet) into `out`, reusing its memory: once this filleter and
    /// `out` have grown, a call allocates nothing. Errors as [`fillet`](Self::fillet); `out`
    /// is then as it was.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{fillet_geometry, FilletParams, Filleter, GridMap, GridWorld};
    /// let world = GridWorld::new(GridMap::from_rows(&["......"; 6])?)?;
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(5.5, 0.5), DVec2::new(5.5, 5.5)];
    /// let params = FilletParams::new(1.0);
    /// let mut filleter = Filleter::new();
    /// let mut out = fillet_geometry(&path, &params)?;
    /// filleter.fillet_into(&world, &path, 0.0, &params, &mut out)?;
    /// assert_eq!((out.turns, out.corners.len()), (1, 0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn fillet_into<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        params: &FilletParams,
        out: &mut Filleted,
    ) -> Result<()> {
        let turns = self.fillet_in_scratch(world, path, radius, params)?;
        let s = &self.scratch;
        out.curve.assign(&s.curve)?;
        out.corners.clone_from(&s.corners);
        out.turns = turns;
        Ok(())
    }

    /// Checks the input and fillets it, leaving the curve's pieces and the corners in the
    /// scratch; the number of turns.
    fn fillet_in_scratch<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        params: &FilletParams,
    ) -> Result<usize> {
        let mut points = std::mem::take(&mut self.scratch.input);
        let result = check_input(world, path, 1, "fillet", radius, &mut points)
            .and_then(|radius| self.check_and_solve(world, &points, radius, params));
        self.scratch.input = points;
        result
    }

    fn check_and_solve<W: World + ?Sized>(
        &mut self,
        world: &W,
        points: &[DVec2],
        radius: f64,
        params: &FilletParams,
    ) -> Result<usize> {
        params.validate()?;
        if !path_is_clear(world, points, radius)
            && let Some(reason) = validate(world, points, radius)?.problem()
        {
            return Err(Error::InvalidInputPath { reason });
        }
        let room = WorldRoom { world, radius };
        solve(&room, points, params, &mut self.scratch)
    }
}

/// Fillets `path` on `world` for agent radius `radius`: [`Filleter::fillet`] once.
pub fn fillet<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    radius: f64,
    params: &FilletParams,
) -> Result<Filleted> {
    Filleter::new().fillet(world, path, radius, params)
}

/// Fillets `path` with no world: only the legs limit the radii (no wall tests). For
/// paths in open space, or geometry to check elsewhere.
///
/// Errors: [`Error::EmptyPath`], [`Error::NonFinite`], [`Error::BadParameter`], and in
/// strict mode [`Error::CornerBelowTurnRadius`].
pub fn fillet_geometry<P: Point2>(path: &[P], params: &FilletParams) -> Result<Filleted> {
    params.validate()?;
    check_path(path, 1, "fillet")?;
    let points: Vec<DVec2> = path.iter().map(|p| p.to_dvec2()).collect();
    let mut s = Scratch::default();
    let turns = solve(&OpenSpace, &points, params, &mut s)?;
    Ok(Filleted {
        curve: ExactCurve::new(s.curve)?,
        corners: s.corners,
        turns,
    })
}

/// What the walls allow: whether a corner's sampled curve (with the chord error as
/// margin) and a straight piece are clear.
trait Room {
    /// How far `p` is from having less clearance than the agent radius plus `margin`:
    /// every point within that distance of `p` keeps clearance ≥ radius + margin
    /// (clearance changes by at most the distance moved).
    fn slack(&self, p: DVec2, margin: f64) -> f64;
    fn curve_is_clear(&self, points: &[DVec2], margin: f64) -> bool;
    fn leg_is_clear(&self, a: DVec2, b: DVec2) -> bool;
}

struct OpenSpace;

impl Room for OpenSpace {
    fn slack(&self, _: DVec2, _: f64) -> f64 {
        f64::INFINITY
    }
    fn curve_is_clear(&self, _: &[DVec2], _: f64) -> bool {
        true
    }
    fn leg_is_clear(&self, _: DVec2, _: DVec2) -> bool {
        true
    }
}

struct WorldRoom<'a, W: ?Sized> {
    world: &'a W,
    radius: f64,
}

impl<W: World + ?Sized> Room for WorldRoom<'_, W> {
    fn slack(&self, p: DVec2, margin: f64) -> f64 {
        self.world.clearance(p) - self.radius - margin
    }
    fn curve_is_clear(&self, points: &[DVec2], margin: f64) -> bool {
        let r = self.radius + margin;
        // Point queries first: they are cheap (a grid's distance field) and reject most
        // radii that fail. A chord whose ends both have clearance ≥ r + half its length
        // is clear (each of its points is that close to an end, and clearance changes by
        // at most the distance moved); the others get the world's segment test.
        let mut prev = match points.first() {
            Some(&p) => self.world.clearance(p),
            None => return true,
        };
        if prev < r {
            return false;
        }
        for w in points.windows(2) {
            let c = self.world.clearance(w[1]);
            if c < r {
                return false;
            }
            let sure = prev.min(c) >= r + 0.5 * w[0].distance(w[1]);
            if !sure && !self.world.segment_is_clear(w[0], w[1], r) {
                return false;
            }
            prev = c;
        }
        true
    }
    fn leg_is_clear(&self, a: DVec2, b: DVec2) -> bool {
        // A leg lies on an input segment up to the rounding of its ends (~10⁻¹⁶ of the
        // coordinates); where the input runs at exactly the radius, such a leg may test a
        // hair short of it. With a radius above the world's tolerance, the validator
        // accepts clearance down to `radius − tolerance`, so the leg is tested at half
        // that slack; at radius 0 the test stays exact (touching the walls is what counts).
        let tol = self.world.tolerance();
        let r = if self.radius > tol {
            self.radius - 0.5 * tol
        } else {
            self.radius
        };
        self.world.segment_is_clear(a, b, r)
    }
}

/// Turns of at most this (radians) are straight: the point is dropped.
const STRAIGHT: f64 = 1e-12;
/// Turns within this of π are reversals.
const REVERSAL: f64 = 1e-9;
/// Most bisection rounds on a corner's radius against the walls…
const BISECTIONS: usize = 14;
/// …which stop once the radius is known to this relative precision.
const BISECTION_PRECISION: f64 = 2e-3;

fn solve<R: Room>(
    room: &R,
    input: &[DVec2],
    params: &FilletParams,
    s: &mut Scratch,
) -> Result<usize> {
    let rho = params.turn_radius;
    let target = params.max_radius.max(rho);
    let e = params.chord_error;
    simplify(input, s);
    let n = s.points.len();
    let scale = s
        .points
        .iter()
        .map(|p| p.abs().max_element())
        .fold(1.0, f64::max);
    // Legs shorter than this after the curves are left out (their curves meet).
    let tiny = 1e-9 * scale;
    s.shapes.clear();
    s.radii.clear();
    s.limits.clear();
    for i in 1..n.saturating_sub(1) {
        let (a, p, b) = (s.points[i - 1], s.points[i], s.points[i + 1]);
        let (u, v) = ((p - a).normalize(), (b - p).normalize());
        let theta = angle_between(u, v).unwrap_or(0.0);
        let shape = CornerShape::new(p, u, v, theta, params.share());
        let reversal = theta > std::f64::consts::PI - REVERSAL || !shape.g.is_finite();
        s.shapes.push(shape);
        s.radii.push(if reversal { 0.0 } else { target });
        s.limits.push(reversal.then_some(CornerLimit::UTurn));
    }
    share_legs(s, target);
    // Walls: each corner's curve, tested with the chord error as margin.
    for k in 0..s.shapes.len() {
        if s.radii[k] == 0.0 || s.shapes[k].g * s.radii[k] < tiny {
            continue;
        }
        // The curve and its chords lie in the triangle of the corner and its tangent
        // points, within g·R of the corner: where the corner's clearance leaves that much
        // slack, no wall test is needed, and such radii bound the bisection from below.
        let slack = room.slack(s.shapes[k].p, e).max(0.0);
        let sure = slack / s.shapes[k].g;
        if sure >= s.radii[k] || corner_is_clear(room, s, k, s.radii[k], e) {
            continue;
        }
        let (mut lo, mut hi) = (sure, s.radii[k]);
        for _ in 0..BISECTIONS {
            if hi - lo <= BISECTION_PRECISION * hi {
                break;
            }
            let mid = 0.5 * (lo + hi);
            if corner_is_clear(room, s, k, mid, e) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        s.radii[k] = lo;
        s.limits[k] = Some(CornerLimit::Walls);
    }
    // Radii whose tangent distance is below `tiny` are sharp corners.
    for k in 0..s.radii.len() {
        if s.shapes[k].g * s.radii[k] < tiny {
            s.radii[k] = 0.0;
        }
    }
    let (mut pieces, mut failed) = (std::mem::take(&mut s.curve), std::mem::take(&mut s.failed));
    // The straight pieces: a failing one keeps both its corners sharp (then it is an
    // input segment, clear). Each round sharpens every corner of a failing piece, so this
    // ends; it rarely takes more than one.
    loop {
        pieces.clear();
        failed.clear();
        build(room, s, tiny, &mut pieces, &mut failed);
        if failed.is_empty() {
            break;
        }
        for &leg in &failed {
            for k in [leg.wrapping_sub(1), leg] {
                if let Some(r) = s.radii.get_mut(k) {
                    *r = 0.0;
                    s.limits[k] = Some(CornerLimit::Walls);
                }
            }
        }
    }
    s.failed = failed;
    let mut corners = std::mem::take(&mut s.corners);
    corners.clear();
    for k in 0..s.shapes.len() {
        let radius = s.radii[k];
        if radius < rho {
            let corner = Corner {
                index: s.index[k + 1],
                at: s.shapes[k].p,
                turn: s.shapes[k].theta,
                radius,
                limit: s.limits[k].unwrap_or(CornerLimit::Legs),
            };
            if params.strict {
                (s.curve, s.corners) = (pieces, corners);
                return Err(Error::CornerBelowTurnRadius {
                    index: corner.index,
                    x: corner.at.x,
                    y: corner.at.y,
                    radius,
                    turn_radius: rho,
                    reason: corner.limit.as_str(),
                });
            }
            corners.push(corner);
        }
    }
    if pieces.is_empty() {
        pieces.push(Piece::Line {
            start: s.points[0],
            end: s.points[s.points.len() - 1],
        });
    }
    (s.curve, s.corners) = (pieces, corners);
    Ok(s.shapes.len())
}

/// Keeps the input's points that start a leg of positive length and bend the path.
fn simplify(input: &[DVec2], s: &mut Scratch) {
    s.points.clear();
    s.index.clear();
    for (i, &p) in input.iter().enumerate() {
        if let Some(&last) = s.points.last() {
            // A leg without a direction (a duplicate, or so short that its direction
            // underflows) is dropped; the path's last point is kept in place of the
            // point before it.
            if (p - last).try_normalize().is_none() {
                if i + 1 < input.len() {
                    continue;
                }
                if s.points.len() > 1 {
                    s.points.pop();
                    s.index.pop();
                }
            }
        }
        // Drop the last kept point when it lies straight on the way to `p`.
        if let [.., a, b] = s.points[..] {
            let turn = angle_between(b - a, p - b).unwrap_or(0.0);
            if turn <= STRAIGHT || (p - b).try_normalize().is_none() {
                s.points.pop();
                s.index.pop();
            }
        }
        if s.points.last() != Some(&p) || s.points.is_empty() {
            s.points.push(p);
            s.index.push(i);
        }
    }
}

/// Lowers the radii (each at most `rho`, here the target radius) so that the tangent
/// distances of the two corners of each leg fit on it (proportionally), then grows each
/// back as far as its legs' slack allows.
fn share_legs(s: &mut Scratch, rho: f64) {
    let m = s.shapes.len();
    if m == 0 {
        return;
    }
    // Leg k joins point k to point k + 1; corner k sits at point k + 1. Curves that
    // fill a leg exactly meet at one point (see `build`).
    let leg = |s: &Scratch, k: usize| s.points[k + 1].distance(s.points[k]);
    let d = |s: &Scratch, k: usize| s.shapes[k].g * s.radii[k];
    for k in 0..m {
        let fit = leg(s, k).min(leg(s, k + 1)) / s.shapes[k].g;
        if fit < s.radii[k] {
            s.radii[k] = fit;
            s.limits[k].get_or_insert(CornerLimit::Legs);
        }
    }
    for k in 1..m {
        let (need, room) = (d(s, k - 1) + d(s, k), leg(s, k));
        if need > room {
            let f = room / need;
            s.radii[k - 1] *= f;
            s.radii[k] *= f;
            s.limits[k - 1].get_or_insert(CornerLimit::Legs);
            s.limits[k].get_or_insert(CornerLimit::Legs);
        }
    }
    for _ in 0..3 {
        for k in 0..m {
            if s.limits[k] != Some(CornerLimit::Legs) {
                continue;
            }
            let before = leg(s, k) - if k > 0 { d(s, k - 1) } else { 0.0 };
            let after = leg(s, k + 1) - if k + 1 < m { d(s, k + 1) } else { 0.0 };
            let fit = (before.min(after) / s.shapes[k].g).clamp(s.radii[k], rho);
            s.radii[k] = fit;
        }
    }
    for k in 0..m {
        if s.limits[k] == Some(CornerLimit::Legs) && s.radii[k] >= rho {
            s.limits[k] = None;
        }
    }
}

/// True when corner `k`'s curve for `radius`, sampled at the chord error, is clear.
fn corner_is_clear<R: Room>(room: &R, s: &mut Scratch, k: usize, radius: f64, e: f64) -> bool {
    let shape = s.shapes[k];
    let (a, b) = shape.tangent_points(radius);
    s.pieces.clear();
    shape.pieces(radius, a, b, &mut s.pieces);
    s.samples.clear();
    s.samples.push(a);
    for p in &s.pieces {
        p.push_samples(p.chords_for(e) as usize, &mut s.samples);
    }
    room.curve_is_clear(&s.samples, e)
}

/// The curve's pieces into `out`, and into `failed` the straight pieces (as leg indices)
/// that are not clear between a curve and a corner with a radius.
fn build<R: Room>(room: &R, s: &Scratch, tiny: f64, out: &mut Vec<Piece>, failed: &mut Vec<usize>) {
    let m = s.shapes.len();
    let mut from = s.points[0];
    for k in 0..=m {
        // Leg k ends at corner k's entry tangent point (or the path's end).
        let to = if k < m {
            s.shapes[k].tangent_points(s.radii[k]).0
        } else {
            s.points[s.points.len() - 1]
        };
        // Curves meeting within `tiny` share their joint; the path's end is kept exactly.
        let reach = if k < m && from.distance(to) <= tiny {
            from
        } else {
            to
        };
        if reach != from {
            // A leg between two sharp corners (or ends) is an input segment: clear.
            let rounded = (k > 0 && s.radii[k - 1] > 0.0) || (k < m && s.radii[k] > 0.0);
            if rounded && !room.leg_is_clear(from, reach) {
                failed.push(k);
            }
            out.push(Piece::Line {
                start: from,
                end: reach,
            });
        }
        if k == m {
            break;
        }
        let shape = s.shapes[k];
        if s.radii[k] == 0.0 {
            from = reach;
            continue;
        }
        let mut exit = shape.tangent_points(s.radii[k]).1;
        // A curve filling the last leg ends exactly at the path's end.
        let end = s.points[s.points.len() - 1];
        if k + 1 == m && exit.distance(end) <= tiny {
            exit = end;
        }
        shape.pieces(s.radii[k], reach, exit, out);
        from = exit;
    }
}
