//! Dimension-free smoothing: corner cutting, splines, resampling and path variations.
//! They know nothing of walls; see [`map_safe`](mod@crate::map_safe) for forms that never enter one and
//! [`crate::validate`] for the checks.
//!
//! Every item is here, one path per name (the modules below are private; the most used are
//! also at the crate root):
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::curve::{catmull_rom, chaikin, resample, CatmullRomParams, ChaikinParams};
//! let path = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0)];
//! let cut = chaikin(&path, &ChaikinParams::default())?;
//! let spline = catmull_rom(&path, &CatmullRomParams::centripetal(8))?;
//! let even = resample(&spline, 0.5)?;
//! assert_eq!((cut.len(), spline.len()), ((3 - 2) * 16 + 2, 2 * 8 + 1));
//! assert!(even.windows(2).all(|w| w[0].distance(w[1]) <= 0.5 + 1e-9));
//! # Ok::<(), pathsmooth::Error>(())
//! ```
//!
//! ## Chaikin corner cutting
//!
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
//! **Output budget.** The output may take at most [`MAX_OUTPUT_BYTES`] (256 MiB): at most
//! [`max_output_points`]`::<P>()` points of the point type at hand (2²⁴ ≈ 16.8 million
//! `DVec2`, 11.2 million `DVec3`, 2²⁵ `Vec2`). A larger request is
//! [`Error::OutputTooLarge`](crate::Error::OutputTooLarge) before anything is allocated, never an out-of-memory abort:
//! a 10⁶-point `DVec2` path at the default 4 passes (16 million points, 244 MiB) fits, 5
//! passes do not. [`chaikin_output_len`], which does not know the point type, applies the
//! `DVec2` cap [`MAX_OUTPUT_POINTS`]. The same budget bounds Catmull-Rom subdivision and
//! resampling ([`catmull_rom`](fn@catmull_rom), [`resample`](fn@resample), below).
//!
//! # Adaptive refinement
//!
//! [`chaikin_adaptive`] and [`AdaptiveChaikin`] follow the "Math Magician" article's
//! `RefinePath`: a vertex whose turn angle is at most
//! [`angle_limit`](AdaptiveParams::angle_limit) (radians, default π/6 = 30°) passes through
//! unchanged, a sharper one is cut, and an optional
//! [`outlier_limit`](AdaptiveParams::outlier_limit) (e.g. π/2 = 90°; off by default, since planner paths have real 90° corners) throws spike
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
//! use pathsmooth::curve::{chaikin, chaikin_adaptive, AdaptiveParams, ChaikinParams};
//!
//! let path = [Vec2::new(0.0, 0.0), Vec2::new(0.0, 4.0), Vec2::new(4.0, 4.0)];
//! let one = ChaikinParams { passes: 1, ..ChaikinParams::default() };
//! let smooth = chaikin(&path, &one)?;
//! assert_eq!(smooth, [Vec2::new(0.0, 0.0), Vec2::new(0.0, 3.0), Vec2::new(1.0, 4.0), Vec2::new(4.0, 4.0)]);
//!
//! // Four passes: (3 − 2)·2⁴ + 2 points, endpoints kept.
//! let smooth = chaikin(&path, &ChaikinParams::default())?;
//! assert_eq!(smooth.len(), 18);
//! assert_eq!((smooth[0], smooth[17]), (path[0], path[2]));
//!
//! // Adaptive: the 90° corner is cut until no turn exceeds 30°; straight parts stay.
//! let refined = chaikin_adaptive(&path, &AdaptiveParams::default())?;
//! assert!(refined.len() > 3 && refined.len() < 18);
//! # Ok::<(), pathsmooth::Error>(())
//! ```
//!
//! ## Catmull-Rom splines
//!
//! Catmull-Rom splines through a path's points: uniform (the Java article), centripetal and
//! chordal, open or closed.
//!
//! **What it does.** Segment i of the curve runs from p(i) to p(i+1) and is the cubic
//! defined by the four points p(i−1), p(i), p(i+1), p(i+2). The curve passes through every
//! input point; subdividing each segment into `s` steps gives `(n−1)·s + 1` output points
//! for an open path of n points (`n·s` for a closed loop, whose closing segment from the
//! last point back to the first is implied, as everywhere in pathsmooth).
//!
//! **Parameters** ([`CatmullRomParams`]):
//! - `subdivisions` (s ≥ 1, at most [`MAX_SUBDIVISIONS`]): output points per segment; more
//!   is smoother and costs linearly more.
//! - `alpha` ∈ [0, 1]: the knot parameterisation, knot intervals |p(i+1) − p(i)|^α.
//!   0 is the article's *uniform* spline; ½ is *centripetal*, which never forms a cusp or
//!   a self-intersection inside a segment and stays closest to the control polygon;
//!   1 is *chordal*.
//! - `ends` ([`Ends`]): how the missing neighbours of the first and last point are made
//!   up: doubled (the article: "specify p0 = p1"), reflected phantom points 2·p0 − p1, or a
//!   closed loop.
//!
//! **Coincident points.** Duplicate consecutive points are legal. A zero knot interval
//! (possible only for α > 0) is replaced by the segment's own interval, which makes that
//! end behave like the article's doubled end point; a segment between two equal points is
//! that point. No input within [`max_coordinate`](crate::geometry::max_coordinate) gives a
//! NaN or infinity.
//!
//! **The article's numbers.** Its 2D example and its q(0.5) = 2.125 for the 1D knots
//! 1, 2, 2, 1 are reproduced exactly (unit tests). Its printed q(0.25) = q(0.75) =
//! 2.171875 is not what its own `q(t)` returns (2.09375): with symmetric knots any cubic
//! through q(0) = q(1) = 2 and q(½) = 2.125 is 2 + ½·t(1 − t), so the printed value
//! cannot come from a Catmull-Rom (or any symmetric cubic) curve; we follow the formula.
//!
//! **Cost.** O(n·s) time; each segment is turned once into the coefficients of its cubic
//! (for α > 0 each knot interval is computed once along the path: two square roots for
//! α = ½, one for α = 1, a `powf` otherwise), then every output point is one Horner
//! evaluation. [`catmull_rom_into`] allocates nothing once the output `Vec` has capacity.
//!
//! **Sources.** "A Catmull Rom Spline (curve) Implementation in Java" (2010, blog post):
//! the uniform basis `q(t) = ½·(2p1 + (p2 − p0)t + (2p0 − 5p1 + 4p2 − p3)t² +
//! (3p1 − p0 − 3p2 + p3)t³)`, doubled end points, subdivision. C. Yuksel, S. Schaefer,
//! J. Keyser, "Parameterization and applications of Catmull–Rom curves", Computer-Aided
//! Design 43(7), 2011: the α-parameterisation and the centripetal properties. P. J. Barry,
//! R. N. Goldman, "A recursive evaluation algorithm for a class of Catmull-Rom splines",
//! SIGGRAPH 1988: the pyramidal formulation, whose end derivatives
//! `(p1−p0)/Δ0 − (p2−p0)/(Δ0+Δ1) + (p2−p1)/Δ1` give the Hermite tangents used here
//! (the unit tests check them against the pyramid).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::curve::{catmull_rom, CatmullRomParams};
//! // The Java article's 2D example, 4 subdivisions.
//! let path = [DVec2::new(1.0, 1.0), DVec2::new(2.0, 2.0), DVec2::new(3.0, 2.0), DVec2::new(4.0, 1.0)];
//! let out = catmull_rom(&path, &CatmullRomParams::uniform(4)).unwrap();
//! assert_eq!(out.len(), 13);
//! assert_eq!(out[4], path[1]); // passes through every input point
//! assert_eq!(out[6], DVec2::new(2.5, 2.125)); // mid-segment: x midway, y bulges like the 1D q(0.5)
//! let centripetal = catmull_rom(&path, &CatmullRomParams::centripetal(4)).unwrap();
//! assert_eq!(centripetal[8], path[2]);
//! ```
//!
//! ## Resampling by arc length
//!
//! Resampling a polyline at a fixed arc-length spacing: what a path follower wants.
//!
//! **What it does.** Walks the polyline and emits the points at arc length 0, s, 2s, …
//! measured along it, then the last input point exactly. Every gap along the path is
//! exactly `s` except the last, which is in (0, s]: a sample that would land within a
//! rounding error (10⁻⁹·s) of the end is dropped rather than doubled with it. The first
//! point is kept exactly; corners between samples are cut (samples lie on the path, the
//! straight chords between them do not follow its corners).
//!
//! **Parameters.** `spacing` > 0 (finite): the arc length between samples. Output size is
//! ⌈L/s⌉ + 1 for a path of length L, at most
//! [`max_output_points`]`::<P>()`: the
//! [`MAX_OUTPUT_BYTES`] budget (256 MiB) of the
//! curve functions ([`MAX_OUTPUT_POINTS`] for `DVec2`).
//!
//! **Edge cases.** Duplicate points (zero-length segments) are skipped; a path of one point,
//! or of length 0, yields its first and last points (one point for a one-point path).
//!
//! **Cost.** O(n + L/s), one pass; [`resample_into`] allocates nothing once the output has
//! capacity. Arc length is accumulated in `f64` and each sample's distance is k·s (not a
//! running sum), so long paths do not drift.
//!
//! **Source.** Standard arc-length parameterisation of a polyline; the issue's "resample at
//! a fixed arc-length spacing (what a path follower wants)".
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::curve::resample;
//! let path = [DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(2.0, 1.5)];
//! let out = resample(&path, 1.0).unwrap();
//! assert_eq!(out, vec![DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0), DVec2::new(2.0, 1.0), DVec2::new(2.0, 1.5)]);
//! ```
//!
//! ## Exact curves
//!
//! Exact curves: paths made of line segments, circular arcs and clothoids, with their
//! length, points, tangents and curvature in closed form, sampled to a polyline at a
//! spacing or within a chord error.
//!
//! [`ExactCurve`] is what [fillet smoothing](mod@crate::fillet) returns: the fillet's arcs are
//! arcs here, not many short segments, so the curvature a follower sees is the arc's
//! `1/R` exactly. Clothoid points use the Fresnel integrals, computed as in Press et al.,
//! *Numerical Recipes* §6.8 (series and continued fraction), accurate to 2·10⁻¹⁵.
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::curve::{ExactCurve, Piece};
//! use std::f64::consts::FRAC_PI_2;
//! // Along x, a quarter circle of radius 1 to the left, then up along y.
//! let curve = ExactCurve::new(vec![
//!     Piece::line(DVec2::ZERO, DVec2::new(2.0, 0.0))?,
//!     Piece::arc(DVec2::new(2.0, 1.0), 1.0, -FRAC_PI_2, FRAC_PI_2)?,
//!     Piece::line(DVec2::new(3.0, 1.0), DVec2::new(3.0, 3.0))?,
//! ])?;
//! assert!((curve.length() - (4.0 + FRAC_PI_2)).abs() < 1e-12);
//! assert_eq!(curve.curvature_at(2.5), 1.0);
//! assert!(curve.max_tangent_jump() < 1e-12);
//! let polyline = curve.to_polyline(1e-3)?; // every chord within 0.001 of the arc
//! assert_eq!((polyline[0], polyline[polyline.len() - 1]), (DVec2::ZERO, DVec2::new(3.0, 3.0)));
//! # Ok::<(), pathsmooth::Error>(())
//! ```
//!
//! ## Path variations
//!
//! Path variations: translate, mirror, and start part-way along a path.
//!
//! **What it does.** The "Terrator" article keeps a few hand-authored patrol paths and
//! varies them at spawn time: "the path should be offset by a random number of pixels, and
//! his start position relative to the path should also change. We also allowed it to be
//! 'flipped' randomly". These are the three operations:
//!
//! - [`translate`]: add an offset to every point.
//! - [`mirror`]: reflect across the line (2D) or plane (3D) through a pivot with a given
//!   normal, `p' = p − 2·((p − pivot)·n̂)·n̂`; [`mirror_across_axis`] takes the axis
//!   direction instead (2D, or a vertical mirror plane for 3D paths whose z is height).
//!   Mirroring twice is the identity (up to rounding).
//! - [`start_at_distance`]: the path from the point at arc length `d` onward; for a closed
//!   patrol loop (`closed = true`) `d` wraps around and the result is the same loop
//!   starting at that point.
//!
//! Each has an in-place or `_into` form that allocates nothing.
//!
//! **Cost.** O(n) each.
//!
//! **Source.** "Dev Blog #02 – Smoothing a path for Terrator" (path variations: offset,
//! flip, start offset).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::curve::{mirror_across_axis, start_at_distance, translate};
//! let path = [DVec2::new(0.0, 0.0), DVec2::new(4.0, 0.0), DVec2::new(4.0, 3.0)];
//! let moved = translate(&path, DVec2::new(10.0, 0.0)).unwrap();
//! assert_eq!(moved[0], DVec2::new(10.0, 0.0));
//! // Flip left-right across the vertical line x = 2.
//! let flipped = mirror_across_axis(&path, DVec2::new(2.0, 0.0), DVec2::Y).unwrap();
//! assert_eq!(flipped[2], DVec2::new(0.0, 3.0));
//! // Start 5 units along: 4 along the first leg, 1 up the second.
//! let late = start_at_distance(&path, 5.0, false).unwrap();
//! assert_eq!(late, vec![DVec2::new(4.0, 1.0), DVec2::new(4.0, 3.0)]);
//! ```

pub(crate) mod catmull_rom;
pub(crate) mod chaikin;
pub(crate) mod exact;
pub(crate) mod resample;
pub(crate) mod variations;

pub use catmull_rom::{
    catmull_rom, catmull_rom_into, uniform_weights, CatmullRom, CatmullRomParams, Ends, Segment,
    CENTRIPETAL, CHORDAL, MAX_SUBDIVISIONS, UNIFORM,
};
pub use chaikin::{
    chaikin, chaikin_adaptive, chaikin_in_place, chaikin_into, chaikin_output_len,
    chaikin_pass_ratios_into, corner_cut, max_output_points, AdaptiveChaikin, AdaptiveParams,
    ChaikinParams, RefineReport, MAX_OUTPUT_BYTES, MAX_OUTPUT_POINTS,
};
pub use exact::{ExactCurve, Piece, MAX_SAMPLES};
pub use resample::{resample, resample_into};
pub use variations::{
    mirror, mirror_across_axis, mirror_in_place, start_at_distance, start_at_distance_into,
    translate, translate_in_place,
};
