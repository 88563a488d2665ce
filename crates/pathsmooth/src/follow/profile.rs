//! The speed profile: the fastest admissible time parameterisation of a polyline.
//!
//! See the [module documentation](crate::follow) for the model. Internally the polyline is
//! cut into *knots*: every vertex, plus the two ends of the arc on which each rounded corner
//! is taken. Between two knots the path is straight, the speed cap is constant (the top
//! speed, or the corner's cap on an arc) and the speed follows at most three phases
//! (accelerate, cruise at the cap, brake) with v² linear in arc length in each.

use glam::{DVec2, DVec3};

use super::agent::{Agent, Steering};
use super::heading::{reverses, turn, Heading, REVERSAL_TOLERANCE};
use super::phases::{Phases, Rates};
use crate::error::{Error, Result};
use crate::geometry::{check_path, check_within, max_coordinate, Point};

/// Points closer than this, relative to the coordinates' magnitude (and at least in absolute
/// terms), are duplicates: they add no segment and so no turn.
pub(crate) const DUPLICATE_TOLERANCE: f64 = 1e-12;

/// The most samples [`SpeedProfile::samples`] writes.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::follow::{speed_profile, Agent, MAX_SAMPLES};
/// let p = speed_profile(&[DVec2::ZERO, DVec2::new(1e6, 0.0)], &Agent::default())?;
/// assert!(p.total_time() * 100.0 > MAX_SAMPLES as f64);
/// assert!(p.samples(100.0).is_err()); // 20 million samples: refused
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub const MAX_SAMPLES: usize = 10_000_000;

/// The agent's state at one instant of a [`SpeedProfile`].
///
/// Positions and directions are 3D; a 2D path gives z = 0 throughout, and
/// [`position_2d`](Self::position_2d) and `heading` serve 2D code.
///
/// ```
/// use glam::{DVec2, DVec3};
/// use pathsmooth::follow::{speed_profile, Agent};
/// let p = speed_profile(&[DVec2::ZERO, DVec2::new(-10.0, 0.0)], &Agent::default())?;
/// let s = p.sample(0.5);
/// assert_eq!((s.t, s.speed), (0.5, 2.0)); // 4 m/s² for 0.5 s
/// assert!((s.position_2d().x + 0.5).abs() < 1e-12); // ½·4·0.5² = 0.5 m, toward −x
/// assert!((s.heading.abs() - std::f64::consts::PI).abs() < 1e-12);
/// assert_eq!(s.direction, DVec3::NEG_X);
///
/// // Straight up a 10 m shaft: the same trapezoid as 10 m along the ground.
/// let up = speed_profile(&[DVec3::ZERO, DVec3::new(0.0, 0.0, 10.0)], &Agent::default())?;
/// let s = up.sample(0.5);
/// assert!((s.position.z - 0.5).abs() < 1e-12 && s.direction == DVec3::Z);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Time since the start, s.
    pub t: f64,
    /// Position on the polyline (z = 0 for a 2D path).
    pub position: DVec3,
    /// Unit direction the agent faces: along the path, turning across each rounding arc
    /// and while it rotates in place (see [`Steering`] for how).
    pub direction: DVec3,
    /// Heading in the ground plane (yaw), radians in [−π, π), counter-clockwise from +x
    /// (as [`DVec2::to_angle`]): the angle of `direction`'s x–y part. While `direction`
    /// is vertical it keeps the yaw the agent had before (at the start of the path: the yaw
    /// of its first segment that is not vertical, or 0).
    pub heading: f64,
    /// Speed along the path (3D), m/s.
    pub speed: f64,
}

impl Sample {
    /// The position's x and y (z dropped), for 2D code. O(1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let p = speed_profile(&[DVec2::ONE, DVec2::new(4.0, 5.0)], &Agent::default())?;
    /// assert_eq!(p.sample(f64::INFINITY).position_2d(), DVec2::new(4.0, 5.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn position_2d(&self) -> DVec2 {
        self.position.truncate()
    }
}

/// The timing of one input vertex in a [`SpeedProfile`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::follow::{speed_profile, Agent};
/// let p = speed_profile(&[DVec2::ZERO, DVec2::new(20.0, 0.0)], &Agent::default())?;
/// let end = p.vertex(1).unwrap();
/// assert_eq!((end.s, end.speed, end.dwell), (20.0, 0.0, 0.0));
/// assert_eq!(end.t, p.total_time());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VertexTiming {
    /// Arc length from the start to the vertex.
    pub s: f64,
    /// Speed when passing the vertex (0 at the ends and at stop-and-rotate corners).
    pub speed: f64,
    /// Time at which the agent reaches the vertex.
    pub t: f64,
    /// Time spent rotating in place at the vertex (0 unless it is a stop-and-rotate corner).
    pub dwell: f64,
}

/// One knot of the profile (see the file comment): what the speed passes read. Kept apart
/// from [`KnotInfo`] so the passes stream through a fraction of the memory.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Knot {
    /// Arc length along the polyline.
    s: f64,
    /// Speed at the knot; holds v² during the passes.
    v: f64,
    /// Speed cap on the interval from this knot to the next.
    cap_after: f64,
}

/// The rest of a knot.
#[derive(Debug, Clone, Copy, PartialEq)]
struct KnotInfo {
    /// Arrival time.
    t: f64,
    /// Time spent rotating in place before leaving.
    dwell: f64,
    /// Position on the polyline.
    pos: DVec3,
    /// Heading on departure. On arrival it is the previous knot's, after a straight
    /// interval, or this one's, at the end of an arc: it differs at stop-and-rotate corners
    /// (and where only the slope changes, with [`Steering::Ground`]).
    heading: Heading,
    /// True when the heading turns on the interval to the next knot (a rounding arc):
    /// from this knot's heading to the next one's. Otherwise it stays this knot's.
    turns: bool,
}

/// The fastest admissible time parameterisation of a path for an [`Agent`].
///
/// Build one with [`speed_profile`], or keep one and [`compute`](Self::compute) into it to
/// reuse its buffers. Query it by time ([`sample`](Self::sample),
/// [`samples`](Self::samples)), by arc length ([`speed_at`](Self::speed_at),
/// [`position_at`](Self::position_at)) or per input vertex ([`vertex`](Self::vertex)).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::follow::{Agent, SpeedProfile};
/// let agent = Agent::default();
/// let mut profile = SpeedProfile::new();
/// profile.compute(&[DVec2::ZERO, DVec2::new(5.0, 0.0)], &agent)?;
/// // 5 m is too short to reach 5 m/s: a triangle, peaking where braking (6 m/s²) begins.
/// let peak = (2.0 * 5.0 * 4.0 * 6.0 / (4.0 + 6.0f64)).sqrt();
/// assert!(peak < agent.max_speed);
/// assert!((profile.speed_at(3.0) - peak).abs() < 1e-12);
/// assert!((profile.total_time() - (peak / 4.0 + peak / 6.0)).abs() < 1e-12);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct SpeedProfile {
    agent: Agent,
    rates: Rates,
    /// The input's distinct points (consecutive duplicates removed), in 3D (z = 0 for 2D).
    points: Vec<DVec3>,
    /// Input vertex → index into `points`.
    vertex_point: Vec<u32>,
    /// Distinct point → its knot.
    point_knot: Vec<u32>,
    knots: Vec<Knot>,
    /// `info[k]` completes `knots[k]`.
    info: Vec<KnotInfo>,
    /// Knots where the agent must be at rest: stop-and-rotate corners and the end.
    stops: Vec<u32>,
    /// The largest coordinate magnitude of the points, at least 1 (see [`is_vertical`]).
    extent: f64,
}

/// The speed profile of `path` for `agent` (allocating form of [`SpeedProfile::compute`]).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::follow::{speed_profile, Agent};
/// let agent = Agent::default();
/// // 20 m straight: accelerate 1.25 s, brake 5/6 s, cruise the remaining 14.79 m.
/// let p = speed_profile(&[DVec2::ZERO, DVec2::new(20.0, 0.0)], &agent)?;
/// let cruise = (20.0 - 25.0 / 8.0 - 25.0 / 12.0) / 5.0;
/// assert!((p.total_time() - (1.25 + 5.0 / 6.0 + cruise)).abs() < 1e-12);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn speed_profile<P: Point>(path: &[P], agent: &Agent) -> Result<SpeedProfile> {
    let mut profile = SpeedProfile::new();
    profile.compute(path, agent)?;
    Ok(profile)
}

/// The half-length `d` of the arc on which `agent`, at top speed `top`, rounds a corner,
/// the speed cap on it and cos(θ/2), for a turn θ given by `turn` = (cos θ, sin θ ≥ 0)
/// between segments of lengths `legs` = (in, out).
///
/// The arc is tangent to both segments at distance d = r·tan(θ/2) from the vertex. Its
/// radius r is the largest that (1) uses at most half of each adjacent segment, so
/// neighbouring arcs never overlap, and (2) passes within `max_corner_cut` of the
/// vertex, r·(1/cos(θ/2) − 1) ≤ cut; and no larger than the agent needs to take it at
/// top speed (`r_need`). On a finely sampled curve (1) gives the curve's own radius.
fn rounding(
    ag: &Agent,
    top: f64,
    (cos, sin): (f64, f64),
    (l_in, l_out): (f64, f64),
    r_need: f64,
) -> (f64, f64, f64) {
    // tan(θ/2) = sin θ / (1 + cos θ): no cancellation for small θ.
    let tan_half = sin / (1.0 + cos);
    let cos2_half = 0.5 * (1.0 + cos);
    let cos_half = cos2_half.sqrt();
    if tan_half.is_nan() || tan_half <= 0.0 {
        return (0.0, top, cos_half);
    }
    let d_fit = 0.5 * l_in.min(l_out);
    let r_fit = d_fit / tan_half;
    // r_cut = cut / (1/cos(θ/2) − 1), where 1/cos(θ/2) − 1 =
    // sin²(θ/2) / ((1 + cos(θ/2))·cos(θ/2)), cos²(θ/2) = (1 + cos θ)/2 and
    // sin²(θ/2) = tan²(θ/2)·cos²(θ/2): no cancellation for small θ.
    let r_cut = ag.max_corner_cut * (1.0 + cos_half) * cos_half / (tan_half * tan_half * cos2_half);
    let r = r_fit.min(r_cut).min(r_need);
    let cap = top
        .min((ag.max_lateral_accel * r).sqrt())
        .min(ag.max_turn_rate * r);
    ((r * tan_half).min(d_fit), cap, cos_half)
}

/// The speed profile's rule for a corner, for `agent` at top speed `top`: what every
/// corner shares (the cosine of the stop angle, the radius at which a corner no longer
/// slows the agent) computed once, for [`SpeedProfile`]'s knots and for followers that
/// cannot afford a profile of the whole path (the crowd's agents).
pub(crate) struct CornerRule<'a> {
    agent: &'a Agent,
    top: f64,
    cos_stop: f64,
    /// The radius at which a corner no longer slows the agent.
    r_need: f64,
}

impl<'a> CornerRule<'a> {
    pub(crate) fn new(agent: &'a Agent, top: f64) -> Self {
        CornerRule {
            agent,
            top,
            cos_stop: agent.stop_angle.cos(),
            r_need: (top * top / agent.max_lateral_accel).max(top / agent.max_turn_rate),
        }
    }

    /// True when a turn θ given by `(cos θ, sin θ ≥ 0)` stops the agent: sharper than its
    /// stop angle, or a reversal.
    fn stops(&self, cos: f64, sin: f64) -> bool {
        cos < self.cos_stop || (cos < 0.0 && sin <= REVERSAL_TOLERANCE)
    }

    /// [`rounding`] of the turn `(cos θ, sin θ)` between legs of lengths `legs`.
    fn rounding(&self, turn: (f64, f64), legs: (f64, f64)) -> (f64, f64, f64) {
        rounding(self.agent, self.top, turn, legs, self.r_need)
    }

    /// The fastest the agent may pass the 2D corner where a leg of length `l_in` along the
    /// unit direction `u` turns to one of length `l_out` along the unit `w`: the cap on its
    /// rounding arc ([`rounding`]), or 0 where the turn stops it. O(1).
    pub(crate) fn cap(&self, (u, l_in): (DVec2, f64), (w, l_out): (DVec2, f64)) -> f64 {
        let (cos, sin) = (u.dot(w), u.perp_dot(w).abs());
        if self.stops(cos, sin) {
            return 0.0;
        }
        self.rounding((cos, sin), (l_in, l_out)).1
    }
}

/// The smaller of two numbers that are never NaN (cheaper than `f64::min`, which must
/// handle NaN, on the passes' dependency chains).
#[inline]
fn min_of(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// True when `a` and `b` are the same point to within [`DUPLICATE_TOLERANCE`] of the
/// coordinates' magnitude (at least in absolute terms).
fn coincide(a: DVec3, b: DVec3) -> bool {
    let scale = a.abs().max_element().max(b.abs().max_element()).max(1.0);
    (a - b).abs().max_element() <= DUPLICATE_TOLERANCE * scale
}

/// True when the segment `d` has no horizontal extent: its ends coincide in the ground plane
/// to within [`DUPLICATE_TOLERANCE`] of `extent`, the path's largest coordinate magnitude
/// (at least 1).
fn is_vertical(d: DVec3, extent: f64) -> bool {
    d.x.abs().max(d.y.abs()) <= DUPLICATE_TOLERANCE * extent
}

/// The heading and length of the segment from `a` to `b` (distinct points of a path of
/// `extent`, see [`is_vertical`]). A vertical segment's direction is exactly ±z and it
/// keeps the heading `yaw`.
fn leg(a: DVec3, b: DVec3, yaw: DVec2, extent: f64) -> (Heading, f64) {
    let d = b - a;
    let len = d.length();
    if is_vertical(d, extent) {
        let dir = if d.z < 0.0 { DVec3::NEG_Z } else { DVec3::Z };
        return (Heading { dir, yaw }, len);
    }
    let dir = d / len;
    let yaw = if d.z == 0.0 {
        dir.truncate() // a 2D path: no second square root
    } else {
        d.truncate().normalize()
    };
    (Heading { dir, yaw }, len)
}

impl SpeedProfile {
    /// An empty profile (zero time, no vertices), ready for [`compute`](Self::compute).
    ///
    /// ```
    /// let p = pathsmooth::follow::SpeedProfile::new();
    /// assert_eq!(p.total_time(), 0.0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Computes the profile of `path` for `agent` into `self`, reusing its buffers: once they
    /// are large enough, recomputing allocates nothing.
    ///
    /// 3D points are profiled in 3D: lengths, curvature and (with the default
    /// [`Steering::Full3d`]) turn angles are those of the 3D polyline; 2D points have
    /// z = 0. A path whose points all coincide takes zero time. Errors: [`Error::EmptyPath`],
    /// [`Error::NonFinite`], [`Error::BadParameter`] for a bad agent,
    /// [`Error::CoordinateOutOfRange`] for a coordinate beyond
    /// [`max_coordinate`]`::<f64>()` (≈ 1.7·10¹⁵³), past which segment lengths overflow to
    /// infinity; on error the profile is left empty.
    ///
    /// ```
    /// use glam::Vec2;
    /// use pathsmooth::follow::{Agent, SpeedProfile};
    /// let mut p = SpeedProfile::new();
    /// p.compute(&[Vec2::ONE, Vec2::ONE], &Agent::default())?;
    /// assert_eq!(p.total_time(), 0.0);
    /// assert!(p.compute::<Vec2>(&[], &Agent::default()).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn compute<P: Point>(&mut self, path: &[P], agent: &Agent) -> Result<()> {
        self.clear();
        agent.validate()?;
        check_path(path, 1, "speed profile")?;
        // Within this bound every length (and their sum) is finite, whatever the point type
        // (the profile computes in f64).
        check_within(path, max_coordinate::<f64>())?;
        if path.len() > u32::MAX as usize / 4 {
            return Err(Error::OutputTooLarge {
                requested: path.len() as u128 * 3,
                cap: u32::MAX as usize,
            });
        }
        self.agent = *agent;
        self.rates = Rates::new(agent.max_accel, agent.max_brake);
        // At most three knots a vertex: reserving once beats growing a large buffer.
        let n = path.len();
        self.points.reserve(n);
        self.vertex_point.reserve(n);
        self.point_knot.reserve(n);
        self.knots.reserve(3 * n);
        self.info.reserve(3 * n);
        self.stops.reserve(n);
        self.collect_points(path);
        self.build_knots();
        self.limit_speeds();
        self.assign_times();
        Ok(())
    }

    fn clear(&mut self) {
        self.points.clear();
        self.vertex_point.clear();
        self.point_knot.clear();
        self.knots.clear();
        self.info.clear();
        self.stops.clear();
    }

    /// Drops consecutive duplicates, remembering where each input vertex went.
    fn collect_points<P: Point>(&mut self, path: &[P]) {
        self.extent = 1.0;
        for p in path {
            let p = p.to_dvec3();
            self.extent = self.extent.max(p.abs().max_element());
            let duplicate = self.points.last().is_some_and(|&last| coincide(last, p));
            if !duplicate {
                self.points.push(p);
            }
            self.vertex_point.push(self.points.len() as u32 - 1);
        }
    }

    /// Lays out the knots: one per vertex, plus the ends of each rounding arc. Each knot's
    /// `v` holds its own speed limit (squared) until the passes.
    ///
    /// Turns are measured with the dot and cross products of unit directions (3D, or the
    /// yaws with [`Steering::Ground`]), and the arc with half-angle identities, so the loop
    /// needs no trigonometric function except an `atan2` at stop-and-rotate corners.
    fn build_knots(&mut self) {
        let ag = self.agent;
        let n = self.points.len();
        let v = ag.max_speed;
        let rule = CornerRule::new(&ag, v);
        let mut s = 0.0;
        let (mut h_in, mut l_in) = if n > 1 {
            leg(
                self.points[0],
                self.points[1],
                self.first_yaw(),
                self.extent,
            )
        } else {
            (Heading::FORWARD, 0.0)
        };
        self.push_knot(s, self.points[0], 0.0, ag.max_speed, 0.0, h_in, false);
        self.point_knot.push(0);
        for i in 1..n {
            let here = self.points[i];
            s += l_in;
            let knot = if i + 1 == n {
                let k = self.push_knot(s, here, 0.0, ag.max_speed, 0.0, h_in, false);
                self.stops.push(k as u32);
                k
            } else {
                let (h_out, l_out) = leg(here, self.points[i + 1], h_in.yaw, self.extent);
                let (cos, sin) = turn(&h_in, &h_out, ag.steering);
                let k = if rule.stops(cos, sin)
                    || (ag.steering == Steering::Ground && reverses(&h_in, &h_out))
                {
                    let dwell = sin.atan2(cos) / ag.max_turn_rate;
                    let k = self.push_knot(s, here, 0.0, ag.max_speed, dwell, h_out, false);
                    self.stops.push(k as u32);
                    k
                } else if sin == 0.0 {
                    // Straight on: one knot, no limit (what the three below merge into).
                    self.push_knot(s, here, v * v, v, 0.0, h_out, false)
                } else {
                    let (d, cap, cos_half) = rule.rounding((cos, sin), (l_in, l_out));
                    let cap2 = cap * cap;
                    let (u_in, u_out) = (h_in.dir, h_out.dir);
                    self.push_knot(s - d, here - u_in * d, cap2, cap, 0.0, h_in, true);
                    let mid = Heading::halfway(&h_in, &h_out, cos_half, ag.steering);
                    let k = self.push_knot(s, here, cap2, cap, 0.0, mid, true);
                    let end = here + u_out * d;
                    self.push_knot(s + d, end, cap2, ag.max_speed, 0.0, h_out, false);
                    k
                };
                (h_in, l_in) = (h_out, l_out);
                k
            };
            self.point_knot.push(knot as u32);
        }
        if n == 1 {
            self.stops.push(0);
        }
    }

    /// The yaw the agent starts with: that of the first segment that is not vertical (+x if
    /// every segment is).
    fn first_yaw(&self) -> DVec2 {
        self.points
            .windows(2)
            .find(|w| !is_vertical(w[1] - w[0], self.extent))
            .map_or(DVec2::X, |w| (w[1] - w[0]).truncate().normalize())
    }

    /// Appends a knot, merging it into the previous one when it does not lie beyond it.
    /// `limit2` is the squared speed limit at the knot itself; `heading` the departure
    /// heading and `turns` whether it turns on the way to the next knot.
    #[allow(clippy::too_many_arguments)]
    fn push_knot(
        &mut self,
        s: f64,
        pos: DVec3,
        limit2: f64,
        cap_after: f64,
        dwell: f64,
        heading: Heading,
        turns: bool,
    ) -> usize {
        if let (Some(last), Some(info)) = (self.knots.last_mut(), self.info.last_mut())
            && s <= last.s
        {
            last.v = last.v.min(limit2);
            last.cap_after = cap_after;
            info.dwell += dwell;
            info.heading = heading;
            info.turns = turns;
            return self.knots.len() - 1;
        }
        self.knots.push(Knot {
            s,
            v: limit2,
            cap_after,
        });
        self.info.push(KnotInfo {
            t: 0.0,
            dwell,
            pos,
            heading,
            turns,
        });
        self.knots.len() - 1
    }

    /// Forward (acceleration) and backward (braking) passes over arc length:
    /// v² ≤ v_prev² + 2·a·Δs and v² ≤ v_next² + 2·b·Δs, under each knot's own limit and the
    /// caps of the intervals on either side. Leaves speeds (not squares) in `v`.
    fn limit_speeds(&mut self) {
        let (a, b) = (self.agent.max_accel, self.agent.max_brake);
        let last = self.knots.len() - 1;
        self.knots[0].v = 0.0;
        self.knots[last].v = 0.0;
        if last == 0 {
            return;
        }
        // Only the add and the last `min_of` are on each pass's loop-carried chain.
        let (mut prev_v2, mut prev_s, mut prev_cap) = (0.0, 0.0, self.knots[0].cap_after);
        for knot in &mut self.knots[1..last] {
            let cap = min_of(prev_cap, knot.cap_after);
            let limit = min_of(knot.v, cap * cap);
            let v2 = min_of(limit, prev_v2 + 2.0 * a * (knot.s - prev_s));
            knot.v = v2;
            (prev_v2, prev_s, prev_cap) = (v2, knot.s, knot.cap_after);
        }
        // The backward pass carries v² and leaves v.
        let (mut next_v2, mut next_s) = (0.0, self.knots[last].s);
        for knot in self.knots[..last].iter_mut().rev() {
            let v2 = min_of(knot.v, next_v2 + 2.0 * b * (next_s - knot.s));
            knot.v = v2.sqrt();
            (next_v2, next_s) = (v2, knot.s);
        }
    }

    fn phases(&self, k: usize) -> Phases {
        let (here, next) = (&self.knots[k], &self.knots[k + 1]);
        Phases::new(next.s - here.s, here.v, next.v, here.cap_after, &self.rates)
    }

    fn assign_times(&mut self) {
        let mut t = 0.0;
        for k in 0..self.knots.len() {
            self.info[k].t = t;
            if k + 1 < self.knots.len() {
                t += self.info[k].dwell + self.phases(k).duration();
            }
        }
    }

    /// The agent the profile was computed for.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let walker = Agent { max_speed: 1.4, ..Agent::default() };
    /// let p = speed_profile(&[DVec2::ZERO, DVec2::X], &walker)?;
    /// assert_eq!(p.agent().max_speed, 1.4);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// Time from start (at rest) to goal (at rest), including rotations in place, s.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// // A reversal: brake to rest, turn 180° in place (1 s at 180°/s), come back.
    /// let path = [DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::ZERO];
    /// let p = speed_profile(&path, &Agent::default())?;
    /// let leg = 9.6f64.sqrt() * (1.0 / 4.0 + 1.0 / 6.0); // the 2 m triangle
    /// assert!((p.total_time() - (2.0 * leg + 1.0)).abs() < 1e-12);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn total_time(&self) -> f64 {
        self.info.last().map_or(0.0, |k| k.t)
    }

    /// Length of the polyline.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let p = speed_profile(&[DVec2::ZERO, DVec2::new(3.0, 4.0)], &Agent::default())?;
    /// assert_eq!(p.length(), 5.0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn length(&self) -> f64 {
        self.knots.last().map_or(0.0, |k| k.s)
    }

    /// Number of input vertices (duplicates included).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let p = speed_profile(&[DVec2::ZERO, DVec2::ZERO, DVec2::X], &Agent::default())?;
    /// assert_eq!(p.vertex_count(), 3);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn vertex_count(&self) -> usize {
        self.vertex_point.len()
    }

    /// Timing of input vertex `i` (copies of a duplicated point share it), or `None` when
    /// out of range.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let agent = Agent { stop_angle: 1.0, ..Agent::default() };
    /// let path = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0)];
    /// let corner = speed_profile(&path, &agent)?.vertex(1).unwrap();
    /// assert_eq!((corner.s, corner.speed), (4.0, 0.0)); // a 90° stop-and-rotate corner
    /// assert!((corner.dwell - 0.5).abs() < 1e-12); // 90° at 180°/s
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn vertex(&self, i: usize) -> Option<VertexTiming> {
        let point = *self.vertex_point.get(i)? as usize;
        let k = self.point_knot[point] as usize;
        let (knot, info) = (&self.knots[k], &self.info[k]);
        Some(VertexTiming {
            s: knot.s,
            speed: knot.v,
            t: info.t,
            dwell: info.dwell,
        })
    }

    /// Timings of all input vertices, in order.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let path = [DVec2::ZERO, DVec2::new(5.0, 0.0), DVec2::new(10.0, 1.0)];
    /// let p = speed_profile(&path, &Agent::default())?;
    /// let times: Vec<f64> = p.vertices().map(|v| v.t).collect();
    /// assert!(times[0] == 0.0 && times[0] < times[1] && times[1] < times[2]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn vertices(&self) -> impl ExactSizeIterator<Item = VertexTiming> + '_ {
        (0..self.vertex_count()).map(|i| self.vertex(i).expect("index in range"))
    }

    /// The interval (index of its first knot) containing arc length `s`.
    fn interval_at_s(&self, s: f64) -> usize {
        let k = self.knots.partition_point(|k| k.s <= s);
        k.saturating_sub(1).min(self.knots.len().saturating_sub(2))
    }

    /// Planned speed at arc length `s` (clamped to [0, length]; NaN reads as 0).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let p = speed_profile(&[DVec2::ZERO, DVec2::new(100.0, 0.0)], &Agent::default())?;
    /// assert_eq!(p.speed_at(50.0), 5.0);
    /// assert!((p.speed_at(1.0) - 8f64.sqrt()).abs() < 1e-12); // v² = 2·a·s
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn speed_at(&self, s: f64) -> f64 {
        if self.knots.len() < 2 {
            return 0.0;
        }
        let s = if s.is_nan() {
            0.0
        } else {
            s.clamp(0.0, self.length())
        };
        let k = self.interval_at_s(s);
        self.phases(k).speed_at(s - self.knots[k].s)
    }

    /// The point at arc length `s` (3D) along the polyline (clamped; NaN reads as 0), with
    /// z = 0 for a 2D path. O(log n).
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let path = [DVec2::ZERO, DVec2::X, DVec2::ONE];
    /// let p = speed_profile(&path, &Agent::default())?;
    /// assert!(p.position_at(1.5).truncate().distance(DVec2::new(1.0, 0.5)) < 1e-12);
    /// let climb = [DVec3::ZERO, DVec3::new(3.0, 0.0, 4.0)];
    /// let p = speed_profile(&climb, &Agent::default())?;
    /// assert!(p.position_at(2.5).distance(DVec3::new(1.5, 0.0, 2.0)) < 1e-12);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn position_at(&self, s: f64) -> DVec3 {
        match self.knots.len() {
            0 => DVec3::ZERO,
            1 => self.info[0].pos,
            _ => {
                let s = if s.is_nan() {
                    0.0
                } else {
                    s.clamp(0.0, self.length())
                };
                let k = self.interval_at_s(s);
                self.lerp_interval(k, s)
            }
        }
    }

    fn lerp_interval(&self, k: usize, s: f64) -> DVec3 {
        let (a, b) = (&self.knots[k], &self.knots[k + 1]);
        let frac = ((s - a.s) / (b.s - a.s)).clamp(0.0, 1.0);
        self.info[k].pos.lerp(self.info[k + 1].pos, frac)
    }

    /// The agent's state at time `t` (clamped to [0, total time]; NaN reads as 0).
    ///
    /// Between knots the speed follows exact constant-acceleration kinematics; at a
    /// stop-and-rotate corner the agent stands still while its direction turns at the turn
    /// rate. The direction follows each rounding arc's tangent, turning by an angle linear
    /// in arc length (in 3D, or in yaw with [`Steering::Ground`]). O(log n).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let p = speed_profile(&[DVec2::ZERO, DVec2::new(0.0, 20.0)], &Agent::default())?;
    /// let s = p.sample(1.0); // still accelerating at 4 m/s²
    /// assert!((s.speed - 4.0).abs() < 1e-12 && (s.position.y - 2.0).abs() < 1e-12);
    /// assert!((s.heading - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn sample(&self, t: f64) -> Sample {
        let Some(last) = self.info.last() else {
            return Sample {
                t: 0.0,
                position: DVec3::ZERO,
                direction: DVec3::X,
                heading: 0.0,
                speed: 0.0,
            };
        };
        let t = if t.is_nan() {
            0.0
        } else {
            t.clamp(0.0, last.t)
        };
        let k = self.info.partition_point(|k| k.t <= t).saturating_sub(1);
        let knot = &self.info[k];
        let tau = t - knot.t;
        let steering = self.agent.steering;
        if k + 1 == self.knots.len() || tau < knot.dwell {
            let turned = if knot.dwell > 0.0 {
                tau / knot.dwell
            } else {
                1.0
            };
            let h = Heading::between(&self.arrival(k), &knot.heading, turned, steering);
            return Sample {
                t,
                position: knot.pos,
                direction: h.dir,
                heading: h.angle(),
                speed: self.knots[k].v,
            };
        }
        let next = &self.info[k + 1];
        let (x, speed) = self.phases(k).at_time(tau - knot.dwell);
        let frac = (x / (self.knots[k + 1].s - self.knots[k].s)).clamp(0.0, 1.0);
        let h = if knot.turns {
            Heading::between(&knot.heading, &next.heading, frac, steering)
        } else {
            knot.heading
        };
        Sample {
            t,
            position: knot.pos.lerp(next.pos, frac),
            direction: h.dir,
            heading: h.angle(),
            speed,
        }
    }

    /// The heading on arrival at knot `k` (see [`KnotInfo::heading`]).
    fn arrival(&self, k: usize) -> Heading {
        match k.checked_sub(1).map(|j| &self.info[j]) {
            Some(prev) if !prev.turns => prev.heading,
            _ => self.info[k].heading,
        }
    }

    /// Samples at `rate` per second from t = 0, plus one at the total time if the grid
    /// does not land on it (allocating form of [`samples_into`](Self::samples_into)).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let p = speed_profile(&[DVec2::ZERO, DVec2::new(3.0, 4.0)], &Agent::default())?;
    /// let s = p.samples(60.0)?;
    /// assert_eq!(s.first().unwrap().speed, 0.0);
    /// assert_eq!(s.last().unwrap().position_2d(), DVec2::new(3.0, 4.0));
    /// assert!(p.samples(0.0).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn samples(&self, rate: f64) -> Result<Vec<Sample>> {
        let mut out = Vec::new();
        self.samples_into(rate, &mut out)?;
        Ok(out)
    }

    /// Writes the samples of [`samples`](Self::samples) into `out` (cleared first).
    /// Errors: [`Error::BadParameter`] for a rate that is not positive and finite,
    /// [`Error::OutputTooLarge`] beyond [`MAX_SAMPLES`].
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{speed_profile, Agent};
    /// let p = speed_profile(&[DVec2::ZERO, DVec2::new(4.0, 0.0)], &Agent::default())?;
    /// let mut frames = Vec::new();
    /// p.samples_into(10.0, &mut frames)?; // reuse `frames` frame after frame
    /// assert_eq!(frames.len(), (p.total_time() * 10.0).floor() as usize + 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn samples_into(&self, rate: f64, out: &mut Vec<Sample>) -> Result<()> {
        out.clear();
        Error::check_positive(
            "rate",
            rate,
            "a positive finite number of samples per second",
        )?;
        let total = self.total_time();
        let steps = (total * rate).floor();
        if steps.is_nan() || steps >= MAX_SAMPLES as f64 {
            return Err(Error::OutputTooLarge {
                requested: (steps as u128).saturating_add(2),
                cap: MAX_SAMPLES,
            });
        }
        let steps = steps as usize;
        out.reserve(steps + 2);
        for j in 0..=steps {
            out.push(self.sample(j as f64 / rate));
        }
        if out.last().is_some_and(|s| s.t < total) {
            out.push(self.sample(total));
        }
        Ok(())
    }

    // ---- for the follower -------------------------------------------------------------

    /// Number of knots.
    pub(super) fn knot_count(&self) -> usize {
        self.knots.len()
    }

    /// Arc length and position of knot `k`.
    pub(super) fn knot(&self, k: usize) -> (f64, DVec3) {
        (self.knots[k].s, self.info[k].pos)
    }

    /// Departure heading at the start.
    pub(super) fn start_heading(&self) -> Heading {
        self.info.first().map_or(Heading::FORWARD, |k| k.heading)
    }

    /// Knot indices where the agent must be at rest, in order; the last is the goal.
    pub(super) fn stops(&self) -> &[u32] {
        &self.stops
    }
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn duplicates_do_not_change_the_profile() {
        let ag = Agent::default();
        let a = [DVec2::ZERO, DVec2::X * 3.0, DVec2::new(3.0, 2.0)];
        let b = [a[0], a[0], a[1], a[1], a[1], a[2], a[2]];
        let (pa, pb) = (
            speed_profile(&a, &ag).unwrap(),
            speed_profile(&b, &ag).unwrap(),
        );
        assert_eq!(pa.total_time(), pb.total_time());
        assert_eq!(pb.vertex(3), pa.vertex(1));
        assert_eq!(pb.vertex_count(), 7);
        assert!(pb
            .vertices()
            .all(|v| v.t.is_finite() && v.speed.is_finite()));
    }

    #[test]
    fn single_point_and_all_duplicates_take_zero_time() {
        for path in [vec![DVec2::ONE], vec![DVec2::ONE; 5]] {
            let p = speed_profile(&path, &Agent::default()).unwrap();
            assert_eq!(p.total_time(), 0.0);
            assert_eq!(p.length(), 0.0);
            let s = p.sample(3.0);
            assert_eq!((s.position_2d(), s.speed, s.t), (DVec2::ONE, 0.0, 0.0));
            assert_eq!(p.samples(10.0).unwrap().len(), 1);
            assert_eq!(p.speed_at(0.0), 0.0);
            assert_eq!(p.position_at(1.0), DVec3::new(1.0, 1.0, 0.0));
        }
    }

    #[test]
    fn reversal_always_stops() {
        let ag = Agent {
            stop_angle: PI,
            ..Agent::default()
        };
        let p = speed_profile(&[DVec2::ZERO, DVec2::X * 5.0, DVec2::X * 2.0], &ag).unwrap();
        let v = p.vertex(1).unwrap();
        assert_eq!(v.speed, 0.0);
        assert!(close(v.dwell, 1.0, 1e-12));
    }

    #[test]
    fn rounded_grid_corner_follows_the_documented_rule() {
        // 90° corner between 1 m segments, default agent: half-segment fit gives r = 0.5
        // (the 0.25 m cut allows 0.25/(√2−1) ≈ 0.60), cap = min(√(4·0.5), π·0.5) = √2.
        let ag = Agent::default();
        let path = [DVec2::ZERO, DVec2::X, DVec2::ONE];
        let p = speed_profile(&path, &ag).unwrap();
        let v = p.vertex(1).unwrap();
        assert!(close(v.speed, 2f64.sqrt(), 1e-12), "{v:?}");
        assert_eq!(v.dwell, 0.0);
        // Heading at the vertex is halfway round the arc.
        let mid = p.sample(v.t);
        assert!(close(mid.heading, PI / 4.0, 1e-9), "{mid:?}");
    }

    #[test]
    fn out_of_range_queries_are_clamped() {
        let p = speed_profile(&[DVec2::ZERO, DVec2::X * 10.0], &Agent::default()).unwrap();
        assert_eq!(p.sample(-1.0).position, DVec3::ZERO);
        assert_eq!(p.sample(f64::NAN).position, DVec3::ZERO);
        assert_eq!(p.sample(1e9).position, DVec3::X * 10.0);
        assert_eq!(p.speed_at(f64::NAN), 0.0);
        assert_eq!(p.vertex(2), None);
    }
}
