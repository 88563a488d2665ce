//! Benchmarks of the corridor optimiser (Langerak, Game AI Pro 3, ch. 20).
//!
//! `cargo bench -p pathsmooth --bench corridor` runs the criterion groups:
//! - `corridor_n{20,100,1000}`: time for Chambolle–Pock and for ADMM to reach a relative
//!   energy gap of 1e-2, 1e-3, 1e-4 to the exact optimum (computed once by clarabel in
//!   setup; the iteration count needed is found in setup and the solve is timed with that
//!   fixed count), the certified stopping rule at 1e-3, and clarabel's full solve of the
//!   same problem in the same group.
//! - `batch_10000`: 10,000 corridors with rayon (`solve_batch_into`) and sequentially.
//!
//! `cargo bench -p pathsmooth --bench corridor -- --sweep` instead prints the iteration
//! counts behind the default α, β and the variants (relaxation, acceleration).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion};
use pathsmooth::corridor::{
    solve_batch_into, Init, LengthNorm, Method, Problem, Solver, SolverParams, Stop,
};

mod support;
use support::corridor_ref::{random_problem, reference, Conic};

/// First iteration from which (E_k − E*)/E* stays ≤ eps for the rest of the recorded run.
fn iterations_to(energies: &[f64], e_star: f64, eps: f64) -> Option<usize> {
    let last_bad = energies.iter().rposition(|&e| (e - e_star) / e_star > eps);
    match last_bad {
        None => Some(0),
        Some(k) if k + 1 < energies.len() => Some(k + 1),
        _ => None,
    }
}

fn record(pr: &Problem, opts: &SolverParams, max: usize) -> Vec<f64> {
    let mut s = Solver::new();
    let o = SolverParams {
        stop: Stop::Iterations(max),
        record_energy: true,
        ..*opts
    };
    s.solve(pr, &o).unwrap();
    s.energies().to_vec()
}

fn median(mut xs: Vec<usize>) -> usize {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

fn with_optimum(n: usize, count: u64) -> Vec<(Problem, f64)> {
    (0..count)
        .map(|s| {
            let pr = random_problem(1000 + s, n);
            let (e, _) = reference(&pr, LengthNorm::Chapter);
            (pr, e)
        })
        .collect()
}

/// (median, worst) iterations until the relative gap to the optimum stays ≤ eps.
fn measure(
    problems: &[(Problem, f64)],
    opts: &SolverParams,
    eps: f64,
    max: usize,
) -> (usize, usize) {
    let its: Vec<usize> = problems
        .iter()
        .map(|(pr, e)| iterations_to(&record(pr, opts, max), *e, eps).unwrap_or(max))
        .collect();
    let worst = *its.iter().max().unwrap();
    (median(its), worst)
}

/// Prints one line of the sweep: `label`, then the (median / worst) iterations to
/// eps = 1e-3 and to eps = 1e-4. Returns the sum of the two medians (the sweep's score).
fn report(problems: &[(Problem, f64)], opts: &SolverParams, max: usize, label: &str) -> usize {
    let (a, b) = (
        measure(problems, opts, 1e-3, max),
        measure(problems, opts, 1e-4, max),
    );
    println!("{label} {:>6} / {:<6}  {:>6} / {:<6}", a.0, a.1, b.0, b.1);
    a.0 + b.0
}

fn sweep() {
    let n = 100;
    let max = 20_000;
    let problems = with_optimum(n, 8);
    let at100 = |opts: &SolverParams, label: &str| report(&problems, opts, max, label);
    println!(
        "n = {n} waypoints, 8 random corridors: iterations until the relative energy gap to \
         clarabel's optimum stays below eps (median / worst; cap {max})"
    );
    println!("the chapter's iteration (relaxation 1)");
    println!("alpha  beta     eps=1e-3         eps=1e-4");
    let alphas = [0.25, 0.5, 0.75, 1.0, 1.5];
    let betas = [0.25, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0];
    let mut best = (usize::MAX, SolverParams::default());
    for alpha in alphas {
        for beta in betas {
            let o = SolverParams {
                alpha,
                beta,
                relaxation: 1.0,
                ..Default::default()
            };
            let score = at100(&o, &format!("{alpha:<6} {beta:<6}"));
            if score < best.0 {
                best = (score, o);
            }
        }
    }
    let base = SolverParams::default();
    let top = best.1;
    for (name, o) in [("the default", base), ("the sweep's best", top)] {
        println!("variants at {name} alpha = {}, beta = {}", o.alpha, o.beta);
        for rho in [1.0, 1.5, 1.8, 1.9] {
            let o = SolverParams {
                relaxation: rho,
                ..o
            };
            at100(&o, &format!("relaxation {rho:<5}"));
        }
        for gamma in [0.003, 0.01, 0.03, 0.1, 0.3] {
            let o = SolverParams {
                acceleration: gamma,
                relaxation: 1.0,
                ..o
            };
            at100(&o, &format!("acceleration {gamma:<5}"));
        }
    }
    // Acceleration with a poorly chosen β.
    for gamma in [0.0, 0.1] {
        let o = SolverParams {
            alpha: 1.0,
            beta: 0.25,
            relaxation: 1.0,
            acceleration: gamma,
            ..base
        };
        at100(&o, &format!("alpha 1 beta 0.25 acceleration {gamma:<4}"));
    }
    // Do the choices hold at other sizes?
    for n in [20, 1000] {
        let problems = with_optimum(n, if n > 100 { 4 } else { 8 });
        println!("n = {n}");
        for (alpha, beta, rho) in [
            (0.25, 8.0, 1.0),
            (0.5, 4.0, 1.0),
            (0.5, 4.0, 1.8),
            (1.0, 2.0, 1.0),
            (0.5, 2.0, 1.8),
            (0.5, 8.0, 1.8),
        ] {
            let o = SolverParams {
                alpha,
                beta,
                relaxation: rho,
                ..base
            };
            let label = format!("alpha {alpha:<5} beta {beta:<4} relaxation {rho:<4}");
            report(&problems, &o, max, &label);
        }
    }
    // The certified stopping rule: iterations until the duality gap says 1e-3 / 1e-4.
    for tol in [1e-3, 1e-4] {
        let o = SolverParams {
            stop: Stop::Tolerance {
                gap: tol,
                max_iterations: max,
            },
            ..base
        };
        let its: Vec<usize> = problems
            .iter()
            .map(|(pr, _)| Solver::new().solve(pr, &o).unwrap().iterations)
            .collect();
        let worst = *its.iter().max().unwrap();
        println!("certified gap {tol}: median {} worst {worst}", median(its));
    }
    // Warm start: solve, nudge every free centre by 0.05, re-solve from the last answer.
    let o = SolverParams {
        stop: Stop::Tolerance {
            gap: 1e-3,
            max_iterations: max,
        },
        ..base
    };
    let (mut cold, mut warm) = (vec![], vec![]);
    for (pr, _) in &problems {
        let mut s = Solver::new();
        s.solve(pr, &o).unwrap();
        let mut moved = pr.clone();
        for (i, c) in moved.centers.iter_mut().enumerate() {
            if moved.radii[i] > 0.0 {
                *c += glam::DVec2::new((i as f64).sin(), (i as f64).cos()) * 0.05;
            }
        }
        warm.push(s.solve_from(&moved, &o, Init::Previous).unwrap().iterations);
        cold.push(Solver::new().solve(&moved, &o).unwrap().iterations);
    }
    println!(
        "re-plan after a 0.05 nudge, certified 1e-3: cold median {} / warm median {}",
        median(cold),
        median(warm)
    );
}

fn corridor_groups(c: &mut Criterion) {
    let methods = [
        ("chambolle_pock", Method::ChambollePock),
        ("admm", Method::ADMM),
    ];
    for n in [20, 100, 1000] {
        let pr = random_problem(7 + n as u64, n);
        let conic = Conic::new(&pr, LengthNorm::Chapter);
        let (e_star, _) = reference(&pr, LengthNorm::Chapter);
        let mut group = c.benchmark_group(format!("corridor_n{n}"));
        group.sample_size(10);
        for (name, method) in methods {
            let base = SolverParams {
                method,
                ..Default::default()
            };
            let energies = record(&pr, &base, 200_000);
            for eps in [1e-2, 1e-3, 1e-4] {
                match iterations_to(&energies, e_star, eps) {
                    Some(k) => {
                        eprintln!("n={n}, {name}: gap {eps:e} after {k} iterations");
                        let o = SolverParams {
                            stop: Stop::Iterations(k.max(1)),
                            ..base
                        };
                        let mut s = Solver::new();
                        let id = BenchmarkId::new(format!("{name}_gap"), eps);
                        group.bench_function(id, |b| {
                            b.iter(|| s.solve(black_box(&pr), &o).unwrap())
                        });
                    }
                    None => {
                        eprintln!("n={n}, {name}: gap {eps:e} not reached in 200000 iterations")
                    }
                }
            }
            let o = SolverParams {
                stop: Stop::Tolerance {
                    gap: 1e-3,
                    max_iterations: 200_000,
                },
                ..base
            };
            let mut s = Solver::new();
            let its = s.solve(&pr, &o).unwrap().iterations;
            eprintln!("n={n}, {name}: certified 1e-3 after {its} iterations");
            group.bench_function(format!("{name}_certified_1e-3"), |b| {
                b.iter(|| s.solve(black_box(&pr), &o).unwrap())
            });
        }
        group.bench_function("clarabel", |b| b.iter(|| black_box(&conic).solve()));
        group.finish();
    }
}

fn batch_group(c: &mut Criterion) {
    let problems: Vec<Problem> = (0..10_000).map(|s| random_problem(s, 20)).collect();
    let o = SolverParams {
        stop: Stop::Tolerance {
            gap: 1e-3,
            max_iterations: 20_000,
        },
        ..Default::default()
    };
    let mut group = c.benchmark_group("batch_10000");
    group.sample_size(10);
    let mut out = Vec::new();
    group.bench_function("rayon", |b| {
        b.iter(|| solve_batch_into(black_box(&problems), &o, &mut out))
    });
    let mut s = Solver::new();
    group.bench_function("sequential", |b| {
        b.iter(|| {
            for p in &problems {
                black_box(s.solve(p, &o).unwrap());
            }
        })
    });
    group.finish();
}

fn main() {
    if std::env::args().any(|a| a == "--sweep") {
        sweep();
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    corridor_groups(&mut c);
    batch_group(&mut c);
    c.final_summary();
}
