//! The pipeline owns every buffer of its navmesh steps (the navmesh query, the funnel's
//! chains, the portals): once warmed up, `smooth_into` and `plan_into` on a navmesh world
//! allocate nothing, on the flat navmesh world and on the one navmesh world the bindings
//! plan on (a `SurfaceWorld` of one floor, owned by its pipeline, whose plans locate their
//! ends on the floor first).

use crate::common::counting_alloc;

use glam::DVec2;
use pathsmooth::navmesh::{NavMesh, NavMeshQuery, Scene};
use pathsmooth::{GridWorld, Pipeline, Step, SurfaceWorld, World};

/// The navmesh world of [`room`]: its surface of one floor.
fn world() -> SurfaceWorld {
    SurfaceWorld::from_navmesh(&room()).unwrap()
}

/// A 20 × 10 room with two pillars that the paths must bend round.
fn room() -> NavMesh {
    let square =
        |x: f64, y: f64, w: f64, h: f64| vec![[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
    NavMesh::from_scene(&Scene {
        boundary: square(0.0, 0.0, 20.0, 10.0),
        holes: vec![square(5.0, 1.0, 2.0, 8.0), square(12.0, 0.5, 2.0, 4.0)],
    })
    .unwrap()
}

#[test]
fn navmesh_steps_allocate_nothing_in_steady_state() {
    let world = world();
    let (start, goal) = (DVec2::new(1.0, 5.0), DVec2::new(19.0, 5.0));
    let steps = [
        (
            0.0,
            vec![Step::Funnel, Step::relax(), Step::Shortcut, Step::chaikin()],
        ),
        (
            0.3,
            vec![Step::Funnel, Step::relax(), Step::Shortcut, Step::chaikin()],
        ),
    ];
    for (radius, steps) in steps {
        let mut pipeline = Pipeline::new(&world, radius).unwrap().with_steps(steps);
        let planned = pipeline.plan(start, goal).unwrap();
        assert!(planned.len() > 2, "the path bends round the pillars");
        let n = steady_allocations(&mut pipeline, &planned, start, goal);
        assert_eq!(n, 0, "allocations in steady state at radius {radius}");
        // No step failed. Some change nothing (the funnel on the path the pipeline found
        // with the same search; Chaikin at corners that already touch the radius), and the
        // report says so without allocating: static reasons, a reused list.
        let skipped = &pipeline.report().skipped;
        assert!(
            skipped
                .iter()
                .all(|(_, why)| why.starts_with("changed nothing")),
            "{skipped:?}"
        );
        assert!(pipeline.report().validation.is_valid());
    }
}

/// Every step, alone and after a shortcut, on a grid world and on a navmesh world (the
/// surface of one floor, shared and owned by the pipeline), at radius 0 and at a radius:
/// once warmed up, a run allocates nothing.
#[test]
fn every_step_allocates_nothing_in_steady_state() {
    let steps = [
        Step::Shortcut,
        Step::chaikin(),
        Step::catmull_rom(),
        Step::Resample { spacing: 0.5 },
        Step::Funnel,
        Step::relax(),
        Step::corridor(),
        Step::fillet(1.0),
    ];
    // Every step the library has (its names are `Step::NAMES`, which a unit test checks
    // against the enum's variants).
    let names: Vec<&str> = steps.iter().map(Step::name).collect();
    assert_eq!(names, Step::NAMES);
    let (mesh, surface, grid) = (room(), world(), grid_world());
    let mut query = NavMeshQuery::new();
    let mut failures = Vec::new();
    for step in steps {
        for radius in [0.0, 0.3] {
            for steps in [vec![step.clone()], vec![Step::Shortcut, step.clone()]] {
                let names: Vec<&str> = steps.iter().map(Step::name).collect();
                let what = format!("{names:?} at radius {radius}");
                // The surface's path to smooth is the mesh's own search's (a surface world
                // finds one only in a plan, which cuts its sheet).
                let on_mesh = query
                    .find_path(&mesh, START, GOAL, radius)
                    .unwrap()
                    .to_vec();
                let on_grid = grid.find_path(START, GOAL, radius).unwrap();
                let runs = [
                    allocations(&surface, radius, &steps, &on_mesh),
                    allocations(surface.clone(), radius, &steps, &on_mesh),
                    allocations(&grid, radius, &steps, &on_grid),
                ];
                for (kind, n) in ["surface (shared)", "surface (owned)", "grid"]
                    .into_iter()
                    .zip(runs)
                {
                    if n > 0 {
                        failures.push(format!("{kind}: {what}: {n} allocations in 10 runs"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The 20 × 10 room of [`world`] as a grid of 0.25 m cells.
fn grid_world() -> GridWorld {
    let inside = |x: f64, y: f64, (x0, y0, w, h): (f64, f64, f64, f64)| {
        (x0..x0 + w).contains(&x) && (y0..y0 + h).contains(&y)
    };
    GridWorld::from_fn(80, 40, 0.25, DVec2::ZERO, |x, y| {
        let (cx, cy) = (x as f64 * 0.25 + 0.125, y as f64 * 0.25 + 0.125);
        !inside(cx, cy, (5.0, 1.0, 2.0, 8.0)) && !inside(cx, cy, (12.0, 0.5, 2.0, 4.0))
    })
    .unwrap()
}

/// The ends of every plan here: across the room, round both pillars.
const START: DVec2 = DVec2::new(1.0, 5.0);
const GOAL: DVec2 = DVec2::new(19.0, 5.0);

/// Smooths `planned` and plans with `steps` on `world` a few times, then counts the
/// allocations of five more runs of each.
fn allocations<W: World>(world: W, radius: f64, steps: &[Step], planned: &[DVec2]) -> usize {
    let mut pipeline = Pipeline::new(world, radius)
        .unwrap()
        .with_steps(steps.to_vec());
    steady_allocations(&mut pipeline, planned, START, GOAL)
}

/// The allocations of five runs each of `smooth_into(planned)` and `plan_into(start,
/// goal)`, after three of each have grown the buffers to their steady size.
fn steady_allocations<W: World>(
    pipeline: &mut Pipeline<W>,
    planned: &[DVec2],
    start: DVec2,
    goal: DVec2,
) -> usize {
    let mut out = Vec::new();
    let mut run = |pipeline: &mut Pipeline<W>| {
        pipeline.smooth_into(planned, &mut out).unwrap();
        pipeline.plan_into(start, goal, &mut out).unwrap();
    };
    (0..3).for_each(|_| run(pipeline));
    counting_alloc::allocations_during(|| (0..5).for_each(|_| run(pipeline))).0
}
