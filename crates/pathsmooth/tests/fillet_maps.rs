//! Fillet smoothing on every Moving AI map in `data/movingai/`: Shortcut →
//! Fillet on the grid planner's path, agent radius 0.3, turning radius ρ = 1 and 3 cells
//! (and ρ = 1 with arcs grown up to 4 cells where there is room). Every output is valid by
//! the library's validator, keeps the scenario's ends, is never longer than the shortcut
//! path, and has curvature ≤ 1/ρ when no corner is reported. The corners reported below ρ
//! are counted and printed (run with `--nocapture`; the table in docs/fillet.md comes from
//! the full sweep), with the time an agent with the default limits takes to follow the
//! fillet curve (its exact curvature, `CurveProfile`) and the shortcut + Chaikin path
//! (`speed_profile`).
//!
//! Each scenario is planned once (`World::find_path`, as `Pipeline::plan` does) and shortcut
//! once; the fillet and Chaikin pipelines then smooth the shortcut path.
//!
//! Full sweep (every 10th scenario) with `PATHSMOOTH_SLOW=1`; three scenarios a map
//! otherwise.

use crate::common;

use pathsmooth::follow::{speed_profile, Agent, CurveProfile};
use pathsmooth::validate;
use pathsmooth::{metrics, CornerLimit, Error, FilletParams, GridWorld, Pipeline, Step, World};

/// (ρ, the radius aimed for): the minimum itself, and arcs grown up to 4 cells.
const CONFIGS: [(f64, f64); 3] = [(1.0, 1.0), (3.0, 3.0), (1.0, 4.0)];

/// Per configuration: paths, corners, corners below ρ by limit, follow times.
#[derive(Default)]
struct Tally {
    paths: usize,
    turns: usize,
    limits: [usize; 3],
    fillet_time: f64,
    chaikin_time: f64,
}

#[test]
fn fillet_paths_are_valid_on_every_map() {
    let radius = 0.3;
    let agent = Agent::default();
    let mut total = 0;
    for (name, map, scen) in common::real_maps(&common::MAPS) {
        let world = GridWorld::new(map).unwrap();
        let scenarios: Vec<_> = if common::full() {
            scen.iter().step_by(10).cloned().collect()
        } else if common::slow() {
            common::sample(&scen, 16)
        } else {
            common::sample(&scen, 3)
        };
        let mut shortest = Pipeline::new(&world, radius).unwrap().then(Step::Shortcut);
        let mut chaikin = Pipeline::new(&world, radius).unwrap().then(Step::chaikin());
        let mut fillets: Vec<_> = CONFIGS
            .iter()
            .map(|&(rho, up_to)| {
                let step = Step::Fillet(FilletParams::new(rho).up_to(up_to));
                Pipeline::new(&world, radius).unwrap().then(step)
            })
            .collect();
        let mut tallies: Vec<Tally> = CONFIGS.iter().map(|_| Tally::default()).collect();
        let mut no_room = 0;
        for s in &scenarios {
            let (start, goal) = (s.start_point(), s.goal_point());
            let raw = match world.find_path(start, goal, radius) {
                Ok(p) => p,
                Err(
                    Error::Unreachable { .. } | Error::TooNarrow { .. } | Error::TooClose { .. },
                ) => {
                    no_room += 1;
                    continue;
                }
                Err(e) => panic!("{name} {s:?}: {e}"),
            };
            let short = shortest.smooth(&raw).unwrap();
            let round = chaikin.smooth(&short).unwrap();
            let chaikin_time = speed_profile(&round, &agent).unwrap().total_time();
            for ((&(rho, up_to), pipeline), t) in CONFIGS.iter().zip(&mut fillets).zip(&mut tallies)
            {
                let path = pipeline.smooth(&short).unwrap();
                let r = validate(&world, &path, radius).unwrap();
                assert!(
                    r.is_valid(),
                    "{name} ρ={rho}/{up_to} {s:?}: {:?}",
                    r.problem()
                );
                assert_eq!((path[0], path[path.len() - 1]), (start, goal));
                let curve = pipeline.last_curve().unwrap();
                let corners = &pipeline.report().corners;
                if corners.is_empty() {
                    assert!(curve.max_curvature() <= 1.0 / rho * (1.0 + 1e-12));
                }
                assert!(curve.length() <= metrics::length(&short) + 1e-9);
                for c in corners {
                    assert!(c.radius < rho);
                    t.limits[match c.limit {
                        CornerLimit::Legs => 0,
                        CornerLimit::Walls => 1,
                        CornerLimit::UTurn => 2,
                    }] += 1;
                }
                t.paths += 1;
                t.turns += short.len().saturating_sub(2);
                t.fillet_time += CurveProfile::new(curve, &agent).unwrap().total_time();
                t.chaikin_time += chaikin_time;
            }
        }
        for (&(rho, up_to), t) in CONFIGS.iter().zip(&tallies) {
            println!(
                "| {name} | {rho} | {up_to} | {} | {no_room} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.3} |",
                t.paths,
                t.turns,
                t.limits.iter().sum::<usize>(),
                t.limits[0],
                t.limits[1],
                t.limits[2],
                t.fillet_time,
                t.chaikin_time,
                t.fillet_time / t.chaikin_time,
            );
            total += t.paths;
        }
    }
    assert!(total >= common::MAPS.len() * 3 * 2, "{total} paths");
}
