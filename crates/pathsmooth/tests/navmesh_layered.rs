//! Paths on the real multi-level Recast bakes of `tests/data/navmesh/` (Recast's demo
//! levels baked with `rerecast`; see its SOURCES.md), checked by the independent oracle of
//! `common/surface_oracle.rs`: random queries between points of one connected piece,
//!
//! - at radius 0, the query's path walks the surface from polygon to polygon on one floor,
//!   each point lies in the polygon it names at the height of that floor, and its plan-view
//!   length equals the oracle's visibility-graph optimum;
//! - at radius 0.3 and 0.5, the planner's paths (no steps, the Smooth and Corridor presets) keep the
//!   radius from every wall of their floor by the oracle's walk and wall distances; every
//!   refusal of a start or goal as too close to a wall is confirmed by the oracle.
#![cfg(feature = "serde")]

use crate::common;

use common::rng::Rng;
use common::surface_oracle::{
    check_on_surface, pairs, plan_areas, plan_length, random_point, SurfaceOracle,
};
use glam::{DVec2, DVec3};
use pathsmooth::navmesh::parse_surface_json;
use pathsmooth::navmesh::{
    PointFlags, PolyId, Surface, SurfaceMesh, SurfaceOptions, SurfacePoint, SurfaceQuery, UpAxis,
};
use pathsmooth::{Error, Pipeline, Preset, SurfaceWorld, SurfaceWorldQuery, World};

fn surface(name: &str) -> Surface {
    let path = format!(
        "{}/tests/data/navmesh/{name}.navmesh.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let options = SurfaceOptions {
        split_t_junctions: true,
        ..SurfaceOptions::new(UpAxis::Y)
    };
    parse_surface_json(&text, name, &options).unwrap()
}

#[test]
fn radius_zero_paths_are_the_exact_shortest_on_the_surface() {
    let queries = if std::env::var_os("PATHSMOOTH_SLOW").is_some() {
        1000
    } else {
        200
    };
    for (name, seed) in [
        ("dungeon", 1),
        ("nav_test", 2),
        ("dungeon.r0", 3),
        ("nav_test.r0", 4),
    ] {
        let s = surface(name);
        let oracle = SurfaceOracle::new(&s);
        let mesh = SurfaceMesh::new(s.clone()).unwrap();
        let mut query = SurfaceQuery::new();
        let (mut worst, mut total, mut climbs) = (0.0f64, 0.0, 0);
        for (k, [a, b]) in pairs(&s, seed, queries).into_iter().enumerate() {
            let path = query
                .find_path(&mesh, a.1, b.1, 0.0)
                .unwrap_or_else(|e| panic!("{name} query {k}: {e}"))
                .to_vec();
            assert_eq!(
                (path[0].polygon, path.last().unwrap().polygon),
                (a.0, b.0),
                "{name} query {k}"
            );
            assert_eq!(
                (path[0].position, path.last().unwrap().position),
                (a.1, b.1)
            );
            check_on_surface(&oracle, &s, &path, 0.0);
            let up = s.up();
            let best = oracle
                .shortest((a.0, up.plan(a.1)), (b.0, up.plan(b.1)))
                .unwrap_or_else(|| panic!("{name} query {k}: the oracle finds no path"));
            let length = plan_length(&s, &path);
            let excess = (length - best) / best;
            assert!(
                excess.abs() <= 1e-9,
                "{name} query {k}: length {length}, the shortest is {best}"
            );
            worst = worst.max(excess.abs());
            total += length;
            climbs += usize::from((s.up().height(a.1) - s.up().height(b.1)).abs() > 2.0);
        }
        eprintln!("{name}: {queries} queries at radius 0 ({climbs} between floors over 2 m apart), {total:.1} m in all, largest relative difference to the oracle {worst:.1e}");
        assert!(
            climbs >= queries / 20,
            "{name}: only {climbs} queries change floors"
        );
    }
}

#[test]
fn radius_paths_keep_the_radius_on_their_floor() {
    let queries = if std::env::var_os("PATHSMOOTH_SLOW").is_some() {
        400
    } else {
        100
    };
    for (name, seed) in [("dungeon.r0", 5), ("nav_test.r0", 6)] {
        let s = surface(name);
        let oracle = SurfaceOracle::new(&s);
        let mesh = SurfaceMesh::new(s.clone()).unwrap();
        for radius in [0.3, 0.5] {
            let presets = [
                (None, "no steps"),
                (Some(Preset::Smooth), "Smooth"),
                (Some(Preset::Corridor), "Corridor"),
            ];
            for (preset, label) in presets {
                let mut planner = match preset {
                    None => Pipeline::new(SurfaceWorld::new(mesh.clone()), radius),
                    Some(p) => Pipeline::preset(SurfaceWorld::new(mesh.clone()), radius, p),
                }
                .unwrap();
                let (mut ok, mut too_close, mut narrow, mut points, mut skipped) = (0, 0, 0, 0, 0);
                for (k, [a, b]) in pairs(&s, seed, queries).into_iter().enumerate() {
                    match planner.plan_surface(a.1, b.1) {
                        Ok(path) => {
                            let path = path.to_vec();
                            check_on_surface(&oracle, &s, &path, radius);
                            ok += 1;
                            points += path.len();
                            skipped += planner.report().skipped.len();
                            if std::env::var_os("SHOW_SKIPS").is_some() {
                                for (step, why) in &planner.report().skipped {
                                    eprintln!("  skip {step}: {why}");
                                }
                            }
                        }
                        Err(Error::TooClose { what, .. }) => {
                            let (p, at) = if what == "start" { a } else { b };
                            let at = s.up().plan(at);
                            let c = oracle.segment_clearance(p, at, at, p, radius).unwrap();
                            assert!(c < radius, "{name} r {radius} query {k}: {what} {a:?} {b:?} refused as too close, the oracle says {c}");
                            too_close += 1;
                        }
                        Err(e @ Error::ChannelTooNarrow { .. }) => {
                            if std::env::var_os("SHOW_SKIPS").is_some() {
                                eprintln!("  {name} r {radius} query {k} {a:?} {b:?}: {e}");
                            }
                            narrow += 1
                        }
                        Err(e) => panic!("{name} r {radius} {label} query {k} {a:?} {b:?}: {e}"),
                    }
                }
                eprintln!("{name} r {radius} {label}: {ok} paths ({points} points, {skipped} steps skipped), {too_close} ends too close to a wall, {narrow} too narrow");
                assert!(
                    ok >= queries / 2,
                    "{name} r {radius} {label}: only {ok} of {queries} queries found a path"
                );
            }
        }
    }
}

/// The oracle can fail: it refuses a segment that jumps floors (from a lower polygon to a
/// point that in plan view lies in a polygon stacked above it), and a path that comes too
/// close to a wall.
#[test]
fn the_oracle_refuses_a_floor_change_and_a_wall_too_near() {
    let s = surface("nav_test");
    let oracle = SurfaceOracle::new(&s);
    let up = s.up();
    let areas = plan_areas(&s);
    let mut rng = Rng::new(7);
    let mut stacked = 0;
    for _ in 0..2000 {
        let (p, a) = random_point(&s, &mut rng, &areas);
        let a = up.plan(a);
        // A polygon on another floor over or under `a`.
        let Some(q) = (0..s.num_polygons() as PolyId).find(|&q| {
            q != p && oracle.inside(q, a) && (s.height_at(q, a) - s.height_at(p, a)).abs() > 1.0
        }) else {
            continue;
        };
        stacked += 1;
        assert_eq!(
            oracle.segment_clearance(p, a, a, q, 1.0),
            None,
            "a step from polygon {p} onto {q}"
        );
        assert!(oracle.segment_clearance(p, a, a, p, 1.0).is_some());
    }
    assert!(
        stacked > 50,
        "only {stacked} points under or over another floor"
    );
    // A corner of a wall is 0 from the wall.
    let v = (0..s.vertices().len() as u32)
        .find(|&v| {
            (0..s.num_polygons() as PolyId).any(|p| {
                let ring = s.polygon(p);
                ring.iter()
                    .position(|&x| x == v)
                    .is_some_and(|i| s.neighbors(p).nth(i).flatten().is_none())
            })
        })
        .unwrap();
    let p = (0..s.num_polygons() as PolyId)
        .find(|&p| s.polygon(p).contains(&v))
        .unwrap();
    let at = up.plan(s.vertices()[v as usize]);
    assert_eq!(oracle.segment_clearance(p, at, at, p, 1.0), Some(0.0));
}

/// Two floors stacked 5 apart and joined only by a one-way link (a ladder down the side of
/// a block of wall on the lower floor): the query takes it, flags its ends, and every
/// smoothing step keeps them where the link put them.
fn linked_floors() -> SurfaceMesh {
    use pathsmooth::navmesh::OffMeshLink;
    // Each floor is a 10 × 10 square round a 2 × 4 block (x 4..6, z 3..7): four quads.
    let mut v = Vec::new();
    let mut polygons = Vec::new();
    for h in [0.0, 5.0] {
        let o = v.len() as u32;
        for (x, z) in [
            (0.0, 0.0),
            (10.0, 0.0),
            (10.0, 10.0),
            (0.0, 10.0),
            (4.0, 3.0),
            (6.0, 3.0),
            (6.0, 7.0),
            (4.0, 7.0),
        ] {
            v.push(DVec3::new(x, h, z));
        }
        for q in [[0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]] {
            polygons.push(q.map(|i| i + o).to_vec());
        }
    }
    let surface = Surface::from_polygons(&v, &polygons, UpAxis::Y, 0.0).unwrap();
    let link = OffMeshLink::new(DVec3::new(8.0, 0.0, 8.0), DVec3::new(8.0, 5.0, 2.0), 0.5);
    SurfaceMesh::new(surface.with_links(&[link]).unwrap()).unwrap()
}

#[test]
fn a_route_takes_a_link_and_flags_its_ends() {
    let mesh = linked_floors();
    let mut query = SurfaceQuery::new();
    let (a, b) = (DVec3::new(1.0, 0.0, 1.0), DVec3::new(1.0, 5.0, 9.0));
    let path = query.find_path(&mesh, a, b, 0.0).unwrap().to_vec();
    let k = path
        .iter()
        .position(|p| p.flags.contains(PointFlags::LINK_START))
        .unwrap();
    assert_eq!(path[k].position, DVec3::new(8.0, 0.0, 8.0));
    assert_eq!(path[k + 1].position, DVec3::new(8.0, 5.0, 2.0));
    assert!(path[k + 1].flags.contains(PointFlags::LINK_END));
    assert_eq!(
        path.iter()
            .filter(|p| p.flags.contains(PointFlags::START))
            .count(),
        1
    );
    assert_eq!(
        path.iter()
            .filter(|p| p.flags.contains(PointFlags::END))
            .count(),
        1
    );
    assert!(path[..=k]
        .iter()
        .all(|p| p.position.y == 0.0 && p.polygon < 4));
    assert!(path[k + 1..]
        .iter()
        .all(|p| p.position.y == 5.0 && p.polygon >= 4));
    let legs = query.legs();
    assert_eq!((legs.len(), legs[0].link, legs[1].link), (2, Some(0), None));
    // Each leg is the exact shortest: round the block's corner (6, 3) below, from (1, 1)
    // to the ladder's foot (8, 8), and round (6, 7) above, from its top (8, 2) to (1, 9):
    // each √29 + √29.
    let plan = |p: &SurfacePoint| DVec2::new(p.position.x, p.position.z);
    let walk = |leg: &[SurfacePoint]| {
        leg.windows(2)
            .map(|w| plan(&w[0]).distance(plan(&w[1])))
            .sum::<f64>()
    };
    assert!((walk(&path[..=k]) - 2.0 * 29f64.sqrt()).abs() < 1e-12);
    assert!((walk(&path[k + 1..]) - 2.0 * 29f64.sqrt()).abs() < 1e-12);
    // The link is one way: back up is unreachable, named in 3D with both pieces.
    let e = query.find_path(&mesh, b, a, 0.0).unwrap_err();
    assert!(
        matches!(e, Error::UnreachableOnSurface { start_piece, goal_piece, .. } if start_piece != goal_piece),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("no walk on the surface and no off-mesh link joins the two pieces"),
        "{e}"
    );
}

#[test]
fn every_smoothing_step_keeps_the_link_ends() {
    use pathsmooth::Step;
    let mesh = linked_floors();
    let (a, b) = (DVec3::new(1.0, 0.0, 1.0), DVec3::new(1.0, 5.0, 9.0));
    let steps = [
        Step::Shortcut,
        Step::chaikin(),
        Step::catmull_rom(),
        Step::Funnel,
        Step::relax(),
        Step::corridor(),
        Step::fillet(0.5),
    ];
    for step in steps {
        let name = step.name();
        let mut planner = Pipeline::new(SurfaceWorld::new(mesh.clone()), 0.4)
            .unwrap()
            .then(step);
        let path = planner
            .plan_surface(a, b)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .to_vec();
        let k = path
            .iter()
            .position(|p| p.flags.contains(PointFlags::LINK_START))
            .unwrap_or_else(|| panic!("{name}: no link start"));
        assert_eq!(path[k].position, DVec3::new(8.0, 0.0, 8.0), "{name}");
        assert_eq!(path[k + 1].position, DVec3::new(8.0, 5.0, 2.0), "{name}");
        assert!(path[k + 1].flags.contains(PointFlags::LINK_END), "{name}");
        assert_eq!(
            (path[0].position, path.last().unwrap().position),
            (a, b),
            "{name}"
        );
        assert!(planner.report().validation.min_clearance >= 0.4, "{name}");
    }
}

/// The area filter on a real bake with Recast areas (`dungeon.areas`: areas 1–4 on 19
/// polygons, 63 on the rest): with areas 1–4 excluded, the query's corridor and the
/// planner's smoothed path (radius 0 and 0.3, Smooth) never touch one of their polygons;
/// an end in one is `ExcludedArea`. With the areas only costly (8), the planner's steps
/// are checked by the pipeline (no step may raise the leg's cost).
#[test]
fn the_area_filter_keeps_paths_out_of_excluded_areas_on_a_real_bake() {
    let s = surface("dungeon.areas");
    let special = |p: PolyId| (1..=4).contains(&s.area(p));
    assert!(
        (0..s.num_polygons() as PolyId).any(special),
        "the bake has areas 1–4"
    );
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let areas = plan_areas(&s);
    let mut rng = Rng::new(28);
    let (mut found, mut refused) = (0, 0);
    for radius in [0.0, 0.3] {
        let mut query = SurfaceQuery::new();
        query.set_area_costs("1=exclude,2=exclude,3=exclude,4=exclude".parse().unwrap());
        let mut planner =
            Pipeline::preset(SurfaceWorld::new(mesh.clone()), radius, Preset::Smooth).unwrap();
        planner.set_area_costs("1=exclude,2=exclude,3=exclude,4=exclude".parse().unwrap());
        let mut costly =
            Pipeline::preset(SurfaceWorld::new(mesh.clone()), radius, Preset::Smooth).unwrap();
        costly.set_area_costs("1=8,2=8,3=8,4=8".parse().unwrap());
        for _ in 0..60 {
            let (pa, a) = random_point(&s, &mut rng, &areas);
            let (pb, b) = random_point(&s, &mut rng, &areas);
            match query.find_path_between(&mesh, (pa, a), (pb, b), radius) {
                Ok(_) => {
                    found += 1;
                    assert!(!query.polygons().iter().any(|&p| special(p)), "{a} → {b}");
                }
                Err(Error::ExcludedArea { .. }) => {
                    assert!(special(pa) || special(pb));
                    refused += 1;
                    continue;
                }
                Err(_) => continue,
            }
            if let Ok(path) = planner.plan_surface(a, b) {
                // At radius 0 a point may touch an excluded polygon's edge (a wall now),
                // and be named by it; never lie inside one.
                let inside_special = |p: &SurfacePoint| {
                    special(p.polygon) && edge_distance(&s, p.polygon, p.position) > 1e-6
                };
                assert!(!path.iter().any(inside_special), "{a} → {b} r {radius}");
                if radius > 0.0 {
                    assert!(
                        path.iter().all(|p| !special(p.polygon)),
                        "{a} → {b} r {radius}"
                    );
                }
            }
            if costly.plan_surface(a, b).is_ok() {
                let r = costly.report();
                assert!(r.cost <= r.input_cost * (1.0 + 1e-9), "{a} → {b}: {r:?}");
            }
        }
    }
    assert!(found > 20, "only {found} paths found");
    println!("{found} paths, {refused} ends refused as excluded");
}

/// The plan-view distance from `p` to the boundary of polygon `poly`.
fn edge_distance(s: &Surface, poly: PolyId, p: DVec3) -> f64 {
    let ring: Vec<DVec2> = s.plan_polygon(poly).collect();
    let q = s.up().plan(p);
    (0..ring.len())
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            let t = ((q - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            q.distance(a + (b - a) * t)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The floors under plan-view point `p`, counted by brute force over every polygon: the
/// heights of the polygons holding it, clustered where they lie within `climb`.
fn floors_under(s: &Surface, p: DVec2, climb: f64) -> usize {
    let mut heights: Vec<f64> = (0..s.num_polygons() as PolyId)
        .filter(|&q| s.contains_plan(q, p))
        .map(|q| s.floor_height(q, p))
        .collect();
    heights.sort_by(f64::total_cmp);
    if heights.is_empty() {
        return 0;
    }
    1 + heights.windows(2).filter(|w| w[1] - w[0] > climb).count()
}

/// One planner for 3D and 2D ends: on a surface world, a 2D plan whose ends lie over one
/// floor each is the plan view of the 3D plan between the same points (the same search,
/// sheet and steps), and an end over several floors is refused naming how many (the
/// brute-force count agrees): never a silent pick. Before any plan the world has no sheet
/// and answers nothing clear; after one, its answers are the sheet's.
#[test]
fn two_d_ends_plan_on_the_one_floor_under_them_or_are_refused() {
    let s = surface("nav_test.r0");
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let up = s.up();
    let world = SurfaceWorld::new(mesh);
    let [a, b] = pairs(&s, 9, 1)[0];
    let (a2, b2) = (up.plan(a.1), up.plan(b.1));
    assert!(world.sheet().is_none());
    assert_eq!(world.clearance(a2), 0.0);
    assert!(!world.segment_is_clear(a2, b2, 0.0));
    let mut pipeline = Pipeline::preset(world, 0.3, Preset::Smooth).unwrap();
    let climb = pipeline.surface_query().climb(&s);
    // Only a plan cuts a sheet: the world's own search before one says so (after
    // checking the ends' floors).
    let e = pipeline.world().find_path(a2, b2, 0.0).unwrap_err();
    let counts = [floors_under(&s, a2, climb), floors_under(&s, b2, climb)];
    if counts == [1, 1] {
        assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    } else {
        assert!(matches!(e, Error::OverSeveralFloors { .. }), "{e}");
    }
    let (mut same, mut several) = (0, 0);
    for (k, [a, b]) in pairs(&s, 9, 60).into_iter().enumerate() {
        let (a2, b2) = (up.plan(a.1), up.plan(b.1));
        let flat = pipeline.plan(a2, b2);
        let counts = [floors_under(&s, a2, climb), floors_under(&s, b2, climb)];
        // The floor point of a 2D end: on the one floor under it (the oracle's count),
        // refused over several, never a silent pick.
        let mut query = SurfaceWorldQuery::default();
        match pipeline.world().floor_point(a2, &mut query) {
            Ok(p) => {
                assert_eq!((counts[0], up.plan(p)), (1, a2), "query {k}");
                let lowest = (0..s.num_polygons() as PolyId)
                    .filter(|&q| s.contains_plan(q, a2))
                    .map(|q| s.floor_height(q, a2))
                    .fold(f64::INFINITY, f64::min);
                assert_eq!(up.height(p), lowest, "query {k}");
            }
            Err(Error::OverSeveralFloors { floors, .. }) => assert_eq!(counts[0], floors),
            Err(e) => assert_eq!(counts[0], 0, "query {k}: {e}"),
        }
        match flat {
            Ok(flat) => {
                assert_eq!(counts, [1, 1], "query {k}");
                assert!(pipeline.world().sheet().is_some(), "a plan cuts a sheet");
                // The sheet's clearance: the world's answers are its sheet's.
                assert!(pipeline.world().clearance(a2) >= 0.3, "query {k}");
                let three = pipeline.plan_surface(a.1, b.1).unwrap();
                let plan: Vec<DVec2> = three.iter().map(|p| up.plan(p.position)).collect();
                assert_eq!(flat, plan, "query {k}");
                same += 1;
                // From an end to itself: one point, of length +0 (a float sum of nothing
                // is −0, which printed as `-0.000`).
                let one = pipeline.plan_surface(a.1, a.1).unwrap().len();
                let length = pipeline.report().validation.length;
                assert_eq!((one, length.to_bits()), (1, 0.0f64.to_bits()), "query {k}");
            }
            Err(Error::OverSeveralFloors { what, floors, .. }) => {
                let i = usize::from(what == "goal");
                assert_eq!(counts[i], floors, "query {k} {what}");
                assert!(floors > 1, "query {k}");
                several += 1;
            }
            // Refused as the 3D plan is (too close to a wall, too narrow).
            Err(e) => assert!(
                counts.contains(&0) || pipeline.plan_surface(a.1, b.1).is_err(),
                "query {k}: {e}"
            ),
        }
    }
    assert!(same > 10, "{same} 2D plans matched the 3D ones");
    eprintln!("{same} 2D plans matched the 3D ones, {several} ends over several floors");
}

/// `move_along_surface` with the area filter on a real bake: a move from a polygon of an
/// allowed area never ends inside an excluded one, nor visits one; with the filter off
/// the same moves do enter them (so the filter is what keeps them out). Bad input is
/// refused with the error that names it.
#[test]
fn moves_along_the_surface_keep_out_of_excluded_areas_and_refuse_bad_input() {
    let s = surface("dungeon.areas");
    let special = |p: PolyId| (1..=4).contains(&s.area(p));
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let areas = plan_areas(&s);
    let mut rng = Rng::new(29);
    let mut filtered = SurfaceQuery::new();
    filtered.set_area_costs("1=exclude,2=exclude,3=exclude,4=exclude".parse().unwrap());
    let mut plain = SurfaceQuery::new();
    let (mut moves, mut entered) = (0, 0);
    while moves < 2000 {
        let (p, start) = random_point(&s, &mut rng, &areas);
        if special(p) {
            continue;
        }
        moves += 1;
        let step = DVec3::new(rng.range(-8.0, 8.0), 0.0, rng.range(-8.0, 8.0));
        let (q, at) = filtered
            .move_along_surface(&mesh, (p, start), start + step)
            .unwrap();
        assert!(
            !filtered.visited().iter().any(|&v| special(v)),
            "{start} + {step}"
        );
        assert!(
            !special(q),
            "{start} + {step}: ends at {at} in {q}, of area {}",
            s.area(q)
        );
        let (q, _) = plain
            .move_along_surface(&mesh, (p, start), start + step)
            .unwrap();
        entered += usize::from(special(q));
    }
    assert!(
        entered > 20,
        "only {entered} unfiltered moves ended in areas 1–4"
    );

    let (p, start) = random_point(&s, &mut rng, &areas);
    let n = s.num_polygons() as PolyId;
    let mut q = SurfaceQuery::new();
    let bad = |r: pathsmooth::Result<(PolyId, DVec3)>| r.unwrap_err();
    assert!(matches!(
        bad(q.move_along_surface(&mesh, (n, start), start)),
        Error::BadParameter { .. }
    ));
    assert_eq!(
        bad(q.move_along_surface(&mesh, (p, start), DVec3::new(f64::NAN, 0.0, 0.0))),
        Error::NonFinite { index: 1 }
    );
    assert_eq!(
        bad(q.move_along_surface(&mesh, (p, start * f64::INFINITY), start)),
        Error::NonFinite { index: 0 }
    );
    assert!(matches!(
        bad(q.move_along_surface(&mesh, (p, start), DVec3::new(1e300, 0.0, 0.0))),
        Error::CoordinateOutOfRange { index: Some(1), .. }
    ));
    let far = start + DVec3::new(1000.0, 0.0, 0.0);
    assert!(matches!(
        bad(q.move_along_surface(&mesh, (p, far), start)),
        Error::OutsideMesh { what: "start", .. }
    ));
}
