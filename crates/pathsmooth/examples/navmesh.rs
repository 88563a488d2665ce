//! A navmesh world: plan and smooth in one call.
//!
//! A room with two pillars as a polygon scene, triangulated into a `NavMesh`; a `Pipeline`
//! over the library's one navmesh world (`SurfaceWorld::from_navmesh`: the mesh as one
//! floor) plans through the triangles for an agent of radius 0.25 and shortens the result
//! with line-of-sight shortcuts: straight segments that pass the pillars' corners at
//! exactly the agent's radius, the shortest way for it.
//!
//! Run: `cargo run -p pathsmooth --example navmesh`

use glam::DVec2;
use pathsmooth::metrics::PathMetrics;
use pathsmooth::navmesh::{NavMesh, Scene};
use pathsmooth::{Pipeline, Preset, SurfaceWorld};

fn main() -> Result<(), pathsmooth::Error> {
    let scene = Scene {
        boundary: vec![[0.0, 0.0], [12.0, 0.0], [12.0, 8.0], [0.0, 8.0]],
        holes: vec![
            vec![[3.0, 2.0], [5.0, 2.0], [5.0, 7.5], [3.0, 7.5]],
            vec![[7.0, 0.5], [9.0, 0.5], [9.0, 6.0], [7.0, 6.0]],
        ],
    };
    let mesh = NavMesh::from_scene(&scene)?;
    println!("navmesh: {} triangles", mesh.num_triangles());
    let world = SurfaceWorld::from_navmesh(&mesh)?;
    let (start, goal) = (DVec2::new(1.0, 1.0), DVec2::new(11.0, 1.0));

    let mut pipeline = Pipeline::preset(&world, 0.25, Preset::Shortest)?;
    let path = pipeline.plan(start, goal)?;
    let m = PathMetrics::of(&path)?;
    let clearance = pipeline.report().validation.min_clearance;
    println!(
        "{} points, {:.2} m, sharpest turn {:.1}°, clearance {clearance:.3} m",
        m.points,
        m.length,
        m.max_turn.to_degrees()
    );
    for p in &path {
        println!("  ({:.3}, {:.3})", p.x, p.y);
    }
    // The gap under the second pillar is 0.5 wide, exactly 2r: the path there keeps the
    // radius itself (to the last bits of the clearance computation), not the radius less the
    // world's tolerance.
    assert!(clearance >= 0.25 - 1e-12);
    assert_eq!((path[0], path[path.len() - 1]), (start, goal));
    Ok(())
}
