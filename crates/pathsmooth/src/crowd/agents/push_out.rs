//! Agents pushed out of an obstacle that lands on them (issue 40: "doors that close on an
//! agent push it out or keep open until it has left"): a [`Crowd`](super::Crowd) pushes,
//! as Detour's crowd moves an agent whose polygon went away to the nearest valid one
//! (`dtCrowd::checkPathValidity`).
//!
//! Before the obstacle is added, each agent near what it will block measures how far it
//! can slide along each of a few ways on the world as it still is ([`Exits::measure`]);
//! after, an agent left without room walks each way to the first point with room again
//! and takes the nearest ([`Exits::nearest_out`]). A way measured before the obstacle
//! crosses no wall, so no agent is pushed through one into the next room; a pocket of
//! room the new obstacle closes round is taken like any other point (the agent's repair
//! then finds it walled in, and it is stuck until the obstacle goes).

use std::f64::consts::FRAC_1_SQRT_2;

use glam::DVec2;

use super::{AgentIndex, CrowdAgent};
use crate::world::Bounds;

/// A world's segment test for a radius (`segment_is_clear(a, b, radius)`), taken as a
/// function so that this module is built once, not once per world type (the WebAssembly
/// build's size).
pub(super) type Clear<'a> = &'a dyn Fn(DVec2, DVec2, f64) -> bool;

/// The ways out of an obstacle's `bounds` (a box holding all it will block), measured on
/// the world before it lands (`clear`), of each agent near enough for it to land on:
/// within two radii and the world's `tolerance` of the box.
pub(super) fn exits(
    agents: &[CrowdAgent],
    bounds: Bounds,
    tolerance: f64,
    clear: Clear<'_>,
) -> Vec<(AgentIndex, Exits)> {
    let centre = 0.5 * (bounds.min + bounds.max);
    let mut exits = Vec::new();
    for (i, a) in agents.iter().enumerate() {
        let (p, r) = (a.agent_path().position(), a.radius());
        let margin = 2.0 * r + tolerance;
        if bounds.grown(margin).contains(p) {
            // Out of the box grown by the radius from anywhere in it.
            let reach = (bounds.size() + 2.0 * margin).length();
            exits.push((i, Exits::measure(&|a, b| clear(a, b, r), p, centre, reach)));
        }
    }
    exits
}

/// Moves each agent of `exits` that has no room on the world now (`clear`, after the
/// obstacle) to its nearest way out; the agents moved, in index order.
pub(super) fn push(
    agents: &mut [CrowdAgent],
    exits: &[(AgentIndex, Exits)],
    clear: Clear<'_>,
) -> Vec<AgentIndex> {
    let mut pushed = Vec::new();
    for (i, ways) in exits {
        let a = &mut agents[*i];
        let (p, r) = (a.agent_path().position(), a.radius());
        if clear(p, p, r) {
            continue;
        }
        if let Some(q) = ways.nearest_out(&|q| clear(q, q, r)) {
            a.push_to(q);
            pushed.push(*i);
        }
    }
    pushed
}

/// The ways tried: this many round the compass, after the way straight from the obstacle's
/// centre (for an agent near it, usually the nearest way out).
pub(super) const COMPASS: usize = 16;

/// The points tested along the longest way for the first with room, before the
/// bisection: a pocket of room shorter than a 64th of the reach can be stepped over (a
/// farther exit is taken).
const MARCH: usize = 64;

/// The bisections' rounds: a way's clear length to 2⁻²⁰ of the reach (rounded to the
/// clear side, so that a way is never taken past a wall), where room begins to 2⁻³⁶ of a
/// march step (far below the worlds' tolerance; rounded to the side with room).
const SLIDE_BISECT: usize = 20;
const ROOM_BISECT: usize = 36;

/// How much shorter (a fraction) a later way must be to be taken over an earlier one: ways
/// as long as each other but for the bisection's rounding go to the one tried first
/// (straight from the obstacle's centre, then east, then on counter-clockwise).
const TIE: f64 = 1e-9;

/// The ways an agent could be pushed along, measured before an obstacle lands.
#[derive(Debug, Clone)]
pub(super) struct Exits {
    from: DVec2,
    /// The march's step along every way (a [`MARCH`]th of the reach).
    step: f64,
    /// Each way's unit direction and how far along it a segment from `from` stays clear
    /// for the agent on the world before the obstacle.
    ways: Vec<(DVec2, f64)>,
}

impl Exits {
    /// The ways out from `from` for an agent for whom `clear` tells the segments clear on
    /// the world before the obstacle (the world's `segment_is_clear` at its radius), each
    /// measured up to `reach`: straight away from `centre`, then round the compass. An
    /// agent already without room has no way (each measures 0).
    ///
    /// Cost: up to 17 × 22 segment tests.
    pub(super) fn measure(
        clear: &dyn Fn(DVec2, DVec2) -> bool,
        from: DVec2,
        centre: DVec2,
        reach: f64,
    ) -> Exits {
        let away = (from - centre).normalize_or_zero();
        let first = usize::from(away == DVec2::ZERO);
        let mut ways = Vec::with_capacity(COMPASS + 1);
        for k in first..=COMPASS {
            let d = if k == 0 { away } else { compass_way(k - 1) };
            // How far the segment from `from` stays clear: 0 when `from` has no room.
            let length = if !clear(from, from) {
                0.0
            } else if clear(from, from + reach * d) {
                reach
            } else {
                bisect(0.0, reach, SLIDE_BISECT, &|t| clear(from, from + t * d)).0
            };
            ways.push((d, length));
        }
        let step = reach / MARCH as f64;
        Exits { from, step, ways }
    }

    /// The nearest point along the ways where `room` holds (the agent has room on the
    /// world after the obstacle), or `None` when no way has one. The segment from the
    /// agent to it was clear before the obstacle.
    ///
    /// Cost: up to 17 × (64 + 36) room tests, fewer as a near exit shortens the ways after.
    pub(super) fn nearest_out(&self, room: &dyn Fn(DVec2) -> bool) -> Option<DVec2> {
        let mut best: Option<(f64, DVec2)> = None;
        // (A reach of 0 has no step to march by; a checked obstacle's box never has.)
        if self.step.is_nan() || self.step <= 0.0 {
            return None;
        }
        for &(d, length) in &self.ways {
            let limit = best.map_or(length, |(t, _)| t.min(length));
            let room_at = |t: f64| room(self.from + t * d);
            // Tested a step apart, then bisected between the last without room and the
            // first with.
            let mut lo = 0.0;
            let mut k = 1.0;
            while lo < limit {
                let t = (self.step * k).min(limit);
                if room_at(t) {
                    let t = bisect(lo, t, ROOM_BISECT, &|t| !room_at(t)).1;
                    if best.is_none_or(|(b, _)| t < b * (1.0 - TIE)) {
                        best = Some((t, self.from + t * d));
                    }
                    break;
                }
                (lo, k) = (t, k + 1.0);
            }
        }
        best.map(|(_, q)| q)
    }
}

/// Bisects `lo..hi`, where `holds` holds at `lo` and not at `hi`, `rounds` times: the last
/// `lo` and `hi`.
fn bisect(mut lo: f64, mut hi: f64, rounds: usize, holds: &dyn Fn(f64) -> bool) -> (f64, f64) {
    for _ in 0..rounds {
        let mid = 0.5 * (lo + hi);
        if holds(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, hi)
}

/// The `k`-th way round the compass (counter-clockwise from +x, k < 16), from a table so
/// that the four along the axes are exact (a push along an axis keeps the other
/// coordinate) and no trigonometry is linked in (the WebAssembly build's size).
pub(super) fn compass_way(k: usize) -> DVec2 {
    // cos and sin of 0°, 22.5°, 45° and 67.5°, rounded to nearest.
    const COS: [f64; 4] = [
        1.0,
        0.923_879_532_511_286_7,
        FRAC_1_SQRT_2,
        0.382_683_432_365_089_8,
    ];
    const SIN: [f64; 4] = [0.0, COS[3], FRAC_1_SQRT_2, COS[1]];
    let (x, y) = (COS[k % 4], SIN[k % 4]);
    // The first quarter, turned by k / 4 right angles.
    match k / 4 % 4 {
        0 => DVec2::new(x, y),
        1 => DVec2::new(-y, x),
        2 => DVec2::new(-x, -y),
        _ => DVec2::new(y, -x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compass_is_sixteen_unit_ways_a_sixteenth_of_a_turn_apart() {
        for k in 0..COMPASS {
            let want = DVec2::from_angle(std::f64::consts::TAU * k as f64 / COMPASS as f64);
            let d = compass_way(k);
            assert!((d - want).length() < 1e-15, "{k}: {d} against {want}");
            if k % 4 == 0 {
                assert_eq!(d.x * d.y, 0.0, "{k}: {d} is not along an axis");
            }
        }
    }
}
