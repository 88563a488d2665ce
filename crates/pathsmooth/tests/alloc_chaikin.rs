//! Proves with a counting global allocator that in-place Chaikin allocates nothing, and
//! that the buffer-reusing forms allocate nothing once warmed up.
//!
//! Allocations are counted per thread, so the test harness's own threads cannot disturb
//! the count.

use crate::common;

use common::counting_alloc::allocations_during;
use glam::{DVec2, DVec3, Vec2, Vec3};
use pathsmooth::curve::{
    chaikin_in_place, chaikin_into, chaikin_output_len, AdaptiveChaikin, AdaptiveParams,
    ChaikinParams,
};
use pathsmooth::Point;

fn zigzag<P: Point>(n: usize) -> Vec<P> {
    (0..n)
        .map(|i| {
            let coords = [i as f64, (i % 2) as f64 * 3.0, (i % 3) as f64];
            P::from_coords(&coords[..P::DIM]).unwrap()
        })
        .collect()
}

fn in_place_allocates_nothing<P: Point>() {
    // 15 points run plain passes; 1000 points outgrow the scratch and run fused passes.
    for (n, closed) in [(15, false), (15, true), (1000, false), (1000, true)] {
        let params = ChaikinParams {
            closed,
            passes: 5,
            ..ChaikinParams::default()
        };
        let path: Vec<P> = zigzag(n);
        let mut buf = vec![P::default(); chaikin_output_len(n, 5, closed).unwrap()];
        buf[..n].copy_from_slice(&path);
        let (count, len) = allocations_during(|| chaikin_in_place(&mut buf, n, &params));
        assert_eq!(count, 0, "chaikin_in_place allocated");
        assert_eq!(len.unwrap(), buf.len());
        // Errors allocate nothing either.
        let (count, err) = allocations_during(|| chaikin_in_place(&mut buf[..n + 5], n, &params));
        assert_eq!(count, 0);
        assert!(err.is_err());
    }
}

#[test]
fn chaikin_buffers_allocate_nothing() {
    // Control: the counter does see allocations on this thread.
    let (count, v) = allocations_during(|| vec![1u8; 64]);
    assert_eq!((count, v.len()), (1, 64));

    in_place_allocates_nothing::<Vec2>();
    in_place_allocates_nothing::<DVec2>();
    in_place_allocates_nothing::<Vec3>();
    in_place_allocates_nothing::<DVec3>();

    // chaikin_into reuses its Vec: after one warm-up call, no allocation (200 points
    // give 3170 after 4 passes, so this takes the fused path).
    let path: Vec<DVec2> = zigzag(200);
    let params = ChaikinParams::default();
    let mut out = Vec::new();
    chaikin_into(&path, &params, &mut out).unwrap();
    let (count, r) = allocations_during(|| chaikin_into(&path, &params, &mut out));
    assert_eq!(count, 0, "chaikin_into allocated after warm-up");
    r.unwrap();
    let (count, r) = allocations_during(|| chaikin_into(&path[..100], &params, &mut out));
    assert_eq!(count, 0, "chaikin_into allocated on a smaller path");
    r.unwrap();

    // Adaptive refinement reuses its scratch and the output Vec.
    let params = AdaptiveParams {
        outlier_limit: Some(2.0),
        ..AdaptiveParams::default()
    };
    let mut refiner = AdaptiveChaikin::new(&params).unwrap();
    let mut out = Vec::new();
    refiner.refine_into(&path, &mut out).unwrap();
    refiner.refine_into(&path, &mut out).unwrap();
    let (count, r) = allocations_during(|| refiner.refine_into(&path, &mut out));
    assert_eq!(
        count, 0,
        "AdaptiveChaikin::refine_into allocated after warm-up"
    );
    assert!(r.unwrap().cuts > 0);
}
