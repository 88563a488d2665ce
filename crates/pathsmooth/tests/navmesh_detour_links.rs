//! Routes over Detour's off-mesh connections on a bake C++ Recast wrote
//! (`tests/data/corpus/detour/dungeon.all_tiles_navmesh.bin`, 3 connections; see the
//! corpus's `SOURCES.md`): random ends inside random polygons (fixed seed), planned with
//! the pipeline at radius 0.
//!
//! Found by the npm package's test (`crates/pathsmooth-wasm/test/`), which draws such ends:
//! every one-leg route planned, but 29 of 50 routes that took a connection failed — "segment
//! k leaves the surface's floor", and with that tolerated, "the shortcut step produced a
//! path that is not valid". The cause: a connection's end given beside its polygon was
//! snapped onto the polygon's edge, where the rounding of the projection left it 4.5e-16
//! outside the polygon, on the far side of its wall for every later test. Snapped ends are
//! now moved in by a few tolerances.

use std::sync::Arc;

use crate::common::rng::Rng;
use glam::DVec3;
use pathsmooth::navmesh::{load_surface, PointFlags, SurfaceMesh, SurfaceOptions, SurfaceQuery};
use pathsmooth::{Pipeline, Preset, SurfaceWorld};

/// The corpus's Detour file `name` loaded with the defaults, and a pipeline of the
/// shortest preset at radius 0 on it.
fn shortest_on(name: &str) -> (Arc<SurfaceMesh>, Pipeline<SurfaceWorld>) {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/corpus/detour")
        .join(name);
    let surface = load_surface(file, &SurfaceOptions::default()).unwrap();
    let mesh = Arc::new(SurfaceMesh::new(surface).unwrap());
    let world = SurfaceWorld::new(Arc::clone(&mesh));
    (
        mesh,
        Pipeline::preset(world, 0.0, Preset::Shortest).unwrap(),
    )
}

#[test]
fn routes_over_off_mesh_links_plan() {
    let (mesh, mut pipeline) = shortest_on("dungeon.all_tiles_navmesh.bin");
    let surface = mesh.surface();
    // The tests' seeded generator: the same ends on every run.
    let mut rng = Rng::new(12345);
    let mut inside = || {
        let p = (rng.unit() * surface.num_polygons() as f64) as u32;
        let ring = surface.polygon(p);
        let w: Vec<f64> = ring.iter().map(|_| rng.unit() + 0.05).collect();
        let sum: f64 = w.iter().sum();
        ring.iter().zip(&w).fold(DVec3::ZERO, |acc, (&v, &wk)| {
            acc + surface.vertices()[v as usize] * (wk / sum)
        })
    };
    let mut query = SurfaceQuery::new();
    // Every snapped end inside its polygon, strictly: the oracle is the ring itself.
    for (i, link) in surface.links().iter().enumerate() {
        for (p, at) in [(link.start_poly, link.start), (link.end_poly, link.end)] {
            let ring: Vec<_> = surface
                .polygon(p)
                .iter()
                .map(|&v| surface.up().plan(surface.vertices()[v as usize]))
                .collect();
            let q = surface.up().plan(at);
            let inside = (0..ring.len()).all(|k| {
                let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
                (b - a).perp_dot(q - a) > 0.0
            });
            assert!(
                inside,
                "link {i}: its end {at} is not strictly inside polygon {p}"
            );
        }
    }
    let (mut over_links, mut failed) = (0, Vec::new());
    for _ in 0..400 {
        let (a, b) = (inside(), inside());
        // The surface's own search says whether the ends connect, and over how many legs.
        if query.find_path(&mesh, a, b, 0.0).is_err() || query.legs().len() < 2 {
            continue;
        }
        over_links += 1;
        if let Err(e) = pipeline.plan_surface(a, b) {
            failed.push(format!("{a} → {b}: {e}"));
        }
    }
    assert!(
        over_links >= 40,
        "only {over_links} routes took a connection"
    );
    assert!(
        failed.is_empty(),
        "{} of {over_links} routes over off-mesh connections failed, e.g. {}",
        failed.len(),
        failed[0]
    );
}

/// RecastDemo's own answer on a file another project saved: go-detour's
/// `testdata/offmeshcons.bin` (RecastDemo's dungeon with one off-mesh connection placed in
/// RecastDemo), whose test (`detour/offmeshcons_test.go`) records the straight path
/// RecastDemo's GUI found between two points: the start, the connection's start (flagged
/// as an off-mesh connection), its end, the goal. The shortest route takes the same
/// connection, so the planned path is those four points: the same in plan view to the six
/// decimals RecastDemo printed (the link's ends are moved into their polygons by a few
/// tolerances), the middle two flagged as a link's start and end.
#[test]
fn a_route_over_a_connection_is_the_one_recastdemo_found() {
    let (_, mut pipeline) = shortest_on("arl__offmeshcons.bin");
    let recastdemo = [
        DVec3::new(-17.323172, 3.074387, -3.366402),
        DVec3::new(-17.767578, 2.514686, -0.300116),
        DVec3::new(-6.194458, 0.197294, 1.019781),
        DVec3::new(-4.377790, -0.000053, -1.633406),
    ];
    let path = pipeline.plan_surface(recastdemo[0], recastdemo[3]).unwrap();
    let got: Vec<DVec3> = path.iter().map(|p| p.position).collect();
    assert_eq!(path.len(), 4, "{got:?}");
    for (k, (p, want)) in path.iter().zip(recastdemo).enumerate() {
        let plan = |v: DVec3| glam::DVec2::new(v.x, v.z);
        assert!(
            plan(p.position).distance(plan(want)) < 1e-5,
            "point {k}: {} is not RecastDemo's {want}",
            p.position
        );
        // Heights: the floor's under the point (RecastDemo printed the points it was
        // given for the ends): within the bake's climb.
        assert!(
            (p.position.y - want.y).abs() < 0.9,
            "point {k}: {}",
            p.position
        );
    }
    let flags: Vec<PointFlags> = path.iter().map(|p| p.flags).collect();
    assert!(flags[1].contains(PointFlags::LINK_START), "{flags:?}");
    assert!(flags[2].contains(PointFlags::LINK_END), "{flags:?}");
}
