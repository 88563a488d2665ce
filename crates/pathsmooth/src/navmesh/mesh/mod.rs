//! Triangle navmeshes built by constrained Delaunay triangulation.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`NavMesh`].)

use std::sync::atomic::{AtomicU32, Ordering as AtomicOrdering};

use glam::DVec2;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use crate::error::{Error, Result};
use crate::geometry::orientation;

mod areas;
pub(crate) mod boxes;
mod corners;
mod cost;
mod faces;
pub(crate) mod flip;
mod locate;
mod los;
mod pieces;
mod polygon_table;
pub(crate) mod work;

pub use areas::DEFAULT_AREA;
pub(crate) use corners::{ON_WALL, TURN};
use faces::classify_faces;
pub(crate) use faces::{kept_faces, wall_runs, wall_side};
pub(crate) use pieces::label_pieces;
pub(crate) use polygon_table::{PolygonTable, NO_POLYGON};

use locate::Buckets;

/// Index of a triangle of a [`NavMesh`] (`0..mesh.num_triangles()`).
pub type TriId = usize;

/// A polygon's id, as the caller gave it to [`NavMesh::from_polygons_with_ids`] (or the
/// polygon's index; on meshes made from scenes and grids, the triangle's index).
///
/// `u32`, the type of every other polygon and vertex index of the mesh (polygon rings,
/// the triangle → polygon table), so an id and an index convert without loss. File
/// readers refuse a polygon number that does not fit, naming its line.
pub type PolyId = u32;

pub(crate) type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// Marks a spade face that is not part of the free region.
pub(crate) const NO_TRI: u32 = u32::MAX;

/// The largest coordinate magnitude a navmesh vertex may have: 2²⁰¹ ≈ 3.2·10⁶⁰ (spade's
/// `MAX_ALLOWED_VALUE`; beyond it its exact predicates can overflow).
///
/// ```
/// use pathsmooth::navmesh::{MAX_COORDINATE, NavMesh, Scene};
/// let big = Scene { boundary: vec![[0.0, 0.0], [MAX_COORDINATE * 2.0, 0.0], [0.0, 1.0]], holes: vec![] };
/// assert!(NavMesh::from_scene(&big).is_err());
/// ```
pub const MAX_COORDINATE: f64 = spade::MAX_ALLOWED_VALUE;

/// The smallest non-zero coordinate magnitude a navmesh vertex may have: 2⁻¹⁴² ≈
/// 1.8·10⁻⁴³ (spade's `MIN_ALLOWED_VALUE`; below it its exact predicates can underflow).
///
/// ```
/// use pathsmooth::navmesh::{MIN_COORDINATE, NavMesh, Scene};
/// let tiny = Scene { boundary: vec![[0.0, 0.0], [1.0, 1e-50], [0.0, 1.0]], holes: vec![] };
/// assert!(NavMesh::from_scene(&tiny).is_err());
/// let small = Scene { boundary: vec![[0.0, 0.0], [1.0, MIN_COORDINATE], [0.0, 1.0]], holes: vec![] };
/// assert!(NavMesh::from_scene(&small).is_ok());
/// ```
pub const MIN_COORDINATE: f64 = spade::MIN_ALLOWED_VALUE;

/// Refuses the first vertex (in order) with a coordinate beyond [`MAX_COORDINATE`]:
/// [`Error::CoordinateOutOfRange`] naming its index, the library's one error for
/// coordinates too large. A non-finite vertex met first ends the check: the builders'
/// own checks report it (and coordinates too small), naming the ring or polygon.
pub(crate) fn check_vertex_range(vertices: impl IntoIterator<Item = DVec2>) -> Result<()> {
    for (index, v) in vertices.into_iter().enumerate() {
        if !v.is_finite() {
            return Ok(());
        }
        if let Some(value) = [v.x, v.y].into_iter().find(|c| c.abs() > MAX_COORDINATE) {
            return Err(Error::CoordinateOutOfRange {
                index: Some(index),
                value,
                limit: MAX_COORDINATE,
            });
        }
    }
    Ok(())
}

/// True when `c` is a coordinate a navmesh vertex may have (see [`MAX_COORDINATE`]).
pub(crate) fn coordinate_ok(c: f64) -> bool {
    c == 0.0 || (MIN_COORDINATE..=MAX_COORDINATE).contains(&c.abs())
}

/// Triangle navmeshes built by constrained Delaunay triangulation.
///
/// A [`NavMesh`] is the free region of a 2D world cut into triangles. It is built with the
/// [spade](https://docs.rs/spade) crate's constrained Delaunay triangulation (CDT): every wall
/// edge becomes a constraint edge, the CDT fills the convex hull with triangles, and a flood
/// fill that flips parity whenever it crosses a constraint keeps only the triangles inside the
/// free region (inside the boundary, outside every hole).
///
/// Three sources:
///
/// - a caller's convex polygons ([`NavMesh::from_polygons_with_ids`]; also read from
///   polyanya `.mesh` and OBJ files by [`parse_mesh`](crate::navmesh::parse_mesh) and [`parse_obj`](crate::navmesh::parse_obj)): every
///   polygon edge is a constraint, each triangle keeps its polygon's id
///   ([`NavMesh::polygon_of`]), and edges shared by two polygons are open;
/// - a [`Scene`](super::Scene): a boundary polygon with polygonal holes, usually a JSON file
///   `{"boundary": [[x, y], …], "holes": [[[x, y], …], …]}` (`NavMesh::from_scene_json`,
///   `NavMesh::load_scene`, with the `serde` feature), or built in code. Rings are implicitly closed (a repeated first point at the end is
///   accepted and dropped). Bad rings — fewer than three vertices, duplicate vertices, zero
///   area, self-intersections, rings that cross each other, holes outside the boundary or
///   inside other holes — are [`Error::InvalidPolygon`] with a message naming the ring and
///   vertex.
/// - a Moving AI [`GridMap`](crate::GridMap) ([`NavMesh::from_grid`]): the outline of the free region is
///   traced along cell edges (an edge is a wall when exactly one of its two cells is passable;
///   outside the map is blocked) and collinear wall edges with the free side on the same side
///   are merged into one constraint. **Pinches** — grid vertices where exactly two diagonally
///   opposite cells are blocked — are kept as a vertex shared by four wall edges and never
///   merged through (the free side flips there, so the merge stops by construction). The two
///   free quadrants of a pinch therefore touch only at that vertex: triangle adjacency is by
///   shared edge, so no channel passes through a pinch, and [`NavMesh::line_of_sight`]
///   refuses a segment going straight through one (rotating about the vertex meets a wall on
///   both sides). Large maps are triangulated in tiles of about 128² cells, stitched along
///   their borders, so the build is linear in the number of cells (see `grid_build.rs`).
///
/// **Coordinates.** Every vertex coordinate must be 0 or have a magnitude in
/// [[`MIN_COORDINATE`], [`MAX_COORDINATE`]] = [2⁻¹⁴², 2²⁰¹] (about 1.8·10⁻⁴³ to 3.2·10⁶⁰),
/// the range in which spade's exact orientation predicates neither overflow nor underflow;
/// anything else is [`Error::InvalidPolygon`] naming the ring and vertex. Query points need
/// no such care: a point outside the mesh's bounding box is outside the mesh without asking
/// the triangulation, and a coordinate smaller than [`MIN_COORDINATE`] is located as 0.
///
/// Queries: triangle adjacency ([`NavMesh::neighbors`]), point location
/// ([`NavMesh::locate`], a bucket grid over the triangles with an exact containment test),
/// the channel of the shortest path ([`NavMesh::find_channel`], by the Polyanya search of
/// [`NavMeshQuery`](crate::navmesh::NavMeshQuery)) and a line-of-sight walk
/// ([`NavMesh::line_of_sight`]) so the line-of-sight shortcut works on navmeshes as on grids.
///
/// Orientation: triangles are stored counter-clockwise in the mathematical (y-up) sense,
/// i.e. with positive signed area `cross(b − a, c − a) > 0`. On a grid map, whose y axis
/// points down, they look clockwise on screen.
///
/// Cost: building from scenes and polygons is O(n log n) in the number of wall vertices
/// (spade's bulk loader) plus O(t) for classification; from a grid map, O(cells) (tiles of
/// bounded size). The mesh keeps about 33 bytes a triangle (corners, neighbours, corner
/// flags, location buckets; one more for its area id when areas are set,
/// [`NavMesh::with_areas`]) and 16 a vertex; spade's triangulation is not kept. Location
/// tests the few dozen triangles of one bucket, O(1) on meshes of triangles of similar size.
///
/// Sources: spade's CDT (Stefan Altmayer, <https://github.com/Stoeoef/spade>); the channel
/// and portal vocabulary follows Mononen, "Simple Stupid Funnel Algorithm" (2010), and the
/// blog post "Grandpa, tell us another story about pathfinding".
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{NavMesh, Scene};
/// // A 10×10 room with a 2×6 pillar in the middle.
/// let mesh = NavMesh::from_scene(&Scene {
///     boundary: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
///     holes: vec![vec![[4.0, 2.0], [6.0, 2.0], [6.0, 8.0], [4.0, 8.0]]],
/// })?;
/// let channel = mesh.find_channel(DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0))?;
/// assert!(channel.len() >= 2);
/// assert!(mesh.locate(DVec2::new(5.0, 5.0)).is_none()); // inside the pillar
/// assert!(!mesh.line_of_sight(DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0)));
/// assert!(mesh.line_of_sight(DVec2::new(1.0, 1.0), DVec2::new(9.0, 1.0)));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// A triangulated navmesh: the free region of a world as counter-clockwise triangles with
/// adjacency. (See above.)
#[derive(Debug, Clone)]
pub struct NavMesh {
    vertices: Vec<DVec2>,
    /// Vertex indices, counter-clockwise (positive signed area).
    triangles: Vec<[u32; 3]>,
    /// `neighbors[t][i]`: the triangle across edge `i` (from vertex `i` to vertex `i + 1`),
    /// or [`NO_TRI`] for a wall.
    neighbors: Vec<[u32; 3]>,
    /// Per triangle, two bits a corner (`c` at bit `2c`): [`ON_WALL`], [`TURN`].
    corner_flags: Vec<u8>,
    /// Corners of the bounding box of `vertices` (queries outside it are outside at once).
    lo: DVec2,
    hi: DVec2,
    buckets: Buckets,
    /// The caller's polygons, for meshes built from polygons (empty otherwise).
    polygons: PolygonTable,
    /// Each triangle's area id; empty when every triangle is in [`DEFAULT_AREA`].
    areas: Vec<crate::area::AreaId>,
}

impl NavMesh {
    /// Triangulates the constraint edges and keeps the faces of odd nesting parity.
    pub(crate) fn build(vertices: Vec<Point2<f64>>, edges: Vec<[usize; 2]>) -> Result<Self> {
        let mut conflict = None;
        let cdt = Cdt::try_bulk_load_cdt(vertices, edges, |e| {
            conflict.get_or_insert(e);
        })
        .map_err(|e| Error::InvalidPolygon {
            message: format!("the triangulation rejected the input: {e:?}"),
        })?;
        if let Some([a, b]) = conflict {
            return Err(Error::InvalidPolygon {
                message: format!(
                    "wall edges cross or overlap (edge between input vertices {a} and {b})"
                ),
            });
        }
        let inside = classify_faces(&cdt);
        Ok(Self::from_cdt(&cdt, &inside).0)
    }

    /// Copies the free faces of the CDT into flat arrays with adjacency; also returns the
    /// triangle of each spade face ([`NO_TRI`] for faces outside the free region).
    pub(crate) fn from_cdt(cdt: &Cdt, inside: &[bool]) -> (Self, Vec<u32>) {
        let vertices: Vec<DVec2> = cdt
            .vertices()
            .map(|v| DVec2::new(v.position().x, v.position().y))
            .collect();
        let kept = kept_faces(cdt, |face, _| inside[face]);
        (
            Self::from_parts(vertices, kept.triangles, kept.neighbors),
            kept.face_to_tri,
        )
    }

    /// The mesh of counter-clockwise triangles with adjacency, and its point locator.
    pub(crate) fn from_parts(
        vertices: Vec<DVec2>,
        triangles: Vec<[u32; 3]>,
        neighbors: Vec<[u32; 3]>,
    ) -> Self {
        let (lo, hi) = vertices.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), &v| (lo.min(v), hi.max(v)),
        );
        let buckets = Buckets::new(&vertices, &triangles, lo, hi);
        let corner_flags = corners::corner_flags(&vertices, &triangles, &neighbors);
        NavMesh {
            vertices,
            triangles,
            neighbors,
            corner_flags,
            lo,
            hi,
            buckets,
            polygons: PolygonTable::default(),
            areas: Vec::new(),
        }
    }

    /// Number of triangles.
    ///
    /// ```
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// assert_eq!(mesh.num_triangles(), 1);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn num_triangles(&self) -> usize {
        self.triangles.len()
    }

    /// All mesh vertices (wall corners).
    ///
    /// ```
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// assert_eq!(mesh.vertices().len(), 4);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn vertices(&self) -> &[DVec2] {
        &self.vertices
    }

    /// Vertex indices of every triangle, counter-clockwise (y-up sense).
    ///
    /// ```
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let [a, b, c] = mesh.triangle_indices()[1];
    /// assert_eq!(mesh.triangle(1), [a, b, c].map(|i| mesh.vertices()[i as usize]));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn triangle_indices(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The library's tolerance for "touching" at this mesh's coordinates: 10⁻⁹ of the
    /// larger of 1 and its largest vertex coordinate (what its
    /// navmesh world says).
    pub(crate) fn tolerance(&self) -> f64 {
        crate::geometry::tolerance_at(self.lo.abs().max(self.hi.abs()).max_element())
    }

    /// The three corners of triangle `t`, counter-clockwise. Panics if `t` is out of range.
    ///
    /// ```
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let [a, b, c] = mesh.triangle(0);
    /// assert!(pathsmooth::geometry::cross(b - a, c - a) > 0.0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    #[inline] // under the radius rule's width and edge tests of every expansion
    pub fn triangle(&self, t: TriId) -> [DVec2; 3] {
        self.triangles[t].map(|i| self.vertices[i as usize])
    }

    /// The centroid of triangle `t`. Panics if `t` is out of range.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// assert_eq!(mesh.centroid(0), DVec2::new(1.0, 1.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn centroid(&self, t: TriId) -> DVec2 {
        let [a, b, c] = self.triangle(t);
        (a + b + c) / 3.0
    }

    /// `neighbors(t)[i]` is the triangle across edge `i` of `t` (from corner `i` to corner
    /// `i + 1`), or `None` where that edge is a wall.
    ///
    /// ```
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let walls = mesh.neighbors(0).iter().filter(|n| n.is_none()).count();
    /// assert_eq!(walls, 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn neighbors(&self, t: TriId) -> [Option<TriId>; 3] {
        std::array::from_fn(|i| self.across(t, i))
    }

    /// What corner `c` of triangle `t` is to a path: [`ON_WALL`] and [`TURN`] bits.
    pub(crate) fn corner_flags(&self, t: TriId, c: usize) -> u8 {
        (self.corner_flags[t] >> (2 * c)) & (ON_WALL | TURN)
    }

    /// The triangle across the edge at corner `c` (corner `c % 3` of triangle `c / 3`), or
    /// [`NO_TRI`] for a wall: the search's look-up, without the division.
    #[inline]
    pub(crate) fn across_corner(&self, c: usize) -> u32 {
        self.neighbors.as_flattened()[c]
    }

    /// The triangle across edge `i` of `t` (`neighbors(t)[i]` without building the array).
    pub(crate) fn across(&self, t: TriId, i: usize) -> Option<TriId> {
        let n = self.neighbors[t][i];
        (n != NO_TRI).then_some(n as TriId)
    }

    /// The index `i` of the edge of `a` shared with `b` (so `neighbors(a)[i] == Some(b)`),
    /// `None` when they are not adjacent (or `a` is out of range).
    ///
    /// ```
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let i = mesh.shared_edge(0, 1).unwrap();
    /// assert_eq!(mesh.neighbors(0)[i], Some(1));
    /// assert_eq!(mesh.shared_edge(0, 0), None);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn shared_edge(&self, a: TriId, b: TriId) -> Option<usize> {
        if a >= self.neighbors.len() {
            return None;
        }
        (0..3).position(|i| self.across(a, i) == Some(b))
    }

    /// True when `p` lies in the closed triangle `t`. Panics if `t` is out of range.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// assert!(mesh.triangle_contains(0, DVec2::new(1.5, 1.5))); // on the hypotenuse
    /// assert!(!mesh.triangle_contains(0, DVec2::new(2.0, 2.0)));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn triangle_contains(&self, t: TriId, p: DVec2) -> bool {
        let [a, b, c] = self.triangle(t);
        orientation(a, b, p) >= 0 && orientation(b, c, p) >= 0 && orientation(c, a, p) >= 0
    }

    /// The free triangle containing `p` (a point on a shared edge or vertex gets one of the
    /// triangles touching it), or `None` outside the free region or for non-finite `p`.
    /// A point outside the mesh's bounding box is `None` at once, and coordinates smaller
    /// than [`MIN_COORDINATE`] are taken as 0.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// assert!(mesh.locate(DVec2::new(1.0, 0.5)).is_some());
    /// assert!(mesh.locate(DVec2::new(3.0, 0.5)).is_none());
    /// assert!(mesh.locate(DVec2::new(1e155, 1e155)).is_none());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn locate(&self, p: DVec2) -> Option<TriId> {
        if !self.in_bounds(p) || self.triangles.is_empty() {
            return None;
        }
        self.buckets.locate(self, p)
    }

    /// [`locate`](Self::locate) for a walker: triangle `last` (the walker's last, kept by
    /// the caller) is tried first, and taken when `p` lies strictly inside it, where no
    /// other triangle holds `p`; else the index is searched and `last` becomes the answer.
    /// The same answer as `locate`, whatever `last` holds (any number: a hint only); one
    /// exact test where the walker has not left its triangle.
    pub(crate) fn locate_from(&self, p: DVec2, last: &AtomicU32) -> Option<TriId> {
        let before = last.load(AtomicOrdering::Relaxed);
        let mut hint = before;
        let t = self.locate_near(p, &mut hint);
        // Stored only when it changed: a shared hint read by many threads stays clean.
        if hint != before {
            last.store(hint, AtomicOrdering::Relaxed);
        }
        t
    }

    /// [`locate_from`](Self::locate_from) with a hint the caller owns alone (a crowd
    /// agent's): the same answer, and no shared write.
    pub(crate) fn locate_near(&self, p: DVec2, last: &mut u32) -> Option<TriId> {
        let hint = *last as TriId;
        if hint < self.triangles.len()
            && self.in_bounds(p)
            && locate::strictly_inside(self, p, hint)
        {
            return Some(hint);
        }
        let t = self.locate(p)?;
        *last = t as u32;
        Some(t)
    }

    /// True when `p` lies in the closed bounding box of the mesh's vertices (false for NaN).
    fn in_bounds(&self, p: DVec2) -> bool {
        p.cmpge(self.lo).all() && p.cmple(self.hi).all()
    }

    /// Like [`locate`](Self::locate) but an error naming the point (`what` = `"start"`,
    /// `"goal"`, …) when it is outside the mesh.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::NavMesh;
    /// # use pathsmooth::navmesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let err = mesh.locate_or_err(DVec2::new(5.0, 5.0), "goal").unwrap_err();
    /// assert_eq!(err.to_string(), "goal (5, 5) is outside the navmesh");
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn locate_or_err(&self, p: DVec2, what: &'static str) -> Result<TriId> {
        self.locate(p).ok_or(Error::OutsideMesh {
            what,
            x: p.x,
            y: p.y,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Located from any hint (the right triangle, another, a number past the last, a
    /// walker's last), a point gets `locate`'s answer: random points, the vertices and
    /// points on the edges (held by two triangles, the lesser index answered) and points
    /// off the mesh, on a square with a square hole.
    #[test]
    fn locating_from_a_hint_answers_as_locate() {
        let scene = crate::navmesh::Scene {
            boundary: vec![[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]],
            holes: vec![vec![[3.0, 3.0], [5.0, 3.0], [5.0, 5.0], [3.0, 5.0]]],
        };
        let mesh = NavMesh::from_scene(&scene).expect("a valid scene");
        let mut next = crate::test_fixtures::uniform(0x853c_49e6_748f_ea9b);
        let mut points: Vec<DVec2> = (0..2000)
            .map(|_| DVec2::new(next() * 10.0 - 1.0, next() * 10.0 - 1.0))
            .collect();
        points.extend(mesh.vertices().iter().copied());
        for t in 0..mesh.triangles.len() {
            let [a, b, _] = mesh.triangle(t);
            points.push(a.lerp(b, 0.5));
        }
        let walker = AtomicU32::new(0);
        let n = mesh.triangles.len() as u32;
        for (k, &p) in points.iter().enumerate() {
            let answer = mesh.locate(p);
            let hints = [answer.map_or(0, |t| t as u32), k as u32 % n, n, u32::MAX];
            for hint in hints {
                let last = AtomicU32::new(hint);
                assert_eq!(mesh.locate_from(p, &last), answer, "{p} from {hint}");
            }
            assert_eq!(mesh.locate_from(p, &walker), answer, "{p} walking");
            if let Some(t) = answer {
                assert_eq!(walker.load(AtomicOrdering::Relaxed), t as u32);
            }
        }
    }

    #[test]
    fn mesh_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<NavMesh>();
    }
}
