//! Detour on every bake: the quantisation round trip is exact to f32 rounding, both ends of
//! every query snap onto the mesh, each corridor starts at the query's own polygon, and
//! Detour reaches the end polygon exactly when both polygons are in one shared-edge
//! component of the bake.

use detour_peer::{Bake, DetourMesh};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/pathsmooth/tests/data/navmesh/"
);

#[test]
fn every_bake() {
    for name in [
        "dungeon",
        "dungeon.areas",
        "dungeon.r0",
        "nav_test",
        "nav_test.r0",
    ] {
        let bake = Bake::load(&format!("{DATA}{name}.navmesh.json")).unwrap();
        let mesh = DetourMesh::from_bake(&bake).unwrap();
        assert!(mesh.quantisation_error < 1e-4, "{name}");
        let comp = bake.components();
        let centroids = bake.centroids();
        for pair in bake.query_pairs() {
            let r = mesh.query(pair, &centroids);
            assert!(
                r.start_on_mesh.is_some() && r.end_on_mesh.is_some(),
                "{name} {pair:?}"
            );
            assert_eq!(r.corridor.first(), Some(&pair.0), "{name} {pair:?}");
            assert_eq!(r.reached, comp[pair.0] == comp[pair.1], "{name} {pair:?}");
            assert!(r.straight_path.len() >= 2, "{name} {pair:?}");
        }
    }
}
