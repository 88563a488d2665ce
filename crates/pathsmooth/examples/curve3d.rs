//! Dimension-free curves on 3D points: Chaikin corner cutting and a centripetal
//! Catmull-Rom spline through the waypoints of a drone's flight, then even spacing.
//!
//! These steps know nothing of walls (use a `Pipeline` for map-aware smoothing in 2D); they
//! work on `Vec3`/`DVec3` as on 2D points.
//!
//! Run: `cargo run -p pathsmooth --example curve3d`

use glam::Vec3;
use pathsmooth::metrics::PathMetrics;
use pathsmooth::{catmull_rom, chaikin, resample, CatmullRomParams, ChaikinParams};

fn main() -> Result<(), pathsmooth::Error> {
    // Take off, fly over a ridge, land on a platform.
    let waypoints = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 5.0),
        Vec3::new(10.0, 2.0, 12.0),
        Vec3::new(20.0, -3.0, 12.0),
        Vec3::new(26.0, 0.0, 4.0),
        Vec3::new(26.0, 0.0, 3.0),
    ];

    // Chaikin: cuts every corner, stays inside the control polygon, keeps the endpoints.
    let cut = chaikin(&waypoints, &ChaikinParams::default())?;
    // Catmull-Rom: passes through every waypoint; centripetal avoids loops and cusps.
    let spline = catmull_rom(&waypoints, &CatmullRomParams::centripetal(8))?;
    // Even spacing for playback: a point every 0.5 m along the spline.
    let even = resample(&spline, 0.5)?;

    for (name, path) in [
        ("waypoints", &waypoints[..]),
        ("chaikin", &cut),
        ("catmull-rom", &spline),
        ("resampled", &even),
    ] {
        let m = PathMetrics::of(path)?;
        println!(
            "{name:12} {:4} points, {:6.2} m, sharpest turn {:5.1}°",
            m.points,
            m.length,
            m.max_turn.to_degrees()
        );
    }
    assert_eq!((cut[0], *cut.last().unwrap()), (waypoints[0], waypoints[5]));
    assert!(
        waypoints.iter().all(|w| spline.contains(w)),
        "the spline passes through every waypoint"
    );
    Ok(())
}
