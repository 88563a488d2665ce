//! Moving obstacles: discs with a velocity that a crowd's avoiding agents keep clear of
//! ("garbage trucks", as the source articles put it), and that stand in the world as an
//! obstacle while they stop.

use glam::DVec2;

use crate::error::{Error, Result};
use crate::world::ObstacleId;

/// How far from the origin (each coordinate, world units) a moving obstacle's centre and
/// velocity may be: far beyond any world, and far from where `centre + velocity × dt`
/// could overflow.
pub const MAX_MOVING: f64 = 1e12;

/// A moving obstacle's handle, from [`Crowd::add_moving_obstacle`](super::Crowd::add_moving_obstacle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MovingId(u64);

impl MovingId {
    /// The handle's number (unique for the crowd's lifetime).
    pub fn get(self) -> u64 {
        self.0
    }

    /// The handle with number `n` ([`get`](Self::get)'s inverse), for callers that pass
    /// handles as numbers (the bindings). A number the crowd never gave out, or gave out
    /// for an obstacle removed since, is refused by the crowd's methods.
    pub fn from_raw(n: u64) -> Self {
        MovingId(n)
    }
}

/// A disc moving at a constant velocity until told otherwise: a vehicle, a rolling
/// boulder, a door swinging through a hall. A longer shape is several discs moving
/// together. The game drives it (it is not planned and goes through walls if told to);
/// the crowd moves it by `velocity × dt` every update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MovingObstacle {
    /// Where its centre is, world units.
    pub center: DVec2,
    /// Its radius, world units (> 0).
    pub radius: f64,
    /// Its velocity, world units per second; zero while it stands.
    pub velocity: DVec2,
}

/// A moving obstacle in a crowd's list.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    pub(crate) id: MovingId,
    pub(crate) obstacle: MovingObstacle,
    /// While it stands: the world's obstacle that stands for it.
    pub(crate) standing: Option<ObstacleId>,
    /// The height of the floor it drives on (NaN: in plan view, met on every floor).
    pub(crate) floor: f64,
    /// The way it drives along, while it does.
    pub(crate) route: Option<Route>,
}

/// A way a moving obstacle drives along at a speed (see
/// [`Crowd::drive_moving_obstacle`](super::Crowd::drive_moving_obstacle)).
#[derive(Debug, Clone)]
pub(crate) struct Route {
    points: Vec<DVec2>,
    speed: f64,
    /// The index of the point it drives to.
    next: usize,
    /// After the last point, on to the first again.
    looped: bool,
}

impl Route {
    /// Checks the points (at least one, each finite and within [`MAX_MOVING`]) and the
    /// speed (finite, > 0).
    pub(crate) fn new(points: &[DVec2], speed: f64, looped: bool) -> Result<Self> {
        if points.is_empty() {
            return Err(Error::BadObstacle {
                reason: "a moving obstacle's route needs at least one point".into(),
            });
        }
        if let Some(p) = points.iter().find(|&&p| !within_moving(p)) {
            return Err(Error::BadObstacle {
                reason: format!(
                    "a moving obstacle's route point must be finite and within 1e12, not {p}"
                ),
            });
        }
        if !(speed.is_finite() && speed > 0.0 && speed <= MAX_MOVING) {
            return Err(Error::BadObstacle {
                reason: format!("a moving obstacle's speed must be finite and > 0, not {speed}"),
            });
        }
        Ok(Route {
            points: points.to_vec(),
            speed,
            next: 0,
            looped,
        })
    }

    /// Drives `o` `dt` seconds along the route (through as many points as that passes, at
    /// most a lap), its velocity then towards the next point at the route's speed; `true`
    /// when it reached the end of a route that does not loop (it then stands still,
    /// velocity 0).
    fn drive(&mut self, o: &mut MovingObstacle, dt: f64) -> bool {
        let mut left = self.speed * dt;
        for _ in 0..=self.points.len() {
            let to = self.points[self.next];
            let d = o.center.distance(to);
            if d > left {
                o.center += (to - o.center) * (left / d);
                o.velocity = (to - o.center).normalize_or_zero() * self.speed;
                return false;
            }
            o.center = to;
            left -= d;
            if self.next + 1 == self.points.len() && !self.looped {
                o.velocity = DVec2::ZERO;
                return true;
            }
            self.next = (self.next + 1) % self.points.len();
        }
        // A lap shorter than the step (or points all at one place): it heads on next time.
        o.velocity = (self.points[self.next] - o.center).normalize_or_zero() * self.speed;
        false
    }

    /// The velocity it sets off with from `at`: towards its first point at its speed.
    pub(crate) fn start_velocity(&self, at: DVec2) -> DVec2 {
        (self.points[0] - at).normalize_or_zero() * self.speed
    }
}

/// A crowd's moving obstacles, in the order they were added.
#[derive(Debug, Clone, Default)]
pub(crate) struct MovingObstacles {
    next: u64,
    pub(crate) list: Vec<Listed>,
    /// Those whose route ended at the last [`advance`](Self::advance).
    pub(crate) ended: Vec<MovingId>,
}

impl MovingObstacles {
    /// Checks `o` (finite centre and velocity, a finite radius > 0) and lists it under a
    /// new handle, on the floor at height `floor` (NaN: every floor).
    pub(crate) fn add(&mut self, o: MovingObstacle, floor: f64) -> Result<MovingId> {
        check(&o)?;
        let id = MovingId(self.next);
        self.next += 1;
        self.list.push(Listed {
            id,
            obstacle: o,
            standing: None,
            floor,
            route: None,
        });
        Ok(id)
    }

    /// The index of `id` in the list.
    pub(crate) fn index(&self, id: MovingId) -> Result<usize> {
        self.list
            .iter()
            .position(|m| m.id == id)
            .ok_or_else(|| Error::BadObstacle {
                reason: format!(
                    "no moving obstacle {} (never added, or removed already)",
                    id.0
                ),
            })
    }

    /// Moves every obstacle that moves over `dt`: along its route, or by its velocity
    /// (its centre kept within [`MAX_MOVING`]). Into `ended`, the obstacles whose route
    /// ended (they stand still now, their route dropped).
    pub(crate) fn advance(&mut self, dt: f64) {
        let ended = &mut self.ended;
        ended.clear();
        for m in &mut self.list {
            let o = &mut m.obstacle;
            match &mut m.route {
                Some(route) => {
                    if route.drive(o, dt) {
                        m.route = None;
                        ended.push(m.id);
                    }
                }
                None => {
                    o.center = (o.center + o.velocity * dt)
                        .clamp(DVec2::splat(-MAX_MOVING), DVec2::splat(MAX_MOVING));
                }
            }
        }
    }
}

/// True when `v` is finite and each coordinate within [`MAX_MOVING`].
fn within_moving(v: DVec2) -> bool {
    v.is_finite() && v.abs().max_element() <= MAX_MOVING
}

/// A velocity within [`MAX_MOVING`], as [`MovingObstacle::velocity`] must be.
pub(crate) fn check_velocity(v: DVec2) -> Result<()> {
    if within_moving(v) {
        Ok(())
    } else {
        Err(Error::BadObstacle {
            reason: format!("a moving obstacle's velocity must be finite and within 1e12, not {v}"),
        })
    }
}

fn check(o: &MovingObstacle) -> Result<()> {
    if !within_moving(o.center) {
        return Err(Error::BadObstacle {
            reason: format!(
                "a moving obstacle's centre must be finite and within 1e12, not {}",
                o.center
            ),
        });
    }
    if !(o.radius.is_finite() && o.radius > 0.0) {
        return Err(Error::BadObstacle {
            reason: format!(
                "a moving obstacle's radius must be finite and > 0, not {}",
                o.radius
            ),
        });
    }
    check_velocity(o.velocity)
}
