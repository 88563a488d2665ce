//! Removing agents from a crowd ([`Crowd::remove_agent`]): the last agent takes the removed
//! one's index, every other agent keeps its own, and targets waiting to be planned follow
//! their agents. Checked against a model kept here (a list of each agent's identity, by
//! its start, updated as `Vec::swap_remove` would), over removals drawn with a fixed seed.

mod common;

use common::rng::Rng;
use glam::DVec2;
use pathsmooth::crowd::Crowd;
use pathsmooth::{GridMap, GridWorld, Preset};

#[test]
fn removing_agents_moves_only_the_last_one_and_keeps_queued_targets_with_their_agents() {
    let rows = [
        "................",
        "................",
        "................",
        "................",
    ];
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    // One plan per update, so that most new targets are still queued when agents go.
    let mut crowd = Crowd::new(world, 0.25, Preset::Smooth.steps())
        .unwrap()
        .with_plan_budget(Some(1))
        .unwrap();
    let mut rng = Rng::new(40);
    // The model: each slot's agent, named by the start it was added at.
    let mut model: Vec<DVec2> = Vec::new();
    for k in 0..12 {
        let start = DVec2::new(0.5 + k as f64, 0.5);
        crowd
            .add_agent(start, DVec2::new(0.5 + k as f64, 3.5), 1.0)
            .unwrap();
        model.push(start);
    }
    // Every agent asks for a new target: its own column, row 2, so a planned target names
    // its agent.
    for (i, start) in model.iter().enumerate() {
        crowd.set_target(i, DVec2::new(start.x, 2.5)).unwrap();
    }
    crowd.update(0.0).unwrap();
    while !model.is_empty() {
        let i = (rng.next_u64() % model.len() as u64) as usize;
        let last = model.len() - 1;
        let moved = crowd.remove_agent(i).unwrap();
        model.swap_remove(i);
        assert_eq!(
            moved,
            (i != last).then_some(last),
            "removing {i} of {}",
            last + 1
        );
        assert_eq!(crowd.agents().len(), model.len());
        // Positions have not changed (updates of 0 s): each slot holds the model's agent.
        for (a, start) in crowd.agents().iter().zip(&model) {
            assert_eq!(a.agent_path().position(), *start);
        }
        crowd.update(0.0).unwrap();
    }
    // Out of range, on the empty crowd: refused.
    assert!(crowd.remove_agent(0).is_err());
}

#[test]
fn queued_targets_are_planned_for_the_agent_that_asked_after_removals() {
    let rows = ["..........", "..........", ".........."];
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let mut crowd = Crowd::new(world, 0.25, Preset::Smooth.steps())
        .unwrap()
        .with_plan_budget(Some(1))
        .unwrap();
    let starts: Vec<DVec2> = (0..5)
        .map(|k| DVec2::new(0.5 + 2.0 * k as f64, 0.5))
        .collect();
    for &s in &starts {
        crowd.add_agent(s, s, 1.0).unwrap();
    }
    for (i, s) in starts.iter().enumerate() {
        crowd.set_target(i, DVec2::new(s.x, 2.5)).unwrap();
    }
    // Agent 1 goes; agent 4 (the last) takes index 1 with its target still queued.
    assert_eq!(crowd.remove_agent(1).unwrap(), Some(4));
    for _ in 0..8 {
        crowd.update(0.0).unwrap();
    }
    for a in crowd.agents() {
        let start = a.agent_path().position();
        assert_eq!(
            a.agent_path().target(),
            DVec2::new(start.x, 2.5),
            "agent from {start}"
        );
    }
}
