//! The grid search's A* loop over dense arrays that the caller's search owns.
//!
//! The `pathfinding` crate's `astar` keeps each reached node's parent and cost in a hash
//! map, which costs a hash and often a resize per node; on a grid the node is a cell index,
//! so arrays indexed by cell do the same job with a load. This is that loop, step for step:
//! the same open list (a binary heap ordered by estimated cost, then by the larger cost so
//! far), the same pushes in the same order, the same stale-entry test and the same success
//! test at each pop, so it pops the same cells and returns the same path as
//! `pathfinding::directed::astar::astar` (Hart, Nilsson, Raphael, *A Formal Basis for the
//! Heuristic Determination of Minimum Cost Paths*, 1968) — the grid tests compare the two.
//!
//! Memory: 8 bytes plus two costs per cell of the largest map an [`OpenList`] searched
//! (24 bytes with `u64` costs), kept and reused by every later search (stamps tell this
//! search's cells from an earlier one's, so nothing is cleared between searches). Cells are
//! `u32` indices: a map holds at most 2²⁸ cells (`MAX_MAP_SIDE`²).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fmt::Debug;
use std::ops::Add;

/// A search's integer cost: `u64` where it cannot overflow (the grid search without area
/// costs), `u128` where it could (with them). The smaller type makes an open-list entry
/// 24 bytes instead of 48, and the heap moves half as much.
pub(crate) trait Cost: Copy + Ord + Default + Debug + Add<Output = Self> {}

impl Cost for u64 {}
impl Cost for u128 {}

/// One entry of the open list.
#[derive(Debug, Clone, Copy)]
struct Open<C> {
    estimated: C,
    cost: C,
    cell: u32,
}

// As `pathfinding`'s `SmallestCostHolder`: the heap's top is the smallest estimate, of
// equal estimates the largest cost so far; the cell takes no part.
impl<C: Cost> PartialEq for Open<C> {
    fn eq(&self, o: &Self) -> bool {
        self.estimated == o.estimated && self.cost == o.cost
    }
}

impl<C: Cost> Eq for Open<C> {}

impl<C: Cost> PartialOrd for Open<C> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<C: Cost> Ord for Open<C> {
    fn cmp(&self, o: &Self) -> Ordering {
        o.estimated
            .cmp(&self.estimated)
            .then(self.cost.cmp(&o.cost))
    }
}

/// A search's arrays: per cell, the stamp of the search that reached it, its cost and its
/// parent; and the open list.
#[derive(Debug, Default)]
pub(crate) struct OpenList<C> {
    stamp: u32,
    reached: Vec<u32>,
    cost: Vec<C>,
    parent: Vec<u32>,
    open: BinaryHeap<Open<C>>,
}

impl<C: Cost> OpenList<C> {
    /// Writes into `path` (cleared first) the cells of a cheapest path from `start` to the
    /// first popped cell that `success` accepts, over `cells` cells, with
    /// `successors(cell, parent, push)` calling `push(next, step)` for each neighbour of
    /// `cell` (reached from `parent`, `None` at the start) and
    /// `heuristic(cell)` a consistent estimate; false (and `path` empty) when none is
    /// accepted. See the module docs.
    pub(crate) fn astar(
        &mut self,
        cells: usize,
        start: usize,
        mut successors: impl FnMut(usize, Option<usize>, &mut dyn FnMut(usize, C)),
        heuristic: impl Fn(usize) -> C,
        mut success: impl FnMut(usize) -> bool,
        path: &mut Vec<usize>,
    ) -> bool {
        const NONE: u32 = u32::MAX;
        debug_assert!(cells < NONE as usize, "cell indices are u32");
        path.clear();
        let s = self;
        if s.reached.len() < cells {
            // Fresh zeroed arrays (the allocator's zeroed pages: a first search on a large
            // map touches only the cells it reaches). Zero is no search's stamp.
            s.reached = vec![0; cells];
            s.cost = vec![C::default(); cells];
            s.parent = vec![0; cells];
        }
        s.stamp = s.stamp.wrapping_add(1);
        if s.stamp == 0 {
            s.reached.fill(0);
            s.stamp = 1;
        }
        let stamp = s.stamp;
        s.open.clear();
        s.reached[start] = stamp;
        s.cost[start] = C::default();
        s.parent[start] = NONE;
        s.open.push(Open {
            estimated: C::default(),
            cost: C::default(),
            cell: start as u32,
        });
        while let Some(Open { cost, cell, .. }) = s.open.pop() {
            let cell = cell as usize;
            if success(cell) {
                path.push(cell);
                let mut at = cell;
                while s.parent[at] != NONE {
                    at = s.parent[at] as usize;
                    path.push(at);
                }
                path.reverse();
                return true;
            }
            // A cell pushed again with a lower cost leaves stale entries behind.
            if cost > s.cost[cell] {
                continue;
            }
            let (reached, costs, parent, open) =
                (&mut s.reached, &mut s.cost, &mut s.parent, &mut s.open);
            let from = (parent[cell] != NONE).then_some(parent[cell] as usize);
            successors(cell, from, &mut |next, step| {
                let new_cost = cost + step;
                if reached[next] == stamp && costs[next] <= new_cost {
                    return;
                }
                reached[next] = stamp;
                costs[next] = new_cost;
                parent[next] = cell as u32;
                open.push(Open {
                    estimated: new_cost + heuristic(next),
                    cost: new_cost,
                    cell: next as u32,
                });
            });
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::astar::MOVES;
    use proptest::prelude::*;

    /// 8-connected moves with costs 2 and 3 (so ties abound) on a `w`-wide grid of `free`
    /// cells, and the octile estimate: the same search through both loops.
    fn both(
        list: &mut OpenList<u128>,
        w: usize,
        free: &[bool],
        start: usize,
        goal: usize,
    ) -> (Option<Vec<usize>>, Option<Vec<usize>>) {
        let h = free.len() / w;
        let neighbours = |i: usize| {
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            let mut out = Vec::new();
            for &(dx, dy, diagonal) in &MOVES {
                let (nx, ny) = (x + i64::from(dx), y + i64::from(dy));
                if nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h {
                    let n = ny as usize * w + nx as usize;
                    if free[n] {
                        out.push((n, if diagonal { 3u128 } else { 2 }));
                    }
                }
            }
            out
        };
        let heuristic = |i: usize| {
            let (dx, dy) = (
                (i % w).abs_diff(goal % w) as u128,
                (i / w).abs_diff(goal / w) as u128,
            );
            2 * dx.max(dy) + dx.min(dy)
        };
        let mut path = Vec::new();
        let found = list.astar(
            free.len(),
            start,
            |i, _, push| neighbours(i).into_iter().for_each(|(n, c)| push(n, c)),
            heuristic,
            |i| i == goal,
            &mut path,
        );
        let ours = found.then_some(path);
        let theirs = pathfinding::prelude::astar(
            &start,
            |&i| neighbours(i),
            |&i| heuristic(i),
            |&i| i == goal,
        )
        .map(|(p, _)| p);
        (ours, theirs)
    }

    proptest! {
        /// The same paths as `pathfinding`'s A*, ties and all, search after search with one
        /// open list (the stamps keep earlier searches out).
        #[test]
        fn pops_the_same_cells_as_pathfinding(
            (w, free) in (1usize..24, 1usize..24).prop_flat_map(|(w, h)| {
                (Just(w), proptest::collection::vec(proptest::bool::weighted(0.75), w * h))
            }),
            ends in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0), 1..6),
        ) {
            let mut list = OpenList::default();
            for (a, b) in ends {
                let (start, goal) = ((a * free.len() as f64) as usize, (b * free.len() as f64) as usize);
                let (ours, theirs) = both(&mut list, w, &free, start, goal);
                prop_assert_eq!(ours, theirs);
            }
        }
    }

    #[test]
    fn a_bigger_map_after_a_smaller_one_and_no_way_through() {
        let (w, mut free) = (5, vec![true; 25]);
        let list = &mut OpenList::default();
        assert_eq!(both(list, w, &free, 0, 24).0.map(|p| p.len()), Some(5));
        free[2..25].iter_mut().step_by(5).for_each(|f| *f = false); // column 2 closed
        let (ours, theirs) = both(list, w, &free, 0, 24);
        assert_eq!((ours.clone(), theirs), (None, None));
        let big = vec![true; 40 * 40];
        assert_eq!(
            both(list, 40, &big, 0, 40 * 40 - 1).0.map(|p| p.len()),
            Some(40)
        );
        assert_eq!(ours, None);
    }
}
