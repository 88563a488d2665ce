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

use glam::DVec3;
use pathsmooth::navmesh::{load_surface, SurfaceMesh, SurfaceOptions, SurfaceQuery};
use pathsmooth::{Pipeline, Preset, SurfaceWorld};

#[test]
fn routes_over_off_mesh_links_plan() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/detour/dungeon.all_tiles_navmesh.bin"
    );
    let surface = load_surface(file, &SurfaceOptions::default()).unwrap();
    let mesh = Arc::new(SurfaceMesh::new(surface).unwrap());
    let surface = mesh.surface();
    // A 64-bit LCG (Knuth's MMIX constants): the same ends on every run.
    let mut seed: u64 = 12345;
    let mut unit = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut inside = || {
        let p = (unit() * surface.num_polygons() as f64) as u32;
        let ring = surface.polygon(p);
        let w: Vec<f64> = ring.iter().map(|_| unit() + 0.05).collect();
        let sum: f64 = w.iter().sum();
        ring.iter().zip(&w).fold(DVec3::ZERO, |acc, (&v, &wk)| {
            acc + surface.vertices()[v as usize] * (wk / sum)
        })
    };
    let mut pipeline =
        Pipeline::preset(SurfaceWorld::new(Arc::clone(&mesh)), 0.0, Preset::Shortest).unwrap();
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
