//! Portals: the edges a path crosses between consecutive triangles of a channel.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`Portal`].)

use glam::DVec2;

use crate::error::{Error, Result};
use crate::geometry::max_map_coordinate;
use crate::navmesh::mesh::{NavMesh, TriId};

/// Portals: the edges a path crosses between consecutive triangles of a channel.
///
/// A channel is a sequence of triangle ids of a [`NavMesh`], as
/// [`NavMesh::find_channel`] returns or as a caller chooses. Between each consecutive pair
/// the shared edge is a [`Portal`] with a `left` and a `right` end, oriented relative to the
/// direction of travel: standing in the first triangle and facing the second, `left` is on
/// the left in the mathematical (y-up) sense, i.e. `cross(forward, left − right) > 0` for
/// any forward direction that crosses the portal. (On a y-down grid map "left" is on the
/// right of the screen; the funnel and relaxation only need the convention to be
/// consistent.) This is the input of the funnel (Mononen, "Simple Stupid Funnel Algorithm",
/// 2010) and of portal relaxation (the blog post "Grandpa, tell us another story about
/// pathfinding").
///
/// Consecutive repeated triangle ids are skipped (like duplicate path points); consecutive
/// triangles that share no edge are [`Error::BrokenChannel`]; an id out of range is
/// [`Error::BadParameter`]. Cost: O(channel length).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::geometry::cross;
/// use pathsmooth::navmesh::NavMesh;
/// use pathsmooth::navmesh::portals;
/// # use pathsmooth::navmesh::Scene;
/// let scene = Scene { boundary: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 1.0], [0.0, 1.0]], holes: vec![] };
/// let mesh = NavMesh::from_scene(&scene)?;
/// let channel = mesh.find_channel(DVec2::new(0.2, 0.5), DVec2::new(3.8, 0.5))?;
/// let ps = portals(&mesh, &channel)?;
/// assert_eq!(ps.len(), channel.len() - 1);
/// for p in &ps {
///     // Travelling in +x, left is +y in the y-up convention.
///     assert!(cross(DVec2::X, p.left - p.right) > 0.0);
/// }
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// A portal edge between two consecutive channel polygons, with ends named relative to the
/// direction of travel (see above).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::Portal;
/// let p = Portal::new(DVec2::new(0.0, 1.0), DVec2::new(0.0, -1.0));
/// assert_eq!(p.width(), 2.0);
/// assert_eq!(p.midpoint(), DVec2::ZERO);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Portal {
    /// The end on the traveller's left (counter-clockwise side, y-up).
    pub left: DVec2,
    /// The end on the traveller's right.
    pub right: DVec2,
}

impl Portal {
    /// A portal from its two ends.
    pub fn new(left: DVec2, right: DVec2) -> Self {
        Portal { left, right }
    }

    /// The distance between the ends.
    pub fn width(&self) -> f64 {
        self.left.distance(self.right)
    }

    /// The middle of the portal.
    pub fn midpoint(&self) -> DVec2 {
        (self.left + self.right) * 0.5
    }
}

/// Writes the portals of `channel` into `out` (cleared first); allocation-free once `out`
/// has grown to the channel's length.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{NavMesh, portals_into};
/// # use pathsmooth::navmesh::Scene;
/// let scene = Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] };
/// let mesh = NavMesh::from_scene(&scene)?;
/// let mut out = Vec::new();
/// portals_into(&mesh, &[0, 1], &mut out)?;
/// assert_eq!(out.len(), 1);
/// assert!(portals_into(&mesh, &[0, 7], &mut out).is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn portals_into(mesh: &NavMesh, channel: &[TriId], out: &mut Vec<Portal>) -> Result<()> {
    out.clear();
    if let Some(&bad) = channel.iter().find(|&&t| t >= mesh.num_triangles()) {
        return Err(Error::param(
            "channel",
            bad as f64,
            "triangle ids below the mesh's triangle count",
        ));
    }
    let mut prev = match channel.first() {
        Some(&t) => (0, t),
        None => return Ok(()),
    };
    for (i, &t) in channel.iter().enumerate().skip(1) {
        if t == prev.1 {
            continue;
        }
        let edge = mesh
            .shared_edge(prev.1, t)
            .ok_or(Error::BrokenChannel { a: prev.0, b: i })?;
        // Edge `edge` of the counter-clockwise triangle runs from corner `edge` to corner
        // `edge + 1` with the triangle on its left; facing out across it, corner `edge + 1`
        // is on the left.
        let corners = mesh.triangle(prev.1);
        out.push(Portal {
            left: corners[(edge + 1) % 3],
            right: corners[edge],
        });
        prev = (i, t);
    }
    Ok(())
}

/// The portals of `channel` (allocating form of [`portals_into`]).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{NavMesh, portals};
/// # use pathsmooth::navmesh::Scene;
/// let scene = Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] };
/// let mesh = NavMesh::from_scene(&scene)?;
/// let p = portals(&mesh, &[0, 1])?;
/// // The shared edge is the square's diagonal.
/// assert!((p[0].width() - 8f64.sqrt()).abs() < 1e-12);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn portals(mesh: &NavMesh, channel: &[TriId]) -> Result<Vec<Portal>> {
    let mut out = Vec::with_capacity(channel.len().saturating_sub(1));
    portals_into(mesh, channel, &mut out)?;
    Ok(out)
}

/// Checks that every portal's `left` end is on the left of the direction of travel: the
/// direction from the previous portal's midpoint (the start, for the first portal) to this
/// portal's midpoint crosses a correctly oriented portal from behind, so
/// `cross(direction, left − right)` must not be negative. In a channel of triangles that
/// direction runs inside the triangle before the portal, so correct portals always pass; a
/// negative value beyond rounding (10⁻¹² of the product of the lengths) is
/// [`Error::SwappedPortal`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{check_orientation, Portal};
/// use pathsmooth::Error;
/// let ok = [Portal::new(DVec2::new(1.0, 1.0), DVec2::new(1.0, -1.0))];
/// assert!(check_orientation(&ok, DVec2::ZERO).is_ok());
/// let swapped = [ok[0], Portal::new(DVec2::new(2.0, -1.0), DVec2::new(2.0, 1.0))];
/// assert_eq!(check_orientation(&swapped, DVec2::ZERO), Err(Error::SwappedPortal { index: 1 }));
/// ```
pub fn check_orientation(portals: &[Portal], start: DVec2) -> Result<()> {
    let mut behind = start;
    for (index, p) in portals.iter().enumerate() {
        let ahead = p.midpoint();
        let (d, w) = (ahead - behind, p.left - p.right);
        if d.perp_dot(w) < -1e-12 * d.length() * w.length() {
            return Err(Error::SwappedPortal { index });
        }
        behind = ahead;
    }
    Ok(())
}

/// Refuses a portal end with a coordinate beyond
/// [`max_map_coordinate`](crate::geometry::max_map_coordinate)`::<f64>()`: the same limit
/// as every map-aware input, so the funnel and relaxation answer an out-of-range channel
/// as the rest of the library does ([`Error::CoordinateOutOfRange`], portal `k` numbered
/// `k + 1`, after the start). The ends must be finite (checked before).
pub(crate) fn check_portal_range(portals: &[Portal]) -> Result<()> {
    let limit = max_map_coordinate::<f64>();
    for (k, p) in portals.iter().enumerate() {
        let far = p.left.abs().max(p.right.abs());
        if far.max_element() > limit {
            let value = [p.left.x, p.left.y, p.right.x, p.right.y]
                .into_iter()
                .find(|c| c.abs() > limit)
                .unwrap_or(far.max_element());
            return Err(Error::CoordinateOutOfRange {
                index: Some(k + 1),
                value,
                limit,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::cross;
    use crate::navmesh::Scene;

    #[test]
    fn orientation_is_consistent_along_a_winding_corridor() {
        let mesh = NavMesh::from_scene(&Scene {
            boundary: vec![[0.0, 0.0], [6.0, 0.0], [6.0, 6.0], [0.0, 6.0]],
            holes: vec![vec![[1.0, 1.0], [5.0, 1.0], [5.0, 5.0], [1.0, 5.0]]],
        })
        .unwrap();
        let (s, g) = (DVec2::new(0.5, 0.5), DVec2::new(5.5, 5.5));
        let channel = mesh.find_channel(s, g).unwrap();
        let ps = portals(&mesh, &channel).unwrap();
        for (k, p) in ps.iter().enumerate() {
            // The triangle before the portal lies counter-clockwise of right → left, the one
            // after clockwise, so travel from one to the other has `left` on its left.
            let before = mesh.centroid(channel[k]);
            let after = mesh.centroid(channel[k + 1]);
            assert!(cross(p.left - p.right, before - p.right) > 0.0);
            assert!(cross(p.left - p.right, after - p.right) < 0.0);
            assert!(cross(after - before, p.left - p.right) > 0.0);
        }
    }

    #[test]
    fn broken_corridor_names_the_pair() {
        let boundary = [0.0, 1.0, 2.0, 3.0, 4.0]
            .map(|x| [x, 0.0])
            .into_iter()
            .chain([4.0, 3.0, 2.0, 1.0, 0.0].map(|x| [x, 1.0]))
            .collect();
        let mesh = NavMesh::from_scene(&Scene {
            boundary,
            holes: vec![],
        })
        .unwrap();
        let far = (0..mesh.num_triangles())
            .find(|&t| t != 0 && mesh.shared_edge(0, t).is_none())
            .unwrap();
        assert_eq!(
            portals(&mesh, &[0, 0, far]),
            Err(Error::BrokenChannel { a: 0, b: 2 })
        );
    }
}
