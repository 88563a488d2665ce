//! The tests' one random-map strategy (proptest): grid maps of random cells, and scenes on
//! them (a start and a goal cell, both free).

use std::ops::RangeInclusive;

use glam::IVec2;
use pathsmooth::grid::GridMap;
use proptest::prelude::*;

/// A random map: width and height from the ranges, each cell blocked with probability
/// `blocked` (drawn once per map: `Just(0.3)` for a fixed density).
pub fn arb_map(
    width: RangeInclusive<usize>,
    height: RangeInclusive<usize>,
    blocked: impl Strategy<Value = f64>,
) -> impl Strategy<Value = GridMap> {
    (width, height, blocked).prop_flat_map(|(w, h, p)| {
        proptest::collection::vec(proptest::bool::weighted(p), w * h)
            .prop_map(move |cells| GridMap::from_fn(w, h, |x, y| !cells[y * w + x]))
    })
}

/// A random map as [`arb_map`] with a start and a goal cell, both made free.
pub fn arb_scene(
    width: RangeInclusive<usize>,
    height: RangeInclusive<usize>,
    blocked: impl Strategy<Value = f64>,
) -> impl Strategy<Value = (GridMap, IVec2, IVec2)> {
    arb_map(width, height, blocked)
        .prop_flat_map(|map| {
            let cell = (0..map.width() as i32, 0..map.height() as i32).prop_map(IVec2::from);
            (Just(map), cell.clone(), cell)
        })
        .prop_map(|(map, s, g)| {
            let free = GridMap::from_fn(map.width(), map.height(), |x, y| {
                let c = IVec2::new(x as i32, y as i32);
                c == s || c == g || map.passable_cell(c)
            });
            (free, s, g)
        })
}

/// The map as rows of `.` (free) and `@` (blocked), for failure messages.
pub fn rows(map: &GridMap) -> Vec<String> {
    (0..map.height() as i64)
        .map(|y| {
            (0..map.width() as i64)
                .map(|x| if map.is_passable(x, y) { '.' } else { '@' })
                .collect()
        })
        .collect()
}
