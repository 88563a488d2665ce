//! What the corridor preset promises on real maps, against the funnel (the shortest path on
//! the world's navmesh) and shortcut + map-aware Chaikin on the same queries, at radius 0
//! and 0.3: every path valid; lengths close to the shortest; no turn sharper than 90°;
//! turns rounder than map-aware Chaikin's.
//!
//! Sampled scenarios of every Moving AI map (more with `PATHSMOOTH_SLOW=1`, every 10th with
//! `PATHSMOOTH_FULL=1`); the every-10th table is in `docs/corridor.md`.

use crate::common;

use pathsmooth::validate;
use pathsmooth::{metrics, GridWorld, Pipeline, Preset, Step};

/// The corridor path's length over the shortest: the median per map and radius, and the
/// worst single path (the targets; the maze at radius 0 is closest, at 1.0186 over
/// every 10th scenario: every U-turn round a wall end keeps the route's margin, see
/// docs/corridor.md).
const MEDIAN_LIMIT: f64 = 1.02;
const WORST_LIMIT: f64 = 1.10;
/// The quick local run's median limit: four paths a map are too few for a median that tight.
const QUICK_MEDIAN_LIMIT: f64 = 1.025;

/// Median of a non-empty list.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
fn corridor_paths_are_short_round_and_valid_on_every_map() {
    // The targets hold over every 10th scenario and on CI's larger sample; the quick
    // run (four paths a map) checks the median more loosely and the turns over all maps.
    let strict = common::full() || common::slow();
    let median_limit = if strict {
        MEDIAN_LIMIT
    } else {
        QUICK_MEDIAN_LIMIT
    };
    let (mut all_turns, mut all_chaikin_turns) = (0.0, 0.0);
    let mut failures = Vec::new();
    for (name, map, scen) in common::real_maps(&common::MAPS) {
        let world = GridWorld::new(map).unwrap();
        for radius in [0.0, 0.3] {
            let mut corridor = Pipeline::preset(&world, radius, Preset::Corridor).unwrap();
            let mut chaikin = Pipeline::preset(&world, radius, Preset::Smooth).unwrap();
            let mut funnel = Pipeline::new(&world, radius).unwrap().then(Step::Funnel);
            let (mut ratios, mut turns, mut chaikin_turns) = (vec![], vec![], vec![]);
            for s in common::sweep(&scen, 4, 24) {
                let (a, b) = (s.start_point(), s.goal_point());
                let (Ok(path), Ok(smooth), Ok(shortest)) =
                    (corridor.plan(a, b), chaikin.plan(a, b), funnel.plan(a, b))
                else {
                    // With a radius a query may have no room; the presets' own sweep
                    // (pipeline_maps.rs) checks which errors are allowed.
                    assert!(radius > 0.0, "{name} r=0 {s:?} failed");
                    continue;
                };
                let report = validate(&world, &path, radius).unwrap();
                assert!(
                    report.is_valid(),
                    "{name} r={radius} {s:?}: {:?}",
                    report.problem()
                );
                let (max_turn, _) = metrics::max_and_total_turn(&path);
                assert!(
                    max_turn <= 90f64.to_radians(),
                    "{name} r={radius} {s:?}: a turn of {:.1}°",
                    max_turn.to_degrees()
                );
                let shortest = metrics::length(&shortest);
                if shortest > 0.0 {
                    ratios.push(metrics::length(&path) / shortest);
                }
                turns.push(max_turn);
                chaikin_turns.push(metrics::max_and_total_turn(&smooth).0);
            }
            if ratios.is_empty() {
                continue;
            }
            let worst = ratios.iter().copied().fold(0.0, f64::max);
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            println!(
                "{name} r={radius}: {} paths, length/shortest median {:.4} worst {worst:.4}, \
                 mean max turn {:.1}° (shortcut + Chaikin {:.1}°)",
                ratios.len(),
                median(ratios.clone()),
                mean(&turns).to_degrees(),
                mean(&chaikin_turns).to_degrees(),
            );
            let median = median(ratios);
            if median > median_limit || worst > WORST_LIMIT {
                failures.push(format!(
                    "{name} r={radius}: median {median:.4}, worst {worst:.4}"
                ));
            }
            // Rounder than map-aware Chaikin: the mean of each path's sharpest turn.
            all_turns += mean(&turns);
            all_chaikin_turns += mean(&chaikin_turns);
            if strict && mean(&turns) >= mean(&chaikin_turns) {
                failures.push(format!(
                    "{name} r={radius}: mean max turn {:.1}°, shortcut + Chaikin {:.1}°",
                    mean(&turns).to_degrees(),
                    mean(&chaikin_turns).to_degrees()
                ));
            }
        }
    }
    assert!(
        all_turns < all_chaikin_turns,
        "mean max turns over all maps: {:.1}° against shortcut + Chaikin's {:.1}°",
        all_turns.to_degrees(),
        all_chaikin_turns.to_degrees()
    );
    assert!(
        failures.is_empty(),
        "lengths over the limits or turns sharper than Chaikin's: {failures:#?}"
    );
}
