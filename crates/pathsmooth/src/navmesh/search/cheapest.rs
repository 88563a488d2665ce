//! The cheapest channel under area costs, and the funnel through it.
//!
//! Polyanya's exactness rests on uniform cost: a search node's cone of straight lines from
//! one root is only the set of shortest continuations when every point costs the same, and
//! its heuristic (the straight line through an interval) only bounds the cost then. With
//! area costs the cheapest path bends at area borders (it refracts, as light does between
//! media) where no mesh vertex is, so this search works on a graph instead, as Detour's
//! `dtNavMeshQuery::findPath` does: A* over (triangle, entry edge) states, each at the
//! midpoint of its entry edge, moving from one to the next across the triangle at the
//! distance between the two midpoints × the triangle's area multiplier (the start and goal
//! are nodes in their triangles). The heuristic is the straight distance to the goal ×
//! the smallest multiplier of the filter, which never overestimates. Excluded triangles
//! are never entered; with a radius, the width rule of the unit-cost search applies
//! (Demyen & Buro's width between the entry and exit edges, crossed edges between two
//! walls at least `2r` long).
//!
//! The channel found is the cheapest *in that graph*; the funnel (with the radius) then
//! gives the shortest path inside it. So the result is the shortest path in the cheapest
//! channel, not the exact cheapest path: distances between edge midpoints overestimate
//! the length of a route through many small triangles (on a mesh of unit squares cut in
//! two, a way round a one-cell swamp of cost 4 that is 5.2 long scores above the 7 of
//! the straight path through it, so the search keeps the swamp), a path that crosses a
//! swamp's corner may cost less than one round it that this search prefers, and inside
//! the channel the funnel minimises length, not cost. [`NavMeshWorld`](crate::NavMeshWorld) therefore also plans
//! the unit-cost shortest path and keeps whichever of the two costs less.
//!
//! Cost: O(s log s) for the s states reached (at most three a triangle), plus the funnel.

use std::collections::hash_map::Entry;

use glam::DVec2;

use super::{NavMeshQuery, Open, NONE};
use crate::area::{area_name, AreaCosts};
use crate::error::{Error, Result};
use crate::navmesh::mesh::{NavMesh, TriId};
use crate::navmesh::portals::portals_into;

/// The open-list entry of a path that reached the goal.
const GOAL: u32 = u32::MAX - 1;

impl NavMeshQuery {
    /// The shortest path from `start` to `goal` for an agent of `radius` in the cheapest
    /// channel under `costs` (see [`cheapest`](crate::navmesh::search::cheapest) for the search and why it is not
    /// the exact cheapest path): the triangles of each area cost their area's
    /// multiplier, excluded ones are never entered. Also sets
    /// [`channel`](Self::channel). The search runs even when `costs` is uniform; for the
    /// exact shortest path at unit costs use [`find_path`](Self::find_path)
    /// ([`NavMeshWorld`](crate::NavMeshWorld) picks between them).
    ///
    /// With a radius, walls are only the mesh's: an excluded area is avoided but not kept
    /// `radius` from; a [`NavMeshWorld`](crate::NavMeshWorld) with the filter takes
    /// excluded triangles out of its mesh, so that there they are walls like the others.
    ///
    /// Errors: those of [`find_path`](Self::find_path), and [`Error::ExcludedArea`] when
    /// the triangle holding the start or the goal is in an excluded area;
    /// [`Error::Unreachable`] also when every route passes through excluded triangles.
    /// Cost: see [`cheapest`](crate::navmesh::search::cheapest); no allocation once the query's buffers have grown.
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
        let found = self
            .locate_ends(mesh, start, goal, radius)
            .and_then(|(s, g, radius)| {
                self.cheapest_path(mesh, costs, (start, s), (goal, g), radius)
            });
        self.forget_on_error(found)?;
        Ok(&self.path)
    }

    /// The checks of the ends, the cheapest channel, then the funnel through it.
    fn cheapest_path(
        &mut self,
        mesh: &NavMesh,
        costs: &AreaCosts,
        (start, s): (DVec2, TriId),
        (goal, g): (DVec2, TriId),
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
        self.begin();
        if radius > 0.0 {
            for (p, t, what) in [(start, s, "start"), (goal, g, "goal")] {
                if let Some(clearance) = self.wall_within(mesh, p, t, radius) {
                    return Err(Error::TooClose {
                        what,
                        x: p.x,
                        y: p.y,
                        clearance,
                        radius,
                    });
                }
            }
        }
        self.begin();
        if !self.cheapest_channel(mesh, costs, (start, s), (goal, g), radius) {
            // No channel avoids the excluded areas with room for the radius: the unit-cost
            // search says whether one exists at all (its errors name the narrowest
            // passage); if it does, it passes through excluded triangles.
            self.begin();
            self.search_between(mesh, (start, s), (goal, g), radius)?;
            return Err(Error::Unreachable {
                sx: start.x,
                sy: start.y,
                gx: goal.x,
                gy: goal.y,
            });
        }
        portals_into(mesh, &self.channel, &mut self.portals)?;
        self.funnel
            .funnel_into(&self.portals, start, goal, radius, &mut self.path)
    }

    /// A* over (triangle, entry edge) states (see [`cheapest`](crate::navmesh::search::cheapest)); on success fills
    /// `channel` and returns true.
    fn cheapest_channel(
        &mut self,
        mesh: &NavMesh,
        costs: &AreaCosts,
        (start, s): (DVec2, TriId),
        (goal, g): (DVec2, TriId),
        r: f64,
    ) -> bool {
        let multiplier = |t: TriId| costs.multiplier(mesh.area_of(t));
        let h_scale = costs.min_cost(0..=255).unwrap_or(1.0);
        let mid = |t: TriId, e: usize| {
            let p = mesh.triangle(t);
            (p[e] + p[(e + 1) % 3]) * 0.5
        };
        self.open.clear();
        self.cost_best.clear();
        let (mut goal_cost, mut goal_parent) = (f64::INFINITY, NONE);
        if s == g {
            goal_cost = start.distance(goal) * multiplier(s);
            self.open.push(Open {
                f: goal_cost,
                g: goal_cost,
                node: GOAL,
            });
        }
        let relax = |query: &mut Self, st: u32, cost: f64, parent: u32, at: DVec2| {
            let better = match query.cost_best.entry(st) {
                Entry::Vacant(slot) => {
                    slot.insert((cost, parent));
                    true
                }
                Entry::Occupied(mut slot) if cost < slot.get().0 => {
                    slot.insert((cost, parent));
                    true
                }
                Entry::Occupied(_) => false,
            };
            if better {
                query.open.push(Open {
                    f: cost + at.distance(goal) * h_scale,
                    g: cost,
                    node: st,
                });
            }
        };
        for k in 0..3 {
            let Some(n) = mesh.across(s, k) else {
                continue;
            };
            if multiplier(n).is_infinite() || !self.edge_fits(mesh, s, k, r) {
                continue;
            }
            let Some(e) = mesh.shared_edge(n, s) else {
                continue;
            };
            let at = mid(s, k);
            relax(
                self,
                (3 * n + e) as u32,
                start.distance(at) * multiplier(s),
                NONE,
                at,
            );
        }
        while let Some(Open { g: cost, node, .. }) = self.open.pop() {
            if node == GOAL {
                self.cheapest_reconstruct(s, goal_parent);
                return true;
            }
            if cost > self.cost_best[&node].0 {
                continue;
            }
            let (t, e) = (node as usize / 3, node as usize % 3);
            let at = mid(t, e);
            if t == g {
                let total = cost + at.distance(goal) * multiplier(t);
                if total < goal_cost {
                    (goal_cost, goal_parent) = (total, node);
                    self.open.push(Open {
                        f: total,
                        g: total,
                        node: GOAL,
                    });
                }
            }
            for x in [(e + 1) % 3, (e + 2) % 3] {
                let Some(n) = mesh.across(t, x) else {
                    continue;
                };
                if multiplier(n).is_infinite() || !self.passes(mesh, t, e, x, r) {
                    continue;
                }
                let Some(ne) = mesh.shared_edge(n, t) else {
                    continue;
                };
                let next = mid(t, x);
                relax(
                    self,
                    (3 * n + ne) as u32,
                    cost + at.distance(next) * multiplier(t),
                    node,
                    next,
                );
            }
        }
        false
    }

    /// The channel from the states' parents: the start's triangle, then the triangle of
    /// each state back from `last` (`NONE`: the goal is in the start's triangle), with any
    /// loop cut out (a triangle entered twice keeps its first visit).
    fn cheapest_reconstruct(&mut self, s: TriId, last: u32) {
        self.channel.clear();
        let mut st = last;
        while st != NONE {
            self.channel.push(st as usize / 3);
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
