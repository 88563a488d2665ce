//! The motion limits of an agent: what the speed profile and the follower respect.

use std::f64::consts::PI;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The motion limits of an agent that follows a path (SI units: metres, seconds, radians).
///
/// The defaults ([`Agent::default`]) fit a running game character on a grid of 1 m cells:
///
/// | field | default | effect |
/// | --- | --- | --- |
/// | `max_speed` | 5 m/s | cruise speed on straight stretches |
/// | `max_accel` | 4 m/s² | reaches full speed in 1.25 s over 3.125 m |
/// | `max_brake` | 6 m/s² | stops from full speed in 0.83 s over 2.08 m |
/// | `max_lateral_accel` | 4 m/s² | a curve of radius R is taken at ≤ √(4·R) m/s |
/// | `max_turn_rate` | π rad/s (180°/s) | a curve of radius R is taken at ≤ π·R m/s; in-place rotation speed |
/// | `stop_angle` | 2π/3 (120°) | sharper vertex turns stop the agent, which rotates in place |
/// | `max_corner_cut` | 0.25 m | how far the agent may leave a polyline vertex when rounding it |
/// | `steering` | [`Steering::Full3d`] | turns are angles between 3D directions |
///
/// With these defaults the 45° and 90° turns of a grid path are rounded (slowly), and only
/// hairpins such as the 135° turns around an obstacle's corner stop the agent.
///
/// Lengths are always measured in 3D (a 2D path has z = 0). For a vehicle or character on
/// terrain, whose heading matters only in the ground plane, set `steering` to
/// [`Steering::Ground`].
///
/// ```
/// use pathsmooth::follow::Agent;
/// let walker = Agent { max_speed: 1.5, ..Agent::default() };
/// assert!(walker.validate().is_ok());
/// let bad = Agent { max_brake: 0.0, ..Agent::default() };
/// assert!(bad.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(default))]
pub struct Agent {
    /// Top speed, m/s.
    pub max_speed: f64,
    /// Largest forward acceleration, m/s².
    pub max_accel: f64,
    /// Largest braking deceleration (a positive number), m/s².
    pub max_brake: f64,
    /// Largest sideways (centripetal) acceleration in a curve, m/s²: v ≤ √(a_lat / κ).
    pub max_lateral_accel: f64,
    /// Largest rate of change of heading, rad/s: v ≤ ω / κ in a curve, and the speed at
    /// which the agent rotates in place. At most [`Agent::MAX_TURN_RATE`] (10π rad/s,
    /// 1800°/s): a larger value is taken for degrees per second and refused.
    pub max_turn_rate: f64,
    /// Vertex turn angle, in radians in (0, π], above which the agent halts at the vertex
    /// and rotates in place (a full reversal always stops the agent). A turn is at most π,
    /// so a larger value is taken for degrees and refused.
    pub stop_angle: f64,
    /// Largest distance, m, between a polyline vertex and the arc on which the agent rounds
    /// it. Smaller values mean tighter arcs and so slower corners.
    pub max_corner_cut: f64,
    /// In which space turns are measured: between 3D directions ([`Steering::Full3d`], the
    /// default) or between headings in the ground (x–y) plane ([`Steering::Ground`]). The
    /// same for 2D paths.
    pub steering: Steering,
}

/// How an [`Agent`] steers: in which space its turns, turn rate and stop-and-rotate rule are
/// measured. Lengths, speeds and accelerations are 3D in both.
///
/// For a 2D path (or a 3D path in a horizontal plane) both give the same result.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::follow::{speed_profile, Agent, Steering};
/// // Up a 10 m ramp at 45°, then along the crest: a 45° turn in 3D, none on the ground.
/// let path = [DVec3::ZERO, DVec3::new(10.0, 0.0, 10.0), DVec3::new(20.0, 0.0, 10.0)];
/// let flier = speed_profile(&path, &Agent::default())?;
/// let car = Agent { steering: Steering::Ground, ..Agent::default() };
/// let rover = speed_profile(&path, &car)?;
/// assert_eq!(flier.length(), rover.length()); // 10·√2 + 10 m either way
/// assert!(flier.vertex(1).unwrap().speed < car.max_speed); // slows for the bend
/// assert_eq!(rover.vertex(1).unwrap().speed, car.max_speed); // straight on the map
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum Steering {
    /// The agent turns freely in 3D (a drone, a swimmer, a camera): a vertex's turn angle is
    /// the angle between the 3D directions of its two segments, the heading that the turn
    /// rate limits is the 3D direction of motion, and the lateral acceleration is the
    /// centripetal acceleration along the 3D path. The default.
    #[default]
    Full3d,
    /// The agent turns in the ground plane (a vehicle or a character on terrain): a
    /// vertex's turn angle is the angle between the x–y projections of its two segments
    /// (a segment with no horizontal extent keeps the previous segment's heading), and the
    /// turn rate, the lateral acceleration and the stop-and-rotate rule apply to that yaw.
    /// Changes of slope cost nothing, but a full reversal in 3D still stops the agent.
    Ground,
}

impl Default for Agent {
    fn default() -> Self {
        Agent {
            max_speed: 5.0,
            max_accel: 4.0,
            max_brake: 6.0,
            max_lateral_accel: 4.0,
            max_turn_rate: PI,
            stop_angle: 2.0 * PI / 3.0,
            max_corner_cut: 0.25,
            steering: Steering::Full3d,
        }
    }
}

/// The range every positive limit of an [`Agent`] must lie in.
const LIMIT_RANGE: (f64, f64) = (1e-100, 1e100);

impl Agent {
    /// The largest [`max_turn_rate`](Agent::max_turn_rate) accepted: 10π rad/s, five full
    /// turns a second (1800°/s).
    ///
    /// Chosen above the turn rates of real agents (a running person turns at most about
    /// two full turns a second; the fastest yaw rates of acrobatic and racing quadcopters
    /// are about 1000–1600°/s, 17–28 rad/s) so that no legitimate limit is refused, and
    /// below the whole-degree rates people write by mistake (45, 90, 180, 360, 720 °/s read
    /// as rad/s), which [`validate`](Agent::validate) refuses with the conversion. A smaller
    /// bound such as 4π (720°/s) would refuse real drones. Degree rates of 31°/s and less
    /// cannot be told from radians.
    ///
    /// The turn rate can no longer be switched off with a huge value; this one is the
    /// loosest, and binds in a curve of radius R only above 10π·R world units per second.
    pub const MAX_TURN_RATE: f64 = 10.0 * PI;

    /// Checks every limit: each must lie in [10⁻¹⁰⁰, 10¹⁰⁰] (positive, and far enough from
    /// 0 and infinity that the profile's squares and reciprocals stay finite),
    /// `max_turn_rate` must be at most [`Agent::MAX_TURN_RATE`] and `stop_angle` must lie
    /// in (0, π]. Returns [`Error::BadParameter`] naming the first bad field, or
    /// [`Error::BadAngle`] for an angle or turn rate that can only be degrees, with the
    /// conversion.
    ///
    /// ```
    /// use pathsmooth::{follow::Agent, Error};
    /// let a = Agent { max_turn_rate: f64::NAN, ..Agent::default() };
    /// assert!(matches!(a.validate(), Err(Error::BadParameter { name: "max_turn_rate", .. })));
    /// let degrees = Agent { stop_angle: 120.0, ..Agent::default() };
    /// let e = degrees.validate().unwrap_err();
    /// assert!(matches!(e, Error::BadAngle { name: "stop_angle", .. }));
    /// assert!(e.to_string().contains("did you mean 120° = 2.0944 rad?"), "{e}");
    /// ```
    pub fn validate(&self) -> Result<()> {
        let positive = [
            ("max_speed", self.max_speed),
            ("max_accel", self.max_accel),
            ("max_brake", self.max_brake),
            ("max_lateral_accel", self.max_lateral_accel),
            ("max_turn_rate", self.max_turn_rate),
            ("max_corner_cut", self.max_corner_cut),
        ];
        // Squares, products and reciprocals of the limits must stay finite and non-zero:
        // a subnormal acceleration made 1/(2a) infinite and the profile's phases NaN.
        for (name, value) in positive {
            if !(LIMIT_RANGE.0..=LIMIT_RANGE.1).contains(&value) {
                return Err(Error::param(name, value, "a number in [1e-100, 1e100]"));
            }
        }
        Error::check_angle(
            "max_turn_rate",
            self.max_turn_rate,
            Self::MAX_TURN_RATE,
            "rad/s",
            "a turn rate in (0, 10π] rad/s (see Agent::MAX_TURN_RATE)",
        )?;
        Error::check_angle(
            "stop_angle",
            self.stop_angle,
            PI,
            "rad",
            "an angle in (0, π] radians",
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_checked() {
        type Field = fn(&mut Agent) -> &mut f64;
        let fields: [(&str, Field); 7] = [
            ("max_speed", |a| &mut a.max_speed),
            ("max_accel", |a| &mut a.max_accel),
            ("max_brake", |a| &mut a.max_brake),
            ("max_lateral_accel", |a| &mut a.max_lateral_accel),
            ("max_turn_rate", |a| &mut a.max_turn_rate),
            ("stop_angle", |a| &mut a.stop_angle),
            ("max_corner_cut", |a| &mut a.max_corner_cut),
        ];
        for (name, field) in fields {
            let extremes: &[f64] = match name {
                "stop_angle" => &[],
                "max_turn_rate" => &[1e-312],
                _ => &[1e-312, 1e101],
            };
            for &bad in [0.0, -1.0, f64::NAN].iter().chain(extremes) {
                let mut a = Agent::default();
                *field(&mut a) = bad;
                match a.validate() {
                    Err(Error::BadParameter { name: n, .. }) => assert_eq!(n, name),
                    other => panic!("{name} = {bad}: {other:?}"),
                }
            }
            // Too large: an angle or turn rate is taken for degrees.
            let mut a = Agent::default();
            *field(&mut a) = f64::INFINITY;
            match (name, a.validate()) {
                ("stop_angle" | "max_turn_rate", Err(Error::BadAngle { name: n, .. })) => {
                    assert_eq!(n, name)
                }
                (_, Err(Error::BadParameter { name: n, .. })) => assert_eq!(n, name),
                (_, other) => panic!("{name} = inf: {other:?}"),
            }
        }
        let a = Agent {
            stop_angle: PI,
            ..Agent::default()
        };
        assert!(a.validate().is_ok());
        let a = Agent {
            stop_angle: 3.2,
            ..Agent::default()
        };
        assert!(a.validate().is_err());
    }

    #[test]
    fn degrees_passed_as_radians_are_refused_with_the_conversion() {
        let rate = |r: f64| {
            Agent {
                max_turn_rate: r,
                ..Agent::default()
            }
            .validate()
        };
        let e = rate(180.0).unwrap_err();
        assert!(matches!(
            e,
            Error::BadAngle {
                name: "max_turn_rate",
                ..
            }
        ));
        assert_eq!(
            e.to_string(),
            "parameter `max_turn_rate` = 180 rad/s is out of range: a turn rate in (0, 10π] \
             rad/s (see Agent::MAX_TURN_RATE); angles are in radians (did you mean 180°/s = \
             3.1416 rad/s?)"
        );
        for deg in [45.0, 90.0, 360.0, 720.0] {
            assert!(matches!(rate(deg), Err(Error::BadAngle { .. })), "{deg}");
        }
        // Fast but real: a racing drone's 1600°/s, and the bound itself.
        assert!(rate(1600f64.to_radians()).is_ok());
        assert!(rate(Agent::MAX_TURN_RATE).is_ok());
        let stop = |s: f64| {
            Agent {
                stop_angle: s,
                ..Agent::default()
            }
            .validate()
        };
        let e = stop(90.0).unwrap_err().to_string();
        assert!(
            e.contains("= 90 rad") && e.contains("did you mean 90° = 1.5708 rad?"),
            "{e}"
        );
    }
}
