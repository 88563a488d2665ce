//! A layered navmesh as a world: its plan-view answers are those of the one-floor sheet
//! round the last path planned on it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use glam::{DVec2, DVec3};

use super::obstacles::{Obstacles, Placed};
use super::{tolerance_for, Bounds, NavMeshWorld, World};
use crate::area::AreaCosts;
use crate::cancel::Cancel;
use crate::error::{Error, Result};
use crate::navmesh::mesh::{NavMesh, PolyId};
use crate::navmesh::{
    NavMeshQuery, Sheet, Surface, SurfaceMesh, SurfacePoint, SurfaceQuery, UpAxis,
};

/// A layered navmesh ([`SurfaceMesh`]: floors that overlap in plan view, a bridge over a
/// corridor, two storeys) as a [`World`], for the one [`Pipeline`](crate::Pipeline).
///
/// A point in plan view may lie over several floors, so the surface itself has no single
/// clearance or line of sight. A plan cuts the **sheet** round its path
/// ([`SurfaceQuery::sheet`]: the part of the surface one floor deep around the path's
/// channel, a flat [`NavMesh`]) and the world keeps it as a flat world (its wall index,
/// clearances and search); every plan-view answer ([`clearance`](World::clearance),
/// [`segment_is_clear`](World::segment_is_clear), [`bounds`](World::bounds), costs, the
/// navmesh of the navmesh steps) is then that sheet's, until the next plan cuts another.
/// What is clear on a sheet is clear on the surface (it is a piece of it, its cut edges
/// walls), so a stale sheet's answers are conservative, never wrong.
///
/// **A mesh with one floor** ([`SurfaceMesh::is_one_floor`]: no two plan-view triangles
/// overlap — a flat navmesh, or a 3D one without a floor over another) is its own sheet:
/// the world holds the whole plan mesh as a flat world from the start, answers as it
/// before any plan, and no plan cuts another.
///
/// **Before any plan** on a mesh with several floors there is no sheet:
/// [`bounds`](World::bounds) are those of the surface's plan view,
/// [`clearance`](World::clearance) is 0 and nothing is clear (a path given to
/// [`Pipeline::smooth`](crate::Pipeline::smooth) then fails its input check);
/// [`find_path_into`](World::find_path_into) says a plan is needed first.
///
/// **Plans.** [`Pipeline::plan_surface`](crate::Pipeline::plan_surface) takes 3D ends and
/// returns the path in 3D, each point with its floor's height and polygon, over off-mesh
/// links too. [`Pipeline::plan`](crate::Pipeline::plan) takes 2D ends: each is located on
/// the one floor under it (within the query's [climb](SurfaceQuery::climb)), or the plan
/// is [`Error::OverSeveralFloors`] — never a silent pick — and the path is returned in
/// plan view, valid on the sheet. Only a pipeline that owns the world (by value or in a
/// `Box`) cuts sheets: behind a reference or an `Arc`, plans answer on the sheet the world
/// last had.
///
/// **Temporary obstacles** (doors, crates) lie on one floor and are cut out of its
/// polygons exactly, the surface built again round the hole
/// ([`add_obstacle`](Self::add_obstacle), [`add_obstacle_on_floor`](Self::add_obstacle_on_floor));
/// [`mesh`](Self::mesh) is then the cut mesh and [`terrain`](Self::terrain) the one given.
///
/// The mesh is held in an [`Arc`]: a server or a binding shares one mesh between the
/// worlds of its threads and requests, and making a world costs no copy of it (a
/// `SurfaceMesh` is about 100 bytes a triangle).
///
/// Cost: making one, see [`new`](Self::new). On a mesh with several floors each plan cuts
/// a sheet (see [`SurfaceQuery::sheet`]) and builds its world's wall index, O(t log n) for
/// its t triangles of the mesh's n; on a mesh with one floor, nothing beyond the searches.
#[derive(Debug, Clone)]
pub struct SurfaceWorld {
    /// The mesh walked on: `terrain` less the obstacles.
    pub(super) mesh: Arc<SurfaceMesh>,
    /// The mesh as given.
    pub(super) terrain: Arc<SurfaceMesh>,
    /// The temporary obstacles, each with its ring and the polygons of `terrain` of its
    /// floor (`surface_obstacles`).
    pub(super) obstacles: Obstacles<Placed>,
    /// Per polygon of `mesh`, the polygon of `terrain` it is (a piece of); empty while
    /// `mesh` is `terrain`.
    pub(super) origin: Vec<PolyId>,
    /// The plan view's bounds: the world's before any sheet.
    plan_bounds: Bounds,
    /// `None`: the default reach of a sheet beyond its channel (see `set_margin`).
    margin: Option<f64>,
    /// The last plan's sheet and its world (shared: on a mesh with one floor it is the
    /// whole plan mesh, made once and kept by every clone).
    sheet: Option<Arc<SheetWorld>>,
    /// On a mesh with one floor, the whole plan mesh as a sheet, with the world's area
    /// costs.
    whole: Option<Arc<SheetWorld>>,
    /// The world's own area costs ([`with_area_costs`](Self::with_area_costs)): those of
    /// its answers, and of every plan whose query sets none. `None`: every area costs 1.
    costs: Option<Arc<AreaCosts>>,
    /// Where the last point was found: an agent asks about its position every frame, and
    /// mostly it has not left its triangle.
    last: Located,
}

/// The triangles the last points were found in, on the sheet (for the floor) and on its
/// world's mesh (for the clearance; another mesh when it has obstacles or excluded
/// areas): hints for [`NavMesh::locate_from`], atomics so that the world stays shared
/// between threads (a hint another thread overwrote costs a search, never an answer).
#[derive(Debug, Default)]
struct Located {
    sheet: AtomicU32,
    world: AtomicU32,
}

impl Clone for Located {
    fn clone(&self) -> Self {
        let copy = |a: &AtomicU32| AtomicU32::new(a.load(Ordering::Relaxed));
        Located {
            sheet: copy(&self.sheet),
            world: copy(&self.world),
        }
    }
}

/// A sheet and the flat world over it.
type SheetWorld = (Sheet, NavMeshWorld);

/// The path-finding scratch of a [`SurfaceWorld`] ([`World::Query`]): the layered search
/// ([`SurfaceQuery`], which locates ends, finds the channel and cuts the sheet) and the
/// navmesh search on the sheet, with the buffers of a 3D plan. A
/// [`Pipeline`](crate::Pipeline) keeps one, so repeated plans reuse its memory.
#[derive(Debug, Clone)]
pub struct SurfaceWorldQuery {
    pub(crate) surface: SurfaceQuery,
    pub(crate) nav: NavMeshQuery,
    /// The floors under a 2D end (polygon, height), sorted by height.
    floors: Vec<(PolyId, f64)>,
    /// A leg's plan-view path, its lift to 3D, and the whole 3D path.
    pub(crate) plan: Vec<DVec2>,
    pub(crate) leg: Vec<SurfacePoint>,
    pub(crate) path: Vec<SurfacePoint>,
}

impl Default for SurfaceWorldQuery {
    fn default() -> Self {
        // A plan cuts a sheet round every path's triangle channel, so the search walks the
        // triangles at every radius.
        let mut surface = SurfaceQuery::new();
        surface.search_triangles();
        SurfaceWorldQuery {
            surface,
            nav: NavMeshQuery::default(),
            floors: Vec::new(),
            plan: Vec::new(),
            leg: Vec::new(),
            path: Vec::new(),
        }
    }
}

impl SurfaceWorldQuery {
    /// The layered search: its last path, legs, channel and the ends' moves.
    pub fn surface(&self) -> &SurfaceQuery {
        &self.surface
    }

    /// The layered search, to set its half-extents, climb or area costs.
    pub fn surface_mut(&mut self) -> &mut SurfaceQuery {
        &mut self.surface
    }
}

impl SurfaceWorld {
    /// The world of `mesh` (a `SurfaceMesh` or an `Arc` of one): with no sheet yet, or,
    /// on a mesh with one floor ([`SurfaceMesh::is_one_floor`]), with the whole plan mesh
    /// as its sheet from the start.
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
    /// use pathsmooth::{SurfaceWorld, World};
    /// let v = [DVec3::ZERO, DVec3::new(4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(0.0, 0.0, 4.0)];
    /// let mesh = SurfaceMesh::new(Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Y, 0.0)?)?;
    /// let world = SurfaceWorld::new(mesh);
    /// assert_eq!(world.bounds().max, DVec2::new(4.0, 4.0));
    /// assert_eq!(world.clearance(DVec2::new(2.0, 2.0)), 2.0); // one floor: the whole sheet
    ///
    /// // A bridge over the floor: two floors, no sheet before a plan.
    /// let v = [v[0], v[1], v[2], v[3], DVec3::new(1.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 1.0), DVec3::new(3.0, 3.0, 3.0), DVec3::new(1.0, 3.0, 3.0)];
    /// let mesh = SurfaceMesh::new(Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0)?)?;
    /// assert_eq!(SurfaceWorld::new(mesh).clearance(DVec2::new(0.5, 0.5)), 0.0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    ///
    /// Cost: O(vertices) for the plan view's bounds; on a mesh with one floor, the test
    /// for it (once per mesh) and a copy of the plan mesh with its wall index,
    /// O(n log n) for n triangles.
    pub fn new(mesh: impl Into<Arc<SurfaceMesh>>) -> Self {
        let mesh = mesh.into();
        let plan_bounds = Bounds::around(mesh.plan_mesh().vertices().iter().copied())
            .unwrap_or(Bounds::new(DVec2::ZERO, DVec2::ZERO));
        let mut world = SurfaceWorld {
            terrain: Arc::clone(&mesh),
            mesh,
            obstacles: Obstacles::default(),
            origin: Vec::new(),
            plan_bounds,
            margin: None,
            sheet: None,
            whole: None,
            costs: None,
            last: Located::default(),
        };
        world.install_mesh(Arc::clone(&world.terrain), Vec::new());
        world
    }

    /// The world of a flat navmesh: the surface of one floor of its polygons
    /// ([`Surface::from_navmesh`], z up, every
    /// height 0, the polygons' ids their references): the library's navmesh world, and
    /// what the bindings' navmesh worlds are.
    ///
    /// Errors: those of the surface's build (slivers below the tolerance of the mesh's
    /// coordinates). Cost: the surface's build, O(n log n), and [`new`](Self::new)'s.
    pub fn from_navmesh(mesh: &NavMesh) -> Result<Self> {
        let surface = Surface::from_navmesh(mesh, UpAxis::Z)?;
        Ok(Self::new(SurfaceMesh::new(surface)?))
    }

    /// The world with `costs` as its own area costs (a flat navmesh world's, Detour's
    /// query filter): what its answers cost ([`segment_cost`](World::segment_cost); an
    /// excluded area is a wall to every test) and the filter of
    /// every plan whose [`SurfaceQuery`] sets none of its own (the plan lends them to the
    /// query, which keeps them: a query is its pipeline's, and its world's costs do not
    /// change). Costs of 1 everywhere are no costs.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::{NavMesh, Surface, SurfaceMesh, UpAxis};
    /// use pathsmooth::{Pipeline, SurfaceWorld, World};
    /// // Three unit squares in a row, the middle one area 2 (a swamp).
    /// let v: Vec<DVec2> = (0..2).flat_map(|y| (0..4).map(move |x| DVec2::new(x as f64, y as f64))).collect();
    /// let mesh = NavMesh::from_polygons_with_areas(&v, &[vec![0, 1, 5, 4], vec![1, 2, 6, 5], vec![2, 3, 7, 6]], &[1, 2, 1])?;
    /// let surface = SurfaceMesh::new(Surface::from_navmesh(&mesh, UpAxis::Z)?)?;
    /// let world = SurfaceWorld::new(surface).with_area_costs("2=10".parse()?)?;
    /// let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5));
    /// assert_eq!(world.segment_cost(a, b), 0.5 + 10.0 + 0.5);
    /// let walled = world.with_area_costs("2=exclude".parse()?)?;
    /// assert!(!walled.segment_is_clear(a, b, 0.0));
    /// assert!(Pipeline::new(walled, 0.0)?.plan(a, b).is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    ///
    /// Errors: [`Error::NoFreeSpace`] when `costs` exclude the whole of a mesh with one
    /// floor. Cost: on a mesh with one floor, the whole plan mesh's world with the costs
    /// (O(triangles), and the mesh and wall index rebuilt when areas are excluded).
    pub fn with_area_costs(mut self, costs: AreaCosts) -> Result<Self> {
        self.costs = (!costs.is_unit()).then(|| Arc::new(costs));
        if let Some(whole) = self.whole.clone() {
            self.install_whole(whole)?;
        }
        Ok(self)
    }

    /// The world's own area costs ([`with_area_costs`](Self::with_area_costs)), `None`
    /// when every area costs 1.
    pub fn area_costs(&self) -> Option<&AreaCosts> {
        self.costs.as_deref()
    }

    /// Gives `query` the world's area costs when it sets none of its own (see
    /// [`with_area_costs`](Self::with_area_costs)): before every plan.
    pub(crate) fn lend_costs(&self, query: &mut SurfaceQuery) {
        if let (None, Some(costs)) = (query.area_costs(), &self.costs) {
            query.set_area_costs(AreaCosts::clone(costs));
        }
    }

    /// Makes `mesh` the one walked on, `origin` its polygons' in the terrain (empty for
    /// the terrain itself): on a mesh with one floor, its whole plan view becomes the
    /// sheet, with the world's area costs (none when they exclude the whole of it); else
    /// there is no sheet until the next plan.
    pub(super) fn install_mesh(&mut self, mesh: Arc<SurfaceMesh>, origin: Vec<PolyId>) {
        let whole = mesh.is_one_floor().then(|| {
            let sheet = Sheet::whole(mesh.plan_mesh());
            let world = NavMeshWorld::new(sheet.mesh().clone());
            Arc::new((sheet, world))
        });
        self.mesh = mesh;
        self.origin = origin;
        self.sheet = None;
        self.whole = None;
        self.last = Located::default();
        if let Some(whole) = whole {
            // Costs that exclude all of it leave the world with no sheet: no free space.
            let _ = self.install_whole(whole);
        }
    }

    /// Makes `whole` (the plan mesh of a mesh with one floor) the world's whole plan mesh
    /// and its sheet, with the world's area costs. Errors: [`Error::NoFreeSpace`] when
    /// they exclude all of it; the world then has no sheet, and its whole is `whole` as
    /// given.
    fn install_whole(&mut self, whole: Arc<SheetWorld>) -> Result<()> {
        self.whole = Some(Arc::clone(&whole));
        self.keep_whole(whole, None)?;
        self.whole = self.sheet.clone();
        Ok(())
    }

    /// The layered navmesh walked on: the one given less the
    /// [obstacles](Self::add_obstacle) cut out of it.
    pub fn mesh(&self) -> &SurfaceMesh {
        &self.mesh
    }

    /// The layered navmesh walked on ([`mesh`](Self::mesh)), shared.
    pub fn shared_mesh(&self) -> &Arc<SurfaceMesh> {
        &self.mesh
    }

    /// How far beyond its channel's bounding box a plan's sheet reaches (plan-view world
    /// units). By default half the found path's larger extent plus twice the radius: room
    /// for shortcuts and curves, which stay near the path.
    /// Errors: [`Error::BadParameter`] unless finite and ≥ 0.
    pub fn set_margin(&mut self, margin: f64) -> Result<()> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(Error::param("margin", margin, "a finite number ≥ 0"));
        }
        self.margin = Some(margin);
        Ok(())
    }

    /// The margin set by [`set_margin`](Self::set_margin), `None` for the default.
    pub fn margin(&self) -> Option<f64> {
        self.margin
    }

    /// The sheet of the last plan that cut one (`None` before, and after a plan whose
    /// path no flat sheet holds); on a mesh with one floor, always the whole plan mesh.
    pub fn sheet(&self) -> Option<&Sheet> {
        self.sheet.as_deref().map(|(sheet, _)| sheet)
    }

    /// On a mesh with one floor ([`SurfaceMesh::is_one_floor`]), its whole plan view as a
    /// sheet and the flat world of it, with the world's [area
    /// costs](Self::with_area_costs) (what every plan and crowd agent on such a mesh
    /// walks); `None` on a mesh with floors over one another. Made once by
    /// [`new`](Self::new).
    pub(crate) fn one_floor_sheet(&self) -> Option<(&Sheet, &NavMeshWorld)> {
        self.whole.as_deref().map(|(sheet, world)| (sheet, world))
    }

    /// The surface polygon under plan-view `p` on the [sheet](Self::sheet) (so on its
    /// floor: a sheet is one floor deep), `None` off the sheet or before any. This is how a
    /// crowd agent walking in plan view on its sheet knows which floor it stands on.
    /// Cost: one exact test when `p` lies inside the triangle of the last point asked
    /// about (an agent that walked on), else one lookup in the sheet's triangle index.
    pub fn polygon_at(&self, p: DVec2) -> Option<PolyId> {
        let (sheet, _) = self.sheet.as_deref()?;
        let t = sheet.mesh().locate_from(p, &self.last.sheet)?;
        Some(self.mesh.polygon_of(sheet.surface_triangle(t)))
    }

    /// [`polygon_at`](Self::polygon_at) with the walker's own hint (see
    /// [`World::floor_height_near`]).
    fn polygon_near(&self, p: DVec2, hint: &mut u32) -> Option<PolyId> {
        let (sheet, _) = self.sheet.as_deref()?;
        let t = sheet.mesh().locate_near(p, hint)?;
        Some(self.mesh.polygon_of(sheet.surface_triangle(t)))
    }

    /// The world of [`sheet`](Self::sheet): the one every plan-view answer is from.
    pub(crate) fn sheet_world(&self) -> Option<&NavMeshWorld> {
        self.sheet.as_deref().map(|(_, world)| world)
    }

    /// Cuts the sheet round `query`'s last path (one leg) for an agent of `radius` and
    /// makes it the world's, with the query's area costs (the sheet keeps the surface's
    /// areas). The old sheet is dropped first, so a failure leaves none.
    ///
    /// Errors: those of [`SurfaceQuery::sheet`] ([`Error::InvalidResult`] for a path over
    /// or under itself), [`Error::NoFreeSpace`] from the costs.
    pub(crate) fn cut_sheet(&mut self, query: &mut SurfaceQuery, radius: f64) -> Result<()> {
        if let Some(whole) = &self.whole {
            return self.keep_whole(Arc::clone(whole), query.area_costs());
        }
        self.sheet = None;
        let Some([(s, _), _]) = query.ends() else {
            return Err(Error::param("path", f64::NAN, "a path found"));
        };
        let margin = self.margin.unwrap_or_else(|| {
            let (lo, hi) = query
                .plan_path()
                .iter()
                .fold((s, s), |(lo, hi), &p| (lo.min(p), hi.max(p)));
            0.5 * (hi - lo).max_element() + 2.0 * radius
        });
        let sheet = query.sheet(&self.mesh, margin)?;
        let world = NavMeshWorld::new(sheet.mesh().clone());
        let world = match query.area_costs() {
            Some(costs) => world.with_area_costs(costs.clone())?,
            None => world,
        };
        self.sheet = Some(Arc::new((sheet, world)));
        Ok(())
    }

    /// Makes the whole plan mesh the sheet, with `costs` (`None`: the world's own): the
    /// same sheet again when its costs are those (O(1) but for comparing them), else the
    /// whole mesh's world with them (O(triangles), and the mesh and wall index rebuilt when
    /// what is excluded changes).
    fn keep_whole(&mut self, whole: Arc<SheetWorld>, costs: Option<&AreaCosts>) -> Result<()> {
        let unit = AreaCosts::unit();
        let costs = costs.or(self.costs.as_deref()).unwrap_or(&unit);
        if self.sheet_world().is_some_and(|w| w.area_costs() == costs) {
            return Ok(());
        }
        // Dropped first: costs the whole mesh cannot take leave the world with no sheet,
        // as a failed cut does.
        self.sheet = None;
        self.sheet = Some(if costs == whole.1.area_costs() {
            whole
        } else {
            let (sheet, world) = &*whole;
            Arc::new((sheet.clone(), world.clone().with_area_costs(costs.clone())?))
        });
        Ok(())
    }

    /// The 3D point of plan-view `p` on the one floor under it, as
    /// [`Pipeline::plan`](crate::Pipeline::plan) locates its 2D ends: the polygons `p`
    /// lies in whose floors are all within the query's [climb](SurfaceQuery::climb) of the
    /// lowest of them. With it a caller holding 2D points (a click on a plan-view map, a
    /// grid cell) makes the 3D ends of [`Pipeline::plan_surface`](crate::Pipeline::plan_surface),
    /// whose path keeps its heights, polygons and links.
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{Surface, SurfaceMesh, UpAxis};
    /// use pathsmooth::{Error, SurfaceWorld, SurfaceWorldQuery};
    /// // A floor at height 0 and a bridge at height 3 over part of it (y up).
    /// let v = [
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(10.0, 0.0, 0.0), DVec3::new(10.0, 0.0, 10.0), DVec3::new(0.0, 0.0, 10.0),
    ///     DVec3::new(2.0, 3.0, 4.0), DVec3::new(8.0, 3.0, 4.0), DVec3::new(8.0, 3.0, 6.0), DVec3::new(2.0, 3.0, 6.0),
    /// ];
    /// let mesh = SurfaceMesh::new(Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0)?)?;
    /// let (world, mut query) = (SurfaceWorld::new(mesh), SurfaceWorldQuery::default());
    /// assert_eq!(world.floor_point(DVec2::new(1.0, 5.0), &mut query)?, DVec3::new(1.0, 0.0, 5.0));
    /// let e = world.floor_point(DVec2::new(3.0, 5.0), &mut query).unwrap_err();
    /// assert_eq!(e, Error::OverSeveralFloors { what: "point", x: 3.0, y: 5.0, floors: 2 });
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    ///
    /// Errors: [`Error::NonFinite`] for a non-finite point, [`Error::OutsideMesh`] over no
    /// polygon, [`Error::OverSeveralFloors`] over floors farther apart than the climb (which
    /// one is for a 3D point to say). Cost: one lookup in the plan view's triangle index and
    /// a sort of the polygons over `p`.
    pub fn floor_point(&self, p: DVec2, query: &mut SurfaceWorldQuery) -> Result<DVec3> {
        self.floor_under(p, "point", 0, query)
    }

    /// [`floor_point`](Self::floor_point) of each of `points`, into `out` (cleared first):
    /// plan-view points (a flat crowd's, a drawn path) put on the floor. Errors:
    /// `floor_point`'s for the first point without one floor under it
    /// ([`Error::NonFinite`] names its index); `out` then holds the points before it.
    /// Cost: a `floor_point` each; allocates only to grow `out`.
    pub fn floor_points_into(
        &self,
        points: impl IntoIterator<Item = DVec2>,
        query: &mut SurfaceWorldQuery,
        out: &mut Vec<DVec3>,
    ) -> Result<()> {
        out.clear();
        for (i, p) in points.into_iter().enumerate() {
            out.push(self.floor_under(p, "point", i, query)?);
        }
        Ok(())
    }

    /// The 3D point of plan-view `p` on the one floor under it: the polygons it lies in
    /// whose floors are all within the query's climb of the lowest of them (one floor,
    /// its polygons meeting at `p`).
    ///
    /// Errors: [`Error::NonFinite`] (point `index`), [`Error::OutsideMesh`] over no
    /// polygon, [`Error::OverSeveralFloors`] over floors farther apart than the climb.
    fn floor_under(
        &self,
        p: DVec2,
        what: &'static str,
        index: usize,
        query: &mut SurfaceWorldQuery,
    ) -> Result<DVec3> {
        if !p.is_finite() {
            return Err(Error::NonFinite { index });
        }
        let surface = self.mesh.surface();
        let climb = query.surface.climb(surface);
        surface.polygons_over(p, &mut query.floors);
        let Some(&(_, lowest)) = query.floors.first() else {
            return Err(Error::OutsideMesh {
                what,
                x: p.x,
                y: p.y,
            });
        };
        let floors = 1 + query
            .floors
            .windows(2)
            .filter(|w| w[1].1 - w[0].1 > climb)
            .count();
        if floors > 1 {
            return Err(Error::OverSeveralFloors {
                what,
                x: p.x,
                y: p.y,
                floors,
            });
        }
        Ok(surface.up().join(p, lowest))
    }

    /// Whether the layered plan says more than a failed plan on the whole plan mesh of one
    /// floor: it names the surface's pieces of two ends that no path joins
    /// ([`Error::UnreachableOnSurface`]); every other error is the one answer of the mesh.
    pub(crate) fn layered_says_more(e: &Error) -> bool {
        matches!(e, Error::Unreachable { .. })
    }

    /// Whether a plan's path is found by the search of the whole plan mesh alone: on a
    /// mesh of one floor with no off-mesh links (see [`plan_on_whole`](Self::plan_on_whole)).
    pub(crate) fn plans_on_whole(&self) -> bool {
        self.whole.is_some() && self.mesh.surface().links().is_empty()
    }

    /// A plan on a mesh with one floor and no off-mesh links by the search of the whole
    /// plan mesh alone, which is the world's sheet: the layered search walks the same
    /// triangles to the same channel, and the sheet's search after it would find the
    /// path again (measured in `docs/layered-navmeshes.md`, "A plan on one floor searches
    /// once"). Returns whether it answered: `false` on any other mesh, and when the
    /// search finds the ends unreachable, so that the layered plan then says so naming the
    /// surface's pieces, which the flat search does not know
    /// ([`layered_says_more`](Self::layered_says_more)). The
    /// layered search's last path is then not this plan's.
    ///
    /// Errors: the whole mesh's search's but [`Error::Unreachable`] (an end without room
    /// for the radius, [`Error::TooClose`], is the flat world's answer, where the layered
    /// search finds no way: the answer of a flat navmesh world, which the bindings' navmesh
    /// worlds are); [`Error::Cancelled`].
    fn plan_on_whole(
        &mut self,
        [start, goal]: [DVec2; 2],
        radius: f64,
        cancel: Option<&Cancel>,
        query: &mut SurfaceWorldQuery,
        out: &mut Vec<DVec2>,
    ) -> Result<bool> {
        let Some(whole) = self.whole.clone().filter(|_| self.plans_on_whole()) else {
            return Ok(false);
        };
        // Costs the whole mesh cannot take: the layered plan says why (its search comes
        // first there, and names an end in an excluded area before the sheet fails).
        if self.keep_whole(whole, query.surface.area_costs()).is_err() {
            return Ok(false);
        }
        let Some(world) = self.sheet_world() else {
            return Ok(false);
        };
        match super::search_into(world, start, goal, radius, cancel, &mut query.nav, out) {
            Ok(()) => Ok(true),
            Err(e) if Self::layered_says_more(&e) => {
                out.clear();
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// A plan by the layered search between the ends located on their floors (`s`, `g`),
    /// then the sheet cut round its path and the sheet's own search: see
    /// [`find_path_for_run_into`](World::find_path_for_run_into).
    fn plan_layered(
        &mut self,
        [s, g]: [DVec3; 2],
        radius: f64,
        cancel: Option<&Cancel>,
        query: &mut SurfaceWorldQuery,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        query.surface.set_cancel(cancel.cloned());
        query.surface.find_path(&self.mesh, s, g, radius)?;
        if query.surface.legs().len() > 1 {
            return Err(Error::Unsupported {
                what: "a plan-view path over off-mesh links",
                needs: "3D ends (Pipeline::plan_surface), whose path keeps each link",
            });
        }
        self.cut_sheet(&mut query.surface, radius)?;
        let Some([(s, _), (g, _)]) = query.surface.ends() else {
            return Err(Error::param("path", f64::NAN, "a path found"));
        };
        let Some(world) = self.sheet_world() else {
            return Err(Error::param("sheet", f64::NAN, "a sheet cut"));
        };
        super::search_into(world, s, g, radius, cancel, &mut query.nav, out)
    }
}

// Each test below forwards to the sheet's world. In WebAssembly they are kept out of line:
// every step and the crowd are compiled for both `SurfaceWorld` (a pipeline) and
// `Arc<SurfaceWorld>` (a crowd's pipelines), and the sheet's tests inlined into each copy put
// the npm package 17 KB over its budget; the plans took no longer (docs/wasm.md).
impl World for SurfaceWorld {
    type Query = SurfaceWorldQuery;

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn bounds(&self) -> Bounds {
        self.sheet_world().map_or(self.plan_bounds, World::bounds)
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn clearance(&self, p: DVec2) -> f64 {
        self.sheet_world()
            .map_or(0.0, |w| w.clearance_from(p, &self.last.world))
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn has_clearance(&self, p: DVec2, need: f64) -> bool {
        match self.sheet_world() {
            Some(w) => w.has_clearance_from(p, need, &self.last.world),
            None => need <= 0.0,
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        self.sheet_world()
            .is_some_and(|w| w.segment_is_clear(a, b, radius))
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn segment_clearance(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        self.sheet_world()
            .map_or(0.0, |w| w.segment_clearance(a, b, cap))
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn walls_near(&self, p: DVec2, reach: f64, out: &mut Vec<[DVec2; 2]>) {
        if let Some(w) = self.sheet_world() {
            w.walls_near(p, reach, out);
        }
    }

    /// The floor's height under `p` on the sheet ([`Surface::floor_height`] of
    /// [`polygon_at`](SurfaceWorld::polygon_at)'s polygon).
    ///
    /// [`Surface::floor_height`]: crate::navmesh::Surface::floor_height
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn floor_height(&self, p: DVec2) -> Option<f64> {
        let polygon = self.polygon_at(p)?;
        Some(self.mesh.surface().floor_height(polygon, p))
    }

    /// [`floor_height`](World::floor_height) from the walker's hint: on a mesh of one floor
    /// every agent of a crowd walks this one world, and the world's own last triangle
    /// (one for all of them) would be the wrong one for nearly every agent.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn floor_height_near(&self, p: DVec2, hint: &mut u32) -> Option<f64> {
        let polygon = self.polygon_near(p, hint)?;
        Some(self.mesh.surface().floor_height(polygon, p))
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn bend_is_clear(&self, prev: DVec2, v: DVec2, next: DVec2, radius: f64) -> bool {
        self.sheet_world()
            .is_some_and(|w| w.bend_is_clear(prev, v, next, radius))
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn first_contact(&self, a: DVec2, b: DVec2, radius: f64) -> Option<DVec2> {
        match self.sheet_world() {
            Some(w) => w.first_contact(a, b, radius),
            None => Some(a.lerp(b, 0.5)),
        }
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn clear_or_blocker(&self, a: DVec2, b: DVec2, radius: f64) -> Result<(), Option<Bounds>> {
        match self.sheet_world() {
            Some(w) => w.clear_or_blocker(a, b, radius),
            None => Err(None),
        }
    }

    /// The sheet's cost; before any sheet, infinite (nothing is free).
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn segment_cost(&self, a: DVec2, b: DVec2) -> f64 {
        self.sheet_world()
            .map_or(f64::INFINITY, |w| w.segment_cost(a, b))
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn has_area_costs(&self) -> bool {
        self.sheet_world().is_some_and(World::has_area_costs)
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn cost_filter(&self) -> Option<&AreaCosts> {
        self.sheet_world().and_then(World::cost_filter)
    }

    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn tolerance(&self) -> f64 {
        self.sheet_world()
            .map_or_else(|| tolerance_for(&self.plan_bounds), World::tolerance)
    }

    /// A path on the current sheet, by its navmesh search: the steps' re-planning within
    /// a plan. Before any sheet, the
    /// ends are checked (each over one floor) and the answer is [`Error::Unsupported`]:
    /// only a plan ([`find_path_for_run_into`](World::find_path_for_run_into), which
    /// the pipeline calls) can cut a sheet.
    fn find_path_into(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        query: &mut SurfaceWorldQuery,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        out.clear();
        if let Some(world) = self.sheet_world() {
            return world.find_path_into(start, goal, radius, &mut query.nav, out);
        }
        self.floor_under(start, "start", 0, query)?;
        self.floor_under(goal, "goal", 1, query)?;
        Err(Error::Unsupported {
            what: "finding a path on a layered navmesh before any plan",
            needs: "a plan by the pipeline, which cuts the one-floor sheet round its path",
        })
    }

    /// Locates each 2D end on the one floor under it (see [`SurfaceWorld`]), finds the
    /// path on the surface ([`SurfaceQuery::find_path`]), cuts its sheet and makes it the
    /// world's, then returns the sheet's own search between the ends (with its fallbacks
    /// with a radius), in plan view.
    ///
    /// Errors: [`Error::NonFinite`], [`Error::OutsideMesh`], [`Error::OverSeveralFloors`]
    /// for an end; those of the layered search and of the sheet ([`Error::InvalidResult`]
    /// for a path over or under itself, which no plan view holds); [`Error::Unsupported`]
    /// for a route over off-mesh links (3D ends, through
    /// [`Pipeline::plan_surface`](crate::Pipeline::plan_surface), keep its links);
    /// [`Error::Cancelled`].
    ///
    /// On a mesh with one floor and no off-mesh links the whole plan mesh's own search
    /// answers first: the same path, without the layered search that would find it again
    /// (which runs when that search fails, for the error it gives).
    fn find_path_for_run_into(
        &mut self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        cancel: Option<&Cancel>,
        query: &mut SurfaceWorldQuery,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        out.clear();
        if self.whole.is_none() {
            self.sheet = None;
        }
        if let Some(c) = cancel {
            c.check()?;
        }
        self.lend_costs(&mut query.surface);
        let s = self.floor_under(start, "start", 0, query)?;
        let g = self.floor_under(goal, "goal", 1, query)?;
        if self.plan_on_whole([start, goal], radius, cancel, query, out)? {
            return Ok(());
        }
        self.plan_layered([s, g], radius, cancel, query, out)
    }

    /// The sheet's mesh; before any sheet, [`Error::Unsupported`].
    fn navmesh(&self) -> Result<&NavMesh> {
        match self.sheet_world() {
            Some(w) => w.navmesh(),
            None => Err(Error::Unsupported {
                what: "the navmesh steps on a layered navmesh",
                needs: "a plan, whose sheet they run on",
            }),
        }
    }
}
