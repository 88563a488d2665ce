//! pathsmooth's layered query at radius 0 against Detour on the same 200 connected pairs
//! per bake (`Bake::connected_pairs`): both succeed, both start and end at the same points
//! (the centroids snapped onto the polygon), and pathsmooth's path, being the exact shortest,
//! is never longer in plan view than Detour's straight path (+1e-4). Prints how often and
//! by how much Detour's is longer.

use detour_peer::{dvec3, plan_length, Bake, DetourMesh, PathsmoothMesh};
use std::collections::HashSet;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/pathsmooth/tests/data/navmesh/"
);

/// Ends agree within f32 rounding of the bake's coordinates (tens of units).
const END_TOLERANCE: f64 = 1e-4;
/// Plan-view length slack.
const LENGTH_TOLERANCE: f64 = 1e-4;

#[test]
fn pathsmooth_is_never_longer_than_detour() {
    for name in [
        "dungeon",
        "dungeon.areas",
        "dungeon.r0",
        "nav_test",
        "nav_test.r0",
    ] {
        let file = format!("{DATA}{name}.navmesh.json");
        let bake = Bake::load(&file).unwrap();
        let detour = DetourMesh::from_bake(&bake).unwrap();
        let ours = PathsmoothMesh::load(&file).unwrap();
        let mut query = ours.new_query();
        let centroids = bake.centroids();
        let pairs = bake.connected_pairs();
        let (mut longer, mut max_excess, mut sum_d, mut sum_p) = (0usize, 0.0f64, 0.0, 0.0);
        let mut violations = Vec::new();
        // Polygon pairs Detour links (a shared edge); pathsmooth also crosses split
        // T-junction edges, which Detour leaves unlinked.
        let mut edges = HashSet::new();
        for (i, p) in bake.polygons.iter().enumerate() {
            for j in 0..p.len() {
                edges.insert((p[j], p[(j + 1) % p.len()], i));
            }
        }
        let mut linked = HashSet::new();
        for &(u, v, i) in &edges {
            for k in 0..bake.polygons.len() {
                if edges.contains(&(v, u, k)) {
                    linked.insert((i, k));
                }
            }
        }
        let mut via_t_junction = 0;
        for &(a, b) in &pairs {
            assert_eq!(ours.pieces[a], ours.pieces[b], "{name} ({a}, {b})");
            let d = detour.query((a, b), &centroids);
            assert!(
                d.reached && d.straight_path.len() >= 2,
                "{name} ({a}, {b}): Detour {d:?}"
            );
            let path = query
                .find_path(&ours.mesh, dvec3(&centroids[a]), dvec3(&centroids[b]), 0.0)
                .unwrap_or_else(|e| panic!("{name} ({a}, {b}): pathsmooth: {e}"))
                .to_vec();
            assert!(path.len() >= 2, "{name} ({a}, {b})");
            assert_eq!(
                path[0].polygon as usize, a,
                "{name} ({a}, {b}) start polygon"
            );
            assert_eq!(
                path[path.len() - 1].polygon as usize,
                b,
                "{name} ({a}, {b}) end polygon"
            );
            let ds = dvec3(&d.straight_path[0]);
            let de = dvec3(&d.straight_path[d.straight_path.len() - 1]);
            let (ps, pe) = (path[0].position, path[path.len() - 1].position);
            // Plan view: both snap the centroid onto its own polygon, so (x, z) agree; the
            // height may differ (Detour's detail mesh, pathsmooth's polygon plane).
            for (what, p, q) in [("start", ps, ds), ("end", pe, de)] {
                let gap = (p.x - q.x).hypot(p.z - q.z);
                assert!(
                    gap <= END_TOLERANCE,
                    "{name} ({a}, {b}) {what}: pathsmooth {p}, Detour {q}"
                );
            }
            if query
                .polygons()
                .windows(2)
                .any(|w| !linked.contains(&(w[0] as usize, w[1] as usize)))
            {
                via_t_junction += 1;
            }
            let lp = plan_length(path.iter().map(|p| p.position.to_array()));
            let ld = plan_length(d.straight_path.iter().map(|p| dvec3(p).to_array()));
            sum_d += ld;
            sum_p += lp;
            if lp > ld + LENGTH_TOLERANCE {
                violations.push(format!(
                    "{name} ({a}, {b}): pathsmooth {lp} > Detour {ld}\n  pathsmooth {:?}\n  Detour {:?}\n  Detour corridor {:?}\n  pathsmooth polygons {:?}",
                    path.iter().map(|p| p.position.to_array()).collect::<Vec<_>>(),
                    d.straight_path,
                    d.corridor,
                    query.polygons(),
                ));
            }
            if ld > lp + LENGTH_TOLERANCE {
                longer += 1;
                max_excess = max_excess.max((ld / lp - 1.0) * 100.0);
            }
        }
        println!(
            "{name}: {} pairs ({}), Detour longer than pathsmooth by > 1e-4 in {longer} ({:.1} %), \
             largest excess {max_excess:.2} %, total plan length Detour {sum_d:.1} / pathsmooth {sum_p:.1} \
             (+{:.2} %); pathsmooth crossed an edge Detour does not link in {via_t_junction}",
            pairs.len(),
            if ours.split_t_junctions {
                "read with split_t_junctions"
            } else {
                "plain read"
            },
            100.0 * longer as f64 / pairs.len() as f64,
            (sum_d / sum_p - 1.0) * 100.0,
        );
        assert!(violations.is_empty(), "{}", violations.join("\n"));
    }
}
