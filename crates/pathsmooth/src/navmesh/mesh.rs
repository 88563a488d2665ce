//! Triangle navmeshes built by constrained Delaunay triangulation.
//!
//! A [`NavMesh`] is the free region of a 2D world cut into triangles. It is built with the
//! [spade](https://docs.rs/spade) crate's constrained Delaunay triangulation (CDT): every wall
//! edge becomes a constraint edge, the CDT fills the convex hull with triangles, and a flood
//! fill that flips parity whenever it crosses a constraint keeps only the triangles inside the
//! free region (inside the boundary, outside every hole).
//!
//! Three sources:
//!
//! - a caller's convex polygons ([`NavMesh::from_polygons_with_ids`]; also read from
//!   polyanya `.mesh` and OBJ files by [`navmesh::import`](crate::navmesh::import)): every
//!   polygon edge is a constraint, each triangle keeps its polygon's id
//!   ([`NavMesh::polygon_of`]), and edges shared by two polygons are open;
//! - a [`Scene`]: a boundary polygon with polygonal holes, usually a JSON file
//!   `{"boundary": [[x, y], …], "holes": [[[x, y], …], …]}` (`NavMesh::from_scene_json`,
//!   `NavMesh::load_scene`, with the `serde` feature), or built in code. Rings are implicitly closed (a repeated first point at the end is
//!   accepted and dropped). Bad rings — fewer than three vertices, duplicate vertices, zero
//!   area, self-intersections, rings that cross each other, holes outside the boundary or
//!   inside other holes — are [`Error::InvalidPolygon`] with a message naming the ring and
//!   vertex.
//! - a Moving AI [`GridMap`] ([`NavMesh::from_grid`]): the outline of the free region is
//!   traced along cell edges (an edge is a wall when exactly one of its two cells is passable;
//!   outside the map is blocked) and collinear wall edges with the free side on the same side
//!   are merged into one constraint. **Pinches** — grid vertices where exactly two diagonally
//!   opposite cells are blocked — are kept as a vertex shared by four wall edges and never
//!   merged through (the free side flips there, so the merge stops by construction). The two
//!   free quadrants of a pinch therefore touch only at that vertex: triangle adjacency is by
//!   shared edge, so no channel passes through a pinch, and [`NavMesh::line_of_sight`]
//!   refuses a segment going straight through one (rotating about the vertex meets a wall on
//!   both sides). Large maps are triangulated in tiles of about 128² cells, stitched along
//!   their borders, so the build is linear in the number of cells (see `grid_build.rs`).
//!
//! **Coordinates.** Every vertex coordinate must be 0 or have a magnitude in
//! [[`MIN_COORDINATE`], [`MAX_COORDINATE`]] = [2⁻¹⁴², 2²⁰¹] (about 1.8·10⁻⁴³ to 3.2·10⁶⁰),
//! the range in which spade's exact orientation predicates neither overflow nor underflow;
//! anything else is [`Error::InvalidPolygon`] naming the ring and vertex. Query points need
//! no such care: a point outside the mesh's bounding box is outside the mesh without asking
//! the triangulation, and a coordinate smaller than [`MIN_COORDINATE`] is located as 0.
//!
//! Queries: triangle adjacency ([`NavMesh::neighbors`]), point location
//! ([`NavMesh::locate`], a bucket grid over the triangles with an exact containment test),
//! the channel of the shortest path ([`NavMesh::find_channel`], by the Polyanya search of
//! [`NavMeshQuery`](crate::navmesh::NavMeshQuery)) and a line-of-sight walk
//! ([`NavMesh::line_of_sight`]) so the line-of-sight shortcut works on navmeshes as on grids.
//!
//! Orientation: triangles are stored counter-clockwise in the mathematical (y-up) sense,
//! i.e. with positive signed area `cross(b − a, c − a) > 0`. On a grid map, whose y axis
//! points down, they look clockwise on screen.
//!
//! Cost: building from scenes and polygons is O(n log n) in the number of wall vertices
//! (spade's bulk loader) plus O(t) for classification; from a grid map, O(cells) (tiles of
//! bounded size). The mesh keeps about 33 bytes a triangle (corners, neighbours, corner
//! flags, location buckets) and 16 a vertex; spade's triangulation is not kept. Location
//! tests the few dozen triangles of one bucket, O(1) on meshes of triangles of similar size.
//!
//! Sources: spade's CDT (Stefan Altmayer, <https://github.com/Stoeoef/spade>); the channel
//! and portal vocabulary follows Mononen, "Simple Stupid Funnel Algorithm" (2010), and the
//! blog post "Grandpa, tell us another story about pathfinding".
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::navmesh::mesh::{NavMesh, Scene};
//! // A 10×10 room with a 2×6 pillar in the middle.
//! let mesh = NavMesh::from_scene(&Scene {
//!     boundary: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
//!     holes: vec![vec![[4.0, 2.0], [6.0, 2.0], [6.0, 8.0], [4.0, 8.0]]],
//! })?;
//! let channel = mesh.find_channel(DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0))?;
//! assert!(channel.len() >= 2);
//! assert!(mesh.locate(DVec2::new(5.0, 5.0)).is_none()); // inside the pillar
//! assert!(!mesh.line_of_sight(DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0)));
//! assert!(mesh.line_of_sight(DVec2::new(1.0, 1.0), DVec2::new(9.0, 1.0)));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use std::collections::{HashMap, VecDeque};
#[cfg(feature = "serde")]
use std::path::Path;

use glam::DVec2;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};

use super::import::polygons::{PolygonTable, Triangulated};
use crate::error::{Error, Result};
use crate::geometry::cross;
use crate::grid::GridMap;

mod along;
mod corners;
mod flip;
mod grid_build;
mod locate;

pub(crate) use corners::{ON_WALL, TURN};
use locate::Buckets;

/// Index of a triangle of a [`NavMesh`] (`0..mesh.num_triangles()`).
pub type TriId = usize;

/// A polygon's id, as the caller gave it to [`NavMesh::from_polygons_with_ids`] (or the
/// polygon's index; on meshes made from scenes and grids, the triangle's index).
pub type PolyId = u64;

pub(crate) type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// Marks a spade face that is not part of the free region.
const NO_TRI: u32 = u32::MAX;

/// The largest coordinate magnitude a navmesh vertex may have: 2²⁰¹ ≈ 3.2·10⁶⁰ (spade's
/// `MAX_ALLOWED_VALUE`; beyond it its exact predicates can overflow).
///
/// ```
/// use pathsmooth::navmesh::mesh::{NavMesh, Scene, MAX_COORDINATE};
/// let big = Scene { boundary: vec![[0.0, 0.0], [MAX_COORDINATE * 2.0, 0.0], [0.0, 1.0]], holes: vec![] };
/// assert!(NavMesh::from_scene(&big).is_err());
/// ```
pub const MAX_COORDINATE: f64 = spade::MAX_ALLOWED_VALUE;

/// The smallest non-zero coordinate magnitude a navmesh vertex may have: 2⁻¹⁴² ≈
/// 1.8·10⁻⁴³ (spade's `MIN_ALLOWED_VALUE`; below it its exact predicates can underflow).
///
/// ```
/// use pathsmooth::navmesh::mesh::{NavMesh, Scene, MIN_COORDINATE};
/// let tiny = Scene { boundary: vec![[0.0, 0.0], [1.0, 1e-50], [0.0, 1.0]], holes: vec![] };
/// assert!(NavMesh::from_scene(&tiny).is_err());
/// let small = Scene { boundary: vec![[0.0, 0.0], [1.0, MIN_COORDINATE], [0.0, 1.0]], holes: vec![] };
/// assert!(NavMesh::from_scene(&small).is_ok());
/// ```
pub const MIN_COORDINATE: f64 = spade::MIN_ALLOWED_VALUE;

/// True when `c` is a coordinate a navmesh vertex may have (see [`MAX_COORDINATE`]).
pub(crate) fn coordinate_ok(c: f64) -> bool {
    c == 0.0 || (MIN_COORDINATE..=MAX_COORDINATE).contains(&c.abs())
}

/// A polygonal scene: a boundary ring and hole rings, built in code or (with the `serde`
/// feature) read from JSON.
///
/// In JSON, unknown keys are an error (a misspelt `"hole"` would otherwise silently drop
/// every obstacle).
///
/// ```
/// use pathsmooth::navmesh::mesh::{NavMesh, Scene};
/// let s = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], holes: vec![] };
/// assert_eq!(NavMesh::from_scene(&s)?.num_triangles(), 1);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(deny_unknown_fields)
)]
pub struct Scene {
    /// The outer boundary ring, `[x, y]` per vertex, implicitly closed.
    pub boundary: Vec<[f64; 2]>,
    /// Hole rings (obstacles) strictly inside the boundary; may be absent in JSON.
    #[cfg_attr(feature = "serde", serde(default))]
    pub holes: Vec<Vec<[f64; 2]>>,
}

/// A triangulated navmesh: the free region of a world as counter-clockwise triangles with
/// adjacency. See the [module docs](self).
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
}

/// Navmeshes from a caller's convex polygons, and the polygon of each triangle.
impl NavMesh {
    /// Builds a navmesh from convex polygons over `vertices`, each polygon a list of vertex
    /// indices; polygon `i` gets the id `i`. See
    /// [`from_polygons_with_ids`](Self::from_polygons_with_ids) for the contract.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::mesh::NavMesh;
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
        let ids: Vec<PolyId> = (0..polygons.len() as PolyId).collect();
        Self::from_polygons_with_ids(vertices, polygons, &ids)
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
    /// Errors ([`Error::InvalidPolygon`], naming the polygon or vertex by index): no
    /// polygons; fewer than 3 vertices, an index out of range or repeated; NaN, infinite
    /// or out-of-range coordinates ([`MAX_COORDINATE`]); two used vertices at the same
    /// position; zero area; non-convex, folded or self-crossing polygons; overlapping
    /// polygons; T-junctions (a vertex inside another polygon's edge: add the vertex to that
    /// polygon too); `ids` of the wrong length or with a repeated id.
    ///
    /// Cost: O(n log n) for n polygon vertices (the triangulation) plus O(t) for t
    /// triangles. Sources: spade's CDT (Stefan Altmayer); per-polygon references as in
    /// Mononen's Recast/Detour (`dtPolyRef`).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::mesh::NavMesh;
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
        let built = super::import::polygons::triangulate(vertices, polygons)
            .map_err(|issue| bad(issue.message))?;
        Ok(Self::from_triangulated(built, ids.to_vec()))
    }

    /// The mesh of triangulated polygons, each triangle tagged with its polygon.
    pub(crate) fn from_triangulated(built: Triangulated, ids: Vec<PolyId>) -> Self {
        let inside: Vec<bool> = built
            .face_poly
            .iter()
            .map(|&p| p != super::import::polygons::NONE)
            .collect();
        let (mut mesh, face_to_tri) = Self::from_cdt(&built.cdt, &inside);
        let mut tri_poly = vec![0; mesh.triangles.len()];
        for (face, &t) in face_to_tri.iter().enumerate() {
            if t != NO_TRI {
                tri_poly[t as usize] = built.face_poly[face];
            }
        }
        mesh.polygons = PolygonTable {
            tri_poly,
            ids,
            rings: built.rings,
        };
        mesh
    }

    /// Number of polygons: the caller's polygons for a mesh built from polygons, else the
    /// number of triangles (each triangle is its own polygon).
    ///
    /// ```
    /// use pathsmooth::navmesh::mesh::{NavMesh, Scene};
    /// let s = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], holes: vec![] };
    /// assert_eq!(NavMesh::from_scene(&s)?.num_polygons(), 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn num_polygons(&self) -> usize {
        if self.polygons.rings.is_empty() {
            self.triangles.len()
        } else {
            self.polygons.rings.len()
        }
    }

    /// The vertices of polygon `i` (`0..num_polygons()`), as indices into
    /// [`vertices`](Self::vertices), counter-clockwise (y-up). Panics if `i` is out of
    /// range. O(1).
    ///
    /// ```
    /// use pathsmooth::navmesh::mesh::{NavMesh, Scene};
    /// let s = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], holes: vec![] };
    /// assert_eq!(NavMesh::from_scene(&s)?.polygon(0).len(), 3);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygon(&self, i: usize) -> &[u32] {
        if self.polygons.rings.is_empty() {
            &self.triangles[i]
        } else {
            &self.polygons.rings[i]
        }
    }

    /// The id of polygon `i` (`0..num_polygons()`): the caller's id, or `i`. Panics if `i`
    /// is out of range. O(1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::mesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// assert_eq!(NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 2]], &[9])?.polygon_id(0), 9);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygon_id(&self, i: usize) -> PolyId {
        if self.polygons.rings.is_empty() {
            assert!(i < self.triangles.len(), "polygon {i} out of range");
            i as PolyId
        } else {
            self.polygons.ids[i]
        }
    }

    /// The index (`0..num_polygons()`) of the polygon triangle `t` belongs to. Panics if
    /// `t` is out of range. O(1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::mesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 2, 3]], &[5])?;
    /// assert_eq!(mesh.polygon_index_of(1), 0);
    /// assert_eq!(mesh.polygon(0), &[0, 1, 2, 3]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygon_index_of(&self, t: TriId) -> usize {
        if self.polygons.rings.is_empty() {
            assert!(t < self.triangles.len(), "triangle {t} out of range");
            t
        } else {
            self.polygons.tri_poly[t] as usize
        }
    }

    /// The id of the polygon triangle `t` belongs to (see [`PolyId`]). Panics if `t` is out
    /// of range. O(1).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::mesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 2, 3]], &[5])?;
    /// assert!((0..mesh.num_triangles()).all(|t| mesh.polygon_of(t) == 5));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygon_of(&self, t: TriId) -> PolyId {
        self.polygon_id(self.polygon_index_of(t))
    }

    /// For each point of `path`, the id of the polygon the path enters there, as Detour's
    /// `findStraightPath` reports with each corner: the polygon holding the start of the
    /// segment that leaves the point (at a corner shared by several polygons, the one the
    /// segment heads into; along a shared edge, either). The last point (and a point
    /// followed only by copies of itself) gets the polygon holding it.
    ///
    /// Errors: [`Error::InvalidInputPath`] naming the first point outside the mesh (or
    /// not finite). Cost: one point location per point plus a look at the triangles
    /// around it.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::mesh::NavMesh;
    /// let v = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (0.0, 1.0)]
    ///     .map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 4, 5], vec![1, 2, 3, 4]], &[10, 20])?;
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(1.0, 1.0), DVec2::new(1.5, 0.5)];
    /// assert_eq!(mesh.polygons_along(&path)?, vec![10, 20, 20]);
    /// assert!(mesh.polygons_along(&[DVec2::new(3.0, 0.5)]).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn polygons_along(&self, path: &[DVec2]) -> Result<Vec<PolyId>> {
        super::import::along::polygons_along(self, path)
    }
}

impl NavMesh {
    /// Builds a navmesh from a [`Scene`], validating its rings first.
    ///
    /// ```
    /// use pathsmooth::navmesh::mesh::{NavMesh, Scene};
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// assert_eq!(mesh.num_triangles(), 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_scene(scene: &Scene) -> Result<Self> {
        let rings = validate_scene(scene)?;
        let mut vertices = Vec::new();
        let mut edges = Vec::new();
        for ring in &rings {
            let base = vertices.len();
            let n = ring.len();
            vertices.extend(ring.iter().map(|p| Point2::new(p.x, p.y)));
            edges.extend((0..n).map(|i| [base + i, base + (i + 1) % n]));
        }
        Self::build(vertices, edges)
    }

    /// Parses a JSON scene (`{"boundary": …, "holes": …}`) and builds its navmesh; `file`
    /// names the text in error messages. Malformed JSON and unknown keys are
    /// [`Error::Parse`]; bad rings as [`NavMesh::from_scene`]. Needs the `serde` feature.
    ///
    /// ```
    /// use pathsmooth::navmesh::mesh::NavMesh;
    /// let err = NavMesh::from_scene_json(r#"{"boundary": [[0,0],[1,1]]}"#, "bad.json").unwrap_err();
    /// assert!(err.to_string().contains("at least 3"));
    /// let typo = r#"{"boundary": [[0,0],[1,0],[0,1]], "hole": []}"#;
    /// assert!(matches!(NavMesh::from_scene_json(typo, "typo.json"), Err(pathsmooth::Error::Parse { .. })));
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn from_scene_json(text: &str, file: &str) -> Result<Self> {
        let scene: Scene = serde_json::from_str(text).map_err(|e| Error::Parse {
            file: file.to_string(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        Self::from_scene(&scene)
    }

    /// Reads a JSON scene file and builds its navmesh. Needs the `serde` feature.
    ///
    /// ```
    /// use pathsmooth::navmesh::mesh::NavMesh;
    /// let path = std::env::temp_dir().join("pathsmooth_doc_scene.json");
    /// std::fs::write(&path, r#"{"boundary": [[0,0],[3,0],[3,3],[0,3]]}"#).unwrap();
    /// assert_eq!(NavMesh::load_scene(&path)?.num_triangles(), 2);
    /// assert!(NavMesh::load_scene("/no/such/scene.json").is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn load_scene(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Self::from_scene_json(&text, &path.display().to_string())
    }

    /// Builds a navmesh of a grid map's free region by tracing the outlines of its blocked
    /// regions along cell edges (see the module docs for merging and pinches).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::GridMap;
    /// use pathsmooth::navmesh::mesh::NavMesh;
    /// let map = GridMap::from_rows(&["....", ".@@.", "...."])?;
    /// let mesh = NavMesh::from_grid(&map)?;
    /// assert!(mesh.locate(DVec2::new(0.5, 0.5)).is_some());
    /// assert!(mesh.locate(DVec2::new(1.5, 1.5)).is_none()); // blocked cell
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_grid(map: &GridMap) -> Result<Self> {
        Self::from_grid_frame(map, 1.0, DVec2::ZERO)
    }

    /// [`from_grid`](Self::from_grid) in world units: cell (x, y) covers
    /// `origin + cell_size · [x, x+1] × [y, y+1]` (see [`GridWorld`](crate::GridWorld)).
    /// `cell_size` must be positive and finite and `origin` finite (the grid world checks
    /// both).
    pub(crate) fn from_grid_frame(map: &GridMap, cell_size: f64, origin: DVec2) -> Result<Self> {
        if map.passable_count() == 0 {
            return Err(Error::InvalidPolygon {
                message: "the map has no passable cell".into(),
            });
        }
        let built = grid_build::build(map, cell_size, origin)?;
        Ok(Self::from_parts(
            built.vertices,
            built.triangles,
            built.neighbors,
        ))
    }

    /// Triangulates the constraint edges and keeps the faces of odd nesting parity.
    fn build(vertices: Vec<Point2<f64>>, edges: Vec<[usize; 2]>) -> Result<Self> {
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
    fn from_cdt(cdt: &Cdt, inside: &[bool]) -> (Self, Vec<u32>) {
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
    fn from_parts(
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
        }
    }

    /// Number of triangles.
    ///
    /// ```
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
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
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
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
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let [a, b, c] = mesh.triangle_indices()[1];
    /// assert_eq!(mesh.triangle(1), [a, b, c].map(|i| mesh.vertices()[i as usize]));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn triangle_indices(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The three corners of triangle `t`, counter-clockwise. Panics if `t` is out of range.
    ///
    /// ```
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// let [a, b, c] = mesh.triangle(0);
    /// assert!(pathsmooth::geometry::cross(b - a, c - a) > 0.0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn triangle(&self, t: TriId) -> [DVec2; 3] {
        self.triangles[t].map(|i| self.vertices[i as usize])
    }

    /// The centroid of triangle `t`. Panics if `t` is out of range.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
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
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
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

    /// The triangle across edge `i` of `t` (`neighbors(t)[i]` without building the array).
    pub(crate) fn across(&self, t: TriId, i: usize) -> Option<TriId> {
        let n = self.neighbors[t][i];
        (n != NO_TRI).then_some(n as TriId)
    }

    /// The index `i` of the edge of `a` shared with `b` (so `neighbors(a)[i] == Some(b)`),
    /// `None` when they are not adjacent (or `a` is out of range).
    ///
    /// ```
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
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
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// assert!(mesh.triangle_contains(0, DVec2::new(1.5, 1.5))); // on the hypotenuse
    /// assert!(!mesh.triangle_contains(0, DVec2::new(2.0, 2.0)));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn triangle_contains(&self, t: TriId, p: DVec2) -> bool {
        let [a, b, c] = self.triangle(t);
        cross(b - a, p - a) >= 0.0 && cross(c - b, p - b) >= 0.0 && cross(a - c, p - c) >= 0.0
    }

    /// The free triangle containing `p` (a point on a shared edge or vertex gets one of the
    /// triangles touching it), or `None` outside the free region or for non-finite `p`.
    /// A point outside the mesh's bounding box is `None` at once, and coordinates smaller
    /// than [`MIN_COORDINATE`] are taken as 0.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
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

    /// True when `p` lies in the closed bounding box of the mesh's vertices (false for NaN).
    fn in_bounds(&self, p: DVec2) -> bool {
        p.cmpge(self.lo).all() && p.cmple(self.hi).all()
    }

    /// Like [`locate`](Self::locate) but an error naming the point (`what` = `"start"`,
    /// `"goal"`, …) when it is outside the mesh.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::mesh::NavMesh;
    /// # use pathsmooth::navmesh::mesh::Scene;
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

    /// True when the segment `a`–`b` stays inside the free region: it walks the triangles
    /// from the one holding `a`, crossing shared edges, and fails on meeting a wall edge.
    /// Touching a wall or grazing a corner is allowed; a segment through a pinch vertex, or
    /// with an end outside the mesh, is refused. Conservative on ties that floating-point
    /// orientation tests cannot settle.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::mesh::{NavMesh, Scene};
    /// // An L-shaped room.
    /// let l = vec![[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0], [1.0, 2.0], [0.0, 2.0]];
    /// let mesh = NavMesh::from_scene(&Scene { boundary: l, holes: vec![] })?;
    /// assert!(mesh.line_of_sight(DVec2::new(0.5, 1.5), DVec2::new(1.5, 0.5)));
    /// assert!(!mesh.line_of_sight(DVec2::new(0.9, 1.9), DVec2::new(1.9, 0.9)));
    /// // Along the wall, touching the corner (1, 1):
    /// assert!(mesh.line_of_sight(DVec2::new(1.0, 1.5), DVec2::new(1.0, 0.5)));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn line_of_sight(&self, a: DVec2, b: DVec2) -> bool {
        if !self.in_bounds(b) {
            return false;
        }
        match self.locate(a) {
            Some(t) => self.walk(t, a, b, None).is_some(),
            None => false,
        }
    }

    /// The straight walk of [`line_of_sight`](Self::line_of_sight) from triangle `t`: the
    /// triangle holding `b`, or `None` when the segment meets a wall. With `out`, every
    /// triangle entered is appended to it, the fans round vertices the segment passes
    /// through included ([`channel_along`](Self::channel_along)).
    fn walk(
        &self,
        mut t: TriId,
        a: DVec2,
        b: DVec2,
        mut out: Option<&mut Vec<TriId>>,
    ) -> Option<TriId> {
        let d = b - a;
        // Progress along d of the last corner the walk passed.
        let mut progress = 0.0;
        // Each step enters a new triangle or passes a corner; bound it for safety.
        for _ in 0..(4 * self.triangles.len() + 16) {
            if self.triangle_contains(t, b) {
                return Some(t);
            }
            let tri = self.triangles[t];
            let p = tri.map(|i| self.vertices[i as usize]);
            let side = p.map(|v| cross(d, v - a));
            // Leave through the edge whose start is right of the line and end left of it.
            if let Some(i) = (0..3).find(|&i| side[i] < 0.0 && side[(i + 1) % 3] > 0.0) {
                t = self.across(t, i)?;
                if let Some(out) = out.as_deref_mut() {
                    out.push(t);
                }
                continue;
            }
            // Otherwise the line leaves through a corner: the farthest one on the line not
            // behind the walk (possibly the corner it stands on).
            let k = (0..3)
                .filter(|&i| side[i] == 0.0 && d.dot(p[i] - a) >= progress)
                .max_by(|&i, &j| d.dot(p[i] - a).total_cmp(&d.dot(p[j] - a)))?;
            let next = d.dot(p[k] - a);
            if next == progress && self.angle_holds(t, tri[k], d) {
                // Standing on a corner whose angle holds d, yet no exit: numerically stuck.
                return None;
            }
            progress = next;
            t = self.turn_about(t, tri[k], d, out.as_deref_mut())?;
        }
        None
    }

    fn corner(&self, t: TriId, i: usize) -> DVec2 {
        self.vertices[self.triangles[t][i % 3] as usize]
    }

    /// True when direction `d` leaves vertex `v` into the closed angle of triangle `t` at `v`.
    fn angle_holds(&self, t: TriId, v: u32, d: DVec2) -> bool {
        let Some(k) = self.triangles[t].iter().position(|&x| x == v) else {
            return false;
        };
        let o = self.corner(t, k);
        let (e1, e2) = (self.corner(t, k + 1) - o, self.corner(t, k + 2) - o);
        cross(e1, d) >= 0.0 && cross(d, e2) >= 0.0
    }

    /// Rotates about vertex `v` from triangle `t`, through shared edges only, to the triangle
    /// whose angle at `v` holds direction `d`; tries counter-clockwise first, then clockwise.
    /// `None` when walls stop both rotations (the direction leads into a wall or a pinch).
    /// With `out`, the triangles of the successful rotation (the last one included) are
    /// appended to it.
    fn turn_about(
        &self,
        t: TriId,
        v: u32,
        d: DVec2,
        mut out: Option<&mut Vec<TriId>>,
    ) -> Option<TriId> {
        if self.angle_holds(t, v, d) {
            return Some(t);
        }
        let mark = out.as_deref().map_or(0, Vec::len);
        for ccw in [true, false] {
            if let Some(out) = out.as_deref_mut() {
                out.truncate(mark);
            }
            let mut cur = t;
            for _ in 0..self.triangles.len() {
                let k = self.triangles[cur].iter().position(|&x| x == v)?;
                // Edge k leaves v (clockwise neighbour side), edge k+2 arrives at v.
                let edge = if ccw { (k + 2) % 3 } else { k };
                match self.across(cur, edge) {
                    Some(n) if n == t => break,
                    Some(n) => {
                        cur = n;
                        if let Some(out) = out.as_deref_mut() {
                            out.push(n);
                        }
                        if self.angle_holds(cur, v, d) {
                            return Some(cur);
                        }
                    }
                    None => break,
                }
            }
        }
        if let Some(out) = out {
            out.truncate(mark);
        }
        None
    }
}

/// The inner faces of a CDT that a caller keeps, as triangles with adjacency.
pub(super) struct KeptFaces {
    /// Vertex indices (spade's), counter-clockwise.
    pub triangles: Vec<[u32; 3]>,
    /// The triangle across each edge, or [`NO_TRI`] where the face across is not kept.
    pub neighbors: Vec<[u32; 3]>,
    /// Spade face index → triangle, or [`NO_TRI`].
    pub face_to_tri: Vec<u32>,
}

/// The inner faces of `cdt` for which `keep(face index, corners)` holds, with adjacency from
/// the triangulation's twin edges (O(1) per edge, no edge table).
pub(super) fn kept_faces(cdt: &Cdt, keep: impl Fn(usize, [DVec2; 3]) -> bool) -> KeptFaces {
    let mut face_to_tri = vec![NO_TRI; cdt.num_all_faces()];
    let mut triangles = Vec::new();
    for face in cdt.inner_faces() {
        let corners = face.positions().map(|p| DVec2::new(p.x, p.y));
        if keep(face.index(), corners) {
            face_to_tri[face.index()] = triangles.len() as u32;
            let [a, b, c] = face.vertices().map(|v| v.fix().index() as u32);
            let [p, q, r] = corners;
            triangles.push(if cross(q - p, r - p) > 0.0 {
                [a, b, c]
            } else {
                [a, c, b]
            });
        }
    }
    let neighbors = cdt
        .inner_faces()
        .filter(|face| face_to_tri[face.index()] != NO_TRI)
        .zip(&triangles)
        .map(|(face, tri)| {
            let mut across = [NO_TRI; 3];
            for e in face.adjacent_edges() {
                let [a, b] = [e.from(), e.to()].map(|v| v.fix().index() as u32);
                // Our corners may run the other way round than spade's.
                let i = (0..3)
                    .find(|&i| {
                        let (p, q) = (tri[i], tri[(i + 1) % 3]);
                        (p, q) == (a, b) || (p, q) == (b, a)
                    })
                    .expect("a face's edge joins two of its corners");
                across[i] = face_to_tri[e.rev().face().fix().index()];
            }
            across
        })
        .collect();
    KeptFaces {
        triangles,
        neighbors,
        face_to_tri,
    }
}

/// Marks each spade face inside the free region: a breadth-first flood from the faces on
/// the convex hull, flipping parity across every constraint edge. Every wall vertex has an
/// even number of wall edges (closed rings, grid outlines), so the parity does not depend on
/// the route the flood takes.
fn classify_faces(cdt: &Cdt) -> Vec<bool> {
    let n = cdt.num_all_faces();
    let mut parity: Vec<Option<bool>> = vec![None; n];
    let mut queue = VecDeque::new();
    for hull_edge in cdt.convex_hull() {
        // One side of a hull edge is the outer face, the other an inner face.
        for e in [hull_edge, hull_edge.rev()] {
            if let Some(inner) = e.face().as_inner() {
                let idx = inner.fix().index();
                if parity[idx].is_none() {
                    parity[idx] = Some(e.is_constraint_edge());
                    queue.push_back(inner.fix());
                }
            }
        }
    }
    while let Some(f) = queue.pop_front() {
        let here = parity[f.index()].unwrap_or(false);
        for e in cdt.face(f).adjacent_edges() {
            let Some(other) = e.rev().face().as_inner() else {
                continue;
            };
            let idx = other.fix().index();
            if parity[idx].is_none() {
                parity[idx] = Some(here ^ e.is_constraint_edge());
                queue.push_back(other.fix());
            }
        }
    }
    parity.into_iter().map(|p| p == Some(true)).collect()
}

/// The free side of a cell edge between the cell `before` it (above, or left) and the cell
/// `after` it (below, or right): Some(true) when only `after` is free, Some(false) when only
/// `before` is, None when the edge is no wall.
pub(super) fn wall_side(before: bool, after: bool) -> Option<bool> {
    (before != after).then_some(after)
}

/// The maximal runs `[k0, k1)` of `0..len` over which `side(k)` is the same `Some` (one
/// merged wall each).
pub(super) fn wall_runs(
    len: i64,
    side: impl Fn(i64) -> Option<bool>,
) -> impl Iterator<Item = (i64, i64)> {
    let mut k = 0;
    std::iter::from_fn(move || {
        while k < len {
            let Some(s) = side(k) else {
                k += 1;
                continue;
            };
            let k0 = k;
            while k < len && side(k) == Some(s) {
                k += 1;
            }
            return Some((k0, k));
        }
        None
    })
}

/// Checks a scene's rings and returns them as closed vertex lists (a repeated first point
/// at the end dropped).
fn validate_scene(scene: &Scene) -> Result<Vec<Vec<DVec2>>> {
    let bad = |message: String| Error::InvalidPolygon { message };
    let name = |r: usize| {
        if r == 0 {
            "the boundary".to_string()
        } else {
            format!("hole {}", r - 1)
        }
    };
    let mut rings = Vec::with_capacity(1 + scene.holes.len());
    for (r, raw) in std::iter::once(&scene.boundary)
        .chain(&scene.holes)
        .enumerate()
    {
        let mut ring: Vec<DVec2> = raw.iter().map(|&[x, y]| DVec2::new(x, y)).collect();
        if let Some(i) = ring.iter().position(|p| !p.is_finite()) {
            return Err(bad(format!(
                "{} vertex {i} has a NaN or infinite coordinate",
                name(r)
            )));
        }
        if let Some(i) = ring
            .iter()
            .position(|p| !(coordinate_ok(p.x) && coordinate_ok(p.y)))
        {
            return Err(bad(format!(
                "{} vertex {i} ({:?}, {:?}) is out of range: each coordinate must be 0 or have a \
                 magnitude in [{MIN_COORDINATE:e}, {MAX_COORDINATE:e}]",
                name(r),
                ring[i].x,
                ring[i].y
            )));
        }
        if ring.len() > 1 && ring.first() == ring.last() {
            ring.pop();
        }
        if ring.len() < 3 {
            return Err(bad(format!(
                "{} is not a closed polygon: it needs at least 3 distinct vertices, it has {}",
                name(r),
                ring.len()
            )));
        }
        if ring_area2(&ring) == 0.0 {
            return Err(bad(format!("{} has zero area", name(r))));
        }
        rings.push(ring);
    }
    // Duplicate vertices anywhere (within a ring or shared between rings).
    let mut seen: HashMap<(u64, u64), (usize, usize)> = HashMap::new();
    for (r, ring) in rings.iter().enumerate() {
        for (i, p) in ring.iter().enumerate() {
            let key = ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits());
            if let Some(&(r0, i0)) = seen.get(&key) {
                return Err(bad(format!(
                    "duplicate vertex ({}, {}): {} vertex {i0} and {} vertex {i}",
                    p.x,
                    p.y,
                    name(r0),
                    name(r)
                )));
            }
            seen.insert(key, (r, i));
        }
    }
    check_crossings(&rings, &name)?;
    // With no crossings, a ring is inside another iff one of its vertices is.
    for (r, ring) in rings.iter().enumerate().skip(1) {
        if !point_in_ring(ring[0], &rings[0]) {
            return Err(bad(format!("{} lies outside the boundary", name(r))));
        }
        if let Some(o) = (1..rings.len()).find(|&o| o != r && point_in_ring(ring[0], &rings[o])) {
            return Err(bad(format!("{} lies inside {}", name(r), name(o))));
        }
    }
    Ok(rings)
}

/// Twice the signed area of a ring (shoelace).
fn ring_area2(ring: &[DVec2]) -> f64 {
    (0..ring.len())
        .map(|i| cross(ring[i], ring[(i + 1) % ring.len()]))
        .sum()
}

/// Even-odd point-in-polygon test (crossing number).
fn point_in_ring(p: DVec2, ring: &[DVec2]) -> bool {
    let mut inside = false;
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
            inside = !inside;
        }
    }
    inside
}

/// Rejects any two ring edges that touch other than at a shared endpoint of consecutive
/// edges of one ring. Edges are sorted by their left end so only x-overlapping pairs are
/// tested (sweep), which keeps typical scenes near O(n log n).
fn check_crossings(rings: &[Vec<DVec2>], name: &dyn Fn(usize) -> String) -> Result<()> {
    struct Edge {
        ring: usize,
        i: usize,
        a: DVec2,
        b: DVec2,
    }
    let mut edges: Vec<Edge> = rings
        .iter()
        .enumerate()
        .flat_map(|(r, ring)| {
            (0..ring.len()).map(move |i| Edge {
                ring: r,
                i,
                a: ring[i],
                b: ring[(i + 1) % ring.len()],
            })
        })
        .collect();
    edges.sort_by(|e, f| e.a.x.min(e.b.x).total_cmp(&f.a.x.min(f.b.x)));
    for (k, e) in edges.iter().enumerate() {
        let e_max = e.a.x.max(e.b.x);
        for f in &edges[k + 1..] {
            if f.a.x.min(f.b.x) > e_max {
                break;
            }
            let n = rings[e.ring].len();
            let adjacent = e.ring == f.ring && ((e.i + 1) % n == f.i || (f.i + 1) % n == e.i);
            let hit = if adjacent {
                // Neighbours share one endpoint; they may only overlap by folding back.
                let (shared, p, q) = if e.b == f.a {
                    (e.b, e.a, f.b)
                } else {
                    (e.a, e.b, f.a)
                };
                cross(p - shared, q - shared) == 0.0 && (p - shared).dot(q - shared) > 0.0
            } else {
                segments_touch(e.a, e.b, f.a, f.b)
            };
            if hit {
                let what = if e.ring == f.ring {
                    "self-intersecting"
                } else {
                    "crossing"
                };
                return Err(Error::InvalidPolygon {
                    message: format!(
                        "{what} edges: {} edge {} and {} edge {}",
                        name(e.ring),
                        e.i,
                        name(f.ring),
                        f.i
                    ),
                });
            }
        }
    }
    Ok(())
}

/// True when closed segments `a`–`b` and `c`–`d` share at least one point.
pub(crate) fn segments_touch(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let o1 = cross(b - a, c - a);
    let o2 = cross(b - a, d - a);
    let o3 = cross(d - c, a - c);
    let o4 = cross(d - c, b - c);
    let on = |p: DVec2, q: DVec2, r: DVec2| {
        r.x >= p.x.min(q.x) && r.x <= p.x.max(q.x) && r.y >= p.y.min(q.y) && r.y <= p.y.max(q.y)
    };
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return true;
    }
    (o1 == 0.0 && on(a, b, c))
        || (o2 == 0.0 && on(a, b, d))
        || (o3 == 0.0 && on(c, d, a))
        || (o4 == 0.0 && on(c, d, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesh_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<NavMesh>();
    }

    #[test]
    fn grid_mesh_merges_runs_and_splits_at_pinches() {
        // A single blocked cell in a 3×3 map: the map border's 4 corners and the cell's 4
        // (merged runs add no vertex), a square ring of 8 triangles.
        let map = GridMap::from_rows(&["...", ".@.", "..."]).unwrap();
        let mesh = NavMesh::from_grid(&map).unwrap();
        assert_eq!((mesh.vertices().len(), mesh.num_triangles()), (8, 8));
        // Two diagonal blocked cells: the pinch vertex (2, 2) joins the two free quadrants
        // only at a point, so no sight line passes through it.
        let map = GridMap::from_rows(&["....", ".@..", "..@.", "...."]).unwrap();
        let mesh = NavMesh::from_grid(&map).unwrap();
        assert!(mesh.vertices().contains(&DVec2::new(2.0, 2.0)));
        assert!(!mesh.line_of_sight(DVec2::new(1.5, 2.5), DVec2::new(2.5, 1.5)));
        assert!(mesh.line_of_sight(DVec2::new(0.5, 2.5), DVec2::new(0.5, 0.5)));
    }
}
