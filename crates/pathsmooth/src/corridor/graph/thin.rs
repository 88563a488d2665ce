//! Thinning of the kept cells to a one-cell-wide skeleton with the same topology, in order
//! of increasing clearance so that what survives follows the highest clearance (the medial
//! axis): distance-ordered homotopic thinning after Pudney, "Distance-ordered homotopic
//! thinning: a skeletonization algorithm for 3D digital images", Computer Vision and Image
//! Understanding 72(3), 404–413, 1998, in 2D and with the grid's own adjacency.
//!
//! **Adjacency.** Kept cells are adjacent when grid A* can step between them: always
//! across a side, diagonally only when both side cells are free on the map (no corner
//! cutting). The rest (blocked cells, free cells not kept, outside the map) is adjacent
//! across a side, and diagonally unless the other diagonal of that 2×2 block is a pair of
//! adjacent kept cells. So in every 2×2 block exactly one of the two diagonals connects
//! (the usual 8/4 pair of digital topology, chosen block by block), and a curve of kept
//! cells and a curve of the rest can never cross without meeting.
//!
//! **Simple cells.** A kept cell is *simple* when, among its eight neighbours, the kept
//! cells adjacent to it form exactly one component and so do the others adjacent to it
//! (both counted in the neighbourhood, with the adjacency above). Removing a simple cell
//! neither disconnects the kept cells nor merges or opens a hole, so it keeps the number of
//! components and of loops (Rosenfeld's local characterisation, "Connectivity in digital
//! pictures", JACM 17(1), 1970). A cell with one kept neighbour (an end point) is kept, so
//! branches keep their length; an isolated cell is not simple, so no component vanishes.
//!
//! **Order.** Cells are popped from a priority queue by increasing clearance (ties by
//! index, so the result is deterministic); a removed cell queues its kept neighbours again,
//! whose neighbourhood changed. When the queue empties no kept cell is both simple and not
//! an end point. Cost: O(k log k) for k kept cells, each test a fixed 3×3 look-up.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::grid::map::GridMap;

/// The eight neighbours in cyclic order (so consecutive entries share a side); even entries
/// are the side neighbours, odd ones the corners between them.
const RING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Fills the holes of the kept cells that hold no blocked cell: the free cells that no
/// side-to-side walk through cells not kept reaches from a blocked cell or the map's
/// border. The ridge encloses such pockets where it branches (an empty room's ridge is a
/// line with a fork at each end, and the discrete forks close little rings); thinning keeps
/// every hole, so without this the skeleton would loop around nothing. Filling only adds
/// free cells, so the kept cells stay connected and every hole around an obstacle remains.
/// Cost: one flood fill, O(cells).
pub(super) fn fill_holes(map: &GridMap, keep: &mut [bool]) {
    let (w, h) = (map.width(), map.height());
    let mut reached = vec![false; keep.len()];
    // Blocked cells and free border cells not kept: both touch the blocked region.
    let mut stack: Vec<usize> = (0..keep.len())
        .filter(|&i| {
            // On the border exactly when a side leaves the map.
            let border = side_neighbours(i, w, h).contains(&None);
            !keep[i] && (!map.cells()[i] || border)
        })
        .collect();
    for &i in &stack {
        reached[i] = true;
    }
    while let Some(i) = stack.pop() {
        for j in side_neighbours(i, w, h).into_iter().flatten() {
            if !keep[j] && !reached[j] {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    for (k, r) in keep.iter_mut().zip(&reached) {
        *k |= !r;
    }
}

/// The cells across the four sides of cell `i` (row-major, `w` × `h`), where inside.
pub(super) fn side_neighbours(i: usize, w: usize, h: usize) -> [Option<usize>; 4] {
    let (x, y) = (i % w, i / w);
    [
        (x > 0).then(|| i - 1),
        (x + 1 < w).then(|| i + 1),
        (y > 0).then(|| i - w),
        (y + 1 < h).then(|| i + w),
    ]
}

/// Thins `keep` in place (see the module doc). `clear` is the clearance of every cell
/// (row-major), `keep` ⊆ the free cells of `map`.
pub(super) fn thin(map: &GridMap, clear: &[f64], keep: &mut [bool]) {
    let w = map.width();
    let mut queued = keep.to_vec();
    // Clearances are ≥ 0, so their bits order like the numbers.
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = keep
        .iter()
        .enumerate()
        .filter(|&(_, &k)| k)
        .map(|(i, _)| Reverse((clear[i].to_bits(), i)))
        .collect();
    while let Some(Reverse((_, i))) = heap.pop() {
        queued[i] = false;
        let (x, y) = ((i % w) as i64, (i / w) as i64);
        if !keep[i] || !removable(map, keep, x, y) {
            continue;
        }
        keep[i] = false;
        for (dx, dy) in RING {
            let (nx, ny) = (x + dx as i64, y + dy as i64);
            if map.contains(nx, ny) {
                let j = ny as usize * w + nx as usize;
                if keep[j] && !queued[j] {
                    queued[j] = true;
                    heap.push(Reverse((clear[j].to_bits(), j)));
                }
            }
        }
    }
}

/// The 3×3 neighbourhood of cell (x, y): which ring cells are kept and which are free.
fn neighbourhood(map: &GridMap, keep: &[bool], x: i64, y: i64) -> ([bool; 8], [bool; 8]) {
    let w = map.width();
    let mut kept = [false; 8];
    let mut free = [false; 8];
    for (k, (dx, dy)) in RING.iter().enumerate() {
        let (nx, ny) = (x + *dx as i64, y + *dy as i64);
        free[k] = map.is_passable(nx, ny);
        kept[k] = free[k] && keep[ny as usize * w + nx as usize];
    }
    (kept, free)
}

/// True when the kept cell (x, y) is simple and not an end point.
pub(super) fn removable(map: &GridMap, keep: &[bool], x: i64, y: i64) -> bool {
    let (kept, free) = neighbourhood(map, keep, x, y);
    let touching = (0..8).filter(|&k| kept[k] && kept_touches_centre(&free, k));
    touching.count() >= 2 && is_simple(&kept, &free)
}

/// Kept ring cell `k` is adjacent to the (kept) centre: across a side, or diagonally with
/// both side cells free.
fn kept_touches_centre(free: &[bool; 8], k: usize) -> bool {
    k.is_multiple_of(2) || (free[k - 1] && free[(k + 1) % 8])
}

/// The simple-cell test of the module doc for a kept centre with this neighbourhood.
pub(super) fn is_simple(kept: &[bool; 8], free: &[bool; 8]) -> bool {
    let fg = components(
        |k| kept[k],
        |a, b| {
            // Side-sharing pairs always; two side neighbours (a diagonal pair, whose side
            // cells are the centre and the corner between them) when that corner is free.
            b == (a + 1) % 8 || (a.is_multiple_of(2) && b == (a + 2) % 8 && free[a + 1])
        },
        |k| kept_touches_centre(free, k),
    );
    let bg = components(
        |k| !kept[k],
        |a, b| {
            // The diagonal pair of side neighbours connects unless the centre and the
            // corner between them are adjacent kept cells.
            b == (a + 1) % 8
                || (a.is_multiple_of(2) && b == (a + 2) % 8 && !(kept[a + 1] && free[a] && free[b]))
        },
        // A corner touches the centre unless its two side cells are adjacent kept cells
        // (side cells that are not kept join it to the centre across a side anyway).
        |k| k.is_multiple_of(2) || !(kept[k - 1] && kept[(k + 1) % 8] && free[k]),
    );
    fg == 1 && bg == 1
}

/// Number of components of the ring cells `member`, under `adjacent(a, b)` (asked for
/// a < b in cyclic order: b = a + 1 or a + 2 mod 8), that contain a cell touching the centre.
fn components(
    member: impl Fn(usize) -> bool,
    adjacent: impl Fn(usize, usize) -> bool,
    touches: impl Fn(usize) -> bool,
) -> usize {
    // Union-find on eight cells.
    let mut parent = [0usize, 1, 2, 3, 4, 5, 6, 7];
    fn root(parent: &mut [usize; 8], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    for a in 0..8 {
        for b in [(a + 1) % 8, (a + 2) % 8] {
            if member(a) && member(b) && adjacent(a, b) {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra] = rb;
            }
        }
    }
    let mut seen = [false; 8];
    let mut count = 0;
    for k in (0..8).filter(|&k| member(k) && touches(k)) {
        let r = root(&mut parent, k);
        if !seen[r] {
            seen[r] = true;
            count += 1;
        }
    }
    count
}
