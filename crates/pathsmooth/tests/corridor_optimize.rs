//! The corridor optimiser against its definition (Langerak, Game AI Pro 3, ch. 20) and
//! against the exact optimum from clarabel.

#![allow(clippy::needless_range_loop)]

use crate::common;

use common::corridor_ref::{random_corridor, random_problem, reference};
use common::rng::Rng;
use glam::DVec2;
use pathsmooth::corridor::{
    bathtub, energy, optimize, solve_batch, solve_batch_into, CorridorParams, CorridorSmoother,
    DiskCorridor, Init, LengthNorm, Method, Problem, ProblemParams, Solver, SolverParams, Stop,
    Weights, MAX_ITERATIONS,
};
use pathsmooth::{metrics, Error, GridWorld, World};
use proptest::prelude::*;

fn tol(gap: f64) -> SolverParams {
    SolverParams {
        stop: Stop::Tolerance {
            gap,
            max_iterations: 200_000,
        },
        ..Default::default()
    }
}

/// Both iterations, to the same tolerance.
fn tol_each(gap: f64) -> [SolverParams; 2] {
    [Method::ChambollePock, Method::ADMM].map(|method| SolverParams { method, ..tol(gap) })
}

fn assert_inside(pr: &Problem, v: &[DVec2]) {
    assert_eq!(v.len(), pr.len());
    for i in 0..v.len() {
        assert!(v[i].is_finite(), "waypoint {i} is {:?}", v[i]);
        let out = v[i].distance(pr.centers[i]) - pr.radii[i];
        assert!(out <= 1e-9, "waypoint {i} is {out} outside its disk");
        if pr.radii[i] == 0.0 {
            assert_eq!(v[i], pr.centers[i], "pinned waypoint {i} moved");
        }
    }
}

#[test]
fn optimum_matches_clarabel_within_1e_4() {
    for (seed, n) in [
        (1, 2),
        (2, 3),
        (3, 5),
        (4, 8),
        (5, 15),
        (6, 30),
        (7, 60),
        (8, 60),
    ] {
        let pr = random_problem(seed, n);
        let (e_star, _) = reference(&pr, LengthNorm::Chapter);
        for o in tol_each(1e-5) {
            let s = optimize(&pr, &o).unwrap();
            let m = o.method;
            assert!(s.report.converged, "seed {seed} {m:?}: {:?}", s.report);
            assert_inside(&pr, &s.path);
            let e = energy(&pr, &s.path, LengthNorm::Chapter);
            let rel = (e - e_star) / e_star;
            assert!(
                rel <= 1e-4,
                "seed {seed}, n {n}, {m:?}: {e} vs clarabel {e_star} ({rel:e})"
            );
            assert!(
                rel >= -1e-7,
                "seed {seed} {m:?}: below the optimum? {e} vs {e_star}"
            );
        }
    }
}

/// How far above clarabel's optimum the step's own fixed-count solve may end on the
/// real-map corridors (relative; measured: see the test's output and `docs/corridor.md`).
const STEP_ENERGY: f64 = 0.25;

/// A loose certified gap g, at which a solve ends within g/(1 − g) of the optimum.
const LOOSE_GAP: f64 = 3e-2;

/// The reference check on corridors of real maps: the corridor step's problem (its
/// disks along a Moving AI route, safe radii, the default weights), solved by both
/// methods, reaches clarabel's optimum within 10⁻³ at a relative gap of 10⁻³, and within
/// g/(1 − g) at a gap g of [`LOOSE_GAP`] (E − E* ≤ g·E). The step itself runs its default
/// fixed count of ADMM iterations (`CorridorParams::default().solver.stop`), not to a gap: its energy is printed and held
/// under [`STEP_ENERGY`] above the optimum. Solved in windows (`CorridorParams::windows`),
/// the path is as short but the whole problem's energy is higher (the pinned cuts stop
/// the waypoints spreading evenly); printed, not bounded above.
#[test]
fn real_map_corridors_reach_clarabels_optimum() {
    let whole = CorridorParams {
        refine: None,
        ..Default::default()
    };
    let windows = CorridorParams {
        windows: true,
        ..whole.clone()
    };
    let Stop::Iterations(fixed) = whole.solver.stop else {
        panic!("the corridor step runs a fixed count by default");
    };
    let mut smoother = CorridorSmoother::new();
    let mut checked = 0;
    let names = ["dao/den312d", "bg512/AR0011SR", "rooms/8room_000"];
    for (name, map, scen) in common::real_maps(&names) {
        let world = GridWorld::new(map).unwrap();
        let queries = scen
            .iter()
            .filter(|s| (40.0..100.0).contains(&s.optimal_length))
            .step_by(7)
            .take(2);
        for s in queries {
            let route = world
                .find_path(s.start_point(), s.goal_point(), 0.0)
                .unwrap();
            let plan = smoother.smooth_along(&world, &route, 0.0, &whole).unwrap();
            let (c, n) = (&plan.corridor.centers, plan.corridor.len());
            let h = c.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>() / (n - 1) as f64;
            let pr = Problem::new(
                c.clone(),
                plan.safe_radii.clone(),
                bathtub(n, 10.0, 10.0, 2.0),
                h,
            )
            .unwrap();
            let (e_star, _) = reference(&pr, LengthNorm::Chapter);
            let rel = |e: f64| (e - e_star) / e_star;
            for (gap, limit) in [(1e-3, 1e-3), (LOOSE_GAP, LOOSE_GAP / (1.0 - LOOSE_GAP))] {
                for o in tol_each(gap) {
                    let got = optimize(&pr, &o).unwrap();
                    assert_inside(&pr, &got.path);
                    let r = rel(got.report.energy);
                    assert!(
                        (-1e-7..=limit).contains(&r),
                        "{name} {s:?}, {n} disks, gap {gap}, {:?}: {} vs clarabel {e_star} ({r:e})",
                        o.method,
                        got.report.energy
                    );
                }
            }
            // The step's own solve: a fixed count of iterations, not a certified gap.
            assert_eq!(plan.report.iterations, fixed);
            let step = rel(plan.report.energy);
            println!("{name}: {n} disks; the step's {fixed} iterations: energy {step:+.2e} over the optimum");
            assert!(
                (-1e-7..=STEP_ENERGY).contains(&step),
                "{name} {s:?}: the step's own solve, {step:e}"
            );
            // In windows: the whole problem's energy at the joined path, and its length.
            let split = smoother
                .smooth_along(&world, &route, 0.0, &windows)
                .unwrap();
            assert_eq!(split.corridor.centers, *c);
            let (r, len) = (rel(split.report.energy), metrics::length(&split.path));
            let ratio = len / metrics::length(&plan.path);
            println!("{name}: {n} disks; in windows: energy {r:+.2e} over the optimum, length ×{ratio:.4}");
            assert!(r >= -1e-7, "{name} {s:?}: windows below the optimum, {r:e}");
            assert!(ratio < 1.005, "{name} {s:?}: windows' path ×{ratio}");
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

#[test]
fn densified_corridors_solve_to_the_optimum_too() {
    let mut rng = Rng::new(77);
    let corridor = random_corridor(&mut rng, 8);
    let o = ProblemParams {
        max_spacing: Some(0.25),
        ..Default::default()
    };
    let pr = Problem::from_corridor(&corridor, &o).unwrap();
    assert!(pr.len() > 30);
    let (e_star, _) = reference(&pr, LengthNorm::Chapter);
    let s = optimize(&pr, &tol(1e-5)).unwrap();
    assert_inside(&pr, &s.path);
    let rel = (s.report.energy - e_star) / e_star;
    assert!((-1e-7..=1e-4).contains(&rel), "{rel:e}");
}

#[test]
fn every_variant_converges_to_the_same_optimum() {
    let pr = random_problem(11, 25);
    let (e_star, _) = reference(&pr, LengthNorm::Chapter);
    for (rho, gamma) in [(1.0, 0.0), (1.8, 0.0), (1.0, 0.05)] {
        let o = SolverParams {
            relaxation: rho,
            acceleration: gamma,
            ..tol(1e-5)
        };
        let s = optimize(&pr, &o).unwrap();
        assert_inside(&pr, &s.path);
        let rel = (s.report.energy - e_star) / e_star;
        assert!((-1e-7..=1e-4).contains(&rel), "ρ={rho} γ={gamma}: {rel:e}");
    }
}

#[test]
fn sum_of_lengths_option_matches_clarabel_too() {
    for seed in [21, 22, 23] {
        let pr = random_problem(seed, 20);
        let (e_star, _) = reference(&pr, LengthNorm::SumOfLengths);
        for o in tol_each(1e-5) {
            let o = SolverParams {
                length: LengthNorm::SumOfLengths,
                ..o
            };
            let s = optimize(&pr, &o).unwrap();
            assert_inside(&pr, &s.path);
            let e = energy(&pr, &s.path, LengthNorm::SumOfLengths);
            let rel = (e - e_star) / e_star;
            assert!(
                (-1e-7..=1e-4).contains(&rel),
                "seed {seed} {:?}: {rel:e}",
                o.method
            );
        }
    }
}

#[test]
fn final_energy_is_below_the_initial_feasible_path() {
    for seed in 0..10 {
        let pr = random_problem(100 + seed, 30);
        let e0 = energy(&pr, &pr.initial_path(), LengthNorm::Chapter);
        assert!(e0.is_finite());
        let s = optimize(&pr, &SolverParams::default()).unwrap();
        assert!(
            s.report.energy < e0,
            "seed {seed}: {} ≥ {e0}",
            s.report.energy
        );
        // And even after a handful of the chapter's iterations.
        let few = optimize(&pr, &SolverParams::chapter(20, 1.0, 1.0)).unwrap();
        assert!(energy(&pr, &few.path, LengthNorm::Chapter) < e0);
    }
}

#[test]
fn iterations_are_capped_so_time_and_energy_history_stay_bounded() {
    // `optimize --iterations` had no upper bound, and --energy-csv grew with it until
    // memory ran out.
    let pr = random_problem(5, 20);
    for stop in [
        Stop::Iterations(MAX_ITERATIONS + 1),
        Stop::Iterations(usize::MAX),
        Stop::Tolerance {
            gap: 1e-3,
            max_iterations: MAX_ITERATIONS + 1,
        },
        Stop::Iterations(0),
    ] {
        let o = SolverParams {
            stop,
            record_energy: true,
            ..Default::default()
        };
        let e = optimize(&pr, &o).unwrap_err();
        assert!(
            matches!(
                e,
                Error::BadParameter {
                    name: "iterations",
                    ..
                }
            ),
            "{stop:?}: {e:?}"
        );
        assert!(e.to_string().contains("1000000"), "{e}");
    }
    let at_cap = SolverParams {
        stop: Stop::Tolerance {
            gap: 1e-3,
            max_iterations: MAX_ITERATIONS,
        },
        ..Default::default()
    };
    assert!(at_cap.validate().is_ok());
}

#[test]
fn energy_history_has_one_entry_per_iteration() {
    let pr = random_problem(5, 20);
    let mut s = Solver::new();
    let o = SolverParams {
        record_energy: true,
        ..SolverParams::chapter(60, 1.0, 1.0)
    };
    let r = s.solve(&pr, &o).unwrap();
    let e = s.energies();
    assert_eq!(e.len(), 61);
    assert_eq!(e[0], energy(&pr, &pr.centers, LengthNorm::Chapter));
    assert!((e[60] - r.energy).abs() <= 1e-12 * r.energy);
    assert!(e[60] < e[0]);
}

#[test]
fn warm_start_from_the_solution_stops_at_the_first_check() {
    let pr = random_problem(9, 40);
    let mut s = Solver::new();
    for o in tol_each(1e-4) {
        let first = s.solve(&pr, &o).unwrap();
        assert!(first.iterations > 10, "{:?}", o.method);
        let again = s.solve_from(&pr, &o, Init::Previous).unwrap();
        assert!(again.converged && again.iterations <= 10, "{again:?}");
    }
    // The duals of a Chambolle–Pock solution (the loop ended on ADMM's).
    let report = s.solve(&pr, &tol(1e-4)).unwrap();
    let sol = s.solution(report);
    let mut other = Solver::new();
    let from = Init::From {
        path: &sol.path,
        dual: Some((&sol.p, &sol.q)),
    };
    let r = other.solve_from(&pr, &tol(1e-4), from).unwrap();
    assert!(r.converged && r.iterations <= 10, "{r:?}");
    // A path-only warm start is projected onto the disks first, so any path is accepted.
    let wild: Vec<DVec2> = pr
        .centers
        .iter()
        .map(|c| *c + DVec2::new(50.0, -50.0))
        .collect();
    let r = other
        .solve_from(
            &pr,
            &tol(1e-4),
            Init::From {
                path: &wild,
                dual: None,
            },
        )
        .unwrap();
    assert!(r.converged);
    assert_inside(&pr, other.path());
}

#[test]
fn dumped_problems_solve_to_the_same_path() {
    let pr = random_problem(12, 15);
    let back = Problem::from_json(&pr.to_json()).unwrap();
    let o = SolverParams::chapter(200, 1.0, 1.0);
    let a = optimize(&pr, &o).unwrap();
    let b = optimize(&back, &o).unwrap();
    assert_eq!(a.path, b.path);
    // The caller's waypoints drop the dummies of the original problem.
    assert_eq!(pr.waypoints(&a.path).len(), 15);
}

#[test]
fn batch_results_equal_one_at_a_time() {
    let problems: Vec<Problem> = (0..40)
        .map(|s| random_problem(s, 5 + (s as usize % 20)))
        .collect();
    let o = SolverParams::default();
    let batch = solve_batch(&problems, &o);
    let mut paths = Vec::new();
    let reports = solve_batch_into(&problems, &o, &mut paths);
    let mut s = Solver::new();
    for (i, pr) in problems.iter().enumerate() {
        let r = s.solve(pr, &o).unwrap();
        let b = batch[i].as_ref().unwrap();
        assert_eq!(b.path, s.path());
        assert_eq!(b.report, r);
        assert_eq!(paths[i], s.path());
        assert_eq!(reports[i].as_ref().unwrap(), &r);
    }
}

#[test]
fn facing_directions_bend_the_ends() {
    // A straight corridor along x, start facing +y: the path must leave upwards.
    let centers: Vec<DVec2> = (0..12).map(|i| DVec2::new(i as f64, 0.0)).collect();
    let mut c = DiskCorridor::new(centers, vec![2.0; 12], Some(DVec2::Y), None).unwrap();
    let pr = Problem::from_corridor(&c, &ProblemParams::default()).unwrap();
    let s = optimize(&pr, &tol(1e-5)).unwrap();
    let path = pr.waypoints(&s.path);
    let leave = path[1] - path[0];
    assert!(leave.y > 0.3 * leave.length(), "leaves along {leave:?}");
    // Without the direction it runs straight.
    c.start_dir = None;
    let pr = Problem::from_corridor(&c, &ProblemParams::default()).unwrap();
    let s = optimize(&pr, &tol(1e-5)).unwrap();
    assert!(pr.waypoints(&s.path).iter().all(|p| p.y.abs() < 1e-3));
}

#[test]
fn scaled_steps_make_the_iteration_independent_of_the_map_units() {
    let pr = random_problem(31, 30);
    for s in [0.01, 7.0, 1000.0] {
        let mut big = pr.clone();
        big.centers.iter_mut().for_each(|c| *c *= s);
        big.radii.iter_mut().for_each(|r| *r *= s);
        big.h *= s;
        let o = SolverParams::default(); // scale_beta: true
        let o = SolverParams {
            stop: Stop::Iterations(150),
            ..o
        };
        // ADMM's penalty is relative to h² for the same reason.
        let admm = SolverParams {
            method: Method::ADMM,
            ..o
        };
        for scaled in [o, admm] {
            let a = optimize(&pr, &scaled).unwrap();
            let b = optimize(&big, &scaled).unwrap();
            for i in 0..pr.len() {
                let d = (a.path[i] * s).distance(b.path[i]) / s;
                assert!(
                    d < 1e-9,
                    "{:?}, scale {s}, waypoint {i}: {d:e}",
                    scaled.method
                );
            }
        }
        // Without the scaling the chapter's fixed β behaves differently at another scale.
        let fixed = SolverParams {
            scale_beta: false,
            ..o
        };
        let a = optimize(&pr, &fixed).unwrap();
        let b = optimize(&big, &fixed).unwrap();
        let worst = (0..pr.len())
            .map(|i| (a.path[i] * s).distance(b.path[i]) / s)
            .fold(0.0, f64::max);
        assert!(worst > 1e-6, "scale {s}");
    }
}

#[test]
fn the_chapters_length_norm_spreads_waypoints_and_the_sum_of_lengths_does_not() {
    // Pure length (weights 0) on a straight corridor with bunched-up centres.
    let xs = [0.0, 0.2, 0.4, 3.0, 6.0, 9.0, 9.2];
    let centers: Vec<DVec2> = xs.iter().map(|&x| DVec2::new(x, 0.0)).collect();
    let c = DiskCorridor::new(centers, vec![3.0; 7], None, None).unwrap();
    let o = ProblemParams {
        weights: Weights::Given(vec![0.0; 7]),
        ..Default::default()
    };
    let pr = Problem::from_corridor(&c, &o).unwrap();
    let spacing = |v: &[DVec2]| {
        let d: Vec<f64> = v.windows(2).map(|w| w[0].distance(w[1])).collect();
        let max = d.iter().cloned().fold(0.0, f64::max);
        let min = d.iter().cloned().fold(f64::INFINITY, f64::min);
        (d.iter().sum::<f64>(), max / min)
    };
    let v2 = optimize(&pr, &tol(1e-9)).unwrap();
    let (len, ratio) = spacing(&v2.path);
    assert!(
        (len - 9.2).abs() < 1e-4 && ratio < 1.01,
        "V,2: length {len}, ratio {ratio}"
    );
    let v1 = optimize(
        &pr,
        &SolverParams {
            length: LengthNorm::SumOfLengths,
            ..tol(1e-9)
        },
    )
    .unwrap();
    let (len, ratio) = spacing(&v1.path);
    assert!(
        (len - 9.2).abs() < 1e-4 && ratio > 2.0,
        "V,1: length {len}, ratio {ratio}"
    );
}

#[test]
fn zero_weights_give_the_straight_shortest_path() {
    // Figure 20.2b: with all weights 0 only length counts.
    let centers = vec![DVec2::ZERO, DVec2::new(2.0, 1.5), DVec2::new(4.0, 0.0)];
    let c = DiskCorridor::new(centers, vec![0.5, 2.0, 0.5], None, None).unwrap();
    let o = ProblemParams {
        weights: Weights::Given(vec![0.0; 3]),
        ..Default::default()
    };
    let pr = Problem::from_corridor(&c, &o).unwrap();
    let s = optimize(&pr, &tol(1e-8)).unwrap();
    assert!(s.path[1].y.abs() < 1e-3, "{:?}", s.path);
}

#[test]
fn bad_input_is_a_clear_error() {
    let pr = random_problem(1, 6);
    let bad = |o: SolverParams| optimize(&pr, &o).unwrap_err();
    let name = |e: Error| match e {
        Error::BadParameter { name, .. } => name,
        e => panic!("{e:?}"),
    };
    let d = SolverParams::default();
    for a in [0.0, 2.0, -1.0, f64::NAN] {
        assert_eq!(name(bad(SolverParams { alpha: a, ..d })), "alpha");
    }
    for b in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(name(bad(SolverParams { beta: b, ..d })), "beta");
    }
    assert_eq!(name(bad(SolverParams::chapter(0, 1.0, 1.0))), "iterations");
    let t = |gap| SolverParams {
        stop: Stop::Tolerance {
            gap,
            max_iterations: 10,
        },
        ..d
    };
    assert_eq!(name(bad(t(0.0))), "tolerance");
    assert_eq!(name(bad(t(f64::NAN))), "tolerance");
    assert_eq!(
        name(bad(SolverParams {
            relaxation: 2.0,
            ..d
        })),
        "relaxation"
    );
    assert_eq!(
        name(bad(SolverParams {
            acceleration: -1.0,
            ..d
        })),
        "acceleration"
    );
    let admm = |penalty, relaxation| SolverParams {
        method: Method::Admm {
            penalty,
            relaxation,
        },
        ..d
    };
    for p in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(name(bad(admm(p, 1.0))), "penalty");
    }
    for a in [0.0, 2.0, f64::NAN] {
        assert_eq!(name(bad(admm(1.0, a))), "relaxation");
    }
    let mut nan = pr.clone();
    nan.centers[2].x = f64::NAN;
    assert_eq!(
        optimize(&nan, &d).unwrap_err(),
        Error::NonFinite { index: 2 }
    );
    let mut neg = pr.clone();
    neg.radii[3] = -0.5;
    assert_eq!(
        optimize(&neg, &d).unwrap_err(),
        Error::BadRadius {
            index: 3,
            radius: -0.5
        }
    );
    let short = [DVec2::ZERO; 2];
    let e = Solver::new()
        .solve_from(
            &pr,
            &d,
            Init::From {
                path: &short,
                dual: None,
            },
        )
        .unwrap_err();
    assert_eq!(name(e), "warm start");
    assert!(matches!(
        DiskCorridor::from_json(r#"{"centers": [[0,0]], "radii": [1]}"#),
        Err(Error::TooFewPoints { got: 1, .. })
    ));
    assert_eq!(
        DiskCorridor::from_json(r#"{"centers": [[0,0],[5,0]], "radii": [1,1]}"#),
        Err(Error::CorridorGap { a: 0, b: 1 })
    );
    assert_eq!(
        DiskCorridor::from_json(
            r#"{"centers": [[0,0],[1,0]], "radii": [1,1], "start_dir": [0,0]}"#
        ),
        Err(Error::ZeroDirection { which: "start" })
    );
}

#[test]
fn degenerate_corridors_never_give_nan() {
    // Duplicate consecutive centres, zero radii everywhere, start = goal.
    let dup = DiskCorridor::new(
        vec![
            DVec2::ZERO,
            DVec2::ZERO,
            DVec2::X,
            DVec2::X,
            DVec2::new(2.0, 0.0),
        ],
        vec![0.0, 0.5, 0.5, 1.0, 0.0],
        Some(DVec2::Y),
        Some(DVec2::Y),
    )
    .unwrap();
    let same = DiskCorridor::new(vec![DVec2::ONE; 3], vec![0.0, 1.0, 0.0], None, None).unwrap();
    let pinned =
        DiskCorridor::new(vec![DVec2::ZERO, DVec2::X], vec![0.0, 1.0], None, None).unwrap();
    for c in [dup, same, pinned] {
        let pr = Problem::from_corridor(&c, &ProblemParams::default()).unwrap();
        let admm = SolverParams {
            method: Method::ADMM,
            ..Default::default()
        };
        for o in [
            SolverParams::default(),
            SolverParams::chapter(50, 1.0, 1.0),
            admm,
        ] {
            let s = optimize(&pr, &o).unwrap();
            assert_inside(&pr, &s.path);
            assert!(s.report.energy.is_finite());
        }
    }
}

#[test]
fn extreme_scales_and_offsets_still_give_finite_paths_or_a_clear_error() {
    let pr = random_problem(41, 20);
    for (scale, offset) in [(1e-150, 0.0), (1e150, 0.0), (1.0, 1e9), (1e300, 0.0)] {
        let mut q = pr.clone();
        q.centers
            .iter_mut()
            .for_each(|c| *c = *c * scale + DVec2::splat(offset));
        q.radii.iter_mut().for_each(|r| *r *= scale);
        q.h *= scale;
        for o in tol_each(1e-3) {
            match optimize(&q, &o) {
                Ok(s) => {
                    assert!(s.path.iter().all(|p| p.is_finite()), "scale {scale}");
                    assert!(s.report.energy.is_finite(), "scale {scale}");
                    // Inside the disk up to the rounding of the coordinates themselves.
                    let ulp = (offset.abs() + 30.0 * scale) * f64::EPSILON;
                    for i in 0..q.len() {
                        let out = s.path[i].distance(q.centers[i]) - q.radii[i];
                        assert!(
                            out <= 1e-9 * scale + 4.0 * ulp,
                            "scale {scale} offset {offset}: {i} out by {out:e}"
                        );
                    }
                }
                Err(e) => assert!(matches!(e, Error::NonFinite { .. }), "scale {scale}: {e:?}"),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_corridor_gives_a_finite_path_inside_its_disks(
        seed in any::<u64>(),
        n in 2usize..40,
        rho in prop_oneof![Just(1.0), 0.5f64..1.95],
        iterations in 1usize..400,
        admm in any::<bool>(),
    ) {
        let corridor = random_corridor(&mut Rng::new(seed | 1), n);
        let pr = Problem::from_corridor(&corridor, &ProblemParams::default()).unwrap();
        let method = if admm { Method::Admm { penalty: 2.0, relaxation: rho } } else { Method::ChambollePock };
        let o = SolverParams { relaxation: rho, method, ..SolverParams::chapter(iterations, 1.0, 0.5) };
        let s = optimize(&pr, &o).unwrap();
        assert_inside(&pr, &s.path);
        let path = pr.waypoints(&s.path);
        prop_assert_eq!(path[0], corridor.start());
        prop_assert_eq!(path[path.len() - 1], corridor.goal());
        prop_assert!(s.report.energy.is_finite());
    }
}
