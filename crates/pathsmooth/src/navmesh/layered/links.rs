//! Routes over off-mesh links: which links a path takes, between legs walked on the
//! surface.

use std::collections::BinaryHeap;

use glam::{DVec2, DVec3};

use super::poly_search::PolySearch;
use super::{Nearest, SurfaceMesh};
use crate::error::{Error, Result};
use crate::navmesh::mesh::{PolyId, TriId};
use crate::navmesh::NavMeshQuery;

/// A stretch of a path walked on the surface: from `start` to `goal` (polygon and point on
/// it), then the off-mesh link `link` (an index into
/// [`Surface::links`](crate::navmesh::Surface::links)) unless it is the last.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leg {
    /// Where the leg starts: the path's start, or the end of the link before.
    pub start: (PolyId, DVec3),
    /// Where it ends: the path's goal, or the start of `link`.
    pub goal: (PolyId, DVec3),
    /// The link taken after this leg (`None` for the last leg).
    pub link: Option<u32>,
}

/// A place a route can be: the start, or where a link lands (link `i` run forwards or,
/// when bidirectional, backwards).
#[derive(Debug, Clone, Copy)]
struct Place {
    at: (PolyId, DVec3),
    plan: (DVec2, TriId),
}

/// A way onto a link: its entry, the place it lands, its cost.
#[derive(Debug, Clone, Copy)]
struct Hop {
    link: u32,
    entry: Place,
    lands: usize,
    cost: f64,
}

/// The router's scratch (kept by the query).
#[derive(Debug, Clone, Default)]
pub(crate) struct Router {
    places: Vec<Place>,
    hops: Vec<Hop>,
    best: Vec<f64>,
    /// How each place was reached: (place before, hop index), or the start.
    came: Vec<Option<(usize, usize)>>,
    open: BinaryHeap<Nearest>,
    /// Per piece: whether the start's piece reaches it by links ([`Router::pieces_joined`]).
    reached: Vec<bool>,
}

impl Router {
    /// The legs of the cheapest route from `start` to `goal`: walking lengths on the
    /// surface (plan view, for an agent of `radius`) plus link costs, found by Dijkstra's
    /// algorithm over the start and the places links land, each walking length an exact
    /// search ([`NavMeshQuery`]) between places of one connected piece. A link whose ends
    /// have no room for the radius (or no walking route to them) is not taken.
    ///
    /// `direct`: the walk from start to goal with no link when the caller has made it
    /// (its length, or why it failed); `None` to have the router walk it.
    ///
    /// Errors: when no route reaches the goal, the error of walking straight from start
    /// to goal ([`Error::Unreachable`], [`Error::TooClose`], [`Error::ChannelTooNarrow`]).
    ///
    /// Returns how many searches the router made. Cost: one search per (place settled,
    /// link entry or goal in its piece) that could still beat the best route found, by
    /// the straight-line distances to the entry and from the landing to the goal (less
    /// what links cheaper than their length can save): O((links + 1)²) searches at worst,
    /// none when no link can beat the direct walk.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn route(
        &mut self,
        (query, poly): (&mut NavMeshQuery, Option<&mut PolySearch>),
        mesh: &SurfaceMesh,
        (start, s): ((PolyId, DVec3), (DVec2, TriId)),
        (goal, g): ((PolyId, DVec3), (DVec2, TriId)),
        radius: f64,
        direct: Option<Result<f64>>,
        legs: &mut Vec<Leg>,
    ) -> Result<usize> {
        let mut poly = poly;
        self.places.clear();
        self.hops.clear();
        legs.clear();
        self.places.push(Place { at: start, plan: s });
        let surface = mesh.surface();
        let up = surface.up();
        let place = |poly: PolyId, p: DVec3| {
            let plan = up.plan(p);
            Place {
                at: (poly, p),
                plan: (plan, mesh.triangle_at(poly, plan)),
            }
        };
        for (i, link) in surface.links().iter().enumerate() {
            let ends = [
                place(link.start_poly, link.start),
                place(link.end_poly, link.end),
            ];
            let directions: &[(usize, usize)] = if link.given.bidirectional {
                &[(0, 1), (1, 0)]
            } else {
                &[(0, 1)]
            };
            for &(from, to) in directions {
                self.places.push(ends[to]);
                self.hops.push(Hop {
                    link: i as u32,
                    entry: ends[from],
                    lands: self.places.len() - 1,
                    cost: link.cost,
                });
            }
        }
        let n = self.places.len();
        self.best.clear();
        self.best.resize(n, f64::INFINITY);
        self.came.clear();
        self.came.resize(n, None);
        self.open.clear();
        self.best[0] = 0.0;
        self.open.push(Nearest { d: 0.0, item: 0 });
        // A lower bound on the rest of any route from a place: the straight line to the
        // goal, less all that links cheaper than their plan-view length could save (each
        // is taken at most once on a cheapest route).
        let saved: f64 = surface
            .links()
            .iter()
            .map(|l| (up.plan(l.start).distance(up.plan(l.end)) - l.cost).max(0.0))
            .sum();
        let rest = |p: DVec2| (p.distance(g.0) - saved).max(0.0);
        // The goal as a place of its own, reached from the place that settles it best.
        let (mut to_goal, mut goal_from) = (f64::INFINITY, None);
        let mut direct_error = None;
        let walked = direct.is_some();
        match direct {
            Some(Ok(w)) => (to_goal, goal_from) = (w, Some(0)),
            Some(Err(e)) => direct_error = Some(e),
            None => {}
        }
        let mut searches = 0;
        if !self.pieces_joined(mesh, start.0, goal.0) {
            self.open.clear(); // no search can find a route: fail as when all were made
        }
        while let Some(Nearest { d, item }) = self.open.pop() {
            let u = item as usize;
            let from = self.places[u];
            if d > self.best[u] || d + rest(from.plan.0) >= to_goal {
                continue;
            }
            let piece = mesh.piece(from.at.0);
            let walk_to_goal = !(u == 0 && walked) && mesh.piece(goal.0) == piece;
            if walk_to_goal && d + from.plan.0.distance(g.0) < to_goal {
                searches += 1;
                match walk_length(query, poly.as_deref_mut(), mesh, from.plan, g, radius) {
                    Ok(w) if d + w < to_goal => (to_goal, goal_from) = (d + w, Some(u)),
                    Ok(_) => {}
                    Err(e) if u == 0 => direct_error = Some(e),
                    Err(_) => {}
                }
            }
            for h in 0..self.hops.len() {
                let hop = self.hops[h];
                if mesh.piece(hop.entry.at.0) != piece {
                    continue;
                }
                let lower = d + from.plan.0.distance(hop.entry.plan.0) + hop.cost;
                let landing = self.places[hop.lands].plan.0;
                if lower >= self.best[hop.lands] || lower + rest(landing) >= to_goal {
                    continue;
                }
                searches += 1;
                let Ok(w) = walk_length(
                    query,
                    poly.as_deref_mut(),
                    mesh,
                    from.plan,
                    hop.entry.plan,
                    radius,
                ) else {
                    continue;
                };
                let reached = d + w + hop.cost;
                if reached < self.best[hop.lands] {
                    self.best[hop.lands] = reached;
                    self.came[hop.lands] = Some((u, h));
                    self.open.push(Nearest {
                        d: reached,
                        item: hop.lands as u32,
                    });
                }
            }
        }
        let Some(mut at) = goal_from else {
            return Err(direct_error.unwrap_or(Error::Unreachable {
                sx: s.0.x,
                sy: s.0.y,
                gx: g.0.x,
                gy: g.0.y,
            }));
        };
        // Back from the goal: each link taken, and the leg walked before it.
        legs.push(Leg {
            start: self.places[at].at,
            goal,
            link: None,
        });
        while let Some((before, h)) = self.came[at] {
            let hop = self.hops[h];
            legs.push(Leg {
                start: self.places[before].at,
                goal: hop.entry.at,
                link: Some(hop.link),
            });
            at = before;
        }
        legs.reverse();
        Ok(searches)
    }

    /// Whether the piece of polygon `goal` can be reached from the piece of `start` at all,
    /// walking within pieces and taking the hops between them, whatever the lengths and the
    /// radius: when not, every search the router could make is wasted (a goal on an island
    /// of a bake with links used to cost a search to every link entry in reach). O(pieces
    /// the hops touch × hops) at worst.
    fn pieces_joined(&mut self, mesh: &SurfaceMesh, start: PolyId, goal: PolyId) -> bool {
        let (from, to) = (mesh.piece(start) as usize, mesh.piece(goal) as usize);
        if from == to {
            return true;
        }
        let (hops, places, reached) = (&self.hops, &self.places, &mut self.reached);
        let ends = |h: &Hop| {
            let piece = |p: &Place| mesh.piece(p.at.0) as usize;
            (piece(&h.entry), piece(&places[h.lands]))
        };
        let size = hops
            .iter()
            .map(|h| ends(h).0.max(ends(h).1))
            .fold(from.max(to), usize::max);
        reached.clear();
        reached.resize(size + 1, false);
        reached[from] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for (a, b) in hops.iter().map(ends) {
                if reached[a] && !reached[b] {
                    reached[b] = true;
                    grew = true;
                }
            }
        }
        reached[to]
    }
}

/// The plan-view length of the path from `a` to `b` for `radius`, by an exact search: at
/// radius 0 over the surface's polygons when `poly` is given, else over its triangles.
fn walk_length(
    query: &mut NavMeshQuery,
    poly: Option<&mut PolySearch>,
    mesh: &SurfaceMesh,
    a: (DVec2, TriId),
    b: (DVec2, TriId),
    radius: f64,
) -> Result<f64> {
    if let Some(poly) = poly
        && query.check_ends(mesh.plan_mesh(), a.0, b.0, radius)? == 0.0
    {
        let (pa, pb) = (mesh.polygon_of(a.1), mesh.polygon_of(b.1));
        if !poly.find(mesh, (a.0, pa), (b.0, pb)) {
            return Err(Error::Unreachable {
                sx: a.0.x,
                sy: a.0.y,
                gx: b.0.x,
                gy: b.0.y,
            });
        }
        return Ok(plan_length(poly.path()));
    }
    let path = query.find_path_between(mesh.plan_mesh(), [a, b], radius)?;
    Ok(plan_length(path))
}

/// The length of a plan-view path.
pub(crate) fn plan_length(path: &[DVec2]) -> f64 {
    path.windows(2).map(|w| w[0].distance(w[1])).sum()
}
