//! polyanya's mesh from the SAME triangles as a pathsmooth navmesh, for the side-by-side
//! tests (`tests/navmesh_polyanya.rs`) and benches (`benches/navmesh.rs`).

use pathsmooth::navmesh::NavMesh;

/// polyanya's mesh from the SAME triangles: vertices with their triangles listed
/// counter-clockwise (`u32::MAX` where a wall interrupts the fan), triangles as polygons.
pub fn polyanya_mesh(mesh: &NavMesh) -> polyanya::Mesh {
    let tris = mesh.triangle_indices();
    let nv = mesh.vertices().len();
    let mut around: Vec<Vec<(usize, usize)>> = vec![Vec::new(); nv];
    for (t, tri) in tris.iter().enumerate() {
        for (c, &v) in tri.iter().enumerate() {
            around[v as usize].push((t, c));
        }
    }
    let mut vertices = Vec::with_capacity(nv);
    for (v, inc) in around.iter().enumerate() {
        let mut list = Vec::new();
        let mut used = vec![false; inc.len()];
        let pos = |t: usize| inc.iter().position(|&(u, _)| u == t).unwrap();
        // Start each fan at a triangle whose clockwise side (edge c, leaving v) is a wall.
        let starts: Vec<usize> = (0..inc.len())
            .filter(|&i| mesh.neighbors(inc[i].0)[inc[i].1].is_none())
            .collect();
        let walls = !starts.is_empty();
        for first in starts.into_iter().chain(0..inc.len()) {
            if used[first] {
                continue;
            }
            let mut i = first;
            loop {
                used[i] = true;
                let (t, c) = inc[i];
                list.push(t as u32);
                match mesh.neighbors(t)[(c + 2) % 3] {
                    Some(n) if !used[pos(n)] => i = pos(n),
                    _ => break,
                }
            }
            if walls {
                list.push(u32::MAX);
            }
        }
        let q = mesh.vertices()[v];
        vertices.push(polyanya::Vertex::new(
            glam033::Vec2::new(q.x as f32, q.y as f32),
            list,
        ));
    }
    let polygons = tris
        .iter()
        .map(|t| polyanya::Polygon::new(t.to_vec(), false))
        .collect();
    let mut m = polyanya::Mesh::new(vertices, polygons).unwrap();
    m.bake();
    m
}
