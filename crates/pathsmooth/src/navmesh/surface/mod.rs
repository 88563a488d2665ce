//! Navmesh surfaces: convex polygons in 3D joined by shared edges, whose floors may overlap
//! in plan view (bridges, balconies, storeys, ramps over corridors) — the navmeshes that
//! Recast/Detour, Unity (`NavMesh.CalculateTriangulation`) and Godot (`NavigationMesh`)
//! produce.
//!
//! A [`Surface`] is built from 3D vertices and polygon index lists
//! ([`Surface::from_polygons`], [`Surface::from_polygons_with`]; or from an OBJ file by
//! [`parse_obj_surface`](crate::navmesh::import::parse_obj_surface)). The up axis is
//! explicit ([`UpAxis`]): height is y (Recast, Unity, Godot) or z (Unreal, robotics), and
//! the other two axes make the plan view. Building:
//!
//! 1. **welds** vertices within a stated tolerance (Unity gives every triangle its own
//!    three vertices), then drops repeated corners that welding leaves;
//! 2. checks each polygon: at least 3 distinct vertices, positive area in plan view,
//!    convex and simple in plan view, and planar (every vertex within
//!    [`SurfaceOptions::planarity`] × its plan-view size of the polygon's Newell plane);
//! 3. joins polygons by **topology**: two polygons are neighbours when they share an edge
//!    (a pair of welded vertex indices), never because they overlap or touch in plan view;
//!    an edge of three polygons (non-manifold), two polygons on the same side of an edge
//!    (a fold) and T-junctions are errors — or, with
//!    [`SurfaceOptions::split_t_junctions`], T-junction vertices become corners of the
//!    edges they lie on.
//!
//! Each polygon knows its plane ([`Surface::plane`], [`Surface::height_at`]), its plan-view
//! bounds, an area id and flags (stored for the areas work; not interpreted yet). A
//! surface may carry Recast's detail mesh ([`Detail`], [`Surface::with_detail`]), the true
//! floor heights inside the polygons ([`Surface::floor_height`]), and off-mesh links
//! ([`OffMeshLink`], [`Surface::with_links`]): jumps, ladders, doors, teleports. Point
//! location takes a 3D point: [`Surface::find_nearest`] (Detour's `findNearestPoly`,
//! within half-extents) and [`Surface::locate`] (the polygon under or over the point within
//! a vertical tolerance, or an error — never a polygon of another floor).
//!
//! Polygons are stored counter-clockwise in plan view (in the mathematical sense of the
//! plan-view point `(x, z)` or `(x, y)`, as [`UpAxis::split`] gives it), reversed from the
//! input where needed; polygon ids ([`PolyId`]) are their input indices.
//!
//! Cost: building is O(vertices + total polygon size) expected (hash maps and bucket
//! grids); memory about 100 bytes a polygon (plane, bounds, ids, index entries), 8 a polygon
//! corner, 24 a welded vertex and 4 an input vertex.
//!
//! Sources: Detour's `dtNavMesh` (polygons with neighbour links, area ids and flags) and
//! `dtNavMeshQuery::findNearestPoly` (M. Mononen, recastnavigation); Newell's method for
//! the plane of a polygon (F. Tampieri, "Newell's Method for Computing the Plane Equation
//! of a Polygon", Graphics Gems III, 1992).
//!
//! ```
//! use glam::DVec3;
//! use pathsmooth::navmesh::{Surface, UpAxis};
//! // A floor at height 0 and a bridge at height 3 above it (y up): they overlap in plan
//! // view but share no edge, so they are not neighbours.
//! let v = [
//!     DVec3::new(0.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(0.0, 0.0, 4.0),
//!     DVec3::new(1.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 3.0), DVec3::new(1.0, 3.0, 3.0),
//! ];
//! let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 1e-6)?;
//! assert!(s.neighbors(0).all(|n| n.is_none()));
//! assert_eq!(s.locate(DVec3::new(2.0, 0.1, 2.0), 0.5)?, 0);
//! assert_eq!(s.locate(DVec3::new(2.0, 3.2, 2.0), 0.5)?, 1);
//! assert!(s.locate(DVec3::new(2.0, 1.5, 2.0), 0.5).is_err()); // between the floors
//! # Ok::<(), pathsmooth::Error>(())
//! ```

mod axis;
mod data;
mod detail;
mod issue;
mod links;
mod locate;
mod pieces;
mod plane;
mod split;
mod topology;
mod weld;

use glam::{DVec2, DVec3};

use crate::error::{num, Error, Result};
use crate::geometry::{check_within, max_map_coordinate, tolerance_at};
use crate::navmesh::mesh::boxes::BoxIndex;
use crate::navmesh::mesh::{NavMesh, PolyId};

pub use axis::UpAxis;
pub use data::{BakeAgent, SurfaceData};
pub use detail::Detail;
pub(crate) use issue::Issue;
pub use links::{Link, OffMeshLink};
pub use plane::Plane;
use topology::NO_POLY;

/// The planarity tolerance of [`SurfaceOptions::default`]: a vertex may be up to 10 % of
/// its polygon's size (the diagonal of its plan-view bounding box) from the polygon's plane.
///
/// Loose on purpose: the polygons of a Recast poly mesh take their vertex heights from
/// voxel spans, so they are planar only to about a cell height (Recast's detail mesh
/// carries the true surface). The check is there to catch polygons that are not floors
/// at all (a face bent across two storeys, a mis-indexed vertex).
pub const DEFAULT_PLANARITY: f64 = 0.1;

/// How to read a surface's input: the up axis, the weld tolerance and the planarity
/// tolerance.
///
/// ```
/// use pathsmooth::navmesh::{SurfaceOptions, UpAxis};
/// let o = SurfaceOptions { weld: 1e-3, ..SurfaceOptions::new(UpAxis::Z) };
/// assert_eq!((o.up, o.weld, o.planarity), (UpAxis::Z, 1e-3, 0.1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceOptions {
    /// Which world axis is up.
    pub up: UpAxis,
    /// Vertices within this Euclidean distance (world units, ≥ 0) become one vertex; 0
    /// merges exact copies only. The T-junction check uses the same distance (or the
    /// library's tolerance at the mesh's coordinates, 10⁻⁹ of the largest, if larger).
    pub weld: f64,
    /// The largest distance of a polygon's vertex from the polygon's plane, as a fraction
    /// of the polygon's plan-view size (the diagonal of its plan-view bounding box; ≥ 0);
    /// see [`DEFAULT_PLANARITY`].
    pub planarity: f64,
    /// What to do with a T-junction (a vertex inside another polygon's edge, within the
    /// T-junction check's distance above): `false` (the default) refuses it with an error
    /// naming the vertex and the edge; `true` inserts the vertex into that edge as a new
    /// corner, so the polygons on both sides share the sub-edges and become neighbours.
    /// The vertex lies on the edge, so the polygon stays convex and planar;
    /// [`Surface::polygon`] then lists the extra corner. Recast bakes contain such
    /// vertices now and then (Detour leaves those edges unlinked).
    pub split_t_junctions: bool,
}

impl SurfaceOptions {
    /// `up`, weld 0 (exact copies only), planarity [`DEFAULT_PLANARITY`], T-junctions
    /// refused.
    pub fn new(up: UpAxis) -> Self {
        SurfaceOptions {
            up,
            weld: 0.0,
            planarity: DEFAULT_PLANARITY,
            split_t_junctions: false,
        }
    }
}

impl Default for SurfaceOptions {
    /// y up, weld 0, planarity [`DEFAULT_PLANARITY`], T-junctions refused.
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

/// A navmesh surface: convex 3D polygons joined by shared edges, floors overlapping in plan
/// view allowed. See the [module docs](self).
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
    bounds: Vec<Bounds>,
    areas: Vec<u8>,
    flags: Vec<u16>,
    /// Plan-view boxes of the polygons, for point location.
    index: BoxIndex,
    /// The library's "touching" tolerance at this surface's coordinates.
    tolerance: f64,
    /// The detail mesh, checked against the polygons ([`Surface::with_detail`]).
    detail: Option<Detail>,
    /// The off-mesh links, resolved ([`Surface::with_links`]).
    links: Vec<Link>,
}

impl Surface {
    /// A surface from 3D `vertices` and convex `polygons` (vertex index lists, either
    /// winding), `up` the up axis, vertices within `weld` welded; area 0 and flags 0 for
    /// every polygon, planarity [`DEFAULT_PLANARITY`]. See
    /// [`from_polygons_with`](Self::from_polygons_with) for the checks and errors.
    ///
    /// Cost: O(vertices + total polygon size) expected.
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
            weld,
            ..SurfaceOptions::new(up)
        };
        Self::from_polygons_with(vertices, polygons, &[], &[], &options)
    }

    /// A surface from 3D `vertices` and convex `polygons`, with an area id and flags per
    /// polygon (`areas` and `flags` each empty — every polygon 0 — or one per polygon),
    /// read as `options` say.
    ///
    /// Errors, each naming the polygon or vertex by its input index (0-based):
    /// [`Error::BadParameter`] for a negative or NaN `weld` or `planarity`, or `areas` /
    /// `flags` of the wrong length; [`Error::NonFinite`] and
    /// [`Error::CoordinateOutOfRange`] for a vertex (its index as the point) with a NaN,
    /// infinite or too large coordinate (beyond
    /// [`max_map_coordinate`]); and
    /// [`Error::InvalidPolygon`] for no polygons, an index out of range, fewer than 3
    /// distinct vertices (after welding), a vertex used twice by one polygon, zero area in
    /// plan view (a vertical polygon), a polygon not convex or self-intersecting in plan
    /// view, a polygon far from planar, an edge of three or more polygons, two polygons on
    /// the same side of an edge, and a T-junction (a vertex inside another polygon's edge,
    /// within the weld tolerance in 3D; split instead with
    /// [`SurfaceOptions::split_t_junctions`]). Never a panic.
    ///
    /// Cost: O(vertices + total polygon size) expected.
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
        Self::build(vertices, polygons, areas, flags, options).map_err(|issue| issue.error)
    }

    /// The builder behind every constructor: like
    /// [`from_polygons_with`](Self::from_polygons_with), with the polygon or vertex of
    /// the problem beside the error (for file readers to name its line).
    pub(crate) fn build<P: AsRef<[u32]>>(
        vertices: &[DVec3],
        polygons: &[P],
        areas: &[u8],
        flags: &[u16],
        options: &SurfaceOptions,
    ) -> std::result::Result<Self, Issue> {
        let plain = |error| Issue {
            polygon: None,
            vertex: None,
            error,
        };
        let SurfaceOptions {
            up,
            weld,
            planarity,
            split_t_junctions,
        } = *options;
        for (name, value) in [("weld", weld), ("planarity", planarity)] {
            if !(value >= 0.0 && value.is_finite()) {
                return Err(plain(Error::BadParameter {
                    name,
                    value,
                    expected: "a finite number ≥ 0",
                }));
            }
        }
        for (name, len) in [("areas", areas.len()), ("flags", flags.len())] {
            if len != 0 && len != polygons.len() {
                return Err(plain(Error::BadParameter {
                    name,
                    value: len as f64,
                    expected: "as many entries as polygons, or none",
                }));
            }
        }
        if polygons.is_empty() {
            return Err(plain(Error::InvalidPolygon {
                message: "the surface has no polygons".into(),
            }));
        }
        if vertices.len() >= NO_POLY as usize || polygons.len() >= NO_POLY as usize {
            return Err(plain(Error::InvalidPolygon {
                message: format!(
                    "{} vertices and {} polygons: at most {} of each",
                    vertices.len(),
                    polygons.len(),
                    NO_POLY - 1
                ),
            }));
        }
        check_within(vertices, max_map_coordinate::<f64>()).map_err(|error| {
            let vertex = match error {
                Error::NonFinite { index } => Some(index),
                Error::CoordinateOutOfRange { index, .. } => index,
                _ => None,
            };
            Issue {
                polygon: None,
                vertex,
                error,
            }
        })?;
        for (p, poly) in polygons.iter().enumerate() {
            if let Some(&v) = poly
                .as_ref()
                .iter()
                .find(|&&v| v as usize >= vertices.len())
            {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p} uses vertex {v}, but there are {} vertices",
                        vertices.len()
                    ),
                ));
            }
        }

        // 1. Weld, in the frame (a permutation of the axes: distances unchanged).
        let frame_in: Vec<DVec3> = vertices.iter().map(|&v| up.world_to_frame(v)).collect();
        let welded = weld::weld(&frame_in, weld);
        let frame = welded.vertices;
        // Welded vertex → the input vertex it came from (the first of its copies).
        let mut names = vec![0u32; frame.len()];
        for (i, &w) in welded.remap.iter().enumerate().rev() {
            names[w as usize] = i as u32;
        }
        let magnitude = frame
            .iter()
            .fold(0.0f64, |m, p| m.max(p.abs().max_element()));
        let tolerance = tolerance_at(magnitude);

        // 2. Each polygon on its own.
        let mut start = Vec::with_capacity(polygons.len() + 1);
        let mut ring: Vec<u32> = Vec::new();
        let mut planes = Vec::with_capacity(polygons.len());
        let mut bounds = Vec::with_capacity(polygons.len());
        start.push(0u32);
        let mut corners: Vec<u32> = Vec::new();
        let mut sorted: Vec<u32> = Vec::new();
        let mut pts3: Vec<DVec3> = Vec::new();
        let mut pts2: Vec<DVec2> = Vec::new();
        for (p, poly) in polygons.iter().enumerate() {
            corners.clear();
            for &v in poly.as_ref() {
                let w = welded.remap[v as usize];
                if corners.last() != Some(&w) {
                    corners.push(w);
                }
            }
            while corners.len() > 1 && corners.first() == corners.last() {
                corners.pop();
            }
            if corners.len() < 3 {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p} has {} distinct vertices after welding within {}, fewer than 3",
                        corners.len(),
                        num(weld)
                    ),
                ));
            }
            sorted.clear();
            sorted.extend_from_slice(&corners);
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p} visits vertex {} twice (after welding within {}): it is not a simple polygon",
                        names[w[0] as usize],
                        num(weld)
                    ),
                ));
            }
            pts2.clear();
            pts2.extend(corners.iter().map(|&w| frame[w as usize].truncate()));
            let area2 = plane::plan_area2(&pts2);
            let plan_size = {
                let (lo, hi) = pts2.iter().fold(
                    (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
                    |(lo, hi), &q| (lo.min(q), hi.max(q)),
                );
                (hi - lo).length()
            };
            // Zero (or rounding-level) area in plan view: a wall, a vertical or collapsed
            // polygon; it has no height at any plan-view point.
            if area2.abs() <= tolerance * plan_size.max(tolerance) || !area2.is_finite() {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p} has no area in plan view (up axis {up}): it is vertical or collapsed"
                    ),
                ));
            }
            if area2 < 0.0 {
                corners.reverse();
                pts2.reverse();
            }
            if let Err((i, why)) = plane::check_convex(&pts2) {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p}, at vertex {} (plan view, up axis {up}), {why}",
                        names[corners[i] as usize]
                    ),
                ));
            }
            pts3.clear();
            pts3.extend(corners.iter().map(|&w| frame[w as usize]));
            let Some((n, d, dev, worst)) = plane::fit_plane(&pts3) else {
                return Err(Issue::polygon(
                    p,
                    format!("polygon {p} has no plane (zero area)"),
                ));
            };
            // Relative to the plan-view size: a floor is measured by its extent on the
            // ground, and a twisted polygon must not pass by being tall.
            if dev > planarity * plan_size {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p} is not planar: vertex {} is {} from its plane, more than {} × its plan-view size {}",
                        names[corners[worst] as usize],
                        num(dev),
                        num(planarity),
                        num(plan_size)
                    ),
                ));
            }
            planes.push((n, d));
            let (lo, hi) = pts3.iter().fold(
                (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
                |(lo, hi), &q| (lo.min(q), hi.max(q)),
            );
            bounds.push(Bounds {
                lo: lo.truncate(),
                hi: hi.truncate(),
                h_lo: lo.z,
                h_hi: hi.z,
            });
            ring.extend_from_slice(&corners);
            start.push(ring.len() as u32);
        }

        // 3. Topology, then the checks that need it.
        let reach = weld.max(tolerance);
        let mut neighbors = topology::adjacency(&start, &ring, &names)?;
        if split_t_junctions
            && split::split_t_junctions(&frame, &mut start, &mut ring, &neighbors, &names, reach)?
        {
            // The split edges are new vertex pairs: join them (and refuse a sub-edge of
            // three polygons or a fold, as for any edge).
            neighbors = topology::adjacency(&start, &ring, &names)?;
        }
        topology::t_junction(&frame, &start, &ring, &neighbors, &names, reach)?;

        let (lo, hi) = bounds.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), b| (lo.min(b.lo), hi.max(b.hi)),
        );
        let index = BoxIndex::new(
            lo,
            hi,
            bounds.len() as f64,
            bounds.iter().map(|b| (b.lo, b.hi)),
        );
        Ok(Surface {
            up,
            weld,
            vertices: frame.iter().map(|&f| up.frame_to_world(f)).collect(),
            remap: welded.remap,
            start,
            ring,
            neighbors,
            planes,
            bounds,
            areas: if areas.is_empty() {
                vec![0; polygons.len()]
            } else {
                areas.to_vec()
            },
            flags: if flags.is_empty() {
                vec![0; polygons.len()]
            } else {
                flags.to_vec()
            },
            index,
            tolerance,
            detail: None,
            links: Vec::new(),
        })
    }

    /// The flat surface (height 0) of a 2D navmesh's polygons
    /// ([`NavMesh::polygon`]; its triangles for meshes made from scenes and grids), with
    /// `up` as the up axis. Polygon `i` of the surface is polygon `i` of the mesh; vertex
    /// `i` is its vertex `i` (nothing to weld). Each polygon keeps the mesh's area id when
    /// the mesh has areas ([`NavMesh::with_areas`]), else it is area 0 (flags 0). A mesh's polygons share their edges by
    /// construction and [`NavMesh::from_polygons`] refuses T-junctions, so this fails only
    /// on slivers whose plan-view area is below the tolerance of the mesh's coordinates.
    ///
    /// Cost: O(vertices + total polygon size).
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{NavMesh, Scene, Surface, UpAxis};
    /// let mesh = NavMesh::from_scene(&Scene { boundary: vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], holes: vec![] })?;
    /// let s = Surface::from_navmesh(&mesh, UpAxis::Z)?;
    /// assert_eq!(s.num_polygons(), mesh.num_polygons());
    /// let t = mesh.locate(DVec2::new(1.5, 0.5)).unwrap();
    /// assert_eq!(s.locate(DVec3::new(1.5, 0.5, 0.0), 0.1)?, mesh.polygon_of(t));
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
        Self::from_polygons_with(&vertices, &polygons, &areas, &[], &SurfaceOptions::new(up))
    }

    /// The up axis.
    pub fn up(&self) -> UpAxis {
        self.up
    }

    /// The weld tolerance the surface was built with.
    pub fn weld_tolerance(&self) -> f64 {
        self.weld
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surface_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Surface>();
    }
}
