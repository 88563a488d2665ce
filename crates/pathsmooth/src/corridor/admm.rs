//! ADMM (the alternating direction method of multipliers) for Langerak's path energy:
//! the same problem as the Chambolle–Pock iteration of [`super::optimize`], solved with the
//! smoothness term's ill-conditioned matrix inverted exactly instead of stepped through.
//!
//! # The splitting
//!
//! E(v) = ½‖K₁v‖² + ‖K₂v‖_{V,2} + I_C(v) (K₁ = W δˢ/h, K₂ = δ⁺/h; [`super::operators`]).
//! With z₁ = K₂v and z₂ = v, scaled ADMM (Boyd et al. 2011, §3.1.1) alternates
//!
//! 1. v ← (K₁ᵀK₁ + ρ₁K₂ᵀK₂ + ρ₂I)⁻¹ (ρ₁K₂ᵀ(z₁ − u₁) + ρ₂(z₂ − u₂)),
//! 2. z₁ ← shrink(αK₂v + (1−α)z₁ + u₁, 1/ρ₁) (the prox of the one V,2 norm: scale the
//!    whole vector towards 0 by 1/ρ₁; with the sum of lengths, each segment on its own),
//!    u₁ ← the remainder,
//! 3. z₂ ← Π_C(αv + (1−α)z₂ + u₂) (projection onto each disk), u₂ ← the remainder,
//!
//! with over-relaxation α (§3.4.3). The matrix is symmetric positive definite and
//! pentadiagonal (δˢ couples neighbours, its square neighbours of neighbours), the same for
//! x and y, and fixed during a solve: its LDLᵀ factors cost O(n) once, each solve O(n). z₂
//! is always in the disks, so it is the returned path, valid whenever the corridor is.
//!
//! # Why
//!
//! Chambolle–Pock takes steps bounded by K's norm, and the second differences of δˢ make
//! the problem as ill-conditioned as a chain of n springs: on the Moving AI corridors
//! (100–5,600 disks) it needs 150–300 iterations to a 10⁻² certified gap. Here the only
//! splitting is of the constraint and the length term; on the same corridors ADMM reaches
//! the same certified gap in 50–130 iterations on average, each about 1.4× as costly. Not
//! everywhere: on the maze's longest chains (over 5,000 disks) it needs 200 against
//! Chambolle–Pock's 70–80 at that gap (`docs/corridor.md`).
//!
//! # Penalties
//!
//! ρ₂ = `penalty`/h² (so the iteration does not depend on the map's units, as with the
//! Chambolle–Pock step sizes scaled by h^α) and ρ₁ = 1 (K₂v is already in units of h).
//! Chosen by measurement on the Moving AI corridors: penalty 2, α = 1.8
//! ([`Method::ADMM`](super::optimize::Method::ADMM)); penalties 1 and 4 and α = 1.6 each
//! took more iterations on at least two maps, and ρ₁ changes the iteration count by less
//! than 3 % between 0.3 and 3.
//!
//! # Certificate
//!
//! After the linear solve, (K₁ᵀK₁)v + K₂ᵀq + λ = 0 holds exactly with
//! q = ρ₁(K₂v − z₁ + u₁) and λ = ρ₂(v − z₂ + u₂), the multipliers ADMM carries; (K₁v, q),
//! q scaled into the unit ball, is a dual point whose objective bounds min E from below, so
//! the stopping gap is certified as in the Chambolle–Pock solver (which also tries the dual
//! point of z₂ itself and keeps the better).
//!
//! # Sources
//!
//! - S. Boyd, N. Parikh, E. Chu, B. Peleato, J. Eckstein, "Distributed Optimization and
//!   Statistical Learning via the Alternating Direction Method of Multipliers",
//!   Foundations and Trends in Machine Learning 3(1), 2011.
//! - M. Langerak, "Optimization for Smooth Paths", Game AI Pro 3, ch. 20 (2017): the energy.

// Loops index several parallel arrays at once (v, z, u, c, r…), as the maths does.
#![allow(clippy::needless_range_loop)]

use glam::DVec2;

use super::operators::{apply_k, ds_row, project_to_disk, LengthNorm};
use super::problem::Problem;

/// ρ₁, the length term's penalty (K₂v is dimensionless).
const RHO_LENGTH: f64 = 1.0;

/// The LDLᵀ factors of a symmetric positive definite pentadiagonal matrix: unit lower
/// L with sub-diagonals `l1`, `l2`, and the diagonal `d` (kept as its reciprocals, so
/// the back substitution multiplies). Factor O(n), solve O(n).
#[derive(Debug, Default, Clone)]
struct Pentadiagonal {
    inv_d: Vec<f64>,
    l1: Vec<f64>,
    l2: Vec<f64>,
}

impl Pentadiagonal {
    /// Factors the matrix with diagonal `a0` and super-diagonals `a1` (i, i+1) and `a2`
    /// (i, i+2), in place of the previous factors (no allocation once grown).
    fn factor(&mut self, a0: &[f64], a1: &[f64], a2: &[f64]) {
        let n = a0.len();
        for buf in [&mut self.inv_d, &mut self.l1, &mut self.l2] {
            buf.clear();
            buf.resize(n, 0.0);
        }
        let (inv_d, l1, l2) = (&mut self.inv_d, &mut self.l1, &mut self.l2);
        // The last two pivots, d[i − 1] and d[i − 2].
        let (mut d1, mut d2) = (0.0, 0.0);
        for i in 0..n {
            let mut di = a0[i];
            if i >= 1 {
                di -= l1[i - 1] * l1[i - 1] * d1;
            }
            if i >= 2 {
                di -= l2[i - 2] * l2[i - 2] * d2;
            }
            inv_d[i] = 1.0 / di;
            if i + 1 < n {
                let coupled = if i >= 1 {
                    l2[i - 1] * l1[i - 1] * d1
                } else {
                    0.0
                };
                l1[i] = (a1[i] - coupled) / di;
            }
            if i + 2 < n {
                l2[i] = a2[i] / di;
            }
            (d2, d1) = (d1, di);
        }
    }

    /// Forward substitution at row `i` (rows before it done): x[i] ← (L⁻¹b)[i] for
    /// b[i] = `b`.
    ///
    /// The row before last is subtracted first: the last row's result has just been
    /// written, and taking it last keeps one multiply-subtract on the chain from row to
    /// row (the loop is latency bound).
    #[inline]
    fn forward_at(&self, x: &mut [DVec2], i: usize, b: DVec2) {
        let mut y = b;
        if i >= 2 {
            y -= x[i - 2] * self.l2[i - 2];
        }
        if i >= 1 {
            y -= x[i - 1] * self.l1[i - 1];
        }
        x[i] = y;
    }

    /// Back substitution at row `i` (rows after it done): x[i] ← the solution's entry,
    /// which it returns.
    ///
    /// As in [`Self::forward_at`], the row just solved is subtracted last.
    #[inline]
    fn backward_at(&self, x: &mut [DVec2], i: usize) -> DVec2 {
        let n = x.len();
        let mut v = x[i] * self.inv_d[i];
        if i + 2 < n {
            v -= x[i + 2] * self.l2[i];
        }
        if i + 1 < n {
            v -= x[i + 1] * self.l1[i];
        }
        x[i] = v;
        v
    }
}

/// The iterates and factors of an ADMM solve, kept between solves (no allocation once
/// grown). The feasible iterate z₂ is the solver's path buffer, passed in.
#[derive(Debug, Default, Clone)]
pub(crate) struct Admm {
    /// The linear solve's result v (forward substitution first writes L⁻¹b here).
    x: Vec<DVec2>,
    z1: Vec<DVec2>,
    u1: Vec<DVec2>,
    u2: Vec<DVec2>,
    /// The matrix's three bands (diagonal, first and second super-diagonal), kept so that
    /// assembling allocates nothing.
    a: [Vec<f64>; 3],
    factors: Pentadiagonal,
    rho_disk: f64,
    /// Whether z₁, u₁, u₂ continue the path buffer's iterate (the last solve was ADMM on
    /// a problem of this size), so a warm start can keep them.
    live: bool,
}

impl Admm {
    /// Assembles and factors the matrix of `problem` for the penalty, and sets z₁, u₁, u₂:
    /// kept from the last solve when `warm` and they belong to a problem of this size,
    /// else z₁ = K₂z₂, u = 0 (z₂ = `path`, already in the disks).
    pub(crate) fn prepare(&mut self, problem: &Problem, penalty: f64, path: &[DVec2], warm: bool) {
        let n = problem.len();
        let inv_h = 1.0 / problem.h;
        self.rho_disk = penalty * inv_h * inv_h;
        for band in &mut self.a {
            band.clear();
            band.resize(n, 0.0);
        }
        let [a0, a1, a2] = &mut self.a;
        let length = RHO_LENGTH * inv_h * inv_h;
        for i in 0..n {
            let s = problem.weights[i] * inv_h;
            let row = ds_row(i, n);
            for &(j, cj) in &row {
                for &(k, ck) in &row {
                    if cj == 0.0 || ck == 0.0 || k < j {
                        continue;
                    }
                    let band = match k - j {
                        0 => &mut *a0,
                        1 => &mut *a1,
                        _ => &mut *a2,
                    };
                    band[j] += cj * ck * s * s;
                }
            }
            if i + 1 < n {
                a0[i] += length;
                a0[i + 1] += length;
                a1[i] -= length;
            }
            a0[i] += self.rho_disk;
        }
        self.factors.factor(a0, a1, a2);
        let keep = warm && self.live && self.z1.len() == n;
        for buf in [&mut self.x, &mut self.z1, &mut self.u1, &mut self.u2] {
            buf.resize(n, DVec2::ZERO);
        }
        if !keep {
            for i in 0..n {
                self.z1[i] = if i + 1 < n {
                    (path[i + 1] - path[i]) * inv_h
                } else {
                    DVec2::ZERO
                };
            }
            self.u1.fill(DVec2::ZERO);
            self.u2.fill(DVec2::ZERO);
        }
        self.live = true;
    }

    /// Marks the state as not continuing the path buffer (another method solved).
    pub(crate) fn forget(&mut self) {
        self.live = false;
    }

    /// One ADMM iteration with over-relaxation `alpha`; `z2` (the path) in and out. When
    /// `dual` is given, it receives the dual point (p, q) = (K₁v, ρ₁(K₂v − z₁ + u₁)) of
    /// this iteration's v (q not yet scaled into the unit ball).
    pub(crate) fn step(
        &mut self,
        problem: &Problem,
        alpha: f64,
        norm: LengthNorm,
        z2: &mut [DVec2],
        dual: Option<(&mut [DVec2], &mut [DVec2])>,
    ) {
        let n = problem.len();
        let inv_h = 1.0 / problem.h;
        let (rho1, rho2) = (RHO_LENGTH, self.rho_disk);
        let (c, r) = (&problem.centers[..n], &problem.radii[..n]);
        let (x, z1, u1, u2) = (
            &mut self.x[..n],
            &mut self.z1[..n],
            &mut self.u1[..n],
            &mut self.u2[..n],
        );
        let factors = &self.factors;
        // Right-hand side ρ₁K₂ᵀ(z₁ − u₁) + ρ₂(z₂ − u₂) and forward substitution (L y = b).
        // Row i of K₂ᵀw (w = z₁ − u₁, one per segment) is w[i−1] − w[i], with no segment
        // before the first waypoint or after the last: each w is formed once, carried on.
        let mut before = DVec2::ZERO;
        for i in 0..n {
            let here = if i + 1 < n {
                z1[i] - u1[i]
            } else {
                DVec2::ZERO
            };
            let kt = before - here;
            factors.forward_at(x, i, kt * (rho1 * inv_h) + (z2[i] - u2[i]) * rho2);
            before = here;
        }
        // Back substitution (D Lᵀ v = y), and with each v the disk update, which needs v
        // there only.
        for i in (0..n).rev() {
            let v = factors.backward_at(x, i);
            let t = v * alpha + z2[i] * (1.0 - alpha) + u2[i];
            z2[i] = project_to_disk(t, c[i], r[i]);
            u2[i] = t - z2[i];
        }
        if let Some((p, q)) = dual {
            apply_k(problem, x, p, q);
            for i in 0..n {
                q[i] = (q[i] - z1[i] + u1[i]) * rho1;
            }
            q[n - 1] = DVec2::ZERO;
        }
        // The length term's prox: the chapter's one V,2 norm shrinks the whole vector
        // (its norm first), the sum of lengths each segment on its own.
        let mut norm2 = 0.0;
        for i in 0..n - 1 {
            let t = (x[i + 1] - x[i]) * (inv_h * alpha) + z1[i] * (1.0 - alpha) + u1[i];
            u1[i] = t;
            norm2 += t.length_squared();
        }
        let shrink = |l: f64| {
            if l > 0.0 {
                (1.0 - 1.0 / (rho1 * l)).max(0.0)
            } else {
                0.0
            }
        };
        let whole = shrink(norm2.sqrt());
        for i in 0..n - 1 {
            let keep = match norm {
                LengthNorm::Chapter => whole,
                LengthNorm::SumOfLengths => shrink(u1[i].length()),
            };
            z1[i] = u1[i] * keep;
            u1[i] -= z1[i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dense reference: the pentadiagonal matrix times x.
    fn times(a: &[Vec<f64>; 3], x: &[f64]) -> Vec<f64> {
        let n = x.len();
        (0..n)
            .map(|i| {
                let mut s = a[0][i] * x[i];
                for (k, band) in a.iter().enumerate().skip(1) {
                    if i + k < n {
                        s += band[i] * x[i + k];
                    }
                    if i >= k {
                        s += band[i - k] * x[i - k];
                    }
                }
                s
            })
            .collect()
    }

    #[test]
    fn the_factors_solve_the_pentadiagonal_system() {
        // A diagonally dominant band with irregular entries; solve A x = A x₀ back to x₀.
        let n = 9;
        let a = [
            (0..n).map(|i| 10.0 + i as f64).collect::<Vec<_>>(),
            (0..n).map(|i| -1.0 - 0.3 * i as f64).collect(),
            (0..n).map(|i| 0.5 + 0.1 * (i % 3) as f64).collect(),
        ];
        let mut f = Pentadiagonal::default();
        f.factor(&a[0], &a[1], &a[2]);
        let x0: Vec<f64> = (0..n).map(|i| (i as f64 * 1.7).sin()).collect();
        let b = times(&a, &x0);
        // The substitutions `Admm::step` uses, on (b, −b) as DVec2s.
        let mut x = vec![DVec2::ZERO; n];
        for i in 0..n {
            f.forward_at(&mut x, i, DVec2::new(b[i], -b[i]));
        }
        for i in (0..n).rev() {
            f.backward_at(&mut x, i);
        }
        for i in 0..n {
            assert!((x[i].x - x0[i]).abs() < 1e-12 && (x[i].y + x0[i]).abs() < 1e-12);
        }
    }
}
