//! The linear operator K of Langerak's path energy, its exact adjoint Kᵀ, the diagonal
//! step sizes of Pock & Chambolle (2011) computed from K, the energy E(v) and the dual
//! objective used for a certified stopping gap.
//!
//! With n waypoints and the chapter's differencing operators (§20.2.1, written here with
//! 0-based indices and without the 1/h factor):
//!
//! - δ⁺(v)ᵢ = vᵢ₊₁ − vᵢ for i < n−1, 0 at i = n−1;
//! - δ⁻(v)ᵢ = v₀ at i = 0, vᵢ − vᵢ₋₁ inside, −vₙ₋₂ at i = n−1 (so δ⁻ = −(δ⁺)ᵀ);
//! - δˢ = −δ⁺ + δ⁻: 2v₀ − v₁ at i = 0, 2vᵢ − vᵢ₋₁ − vᵢ₊₁ inside, −vₙ₋₂ at i = n−1
//!   (a symmetric matrix, Figure 20.5).
//!
//! K stacks K₁ = W δˢ / h (W = diag(w)) over K₂ = δ⁺ / h, acting on x and y alike. Its
//! adjoint is Kᵀ(p, q) = (δˢ(w∘p) − δ⁻(q)) / h. The chapter writes w δˢ(p), which is the
//! same only for constant weights; with the bathtub curve the weight must act *before*
//! δˢ, and the tests check ⟨Kv, (p,q)⟩ = ⟨v, Kᵀ(p,q)⟩ on random vectors.
//!
//! The energy (20.1) is E(v) = ½‖W δˢ v / h‖²_{V,2} + L(δ⁺ v / h) + I_C(v), where L is the
//! chapter's ‖·‖_{V,2} ([`LengthNorm::Chapter`]) or the sum of segment lengths ‖·‖_{V,1}
//! ([`LengthNorm::SumOfLengths`]).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::corridor::{energy, LengthNorm, Problem};
//! // Three collinear, evenly spaced pinned points: no bending, length term √(1+1)/h.
//! let p = Problem::new(vec![DVec2::ZERO, DVec2::X, DVec2::new(2.0, 0.0)], vec![0.0; 3], vec![0.0, 5.0, 0.0], 1.0).unwrap();
//! assert!((energy(&p, &p.centers, LengthNorm::Chapter) - 2f64.sqrt()).abs() < 1e-15);
//! assert_eq!(energy(&p, &p.centers, LengthNorm::SumOfLengths), 2.0);
//! ```

// Loops index several parallel arrays at once (v, c, r, w, σ, τ…), as the maths does.
#![allow(clippy::needless_range_loop)]

use glam::DVec2;

use super::problem::Problem;

/// Which norm the length term uses.
///
/// ```
/// use pathsmooth::corridor::LengthNorm;
/// assert_eq!(LengthNorm::default(), LengthNorm::Chapter);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LengthNorm {
    /// The chapter's ‖δ⁺v‖_{V,2} = √(Σ segment²)/h. For a fixed total length it is
    /// smallest when all segments are equal, so besides shortening the path it spreads the
    /// waypoints evenly (Figure 20.7a). Its dual set is one ball, ‖q‖_{V,2} ≤ 1.
    #[default]
    Chapter,
    /// ‖δ⁺v‖_{V,1} = Σ segment/h, the true path length over h. Indifferent to how the
    /// waypoints are spaced along the path (they may bunch up in straight stretches);
    /// its dual set is a unit disk per segment (point-wise projection).
    SumOfLengths,
}

/// Row `i` of δˢ (unit h) as (column, coefficient) pairs; unused slots have coefficient 0.
#[inline]
pub(crate) fn ds_row(i: usize, n: usize) -> [(usize, f64); 3] {
    if i == 0 {
        [(0, 2.0), (1, -1.0), (0, 0.0)]
    } else if i + 1 < n {
        [(i - 1, -1.0), (i, 2.0), (i + 1, -1.0)]
    } else {
        [(i - 1, -1.0), (0, 0.0), (0, 0.0)]
    }
}

/// Row `i` of δ⁺ (unit h) as (column, coefficient) pairs.
#[inline]
pub(crate) fn dp_row(i: usize, n: usize) -> [(usize, f64); 2] {
    if i + 1 < n {
        [(i, -1.0), (i + 1, 1.0)]
    } else {
        [(0, 0.0), (0, 0.0)]
    }
}

/// δˢ(x)ᵢ (unit h) with the chapter's boundary rows.
#[inline]
fn ds_at(x: &[DVec2], i: usize) -> DVec2 {
    let n = x.len();
    if i == 0 {
        2.0 * x[0] - x[1]
    } else if i + 1 < n {
        2.0 * x[i] - x[i - 1] - x[i + 1]
    } else {
        -x[i - 1]
    }
}

/// K v: `p = W δˢ(v) / h` and `q = δ⁺(v) / h`.
pub(crate) fn apply_k(problem: &Problem, v: &[DVec2], p: &mut [DVec2], q: &mut [DVec2]) {
    let n = v.len();
    let inv_h = 1.0 / problem.h;
    for i in 0..n {
        p[i] = ds_at(v, i) * (problem.weights[i] * inv_h);
        q[i] = if i + 1 < n {
            (v[i + 1] - v[i]) * inv_h
        } else {
            DVec2::ZERO
        };
    }
}

/// Kᵀ(p, q) = (δˢ(w∘p) − δ⁻(q)) / h, the exact adjoint of [`apply_k`], into `out`.
pub(crate) fn apply_kt(problem: &Problem, p: &[DVec2], q: &[DVec2], out: &mut [DVec2]) {
    let n = p.len();
    let w = &problem.weights;
    let inv_h = 1.0 / problem.h;
    let wp = |i: usize| p[i] * w[i];
    for i in 0..n {
        let (s, m) = if i == 0 {
            (2.0 * wp(0) - wp(1), q[0])
        } else if i + 1 < n {
            (2.0 * wp(i) - wp(i - 1) - wp(i + 1), q[i] - q[i - 1])
        } else {
            (-wp(i - 1), -q[i - 1])
        };
        out[i] = (s - m) * inv_h;
    }
}

/// One row of K (entries `c·scale` at columns j) for [`step_sizes`]: returns Σⱼ |Kᵢⱼ|^α and
/// adds each |Kᵢⱼ|^{2−α} to the column sum `tau[j]`.
fn row_powers(
    row: impl IntoIterator<Item = (usize, f64)>,
    scale: f64,
    alpha: f64,
    tau: &mut [f64],
) -> f64 {
    let mut sum = 0.0;
    for (j, c) in row {
        let k = (c * scale).abs();
        if k > 0.0 {
            sum += k.powf(alpha);
            tau[j] += k.powf(2.0 - alpha);
        }
    }
    sum
}

/// The diagonal step sizes of Pock & Chambolle (2011), Lemma 2, computed from the rows
/// and columns of the actual K (per waypoint; x and y rows are identical):
///
/// σᵢ = 1 / (β Σⱼ |K₁ᵢⱼ|^α), μᵢ = 1 / (β Σⱼ |K₂ᵢⱼ|^α), τⱼ = β / Σᵢ |Kᵢⱼ|^{2−α}.
///
/// For interior waypoints these are the chapter's (20.9). A zero row (weight 0, or the
/// last row of δ⁺) gets step 0: its dual variable never moves, which is exact since that
/// row of K is zero. The V,2 dual set is a single ball, so the prox of F₂* is the plain
/// projection only for a constant μ; `mu` is therefore the smallest μᵢ over the non-zero
/// rows (they are all h^α/(2β) in fact, and a smaller step keeps the convergence bound).
pub(crate) fn step_sizes(
    problem: &Problem,
    alpha: f64,
    beta: f64,
    sigma: &mut [f64],
    tau: &mut [f64],
) -> f64 {
    let n = problem.len();
    let inv_h = 1.0 / problem.h;
    let step = |sum: f64| if sum > 0.0 { 1.0 / (beta * sum) } else { 0.0 };
    tau.fill(0.0); // column sums of |K|^{2−α} first
    let mut mu = f64::INFINITY;
    for i in 0..n {
        let scale = problem.weights[i] * inv_h;
        sigma[i] = step(row_powers(ds_row(i, n), scale, alpha, tau));
        let row = row_powers(dp_row(i, n), inv_h, alpha, tau);
        if row > 0.0 {
            mu = mu.min(step(row));
        }
    }
    for t in tau.iter_mut() {
        *t = if *t > 0.0 { beta / *t } else { 0.0 };
    }
    if mu.is_finite() {
        mu
    } else {
        0.0
    }
}

/// The nearest point to `v` in the disk (`c`, `r`): prox of I_C (§20.4.2.3). Radius 0
/// returns `c` exactly; no division by zero.
#[inline]
pub(crate) fn project_to_disk(v: DVec2, c: DVec2, r: f64) -> DVec2 {
    let d = v - c;
    let l2 = d.length_squared();
    if l2 <= r * r {
        v
    } else if r == 0.0 {
        c
    } else {
        c + d * (r / l2.sqrt())
    }
}

/// How far `v` may stray outside its disk and still count as inside for [`energy`].
pub(crate) fn disk_slack(r: f64) -> f64 {
    1e-9 * (1.0 + r)
}

/// The path energy (20.1) of `v`: ½‖W δˢ v/h‖²_{V,2} + L(δ⁺ v/h), or +∞ when a waypoint
/// lies outside its disk by more than 1e-9·(1 + r).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::{energy, LengthNorm, Problem};
/// let p = Problem::new(vec![DVec2::ZERO, DVec2::Y, DVec2::new(2.0, 0.0)], vec![0.0, 1.0, 0.0], vec![0.0, 1.0, 0.0], 1.0).unwrap();
/// // Bend at the middle: 2·(0,1) − (0,0) − (2,0) = (−2, 2) → ½·8; length √(1 + 5).
/// assert!((energy(&p, &p.centers, LengthNorm::Chapter) - (4.0 + 6f64.sqrt())).abs() < 1e-12);
/// let outside = [DVec2::ZERO, DVec2::new(0.0, 3.0), DVec2::new(2.0, 0.0)];
/// assert_eq!(energy(&p, &outside, LengthNorm::Chapter), f64::INFINITY);
/// ```
pub fn energy(problem: &Problem, v: &[DVec2], norm: LengthNorm) -> f64 {
    let outside = (0..v.len()).any(|i| {
        v[i].distance(problem.centers[i]) > problem.radii[i] + disk_slack(problem.radii[i])
    });
    if outside {
        return f64::INFINITY;
    }
    smooth_and_length(problem, v, norm)
}

/// E(v) without the indicator term.
pub(crate) fn smooth_and_length(problem: &Problem, v: &[DVec2], norm: LengthNorm) -> f64 {
    let n = v.len();
    let inv_h = 1.0 / problem.h;
    let mut bend = 0.0;
    let mut len2 = 0.0;
    let mut len1 = 0.0;
    for i in 0..n {
        let w = problem.weights[i];
        if w != 0.0 {
            bend += (ds_at(v, i) * (w * inv_h)).length_squared();
        }
        if i + 1 < n {
            let s = (v[i + 1] - v[i]) * inv_h;
            len2 += s.length_squared();
            len1 += s.length();
        }
    }
    0.5 * bend
        + match norm {
            LengthNorm::Chapter => len2.sqrt(),
            LengthNorm::SumOfLengths => len1,
        }
}

/// The dual objective D(p, q) = min_{v∈C} ⟨v, Kᵀ(p,q)⟩ − ½‖p‖² for q in the dual set
/// (which the caller guarantees), given g = Kᵀ(p, q):
/// Σᵢ ⟨cᵢ, gᵢ⟩ − rᵢ‖gᵢ‖ − ½‖p‖². Weak duality: D(p, q) ≤ min E ≤ E(v) for any feasible v.
pub(crate) fn dual_objective(problem: &Problem, p: &[DVec2], g: &[DVec2]) -> f64 {
    let mut d = 0.0;
    for i in 0..g.len() {
        d += problem.centers[i].dot(g[i])
            - problem.radii[i] * g[i].length()
            - 0.5 * p[i].length_squared();
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift) so the tests need no extra crate.
    struct Rng(u64);
    impl Rng {
        fn f(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
        fn v(&mut self) -> DVec2 {
            DVec2::new(self.f(), self.f())
        }
    }

    fn problem(n: usize, h: f64) -> Problem {
        let w = crate::corridor::problem::bathtub(n, 10.0, 3.0, 2.0);
        Problem::new(vec![DVec2::ZERO; n], vec![1.0; n], w, h).unwrap()
    }

    /// Dense K (one coordinate) from the row descriptions.
    fn dense_k(pr: &Problem) -> Vec<Vec<f64>> {
        let n = pr.len();
        let mut k = vec![vec![0.0; n]; 2 * n];
        for i in 0..n {
            for (j, c) in ds_row(i, n) {
                k[i][j] += c * pr.weights[i] / pr.h;
            }
            for (j, c) in dp_row(i, n) {
                k[n + i][j] += c / pr.h;
            }
        }
        k
    }

    #[test]
    fn fast_operators_match_the_dense_matrix_of_figure_20_5() {
        for n in [2, 3, 4, 9] {
            let pr = problem(n, 0.8);
            let k = dense_k(&pr);
            let mut rng = Rng(99 + n as u64);
            let v: Vec<DVec2> = (0..n).map(|_| rng.v()).collect();
            let (mut p, mut q) = (vec![DVec2::ZERO; n], vec![DVec2::ZERO; n]);
            apply_k(&pr, &v, &mut p, &mut q);
            for r in 0..2 * n {
                let want: f64 = (0..n).map(|j| k[r][j] * v[j].x).sum();
                let got = if r < n { p[r].x } else { q[r - n].x };
                assert!((want - got).abs() < 1e-12, "n={n} row {r}");
            }
            let y: Vec<DVec2> = (0..2 * n).map(|_| rng.v()).collect();
            let mut g = vec![DVec2::ZERO; n];
            apply_kt(&pr, &y[..n], &y[n..], &mut g);
            for j in 0..n {
                let want: f64 = (0..2 * n).map(|r| k[r][j] * y[r].y).sum();
                assert!((want - g[j].y).abs() < 1e-12, "n={n} column {j}");
            }
        }
    }

    #[test]
    fn step_sizes_match_equation_20_9_inside() {
        let (alpha, beta, h) = (0.7, 1.9, 1.3);
        let pr = problem(12, h);
        let (mut s, mut t) = (vec![0.0; 12], vec![0.0; 12]);
        let mu = step_sizes(&pr, alpha, beta, &mut s, &mut t);
        let w = &pr.weights;
        assert!((mu - h.powf(alpha) / (2.0 * beta)).abs() < 1e-15);
        for i in 2..10 {
            let sig = h.powf(alpha) / ((2.0 + 2f64.powf(alpha)) * beta * w[i].powf(alpha));
            assert!((s[i] - sig).abs() < 1e-14 * sig);
            let a = 2.0 - alpha;
            let ta = beta * h.powf(a)
                / (2.0 + w[i - 1].powf(a) + (2.0 * w[i]).powf(a) + w[i + 1].powf(a));
            assert!((t[i] - ta).abs() < 1e-14 * ta, "{i}");
        }
    }

    #[test]
    fn projection_is_idempotent_and_lands_on_the_rim() {
        let mut rng = Rng(5);
        for _ in 0..1000 {
            let (v, c, r) = (rng.v() * 10.0, rng.v(), rng.f().abs() * 3.0);
            let x = project_to_disk(v, c, r);
            assert!(x.distance(c) <= r * (1.0 + 1e-15) + 1e-15);
            assert!(project_to_disk(x, c, r).distance(x) < 1e-12);
        }
    }

    #[test]
    fn apply_k_on_three_waypoints() {
        let pr = Problem::new(
            vec![DVec2::ZERO, DVec2::Y, DVec2::X],
            vec![0.0; 3],
            vec![0.0, 2.0, 0.0],
            0.5,
        )
        .unwrap();
        let (mut p, mut q) = (vec![DVec2::ZERO; 3], vec![DVec2::ZERO; 3]);
        apply_k(&pr, &pr.centers, &mut p, &mut q);
        assert_eq!(p[1], 2.0 * (2.0 * DVec2::Y - DVec2::ZERO - DVec2::X) / 0.5);
        assert_eq!(q[2], DVec2::ZERO);
    }

    #[test]
    fn apply_kt_is_the_adjoint_on_four_waypoints() {
        let pr = Problem::new(
            vec![DVec2::ZERO, DVec2::Y, DVec2::X, DVec2::ONE],
            vec![0.0; 4],
            vec![0.0, 2.0, 3.0, 0.0],
            0.7,
        )
        .unwrap();
        let v = [
            DVec2::new(1.0, 2.0),
            DVec2::new(-1.0, 0.5),
            DVec2::new(0.3, 0.0),
            DVec2::new(2.0, -1.0),
        ];
        let (y1, y2) = (
            [DVec2::X, DVec2::Y, DVec2::ONE, DVec2::NEG_X],
            [DVec2::Y, DVec2::ONE, DVec2::X, DVec2::ZERO],
        );
        let (mut p, mut q, mut g) = ([DVec2::ZERO; 4], [DVec2::ZERO; 4], [DVec2::ZERO; 4]);
        apply_k(&pr, &v, &mut p, &mut q);
        apply_kt(&pr, &y1, &y2, &mut g);
        let lhs: f64 = (0..4).map(|i| p[i].dot(y1[i]) + q[i].dot(y2[i])).sum();
        let rhs: f64 = (0..4).map(|i| v[i].dot(g[i])).sum();
        assert!((lhs - rhs).abs() < 1e-12);
    }

    #[test]
    fn step_sizes_on_five_waypoints() {
        let w = vec![0.0, 1.0, 2.0, 1.0, 0.0];
        let c = vec![DVec2::ZERO; 5];
        let pr = Problem::new(c, vec![1.0; 5], w, 2.0).unwrap();
        let (mut sigma, mut tau) = (vec![0.0; 5], vec![0.0; 5]);
        let mu = step_sizes(&pr, 1.0, 1.0, &mut sigma, &mut tau);
        assert_eq!(mu, 1.0); // h^α / (2β)
        assert_eq!(sigma[2], 2.0 / (4.0 * 2.0)); // h^α / ((2 + 2^α) β w^α)
        assert_eq!(tau[2], 2.0 / (2.0 + 1.0 + 4.0 + 1.0)); // β h^{2−α} / (2 + w₋ + 2w + w₊)
        assert_eq!(sigma[0], 0.0); // zero row
    }

    #[test]
    fn projection_onto_a_disk_and_onto_its_centre() {
        assert_eq!(
            project_to_disk(DVec2::new(3.0, 0.0), DVec2::ZERO, 2.0),
            DVec2::new(2.0, 0.0)
        );
        assert_eq!(
            project_to_disk(DVec2::new(1.0, 0.0), DVec2::ZERO, 2.0),
            DVec2::new(1.0, 0.0)
        );
        assert_eq!(project_to_disk(DVec2::ONE, DVec2::ZERO, 0.0), DVec2::ZERO);
    }

    #[test]
    fn k_transpose_is_the_exact_adjoint_with_bathtub_weights() {
        let mut rng = Rng(17);
        for n in [2, 3, 4, 5, 20, 101] {
            // A corridor of n disks (at least 2) with its two dummy waypoints.
            let pr = problem(n.max(2) + 2, 0.9);
            let n = pr.len();
            assert!(
                pr.weights.windows(2).any(|w| w[0] != w[1]),
                "non-constant weights"
            );
            for _ in 0..20 {
                let v: Vec<DVec2> = (0..n).map(|_| rng.v() * 10.0).collect();
                let y1: Vec<DVec2> = (0..n).map(|_| rng.v()).collect();
                let y2: Vec<DVec2> = (0..n).map(|_| rng.v()).collect();
                let (mut kp, mut kq, mut g) = (
                    vec![DVec2::ZERO; n],
                    vec![DVec2::ZERO; n],
                    vec![DVec2::ZERO; n],
                );
                apply_k(&pr, &v, &mut kp, &mut kq);
                apply_kt(&pr, &y1, &y2, &mut g);
                let lhs: f64 = (0..n).map(|i| kp[i].dot(y1[i]) + kq[i].dot(y2[i])).sum();
                let rhs: f64 = (0..n).map(|i| v[i].dot(g[i])).sum();
                let scale: f64 = (0..n)
                    .map(|i| kp[i].length() * y1[i].length() + kq[i].length() * y2[i].length())
                    .sum::<f64>()
                    .max(1.0);
                assert!((lhs - rhs).abs() <= 1e-13 * scale, "n={n}: {lhs} vs {rhs}");
            }
        }
    }

    #[test]
    fn the_chapters_w_delta_s_p_is_not_the_adjoint_with_varying_weights() {
        // Kᵀ written as w·δˢ(p) (the chapter's formula) breaks the identity: this is why
        // apply_kt uses δˢ(w∘p).
        let pr = problem(14, 0.9);
        let n = pr.len();
        let mut rng = Rng(3);
        let v: Vec<DVec2> = (0..n).map(|_| rng.v()).collect();
        let y1: Vec<DVec2> = (0..n).map(|_| rng.v()).collect();
        let zero = vec![DVec2::ZERO; n];
        let (mut kp, mut kq) = (zero.clone(), zero.clone());
        apply_k(&pr, &v, &mut kp, &mut kq);
        let lhs: f64 = (0..n).map(|i| kp[i].dot(y1[i])).sum();
        // w δˢ(p): multiply after differencing.
        let unweighted =
            Problem::new(pr.centers.clone(), pr.radii.clone(), vec![1.0; n], pr.h).unwrap();
        let mut g = zero.clone();
        apply_kt(&unweighted, &y1, &zero, &mut g);
        let wrong: f64 = (0..n).map(|i| v[i].dot(g[i] * pr.weights[i])).sum();
        let mut g = zero.clone();
        apply_kt(&pr, &y1, &zero, &mut g);
        let right: f64 = (0..n).map(|i| v[i].dot(g[i])).sum();
        assert!((lhs - right).abs() < 1e-12);
        assert!((lhs - wrong).abs() > 1e-3);
    }
}
