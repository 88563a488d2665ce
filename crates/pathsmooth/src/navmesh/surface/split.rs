//! Splitting T-junctions on import: a vertex lying inside another polygon's edge becomes a
//! corner of that polygon, so the polygons on the two sides share the sub-edges and are
//! joined, as the geometry says. Recast leaves such vertices now and then (Detour then
//! leaves the edge unlinked).

use glam::DVec3;

use super::issue::Issue;
use super::topology::{junction_issue, t_junctions, Junction};
use crate::cancel::Cancel;

/// Inserts every T-junction vertex (see [`t_junctions`]; within `reach` of the edge) into
/// the edge it lies on, in order along the edge, rewriting `start` and `ring` in place.
/// `neighbors` is the adjacency before splitting (an edge shared by two polygons is split
/// in both). Returns how many corners were inserted; the caller recomputes the adjacency.
///
/// The inserted vertex is within `reach` of the edge, so the polygon stays convex and on
/// its plane to within the tolerance the check used. A vertex that is already a corner
/// of the polygon elsewhere (only possible in a degenerate polygon) is refused as the
/// T-junction it is, naming it; `names` as for
/// [`t_junction`](super::topology::t_junction). Errors: that T-junction;
/// [`Issue::cancelled`] when `cancel` is.
pub(crate) fn split_t_junctions(
    frame: &[DVec3],
    start: &mut Vec<u32>,
    ring: &mut Vec<u32>,
    neighbors: &[u32],
    names: (&[u32], &[u32]),
    (reach, cancel): (f64, Option<&Cancel>),
) -> Result<usize, Issue> {
    let mut found: Vec<Junction> = Vec::new();
    t_junctions(frame, start, ring, neighbors, (reach, true), cancel, |j| {
        found.push(j);
        true
    })?;
    if found.is_empty() {
        return Ok(0);
    }
    // By slot, then along the edge: each edge's new corners in order from its start.
    found.sort_by(|x, y| x.slot.cmp(&y.slot).then(x.along.total_cmp(&y.along)));
    found.dedup_by_key(|j| (j.slot, j.vertex));
    for j in &found {
        let corners = &ring[start[j.polygon] as usize..start[j.polygon + 1] as usize];
        if corners.contains(&j.vertex) {
            return Err(junction_issue(*j, start, ring, names));
        }
    }
    let mut new_start = Vec::with_capacity(start.len());
    let mut new_ring = Vec::with_capacity(ring.len() + found.len());
    let mut next = found.iter().peekable();
    new_start.push(0u32);
    for w in start.windows(2) {
        let (s, e) = (w[0] as usize, w[1] as usize);
        for (k, &v) in ring[s..e].iter().enumerate() {
            new_ring.push(v);
            while let Some(j) = next.next_if(|j| j.slot == s + k) {
                new_ring.push(j.vertex);
            }
        }
        new_start.push(new_ring.len() as u32);
    }
    *start = new_start;
    *ring = new_ring;
    Ok(found.len())
}
