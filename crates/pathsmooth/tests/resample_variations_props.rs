//! Property tests for arc-length resampling, path variations and path metrics.

use glam::{DVec2, DVec3, Vec2};
use pathsmooth::curve::resample;
use pathsmooth::curve::{mirror, mirror_across_axis, start_at_distance, translate};
use pathsmooth::metrics::{length, turn_angles, PathMetrics};
use proptest::prelude::*;

/// 2D paths with exact repeats (each point has a 1 in 4 chance of copying the previous).
fn path2(max_len: usize) -> impl Strategy<Value = Vec<DVec2>> {
    prop::collection::vec((-100.0..100.0f64, -100.0..100.0f64, 0u8..4), 1..max_len).prop_map(
        |steps| {
            let mut out: Vec<DVec2> = Vec::new();
            for (x, y, kind) in steps {
                let p = match (out.last(), kind) {
                    (Some(&prev), 0) => prev,
                    _ => DVec2::new(x, y),
                };
                out.push(p);
            }
            out
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// On a monotone straight path (with repeats) the gaps are the spacing exactly (up to
    /// rounding), except the last, which is in (0, spacing].
    #[test]
    fn resample_gaps_equal_the_spacing_on_a_line(
        mut ts in prop::collection::vec(0.0..500.0f64, 2..20),
        repeat in 0usize..20,
        spacing in 0.05..50.0f64,
        angle in 0.0..std::f64::consts::TAU,
    ) {
        ts.sort_by(f64::total_cmp);
        let r = repeat % ts.len();
        ts.insert(r, ts[r]);
        let dir = DVec2::from_angle(angle);
        let path: Vec<DVec2> = ts.iter().map(|t| DVec2::new(3.0, -7.0) + dir * *t).collect();
        let out = resample(&path, spacing).unwrap();
        prop_assert_eq!(out[0], path[0]);
        prop_assert_eq!(*out.last().unwrap(), *path.last().unwrap());
        let total = length(&path);
        let gaps: Vec<f64> = out.windows(2).map(|w| w[0].distance(w[1])).collect();
        let (last, rest) = gaps.split_last().unwrap();
        for g in rest {
            prop_assert!((g - spacing).abs() <= 1e-9 * (1.0 + total), "gap {} vs {}", g, spacing);
        }
        prop_assert!(*last <= spacing * (1.0 + 1e-9) + 1e-9);
        prop_assert!(total == 0.0 || *last > 0.0);
    }

    /// On any path: ends kept exactly, no gap longer than the spacing, the expected count,
    /// and the length is preserved up to what cutting each corner can lose (≤ one spacing
    /// per interior vertex).
    #[test]
    fn resample_any_path(path in path2(30), spacing in 0.1..40.0f64) {
        let out = resample(&path, spacing).unwrap();
        prop_assert_eq!(out[0], path[0]);
        prop_assert_eq!(*out.last().unwrap(), *path.last().unwrap());
        prop_assert!(out.iter().all(|p| p.is_finite()));
        let total = length(&path);
        let got = length(&out);
        for w in out.windows(2) {
            prop_assert!(w[0].distance(w[1]) <= spacing * (1.0 + 1e-9) + 1e-9);
        }
        if path.len() > 1 {
            let expected = ((total / spacing) * (1.0 - 1e-12)).ceil().max(1.0) as usize + 1;
            prop_assert!(out.len().abs_diff(expected) <= 1, "{} points, expected ~{}", out.len(), expected);
        }
        let corners = path.len().saturating_sub(2) as f64;
        prop_assert!(got <= total + 1e-9 * (1.0 + total));
        prop_assert!(got >= total - corners * spacing - 1e-9 * (1.0 + total));
    }

    /// Mirroring twice is the identity; mirroring is an isometry (length and turn angles
    /// unchanged); translating there and back is the identity.
    #[test]
    fn variations_round_trip(
        path in path2(20),
        pivot in (-50.0..50.0f64, -50.0..50.0f64),
        angle in 0.0..std::f64::consts::TAU,
        offset in (-1e3..1e3f64, -1e3..1e3f64),
    ) {
        let pivot = DVec2::new(pivot.0, pivot.1);
        let normal = DVec2::from_angle(angle) * 3.0;
        let once = mirror(&path, pivot, normal).unwrap();
        let twice = mirror(&once, pivot, normal).unwrap();
        for (a, b) in path.iter().zip(&twice) {
            prop_assert!(a.distance(*b) < 1e-9);
        }
        prop_assert!((length(&once) - length(&path)).abs() < 1e-9);
        for (a, b) in turn_angles(&path).iter().zip(turn_angles(&once)) {
            prop_assert!((a - b).abs() < 1e-6);
        }
        let axis = mirror_across_axis(&path, pivot, normal.perp()).unwrap();
        for (a, b) in once.iter().zip(&axis) {
            prop_assert!(a.distance(*b) < 1e-9);
        }
        let offset = DVec2::new(offset.0, offset.1);
        let back = translate(&translate(&path, offset).unwrap(), -offset).unwrap();
        for (a, b) in path.iter().zip(&back) {
            prop_assert!(a.distance(*b) < 1e-9);
        }
    }

    /// Starting part-way: an open path loses exactly the first d of its length and keeps its
    /// end; a loop keeps its length and comes back to the same loop.
    #[test]
    fn start_at_distance_lengths(path in path2(20), frac in 0.0..=1.0f64, turns in -3.0..3.0f64) {
        let total = length(&path);
        let d = frac * total;
        let late = start_at_distance(&path, d, false).unwrap();
        prop_assert!((length(&late) - (total - d)).abs() < 1e-9 * (1.0 + total));
        prop_assert_eq!(*late.last().unwrap(), *path.last().unwrap());

        let mut ring = path.clone();
        ring.push(path[0]);
        let loop_len = length(&ring);
        let started = start_at_distance(&path, (turns + frac) * loop_len, true).unwrap();
        let mut closed = started.clone();
        closed.push(started[0]);
        prop_assert!((length(&closed) - loop_len).abs() < 1e-9 * (1.0 + loop_len));
        prop_assert!(started.len() == path.len() || started.len() == path.len() + 1);
    }

    /// Metrics are finite, consistent, and invariant under translation and mirroring.
    #[test]
    fn metrics_are_finite_and_invariant(path in path2(30), angle in 0.0..std::f64::consts::TAU) {
        let m = PathMetrics::of(&path).unwrap();
        for v in [m.length, m.max_turn, m.total_turn, m.max_curvature, m.mean_curvature] {
            prop_assert!(v.is_finite() && v >= 0.0);
        }
        prop_assert!(m.max_turn <= std::f64::consts::PI + 1e-9);
        prop_assert!(m.total_turn + 1e-9 >= m.max_turn);
        let moved = mirror(&translate(&path, DVec2::new(5.0, -2.0)).unwrap(), DVec2::ZERO, DVec2::from_angle(angle)).unwrap();
        let n = PathMetrics::of(&moved).unwrap();
        prop_assert_eq!(m.points, n.points);
        prop_assert!((m.length - n.length).abs() < 1e-9);
        prop_assert!((m.total_turn - n.total_turn).abs() < 1e-5f64.to_radians());
        // f32 and 3D views of the same path measure the same (to f32 precision).
        let f: Vec<Vec2> = path.iter().map(|p| p.as_vec2()).collect();
        let d3: Vec<DVec3> = path.iter().map(|p| p.extend(0.0)).collect();
        prop_assert!((PathMetrics::of(&d3).unwrap().length - m.length).abs() < 1e-9);
        prop_assert!((PathMetrics::of(&f).unwrap().length - m.length).abs() < 1e-3);
    }
}
