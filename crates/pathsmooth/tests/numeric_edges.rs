//! Extreme numbers through every public map-aware entry (issue 32), listed from the crate
//! root's re-exports: a radius below the world's tolerance gives what radius 0 gives;
//! a coordinate beyond the limit gets the one error, the same from every entry; a grid
//! whose coordinates are near the limit still gives finite answers; and a plan from a
//! point to itself is that point.

use glam::{DVec2, Vec2};
use pathsmooth::corridor::{CorridorMap, CorridorParams, CorridorSmoother};
use pathsmooth::geometry::max_map_coordinate;
use pathsmooth::navmesh::{funnel, relax, relax_into, Funnel, NavMeshQuery};
use pathsmooth::navmesh::{portals, Portal};
use pathsmooth::{
    catmull_rom, is_valid, map_chaikin, map_safe, shortcut, validate, validate_into, Bounds,
    CatmullRomParams, ChaikinParams, Error, FilletParams, Filleter, GridMap, GridWorld, MapSafe,
    NavMesh, Pipeline, RelaxParams, Scene, Shortcutter, Step, SurfaceWorld, ValidationReport,
    World,
};

/// Radii below the tolerance of the small worlds here (10⁻⁹ of their largest coordinate,
/// a few units): one that squares fine, and three whose squares underflow or vanish.
const TINY: [f64; 4] = [1e-12, 1e-155, 1e-162, 1e-300];

/// Every step a pipeline can run.
fn steps() -> Vec<Step> {
    vec![
        Step::Shortcut,
        Step::chaikin(),
        Step::CatmullRom(CatmullRomParams::default()),
        Step::Resample { spacing: 0.25 },
        Step::Funnel,
        Step::relax(),
        Step::corridor(),
        Step::fillet(0.5),
    ]
}

/// A row of three free cells: the map of the issue, and a room with a pillar.
fn row() -> GridWorld {
    GridWorld::new(GridMap::from_rows(&["..."]).unwrap()).unwrap()
}

fn room() -> GridWorld {
    GridWorld::new(GridMap::from_rows(&["......", "..@@..", "......", "......"]).unwrap()).unwrap()
}

/// What a call gave, in a form to compare across radii and entries.
fn shown<T: std::fmt::Debug>(r: Result<T, Error>) -> Result<String, Error> {
    r.map(|v| format!("{v:?}"))
}

/// Every public map-aware entry taking a path (the points of `path`, in `f64`), on any
/// world: (name, outcome).
fn path_entries<W: World>(
    world: &W,
    path: &[DVec2],
    radius: f64,
) -> Vec<(String, Result<String, Error>)> {
    let chaikin = ChaikinParams::default();
    let spline = |p: &[DVec2]| catmull_rom(p, &CatmullRomParams::default());
    let fillet = FilletParams::new(0.5);
    let mut out = vec![
        ("shortcut".into(), shown(shortcut(world, path, radius))),
        ("Shortcutter".into(), {
            let mut v = Vec::new();
            shown(
                Shortcutter::new()
                    .shortcut_into(world, path, radius, &mut v)
                    .map(|()| v),
            )
        }),
        (
            "map_chaikin".into(),
            shown(map_chaikin(world, path, radius, &chaikin)),
        ),
        ("MapSafe::chaikin_into".into(), {
            let mut v = Vec::new();
            let r = MapSafe::new().chaikin_into(world, path, radius, &chaikin, &mut v);
            shown(r.map(|()| v))
        }),
        (
            "MapSafe::chaikin_adaptive".into(),
            shown(MapSafe::new().chaikin_adaptive(world, path, radius, &Default::default())),
        ),
        (
            "map_safe".into(),
            shown(map_safe(world, path, radius, spline)),
        ),
        (
            "MapSafe::smooth".into(),
            shown(MapSafe::new().smooth(world, path, radius, spline)),
        ),
        ("validate".into(), shown(validate(world, path, radius))),
        ("validate_into".into(), {
            let mut report = ValidationReport::default();
            shown(validate_into(world, path, radius, &mut report).map(|()| report))
        }),
        (
            "fillet".into(),
            shown(pathsmooth::fillet(world, path, radius, &fillet)),
        ),
        (
            "Filleter".into(),
            shown(Filleter::new().fillet(world, path, radius, &fillet)),
        ),
        (
            "CorridorSmoother::smooth_along".into(),
            shown(
                CorridorSmoother::new()
                    .smooth_along(world, path, radius, &CorridorParams::default())
                    .map(|c| c.path),
            ),
        ),
    ];
    // `is_valid` answers yes or no: it agrees with `validate`.
    let valid = validate(world, path, radius).map(|r| r.is_valid());
    assert_eq!(is_valid(world, path, radius), valid == Ok(true));
    for step in steps() {
        let name = format!("Pipeline::smooth {}", step.name());
        let outcome = Pipeline::new(world, radius).and_then(|p| p.then(step).smooth(path));
        out.push((name, shown(outcome)));
    }
    out.push((
        "Pipeline::validate".into(),
        shown(Pipeline::new(world, radius).and_then(|p| p.validate(path))),
    ));
    out
}

/// Every public map-aware entry taking a start and a goal: the pipeline's plan with each
/// step, the world's own path finder, and the navmesh query on the world's navmesh.
fn end_entries<W: World>(
    world: &W,
    start: DVec2,
    goal: DVec2,
    radius: f64,
) -> Vec<(String, Result<String, Error>)> {
    let mut out = vec![(
        "World::find_path".into(),
        shown(world.find_path(start, goal, radius)),
    )];
    for step in steps() {
        let name = format!("Pipeline::plan {}", step.name());
        let outcome = Pipeline::new(world, radius).and_then(|p| p.then(step).plan(start, goal));
        out.push((name, shown(outcome)));
    }
    if let Ok(mesh) = world.navmesh() {
        let mut query = NavMeshQuery::new();
        let path = query
            .find_path(mesh, start, goal, radius)
            .map(<[_]>::to_vec);
        out.push(("NavMeshQuery::find_path".into(), shown(path)));
        let channel = NavMeshQuery::new()
            .find_channel(mesh, start, goal, radius)
            .map(<[_]>::to_vec);
        out.push(("NavMeshQuery::find_channel".into(), shown(channel)));
    }
    out
}

/// The grid's own doors: its path finder in cells and the corridor map's three.
fn grid_end_entries(
    world: &GridWorld,
    start: DVec2,
    goal: DVec2,
    radius: f64,
) -> Vec<(String, Result<String, Error>)> {
    let cmap = CorridorMap::build(world.map());
    let params = CorridorParams::default();
    let mut smoother = CorridorSmoother::new();
    vec![
        (
            "GridWorld::find_cell_path".into(),
            shown(world.find_cell_path(start, goal, radius)),
        ),
        (
            "CorridorMap::corridor".into(),
            shown(cmap.corridor(start, goal, radius)),
        ),
        (
            "CorridorSmoother::smooth_on_grid".into(),
            shown(
                smoother
                    .smooth_on_grid(world, &cmap, start, goal, radius, &params)
                    .map(|c| c.path),
            ),
        ),
        (
            "CorridorSmoother::smooth_on_medial_axis".into(),
            shown(
                smoother
                    .smooth_on_medial_axis(world, &cmap, start, goal, radius, &params)
                    .map(|c| c.path),
            ),
        ),
    ]
}

/// The funnel and portal relaxation on a channel (they take portals, not a world).
fn portal_entries(
    portals: &[Portal],
    start: DVec2,
    goal: DVec2,
    radius: f64,
) -> Vec<(String, Result<String, Error>)> {
    let mut w = Vec::new();
    let kept = Funnel::new()
        .funnel_into(portals, start, goal, radius, &mut w)
        .map(|()| w);
    let params = RelaxParams::default();
    let mut r = Vec::new();
    let relaxed = relax_into(portals, start, goal, &params, &mut r).map(|_| r);
    vec![
        ("funnel".into(), shown(funnel(portals, start, goal, radius))),
        ("Funnel::funnel_into".into(), shown(kept)),
        ("relax".into(), shown(relax(portals, start, goal, &params))),
        ("relax_into".into(), shown(relaxed)),
    ]
}

/// Every entry on one world for one path (its ends for the entries taking ends).
fn all_entries(
    world: &GridWorld,
    path: &[DVec2],
    radius: f64,
) -> Vec<(String, Result<String, Error>)> {
    let (start, goal) = (path[0], path[path.len() - 1]);
    let mut out = path_entries(world, path, radius);
    out.extend(end_entries(world, start, goal, radius));
    out.extend(grid_end_entries(world, start, goal, radius));
    let navmesh = SurfaceWorld::from_navmesh(&NavMesh::from_grid(world.map()).unwrap()).unwrap();
    for (name, outcome) in path_entries(&navmesh, path, radius)
        .into_iter()
        .chain(end_entries(&navmesh, start, goal, radius))
    {
        out.push((format!("{name} (navmesh world)"), outcome));
    }
    out
}

// ---- tiny radii --------------------------------------------------------------------------

#[test]
fn the_world_queries_answer_exactly_for_tiny_radii() {
    // The case: across a free row, clear at 0 and 1e-12, not at 1e-300.
    let world = row();
    let navmesh = SurfaceWorld::from_navmesh(&NavMesh::from_grid(world.map()).unwrap()).unwrap();
    let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5));
    for r in TINY {
        assert!(world.segment_is_clear(a, b, r), "grid, radius {r:e}");
        assert_eq!(world.segment_clearance(a, b, r), r);
        assert!(navmesh.segment_is_clear(a, b, r), "navmesh, radius {r:e}");
        assert_eq!(navmesh.segment_clearance(a, b, r), r);
    }
    assert_eq!(world.segment_clearance(a, b, 1.0), 0.5);
    assert_eq!(world.clearance(a), 0.5);
}

#[test]
fn a_radius_below_the_tolerance_gives_what_radius_0_gives_everywhere() {
    let world = room();
    assert!(world.tolerance() > TINY[0]);
    // A path hugging the pillar (touching its corners at radius 0).
    let path = [
        DVec2::new(0.5, 0.5),
        DVec2::new(2.0, 1.0),
        DVec2::new(4.0, 1.0),
        DVec2::new(5.5, 2.5),
    ];
    let zero = all_entries(&world, &path, 0.0);
    assert!(zero.len() > 50, "{} entries", zero.len());
    for (name, outcome) in &zero {
        assert!(outcome.is_ok(), "{name} at radius 0: {outcome:?}");
    }
    for r in TINY {
        let tiny = all_entries(&world, &path, r);
        assert_eq!(tiny.len(), zero.len());
        for ((name, at_zero), (_, at_tiny)) in zero.iter().zip(&tiny) {
            assert_eq!(at_tiny, at_zero, "{name} at radius {r:e}");
        }
    }
    // The portal-level entries take no world: the tolerance at their coordinates.
    let mesh = NavMesh::from_grid(world.map()).unwrap();
    let channel = mesh.find_channel(path[0], path[3]).unwrap();
    let ps = portals(&mesh, &channel).unwrap();
    let zero = portal_entries(&ps, path[0], path[3], 0.0);
    for r in TINY {
        assert_eq!(
            portal_entries(&ps, path[0], path[3], r),
            zero,
            "radius {r:e}"
        );
    }
    // The pipeline says which radius it works with.
    assert_eq!(Pipeline::new(&world, 1e-300).unwrap().radius(), 0.0);
    assert_eq!(validate(&world, &path, 1e-300).unwrap().radius, 0.0);
}

#[test]
fn a_tiny_radius_keeps_the_rules_of_radius_0_at_a_pinch() {
    // Bending through a pinch is refused at radius 0; a radius of 1e-300 used to let the
    // validator accept it (clearance 0 ≥ r − tolerance, and no pinch test with a radius).
    let world = GridWorld::new(GridMap::from_rows(&["@.", ".@"]).unwrap()).unwrap();
    let bend = [
        DVec2::new(1.5, 0.5),
        DVec2::new(1.0, 1.0),
        DVec2::new(0.5, 1.5),
    ];
    for r in [0.0, 1e-300] {
        let report = validate(&world, &bend, r).unwrap();
        assert_eq!(report.blocked_bends, vec![1], "radius {r:e}");
    }
}

// ---- a plan from a point to itself -------------------------------------------------------

#[test]
fn a_plan_from_a_point_to_itself_is_that_point() {
    let world = room();
    let navmesh = SurfaceWorld::from_navmesh(&NavMesh::from_grid(world.map()).unwrap()).unwrap();
    // A cell centre, and a point off it (grid A* went to the centre and back: a detour).
    for p in [DVec2::new(0.5, 2.5), DVec2::new(1.2, 2.3)] {
        for r in [0.0, 1e-300, 0.2] {
            for step in steps() {
                let name = step.name();
                let mut grid = Pipeline::new(&world, r).unwrap().then(step.clone());
                assert_eq!(grid.plan(p, p), Ok(vec![p]), "grid {name} at {r:e}");
                // A length of +0, not −0.
                assert_eq!(grid.report().validation.length.to_bits(), 0);
                let mut mesh = Pipeline::new(&navmesh, r).unwrap().then(step);
                assert_eq!(mesh.plan(p, p), Ok(vec![p]), "navmesh {name} at {r:e}");
                assert_eq!(mesh.report().validation.length.to_bits(), 0);
            }
            assert_eq!(world.find_path(p, p, r), Ok(vec![p]));
            assert_eq!(navmesh.find_path(p, p, r), Ok(vec![p]));
        }
    }
    // A point without room is refused as any end is.
    let tight = DVec2::new(0.5, 0.1);
    assert!(matches!(
        world.find_path(tight, tight, 0.2),
        Err(Error::TooClose { what: "start", .. })
    ));
    let inside = DVec2::new(2.5, 1.5);
    assert!(matches!(
        world.find_path(inside, inside, 0.0),
        Err(Error::Blocked { what: "start", .. })
    ));
}

// ---- huge coordinates --------------------------------------------------------------------

/// The one error for a coordinate beyond the limit: `index` is the point (None: the world).
fn out_of_range(index: Option<usize>, value: f64, limit: f64) -> Error {
    Error::CoordinateOutOfRange {
        index,
        value,
        limit,
    }
}

#[test]
fn worlds_beyond_the_limit_are_refused_when_built() {
    let limit = max_map_coordinate::<f64>();
    assert_eq!(limit, 2f64.powi(201));
    // The grids: cell size 1e155 and up (a far corner of 3e155 or more).
    for cell in [1e61, 1e155, 1e300, f64::MAX] {
        let e = GridWorld::from_fn(3, 1, cell, DVec2::ZERO, |_, _| true).unwrap_err();
        assert!(
            matches!(e, Error::CoordinateOutOfRange { index: None, limit: l, .. } if l == limit),
            "cell {cell:e}: {e:?}"
        );
    }
    let map = GridMap::from_rows(&["..."]).unwrap();
    assert_eq!(
        GridWorld::with_frame(map, 1.0, DVec2::new(0.0, -1e61)).unwrap_err(),
        out_of_range(None, -1e61, limit)
    );
    // Navmeshes name the vertex.
    let v = [DVec2::ZERO, DVec2::new(1e61, 0.0), DVec2::new(0.0, 1.0)];
    assert_eq!(
        NavMesh::from_polygons(&v, &[vec![0, 1, 2]]).unwrap_err(),
        out_of_range(Some(1), 1e61, limit)
    );
    let scene = Scene {
        boundary: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]],
        holes: vec![vec![[1.0, 1.0], [2.0, 1.0], [1e300, 2.0]]],
    };
    assert_eq!(
        NavMesh::from_scene(&scene).unwrap_err(),
        out_of_range(Some(6), 1e300, limit)
    );
    // The message names the limit, in short form.
    let text = out_of_range(None, 3e155, limit).to_string();
    assert!(
        text.contains("3e155") && text.contains("±3.2138760885179806e60"),
        "{text}"
    );
}

#[test]
fn a_point_beyond_the_limit_gets_the_same_error_from_every_entry() {
    let world = row();
    let limit = max_map_coordinate::<f64>();
    let (a, far) = (DVec2::new(0.5, 0.5), DVec2::new(1e61, 0.5));
    let expected = Err(out_of_range(Some(1), 1e61, limit));
    let mut all = all_entries(&world, &[a, far], 0.25);
    // Without portals the funnel and relaxation number the goal 1 as well.
    all.extend(portal_entries(&[], a, far, 0.25));
    for (name, outcome) in &all {
        assert_eq!(outcome, &expected, "{name}");
    }
    // The start is point 0 wherever ends are given.
    let ends = end_entries(&world, far, a, 0.0);
    for (name, outcome) in ends.iter().chain(&grid_end_entries(&world, far, a, 0.0)) {
        assert_eq!(outcome, &Err(out_of_range(Some(0), 1e61, limit)), "{name}");
    }
    // A portal beyond it is named by its place in the funnel's numbering (start 0).
    let wide = [Portal::new(DVec2::new(1.0, 1e300), DVec2::new(1.0, -1.0))];
    for (name, outcome) in portal_entries(&wide, DVec2::ZERO, DVec2::new(2.0, 0.0), 0.0) {
        assert_eq!(outcome, Err(out_of_range(Some(1), 1e300, limit)), "{name}");
    }
}

#[test]
fn f32_points_beyond_the_f32_limit_get_the_same_error() {
    let world = row();
    let limit = max_map_coordinate::<f32>();
    let (a, far) = (Vec2::new(0.5, 0.5), Vec2::new(1e20, 0.5));
    let path = [a, far];
    let expected = Err(out_of_range(Some(1), f64::from(far.x), limit));
    let chaikin = ChaikinParams::default();
    let outcomes = [
        shown(shortcut(&world, &path, 0.0)),
        shown(map_chaikin(&world, &path, 0.0, &chaikin)),
        shown(validate(&world, &path, 0.0)),
        shown(pathsmooth::fillet(
            &world,
            &path,
            0.0,
            &FilletParams::new(0.5),
        )),
        shown(Pipeline::new(&world, 0.0).and_then(|mut p| p.smooth(&path))),
        shown(Pipeline::new(&world, 0.0).and_then(|mut p| p.plan(a, far))),
    ];
    for outcome in outcomes {
        assert_eq!(outcome, expected);
    }
    // A world an f32 cannot hold is refused for f32 points, not for f64 ones.
    let big = GridWorld::from_fn(3, 1, 1e19, DVec2::ZERO, |_, _| true).unwrap();
    let p = Vec2::new(1e19, 5e18);
    assert_eq!(
        shortcut(&big, &[p, p], 0.0),
        Err(out_of_range(None, 3e19, limit))
    );
    assert!(shortcut(&big, &[p.as_dvec2(), p.as_dvec2()], 0.0).is_ok());
}

/// A caller's world whose extent reaches beyond the limit.
#[derive(Debug)]
struct Vast;

impl World for Vast {
    type Query = ();

    fn bounds(&self) -> Bounds {
        Bounds::new(DVec2::ZERO, DVec2::splat(1e100))
    }
    fn clearance(&self, p: DVec2) -> f64 {
        let b = self.bounds();
        (p - b.min).min(b.max - p).min_element().max(0.0)
    }
    fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        self.clearance(a) >= radius && self.clearance(b) >= radius
    }
}

#[test]
fn a_world_beyond_the_limit_gets_the_same_error_from_every_entry() {
    let error = out_of_range(None, 1e100, max_map_coordinate::<f64>());
    let path = [DVec2::splat(1.0), DVec2::splat(2.0)];
    for (name, outcome) in path_entries(&Vast, &path, 0.0) {
        assert_eq!(outcome, Err(error.clone()), "{name}");
    }
    assert_eq!(Pipeline::new(Vast, 0.0).unwrap_err(), error);
}

#[test]
fn grids_near_the_limit_give_finite_answers() {
    // Cell sizes up to the limit: every step plans and smooths to a finite, valid path (it
    // returned length inf for cell size 1e155 and above, or a false "NaN coordinate").
    for cell in [1e20, 1e56, 1e60] {
        let world = GridWorld::from_fn(3, 1, cell, DVec2::ZERO, |_, _| true).unwrap();
        let (a, b) = (DVec2::new(0.5, 0.5) * cell, DVec2::new(2.5, 0.5) * cell);
        for r in [0.0, 0.2 * cell] {
            for step in steps() {
                let step = match step {
                    Step::Resample { .. } => Step::Resample {
                        spacing: 0.25 * cell,
                    },
                    Step::Fillet(_) => Step::fillet(0.5 * cell),
                    s => s,
                };
                let name = step.name();
                let mut pipeline = Pipeline::new(&world, r).unwrap().then(step);
                for path in [pipeline.plan(a, b), pipeline.smooth(&[a, b])] {
                    let path = path.unwrap_or_else(|e| panic!("{name}, cell {cell:e}: {e}"));
                    assert_eq!((path[0], path[path.len() - 1]), (a, b));
                    let length = pipeline.report().validation.length;
                    // Straight along the row, up to rounding.
                    assert!(
                        (length / (2.0 * cell) - 1.0).abs() < 1e-9,
                        "{name}: {length:e}"
                    );
                    assert!(is_valid(&world, &path, r));
                }
            }
        }
    }
}

// ---- messages ----------------------------------------------------------------------------

#[test]
fn messages_stay_short() {
    // An 8 MiB line of junk quotes a short excerpt.
    let junk = "x".repeat(8 << 20);
    let e = GridMap::parse(&format!("type octile\n{junk}\n"), "junk.map").unwrap_err();
    let text = e.to_string();
    assert!(text.len() < 300, "{} bytes", text.len());
    assert!(text.contains("xxxxxxxx…"), "{text}");
    // A radius of 1e308 is four characters, not 309 digits.
    let e = Pipeline::new(&row(), -1e308).unwrap_err();
    assert!(e.to_string().contains("= -1e308 is out of range"), "{e}");
    let e = Pipeline::new(&row(), 1e308).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no room for an agent of radius 1e308: the largest clearance in the world is 0.5"
    );
}
