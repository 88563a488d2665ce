//! Test fixtures shared by the unit tests of more than one module, and (from
//! `tests/common/fixtures.rs`, included here) with the integration tests.

use glam::DVec2;

use crate::grid::GridMap;
// For `shared`, which names the crate's types through this module.
use crate::world::Obstacle;
use crate::GridWorld;

#[path = "../tests/common/fixtures.rs"]
mod shared;

pub(crate) use shared::{bad_shapes, polyanya_mesh_files, three_squares_in_a_row};

/// A 4×4 grid with a pinch vertex at (2, 2) (cells (1, 1) and (2, 2) blocked), and a valid
/// path through it: it reaches the vertex from above and leaves it into the same (top-right)
/// quadrant. The vertex is `path[2]`. Both `shortcut` and `map_safe` must never produce a
/// path that bends through this pinch, so their tests start from the same case.
pub(crate) fn pinch_world_and_path() -> (GridWorld, [DVec2; 5]) {
    let world = GridWorld::new(GridMap::from_rows(&["....", ".@..", "..@.", "...."]).unwrap());
    let path = [
        DVec2::new(2.0, 0.5),
        DVec2::new(2.0, 1.5),
        DVec2::new(2.0, 2.0),
        DVec2::new(3.0, 2.0),
        DVec2::new(3.5, 3.5),
    ];
    (world.unwrap(), path)
}

/// Knuth's MMIX linear congruential generator from `seed`: each call its next state, whose
/// high bits are the random ones. For the unit tests that draw their cases from it (and
/// would draw others from [`uniform`]).
pub(crate) fn lcg(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s
    }
}

/// [`lcg`]'s numbers in [0, 1): its top 53 bits.
pub(crate) fn lcg_uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut next = lcg(seed);
    move || (next() >> 11) as f64 / (1u64 << 53) as f64
}

/// A seeded generator of numbers in [0, 1) (xorshift64, Marsaglia), so that a unit test
/// draws the same random cases on every run and needs no extra crate.
pub(crate) fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed.max(1);
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    }
}
