//! Polyanya over convex polygons: the one exact search under both navmesh queries.
//!
//! Cui, Harabor & Grastien, *Compromise-free Pathfinding on a Navigation Mesh* (IJCAI 2017).
//! A search node is a *root* (the start, or a vertex where the path last turned), an
//! *interval* on the edge by which a polygon is entered, and the cone of directions from the
//! root through the interval. Expanding a node walks the polygon's other edges, from the
//! entry edge's right corner round to its left one: the edges the cone reaches are
//! *observable* successors (same root, one per edge in view, the first and last clipped by
//! the cone's sides); the edges behind an interval end that is exactly a corner where a
//! taut path may turn (free angle above π: corners of the free region; grid pinches, whose
//! two free quadrants are 90° each, never qualify) are *non-observable* successors rooted
//! there. A corner keeps only the best distance it was reached with (root-level pruning); a
//! node with exactly one successor of the same root is expanded at once instead of going
//! through the open list (intermediate pruning); a polygon with no exit but its entry is a
//! dead end unless it holds the goal. The heuristic is the length of the shortest line from
//! the root through the interval to the goal (reflected across the edge when it lies on the
//! root's side), which never overestimates, so the first goal popped is the Euclidean
//! shortest path over the polygons. A cone side is kept as two mesh points on it (or the
//! start), never a rounded intersection or difference, and every orientation test is
//! Shewchuk's exact predicate: the search sees a vertex a few ulps off a straight wall (a
//! crossing an obstacle's cut rounded) on the side the exact line of sight sees it, so it
//! turns there instead of returning a path that grazes the wall by 10⁻¹⁶.
//!
//! The mesh is any [`ConvexPolygons`]: the flat navmesh's triangles
//! ([`NavMesh`](crate::navmesh::NavMesh), three corners each) or a layered surface's
//! polygons merged into larger convex ones (`layered::merge`). Which edges the search may
//! cross is an [`EdgeFilter`]'s to say: [`Unfiltered`] for a point agent, the width rule for
//! an agent with a radius (Demyen & Buro, in [`NavMeshQuery`](crate::navmesh::NavMeshQuery)).
//! A filter only ever removes successors, so the search stays exact over what it allows.
//!
//! Memory: the per-vertex best distances and the per-polygon start marks are dense arrays
//! (12 bytes a vertex, 4 a polygon, grown to the largest mesh searched) tagged with a
//! generation stamp, so a search clears nothing of them; an expanded node leaves 8 bytes
//! (its parent and the edge it came in by, enough to rebuild the polygons crossed) and its slot is
//! reused, so full nodes are only held for the open list; roots cost 32 bytes.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::Range;

use glam::DVec2;

use crate::geometry::{cross, orientation};
use crate::navmesh::mesh::{NavMesh, PolyId, NO_TRI, TURN};

/// No polygon, vertex, root or node.
pub(crate) const NONE: u32 = u32::MAX;

/// Convex polygons in plan view joined by shared edges: what the search walks.
///
/// Corners are numbered globally; polygon `p`'s are [`corners_of(p)`](Self::corners_of), counter-
/// clockwise, and the edge *at* corner `c` runs from `c` to the next corner of its polygon.
pub(crate) trait ConvexPolygons {
    /// The number of polygons.
    fn faces(&self) -> usize;
    /// One more than the largest vertex id of any corner.
    fn vertex_count(&self) -> usize;
    /// Polygon `p`'s corners.
    fn corners_of(&self, p: PolyId) -> Range<usize>;
    /// The corner `k` places on (counter-clockwise, `k < 2n`) from `first`, the first of
    /// a polygon's `n` corners. A mesh that stores each ring twice over answers `first + k`
    /// and spares the search a wrap on every corner it reads (`docs/detour-peer.md`).
    fn corner_after(&self, first: usize, n: usize, k: usize) -> usize;
    /// Corner `c`'s vertex id (equal ids: the same point).
    fn corner_vertex(&self, c: usize) -> u32;
    /// Corner `c`'s position.
    fn corner_point(&self, c: usize) -> DVec2;
    /// The polygon across the edge at corner `c`, or [`NONE`] for a wall.
    fn neighbour(&self, c: usize) -> u32;
    /// That edge's index among the neighbour's corners (meaningless for a wall).
    fn neighbour_edge(&self, c: usize) -> u32;
    /// True when a taut path may turn at corner `c` (its free angle is above π).
    fn turns(&self, c: usize) -> bool;
    /// True when polygon `p` has at most one edge with a neighbour.
    fn dead_end(&self, p: PolyId) -> bool;
}

/// Which edges the search may cross (see the [module docs](self)).
pub(crate) trait EdgeFilter<M: ?Sized> {
    /// May the search leave the start's polygon by the edge at corner `c`?
    fn leaves(&mut self, mesh: &M, c: usize) -> bool;
    /// May it pass through polygon `p`, entered by its edge `entry` (a corner index within
    /// the polygon), and leave by the edge at corner `c`?
    fn passes(&mut self, mesh: &M, p: PolyId, entry: u32, c: usize) -> bool;
}

/// Every edge with a neighbour may be crossed: a point agent.
pub(crate) struct Unfiltered;

impl<M: ?Sized> EdgeFilter<M> for Unfiltered {
    #[inline(always)]
    fn leaves(&mut self, _: &M, _: usize) -> bool {
        true
    }
    #[inline(always)]
    fn passes(&mut self, _: &M, _: PolyId, _: u32, _: usize) -> bool {
        true
    }
}

/// Where a path last turned: the start (`vertex == NONE`) or a mesh vertex.
#[derive(Clone, Copy, Debug)]
struct Root {
    p: DVec2,
    vertex: u32,
    /// Length of the path from the start to `p`.
    g: f64,
    parent: u32,
}

/// The cone from `root` through `[ir, il]` on edge `edge` of polygon `poly` (right end
/// first, as seen from the root). A goal node has `poly == NONE` and says whether the path
/// bends at an interval end (`via`).
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    root: u32,
    poly: u32,
    edge: u32,
    /// 0: straight to the goal; 1: via `ir`; 2: via `il` (goal nodes only).
    via: u8,
    ir: DVec2,
    il: DVec2,
    /// The vertex ids of the interval ends when they are exactly corners.
    rv: u32,
    lv: u32,
    /// The cone's sides, each the line through the root with the direction `t − o`.
    rs: Side,
    ls: Side,
}

/// A cone side: the line through two points that are exactly mesh points (or the start),
/// directed from `o` to `t`.
#[derive(Clone, Copy, Debug)]
struct Side {
    o: DVec2,
    t: DVec2,
}

impl Side {
    #[inline]
    fn new(o: DVec2, t: DVec2) -> Self {
        Side { o, t }
    }

    /// Which side of the line `w` is, exactly: 1 left, -1 right, 0 on it.
    #[inline]
    fn of(self, w: DVec2) -> i8 {
        orientation(self.o, self.t, w)
    }

    /// Whether `other` lies on this side's line, exactly.
    fn is_line_of(self, other: Side) -> bool {
        self.of(other.o) == 0 && self.of(other.t) == 0
    }
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
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        // Plain comparisons: f and g are sums of distances (weighted by finite area costs
        // in the cheapest-channel search), never NaN or −0, where `total_cmp` agrees with
        // them and costs the heap more.
        if self.f < other.f {
            Ordering::Greater
        } else if self.f > other.f {
            Ordering::Less
        } else if self.g > other.g {
            Ordering::Greater
        } else if self.g < other.g {
            Ordering::Less
        } else {
            Ordering::Equal
        }
    }
}

/// The search's scratch and its last answer (see the [module docs](self)); a query object
/// keeps one, so that searches after the first allocate nothing once it has grown.
#[derive(Debug, Clone, Default)]
pub(crate) struct Polyanya {
    /// Nodes not yet expanded (slots of expanded ones are reused, see `free`).
    nodes: Vec<Node>,
    free: Vec<u32>,
    /// What an expanded node leaves behind: the link of its parent (or `NONE`), and the
    /// edge by which it entered its polygon, which leads back to the parent's polygon.
    link_parent: Vec<u32>,
    link_edge: Vec<u32>,
    roots: Vec<Root>,
    open: BinaryHeap<Open>,
    /// The successors of the node being expanded, before they go to `open`.
    pending: Vec<Open>,
    /// Vertex → best g of a root there, valid where `best_stamp` is the search's stamp.
    best: Vec<f64>,
    best_stamp: Vec<u32>,
    /// Polygon → the stamp of the last search that entered it rotating about a root, and
    /// that root.
    seen: Vec<(u32, u32)>,
    stamp: u32,
    path: Vec<DVec2>,
    polygons: Vec<PolyId>,
    entry: Vec<u32>,
}

impl Polyanya {
    /// The last path found: from the start to the goal, no consecutive duplicates, bending
    /// only on mesh vertices.
    pub(crate) fn path(&self) -> &[DVec2] {
        &self.path
    }

    /// The polygons the last path crosses, the start's first and the goal's last.
    pub(crate) fn polygons(&self) -> &[PolyId] {
        &self.polygons
    }

    /// `entries()[k]`: the edge (corner index within the polygon) of `polygons()[k + 1]` by
    /// which it is entered from `polygons()[k]`.
    pub(crate) fn entries(&self) -> &[u32] {
        &self.entry
    }

    /// The shortest path from `start` in polygon `s` to `goal` in polygon `g` over the
    /// edges `filter` allows; false (and an empty answer) when none joins them. Both points
    /// must lie in their polygons. Cost: O(nodes expanded · log open), each expansion
    /// O(corners of its polygon).
    pub(crate) fn find<M: ConvexPolygons + ?Sized, F: EdgeFilter<M>>(
        &mut self,
        mesh: &M,
        filter: &mut F,
        (start, s): (DVec2, PolyId),
        (goal, g): (DVec2, PolyId),
    ) -> bool {
        self.path.clear();
        self.polygons.clear();
        self.entry.clear();
        if s == g {
            // One convex polygon: the straight segment.
            self.path.push(start);
            if goal != start {
                self.path.push(goal);
            }
            self.polygons.push(s);
            return true;
        }
        self.begin(mesh);
        match self.search(mesh, filter, start, goal, s, g) {
            Some(nd) => {
                self.reconstruct(mesh, start, goal, s, g, nd);
                true
            }
            None => false,
        }
    }

    fn begin<M: ConvexPolygons + ?Sized>(&mut self, mesh: &M) {
        let (nv, np) = (mesh.vertex_count(), mesh.faces());
        if self.best.len() < nv {
            self.best.resize(nv, f64::INFINITY);
            self.best_stamp.resize(nv, 0);
        }
        if self.seen.len() < np {
            self.seen.resize(np, (0, 0));
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // The stamp wrapped: no entry may look current.
            self.best_stamp.iter_mut().for_each(|s| *s = 0);
            self.seen.iter_mut().for_each(|s| *s = (0, 0));
            self.stamp = 1;
        }
        self.nodes.clear();
        self.free.clear();
        self.link_parent.clear();
        self.link_edge.clear();
        self.roots.clear();
        self.open.clear();
        self.pending.clear();
    }

    /// The search proper: the goal node, or `None` when the open list runs dry.
    fn search<M: ConvexPolygons + ?Sized, F: EdgeFilter<M>>(
        &mut self,
        mesh: &M,
        filter: &mut F,
        start: DVec2,
        goal: DVec2,
        s: PolyId,
        g: PolyId,
    ) -> Option<Node> {
        self.roots.push(Root {
            p: start,
            vertex: NONE,
            g: 0.0,
            parent: NONE,
        });
        self.seen[s as usize] = (self.stamp, 0);
        let corners = mesh.corners_of(s);
        let n = corners.len();
        for k in 0..n {
            let c = corners.start + k;
            let nb = mesh.neighbour(c);
            if nb == NONE || !filter.leaves(mesh, c) {
                continue;
            }
            // Crossing the edge from corner k to k + 1: seen from inside the neighbour,
            // corner k is its right end.
            let next = mesh.corner_after(corners.start, n, k + 1);
            let (rp, lp) = (mesh.corner_point(c), mesh.corner_point(next));
            let node = Node {
                parent: NONE,
                root: 0,
                poly: nb,
                edge: mesh.neighbour_edge(c),
                via: 0,
                ir: rp,
                il: lp,
                rv: mesh.corner_vertex(c),
                lv: mesh.corner_vertex(next),
                rs: Side::new(start, rp),
                ls: Side::new(start, lp),
            };
            self.push(mesh, goal, node, g);
        }
        self.flush_pending();
        while let Some(Open { node, .. }) = self.open.pop() {
            let nd = self.nodes[node as usize];
            self.free.push(node);
            if nd.poly == NONE {
                return Some(nd);
            }
            let root = self.roots[nd.root as usize];
            if root.vertex != NONE {
                let best = self.best[root.vertex as usize];
                if root.g > best + 1e-12 * (1.0 + best) {
                    continue;
                }
            }
            // Intermediate pruning: a single successor with the same root is expanded at
            // once (its f is at least this node's; the goal still goes through the heap). A
            // cone never re-enters a polygon, so the chain is bounded by the mesh; the
            // bound only guards against rounding surprises.
            let mut at = nd;
            for _ in 0..=mesh.faces() {
                self.pending.clear();
                self.expand(mesh, filter, goal, at, g);
                match self.pending[..] {
                    [only] if self.nodes[only.node as usize].root == at.root => {
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

    /// Pushes `node` (polygon and entry edge filled in) to `pending`.
    fn push<M: ConvexPolygons + ?Sized>(
        &mut self,
        mesh: &M,
        goal: DVec2,
        mut node: Node,
        g: PolyId,
    ) {
        let p = node.poly;
        // A dead end (no exit but the entry) can only matter when it holds the goal.
        if p != g && mesh.dead_end(p) {
            return;
        }
        let corners = mesh.corners_of(p);
        let e = node.edge as usize;
        let (l, r) = (
            corners.start + e,
            mesh.corner_after(corners.start, corners.len(), e + 1),
        );
        let (lp, rp) = (mesh.corner_point(l), mesh.corner_point(r));
        let mut root = self.roots[node.root as usize];
        let on_line = orientation(lp, rp, root.p) == 0;
        if on_line && (root.p - lp).dot(root.p - rp) > 0.0 {
            // The root is on the edge's line but beyond one end (a polygon with straight
            // corners, seen edge-on): nothing past the edge is in view from it, so a path
            // there goes to the nearer end first and turns round it.
            let (near, nv) = if root.p.distance_squared(lp) <= root.p.distance_squared(rp) {
                (lp, mesh.corner_vertex(l))
            } else {
                (rp, mesh.corner_vertex(r))
            };
            let Some(nr) = self.new_root(node.root, nv, near) else {
                return;
            };
            node.root = nr;
            root = self.roots[nr as usize];
        }
        if on_line {
            // The root lies on the entry edge's line (one of its corners, or the start on
            // the edge): the whole polygon is in view.
            // Rotating about the root: each polygon round it is entered once per root. On a
            // flat mesh the polygons round a point are each there once, so this only spares
            // a start on a vertex its second visits; a layered mesh seen in plan view can
            // wind round a vertex more than once (floors over floors joined round it, as in
            // Godot's Sponza bake), where nothing else would end the rotation: the search
            // went round the same five polygons until memory ran out.
            if self.seen[p as usize] == (self.stamp, node.root) {
                return;
            }
            self.seen[p as usize] = (self.stamp, node.root);
            node.ir = rp;
            node.il = lp;
            node.rv = mesh.corner_vertex(r);
            node.lv = mesh.corner_vertex(l);
            node.rs = Side::new(lp, rp);
            node.ls = Side::new(rp, lp);
        } else if node.ir == node.il && node.rs.is_line_of(node.ls) {
            // A cone of no width. Ends that round to one point between two sides that
            // are not one line bound a cone of some width: a taut path round a corner a
            // few ulps off a straight wall (a cut's rounded crossing) goes through it.
            return;
        }
        let q = reflect_behind(goal, lp, rp, root.p);
        let h = if on_line {
            root.p.distance(q)
        } else {
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
        let vi = v as usize;
        if self.best_stamp[vi] != self.stamp {
            self.best_stamp[vi] = self.stamp;
            self.best[vi] = f64::INFINITY;
        }
        let slot = self.best[vi];
        if g >= slot - 1e-12 * (1.0 + slot) {
            return None;
        }
        self.best[vi] = g;
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

    /// A successor across the edge at corner `c` of `from` (entered by `entry`), when it
    /// has a neighbour and the filter lets the search through.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn succ<M: ConvexPolygons + ?Sized, F: EdgeFilter<M>>(
        &mut self,
        mesh: &M,
        filter: &mut F,
        goal: DVec2,
        g: PolyId,
        (parent, root): (u32, u32),
        (from, entry, c): (PolyId, u32, usize),
        (ir, rv, rs): (DVec2, u32, Side),
        (il, lv, ls): (DVec2, u32, Side),
    ) {
        let nb = mesh.neighbour(c);
        if nb == NONE || !filter.passes(mesh, from, entry, c) {
            return;
        }
        let node = Node {
            parent,
            root,
            poly: nb,
            edge: mesh.neighbour_edge(c),
            via: 0,
            ir,
            il,
            rv,
            lv,
            rs,
            ls,
        };
        self.push(mesh, goal, node, g);
    }

    /// Expands `nd` (no longer in `nodes`): its successors go to `pending`, a goal node
    /// straight to `open`, and its link to the links.
    fn expand<M: ConvexPolygons + ?Sized, F: EdgeFilter<M>>(
        &mut self,
        mesh: &M,
        filter: &mut F,
        goal: DVec2,
        nd: Node,
        g: PolyId,
    ) {
        let idx = self.link_parent.len() as u32;
        self.link_parent.push(nd.parent);
        self.link_edge.push(nd.edge);
        let root = self.roots[nd.root as usize];
        let rp = root.p;
        if nd.poly == g {
            // The goal's polygon: straight to it when the cone holds it, else via the
            // interval end on its side — the shortest path through the interval.
            let (cost, via) = if nd.rs.of(goal) < 0 {
                (rp.distance(nd.ir) + nd.ir.distance(goal), 1)
            } else if nd.ls.of(goal) > 0 {
                (rp.distance(nd.il) + nd.il.distance(goal), 2)
            } else {
                (rp.distance(goal), 0)
            };
            let node = self.alloc(Node {
                parent: idx,
                poly: NONE,
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
        let corners = mesh.corners_of(nd.poly);
        if corners.len() == 3 {
            return self.expand_triangle(mesh, filter, goal, (nd, root), (idx, g));
        }
        let base = corners.start;
        let n = corners.len();
        let e = nd.edge as usize;
        let here = (idx, nd.root);
        // The chain c_0 = R (corner e + 1), c_1, ..., c_m = L (corner e); chain edge i is
        // the polygon's edge at corner e + 1 + i.
        let m = n - 1;
        let ci = |i: usize| mesh.corner_after(base, n, e + 1 + i);
        let cv = |i: usize| mesh.corner_vertex(ci(i));
        let cp = |i: usize| mesh.corner_point(ci(i));
        let via = |i: usize| (nd.poly, nd.edge, ci(i));
        // The right side leaves through chain edge ri: the first whose far end is strictly
        // left of it.
        let mut ri = m - 1;
        for i in 0..m - 1 {
            if nd.rs.of(cp(i + 1)) > 0 {
                ri = i;
                break;
            }
        }
        let s_ri = nd.rs.of(cp(ri));
        let (hr, hrv) = if s_ri >= 0 {
            (cp(ri), cv(ri))
        } else {
            hit(nd.rs, BEYOND_RIGHT, cp(ri), cv(ri), cp(ri + 1), cv(ri + 1))
        };
        // The left side leaves through chain edge lj: the last whose near end is strictly
        // right of it.
        let mut lj = 0;
        for j in (1..m).rev() {
            if nd.ls.of(cp(j)) < 0 {
                lj = j;
                break;
            }
        }
        let t_lj1 = nd.ls.of(cp(lj + 1));
        let (hl, hlv) = if t_lj1 <= 0 {
            (cp(lj + 1), cv(lj + 1))
        } else {
            hit(nd.ls, BEYOND_LEFT, cp(lj), cv(lj), cp(lj + 1), cv(lj + 1))
        };
        // Observable successors.
        if ri <= lj {
            for k in ri..=lj {
                let a = if k == ri {
                    (hr, hrv, nd.rs)
                } else {
                    (cp(k), cv(k), Side::new(rp, cp(k)))
                };
                let b = if k == lj {
                    (hl, hlv, nd.ls)
                } else {
                    (cp(k + 1), cv(k + 1), Side::new(rp, cp(k + 1)))
                };
                self.succ(mesh, filter, goal, g, here, via(k), a, b);
            }
        }
        // Behind the right end R: turn there.
        let (rvid, lvid) = (cv(0), cv(m));
        if ri > 0
            && nd.rv == rvid
            && rvid != root.vertex
            && mesh.turns(ci(0))
            && let Some(nr) = self.new_root(nd.root, rvid, cp(0))
        {
            let r = cp(0);
            let turned = (idx, nr);
            for k in 0..ri {
                let (a, b) = (cp(k), cp(k + 1));
                let (a, b) = ((a, cv(k), Side::new(r, a)), (b, cv(k + 1), Side::new(r, b)));
                self.succ(mesh, filter, goal, g, turned, via(k), a, b);
            }
            if s_ri < 0 {
                let a = cp(ri);
                let (a, b) = ((a, cv(ri), Side::new(r, a)), (hr, hrv, nd.rs));
                self.succ(mesh, filter, goal, g, turned, via(ri), a, b);
            }
        }
        // Behind the left end L.
        if lj + 1 < m
            && nd.lv == lvid
            && lvid != root.vertex
            && mesh.turns(ci(m))
            && let Some(nr) = self.new_root(nd.root, lvid, cp(m))
        {
            let l = cp(m);
            let turned = (idx, nr);
            if t_lj1 > 0 {
                let b = cp(lj + 1);
                let (a, b) = ((hl, hlv, nd.ls), (b, cv(lj + 1), Side::new(l, b)));
                self.succ(mesh, filter, goal, g, turned, via(lj), a, b);
            }
            for k in lj + 1..m {
                let (a, b) = (cp(k), cp(k + 1));
                let (a, b) = ((a, cv(k), Side::new(l, a)), (b, cv(k + 1), Side::new(l, b)));
                self.succ(mesh, filter, goal, g, turned, via(k), a, b);
            }
        }
    }

    /// [`expand`](Self::expand) for a polygon of three corners, the chain walk unrolled:
    /// the far corner W alone decides which far edges the cone reaches. Every node of a
    /// triangle mesh is one; the general walk costs them 14 % more instructions (the flat
    /// query on the Moving AI maps, measured under cachegrind: `docs/navmesh.md`).
    fn expand_triangle<M: ConvexPolygons + ?Sized, F: EdgeFilter<M>>(
        &mut self,
        mesh: &M,
        filter: &mut F,
        goal: DVec2,
        (nd, root): (Node, Root),
        (idx, g): (u32, PolyId),
    ) {
        let base = mesh.corners_of(nd.poly).start;
        let e = nd.edge as usize;
        // R = corner e + 1, W = e + 2, L = e; edge R–W is at corner R, W–L at corner W.
        let at = |k: usize| mesh.corner_after(base, 3, k);
        let (cr, cw, cl) = (at(e + 1), at(e + 2), base + e);
        let (rr, w, l) = (
            mesh.corner_point(cr),
            mesh.corner_point(cw),
            mesh.corner_point(cl),
        );
        let (rvid, wvid, lvid) = (
            mesh.corner_vertex(cr),
            mesh.corner_vertex(cw),
            mesh.corner_vertex(cl),
        );
        let rp = root.p;
        // The left side's test only when the right one leaves W in the cone.
        let o_r = nd.rs.of(w);
        let o_l = if o_r <= 0 { 0 } else { nd.ls.of(w) };
        let (right, left) = ((nd.poly, nd.edge, cr), (nd.poly, nd.edge, cw));
        let here = (idx, nd.root);
        if o_r <= 0 {
            // W is right of (or on) the right side: the cone leaves through W–L only.
            let (pr, prv) = if o_r == 0 {
                (w, wvid)
            } else {
                hit(nd.rs, BEYOND_RIGHT, w, wvid, l, lvid)
            };
            let (pl, plv) = hit(nd.ls, BEYOND_LEFT, w, wvid, l, lvid);
            let (a, b) = ((pr, prv, nd.rs), (pl, plv, nd.ls));
            self.succ(mesh, filter, goal, g, here, left, a, b);
            // Behind the right end R: turn there.
            if nd.rv == rvid
                && rvid != root.vertex
                && mesh.turns(cr)
                && let Some(nr) = self.new_root(nd.root, rvid, rr)
            {
                let turned = (idx, nr);
                let (a, b) = ((rr, rvid, Side::new(w, rr)), (w, wvid, Side::new(rr, w)));
                self.succ(mesh, filter, goal, g, turned, right, a, b);
                if o_r < 0 {
                    let (a, b) = ((w, wvid, Side::new(rr, w)), (pr, prv, nd.rs));
                    self.succ(mesh, filter, goal, g, turned, left, a, b);
                }
            }
        } else if o_l >= 0 {
            // W is left of (or on) the left side: the cone leaves through R–W only.
            let (pl, plv) = if o_l == 0 {
                (w, wvid)
            } else {
                hit(nd.ls, BEYOND_LEFT, rr, rvid, w, wvid)
            };
            let (pr, prv) = hit(nd.rs, BEYOND_RIGHT, rr, rvid, w, wvid);
            let (a, b) = ((pr, prv, nd.rs), (pl, plv, nd.ls));
            self.succ(mesh, filter, goal, g, here, right, a, b);
            // Behind the left end L.
            if nd.lv == lvid
                && lvid != root.vertex
                && mesh.turns(cl)
                && let Some(nr) = self.new_root(nd.root, lvid, l)
            {
                let turned = (idx, nr);
                let (a, b) = ((w, wvid, Side::new(l, w)), (l, lvid, Side::new(w, l)));
                self.succ(mesh, filter, goal, g, turned, left, a, b);
                if o_l > 0 {
                    let (a, b) = ((pl, plv, nd.ls), (w, wvid, Side::new(l, w)));
                    self.succ(mesh, filter, goal, g, turned, right, a, b);
                }
            }
        } else {
            // W is inside the cone: both far edges are partly in view.
            let (pr, prv) = hit(nd.rs, BEYOND_RIGHT, rr, rvid, w, wvid);
            let (a, b) = ((pr, prv, nd.rs), (w, wvid, Side::new(rp, w)));
            self.succ(mesh, filter, goal, g, here, right, a, b);
            let (pl, plv) = hit(nd.ls, BEYOND_LEFT, w, wvid, l, lvid);
            let (a, b) = ((w, wvid, Side::new(rp, w)), (pl, plv, nd.ls));
            self.succ(mesh, filter, goal, g, here, left, a, b);
        }
    }

    /// Fills `path`, `polygons` and `entry` from the goal node.
    fn reconstruct<M: ConvexPolygons + ?Sized>(
        &mut self,
        mesh: &M,
        start: DVec2,
        goal: DVec2,
        s: PolyId,
        g: PolyId,
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
            self.path
                .push(if root.vertex == NONE { start } else { root.p });
            r = root.parent;
        }
        self.path.reverse();
        self.path.dedup();
        // Back from the goal's polygon (where the goal node's parent was expanded) through
        // each expanded node's entry edge; the first nodes entered from the start's polygon.
        self.polygons.clear();
        self.entry.clear();
        let mut p = g;
        let mut n = nd.parent;
        while n != NONE {
            self.polygons.push(p);
            let e = self.link_edge[n as usize];
            self.entry.push(e);
            p = match mesh.neighbour(mesh.corners_of(p).start + e as usize) {
                NONE => s,
                q => q,
            };
            n = self.link_parent[n as usize];
        }
        self.polygons.push(s);
        self.polygons.reverse();
        self.entry.reverse();
    }
}

/// The flat navmesh's triangles as the search sees them: corner `3t + k` is corner `k` of
/// triangle `t`.
impl ConvexPolygons for NavMesh {
    #[inline]
    fn faces(&self) -> usize {
        self.num_triangles()
    }
    #[inline]
    fn vertex_count(&self) -> usize {
        self.vertices().len()
    }
    #[inline]
    fn corners_of(&self, p: PolyId) -> Range<usize> {
        3 * p as usize..3 * p as usize + 3
    }
    #[inline]
    fn corner_after(&self, first: usize, n: usize, k: usize) -> usize {
        // No `%`: k < 2n.
        first + if k >= n { k - n } else { k }
    }
    #[inline]
    fn corner_vertex(&self, c: usize) -> u32 {
        self.triangle_indices().as_flattened()[c]
    }
    #[inline]
    fn corner_point(&self, c: usize) -> DVec2 {
        self.vertices()[self.corner_vertex(c) as usize]
    }
    #[inline]
    fn neighbour(&self, c: usize) -> u32 {
        // The mesh marks a wall as the search does.
        const _: () = assert!(NO_TRI == NONE);
        self.across_corner(c)
    }
    #[inline]
    fn neighbour_edge(&self, c: usize) -> u32 {
        let n = self.across_corner(c);
        if n == NO_TRI {
            return 0;
        }
        // Which of the neighbour's three edges leads back to this triangle: what
        // `NavMesh::shared_edge` answers, written out because calling it made the search
        // at a radius measurably dearer (docs/navmesh.md, Run 8).
        let (n, t) = (n as usize, (c / 3) as u32);
        (0..3)
            .find(|&i| self.across_corner(3 * n + i) == t)
            .unwrap_or(0) as u32
    }
    #[inline]
    fn turns(&self, c: usize) -> bool {
        self.corner_flags(c / 3, c % 3) & TURN != 0
    }
    #[inline]
    fn dead_end(&self, p: PolyId) -> bool {
        (0..3)
            .filter(|&k| self.across(p as usize, k).is_some())
            .count()
            <= 1
    }
}

/// Which side of a cone's right side ([`Side::of`]) lies outside the cone: its right.
const BEYOND_RIGHT: i8 = -1;
/// Which side of a cone's left side lies outside the cone: its left.
const BEYOND_LEFT: i8 = 1;

/// Where the cone side `side` meets segment `a`–`b` (clamped to it), with the vertex id
/// when that is an end inside the cone or on its side: exactly, or within 10⁻¹² of the
/// coordinates' magnitude of the line. (Vertices on one straight line — a diagonal
/// through a grid of tiles, as Unity's, Godot's and Recast's meshes have — are on it only
/// to the rounding of their coordinates; taking the point a few ulps beside the vertex
/// instead would lose the turn a taut path makes there.) An end exactly `beyond` the side
/// (outside the cone) is never taken as a vertex, however near: the cone would then reach
/// past a corner its root cannot see, and the next corners a few ulps past the side with
/// it — a path straight along a cut's side whose rounded crossings bulge 10⁻¹⁶ into the
/// free side went through them so. A taut path round such a corner turns at the one
/// before it, which the exact tests see as a turn.
// Inlined natively (out of line, the flat query on den312d measured about 5 % slower); in
// WebAssembly once, out of line: inlined in every expansion of every search it put the npm
// package's `.wasm` 3.9 KB over its budget (docs/wasm.md).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline(never))]
fn hit(side: Side, beyond: i8, a: DVec2, av: u32, b: DVec2, bv: u32) -> (DVec2, u32) {
    let (root, dir) = (side.o, side.t - side.o);
    let (root_size, length) = (root.abs().max_element(), dir.length());
    let near = |p: DVec2| {
        let c = cross(dir, p - root);
        let magnitude = p.abs().max_element().max(root_size).max(1.0);
        c.abs() <= 1e-12 * magnitude * length
    };
    // The exact tests only for ends near the line (the float test above is the filter). An
    // end on the line exactly is where it crosses: the other end may be near too (an edge
    // along the side, of corners in one straight line to their rounding).
    let sa = if near(a) { side.of(a) } else { beyond };
    if sa == 0 {
        return (a, av);
    }
    let sb = if near(b) { side.of(b) } else { beyond };
    if sb == 0 {
        return (b, bv);
    }
    if sa != beyond {
        return (a, av);
    }
    if sb != beyond {
        return (b, bv);
    }
    let vertex = |p: DVec2, v: u32| if side.of(p) == beyond { NONE } else { v };
    let den = cross(dir, b - a);
    if den == 0.0 {
        return (a, vertex(a, av));
    }
    let t = cross(dir, root - a) / den;
    if t <= 0.0 {
        (a, vertex(a, av))
    } else if t >= 1.0 {
        (b, vertex(b, bv))
    } else {
        (a.lerp(b, t), NONE)
    }
}

/// `goal` mirrored across the line `l`–`r` when it lies strictly on the same side as
/// `root` (a path from the root through the edge must come back).
#[inline]
fn reflect_behind(goal: DVec2, l: DVec2, r: DVec2, root: DVec2) -> DVec2 {
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
fn through_interval(root: DVec2, ir: DVec2, il: DVec2, q: DVec2) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The open list's order is `total_cmp`'s (f least first, then g greatest) on the
    /// values a search makes: finite sums of distances, ties, and the goal's infinite g.
    #[test]
    fn the_open_order_is_total_cmps_on_search_values() {
        let mut unit = crate::test_fixtures::lcg_uniform(0x0BE7);
        let mut value = || match (unit() * 4.0) as u32 {
            0 => 0.0,
            1 => f64::INFINITY,
            _ => (unit() * 8.0).floor() / 4.0, // few values: many ties
        };
        for _ in 0..10_000 {
            let (a, b) = (
                Open {
                    f: value(),
                    g: value(),
                    node: 0u32,
                },
                Open {
                    f: value(),
                    g: value(),
                    node: 1u32,
                },
            );
            let want = b.f.total_cmp(&a.f).then(a.g.total_cmp(&b.g));
            assert_eq!(a.cmp(&b), want, "{a:?} {b:?}");
        }
    }
}
