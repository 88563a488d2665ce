//! Jump point search: the successors A* needs on a uniform-cost grid, with the cells no
//! shortest path needs skipped.
//!
//! Harabor and Grastien, *Online Graph Pruning for Pathfinding on Grid Maps* (AAAI 2011),
//! in the variant without corner cutting of their *Improving Jump Point Search* (ICAPS
//! 2014): a diagonal step needs both side cells free, as in the grid's A*. Of the many
//! shortest paths an open grid has, the search keeps the canonical ones (diagonal steps
//! before straight ones) and expands only their *jump points*: the start, the goal, the
//! cells where a straight run passes an obstacle's end (a side cell is free while the cell
//! behind it is not: the canonical path there must turn here), and the cells of a diagonal
//! run from which a straight run finds one. Between two jump points the path is one
//! straight or diagonal line; its cost is the sum of the steps' integer costs, so the
//! path's cost is exactly the one A* over every cell finds (the grid's tests compare them
//! on random and real maps), while the cells it expands are few: a straight corridor is
//! one scan of cell look-ups, not a heap entry per cell.
//!
//! Only for unit costs (areas with other costs need every cell's weight) and for free
//! cells given by a predicate whose diagonal rule is "both side cells free".

use glam::IVec2;

use super::{DIAGONAL, ORTHOGONAL};

/// The jump-point successors of cells of a `width`-wide grid whose free cells `free`
/// gives (outside the grid: not free), for a search towards `goal`.
pub(crate) struct Jumps<F> {
    pub(crate) free: F,
    pub(crate) width: usize,
    pub(crate) goal: IVec2,
}

impl<F: Fn(i32, i32) -> bool> Jumps<F> {
    /// Calls `push(jump point, cost)` for each jump point reached from `cell` (a cell
    /// index) whose search parent is `parent` (`None` at the start: every direction).
    pub(crate) fn successors(
        &self,
        cell: usize,
        parent: Option<usize>,
        push: &mut dyn FnMut(usize, u64),
    ) {
        let c = self.cell(cell);
        let Some(parent) = parent else {
            for d in KING {
                self.jump_towards(c, d, push);
            }
            return;
        };
        let d = (c - self.cell(parent)).signum();
        if d.x != 0 && d.y != 0 {
            // A diagonal run goes on, or turns into its two straight runs; with no corner
            // cutting no other cell is forced.
            self.jump_towards(c, d, push);
            self.jump_towards(c, IVec2::new(d.x, 0), push);
            self.jump_towards(c, IVec2::new(0, d.y), push);
            return;
        }
        self.jump_towards(c, d, push);
        // A straight run stopped here because a side cell is free where the cell behind it
        // is not: that side, and the diagonal towards it, are the canonical ways on.
        let side = IVec2::new(d.y, d.x);
        for s in [side, -side] {
            if self.forced(c, d, s) {
                self.jump_towards(c, s, push);
                self.jump_towards(c, d + s, push);
            }
        }
    }

    /// Pushes the jump point that the run from `c` in direction `d` reaches, if any, with
    /// the run's cost.
    fn jump_towards(&self, c: IVec2, d: IVec2, push: &mut dyn FnMut(usize, u64)) {
        if let Some((to, steps)) = self.jump(c, d) {
            let step = if d.x != 0 && d.y != 0 {
                DIAGONAL
            } else {
                ORTHOGONAL
            };
            push(self.index(to), steps as u64 * step);
        }
    }

    /// The first jump point of the run from `c` in direction `d`, and its number of steps.
    fn jump(&self, c: IVec2, d: IVec2) -> Option<(IVec2, u32)> {
        if d.x != 0 && d.y != 0 {
            self.jump_diagonal(c, d)
        } else {
            self.jump_straight(c, d)
        }
    }

    /// A straight run: the first cell that is the goal or has a forced neighbour (a side
    /// cell free, the cell behind it blocked); `None` at a blocked cell.
    fn jump_straight(&self, mut c: IVec2, d: IVec2) -> Option<(IVec2, u32)> {
        let side = IVec2::new(d.y, d.x);
        let mut steps = 0;
        loop {
            c += d;
            steps += 1;
            if !self.open(c) {
                return None;
            }
            if c == self.goal || self.forced(c, d, side) || self.forced(c, d, -side) {
                return Some((c, steps));
            }
        }
    }

    /// A diagonal run: steps while both side cells are free; the first cell that is the
    /// goal or from which either straight run finds a jump point.
    fn jump_diagonal(&self, mut c: IVec2, d: IVec2) -> Option<(IVec2, u32)> {
        let (dx, dy) = (IVec2::new(d.x, 0), IVec2::new(0, d.y));
        let mut steps = 0;
        loop {
            if !(self.open(c + dx) && self.open(c + dy) && self.open(c + d)) {
                return None;
            }
            c += d;
            steps += 1;
            if c == self.goal
                || self.jump_straight(c, dx).is_some()
                || self.jump_straight(c, dy).is_some()
            {
                return Some((c, steps));
            }
        }
    }

    fn open(&self, v: IVec2) -> bool {
        (self.free)(v.x, v.y)
    }

    /// True when a run in direction `d` reaching `c` has a forced neighbour on side `s`:
    /// the side cell is free where the cell behind it is not, so a shortest path there
    /// must turn at `c`.
    fn forced(&self, c: IVec2, d: IVec2, s: IVec2) -> bool {
        self.open(c + s) && !self.open(c - d + s)
    }

    fn cell(&self, i: usize) -> IVec2 {
        IVec2::new((i % self.width) as i32, (i / self.width) as i32)
    }

    fn index(&self, c: IVec2) -> usize {
        c.y as usize * self.width + c.x as usize
    }
}

/// The eight directions, straight first.
const KING: [IVec2; 8] = [
    IVec2::new(1, 0),
    IVec2::new(-1, 0),
    IVec2::new(0, 1),
    IVec2::new(0, -1),
    IVec2::new(1, 1),
    IVec2::new(1, -1),
    IVec2::new(-1, 1),
    IVec2::new(-1, -1),
];

/// Appends to `cells` the cells of the path through the jump points `points` (cell
/// indices of a `width`-wide grid; consecutive ones on one straight or diagonal line),
/// each a king's move from the one before.
pub(crate) fn fill_in(points: &[usize], width: usize, cells: &mut Vec<usize>) {
    let at = |i: usize| IVec2::new((i % width) as i32, (i / width) as i32);
    if let Some(&first) = points.first() {
        cells.push(first);
    }
    for pair in points.windows(2) {
        let (a, b) = (at(pair[0]), at(pair[1]));
        let d = (b - a).signum();
        debug_assert!((b - a).x.abs() == (b - a).y.abs() || d.x == 0 || d.y == 0);
        let mut c = a;
        while c != b {
            c += d;
            cells.push(c.y as usize * width + c.x as usize);
        }
    }
}
