//! Crowds on layered navmeshes that engines baked (RecastDemo's levels as C++ Recast and
//! Detour wrote them, and a game's Recast dump, from `tests/data/corpus/`: floors over one
//! another, bridges, stairs), agents drawn at random (fixed seeds) and sent across the
//! floors with avoidance on. Every frame is judged by the independent oracle of
//! `common/surface_oracle.rs`, which knows nothing of sheets or of the crowd:
//!
//! - each agent's move over the frame walks the surface in a straight line from the polygon
//!   it stood on (crossing shared edges only: no jump between floors, no wall crossed), and
//!   the height the crowd gives it is the floor's where the walk ends;
//! - no agent comes nearer a wall of its own floor than its radius (less 1 %);
//! - no two agents on one floor (heights less than the agent height apart) stand closer
//!   than the sum of their radii (less 1 %), while agents on floors one over the other
//!   do cross in plan view (counted: the floors are really in use);
//! - most agents arrive (the others are named with the reason);
//! - an agent off the floors is on its way over one of the file's off-mesh links: the way
//!   runs from where it stood, within the crowd's trigger of the link's entry, by the entry
//!   to a point a walk from the link's landing reaches, and the agent lies on it (the walls
//!   are not asked meanwhile); once it lands, it walks on from there; a link holds one
//!   agent at a time.
//!
//! Also: agents one over the other walk as each would alone; a ladder two agents reach at
//! once (a mesh made here: two floors and one link) is climbed by one at a time, at the
//! agent's speed; and bad input to the crowd across floors is refused.
#![cfg(feature = "serde")]

use crate::common;

use std::path::PathBuf;

use common::rng::Rng;
use common::surface_oracle::{plan_areas, random_point, SurfaceOracle};
use glam::{DVec2, DVec3};
use pathsmooth::crowd::{
    Avoidance, Crowd, LinkCrossing, MovingObstacle, DEFAULT_AGENT_HEIGHT, LINK_TRIGGER,
};
use pathsmooth::navmesh::{
    load_surface, OffMeshLink, PolyId, Surface, SurfaceMesh, SurfaceOptions, UpAxis,
};
use pathsmooth::world::Obstacle;
use pathsmooth::{Error, Preset, SurfaceWorld};

const RADIUS: f64 = 0.2;
const SPEED: f64 = 1.5;
const DT: f64 = 1.0 / 20.0;

/// The layered bakes: each has floors over one another.
pub(crate) const FILES: [&str; 3] = [
    "detour/dungeon.all_tiles_navmesh.bin",
    "detour/nav_test.all_tiles_navmesh.bin",
    "recast/janhohenheim__chainboom.poly_mesh.json",
];

pub(crate) fn load(file: &str) -> Surface {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/corpus")
        .join(file);
    load_surface(&path, &SurfaceOptions::new(UpAxis::Y)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// What the oracle saw over a run.
#[derive(Debug, Default)]
struct Seen {
    agents: usize,
    refused: usize,
    frames: usize,
    overlaps: usize,
    wall_hits: usize,
    /// Agent pairs closer than the sum of their radii in plan view on floors one over the
    /// other (agent-pair-frames).
    crossings: usize,
    /// Off-mesh links crossed.
    links: usize,
    /// Agent-frames on the way over a link.
    on_links: usize,
    arrived: usize,
}

/// Runs `agents` random agents on `file` for `seconds` and judges every frame.
/// A run of `agents` on `file`, agent `i` of radius `radii[i % radii.len()]` (the first
/// the crowd's), judged by the oracle every frame.
fn run(file: &str, radii: &[f64], agents: usize, seconds: f64, seed: u64) -> Seen {
    let s = load(file);
    let oracle = SurfaceOracle::new(&s);
    let up = s.up();
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    assert!(!mesh.is_one_floor(), "{file}: floors over one another");
    let mut crowd = Crowd::new(SurfaceWorld::new(mesh), radii[0], Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(Some(Avoidance::default()))
        .unwrap();
    let radius = |i: usize| radii[i % radii.len()];
    let areas = plan_areas(&s);
    let mut rng = Rng::new(seed);
    let mut seen = Seen::default();
    // Where each agent stands by the oracle: its polygon and plan-view point; its goal.
    let (mut at, mut goals): (Vec<(PolyId, DVec2)>, Vec<DVec3>) = (Vec::new(), Vec::new());
    while crowd.agents().len() < agents {
        let (_, start) = random_point(&s, &mut rng, &areas);
        let (_, goal) = random_point(&s, &mut rng, &areas);
        let r = radius(crowd.agents().len());
        match crowd.add_agent_on_surface_with_radius(start, goal, SPEED, r) {
            Ok(i) => {
                let p = crowd.agents()[i].agent_path().position();
                let h = crowd.agents()[i].height();
                let polygon = on_floor(&oracle, &s, p, h)
                    .unwrap_or_else(|| panic!("{file}: agent {i} at {p} height {h} on no polygon"));
                at.push((polygon, p));
                goals.push(crowd.agent_point(i).map(|_| goal).unwrap());
            }
            // Start and goal in pieces that do not join, or with no room for the radius.
            Err(
                Error::Unreachable { .. }
                | Error::UnreachableOnSurface { .. }
                | Error::NoRoom { .. }
                | Error::Blocked { .. }
                | Error::TooNarrow { .. }
                | Error::TooClose { .. },
            ) => seen.refused += 1,
            Err(e) => panic!("{file}: agent {start} → {goal}: {e}"),
        }
    }
    seen.agents = agents;
    let mut arrived = vec![false; agents];
    let frames = (seconds / DT) as usize;
    for f in 0..frames {
        crowd.update(DT).unwrap();
        // Where each agent is: on its floor, or on its way over a link.
        let now: Vec<(DVec2, f64)> = (0..agents)
            .map(|i| up.split(crowd.agent_point(i).unwrap()))
            .collect();
        for (i, &(p, h)) in now.iter().enumerate() {
            let what = format!("{file} frame {f} agent {i}");
            let (polygon, from) = at[i];
            if let Some(crossing) = crowd.agents()[i].crossing() {
                // Off the floors until it lands: judged by its way, not by walls. The
                // update that sent it walked it to where the way starts first.
                let stood = crossing.way()[0].0;
                if stood != from {
                    let walked = oracle.walk(polygon, from, stood).unwrap_or_else(|| {
                        panic!("{what}: {from} → {stood}, where it took a link, walks no surface")
                    });
                    at[i] = (*walked.last().unwrap(), stood);
                }
                on_the_way(&oracle, &s, crossing, stood, (p, h))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                seen.on_links += 1;
                continue;
            }
            let last = match oracle.walk(polygon, from, p) {
                Some(walked) => *walked.last().unwrap(),
                None => {
                    // Not a walk: a jump over an off-mesh link, from near its entry to
                    // where it lands (and at most a push apart beyond).
                    let landed = crossed_link(&oracle, &s, from, p).unwrap_or_else(|| {
                        panic!("{what}: {from} → {p} neither walks the surface from {polygon} nor crosses a link")
                    });
                    seen.links += 1;
                    landed.1
                }
            };
            let floor = s.floor_height(last, p);
            assert!(
                (h - floor).abs() <= s.climb(),
                "{what}: height {h}, the walk ends on {last} at {floor}"
            );
            at[i] = (last, p);
            let clearance = oracle
                .segment_clearance_3d(last, (p, floor), (p, floor), last, radius(i) + 1.0)
                .unwrap();
            if clearance < radius(i) * 0.99 {
                seen.wall_hits += 1;
            }
            let goal = up.plan(goals[i]);
            if !arrived[i] && p.distance(goal) <= 1e-9 * (1.0 + goal.abs().max_element()) {
                arrived[i] = true;
            }
        }
        for i in 0..now.len() {
            for j in i + 1..now.len() {
                let ((p, h), (q, g)) = (now[i], now[j]);
                if p.distance(q) >= (radius(i) + radius(j)) * 0.99 {
                    continue;
                }
                if (h - g).abs() < DEFAULT_AGENT_HEIGHT {
                    seen.overlaps += 1;
                } else {
                    seen.crossings += 1;
                }
            }
        }
        seen.frames += 1;
    }
    seen.arrived = arrived.iter().filter(|&&a| a).count();
    for (i, a) in crowd.agents().iter().enumerate() {
        if !arrived[i] {
            eprintln!(
                "{file}: agent {i} at {} not arrived at {} (target {}, path {:?}, velocity {}, stuck: {:?}, error: {:?})",
                a.agent_path().position(),
                up.plan(goals[i]),
                a.agent_path().target(),
                a.agent_path().path().len(),
                a.velocity(),
                a.agent_path().stuck(),
                a.error()
            );
        }
    }
    seen
}

/// Where a jump from `from` to `p` lands when it crosses an off-mesh link of `s`: `from`
/// within the crowd's trigger of the link's entry (and a step), and `p` reached by a walk
/// on the surface from the link's landing (a push apart may follow the landing); the
/// link's index and the polygon of `p` that walk ends on.
fn crossed_link(
    oracle: &SurfaceOracle,
    s: &Surface,
    from: DVec2,
    p: DVec2,
) -> Option<(usize, PolyId)> {
    let up = s.up();
    let reach = LINK_TRIGGER * RADIUS + SPEED * DT + 1e-9;
    s.links().iter().enumerate().find_map(|(k, l)| {
        let ways = [(l.start, l.end, l.end_poly), (l.end, l.start, l.start_poly)];
        let ways = &ways[..if l.given.bidirectional { 2 } else { 1 }];
        ways.iter().find_map(|&(entry, landing, polygon)| {
            let near = up.plan(entry).distance(from) <= reach;
            let walk = oracle.walk(polygon, up.plan(landing), p).filter(|_| near)?;
            walk.last().map(|&q| (k, q))
        })
    })
}

/// Checks an agent's way over a link: `crossing.link()` is one of `s`'s links, the way runs
/// from where the agent stood (`stood`, plan view) within the crowd's trigger of one of the
/// link's ends to that end and on to a point the link's other end walks to on its floor
/// (one way only unless the link is both ways), and the agent's point `at` (plan view and
/// height) lies on it.
fn on_the_way(
    oracle: &SurfaceOracle,
    s: &Surface,
    crossing: &LinkCrossing,
    stood: DVec2,
    at: (DVec2, f64),
) -> Result<(), String> {
    let up = s.up();
    let link = s
        .links()
        .get(crossing.link() as usize)
        .ok_or(format!("link {} is not one of the mesh's", crossing.link()))?;
    let [from, entry, landing] = crossing.way().map(|(p, h)| up.join(p, h));
    if up.plan(from) != stood {
        return Err(format!(
            "the way starts at {from}, the agent stood at {stood}"
        ));
    }
    let ends = [
        (link.start, link.end, link.end_poly),
        (link.end, link.start, link.start_poly),
    ];
    let ends = &ends[..if link.given.bidirectional { 2 } else { 1 }];
    let tolerance = 1e-9 * (1.0 + entry.abs().max_element());
    let reach = LINK_TRIGGER * RADIUS.max(0.3) + SPEED * DT + tolerance;
    let taken = ends.iter().any(|&(e, l, polygon)| {
        e.distance(entry) <= tolerance
            && up.plan(from).distance(up.plan(e)) <= reach
            && oracle.walk(polygon, up.plan(l), up.plan(landing)).is_some()
            && (up.height(landing) - up.height(l)).abs() <= s.climb()
    });
    if !taken {
        return Err(format!(
            "the way {from} → {entry} → {landing} does not take link {link:?}"
        ));
    }
    let p = up.join(at.0, at.1);
    let off = |a: DVec3, b: DVec3| {
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        let q = if t.is_finite() { a + (b - a) * t } else { a };
        q.distance(p)
    };
    let d = off(from, entry).min(off(entry, landing));
    if d > tolerance {
        return Err(format!(
            "{p} is {d} off the way {from} → {entry} → {landing}"
        ));
    }
    Ok(())
}

/// The lowest and highest floor heights over plan-view `p` (`None` over no polygon).
fn floor_span(oracle: &SurfaceOracle, s: &Surface, p: DVec2) -> Option<(f64, f64)> {
    (0..s.num_polygons() as PolyId)
        .filter(|&q| oracle.inside(q, p))
        .map(|q| s.floor_height(q, p))
        .fold(None, |span, h| match span {
            None => Some((h, h)),
            Some((lo, hi)) => Some((h.min(lo), h.max(hi))),
        })
}

/// The polygon under plan-view `p` whose floor there is within the climb of `h`.
fn on_floor(oracle: &SurfaceOracle, s: &Surface, p: DVec2, h: f64) -> Option<PolyId> {
    (0..s.num_polygons() as PolyId)
        .filter(|&q| oracle.inside(q, p))
        .find(|&q| (s.floor_height(q, p) - h).abs() <= s.climb())
}

#[test]
fn agents_on_layered_bakes_keep_to_their_floors_and_never_meet_on_one() {
    let (mut crossings, mut links, mut on_links) = (0, 0, 0);
    for (k, file) in FILES.iter().enumerate() {
        let seen = run(file, &[RADIUS], 40, 90.0, 0x666c_6f6f_7273 + k as u64);
        eprintln!("{file}: {seen:?}");
        assert_eq!((seen.overlaps, seen.wall_hits), (0, 0), "{file}: {seen:?}");
        assert!(seen.arrived * 10 >= seen.agents * 9, "{file}: {seen:?}");
        crossings += seen.crossings;
        links += seen.links;
        on_links += seen.on_links;
    }
    assert!(crossings > 0, "no agents crossed one over the other");
    assert!(links > 0, "no agent crossed an off-mesh link");
    // Each way over a link takes frames: the agents are shown on it.
    assert!(on_links > links, "{on_links} agent-frames on {links} links");
}

/// Agents of three radii (0.2, 0.12 and 0.3 m) on the layered bakes, judged as above with
/// each agent's own radius: none nearer a wall of its floor than its radius, no pair on
/// one floor nearer than the sum of theirs (less 1 %), and every one arrives. (One of
/// radius 0.3 on chainboom stood for good at the end of a leg of a path over itself: the
/// way on, planned from short of the leg's end, started too near a wall of the sheet cut
/// round it, and was not tried again; it is now tried once more from the end.)
#[test]
fn agents_of_different_radii_on_layered_bakes_keep_their_own_room() {
    for (k, file) in FILES.iter().enumerate() {
        let seen = run(
            file,
            &[RADIUS, 0.12, 0.3],
            30,
            120.0,
            0x0072_6164_6969 + k as u64,
        );
        eprintln!("{file}: {seen:?}");
        assert_eq!((seen.overlaps, seen.wall_hits), (0, 0), "{file}: {seen:?}");
        assert_eq!(seen.arrived, seen.agents, "{file}: {seen:?}");
    }
}

/// Two agents that start at one plan-view point on floors one over the other walk exactly
/// as each would alone (bit for bit, every frame, avoidance on): the crowd never lets
/// agents on different floors meet, though they stand on each other's plan-view spot.
#[test]
fn agents_one_over_the_other_walk_as_if_alone() {
    let mut pairs = 0;
    for (k, file) in FILES.iter().enumerate() {
        let s = load(file);
        let oracle = SurfaceOracle::new(&s);
        let (up, areas) = (s.up(), plan_areas(&s));
        let mesh = std::sync::Arc::new(SurfaceMesh::new(s.clone()).unwrap());
        let crowd = || {
            Crowd::new(
                SurfaceWorld::new(mesh.clone()),
                RADIUS,
                Preset::Smooth.steps(),
            )
            .unwrap()
            .with_avoidance(Some(Avoidance::default()))
            .unwrap()
        };
        let mut rng = Rng::new(0x7061_6972 + k as u64);
        let mut found = 0;
        for _ in 0..20_000 {
            if found == 4 {
                break;
            }
            // A plan-view point over two floors an agent height or more apart.
            let (_, p) = random_point(&s, &mut rng, &areas);
            let p = up.plan(p);
            let Some((low, high)) = floor_span(&oracle, &s, p) else {
                continue;
            };
            if high - low < DEFAULT_AGENT_HEIGHT {
                continue;
            }
            let starts = [up.join(p, low), up.join(p, high)];
            let goals = [0, 1].map(|_| random_point(&s, &mut rng, &areas).1);
            let mut both = crowd();
            let mut alone = [crowd(), crowd()];
            let added = (0..2).all(|i| {
                both.add_agent_on_surface(starts[i], goals[i], SPEED)
                    .is_ok()
                    && alone[i]
                        .add_agent_on_surface(starts[i], goals[i], SPEED)
                        .is_ok()
            });
            if !added {
                continue;
            }
            found += 1;
            let first = [0, 1].map(|i| both.agents()[i].agent_path().position());
            assert_eq!(first[0], first[1], "{file}: both start at {p}");
            for f in 0..300 {
                both.update(DT).unwrap();
                for (i, crowd) in alone.iter_mut().enumerate() {
                    crowd.update(DT).unwrap();
                    assert_eq!(
                        both.agent_point(i).unwrap(),
                        crowd.agent_point(0).unwrap(),
                        "{file} frame {f}: the agent from {} walks otherwise beside the other floor's",
                        starts[i]
                    );
                }
            }
        }
        eprintln!("{file}: {found} pairs one over the other");
        pairs += found;
    }
    assert!(pairs >= 8, "{pairs} pairs");
}

/// A street 10 × `depth` on the ground (y up, one polygon) and a bridge of the same size
/// right over it at height 3.
pub(crate) fn street_and_bridge(depth: f64) -> Surface {
    let v = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(10.0, 0.0, 0.0),
        DVec3::new(10.0, 0.0, depth),
        DVec3::new(0.0, 0.0, depth),
        DVec3::new(0.0, 3.0, 0.0),
        DVec3::new(10.0, 3.0, 0.0),
        DVec3::new(10.0, 3.0, depth),
        DVec3::new(0.0, 3.0, depth),
    ];
    Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0).unwrap()
}

/// A street 10 × 4 with a bridge of the same size right over it (3 up), an agent walking
/// each along the middle, and a truck driving head-on down the middle of the street: the
/// truck on the street's floor turns the street's agent aside (kept the sum of their radii
/// off it, judged here) and leaves the bridge's walking straight; the same truck in plan
/// view turns both. Stopped on the street, it stands on the street's floor (a plan-view
/// one over both floors cannot: refused).
#[test]
fn a_truck_on_one_floor_is_avoided_on_that_floor_only() {
    let mesh = std::sync::Arc::new(SurfaceMesh::new(street_and_bridge(4.0)).unwrap());
    let (r, truck_r) = (0.4, 0.5);
    let truck = MovingObstacle {
        center: DVec2::new(9.0, 2.0),
        radius: truck_r,
        velocity: DVec2::new(-1.0, 0.0),
    };
    // (Least distance from the street's agent to the truck, whether each agent left the
    // middle line.)
    let walk = |on_floor: bool| {
        let mut crowd = Crowd::new(SurfaceWorld::new(mesh.clone()), r, Preset::Smooth.steps())
            .unwrap()
            .with_avoidance(Some(Avoidance::default()))
            .unwrap();
        let street = crowd
            .add_agent_on_surface(DVec3::new(0.5, 0.0, 2.0), DVec3::new(9.5, 0.0, 2.0), 1.5)
            .unwrap();
        let bridge = crowd
            .add_agent_on_surface(DVec3::new(0.5, 3.0, 2.0), DVec3::new(9.5, 3.0, 2.0), 1.5)
            .unwrap();
        let id = match on_floor {
            true => crowd.add_moving_obstacle_on_floor(truck, 0.0).unwrap(),
            false => crowd.add_moving_obstacle(truck).unwrap(),
        };
        let (mut nearest, mut left) = (f64::INFINITY, [false; 2]);
        let mut centre = truck.center;
        for _ in 0..(5.0 / DT) as usize {
            crowd.update(DT).unwrap();
            centre += truck.velocity * DT;
            for (k, agent) in [street, bridge].into_iter().enumerate() {
                let p = crowd.agents()[agent].agent_path().position();
                left[k] |= p.y != 2.0;
                if k == 0 {
                    nearest = nearest.min(p.distance(centre));
                }
            }
        }
        let stopped = crowd.set_moving_obstacle_velocity(id, DVec2::ZERO);
        (
            nearest,
            left,
            stopped.map(|()| crowd.world().obstacles().count()),
        )
    };
    let (nearest, left, stood) = walk(true);
    assert!(
        nearest >= 0.99 * (r + truck_r),
        "the street's agent came within {nearest}"
    );
    assert_eq!(left, [true, false], "only the street's agent steps aside");
    assert_eq!(stood.unwrap(), 1, "stopped, it stands on the street");
    let (_, left, stood) = walk(false);
    assert_eq!(left, [true, true], "a truck in plan view turns both");
    assert!(matches!(stood, Err(Error::BadObstacle { .. })), "{stood:?}");

    let mut crowd = Crowd::new(SurfaceWorld::new(mesh.clone()), r, Preset::Smooth.steps()).unwrap();
    for bad in [f64::NAN, f64::INFINITY] {
        let e = crowd.add_moving_obstacle_on_floor(truck, bad).unwrap_err();
        assert!(
            matches!(e, Error::BadParameter { name: "floor", .. }),
            "{e}"
        );
    }
    let id = crowd.add_moving_obstacle(truck).unwrap();
    assert!(crowd.set_moving_obstacle_floor(id, f64::NAN).is_err());
    crowd.set_moving_obstacle_floor(id, 3.0).unwrap();
    crowd.remove_moving_obstacle(id).unwrap();
    let e = crowd.set_moving_obstacle_floor(id, 3.0).unwrap_err();
    assert!(matches!(e, Error::BadObstacle { .. }), "{e}");
}

/// Agents sent from near each off-mesh link of RecastDemo's dungeon (Detour's bake, 3
/// links; one has ends too near a wall for the radius, and no route takes it) to near
/// where it lands: the oracle sees every way over a link (from where the agent stood
/// within the trigger of a link's entry, by the entry, to where a walk from the link's
/// landing reaches) and every walk, each link crossed, never by two agents at once, and
/// every agent arrives (most walk: the links are short hops).
#[test]
fn agents_cross_an_off_mesh_link_one_at_a_time() {
    let file = "detour/dungeon.all_tiles_navmesh.bin";
    let s = load(file);
    let oracle = SurfaceOracle::new(&s);
    let up = s.up();
    let mesh = std::sync::Arc::new(SurfaceMesh::new(s.clone()).unwrap());
    let areas = plan_areas(&s);
    let mut rng = Rng::new(0x6c69_6e6b);
    let (mut jumps, mut tested, mut frames_on) = (0, 0, 0);
    for (k, link) in s.links().iter().enumerate() {
        let mut crowd = Crowd::new(
            SurfaceWorld::new(mesh.clone()),
            RADIUS,
            Preset::Smooth.steps(),
        )
        .unwrap()
        .with_avoidance(Some(Avoidance::default()))
        .unwrap();
        // Starts within 4 m of the entry on its floor, goals within 4 m of the landing,
        // each apart from the others.
        let near = |end: DVec3, rng: &mut Rng| loop {
            let (q, p) = random_point(&s, rng, &areas);
            let (e, h) = up.split(end);
            if up.plan(p).distance(e) < 4.0 && (up.height(p) - h).abs() <= s.climb() {
                break (q, p);
            }
        };
        let (mut at, mut goals): (Vec<(PolyId, DVec2)>, Vec<DVec2>) = (Vec::new(), Vec::new());
        for _ in 0..100 {
            if at.len() == 4 {
                break;
            }
            let ((q, start), (_, goal)) = (near(link.start, &mut rng), near(link.end, &mut rng));
            let (p, g) = (up.plan(start), up.plan(goal));
            let apart = |a: DVec2, b: DVec2| a.distance(b) >= 3.0 * RADIUS;
            if !at.iter().all(|&(_, o)| apart(p, o)) || !goals.iter().all(|&o| apart(g, o)) {
                continue;
            }
            if crowd.add_agent_on_surface(start, goal, SPEED).is_ok() {
                at.push((q, p));
                goals.push(g);
            }
        }
        if at.is_empty() {
            // The link's ends too near a wall for the radius: no route takes it.
            continue;
        }
        tested += 1;
        for f in 0..600 {
            crowd.update(DT).unwrap();
            let mut over = 0;
            for (i, a) in crowd.agents().iter().enumerate() {
                let (polygon, from) = at[i];
                let (p, h) = up.split(crowd.agent_point(i).unwrap());
                if let Some(crossing) = a.crossing() {
                    let stood = crossing.way()[0].0;
                    let walked = oracle.walk(polygon, from, stood).unwrap_or_else(|| {
                        panic!("{file} link {k} frame {f} agent {i}: {from} → {stood} walks no surface")
                    });
                    at[i] = (*walked.last().unwrap(), stood);
                    on_the_way(&oracle, &s, crossing, stood, (p, h))
                        .unwrap_or_else(|e| panic!("{file} link {k} frame {f} agent {i}: {e}"));
                    assert_eq!(
                        crossing.link() as usize,
                        k,
                        "{file} frame {f}: agent {i} crossed another link"
                    );
                    over += 1;
                    continue;
                }
                let last = match oracle.walk(polygon, from, p) {
                    Some(walked) => *walked.last().unwrap(),
                    None => {
                        let (l, q) = crossed_link(&oracle, &s, from, p).unwrap_or_else(|| {
                            panic!("{file} link {k} frame {f} agent {i}: {from} → {p} neither walks nor crosses a link")
                        });
                        assert_eq!(l, k, "{file} frame {f}: agent {i} crossed another link");
                        jumps += 1;
                        q
                    }
                };
                at[i] = (last, p);
            }
            assert!(
                over <= 1,
                "{file} link {k} frame {f}: {over} agents on the link at once"
            );
            frames_on += over;
            if crowd.agents().iter().all(|a| a.arrived()) {
                break;
            }
        }
        for (i, a) in crowd.agents().iter().enumerate() {
            assert!(
                a.arrived(),
                "{file} link {k}: agent {i} at {} ({:?}) target {} path {:?} link {} -> {}",
                a.agent_path().position(),
                a.error(),
                a.agent_path().target(),
                a.agent_path().path(),
                link.start,
                link.end
            );
        }
    }
    eprintln!(
        "{file}: {jumps} link crossings over {tested} links, {frames_on} agent-frames on them"
    );
    assert!(
        tested >= 1 && jumps >= tested && frames_on > jumps,
        "{jumps} crossings over {tested} links, {frames_on} agent-frames on them"
    );
}

/// Four agents whose only way from one floor to the other is one off-mesh link (a ladder
/// from a floor at height 0 to one at height 3 beside it) queue for it: one at a time is
/// on its way over it, from where it stood within the trigger of the foot to the foot and
/// up to the top, at its speed (the way's 3D length over the speed, to a frame), the
/// others waiting; all arrive, one sent elsewhere while on the ladder climbing on and
/// walking there from the top. Two reach the foot at once: without the queue they climb
/// together.
/// Two floors 6 × 6, one at height 0 and one at height 3 beside it (y up), and a ladder
/// from (5, 0, 3) on the lower to (8, 3, 3) on the upper: their only way between; with a
/// crowd of avoiding agents on it.
fn ladder_crowd() -> (Surface, Crowd<SurfaceWorld>) {
    let v = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(6.0, 0.0, 0.0),
        DVec3::new(6.0, 0.0, 6.0),
        DVec3::new(0.0, 0.0, 6.0),
        DVec3::new(7.0, 3.0, 0.0),
        DVec3::new(13.0, 3.0, 0.0),
        DVec3::new(13.0, 3.0, 6.0),
        DVec3::new(7.0, 3.0, 6.0),
    ];
    let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3], [4, 5, 6, 7]], UpAxis::Y, 0.0).unwrap();
    let ladder = OffMeshLink::new(DVec3::new(5.0, 0.0, 3.0), DVec3::new(8.0, 3.0, 3.0), 0.5);
    let s = s.with_links(&[ladder]).unwrap();
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let crowd = Crowd::new(SurfaceWorld::new(mesh), RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(Some(Avoidance::default()))
        .unwrap();
    (s, crowd)
}

#[test]
fn agents_queue_for_a_ladder_and_climb_it_one_at_a_time() {
    let (s, mut crowd) = ladder_crowd();
    let oracle = SurfaceOracle::new(&s);
    // Two start within the trigger of the ladder's foot (0.25 off it, 0.5 apart), both
    // at the end of their walk at the first update; two farther off.
    let starts = [(5.0, 2.75), (5.0, 3.25), (1.0, 1.0), (1.0, 5.0)];
    let mut goals = [(12.0, 1.0), (12.0, 5.0), (11.0, 3.0), (12.0, 3.0)];
    for (&(x, z), &(gx, gz)) in starts.iter().zip(&goals) {
        let (p, g) = (DVec3::new(x, 0.0, z), DVec3::new(gx, 3.0, gz));
        crowd.add_agent_on_surface(p, g, SPEED).unwrap();
    }
    // Per agent: the frames it was on the ladder, and its progress the frame before.
    let mut climbs: [Vec<usize>; 4] = Default::default();
    let mut progress = [0.0; 4];
    let mut stood: Vec<DVec2> = (0..4)
        .map(|i| crowd.agents()[i].agent_path().position())
        .collect();
    for f in 0..1200 {
        crowd.update(DT).unwrap();
        let mut on = 0;
        for (i, a) in crowd.agents().iter().enumerate() {
            let (p, h) = s.up().split(crowd.agent_point(i).unwrap());
            let Some(c) = a.crossing() else {
                assert!(
                    h == 0.0 || h == 3.0,
                    "frame {f}: agent {i} at height {h} off the ladder"
                );
                stood[i] = p;
                continue;
            };
            on += 1;
            on_the_way(&oracle, &s, c, c.way()[0].0, (p, h))
                .unwrap_or_else(|e| panic!("frame {f}: agent {i}: {e}"));
            let foot = DVec2::new(5.0, 3.0);
            assert!(
                stood[i].distance(foot) <= LINK_TRIGGER * RADIUS + SPEED * DT + 1e-9,
                "frame {f}: agent {i} took the ladder from {}",
                stood[i]
            );
            assert!(
                climbs[i].is_empty() || climbs[i].last() == Some(&(f - 1)),
                "agent {i} climbed twice"
            );
            assert!(
                c.progress() > progress[i] || climbs[i].is_empty(),
                "frame {f}: agent {i} {c:?}"
            );
            progress[i] = c.progress();
            // Its way: from where it stood to the foot, then up the ladder, at its speed.
            let [(w0, h0), (w1, h1), (w2, h2)] = c.way();
            let length = (w1 - w0).extend(h1 - h0).length() + (w2 - w1).extend(h2 - h1).length();
            assert!((c.duration() - length / SPEED).abs() < 1e-12, "{c:?}");
            climbs[i].push(f);
        }
        assert!(on <= 1, "frame {f}: {on} agents on the ladder at once");
        if climbs[0].len() == 20 && goals[0] != (9.0, 5.0) {
            // Agent 0 sent elsewhere a third of the way up: it climbs on, and walks there
            // from the top.
            let (before, at) = (
                crowd.agents()[0].crossing().cloned(),
                crowd.agent_point(0).unwrap(),
            );
            goals[0] = (9.0, 5.0);
            crowd
                .set_target_on_surface(0, DVec3::new(9.0, 3.0, 5.0))
                .unwrap();
            assert!(before.is_some());
            assert_eq!(
                crowd.agents()[0].crossing(),
                before.as_ref(),
                "still on the ladder"
            );
            assert_eq!(crowd.agent_point(0).unwrap(), at);
        }
        if crowd.agents().iter().all(|a| a.arrived()) {
            break;
        }
    }
    for (i, frames) in climbs.iter().enumerate() {
        eprintln!(
            "agent {i}: on the ladder in frames {:?}",
            frames.first().zip(frames.last())
        );
        assert!(!frames.is_empty(), "agent {i} never climbed");
        // The frames it was on the way: the duration at 20 frames a second, to a frame (the
        // frame it lands in shows it walking from the top).
        let on = frames.len() as f64 * DT;
        let ladder = DVec3::new(3.0, 3.0, 0.0).length() / SPEED;
        let most = ladder + (LINK_TRIGGER * RADIUS + 1e-9) / SPEED + DT;
        assert!(
            on >= ladder - DT && on <= most,
            "agent {i}: {} frames on the ladder",
            frames.len()
        );
    }
    for (i, &(gx, gz)) in goals.iter().enumerate() {
        assert_eq!(
            crowd.agent_point(i).unwrap(),
            DVec3::new(gx, 3.0, gz),
            "agent {i} arrived"
        );
    }
}

/// A crate dropped on the top of the ladder while an agent climbs it: the agent's path is
/// pushed out of the crate and repaired, and from the next update its way ends where the
/// path starts (it climbs on, its point always on the way from where it stood by the foot
/// to the new landing, which is off the crate by its radius on the upper floor); it lands
/// there and arrives.
#[test]
fn a_crate_on_the_landing_moves_the_end_of_the_way_over_the_link() {
    let (s, mut crowd) = ladder_crowd();
    let oracle = SurfaceOracle::new(&s);
    let goal = DVec3::new(12.0, 3.0, 3.0);
    crowd
        .add_agent_on_surface(DVec3::new(4.0, 0.0, 3.0), goal, SPEED)
        .unwrap();
    let on_ladder = |crowd: &Crowd<SurfaceWorld>| crowd.agents()[0].crossing().cloned();
    let mut frames = 0;
    while on_ladder(&crowd).is_none_or(|c| c.progress() < 0.5) {
        crowd.update(DT).unwrap();
        frames += 1;
        assert!(frames < 200, "never half-way up the ladder");
    }
    let before = on_ladder(&crowd).unwrap();
    let crate_at = DVec2::new(8.0, 3.0); // plan view (x, z): on the landing
    let disk = Obstacle::Disk {
        center: crate_at,
        radius: 0.5,
    };
    crowd
        .add_obstacle_on_floor(disk, DVec3::new(8.0, 3.0, 3.0))
        .unwrap();
    crowd.update(DT).unwrap();
    let after = on_ladder(&crowd).expect("still on the ladder");
    let [w0, w1, (landing, height)] = after.way();
    assert_eq!(
        (w0, w1, after.link()),
        (before.way()[0], before.way()[1], 0)
    );
    assert_ne!(landing, before.way()[2].0, "the way ends elsewhere");
    assert!(
        landing.distance(crate_at) >= 0.5 + RADIUS - 1e-9,
        "{landing}: on the crate"
    );
    assert_eq!(height, 3.0);
    assert_eq!(crowd.agents()[0].agent_path().position(), landing);
    loop {
        let c = on_ladder(&crowd);
        let (p, h) = s.up().split(crowd.agent_point(0).unwrap());
        match c {
            Some(c) => on_the_way(&oracle, &s, &c, w0.0, (p, h)).unwrap_or_else(|e| panic!("{e}")),
            None => break,
        }
        crowd.update(DT).unwrap();
        frames += 1;
        assert!(frames < 400, "never landed");
    }
    for _ in 0..400 {
        crowd.update(DT).unwrap();
        if crowd.agents()[0].arrived() {
            break;
        }
    }
    assert_eq!(crowd.agent_point(0).unwrap(), goal);
}

/// Bad input to a crowd across floors is refused with its error, the crowd unchanged:
/// NaN and infinite points, a point over no floor, a bad speed, radius or agent height, an
/// agent index out of range; a 2D agent over two floors names them; bad obstacles are refused.
#[test]
fn bad_input_to_a_crowd_across_floors_is_refused() {
    let s = load("detour/nav_test.all_tiles_navmesh.bin");
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let mut crowd = Crowd::new(SurfaceWorld::new(mesh), RADIUS, Preset::Smooth.steps()).unwrap();
    let areas = plan_areas(&s);
    let mut rng = Rng::new(7);
    let (mut a, mut b) = (DVec3::ZERO, DVec3::ZERO);
    while crowd.agents().is_empty() {
        (a, b) = (
            random_point(&s, &mut rng, &areas).1,
            random_point(&s, &mut rng, &areas).1,
        );
        let _ = crowd.add_agent_on_surface(a, b, SPEED);
    }
    let before = crowd.agent_point(0).unwrap();
    let nan = DVec3::new(f64::NAN, 0.0, 0.0);
    let inf = DVec3::new(0.0, f64::INFINITY, 0.0);
    let far = DVec3::new(1e6, 0.0, 1e6);
    let e = crowd.add_agent_on_surface(nan, b, SPEED).unwrap_err();
    assert_eq!(e, Error::NonFinite { index: 0 });
    let e = crowd.add_agent_on_surface(a, inf, SPEED).unwrap_err();
    assert_eq!(e, Error::NonFinite { index: 1 });
    let e = crowd.add_agent_on_surface(far, b, SPEED).unwrap_err();
    assert!(matches!(e, Error::NoFloor { .. }), "{e}");
    for speed in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let e = crowd.add_agent_on_surface(a, b, speed).unwrap_err();
        assert!(
            matches!(e, Error::BadParameter { name: "speed", .. }),
            "{speed}: {e}"
        );
    }
    for radius in [-1.0, f64::NAN] {
        let e = crowd
            .add_agent_on_surface_with_radius(a, b, SPEED, radius)
            .unwrap_err();
        assert!(matches!(e, Error::BadParameter { .. }), "{radius}: {e}");
    }
    assert!(
        crowd.set_target_on_surface(1, b).is_err(),
        "agent out of range"
    );
    assert!(crowd.agent_point(1).is_err(), "agent out of range");
    for t in [nan, inf] {
        let e = crowd.set_target_on_surface(0, t).unwrap_err();
        assert_eq!(e, Error::NonFinite { index: 1 });
    }
    let e = crowd.set_target_on_surface(0, far).unwrap_err();
    assert!(matches!(e, Error::NoFloor { .. }), "{e}");
    assert_eq!(crowd.agents().len(), 1, "nothing added");
    assert_eq!(crowd.agent_point(0).unwrap(), before, "the agent unchanged");
    for h in [0.0, -2.0, f64::NAN, f64::INFINITY] {
        let crowd = Crowd::new(
            SurfaceWorld::new(SurfaceMesh::new(s.clone()).unwrap()),
            RADIUS,
            vec![],
        )
        .unwrap();
        assert!(crowd.with_agent_height(h).is_err(), "agent height {h}");
    }
    // Bad obstacles are refused, the crowd's mesh unchanged.
    let polygons = crowd.world().mesh().surface().num_polygons();
    for shape in common::fixtures::bad_shapes() {
        let e = crowd.add_obstacle(shape.clone()).unwrap_err();
        assert!(matches!(e, Error::BadObstacle { .. }), "{e}");
        let e = crowd.add_obstacle_on_floor(shape, before).unwrap_err();
        assert!(matches!(e, Error::BadObstacle { .. }), "{e}");
    }
    assert_eq!(crowd.world().mesh().surface().num_polygons(), polygons);
    // A 2D agent where two floors lie over its start is told so.
    let (up, oracle) = (s.up(), SurfaceOracle::new(&s));
    let mut over_two = None;
    for _ in 0..20_000 {
        let p = up.plan(random_point(&s, &mut rng, &areas).1);
        if floor_span(&oracle, &s, p).is_some_and(|(lo, hi)| hi - lo > 2.0 * s.climb()) {
            over_two = Some(p);
            break;
        }
    }
    let p = over_two.expect("a point over two floors");
    let e = crowd.add_agent(p, up.plan(b), SPEED).unwrap_err();
    assert!(matches!(e, Error::OverSeveralFloors { .. }), "{e}");
    for update in 0..10 {
        crowd.update(DT).unwrap();
        assert!(crowd.agent_point(0).unwrap().is_finite(), "update {update}");
    }
}
