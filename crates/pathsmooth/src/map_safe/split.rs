//! Any smoother split at the corners it cannot cut (see the module docs of `map_safe`).

use glam::DVec2;

use super::{MapSafe, Run};
use crate::area::not_costlier;
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;
use crate::geometry::Point2;
use crate::world::{first_problem, path_cost, World};

/// A piece of the input, `path[start..=end]`, smoothed (its points are
/// `pool[from..to]`) or kept as it is.
#[derive(Debug, Clone, Copy)]
struct Piece {
    start: usize,
    end: usize,
    smoothed: Option<(usize, usize)>,
}

/// A piece still to place: `path[start..=end]`, and the pool range of its smoothed points
/// when they were made already (the whole path's).
type Work = (usize, usize, Option<(usize, usize)>);

/// The split's scratch, kept by the [`MapSafe`] between calls: the smoothed pieces' points
/// one after another, the pieces, the work stack, the smoother's output and the assembled
/// path.
#[derive(Debug, Clone, Default)]
pub(super) struct Split {
    pool: Vec<DVec2>,
    pieces: Vec<Piece>,
    work: Vec<Work>,
    smoothed: Vec<DVec2>,
    assembled: Vec<DVec2>,
}

impl Split {
    /// The points of `piece`: its smoothed ones, or the input's.
    fn points<'a>(&'a self, path: &'a [DVec2], piece: &Piece) -> &'a [DVec2] {
        match piece.smoothed {
            Some((from, to)) => &self.pool[from..to],
            None => &path[piece.start..=piece.end],
        }
    }

    /// Appends the smoother's last output to the pool; its range there.
    fn keep_smoothed(&mut self) -> (usize, usize) {
        let from = self.pool.len();
        self.pool.extend_from_slice(&self.smoothed);
        (from, self.pool.len())
    }
}

impl<W: World + ?Sized> Run<'_, W> {
    /// See [`MapSafe::smooth_into`].
    fn smooth_into<P: Point2>(
        &mut self,
        path: &[P],
        radius: f64,
        mut smoother: impl FnMut(&[DVec2], &mut Vec<DVec2>) -> Result<()>,
        out: &mut Vec<P>,
    ) -> Result<()> {
        out.clear();
        let (radius, strict) = self.load_input(path, radius)?;
        if path.len() < 3 {
            out.extend_from_slice(path);
            return Ok(());
        }
        let input = std::mem::take(&mut self.b.input);
        let mut split = std::mem::take(&mut self.b.split);
        split.smoothed.clear();
        // The whole path first, so that the smoother's own errors reach the caller.
        let whole = smoother(&input, &mut split.smoothed);
        if whole.is_ok() {
            split.pool.clear();
            split.pieces.clear();
            let whole = split.keep_smoothed();
            self.place(&input, radius, whole, &mut smoother, &mut split);
            self.fix_joints(&input, radius, &mut split);
            assemble(&input, &mut split);
            let assembled = &split.assembled;
            if self.is_clear(assembled, radius) {
                // `append_rounded` leaves `out` empty when no rounding is clear.
                if !self.append_rounded(assembled, radius, out) {
                    out.extend_from_slice(path);
                }
            } else {
                // Only an input valid within the tolerance alone can end here.
                debug_assert!(!strict, "map_safe assembled an invalid path");
                out.extend_from_slice(path);
            }
        }
        self.b.input = input;
        self.b.split = split;
        whole
    }

    /// Splits `path` into pieces that are either smoothed and valid or kept as they are,
    /// in order, into `split.pieces`. `whole` is the pool range of the smoother's result
    /// on the whole path. A work stack instead of recursion keeps deep splits (one per
    /// corner of a long path) off the call stack.
    fn place(
        &self,
        path: &[DVec2],
        radius: f64,
        whole: (usize, usize),
        smoother: &mut impl FnMut(&[DVec2], &mut Vec<DVec2>) -> Result<()>,
        split: &mut Split,
    ) {
        split.work.clear();
        split.work.push((0, path.len() - 1, Some(whole)));
        while let Some((start, end, smoothed)) = split.work.pop() {
            if end - start < 2 {
                // A single input segment: valid because the input is.
                split.pieces.push(Piece {
                    start,
                    end,
                    smoothed: None,
                });
                continue;
            }
            let input = &path[start..=end];
            let range = smoothed.or_else(|| {
                split.smoothed.clear();
                smoother(input, &mut split.smoothed).ok()?;
                Some(split.keep_smoothed())
            });
            let split_near = match range {
                Some((from, to)) => match self.problem_at(input, &split.pool[from..to], radius) {
                    None => {
                        split.pieces.push(Piece {
                            start,
                            end,
                            smoothed: range,
                        });
                        continue;
                    }
                    Some(at) => {
                        // Refused: its points are the last in the pool.
                        split.pool.truncate(from);
                        at
                    }
                },
                None => None,
            };
            // Keep the corner nearest the problem (the one the smoother cut too deeply);
            // without a location, the middle vertex.
            let mid = match split_near {
                Some(at) => (start + 1..end)
                    .min_by(|&i, &j| {
                        path[i]
                            .distance_squared(at)
                            .total_cmp(&path[j].distance_squared(at))
                    })
                    .unwrap_or(start + 1),
                None => start + (end - start) / 2,
            };
            split.work.push((mid, end, None));
            split.work.push((start, mid, None));
        }
    }

    /// `None` when the smoothed piece is usable (keeps the endpoints, finite, valid on its
    /// own, and on a world with area costs no costlier than its input); otherwise `Some(where)`, the location of its first problem if it has one.
    fn problem_at(&self, input: &[DVec2], out: &[DVec2], radius: f64) -> Option<Option<DVec2>> {
        if out.first() != input.first()
            || out.last() != input.last()
            || !out.iter().all(|p| p.is_finite())
        {
            return Some(None);
        }
        if let Some((_, at)) = first_problem(self.world, out, radius) {
            return Some(Some(at));
        }
        // With area costs, a smoothed piece must not cost more than the input it replaces.
        let w = self.world;
        (w.has_area_costs() && !not_costlier(path_cost(w, out), path_cost(w, input)))
            .then_some(None)
    }

    /// Reverts to the input both pieces around any joint whose bend the world refuses (a
    /// grid's pinch).
    fn fix_joints(&self, path: &[DVec2], radius: f64, split: &mut Split) {
        loop {
            let mut changed = false;
            for k in 1..split.pieces.len() {
                let (left, right) = (&split.pieces[k - 1], &split.pieces[k]);
                if left.smoothed.is_none() && right.smoothed.is_none() {
                    continue;
                }
                let v = path[left.end];
                let before = split.points(path, left).iter().rev().find(|&&q| q != v);
                let after = split.points(path, right).iter().find(|&&q| q != v);
                let bad = match (before, after) {
                    (Some(&b), Some(&a)) => !self.world.bend_is_clear(b, v, a, radius),
                    _ => false,
                };
                if bad {
                    split.pieces[k - 1].smoothed = None;
                    split.pieces[k].smoothed = None;
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }
}

/// Any smoother, split at the corners it cannot cut.
impl MapSafe {
    /// Smooths `path` with `smoother`, returning a path valid for `radius`.
    ///
    /// Errors: the input checks of [the world contract](crate::world#coordinates-and-input-checks) ([`Error::EmptyPath`],
    /// [`Error::NonFinite`], [`Error::CoordinateOutOfRange`], [`Error::BadParameter`] for
    /// the radius, [`Error::OutsideWorld`] for a point outside the world's bounds; a radius
    /// below the world's tolerance is taken as 0),
    /// [`Error::InvalidInputPath`] when `path` is not valid itself, and any error the
    /// smoother returns on the whole path.
    pub fn smooth<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        mut smoother: impl FnMut(&[DVec2]) -> Result<Vec<DVec2>>,
    ) -> Result<Vec<P>> {
        let mut out = Vec::new();
        let into = |p: &[DVec2], o: &mut Vec<DVec2>| smoother(p).map(|s| *o = s);
        self.smooth_into(world, path, radius, into, &mut out)?;
        Ok(out)
    }

    /// [`smooth`](Self::smooth) with a smoother that writes into a buffer (as
    /// [`catmull_rom_into`](crate::curve::catmull_rom::catmull_rom_into) and
    /// [`resample_into`](crate::curve::resample::resample_into) do), into `out` (cleared
    /// first): once this `MapSafe`'s buffers and `out` have grown, a call allocates nothing
    /// but what the smoother does. Errors as [`smooth`](Self::smooth); `out` is then empty.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::curve::{catmull_rom_into, CatmullRomParams};
    /// use pathsmooth::{is_valid, GridMap, GridWorld, MapSafe};
    /// let world = GridWorld::new(GridMap::from_rows(&["....", "@@@.", "@@@.", "@@@."])?)?;
    /// let path = [DVec2::new(0.5, 0.5), DVec2::new(3.5, 0.5), DVec2::new(3.5, 3.5)];
    /// let params = CatmullRomParams::centripetal(5);
    /// let (mut safe, mut out) = (MapSafe::new(), Vec::new());
    /// safe.smooth_into(&world, &path, 0.0, |p, o| catmull_rom_into(p, &params, o), &mut out)?;
    /// assert!(is_valid(&world, &out, 0.0));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn smooth_into<W: World + ?Sized, P: Point2>(
        &mut self,
        world: &W,
        path: &[P],
        radius: f64,
        smoother: impl FnMut(&[DVec2], &mut Vec<DVec2>) -> Result<()>,
        out: &mut Vec<P>,
    ) -> Result<()> {
        let result = self.on(world).smooth_into(path, radius, smoother, out);
        if result.is_err() {
            out.clear();
        }
        result
    }
}

/// Map-safe smoothing of a valid `path` with `smoother` (see the module docs for the
/// strategy): the result is always valid on `world` for `radius`.
///
/// Errors: as [`MapSafe::smooth`]; notably [`Error::InvalidInputPath`] when the input is not
/// valid.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::{map_safe, Error, GridMap, GridWorld};
/// let world = GridWorld::new(GridMap::from_rows(&[".@."])?)?;
/// let through = [DVec2::new(0.5, 0.5), DVec2::new(2.5, 0.5)];
/// let r = map_safe(&world, &through, 0.0, |p: &[DVec2]| Ok(p.to_vec()));
/// assert!(matches!(r, Err(Error::InvalidInputPath { .. })));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn map_safe<W: World + ?Sized, P: Point2>(
    world: &W,
    path: &[P],
    radius: f64,
    smoother: impl FnMut(&[DVec2]) -> Result<Vec<DVec2>>,
) -> Result<Vec<P>> {
    MapSafe::new().smooth(world, path, radius, smoother)
}

/// Concatenates the pieces into `split.assembled`, writing each joint vertex once.
fn assemble(path: &[DVec2], split: &mut Split) {
    let mut out = std::mem::take(&mut split.assembled);
    out.clear();
    for (k, piece) in split.pieces.iter().enumerate() {
        let pts = split.points(path, piece);
        out.extend_from_slice(if k == 0 { pts } else { &pts[1..] });
    }
    split.assembled = out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::chaikin::ChaikinParams;
    use crate::{GridMap, GridWorld};

    /// One pass of wall-blind corner cutting: the midpoints of each corner's legs (Chaikin
    /// at ratio ½).
    fn cut(p: &[DVec2]) -> Result<Vec<DVec2>> {
        let midpoints = ChaikinParams {
            ratio: 0.5,
            passes: 1,
            closed: false,
        };
        crate::curve::chaikin(p, &midpoints)
    }

    #[test]
    fn only_the_colliding_corner_is_kept() {
        // Cutting the corner at (5.5, 1.5) would clip cell (4, 2); the corner at
        // (1.5, 1.5) is in the open.
        let map = GridMap::from_fn(7, 6, |x, y| (x, y) != (4, 2));
        let world = GridWorld::new(map).unwrap();
        let p = |x, y| DVec2::new(x, y);
        let path = [p(1.5, 4.5), p(1.5, 1.5), p(5.5, 1.5), p(5.5, 4.5)];
        let out = map_safe(&world, &path, 0.0, cut).unwrap();
        assert_eq!(
            out,
            vec![path[0], p(1.5, 3.0), p(3.5, 1.5), path[2], path[3]]
        );
    }

    #[test]
    fn joint_on_pinch_reverts_neighbours() {
        // Pinch at vertex (2, 2); the path arrives from the top-right quadrant and leaves
        // into it again.
        let (map, path) = crate::test_fixtures::pinch_world_and_path();
        let v = path[2];
        assert!(crate::validate::is_valid(&map, &path, 0.0));
        // A "smoother" that is invalid on the whole path (forcing a split at the pinch
        // vertex) and, on the piece after the vertex, detours through the bottom-left
        // quadrant: valid on its own, but the joint then squeezes through the pinch.
        let out = map_safe(&map, &path, 0.0, |p: &[DVec2]| {
            let last = p[p.len() - 1];
            if p[0] == v {
                return Ok(vec![v, DVec2::new(1.5, 2.5), DVec2::new(1.5, 3.5), last]);
            }
            let mut q = vec![DVec2::new(1.5, 2.5); p.len()];
            (q[0], q[p.len() - 1]) = (p[0], last);
            Ok(q)
        })
        .unwrap();
        assert_eq!(out, path.to_vec());
        assert!(crate::validate::is_valid(&map, &out, 0.0));
    }
}
