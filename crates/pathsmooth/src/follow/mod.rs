//! Following a path: curvature-aware speed profiles and frame-by-frame agent playback.
//!
//! A smooth path is only worth what it saves the agent that follows it. The pathfinding
//! article this library starts from ("Grandpa, tell us another story about pathfinding")
//! ends where users' trouble starts: a character following a
//! line turns "with some delay and speed decrease … like a car on mud, getting off-road a
//! bit", and "only on very sharp turns the character actually stops, takes a different
//! rotation animation, and turns". This module makes that model exact and measurable.
//!
//! # The speed profile ([`speed_profile`], [`SpeedProfile`])
//!
//! The fastest admissible time parameterisation of a 2D or 3D polyline for an [`Agent`]
//! (top speed v, acceleration a, braking b, lateral acceleration a_lat, turn rate ω, stop
//! angle, corner cut, steering). The agent starts and ends at rest, facing along the path.
//! Lengths, and so speeds and accelerations, are measured along the 3D polyline (a 2D path
//! has z = 0). The turn angle θ at a vertex is the angle between the 3D directions of its
//! two segments ([`Steering::Full3d`], the default: a drone, a swimmer, a camera), or, with
//! [`Steering::Ground`] (a vehicle or a character on terrain), the angle between their
//! projections on the ground (x–y) plane; a change of slope is then free, but a full 3D
//! reversal still stops the agent. Each vertex is one of:
//!
//! - **straight** (θ = 0): no limit;
//! - **a rounded corner** (0 < θ ≤ stop angle): the agent takes it on a circular arc
//!   tangent to both segments, at distance d = r·tan(θ/2) either side of the vertex. The
//!   radius r is the largest that uses at most half of each adjacent segment (so arcs of
//!   neighbouring vertices never overlap) and stays within `max_corner_cut` of the vertex,
//!   r·(1/cos(θ/2) − 1) ≤ cut (capped at the radius needed for top speed). Over the whole
//!   arc the speed is capped at min(v, √(a_lat·r), ω·r): the lateral-acceleration limit
//!   v ≤ √(a_lat/κ) and the turn-rate limit v ≤ ω/κ with curvature κ = 1/r. On a finely
//!   sampled curve of radius R the half-segment rule gives r → R (for a regular polygon,
//!   r = R·cos(θ/2)), so the estimate converges to the curve's true curvature (in 3D, e.g.
//!   a helix of radius R and pitch p has κ = R / (R² + (p/2π)²)); on a coarse
//!   polyline a sharp vertex is a *corner* whose radius comes from the segment lengths and
//!   the allowed cut, never an infinite-curvature point;
//! - **a stop-and-rotate corner** (θ > stop angle, and every reversal θ = π): the speed is
//!   0 at the vertex and the agent rotates in place for θ/ω seconds.
//!
//! Duplicate consecutive points (equal to within 1e-12 of the coordinates' magnitude) are
//! skipped; a path whose points all coincide takes zero time.
//!
//! The speed is then the largest function of arc length under these caps with
//! v² ≤ v_prev² + 2·a·Δs (forward pass) and v² ≤ v_next² + 2·b·Δs (backward pass). Between
//! knots (vertices and arc ends) it accelerates, cruises at the cap and brakes, with v²
//! linear in s in each phase, so times and samples follow exact constant-acceleration
//! kinematics. Positions lie on the polyline; the heading follows each arc's tangent
//! (turning by an angle linear in arc length across it), so it changes at most at rate ω,
//! and the lateral acceleration speed × turn rate stays ≤ a_lat. Headings are reported as a
//! unit 3D direction and as a yaw angle in the ground plane. In 3D the direction turns on
//! the great circle between the two directions at a constant rate (spherical linear
//! interpolation: Shoemake, "Animating rotation with quaternion curves", SIGGRAPH 1985);
//! with [`Steering::Ground`] the yaw is what turns at most at rate ω.
//!
//! On a straight path this is the classic trapezoid (or the triangle when the path is
//! too short to reach top speed); a 90° corner above the stop angle costs exactly braking
//! to zero, (π/2)/ω of rotation and re-accelerating.
//!
//! **Cost:** O(n) time and memory for n points: at most three knots per corner, a few
//! square roots and divisions per vertex and no trigonometry except one `atan2` per
//! stop-and-rotate corner; two linear passes and one timing pass. Queries by time or arc
//! length are O(log n). [`SpeedProfile::compute`] reuses the profile's buffers.
//!
//! # Exact curves ([`CurveProfile`])
//!
//! The same model on an [`ExactCurve`](crate::curve::exact::ExactCurve) (what fillet
//! smoothing returns): the speed cap on each arc is √(a_lat·R) (and ω·R) from its radius,
//! on clothoids from their curvature, and the corners fillet smoothing kept sharp are
//! stop-and-rotate corners.
//!
//! # Playback ([`Follower`])
//!
//! A stateful follower that a game loop advances by `dt` per frame: its heading lags
//! toward a look-ahead point at the turn rate (and within the lateral-acceleration limit),
//! its speed comes from the profile (scaled down while it turns, with its own braking
//! toward stops), it halts and rotates in place at the profile's stop-and-rotate corners,
//! and it reports position, heading, speed and whether it has reached the goal. On a 3D
//! path it steers its 3D direction, or its yaw with [`Steering::Ground`]. It cuts
//! corners a little and so arrives somewhat sooner than the profile's time, which is the
//! reference for comparing paths. Steps allocate nothing and look only at the path's knots
//! within the look-ahead distance ahead of the agent.
//!
//! # Example
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::follow::{speed_profile, Agent, Follower};
//!
//! let agent = Agent { stop_angle: 80f64.to_radians(), ..Agent::default() };
//! let path = [DVec2::ZERO, DVec2::new(10.0, 0.0), DVec2::new(10.0, 10.0)];
//!
//! // Two 10 m legs, each a trapezoid, plus a 90° turn in place at 180°/s.
//! let profile = speed_profile(&path, &agent)?;
//! let leg = 5.0 / 4.0 + 5.0 / 6.0 + (10.0 - 25.0 / 8.0 - 25.0 / 12.0) / 5.0;
//! assert!((profile.total_time() - (2.0 * leg + 0.5)).abs() < 1e-12);
//! let frames = profile.samples(30.0)?; // for an animation
//! assert!(frames.iter().all(|s| s.speed <= agent.max_speed));
//!
//! // The same path played back in a game loop.
//! let mut follower = Follower::new(agent)?;
//! follower.set_path(&path)?;
//! while !follower.step(1.0 / 60.0)?.finished {}
//! assert_eq!(follower.state().position_2d(), DVec2::new(10.0, 10.0));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

mod agent;
mod curve_profile;
mod follower;
mod heading;
mod phases;
mod profile;

pub use agent::{Agent, Steering};
pub use curve_profile::CurveProfile;
pub use follower::{FollowState, Follower};
pub use profile::{speed_profile, Sample, SpeedProfile, VertexTiming, MAX_SAMPLES};
pub(crate) use profile::{CornerRule, DUPLICATE_TOLERANCE};
