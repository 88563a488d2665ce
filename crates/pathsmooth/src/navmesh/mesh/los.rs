//! The line-of-sight walk over the triangles, and the segment-touch predicate it and the
//! importers share.

use glam::DVec2;

use super::{NavMesh, TriId};
use crate::geometry::cross;

/// Line of sight on the navmesh.
impl NavMesh {
    /// True when the segment `a`–`b` stays inside the free region: it walks the triangles
    /// from the one holding `a`, crossing shared edges, and fails on meeting a wall edge.
    /// Touching a wall or grazing a corner is allowed; a segment through a pinch vertex, or
    /// with an end outside the mesh, is refused. Conservative on ties that floating-point
    /// orientation tests cannot settle.
    ///
    /// ```
    /// use glam::DVec2;
    /// # use pathsmooth::navmesh::{NavMesh, Scene};
    /// // An L-shaped room.
    /// let l = vec![[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [1.0, 1.0], [1.0, 2.0], [0.0, 2.0]];
    /// let mesh = NavMesh::from_scene(&Scene { boundary: l, holes: vec![] })?;
    /// assert!(mesh.line_of_sight(DVec2::new(0.5, 1.5), DVec2::new(1.5, 0.5)));
    /// assert!(!mesh.line_of_sight(DVec2::new(0.9, 1.9), DVec2::new(1.9, 0.9)));
    /// // Along the wall, touching the corner (1, 1):
    /// assert!(mesh.line_of_sight(DVec2::new(1.0, 1.5), DVec2::new(1.0, 0.5)));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn line_of_sight(&self, a: DVec2, b: DVec2) -> bool {
        if !self.in_bounds(b) {
            return false;
        }
        match self.start_toward(a, b - a) {
            Some(t) => self.walk(t, a, b, &mut |_| {}, false).is_some(),
            None => false,
        }
    }

    /// The triangle a walk from `a` in direction `d` starts in: the one
    /// [`locate`](Self::locate) gives; when `a` is a vertex of it, the triangle round `a`
    /// whose angle there holds `d`, reached by rotating through shared edges (the rotation
    /// the walk would start with), or where walls stop the rotation, the first triangle
    /// round `a` whose angle holds `d` (the located one when none does: the walk then
    /// meets the wall). At a pinch (two fans of triangles meeting at one vertex only, as
    /// where the corner of an excluded area touches a wall) the located triangle can lie in
    /// the other fan, which no rotation leaves, and a segment that starts at the pinch into
    /// this one would be refused. The segment still passes through no pinch: only its
    /// start is in both fans. Cost: one location; at a vertex, the rotation about it, and
    /// where walls stop it, a second lookup in the triangle index.
    #[inline(never)] // two callers; once in the WebAssembly module
    pub(crate) fn start_toward(&self, a: DVec2, d: DVec2) -> Option<TriId> {
        let t = self.locate(a)?;
        let vertex_at = |u: TriId| {
            self.triangles[u]
                .into_iter()
                .find(|&v| self.vertices[v as usize] == a)
        };
        let Some(v) = vertex_at(t) else {
            return Some(t);
        };
        if let Some(u) = self.turn_about(t, v, d, None::<&mut fn(TriId)>) {
            return Some(u);
        }
        let holds = |u: TriId| vertex_at(u).is_some_and(|w| self.angle_holds(u, w, d));
        self.buckets.locate_where(self, a, &holds).or(Some(t))
    }

    /// The straight walk of [`line_of_sight`](Self::line_of_sight) from triangle `t`: the
    /// triangle holding `b`, or `None` when the segment meets a wall. Every triangle entered
    /// is handed to `visit`, in order; where the segment passes through a vertex, with
    /// `fans` the whole fan of triangles rotated through round it (so consecutive ones
    /// share an edge, [`channel_along`](Self::channel_along)), without it only the
    /// triangle the segment leaves the vertex into (the ones it only touches at the vertex
    /// are left out, [`polygons_crossed`](Self::polygons_crossed)).
    pub(crate) fn walk(
        &self,
        mut t: TriId,
        a: DVec2,
        b: DVec2,
        visit: &mut impl FnMut(TriId),
        fans: bool,
    ) -> Option<TriId> {
        let d = b - a;
        // Progress along d of the last corner the walk passed.
        let mut progress = 0.0;
        // Each step enters a new triangle or passes a corner; bound it for safety.
        for _ in 0..(4 * self.triangles.len() + 16) {
            if self.triangle_contains(t, b) {
                return Some(t);
            }
            let tri = self.triangles[t];
            let p = tri.map(|i| self.vertices[i as usize]);
            let side = p.map(|v| cross(d, v - a));
            // Leave through the edge whose start is right of the line and end left of it.
            if let Some(i) = (0..3).find(|&i| side[i] < 0.0 && side[(i + 1) % 3] > 0.0) {
                t = self.across(t, i)?;
                visit(t);
                continue;
            }
            // Otherwise the line leaves through a corner: the farthest one on the line not
            // behind the walk (possibly the corner it stands on).
            let k = (0..3)
                .filter(|&i| side[i] == 0.0 && d.dot(p[i] - a) >= progress)
                .max_by(|&i, &j| d.dot(p[i] - a).total_cmp(&d.dot(p[j] - a)))?;
            let next = d.dot(p[k] - a);
            if next == progress && self.angle_holds(t, tri[k], d) {
                // Standing on a corner whose angle holds d, yet no exit: numerically stuck.
                return None;
            }
            progress = next;
            let before = t;
            t = self.turn_about(t, tri[k], d, fans.then_some(&mut *visit))?;
            if !fans && t != before {
                visit(t);
            }
        }
        None
    }

    fn corner(&self, t: TriId, i: usize) -> DVec2 {
        self.vertices[self.triangles[t][i % 3] as usize]
    }

    /// True when direction `d` leaves vertex `v` into the closed angle of triangle `t` at `v`.
    fn angle_holds(&self, t: TriId, v: u32, d: DVec2) -> bool {
        let Some(k) = self.triangles[t].iter().position(|&x| x == v) else {
            return false;
        };
        let o = self.corner(t, k);
        let (e1, e2) = (self.corner(t, k + 1) - o, self.corner(t, k + 2) - o);
        cross(e1, d) >= 0.0 && cross(d, e2) >= 0.0
    }

    /// Rotates about vertex `v` from triangle `t`, through shared edges only, to the triangle
    /// whose angle at `v` holds direction `d`; tries counter-clockwise first, then clockwise.
    /// `None` when walls stop both rotations (the direction leads into a wall or a pinch).
    /// With `visit`, each triangle of the successful rotation (the last one included) is
    /// handed to it.
    fn turn_about(
        &self,
        t: TriId,
        v: u32,
        d: DVec2,
        visit: Option<&mut impl FnMut(TriId)>,
    ) -> Option<TriId> {
        if self.angle_holds(t, v, d) {
            return Some(t);
        }
        // The way round that reaches the angle is found first, then walked again for
        // `visit`, so that it sees only the fan of the way taken.
        let mut reached = None;
        let ccw = [true, false].into_iter().find(|&ccw| {
            reached = self.rotate(t, v, d, ccw, &mut |_| {});
            reached.is_some()
        })?;
        match visit {
            Some(visit) => self.rotate(t, v, d, ccw, visit),
            None => reached,
        }
    }

    /// Rotates from triangle `t` about its vertex `v` (counter-clockwise or not) to the first
    /// triangle whose angle at `v` holds `d`, handing each triangle entered to `visit`;
    /// `None` at a wall or after a full turn.
    fn rotate(
        &self,
        t: TriId,
        v: u32,
        d: DVec2,
        ccw: bool,
        visit: &mut impl FnMut(TriId),
    ) -> Option<TriId> {
        let mut cur = t;
        for _ in 0..self.triangles.len() {
            let k = self.triangles[cur].iter().position(|&x| x == v)?;
            // Edge k leaves v (clockwise neighbour side), edge k+2 arrives at v.
            let edge = if ccw { (k + 2) % 3 } else { k };
            match self.across(cur, edge) {
                Some(n) if n != t => {
                    cur = n;
                    visit(n);
                    if self.angle_holds(cur, v, d) {
                        return Some(cur);
                    }
                }
                _ => return None,
            }
        }
        None
    }
}
