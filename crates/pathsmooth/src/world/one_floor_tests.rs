//! The surface world of one floor answers as the flat world under it does (issue 39): a
//! flat navmesh planned through the [`SurfaceWorld`] of it ([`Surface::from_navmesh`])
//! gives the same errors and the same paths as its own [`NavMeshWorld`] (the same points,
//! each within 10⁻⁹ of the mesh's size: where a polygon of more than three sides is cut
//! into other triangles, a radius's arcs are computed from other triangles' sides), for
//! plans and for smoothing a given path, with and without area costs. The flat world is
//! the crate's own, so this comparison lives here; `tests/navmesh_one_world.rs` judges the
//! surface world's paths on the same data by oracles that read only the source files.
//!
//! On data we did not make: Moving AI's maps (`data/movingai/`, their scenarios' ends)
//! and Polyanya's `.mesh` files (`tests/data/corpus/polyanya/`, random points, fixed
//! seeds).

use std::path::PathBuf;
use std::sync::Arc;

use glam::DVec2;

use super::NavMeshWorld;
use crate::grid::{load_scenarios, GridMap};
use crate::navmesh::{parse, GroundPlane, MeshFormat, NavMesh, Surface, SurfaceMesh, UpAxis};
use crate::test_fixtures::{polyanya_mesh_files, uniform};
use crate::{AreaCosts, Error, Pipeline, Preset, Result, SurfaceWorld, World};

const PRESETS: [Preset; 2] = [Preset::Shortest, Preset::Smooth];

/// A file of the crate's package (`rel` from its manifest directory).
fn package_file(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A Moving AI map and its scenarios' (start, goal) ends, at most `max`, spread over the
/// file.
fn moving_ai(name: &str, max: usize) -> (GridMap, Vec<(DVec2, DVec2)>) {
    let path = |ext: &str| package_file(&format!("../../data/movingai/{name}.{ext}"));
    let map = GridMap::load(path("map")).unwrap();
    let scen = load_scenarios(path("map.scen")).unwrap();
    let ends = scen
        .iter()
        .step_by(scen.len().div_ceil(max).max(1))
        .map(|s| (s.start_point(), s.goal_point()))
        .collect();
    (map, ends)
}

/// A flat world and the one-floor surface world of the same mesh, each in a pipeline.
struct Twins {
    flat: Pipeline<Arc<NavMeshWorld>>,
    layered: Pipeline<SurfaceWorld>,
    /// How far apart the two paths' points may be.
    tolerance: f64,
}

impl Twins {
    fn new(flat: &Arc<NavMeshWorld>, layered: SurfaceWorld, r: f64, preset: Preset) -> Self {
        Twins {
            flat: Pipeline::preset(Arc::clone(flat), r, preset).unwrap(),
            layered: Pipeline::preset(layered, r, preset).unwrap(),
            tolerance: 1e-9 * flat.bounds().size().max_element(),
        }
    }

    /// The two plans from `a` to `b`, asserted alike; the flat one returned.
    fn plan(&mut self, a: DVec2, b: DVec2, what: &str) -> Result<Vec<DVec2>> {
        let flat = self.flat.plan(a, b);
        let layered = self.layered.plan(a, b);
        self.assert_alike(&layered, &flat, &format!("{what}: {a} → {b}"));
        flat
    }

    /// The two smoothings of `path`, asserted alike.
    fn smooth(&mut self, path: &[DVec2], what: &str) {
        let flat = self.flat.smooth(path);
        let layered = self.layered.smooth(path);
        self.assert_alike(&layered, &flat, &format!("{what}: smoothing {path:?}"));
    }

    /// Asserts that two answers are alike: the same error (see [`same_error`]), or paths
    /// of as many points, each within the tolerance of the other's.
    fn assert_alike(&self, layered: &Result<Vec<DVec2>>, flat: &Result<Vec<DVec2>>, what: &str) {
        let alike = match (layered, flat) {
            (Ok(l), Ok(f)) => {
                l.len() == f.len()
                    && l.iter()
                        .zip(f)
                        .all(|(p, q)| p.distance(*q) <= self.tolerance)
            }
            (Err(l), Err(f)) => same_error(l, f),
            _ => false,
        };
        assert!(alike, "{what}:\n  layered {layered:?}\n  flat    {flat:?}");
    }
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

/// The one-floor surface world of `mesh`, asserted to be one floor.
fn one_floor(mesh: &NavMesh) -> SurfaceWorld {
    let surface = SurfaceMesh::new(Surface::from_navmesh(mesh, UpAxis::Z).unwrap()).unwrap();
    assert!(surface.is_one_floor());
    SurfaceWorld::new(surface)
}

#[test]
fn moving_ai_navmeshes_plan_and_smooth_alike_in_both_worlds() {
    let (mut paths, mut errors) = (0, 0);
    for name in ["dao/arena", "dao/den312d"] {
        let (map, ends) = moving_ai(name, 12);
        let mesh = NavMesh::from_grid(&map).unwrap();
        let layered = one_floor(&mesh);
        let flat = Arc::new(NavMeshWorld::new(mesh));
        for preset in PRESETS {
            for r in [0.0, 0.3] {
                let mut twins = Twins::new(&flat, layered.clone(), r, preset);
                let what = format!("{name} {preset:?} r {r}");
                for &(a, b) in &ends {
                    let Ok(path) = twins.plan(a, b, &what) else {
                        errors += 1;
                        continue;
                    };
                    paths += 1;
                    // A caller's path: the plan's corners, nudged off them (a path that
                    // the smoothing may have to re-plan in part).
                    let nudged: Vec<DVec2> = path
                        .iter()
                        .enumerate()
                        .map(|(k, &p)| p + DVec2::new(0.01, -0.01) * (k % 3) as f64)
                        .collect();
                    twins.smooth(&nudged, &what);
                }
            }
        }
    }
    assert!(paths >= 60, "{paths} paths, {errors} errors");
}

#[test]
fn polyanya_meshes_plan_alike_in_both_worlds_between_random_points() {
    let (mut paths, mut errors) = (0, 0);
    for (k, (name, text)) in polyanya_mesh_files().iter().enumerate() {
        let mesh = parse(text, MeshFormat::Mesh, GroundPlane::default(), name).unwrap();
        let layered = one_floor(&mesh);
        let flat = Arc::new(NavMeshWorld::new(mesh.clone()));
        let b = flat.bounds();
        // Points on the mesh (the comparison needs no oracle of its own: both worlds
        // answer for the same point), 20 pairs from each of two seeds. The second's found
        // the funnel letting go a portal end that a goal short of the next end cut
        // (`bad-collinear2-rot45`, radius 0.14): the flat world's triangles had put the
        // end on the path's way, the surface world's did not.
        let mut ends: Vec<[DVec2; 2]> = Vec::new();
        for seed in [0x9e37_79b9_7f4a_7c15 ^ (39 + k as u64), 39 + k as u64] {
            let mut draw = uniform(seed);
            let mut on_mesh = || loop {
                let t = DVec2::new(draw(), draw());
                let p = b.min + (b.max - b.min) * t;
                if mesh.locate(p).is_some() {
                    return p;
                }
            };
            ends.extend((0..20).map(|_| [on_mesh(), on_mesh()]));
        }
        let size = b.size().max_element();
        for preset in PRESETS {
            for r in [0.0, 0.02 * size] {
                let mut twins = Twins::new(&flat, layered.clone(), r, preset);
                let what = format!("{name} {preset:?} r {r}");
                for &[a, b] in &ends {
                    match twins.plan(a, b, &what) {
                        Ok(_) => paths += 1,
                        Err(_) => errors += 1,
                    }
                }
            }
        }
    }
    assert!(paths > 500, "{paths} paths, {errors} errors");
}

#[test]
fn world_area_costs_plan_alike_in_both_worlds() {
    // A Moving AI map's navmesh with its polygons put in areas at random (fixed seed):
    // area 2 costs 4, area 3 is excluded, as world-level costs of both worlds.
    let costs: AreaCosts = "2=4,3=exclude".parse().unwrap();
    let (map, ends) = moving_ai("dao/den312d", 20);
    let grid = NavMesh::from_grid(&map).unwrap();
    let polygons: Vec<Vec<u32>> = (0..grid.num_polygons())
        .map(|i| grid.polygon(i).to_vec())
        .collect();
    let mut draw = uniform(390);
    let areas: Vec<u8> = polygons
        .iter()
        .map(|_| match draw() {
            u if u < 0.15 => 2,
            u if u < 0.2 => 3,
            _ => 1,
        })
        .collect();
    let mesh = NavMesh::from_polygons_with_areas(grid.vertices(), &polygons, &areas).unwrap();
    let layered = one_floor(&mesh).with_area_costs(costs.clone()).unwrap();
    let flat = Arc::new(NavMeshWorld::new(mesh).with_area_costs(costs).unwrap());
    let mut paths = 0;
    for r in [0.0, 0.3] {
        let mut twins = Twins::new(&flat, layered.clone(), r, Preset::Smooth);
        for &(a, b) in &ends {
            let Ok(path) = twins.plan(a, b, &format!("den312d r {r}")) else {
                continue;
            };
            paths += 1;
            for w in path.windows(2) {
                assert_eq!(
                    layered.segment_cost(w[0], w[1]),
                    flat.segment_cost(w[0], w[1])
                );
            }
        }
    }
    assert!(paths >= 10, "{paths} paths");
}
