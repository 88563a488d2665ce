//! Placing a scene's agents apart from one another: a hash of cells 2.5 radii across (and
//! 2 m high, for floors over one another), each new start checked against its neighbours'.

use std::collections::HashSet;

use glam::DVec2;
use pathsmooth::{Error, Result};

/// Draws starts from `scene` with `draw` until `agents` are placed: a start within a cell
/// of a placed one is drawn again, and one `add` refuses (it returns false: no room, out
/// of reach) too. `at` gives a start's plan-view point and height. Agents are of `radius`.
///
/// Errors: [`Error::BadParameter`] (`agents`) when 100 draws an agent do not place them all.
pub(crate) fn place_apart<S, P: Copy>(
    scene: &mut S,
    (agents, radius): (usize, f64),
    draw: impl Fn(&mut S) -> P,
    at: impl Fn(P) -> (DVec2, f64),
    add: impl Fn(&mut S, P) -> bool,
) -> Result<()> {
    let cell = 2.5 * radius;
    let key = |p: P| {
        let (q, h) = at(p);
        let k = |x: f64, side: f64| (x / side).floor() as i64;
        (k(q.x, cell), k(q.y, cell), k(h, 2.0))
    };
    let mut taken: HashSet<(i64, i64, i64)> = HashSet::new();
    let (mut placed, mut tries) = (0, 0usize);
    while placed < agents {
        tries += 1;
        if tries > 100 * agents.max(1) {
            return Err(Error::BadParameter {
                name: "agents",
                value: agents as f64,
                expected: "as many as fit apart (100 draws an agent)",
            });
        }
        let p = draw(scene);
        let (kx, ky, kh) = key(p);
        let near = (-1..=1).any(|dx| {
            (-1..=1).any(|dy| (-1..=1).any(|dh| taken.contains(&(kx + dx, ky + dy, kh + dh))))
        });
        if !near && add(scene, p) {
            taken.insert((kx, ky, kh));
            placed += 1;
        }
    }
    Ok(())
}
