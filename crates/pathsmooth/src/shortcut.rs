//! Line-of-sight shortcuts: drop the waypoints an agent can see past.
//!
//! This is the "cheating" post-processor of the pathfinding article *Grandpa, tell us
//! another story about pathfinding* (seed 004): "Starting at Node1, let's check if we can
//! reach the last node8 without leaving the mesh… nope. Node 7? No. Node6? Yes we can. So
//! we can delete Node 2|3|4|5." From each kept node the later nodes are tried from the last
//! one backwards and the first (farthest) one in line of sight is kept next; the nodes in
//! between are dropped. When no later node but the next is visible, the next one is kept
//! as it is.
//!
//! Line of sight is the exact test of [`los`](crate::grid::los) with the agent radius
//! `radius`: 0 means the DESIGN.md validity rule (touching walls allowed, no seams, no
//! pinches), `r > 0` means clearance ≥ `r` along the new segment
//! ([`DistanceField`]). So every new segment is valid; segments of the input that are
//! kept unchanged are as valid as they were, and a valid input gives a valid output.
//!
//! **Parameters.** `radius`: larger radii keep shortcuts away from walls and cut less.
//!
//! **Properties.** Endpoints are kept; the output is a subsequence of the input, so it is
//! never longer (triangle inequality). As the article warns, the result still turns
//! sharply at the kept nodes and may graze wall corners (with radius 0); smooth it further
//! with the corner cutters through [`map_safe`](crate::map_safe).
//!
//! **Cost.** O(n · k) line-of-sight tests for n input and k output points, each
//! O(segment length) (× (r + 1) with a radius). [`Shortcutter`] keeps the distance field
//! for radius > 0 and writes into a caller's buffer, so repeated use allocates nothing.
//!
//! ```
//! use glam::{DVec2, IVec2};
//! use pathsmooth::grid::{astar::astar, GridMap};
//! use pathsmooth::shortcut::shortcut;
//! let map = GridMap::from_rows(&["......", "......", "@@@@.."])?;
//! let raw = astar(&map, IVec2::new(0, 1), IVec2::new(5, 2))?; // 6 cells
//! let short = shortcut(&map, &raw.points, 0.0)?;
//! // The direct line would cross the wall: along row 1, then diagonally down.
//! assert_eq!(short.len(), 3);
//! assert_eq!((short[0], short[2]), (DVec2::new(0.5, 1.5), DVec2::new(5.5, 2.5)));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use glam::DVec2;

use crate::error::Result;
use crate::geometry::check_path;
use crate::grid::distance::DistanceField;
use crate::grid::los::{segment_is_clear, segment_is_free};
use crate::grid::map::GridMap;
use crate::validate::check_radius;

/// Reusable line-of-sight shortcutting on one map (see the module docs).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{grid::GridMap, shortcut::Shortcutter};
/// let map = GridMap::from_rows(&["....", "....", "...."])?;
/// let mut s = Shortcutter::new(&map);
/// let mut out = Vec::new();
/// let path = [DVec2::new(0.5, 0.5), DVec2::new(1.5, 1.5), DVec2::new(3.5, 1.5)];
/// s.shortcut_into(&path, 0.5, &mut out)?;
/// assert_eq!(out, vec![path[0], path[2]]);
/// s.shortcut_into(&path, 0.6, &mut out)?; // the start is only 0.5 from the border
/// assert_eq!(out, path.to_vec());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Shortcutter<'m> {
    map: &'m GridMap,
    field: Option<DistanceField>,
}

impl<'m> Shortcutter<'m> {
    /// A shortcutter for `map`; the distance field is built on first use with a radius > 0.
    pub fn new(map: &'m GridMap) -> Self {
        Shortcutter { map, field: None }
    }

    /// A shortcutter using an existing distance field of `map`.
    pub fn with_field(map: &'m GridMap, field: DistanceField) -> Self {
        Shortcutter {
            map,
            field: Some(field),
        }
    }

    /// Writes the shortcut path into `out` (cleared first).
    ///
    /// Errors: [`Error::EmptyPath`](crate::Error::EmptyPath),
    /// [`Error::NonFinite`](crate::Error::NonFinite), and
    /// [`Error::BadParameter`](crate::Error::BadParameter) for a negative or NaN radius.
    pub fn shortcut_into(
        &mut self,
        path: &[DVec2],
        radius: f64,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        check_path(path, 1, "shortcut")?;
        check_radius(radius)?;
        out.clear();
        if radius > 0.0 && self.field.is_none() {
            self.field = Some(DistanceField::new(self.map));
        }
        let map = self.map;
        let field = self.field.as_ref();
        let visible = |a: DVec2, b: DVec2| match field {
            Some(f) if radius > 0.0 => segment_is_clear(map, f, a, b, radius),
            _ => segment_is_free(map, a, b),
        };
        let last = path.len() - 1;
        let mut i = 0;
        out.push(path[0]);
        while i < last {
            // The farthest later node in sight; the next node when none is.
            let next = (i + 2..=last)
                .rev()
                .find(|&j| visible(path[i], path[j]))
                .unwrap_or(i + 1);
            out.push(path[next]);
            i = next;
        }
        Ok(())
    }
}

/// Line-of-sight shortcuts of `path` on `map` for an agent of radius `radius` (≥ 0); see
/// the module docs. Builds a distance field when `radius > 0`; use [`Shortcutter`] for
/// repeated calls.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{grid::GridMap, shortcut::shortcut};
/// let map = GridMap::from_rows(&["...", ".@.", "..."])?;
/// // The wall's corner blocks the direct line: the corner node is kept.
/// let p = [DVec2::new(0.5, 2.5), DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5)];
/// assert_eq!(shortcut(&map, &p, 0.0)?, p.to_vec());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn shortcut(map: &GridMap, path: &[DVec2], radius: f64) -> Result<Vec<DVec2>> {
    let mut out = Vec::with_capacity(path.len());
    Shortcutter::new(map).shortcut_into(path, radius, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    #[test]
    fn duplicates_and_single_points() {
        let map = GridMap::from_rows(&["...."]).unwrap();
        let a = DVec2::new(0.5, 0.5);
        assert_eq!(shortcut(&map, &[a], 0.0).unwrap(), vec![a]);
        assert_eq!(shortcut(&map, &[a, a, a], 0.0).unwrap(), vec![a, a]);
        assert_eq!(
            shortcut(&map, &[a], -0.1),
            Err(Error::param("radius", -0.1, "a finite number ≥ 0"))
        );
    }

    #[test]
    fn farthest_visible_not_first_blocked() {
        // The path goes round a pillar and comes back into view: the farthest node wins.
        let map = GridMap::from_rows(&[".....", "..@..", "....."]).unwrap();
        let p = [
            DVec2::new(0.5, 1.5),
            DVec2::new(1.5, 0.5),
            DVec2::new(3.5, 0.5),
            DVec2::new(3.5, 2.5),
            DVec2::new(1.5, 2.5),
            DVec2::new(0.5, 2.5),
        ];
        assert_eq!(shortcut(&map, &p, 0.0).unwrap(), vec![p[0], p[5]]);
    }
}
