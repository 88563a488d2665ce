//! Polyanya over the surface's convex polygons (Cui, Harabor & Grastien, IJCAI 2017, as
//! their own implementation runs it): the exact shortest path at radius 0, expanding
//! polygons rather than the triangles they are cut into, and the surface's polygons merged
//! into larger convex ones ([`SearchPolygons`]), the corridor mapped back to the surface's.
//!
//! A search node is a root (the start, or a vertex where the path last turned), an interval
//! on the edge by which a polygon is entered, and the cone from the root through it.
//! Expanding it walks the polygon's other edges, from the entry edge's right corner round
//! to its left one: the edges the cone reaches are observable successors (same root, one
//! per edge in view, the first and last clipped by the cone's sides); the edges behind an
//! interval end that is exactly a corner where a taut path may turn (free angle above π,
//! [`SurfaceMesh`]'s per-corner `TURN` bit) are non-observable successors rooted there. As
//! in the triangle search ([`crate::navmesh::NavMeshQuery`]): cone sides are exact
//! differences of mesh points, a corner keeps only the best distance it was reached with
//! (root-level pruning), a node with one successor of the same root is expanded at once
//! (intermediate pruning), a polygon with no exit but its entry is a dead end unless it
//! holds the goal, and the heuristic is the shortest line from the root through the
//! interval to the goal, reflected across the edge when it lies on the root's side.
//!
//! Memory: the per-vertex best distances and the per-polygon start marks are dense arrays
//! (12 bytes a vertex, 4 a polygon, grown to the largest mesh queried) tagged with a
//! generation stamp, so a query clears nothing; the rest grows with what the search
//! touches, as the triangle search's.

use std::collections::BinaryHeap;

use glam::DVec2;

use super::merge::SearchPolygons;
use super::SurfaceMesh;
use crate::geometry::cross;
use crate::navmesh::mesh::PolyId;
use crate::navmesh::search::{hit, reflect_behind, through_interval, Open, Root};

const NONE: u32 = u32::MAX;

/// The cone from `root` through `[ir, il]` on edge `edge` of polygon `poly` (right end
/// first, as seen from the root). A goal node has `poly == NONE`.
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
    rv: u32,
    lv: u32,
    rdir: DVec2,
    ldir: DVec2,
}

/// The polygon search's scratch (kept by [`SurfaceQuery`](super::SurfaceQuery)).
#[derive(Debug, Clone, Default)]
pub(crate) struct PolySearch {
    nodes: Vec<Node>,
    free: Vec<u32>,
    link_parent: Vec<u32>,
    link_edge: Vec<u32>,
    roots: Vec<Root>,
    open: BinaryHeap<Open>,
    pending: Vec<Open>,
    /// Vertex → best g of a root there, valid where `best_stamp` is the query's stamp.
    best: Vec<f64>,
    best_stamp: Vec<u32>,
    /// Polygon → the stamp of the last query whose start rotation entered it.
    seen: Vec<u32>,
    stamp: u32,
    path: Vec<DVec2>,
    corridor: Vec<PolyId>,
    /// `entry[k]`: the edge of `corridor[k + 1]` shared with `corridor[k]`.
    entry: Vec<u32>,
    /// The search polygons' corridor and entries while they are mapped to the surface's.
    members_scratch: (Vec<PolyId>, Vec<u32>),
    /// [`SearchPolygons::members_between`]'s scratch.
    down: Vec<u32>,
}

impl PolySearch {
    /// The last path's plan-view points.
    pub(crate) fn path(&self) -> &[DVec2] {
        &self.path
    }

    /// The polygons the last path crosses, in order.
    pub(crate) fn corridor(&self) -> &[PolyId] {
        &self.corridor
    }

    /// The edge of `corridor[k + 1]` it was entered by from `corridor[k]`.
    pub(crate) fn entries(&self) -> &[u32] {
        &self.entry
    }

    /// The shortest path from `start` in polygon `s` to `goal` in polygon `g` (both in
    /// plan view, inside their polygons); false when they are not connected.
    pub(crate) fn find(
        &mut self,
        mesh: &SurfaceMesh,
        (start, s): (DVec2, PolyId),
        (goal, g): (DVec2, PolyId),
    ) -> bool {
        self.path.clear();
        self.corridor.clear();
        self.entry.clear();
        let sp = mesh.search_polygons();
        let (ms, mg) = (sp.of[s as usize], sp.of[g as usize]);
        if ms == mg {
            // One convex search polygon: the straight segment, through the members between.
            self.path.push(start);
            if goal != start {
                self.path.push(goal);
            }
            self.corridor.push(s);
            sp.members_between((s, g), &mut self.corridor, &mut self.entry, &mut self.down);
            return true;
        }
        self.begin(mesh);
        match self.search(sp, start, goal, ms, mg) {
            Some(nd) => {
                self.reconstruct(sp, start, goal, ms, mg, nd);
                self.members(mesh, s, g);
                true
            }
            None => false,
        }
    }

    /// Maps the corridor of search polygons (and their entry edges) that `reconstruct` left
    /// to the surface polygons from `s` to `g` (see [`SearchPolygons::members_between`]).
    fn members(&mut self, mesh: &SurfaceMesh, s: PolyId, g: PolyId) {
        let sp = mesh.search_polygons();
        let mut corridor = std::mem::take(&mut self.members_scratch.0);
        let mut entry = std::mem::take(&mut self.members_scratch.1);
        corridor.clear();
        entry.clear();
        corridor.push(s);
        let mut at = s;
        for (k, &m) in self.corridor.iter().enumerate().skip(1) {
            // The edge entered by, as the surface's: its polygon, and the one left behind.
            let (p, e) = sp.corner_member[sp.corners(m).start + self.entry[k - 1] as usize];
            let left = mesh.corner_neighbor(p, e);
            sp.members_between((at, left), &mut corridor, &mut entry, &mut self.down);
            corridor.push(p);
            entry.push(e);
            at = p;
        }
        sp.members_between((at, g), &mut corridor, &mut entry, &mut self.down);
        std::mem::swap(&mut self.corridor, &mut corridor);
        std::mem::swap(&mut self.entry, &mut entry);
        self.members_scratch = (corridor, entry);
    }

    fn begin(&mut self, mesh: &SurfaceMesh) {
        let nv = mesh.plan_mesh().vertices().len();
        let np = mesh.search_polygons().num_polygons();
        if self.best.len() < nv {
            self.best.resize(nv, f64::INFINITY);
            self.best_stamp.resize(nv, 0);
        }
        if self.seen.len() < np {
            self.seen.resize(np, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.best_stamp.iter_mut().for_each(|s| *s = 0);
            self.seen.iter_mut().for_each(|s| *s = 0);
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

    fn search(
        &mut self,
        mesh: &SearchPolygons,
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
        self.seen[s as usize] = self.stamp;
        let corners = mesh.corners(s);
        let n = corners.len();
        for k in 0..n {
            let c = corners.start + k;
            let nb = mesh.corner_nb[c];
            if nb == NONE {
                continue;
            }
            let (rv, lv) = (
                mesh.corner_vert[c],
                mesh.corner_vert[corners.start + (k + 1) % n],
            );
            let (rp, lp) = (
                mesh.corner_pos[c],
                mesh.corner_pos[corners.start + (k + 1) % n],
            );
            self.push(
                mesh,
                goal,
                Node {
                    parent: NONE,
                    root: 0,
                    poly: nb,
                    edge: mesh.corner_nb_edge[c],
                    via: 0,
                    ir: rp,
                    il: lp,
                    rv,
                    lv,
                    rdir: rp - start,
                    ldir: lp - start,
                },
                g,
            );
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
            let mut at = nd;
            for _ in 0..=mesh.num_polygons() {
                self.pending.clear();
                self.expand(mesh, goal, at, g);
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

    fn flush_pending(&mut self) {
        for k in 0..self.pending.len() {
            self.open.push(self.pending[k]);
        }
        self.pending.clear();
    }

    /// Pushes `node` (polygon and entry edge filled in) to `pending`.
    fn push(&mut self, mesh: &SearchPolygons, goal: DVec2, mut node: Node, g: PolyId) {
        let p = node.poly;
        // A dead end (no exit but the entry) can only matter when it holds the goal.
        if p != g && mesh.exits[p as usize] <= 1 {
            return;
        }
        let corners = mesh.corners(p);
        let n = corners.len();
        let e = node.edge as usize;
        let (l, r) = (
            corners.start + e,
            corners.start + if e + 1 == n { 0 } else { e + 1 },
        );
        let (lv, rv) = (mesh.corner_vert[l], mesh.corner_vert[r]);
        let (lp, rp) = (mesh.corner_pos[l], mesh.corner_pos[r]);
        let mut root = self.roots[node.root as usize];
        let on_line = cross(rp - lp, root.p - lp) == 0.0;
        if on_line && (root.p - lp).dot(root.p - rp) > 0.0 {
            // The root is on the edge's line but beyond one end (a polygon with straight
            // corners, seen edge-on): nothing past the edge is in view from it, so a path
            // there goes to the nearer end first and turns round it.
            let (near, nv) = if root.p.distance_squared(lp) <= root.p.distance_squared(rp) {
                (lp, lv)
            } else {
                (rp, rv)
            };
            let Some(nr) = self.new_root(node.root, nv, near) else {
                return;
            };
            node.root = nr;
            root = self.roots[nr as usize];
        }
        if on_line {
            if root.vertex == NONE {
                if self.seen[p as usize] == self.stamp {
                    return;
                }
                self.seen[p as usize] = self.stamp;
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

    /// A successor across polygon `p`'s edge `pe` (corner index), if it has a neighbour.
    #[allow(clippy::too_many_arguments)]
    fn succ(
        &mut self,
        mesh: &SearchPolygons,
        goal: DVec2,
        g: PolyId,
        parent: u32,
        root: u32,
        c: usize,
        (ir, rv, rdir): (DVec2, u32, DVec2),
        (il, lv, ldir): (DVec2, u32, DVec2),
    ) {
        let nb = mesh.corner_nb[c];
        if nb == NONE {
            return;
        }
        let node = Node {
            parent,
            root,
            poly: nb,
            edge: mesh.corner_nb_edge[c],
            via: 0,
            ir,
            il,
            rv,
            lv,
            rdir,
            ldir,
        };
        self.push(mesh, goal, node, g);
    }

    fn expand(&mut self, mesh: &SearchPolygons, goal: DVec2, nd: Node, g: PolyId) {
        let idx = self.link_parent.len() as u32;
        self.link_parent.push(nd.parent);
        self.link_edge.push(nd.edge);
        let root = self.roots[nd.root as usize];
        let rp = root.p;
        if nd.poly == g {
            let (cost, via) = if cross(nd.rdir, goal - rp) < 0.0 {
                (rp.distance(nd.ir) + nd.ir.distance(goal), 1)
            } else if cross(nd.ldir, goal - rp) > 0.0 {
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
        let corners = mesh.corners(nd.poly);
        let base = corners.start;
        let n = corners.len();
        let e = nd.edge as usize;
        // The chain c_0 = R (corner e + 1), c_1, ..., c_m = L (corner e); chain edge i is
        // the polygon's edge at corner e + 1 + i.
        let m = n - 1;
        // (No `%`: e + 1 + i < 2n.)
        let ci = |i: usize| {
            let k = e + 1 + i;
            base + if k >= n { k - n } else { k }
        };
        let cv = |i: usize| mesh.corner_vert[ci(i)];
        let cp = |i: usize| mesh.corner_pos[ci(i)];
        // The right side leaves through chain edge ri: the first whose far end is strictly
        // left of it.
        let mut ri = m - 1;
        for i in 0..m - 1 {
            if cross(nd.rdir, cp(i + 1) - rp) > 0.0 {
                ri = i;
                break;
            }
        }
        let s_ri = cross(nd.rdir, cp(ri) - rp);
        let (hr, hrv) = if s_ri >= 0.0 {
            (cp(ri), cv(ri))
        } else {
            hit(rp, nd.rdir, cp(ri), cv(ri), cp(ri + 1), cv(ri + 1))
        };
        // The left side leaves through chain edge lj: the last whose near end is strictly
        // right of it.
        let mut lj = 0;
        for j in (1..m).rev() {
            if cross(nd.ldir, cp(j) - rp) < 0.0 {
                lj = j;
                break;
            }
        }
        let t_lj1 = cross(nd.ldir, cp(lj + 1) - rp);
        let (hl, hlv) = if t_lj1 <= 0.0 {
            (cp(lj + 1), cv(lj + 1))
        } else {
            hit(rp, nd.ldir, cp(lj), cv(lj), cp(lj + 1), cv(lj + 1))
        };
        // Observable successors.
        if ri <= lj {
            for k in ri..=lj {
                let a = if k == ri {
                    (hr, hrv, nd.rdir)
                } else {
                    (cp(k), cv(k), cp(k) - rp)
                };
                let b = if k == lj {
                    (hl, hlv, nd.ldir)
                } else {
                    (cp(k + 1), cv(k + 1), cp(k + 1) - rp)
                };
                self.succ(mesh, goal, g, idx, nd.root, ci(k), a, b);
            }
        }
        // Behind the right end R: turn there.
        let (rvid, lvid) = (cv(0), cv(m));
        if ri > 0
            && nd.rv == rvid
            && rvid != root.vertex
            && mesh.corner_turn[ci(0)]
            && let Some(nr) = self.new_root(nd.root, rvid, cp(0))
        {
            let r = cp(0);
            for k in 0..ri {
                let (a, b) = (cp(k), cp(k + 1));
                self.succ(
                    mesh,
                    goal,
                    g,
                    idx,
                    nr,
                    ci(k),
                    (a, cv(k), a - r),
                    (b, cv(k + 1), b - r),
                );
            }
            if s_ri < 0.0 {
                let a = cp(ri);
                self.succ(
                    mesh,
                    goal,
                    g,
                    idx,
                    nr,
                    ci(ri),
                    (a, cv(ri), a - r),
                    (hr, hrv, nd.rdir),
                );
            }
        }
        // Behind the left end L.
        if lj + 1 < m
            && nd.lv == lvid
            && lvid != root.vertex
            && mesh.corner_turn[ci(m)]
            && let Some(nr) = self.new_root(nd.root, lvid, cp(m))
        {
            let l = cp(m);
            if t_lj1 > 0.0 {
                let b = cp(lj + 1);
                self.succ(
                    mesh,
                    goal,
                    g,
                    idx,
                    nr,
                    ci(lj),
                    (hl, hlv, nd.ldir),
                    (b, cv(lj + 1), b - l),
                );
            }
            for k in lj + 1..m {
                let (a, b) = (cp(k), cp(k + 1));
                self.succ(
                    mesh,
                    goal,
                    g,
                    idx,
                    nr,
                    ci(k),
                    (a, cv(k), a - l),
                    (b, cv(k + 1), b - l),
                );
            }
        }
    }

    fn reconstruct(
        &mut self,
        mesh: &SearchPolygons,
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
        self.corridor.clear();
        self.entry.clear();
        let mut p = g;
        let mut n = nd.parent;
        while n != NONE {
            self.corridor.push(p);
            let e = self.link_edge[n as usize];
            self.entry.push(e);
            let c = mesh.corners(p).start + e as usize;
            p = match mesh.corner_nb[c] {
                NONE => s,
                q => q,
            };
            n = self.link_parent[n as usize];
        }
        self.corridor.push(s);
        self.corridor.reverse();
        self.entry.reverse();
    }
}
