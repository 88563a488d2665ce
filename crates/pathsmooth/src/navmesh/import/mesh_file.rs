//! Polyanya's `.mesh` navmesh format (versions 2 and 1): reader and writer; the reader
//! also takes version 3 (the `polyanya` crate's, with non-traversable faces), whose body
//! and writer are in `mesh_v3`.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`parse_mesh`].)

use std::collections::HashMap;
use std::fmt::Write as _;

use glam::DVec2;

use super::polygons::mesh_from_rings;
use super::text::{error, tokens, Reader};
use crate::error::{excerpt, Result};
use crate::navmesh::mesh::NavMesh;

/// The largest vertex or polygon count the reader accepts (indices are `u32`).
const MAX_COUNT: i64 = u32::MAX as i64 - 1;

/// A parsed polygon line.
struct PolyLine {
    vertices: Vec<u32>,
    /// Neighbours as written (p[i] across the edge ending at v[i] in version 2).
    neighbours: Vec<i64>,
    line: usize,
}

/// Polyanya's `.mesh` navmesh format (versions 2 and 1): reader and writer; the reader
/// also takes version 3 (the `polyanya` crate's, with non-traversable faces), whose body
/// and writer are in `mesh_v3`.
///
/// The format (Cui, Harabor & Grastien's Polyanya, "Compromise-free Pathfinding on a
/// Navigation Mesh", IJCAI 2017, `utils/spec/mesh/2.txt` in its repository):
///
/// ```text
/// mesh
/// 2
/// V P
/// x y n p0 … p(n-1)          V vertex lines: position, then the n polygons around the
///                            vertex, counter-clockwise, -1 for each stretch of obstacle
/// n v0 … v(n-1) p0 … p(n-1)  P polygon lines: n vertices counter-clockwise, then the
///                            polygon across each edge: p[i] shares v[i-1]–v[i] (version
///                            2; version 1: v[i]–v[i+1]), -1 for a wall
/// ```
///
/// The format is whitespace-insensitive (tokens may span lines); errors still name the
/// line and column of the token they are about. Polygon `i` of the file gets id `i`.
///
/// The reader checks the neighbour data against the polygons: every polygon named across
/// an edge must have that edge and name the polygon back; a `-1` edge must belong to no
/// other polygon; a vertex must list exactly the polygons that use it, with one `-1` per
/// stretch of wall around it (the order of a vertex's list is not checked: Polyanya does
/// not use it either). Then the polygons go through [`NavMesh::from_polygons`]'s checks
/// (convexity, T-junctions, overlap, …), whose errors are reported at the polygon's or
/// vertex's line. Vertices no polygon uses are accepted and ignored.
///
/// Cost: O(size of the file) plus [`NavMesh::from_polygons`].
///
/// Parses a polyanya `.mesh` file (version 2 or 1, or version 3 as
/// [`write_mesh_v3`](super::write_mesh_v3)'s docs describe: its traversable faces are the
/// polygons) and builds its navmesh; `file` names the text in errors. The format
/// and the checks are above.
///
/// Errors: [`Error::Parse`](crate::Error::Parse) with the line (and column, for a bad token) for a wrong
/// header or version, too few fields, non-numbers, NaN or infinite coordinates, indices out
/// of range, trailing data, inconsistent neighbour data, and every bad polygon
/// [`NavMesh::from_polygons`] refuses.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::parse_mesh;
/// // The example of the format's specification: a square cut into two triangles.
/// let text = "mesh\n2\n4 2\n0 0 2 0 -1\n1.5 0 3 0 1 -1\n1.5 1.5 2 1 -1\n0 1.5 3 -1 1 0\n\
///             3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";
/// let mesh = parse_mesh(text, "square.mesh")?;
/// assert_eq!((mesh.num_polygons(), mesh.num_triangles()), (2, 2));
/// let t = mesh.locate(DVec2::new(1.2, 1.2)).unwrap();
/// assert_eq!(mesh.polygon_of(t), 1);
/// // Polygon 1 does not name polygon 0 back across their shared edge:
/// let bad = text.replace("3 1 2 3 0 -1 -1", "3 1 2 3 -1 -1 -1");
/// assert!(parse_mesh(&bad, "bad.mesh").unwrap_err().to_string().starts_with("bad.mesh:9:"));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_mesh(text: &str, file: &str) -> Result<NavMesh> {
    let mut r = Reader::new(tokens(text, false), file);
    let head = r.next("the header `mesh`")?;
    if head.text != "mesh" {
        return Err(r.error_at(
            head,
            format!("expected the header `mesh`, found `{}`", excerpt(head.text)),
        ));
    }
    let (version, _) = r.int("the version (3, 2 or 1)", 1, 3)?;
    if version == 3 {
        return super::mesh_v3::parse_body(&mut r, file);
    }
    let (nv, _) = r.int("the number of vertices", 0, MAX_COUNT)?;
    let (np, _) = r.int("the number of polygons", 0, MAX_COUNT)?;
    // Capacity from the header is capped: a lying header must not allocate gigabytes.
    let mut vertices = Vec::with_capacity(nv.min(1 << 16) as usize);
    let mut vertex_lists: Vec<Vec<i64>> = Vec::with_capacity(nv.min(1 << 16) as usize);
    let mut vertex_lines = Vec::with_capacity(nv.min(1 << 16) as usize);
    for v in 0..nv {
        let (x, t) = r.number(&format!("vertex {v}'s x"))?;
        vertex_lines.push(t.line);
        let (y, _) = r.number(&format!("vertex {v}'s y"))?;
        let (n, _) = r.int(&format!("vertex {v}'s number of neighbours"), 0, MAX_COUNT)?;
        let mut list = Vec::with_capacity(n.min(64) as usize);
        for _ in 0..n {
            let (p, _) = r.int(&format!("a neighbour polygon of vertex {v}"), -1, np - 1)?;
            list.push(p);
        }
        vertices.push(DVec2::new(x, y));
        vertex_lists.push(list);
    }
    let mut polys = Vec::with_capacity(np.min(1 << 16) as usize);
    for p in 0..np {
        let (n, t) = r.int(&format!("polygon {p}'s number of vertices"), 3, MAX_COUNT)?;
        let mut line = PolyLine {
            vertices: Vec::with_capacity(n.min(64) as usize),
            neighbours: Vec::with_capacity(n.min(64) as usize),
            line: t.line,
        };
        for _ in 0..n {
            let (v, _) = r.int(&format!("a vertex of polygon {p}"), 0, nv - 1)?;
            line.vertices.push(v as u32);
        }
        for _ in 0..n {
            let (q, _) = r.int(&format!("a neighbour of polygon {p}"), -1, np - 1)?;
            line.neighbours.push(q);
        }
        polys.push(line);
    }
    if let Some(t) = r.peek() {
        return Err(r.error_at(
            t,
            format!(
                "unexpected `{}` after the {np} polygons the header announced",
                excerpt(t.text)
            ),
        ));
    }
    check_neighbours(&polys, version, file)?;
    check_vertex_lists(&polys, &vertex_lists, &vertex_lines, file)?;
    let rings: Vec<Vec<u32>> = polys.iter().map(|p| p.vertices.clone()).collect();
    mesh_from_rings(&vertices, &rings, |p| polys[p].line, &vertex_lines, file)
}

/// The edge (as vertex indices) that neighbour slot `i` of a polygon refers to.
fn slot_edge(vertices: &[u32], i: usize, version: i64) -> (u32, u32) {
    let n = vertices.len();
    if version == 2 {
        (vertices[(i + n - 1) % n], vertices[i])
    } else {
        (vertices[i], vertices[(i + 1) % n])
    }
}

/// Checks that polygons name each other across their shared edges (see the module docs).
fn check_neighbours(polys: &[PolyLine], version: i64, file: &str) -> Result<()> {
    // Undirected edge → the (polygon, slot) pairs using it.
    let mut users: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for (p, poly) in polys.iter().enumerate() {
        for i in 0..poly.vertices.len() {
            let (a, b) = slot_edge(&poly.vertices, i, version);
            let list = users.entry((a.min(b), a.max(b))).or_default();
            if list.len() == 2 {
                let [q, s] = [list[0].0, list[1].0];
                return Err(error(
                    file,
                    poly.line,
                    0,
                    format!(
                        "polygons {q}, {s} and {p} all have the edge between vertices {a} and {b} \
                         (at most two polygons can share an edge)"
                    ),
                ));
            }
            list.push((p, i));
        }
    }
    for (p, poly) in polys.iter().enumerate() {
        for (i, &q) in poly.neighbours.iter().enumerate() {
            let (a, b) = slot_edge(&poly.vertices, i, version);
            let other = users[&(a.min(b), a.max(b))]
                .iter()
                .find(|&&(o, _)| o != p)
                .copied();
            let bad = |m: String| error(file, poly.line, 0, format!("polygon {p}: {m}"));
            match (q, other) {
                (-1, None) => {}
                (-1, Some((o, _))) => {
                    return Err(bad(format!(
                        "the edge between vertices {a} and {b} is marked -1 (a wall), but \
                         polygon {o} has it too"
                    )))
                }
                (q, None) => {
                    return Err(bad(format!(
                        "polygon {q} is named across the edge between vertices {a} and {b}, \
                         but no other polygon has that edge"
                    )))
                }
                (q, Some((o, slot))) => {
                    if q != o as i64 {
                        return Err(bad(format!(
                            "polygon {q} is named across the edge between vertices {a} and \
                             {b}, but polygon {o} has that edge"
                        )));
                    }
                    let back = polys[o].neighbours[slot];
                    if back != p as i64 {
                        // Polygon p is right about o; o is the one that is wrong.
                        return Err(error(
                            file,
                            polys[o].line,
                            0,
                            format!(
                                "polygon {o}: it names {back} across the edge between vertices \
                                 {a} and {b}, but polygon {p} is there (and names {o})"
                            ),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Checks each vertex's list of polygons against the polygons (see the module docs).
fn check_vertex_lists(
    polys: &[PolyLine],
    lists: &[Vec<i64>],
    lines: &[usize],
    file: &str,
) -> Result<()> {
    let mut around: Vec<Vec<i64>> = vec![Vec::new(); lists.len()];
    for (p, poly) in polys.iter().enumerate() {
        for &v in &poly.vertices {
            around[v as usize].push(p as i64);
        }
    }
    // A stretch of wall round a vertex is bounded by two wall edges (edges of one polygon
    // only, which `check_neighbours` has matched with the -1s) ending there.
    let mut wall_ends = vec![0usize; lists.len()];
    // Count wall ends from the undirected edges used once.
    let mut uses: HashMap<(u32, u32), usize> = HashMap::new();
    for poly in polys {
        let n = poly.vertices.len();
        for i in 0..n {
            let (a, b) = (poly.vertices[i], poly.vertices[(i + 1) % n]);
            *uses.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    for (&(a, b), &count) in &uses {
        if count == 1 {
            wall_ends[a as usize] += 1;
            wall_ends[b as usize] += 1;
        }
    }
    for (v, list) in lists.iter().enumerate() {
        let mut named: Vec<i64> = list.iter().copied().filter(|&p| p >= 0).collect();
        named.sort_unstable();
        let mut actual = std::mem::take(&mut around[v]);
        actual.sort_unstable();
        let bad = |m: String| error(file, lines[v], 0, format!("vertex {v}: {m}"));
        if named != actual {
            return Err(bad(format!(
                "it lists the polygons {named:?}, but the polygons using it are {actual:?}"
            )));
        }
        let gaps = list.iter().filter(|&&p| p == -1).count();
        if !actual.is_empty() && gaps * 2 != wall_ends[v] {
            return Err(bad(format!(
                "it lists {gaps} stretches of wall (-1), but the polygons around it leave {}",
                wall_ends[v] / 2
            )));
        }
    }
    Ok(())
}

/// Writes `mesh` in polyanya's `.mesh` format, version 2: its vertices, its polygons
/// ([`NavMesh::polygon`], counter-clockwise; the triangles of a mesh made from a scene or
/// grid), each polygon's neighbours and each vertex's polygons in counter-clockwise order.
/// Numbers are written in Rust's shortest round-trip form, so [`parse_mesh`] reads back the
/// same coordinates. Polygon ids are not part of the format: polygon `i` is written `i`-th.
///
/// Cost: O(vertices + polygon vertices), plus a sort of the stretches round each vertex.
///
/// ```
/// use pathsmooth::navmesh::{parse_mesh, write_mesh};
/// use pathsmooth::navmesh::{NavMesh, Scene};
/// let scene = Scene { boundary: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]], holes: vec![] };
/// let mesh = NavMesh::from_scene(&scene)?;
/// let again = parse_mesh(&write_mesh(&mesh), "again.mesh")?;
/// assert_eq!(again.num_triangles(), mesh.num_triangles());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn write_mesh(mesh: &NavMesh) -> String {
    let np = mesh.num_polygons();
    let vertices = mesh.vertices();
    // Directed edge → the polygon on its left.
    let mut left: HashMap<(u32, u32), usize> = HashMap::new();
    // Vertex → (polygon, position of the vertex in the polygon).
    let mut at: Vec<Vec<(usize, usize)>> = vec![Vec::new(); vertices.len()];
    for p in 0..np {
        let ring = mesh.polygon(p);
        for (k, &v) in ring.iter().enumerate() {
            left.insert((v, ring[(k + 1) % ring.len()]), p);
            at[v as usize].push((p, k));
        }
    }
    let mut out = format!("mesh\n2\n{} {np}\n", vertices.len());
    for (v, pos) in vertices.iter().enumerate() {
        let list = polygons_around(mesh, v as u32, &at[v], &left);
        let _ = write!(out, "{} {} {}", pos.x, pos.y, list.len());
        for p in list {
            let _ = write!(out, " {p}");
        }
        out.push('\n');
    }
    for p in 0..np {
        let ring = mesh.polygon(p);
        let n = ring.len();
        let _ = write!(out, "{n}");
        for v in ring {
            let _ = write!(out, " {v}");
        }
        for i in 0..n {
            // Version 2: slot i is the edge from v[i-1] to v[i]; its neighbour is on the
            // left of the reversed edge.
            let (a, b) = (ring[(i + n - 1) % n], ring[i]);
            let q = left.get(&(b, a)).map_or(-1, |&q| q as i64);
            let _ = write!(out, " {q}");
        }
        out.push('\n');
    }
    out
}

/// The polygons round vertex `v` counter-clockwise, with -1 for each stretch of wall.
///
/// Counter-clockwise about `v`, polygon P spans from its edge `v → next` to its edge
/// `v → prev`; the polygon after it is the one left of `v → prev`. A run starts at a polygon
/// whose `v → next` edge is a wall (no polygon left of `next → v`); runs are sorted by the
/// angle of that edge. A vertex with no wall is one cycle.
fn polygons_around(
    mesh: &NavMesh,
    v: u32,
    at: &[(usize, usize)],
    left: &HashMap<(u32, u32), usize>,
) -> Vec<i64> {
    let ring_at = |p: usize, k: usize| {
        let ring = mesh.polygon(p);
        let n = ring.len();
        (ring[(k + 1) % n], ring[(k + n - 1) % n])
    };
    // The polygons at v sorted by polygon, so a lookup is a binary search even round a
    // vertex with thousands of triangles.
    let mut by_polygon = at.to_vec();
    by_polygon.sort_unstable();
    let position = |p: usize| {
        by_polygon
            .binary_search_by_key(&p, |&(q, _)| q)
            .ok()
            .map(|i| by_polygon[i].1)
    };
    let follow = |start: usize, out: &mut Vec<i64>| {
        let mut p = start;
        for _ in 0..at.len() {
            out.push(p as i64);
            let Some(k) = position(p) else { break };
            let (_, prev) = ring_at(p, k);
            match left.get(&(v, prev)) {
                Some(&q) if q != start => p = q,
                Some(_) => return true, // closed the cycle
                None => return false,
            }
        }
        true
    };
    let origin = mesh.vertices()[v as usize];
    let mut starts: Vec<(f64, usize)> = at
        .iter()
        .filter(|&&(p, k)| !left.contains_key(&(ring_at(p, k).0, v)))
        .map(|&(p, k)| {
            let d = mesh.vertices()[ring_at(p, k).0 as usize] - origin;
            (d.y.atan2(d.x), p)
        })
        .collect();
    starts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::with_capacity(at.len() + starts.len());
    if starts.is_empty() {
        if let Some(&(p, _)) = at.first() {
            follow(p, &mut out);
        }
    } else {
        for (_, p) in starts {
            follow(p, &mut out);
            out.push(-1);
        }
    }
    out
}
