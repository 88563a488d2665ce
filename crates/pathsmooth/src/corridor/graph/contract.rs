//! Contraction of the one-cell-wide skeleton into the compact graph: the vertices are the
//! skeleton cells whose degree (number of skeleton neighbours the grid can step to) is not
//! 2 — junctions and end points — and each chain of degree-2 cells between two of them
//! becomes one edge. A loop of degree-2 cells without a junction keeps its first cell (in
//! row-major order) as a vertex, with the loop as an edge from it to itself. Cost: linear
//! in the number of skeleton cells (each is walked once).

use super::{cell_of, step_ok, NONE};
use crate::grid::map::GridMap;

/// The skeleton as vertices and chains, in map cell indices (row-major).
pub(super) struct Contracted {
    /// The cell of each vertex.
    pub vertex_cells: Vec<usize>,
    /// Each edge: its chain of cells, first and last being its end vertices' cells.
    pub chains: Vec<Vec<usize>>,
}

/// The skeleton neighbours of cell `i` (grid moves between skeleton cells).
pub(super) fn skeleton_neighbours<'a>(
    map: &'a GridMap,
    skeleton: &'a [bool],
    i: usize,
) -> impl Iterator<Item = usize> + 'a {
    let w = map.width();
    let c = cell_of(i, w);
    (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter(move |&(dx, dy)| (dx, dy) != (0, 0) && step_ok(map, c, dx, dy))
        .map(move |(dx, dy)| (c.y + dy) as usize * w + (c.x + dx) as usize)
        .filter(move |&j| skeleton[j])
}

/// Contracts the skeleton (see the module doc).
pub(super) fn contract(map: &GridMap, skeleton: &[bool]) -> Contracted {
    let degree: Vec<u8> = (0..skeleton.len())
        .map(|i| {
            if skeleton[i] {
                skeleton_neighbours(map, skeleton, i).count() as u8
            } else {
                0
            }
        })
        .collect();
    let mut vertex_of = vec![NONE; skeleton.len()];
    let mut vertex_cells = Vec::new();
    for i in (0..skeleton.len()).filter(|&i| skeleton[i] && degree[i] != 2) {
        vertex_of[i] = vertex_cells.len() as u32;
        vertex_cells.push(i);
    }
    // Interior cells already on a chain (each chain is found from both of its ends).
    let mut walked = vec![false; skeleton.len()];
    let mut chains = Vec::new();
    let mut next_vertex = 0;
    // Cells before `scan` are all on a chain or a vertex.
    let mut scan = 0;
    loop {
        while next_vertex < vertex_cells.len() {
            let v = vertex_cells[next_vertex];
            for n in skeleton_neighbours(map, skeleton, v) {
                if vertex_of[n] != NONE {
                    // Two adjacent vertices: one edge, found from its lower cell.
                    if v < n {
                        chains.push(vec![v, n]);
                    }
                } else if !walked[n] {
                    chains.push(walk(map, skeleton, &vertex_of, &mut walked, v, n));
                }
            }
            next_vertex += 1;
        }
        // What is left unwalked are loops of degree-2 cells: each gets one vertex.
        let unwalked = |i: &usize| skeleton[*i] && vertex_of[*i] == NONE && !walked[*i];
        let Some(i) = (scan..skeleton.len()).find(unwalked) else {
            break;
        };
        scan = i + 1;
        vertex_of[i] = vertex_cells.len() as u32;
        vertex_cells.push(i);
    }
    Contracted {
        vertex_cells,
        chains,
    }
}

/// The chain from vertex cell `v` through its degree-2 neighbour `first` to the next vertex
/// cell (possibly `v` again), marking its interior cells walked.
fn walk(
    map: &GridMap,
    skeleton: &[bool],
    vertex_of: &[u32],
    walked: &mut [bool],
    v: usize,
    first: usize,
) -> Vec<usize> {
    let mut chain = vec![v, first];
    let (mut prev, mut cur) = (v, first);
    while vertex_of[cur] == NONE {
        walked[cur] = true;
        // A degree-2 cell: its other neighbour continues the chain.
        let next = skeleton_neighbours(map, skeleton, cur)
            .find(|&n| n != prev)
            .expect("a degree-2 cell has a second neighbour");
        chain.push(next);
        (prev, cur) = (cur, next);
    }
    chain
}
