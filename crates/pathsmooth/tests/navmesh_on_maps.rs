//! Navmesh methods on the real maps, judged by the grid validator (DESIGN.md's rule) and
//! against the line-of-sight shortcut through the same corridor.

use crate::common;

use glam::DVec2;
use pathsmooth::geometry::cross;
use pathsmooth::metrics::length;
use pathsmooth::navmesh::funnel;
use pathsmooth::navmesh::NavMesh;
use pathsmooth::navmesh::{portals, Portal};
use pathsmooth::navmesh::{relax, RelaxParams};
use pathsmooth::shortcut_by;
use pathsmooth::validate;

/// True when segment `a`–`b` meets the closed segment `p`–`q`.
fn segments_meet(a: DVec2, b: DVec2, p: DVec2, q: DVec2) -> bool {
    let d1 = cross(b - a, p - a);
    let d2 = cross(b - a, q - a);
    let d3 = cross(q - p, a - p);
    let d4 = cross(q - p, b - p);
    let straddle = |x: f64, y: f64| (x <= 0.0 && y >= 0.0) || (x >= 0.0 && y <= 0.0);
    straddle(d1, d2) && straddle(d3, d4)
}

/// Shortcuts of a relaxed path (node k + 1 sits on portal k) that stay in the corridor: a
/// jump from node i to node j is allowed when it crosses every portal between them.
fn corridor_shortcut(path: &[DVec2], portals: &[Portal]) -> Vec<DVec2> {
    let index = |p: DVec2| {
        path.iter()
            .position(|&q| q == p)
            .expect("a node of the path")
    };
    let mut out = Vec::new();
    shortcut_by(
        path,
        |a, b| {
            let (i, j) = (index(a), index(b));
            // Node i lies on portal i − 1 and node j on portal j − 1: cross those between.
            (i..j.saturating_sub(1)).all(|k| segments_meet(a, b, portals[k].left, portals[k].right))
        },
        &mut out,
    )
    .unwrap();
    out
}

#[test]
fn funnel_and_relaxed_paths_are_valid_and_funnel_is_never_longer_than_corridor_shortcuts() {
    let mut checked = 0;
    let names = common::NAVMESH_MAPS;
    for (name, map, scen) in common::real_maps(&names) {
        let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
        let mesh = NavMesh::from_grid(&map).unwrap();
        for s in common::sample(&scen, 10) {
            let (start, goal) = (s.start_point(), s.goal_point());
            let corridor = mesh.find_channel(start, goal).unwrap();
            let ps = portals(&mesh, &corridor).unwrap();
            let f = funnel(&ps, start, goal, 0.0).unwrap();
            let r = relax(&ps, start, goal, &RelaxParams::default()).unwrap();
            for (what, path) in [("funnel", &f), ("relax", &r)] {
                let report = validate(&world, path, 0.0).unwrap();
                assert!(
                    report.is_valid(),
                    "{name} {s:?}: {what}: {:?}",
                    report.problem()
                );
            }
            let short = corridor_shortcut(&r, &ps);
            assert!(
                length(&f) <= length(&short) + 1e-9,
                "{name} {s:?}: funnel {} > shortcut {}",
                length(&f),
                length(&short)
            );
            // With a radius the funnel keeps that clearance wherever the corridor is wide enough.
            // Its tangent segments touch the radius circles, so allow rounding (1e-9).
            if let Ok(fr) = funnel(&ps, start, goal, 0.25) {
                let report = validate(&world, &fr, 0.25 - 1e-9).unwrap();
                assert!(
                    report.is_valid(),
                    "{name} {s:?}: funnel r=0.25: {:?}",
                    report.problem()
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 40);
}
