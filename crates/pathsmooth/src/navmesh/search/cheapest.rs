//! The cheapest channel under area costs, and the funnel through it.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`NavMeshQuery::find_path_with_costs`].)

use super::widths::edge_fits;
use crate::navmesh::polyanya::Open;
use std::collections::hash_map::Entry;

use glam::DVec2;

use super::{Ends, NavMeshQuery};
use crate::area::{area_name, AreaCosts};
use crate::error::{Error, Result};
use crate::navmesh::mesh::{NavMesh, TriId};

/// The open-list entry of a path that reached the goal.
const GOAL: u64 = u64::MAX - 1;
/// No state: the parent of the states entered from the start's triangle.
const NO_STATE: u64 = u64::MAX;

impl NavMeshQuery {
    /// The cheapest channel under area costs, and the funnel through it.
    ///
    /// Polyanya's exactness rests on uniform cost: a search node's cone of straight lines from
    /// one root is only the set of shortest continuations when every point costs the same, and
    /// its heuristic (the straight line through an interval) only bounds the cost then. With
    /// area costs the cheapest path bends at area borders (it refracts, as light does between
    /// media) where no mesh vertex is, so this search works on a graph instead, as Detour's
    /// `dtNavMeshQuery::findPath` does: A* over (triangle, entry edge, point) states, each
    /// at one of three points of its entry edge (its midpoint and the points a sixth of the
    /// way from each end: midpoints alone price a straight route across many triangles by
    /// a zig-zag), moving from one to the next across the triangle at the distance between
    /// the two points × the triangle's area multiplier (the start and goal are nodes in
    /// their triangles). The heuristic is the straight distance to the goal × the smallest
    /// multiplier of the filter, which never overestimates. Excluded triangles
    /// are never entered; with a radius, the width rule of the unit-cost search applies
    /// (Demyen & Buro's width between the entry and exit edges, crossed edges between two
    /// walls at least `2r` long).
    ///
    /// The channel found is the cheapest *in that graph*; the funnel (with the radius) then
    /// gives the shortest path inside it. So the result is the shortest path in the cheapest
    /// channel, not the exact cheapest path: the graph's polylines are longer than the
    /// straight lines they stand for, so a route through many small triangles is priced
    /// above its length and a cheaper route can lose to a dearer one when the two are
    /// close; a path that crosses a swamp's corner may cost less than one round it that
    /// this search prefers; and inside the channel the funnel minimises length, not cost.
    /// The navmesh world therefore also plans the unit-cost shortest
    /// path and keeps whichever of the two costs less.
    ///
    /// Cost: O(s log s) for the s states reached (at most nine a triangle), each with up to
    /// six successors, plus the funnel.
    ///
    /// The shortest path from `start` to `goal` for an agent of `radius` in the cheapest
    /// channel under `costs` (see above for the search and why it is not the exact
    /// cheapest path): the triangles of each area cost their area's
    /// multiplier, excluded ones are never entered. Also sets
    /// [`channel`](Self::channel). The search runs even when `costs` is uniform; for the
    /// exact shortest path at unit costs use [`find_path`](Self::find_path)
    /// (the navmesh world picks between them).
    ///
    /// With a radius, walls are only the mesh's: an excluded area is avoided but not kept
    /// `radius` from; the navmesh world ([`SurfaceWorld`](crate::SurfaceWorld)) with the
    /// filter takes excluded triangles out of its mesh, so that there they are walls like the others.
    ///
    /// Errors: those of [`find_path`](Self::find_path), and [`Error::ExcludedArea`] when
    /// the triangle holding the start or the goal is in an excluded area;
    /// [`Error::Unreachable`] also when every route passes through excluded triangles.
    /// Cost: see above; no allocation once the query's buffers have grown.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::{NavMesh, NavMeshQuery};
    /// // A 3×3 block of unit squares, the middle column a swamp (area 2) but for the top.
    /// let v: Vec<DVec2> = (0..4).flat_map(|y| (0..4).map(move |x| DVec2::new(x as f64, y as f64))).collect();
    /// let sq = |x: u32, y: u32| vec![4 * y + x, 4 * y + x + 1, 4 * (y + 1) + x + 1, 4 * (y + 1) + x];
    /// let polys: Vec<Vec<u32>> = (0..3).flat_map(|y| (0..3).map(move |x| sq(x, y))).collect();
    /// let areas = [1, 2, 1, 1, 2, 1, 1, 1, 1];
    /// let mesh = NavMesh::from_polygons_with_areas(&v, &polys, &areas)?;
    /// let mut query = NavMeshQuery::new();
    /// let path = query.find_path_with_costs(&mesh, &"2=10".parse()?, DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5), 0.0)?;
    /// // Round the swamp, over the top row.
    /// assert!(path.iter().any(|p| p.y >= 2.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn find_path_with_costs(
        &mut self,
        mesh: &NavMesh,
        costs: &AreaCosts,
        start: DVec2,
        goal: DVec2,
        radius: f64,
    ) -> Result<&[DVec2]> {
        self.located(mesh, (start, goal), radius, |query, ends, radius| {
            query.cheapest_path(mesh, costs, ends, radius)
        })
    }

    /// [`find_path_with_costs`](Self::find_path_with_costs) between ends the caller has
    /// located (the layered query's, whose plan-view location is ambiguous).
    pub(crate) fn find_path_with_costs_between(
        &mut self,
        mesh: &NavMesh,
        costs: &AreaCosts,
        ends @ [(start, _), (goal, _)]: Ends,
        radius: f64,
    ) -> Result<&[DVec2]> {
        let found = self
            .check_ends(mesh, start, goal, radius)
            .and_then(|radius| self.cheapest_path(mesh, costs, ends, radius));
        self.forget_on_error(found)?;
        Ok(&self.path)
    }

    /// The checks of the ends, the cheapest channel, then the funnel through it.
    fn cheapest_path(
        &mut self,
        mesh: &NavMesh,
        costs: &AreaCosts,
        [(start, s), (goal, g)]: Ends,
        radius: f64,
    ) -> Result<()> {
        for (p, t, what) in [(start, s, "start"), (goal, g, "goal")] {
            let area = mesh.area_of(t);
            if costs.is_excluded(area) {
                return Err(Error::ExcludedArea {
                    what,
                    area: area_name(area),
                    x: p.x,
                    y: p.y,
                });
            }
        }
        self.ends_have_room(mesh, [(start, s), (goal, g)], radius)?;
        if !self.cheapest_channel(mesh, costs, [(start, s), (goal, g)], radius) {
            // No channel avoids the excluded areas with room for the radius: the unit-cost
            // search says whether one exists at all (its errors name the narrowest
            // passage); if it does, it passes through excluded triangles.
            self.begin();
            self.search_between(mesh, [(start, s), (goal, g)], radius)?;
            return Err(Error::Unreachable {
                sx: start.x,
                sy: start.y,
                gx: goal.x,
                gy: goal.y,
            });
        }
        self.funnel_channel(mesh, start, goal, radius)
    }

    /// A* over (triangle, entry edge, point on the edge) states (see
    /// [`cheapest`](crate::navmesh::search::cheapest)); on success fills `channel` and
    /// returns true.
    fn cheapest_channel(
        &mut self,
        mesh: &NavMesh,
        costs: &AreaCosts,
        [(start, s), (goal, g)]: Ends,
        r: f64,
    ) -> bool {
        let multiplier = |t: TriId| costs.multiplier(mesh.area_of(t));
        let h_scale = costs.min_cost(0..=255).unwrap_or(1.0);
        self.cost_open.clear();
        self.cost_best.clear();
        let (mut goal_cost, mut goal_parent) = (f64::INFINITY, NO_STATE);
        if s == g {
            goal_cost = start.distance(goal) * multiplier(s);
            self.cost_open.push(Open {
                f: goal_cost,
                g: goal_cost,
                node: GOAL,
            });
        }
        // Every sample point of the edge of `t` crossed into `n`, as states of `n`.
        let relax_across =
            |query: &mut Self, t: TriId, x: usize, from: DVec2, cost: f64, parent: u64| {
                let Some(n) = mesh.across(t, x) else {
                    return;
                };
                if multiplier(n).is_infinite() {
                    return;
                }
                let Some(ne) = mesh.shared_edge(n, t) else {
                    return;
                };
                for k in 0..SAMPLES.len() {
                    let st = state(n, ne, k);
                    let at = position(mesh, st);
                    let c = cost + from.distance(at) * multiplier(t);
                    let better = match query.cost_best.entry(st) {
                        Entry::Vacant(slot) => {
                            slot.insert((c, parent));
                            true
                        }
                        Entry::Occupied(mut slot) if c < slot.get().0 => {
                            slot.insert((c, parent));
                            true
                        }
                        Entry::Occupied(_) => false,
                    };
                    if better {
                        query.cost_open.push(Open {
                            f: c + at.distance(goal) * h_scale,
                            g: c,
                            node: st,
                        });
                    }
                }
            };
        for x in 0..3 {
            if edge_fits(mesh, s, x, r) {
                relax_across(self, s, x, start, 0.0, NO_STATE);
            }
        }
        while let Some(Open {
            g: cost, node: st, ..
        }) = self.cost_open.pop()
        {
            if st == GOAL {
                self.cheapest_reconstruct(s, goal_parent);
                return true;
            }
            if cost > self.cost_best[&st].0 {
                continue;
            }
            let (t, e) = ((st / STATES_PER_TRIANGLE) as TriId, edge_of(st));
            let at = position(mesh, st);
            if t == g {
                let total = cost + at.distance(goal) * multiplier(t);
                if total < goal_cost {
                    (goal_cost, goal_parent) = (total, st);
                    self.cost_open.push(Open {
                        f: total,
                        g: total,
                        node: GOAL,
                    });
                }
            }
            for x in [(e + 1) % 3, (e + 2) % 3] {
                if mesh.across(t, x).is_some() && self.widths.passes(mesh, t, e, x, r) {
                    relax_across(self, t, x, at, cost, st);
                }
            }
        }
        false
    }

    /// The channel from the states' parents: the start's triangle, then the triangle of
    /// each state back from `last` (`NO_STATE`: the goal is in the start's triangle), with
    /// any loop cut out (a triangle entered twice keeps its first visit).
    fn cheapest_reconstruct(&mut self, s: TriId, last: u64) {
        self.channel.clear();
        let mut st = last;
        while st != NO_STATE {
            self.channel.push((st / STATES_PER_TRIANGLE) as TriId);
            st = self.cost_best[&st].1;
        }
        self.channel.push(s);
        self.channel.reverse();
        self.seen.clear();
        if self.channel.iter().all(|&t| self.seen.insert(t as u32)) {
            return;
        }
        // Cut loops: keep each triangle's first position, dropping what lies between.
        let mut out = 0;
        for k in 0..self.channel.len() {
            let t = self.channel[k];
            match self.channel[..out].iter().position(|&u| u == t) {
                Some(first) => out = first + 1,
                None => {
                    self.channel[out] = t;
                    out += 1;
                }
            }
        }
        self.channel.truncate(out);
    }
}

/// Where the states sit on their entry edge, as fractions of it from the edge's first
/// corner: the midpoint and a point towards each end, so that routes hugging a corner
/// and straight lines across many triangles are not priced by midpoint zig-zags alone.
/// Symmetric, so a point is the same seen from either side of the edge.
const SAMPLES: [f64; 3] = [1.0 / 6.0, 0.5, 5.0 / 6.0];

/// States per triangle: 3 entry edges × the samples.
const STATES_PER_TRIANGLE: u64 = 3 * SAMPLES.len() as u64;

/// The state of entering triangle `t` through its edge `e` at sample `k`.
fn state(t: TriId, e: usize, k: usize) -> u64 {
    t as u64 * STATES_PER_TRIANGLE + (e * SAMPLES.len() + k) as u64
}

/// The entry edge of state `st`.
fn edge_of(st: u64) -> usize {
    (st / SAMPLES.len() as u64 % 3) as usize
}

/// The point of state `st` (see [`SAMPLES`]).
fn position(mesh: &NavMesh, st: u64) -> DVec2 {
    let t = (st / STATES_PER_TRIANGLE) as TriId;
    let (e, k) = (edge_of(st), (st % SAMPLES.len() as u64) as usize);
    let p = mesh.triangle(t);
    p[e] + (p[(e + 1) % 3] - p[e]) * SAMPLES[k]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w`×`h` block of unit squares, area `area(x, y)` each.
    fn block(w: u32, h: u32, area: impl Fn(u32, u32) -> u8) -> NavMesh {
        let v: Vec<DVec2> = (0..=h)
            .flat_map(|y| (0..=w).map(move |x| DVec2::new(x as f64, y as f64)))
            .collect();
        let at = |x: u32, y: u32| y * (w + 1) + x;
        let mut polys = Vec::new();
        let mut areas = Vec::new();
        for y in 0..h {
            for x in 0..w {
                polys.push(vec![at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)]);
                areas.push(area(x, y));
            }
        }
        NavMesh::from_polygons_with_areas(&v, &polys, &areas).unwrap()
    }

    #[test]
    fn excluded_triangles_are_never_entered() {
        // The middle column excluded but for the top cell.
        let mesh = block(3, 3, |x, y| if x == 1 && y < 2 { 9 } else { 1 });
        let costs: AreaCosts = "9=exclude".parse().unwrap();
        let mut q = NavMeshQuery::new();
        let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5));
        for r in [0.0, 0.2] {
            let path = q
                .find_path_with_costs(&mesh, &costs, a, b, r)
                .unwrap()
                .to_vec();
            assert!(q.channel().iter().all(|&t| mesh.area_of(t) == 1), "r = {r}");
            assert_eq!((path[0], *path.last().unwrap()), (a, b));
            assert!(
                path.iter().any(|p| p.y >= 2.0 + r - 1e-9),
                "r = {r}: {path:?}"
            );
            let cost: f64 = path
                .windows(2)
                .map(|s| mesh.segment_cost(&costs, s[0], s[1]))
                .sum();
            assert!(cost.is_finite(), "r = {r}");
        }
    }

    #[test]
    fn within_one_triangle_the_path_is_the_segment() {
        let mesh = block(1, 1, |_, _| 1);
        let mut q = NavMeshQuery::new();
        let (a, b) = (DVec2::new(0.1, 0.05), DVec2::new(0.3, 0.1));
        let t = mesh.locate(a).unwrap();
        assert_eq!(mesh.locate(b), Some(t));
        let path = q
            .find_path_with_costs(&mesh, &"1=3".parse().unwrap(), a, b, 0.0)
            .unwrap();
        assert_eq!(path, [a, b]);
        assert_eq!(q.channel(), [t]);
        // Too close to a wall for the radius.
        let e = q.find_path_with_costs(&mesh, &AreaCosts::unit(), a, b, 0.2);
        assert!(matches!(e, Err(Error::TooClose { .. })), "{e:?}");
        assert!(q.path().is_empty() && q.channel().is_empty());
    }
}
