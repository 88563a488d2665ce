//! Fillet smoothing on every Moving AI map in `../shared/data/movingai/`: the pipeline
//! Shortcut → Fillet on the grid planner's path, agent radius 0.3, turning radius ρ = 1
//! and 3 cells. Every output is valid by the library's validator, keeps the scenario's
//! ends, is never longer than the shortcut path, and has curvature ≤ 1/ρ away from the
//! reported corners. The corners reported below ρ are counted and printed (run with
//! `--nocapture`; the table in docs/fillet.md comes from the full sweep).
//!
//! Full sweep (every 10th scenario) with `PATHSMOOTH_SLOW=1`; three scenarios a map
//! otherwise.

mod common;

use pathsmooth::{CornerLimit, GridWorld, Pipeline, Step, Validator};

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
        for rho in [1.0, 3.0] {
            let mut shortest = Pipeline::new(&world, radius).unwrap().then(Step::Shortcut);
            let mut pipeline = Pipeline::new(&world, radius)
                .unwrap()
                .then(Step::Shortcut)
                .then(Step::fillet(rho));
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
                "| {name} | {rho} | {paths} | {no_room} | {turns} | {} | {} | {} | {} |",
                limits.iter().sum::<usize>(),
                limits[0],
                limits[1],
                limits[2],
            );
            total += paths;
        }
    }
    assert!(total >= common::MAPS.len() * 2 * 2, "{total} paths");
}
