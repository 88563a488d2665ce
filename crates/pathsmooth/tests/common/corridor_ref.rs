//! Random corridors (drawn from [`super::rng`]) and the exact optimum of a corridor problem
//! from the clarabel interior-point solver, for the corridor tests and `benches/corridor.rs`.
#![allow(clippy::needless_range_loop)]

use clarabel::algebra::CscMatrix;
use clarabel::solver::{DefaultSettings, DefaultSolver, IPSolver, SolverStatus, SupportedConeT};
use glam::DVec2;
use pathsmooth::corridor::{energy, DiskCorridor, LengthNorm, Problem, ProblemParams};

use super::rng::Rng;

/// A random wiggly corridor of `n` disks: a random walk with steps of 0.6–1.4 units,
/// radii 0.5–2 (every pair overlaps), random facing directions at both ends.
pub fn random_corridor(rng: &mut Rng, n: usize) -> DiskCorridor {
    let mut centers = vec![DVec2::ZERO];
    let mut radii = vec![rng.range(0.5, 2.0)];
    let mut heading = rng.range(0.0, std::f64::consts::TAU);
    for _ in 1..n {
        heading += rng.range(-1.2, 1.2);
        let r = rng.range(0.5, 2.0);
        let prev_r = radii[radii.len() - 1];
        let step = rng.range(0.6, 1.4).min(0.99 * (prev_r + r));
        let c = centers[centers.len() - 1] + DVec2::from_angle(heading) * step;
        centers.push(c);
        radii.push(r);
    }
    let dir = |rng: &mut Rng| DVec2::from_angle(rng.range(0.0, std::f64::consts::TAU));
    let (s, g) = (dir(rng), dir(rng));
    DiskCorridor::new(centers, radii, Some(s), Some(g)).expect("a valid random corridor")
}

/// The discretised problem of a random corridor (default bathtub weights).
pub fn random_problem(seed: u64, n: usize) -> Problem {
    let mut rng = Rng::new(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1);
    Problem::from_corridor(&random_corridor(&mut rng, n), &ProblemParams::default())
        .expect("a valid problem")
}

/// The same problem as a conic program for clarabel, x = (v₀ˣ, v₀ʸ, …, vₙ₋₁ʸ, t…):
///
/// minimise ½ vᵀ(K₁ᵀK₁)v + Σ t
/// s.t.  vᵢ = cᵢ (zero cone) where rᵢ = 0,
///       (rᵢ, vᵢ − cᵢ) ∈ SOC(3) elsewhere,
///       V,2: (t, δ⁺v/h) ∈ SOC(2(n−1)+1)  — one epigraph variable for the whole norm,
///       V,1: (tᵢ, (vᵢ₊₁ − vᵢ)/h) ∈ SOC(3) per segment.
pub struct Conic {
    p: CscMatrix<f64>,
    q: Vec<f64>,
    a: CscMatrix<f64>,
    b: Vec<f64>,
    cones: Vec<SupportedConeT<f64>>,
    n: usize,
}

impl Conic {
    pub fn new(pr: &Problem, norm: LengthNorm) -> Conic {
        let n = pr.len();
        let nt = match norm {
            LengthNorm::Chapter => 1,
            LengthNorm::SumOfLengths => n - 1,
        };
        let nx = 2 * n + nt;
        let (h, w) = (pr.h, &pr.weights);
        // P = K₁ᵀK₁ per coordinate, upper triangle; K₁ row i = wᵢ/h · δˢ row i.
        let (mut pi, mut pj, mut pv) = (vec![], vec![], vec![]);
        for i in 0..n {
            let row: Vec<(usize, f64)> = if i == 0 {
                vec![(0, 2.0), (1, -1.0)]
            } else if i + 1 < n {
                vec![(i - 1, -1.0), (i, 2.0), (i + 1, -1.0)]
            } else {
                vec![(i - 1, -1.0)]
            };
            let s = w[i] / h;
            if s == 0.0 {
                continue;
            }
            for &(j, a) in &row {
                for &(k, b) in &row {
                    if j <= k {
                        for d in 0..2 {
                            pi.push(2 * j + d);
                            pj.push(2 * k + d);
                            pv.push(a * b * s * s);
                        }
                    }
                }
            }
        }
        let p = CscMatrix::new_from_triplets(nx, nx, pi, pj, pv);
        let mut q = vec![0.0; nx];
        q[2 * n..].iter_mut().for_each(|x| *x = 1.0);
        // Constraints s = b − A x ∈ K.
        let (mut ai, mut aj, mut av, mut b, mut cones) = (vec![], vec![], vec![], vec![], vec![]);
        let mut row = 0;
        for i in 0..n {
            let c = pr.centers[i];
            if pr.radii[i] == 0.0 {
                for d in 0..2 {
                    ai.push(row + d);
                    aj.push(2 * i + d);
                    av.push(1.0);
                }
                b.extend([c.x, c.y]);
                cones.push(SupportedConeT::ZeroConeT(2));
                row += 2;
            } else {
                b.extend([pr.radii[i], -c.x, -c.y]);
                for d in 0..2 {
                    ai.push(row + 1 + d);
                    aj.push(2 * i + d);
                    av.push(-1.0);
                }
                cones.push(SupportedConeT::SecondOrderConeT(3));
                row += 3;
            }
        }
        let segment =
            |row: usize, i: usize, ai: &mut Vec<usize>, aj: &mut Vec<usize>, av: &mut Vec<f64>| {
                for d in 0..2 {
                    ai.extend([row + d, row + d]);
                    aj.extend([2 * i + d, 2 * (i + 1) + d]);
                    av.extend([1.0 / h, -1.0 / h]);
                }
            };
        match norm {
            LengthNorm::Chapter => {
                ai.push(row);
                aj.push(2 * n);
                av.push(-1.0);
                b.push(0.0);
                for i in 0..n - 1 {
                    segment(row + 1 + 2 * i, i, &mut ai, &mut aj, &mut av);
                    b.extend([0.0, 0.0]);
                }
                cones.push(SupportedConeT::SecondOrderConeT(2 * (n - 1) + 1));
                row += 2 * (n - 1) + 1;
            }
            LengthNorm::SumOfLengths => {
                for i in 0..n - 1 {
                    ai.push(row);
                    aj.push(2 * n + i);
                    av.push(-1.0);
                    b.extend([0.0, 0.0, 0.0]);
                    segment(row + 1, i, &mut ai, &mut aj, &mut av);
                    cones.push(SupportedConeT::SecondOrderConeT(3));
                    row += 3;
                }
            }
        }
        let a = CscMatrix::new_from_triplets(row, nx, ai, aj, av);
        Conic {
            p,
            q,
            a,
            b,
            cones,
            n,
        }
    }

    /// Solves to clarabel's default accuracy (1e-8); returns the path (projected onto
    /// the disks to remove the solver's feasibility slack) and clarabel's objective.
    pub fn solve(&self) -> (Vec<DVec2>, f64) {
        let settings = DefaultSettings {
            verbose: false,
            ..DefaultSettings::default()
        };
        let mut solver =
            DefaultSolver::new(&self.p, &self.q, &self.a, &self.b, &self.cones, settings)
                .expect("a well-formed conic program");
        solver.solve();
        assert!(
            matches!(
                solver.solution.status,
                SolverStatus::Solved | SolverStatus::AlmostSolved
            ),
            "clarabel: {:?}",
            solver.solution.status
        );
        let x = &solver.solution.x;
        let v = (0..self.n)
            .map(|i| DVec2::new(x[2 * i], x[2 * i + 1]))
            .collect();
        (v, solver.solution.obj_val)
    }
}

/// The optimal energy and path of `pr` according to clarabel: E of clarabel's path
/// projected onto the disks (a feasible point within ~1e-8 of the optimum).
pub fn reference(pr: &Problem, norm: LengthNorm) -> (f64, Vec<DVec2>) {
    let (v, _) = Conic::new(pr, norm).solve();
    // The nearest point of each disk (the solver's projection is internal to the crate).
    let v: Vec<DVec2> = (0..pr.len())
        .map(|i| {
            let (c, r) = (pr.centers[i], pr.radii[i]);
            if v[i].distance_squared(c) <= r * r {
                v[i]
            } else {
                c + (v[i] - c).clamp_length_max(r)
            }
        })
        .collect();
    (energy(pr, &v, norm), v)
}
