//! How fast a crowd's agent walks this update: the follower's speed profile over the path
//! just ahead of it.

use glam::DVec2;

use crate::follow::{Agent, CornerRule, DUPLICATE_TOLERANCE};

/// The speed (world units per second) at which an agent with the motion limits `limits`
/// walks the next `dt` seconds along `path` (from its position, `path[0]`), walking at
/// `now` and at most at `top` (and `limits.max_speed`): no faster than `now` plus what it
/// may gain in `dt`, and slow enough to brake in time for every corner ahead to the
/// corner's cap ([`CornerRule::cap`]: the follower's rounding rule, 0 where the turn
/// stops it), and to stand at the path's end when `stops_at_end`.
///
/// This is the speed profile's backward pass ([`SpeedProfile`](crate::follow::SpeedProfile):
/// v ≤ √(cap² + 2·b·d) for a corner d ahead) over only the stretch within braking
/// distance, v²/(2·b), beyond which no corner can slow the agent: a few segments, where a
/// profile of the whole path would be O(points) again after every re-plan. The corner at
/// `path[1]` is measured with its outgoing leg only (its incoming leg is what is left of
/// the segment the agent walks, not the segment). Cost: O(points within braking distance).
pub(crate) fn pace(
    path: &[DVec2],
    (now, top): (f64, f64),
    dt: f64,
    limits: &Agent,
    stops_at_end: bool,
) -> f64 {
    let top = top.min(limits.max_speed);
    let rule = CornerRule::new(limits, top);
    let b = limits.max_brake;
    let mut pace = top.min(now + limits.max_accel * dt);
    let mut ahead = 0.0;
    let mut leg_in = None;
    for (i, leg) in path.windows(2).enumerate() {
        let length = leg[0].distance(leg[1]);
        // A leg of rounding's size makes no corner (the speed profile's duplicate points):
        // the agent may stand an ulp past the vertex it walked over, which its path still
        // lists (a reversal, were it read).
        if length <= DUPLICATE_TOLERANCE * leg[0].abs().max_element().max(1.0) {
            continue;
        }
        let dir = (leg[1] - leg[0]) / length;
        if let Some((u, l_in)) = leg_in {
            // The corner at `leg[0]`, `ahead` away.
            let l_in = if i == 1 { f64::INFINITY } else { l_in };
            let cap = rule.cap((u, l_in), (dir, length));
            pace = pace.min(braking_to(cap, ahead, b, dt));
        }
        ahead += length;
        if braking_to(0.0, ahead, b, dt) >= pace {
            // Beyond braking distance: nothing further on slows the agent now.
            return pace;
        }
        leg_in = Some((dir, length));
    }
    if stops_at_end {
        pace = pace.min(braking_to(0.0, ahead, b, dt));
    }
    pace
}

/// The mean speed over the next `dt` of an agent that brakes at `b` to reach a point `d`
/// ahead at speed `cap`, starting the step as fast as that allows, √(cap² + 2·b·d). Exact
/// for the step, where a speed of √(2·b·d) for the whole step would overshoot the point
/// and, taken again each step, creep up to it (the last tenth of a stop took a second at
/// ten steps a second): the step's mean speed is the start speed less ½·b·dt while it
/// brakes the whole step; one that reaches the point within the step goes on at `cap`
/// for the rest (a stop, `cap` = 0, ends exactly at the point).
fn braking_to(cap: f64, d: f64, b: f64, dt: f64) -> f64 {
    let start = (cap * cap + 2.0 * b * d).sqrt();
    if dt <= 0.0 {
        start
    } else if start - b * dt >= cap {
        start - 0.5 * b * dt
    } else {
        let t = (start - cap) / b;
        (d + cap * (dt - t)) / dt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Agent {
        Agent {
            max_speed: 2.0,
            max_accel: 1.0,
            max_brake: 2.0,
            ..Agent::default()
        }
    }

    #[test]
    fn accelerates_by_its_limit_from_rest() {
        let path = [DVec2::ZERO, DVec2::new(100.0, 0.0)];
        assert_eq!(pace(&path, (0.0, 1.5), 0.1, &limits(), true), 0.1);
        assert_eq!(pace(&path, (1.45, 1.5), 0.1, &limits(), true), 1.5);
        // The profile's top speed caps the agent's own.
        assert_eq!(pace(&path, (2.0, 3.0), 0.1, &limits(), true), 2.0);
    }

    #[test]
    fn brakes_to_stand_at_the_end_only_when_it_ends_there() {
        // 0.25 ahead at b = 2: 1 m/s at the step's start, 0.8 at its end.
        let path = [DVec2::ZERO, DVec2::new(0.25, 0.0)];
        assert_eq!(pace(&path, (1.5, 1.5), 0.1, &limits(), true), 0.9);
        assert_eq!(pace(&path, (1.5, 1.5), 0.1, &limits(), false), 1.5);
    }

    #[test]
    fn a_reversal_ahead_is_a_stop() {
        let path = [DVec2::ZERO, DVec2::new(0.25, 0.0), DVec2::new(-5.0, 0.0)];
        assert_eq!(pace(&path, (1.5, 1.5), 0.1, &limits(), false), 0.9);
    }

    #[test]
    fn a_stop_within_the_step_ends_exactly_there() {
        // 0.005 ahead: from √(2·2·0.005) ≈ 0.14 m/s it stands after 0.07 s of the 0.1.
        let path = [DVec2::ZERO, DVec2::new(0.005, 0.0)];
        let v = pace(&path, (1.5, 1.5), 0.1, &limits(), true);
        assert!((v * 0.1 - 0.005).abs() < 1e-15, "{v}");
    }

    #[test]
    fn a_vertex_an_ulp_behind_is_no_reversal() {
        let x = 4.5;
        let path = [
            DVec2::new(x + 1e-15, 0.0),
            DVec2::new(x, 0.0),
            DVec2::new(9.0, 0.0),
        ];
        assert_eq!(pace(&path, (1.5, 1.5), 0.1, &limits(), true), 1.5);
    }

    #[test]
    fn a_corner_beyond_braking_distance_does_not_slow() {
        // A reversal 0.7 ahead, b = 2: √(2·2·0.7) − ½·2·0.1 ≈ 1.57 > 1.5, no limit.
        let path = [DVec2::ZERO, DVec2::new(0.7, 0.0), DVec2::new(-5.0, 0.0)];
        assert_eq!(pace(&path, (1.5, 1.5), 0.1, &limits(), true), 1.5);
    }
}
