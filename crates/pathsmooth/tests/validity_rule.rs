//! DESIGN.md's validity rule, case by case, and the exact line-of-sight and clearance
//! tests against brute force on random small maps.

use crate::common;

use common::oracle::clearance as brute_clearance;
use glam::{DVec2, IVec2};
use pathsmooth::grid::DistanceField;
use pathsmooth::grid::GridMap;
use pathsmooth::grid::{
    is_pinch, path_is_free, point_is_free, segment_collision, segment_is_clear, segment_is_free,
    Collision,
};
use pathsmooth::{is_valid, validate};
use proptest::prelude::*;

fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

/// ```text
///   0 1 2 3 4 5
/// 0 . . . . . .
/// 1 . @ . . . .
/// 2 . . @ . @ @
/// 3 . . . . @ @
/// 4 . . . . . .
/// ```
/// Vertex (2, 2) is a pinch (cells (1,1) and (2,2)); cells (4..6, 2..4) are a thick wall.
fn demo_map() -> GridMap {
    GridMap::from_rows(&["......", ".@....", "..@.@@", "....@@", "......"]).unwrap()
}

#[test]
fn grazing_a_wall_is_valid() {
    let map = demo_map();
    // Along the top surface of cell (1, 1) and on past the pinch-free part of the row.
    assert!(segment_is_free(&map, p(0.0, 1.0), p(2.0, 1.0)));
    // Along its left surface.
    assert!(segment_is_free(&map, p(1.0, 0.0), p(1.0, 2.0)));
    // Along the top of the thick wall.
    assert!(segment_is_free(&map, p(3.5, 2.0), p(6.0, 2.0)));
}

#[test]
fn straight_through_a_pinch_is_invalid() {
    let map = demo_map();
    assert!(is_pinch(&map, 2, 2));
    let c = segment_collision(&map, p(2.5, 1.5), p(1.5, 2.5));
    assert_eq!(
        c,
        Some(Collision::Pinch {
            vertex: IVec2::new(2, 2)
        })
    );
    // Along the grid lines through it: each side only touches, but it squeezes through.
    assert!(!segment_is_free(&map, p(0.0, 2.0), p(3.0, 2.0)));
    assert!(!segment_is_free(&map, p(2.0, 0.0), p(2.0, 4.0)));
    // Longer diagonal through the pinch, from cell centre to cell centre.
    assert!(!segment_is_free(&map, p(3.5, 0.5), p(0.5, 3.5)));
}

#[test]
fn bending_on_a_pinch_vertex_is_invalid() {
    let map = demo_map();
    let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
    let v = p(2.0, 2.0);
    // Each segment alone only touches the vertex.
    assert!(segment_is_free(&map, p(2.5, 0.5), v));
    assert!(segment_is_free(&map, v, p(0.5, 2.5)));
    assert!(!path_is_free(&map, &[p(2.5, 0.5), v, p(0.5, 2.5)]));
    assert!(!is_valid(&world, &[p(2.5, 0.5), v, v, p(0.5, 2.5)], 0.0));
    // Bending on it and going back into the quadrant it came from is touching.
    assert!(path_is_free(&map, &[p(2.5, 0.5), v, p(3.0, 2.0)]));
    // Arriving along the surface of (1,1) (top-right quadrant) and leaving along the
    // surface of (2,2) into the bottom-left quadrant squeezes through.
    assert!(!path_is_free(&map, &[p(2.0, 1.0), v, p(1.0, 2.0)]));
    let report = validate(&world, &[p(2.0, 1.0), v, p(1.0, 2.0)], 0.0).unwrap();
    assert!(report.blocked_segments.is_empty());
    assert_eq!(report.blocked_bends, vec![1]);
    assert_eq!(report.first_problem_at, Some(v));
}

#[test]
fn along_the_seam_inside_a_thick_wall_is_invalid() {
    let map = demo_map();
    // The seam y = 3 between rows 2 and 3 of the wall (columns 4 and 5).
    assert!(!segment_is_free(&map, p(4.0, 3.0), p(6.0, 3.0)));
    assert!(!segment_is_free(&map, p(4.5, 3.0), p(4.6, 3.0)));
    // The vertical seam x = 5.
    assert!(!segment_is_free(&map, p(5.0, 2.0), p(5.0, 4.0)));
    // The seam x = 6 between column 5 and outside the map.
    assert!(!segment_is_free(&map, p(6.0, 2.0), p(6.0, 4.0)));
    // The wall's outer surfaces are fine.
    assert!(segment_is_free(&map, p(4.0, 4.0), p(6.0, 4.0)));
    assert!(segment_is_free(&map, p(4.0, 2.0), p(4.0, 4.0)));
}

#[test]
fn clipping_a_corner_is_invalid_touching_it_is_not() {
    let map = demo_map();
    // Corner (1, 1) of cell (1, 1): touching it diagonally from outside.
    assert!(segment_is_free(&map, p(0.5, 1.5), p(1.5, 0.5)));
    // Passing just inside it.
    assert!(!segment_is_free(&map, p(0.5, 1.5), p(1.5, 0.51)));
    // ...and passing just outside it is fine.
    assert!(segment_is_free(&map, p(0.5, 1.5), p(1.5, 0.49)));
    assert!(!segment_is_free(&map, p(0.0, 0.5), p(2.0, 1.5 + 1e-12)));
    // A diagonal move between cell centres that would cut the corner.
    assert!(!segment_is_free(&map, p(0.5, 0.5), p(1.5, 2.5)));
}

#[test]
fn map_border() {
    let map = demo_map();
    assert!(segment_is_free(&map, p(0.0, 0.0), p(6.0, 0.0)));
    assert!(segment_is_free(&map, p(0.0, 0.0), p(0.0, 5.0)));
    assert!(segment_is_free(&map, p(0.0, 5.0), p(4.0, 5.0)));
    // Just outside.
    assert!(!segment_is_free(&map, p(0.0, -1e-9), p(6.0, -1e-9)));
    assert!(!segment_is_free(&map, p(3.0, 2.5), p(-0.5, 2.5)));
    assert!(!point_is_free(&map, p(6.5, 0.5)));
    // Along the border beside the blocked border cells (5, 2), (5, 3): outside + wall.
    assert!(!segment_is_free(&map, p(6.0, 1.0), p(6.0, 5.0)));
    assert!(segment_is_free(&map, p(6.0, 0.0), p(6.0, 2.0)));
}

#[test]
fn endpoints_on_walls_and_corners() {
    let map = demo_map();
    // Ending on a wall's corner, on its surface, on a pinch vertex.
    assert!(segment_is_free(&map, p(0.5, 0.5), p(1.0, 1.0)));
    assert!(segment_is_free(&map, p(0.5, 0.5), p(1.5, 1.0)));
    assert!(segment_is_free(&map, p(2.5, 0.5), p(2.0, 2.0)));
    assert!(segment_is_free(&map, p(2.0, 2.0), p(2.0, 2.0)));
    // Starting on a corner and heading into the wall is not.
    assert!(!segment_is_free(&map, p(1.0, 1.0), p(1.5, 1.5)));
    // A point on the seam inside the thick wall is inside.
    assert!(!point_is_free(&map, p(5.0, 3.0)));
    assert!(point_is_free(&map, p(4.0, 3.0)));
}

#[test]
fn radius_keeps_clearance() {
    let map = demo_map();
    let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
    let field = DistanceField::new(&map);
    let (a, b) = (p(0.5, 4.5), p(3.5, 4.5));
    assert!(segment_is_clear(&map, &field, a, b, 0.5));
    assert!(!segment_is_clear(&map, &field, a, b, 0.5 + 1e-9));
    assert!(!segment_is_clear(&map, &field, a, b, -1.0));
    // Passing the bottom-right corner (3, 3) of cell (2, 2) at distance 0.25/√2: the
    // nearest point is the corner, not a cell centre.
    let c = field.segment_clearance(p(2.5, 3.75), p(3.25, 3.0));
    assert!((c - 0.03125f64.sqrt()).abs() < 1e-12, "{c}");
    let report = validate(&world, &[a, b], 0.6).unwrap();
    assert_eq!(report.clearance_violations, vec![0]);
    assert_eq!(report.min_clearance, 0.5);
    assert!(validate(&world, &[a, b], f64::NAN).is_err());
}

// ---- brute force ----------------------------------------------------------------------

/// Random small map with about 35% blocked cells.
fn arb_map() -> impl Strategy<Value = GridMap> {
    common::grids::arb_map(1..=6, 1..=6, Just(0.35))
}

/// A point on the quarter lattice in [−0.5, W + 0.5] × [−0.5, H + 0.5].
fn arb_quarter_point(w: usize, h: usize) -> impl Strategy<Value = DVec2> {
    (-2i32..=(4 * w as i32 + 2), -2i32..=(4 * h as i32 + 2))
        .prop_map(|(x, y)| DVec2::new(x as f64 / 4.0, y as f64 / 4.0))
}

fn blocked_at(map: &GridMap, q: DVec2) -> bool {
    map.is_blocked(q.x.floor() as i64, q.y.floor() as i64)
}

/// Is `q` inside the open blocked region? All four diagonal ε-neighbours blocked.
fn brute_interior(map: &GridMap, q: DVec2) -> bool {
    let e = 1e-7;
    [p(e, e), p(-e, e), p(e, -e), p(-e, -e)]
        .iter()
        .all(|&o| blocked_at(map, q + o))
}

/// Brute-force rule: dense samples of the segment in the open blocked region, or a pinch
/// vertex exactly on the open segment. With quarter-lattice endpoints on maps of at most
/// 6×6 cells, any stretch of the segment inside an open cell is longer than 0.01, and the
/// collinearity test is exact.
fn brute_collides(map: &GridMap, a: DVec2, b: DVec2) -> bool {
    let n = 6007;
    // a + (b − a)·t keeps samples of an axis-parallel segment exactly on its line (glam's
    // lerp, a·(1 − t) + b·t, may not).
    let samples = (0..=n).map(|k| a + (b - a) * (k as f64 / n as f64));
    if samples.into_iter().any(|q| brute_interior(map, q)) {
        return true;
    }
    let d = b - a;
    for x in 0..=map.width() as i64 {
        for y in 0..=map.height() as i64 {
            if !is_pinch(map, x, y) {
                continue;
            }
            let v = p(x as f64, y as f64) - a;
            let t = v.dot(d);
            if d.perp_dot(v) == 0.0 && t > 0.0 && t < d.length_squared() {
                return true;
            }
        }
    }
    false
}

fn arb_case() -> impl Strategy<Value = (GridMap, DVec2, DVec2)> {
    arb_map().prop_flat_map(|m| {
        let (w, h) = (m.width(), m.height());
        (Just(m), arb_quarter_point(w, h), arb_quarter_point(w, h))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn segment_is_free_matches_brute_force((map, a, b) in arb_case()) {
        prop_assert_eq!(segment_is_free(&map, a, b), !brute_collides(&map, a, b), "{:?} {:?}", a, b);
    }

    #[test]
    fn axis_and_diagonal_segments_match_brute_force(
        (map, a, b) in arb_case(),
        kind in 0..3u8,
    ) {
        // Force horizontal, vertical or 45° segments, which run along grid lines and
        // through vertices far more often than random ones.
        let b = match kind {
            0 => p(b.x, a.y),
            1 => p(a.x, b.y),
            _ => a + DVec2::splat(b.x - a.x),
        };
        prop_assert_eq!(segment_is_free(&map, a, b), !brute_collides(&map, a, b), "{:?} {:?}", a, b);
    }

    #[test]
    fn clearance_matches_brute_force(
        map in arb_map(),
        fx in 0.0..1.0f64,
        fy in 0.0..1.0f64,
    ) {
        let q = p(fx * map.width() as f64, fy * map.height() as f64);
        let field = DistanceField::new(&map);
        let c = field.clearance(q);
        prop_assert!((c - brute_clearance(&map, q)).abs() < 1e-12, "{} vs {}", c, brute_clearance(&map, q));
    }

    #[test]
    fn clearance_on_the_lattice_matches_brute_force((map, a, _b) in arb_case()) {
        let field = DistanceField::new(&map);
        prop_assert!((field.clearance(a) - brute_clearance(&map, a)).abs() < 1e-12);
    }

    #[test]
    fn segment_clearance_brackets_dense_samples(
        (map, a, b) in arb_case(),
    ) {
        let field = DistanceField::new(&map);
        let n = 2000;
        let step = a.distance(b) / n as f64;
        let sampled = (0..=n)
            .map(|k| brute_clearance(&map, a.lerp(b, k as f64 / n as f64)))
            .fold(f64::INFINITY, f64::min);
        let c = field.segment_clearance(a, b);
        // The true minimum is at most the sampled one and at least it minus half a step
        // (clearance is 1-Lipschitz).
        prop_assert!(c <= sampled + 1e-12, "{} > {}", c, sampled);
        prop_assert!(c >= sampled - step / 2.0 - 1e-12, "{} < {}", c, sampled);
        // The capped form agrees below its cap.
        let cap = sampled / 2.0;
        prop_assert_eq!(field.segment_clearance_capped(a, b, cap), c.min(cap));
    }
}

// ---- the pipeline on random maps ------------------------------------------------------

/// Corner cutting that ignores walls: one Chaikin pass at ratio ½ (midpoints of the legs).
fn blind_cut(p: &[DVec2]) -> pathsmooth::Result<Vec<DVec2>> {
    let midpoints = pathsmooth::curve::ChaikinParams {
        ratio: 0.5,
        passes: 1,
        closed: false,
    };
    pathsmooth::curve::chaikin(p, &midpoints)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn astar_shortcut_and_map_safe_paths_are_valid(
        (map, start, goal) in common::grids::arb_scene(2..=12, 2..=12, Just(0.3)),
    ) {
        let Ok(raw) = pathsmooth::grid::astar(&map, start, goal) else {
            return Ok(());
        };
        let world = pathsmooth::GridWorld::new(map.clone()).unwrap();
        // A* centre paths are valid and keep half a cell of clearance.
        prop_assert!(is_valid(&world, &raw.points, 0.5));
        for radius in [0.0, 0.25, 0.5] {
            let short = pathsmooth::shortcut(&world, &raw.points, radius).unwrap();
            let report = validate(&world, &short, radius).unwrap();
            prop_assert!(report.is_valid(), "r={} {:?}", radius, report.problem());
            prop_assert!(report.length <= raw.length + 1e-9);
            // A subsequence of the input with the same endpoints.
            let mut it = raw.points.iter();
            prop_assert!(short.iter().all(|q| it.any(|r| r == q)));
            prop_assert_eq!(short.last(), raw.points.last());
            // The article's loop, written plainly: farthest visible later node.
            let field = DistanceField::new(&map);
            let mut naive = vec![raw.points[0]];
            let mut i = 0;
            while i + 1 < raw.points.len() {
                i = (i + 2..raw.points.len())
                    .rev()
                    .find(|&j| segment_is_clear(&map, &field, raw.points[i], raw.points[j], radius))
                    .unwrap_or(i + 1);
                naive.push(raw.points[i]);
            }
            prop_assert_eq!(&short, &naive);
            let safe = pathsmooth::map_safe(&world, &short, radius, blind_cut).unwrap();
            prop_assert!(is_valid(&world, &safe, radius));
            prop_assert_eq!((safe[0], safe[safe.len() - 1]), (short[0], short[short.len() - 1]));
        }
    }
}
