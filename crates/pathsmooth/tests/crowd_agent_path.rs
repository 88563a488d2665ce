//! Agent paths (`pathsmooth::crowd::AgentPath`, issue 30 item 1) on real and hand
//! maps, grids and navmeshes: an agent walks its agent path with small sideways pushes and an
//! occasional shove, its target moves now and then, and after every call the path must be
//! valid for the radius, run from the position to the target and be about as short as a
//! fresh plan; a door closed across agent paths invalidates exactly those that pass it, and
//! repair makes them valid; bad positions and targets leave the agent path as it was.
//!
//! Quick by default (a sample of maps and scenarios); `PATHSMOOTH_SLOW` runs every DEV map
//! and more scenarios. `cargo test -p pathsmooth --test suite crowd_agent_path:: -- --nocapture`
//! prints the measured distributions (docs/crowd.md); `CROWD_DEBUG=1.2` also prints the
//! agent path and the fresh plan of every sample whose length ratio is above 1.2.

use crate::common;

use common::rng::Rng;
use glam::DVec2;
use pathsmooth::crowd::{AgentPath, Moved, Repair, Retargeted};
use pathsmooth::grid::GridMap;
use pathsmooth::metrics::length;
use pathsmooth::navmesh::NavMesh;
use pathsmooth::{validate, Error, GridWorld, Pipeline, Preset, SurfaceWorld, World};

/// How much longer than a fresh plan from the same position to the same target an
/// agent's path may be: relative, plus one cell (`ABS_TOLERANCE`). The reference is
/// itself noisy: a fresh plan from a point a few steps further on can take another route
/// round the obstacles (grid A* breaks ties one way or the other, and the shortcut keeps
/// the route), so the pipeline's own plans from nearby points differ by as much. The
/// walks measure that spread on the samples where the agent path is still the tail of its
/// first plan (`untouched`), and print both; see `docs/crowd.md`.
const LENGTH_TOLERANCE: f64 = 0.25;

/// The absolute part of the length tolerance, world units (one cell of the Moving AI
/// maps): near the target, where paths are a few cells long, two plans that bend one cell
/// apart differ by a large ratio.
const ABS_TOLERANCE: f64 = 1.0;

/// The most re-plans a walk may make, as a fraction of its `move_position` calls.
const MAX_REPLAN_FRACTION: f64 = 0.05;

/// What the walks saw.
#[derive(Default)]
struct Stats {
    /// agent path length / fresh plan length, sampled along the walks.
    ratios: Vec<f64>,
    /// The same on the samples where the agent path was still the tail of its first plan
    /// (every move so far `Kept`): the spread of the pipeline's own plans.
    untouched: Vec<f64>,
    /// The largest (agent path − ABS_TOLERANCE) / fresh.
    worst_excess: f64,
    /// `optimize_topology` calls, and those that changed the path.
    optimized: (usize, usize),
    /// Seconds spent in `move_position`, and in the fresh plans of the samples (printed,
    /// never asserted: the test profile is not the release one).
    move_seconds: f64,
    plan_seconds: (f64, usize),
    kept: usize,
    pulled: usize,
    rejoined: usize,
    replanned: usize,
    adjusted: usize,
    retarget_replanned: usize,
    walks: usize,
    /// The largest ratio, with what happened since the previous sample.
    worst: (f64, String),
}

impl Stats {
    fn moves(&self) -> usize {
        self.kept + self.pulled + self.rejoined + self.replanned
    }

    fn merge(&mut self, other: Stats) {
        self.ratios.extend(&other.ratios);
        self.untouched.extend(&other.untouched);
        self.worst_excess = self.worst_excess.max(other.worst_excess);
        self.optimized.0 += other.optimized.0;
        self.optimized.1 += other.optimized.1;
        self.move_seconds += other.move_seconds;
        self.plan_seconds.0 += other.plan_seconds.0;
        self.plan_seconds.1 += other.plan_seconds.1;
        self.kept += other.kept;
        self.pulled += other.pulled;
        self.rejoined += other.rejoined;
        self.replanned += other.replanned;
        self.adjusted += other.adjusted;
        self.retarget_replanned += other.retarget_replanned;
        self.walks += other.walks;
        if other.worst.0 > self.worst.0 {
            self.worst = other.worst;
        }
    }

    fn print(&self, what: &str) {
        let mut r = self.ratios.clone();
        r.sort_by(f64::total_cmp);
        let q = |f: f64| r[((r.len() - 1) as f64 * f).round() as usize];
        println!(
            "{what}: {} walks, {} moves (kept {}, pulled {}, rejoined {}, replanned {}), retargets adjusted {} replanned {}; \
             agent path/fresh length over {} samples: median {:.4} p99 {:.4} max {:.4} (min {:.4})",
            self.walks,
            self.moves(),
            self.kept,
            self.pulled,
            self.rejoined,
            self.replanned,
            self.adjusted,
            self.retarget_replanned,
            r.len(),
            q(0.5),
            q(0.99),
            r[r.len() - 1],
            r[0],
        );
        println!("  worst {:.4} after {}", self.worst.0, self.worst.1);
        println!(
            "  time: move_position mean {:.1} µs, a fresh pipeline.plan mean {:.1} µs",
            1e6 * self.move_seconds / self.moves().max(1) as f64,
            1e6 * self.plan_seconds.0 / self.plan_seconds.1.max(1) as f64
        );
        let mut u = self.untouched.clone();
        u.sort_by(f64::total_cmp);
        if !u.is_empty() {
            let q = |f: f64| u[((u.len() - 1) as f64 * f).round() as usize];
            println!(
                "  untouched agent paths (the pipeline's own spread) over {} samples: median {:.4} p99 {:.4} max {:.4}; \
                 largest (agent path - {ABS_TOLERANCE}) / fresh {:.4}; optimize_topology {} calls, {} shorter",
                u.len(),
                q(0.5),
                q(0.99),
                u[u.len() - 1],
                self.worst_excess,
                self.optimized.0,
                self.optimized.1
            );
        }
    }

    fn check(&self, what: &str) {
        assert!(
            self.walks > 0 && !self.ratios.is_empty(),
            "{what}: nothing walked"
        );
        assert!(
            self.worst_excess <= 1.0 + LENGTH_TOLERANCE,
            "{what}: an agent path was {} times as long as a fresh plan (less {ABS_TOLERANCE}): {}",
            self.worst_excess,
            self.worst.1
        );
        // Most samples are as short as a fresh plan: the median within 10⁻³.
        let mut r = self.ratios.clone();
        r.sort_by(f64::total_cmp);
        let median = r[r.len() / 2];
        assert!(median <= 1.001, "{what}: median agent path/fresh {median}");
        let replans = self.replanned as f64 / self.moves() as f64;
        assert!(
            replans <= MAX_REPLAN_FRACTION,
            "{what}: {} of {} moves re-planned",
            self.replanned,
            self.moves()
        );
        // The walks exercise every branch: joins, string-pulls and re-plans.
        assert!(
            self.kept > 0 && self.pulled > 0,
            "{what}: no join or no pull"
        );
    }
}

/// The agent path's contract after every call: not stuck, valid for the radius (clearance
/// ≥ the radius itself), from `position` to `target`.
fn check_agent_path<W: World>(
    pipeline: &Pipeline<W>,
    c: &AgentPath,
    position: DVec2,
    target: DVec2,
    what: &str,
) {
    let path = c.path();
    assert!(!c.is_stuck(), "{what}: stuck: {:?}", c.stuck());
    assert_eq!(
        path[0], position,
        "{what}: the path does not start at the position"
    );
    assert_eq!(
        path[path.len() - 1],
        target,
        "{what}: the path does not end at the target"
    );
    assert_eq!((c.position(), c.target()), (position, target), "{what}");
    let report = validate(pipeline.world(), path, pipeline.radius()).unwrap();
    assert!(report.is_valid(), "{what}: {:?} {path:?}", report.problem());
    assert!(
        report.min_clearance >= pipeline.radius(),
        "{what}: clearance {} below the radius {}",
        report.min_clearance,
        pipeline.radius()
    );
    assert!(
        c.is_valid(pipeline),
        "{what}: is_valid disagrees with validate"
    );
}

/// True when `p` has room for the agent.
fn has_room<W: World>(pipeline: &Pipeline<W>, p: DVec2) -> bool {
    pipeline.world().bounds().contains(p)
        && pipeline.world().segment_is_clear(p, p, pipeline.radius())
}

/// Walks an agent from `start` to `goal` along its agent path: each step it steers `step`
/// ahead ([`AgentPath::steering_point`]) with a small sideways push, every 60th step it
/// is shoved up to 1.5 units off the path, and every 90th its target moves to a free point
/// up to 4 units away; every 25th it looks for a shorter route over the next 30 units
/// ([`AgentPath::optimize_topology`]). Checks the contract after every call and samples the agent path's
/// length against a fresh plan every `sample_every` steps. Returns false when the pipeline
/// cannot plan from start to goal (the scenario is skipped).
fn walk<W: World>(
    pipeline: &mut Pipeline<W>,
    start: DVec2,
    goal: DVec2,
    max_steps: usize,
    sample_every: usize,
    rng: &mut Rng,
    stats: &mut Stats,
) -> bool {
    let Ok(mut c) = AgentPath::new(pipeline, start, goal) else {
        return false;
    };
    stats.walks += 1;
    let mut target = goal;
    let step = 0.4;
    let mut events = String::new();
    let mut untouched = true;
    check_agent_path(pipeline, &c, start, target, "new");
    for n in 1..=max_steps {
        if c.path().len() == 1 {
            break;
        }
        let here = c.position();
        let ahead = c.steering_point(step);
        let dir = (ahead - here).normalize_or_zero();
        let side = DVec2::new(-dir.y, dir.x);
        let push = if n % 60 == 0 { 1.5 } else { 0.08 };
        let pushed = ahead + side * rng.range(-push, push);
        let p = if has_room(pipeline, pushed) {
            pushed
        } else {
            ahead
        };
        let clock = std::time::Instant::now();
        let moved = c
            .move_position(pipeline, p)
            .unwrap_or_else(|e| panic!("step {n}: {e}"));
        stats.move_seconds += clock.elapsed().as_secs_f64();
        match moved {
            Moved::Kept => stats.kept += 1,
            Moved::Pulled { .. } => {
                untouched = false;
                stats.pulled += 1;
                events.push('P');
            }
            Moved::Rejoined => {
                untouched = false;
                stats.rejoined += 1;
                events.push('J');
            }
            Moved::Replanned => {
                untouched = false;
                stats.replanned += 1;
                events.push('R');
            }
            other => panic!("step {n}: {other:?}"),
        }
        check_agent_path(pipeline, &c, p, target, &format!("step {n} ({moved:?})"));
        if n % 90 == 0 {
            let t = target + rng.vec() * 4.0;
            if has_room(pipeline, t) {
                match c.move_target(pipeline, t) {
                    Ok(Retargeted::Adjusted { .. }) => {
                        untouched = false;
                        stats.adjusted += 1;
                        events.push('A');
                    }
                    Ok(Retargeted::Replanned) => {
                        untouched = false;
                        stats.retarget_replanned += 1;
                        events.push('T');
                    }
                    Ok(other) => panic!("retarget at step {n}: {other:?}"),
                    // Free but not reachable with room (another pocket): refused, unchanged.
                    Err(_) => {
                        check_agent_path(pipeline, &c, p, target, "refused retarget");
                        continue;
                    }
                }
                target = t;
                check_agent_path(pipeline, &c, p, target, &format!("retarget at step {n}"));
            }
        }
        if n % 25 == 0 {
            stats.optimized.0 += 1;
            if c.optimize_topology(pipeline, 30.0)
                .unwrap_or_else(|e| panic!("step {n}: {e}"))
            {
                untouched = false;
                stats.optimized.1 += 1;
                events.push('O');
            }
            check_agent_path(pipeline, &c, p, target, &format!("optimized at step {n}"));
        }
        let clock = std::time::Instant::now();
        if (n % sample_every == 0 || n % 90 == 0)
            && let Ok(fresh) = pipeline.plan(c.position(), c.target())
        {
            stats.plan_seconds.0 += clock.elapsed().as_secs_f64();
            stats.plan_seconds.1 += 1;
            let f = length(&fresh);
            if f > 0.0 {
                let ratio = c.length() / f;
                stats.ratios.push(ratio);
                if untouched {
                    stats.untouched.push(ratio);
                }
                stats.worst_excess = stats.worst_excess.max((c.length() - ABS_TOLERANCE) / f);
                if std::env::var("CROWD_DEBUG")
                    .is_ok_and(|v| v.parse::<f64>().is_ok_and(|t| ratio > t))
                {
                    println!(
                        "DEBUG ratio {ratio} events {events}\ncorridor {:?}\nfresh {fresh:?}",
                        c.path()
                    );
                }
                if ratio > stats.worst.0 {
                    stats.worst = (
                        ratio,
                        format!("{events} at step {n} from {start} to {goal}"),
                    );
                }
            }
            events.clear();
        }
    }
    true
}

/// The maps walked: a sample, or every DEV map with `PATHSMOOTH_SLOW`.
fn walk_maps() -> Vec<&'static str> {
    if common::slow() || common::full() {
        common::MAPS.to_vec()
    } else {
        vec!["dao/arena", "dao/den312d", "cities/Berlin_0_256"]
    }
}

#[test]
fn walks_on_real_maps_keep_the_agent_path_valid_short_and_rarely_replanned() {
    let names = walk_maps();
    let maps = common::real_maps(&names);
    let (scenarios, max_steps) = if common::slow() { (6, 600) } else { (3, 400) };
    let mut all = Stats::default();
    for (name, map, scen) in maps {
        let world = common::world(&map);
        for preset in [Preset::Smooth, Preset::Shortest] {
            for radius in [0.0, 0.3] {
                let mut pipeline = Pipeline::preset(&world, radius, preset).unwrap();
                let mut stats = Stats::default();
                let mut rng = Rng::new(30 + scen.len() as u64);
                for s in common::sweep(&scen, scenarios, scenarios) {
                    let (a, b) = (s.start_point(), s.goal_point());
                    walk(&mut pipeline, a, b, max_steps, 10, &mut rng, &mut stats);
                }
                let what = format!("{name} {preset:?} r={radius}");
                stats.print(&what);
                assert!(stats.walks > 0, "{what}: no scenario planned");
                all.merge(stats);
            }
        }
    }
    all.print("all grid walks");
    all.check("all grid walks");
}

#[test]
fn walks_on_navmeshes_keep_the_agent_path_valid_and_short() {
    let (map, scen) = common::load("dao/arena");
    let world = SurfaceWorld::from_navmesh(&NavMesh::from_grid(&map).unwrap()).unwrap();
    let mut all = Stats::default();
    for preset in [Preset::Smooth, Preset::Shortest] {
        for radius in [0.0, 0.3] {
            let mut pipeline = Pipeline::preset(&world, radius, preset).unwrap();
            let mut stats = Stats::default();
            let mut rng = Rng::new(7);
            for s in common::sample(&scen, 4) {
                walk(
                    &mut pipeline,
                    s.start_point(),
                    s.goal_point(),
                    200,
                    10,
                    &mut rng,
                    &mut stats,
                );
            }
            stats.print(&format!("navmesh arena {preset:?} r={radius}"));
            all.merge(stats);
        }
    }
    all.print("all navmesh walks");
    all.check("all navmesh walks");
}

/// A hand map: two rooms joined by a passage two cells wide (rows 4–5) and, further
/// down, a second one (rows 10–11), so a door in the first leaves a way round.
const ROOMS: [&str; 14] = [
    "@@@@@@@@@@@@@@@@@@@@",
    "@.......@@@@.......@",
    "@.......@@@@.......@",
    "@.......@@@@.......@",
    "@..................@",
    "@..................@",
    "@.......@@@@.......@",
    "@.......@@@@.......@",
    "@.......@@@@.......@",
    "@.......@@@@.......@",
    "@..................@",
    "@..................@",
    "@.......@@@@.......@",
    "@@@@@@@@@@@@@@@@@@@@",
];

fn rooms(blocked: &[(usize, usize)]) -> GridWorld {
    let map = GridMap::from_rows(&ROOMS).unwrap();
    let map = GridMap::from_fn(map.width(), map.height(), |x, y| {
        map.is_passable(x as i64, y as i64) && !blocked.contains(&(x, y))
    });
    GridWorld::new(map).unwrap()
}

/// Asserts that `e` is the error of a point out of the planner's reach: walled off, or
/// behind a way too narrow for the radius.
#[track_caller]
fn assert_out_of_reach(e: &Error) {
    assert!(
        matches!(e, Error::Unreachable { .. } | Error::TooNarrow { .. }),
        "{e}"
    );
}

#[test]
fn walks_on_a_hand_map_keep_the_agent_path_valid() {
    let world = rooms(&[]);
    let mesh_world = SurfaceWorld::from_navmesh(&NavMesh::from_grid(world.map()).unwrap()).unwrap();
    let (a, b) = (DVec2::new(2.5, 2.5), DVec2::new(17.5, 8.5));
    for preset in [Preset::Smooth, Preset::Shortest] {
        for radius in [0.0, 0.3] {
            let mut stats = Stats::default();
            let mut rng = Rng::new(3);
            let mut pipeline = Pipeline::preset(&world, radius, preset).unwrap();
            assert!(walk(&mut pipeline, a, b, 400, 5, &mut rng, &mut stats));
            let mut pipeline = Pipeline::preset(&mesh_world, radius, preset).unwrap();
            assert!(walk(&mut pipeline, a, b, 400, 5, &mut rng, &mut stats));
            stats.print(&format!("rooms {preset:?} r={radius}"));
        }
    }
}

/// The door of the test below: a `k`×`k` block of cells with corner `(x0, y0)`.
struct Door {
    x0: i64,
    y0: i64,
    k: i64,
}

impl Door {
    fn cells(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        (self.y0..self.y0 + self.k)
            .flat_map(move |y| (self.x0..self.x0 + self.k).map(move |x| (x, y)))
    }

    /// Whether the segment `a`–`b` passes the door for an agent of radius `r`, decided
    /// without the library: with r > 0, it comes closer than r to the block's closed square;
    /// with r = 0, it enters the square's inside. `None` when the answer is within 10⁻⁹ of
    /// the boundary (floating point cannot tell; the test then asserts nothing).
    fn blocks(&self, a: DVec2, b: DVec2, r: f64) -> Option<bool> {
        const BAND: f64 = 1e-9;
        let (lo, hi) = (
            DVec2::new(self.x0 as f64, self.y0 as f64),
            DVec2::new((self.x0 + self.k) as f64, (self.y0 + self.k) as f64),
        );
        if r > 0.0 {
            let d = common::oracle::segment_box_distance(a, b, lo, hi);
            return (((d - r).abs()) > BAND).then_some(d < r);
        }
        // The piece of the segment inside the closed square (Liang–Barsky); the segment
        // enters the open square exactly when that piece's middle lies inside it.
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        let d = b - a;
        for (p, q) in [
            (-d.x, a.x - lo.x),
            (d.x, hi.x - a.x),
            (-d.y, a.y - lo.y),
            (d.y, hi.y - a.y),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return Some(false);
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
        if t0 > t1 {
            return Some(false);
        }
        let m = a + d * (0.5 * (t0 + t1));
        let inside = (m - lo).min(hi - m).min_element();
        (inside.abs() > BAND).then_some(inside > 0.0)
    }
}

/// A 3×3 door on `path` about `at` of its length in, placed where the ring of cells around
/// it is free (so it makes no pinch with a wall), or `None`.
fn door_on(map: &GridMap, path: &[DVec2], at: f64) -> Option<Door> {
    let total = length(path);
    let mut walked = 0.0;
    for s in path.windows(2) {
        let d = s[0].distance(s[1]);
        let n = (d / 0.5).ceil().max(1.0) as usize;
        for i in 0..n {
            let p = s[0].lerp(s[1], i as f64 / n as f64);
            if walked + d * i as f64 / n as f64 >= at * total {
                let (cx, cy) = (p.x.floor() as i64, p.y.floor() as i64);
                let ring_free =
                    (cy - 2..=cy + 2).all(|y| (cx - 2..=cx + 2).all(|x| map.is_passable(x, y)));
                if ring_free {
                    return Some(Door {
                        x0: cx - 1,
                        y0: cy - 1,
                        k: 3,
                    });
                }
            }
        }
        walked += d;
    }
    None
}

fn with_door(map: &GridMap, door: &Door) -> GridWorld {
    let cells: Vec<(i64, i64)> = door.cells().collect();
    let closed = GridMap::from_fn(map.width(), map.height(), |x, y| {
        map.is_passable(x as i64, y as i64) && !cells.contains(&(x as i64, y as i64))
    })
    .with_areas(|x, y| map.area(x, y));
    GridWorld::new(closed).unwrap()
}

#[test]
fn a_door_invalidates_exactly_the_agent_paths_through_it_and_repair_mends_them() {
    let names = if common::slow() {
        common::MAPS.to_vec()
    } else {
        vec!["dao/den312d", "cities/Berlin_0_256"]
    };
    let maps = common::real_maps(&names);
    let per_map = if common::slow() { 16 } else { 8 };
    let (mut crossing, mut clear, mut unsure, mut repaired, mut replanned, mut stuck) =
        (0, 0, 0, 0, 0, 0);
    let mut repaired_ratio: Vec<f64> = Vec::new();
    for (name, map, scen) in maps {
        let world = common::world(&map);
        for preset in [Preset::Smooth, Preset::Shortest] {
            for radius in [0.0, 0.3] {
                let what = format!("{name} {preset:?} r={radius}");
                let mut pipeline = Pipeline::preset(&world, radius, preset).unwrap();
                let mut rng = Rng::new(11);
                // Agent paths, each walked a few steps in.
                let mut paths = Vec::new();
                for s in common::sample(&scen, per_map) {
                    let Ok(mut c) = AgentPath::new(&mut pipeline, s.start_point(), s.goal_point())
                    else {
                        continue;
                    };
                    for _ in 0..(rng.unit() * 20.0) as usize {
                        let p = c.steering_point(0.4);
                        c.move_position(&mut pipeline, p).unwrap();
                    }
                    paths.push(c);
                }
                // A door half-way along the longest agent path.
                let longest = paths
                    .iter()
                    .max_by(|a, b| a.length().total_cmp(&b.length()))
                    .unwrap();
                let Some(door) = door_on(&map, longest.path(), 0.5) else {
                    continue;
                };
                let closed = with_door(&map, &door);
                let mut on_door = Pipeline::preset(&closed, radius, preset).unwrap();
                for c in &mut paths {
                    let before = c.path().to_vec();
                    // Nothing changed on the original world: repair is a no-op.
                    assert_eq!(c.repair(&mut pipeline), Ok(Repair::Valid), "{what}");
                    assert_eq!(c.path(), before.as_slice(), "{what}");
                    // The door invalidates the agent path exactly when it passes the door.
                    let verdicts: Vec<Option<bool>> = before
                        .windows(2)
                        .map(|s| door.blocks(s[0], s[1], radius))
                        .collect();
                    let passes = verdicts.contains(&Some(true));
                    if !passes && verdicts.contains(&None) {
                        unsure += 1;
                    } else {
                        assert_eq!(
                            c.is_valid(&on_door),
                            !passes,
                            "{what}: door {}+{} {before:?}",
                            door.x0,
                            door.y0
                        );
                        if passes {
                            crossing += 1
                        } else {
                            clear += 1
                        }
                    }
                    let (position, target) = (c.position(), c.target());
                    match c.repair(&mut on_door) {
                        Ok(r) => {
                            match r {
                                Repair::Valid => assert!(!passes, "{what}"),
                                Repair::Repaired { .. } => repaired += 1,
                                Repair::Replanned => replanned += 1,
                                other => panic!("{other:?}"),
                            }
                            check_agent_path(
                                &on_door,
                                c,
                                position,
                                target,
                                &format!("{what} repaired"),
                            );
                            if r != Repair::Valid
                                && let Ok(fresh) = on_door.plan(position, target)
                            {
                                repaired_ratio.push(c.length() / length(&fresh));
                            }
                        }
                        Err(e) => {
                            // Only a target behind the door (or a position in it) is refused,
                            // and then the agent path hands out only its position.
                            assert!(c.is_stuck() && c.path() == [position], "{what}: {e}");
                            assert!(on_door.plan(position, target).is_err(), "{what}: {e}");
                            stuck += 1;
                        }
                    }
                }
            }
        }
    }
    repaired_ratio.sort_by(f64::total_cmp);
    let q = |f: f64| {
        repaired_ratio
            .get(((repaired_ratio.len().max(1) - 1) as f64 * f).round() as usize)
            .copied()
    };
    println!(
        "door: {crossing} paths through it, {clear} clear, {unsure} too close to call; \
         repaired locally {repaired}, re-planned {replanned}, stuck {stuck}; repaired/fresh length \
         median {:?} p90 {:?} max {:?}",
        q(0.5),
        q(0.9),
        q(1.0)
    );
    assert!(
        crossing > 0 && clear > 0,
        "the door test saw both kinds of agent path"
    );
    assert!(repaired > 0, "some repair was local");
}

#[test]
fn a_closed_door_with_a_way_round_is_repaired_and_reopening_it_changes_nothing() {
    // The door closes the upper passage (rows 4–5) at columns 9–10: the way round is the
    // lower passage.
    let door = [(9, 4), (10, 4), (9, 5), (10, 5)];
    let (open, closed) = (rooms(&[]), rooms(&door));
    for preset in [Preset::Smooth, Preset::Shortest] {
        for radius in [0.0, 0.3] {
            let mut on_open = Pipeline::preset(&open, radius, preset).unwrap();
            let mut on_closed = Pipeline::preset(&closed, radius, preset).unwrap();
            let (a, b) = (DVec2::new(2.5, 4.5), DVec2::new(17.5, 4.5));
            let mut c = AgentPath::new(&mut on_open, a, b).unwrap();
            assert!(!c.is_valid(&on_closed));
            let r = c.repair(&mut on_closed).unwrap();
            assert_ne!(r, Repair::Valid);
            check_agent_path(&on_closed, &c, a, b, "repaired");
            assert!(
                c.path().iter().any(|p| p.y > 9.0),
                "goes round by the lower passage"
            );
            // The repaired path is valid on the open world too: repair there is a no-op.
            let before = c.path().to_vec();
            assert_eq!(c.repair(&mut on_open), Ok(Repair::Valid));
            assert_eq!(c.path(), before.as_slice());
        }
    }
}

#[test]
fn a_walled_off_target_makes_the_agent_path_stuck_until_the_door_opens() {
    // Both passages closed: the right room is walled off.
    let doors = [(9, 4), (9, 5), (9, 10), (9, 11)];
    let (open, closed) = (rooms(&[]), rooms(&doors));
    for radius in [0.0, 0.3] {
        let mut on_open = Pipeline::preset(&open, radius, Preset::Smooth).unwrap();
        let mut on_closed = Pipeline::preset(&closed, radius, Preset::Smooth).unwrap();
        let (a, b) = (DVec2::new(2.5, 2.5), DVec2::new(17.5, 2.5));
        let mut c = AgentPath::new(&mut on_open, a, b).unwrap();
        let e = c.repair(&mut on_closed).unwrap_err();
        assert_out_of_reach(&e);
        assert_eq!(c.stuck(), Some(&e));
        assert!(!c.is_valid(&on_closed));
        // Only the position is handed out: no path through the wall.
        assert_eq!(c.path(), [a]);
        assert_eq!(c.next_corners(3), &[] as &[DVec2]);
        assert_eq!(c.steering_point(5.0), a);
        // Moves while stuck record the position and the target.
        let p = DVec2::new(3.0, 3.0);
        assert_eq!(c.move_position(&mut on_closed, p), Ok(Moved::Stuck));
        assert_eq!(
            c.move_target(&mut on_closed, DVec2::new(17.5, 3.0)),
            Ok(Retargeted::Stuck)
        );
        assert_eq!((c.position(), c.target()), (p, DVec2::new(17.5, 3.0)));
        // Still walled off: still stuck.
        assert!(c.repair(&mut on_closed).is_err() && c.is_stuck());
        // The door opens: repair mends the path and clears the state.
        assert!(c.repair(&mut on_open).is_ok());
        assert!(!c.is_stuck());
        check_agent_path(&on_open, &c, p, DVec2::new(17.5, 3.0), "reopened");
    }
}

/// What a refused move must give.
type Expected = fn(&Error) -> bool;

#[test]
fn bad_positions_and_targets_are_refused_and_leave_the_agent_path_as_it_was() {
    let closed = rooms(&[(9, 4), (9, 5), (9, 10), (9, 11)]);
    for radius in [0.0, 0.3] {
        let mut pipeline = Pipeline::preset(&closed, radius, Preset::Smooth).unwrap();
        let (a, b) = (DVec2::new(2.5, 2.5), DVec2::new(5.5, 9.5));
        let mut c = AgentPath::new(&mut pipeline, a, b).unwrap();
        let before = c.clone();
        let wall = DVec2::new(9.5, 2.5);
        let near_wall = DVec2::new(1.1, 2.5); // clearance 0.1
        let cases: [(DVec2, Expected); 5] = [
            (wall, |e| {
                matches!(
                    e,
                    Error::Blocked {
                        what: "position",
                        ..
                    }
                )
            }),
            (DVec2::NAN, |e| matches!(e, Error::NonFinite { .. })),
            (DVec2::new(-50.0, 2.0), |e| {
                matches!(e, Error::OutsideWorld { .. })
            }),
            (DVec2::new(f64::INFINITY, 2.0), |e| {
                matches!(e, Error::NonFinite { .. })
            }),
            (near_wall, |e| {
                matches!(
                    e,
                    Error::TooClose {
                        what: "position",
                        ..
                    }
                ) || matches!(e, Error::Blocked { .. })
            }),
        ];
        for (p, expected) in cases {
            if p == near_wall && radius == 0.0 {
                continue; // room enough for a point
            }
            let e = c.move_position(&mut pipeline, p).unwrap_err();
            assert!(expected(&e), "{p}: {e}");
            assert_eq!(c, before);
        }
        // A target inside a wall, and one in the walled-off room.
        let e = c.move_target(&mut pipeline, wall).unwrap_err();
        assert!(matches!(e, Error::Blocked { what: "target", .. }), "{e}");
        assert_eq!(c, before);
        let pocket = DVec2::new(17.5, 2.5);
        let e = c.move_target(&mut pipeline, pocket).unwrap_err();
        assert_out_of_reach(&e);
        assert_eq!(c, before);
        assert!(c.is_valid(&pipeline));
        check_agent_path(&pipeline, &c, a, b, "after refusals");
        // A position that cannot join the path and is in another pocket: refused too.
        let e = c.move_position(&mut pipeline, pocket).unwrap_err();
        assert_out_of_reach(&e);
        assert_eq!(c, before);
        // And a new agent path to an unreachable target is the pipeline's error.
        assert!(AgentPath::new(&mut pipeline, a, pocket).is_err());
    }
}

#[test]
fn a_door_closing_on_the_agent_or_its_target_makes_the_agent_path_stuck_with_the_reason() {
    let open = rooms(&[]);
    for radius in [0.0, 0.3] {
        let mut on_open = Pipeline::preset(&open, radius, Preset::Shortest).unwrap();
        let (a, b) = (DVec2::new(2.5, 2.5), DVec2::new(6.5, 8.5));
        let mut c = AgentPath::new(&mut on_open, a, b).unwrap();
        // A crate falls on the agent.
        let on_agent = rooms(&[(2, 2)]);
        let mut there = Pipeline::preset(&on_agent, radius, Preset::Shortest).unwrap();
        let e = c.repair(&mut there).unwrap_err();
        assert!(
            matches!(
                e,
                Error::Blocked {
                    what: "position",
                    ..
                }
            ),
            "{e}"
        );
        assert!(c.is_stuck() && c.path() == [a] && !c.is_valid(&there));
        assert_eq!(c.repair(&mut on_open), Ok(Repair::Valid));
        assert!(!c.is_stuck());
        check_agent_path(&on_open, &c, a, b, "crate gone");
        // A crate falls on the target.
        let on_target = rooms(&[(6, 8)]);
        let mut there = Pipeline::preset(&on_target, radius, Preset::Shortest).unwrap();
        let e = c.repair(&mut there).unwrap_err();
        assert!(matches!(e, Error::Blocked { what: "target", .. }), "{e}");
        assert_eq!(c.stuck(), Some(&e));
        assert_eq!(c.path(), [a]);
        // A crate next to the path but not on it changes nothing.
        let beside = rooms(&[(17, 2)]);
        let mut there = Pipeline::preset(&beside, radius, Preset::Shortest).unwrap();
        c.repair(&mut on_open).unwrap();
        let before = c.path().to_vec();
        assert_eq!(c.repair(&mut there), Ok(Repair::Valid));
        assert_eq!(c.path(), before.as_slice());
    }
}
