//! An independent oracle for paths on layered surfaces, written against the surface's
//! public data only (vertices, polygons, topological neighbours): a walk over the polygons
//! with exact orientation predicates (Shewchuk's, from the `robust` crate), the clearance of
//! a segment to the walls of its own floor, and the exact shortest path at radius 0 by a
//! visibility graph over the corners of the walls (Dijkstra).
//!
//! Floors: two polygons are on one floor where they share an edge (the walk crosses shared
//! edges only) or turn about a shared vertex through polygons joined by edges around it (a
//! fan); vertices are welded in 3D, so stacked floors never share one. A path through a
//! vertex where two fans touch (a pinch) passes through a gap of zero width and is refused,
//! as the library's contract says.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::DVec2;
use pathsmooth::navmesh::{PolyId, Surface};

fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// Distance from point `p` to segment `a`–`b`.
fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

/// Distance between segments `a`–`b` and `c`–`d`.
fn segment_segment(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    let crosses =
        orient(a, b, c) * orient(a, b, d) < 0.0 && orient(c, d, a) * orient(c, d, b) < 0.0;
    if crosses {
        return 0.0;
    }
    point_segment(a, c, d)
        .min(point_segment(b, c, d))
        .min(point_segment(c, a, b))
        .min(point_segment(d, a, b))
}

/// A node of the visibility graph: a wall corner (vertex and fan).
#[derive(Clone, Copy)]
struct Node {
    vertex: u32,
    fan: u32,
}

#[derive(Clone, Copy, PartialEq)]
struct Open(f64, usize);
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0)
    }
}

pub struct SurfaceOracle<'a> {
    s: &'a Surface,
    plan: Vec<DVec2>,
    /// Per vertex: (polygon, corner index, fan) of every polygon corner at it.
    corners: Vec<Vec<(PolyId, usize, u32)>>,
    nodes: Vec<Node>,
    /// Visibility between nodes: (node, length).
    graph: Vec<Vec<(usize, f64)>>,
}

impl<'a> SurfaceOracle<'a> {
    /// The oracle of `s`, its corner-to-corner visibility graph built (O(corners² · walk)).
    pub fn new(s: &'a Surface) -> Self {
        let up = s.up();
        let plan: Vec<DVec2> = s.vertices().iter().map(|&v| up.plan(v)).collect();
        let mut corners = vec![Vec::new(); plan.len()];
        for p in 0..s.num_polygons() as PolyId {
            for (i, &v) in s.polygon(p).iter().enumerate() {
                corners[v as usize].push((p, i, u32::MAX));
            }
        }
        // Fans: the corners at a vertex joined through the edges at it that two polygons share.
        let mut fans = 0u32;
        let mut on_wall = vec![false; plan.len()];
        for v in 0..plan.len() {
            let list = &mut corners[v];
            for k in 0..list.len() {
                if list[k].2 != u32::MAX {
                    continue;
                }
                list[k].2 = fans;
                let mut stack = vec![k];
                while let Some(j) = stack.pop() {
                    let (p, i, _) = list[j];
                    let ring = s.polygon(p);
                    let n = ring.len();
                    let neighbors: Vec<Option<PolyId>> = s.neighbors(p).collect();
                    // The two edges at corner i: i → i+1 and i−1 → i.
                    for e in [i, (i + n - 1) % n] {
                        match neighbors[e] {
                            None => on_wall[v] = true,
                            Some(q) => {
                                if let Some(m) =
                                    list.iter().position(|c| c.0 == q && c.2 == u32::MAX)
                                {
                                    list[m].2 = fans;
                                    stack.push(m);
                                }
                            }
                        }
                    }
                }
                fans += 1;
            }
        }
        let mut nodes = Vec::new();
        for v in 0..plan.len() {
            if !on_wall[v] {
                continue;
            }
            let mut seen: Vec<u32> = corners[v].iter().map(|c| c.2).collect();
            seen.sort_unstable();
            seen.dedup();
            nodes.extend(seen.into_iter().map(|fan| Node {
                vertex: v as u32,
                fan,
            }));
        }
        let mut oracle = SurfaceOracle {
            s,
            plan,
            corners,
            nodes,
            graph: Vec::new(),
        };
        let n = oracle.nodes.len();
        let mut graph = vec![Vec::new(); n];
        for i in 0..n {
            for j in i + 1..n {
                if oracle.node_sees_node(i, j) {
                    let d = oracle.at(i).distance(oracle.at(j));
                    graph[i].push((j, d));
                    graph[j].push((i, d));
                }
            }
        }
        oracle.graph = graph;
        oracle
    }

    fn at(&self, node: usize) -> DVec2 {
        self.plan[self.nodes[node].vertex as usize]
    }

    /// True when plan-view `q` is in the closed polygon `p`.
    pub fn inside(&self, p: PolyId, q: DVec2) -> bool {
        let ring = self.s.polygon(p);
        (0..ring.len()).all(|i| {
            let a = self.plan[ring[i] as usize];
            let b = self.plan[ring[(i + 1) % ring.len()] as usize];
            orient(a, b, q) >= 0.0
        })
    }

    /// The polygon of `fan` at vertex `v` whose closed corner angle holds the direction to
    /// `b` (a polygon where it is strictly inside first).
    fn leave(&self, v: u32, fan: u32, b: DVec2) -> Option<PolyId> {
        let o = self.plan[v as usize];
        let mut closed = None;
        for &(p, i, f) in &self.corners[v as usize] {
            if f != fan {
                continue;
            }
            let ring = self.s.polygon(p);
            let n = ring.len();
            let w = self.plan[ring[(i + 1) % n] as usize];
            let u = self.plan[ring[(i + n - 1) % n] as usize];
            let (left_of_out, left_of_in) = (orient(o, w, b), orient(u, o, b));
            if left_of_out > 0.0 && left_of_in > 0.0 {
                return Some(p);
            }
            if left_of_out >= 0.0 && left_of_in >= 0.0 {
                closed.get_or_insert(p);
            }
        }
        closed
    }

    fn fan_of(&self, p: PolyId, v: u32) -> Option<u32> {
        self.corners[v as usize]
            .iter()
            .find(|c| c.0 == p)
            .map(|c| c.2)
    }

    /// Walks the segment `a`–`b` from polygon `p` (holding `a`): the polygons entered, in
    /// order (the first `p`), the last holding `b`; `None` when the segment meets a wall or
    /// a pinch.
    pub fn walk(&self, mut p: PolyId, a: DVec2, b: DVec2) -> Option<Vec<PolyId>> {
        let d = b - a;
        let mut crossed = vec![p];
        let mut progress = f64::NEG_INFINITY;
        for _ in 0..4 * self.s.num_polygons() + 16 {
            if self.inside(p, b) {
                return Some(crossed);
            }
            let ring = self.s.polygon(p);
            let n = ring.len();
            let side: Vec<f64> = ring
                .iter()
                .map(|&v| orient(a, b, self.plan[v as usize]))
                .collect();
            if let Some(i) = (0..n).find(|&i| side[i] < 0.0 && side[(i + 1) % n] > 0.0) {
                p = self.s.neighbors(p).nth(i).flatten()?;
                crossed.push(p);
                continue;
            }
            // Out through a corner on the line, the farthest ahead.
            let (k, along) = (0..n)
                .filter(|&i| side[i] == 0.0)
                .map(|i| (i, d.dot(self.plan[ring[i] as usize] - a)))
                .filter(|&(_, t)| t > progress)
                .max_by(|x, y| x.1.total_cmp(&y.1))?;
            progress = along;
            let v = ring[k];
            let fan = self.fan_of(p, v)?;
            let q = self.leave(v, fan, b)?;
            if q != p {
                p = q;
                crossed.push(p);
            }
        }
        None
    }

    /// The walk from node `i` to node `j` ends at `j`'s corner (on its fan).
    fn node_sees_node(&self, i: usize, j: usize) -> bool {
        let (ni, nj) = (self.nodes[i], self.nodes[j]);
        let (a, b) = (self.at(i), self.at(j));
        if a == b {
            return false;
        }
        let Some(p) = self.leave(ni.vertex, ni.fan, b) else {
            return false;
        };
        match self.walk(p, a, b) {
            Some(c) => self.fan_of(*c.last().unwrap(), nj.vertex) == Some(nj.fan),
            None => false,
        }
    }

    /// The length of the shortest path in plan view from `a` in polygon `pa` to `b` in
    /// polygon `pb` (both strictly inside their polygons), `None` when none exists.
    pub fn shortest(&self, (pa, a): (PolyId, DVec2), (pb, b): (PolyId, DVec2)) -> Option<f64> {
        let ends_in_goal = |c: Option<Vec<PolyId>>| c.is_some_and(|c| *c.last().unwrap() == pb);
        let mut best = if ends_in_goal(self.walk(pa, a, b)) {
            a.distance(b)
        } else {
            f64::INFINITY
        };
        let n = self.nodes.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut open = BinaryHeap::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let c = self.walk(pa, a, self.at(i));
            if c.is_some_and(|c| self.fan_of(*c.last().unwrap(), node.vertex) == Some(node.fan)) {
                dist[i] = a.distance(self.at(i));
                open.push(Open(dist[i], i));
            }
        }
        let to_goal: Vec<Option<f64>> = (0..n)
            .map(|i| {
                let node = self.nodes[i];
                let p = self.leave(node.vertex, node.fan, b)?;
                ends_in_goal(self.walk(p, self.at(i), b)).then(|| self.at(i).distance(b))
            })
            .collect();
        while let Some(Open(d, i)) = open.pop() {
            if d > dist[i] || d >= best {
                continue;
            }
            if let Some(g) = to_goal[i] {
                best = best.min(d + g);
            }
            for &(j, w) in &self.graph[i] {
                if d + w < dist[j] {
                    dist[j] = d + w;
                    open.push(Open(dist[j], j));
                }
            }
        }
        best.is_finite().then_some(best)
    }

    /// The distance from segment `a`–`b`, walked from polygon `p`, to the nearest wall of its
    /// floor within `reach` (`reach` when none is nearer), or `None` when the walk fails
    /// or ends outside `end` (a polygon sharing a corner with the one the path says).
    pub fn segment_clearance(
        &self,
        p: PolyId,
        a: DVec2,
        b: DVec2,
        end: PolyId,
        reach: f64,
    ) -> Option<f64> {
        let crossed = self.walk(p, a, b)?;
        let last = *crossed.last().unwrap();
        let ring = self.s.polygon(end);
        if !self.s.polygon(last).iter().any(|v| ring.contains(v)) {
            return None;
        }
        // The polygons of the floor within `reach` of the segment: from the ones crossed,
        // across shared edges.
        let mut seen: Vec<PolyId> = crossed.clone();
        let mut stack = crossed;
        let mut best = reach;
        while let Some(q) = stack.pop() {
            let ring = self.s.polygon(q);
            for (i, n) in self.s.neighbors(q).enumerate() {
                let c = self.plan[ring[i] as usize];
                let d = self.plan[ring[(i + 1) % ring.len()] as usize];
                let dist = segment_segment(a, b, c, d);
                match n {
                    None => best = best.min(dist),
                    Some(n) if dist < reach && !seen.contains(&n) => {
                        seen.push(n);
                        stack.push(n);
                    }
                    Some(_) => {}
                }
            }
        }
        Some(best)
    }
}
