//! An independent oracle for paths on layered surfaces, written against the surface's
//! public data only (vertices, polygons, topological neighbours): a walk over the polygons
//! with exact orientation predicates (Shewchuk's, from the `robust` crate), the clearance of
//! a segment to the walls of its own floor, and the exact shortest path at radius 0 by a
//! visibility graph over the reflex corners of the walls (and the vertices whose fan
//! goes round more than once, where a ramp starts over its floor), searched lazily (A* with the
//! straight-line distance, each edge's walk made when the search reaches it).
//!
//! Touching is decided as the library's contract says: a vertex within the library's
//! tolerance (10⁻⁹ of the largest coordinate) of a line is on it. Real meshes need this:
//! three vertices of a file on one straight line (a diagonal through a grid of tiles) are
//! on it only to the rounding of their coordinates, and a path along them would otherwise
//! "cross" the wall they bound by 10⁻¹⁵.
//!
//! Floors: two polygons are on one floor where they share an edge (the walk crosses shared
//! edges only) or turn about a shared vertex through polygons joined by edges around it (a
//! fan); vertices are welded in 3D, so stacked floors never share one. A path through a
//! vertex where two fans touch (a pinch) passes through a gap of zero width and is refused,
//! as the library's contract says.

use super::plane::ring_area;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::{PointFlags, PolyId, Surface, SurfacePoint};

use super::rng::Rng;

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
    /// The distance within which a point is on a line (the library's tolerance).
    tol: f64,
    /// Per vertex: (polygon, corner index, fan) of every polygon corner at it.
    corners: Vec<Vec<(PolyId, usize, u32)>>,
    /// The corners where a shortest path may turn: on a wall, with more than a half turn
    /// of free angle.
    nodes: Vec<Node>,
}

impl<'a> SurfaceOracle<'a> {
    /// The oracle of `s`: its fans and reflex wall corners (O(corners)).
    pub fn new(s: &'a Surface) -> Self {
        let up = s.up();
        let plan: Vec<DVec2> = s.vertices().iter().map(|&v| up.plan(v)).collect();
        let mut corners = vec![Vec::new(); plan.len()];
        for p in 0..s.num_polygons() as PolyId {
            for (i, &v) in s.polygon(p).iter().enumerate() {
                corners[v as usize].push((p, i, u32::MAX));
            }
        }
        // Fans: the corners at a vertex joined through the edges at it that two polygons
        // share; per fan, whether it meets a wall and its free angle.
        let mut fans = 0u32;
        let mut nodes = Vec::new();
        for (v, list) in corners.iter_mut().enumerate() {
            for k in 0..list.len() {
                if list[k].2 != u32::MAX {
                    continue;
                }
                list[k].2 = fans;
                let (mut on_wall, mut angle) = (false, 0.0);
                let mut stack = vec![k];
                while let Some(j) = stack.pop() {
                    let (p, i, _) = list[j];
                    let ring = s.polygon(p);
                    let n = ring.len();
                    let (u, o, w) = (
                        plan[ring[(i + n - 1) % n] as usize],
                        plan[ring[i] as usize],
                        plan[ring[(i + 1) % n] as usize],
                    );
                    angle += (w - o).angle_to(u - o).rem_euclid(std::f64::consts::TAU);
                    let neighbors: Vec<Option<PolyId>> = s.neighbors(p).collect();
                    // The two edges at corner i: i → i+1 and i−1 → i.
                    for e in [i, (i + n - 1) % n] {
                        match neighbors[e] {
                            None => on_wall = true,
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
                // A taut path turns only where the free angle exceeds a half turn — at a
                // wall's corner — or where a fan with no wall goes round more than once (a
                // ramp starting over its floor: there the surface has room on both sides).
                let turns = if on_wall {
                    angle > std::f64::consts::PI + 1e-9
                } else {
                    angle > std::f64::consts::TAU + 1e-9
                };
                if turns {
                    nodes.push(Node {
                        vertex: v as u32,
                        fan: fans,
                    });
                }
                fans += 1;
            }
        }
        let magnitude = plan
            .iter()
            .fold(1.0f64, |m, p| m.max(p.abs().max_element()));
        SurfaceOracle {
            s,
            plan,
            tol: 1e-9 * magnitude,
            corners,
            nodes,
        }
    }

    /// Which side of the line `a`–`b` point `c` is on (positive: left), 0 within the
    /// tolerance.
    fn side(&self, a: DVec2, b: DVec2, c: DVec2) -> f64 {
        let o = orient(a, b, c);
        if o.abs() <= self.tol * a.distance(b) {
            0.0
        } else {
            o
        }
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
            self.side(a, b, q) >= 0.0
        })
    }

    /// The polygons of `fan` at vertex `v` whose closed corner angle holds the direction to
    /// `b`, those where it is strictly inside first (more than one where the fan overlaps
    /// itself: a ramp starting over its floor).
    fn leaves(&self, v: u32, fan: u32, b: DVec2) -> Vec<PolyId> {
        let o = self.plan[v as usize];
        let (mut strict, mut closed) = (Vec::new(), Vec::new());
        for &(p, i, f) in &self.corners[v as usize] {
            if f != fan {
                continue;
            }
            let ring = self.s.polygon(p);
            let n = ring.len();
            let w = self.plan[ring[(i + 1) % n] as usize];
            let u = self.plan[ring[(i + n - 1) % n] as usize];
            let (left_of_out, left_of_in) = (self.side(o, w, b), self.side(u, o, b));
            if left_of_out > 0.0 && left_of_in > 0.0 {
                strict.push(p);
            } else if left_of_out >= 0.0 && left_of_in >= 0.0 {
                closed.push(p);
            }
        }
        strict.extend(closed);
        strict
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
    pub fn walk(&self, p: PolyId, a: DVec2, b: DVec2) -> Option<Vec<PolyId>> {
        self.walk_to(p, a, b, &|_| true)
    }

    /// [`walk`](Self::walk) to a last polygon that `accept` takes: where the segment passes
    /// a vertex whose fan overlaps itself, each way on is tried.
    fn walk_to(
        &self,
        p: PolyId,
        a: DVec2,
        b: DVec2,
        accept: &dyn Fn(PolyId) -> bool,
    ) -> Option<Vec<PolyId>> {
        let mut crossed = vec![p];
        self.walk_from(p, (a, b), f64::NEG_INFINITY, &mut crossed, accept, 0)
            .then_some(crossed)
    }

    fn walk_from(
        &self,
        mut p: PolyId,
        (a, b): (DVec2, DVec2),
        mut progress: f64,
        crossed: &mut Vec<PolyId>,
        accept: &dyn Fn(PolyId) -> bool,
        depth: usize,
    ) -> bool {
        let d = b - a;
        for _ in 0..4 * self.s.num_polygons() + 16 {
            if self.inside(p, b) {
                return accept(p);
            }
            let ring = self.s.polygon(p);
            let n = ring.len();
            let side: Vec<f64> = ring
                .iter()
                .map(|&v| self.side(a, b, self.plan[v as usize]))
                .collect();
            if let Some(i) = (0..n).find(|&i| side[i] < 0.0 && side[(i + 1) % n] > 0.0) {
                match self.s.neighbors(p).nth(i).flatten() {
                    Some(q) => p = q,
                    None => return false,
                }
                crossed.push(p);
                continue;
            }
            // Out through a corner on the line, the farthest ahead.
            let Some((k, along)) = (0..n)
                .filter(|&i| side[i] == 0.0)
                .map(|i| (i, d.dot(self.plan[ring[i] as usize] - a)))
                .filter(|&(_, t)| t > progress)
                .max_by(|x, y| x.1.total_cmp(&y.1))
            else {
                return false;
            };
            progress = along;
            let v = ring[k];
            let Some(fan) = self.fan_of(p, v) else {
                return false;
            };
            let ways = self.leaves(v, fan, b);
            match ways[..] {
                [] => return false,
                [q] => {
                    if q != p {
                        p = q;
                        crossed.push(p);
                    }
                }
                _ if depth < 8 => {
                    let len = crossed.len();
                    for q in ways {
                        if q != p {
                            crossed.push(q);
                        }
                        if self.walk_from(q, (a, b), progress, crossed, accept, depth + 1) {
                            return true;
                        }
                        crossed.truncate(len);
                    }
                    return false;
                }
                _ => return false,
            }
        }
        false
    }

    /// The walk from node `i` to node `j` ends at `j`'s corner (on its fan).
    fn node_sees_node(&self, i: usize, j: usize) -> bool {
        let (ni, nj) = (self.nodes[i], self.nodes[j]);
        let (a, b) = (self.at(i), self.at(j));
        if a == b {
            return false;
        }
        let at_j = |last: PolyId| self.fan_of(last, nj.vertex) == Some(nj.fan);
        self.leaves(ni.vertex, ni.fan, b)
            .into_iter()
            .any(|p| self.walk_to(p, a, b, &at_j).is_some())
    }

    /// The length of the shortest path in plan view from `a` in polygon `pa` to `b` in
    /// polygon `pb` (both strictly inside their polygons), `None` when none exists.
    pub fn shortest(&self, a: (PolyId, DVec2), b: (PolyId, DVec2)) -> Option<f64> {
        self.shortest_within(a, b, f64::INFINITY)
    }

    /// [`shortest`](Self::shortest), looking only at paths no longer than `bound` (`None`
    /// when there is none): A* over the reflex wall corners with the straight-line
    /// distance to `b`, each visibility walk made when the search needs it.
    pub fn shortest_within(
        &self,
        (pa, a): (PolyId, DVec2),
        (pb, b): (PolyId, DVec2),
        bound: f64,
    ) -> Option<f64> {
        let in_goal = |last: PolyId| last == pb;
        let mut best = if a.distance(b) <= bound && self.walk_to(pa, a, b, &in_goal).is_some() {
            a.distance(b)
        } else {
            f64::INFINITY
        };
        let limit = |best: f64| best.min(bound);
        let n = self.nodes.len();
        let mut dist = vec![f64::INFINITY; n];
        let mut closed = vec![false; n];
        // (f = g + h, g, node)
        let mut open: BinaryHeap<Open> = BinaryHeap::new();
        let h = |i: usize| self.at(i).distance(b);
        for (i, node) in self.nodes.iter().enumerate() {
            let g = a.distance(self.at(i));
            if g + h(i) > limit(best) {
                continue;
            }
            let at_node = |last: PolyId| self.fan_of(last, node.vertex) == Some(node.fan);
            if self.walk_to(pa, a, self.at(i), &at_node).is_some() {
                dist[i] = g;
                open.push(Open(g + h(i), i));
            }
        }
        while let Some(Open(f, i)) = open.pop() {
            if closed[i] || f > dist[i] + h(i) {
                continue;
            }
            if f >= limit(best) {
                break;
            }
            closed[i] = true;
            let d = dist[i];
            if d + h(i) < best {
                let node = self.nodes[i];
                let reaches = self
                    .leaves(node.vertex, node.fan, b)
                    .into_iter()
                    .any(|p| self.walk_to(p, self.at(i), b, &in_goal).is_some());
                if reaches {
                    best = d + h(i);
                }
            }
            for j in 0..n {
                if closed[j] {
                    continue;
                }
                let g = d + self.at(i).distance(self.at(j));
                if g >= dist[j] || g + h(j) >= limit(best) {
                    continue;
                }
                if self.node_sees_node(i, j) {
                    dist[j] = g;
                    open.push(Open(g + h(j), j));
                }
            }
        }
        (best <= bound && best.is_finite()).then_some(best)
    }

    /// The distance from segment `a`–`b`, walked from polygon `p`, to the nearest wall of its
    /// floor within `reach` (`reach` when none is nearer), or `None` when the walk fails
    /// or ends outside `end` (a polygon sharing a corner with the one the path says). The
    /// floor: the polygons reached from those the walk crosses across shared edges within
    /// `reach` of the segment (plan view).
    pub fn segment_clearance(
        &self,
        p: PolyId,
        a: DVec2,
        b: DVec2,
        end: PolyId,
        reach: f64,
    ) -> Option<f64> {
        self.clearance_within(p, (a, None), (b, None), end, reach)
    }

    /// [`segment_clearance`](Self::segment_clearance) of a segment in 3D (`a`, `b` plan
    /// view and height): an edge counts (as a wall, or to cross) only where, at its point
    /// nearest the segment in plan view, it is within [`STOREY`] in height of the
    /// segment's point there. A ramp joins two storeys, so walking edges by plan distance
    /// alone climbs it onto the floor above the path and finds that floor's walls.
    pub fn segment_clearance_3d(
        &self,
        p: PolyId,
        (a, ha): (DVec2, f64),
        (b, hb): (DVec2, f64),
        end: PolyId,
        reach: f64,
    ) -> Option<f64> {
        self.clearance_within(p, (a, Some(ha)), (b, Some(hb)), end, reach)
    }

    fn clearance_within(
        &self,
        p: PolyId,
        (a, ha): (DVec2, Option<f64>),
        (b, hb): (DVec2, Option<f64>),
        end: PolyId,
        reach: f64,
    ) -> Option<f64> {
        let end_ring = self.s.polygon(end);
        let near_end = |last: PolyId| self.s.polygon(last).iter().any(|v| end_ring.contains(v));
        let crossed = self.walk_to(p, a, b, &near_end)?;
        let up = self.s.up();
        // Whether edge c–d (3D) is on the segment's storey where it is nearest to it.
        let same_storey = |c: DVec3, d: DVec3| match (ha, hb) {
            (Some(ha), Some(hb)) => {
                let (s, t) = nearest_params(a, b, up.plan(c), up.plan(d));
                let h_seg = ha + (hb - ha) * s;
                let h_edge = up.height(c) + (up.height(d) - up.height(c)) * t;
                (h_seg - h_edge).abs() <= STOREY
            }
            _ => true,
        };
        // The polygons of the floor within `reach` of the segment: from the ones crossed,
        // across shared edges.
        let mut seen: Vec<PolyId> = crossed.clone();
        let mut stack = crossed;
        let mut best = reach;
        while let Some(q) = stack.pop() {
            let ring = self.s.polygon(q);
            for (i, n) in self.s.neighbors(q).enumerate() {
                let (vc, vd) = (ring[i] as usize, ring[(i + 1) % ring.len()] as usize);
                let dist = segment_segment(a, b, self.plan[vc], self.plan[vd]);
                if dist >= reach || !same_storey(self.s.vertices()[vc], self.s.vertices()[vd]) {
                    continue;
                }
                match n {
                    None => best = best.min(dist),
                    Some(n) if !seen.contains(&n) => {
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

/// How far apart in height two storeys are at least (world units): an edge farther than
/// this above or below a path is on another floor. The corpus's levels are in metres,
/// with storeys 2 m or more apart; slopes within an agent's reach change less.
pub const STOREY: f64 = 1.0;

/// The parameters `(s, t)` along `a`–`b` and `c`–`d` of their nearest points (plan view):
/// where they cross, or where an end is nearest the other segment.
fn nearest_params(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> (f64, f64) {
    let along = |p: DVec2, u: DVec2, v: DVec2| {
        let uv = v - u;
        if uv.length_squared() > 0.0 {
            ((p - u).dot(uv) / uv.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    let (ab, cd) = (b - a, d - c);
    let den = ab.perp_dot(cd);
    if den != 0.0 {
        let s = (c - a).perp_dot(cd) / den;
        let t = (c - a).perp_dot(ab) / den;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            return (s, t);
        }
    }
    // Not crossing: an end of one is nearest the other.
    [
        (0.0, along(a, c, d)),
        (1.0, along(b, c, d)),
        (along(c, a, b), 0.0),
        (along(d, a, b), 1.0),
    ]
    .into_iter()
    .min_by(|&(s1, t1), &(s2, t2)| {
        let d1 = (a + ab * s1).distance(c + cd * t1);
        let d2 = (a + ab * s2).distance(c + cd * t2);
        d1.total_cmp(&d2)
    })
    .unwrap_or((0.0, 0.0))
}

// ─── Random queries and the checks of a path on a surface ───

/// A random point strictly inside a random polygon (chosen by plan-view area), in 3D on
/// its floor.
pub fn random_point(s: &Surface, rng: &mut Rng, areas: &[f64]) -> (PolyId, DVec3) {
    let total: f64 = areas.iter().sum();
    let mut x = rng.unit() * total;
    let mut p = 0;
    while p + 1 < areas.len() && x >= areas[p] {
        x -= areas[p];
        p += 1;
    }
    let p = p as PolyId;
    let ring = plan_ring(s, p);
    let centre = ring.iter().copied().sum::<DVec2>() / ring.len() as f64;
    // A random convex combination of the corners, pulled towards the centre.
    let weights: Vec<f64> = ring.iter().map(|_| rng.unit() + 1e-3).collect();
    let sum: f64 = weights.iter().sum();
    let q = ring
        .iter()
        .zip(&weights)
        .map(|(&c, &w)| c * (w / sum))
        .sum::<DVec2>();
    let q = centre + (q - centre) * 0.95;
    (p, s.up().join(q, s.floor_height(p, q)))
}

/// Polygon `p`'s corners in plan view.
pub fn plan_ring(s: &Surface, p: PolyId) -> Vec<DVec2> {
    let up = s.up();
    s.polygon(p)
        .iter()
        .map(|&v| up.plan(s.vertices()[v as usize]))
        .collect()
}

/// Every polygon's corners in plan view.
pub fn plan_rings(s: &Surface) -> Vec<Vec<DVec2>> {
    (0..s.num_polygons() as PolyId)
        .map(|p| plan_ring(s, p))
        .collect()
}

/// Every polygon's signed plan-view area.
pub fn plan_areas(s: &Surface) -> Vec<f64> {
    plan_rings(s).iter().map(|r| ring_area(r)).collect()
}

/// Random pairs of points in one piece of the surface.
pub fn pairs(s: &Surface, seed: u64, n: usize) -> Vec<[(PolyId, DVec3); 2]> {
    pairs_weighted(s, seed, n, &plan_areas(s))
}

/// Like [`pairs`], but each end in a polygon drawn uniformly, whatever its area: the small
/// polygons (fans round a vertex, stair steps, slivers at tile seams) get their share.
pub fn pairs_by_polygon(s: &Surface, seed: u64, n: usize) -> Vec<[(PolyId, DVec3); 2]> {
    pairs_weighted(s, seed, n, &vec![1.0; s.num_polygons()])
}

/// Pairs of random points on one piece, polygon `p` drawn with weight `weights[p]`.
fn pairs_weighted(s: &Surface, seed: u64, n: usize, areas: &[f64]) -> Vec<[(PolyId, DVec3); 2]> {
    let pieces = s.pieces();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let a = random_point(s, &mut rng, areas);
        let b = random_point(s, &mut rng, areas);
        if pieces[a.0 as usize] == pieces[b.0 as usize] && a.0 != b.0 {
            out.push([a, b]);
        }
    }
    out
}

pub fn plan_length(s: &Surface, path: &[SurfacePoint]) -> f64 {
    path.windows(2)
        .map(|w| {
            s.up()
                .plan(w[0].position)
                .distance(s.up().plan(w[1].position))
        })
        .sum()
}

/// Every point in the polygon it names, at that floor's height (the detail mesh's, which
/// every bake has), start and end flagged; every segment walks the surface from its start's polygon
/// to its end's floor and keeps `radius` from the walls it passes. Returns the smallest
/// wall distance found (capped at `radius + 1`).
pub fn check_on_surface(o: &SurfaceOracle, s: &Surface, path: &[SurfacePoint], radius: f64) -> f64 {
    let up = s.up();
    assert!(path[0].flags.contains(PointFlags::START));
    assert!(path.last().unwrap().flags.contains(PointFlags::END));
    for (i, p) in path.iter().enumerate() {
        let (plan, h) = up.split(p.position);
        let slack = 1e-9 * (1.0 + plan.abs().max_element());
        let near = |q: PolyId| {
            let ring = s.polygon(q);
            (0..ring.len()).all(|k| {
                let a = up.plan(s.vertices()[ring[k] as usize]);
                let b = up.plan(s.vertices()[ring[(k + 1) % ring.len()] as usize]);
                (b - a).perp_dot(plan - a) >= -slack * (b - a).length()
            })
        };
        assert!(
            near(p.polygon),
            "point {i} {plan} is not in its polygon {}",
            p.polygon
        );
        let corner = s
            .polygon(p.polygon)
            .iter()
            .any(|&v| up.split(s.vertices()[v as usize]) == (plan, h));
        let floor = s.floor_height(p.polygon, plan);
        assert!(
            (corner && s.detail().is_none()) || h == floor,
            "point {i} at height {h}, its polygon's floor is at {floor}"
        );
    }
    let mut least = radius + 1.0;
    let mut at = 0;
    for (i, w) in path.windows(2).enumerate() {
        let (a, b) = (up.split(w[0].position), up.split(w[1].position));
        let c = o
            .segment_clearance_3d(w[0].polygon, a, b, w[1].polygon, radius + 1.0)
            .unwrap_or_else(|| {
                panic!(
                    "segment {i} {} → {} does not walk the surface from polygon {} to {}",
                    w[0].position, w[1].position, w[0].polygon, w[1].polygon
                )
            });
        if c < least {
            (least, at) = (c, i);
        }
    }
    assert!(
        least >= radius - 1e-9,
        "the path comes {least} from a wall at segment {at} ({} → {}), radius {radius}",
        path[at].position,
        path[at + 1].position
    );
    least
}
