//! Real Godot scenes (`tests/data/godot/`, see its SOURCES.md) read with
//! `navmesh::import::parse_godot`: the vertex and polygon counts against a count of the
//! file's own text, the region's transform applied, the bake's agent, and a surface built
//! from the result.

use std::sync::Arc;

use glam::DVec3;
use pathsmooth::navmesh::{is_godot, load_surface, parse_godot, PointFlags, SurfaceMesh};
use pathsmooth::navmesh::{Surface, SurfaceData, SurfaceOptions, UpAxis};
use pathsmooth::{Pipeline, Preset, SurfaceWorld};

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

/// A corpus file (`tests/data/corpus/godot/`) loaded with the defaults.
fn corpus(name: &str) -> Surface {
    let path = format!(
        "{}/tests/data/corpus/godot/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    load_surface(path, &SurfaceOptions::default()).unwrap()
}

/// Godot 4's `NavigationLink3D` nodes as off-mesh links: on GDQuest's teleport demo the
/// one link (its node at y + 0.5 under the root at z − 11, every basis the identity, as
/// the file says) is the only way between two squares, and a plan from one to the other
/// takes it; on the link demo a one-way jump and a teleport whose `travel_cost` 0.1 prices
/// it at a tenth of its length.
#[test]
fn navigation_links_join_what_godot_joins() {
    let s = corpus("gdquest-demos__navigation_teleport.tscn");
    assert_eq!(s.links().len(), 1);
    let l = s.links()[0];
    let start = DVec3::new(-2.546, 0.5, 1.852 - 11.0);
    let end = DVec3::new(-15.4742, 0.5, -39.6166 - 11.0);
    assert!(l.given.start.distance(start) < 1e-12, "{}", l.given.start);
    assert!(l.given.end.distance(end) < 1e-12, "{}", l.given.end);
    assert!(l.given.bidirectional && l.given.cost.is_none());
    let pieces = s.pieces();
    assert_ne!(pieces[l.start_poly as usize], pieces[l.end_poly as usize]);
    // From inside the start's square to inside the end's: over the link.
    let inside = |p: u32| {
        let ring = s.polygon(p);
        let sum: DVec3 = ring.iter().map(|&v| s.vertices()[v as usize]).sum();
        sum / ring.len() as f64
    };
    let (a, b) = (inside(l.start_poly), inside(l.end_poly));
    let mesh = Arc::new(SurfaceMesh::new(s.clone()).unwrap());
    let mut pipeline = Pipeline::preset(SurfaceWorld::new(mesh), 0.0, Preset::Shortest).unwrap();
    let path = pipeline.plan_surface(a, b).unwrap();
    let over = path
        .iter()
        .position(|p| p.flags.contains(PointFlags::LINK_START))
        .expect("the path takes the link");
    assert!(path[over + 1].flags.contains(PointFlags::LINK_END));
    assert!(
        path[over].position.distance(start) <= 1.0,
        "{}",
        path[over].position
    );

    let s = corpus("DarkKilauea__nav_level.tscn");
    assert_eq!(s.links().len(), 2);
    let jump = s.links().iter().find(|l| !l.given.bidirectional).unwrap();
    assert!(jump.given.cost.is_none());
    let teleport = s.links().iter().find(|l| l.given.bidirectional).unwrap();
    let length = teleport.given.start.distance(teleport.given.end);
    assert_eq!(teleport.given.cost, Some(0.1 * length));
    assert!(s.load_report().unconnected_links.is_empty());
}
