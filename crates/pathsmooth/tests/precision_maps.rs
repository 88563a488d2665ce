//! Paths hold in the caller's precision on every Moving AI map in `data/movingai/`,
//! and pass an exact clearance check: the pipeline's presets at agent radius 0.3 and 0.5,
//! the same scenarios with `Vec2` (f32) and `DVec2` (f64) points. The two precisions fail on
//! the same scenarios with the same error; every path returned, in either precision, passes
//! the exact check of `common::exact` (rational arithmetic, sharing no code with the
//! library's validator) for clearance ≥ r less the rounding of a coordinate (8 units in
//! its last place: 10⁻¹³ at 500 cells; the library's input tolerance is 10⁴ times more),
//! and every `Vec2` path is valid and keeps clearance ≥ r when the library re-validates it
//! in f64.
//!
//! In full with `PATHSMOOTH_SLOW=1` (CI), on a sample otherwise.

use crate::common;

use common::exact::{coordinate_slack, exactly, first_violation};
use glam::DVec2;
use pathsmooth::grid::{GridMap, Scenario};
use pathsmooth::{validate, GridWorld, NavMesh, Pipeline, Point2, Step, SurfaceWorld, World};

const RADII: [f64; 2] = [0.3, 0.5];

/// The tallies of one sweep.
#[derive(Default)]
struct Tally {
    paths: usize,
    both_failed: usize,
    /// One precision failed where the other succeeded, or the two failed differently.
    mismatches: Vec<String>,
}

/// Runs `scen` through `steps` at radius `r` in both precisions on `world` (whose free space
/// is `map`'s, in cell units) and checks what each returns.
fn sweep<W: World>(
    tally: &mut Tally,
    what: &str,
    world: &W,
    map: &GridMap,
    steps: &[Step],
    r: f64,
    scen: &[Scenario],
) {
    let mut wide = Pipeline::new(world, r).unwrap().with_steps(steps.to_vec());
    let mut narrow = Pipeline::new(world, r).unwrap().with_steps(steps.to_vec());
    for s in scen {
        // Cell centres are exact in f32: both precisions get the same points.
        let (start, goal) = (s.start_point(), s.goal_point());
        let f64_path = wide.plan(start, goal);
        let f32_path = narrow.plan(start.as_vec2(), goal.as_vec2());
        match (&f64_path, &f32_path) {
            (Ok(a), Ok(b)) => {
                let b64: Vec<DVec2> = b.iter().map(|p| p.to_dvec2()).collect();
                for (precision, path) in [("f64", a), ("f32", &b64)] {
                    if let Some((i, why)) = first_violation(map, path, r, coordinate_slack) {
                        panic!("{what} r={r} {s:?}: the {precision} path fails the exact check at segment {i}: {why}");
                    }
                }
                let report = validate(world, &b64, r).unwrap();
                assert!(
                    report.is_valid() && report.min_clearance >= r,
                    "{what} r={r} {s:?}: the f32 path fails in f64: {:?} (min clearance {})",
                    report.problem(),
                    report.min_clearance
                );
                tally.paths += 1;
            }
            (Err(a), Err(b)) => {
                if std::mem::discriminant(a) != std::mem::discriminant(b) {
                    tally
                        .mismatches
                        .push(format!("{what} r={r} {s:?}: f64 {a}; f32 {b}"));
                }
                tally.both_failed += 1;
            }
            (Err(a), Ok(_)) => tally
                .mismatches
                .push(format!("{what} r={r} {s:?}: f64 {a}")),
            (Ok(_), Err(b)) => tally
                .mismatches
                .push(format!("{what} r={r} {s:?}: f32 {b}")),
        }
    }
}

/// Asserts the sweep's tallies: no mismatch, at least `least` paths and few scenarios
/// without room.
fn assert_tally(tally: &Tally, least: usize) {
    println!(
        "{} paths in both precisions, {} scenarios refused in both (no room)",
        tally.paths, tally.both_failed
    );
    assert!(
        tally.mismatches.is_empty(),
        "{} scenarios differ between f64 and f32:\n{}",
        tally.mismatches.len(),
        tally.mismatches.join("\n")
    );
    assert!(
        tally.paths >= least && tally.both_failed * 5 < tally.paths,
        "{} paths, {} scenarios without room",
        tally.paths,
        tally.both_failed
    );
}

#[test]
fn grid_presets_hold_in_f32_and_pass_the_exact_check_on_every_map() {
    let per_map = if common::slow() { 4 } else { 2 };
    let maps = common::real_maps(&common::MAPS);
    let mut tally = Tally::default();
    for (name, map, scen) in maps {
        let world = GridWorld::new(map.clone()).unwrap();
        let scen = common::sample(&scen, per_map);
        for r in RADII {
            for preset in [
                pathsmooth::Preset::Shortest,
                pathsmooth::Preset::Smooth,
                pathsmooth::Preset::Corridor,
            ] {
                let what = format!("{name} {preset:?}");
                sweep(&mut tally, &what, &world, &map, &preset.steps(), r, &scen);
            }
        }
    }
    assert_tally(&tally, common::MAPS.len() * per_map * 2 * 3 * 3 / 4);
}

#[test]
fn navmesh_steps_hold_in_f32_and_pass_the_exact_check_on_real_maps() {
    let per_map = if common::slow() { 6 } else { 3 };
    let names = common::NAVMESH_MAPS;
    let maps = common::real_maps(&names);
    let mut tally = Tally::default();
    for (name, map, scen) in maps {
        // The navmesh of the map's free cells: the same free space as the grid.
        let world = SurfaceWorld::from_navmesh(&NavMesh::from_grid(&map).unwrap()).unwrap();
        let scen = common::sample(&scen, per_map);
        for r in RADII {
            for (label, steps) in [
                ("funnel", vec![Step::Funnel]),
                ("funnel + chaikin", vec![Step::Funnel, Step::chaikin()]),
                ("smooth", pathsmooth::Preset::Smooth.steps()),
            ] {
                let what = format!("{name} navmesh {label}");
                sweep(&mut tally, &what, &world, &map, &steps, r, &scen);
            }
        }
    }
    assert_tally(&tally, names.len() * per_map * 2 * 3 * 3 / 4);
}

// The exact check itself, on cases whose answers are known exactly.

/// 5 × 5 cells, the middle one (2, 2) blocked: its square is [2, 3]².
fn one_block() -> GridMap {
    GridMap::from_rows(&[".....", ".....", "..@..", ".....", "....."]).unwrap()
}

#[test]
fn the_exact_check_accepts_exactly_r_and_refuses_one_ulp_inside() {
    let map = one_block();
    // x = 1.75 is exactly 0.25 from the square's side x = 2.
    let on = [DVec2::new(1.75, 1.5), DVec2::new(1.75, 3.5)];
    assert_eq!(first_violation(&map, &on, 0.25, exactly), None);
    assert!(first_violation(&map, &on, 0.25f64.next_up(), exactly).is_some());
    let inside = [DVec2::new(1.75f64.next_up(), 1.5), DVec2::new(1.75, 3.5)];
    assert!(first_violation(&map, &inside, 0.25, exactly).is_some());
    // 1.8 is not exact in binary: 2 − 1.8 is 0.19999999999999996 < 0.2 (both as f64,
    // two units in the last place apart).
    let decimal = [DVec2::new(1.8, 1.5), DVec2::new(1.8, 3.5)];
    assert!(first_violation(&map, &decimal, 0.2, exactly).is_some());
    assert_eq!(
        first_violation(&map, &decimal, 0.19999999999999995, exactly),
        None
    );
    // Leaving the point 0.25 straight below the corner (2, 2) with a slope δ towards it,
    // a segment dips about δ²/8 inside the corner's circle: for δ = 2⁻³⁰, 2⁻⁶³ — refused
    // exactly, accepted with the sweeps' slack (8 units in the last place of 2, 2⁻⁴⁸).
    let dip = [
        DVec2::new(2.0, 1.75),
        DVec2::new(1.0, 1.75 + 2f64.powi(-30)),
    ];
    assert!(first_violation(&map, &dip, 0.25, exactly).is_some());
    assert_eq!(first_violation(&map, &dip, 0.25, coordinate_slack), None);
    let deeper = [
        DVec2::new(2.0, 1.75),
        DVec2::new(1.0, 1.75 + 2f64.powi(-20)),
    ];
    assert!(first_violation(&map, &deeper, 0.25, coordinate_slack).is_some());
}

#[test]
fn the_exact_check_measures_corners_edges_and_crossings() {
    let map = one_block();
    // (1.5, 1.5) is √0.5 from the corner (2, 2) and 1.5 from the map's edges.
    let point = [DVec2::new(1.5, 1.5)];
    // The f64 values either side of √0.5 (FRAC_1_SQRT_2 is the one above).
    let above = std::f64::consts::FRAC_1_SQRT_2;
    assert!(above * above > 0.5 && above.next_down() * above.next_down() < 0.5);
    assert_eq!(
        first_violation(&map, &point, above.next_down(), exactly),
        None
    );
    assert!(first_violation(&map, &point, above, exactly).is_some());
    // A segment through the blocked cell, and one past the map's edge.
    let through = [DVec2::new(1.5, 2.5), DVec2::new(3.5, 2.5)];
    assert!(first_violation(&map, &through, 0.01, exactly).is_some());
    let edge = [DVec2::new(0.5, 0.5), DVec2::new(0.25, 4.5)];
    assert!(first_violation(&map, &edge, 0.3, exactly).is_some());
    assert_eq!(first_violation(&map, &edge, 0.25, exactly), None);
}
