//! The speed profile along an exact curve (lines, arcs, clothoids): the speed cap comes from
//! the curve's own curvature, not from an estimate at polyline corners.

use glam::DVec2;

use super::agent::Agent;
use super::phases::{Phases, Rates};
use crate::curve::exact::{ExactCurve, Piece};
use crate::error::Result;
use crate::geometry::angle_between;

/// Pieces of a clothoid with their own speed cap (the cap of each is set by the largest
/// curvature on it, so the profile stays admissible).
const CLOTHOID_STEPS: usize = 16;

/// Tangent jumps up to this (radians) at a joint are rounding, not a corner.
const JOINT_TOLERANCE: f64 = 1e-6;

/// The fastest admissible time parameterisation of an [`ExactCurve`] for an [`Agent`],
/// starting and ending at rest: the model of [`speed_profile`](super::speed_profile) with
/// the curvature taken from the curve.
///
/// - On a piece of curvature κ the speed is capped at min(v, √(a_lat/κ), ω/κ): for an arc
///   of radius R, v ≤ √(a_lat·R) and v ≤ ω·R. A clothoid is cut into 16 stretches, each
///   capped by its largest curvature (curvature is linear along it, so this is exact at
///   the stretch ends and safe between).
/// - At a joint where the tangent jumps (a corner fillet smoothing kept sharp, reported as
///   a corner below ρ) the agent stops and rotates in place for θ/ω seconds, as at a
///   stop-and-rotate vertex of the polyline profile. A corner that got a radius below ρ is
///   an arc with a lower cap: the agent slows there.
/// - Between knots, accelerate / cruise / brake with the agent's rates, v² linear in arc
///   length in each phase (exact kinematics).
///
/// Cost: O(pieces) (16 knots per clothoid), one forward and one backward pass.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::follow::{Agent, CurveProfile};
/// use pathsmooth::{fillet_geometry, FilletParams};
/// let path = [DVec2::ZERO, DVec2::new(20.0, 0.0), DVec2::new(20.0, 20.0)];
/// let curve = fillet_geometry(&path, &FilletParams::new(2.0))?.curve;
/// let agent = Agent { max_lateral_accel: 2.0, ..Agent::default() };
/// let profile = CurveProfile::new(&curve, &agent)?;
/// // On the arc of radius 2: v ≤ √(a_lat·R) = 2 (if the turn rate allows it).
/// let on_arc = profile.speed_at(18.0 + std::f64::consts::PI / 2.0);
/// assert!(on_arc <= 2.0 + 1e-12);
/// assert_eq!(profile.stops(), 0);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CurveProfile {
    /// Arc length of each knot.
    s: Vec<f64>,
    /// Speed at each knot.
    v: Vec<f64>,
    /// Rotation time at each knot (stops only).
    dwell: Vec<f64>,
    /// Speed cap on each interval (knot k to k + 1).
    cap: Vec<f64>,
    /// Time at each knot (on arrival).
    t: Vec<f64>,
    phases: Vec<PhaseRun>,
    stops: usize,
    total: f64,
}

/// Phases plus nothing else; a newtype so the profile can derive `PartialEq`.
#[derive(Debug, Clone, Copy)]
struct PhaseRun(Phases);

impl PartialEq for PhaseRun {
    fn eq(&self, other: &Self) -> bool {
        self.0.duration() == other.0.duration()
    }
}

impl CurveProfile {
    /// The profile of `curve` for `agent`.
    ///
    /// Errors: [`Error::BadParameter`](crate::Error::BadParameter) for an invalid agent.
    pub fn new(curve: &ExactCurve, agent: &Agent) -> Result<Self> {
        agent.validate()?;
        let cap_for = |kappa: f64| {
            let k = kappa.abs();
            if k == 0.0 {
                agent.max_speed
            } else {
                agent
                    .max_speed
                    .min((agent.max_lateral_accel / k).sqrt())
                    .min(agent.max_turn_rate / k)
            }
        };
        let mut p = CurveProfile {
            s: vec![0.0],
            v: vec![0.0],
            dwell: vec![0.0],
            cap: Vec::new(),
            t: Vec::new(),
            phases: Vec::new(),
            stops: 0,
            total: 0.0,
        };
        let mut along = 0.0;
        let mut last_dir: Option<DVec2> = None;
        for piece in curve.pieces() {
            let len = piece.length();
            if len <= 0.0 {
                continue;
            }
            // A corner kept sharp: stop and rotate.
            if let Some(dir) = last_dir {
                let turn = angle_between(dir, piece.tangent_at(0.0)).unwrap_or(0.0);
                if turn > JOINT_TOLERANCE {
                    let k = p.s.len() - 1;
                    p.v[k] = 0.0;
                    p.dwell[k] = turn / agent.max_turn_rate;
                    p.stops += 1;
                }
            }
            let steps = if matches!(piece, Piece::Clothoid { .. }) {
                CLOTHOID_STEPS
            } else {
                1
            };
            for j in 0..steps {
                let (a, b) = (
                    len * j as f64 / steps as f64,
                    len * (j + 1) as f64 / steps as f64,
                );
                let kappa = piece.curvature_at(a).abs().max(piece.curvature_at(b).abs());
                p.cap.push(cap_for(kappa));
                p.s.push(along + b);
                p.v.push(f64::INFINITY);
                p.dwell.push(0.0);
            }
            along += len;
            last_dir = Some(piece.tangent_at(len));
        }
        let n = p.s.len();
        p.v[n - 1] = 0.0;
        // Knot speeds: at most the caps on both sides, then reachable forwards and
        // backwards.
        for k in 1..n - 1 {
            p.v[k] = p.v[k].min(p.cap[k - 1]).min(p.cap[k]);
        }
        for k in 1..n {
            let ds = p.s[k] - p.s[k - 1];
            p.v[k] = p.v[k].min((p.v[k - 1].powi(2) + 2.0 * agent.max_accel * ds).sqrt());
        }
        for k in (0..n - 1).rev() {
            let ds = p.s[k + 1] - p.s[k];
            p.v[k] = p.v[k].min((p.v[k + 1].powi(2) + 2.0 * agent.max_brake * ds).sqrt());
        }
        let rates = Rates::new(agent.max_accel, agent.max_brake);
        let mut t = p.dwell[0];
        p.t.push(0.0);
        for k in 0..n - 1 {
            let ph = Phases::new(p.s[k + 1] - p.s[k], p.v[k], p.v[k + 1], p.cap[k], &rates);
            t += ph.duration();
            p.t.push(t);
            t += p.dwell[k + 1];
            p.phases.push(PhaseRun(ph));
        }
        p.total = t;
        Ok(p)
    }

    /// The time to run the whole curve, seconds (rotations in place included).
    pub fn total_time(&self) -> f64 {
        self.total
    }

    /// How many times the agent stops to rotate in place (at corners kept sharp).
    pub fn stops(&self) -> usize {
        self.stops
    }

    /// The speed at arc length `s` (clamped to the curve). O(log knots).
    pub fn speed_at(&self, s: f64) -> f64 {
        let n = self.s.len();
        if n < 2 {
            return 0.0;
        }
        let s = if s > 0.0 { s.min(self.s[n - 1]) } else { 0.0 };
        let k = self.s[1..n - 1].partition_point(|&a| a <= s);
        self.phases[k].0.speed_at(s - self.s[k])
    }

    /// The knots as `(arc length, arrival time, speed)`: the curve's start, every piece
    /// joint (and 16 per clothoid) and its end. O(knots).
    pub fn knots(&self) -> impl Iterator<Item = (f64, f64, f64)> + '_ {
        self.s
            .iter()
            .zip(&self.t)
            .zip(&self.v)
            .map(|((&s, &t), &v)| (s, t, v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fillet::{fillet_geometry, FilletParams};

    #[test]
    fn a_straight_line_is_the_trapezoid() {
        let curve = ExactCurve::from_polyline(&[DVec2::ZERO, DVec2::new(10.0, 0.0)]).unwrap();
        let agent = Agent::default();
        let p = CurveProfile::new(&curve, &agent).unwrap();
        let poly =
            super::super::speed_profile(&[DVec2::ZERO, DVec2::new(10.0, 0.0)], &agent).unwrap();
        assert!((p.total_time() - poly.total_time()).abs() < 1e-12);
    }

    #[test]
    fn arcs_cap_the_speed_at_root_a_lat_r() {
        let path = [DVec2::ZERO, DVec2::new(30.0, 0.0), DVec2::new(30.0, 30.0)];
        for r in [0.5, 2.0, 8.0] {
            let curve = fillet_geometry(&path, &FilletParams::new(r)).unwrap().curve;
            let agent = Agent {
                // As fast a turn rate as is accepted, so that only a_lat caps the speed.
                max_turn_rate: Agent::MAX_TURN_RATE,
                ..Agent::default()
            };
            let p = CurveProfile::new(&curve, &agent).unwrap();
            let cap = (agent.max_lateral_accel * r).sqrt().min(agent.max_speed);
            let mid = 30.0 - r + r * std::f64::consts::FRAC_PI_4;
            assert!(p.speed_at(mid) <= cap + 1e-12);
            // It is as fast as allowed at the arc's middle when the legs are long.
            assert!(
                (p.speed_at(mid) - cap).abs() < 1e-9,
                "{r}: {}",
                p.speed_at(mid)
            );
        }
    }

    #[test]
    fn a_corner_kept_sharp_stops_the_agent() {
        let back = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(1.0, 0.0)];
        let out = fillet_geometry(&back, &FilletParams::new(1.0)).unwrap();
        let agent = Agent::default();
        let p = CurveProfile::new(&out.curve, &agent).unwrap();
        assert_eq!(p.stops(), 1);
        assert_eq!(p.speed_at(4.0), 0.0);
        assert!(p.total_time() > std::f64::consts::PI / agent.max_turn_rate);
    }
}
