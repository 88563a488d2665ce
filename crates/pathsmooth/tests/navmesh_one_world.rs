//! One world for flat and layered navmeshes (issue 39): a flat navmesh planned through the
//! layered world of it — a [`SurfaceWorld`] of [`Surface::from_navmesh`], a surface of one
//! floor — answers as its own [`NavMeshWorld`] does: the same errors, and the same paths
//! (the same points, each within 10⁻⁹ of the mesh's size: where a polygon of more than
//! three sides is cut into other triangles, a radius's arcs are computed from other
//! triangles' sides), for plans and for smoothing a given path. This is what lets a
//! binding's navmesh world be the surface world of one floor.
//!
//! On data we did not make: Moving AI's maps (their grid navmeshes, the scenario files'
//! ends) and Polyanya's `.mesh` files (random points, fixed seeds). Each path is also
//! judged by an oracle that reads only the map's cells (exact clearance) or the `.mesh`
//! file's polygon sides.

use crate::common;

use std::sync::Arc;

use common::exact::{coordinate_slack, first_violation};
use common::oracle::{inside_walls, mesh_walls, segments_distance};
use common::rng::Rng;
use glam::DVec2;
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::{parse, GroundPlane, MeshFormat, NavMesh, Surface, SurfaceMesh, UpAxis};
use pathsmooth::{AreaCosts, Error, NavMeshWorld, Pipeline, Preset, Result, SurfaceWorld, World};

const PRESETS: [Preset; 2] = [Preset::Shortest, Preset::Smooth];

/// A flat world and the one-floor surface world of the same mesh, each in a pipeline.
struct Twins {
    flat: Pipeline<Arc<NavMeshWorld>>,
    layered: Pipeline<SurfaceWorld>,
    /// How far apart the two paths' points may be.
    tolerance: f64,
}

/// Whether two errors say the same in the two worlds: the layered world's "unreachable"
/// names the pieces of the surface the ends lie on too, and a channel too narrow for the
/// radius is the same place of the same width, its portal's index in a channel of other
/// triangles aside.
fn same_error(layered: &Error, flat: &Error) -> bool {
    match (layered, flat) {
        (
            Error::UnreachableOnSurface { start, goal, .. },
            &Error::Unreachable { sx, sy, gx, gy },
        ) => [start[0], start[1], goal[0], goal[1]] == [sx, sy, gx, gy],
        (
            &Error::ChannelTooNarrow {
                x,
                y,
                width,
                radius,
                ..
            },
            &Error::ChannelTooNarrow {
                x: fx,
                y: fy,
                width: fw,
                radius: fr,
                ..
            },
        ) => [x, y, width, radius] == [fx, fy, fw, fr],
        (l, f) => l == f,
    }
}

/// Asserts that two answers are alike: the same error (see [`same_error`]), or paths of
/// as many points, each within `tolerance` of the other's.
fn assert_alike(
    layered: &Result<Vec<DVec2>>,
    flat: &Result<Vec<DVec2>>,
    tolerance: f64,
    what: &str,
) {
    let alike = match (layered, flat) {
        (Ok(l), Ok(f)) => {
            l.len() == f.len() && l.iter().zip(f).all(|(p, q)| p.distance(*q) <= tolerance)
        }
        (Err(l), Err(f)) => same_error(l, f),
        _ => false,
    };
    assert!(alike, "{what}:\n  layered {layered:?}\n  flat    {flat:?}");
}

impl Twins {
    fn new(flat: &Arc<NavMeshWorld>, surface: &Arc<SurfaceMesh>, r: f64, preset: Preset) -> Self {
        let size = flat.bounds().size().max_element();
        Twins {
            flat: Pipeline::preset(Arc::clone(flat), r, preset).unwrap(),
            layered: Pipeline::preset(SurfaceWorld::new(Arc::clone(surface)), r, preset).unwrap(),
            tolerance: 1e-9 * size,
        }
    }

    /// The two plans from `a` to `b`, asserted equal; the flat one returned.
    fn plan(&mut self, a: DVec2, b: DVec2, what: &str) -> Result<Vec<DVec2>> {
        let flat = self.flat.plan(a, b);
        let layered = self.layered.plan(a, b);
        assert_alike(
            &layered,
            &flat,
            self.tolerance,
            &format!("{what}: {a} → {b}"),
        );
        flat
    }

    /// The two smoothings of `path`, asserted equal; the flat one returned.
    fn smooth(&mut self, path: &[DVec2], what: &str) -> Result<Vec<DVec2>> {
        let flat = self.flat.smooth(path);
        let layered = self.layered.smooth(path);
        assert_alike(
            &layered,
            &flat,
            self.tolerance,
            &format!("{what}: smoothing {path:?}"),
        );
        flat
    }
}

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

#[test]
fn moving_ai_navmeshes_plan_and_smooth_alike_in_both_worlds() {
    let (mut paths, mut errors) = (0, 0);
    for (name, map, scen) in common::real_maps(&common::NAVMESH_MAPS) {
        let mesh = NavMesh::from_grid(&map).unwrap();
        let surface = one_floor(&mesh);
        let flat = Arc::new(NavMeshWorld::new(mesh));
        for preset in PRESETS {
            for r in [0.0, 0.3] {
                let mut twins = Twins::new(&flat, &surface, r, preset);
                let what = format!("{name} {preset:?} r {r}");
                for s in common::sweep(&scen, 6, 20) {
                    let (a, b) = (s.start_point(), s.goal_point());
                    let Ok(path) = twins.plan(a, b, &what) else {
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
                    if let Ok(smoothed) = twins.smooth(&nudged, &what) {
                        judge(&map, &smoothed, r, &format!("{what}: smoothed {a} → {b}"));
                    }
                }
            }
        }
    }
    println!("{paths} paths and {errors} errors alike in both worlds");
    assert!(paths >= 60, "{paths} paths");
}

#[test]
fn polyanya_meshes_plan_alike_in_both_worlds_between_random_points() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus/polyanya");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mesh"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{} .mesh files", files.len());
    let (mut paths, mut errors) = (0, 0);
    for (k, file) in files.iter().enumerate() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).unwrap();
        let mesh = parse(&text, MeshFormat::Mesh, GroundPlane::default(), &name).unwrap();
        let walls = mesh_walls(&text);
        let (lo, hi) = walls
            .iter()
            .flatten()
            .fold((DVec2::INFINITY, DVec2::NEG_INFINITY), |(lo, hi), &p| {
                (lo.min(p), hi.max(p))
            });
        let size = (hi - lo).max_element();
        let surface = one_floor(&mesh);
        let flat = Arc::new(NavMeshWorld::new(mesh));
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
                let mut twins = Twins::new(&flat, &surface, r, preset);
                let what = format!("{name} {preset:?} r {r}");
                for &[a, b] in &ends {
                    let Ok(path) = twins.plan(a, b, &what) else {
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
    println!("{paths} paths and {errors} errors alike in both worlds");
    assert!(paths > 1000, "{paths} paths");
}

#[test]
fn world_area_costs_plan_alike_in_both_worlds() {
    // Moving AI's maps with their navmeshes' polygons put in areas at random (fixed
    // seeds): area 2 costs 4, area 3 is excluded, as world-level costs of both worlds.
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
        let flat = Arc::new(
            NavMeshWorld::new(mesh)
                .with_area_costs(costs.clone())
                .unwrap(),
        );
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
            let mut twins = Twins {
                flat: Pipeline::preset(Arc::clone(&flat), r, Preset::Smooth).unwrap(),
                layered: Pipeline::preset(layered.clone(), r, Preset::Smooth).unwrap(),
                tolerance: 1e-9 * flat.bounds().size().max_element(),
            };
            let what = format!("{name} r {r}");
            for s in common::sweep(&scen, 6, 20) {
                let (a, b) = (s.start_point(), s.goal_point());
                let Ok(path) = twins.plan(a, b, &what) else {
                    continue;
                };
                paths += 1;
                let world = twins.layered.world();
                for w in path.windows(2) {
                    assert_eq!(
                        world.segment_cost(w[0], w[1]),
                        flat.segment_cost(w[0], w[1])
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
    println!("{paths} paths alike in both worlds under area costs");
    assert!(paths >= 20, "{paths} paths");
}

/// True when `p` lies strictly inside the convex counter-clockwise ring.
fn strictly_inside(p: DVec2, ring: &[DVec2]) -> bool {
    (0..ring.len()).all(|i| {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        (b - a).perp_dot(p - a) > 1e-12
    })
}
