use glam::DVec3;
use pathsmooth::navmesh::import::parse_surface_json;
use pathsmooth::navmesh::{SurfaceMesh, SurfaceOptions, UpAxis};
fn main() {
    let text = std::fs::read_to_string("tests/data/navmesh/nav_test.r0.navmesh.json").unwrap();
    let s = parse_surface_json(&text, "n", &SurfaceOptions::new(UpAxis::Y)).unwrap();
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let a = DVec3::new(45.1576956006775, 2.3485441277525676, 1.5996264746256257);
    let b = DVec3::new(52.7473103256299, -1.630833466710536, 15.171603356819702);
    let mut pl = pathsmooth::SurfacePlanner::new(0.3).unwrap();
    println!("{:?}", pl.plan(&mesh, a, b).map(|p| p.len()));
    for t in mesh.triangles_of(81) { println!("tri {t}: {:?} nb {:?}", mesh.plan_mesh().triangle(t), mesh.plan_mesh().neighbors(t)); }
    let q = glam::DVec2::new(a.x, a.z);
    for p in 0..s.num_polygons() as u32 { let r = s.polygon(p); for (i, nb) in s.neighbors(p).enumerate() { if nb.is_none() {
        let (u, v) = (s.vertices()[r[i] as usize], s.vertices()[r[(i+1)%r.len()] as usize]);
        let (u2, v2) = (glam::DVec2::new(u.x,u.z), glam::DVec2::new(v.x,v.z));
        let t = ((q-u2).dot(v2-u2)/(v2-u2).length_squared()).clamp(0.0,1.0); let d = q.distance(u2+(v2-u2)*t);
        if d < 0.3 { println!("wall poly {p} edge {i}: {u} {v} dist {d}"); } } } }
    let pm = mesh.plan_mesh();
    let mut walls = std::collections::HashSet::new();
    for p in 0..s.num_polygons() as u32 { let r = s.polygon(p); for (i, nb) in s.neighbors(p).enumerate() { if nb.is_none() { walls.insert((r[i], r[(i+1)%r.len()])); } } }
    let mut bad = 0;
    for t in 0..pm.num_triangles() { let tri = pm.triangle_indices()[t]; for (i, nb) in pm.neighbors(t).iter().enumerate() { if nb.is_none() && !walls.contains(&(tri[i], tri[(i+1)%3])) { bad += 1; if bad < 5 { println!("spurious wall tri {t} poly {} edge {:?}", mesh.polygon_of(t), (tri[i], tri[(i+1)%3])); } } } }
    println!("{bad} spurious");
    println!("poly 81: {:?} nb {:?}", s.polygon(81).iter().map(|&v| s.vertices()[v as usize]).collect::<Vec<_>>(), s.neighbors(81).collect::<Vec<_>>());
}
#[allow(dead_code)]
fn dummy() {}
