//! The point funnel (r = 0) in guaranteed linear time, its two chains kept in the output
//! buffer.

use glam::DVec2;

use super::Side;
use crate::geometry::cross;
use crate::navmesh::portals::Portal;

/// The point funnel in guaranteed linear time: the funnel is kept as its two chains (the
/// left and right concave chains from the apex, as in Lee & Preparata's shortest paths in
/// simple polygons, 1984), so a portal end that crosses the other side pops that side's
/// chain from the apex instead of re-scanning portals as [`string_pull`] does. Every point
/// is pushed and popped at most once per chain, so the cost is O(n). Same orientation and
/// tie rules as [`string_pull`].
///
/// `out` is used as storage: the path grows at its front and the two chains live in the
/// same buffer after it, so steady-state calls allocate nothing.
pub(super) fn chain_funnel(portals: &[Portal], start: DVec2, goal: DVec2, out: &mut Vec<DVec2>) {
    // Each chain receives at most n + 1 points; the path at most every point once plus the
    // start (2n + 3, reached only by channels that are not simple), so the regions never
    // overlap whatever the portals.
    let cap = portals.len() + 2;
    out.clear();
    out.resize(4 * cap, DVec2::ZERO);
    let mut f = Chains {
        buf: out,
        m: 0,
        lh: 2 * cap,
        lt: 2 * cap,
        rh: 3 * cap,
        rt: 3 * cap,
    };
    f.emit(start);
    for p in portals {
        f.push(p.right, Side::Right);
        f.push(p.left, Side::Left);
    }
    f.push(goal, Side::Right);
    f.push(goal, Side::Left);
    // The goal ends the left chain; its points are the remaining corners.
    for k in f.lh..f.lt {
        let p = f.buf[k];
        f.emit(p);
    }
    let m = f.m;
    out.truncate(m);
}

/// The path `buf[..m]` (its last point is the apex) and the two chains `buf[lh..lt]`,
/// `buf[rh..rt]`, each listed from the apex outward.
struct Chains<'a> {
    buf: &'a mut [DVec2],
    m: usize,
    lh: usize,
    lt: usize,
    rh: usize,
    rt: usize,
}

impl Chains<'_> {
    #[inline]
    fn apex(&self) -> DVec2 {
        self.buf[self.m - 1]
    }

    #[inline]
    fn emit(&mut self, p: DVec2) {
        if self.m == 0 || self.buf[self.m - 1] != p {
            self.buf[self.m] = p;
            self.m += 1;
        }
    }

    /// Adds portal end `p` to one side. `s` is +1 for the right side and −1 for the left:
    /// multiplying cross products by it mirrors the right-side rules onto the left.
    #[inline]
    fn push(&mut self, p: DVec2, side: Side) {
        let (s, (h, mut t), (mut oh, ot)) = match side {
            Side::Right => (1.0, (self.rh, self.rt), (self.lh, self.lt)),
            Side::Left => (-1.0, (self.lh, self.lt), (self.rh, self.rt)),
        };
        let apex = self.apex();
        if p == apex {
            // A fan around the apex: this side is back on the apex.
            t = h;
        } else if t == h || self.buf[t - 1] != p {
            // Pop ends of this chain that p makes redundant (p on the inner side of, or on,
            // the chain's last edge).
            let was_empty = t == h;
            while t > h {
                let prev = if t - 1 > h { self.buf[t - 2] } else { apex };
                if s * cross(self.buf[t - 1] - prev, p - prev) >= 0.0 {
                    t -= 1;
                } else {
                    break;
                }
            }
            if t == h {
                // This side is back to the apex: p crosses the other side's first ray
                // for as long as it lies beyond it (or on it, when popping emptied this
                // side — Mononen's tie rule; a side already on the apex only crosses
                // strictly, as his funnel then tightens without a test); each such point
                // is a corner.
                while oh < ot {
                    let a = self.apex();
                    let q = self.buf[oh];
                    let turn = s * cross(q - a, p - a);
                    if turn > 0.0 || (turn == 0.0 && !was_empty) {
                        self.emit(q);
                        oh += 1;
                    } else {
                        break;
                    }
                }
            }
            self.buf[t] = p;
            t += 1;
        }
        match side {
            Side::Right => (self.rh, self.rt, self.lh) = (h, t, oh),
            Side::Left => (self.lh, self.lt, self.rh) = (h, t, oh),
        }
    }
}
