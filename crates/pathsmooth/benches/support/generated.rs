//! Generated square maps for the benches that measure growth with map size: open, random
//! obstacles and rooms, at 512² to 4096² cells, made in the bench (no files).

use pathsmooth::grid::GridMap;

pub const SIDES: [usize; 4] = [512, 1024, 2048, 4096];

/// A map generator: side length → square map.
pub type Generator = fn(usize) -> GridMap;

/// splitmix64 of the cell index: a fixed pseudo-random bit pattern.
pub fn hash(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

pub fn open(side: usize) -> GridMap {
    GridMap::from_fn(side, side, |_, _| true)
}

pub fn random(side: usize) -> GridMap {
    GridMap::from_fn(side, side, |x, y| hash((y * side + x) as u64) % 100 >= 20)
}

pub fn rooms(side: usize) -> GridMap {
    const ROOM: usize = 33; // 32 free cells and one wall
    GridMap::from_fn(side, side, |x, y| {
        let (wx, wy) = (x % ROOM == ROOM - 1, y % ROOM == ROOM - 1);
        // Doors in the middle of each wall; along the last, partial band of rooms (too
        // narrow for a door when the side is not a multiple of 33) the walls are open, so
        // the corner rooms stay connected.
        let door = |t: usize| (14..18).contains(&(t % ROOM)) || t / ROOM == side / ROOM;
        match (wx, wy) {
            (true, true) => false,
            (true, false) => door(y),
            (false, true) => door(x),
            (false, false) => true,
        }
    })
}

/// The three kinds with their names.
pub const KINDS: [(&str, Generator); 3] = [("open", open), ("random", random), ("rooms", rooms)];
