//! Crowds whose agents avoid one another ([`Crowd::with_avoidance`]), in the standard
//! scenarios of local avoidance: a circle of agents swapping to the antipodes, two groups
//! crossing through a door, a corridor walked both ways. Every frame is judged by checks
//! written here, not the library's: agent pairs closer than the sum of their radii by more
//! than 1 % (an overlap), agents closer than their radius to a blocked cell or the map's
//! edge by more than 1 % (a wall hit, the distance to each blocked cell's square measured
//! directly), and agents that reached their goal. Without avoidance the same scenarios
//! overlap, so the checks can fail.
//!
//! What holds today (`docs/crowd.md`, "Avoidance"): two agents head-on and the circle never
//! touch; in the door and the corridor, where the walls are not yet constraints of the
//! avoidance, overlaps fall to a small fraction of those without it, not to none; the
//! circle of 16 jams in a ring at its centre (no agent arrives within 30 s). The tests
//! assert those figures, so that a change that loses them fails, and print the counts.

use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd};
use pathsmooth::{GridMap, GridWorld, Preset};

const RADIUS: f64 = 0.3;
const SPEED: f64 = 1.5;
const HZ: f64 = 60.0;

/// What a run showed: overlapping agent-pair-frames, agent-frames within a wall's reach,
/// agents that reached their goal, and the second the last of them did.
#[derive(Debug)]
struct Outcome {
    overlaps: usize,
    wall_hits: usize,
    arrived: usize,
    last_arrival: f64,
}

/// The distance from `p` to the nearest blocked cell (each the unit square it covers) or
/// the map's edge.
fn wall_distance(rows: &[&str], p: DVec2) -> f64 {
    let (w, h) = (rows[0].len() as f64, rows.len() as f64);
    let mut best = p.x.min(p.y).min(w - p.x).min(h - p.y);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            if c != b'.' {
                let lo = DVec2::new(x as f64, y as f64);
                let nearest = p.clamp(lo, lo + 1.0);
                best = best.min(nearest.distance(p));
            }
        }
    }
    best
}

/// Runs agents from `starts` to `goals` on the map `rows` for at most `seconds`.
fn run(rows: &[&str], starts: &[DVec2], goals: &[DVec2], avoid: bool, seconds: f64) -> Outcome {
    let world = GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap();
    let mut crowd = Crowd::new(world, RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(avoid.then(Avoidance::default))
        .unwrap();
    for (&s, &g) in starts.iter().zip(goals) {
        crowd.add_agent(s, g, SPEED).unwrap();
    }
    let mut out = Outcome {
        overlaps: 0,
        wall_hits: 0,
        arrived: 0,
        last_arrival: 0.0,
    };
    let mut reached = vec![false; starts.len()];
    let frames = (seconds * HZ).round() as usize;
    for f in 1..=frames {
        crowd.update(1.0 / HZ).unwrap();
        let at: Vec<DVec2> = crowd
            .agents()
            .iter()
            .map(|a| a.agent_path().position())
            .collect();
        for i in 0..at.len() {
            assert!(at[i].is_finite(), "agent {i} at {}", at[i]);
            for j in i + 1..at.len() {
                if at[i].distance(at[j]) < 0.99 * 2.0 * RADIUS {
                    out.overlaps += 1;
                }
            }
            if wall_distance(rows, at[i]) < 0.99 * RADIUS {
                out.wall_hits += 1;
            }
            if !reached[i] && at[i].distance(goals[i]) < 1e-9 {
                reached[i] = true;
                out.arrived += 1;
                out.last_arrival = f as f64 / HZ;
            }
        }
        if out.arrived == starts.len() {
            break;
        }
    }
    out
}

fn open_map(w: usize, h: usize) -> Vec<String> {
    vec![".".repeat(w); h]
}

#[test]
fn two_agents_head_on_pass_without_touching() {
    let rows = open_map(12, 5);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let starts = [DVec2::new(0.5, 2.5), DVec2::new(11.5, 2.5)];
    let goals = [starts[1], starts[0]];
    assert!(run(&rows, &starts, &goals, false, 20.0).overlaps > 0);
    let avoiding = run(&rows, &starts, &goals, true, 20.0);
    assert_eq!(
        (avoiding.overlaps, avoiding.wall_hits, avoiding.arrived),
        (0, 0, 2),
        "{avoiding:?}"
    );
}

#[test]
fn a_circle_of_agents_swapping_to_the_antipodes_never_touches() {
    let rows = open_map(24, 24);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let centre = DVec2::splat(12.0);
    let n = 16;
    let starts: Vec<DVec2> = (0..n)
        .map(|k| {
            let t = std::f64::consts::TAU * k as f64 / n as f64;
            centre + 9.0 * DVec2::new(t.cos(), t.sin())
        })
        .collect();
    let goals: Vec<DVec2> = starts.iter().map(|&s| 2.0 * centre - s).collect();
    let through = run(&rows, &starts, &goals, false, 30.0);
    assert!(through.overlaps > 0, "{through:?}");
    let avoiding = run(&rows, &starts, &goals, true, 30.0);
    println!("circle: without {through:?}, with {avoiding:?}");
    // No touch; but the agents jam in a ring at the centre (see the module's docs).
    assert_eq!(
        (avoiding.overlaps, avoiding.wall_hits),
        (0, 0),
        "{avoiding:?}"
    );
}

#[test]
fn two_groups_crossing_through_a_door_touch_far_less_and_all_arrive() {
    // A wall across the middle of a 20 × 16 room, with a door 3 cells wide.
    let mut rows = open_map(20, 16);
    rows[8] = format!("{}...{}", "@".repeat(9), "@".repeat(8));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut starts = Vec::new();
    let mut goals = Vec::new();
    for k in 0..6 {
        let x = 7.5 + k as f64;
        starts.push(DVec2::new(x, 3.5));
        goals.push(DVec2::new(x, 13.5));
        starts.push(DVec2::new(x, 12.5));
        goals.push(DVec2::new(x, 2.5));
    }
    let through = run(&rows, &starts, &goals, false, 40.0);
    let avoiding = run(&rows, &starts, &goals, true, 40.0);
    println!("door: without {through:?}, with {avoiding:?}");
    assert_eq!(avoiding.wall_hits, 0, "{avoiding:?}");
    assert_eq!(avoiding.arrived, starts.len(), "{avoiding:?}");
    assert!(
        avoiding.overlaps * 50 < through.overlaps,
        "{avoiding:?} against {through:?}"
    );
}

#[test]
fn a_corridor_walked_both_ways_touches_less_and_all_arrive() {
    // A corridor 3 cells wide and 30 long; five agents enter from each end.
    let rows = [
        "@".repeat(30),
        ".".repeat(30),
        ".".repeat(30),
        ".".repeat(30),
        "@".repeat(30),
    ];
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut starts = Vec::new();
    let mut goals = Vec::new();
    for k in 0..5 {
        let y = 1.5 + (k % 3) as f64;
        starts.push(DVec2::new(0.5 + k as f64, y));
        goals.push(DVec2::new(29.5 - k as f64, y));
        starts.push(DVec2::new(29.5 - k as f64, 5.0 - y));
        goals.push(DVec2::new(0.5 + k as f64, 5.0 - y));
    }
    let through = run(&rows, &starts, &goals, false, 40.0);
    let avoiding = run(&rows, &starts, &goals, true, 40.0);
    println!("corridor: without {through:?}, with {avoiding:?}");
    assert_eq!(avoiding.wall_hits, 0, "{avoiding:?}");
    assert_eq!(avoiding.arrived, starts.len(), "{avoiding:?}");
    assert!(
        avoiding.overlaps * 2 < through.overlaps,
        "{avoiding:?} against {through:?}"
    );
}
