//! Every DEV map and scenario file parses, and every scenario fits its map.

use crate::common;

#[test]
fn every_dev_map_and_scenario_parses() {
    for (name, map, scen) in common::real_maps(&common::MAPS) {
        assert!(!scen.is_empty(), "{name}");
        for s in &scen {
            pathsmooth::grid::check_scenario(&map, s).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

#[test]
fn den312d_is_65_wide_and_81_tall() {
    let (map, _) = common::load("dao/den312d");
    assert_eq!((map.width(), map.height()), (65, 81));
}
