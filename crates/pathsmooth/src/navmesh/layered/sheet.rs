//! The sheet of a channel: the part of a layered surface around it that is one floor deep,
//! as a flat navmesh.

use std::collections::BinaryHeap;

use glam::DVec2;
use rustc_hash::{FxHashMap, FxHashSet};

use super::edge_tree::EdgeTree;
use super::{Nearest, SurfaceMesh};
use crate::cancel::{Cancel, Checkpoint};
use crate::error::{Error, Result};
use crate::geometry::orientation;
use crate::navmesh::mesh::boxes::BoxIndex;
use crate::navmesh::mesh::work::tally;
use crate::navmesh::mesh::{NavMesh, TriId, NO_TRI};

/// A flat piece of a layered surface around a path's channel (see
/// [`SurfaceMesh`]): a [`NavMesh`] whose triangles are triangles of the surface mesh
/// that do not overlap in plan view, joined where the surface joins them.
///
/// **Built** by a walk outward from the channel, nearest triangles first (Dijkstra over the
/// distances between triangle centroids, every channel triangle a source), keeping a
/// triangle when its plan-view box meets the region (the channel's bounding box grown by a
/// margin) and its interior overlaps no triangle kept before. So near the path the sheet is
/// the path's own floor, and a floor above or below is cut off where it would overlap.
///
/// **Why it is sound.** The sheet is a subset of the surface and its edges towards a
/// triangle left out are walls, so free space on the sheet is free on the surface, and a
/// distance to the sheet's walls is never more than the distance to the surface's walls on
/// that floor: whatever a step finds valid on the sheet is valid on the surface. It may be
/// stricter than the surface where another floor took the place first (a path can then be
/// smoothed less, never wrongly).
///
/// Cost: O(t log t) for the t triangles walked (a heap, and for each triangle that
/// overlaps another somewhere in the mesh, a look-up of the triangles it overlaps; see
/// `SheetScratch::build`), and a flat navmesh of the ones kept. The first sheet of a
/// [`SurfaceMesh`] finds which triangles overlap which, O(n) tests and a sort of the pairs,
/// once. On a mesh with too many pairs to list (more than 16 a triangle: fans of long
/// triangles over one spot) each such triangle asks instead a k-d tree of the mesh's
/// triangle sides which sides on the border of the kept triangles meet it, O(log n) and
/// up, the tree built by the first sheet, O(n log n).
#[derive(Debug, Clone)]
pub struct Sheet {
    mesh: NavMesh,
    /// Sheet triangle → plan-mesh triangle.
    surface_triangle: Vec<u32>,
    /// Plan-mesh triangle → sheet triangle, for the triangles kept (`None`: the whole
    /// plan mesh, each triangle itself).
    sheet_triangle: Option<FxHashMap<u32, u32>>,
}

impl Sheet {
    /// The flat navmesh; each triangle keeps its surface polygon's area
    /// ([`NavMesh::area_of`]).
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// The flat navmesh, owned.
    pub fn into_mesh(self) -> NavMesh {
        self.mesh
    }

    /// The triangle of the surface's plan mesh that sheet triangle `t` is. Panics if `t`
    /// is out of range.
    pub fn surface_triangle(&self, t: TriId) -> TriId {
        self.surface_triangle[t] as TriId
    }

    /// The sheet triangle that plan-mesh triangle `t` is, if the sheet kept it.
    pub fn sheet_triangle(&self, t: TriId) -> Option<TriId> {
        match &self.sheet_triangle {
            Some(map) => map.get(&(t as u32)).map(|&s| s as TriId),
            None => (t < self.surface_triangle.len()).then_some(t),
        }
    }

    /// The whole plan mesh of a surface with one floor ([`SurfaceMesh::is_one_floor`])
    /// as a sheet: every triangle kept, numbered as in the plan mesh. Cost: a copy of the
    /// plan mesh.
    pub(crate) fn whole(plan: &NavMesh) -> Sheet {
        Sheet {
            mesh: plan.clone(),
            surface_triangle: (0..plan.num_triangles() as u32).collect(),
            sheet_triangle: None,
        }
    }
}

/// How a sheet's walk tells whether a triangle overlaps the kept ones.
#[derive(Debug, Clone, Copy)]
enum Overlaps<'a> {
    /// By the pairs of overlapping triangles: is one of the triangle's kept?
    Pairs(&'a Partners),
    /// By the sides on the border of the kept triangles that meet it, found in the
    /// mesh's side tree (for meshes with too many pairs to list).
    Border(&'a EdgeTree),
}

/// The sheet builder's scratch (kept by the query, so repeated builds reuse it).
#[derive(Debug, Clone, Default)]
pub(crate) struct SheetScratch {
    /// Plan-mesh triangle → best distance found.
    best: Stamped,
    open: BinaryHeap<Nearest>,
    kept: Vec<u32>,
    /// The kept triangles, to look up. (A hash set: stamped as `best` is, a sheet was no
    /// faster, and the WebAssembly build 50 KB larger; `docs/wasm.md`.)
    is_kept: FxHashSet<u32>,
    /// Per node of the mesh's side tree ([`SurfaceMesh::side_tree`]): how many sides on
    /// the border of the kept triangles it holds (all 0 between builds).
    border: Vec<u32>,
}

impl SheetScratch {
    /// The sheet of `channel` (triangles of `mesh`'s plan mesh) reaching `margin` beyond
    /// its bounding box. Errors: [`Error::InvalidResult`] when two channel triangles
    /// overlap in plan view; [`Error::Cancelled`] when `cancel` is (read every
    /// [`CHECK_EVERY`](crate::cancel::CHECK_EVERY) triangles taken from the walk).
    ///
    /// Whether a triangle overlaps the kept ones is looked up in the mesh's list of the
    /// triangles it overlaps ([`Partners`]): is one of them kept? On a mesh with too many
    /// pairs to list, it is asked of the sides on their border
    /// (a side of a kept triangle whose neighbour across is not kept) that meet it, never
    /// of every kept triangle near it. That is enough for a triangle with a kept
    /// neighbour, which every triangle the walk reaches has: if it overlaps the kept
    /// region without lying inside it, the region's border — made of such sides — passes
    /// through its interior, and the kept triangle of that side overlaps it; if it lies
    /// inside the region, the kept triangles covering it next to the neighbour's shared
    /// side have a bordering side along that side (their neighbours across would overlap
    /// the kept neighbour), and they overlap it. The channel is taken first, in its order
    /// (each triangle but the first next to the one before; one that is not is tested
    /// against every kept triangle). So the sheet is the same as testing every pair.
    pub(crate) fn build(
        &mut self,
        mesh: &SurfaceMesh,
        channel: &[TriId],
        margin: f64,
        cancel: Option<&Cancel>,
    ) -> Result<Sheet> {
        let test = match &mesh.overlapping().partners {
            Some(partners) => Overlaps::Pairs(partners),
            None => Overlaps::Border(mesh.side_tree()),
        };
        self.build_by(mesh, test, channel, margin, cancel)
    }

    /// [`build`](Self::build) with the overlap test `test`.
    fn build_by(
        &mut self,
        mesh: &SurfaceMesh,
        test: Overlaps<'_>,
        channel: &[TriId],
        margin: f64,
        cancel: Option<&Cancel>,
    ) -> Result<Sheet> {
        let plan = mesh.plan_mesh();
        let (lo, hi) = channel_box(plan, channel, margin);
        self.best.reset(plan.num_triangles());
        self.open.clear();
        self.kept.clear();
        self.is_kept.clear();
        if let Overlaps::Border(tree) = test {
            self.border.resize(tree.nodes(), 0);
        }
        let mut checkpoint = Checkpoint::new(cancel);
        let overlapping = &mesh.overlapping().flags;
        let result = self.walk(plan, test, overlapping, channel, (lo, hi), &mut checkpoint);
        // Every count back to 0: only the nodes over the kept triangles' sides were set.
        if let Overlaps::Border(tree) = test {
            for &t in &self.kept {
                for s in 0..3 {
                    tree.clear(&mut self.border, 3 * t + s);
                }
            }
        }
        result?;
        Ok(self.flat(plan))
    }

    /// The channel, then the walk outward from it (see [`build`](Self::build)). Only the
    /// triangles `overlapping` flags are tested against the kept ones: a triangle that
    /// overlaps no triangle of the mesh overlaps none kept.
    fn walk(
        &mut self,
        plan: &NavMesh,
        test: Overlaps<'_>,
        overlapping: &[bool],
        channel: &[TriId],
        (lo, hi): (DVec2, DVec2),
        checkpoint: &mut Checkpoint<'_>,
    ) -> Result<()> {
        for &t in channel {
            if checkpoint.stop() {
                return Err(Error::Cancelled);
            }
            let t = t as u32;
            if self.best.get(t).is_some() {
                continue;
            }
            self.best.set(t, 0.0);
            let next_to_kept = || {
                plan.neighbors(t as TriId)
                    .into_iter()
                    .flatten()
                    .any(|n| self.is_kept.contains(&(n as u32)))
            };
            let overlaps = if !overlapping[t as usize] {
                false
            } else if self.kept.is_empty() || next_to_kept() {
                self.overlaps_kept(plan, test, t)
            } else {
                let tri = plan.triangle(t as TriId);
                self.kept.iter().any(|&u| {
                    tally(1);
                    interiors_overlap(tri, plan.triangle(u as TriId))
                })
            };
            if overlaps {
                return Err(Error::InvalidResult {
                    step: "surface sheet",
                    reason: "the path passes over or under itself (its channel overlaps \
                             in plan view), which no flat sheet can hold"
                        .into(),
                });
            }
            self.keep(plan, test, t);
        }
        for &t in &self.kept {
            reach_out(plan, t, 0.0, (lo, hi), &mut self.best, &mut self.open);
        }
        while let Some(Nearest { d, item: t }) = self.open.pop() {
            if checkpoint.stop() {
                return Err(Error::Cancelled);
            }
            if self.best.get(t).is_some_and(|b| b < d) {
                continue;
            }
            if overlapping[t as usize] && self.overlaps_kept(plan, test, t) {
                continue;
            }
            self.keep(plan, test, t);
            reach_out(plan, t, d, (lo, hi), &mut self.best, &mut self.open);
        }
        Ok(())
    }

    /// True when triangle `t`'s interior overlaps a kept triangle's: one of its listed
    /// partners kept; or, for `t` next to a kept triangle, the kept triangles of the
    /// bordering sides that meet it.
    fn overlaps_kept(&self, plan: &NavMesh, test: Overlaps<'_>, t: u32) -> bool {
        let tree = match test {
            Overlaps::Pairs(partners) => {
                return partners.of(t).iter().any(|&u| self.is_kept.contains(&u));
            }
            Overlaps::Border(tree) => tree,
        };
        let tri = plan.triangle(t as TriId);
        let mut overlaps = false;
        tree.for_each_near(&self.border, tri, |h| {
            let u = h / 3;
            if self.on_border(plan, h) {
                tally(1);
                overlaps = interiors_overlap(tri, plan.triangle(u as TriId));
            }
            !overlaps
        });
        overlaps
    }

    /// Is side `h` (side `h % 3` of triangle `h / 3`) on the border of the kept ones?
    fn on_border(&self, plan: &NavMesh, h: u32) -> bool {
        self.is_kept.contains(&(h / 3))
            && plan
                .across(h as TriId / 3, h as usize % 3)
                .is_none_or(|n| !self.is_kept.contains(&(n as u32)))
    }

    /// Keeps `t`: its sides whose neighbour is not kept join the border, and the kept
    /// neighbours' sides towards it leave.
    fn keep(&mut self, plan: &NavMesh, test: Overlaps<'_>, t: u32) {
        self.kept.push(t);
        self.is_kept.insert(t);
        let Overlaps::Border(tree) = test else {
            return;
        };
        for s in 0..3 {
            match plan.across(t as TriId, s) {
                Some(n) if self.is_kept.contains(&(n as u32)) => {
                    for back in 0..3 {
                        if plan.across(n, back) == Some(t as TriId) {
                            tree.switch(&mut self.border, 3 * n as u32 + back as u32, -1);
                        }
                    }
                }
                _ => tree.switch(&mut self.border, 3 * t + s as u32, 1),
            }
        }
    }

    /// The kept triangles as a flat navmesh (vertices renumbered, adjacency kept where
    /// both sides are kept).
    fn flat(&self, plan: &NavMesh) -> Sheet {
        let mut kept = self.kept.clone();
        kept.sort_unstable();
        let sheet_triangle: FxHashMap<u32, u32> = kept
            .iter()
            .enumerate()
            .map(|(i, &t)| (t, i as u32))
            .collect();
        let mut vertex: FxHashMap<u32, u32> = FxHashMap::default();
        let mut vertices = Vec::new();
        let mut triangles = Vec::with_capacity(kept.len());
        let mut neighbors = Vec::with_capacity(kept.len());
        for &t in &kept {
            let tri = plan.triangle_indices()[t as usize];
            triangles.push(tri.map(|v| {
                *vertex.entry(v).or_insert_with(|| {
                    vertices.push(plan.vertices()[v as usize]);
                    (vertices.len() - 1) as u32
                })
            }));
            neighbors.push(std::array::from_fn(|i| {
                plan.across(t as TriId, i)
                    .and_then(|n| sheet_triangle.get(&(n as u32)).copied())
                    .unwrap_or(NO_TRI)
            }));
        }
        let mut mesh = NavMesh::from_parts(vertices, triangles, neighbors);
        mesh.set_triangle_areas(kept.iter().map(|&t| plan.area_of(t as TriId)).collect());
        Sheet {
            mesh,
            surface_triangle: kept,
            sheet_triangle: Some(sheet_triangle),
        }
    }
}

/// A distance per plan-mesh triangle, all cleared at once: a distance counts only when its
/// stamp is the current one, so a sheet's walk over a few triangles of a large mesh clears
/// nothing and looks distances up with no hashing. Memory: 12 bytes per triangle of the
/// largest mesh walked, kept between builds.
#[derive(Debug, Clone, Default)]
struct Stamped {
    stamp: Vec<u32>,
    value: Vec<f64>,
    now: u32,
}

impl Stamped {
    /// Forgets every distance, for a mesh of `n` triangles. O(1), but O(n) the first time
    /// (or for a larger mesh) and once every 2³² resets.
    fn reset(&mut self, n: usize) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
        if self.stamp.len() < n {
            self.stamp.resize(n, 0);
            self.value.resize(n, 0.0);
        }
    }

    /// The distance of triangle `t`, if set since the last reset.
    fn get(&self, t: u32) -> Option<f64> {
        let t = t as usize;
        (self.stamp[t] == self.now).then(|| self.value[t])
    }

    /// Sets the distance of triangle `t`.
    fn set(&mut self, t: u32, v: f64) {
        let t = t as usize;
        (self.stamp[t], self.value[t]) = (self.now, v);
    }
}

/// One step of the sheet's walk: offers the neighbours of kept triangle `t` (reached at
/// walk distance `d`) whose plan-view boxes meet the region `(lo, hi)`. A neighbour's
/// distance is `d` plus the distance between the two centroids (at least the smallest
/// positive number, so that distances grow along the walk); when that is below its `best`
/// so far it becomes its best and the neighbour goes on `open`.
fn reach_out(
    plan: &NavMesh,
    t: u32,
    d: f64,
    (lo, hi): (DVec2, DVec2),
    best: &mut Stamped,
    open: &mut BinaryHeap<Nearest>,
) {
    let c = plan.centroid(t as TriId);
    for n in plan.neighbors(t as TriId).into_iter().flatten() {
        let (a, b) = tri_box(plan, n);
        if a.cmpgt(hi).any() || b.cmplt(lo).any() {
            continue;
        }
        let dn = d + c.distance(plan.centroid(n)).max(f64::MIN_POSITIVE);
        let n = n as u32;
        if best.get(n).is_none_or(|b| dn < b) {
            best.set(n, dn);
            open.push(Nearest { d: dn, item: n });
        }
    }
}

/// The plan-view box of the `channel`'s triangles grown by `margin` on every side: the
/// sheet keeps no triangle outside it.
fn channel_box(plan: &NavMesh, channel: &[TriId], margin: f64) -> (DVec2, DVec2) {
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for &t in channel {
        let (a, b) = tri_box(plan, t);
        (lo, hi) = (lo.min(a), hi.max(b));
    }
    (lo - margin, hi + margin)
}

fn tri_box(plan: &NavMesh, t: TriId) -> (DVec2, DVec2) {
    let [a, b, c] = plan.triangle(t);
    (a.min(b).min(c), a.max(b).max(c))
}

/// How many candidate triangles [`overlapping`] looks at, at most, per triangle of the
/// mesh (a real mesh's triangles look at a few dozen each).
const OVERLAP_BUDGET: usize = 256;

/// How many overlapping pairs [`overlapping`] lists, at most, per triangle of the mesh
/// (floors over floors give a few a triangle; more, and the sheet asks the side tree).
const PAIRS_A_TRIANGLE: usize = 16;

/// Which triangles of a plan mesh overlap which (their interiors meet), each pair listed
/// from both ends: what a sheet's walk asks of a triangle it reaches, answered by looking
/// up whether one of them is kept.
#[derive(Debug, Clone)]
pub(crate) struct Partners {
    /// Triangle `t` overlaps `list[start[t]..start[t + 1]]`.
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Partners {
    /// The lists of `n` triangles from `pairs` (each pair once or more, either way round).
    fn new(n: usize, pairs: &mut Vec<(u32, u32)>) -> Self {
        let found = pairs.len();
        pairs.extend_from_within(..);
        for pair in &mut pairs[found..] {
            *pair = (pair.1, pair.0);
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut start = vec![0u32; n + 1];
        for &(t, _) in pairs.iter() {
            start[t as usize + 1] += 1;
        }
        for t in 0..n {
            start[t + 1] += start[t];
        }
        let list = pairs.iter().map(|&(_, u)| u).collect();
        Partners { start, list }
    }

    /// The triangles whose interiors meet triangle `t`'s.
    pub(crate) fn of(&self, t: u32) -> &[u32] {
        &self.list[self.start[t as usize] as usize..self.start[t as usize + 1] as usize]
    }
}

/// Which triangles of `plan` overlap another one in plan view (their interiors meet,
/// exactly): `flags[t]` is true for each, and a mesh with none is one floor deep
/// everywhere; with them, the pairs ([`Partners`]) while there are at most
/// [`PAIRS_A_TRIANGLE`] a triangle. All true (and no pairs) when telling would cost more
/// than [`OVERLAP_BUDGET`] candidates a triangle — many long triangles over one spot, a fan
/// round one vertex, where every pair's boxes meet — so the test is O(n) at worst and errs
/// only towards "overlaps", which costs a sheet's walk a test and never a wrong answer.
/// `None` when `checkpoint` stops it (it is asked once per candidate: on a fan the budget
/// is tens of millions of candidates, seconds in a test build).
///
/// Cost: O(n) to index the triangles' boxes, then each pair of triangles whose boxes share
/// a bucket tested once (once the pairs are too many to list, a pair already both flagged
/// is passed over); the pairs sorted, O(p log p).
pub(super) fn overlapping(
    plan: &NavMesh,
    checkpoint: &mut Checkpoint,
) -> Option<(Vec<bool>, Option<Partners>)> {
    let n = plan.num_triangles();
    let mut flags = vec![false; n];
    if n < 2 {
        return Some((flags, None));
    }
    let boxes = (0..n).map(|t| tri_box(plan, t));
    let (lo, hi) = boxes.clone().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), (a, b)| (lo.min(a), hi.max(b)),
    );
    let index = BoxIndex::new(lo, hi, n as f64 / 4.0, boxes);
    let mut budget = OVERLAP_BUDGET.saturating_mul(n);
    // The pairs found (a pair may come from several buckets), while they are few enough.
    let mut pairs = Some(Vec::new());
    for t in 0..n {
        let (a, b) = tri_box(plan, t);
        let tri = plan.triangle(t);
        index.for_each_bucket(a, b, |items| {
            if budget == 0 || checkpoint.stopped() {
                return;
            }
            budget = budget.saturating_sub(items.len());
            // Each pair once (u > t), flagging both: the work of a one-floor test.
            for &u in items {
                let u = u as TriId;
                if checkpoint.stop() {
                    return;
                }
                let (c, d) = tri_box(plan, u);
                if u > t
                    && (pairs.is_some() || !(flags[t] && flags[u]))
                    && a.cmplt(d).all()
                    && c.cmplt(b).all()
                    && interiors_overlap(tri, plan.triangle(u))
                {
                    (flags[t], flags[u]) = (true, true);
                    if let Some(list) = &mut pairs {
                        list.push((t as u32, u as u32));
                        if list.len() > PAIRS_A_TRIANGLE * n {
                            pairs = None;
                        }
                    }
                }
            }
        });
        if checkpoint.stopped() {
            return None;
        }
        if budget == 0 {
            return Some((vec![true; n], None));
        }
    }
    let partners = pairs.map(|mut pairs| Partners::new(n, &mut pairs));
    Some((flags, partners))
}

/// True when the interiors of counter-clockwise triangles `p` and `q` meet. Two convex
/// polygons with disjoint interiors are separated by a line through an edge of one of them
/// (the separating axis theorem), so the interiors meet unless, for some edge, the other
/// triangle lies wholly on its closed outer side. Exact (orientation predicates only), so
/// triangles that only touch along an edge or at a corner never count as overlapping.
fn interiors_overlap(p: [DVec2; 3], q: [DVec2; 3]) -> bool {
    let separates = |t: [DVec2; 3], u: [DVec2; 3]| {
        (0..3).any(|i| {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            u.iter().all(|&v| orientation(a, b, v) <= 0)
        })
    };
    !separates(p, q) && !separates(q, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::layered::SurfaceQuery;
    use crate::navmesh::surface::{fan, Surface, UpAxis};
    use glam::DVec3;

    /// A row of squares is one floor, the same with a square folded over another is not,
    /// and a fan of long triangles round one vertex (every pair's boxes meet) is given
    /// up on within the budget rather than tested pair by pair.
    #[test]
    fn one_floor_is_told_and_a_fan_is_given_up_within_the_budget() {
        let row = |fold: bool| {
            let mut v = Vec::new();
            for i in 0..=40 {
                let x = if fold && i == 40 { 38.5 } else { f64::from(i) };
                v.extend([DVec3::new(x, 0.0, 0.0), DVec3::new(x, 0.0, 1.0)]);
            }
            let quads: Vec<[u32; 4]> = (0..40u32)
                .map(|i| [2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2])
                .collect();
            (v, quads)
        };
        let one_floor = |mesh: SurfaceMesh| {
            overlapping(mesh.plan_mesh(), &mut Checkpoint::new(None)).map(|f| !f.0.contains(&true))
        };
        let (v, quads) = row(false);
        let flat = Surface::from_polygons(&v, &quads[..], UpAxis::Y, 0.0).unwrap();
        assert_eq!(one_floor(SurfaceMesh::new(flat).unwrap()), Some(true));
        // The last square turned back over the one before it (a spiral ramp's plan view).
        let (mut v, quads) = row(true);
        v[80].y = 3.0;
        v[81].y = 3.0;
        let folded = Surface::from_polygons(&v, &quads[..], UpAxis::Y, 0.0).unwrap();
        assert_eq!(one_floor(SurfaceMesh::new(folded).unwrap()), Some(false));
        let (v, tris) = fan(20_000, 100.0);
        let fan = Surface::from_polygons(&v, &tris, UpAxis::Y, 0.0).unwrap();
        let fan = SurfaceMesh::new(fan).unwrap();
        // The fan spends its whole budget (5 million candidates): a token stops it.
        let cancel = Cancel::new();
        cancel.cancel();
        let stopped = overlapping(fan.plan_mesh(), &mut Checkpoint::new(Some(&cancel)));
        assert!(stopped.is_none());
        // Given up on: every triangle flagged, no pairs (the sheet asks the side tree).
        let (flags, partners) = overlapping(fan.plan_mesh(), &mut Checkpoint::new(None)).unwrap();
        assert!(flags.iter().all(|&f| f) && partners.is_none());
        assert_eq!(one_floor(fan), Some(false));
    }

    #[test]
    fn a_mesh_built_with_a_token_is_tested_for_one_floor_under_it() {
        let (v, tris) = fan(20_000, 100.0);
        let fan = Surface::from_polygons(&v, &tris, UpAxis::Y, 0.0).unwrap();
        let built = SurfaceMesh::new_cancellable(fan.clone(), &Cancel::new()).unwrap();
        let tested = built.overlapping.get().map(|o| o.one_floor);
        assert_eq!(tested, Some(false), "tested in the build");
        let mesh = SurfaceMesh::new(fan).unwrap();
        assert!(mesh.overlapping.get().is_none(), "on first ask");
    }

    #[test]
    fn the_triangles_flagged_overlapping_are_those_that_overlap_another() {
        // Every pair tested: the flags' definition.
        let by_every_pair = |plan: &NavMesh| -> Vec<bool> {
            let n = plan.num_triangles();
            (0..n)
                .map(|t| {
                    (0..n).any(|u| u != t && interiors_overlap(plan.triangle(t), plan.triangle(u)))
                })
                .collect()
        };
        let mut some = 0;
        for turns in [1, 2, 3] {
            let mesh = spiral(turns);
            let plan = mesh.plan_mesh();
            let (flags, partners) = overlapping(plan, &mut Checkpoint::new(None)).unwrap();
            assert_eq!(flags, by_every_pair(plan), "{turns} turns");
            // The pairs listed are every pair that overlaps, each from both ends.
            let partners = partners.expect("a few pairs a triangle: listed");
            for t in 0..plan.num_triangles() {
                let every: Vec<u32> = (0..plan.num_triangles())
                    .filter(|&u| u != t && interiors_overlap(plan.triangle(t), plan.triangle(u)))
                    .map(|u| u as u32)
                    .collect();
                let mut listed = partners.of(t as u32).to_vec();
                listed.sort_unstable();
                assert_eq!(listed, every, "{turns} turns, triangle {t}");
            }
            some += flags.iter().filter(|&&f| f).count();
            assert_eq!(mesh.is_one_floor(), turns == 1 && !flags.contains(&true));
        }
        assert!(some > 0);
    }

    #[test]
    fn a_cancelled_token_stops_the_build() {
        // A fan of 64 triangles round the origin: the path across it goes round the
        // centre through half of them, each overlapping-tested against the others kept.
        let (v, tris) = fan(64, 10.0);
        let surface = Surface::from_polygons(&v, &tris, UpAxis::Y, 0.0).unwrap();
        let mesh = SurfaceMesh::new(surface).unwrap();
        let mut query = SurfaceQuery::new();
        query.search_triangles();
        let (a, b) = (DVec3::new(9.0, 0.0, 0.1), DVec3::new(-9.0, 0.0, 0.1));
        query.find_path(&mesh, a, b, 0.0).unwrap();
        let cancel = Cancel::new();
        query.set_cancel(Some(cancel.clone()));
        assert!(query.sheet(&mesh, 1.0).unwrap().mesh().num_triangles() > tris.len() / 2);
        cancel.cancel();
        assert_eq!(query.sheet(&mesh, 1.0).unwrap_err(), Error::Cancelled);
    }

    #[test]
    fn touching_triangles_do_not_overlap() {
        let a = [DVec2::ZERO, DVec2::X, DVec2::Y];
        let b = [DVec2::X, DVec2::new(1.0, 1.0), DVec2::Y];
        assert!(!interiors_overlap(a, b));
        let corner = [
            DVec2::new(1.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 1.0),
        ];
        assert!(!interiors_overlap(a, corner));
        let shifted = [
            DVec2::new(0.5, 0.0),
            DVec2::new(1.5, 0.0),
            DVec2::new(0.5, 1.0),
        ];
        assert!(interiors_overlap(a, shifted));
        assert!(interiors_overlap(a, a));
        // One inside the other.
        let small = [
            DVec2::new(0.1, 0.1),
            DVec2::new(0.2, 0.1),
            DVec2::new(0.1, 0.2),
        ];
        assert!(interiors_overlap(a, small));
    }

    /// The walk as first written, testing each triangle against every kept one: the
    /// sheet's definition, which the border test must match triangle for triangle.
    fn by_every_pair(mesh: &SurfaceMesh, channel: &[TriId], margin: f64) -> Option<Vec<u32>> {
        let plan = mesh.plan_mesh();
        let (lo, hi) = channel_box(plan, channel, margin);
        let mut best = Stamped::default();
        best.reset(plan.num_triangles());
        let mut open = BinaryHeap::new();
        let mut kept: Vec<u32> = Vec::new();
        for &t in channel {
            if best.get(t as u32).is_none() {
                best.set(t as u32, 0.0);
                open.push(Nearest {
                    d: 0.0,
                    item: t as u32,
                });
            }
        }
        while let Some(Nearest { d, item: t }) = open.pop() {
            if best.get(t).is_some_and(|b| b < d) {
                continue;
            }
            let tri = plan.triangle(t as TriId);
            if kept
                .iter()
                .any(|&u| interiors_overlap(tri, plan.triangle(u as TriId)))
            {
                if d == 0.0 {
                    return None;
                }
                continue;
            }
            kept.push(t);
            reach_out(plan, t, d, (lo, hi), &mut best, &mut open);
        }
        kept.sort_unstable();
        Some(kept)
    }

    /// A spiral ramp of `turns` turns (16 sectors a turn, rising 0.25 a sector) round a
    /// pillar, over a square floor it starts from: floors over floors, all joined.
    fn spiral(turns: usize) -> SurfaceMesh {
        use crate::navmesh::{Surface, UpAxis};
        use glam::DVec3;
        let sectors = 16 * turns;
        let mut v = Vec::new();
        for k in 0..=sectors {
            let a = k as f64 / 16.0 * std::f64::consts::TAU;
            let (c, s) = (a.cos(), a.sin());
            let h = 0.25 * k as f64;
            v.push(DVec3::new(c, s, h));
            v.push(DVec3::new(3.0 * c, 3.0 * s, h));
        }
        let mut polygons: Vec<Vec<u32>> = (0..sectors as u32)
            .map(|k| vec![2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2])
            .collect();
        // The floor: a square beyond the ramp's start, sharing its first edge.
        let base = v.len() as u32;
        v.extend([DVec3::new(1.0, -2.0, 0.0), DVec3::new(3.0, -2.0, 0.0)]);
        polygons.push(vec![base, base + 1, 1, 0]);
        let surface = Surface::from_polygons(&v, &polygons, UpAxis::Z, 1e-9).unwrap();
        SurfaceMesh::new(surface).unwrap()
    }

    #[test]
    fn the_border_test_keeps_what_testing_every_pair_keeps() {
        use crate::navmesh::SurfaceQuery;
        use glam::DVec3;
        let mesh = spiral(3);
        let mut query = SurfaceQuery::new();
        let mut scratch = SheetScratch::default();
        let at = |k: f64| {
            let a = k / 16.0 * std::f64::consts::TAU;
            DVec3::new(2.0 * a.cos(), 2.0 * a.sin(), 0.25 * k)
        };
        let (mut refused, mut cut) = (0, 0);
        // Paths up the ramp of less than a turn (a sheet) and of more (its channel over
        // itself: refused), from the floor and from the middle, with reaches of every size.
        for (from, to) in [
            (0.5, 5.5),
            (0.5, 14.5),
            (0.5, 20.5),
            (17.5, 30.5),
            (8.5, 40.5),
        ] {
            let (a, b) = if from == 0.5 {
                (DVec3::new(2.0, -1.0, 0.0), at(to))
            } else {
                (at(from), at(to))
            };
            query.find_path(&mesh, a, b, 0.0).unwrap();
            let channel = query.channel(&mesh).to_vec();
            // Both tests: the listed pairs' (what `build` takes here) and the border's.
            let partners = mesh.overlapping().partners.as_ref().expect("listed");
            let tests = [
                Overlaps::Pairs(partners),
                Overlaps::Border(mesh.side_tree()),
            ];
            for (margin, test) in [0.0, 0.5, 2.0, 100.0]
                .into_iter()
                .flat_map(|m| tests.map(|t| (m, t)))
            {
                let reference = by_every_pair(&mesh, &channel, margin);
                let built = scratch.build_by(&mesh, test, &channel, margin, None);
                match (reference, built) {
                    (Some(r), Ok(sheet)) => {
                        assert_eq!(sheet.surface_triangle, r, "{test:?}");
                        // A turn above or below left out.
                        cut += usize::from(r.len() + 16 < mesh.plan_mesh().num_triangles());
                    }
                    (None, Err(_)) => refused += 1,
                    (r, b) => panic!("{from} → {to}, margin {margin}: {r:?} and {b:?}"),
                }
                assert!(scratch.border.iter().all(|&c| c == 0));
            }
        }
        assert!(refused > 0 && cut > 0, "{refused} refused, {cut} cut");
    }
}
