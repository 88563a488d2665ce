//! The up axis: which 3D axis is height, and the plan view the other two make.

use std::fmt;
use std::str::FromStr;

use glam::{DVec2, DVec3};

use crate::error::excerpt;

/// Which world axis points up. The other two make the plan view, in which floors may
/// overlap.
///
/// - [`UpAxis::Y`]: plan view (x, z), height y — Recast/Detour, Unity, Godot, glTF;
/// - [`UpAxis::Z`]: plan view (x, y), height z — Unreal and most robotics.
///
/// Either way the plan-view point is `(first plan axis, second plan axis)` = `(x, z)` or
/// `(x, y)`, the same 2D point [`GroundPlane::Xz`](crate::navmesh::GroundPlane::Xz) and
/// [`GroundPlane::Xy`](crate::navmesh::GroundPlane::Xy) give, so a flat
/// surface and the 2D [`NavMesh`](crate::navmesh::NavMesh) of the same polygons agree.
/// Parses from and prints as `"y"` / `"z"`.
///
/// ```
/// use glam::{DVec2, DVec3};
/// use pathsmooth::navmesh::UpAxis;
/// let p = DVec3::new(1.0, 2.0, 3.0);
/// assert_eq!(UpAxis::Y.split(p), (DVec2::new(1.0, 3.0), 2.0));
/// assert_eq!(UpAxis::Z.split(p), (DVec2::new(1.0, 2.0), 3.0));
/// assert_eq!(UpAxis::Y.join(DVec2::new(1.0, 3.0), 2.0), p);
/// assert_eq!("z".parse::<UpAxis>(), Ok(UpAxis::Z));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UpAxis {
    /// y is up; the plan view is (x, z).
    #[default]
    Y,
    /// z is up; the plan view is (x, y).
    Z,
}

impl UpAxis {
    /// The plan-view point and the height of a world point. O(1), exact (a swizzle).
    pub fn split(self, p: DVec3) -> (DVec2, f64) {
        match self {
            UpAxis::Y => (DVec2::new(p.x, p.z), p.y),
            UpAxis::Z => (DVec2::new(p.x, p.y), p.z),
        }
    }

    /// The world point at plan-view point `plan` and height `h` (the inverse of
    /// [`split`](Self::split)). O(1), exact.
    pub fn join(self, plan: DVec2, h: f64) -> DVec3 {
        match self {
            UpAxis::Y => DVec3::new(plan.x, h, plan.y),
            UpAxis::Z => DVec3::new(plan.x, plan.y, h),
        }
    }

    /// The plan-view point of a world point.
    pub fn plan(self, p: DVec3) -> DVec2 {
        self.split(p).0
    }

    /// The height of a world point.
    pub fn height(self, p: DVec3) -> f64 {
        self.split(p).1
    }

    /// The world point as (plan x, plan y, height): the frame the surface computes in.
    /// A permutation of the axes, so lengths and dot products are unchanged.
    pub(crate) fn world_to_frame(self, p: DVec3) -> DVec3 {
        let (q, h) = self.split(p);
        q.extend(h)
    }

    /// The inverse of [`world_to_frame`](Self::world_to_frame).
    pub(crate) fn frame_to_world(self, f: DVec3) -> DVec3 {
        self.join(f.truncate(), f.z)
    }
}

impl FromStr for UpAxis {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "y" | "Y" => Ok(UpAxis::Y),
            "z" | "Z" => Ok(UpAxis::Z),
            _ => Err(format!(
                "unknown up axis `{}`: expected y (Recast, Unity, Godot) or z (Unreal, robotics)",
                excerpt(s)
            )),
        }
    }
}

impl fmt::Display for UpAxis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UpAxis::Y => "y",
            UpAxis::Z => "z",
        })
    }
}
