//! Adjacency from shared edges — by vertex indices, never by plan-view geometry, so floors
//! may overlap in plan view — and the checks that need every polygon at once: non-manifold
//! edges, folds, T-junctions.

use glam::DVec3;
use rustc_hash::FxHashMap;

use super::issue::Issue;
use super::point_tree::PointTree;
use crate::cancel::{Cancel, Checkpoint};
use crate::error::num;
use crate::geometry::closest_on_segment;

/// Marks an edge with no polygon across it (a wall).
pub(crate) const NO_POLY: u32 = u32::MAX;

/// Who uses an edge, keyed by its sorted vertex pair: one polygon (polygon, slot in the
/// flat ring array), two on opposite sides, or something no surface has.
#[derive(Clone, Copy)]
enum Users {
    One(u32, u32),
    Two,
    /// Three or more polygons, or two on the same side: left unjoined.
    Ambiguous,
}

/// The adjacency of a surface's polygons and what it could not join.
pub(crate) struct Adjacency {
    /// The neighbour across every edge slot, or [`NO_POLY`].
    pub neighbors: Vec<u32>,
    /// Edges left as walls: used by three or more polygons (non-manifold), or by two
    /// polygons running the same way (both on the same side of it: overlapping).
    pub unjoined: usize,
    /// The first of them: its vertices and the polygon that found it ambiguous (input
    /// indices).
    pub example: Option<([u32; 2], u32)>,
}

/// The neighbour across every edge slot of the flat rings (`ring[start[p]..start[p + 1]]`
/// is polygon `p`, counter-clockwise in plan view; slot `k` is the edge from `ring[k]` to
/// the next vertex of its polygon), or [`NO_POLY`]. One hash-map entry per edge: O(total
/// ring length).
///
/// An edge used by exactly two polygons running opposite ways joins them. One used by
/// three or more (non-manifold), or by two running the same way (both on the same side
/// of it: the surface folds over itself or two polygons overlap), joins nobody: it stays a
/// wall for all of them, as Godot's navigation server leaves such edges, and is counted.
///
/// `names[v]` is the input index of welded vertex `v`, and `polys[p]` that of polygon `p`,
/// which the example names.
pub(crate) fn adjacency(start: &[u32], ring: &[u32], names: &[u32], polys: &[u32]) -> Adjacency {
    let mut edges: FxHashMap<(u32, u32), Users> = FxHashMap::default();
    edges.reserve(ring.len());
    let mut neighbors = vec![NO_POLY; ring.len()];
    let (mut unjoined, mut example) = (0, None);
    let next = |k: usize, s: usize, e: usize| if k + 1 == e { s } else { k + 1 };
    for p in 0..start.len() - 1 {
        let (s, e) = (start[p] as usize, start[p + 1] as usize);
        for k in s..e {
            let (a, b) = (ring[k], ring[next(k, s, e)]);
            let key = (a.min(b), a.max(b));
            let users = edges.entry(key).or_insert(Users::One(p as u32, k as u32));
            match *users {
                Users::One(q, slot) if q == p as u32 && slot == k as u32 => {}
                Users::One(q, slot) => {
                    if ring[slot as usize] == a {
                        // The same way round: on the same side.
                        *users = Users::Ambiguous;
                    } else {
                        *users = Users::Two;
                        neighbors[slot as usize] = p as u32;
                        neighbors[k] = q;
                        continue;
                    }
                    unjoined += 1;
                    example.get_or_insert(([names[a as usize], names[b as usize]], polys[p]));
                }
                Users::Two => {
                    *users = Users::Ambiguous;
                    unjoined += 1;
                    example.get_or_insert(([names[a as usize], names[b as usize]], polys[p]));
                }
                Users::Ambiguous => {}
            }
        }
    }
    // Undo the joins of edges that turned out ambiguous.
    if unjoined > 0 {
        for p in 0..start.len() - 1 {
            let (s, e) = (start[p] as usize, start[p + 1] as usize);
            for k in s..e {
                let (a, b) = (ring[k], ring[next(k, s, e)]);
                if matches!(edges[&(a.min(b), a.max(b))], Users::Ambiguous) {
                    neighbors[k] = NO_POLY;
                }
            }
        }
    }
    Adjacency {
        neighbors,
        unjoined,
        example,
    }
}

/// A vertex inside an edge of a polygon without being one of its corners.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Junction {
    /// The polygon whose edge it is.
    pub polygon: usize,
    /// The edge's slot in the flat ring array (the edge from `ring[slot]` to the next
    /// corner).
    pub slot: usize,
    /// The welded vertex on the edge.
    pub vertex: u32,
    /// Where along the edge, from 0 at `ring[slot]` to 1 at the next corner.
    pub along: f64,
    /// Its 3D distance from the edge.
    pub distance: f64,
}

/// Calls `found` for each T-junction: a vertex lying inside an edge of a polygon (in 3D,
/// within `reach` of it and farther than `reach` from both ends) without being one of its
/// corners. The polygons on the two sides then share no edge, so adjacency would silently
/// miss them. Stops when `found` returns `false`.
///
/// With `both_sides` false, an edge shared by two polygons is checked once, from its lower
/// polygon (enough to refuse); with it true, from both (splitting must split both).
///
/// The vertices go into a k-d tree ([`PointTree`]); each edge visits the tree's boxes
/// that its segment meets (grown by twice `reach`, far above the rounding of the
/// coordinates, as `reach` is at least the tolerance at their magnitude), then measures
/// the 3D distance of the vertices there. An edge's junctions are reported in increasing
/// vertex order. O(n log n) to build, and per edge O(log n) plus the vertices near it,
/// whatever the layout: floors stacked over each other, long edges by short ones, one
/// vertex in every polygon.
///
/// Errors: [`Issue::cancelled`] when `cancel` is, read every
/// [`CHECK_EVERY`](crate::cancel::CHECK_EVERY) vertices tested.
pub(crate) fn t_junctions(
    frame: &[DVec3],
    start: &[u32],
    ring: &[u32],
    neighbors: &[u32],
    (reach, both_sides): (f64, bool),
    cancel: Option<&Cancel>,
    mut found: impl FnMut(Junction) -> bool,
) -> Result<(), Issue> {
    let tree = PointTree::new(frame);
    let mut checkpoint = Checkpoint::new(cancel);
    let mut here: Vec<Junction> = Vec::new();
    for p in 0..start.len() - 1 {
        let (s, e) = (start[p] as usize, start[p + 1] as usize);
        for k in s..e {
            let (a, b) = (ring[k], ring[if k + 1 == e { s } else { k + 1 }]);
            if !both_sides && neighbors[k] != NO_POLY && (neighbors[k] as usize) < p {
                continue;
            }
            let (fa, fb) = (frame[a as usize], frame[b as usize]);
            here.clear();
            tree.for_each_near_segment(fa, fb, 2.0 * reach, |v| {
                if checkpoint.stop() || v == a || v == b {
                    return;
                }
                let q = frame[v as usize];
                let (c, along) = closest_on_segment(q, fa, fb);
                let distance = c.distance(q);
                if distance <= reach && q.distance(fa) > reach && q.distance(fb) > reach {
                    here.push(Junction {
                        polygon: p,
                        slot: k,
                        vertex: v,
                        along,
                        distance,
                    });
                }
            });
            if checkpoint.stopped() {
                return Err(Issue::cancelled());
            }
            here.sort_unstable_by_key(|j| j.vertex);
            for &j in &here {
                if !found(j) {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

/// Refuses the first T-junction (see [`t_junctions`]), naming the vertex and the edge.
///
/// `names.0[v]` is the input index of welded vertex `v` and `names.1[p]` that of polygon
/// `p`, which the message names. Errors: that T-junction; [`Issue::cancelled`].
pub(crate) fn t_junction(
    frame: &[DVec3],
    start: &[u32],
    ring: &[u32],
    neighbors: &[u32],
    names: (&[u32], &[u32]),
    reach: f64,
    cancel: Option<&Cancel>,
) -> Result<(), Issue> {
    let mut first = None;
    t_junctions(frame, start, ring, neighbors, (reach, false), cancel, |j| {
        first = Some(j);
        false
    })?;
    match first {
        None => Ok(()),
        Some(j) => Err(junction_issue(j, start, ring, names)),
    }
}

/// The error for T-junction `j`; `names` as for [`t_junction`].
pub(crate) fn junction_issue(
    j: Junction,
    start: &[u32],
    ring: &[u32],
    (names, polys): (&[u32], &[u32]),
) -> Issue {
    let next = if j.slot + 1 == start[j.polygon + 1] as usize {
        start[j.polygon] as usize
    } else {
        j.slot + 1
    };
    let p = polys[j.polygon] as usize;
    Issue::polygon(
        p,
        format!(
            "vertex {} lies on the edge of polygon {p} from vertex {} to vertex {} \
             ({} from it) without being one of its corners: a T-junction (split the \
             edge at that vertex so the polygons share edges, or build with \
             `SurfaceOptions::split_t_junctions`)",
            names[j.vertex as usize],
            names[ring[j.slot] as usize],
            names[ring[next] as usize],
            num(j.distance)
        ),
    )
}
