//! Shortest paths on a triangle navmesh: Polyanya, and a radius-aware variant.
//!
//! [`NavMeshQuery`] answers "the shortest path from `start` to `goal` for an agent of radius
//! `r`" on a [`NavMesh`], and returns the path and its channel (the triangles it crosses).
//! Like Detour's `dtNavMeshQuery` it owns all its scratch memory, so a query object reused
//! for many queries allocates nothing once its buffers have grown.
//!
//! **Radius 0: exact.** The search is Polyanya (Cui, Harabor & Grastien, *Compromise-free
//! Pathfinding on a Navigation Mesh*, IJCAI 2017) over the mesh's triangles. A search node
//! is a *root* (the start, or a vertex where the path last turned), an *interval* on an edge
//! of the triangle about to be entered, and the cone of directions from the root through
//! the interval. Expanding a node projects the cone onto the far edges of the triangle:
//! the parts in the cone are *observable* successors (same root); the parts behind an
//! interval end that is a corner are *non-observable* successors rooted at that corner.
//! Paths only turn at vertices whose free angle is larger than π (corners of the free
//! region; grid pinches, whose two free quadrants are 90° each, never qualify), and a
//! corner keeps only the best distance it was reached with (root-level pruning). The
//! heuristic is the length of the shortest line from the root through the interval to the
//! goal (reflected across the edge when it lies on the root's side), which never
//! overestimates, so the first goal popped is the Euclidean shortest path in the free
//! region. Cone sides are kept as exact directions from the root to mesh vertices, so
//! orientation tests never use rounded intersection points.
//!
//! **Radius r > 0.** The search only passes through a triangle from one edge to another
//! when the triangle's *width* for that pair of edges is at least `2r` (Demyen & Buro,
//! *Efficient Triangulation-Based Pathfinding*, AAAI 2006: the distance from the vertex the
//! two edges share to the nearest wall across the third edge, found by a bounded walk), and
//! never crosses an edge shorter than `2r` between two wall vertices; the start and goal
//! need clearance `r`. The channel of the point path found this way then goes through the
//! [funnel](mod@super::funnel) with the radius, which gives segments and arcs. This is the
//! shortest path with clearance `r` *in the channel the width-restricted search picked*; it
//! is not always the global optimum for the radius (a wider detour can be shorter once the
//! corners are rounded). When the pruned search finds nothing, a breadth-first search over
//! (triangle, entry edge) states decides whether any channel fits the radius, so
//! [`Error::ChannelTooNarrow`] means that none does; it names the narrowest passage of the
//! point path. [`Error::Unreachable`] means start and goal are not connected at all.
//!
//! Cost: Polyanya expands O(nodes) search nodes, each O(1) (a triangle has two far edges);
//! on grid maps it touches a small part of the mesh. The radius adds the width of each
//! triangle crossed (a walk bounded by `2r`, kept in a fixed 1 MiB cache).
//!
//! Memory grows with what the search touches, never with the mesh: an expanded node leaves
//! 5 bytes (its parent and the edge it came in by, enough to rebuild the channel) and its
//! 88-byte slot is reused, so full nodes are only held for the open list; roots cost 32
//! bytes, the best cost per corner reached and the flood marks live in hash maps.
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::navmesh::{NavMesh, Scene};
//! use pathsmooth::navmesh::NavMeshQuery;
//! // A 10×10 room with a 2×6 pillar: the shortest path bends round its lower corners.
//! let mesh = NavMesh::from_scene(&Scene {
//!     boundary: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
//!     holes: vec![vec![[4.0, 3.0], [6.0, 3.0], [6.0, 9.0], [4.0, 9.0]]],
//! })?;
//! let mut query = NavMeshQuery::new();
//! let path = query.find_path(&mesh, DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0), 0.0)?;
//! assert_eq!(path, [DVec2::new(1.0, 5.0), DVec2::new(4.0, 3.0), DVec2::new(6.0, 3.0), DVec2::new(9.0, 5.0)]);
//! assert!(query.channel().len() >= 2);
//! # Ok::<(), pathsmooth::Error>(())
//! ```

pub mod cheapest;

use std::cmp::Ordering;
use std::collections::hash_map::Entry;
use std::collections::BinaryHeap;

use glam::DVec2;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::{Error, Result};
use crate::geometry::{
    check_within, closest_on_segment, cross, max_map_coordinate, radius_in_effect,
};
use crate::navmesh::funnel::Funnel;
use crate::navmesh::mesh::{NavMesh, TriId, ON_WALL, TURN};
use crate::navmesh::portals::{portals_into, Portal};

const NONE: u32 = u32::MAX;

/// log2 of [`WIDTH_CACHE`].
const WIDTH_CACHE_BITS: u32 = 16;
/// Slots of the width cache (16 bytes each: 1 MiB).
const WIDTH_CACHE: usize = 1 << WIDTH_CACHE_BITS;

/// A width cache slot: the query that wrote it, the corner and its width.
#[derive(Clone, Copy, Debug, Default)]
struct WidthSlot {
    stamp: u32,
    corner: u32,
    width: f64,
}

/// Where a path last turned: the start (`vertex == NONE`) or a mesh vertex.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Root {
    pub(crate) p: DVec2,
    pub(crate) vertex: u32,
    /// Length of the path from the start to `p`.
    pub(crate) g: f64,
    pub(crate) parent: u32,
}

/// A Polyanya search node: the cone from `root` through the interval `[ir, il]` of the
/// entry edge `edge` of triangle `tri` (right end first, as seen from the root). A goal
/// node has `tri == NONE` and says whether the path bends at an interval end (`via`).
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    root: u32,
    tri: u32,
    edge: u8,
    /// 0: straight to the goal; 1: via `ir`; 2: via `il` (goal nodes only).
    via: u8,
    ir: DVec2,
    il: DVec2,
    /// The vertex ids of the interval ends when they are exactly the edge's corners.
    rv: u32,
    lv: u32,
    /// Directions of the cone's sides from the root (exact differences of mesh points).
    rdir: DVec2,
    ldir: DVec2,
}

/// An open-list entry, ordered for a min-heap on `f` (ties: larger `g` first): a search
/// node (`u32`, Polyanya's) or state (`u64`, the cheapest-channel search's).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Open<N = u32> {
    pub(crate) f: f64,
    pub(crate) g: f64,
    pub(crate) node: N,
}

impl<N> PartialEq for Open<N> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<N> Eq for Open<N> {}
impl<N> PartialOrd for Open<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<N> Ord for Open<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.total_cmp(&self.f).then(self.g.total_cmp(&other.g))
    }
}

/// A reusable navmesh path query (see the [module docs](self)). All scratch memory lives
/// here; after the first queries on a mesh, further queries allocate nothing.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{NavMesh, Scene};
/// use pathsmooth::navmesh::NavMeshQuery;
/// let mesh = NavMesh::from_scene(&Scene {
///     boundary: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
///     holes: vec![vec![[4.0, 2.0], [6.0, 2.0], [6.0, 8.0], [4.0, 8.0]]],
/// })?;
/// let mut query = NavMeshQuery::new();
/// // With radius 0.5 the path rounds the pillar's corners at distance 0.5.
/// let path = query.find_path(&mesh, DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0), 0.5)?.to_vec();
/// let corner = DVec2::new(4.0, 8.0);
/// assert!(path.windows(2).all(|w| pathsmooth::geometry::closest_on_segment(corner, w[0], w[1]).0.distance(corner) >= 0.5));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct NavMeshQuery {
    /// Nodes not yet expanded (slots of expanded ones are reused, see `free`).
    nodes: Vec<Node>,
    free: Vec<u32>,
    /// What an expanded node leaves behind (5 bytes, where a node is 88): the link of its
    /// parent (or `NONE`), and the edge through which it entered its triangle, which leads
    /// back to the parent's triangle. Enough to rebuild the channel from the goal.
    link_parent: Vec<u32>,
    link_edge: Vec<u8>,
    roots: Vec<Root>,
    open: BinaryHeap<Open>,
    /// The successors of the node being expanded, before they go to `open`.
    pending: Vec<Open>,
    /// Vertex → best g of a root there (sparse, like the other per-query caches).
    root_best: FxHashMap<u32, f64>,
    /// A fixed-size cache of Demyen–Buro widths (corner `3t + c` → width), slots picked by
    /// hashing the corner and overwritten on collision: widths depend only on the mesh, so a
    /// miss only costs recomputing one, and memory stays [`WIDTH_CACHE`] slots however
    /// large the search (a table for every corner would cost more than the mesh).
    widths: Vec<WidthSlot>,
    /// Tags this query's cache entries (a query may use another mesh than the last).
    stamp: u32,
    /// Triangles visited by the last flood or start fan.
    seen: FxHashSet<u32>,
    /// (triangle, entry edge) state (3t + e) → (best cost, previous state), for the
    /// cheapest-channel search under area costs.
    cost_best: FxHashMap<u64, (f64, u64)>,
    /// The open list of that search.
    cost_open: BinaryHeap<Open<u64>>,
    /// A path buffer for a caller comparing two plans (the world's planner with area
    /// costs), kept here so that it allocates nothing once grown.
    pub(crate) spare: Vec<DVec2>,
    /// (triangle, entry edge) state (3t + e) → previous state, for the breadth-first search.
    states: FxHashMap<u32, u32>,
    queue: Vec<u32>,
    stack: Vec<(u32, u8)>,
    path: Vec<DVec2>,
    channel: Vec<TriId>,
    portals: Vec<Portal>,
    funnel: Funnel,
}

impl NavMeshQuery {
    /// An empty query; buffers grow on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// The path of the last query (empty before the first and after a failed one).
    pub fn path(&self) -> &[DVec2] {
        &self.path
    }

    /// The channel of the last query (empty before the first and after a failed one): the
    /// triangles the path crosses, the first holding the start, the last the goal,
    /// consecutive ones sharing an edge.
    pub fn channel(&self) -> &[TriId] {
        &self.channel
    }

    /// The shortest path from `start` to `goal` for an agent of `radius` (see the
    /// [module docs](self)); also sets [`channel`](Self::channel). A radius below the
    /// mesh's tolerance (10⁻⁹ of its largest coordinate, and at least 10⁻⁹) is a point
    /// agent, as on every [world](crate::world#tolerance). The path starts at
    /// `start`, ends at `goal`, has no consecutive duplicates, and at radius 0 bends only
    /// on mesh vertices.
    ///
    /// Cost: the Polyanya search (O(nodes expanded · log open)), plus with a radius the
    /// widths of the triangles crossed and the O(channel) rounded funnel; no allocation
    /// once the query's buffers have grown.
    ///
    /// Errors: [`Error::NonFinite`] or [`Error::CoordinateOutOfRange`] for a start (point
    /// 0) or goal (point 1) that is not finite or beyond
    /// [`max_map_coordinate`],
    /// [`Error::BadParameter`] for a negative or non-finite radius,
    /// [`Error::OutsideMesh`] for a start or goal outside the free region,
    /// [`Error::TooClose`] when one of them is closer than `radius` to a wall,
    /// [`Error::ChannelTooNarrow`] when no channel has room for the radius (naming the
    /// narrowest passage of the point path), [`Error::Unreachable`] when start and goal
    /// are not connected.
    pub fn find_path(
        &mut self,
        mesh: &NavMesh,
        start: DVec2,
        goal: DVec2,
        radius: f64,
    ) -> Result<&[DVec2]> {
        let found = self
            .locate_ends(mesh, start, goal, radius)
            .and_then(|(s, g, radius)| self.found_path(mesh, (start, s), (goal, g), radius));
        self.forget_on_error(found)?;
        Ok(&self.path)
    }

    /// [`find_path`](Self::find_path) from triangle `s` (holding `start`) to triangle `g`
    /// (holding `goal`), located by the caller: on a layered mesh, whose triangles overlap
    /// in plan view, the floor is the caller's to say. The points and radius are checked as
    /// in `find_path`; the triangles must be the mesh's and hold their points.
    pub(crate) fn find_path_between(
        &mut self,
        mesh: &NavMesh,
        (start, s): (DVec2, TriId),
        (goal, g): (DVec2, TriId),
        radius: f64,
    ) -> Result<&[DVec2]> {
        let found = self
            .check_ends(mesh, start, goal, radius)
            .and_then(|radius| self.found_path(mesh, (start, s), (goal, g), radius));
        self.forget_on_error(found)?;
        Ok(&self.path)
    }

    /// The search between located ends, then with a radius the funnel.
    fn found_path(
        &mut self,
        mesh: &NavMesh,
        (start, s): (DVec2, TriId),
        (goal, g): (DVec2, TriId),
        radius: f64,
    ) -> Result<()> {
        self.search_between(mesh, (start, s), (goal, g), radius)
            .and_then(|radius| {
                if radius > 0.0 {
                    portals_into(mesh, &self.channel, &mut self.portals)?;
                    self.funnel
                        .funnel_into(&self.portals, start, goal, radius, &mut self.path)?;
                }
                Ok(())
            })
    }

    /// The portals of the last [`find_path`](Self::find_path) with a radius (the channel's
    /// shared edges, left and right as seen walking it).
    pub(crate) fn portals(&self) -> &[Portal] {
        &self.portals
    }

    /// The rounded funnel through the last query's [`portals`](Self::portals) with its
    /// circles built at `r` (a planner that meets a passage exactly `2·radius` wide retries
    /// with circles of `radius` itself), into `out`.
    pub(crate) fn refunnel_into(
        &mut self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        r: f64,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        self.funnel
            .round_into(&self.portals, start, goal, radius, r, out)
    }

    /// Empties `path` and `channel` when a query failed, so they only ever hold the last
    /// successful answer.
    fn forget_on_error(&mut self, result: Result<()>) -> Result<()> {
        if result.is_err() {
            self.path.clear();
            self.channel.clear();
        }
        result
    }

    /// Only the channel of [`find_path`](Self::find_path): with a radius the funnel is not
    /// run. Afterwards [`path`](Self::path) holds the shortest path at radius 0 and is
    /// unspecified with a radius. Same errors and cost, less the funnel.
    pub fn find_channel(
        &mut self,
        mesh: &NavMesh,
        start: DVec2,
        goal: DVec2,
        radius: f64,
    ) -> Result<&[TriId]> {
        let found = self
            .locate_ends(mesh, start, goal, radius)
            .and_then(|(s, g, radius)| self.search_between(mesh, (start, s), (goal, g), radius))
            .map(|_| ());
        self.forget_on_error(found)?;
        Ok(&self.channel)
    }

    /// The input checks of every query; returns the radius in effect.
    pub(crate) fn check_ends(
        &mut self,
        mesh: &NavMesh,
        start: DVec2,
        goal: DVec2,
        radius: f64,
    ) -> Result<f64> {
        self.path.clear();
        self.channel.clear();
        // The points first, as every map-aware input is checked (start 0, goal 1).
        check_within(&[start, goal], max_map_coordinate::<f64>())?;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(Error::param("radius", radius, "a finite number ≥ 0"));
        }
        // Below the mesh's tolerance an agent is a point, as on every world.
        Ok(radius_in_effect(radius, mesh.tolerance()))
    }

    /// The checks, then the triangles holding `start` and `goal`, and the radius in effect.
    fn locate_ends(
        &mut self,
        mesh: &NavMesh,
        start: DVec2,
        goal: DVec2,
        radius: f64,
    ) -> Result<(TriId, TriId, f64)> {
        let radius = self.check_ends(mesh, start, goal, radius)?;
        let s = mesh.locate_or_err(start, "start")?;
        let g = mesh.locate_or_err(goal, "goal")?;
        Ok((s, g, radius))
    }

    /// [`Error::TooClose`] when the start or the goal (in triangle `s`, `g`) has a wall
    /// within `radius`; then `seen` is clean again for a search.
    pub(super) fn ends_have_room(
        &mut self,
        mesh: &NavMesh,
        (start, s): (DVec2, TriId),
        (goal, g): (DVec2, TriId),
        radius: f64,
    ) -> Result<()> {
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
        // The floods above marked `seen`; the search needs it clean.
        self.begin();
        Ok(())
    }

    /// The search of `find_path` and `find_channel` between located ends; returns the
    /// radius in effect.
    fn search_between(
        &mut self,
        mesh: &NavMesh,
        (start, s): (DVec2, TriId),
        (goal, g): (DVec2, TriId),
        radius: f64,
    ) -> Result<f64> {
        self.ends_have_room(mesh, (start, s), (goal, g), radius)?;
        if s == g {
            self.channel.push(s);
            self.path.push(start);
            if goal != start {
                self.path.push(goal);
            }
            return Ok(radius);
        }
        if let Some(found) = self.polyanya(mesh, start, goal, s as u32, g as u32, radius) {
            self.reconstruct(mesh, start, goal, [s, g], found);
            return Ok(radius);
        }
        let unreachable = Error::Unreachable {
            sx: start.x,
            sy: start.y,
            gx: goal.x,
            gy: goal.y,
        };
        if radius == 0.0 {
            return Err(unreachable);
        }
        if self.breadth_first(mesh, s, g, radius) {
            return Ok(radius);
        }
        // No channel fits: find the point path and name its narrowest passage.
        self.begin();
        match self.polyanya(mesh, start, goal, s as u32, g as u32, 0.0) {
            None => Err(unreachable),
            Some(found) => {
                self.reconstruct(mesh, start, goal, [s, g], found);
                Err(self.narrowest(mesh, radius))
            }
        }
    }

    /// Starts a query: the per-query caches emptied (their capacity kept).
    fn begin(&mut self) {
        self.root_best.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.widths.is_empty() {
            // First query, or the stamp wrapped: no entry may look current.
            self.widths.clear();
            self.widths.resize(WIDTH_CACHE, WidthSlot::default());
            self.stamp = 1;
        }
        self.states.clear();
        self.seen.clear();
    }

    /// Demyen & Buro's width of triangle `t` between the two edges meeting at corner `c`:
    /// the room an agent has passing from one to the other (kept in the width cache).
    fn width(&mut self, mesh: &NavMesh, t: usize, c: usize) -> f64 {
        let key = (3 * t + c) as u32;
        let slot = key.wrapping_mul(0x9e37_79b9) as usize >> (32 - WIDTH_CACHE_BITS);
        let cached = self.widths[slot];
        if cached.stamp == self.stamp && cached.corner == key {
            return cached.width;
        }
        let tri = mesh.triangle(t);
        let (cp, a, b) = (tri[c], tri[(c + 1) % 3], tri[(c + 2) % 3]);
        let mut d = cp.distance(a).min(cp.distance(b));
        // Walk across the third edge while it could hold a wall closer than d.
        self.stack.clear();
        self.stack.push((t as u32, ((c + 1) % 3) as u8));
        while let Some((u, e)) = self.stack.pop() {
            let tu = mesh.triangle(u as usize);
            let (p, q) = (tu[e as usize], tu[(e as usize + 1) % 3]);
            // The nearest point of the edge is an end: nothing beyond it is closer.
            if (cp - p).dot(q - p) <= 0.0 || (cp - q).dot(p - q) <= 0.0 {
                continue;
            }
            let (near, _) = closest_on_segment(cp, p, q);
            let d2 = cp.distance(near);
            if d2 >= d {
                continue;
            }
            match mesh.neighbors(u as usize)[e as usize] {
                None => d = d2,
                Some(n) => {
                    if let Some(k) = mesh.shared_edge(n, u as usize) {
                        self.stack.push((n as u32, ((k + 1) % 3) as u8));
                        self.stack.push((n as u32, ((k + 2) % 3) as u8));
                    }
                }
            }
        }
        self.widths[slot] = WidthSlot {
            stamp: self.stamp,
            corner: key,
            width: d,
        };
        d
    }

    /// True when an agent of radius `r` may cross edge `e` of triangle `t`: the edge is at
    /// least `2r` long, or one of its ends is not on a wall.
    fn edge_fits(&mut self, mesh: &NavMesh, t: usize, e: usize, r: f64) -> bool {
        if r == 0.0 {
            return true;
        }
        let tri = mesh.triangle(t);
        if tri[e].distance(tri[(e + 1) % 3]) >= 2.0 * r {
            return true;
        }
        mesh.corner_flags(t, e) & ON_WALL == 0 || mesh.corner_flags(t, (e + 1) % 3) & ON_WALL == 0
    }

    /// True when an agent of radius `r` may pass through triangle `t` from edge `from` to
    /// edge `to` (and cross `to`).
    fn passes(&mut self, mesh: &NavMesh, t: usize, from: usize, to: usize, r: f64) -> bool {
        if r == 0.0 {
            return true;
        }
        // The corner shared by edges `from` and `to`.
        let c = if to == (from + 1) % 3 { to } else { from };
        self.width(mesh, t, c) >= 2.0 * r && self.edge_fits(mesh, t, to, r)
    }

    /// The distance from `p` (in triangle `t`) to the nearest wall when it is below `r`,
    /// by a flood over the triangles within `r` of `p`.
    fn wall_within(&mut self, mesh: &NavMesh, p: DVec2, t: usize, r: f64) -> Option<f64> {
        let mut nearest = r;
        self.queue.clear();
        self.queue.push(t as u32);
        self.seen.clear();
        self.seen.insert(t as u32);
        while let Some(u) = self.queue.pop() {
            let tri = mesh.triangle(u as usize);
            for e in 0..3 {
                let (a, b) = (tri[e], tri[(e + 1) % 3]);
                let d = p.distance(closest_on_segment(p, a, b).0);
                if d >= r {
                    continue;
                }
                match mesh.neighbors(u as usize)[e] {
                    None => nearest = nearest.min(d),
                    Some(n) if self.seen.insert(n as u32) => self.queue.push(n as u32),
                    Some(_) => {}
                }
            }
        }
        (nearest < r).then_some(nearest)
    }

    /// Polyanya from `start` (in triangle `s`) to `goal` (in `g`) with the width rule for
    /// `r`; the goal node, or `None` when the open list runs dry.
    fn polyanya(
        &mut self,
        mesh: &NavMesh,
        start: DVec2,
        goal: DVec2,
        s: u32,
        g: u32,
        r: f64,
    ) -> Option<Node> {
        self.nodes.clear();
        self.free.clear();
        self.link_parent.clear();
        self.link_edge.clear();
        self.roots.clear();
        self.open.clear();
        self.pending.clear();
        self.roots.push(Root {
            p: start,
            vertex: NONE,
            g: 0.0,
            parent: NONE,
        });
        self.seen.insert(s);
        let tris = mesh.triangle_indices();
        let verts = mesh.vertices();
        for k in 0..3 {
            let Some(n) = mesh.neighbors(s as usize)[k] else {
                continue;
            };
            if !self.edge_fits(mesh, s as usize, k, r) {
                continue;
            }
            // Crossing edge k of s (from corner k to k + 1): in n, left is corner k + 1.
            let (lv, rv) = (tris[s as usize][(k + 1) % 3], tris[s as usize][k]);
            let (lp, rp) = (verts[lv as usize], verts[rv as usize]);
            self.push(
                mesh,
                goal,
                Node {
                    parent: NONE,
                    root: 0,
                    tri: n as u32,
                    edge: 0,
                    via: 0,
                    ir: rp,
                    il: lp,
                    rv,
                    lv,
                    rdir: rp - start,
                    ldir: lp - start,
                },
                s,
                g,
            );
        }
        self.flush_pending();
        while let Some(Open { node, .. }) = self.open.pop() {
            let nd = self.nodes[node as usize];
            self.free.push(node);
            if nd.tri == NONE {
                return Some(nd);
            }
            let root = self.roots[nd.root as usize];
            if root.vertex != NONE {
                let best = self.root_best[&root.vertex];
                if root.g > best + 1e-12 * (1.0 + best) {
                    continue;
                }
            }
            // Intermediate pruning (Cui et al.): while a node has exactly one successor
            // with the same root, expand that at once instead of going through the heap
            // (its f is at least this node's, and the goal still goes through the heap).
            let mut at = nd;
            // A cone never re-enters a triangle, so the chain is bounded by the mesh; the
            // bound only guards against rounding surprises.
            for _ in 0..=mesh.num_triangles() {
                self.pending.clear();
                self.expand(mesh, goal, at, g, r);
                match self.pending[..] {
                    [only] if self.nodes[only.node as usize].root == at.root => {
                        // Expanded next, never through the open list.
                        at = self.nodes[only.node as usize];
                        self.free.push(only.node);
                        self.pending.clear();
                    }
                    _ => break,
                }
            }
            self.flush_pending();
        }
        None
    }

    /// Moves the successors of the last expansion to the open list.
    fn flush_pending(&mut self) {
        for k in 0..self.pending.len() {
            self.open.push(self.pending[k]);
        }
        self.pending.clear();
    }

    /// Pushes `node` (whose `edge` is filled in here) entering its triangle from `from`.
    fn push(&mut self, mesh: &NavMesh, goal: DVec2, mut node: Node, from: u32, g: u32) {
        let t = node.tri as usize;
        let Some(e) = mesh.shared_edge(t, from as usize) else {
            return;
        };
        node.edge = e as u8;
        let tri = mesh.triangle_indices()[t];
        let verts = mesh.vertices();
        let (lv, rv) = (tri[e], tri[(e + 1) % 3]);
        let (lp, rp) = (verts[lv as usize], verts[rv as usize]);
        let root = self.roots[node.root as usize];
        let on_line = cross(rp - lp, root.p - lp) == 0.0;
        if on_line {
            // The root lies on the entry edge's line (it is one of its corners, or the
            // start on the edge): the whole triangle is in view.
            if root.vertex == NONE {
                // Rotating about a start that sits on a vertex: visit each triangle once.
                if !self.seen.insert(t as u32) {
                    return;
                }
            }
            node.ir = rp;
            node.il = lp;
            node.rv = rv;
            node.lv = lv;
            node.rdir = rp - lp;
            node.ldir = lp - rp;
        } else if node.ir == node.il {
            return;
        }
        // A dead end (both far edges are walls) can only matter when it holds the goal.
        if node.tri != g {
            let nb = mesh.neighbors(t);
            if nb[(e + 1) % 3].is_none() && nb[(e + 2) % 3].is_none() {
                return;
            }
        }
        let h = if on_line {
            root.p.distance(reflect_behind(goal, lp, rp, root.p))
        } else {
            let q = reflect_behind(goal, lp, rp, root.p);
            through_interval(root.p, node.ir, node.il, q)
        };
        let idx = self.alloc(node);
        self.pending.push(Open {
            f: root.g + h,
            g: root.g,
            node: idx,
        });
    }

    /// A new root at vertex `v` (point `p`) reached from root `from`, or `None` when `v` was
    /// already reached at least as cheaply (root-level pruning).
    fn new_root(&mut self, from: u32, v: u32, p: DVec2) -> Option<u32> {
        let parent = self.roots[from as usize];
        let g = parent.g + parent.p.distance(p);
        let slot = self.root_best.entry(v).or_insert(f64::INFINITY);
        if g >= *slot - 1e-12 * (1.0 + *slot) {
            return None;
        }
        *slot = g;
        self.roots.push(Root {
            p,
            vertex: v,
            g,
            parent: from,
        });
        Some(self.roots.len() as u32 - 1)
    }

    /// A slot for `node`: a free one, else a new one.
    fn alloc(&mut self, node: Node) -> u32 {
        match self.free.pop() {
            Some(slot) => {
                self.nodes[slot as usize] = node;
                slot
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() as u32 - 1
            }
        }
    }

    /// Expands `nd` (no longer in `nodes`): its successors go to `pending`, a goal node
    /// straight to `open`, and its link to `links`.
    fn expand(&mut self, mesh: &NavMesh, goal: DVec2, nd: Node, g: u32, r: f64) {
        let idx = self.link_parent.len() as u32;
        self.link_parent.push(nd.parent);
        self.link_edge.push(nd.edge);
        let root = self.roots[nd.root as usize];
        let rp = root.p;
        let t = nd.tri as usize;
        if nd.tri == g {
            // The goal's triangle: straight to it when the cone holds it, else via the
            // interval end on its side — the shortest path through the interval.
            let (cost, via) = if cross(nd.rdir, goal - rp) < 0.0 {
                (rp.distance(nd.ir) + nd.ir.distance(goal), 1)
            } else if cross(nd.ldir, goal - rp) > 0.0 {
                (rp.distance(nd.il) + nd.il.distance(goal), 2)
            } else {
                (rp.distance(goal), 0)
            };
            let node = self.alloc(Node {
                parent: idx,
                tri: NONE,
                via,
                ..nd
            });
            self.open.push(Open {
                f: root.g + cost,
                g: f64::INFINITY,
                node,
            });
            return;
        }
        let k = nd.edge as usize;
        let tri = mesh.triangle_indices()[t];
        let verts = mesh.vertices();
        let (lvid, rvid, wvid) = (tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
        let (l, rr, w) = (
            verts[lvid as usize],
            verts[rvid as usize],
            verts[wvid as usize],
        );
        let nb = mesh.neighbors(t);
        // Across R–W (edge k + 1) and across W–L (edge k + 2), when the radius fits.
        // Whether the agent fits is asked only for an edge that gets a successor (widths
        // cost a walk the first time).
        let (has_right, has_left) = (nb[(k + 1) % 3].is_some(), nb[(k + 2) % 3].is_some());
        if !has_right && !has_left {
            return;
        }
        let (kr, kl) = ((k + 1) % 3, (k + 2) % 3);
        let n1 = nb[(k + 1) % 3].unwrap_or(0) as u32;
        let n2 = nb[(k + 2) % 3].unwrap_or(0) as u32;
        let o_r = cross(nd.rdir, w - rp);
        let o_l = cross(nd.ldir, w - rp);
        let succ = |root: u32, ir: DVec2, rv: u32, il: DVec2, lv: u32, rdir, ldir, tri| Node {
            parent: idx,
            root,
            tri,
            edge: 0,
            via: 0,
            ir,
            il,
            rv,
            lv,
            rdir,
            ldir,
        };
        let t32 = t as u32;
        if o_r <= 0.0 {
            // W is right of (or on) the right side: the cone leaves through W–L only.
            let (pr, prv) = if o_r == 0.0 {
                (w, wvid)
            } else {
                hit(rp, nd.rdir, w, wvid, l, lvid)
            };
            let (pl, plv) = hit(rp, nd.ldir, w, wvid, l, lvid);
            if has_left && self.passes(mesh, t, k, kl, r) {
                let n = succ(nd.root, pr, prv, pl, plv, nd.rdir, nd.ldir, n2);
                self.push(mesh, goal, n, t32, g);
            }
            // Behind the right end R: turn there.
            if nd.rv == rvid
                && rvid != root.vertex
                && mesh.corner_flags(t, (k + 1) % 3) & TURN != 0
                && let Some(nr) = self.new_root(nd.root, rvid, rr)
            {
                if has_right && self.passes(mesh, t, k, kr, r) {
                    let n = succ(nr, rr, rvid, w, wvid, rr - w, w - rr, n1);
                    self.push(mesh, goal, n, t32, g);
                }
                if o_r < 0.0 && has_left && self.passes(mesh, t, k, kl, r) {
                    let n = succ(nr, w, wvid, pr, prv, w - rr, nd.rdir, n2);
                    self.push(mesh, goal, n, t32, g);
                }
            }
        } else if o_l >= 0.0 {
            // W is left of (or on) the left side: the cone leaves through R–W only.
            let (pl, plv) = if o_l == 0.0 {
                (w, wvid)
            } else {
                hit(rp, nd.ldir, rr, rvid, w, wvid)
            };
            let (pr, prv) = hit(rp, nd.rdir, rr, rvid, w, wvid);
            if has_right && self.passes(mesh, t, k, kr, r) {
                let n = succ(nd.root, pr, prv, pl, plv, nd.rdir, nd.ldir, n1);
                self.push(mesh, goal, n, t32, g);
            }
            if nd.lv == lvid
                && lvid != root.vertex
                && mesh.corner_flags(t, k) & TURN != 0
                && let Some(nr) = self.new_root(nd.root, lvid, l)
            {
                if has_left && self.passes(mesh, t, k, kl, r) {
                    let n = succ(nr, w, wvid, l, lvid, w - l, l - w, n2);
                    self.push(mesh, goal, n, t32, g);
                }
                if o_l > 0.0 && has_right && self.passes(mesh, t, k, kr, r) {
                    let n = succ(nr, pl, plv, w, wvid, nd.ldir, w - l, n1);
                    self.push(mesh, goal, n, t32, g);
                }
            }
        } else {
            // W is inside the cone: both far edges are partly in view.
            if has_right && self.passes(mesh, t, k, kr, r) {
                let (pr, prv) = hit(rp, nd.rdir, rr, rvid, w, wvid);
                let n = succ(nd.root, pr, prv, w, wvid, nd.rdir, w - rp, n1);
                self.push(mesh, goal, n, t32, g);
            }
            if has_left && self.passes(mesh, t, k, kl, r) {
                let (pl, plv) = hit(rp, nd.ldir, w, wvid, l, lvid);
                let n = succ(nd.root, w, wvid, pl, plv, w - rp, nd.ldir, n2);
                self.push(mesh, goal, n, t32, g);
            }
        }
    }

    /// Fills `path` and `channel` from the goal node.
    fn reconstruct(
        &mut self,
        mesh: &NavMesh,
        start: DVec2,
        goal: DVec2,
        [s, g]: [usize; 2],
        nd: Node,
    ) {
        self.path.clear();
        self.path.push(goal);
        match nd.via {
            1 => self.path.push(nd.ir),
            2 => self.path.push(nd.il),
            _ => {}
        }
        let mut r = nd.root;
        while r != NONE {
            let root = self.roots[r as usize];
            if root.vertex == NONE {
                self.path.push(start);
            } else {
                self.path.push(root.p);
            }
            r = root.parent;
        }
        self.path.reverse();
        self.path.dedup();
        // Back from the goal's triangle (where the goal node's parent was expanded) through
        // each expanded node's entry edge; the first nodes entered from the start's triangle.
        self.channel.clear();
        let mut t = g;
        let mut n = nd.parent;
        while n != NONE {
            self.channel.push(t);
            t = mesh
                .across(t, self.link_edge[n as usize] as usize)
                .unwrap_or(s);
            n = self.link_parent[n as usize];
        }
        self.channel.push(s);
        self.channel.reverse();
    }

    /// Breadth-first search over (triangle, entry edge) with the width rule for `r`; on
    /// success fills `channel` (not the shortest) and returns true.
    fn breadth_first(&mut self, mesh: &NavMesh, s: usize, g: usize, r: f64) -> bool {
        // This search runs at most once per query (`begin` cleared `states`).
        self.queue.clear();
        let mut head = 0;
        for k in 0..3 {
            let Some(n) = mesh.neighbors(s)[k] else {
                continue;
            };
            if !self.edge_fits(mesh, s, k, r) {
                continue;
            }
            let Some(e) = mesh.shared_edge(n, s) else {
                continue;
            };
            let st = (3 * n + e) as u32;
            if let Entry::Vacant(slot) = self.states.entry(st) {
                slot.insert(NONE);
                self.queue.push(st);
            }
        }
        let mut found = NONE;
        while head < self.queue.len() {
            let st = self.queue[head];
            head += 1;
            let (t, e) = (st as usize / 3, st as usize % 3);
            if t == g {
                found = st;
                break;
            }
            for x in [(e + 1) % 3, (e + 2) % 3] {
                let Some(n) = mesh.neighbors(t)[x] else {
                    continue;
                };
                if !self.passes(mesh, t, e, x, r) {
                    continue;
                }
                let Some(ne) = mesh.shared_edge(n, t) else {
                    continue;
                };
                let nst = (3 * n + ne) as u32;
                if let Entry::Vacant(slot) = self.states.entry(nst) {
                    slot.insert(st);
                    self.queue.push(nst);
                }
            }
        }
        if found == NONE {
            return false;
        }
        self.channel.clear();
        let mut st = found;
        while st != NONE {
            self.channel.push(st as usize / 3);
            st = self.states[&st];
        }
        self.channel.push(s);
        self.channel.reverse();
        true
    }

    /// The narrowest passage of the current channel for `r`, as a [`ChannelTooNarrow`]
    /// error: the smallest crossed-edge length or triangle width along it.
    ///
    /// [`ChannelTooNarrow`]: Error::ChannelTooNarrow
    fn narrowest(&mut self, mesh: &NavMesh, radius: f64) -> Error {
        let mut best = (f64::INFINITY, 0usize, DVec2::ZERO);
        let channel = std::mem::take(&mut self.channel);
        for (i, w) in channel.windows(2).enumerate() {
            let (t, n) = (w[0], w[1]);
            let Some(x) = mesh.shared_edge(t, n) else {
                continue;
            };
            let tri = mesh.triangle(t);
            let (a, b) = (tri[x], tri[(x + 1) % 3]);
            let both_walls = mesh.corner_flags(t, x) & ON_WALL != 0
                && mesh.corner_flags(t, (x + 1) % 3) & ON_WALL != 0;
            if both_walls && a.distance(b) < best.0 {
                best = (a.distance(b), i, (a + b) * 0.5);
            }
            if i > 0
                && let Some(from) = mesh.shared_edge(t, channel[i - 1])
            {
                let c = if x == (from + 1) % 3 { x } else { from };
                let wdt = self.width(mesh, t, c);
                if wdt < best.0 {
                    best = (wdt, i, (a + b) * 0.5);
                }
            }
        }
        self.channel = channel;
        Error::ChannelTooNarrow {
            index: best.1,
            x: best.2.x,
            y: best.2.y,
            width: best.0,
            radius,
        }
    }
}

/// Where the line from `root` in direction `dir` meets segment `a`–`b` (clamped to it),
/// with the vertex id when that is an end: exactly, or within 10⁻¹² of the coordinates'
/// magnitude of the line. (Vertices on one straight line — a diagonal through a grid of
/// tiles, as Unity's, Godot's and Recast's meshes have — are on it only to the rounding of
/// their coordinates; taking the point a few ulps beside the vertex instead would lose the
/// turn a taut path makes there.)
#[inline]
pub(crate) fn hit(root: DVec2, dir: DVec2, a: DVec2, av: u32, b: DVec2, bv: u32) -> (DVec2, u32) {
    // Within 10⁻¹² of the coordinates' magnitude of the line: the rounding of decimal
    // coordinates (a vertex on a straight run is on it only to that), far below any
    // feature of a mesh.
    let on_line = |p: DVec2| {
        let c = cross(dir, p - root);
        let magnitude = p.abs().max_element().max(root.abs().max_element()).max(1.0);
        c == 0.0 || c.abs() <= 1e-12 * magnitude * dir.length()
    };
    if on_line(a) {
        return (a, av);
    }
    if on_line(b) {
        return (b, bv);
    }
    let den = cross(dir, b - a);
    if den == 0.0 {
        return (a, av);
    }
    let t = cross(dir, root - a) / den;
    if t <= 0.0 {
        (a, av)
    } else if t >= 1.0 {
        (b, bv)
    } else {
        (a.lerp(b, t), NONE)
    }
}

/// `goal` mirrored across the line `l`–`r` when it lies strictly on the same side as
/// `root` (a path from the root through the edge must come back).
#[inline]
pub(crate) fn reflect_behind(goal: DVec2, l: DVec2, r: DVec2, root: DVec2) -> DVec2 {
    let d = r - l;
    let (sg, sr) = (cross(d, goal - l), cross(d, root - l));
    if (sg > 0.0 && sr > 0.0) || (sg < 0.0 && sr < 0.0) {
        let len2 = d.length_squared();
        if len2 > 0.0 {
            let foot = l + d * ((goal - l).dot(d) / len2);
            return 2.0 * foot - goal;
        }
    }
    goal
}

/// Length of the shortest path from `root` through the segment `ir`–`il` to `q`.
#[inline]
pub(crate) fn through_interval(root: DVec2, ir: DVec2, il: DVec2, q: DVec2) -> f64 {
    let right = cross(ir - root, q - root);
    let left = cross(il - root, q - root);
    if right >= 0.0 && left <= 0.0 {
        root.distance(q)
    } else if right < 0.0 {
        root.distance(ir) + ir.distance(q)
    } else {
        root.distance(il) + il.distance(q)
    }
}

/// Channel searches on a fresh query: for one-off calls (each allocates the query's
/// scratch); keep a [`NavMeshQuery`] for repeated ones.
impl NavMesh {
    /// The channel of the shortest path from `start` to `goal`: triangle ids, the first
    /// holding `start`, the last holding `goal`, consecutive ones sharing an edge.
    ///
    /// The search is Polyanya ([`NavMeshQuery`], Cui, Harabor
    /// & Grastien, IJCAI 2017), so the funnel through this channel is the Euclidean shortest
    /// path in the free region. It runs a fresh query, which allocates its scratch; for
    /// repeated searches keep a [`NavMeshQuery`] and call
    /// [`NavMeshQuery::find_channel`]. [`find_channel_for_radius`](Self::find_channel_for_radius)
    /// restricts it to passages an agent of a given radius fits through.
    ///
    /// Errors: [`Error::OutsideMesh`] for a start or goal outside the free region,
    /// [`Error::Unreachable`] when they lie in different components.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 1.0], [0.0, 1.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let c = mesh.find_channel(DVec2::new(0.2, 0.5), DVec2::new(3.8, 0.5))?;
    /// assert!(mesh.triangle_contains(c[0], DVec2::new(0.2, 0.5)));
    /// assert!(mesh.find_channel(DVec2::new(5.0, 0.5), DVec2::new(1.0, 0.5)).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn find_channel(&self, start: DVec2, goal: DVec2) -> Result<Vec<TriId>> {
        self.find_channel_for_radius(start, goal, 0.0)
    }

    /// [`find_channel`](Self::find_channel) for an agent of `radius`: only through
    /// passages at least `2·radius` wide (Demyen & Buro's triangle widths), with start and
    /// goal at least `radius` from every wall. Errors as
    /// [`NavMeshQuery::find_path`].
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::{NavMesh, Scene};
    /// // A room with a 1-wide gap in a wall: radius 0.4 fits, 0.6 does not.
    /// let scene = Scene {
    ///     boundary: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
    ///     holes: vec![
    ///         vec![[4.0, 0.5], [5.0, 0.5], [5.0, 4.5], [4.0, 4.5]],
    ///         vec![[4.0, 5.5], [5.0, 5.5], [5.0, 9.5], [4.0, 9.5]],
    ///     ],
    /// };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let (s, g) = (DVec2::new(2.0, 5.0), DVec2::new(8.0, 5.0));
    /// assert!(mesh.find_channel_for_radius(s, g, 0.4).is_ok());
    /// assert!(mesh.find_channel_for_radius(s, g, 0.6).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn find_channel_for_radius(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
    ) -> Result<Vec<TriId>> {
        NavMeshQuery::new()
            .find_channel(self, start, goal, radius)
            .map(<[TriId]>::to_vec)
    }
}
