//! Crowds whose agents avoid one another ([`Crowd::with_avoidance`]), in the standard
//! scenarios of local avoidance: two agents head-on, circles of agents swapping to the
//! antipodes, two groups crossing through a door (on a grid and on its navmesh), a
//! corridor walked both ways, and agents drawn at random (fixed seed) on Moving AI maps and
//! their navmeshes. Every frame is judged by checks written here, not the
//! library's: agent pairs closer than the sum of their radii by more than 1 % (an
//! overlap), agents closer than their radius to a blocked cell or the map's edge by more
//! than 1 % (a wall hit, the distance to each blocked cell's square measured directly), and
//! agents that reached their goal, by when. Without avoidance the same scenarios overlap,
//! so the checks can fail.

use crate::common;

use common::maps::movingai;
use common::oracle::{mesh_walls, side_distance};
use common::rng::Rng;
use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd, MovingId, MovingObstacle};
use pathsmooth::navmesh::NavMesh;
use pathsmooth::world::ObstacleWorld;
use pathsmooth::{Error, GridMap, GridWorld, Pipeline, Preset, SurfaceWorld};

pub(crate) const RADIUS: f64 = 0.3;
pub(crate) const SPEED: f64 = 1.5;
pub(crate) const HZ: f64 = 60.0;

/// The longest a scenario may go without progress (seconds): item 3's "no deadlock that
/// lasts more than a few seconds".
const MAX_STALL: f64 = 3.0;

/// What a run showed: overlapping agent-pair-frames, agent-frames within a wall's reach,
/// agents that reached their goal, and the second the last of them did.
#[derive(Debug)]
pub(crate) struct Outcome {
    overlaps: usize,
    wall_hits: usize,
    arrived: usize,
    last_arrival: f64,
    /// The closest two agents came, over the sum of their radii.
    closest: f64,
    /// The least length of way left to walk (the agents' paths summed) since it last grew
    /// by a re-plan, and the second it was reached.
    least_left: (f64, f64),
    /// The longest stretch (seconds) in which that way left did not shrink by 0.05: the
    /// crowd as a whole stood (a deadlock), or walked no nearer its goals.
    longest_stall: f64,
}

impl Outcome {
    /// Before the first frame.
    fn none() -> Outcome {
        Outcome {
            overlaps: 0,
            wall_hits: 0,
            arrived: 0,
            last_arrival: 0.0,
            closest: f64::INFINITY,
            least_left: (f64::INFINITY, 0.0),
            longest_stall: 0.0,
        }
    }

    /// Follows the way left to walk after frame `f`, `left` (every agent's path's length,
    /// summed): progress is a new least by 0.05 or more; a re-plan that lengthens the way
    /// by 1 or more starts the count again from there.
    fn progress(&mut self, f: usize, left: f64) {
        let now = f as f64 / HZ;
        let (least, since) = self.least_left;
        if left < least - 0.05 || left > least + 1.0 || left == 0.0 {
            self.least_left = (left, now);
        } else {
            self.longest_stall = self.longest_stall.max(now - since);
        }
    }

    /// Counts frame `f`'s agents at `at`, bound for `goals` (`reached` so far), all of
    /// radius [`RADIUS`].
    fn judge(
        &mut self,
        f: usize,
        at: &[DVec2],
        goals: &[DVec2],
        reached: &mut [bool],
        wall_distance: &dyn Fn(DVec2) -> f64,
    ) {
        self.judge_sized(
            f,
            at,
            &vec![RADIUS; at.len()],
            goals,
            reached,
            wall_distance,
        );
    }

    /// [`judge`](Self::judge) for agents of radii `radii`: the pairs closer than the sum of
    /// their radii by a sweep along x, the walls by `wall_distance`.
    fn judge_sized(
        &mut self,
        f: usize,
        at: &[DVec2],
        radii: &[f64],
        goals: &[DVec2],
        reached: &mut [bool],
        wall_distance: &dyn Fn(DVec2) -> f64,
    ) {
        let widest = radii.iter().fold(0.0f64, |m, &r| m.max(r));
        let mut by_x: Vec<(DVec2, f64)> = at.iter().copied().zip(radii.iter().copied()).collect();
        by_x.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
        for (k, &(a, ra)) in by_x.iter().enumerate() {
            for &(b, rb) in by_x[k + 1..]
                .iter()
                .take_while(|b| b.0.x - a.x < 2.0 * widest)
            {
                let d = a.distance(b);
                self.closest = self.closest.min(d / (ra + rb));
                if d < 0.99 * (ra + rb) {
                    self.overlaps += 1;
                }
            }
        }
        for (i, &p) in at.iter().enumerate() {
            assert!(p.is_finite(), "agent {i} at {p}");
            if wall_distance(p) < 0.99 * radii[i] {
                self.wall_hits += 1;
            }
            if !reached[i] && p.distance(goals[i]) < 1e-9 {
                reached[i] = true;
                self.arrived += 1;
                self.last_arrival = f as f64 / HZ;
            }
        }
    }
}

/// A crowd on `world` (avoiding or not) with an agent from each start to its goal.
fn crowd_of<W: ObstacleWorld + Send + Sync>(
    world: W,
    starts: &[DVec2],
    goals: &[DVec2],
    avoid: bool,
) -> Crowd<W> {
    let mut crowd = Crowd::new(world, RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(avoid.then(Avoidance::default))
        .unwrap();
    for (&s, &g) in starts.iter().zip(goals) {
        crowd.add_agent(s, g, SPEED).unwrap();
    }
    crowd
}

/// Where the agents are.
fn positions<W: ObstacleWorld + Send + Sync>(crowd: &Crowd<W>) -> Vec<DVec2> {
    crowd
        .agents()
        .iter()
        .map(|a| a.agent_path().position())
        .collect()
}

/// The distance from `p` to the nearest blocked cell (each the unit square it covers) or
/// the map's edge, when under 1 (else 1): the cells round `p`'s own are all that can be
/// nearer.
pub(crate) fn wall_distance(rows: &[&str], p: DVec2) -> f64 {
    let (w, h) = (rows[0].len() as i64, rows.len() as i64);
    let mut best = 1.0f64;
    let (cx, cy) = (p.x.floor() as i64, p.y.floor() as i64);
    for y in cy - 1..=cy + 1 {
        for x in cx - 1..=cx + 1 {
            let outside = x < 0 || y < 0 || x >= w || y >= h;
            let free = || matches!(rows[y as usize].as_bytes()[x as usize], b'.' | b'G' | b'S');
            if outside || !free() {
                let lo = DVec2::new(x as f64, y as f64);
                best = best.min(p.clamp(lo, lo + 1.0).distance(p));
            }
        }
    }
    best
}

/// Runs agents from `starts` to `goals` on the map `rows` (its grid world) for at most
/// `seconds`.
fn run(rows: &[&str], starts: &[DVec2], goals: &[DVec2], avoid: bool, seconds: f64) -> Outcome {
    let world = GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap();
    run_on(world, rows, starts, goals, avoid, seconds)
}

/// [`run`] on `world`, a world of the map `rows`.
fn run_on<W: ObstacleWorld + Send + Sync>(
    world: W,
    rows: &[&str],
    starts: &[DVec2],
    goals: &[DVec2],
    avoid: bool,
    seconds: f64,
) -> Outcome {
    run_judged(
        world,
        &|p| wall_distance(rows, p),
        starts,
        goals,
        avoid,
        seconds,
    )
}

/// [`run_on`] with the walls judged by `wall_distance(p)` (exact when under the radius).
fn run_judged<W: ObstacleWorld + Send + Sync>(
    world: W,
    wall_distance: &dyn Fn(DVec2) -> f64,
    starts: &[DVec2],
    goals: &[DVec2],
    avoid: bool,
    seconds: f64,
) -> Outcome {
    let crowd = crowd_of(world, starts, goals, avoid);
    run_crowd(crowd, wall_distance, goals, seconds)
}

/// Runs `crowd`, whose agents are bound for `goals`, for at most `seconds` at [`HZ`],
/// judging every frame with the walls at `wall_distance(p)` (exact when under the radius).
pub(crate) fn run_crowd<W: ObstacleWorld + Send + Sync>(
    mut crowd: Crowd<W>,
    wall_distance: &dyn Fn(DVec2) -> f64,
    goals: &[DVec2],
    seconds: f64,
) -> Outcome {
    let mut out = Outcome::none();
    let mut reached = vec![false; goals.len()];
    let frames = (seconds * HZ).round() as usize;
    for f in 1..=frames {
        crowd.update(1.0 / HZ).unwrap();
        out.judge(f, &positions(&crowd), goals, &mut reached, wall_distance);
        out.progress(f, way_left(&crowd));
        if out.arrived == goals.len() {
            break;
        }
    }
    out
}

fn open_map(w: usize, h: usize) -> Vec<String> {
    vec![".".repeat(w); h]
}

/// Asserts the bar: no overlap, no wall hit, every agent at its goal by `by` seconds, and
/// the crowd never more than [`MAX_STALL`] seconds without progress.
pub(crate) fn assert_clean(what: &str, o: &Outcome, agents: usize, by: f64) {
    println!("{what}: {o:?}");
    assert_eq!((o.overlaps, o.wall_hits), (0, 0), "{what}: {o:?}");
    assert_eq!(o.arrived, agents, "{what}: {o:?}");
    assert!(o.last_arrival <= by, "{what}: {o:?}");
    assert!(
        o.longest_stall <= MAX_STALL,
        "{what}: a stall of {} s: {o:?}",
        o.longest_stall
    );
}

/// The length of way the crowd's agents have left to walk: their paths' lengths, summed.
fn way_left<W: ObstacleWorld + Send + Sync>(crowd: &Crowd<W>) -> f64 {
    let length = |p: &[DVec2]| p.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>();
    crowd
        .agents()
        .iter()
        .map(|a| length(a.agent_path().path()))
        .sum()
}

#[test]
fn two_agents_head_on_pass_without_touching() {
    let rows = open_map(12, 5);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let starts = [DVec2::new(0.5, 2.5), DVec2::new(11.5, 2.5)];
    let goals = [starts[1], starts[0]];
    assert!(run(&rows, &starts, &goals, false, 20.0).overlaps > 0);
    assert_clean("head-on", &run(&rows, &starts, &goals, true, 20.0), 2, 12.0);
    // In a passage one cell wide they cannot pass: the stall measure sees the deadlock.
    let rows = ["@@@@@@@@@@@@", "............", "@@@@@@@@@@@@"];
    let starts = [DVec2::new(0.5, 1.5), DVec2::new(11.5, 1.5)];
    let stuck = run(&rows, &starts, &[starts[1], starts[0]], true, 20.0);
    assert!(
        stuck.arrived < 2 && stuck.longest_stall > MAX_STALL,
        "{stuck:?}"
    );
}

/// A room 6 × 7 with a passage one cell wide and 8 long leading off it on its middle row,
/// to a second room like it (`far_room`) or to a dead end.
fn room_and_passage(far_room: bool) -> Vec<String> {
    (0..7)
        .map(|y| {
            let passage = if y == 3 { "........" } else { "@@@@@@@@" };
            let far = if far_room { "......" } else { "" };
            format!("......{passage}{far}")
        })
        .collect()
}

#[test]
fn agents_head_on_in_a_passage_too_narrow_for_both_give_way() {
    // They meet in the passage, where neither can pass; after 1.5 s one walks back into
    // its room, off the other's path, and waits until the other is through. One pair, and
    // files of three from each side (each of a file gives way in turn).
    let rows = room_and_passage(true);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let (left, right) = (DVec2::new(1.5, 3.5), DVec2::new(18.5, 3.5));
    let o = run(&rows, &[left, right], &[right, left], true, 60.0);
    assert_clean("a pair in the passage", &o, 2, 40.0);
    let file = |x: f64| [1.5, 3.5, 5.5].map(|dy| DVec2::new(x, dy));
    let starts: Vec<DVec2> = [file(1.5), file(18.5)].concat();
    let goals: Vec<DVec2> = [file(18.5), file(1.5)].concat();
    let o = run(&rows, &starts, &goals, true, 120.0);
    assert_clean("files of three in the passage", &o, 6, 120.0);
    // The one it gives way to removed: it walks on to its own target at once.
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let mut crowd = crowd_of(world, &[left, right], &[right, left], true);
    let mut frames = 0;
    let (yielder, to) = loop {
        crowd.update(1.0 / HZ).unwrap();
        frames += 1;
        assert!(frames < 20 * 60, "nobody gave way in 20 s");
        let mut giving = crowd.agents().iter().enumerate();
        if let Some((i, to)) = giving.find_map(|(i, a)| a.giving_way().map(|j| (i, j))) {
            break (i, to);
        }
    };
    let goal = [right, left][yielder];
    assert!(!crowd.agents()[yielder].arrived());
    assert_ne!(crowd.agents()[yielder].agent_path().target(), goal);
    crowd.remove_agent(to).unwrap();
    let yielder = if yielder == crowd.agents().len() {
        to
    } else {
        yielder
    };
    for _ in 0..2 {
        crowd.update(1.0 / HZ).unwrap();
    }
    let a = &crowd.agents()[yielder];
    assert_eq!((a.giving_way(), a.agent_path().target()), (None, goal));
}

#[test]
fn an_agent_bound_into_a_dead_end_gives_way_to_one_coming_out() {
    // One agent at the dead end's far end walks out into the room, another walks from the
    // room to the dead end's far end: they meet in the passage, where the one coming out
    // has nowhere to give way to, so the one going in backs out into the room, waits until
    // the other is out, and walks in. Either agent may be the later in the crowd (the one
    // that gives way first): both orders arrive (before, with the one coming out the
    // later, they stood there for good).
    let rows = room_and_passage(false);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let (room, end) = (DVec2::new(1.5, 3.5), DVec2::new(13.5, 3.5));
    let o = run(&rows, &[room, end], &[end, room], true, 60.0);
    assert_clean("going in first", &o, 2, 40.0);
    let o = run(&rows, &[end, room], &[room, end], true, 60.0);
    assert_clean("coming out first", &o, 2, 40.0);
}

/// The passages one cell wide and at least two long of the map `rows`, found here from its
/// cells: runs of free cells along a row (or a column) walled on both sides, whose two ends
/// open onto free cells; each as the cells two beyond its ends, on its line, when those
/// are free with room for an agent of [`RADIUS`] at their centres. With `dead_ends`, the
/// runs closed at one end instead (a wall or the map's edge beyond it) and open at the
/// other: each as the cell at the closed end and the cell two beyond the open one.
fn narrow_passages(rows: &[&str], dead_ends: bool) -> Vec<(DVec2, DVec2)> {
    let (w, h) = (rows[0].len() as i64, rows.len() as i64);
    let free = |x: i64, y: i64| {
        (0..w).contains(&x)
            && (0..h).contains(&y)
            && rows[y as usize].as_bytes()[x as usize] == b'.'
    };
    let centre = |x: i64, y: i64| DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
    let roomy = |x: i64, y: i64| free(x, y) && wall_distance(rows, centre(x, y)) >= RADIUS;
    let mut found = Vec::new();
    // Along rows (step (1, 0), sides (0, ±1)), then along columns.
    for (step, side) in [((1, 0), (0, 1)), ((0, 1), (1, 0))] {
        let narrow = |x: i64, y: i64| {
            free(x, y) && !free(x + side.0, y + side.1) && !free(x - side.0, y - side.1)
        };
        for y in 0..h {
            for x in 0..w {
                let starts_here = narrow(x, y) && !narrow(x - step.0, y - step.1);
                if !starts_here {
                    continue;
                }
                let mut n = 1;
                while narrow(x + n * step.0, y + n * step.1) {
                    n += 1;
                }
                let (before, after) = ((x - step.0, y - step.1), (x + n * step.0, y + n * step.1));
                let (a, b) = (
                    (x - 2 * step.0, y - 2 * step.1),
                    (x + (n + 1) * step.0, y + (n + 1) * step.1),
                );
                let (opens_before, opens_after) =
                    (free(before.0, before.1), free(after.0, after.1));
                let ends = match (dead_ends, opens_before, opens_after) {
                    (false, true, true) => (a, b),
                    (true, true, false) => ((x + (n - 1) * step.0, y + (n - 1) * step.1), a),
                    (true, false, true) => ((x, y), b),
                    _ => continue,
                };
                let ((ax, ay), (bx, by)) = ends;
                if n >= 2 && roomy(ax, ay) && roomy(bx, by) {
                    found.push((centre(ax, ay), centre(bx, by)));
                }
            }
        }
    }
    found
}

/// A map's name, its rows, and the pairs of points of its cases.
type MapCases = (&'static str, Vec<String>, Vec<(DVec2, DVec2)>);

/// The one-cell passages (or, with `dead_ends`, dead ends) of [`narrow_passages`] on
/// den312d and Berlin_0_256, all of them, and twelve of random512-10-0's drawn with the
/// fixed `seed`: each map's name, its rows and its cases.
fn one_cell_cases(dead_ends: bool, seed: u64) -> Vec<MapCases> {
    let mut rng = Rng::new(seed);
    let maps = [
        ("dao/den312d.map", 99),
        ("cities/Berlin_0_256.map", 99),
        ("random/random512-10-0.map", 12),
    ];
    maps.into_iter()
        .map(|(rel, most)| {
            let rows = map_rows(rel);
            let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
            let mut cases = narrow_passages(&refs, dead_ends);
            while cases.len() > most {
                cases.swap_remove((rng.unit() * cases.len() as f64) as usize);
            }
            (rel, rows, cases)
        })
        .collect()
}

/// Two avoiding agents from `starts` to `goals` on the map `rows` for at most a minute,
/// judged every frame by this file's checks; and the frames in which one gave way.
fn walk_two(rows: &[&str], starts: [DVec2; 2], goals: [DVec2; 2]) -> (Outcome, usize) {
    let world = GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap();
    let mut crowd = crowd_of(world, &starts, &goals, true);
    let (mut out, mut reached, mut gave_way) = (Outcome::none(), [false; 2], 0);
    for f in 1..=60 * 60 {
        crowd.update(1.0 / HZ).unwrap();
        gave_way += usize::from(crowd.agents().iter().any(|g| g.giving_way().is_some()));
        out.judge(f, &positions(&crowd), &goals, &mut reached, &|p| {
            wall_distance(rows, p)
        });
        if out.arrived == 2 {
            break;
        }
    }
    (out, gave_way)
}

#[test]
fn agents_head_on_through_narrow_passages_of_moving_ai_maps_arrive() {
    // Every passage one cell wide of Moving AI's den312d and Berlin, and twelve of
    // random512-10-0's drawn with a fixed seed, as the test finds them in the files: two
    // agents from two cells beyond either end, each bound for the other's start. Where
    // their ways meet in the passage one gives way; every pair arrives, untouched, off the
    // walls (judged by this file's checks).
    let (mut pairs, mut gave_way) = (0, 0);
    for (rel, rows, passages) in one_cell_cases(false, 49) {
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        for (a, b) in passages {
            let (out, gave) = walk_two(&rows, [a, b], [b, a]);
            assert_eq!(
                (out.overlaps, out.wall_hits, out.arrived),
                (0, 0, 2),
                "{rel} {a} {b}: {out:?}"
            );
            (pairs, gave_way) = (pairs + 1, gave_way + gave);
        }
    }
    println!("{pairs} passages, frames with an agent giving way: {gave_way}");
    assert!(pairs >= 10 && gave_way > 0, "{pairs} {gave_way}");
}

#[test]
fn agents_head_on_in_dead_ends_of_moving_ai_maps_arrive() {
    // Every dead end one cell wide and at least two long of den312d and Berlin, and twelve
    // of random512-10-0's (a fixed seed), as the test finds them in the files: one agent at
    // the closed end bound out, one from two cells beyond the open end bound in to its
    // start, in both orders in the crowd. The one going in gives way (the one in the dead
    // end has nowhere to); every pair arrives, untouched, off the walls (judged by this
    // file's checks). Before the other gave way, the pairs whose later agent stood in the
    // dead end stood there for good.
    let (mut pairs, mut gave_way) = (0, 0);
    for (rel, rows, dead_ends) in one_cell_cases(true, 50) {
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        for (deep, out) in dead_ends {
            for (starts, goals) in [([deep, out], [out, deep]), ([out, deep], [deep, out])] {
                let (o, gave) = walk_two(&rows, starts, goals);
                assert_eq!(
                    (o.overlaps, o.wall_hits, o.arrived),
                    (0, 0, 2),
                    "{rel} dead end at {deep}, {starts:?}: {o:?}"
                );
                (pairs, gave_way) = (pairs + 1, gave_way + gave);
            }
        }
    }
    println!("{pairs} pairs in dead ends, frames with an agent giving way: {gave_way}");
    assert!(pairs >= 10 && gave_way > 0, "{pairs} {gave_way}");
}

#[test]
fn circles_of_agents_swap_to_the_antipodes_without_touching() {
    let rows = open_map(24, 24);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let centre = DVec2::splat(12.0);
    for n in [8, 12, 16, 24, 32] {
        let starts: Vec<DVec2> = (0..n)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / n as f64;
                centre + 9.0 * DVec2::new(t.cos(), t.sin())
            })
            .collect();
        let goals: Vec<DVec2> = starts.iter().map(|&s| 2.0 * centre - s).collect();
        let through = run(&rows, &starts, &goals, false, 45.0);
        assert!(through.overlaps > 0, "{through:?}");
        let avoiding = run(&rows, &starts, &goals, true, 45.0);
        assert_clean(&format!("circle of {n}"), &avoiding, n, 40.0);
    }
}

/// A wall across the middle of a 20 × 16 room with a door 3 cells wide, and six agents
/// on each side bound for the other.
fn door() -> (Vec<String>, Vec<DVec2>, Vec<DVec2>) {
    let mut rows = open_map(20, 16);
    rows[8] = format!("{}...{}", "@".repeat(9), "@".repeat(8));
    let mut starts = Vec::new();
    let mut goals = Vec::new();
    for k in 0..6 {
        let x = 7.5 + k as f64;
        starts.push(DVec2::new(x, 3.5));
        goals.push(DVec2::new(x, 13.5));
        starts.push(DVec2::new(x, 12.5));
        goals.push(DVec2::new(x, 2.5));
    }
    (rows, starts, goals)
}

#[test]
fn two_groups_cross_through_a_door_without_touching() {
    let (rows, starts, goals) = door();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    assert!(run(&rows, &starts, &goals, false, 40.0).overlaps > 0);
    assert_clean(
        "door",
        &run(&rows, &starts, &goals, true, 40.0),
        starts.len(),
        30.0,
    );
}

#[test]
fn two_groups_cross_through_a_door_on_a_navmesh_without_touching() {
    // The same room as a navmesh (its passable cells triangulated): the walls avoided are
    // the mesh's boundary edges.
    let (rows, starts, goals) = door();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let world = || {
        SurfaceWorld::from_navmesh(
            &NavMesh::from_grid(&GridMap::from_rows(&rows).unwrap()).unwrap(),
        )
        .unwrap()
    };
    assert!(run_on(world(), &rows, &starts, &goals, false, 40.0).overlaps > 0);
    let avoiding = run_on(world(), &rows, &starts, &goals, true, 40.0);
    assert_clean("door on a navmesh", &avoiding, starts.len(), 30.0);
}

#[test]
fn a_corridor_walked_both_ways_without_touching() {
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
    assert!(run(&rows, &starts, &goals, false, 40.0).overlaps > 0);
    assert_clean(
        "corridor",
        &run(&rows, &starts, &goals, true, 40.0),
        starts.len(),
        30.0,
    );
}

/// `World::walls_near`, what avoidance keeps agents off, on a grid and on its navmesh at
/// random points: every wall segment has the wall on its left and free space on its right
/// (just beside its middle, by the map's cells), and every blocked cell's side facing a
/// free cell within the reach is covered by the segments listed.
#[test]
fn walls_near_lists_the_walls_in_reach_with_the_wall_on_their_left() {
    let (rows, _, _) = door();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = GridMap::from_rows(&rows).unwrap();
    let blocked = |p: DVec2| {
        let (x, y) = (p.x.floor() as i64, p.y.floor() as i64);
        map.is_blocked(x, y)
    };
    let grid = GridWorld::new(map.clone()).unwrap();
    let mesh = SurfaceWorld::from_navmesh(&NavMesh::from_grid(&map).unwrap()).unwrap();
    let worlds: [(&str, &dyn pathsmooth::World); 2] = [("grid", &grid), ("navmesh", &mesh)];
    let mut rng = Rng::new(7);
    let mut listed = 0;
    for _ in 0..300 {
        let p = DVec2::new(rng.range(0.0, 20.0), rng.range(0.0, 16.0));
        let reach = rng.range(0.5, 2.5);
        for (name, world) in worlds {
            let mut walls = Vec::new();
            world.walls_near(p, reach, &mut walls);
            listed += walls.len();
            for &[a, b] in &walls {
                let (mid, left) = ((a + b) / 2.0, (b - a).perp().normalize() * 1e-3);
                assert!(
                    blocked(mid + left) && !blocked(mid - left),
                    "{name}: {a} → {b}"
                );
            }
            // Each free-blocked side within reach: its middle lies on a listed segment.
            for y in 0..16i64 {
                for x in 0..20i64 {
                    if map.is_blocked(x, y) {
                        continue;
                    }
                    let c = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
                    for d in [DVec2::X, DVec2::Y, -DVec2::X, -DVec2::Y] {
                        let (mid, across) = (c + d * 0.5, c + d);
                        let in_map = across.cmpge(DVec2::ZERO).all()
                            && across.cmplt(DVec2::new(20.0, 16.0)).all();
                        if !in_map || !blocked(across) {
                            continue;
                        }
                        let side = [mid - d.perp() * 0.5, mid + d.perp() * 0.5];
                        let near = side_distance(p, side) <= reach;
                        let covered = walls
                            .iter()
                            .any(|&[a, b]| side_distance(mid, [a, b]) < 1e-9);
                        assert!(
                            !near || covered,
                            "{name}: side at {mid} within {reach} of {p}"
                        );
                    }
                }
            }
        }
    }
    assert!(listed > 300, "{listed} walls listed");
}

/// The same on real maps (AR0011SR's wide fields, where most points have no wall in reach,
/// and den312d's rooms): at random free points, every listed segment has the wall on its left, and every side
/// between a free cell and a blocked one within the reach (found by a scan of the cells
/// round the point) is covered.
#[test]
fn walls_near_on_real_maps_lists_every_side_in_reach() {
    let mut rng = Rng::new(44);
    for name in ["bg512/AR0011SR", "dao/den312d"] {
        let (map, _) = common::load(name);
        let world = GridWorld::new(map.clone()).unwrap();
        let (w, h) = (map.width() as i64, map.height() as i64);
        let (mut listed, mut none) = (0, 0);
        let mut walls = Vec::new();
        for _ in 0..2000 {
            let p = DVec2::new(rng.range(0.0, w as f64), rng.range(0.0, h as f64));
            if map.is_blocked(p.x as i64, p.y as i64) {
                continue;
            }
            let reach = rng.range(0.2, 4.0);
            walls.clear();
            pathsmooth::World::walls_near(&world, p, reach, &mut walls);
            listed += walls.len();
            none += usize::from(walls.is_empty());
            for &[a, b] in &walls {
                let (mid, left) = ((a + b) / 2.0, (b - a).perp().normalize() * 1e-3);
                let blocked = |q: DVec2| map.is_blocked(q.x.floor() as i64, q.y.floor() as i64);
                assert!(
                    blocked(mid + left) && !blocked(mid - left),
                    "{name}: {a} → {b}"
                );
            }
            let k = reach.ceil() as i64 + 1;
            let (cx, cy) = (p.x as i64, p.y as i64);
            for y in (cy - k).max(0)..=(cy + k).min(h - 1) {
                for x in (cx - k).max(0)..=(cx + k).min(w - 1) {
                    if map.is_blocked(x, y) {
                        continue;
                    }
                    let c = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
                    for d in [DVec2::X, DVec2::Y, -DVec2::X, -DVec2::Y] {
                        let (mid, across) = (c + d * 0.5, c + d);
                        if !map.is_blocked(across.x.floor() as i64, across.y.floor() as i64) {
                            continue;
                        }
                        let side = [mid - d.perp() * 0.5, mid + d.perp() * 0.5];
                        let covered =
                            (walls.iter()).any(|&[a, b]| side_distance(mid, [a, b]) < 1e-9);
                        assert!(
                            side_distance(p, side) > reach || covered,
                            "{name}: side at {mid} within {reach} of {p}"
                        );
                    }
                }
            }
        }
        // Both kinds of point were drawn.
        assert!(
            listed > 100 && none > 100,
            "{name}: {listed} walls, {none} points without"
        );
    }
}

/// The rows of a Moving AI map file, read here (not by the library): the lines after `map`.
pub(crate) fn map_rows(rel: &str) -> Vec<String> {
    let text = std::fs::read_to_string(movingai(rel)).unwrap();
    let mut lines = text.lines().skip_while(|l| l.trim() != "map");
    lines.next();
    lines.map(|l| l.trim_end().to_string()).collect()
}

/// A random cell of `rows` whose eight neighbours are free too (so an agent of radius 0.3
/// at its centre is clear of every wall), not yet in `taken`; its centre.
fn open_cell(rows: &[&str], taken: &mut Vec<DVec2>, rng: &mut Rng) -> DVec2 {
    let (w, h) = (rows[0].len(), rows.len());
    loop {
        let x = 1 + (rng.unit() * (w - 2) as f64) as usize;
        let y = 1 + (rng.unit() * (h - 2) as f64) as usize;
        let p = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
        if wall_distance(rows, p) >= 1.0 && !taken.contains(&p) {
            taken.push(p);
            return p;
        }
    }
}

#[test]
fn random_agents_on_moving_ai_maps_and_their_navmeshes_without_touching() {
    // Forty agents at random open cells of two Moving AI maps (an arena, a cave), each bound
    // for another random open cell (starts distinct, goals distinct, fixed seed), on the
    // map's grid world and on its navmesh: the walls are the map's own, read from the file
    // here. Pairs whose goal cannot be reached at the radius are drawn again.
    for (rel, seed, by) in [("dao/arena.map", 40, 60.0), ("dao/den312d.map", 41, 90.0)] {
        let rows = map_rows(rel);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let map = GridMap::from_rows(&rows).unwrap();
        let (starts, goals) = random_pairs(&rows, seed, RADIUS);
        assert!(run(&rows, &starts, &goals, false, by).overlaps > 0, "{rel}");
        assert_clean(rel, &run(&rows, &starts, &goals, true, by), 40, by);
        let navmesh = SurfaceWorld::from_navmesh(&NavMesh::from_grid(&map).unwrap()).unwrap();
        let on_mesh = run_on(navmesh, &rows, &starts, &goals, true, by);
        assert_clean(&format!("{rel} as a navmesh"), &on_mesh, 40, by);
    }
}

/// Forty random pairs of open cells on the map `rows` (fixed `seed`; starts distinct,
/// goals distinct), each goal reachable from its start at radius `radius`.
pub(crate) fn random_pairs(rows: &[&str], seed: u64, radius: f64) -> (Vec<DVec2>, Vec<DVec2>) {
    let grid = GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap();
    let mut probe = Pipeline::preset(&grid, radius, Preset::Smooth).unwrap();
    let mut rng = Rng::new(seed);
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    let (mut taken_s, mut taken_g) = (Vec::new(), Vec::new());
    while starts.len() < 40 {
        let s = open_cell(rows, &mut taken_s, &mut rng);
        let g = open_cell(rows, &mut taken_g, &mut rng);
        if probe.plan(s, g).is_ok() {
            starts.push(s);
            goals.push(g);
        } else {
            taken_s.pop();
            taken_g.pop();
        }
    }
    (starts, goals)
}

/// Runs agents of radii `radii` from `starts` to `goals` on `world` (a world of the map
/// `rows`) for at most `seconds`, each judged against its own radius.
fn run_sized<W: ObstacleWorld + Send + Sync>(
    world: W,
    rows: &[&str],
    (starts, goals, radii): (&[DVec2], &[DVec2], &[f64]),
    avoid: bool,
    seconds: f64,
) -> Outcome {
    let mut crowd = Crowd::new(world, RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(avoid.then(Avoidance::default))
        .unwrap();
    for ((&s, &g), &r) in starts.iter().zip(goals).zip(radii) {
        let a = crowd.add_agent_with_radius(s, g, SPEED, r).unwrap();
        assert_eq!(crowd.agents()[a].radius(), r);
    }
    assert_eq!(crowd.radii().len(), 3);
    let mut out = Outcome::none();
    let mut reached = vec![false; starts.len()];
    for f in 1..=(seconds * HZ).round() as usize {
        crowd.update(1.0 / HZ).unwrap();
        let wall = |p| wall_distance(rows, p);
        out.judge_sized(f, &positions(&crowd), radii, goals, &mut reached, &wall);
        out.progress(f, way_left(&crowd));
        if out.arrived == starts.len() {
            break;
        }
    }
    out
}

#[test]
fn agents_of_different_radii_keep_their_own_clearance_on_moving_ai_maps() {
    // Forty agents of three sizes (0.2, 0.3, 0.45 cells) at random on Moving AI's arena
    // and cave, on the grid and on its navmesh: each pair is judged against the sum of its
    // own radii, each agent against its own radius off the walls (the map's cells, read
    // here). Without avoidance they overlap; a crowd that planned everyone at one radius
    // would bring the largest into the walls' reach at corners.
    for (rel, seed, by) in [("dao/arena.map", 50, 60.0), ("dao/den312d.map", 51, 90.0)] {
        let rows = map_rows(rel);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let (starts, goals) = random_pairs(&rows, seed, 0.45);
        let radii: Vec<f64> = (0..40).map(|k| [0.2, 0.3, 0.45][k % 3]).collect();
        let agents = (&starts[..], &goals[..], &radii[..]);
        let map = GridMap::from_rows(&rows).unwrap();
        let grid = || GridWorld::new(map.clone()).unwrap();
        assert!(
            run_sized(grid(), &rows, agents, false, by).overlaps > 0,
            "{rel}"
        );
        assert_clean(rel, &run_sized(grid(), &rows, agents, true, by), 40, by);
        let navmesh = SurfaceWorld::from_navmesh(&NavMesh::from_grid(&map).unwrap()).unwrap();
        let on_mesh = run_sized(navmesh, &rows, agents, true, by);
        assert_clean(&format!("{rel} as a navmesh"), &on_mesh, 40, by);
    }
}

#[test]
fn random_agents_on_an_engine_navmesh_without_touching() {
    // An arena (Moving AI's Dragon Age map) meshed by another tool (vleue's Polyanya
    // `.mesh`, tests/data/corpus): forty agents at random points (fixed seed) at least a
    // diameter from every wall and two from each other, bound for random points as
    // clear. The walls are the file's boundary edges, found here; an agent inside the mesh
    // is judged by its distance to them (the mesh is one connected floor, so no agent can
    // stand beyond them).
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/polyanya/vleue__arena.mesh"
    );
    let walls = mesh_walls(&std::fs::read_to_string(file).unwrap());
    let wall_distance = |p: DVec2| {
        walls
            .iter()
            .map(|&w| side_distance(p, w))
            .fold(f64::INFINITY, f64::min)
    };
    let mesh = pathsmooth::navmesh::load(file, pathsmooth::navmesh::GroundPlane::Xy).unwrap();
    let lo = walls
        .iter()
        .flatten()
        .fold(DVec2::INFINITY, |m, &p| m.min(p));
    let hi = walls
        .iter()
        .flatten()
        .fold(DVec2::NEG_INFINITY, |m, &p| m.max(p));
    let world = SurfaceWorld::from_navmesh(&mesh).unwrap();
    let mut probe = Pipeline::preset(&world, RADIUS, Preset::Smooth).unwrap();
    let mut rng = Rng::new(42);
    let mut draw = |taken: &[DVec2], world: &SurfaceWorld| loop {
        let p = DVec2::new(rng.range(lo.x, hi.x), rng.range(lo.y, hi.y));
        let inside = world.mesh().plan_mesh().locate(p).is_some();
        if inside
            && wall_distance(p) >= 2.0 * RADIUS
            && taken.iter().all(|q| q.distance(p) >= 4.0 * RADIUS)
        {
            return p;
        }
    };
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    while starts.len() < 40 {
        let s = draw(&starts, &world);
        let g = draw(&goals, &world);
        if probe.plan(s, g).is_ok() {
            starts.push(s);
            goals.push(g);
        }
    }
    drop(probe);
    let through = run_judged(world.clone(), &wall_distance, &starts, &goals, false, 60.0);
    assert!(through.overlaps > 0, "{through:?}");
    let avoiding = run_judged(world, &wall_distance, &starts, &goals, true, 60.0);
    assert_clean("vleue's arena mesh", &avoiding, 40, 60.0);
}

/// Runs `starts` to `goals` on the map `rows` with a moving obstacle of radius `big_r`
/// from `center` at `velocity` (stopped at frame `stop.0`, going again at `stop.1`),
/// whose centre the test follows itself; returns the run's outcome and the agent-frames
/// that came nearer the obstacle than its radius plus theirs, by more than 1 %.
fn run_with_truck(
    rows: &[&str],
    starts: &[DVec2],
    goals: &[DVec2],
    avoid: bool,
    (center, big_r, velocity): (DVec2, f64, DVec2),
    stop: Option<(usize, usize)>,
    seconds: f64,
) -> (Outcome, usize) {
    let world = GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap();
    let mut crowd = crowd_of(world, starts, goals, avoid);
    let truck = crowd
        .add_moving_obstacle(MovingObstacle {
            center,
            radius: big_r,
            velocity,
        })
        .unwrap();
    let (mut at_truck, mut v, mut hits) = (center, velocity, 0);
    let mut out = Outcome::none();
    let mut reached = vec![false; starts.len()];
    for f in 1..=(seconds * HZ).round() as usize {
        // The truck stops at frame `stop.0` and drives on at frame `stop.1`.
        if let Some((halt, go)) = stop
            && (f == halt || f == go)
        {
            v = if f == halt { DVec2::ZERO } else { velocity };
            crowd.set_moving_obstacle_velocity(truck, v).unwrap();
        }
        crowd.update(1.0 / HZ).unwrap();
        at_truck += v / HZ;
        let seen = crowd.moving_obstacles().next().unwrap().1.center;
        assert!(seen.distance(at_truck) < 1e-9, "{seen} {at_truck}");
        let at = positions(&crowd);
        hits += at
            .iter()
            .filter(|p| p.distance(at_truck) < 0.99 * (big_r + RADIUS))
            .count();
        out.judge(f, &at, goals, &mut reached, &|p| wall_distance(rows, p));
        out.progress(f, way_left(&crowd));
    }
    (out, hits)
}

/// Ten agents crossing a 30 × 20 hall, five each way in head-on pairs: starts and goals.
fn hall_crossing() -> (Vec<DVec2>, Vec<DVec2>) {
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    for k in 0..5 {
        let y = 6.5 + 2.0 * k as f64;
        starts.extend([DVec2::new(1.5, y), DVec2::new(28.5, y)]);
        goals.extend([DVec2::new(28.5, y), DVec2::new(1.5, y)]);
    }
    (starts, goals)
}

#[test]
fn a_truck_drives_through_a_crowd_crossing_a_hall_and_touches_nobody() {
    // Ten agents cross a 30 × 20 hall, five each way in head-on pairs, while a disc of
    // radius 1 drives across their way at 1.2 units a second, from below the hall to
    // beyond its top.
    let rows = open_map(30, 20);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let (starts, goals) = hall_crossing();
    let truck = (DVec2::new(15.0, -2.0), 1.0, DVec2::new(0.0, 1.2));
    let (through, hit) = run_with_truck(&rows, &starts, &goals, false, truck, None, 40.0);
    assert!(hit > 0 && through.overlaps > 0, "{through:?} {hit}");
    let (avoiding, hit) = run_with_truck(&rows, &starts, &goals, true, truck, None, 40.0);
    assert_eq!(hit, 0, "{avoiding:?}");
    assert_clean("a truck through a crowd", &avoiding, 10, 40.0);
}

/// The point `d` along the closed polygon `loop_` (from its first point), by arc length.
fn along_loop(loop_: &[DVec2], d: f64) -> DVec2 {
    let legs: Vec<(DVec2, DVec2)> = (0..loop_.len())
        .map(|i| (loop_[i], loop_[(i + 1) % loop_.len()]))
        .collect();
    let lap: f64 = legs.iter().map(|(a, b)| a.distance(*b)).sum();
    let mut d = d % lap;
    for (a, b) in legs {
        let l = a.distance(b);
        if d <= l {
            return a + (b - a) * (d / l);
        }
        d -= l;
    }
    loop_[0]
}

#[test]
fn a_forklift_on_its_round_is_kept_clear_of_and_one_that_ends_its_route_stands() {
    // A disc of radius 0.8 driving round a 10 × 6 loop in the middle of a 30 × 20 hall at
    // 1.5 units a second, from its first corner, while ten agents cross the hall in head-on
    // pairs: the crowd drives it where the test's own arc length puts it, and avoiding
    // agents keep the sum of the radii off it.
    let rows = open_map(30, 20);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let (starts, goals) = hall_crossing();
    let round = [
        DVec2::new(10.0, 7.0),
        DVec2::new(20.0, 7.0),
        DVec2::new(20.0, 13.0),
        DVec2::new(10.0, 13.0),
    ];
    let (big_r, speed) = (0.8, 1.5);
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let mut crowd = crowd_of(world, &starts, &goals, true);
    let forklift = crowd
        .add_moving_obstacle(MovingObstacle {
            center: round[0],
            radius: big_r,
            velocity: DVec2::ZERO,
        })
        .unwrap();
    assert_eq!(crowd.world().obstacles().count(), 1, "at rest, it stands");
    crowd
        .drive_moving_obstacle(forklift, &round[1..], speed, false)
        .unwrap();
    crowd
        .drive_moving_obstacle(
            forklift,
            &[round[1], round[2], round[3], round[0]],
            speed,
            true,
        )
        .unwrap();
    assert_eq!(
        crowd.world().obstacles().count(),
        0,
        "set off, it no longer stands"
    );
    let (mut out, mut hits) = (Outcome::none(), 0);
    let mut reached = vec![false; starts.len()];
    for f in 1..=(40.0 * HZ) as usize {
        crowd.update(1.0 / HZ).unwrap();
        let expected = along_loop(&round, speed * f as f64 / HZ);
        let (_, seen) = crowd.moving_obstacles().next().unwrap();
        assert!(
            seen.center.distance(expected) < 1e-9,
            "frame {f}: {} {expected}",
            seen.center
        );
        assert!(
            (seen.velocity.length() - speed).abs() < 1e-9,
            "frame {f}: {}",
            seen.velocity
        );
        let at = positions(&crowd);
        hits += at
            .iter()
            .filter(|p| p.distance(expected) < 0.99 * (big_r + RADIUS))
            .count();
        out.judge(f, &at, &goals, &mut reached, &|p| wall_distance(&rows, p));
        out.progress(f, way_left(&crowd));
    }
    assert_eq!(hits, 0, "{out:?}");
    assert_clean("a forklift on its round", &out, 10, 40.0);

    // One way to a stop: it stands there (a world obstacle) when the route ends, and the
    // game taking over with a velocity ends a route.
    let end = DVec2::new(5.0, 3.0);
    crowd
        .drive_moving_obstacle(forklift, &[end], speed, false)
        .unwrap();
    for _ in 0..(20.0 * HZ) as usize {
        crowd.update(1.0 / HZ).unwrap();
    }
    let (_, rest) = crowd.moving_obstacles().next().unwrap();
    assert_eq!((rest.center, rest.velocity), (end, DVec2::ZERO));
    assert_eq!(
        crowd.world().obstacles().count(),
        1,
        "stopped at its route's end, it stands"
    );
    crowd
        .drive_moving_obstacle(forklift, &round, speed, true)
        .unwrap();
    crowd
        .set_moving_obstacle_velocity(forklift, DVec2::new(0.0, 1.0))
        .unwrap();
    crowd.update(1.0).unwrap();
    let (_, driven) = crowd.moving_obstacles().next().unwrap();
    assert_eq!(
        driven.center,
        DVec2::new(5.0, 4.0),
        "the game's velocity, not the route"
    );

    // Bad routes: refused, the obstacle as it was.
    for (route, speed) in [
        (&[][..], 1.0),
        (&[DVec2::new(f64::NAN, 1.0)][..], 1.0),
        (&[DVec2::new(1e13, 1.0)][..], 1.0),
        (&round[..], 0.0),
        (&round[..], -1.0),
        (&round[..], f64::INFINITY),
    ] {
        let e = crowd
            .drive_moving_obstacle(forklift, route, speed, true)
            .unwrap_err();
        assert!(
            matches!(e, Error::BadObstacle { .. }),
            "{route:?} {speed}: {e}"
        );
    }
    let gone = MovingId::from_raw(999);
    assert!(crowd
        .drive_moving_obstacle(gone, &round, 1.0, true)
        .is_err());
    assert_eq!(crowd.moving_obstacles().next().unwrap().1, driven);
}

#[test]
fn a_truck_that_stops_in_a_door_sends_the_crowd_round_by_the_other() {
    // A 20 × 11 room split by a wall with two doors 3 cells wide (rows 1–3 and 7–9);
    // a truck of radius 1.6 drives into the upper door and stops there for 40 seconds:
    // it stands in the world as an obstacle, and the six agents bound through that door
    // go round by the other without touching it (no agent can pass it in the door
    // without coming within the radii of its centre); then it drives off.
    let mut rows = open_map(20, 11);
    for (y, row) in rows.iter_mut().enumerate() {
        if !(1..4).contains(&y) && !(7..10).contains(&y) {
            row.replace_range(10..11, "@");
        }
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    for k in 0..3 {
        starts.extend([
            DVec2::new(1.5 + k as f64, 1.5),
            DVec2::new(18.5 - k as f64, 2.5),
        ]);
        goals.extend([
            DVec2::new(18.5 - k as f64, 1.5),
            DVec2::new(1.5 + k as f64, 2.5),
        ]);
    }
    // From above the room down to the door's middle (10.5, 2.5) in one second: it stops
    // there at frame 60 and drives on down at frame 2,460.
    let truck = (DVec2::new(10.5, -1.5), 1.6, DVec2::new(0.0, 4.0));
    let (out, hit) = run_with_truck(&rows, &starts, &goals, true, truck, Some((60, 2460)), 40.0);
    assert_eq!(hit, 0, "{out:?}");
    assert_clean("a truck stopped in a door", &out, 6, 40.0);
}

#[test]
fn five_hundred_agents_through_a_bottleneck_without_touching() {
    // A 60 × 40 hall split by a wall with a gap 2 cells wide; 500 agents on a grid of
    // points one cell apart in the left half, each bound for its mirror image in the right
    // (so the first through fill the goals nearest the gap, a lattice 0.4 apart that the
    // rest must pass: agents at their goals step aside). Settings for a dense crowd: a
    // horizon of 1 s, 5 neighbours, walls 0.5 s ahead (the defaults' longer view makes
    // agents queue politely, and slowly). Judged here: no overlap, no wall hit, every agent
    // at its goal by 360 s, and no stretch of more than 10 s in which nobody comes through
    // the gap (a deadlock would be one).
    let mut rows = open_map(60, 40);
    for (y, row) in rows.iter_mut().enumerate() {
        if !(19..21).contains(&y) {
            row.replace_range(29..31, "@@");
        }
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut starts = Vec::new();
    for y in 0..25 {
        for x in 0..20 {
            starts.push(DVec2::new(4.5 + x as f64, 7.5 + y as f64));
        }
    }
    let goals: Vec<DVec2> = starts.iter().map(|s| DVec2::new(60.0 - s.x, s.y)).collect();
    let dense = Avoidance {
        time_horizon: 1.0,
        max_neighbours: 5,
        wall_time_horizon: 0.5,
        neighbour_distance: None,
    };
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    // Two threads where there are (the results do not depend on them).
    let threads = if cfg!(feature = "rayon") { 2 } else { 1 };
    let mut crowd = Crowd::new(world, RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(Some(dense))
        .unwrap()
        .with_threads(threads)
        .unwrap();
    for (&s, &g) in starts.iter().zip(&goals) {
        crowd.add_agent(s, g, SPEED).unwrap();
    }
    let mut out = Outcome::none();
    let mut reached = vec![false; starts.len()];
    let mut through = vec![false; starts.len()];
    let (mut passed, mut last_pass, mut longest_wait) = (0, 0.0f64, 0.0f64);
    for f in 1..=(360.0 * HZ) as usize {
        crowd.update(1.0 / HZ).unwrap();
        let at = positions(&crowd);
        out.judge(f, &at, &goals, &mut reached, &|p| wall_distance(&rows, p));
        out.progress(f, way_left(&crowd));
        let now = f as f64 / HZ;
        for (p, t) in at.iter().zip(&mut through) {
            if !*t && p.x > 31.0 {
                *t = true;
                passed += 1;
                longest_wait = longest_wait.max(now - last_pass);
                last_pass = now;
            }
        }
        if out.arrived == starts.len() {
            break;
        }
    }
    println!("through the gap: {passed}, longest wait {longest_wait:.1} s");
    assert_eq!(passed, starts.len());
    assert!(
        longest_wait <= 10.0,
        "{longest_wait} s with nobody through the gap"
    );
    assert_clean("bottleneck of 500", &out, 500, 360.0);
}

#[test]
fn bad_moving_obstacles_are_refused_and_leave_the_crowd_as_it_was() {
    let world = GridWorld::new(GridMap::from_rows(&open_map(8, 8)).unwrap()).unwrap();
    let mut crowd = Crowd::new(world, RADIUS, Preset::Smooth.steps()).unwrap();
    let good = MovingObstacle {
        center: DVec2::new(4.0, 4.0),
        radius: 1.0,
        velocity: DVec2::new(1.0, 0.0),
    };
    let id = crowd.add_moving_obstacle(good).unwrap();
    for bad in [
        MovingObstacle {
            radius: 0.0,
            ..good
        },
        MovingObstacle {
            radius: -1.0,
            ..good
        },
        MovingObstacle {
            radius: f64::NAN,
            ..good
        },
        MovingObstacle {
            radius: f64::INFINITY,
            ..good
        },
        MovingObstacle {
            center: DVec2::new(f64::NAN, 0.0),
            ..good
        },
        MovingObstacle {
            center: DVec2::new(1e300, 0.0),
            ..good
        },
        MovingObstacle {
            velocity: DVec2::new(0.0, f64::INFINITY),
            ..good
        },
        MovingObstacle {
            velocity: DVec2::new(f64::NAN, 0.0),
            ..good
        },
    ] {
        let e = crowd.add_moving_obstacle(bad).unwrap_err();
        assert!(e.to_string().contains("moving obstacle"), "{e}");
    }
    let e = crowd
        .set_moving_obstacle_velocity(id, DVec2::NAN)
        .unwrap_err();
    assert!(e.to_string().contains("velocity"), "{e}");
    crowd.remove_moving_obstacle(id).unwrap();
    let e = crowd.remove_moving_obstacle(id).unwrap_err();
    assert!(e.to_string().contains("no moving obstacle"), "{e}");
    assert_eq!(crowd.moving_obstacles().count(), 0);
    // A huge time step keeps a fast obstacle's centre finite.
    let fast = crowd
        .add_moving_obstacle(MovingObstacle {
            velocity: DVec2::splat(1e12),
            ..good
        })
        .unwrap();
    crowd.update(1e300).unwrap();
    let (seen, o) = crowd.moving_obstacles().next().unwrap();
    assert_eq!(seen, fast);
    assert!(o.center.is_finite(), "{}", o.center);
}

#[test]
fn bad_agents_and_steps_are_refused_and_agents_spawned_on_one_point_part() {
    let rows = open_map(16, 16);
    let mut rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    rows[8] = "@@@@@@@@........";
    let world = || GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    for radius in [f64::NAN, -0.3, f64::INFINITY] {
        assert!(Crowd::new(world(), radius, Preset::Smooth.steps()).is_err());
    }
    let mut crowd = Crowd::new(world(), RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(Some(Avoidance::default()))
        .unwrap();
    let (here, there) = (DVec2::new(2.5, 2.5), DVec2::new(2.5, 13.5));
    let bad: [(DVec2, DVec2, f64); 9] = [
        (DVec2::new(f64::NAN, 2.5), there, SPEED),
        (here, DVec2::new(2.5, f64::INFINITY), SPEED),
        (here, there, f64::NAN),
        (here, there, 0.0),
        (here, there, -1.0),
        (here, there, f64::INFINITY),
        // Inside the wall, and outside the map.
        (DVec2::new(2.5, 8.5), there, SPEED),
        (here, DVec2::new(2.5, 8.5), SPEED),
        (DVec2::new(-5.0, 2.5), there, SPEED),
    ];
    for (p, t, speed) in bad {
        let e = crowd.add_agent(p, t, speed).unwrap_err();
        assert!(!e.to_string().is_empty());
        assert!(crowd.agents().is_empty(), "{p} {t} {speed}: added");
    }
    for dt in [f64::NAN, -1.0, f64::INFINITY] {
        assert!(crowd.update(dt).is_err(), "dt {dt}");
    }
    // Five agents spawned on one point, bound round the wall to one goal each: they part
    // (deterministically, along x), never produce a NaN, and all arrive.
    let goals: Vec<DVec2> = (0..5).map(|k| DVec2::new(10.5 + k as f64, 13.5)).collect();
    for &g in &goals {
        crowd.add_agent(here, g, SPEED).unwrap();
    }
    let mut arrived = vec![false; 5];
    let mut apart_by = None;
    for f in 1..=(40.0 * HZ) as usize {
        crowd.update(1.0 / HZ).unwrap();
        let at: Vec<DVec2> = crowd
            .agents()
            .iter()
            .map(|a| a.agent_path().position())
            .collect();
        for (i, a) in crowd.agents().iter().enumerate() {
            assert!(at[i].is_finite() && a.velocity().is_finite(), "frame {f}");
            arrived[i] |= at[i] == goals[i];
        }
        let closest = (0..5)
            .flat_map(|i| (i + 1..5).map(move |j| (i, j)))
            .map(|(i, j)| at[i].distance(at[j]))
            .fold(f64::INFINITY, f64::min);
        if apart_by.is_none() && closest >= 0.99 * 2.0 * RADIUS {
            apart_by = Some(f as f64 / HZ);
        }
    }
    let apart_by = apart_by.expect("the agents never parted");
    assert!(apart_by <= 2.0, "parted after {apart_by} s");
    assert_eq!(arrived, [true; 5]);
}

/// Where ORCA has no answer: on a Godot level of the engine corpus (boxes on a floor, one
/// floor), eight agents of radius 0.1 with the starts and goals Python's corpus test drew
/// (numpy seed 40). At 0.5 s agent 0 passes agent 5, which walks back to a goal it was
/// pushed off, by a box's corner: the velocities ORCA returns for both lead into each
/// other (its linear program infeasible), and before the crowd pushed overlapping agents
/// apart they came to 0.9745 of the sum of their radii. Every pair is now at least the sum
/// apart after every frame (to rounding), by this test's own distances.
#[test]
fn agents_that_orca_cannot_part_are_pushed_apart_on_a_godot_level() {
    use pathsmooth::navmesh::{load_surface, SurfaceMesh, SurfaceOptions};
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/godot/smix8__NavigationLinkDemo_Blocks.tscn"
    );
    let surface = load_surface(file, &SurfaceOptions::default()).unwrap();
    let mesh = SurfaceMesh::new(surface).unwrap();
    assert!(mesh.is_one_floor());
    let mut crowd = Crowd::new(SurfaceWorld::new(mesh), 0.1, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(Some(Avoidance::default()))
        .unwrap();
    let agents = [
        (
            11.033427087163309,
            9.535911479294436,
            9.968663722359539,
            10.152266600656539,
        ),
        (
            12.475354400234556,
            4.573908238819941,
            9.397731114404609,
            6.274159482033658,
        ),
        (
            12.591976193641393,
            10.38127995746197,
            7.634720122523918,
            7.523846644353913,
        ),
        (
            11.193415686787327,
            9.204136847598226,
            12.814435125805883,
            10.206268530003413,
        ),
        (
            11.648642161407928,
            6.379674659643614,
            11.836290093422653,
            9.165559747901037,
        ),
        (
            10.537286382922092,
            9.626093687287987,
            10.634126534986173,
            9.657626536980372,
        ),
        (
            7.174981328327401,
            8.135411011957991,
            7.702618828887863,
            7.7640403642914535,
        ),
        (
            12.559014814779506,
            2.2792296876685274,
            12.052744754251702,
            2.029374873503833,
        ),
    ];
    for (x, y, tx, ty) in agents {
        crowd
            .add_agent(DVec2::new(x, y), DVec2::new(tx, ty), SPEED)
            .unwrap();
    }
    let mut closest = f64::INFINITY;
    for _ in 0..100 {
        crowd.update(0.05).unwrap();
        let p = positions(&crowd);
        for i in 0..p.len() {
            for q in &p[i + 1..] {
                closest = closest.min(p[i].distance(*q) / 0.2);
            }
        }
    }
    assert!(
        closest >= 1.0 - 1e-9,
        "two agents came to {closest} of the sum of their radii"
    );
}
