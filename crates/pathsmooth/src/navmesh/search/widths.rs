//! The radius rule of the navmesh search: Demyen & Buro's triangle widths (*Efficient
//! Triangulation-Based Pathfinding*, AAAI 2006), kept in a fixed-size cache, and the
//! [`EdgeFilter`] that lets Polyanya through a triangle only where an agent of radius `r`
//! fits.

use crate::geometry::closest_on_segment;
use crate::navmesh::mesh::{NavMesh, ON_WALL};
use crate::navmesh::polyanya::EdgeFilter;

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

/// A fixed-size cache of Demyen–Buro widths (corner `3t + c` → width), slots picked by
/// hashing the corner and overwritten on collision: widths depend only on the mesh, so a
/// miss only costs recomputing one, and memory stays [`WIDTH_CACHE`] slots however large
/// the search (a table for every corner would cost more than the mesh).
#[derive(Debug, Default, Clone)]
pub(super) struct Widths {
    slots: Vec<WidthSlot>,
    /// Tags this query's cache entries (a query may use another mesh than the last).
    stamp: u32,
    /// The width walk's stack of (triangle, edge).
    stack: Vec<(u32, u8)>,
}

impl Widths {
    /// Starts a query: every entry of an earlier one is stale (a query may use another
    /// mesh than the last).
    pub(super) fn begin(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.slots.is_empty() {
            // First query, or the stamp wrapped: no entry may look current.
            self.slots.clear();
            self.slots.resize(WIDTH_CACHE, WidthSlot::default());
            self.stamp = 1;
        }
    }

    /// Demyen & Buro's width of triangle `t` between the two edges meeting at corner `c`:
    /// the room an agent has passing from one to the other (kept in the cache).
    pub(super) fn width(&mut self, mesh: &NavMesh, t: usize, c: usize) -> f64 {
        let key = (3 * t + c) as u32;
        let slot = key.wrapping_mul(0x9e37_79b9) as usize >> (32 - WIDTH_CACHE_BITS);
        let cached = self.slots[slot];
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
        self.slots[slot] = WidthSlot {
            stamp: self.stamp,
            corner: key,
            width: d,
        };
        d
    }

    /// True when an agent of radius `r` may pass through triangle `t` from edge `from` to
    /// edge `to` (and cross `to`).
    pub(super) fn passes(
        &mut self,
        mesh: &NavMesh,
        t: usize,
        from: usize,
        to: usize,
        r: f64,
    ) -> bool {
        if r == 0.0 {
            return true;
        }
        // The corner shared by edges `from` and `to`.
        let c = if to == (from + 1) % 3 { to } else { from };
        self.width(mesh, t, c) >= 2.0 * r && edge_fits(mesh, t, to, r)
    }
}

/// True when an agent of radius `r` may cross edge `e` of triangle `t`: the edge is at
/// least `2r` long, or one of its ends is not on a wall.
pub(super) fn edge_fits(mesh: &NavMesh, t: usize, e: usize, r: f64) -> bool {
    if r == 0.0 {
        return true;
    }
    let tri = mesh.triangle(t);
    if tri[e].distance(tri[(e + 1) % 3]) >= 2.0 * r {
        return true;
    }
    mesh.corner_flags(t, e) & ON_WALL == 0 || mesh.corner_flags(t, (e + 1) % 3) & ON_WALL == 0
}

/// The width rule for radius `r` as the search's filter: the start's triangle is left only
/// by edges the agent fits through, a triangle crossed only where its width between the
/// entry and exit edges is at least `2r` (see [`Widths::passes`]).
pub(super) struct RadiusRule<'a> {
    pub(super) widths: &'a mut Widths,
    pub(super) r: f64,
}

impl EdgeFilter<NavMesh> for RadiusRule<'_> {
    #[inline]
    fn leaves(&mut self, mesh: &NavMesh, c: usize) -> bool {
        edge_fits(mesh, c / 3, c % 3, self.r)
    }
    #[inline]
    fn passes(&mut self, mesh: &NavMesh, p: u32, entry: u32, c: usize) -> bool {
        self.widths
            .passes(mesh, p as usize, entry as usize, c % 3, self.r)
    }
}
