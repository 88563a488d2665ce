//! Point location: a [`BoxIndex`] of the triangles' bounding boxes, with about one bucket
//! of its finest level per 16 triangles, so a bucket holds a few dozen triangles on meshes
//! whose triangles are of similar size. Building is O(triangles) time and memory (at most
//! four entries a triangle, whatever its shape: a fan of thin triangles around one vertex
//! no longer lists each in every bucket its box covers). The containment test is exact
//! (Shewchuk's orientation predicate), so a point on a shared edge or vertex is found in
//! one of the triangles touching it: the one of least index.

use glam::DVec2;

use super::boxes::BoxIndex;
use super::{NavMesh, TriId, MIN_COORDINATE};
use crate::geometry::orientation;

/// The triangles' bounding boxes, indexed.
#[derive(Debug, Clone, Default)]
pub(super) struct Buckets {
    index: BoxIndex,
}

impl Buckets {
    /// Buckets over the box `lo..=hi` holding the given triangles.
    pub(super) fn new(vertices: &[DVec2], triangles: &[[u32; 3]], lo: DVec2, hi: DVec2) -> Self {
        // About one bucket per 16 triangles: a triangle then overlaps 1.8 buckets on average
        // on grid maps (3.8 at one per two), and a lookup tests a few dozen.
        let boxes = triangles.iter().map(|tri| {
            let [a, b, c] = tri.map(|i| vertices[i as usize]);
            (a.min(b).min(c), a.max(b).max(c))
        });
        Buckets {
            index: BoxIndex::new(lo, hi, triangles.len() as f64 / 16.0, boxes),
        }
    }

    /// The first triangle of `mesh` that contains `p` (closed, exact), if any. `p` must be
    /// finite.
    pub(super) fn locate(&self, mesh: &NavMesh, p: DVec2) -> Option<TriId> {
        self.locate_where(mesh, p, &|_| true)
    }

    /// The first triangle of `mesh` that contains `p` (closed, exact) and passes `keep`, if
    /// any. `p` must be finite. (`keep` is asked only of the few triangles containing `p`:
    /// a `dyn` keeps one copy of the search in the WebAssembly module.)
    pub(super) fn locate_where(
        &self,
        mesh: &NavMesh,
        p: DVec2,
        keep: &dyn Fn(TriId) -> bool,
    ) -> Option<TriId> {
        let p = flushed(p);
        let contains = |t: TriId| {
            let [a, b, c] = mesh.triangle(t);
            // Outside the triangle's box is outside it: most of a bucket's triangles are
            // settled so, without the three predicates.
            let (lo, hi) = (a.min(b).min(c), a.max(b).max(c));
            if p.cmplt(lo).any() || p.cmpgt(hi).any() {
                return false;
            }
            orientation(a, b, p) >= 0 && orientation(b, c, p) >= 0 && orientation(c, a, p) >= 0
        };
        // The least index over the levels (each list is increasing, so a list is read only
        // up to the best found so far): the same triangle whatever the index's layout.
        let mut best: Option<TriId> = None;
        self.index.for_each_bucket(p, p, |list| {
            let below = |t: &&u32| best.is_none_or(|b| (**t as TriId) < b);
            if let Some(&t) = list
                .iter()
                .take_while(below)
                .find(|&&t| contains(t as TriId) && keep(t as TriId))
            {
                best = Some(t as TriId);
            }
        });
        best
    }
}

/// `p` with tiny coordinates taken as 0, as the search locates it: the exact predicate's
/// error bounds underflow below [`MIN_COORDINATE`].
fn flushed(p: DVec2) -> DVec2 {
    let flush = |c: f64| if c.abs() < MIN_COORDINATE { 0.0 } else { c };
    DVec2::new(flush(p.x), flush(p.y))
}

/// True when `p` lies strictly inside triangle `t` of `mesh` (exact): then no other
/// triangle contains it, and `t` is what [`Buckets::locate`] answers.
pub(super) fn strictly_inside(mesh: &NavMesh, p: DVec2, t: TriId) -> bool {
    let p = flushed(p);
    let [a, b, c] = mesh.triangle(t);
    orientation(a, b, p) > 0 && orientation(b, c, p) > 0 && orientation(c, a, p) > 0
}
