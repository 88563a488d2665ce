//! Shortest paths on a triangle navmesh: Polyanya, and a radius-aware variant.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`NavMeshQuery`].)

pub(crate) mod cheapest;
mod widths;

use std::collections::hash_map::Entry;
use std::collections::BinaryHeap;

use glam::DVec2;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::{Error, Result};
use crate::geometry::{check_within, closest_on_segment, max_map_coordinate, radius_in_effect};
use crate::navmesh::funnel::Funnel;
use crate::navmesh::mesh::{NavMesh, TriId, ON_WALL};
use crate::navmesh::polyanya::{Open, Polyanya, Unfiltered};
use crate::navmesh::portals::{portals_into, Portal};
use widths::{edge_fits, RadiusRule, Widths};

/// A query's start and goal, each with the triangle of the mesh that holds it.
pub(crate) type Ends = [(DVec2, TriId); 2];

const NONE: u32 = u32::MAX;

/// Shortest paths on a triangle navmesh: Polyanya, and a radius-aware variant.
///
/// [`NavMeshQuery`] answers "the shortest path from `start` to `goal` for an agent of radius
/// `r`" on a [`NavMesh`], and returns the path and its channel (the triangles it crosses).
/// Like Detour's `dtNavMeshQuery` it owns all its scratch memory, so a query object reused
/// for many queries allocates nothing once its buffers have grown.
///
/// **Radius 0: exact.** The search is Polyanya (Cui, Harabor & Grastien, *Compromise-free
/// Pathfinding on a Navigation Mesh*, IJCAI 2017) over the mesh's triangles: the library's
/// one Polyanya (`navmesh::polyanya`, which the layered query runs over a surface's
/// polygons too), so the first goal it pops is the Euclidean shortest path in the free
/// region. Paths only turn at vertices whose free angle is larger than π (corners of the
/// free region; grid pinches never qualify).
///
/// **Radius r > 0.** The same search, with the radius rule as its edge filter: it only
/// passes through a triangle from one edge to another
/// when the triangle's *width* for that pair of edges is at least `2r` (Demyen & Buro,
/// *Efficient Triangulation-Based Pathfinding*, AAAI 2006: the distance from the vertex the
/// two edges share to the nearest wall across the third edge, found by a bounded walk), and
/// never crosses an edge shorter than `2r` between two wall vertices; the start and goal
/// need clearance `r`. The channel of the point path found this way then goes through the
/// [funnel](Funnel) with the radius, which gives segments and arcs. This is the
/// shortest path with clearance `r` *in the channel the width-restricted search picked*; it
/// is not always the global optimum for the radius (a wider detour can be shorter once the
/// corners are rounded). When the pruned search finds nothing, a breadth-first search over
/// (triangle, entry edge) states decides whether any channel fits the radius, so
/// [`Error::ChannelTooNarrow`] means that none does; it names the narrowest passage of the
/// point path. [`Error::Unreachable`] means start and goal are not connected at all.
///
/// Cost: Polyanya expands O(nodes) search nodes, each O(1) (a triangle has two far edges);
/// on grid maps it touches a small part of the mesh. The radius adds the width of each
/// triangle crossed (a walk bounded by `2r`, kept in a fixed 1 MiB cache).
///
/// Memory: the search keeps 12 bytes a vertex and 4 a triangle (dense, stamped, grown to
/// the largest mesh queried, so a query clears nothing), the nodes it holds in its open
/// list and 8 bytes per node expanded; the width cache is 1 MiB; the floods' marks live in
/// hash maps.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{NavMesh, Scene};
/// use pathsmooth::navmesh::NavMeshQuery;
/// // A 10×10 room with a 2×6 pillar: the shortest path bends round its lower corners.
/// let mesh = NavMesh::from_scene(&Scene {
///     boundary: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
///     holes: vec![vec![[4.0, 3.0], [6.0, 3.0], [6.0, 9.0], [4.0, 9.0]]],
/// })?;
/// let mut query = NavMeshQuery::new();
/// let path = query.find_path(&mesh, DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0), 0.0)?;
/// assert_eq!(path, [DVec2::new(1.0, 5.0), DVec2::new(4.0, 3.0), DVec2::new(6.0, 3.0), DVec2::new(9.0, 5.0)]);
/// assert!(query.channel().len() >= 2);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// A reusable navmesh path query (see above). All scratch memory lives
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
    /// The exact search (Polyanya over the triangles).
    search: Polyanya,
    /// Demyen–Buro widths, the radius rule's cache.
    widths: Widths,
    /// Triangles visited by the last flood.
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
    path: Vec<DVec2>,
    channel: Vec<TriId>,
    portals: Vec<Portal>,
    /// The start and goal of the search that found `portals`.
    portal_ends: [DVec2; 2],
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
    /// [`NavMeshQuery`]'s docs); also sets [`channel`](Self::channel). A radius below the
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
        self.located(mesh, (start, goal), radius, |query, ends, radius| {
            query.found_path(mesh, ends, radius)
        })
    }

    /// Locates `start` and `goal` (after the checks of every query), runs `search` between
    /// them with the radius in effect, and answers its path (emptied on an error).
    pub(super) fn located(
        &mut self,
        mesh: &NavMesh,
        (start, goal): (DVec2, DVec2),
        radius: f64,
        search: impl FnOnce(&mut Self, Ends, f64) -> Result<()>,
    ) -> Result<&[DVec2]> {
        let found = self
            .locate_ends(mesh, start, goal, radius)
            .and_then(|(s, g, radius)| search(self, [(start, s), (goal, g)], radius));
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
        ends @ [(start, _), (goal, _)]: Ends,
        radius: f64,
    ) -> Result<&[DVec2]> {
        let found = self
            .check_ends(mesh, start, goal, radius)
            .and_then(|radius| self.found_path(mesh, ends, radius));
        self.forget_on_error(found)?;
        Ok(&self.path)
    }

    /// The search between located ends, then with a radius the funnel.
    fn found_path(
        &mut self,
        mesh: &NavMesh,
        [(start, s), (goal, g)]: Ends,
        radius: f64,
    ) -> Result<()> {
        self.search_between(mesh, [(start, s), (goal, g)], radius)
            .and_then(|radius| {
                if radius > 0.0 {
                    self.funnel_channel(mesh, start, goal, radius)?;
                }
                Ok(())
            })
    }

    /// The portals of the channel just found and the funnel through them from `start` to
    /// `goal` for `radius` into the path; the ends are kept with the portals, for
    /// [`refunnel_into`](Self::refunnel_into).
    fn funnel_channel(
        &mut self,
        mesh: &NavMesh,
        start: DVec2,
        goal: DVec2,
        radius: f64,
    ) -> Result<()> {
        portals_into(mesh, &self.channel, &mut self.portals)?;
        self.portal_ends = [start, goal];
        self.funnel
            .funnel_into(&self.portals, start, goal, radius, &mut self.path)
    }

    /// The rounded funnel through the portals of the last [`find_path`](Self::find_path)
    /// with a radius (the channel's shared edges), between the ends that query had, with its circles built at `r` (a planner that meets a passage
    /// exactly `2·radius` wide retries with circles of `radius` itself), into `out`.
    pub(crate) fn refunnel_into(
        &mut self,
        radius: f64,
        r: f64,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        let [start, goal] = self.portal_ends;
        self.funnel
            .round_into(&self.portals, start, goal, radius, r, out)
    }

    /// The path from the last query's start through the midpoints of its portals (as
    /// [`refunnel_into`](Self::refunnel_into)'s) to its goal, without consecutive repeats, into `out`
    /// (cleared first): a planner's fallback when the funnels are not clear.
    pub(crate) fn portal_midpoints_into(&self, out: &mut Vec<DVec2>) {
        let [start, goal] = self.portal_ends;
        out.clear();
        out.push(start);
        out.extend(self.portals.iter().map(|p| p.midpoint()));
        out.push(goal);
        out.dedup();
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
            .and_then(|(s, g, radius)| self.search_between(mesh, [(start, s), (goal, g)], radius))
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
        [(start, s), (goal, g)]: Ends,
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
        [(start, s), (goal, g)]: Ends,
        radius: f64,
    ) -> Result<f64> {
        self.ends_have_room(mesh, [(start, s), (goal, g)], radius)?;
        if self.polyanya(mesh, [(start, s), (goal, g)], radius) {
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
        match self.polyanya(mesh, [(start, s), (goal, g)], 0.0) {
            false => Err(unreachable),
            true => Err(self.narrowest(mesh, radius)),
        }
    }

    /// Polyanya from `start` (in triangle `s`) to `goal` (in `g`) with the width rule for
    /// `r`: on success `path` and `channel` hold its answer.
    fn polyanya(&mut self, mesh: &NavMesh, [(start, s), (goal, g)]: Ends, r: f64) -> bool {
        let ends = ((start, s as u32), (goal, g as u32));
        let found = if r == 0.0 {
            self.search.find(mesh, &mut Unfiltered, ends.0, ends.1)
        } else {
            let mut rule = RadiusRule {
                widths: &mut self.widths,
                r,
            };
            self.search.find(mesh, &mut rule, ends.0, ends.1)
        };
        self.path.clear();
        self.channel.clear();
        if found {
            self.path.extend_from_slice(self.search.path());
            let polygons = self.search.polygons().iter();
            self.channel.extend(polygons.map(|&t| t as TriId));
        }
        found
    }

    /// Starts a query: the per-query caches emptied (their capacity kept).
    fn begin(&mut self) {
        self.widths.begin();
        self.states.clear();
        self.seen.clear();
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

    /// Breadth-first search over (triangle, entry edge) with the width rule for `r`; on
    /// success fills `channel` (not the shortest) and returns true.
    fn breadth_first(&mut self, mesh: &NavMesh, s: usize, g: usize, r: f64) -> bool {
        // This search runs at most once per query (`begin` cleared `states`).
        self.queue.clear();
        let mut head = 0;
        for k in 0..3 {
            if mesh.across(s, k).is_some() && edge_fits(mesh, s, k, r) {
                self.enter(mesh, s, k, NONE);
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
                if mesh.across(t, x).is_some() && self.widths.passes(mesh, t, e, x, r) {
                    self.enter(mesh, t, x, st);
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

    /// Queues the breadth-first state of entering the triangle across edge `x` of `t`,
    /// reached from state `from`, unless it was reached before.
    fn enter(&mut self, mesh: &NavMesh, t: usize, x: usize, from: u32) {
        let Some(n) = mesh.across(t, x) else {
            return;
        };
        let Some(e) = mesh.shared_edge(n, t) else {
            return;
        };
        let st = (3 * n + e) as u32;
        if let Entry::Vacant(slot) = self.states.entry(st) {
            slot.insert(from);
            self.queue.push(st);
        }
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
                let wdt = self.widths.width(mesh, t, c);
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
    /// # use pathsmooth::navmesh::NavMesh;
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
