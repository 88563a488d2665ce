//! Paths hold in the caller's precision: the same queries through `Pipeline::plan` with
//! `Vec2` (f32) and `DVec2` (f64) points fail on the same queries, and every `Vec2` path
//! returned is valid when re-validated in f64 at the same radius.
//!
//! The worlds are a game's: three 10 m rooms joined by 1 m doors, as a navmesh of convex
//! polygons and as a grid of 0.25 m cells, at an agent radius of 0.3 m.

use crate::common;

use common::rng::Rng;
use glam::{DVec2, Vec2};
use pathsmooth::{
    validate, GridWorld, NavMesh, Pipeline, Point2, Preset, Step, SurfaceWorld, World,
};

const RADIUS: f64 = 0.3;
const QUERIES: usize = 200;

/// Three 10 × 10 m rooms in a row, walls 0.2 m thick, each wall with a 1 m door centred on
/// y = 5, as convex polygons (a door's ends are corners of the rooms on either side).
fn rooms_navmesh() -> SurfaceWorld {
    let mut vertices = Vec::new();
    let mut polygons = Vec::new();
    let mut add = |pts: &[(f64, f64)]| {
        let base = vertices.len() as u32;
        vertices.extend(pts.iter().map(|&(x, y)| DVec2::new(x, y)));
        polygons.push((base..base + pts.len() as u32).collect::<Vec<u32>>());
    };
    for k in 0..3 {
        let x0 = k as f64 * 10.2;
        let x1 = x0 + 10.0;
        // The room, with the door corners on its left and right sides.
        let mut ring = vec![(x0, 0.0), (x1, 0.0)];
        if k < 2 {
            ring.extend([(x1, 4.5), (x1, 5.5)]);
        }
        ring.extend([(x1, 10.0), (x0, 10.0)]);
        if k > 0 {
            ring.extend([(x0, 5.5), (x0, 4.5)]);
        }
        add(&ring);
        if k < 2 {
            add(&[(x1, 4.5), (x1 + 0.2, 4.5), (x1 + 0.2, 5.5), (x1, 5.5)]);
        }
    }
    // Shared positions become one vertex each (the polygons must share edges).
    let mut unique: Vec<DVec2> = Vec::new();
    let remap: Vec<u32> = vertices
        .iter()
        .map(|v| match unique.iter().position(|u| u == v) {
            Some(i) => i as u32,
            None => {
                unique.push(*v);
                (unique.len() - 1) as u32
            }
        })
        .collect();
    let polygons: Vec<Vec<u32>> = polygons
        .iter()
        .map(|p| p.iter().map(|&i| remap[i as usize]).collect())
        .collect();
    SurfaceWorld::from_navmesh(&NavMesh::from_polygons(&unique, &polygons).unwrap()).unwrap()
}

/// The same level as a grid of 0.25 m cells (walls one cell thick, doors four cells).
fn rooms_grid() -> GridWorld {
    let (w, h) = (41 * 3 - 1, 40);
    GridWorld::from_fn(w, h, 0.25, DVec2::ZERO, |x, y| {
        let wall = x % 41 == 40;
        let door = (18..22).contains(&y);
        !wall || door
    })
    .unwrap()
}

/// A random point in one of the rooms (away from the walls by a little more than the radius
/// half the time, anywhere in the room otherwise).
fn point_in(rng: &mut Rng, room_width: f64, pitch: f64) -> DVec2 {
    let k = (rng.unit() * 3.0) as usize;
    DVec2::new(
        k as f64 * pitch + rng.range(0.0, room_width),
        rng.range(0.0, 10.0),
    )
}

/// Plans every query in both precisions; asserts the errors agree and every f32 path is
/// valid in f64. Returns the number of paths found.
fn compare<W: World>(name: &str, world: &W, steps: &[Step], pitch: f64) -> usize {
    let mut rng = Rng::new(7);
    let mut dvec = Pipeline::new(world, RADIUS)
        .unwrap()
        .with_steps(steps.to_vec());
    let mut vec = Pipeline::new(world, RADIUS)
        .unwrap()
        .with_steps(steps.to_vec());
    let mut found = 0;
    let mut mismatches = Vec::new();
    for q in 0..QUERIES {
        let (a, b) = (
            point_in(&mut rng, 10.0, pitch),
            point_in(&mut rng, 10.0, pitch),
        );
        // The caller's points are f32: both pipelines get the same ones.
        let (a32, b32) = (
            Vec2::new(a.x as f32, a.y as f32),
            Vec2::new(b.x as f32, b.y as f32),
        );
        let wide = dvec.plan(a32.to_dvec2(), b32.to_dvec2());
        let narrow = vec.plan(a32, b32);
        if let Ok(path) = &narrow {
            let in_f64: Vec<DVec2> = path.iter().map(|p| p.to_dvec2()).collect();
            let report = validate(world, &in_f64, RADIUS).unwrap();
            assert!(
                report.is_valid() && report.min_clearance >= RADIUS,
                "{name} query {q}: the f32 path fails in f64: {:?} (min clearance {})",
                report.problem(),
                report.min_clearance
            );
            found += 1;
        }
        if wide.is_ok() != narrow.is_ok() {
            mismatches.push(format!(
                "query {q} {a32} → {b32}: f64 {:?}, f32 {:?}",
                wide.as_ref().err(),
                narrow.as_ref().err()
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{name}: {} of {QUERIES} queries differ between f64 and f32:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    found
}

fn presets() -> [(&'static str, Vec<Step>); 3] {
    [
        ("smooth", Preset::Smooth.steps()),
        ("corridor", Preset::Corridor.steps()),
        ("funnel + chaikin", vec![Step::Funnel, Step::chaikin()]),
    ]
}

#[test]
fn navmesh_paths_hold_in_f32_where_they_hold_in_f64() {
    let world = rooms_navmesh();
    for (name, steps) in presets() {
        let found = compare(&format!("navmesh {name}"), &world, &steps, 10.2);
        assert!(found > QUERIES / 2, "navmesh {name}: only {found} paths");
    }
}

#[test]
fn grid_paths_hold_in_f32_where_they_hold_in_f64() {
    let world = rooms_grid();
    for (name, steps) in presets() {
        let found = compare(&format!("grid {name}"), &world, &steps, 10.25);
        assert!(found > QUERIES / 2, "grid {name}: only {found} paths");
    }
}

#[test]
fn a_door_too_narrow_is_named_in_world_units_with_the_radius() {
    // The grid's doors are 1 m wide (four 0.25 m cells): the planner's routes through cell
    // centres there have room for r = 0.375, not for 0.7.
    let world = rooms_grid();
    let mut pipeline = Pipeline::preset(&world, 0.7, Preset::Smooth).unwrap();
    let e = pipeline
        .plan(DVec2::new(2.0, 2.0), DVec2::new(28.0, 8.0))
        .unwrap_err();
    let pathsmooth::Error::TooNarrow {
        x,
        y,
        clearance,
        radius,
        ..
    } = e
    else {
        panic!("{e:?}");
    };
    // The first door: its wall column is x ∈ [10, 10.25], its opening y ∈ [4.5, 5.5]; the
    // planner's routes run through cell centres, the best of which in a door four cells
    // wide is 1.5 cells (0.375 m) from its sides.
    assert!(
        (10.0..=10.25).contains(&x) && (4.5..=5.5).contains(&y),
        "{e}"
    );
    assert_eq!((clearance, radius), (0.375, 0.7), "{e}");
    let message = e.to_string();
    assert!(
        message.contains("radius 0.7") && message.contains("(10.125, 5.125)"),
        "{message}"
    );
    // At a radius that fits the route, the same query finds its way.
    let mut fits = Pipeline::preset(&world, 0.375, Preset::Smooth).unwrap();
    assert!(fits
        .plan(DVec2::new(2.0, 2.0), DVec2::new(28.0, 8.0))
        .is_ok());
}

/// The map-aware functions on their own, called with `Vec2` paths: what they return is
/// valid when re-validated in f64 (their cuts are made in f64 at the radius, and rounded
/// with care), on the same queries as the pipeline tests.
#[test]
fn map_aware_functions_return_valid_vec2_paths() {
    check_map_aware("navmesh", &rooms_navmesh(), 10.2);
    check_map_aware("grid", &rooms_grid(), 10.25);
}

/// The check of [`map_aware_functions_return_valid_vec2_paths`] on one world.
fn check_map_aware<W: World>(name: &str, world: &W, pitch: f64) {
    use pathsmooth::{map_chaikin, map_safe, ChaikinParams};
    let mut planner = Pipeline::new(world, RADIUS).unwrap();
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for q in 0..QUERIES {
        let (a, b) = (
            point_in(&mut rng, 10.0, pitch),
            point_in(&mut rng, 10.0, pitch),
        );
        // The route in f32, as the pipeline with no steps returns it (valid as rounded).
        let Ok(route) = planner.plan(a.as_vec2(), b.as_vec2()) else {
            continue;
        };
        let chaikin = map_chaikin(world, &route, RADIUS, &ChaikinParams::default()).unwrap();
        let spline = map_safe(world, &route, RADIUS, |p: &[DVec2]| {
            pathsmooth::catmull_rom(p, &pathsmooth::CatmullRomParams::default())
        })
        .unwrap();
        for (what, path) in [("map_chaikin", &chaikin), ("map_safe", &spline)] {
            let in_f64: Vec<DVec2> = path.iter().map(|p| p.to_dvec2()).collect();
            let report = validate(world, &in_f64, RADIUS).unwrap();
            assert!(
                report.is_valid(),
                "{name} {what} query {q}: {:?}",
                report.problem()
            );
        }
        checked += 1;
    }
    assert!(checked > QUERIES / 2, "{name}: {checked} routes");
}

#[test]
fn errors_print_an_f32_callers_numbers_as_given() {
    let world = rooms_grid();
    let mut pipeline = Pipeline::preset(&world, RADIUS, Preset::Smooth).unwrap();
    // Inside the first wall (x ∈ [10, 10.25]), and too close to it.
    let e = pipeline
        .plan(Vec2::new(10.1, 2.4), Vec2::new(2.0, 2.0))
        .unwrap_err();
    assert_eq!(e.to_string(), "start (10.1, 2.4) is inside a wall");
    let e = pipeline
        .plan(Vec2::new(9.9, 2.4), Vec2::new(2.0, 2.0))
        .unwrap_err();
    let message = e.to_string();
    assert!(
        message.starts_with("start (9.9, 2.4) has clearance"),
        "{message}"
    );
    assert!(message.ends_with("the agent radius 0.3"), "{message}");
}
