//! Any text given to the Moving AI map parser is a map or an error, never a panic; a map
//! that parses answers A*, line-of-sight and clearance queries without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pathsmooth::grid::GridMap;
use pathsmooth::{GridWorld, World};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(map) = GridMap::parse(text, "fuzz.map") else {
        return;
    };
    if map.width() * map.height() > 1 << 16 {
        return;
    }
    if let Ok(world) = GridWorld::new(map) {
        let b = world.bounds();
        let (lo, hi) = (b.min, b.max);
        let _ = world.clearance(lo.lerp(hi, 0.5));
        let _ = world.segment_is_clear(lo, hi, 0.25);
        let _ = world.plan(lo.lerp(hi, 0.1), lo.lerp(hi, 0.9), 0.0);
    }
});
