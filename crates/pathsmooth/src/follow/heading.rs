//! Headings: a direction of motion (a unit 3D direction with its yaw in the ground plane)
//! and how one turns into another, for the speed profile and the follower. Cost: O(1)
//! per call, at most one `atan2` and one `sin_cos`.

use std::f64::consts::{PI, TAU};

use glam::{DVec2, DVec3};

use super::agent::Steering;

/// A unit direction whose x–y part is at most this long (about 1e-9 rad from vertical) is
/// vertical: it has no yaw of its own, and keeps the one the agent had.
pub(super) const VERTICAL_TOLERANCE: f64 = 1e-9;

/// Turns within this of π are reversals and always stop the agent (no arc fits them).
pub(super) const REVERSAL_TOLERANCE: f64 = 1e-9;

/// A direction of motion: the unit 3D direction and the unit heading in the ground plane
/// (yaw). Where `dir` has an x–y part, `yaw` is that part normalised; where `dir` is
/// vertical (to within [`VERTICAL_TOLERANCE`]), `yaw` is the heading the agent keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Heading {
    pub(super) dir: DVec3,
    pub(super) yaw: DVec2,
}

impl Heading {
    /// Facing +x.
    pub(super) const FORWARD: Heading = Heading {
        dir: DVec3::X,
        yaw: DVec2::X,
    };

    /// The direction with ground heading `yaw` and slope `climb` = (cos, sin) of the
    /// elevation angle (both unit).
    pub(super) fn from_yaw_climb(yaw: DVec2, climb: DVec2) -> Heading {
        Heading {
            dir: (yaw * climb.x).extend(climb.y),
            yaw,
        }
    }

    /// The direction `dir` (unit), with `yaw` kept when it is vertical.
    pub(super) fn from_dir(dir: DVec3, yaw: DVec2) -> Heading {
        let flat = dir.truncate();
        let len = flat.length();
        if len <= VERTICAL_TOLERANCE {
            Heading { dir, yaw }
        } else {
            Heading {
                dir,
                yaw: flat / len,
            }
        }
    }

    /// (cos, sin) of the elevation angle: the horizontal and vertical parts of `dir`.
    pub(super) fn climb(&self) -> DVec2 {
        DVec2::new(self.dir.truncate().length(), self.dir.z)
    }

    /// The yaw as an angle in [−π, π).
    pub(super) fn angle(&self) -> f64 {
        wrap_angle(self.yaw.to_angle())
    }

    /// The way to turn when the target direction is exactly opposite: counter-clockwise in
    /// the ground plane, or, when facing straight up or down, tilting toward the yaw.
    /// Perpendicular to `dir`.
    pub(super) fn side(&self) -> DVec3 {
        let flat = self.dir.truncate();
        if flat.length() <= VERTICAL_TOLERANCE {
            self.yaw.extend(0.0)
        } else {
            (flat.perp() / flat.length()).extend(0.0)
        }
    }

    /// Halfway from `a` to `b`, given cos(θ/2) > 0 of the turn θ < π between them (as
    /// [`turn`] measures it): the bisector, with no trigonometry and, for 2D headings, no
    /// square root. Equal to `between(a, b, 0.5, steering)`.
    pub(super) fn halfway(a: &Heading, b: &Heading, cos_half: f64, steering: Steering) -> Heading {
        // |â + b̂| = 2·cos(θ/2).
        let scale = 0.5 / cos_half;
        match steering {
            Steering::Full3d => {
                let dir = (a.dir + b.dir) * scale;
                if a.dir.z == 0.0 && b.dir.z == 0.0 {
                    Heading {
                        dir,
                        yaw: dir.truncate(),
                    }
                } else {
                    Heading::from_dir(dir, a.yaw)
                }
            }
            Steering::Ground => {
                let yaw = (a.yaw + b.yaw) * scale;
                let (ca, cb) = (a.climb(), b.climb());
                let climb = if ca == cb {
                    ca
                } else {
                    (ca + cb).normalize_or(cb)
                };
                Heading::from_yaw_climb(yaw, climb)
            }
        }
    }

    /// The heading a fraction `frac` ∈ [0, 1] of the way from `a` to `b`, turning at a
    /// constant rate: on the great circle between the two directions ([`Steering::Full3d`]),
    /// or with yaw and elevation each turning at its own constant rate
    /// ([`Steering::Ground`]). A full reversal turns toward [`side`](Self::side).
    pub(super) fn between(a: &Heading, b: &Heading, frac: f64, steering: Steering) -> Heading {
        if frac <= 0.0 || a == b {
            return *a;
        }
        if frac >= 1.0 {
            return *b;
        }
        match steering {
            Steering::Full3d => {
                let (angle, w) = turn_toward(a.dir, b.dir, a.side());
                let dir = rotate(a.dir, w, angle * frac);
                Heading::from_dir(dir, if frac < 0.5 { a.yaw } else { b.yaw })
            }
            Steering::Ground => {
                let flat = |v: DVec2| v.extend(0.0);
                let (turn, w) = turn_toward(flat(a.yaw), flat(b.yaw), flat(a.yaw.perp()));
                let yaw = rotate(flat(a.yaw), w, turn * frac).truncate();
                let (ca, cb) = (a.climb(), b.climb());
                // Elevations lie in [−π/2, π/2]: turn through the horizontal, never back.
                let (tilt, w) = turn_toward(flat(ca), flat(cb), DVec3::X);
                let climb = rotate(flat(ca), w, tilt * frac).truncate();
                Heading::from_yaw_climb(yaw, climb)
            }
        }
    }
}

/// The angle θ ∈ [0, π] from the unit vector `a` to `b` (any non-zero length), and the unit
/// vector perpendicular to `a` in their plane on `b`'s side (`side`, a unit vector
/// perpendicular to `a`, when they are parallel or opposite).
pub(super) fn turn_toward(a: DVec3, b: DVec3, side: DVec3) -> (f64, DVec3) {
    let along = a.dot(b);
    let w = b - a * along;
    let off = w.length();
    if off > 0.0 {
        (off.atan2(along), w / off)
    } else {
        (if along < 0.0 { PI } else { 0.0 }, side)
    }
}

/// The unit vector `a` turned by `angle` toward `w` (unit, perpendicular to `a`).
pub(super) fn rotate(a: DVec3, w: DVec3, angle: f64) -> DVec3 {
    let (sin, cos) = angle.sin_cos();
    (a * cos + w * sin).normalize_or(a)
}

/// True when the 3D directions of `a` and `b` are opposite (to within
/// [`REVERSAL_TOLERANCE`]).
pub(super) fn reverses(a: &Heading, b: &Heading) -> bool {
    a.dir.dot(b.dir) < 0.0 && a.dir.cross(b.dir).length() <= REVERSAL_TOLERANCE
}

/// (cos, sin) of the turn from heading `a` to heading `b`, sin ≥ 0: between the 3D
/// directions, or between the yaws with [`Steering::Ground`].
pub(super) fn turn(a: &Heading, b: &Heading, steering: Steering) -> (f64, f64) {
    match steering {
        Steering::Full3d => (a.dir.dot(b.dir), a.dir.cross(b.dir).length()),
        Steering::Ground => (a.yaw.dot(b.yaw), a.yaw.perp_dot(b.yaw).abs()),
    }
}

/// Wraps an angle to [−π, π).
fn wrap_angle(h: f64) -> f64 {
    h - TAU * ((h + PI) / TAU).floor()
}
