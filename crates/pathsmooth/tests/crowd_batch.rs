//! Many agent paths per frame in parallel (`crowd::update_batch`, issue 30 item 3): on a
//! Moving AI map, agents walk their paths for frames and now and then get new targets;
//! after every frame every agent path is valid, and the agent paths are the same, bit for bit,
//! on 1 and 2 threads.

use crate::common;

use glam::DVec2;
use pathsmooth::crowd::{update_batch, AgentMove, AgentPath};
use pathsmooth::{Error, GridWorld, Pipeline, Preset};

fn frames(world: &GridWorld, ends: &[(DVec2, DVec2)], threads: usize) -> Vec<Vec<Vec<DVec2>>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let steps = Preset::Smooth.steps();
    let radius = 0.3;
    let mut pipeline = Pipeline::new(world, radius)
        .unwrap()
        .with_steps(steps.clone());
    let mut paths: Vec<AgentPath> = ends
        .iter()
        .filter_map(|&(a, b)| AgentPath::new(&mut pipeline, a, b).ok())
        .collect();
    let mut seen = Vec::new();
    for frame in 0..12 {
        let moves: Vec<AgentMove> = paths
            .iter()
            .enumerate()
            .map(|(i, c)| AgentMove {
                position: c.steering_point(0.4),
                // Every 5th frame a third of the agents take another agent's start as goal.
                target: (frame % 5 == 4 && i % 3 == 0).then(|| ends[(i + frame) % ends.len()].0),
            })
            .collect();
        let done = pool
            .install(|| update_batch(world, radius, &steps, &mut paths, &moves))
            .unwrap();
        for (c, d) in paths.iter().zip(&done) {
            if d.is_ok() {
                assert!(c.is_valid(&pipeline), "frame {frame}");
                assert!(pathsmooth::is_valid(world, c.path(), radius));
            } else {
                assert!(c.is_stuck() || c.is_valid(&pipeline));
            }
        }
        seen.push(paths.iter().map(|c| c.path().to_vec()).collect());
    }
    seen
}

#[test]
fn batch_updates_are_valid_and_the_same_on_any_thread_count() {
    let (map, scen) = common::load("dao/arena");
    let world = GridWorld::new(map).unwrap();
    let ends: Vec<(DVec2, DVec2)> = common::sample(&scen, 60)
        .iter()
        .map(|s| (s.start_point(), s.goal_point()))
        .collect();
    let one = frames(&world, &ends, 1);
    let two = frames(&world, &ends, 2);
    assert!(one[0].len() >= 40, "{} agent paths", one[0].len());
    assert_eq!(one, two);
}

#[test]
fn a_batch_with_the_wrong_number_of_moves_is_refused_unchanged() {
    let world = GridWorld::new(pathsmooth::GridMap::from_rows(&["....", "...."]).unwrap()).unwrap();
    let mut pipeline = Pipeline::new(&world, 0.0).unwrap();
    let mut paths =
        vec![AgentPath::new(&mut pipeline, DVec2::new(0.5, 0.5), DVec2::new(3.5, 1.5)).unwrap()];
    let before = paths[0].path().to_vec();
    let e = update_batch(&world, 0.0, &[], &mut paths, &[]).unwrap_err();
    assert!(
        matches!(e, Error::BadParameter { name: "moves", .. }),
        "{e}"
    );
    assert_eq!(paths[0].path(), before.as_slice());
    // A move into a wall is that agent's error; the agent keeps its path.
    let wall = AgentMove {
        position: DVec2::new(9.0, 9.0),
        target: None,
    };
    let done = update_batch(&world, 0.0, &[], &mut paths, &[wall]).unwrap();
    assert!(done[0].is_err());
    assert_eq!(paths[0].path(), before.as_slice());
}
