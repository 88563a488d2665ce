//! Off-mesh links of a surface: jumps, ladders, doors and teleports, each joining two
//! points of the surface that no walk along it joins — Detour's off-mesh connections.

use glam::{DVec2, DVec3};

use super::Surface;
use crate::cancel::{Cancel, Checkpoint};
use crate::error::{num, Error, Result};
use crate::geometry::max_map_coordinate;
use crate::navmesh::mesh::PolyId;

/// An off-mesh link as a caller or a file gives it: two points near the surface that an
/// agent may travel between directly (a jump, a ladder, a door, a teleport), with the
/// area, flags and id a query filter reads. [`Surface::with_links`] checks it and
/// attaches it to the polygons its ends are on.
///
/// Source: Detour's off-mesh connections (`dtOffMeshConnection`; Recast's
/// `offMeshConVerts`, `offMeshConRad`, `offMeshConDir`, `offMeshConAreas`,
/// `offMeshConFlags`, `offMeshConUserID` in `dtNavMeshCreateParams`; M. Mononen,
/// recastnavigation).
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::OffMeshLink;
/// let jump = OffMeshLink { cost: Some(4.0), ..OffMeshLink::new(DVec3::ZERO, DVec3::new(0.0, -3.0, 2.0), 0.5) };
/// assert!(!jump.bidirectional && jump.radius == 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
// As the navmesh JSON file's `links` field writes it (`docs/navmesh-json.md`): the optional
// fields may be left out.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct OffMeshLink {
    /// The start point, world axes (Recast's first `offMeshConVerts` point).
    pub start: DVec3,
    /// The end point, world axes (the second point).
    pub end: DVec3,
    /// How far (3D, world units, finite ≥ 0) each end may be from the surface and still
    /// connect (`offMeshConRad`).
    pub radius: f64,
    /// Whether the link can also be travelled from `end` to `start` (`offMeshConDir` 1,
    /// Detour's `DT_OFFMESH_CON_BIDIR`).
    pub bidirectional: bool,
    /// The cost of travelling the link, in the units of length times area cost; `None`
    /// for the 3D Euclidean length between its snapped ends (what Detour's default
    /// filter charges before the area cost). Finite ≥ 0 when given.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub cost: Option<f64>,
    /// Its area id (`offMeshConAreas`), for a query filter to price or exclude.
    #[cfg_attr(feature = "serde", serde(default))]
    pub area: u8,
    /// Its flags (`offMeshConFlags`), as a query filter reads them.
    #[cfg_attr(feature = "serde", serde(default))]
    pub flags: u16,
    /// An id of the caller's choosing (`offMeshConUserID`): which door, which ladder.
    #[cfg_attr(feature = "serde", serde(default))]
    pub user_id: u32,
}

impl OffMeshLink {
    /// A one-way link from `start` to `end` with `radius`: cost by length, area 0, flags 0,
    /// user id 0.
    pub fn new(start: DVec3, end: DVec3, radius: f64) -> Self {
        OffMeshLink {
            start,
            end,
            radius,
            bidirectional: false,
            cost: None,
            area: 0,
            flags: 0,
            user_id: 0,
        }
    }
}

/// An off-mesh link attached to a surface ([`Surface::links`]): the polygon each end is on
/// and the end points snapped onto the surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Link {
    /// The polygon the start is on.
    pub start_poly: PolyId,
    /// The polygon the end is on.
    pub end_poly: PolyId,
    /// The start snapped onto the surface: the nearest point of `start_poly` in plan view
    /// (a point beside the polygon lands on its edge, then moves in by four of the surface's
    /// tolerances, so that it is inside the polygon for every test), at its floor height
    /// ([`Surface::floor_height`]).
    pub start: DVec3,
    /// The end snapped onto the surface, likewise.
    pub end: DVec3,
    /// The cost of travelling it: [`OffMeshLink::cost`], or the distance between the
    /// snapped ends.
    pub cost: f64,
    /// The link as given (its ends unsnapped): bidirectional, area, flags, user id.
    pub given: OffMeshLink,
}

/// A bad link, as an error.
fn bad(index: usize, message: String) -> Error {
    Error::InvalidLink { index, message }
}

impl Surface {
    /// The surface with `links` attached (replacing any) as its off-mesh links, each end
    /// put on the polygon whose floor comes nearest to it in 3D, within the link's radius,
    /// and snapped to that nearest point: the nearest point of the polygon in plan view
    /// ([`nearest_on_polygon`](Self::nearest_on_polygon)) at the floor height there
    /// ([`floor_height`](Self::floor_height): the detail mesh's, if attached; attaching
    /// or removing one later resolves the links again), ties to the lower polygon id — as
    /// Detour connects an off-mesh connection's ends (`findNearestPoly`,
    /// `closestPointOnPoly`). An end beside its polygon lands on the polygon's edge and
    /// moves in by four of the surface's tolerances ([`Link::start`]).
    ///
    /// Errors: [`Error::InvalidLink`] naming the link (its index in `links`) and, where it
    /// is about one end, which: a NaN, infinite or too large coordinate (beyond
    /// [`max_map_coordinate`]); a radius not finite
    /// ≥ 0; a cost NaN, infinite or negative; an end with no floor within the radius
    /// (`link 3: its end (1, 2, 3) has no floor within 0.5`). Never a panic.
    ///
    /// Cost: per end, O(buckets of the box `end ± radius` + the sizes and detail
    /// triangles of the polygons whose plan-view boxes meet it).
    ///
    /// Source: Detour, `dtNavMesh::connectExtOffMeshLinks` and `baseOffMeshLinks`
    /// (M. Mononen, recastnavigation).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{OffMeshLink, Surface, UpAxis};
    /// // A floor at height 0 and one at height 3 beside it (y up): a ladder joins them.
    /// let v = [
    ///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(0.0, 0.0, 2.0),
    ///     DVec3::new(3.0, 3.0, 0.0), DVec3::new(5.0, 3.0, 0.0), DVec3::new(5.0, 3.0, 2.0), DVec3::new(3.0, 3.0, 2.0),
    /// ];
    /// let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0)?;
    /// let ladder = OffMeshLink { bidirectional: true, ..OffMeshLink::new(DVec3::new(1.9, 0.2, 1.0), DVec3::new(3.1, 3.0, 1.0), 0.5) };
    /// let s = s.with_links(&[ladder])?;
    /// let l = s.links()[0];
    /// assert_eq!((l.start_poly, l.end_poly), (0, 1));
    /// assert_eq!(l.start, DVec3::new(1.9, 0.0, 1.0));
    /// assert_eq!(l.cost, l.start.distance(l.end));
    /// let far = OffMeshLink::new(DVec3::new(1.0, 1.0, 1.0), DVec3::new(4.0, 3.0, 1.0), 0.5);
    /// let e = s.with_links(&[ladder, far]).unwrap_err();
    /// assert_eq!(e.to_string(), "link 1: its start (1, 1, 1) has no floor within 0.5");
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn with_links(self, links: &[OffMeshLink]) -> Result<Surface> {
        self.with_links_cancellable(links, None)
    }

    /// [`with_links`](Self::with_links), stopped by `cancel` ([`Error::Cancelled`]),
    /// read every [`CHECK_EVERY`](crate::cancel::CHECK_EVERY) polygons tested: a link
    /// with a large radius tests every polygon, so many links take O(links × polygons).
    pub(crate) fn with_links_cancellable(
        self,
        links: &[OffMeshLink],
        cancel: Option<&Cancel>,
    ) -> Result<Surface> {
        self.attach_links(links, cancel, false)
    }

    /// Attaches `links`; with `leave_unconnected`, a link with an end that has no floor
    /// within its radius is left out and counted in the report (as engines leave such a
    /// link unconnected) instead of refused.
    pub(crate) fn attach_links(
        mut self,
        links: &[OffMeshLink],
        cancel: Option<&Cancel>,
        leave_unconnected: bool,
    ) -> Result<Surface> {
        let mut checkpoint = Checkpoint::new(cancel);
        let mut resolved = Vec::with_capacity(links.len());
        let mut unconnected = Vec::new();
        for (i, link) in links.iter().enumerate() {
            match self.resolve(i, link, &mut checkpoint)? {
                Ok(link) => resolved.push(link),
                Err(_) if leave_unconnected => unconnected.push(i as u32),
                Err(no_floor) => return Err(no_floor),
            }
        }
        self.links = resolved;
        if leave_unconnected {
            self.report.unconnected_links = unconnected;
        }
        Ok(self)
    }

    /// The off-mesh links ([`with_links`](Self::with_links)), in the order given. O(1).
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The polygon whose floor comes nearest to `q` in 3D, if within `r`, and that nearest
    /// point: per polygon, the plan-view point of
    /// [`nearest_on_polygon`](Self::nearest_on_polygon) at its
    /// [`floor_height`](Self::floor_height) (Detour's `closestPointOnPoly`, which reads
    /// the detail mesh); ties to the lower id. Candidates are the polygons whose plan-view
    /// boxes meet `q ± r`: unlike [`find_nearest`](Self::find_nearest), no height bounds,
    /// which the polygons' corners give but a detail mesh may exceed.
    ///
    /// `checkpoint` is called for every polygon tested; once it says stop, the answer is
    /// meaningless (the caller checks [`Checkpoint::stopped`]).
    fn nearest_floor(
        &self,
        q: DVec3,
        r: f64,
        checkpoint: &mut Checkpoint<'_>,
    ) -> Option<(PolyId, DVec3)> {
        let plan = self.up.plan(q);
        let (lo, hi) = (plan - DVec2::splat(r), plan + DVec2::splat(r));
        let mut best: Option<(f64, PolyId, DVec3, bool)> = None;
        self.index.for_each_bucket(lo, hi, |list| {
            for &p in list {
                if checkpoint.stop() {
                    return;
                }
                let b = &self.bounds[p as usize];
                if b.lo.cmpgt(hi).any() || b.hi.cmplt(lo).any() {
                    continue;
                }
                let (near, over) = self.nearest_on(p, q);
                let at = self.up.plan(near);
                let c = self.up.join(at, self.floor_height(p, at));
                let d = c.distance(q);
                if best.is_none_or(|(bd, bp, ..)| d < bd || (d == bd && p < bp)) {
                    best = Some((d, p, c, over));
                }
            }
        });
        let (d, p, c, over) = best?;
        if d > r {
            return None;
        }
        if over {
            return Some((p, c));
        }
        // On the polygon's edge (the end beside the polygon): moved in by a few tolerances,
        // so that the end lies inside its polygon for every later test, never outside its
        // wall by the rounding of the projection (which failed the routes over RecastDemo's
        // dungeon connections).
        let centre = self.plan_polygon(p).sum::<DVec2>() / self.polygon(p).len() as f64;
        let at = self.up.plan(c);
        let at = at + (centre - at).normalize_or_zero() * (4.0 * self.tolerance);
        Some((p, self.up.join(at, self.floor_height(p, at))))
    }

    /// Link `index` checked and attached; inside, the error of an end with no floor within
    /// the radius (which a file's loader leaves out rather than refuses).
    fn resolve(
        &self,
        index: usize,
        link: &OffMeshLink,
        checkpoint: &mut Checkpoint<'_>,
    ) -> Result<Result<Link>> {
        let r = link.radius;
        if !(r >= 0.0 && r.is_finite()) {
            return Err(bad(
                index,
                format!("its radius {} is not a finite number ≥ 0", num(r)),
            ));
        }
        if let Some(c) = link.cost.filter(|c| !(*c >= 0.0 && c.is_finite())) {
            return Err(bad(
                index,
                format!("its cost {} is not a finite number ≥ 0", num(c)),
            ));
        }
        let limit = max_map_coordinate::<f64>();
        let mut ends = [(0, DVec3::ZERO); 2];
        for (k, (which, q)) in [("start", link.start), ("end", link.end)]
            .into_iter()
            .enumerate()
        {
            let at = format!("its {which} ({}, {}, {})", num(q.x), num(q.y), num(q.z));
            if !q.is_finite() || q.abs().max_element() > limit {
                return Err(bad(
                    index,
                    format!("{at} is not finite or beyond ±{}", num(limit)),
                ));
            }
            let found = self.nearest_floor(q, r, checkpoint);
            if checkpoint.stopped() {
                return Err(Error::Cancelled);
            }
            let Some(end) = found else {
                return Ok(Err(bad(
                    index,
                    format!("{at} has no floor within {}", num(r)),
                )));
            };
            ends[k] = end;
        }
        let [(start_poly, start), (end_poly, end)] = ends;
        Ok(Ok(Link {
            start_poly,
            end_poly,
            start,
            end,
            cost: link.cost.unwrap_or_else(|| start.distance(end)),
            given: *link,
        }))
    }
}
