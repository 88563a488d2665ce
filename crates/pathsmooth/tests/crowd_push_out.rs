//! Obstacles that land on agents (issue 40, item 2: "doors that close on an agent push it
//! out or keep open until it has left"): the crowd pushes the agent out, to the nearest
//! point with room it could slide to on the world before the obstacle, and plans on from
//! there. Judged by an independent oracle (distances to the closed unit squares of
//! blocked cells, `common::oracle`'s; a brute-force search of the nearest way out, here), on a Moving AI
//! map with crates dropped at random (seeded), and on hand-made cases: a wall between the
//! agent and a nearer exit, a target under the crate, an agent walled in, a navmesh, a
//! truck that stops on an agent.

use std::collections::HashSet;

use crate::common;
use crate::common::oracle::{
    inside_walls, mesh_walls, segment_box_distance, segments_distance, side_distance,
};
use crate::common::rng::Rng;

use glam::{DVec2, IVec2};
use pathsmooth::crowd::{Crowd, MovingObstacle};
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::{NavMesh, Scene};
use pathsmooth::world::Obstacle;
use pathsmooth::{validate, Error, GridWorld, NavMeshWorld, Preset, World};

/// The blocked region of a grid map with some cells added, for the oracle: the closed
/// squares of blocked cells and everything outside the map (DESIGN.md), in cell units.
struct Blocked<'a> {
    size: DVec2,
    map: &'a HashSet<IVec2>,
    extra: HashSet<IVec2>,
}

/// The blocked cells of a map.
fn blocked_cells(map: &GridMap) -> HashSet<IVec2> {
    let mut cells = HashSet::new();
    for y in 0..map.height() as i64 {
        for x in 0..map.width() as i64 {
            if map.is_blocked(x, y) {
                cells.insert(IVec2::new(x as i32, y as i32));
            }
        }
    }
    cells
}

impl<'a> Blocked<'a> {
    /// The map's blocked region (its `cells`, from [`blocked_cells`]) and `extra`.
    fn new(map: &GridMap, cells: &'a HashSet<IVec2>, extra: &[IVec2]) -> Self {
        let size = DVec2::new(map.width() as f64, map.height() as f64);
        let extra = extra.iter().copied().collect();
        Blocked {
            size,
            map: cells,
            extra,
        }
    }

    /// The blocked squares whose distance from the box `lo..hi` may be below `reach`.
    fn near(&self, lo: DVec2, hi: DVec2, reach: f64) -> Vec<IVec2> {
        let (lo, hi) = ((lo - reach - 1.0).floor(), (hi + reach + 1.0).ceil());
        let mut out = Vec::new();
        for y in lo.y as i32..=hi.y as i32 {
            for x in lo.x as i32..=hi.x as i32 {
                let c = IVec2::new(x, y);
                if self.map.contains(&c) || self.extra.contains(&c) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// Distance from the segment `a`–`b` to the blocked region, among `squares` (those near
    /// it) and the map's border.
    fn segment_clearance(&self, a: DVec2, b: DVec2, squares: &[IVec2]) -> f64 {
        let border = |p: DVec2| p.x.min(p.y).min(self.size.x - p.x).min(self.size.y - p.y);
        // Inside the map's rectangle the distance to its outside is smallest at an end.
        let mut best = border(a).min(border(b)).max(0.0);
        for &c in squares {
            best = best.min(segment_to_square(a, b, c));
        }
        best
    }
}

/// Distance from the segment `a`–`b` to the closed unit square of cell `c`.
fn segment_to_square(a: DVec2, b: DVec2, c: IVec2) -> f64 {
    segment_box_distance(a, b, c.as_dvec2(), c.as_dvec2() + 1.0)
}

/// The cells a box crate blocks on a grid (cell size 1, origin 0): those whose closed
/// square meets the box's open inside, in the map.
fn crate_cells(min: DVec2, max: DVec2, map: &GridMap) -> Vec<IVec2> {
    let mut cells = Vec::new();
    for y in 0..map.height() as i32 {
        for x in 0..map.width() as i32 {
            let lo = DVec2::new(x as f64, y as f64);
            if lo.x < max.x && lo.x + 1.0 > min.x && lo.y < max.y && lo.y + 1.0 > min.y {
                cells.push(IVec2::new(x, y));
            }
        }
    }
    cells
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

/// The oracle's nearest way out: the distance to the nearest of the `lattice` points round
/// `p` where an agent of `radius` has room after the crate, reached by a segment clear
/// before it (unless `through_walls`); `None` when there is none.
fn nearest_way_out(
    (before, after): (&Blocked, &Blocked),
    p: DVec2,
    radius: f64,
    lattice: &[DVec2],
    through_walls: bool,
) -> Option<f64> {
    let reach = lattice.last().map_or(0.0, |d| d.length());
    let (lo, hi) = (p - reach, p + reach);
    let (old, new) = (before.near(lo, hi, radius), after.near(lo, hi, radius));
    lattice.iter().map(|&d| p + d).find_map(|q| {
        (after.segment_clearance(q, q, &new) >= radius
            && (through_walls || before.segment_clearance(p, q, &old) >= radius))
            .then(|| q.distance(p))
    })
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
    // room, where room is nearer than on the agent's side.
    let (map, _) = common::load("rooms/8room_000");
    let cells = blocked_cells(&map);
    let before = Blocked::new(&map, &cells, &[]);
    let world = GridWorld::new(map.clone()).unwrap();
    let mut crowd = Crowd::new(world, 0.25, Preset::Smooth.steps()).unwrap();
    let mut rng = Rng::new(402);
    let (mut pushed, mut trials, mut worst, mut walled) = (0, 0, 1.0_f64, 0);
    // Agents in the first 64 × 64 cells (64 rooms), their goals near them.
    let point = |rng: &mut Rng| DVec2::new(rng.range(0.0, 64.0), rng.range(0.0, 64.0));
    // Far enough out of the largest crate from anywhere in it (6√2 + 4 radii).
    let lattice = lattice(10.5, 0.02);
    while trials < 60 {
        let radius = [0.25, 0.4, 0.5][trials % 3];
        let (p, goal) = (point(&mut rng), point(&mut rng));
        let Ok(agent) = crowd.add_agent_with_radius(p, goal, 1.0, radius) else {
            continue; // in a wall, or no way: draw again
        };
        trials += 1;
        // A crate of 1 to 6 cells a side, over the agent.
        let size = DVec2::new(rng.range(1.0, 6.0), rng.range(1.0, 6.0));
        let min = p - size * DVec2::new(rng.unit(), rng.unit());
        let max = min + size;
        let after = Blocked::new(&map, &cells, &crate_cells(min, max, &map));
        let (crate_, blocked) = crowd.add_obstacle(Obstacle::Box { min, max }).unwrap();
        assert!(blocked >= 1, "a crate over an agent blocks its path");
        let q = crowd.agents()[agent].agent_path().position();
        let worlds = (&before, &after);
        let oracle = nearest_way_out(worlds, p, radius, &lattice, false);
        // Where room through a wall is nearer than any on the agent's side.
        let anywhere = nearest_way_out(worlds, p, radius, &lattice, true);
        if anywhere < oracle.map(|d| d - 0.05) {
            walled += 1;
        }
        if q == p {
            // Not pushed: the oracle finds no way out either.
            assert_eq!(
                oracle, None,
                "agent at {p} with room at {oracle:?} was not pushed"
            );
        } else {
            pushed += 1;
            let (old, new) = (before.near(p, q, radius), after.near(q, q, radius));
            assert!(
                after.segment_clearance(q, q, &new) >= radius - 1e-9,
                "{p} pushed to {q}, without room"
            );
            assert!(
                before.segment_clearance(p, q, &old) >= radius - 1e-9,
                "{p} pushed to {q} through a wall"
            );
            let nearest = oracle.expect("pushed where the oracle finds no room");
            // The oracle's points lie on a grid 0.02 apart: the true nearest is at most
            // that diagonal nearer than its.
            let d = p.distance(q);
            assert!(
                d >= nearest - 0.03,
                "{p} pushed {d}, nearer than room at {nearest}"
            );
            worst = worst.max(d / nearest);
            // It plans on from there.
            let f = crowd.update(0.1).unwrap();
            let path = crowd.agents()[agent].agent_path();
            if after.segment_clearance(goal, goal, &after.near(goal, goal, radius)) >= radius {
                assert_eq!(f.stuck, 0, "{:?}", path.stuck());
                validate(crowd.world(), path.path(), radius).unwrap();
            }
        }
        crowd.remove_obstacle(crate_).unwrap();
        crowd.remove_agent(agent).unwrap();
    }
    eprintln!(
        "{pushed} of {trials} agents pushed ({walled} with room nearer through a wall); \
         farthest {worst:.3} × the oracle's nearest"
    );
    assert!(pushed >= 50, "{pushed} of {trials}");
    assert!(walled >= 3, "the walls mattered in {walled} trials only");
    // 17 ways, not every one: round a corner the nearest room can lie between two.
    assert!(worst <= 1.25, "{worst}");
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
    let world = NavMeshWorld::new(mesh);
    let (lo, hi) = (world.bounds().min, world.bounds().max);
    let mut crowd = Crowd::new(world, 0.25, Preset::Smooth.steps()).unwrap();
    let mut rng = Rng::new(403);
    let lattice = lattice(10.5, 0.02);
    let (mut pushed, mut trials, mut worst, mut walled) = (0, 0, 1.0_f64, 0);
    while trials < 30 {
        let radius = [0.25, 0.4, 0.5][trials % 3];
        let point = |rng: &mut Rng| DVec2::new(rng.range(lo.x, hi.x), rng.range(lo.y, hi.y));
        let (p, goal) = (point(&mut rng), point(&mut rng));
        let Ok(agent) = crowd.add_agent_with_radius(p, goal, 1.0, radius) else {
            continue; // off the mesh, too near a wall, or no way: draw again
        };
        trials += 1;
        let size = DVec2::new(rng.range(1.0, 6.0), rng.range(1.0, 6.0));
        let min = p - size * DVec2::new(rng.unit(), rng.unit());
        let max = min + size;
        let (crate_, _) = crowd.add_obstacle(Obstacle::Box { min, max }).unwrap();
        let q = crowd.agents()[agent].agent_path().position();
        // The walls within reach of the agent, for the oracle's many tests.
        let near: Vec<[DVec2; 2]> = walls
            .iter()
            .copied()
            .filter(|&w| side_distance(p, w) < 11.0 + radius)
            .collect();
        let wall_clear = |a: DVec2, b: DVec2| {
            near.iter()
                .map(|&w| segments_distance(a, b, w))
                .fold(f64::INFINITY, f64::min)
        };
        let room = |x: DVec2| {
            inside_walls(x, &walls)
                && wall_clear(x, x).min(segment_box_distance(x, x, min, max)) >= radius
        };
        let oracle = |through_walls: bool| {
            lattice.iter().map(|&d| p + d).find_map(|x| {
                (room(x) && (through_walls || wall_clear(p, x) >= radius)).then(|| x.distance(p))
            })
        };
        let nearest = oracle(false);
        if oracle(true) < nearest.map(|d| d - 0.05) {
            walled += 1;
        }
        if q == p {
            assert_eq!(
                nearest, None,
                "agent at {p} with room at {nearest:?} was not pushed"
            );
        } else {
            pushed += 1;
            let slack = 1e-9;
            assert!(inside_walls(q, &walls), "{p} pushed off the mesh to {q}");
            assert!(
                wall_clear(q, q) >= radius - slack,
                "{p} pushed to {q}, by a wall"
            );
            assert!(
                segment_box_distance(q, q, min, max) >= radius - slack,
                "{p} pushed to {q}, by the crate"
            );
            assert!(
                wall_clear(p, q) >= radius - slack,
                "{p} pushed to {q} through a wall"
            );
            let nearest = nearest.expect("pushed where the oracle finds no room");
            let d = p.distance(q);
            assert!(
                d >= nearest - 0.03,
                "{p} pushed {d}, nearer than room at {nearest}"
            );
            worst = worst.max(d / nearest);
        }
        crowd.remove_obstacle(crate_).unwrap();
        crowd.remove_agent(agent).unwrap();
    }
    eprintln!(
        "{pushed} of {trials} agents pushed ({walled} with room nearer through a wall); \
         farthest {worst:.3} × the oracle's nearest"
    );
    assert!(pushed >= 25, "{pushed} of {trials}");
    assert!(worst <= 1.25, "{worst}");
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
    let world = NavMeshWorld::new(NavMesh::from_scene(&scene).unwrap());
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
