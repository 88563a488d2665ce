//! Your own occupancy grid and your own A* path, made smooth and safe for an agent.
//!
//! A game keeps its level as a grid of 0.5 m cells with its origin at (−6, −4) m and plans
//! with its own A* (here: the `pathfinding` crate, 8-connected without corner cutting).
//! The path it gets hugs walls and zig-zags; a `Pipeline` over a `GridWorld` of the same
//! grid turns it into a short, round path that keeps 0.2 m from every wall, or says why it
//! cannot.
//!
//! Run: `cargo run -p pathsmooth --example grid`

use glam::Vec2;
use pathfinding::prelude::astar;
use pathsmooth::metrics::PathMetrics;
use pathsmooth::{GridWorld, Pipeline, Preset};

const ROWS: [&str; 16] = [
    "........................",
    "........................",
    "...#########.....#......",
    "...#.............#......",
    "...#.............#......",
    "...#.....#########......",
    "...#....................",
    "...#....................",
    "........#######.........",
    "..............#.........",
    "..............#....###..",
    "......#.......#....###..",
    "......#.......#.........",
    "......#########.........",
    "........................",
    "........................",
];
const CELL: f32 = 0.5;
const ORIGIN: Vec2 = Vec2::new(-6.0, -4.0);

fn free(x: i32, y: i32) -> bool {
    (0..24).contains(&x) && (0..16).contains(&y) && ROWS[y as usize].as_bytes()[x as usize] == b'.'
}

/// The game's own planner: A* over cells, 8-connected, no corner cutting.
fn game_astar(start: (i32, i32), goal: (i32, i32)) -> Option<Vec<(i32, i32)>> {
    let successors = |&(x, y): &(i32, i32)| {
        let mut next = Vec::new();
        for (dx, dy) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let diagonal = dx != 0 && dy != 0;
            if free(x + dx, y + dy) && (!diagonal || (free(x + dx, y) && free(x, y + dy))) {
                next.push(((x + dx, y + dy), if diagonal { 14 } else { 10 }));
            }
        }
        next
    };
    let octile = |&(x, y): &(i32, i32)| {
        let (dx, dy) = ((x - goal.0).abs(), (y - goal.1).abs());
        10 * dx.max(dy) + 4 * dx.min(dy)
    };
    astar(&start, successors, octile, |&c| c == goal).map(|(cells, _)| cells)
}

fn main() -> Result<(), pathsmooth::Error> {
    let cells = game_astar((1, 14), (22, 1)).expect("the level is connected");
    // Cell centres in the game's world coordinates (metres).
    let path: Vec<Vec2> = cells
        .iter()
        .map(|&(x, y)| ORIGIN + (Vec2::new(x as f32, y as f32) + 0.5) * CELL)
        .collect();

    // The same grid as a world: cell size and origin in metres, `true` = free.
    let world = GridWorld::from_fn(24, 16, CELL as f64, ORIGIN.as_dvec2(), |x, y| {
        free(x as i32, y as i32)
    })?;
    let mut pipeline = Pipeline::preset(world, 0.2, Preset::Smooth)?;
    let smooth = pipeline.smooth(&path)?;

    let (before, after) = (PathMetrics::of(&path)?, PathMetrics::of(&smooth)?);
    let report = pipeline.report();
    println!(
        "A*:     {:3} points, {:6.2} m, sharpest turn {:5.1}°",
        before.points,
        before.length,
        before.max_turn.to_degrees()
    );
    println!(
        "smooth: {:3} points, {:6.2} m, sharpest turn {:5.1}°, clearance {:.3} m ({} stretches re-planned)",
        after.points,
        after.length,
        after.max_turn.to_degrees(),
        report.validation.min_clearance,
        report.repaired_segments
    );
    assert!(report.validation.min_clearance >= 0.2);
    assert_eq!(smooth.first(), path.first());
    assert_eq!(smooth.last(), path.last());
    println!("start {:?}, end {:?}", smooth[0], smooth[smooth.len() - 1]);
    Ok(())
}
