//! The one navmesh world on data we did not make (issue 39): a flat navmesh is planned
//! through the [`SurfaceWorld`] of it ([`Surface::from_navmesh`], a surface of one floor),
//! the world every binding uses, and each path is judged by an oracle that reads only the
//! source: a Moving AI map's cells (exact clearance) or a Polyanya `.mesh` file's polygon
//! sides. Plans and the smoothing of a given path; Moving AI's maps (their grid navmeshes,
//! the scenario files' ends) and Polyanya's `.mesh` files (random points, fixed seeds).
//! That the surface world answers as the flat world under it does (the same errors, the
//! same points) is a unit test in the crate (`world::one_floor_tests`), where that world
//! is.

use crate::common;

use std::sync::Arc;

use common::exact::{coordinate_slack, first_violation};
use common::oracle::{inside_walls, mesh_file, mesh_walls, segments_distance};
use common::rng::Rng;
use glam::DVec2;
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::{parse, GroundPlane, MeshFormat, NavMesh, Surface, SurfaceMesh, UpAxis};
use pathsmooth::{AreaCosts, Pipeline, Preset, SurfaceWorld, World};

const PRESETS: [Preset; 2] = [Preset::Shortest, Preset::Smooth];

/// The one-floor surface of `mesh`, asserted to be one floor.
fn one_floor(mesh: &NavMesh) -> Arc<SurfaceMesh> {
    let surface = SurfaceMesh::new(Surface::from_navmesh(mesh, UpAxis::Z).unwrap()).unwrap();
    assert!(surface.is_one_floor());
    Arc::new(surface)
}

/// Judges a path on a grid map by the cells alone: at a radius, exactly (every point at
/// least `r` from every blocked cell, less the rounding of its coordinates); at radius 0,
/// where a path may run along walls, its points at the quarters of every segment each in
/// the closed square of a free cell.
pub(crate) fn judge(map: &GridMap, path: &[DVec2], r: f64, what: &str) {
    if r > 0.0 {
        if let Some((i, why)) = first_violation(map, path, r, coordinate_slack) {
            panic!("{what}, segment {i}: {why}");
        }
        return;
    }
    let free = |p: DVec2| {
        let (x, y) = (p.x.floor() as i64, p.y.floor() as i64);
        let (x0, y0) = (p.x.ceil() as i64 - 1, p.y.ceil() as i64 - 1);
        [(x, y), (x0, y), (x, y0), (x0, y0)]
            .into_iter()
            .any(|(x, y)| x >= 0 && y >= 0 && !map.is_blocked(x, y))
    };
    for (i, s) in path.windows(2).enumerate() {
        for t in [0.25, 0.5, 0.75] {
            assert!(
                free(s[0].lerp(s[1], t)),
                "{what}, segment {i} enters a blocked cell"
            );
        }
    }
}

/// The surface world of `surface` in a pipeline of `preset` for radius `r`.
fn pipeline(surface: &Arc<SurfaceMesh>, r: f64, preset: Preset) -> Pipeline<SurfaceWorld> {
    Pipeline::preset(SurfaceWorld::new(Arc::clone(surface)), r, preset).unwrap()
}

#[test]
fn moving_ai_navmeshes_plan_and_smooth_on_the_surface_world() {
    let (mut paths, mut errors) = (0, 0);
    for (name, map, scen) in common::real_maps(&common::NAVMESH_MAPS) {
        let surface = one_floor(&NavMesh::from_grid(&map).unwrap());
        for preset in PRESETS {
            for r in [0.0, 0.3] {
                let mut planner = pipeline(&surface, r, preset);
                let what = format!("{name} {preset:?} r {r}");
                for s in common::sweep(&scen, 6, 20) {
                    let (a, b) = (s.start_point(), s.goal_point());
                    let Ok(path) = planner.plan(a, b) else {
                        errors += 1;
                        continue;
                    };
                    paths += 1;
                    judge(&map, &path, r, &format!("{what}: {a} → {b}"));
                    // A caller's path: the plan's corners, nudged off them (a path that
                    // the smoothing may have to re-plan in part).
                    let nudged: Vec<DVec2> = path
                        .iter()
                        .enumerate()
                        .map(|(k, &p)| p + DVec2::new(0.01, -0.01) * (k % 3) as f64)
                        .collect();
                    if let Ok(smoothed) = planner.smooth(&nudged) {
                        judge(&map, &smoothed, r, &format!("{what}: smoothed {a} → {b}"));
                    }
                }
            }
        }
    }
    println!("{paths} paths and {errors} errors");
    assert!(paths >= 60, "{paths} paths");
}

#[test]
fn polyanya_meshes_plan_on_the_surface_world_between_random_points() {
    let (mut paths, mut errors) = (0, 0);
    for (k, (name, text)) in common::fixtures::polyanya_mesh_files().iter().enumerate() {
        let mesh = parse(text, MeshFormat::Mesh, GroundPlane::default(), name).unwrap();
        let walls = mesh_walls(text);
        let (lo, hi) = walls
            .iter()
            .flatten()
            .fold((DVec2::INFINITY, DVec2::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            });
        let size = (hi - lo).max_element();
        let surface = one_floor(&mesh);
        let mut rng = Rng::new(39 + k as u64);
        // Points the file's own sides say are inside (an oracle's pick, not the library's).
        let mut inside = || loop {
            let p = DVec2::new(rng.range(lo.x, hi.x), rng.range(lo.y, hi.y));
            if inside_walls(p, &walls) {
                return p;
            }
        };
        let ends: Vec<[DVec2; 2]> = (0..40).map(|_| [inside(), inside()]).collect();
        for preset in PRESETS {
            for r in [0.0, 0.02 * size] {
                let mut planner = pipeline(&surface, r, preset);
                let what = format!("{name} {preset:?} r {r}");
                for &[a, b] in &ends {
                    let Ok(path) = planner.plan(a, b) else {
                        errors += 1;
                        continue;
                    };
                    paths += 1;
                    for (i, s) in path.windows(2).enumerate() {
                        let to_walls = |p, q| {
                            walls
                                .iter()
                                .map(|&w| segments_distance(p, q, w))
                                .fold(f64::INFINITY, f64::min)
                        };
                        // A midpoint on a wall (a path along it) may test either way.
                        let mid = s[0].lerp(s[1], 0.5);
                        assert!(
                            inside_walls(mid, &walls) || to_walls(mid, mid) <= 1e-9 * size,
                            "{what}: {a} → {b}, segment {i} leaves the mesh"
                        );
                        let clearance = to_walls(s[0], s[1]);
                        assert!(
                            clearance >= r - 1e-9 * size,
                            "{what}: {a} → {b}, segment {i} {clearance} from a wall"
                        );
                    }
                }
            }
        }
    }
    println!("{paths} paths and {errors} errors");
    assert!(paths > 1000, "{paths} paths");
}

#[test]
fn world_area_costs_plan_on_the_surface_world() {
    // Moving AI's maps with their navmeshes' polygons put in areas at random (fixed
    // seeds): area 2 costs 4, area 3 is excluded, as the world's costs.
    let costs: AreaCosts = "2=4,3=exclude".parse().unwrap();
    let mut paths = 0;
    for (k, (name, map, scen)) in common::real_maps(&common::NAVMESH_MAPS).enumerate() {
        let grid = NavMesh::from_grid(&map).unwrap();
        let polygons: Vec<Vec<u32>> = (0..grid.num_polygons())
            .map(|i| grid.polygon(i).to_vec())
            .collect();
        let mut rng = Rng::new(390 + k as u64);
        let areas: Vec<u8> = polygons
            .iter()
            .map(|_| match rng.unit() {
                u if u < 0.15 => 2,
                u if u < 0.2 => 3,
                _ => 1,
            })
            .collect();
        let mesh = NavMesh::from_polygons_with_areas(grid.vertices(), &polygons, &areas).unwrap();
        let surface = one_floor(&mesh);
        let layered = SurfaceWorld::new(Arc::clone(&surface))
            .with_area_costs(costs.clone())
            .unwrap();
        assert_eq!(layered.area_costs(), Some(&costs));
        // What a crowd walks on it: the whole plan view, with the costs.
        assert_eq!(World::cost_filter(&layered), Some(&costs));
        let excluded: Vec<Vec<DVec2>> = polygons
            .iter()
            .zip(&areas)
            .filter(|&(_, &a)| a == 3)
            .map(|(p, _)| p.iter().map(|&v| grid.vertices()[v as usize]).collect())
            .collect();
        for r in [0.0, 0.3] {
            let mut planner = Pipeline::preset(layered.clone(), r, Preset::Smooth).unwrap();
            let what = format!("{name} r {r}");
            for s in common::sweep(&scen, 6, 20) {
                let (a, b) = (s.start_point(), s.goal_point());
                let Ok(path) = planner.plan(a, b) else {
                    continue;
                };
                paths += 1;
                judge(&map, &path, r, &format!("{what}: {a} → {b}"));
                for w in path.windows(2) {
                    // Finite: the path crosses no excluded area.
                    assert!(
                        layered.segment_cost(w[0], w[1]).is_finite(),
                        "{what}: {a} → {b}"
                    );
                    // No point of the path strictly inside an excluded polygon.
                    for t in [0.25, 0.5, 0.75] {
                        let p = w[0].lerp(w[1], t);
                        assert!(
                            !excluded.iter().any(|ring| strictly_inside(p, ring)),
                            "{what}: {a} → {b} at {p} in an excluded polygon"
                        );
                    }
                }
            }
        }
    }
    println!("{paths} paths under area costs");
    assert!(paths >= 20, "{paths} paths");
}

/// True when `p` lies strictly inside the convex counter-clockwise ring.
fn strictly_inside(p: DVec2, ring: &[DVec2]) -> bool {
    (0..ring.len()).all(|i| {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        (b - a).perp_dot(p - a) > 1e-12
    })
}

/// `route_world` on Polyanya's `.mesh` files (random points, a fixed seed): each of the
/// route's polygons is one of the file's (or a piece of one the library cut into convex
/// pieces), named by the file polygon's reference: its plan-view corners are that
/// polygon's, as the oracle reads the file. And the planned path lies in the polygons
/// so named: every point of it (at the eighths of each segment) in or on one of them.
#[test]
fn routes_keep_the_files_polygons_and_their_references() {
    let mut routes = 0;
    for (k, (name, text)) in common::fixtures::polyanya_mesh_files().iter().enumerate() {
        let mesh = parse(text, MeshFormat::Mesh, GroundPlane::default(), name).unwrap();
        let (vertices, rings) = mesh_file(text);
        let file: Vec<Vec<DVec2>> = rings
            .iter()
            .map(|ring| ring.iter().map(|&v| vertices[v]).collect())
            .collect();
        let world = SurfaceWorld::new(one_floor(&mesh));
        let walls = mesh_walls(text);
        let mut rng = Rng::new(390 + k as u64);
        let (lo, hi) = walls
            .iter()
            .flatten()
            .fold((DVec2::INFINITY, DVec2::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            });
        let mut inside = || loop {
            let p = DVec2::new(rng.range(lo.x, hi.x), rng.range(lo.y, hi.y));
            if inside_walls(p, &walls) {
                return p;
            }
        };
        for _ in 0..10 {
            let (a, b) = (inside(), inside());
            let Ok(path) = world.find_path(a, b, 0.0) else {
                continue;
            };
            let route = world.route_world(&path, 0).unwrap();
            let kept = route.mesh().surface();
            let mut named = Vec::new();
            for p in 0..kept.num_polygons() as u32 {
                let r = kept.polygon_ref(p) as usize;
                for c in kept.plan_polygon(p) {
                    assert!(
                        file[r].contains(&c),
                        "{name}: corner {c} of the route's polygon {p} is not one of the file's polygon {r}"
                    );
                }
                named.push(&file[r]);
            }
            for s in path.windows(2) {
                for i in 0..=8 {
                    let q = s[0].lerp(s[1], i as f64 / 8.0);
                    assert!(
                        named.iter().any(|ring| in_or_on(q, ring)),
                        "{name}: {a} → {b}: {q} is in none of the route's polygons"
                    );
                }
            }
            routes += 1;
        }
    }
    assert!(routes > 80, "{routes} routes");
}

/// Whether `q` lies in the polygon `ring` (even–odd) or within 10⁻⁹ of its boundary.
fn in_or_on(q: DVec2, ring: &[DVec2]) -> bool {
    let sides = || (0..ring.len()).map(|i| [ring[i], ring[(i + 1) % ring.len()]]);
    sides().any(|w| segments_distance(q, q, w) <= 1e-9)
        || inside_walls(q, &sides().collect::<Vec<_>>())
}
