//! The corridor map of a grid ([`CorridorMap`]): the type and its read access. `build.rs`
//! builds it (with `thin.rs` and `contract.rs`), `query.rs` answers start/goal queries.

use glam::{DVec2, IVec2};

mod build;
mod contract;
mod query;
mod thin;

use crate::grid::distance::DistanceField;
use crate::grid::map::GridMap;

/// The clearance every corridor segment keeps above the agent radius (map units). Strictly
/// positive so that a segment never touches a wall (nor a pinch vertex) when `r = 0`, and
/// large against floating-point rounding of the exact clearance (≈ 1e-13 on 16k-cell maps).
pub(crate) const MARGIN: f64 = 1e-6;

/// The most disks a corridor may have ([`Error::OutputTooLarge`](crate::Error::OutputTooLarge)
/// beyond). Only a start or goal within a hair of the clearance `r` along a long wall could
/// approach it.
///
/// ```
/// assert_eq!(pathsmooth::corridor::MAX_CORRIDOR_DISKS, 200_000);
/// ```
pub const MAX_CORRIDOR_DISKS: usize = 200_000;

/// κ: on every corridor segment the clearance stays ≥ r + κ × the larger of its end
/// disks' radii (so the corridor smoother's safe disks keep ≥ κ of the clearance disks).
/// Larger κ means safe disks closer to the clearance disks but more, shorter steps where
/// the clearance changes fast.
pub(crate) const KAPPA: f64 = 0.5;
/// Fixed-point unit of A* costs (costs must be `Ord`): 2⁻²⁰ map units.
const COST_UNIT: f64 = (1u64 << 20) as f64;
/// No vertex at this cell.
const NONE: u32 = u32::MAX;

/// The corridor map of one grid map: build once ([`CorridorMap::build`]), query many times
/// ([`CorridorMap::corridor`]).
///
/// The corridor map of a grid map: a compact graph on (a discrete approximation of) the
/// medial axis of free space whose vertices carry maximal clearance disks, after Geraerts &
/// Overmars (2007) and Geraerts' explicit corridor map (2010), as Langerak uses it to get
/// the initial path of the smoother (Game AI Pro 3, ch. 20, §20.2, Figure 20.1).
///
/// Geraerts and Overmars build the corridor map from the generalized Voronoi diagram of
/// the obstacles: its vertices are the diagram's junctions and end points, its edges the
/// arcs between them, every point stores the maximal clearance disk around it, and the
/// union of the disks along a graph path is a corridor of free space. Its size grows with
/// the number of obstacle features, not with the area. [`build`](Self::build) approximates
/// the diagram on the grid, and [`corridor`](Self::corridor) answers a start/goal query
/// with a chain of disks.
///
/// # Cost
///
/// Building: one clearance query per free cell (O(clearance) each), a sort of the ≤ 4 edges
/// per cell, linear pruning and hole filling, thinning in O(k log k) for k kept cells, a
/// linear walk for the contraction, and one exact segment clearance per skeleton step;
/// memory is the map, its distance field, a `u32` per cell and about 70 bytes per skeleton
/// cell. The graph's size follows the obstacles, not the area: each obstacle adds a loop
/// and its junctions. A query costs A* over the compact graph, a scan of the attachments'
/// edges, and a few exact line-of-sight and clearance tests, each O(segment length ×
/// clearance).
///
/// # Limits
///
/// The discrete ridge also has branches into inner corners of jagged walls; the thinning
/// keeps those that end in an end point, so the skeleton carries short spurs (each a
/// vertex and an edge more); a junction spanning two or three cells leaves a small cycle
/// (a triangle) in the graph. With `radius > 0` the route runs through cell centres, up
/// to half a cell off the true axis.
///
/// Routes follow the one-cell-wide medial axis and detour in open areas: optimised in
/// this map's own disks they are longer than the corridor smoother's paths along a
/// planner's route pulled taut. What this map saves is the grid search; pulling its
/// route taut before the smoother (the smoother's `smooth_on_grid`) keeps that saving and
/// most of the length.
///
/// # Sources
///
/// - R. Geraerts, M. Overmars, "The corridor map method: a general framework for real-time
///   high-quality path planning", Computer Animation and Virtual Worlds 18, 107–119, 2007.
/// - R. Geraerts, "Planning short paths with clearance using explicit corridors", IEEE
///   International Conference on Robotics and Automation (ICRA), 2010.
/// - J. Pudney, "Distance-ordered homotopic thinning: a skeletonization algorithm for 3D
///   digital images", Computer Vision and Image Understanding 72(3), 404–413, 1998; simple
///   points after A. Rosenfeld, "Connectivity in digital pictures", JACM 17(1), 1970.
/// - M. Langerak, "Optimization for Smooth Paths", Game AI Pro 3, ch. 20, §20.2 (2017).
///
/// # Example
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::CorridorMap;
/// use pathsmooth::grid::GridMap;
/// let map = GridMap::from_rows(&[
///     "..........",
///     "..........",
///     "...@@@@...",
///     "...@@@@...",
///     "..........",
///     "..........",
/// ])?;
/// let cmap = CorridorMap::build(&map);
/// let c = cmap.corridor(DVec2::new(0.5, 0.5), DVec2::new(9.5, 5.5), 0.0)?;
/// assert_eq!((c.start(), c.goal()), (DVec2::new(0.5, 0.5), DVec2::new(9.5, 5.5)));
/// // Every disk lies in free space and consecutive disks overlap.
/// for (i, (&p, &r)) in c.centers.iter().zip(&c.radii).enumerate() {
///     assert!(cmap.field().clearance(p) >= r - 1e-9);
///     if i > 0 {
///         assert!(p.distance(c.centers[i - 1]) <= r + c.radii[i - 1]);
///     }
/// }
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// ```
/// use pathsmooth::corridor::CorridorMap;
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
/// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
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
    /// The map the corridor map was built from.
    ///
    /// ```
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
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
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["..."])?);
    /// assert_eq!(cmap.field().clearance(DVec2::new(1.5, 0.5)), 0.5);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn field(&self) -> &DistanceField {
        &self.field
    }

    /// Number of graph vertices: the skeleton's junctions and end points, and one cell of
    /// each loop without a junction.
    ///
    /// ```
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
    /// assert_eq!(CorridorMap::build(&GridMap::from_rows(&["@@"])?).vertex_count(), 0);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn vertex_count(&self) -> usize {
        self.centers.len()
    }

    /// Number of graph edges (chains of skeleton cells).
    ///
    /// ```
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
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
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
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
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
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
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
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
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap};
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
    /// use pathsmooth::corridor::{CorridorMap, Place};
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
}

fn cell_of(i: usize, w: usize) -> IVec2 {
    IVec2::new((i % w) as i32, (i / w) as i32)
}

/// A*'s move rule: the target free and, for a diagonal, both side cells free.
fn step_ok(map: &GridMap, c: IVec2, dx: i32, dy: i32) -> bool {
    let free = |dx: i32, dy: i32| map.is_passable((c.x + dx) as i64, (c.y + dy) as i64);
    free(dx, dy) && (dx == 0 || dy == 0 || (free(dx, 0) && free(0, dy)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_is_a_millionth() {
        assert_eq!(MARGIN, 1e-6);
    }

    #[test]
    fn kappa_is_a_fraction() {
        let k = KAPPA;
        assert!(k > 0.0 && k < 1.0);
    }
}
