//! A* on a grid map: 8-connected moves without corner cutting, octile heuristic.
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "A*".)

use glam::{DVec2, IVec2};

use crate::area::AreaCosts;
use crate::cancel::{Cancel, Checkpoint};
use crate::error::{Error, Result};
use crate::grid::distance::DistanceField;
use crate::grid::map::GridMap;
use crate::grid::{jump, open_list, DIAGONAL, ORTHOGONAL};

/// A grid path found by [`astar`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GridPath {
    /// The cells from start to goal, each a king's move from the previous one.
    pub cells: Vec<IVec2>,
    /// The centres of `cells`.
    pub points: Vec<DVec2>,
    /// Octile length: orthogonal steps count 1, diagonal steps √2.
    pub length: f64,
    /// The cost under the search's area costs: each step's length times the mean of its
    /// two cells' multipliers (half of it lies in each); the length when every area costs
    /// 1 (see [`GridWorld::find_cell_path`](crate::GridWorld::find_cell_path)).
    pub cost: f64,
}

/// A grid search's scratch: the open list and, per cell, the search's cost, parent and
/// stamp. Searches through one `GridSearch` reuse its memory (16 bytes per cell of the
/// largest map searched, 24 more once a search over every cell ran: with area costs, or
/// at a radius over half a cell), so after the first
/// they allocate nothing but their result's growth; [`astar`] and the other free
/// functions make a fresh one per call.
///
/// ```
/// use glam::IVec2;
/// use pathsmooth::grid::{GridPath, GridSearch, GridMap};
/// let map = GridMap::from_rows(&["....", ".@@.", "...."])?;
/// let (mut search, mut path) = (GridSearch::new(), GridPath::default());
/// for _ in 0..3 {
///     search.astar(&map, IVec2::new(0, 1), IVec2::new(3, 1), &mut path)?;
///     assert_eq!(path.length, 5.0);
/// }
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct GridSearch {
    /// The open list of the jump point search (unit costs, which fit `u64`).
    list: open_list::OpenList<u64>,
    /// The open list of searches over every cell (`u128`: see [`Weights`]); empty until
    /// one runs.
    weighted: open_list::OpenList<u128>,
    /// The cell indices of the last path found.
    nodes: Vec<usize>,
    /// The jump points of the last jump point search.
    jumps: Vec<usize>,
}

impl GridSearch {
    /// A search with no memory yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// [`astar`] into `out`, reusing this search's memory.
    pub fn astar(
        &mut self,
        map: &GridMap,
        start: IVec2,
        goal: IVec2,
        out: &mut GridPath,
    ) -> Result<()> {
        astar_until(self, map, None, [start, goal], None, None, out)
    }

    /// [`astar_clear`] into `out`, reusing this search's memory.
    pub fn astar_clear(
        &mut self,
        map: &GridMap,
        field: &DistanceField,
        start: IVec2,
        goal: IVec2,
        radius: f64,
        out: &mut GridPath,
    ) -> Result<()> {
        let clear = Some((field, radius));
        astar_until(self, map, clear, [start, goal], None, None, out)
    }
}

/// The area costs as the search adds them: per area, the multiplier × 2³² rounded to an
/// integer (costs lie in [2⁻²⁰, 2²⁰], so a weight is in [2¹², 2⁵²] and a step's cost,
/// base × (w₁ + w₂) < 2⁸⁷, sums exactly in `u128` over any path a map can hold).
#[derive(Debug, Clone)]
pub(crate) struct Weights {
    weight: [u64; 256],
    multiplier: [f64; 256],
    /// The smallest weight of an area the map's free cells have: what scales the
    /// octile heuristic so it stays admissible and consistent.
    min: u64,
}

impl Weights {
    /// Every area costs 1. Built per search (4 KB filled, nothing beside a search over
    /// every cell) rather than a `const`, whose tables would be 4 KB of the WebAssembly
    /// build.
    fn unit() -> Self {
        Weights {
            weight: [1 << 32; 256],
            multiplier: [1.0; 256],
            min: 1 << 32,
        }
    }

    /// The weights of `costs` for the free cells of `map` (as filtered by `costs`), or
    /// `None` when they all cost 1 (the search then takes its unit-cost forms).
    pub(crate) fn new(map: &GridMap, costs: &AreaCosts) -> Option<Self> {
        if costs.is_uniform() {
            return None;
        }
        let mut weight = [0u64; 256];
        let mut multiplier = [f64::INFINITY; 256];
        for area in 0..=255u8 {
            if let Some(c) = costs.cost(area) {
                weight[area as usize] = (c * (1u64 << 32) as f64).round() as u64;
                multiplier[area as usize] = c;
            }
        }
        let min = map
            .areas_present()
            .into_iter()
            .filter(|&a| costs.cost(a).is_some())
            .map(|a| weight[a as usize])
            .min()
            .unwrap_or(1 << 32);
        Some(Weights {
            weight,
            multiplier,
            min,
        })
    }
}

/// The octile distance between two cells: the length of a shortest 8-connected path on an
/// empty map.
///
/// ```
/// use glam::IVec2;
/// let d = pathsmooth::grid::octile_distance(IVec2::ZERO, IVec2::new(3, 1));
/// assert!((d - (2.0 + 2f64.sqrt())).abs() < 1e-12);
/// ```
pub fn octile_distance(a: IVec2, b: IVec2) -> f64 {
    let d = (a - b).abs();
    let (lo, hi) = (d.x.min(d.y) as f64, d.x.max(d.y) as f64);
    (hi - lo) + lo * std::f64::consts::SQRT_2
}

/// [`octile_distance`] in the searches' integer units: the A* heuristic.
fn octile_units(a: IVec2, b: IVec2) -> u64 {
    let d = (a - b).abs();
    let (lo, hi) = (d.x.min(d.y) as u64, d.x.max(d.y) as u64);
    (hi - lo) * ORTHOGONAL + lo * DIAGONAL
}

/// Shortest 8-connected path without corner cutting from cell `start` to cell `goal`.
///
/// Errors: [`Error::OutsideMap`] when either cell is outside the map, [`Error::Blocked`]
/// when either is blocked, [`Error::Unreachable`] when no path exists. `start == goal`
/// gives a one-cell path of length 0.
///
/// ```
/// use glam::IVec2;
/// use pathsmooth::{grid::{astar, GridMap}, Error};
/// let map = GridMap::from_rows(&[".@.", ".@.", "..."])?;
/// let p = astar(&map, IVec2::new(0, 0), IVec2::new(2, 0))?;
/// assert_eq!(p.length, 6.0); // down, across and up: no diagonal may clip the wall
/// assert!(matches!(astar(&map, IVec2::new(0, 0), IVec2::new(1, 0)), Err(Error::Blocked { .. })));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn astar(map: &GridMap, start: IVec2, goal: IVec2) -> Result<GridPath> {
    let mut path = GridPath::default();
    GridSearch::new().astar(map, start, goal, &mut path)?;
    Ok(path)
}

/// [`astar`] for an agent of radius `radius` (in cells, ≥ 0): it enters only cells whose
/// centre has clearance ≥ `radius`, and takes a diagonal step only when the corner it
/// passes has clearance ≥ `radius` too (at radius 0: when both side cells are free, as
/// [`astar`]). The polyline through the centres then keeps clearance ≥ `radius`
/// everywhere: along an orthogonal step between two centres, and along each half of a
/// diagonal step, the distance to any blocked square is smallest at an end of the piece
/// (the per-axis distances change linearly and in steps of half a cell), so the centres and
/// the corner bound the whole step.
///
/// The start and goal cells themselves are not tested for clearance (callers check their
/// points: a start may be a little off its cell's centre); every other cell is.
/// `field` must be `map`'s distance field.
///
/// Cost: that of [`astar`], with an O(1) clearance look-up per cell and corner visited.
///
/// ```
/// use glam::IVec2;
/// use pathsmooth::grid::{astar_clear, DistanceField, GridMap};
/// let map = GridMap::from_rows(&["......."; 3].iter().chain(&["...@..."]).chain(&["......."; 3]).collect::<Vec<_>>())?;
/// let field = DistanceField::new(&map);
/// // Radius 0.6: the centres beside the pillar (3, 3) have only 0.5, so the path goes wide.
/// let p = astar_clear(&map, &field, IVec2::new(1, 3), IVec2::new(5, 3), 0.6)?;
/// assert!(p.cells.iter().all(|c| c.y != 3 || c.x <= 1 || c.x >= 5));
/// let world = pathsmooth::GridWorld::new(map)?;
/// assert!(pathsmooth::is_valid(&world, &p.points, 0.6));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn astar_clear(
    map: &GridMap,
    field: &DistanceField,
    start: IVec2,
    goal: IVec2,
    radius: f64,
) -> Result<GridPath> {
    let mut path = GridPath::default();
    GridSearch::new().astar_clear(map, field, start, goal, radius, &mut path)?;
    Ok(path)
}

/// [`astar`] (`clear` is `None`) or [`astar_clear`] (`clear` is the map's distance field
/// and the radius) into `out` with `search`'s memory, minimising cost under `weights`
/// (length when `None`), that stops with [`Error::Cancelled`] once `cancel` is cancelled
/// (checked every 1024 expanded cells: a search over a whole 1024 × 1024 map takes a few
/// hundred milliseconds).
pub(crate) fn astar_until(
    search: &mut GridSearch,
    map: &GridMap,
    clear: Option<(&DistanceField, f64)>,
    [start, goal]: [IVec2; 2],
    weights: Option<&Weights>,
    cancel: Option<&Cancel>,
    out: &mut GridPath,
) -> Result<()> {
    if let Some((_, radius)) = clear
        && !(radius >= 0.0 && radius.is_finite())
    {
        return Err(Error::param("radius", radius, "a finite number ≥ 0"));
    }
    check_cell(map, start, "start")?;
    check_cell(map, goal, "goal")?;
    // Up to half a cell every free centre has the room (its nearest wall is at least half
    // a cell away), and a corner has it exactly when no wall touches it (else its nearest
    // wall is at least a cell away): the rules of radius 0.
    let clear = clear
        .filter(|&(_, radius)| radius > 0.5)
        .map(|(field, radius)| (field, radius, [start, goal]));
    if clear.is_none() && weights.is_none() {
        return search.jump_points(map, start, goal, cancel, out);
    }
    search.run(&MoveRule { map, clear }, start, goal, weights, cancel, out)
}

/// Which cells a search may enter and which diagonal steps it may take: without `clear`,
/// free cells and no corner cut (radius 0); with `clear = (field, radius, ends)`, cells
/// whose centre has clearance ≥ `radius` (the ends exempt) and diagonal steps whose
/// corner has it too. One type for both, so that the search is compiled once.
struct MoveRule<'a> {
    map: &'a GridMap,
    clear: Option<(&'a DistanceField, f64, [IVec2; 2])>,
}

impl MoveRule<'_> {
    fn free(&self, x: i64, y: i64) -> bool {
        self.map.is_passable(x, y)
            && self.clear.is_none_or(|(field, radius, ends)| {
                field.cell_clearance(x, y) >= radius
                    || ends.contains(&IVec2::new(x as i32, y as i32))
            })
    }

    /// Whether the diagonal step from `c` by (dx, dy) may be taken (its target free).
    fn diagonal_ok(&self, c: IVec2, dx: i32, dy: i32) -> bool {
        match self.clear {
            None => {
                self.free((c.x + dx) as i64, c.y as i64) && self.free(c.x as i64, (c.y + dy) as i64)
            }
            // The corner shared by the cell and its diagonal neighbour.
            Some((field, radius, _)) => {
                let corner = ((c.x + dx.max(0)) as i64, (c.y + dy.max(0)) as i64);
                field.vertex_clearance(corner.0, corner.1) >= radius
            }
        }
    }
}

impl GridSearch {
    /// A* over every cell `rule` lets it enter. A step costs its length, or with `weights`
    /// its length times the mean of its two cells' costs (half the step lies in each); the
    /// octile heuristic is scaled by the cheapest area, so it stays consistent. Once
    /// `cancel` is cancelled the search ends at the next check with [`Error::Cancelled`].
    /// The path goes into `out` (its lists cleared first).
    fn run(
        &mut self,
        rule: &MoveRule<'_>,
        start: IVec2,
        goal: IVec2,
        weights: Option<&Weights>,
        cancel: Option<&Cancel>,
        out: &mut GridPath,
    ) -> Result<()> {
        let map = rule.map;
        let w = map.width();
        let index = |c: IVec2| c.y as usize * w + c.x as usize;
        let cell = |i: usize| IVec2::new((i % w) as i32, (i / w) as i32);
        let area = |i: usize| map.area(i % w, i / w) as usize;
        let goal_i = index(goal);
        let octile = |i: usize| octile_units(cell(i), goal);
        // Each cell's king's moves that may be taken, with their base costs.
        let moves = |i: usize, push: &mut dyn FnMut(usize, u64)| {
            let c = cell(i);
            for &(dx, dy, diagonal) in &MOVES {
                if rule.free((c.x + dx) as i64, (c.y + dy) as i64)
                    && (!diagonal || rule.diagonal_ok(c, dx, dy))
                {
                    let next = (c.y + dy) as usize * w + (c.x + dx) as usize;
                    push(next, if diagonal { DIAGONAL } else { ORTHOGONAL });
                }
            }
        };
        // The success test runs once per cell taken from the open list: where a cancelled
        // search ends at once (its "path" is then thrown away).
        let mut point = Checkpoint::new(cancel);
        let success = |i: usize| i == goal_i || point.stop();
        let (cells, nodes) = (w * map.height(), &mut self.nodes);
        // A step costs base × (w₁ + w₂), in u128 (see [`Weights`]), and the heuristic is
        // scaled by the cheapest area twice. Unit costs (here only at radii over half a
        // cell: below, the jump point search takes them) go through the same loop with
        // every weight 1, which orders the same integers scaled by 2³³, so the same ties
        // and paths as a loop of their own, which the WebAssembly build has no room for.
        let unit = Weights::unit();
        let wt = weights.unwrap_or(&unit);
        let scale = 2 * wt.min as u128;
        let weight = |i: usize| wt.weight[area(i)] as u128;
        let found = self.weighted.astar(
            cells,
            index(start),
            |i, _, push| {
                moves(i, &mut |next, base| {
                    push(next, base as u128 * (weight(i) + weight(next)))
                })
            },
            |i| octile(i) as u128 * scale,
            success,
            nodes,
        );
        finish(
            map,
            (start, goal),
            found,
            point.stopped(),
            nodes,
            weights,
            out,
        )
    }

    /// [`Self::run`] without area costs and with the rule of radius 0 (a diagonal step
    /// needs both side cells free), by jump point search ([`jump`]): the same cost, few of
    /// the cells expanded.
    fn jump_points(
        &mut self,
        map: &GridMap,
        start: IVec2,
        goal: IVec2,
        cancel: Option<&Cancel>,
        out: &mut GridPath,
    ) -> Result<()> {
        let w = map.width();
        let jumps = jump::Jumps {
            free: |x: i32, y: i32| map.is_passable(x as i64, y as i64),
            width: w,
            goal,
        };
        let index = |c: IVec2| c.y as usize * w + c.x as usize;
        let goal_i = index(goal);
        let octile = |i: usize| octile_units(IVec2::new((i % w) as i32, (i / w) as i32), goal);
        let mut point = Checkpoint::new(cancel);
        let found = self.list.astar(
            w * map.height(),
            index(start),
            |i, parent, push| jumps.successors(i, parent, push),
            octile,
            |i| i == goal_i || point.stop(),
            &mut self.jumps,
        );
        self.nodes.clear();
        jump::fill_in(&self.jumps, w, &mut self.nodes);
        let stopped = point.stopped();
        finish(map, (start, goal), found, stopped, &self.nodes, None, out)
    }
}

/// The search's answer into `out`: the path through the cells `nodes` (indices of `map`'s
/// cells, each a king's move from the one before), its length and its cost under
/// `weights` (its lists cleared first); [`Error::Cancelled`] when the search `stopped`,
/// [`Error::Unreachable`] when it `found` no path from `start` to `goal`.
fn finish(
    map: &GridMap,
    (start, goal): (IVec2, IVec2),
    found: bool,
    stopped: bool,
    nodes: &[usize],
    weights: Option<&Weights>,
    out: &mut GridPath,
) -> Result<()> {
    out.cells.clear();
    out.points.clear();
    let w = map.width();
    let cell = |i: usize| IVec2::new((i % w) as i32, (i / w) as i32);
    let area = |i: usize| map.area(i % w, i / w) as usize;
    if stopped {
        return Err(Error::Cancelled);
    }
    if !found {
        return Err(Error::Unreachable {
            sx: start.x as f64,
            sy: start.y as f64,
            gx: goal.x as f64,
            gy: goal.y as f64,
        });
    }
    let step_length = |s: &[usize]| {
        let (a, b) = (cell(s[0]), cell(s[1]));
        if a.x != b.x && a.y != b.y {
            std::f64::consts::SQRT_2
        } else {
            1.0
        }
    };
    let length = nodes.windows(2).map(step_length).sum();
    let cost = match weights {
        None => length,
        Some(wt) => nodes
            .windows(2)
            .map(|s| {
                let mean = 0.5 * (wt.multiplier[area(s[0])] + wt.multiplier[area(s[1])]);
                step_length(s) * mean
            })
            .sum(),
    };
    out.cells.extend(nodes.iter().map(|&i| cell(i)));
    out.points
        .extend(out.cells.iter().map(|&c| GridMap::cell_center(c)));
    out.length = length;
    out.cost = cost;
    Ok(())
}

/// [`astar`] between the cells containing two points (see [`GridMap::cell_at`]). The
/// returned polyline runs through cell centres, from the centre of the start cell to the
/// centre of the goal cell. Non-finite points are [`Error::OutsideMap`].
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::grid::{astar_points, GridMap};
/// let map = GridMap::from_rows(&["...", "..."])?;
/// let p = astar_points(&map, DVec2::new(0.2, 0.9), DVec2::new(2.7, 0.1))?;
/// assert_eq!(p.points, vec![DVec2::new(0.5, 0.5), DVec2::new(1.5, 0.5), DVec2::new(2.5, 0.5)]);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn astar_points(map: &GridMap, start: DVec2, goal: DVec2) -> Result<GridPath> {
    let s = map.check_free_point(start, "start")?;
    let g = map.check_free_point(goal, "goal")?;
    astar(map, s, g)
}

/// The eight king's moves as (dx, dy, diagonal), in the order the searches try them (the
/// open list's tests walk the same moves).
pub(crate) const MOVES: [(i32, i32, bool); 8] = [
    (1, 0, false),
    (-1, 0, false),
    (0, 1, false),
    (0, -1, false),
    (1, 1, true),
    (1, -1, true),
    (-1, 1, true),
    (-1, -1, true),
];

fn check_cell(map: &GridMap, c: IVec2, what: &'static str) -> Result<()> {
    if !map.contains(c.x as i64, c.y as i64) {
        return Err(Error::OutsideMap {
            what,
            x: c.x as f64,
            y: c.y as f64,
            width: map.width(),
            height: map.height(),
        });
    }
    if !map.passable_cell(c) {
        return Err(Error::Blocked {
            what,
            x: c.x as f64,
            y: c.y as f64,
        });
    }
    Ok(())
}

/// Where the route from `start` to `goal` with the most room is narrowest: the route that
/// maximises its least clearance (a bottleneck search: Dijkstra with `min` for `+` and the
/// largest first), and the point where that least clearance is met (a cell centre, or the
/// corner a diagonal step passes), in cell units, with the clearance there. `None` when no
/// route joins them at all (a wall between, or an end on a blocked cell). The ends' own
/// clearance does not count, as in [`astar_clear`].
///
/// What [`astar_clear`] failing for a radius means: the agent needs a clearance of its
/// radius all along, so the widest route's narrowest point is the passage to widen (or
/// the radius to lower below). Cost: O(n log n) in the free cells, once, on failure.
pub(crate) fn narrowest_passage(
    map: &GridMap,
    field: &DistanceField,
    start: IVec2,
    goal: IVec2,
) -> Option<(DVec2, f64)> {
    use std::collections::BinaryHeap;
    if !map.passable_cell(start) || !map.passable_cell(goal) {
        return None;
    }
    let w = map.width();
    let index = |c: IVec2| c.y as usize * w + c.x as usize;
    // The best least clearance found to each cell, and where that least is met.
    let mut best = vec![-1.0f64; w * map.height()];
    let mut at = vec![DVec2::ZERO; w * map.height()];
    best[index(start)] = f64::INFINITY;
    // Clearances are ≥ 0, so their bit patterns order as they do.
    let mut heap = BinaryHeap::from([(f64::INFINITY.to_bits(), index(start))]);
    while let Some((bits, i)) = heap.pop() {
        let width = f64::from_bits(bits);
        if width < best[i] {
            continue;
        }
        let c = IVec2::new((i % w) as i32, (i / w) as i32);
        if c == goal {
            return Some((at[i], width));
        }
        for &(dx, dy, diagonal) in &MOVES {
            let n = c + IVec2::new(dx, dy);
            if !map.passable_cell(n) {
                continue;
            }
            let mut step = if n == goal {
                f64::INFINITY
            } else {
                field.cell_clearance(n.x as i64, n.y as i64)
            };
            let mut place = GridMap::cell_center(n);
            if diagonal {
                let corner = IVec2::new(c.x + dx.max(0), c.y + dy.max(0));
                let room = field.vertex_clearance(corner.x as i64, corner.y as i64);
                if room < step {
                    (step, place) = (room, corner.as_dvec2());
                }
            }
            let (through, where_) = if step < width {
                (step, place)
            } else {
                (width, at[i])
            };
            let j = index(n);
            if through > best[j] {
                best[j] = through;
                at[j] = where_;
                heap.push((through.to_bits(), j));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn diagonal_constant_is_rounded_sqrt2() {
        let exact = std::f64::consts::SQRT_2 * ORTHOGONAL as f64;
        assert!((DIAGONAL as f64 - exact).abs() <= 0.5 + 1e-3);
    }

    #[test]
    fn no_corner_cutting_through_pinch() {
        let map = GridMap::from_rows(&[".@", "@."]).unwrap();
        assert!(matches!(
            astar(&map, IVec2::new(0, 0), IVec2::new(1, 1)),
            Err(Error::Unreachable { .. })
        ));
    }

    proptest! {
        /// The jump point search against A* over every cell (the same rule, radius 0,
        /// no area costs), on random maps of every density, search after search through
        /// one `GridSearch`: the same reachability, the same numbers of straight and
        /// diagonal steps (so the same integer cost), and a path of legal steps.
        #[test]
        fn jump_points_cost_what_a_star_over_every_cell_costs(
            (map, pairs) in (1usize..40, 1usize..40, 0.0f64..0.6).prop_flat_map(|(w, h, p)| {
                let cells = proptest::collection::vec(proptest::bool::weighted(p), w * h);
                let pair = (0..w as i32, 0..h as i32, 0..w as i32, 0..h as i32);
                (cells.prop_map(move |c| GridMap::from_fn(w, h, |x, y| !c[y * w + x])),
                 proptest::collection::vec(pair, 1..6))
            }),
        ) {
            let search = &mut GridSearch::new();
            let (jumped, every) = (&mut GridPath::default(), &mut GridPath::default());
            let rule = MoveRule { map: &map, clear: None };
            let sides = |c: IVec2, dx: i32, dy: i32| rule.diagonal_ok(c, dx, dy);
            for (sx, sy, gx, gy) in pairs {
                let (s, g) = (IVec2::new(sx, sy), IVec2::new(gx, gy));
                if !(map.passable_cell(s) && map.passable_cell(g)) {
                    continue;
                }
                let a = search.astar(&map, s, g, jumped);
                let b = search.run(&rule, s, g, None, None, every);
                prop_assert_eq!(a.is_ok(), b.is_ok());
                if a.is_err() {
                    continue;
                }
                let steps = |p: &GridPath| {
                    let diagonal = p.cells.windows(2).filter(|s| s[0].x != s[1].x && s[0].y != s[1].y).count();
                    (p.cells.len() - 1 - diagonal, diagonal)
                };
                prop_assert_eq!(steps(jumped), steps(every));
                prop_assert_eq!(jumped.cells.first(), Some(&s));
                prop_assert_eq!(jumped.cells.last(), Some(&g));
                for st in jumped.cells.windows(2) {
                    let d = st[1] - st[0];
                    prop_assert!(d != IVec2::ZERO && d.abs().max_element() == 1);
                    prop_assert!(map.passable_cell(st[1]));
                    prop_assert!(d.x == 0 || d.y == 0 || sides(st[0], d.x, d.y));
                }
            }
        }
    }

    #[test]
    fn a_cancelled_search_stops() {
        let rows = vec![".".repeat(64); 64];
        let map = GridMap::from_rows(&rows).unwrap();
        let field = DistanceField::new(&map);
        let (s, g) = (IVec2::ZERO, IVec2::new(63, 63));
        let cancel = Cancel::new();
        let (search, p) = (&mut GridSearch::new(), &mut GridPath::default());
        for cancelled in [false, true] {
            if cancelled {
                cancel.cancel();
            }
            // The jump point search (radius ≤ ½ cell) and the search with clearances.
            for r in [0.0, 0.4, 0.7] {
                let clear = Some((&field, r));
                let found = astar_until(search, &map, clear, [s, g], None, Some(&cancel), p);
                if cancelled {
                    assert_eq!(found, Err(Error::Cancelled));
                } else {
                    assert_eq!((found, p.cells.len()), (Ok(()), 64));
                }
            }
        }
    }

    #[test]
    fn errors() {
        let map = GridMap::from_rows(&["..", ".."]).unwrap();
        assert!(matches!(
            astar(&map, IVec2::new(-1, 0), IVec2::ONE),
            Err(Error::OutsideMap { .. })
        ));
        assert!(matches!(
            astar_points(&map, DVec2::new(0.5, 0.5), DVec2::NAN),
            Err(Error::OutsideMap { .. })
        ));
        let same = astar(&map, IVec2::ONE, IVec2::ONE).unwrap();
        assert_eq!((same.cells.len(), same.length), (1, 0.0));
    }
}
