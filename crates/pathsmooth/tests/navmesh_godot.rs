//! Real Godot scenes (`tests/data/godot/`, see its SOURCES.md) read with
//! `navmesh::import::parse_godot`: the vertex and polygon counts against a count of the
//! file's own text, the region's transform applied, the bake's agent, and a surface built
//! from the result.

use glam::DVec3;
use pathsmooth::navmesh::{is_godot, parse_godot};
use pathsmooth::navmesh::{Surface, SurfaceData, SurfaceOptions, UpAxis};

fn data(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/data/godot/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// An independent reading of the file's one NavigationMesh: the numbers inside the
/// `vertices = …(…)` line, three to a vertex, and the polygons as the `…IntArray(…)`
/// groups of the `polygons = […]` line, by plain string splitting.
fn by_hand(text: &str, packed: &str) -> (Vec<DVec3>, Vec<Vec<u32>>) {
    let line = |key: &str| {
        text.lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("no `{key}` line"))
    };
    let v = line("vertices = ");
    let inner = &v[v.find('(').unwrap() + 1..v.rfind(')').unwrap()];
    let numbers: Vec<f64> = inner
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    assert_eq!(numbers.len() % 3, 0);
    let vertices = numbers
        .chunks(3)
        .map(|c| DVec3::new(c[0], c[1], c[2]))
        .collect();
    let polygons = line("polygons = ")
        .split(packed)
        .skip(1)
        .map(|group| {
            group[..group.find(')').unwrap()]
                .split(',')
                .map(|i| i.trim().parse().unwrap())
                .collect()
        })
        .collect();
    (vertices, polygons)
}

fn surface(data: &SurfaceData) -> Surface {
    let options = SurfaceOptions {
        split_t_junctions: true,
        weld: Some(1e-4),
        ..SurfaceOptions::new(UpAxis::Y)
    };
    Surface::from_data(data, &options).unwrap()
}

#[test]
fn godot4_scene_reads_as_its_navigation_mesh() {
    let text = data("nav_level.tscn");
    assert!(is_godot(&text));
    let d = parse_godot(&text, "nav_level.tscn").unwrap();
    let (vertices, polygons) = by_hand(&text, "PackedInt32Array(");
    assert_eq!((vertices.len(), polygons.len()), (104, 52));
    // The region has no transform: the vertices as written.
    assert_eq!(d.vertices, vertices);
    assert_eq!(d.polygons, polygons);
    assert_eq!(d.up, UpAxis::Y);
    // No agent key in the file: Godot 4's defaults.
    assert_eq!(
        (d.agent.height, d.agent.radius, d.agent.climb),
        (Some(1.5), Some(0.5), Some(0.25))
    );
    let s = surface(&d);
    assert_eq!(s.num_polygons(), 52);
    // Godot's bake repeats shared corners per polygon; welding joins them.
    assert!(
        s.vertices().len() < vertices.len(),
        "{}",
        s.vertices().len()
    );
    // The floors the level has: the ground (y ≈ 0.04), the ramp's top (4.79) and the
    // lower rooms (−4.71).
    let heights: Vec<f64> = s.vertices().iter().map(|v| v.y).collect();
    for h in [0.0431004, 4.7931, -4.7069] {
        assert!(heights.contains(&h), "no vertex at height {h}");
    }
}

#[test]
fn godot3_scene_is_placed_by_its_regions_transform() {
    let text = data("SimpleNavmeshBaking.tscn");
    assert!(is_godot(&text));
    let d = parse_godot(&text, "SimpleNavmeshBaking.tscn").unwrap();
    let (vertices, polygons) = by_hand(&text, "PoolIntArray(");
    assert_eq!((vertices.len(), polygons.len()), (150, 76));
    // `transform = Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 2 )` on the
    // NavigationMeshInstance, identity on its parent and the root.
    let moved: Vec<DVec3> = vertices
        .iter()
        .map(|v| *v + DVec3::new(2.0, 0.0, 2.0))
        .collect();
    assert_eq!(d.vertices, moved);
    assert_eq!(d.vertices[0], DVec3::new(-22.4, 0.4, -15.8));
    assert_eq!(d.polygons, polygons);
    // No agent key: Godot 3's defaults.
    assert_eq!(
        (d.agent.height, d.agent.radius, d.agent.climb),
        (Some(2.0), Some(0.6), Some(0.9))
    );
    let s = surface(&d);
    assert_eq!(s.num_polygons(), 76);
    assert!(s.vertices().len() < vertices.len());
}
