//! Map-aware Chaikin (see the module docs of `map_safe`).

use std::f64::consts::PI;

use glam::DVec2;

use super::{MapSafe, Run};
use crate::area::not_costlier;
use crate::curve::chaikin::{
    chaikin_output_len, corner_cut, max_output_points, AdaptiveParams, ChaikinParams, RefineReport,
};
use crate::error::{Error, Result};
use crate::geometry::{turn_angle, Point2};
use crate::world::World;

impl<W: World + ?Sized> Run<'_, W> {
    /// See [`MapSafe::chaikin`].
    fn chaikin<P: Point2>(
        &mut self,
        path: &[P],
        radius: f64,
        params: ChaikinParams,
    ) -> Result<Vec<P>> {
        let mut out = Vec::new();
        self.chaikin_into(path, radius, params, &mut out)?;
        Ok(out)
    }

    /// See [`MapSafe::chaikin_into`].
    fn chaikin_into<P: Point2>(
        &mut self,
        path: &[P],
        radius: f64,
        params: ChaikinParams,
        out: &mut Vec<P>,
    ) -> Result<()> {
        out.clear();
        params.validate()?;
        if params.closed {
            return Err(Error::param(
                "closed",
                1.0,
                "an open path (map-aware Chaikin keeps the endpoints)",
            ));
        }
        let (radius, strict) = self.load_input(path, radius)?;
        chaikin_output_len(path.len().max(2), params.passes, false)?;
        let report = self.cut_passes::<P>(radius, params.ratio, params.passes, None, strict)?;
        // No pass: the input as it is (like classic Chaikin with 0 passes).
        let cut = std::mem::take(&mut self.b.cur);
        if report.passes == 0 || !self.append_rounded(&cut, radius, out) {
            out.extend_from_slice(path);
        }
        self.b.cur = cut;
        Ok(())
    }

    /// See [`MapSafe::chaikin_adaptive`].
    fn chaikin_adaptive<P: Point2>(
        &mut self,
        path: &[P],
        radius: f64,
        params: AdaptiveParams,
    ) -> Result<Vec<P>> {
        let mut out = Vec::new();
        self.chaikin_adaptive_into(path, radius, params, &mut out)?;
        Ok(out)
    }

    /// See [`MapSafe::chaikin_adaptive_into`].
    fn chaikin_adaptive_into<P: Point2>(
        &mut self,
        path: &[P],
        radius: f64,
        params: AdaptiveParams,
        out: &mut Vec<P>,
    ) -> Result<RefineReport> {
        self.adaptive_into(path, radius, params, out, false)
    }

    /// See [`MapSafe::chaikin_adaptive_of_clear_into`].
    fn chaikin_adaptive_of_clear_into(
        &mut self,
        path: &[DVec2],
        radius: f64,
        params: AdaptiveParams,
        out: &mut Vec<DVec2>,
    ) -> Result<RefineReport> {
        self.adaptive_into(path, radius, params, out, true)
    }

    /// The adaptive passes on `path` into `out`; `known_clear`: the caller has found the
    /// path clear, so it is loaded without the test.
    fn adaptive_into<P: Point2>(
        &mut self,
        path: &[P],
        radius: f64,
        params: AdaptiveParams,
        out: &mut Vec<P>,
        known_clear: bool,
    ) -> Result<RefineReport> {
        out.clear();
        check_adaptive(&params)?;
        let (radius, strict) = if known_clear {
            let radius = self.copy_input(path, radius)?;
            debug_assert!(self.is_clear(&self.b.input, radius), "not clear");
            (radius, true)
        } else {
            self.load_input(path, radius)?
        };
        let report = self.cut_passes::<P>(
            radius,
            params.ratio,
            params.max_passes,
            Some(params.angle_limit),
            strict,
        )?;
        let cut = std::mem::take(&mut self.b.cur);
        if !self.append_rounded(&cut, radius, out) {
            out.extend_from_slice(path);
        }
        self.b.cur = cut;
        Ok(report)
    }

    /// Runs up to `passes` passes of corner cutting on `self.b.input` (loaded and valid),
    /// leaving the result in `self.b.cur` (the distinct points of the input when no pass
    /// ran, which happens when fewer than 3 remain). Every interior corner is cut, or with
    /// a `limit` only those turning by more; the loop ends early when there is no corner
    /// to cut or none of them can be. A corner the walls kept is tried again only once a
    /// cut has moved it or a neighbour (with its neighbourhood unchanged, the same cuts
    /// would collide again). `strict`: as [`choose_ratios`](Self::choose_ratios).
    fn cut_passes<P: Point2>(
        &mut self,
        radius: f64,
        ratio: f64,
        passes: u32,
        limit: Option<f64>,
        strict: bool,
    ) -> Result<RefineReport> {
        let mut cur = std::mem::take(&mut self.b.cur);
        let mut next = std::mem::take(&mut self.b.next);
        // Duplicates carry no corner to cut; passes run on the distinct points.
        dedup_into(&self.b.input, &mut cur);
        self.b.fresh.clear();
        self.b.fresh.resize(cur.len(), true);
        let mut report = RefineReport::default();
        // Classic Chaikin with no corner returns its input; the adaptive form runs a pass
        // to find there is no corner sharper than the limit.
        let passes = if cur.len() < 3 && limit.is_none() {
            0
        } else {
            passes
        };
        let mut result = Ok(());
        for _ in 0..passes {
            // Each pass at most doubles the points (the classic form checked its whole
            // budget up front).
            let cap = max_output_points::<P>();
            if 2 * cur.len() > cap {
                result = Err(Error::OutputTooLarge {
                    requested: 2 * cur.len() as u128,
                    cap,
                });
                break;
            }
            report.passes += 1;
            let (sharp, wanted) = self.mark_corners(&cur, limit);
            if !sharp {
                report.converged = true;
                break;
            }
            if !wanted {
                break;
            }
            self.choose_ratios(&cur, radius, ratio, strict);
            let cuts = self.b.ratios.iter().filter(|&&t| t > 0.0).count();
            if cuts == 0 {
                break;
            }
            report.cuts += cuts;
            self.write_pass(&cur, &mut next);
            std::mem::swap(&mut cur, &mut next);
            std::mem::swap(&mut self.b.fresh, &mut self.b.next_fresh);
        }
        debug_assert!(
            !strict || self.is_clear(&cur, radius),
            "map-aware Chaikin made {cur:?}"
        );
        (self.b.cur, self.b.next) = (cur, next);
        result.map(|()| report)
    }

    /// Marks in `self.b.wanted` the interior corners of `path` to cut: the sharp ones (all
    /// of them, or with a `limit` those turning by more, as
    /// [`chaikin_adaptive`](crate::curve::chaikin::chaikin_adaptive) decides) next to a
    /// fresh point. Returns whether any corner is sharp, and whether any is marked.
    fn mark_corners(&mut self, path: &[DVec2], limit: Option<f64>) -> (bool, bool) {
        let n = path.len();
        let sharp_turn = limit.map(SharpTurn::new);
        self.b.wanted.clear();
        self.b.wanted.resize(n, false);
        let sharp = |i: usize| {
            sharp_turn
                .as_ref()
                .is_none_or(|s| s.at(path[i - 1], path[i], path[i + 1]))
        };
        let fresh = |i: usize| self.b.fresh[i - 1] || self.b.fresh[i] || self.b.fresh[i + 1];
        let mut any_wanted = false;
        for i in 1..n - 1 {
            // Only corners by a fresh point are tested: after the first pass most are not.
            let wanted = fresh(i) && sharp(i);
            self.b.wanted[i] = wanted;
            any_wanted |= wanted;
        }
        // With nothing to cut, whether a corner the walls kept is still sharp says whether
        // the refinement converged.
        let any_sharp = any_wanted || (1..n - 1).any(|i| !fresh(i) && sharp(i));
        (any_sharp, any_wanted)
    }

    /// Writes the pass `self.b.ratios` chose on `path` into `out` without consecutive
    /// duplicates, as [`chaikin_pass_ratios_into`](crate::curve::chaikin::chaikin_pass_ratios_into)
    /// and a dedup would (the points each [`corner_cut`] was tested with), and marks the
    /// cut points fresh in `self.b.next_fresh`. O(n).
    fn write_pass(&mut self, path: &[DVec2], out: &mut Vec<DVec2>) {
        let n = path.len();
        out.clear();
        self.b.next_fresh.clear();
        let mut push = |p: DVec2, fresh: bool| {
            if out.last() == Some(&p) {
                *self.b.next_fresh.last_mut().expect("a point before") |= fresh;
            } else {
                out.push(p);
                self.b.next_fresh.push(fresh);
            }
        };
        push(path[0], false);
        for i in 1..n - 1 {
            let t = self.b.ratios[i];
            if t == 0.0 {
                push(path[i], false);
            } else {
                let (a, b) = corner_cut(path[i - 1], path[i], path[i + 1], t);
                push(a, true);
                push(b, true);
            }
        }
        push(path[n - 1], false);
    }

    /// Picks, for every interior vertex of the (valid, duplicate-free) `path` marked in
    /// `self.b.wanted`, the largest cut ratio in `ratio, ratio/2, …, ratio/2^HALVINGS` whose
    /// new points keep the path valid, or 0 (keep the corner; always for unmarked
    /// vertices); writes them to `self.b.ratios`. See the module docs.
    /// `strict`: the input passed the strict test (else it is valid only within the
    /// validator's tolerance, and where a kept leg fails the strict test every corner is
    /// kept: the pass returns its input).
    fn choose_ratios(&mut self, path: &[DVec2], radius: f64, ratio: f64, strict: bool) {
        let n = path.len();
        self.b.ratios.clear();
        self.b.ratios.resize(n, 0.0);
        self.b.forced.clear();
        self.b.forced.resize(n, false);
        let mut tail = Tail {
            before: None,
            last: path[0],
        };
        // `tails[i]`: the end of the path built before the cut corner i, to walk again from
        // i. Written at the cuts only and read only there (`ratios[i] > 0`), so entries of
        // earlier passes may stay.
        if self.b.tails.len() < n {
            self.b.tails.resize(n, tail);
        }
        let mut i = 1;
        while i < n {
            self.b.ratios[i] = 0.0;
            if i < n - 1
                && self.b.wanted[i]
                && !self.b.forced[i]
                && let Some((t, after)) = self.deepest_cut(path, i, tail, radius, ratio)
            {
                self.b.ratios[i] = t;
                self.b.tails[i] = tail;
                tail = after;
                i += 1;
                continue;
            }
            // Keep vertex i. Where no cut touched the leg to it or the bend before it,
            // both are the input's, which is valid: nothing to test.
            let untouched =
                tail.last == path[i - 1] && tail.before == i.checked_sub(2).map(|k| path[k]);
            if untouched {
                tail = Tail {
                    before: Some(path[i - 1]),
                    last: path[i],
                };
                i += 1;
                continue;
            }
            // The leg lies on an input segment, so this fails only when rounding moved the
            // previous cut point off that segment (onto a wall, or below the radius where
            // the segment runs at exactly the radius): then keep the nearest cut corner
            // before i as well and walk on from there. With no cut before i, the path so
            // far is the valid input, so this ends.
            match self.extend(tail, path[i], path[i], radius) {
                Some(after) => {
                    tail = after;
                    i += 1;
                }
                None => match (1..i).rev().find(|&j| self.b.ratios[j] > 0.0) {
                    Some(j) => {
                        self.b.forced[j] = true;
                        tail = self.b.tails[j];
                        i = j;
                    }
                    None => {
                        debug_assert!(!strict, "the input prefix is valid");
                        self.b.ratios.fill(0.0);
                        return;
                    }
                },
            }
        }
    }

    /// The largest of `ratio, ratio/2, …` that cuts corner `i` validly after `tail`, with
    /// the new tail; `None` when even the smallest collides.
    fn deepest_cut(
        &self,
        path: &[DVec2],
        i: usize,
        tail: Tail,
        radius: f64,
        ratio: f64,
    ) -> Option<(f64, Tail)> {
        let mut t = ratio;
        for _ in 0..=HALVINGS {
            let (a, b) = corner_cut(path[i - 1], path[i], path[i + 1], t);
            if self.cut_costs_no_more(a, path[i], b)
                && let Some(after) = self.cut_fits(tail, a, b, radius)
            {
                return Some((t, after));
            }
            t *= 0.5;
        }
        None
    }

    /// True when cutting the corner `v` from `a` to `b` does not raise the path's cost
    /// (always, on a world without area costs): a shallower cut may still pass where a
    /// deep one would cross a costly area inside the corner.
    fn cut_costs_no_more(&self, a: DVec2, v: DVec2, b: DVec2) -> bool {
        let w = self.world;
        !w.has_area_costs()
            || not_costlier(
                w.segment_cost(a, b),
                w.segment_cost(a, v) + w.segment_cost(v, b),
            )
    }

    /// [`extend`](Self::extend) for the two points of a corner cut, whose segment must
    /// moreover keep clearance strictly above the radius: a new vertex that touches a wall
    /// (or sits exactly at the radius) could never be cut in a later pass, so the turn
    /// would stay concentrated there. One capped distance query tests the cut segment and
    /// both its ends.
    fn cut_fits(&self, tail: Tail, a: DVec2, b: DVec2, radius: f64) -> Option<Tail> {
        if !self.strictly_clear(a, b, radius) {
            return None;
        }
        self.append(tail, a, b, radius)
    }

    /// True when the segment from `a` to `b` keeps clearance strictly above `radius`.
    fn strictly_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        // min(clearance, cap) > radius ⇔ clearance > radius, for any cap > radius; a cap
        // just above the radius keeps the distance query local.
        let cap = radius * (1.0 + 1e-9) + self.world.tolerance();
        self.world.segment_clearance(a, b, cap) > radius
    }

    /// The path so far ends with `tail`; appending `a` then `b` keeps it valid when the
    /// new segments are clear and (radius 0) no new bend squeezes through a pinch. Returns
    /// the new tail.
    fn extend(&self, tail: Tail, a: DVec2, b: DVec2, radius: f64) -> Option<Tail> {
        // The short cut segment first: it is the one that usually fails.
        if a != b && !self.world.segment_is_clear(a, b, radius) {
            return None;
        }
        self.append(tail, a, b, radius)
    }

    /// [`extend`](Self::extend) once the segment from `a` to `b` is known to be clear: the
    /// leg from the tail to `a` and the new bends.
    fn append(&self, tail: Tail, a: DVec2, b: DVec2, radius: f64) -> Option<Tail> {
        let world = self.world;
        let mut t = tail;
        for p in [a, b] {
            if p == t.last {
                continue;
            }
            if p == a && !world.segment_is_clear(t.last, p, radius) {
                return None;
            }
            if let Some(before) = t.before
                && !world.bend_is_clear(before, t.last, p, radius)
            {
                return None;
            }
            t = Tail {
                before: Some(t.last),
                last: p,
            };
        }
        Some(t)
    }
}

/// Map-aware Chaikin, classic and adaptive.
impl MapSafe {
    /// Map-aware Chaikin: `params.passes` passes of corner cutting in which every corner
    /// is cut as deeply as the map allows, at most `params.ratio` (see the module docs),
    /// so a valid `path` gives a valid result for `radius`. Allocating form of
    /// [`chaikin_into`](Self::chaikin_into).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{is_valid, GridMap, GridWorld, MapSafe};
    /// use pathsmooth::curve::ChaikinParams;
    /// // The wall cell (2, 1) sits inside the corner: cuts there are shallower.
    /// let map = GridWorld::new(GridMap::from_rows(&["....", "..@.", "....", "...."])?)?;
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5), DVec2::new(3.5, 3.5)];
    /// let mut safe = MapSafe::new();
    /// let out = safe.chaikin(&map, &path, 0.0, &ChaikinParams::default())?;
    /// assert!(is_valid(&map, &out, 0.0) && out.len() > 10);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn chaikin<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        params: &ChaikinParams,
    ) -> Result<Vec<P>> {
        self.on(world).chaikin(path, radius, *params)
    }

    /// [`chaikin`](Self::chaikin) into `out` (cleared first). Once the scratch buffers and
    /// `out` have grown, further calls allocate nothing.
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks) ([`Error::EmptyPath`],
    /// [`Error::NonFinite`], [`Error::CoordinateOutOfRange`], [`Error::BadParameter`] for
    /// the radius, [`Error::OutsideWorld`] for a point outside the world's bounds; a radius
    /// below the world's tolerance is taken as 0), [`Error::BadParameter`] (ratio, or
    /// `closed`: open paths only), [`Error::OutputTooLarge`],
    /// [`Error::InvalidInputPath`] when `path` is not valid itself. On error `out` is
    /// left empty.
    pub fn chaikin_into<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        params: &ChaikinParams,
        out: &mut Vec<P>,
    ) -> Result<()> {
        self.on(world).chaikin_into(path, radius, *params, out)
    }

    /// Map-aware adaptive Chaikin: the passes of [`chaikin`](Self::chaikin), but in each
    /// only the corners turning by more than `params.angle_limit` are cut (each as deeply
    /// as the walls allow, at most `params.ratio`), until no corner is sharper than the
    /// limit, none of the sharp ones can be cut, or `params.max_passes` passes have run.
    /// A valid `path` gives a valid result for `radius`. Allocating form of
    /// [`chaikin_adaptive_into`](Self::chaikin_adaptive_into).
    ///
    /// It is [`chaikin_adaptive`](crate::curve::chaikin::chaikin_adaptive) made map-aware
    /// the way [`chaikin`](Self::chaikin) is classic Chaikin made map-aware: away from walls
    /// the two give the same points.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::curve::AdaptiveParams;
    /// use pathsmooth::{is_valid, GridMap, GridWorld, MapSafe};
    /// let map = GridWorld::new(GridMap::from_rows(&["....", "..@.", "....", "...."])?)?;
    /// // A straight run, then a right angle next to the wall cell (2, 1).
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(2.0, 0.5), DVec2::new(3.5, 0.5), DVec2::new(3.5, 3.5)];
    /// let params = AdaptiveParams { angle_limit: 20f64.to_radians(), ..Default::default() };
    /// let out = MapSafe::new().chaikin_adaptive(&map, &path, 0.0, &params)?;
    /// assert!(is_valid(&map, &out, 0.0));
    /// assert!(out.contains(&path[1])); // straight on: not a corner to cut
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn chaikin_adaptive<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        params: &AdaptiveParams,
    ) -> Result<Vec<P>> {
        self.on(world).chaikin_adaptive(path, radius, *params)
    }

    /// [`chaikin_adaptive`](Self::chaikin_adaptive) into `out` (cleared first), with what
    /// it did: passes run, corners cut, and whether it ended with no corner sharper than
    /// the limit (`converged`; `false` when the pass budget ran out or walls kept a sharp
    /// corner). Once the scratch buffers and `out` have grown, further calls allocate
    /// nothing.
    ///
    /// Cost: one validation of the input, then per pass O(n) turn angles plus the world
    /// tests of [`chaikin`](Self::chaikin) at the corners being cut and their neighbours
    /// only: a leg and bend of the pass's input that no cut touched are not tested again.
    ///
    /// Errors: those of [`chaikin_into`](Self::chaikin_into) (a bad angle limit or ratio
    /// is [`Error::BadParameter`], an angle limit above π [`Error::BadAngle`]), and [`Error::BadParameter`] for an `outlier_limit`:
    /// dropping vertices is not a corner cut, and a valid path has no outliers to drop.
    /// On error `out` is left empty.
    pub fn chaikin_adaptive_into<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        params: &AdaptiveParams,
        out: &mut Vec<P>,
    ) -> Result<RefineReport> {
        self.on(world)
            .chaikin_adaptive_into(path, radius, *params, out)
    }

    /// [`chaikin_adaptive_into`](Self::chaikin_adaptive_into) for a `path` the caller has
    /// just found clear ([`path_is_clear`] for `radius`, the strict test): the input is not
    /// tested again (the corridor step refines the path its repair has checked).
    pub(crate) fn chaikin_adaptive_of_clear_into<W: World + ?Sized>(
        &mut self,
        world: &W,
        path: &[DVec2],
        radius: f64,
        params: &AdaptiveParams,
        out: &mut Vec<DVec2>,
    ) -> Result<RefineReport> {
        self.on(world)
            .chaikin_adaptive_of_clear_into(path, radius, *params, out)
    }
}

/// Map-aware Chaikin of a valid `path` on `world` (see [`MapSafe::chaikin`]): every
/// corner cut as deeply as the walls allow, the result always valid for `radius`. Use
/// [`MapSafe`] for many paths without allocation.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{chaikin, map_chaikin, ChaikinParams, GridMap, GridWorld};
/// let world = GridWorld::new(GridMap::from_rows(&["....", "....", "...."])?)?;
/// let path = [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5), DVec2::new(3.5, 2.5)];
/// // Open space: exactly classic Chaikin.
/// let out = map_chaikin(&world, &path, 0.0, &ChaikinParams::default())?;
/// assert_eq!(out, chaikin(&path, &ChaikinParams::default())?);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn map_chaikin<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    radius: f64,
    params: &ChaikinParams,
) -> Result<Vec<P>> {
    MapSafe::new().chaikin(world, path, radius, params)
}

/// Checks `params` for [`MapSafe::chaikin_adaptive_into`]: valid, and no outlier limit.
pub(crate) fn check_adaptive(params: &AdaptiveParams) -> Result<()> {
    params.validate()?;
    match params.outlier_limit {
        Some(limit) => Err(Error::param(
            "outlier_limit",
            limit,
            "None (map-aware adaptive Chaikin cuts corners; it drops no vertices)",
        )),
        None => Ok(()),
    }
}

/// The turn test of adaptive Chaikin, `turn_angle(a, b, c) > limit`, with the square
/// roots and the arc tangent left out where the answer is clear: it runs on every vertex
/// of every pass.
struct SharpTurn {
    limit: f64,
    /// (sin, cos) of the limit: for legs u, v the turn angle θ = atan2(|u × v|, u · v)
    /// and the limit L both lie in [0, π], so θ > L exactly when
    /// sin(θ − L)·|u||v| = |u × v|·cos L − (u · v)·sin L > 0.
    sin_cos: (f64, f64),
}

impl SharpTurn {
    fn new(limit: f64) -> Self {
        SharpTurn {
            limit,
            sin_cos: limit.sin_cos(),
        }
    }

    /// Whether the turn at `b` is defined and sharper than the limit: the same answer as
    /// [`turn_angle`]`(a, b, c) > limit`, which decides when the sign test of
    /// [`SharpTurn::sin_cos`] is within 10⁻⁹·(|u · v| + |u × v|) ≥ 10⁻⁹·|u||v| of 0 (far
    /// above the products' rounding, a few units in the last place of |u||v|). Costs two
    /// products and no square root away from that band.
    fn at(&self, a: DVec2, b: DVec2, c: DVec2) -> bool {
        let (u, v) = (b - a, c - b);
        // |u|² is 0 or infinite exactly when |u| is: the undefined turns of `turn_angle`.
        let (uu, vv) = (u.length_squared(), v.length_squared());
        if uu == 0.0 || vv == 0.0 || !uu.is_finite() || !vv.is_finite() {
            return false;
        }
        if self.limit < PI {
            let (dot, cross) = (u.dot(v), u.perp_dot(v).abs());
            let (sin, cos) = self.sin_cos;
            let excess = cross * cos - dot * sin;
            let slack = 1e-9 * (dot.abs() + cross);
            // NaN (an overflowing product) fails both and defers.
            if excess > slack {
                return true;
            }
            if excess < -slack {
                return false;
            }
        }
        turn_angle(a, b, c).is_some_and(|t| t > self.limit)
    }
}

/// Cut ratios tried per corner and pass: `ratio`, `ratio/2`, …, `ratio/2^HALVINGS`.
const HALVINGS: u32 = 5;

/// The last two distinct points of a path being built (for segment and bend tests).
#[derive(Debug, Clone, Copy)]
pub(super) struct Tail {
    before: Option<DVec2>,
    last: DVec2,
}

/// Copies `path` into `out` without consecutive duplicates (first and last kept).
fn dedup_into(path: &[DVec2], out: &mut Vec<DVec2>) {
    out.clear();
    for &p in path {
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::world;
    use super::*;

    #[test]
    fn strict_clearance_test_agrees_with_the_distance_field() {
        let world = world(&["..@.", "....", ".@..", "...."]);
        let mut safe = MapSafe::new();
        let safe = safe.on(&world);
        for x in -2..=18 {
            for y in -2..=18 {
                let p = DVec2::new(x as f64 / 4.0, y as f64 / 4.0);
                // A point, and short segments from it (a cut's two points).
                for q in [p, p + DVec2::new(0.5, 0.25), p + DVec2::new(-0.25, 0.75)] {
                    for r in [0.0, 0.25, 0.5] {
                        let exact = world.field().segment_clearance_capped(p, q, 10.0) > r;
                        assert_eq!(safe.strictly_clear(p, q, r), exact, "{p} {q} r={r}");
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The fast turn test answers as `turn_angle(a, b, c) > limit` does: on random
        /// corners at random scales, and on corners turning by the limit itself give or
        /// take 10⁻¹⁴ to 10⁻⁶ radians, where only the fallback can tell.
        #[test]
        fn the_fast_turn_test_agrees_with_the_turn_angle(
            limit in 1e-3..std::f64::consts::PI - 1e-3,
            (ax, ay, bx, by) in (-1e3..1e3f64, -1e3..1e3f64, -1e3..1e3f64, -1e3..1e3f64),
            (turn, leg, scale) in (0.0..std::f64::consts::PI, 1e-3..1e3f64, -9i32..9),
            offset in proptest::sample::select(vec![0.0, 1e-14, -1e-14, 1e-9, -1e-9, 1e-6, -1e-6]),
        ) {
            let k = 10f64.powi(scale);
            let (a, b) = (DVec2::new(ax, ay) * k, DVec2::new(bx, by) * k);
            let sharp = SharpTurn::new(limit);
            let ahead = (b - a).normalize_or(DVec2::X);
            for angle in [turn, limit + offset] {
                let c = b + leg * k * DVec2::from_angle(angle).rotate(ahead);
                proptest::prop_assert_eq!(
                    sharp.at(a, b, c),
                    turn_angle(a, b, c).is_some_and(|t| t > limit)
                );
            }
        }
    }
}
