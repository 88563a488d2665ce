//! The corridor map of a grid map: a compact graph on (a discrete approximation of) the
//! medial axis of free space whose vertices carry maximal clearance disks, after Geraerts &
//! Overmars (2007) and Geraerts' explicit corridor map (2010), as Langerak uses it to get
//! the initial path of the smoother (Game AI Pro 3, ch. 20, §20.2, Figure 20.1).
//!
//! # What it is
//!
//! Geraerts and Overmars build the corridor map from the generalized Voronoi diagram of
//! the obstacles: its vertices are the diagram's junctions and end points, its edges the
//! arcs between them, every point stores the maximal clearance disk around it, and the
//! union of the disks along a graph path is a corridor of free space. Its size grows with
//! the number of obstacle features, not with the area. Here the diagram is approximated on
//! the grid:
//!
//! 1. **Clearance.** The exact Euclidean clearance of every free cell centre, from the
//!    [`DistanceField`] (distance to the blocked squares, not to cell centres).
//! 2. **Ridge cells.** A free cell is on the ridge of the clearance field when, along one
//!    of the four axes (horizontal, vertical, both diagonals), its clearance is not below
//!    either neighbour's and above at least one (blocked cells count as 0). Such cells lie
//!    within a cell of the medial axis: away from it the clearance is the distance to one
//!    nearest feature, which grows on at least one side along every axis.
//! 3. **Connectivity.** Ridge cells alone need not be connected (the discrete ridge breaks
//!    at saddles, e.g. in doorways). So the maximum spanning forest of the 8-connected free
//!    grid (A*'s moves, no corner cutting) is taken with edge weight = the smaller
//!    clearance of the two cells (Kruskal, `pathfinding`), and its leaves that are not ridge
//!    cells are pruned repeatedly. What remains joins all ridge cells of a free region
//!    through the widest passages (a maximum spanning tree contains a maximin path between
//!    every pair of its nodes), and every free region the grid can traverse keeps at least
//!    one cell.
//! 4. **Thinning.** The kept cells are up to several cells wide and enclose little pockets
//!    of free space where the ridge forks; the pockets are filled (a hole without a blocked
//!    cell is an artefact), then the set is thinned to one cell by distance-ordered
//!    homotopic thinning (Pudney 1998): cells are removed by increasing clearance while
//!    their removal changes neither the connectivity nor the loops of the set, seen in the
//!    3×3 neighbourhood with A*'s moves as adjacency, and end points stay. What remains, the
//!    *skeleton*, runs along the highest clearance, has one component per free region and
//!    keeps the kept cells' loops around obstacles, so **whatever is reachable on the grid
//!    is reachable in the graph**. It is one cell wide except at a rare junction of four arms
//!    that only a 2×2 block joins without cutting a corner.
//! 5. **Contraction.** The skeleton cells with other than two skeleton neighbours
//!    (junctions and end points) are the vertices, with radius = their clearance; each chain
//!    of two-neighbour cells between two of them is an edge ([`CorridorEdge`]: its cells,
//!    length, and the smallest exact clearance of the segments between consecutive centres,
//!    ≥ 0.5). A loop without a junction keeps one of its cells as a vertex. Neighbouring
//!    disks along a chain overlap, except for a diagonal step in a narrow passage (two disks
//!    of radius 0.5, √2 apart); the disk at the step's midpoint (a grid vertex with four
//!    free cells) overlaps both, and queries insert it.
//!
//! # Queries
//!
//! [`CorridorMap::corridor`] answers a start/goal query for an agent of radius `r`:
//!
//! 1. **Attach.** Around the start, in each of eight directions, the nearest skeleton cell
//!    that the start sees with clearance above `r` (a grid search finds one when none is
//!    in sight); the same around the goal. An attachment may lie inside an edge
//!    ([`CorridorMap::place`] says where each skeleton cell is).
//! 2. **A\*** (`pathfinding`) over the compact graph through edges whose clearance is above
//!    `r`, from a virtual source to a virtual sink spliced into the graph: the source
//!    reaches each start attachment and from there, along its edge, both of the edge's end
//!    vertices (as far as the chain's clearance allows); each goal attachment is reached
//!    likewise from its edge's ends; a start and goal attachment on the same edge are also
//!    joined directly along it. Costs are chain lengths, the heuristic is the octile
//!    distance (a chain of grid moves is never shorter). Several attachments keep the route
//!    from backtracking to a single nearest cell behind the start. The route is expanded
//!    back to its chain of cell centres, the start and goal prepended and appended, as in
//!    the chapter.
//! 3. **Disks.** The chain is thinned (a cell is skipped while one good step reaches a
//!    later one) and refined where the clearance changes fast, e.g. on the start and goal
//!    legs. A step x → y is *good* when the disks overlap and the segment keeps clearance
//!    ≥ `r` + [`KAPPA`] × the larger radius. Each disk has radius = clearance at its centre
//!    − `r`, so it lies in free space shrunk by the agent radius. Consecutive disks overlap,
//!    so the result is a valid [`DiskCorridor`].
//!
//! # Cost
//!
//! Building: one clearance query per free cell (O(clearance) each), a sort of the ≤ 4
//! edges per cell, linear pruning and hole filling, thinning in O(k log k) for k kept
//! cells, a linear walk for the contraction, and one exact segment clearance per skeleton
//! step; memory is the map, its distance field, a `u32` per cell and about 70 bytes per
//! skeleton cell. On the Moving AI benchmark maps the graph has one vertex per 13–56 free
//! cells where walls and rooms dominate (one per 27 on a maze) and one per 4 on a map
//! strewn with single-cell obstacles (random512-10: each obstacle adds a loop and its
//! junctions); the kept cells before thinning were 41–81 % of the free cells. A query
//! costs A* over the compact graph, a scan of the attachments' edges, and a few exact
//! line-of-sight and clearance tests, each O(segment length × clearance).
//!
//! # Limits
//!
//! The discrete ridge also has branches into inner corners of jagged walls; the thinning
//! keeps those that end in an end point, so the skeleton carries short spurs (each a
//! vertex and an edge more); a junction spanning two or three cells leaves a small cycle
//! (a triangle) in the graph. With `radius > 0` the route runs through cell centres, up
//! to half a cell off the true axis.
//!
//! Routes follow the one-cell-wide medial axis and detour in open areas. Optimised in
//! this map's disks they are 3–10 % longer at the median than the corridor step's paths
//! along the planner's route pulled taut
//! ([`plan_along`](super::plan::CorridorPlanner::plan_along)), on every Moving AI map
//! (`docs/corridor.md`); what this map saves is the grid search (0.1–0.2 of the time of
//! grid A* + that step on the 512² maps, about the same on random512-10, whose graph has
//! a vertex per four free cells). Pulling this map's route taut before the step
//! ([`GridWorld::plan_corridor_taut`](crate::GridWorld::plan_corridor_taut)) keeps the
//! saving and most of the length: 0–1.8 % longer than along A*'s route, at the median.
//!
//! # Sources
//!
//! - R. Geraerts, M. Overmars, "The corridor map method: a general framework for real-time
//!   high-quality path planning", Computer Animation and Virtual Worlds 18, 107–119, 2007.
//! - R. Geraerts, "Planning short paths with clearance using explicit corridors", IEEE
//!   International Conference on Robotics and Automation (ICRA), 2010.
//! - J. Pudney, "Distance-ordered homotopic thinning: a skeletonization algorithm for 3D
//!   digital images", Computer Vision and Image Understanding 72(3), 404–413, 1998; simple
//!   points after A. Rosenfeld, "Connectivity in digital pictures", JACM 17(1), 1970.
//! - M. Langerak, "Optimization for Smooth Paths", Game AI Pro 3, ch. 20, §20.2 (2017).
//!
//! # Example
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::corridor::graph::CorridorMap;
//! use pathsmooth::grid::GridMap;
//! let map = GridMap::from_rows(&[
//!     "..........",
//!     "..........",
//!     "...@@@@...",
//!     "...@@@@...",
//!     "..........",
//!     "..........",
//! ])?;
//! let cmap = CorridorMap::build(&map);
//! let c = cmap.corridor(DVec2::new(0.5, 0.5), DVec2::new(9.5, 5.5), 0.0)?;
//! assert_eq!((c.start(), c.goal()), (DVec2::new(0.5, 0.5), DVec2::new(9.5, 5.5)));
//! // Every disk lies in free space and consecutive disks overlap.
//! for (i, (&p, &r)) in c.centers.iter().zip(&c.radii).enumerate() {
//!     assert!(cmap.field().clearance(p) >= r - 1e-9);
//!     if i > 0 {
//!         assert!(p.distance(c.centers[i - 1]) <= r + c.radii[i - 1]);
//!     }
//! }
//! # Ok::<(), pathsmooth::Error>(())
//! ```

use std::collections::BinaryHeap;

use glam::{DVec2, IVec2};
use pathfinding::prelude::{astar, dijkstra};
use pathfinding::undirected::kruskal::kruskal_indices;

mod contract;
mod thin;

use super::disks::DiskCorridor;
use crate::error::{Error, Result};
use crate::grid::distance::DistanceField;
use crate::grid::map::GridMap;
use crate::world::check_radius;
use crate::world::grid::Cells;

/// The clearance every corridor segment keeps above the agent radius (map units). Strictly
/// positive so that a segment never touches a wall (nor a pinch vertex) when `r = 0`, and
/// large against floating-point rounding of the exact clearance (≈ 1e-13 on 16k-cell maps).
///
/// ```
/// assert_eq!(pathsmooth::corridor::graph::MARGIN, 1e-6);
/// ```
pub const MARGIN: f64 = 1e-6;

/// The most disks a corridor may have ([`Error::OutputTooLarge`] beyond). Only a start or
/// goal within a hair of the clearance `r` along a long wall could approach it.
///
/// ```
/// assert_eq!(pathsmooth::corridor::graph::MAX_CORRIDOR_DISKS, 200_000);
/// ```
pub const MAX_CORRIDOR_DISKS: usize = 200_000;

/// κ: on every corridor segment the clearance stays ≥ r + κ × the larger of its end
/// disks' radii (so the safe disks of [`super::plan`] keep ≥ κ of the clearance disks).
/// Larger κ means safe disks closer to the clearance disks but more, shorter steps where
/// the clearance changes fast.
///
/// ```
/// let k = pathsmooth::corridor::graph::KAPPA;
/// assert!(k > 0.0 && k < 1.0);
/// ```
pub const KAPPA: f64 = 0.5;
/// How many nearest vertices are tested for visibility before the grid search fallback.
const CANDIDATE_TESTS: usize = 64;
/// Fixed-point unit of A* costs (costs must be `Ord`): 2⁻²⁰ map units.
const COST_UNIT: f64 = (1u64 << 20) as f64;
/// No vertex at this cell.
const NONE: u32 = u32::MAX;
/// The grid neighbours that come after a cell in row-major order (each pair once).
const FORWARD: [(i32, i32); 4] = [(1, 0), (-1, 1), (0, 1), (1, 1)];

/// The corridor map of one grid map: build once ([`CorridorMap::build`]), query many times
/// ([`CorridorMap::corridor`]). See the module doc for the construction.
///
/// ```
/// use pathsmooth::corridor::graph::CorridorMap;
/// use pathsmooth::grid::GridMap;
/// // A 3-wide corridor: its medial axis is the middle row, one edge between two ends.
/// let cmap = CorridorMap::build(&GridMap::from_rows(&["......", "......", "......"])?);
/// assert_eq!((cmap.vertex_count(), cmap.edge_count()), (2, 1));
/// for i in 0..cmap.vertex_count() {
///     let (centre, radius) = cmap.vertex(i);
///     assert_eq!(radius, cmap.field().clearance(centre));
/// }
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct CorridorMap {
    map: GridMap,
    field: DistanceField,
    /// Skeleton slot of each cell (row-major), or [`NONE`]. Vertex `v`'s slot is `v`.
    cell_slot: Vec<u32>,
    slots: Vec<Slot>,
    centers: Vec<DVec2>,
    radii: Vec<f64>,
    /// CSR incidence: the edges at vertex `i` are `incident[offsets[i]..offsets[i + 1]]`
    /// (a loop once).
    offsets: Vec<u32>,
    incident: Vec<u32>,
    edges: Vec<EdgeData>,
    /// The edges' chains, one after the other: cells, length along the chain from its first
    /// cell, and the exact clearance of the segment to the next cell (∞ after the last).
    chain_cells: Vec<IVec2>,
    chain_along: Vec<f64>,
    chain_clearance: Vec<f64>,
}

/// A skeleton cell: where it is in the graph, its centre and that centre's clearance.
#[derive(Debug, Clone, Copy)]
struct Slot {
    place: Place,
    center: DVec2,
    clearance: f64,
}

#[derive(Debug, Clone, Copy)]
struct EdgeData {
    ends: [u32; 2],
    /// Its chain is `chain_*[first..first + len]`.
    first: u32,
    len: u32,
    length: f64,
    /// `length` in A*'s fixed-point unit.
    cost: u64,
    clearance: f64,
}

/// Where a skeleton cell lies in the compact graph ([`CorridorMap::place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The cell is this vertex.
    Vertex(usize),
    /// The cell is `cells[index]` of this edge ([`CorridorMap::edge`]), strictly inside
    /// its chain (0 < index < the chain's last index).
    Edge {
        /// The edge.
        edge: usize,
        /// The position in its chain.
        index: usize,
    },
}

/// An edge of the compact graph ([`CorridorMap::edge`]): a chain of skeleton cells whose
/// interior cells have exactly two skeleton neighbours.
///
/// ```
/// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
/// let cmap = CorridorMap::build(&GridMap::from_rows(&["@@@@@", ".....", "@@@@@"])?);
/// let e = cmap.edge(0);
/// assert_eq!((e.ends, e.cells.len(), e.length, e.clearance), ([0, 1], 5, 4.0, 0.5));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CorridorEdge<'a> {
    /// Its end vertices: `ends[0]` at `cells[0]`, `ends[1]` at the last cell (the same
    /// vertex for a loop).
    pub ends: [usize; 2],
    /// The chain of cells, consecutive cells one grid A* move apart (diagonal moves only
    /// with both side cells free).
    pub cells: &'a [IVec2],
    /// Length of the polyline through the cells' centres (map units).
    pub length: f64,
    /// The smallest exact clearance of the segments between consecutive centres (≥ 0.5).
    pub clearance: f64,
}

impl CorridorMap {
    /// Builds the corridor map of `map` (see the module doc). A map without free cells
    /// gives an empty graph, whose queries fail as the start is blocked.
    ///
    /// ```
    /// use pathsmooth::corridor::graph::CorridorMap;
    /// use pathsmooth::grid::GridMap;
    /// // Two free regions: each keeps at least one vertex.
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["..@..", "..@.."])?);
    /// assert!(cmap.vertex_count() >= 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn build(map: &GridMap) -> Self {
        let field = DistanceField::new(map);
        let clear = cell_clearances(map, &field);
        let ridge = ridge_cells(map, &clear);
        let mut skeleton = ridge_forest(map, &clear, &ridge);
        thin::fill_holes(map, &mut skeleton);
        thin::thin(map, &clear, &mut skeleton);
        let graph = contract::contract(map, &skeleton);
        Self::from_contracted(map.clone(), field, &clear, &graph)
    }

    /// The map the corridor map was built from.
    ///
    /// ```
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
    /// let map = GridMap::from_rows(&["..."])?;
    /// assert_eq!(CorridorMap::build(&map).map(), &map);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn map(&self) -> &GridMap {
        &self.map
    }

    /// The exact distance field of the map (kept for the queries; reuse it).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["..."])?);
    /// assert_eq!(cmap.field().clearance(DVec2::new(1.5, 0.5)), 0.5);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn field(&self) -> &DistanceField {
        &self.field
    }

    /// The map and its field as a world in cell units.
    pub(crate) fn cells(&self) -> Cells<'_> {
        Cells {
            map: &self.map,
            field: &self.field,
        }
    }

    /// Number of graph vertices: the skeleton's junctions and end points, and one cell of
    /// each loop without a junction.
    ///
    /// ```
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
    /// assert_eq!(CorridorMap::build(&GridMap::from_rows(&["@@"])?).vertex_count(), 0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn vertex_count(&self) -> usize {
        self.centers.len()
    }

    /// Number of graph edges (chains of skeleton cells).
    ///
    /// ```
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
    /// // A one-cell-wide corridor is its own medial axis: one chain between two ends.
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["@@@@@", ".....", "@@@@@"])?);
    /// assert_eq!((cmap.vertex_count(), cmap.edge_count()), (2, 1));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Number of skeleton cells: the vertices' cells and the edges' interior cells.
    ///
    /// ```
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["@@@@@", ".....", "@@@@@"])?);
    /// assert_eq!(cmap.skeleton_len(), 5);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn skeleton_len(&self) -> usize {
        self.slots.len()
    }

    /// Vertex `i`: its centre and its disk radius (the clearance at the centre). Panics if
    /// `i >= vertex_count()`.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["@@@", "@.@", "@@@"])?);
    /// assert_eq!(cmap.vertex(0), (DVec2::new(1.5, 1.5), 0.5));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn vertex(&self, i: usize) -> (DVec2, f64) {
        (self.centers[i], self.radii[i])
    }

    /// The edges at vertex `i`, each as (the vertex at its other end, the edge index for
    /// [`CorridorMap::edge`]); a loop appears once, with `i` at its other end. Panics if
    /// `i >= vertex_count()`.
    ///
    /// ```
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["@@@@", "@..@", "@@@@"])?);
    /// let n: Vec<_> = cmap.neighbors(0).collect();
    /// assert_eq!(n, vec![(1, 0)]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn neighbors(&self, i: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let range = self.offsets[i] as usize..self.offsets[i + 1] as usize;
        self.incident[range].iter().map(move |&e| {
            let [a, b] = self.edges[e as usize].ends;
            (if a as usize == i { b } else { a } as usize, e as usize)
        })
    }

    /// Edge `e`: its end vertices, chain of cells, length and clearance. Panics if
    /// `e >= edge_count()`.
    ///
    /// ```
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap};
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["@@@@", "@..@", "@@@@"])?);
    /// assert_eq!(cmap.edge(0).ends, [0, 1]);
    /// assert_eq!(cmap.edge(0).length, 1.0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn edge(&self, e: usize) -> CorridorEdge<'_> {
        let d = &self.edges[e];
        CorridorEdge {
            ends: [d.ends[0] as usize, d.ends[1] as usize],
            cells: &self.chain_cells[d.first as usize..(d.first + d.len) as usize],
            length: d.length,
            clearance: d.clearance,
        }
    }

    /// Where cell `c` lies in the graph: a vertex, a position inside an edge's chain, or
    /// `None` when it is not a skeleton cell (or is outside the map). O(1).
    ///
    /// ```
    /// use glam::IVec2;
    /// use pathsmooth::corridor::graph::{CorridorMap, Place};
    /// use pathsmooth::grid::GridMap;
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["@@@@@", ".....", "@@@@@"])?);
    /// assert_eq!(cmap.place(IVec2::new(0, 1)), Some(Place::Vertex(0)));
    /// assert_eq!(cmap.place(IVec2::new(2, 1)), Some(Place::Edge { edge: 0, index: 2 }));
    /// assert_eq!(cmap.place(IVec2::new(0, 0)), None);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn place(&self, c: IVec2) -> Option<Place> {
        self.slot_at(c).map(|s| self.slots[s].place)
    }

    fn slot_at(&self, c: IVec2) -> Option<usize> {
        if !self.map.contains(c.x as i64, c.y as i64) {
            return None;
        }
        let s = self.cell_slot[c.y as usize * self.map.width() + c.x as usize];
        (s != NONE).then_some(s as usize)
    }

    /// The corridor from `start` to `goal` for an agent of radius `radius` (≥ 0): a chain of
    /// disks, first centre `start`, last `goal`, each of radius = clearance at its centre −
    /// `radius`, consecutive disks overlapping, every segment between consecutive centres
    /// keeping clearance ≥ `radius` + [`MARGIN`]. No facing directions are set; put them in
    /// the result's `start_dir` / `goal_dir` if wanted.
    ///
    /// Errors: [`Error::BadParameter`] for a negative or non-finite radius;
    /// [`Error::OutsideMap`] / [`Error::Blocked`] for a start or goal outside the map or
    /// on a blocked cell ([`GridMap::check_free_point`]), and [`Error::Blocked`] also when
    /// its clearance is not above `radius` + [`MARGIN`] (a point on a wall's surface, or
    /// too close for the agent); [`Error::Unreachable`] when no path of clearance > `radius`
    /// joins them; [`Error::OutputTooLarge`] beyond [`MAX_CORRIDOR_DISKS`].
    ///
    /// Reachability: with `radius = 0` every goal that grid A* reaches is reached (the
    /// graph keeps every free region connected; a point that sees no vertex is joined by a
    /// grid search). With `radius > 0` the route runs through cell centres, which can sit
    /// up to half a cell off the true medial axis, so a passage whose half-width exceeds
    /// `radius` by less than about half a cell may be refused as unreachable.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{corridor::graph::CorridorMap, grid::GridMap, Error};
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["...@...", "...@...", "...@..."])?);
    /// let (s, g) = (DVec2::new(0.5, 1.5), DVec2::new(6.5, 1.5));
    /// assert!(matches!(cmap.corridor(s, g, 0.0), Err(Error::Unreachable { .. })));
    /// assert!(matches!(cmap.corridor(DVec2::new(3.5, 0.5), g, 0.0), Err(Error::Blocked { .. })));
    /// assert!(matches!(cmap.corridor(s, s, 0.6), Err(Error::Blocked { .. })));
    /// assert_eq!(cmap.corridor(s, s, 0.0)?.len(), 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn corridor(&self, start: DVec2, goal: DVec2, radius: f64) -> Result<DiskCorridor> {
        check_radius(radius)?;
        self.check_endpoint(start, "start", radius)?;
        self.check_endpoint(goal, "goal", radius)?;
        let unreachable = || Error::Unreachable {
            sx: start.x,
            sy: start.y,
            gx: goal.x,
            gy: goal.y,
        };
        let mut chain = self.route(start, goal, radius).ok_or_else(unreachable)?;
        // A start or goal at a vertex's centre would repeat it; start = goal keeps two.
        chain.dedup();
        if chain.len() == 1 {
            chain.push(chain[0]);
        }
        let (centers, radii) = self.disks(&chain, radius)?;
        DiskCorridor::new(centers, radii, None, None)
    }

    // ---- building -----------------------------------------------------------------------

    fn from_contracted(
        map: GridMap,
        field: DistanceField,
        clear: &[f64],
        graph: &contract::Contracted,
    ) -> Self {
        let w = map.width();
        let centre = |i: usize| GridMap::cell_center(cell_of(i, w));
        let mut cell_slot = vec![NONE; clear.len()];
        let mut slots = Vec::new();
        // Vertices first, so that vertex v's slot is v.
        for (v, &i) in graph.vertex_cells.iter().enumerate() {
            cell_slot[i] = slots.len() as u32;
            slots.push(Slot {
                place: Place::Vertex(v),
                center: centre(i),
                clearance: clear[i],
            });
        }
        let centers: Vec<DVec2> = slots.iter().map(|s| s.center).collect();
        let radii: Vec<f64> = slots.iter().map(|s| s.clearance).collect();
        let cells: usize = graph.chains.iter().map(Vec::len).sum();
        let mut chain_cells = Vec::with_capacity(cells);
        let mut chain_along = Vec::with_capacity(cells);
        let mut chain_clearance = Vec::with_capacity(cells);
        let mut edges = Vec::with_capacity(graph.chains.len());
        for (e, chain) in graph.chains.iter().enumerate() {
            let first = chain_cells.len();
            let (mut along, mut clearance) = (0.0, f64::INFINITY);
            for (k, &i) in chain.iter().enumerate() {
                if k > 0 {
                    let (a, b) = (centre(chain[k - 1]), centre(i));
                    along += a.distance(b);
                    let c = field.segment_clearance(a, b);
                    chain_clearance[first + k - 1] = c;
                    clearance = clearance.min(c);
                }
                chain_cells.push(cell_of(i, w));
                chain_along.push(along);
                chain_clearance.push(f64::INFINITY);
                if k > 0 && k + 1 < chain.len() {
                    cell_slot[i] = slots.len() as u32;
                    slots.push(Slot {
                        place: Place::Edge { edge: e, index: k },
                        center: centre(i),
                        clearance: clear[i],
                    });
                }
            }
            let ends = [chain[0], chain[chain.len() - 1]].map(|i| cell_slot[i]);
            edges.push(EdgeData {
                ends,
                first: first as u32,
                len: chain.len() as u32,
                length: along,
                cost: (along * COST_UNIT).round() as u64,
                clearance,
            });
        }
        let (offsets, incident) = incidence(centers.len(), &edges);
        CorridorMap {
            map,
            field,
            cell_slot,
            slots,
            centers,
            radii,
            offsets,
            incident,
            edges,
            chain_cells,
            chain_along,
            chain_clearance,
        }
    }

    // ---- queries ------------------------------------------------------------------------

    /// The grid check, then clearance > radius + MARGIN.
    fn check_endpoint(&self, p: DVec2, what: &'static str, radius: f64) -> Result<()> {
        self.map.check_free_point(p, what)?;
        if self.field.clearance(p) <= radius + MARGIN {
            return Err(Error::Blocked {
                what,
                x: p.x,
                y: p.y,
            });
        }
        Ok(())
    }

    /// True when the segment keeps clearance ≥ radius + MARGIN (so > radius, and never
    /// touches the blocked region).
    fn sees(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        self.field.segment_clear_of(a, b, radius + MARGIN)
    }

    /// Skeleton slot `s` usable by an agent of this radius.
    fn usable(&self, s: usize, radius: f64) -> bool {
        self.slots[s].clearance > radius + MARGIN
    }

    /// The length along edge `e` between chain positions `i` and `j` (either order), or
    /// None when a segment between them has clearance ≤ radius + MARGIN.
    fn span(&self, e: usize, i: usize, j: usize, radius: f64) -> Option<f64> {
        let d = &self.edges[e];
        let (lo, hi) = (d.first as usize + i.min(j), d.first as usize + i.max(j));
        let clear = self.chain_clearance[lo..hi]
            .iter()
            .all(|&c| c > radius + MARGIN);
        clear.then(|| self.chain_along[hi] - self.chain_along[lo])
    }

    /// Appends the centres of edge `e`'s chain from position `i` to `j` (both included).
    fn push_span(&self, e: usize, i: usize, j: usize, out: &mut Vec<DVec2>) {
        let first = self.edges[e].first as usize;
        let cell = |k: usize| GridMap::cell_center(self.chain_cells[first + k]);
        if i <= j {
            out.extend((i..=j).map(cell));
        } else {
            out.extend((j..=i).rev().map(cell));
        }
    }

    /// The last chain position of edge `e`.
    fn last(&self, e: usize) -> usize {
        self.edges[e].len as usize - 1
    }

    /// The chain start, skeleton cell centres…, goal (each consecutive segment in sight),
    /// or None when the goal cannot be reached.
    fn route(&self, start: DVec2, goal: DVec2, radius: f64) -> Option<Vec<DVec2>> {
        if self.sees(start, goal, radius) {
            return Some(vec![start, goal]);
        }
        let from = self.attach(start, radius)?;
        let to = self.attach(goal, radius)?;
        let n = self.vertex_count();
        let (source, sink) = (n, n + 1);
        let splice = self.splice(&from, &to, radius, sink);
        let usable_edge = |e: u32| {
            let d = &self.edges[e as usize];
            // A loop never shortens a route between vertices.
            (d.clearance > radius + MARGIN && d.ends[0] != d.ends[1]).then_some(d)
        };
        // Iterators, not Vecs: no allocation per expansion.
        let successors = |&u: &usize| {
            let leave: &[(usize, u64, Arc)] = if u == source { &splice.leave } else { &[] };
            let range = if u < n {
                self.offsets[u] as usize..self.offsets[u + 1] as usize
            } else {
                0..0
            };
            let edges = self.incident[range].iter().filter_map(move |&e| {
                let d = usable_edge(e)?;
                let t = if d.ends[0] as usize == u {
                    d.ends[1]
                } else {
                    d.ends[0]
                };
                Some((t as usize, d.cost))
            });
            let arrive = splice.arrive.iter().filter(move |a| a.0 == u);
            leave
                .iter()
                .map(|a| (a.0, a.1))
                .chain(edges)
                .chain(arrive.map(move |a| (sink, a.1)))
        };
        // Every edge is a chain of 8-neighbour grid moves, so the octile distance to a goal
        // attachment's cell plus that attachment's straight leg is admissible and
        // consistent, and much tighter than the straight line.
        let heuristic = |&u: &usize| match u {
            u if u == sink => 0,
            u if u == source => (start.distance(goal) * COST_UNIT).floor() as u64,
            u => {
                let c = self.centers[u];
                let best = to
                    .iter()
                    .map(|a| octile(c, self.slots[a.slot].center) + a.cost as f64 / COST_UNIT)
                    .fold(f64::INFINITY, f64::min);
                (best * COST_UNIT).floor() as u64
            }
        };
        let (nodes, _) = astar(&source, successors, heuristic, |&u| u == sink)?;
        let mut chain = Vec::new();
        for pair in nodes.windows(2) {
            let (u, v) = (pair[0], pair[1]);
            // The cheapest arc u → v, which is the one A* took.
            let arc = if u == source {
                cheapest(splice.leave.iter().filter(|a| a.0 == v))
            } else if v == sink {
                cheapest(splice.arrive.iter().filter(|a| a.0 == u))
            } else {
                let along = self.incident[self.offsets[u] as usize..self.offsets[u + 1] as usize]
                    .iter()
                    .filter_map(|&e| usable_edge(e).map(|d| (e, d)))
                    .filter(|(_, d)| d.ends.contains(&(v as u32)))
                    .map(|(e, d)| {
                        let forward = d.ends[0] as usize == u;
                        (
                            v,
                            d.cost,
                            Arc::Edge {
                                edge: e as usize,
                                forward,
                            },
                        )
                    });
                cheapest(along)
            }?;
            self.expand(arc, &from, &to, &mut chain);
        }
        Some(chain)
    }

    /// The arcs that splice the start and goal into the graph: from the source to the
    /// vertices (and, along a shared edge, straight to the sink), and from vertices to the
    /// sink. An attachment inside an edge reaches both of its end vertices, along the chain
    /// as far as its clearance allows.
    fn splice(&self, from: &[Attachment], to: &[Attachment], radius: f64, sink: usize) -> Splice {
        let cost = |a: &Attachment, length: f64| a.cost + (length * COST_UNIT).round() as u64;
        let mut splice = Splice::default();
        for (k, a) in from.iter().enumerate() {
            for (v, l, toward_last) in self.ways_to_vertices(a, radius).into_iter().flatten() {
                let arc = Arc::Leave {
                    att: k,
                    forward: toward_last,
                };
                splice.leave.push((v, cost(a, l), arc));
            }
            let Place::Edge { edge, index } = self.slots[a.slot].place else {
                continue;
            };
            for (m, b) in to.iter().enumerate() {
                let Place::Edge { edge: e, index: j } = self.slots[b.slot].place else {
                    continue;
                };
                if let Some(l) = (e == edge)
                    .then(|| self.span(edge, index, j, radius))
                    .flatten()
                {
                    let arc = Arc::Direct { from: k, to: m };
                    splice.leave.push((sink, cost(a, l) + b.cost, arc));
                }
            }
        }
        for (k, a) in to.iter().enumerate() {
            for (v, l, toward_last) in self.ways_to_vertices(a, radius).into_iter().flatten() {
                // Arriving runs the other way: from vertex `v` towards the attachment.
                let arc = Arc::Arrive {
                    att: k,
                    forward: !toward_last,
                };
                splice.arrive.push((v, cost(a, l), arc));
            }
        }
        splice
    }

    /// The vertices the skeleton cell of attachment `a` reaches along the skeleton, each
    /// with the length of the way and whether it runs towards the last cell of the edge's
    /// chain: the cell itself when it is a vertex (length 0), else the edge's two ends, as
    /// far as the chain's clearance allows.
    fn ways_to_vertices(&self, a: &Attachment, radius: f64) -> [Option<(usize, f64, bool)>; 2] {
        match self.slots[a.slot].place {
            Place::Vertex(v) => [Some((v, 0.0, true)), None],
            Place::Edge { edge, index } => {
                [(0, false), (self.last(edge), true)].map(|(end, toward_last)| {
                    let l = self.span(edge, index, end, radius)?;
                    let v = self.edges[edge].ends[toward_last as usize] as usize;
                    Some((v, l, toward_last))
                })
            }
        }
    }

    /// Appends the points of `arc` to `chain` (repeated points are removed later).
    fn expand(&self, arc: Arc, from: &[Attachment], to: &[Attachment], chain: &mut Vec<DVec2>) {
        match arc {
            Arc::Edge { edge, forward } => {
                let last = self.last(edge);
                let (i, j) = if forward { (0, last) } else { (last, 0) };
                self.push_span(edge, i, j, chain);
            }
            Arc::Leave { att, forward } => {
                let a = &from[att];
                chain.extend(&a.chain);
                if let Place::Edge { edge, index } = self.slots[a.slot].place {
                    let end = if forward { self.last(edge) } else { 0 };
                    self.push_span(edge, index, end, chain);
                }
            }
            Arc::Arrive { att, forward } => {
                let a = &to[att];
                if let Place::Edge { edge, index } = self.slots[a.slot].place {
                    let end = if forward { 0 } else { self.last(edge) };
                    self.push_span(edge, end, index, chain);
                }
                chain.extend(a.chain.iter().rev());
            }
            Arc::Direct { from: k, to: m } => {
                let (a, b) = (&from[k], &to[m]);
                chain.extend(&a.chain);
                if let (Place::Edge { edge, index: i }, Place::Edge { index: j, .. }) =
                    (self.slots[a.slot].place, self.slots[b.slot].place)
                {
                    self.push_span(edge, i, j, chain);
                }
                chain.extend(b.chain.iter().rev());
            }
        }
    }

    /// The ways from `p` onto the skeleton: in each of eight directions (octants around
    /// `p`), the nearest skeleton cell in sight, looking no farther than twice the nearest
    /// one's distance + 4 and testing at most [`CANDIDATE_TESTS`] cells; else the nearest
    /// cell by a grid search. Offering A* several directions keeps the route from
    /// backtracking to a single nearest cell behind the start.
    fn attach(&self, p: DVec2, radius: f64) -> Option<Vec<Attachment>> {
        let mut sectors: [Option<Attachment>; 8] = Default::default();
        let mut limit = f64::INFINITY;
        for (tests, s) in self.nearest_slots(p, radius).enumerate() {
            let c = self.slots[s].center;
            let d = p.distance(c);
            if tests >= CANDIDATE_TESTS || d > limit {
                break;
            }
            let angle = (c - p).y.atan2((c - p).x);
            let sector = ((angle / std::f64::consts::FRAC_PI_4).floor() as i64).rem_euclid(8);
            let slot = &mut sectors[sector as usize];
            if slot.is_none() && self.sees(p, c, radius) {
                limit = limit.min(2.0 * d + 4.0);
                *slot = Some(Attachment {
                    slot: s,
                    cost: (d * COST_UNIT).round() as u64,
                    chain: vec![p, c],
                });
            }
        }
        let mut found: Vec<Attachment> = sectors.into_iter().flatten().collect();
        if found.is_empty() {
            found.extend(self.grid_attach(p, radius));
        }
        (!found.is_empty()).then_some(found)
    }

    /// Usable skeleton slots in order of distance from `p`, scanning square rings of cells.
    fn nearest_slots(&self, p: DVec2, radius: f64) -> impl Iterator<Item = usize> + '_ {
        let (w, h) = (self.map.width() as i64, self.map.height() as i64);
        let centre = GridMap::cell_at(p).unwrap_or(IVec2::ZERO);
        let max_ring = w.max(h);
        let mut heap: BinaryHeap<(std::cmp::Reverse<u64>, usize)> = BinaryHeap::new();
        let mut ring = 0i64;
        std::iter::from_fn(move || {
            loop {
                // A cell in ring k (Chebyshev distance k from p's cell) is at least k − 1
                // away from p; pop only when no unscanned ring can hold a nearer cell.
                let bound = (((ring - 1).max(0) as f64) * COST_UNIT) as u64;
                let ready = heap.peek().is_some_and(|(d, _)| d.0 <= bound);
                if ready || ring > max_ring {
                    return heap.pop().map(|(_, s)| s);
                }
                for c in ring_cells(centre, ring) {
                    if let Some(s) = self.slot_at(c).filter(|&s| self.usable(s, radius)) {
                        let d = (self.slots[s].center.distance(p) * COST_UNIT) as u64;
                        heap.push((std::cmp::Reverse(d), s));
                    }
                }
                ring += 1;
            }
        })
    }

    /// Fallback when no skeleton cell is in sight: Dijkstra over cell centres (segments in
    /// sight with clearance) from `p` to the nearest usable skeleton cell.
    fn grid_attach(&self, p: DVec2, radius: f64) -> Option<Attachment> {
        let w = self.map.width();
        let here = GridMap::cell_at(p)?;
        let cell_index = |c: IVec2| c.y as usize * w + c.x as usize;
        let point = |i: usize| {
            if i == usize::MAX {
                p
            } else {
                GridMap::cell_center(cell_of(i, w))
            }
        };
        let successors = |&i: &usize| -> Vec<(usize, u64)> {
            let c = if i == usize::MAX { here } else { cell_of(i, w) };
            let mut out = Vec::new();
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let n = c + IVec2::new(dx, dy);
                    let inside = self.map.passable_cell(n);
                    if (dx, dy) == (0, 0) && i != usize::MAX || !inside {
                        continue;
                    }
                    let (a, b) = (point(i), GridMap::cell_center(n));
                    if self.sees(a, b, radius) {
                        out.push((cell_index(n), (a.distance(b) * COST_UNIT).round() as u64));
                    }
                }
            }
            out
        };
        let success = |&i: &usize| {
            i != usize::MAX
                && self.cell_slot[i] != NONE
                && self.usable(self.cell_slot[i] as usize, radius)
        };
        let (cells, cost) = dijkstra(&usize::MAX, successors, success)?;
        let slot = self.cell_slot[*cells.last()?] as usize;
        let chain = cells.iter().map(|&i| point(i)).collect();
        Some(Attachment { slot, cost, chain })
    }

    /// Turns the chain into disks: thinned where the medial axis allows long, clear steps,
    /// refined where the clearance changes fast (the start and goal connectors). Every
    /// step x → y taken is *good* (see [`CorridorMap::good`]).
    fn disks(&self, chain: &[DVec2], radius: f64) -> Result<(Vec<DVec2>, Vec<f64>)> {
        const LOOKAHEAD: usize = 64;
        let rho = |p: DVec2| (self.field.clearance(p) - radius).max(0.0);
        let mut centers = vec![chain[0]];
        let mut radii = vec![rho(chain[0])];
        let last = chain.len() - 1;
        let mut i = 0;
        while i < last {
            // Thinning: a far chain point (within the look-ahead) reached by one good
            // step, else the next one. Galloping then bisection: O(log LOOKAHEAD) exact
            // clearance tests instead of one per point.
            let (x, rx) = (chain[i], radii[radii.len() - 1]);
            let good = |j: usize| self.good(x, rx, chain[j], rho(chain[j]), radius);
            let end = last.min(i + LOOKAHEAD);
            let (mut ok, mut bad) = (i + 1, end + 1);
            let mut step = 1;
            while ok + step <= end {
                if good(ok + step) {
                    ok += step;
                    step *= 2;
                } else {
                    bad = ok + step;
                    break;
                }
            }
            while bad - ok > 1 {
                let mid = (ok + bad) / 2;
                if good(mid) {
                    ok = mid;
                } else {
                    bad = mid;
                }
            }
            let next = ok;
            self.refine(chain[next], radius, &mut centers, &mut radii)?;
            i = next;
        }
        Ok((centers, radii))
    }

    /// A step x → y is good when the disks overlap (|x − y| ≤ ρx + ρy) and the segment
    /// keeps clearance ≥ r + max(MARGIN, κ·max(ρx, ρy)) with κ = [`KAPPA`]: then the safe
    /// radii of [`super::plan`] (the segment clearances − r) stay within a factor κ of
    /// the disks' radii.
    fn good(&self, x: DVec2, rx: f64, y: DVec2, ry: f64, radius: f64) -> bool {
        let wanted = radius + MARGIN.max(KAPPA * rx.max(ry));
        x.distance(y) <= rx + ry && self.field.segment_clear_of(x, y, wanted)
    }

    /// Appends disks from the last centre to `b` (a point in sight with clearance): the
    /// longest good step among the whole way, half of it, a quarter…, and at worst the
    /// step L = 0.99·(1 − κ)/(1 + κ)·ρx, which is good by the Lipschitz bound (on it the
    /// clearance is ≥ r + ρx − L ≥ r + κ(ρx + L) ≥ r + κ·max(ρx, ρy), and L < ρx).
    fn refine(
        &self,
        b: DVec2,
        radius: f64,
        centers: &mut Vec<DVec2>,
        radii: &mut Vec<f64>,
    ) -> Result<()> {
        let rho = |p: DVec2| (self.field.clearance(p) - radius).max(0.0);
        let rb = rho(b);
        loop {
            let (x, rx) = (centers[centers.len() - 1], radii[radii.len() - 1]);
            let remaining = x.distance(b);
            if remaining == 0.0 || self.good(x, rx, b, rb, radius) {
                break;
            }
            let dir = (b - x) / remaining;
            let floor = 0.99 * (1.0 - KAPPA) / (1.0 + KAPPA) * rx;
            let mut step = remaining * 0.5;
            let mut y = x + dir * step;
            let mut ry = rho(y);
            while step > floor && !self.good(x, rx, y, ry, radius) {
                step = (step * 0.5).max(floor);
                y = x + dir * step;
                ry = rho(y);
            }
            if step.is_nan() || step <= 0.0 || centers.len() >= MAX_CORRIDOR_DISKS {
                return Err(Error::OutputTooLarge {
                    requested: centers.len() as u128 + (remaining / step.max(1e-300)) as u128,
                    cap: MAX_CORRIDOR_DISKS,
                });
            }
            centers.push(y);
            radii.push(ry);
        }
        centers.push(b);
        radii.push(rb);
        Ok(())
    }
}

/// One way onto the skeleton from a start or goal.
#[derive(Debug, Clone)]
struct Attachment {
    /// The skeleton slot reached.
    slot: usize,
    cost: u64,
    /// From the point to the slot's centre (both included).
    chain: Vec<DVec2>,
}

/// How the route goes from one A* node to the next (see [`CorridorMap::expand`]).
#[derive(Debug, Clone, Copy)]
enum Arc {
    /// A graph edge, from its first end to its last when `forward`.
    Edge { edge: usize, forward: bool },
    /// Start attachment `att`, then (when its cell is inside an edge) along that edge to
    /// its last end when `forward`, else to its first.
    Leave { att: usize, forward: bool },
    /// From an end of the goal attachment's edge (the first when `forward`) along it to
    /// the attachment's cell, then goal attachment `att`.
    Arrive { att: usize, forward: bool },
    /// Start attachment `from`, along the edge it shares with goal attachment `to`, then
    /// that attachment.
    Direct { from: usize, to: usize },
}

/// The virtual start and goal spliced into the graph for one query: arcs (target, cost,
/// arc) from the source, and (vertex, cost, arc) from a vertex to the sink.
#[derive(Debug, Default)]
struct Splice {
    leave: Vec<(usize, u64, Arc)>,
    arrive: Vec<(usize, u64, Arc)>,
}

/// The arc of least cost.
fn cheapest(
    arcs: impl IntoIterator<Item = impl std::borrow::Borrow<(usize, u64, Arc)>>,
) -> Option<Arc> {
    arcs.into_iter()
        .map(|a| *a.borrow())
        .min_by_key(|a| a.1)
        .map(|a| a.2)
}

/// CSR incidence of `n` vertices: each edge listed at both ends, a loop once.
fn incidence(n: usize, edges: &[EdgeData]) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32; n + 1];
    let ends = |d: &EdgeData| {
        let [a, b] = d.ends;
        std::iter::once(a).chain((a != b).then_some(b))
    };
    for d in edges {
        for v in ends(d) {
            offsets[v as usize + 1] += 1;
        }
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut incident = vec![0u32; offsets[n] as usize];
    for (e, d) in edges.iter().enumerate() {
        for v in ends(d) {
            incident[fill[v as usize] as usize] = e as u32;
            fill[v as usize] += 1;
        }
    }
    (offsets, incident)
}

/// Octile distance between two points (the shortest 8-connected grid walk between cell
/// centres).
fn octile(a: DVec2, b: DVec2) -> f64 {
    let d = (a - b).abs();
    let (lo, hi) = (d.x.min(d.y), d.x.max(d.y));
    hi - lo + lo * std::f64::consts::SQRT_2
}

fn cell_of(i: usize, w: usize) -> IVec2 {
    IVec2::new((i % w) as i32, (i / w) as i32)
}

/// A*'s move rule: the target free and, for a diagonal, both side cells free.
fn step_ok(map: &GridMap, c: IVec2, dx: i32, dy: i32) -> bool {
    let free = |dx: i32, dy: i32| map.is_passable((c.x + dx) as i64, (c.y + dy) as i64);
    free(dx, dy) && (dx == 0 || dy == 0 || (free(dx, 0) && free(0, dy)))
}

/// The cells at Chebyshev distance `k` from `c`.
fn ring_cells(c: IVec2, k: i64) -> impl Iterator<Item = IVec2> {
    let k = k as i32;
    (-k..=k).flat_map(move |t| {
        let top = [IVec2::new(c.x + t, c.y - k), IVec2::new(c.x + t, c.y + k)];
        let vertical = (t > -k && t < k)
            .then_some([IVec2::new(c.x - k, c.y + t), IVec2::new(c.x + k, c.y + t)]);
        top.into_iter()
            .take(if k == 0 { 1 } else { 2 })
            .chain(vertical.into_iter().flatten())
    })
}

/// Exact clearance of every free cell centre (0 for blocked cells).
fn cell_clearances(map: &GridMap, field: &DistanceField) -> Vec<f64> {
    let w = map.width();
    map.cells()
        .iter()
        .enumerate()
        .map(|(i, &free)| {
            if free {
                let c = cell_of(i, w);
                field.cell_clearance(c.x as i64, c.y as i64)
            } else {
                0.0
            }
        })
        .collect()
}

/// Free cells that are a local maximum of the clearance along some axis (not below either
/// neighbour, above at least one; blocked and outside cells count as 0).
fn ridge_cells(map: &GridMap, clear: &[f64]) -> Vec<bool> {
    let (w, h) = (map.width() as i64, map.height() as i64);
    let at = |x: i64, y: i64| {
        if x < 0 || y < 0 || x >= w || y >= h {
            0.0
        } else {
            clear[(y * w + x) as usize]
        }
    };
    (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let c = clear[i as usize];
            c > 0.0
                && [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
                    let (a, b) = (at(x - dx, y - dy), at(x + dx, y + dy));
                    c >= a && c >= b && (c > a || c > b)
                })
        })
        .collect()
}

/// The kept cells: ridge cells joined through the maximum spanning forest of the free
/// grid, whose non-ridge leaves are pruned (see the module doc); thinned afterwards.
fn ridge_forest(map: &GridMap, clear: &[f64], ridge: &[bool]) -> Vec<bool> {
    let w = map.width();
    let n = clear.len();
    let mut edges: Vec<(usize, usize, u64)> = Vec::with_capacity(4 * map.passable_count());
    for (i, _) in map.cells().iter().enumerate().filter(|&(_, &f)| f) {
        let c = cell_of(i, w);
        for (dx, dy) in FORWARD {
            if step_ok(map, c, dx, dy) {
                let j = (c.y + dy) as usize * w + (c.x + dx) as usize;
                // Kruskal finds a minimum tree: order by decreasing clearance (the bits of
                // a non-negative f64 order like the number).
                let weight = u64::MAX - clear[i].min(clear[j]).to_bits();
                edges.push((i, j, weight));
            }
        }
    }
    let tree: Vec<(usize, usize)> = kruskal_indices(n, &edges).map(|(a, b, _)| (a, b)).collect();
    drop(edges);
    let mut degree = vec![0u32; n];
    let mut offsets = vec![0usize; n + 1];
    for &(a, b) in &tree {
        offsets[a + 1] += 1;
        offsets[b + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut adjacent = vec![0usize; tree.len() * 2];
    for &(a, b) in &tree {
        adjacent[fill[a]] = b;
        fill[a] += 1;
        adjacent[fill[b]] = a;
        fill[b] += 1;
        degree[a] += 1;
        degree[b] += 1;
    }
    let mut alive = map.cells().to_vec();
    let mut leaves: Vec<usize> = (0..n).filter(|&i| degree[i] == 1 && !ridge[i]).collect();
    while let Some(c) = leaves.pop() {
        if !alive[c] || degree[c] != 1 {
            continue;
        }
        alive[c] = false;
        degree[c] = 0;
        for &m in &adjacent[offsets[c]..offsets[c + 1]] {
            if alive[m] {
                degree[m] -= 1;
                if degree[m] == 1 && !ridge[m] {
                    leaves.push(m);
                }
            }
        }
    }
    alive
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_cover_each_cell_once() {
        let mut seen = std::collections::HashSet::new();
        for k in 0..4 {
            for c in ring_cells(IVec2::new(5, 5), k) {
                assert!(seen.insert(c), "{c:?} twice");
                assert_eq!((c - IVec2::new(5, 5)).abs().max_element() as i64, k);
            }
        }
        assert_eq!(seen.len(), 49);
    }

    #[test]
    fn a_room_has_a_ridge_through_its_middle() {
        let rows: Vec<String> = (0..9).map(|_| ".".repeat(15)).collect();
        let cmap = CorridorMap::build(&GridMap::from_rows(&rows).unwrap());
        // The middle row (y = 4.5) is the room's medial axis between x = 4.5 and 10.5.
        for x in 4..=10 {
            assert!(cmap.place(IVec2::new(x, 4)).is_some(), "x = {x}");
        }
        // The wall-hugging row is not on it, except near the corners' diagonal branches.
        assert!(cmap.place(IVec2::new(7, 0)).is_none());
    }

    #[test]
    fn every_free_region_keeps_a_vertex_and_the_graph_follows_the_grid() {
        let map = GridMap::from_rows(&[
            "....@.......@..",
            ".@@.@.@@@@@.@..",
            ".@..@.....@.@..",
            "....@@@@@.@....",
            "@@@.......@@@@.",
        ])
        .unwrap();
        let cmap = CorridorMap::build(&map);
        for i in 0..cmap.vertex_count() {
            for (j, e) in cmap.neighbors(i) {
                assert!(cmap.edge(e).clearance >= 0.5 - 1e-12);
                assert!(cmap.neighbors(j).any(|(k, f)| k == i && f == e));
            }
        }
        // Whatever grid A* can reach, the corridor map can.
        let s = DVec2::new(0.5, 0.5);
        for (x, y) in [(14, 0), (5, 0), (11, 4), (3, 2)] {
            let g = GridMap::cell_center(IVec2::new(x, y));
            let grid = crate::grid::astar::astar_points(&map, s, g);
            let corridor = cmap.corridor(s, g, 0.0);
            assert_eq!(grid.is_ok(), corridor.is_ok(), "goal {g}: {corridor:?}");
        }
    }

    #[test]
    fn corridor_disks_overlap_and_stay_clear() {
        let map = GridMap::from_fn(40, 30, |x, y| !((x / 6 + y / 5) % 3 == 0 && x % 6 < 3));
        let cmap = CorridorMap::build(&map);
        let s = DVec2::new(3.5, 2.5);
        for g in [DVec2::new(37.5, 27.5), DVec2::new(20.2, 13.7)] {
            let Ok(c) = cmap.corridor(s, g, 0.3) else {
                continue;
            };
            for (k, (&p, &r)) in c.centers.iter().zip(&c.radii).enumerate() {
                assert!(cmap.field().clearance(p) - 0.3 >= r - 1e-9);
                if k > 0 {
                    let prev = c.centers[k - 1];
                    assert!(cmap.field().segment_clearance(prev, p) > 0.3);
                }
            }
        }
    }
}

#[cfg(test)]
mod skeleton_tests {
    use super::*;

    /// The kept cells of `map` before and after thinning.
    fn kept_and_thinned(map: &GridMap) -> (Vec<bool>, Vec<bool>) {
        let field = DistanceField::new(map);
        let clear = cell_clearances(map, &field);
        let mut kept = ridge_forest(map, &clear, &ridge_cells(map, &clear));
        thin::fill_holes(map, &mut kept);
        let mut thinned = kept.clone();
        thin::thin(map, &clear, &mut thinned);
        (kept, thinned)
    }

    /// Components of `cells` under the grid's moves (a flood fill).
    fn component_count(map: &GridMap, cells: &[bool]) -> usize {
        let mut seen = vec![false; cells.len()];
        let mut count = 0;
        for i in (0..cells.len()).filter(|&i| cells[i]) {
            if seen[i] {
                continue;
            }
            count += 1;
            seen[i] = true;
            let mut stack = vec![i];
            while let Some(c) = stack.pop() {
                for n in contract::skeleton_neighbours(map, cells, c) {
                    if !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
        }
        count
    }

    /// Regions of cells not in `cells`, joined across sides, that do not touch the border.
    fn enclosed_regions(map: &GridMap, cells: &[bool]) -> usize {
        let (w, h) = (map.width(), map.height());
        let mut seen = cells.to_vec();
        let mut count = 0;
        for i in 0..cells.len() {
            if seen[i] {
                continue;
            }
            seen[i] = true;
            let (mut stack, mut border) = (vec![i], false);
            while let Some(c) = stack.pop() {
                let sides = thin::side_neighbours(c, w, h);
                border |= sides.contains(&None);
                for n in sides.into_iter().flatten() {
                    if !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            count += usize::from(!border);
        }
        count
    }

    fn blocks(map: &GridMap, cells: &[bool]) -> Vec<usize> {
        let w = map.width();
        (0..cells.len())
            .filter(|&i| i % w + 1 < w && i + w + 1 < cells.len())
            .filter(|&i| cells[i] && cells[i + 1] && cells[i + w] && cells[i + w + 1])
            .collect()
    }

    /// Maze-like maps with pockets and pinches (diagonally touching blocked cells).
    fn random_maps() -> impl Iterator<Item = GridMap> {
        (0..12u64).map(|seed| {
            GridMap::from_fn(40, 30, move |x, y| {
                let mut z =
                    seed ^ ((x as u64) << 32 | y as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                z ^= z >> 29;
                z = z.wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z ^= z >> 32;
                z % 100 >= 5 + 3 * seed
            })
        })
    }

    #[test]
    fn the_simple_cell_test_on_small_neighbourhoods() {
        // Ring order: E, SE, S, SW, W, NW, N, NE; all free unless said.
        let free = [true; 8];
        let only = |ks: &[usize]| std::array::from_fn(|k| ks.contains(&k));
        // An isolated cell, and the middle of a line: not simple.
        assert!(!thin::is_simple(&only(&[]), &free));
        assert!(!thin::is_simple(&only(&[0, 4]), &free));
        // A corner of a 2×2 block, and the end of a line: simple.
        assert!(thin::is_simple(&only(&[0, 1, 2]), &free));
        assert!(thin::is_simple(&only(&[0]), &free));
        // The centre of a plus: its arms touch diagonally around it, so removing it would
        // open a hole.
        assert!(!thin::is_simple(&only(&[0, 2, 4, 6]), &free));
        // A diagonal pair across a blocked corner is not adjacent: the centre joins E and
        // S only if the corner SE is free.
        assert!(thin::is_simple(&only(&[0, 2]), &free));
        let mut corner_blocked = free;
        corner_blocked[1] = false;
        assert!(!thin::is_simple(&only(&[0, 2]), &corner_blocked));
    }

    #[test]
    fn thin_shapes_are_one_cell_wide_and_follow_the_axis() {
        let corridor = GridMap::from_rows(&[
            "@@@@@@@@@@@@",
            "............",
            "............",
            "............",
            "............",
            "............",
            "@@@@@@@@@@@@",
        ])
        .unwrap();
        let room: Vec<String> = (0..9).map(|_| ".".repeat(15)).collect();
        let room = GridMap::from_rows(&room).unwrap();
        for map in [&corridor, &room] {
            let (_, thinned) = kept_and_thinned(map);
            assert!(blocks(map, &thinned).is_empty());
            assert_eq!(component_count(map, &thinned), 1);
        }
        // The corridor's axis is its middle row (y = 3).
        let cmap = CorridorMap::build(&corridor);
        for x in 3..9 {
            assert!(cmap.place(IVec2::new(x, 3)).is_some(), "x = {x}");
        }
    }

    #[test]
    fn thinning_keeps_components_and_stops_at_its_fixpoint() {
        for map in random_maps() {
            let (kept, thinned) = kept_and_thinned(&map);
            assert_eq!(
                component_count(&map, &kept),
                component_count(&map, &thinned)
            );
            let w = map.width();
            for i in (0..thinned.len()).filter(|&i| thinned[i]) {
                let (x, y) = ((i % w) as i64, (i / w) as i64);
                assert!(
                    !thin::removable(&map, &thinned, x, y),
                    "({x}, {y}) removable"
                );
            }
            // So every cell of a 2×2 block is needed, and blocks are rare.
            assert!(blocks(&map, &thinned).len() * 20 <= thinned.iter().filter(|&&k| k).count());
        }
    }

    #[test]
    fn loops_around_obstacles_survive_and_a_lone_loop_keeps_one_vertex() {
        // A room with two pillars: the skeleton encloses each (a pillar's side-connected
        // region of other cells does not reach the map's border).
        let map = GridMap::from_rows(&[
            "..............",
            "..............",
            "...@@....@@...",
            "...@@....@@...",
            "..............",
            "..............",
        ])
        .unwrap();
        let (_, thinned) = kept_and_thinned(&map);
        assert_eq!(enclosed_regions(&map, &thinned), 2);
        // A one-cell-wide ring around a block: no junction, one vertex and a loop edge.
        let ring = GridMap::from_rows(&["@@@@@@", "@....@", "@.@@.@", "@....@", "@@@@@@"]).unwrap();
        let cmap = CorridorMap::build(&ring);
        assert_eq!((cmap.vertex_count(), cmap.edge_count()), (1, 1));
        assert_eq!(cmap.edge(0).ends, [0, 0]);
        assert_eq!(cmap.edge(0).cells.len(), 11);
        // A query between two cells of the loop, out of sight of each other.
        let c = cmap
            .corridor(DVec2::new(4.5, 1.5), DVec2::new(1.5, 3.5), 0.0)
            .unwrap();
        assert!(c.centers.len() >= 3);
    }

    #[test]
    fn a_route_inside_one_edge_does_not_detour_to_its_ends() {
        // A U of one-cell-wide passages: one edge between the two dead ends.
        let map = GridMap::from_rows(&[
            "@@@@@@@", "@.....@", "@.@@@.@", "@.@@@.@", "@.@@@.@", "@@@@@@@",
        ])
        .unwrap();
        let cmap = CorridorMap::build(&map);
        assert_eq!((cmap.vertex_count(), cmap.edge_count()), (2, 1));
        let c = cmap
            .corridor(DVec2::new(1.5, 3.5), DVec2::new(5.5, 3.5), 0.0)
            .unwrap();
        let length: f64 = c.centers.windows(2).map(|w| w[0].distance(w[1])).sum();
        // Up 2, across 4, down 2 (a detour to a dead end would add at least 2).
        assert!((length - 8.0).abs() < 1e-9, "{length}");
    }
}
