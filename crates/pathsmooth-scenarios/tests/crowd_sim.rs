//! The crowd and its benchmark scenario (issue 30): on real maps, with agents re-targeted
//! and doors closing on their agent paths, every agent's path is valid after every frame —
//! by the simulation's own check and by an oracle written here from the map's cells and
//! the doors' squares; the same crowd on one and two threads walks the same paths; doors
//! that close on an agent, unreachable targets and bad values give a documented state or a
//! clear error.

// The Moving AI maps, as the library's tests find and load them.
#[allow(dead_code)]
#[path = "../../pathsmooth/tests/common/maps.rs"]
mod common;

use glam::{DVec2, IVec2};
use pathsmooth::crowd::Crowd;
use pathsmooth::navmesh::NavMesh;
use pathsmooth::world::Obstacle;
use pathsmooth::{is_valid, Error, GridMap, GridWorld, Preset, SurfaceWorld};
use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation};

/// True when the segment `a`–`b` meets the box `lo`–`hi`, open (`strict`) or closed:
/// Liang–Barsky clipping.
fn meets_box(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2, strict: bool) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, d, l, h) in [(a.x, b.x - a.x, lo.x, hi.x), (a.y, b.y - a.y, lo.y, hi.y)] {
        if d == 0.0 {
            let within = if strict {
                p > l && p < h
            } else {
                p >= l && p <= h
            };
            if !within {
                return false;
            }
        } else {
            let (u, v) = ((l - p) / d, (h - p) / d);
            (t0, t1) = (t0.max(u.min(v)), t1.min(u.max(v)));
        }
    }
    if strict {
        t0 < t1
    } else {
        t0 <= t1
    }
}

/// Distance from the segment `a`–`b` to the closed box `lo`–`hi`: 0 when they meet, else
/// the least of the endpoints' distances to the box and the box's corners' distances to
/// the segment (the nearest points of two disjoint convex polygons include a vertex of one
/// of them).
fn segment_box_gap(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2) -> f64 {
    if meets_box(a, b, lo, hi, false) {
        return 0.0;
    }
    let point_gap = |p: DVec2| (lo - p).max(p - hi).max(DVec2::ZERO).length();
    let corners = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    let to_segment = |c: DVec2| {
        let d = b - a;
        let t = if d == DVec2::ZERO {
            0.0
        } else {
            ((c - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
        };
        c.distance(a + d * t)
    };
    let ends = point_gap(a).min(point_gap(b));
    corners.into_iter().map(to_segment).fold(ends, f64::min)
}

/// True when `path` keeps `r` (less 10⁻⁹) from every blocked cell of `map`, every cell
/// of the `doors` (cell-aligned squares), and the map's border; at `r` = 0, when it enters
/// none of their open squares.
fn oracle_clear(map: &GridMap, doors: &[(DVec2, DVec2)], path: &[DVec2], r: f64) -> bool {
    let (w, h) = (map.width() as f64, map.height() as f64);
    let blocked = |x: i64, y: i64| {
        map.is_blocked(x, y)
            || doors.iter().any(|&(lo, hi)| {
                let c = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
                c.cmpgt(lo).all() && c.cmplt(hi).all()
            })
    };
    let segments: Vec<(DVec2, DVec2)> = match path {
        [p] => vec![(*p, *p)],
        _ => path.windows(2).map(|s| (s[0], s[1])).collect(),
    };
    segments.into_iter().all(|(a, b)| {
        let border = [a, b]
            .iter()
            .map(|p| p.x.min(w - p.x).min(p.y).min(h - p.y))
            .fold(f64::INFINITY, f64::min);
        if border < r - 1e-9 {
            return false;
        }
        let reach = r + 1.0;
        let (lo, hi) = ((a.min(b) - reach).floor(), (a.max(b) + reach).floor());
        (lo.y as i64..=hi.y as i64).all(|y| {
            (lo.x as i64..=hi.x as i64).all(|x| {
                let lo = DVec2::new(x as f64, y as f64);
                !blocked(x, y)
                    || if r == 0.0 {
                        // A point agent may touch a wall, not enter it.
                        !meets_box(a, b, lo, lo + DVec2::ONE, true)
                    } else {
                        segment_box_gap(a, b, lo, lo + DVec2::ONE) >= r - 1e-9
                    }
            })
        })
    })
}

#[test]
fn every_path_is_valid_after_every_frame_on_real_maps() {
    let names = if common::slow() {
        common::MAPS.to_vec()
    } else {
        vec!["dao/arena", "dao/den312d"]
    };
    let maps = common::real_maps(&names);
    let (mut closed, mut blocked, mut replans, mut frames) = (0, 0, 0, 0);
    for (name, map, _) in maps {
        // The oracle itself: a diagonal across the map meets walls; a door on an open
        // cell's square blocks a path through it, and at the radius a path beside it.
        let (w, h) = (map.width() as f64, map.height() as f64);
        let across = [DVec2::new(0.5, 0.5), DVec2::new(w - 0.5, h - 0.5)];
        assert!(!oracle_clear(&map, &[], &across, 0.0), "{name}");
        let (mut y, mut x) = (0, 0);
        while map.is_blocked(x, y) || map.is_blocked(x + 1, y) {
            (x, y) = if x + 2 < map.width() as i64 {
                (x + 1, y)
            } else {
                (0, y + 1)
            };
        }
        let cell = DVec2::new(x as f64, y as f64);
        let through = [cell + 0.5, cell + DVec2::new(1.5, 0.5)];
        assert!(oracle_clear(&map, &[], &[through[0]], 0.0), "{name}");
        assert!(
            !oracle_clear(&map, &[(cell, cell + 1.0)], &through, 0.0),
            "{name}"
        );
        let beside = [cell + DVec2::new(1.2, 0.5), cell + DVec2::new(1.7, 0.5)];
        assert!(
            !oracle_clear(&map, &[(cell, cell + 1.0)], &beside, 0.3),
            "{name}"
        );
        for radius in [0.0, 0.3] {
            let scenario = CrowdScenario {
                agents: 60,
                radius,
                goal_range: 24.0,
                retarget_seconds: 2.0,
                doors: 3,
                door_seconds: 0.5,
                ..Default::default()
            };
            let mut sim = CrowdSimulation::new(GridWorld::new(map.clone()).unwrap(), scenario)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            for _ in 0..240 {
                let f = sim.frame().unwrap();
                (closed, blocked, replans) = (
                    closed + f.doors_closed,
                    blocked + f.blocked,
                    replans + f.crowd.replans,
                );
                assert_eq!(
                    f.crowd.failed,
                    0,
                    "{name} r={radius} frame {}",
                    sim.frames()
                );
                assert_eq!(sim.check(), 0, "{name} r={radius} frame {}", sim.frames());
                let doors: Vec<(DVec2, DVec2)> = sim
                    .doors()
                    .filter(|d| d.2)
                    .map(|(lo, hi, _)| (lo, hi))
                    .collect();
                for (i, a) in sim.crowd().agents().iter().enumerate() {
                    let c = a.agent_path();
                    assert!(
                        oracle_clear(&map, &doors, c.path(), radius),
                        "{name} r={radius} frame {} agent {i}: {:?}",
                        sim.frames(),
                        c.path()
                    );
                    assert_eq!(c.path()[0], c.position());
                }
                frames += 1;
            }
        }
    }
    // The doors did close across agent paths, and the agent paths re-planned.
    assert!(
        closed > 0 && blocked > 0 && replans > 0,
        "{closed} {blocked} {replans}"
    );
    assert!(frames >= 960);
}

#[cfg(feature = "rayon")]
#[test]
fn one_and_two_threads_walk_the_same_paths() {
    let (map, _) = common::load("dao/den312d");
    let run = |threads: usize, plan_budget: Option<usize>| {
        let scenario = CrowdScenario {
            agents: 200,
            threads,
            goal_range: 32.0,
            door_seconds: 0.5,
            plan_budget,
            ..Default::default()
        };
        let mut sim = CrowdSimulation::new(GridWorld::new(map.clone()).unwrap(), scenario).unwrap();
        let frames: Vec<_> = (0..150)
            .map(|_| {
                let f = sim.frame().unwrap();
                assert_eq!(sim.check(), 0);
                f
            })
            .collect();
        let paths: Vec<Vec<DVec2>> = sim
            .crowd()
            .agents()
            .iter()
            .map(|a| a.agent_path().path().to_vec())
            .collect();
        (frames, paths)
    };
    assert_eq!(run(1, None), run(2, None));
    // Under a plan budget too; and the budget makes new goals wait, never a path invalid.
    let one = run(1, Some(1));
    assert_eq!(one, run(2, Some(1)));
    let frames = one.0;
    assert!(frames.iter().any(|f| f.crowd.waiting > 0));
    assert!(frames.iter().all(|f| f.crowd.failed == 0));
}

/// True for the errors of a target the planner cannot reach.
fn out_of_reach(e: Option<&Error>) -> bool {
    matches!(e, Some(Error::Unreachable { .. } | Error::TooNarrow { .. }))
}

/// Two rooms side by side, the wall between them (x = 5, rows 2 and 3) leaving a gap above
/// it (rows 0 and 1) and one below (row 4).
fn room_map() -> GridMap {
    let rows = [
        "...........",
        "...........",
        ".....@.....",
        ".....@.....",
        "...........",
    ];
    GridMap::from_rows(&rows).unwrap()
}

fn room_world() -> GridWorld {
    GridWorld::new(room_map()).unwrap()
}

/// Boxes that close `room_map`'s gaps in the wall at x = 5: the top one, then the bottom one.
fn wall_gaps() -> [Obstacle; 2] {
    [
        Obstacle::Box {
            min: DVec2::new(5.0, 0.0),
            max: DVec2::new(6.0, 2.0),
        },
        Obstacle::Box {
            min: DVec2::new(5.0, 4.0),
            max: DVec2::new(6.0, 5.0),
        },
    ]
}

#[test]
fn a_crate_that_lands_on_an_agent_pushes_it_out_and_leaves_the_others_alone() {
    let mut crowd = Crowd::new(room_world(), 0.0, Preset::Smooth.steps()).unwrap();
    let a = crowd
        .add_agent(DVec2::new(0.5, 0.5), DVec2::new(10.5, 0.5), 1.0)
        .unwrap();
    let b = crowd
        .add_agent(DVec2::new(0.5, 4.5), DVec2::new(10.5, 4.5), 1.0)
        .unwrap();
    let b_path = crowd.agents()[b].agent_path().clone();
    // A crate on agent a: it is pushed out of the cell at once (crowd_push_out.rs has the
    // where), b is untouched.
    let (crate_, blocks) = crowd
        .add_obstacle(Obstacle::Cells(vec![IVec2::new(0, 0)]))
        .unwrap();
    assert_eq!(blocks, 1);
    let p = crowd.agents()[a].agent_path().position();
    assert!(p.x > 1.0 || p.y > 1.0, "{p}");
    assert_eq!(crowd.agents()[b].agent_path(), &b_path);
    let f = crowd.update(0.1).unwrap();
    assert_eq!(f.stuck, 0);
    assert!(is_valid(
        crowd.world(),
        crowd.agents()[a].agent_path().path(),
        0.0
    ));
    crowd.remove_obstacle(crate_).unwrap();
    assert_eq!(
        crowd.remove_obstacle(crate_),
        Err(Error::BadObstacle {
            reason: format!(
                "no obstacle {} (never added, or removed already)",
                crate_.get()
            ),
        })
    );
}

#[test]
fn a_target_cut_off_while_walking_leaves_the_agent_stuck_until_a_door_opens() {
    let mut crowd = Crowd::new(room_world(), 0.0, Preset::Smooth.steps()).unwrap();
    let a = crowd
        .add_agent(DVec2::new(0.5, 2.5), DVec2::new(10.5, 2.5), 1.0)
        .unwrap();
    crowd.update(0.5).unwrap();
    // Both gaps in the wall at x = 5 close: the target is out of reach.
    let [top, bottom] = wall_gaps();
    let (top, through_top) = crowd.add_obstacle(top).unwrap();
    let (_, through_bottom) = crowd.add_obstacle(bottom).unwrap();
    assert_eq!(through_top + through_bottom, 1);
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 1);
    let c = crowd.agents()[a].agent_path();
    assert!(out_of_reach(c.stuck()), "{:?}", c.stuck());
    assert_eq!(c.path(), [c.position()]);
    // One door opens: the agent walks on.
    crowd.remove_obstacle(top).unwrap();
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 0);
    assert!(is_valid(
        crowd.world(),
        crowd.agents()[a].agent_path().path(),
        0.0
    ));
    assert_eq!(
        crowd.agents()[a].agent_path().target(),
        DVec2::new(10.5, 2.5)
    );
}

#[test]
fn a_target_walled_off_is_refused_and_the_old_one_kept() {
    let mut crowd = Crowd::new(room_world(), 0.0, Preset::Shortest.steps()).unwrap();
    let a = crowd
        .add_agent(DVec2::new(0.5, 2.5), DVec2::new(3.5, 2.5), 1.0)
        .unwrap();
    // Close the gaps round (5, 2..3): the right room is out of reach.
    for gap in wall_gaps() {
        crowd.add_obstacle(gap).unwrap();
    }
    crowd.set_target(a, DVec2::new(9.5, 2.5)).unwrap();
    let f = crowd.update(0.5).unwrap();
    assert_eq!((f.refused, f.stuck), (1, 0));
    let agent = &crowd.agents()[a];
    assert!(out_of_reach(agent.error()), "{:?}", agent.error());
    assert_eq!(agent.agent_path().target(), DVec2::new(3.5, 2.5));
    assert!(crowd.set_target(7, DVec2::ZERO).is_err());
}

#[test]
fn bad_values_are_clear_errors() {
    let world = || room_world();
    let bad = |s: CrowdScenario| CrowdSimulation::new(world(), s).err();
    let base = CrowdScenario {
        agents: 4,
        ..Default::default()
    };
    for s in [
        CrowdScenario {
            agents: 0,
            ..base.clone()
        },
        CrowdScenario {
            speed: f64::NAN,
            ..base.clone()
        },
        CrowdScenario {
            speed: 0.0,
            ..base.clone()
        },
        CrowdScenario {
            hz: f64::INFINITY,
            ..base.clone()
        },
        CrowdScenario {
            door_size: -1.0,
            ..base.clone()
        },
        CrowdScenario {
            goal_range: f64::NAN,
            ..base.clone()
        },
        CrowdScenario {
            retarget_seconds: 0.0,
            ..base.clone()
        },
        CrowdScenario {
            threads: 0,
            ..base.clone()
        },
        CrowdScenario {
            radius: -0.5,
            ..base.clone()
        },
        CrowdScenario {
            radius: 3.0,
            ..base.clone()
        }, // no room anywhere
    ] {
        let e = bad(s.clone());
        assert!(
            matches!(e, Some(Error::BadParameter { .. } | Error::NoRoom { .. })),
            "{s:?}: {e:?}"
        );
    }
    let mut crowd = Crowd::new(world(), 0.3, Preset::Smooth.steps()).unwrap();
    assert!(matches!(
        crowd.add_agent(DVec2::new(0.5, 0.5), DVec2::new(9.5, 0.5), -1.0),
        Err(Error::BadParameter { .. })
    ));
    assert!(matches!(
        crowd.add_agent(DVec2::new(5.5, 2.5), DVec2::new(9.5, 0.5), 1.0),
        Err(Error::Blocked { .. })
    ));
    assert!(matches!(
        crowd.add_agent(DVec2::new(f64::NAN, 0.5), DVec2::new(9.5, 0.5), 1.0),
        Err(Error::NonFinite { .. })
    ));
    let off = crowd.add_agent(DVec2::new(-3.0, 0.5), DVec2::new(9.5, 0.5), 1.0);
    assert!(matches!(off, Err(Error::OutsideMap { .. })), "{off:?}");
    assert!(matches!(
        crowd.update(f64::NAN),
        Err(Error::BadParameter { .. })
    ));
    assert!(matches!(
        crowd.update(-1.0),
        Err(Error::BadParameter { .. })
    ));
    assert!(crowd.agents().is_empty());
}

#[test]
fn a_crowd_on_a_navmesh_goes_round_a_closed_door_and_back() {
    let mesh = NavMesh::from_grid(&room_map()).unwrap();
    let r = 0.2;
    let mut crowd = Crowd::new(
        SurfaceWorld::from_navmesh(&mesh).unwrap(),
        r,
        Preset::Smooth.steps(),
    )
    .unwrap();
    for (from, to) in [
        ((0.5, 0.5), (10.5, 1.5)),
        ((1.5, 1.5), (9.5, 0.5)),
        ((2.5, 0.5), (8.5, 1.2)),
    ] {
        crowd
            .add_agent(DVec2::from(from), DVec2::from(to), 1.5)
            .unwrap();
    }
    // A door across the top gap, which every path takes.
    let (lo, hi) = (DVec2::new(5.0, 0.0), DVec2::new(6.0, 2.0));
    let (door, blocked) = crowd
        .add_obstacle(Obstacle::Box { min: lo, max: hi })
        .unwrap();
    assert_eq!(blocked, 3);
    for _ in 0..240 {
        let f = crowd.update(1.0 / 30.0).unwrap();
        assert_eq!((f.stuck, f.failed), (0, 0));
        for a in crowd.agents() {
            let path = a.agent_path().path();
            assert!(is_valid(crowd.world(), path, r), "{path:?}");
            let gaps = path.windows(2).map(|s| segment_box_gap(s[0], s[1], lo, hi));
            assert!(gaps.fold(f64::INFINITY, f64::min) >= r - 1e-9, "{path:?}");
        }
    }
    // Round by the bottom gap: every agent has passed x = 6 below the wall.
    assert!(crowd
        .agents()
        .iter()
        .all(|a| a.agent_path().position().x > 6.0));
    crowd.remove_obstacle(door).unwrap();
    assert!(crowd.update(0.1).unwrap().stuck == 0);
    assert_eq!(crowd.world().obstacles().count(), 0);
}

#[test]
fn crowds_beyond_their_limits_are_refused_before_anything_is_allocated() {
    use pathsmooth::crowd::MAX_THREADS;
    use pathsmooth_scenarios::MAX_SCENARIO_AGENTS;
    let refused = |r: Result<CrowdSimulation, Error>, name: &str| match r {
        Err(Error::BadParameter { name: n, .. }) => assert_eq!(n, name),
        other => panic!("{name}: {:?}", other.map(|_| ())),
    };
    for agents in [0, MAX_SCENARIO_AGENTS + 1, usize::MAX] {
        let s = CrowdScenario {
            agents,
            ..Default::default()
        };
        refused(CrowdSimulation::new(room_world(), s), "agents");
    }
    let s = CrowdScenario {
        agents: 5,
        doors: 6,
        ..Default::default()
    };
    refused(CrowdSimulation::new(room_world(), s), "doors");
    for threads in [0, MAX_THREADS + 1, usize::MAX] {
        let s = CrowdScenario {
            agents: 5,
            doors: 1,
            threads,
            ..Default::default()
        };
        refused(CrowdSimulation::new(room_world(), s), "threads");
        let crowd = Crowd::new(room_world(), 0.3, Preset::Smooth.steps()).unwrap();
        assert!(matches!(
            crowd.with_threads(threads),
            Err(Error::BadParameter {
                name: "threads",
                ..
            })
        ));
    }
}

#[test]
fn a_vehicle_the_caller_drives_stands_in_the_world_while_stopped_and_every_path_stays_valid() {
    use pathsmooth::crowd::{Avoidance, MovingObstacle};
    use pathsmooth::World;
    let world =
        GridWorld::new(GridMap::from_rows(&[".............................."; 12]).unwrap())
            .unwrap();
    let scenario = CrowdScenario {
        agents: 12,
        doors: 0,
        goal_range: 10.0,
        avoidance: Some(Avoidance::default()),
        ..Default::default()
    };
    let mut sim = CrowdSimulation::new(world, scenario).unwrap();
    let truck = MovingObstacle {
        center: DVec2::new(2.0, 6.0),
        radius: 1.0,
        velocity: DVec2::new(1.2, 0.0),
    };
    let id = sim.add_moving_obstacle(truck).unwrap();
    for _ in 0..120 {
        sim.frame().unwrap();
        assert_eq!(sim.check(), 0);
    }
    let moved = sim.crowd().moving_obstacles().next().unwrap().1.center;
    assert!((moved.x - 4.4).abs() < 1e-6, "{moved}");
    assert!(
        sim.crowd().world().clearance(moved) > 0.5,
        "moving: not in the world"
    );
    // Stopped: an obstacle of the world, the paths near it checked again, all valid.
    sim.set_moving_obstacle_velocity(id, DVec2::ZERO).unwrap();
    assert_eq!(sim.crowd().world().clearance(moved), 0.0);
    for _ in 0..120 {
        sim.frame().unwrap();
        assert_eq!(sim.check(), 0);
    }
    sim.set_moving_obstacle_velocity(id, DVec2::new(-1.2, 0.0))
        .unwrap();
    assert!(sim.crowd().world().clearance(moved) > 0.5, "going again");
    assert!(sim
        .set_moving_obstacle_velocity(id, DVec2::splat(f64::NAN))
        .is_err());
}

/// Agents sent to a point take goals round it, each its own where there is room, keep them
/// while held (arrived or not) and get random goals again after; a point in a wall, off the
/// map or in a room the agents' room does not join is refused and nobody is sent.
#[test]
fn agents_sent_to_a_point_keep_goals_round_it_while_held() {
    // Two rooms, 20 × 9 and 6 × 9, with no way between them: the agents are in the larger.
    let mut rows = vec![".....................#......".to_string(); 9];
    rows[4] = "....................##......".to_string();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let scenario = CrowdScenario {
        agents: 12,
        doors: 0,
        goal_range: 3.0,
        retarget_seconds: 1.0,
        ..CrowdScenario::default()
    };
    let mut sim = CrowdSimulation::new(world, scenario).unwrap();
    let point = DVec2::new(10.5, 4.5);
    let targets = |sim: &CrowdSimulation| -> Vec<DVec2> {
        sim.crowd()
            .agents()
            .iter()
            .map(|a| a.agent_path().target())
            .collect()
    };
    // Refusals: nobody's target changes.
    let before = targets(&sim);
    for (bad, why) in [
        (DVec2::new(21.5, 2.5), "inside a wall"),
        (DVec2::new(-1.0, 2.5), "outside the 28×9 map"),
        (DVec2::new(25.5, 2.5), "cannot be reached"),
        (DVec2::new(f64::NAN, 2.5), "NaN or infinite"),
    ] {
        let e = sim.send_to(bad, 2.0, 5.0).unwrap_err().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
    assert!(sim.send_to(point, -1.0, 5.0).is_err() && sim.send_to(point, 2.0, f64::NAN).is_err());
    assert_eq!(targets(&sim), before);
    // Sent for 5 s: goals on cell centres within 2 of the point, each agent its own.
    assert_eq!(sim.send_to(point, 2.0, 5.0).unwrap(), 12);
    sim.frame().unwrap(); // where the new targets are taken
    let sent = targets(&sim);
    let mut cells: Vec<(i64, i64)> = sent
        .iter()
        .map(|t| (t.x.floor() as i64, t.y.floor() as i64))
        .collect();
    for t in &sent {
        assert!(
            (*t - point).abs().max_element() <= 2.5 && t.fract() == DVec2::splat(0.5),
            "{t}"
        );
    }
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), 12, "every agent a goal of its own: {sent:?}");
    // Held for 5 s (the random goals come every second otherwise), then wandering again.
    for _ in 1..290 {
        sim.frame().unwrap();
        assert_eq!(targets(&sim), sent, "at {} s", sim.time());
    }
    for _ in 0..120 {
        sim.frame().unwrap();
    }
    let changed = targets(&sim)
        .iter()
        .zip(&sent)
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed >= 10,
        "{changed} agents with new goals after the hold"
    );
}
