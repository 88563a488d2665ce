//! Connected pieces: which triangles (or a surface's polygons) an agent can walk between.

use super::{NavMesh, TriId};

/// The connected piece of each of `n` items joined by `neighbors`: `pieces[i]` is item
/// `i`'s, numbered 0, 1, … in the order of each piece's lowest item. Cost: O(items +
/// joins), one allocation beside the result. The one flood under [`NavMesh::pieces`] and
/// [`Surface::pieces`](crate::navmesh::Surface::pieces).
pub(crate) fn label_pieces<I>(n: usize, neighbors: impl Fn(usize) -> I) -> Vec<u32>
where
    I: IntoIterator<Item = usize>,
{
    const UNSEEN: u32 = u32::MAX;
    let mut piece = vec![UNSEEN; n];
    let mut stack = Vec::new();
    let mut next = 0;
    for first in 0..n {
        if piece[first] != UNSEEN {
            continue;
        }
        piece[first] = next;
        stack.push(first);
        while let Some(i) = stack.pop() {
            for j in neighbors(i) {
                if piece[j] == UNSEEN {
                    piece[j] = next;
                    stack.push(j);
                }
            }
        }
        next += 1;
    }
    piece
}

impl NavMesh {
    /// The connected piece of every triangle, joined across shared edges: `pieces()[t]` is
    /// triangle `t`'s, numbered 0, 1, … in the order of each piece's lowest triangle. Two
    /// points are joined by a path exactly when their triangles' pieces are equal (an
    /// engine's export often falls into several). Cost: O(triangles), one allocation.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::navmesh::NavMesh;
    /// // Two squares sharing an edge, and a triangle apart.
    /// let v = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (0.0, 1.0),
    ///     (5.0, 0.0), (6.0, 0.0), (5.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    /// let mesh = NavMesh::from_polygons(&v, &[vec![0, 1, 4, 5], vec![1, 2, 3, 4], vec![6, 7, 8]])?;
    /// let pieces = mesh.pieces();
    /// let t = |x, y| mesh.locate(DVec2::new(x, y)).unwrap();
    /// assert_eq!(pieces[t(0.5, 0.5)], pieces[t(1.5, 0.5)]);
    /// assert_ne!(pieces[t(0.5, 0.5)], pieces[t(5.2, 0.2)]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn pieces(&self) -> Vec<u32> {
        label_pieces(self.num_triangles(), |t: TriId| {
            self.neighbors(t).into_iter().flatten()
        })
    }
}
