//! Point location on a surface: the polygon nearest a 3D point (Detour's
//! `findNearestPoly`) and the floor under or over it within a vertical tolerance.

use glam::{DVec2, DVec3};

use super::Surface;
use crate::error::{Error, Result};
use crate::geometry::{closest_on_segment, cross};
use crate::navmesh::mesh::PolyId;

impl Surface {
    /// True when plan-view point `plan` lies in polygon `p` seen from above (closed, to the
    /// surface's tolerance: a point on a shared edge is in both polygons). Panics if `p`
    /// is out of range. O(polygon size).
    ///
    /// ```
    /// use glam::{DVec2, DVec3};
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// let v = [DVec3::ZERO, DVec3::X, DVec3::Y];
    /// let s = Surface::from_polygons(&v, &[[0u32, 1, 2]], UpAxis::Z, 0.0)?;
    /// assert!(s.contains_plan(0, DVec2::new(0.5, 0.5)));
    /// assert!(!s.contains_plan(0, DVec2::new(0.6, 0.6)));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn contains_plan(&self, p: PolyId, plan: DVec2) -> bool {
        let ring = self.polygon(p);
        let at = |i: usize| self.up.plan(self.vertices[ring[i % ring.len()] as usize]);
        (0..ring.len()).all(|i| {
            let (a, b) = (at(i), at(i + 1));
            // Counter-clockwise: inside is on the left of every edge (a small slack so a
            // point on an edge counts, whatever the rounding of its coordinates).
            // (−c ≤ tolerance·|b − a| squared, so no square root on the common path).
            let c = cross(b - a, plan - a);
            c >= 0.0 || c * c <= self.tolerance * self.tolerance * (b - a).length_squared()
        })
    }

    /// The point of polygon `p` nearest to `q` in Detour's sense: the point of the
    /// polygon's floor ([`floor_height`](Self::floor_height): the detail mesh, else the
    /// plane) straight above or below `q` when `q` is over the polygon in plan view, else
    /// the nearest point of its boundary in 3D. Panics if `p` is out of range.
    /// O(polygon size).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// let v = [DVec3::ZERO, DVec3::new(2.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(0.0, 0.0, 2.0)];
    /// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Y, 0.0)?;
    /// assert_eq!(s.nearest_on_polygon(0, DVec3::new(1.0, 5.0, 1.0)), DVec3::new(1.0, 0.0, 1.0));
    /// assert_eq!(s.nearest_on_polygon(0, DVec3::new(3.0, 1.0, 1.0)), DVec3::new(2.0, 0.0, 1.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn nearest_on_polygon(&self, p: PolyId, q: DVec3) -> DVec3 {
        self.nearest_on(p, q).0
    }

    /// [`nearest_on_polygon`](Self::nearest_on_polygon), and whether `q` is over the
    /// polygon (the point is then on its floor).
    pub(super) fn nearest_on(&self, p: PolyId, q: DVec3) -> (DVec3, bool) {
        let plan = self.up.plan(q);
        if self.contains_plan(p, plan) {
            return (self.up.join(plan, self.floor_height(p, plan)), true);
        }
        let ring = self.polygon(p);
        let mut best = (f64::INFINITY, q);
        for i in 0..ring.len() {
            let a = self.vertices[ring[i] as usize];
            let b = self.vertices[ring[(i + 1) % ring.len()] as usize];
            let (c, _) = closest_on_segment(q, a, b);
            let d = c.distance_squared(q);
            if d < best.0 {
                best = (d, c);
            }
        }
        (best.1, false)
    }

    /// The polygon nearest to `q` among those whose bounding box meets the box
    /// `q ± half_extents` (world axes, as Detour's `findNearestPoly`), with the nearest
    /// point on it ([`nearest_on_polygon`](Self::nearest_on_polygon)); ties go to the
    /// lower polygon id. `None` when no polygon's box meets the query box, or for a
    /// non-finite `q` or negative or NaN half-extents.
    ///
    /// Candidates come from a bucket grid over the polygons' plan-view boxes, then their
    /// height ranges are checked: a floor far above or below the box is never a candidate.
    /// Cost: O(buckets the box overlaps + polygon sizes of the candidates).
    ///
    /// Source: Detour, `dtNavMeshQuery::findNearestPoly` (M. Mononen, recastnavigation).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// let v = [
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(0.0, 0.0, 4.0),
    ///     DVec3::new(0.0, 3.0, 0.0), DVec3::new(4.0, 3.0, 0.0), DVec3::new(4.0, 3.0, 4.0), DVec3::new(0.0, 3.0, 4.0),
    /// ];
    /// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0)?;
    /// let he = DVec3::new(1.0, 2.0, 1.0);
    /// assert_eq!(s.find_nearest(DVec3::new(1.0, 2.5, 1.0), he), Some((1, DVec3::new(1.0, 3.0, 1.0))));
    /// assert_eq!(s.find_nearest(DVec3::new(1.0, 0.4, 1.0), he).map(|f| f.0), Some(0));
    /// assert_eq!(s.find_nearest(DVec3::new(1.0, 9.0, 1.0), he), None);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn find_nearest(&self, q: DVec3, half_extents: DVec3) -> Option<(PolyId, DVec3)> {
        self.find_nearest_over(q, half_extents, 0.0)
            .map(|(p, c, _)| (p, c))
    }

    /// [`find_nearest`](Self::find_nearest) with Detour's climb allowance: a point over a
    /// polygon in plan view whose floor is within `climb` of it (above or below: an
    /// agent's feet on a step of the detail mesh, Recast's `walkableClimb`) is **on** that
    /// polygon — the nearest such floor in height, then the lower id — and its nearest
    /// point keeps the point's plan-view position exactly, at the floor's height. Only
    /// when no floor is that close does the nearest point in Detour's sense win: a polygon
    /// that `q` is over counting `|height difference| − climb`, any other the 3D distance
    /// to its boundary. `climb` 0 is `find_nearest`; a negative or NaN climb finds
    /// nothing.
    ///
    /// Source: Detour, `dtNavMeshQuery::findNearestPoly` (its `walkableClimb` rule, which
    /// counts every polygon within the climb as at distance 0 and keeps the first found;
    /// here the nearest floor of those wins, so a point on a floor is never moved to the
    /// neighbour whose floor happens to be listed first).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// // A floor at height 0 and, beside it, a step up to height 0.25 (y up).
    /// let v = [
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(0.0, 0.0, 2.0),
    ///     DVec3::new(2.0, 0.25, 0.0), DVec3::new(4.0, 0.25, 0.0), DVec3::new(4.0, 0.25, 2.0), DVec3::new(2.0, 0.25, 2.0),
    /// ];
    /// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0)?;
    /// // Feet 0.3 over the lower floor, 0.05 from the step's edge: nearest in 3D is the step,
    /// // within a climb of 0.5 the floor underfoot.
    /// let feet = DVec3::new(1.95, 0.3, 1.0);
    /// let box_ = DVec3::new(1.0, 1.0, 1.0);
    /// assert_eq!(s.find_nearest(feet, box_).map(|f| f.0), Some(1));
    /// assert_eq!(s.find_nearest_climbing(feet, box_, 0.5), Some((0, DVec3::new(1.95, 0.0, 1.0))));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn find_nearest_climbing(
        &self,
        q: DVec3,
        half_extents: DVec3,
        climb: f64,
    ) -> Option<(PolyId, DVec3)> {
        self.find_nearest_over(q, half_extents, climb)
            .map(|(p, c, _)| (p, c))
    }

    /// [`find_nearest_climbing`](Self::find_nearest_climbing), and whether `q` is over the
    /// polygon found (the point is then on its floor, [`floor_height`](Self::floor_height)).
    pub(crate) fn find_nearest_over(
        &self,
        q: DVec3,
        half_extents: DVec3,
        climb: f64,
    ) -> Option<(PolyId, DVec3, bool)> {
        if !q.is_finite() || !half_extents.cmpge(DVec3::ZERO).all() || climb.is_nan() || climb < 0.0
        {
            return None;
        }
        let (plan, h) = self.up.split(q);
        let (he_plan, he_h) = self.up.split(half_extents);
        let (lo, hi) = (plan - he_plan, plan + he_plan);
        // A floor within the climb straight above or below beats everything else, and
        // every polygon `q` is over is listed in the buckets at `q`: look there first, so
        // the common case (a point on the surface) never visits the whole box. Whatever
        // the climb: a climb above the box's height (Godot's agents climb 4 to 6 m, the
        // default box is 4 up) finds the same floors, those the box meets, as the scan.
        if let Some(found) = self.floor_within(q, climb, (lo, hi), he_h) {
            return Some(found);
        }
        // Ranked by (not on it, distance): a floor within the climb straight above or
        // below (its height difference) before anything else (Detour's squared distance).
        let mut best: Option<((bool, f64), PolyId, DVec3, bool)> = None;
        let tolerance2 = self.tolerance * self.tolerance;
        self.index.for_each_bucket(lo, hi, |list| {
            for &p in list {
                if !self.box_meets(p, (lo, hi), h, he_h) {
                    continue;
                }
                let b = &self.bounds[p as usize];
                // No point of the polygon is nearer than its plan-view box: skip the
                // polygons that cannot beat the best (nor tie with it).
                let gap2 = (b.lo - plan)
                    .max(plan - b.hi)
                    .max(DVec2::ZERO)
                    .length_squared();
                let hopeless = best.is_some_and(
                    |((off, bd), _, _, _)| {
                        if off {
                            gap2 > bd
                        } else {
                            gap2 > tolerance2
                        }
                    },
                );
                if hopeless {
                    continue;
                }
                let (c, over) = self.nearest_on(p, q);
                let rank = if over {
                    // Straight above or below: only the height counts.
                    let dh = (c - q).length();
                    if dh <= climb {
                        (false, dh)
                    } else {
                        (true, (dh - climb) * (dh - climb))
                    }
                } else {
                    (true, c.distance_squared(q))
                };
                if best.is_none_or(|(br, bp, _, _)| rank < br || (rank == br && p < bp)) {
                    best = Some((rank, p, c, over));
                }
            }
        });
        best.map(|(_, p, c, over)| (p, c, over))
    }

    /// True when polygon `p`'s box meets the query box `lo..hi` × `h ± he_h`.
    fn box_meets(&self, p: PolyId, (lo, hi): (DVec2, DVec2), h: f64, he_h: f64) -> bool {
        let b = &self.bounds[p as usize];
        b.lo.cmple(hi).all() && b.hi.cmpge(lo).all() && b.h_lo <= h + he_h && b.h_hi >= h - he_h
    }

    /// The nearest floor (then the lower id) straight above or below `q` within `climb`
    /// among the polygons whose box meets the query box `plan_box` × `h ± he_h`, with the
    /// point of it under or over `q`: the first rank of
    /// [`find_nearest_over`](Self::find_nearest_over), from the buckets at `q` alone.
    fn floor_within(
        &self,
        q: DVec3,
        climb: f64,
        (lo, hi): (DVec2, DVec2),
        he_h: f64,
    ) -> Option<(PolyId, DVec3, bool)> {
        let (plan, h) = self.up.split(q);
        let mut best: Option<(f64, PolyId, f64)> = None;
        self.index.for_each_bucket(plan, plan, |list| {
            for &p in list {
                if !self.box_meets(p, (lo, hi), h, he_h) || !self.contains_plan(p, plan) {
                    continue;
                }
                let floor = self.floor_height(p, plan);
                let dh = (floor - h).abs();
                if dh <= climb && best.is_none_or(|(bd, bp, _)| dh < bd || (dh == bd && p < bp)) {
                    best = Some((dh, p, floor));
                }
            }
        });
        best.map(|(_, p, floor)| (p, self.up.join(plan, floor), true))
    }

    /// The polygon whose floor ([`floor_height`](Self::floor_height)) passes within
    /// `vertical_tolerance` of `q`, straight above or below it, among the polygons containing `q` in plan view
    /// ([`contains_plan`](Self::contains_plan)); the one with the floor nearest in height
    /// (then the lower id). So a point just above a floor finds that floor, never the
    /// floor under it or the bridge over it.
    ///
    /// Errors: [`Error::NoFloor`] when no such polygon exists (between floors farther
    /// apart than twice the tolerance, above or below the mesh, outside it in plan view);
    /// [`Error::NonFinite`] (point 0) for a non-finite `q`; [`Error::BadParameter`] for a
    /// negative or NaN tolerance.
    ///
    /// Cost: O(buckets at the point + polygon sizes of the polygons listed there).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, UpAxis};
    /// let v = [DVec3::ZERO, DVec3::new(2.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(0.0, 0.0, 2.0)];
    /// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Y, 0.0)?;
    /// assert_eq!(s.locate(DVec3::new(1.0, 0.3, 1.0), 0.5)?, 0);
    /// let e = s.locate(DVec3::new(1.0, 1.0, 1.0), 0.5).unwrap_err();
    /// assert_eq!(e.to_string(), "no floor within 0.5 of (1, 1, 1)");
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn locate(&self, q: DVec3, vertical_tolerance: f64) -> Result<PolyId> {
        if vertical_tolerance.is_nan() || vertical_tolerance < 0.0 {
            return Err(Error::BadParameter {
                name: "vertical_tolerance",
                value: vertical_tolerance,
                expected: "a number ≥ 0",
            });
        }
        if !q.is_finite() {
            return Err(Error::NonFinite { index: 0 });
        }
        let (plan, h) = self.up.split(q);
        let mut best: Option<(f64, PolyId)> = None;
        self.index.for_each_bucket(plan, plan, |list| {
            for &p in list {
                let b = &self.bounds[p as usize];
                let slack = self.tolerance;
                if plan.cmplt(b.lo - slack).any() || plan.cmpgt(b.hi + slack).any() {
                    continue;
                }
                if !self.contains_plan(p, plan) {
                    continue;
                }
                let dh = (self.floor_height(p, plan) - h).abs();
                if dh <= vertical_tolerance
                    && best.is_none_or(|(bd, bp)| dh < bd || (dh == bd && p < bp))
                {
                    best = Some((dh, p));
                }
            }
        });
        best.map(|(_, p)| p).ok_or(Error::NoFloor {
            x: q.x,
            y: q.y,
            z: q.z,
            tolerance: vertical_tolerance,
        })
    }

    /// Every polygon that plan-view point `plan` lies in ([`contains_plan`](Self::contains_plan)),
    /// with its floor height there ([`floor_height`](Self::floor_height)), into `out`
    /// (cleared first), sorted by height: the floors a 2D point may stand on. A point on
    /// a shared edge is in both polygons. Cost: O(buckets at the point + polygon sizes of
    /// the polygons listed there).
    pub(crate) fn polygons_over(&self, plan: DVec2, out: &mut Vec<(PolyId, f64)>) {
        out.clear();
        if !plan.is_finite() {
            return;
        }
        self.index.for_each_bucket(plan, plan, |list| {
            for &p in list {
                if !out.iter().any(|&(q, _)| q == p) && self.contains_plan(p, plan) {
                    out.push((p, self.floor_height(p, plan)));
                }
            }
        });
        out.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    }
}
