//! Moving a point along a surface, held to its floor: Detour's `moveAlongSurface`.

use glam::DVec2;

use crate::area::AreaCosts;
use crate::geometry::{closest_on_segment, cross, tolerance_at};
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
    /// the contract); `height`, the target's, picks among floors where several polygons
    /// the search visits hold the target. The caller has checked `from` and both points.
    pub(super) fn run(
        &mut self,
        surface: &Surface,
        filter: Option<&AreaCosts>,
        from: PolyId,
        (start, target): (DVec2, DVec2),
        height: f64,
    ) -> (PolyId, DVec2) {
        self.begin(surface.num_polygons());
        // The straight walk first (Detour's raycast): where it reaches the target, the
        // floor is the one the walk stays on, whatever else lies over or under it.
        if let Some(p) = self.walk(surface, filter, from, start, target) {
            return (p, target);
        }
        self.begin(surface.num_polygons());
        // Cut by a wall: breadth first over the disc with the segment start–target as its
        // diameter (Detour's search region), widened by the tolerance so that a shared
        // edge through the segment's end is not missed.
        let centre = start.lerp(target, 0.5);
        let magnitude = start.abs().max_element().max(target.abs().max_element());
        let reach = 0.5 * start.distance(target) + tolerance_at(magnitude);
        // The start itself is the fallback: a move never ends farther from the target.
        let mut best = (from, start, start.distance_squared(target));
        // The polygon holding the target whose floor there is nearest `height`.
        let mut holding: Option<(PolyId, f64)> = None;
        self.visit(from);
        let mut next = 0;
        while let Some(&p) = self.visited.get(next) {
            next += 1;
            if surface.contains_plan(p, target) {
                let off = (surface.floor_height(p, target) - height).abs();
                if holding.is_none_or(|(_, o)| off < o) {
                    holding = Some((p, off));
                }
            }
            let ring = surface.polygon(p);
            for (i, across) in surface.neighbors(p).enumerate() {
                let (a, b) = edge(surface, ring, i);
                // Every edge bounds the polygon, so its nearest point to the target is a
                // candidate; the nearest over all visited polygons is the answer.
                let (q, _) = closest_on_segment(target, a, b);
                let d = q.distance_squared(target);
                if d < best.2 {
                    best = (p, q, d);
                }
                if let Some(n) = open(surface, filter, across)
                    && !self.seen(n)
                    && closest_on_segment(centre, a, b).0.distance(centre) <= reach
                {
                    self.visit(n);
                }
            }
        }
        match holding {
            Some((p, _)) => (p, target),
            None => (best.0, best.1),
        }
    }

    /// The straight walk from `start` in polygon `from` to `target` across shared edges:
    /// the polygon holding `target` it reaches, or `None` where it meets a wall (or an
    /// excluded area) or leaves a polygon through a corner it cannot tell the way on from
    /// (the caller's search decides then). The polygons walked are marked visited.
    fn walk(
        &mut self,
        surface: &Surface,
        filter: Option<&AreaCosts>,
        from: PolyId,
        start: DVec2,
        target: DVec2,
    ) -> Option<PolyId> {
        let d = target - start;
        let (mut p, mut gone) = (from, f64::NEG_INFINITY);
        self.visit(p);
        loop {
            if surface.contains_plan(p, target) {
                return Some(p);
            }
            // Where the segment leaves the convex polygon (counter-clockwise): the least
            // parameter at which it crosses an edge it heads out through.
            let ring = surface.polygon(p);
            let mut exit: Option<(f64, usize)> = None;
            for i in 0..ring.len() {
                let (a, b) = edge(surface, ring, i);
                let outward = cross(b - a, d);
                if outward >= 0.0 {
                    continue;
                }
                let t = cross(b - a, start - a) / -outward;
                if exit.is_none_or(|(s, _)| t < s) {
                    exit = Some((t, i));
                }
            }
            let (t, i) = exit?;
            // No progress (a corner, or rounding): let the search decide.
            if t <= gone {
                return None;
            }
            gone = t;
            let n = open(surface, filter, surface.neighbors(p).nth(i).flatten())?;
            if self.seen(n) {
                return None;
            }
            self.visit(n);
            p = n;
        }
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

/// The polygon across an edge when the move may enter it: a neighbour not excluded by the
/// filter.
fn open(surface: &Surface, filter: Option<&AreaCosts>, across: Option<PolyId>) -> Option<PolyId> {
    across.filter(|&n| filter.is_none_or(|f| !f.is_excluded(surface.area(n))))
}

/// Edge `i` of a polygon with corners `ring`, from corner `i` to the next, in plan view.
fn edge(surface: &Surface, ring: &[u32], i: usize) -> (DVec2, DVec2) {
    let corner = |k: usize| {
        surface
            .up()
            .plan(surface.vertices()[ring[k % ring.len()] as usize])
    };
    (corner(i), corner(i + 1))
}
