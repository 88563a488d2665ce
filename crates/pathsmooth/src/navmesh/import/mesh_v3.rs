//! Polyanya's `.mesh` format, version 3: reader body and writer.
//!
//! Version 3 is the format of the `polyanya` Rust crate (vleue), `meshes/v3/format.txt`
//! in its repository: a 2D mesh (no heights, no layers: the crate builds layers in memory,
//! never in a file) whose faces cover the whole map, walls included, 1-based:
//!
//! ```text
//! mesh
//! 3
//! V F
//! x y                            V vertex lines
//! t n v1 … vn k1 … kn            F face lines: traversable (1) or not (0), n vertex ids
//!                                (1-based), then per edge the face across it: kj for the
//!                                edge from v(j-1) to vj (v0 = vn), +f traversable into
//!                                face f, -f not traversable (a wall face, or a
//!                                constrained edge), 0 the map's border
//! ```
//!
//! It is read into a 2D [`NavMesh`]: the traversable faces are its polygons, numbered
//! 0, 1, … in file order skipping the others (as the `polyanya` crate numbers them); the
//! non-traversable faces are walls and only their edges are checked. Like version 2, the
//! format is read token by token and errors name the line.
//!
//! The reader checks the edge data against the faces: a face named across an edge
//! (`±f`) must have that edge and name this face back with the same sign; 0 only on an
//! edge of no other face; between a traversable face and a wall face only `-f`; between
//! two traversable faces only `+f` (pathsmooth's navmesh joins every edge two polygons
//! share, so a constrained edge inside the walkable space cannot be kept); between two
//! wall faces either. Then the traversable faces go through [`NavMesh::from_polygons`]'s
//! checks, reported at the face's line.
//!
//! Cost: O(size of the file) plus [`NavMesh::from_polygons`].

use std::collections::HashMap;
use std::fmt::Write as _;

use glam::DVec2;

use super::polygons::mesh_from_rings;
use super::text::{error, Reader, Token};
use crate::error::{excerpt, Result};
use crate::navmesh::mesh::NavMesh;

/// The largest vertex or face count the reader accepts (indices are `u32`).
const MAX_COUNT: i64 = u32::MAX as i64 - 1;

/// A parsed face line.
struct Face {
    traversable: bool,
    /// Vertex indices, 0-based.
    vertices: Vec<u32>,
    /// As written: ±(face + 1) across the edge ending at each vertex, or 0.
    across: Vec<i64>,
    line: usize,
}

/// The rest of a version 3 file after `mesh 3`: see the [module docs](self).
pub(crate) fn parse_body<'a, I: Iterator<Item = Token<'a>>>(
    r: &mut Reader<'a, I>,
    file: &str,
) -> Result<NavMesh> {
    let (nv, _) = r.int("the number of vertices", 0, MAX_COUNT)?;
    let (nf, _) = r.int("the number of faces", 0, MAX_COUNT)?;
    // Capacity from the header is capped: a lying header must not allocate gigabytes.
    let mut vertices = Vec::with_capacity(nv.min(1 << 16) as usize);
    let mut vertex_lines = Vec::with_capacity(nv.min(1 << 16) as usize);
    for v in 1..=nv {
        let (x, t) = r.number(&format!("vertex {v}'s x"))?;
        let (y, _) = r.number(&format!("vertex {v}'s y"))?;
        vertices.push(DVec2::new(x, y));
        vertex_lines.push(t.line);
    }
    let mut faces = Vec::with_capacity(nf.min(1 << 16) as usize);
    for f in 1..=nf {
        let (t, tok) = r.int(&format!("face {f}'s traversable flag (0 or 1)"), 0, 1)?;
        let (n, _) = r.int(&format!("face {f}'s number of vertices"), 3, MAX_COUNT)?;
        let mut face = Face {
            traversable: t == 1,
            vertices: Vec::with_capacity(n.min(64) as usize),
            across: Vec::with_capacity(n.min(64) as usize),
            line: tok.line,
        };
        for _ in 0..n {
            let (v, _) = r.int(&format!("a vertex of face {f}"), 1, nv)?;
            face.vertices.push((v - 1) as u32);
        }
        for _ in 0..n {
            let (k, _) = r.int(&format!("a neighbour of face {f}"), -nf, nf)?;
            face.across.push(k);
        }
        faces.push(face);
    }
    if let Some(t) = r.peek() {
        return Err(r.error_at(
            t,
            format!(
                "unexpected `{}` after the {nf} faces the header announced",
                excerpt(t.text)
            ),
        ));
    }
    check_edges(&faces, file)?;
    let walkable: Vec<&Face> = faces.iter().filter(|f| f.traversable).collect();
    let rings: Vec<Vec<u32>> = walkable.iter().map(|f| f.vertices.clone()).collect();
    mesh_from_rings(&vertices, &rings, |p| walkable[p].line, &vertex_lines, file)
}

/// The edge (0-based vertex indices) of slot `j` of a face: from `v[j-1]` to `v[j]`.
fn slot_edge(vertices: &[u32], j: usize) -> (u32, u32) {
    let n = vertices.len();
    (vertices[(j + n - 1) % n], vertices[j])
}

/// Checks that faces name each other across their shared edges (see the module docs).
fn check_edges(faces: &[Face], file: &str) -> Result<()> {
    // Undirected edge → the (face, slot) pairs using it.
    let mut users: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for (f, face) in faces.iter().enumerate() {
        for j in 0..face.vertices.len() {
            let (a, b) = slot_edge(&face.vertices, j);
            let list = users.entry((a.min(b), a.max(b))).or_default();
            if list.len() == 2 {
                let [g, h] = [list[0].0 + 1, list[1].0 + 1];
                return Err(error(
                    file,
                    face.line,
                    0,
                    format!(
                        "faces {g}, {h} and {} all have the edge between vertices {} and {} \
                         (at most two faces can share an edge)",
                        f + 1,
                        a + 1,
                        b + 1
                    ),
                ));
            }
            list.push((f, j));
        }
    }
    for (f, face) in faces.iter().enumerate() {
        for (j, &k) in face.across.iter().enumerate() {
            let (a, b) = slot_edge(&face.vertices, j);
            let edge = format!("the edge between vertices {} and {}", a + 1, b + 1);
            let other = users[&(a.min(b), a.max(b))]
                .iter()
                .find(|&&(o, _)| o != f)
                .copied();
            let bad = |m: String| error(file, face.line, 0, format!("face {}: {m}", f + 1));
            let Some((o, slot)) = other else {
                if k != 0 {
                    return Err(bad(format!(
                        "face {} is named across {edge}, but no other face has that edge",
                        k.abs()
                    )));
                }
                continue;
            };
            if k.unsigned_abs() != o as u64 + 1 {
                return Err(bad(format!(
                    "{k} is written across {edge}, but face {} is there",
                    o + 1
                )));
            }
            // Between two wall faces either sign is fine (real files use both).
            let (mine, theirs) = (face.traversable, faces[o].traversable);
            if mine && theirs && k < 0 {
                return Err(bad(format!(
                    "{edge} is marked {k} (not traversable) between two traversable faces: \
                     pathsmooth's navmesh joins every shared edge"
                )));
            }
            if mine != theirs && k > 0 {
                return Err(bad(format!(
                    "{edge} is marked {k} (traversable), but face {} is not traversable",
                    if mine { o + 1 } else { f + 1 }
                )));
            }
            let back = faces[o].across[slot];
            if back != k.signum() * (f as i64 + 1) {
                return Err(error(
                    file,
                    faces[o].line,
                    0,
                    format!(
                        "face {}: it writes {back} across {edge}, but face {} is there (and \
                         writes {k})",
                        o + 1,
                        f + 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Writes `mesh` in polyanya's `.mesh` format, version 3 (the `polyanya` crate's): its
/// vertices, then its polygons ([`NavMesh::polygon`], counter-clockwise; the triangles of
/// a mesh made from a scene or grid) as traversable faces in polygon order, with the
/// polygon across each edge (+(id + 1)) or 0 for a wall; no non-traversable faces (the
/// navmesh keeps none). Numbers in Rust's shortest round-trip form, so
/// [`parse_mesh`](super::parse_mesh) reads back the same coordinates and polygons.
///
/// Cost: O(vertices + polygon vertices).
///
/// ```
/// use pathsmooth::navmesh::{parse_mesh, write_mesh_v3};
/// use pathsmooth::navmesh::{NavMesh, Scene};
/// let scene = Scene { boundary: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]], holes: vec![] };
/// let mesh = NavMesh::from_scene(&scene)?;
/// let text = write_mesh_v3(&mesh);
/// assert!(text.starts_with("mesh\n3\n4 2\n"));
/// let again = parse_mesh(&text, "again.mesh")?;
/// assert_eq!(write_mesh_v3(&again), text);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn write_mesh_v3(mesh: &NavMesh) -> String {
    let np = mesh.num_polygons();
    let vertices = mesh.vertices();
    // Directed edge → the polygon on its left.
    let mut left: HashMap<(u32, u32), usize> = HashMap::new();
    for p in 0..np {
        let ring = mesh.polygon(p);
        for (k, &v) in ring.iter().enumerate() {
            left.insert((v, ring[(k + 1) % ring.len()]), p);
        }
    }
    let mut out = format!("mesh\n3\n{} {np}\n", vertices.len());
    for pos in vertices {
        let _ = writeln!(out, "{} {}", pos.x, pos.y);
    }
    for p in 0..np {
        let ring = mesh.polygon(p);
        let n = ring.len();
        let _ = write!(out, "1 {n}");
        for v in ring {
            let _ = write!(out, " {}", v + 1);
        }
        for j in 0..n {
            // Slot j is the edge from v[j-1] to v[j]; its neighbour is on the left of the
            // reversed edge.
            let (a, b) = (ring[(j + n - 1) % n], ring[j]);
            let q = left.get(&(b, a)).map_or(0, |&q| q as i64 + 1);
            let _ = write!(out, " {q}");
        }
        out.push('\n');
    }
    out
}
