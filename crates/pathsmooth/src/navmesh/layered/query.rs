//! The layered path query: 3D ends located on the surface, the search and funnel over the
//! topology, the path lifted back to 3D with polygons and flags.

use glam::{DVec2, DVec3};

use super::links::{plan_length, Leg, Router};
use super::moves::MoveScratch;
use super::poly_search::PolySearch;
use super::sheet::{Sheet, SheetScratch};
use super::walls::WallScratch;
use super::SurfaceMesh;
use crate::area::AreaCosts;
use crate::cancel::Cancel;
use crate::error::{num, Error, Result};
use crate::geometry::{check_within, max_map_coordinate, segment_distance};
use crate::navmesh::mesh::{NavMesh, PolyId, TriId};
use crate::navmesh::surface::Surface;
use crate::navmesh::NavMeshQuery;

/// What a point of a [`SurfacePoint`] path is, as Detour's `findStraightPath` flags: the
/// start, the end, and where an off-mesh link begins and ends. A set of bits; combine with
/// `|`, test with [`contains`](Self::contains).
///
/// ```
/// use pathsmooth::navmesh::PointFlags;
/// let f = PointFlags::START | PointFlags::END;
/// assert!(f.contains(PointFlags::END) && !f.contains(PointFlags::LINK_START));
/// assert_eq!(f.bits(), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PointFlags(u8);

impl PointFlags {
    /// No flag: a corner of the path.
    pub const NONE: PointFlags = PointFlags(0);
    /// The path's first point (Detour's `DT_STRAIGHTPATH_START`).
    pub const START: PointFlags = PointFlags(1);
    /// The path's last point (`DT_STRAIGHTPATH_END`).
    pub const END: PointFlags = PointFlags(2);
    /// An off-mesh link begins here (`DT_STRAIGHTPATH_OFFMESH_CONNECTION`): the next point
    /// is the link's other end, reached by the link, not by walking.
    pub const LINK_START: PointFlags = PointFlags(4);
    /// An off-mesh link ends here.
    pub const LINK_END: PointFlags = PointFlags(8);

    /// The bits (1 start, 2 end, 4 link start, 8 link end).
    pub fn bits(self) -> u8 {
        self.0
    }

    /// These flags less those of `other`.
    pub fn without(self, other: PointFlags) -> PointFlags {
        PointFlags(self.0 & !other.0)
    }

    /// True when every bit of `other` is set here.
    pub fn contains(self, other: PointFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for PointFlags {
    type Output = PointFlags;
    fn bitor(self, rhs: PointFlags) -> PointFlags {
        PointFlags(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for PointFlags {
    fn bitor_assign(&mut self, rhs: PointFlags) {
        self.0 |= rhs.0;
    }
}

/// A point of a path on a surface, as engines want it: its position in 3D (world axes, on
/// the floor), the polygon it lies in, and its [`PointFlags`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfacePoint {
    /// World position on the surface: plan-view coordinates of the path, and the height of
    /// the polygon's floor there ([`Surface::floor_height`]: Recast's detail mesh when the
    /// surface has one; without one, a mesh vertex's own height where the point is one,
    /// else the polygon's plane).
    pub position: DVec3,
    /// The polygon the point lies in (for a point on a shared edge or corner, the polygon
    /// the path reaches it through).
    pub polygon: PolyId,
    /// Start, end, link ends.
    pub flags: PointFlags,
}

/// RecastDemo's search box for its queries, as (plan, height) half-sizes: 2 across, 4 up.
const DEFAULT_HALF_EXTENTS: (f64, f64) = (2.0, 4.0);

/// A reusable path query on a [`SurfaceMesh`] (see [`SurfaceMesh`]), Detour's
/// `dtNavMeshQuery` for layered meshes: it owns its scratch, so queries after the first
/// allocate nothing beyond growing their buffers.
///
/// Ends are 3D points located with [`Surface::find_nearest`] within the query's
/// half-extents (RecastDemo's 2 across and 4 up by default,
/// [`set_half_extents`](Self::set_half_extents)) and snapped onto the polygon found, or
/// polygons and points given by the caller ([`find_path_between`](Self::find_path_between)).
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::{PointFlags, Surface, SurfaceMesh, SurfaceQuery, UpAxis};
/// // A switchback (y up): a floor at height 0, a ramp east up to a landing at height 3,
/// // a ramp back west up to a floor at height 6 right over the first one.
/// let v = [
///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 2.0), DVec3::new(0.0, 0.0, 2.0),
///     DVec3::new(8.0, 3.0, 0.0), DVec3::new(8.0, 3.0, 2.0), DVec3::new(10.0, 3.0, 0.0), DVec3::new(10.0, 3.0, 2.0),
///     DVec3::new(10.0, 3.0, 4.0), DVec3::new(8.0, 3.0, 4.0),
///     DVec3::new(4.0, 6.0, 2.0), DVec3::new(4.0, 6.0, 4.0), DVec3::new(0.0, 6.0, 0.0), DVec3::new(4.0, 6.0, 0.0),
///     DVec3::new(0.0, 6.0, 4.0),
/// ];
/// let polygons = [
///     vec![0u32, 1, 2, 3],   // lower floor
///     vec![1, 4, 5, 2],      // ramp up, east
///     vec![4, 6, 7, 5],      // landing
///     vec![5, 7, 8, 9],
///     vec![5, 9, 11, 10],    // ramp up, west
///     vec![12, 13, 10, 11, 14], // upper floor
/// ];
/// let surface = Surface::from_polygons(&v, &polygons, UpAxis::Y, 0.0)?;
/// let mesh = SurfaceMesh::new(surface)?;
/// let mut query = SurfaceQuery::new();
/// let path = query.find_path(&mesh, DVec3::new(1.0, 0.0, 1.0), DVec3::new(1.0, 6.0, 1.0), 0.0)?;
/// // Round the railing between the ramps at (8, 3, 2), along it to (4, 6, 2), and back.
/// let points: Vec<DVec3> = path.iter().map(|p| p.position).collect();
/// assert_eq!(points, [
///     DVec3::new(1.0, 0.0, 1.0), DVec3::new(8.0, 3.0, 2.0), DVec3::new(4.0, 6.0, 2.0), DVec3::new(1.0, 6.0, 1.0),
/// ]);
/// assert_eq!((path[0].polygon, path[3].polygon), (0, 5));
/// assert!(path[0].flags.contains(PointFlags::START) && path[3].flags.contains(PointFlags::END));
/// // The polygons crossed, and the triangle channel (derived on asking).
/// assert_eq!(query.polygons(), [0, 1, 2, 3, 4, 5]);
/// let channel = query.channel(&mesh).to_vec();
/// assert_eq!((mesh.polygon_of(channel[0]), mesh.polygon_of(channel[channel.len() - 1])), (0, 5));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct SurfaceQuery {
    query: NavMeshQuery,
    half_extents: Option<DVec3>,
    /// `None`: the surface's ([`Surface::climb`]).
    climb: Option<f64>,
    /// How far (plan view) [`find_path`](Self::find_path) moved each end onto the surface.
    moved: [f64; 2],
    path: Vec<SurfacePoint>,
    polygons: Vec<PolyId>,
    sheet: SheetScratch,
    walls: WallScratch,
    ends: Option<[(DVec2, TriId); 2]>,
    legs: Vec<Leg>,
    router: Router,
    plan: Vec<DVec2>,
    /// The polygon search (radius 0).
    poly: PolySearch,
    /// Search triangles even at radius 0 (a `SurfaceWorld`'s query, which needs the channel).
    triangles: bool,
    /// The last leg was found by the polygon search (its plan path is `poly`'s).
    by_polygons: bool,
    /// `query` holds the last leg's triangle channel.
    channel_ready: bool,
    /// Its ends, to derive the triangle channel when asked for.
    leg_ends: Option<[(DVec2, TriId); 2]>,
    /// The area-cost filter (Detour's `dtQueryFilter`), `None` for every area at 1 (boxed:
    /// a filter is 2.3 KB, and most queries have none).
    filter: Option<Box<AreaCosts>>,
    /// Stops the sheet's build early ([`set_cancel`](Self::set_cancel)).
    cancel: Option<Cancel>,
    /// [`move_along_surface`](Self::move_along_surface)'s visited polygons and marks.
    moves: MoveScratch,
}

impl SurfaceQuery {
    /// An empty query; buffers grow on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Searches the triangles at every radius (a `SurfaceWorld`'s query, whose plans build
    /// a sheet around every path's channel), not the polygons at radius 0.
    pub(crate) fn search_triangles(&mut self) {
        self.triangles = true;
    }

    /// The box, in world axes, within which [`find_path`](Self::find_path) and
    /// [`locate`](Self::locate) look for the floor of a 3D point (Detour's
    /// `halfExtents`). Errors: [`Error::BadParameter`] unless every component is finite and
    /// ≥ 0.
    pub fn set_half_extents(&mut self, half_extents: DVec3) -> Result<()> {
        if !(half_extents.is_finite() && half_extents.cmpge(DVec3::ZERO).all()) {
            let bad = half_extents
                .to_array()
                .into_iter()
                .find(|c| !(c.is_finite() && *c >= 0.0));
            return Err(Error::param(
                "half_extents",
                bad.unwrap_or(f64::NAN),
                "finite numbers ≥ 0",
            ));
        }
        self.half_extents = Some(half_extents);
        Ok(())
    }

    /// Sets the area-cost filter (Detour's `dtQueryFilter`): each walking leg is then the
    /// shortest path in the cheapest channel of triangles under `costs`, never entering an
    /// excluded area (searched over the triangles at every radius: the exact polygon
    /// search needs one cost everywhere). A filter with every area at 1 and none excluded
    /// is no filter. Links are still chosen by length (the router's searches are unit
    /// cost); each leg between them is walked with the filter.
    ///
    /// The polygons' areas are the surface's (Recast's area ids, [`Surface::area`]).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, SurfaceMesh, SurfaceOptions, SurfaceQuery, UpAxis};
    /// // Two rows of three unit squares at height 0; the middle one of the first, area 2.
    /// let v: Vec<DVec3> = (0..3).flat_map(|z| (0..4).map(move |x| DVec3::new(x as f64, 0.0, z as f64))).collect();
    /// let sq = |x: u32, z: u32| [4 * z + x, 4 * z + x + 1, 4 * (z + 1) + x + 1, 4 * (z + 1) + x];
    /// let quads = [sq(0, 0), sq(1, 0), sq(2, 0), sq(0, 1), sq(1, 1), sq(2, 1)];
    /// let surface = Surface::from_polygons_with(&v, &quads, &[1, 2, 1, 1, 1, 1], &[], &SurfaceOptions::new(UpAxis::Y))?;
    /// let mesh = SurfaceMesh::new(surface)?;
    /// let mut query = SurfaceQuery::new();
    /// query.set_area_costs("2=exclude".parse()?);
    /// let path = query.find_path(&mesh, DVec3::new(0.5, 0.0, 0.5), DVec3::new(2.5, 0.0, 0.5), 0.0)?;
    /// // Round the excluded square, through the row beside it.
    /// assert!(path.iter().all(|p| p.polygon != 1));
    /// assert!(path.iter().any(|p| p.position.z >= 1.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn set_area_costs(&mut self, costs: AreaCosts) {
        self.filter = (!costs.is_unit()).then(|| Box::new(costs));
    }

    /// Lets [`sheet`](Self::sheet) stop early with [`Error::Cancelled`] when `cancel` is
    /// cancelled or its deadline passes (see [`Cancel`]): on some surfaces (a fan of
    /// thousands of triangles round one vertex) a sheet takes seconds. `None`: never.
    pub fn set_cancel(&mut self, cancel: Option<Cancel>) {
        self.cancel = cancel;
    }

    /// The filter set by [`set_area_costs`](Self::set_area_costs), `None` without one.
    pub fn area_costs(&self) -> Option<&AreaCosts> {
        self.filter.as_deref()
    }

    /// How far above or below a floor a point may be and still count as on it when ends
    /// are located (Recast's `walkableClimb`, the agent's step height): see
    /// [`Surface::find_nearest_climbing`]. Until this is called, the surface's
    /// ([`Surface::climb`]: the bake's, else [`DEFAULT_CLIMB`](crate::navmesh::DEFAULT_CLIMB)).
    /// Errors: [`Error::BadParameter`] unless finite and ≥ 0.
    pub fn set_climb(&mut self, climb: f64) -> Result<()> {
        if !(climb.is_finite() && climb >= 0.0) {
            return Err(Error::param("climb", climb, "a finite number ≥ 0"));
        }
        self.climb = Some(climb);
        Ok(())
    }

    /// How far (plan view) the last [`find_path`](Self::find_path) moved its start and its
    /// goal onto the surface: 0 for a point over a polygon within the climb of its floor
    /// (on the surface already: only its height is the floor's), else the distance to the
    /// nearest point of the polygon found ([`locate`](Self::locate)). Zeros after
    /// [`find_path_between`](Self::find_path_between), whose caller located the ends.
    pub fn moved(&self) -> [f64; 2] {
        self.moved
    }

    /// The climb ends are located with on `surface` ([`set_climb`](Self::set_climb)).
    pub fn climb(&self, surface: &Surface) -> f64 {
        self.climb.unwrap_or_else(|| surface.climb())
    }

    /// The search box of [`set_half_extents`](Self::set_half_extents) for `surface`.
    fn half_extents(&self, surface: &Surface) -> DVec3 {
        let (plan, height) = DEFAULT_HALF_EXTENTS;
        self.half_extents
            .unwrap_or_else(|| surface.up().join(DVec2::splat(plan), height))
    }

    /// The polygon `p` is on, or else the nearest to it within the half-extents, as
    /// [`Surface::find_nearest_climbing`] finds it with the query's
    /// [climb](Self::climb), and the point of it nearest to `p` in plan view at its floor
    /// height ([`Surface::floor_height`]), as Detour's `findNearestPoly` gives it. A point
    /// over a polygon in plan view within the climb of its floor is on it and keeps its
    /// plan-view position exactly; only a point off the surface moves. Errors: [`Error::NonFinite`] for a non-finite
    /// `p`, [`Error::NoFloor`] when no polygon is within the box.
    pub fn locate(&self, mesh: &SurfaceMesh, p: DVec3) -> Result<(PolyId, DVec3)> {
        if !p.is_finite() {
            return Err(Error::NonFinite { index: 0 });
        }
        let surface = mesh.surface();
        let he = self.half_extents(surface);
        let (polygon, near, over) = surface
            .find_nearest_over(p, he, self.climb(surface))
            .ok_or(Error::NoFloor {
                x: p.x,
                y: p.y,
                z: p.z,
                tolerance: surface.up().height(he),
            })?;
        if over {
            // Already on the floor, at its height there.
            return Ok((polygon, near));
        }
        // On the floor itself: the detail mesh's height where there is one.
        let up = surface.up();
        let plan = up.plan(near);
        Ok((polygon, up.join(plan, surface.floor_height(polygon, plan))))
    }

    /// Moves from `start` (a point of polygon `start.0`, as [`locate`](Self::locate) gives
    /// it) towards `target` on the surface, held to the start's floor, sliding along
    /// walls: Detour's `dtNavMeshQuery::moveAlongSurface` (M. Mononen, recastnavigation),
    /// the move a crowd agent or a character controller makes each frame. Returns the
    /// polygon reached and the point, at the floor's height there
    /// ([`Surface::floor_height`]).
    ///
    /// - Where the straight plan-view segment to `target` walks across shared edges to a
    ///   polygon holding it, the result is `target` on that polygon: the floor the walk
    ///   stays on, so a move under a bridge stays under it.
    /// - Where a wall cuts it, the search goes breadth first from the start's polygon over
    ///   the shared edges that meet the disc with the segment as its diameter (Detour's
    ///   search region): the result is `target` when a polygon reached holds it (of
    ///   several, on different floors, the one whose floor there is nearest `target`'s
    ///   height: give the agent's own), else the nearest point of the polygons reached.
    ///   Unlike Detour's, the edges between polygons count as well as the walls, and no
    ///   move ends farther from `target` than its start.
    ///
    /// Edges into polygons of an area the query's [filter](Self::set_area_costs) excludes
    /// are walls; off-mesh links are not taken. [`visited`](Self::visited) lists the
    /// polygons the move visited (Detour's `visited`, for fixing up a path corridor).
    ///
    /// Errors: [`Error::BadParameter`] for a polygon out of range, [`Error::NonFinite`] and
    /// [`Error::CoordinateOutOfRange`] for a bad start (point 0) or target (point 1),
    /// [`Error::OutsideMesh`] for a start outside its polygon in plan view.
    ///
    /// Cost: O(corners of the polygons walked) where the walk reaches `target`, else also
    /// of the polygons meeting the disc and connected to the start's (a frame's move
    /// visits a handful); no allocation once the scratch has grown to the surface.
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, SurfaceMesh, SurfaceQuery, UpAxis};
    /// // A floor at height 0 (x 0..4), a ramp up east to height 3 at x = 8, and a floor at
    /// // height 6 over the first one (y up), joined to it by nothing.
    /// let v = [
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 2.0), DVec3::new(0.0, 0.0, 2.0),
    ///     DVec3::new(8.0, 3.0, 0.0), DVec3::new(8.0, 3.0, 2.0),
    ///     DVec3::new(0.0, 6.0, 0.0), DVec3::new(4.0, 6.0, 0.0), DVec3::new(4.0, 6.0, 2.0), DVec3::new(0.0, 6.0, 2.0),
    /// ];
    /// let polygons = [vec![0u32, 1, 2, 3], vec![1, 4, 5, 2], vec![6, 7, 8, 9]];
    /// let mesh = SurfaceMesh::new(Surface::from_polygons(&v, &polygons, UpAxis::Y, 0.0)?)?;
    /// let mut query = SurfaceQuery::new();
    /// let start = query.locate(&mesh, DVec3::new(1.0, 0.0, 1.0))?;
    /// // Under the upper floor: the move stays on the lower one.
    /// assert_eq!(query.move_along_surface(&mesh, start, DVec3::new(2.0, 6.0, 1.5))?, (0, DVec3::new(2.0, 0.0, 1.5)));
    /// // Up the ramp: a quarter of the way along it, at a quarter of its rise.
    /// let (p, at) = query.move_along_surface(&mesh, start, DVec3::new(5.0, 0.0, 1.0))?;
    /// assert_eq!((p, at.x, at.z), (1, 5.0, 1.0));
    /// assert!((at.y - 0.75).abs() < 1e-12);
    /// assert_eq!(query.visited(), [0, 1]);
    /// // Into the wall at z = 0: it slides along the wall.
    /// assert_eq!(query.move_along_surface(&mesh, start, DVec3::new(2.0, 0.0, -1.0))?, (0, DVec3::new(2.0, 0.0, 0.0)));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn move_along_surface(
        &mut self,
        mesh: &SurfaceMesh,
        start: (PolyId, DVec3),
        target: DVec3,
    ) -> Result<(PolyId, DVec3)> {
        let surface = mesh.surface();
        let up = surface.up();
        polygon_in_range(surface, start.0)?;
        check_within(&[start.1, target], max_map_coordinate::<f64>())?;
        let (from, to) = (up.plan(start.1), up.plan(target));
        point_in_polygon(surface, start.0, from, "start")?;
        let filter = self.filter.as_deref();
        let (p, at) = self
            .moves
            .run(surface, filter, start.0, (from, to), up.height(target));
        Ok((p, up.join(at, surface.floor_height(p, at))))
    }

    /// The polygons the last [`move_along_surface`](Self::move_along_surface) visited, in
    /// the order it reached them, the start's first: the polygons walked when the walk
    /// reached the target, else those the search reached. Empty before any move.
    pub fn visited(&self) -> &[PolyId] {
        self.moves.visited()
    }

    /// The shortest path from `start` to `goal` (3D points, each located on the surface
    /// and snapped onto it, see [`locate`](Self::locate)) for an agent of `radius`:
    /// exact at radius 0 (Polyanya over the surface's convex polygons, joined by its
    /// topology, the path lifted along the polygons crossed); with a radius, the funnel
    /// with that radius through the channel of the width-restricted search, as
    /// [`NavMeshQuery::find_path`] (not checked against the walls:
    /// [`Pipeline::plan_surface`](crate::Pipeline::plan_surface) checks it, on the query's
    /// [`sheet`](Self::sheet)). Every point carries its
    /// height on the floor, its polygon and flags; also sets [`polygons`](Self::polygons)
    /// and [`legs`](Self::legs) (and [`channel`](Self::channel), derived on asking at
    /// radius 0).
    ///
    /// On a surface with off-mesh links ([`Surface::links`]) the path is the cheapest
    /// route over walking length (plan view) and link costs: the walking legs and the links
    /// between them, each link's start flagged [`PointFlags::LINK_START`] and the next
    /// point, its end, [`PointFlags::LINK_END`].
    ///
    /// Errors: those of [`locate`](Self::locate) (start then goal), then of
    /// [`NavMeshQuery::find_path`] ([`Error::Unreachable`] between pieces of the surface
    /// that share no edge and no link, [`Error::TooClose`], [`Error::ChannelTooNarrow`]).
    ///
    /// Cost: two bucket lookups, the search (O(nodes expanded · log open), as on a flat
    /// mesh), and one walk over the polygons (or channel) to lift the path; with links,
    /// one search per link entry reached (see [`Leg`]'s router: O((links + 1)²) searches
    /// at worst).
    pub fn find_path(
        &mut self,
        mesh: &SurfaceMesh,
        start: DVec3,
        goal: DVec3,
        radius: f64,
    ) -> Result<&[SurfacePoint]> {
        let [s, g] = self.locate_pair(mesh, start, goal)?;
        // Located here, so both points are at their floor's height already.
        self.find(mesh, s, g, radius, Route::OverLinks, true)
            .map_err(out_of_reach(mesh, s, g))?;
        Ok(&self.path)
    }

    /// `start` and `goal` located as [`find_path`](Self::find_path) locates them, with
    /// [`moved`](Self::moved) set.
    fn locate_pair(
        &mut self,
        mesh: &SurfaceMesh,
        start: DVec3,
        goal: DVec3,
    ) -> Result<[(PolyId, DVec3); 2]> {
        self.moved = [0.0; 2];
        let s = self.locate(mesh, start)?;
        let g = self.locate(mesh, goal).map_err(|e| match e {
            Error::NonFinite { .. } => Error::NonFinite { index: 1 },
            e => e,
        })?;
        let up = mesh.surface().up();
        self.moved = [(start, s.1), (goal, g.1)].map(|(p, q)| up.plan(p).distance(up.plan(q)));
        Ok([s, g])
    }

    /// The ends of [`find_path`](Self::find_path) located as it locates them, and no
    /// search: one leg between them with no path, its [`ends`](Self::ends) and
    /// [`moved`](Self::moved) set. For a plan on a mesh of one floor with no links, whose
    /// whole plan mesh is the sheet and searches itself (`Pipeline::plan_surface`).
    ///
    /// Errors: those of locating, as `find_path`'s.
    pub(crate) fn locate_ends(
        &mut self,
        mesh: &SurfaceMesh,
        start: DVec3,
        goal: DVec3,
    ) -> Result<()> {
        let [s, g] = self.locate_pair(mesh, start, goal)?;
        self.find(mesh, s, g, 0.0, Route::EndsOnly, true)
    }

    /// [`find_path`](Self::find_path) between points the caller has located: polygon
    /// `start.0` and the point `start.1` on it (its plan-view position is used; it must lie
    /// in the polygon in plan view), the same for `goal`.
    ///
    /// Errors: [`Error::BadParameter`] for a polygon out of range, [`Error::OutsideMesh`]
    /// for a point outside its polygon in plan view; then as `find_path`.
    pub fn find_path_between(
        &mut self,
        mesh: &SurfaceMesh,
        start: (PolyId, DVec3),
        goal: (PolyId, DVec3),
        radius: f64,
    ) -> Result<&[SurfacePoint]> {
        self.moved = [0.0; 2];
        self.find(mesh, start, goal, radius, Route::OverLinks, false)
            .map_err(out_of_reach(mesh, start, goal))?;
        Ok(&self.path)
    }

    /// [`find_path_between`](Self::find_path_between) taking no link: one leg walked on
    /// the surface (`Pipeline::plan_surface` smooths a route leg by leg).
    pub(crate) fn find_leg(
        &mut self,
        mesh: &SurfaceMesh,
        start: (PolyId, DVec3),
        goal: (PolyId, DVec3),
        radius: f64,
    ) -> Result<()> {
        self.find(mesh, start, goal, radius, Route::Walk, false)
            .map_err(out_of_reach(mesh, start, goal))
    }

    /// The search behind every entry (whose callers name a goal out of reach with
    /// [`out_of_reach`]).
    fn find(
        &mut self,
        mesh: &SurfaceMesh,
        start: (PolyId, DVec3),
        goal: (PolyId, DVec3),
        radius: f64,
        route: Route,
        floored: bool,
    ) -> Result<()> {
        self.path.clear();
        self.polygons.clear();
        self.legs.clear();
        self.ends = None;
        // Points this query located lie on their polygons: no need to check them again.
        let s = end_on(mesh, start, "start", !floored)?;
        let g = end_on(mesh, goal, "goal", !floored)?;
        let up = mesh.surface().up();
        let heights = floored.then(|| [(start.0, up.height(start.1)), (goal.0, up.height(goal.1))]);
        let walk = Leg {
            start,
            goal,
            link: None,
        };
        if route == Route::EndsOnly {
            self.legs.push(walk);
        } else if route == Route::Walk || mesh.surface().links().is_empty() {
            self.legs.push(walk);
            self.direct(mesh, s, g, radius, heights)?;
        } else {
            // The walk with no link first (unless a filter makes its length no bound on
            // the router's unit-cost walks): it bounds every route over links, and when
            // no link can beat it the router searches nothing and the path stands.
            let direct =
                (self.filter.is_none() && mesh.piece(start.0) == mesh.piece(goal.0)).then(|| {
                    self.legs.push(walk);
                    let walked = self.direct(mesh, s, g, radius, heights);
                    walked.map(|()| plan_length(self.plan_path()))
                });
            let poly = (!self.triangles).then_some(&mut self.poly);
            let searches = self.router.route(
                (&mut self.query, poly),
                mesh,
                (start, s),
                (goal, g),
                radius,
                direct,
                &mut self.legs,
            )?;
            let kept = searches == 0 && self.legs.len() == 1 && !self.path.is_empty();
            if !kept {
                self.along_legs(mesh, radius)?;
            }
        }
        self.ends = Some([s, g]);
        Ok(())
    }

    /// The path of one leg, with no link, into `path`, `polygons` and the channel;
    /// `heights`: the ends' polygons and floor heights when the caller has them.
    fn direct(
        &mut self,
        mesh: &SurfaceMesh,
        s: (DVec2, TriId),
        g: (DVec2, TriId),
        radius: f64,
        heights: Option<[(PolyId, f64); 2]>,
    ) -> Result<()> {
        self.by_polygons = false;
        self.channel_ready = true;
        self.leg_ends = Some([s, g]);
        let plan = mesh.plan_mesh();
        if let Some(costs) = &self.filter {
            self.query
                .find_path_with_costs_between(plan, costs, [s, g], radius)?;
        } else if !self.triangles && self.query.check_ends(plan, s.0, g.0, radius)? == 0.0 {
            // Radius 0: the exact path over the polygons, lifted along those it crossed.
            let (sp, gp) = (mesh.polygon_of(s.1), mesh.polygon_of(g.1));
            if !self.poly.find(mesh, (s.0, sp), (g.0, gp)) {
                return Err(Error::Unreachable {
                    sx: s.0.x,
                    sy: s.0.y,
                    gx: g.0.x,
                    gy: g.0.y,
                });
            }
            let lifted = lift_polygons(
                mesh,
                self.poly.polygons(),
                self.poly.entries(),
                self.poly.path(),
                heights,
                &mut self.path,
            );
            if let Err(e) = lifted {
                self.path.clear();
                return Err(e);
            }
            self.polygons.extend_from_slice(self.poly.polygons());
            self.by_polygons = true;
            self.channel_ready = false;
            return Ok(());
        } else {
            self.query.find_path_between(plan, [s, g], radius)?;
        }
        let lifted = lift_along(
            mesh,
            self.query.channel(),
            self.query.path(),
            &mut self.path,
        );
        if let Err(e) = lifted {
            self.path.clear();
            return Err(e);
        }
        self.polygons
            .extend(self.query.channel().iter().map(|&t| mesh.polygon_of(t)));
        self.polygons.dedup();
        Ok(())
    }

    /// The whole path of the legs the router chose: each leg's path, its last point
    /// flagged where a link begins and the next leg's first where it ends.
    fn along_legs(&mut self, mesh: &SurfaceMesh, radius: f64) -> Result<()> {
        let mut whole = std::mem::take(&mut self.path);
        let mut polygons = std::mem::take(&mut self.polygons);
        whole.clear();
        polygons.clear();
        let legs = std::mem::take(&mut self.legs);
        let mut result = Ok(());
        for (i, leg) in legs.iter().enumerate() {
            self.path.clear();
            self.polygons.clear();
            let ends = end_on(mesh, leg.start, "start", true)
                .and_then(|s| Ok((s, end_on(mesh, leg.goal, "goal", true)?)));
            if let Err(e) = ends.and_then(|(s, g)| self.direct(mesh, s, g, radius, None)) {
                result = Err(e);
                break;
            }
            let n = self.path.len();
            for (k, p) in self.path.iter_mut().enumerate() {
                if k == 0 && i > 0 {
                    p.flags = (p.flags | PointFlags::LINK_END).without(PointFlags::START);
                }
                if k + 1 == n && i + 1 < legs.len() {
                    p.flags = (p.flags | PointFlags::LINK_START).without(PointFlags::END);
                }
            }
            whole.extend_from_slice(&self.path);
            polygons.extend_from_slice(&self.polygons);
        }
        self.legs = legs;
        self.path = whole;
        self.polygons = polygons;
        if result.is_err() {
            self.path.clear();
            self.polygons.clear();
        }
        result
    }

    /// The legs of the last path: the stretches walked on the surface between its ends
    /// and the off-mesh links it takes, in order; one leg, with no link, on a surface
    /// without links or when no link helps. Each leg's `link` is the link taken after
    /// it (its index in [`Surface::links`]), `None` for the last.
    pub fn legs(&self) -> &[Leg] {
        if self.path.is_empty() {
            &[]
        } else {
            &self.legs
        }
    }

    /// The path of the last query (empty before the first and after a failed one).
    pub fn path(&self) -> &[SurfacePoint] {
        &self.path
    }

    /// The last path's plan-view points (empty after a failed query).
    pub fn plan_path(&self) -> &[DVec2] {
        if self.path.is_empty() {
            &[]
        } else if self.by_polygons {
            self.poly.path()
        } else {
            self.query.path()
        }
    }

    /// The triangles of [`SurfaceMesh::plan_mesh`] the last path (its last leg, on a route
    /// over links) crosses, in order. A path at radius 0 is found over the surface's
    /// polygons, so its triangle channel is derived here on first asking, by the triangle
    /// search between the same ends (the same shortest path but where several are equally
    /// short); `mesh` must be the query's.
    pub fn channel(&mut self, mesh: &SurfaceMesh) -> &[TriId] {
        if self.path.is_empty() {
            return &[];
        }
        self.derive_channel(mesh);
        self.query.channel()
    }

    /// The triangle channel of the last leg when the polygon search found it.
    fn derive_channel(&mut self, mesh: &SurfaceMesh) {
        if self.channel_ready {
            return;
        }
        self.channel_ready = true;
        if let Some([s, g]) = self.leg_ends {
            // The polygon search reached the goal, so the triangle search does too.
            let _ = self.query.find_path_between(mesh.plan_mesh(), [s, g], 0.0);
        }
    }

    /// The polygons the last path crosses, in order, each once per visit (Detour's
    /// `findPath` corridor).
    pub fn polygons(&self) -> &[PolyId] {
        &self.polygons
    }

    /// The smallest distance from the last path to a wall of its own floor, capped at
    /// `reach`: each segment walked over the surface's triangles from the previous point's,
    /// and the walls looked for among the triangles within `reach` of it, reached across
    /// shared edges from the ones it crosses (as Detour's `findDistanceToWall`): a wall of
    /// the floor above or below is never one. A path with a radius is valid for it when
    /// this is at least the radius.
    ///
    /// Errors: [`Error::BadParameter`] before any path or for a negative or NaN `reach`;
    /// [`Error::InvalidResult`] naming a segment that meets a wall (never for the query's
    /// own path at radius 0). Cost: O(triangles within `reach` of the path).
    pub fn clearance(&mut self, mesh: &SurfaceMesh, reach: f64) -> Result<f64> {
        if reach.is_nan() || reach < 0.0 {
            return Err(Error::param("reach", reach, "a number ≥ 0"));
        }
        if self.path.is_empty() {
            return Err(Error::param(
                "path",
                f64::NAN,
                "a path found before its clearance",
            ));
        }
        // One walk a leg: a link is no segment on the surface.
        let up = mesh.surface().up();
        let mut least = reach;
        let mut plan = std::mem::take(&mut self.plan);
        for leg in self
            .path
            .split_inclusive(|p| p.flags.contains(PointFlags::LINK_START))
        {
            plan.clear();
            plan.extend(leg.iter().map(|p| up.plan(p.position)));
            let first = mesh.triangle_at(leg[0].polygon, plan[0]);
            match self.walls.path_clearance(mesh, first, &plan, reach) {
                Ok(c) => least = least.min(c),
                Err(e) => {
                    self.plan = plan;
                    return Err(e);
                }
            }
        }
        self.plan = plan;
        Ok(least)
    }

    /// [`clearance`](Self::clearance) of `path` (a path on `mesh`, each point in the polygon
    /// it names) rather than of the last path found; the query's last path is kept.
    pub(crate) fn clearance_of(
        &mut self,
        mesh: &SurfaceMesh,
        path: &[SurfacePoint],
        reach: f64,
    ) -> Result<f64> {
        let mut found = std::mem::take(&mut self.path);
        self.path.extend_from_slice(path);
        let c = self.clearance(mesh, reach);
        std::mem::swap(&mut self.path, &mut found);
        c
    }

    /// For a path no sheet holds (it passes over or under itself): the last path (one leg,
    /// found by the triangle search) or, as a navmesh world's path finder falls back, the
    /// funnel rebuilt with circles of the radius itself, then the path through the portals'
    /// midpoints — the first that keeps `radius` from the walls of its floor by
    /// [`clearance`](Self::clearance) (within the mesh's tolerance) becomes the last path.
    /// Returns its clearance (capped at `radius + 1`).
    ///
    /// Errors: [`Error::InvalidResult`] when none does (with the first one's clearance).
    pub(crate) fn hold_radius(&mut self, mesh: &SurfaceMesh, radius: f64) -> Result<f64> {
        let tolerance = mesh.plan_mesh().tolerance();
        let accept = radius - tolerance;
        let first = self.clearance(mesh, radius + 1.0)?;
        if first >= accept || radius == 0.0 {
            return Ok(first);
        }
        if self.leg_ends.is_none() {
            return Err(Error::param("path", f64::NAN, "a path found"));
        }
        let found = std::mem::take(&mut self.path);
        let mut plan = std::mem::take(&mut self.plan);
        for attempt in 0..2 {
            let built = if attempt == 0 {
                self.query.refunnel_into(radius, radius, &mut plan)
            } else {
                self.query.portal_midpoints_into(&mut plan);
                Ok(())
            };
            let lifted =
                built.and_then(|()| lift_along(mesh, self.query.channel(), &plan, &mut self.path));
            if lifted.is_ok()
                && let Ok(c) = self.clearance(mesh, radius + 1.0)
                && c >= accept
            {
                self.plan = plan;
                return Ok(c);
            }
        }
        self.plan = plan;
        self.path = found;
        Err(Error::InvalidResult {
            step: "surface plan",
            reason: format!("the path found comes {} from a wall", num(first)),
        })
    }

    /// The last query's ends: plan-view point and triangle of the plan mesh.
    pub(crate) fn ends(&self) -> Option<[(DVec2, TriId); 2]> {
        self.ends
    }

    /// The sheet of the last path (see [`Sheet`]): the part of the surface one floor deep
    /// around its channel, reaching `margin` (plan-view world units, ≥ 0) beyond the
    /// channel's bounding box. Errors: [`Error::BadParameter`] before any path or for a bad
    /// margin; [`Error::InvalidResult`] when the channel overlaps itself in plan view (the
    /// path passes over or under itself), which no flat sheet can hold;
    /// [`Error::Cancelled`] (see [`set_cancel`](Self::set_cancel)).
    ///
    /// Cost: O(t log n) for the t triangles within the region out of the mesh's n (and, for
    /// the mesh's first sheet, O(n log n) for the tree of its triangles' sides); after a
    /// path at radius 0 (found over the polygons) also the triangle search for its
    /// channel, as [`channel`](Self::channel).
    pub fn sheet(&mut self, mesh: &SurfaceMesh, margin: f64) -> Result<Sheet> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(Error::param("margin", margin, "a finite number ≥ 0"));
        }
        if self.path.is_empty() {
            return Err(Error::param(
                "path",
                f64::NAN,
                "a path found before its sheet",
            ));
        }
        self.derive_channel(mesh);
        self.sheet
            .build(mesh, self.query.channel(), margin, self.cancel.as_ref())
    }
}

/// A search's [`Error::Unreachable`] between `start` and `goal` named in 3D, with the
/// pieces of the surface both ends are on; any other error as it is.
fn out_of_reach(
    mesh: &SurfaceMesh,
    start: (PolyId, DVec3),
    goal: (PolyId, DVec3),
) -> impl Fn(Error) -> Error + '_ {
    move |e| match e {
        Error::Unreachable { .. } => Error::UnreachableOnSurface {
            start: start.1.to_array(),
            goal: goal.1.to_array(),
            start_piece: mesh.piece(start.0),
            goal_piece: mesh.piece(goal.0),
            start_polygon: start.0,
            goal_polygon: goal.0,
        },
        e => e,
    }
}

/// What [`SurfaceQuery`]'s search does between two located ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// The shortest route, over off-mesh links where they help.
    OverLinks,
    /// One walk on the surface, taking no link.
    Walk,
    /// No search: the ends and one leg between them, for a caller whose own search
    /// follows (a plan on a mesh of one floor).
    EndsOnly,
}

/// The plan-view point and triangle of a caller's (polygon, point); `check`: whether to
/// check that the point lies in the polygon in plan view.
fn end_on(
    mesh: &SurfaceMesh,
    (p, at): (PolyId, DVec3),
    what: &'static str,
    check: bool,
) -> Result<(DVec2, TriId)> {
    let surface = mesh.surface();
    polygon_in_range(surface, p)?;
    if !at.is_finite() {
        return Err(Error::NonFinite {
            index: usize::from(what == "goal"),
        });
    }
    let plan = surface.up().plan(at);
    if check {
        point_in_polygon(surface, p, plan, what)?;
    }
    Ok((plan, mesh.triangle_at(p, plan)))
}

/// [`Error::BadParameter`] for a polygon the surface does not have.
fn polygon_in_range(surface: &Surface, p: PolyId) -> Result<()> {
    if p as usize >= surface.num_polygons() {
        return Err(Error::param(
            "polygon",
            p as f64,
            "an index below the surface's polygon count",
        ));
    }
    Ok(())
}

/// [`Error::OutsideMesh`] (`what`) for a plan-view point outside polygon `p`.
fn point_in_polygon(surface: &Surface, p: PolyId, plan: DVec2, what: &'static str) -> Result<()> {
    if !surface.contains_plan(p, plan) {
        return Err(Error::OutsideMesh {
            what,
            x: plan.x,
            y: plan.y,
        });
    }
    Ok(())
}

/// Lifts the plan-view `path` found through `channel` (triangles of the plan mesh) to 3D.
///
/// Each point's triangle is found along the channel, never by plan-view location: a
/// segment's route is the run of channel triangles whose portals it touches, and the point
/// takes the last triangle of that run holding it. Crossing a portal never changes floor
/// (the two triangles share the edge), so a segment that runs along a wall which another
/// floor has in the same place (a seam) still ends on the floor the search took it to.
/// A point the route misses (a funnel point with a radius, just off the channel round a
/// corner) is found by the straight walk from the previous point, which crosses shared
/// edges only and, with a radius, never runs along a wall.
///
/// Errors: [`Error::InvalidResult`] when neither finds the point (a path that is not on
/// the mesh: never lifted onto a guessed floor).
pub(crate) fn lift_along(
    mesh: &SurfaceMesh,
    channel: &[TriId],
    path: &[DVec2],
    out: &mut Vec<SurfacePoint>,
) -> Result<()> {
    out.clear();
    let plan = mesh.plan_mesh();
    let (mut c, mut t) = (0, channel.first().copied().unwrap_or(0));
    for (i, &b) in path.iter().enumerate() {
        if i > 0 {
            let a = path[i - 1];
            let mut found = (channel[c] == t && plan.triangle_contains(t, b)).then_some(c);
            let mut k = c;
            while k + 1 < channel.len() && portal_touches(plan, channel[k], channel[k + 1], a, b) {
                k += 1;
                if plan.triangle_contains(channel[k], b) {
                    found = Some(k);
                }
            }
            if let Some(k) = found {
                (c, t) = (k, channel[k]);
            } else {
                t = plan
                    .walk(t, a, b, &mut |_| {}, false)
                    .ok_or_else(|| Error::InvalidResult {
                        step: "surface path",
                        reason: format!("segment {} leaves the surface's floor", i - 1),
                    })?;
                // Back on the channel where it holds the point, so later segments follow it.
                if let Some(k) = (c..channel.len()).find(|&k| channel[k] == t) {
                    c = k;
                }
            }
        }
        out.push(surface_point(mesh, t, b, i, path.len()));
    }
    Ok(())
}

/// Lifts the plan-view `path` found through `polygons` (in order) to 3D, by
/// [`lift_along`]'s rule on polygons: a segment's route is the run of those polygons
/// whose shared edges it touches, and the point takes the last polygon of that run holding
/// it (so a segment along a seam ends on the floor the search took it to). `entries[k]` is
/// the edge of `polygons[k + 1]` shared with `polygons[k]`. A point the route misses (never
/// for an exact path, only by rounding) is found by the straight walk over the triangles.
///
/// Errors: [`Error::InvalidResult`] when neither finds the point.
pub(crate) fn lift_polygons(
    mesh: &SurfaceMesh,
    polygons: &[PolyId],
    entries: &[u32],
    path: &[DVec2],
    heights: Option<[(PolyId, f64); 2]>,
    out: &mut Vec<SurfacePoint>,
) -> Result<()> {
    out.clear();
    let surface = mesh.surface();
    let verts = mesh.plan_mesh().vertices();
    // Touching (a distance of 0) or within the mesh's tolerance: a path along a straight
    // run of vertices (a diagonal through a grid of tiles) passes its middle vertices only
    // to rounding.
    let tolerance = mesh.plan_mesh().tolerance();
    let portal_touches = |k: usize, a: DVec2, b: DVec2| {
        let ring = mesh.corners(polygons[k + 1]);
        let e = ring.start + entries[k] as usize;
        let f = if e + 1 == ring.end { ring.start } else { e + 1 };
        let (u, v) = (
            verts[mesh.corner_vertex(e) as usize],
            verts[mesh.corner_vertex(f) as usize],
        );
        segment_distance(a, b, u, v) <= tolerance
    };
    let (mut c, mut p) = (0, polygons.first().copied().unwrap_or(0));
    for (i, &b) in path.iter().enumerate() {
        if i > 0 {
            let a = path[i - 1];
            // The run's end, then the last polygon of it holding `b`, looked for from the
            // end back (the same answer as testing each forwards, with fewer tests).
            let mut end = c;
            while end + 1 < polygons.len() && portal_touches(end, a, b) {
                end += 1;
            }
            // A corner of the polygon (most of a path's points) is in it.
            let holds = |q: PolyId| {
                mesh.corners(q)
                    .any(|c| verts[mesh.corner_vertex(c) as usize] == b)
                    || surface.contains_plan(q, b)
            };
            let mut found = (c + 1..=end).rev().find(|&k| holds(polygons[k]));
            if found.is_none() && polygons[c] == p && holds(p) {
                found = Some(c);
            }
            if let Some(k) = found {
                (c, p) = (k, polygons[k]);
            } else {
                let t = mesh
                    .plan_mesh()
                    .walk(mesh.triangle_at(p, a), a, b, &mut |_| {}, false)
                    .ok_or_else(|| Error::InvalidResult {
                        step: "surface path",
                        reason: format!("segment {} leaves the surface's floor", i - 1),
                    })?;
                p = mesh.polygon_of(t);
                if let Some(k) = (c..polygons.len()).find(|&k| polygons[k] == p) {
                    c = k;
                }
            }
        }
        // An end's floor height when the caller has it (for that polygon).
        let n = path.len();
        let known = heights.and_then(|[first, last]| {
            let (q, h) = if i == 0 {
                first
            } else if i + 1 == n {
                last
            } else {
                return None;
            };
            (q == p).then_some(h)
        });
        out.push(polygon_point(mesh, p, b, i, n, known));
    }
    Ok(())
}

/// Point `i` of `n` of a path, at plan-view `at` in polygon `p` (heights as
/// [`surface_point`]'s; `known`: the floor's height there, when the caller has it).
fn polygon_point(
    mesh: &SurfaceMesh,
    p: PolyId,
    at: DVec2,
    i: usize,
    n: usize,
    known: Option<f64>,
) -> SurfacePoint {
    let surface = mesh.surface();
    let verts = mesh.plan_mesh().vertices();
    let corner = mesh
        .corners(p)
        .find(|&c| verts[mesh.corner_vertex(c) as usize] == at);
    match (corner, known) {
        // A corner on a detail floor: its height there, computed once per mesh.
        (Some(c), _) if surface.detail().is_some() => SurfacePoint {
            position: surface.up().join(at, mesh.corner_floor(c)),
            polygon: p,
            flags: point_flags(i, n),
        },
        (None, Some(h)) => SurfacePoint {
            position: surface.up().join(at, h),
            polygon: p,
            flags: point_flags(i, n),
        },
        (corner, _) => point_with(mesh, p, corner.map(|c| mesh.corner_vertex(c)), at, i, n),
    }
}

/// Lifts a plan-view `path` on a flat `sheet` to 3D, starting in the sheet's triangle
/// `first`: each point's triangle is where the straight walk from the previous one ends
/// (the sheet has no overlaps, and the walk crosses shared edges only).
///
/// Errors: [`Error::InvalidResult`] when a segment's walk meets a wall.
pub(crate) fn lift_on_sheet(
    mesh: &SurfaceMesh,
    sheet: &Sheet,
    first: TriId,
    path: &[DVec2],
    out: &mut Vec<SurfacePoint>,
) -> Result<()> {
    out.clear();
    let mut t = first;
    for (i, &b) in path.iter().enumerate() {
        if i > 0 {
            t = sheet
                .mesh()
                .walk(t, path[i - 1], b, &mut |_| {}, false)
                .ok_or_else(|| Error::InvalidResult {
                    step: "surface path",
                    reason: format!("segment {} leaves the sheet", i - 1),
                })?;
        }
        out.push(surface_point(
            mesh,
            sheet.surface_triangle(t),
            b,
            i,
            path.len(),
        ));
    }
    Ok(())
}

/// True when the edge shared by plan-mesh triangles `t` and `u` touches segment `a`–`b`.
fn portal_touches(plan: &NavMesh, t: TriId, u: TriId, a: DVec2, b: DVec2) -> bool {
    plan.shared_edge(t, u).is_some_and(|i| {
        let tri = plan.triangle(t);
        let (p, q) = (tri[i], tri[(i + 1) % 3]);
        // To the mesh's tolerance, as the polygon lift: straight runs of vertices with
        // irrational or rounded coordinates are straight only to that.
        segment_distance(a, b, p, q) <= plan.tolerance()
    })
}

/// Point `i` of `n` of a path, at plan-view `p` in plan-mesh triangle `t`.
fn surface_point(mesh: &SurfaceMesh, t: TriId, p: DVec2, i: usize, n: usize) -> SurfacePoint {
    let plan = mesh.plan_mesh();
    let corner = plan.triangle_indices()[t]
        .into_iter()
        .find(|&v| plan.vertices()[v as usize] == p);
    point_with(mesh, mesh.polygon_of(t), corner, p, i, n)
}

/// The flags of point `i` of `n`: start, end.
fn point_flags(i: usize, n: usize) -> PointFlags {
    let mut flags = PointFlags::NONE;
    if i == 0 {
        flags |= PointFlags::START;
    }
    if i + 1 == n {
        flags |= PointFlags::END;
    }
    flags
}

/// Point `i` of `n` at plan-view `p` in `polygon`, `corner` the mesh vertex it is, if any.
fn point_with(
    mesh: &SurfaceMesh,
    polygon: PolyId,
    corner: Option<u32>,
    p: DVec2,
    i: usize,
    n: usize,
) -> SurfacePoint {
    let surface = mesh.surface();
    let flags = point_flags(i, n);
    // The floor's height there: the detail mesh's when there is one (the true surface:
    // stairs, slopes); else a corner keeps its own height (as Detour's straight path gives
    // the polygon's vertex) and other points the polygon's plane.
    let height = match corner {
        Some(v) if surface.detail().is_none() => {
            surface.up().height(surface.vertices()[v as usize])
        }
        _ => surface.floor_height(polygon, p),
    };
    SurfacePoint {
        position: surface.up().join(p, height),
        polygon,
        flags,
    }
}
