//! The pipeline's presets on sampled scenarios of every Moving AI map in
//! `data/movingai/`, at radius 0 and 0.3: only valid paths; and the same map
//! placed at cell size 0.5 with an origin offset gives the same paths, scaled and shifted.
//!
//! These are the slowest sweeps: in full with `PATHSMOOTH_SLOW=1` (CI), on a sample
//! otherwise.

use crate::common;

use glam::DVec2;
use pathsmooth::validate;
use pathsmooth::{metrics, GridWorld, Pipeline, Preset};

const PRESETS: [Preset; 3] = [Preset::Shortest, Preset::Smooth, Preset::Corridor];

#[test]
fn presets_return_only_valid_paths_on_every_map() {
    let per_map = if common::slow() { 8 } else { 2 };
    let mut checked = 0;
    let mut no_room = 0;
    for (name, map, scen) in common::real_maps(&common::MAPS) {
        let world = GridWorld::new(map).unwrap();
        for radius in [0.0, 0.3] {
            let mut pipelines: Vec<_> = PRESETS
                .iter()
                .map(|&p| Pipeline::preset(&world, radius, p).unwrap())
                .collect();
            for s in common::sample(&scen, per_map) {
                let (start, goal) = (s.start_point(), s.goal_point());
                for (preset, pipeline) in PRESETS.iter().zip(&mut pipelines) {
                    match pipeline.plan(start, goal) {
                        Ok(path) => {
                            let r = validate(&world, &path, radius).unwrap();
                            assert!(
                                r.is_valid(),
                                "{name} {preset:?} r={radius} {s:?}: {:?}",
                                r.problem()
                            );
                            assert_eq!((path[0], path[path.len() - 1]), (start, goal));
                            checked += 1;
                        }
                        // With a radius, a scenario may have no route with room for it.
                        Err(e) if radius > 0.0 => {
                            assert!(
                                matches!(
                                    e,
                                    pathsmooth::Error::Unreachable { .. }
                                        | pathsmooth::Error::TooNarrow { .. }
                                        | pathsmooth::Error::TooClose { .. }
                                ),
                                "{name} {preset:?} r={radius}: {e}"
                            );
                            no_room += 1;
                        }
                        Err(e) => panic!("{name} {preset:?} r=0 {s:?}: {e}"),
                    }
                }
            }
        }
    }
    assert!(
        checked > common::MAPS.len() * per_map * 3,
        "{checked} checked, {no_room} without room"
    );
    assert!(
        no_room * 10 < checked,
        "{no_room} of {checked} found no room"
    );
}

#[test]
fn a_map_in_metres_gives_the_same_paths_scaled_and_shifted() {
    // Scaling by ½ is exact in floating point, so shortcut and Chaikin paths are exactly
    // scaled and their lengths exactly half. Shifting by the origin rounds each coordinate
    // once: the points are still exactly `origin + p / 2`, and a length computed from the
    // shifted points can differ in its last bits; and so can the clearances computed from
    // them, so the output's settling (a point within 4 units in the last place of the
    // radius moves out by a few units) can move a point in one frame and not the other:
    // shifted paths agree to 10⁻¹¹ (a few hundred units in the last place at 250). The
    // corridor optimiser iterates to a tolerance, so its paths agree to that tolerance.
    let count = if common::slow() {
        common::MAPS.len()
    } else {
        2
    };
    for origin in [DVec2::ZERO, DVec2::new(10.0, 20.0)] {
        for (name, map, scen) in common::real_maps(&common::MAPS[..count]) {
            let cells = GridWorld::new(map.clone()).unwrap();
            let metres = GridWorld::with_frame(map, 0.5, origin).unwrap();
            for radius in [0.0, 0.3] {
                for preset in PRESETS {
                    let mut a = Pipeline::preset(&cells, radius, preset).unwrap();
                    let mut b = Pipeline::preset(&metres, radius * 0.5, preset).unwrap();
                    for s in common::sample(&scen, 3) {
                        let (Ok(pa), Ok(pb)) = (
                            a.plan(cells.cell_center(s.start), cells.cell_center(s.goal)),
                            b.plan(metres.cell_center(s.start), metres.cell_center(s.goal)),
                        ) else {
                            continue;
                        };
                        let (la, lb) = (metrics::length(&pa), metrics::length(&pb));
                        if preset == Preset::Corridor {
                            // An iterative solve in other units (β scaled by h^α, a
                            // relative-gap stop) agrees up to its convergence, not bitwise.
                            assert!(
                                (lb - la * 0.5).abs() <= 1e-3 * la,
                                "{name} r={radius}: {lb} vs {la}"
                            );
                            continue;
                        }
                        let scaled: Vec<DVec2> = pa.iter().map(|&p| origin + p * 0.5).collect();
                        if origin == DVec2::ZERO {
                            assert_eq!(pb, scaled, "{name} {preset:?} r={radius}");
                            assert_eq!(lb, la * 0.5, "{name} {preset:?}");
                        } else {
                            assert_eq!(pb.len(), scaled.len(), "{name} {preset:?} r={radius}");
                            for (i, (p, q)) in pb.iter().zip(&scaled).enumerate() {
                                assert!(
                                    p.distance(*q) <= 1e-11,
                                    "{name} {preset:?} r={radius} origin {origin}: point {i} {p} vs {q}"
                                );
                            }
                            assert!(
                                (lb - la * 0.5).abs() <= 1e-14 * la,
                                "{name} {preset:?}: {lb} vs {la}"
                            );
                        }
                    }
                }
            }
        }
    }
}
