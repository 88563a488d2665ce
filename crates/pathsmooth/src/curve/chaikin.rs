//! Chaikin corner cutting: classic multi-pass (allocating, buffer-reusing and fully in
//! place) and adaptive refinement that only cuts sharp corners.
//!
//! # Classic Chaikin
//!
//! Each pass replaces every segment `P_j → P_{j+1}` by the two points
//!
//! ```text
//! Q_j = (1 − r)·P_j + r·P_{j+1}        R_j = r·P_j + (1 − r)·P_{j+1}
//! ```
//!
//! where `r` is the cut [`ratio`](ChaikinParams::ratio) in (0, ½] (default ¼, Chaikin's
//! original ¾ : ¼ rule as the "Math Magician" article writes it). Seen from a vertex, each
//! interior vertex `P_i` is replaced by two points a fraction `r` of the way towards its
//! neighbours (`R_{i−1}` and `Q_i`); the corner itself disappears. With `r = ½` the two
//! points of a segment coincide (a legal duplicate).
//!
//! - **Open paths** keep their first and last points exactly: a pass maps
//!   `P_0, …, P_{m−1}` to `P_0, R_0, Q_1, R_1, …, Q_{m−2}, P_{m−1}` (the `Q_0` and `R_{m−2}`
//!   of the end segments are not emitted, because they would lie on the same lines as the
//!   kept endpoints). So `m` points become `2m − 2` and after `k` passes `n` points become
//!   `(n − 2)·2^k + 2`, the count of the "Terrator" article, which lets a caller size a
//!   buffer up front ([`chaikin_output_len`]). A 2-point path is returned unchanged.
//! - **Closed loops** are given *without* repeating the first point; the edge from the
//!   last point back to the first is implied. A pass maps `m` points to
//!   `Q_0, R_0, Q_1, R_1, …, Q_{m−1}, R_{m−1}` (segment `m − 1` is the closing edge), so
//!   `n` points become `n·2^k`.
//!
//! Every output point is a convex combination of input points, so the output lies in the
//! convex hull of the input and collinear input stays collinear. Points are computed in
//! the convex form `a·(1 − r) + b·r` (not `a + (b − a)·r`, whose difference can overflow
//! for huge finite coordinates).
//!
//! **Forms.** [`chaikin_in_place`] smooths inside one caller-provided slice, pass after
//! pass, with no heap allocation at all (the Terrator article's point: zero garbage in a
//! game loop). [`chaikin_into`] writes into a reused `Vec`, and [`chaikin`] allocates.
//!
//! **In place, back to front.** A pass writes the two points of segment `j` to slots `2j`
//! and `2j + 1` (on open paths slot 0 keeps `P_0` instead of `Q_0`, and the last slot
//! gets `P_{m−1}` instead of `R_{m−2}`) and reads only `P_j` and `P_{j+1}`. Walking the
//! segments from last to first, every slot written so far is at index ≥ `2(j + 1) > j`,
//! so the point `P_j` about to be read is still intact, and `P_{j+1}` was read one step
//! earlier and is carried in a register (the end point, whose slot may be overwritten
//! first, is saved before the sweep). Front to back would overwrite `P_1` with `R_0`
//! before it is read. The Terrator article's `ChaikinFast` walks the same way.
//!
//! **Fused passes.** Once the output outgrows 2048 points, up to six passes are fused:
//! the path is cut into overlapping chunks, each chunk's passes run in a stack scratch
//! (two halves of 2048 points, 64 KiB for `DVec2`, so in cache), and the chunk's output
//! is written to its final place once, chunks still going back to front in place.
//! Memory is then swept once per group of passes instead of once per pass, which is
//! what makes large paths fast. Passes also run two at a time with the first one's points
//! kept in registers (smoothing is limited by stores, not arithmetic). Either way the
//! result is bit for bit that of plain passes (the comments on the fused and double
//! passes in the source say why; the tests compare them).
//!
//! **Cost.** O(n·2^k) time for `k` passes, linear in the output; memory: the output
//! only (plus 4096 points of stack).
//!
//! # Adaptive refinement
//!
//! [`chaikin_adaptive`] and [`AdaptiveChaikin`] follow the "Math Magician" article's
//! `RefinePath`: a vertex whose turn angle is at most
//! [`angle_limit`](AdaptiveParams::angle_limit) (default 30°) passes through unchanged, a
//! sharper one is cut, and an optional [`outlier_limit`](AdaptiveParams::outlier_limit)
//! (e.g. 90°; off by default, since planner paths have real 90° corners) throws spike
//! vertices of noisy recorded data away. Passes repeat until no corner exceeds the limit
//! or [`max_passes`](AdaptiveParams::max_passes) is spent. Where the article's code is
//! wrong this one differs, on purpose:
//!
//! - consecutive duplicate points are merged first, so no heading is ever measured on a
//!   zero-length segment (the article normalises it into NaN);
//! - a sharp vertex `B` between `A` and `C` is replaced by `B + r·(A − B)` and
//!   `B + r·(C − B)`, a true cut of the corner (the article emits Q and R of the outgoing
//!   segment only, so the path jumps from its previous point straight onto segment `B C`);
//! - duplicates are avoided by comparing with the last point written, O(1), instead of
//!   the article's O(n) `Contains` on the whole output (O(n²) per pass);
//! - an outlier is the *spike vertex itself*, and after dropping it the next heading is
//!   measured from the last kept point (the article drops the following point and keeps
//!   the spike as the reference for the next heading). When two neighbours both exceed
//!   the outlier limit, the sharper one is the spike.
//!
//! Adaptive refinement works on open paths, keeps the first and last points, and never
//! emits consecutive duplicates. Cost: O(n) turn-angle evaluations per pass.
//!
//! # Sources
//!
//! - Keith Maggio, "Math Magician – Path Smoothing with Chaikin" (2018): the ¾/¼ rule,
//!   angle limits and outlier rejection (`RefinePath`).
//! - "Dev Blog #02 – Smoothing a path for Terrator" (Something Ate My Alien): the in-place,
//!   zero-garbage `ChaikinFast` on an array of `(n − 2)·2^k + 2` points.
//! - G. Chaikin, "An algorithm for high-speed curve generation", CGIP 3 (1974).
//!
//! # Example
//!
//! ```
//! use glam::Vec2;
//! use pathsmooth::curve::chaikin::{chaikin, chaikin_adaptive, AdaptiveParams, ChaikinParams};
//!
//! let path = [Vec2::new(0.0, 0.0), Vec2::new(0.0, 4.0), Vec2::new(4.0, 4.0)];
//! let one = ChaikinParams { passes: 1, ..ChaikinParams::default() };
//! let smooth = chaikin(&path, one)?;
//! assert_eq!(smooth, [Vec2::new(0.0, 0.0), Vec2::new(0.0, 3.0), Vec2::new(1.0, 4.0), Vec2::new(4.0, 4.0)]);
//!
//! // Four passes: (3 − 2)·2⁴ + 2 points, endpoints kept.
//! let smooth = chaikin(&path, ChaikinParams::default())?;
//! assert_eq!(smooth.len(), 18);
//! assert_eq!((smooth[0], smooth[17]), (path[0], path[2]));
//!
//! // Adaptive: the 90° corner is cut until no turn exceeds 30°; straight parts stay.
//! let refined = chaikin_adaptive(&path, AdaptiveParams::default())?;
//! assert!(refined.len() > 3 && refined.len() < 18);
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use std::f64::consts::PI;

use crate::error::{Error, Result};
use crate::geometry::{check_path, turn_angle, Point, Scalar};

/// The largest output, in points, any Chaikin function here will produce (2^28, about
/// 268 million). Larger requests are [`Error::OutputTooLarge`] instead of an
/// out-of-memory abort.
///
/// ```
/// assert_eq!(pathsmooth::curve::chaikin::MAX_OUTPUT_POINTS, 1 << 28);
/// ```
pub const MAX_OUTPUT_POINTS: usize = 1 << 28;

const METHOD: &str = "Chaikin";

/// Parameters of classic Chaikin smoothing.
///
/// ```
/// use pathsmooth::curve::chaikin::ChaikinParams;
/// let p = ChaikinParams::default();
/// assert_eq!((p.ratio, p.passes, p.closed), (0.25, 4, false));
/// assert!(ChaikinParams { ratio: 0.6, ..p }.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChaikinParams {
    /// Cut ratio `r` in (0, ½]: each segment yields the points at fractions `r` and
    /// `1 − r` along it. Smaller values keep closer to the corners; ½ cuts at midpoints.
    /// Default ¼.
    pub ratio: f64,
    /// Number of passes `k`; each roughly doubles the point count. 0 returns the input.
    /// Default 4 (what the Terrator article found smooth enough).
    pub passes: u32,
    /// `true` for a closed loop (first point not repeated at the end). Default `false`.
    pub closed: bool,
}

impl Default for ChaikinParams {
    fn default() -> Self {
        ChaikinParams {
            ratio: 0.25,
            passes: 4,
            closed: false,
        }
    }
}

impl ChaikinParams {
    /// Checks the ratio: [`Error::BadParameter`] unless it is in (0, ½].
    ///
    /// ```
    /// use pathsmooth::curve::chaikin::ChaikinParams;
    /// assert!(ChaikinParams { ratio: 0.5, ..Default::default() }.validate().is_ok());
    /// assert!(ChaikinParams { ratio: 0.0, ..Default::default() }.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        check_ratio(self.ratio)
    }
}

fn check_ratio(ratio: f64) -> Result<()> {
    if ratio > 0.0 && ratio <= 0.5 {
        Ok(())
    } else {
        Err(Error::param("ratio", ratio, "a number in (0, 0.5]"))
    }
}

/// The number of points `passes` passes of Chaikin turn `n` points into:
/// `(n − 2)·2^passes + 2` for an open path (2 for `n = 2`), `n·2^passes` for a closed loop.
///
/// Errors: [`Error::EmptyPath`] / [`Error::TooFewPoints`] for `n < 2` (which the
/// smoothers refuse), [`Error::OutputTooLarge`] when the count overflows or exceeds
/// [`MAX_OUTPUT_POINTS`].
///
/// ```
/// use pathsmooth::curve::chaikin::chaikin_output_len;
/// assert_eq!(chaikin_output_len(15, 4, false)?, 210); // the Terrator buffer
/// assert_eq!(chaikin_output_len(4, 3, true)?, 32);
/// assert_eq!(chaikin_output_len(2, 60, false)?, 2);
/// assert!(chaikin_output_len(1000, 40, false).is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_output_len(n: usize, passes: u32, closed: bool) -> Result<usize> {
    match n {
        0 => return Err(Error::EmptyPath),
        1 => {
            return Err(Error::TooFewPoints {
                method: METHOD,
                needed: 2,
                got: 1,
            })
        }
        2 if !closed => return Ok(2),
        _ => {}
    }
    let (base, extra) = if closed { (n, 0) } else { (n - 2, 2) };
    let requested = 1u128
        .checked_shl(passes)
        .and_then(|f| (base as u128).checked_mul(f))
        .and_then(|v| v.checked_add(extra))
        .unwrap_or(u128::MAX);
    if requested > MAX_OUTPUT_POINTS as u128 {
        return Err(Error::OutputTooLarge {
            requested,
            cap: MAX_OUTPUT_POINTS,
        });
    }
    Ok(requested as usize)
}

/// Smooths the path held in `buf[..len]` in place, inside `buf`, and returns the number
/// of valid points (`buf[..returned]` is the result). Allocates nothing.
///
/// `buf` must hold [`chaikin_output_len`]`(len, passes, closed)` points; the slots past
/// `len` are scratch and their contents do not matter.
///
/// Errors: [`Error::BadParameter`] for a bad ratio or `len > buf.len()`,
/// [`Error::EmptyPath`] / [`Error::TooFewPoints`] (fewer than 2 points),
/// [`Error::NonFinite`], [`Error::OutputTooLarge`], [`Error::BufferTooSmall`]. On error
/// the buffer is untouched.
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::curve::chaikin::{chaikin_in_place, chaikin_output_len, ChaikinParams};
///
/// let params = ChaikinParams::default(); // 4 passes, ratio ¼, open
/// let path = [Vec2::new(0.0, 0.0), Vec2::new(8.0, 0.0), Vec2::new(8.0, 8.0)];
/// let mut buf = vec![Vec2::ZERO; chaikin_output_len(path.len(), params.passes, false)?];
/// buf[..3].copy_from_slice(&path);
/// let len = chaikin_in_place(&mut buf, 3, params)?; // no allocation in here
/// assert_eq!(len, 18);
/// assert_eq!((buf[0], buf[17]), (path[0], path[2]));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_in_place<P: Point>(
    buf: &mut [P],
    len: usize,
    params: ChaikinParams,
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
    let total = chaikin_output_len(len, params.passes, params.closed)?;
    if total > buf.len() {
        return Err(Error::BufferTooSmall {
            needed: total,
            capacity: buf.len(),
        });
    }
    let m = passes_in_place(buf, len, params, Weights::new(params.ratio));
    debug_assert_eq!(m, total);
    Ok(m)
}

/// Smooths `path` into `out` (cleared first), reusing its allocation: once `out` has
/// grown to the output size, further calls allocate nothing.
///
/// On large paths the first group of (up to six, fused) passes streams from `path` into
/// `out`, writing each point once; small ones are copied and smoothed in place. Errors as
/// [`chaikin_in_place`] (less [`Error::BufferTooSmall`]); on error `out` is left empty.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::curve::chaikin::{chaikin_into, ChaikinParams};
///
/// let square = [DVec3::ZERO, DVec3::X, DVec3::new(1.0, 1.0, 0.0), DVec3::Y];
/// let params = ChaikinParams { passes: 2, closed: true, ..Default::default() };
/// let mut out = Vec::new();
/// chaikin_into(&square, params, &mut out)?;
/// assert_eq!(out.len(), 16);
/// chaikin_into(&square[..3], params, &mut out)?; // reuses out's allocation
/// assert_eq!(out.len(), 12);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_into<P: Point>(path: &[P], params: ChaikinParams, out: &mut Vec<P>) -> Result<()> {
    out.clear();
    params.validate()?;
    check_path(path, 2, METHOD)?;
    let total = chaikin_output_len(path.len(), params.passes, params.closed)?;
    out.reserve(total);
    let w = Weights::new(params.ratio);
    if total <= SCRATCH || params.passes == 0 {
        // Small: everything stays in cache, so plain passes in place are fastest.
        out.extend_from_slice(path);
        out.resize(total, P::default());
        passes_in_place(out, path.len(), params, w);
        return Ok(());
    }
    // Large: the first group of passes streams from `path` to `out`, chunk by chunk,
    // writing each output point once; any further groups run in place.
    let q = group_size(params.passes);
    fused_append(path, q, params.closed, out, w);
    if q < params.passes {
        let m = out.len();
        out.resize(total, P::default());
        let rest = ChaikinParams {
            passes: params.passes - q,
            ..params
        };
        passes_in_place(out, m, rest, w);
    }
    debug_assert_eq!(out.len(), total);
    Ok(())
}

/// Smooths `path` with classic Chaikin and returns the new path.
///
/// Errors as [`chaikin_into`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::chaikin::{chaikin, ChaikinParams};
///
/// let p = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0)];
/// let out = chaikin(&p, ChaikinParams { passes: 1, ..Default::default() })?;
/// assert_eq!(out, [DVec2::ZERO, DVec2::new(3.0, 0.0), DVec2::new(4.0, 1.0), DVec2::new(4.0, 4.0)]);
/// assert!(chaikin(&p[..1], ChaikinParams::default()).is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin<P: Point>(path: &[P], params: ChaikinParams) -> Result<Vec<P>> {
    let mut out = Vec::new();
    chaikin_into(path, params, &mut out)?;
    Ok(out)
}

// ---- the passes -------------------------------------------------------------------------

/// The weights `(1 − r, r)` in the point's scalar type.
#[derive(Clone, Copy)]
struct Weights<S> {
    near: S,
    far: S,
}

impl<S: Scalar> Weights<S> {
    fn new(ratio: f64) -> Self {
        Weights {
            near: S::from_f64(1.0 - ratio),
            far: S::from_f64(ratio),
        }
    }
}

/// The cut points `Q` (near `a`) and `R` (near `b`) of segment `a → b`, as convex
/// combinations (no overflow for finite input).
#[inline(always)]
fn cut<P: Point>(a: P, b: P, w: Weights<P::Scalar>) -> (P, P) {
    (a * w.near + b * w.far, a * w.far + b * w.near)
}

/// Points of each half of the stack scratch in which fused passes run: 2048 `DVec2` are
/// 32 KiB, so a chunk's passes stay in L1/L2 cache.
const SCRATCH: usize = 2048;

/// Most passes fused into one sweep. With [`SCRATCH`] points a chunk then still advances
/// by `(2048 − 2) >> 6 = 31` input points for an overlap of 2.
const MAX_FUSED: u32 = 6;

/// The first of the (balanced) groups of at most [`MAX_FUSED`] passes that `passes` splits
/// into: 7 passes run as 4 + 3, not 6 + 1.
fn group_size(passes: u32) -> u32 {
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
fn passes_in_place<P: Point>(
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
fn fused_append<P: Point>(
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

// ---- per-vertex cut ratios ----------------------------------------------------------------

/// The two points that replace interior vertex `v` (between `prev` and `next`) when its
/// corner is cut with ratio `t`: `v + t·(prev − v)` and `v + t·(next − v)`, computed in the
/// convex form classic Chaikin uses (so with `t = r` they are bit for bit the `R` of the
/// incoming and the `Q` of the outgoing segment). `t = 0` gives `(v, v)`.
///
/// Map-aware smoothers use it to test a cut before committing to it
/// ([`MapSafe::chaikin`](crate::map_safe::MapSafe::chaikin)); [`chaikin_pass_ratios_into`]
/// emits exactly these points.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::chaikin::corner_cut;
/// let (a, b) = corner_cut(DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0), 0.25);
/// assert_eq!((a, b), (DVec2::new(3.0, 0.0), DVec2::new(4.0, 1.0)));
/// ```
#[inline]
pub fn corner_cut<P: Point>(prev: P, v: P, next: P, t: f64) -> (P, P) {
    let w: Weights<P::Scalar> = Weights::new(t);
    (prev * w.far + v * w.near, v * w.near + next * w.far)
}

/// One pass of Chaikin on an open path with a cut ratio **per vertex**: interior vertex
/// `i` is replaced by the two points of [`corner_cut`]`(path[i−1], path[i], path[i+1],
/// ratios[i])`, the endpoints are kept (`ratios[0]` and `ratios[n−1]` are ignored), and
/// `out` (cleared first, allocation reused) receives the result. A vertex with ratio 0 is
/// kept as one point; a point equal to the one before it is not written again (ratio ½
/// makes the two cut points of a segment meet), so the output holds no consecutive
/// duplicates that the input did not already have at a kept vertex.
///
/// With every ratio equal to `r` and no coincident cut points (r < ½), the output is bit
/// for bit one pass of [`chaikin`] with ratio `r`. Map-aware smoothing uses it to cut each
/// corner as deeply as the walls allow. Cost: O(n); no allocation once `out` has grown.
///
/// Errors: [`Error::EmptyPath`] / [`Error::TooFewPoints`] (fewer than 2 points),
/// [`Error::NonFinite`], and [`Error::BadParameter`] when `ratios.len() != path.len()` or
/// an interior ratio is outside [0, ½]. On error `out` is left empty.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::chaikin::chaikin_pass_ratios_into;
/// let p = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0), DVec2::new(8.0, 4.0)];
/// let mut out = Vec::new();
/// // Cut the first corner by a quarter, keep the second one.
/// chaikin_pass_ratios_into(&p, &[0.0, 0.25, 0.0, 0.0], &mut out)?;
/// assert_eq!(out, [p[0], DVec2::new(3.0, 0.0), DVec2::new(4.0, 1.0), p[2], p[3]]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_pass_ratios_into<P: Point>(
    path: &[P],
    ratios: &[f64],
    out: &mut Vec<P>,
) -> Result<()> {
    out.clear();
    check_path(path, 2, METHOD)?;
    if ratios.len() != path.len() {
        return Err(Error::param(
            "ratios",
            ratios.len() as f64,
            "one ratio per path point",
        ));
    }
    let n = path.len();
    if let Some(&bad) = ratios[1..n - 1]
        .iter()
        .find(|&&t| !(0.0..=0.5).contains(&t))
    {
        return Err(Error::param("ratio", bad, "a number in [0, 0.5]"));
    }
    out.reserve(2 * n - 2);
    out.push(path[0]);
    for i in 1..n - 1 {
        if ratios[i] == 0.0 {
            out.push(path[i]);
            continue;
        }
        let (a, b) = corner_cut(path[i - 1], path[i], path[i + 1], ratios[i]);
        push_distinct(out, a);
        push_distinct(out, b);
    }
    out.push(path[n - 1]);
    Ok(())
}

// ---- adaptive refinement ------------------------------------------------------------------

/// Parameters of adaptive refinement ([`chaikin_adaptive`], [`AdaptiveChaikin`]).
/// Angles are turn angles in radians: 0 is straight on, π a full reversal.
///
/// ```
/// use pathsmooth::curve::chaikin::AdaptiveParams;
/// let p = AdaptiveParams::default();
/// assert!((p.angle_limit.to_degrees() - 30.0).abs() < 1e-9);
/// assert_eq!(p.outlier_limit, None);
/// let noisy = AdaptiveParams { outlier_limit: Some(90f64.to_radians()), ..p };
/// assert!(noisy.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdaptiveParams {
    /// Vertices turning by more than this are cut; others pass through unchanged.
    /// In (0, π]. Default 30° (π/6). Smaller limits give rounder, longer output.
    pub angle_limit: f64,
    /// When set, vertices turning by more than this are dropped as spikes of noisy data
    /// instead of being cut. In (0, π] and greater than `angle_limit`. Default `None`
    /// (planner paths have real 90° corners).
    pub outlier_limit: Option<f64>,
    /// Cut ratio in (0, ½], as [`ChaikinParams::ratio`]. Default ¼.
    pub ratio: f64,
    /// Pass budget: refinement stops after this many passes even if some corner still
    /// exceeds the limit (a full reversal never gets below it). Default 4. Each pass at
    /// most doubles the point count.
    pub max_passes: u32,
}

impl Default for AdaptiveParams {
    fn default() -> Self {
        AdaptiveParams {
            angle_limit: PI / 6.0,
            outlier_limit: None,
            ratio: 0.25,
            max_passes: 4,
        }
    }
}

impl AdaptiveParams {
    /// Checks every parameter; [`Error::BadParameter`] names the first bad one.
    ///
    /// ```
    /// use pathsmooth::curve::chaikin::AdaptiveParams;
    /// let bad = AdaptiveParams { angle_limit: 0.0, ..Default::default() };
    /// assert!(bad.validate().is_err());
    /// let bad = AdaptiveParams { outlier_limit: Some(0.1), ..Default::default() }; // below 30°
    /// assert!(bad.validate().is_err());
    /// ```
    pub fn validate(&self) -> Result<()> {
        let angle_ok = |a: f64| a > 0.0 && a <= PI;
        if !angle_ok(self.angle_limit) {
            return Err(Error::param(
                "angle_limit",
                self.angle_limit,
                "an angle in (0, π] radians",
            ));
        }
        if let Some(o) = self.outlier_limit {
            if !angle_ok(o) || o <= self.angle_limit {
                return Err(Error::param(
                    "outlier_limit",
                    o,
                    "an angle in (0, π] radians, greater than angle_limit",
                ));
            }
        }
        check_ratio(self.ratio)
    }
}

/// What one adaptive refinement did.
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::curve::chaikin::{AdaptiveChaikin, AdaptiveParams};
/// let mut r = AdaptiveChaikin::new(AdaptiveParams::default())?;
/// let mut out = Vec::new();
/// let report = r.refine_into(&[Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)], &mut out)?;
/// assert_eq!((report.passes, report.cuts, report.removed, report.converged), (1, 0, 0, true));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RefineReport {
    /// Passes run (the last one may have found nothing to do).
    pub passes: u32,
    /// Corners cut, over all passes.
    pub cuts: usize,
    /// Outlier vertices removed, over all passes.
    pub removed: usize,
    /// `true` when a pass found no corner above the angle limit and no outlier, i.e. the
    /// output has no corner sharper than the limit; `false` when the budget ran out first.
    pub converged: bool,
}

/// Adaptive Chaikin refinement with reusable scratch: after warm-up, [`refine_into`]
/// allocates nothing.
///
/// [`refine_into`]: AdaptiveChaikin::refine_into
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::curve::chaikin::{AdaptiveChaikin, AdaptiveParams};
///
/// // Recorded data with one glitch: (3, 5) is a spike on an otherwise straight track.
/// let track: Vec<DVec2> = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (3.0, 5.0), (4.0, 0.0), (5.0, 0.0)]
///     .iter().map(|&(x, y)| DVec2::new(x, y)).collect();
/// let params = AdaptiveParams { outlier_limit: Some(90f64.to_radians()), ..Default::default() };
/// let mut refiner = AdaptiveChaikin::new(params)?;
/// let mut out = Vec::new();
/// let report = refiner.refine_into(&track, &mut out)?;
/// assert_eq!(report.removed, 1);
/// assert!(out.iter().all(|p| p.y == 0.0)); // spike gone, the rest straight and untouched
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct AdaptiveChaikin<P> {
    params: AdaptiveParams,
    scratch: Vec<P>,
}

impl<P: Point> AdaptiveChaikin<P> {
    /// A refiner with validated parameters ([`Error::BadParameter`] otherwise).
    ///
    /// ```
    /// use glam::Vec3;
    /// use pathsmooth::curve::chaikin::{AdaptiveChaikin, AdaptiveParams};
    /// assert!(AdaptiveChaikin::<Vec3>::new(AdaptiveParams::default()).is_ok());
    /// assert!(AdaptiveChaikin::<Vec3>::new(AdaptiveParams { ratio: 1.0, ..Default::default() }).is_err());
    /// ```
    pub fn new(params: AdaptiveParams) -> Result<Self> {
        params.validate()?;
        Ok(AdaptiveChaikin {
            params,
            scratch: Vec::new(),
        })
    }

    /// The parameters.
    ///
    /// ```
    /// use glam::Vec2;
    /// use pathsmooth::curve::chaikin::{AdaptiveChaikin, AdaptiveParams};
    /// let r = AdaptiveChaikin::<Vec2>::new(AdaptiveParams::default())?;
    /// assert_eq!(r.params().max_passes, 4);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn params(&self) -> &AdaptiveParams {
        &self.params
    }

    /// Refines the open path `path` into `out` (cleared first).
    ///
    /// Consecutive duplicates are merged, then each pass (1) drops outliers when
    /// `outlier_limit` is set and (2) cuts every corner sharper than `angle_limit`,
    /// until a pass changes nothing or `max_passes` passes have run.
    ///
    /// Errors: [`Error::EmptyPath`], [`Error::TooFewPoints`] (fewer than 2 points),
    /// [`Error::NonFinite`], and [`Error::OutputTooLarge`] when a pass could exceed
    /// [`MAX_OUTPUT_POINTS`] (checked against the worst case, every corner cut).
    ///
    /// ```
    /// use glam::Vec2;
    /// use pathsmooth::curve::chaikin::{AdaptiveChaikin, AdaptiveParams};
    /// let mut r = AdaptiveChaikin::new(AdaptiveParams::default())?;
    /// let mut out = Vec::new();
    /// let zigzag = [Vec2::ZERO, Vec2::new(1.0, 1.0), Vec2::new(2.0, 0.0), Vec2::new(3.0, 1.0)];
    /// let report = r.refine_into(&zigzag, &mut out)?;
    /// assert!(report.cuts >= 2 && out.len() > zigzag.len());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn refine_into(&mut self, path: &[P], out: &mut Vec<P>) -> Result<RefineReport> {
        out.clear();
        check_path(path, 2, "adaptive Chaikin")?;
        dedup_into(path, out);
        let w = Weights::new(self.params.ratio);
        let mut report = RefineReport::default();
        for _ in 0..self.params.max_passes {
            let worst = 2 * out.len();
            if worst > MAX_OUTPUT_POINTS {
                let requested = worst as u128;
                out.clear();
                return Err(Error::OutputTooLarge {
                    requested,
                    cap: MAX_OUTPUT_POINTS,
                });
            }
            let removed = match self.params.outlier_limit {
                Some(limit) => remove_outliers(out, limit),
                None => 0,
            };
            let cuts = cut_sharp(out, &mut self.scratch, self.params.angle_limit, w);
            std::mem::swap(out, &mut self.scratch);
            report.passes += 1;
            report.cuts += cuts;
            report.removed += removed;
            if cuts == 0 && removed == 0 {
                report.converged = true;
                break;
            }
        }
        Ok(report)
    }
}

/// Adaptive Chaikin refinement of an open path (the "Math Magician" `RefinePath`, done
/// right): see [`AdaptiveChaikin::refine_into`] for the steps and errors.
///
/// ```
/// use glam::Vec2;
/// use pathsmooth::curve::chaikin::{chaikin_adaptive, AdaptiveParams};
/// let straight: Vec<Vec2> = (0..5).map(|i| Vec2::new(i as f32, 2.0 * i as f32)).collect();
/// assert_eq!(chaikin_adaptive(&straight, AdaptiveParams::default())?, straight);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn chaikin_adaptive<P: Point>(path: &[P], params: AdaptiveParams) -> Result<Vec<P>> {
    let mut out = Vec::new();
    AdaptiveChaikin::new(params)?.refine_into(path, &mut out)?;
    Ok(out)
}

/// Pushes `p` unless it equals the last point (O(1), where the article used `Contains`).
#[inline]
fn push_distinct<P: Point>(out: &mut Vec<P>, p: P) {
    if out.last() != Some(&p) {
        out.push(p);
    }
}

/// Ends `out` with `last` exactly: it replaces an equal final point rather than duplicating
/// it, except when that point is the only one (a path that returns to its start).
fn push_last<P: Point>(out: &mut Vec<P>, last: P) {
    match out.len() {
        0 => out.push(last),
        1 if out[0] == last => {}
        _ => {
            if out.last() == Some(&last) {
                out.pop();
            }
            out.push(last);
        }
    }
}

/// Copies `path` into `out` merging consecutive duplicates, keeping first and last exactly.
fn dedup_into<P: Point>(path: &[P], out: &mut Vec<P>) {
    out.clear();
    out.push(path[0]);
    for &p in &path[1..path.len() - 1] {
        push_distinct(out, p);
    }
    push_last(out, path[path.len() - 1]);
}

/// Drops spike vertices (turn angle above `limit`) in place and returns how many.
///
/// The heading into each vertex is measured from the last *kept* point, so a removed
/// spike is never a reference. When the next vertex turns even more sharply, it is the
/// spike and the current one is kept. Endpoints always stay.
fn remove_outliers<P: Point>(pts: &mut Vec<P>, limit: f64) -> usize {
    let n = pts.len();
    if n < 3 {
        return 0;
    }
    let last = pts[n - 1];
    let mut kept = 1; // pts[..kept] is the output so far; writes never pass the reads
    let mut removed = 0;
    for i in 1..n - 1 {
        let (prev, cur, next) = (pts[kept - 1], pts[i], pts[i + 1]);
        if cur == prev {
            continue; // a removal brought two equal points together
        }
        // None only when a heading overflows: treat as not sharp.
        let angle = turn_angle(prev, cur, next).unwrap_or(0.0);
        if angle > limit {
            let ahead = pts.get(i + 2).and_then(|&n2| turn_angle(cur, next, n2));
            if !ahead.is_some_and(|a| a > angle) {
                removed += 1;
                continue;
            }
        }
        pts[kept] = cur;
        kept += 1;
    }
    pts.truncate(kept);
    push_last(pts, last);
    removed
}

/// One cutting pass from `src` into `dst`: corners sharper than `limit` are replaced by
/// the two points a fraction `r` towards their neighbours. Returns the number cut.
fn cut_sharp<P: Point>(src: &[P], dst: &mut Vec<P>, limit: f64, w: Weights<P::Scalar>) -> usize {
    dst.clear();
    let n = src.len();
    if n < 3 {
        dst.extend_from_slice(src);
        return 0;
    }
    dst.push(src[0]);
    let mut cuts = 0;
    for win in src.windows(3) {
        let (a, b, c) = (win[0], win[1], win[2]);
        match turn_angle(a, b, c) {
            Some(t) if t > limit => {
                cuts += 1;
                push_distinct(dst, cut(b, a, w).0);
                push_distinct(dst, cut(b, c, w).0);
            }
            _ => push_distinct(dst, b),
        }
    }
    push_last(dst, src[n - 1]);
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3, Vec2, Vec3};

    #[test]
    fn uniform_ratios_equal_one_classic_pass() {
        let path = terrator();
        for r in [0.1, 0.25, 0.3, 0.45] {
            let one = ChaikinParams {
                ratio: r,
                passes: 1,
                closed: false,
            };
            let mut out = Vec::new();
            chaikin_pass_ratios_into(&path, &vec![r; path.len()], &mut out).unwrap();
            assert_eq!(out, chaikin(&path, one).unwrap(), "ratio {r}");
        }
    }

    #[test]
    fn per_vertex_ratios_keep_zero_corners_and_reject_bad_input() {
        let p = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
        let mut out = Vec::new();
        chaikin_pass_ratios_into(&p, &[9.0, 0.5, 0.0, 9.0], &mut out).unwrap();
        // The midpoint cut of vertex 1, then vertex 2 kept.
        assert_eq!(out, [p[0], v(1.0, 0.0), v(2.0, 1.0), p[2], p[3]]);
        chaikin_pass_ratios_into(&p, &[0.0, 0.5, 0.5, 0.0], &mut out).unwrap();
        // Segment 1's two cut points meet at its midpoint: written once.
        assert_eq!(out, [p[0], v(1.0, 0.0), v(2.0, 1.0), v(1.0, 2.0), p[3]]);
        // Duplicate input points never give NaN.
        let dup = [p[0], p[1], p[1], p[2]];
        chaikin_pass_ratios_into(&dup, &[0.0, 0.25, 0.25, 0.0], &mut out).unwrap();
        assert!(out.iter().all(|q| q.is_finite()));
        assert!(chaikin_pass_ratios_into(&p, &[0.0, 0.6, 0.0, 0.0], &mut out).is_err());
        assert!(chaikin_pass_ratios_into(&p, &[0.0, f64::NAN, 0.0, 0.0], &mut out).is_err());
        assert!(chaikin_pass_ratios_into(&p, &[0.0; 3], &mut out).is_err());
        assert!(chaikin_pass_ratios_into(&p[..1], &[0.0], &mut out).is_err());
        assert!(out.is_empty());
    }

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    fn terrator() -> Vec<Vec2> {
        [
            (25.0, 50.0),
            (33.0, 50.0),
            (35.0, 50.0),
            (44.0, 50.5),
            (48.0, 48.5),
            (51.5, 50.5),
            (55.0, 47.5),
            (52.5, 44.5),
            (47.0, 47.0),
            (45.5, 49.5),
            (47.5, 52.0),
            (51.5, 52.5),
            (55.0, 52.0),
            (59.0, 52.5),
            (200.0, 49.5),
        ]
        .iter()
        .map(|&(x, y)| Vec2::new(x, y))
        .collect()
    }

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
    fn one_open_pass_by_hand() {
        let p = [v(0.0, 0.0), v(0.0, 4.0), v(4.0, 4.0), v(4.0, 0.0)];
        let out = chaikin(
            &p,
            ChaikinParams {
                passes: 1,
                ..Default::default()
            },
        )
        .unwrap();
        let want = [
            v(0.0, 0.0),
            v(0.0, 3.0),
            v(1.0, 4.0),
            v(3.0, 4.0),
            v(4.0, 3.0),
            v(4.0, 0.0),
        ];
        assert_eq!(out, want);
    }

    #[test]
    fn one_closed_pass_by_hand() {
        let p = [v(0.0, 0.0), v(4.0, 0.0), v(4.0, 4.0)];
        let params = ChaikinParams {
            passes: 1,
            closed: true,
            ratio: 0.5,
        };
        let out = chaikin(&p, params).unwrap();
        let want = [
            v(2.0, 0.0),
            v(2.0, 0.0),
            v(4.0, 2.0),
            v(4.0, 2.0),
            v(2.0, 2.0),
            v(2.0, 2.0),
        ];
        assert_eq!(out, want);
    }

    #[test]
    fn two_passes_by_hand() {
        // (0,0) (0,8) (8,8): pass 1 → (0,0) (0,6) (2,8) (8,8);
        // pass 2 → (0,0) (0,4.5) (0.5,6.5) (1.5,7.5) (3.5,8) (8,8).
        let p = [v(0.0, 0.0), v(0.0, 8.0), v(8.0, 8.0)];
        let out = chaikin(
            &p,
            ChaikinParams {
                passes: 2,
                ..Default::default()
            },
        )
        .unwrap();
        let want = [
            v(0.0, 0.0),
            v(0.0, 4.5),
            v(0.5, 6.5),
            v(1.5, 7.5),
            v(3.5, 8.0),
            v(8.0, 8.0),
        ];
        assert_eq!(out, want);
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
            chaikin_in_place(&mut ours, 15, ChaikinParams::default()),
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
                    let len = chaikin_in_place(&mut buf, path.len(), params).unwrap();
                    assert_eq!(len, total);
                    let alloc = chaikin(&path, params).unwrap();
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
        let mut state = 12345u64;
        (0..n)
            .map(|_| {
                let mut c = [0.0; 3];
                for x in &mut c {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    *x = (state >> 11) as f64 / (1u64 << 53) as f64 * 100.0;
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
                        let got = chaikin(&path, params).unwrap();
                        assert!(got == want, "into: n {n} passes {passes} closed {closed}");
                        let mut buf = vec![P::default(); total];
                        buf[..n].copy_from_slice(&path);
                        assert_eq!(chaikin_in_place(&mut buf, n, params), Ok(total));
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

    #[test]
    fn two_points_come_back_unchanged() {
        let p = [Vec2::ZERO, Vec2::ONE];
        assert_eq!(chaikin(&p, ChaikinParams::default()).unwrap(), p);
        assert_eq!(chaikin_adaptive(&p, AdaptiveParams::default()).unwrap(), p);
    }

    #[test]
    fn output_len_limits() {
        assert_eq!(chaikin_output_len(0, 1, false), Err(Error::EmptyPath));
        assert!(matches!(
            chaikin_output_len(1, 1, true),
            Err(Error::TooFewPoints { needed: 2, .. })
        ));
        assert_eq!(chaikin_output_len(3, 0, true), Ok(3));
        assert_eq!(chaikin_output_len(2, 3, true), Ok(16));
        assert_eq!(
            chaikin_output_len(MAX_OUTPUT_POINTS, 0, true),
            Ok(MAX_OUTPUT_POINTS)
        );
        assert!(matches!(
            chaikin_output_len(MAX_OUTPUT_POINTS + 1, 0, true),
            Err(Error::OutputTooLarge { .. })
        ));
        assert_eq!(
            chaikin_output_len(3, 200, false),
            Err(Error::OutputTooLarge {
                requested: u128::MAX,
                cap: MAX_OUTPUT_POINTS
            })
        );
        assert_eq!(
            chaikin_output_len(usize::MAX, 127, true),
            Err(Error::OutputTooLarge {
                requested: u128::MAX,
                cap: MAX_OUTPUT_POINTS
            })
        );
    }

    #[test]
    fn bad_input_is_an_error() {
        let p = [v(0.0, 0.0), v(1.0, f64::NAN), v(2.0, 0.0)];
        assert_eq!(
            chaikin(&p, ChaikinParams::default()),
            Err(Error::NonFinite { index: 1 })
        );
        assert_eq!(
            chaikin_adaptive(&p, AdaptiveParams::default()),
            Err(Error::NonFinite { index: 1 })
        );
        for ratio in [0.0, -0.1, 0.51, f64::NAN, f64::INFINITY] {
            let params = ChaikinParams {
                ratio,
                ..Default::default()
            };
            assert!(matches!(
                chaikin(&p[..1], params),
                Err(Error::BadParameter { name: "ratio", .. })
            ));
        }
        let mut small = [v(0.0, 0.0), v(1.0, 1.0), v(2.0, 0.0), v(0.0, 0.0)];
        let before = small;
        assert_eq!(
            chaikin_in_place(&mut small, 3, ChaikinParams::default()),
            Err(Error::BufferTooSmall {
                needed: 18,
                capacity: 4
            })
        );
        assert_eq!(small, before);
        assert!(matches!(
            chaikin_in_place(&mut small, 5, ChaikinParams::default()),
            Err(Error::BadParameter { name: "len", .. })
        ));
        let mut out = vec![v(9.0, 9.0)];
        assert!(chaikin_into(&p[..1], ChaikinParams::default(), &mut out).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn adaptive_params_validation() {
        let d = AdaptiveParams::default();
        assert!(d.validate().is_ok());
        for (a, o) in [
            (0.0, None),
            (-1.0, None),
            (4.0, None),
            (f64::NAN, None),
            (0.5, Some(0.5)),
            (0.5, Some(0.2)),
            (0.5, Some(3.5)),
            (0.5, Some(f64::NAN)),
        ] {
            let p = AdaptiveParams {
                angle_limit: a,
                outlier_limit: o,
                ..d
            };
            assert!(
                matches!(p.validate(), Err(Error::BadParameter { .. })),
                "{a} {o:?}"
            );
        }
        assert!(AdaptiveParams {
            angle_limit: PI,
            ..d
        }
        .validate()
        .is_ok());
    }

    #[test]
    fn adaptive_cuts_only_sharp_corners() {
        // A 90° corner and a 10° bend: only the corner is cut in the first pass.
        let bend = 10f64.to_radians();
        let p = [
            v(0.0, 0.0),
            v(10.0, 0.0),
            v(10.0, 10.0),
            v(10.0 + 10.0 * bend.sin(), 10.0 + 10.0 * bend.cos()),
        ];
        let params = AdaptiveParams {
            max_passes: 1,
            ..Default::default()
        };
        let out = chaikin_adaptive(&p, params).unwrap();
        assert_eq!(out, [p[0], v(7.5, 0.0), v(10.0, 2.5), p[2], p[3]]);
    }

    #[test]
    fn adaptive_converges_below_the_limit() {
        let p = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)];
        let params = AdaptiveParams {
            max_passes: 10,
            ..Default::default()
        };
        let mut r = AdaptiveChaikin::new(params).unwrap();
        let mut out = Vec::new();
        let report = r.refine_into(&p, &mut out).unwrap();
        assert!(report.converged, "{report:?}");
        for w in out.windows(3) {
            assert!(turn_angle(w[0], w[1], w[2]).unwrap() <= params.angle_limit);
        }
        assert_eq!((out[0], *out.last().unwrap()), (p[0], p[3]));
    }

    #[test]
    fn adaptive_duplicates_never_give_nan() {
        let p = [
            v(0.0, 0.0),
            v(0.0, 0.0),
            v(5.0, 0.0),
            v(5.0, 0.0),
            v(5.0, 0.0),
            v(5.0, 5.0),
            v(5.0, 5.0),
        ];
        let params = AdaptiveParams {
            outlier_limit: Some(2.0),
            ..Default::default()
        };
        let out = chaikin_adaptive(&p, params).unwrap();
        assert!(out.iter().all(|q| q.is_finite()));
        assert!(out.windows(2).all(|w| w[0] != w[1]));
        assert_eq!((out[0], *out.last().unwrap()), (p[0], p[6]));
        let same = [v(1.0, 1.0); 4];
        assert_eq!(chaikin_adaptive(&same, params).unwrap(), [v(1.0, 1.0)]);
    }

    #[test]
    fn outlier_is_the_spike_not_its_neighbour() {
        // The spike (2.5, 6) sits behind the vertex before it, so that vertex's own turn
        // exceeds 90° too; the sharper spike is the one removed, and the heading after it
        // is measured from (3, 0), not from the spike.
        let p = [
            v(0.0, 0.0),
            v(3.0, 0.0),
            v(2.5, 6.0),
            v(4.0, 0.0),
            v(6.0, 0.0),
        ];
        let params = AdaptiveParams {
            outlier_limit: Some(90f64.to_radians()),
            max_passes: 1,
            ..Default::default()
        };
        let mut r = AdaptiveChaikin::new(params).unwrap();
        let mut out = Vec::new();
        let report = r.refine_into(&p, &mut out).unwrap();
        assert_eq!(report.removed, 1);
        assert_eq!(report.cuts, 0);
        assert_eq!(out, [p[0], p[1], p[3], p[4]]);
    }

    #[test]
    fn extreme_finite_coordinates_stay_finite() {
        let m = f64::MAX;
        let p = [v(-m, m), v(m, m), v(m, -m), v(-m, -m)];
        for closed in [false, true] {
            let out = chaikin(
                &p,
                ChaikinParams {
                    closed,
                    ..Default::default()
                },
            )
            .unwrap();
            assert!(out.iter().all(|q| q.is_finite()));
        }
        let out = chaikin_adaptive(&p, AdaptiveParams::default()).unwrap();
        assert!(out.iter().all(|q| q.is_finite()));
    }
}
