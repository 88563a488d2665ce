//! Clearance on a layered mesh by walking it: the walls of a segment's own floor, found
//! from the triangles it crosses (as Detour's `raycast` and `findDistanceToWall` do).

use glam::DVec2;
use rustc_hash::FxHashSet;

use super::SurfaceMesh;
use crate::error::{Error, Result};
use crate::geometry::segment_distance;
use crate::navmesh::mesh::{NavMesh, TriId};

/// The walk's scratch (kept by the query).
#[derive(Debug, Clone, Default)]
pub(crate) struct WallScratch {
    crossed: Vec<TriId>,
    seen: FxHashSet<u32>,
    stack: Vec<TriId>,
}

impl WallScratch {
    /// The smallest distance from the plan-view `path` to a wall of its floor, capped at
    /// `reach`: each segment is walked over the plan mesh from the triangle of its start
    /// (`first` for the first point), and the walls looked for among the triangles within
    /// `reach` of it, reached from the ones it crosses across shared edges. Walls of
    /// another floor are never reached, however close in plan view.
    ///
    /// Errors: [`Error::InvalidResult`] naming the segment that meets a wall.
    /// Cost: O(triangles within `reach` of the path).
    pub(crate) fn path_clearance(
        &mut self,
        mesh: &SurfaceMesh,
        first: TriId,
        path: &[DVec2],
        reach: f64,
    ) -> Result<f64> {
        let plan = mesh.plan_mesh();
        let mut t = first;
        let mut least = reach;
        for (i, w) in path.windows(2).enumerate() {
            let (a, b) = (w[0], w[1]);
            self.crossed.clear();
            self.crossed.push(t);
            t = plan
                .walk(t, a, b, &mut |u| self.crossed.push(u), true)
                .ok_or_else(|| Error::InvalidResult {
                    step: "surface path",
                    reason: format!("segment {i} meets a wall of its floor"),
                })?;
            least = least.min(self.walls_near(plan, a, b, reach));
        }
        Ok(least)
    }

    /// min(reach, the distance from `a`–`b` to the walls of the triangles within `reach`
    /// of it, from the crossed ones across shared edges).
    fn walls_near(&mut self, plan: &NavMesh, a: DVec2, b: DVec2, reach: f64) -> f64 {
        self.seen.clear();
        self.stack.clear();
        for &t in &self.crossed {
            if self.seen.insert(t as u32) {
                self.stack.push(t);
            }
        }
        let mut least = reach;
        while let Some(t) = self.stack.pop() {
            let tri = plan.triangle(t);
            for i in 0..3 {
                let d = segment_distance(a, b, tri[i], tri[(i + 1) % 3]);
                match plan.across(t, i) {
                    None => least = least.min(d),
                    Some(n) if d < reach && self.seen.insert(n as u32) => self.stack.push(n),
                    Some(_) => {}
                }
            }
        }
        least
    }
}
