//! Navmesh surfaces: convex polygons in 3D joined by shared edges, whose floors may overlap
//! in plan view (bridges, balconies, storeys, ramps over corridors) — the navmeshes that
//! Recast/Detour, Unity (`NavMesh.CalculateTriangulation`) and Godot (`NavigationMesh`)
//! produce.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`Surface`].)

mod axis;
mod build;
mod cut;
mod data;
mod detail;
mod issue;
mod keep;
mod links;
mod locate;
mod pieces;
mod plane;
mod point_tree;
mod report;
mod split;
mod topology;
mod weld;

use glam::{DVec2, DVec3};

use crate::error::Result;
use crate::navmesh::mesh::boxes::BoxIndex;
use crate::navmesh::mesh::{NavMesh, PolyId};

pub use axis::UpAxis;
pub use data::{BakeAgent, SurfaceData};
pub use detail::Detail;
pub use links::{Link, OffMeshLink};
pub use plane::Plane;
pub use report::LoadReport;
use topology::NO_POLY;

/// The planarity threshold of [`SurfaceOptions::default`]: a polygon with a vertex more than
/// 10 % of its size (the diagonal of its plan-view bounding box) from its plane is counted
/// in the [`LoadReport`] as not planar.
///
/// Only counted, never refused: the polygons of a Recast poly mesh take their vertex
/// heights from voxel spans, and on stairs and ramps they are far from planar (Recast's
/// detail mesh carries the true surface; Detour never asks).
pub const DEFAULT_PLANARITY: f64 = 0.1;

/// The weld tolerance of [`SurfaceOptions::default`], as a fraction of the diagonal of the
/// vertices' bounding box: 10⁻⁶ (a tenth of a millimetre on a 100 m level). Engines write
/// a shared corner as exact copies or copies a rounding apart; distinct corners of a
/// navmesh are at least a voxel (centimetres) apart.
pub const DEFAULT_WELD: f64 = 1e-6;

/// The climb of a surface whose file does not say what its agent climbs
/// ([`Surface::climb`]): 0.25 world units, Godot's default `agent_max_climb` (metres), below
/// Unity's default step height (0.4) and RecastDemo's `walkableClimb` (0.9). A point over a
/// polygon within the climb of its floor is on that polygon.
pub const DEFAULT_CLIMB: f64 = 0.25;

/// How to read a surface's input: the up axis, the weld tolerance, the planarity threshold
/// and what to do with T-junctions. The defaults take what engines write.
///
/// ```
/// use pathsmooth::navmesh::{SurfaceOptions, UpAxis};
/// let o = SurfaceOptions { weld: Some(1e-3), ..SurfaceOptions::new(UpAxis::Z) };
/// assert_eq!((o.up, o.weld, o.planarity, o.split_t_junctions), (UpAxis::Z, Some(1e-3), 0.1, true));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceOptions {
    /// Which world axis is up.
    pub up: UpAxis,
    /// Vertices within this Euclidean distance (world units, finite, ≥ 0) become one
    /// vertex; 0 merges exact copies only; `None` (the default) uses [`DEFAULT_WELD`] × the
    /// diagonal of the vertices' bounding box. The T-junction check uses the same distance
    /// (or the library's tolerance at the mesh's coordinates, 10⁻⁹ of the largest, if
    /// larger).
    pub weld: Option<f64>,
    /// A polygon with a vertex farther from its plane than this fraction of its plan-view
    /// size (the diagonal of its plan-view bounding box; ≥ 0, infinity for never) is
    /// counted in the [`LoadReport`] as not planar; see [`DEFAULT_PLANARITY`].
    pub planarity: f64,
    /// What to do with a T-junction (a vertex inside another polygon's edge, within the
    /// T-junction check's distance above): `true` (the default) inserts the vertex into
    /// that edge as a new corner, so the polygons on both sides share the sub-edges and
    /// become neighbours (the vertex lies on the edge, so the polygon stays convex;
    /// [`Surface::polygon`] then lists the extra corner); `false` refuses it with an error
    /// naming the vertex and the edge. Unity's and Detour's tiles leave them at their
    /// seams, and Recast bakes now and then (Detour leaves those edges unlinked).
    pub split_t_junctions: bool,
}

impl SurfaceOptions {
    /// `up`, the weld tolerance derived from the mesh's size, planarity
    /// [`DEFAULT_PLANARITY`], T-junctions split.
    pub fn new(up: UpAxis) -> Self {
        SurfaceOptions {
            up,
            weld: None,
            planarity: DEFAULT_PLANARITY,
            split_t_junctions: true,
        }
    }
}

impl Default for SurfaceOptions {
    /// y up, otherwise as [`SurfaceOptions::new`].
    fn default() -> Self {
        SurfaceOptions::new(UpAxis::Y)
    }
}

/// One polygon's bounds: plan view and height range.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    lo: DVec2,
    hi: DVec2,
    h_lo: f64,
    h_hi: f64,
}

/// Navmesh surfaces: convex polygons in 3D joined by shared edges, whose floors may overlap
/// in plan view (bridges, balconies, storeys, ramps over corridors) — the navmeshes that
/// Recast/Detour, Unity (`NavMesh.CalculateTriangulation`) and Godot (`NavigationMesh`)
/// produce.
///
/// A [`Surface`] is built from 3D vertices and polygon index lists
/// ([`Surface::from_polygons`], [`Surface::from_polygons_with`]; or from an OBJ file by
/// [`parse_obj_surface`](crate::navmesh::import::parse_obj_surface)). The up axis is
/// explicit ([`UpAxis`]): height is y (Recast, Unity, Godot) or z (Unreal, robotics), and
/// the other two axes make the plan view. Building:
///
/// 1. **welds** vertices within a tolerance (by default one derived from the mesh's size,
///    [`DEFAULT_WELD`]; Unity gives every triangle its own three vertices), then drops the
///    corners that welding makes repeat;
/// 2. takes each polygon as engines write it: a polygon with fewer than 3 distinct corners
///    or no area in plan view (a sliver, a vertical face) is dropped, a copy of an earlier
///    polygon is dropped, one wound the other way is turned round, and one far from planar
///    (Recast's stairs and ramps) is kept and counted — its heights come from the detail
///    mesh, else from its own triangles. A polygon that is not convex and simple in plan
///    view is an error naming it;
/// 3. joins polygons by **topology**: two polygons are neighbours when they share an edge
///    (a pair of welded vertex indices), never because they overlap or touch in plan view.
///    A vertex lying inside another polygon's edge (a T-junction: tile seams of Unity and
///    Detour, now and then inside a Recast bake) becomes a corner of that edge, so both
///    sides join ([`SurfaceOptions::split_t_junctions`]). An edge of three polygons
///    (non-manifold) or of two on the same side (overlapping polygons) joins none of them:
///    it stays a wall, and is counted.
///
/// What was repaired, dropped or noticed is in the surface's [`LoadReport`]
/// ([`Surface::load_report`]); polygon ids are positions in the built surface, and
/// [`Surface::input_polygon`] gives back the input index of each.
///
/// Each polygon knows its plane ([`Surface::plane`], [`Surface::height_at`]), its plan-view
/// bounds, an area id and flags (stored for the areas work; not interpreted yet). A
/// surface may carry Recast's detail mesh ([`Detail`], [`Surface::with_detail`]), the true
/// floor heights inside the polygons ([`Surface::floor_height`]), and off-mesh links
/// ([`OffMeshLink`], [`Surface::with_links`]): jumps, ladders, doors, teleports. Point
/// location takes a 3D point: [`Surface::find_nearest`] (Detour's `findNearestPoly`,
/// within half-extents) and [`Surface::locate`] (the polygon under or over the point within
/// a vertical tolerance, or an error — never a polygon of another floor).
///
/// Polygons are stored counter-clockwise in plan view (in the mathematical sense of the
/// plan-view point `(x, z)` or `(x, y)`, as [`UpAxis::split`] gives it), reversed from the
/// input where needed; polygon ids ([`PolyId`]) are their input indices.
///
/// Cost: building is O(n log n) for n vertices and polygon corners (hash maps, and a k-d
/// tree of the vertices for the T-junction check), whatever the layout: floors stacked
/// over each other, long edges beside short ones, a vertex in every polygon; memory about 100 bytes a polygon (plane, bounds, ids, index entries), 8 a polygon
/// corner, 24 a welded vertex and 4 an input vertex.
///
/// Sources: Detour's `dtNavMesh` (polygons with neighbour links, area ids and flags) and
/// `dtNavMeshQuery::findNearestPoly` (M. Mononen, recastnavigation); Newell's method for
/// the plane of a polygon (F. Tampieri, "Newell's Method for Computing the Plane Equation
/// of a Polygon", Graphics Gems III, 1992).
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::{Surface, UpAxis};
/// // A floor at height 0 and a bridge at height 3 above it (y up): they overlap in plan
/// // view but share no edge, so they are not neighbours.
/// let v = [
///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(0.0, 0.0, 4.0),
///     DVec3::new(1.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 3.0), DVec3::new(1.0, 3.0, 3.0),
/// ];
/// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 1e-6)?;
/// assert!(s.neighbors(0).all(|n| n.is_none()));
/// assert_eq!(s.locate(DVec3::new(2.0, 0.1, 2.0), 0.5)?, 0);
/// assert_eq!(s.locate(DVec3::new(2.0, 3.2, 2.0), 0.5)?, 1);
/// assert!(s.locate(DVec3::new(2.0, 1.5, 2.0), 0.5).is_err()); // between the floors
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// A navmesh surface: convex 3D polygons joined by shared edges, floors overlapping in plan
/// view allowed. (See above.)
#[derive(Debug, Clone)]
pub struct Surface {
    up: UpAxis,
    weld: f64,
    /// Welded vertices, world axes.
    vertices: Vec<DVec3>,
    /// Input vertex → welded vertex.
    remap: Vec<u32>,
    /// Polygon `p` is `ring[start[p]..start[p + 1]]`, counter-clockwise in plan view.
    start: Vec<u32>,
    ring: Vec<u32>,
    /// Parallel to `ring`: the polygon across the edge from that corner to the next, or
    /// [`NO_POLY`].
    neighbors: Vec<u32>,
    /// Per polygon, in the frame (plan x, plan y, height): unit normal with positive
    /// height component, and offset.
    planes: Vec<(DVec3, f64)>,
    /// Per polygon: off its plane by more than rounding (heights then from its triangles).
    bent: Vec<bool>,
    bounds: Vec<Bounds>,
    areas: Vec<u8>,
    flags: Vec<u16>,
    /// Polygon → its input index; empty when every input polygon was kept, in order.
    source: Vec<u32>,
    /// Polygon → the file's reference for it ([`SurfaceData::refs`]); empty for none.
    refs: Vec<u64>,
    /// Plan-view boxes of the polygons, for point location.
    index: BoxIndex,
    /// The library's "touching" tolerance at this surface's coordinates.
    tolerance: f64,
    /// The detail mesh, checked against the polygons ([`Surface::with_detail`]).
    detail: Option<Detail>,
    /// The off-mesh links, resolved ([`Surface::with_links`]).
    links: Vec<Link>,
    /// The agent the file says it was baked for.
    agent: BakeAgent,
    /// What building repaired, dropped or noticed.
    report: LoadReport,
}

impl Surface {
    /// A surface from 3D `vertices` and convex `polygons` (vertex index lists, either
    /// winding), `up` the up axis, vertices within `weld` welded; area 0 and flags 0 for
    /// every polygon, otherwise [`SurfaceOptions::new`]'s defaults. See
    /// [`from_polygons_with`](Self::from_polygons_with) for the repairs, checks and errors.
    ///
    /// Cost: O(n log n) for n vertices and polygon corners.
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// // Unity style: each triangle has its own copies of its vertices.
    /// let v = [
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 1.0),
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 1.0), DVec3::new(0.0, 0.0, 1.0),
    /// ];
    /// let s = Surface::from_polygons(&v, &[[0u32, 1, 2], [3, 4, 5]], UpAxis::Y, 1e-6)?;
    /// assert_eq!(s.vertices().len(), 4);
    /// assert_eq!(s.neighbors(0).flatten().collect::<Vec<_>>(), [1]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_polygons<P: AsRef<[u32]>>(
        vertices: &[DVec3],
        polygons: &[P],
        up: UpAxis,
        weld: f64,
    ) -> Result<Self> {
        let options = SurfaceOptions {
            weld: Some(weld),
            ..SurfaceOptions::new(up)
        };
        Self::from_polygons_with(vertices, polygons, &[], &[], &options)
    }

    /// A surface from 3D `vertices` and convex `polygons`, with an area id and flags per
    /// polygon (`areas` and `flags` each empty — every polygon 0 — or one per polygon),
    /// read as `options` say: welded, cleaned and joined as [`Surface`]'s docs say,
    /// with what was repaired in [`load_report`](Self::load_report).
    ///
    /// Errors, each naming the polygon or vertex by its input index (0-based):
    /// [`Error::BadParameter`](crate::Error::BadParameter) for a negative or NaN `weld` or
    /// `planarity`, or `areas` / `flags` of the wrong length;
    /// [`Error::NonFinite`](crate::Error::NonFinite) and
    /// [`Error::CoordinateOutOfRange`](crate::Error::CoordinateOutOfRange) for a vertex (its
    /// index as the point) with a NaN, infinite or too large coordinate (beyond
    /// [`max_map_coordinate`](crate::geometry::max_map_coordinate)); and
    /// [`Error::InvalidPolygon`](crate::Error::InvalidPolygon) for no polygons, an index out of range, no polygon left
    /// with area in plan view, a polygon that visits a vertex twice (other than a spike
    /// that welding made) or is not convex or self-intersects in plan view (beyond the
    /// weld tolerance), and a T-junction when [`SurfaceOptions::split_t_junctions`] is off
    /// (a vertex inside another polygon's edge, within the weld tolerance in 3D). Never a
    /// panic.
    ///
    /// Cost: O(n log n) for n vertices and polygon corners.
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, SurfaceOptions, UpAxis};
    /// let v = [DVec3::new(0.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), DVec3::new(0.0, 1.0, 0.0)];
    /// let s = Surface::from_polygons_with(&v, &[[0u32, 1, 2]], &[63], &[1], &SurfaceOptions::new(UpAxis::Z))?;
    /// assert_eq!((s.area(0), s.flags(0)), (63, 1));
    /// let err = Surface::from_polygons(&v, &[[0u32, 1, 7]], UpAxis::Z, 0.0).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid polygon: polygon 0 uses vertex 7, but there are 3 vertices");
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_polygons_with<P: AsRef<[u32]>>(
        vertices: &[DVec3],
        polygons: &[P],
        areas: &[u8],
        flags: &[u16],
        options: &SurfaceOptions,
    ) -> Result<Self> {
        Self::build(vertices, polygons, (areas, flags), options, None).map_err(|issue| issue.error)
    }

    /// The flat surface (height 0) of a 2D navmesh's polygons
    /// ([`NavMesh::polygon`]; its triangles for meshes made from scenes and grids), with
    /// `up` as the up axis. Polygon `i` of the surface is polygon `i` of the mesh; vertex
    /// `i` is its vertex `i` (nothing to weld), and its id ([`NavMesh::polygon_id`]) is
    /// the surface polygon's [reference](Self::polygon_ref). Each polygon keeps the mesh's
    /// area id when the mesh has areas ([`NavMesh::with_areas`]), else it is area 0 (flags
    /// 0). A mesh's polygons share their edges by
    /// construction and [`NavMesh::from_polygons`] refuses T-junctions, so this fails only
    /// on slivers whose plan-view area is below the tolerance of the mesh's coordinates.
    ///
    /// Cost: O(n log n) for n vertices and polygon corners.
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{NavMesh, Scene, Surface, UpAxis};
    /// let mesh = NavMesh::from_scene(&Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] })?;
    /// let s = Surface::from_navmesh(&mesh, UpAxis::Z)?;
    /// assert_eq!(s.num_polygons(), mesh.num_polygons());
    /// let t = mesh.locate(DVec2::new(1.5, 0.5)).unwrap();
    /// assert_eq!(s.locate(DVec3::new(1.5, 0.5, 0.0), 0.1)?, mesh.polygon_of(t));
    ///
    /// let v = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// let named = NavMesh::from_polygons_with_ids(&v, &[vec![0, 1, 2]], &[9])?;
    /// assert_eq!(Surface::from_navmesh(&named, UpAxis::Z)?.polygon_ref(0), 9);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_navmesh(mesh: &NavMesh, up: UpAxis) -> Result<Self> {
        let vertices: Vec<DVec3> = mesh.vertices().iter().map(|&v| up.join(v, 0.0)).collect();
        let polygons: Vec<&[u32]> = (0..mesh.num_polygons()).map(|i| mesh.polygon(i)).collect();
        // The mesh's areas, when it has them ([`NavMesh::with_areas`]); else area 0.
        let mut areas = Vec::new();
        if mesh.has_areas() {
            areas.resize(polygons.len(), 0);
            for t in 0..mesh.num_triangles() {
                areas[mesh.polygon_index_of(t)] = mesh.area_of(t);
            }
        }
        let mut surface =
            Self::from_polygons_with(&vertices, &polygons, &areas, &[], &SurfaceOptions::new(up))?;
        // The polygons' ids ([`NavMesh::from_polygons_with_ids`]) are their references.
        let ids = (0..polygons.len()).map(|i| u64::from(mesh.polygon_id(i)));
        if ids.clone().enumerate().any(|(i, id)| id != i as u64) {
            surface.refs = ids.collect();
        }
        Ok(surface)
    }

    /// The up axis.
    pub fn up(&self) -> UpAxis {
        self.up
    }

    /// The weld tolerance the surface was built with (given, or derived from its size).
    pub fn weld_tolerance(&self) -> f64 {
        self.weld
    }

    /// The distance within which a point is on a line here: the weld tolerance, or the
    /// library's tolerance at the surface's coordinates if larger (what the builder used
    /// for T-junctions and straight corners).
    pub(crate) fn straight_tolerance(&self) -> f64 {
        self.weld.max(self.tolerance)
    }

    /// What building the surface repaired, dropped or noticed in its input. O(1).
    pub fn load_report(&self) -> &LoadReport {
        &self.report
    }

    /// The input index of polygon `p` (the position in the polygon list the surface was
    /// built from: polygons dropped while building leave gaps). Panics if `p` is out of
    /// range. O(1).
    pub fn input_polygon(&self, p: PolyId) -> u32 {
        if self.source.is_empty() {
            assert!(
                (p as usize) < self.num_polygons(),
                "polygon {p} out of range"
            );
            p
        } else {
            self.source[p as usize]
        }
    }

    /// The file's own reference for polygon `p` ([`SurfaceData::refs`]: Detour's
    /// `dtPolyRef` for a Detour navmesh), else its [input index](Self::input_polygon).
    /// Panics if `p` is out of range. O(1).
    pub fn polygon_ref(&self, p: PolyId) -> u64 {
        let input = self.input_polygon(p);
        self.refs
            .get(input as usize)
            .copied()
            .unwrap_or(u64::from(input))
    }

    /// The agent the file says the navmesh was baked for ([`SurfaceData::agent`]; every
    /// field `None` for a surface built from polygons). O(1).
    pub fn bake_agent(&self) -> BakeAgent {
        self.agent
    }

    /// How far above or below a floor a point may be and still be on it: the bake's climb
    /// ([`bake_agent`](Self::bake_agent)) when the file says, else [`DEFAULT_CLIMB`]. The
    /// queries locate points with it unless told otherwise
    /// ([`SurfaceQuery::set_climb`](crate::navmesh::SurfaceQuery::set_climb)). O(1).
    pub fn climb(&self) -> f64 {
        self.agent.climb.unwrap_or(DEFAULT_CLIMB)
    }

    /// The welded vertices, in world axes. Each is the first input vertex of its copies,
    /// unchanged.
    pub fn vertices(&self) -> &[DVec3] {
        &self.vertices
    }

    /// The welded vertex that input vertex `i` became (an index into
    /// [`vertices`](Self::vertices)), or `None` if `i` is out of range. O(1).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// let v = [DVec3::ZERO, DVec3::X, DVec3::Z, DVec3::new(1e-9, 0.0, 0.0)];
    /// let s = Surface::from_polygons(&v, &[[3u32, 1, 2]], UpAxis::Y, 1e-6)?;
    /// assert_eq!(s.welded_vertex(3), s.welded_vertex(0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn welded_vertex(&self, i: usize) -> Option<u32> {
        self.remap.get(i).copied()
    }

    /// The number of polygon corners, all polygons together.
    pub(crate) fn polygon_corners(&self) -> usize {
        self.ring.len()
    }

    /// Number of polygons.
    pub fn num_polygons(&self) -> usize {
        self.start.len() - 1
    }

    /// The range of `ring` holding polygon `p`. Panics if `p` is out of range.
    fn span(&self, p: PolyId) -> std::ops::Range<usize> {
        self.start[p as usize] as usize..self.start[p as usize + 1] as usize
    }

    /// The vertices of polygon `p` (indices into [`vertices`](Self::vertices)),
    /// counter-clockwise in plan view, after welding. Panics if `p` is out of range. O(1).
    pub fn polygon(&self, p: PolyId) -> &[u32] {
        &self.ring[self.span(p)]
    }

    /// The corners of polygon `p` in plan view (the surface's two horizontal axes),
    /// counter-clockwise, in [`polygon`](Self::polygon)'s order. Panics if `p` is out of
    /// range. O(1) per corner.
    pub fn plan_polygon(&self, p: PolyId) -> impl ExactSizeIterator<Item = DVec2> + '_ {
        (self.polygon(p).iter()).map(|&v| self.up.plan(self.vertices[v as usize]))
    }

    /// The polygon across each edge of polygon `p` — edge `i` runs from corner `i` to
    /// corner `i + 1` of [`polygon`](Self::polygon) — or `None` for a boundary edge.
    /// Panics if `p` is out of range. O(1) per edge.
    pub fn neighbors(&self, p: PolyId) -> impl Iterator<Item = Option<PolyId>> + '_ {
        self.neighbors[self.span(p)]
            .iter()
            .map(|&n| (n != NO_POLY).then_some(n))
    }

    /// Polygon `p`'s area id (0 unless given). Panics if `p` is out of range.
    pub fn area(&self, p: PolyId) -> u8 {
        self.areas[p as usize]
    }

    /// Polygon `p`'s flags (0 unless given). Panics if `p` is out of range.
    pub fn flags(&self, p: PolyId) -> u16 {
        self.flags[p as usize]
    }

    /// Polygon `p`'s plane by Newell's method (unit normal pointing up, world axes).
    /// Panics if `p` is out of range. O(1).
    pub fn plane(&self, p: PolyId) -> Plane {
        let (n, d) = self.planes[p as usize];
        Plane {
            normal: self.up.frame_to_world(n),
            offset: d,
        }
    }

    /// Polygon `p`'s plan-view bounding box `(min, max)`. Panics if `p` is out of range.
    pub fn plan_bounds(&self, p: PolyId) -> (DVec2, DVec2) {
        let b = &self.bounds[p as usize];
        (b.lo, b.hi)
    }

    /// The height of polygon `p`'s plane at plan-view point `plan` (anywhere: the plane
    /// extends past the polygon). Finite for finite `plan` within the coordinate limits
    /// (the plane's normal is never horizontal). Panics if `p` is out of range. O(1).
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// let v = [DVec3::new(0.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 1.0), DVec3::new(2.0, 2.0, 1.0), DVec3::new(0.0, 2.0, 0.0)];
    /// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Z, 0.0)?;
    /// assert!((s.height_at(0, DVec2::new(1.0, 1.0)) - 0.5).abs() < 1e-12);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn height_at(&self, p: PolyId, plan: DVec2) -> f64 {
        let (n, d) = self.planes[p as usize];
        (d - n.x * plan.x - n.y * plan.y) / n.z
    }
}

/// A fan of `n` triangles round the origin, of radius `radius`, y up: vertex 0 the centre,
/// vertex `1 + k` the rim at angle `2πk/n`, triangle `k` from the centre to rim vertices
/// `k + 1` and `k` (counter-clockwise seen from above). Its long spokes' boxes each hold
/// most of the rim, the worst case of the searches that pair boxes. For tests.
#[cfg(test)]
pub(crate) fn fan(n: u32, radius: f64) -> (Vec<DVec3>, Vec<[u32; 3]>) {
    let mut v = vec![DVec3::ZERO];
    v.extend((0..n).map(|k| {
        let t = std::f64::consts::TAU * f64::from(k) / f64::from(n);
        DVec3::new(radius * t.cos(), 0.0, radius * t.sin())
    }));
    let tris = (0..n).map(|k| [0, 1 + (k + 1) % n, 1 + k]).collect();
    (v, tris)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surface_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Surface>();
    }
}
