//! The crowd simulation's check that every agent's path is valid after every frame, at the
//! cost of what changed.

use glam::DVec2;
use pathsmooth::world::Bounds;
use pathsmooth::{validate_into, GridWorld, ValidationReport};

/// Remembers each agent's path as last found valid (nothing after a failed check). A path is checked with the library's
/// validator ([`validate_into`]: exact clearance of every segment and bend, a code path
/// apart from the agent path's own segment tests) on the part that differs from the path
/// last checked: the new front up to the first point of the unchanged tail, and the bend
/// there. The unchanged tail was valid on the world as it was; the world only changes by
/// obstacles, so a tail segment is checked again only when it comes within the radius of
/// an obstacle added since (removing one only adds room).
#[derive(Debug, Default)]
pub(crate) struct Watch {
    last: Vec<Vec<DVec2>>,
    report: ValidationReport,
}

impl Watch {
    /// Checks `paths` (agent `i`'s at index `i`) on `world` for `radius`, with `added` the
    /// boxes (min, max) of the obstacles added since the last check; returns how many are
    /// not valid. Cost: O(points) to find each unchanged tail, plus the validator on what
    /// changed.
    pub(crate) fn check<'a>(
        &mut self,
        world: &GridWorld,
        radius: f64,
        paths: impl Iterator<Item = &'a [DVec2]>,
        added: &[(DVec2, DVec2)],
    ) -> usize {
        let mut invalid = 0;
        for (i, path) in paths.enumerate() {
            if i == self.last.len() {
                self.last.push(Vec::new());
            }
            // A path that failed is checked whole next time: nothing of it is known good.
            let mut last = std::mem::take(&mut self.last[i]);
            let holds = self.path_holds(world, radius, path, &last, added);
            last.clear();
            if holds {
                last.extend_from_slice(path);
            } else {
                invalid += 1;
            }
            self.last[i] = last;
        }
        invalid
    }

    /// True when `path` is valid, given that `last` was.
    fn path_holds(
        &mut self,
        world: &GridWorld,
        radius: f64,
        path: &[DVec2],
        last: &[DVec2],
        added: &[(DVec2, DVec2)],
    ) -> bool {
        let n = path.len();
        let same = path
            .iter()
            .rev()
            .zip(last.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        // The new front, its join to the unchanged tail and the bend there.
        let front = if same == 0 || last.is_empty() {
            n
        } else {
            (n - same + 2).min(n)
        };
        if same < n && !self.holds(world, radius, &path[..front]) {
            return false;
        }
        // Tail segments near a new obstacle, with the bends at both ends.
        let near = |a: DVec2, b: DVec2| {
            added
                .iter()
                .any(|&(lo, hi)| meets_box_of(grown(Bounds::new(lo, hi), radius), a, b))
        };
        if n == 1 {
            return !near(path[0], path[0]) || self.holds(world, radius, path);
        }
        (n - same..n - 1)
            .filter(|&j| near(path[j], path[j + 1]))
            .all(|j| self.holds(world, radius, &path[j.saturating_sub(1)..(j + 3).min(n)]))
    }

    /// The validator's verdict on `piece`.
    fn holds(&mut self, world: &GridWorld, radius: f64, piece: &[DVec2]) -> bool {
        validate_into(world, piece, radius, &mut self.report).is_ok() && self.report.is_valid()
    }
}

/// `b` grown by `margin` on every side.
pub(crate) fn grown(b: Bounds, margin: f64) -> Bounds {
    Bounds {
        min: b.min - margin,
        max: b.max + margin,
    }
}

/// True when the closed rectangle `b` meets the bounding box of the segment `a`–`c`: the
/// cheap test before the validator (a segment that fails it misses the rectangle).
fn meets_box_of(b: Bounds, a: DVec2, c: DVec2) -> bool {
    a.x.max(c.x) >= b.min.x
        && a.x.min(c.x) <= b.max.x
        && a.y.max(c.y) >= b.min.y
        && a.y.min(c.y) <= b.max.y
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathsmooth::world::Obstacle;
    use pathsmooth::GridMap;

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    #[test]
    fn a_new_front_an_old_failure_and_a_door_on_an_unchanged_tail_are_all_caught() {
        let mut world = GridWorld::new(GridMap::from_rows(&["........"; 4]).unwrap()).unwrap();
        let mut watch = Watch::default();
        let good = vec![p(0.5, 1.5), p(3.5, 1.5), p(7.5, 1.5)];
        fn check(
            watch: &mut Watch,
            world: &GridWorld,
            path: &[DVec2],
            added: &[(DVec2, DVec2)],
        ) -> usize {
            watch.check(world, 0.3, std::iter::once(path), added)
        }
        assert_eq!(check(&mut watch, &world, &good, &[]), 0);
        // The agent walked: a new front on the same tail.
        let walked = vec![p(1.0, 1.5), p(3.5, 1.5), p(7.5, 1.5)];
        assert_eq!(check(&mut watch, &world, &walked, &[]), 0);
        // Too close to the border at the front.
        let bad = vec![p(1.0, 0.1), p(3.5, 1.5), p(7.5, 1.5)];
        assert_eq!(check(&mut watch, &world, &bad, &[]), 1);
        // Unchanged and still bad: checked whole again, not taken as known good.
        assert_eq!(check(&mut watch, &world, &bad, &[]), 1);
        assert_eq!(check(&mut watch, &world, &walked, &[]), 0);
        // A door on the unchanged tail, told to the watch: caught; a door far away is not
        // looked at.
        let (lo, hi) = (p(5.0, 1.0), p(6.0, 2.0));
        world
            .add_obstacle(Obstacle::Box { min: lo, max: hi })
            .unwrap();
        let far = (p(0.0, 3.5), p(0.2, 3.8));
        assert_eq!(check(&mut watch, &world, &walked, &[far]), 0);
        assert_eq!(check(&mut watch, &world, &walked, &[(lo, hi)]), 1);
        // A one-point path in the door.
        let mut watch = Watch::default();
        assert_eq!(check(&mut watch, &world, &[p(5.5, 1.5)], &[]), 1);
    }
}
