//! Fillet smoothing on every Moving AI map in `../shared/data/movingai/`: the pipeline
//! Shortcut → Fillet on the grid planner's path, agent radius 0.3, turning radius ρ = 1
//! and 3 cells (and ρ = 1 with arcs grown up to 4 cells where there is room). Every output is valid by the library's validator, keeps the scenario's
//! ends, is never longer than the shortcut path, and has curvature ≤ 1/ρ away from the
//! reported corners. The corners reported below ρ are counted and printed (run with
//! `--nocapture`; the table in docs/fillet.md comes from the full sweep), with the time an
//! agent with the default limits takes to follow the fillet curve (its exact curvature,
//! `CurveProfile`) and the shortcut + Chaikin path (`speed_profile`).
//!
//! Full sweep (every 10th scenario) with `PATHSMOOTH_SLOW=1`; three scenarios a map
//! otherwise.

mod common;

use pathsmooth::follow::{speed_profile, Agent, CurveProfile};
use pathsmooth::{CornerLimit, FilletParams, GridWorld, Pipeline, Preset, Step, Validator};

#[test]
fn fillet_paths_are_valid_on_every_map() {
    let radius = 0.3;
    let mut total = 0;
    for name in common::MAPS {
        let Some((map, scen)) = common::try_load(name) else {
            return;
        };
        let world = GridWorld::new(map).unwrap();
        let validator = Validator::new(&world);
        let scenarios: Vec<_> = if common::slow() {
            scen.iter().step_by(10).cloned().collect()
        } else {
            common::sample(&scen, 3)
        };
        // (ρ, the radius aimed for): the minimum itself, and growing arcs up to 4 cells.
        for (rho, up_to) in [(1.0, 1.0), (3.0, 3.0), (1.0, 4.0)] {
            let mut shortest = Pipeline::new(&world, radius).unwrap().then(Step::Shortcut);
            let mut smooth = Pipeline::preset(&world, radius, Preset::Smooth).unwrap();
            let agent = Agent::default();
            let (mut fillet_time, mut chaikin_time) = (0.0, 0.0);
            let mut pipeline = Pipeline::new(&world, radius)
                .unwrap()
                .then(Step::Shortcut)
                .then(Step::Fillet(FilletParams::new(rho).up_to(up_to)));
            let (mut paths, mut no_room, mut turns) = (0, 0, 0);
            let mut limits = [0usize; 3];
            for s in &scenarios {
                let (start, goal) = (s.start_point(), s.goal_point());
                let path = match pipeline.plan(start, goal) {
                    Ok(p) => p,
                    Err(e) => {
                        assert!(
                            matches!(
                                e,
                                pathsmooth::Error::Unreachable { .. }
                                    | pathsmooth::Error::TooClose { .. }
                            ),
                            "{name} ρ={rho} {s:?}: {e}"
                        );
                        no_room += 1;
                        continue;
                    }
                };
                let r = validator.validate(&path, radius).unwrap();
                assert!(r.is_valid(), "{name} ρ={rho} {s:?}: {:?}", r.problem());
                assert_eq!((path[0], path[path.len() - 1]), (start, goal));
                let curve = pipeline.last_curve().unwrap();
                let corners = &pipeline.report().corners;
                if corners.is_empty() {
                    assert!(curve.max_curvature() <= 1.0 / rho * (1.0 + 1e-12));
                }
                let short = shortest.plan(start, goal).unwrap();
                assert!(curve.length() <= pathsmooth::metrics::length(&short) + 1e-9);
                turns += short.len().saturating_sub(2);
                fillet_time += CurveProfile::new(curve, &agent).unwrap().total_time();
                let chaikin = smooth.plan(start, goal).unwrap();
                chaikin_time += speed_profile(&chaikin, &agent).unwrap().total_time();
                for c in corners {
                    limits[match c.limit {
                        CornerLimit::Legs => 0,
                        CornerLimit::Walls => 1,
                        CornerLimit::UTurn => 2,
                    }] += 1;
                }
                paths += 1;
            }
            println!(
                "| {name} | {rho} | {up_to} | {paths} | {no_room} | {turns} | {} | {} | {} | {} | {:.1} | {:.1} | {:.3} |",
                limits.iter().sum::<usize>(),
                limits[0],
                limits[1],
                limits[2],
                fillet_time,
                chaikin_time,
                fillet_time / chaikin_time,
            );
            total += paths;
        }
    }
    assert!(total >= common::MAPS.len() * 2 * 2, "{total} paths");
}
