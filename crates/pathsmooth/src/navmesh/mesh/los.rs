//! The line-of-sight walk over the triangles, and the segment-touch predicate it and the
//! importers share.

use glam::DVec2;

use super::{NavMesh, TriId};
use crate::geometry::orientation;

/// Line of sight on the navmesh.
impl NavMesh {
    /// True when the segment `a`–`b` stays inside the free region: it walks the triangles
    /// from the one holding `a`, crossing shared edges, and fails on meeting a wall edge.
    /// Touching a wall or grazing a corner is allowed; a segment through a pinch vertex, or
    /// with an end outside the mesh, is refused. Exact: every decision is Shewchuk's
    /// orientation predicate on the segment's ends and the mesh's vertices, so a segment
    /// that grazes a corner by less than a rounding error is judged as it lies.
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
        match self.start_toward(a, b) {
            Some(t) => self.walk(t, a, b, &mut |_| {}, false).is_some(),
            None => false,
        }
    }

    /// The triangle a walk from `a` toward `b` starts in: the one
    /// [`locate`](Self::locate) gives; when `a` is a vertex of it, the triangle round `a`
    /// whose angle there holds the direction to `b`, reached by rotating through shared
    /// edges (the rotation the walk would start with), or where walls stop the rotation,
    /// the first triangle round `a` whose angle holds it (the located one when none does: the walk then
    /// meets the wall). At a pinch (two fans of triangles meeting at one vertex only, as
    /// where the corner of an excluded area touches a wall) the located triangle can lie in
    /// the other fan, which no rotation leaves, and a segment that starts at the pinch into
    /// this one would be refused. The segment still passes through no pinch: only its
    /// start is in both fans. Cost: one location; at a vertex, the rotation about it, and
    /// where walls stop it, a second lookup in the triangle index.
    #[inline(never)] // two callers; once in the WebAssembly module
    pub(crate) fn start_toward(&self, a: DVec2, b: DVec2) -> Option<TriId> {
        let t = self.locate(a)?;
        let vertex_at = |u: TriId| {
            self.triangles[u]
                .into_iter()
                .find(|&v| self.vertices[v as usize] == a)
        };
        let Some(v) = vertex_at(t) else {
            return Some(t);
        };
        if let Some(u) = self.turn_about(t, v, (a, b), None::<&mut fn(TriId)>) {
            return Some(u);
        }
        let holds = |u: TriId| vertex_at(u).is_some_and(|w| self.angle_holds(u, w, (a, b)));
        self.buckets.locate_where(self, a, &holds).or(Some(t))
    }

    /// The straight walk of [`line_of_sight`](Self::line_of_sight) from triangle `t` (which
    /// holds `a`; [`start_toward`](Self::start_toward) where `a` is a vertex): the
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
        let along = Along::new(a, b);
        // How far along the segment the last corner the walk passed lies.
        let mut progress = along.key(a);
        // The sides of the last triangle's corners: the next triangle shares two of them,
        // so a step asks the predicate about one new corner only.
        let mut known = [(u32::MAX, 0i8); 3];
        // Each step enters a new triangle or passes a corner; bound it for safety.
        for _ in 0..(4 * self.triangles.len() + 16) {
            let tri = self.triangles[t];
            let p = tri.map(|i| self.vertices[i as usize]);
            let side: [i8; 3] = std::array::from_fn(|i| {
                let old = known.iter().find(|k| k.0 == tri[i]);
                old.map_or_else(|| orientation(a, b, p[i]), |k| k.1)
            });
            known = std::array::from_fn(|i| (tri[i], side[i]));
            // Leave through the edge whose start is right of the line and end left of it,
            // unless `b` lies before it: `b` is on the line, past where the line entered
            // (inside the first triangle, or outside the last one), so then it is in this
            // triangle.
            if let Some(i) = (0..3).find(|&i| side[i] < 0 && side[(i + 1) % 3] > 0) {
                if orientation(p[i], p[(i + 1) % 3], b) >= 0 {
                    return Some(t);
                }
                t = self.across(t, i)?;
                visit(t);
                continue;
            }
            if self.triangle_contains(t, b) {
                return Some(t);
            }
            // Otherwise the line leaves through a corner: the farthest one on the line not
            // behind the walk (possibly the corner it stands on).
            let k = (0..3)
                .filter(|&i| side[i] == 0 && along.key(p[i]) >= progress)
                .max_by(|&i, &j| along.key(p[i]).total_cmp(&along.key(p[j])))?;
            let next = along.key(p[k]);
            if next == progress && self.angle_holds(t, tri[k], (a, b)) {
                // Standing on a corner whose angle holds the segment, yet no exit: a
                // degenerate triangle; stop rather than loop.
                return None;
            }
            progress = next;
            let before = t;
            t = self.turn_about(t, tri[k], (a, b), fans.then_some(&mut *visit))?;
            if !fans && t != before {
                visit(t);
            }
        }
        None
    }

    fn corner(&self, t: TriId, i: usize) -> DVec2 {
        self.vertices[self.triangles[t][i % 3] as usize]
    }

    /// True when the direction of segment `a`–`b` leaves vertex `v` into the closed angle
    /// of triangle `t` at `v`. The vertex must lie on the segment's line (the walk's
    /// corners do, exactly): then the direction holds when the angle's first side is not
    /// left of the line and its second not right of it, two exact orientations.
    fn angle_holds(&self, t: TriId, v: u32, (a, b): (DVec2, DVec2)) -> bool {
        let Some(k) = self.triangles[t].iter().position(|&x| x == v) else {
            return false;
        };
        orientation(a, b, self.corner(t, k + 1)) <= 0
            && orientation(a, b, self.corner(t, k + 2)) >= 0
    }

    /// Rotates about vertex `v` from triangle `t`, through shared edges only, to the triangle
    /// whose angle at `v` holds the direction of `segment` (whose line holds `v`); tries
    /// counter-clockwise first, then clockwise.
    /// `None` when walls stop both rotations (the direction leads into a wall or a pinch).
    /// With `visit`, each triangle of the successful rotation (the last one included) is
    /// handed to it.
    fn turn_about(
        &self,
        t: TriId,
        v: u32,
        segment: (DVec2, DVec2),
        visit: Option<&mut impl FnMut(TriId)>,
    ) -> Option<TriId> {
        if self.angle_holds(t, v, segment) {
            return Some(t);
        }
        // The way round that reaches the angle is found first, then walked again for
        // `visit`, so that it sees only the fan of the way taken.
        let mut reached = None;
        let ccw = [true, false].into_iter().find(|&ccw| {
            reached = self.rotate(t, v, segment, ccw, &mut |_| {});
            reached.is_some()
        })?;
        match visit {
            Some(visit) => self.rotate(t, v, segment, ccw, visit),
            None => reached,
        }
    }

    /// Rotates from triangle `t` about its vertex `v` (counter-clockwise or not) to the first
    /// triangle whose angle at `v` holds `segment`'s direction, handing each triangle
    /// entered to `visit`;
    /// `None` at a wall or after a full turn.
    fn rotate(
        &self,
        t: TriId,
        v: u32,
        segment: (DVec2, DVec2),
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
                    if self.angle_holds(cur, v, segment) {
                        return Some(cur);
                    }
                }
                _ => return None,
            }
        }
        None
    }
}

/// Exact order along a segment of points on its line: the coordinate of the axis the
/// segment moves most along, signed so that it grows toward the segment's end. Points on
/// the line with equal keys are one point, so comparing keys compares places exactly (a
/// dot product with the rounded direction would not).
struct Along {
    axis: usize,
    sign: f64,
}

impl Along {
    fn new(a: DVec2, b: DVec2) -> Self {
        let d = b - a;
        // `b - a` is 0 on an axis only where the ends agree on it, so the axis chosen
        // is one the segment moves along (either, for a point segment).
        let axis = usize::from(d.y.abs() > d.x.abs());
        let sign = if d[axis] < 0.0 { -1.0 } else { 1.0 };
        Along { axis, sign }
    }

    fn key(&self, p: DVec2) -> f64 {
        self.sign * p[self.axis]
    }
}
