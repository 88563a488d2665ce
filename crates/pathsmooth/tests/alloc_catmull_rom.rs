//! Proves that the buffer-reusing Catmull-Rom (and resampling) allocate nothing once the
//! output `Vec` has capacity, with a counting global allocator. Allocations are counted
//! per thread, so the test harness's own threads cannot disturb the count.

use crate::common;

use common::counting_alloc::allocations;
use glam::{DVec2, Vec3};
use pathsmooth::curve::resample_into;
use pathsmooth::curve::{catmull_rom_into, CatmullRomParams, Ends};

#[test]
fn catmull_rom_into_allocates_nothing_with_capacity() {
    // A 13-point zig-zag with a duplicate, as a planner would produce.
    let path: Vec<DVec2> = (0..13)
        .map(|i| DVec2::new(i as f64, (i % 2) as f64 + (i / 6) as f64))
        .chain(std::iter::once(DVec2::new(12.0, 3.0)))
        .collect();
    let path3: Vec<Vec3> = path.iter().map(|p| p.as_vec2().extend(1.0)).collect();
    let mut out: Vec<DVec2> = Vec::with_capacity(14 * 16 + 1);
    let mut out3: Vec<Vec3> = Vec::with_capacity(14 * 16 + 1);
    let before = allocations();
    for alpha in [0.0, 0.5, 1.0] {
        for ends in [Ends::Doubled, Ends::Reflected, Ends::Closed] {
            for s in [1, 5, 16] {
                let params = CatmullRomParams::uniform(s)
                    .with_alpha(alpha)
                    .with_ends(ends);
                catmull_rom_into(&path, &params, &mut out).unwrap();
                catmull_rom_into(&path3, &params, &mut out3).unwrap();
                assert!(out.len() >= path.len() && out3.len() == out.len());
            }
        }
    }
    resample_into(&path, 0.25, &mut out).unwrap();
    let after = allocations();
    assert_eq!(after - before, 0, "the _into forms allocated");

    // The counter works: growing past the capacity allocates.
    let mut small: Vec<DVec2> = Vec::new();
    let before = allocations();
    catmull_rom_into(&path, &CatmullRomParams::uniform(5), &mut small).unwrap();
    assert!(allocations() > before);
}
