//! Chaikin inside one buffer: the allocation-free [`chaikin_in_place`] and the pass
//! machinery all classic forms share (single, double and fused passes; see the module
//! docs of [`super`] for why they run back to front and how chunks are fused).

use super::{cut, output_len_of, ChaikinParams, Weights, METHOD};
use crate::error::{Error, Result};
use crate::geometry::{check_path, Point};

/// Smooths the path held in `buf[..len]` in place, inside `buf`, and returns the number
/// of valid points (`buf[..returned]` is the result). Allocates nothing.
///
/// `buf` must hold [`chaikin_output_len`](super::chaikin_output_len)`(len, passes, closed)`
/// points; the slots past `len` are scratch and their contents do not matter. The output
/// may take at most [`MAX_OUTPUT_BYTES`](super::MAX_OUTPUT_BYTES).
///
/// Errors: [`Error::BadParameter`] for a bad ratio or `len > buf.len()`,
/// [`Error::EmptyPath`] / [`Error::TooFewPoints`] (fewer than 2 points),
/// [`Error::NonFinite`], [`Error::OutputTooLarge`], [`Error::BufferTooSmall`]. On error
/// the buffer is untouched.
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::curve::{chaikin_in_place, chaikin_output_len, ChaikinParams};
///
/// let params = ChaikinParams::default(); // 4 passes, ratio ¼, open
/// let path = [Vec2::new(0.0, 0.0), Vec2::new(8.0, 0.0), Vec2::new(8.0, 8.0)];
/// let mut buf = vec![Vec2::ZERO; chaikin_output_len(path.len(), params.passes, false)?];
/// buf[..3].copy_from_slice(&path);
/// let len = chaikin_in_place(&mut buf, 3, &params)?; // no allocation in here
/// assert_eq!(len, 18);
/// assert_eq!((buf[0], buf[17]), (path[0], path[2]));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_in_place<P: Point>(
    buf: &mut [P],
    len: usize,
    params: &ChaikinParams,
) -> Result<usize> {
    params.validate()?;
    if len > buf.len() {
        return Err(Error::param(
            "len",
            len as f64,
            "at most the buffer's length",
        ));
    }
    check_path(&buf[..len], 2, METHOD)?;
    let total = output_len_of::<P>(len, params.passes, params.closed)?;
    if total > buf.len() {
        return Err(Error::BufferTooSmall {
            needed: total,
            capacity: buf.len(),
        });
    }
    let m = passes_in_place(buf, len, *params, Weights::new(params.ratio));
    debug_assert_eq!(m, total);
    Ok(m)
}

/// Points of each half of the stack scratch in which fused passes run: 2048 `DVec2` are
/// 32 KiB, so a chunk's passes stay in L1/L2 cache.
pub(super) const SCRATCH: usize = 2048;

/// Most passes fused into one sweep. With [`SCRATCH`] points a chunk then still advances
/// by `(2048 − 2) >> 6 = 31` input points for an overlap of 2.
const MAX_FUSED: u32 = 6;

/// The first of the (balanced) groups of at most [`MAX_FUSED`] passes that `passes` splits
/// into: 7 passes run as 4 + 3, not 6 + 1.
pub(super) fn group_size(passes: u32) -> u32 {
    passes.div_ceil(passes.div_ceil(MAX_FUSED).max(1))
}

/// Points after `q` passes on `m` points (no overflow: the caller checked the total).
fn group_len(m: usize, q: u32, closed: bool) -> usize {
    match (closed, m) {
        (true, _) => m << q,
        (false, 0..=2) => m,
        (false, _) => ((m - 2) << q) + 2,
    }
}

/// Runs `params.passes` passes on the path in `buf[..m]`, in place, and returns the new
/// length. Small outputs run pass after pass over the whole buffer; once the output
/// outgrows the scratch, groups of passes are fused ([`fused_in_place`]) so that memory
/// is swept once per group instead of once per pass.
pub(super) fn passes_in_place<P: Point>(
    buf: &mut [P],
    mut m: usize,
    params: ChaikinParams,
    w: Weights<P::Scalar>,
) -> usize {
    let keep = Ends {
        first: !params.closed,
        last: !params.closed,
    };
    let mut left = params.passes;
    while left > 0 {
        let q = group_size(left);
        if q == 1 || group_len(m, q, params.closed) <= SCRATCH {
            let mut k = 0;
            while k < q {
                if params.closed {
                    m = closed_pass_in_place(buf, m, w);
                    k += 1;
                } else if m == 2 {
                    break; // an open 2-point path never changes
                } else if q - k >= 2 {
                    m = double_pass_in_place(buf, m, keep, w);
                    k += 2;
                } else {
                    m = pass_in_place(buf, m, keep, w);
                    k += 1;
                }
            }
        } else {
            m = fused_in_place(buf, m, q, params.closed, w);
        }
        left -= q;
    }
    m
}

/// Which ends of a piece of path keep their points: only an open path's true ends.
#[derive(Clone, Copy)]
struct Ends {
    first: bool,
    last: bool,
}

/// One pass on `buf[..m]` (m ≥ 2), in place, giving `2m − 2` points: segment j's `Q_j`,
/// `R_j` go to slots 2j, 2j + 1; then slot 0 gets `P_0` back if `ends.first` and the last
/// slot gets `P_{m−1}` if `ends.last` (an open path's pass). Back to front: see the
/// module docs for why this never reads an overwritten point.
fn pass_in_place<P: Point>(buf: &mut [P], m: usize, ends: Ends, w: Weights<P::Scalar>) -> usize {
    let out_len = 2 * m - 2;
    let buf = &mut buf[..out_len];
    let (first, last) = (buf[0], buf[m - 1]);
    let mut next = last;
    for j in (0..m - 1).rev() {
        let cur = buf[j];
        let (q, r) = cut(cur, next, w);
        buf[2 * j + 1] = r;
        buf[2 * j] = q;
        next = cur;
    }
    if ends.first {
        buf[0] = first;
    }
    if ends.last {
        buf[out_len - 1] = last;
    }
    out_len
}

/// One closed pass on `buf[..m]` (m ≥ 2), writing `buf[..2m]`; returns `2m`.
/// Segment j = m−1 … 0 (the last one closes the loop onto `P_0`) goes to slots 2j, 2j+1.
fn closed_pass_in_place<P: Point>(buf: &mut [P], m: usize, w: Weights<P::Scalar>) -> usize {
    let out_len = 2 * m;
    let buf = &mut buf[..out_len];
    let mut next = buf[0];
    for j in (0..m).rev() {
        let cur = buf[j];
        let (q, r) = cut(cur, next, w);
        buf[2 * j + 1] = r;
        buf[2 * j] = q;
        next = cur;
    }
    out_len
}

// Two passes at once. Two passes over points P_j, P_{j+1}, P_{j+2} give the four points
// Q(q_j, r_j), R(q_j, r_j), Q(r_j, q_{j+1}), R(r_j, q_{j+1}) at slots 4j … 4j + 3, where
// (q_j, r_j) = cut(P_j, P_{j+1}) is the first pass's output; the last segment adds
// Q(q_{m−2}, r_{m−2}), R(q_{m−2}, r_{m−2}) at slots 4m − 8, 4m − 7. The first pass's
// points live only in registers, so a double pass stores 4 points per input point where
// two single passes store 6: the passes are limited by stores, not arithmetic. The ends
// of an open path are fixed up afterwards, exactly as two single passes would leave
// them, so results are bit for bit those of single passes.

/// The four points two passes make from segment `a → b` and the next point `c`.
#[inline(always)]
fn double_cut<P: Point>(a: P, b: P, c: P, w: Weights<P::Scalar>) -> [P; 4] {
    let (q0, r0) = cut(a, b, w);
    let q1 = cut(b, c, w).0;
    let (s0, s1) = cut(q0, r0, w);
    let (s2, s3) = cut(r0, q1, w);
    [s0, s1, s2, s3]
}

/// The last segment's two points of a double pass (slots 4m − 8, 4m − 7) and slot 1,
/// with an open path's kept ends substituted in both passes as single passes would.
#[inline]
fn double_pass_ends<P: Point>(
    (first, second): (P, P),
    (before_last, last): (P, P),
    ends: Ends,
    w: Weights<P::Scalar>,
) -> ([P; 2], P) {
    let (q, r) = cut(before_last, last, w);
    let r = if ends.last { last } else { r };
    let (t0, t1) = cut(q, r, w);
    let tail = [t0, if ends.last { last } else { t1 }];
    let (q0, r0) = cut(first, second, w);
    let s0 = if ends.first { first } else { q0 };
    (tail, cut(s0, r0, w).1)
}

/// Two passes from `src` (≥ 3 points) into `dst`, without storing the first pass. Fills
/// `dst[..4·src.len() − 6]`, or all of a shorter `dst` (the clipped end of a closed loop,
/// which keeps no ends); returns the points written.
fn double_pass_copy<P: Point>(
    src: &[P],
    dst: &mut [P],
    ends: Ends,
    w: Weights<P::Scalar>,
) -> usize {
    let m = src.len();
    let full = 4 * m - 6;
    let out_len = full.min(dst.len());
    let dst = &mut dst[..out_len];
    for (quad, win) in dst.chunks_exact_mut(4).zip(src.windows(3)) {
        quad.copy_from_slice(&double_cut(win[0], win[1], win[2], w));
    }
    let (tail, slot1) = double_pass_ends((src[0], src[1]), (src[m - 2], src[m - 1]), ends, w);
    if out_len == full {
        dst[full - 2..].copy_from_slice(&tail);
    }
    if ends.first {
        dst[0] = src[0];
        dst[1] = slot1;
    }
    out_len
}

/// Two passes on `buf[..m]` (m ≥ 3) in place, giving `4m − 6` points. Back to front:
/// window j reads points j … j + 2 and writes slots 4j … 4j + 3, and every slot written
/// before it is at index ≥ 4(j + 1) > j + 2.
fn double_pass_in_place<P: Point>(
    buf: &mut [P],
    m: usize,
    ends: Ends,
    w: Weights<P::Scalar>,
) -> usize {
    let out_len = 4 * m - 6;
    let buf = &mut buf[..out_len];
    let (first, second, last) = (buf[0], buf[1], buf[m - 1]);
    let (tail, slot1) = double_pass_ends((first, second), (buf[m - 2], last), ends, w);
    let (mut c, mut b) = (last, buf[m - 2]);
    buf[out_len - 2..].copy_from_slice(&tail);
    for j in (0..m - 2).rev() {
        let a = buf[j];
        let quad = double_cut(a, b, c, w);
        buf[4 * j..4 * j + 4].copy_from_slice(&quad);
        (c, b) = (b, a);
    }
    if ends.first {
        buf[0] = first;
        buf[1] = slot1;
    }
    out_len
}

// Fused passes. Point i of a pass depends only on points i/2 and i/2 + 1 of the one before,
// so `q` passes over input points a..=b alone (treating the piece's ends as interior,
// unless they are an open path's true ends, which keep their points) give exactly output
// slots a·2^q .. (b − 1)·2^q + 1 of `q` passes over the whole path. Chunks of
// [`SCRATCH`]-sized output that overlap by two input points (and so by two output slots,
// computed identically twice) cover the path; each chunk's `q` passes run in a stack
// scratch that stays in cache, and its output is written once. A closed loop is treated as
// the open sequence P_0 … P_{m−1}, P_0, P_1, whose output is the loop's followed by two
// repeats, which are dropped.

/// The chunks of a group of `q` fused passes over `m` points: chunk c covers the input
/// points `c·step ..= min(c·step + step + 1, virt − 1)` of the (virtual) input.
struct Chunking {
    virt: usize,
    step: usize,
    count: usize,
}

impl Chunking {
    fn new(m: usize, q: u32, closed: bool) -> Self {
        let virt = if closed { m + 2 } else { m };
        let step = (SCRATCH - 2) >> q;
        Chunking {
            virt,
            step,
            count: (virt - 2).div_ceil(step),
        }
    }

    fn bounds(&self, c: usize) -> (usize, usize) {
        let a = c * self.step;
        (a, (a + self.step + 1).min(self.virt - 1))
    }
}

/// One pass from `src` (≥ 2 points) into `dst`, as [`pass_in_place`] but out of place,
/// which lets the compiler vectorise it. Fills `dst[..2·src.len() − 2]`, or all of a
/// shorter `dst` (the clipped end of a closed loop); returns the points written.
fn pass_copy<P: Point>(src: &[P], dst: &mut [P], ends: Ends, w: Weights<P::Scalar>) -> usize {
    let m = src.len();
    let full = 2 * m - 2;
    let out_len = full.min(dst.len());
    let dst = &mut dst[..out_len];
    for (pair, seg) in dst.chunks_exact_mut(2).zip(src.windows(2)) {
        let (q, r) = cut(seg[0], seg[1], w);
        pair[0] = q;
        pair[1] = r;
    }
    if ends.first {
        dst[0] = src[0];
    }
    if ends.last && out_len == full {
        dst[out_len - 1] = src[m - 1];
    }
    out_len
}

/// A chunk of input points `a..=b` after some passes, in one half of the scratch, and
/// the other half, free for the last pass.
struct Piece<'s, P> {
    points: &'s [P],
    spare: &'s mut [P],
    ends: Ends,
}

/// Copies input points `a..=b` of `src` (indices past the end wrap, for closed loops)
/// into the scratch and runs `q` passes there (two at a time where it can),
/// ping-ponging between its two halves; the caller runs the last passes straight into
/// the output.
fn smooth_chunk<'s, P: Point>(
    src: &[P],
    (a, b): (usize, usize),
    q: u32,
    closed: bool,
    scratch: &'s mut [P; 2 * SCRATCH],
    w: Weights<P::Scalar>,
) -> Piece<'s, P> {
    let m = src.len();
    let len = b - a + 1;
    let (mut from, mut to) = scratch.split_at_mut(SCRATCH);
    let direct = (b + 1).min(m) - a;
    from[..direct].copy_from_slice(&src[a..a + direct]);
    from[direct..len].copy_from_slice(&src[..len - direct]);
    let ends = Ends {
        first: !closed && a == 0,
        last: !closed && b == m - 1,
    };
    let mut k = len;
    let mut left = q;
    while left > 0 {
        k = if left >= 2 {
            left -= 2;
            double_pass_copy(&from[..k], to, ends, w)
        } else {
            left -= 1;
            pass_copy(&from[..k], to, ends, w)
        };
        std::mem::swap(&mut from, &mut to);
    }
    Piece {
        points: &from[..k],
        spare: to,
        ends,
    }
}

/// `q` fused passes (2 ≤ q ≤ [`MAX_FUSED`]) on `buf[..m]` in place; returns the new
/// length. Each chunk's last two passes write straight into `buf`. Chunks go from the
/// last to the first: chunk c writes slots from `a_c·2^q ≥ a_c + 2` on, beyond every
/// point a lower chunk still has to read (at most `a_c + 1`), and it copied its own
/// input to the scratch before writing.
fn fused_in_place<P: Point>(
    buf: &mut [P],
    m: usize,
    q: u32,
    closed: bool,
    w: Weights<P::Scalar>,
) -> usize {
    let total = group_len(m, q, closed);
    let chunks = Chunking::new(m, q, closed);
    let mut scratch = [P::default(); 2 * SCRATCH];
    for c in (0..chunks.count).rev() {
        let (a, b) = chunks.bounds(c);
        let piece = smooth_chunk(&buf[..m], (a, b), q - 2, closed, &mut scratch, w);
        let start = a << q;
        let end = (start + group_len(piece.points.len(), 2, false)).min(total);
        double_pass_copy(piece.points, &mut buf[start..end], piece.ends, w);
    }
    total
}

/// `q` fused passes (1 ≤ q ≤ [`MAX_FUSED`]) from `src` appended to the empty `out`, chunk
/// by chunk from the first: each output point is written once.
pub(super) fn fused_append<P: Point>(
    src: &[P],
    q: u32,
    closed: bool,
    out: &mut Vec<P>,
    w: Weights<P::Scalar>,
) {
    let total = group_len(src.len(), q, closed);
    let chunks = Chunking::new(src.len(), q, closed);
    let mut scratch = [P::default(); 2 * SCRATCH];
    for c in 0..chunks.count {
        let (a, b) = chunks.bounds(c);
        let last = q.min(2);
        let piece = smooth_chunk(src, (a, b), q - last, closed, &mut scratch, w);
        let start = a << q;
        let end = (start + group_len(piece.points.len(), last, false)).min(total);
        let spare = &mut piece.spare[..end - start];
        let k = if last == 2 {
            double_pass_copy(piece.points, spare, piece.ends, w)
        } else {
            pass_copy(piece.points, spare, piece.ends, w)
        };
        // The first slots of a chunk repeat the last ones of the chunk before.
        let done = out.len() - start;
        out.extend_from_slice(&spare[done..k]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::terrator;
    use super::super::*;
    use glam::{DVec2, DVec3, Vec2, Vec3};

    /// The Terrator article's `ChaikinFast`, transcribed literally (offsets, not convex
    /// combinations) as a reference.
    fn chaikin_fast(points: &mut [Vec2], smoothness: u32, num_main: usize) {
        let last = points[num_main - 1];
        let mut p = num_main - 2;
        let mut factor = 2;
        for _ in 1..=smoothness {
            let last_point = (num_main - 2) * factor;
            let mut offset_right = (points[p + 1] - points[p]) * 0.25;
            let mut n = last_point;
            while n > 1 {
                let offset_left = (points[p] - points[p - 1]) * 0.25;
                points[n] = points[p] + offset_right;
                points[n - 1] = points[p] - offset_left;
                offset_right = offset_left;
                p -= 1;
                n -= 2;
            }
            p = last_point;
            points[p + 1] = last;
            factor *= 2;
        }
    }

    #[test]
    fn matches_the_terrator_article_code() {
        let path = terrator();
        let total = chaikin_output_len(15, 4, false).unwrap();
        assert_eq!(total, 210);
        let mut theirs = vec![Vec2::ZERO; total];
        theirs[..15].copy_from_slice(&path);
        chaikin_fast(&mut theirs, 4, 15);
        let mut ours = vec![Vec2::ZERO; total];
        ours[..15].copy_from_slice(&path);
        assert_eq!(
            chaikin_in_place(&mut ours, 15, &ChaikinParams::default()),
            Ok(210)
        );
        for (a, b) in ours.iter().zip(&theirs) {
            assert!(a.distance(*b) < 1e-4, "{a} vs {b}");
        }
        assert_eq!((ours[0], ours[209]), (path[0], path[14]));
    }

    #[test]
    fn in_place_into_and_allocating_agree() {
        let path: Vec<DVec3> = (0..9)
            .map(|i| DVec3::new(i as f64, (i * i % 5) as f64, (i % 3) as f64))
            .collect();
        for closed in [false, true] {
            for passes in 0..5 {
                for ratio in [0.1, 0.25, 0.5] {
                    let params = ChaikinParams {
                        ratio,
                        passes,
                        closed,
                    };
                    let total = chaikin_output_len(path.len(), passes, closed).unwrap();
                    let mut buf = vec![DVec3::splat(7.0); total + 3];
                    buf[..path.len()].copy_from_slice(&path);
                    let len = chaikin_in_place(&mut buf, path.len(), &params).unwrap();
                    assert_eq!(len, total);
                    let alloc = chaikin(&path, &params).unwrap();
                    assert_eq!(&buf[..len], &alloc[..]);
                }
            }
        }
    }

    /// Plain pass-by-pass Chaikin with fresh vectors: the reference for the fused forms.
    fn reference<P: Point>(path: &[P], params: ChaikinParams) -> Vec<P> {
        let w = Weights::new(params.ratio);
        let mut cur = path.to_vec();
        for _ in 0..params.passes {
            let m = cur.len();
            if !params.closed && m == 2 {
                break;
            }
            let mut next = Vec::with_capacity(2 * m);
            if !params.closed {
                next.push(cur[0]);
            }
            let segments = if params.closed { m } else { m - 1 };
            for j in 0..segments {
                let (q, r) = cut(cur[j], cur[(j + 1) % m], w);
                if params.closed || j > 0 {
                    next.push(q);
                }
                if params.closed || j < m - 2 {
                    next.push(r);
                }
            }
            if !params.closed {
                next.push(cur[m - 1]);
            }
            cur = next;
        }
        cur
    }

    fn wiggly<P: Point>(n: usize) -> Vec<P> {
        let mut next = crate::test_fixtures::lcg_uniform(12345);
        (0..n)
            .map(|_| {
                let mut c = [0.0; 3];
                for x in &mut c {
                    *x = next() * 100.0;
                }
                P::from_coords(&c[..P::DIM]).unwrap()
            })
            .collect()
    }

    fn fused_forms_match_reference<P: Point>(sizes: &[usize]) {
        for closed in [false, true] {
            for &n in sizes {
                let path: Vec<P> = wiggly(n);
                for passes in 0..=9 {
                    let Ok(total) = chaikin_output_len(n, passes, closed) else {
                        continue;
                    };
                    if total > 1 << 19 {
                        continue;
                    }
                    for ratio in [0.25, 0.4] {
                        let params = ChaikinParams {
                            ratio,
                            passes,
                            closed,
                        };
                        let want = reference(&path, params);
                        assert_eq!(want.len(), total);
                        let got = chaikin(&path, &params).unwrap();
                        assert!(got == want, "into: n {n} passes {passes} closed {closed}");
                        let mut buf = vec![P::default(); total];
                        buf[..n].copy_from_slice(&path);
                        assert_eq!(chaikin_in_place(&mut buf, n, &params), Ok(total));
                        assert!(
                            buf == want,
                            "in place: n {n} passes {passes} closed {closed}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fused_passes_match_plain_passes_bit_for_bit() {
        // Sizes around the chunk steps (2046 >> q) and far beyond one scratch.
        fused_forms_match_reference::<DVec2>(&[
            2, 3, 4, 5, 31, 32, 33, 34, 129, 130, 131, 1000, 2049,
        ]);
        fused_forms_match_reference::<Vec3>(&[3, 64, 257, 700]);
    }
}
