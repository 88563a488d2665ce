//! Detour on every bake: the quantisation round trip is exact to f32 rounding, both ends of
//! every query snap onto the mesh, each corridor starts at the query's own polygon, and
//! Detour reaches the end polygon exactly when both polygons are in one shared-edge
//! component of the bake.

use detour_peer::{Bake, DetourMesh};
use std::collections::HashMap;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/pathsmooth/tests/data/navmesh/"
);

fn components(bake: &Bake) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..bake.polygons.len()).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut edges = HashMap::new();
    for (i, p) in bake.polygons.iter().enumerate() {
        for j in 0..p.len() {
            edges.insert((p[j], p[(j + 1) % p.len()]), i);
        }
    }
    for (&(a, b), &i) in &edges {
        if let Some(&k) = edges.get(&(b, a)) {
            let (ri, rk) = (find(&mut parent, i), find(&mut parent, k));
            parent[ri] = rk;
        }
    }
    (0..parent.len()).map(|i| find(&mut parent, i)).collect()
}

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
        let comp = components(&bake);
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
