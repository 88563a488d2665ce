//! Grid worlds: Moving AI maps and scenarios, A*, exact line of sight and clearance.
//!
//! Every item is here, one path per name (the modules below are private; the most used are
//! also at the crate root).
//!
//! ## Maps and scenarios
//!
//! Moving AI grid maps (`.map`) and scenario lists (`.scen`).
//!
//! Format: Sturtevant, *Benchmarks for Grid-Based Pathfinding*, IEEE TCIAIG 4(2), 2012
//! (<https://movingai.com/benchmarks/formats.html>). A map is four header lines
//! (`type octile`, `height H`, `width W`, `map`; height before width) followed by `H` rows
//! of `W` characters. `.`, `G` and `S` are passable; every other character (`@`, `O`, `T`,
//! `W`, anything unknown) is blocked terrain. CRLF and LF line endings and a missing final
//! newline are accepted.
//!
//! Coordinates: cell (x = column, y = row, row 0 at the top) covers the
//! square [x, x+1] × [y, y+1] and has its centre at (x + 0.5, y + 0.5). Everything outside
//! the map is blocked.
//!
//! ```
//! use pathsmooth::grid::GridMap;
//! let map = GridMap::parse("type octile\nheight 2\nwidth 3\nmap\n..@\n.T.\n", "tiny.map")?;
//! assert_eq!((map.width(), map.height()), (3, 2));
//! assert!(map.is_passable(0, 0));
//! assert!(!map.is_passable(2, 0));
//! assert!(!map.is_passable(1, 1));
//! assert!(!map.is_passable(-1, 0)); // outside is blocked
//! # Ok::<(), pathsmooth::Error>(())
//! ```
//!
//! ## A*
//!
//! A* on a grid map: 8-connected moves without corner cutting, octile heuristic.
//!
//! Moves follow the Moving AI benchmark rules (Sturtevant, *Benchmarks for
//! Grid-Based Pathfinding*, IEEE TCIAIG 2012): orthogonal steps cost 1, diagonal steps
//! cost √2, and a diagonal step from (x, y) to (x+dx, y+dy) needs both (x+dx, y) and
//! (x, y+dy) free, so a path never clips a wall's corner nor squeezes through a diagonal
//! pinch. The search is A* (Hart, Nilsson, Raphael 1968) with the octile distance as an
//! admissible, consistent heuristic: the `pathfinding` crate's
//! [`astar`](pathfinding::prelude::astar) loop, step for step, over arrays indexed by cell
//! instead of its hash map (the same paths without a hash per node). The arrays are a
//! [`GridSearch`]'s, 28 bytes per cell of the largest map it searched: keep one for repeated
//! searches; the free functions make a fresh one per call.
//!
//! **Jump points.** Where every step costs its length (no area costs) and the move rule is
//! the one above (radius 0, or any radius up to half a cell, where it is the same rule),
//! the A* expands *jump points* instead of cells: Harabor and Grastien's jump point search
//! (*Online Graph Pruning for Pathfinding on Grid Maps*, AAAI 2011; the variant without
//! corner cutting of *Improving Jump Point Search*, ICAPS 2014). Between two jump points the
//! path runs straight or diagonally, scanned cell by cell without a heap entry; the path's
//! cost is the same integer sum A* over every cell finds (the tests compare both, and an
//! independent Dijkstra on Moving AI maps), but where many paths are equally short it may
//! be another of them (jump point search prefers diagonal steps first). On the 512 × 512
//! maze, rooms and random maps the search is 12, 5.5 and 1.4 times as fast as over every
//! cell (`docs/benchmarks.md`). With area costs, or a radius over half a cell, every cell
//! is expanded as before.
//!
//! **Exact costs.** The search adds integer costs: 1 is 2³² units and √2 is rounded to the
//! nearest unit, so sums are exact, ties are decided consistently and the rounding error
//! of a 10⁶-step path stays below 10⁻³ of a unit. The reported [`GridPath::length`] is
//! recomputed in `f64` as `orthogonal + √2 · diagonal` steps.
//!
//! Cost: O(n log n) for n expanded cells; the result is the cells and the polyline through
//! their centres (which has clearance ≥ 0.5 and is valid by the rule of
//! line of sight, below).
//!
//! ```
//! use glam::IVec2;
//! use pathsmooth::grid::{astar, GridMap};
//! let map = GridMap::from_rows(&["....", ".@@.", "...."])?;
//! let path = astar(&map, IVec2::new(0, 1), IVec2::new(3, 1))?;
//! // Around the wall without clipping its corners: up, three across, down.
//! assert_eq!(path.length, 5.0);
//! assert_eq!(path.points.len(), path.cells.len());
//! # Ok::<(), pathsmooth::Error>(())
//! ```
//!
//! ## Line of sight
//!
//! Exact line of sight on a grid map, following the validity rule of [`crate::world`] to
//! the letter.
//!
//! **The rule.** The blocked region is the union of the blocked cells (closed unit squares)
//! and everything outside the map. A segment *collides* when it enters the **interior** of
//! the blocked region — the open inside of a blocked cell, the seam between two blocked
//! cells (inside a thick wall), a vertex surrounded by four blocked cells, anything outside
//! the map — or when it passes through a **pinch**: a grid vertex where exactly two
//! diagonally opposite cells of its four are blocked. A path also collides when it *bends*
//! on a pinch vertex, arriving from one free quadrant and leaving into the other. Touching a
//! wall's surface, running along it, or touching a corner is allowed; so is running along
//! the map border from inside.
//!
//! **The test.** [`segment_collision`] walks the cells the open segment passes through, in
//! order, as Amanatides and Woo's voxel traversal does (J. Amanatides, A. Woo, *A Fast Voxel
//! Traversal Algorithm for Ray Tracing*, Eurographics 1987), but decides every step
//! **exactly**: whether the segment leaves a cell through its vertical side, its
//! horizontal side or exactly through its corner is the sign of an orientation determinant
//! of the two (floating-point) endpoints and the (integer) corner, computed with Shewchuk's
//! adaptive exact predicate (the `robust` crate). There is no sampling and no epsilon:
//! the answer is the exact answer for the segment whose endpoints are the given `f64`
//! values. Axis-parallel segments, which may run along grid lines, are handled separately:
//! on a grid line, a unit stretch collides when the cells on *both* sides of it are blocked
//! (the seam inside a wall, or outside the map beyond a blocked border cell).
//!
//! Cost: O(number of cells the segment crosses); no allocation.
//!
//! With an agent radius `r > 0`, [`segment_is_clear`] asks instead that every point of the
//! segment keep clearance ≥ `r` ([`DistanceField`]); touching is then impossible, so the
//! pinch rule is implied.
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::grid::{segment_is_free, GridMap};
//! // . . .
//! // . @ .
//! // . . .
//! let map = GridMap::from_rows(&["...", ".@.", "..."])?;
//! // Grazing the top side of the wall is fine, clipping its corner is not.
//! assert!(segment_is_free(&map, DVec2::new(0.0, 1.0), DVec2::new(3.0, 1.0)));
//! assert!(!segment_is_free(&map, DVec2::new(0.5, 0.5), DVec2::new(2.5, 1.5)));
//! // Touching the corner exactly is fine; the main diagonal crosses the wall.
//! assert!(!segment_is_free(&map, DVec2::new(0.0, 0.0), DVec2::new(3.0, 3.0)));
//! assert!(segment_is_free(&map, DVec2::new(0.5, 1.5), DVec2::new(1.5, 0.5)));
//! # Ok::<(), pathsmooth::Error>(())
//! ```
//!
//! ## The distance field
//!
//! Exact Euclidean clearance: the distance from any point (or segment) to the blocked
//! region of a grid map.
//!
//! The blocked region `B` is the union of the blocked cells (closed unit squares) and
//! everything outside the map, so the map border is a wall. The field promises:
//!
//! - [`DistanceField::cell_clearance`] and [`DistanceField::vertex_clearance`]: the exact
//!   Euclidean distance from a cell centre (x + ½, y + ½) or a lattice vertex (x, y) to `B`,
//!   in O(1). These distances are square roots of integers over 2 (every per-axis gap is a
//!   multiple of ½), so they are stored exactly and returned as the correctly rounded
//!   `√q / 2`: e.g. a centre whose nearest wall point is a corner ½ away on both axes
//!   gets exactly `0.5f64.sqrt()`.
//! - [`DistanceField::clearance`]: the exact distance from any point (0 inside a wall, on
//!   its surface, or outside the map), equal to the stored value at centres and vertices.
//! - [`DistanceField::segment_clearance`] and its capped and boolean forms: the exact
//!   minimum clearance along a segment (up to floating-point rounding).
//!
//! It is the distance to the blocked squares, not the distance between cell centres.
//!
//! **The table (centres and vertices).** In half units the squares of `B` have integer
//! corners, and the nearest point of a square to a point with integer coordinates is the
//! point clamped onto the square, again on the half-unit lattice. So the clearance of a
//! centre or vertex is its distance to the nearest blocked point of the half-unit lattice:
//! a classic exact Euclidean distance transform of sampled points, computed in linear time
//! by separating the axes (P. Felzenszwalb, D. Huttenlocher, *Distance Transforms of
//! Sampled Functions*, Theory of Computing 8, 2012; A. Meijster, J. Roerdink,
//! W. Hesselink, *A General Algorithm for Computing Distance Transforms in Linear Time*,
//! Mathematical Morphology and its Applications to Image and Signal Processing, 2000).
//! The column pass records, for every cell, the nearest blocked cell at or above and at or
//! below it in its column (two sweeps; the rows just outside the map count as blocked),
//! which gives the vertical distance `g` from each centre or vertex row to the blocked
//! squares of each column. The row pass takes, for each row of query points, the lower
//! envelope of the parabolas `(P − X)² + g_X` over the vertical grid lines `X` (a line's
//! `g` is the smaller of its two neighbouring columns'; the border lines have `g = 0`) and
//! evaluates it at every query with Meijster's integer separators, so the arithmetic is
//! exact. The half-unit lines through cell centres need no parabolas of their own: one is
//! only ever nearest to the centres on it, where its value is the column's own `g`.
//!
//! **Other points and segments.** For the square of cell (i, j),
//! `dist(p, S_ij)² = gx_i(p.x)² + gy_j(p.y)²` where `gx_i` is the 1D distance from `p.x`
//! to [i, i+1] and likewise `gy_j`. Within one column, a blocked square above every point
//! of the query dominates all blocked squares farther above it, so each column contributes
//! at most the blocked cells in the query's own rows and the nearest blocked one above and
//! below (read from the column pass). Columns are visited outwards from the query until
//! the horizontal gap alone reaches the best distance found; every square that could be
//! nearer is examined with an exact point- or segment-to-square distance. A segment is cut
//! into pieces of length ≤ 1. Clearance is 1-Lipschitz, so the stored value at the centre
//! or vertex nearest a piece bounds the piece's clearance within 1 on either side: the
//! upper bound caps the search, and pieces whose lower bound cannot beat the best so far
//! (or the radius being tested) are skipped without a search.
//!
//! **Cost.** Building is O(width × height) time (a few passes over the map, no
//! dependence on the clearances) with O(width) scratch. Memory is 12 bytes per cell: the
//! squared clearance of each centre and of each vertex as `u32` in quarter units (4 + 4,
//! plus one extra row and column of vertices) and the two column distances as `u16`
//! (`u32` for maps taller than 65 535 rows: 16 bytes per cell). `cell_clearance` and
//! `vertex_clearance` are O(1), as is `clearance` at a centre or vertex; at other points it
//! is O(c + 1) for clearance c (the columns within reach). A segment of length L costs
//! O(L) for the bounds plus O(c + 1) for each piece whose bound does not rule it out: for
//! [`segment_clear_of`](DistanceField::segment_clear_of) with radius r, pieces whose
//! nearest stored value exceeds r + 1 cost O(1).
//!
//! Squared clearances saturate at `u32::MAX` quarter units (a clearance over 32 767 cells,
//! possible only on maps more than 65 535 cells wide and tall).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::grid::{DistanceField, GridMap};
//! let map = GridMap::from_rows(&[".....", ".....", "..@..", ".....", "....."])?;
//! let field = DistanceField::new(&map);
//! // Near the top-left corner the map border is nearest; from (1.5, 1.5) it is the
//! // wall's corner (2, 2), √0.5 away (cell-centre distance would say √2).
//! assert_eq!(field.clearance(DVec2::new(0.5, 0.5)), 0.5);
//! assert_eq!(field.cell_clearance(1, 1), 0.5f64.sqrt());
//! assert_eq!(field.clearance(DVec2::new(1.5, 1.5)), field.cell_clearance(1, 1));
//! assert_eq!(field.clearance(DVec2::new(2.5, 2.5)), 0.0);
//! // The vertex (1, 1) is √2 from that corner but 1 from the border.
//! assert_eq!(field.vertex_clearance(1, 1), 1.0);
//! # Ok::<(), pathsmooth::Error>(())
//! ```

/// Cost of an orthogonal step in the searches' integer units.
const ORTHOGONAL: u64 = 1 << 32;
/// Cost of a diagonal step: √2 · 2³², rounded.
const DIAGONAL: u64 = 6_074_001_000;

pub(crate) mod astar;
pub(crate) mod cost;
pub(crate) mod distance;
mod jump;
pub(crate) mod los;
pub(crate) mod map;
mod open_list;

pub use astar::{astar, astar_clear, astar_points, octile_distance, GridPath, GridSearch};
pub use distance::DistanceField;
pub use los::{
    bend_pinch, is_pinch, path_collision, path_is_clear, path_is_free, point_is_free,
    segment_collision, segment_is_clear, segment_is_free, Collision,
};
pub use map::{
    check_scenario, load_scenarios, parse_point_scenarios, parse_scenarios, GridMap, PointScenario,
    Scenario, MAX_MAP_SIDE,
};
