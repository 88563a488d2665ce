//! Moving a point along a surface, held to its floor: Detour's `moveAlongSurface`.

use glam::DVec2;

use crate::area::AreaCosts;
use crate::geometry::{closest_on_segment, tolerance_at};
use crate::navmesh::mesh::PolyId;
use crate::navmesh::surface::Surface;

/// The scratch of [`SurfaceQuery::move_along_surface`](super::SurfaceQuery::move_along_surface):
/// the polygons visited, in the order they were reached, and a mark per polygon of the
/// surface (a stamp, so that a query clears nothing).
#[derive(Debug, Clone, Default)]
pub(super) struct MoveScratch {
    visited: Vec<PolyId>,
    marks: Vec<u32>,
    stamp: u32,
}

impl MoveScratch {
    /// The polygons the last move visited, the start's first.
    pub(super) fn visited(&self) -> &[PolyId] {
        &self.visited
    }

    /// From plan-view point `start` in polygon `from` towards `target`: the polygon reached
    /// and the point of it nearest to `target`, in plan view (see the query's method for
    /// the contract). The caller has checked `from` and both points.
    pub(super) fn run(
        &mut self,
        surface: &Surface,
        filter: Option<&AreaCosts>,
        from: PolyId,
        start: DVec2,
        target: DVec2,
    ) -> (PolyId, DVec2) {
        self.begin(surface.num_polygons());
        // The search disc: the segment start–target as its diameter (Detour's), widened by
        // the tolerance so that a shared edge through the segment's end is not missed.
        let centre = start.lerp(target, 0.5);
        let magnitude = start.abs().max_element().max(target.abs().max_element());
        let reach = 0.5 * start.distance(target) + tolerance_at(magnitude);
        let up = surface.up();
        let corner = |v: u32| up.plan(surface.vertices()[v as usize]);
        // The start itself is the fallback: a move never ends farther from the target.
        let mut best = (from, start, start.distance_squared(target));
        self.visit(from);
        let mut next = 0;
        while let Some(&p) = self.visited.get(next) {
            next += 1;
            if surface.contains_plan(p, target) {
                return (p, target);
            }
            let ring = surface.polygon(p);
            for (i, across) in surface.neighbors(p).enumerate() {
                let (a, b) = (corner(ring[i]), corner(ring[(i + 1) % ring.len()]));
                // Every edge bounds the polygon, so its nearest point to the target is a
                // candidate; the nearest over all visited polygons is the answer.
                let (q, _) = closest_on_segment(target, a, b);
                let d = q.distance_squared(target);
                if d < best.2 {
                    best = (p, q, d);
                }
                let open =
                    across.filter(|&n| filter.is_none_or(|f| !f.is_excluded(surface.area(n))));
                if let Some(n) = open
                    && !self.seen(n)
                    && closest_on_segment(centre, a, b).0.distance(centre) <= reach
                {
                    self.visit(n);
                }
            }
        }
        (best.0, best.1)
    }

    /// Clears the visited list and the marks (by a new stamp) for a surface of `n` polygons.
    fn begin(&mut self, n: usize) {
        self.visited.clear();
        if self.marks.len() != n || self.stamp == u32::MAX {
            self.marks.clear();
            self.marks.resize(n, 0);
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    fn seen(&self, p: PolyId) -> bool {
        self.marks[p as usize] == self.stamp
    }

    fn visit(&mut self, p: PolyId) {
        self.marks[p as usize] = self.stamp;
        self.visited.push(p);
    }
}
