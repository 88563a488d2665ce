//! Caller polygons into a constrained triangulation: validation, the CDT with every polygon
//! edge as a constraint, and the polygon each free triangle belongs to.
//!
//! The checks, in order (each failure an [`Issue`] naming the polygon or vertex):
//!
//! 1. every vertex is finite and in the navmesh coordinate range ([`MAX_COORDINATE`]);
//! 2. every polygon has at least 3 vertices, valid indices and no repeated index;
//! 3. no two vertices used by polygons are at the same position (unused vertices are
//!    accepted and ignored: they are not part of the mesh);
//! 4. every polygon has non-zero area and is convex (collinear vertices along an edge are
//!    allowed — a polygon needs them to share half an edge with a neighbour — folds and
//!    polygons that wind twice are not); clockwise polygons are reversed;
//! 5. no directed edge belongs to two polygons (they would overlap);
//! 6. the triangulation finds no crossing edges and no vertex inside an edge
//!    (a T-junction);
//! 7. a flood fill from each polygon's first edge, across unconstrained triangle edges only,
//!    meets no constraint edge but the polygon's own, and no triangle twice (otherwise
//!    something lies inside the polygon: overlap).
//!
//! Cost: O(n log n) for n polygon vertices (spade's bulk loader) plus O(t) for the floods;
//! the error paths scan all vertices or edges once, O(n).

use std::collections::HashMap;

use glam::DVec2;
use spade::handles::{FixedDirectedEdgeHandle, FixedFaceHandle, InnerTag};
use spade::{Point2, Triangulation};

use super::text::error;
use crate::area::AreaId;
use crate::error::{num, Error, Result};
use crate::geometry::{cross, orientation, segments_touch, tolerance_at};
use crate::navmesh::mesh::{
    check_vertex_range, coordinate_ok, Cdt, NavMesh, PolyId, PolygonTable, DEFAULT_AREA,
    MAX_COORDINATE, NO_POLYGON, NO_TRI,
};
use crate::navmesh::surface::Surface;

/// What is wrong with a set of polygons: the message, and the polygon and vertex (input
/// indices) it is about, so a file reader can turn them into line numbers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Issue {
    /// The polygon the problem is in, if one.
    pub polygon: Option<usize>,
    /// The vertex the problem is at, if one (and no polygon is named).
    pub vertex: Option<usize>,
    /// What is wrong, naming polygons and vertices by their input indices.
    pub message: String,
}

impl Issue {
    fn polygon(p: usize, message: String) -> Self {
        Issue {
            polygon: Some(p),
            vertex: None,
            message,
        }
    }

    fn vertex(v: usize, message: String) -> Self {
        Issue {
            polygon: None,
            vertex: Some(v),
            message,
        }
    }
}

/// The triangulation of valid polygons.
pub(crate) struct Triangulated {
    /// The CDT of the polygons' vertices (used ones only, in input order) and edges.
    pub cdt: Cdt,
    /// Spade face index → polygon index, or [`NO_POLYGON`] outside every polygon.
    pub face_poly: Vec<u32>,
    /// Polygon index → its vertices as CDT vertex indices, counter-clockwise.
    pub rings: Vec<Vec<u32>>,
}

/// The ids `0..n` of `n` polygons that [`triangulate`] accepted (it refuses more polygons
/// than [`PolyId`] can number, so no id is truncated).
pub(crate) fn ids_by_index(n: usize) -> Vec<PolyId> {
    debug_assert!(n < NO_POLYGON as usize);
    (0..n as PolyId).collect()
}

/// Two vertices that polygons use at one plan-view point, if any (the first pair in
/// vertex order): what a surface's floors at different heights meet at, and a flat mesh
/// cannot hold. O(n) expected.
fn plan_twins(plan: &[DVec2], polygons: &[Vec<u32>]) -> Option<(usize, usize)> {
    let mut used = vec![false; plan.len()];
    for &v in polygons.iter().flatten() {
        used[v as usize] = true;
    }
    let mut seen: HashMap<(u64, u64), usize> = HashMap::new();
    (0..plan.len()).filter(|&v| used[v]).find_map(|v| {
        // `+ 0.0` turns -0.0 into 0.0: the same point.
        let key = ((plan[v].x + 0.0).to_bits(), (plan[v].y + 0.0).to_bits());
        seen.insert(key, v).map(|u| (u, v))
    })
}

/// The navmesh of a `.mesh` file's polygons (`rings`, ids by index), a triangulation
/// problem reported at the line of the polygon (`polygon_line`) or vertex it names. The
/// readers of every `.mesh` version share it (`mesh_file`, `mesh_v3`), so it lives here,
/// below both, and neither reader imports the other for it.
pub(super) fn mesh_from_rings(
    vertices: &[DVec2],
    rings: &[Vec<u32>],
    polygon_line: impl Fn(usize) -> usize,
    vertex_lines: &[usize],
    file: &str,
) -> Result<NavMesh> {
    let built = triangulate(vertices, rings).map_err(|issue| {
        let line = match issue {
            Issue {
                polygon: Some(p), ..
            } => polygon_line(p),
            Issue {
                vertex: Some(v), ..
            } => vertex_lines[v],
            _ => 1,
        };
        error(file, line, 0, issue.message)
    })?;
    Ok(NavMesh::from_triangulated(built, ids_by_index(rings.len())))
}

/// True when `p` lies on the open segment `a`–`b` (exact).
fn inside_segment(p: DVec2, a: DVec2, b: DVec2) -> bool {
    p != a
        && p != b
        && orientation(a, b, p) == 0
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Validates `polygons` over `vertices` and triangulates them (see the module docs).
pub(crate) fn triangulate(
    vertices: &[DVec2],
    polygons: &[Vec<u32>],
) -> Result<Triangulated, Issue> {
    if polygons.is_empty() {
        return Err(Issue {
            polygon: None,
            vertex: None,
            message: "the mesh has no polygons".into(),
        });
    }
    // Polygon indices (and the ids given by index) are `u32`; `NO_POLYGON` is reserved.
    if polygons.len() >= NO_POLYGON as usize {
        return Err(Issue {
            polygon: None,
            vertex: None,
            message: format!(
                "the mesh has {} polygons, more than polygon ids (u32) can number (at most {})",
                polygons.len(),
                NO_POLYGON - 1
            ),
        });
    }
    for (i, v) in vertices.iter().enumerate() {
        if !v.is_finite() {
            return Err(Issue::vertex(
                i,
                format!("vertex {i} has a NaN or infinite coordinate"),
            ));
        }
        if !(coordinate_ok(v.x) && coordinate_ok(v.y)) {
            return Err(Issue::vertex(
                i,
                format!(
                    "vertex {i} ({}, {}) is out of range: each coordinate must be 0 or have \
                     a magnitude in [{}, {}]",
                    num(v.x),
                    num(v.y),
                    num(crate::navmesh::mesh::MIN_COORDINATE),
                    num(MAX_COORDINATE)
                ),
            ));
        }
    }
    // Input vertex → CDT vertex (used vertices only, in input order).
    let mut compact = vec![NO_POLYGON; vertices.len()];
    for (p, ring) in polygons.iter().enumerate() {
        if ring.len() < 3 {
            return Err(Issue::polygon(
                p,
                format!(
                    "polygon {p} has {} vertices; a polygon needs at least 3",
                    ring.len()
                ),
            ));
        }
        for &v in ring {
            if v as usize >= vertices.len() {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p} names vertex {v}, but the mesh has {} vertices",
                        vertices.len()
                    ),
                ));
            }
            compact[v as usize] = 0;
        }
        // A sorted copy finds a repeated index in O(n log n), whatever the polygon's size.
        let mut sorted = ring.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(Issue::polygon(
                p,
                format!("polygon {p} names vertex {} twice", w[0]),
            ));
        }
    }
    let mut used = Vec::new();
    let mut seen: HashMap<(u64, u64), usize> = HashMap::new();
    for (i, c) in compact.iter_mut().enumerate() {
        if *c == NO_POLYGON {
            continue;
        }
        let p = vertices[i];
        // `+ 0.0` turns -0.0 into 0.0: the same point.
        if let Some(&j) = seen.get(&((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())) {
            return Err(Issue::vertex(
                i,
                format!(
                    "vertices {j} and {i} are both at ({}, {}): merge them into one",
                    num(p.x),
                    num(p.y)
                ),
            ));
        }
        seen.insert(((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits()), i);
        *c = used.len() as u32;
        used.push(p);
    }
    let mut rings = Vec::with_capacity(polygons.len());
    for (p, ring) in polygons.iter().enumerate() {
        let mut ring: Vec<u32> = ring.iter().map(|&v| compact[v as usize]).collect();
        check_convex(p, &mut ring, &used, polygons)?;
        rings.push(ring);
    }
    // Directed edge (counter-clockwise) → (polygon, index of its first vertex in the ring).
    let mut owner: HashMap<(u32, u32), (usize, usize)> = HashMap::new();
    for (p, ring) in rings.iter().enumerate() {
        for k in 0..ring.len() {
            let e = (ring[k], ring[(k + 1) % ring.len()]);
            if let Some(&(q, _)) = owner.get(&e) {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygons {q} and {p} overlap: both lie left of the edge from vertex {} \
                         to vertex {}",
                        input_vertex(&compact, e.0),
                        input_vertex(&compact, e.1)
                    ),
                ));
            }
            owner.insert(e, (p, k));
        }
    }
    // Each undirected edge once as a constraint.
    let mut edges: Vec<(u32, u32)> = owner
        .keys()
        .filter(|&&(a, b)| a < b || !owner.contains_key(&(b, a)))
        .copied()
        .collect();
    // HashMap order is random; sort so the build (and its error messages) is repeatable.
    // (As `(u32, u32)` pairs, the sort the crate already has for them: a sort of
    // `[usize; 2]` cost the WebAssembly build 8 KB of its own.)
    edges.sort_unstable();
    let edges: Vec<[usize; 2]> = edges
        .iter()
        .map(|&(a, b)| [a as usize, b as usize])
        .collect();
    let points: Vec<Point2<f64>> = used.iter().map(|v| Point2::new(v.x, v.y)).collect();
    let mut conflict = None;
    let cdt = Cdt::try_bulk_load_cdt(points, edges, |e| {
        conflict.get_or_insert(e);
    })
    .map_err(|e| Issue {
        polygon: None,
        vertex: None,
        message: format!("the triangulation rejected the input: {e:?}"),
    })?;
    let ctx = Context {
        used: &used,
        compact: &compact,
        owner: &owner,
    };
    if let Some([a, b]) = conflict {
        return Err(ctx.bad_edge(a as u32, b as u32));
    }
    let edges = edge_table(&cdt);
    // Every polygon edge must be one edge of the triangulation; when a vertex lies inside
    // it, spade splits it there instead. (Sorted, so the edge named is the same every run.)
    let mut polygon_edges: Vec<(u32, u32)> = owner.keys().copied().collect();
    polygon_edges.sort_unstable();
    if let Some(&(a, b)) = polygon_edges.iter().find(|e| !edges.contains_key(e)) {
        return Err(ctx.bad_edge(a, b));
    }
    let face_poly = assign_faces(&cdt, &edges, &rings, &ctx)?;
    Ok(Triangulated {
        cdt,
        face_poly,
        rings,
    })
}

/// Every directed edge of the triangulation by its (from, to) vertex indices, in O(edges).
/// Spade's own lookup (`get_edge_from_neighbors`) walks the edges around a vertex, which
/// made the build O(n²) for a fan of n polygons around one vertex.
fn edge_table(cdt: &Cdt) -> HashMap<(u32, u32), FixedDirectedEdgeHandle> {
    cdt.directed_edges()
        .map(|e| {
            let key = (e.from().fix().index() as u32, e.to().fix().index() as u32);
            (key, e.fix())
        })
        .collect()
}

/// The input index of CDT vertex `c`.
fn input_vertex(compact: &[u32], c: u32) -> usize {
    compact.iter().position(|&x| x == c).unwrap_or(usize::MAX)
}

/// Checks that polygon `p` (as CDT vertex indices into `used`) has non-zero area and is
/// convex, and turns a clockwise ring counter-clockwise.
fn check_convex(
    p: usize,
    ring: &mut [u32],
    used: &[DVec2],
    polygons: &[Vec<u32>],
) -> Result<(), Issue> {
    let n = ring.len();
    let at = |ring: &[u32], k: usize| used[ring[k % n] as usize];
    let area2: f64 = (0..n).map(|k| cross(at(ring, k), at(ring, k + 1))).sum();
    // A corner within the library's tolerance of the line through its neighbours is
    // straight: vertices on one line are on it only to rounding when their coordinates
    // are irrational (a mesh rotated by 45°) or were stored in `f32`.
    let magnitude = ring
        .iter()
        .fold(0.0f64, |m, &v| m.max(used[v as usize].abs().max_element()));
    let tolerance = tolerance_at(magnitude);
    let turn = |a: DVec2, b: DVec2, c: DVec2| {
        let t = orientation(a, b, c);
        if t != 0
            && cross(c - a, b - a).abs() <= tolerance * (c - a).length()
            && (b - a).dot(c - b) > 0.0
        {
            0
        } else {
            t
        }
    };
    let turns: Vec<i8> = (0..n)
        .map(|k| turn(at(ring, k), at(ring, k + 1), at(ring, k + 2)))
        .collect();
    let (left, right) = (
        turns.iter().filter(|&&t| t > 0).count(),
        turns.iter().filter(|&&t| t < 0).count(),
    );
    if left + right == 0 || area2 == 0.0 || !area2.is_finite() {
        return Err(Issue::polygon(p, format!("polygon {p} has zero area")));
    }
    if left > 0 && right > 0 {
        // Name the reflex corner: the turn against the majority.
        let reflex = if area2 > 0.0 { -1 } else { 1 };
        let k = turns.iter().position(|&t| t == reflex).unwrap_or(0);
        return Err(Issue::polygon(
            p,
            format!(
                "polygon {p} is not convex: it turns the wrong way at vertex {}",
                polygons[p][(k + 1) % n]
            ),
        ));
    }
    if (area2 > 0.0) != (left > 0) {
        // The shoelace sum and the exact turns disagree: a ring too thin to orient.
        return Err(Issue::polygon(
            p,
            format!("polygon {p} is too thin: its orientation cannot be decided"),
        ));
    }
    if right > 0 {
        ring.reverse();
    }
    // A straight corner must go on, not fold back along the edge it came from.
    for k in 0..n {
        let (a, b, c) = (at(ring, k), at(ring, k + 1), at(ring, k + 2));
        if turn(a, b, c) == 0 && (b - a).dot(c - b) <= 0.0 {
            return Err(Issue::polygon(
                p,
                format!("polygon {p} folds back on itself along one of its edges"),
            ));
        }
    }
    // Left turns only, yet winding round twice or more (a pentagram): the turning angles add
    // up to 2π per turn.
    let turning: f64 = (0..n)
        .map(|k| {
            let (a, b, c) = (at(ring, k), at(ring, k + 1), at(ring, k + 2));
            let (u, v) = (b - a, c - b);
            cross(u, v).atan2(u.dot(v))
        })
        .sum();
    if turning > 3.0 * std::f64::consts::PI {
        return Err(Issue::polygon(
            p,
            format!("polygon {p} winds round more than once (it crosses itself)"),
        ));
    }
    Ok(())
}

/// What the error paths need to name things.
struct Context<'a> {
    used: &'a [DVec2],
    compact: &'a [u32],
    owner: &'a HashMap<(u32, u32), (usize, usize)>,
}

impl Context<'_> {
    /// The polygon owning edge `a`–`b` in either direction.
    fn polygon_of_edge(&self, a: u32, b: u32) -> usize {
        self.owner
            .get(&(a, b))
            .or_else(|| self.owner.get(&(b, a)))
            .map_or(0, |&(p, _)| p)
    }

    /// Explains why polygon edge `a`–`b` is not an edge of the triangulation: a vertex
    /// inside it or inside an edge overlapping it (T-junction), or an edge crossing it
    /// (overlap).
    fn bad_edge(&self, a: u32, b: u32) -> Issue {
        let p = self.polygon_of_edge(a, b);
        let at = |v: u32| self.used[v as usize];
        let t_junction = |v: u32, (c, d): (u32, u32)| {
            let q = self.polygon_of_edge(c, d);
            Issue::polygon(
                q,
                format!(
                    "T-junction: vertex {} lies inside the edge of polygon {q} from vertex {} to \
                     vertex {}; add the vertex to polygon {q} too",
                    input_vertex(self.compact, v),
                    input_vertex(self.compact, c),
                    input_vertex(self.compact, d)
                ),
            )
        };
        if let Some(v) = (0..self.used.len() as u32).find(|&v| inside_segment(at(v), at(a), at(b)))
        {
            return t_junction(v, (a, b));
        }
        for &(c, d) in self.owner.keys() {
            if (c, d) == (a, b) || (c, d) == (b, a) {
                continue;
            }
            if let Some(&v) = [c, d]
                .iter()
                .find(|&&v| inside_segment(at(v), at(a), at(b)))
            {
                return t_junction(v, (a, b));
            }
            if let Some(&v) = [a, b]
                .iter()
                .find(|&&v| inside_segment(at(v), at(c), at(d)))
            {
                return t_junction(v, (c, d));
            }
            let shared = c == a || c == b || d == a || d == b;
            if !shared && segments_touch(at(a), at(b), at(c), at(d)) {
                let q = self.polygon_of_edge(c, d);
                return Issue::polygon(
                    p,
                    format!(
                        "polygons {} and {} overlap: the edge of polygon {p} from vertex {} to \
                         vertex {} crosses an edge of polygon {q}",
                        p.min(q),
                        p.max(q),
                        input_vertex(self.compact, a),
                        input_vertex(self.compact, b)
                    ),
                );
            }
        }
        Issue::polygon(
            p,
            format!(
                "the edge of polygon {p} from vertex {} to vertex {} could not be triangulated",
                input_vertex(self.compact, a),
                input_vertex(self.compact, b)
            ),
        )
    }
}

/// Floods each polygon's triangles from its first edge and returns face → polygon.
fn assign_faces(
    cdt: &Cdt,
    edges: &HashMap<(u32, u32), FixedDirectedEdgeHandle>,
    rings: &[Vec<u32>],
    ctx: &Context,
) -> Result<Vec<u32>, Issue> {
    let mut face_poly = vec![NO_POLYGON; cdt.num_all_faces()];
    let mut stack: Vec<FixedFaceHandle<InnerTag>> = Vec::new();
    for (p, ring) in rings.iter().enumerate() {
        let (a, b) = (ring[0], ring[1]);
        let overlap =
            |q: usize| Issue::polygon(p, format!("polygons {} and {} overlap", p.min(q), p.max(q)));
        let Some(&edge) = edges.get(&(a, b)) else {
            return Err(ctx.bad_edge(a, b));
        };
        let edge = cdt.directed_edge(edge);
        // Spade's directed edge has its face on the left: inside a counter-clockwise ring.
        let Some(first) = edge.face().as_inner() else {
            return Err(Issue::polygon(
                p,
                format!("polygon {p} is outside its own edges (is it degenerate?)"),
            ));
        };
        stack.push(first.fix());
        while let Some(f) = stack.pop() {
            let slot = &mut face_poly[f.index()];
            if *slot == p as u32 {
                continue;
            }
            if *slot != NO_POLYGON {
                return Err(overlap(*slot as usize));
            }
            *slot = p as u32;
            for e in cdt.face(f).adjacent_edges() {
                if e.is_constraint_edge() {
                    let key = (e.from().fix().index() as u32, e.to().fix().index() as u32);
                    match ctx.owner.get(&key) {
                        Some(&(q, _)) if q == p => {}
                        Some(&(q, _)) => return Err(overlap(q)),
                        None => return Err(overlap(ctx.polygon_of_edge(key.0, key.1))),
                    }
                    continue;
                }
                match e.rev().face().as_inner() {
                    Some(other) => stack.push(other.fix()),
                    None => {
                        return Err(Issue::polygon(
                            p,
                            format!("polygon {p} is not closed by its edges"),
                        ))
                    }
                }
            }
        }
    }
    Ok(face_poly)
}

/// Navmeshes from a caller's convex polygons.
impl NavMesh {
    /// Builds a navmesh from convex polygons over `vertices`, each polygon a list of vertex
    /// indices; polygon `i` gets the id `i`. See
    /// [`from_polygons_with_ids`](Self::from_polygons_with_ids) for the contract.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// // Two unit squares side by side.
    /// let v = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (0.0, 1.0)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons(&v, &[vec![0, 1, 4, 5], vec![1, 2, 3, 4]])?;
    /// assert_eq!((mesh.num_polygons(), mesh.num_triangles()), (2, 4));
    /// let t = mesh.locate(DVec2::new(1.5, 0.5)).unwrap();
    /// assert_eq!(mesh.polygon_of(t), 1);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_polygons(vertices: &[DVec2], polygons: &[Vec<u32>]) -> Result<Self> {
        check_vertex_range(vertices.iter().copied())?;
        let built = triangulate(vertices, polygons).map_err(|issue| Error::InvalidPolygon {
            message: issue.message,
        })?;
        Ok(Self::from_triangulated(built, ids_by_index(polygons.len())))
    }

    /// Builds a navmesh from convex polygons over `vertices`, keeping each polygon's id
    /// (`ids[i]` for `polygons[i]`; ids must be distinct).
    ///
    /// The free region is the union of the polygons; edges shared by two polygons are open,
    /// the rest are walls. Each polygon is triangulated (a constrained Delaunay
    /// triangulation with every polygon edge as a constraint) and every triangle remembers
    /// its polygon ([`polygon_of`](Self::polygon_of)). Polygons may be counter-clockwise or
    /// clockwise (each is made counter-clockwise, y-up), and may have straight corners
    /// (a vertex in the middle of an edge, which a polygon needs to share half an edge).
    /// Vertices no polygon uses are ignored; they still must be finite and in range.
    ///
    /// Errors: [`Error::CoordinateOutOfRange`] for a vertex beyond [`MAX_COORDINATE`]
    /// (naming its index; the library's one error for coordinates too large, see
    /// [`max_map_coordinate`](crate::geometry::max_map_coordinate)), and
    /// [`Error::InvalidPolygon`], naming the polygon or vertex by index: no
    /// polygons; fewer than 3 vertices, an index out of range or repeated; NaN, infinite
    /// or too small coordinates ([`MIN_COORDINATE`](crate::navmesh::mesh::MIN_COORDINATE)); two used vertices at the same
    /// position; zero area; non-convex, folded or self-crossing polygons; overlapping
    /// polygons; T-junctions (a vertex inside another polygon's edge: add the vertex to that
    /// polygon too); `ids` of the wrong length or with a repeated id.
    ///
    /// Cost: O(n log n) for n polygon vertices (the triangulation) plus O(t) for t
    /// triangles, whatever the vertices' degrees (a fan of 100k triangles around one
    /// vertex builds in about 0.4 s). Spade's bulk loader grows faster than n log n when
    /// very many vertices lie on one circle. Sources: spade's CDT (Stefan Altmayer); per-polygon references as in
    /// Mononen's Recast/Detour (`dtPolyRef`).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &[vec![3, 2, 1, 0]], &[77])?;
    /// assert_eq!(mesh.polygon_of(0), 77);
    /// // An L is not convex.
    /// let l = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let err = NavMesh::from_polygons(&l, &[vec![0, 1, 2, 3, 4, 5]]).unwrap_err();
    /// assert!(err.to_string().contains("polygon 0 is not convex"));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_polygons_with_ids(
        vertices: &[DVec2],
        polygons: &[Vec<u32>],
        ids: &[PolyId],
    ) -> Result<Self> {
        let bad = |message: String| Error::InvalidPolygon { message };
        if ids.len() != polygons.len() {
            return Err(bad(format!(
                "{} polygons but {} ids",
                polygons.len(),
                ids.len()
            )));
        }
        let mut seen = HashMap::with_capacity(ids.len());
        for (p, &id) in ids.iter().enumerate() {
            if let Some(q) = seen.insert(id, p) {
                return Err(bad(format!("polygons {q} and {p} both have the id {id}")));
            }
        }
        check_vertex_range(vertices.iter().copied())?;
        let built = triangulate(vertices, polygons).map_err(|issue| bad(issue.message))?;
        Ok(Self::from_triangulated(built, ids.to_vec()))
    }

    /// The plan view of a [`Surface`] with one floor as a flat navmesh: the surface's
    /// polygons (welded, T-junctions split, windings and slivers seen to by its loader)
    /// triangulated as [`from_polygons_with_ids`](Self::from_polygons_with_ids) does, each
    /// triangle tagged with its surface polygon ([`polygon_of`](Self::polygon_of) is the
    /// surface's [`PolyId`], which [`Surface::polygon_ref`] and [`Surface::input_polygon`]
    /// take) and in its area ([`area_of`](Self::area_of), when some polygon is not in
    /// [`DEFAULT_AREA`](crate::navmesh::DEFAULT_AREA)). Heights, detail and off-mesh links
    /// are left behind. This is how any engine's navmesh — a Unity export whose triangles
    /// each carry their own vertices, a Detour tile set, a Godot scene — becomes a flat
    /// world (a [`SurfaceWorld`](crate::SurfaceWorld) of one floor), with the exact triangulation and
    /// search of one, where its floors do not overlap.
    ///
    /// Errors: [`Error::InvalidPolygon`] when the surface is not one floor in plan view:
    /// two of its vertices at one plan-view point (at different heights: a step the
    /// surface leaves unjoined), or polygons that overlap (a floor over another; the
    /// message names both). Such a surface is planned as it is, by
    /// [`SurfaceWorld`](crate::SurfaceWorld).
    ///
    /// Cost: [`from_polygons_with_ids`](Self::from_polygons_with_ids)'s, O(n log n) for n
    /// polygon corners.
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{NavMesh, Surface, UpAxis};
    /// // Two triangles as Unity exports them, each with its own copy of the shared corners.
    /// let v = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 0.0), (2.0, 2.0), (0.0, 2.0)]
    ///     .map(|(x, z)| DVec3::new(x, 0.0, z));
    /// let surface = Surface::from_polygons(&v, &[[0u32, 1, 2], [3, 4, 5]], UpAxis::Y, 0.0)?;
    /// let mesh = NavMesh::from_surface(&surface)?;
    /// assert_eq!((mesh.num_polygons(), mesh.num_triangles()), (2, 2));
    /// assert!(mesh.line_of_sight(DVec2::new(1.5, 0.2), DVec2::new(0.2, 1.5)));
    /// // A floor over another is not a flat navmesh.
    /// let up = DVec3::new(0.0, 3.0, 0.0);
    /// let w = [DVec3::ZERO, DVec3::X, DVec3::Z, up, up + DVec3::X, up + DVec3::Z];
    /// let two = Surface::from_polygons(&w, &[[0u32, 1, 2], [3, 4, 5]], UpAxis::Y, 0.0)?;
    /// assert!(NavMesh::from_surface(&two).unwrap_err().to_string().contains("not one floor"));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_surface(surface: &Surface) -> Result<Self> {
        let up = surface.up();
        let plan: Vec<DVec2> = surface.vertices().iter().map(|&v| up.plan(v)).collect();
        let n = surface.num_polygons();
        let polygons: Vec<Vec<u32>> = (0..n as PolyId)
            .map(|p| surface.polygon(p).to_vec())
            .collect();
        let not_one_floor = |message: String| Error::InvalidPolygon {
            message: format!("the surface is not one floor in plan view: {message}"),
        };
        if let Some((a, b)) = plan_twins(&plan, &polygons) {
            let (h, k) = (
                up.height(surface.vertices()[a]),
                up.height(surface.vertices()[b]),
            );
            return Err(not_one_floor(format!(
                "its vertices {a} and {b} lie at one plan-view point ({}, {}), at heights {} \
                 and {}",
                num(plan[a].x),
                num(plan[a].y),
                num(h),
                num(k)
            )));
        }
        check_vertex_range(plan.iter().copied())?;
        let built = triangulate(&plan, &polygons).map_err(|issue| not_one_floor(issue.message))?;
        let mesh = Self::from_triangulated(built, ids_by_index(n));
        let areas: Vec<AreaId> = (0..n as PolyId).map(|p| surface.area(p)).collect();
        if areas.iter().all(|&a| a == DEFAULT_AREA) {
            Ok(mesh)
        } else {
            mesh.with_areas(&areas)
        }
    }

    /// The mesh of triangulated polygons, each triangle tagged with its polygon.
    pub(crate) fn from_triangulated(built: Triangulated, ids: Vec<PolyId>) -> Self {
        let inside: Vec<bool> = built.face_poly.iter().map(|&p| p != NO_POLYGON).collect();
        let (mut mesh, face_to_tri) = Self::from_cdt(&built.cdt, &inside);
        let mut tri_poly = vec![0; mesh.num_triangles()];
        for (face, &t) in face_to_tri.iter().enumerate() {
            if t != NO_TRI {
                tri_poly[t as usize] = built.face_poly[face];
            }
        }
        mesh.set_polygons(PolygonTable {
            tri_poly,
            ids,
            rings: built.rings,
        });
        mesh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Vec<DVec2> {
        vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(1.0, 0.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(0.0, 1.0),
        ]
    }

    #[test]
    fn clockwise_rings_are_reversed() {
        let t = triangulate(&square(), &[vec![3, 2, 1, 0]]).unwrap();
        assert_eq!(t.rings, vec![vec![0, 1, 2, 3]]);
        assert_eq!(t.face_poly.iter().filter(|&&p| p == 0).count(), 2);
    }

    #[test]
    fn pentagram_is_refused() {
        let v: Vec<DVec2> = (0..5)
            .map(|k| {
                let a = k as f64 * 2.0 * std::f64::consts::PI / 5.0;
                DVec2::new(a.cos(), a.sin())
            })
            .collect();
        let Err(e) = triangulate(&v, &[vec![0, 2, 4, 1, 3]]) else {
            panic!("a pentagram is no convex polygon")
        };
        assert!(e.message.contains("more than once"), "{}", e.message);
    }
}
