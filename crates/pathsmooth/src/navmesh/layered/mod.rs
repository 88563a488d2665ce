//! Paths on layered navmeshes: the search, the funnel and smoothing on a [`Surface`] whose
//! floors overlap in plan view.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`SurfaceMesh`].)

mod edge_tree;
mod links;
mod merge;
mod moves;
mod poly_search;
mod query;
mod sheet;
mod triangulate;
mod walls;

pub use links::Leg;
pub(crate) use query::lift_on_sheet;
pub use query::{PointFlags, SurfacePoint, SurfaceQuery};
pub use sheet::Sheet;

use std::sync::OnceLock;

use glam::DVec2;
use rustc_hash::FxHashMap;

use self::edge_tree::EdgeTree;
use self::merge::{Corners, SearchPolygons};
use crate::cancel::{Cancel, Checkpoint};
use crate::error::{Error, Result};
use crate::navmesh::mesh::{NavMesh, PolyId, TriId, NO_TRI, TURN};
use crate::navmesh::surface::Surface;

/// Paths on layered navmeshes: the search, the funnel and smoothing on a [`Surface`] whose
/// floors overlap in plan view.
///
/// A [`SurfaceMesh`] cuts every convex polygon of a surface into triangles and joins them by
/// the surface's **topology** (shared edges), never by plan-view geometry. Its plan-view
/// triangles may overlap — a bridge over a corridor, two storeys — and that is harmless to
/// everything that walks from triangle to neighbouring triangle: the Polyanya search, the
/// Demyen–Buro widths of the radius search, the portals and the funnel only ever look at
/// the triangles of one floor, because they get there by crossing shared edges. What an
/// overlap breaks is plan-view *location* (which triangle holds the point (x, z)?), so
/// every entry here takes 3D points and locates them on the surface
/// ([`Surface::find_nearest`], Detour's `findNearestPoly`), or takes the polygon.
///
/// [`SurfaceQuery`] is the query object (as Detour's `dtNavMeshQuery`): the shortest path at
/// radius 0 (exact: Polyanya over the surface's convex polygons, joined by topology, as
/// polyanya's own layered meshes do), the funnel with a radius (over the triangles), returned in 3D with each point's polygon and flags, as Detour's
/// `findStraightPath` returns them ([`SurfacePoint`]).
///
/// Smoothing a path needs plan-view geometry around it (clearance, line of sight): the
/// query's [`sheet`](SurfaceQuery::sheet) is the part of the surface around the path's
/// channel that is one floor deep — the triangles reached from the channel by walking, a
/// triangle left out when it overlaps one already taken. It is a flat [`NavMesh`], so every
/// step of the library runs on it unchanged, and what is valid on it is valid on the surface
/// (it is a piece of the surface, its cut edges walls). The pipeline on a layered navmesh
/// ([`SurfaceWorld`](crate::SurfaceWorld), [`Pipeline::plan_surface`](crate::Pipeline::plan_surface))
/// runs on it.
///
/// A [`Surface`] cut into plan-view triangles joined by topology (see
/// above): the mesh every layered query walks.
///
/// Each polygon of `k` corners becomes `k − 2` triangles of positive plan-view area (its real
/// corners fanned, and each fan triangle whose side carries straight corners — split
/// T-junctions — fanned again across them from its opposite corner, so no triangle is
/// flat); a polygon's triangles are consecutive. Cost: O(total polygon size), and
/// about 40 bytes a triangle, 16 a polygon corner (topology and floor heights) and the
/// polygon search's merged polygons (about 46 bytes a corner) beside the surface; the
/// first [sheet](SurfaceQuery::sheet) adds the tree of the triangles' sides (O(n log n)
/// once, about 40 bytes a triangle).
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
/// let v = [
///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(0.0, 0.0, 4.0),
///     DVec3::new(1.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 3.0), DVec3::new(1.0, 3.0, 3.0),
/// ];
/// let surface = Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0)?;
/// let mesh = SurfaceMesh::new(surface)?;
/// assert_eq!(mesh.plan_mesh().num_triangles(), 4);
/// assert_eq!(mesh.triangles_of(1), 2..4);
/// assert_eq!(mesh.polygon_of(3), 1);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SurfaceMesh {
    surface: Surface,
    /// Plan-view triangles over the surface's vertices; they may overlap.
    mesh: NavMesh,
    /// Polygon `p`'s triangles are `first[p]..first[p + 1]`.
    first: Vec<u32>,
    /// Triangle → polygon.
    polygon: Vec<u32>,
    /// Polygon → its connected piece ([`Surface::pieces`]).
    pieces: Vec<u32>,
    /// Polygon `p`'s corners are `corner_start[p]..corner_start[p + 1]` of the arrays
    /// below (the surface's topology, 16 bytes a corner with the floor height).
    corner_start: Vec<u32>,
    /// The corner's vertex.
    corner_vert: Vec<u32>,
    /// The polygon across the edge from this corner to the next (`u32::MAX`: a wall).
    corner_nb: Vec<u32>,
    /// The floor's height at the corner ([`Surface::floor_height`] there, 8 bytes a
    /// corner): a path's corners are lifted without searching the detail mesh.
    corner_floor: Vec<f64>,
    /// The polygons merged for the polygon search (`merge`).
    search: SearchPolygons,
    /// The k-d tree of the plan mesh's triangle sides for the sheet's overlap test, built
    /// by the first sheet.
    sides: OnceLock<EdgeTree>,
    /// Which plan-view triangles overlap another (`sheet::overlapping`), found on first
    /// ask, or in a cancellable build.
    overlapping: OnceLock<Overlapping>,
}

/// Which triangles of a plan mesh overlap another in plan view (`sheet::overlapping`).
#[derive(Debug, Clone)]
pub(crate) struct Overlapping {
    /// Per plan-mesh triangle: its interior meets another triangle's (or telling cost too
    /// much).
    pub(crate) flags: Vec<bool>,
    /// No triangle overlaps another: the mesh is one floor deep everywhere.
    pub(crate) one_floor: bool,
    /// Which triangles each overlaps, where the test listed them all (`None` where that
    /// cost too much: the sheet then asks the side tree).
    pub(crate) partners: Option<sheet::Partners>,
}

impl Overlapping {
    fn new((flags, partners): (Vec<bool>, Option<sheet::Partners>)) -> Self {
        let one_floor = !flags.contains(&true);
        Overlapping {
            flags,
            one_floor,
            partners,
        }
    }
}

impl SurfaceMesh {
    /// Triangulates `surface` (see the type's docs).
    ///
    /// Errors: [`Error::InvalidPolygon`] naming a polygon that has no triangulation of
    /// positive plan-view area (the surface's own checks make this unreachable for surfaces
    /// it built; it is kept so no input can panic).
    pub fn new(surface: Surface) -> Result<Self> {
        Self::new_with(surface, None)
    }

    /// [`new`](Self::new), stopped with [`Error::Cancelled`] when `cancel` is cancelled
    /// or its deadline passes (read every 1,024 polygons triangulated and joined, and
    /// every 1,024 candidates of the one-floor test, [`is_one_floor`](Self::is_one_floor),
    /// which this build runs at once rather than on first ask): linear, but a few tenths
    /// of a second for 65 000 polygons, which a server answering within a deadline does
    /// not wait for.
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
    /// use pathsmooth::{Cancel, Error};
    /// let v = [DVec3::ZERO, DVec3::X, DVec3::Z];
    /// let surface = Surface::from_polygons(&v, &[[0u32, 1, 2]], UpAxis::Y, 0.0)?;
    /// let cancel = Cancel::new();
    /// assert!(SurfaceMesh::new_cancellable(surface.clone(), &cancel).is_ok());
    /// cancel.cancel();
    /// let e = SurfaceMesh::new_cancellable(surface, &cancel).unwrap_err();
    /// assert_eq!(e, Error::Cancelled);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn new_cancellable(surface: Surface, cancel: &Cancel) -> Result<Self> {
        Self::new_with(surface, Some(cancel))
    }

    fn new_with(surface: Surface, cancel: Option<&Cancel>) -> Result<Self> {
        let mut checkpoint = Checkpoint::new(cancel);
        let up = surface.up();
        let plan: Vec<DVec2> = surface.vertices().iter().map(|&v| up.plan(v)).collect();
        let mut triangles = Vec::new();
        let mut first = Vec::with_capacity(surface.num_polygons() + 1);
        let mut polygon = Vec::new();
        first.push(0);
        for p in 0..surface.num_polygons() as PolyId {
            if checkpoint.stop() {
                return Err(Error::Cancelled);
            }
            triangulate::ears_into(
                &plan,
                surface.polygon(p),
                surface.straight_tolerance(),
                &mut triangles,
            )
            .map_err(|()| Error::InvalidPolygon {
                message: format!("polygon {p} has no triangulation of positive area in plan view"),
            })?;
            polygon.resize(triangles.len(), p);
            first.push(triangles.len() as u32);
        }
        let neighbors = triangulate::adjacency(&triangles);
        let mut mesh = NavMesh::from_parts(plan, triangles, neighbors);
        // Each triangle in its polygon's area (Recast's area ids, for a filter).
        mesh.set_triangle_areas(polygon.iter().map(|&p| surface.area(p)).collect());
        let np = surface.num_polygons();
        let mut corner_start = Vec::with_capacity(np + 1);
        let (mut corner_vert, mut corner_nb, mut corner_nb_edge, mut corner_turn) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut corner_floor = Vec::new();
        // Each directed edge's polygon and position there, and the vertices where a taut
        // path may turn in each polygon (marked with the polygon's id): linear in the
        // corners, however large a polygon is.
        let mut edge_at: FxHashMap<(u32, u32), (u32, u32)> = FxHashMap::default();
        edge_at.reserve(surface.polygon_corners());
        for p in 0..np as PolyId {
            let ring = surface.polygon(p);
            for (i, &a) in ring.iter().enumerate() {
                edge_at.insert((a, ring[(i + 1) % ring.len()]), (p, i as u32));
            }
        }
        let mut turn_in = vec![u32::MAX; mesh.vertices().len()];
        corner_start.push(0u32);
        for p in 0..np as PolyId {
            if checkpoint.stop() {
                return Err(Error::Cancelled);
            }
            let ring = surface.polygon(p);
            let n = ring.len();
            for t in first[p as usize] as usize..first[p as usize + 1] as usize {
                for c in 0..3 {
                    if mesh.corner_flags(t, c) & TURN != 0 {
                        turn_in[mesh.triangle_indices()[t][c] as usize] = p;
                    }
                }
            }
            for (i, nb) in surface.neighbors(p).enumerate() {
                let (a, b) = (ring[i], ring[(i + 1) % n]);
                // The neighbour's edge from b to a.
                let across = nb.and_then(|q| edge_at.get(&(b, a)).filter(|&&(r, _)| r == q));
                match across {
                    Some(&(q, j)) => {
                        corner_nb.push(q);
                        corner_nb_edge.push(j);
                    }
                    None => {
                        corner_nb.push(u32::MAX);
                        corner_nb_edge.push(0);
                    }
                }
                corner_vert.push(a);
                corner_floor.push(surface.corner_floor_height(p, i));
                corner_turn.push(turn_in[a as usize] == p);
            }
            corner_start.push(corner_vert.len() as u32);
        }
        let search = SearchPolygons::merge(
            &Corners {
                start: &corner_start,
                vert: &corner_vert,
                nb: &corner_nb,
                nb_edge: &corner_nb_edge,
                turn: &corner_turn,
            },
            mesh.vertices(),
        );
        // A caller with a token gets the overlap test now, where the token stops it (up
        // to 256 candidates a triangle: seconds on a 65 000-triangle fan in a test build),
        // not on the first plan, where nothing could.
        let overlapping = OnceLock::new();
        if cancel.is_some() {
            match sheet::overlapping(&mesh, &mut checkpoint) {
                Some(found) => overlapping.get_or_init(|| Overlapping::new(found)),
                None => return Err(Error::Cancelled),
            };
        }
        Ok(SurfaceMesh {
            mesh,
            pieces: surface.pieces(),
            surface,
            first,
            polygon,
            corner_start,
            corner_vert,
            corner_nb,
            corner_floor,
            search,
            sides: OnceLock::new(),
            overlapping,
        })
    }

    /// The floor's height at corner `c` (an index of [`corners`](Self::corners)).
    pub(crate) fn corner_floor(&self, c: usize) -> f64 {
        self.corner_floor[c]
    }

    /// The vertex at corner `c` (an index of [`corners`](Self::corners)).
    pub(crate) fn corner_vertex(&self, c: usize) -> u32 {
        self.corner_vert[c]
    }

    /// The polygon across edge `e` of polygon `p` (`u32::MAX`: a wall).
    pub(crate) fn corner_neighbor(&self, p: PolyId, e: u32) -> PolyId {
        self.corner_nb[self.corner_start[p as usize] as usize + e as usize]
    }

    /// The polygons the polygon search expands.
    pub(crate) fn search_polygons(&self) -> &SearchPolygons {
        &self.search
    }

    /// Polygon `p`'s range in the per-corner arrays.
    pub(crate) fn corners(&self, p: PolyId) -> std::ops::Range<usize> {
        self.corner_start[p as usize] as usize..self.corner_start[p as usize + 1] as usize
    }

    /// The surface.
    pub fn surface(&self) -> &Surface {
        &self.surface
    }

    /// The plan-view triangles, joined by topology. Their triangles may overlap in plan
    /// view, so its plan-view point location ([`NavMesh::locate`]) may answer a triangle of
    /// another floor; use the surface's location ([`Surface::find_nearest`],
    /// [`Surface::locate`]) and [`triangle_at`](Self::triangle_at) instead. Each triangle
    /// is in its polygon's area ([`NavMesh::area_of`], [`Surface::area`]).
    pub fn plan_mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// True when the surface is one floor deep everywhere: no two of its plan-view
    /// triangles overlap (exactly: triangles meeting along an edge or at a corner do not),
    /// so the [plan mesh](Self::plan_mesh) is a flat navmesh as it is, and the whole of it
    /// is a [`Sheet`]. A [`SurfaceWorld`](crate::SurfaceWorld) over such a mesh keeps that
    /// one sheet instead of cutting one per plan.
    ///
    /// A mesh on which telling would cost more than a few hundred tests a triangle (many
    /// long triangles over one spot: a fan round one vertex, where every pair's boxes
    /// meet) is taken as having several floors: it is then planned as one, correctly, with
    /// a sheet cut per plan.
    ///
    /// Cost: found on the first call, O(n) for n triangles (each tested against the few
    /// whose boxes share a bucket with its own; at most a few hundred); then O(1).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
    /// let v = [
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(0.0, 0.0, 4.0),
    ///     DVec3::new(1.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 3.0), DVec3::new(1.0, 3.0, 3.0),
    /// ];
    /// let floor = Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Y, 0.0)?;
    /// assert!(SurfaceMesh::new(floor)?.is_one_floor());
    /// let bridge = Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0)?;
    /// assert!(!SurfaceMesh::new(bridge)?.is_one_floor());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn is_one_floor(&self) -> bool {
        self.overlapping().one_floor
    }

    /// Which plan-view triangles overlap another's interior (all, on a mesh too costly to
    /// tell), found on first ask: a sheet's walk tests only those.
    pub(crate) fn overlapping(&self) -> &Overlapping {
        self.overlapping.get_or_init(|| {
            // With no token nothing stops the test; were it stopped, "every triangle
            // overlaps" would still be a sound answer.
            let found = sheet::overlapping(&self.mesh, &mut Checkpoint::new(None));
            Overlapping::new(found.unwrap_or_else(|| (vec![true; self.mesh.num_triangles()], None)))
        })
    }

    /// The tree of the plan mesh's triangle sides ([`EdgeTree`]), built on first use (by
    /// a sheet on a mesh whose overlapping pairs were too many to list): O(n log n) once
    /// per mesh.
    pub(crate) fn side_tree(&self) -> &EdgeTree {
        self.sides.get_or_init(|| EdgeTree::new(&self.mesh))
    }

    /// The polygon triangle `t` belongs to. Panics if `t` is out of range.
    pub fn polygon_of(&self, t: TriId) -> PolyId {
        self.polygon[t]
    }

    /// The connected piece of polygon `p` (as [`Surface::pieces`]: polygons joined by
    /// shared edges, not by links). Panics if `p` is out of range.
    pub fn piece(&self, p: PolyId) -> u32 {
        self.pieces[p as usize]
    }

    /// The triangles of polygon `p` (consecutive). Panics if `p` is out of range.
    pub fn triangles_of(&self, p: PolyId) -> std::ops::Range<TriId> {
        self.first[p as usize] as usize..self.first[p as usize + 1] as usize
    }

    /// The triangle of polygon `p` holding plan-view point `plan`; for a point a rounding
    /// error outside the polygon, the triangle it is nearest to. Panics if `p` is out of
    /// range. O(polygon size).
    pub fn triangle_at(&self, p: PolyId, plan: DVec2) -> TriId {
        let range = self.triangles_of(p);
        if let Some(t) = range
            .clone()
            .find(|&t| self.mesh.triangle_contains(t, plan))
        {
            return t;
        }
        // Outside every triangle by rounding (a point snapped onto the polygon's edge):
        // the triangle whose most violated edge is violated least.
        range
            .min_by(|&a, &b| {
                outside_by(&self.mesh, a, plan).total_cmp(&outside_by(&self.mesh, b, plan))
            })
            .unwrap_or(NO_TRI as TriId)
    }
}

/// A min-heap entry of the layered searches (the sheet's walk outward, the link router):
/// an item and its distance, the nearest popped first (ties: the lower item).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Nearest {
    pub(crate) d: f64,
    pub(crate) item: u32,
}

impl Eq for Nearest {}

impl PartialOrd for Nearest {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Nearest {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.d.total_cmp(&self.d).then(other.item.cmp(&self.item))
    }
}

/// How far `p` is outside triangle `t`: the largest distance beyond one of its edges (≤ 0
/// inside).
fn outside_by(mesh: &NavMesh, t: TriId, p: DVec2) -> f64 {
    let tri = mesh.triangle(t);
    (0..3)
        .map(|i| {
            let (a, b) = (tri[i], tri[(i + 1) % 3]);
            -crate::geometry::cross(b - a, p - a) / (b - a).length()
        })
        .fold(f64::NEG_INFINITY, f64::max)
}
