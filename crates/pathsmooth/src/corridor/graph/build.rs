//! Building the corridor map: clearance, ridge cells, the maximum spanning forest that
//! joins them, thinning (`thin.rs`) and contraction into the compact graph
//! (`contract.rs`). See [`CorridorMap::build`].

use glam::DVec2;
use pathfinding::undirected::kruskal::kruskal_indices;

use super::{
    cell_of, contract, step_ok, thin, CorridorMap, EdgeData, Place, Slot, COST_UNIT, NONE,
};
use crate::grid::distance::DistanceField;
use crate::grid::map::GridMap;

/// The grid neighbours that come after a cell in row-major order (each pair once).
const FORWARD: [(i32, i32); 4] = [(1, 0), (-1, 1), (0, 1), (1, 1)];

impl CorridorMap {
    /// Builds the corridor map of `map` (the steps below). A map without free cells
    /// gives an empty graph, whose queries fail as the start is blocked.
    ///
    /// Geraerts and Overmars take the generalized Voronoi diagram of the obstacles; here it is
    /// approximated on the grid:
    ///
    /// 1. **Clearance.** The exact Euclidean clearance of every free cell centre, from the
    ///    [`DistanceField`] (distance to the blocked squares, not to cell centres).
    /// 2. **Ridge cells.** A free cell is on the ridge of the clearance field when, along one
    ///    of the four axes (horizontal, vertical, both diagonals), its clearance is not below
    ///    either neighbour's and above at least one (blocked cells count as 0). Such cells lie
    ///    within a cell of the medial axis: away from it the clearance is the distance to one
    ///    nearest feature, which grows on at least one side along every axis.
    /// 3. **Connectivity.** Ridge cells alone need not be connected (the discrete ridge breaks
    ///    at saddles, e.g. in doorways). So the maximum spanning forest of the 8-connected free
    ///    grid (A*'s moves, no corner cutting) is taken with edge weight = the smaller
    ///    clearance of the two cells (Kruskal, `pathfinding`), and its leaves that are not ridge
    ///    cells are pruned repeatedly. What remains joins all ridge cells of a free region
    ///    through the widest passages (a maximum spanning tree contains a maximin path between
    ///    every pair of its nodes), and every free region the grid can traverse keeps at least
    ///    one cell.
    /// 4. **Thinning.** The kept cells are up to several cells wide and enclose little pockets
    ///    of free space where the ridge forks; the pockets are filled (a hole without a blocked
    ///    cell is an artefact), then the set is thinned to one cell by distance-ordered
    ///    homotopic thinning (Pudney 1998): cells are removed by increasing clearance while
    ///    their removal changes neither the connectivity nor the loops of the set, seen in the
    ///    3×3 neighbourhood with A*'s moves as adjacency, and end points stay. What remains, the
    ///    *skeleton*, runs along the highest clearance, has one component per free region and
    ///    keeps the kept cells' loops around obstacles, so **whatever is reachable on the grid
    ///    is reachable in the graph**. It is one cell wide except at a rare junction of four arms
    ///    that only a 2×2 block joins without cutting a corner.
    /// 5. **Contraction.** The skeleton cells with other than two skeleton neighbours
    ///    (junctions and end points) are the vertices, with radius = their clearance; each
    ///    chain of two-neighbour cells between two of them is an edge
    ///    ([`CorridorEdge`](super::CorridorEdge): its cells, length, and the smallest exact
    ///    clearance of the segments between consecutive centres, ≥ 0.5). A loop without a
    ///    junction keeps one of its cells as a vertex. Neighbouring disks along a chain
    ///    overlap, except for a diagonal step in a narrow passage (two disks of radius 0.5,
    ///    √2 apart); the disk at the step's midpoint (a grid vertex with four free cells)
    ///    overlaps both, and queries insert it.
    ///
    /// ```
    /// use pathsmooth::corridor::CorridorMap;
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
    use glam::IVec2;

    use super::*;

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
