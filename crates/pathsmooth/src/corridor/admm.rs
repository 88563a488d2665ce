//! ADMM (the alternating direction method of multipliers) for Langerak's path energy:
//! the same problem as the Chambolle–Pock iteration of the solver, solved with the
//! smoothness term's ill-conditioned matrix inverted exactly instead of stepped through.
//!
//! # The splitting
//!
//! E(v) = ½‖K₁v‖² + ‖K₂v‖_{V,2} + I_C(v) (K₁ = W δˢ/h, K₂ = δ⁺/h; the operators module).
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
//! the problem as ill-conditioned as a chain of n springs, so long corridors take many
//! iterations. Here the only splitting is of the constraint and the length term; the
//! ill-conditioned part is solved exactly.
//!
//! # Penalties
//!
//! ρ₂ = `penalty`/h² (so the iteration does not depend on the map's units, as with the
//! Chambolle–Pock step sizes scaled by h^α) and ρ₁ = 1 (K₂v is already in units of h).
//! The defaults (the solver's `Method::ADMM`) are penalty 2, α = 1.8.
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

/// The length prox's factor for a segment argument of norm `l`: shrinking by 1/ρ₁.
fn shrink(l: f64) -> f64 {
    if l > 0.0 {
        (1.0 - 1.0 / (RHO_LENGTH * l)).max(0.0)
    } else {
        0.0
    }
}

/// The second half of the length prox (z₁ = t·keep, u₁ = t − z₁, with t its argument),
/// when a step leaves it to the next pass over the segments: u₁ then holds t.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
enum Pending {
    /// z₁ and u₁ are final.
    #[default]
    Nothing,
    /// The chapter's norm: every segment shrinks by the same factor.
    Whole(f64),
    /// The sum of lengths: each segment by its own, `shrink(|t|)`.
    Each,
}

impl Pending {
    /// Finishes one segment's prox, if it is pending.
    #[inline]
    fn settle(self, z1: &mut DVec2, u1: &mut DVec2) {
        let keep = match self {
            Pending::Nothing => return,
            Pending::Whole(keep) => keep,
            Pending::Each => shrink(u1.length()),
        };
        *z1 = *u1 * keep;
        *u1 -= *z1;
    }
}

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

    /// Forward substitution at row `i` (rows 0..i done, the last two in `carry`): returns
    /// (L⁻¹b)[i] for b[i] = `b`.
    ///
    /// The row before last is subtracted first: the last row's result has just been
    /// found, and taking it last keeps one multiply-subtract on the chain from row to
    /// row (the loop is latency bound).
    #[inline]
    fn forward_at(&self, carry: &mut Carry, i: usize, b: DVec2) -> DVec2 {
        let mut y = b;
        if i >= 2 {
            y -= carry.before_last * self.l2[i - 2];
        }
        if i >= 1 {
            y -= carry.last * self.l1[i - 1];
        }
        carry.push(y)
    }

    /// Back substitution at row `i` (rows after it done, the last two in `carry`), with
    /// `y` = (L⁻¹b)[i]: returns the solution's entry.
    ///
    /// As in [`Self::forward_at`], the row just solved is subtracted last.
    #[inline]
    fn backward_at(&self, carry: &mut Carry, i: usize, y: DVec2) -> DVec2 {
        let n = self.inv_d.len();
        let mut v = y * self.inv_d[i];
        if i + 2 < n {
            v -= carry.before_last * self.l2[i];
        }
        if i + 1 < n {
            v -= carry.last * self.l1[i];
        }
        carry.push(v)
    }
}

/// The last two rows a substitution solved, carried from row to row in registers: read
/// back from the array just written, each row would wait for its store to reach the
/// load.
#[derive(Debug, Default, Clone, Copy)]
struct Carry {
    last: DVec2,
    before_last: DVec2,
}

impl Carry {
    /// Makes `row` the last row solved; returns it.
    #[inline]
    fn push(&mut self, row: DVec2) -> DVec2 {
        (self.before_last, self.last) = (self.last, row);
        row
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
    /// What of the last step's length prox the next pass finishes.
    pending: Pending,
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
        let pending = std::mem::take(&mut self.pending);
        if keep {
            for (z1, u1) in self
                .z1
                .iter_mut()
                .zip(&mut self.u1)
                .take(n.saturating_sub(1))
            {
                pending.settle(z1, u1);
            }
        } else {
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
    ///
    /// Two passes over the waypoints instead of the four the steps above read as: the
    /// length prox's argument t = αK₂v + (1−α)z₁ + u₁ is formed in the back substitution,
    /// as soon as v at both ends of a segment is known, and its shrink (which for the
    /// chapter's norm needs ‖t‖ over all segments first) is finished by the next step's
    /// forward pass ([`Pending`]), or by [`Self::prepare`] for a warm start. Both passes
    /// are bound by the substitutions' chain from row to row, so the prox's arithmetic
    /// fills their idle time.
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
        let pending = std::mem::take(&mut self.pending);
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
        let mut carry = Carry::default();
        for i in 0..n {
            let here = if i + 1 < n {
                pending.settle(&mut z1[i], &mut u1[i]);
                z1[i] - u1[i]
            } else {
                DVec2::ZERO
            };
            let kt = before - here;
            x[i] = factors.forward_at(&mut carry, i, kt * (rho1 * inv_h) + (z2[i] - u2[i]) * rho2);
            before = here;
        }
        // The length prox's argument of segment i, with t in u₁ (its old value read last).
        let scale = inv_h * alpha;
        let argument = |v: DVec2, next: DVec2, z1: DVec2, u1: &mut DVec2| {
            *u1 = (next - v) * scale + z1 * (1.0 - alpha) + *u1;
            u1.length_squared()
        };
        // Back substitution (D Lᵀ v = y), and with each v the disk update, which needs v
        // there only, and the length prox's argument of the segment after it. The dual
        // point reads this iteration's z₁ and u₁, so when it is asked for the arguments
        // wait for it.
        let fused = dual.is_none();
        let mut norm2 = 0.0;
        let mut carry = Carry::default();
        for i in (0..n).rev() {
            // v at the segment's far end, row i + 1 (0 past the last row, never read).
            let next = carry.last;
            let v = factors.backward_at(&mut carry, i, x[i]);
            x[i] = v;
            let t = v * alpha + z2[i] * (1.0 - alpha) + u2[i];
            z2[i] = project_to_disk(t, c[i], r[i]);
            u2[i] = t - z2[i];
            if fused && i + 1 < n {
                norm2 += argument(v, next, z1[i], &mut u1[i]);
            }
        }
        if let Some((p, q)) = dual {
            apply_k(problem, x, p, q);
            for i in 0..n {
                q[i] = (q[i] - z1[i] + u1[i]) * rho1;
            }
            q[n - 1] = DVec2::ZERO;
            for i in 0..n - 1 {
                norm2 += argument(x[i], x[i + 1], z1[i], &mut u1[i]);
            }
        }
        // The chapter's one V,2 norm shrinks the whole vector (its norm is known now),
        // the sum of lengths each segment on its own.
        self.pending = match norm {
            LengthNorm::Chapter => Pending::Whole(shrink(norm2.sqrt())),
            LengthNorm::SumOfLengths => Pending::Each,
        };
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
        let mut carry = Carry::default();
        for i in 0..n {
            x[i] = f.forward_at(&mut carry, i, DVec2::new(b[i], -b[i]));
        }
        let mut carry = Carry::default();
        for i in (0..n).rev() {
            x[i] = f.backward_at(&mut carry, i, x[i]);
        }
        for i in 0..n {
            assert!((x[i].x - x0[i]).abs() < 1e-12 && (x[i].y + x0[i]).abs() < 1e-12);
        }
    }

    /// The step as the module doc writes it, in four passes (the form the fused
    /// [`Admm::step`] replaced): v, the disk update, the length prox's argument, its
    /// shrink. Works on its own copies of z₁, u₁, u₂ and returns the dual point's q.
    fn literal_step(
        admm: &Admm,
        problem: &Problem,
        alpha: f64,
        norm: LengthNorm,
        state: &mut [Vec<DVec2>; 4],
    ) -> Vec<DVec2> {
        let n = problem.len();
        let inv_h = 1.0 / problem.h;
        let [z1, u1, u2, z2] = state;
        let mut x = vec![DVec2::ZERO; n];
        for i in 0..n {
            let w = |k: usize| {
                if k + 1 < n {
                    z1[k] - u1[k]
                } else {
                    DVec2::ZERO
                }
            };
            let before = if i > 0 { w(i - 1) } else { DVec2::ZERO };
            let b = (before - w(i)) * (RHO_LENGTH * inv_h) + (z2[i] - u2[i]) * admm.rho_disk;
            let f = &admm.factors;
            x[i] =
                b - if i >= 1 {
                    x[i - 1] * f.l1[i - 1]
                } else {
                    DVec2::ZERO
                } - if i >= 2 {
                    x[i - 2] * f.l2[i - 2]
                } else {
                    DVec2::ZERO
                };
        }
        for i in (0..n).rev() {
            let f = &admm.factors;
            x[i] = x[i] * f.inv_d[i]
                - if i + 1 < n {
                    x[i + 1] * f.l1[i]
                } else {
                    DVec2::ZERO
                }
                - if i + 2 < n {
                    x[i + 2] * f.l2[i]
                } else {
                    DVec2::ZERO
                };
        }
        for i in 0..n {
            let t = x[i] * alpha + z2[i] * (1.0 - alpha) + u2[i];
            z2[i] = project_to_disk(t, problem.centers[i], problem.radii[i]);
            u2[i] = t - z2[i];
        }
        let (mut p, mut q) = (vec![DVec2::ZERO; n], vec![DVec2::ZERO; n]);
        apply_k(problem, &x, &mut p, &mut q);
        for i in 0..n {
            q[i] = (q[i] - z1[i] + u1[i]) * RHO_LENGTH;
        }
        q[n - 1] = DVec2::ZERO;
        let t: Vec<DVec2> = (0..n - 1)
            .map(|i| (x[i + 1] - x[i]) * (inv_h * alpha) + z1[i] * (1.0 - alpha) + u1[i])
            .collect();
        let whole = shrink(t.iter().map(|t| t.length_squared()).sum::<f64>().sqrt());
        for i in 0..n - 1 {
            let keep = match norm {
                LengthNorm::Chapter => whole,
                LengthNorm::SumOfLengths => shrink(t[i].length()),
            };
            z1[i] = t[i] * keep;
            u1[i] = t[i] - z1[i];
        }
        q
    }

    /// The fused step (the prox's shrink left to the next pass, the dual asked for now
    /// and then) walks the same iterates as the literal one, to rounding: a zigzag of
    /// disks, both length norms, a warm restart in the middle.
    #[test]
    fn the_fused_step_follows_the_literal_iteration() {
        let n = 40;
        let centers: Vec<DVec2> = (0..n)
            .map(|i| DVec2::new(i as f64, if i % 2 == 0 { 0.0 } else { 1.5 }))
            .collect();
        let mut radii: Vec<f64> = (0..n).map(|i| 0.4 + 0.3 * ((i * 7) % 5) as f64).collect();
        (radii[0], radii[n - 1]) = (0.0, 0.0);
        let weights = (0..n).map(|i| 0.5 + 0.1 * (i % 3) as f64).collect();
        let problem = Problem::new(centers.clone(), radii, weights, 1.0).unwrap();
        for norm in [LengthNorm::Chapter, LengthNorm::SumOfLengths] {
            let mut admm = Admm::default();
            let mut path = centers.clone();
            admm.prepare(&problem, 2.0, &path, false);
            let mut state = [
                admm.z1.clone(),
                admm.u1.clone(),
                admm.u2.clone(),
                path.clone(),
            ];
            let (mut p, mut q) = (vec![DVec2::ZERO; n], vec![DVec2::ZERO; n]);
            for k in 0..30 {
                if k == 15 {
                    // A warm start finishes the pending shrink.
                    admm.prepare(&problem, 2.0, &path, true);
                    assert_eq!(admm.pending, Pending::Nothing);
                    assert!(admm
                        .z1
                        .iter()
                        .zip(&state[0])
                        .all(|(a, b)| a.distance(*b) < 1e-12));
                }
                let dual = (k % 4 == 3).then_some((&mut p[..], &mut q[..]));
                let asked = dual.is_some();
                admm.step(&problem, 1.8, norm, &mut path, dual);
                let literal_q = literal_step(&admm, &problem, 1.8, norm, &mut state);
                let off = path.iter().zip(&state[3]).map(|(a, b)| a.distance(*b));
                assert!(off.fold(0.0, f64::max) < 1e-12, "{norm:?} step {k}");
                if asked {
                    assert!(q
                        .iter()
                        .zip(&literal_q)
                        .all(|(a, b)| a.distance(*b) < 1e-12));
                }
            }
        }
    }
}
