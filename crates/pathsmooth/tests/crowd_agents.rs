//! Removing agents from a crowd ([`Crowd::remove_agent`]): the last agent takes the removed
//! one's index, every other agent keeps its own, and targets waiting to be planned follow
//! their agents. Checked against a model kept here (a list of each agent's identity, by
//! its start, updated as `Vec::swap_remove` would), over removals drawn with a fixed seed.
//! And the plan budget ([`Crowd::with_plan_budget`]): only targets that take a plan wait.

use crate::common;

use common::rng::Rng;
use glam::DVec2;
use pathsmooth::crowd::Crowd;
use pathsmooth::{GridMap, GridWorld, Preset};

#[test]
fn removing_agents_moves_only_the_last_one_and_keeps_queued_targets_with_their_agents() {
    // A wall between the agents and their new targets, so that each target takes a plan.
    let rows = [
        "................",
        "@@@@@@@@@@@@@@@.",
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
        crowd.add_agent(start, start, 1.0).unwrap();
        model.push(start);
    }
    // Every agent asks for a new target: its own column, row 2, so a planned target names
    // its agent.
    for (i, start) in model.iter().enumerate() {
        crowd.set_target(i, DVec2::new(start.x, 2.5)).unwrap();
    }
    crowd.update(0.0).unwrap();
    assert_eq!(crowd.agents().iter().filter(|a| a.waiting()).count(), 11);
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
    let rows = ["..........", "@@@@@@@@@.", ".........."];
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

/// Under a budget of `b` plans an update, a target that the agent's position or its
/// path's end sees is taken in the next update, whatever the queue; the others are
/// planned `b` an update, first asked first served; each agent ends on the path to its
/// own target.
#[test]
fn a_plan_budget_holds_back_plans_only_first_asked_first_served() {
    let rows = [
        "....................",
        "....................",
        "@@@@@@@@@@@@@@@@@@@.",
        "....................",
    ];
    for budget in [1, 2, 3] {
        let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
        let mut crowd = Crowd::new(world, 0.25, Preset::Smooth.steps())
            .unwrap()
            .with_plan_budget(Some(budget))
            .unwrap();
        let mut rng = Rng::new(7 + budget as u64);
        let mut behind = Vec::new(); // agents whose new targets lie beyond the wall
        for k in 0..16 {
            let s = DVec2::new(0.5 + k as f64, 0.5);
            crowd.add_agent(s, s, 1.0).unwrap();
            let row = if rng.next_u64().is_multiple_of(2) {
                1.5
            } else {
                3.5
            };
            let t = DVec2::new(0.5 + (rng.next_u64() % 19) as f64, row);
            crowd.set_target(k, t).unwrap();
            if row > 2.0 {
                behind.push(k);
            }
        }
        let seen = 16 - behind.len();
        let mut served = 0;
        while served < behind.len() {
            let frame = crowd.update(0.0).unwrap();
            let planned = budget.min(behind.len() - served);
            let first = served == 0;
            assert_eq!(
                frame.adjusted,
                if first { seen } else { 0 },
                "budget {budget}"
            );
            assert_eq!(frame.replans, planned, "budget {budget}");
            assert_eq!(frame.waiting, behind.len() - served - planned);
            // The first asked are the ones planned.
            for (n, &k) in behind.iter().enumerate() {
                assert_eq!(crowd.agents()[k].waiting(), n >= served + planned);
            }
            served += planned;
        }
        for a in crowd.agents() {
            assert!(!a.waiting());
            let path = a.agent_path().path();
            assert!(path.len() >= 2 && path[0] == a.agent_path().position());
        }
    }
}

#[test]
fn an_obstacle_that_leaves_no_room_for_the_radius_makes_agents_stuck_not_a_panic() {
    // Three rows: the middle row has clearance 1.5, room for radius 1.0 until a wall of
    // crates fills it; then nowhere has room, and the agent is stuck with the reason.
    let rows = ["..........", "..........", ".........."];
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let mut crowd = Crowd::new(world, 1.0, Preset::Smooth.steps()).unwrap();
    crowd
        .add_agent(DVec2::new(1.5, 1.5), DVec2::new(8.5, 1.5), 1.0)
        .unwrap();
    crowd
        .add_obstacle(pathsmooth::world::Obstacle::Box {
            min: DVec2::new(0.0, 1.0),
            max: DVec2::new(10.0, 2.0),
        })
        .unwrap();
    let frame = crowd.update(0.1).unwrap();
    assert_eq!(frame.stuck, 1);
}

#[test]
fn agent_radii_are_checked_shared_and_capped_and_a_refused_agent_leaves_no_radius_behind() {
    let rows = ["........", "........", "........", "........"];
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    // On two threads where it can (each thread holds a pipeline per radius).
    let threads = if cfg!(feature = "rayon") { 2 } else { 1 };
    let mut crowd = Crowd::new(world, 0.25, Preset::Smooth.steps())
        .unwrap()
        .with_threads(threads)
        .unwrap();
    let (s, g) = (DVec2::new(1.5, 1.5), DVec2::new(6.5, 2.5));
    for bad in [f64::NAN, f64::INFINITY, -0.1, 2.5] {
        assert!(
            crowd.add_agent_with_radius(s, g, 1.0, bad).is_err(),
            "{bad}"
        );
    }
    assert_eq!(crowd.radii(), &[0.25]);
    // A start inside a wall's reach for the new radius: refused, and the radius goes too.
    assert!(crowd
        .add_agent_with_radius(DVec2::new(0.2, 0.2), g, 1.0, 1.0)
        .is_err());
    assert_eq!(crowd.radii(), &[0.25]);
    // Equal radii share one; the crowd's own is the first.
    for r in [0.25, 0.5, 0.5, 0.75] {
        crowd.add_agent_with_radius(s, g, 1.0, r).unwrap();
    }
    assert_eq!(crowd.radii(), &[0.25, 0.5, 0.75]);
    let sizes: Vec<f64> = crowd.agents().iter().map(|a| a.radius()).collect();
    assert_eq!(sizes, [0.25, 0.5, 0.5, 0.75]);
    // At most MAX_RADII.
    let mut k = 0;
    while crowd.radii().len() < pathsmooth::crowd::MAX_RADII {
        crowd
            .add_agent_with_radius(s, g, 1.0, 0.01 * (k + 1) as f64)
            .unwrap();
        k += 1;
    }
    assert!(crowd.add_agent_with_radius(s, g, 1.0, 0.9).is_err());
    assert!(crowd.add_agent_with_radius(s, g, 1.0, 0.5).is_ok());
    // Every agent walks, its path kept for its own radius.
    for _ in 0..400 {
        crowd.update(1.0 / 20.0).unwrap();
    }
    assert!(crowd.agents().iter().all(|a| a.arrived()));
}
