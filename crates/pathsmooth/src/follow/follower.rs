//! Playback: a stateful follower that a game loop advances by `dt` each frame.

use glam::{DVec2, DVec3};

use super::agent::{Agent, Steering};
use super::heading::{rotate, turn_toward, Heading, VERTICAL_TOLERANCE};
use super::profile::SpeedProfile;
use crate::error::{Error, Result};
use crate::geometry::{angle_between, closest_on_segment, Point};

/// The follower's state after a step.
///
/// Positions and directions are 3D; for a 2D path z stays 0, and
/// [`position_2d`](Self::position_2d) and `heading` serve 2D code.
///
/// ```
/// use glam::{DVec2, DVec3};
/// use pathsmooth::follow::{Agent, Follower};
/// let mut f = Follower::new(Agent::default())?;
/// f.set_path(&[DVec2::ZERO, DVec2::new(0.0, 8.0)])?;
/// let st = f.step(0.25)?;
/// assert_eq!((st.time, st.speed, st.finished), (0.25, 1.0, false));
/// assert!((st.position.y - 0.25).abs() < 1e-12); // moved at the new speed for dt
/// assert_eq!((st.position.z, st.direction), (0.0, DVec3::Y));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowState {
    /// Position (not necessarily on the path: the agent cuts corners as it turns); z = 0
    /// for a 2D path.
    pub position: DVec3,
    /// Unit direction the agent faces and moves along.
    pub direction: DVec3,
    /// Heading in the ground plane (yaw), radians in [−π, π), counter-clockwise from +x:
    /// the angle of `direction`'s x–y part, kept while `direction` is vertical.
    pub heading: f64,
    /// Speed, m/s.
    pub speed: f64,
    /// Time since the path was set, s.
    pub time: f64,
    /// True once the agent stands on the goal.
    pub finished: bool,
}

impl FollowState {
    /// The position's x and y (z dropped), for 2D code. O(1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{Agent, Follower};
    /// let mut f = Follower::new(Agent::default())?;
    /// f.set_path(&[DVec2::new(1.0, 2.0), DVec2::new(1.0, 9.0)])?;
    /// assert_eq!(f.state().position_2d(), DVec2::new(1.0, 2.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn position_2d(&self) -> DVec2 {
        self.position.truncate()
    }
}

/// Advances an agent along a path frame by frame, as a game loop would.
///
/// Each [`step`](Self::step) of `dt` seconds:
///
/// 1. updates the *progress* s: the arc length of the closest path point, searched forward
///    from the previous progress within the look-ahead window, never backwards;
/// 2. picks the *look-ahead point* `lookahead` metres further along the path, but never past
///    the next *stop* (a stop-and-rotate corner of the profile, or the goal);
/// 3. sets the target speed: the profile's speed just ahead of the progress (or of the
///    point as far from the stop along the path as the agent is in a straight line, if
///    that is further back, for an agent that has drifted off the path), no more than
///    √(2·max_brake·d) at distance d from the next stop, scaled by cos(heading error) so the
///    agent slows while it turns, and 0 when the error exceeds `stop_angle` (it brakes and
///    then rotates in place). It is also capped, like a profile corner, at min(ω·ρ,
///    √(a_lat·ρ)) for the radius ρ of the arc that turns the agent onto the look-ahead point,
///    so it never orbits a close target. The speed moves toward the target by at most
///    `max_accel·dt` up or `max_brake·dt` down;
/// 4. turns the heading toward the look-ahead point by at most `max_turn_rate·dt`, and at
///    most `max_lateral_accel/speed·dt` so the lateral acceleration stays in bounds (the
///    delayed turn);
/// 5. moves along the heading, never overshooting a stop it is heading for. Within
///    `arrival_radius` of the stop the agent is placed on it at rest; at the goal it is
///    finished.
///
/// Distances are 3D. With [`Steering::Full3d`] (the default) the heading is the 3D
/// direction, the heading error is the angle between it and the direction to the
/// look-ahead point, and the agent turns on the great circle between them. With
/// [`Steering::Ground`] the heading is the yaw, the error and the turn are measured in the
/// ground plane (ρ from the horizontal distance to the look-ahead point), and the agent
/// moves along its yaw at the slope toward the look-ahead point. For a 2D path both are
/// the planar follower.
///
/// So the agent reproduces the profile's behaviour: it rounds gentle corners with a lag,
/// halts at the profile's stop-and-rotate corners and turns in place there. A step costs
/// O(1) plus the number of path segments within the look-ahead window (one `atan2` and one
/// `sin_cos` at most), and allocates nothing; [`set_path`](Self::set_path) reuses the
/// buffers of the previous path.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::follow::{Agent, Follower};
/// let mut f = Follower::new(Agent::default())?;
/// f.set_path(&[DVec2::ZERO, DVec2::new(10.0, 0.0), DVec2::new(10.0, 10.0)])?;
/// let mut frames = 0;
/// while !f.step(1.0 / 60.0)?.finished {
///     frames += 1;
///     assert!(frames < 60 * 60, "a 20 m path takes seconds, not minutes");
/// }
/// assert_eq!(f.state().position_2d(), DVec2::new(10.0, 10.0));
///
/// // A helicopter's take-off: straight up, then forward.
/// use glam::DVec3;
/// f.set_path(&[DVec3::ZERO, DVec3::new(0.0, 0.0, 15.0), DVec3::new(20.0, 0.0, 15.0)])?;
/// while !f.step(1.0 / 60.0)?.finished {}
/// assert_eq!(f.state().position, DVec3::new(20.0, 0.0, 15.0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Follower {
    profile: SpeedProfile,
    lookahead: f64,
    arrival_radius: f64,
    state: FollowState,
    /// The heading behind `state.direction` and `state.heading`.
    facing: Heading,
    /// Progress: arc length of the path point the agent is at.
    s: f64,
    /// Knot interval containing the progress.
    cursor: usize,
    /// Index into the profile's stops of the next stop.
    next_stop: usize,
}

impl Follower {
    /// Default look-ahead distance, m (one cell of a 1 m grid).
    pub const DEFAULT_LOOKAHEAD: f64 = 1.0;
    /// Default arrival radius, m.
    pub const DEFAULT_ARRIVAL_RADIUS: f64 = 0.05;

    /// A follower for `agent`, with no path yet (it reports `finished`).
    /// Errors: [`Error::BadParameter`] for a bad agent.
    ///
    /// ```
    /// use pathsmooth::follow::{Agent, Follower};
    /// assert!(Follower::new(Agent::default())?.state().finished);
    /// assert!(Follower::new(Agent { max_speed: -1.0, ..Agent::default() }).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn new(agent: Agent) -> Result<Self> {
        agent.validate()?;
        let mut profile = SpeedProfile::new();
        // A one-point path: valid, empty of motion.
        profile.compute(&[DVec2::ZERO], &agent)?;
        Ok(Follower {
            profile,
            lookahead: Self::DEFAULT_LOOKAHEAD,
            arrival_radius: Self::DEFAULT_ARRIVAL_RADIUS,
            state: FollowState {
                position: DVec3::ZERO,
                direction: DVec3::X,
                heading: 0.0,
                speed: 0.0,
                time: 0.0,
                finished: true,
            },
            facing: Heading::FORWARD,
            s: 0.0,
            cursor: 0,
            next_stop: 0,
        })
    }

    /// Sets the look-ahead distance, m (positive, finite). Longer looks smoother and cuts
    /// corners more.
    ///
    /// ```
    /// use pathsmooth::follow::{Agent, Follower};
    /// let f = Follower::new(Agent::default())?.with_lookahead(2.0)?;
    /// assert_eq!(f.lookahead(), 2.0);
    /// assert!(Follower::new(Agent::default())?.with_lookahead(0.0).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn with_lookahead(mut self, metres: f64) -> Result<Self> {
        self.lookahead = Error::check_positive("lookahead", metres, "a positive finite distance")?;
        Ok(self)
    }

    /// Sets the arrival radius, m (positive, finite): within it of a stop the agent is put
    /// on the stop at rest.
    ///
    /// ```
    /// use pathsmooth::follow::{Agent, Follower};
    /// let f = Follower::new(Agent::default())?.with_arrival_radius(0.01)?;
    /// assert_eq!(f.arrival_radius(), 0.01);
    /// assert!(Follower::new(Agent::default())?.with_arrival_radius(f64::NAN).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn with_arrival_radius(mut self, metres: f64) -> Result<Self> {
        self.arrival_radius =
            Error::check_positive("arrival_radius", metres, "a positive finite distance")?;
        Ok(self)
    }

    /// The look-ahead distance, m.
    ///
    /// ```
    /// use pathsmooth::follow::{Agent, Follower};
    /// assert_eq!(Follower::new(Agent::default())?.lookahead(), Follower::DEFAULT_LOOKAHEAD);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn lookahead(&self) -> f64 {
        self.lookahead
    }

    /// The arrival radius, m.
    ///
    /// ```
    /// use pathsmooth::follow::{Agent, Follower};
    /// let f = Follower::new(Agent::default())?;
    /// assert_eq!(f.arrival_radius(), Follower::DEFAULT_ARRIVAL_RADIUS);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn arrival_radius(&self) -> f64 {
        self.arrival_radius
    }

    /// Starts following `path`: computes its [`SpeedProfile`] (reusing buffers) and puts the
    /// agent at rest on the first point, facing along the first segment, at time 0.
    /// A path of one distinct point is finished at once. Errors as
    /// [`SpeedProfile::compute`]; on error the follower has no path (finished).
    ///
    /// ```
    /// use glam::Vec2;
    /// use pathsmooth::follow::{Agent, Follower};
    /// let mut f = Follower::new(Agent::default())?;
    /// f.set_path(&[Vec2::new(2.0, 2.0), Vec2::new(2.0, 5.0)])?;
    /// assert!(!f.state().finished);
    /// assert!((f.state().heading - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn set_path<P: Point>(&mut self, path: &[P]) -> Result<()> {
        let agent = *self.profile.agent();
        if let Err(e) = self.profile.compute(path, &agent) {
            self.profile.compute(&[DVec2::ZERO], &agent)?;
            self.reset();
            return Err(e);
        }
        self.reset();
        Ok(())
    }

    fn reset(&mut self) {
        let (_, start) = self.profile.knot(0);
        self.facing = self.profile.start_heading();
        self.state = FollowState {
            position: start,
            direction: self.facing.dir,
            heading: self.facing.angle(),
            speed: 0.0,
            time: 0.0,
            finished: self.profile.knot_count() < 2,
        };
        self.s = 0.0;
        self.cursor = 0;
        self.next_stop = 0;
    }

    /// The current state.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{Agent, Follower};
    /// let mut f = Follower::new(Agent::default())?;
    /// f.set_path(&[DVec2::ONE, DVec2::new(5.0, 1.0)])?;
    /// assert_eq!((f.state().position_2d(), f.state().speed), (DVec2::ONE, 0.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn state(&self) -> FollowState {
        self.state
    }

    /// Progress along the path: the arc length of the path point the agent has reached.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{Agent, Follower};
    /// let mut f = Follower::new(Agent::default())?;
    /// f.set_path(&[DVec2::ZERO, DVec2::new(50.0, 0.0)])?;
    /// for _ in 0..60 {
    ///     f.step(1.0 / 60.0)?;
    /// }
    /// assert!(f.progress() > 1.0 && f.progress() < 2.0); // ~½·4·1² m after a second
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn progress(&self) -> f64 {
        self.s
    }

    /// The speed profile of the current path.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{Agent, Follower};
    /// let mut f = Follower::new(Agent::default())?;
    /// f.set_path(&[DVec2::ZERO, DVec2::new(30.0, 0.0)])?;
    /// assert!(f.profile().total_time() > 6.0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn profile(&self) -> &SpeedProfile {
        &self.profile
    }

    /// Advances the agent by `dt` seconds (see the type's documentation) and returns its new
    /// state; once finished, the state no longer changes. Allocates nothing.
    /// Errors: [`Error::BadParameter`] when `dt` is not a positive finite number.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::follow::{Agent, Follower};
    /// let mut f = Follower::new(Agent::default())?;
    /// f.set_path(&[DVec2::ZERO, DVec2::new(10.0, 0.0)])?;
    /// let s = f.step(0.5)?;
    /// assert_eq!(s.speed, 2.0); // 4 m/s² for 0.5 s
    /// assert!(f.step(0.0).is_err() && f.step(f64::NAN).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn step(&mut self, dt: f64) -> Result<FollowState> {
        Error::check_positive("dt", dt, "a positive finite number of seconds")?;
        if self.state.finished {
            return Ok(self.state);
        }
        let ag = *self.profile.agent();
        let stop_knot = self.profile.stops()[self.next_stop] as usize;
        let (stop_s, stop_pos) = self.profile.knot(stop_knot);
        let st = self.state;

        self.update_progress(stop_knot, st.speed * dt);
        let look_s = (self.s + self.lookahead).min(stop_s);
        let aims_at_stop = look_s >= stop_s;
        let target = self.point_ahead(look_s);

        let to_target = target - st.position;
        let ground = ag.steering == Steering::Ground;
        // The turn still to make toward the target: signed, in the ground plane (none when
        // the target is plumb above or below), or unsigned, in 3D.
        let plumb = ground && self.plumb(to_target);
        let reach = to_target.length();
        let error = if plumb || reach <= 1e-12 {
            0.0
        } else if ground {
            let (yaw, flat) = (self.facing.yaw, to_target.truncate());
            yaw.perp_dot(flat).atan2(yaw.dot(flat))
        } else {
            angle_between(st.direction, to_target).unwrap_or(0.0)
        };

        let to_stop = stop_pos.distance(st.position);
        // The profile's speed a step ahead (so the zero speed of a stop just left does not
        // hold the agent there). When the agent has drifted off the path the straight-line
        // distance to the stop can exceed the distance left along the path: read the profile
        // that much further back. Within a step of the stop, braking toward it decides.
        let ahead = (st.speed * dt).max(ag.max_accel * dt * dt);
        let probe = self.s.min(stop_s - to_stop) + ahead;
        let from_profile = if probe < stop_s {
            self.profile.speed_at(probe)
        } else {
            ag.max_speed
        };
        let mut v_target = from_profile.min((2.0 * ag.max_brake * to_stop).sqrt());
        v_target = if error.abs() > ag.stop_angle {
            0.0
        } else {
            v_target * error.cos().max(0.0)
        };
        // The arc tangent to the heading through the look-ahead point has radius
        // ρ = D / (2·sin|error|). Slow enough to turn onto it (v ≤ ω·ρ and v ≤ √(a_lat·ρ),
        // the corner caps of the profile), or the agent would orbit a close target. In the
        // ground plane the arc's radius is D_h / (2·sin|error|) for the horizontal distance
        // D_h, run at the horizontal speed v·D_h/D: with the 3D distance D in ρ the turn-rate
        // bound is the same and the lateral one errs on the safe side.
        let sin_error = error.abs().sin();
        if sin_error > 0.0 {
            let rho = reach / (2.0 * sin_error);
            v_target = v_target
                .min(ag.max_turn_rate * rho)
                .min((ag.max_lateral_accel * rho).sqrt());
        }
        let speed = if v_target > st.speed {
            v_target.min(st.speed + ag.max_accel * dt)
        } else {
            v_target.max(st.speed - ag.max_brake * dt)
        };

        // Turning at rate ω at speed v takes a lateral acceleration v·ω.
        let turn_rate = if speed > 0.0 {
            ag.max_turn_rate.min(ag.max_lateral_accel / speed)
        } else {
            ag.max_turn_rate
        };
        let max_turn = turn_rate * dt;
        self.facing = self.turn(to_target, error, max_turn, ground, plumb);
        let mut travel = speed * dt;
        if aims_at_stop {
            travel = travel.min(to_stop);
        }
        let position = st.position + self.facing.dir * travel;
        self.state = FollowState {
            position,
            direction: self.facing.dir,
            heading: self.facing.angle(),
            speed,
            time: st.time + dt,
            finished: false,
        };
        if aims_at_stop && position.distance(stop_pos) <= self.arrival_radius {
            self.arrive(stop_knot, stop_s, stop_pos);
        }
        Ok(self.state)
    }

    /// The heading after turning by at most `max_turn` toward `to_target`, `error` being
    /// the turn still to make (as computed in `step`).
    fn turn(
        &self,
        to_target: DVec3,
        error: f64,
        max_turn: f64,
        ground: bool,
        plumb: bool,
    ) -> Heading {
        let facing = self.facing;
        if ground {
            // Turn the yaw; move at the slope toward the target (straight up or down when it
            // is plumb above or below; keep the slope when on it).
            let flat = to_target.truncate();
            let yaw = if error == 0.0 {
                facing.yaw
            } else if error.abs() <= max_turn {
                flat.normalize()
            } else {
                let turn = DVec2::from_angle(error.clamp(-max_turn, max_turn));
                turn.rotate(facing.yaw).normalize()
            };
            let climb = if plumb && to_target.z.abs() > 1e-12 {
                DVec2::new(0.0, to_target.z.signum())
            } else if plumb || to_target.length() <= 1e-12 {
                facing.climb() // on the target: no slope to take
            } else {
                DVec2::new(flat.length(), to_target.z).normalize()
            };
            Heading::from_yaw_climb(yaw, climb)
        } else if error == 0.0 {
            facing
        } else if error <= max_turn {
            Heading::from_dir(to_target.normalize(), facing.yaw)
        } else {
            let (_, w) = turn_toward(facing.dir, to_target, facing.side());
            Heading::from_dir(rotate(facing.dir, w, max_turn), facing.yaw)
        }
    }

    /// True when the look-ahead point, `to_target` away, is plumb above or below the agent:
    /// within [`VERTICAL_TOLERANCE`] times the look-ahead distance horizontally, or within
    /// rounding of the coordinates' magnitude. The agent then climbs or descends straight
    /// and keeps its yaw, as on a vertical leg of the profile.
    fn plumb(&self, to_target: DVec3) -> bool {
        let scale = self.state.position.abs().max_element().max(1.0);
        to_target.truncate().length() <= VERTICAL_TOLERANCE * self.lookahead + 1e-12 * scale
    }

    /// Puts the agent at rest on the stop it has reached and moves on to the next.
    fn arrive(&mut self, stop_knot: usize, stop_s: f64, stop_pos: DVec3) {
        self.state.position = stop_pos;
        self.state.speed = 0.0;
        self.s = stop_s;
        self.cursor = stop_knot.min(self.profile.knot_count() - 2);
        if self.next_stop + 1 == self.profile.stops().len() {
            self.state.finished = true;
        } else {
            self.next_stop += 1;
        }
    }

    /// Moves the progress to the closest path point among the segments from the current one
    /// up to the look-ahead window (and not beyond the next stop).
    fn update_progress(&mut self, stop_knot: usize, travel: f64) {
        let pos = self.state.position;
        let window_end = self.s + self.lookahead + travel;
        let mut best = (f64::INFINITY, self.s, self.cursor);
        let mut k = self.cursor;
        while k < stop_knot {
            let (s0, p0) = self.profile.knot(k);
            if s0 > window_end {
                break;
            }
            let (s1, p1) = self.profile.knot(k + 1);
            let (q, t) = closest_on_segment(pos, p0, p1);
            let d = q.distance_squared(pos);
            if d < best.0 {
                best = (d, s0 + (s1 - s0) * t, k);
            }
            k += 1;
        }
        if best.1 > self.s {
            self.s = best.1;
            self.cursor = best.2;
        }
    }

    /// The path point at arc length `s` ≥ the progress, walking forward from the cursor.
    fn point_ahead(&self, s: f64) -> DVec3 {
        let last = self.profile.knot_count() - 1;
        let mut k = self.cursor;
        while k + 1 < last && self.profile.knot(k + 1).0 < s {
            k += 1;
        }
        let (s0, p0) = self.profile.knot(k);
        let (s1, p1) = self.profile.knot(k + 1);
        let frac = if s1 > s0 {
            ((s - s0) / (s1 - s0)).clamp(0.0, 1.0)
        } else {
            1.0
        };
        p0.lerp(p1, frac)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: &mut Follower, dt: f64, max_steps: usize) -> usize {
        for n in 1..=max_steps {
            if f.step(dt).unwrap().finished {
                return n;
            }
        }
        panic!("not finished after {max_steps} steps: {:?}", f.state());
    }

    #[test]
    fn straight_run_matches_the_profile_time() {
        // Snapping onto the goal from the arrival radius r saves the last √(2r/b) seconds
        // of braking; with r = 1 mm that is 0.018 s.
        let mut f = Follower::new(Agent::default())
            .unwrap()
            .with_arrival_radius(1e-3)
            .unwrap();
        f.set_path(&[DVec2::ZERO, DVec2::new(30.0, 0.0)]).unwrap();
        let dt = 1.0 / 120.0;
        let steps = run(&mut f, dt, 100_000);
        let planned = f.profile().total_time();
        let took = steps as f64 * dt;
        let saved = (2.0 * 1e-3 / 6.0f64).sqrt();
        assert!(took >= planned - saved - 2.0 * dt, "{took} vs {planned}");
        assert!(took < planned * 1.05 + 0.1, "{took} vs {planned}");
        assert_eq!(f.state().position_2d(), DVec2::new(30.0, 0.0));
    }

    #[test]
    fn stops_and_rotates_at_a_hairpin() {
        let mut f = Follower::new(Agent::default()).unwrap();
        let path = [DVec2::ZERO, DVec2::new(5.0, 0.0), DVec2::new(0.0, 1.0)];
        f.set_path(&path).unwrap();
        let dt = 1.0 / 60.0;
        let mut was_at_corner_at_rest = false;
        for _ in 0..10_000 {
            let st = f.step(dt).unwrap();
            if st.position_2d() == path[1] && st.speed == 0.0 {
                was_at_corner_at_rest = true;
            }
            if st.finished {
                break;
            }
        }
        assert!(was_at_corner_at_rest);
        assert!(f.state().finished);
    }

    #[test]
    fn finished_and_empty_followers_stay_put() {
        let mut f = Follower::new(Agent::default()).unwrap();
        f.set_path(&[DVec2::ONE, DVec2::ONE]).unwrap();
        assert!(f.state().finished);
        assert_eq!(f.step(0.1).unwrap().position_2d(), DVec2::ONE);
        assert!(f.set_path::<DVec2>(&[]).is_err());
        assert!(f.state().finished);
    }
}
