//! A navmesh world: the free region is the union of a navmesh's triangles.

use std::cmp::Ordering;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicU32;

use glam::DVec2;

use super::{path_on_mesh, Bounds, World};
use crate::area::{area_name, AreaCosts};
use crate::error::{Error, Result};
use crate::geometry::{closest_on_segment, segment_distance};
use crate::navmesh::mesh::boxes::BoxIndex;
use crate::navmesh::mesh::NavMesh;
use crate::navmesh::NavMeshQuery;

/// A flat [`NavMesh`] as a [`World`], the engine under the navmesh world
/// ([`SurfaceWorld`](crate::SurfaceWorld): its sheets, and the whole plan mesh of a
/// surface of one floor): everything outside its triangles is blocked, so a point's
/// clearance is its distance to the nearest boundary edge (an edge with no triangle on its
/// other side).
///
/// The boundary edges are kept in a grid of buckets over the mesh's bounds (a hierarchy
/// of them, so long walls cost no more than short ones), about as many buckets as edges,
/// so a clearance query looks at the edges near the point and a segment test at the edges
/// near the segment. Containment uses the mesh's exact walk ([`NavMesh::line_of_sight`]):
/// a segment is clear at radius 0 when it stays in the triangles (touching the boundary
/// allowed), and at radius `r > 0` when moreover every boundary edge is at least `r` away.
///
/// **Areas.** With [area costs](NavMeshWorld::with_area_costs), the triangles of
/// excluded areas leave the free region (they are walls like the others), a segment
/// costs its length in each triangle times the triangle's area cost
/// ([`World::segment_cost`], [`NavMesh::segment_cost`]), and the planner looks for the
/// cheapest channel ([`find_path_into`](World::find_path_into)).
///
/// Cost: building O(e) for e boundary edges (plus the mesh); a clearance query
/// O(point location + edges in the buckets searched), a segment test O(triangles crossed
/// + edges in the buckets the segment's box, grown by the radius, overlaps).
#[derive(Debug, Clone)]
pub(crate) struct NavMeshWorld {
    /// The mesh as given (every area, excluded ones included), for a new filter.
    terrain: NavMesh,
    /// The free region under the filter when it excludes some triangles of the terrain.
    free: Option<NavMesh>,
    costs: AreaCosts,
    index: EdgeIndex,
}

impl NavMeshWorld {
    /// Wraps `mesh`, indexing its boundary edges (O(edges)). Every triangle is free and
    /// costs 1, whatever its area: the filter is [`AreaCosts::unit`] until
    /// [`with_area_costs`](Self::with_area_costs) sets another.
    pub fn new(mesh: NavMesh) -> Self {
        let index = EdgeIndex::of(&mesh);
        NavMeshWorld {
            terrain: mesh,
            free: None,
            costs: AreaCosts::unit(),
            index,
        }
    }

    /// The world with the area costs `costs` ([`crate::area`]; area ids are the mesh's,
    /// [`NavMesh::area_of`]). See [`set_area_costs`](Self::set_area_costs).
    pub fn with_area_costs(mut self, costs: AreaCosts) -> Result<Self> {
        self.set_area_costs(costs)?;
        Ok(self)
    }

    /// Replaces the area costs (Detour's query filter). Triangles of excluded areas leave
    /// the free region: the world's mesh ([`mesh`](Self::mesh)) is then the mesh of the
    /// kept triangles, with walls where they bordered excluded ones
    /// ([`NavMesh::without_excluded`]), so clearance, segment tests, search and the
    /// pipeline's navmesh steps all see excluded areas as walls. A change of costs that
    /// excludes the same triangles as before is O(triangles) (the check); a change in what
    /// is excluded rebuilds the mesh and the wall index, O(triangles + vertices), as at
    /// construction.
    ///
    /// Errors: [`Error::NoFreeSpace`] when `costs` excludes every triangle (the world keeps
    /// its old costs).
    pub fn set_area_costs(&mut self, costs: AreaCosts) -> Result<()> {
        let base = &self.terrain;
        let excludes = |c: &AreaCosts| {
            (0..base.num_triangles())
                .map(|t| c.is_excluded(base.area_of(t)))
                .collect::<Vec<bool>>()
        };
        if excludes(&costs) != excludes(&self.costs) {
            let free = base.without_excluded(&costs)?;
            self.index = EdgeIndex::of(free.as_ref().unwrap_or(base));
            self.free = free;
        }
        self.costs = costs;
        Ok(())
    }

    /// The area costs in effect ([`AreaCosts::unit`] unless set).
    pub fn area_costs(&self) -> &AreaCosts {
        &self.costs
    }

    /// The navmesh of the free region: the mesh given, less the triangles of areas the
    /// [area costs](Self::area_costs) exclude.
    pub fn mesh(&self) -> &NavMesh {
        self.free.as_ref().unwrap_or(&self.terrain)
    }

    /// [`clearance`](World::clearance) for a walker, its triangle located from `last`
    /// ([`NavMesh::locate_from`]): the same answer.
    pub(crate) fn clearance_from(&self, p: DVec2, last: &AtomicU32) -> f64 {
        self.clearance_if_on(p, self.mesh().locate_from(p, last).is_some())
    }

    /// [`has_clearance`](World::has_clearance) for a walker, as
    /// [`clearance_from`](Self::clearance_from).
    pub(crate) fn has_clearance_from(&self, p: DVec2, need: f64, last: &AtomicU32) -> bool {
        self.has_clearance_if(p, need, || self.mesh().locate_from(p, last).is_some())
    }

    /// Whether `p`'s clearance is at least `need`, `on` saying whether the mesh holds `p`
    /// (asked only when the answer depends on it).
    fn has_clearance_if(&self, p: DVec2, need: f64, on: impl FnOnce() -> bool) -> bool {
        // Every clearance is at least 0; none is at least NaN.
        if need.is_nan() || need <= 0.0 {
            return need <= 0.0;
        }
        on() && self.index.no_edge_nearer(p, need)
    }

    /// The clearance of `p`, which the mesh holds when `on` (else it is off the free
    /// region: 0).
    fn clearance_if_on(&self, p: DVec2, on: bool) -> f64 {
        if on {
            self.index.distance_to_point(p)
        } else {
            0.0
        }
    }

    /// `e` with a start or goal outside the free region but in an excluded triangle of
    /// the full mesh reported as [`Error::ExcludedArea`].
    fn excluded_end(&self, e: Error) -> Error {
        let Error::OutsideMesh { what, x, y } = e else {
            return e;
        };
        let p = DVec2::new(x, y);
        let base = &self.terrain;
        match base.locate(p).map(|t| base.area_of(t)) {
            Some(area) if self.costs.is_excluded(area) => Error::ExcludedArea {
                what,
                area: area_name(area),
                x,
                y,
            },
            _ => e,
        }
    }
}

impl World for NavMeshWorld {
    type Query = NavMeshQuery;

    fn bounds(&self) -> Bounds {
        self.index.bounds
    }

    /// The mesh's boundary edges (excluded areas left out included)
    /// whose boxes meet the box of `reach` round `p`, each once, turned so that the mesh
    /// lies on their right. Cost: the wall index's buckets over that box.
    fn walls_near(&self, p: DVec2, reach: f64, out: &mut Vec<[DVec2; 2]>) {
        if !(p.is_finite() && reach.is_finite() && reach >= 0.0) {
            return;
        }
        let from = out.len();
        let (lo, hi) = (p - reach, p + reach);
        self.index.index.for_each_bucket(lo, hi, |list| {
            for &e in list {
                let [a, b] = self.index.edges[e as usize];
                if a.min(b).cmple(hi).all() && lo.cmple(a.max(b)).all() {
                    // A triangle's side runs counter-clockwise, the triangle on its left.
                    out.push([b, a]);
                }
            }
        });
        // An edge listed in several buckets comes once.
        let found = &mut out[from..];
        // (The mesh's coordinates are finite, so the order is total.)
        let key = |e: &[DVec2; 2]| (e[0].x, e[0].y, e[1].x, e[1].y);
        found.sort_unstable_by(|x, y| key(x).partial_cmp(&key(y)).unwrap_or(Ordering::Equal));
        let mut kept = from;
        for i in from..out.len() {
            if i == from || out[i] != out[kept - 1] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    fn clearance(&self, p: DVec2) -> f64 {
        self.clearance_if_on(p, self.mesh().locate(p).is_some())
    }

    /// The walls within `need` of `p` only (the index's buckets round it), and `p` located
    /// on the mesh: where [`clearance`](World::clearance) searches outwards in doubling
    /// boxes until it meets a wall.
    fn has_clearance(&self, p: DVec2, need: f64) -> bool {
        self.has_clearance_if(p, need, || self.mesh().locate(p).is_some())
    }

    fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        if radius.is_nan() || radius < 0.0 {
            return false;
        }
        // The walls first, stopping at the first within the radius: half of the segments
        // a crowd's walk asks about on an engine's mesh are unclear, most of them grazing
        // a corner, and a segment that leaves the mesh meets a wall too; then the line of
        // sight (which also places `a` on the mesh) only for the rest.
        (radius == 0.0 || self.index.segment_distance_until(a, b, radius, radius) >= radius)
            && self.mesh().line_of_sight(a, b)
    }

    fn segment_clearance(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        if !self.mesh().line_of_sight(a, b) {
            return 0.0;
        }
        self.index.segment_distance_until(a, b, cap, 0.0)
    }

    /// The shortest path from `start` to `goal` by the navmesh query
    /// ([`NavMeshQuery`]): exact at radius 0 (Polyanya); with
    /// a radius, the funnel with that radius through the channel of a search restricted to
    /// passages at least `2·radius` wide. A radius path must keep the radius itself (the
    /// world's [tolerance](World::tolerance) is for input; only the error of computing a
    /// clearance, 64 units in the last place of the largest coordinate, is allowed). The
    /// funnel first builds its circles a hair outside the radius; in a passage exactly
    /// `2·radius` wide that leaves the order of the corners to rounding, so when the result
    /// is not clear it is rebuilt with circles of the radius itself, then the path through
    /// the portals' midpoints is tried; last, a funnel a hair inside the radius that keeps
    /// it within the world's tolerance (some passages exactly `2·radius` wide admit nothing
    /// else). When none is clear the result is [`Error::InvalidResult`] — never a path that
    /// is not valid. A radius-0 path is the search's, not checked here: where a mesh's
    /// corners are collinear only up to rounding it can pass one by 10⁻¹⁶ on the wrong side
    /// (polyanya's `bad-collinear2-rot45.mesh`); a [`Pipeline`](crate::Pipeline)'s final check
    /// turns it at that corner.
    ///
    /// **With area costs** ([`has_area_costs`](World::has_area_costs)), the path is the
    /// shortest in the cheapest channel of triangles under the costs
    /// ([`NavMeshQuery::find_path_with_costs`]), or the shortest path above when that
    /// costs no more (so it never costs more than the shortest path). It is not the exact
    /// cheapest path: Polyanya's exactness needs uniform cost (with costs, cheapest paths
    /// bend at area borders, not only at mesh vertices), and the channel search works on
    /// points of triangle edges. At unit costs (excluded areas or not) nothing of
    /// this runs and the path is bit-identical to that of a world without areas.
    ///
    /// Errors as [`NavMeshQuery::find_path`], and [`Error::ExcludedArea`] for a start or
    /// goal in a triangle of an excluded area. Cost: the query (no allocation once
    /// `query` and `out` have grown), plus one clearance check of the path per attempt;
    /// with area costs, both searches and a cost walk of each path.
    fn find_path_into(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        query: &mut NavMeshQuery,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        let costs = self.has_area_costs().then_some(&self.costs);
        path_on_mesh(self, self.mesh(), costs, query, start, goal, radius, out)
            .map_err(|e| self.excluded_end(e))
    }

    fn navmesh(&self) -> Result<&NavMesh> {
        Ok(self.mesh())
    }

    /// The length inside each triangle times its area's cost ([`NavMesh::segment_cost`]
    /// on [`mesh`](NavMeshWorld::mesh), infinite where the segment leaves it); the length
    /// itself when every area costs 1.
    fn segment_cost(&self, a: DVec2, b: DVec2) -> f64 {
        if self.costs.is_uniform() {
            a.distance(b)
        } else {
            self.mesh().segment_cost(&self.costs, a, b)
        }
    }

    fn has_area_costs(&self) -> bool {
        !self.costs.is_uniform()
    }

    fn cost_filter(&self) -> Option<&AreaCosts> {
        self.has_area_costs().then_some(&self.costs)
    }
}

/// Line segments in a [`BoxIndex`] over a rectangle, about one bucket of its finest level
/// per four edges.
#[derive(Debug, Clone)]
struct EdgeIndex {
    edges: Vec<[DVec2; 2]>,
    bounds: Bounds,
    /// The finest buckets' side, about: where the doubling search for the nearest edge
    /// starts.
    side: f64,
    index: BoxIndex,
}

impl EdgeIndex {
    /// The boundary edges of `mesh` (edges with no triangle across), indexed over its
    /// vertices' bounds.
    fn of(mesh: &NavMesh) -> Self {
        let mut edges = Vec::new();
        for t in 0..mesh.num_triangles() {
            let tri = mesh.triangle(t);
            for (i, n) in mesh.neighbors(t).iter().enumerate() {
                if n.is_none() {
                    edges.push([tri[i], tri[(i + 1) % 3]]);
                }
            }
        }
        let bounds = Bounds::around(mesh.vertices().iter().copied())
            .unwrap_or(Bounds::new(DVec2::ZERO, DVec2::ZERO));
        EdgeIndex::new(edges, bounds)
    }

    fn new(edges: Vec<[DVec2; 2]>, bounds: Bounds) -> Self {
        let boxes = edges.iter().map(|&[a, b]| (a.min(b), a.max(b)));
        // Most wall tests are of points and short legs (a crowd's), each reading a box of
        // buckets on every level: fewer, larger buckets are read faster than the few more
        // edges in them, which the tests' cheap bound turns away. A bucket per edge made
        // the engine level's crowd frame 4–8 % slower (`docs/crowd.md`).
        let index = BoxIndex::new(bounds.min, bounds.max, 0.25 * edges.len() as f64, boxes);
        let side = index.bucket_size().max_element();
        EdgeIndex {
            edges,
            bounds,
            side,
            index,
        }
    }

    /// The smallest of `cap` and `dist(edge)` over the edges whose boxes may overlap the box
    /// `lo..=hi`.
    fn min_over_box(
        &self,
        lo: DVec2,
        hi: DVec2,
        cap: f64,
        dist: impl Fn([DVec2; 2]) -> f64,
    ) -> f64 {
        let mut best = cap;
        self.index.for_each_bucket(lo, hi, |list| {
            for &e in list {
                best = best.min(dist(self.edges[e as usize]));
            }
        });
        best
    }

    /// Distance from `p` to the nearest edge: boxes around `p` doubling until the nearest
    /// edge found lies within the box (so none outside can be nearer).
    fn distance_to_point(&self, p: DVec2) -> f64 {
        if self.edges.is_empty() || !p.is_finite() {
            return 0.0;
        }
        let dist = |edge| point_distance(p, edge);
        let whole = self.bounds.size().max_element() + self.bounds.min.distance(p) + self.side;
        let mut reach = self.side;
        loop {
            let d = self.min_over_box(p - reach, p + reach, f64::INFINITY, dist);
            if d <= reach || reach >= whole {
                return d;
            }
            reach *= 2.0;
        }
    }

    /// Whether no edge is nearer `p` than `need` > 0, by the distance
    /// [`distance_to_point`](Self::distance_to_point) takes (so exactly when it is at
    /// least `need`), looking only at the buckets within `need` of `p`: an edge in none of
    /// them lies farther than `need` along an axis. Stops at the first edge nearer.
    fn no_edge_nearer(&self, p: DVec2, need: f64) -> bool {
        if self.edges.is_empty() || !p.is_finite() {
            return false;
        }
        let mut clear = true;
        self.index.for_each_bucket_near_segment(p, p, need, |list| {
            for &e in list {
                if point_distance(p, self.edges[e as usize]) < need {
                    clear = false;
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        clear
    }

    /// min(cap, distance from the segment `a`–`b` to the nearest edge); or, once an edge
    /// nearer than `stop` is found, that edge's distance (below `stop`, not always the
    /// least): a caller asking only whether the distance reaches `stop` has its answer.
    fn segment_distance_until(&self, a: DVec2, b: DVec2, cap: f64, stop: f64) -> f64 {
        // NaN caps, non-positive caps and non-finite segments have no clearance to report.
        if cap.is_nan() || cap <= 0.0 || !a.is_finite() || !b.is_finite() {
            return 0.0;
        }
        if cap.is_finite() {
            // Only the buckets along the segment: its box, for a long diagonal one, holds
            // most of the mesh's walls (a crowd's walk asks this of long legs each frame).
            let mut best = cap;
            // A cheap bound before the exact distance: in the segment's frame (along it
            // from `a`, and across it), an edge whose two ends both lie farther than the
            // best so far across its line on one side, or beyond one of its ends along it,
            // is that far from all of it. Most edges in the buckets along a segment are
            // walls beside it; a hair of slack covers the rounding of the frame.
            // The frame's unit direction is taken once, no division an edge (its few ulps
            // of rounding are far inside the slack). A point (a room test) has no line:
            // its frame is the axes (`len` 0), which bound the same way, by a box's sides.
            let len = a.distance(b);
            let along = if len > 0.0 { (b - a) / len } else { DVec2::X };
            let slack = 1e-9 * (1.0 + a.abs().max_element().max(b.abs().max_element()));
            let frame = |p: DVec2| {
                let ap = p - a;
                (along.dot(ap), along.perp_dot(ap))
            };
            let apart = |c: DVec2, d: DVec2, bound: f64| {
                let ((uc, vc), (ud, vd), off) = (frame(c), frame(d), bound + slack);
                (vc >= off && vd >= off)
                    || (vc <= -off && vd <= -off)
                    || (uc >= len + off && ud >= len + off)
                    || (uc <= -off && ud <= -off)
            };
            self.index.for_each_bucket_near_segment(a, b, cap, |list| {
                for &e in list {
                    let [c, d] = self.edges[e as usize];
                    if !apart(c, d, best) {
                        best = best.min(segment_distance(a, b, c, d));
                        if best < stop {
                            return ControlFlow::Break(());
                        }
                    }
                }
                ControlFlow::Continue(())
            });
            best
        } else {
            let whole = self.bounds;
            self.min_over_box(whole.min, whole.max, cap, |[c, d]| {
                segment_distance(a, b, c, d)
            })
        }
    }
}

/// The distance from `p` to the segment `edge`.
fn point_distance(p: DVec2, [a, b]: [DVec2; 2]) -> f64 {
    p.distance(closest_on_segment(p, a, b).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The capped distance from a segment to the nearest edge is exactly what a comparison
    /// with every edge gives, over random walls (short, long, axis-aligned) and random
    /// query segments of every length (some of zero length, some crossing walls); asked to
    /// stop below a distance, it is below it exactly when the least distance is, and the
    /// least distance otherwise.
    #[test]
    fn capped_segment_distances_are_those_of_every_edge() {
        let mut next = crate::test_fixtures::uniform(5);
        let mut point = || DVec2::new(next() * 60.0, next() * 60.0);
        let mut edges = Vec::new();
        for i in 0..600 {
            let a = point();
            let b = match i % 4 {
                0 => a + (point() - a) * 0.05,
                1 => point(),
                2 => DVec2::new(point().x, a.y),
                _ => a + (point() - a) * 0.3,
            };
            edges.push([a, b]);
        }
        let bounds = Bounds {
            min: DVec2::ZERO,
            max: DVec2::splat(60.0),
        };
        let index = EdgeIndex::new(edges.clone(), bounds);
        let mut stopped = 0;
        for q in 0..2_000 {
            let a = point();
            let b = if q % 10 == 0 {
                a
            } else {
                a + (point() - a) * [0.02, 0.2, 1.0][q % 3]
            };
            let cap = [0.05, 0.5, 3.0, 20.0][q % 4];
            let every = edges
                .iter()
                .fold(cap, |m: f64, &[c, d]| m.min(segment_distance(a, b, c, d)));
            assert_eq!(
                index.segment_distance_until(a, b, cap, 0.0),
                every,
                "query {q}"
            );
            // Some stops at the cap, as `segment_is_clear` asks.
            let stop: f64 = [0.01, 0.3, 1.0, 5.0, 50.0][q % 5];
            let stop = stop.min(cap);
            let until = index.segment_distance_until(a, b, cap, stop);
            assert_eq!(
                until < stop,
                every < stop,
                "query {q} stopping below {stop}"
            );
            assert!(
                until < stop || until == every,
                "query {q} stopping below {stop}"
            );
            stopped += (until < stop && until > every) as usize;
        }
        assert!(stopped > 20, "stopped early {stopped} times");
    }
}
