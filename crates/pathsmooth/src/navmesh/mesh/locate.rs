//! Point location: a uniform grid of buckets over the mesh, each listing the triangles whose
//! bounding box overlaps it.
//!
//! The grid has about one bucket per 16 triangles, so a bucket holds a few dozen triangles
//! on meshes whose triangles are of similar size. Memory is one `u32` per bucket
//! plus one per (triangle, overlapped bucket); building and the lookup of a bucket are O(1)
//! per entry. The containment test is exact (Shewchuk's orientation predicate), so a point
//! on a shared edge or vertex is found in one of the triangles touching it.

use glam::DVec2;

use super::{NavMesh, TriId, MIN_COORDINATE};
use crate::geometry::orientation;

/// Triangles by bucket, in compressed rows: bucket `b` holds `tris[start[b]..start[b + 1]]`.
#[derive(Debug, Clone, Default)]
pub(super) struct Buckets {
    lo: DVec2,
    /// Buckets per world unit, along x and y.
    scale: DVec2,
    nx: usize,
    ny: usize,
    start: Vec<u32>,
    tris: Vec<u32>,
}

impl Buckets {
    /// Buckets over the box `lo..=hi` holding the given triangles.
    pub(super) fn new(vertices: &[DVec2], triangles: &[[u32; 3]], lo: DVec2, hi: DVec2) -> Self {
        let extent = (hi - lo).max(DVec2::splat(f64::MIN_POSITIVE));
        // Square buckets, about one per 16 triangles: a triangle then overlaps 1.8 buckets
        // on average on grid maps (3.8 at one per two), and a lookup tests a few dozen.
        let n = (triangles.len() as f64 / 16.0).max(1.0);
        let side = (extent.x * extent.y / n).sqrt();
        let count = |len: f64| ((len / side).ceil()).clamp(1.0, n) as usize;
        let (nx, ny) = if side > 0.0 && side.is_finite() {
            (count(extent.x), count(extent.y))
        } else {
            (1, 1)
        };
        let mut buckets = Buckets {
            lo,
            scale: DVec2::new(nx as f64 / extent.x, ny as f64 / extent.y),
            nx,
            ny,
            start: Vec::new(),
            tris: Vec::new(),
        };
        // Two passes over the triangles' bucket ranges: count, then fill.
        let span = |tri: &[u32; 3]| {
            let [a, b, c] = tri.map(|i| vertices[i as usize]);
            let ((x0, y0), (x1, y1)) =
                (buckets.cell(a.min(b).min(c)), buckets.cell(a.max(b).max(c)));
            (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| y * nx + x))
        };
        let mut start = vec![0u32; nx * ny + 1];
        for b in triangles.iter().flat_map(span) {
            start[b + 1] += 1;
        }
        for b in 0..nx * ny {
            start[b + 1] += start[b];
        }
        let mut fill = start.clone();
        let mut tris = vec![0; start[nx * ny] as usize];
        for (t, tri) in triangles.iter().enumerate() {
            for b in span(tri) {
                tris[fill[b] as usize] = t as u32;
                fill[b] += 1;
            }
        }
        buckets.start = start;
        buckets.tris = tris;
        buckets
    }

    /// The bucket of `p`, clamped to the grid. Monotone in each coordinate, so a point of a
    /// triangle's bounding box falls between the buckets of the box's corners.
    fn cell(&self, p: DVec2) -> (usize, usize) {
        let at = |v: f64, lo: f64, scale: f64, n: usize| {
            ((v - lo) * scale).floor().clamp(0.0, (n - 1) as f64) as usize
        };
        (
            at(p.x, self.lo.x, self.scale.x, self.nx),
            at(p.y, self.lo.y, self.scale.y, self.ny),
        )
    }

    /// The first triangle of `mesh` that contains `p` (closed, exact), if any. `p` must be
    /// finite.
    pub(super) fn locate(&self, mesh: &NavMesh, p: DVec2) -> Option<TriId> {
        // Tiny coordinates are located as 0: the exact predicate's error bounds underflow.
        let flush = |c: f64| if c.abs() < MIN_COORDINATE { 0.0 } else { c };
        let p = DVec2::new(flush(p.x), flush(p.y));
        let (x, y) = self.cell(p);
        let b = y * self.nx + x;
        self.tris[self.start[b] as usize..self.start[b + 1] as usize]
            .iter()
            .map(|&t| t as TriId)
            .find(|&t| {
                let [a, b, c] = mesh.triangle(t);
                orientation(a, b, p) >= 0 && orientation(b, c, p) >= 0 && orientation(c, a, p) >= 0
            })
    }
}
