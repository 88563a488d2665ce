//! Obstacles that land on agents (issue 40, item 2: "doors that close on an agent push it
//! out or keep open until it has left"): the crowd pushes the agent out, to the nearest
//! point with room it could slide to on the world before the obstacle, and plans on from
//! there. Judged by an independent oracle (distances to the closed unit squares of
//! blocked cells and to a navmesh file's walls, read from its text, `common::oracle`'s; a
//! brute-force search of the nearest way out, here), on a Moving AI map and an engine
//! navmesh with crates dropped at random (seeded), and on hand-made cases: a wall between
//! the agent and a nearer exit, a target under the crate, an agent walled in, a navmesh
//! doorway, a truck that stops on an agent.

use crate::common;
use crate::common::oracle::{
    inside_walls, mesh_walls, segment_box_distance, segments_distance, side_distance,
};
use crate::common::rng::Rng;

use glam::{DVec2, IVec2};
use pathsmooth::crowd::{Crowd, MovingObstacle};
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::{NavMesh, Scene};
use pathsmooth::world::{Obstacle, ObstacleWorld};
use pathsmooth::{validate, Error, GridWorld, Preset, SurfaceWorld, World};

/// A crate's corners (min, max).
type Crate = (DVec2, DVec2);

/// The oracle's view of a world: `room(x, radius, crate)`, room for an agent at `x` once
/// the crate lies there (`None`: before it); `clear(a, b, radius)`, the segment keeps
/// `radius` off the walls before the crate.
struct Oracle<'a> {
    room: &'a dyn Fn(DVec2, f64, Option<Crate>) -> bool,
    clear: &'a dyn Fn(DVec2, DVec2, f64) -> bool,
}

/// What the crates of [`drop_crates`] did.
#[derive(Debug, Default)]
struct Tally {
    trials: usize,
    pushed: usize,
    /// Trials where room through a wall was nearer than any on the agent's side.
    walled: usize,
    /// The farthest push, as a multiple of the oracle's nearest.
    worst: f64,
}

/// Places agents one at a time at random points (`point`, with a random goal; radii 0.25,
/// 0.4 and 0.5 in turn; a point the crowd refuses is drawn again), drops a random box crate
/// of 1 to 6 a side over each, and judges where the crowd put the agent by the oracle:
/// where it has room, by a segment clear before the crate, never nearer than the oracle's
/// nearest such point (a lattice 0.02 apart, searched nearest first) and not pushed only
/// when the oracle finds none; once pushed, with its goal clear of the crate, it plans a
/// valid path on at the next update. Then the crate is lifted and the agent removed.
fn drop_crates<W: ObstacleWorld + Send + Sync>(
    crowd: &mut Crowd<W>,
    (seed, trials): (u64, usize),
    point: &dyn Fn(&mut Rng) -> DVec2,
    oracle: &Oracle<'_>,
) -> Tally {
    let mut rng = Rng::new(seed);
    // Far enough out of the largest crate from anywhere in it (6√2 + 4 radii).
    let lattice = lattice(10.5, 0.02);
    let mut tally = Tally {
        worst: 1.0,
        ..Tally::default()
    };
    while tally.trials < trials {
        let radius = [0.25, 0.4, 0.5][tally.trials % 3];
        let (p, goal) = (point(&mut rng), point(&mut rng));
        let Ok(agent) = crowd.add_agent_with_radius(p, goal, 1.0, radius) else {
            continue; // in a wall, or no way: draw again
        };
        tally.trials += 1;
        let size = DVec2::new(rng.range(1.0, 6.0), rng.range(1.0, 6.0));
        let min = p - size * DVec2::new(rng.unit(), rng.unit());
        let crate_ = (min, min + size);
        let (id, blocked) = crowd
            .add_obstacle(Obstacle::Box {
                min,
                max: min + size,
            })
            .unwrap();
        assert!(blocked >= 1, "a crate over an agent blocks its path");
        let q = crowd.agents()[agent].agent_path().position();
        let room = |x: DVec2| (oracle.room)(x, radius, Some(crate_));
        let nearest = |through_walls: bool| {
            lattice.iter().map(|&d| p + d).find_map(|x| {
                (room(x) && (through_walls || (oracle.clear)(p, x, radius))).then(|| x.distance(p))
            })
        };
        let oracle_nearest = nearest(false);
        if nearest(true) < oracle_nearest.map(|d| d - 0.05) {
            tally.walled += 1;
        }
        if q == p {
            assert_eq!(
                oracle_nearest, None,
                "{p} not pushed, room at {oracle_nearest:?}"
            );
        } else {
            tally.pushed += 1;
            // Room and a clear way within the library's tolerance of the boundary.
            let r = radius - 1e-9;
            assert!(
                (oracle.room)(q, r, Some(crate_)),
                "{p} pushed to {q}, without room"
            );
            assert!((oracle.clear)(p, q, r), "{p} pushed to {q} through a wall");
            let nearest = oracle_nearest.expect("pushed where the oracle finds no room");
            // The oracle's points lie 0.02 apart: the true nearest is at most that
            // diagonal nearer than its.
            let d = p.distance(q);
            assert!(
                d >= nearest - 0.03,
                "{p} pushed {d}, nearer than room at {nearest}"
            );
            tally.worst = tally.worst.max(d / nearest);
            let f = crowd.update(0.1).unwrap();
            if room(goal) {
                let path = crowd.agents()[agent].agent_path();
                assert_eq!(f.stuck, 0, "{:?}", path.stuck());
                validate(crowd.world(), path.path(), radius).unwrap();
            }
        }
        crowd.remove_obstacle(id).unwrap();
        crowd.remove_agent(agent).unwrap();
    }
    eprintln!("{tally:?}");
    tally
}

/// The points of a square lattice `step` apart within `reach` of the origin, nearest
/// first: the oracle's candidates.
fn lattice(reach: f64, step: f64) -> Vec<DVec2> {
    let n = (reach / step).ceil() as i32;
    let mut points: Vec<DVec2> = (-n..=n)
        .flat_map(|j| (-n..=n).map(move |i| step * DVec2::new(i as f64, j as f64)))
        .filter(|d| d.length() <= reach)
        .collect();
    points.sort_by(|a, b| a.length().total_cmp(&b.length()));
    points
}

/// The cells the segment `a`–`b` could come within `r` of: those of its box grown by r.
fn cells_near(a: DVec2, b: DVec2, r: f64) -> impl Iterator<Item = IVec2> {
    let (lo, hi) = ((a.min(b) - r).floor(), (a.max(b) + r).floor());
    (lo.y as i32..=hi.y as i32)
        .flat_map(move |y| (lo.x as i32..=hi.x as i32).map(move |x| IVec2::new(x, y)))
}

/// Distance from the segment `a`–`b` to the blocked region of a grid map (cell size 1,
/// origin 0) with a crate: the closed squares of its blocked cells and of the cells the
/// crate covers (those whose closed square meets its open inside, as DESIGN.md has it),
/// and everything outside the map; capped at `r` (only the cells within `r` are looked at).
fn grid_clearance(map: &GridMap, (a, b): (DVec2, DVec2), r: f64, crate_: Option<Crate>) -> f64 {
    let size = DVec2::new(map.width() as f64, map.height() as f64);
    let border = |p: DVec2| p.x.min(p.y).min(size.x - p.x).min(size.y - p.y);
    // Inside the map's rectangle the distance to its outside is smallest at an end.
    let mut best = border(a).min(border(b)).max(0.0).min(r);
    for c in cells_near(a, b, r) {
        let lo = c.as_dvec2();
        let covered = crate_.is_some_and(|(min, max)| {
            lo.x < max.x && lo.x + 1.0 > min.x && lo.y < max.y && lo.y + 1.0 > min.y
        });
        if map.is_blocked(c.x as i64, c.y as i64) || covered {
            best = best.min(segment_box_distance(a, b, lo, lo + 1.0));
        }
    }
    best
}

/// A crowd on a grid of `rows` with one agent of `radius` going from `from` to `to`.
fn one_agent(rows: &[&str], radius: f64, from: DVec2, to: DVec2) -> Crowd<GridWorld> {
    let world = GridWorld::new(GridMap::from_rows(rows).unwrap()).unwrap();
    let mut crowd = Crowd::new(world, radius, Preset::Shortest.steps()).unwrap();
    crowd.add_agent(from, to, 1.0).unwrap();
    crowd
}

#[test]
fn crates_dropped_on_agents_of_a_real_map_push_each_to_the_nearest_room_without_crossing_a_wall() {
    // Rooms of 7 × 7 cells behind walls one cell thick: a crate often reaches into the next
    // room, where room is nearer than on the agent's side. Agents in the first 64 × 64
    // cells (64 rooms), their goals there too.
    let (map, _) = common::load("rooms/8room_000");
    let world = GridWorld::new(map.clone()).unwrap();
    let mut crowd = Crowd::new(world, 0.25, Preset::Smooth.steps()).unwrap();
    let point = |rng: &mut Rng| DVec2::new(rng.range(0.0, 64.0), rng.range(0.0, 64.0));
    let oracle = Oracle {
        room: &|x, r, crate_| grid_clearance(&map, (x, x), r, crate_) >= r,
        clear: &|a, b, r| grid_clearance(&map, (a, b), r, None) >= r,
    };
    let tally = drop_crates(&mut crowd, (402, 60), &point, &oracle);
    assert!(tally.pushed >= 50, "{tally:?}");
    assert!(
        tally.walled >= 3,
        "the walls mattered too seldom: {tally:?}"
    );
    // 17 ways, not every one: round a corner the nearest room can lie between two.
    assert!(tally.worst <= 1.25, "{tally:?}");
}

#[test]
fn crates_dropped_on_agents_of_an_engine_navmesh_push_each_out_without_crossing_a_wall() {
    // An arena meshed by another tool (vleue's Polyanya `.mesh`, tests/data/corpus). The
    // oracle reads the file's walls (the polygon sides no other polygon shares) from its
    // text: a point has room where the walls enclose it at least a radius from each wall
    // and from the crate; a push crosses no wall when its segment keeps a radius off them.
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/polyanya/vleue__arena.mesh"
    );
    let walls = mesh_walls(&std::fs::read_to_string(file).unwrap());
    let mesh = pathsmooth::navmesh::load(file, pathsmooth::navmesh::GroundPlane::Xy).unwrap();
    let world = SurfaceWorld::from_navmesh(&mesh).unwrap();
    let (lo, hi) = (world.bounds().min, world.bounds().max);
    let mut crowd = Crowd::new(world, 0.25, Preset::Smooth.steps()).unwrap();
    let point = |rng: &mut Rng| DVec2::new(rng.range(lo.x, hi.x), rng.range(lo.y, hi.y));
    let wall_distance = |a: DVec2, b: DVec2| {
        walls
            .iter()
            .filter(|&&w| side_distance(a, w) < 12.0)
            .map(|&w| segments_distance(a, b, w))
            .fold(f64::INFINITY, f64::min)
    };
    let oracle = Oracle {
        room: &|x, r, crate_| {
            let off_crate =
                crate_.is_none_or(|(min, max)| segment_box_distance(x, x, min, max) >= r);
            inside_walls(x, &walls) && wall_distance(x, x) >= r && off_crate
        },
        clear: &|a, b, r| wall_distance(a, b) >= r,
    };
    let tally = drop_crates(&mut crowd, (403, 30), &point, &oracle);
    assert!(tally.pushed >= 25, "{tally:?}");
    assert!(tally.worst <= 1.25, "{tally:?}");
}

#[test]
fn a_crate_dropped_on_an_agent_pushes_it_out_and_it_walks_on() {
    let rows = ["...........", "...........", "..........."];
    let mut crowd = one_agent(&rows, 0.0, DVec2::new(0.5, 0.5), DVec2::new(10.5, 0.5));
    let (crate_, blocked) = crowd
        .add_obstacle(Obstacle::Cells(vec![IVec2::new(0, 0)]))
        .unwrap();
    assert_eq!(blocked, 1);
    // Half a cell east (the first of the nearest ways round the compass): just past the
    // cell's edge, where a point agent has room again.
    let q = crowd.agents()[0].agent_path().position();
    assert_eq!(q.y, 0.5);
    assert!(q.x > 1.0 && q.x < 1.0 + 1e-9, "{q}");
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 0);
    assert!(crowd.agents()[0].agent_path().position().x > q.x);
    // Lifting the crate changes nothing for it.
    crowd.remove_obstacle(crate_).unwrap();
    crowd.update(0.5).unwrap();
    assert!(!crowd.agents()[0].agent_path().is_stuck());
}

#[test]
fn an_agent_is_pushed_the_long_way_rather_than_through_a_wall() {
    // A wall at x = 5 beside the agent; the crate covers both. East, through the wall, room
    // is 2.35 away; west, on the agent's own side, 3.95.
    let rows = [
        ".....@....",
        ".....@....",
        ".....@....",
        ".....@....",
        ".....@....",
    ];
    let radius = 0.15;
    let p = DVec2::new(4.8, 2.5);
    let mut crowd = one_agent(&rows, radius, p, DVec2::new(0.5, 2.5));
    let (min, max) = (DVec2::new(1.0, -1.0), DVec2::new(6.2, 6.0));
    crowd.add_obstacle(Obstacle::Box { min, max }).unwrap();
    let q = crowd.agents()[0].agent_path().position();
    assert_eq!(q.y, 2.5, "{q}");
    assert!((q.x - (1.0 - radius)).abs() < 1e-9, "{q}");
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 0);
}

#[test]
fn an_agent_whose_target_the_crate_covers_is_pushed_out_and_stuck_until_it_is_lifted() {
    let rows = ["........", "........", "........"];
    let target = DVec2::new(6.5, 1.5);
    let mut crowd = one_agent(&rows, 0.2, DVec2::new(0.5, 1.5), target);
    // The agent arrives and stands at its target; a crate lands on both.
    for _ in 0..20 {
        crowd.update(0.5).unwrap();
    }
    assert!(crowd.agents()[0].arrived());
    let (min, max) = (DVec2::new(5.0, 0.0), DVec2::new(7.0, 3.0));
    let (crate_, _) = crowd.add_obstacle(Obstacle::Box { min, max }).unwrap();
    let q = crowd.agents()[0].agent_path().position();
    assert!((q - DVec2::new(7.2, 1.5)).length() < 1e-9, "{q}"); // the nearer side: east
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 1);
    let agent = &crowd.agents()[0];
    assert!(
        matches!(
            agent.agent_path().stuck(),
            Some(Error::Blocked { what: "target", .. })
        ),
        "{:?}",
        agent.agent_path().stuck()
    );
    assert_eq!(agent.agent_path().target(), target);
    assert_eq!(agent.agent_path().path(), [q]); // stands
    crowd.remove_obstacle(crate_).unwrap();
    for _ in 0..4 {
        crowd.update(0.5).unwrap();
    }
    assert!(crowd.agents()[0].arrived());
    assert_eq!(crowd.agents()[0].agent_path().position(), target);
}

#[test]
fn an_agent_walled_in_by_the_crate_stays_stuck_until_it_is_lifted() {
    // A closed room of three cells; the crate fills it.
    let rows = ["@@@@@...", "@...@...", "@@@@@..."];
    let p = DVec2::new(1.5, 1.5);
    let mut crowd = one_agent(&rows, 0.1, p, DVec2::new(3.5, 1.5));
    let cells = vec![IVec2::new(1, 1), IVec2::new(2, 1), IVec2::new(3, 1)];
    let (crate_, blocked) = crowd.add_obstacle(Obstacle::Cells(cells)).unwrap();
    assert_eq!(blocked, 1);
    assert_eq!(crowd.agents()[0].agent_path().position(), p);
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 1);
    assert!(matches!(
        crowd.agents()[0].agent_path().stuck(),
        Some(Error::Blocked {
            what: "position",
            ..
        })
    ));
    crowd.remove_obstacle(crate_).unwrap();
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 0);
    assert!(crowd.agents()[0].agent_path().position().x > p.x);
}

#[test]
fn a_door_closing_on_an_agent_in_a_navmesh_doorway_pushes_it_to_the_nearer_side() {
    // Two rooms joined by a doorway 1 wide at x = 4..5; the door closes on the agent in it.
    let scene = Scene {
        boundary: vec![
            [0.0, 0.0],
            [4.0, 0.0],
            [4.0, 2.0],
            [5.0, 2.0],
            [5.0, 0.0],
            [9.0, 0.0],
            [9.0, 5.0],
            [5.0, 5.0],
            [5.0, 3.0],
            [4.0, 3.0],
            [4.0, 5.0],
            [0.0, 5.0],
        ],
        holes: vec![],
    };
    let world = SurfaceWorld::from_navmesh(&NavMesh::from_scene(&scene).unwrap()).unwrap();
    let radius = 0.25;
    let mut crowd = Crowd::new(world, radius, Preset::Smooth.steps()).unwrap();
    let p = DVec2::new(4.7, 2.5);
    crowd.add_agent(p, DVec2::new(8.0, 2.5), 1.0).unwrap();
    let door = Obstacle::Box {
        min: DVec2::new(4.0, 1.9),
        max: DVec2::new(5.0, 3.1),
    };
    crowd.add_obstacle(door).unwrap();
    let q = crowd.agents()[0].agent_path().position();
    // Straight on out of the doorway, 0.55 away (back is 0.95).
    assert!((q - DVec2::new(5.25, 2.5)).length() < 1e-9, "{q}");
    assert!(crowd.world().segment_is_clear(q, q, radius));
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 0);
    validate(crowd.world(), crowd.agents()[0].agent_path().path(), radius).unwrap();
}

#[test]
fn a_truck_that_stops_on_an_agent_pushes_it_out() {
    let rows = [".........."; 6];
    let p = DVec2::new(5.0, 3.0);
    let mut crowd = one_agent(&rows, 0.3, p, DVec2::new(9.5, 3.0));
    let truck = crowd
        .add_moving_obstacle(MovingObstacle {
            center: DVec2::new(5.5, 3.0),
            radius: 1.0,
            velocity: DVec2::new(1.0, 0.0),
        })
        .unwrap();
    crowd
        .set_moving_obstacle_velocity(truck, DVec2::ZERO)
        .unwrap();
    let q = crowd.agents()[0].agent_path().position();
    assert_ne!(q, p);
    assert!(crowd.world().segment_is_clear(q, q, 0.3), "{q}");
    assert!(q.x < p.x, "pushed away from the truck's centre: {q}");
    let f = crowd.update(0.5).unwrap();
    assert_eq!(f.stuck, 0);
}
