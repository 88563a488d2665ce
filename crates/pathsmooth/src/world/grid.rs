//! A grid world: an occupancy grid placed in world units by a cell size and an origin.

use std::sync::OnceLock;

use glam::{DVec2, IVec2};

use super::obstacles::Obstacles;
use super::{check_ends, large_enough, tolerance_for, Bounds, World};
use crate::area::{area_name, AreaCosts, AreaId};
use crate::cancel::Cancel;
use crate::error::{Error, Result};
use crate::geometry::{closest_on_segment, max_map_coordinate};
use crate::grid::astar::{astar_until, narrowest_passage, GridPath, GridSearch, Weights};
use crate::grid::distance::DistanceField;
use crate::grid::los::{bend_pinch, segment_collision, segment_is_clear, Collision};
use crate::grid::map::GridMap;
use crate::navmesh::mesh::NavMesh;

/// A grid map in world units: cell (x = column, y = row) covers
/// `origin + cell_size · [x, x+1] × [y, y+1]`. Moving AI files load with cell size 1 and
/// origin 0 ([`GridWorld::new`]), so cell and world coordinates coincide.
///
/// Built once per map: the exact distance field ([`DistanceField`]) at construction, the
/// navmesh (for the funnel and portal relaxation) on first use, each then shared by every
/// query. Queries convert world points to cells (`(p − origin) / cell_size`) and answer
/// with the exact grid tests of [line of sight](crate::grid#line-of-sight) and [`DistanceField`], so the
/// validity rule of [`crate::world`] holds to the letter: blocked cells are closed squares,
/// outside the map is blocked, touching is allowed, seams and pinches are not.
///
/// Cost: construction O(width × height) time and memory (the map, the distance field);
/// the navmesh costs what [`NavMesh::from_grid`] costs, once.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{GridMap, GridWorld, World};
/// // 0.5 m cells, the map's corner at (10, 20).
/// let map = GridMap::from_rows(&["....", ".@@.", "...."])?;
/// let world = GridWorld::with_frame(map, 0.5, DVec2::new(10.0, 20.0))?;
/// assert_eq!(world.cell_center(glam::IVec2::new(0, 0)), DVec2::new(10.25, 20.25));
/// assert_eq!(world.bounds().max, DVec2::new(12.0, 21.5));
/// // Half a cell from the wall's top side: 0.25 m.
/// assert_eq!(world.clearance(DVec2::new(10.75, 20.25)), 0.25);
/// assert!(!world.segment_is_clear(DVec2::new(10.25, 20.75), DVec2::new(11.75, 20.75), 0.0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug)]
pub struct GridWorld {
    /// The map as the filter sees it (excluded areas blocked): every query's map.
    map: GridMap,
    /// The map as given (water and excluded areas with their areas), for a new filter.
    terrain: GridMap,
    costs: AreaCosts,
    /// The search's integer form of `costs`, `None` when every area costs 1.
    weights: Option<Weights>,
    cell_size: f64,
    origin: DVec2,
    field: DistanceField,
    max_clearance: OnceLock<f64>,
    navmesh: OnceLock<Result<NavMesh>>,
    /// Temporary obstacles, whose cells `map` has blocked ([`super::obstacles`]).
    pub(super) obstacles: Obstacles,
    /// The map and field without the obstacles, that an obstacle's change is patched from
    /// (made at the first change; dropped when the area costs change).
    bare: Option<Box<Bare>>,
}

/// A grid world's map and distance field without its obstacles ([`GridWorld::patch`]).
#[derive(Debug)]
struct Bare {
    map: GridMap,
    field: DistanceField,
    /// `field.reach()`.
    reach: usize,
}

impl GridWorld {
    /// The map with cell size 1 and origin (0, 0): world units are cells.
    ///
    /// Errors: [`Error::NoFreeSpace`] when the map has no passable cell.
    pub fn new(map: GridMap) -> Result<Self> {
        Self::with_frame(map, 1.0, DVec2::ZERO)
    }

    /// The map with cells of `cell_size` world units, cell (0, 0)'s corner at `origin`.
    ///
    /// Errors: [`Error::BadParameter`] for a cell size that is not positive and finite, or
    /// so small that the map spans less than 1000 times the world's
    /// [tolerance](World::tolerance) (every later call would refuse the world), or an
    /// origin that is not finite, [`Error::CoordinateOutOfRange`] when the origin or
    /// the map's far corner lies beyond
    /// [`max_map_coordinate`](crate::geometry::max_map_coordinate) (≈ 3.2·10⁶⁰: the
    /// world's lengths and squared distances would overflow, and its navmesh could not be
    /// built), [`Error::NoFreeSpace`] when the map has no passable cell.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{Error, GridMap, GridWorld};
    /// let map = || GridMap::from_rows(&["..."]).unwrap();
    /// assert!(matches!(GridWorld::with_frame(map(), 0.0, DVec2::ZERO), Err(Error::BadParameter { .. })));
    /// assert!(matches!(GridWorld::with_frame(map(), 1.0, DVec2::NAN), Err(Error::BadParameter { .. })));
    /// let tiny = GridWorld::with_frame(map(), 1e-300, DVec2::ZERO).unwrap_err();
    /// assert!(matches!(tiny, Error::BadParameter { name: "cell_size", .. }));
    /// let huge = GridWorld::with_frame(map(), 1e155, DVec2::ZERO).unwrap_err();
    /// assert!(matches!(huge, Error::CoordinateOutOfRange { index: None, .. }));
    /// let walls = GridMap::from_rows(&["@@"]).unwrap();
    /// assert_eq!(GridWorld::new(walls).unwrap_err(), Error::NoFreeSpace);
    /// ```
    pub fn with_frame(map: GridMap, cell_size: f64, origin: DVec2) -> Result<Self> {
        Error::check_positive("cell_size", cell_size, "a finite number > 0")?;
        for c in [origin.x, origin.y] {
            if !c.is_finite() {
                return Err(Error::param("origin", c, "finite coordinates"));
            }
        }
        // Every coordinate of the world within the library's limit, so that lengths and
        // squared distances on it stay finite and its navmesh can be built.
        let far = origin + DVec2::new(map.width() as f64, map.height() as f64) * cell_size;
        let limit = max_map_coordinate::<f64>();
        if let Some(value) = [origin.x, origin.y, far.x, far.y]
            .into_iter()
            .find(|c| c.abs() > limit)
        {
            return Err(Error::CoordinateOutOfRange {
                index: None,
                value,
                limit,
            });
        }
        // A world every later call would refuse as too small for its tolerance (a cell size
        // of 10⁻³⁰⁰, say) is refused here, once.
        let bounds = Bounds {
            min: origin,
            max: far,
        };
        if !large_enough(&bounds, tolerance_for(&bounds)) {
            return Err(Error::param(
                "cell_size",
                cell_size,
                "large enough that the map's narrower side spans 1000 times the world's \
                 tolerance (10⁻⁹ × its largest coordinate, at least 10⁻⁹)",
            ));
        }
        if map.passable_count() == 0 {
            return Err(Error::NoFreeSpace);
        }
        let field = DistanceField::new(&map);
        Ok(GridWorld {
            terrain: map.clone(),
            map,
            costs: AreaCosts::default(),
            weights: None,
            cell_size,
            origin,
            field,
            bare: None,
            max_clearance: OnceLock::new(),
            navmesh: OnceLock::new(),
            obstacles: Obstacles::default(),
        })
    }

    /// An occupancy grid of `width` × `height` cells of `cell_size` world units, cell
    /// (0, 0)'s corner at `origin`, where `free(x, y)` says whether a cell is passable: the
    /// form for a game's own grid.
    ///
    /// Errors: [`Error::BadParameter`] for a side of 0 or more than 16384 cells, and those
    /// of [`with_frame`](Self::with_frame).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::GridWorld;
    /// let walls = [[false, true, false], [false, false, false]];
    /// let world = GridWorld::from_fn(3, 2, 0.5, DVec2::ZERO, |x, y| !walls[y][x])?;
    /// assert!(!world.map().is_passable(1, 0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_fn(
        width: usize,
        height: usize,
        cell_size: f64,
        origin: DVec2,
        free: impl FnMut(usize, usize) -> bool,
    ) -> Result<Self> {
        let side = 1..=crate::grid::map::MAX_MAP_SIDE;
        for (name, n) in [("width", width), ("height", height)] {
            if !side.contains(&n) {
                return Err(Error::param(name, n as f64, "1 to 16384 cells"));
            }
        }
        Self::with_frame(GridMap::from_fn(width, height, free), cell_size, origin)
    }

    /// The grid map (in cells) as the area costs see it: excluded areas are blocked.
    pub fn map(&self) -> &GridMap {
        &self.map
    }

    /// The world with the area costs `costs` ([`crate::area`]): planning minimises length
    /// × cost, every step keeps the cost from rising, and excluded areas are walls.
    /// See [`set_area_costs`](Self::set_area_costs).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{GridMap, GridWorld, World};
    /// // A swamp across the middle, costing 4: the way round it is cheaper.
    /// let map = GridMap::from_rows(&[".....", ".SSS.", ".SSS.", ".SSS.", "....."])?;
    /// let world = GridWorld::new(map)?.with_area_costs("S=4".parse()?)?;
    /// let path = world.find_cell_path(DVec2::new(0.5, 2.5), DVec2::new(4.5, 2.5), 0.0)?;
    /// assert!(path.cells.iter().all(|c| c.x == 0 || c.x == 4 || c.y == 0 || c.y == 4));
    /// assert_eq!(path.cost, path.length);
    /// let through = world.segment_cost(DVec2::new(0.5, 2.5), DVec2::new(4.5, 2.5));
    /// assert_eq!(through, 1.0 + 3.0 * 4.0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn with_area_costs(mut self, costs: AreaCosts) -> Result<Self> {
        self.set_area_costs(costs)?;
        Ok(self)
    }

    /// Replaces the area costs (Detour's query filter). A change of costs alone is O(1)
    /// plus a 256-entry table; a change in which areas are excluded changes free space, so
    /// the map is filtered again and its distance field rebuilt (O(width × height), as at
    /// construction) and the navmesh is built again on next use.
    ///
    /// Errors: [`Error::NoFreeSpace`] when the filter excludes every passable cell (the
    /// world keeps its old costs).
    pub fn set_area_costs(&mut self, costs: AreaCosts) -> Result<()> {
        let obstacles = std::mem::take(&mut self.obstacles);
        let result = self.rebuild(costs, obstacles.clone());
        if result.is_err() {
            self.obstacles = obstacles;
        }
        result
    }

    /// Makes the world that of `terrain` under `costs` with `obstacles` blocked, or leaves
    /// it as it was and returns [`Error::NoFreeSpace`] when nothing would be free. The
    /// distance field is rebuilt (and the navmesh dropped) only when free space changed.
    pub(super) fn rebuild(&mut self, costs: AreaCosts, obstacles: Obstacles) -> Result<()> {
        let mut map = self.terrain.filtered(&costs);
        map.block(obstacles.cells());
        if map.cells() != self.map.cells() {
            if map.passable_count() == 0 {
                return Err(Error::NoFreeSpace);
            }
            self.field = DistanceField::new(&map);
            self.max_clearance = OnceLock::new();
            self.navmesh = OnceLock::new();
        }
        self.weights = Weights::new(&map, &costs);
        self.map = map;
        self.costs = costs;
        self.obstacles = obstacles;
        self.bare = None;
        Ok(())
    }

    /// Makes `map` (this world's map with the obstacles' cells in the box `lo..=hi`
    /// blocked or freed; every other cell as it is) the world's, patching the distance
    /// field around the box instead of rebuilding it ([`DistanceField::patch`]); the
    /// navmesh is built again on next use. `bare_now`: the world had no obstacle before
    /// this change, so its map and field are the bare ones (the first change keeps a
    /// copy of them instead of building them again). The result equals
    /// [`rebuild`](Self::rebuild)'s. Cost: O(width × height) byte copies and counts, plus
    /// the patch.
    pub(super) fn patch(
        &mut self,
        map: GridMap,
        lo: IVec2,
        hi: IVec2,
        bare_now: bool,
    ) -> Result<()> {
        if map.passable_count() == 0 {
            return Err(Error::NoFreeSpace);
        }
        let bare = match self.bare.take() {
            Some(bare) => bare,
            None if bare_now => {
                let (map, field) = (self.map.clone(), self.field.clone());
                let reach = field.reach();
                Box::new(Bare { map, field, reach })
            }
            None => {
                let map = self.terrain.filtered(&self.costs);
                let field = DistanceField::new(&map);
                let reach = field.reach();
                Box::new(Bare { map, field, reach })
            }
        };
        if lo.cmple(hi).all() {
            let extra: Vec<IVec2> = self.obstacles.cells().collect();
            self.field
                .patch(&map, &bare.field, bare.reach, &extra, lo, hi);
            self.max_clearance = OnceLock::new();
            self.navmesh = OnceLock::new();
        }
        self.weights = Weights::new(&map, &self.costs);
        self.map = map;
        self.bare = Some(bare);
        Ok(())
    }

    /// The map as the area costs see it without any obstacle.
    pub(super) fn bare_map(&self) -> GridMap {
        match &self.bare {
            Some(bare) => bare.map.clone(),
            None => self.terrain.filtered(&self.costs),
        }
    }

    /// The map as given, before the area costs blocked the excluded areas.
    pub(crate) fn terrain(&self) -> &GridMap {
        &self.terrain
    }

    /// The area costs in effect ([`AreaCosts::default`] unless set).
    pub fn area_costs(&self) -> &AreaCosts {
        &self.costs
    }

    /// The area of the cell holding world point `p` (`None` outside the map).
    pub fn area_at(&self, p: DVec2) -> Option<AreaId> {
        self.cell_at(p)
            .map(|c| self.terrain.area(c.x as usize, c.y as usize))
    }

    /// World units per cell.
    pub fn cell_size(&self) -> f64 {
        self.cell_size
    }

    /// World position of the corner of cell (0, 0).
    pub fn origin(&self) -> DVec2 {
        self.origin
    }

    /// The map's exact distance field (in cells).
    pub fn field(&self) -> &DistanceField {
        &self.field
    }

    /// A world point in cell coordinates: `(p − origin) / cell_size`.
    #[inline]
    pub fn to_grid(&self, p: DVec2) -> DVec2 {
        (p - self.origin) / self.cell_size
    }

    /// A point in cell coordinates in world units: `origin + q · cell_size`.
    #[inline]
    pub fn to_world(&self, q: DVec2) -> DVec2 {
        self.origin + q * self.cell_size
    }

    /// The world position of the centre of cell `c`.
    pub fn cell_center(&self, c: IVec2) -> DVec2 {
        self.to_world(GridMap::cell_center(c))
    }

    /// The cell holding world point `p` (`None` when outside the map or not finite).
    pub fn cell_at(&self, p: DVec2) -> Option<IVec2> {
        GridMap::cell_at(self.to_grid(p)).filter(|c| self.map.contains(c.x as i64, c.y as i64))
    }

    /// Grid A* from the cell holding `start` to the cell holding `goal` for an agent of
    /// radius `radius` (world units): it enters only cells whose centre has clearance ≥
    /// `radius` and cuts a corner only where the corner has it too, so the polyline through
    /// the centres keeps clearance ≥ `radius`
    /// ([`astar_clear`](crate::grid::astar::astar_clear)). The path returned runs `start`,
    /// the cell centres, `goal` (consecutive duplicates dropped), in world units.
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks) for the start (point 0), the
    /// goal (point 1) and the radius (a radius below the world's tolerance is taken as 0),
    /// [`Error::OutsideWorld`]-style [`Error::OutsideMap`] for points outside the
    /// map, [`Error::Blocked`] inside a wall, [`Error::TooClose`] when the start, the goal
    /// or their cells' centres are closer than `radius` to a wall, [`Error::Unreachable`].
    pub fn find_cell_path(&self, start: DVec2, goal: DVec2, radius: f64) -> Result<GridPath> {
        let mut path = GridPath::default();
        self.find_cell_path_until(start, goal, radius, None, &mut GridSearch::new(), &mut path)?;
        Ok(path)
    }

    /// [`find_cell_path`](Self::find_cell_path), stopped by `cancel` (see
    /// [`World::find_path_cancellable_into`]).
    fn find_cell_path_until(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        cancel: Option<&Cancel>,
        search: &mut GridSearch,
        path: &mut GridPath,
    ) -> Result<()> {
        let radius = check_ends(self, start, goal, radius)?;
        let r = radius / self.cell_size;
        let mut cells = [IVec2::ZERO; 2];
        for (k, (p, what)) in [(start, "start"), (goal, "goal")].into_iter().enumerate() {
            let (c, clearance) = self.end_cell(p, what, radius)?;
            // A* starts and ends at the cells' centres, which need the room too.
            let clearance = clearance.min(self.field.cell_clearance(c.x as i64, c.y as i64));
            if r > 0.0 && clearance < r {
                return Err(self.too_close(p, what, clearance, radius));
            }
            cells[k] = c;
        }
        let weights = self.weights.as_ref();
        astar_until(
            search,
            &self.map,
            Some((&self.field, r)),
            cells,
            weights,
            cancel,
            path,
        )
        .map_err(|e| self.unreachable(e, [start, goal], cells, radius))?;
        for p in &mut path.points {
            *p = self.to_world(*p);
        }
        path.length *= self.cell_size;
        path.cost *= self.cell_size;
        Ok(())
    }

    /// The search's error in world units: for [`Error::Unreachable`], the start and goal
    /// as given, or [`Error::TooNarrow`] naming the narrowest passage of the widest route
    /// when one exists but is too narrow for `radius`.
    fn unreachable(
        &self,
        e: Error,
        [start, goal]: [DVec2; 2],
        cells: [IVec2; 2],
        radius: f64,
    ) -> Error {
        if !matches!(e, Error::Unreachable { .. }) {
            return e;
        }
        let (sx, sy, gx, gy) = (start.x, start.y, goal.x, goal.y);
        match narrowest_passage(&self.map, &self.field, cells[0], cells[1]) {
            Some((at, clearance)) if radius > 0.0 => {
                let at = self.to_world(at);
                Error::TooNarrow {
                    sx,
                    sy,
                    gx,
                    gy,
                    x: at.x,
                    y: at.y,
                    clearance: clearance * self.cell_size,
                    radius,
                }
            }
            _ => Error::Unreachable { sx, sy, gx, gy },
        }
    }

    /// The cell holding the end `p` of a path (`what`: `"start"` or `"goal"`) and its
    /// clearance in cells, once `p` is known to be in the map, outside every wall and, for
    /// `radius > 0`, that far from them itself. The map's errors speak in cells; these say
    /// where in world units.
    fn end_cell(&self, p: DVec2, what: &'static str, radius: f64) -> Result<(IVec2, f64)> {
        let q = self.to_grid(p);
        let c = self.map.check_free_point(q, what).map_err(|e| match e {
            Error::OutsideMap {
                what,
                width,
                height,
                ..
            } => Error::OutsideMap {
                what,
                x: p.x,
                y: p.y,
                width,
                height,
            },
            Error::Blocked { what, .. } => match GridMap::cell_at(q) {
                // Free terrain (or water) that the filter excludes.
                Some(c) if self.terrain.filtered_out(c, &self.costs) => Error::ExcludedArea {
                    what,
                    area: area_name(self.terrain.area(c.x as usize, c.y as usize)),
                    x: p.x,
                    y: p.y,
                },
                _ => Error::Blocked {
                    what,
                    x: p.x,
                    y: p.y,
                },
            },
            e => e,
        })?;
        let clearance = self.field.clearance(q);
        if radius > 0.0 && clearance < radius / self.cell_size {
            return Err(self.too_close(p, what, clearance, radius));
        }
        Ok((c, clearance))
    }

    /// [`Error::TooClose`] for the end `p` whose clearance is `clearance` cells.
    fn too_close(&self, p: DVec2, what: &'static str, clearance: f64, radius: f64) -> Error {
        Error::TooClose {
            what,
            x: p.x,
            y: p.y,
            clearance: clearance * self.cell_size,
            radius,
        }
    }

    fn navmesh_cell(&self) -> &Result<NavMesh> {
        self.navmesh
            .get_or_init(|| NavMesh::from_grid_frame(&self.map, self.cell_size, self.origin))
    }
}

impl GridWorld {
    /// The grid in cell units, where the grid's rules live.
    pub(crate) fn cells(&self) -> Cells<'_> {
        Cells {
            map: &self.map,
            field: &self.field,
            costs: &self.costs,
        }
    }
}

/// How far [`wall_box`] grows a blocked cell each way, in cells.
const WALL_BOX_REACH: i64 = 16;

/// A box of blocked cells round the blocked cell `cell`: the cells beside it in its row
/// that are blocked too (up to [`WALL_BOX_REACH`] each way), then the rows above and below
/// whose cells under that span are all blocked (as far). Its open inside lies in the
/// blocked region's interior, so every segment entering it collides: a line-of-sight
/// cache keeps it as one blocker, and the wider the box, the more lines it stops without a
/// walk over the grid. Cost: at most 32 + 32 × 33 cell reads, a handful where walls are
/// thin (a maze's or a rooms map's long walls take the most, and save the most).
fn wall_box(map: &GridMap, cell: IVec2) -> Bounds {
    let (x, y) = (i64::from(cell.x), i64::from(cell.y));
    let blocked = |x: i64, y: i64| map.contains(x, y) && map.is_blocked(x, y);
    let (mut x0, mut x1) = (x, x);
    while x - x0 < WALL_BOX_REACH && blocked(x0 - 1, y) {
        x0 -= 1;
    }
    while x1 - x < WALL_BOX_REACH && blocked(x1 + 1, y) {
        x1 += 1;
    }
    let row_blocked = |y: i64| (x0..=x1).all(|x| blocked(x, y));
    let (mut y0, mut y1) = (y, y);
    while y - y0 < WALL_BOX_REACH && row_blocked(y0 - 1) {
        y0 -= 1;
    }
    while y1 - y < WALL_BOX_REACH && row_blocked(y1 + 1) {
        y1 += 1;
    }
    Bounds::new(
        DVec2::new(x0 as f64, y0 as f64),
        DVec2::new((x1 + 1) as f64, (y1 + 1) as f64),
    )
}

/// A grid map and its distance field as a [`World`] in cell units (cell size 1, origin 0):
/// the one implementation of the grid's validity rule, which [`GridWorld`] (in world units)
/// and the steps that work in cells use.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cells<'a> {
    pub(crate) map: &'a GridMap,
    pub(crate) field: &'a DistanceField,
    pub(crate) costs: &'a AreaCosts,
}

impl World for Cells<'_> {
    type Query = ();

    fn bounds(&self) -> Bounds {
        let size = DVec2::new(self.map.width() as f64, self.map.height() as f64);
        Bounds::new(DVec2::ZERO, size)
    }

    fn clearance(&self, p: DVec2) -> f64 {
        self.field.clearance(p)
    }

    fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        segment_is_clear(self.map, self.field, a, b, radius)
    }

    fn segment_clearance(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        self.field.segment_clearance_capped(a, b, cap)
    }

    fn bend_is_clear(&self, prev: DVec2, v: DVec2, next: DVec2, radius: f64) -> bool {
        // With a radius the segments keep away from every corner: no pinch can be met.
        radius > 0.0 || bend_pinch(self.map, prev, v, next).is_none()
    }

    fn first_contact(&self, a: DVec2, b: DVec2, radius: f64) -> Option<DVec2> {
        match segment_collision(self.map, a, b) {
            Some(Collision::Interior { cell }) => Some(GridMap::cell_center(cell)),
            Some(Collision::Pinch { vertex }) => Some(vertex.as_dvec2()),
            Some(Collision::NonFinite) => Some(a),
            None if radius > 0.0 && !self.field.segment_clear_of(a, b, radius) => {
                Some(a.lerp(b, 0.5))
            }
            None => None,
        }
    }

    fn clear_or_blocker(&self, a: DVec2, b: DVec2, radius: f64) -> Result<(), Option<Bounds>> {
        match segment_collision(self.map, a, b) {
            // Outside cells are blocked too, but their boxes would reach beyond the map.
            Some(Collision::Interior { cell })
                if self.map.contains(cell.x as i64, cell.y as i64) =>
            {
                Err(Some(wall_box(self.map, cell)))
            }
            Some(_) => Err(None),
            None if radius > 0.0 && !self.field.segment_clear_of(a, b, radius) => Err(None),
            None => Ok(()),
        }
    }

    fn segment_cost(&self, a: DVec2, b: DVec2) -> f64 {
        if self.costs.is_uniform() {
            a.distance(b)
        } else {
            crate::grid::cost::segment_cost(self.map, self.costs, a, b)
        }
    }

    fn has_area_costs(&self) -> bool {
        !self.costs.is_uniform()
    }
}

/// A grid world's path-finding scratch ([`World::Query`] of [`GridWorld`]): the A* search's
/// arrays and the cells of its last path, reused by every search made with it (28 bytes
/// per cell of the largest grid searched, plus the path).
#[derive(Debug, Default)]
pub struct GridQuery {
    search: GridSearch,
    cells: GridPath,
}

/// World units in, cells inside, world units out.
impl World for GridWorld {
    type Query = GridQuery;

    fn bounds(&self) -> Bounds {
        let b = self.cells().bounds();
        Bounds::new(self.to_world(b.min), self.to_world(b.max))
    }

    /// The sides between the passable cells near `p` and their blocked (or outside)
    /// neighbours, joined into runs along each grid line, that come within `reach` of `p`:
    /// obstacles and excluded areas included (they are blocked cells of the world's map).
    /// Cost: O((reach / cell size)²).
    fn walls_near(&self, p: DVec2, reach: f64, out: &mut Vec<[DVec2; 2]>) {
        if !(p.is_finite() && reach.is_finite() && reach >= 0.0) {
            return;
        }
        let (q, r) = (self.to_grid(p), reach / self.cell_size);
        // Cells beyond the map's are blocked: runs there are sides of the map's edge.
        let (w, h) = (self.map.width() as f64, self.map.height() as f64);
        let x_of = |v: f64| v.floor().clamp(-1.0, w) as i64;
        let y_of = |v: f64| v.floor().clamp(-1.0, h) as i64;
        let (x0, y0, x1, y1) = (x_of(q.x - r), y_of(q.y - r), x_of(q.x + r), y_of(q.y + r));
        let free = |x: i64, y: i64| self.map.is_passable(x, y);
        let mut emit = |a: DVec2, b: DVec2| {
            if q.distance(closest_on_segment(q, a, b).0) <= r {
                out.push([self.to_world(a), self.to_world(b)]);
            }
        };
        // Each grid line is walked once; a run is a stretch of sides with free space on the
        // same side. Free below (y up) and the wall above: heading +x keeps the wall on the
        // left; free above: heading −x. Likewise free left: −y; free right: +y.
        for y in y0..=y1 + 1 {
            side_runs(
                x0,
                x1,
                |x| (free(x, y - 1), free(x, y)),
                |start, end, free_below| {
                    let (a, b) = (
                        DVec2::new(start as f64, y as f64),
                        DVec2::new(end as f64, y as f64),
                    );
                    if free_below {
                        emit(a, b)
                    } else {
                        emit(b, a)
                    }
                },
            );
        }
        for x in x0..=x1 + 1 {
            side_runs(
                y0,
                y1,
                |y| (free(x - 1, y), free(x, y)),
                |start, end, free_left| {
                    let (a, b) = (
                        DVec2::new(x as f64, start as f64),
                        DVec2::new(x as f64, end as f64),
                    );
                    if free_left {
                        emit(b, a)
                    } else {
                        emit(a, b)
                    }
                },
            );
        }
    }

    /// The length inside each cell times its area's cost
    /// ([`crate::grid::cost`](crate::grid) walks the cells); the length itself when every
    /// area costs 1.
    fn segment_cost(&self, a: DVec2, b: DVec2) -> f64 {
        if self.costs.is_uniform() {
            a.distance(b)
        } else {
            self.cells().segment_cost(self.to_grid(a), self.to_grid(b)) * self.cell_size
        }
    }

    fn has_area_costs(&self) -> bool {
        !self.costs.is_uniform()
    }

    fn cost_filter(&self) -> Option<&AreaCosts> {
        self.has_area_costs().then_some(&self.costs)
    }

    fn clearance(&self, p: DVec2) -> f64 {
        self.cells().clearance(self.to_grid(p)) * self.cell_size
    }

    fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        let (a, b, r) = (self.to_grid(a), self.to_grid(b), radius / self.cell_size);
        self.cells().segment_is_clear(a, b, r)
    }

    fn segment_clearance(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        let (a, b, cap) = (self.to_grid(a), self.to_grid(b), cap / self.cell_size);
        self.cells().segment_clearance(a, b, cap) * self.cell_size
    }

    fn bend_is_clear(&self, prev: DVec2, v: DVec2, next: DVec2, radius: f64) -> bool {
        let (p, v, n) = (self.to_grid(prev), self.to_grid(v), self.to_grid(next));
        self.cells().bend_is_clear(p, v, n, radius / self.cell_size)
    }

    fn first_contact(&self, a: DVec2, b: DVec2, radius: f64) -> Option<DVec2> {
        let (ga, gb, r) = (self.to_grid(a), self.to_grid(b), radius / self.cell_size);
        self.cells()
            .first_contact(ga, gb, r)
            .map(|at| self.to_world(at))
    }

    fn clear_or_blocker(&self, a: DVec2, b: DVec2, radius: f64) -> Result<(), Option<Bounds>> {
        let (ga, gb, r) = (self.to_grid(a), self.to_grid(b), radius / self.cell_size);
        self.cells()
            .clear_or_blocker(ga, gb, r)
            .map_err(|b| b.map(|b| Bounds::new(self.to_world(b.min), self.to_world(b.max))))
    }

    fn max_clearance(&self) -> Option<f64> {
        Some(*self.max_clearance.get_or_init(|| {
            let (w, h) = (self.map.width() as i64, self.map.height() as i64);
            let mut best = 0.0f64;
            for y in 0..h {
                for x in 0..w {
                    best = best.max(self.field.cell_clearance(x, y));
                }
            }
            best * self.cell_size
        }))
    }

    /// Grid A* ([`find_cell_path`](GridWorld::find_cell_path)) from `start` to `goal`
    /// through the cell centres, in `query`'s memory.
    /// A start equal to the goal is the one-point path `[start]`, when the point itself is
    /// in the world with room for the agent (A* would visit its cell's centre and come
    /// back).
    fn find_path_into(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        query: &mut GridQuery,
        path: &mut Vec<DVec2>,
    ) -> Result<()> {
        self.find_path_until(start, goal, radius, None, query, path)
    }

    /// [`find_path_into`](World::find_path_into), checking `cancel` every 1024 cells the
    /// search expands.
    fn find_path_cancellable_into(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        cancel: &Cancel,
        query: &mut GridQuery,
        path: &mut Vec<DVec2>,
    ) -> Result<()> {
        self.find_path_until(start, goal, radius, Some(cancel), query, path)
    }

    fn navmesh(&self) -> Result<&NavMesh> {
        self.navmesh_cell().as_ref().map_err(Clone::clone)
    }
}

impl GridWorld {
    /// The grid's path finder: [`World::find_path_into`], stopped by `cancel` if given.
    fn find_path_until(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        cancel: Option<&Cancel>,
        query: &mut GridQuery,
        path: &mut Vec<DVec2>,
    ) -> Result<()> {
        path.clear();
        let radius = check_ends(self, start, goal, radius)?;
        if start == goal {
            self.end_cell(start, "start", radius)?;
            path.push(start);
            return Ok(());
        }
        let cells = &mut query.cells;
        self.find_cell_path_until(start, goal, radius, cancel, &mut query.search, cells)?;
        for p in std::iter::once(start)
            .chain(cells.points.iter().copied())
            .chain(std::iter::once(goal))
        {
            if path.last() != Some(&p) {
                path.push(p);
            }
        }
        // The legs from the start into its cell's centre and out of the goal cell's centre
        // lie in one cell each but may still pass a corner closer than the radius.
        for (i, what) in [(0, "start"), (path.len().saturating_sub(2), "goal")] {
            if path.len() >= 2 && !self.segment_is_clear(path[i], path[i + 1], radius) {
                let p = if what == "start" { start } else { goal };
                return Err(Error::TooClose {
                    what,
                    x: p.x,
                    y: p.y,
                    clearance: self.segment_clearance(path[i], path[i + 1], radius),
                    radius,
                });
            }
        }
        Ok(())
    }
}

/// The runs of wall sides along one grid line, cells `lo..=hi` of it: `cells(i)` says
/// whether the cells before and after the line at `i` are free, and `run(start, end,
/// free_before)` gets each stretch `start..end` of sides between a free and a blocked cell
/// with the free one on the same side.
fn side_runs(
    lo: i64,
    hi: i64,
    cells: impl Fn(i64) -> (bool, bool),
    mut run: impl FnMut(i64, i64, bool),
) {
    let mut open: Option<(i64, bool)> = None;
    for i in lo..=hi + 1 {
        let side = (i <= hi)
            .then(|| cells(i))
            .and_then(|(before, after)| (before != after).then_some(before));
        if open.map(|(_, kind)| kind) != side {
            if let Some((start, free_before)) = open {
                run(start, i, free_before);
            }
            open = side.map(|kind| (i, kind));
        }
    }
}
