//! The crowd through the C ABI (`ps_crowd_*`), called as C would call it: the agents' own
//! positions judged here (no two closer than 0.99 × 2r in any frame, every agent at its
//! goal in time), the frames equal to the library's crowd driven alike, bit for bit, and
//! every bad input refused with its status and a message that names it.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use pathsmooth::crowd::{Avoidance, Crowd, MovingObstacle};
use pathsmooth::follow::Agent;
use pathsmooth::glam::{DVec2, DVec3};
use pathsmooth::navmesh::NavMesh;
use pathsmooth::world::Obstacle;
use pathsmooth::{GridMap, GridWorld, Preset, SurfaceWorld};
use pathsmooth_ffi::*;

use PsStatus::*;

use crate::common;
use common::{expect, l_navmesh, last_error, pt};

/// An open room of `w` × `h` cells (cell size 1, origin 0) walled round.
fn room_rows(w: usize, h: usize) -> Vec<String> {
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                        '@'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

fn grid_world(rows: &[String]) -> *mut PsWorld {
    let cells: Vec<u8> = rows
        .iter()
        .flat_map(|r| r.bytes().map(|c| (c == b'.') as u8))
        .collect();
    let mut world = null_mut();
    let s = unsafe {
        ps_world_grid_new(
            cells.as_ptr(),
            rows[0].len(),
            rows.len(),
            1.0,
            0.0,
            0.0,
            &mut world,
        )
    };
    expect(s, PsOk, "");
    world
}

fn avoiding() -> PsCrowdSettings {
    let mut s = PsCrowdSettings {
        threads: 0,
        plan_budget: 0,
        avoidance: 0,
        time_horizon: 0.0,
        max_neighbours: 0,
        wall_time_horizon: 0.0,
        neighbour_distance: 0.0,
        speed_profile: 0,
        max_accel: 0.0,
        max_brake: 0.0,
        max_lateral_accel: 0.0,
    };
    expect(unsafe { ps_crowd_settings_default(&mut s) }, PsOk, "");
    assert_eq!((s.threads, s.plan_budget, s.avoidance), (1, 0, 0));
    assert_eq!((s.speed_profile, s.max_accel, s.max_brake), (0, 4.0, 6.0));
    s.avoidance = 1;
    s
}

fn new_crowd(
    world: *const PsWorld,
    radius: f64,
    settings: Option<&PsCrowdSettings>,
) -> *mut PsCrowd {
    let mut crowd = null_mut();
    let settings = settings.map_or(null(), |s| s as *const _);
    let s = unsafe { ps_crowd_new_preset(world, PS_PRESET_SMOOTH, radius, settings, &mut crowd) };
    expect(s, PsOk, "");
    assert!(!crowd.is_null());
    crowd
}

fn add_agent(crowd: *mut PsCrowd, p: DVec2, t: DVec2, speed: f64) -> usize {
    let mut i = PS_NO_AGENT;
    let s = unsafe { ps_crowd_add_agent(crowd, pt(p.x, p.y), pt(t.x, t.y), speed, &mut i) };
    expect(s, PsOk, "");
    i
}

fn count(crowd: *const PsCrowd) -> usize {
    let mut n = usize::MAX;
    expect(unsafe { ps_crowd_agent_count(crowd, &mut n) }, PsOk, "");
    n
}

/// The agents' positions (or velocities) through the caller's-buffer call.
fn read(
    crowd: *const PsCrowd,
    call: unsafe extern "C" fn(*const PsCrowd, *mut f64, usize, *mut usize) -> PsStatus,
) -> Vec<DVec2> {
    let n = count(crowd);
    let mut xy = vec![f64::NAN; 2 * n];
    let mut len = usize::MAX;
    expect(
        unsafe { call(crowd, xy.as_mut_ptr(), n, &mut len) },
        PsOk,
        "",
    );
    assert_eq!(len, n);
    xy.chunks(2).map(|c| DVec2::new(c[0], c[1])).collect()
}

fn state(crowd: *const PsCrowd, agent: usize) -> PsAgentState {
    let mut s = PsAgentState::default();
    expect(
        unsafe { ps_crowd_agent_state(crowd, agent, &mut s) },
        PsOk,
        "",
    );
    s
}

fn update(crowd: *mut PsCrowd, dt: f64) -> PsCrowdFrame {
    let mut f = PsCrowdFrame::default();
    expect(unsafe { ps_crowd_update(crowd, dt, &mut f) }, PsOk, "");
    f
}

/// The closest two agents' centres.
fn closest(p: &[DVec2]) -> f64 {
    let mut d = f64::INFINITY;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            d = d.min(p[i].distance(p[j]));
        }
    }
    d
}

/// Two groups of 5 cross head-on in a 16 × 12 room: group A walks from the left column to
/// the right, group B from the right to the left, on the same rows.
fn crossing() -> (Vec<String>, Vec<[DVec2; 2]>) {
    let mut pairs = Vec::new();
    for k in 0..5 {
        let y = 2.0 + 2.0 * k as f64;
        let (l, r) = (DVec2::new(1.5, y), DVec2::new(14.5, y));
        pairs.push([l, r]);
        pairs.push([r + DVec2::new(0.0, 0.5), l + DVec2::new(0.0, 0.5)]);
    }
    (room_rows(16, 12), pairs)
}

const RADIUS: f64 = 0.3;
const SPEED: f64 = 1.5;
const DT: f64 = 1.0 / 30.0;
/// Each walk is 13 units at 1.5 units/s (8.7 s); all arrive within three times that.
const FRAMES: usize = 30 * 26;

#[test]
fn two_groups_cross_with_avoidance_never_overlap_and_all_arrive() {
    let (rows, pairs) = crossing();
    let world = grid_world(&rows);
    let crowd = new_crowd(world, RADIUS, Some(&avoiding()));
    // The crowd has its own world: the handle may go first.
    expect(unsafe { ps_world_destroy(world) }, PsOk, "");
    for (k, [s, g]) in pairs.iter().enumerate() {
        assert_eq!(add_agent(crowd, *s, *g, SPEED), k);
    }
    let mut r = f64::NAN;
    expect(unsafe { ps_crowd_radius(crowd, &mut r) }, PsOk, "");
    assert_eq!(r, RADIUS);
    let mut nearest = f64::INFINITY;
    let mut arrived_at = None;
    for frame in 0..FRAMES {
        let f = update(crowd, DT);
        assert_eq!(
            (f.failed, f.stuck, f.refused),
            (0, 0, 0),
            "frame {frame}: {f:?}"
        );
        let p = read(crowd, ps_crowd_positions);
        let d = closest(&p);
        assert!(
            d >= 0.99 * 2.0 * RADIUS,
            "frame {frame}: two agents {d} apart (radius {RADIUS})"
        );
        nearest = nearest.min(d);
        // Every agent inside the room, off the walls by its radius.
        for q in &p {
            assert!(
                q.x >= 1.0 + RADIUS * 0.99 && q.x <= 15.0 - RADIUS * 0.99,
                "frame {frame}: {q} in a wall"
            );
            assert!(
                q.y >= 1.0 + RADIUS * 0.99 && q.y <= 11.0 - RADIUS * 0.99,
                "frame {frame}: {q} in a wall"
            );
        }
        if (0..pairs.len()).all(|i| state(crowd, i).arrived == 1) {
            arrived_at = Some(frame);
            break;
        }
    }
    let frame = arrived_at.unwrap_or_else(|| panic!("not all arrived in {FRAMES} frames"));
    // They met: the groups did avoid one another (not walk apart all along).
    assert!(nearest < 1.5, "nearest {nearest}");
    for (k, [_, g]) in pairs.iter().enumerate() {
        let s = state(crowd, k);
        assert_eq!((s.position.x, s.position.y), (g.x, g.y), "agent {k}");
        assert_eq!((s.waiting, s.stuck, s.has_error), (0, 0, 0));
        assert_eq!(s.path_len, 1);
    }
    eprintln!(
        "all arrived at frame {frame} ({:.1} s), nearest {nearest:.3}",
        frame as f64 * DT
    );
    expect(unsafe { ps_crowd_destroy(crowd) }, PsOk, "");
}

/// With `speed_profile` on, the crowd walks the library's crowd with the same limits to
/// the bit, and its agents' first steps are from rest (a·dt, where without it each steps
/// its full speed).
#[test]
fn a_speed_profile_walks_the_librarys_limited_crowd_bit_for_bit() {
    let (rows, pairs) = crossing();
    let world = grid_world(&rows);
    let mut settings = avoiding();
    settings.speed_profile = 1;
    settings.max_accel = 2.0;
    let crowd = new_crowd(world, RADIUS, Some(&settings));
    for [s, g] in &pairs {
        add_agent(crowd, *s, *g, SPEED);
    }
    let limits = Agent {
        max_accel: 2.0,
        ..Agent::default()
    };
    let mut lib = library_crowd(&rows, &pairs, true, Some(limits));
    for frame in 0..150 {
        lib.update(DT).unwrap();
        update(crowd, DT);
        let (p, v) = (
            read(crowd, ps_crowd_positions),
            read(crowd, ps_crowd_velocities),
        );
        if frame == 0 {
            assert!(v.iter().all(|v| v.length() <= 2.0 * DT + 1e-12), "{v:?}");
        }
        for (k, a) in lib.agents().iter().enumerate() {
            let bits = |q: DVec2| q.to_array().map(f64::to_bits);
            assert_eq!(bits(p[k]), bits(a.agent_path().position()), "frame {frame}");
            assert_eq!(bits(v[k]), bits(a.velocity()), "frame {frame}");
        }
    }
    unsafe {
        ps_crowd_destroy(crowd);
        ps_world_destroy(world);
    }
}

/// Two agents head-on in a passage one cell wide between two rooms: one gives way
/// (`PsAgentState::giving_way` names the other meanwhile, `PS_NO_AGENT` otherwise) and
/// both arrive.
#[test]
fn an_agent_giving_way_says_to_whom_and_both_arrive() {
    let rows: Vec<String> = (0..7)
        .map(|y| {
            let passage = if y == 3 { "........" } else { "@@@@@@@@" };
            format!("......{passage}......")
        })
        .collect();
    let world = grid_world(&rows);
    let crowd = new_crowd(world, RADIUS, Some(&avoiding()));
    let (left, right) = (DVec2::new(1.5, 3.5), DVec2::new(18.5, 3.5));
    add_agent(crowd, left, right, SPEED);
    add_agent(crowd, right, left, SPEED);
    let mut gave = Vec::new();
    for _ in 0..(40.0 / DT) as usize {
        update(crowd, DT);
        let s = [state(crowd, 0), state(crowd, 1)];
        for (i, s) in s.iter().enumerate() {
            if s.giving_way != PS_NO_AGENT {
                assert_eq!((s.giving_way, s.arrived), (1 - i, 0));
                gave.push(i);
            }
        }
        if s.iter().all(|s| s.arrived == 1) {
            break;
        }
    }
    assert!([0, 1].map(|i| state(crowd, i).arrived) == [1, 1]);
    assert!(!gave.is_empty());
    unsafe {
        ps_crowd_destroy(crowd);
        ps_world_destroy(world);
    }
}

/// The library's crowd on the same room, the same agents and settings.
fn library_crowd(
    rows: &[String],
    pairs: &[[DVec2; 2]],
    avoid: bool,
    limits: Option<Agent>,
) -> Crowd<GridWorld> {
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let world = GridWorld::new(GridMap::from_rows(&rows).unwrap()).unwrap();
    let mut crowd = Crowd::new(world, RADIUS, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(avoid.then(Avoidance::default))
        .unwrap()
        .with_speed_profile(limits)
        .unwrap();
    for [s, g] in pairs {
        crowd.add_agent(*s, *g, SPEED).unwrap();
    }
    crowd
}

#[test]
fn frames_positions_and_velocities_are_the_librarys_bit_for_bit_on_any_threads() {
    let (rows, pairs) = crossing();
    let world = grid_world(&rows);
    let mut two = avoiding();
    two.threads = 2;
    let crowds = [
        new_crowd(world, RADIUS, Some(&avoiding())),
        new_crowd(world, RADIUS, Some(&two)),
    ];
    for c in crowds {
        for [s, g] in &pairs {
            add_agent(c, *s, *g, SPEED);
        }
    }
    let mut lib = library_crowd(&rows, &pairs, true, None);
    for frame in 0..150 {
        let want = lib.update(DT).unwrap();
        for c in crowds {
            let got = update(c, DT);
            assert_eq!(
                [
                    got.moved,
                    got.replans,
                    got.adjusted,
                    got.refused,
                    got.failed,
                    got.repaired,
                    got.stuck,
                    got.waiting
                ],
                [
                    want.moved,
                    want.replans,
                    want.adjusted,
                    want.refused,
                    want.failed,
                    want.repaired,
                    want.stuck,
                    want.waiting
                ],
                "frame {frame}"
            );
            let (p, v) = (read(c, ps_crowd_positions), read(c, ps_crowd_velocities));
            for (k, a) in lib.agents().iter().enumerate() {
                assert_eq!(
                    p[k].to_array().map(f64::to_bits),
                    a.agent_path().position().to_array().map(f64::to_bits)
                );
                assert_eq!(
                    v[k].to_array().map(f64::to_bits),
                    a.velocity().to_array().map(f64::to_bits)
                );
            }
        }
    }
    unsafe {
        ps_crowd_destroy(crowds[0]);
        ps_crowd_destroy(crowds[1]);
        ps_world_destroy(world);
    }
}

#[test]
fn removing_an_agent_moves_the_last_into_its_index() {
    let world = grid_world(&room_rows(10, 6));
    let crowd = new_crowd(world, RADIUS, None);
    let starts = [1.5, 3.5, 5.5].map(|x| DVec2::new(x, 2.5));
    for s in starts {
        add_agent(crowd, s, s + DVec2::new(0.0, 2.0), 1.0);
    }
    let mut moved = 0;
    expect(
        unsafe { ps_crowd_remove_agent(crowd, 0, &mut moved) },
        PsOk,
        "",
    );
    assert_eq!(moved, 2);
    assert_eq!(read(crowd, ps_crowd_positions), [starts[2], starts[1]]);
    expect(
        unsafe { ps_crowd_remove_agent(crowd, 1, &mut moved) },
        PsOk,
        "",
    );
    assert_eq!(moved, PS_NO_AGENT);
    expect(
        unsafe { ps_crowd_remove_agent(crowd, 0, null_mut()) },
        PsOk,
        "",
    );
    assert_eq!(count(crowd), 0);
    let s = unsafe { ps_crowd_remove_agent(crowd, 0, &mut moved) };
    expect(
        s,
        PsInvalidArgument,
        "ps_crowd_remove_agent: `agent` = 0 is out of range: the crowd has 0 agents",
    );
    assert_eq!(moved, PS_NO_AGENT);
    // An update of no agents, and positions into no buffer.
    update(crowd, DT);
    let mut len = 9;
    expect(
        unsafe { ps_crowd_positions(crowd, null_mut(), 0, &mut len) },
        PsOk,
        "",
    );
    assert_eq!(len, 0);
    unsafe {
        ps_crowd_destroy(crowd);
        ps_world_destroy(world);
    }
}

#[test]
fn obstacles_block_paths_and_a_moving_one_moves_and_stands() {
    let world = grid_world(&room_rows(12, 7));
    let crowd = new_crowd(world, RADIUS, Some(&avoiding()));
    let a = add_agent(crowd, DVec2::new(1.5, 3.5), DVec2::new(10.5, 3.5), SPEED);
    let (mut id, mut blocked) = (0, 0);
    let s = unsafe { ps_crowd_add_box(crowd, pt(5.0, 2.0), pt(6.0, 5.0), &mut id, &mut blocked) };
    expect(s, PsOk, "");
    assert_eq!(blocked, 1);
    let f = update(crowd, DT);
    assert_eq!(f.repaired, 1);
    // The repaired path goes round the box: above it or below it.
    let mut path = vec![0.0; 2 * 64];
    let mut len = 0;
    let s = unsafe { ps_crowd_agent_path(crowd, a, path.as_mut_ptr(), 64, &mut len) };
    expect(s, PsOk, "");
    assert!(len >= 3 && len == state(crowd, a).path_len);
    assert!(
        path[..2 * len].chunks(2).any(|c| c[1] < 2.0 || c[1] > 5.0),
        "{path:?}"
    );
    let mut small = [7.0; 2];
    let s = unsafe { ps_crowd_agent_path(crowd, a, small.as_mut_ptr(), 1, &mut len) };
    expect(
        s,
        PsBufferTooSmall,
        "ps_crowd_agent_path: the buffer holds 1 points",
    );
    assert_eq!((len, small), (state(crowd, a).path_len, [7.0; 2]));
    expect(unsafe { ps_crowd_remove_obstacle(crowd, id) }, PsOk, "");
    let s = unsafe { ps_crowd_remove_obstacle(crowd, id) };
    expect(s, PsInvalidArgument, "ps_crowd_remove_obstacle:");
    let (mut d, mut p, mut c) = (0, 0, 0);
    unsafe {
        expect(
            ps_crowd_add_disk(crowd, pt(8.0, 1.8), 0.5, &mut d, null_mut()),
            PsOk,
            "",
        );
        let tri = [3.0, 5.5, 4.0, 5.5, 3.5, 5.9];
        expect(
            ps_crowd_add_polygon(crowd, tri.as_ptr(), 3, &mut p, null_mut()),
            PsOk,
            "",
        );
        let cells = [9i32, 5, 10, 5];
        expect(
            ps_crowd_add_cells(crowd, cells.as_ptr(), 2, &mut c, null_mut()),
            PsOk,
            "",
        );
    }
    assert!(d != p && p != c && d != c);

    // A disc rolls down the room's middle column; then it stops and stands.
    let mut m = PS_NO_OBSTACLE;
    let s =
        unsafe { ps_crowd_add_moving_obstacle(crowd, pt(6.0, 5.5), 0.4, pt(0.0, -1.0), &mut m) };
    expect(s, PsOk, "");
    update(crowd, 0.5);
    let mut rows = [PsMovingObstacle::default(); 2];
    let mut n = 0;
    expect(
        unsafe { ps_crowd_moving_obstacles(crowd, rows.as_mut_ptr(), 2, &mut n) },
        PsOk,
        "",
    );
    assert_eq!(n, 1);
    assert_eq!(
        (
            rows[0].id,
            rows[0].center.x,
            rows[0].center.y,
            rows[0].radius
        ),
        (m, 6.0, 5.0, 0.4)
    );
    assert_eq!((rows[0].velocity.x, rows[0].velocity.y), (0.0, -1.0));
    let s = unsafe { ps_crowd_moving_obstacles(crowd, null_mut(), 0, &mut n) };
    expect(
        s,
        PsBufferTooSmall,
        "holds 0 moving obstacles but 1 are needed",
    );
    assert_eq!(n, 1);
    expect(
        unsafe { ps_crowd_set_moving_obstacle_velocity(crowd, m, pt(0.0, 0.0)) },
        PsOk,
        "",
    );
    // Driven along a route from (6, 5): one unit to (7, 5), then towards (7, 3); after
    // 1.5 s at 1 a second it is half way down the second leg.
    let route = [7.0, 5.0, 7.0, 3.0];
    let s = unsafe { ps_crowd_drive_moving_obstacle(crowd, m, route.as_ptr(), 2, 1.0, 0) };
    expect(s, PsOk, "");
    update(crowd, 1.5);
    expect(
        unsafe { ps_crowd_moving_obstacles(crowd, rows.as_mut_ptr(), 2, &mut n) },
        PsOk,
        "",
    );
    assert_eq!((rows[0].center.x, rows[0].center.y), (7.0, 4.5));
    assert_eq!((rows[0].velocity.x, rows[0].velocity.y), (0.0, -1.0));
    let s = unsafe { ps_crowd_drive_moving_obstacle(crowd, m, route.as_ptr(), 0, 1.0, 1) };
    expect(s, PsInvalidArgument, "ps_crowd_drive_moving_obstacle: obstacle: a moving obstacle's route needs at least one point");
    let s = unsafe { ps_crowd_drive_moving_obstacle(crowd, m, null(), 2, 1.0, 1) };
    expect(s, PsNullPointer, "route_xy");
    let s = unsafe { ps_crowd_drive_moving_obstacle(crowd, m, route.as_ptr(), 2, f64::NAN, 1) };
    expect(s, PsInvalidArgument, "speed");
    expect(
        unsafe { ps_crowd_remove_moving_obstacle(crowd, m) },
        PsOk,
        "",
    );
    let s = unsafe { ps_crowd_remove_moving_obstacle(crowd, m) };
    expect(s, PsInvalidArgument, "ps_crowd_remove_moving_obstacle:");
    expect(
        unsafe { ps_crowd_moving_obstacles(crowd, null_mut(), 0, &mut n) },
        PsOk,
        "",
    );
    assert_eq!(n, 0);
    for _ in 0..FRAMES {
        update(crowd, DT);
        if state(crowd, a).arrived == 1 {
            break;
        }
    }
    assert_eq!(state(crowd, a).arrived, 1, "{:?}", state(crowd, a));
    unsafe {
        ps_crowd_destroy(crowd);
        ps_world_destroy(world);
    }
}

#[test]
fn a_navmesh_crowd_walks_as_the_library_does() {
    // Three squares of side 4 in an L: (0,0)-(8,4) and (4,4)-(8,8).
    let (xy, idx, sizes) = l_navmesh(4.0);
    let mut world = null_mut();
    let s = unsafe {
        ps_world_navmesh_new(
            xy.as_ptr(),
            8,
            idx.as_ptr(),
            sizes.as_ptr(),
            3,
            null(),
            &mut world,
        )
    };
    expect(s, PsOk, "");
    let crowd = new_crowd(world, 0.25, Some(&avoiding()));
    let ends = [
        [DVec2::new(1.0, 2.0), DVec2::new(6.0, 7.0)],
        [DVec2::new(6.0, 7.0), DVec2::new(1.0, 2.0)],
    ];
    for [s, g] in ends {
        add_agent(crowd, s, g, 2.0);
    }
    let vertices: Vec<DVec2> = xy.chunks(2).map(|c| DVec2::new(c[0], c[1])).collect();
    let polys = vec![vec![0, 1, 4, 5], vec![1, 2, 3, 4], vec![4, 3, 6, 7]];
    // The library's crowd on its one navmesh world, as the ABI's crowd is.
    let mesh = NavMesh::from_polygons(&vertices, &polys).unwrap();
    let mut lib = Crowd::new(
        SurfaceWorld::from_navmesh(&mesh).unwrap(),
        0.25,
        Preset::Smooth.steps(),
    )
    .unwrap()
    .with_avoidance(Some(Avoidance::default()))
    .unwrap();
    for [s, g] in ends {
        lib.add_agent(s, g, 2.0).unwrap();
    }
    for _ in 0..300 {
        update(crowd, DT);
        lib.update(DT).unwrap();
        let p = read(crowd, ps_crowd_positions);
        assert!(closest(&p) >= 0.99 * 0.5);
        for (k, a) in lib.agents().iter().enumerate() {
            assert_eq!(p[k], a.agent_path().position());
        }
    }
    assert!((0..2).all(|k| state(crowd, k).arrived == 1));
    unsafe {
        ps_crowd_destroy(crowd);
        ps_world_destroy(world);
    }
}

#[test]
fn a_refused_target_keeps_the_old_one_and_says_why() {
    let rows = room_rows(10, 6);
    let world = grid_world(&rows);
    let one = PsCrowdSettings {
        plan_budget: 1,
        ..Default::default()
    };
    let crowd = new_crowd(world, RADIUS, Some(&one));
    let a = add_agent(crowd, DVec2::new(1.5, 1.5), DVec2::new(1.5, 4.5), 1.0);
    let b = add_agent(crowd, DVec2::new(3.5, 1.5), DVec2::new(3.5, 4.5), 1.0);
    let text = |call: unsafe extern "C" fn(
        *const PsCrowd,
        usize,
        *mut c_char,
        usize,
        *mut usize,
    ) -> PsStatus,
                k: usize| {
        let mut len = usize::MAX;
        expect(unsafe { call(crowd, k, null_mut(), 0, &mut len) }, PsOk, "");
        let mut buf = vec![0 as c_char; len + 1];
        expect(
            unsafe { call(crowd, k, buf.as_mut_ptr(), buf.len(), &mut len) },
            PsOk,
            "",
        );
        unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(text(ps_crowd_agent_error, a), "");
    // A target in the wall, and one for b that its position sees: both settled in the
    // next update, neither costing the one plan per update.
    unsafe {
        expect(ps_crowd_set_target(crowd, a, pt(0.5, 0.5)), PsOk, "");
        expect(ps_crowd_set_target(crowd, b, pt(8.5, 1.5)), PsOk, "");
    }
    assert_eq!(state(crowd, a).waiting, 1);
    let f = update(crowd, DT);
    assert_eq!((f.refused, f.adjusted, f.waiting), (1, 1, 0));
    let s = state(crowd, a);
    assert_eq!((s.has_error, s.target.x, s.target.y), (1, 1.5, 4.5));
    assert!(
        text(ps_crowd_agent_error, a).contains("wall"),
        "{}",
        text(ps_crowd_agent_error, a)
    );
    assert_eq!(
        (state(crowd, b).waiting, state(crowd, b).target.x),
        (0, 8.5)
    );
    assert_eq!(text(ps_crowd_agent_stuck, b), "");
    // A box dropped on agent b pushes it out at once (the library's add_obstacle): it
    // walks on, round the box.
    let mut id = 0;
    let before = read(crowd, ps_crowd_positions)[b];
    let s = unsafe { ps_crowd_add_box(crowd, pt(2.0, 1.0), pt(6.0, 3.0), &mut id, null_mut()) };
    expect(s, PsOk, "");
    let after = read(crowd, ps_crowd_positions)[b];
    assert!(after.y >= 3.0 + RADIUS - 1e-9, "{before} pushed to {after}");
    assert_eq!(update(crowd, DT).stuck, 0);
    // A box on its target: stuck, and the reason.
    let s = unsafe { ps_crowd_add_box(crowd, pt(7.0, 1.0), pt(9.0, 2.0), &mut id, null_mut()) };
    expect(s, PsOk, "");
    let f = update(crowd, DT);
    assert_eq!(f.stuck, 1);
    assert_eq!(state(crowd, b).stuck, 1);
    assert!(!text(ps_crowd_agent_stuck, b).is_empty());
    // A cut message is the first bytes and a NUL, and its full length.
    let full = text(ps_crowd_agent_stuck, b);
    let mut buf = [1 as c_char; 5];
    let mut len = 0;
    expect(
        unsafe { ps_crowd_agent_stuck(crowd, b, buf.as_mut_ptr(), 5, &mut len) },
        PsOk,
        "",
    );
    assert_eq!(len, full.len());
    assert_eq!(
        unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap(),
        &full[..4]
    );
    unsafe {
        ps_crowd_destroy(crowd);
        ps_world_destroy(world);
    }
}

#[test]
fn bad_input_is_refused_with_a_message_and_nothing_written_past_buffers() {
    let world = grid_world(&room_rows(10, 6));
    let crowd = new_crowd(world, RADIUS, None);
    let a = add_agent(crowd, DVec2::new(1.5, 1.5), DVec2::new(8.5, 4.5), 1.0);
    add_agent(crowd, DVec2::new(1.5, 4.5), DVec2::new(8.5, 1.5), 1.0);
    let nan = pt(f64::NAN, 1.0);
    let mut out = null_mut();
    let mut i = 0;
    let mut id = 0;
    let mut len = 0;
    unsafe {
        // Constructors: NULL outputs and worlds, a wrong handle, bad settings, a surface.
        let s = ps_crowd_new_preset(world, PS_PRESET_SMOOTH, RADIUS, null(), null_mut());
        expect(s, PsNullPointer, "ps_crowd_new_preset: `out_crowd` is NULL");
        let s = ps_crowd_new_preset(null(), PS_PRESET_SMOOTH, RADIUS, null(), &mut out);
        expect(s, PsNullPointer, "`world` is NULL");
        assert!(out.is_null());
        let s = ps_crowd_new_preset(crowd.cast(), PS_PRESET_SMOOTH, RADIUS, null(), &mut out);
        expect(s, PsWrongHandle, "`world` is a PsCrowd, expected PsWorld");
        let s = ps_crowd_new_preset(world, 9, RADIUS, null(), &mut out);
        expect(s, PsInvalidArgument, "`preset` = 9");
        let s = ps_crowd_new_preset(world, PS_PRESET_SMOOTH, f64::NAN, null(), &mut out);
        expect(s, PsInvalidArgument, "radius");
        for (change, words) in [
            (
                (|s: &mut PsCrowdSettings| s.threads = 0) as fn(&mut PsCrowdSettings),
                "threads",
            ),
            (|s| s.threads = 257, "threads"),
            (
                |s| s.avoidance = 2,
                "`settings.avoidance` = 2 is not 0 (off) or 1 (on)",
            ),
            (|s| s.time_horizon = f64::NAN, "time_horizon"),
            (|s| s.wall_time_horizon = 0.0, "wall_time_horizon"),
            (|s| s.max_neighbours = 0, "max_neighbours"),
            (|s| s.neighbour_distance = -1.0, "neighbour_distance"),
            (
                |s| s.speed_profile = 3,
                "`settings.speed_profile` = 3 is not 0 (off) or 1 (on)",
            ),
            (
                |s| {
                    s.speed_profile = 1;
                    s.max_brake = 0.0;
                },
                "max_brake",
            ),
        ] {
            let mut s = avoiding();
            change(&mut s);
            let st = ps_crowd_new_preset(world, PS_PRESET_SMOOTH, RADIUS, &s, &mut out);
            expect(st, PsInvalidArgument, words);
            assert!(out.is_null());
        }
        let bad_step = [PsStep {
            kind: 42,
            value: 0.0,
        }];
        let s = ps_crowd_new_steps(world, bad_step.as_ptr(), 1, RADIUS, null(), &mut out);
        expect(s, PsInvalidArgument, "ps_crowd_new_steps: step 0: kind 42");
        let s = ps_crowd_new_steps(world, null(), 0, RADIUS, null(), &mut out);
        expect(s, PsOk, "");
        ps_crowd_destroy(out);
        // A surface: one floor takes a crowd, whose agents stand on it; a floor over
        // another (the same triangle 3 up) does not.
        let xyz = [
            0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 4.0, 0.0, 4.0, // the floor
            0.0, 3.0, 0.0, 4.0, 3.0, 0.0, 4.0, 3.0, 4.0, // a floor over it
        ];
        let surface_of = |triangles: usize| {
            let mut surface = null_mut();
            let corners: Vec<u32> = (0..3 * triangles as u32).collect();
            let s = ps_world_surface_from_triangulation(
                xyz.as_ptr(),
                3 * triangles,
                corners.as_ptr(),
                corners.len(),
                null(),
                -1.0,
                &mut surface,
            );
            expect(s, PsOk, "");
            surface
        };
        let (one, two) = (surface_of(1), surface_of(2));
        let s = ps_crowd_new_preset(two, PS_PRESET_SMOOTH, 0.1, null(), &mut out);
        expect(s, PsOk, "");
        // Over two floors a 2D point names no one place: agents come in 3D.
        let mut index = 0;
        let s = ps_crowd_add_agent(out, pt(3.0, 1.0), pt(3.5, 3.0), 1.0, &mut index);
        expect(
            s,
            PsInvalidArgument,
            "ps_crowd_add_agent: start (3, 1) lies over 2 floors",
        );
        let (p, t) = (
            PsPoint3d {
                x: 3.0,
                y: 3.0,
                z: 1.0,
            },
            PsPoint3d {
                x: 3.5,
                y: 3.0,
                z: 3.0,
            },
        );
        let s = ps_crowd_add_agent_on_surface(out, p, t, 1.0, &mut index);
        expect(s, PsOk, "");
        let (mut xyz_out, mut n3) = ([f64::NAN; 3], usize::MAX);
        let s = ps_crowd_positions3(out, xyz_out.as_mut_ptr(), 1, &mut n3);
        expect(s, PsOk, "");
        assert_eq!((n3, xyz_out), (1, [3.0, 3.0, 1.0]), "on the upper floor");
        ps_crowd_destroy(out);
        let s = ps_crowd_new_preset(one, PS_PRESET_SMOOTH, 0.1, null(), &mut out);
        expect(s, PsOk, "");
        let mut index = 0;
        let s = ps_crowd_add_agent(out, pt(3.0, 1.0), pt(3.5, 3.0), 1.0, &mut index);
        expect(s, PsOk, "");
        let (mut xyz_out, mut n3) = ([f64::NAN; 4], usize::MAX);
        let s = ps_crowd_positions3(out, xyz_out.as_mut_ptr(), 1, &mut n3);
        expect(s, PsOk, "");
        assert_eq!((n3, &xyz_out[..3]), (1, &[3.0, 0.0, 1.0][..]));
        assert!(xyz_out[3].is_nan(), "nothing written past the buffer");
        let s = ps_crowd_positions3(out, xyz_out.as_mut_ptr(), 0, &mut n3);
        expect(
            s,
            PsBufferTooSmall,
            "ps_crowd_positions3: the buffer holds 0 points but 1",
        );
        assert_eq!(n3, 1);
        ps_crowd_destroy(out);
        ps_world_destroy(one);
        ps_world_destroy(two);

        // Handles: NULL, a world, a pipeline.
        let s = ps_crowd_update(null_mut(), DT, null_mut());
        expect(s, PsNullPointer, "ps_crowd_update: `crowd` is NULL");
        let s = ps_crowd_update(world.cast(), DT, null_mut());
        expect(s, PsWrongHandle, "`crowd` is a PsWorld, expected PsCrowd");
        let mut pipeline = null_mut();
        expect(
            ps_pipeline_new_preset(world, PS_PRESET_SMOOTH, RADIUS, &mut pipeline),
            PsOk,
            "",
        );
        let s = ps_crowd_agent_count(pipeline.cast(), &mut len);
        expect(s, PsWrongHandle, "`crowd` is a PsPipeline");
        let s = ps_pipeline_plan_f64(
            crowd.cast(),
            pt(1.5, 1.5),
            pt(2.5, 1.5),
            null_mut(),
            0,
            &mut len,
        );
        expect(s, PsWrongHandle, "`pipeline` is a PsCrowd");
        ps_pipeline_destroy(pipeline);

        // Agents: NaN, bad speeds, walls, out of range.
        let s = ps_crowd_add_agent(crowd, nan, pt(2.5, 2.5), 1.0, &mut i);
        expect(
            s,
            PsInvalidArgument,
            "ps_crowd_add_agent: `position` (NaN, 1) is not finite",
        );
        assert_eq!(i, PS_NO_AGENT);
        let s = ps_crowd_add_agent(crowd, pt(1.5, 1.5), pt(2.5, f64::INFINITY), 1.0, &mut i);
        expect(s, PsInvalidArgument, "`target` (2.5, inf) is not finite");
        let s = ps_crowd_add_agent(crowd, pt(1.5, 1.5), pt(2.5, 2.5), f64::NAN, &mut i);
        expect(s, PsInvalidArgument, "speed");
        let s = ps_crowd_add_agent(crowd, pt(1.5, 1.5), pt(2.5, 2.5), 0.0, &mut i);
        expect(s, PsInvalidArgument, "speed");
        let s = ps_crowd_add_agent(crowd, pt(0.5, 0.5), pt(2.5, 2.5), 1.0, &mut i);
        expect(s, PsOutsideWorld, "ps_crowd_add_agent:");
        let s = ps_crowd_add_agent(crowd, pt(1.5, 1.5), pt(2.5, 2.5), 1.0, null_mut());
        expect(s, PsNullPointer, "`out_agent` is NULL");
        assert_eq!(count(crowd), 2);
        let s = ps_crowd_set_target(crowd, a, nan);
        expect(
            s,
            PsInvalidArgument,
            "ps_crowd_set_target: `target` (NaN, 1) is not finite",
        );
        assert_eq!(state(crowd, a).waiting, 0);
        let s = ps_crowd_set_target(crowd, 2, pt(2.5, 2.5));
        expect(
            s,
            PsInvalidArgument,
            "`agent` = 2 is out of range: the crowd has 2 agents",
        );
        let s = ps_crowd_set_target(crowd, PS_NO_AGENT, pt(2.5, 2.5));
        expect(s, PsInvalidArgument, "is out of range");
        let mut st = PsAgentState::default();
        let s = ps_crowd_agent_state(crowd, 7, &mut st);
        expect(s, PsInvalidArgument, "ps_crowd_agent_state: `agent` = 7");
        let s = ps_crowd_agent_state(crowd, 0, null_mut());
        expect(s, PsNullPointer, "`out_state` is NULL");
        let s = ps_crowd_agent_path(crowd, 2, null_mut(), 0, &mut len);
        expect(s, PsInvalidArgument, "ps_crowd_agent_path: `agent` = 2");
        let s = ps_crowd_agent_error(crowd, 2, null_mut(), 0, &mut len);
        expect(s, PsInvalidArgument, "ps_crowd_agent_error: `agent` = 2");
        let s = ps_crowd_agent_stuck(crowd, 0, null_mut(), 4, &mut len);
        expect(s, PsNullPointer, "`buf` is NULL");
        let s = ps_crowd_remove_agent(crowd, 5, null_mut());
        expect(s, PsInvalidArgument, "`agent` = 5");
        assert_eq!(count(crowd), 2);

        // Updates: NaN, negative and infinite time steps; the frame left zero.
        for dt in [f64::NAN, -0.1, f64::INFINITY] {
            let mut f = PsCrowdFrame {
                moved: 9,
                ..Default::default()
            };
            let s = ps_crowd_update(crowd, dt, &mut f);
            expect(s, PsInvalidArgument, "ps_crowd_update: parameter `dt`");
            assert_eq!(f, PsCrowdFrame::default());
        }

        // Buffers: too small (nothing written, the count given), NULL, misaligned.
        let mut buf = [-1.0; 4];
        let s = ps_crowd_positions(crowd, buf.as_mut_ptr(), 1, &mut len);
        expect(
            s,
            PsBufferTooSmall,
            "ps_crowd_positions: the buffer holds 1 points but 2 are needed",
        );
        assert_eq!((len, buf), (2, [-1.0; 4]));
        let s = ps_crowd_velocities(crowd, null_mut(), 2, &mut len);
        expect(s, PsNullPointer, "ps_crowd_velocities: `out_xy` is NULL");
        assert_eq!(len, 0);
        let s = ps_crowd_positions(crowd, buf.as_mut_ptr(), 2, null_mut());
        expect(s, PsNullPointer, "`out_len` is NULL");
        let mut bytes = [0u64; 5];
        let odd = (bytes.as_mut_ptr() as *mut u8).add(1) as *mut f64;
        let s = ps_crowd_positions(crowd, odd, 2, &mut len);
        expect(s, PsMisaligned, "`out_xy`");
        // A grid has no floor to stand on.
        let s = ps_crowd_positions3(crowd, buf.as_mut_ptr(), 1, &mut len);
        expect(
            s,
            PsUnsupported,
            "ps_crowd_positions3: only a crowd made on a surface",
        );
        let s = ps_crowd_positions3(crowd, odd, 2, &mut len);
        expect(s, PsMisaligned, "`out_xyz`");

        // Obstacles: NaN, empty boxes, bad radii, unknown ids, cells on a grid only.
        let s = ps_crowd_add_box(crowd, nan, pt(3.0, 3.0), &mut id, null_mut());
        expect(
            s,
            PsInvalidArgument,
            "ps_crowd_add_box: `min` (NaN, 1) is not finite",
        );
        assert_eq!(id, PS_NO_OBSTACLE);
        let s = ps_crowd_add_box(crowd, pt(3.0, 3.0), pt(2.0, 4.0), &mut id, null_mut());
        expect(s, PsInvalidArgument, "ps_crowd_add_box:");
        let s = ps_crowd_add_disk(crowd, pt(3.0, 3.0), -1.0, &mut id, null_mut());
        expect(s, PsInvalidArgument, "ps_crowd_add_disk:");
        let s = ps_crowd_add_disk(crowd, pt(3.0, 3.0), 1.0, null_mut(), null_mut());
        expect(s, PsNullPointer, "`out_id` is NULL");
        let s = ps_crowd_add_polygon(crowd, null(), 3, &mut id, null_mut());
        expect(s, PsNullPointer, "`vertices_xy` is NULL");
        let s = ps_crowd_add_polygon(crowd, [0.0, 0.0, 1.0, 1.0].as_ptr(), 2, &mut id, null_mut());
        expect(s, PsInvalidArgument, "ps_crowd_add_polygon:");
        let s = ps_crowd_remove_obstacle(crowd, 12345);
        expect(s, PsInvalidArgument, "12345");
        let s = ps_crowd_add_moving_obstacle(crowd, pt(3.0, 3.0), 0.0, pt(1.0, 0.0), &mut id);
        expect(s, PsInvalidArgument, "ps_crowd_add_moving_obstacle:");
        assert_eq!(id, PS_NO_OBSTACLE);
        let s = ps_crowd_add_moving_obstacle(crowd, pt(3.0, 3.0), 0.5, nan, &mut id);
        expect(s, PsInvalidArgument, "`velocity` (NaN, 1) is not finite");
        let s = ps_crowd_add_moving_obstacle(crowd, pt(3.0, 3.0), 0.5, pt(1e13, 0.0), &mut id);
        expect(s, PsInvalidArgument, "ps_crowd_add_moving_obstacle:");
        let s = ps_crowd_set_moving_obstacle_velocity(crowd, 77, pt(1.0, 0.0));
        expect(
            s,
            PsInvalidArgument,
            "ps_crowd_set_moving_obstacle_velocity:",
        );
        let s = ps_crowd_remove_moving_obstacle(crowd, u64::MAX);
        expect(s, PsInvalidArgument, "ps_crowd_remove_moving_obstacle:");
        let mut rows = [PsMovingObstacle::default(); 1];
        let s = ps_crowd_moving_obstacles(crowd, rows.as_mut_ptr(), 1, null_mut());
        expect(s, PsNullPointer, "`out_len` is NULL");

        // Everything refused left the crowd as it was: it still walks both agents home.
        assert_eq!(count(crowd), 2);
        for _ in 0..FRAMES {
            update(crowd, DT);
        }
        assert!((0..2).all(|k| state(crowd, k).arrived == 1));
        expect(ps_crowd_destroy(null_mut()), PsOk, "");
        let s = ps_crowd_destroy(world.cast());
        expect(s, PsWrongHandle, "ps_crowd_destroy: `crowd` is a PsWorld");
        expect(ps_crowd_destroy(crowd), PsOk, "");
        expect(ps_world_destroy(world), PsOk, "");
    }
}

#[test]
fn a_grid_crowd_copies_its_world_with_areas_and_costs_and_changes_only_its_copy() {
    // A swamp block (area 'S', cost 4) in an open field: the crowd's path and a pipeline's
    // plan on the same world go round it alike, bit for bit.
    let rows = [
        "..........",
        "..SSSSSS..",
        "..SSSSSS..",
        "..SSSSSS..",
        "..........",
    ];
    let free = [1u8; 50];
    let areas: Vec<u8> = rows.iter().flat_map(|r| r.bytes()).collect();
    let costs = c"S=4";
    let mut world = null_mut();
    let s = unsafe {
        ps_world_grid_new_areas(
            free.as_ptr(),
            areas.as_ptr(),
            10,
            5,
            1.0,
            0.0,
            0.0,
            costs.as_ptr(),
            &mut world,
        )
    };
    expect(s, PsOk, "");
    let (from, to) = (pt(0.5, 2.5), pt(9.5, 2.5));
    let mut pipeline = null_mut();
    let s = unsafe { ps_pipeline_new_preset(world, PS_PRESET_SMOOTH, 0.1, &mut pipeline) };
    expect(s, PsOk, "");
    let plan = |p: *mut PsPipeline| {
        let mut out = vec![0.0; 2 * 256];
        let mut len = 0;
        let s = unsafe { ps_pipeline_plan_f64(p, from, to, out.as_mut_ptr(), 256, &mut len) };
        expect(s, PsOk, "");
        out.truncate(2 * len);
        out.iter().map(|x| x.to_bits()).collect::<Vec<u64>>()
    };
    let planned = plan(pipeline);
    assert!(planned.len() > 4, "round the swamp");
    let crowd = new_crowd(world, 0.1, None);
    let a = add_agent(
        crowd,
        DVec2::new(from.x, from.y),
        DVec2::new(to.x, to.y),
        1.0,
    );
    let path = |crowd: *const PsCrowd| {
        let mut out = vec![0.0; 2 * 256];
        let mut len = 0;
        let s = unsafe { ps_crowd_agent_path(crowd, a, out.as_mut_ptr(), 256, &mut len) };
        expect(s, PsOk, "");
        out.truncate(2 * len);
        out.iter().map(|x| x.to_bits()).collect::<Vec<u64>>()
    };
    assert_eq!(path(crowd), planned);
    // Where a path crosses the line x = 5.5 (the middle of the swamp block).
    let y_at = |bits: &[u64]| {
        let p: Vec<DVec2> = bits
            .chunks(2)
            .map(|c| DVec2::new(f64::from_bits(c[0]), f64::from_bits(c[1])))
            .collect();
        let w = p
            .windows(2)
            .find(|w| (w[0].x - 5.5) * (w[1].x - 5.5) <= 0.0)
            .unwrap();
        w[0].y + (w[1].y - w[0].y) * (5.5 - w[0].x) / (w[1].x - w[0].x)
    };
    let y = y_at(&planned);
    assert!(!(1.0..=4.0).contains(&y), "round the swamp: {y}");
    // Boxes across the top and bottom rows in the crowd's copy: its agent's path is
    // repaired through the swamp, while the world's pipeline plans as before.
    let (mut top, mut bottom, mut blocked) = (0, 0, 0);
    unsafe {
        let s = ps_crowd_add_box(crowd, pt(5.0, 0.0), pt(6.0, 1.0), &mut top, &mut blocked);
        expect(s, PsOk, "");
        let s = ps_crowd_add_box(crowd, pt(5.0, 4.0), pt(6.0, 5.0), &mut bottom, &mut blocked);
        expect(s, PsOk, "");
    }
    assert_eq!(update(crowd, 0.1).repaired, 1);
    let y = y_at(&path(crowd));
    assert!((1.0..=4.0).contains(&y), "through the swamp: {y}");
    assert_eq!(state(crowd, a).stuck, 0);
    assert_eq!(plan(pipeline), planned);
    unsafe {
        ps_crowd_destroy(crowd);
        ps_pipeline_destroy(pipeline);
        ps_world_destroy(world);
    }
}

#[test]
fn agents_of_their_own_radii_keep_the_sum_of_their_radii_apart() {
    // The crossing with every other agent twice as wide: each pair judged here against
    // the sum of its own radii (read back from each agent's state).
    let (rows, pairs) = crossing();
    let world = grid_world(&rows);
    let crowd = new_crowd(world, RADIUS, Some(&avoiding()));
    expect(unsafe { ps_world_destroy(world) }, PsOk, "");
    for (k, [s, t]) in pairs.iter().enumerate() {
        let radius = if k % 2 == 0 { RADIUS } else { 0.45 };
        let mut i = PS_NO_AGENT;
        let status = unsafe {
            ps_crowd_add_agent_with_radius(crowd, pt(s.x, s.y), pt(t.x, t.y), SPEED, radius, &mut i)
        };
        expect(status, PsOk, "");
        assert_eq!(i, k);
    }
    let radii: Vec<f64> = (0..pairs.len()).map(|k| state(crowd, k).radius).collect();
    assert_eq!(radii[..2], [RADIUS, 0.45]);
    let mut worst = f64::INFINITY;
    for _ in 0..FRAMES {
        update(crowd, DT);
        let p = read(crowd, ps_crowd_positions);
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                worst = worst.min(p[i].distance(p[j]) / (radii[i] + radii[j]));
            }
        }
    }
    assert!(worst >= 0.99, "{worst}");
    assert!((0..pairs.len()).all(|k| state(crowd, k).arrived == 1));
    // Bad radii: refused, nothing added, the message names the call.
    for bad in [f64::NAN, -1.0, f64::INFINITY, 50.0] {
        let mut i = 0;
        let status = unsafe {
            ps_crowd_add_agent_with_radius(crowd, pt(1.5, 1.5), pt(2.5, 2.5), SPEED, bad, &mut i)
        };
        assert_ne!(status, PsOk, "{bad}");
        assert_eq!(i, PS_NO_AGENT);
        assert!(
            last_error().starts_with("ps_crowd_add_agent_with_radius"),
            "{}",
            last_error()
        );
    }
    assert_eq!(count(crowd), pairs.len());
    expect(unsafe { ps_crowd_destroy(crowd) }, PsOk, "");
}

/// True when plan point `p` lies in the convex polygon `ring` (plan view, either winding),
/// within `eps`.
fn in_convex(ring: &[DVec2], p: DVec2, eps: f64) -> bool {
    let sides = ring.iter().zip(ring.iter().cycle().skip(1));
    let crosses: Vec<f64> = sides.map(|(&a, &b)| (b - a).perp_dot(p - a)).collect();
    crosses.iter().all(|&c| c >= -eps) || crosses.iter().all(|&c| c <= eps)
}

/// Every navmesh of the engine corpus through the ABI takes a crowd that avoids (agents
/// placed in 3D with `ps_crowd_add_agent_on_surface`, and on a surface with one floor every
/// other one in plan view with `ps_crowd_add_agent`), whose agents
/// `ps_crowd_positions3` puts over the file's polygons at their height, and those on one
/// floor as far apart as their radii (judged here from the polygons the library reads from
/// the file, not from the crowd's plan view).
#[test]
fn a_crowd_walks_every_navmesh_of_the_corpus_on_its_floors() {
    use pathsmooth::navmesh::{load_surface, SurfaceMesh, SurfaceOptions, UpAxis};
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../pathsmooth/tests/data/corpus");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let mut rng = fastrand::Rng::with_seed(40);
    let (mut walked, mut layered) = (0, 0);
    for row in manifest.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        let (rel, format, up) = (f[0], f[1], f[2]);
        if matches!(format, "polyanya-scen" | "other") {
            continue;
        }
        let plain = matches!(format, "polyanya-mesh" | "unity-obj" | "obj");
        let (axis, up_axis) = if up == "y" {
            (UpAxis::Y, PS_UP_Y)
        } else {
            (UpAxis::Z, PS_UP_Z)
        };
        let path = dir.join(rel);
        let c_path = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        let (mut world, mut crowd) = (null_mut(), null_mut());
        let file_axis = if plain { up_axis } else { PS_UP_FILE };
        unsafe {
            let s = ps_world_surface_load(c_path.as_ptr(), null(), file_axis, -1.0, &mut world);
            expect(s, PsOk, "");
            let settings = avoiding();
            let s = ps_crowd_new_preset(world, PS_PRESET_SMOOTH, 0.1, &settings, &mut crowd);
            expect(s, PsOk, "");
        }
        // The oracle's polygons: the file as the library reads it, in plan view with the
        // heights of their corners.
        let surface = load_surface(&path, &SurfaceOptions::new(axis)).unwrap();
        // Floors over one another: agents are placed in 3D, and only those on one floor
        // (heights less than 2 apart) must keep apart.
        let several = !SurfaceMesh::new(surface.clone()).unwrap().is_one_floor();
        layered += usize::from(several);
        let rings: Vec<Vec<DVec3>> = (0..surface.num_polygons() as u32)
            .map(|p| {
                let corners = surface.polygon(p).iter();
                corners.map(|&v| surface.vertices()[v as usize]).collect()
            })
            .collect();
        let plan = |q: DVec3| axis.plan(q);
        let inside = |rng: &mut fastrand::Rng| {
            let ring = &rings[rng.usize(..rings.len())];
            let w: Vec<f64> = ring.iter().map(|_| rng.f64() + 0.05).collect();
            let sum: f64 = w.iter().sum();
            ring.iter().zip(&w).map(|(&c, &w)| c * w).sum::<DVec3>() / sum
        };
        let mut starts: Vec<DVec3> = Vec::new();
        for _ in 0..60 {
            if starts.len() == 8 {
                break;
            }
            let (start, goal) = (inside(&mut rng), inside(&mut rng));
            let near = |s: &DVec3| {
                let apart = (axis.height(*s) - axis.height(start)).abs();
                plan(*s).distance(plan(start)) < 0.25 && apart < 2.0
            };
            if starts.iter().any(near) {
                continue; // not inside another agent: spawned overlapping, they would start so
            }
            let mut index = 0;
            // On one floor every other agent comes in with 3D points too: the same calls.
            let (s, what) = if several || starts.len() % 2 == 1 {
                let s = unsafe {
                    ps_crowd_add_agent_on_surface(crowd, p3(start), p3(goal), 1.5, &mut index)
                };
                (s, "ps_crowd_add_agent_on_surface: ")
            } else {
                let (start, goal) = (plan(start), plan(goal));
                let (p, g) = (pt(start.x, start.y), pt(goal.x, goal.y));
                let s = unsafe { ps_crowd_add_agent(crowd, p, g, 1.5, &mut index) };
                (s, "ps_crowd_add_agent: ")
            };
            if s == PsOk {
                starts.push(start);
            } else {
                // Refused for where the points are (too near a wall, unreachable), never
                // for the kind of point.
                assert_ne!(s, PsUnsupported, "{rel}: {}", last_error());
                assert!(last_error().starts_with(what), "{rel}");
            }
        }
        assert!(!starts.is_empty(), "{rel}: no agent could be placed");
        let n = starts.len();
        let (mut xy, mut xyz, mut len) = (vec![0.0; 2 * n], vec![0.0; 3 * n], 0);
        for frame in 1..=100 {
            unsafe { expect(ps_crowd_update(crowd, 0.05, null_mut()), PsOk, "") };
            if frame % 10 != 0 {
                continue;
            }
            unsafe {
                expect(
                    ps_crowd_positions(crowd, xy.as_mut_ptr(), n, &mut len),
                    PsOk,
                    "",
                );
                let s = ps_crowd_positions3(crowd, xyz.as_mut_ptr(), n, &mut len);
                expect(s, PsOk, "");
            }
            assert_eq!(len, n);
            let at: Vec<DVec3> = xyz
                .chunks(3)
                .map(|c| DVec3::new(c[0], c[1], c[2]))
                .collect();
            for (i, &q) in at.iter().enumerate() {
                let p = plan(q);
                assert_eq!((p.x, p.y), (xy[2 * i], xy[2 * i + 1]), "{rel}: agent {i}");
                let under: Vec<&Vec<DVec3>> = rings
                    .iter()
                    .filter(|r| in_convex(&r.iter().map(|&c| plan(c)).collect::<Vec<_>>(), p, 1e-6))
                    .collect();
                assert!(
                    !under.is_empty(),
                    "{rel} frame {frame}: agent {i} at {p} is over no polygon"
                );
                // Within the heights of its corners (a detail mesh may rise or fall between
                // them; half a unit allowed).
                let h = axis.height(q);
                let on = |r: &&Vec<DVec3>| {
                    let hs = r.iter().map(|&c| axis.height(c));
                    let (lo, hi) = hs.fold((f64::MAX, f64::MIN), |(l, u), h| (l.min(h), u.max(h)));
                    h >= lo - 0.5 && h <= hi + 0.5
                };
                assert!(
                    under.iter().any(on),
                    "{rel} frame {frame}: agent {i} at height {h}"
                );
                for (j, &o) in at.iter().enumerate().skip(i + 1) {
                    if several && (axis.height(o) - h).abs() >= 2.0 {
                        continue; // one over the other
                    }
                    let gap = p.distance(plan(o));
                    assert!(
                        gap >= 0.99 * 0.2 - 1e-9,
                        "{rel} frame {frame}: agents {i}, {j} {gap} apart"
                    );
                }
            }
        }
        unsafe {
            ps_crowd_destroy(crowd);
            ps_world_destroy(world);
        }
        walked += 1;
    }
    // The corpus's 38 navmeshes: 20 one floor, 18 with floors over one another (as the
    // WebAssembly package's test finds).
    assert_eq!((walked, layered), (38, 18));
}

/// A 3D point of the library as the C ABI takes it.
fn p3(p: DVec3) -> PsPoint3d {
    PsPoint3d {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// The same crowd across floors twice, on the corpus's Detour navmesh `name`: once through
/// the C ABI (its world and crowd, avoiding, radius 0.2), once as the library's own, with the
/// surface read from the file for the test to pick points on.
fn layered_crowd_pair(
    name: &str,
) -> (
    *mut PsWorld,
    *mut PsCrowd,
    pathsmooth::navmesh::Surface,
    Crowd<SurfaceWorld>,
) {
    use pathsmooth::navmesh::{load_surface, SurfaceMesh, SurfaceOptions, UpAxis};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../pathsmooth/tests/data/corpus/detour/{name}.all_tiles_navmesh.bin"
    ));
    let c_path = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    let mut world = null_mut();
    let s = unsafe { ps_world_surface_load(c_path.as_ptr(), null(), PS_UP_FILE, -1.0, &mut world) };
    expect(s, PsOk, "");
    let crowd = new_crowd(world, 0.2, Some(&avoiding()));
    let surface = load_surface(&path, &SurfaceOptions::new(UpAxis::Y)).unwrap();
    let mesh = SurfaceMesh::new(surface.clone()).unwrap();
    let library = Crowd::new(SurfaceWorld::new(mesh), 0.2, Preset::Smooth.steps())
        .unwrap()
        .with_avoidance(Some(Avoidance::default()))
        .unwrap();
    (world, crowd, surface, library)
}

/// Adds an agent from `a` to `b` to both crowds of [`layered_crowd_pair`]: the C ABI's takes
/// it exactly when the library's does, at the same index.
fn add_agent_to_both(library: &mut Crowd<SurfaceWorld>, crowd: *mut PsCrowd, a: DVec3, b: DVec3) {
    let ours = library.add_agent_on_surface(a, b, 1.5);
    let mut i = PS_NO_AGENT;
    let s = unsafe { ps_crowd_add_agent_on_surface(crowd, p3(a), p3(b), 1.5, &mut i) };
    match ours {
        Ok(k) => (expect(s, PsOk, ""), assert_eq!(i, k)),
        Err(_) => (assert_ne!(s, PsOk), assert_eq!(i, PS_NO_AGENT)),
    };
}

/// A crowd across floors through the ABI, on RecastDemo's `nav_test` level as Detour baked
/// it: agents placed and sent in 3D walk as the library's crowd driven alike (every agent's
/// 3D position bit for bit after each of 60 frames, a target sent on the surface midway);
/// every bad input is refused with its status and a message naming it, and a flat crowd
/// refuses 3D agents.
#[test]
fn a_crowd_across_floors_walks_as_the_librarys_and_refuses_bad_input() {
    let (world, crowd, surface, mut library) = layered_crowd_pair("nav_test");
    // Random polygon centres of the file, as starts and goals.
    let centre = |p: u32| {
        let ring = surface.polygon(p);
        ring.iter()
            .map(|&v| surface.vertices()[v as usize])
            .sum::<DVec3>()
            / ring.len() as f64
    };
    let mut rng = fastrand::Rng::with_seed(3);
    let n = surface.num_polygons() as u32;
    while library.agents().len() < 12 {
        let (a, b) = (centre(rng.u32(..n)), centre(rng.u32(..n)));
        add_agent_to_both(&mut library, crowd, a, b);
    }
    // One update of both crowds, and every agent's point the same to the bit.
    let step_both = |library: &mut Crowd<SurfaceWorld>, what: &str| {
        library.update(0.05).unwrap();
        update(crowd, 0.05);
        let (mut xyz, mut len) = ([0.0; 36], 0);
        let s = unsafe { ps_crowd_positions3(crowd, xyz.as_mut_ptr(), 12, &mut len) };
        expect(s, PsOk, "");
        for (i, c) in xyz.chunks(3).enumerate() {
            let want = library.agent_point(i).unwrap();
            assert_eq!(DVec3::new(c[0], c[1], c[2]), want, "{what}: agent {i}");
        }
    };
    for frame in 0..60 {
        if frame == 30 {
            let goal = centre(rng.u32(..n));
            let ours = library.set_target_on_surface(0, goal);
            let s = unsafe { ps_crowd_set_target_on_surface(crowd, 0, p3(goal)) };
            assert_eq!(s == PsOk, ours.is_ok(), "{}", last_error());
        }
        step_both(&mut library, &format!("frame {frame}"));
    }
    // A crate dropped on agent 3 on its floor, and a door across agent 7's floor: the C
    // ABI's crowd goes on equal to the library's.
    let p2 = |p: DVec3| PsPoint2d { x: p.x, y: p.z };
    let (crate_at, door_at) = (
        library.agent_point(3).unwrap(),
        library.agent_point(7).unwrap(),
    );
    let ours = library.add_obstacle_on_floor(
        Obstacle::Disk {
            center: DVec2::new(crate_at.x, crate_at.z),
            radius: 0.4,
        },
        crate_at,
    );
    let (mut id, mut blocked) = (PS_NO_OBSTACLE, 0);
    let s = unsafe {
        ps_crowd_add_disk_on_floor(
            crowd,
            p2(crate_at),
            0.4,
            p3(crate_at),
            &mut id,
            &mut blocked,
        )
    };
    let (k, n_blocked) = ours.expect("a crate on the agent's floor");
    expect(s, PsOk, "");
    assert_eq!((id, blocked), (k.get(), n_blocked));
    let half = DVec3::new(0.3, 0.0, 1.0);
    let ours = library.add_obstacle_on_floor(
        Obstacle::Box {
            min: DVec2::new(door_at.x - half.x, door_at.z - half.z),
            max: DVec2::new(door_at.x + half.x, door_at.z + half.z),
        },
        door_at,
    );
    let s = unsafe {
        ps_crowd_add_box_on_floor(
            crowd,
            p2(door_at - half),
            p2(door_at + half),
            p3(door_at),
            &mut id,
            null_mut(),
        )
    };
    assert_eq!(s == PsOk, ours.is_ok(), "{}", last_error());
    // A triangle of rubble round agent 5, on its floor.
    let rubble_at = library.agent_point(5).unwrap();
    let corners = [(-0.5, -0.4), (0.6, -0.3), (0.0, 0.7)]
        .map(|(x, z)| DVec2::new(rubble_at.x + x, rubble_at.z + z));
    let ours = library.add_obstacle_on_floor(Obstacle::Polygon(corners.to_vec()), rubble_at);
    let xy: Vec<f64> = corners.iter().flat_map(|c| [c.x, c.y]).collect();
    let s = unsafe {
        ps_crowd_add_polygon_on_floor(crowd, xy.as_ptr(), 3, p3(rubble_at), &mut id, &mut blocked)
    };
    let (k, n_blocked) = ours.expect("rubble on the agent's floor");
    expect(s, PsOk, "");
    assert_eq!((id, blocked), (k.get(), n_blocked));
    for frame in 0..20 {
        step_both(&mut library, &format!("after the crate, frame {frame}"));
    }
    // A cart driving on agent 2's floor, towards it, put on that floor: both crowds walk on
    // the same.
    let cart_at = library.agent_point(2).unwrap();
    let cart = MovingObstacle {
        center: DVec2::new(cart_at.x + 2.0, cart_at.z),
        radius: 0.3,
        velocity: DVec2::new(-1.0, 0.0),
    };
    let k = library.add_moving_obstacle(cart).unwrap();
    library.set_moving_obstacle_floor(k, cart_at.y).unwrap();
    let s = unsafe {
        ps_crowd_add_moving_obstacle(
            crowd,
            p2(DVec3::new(cart.center.x, 0.0, cart.center.y)),
            0.3,
            PsPoint2d { x: -1.0, y: 0.0 },
            &mut id,
        )
    };
    expect(s, PsOk, "");
    assert_eq!(id, k.get());
    expect(
        unsafe { ps_crowd_set_moving_obstacle_floor(crowd, id, cart_at.y) },
        PsOk,
        "",
    );
    for frame in 0..20 {
        step_both(&mut library, &format!("with the cart, frame {frame}"));
    }
    let s = unsafe { ps_crowd_set_moving_obstacle_floor(crowd, id, f64::NAN) };
    expect(
        s,
        PsInvalidArgument,
        "ps_crowd_set_moving_obstacle_floor: parameter `floor`",
    );
    let s = unsafe { ps_crowd_set_moving_obstacle_floor(crowd, 12345, 0.0) };
    expect(
        s,
        PsInvalidArgument,
        "ps_crowd_set_moving_obstacle_floor: obstacle: no moving obstacle 12345",
    );
    let s = unsafe {
        ps_crowd_add_polygon_on_floor(crowd, xy.as_ptr(), 2, p3(rubble_at), &mut id, null_mut())
    };
    expect(s, PsInvalidArgument, "ps_crowd_add_polygon_on_floor: ");
    assert_eq!(id, PS_NO_OBSTACLE);
    let nan3 = DVec3::new(f64::NAN, 0.0, 0.0);
    let s = unsafe {
        ps_crowd_add_disk_on_floor(crowd, p2(crate_at), 0.4, p3(nan3), &mut id, null_mut())
    };
    expect(s, PsInvalidArgument, "ps_crowd_add_disk_on_floor: `floor`");
    assert_eq!(id, PS_NO_OBSTACLE);
    let away = crate_at + DVec3::new(5.0, 0.0, 0.0);
    let s = unsafe {
        ps_crowd_add_disk_on_floor(crowd, p2(crate_at), 0.4, p3(away), &mut id, null_mut())
    };
    expect(
        s,
        PsOutsideWorld,
        "ps_crowd_add_disk_on_floor: obstacle's floor point",
    );
    // Bad input: the status, the call's name and what is wrong; nothing added.
    let (a, b) = (centre(0), centre(1));
    let nan = DVec3::new(f64::NAN, 0.0, 0.0);
    let mut i = 0;
    let s = unsafe { ps_crowd_add_agent_on_surface(crowd, p3(nan), p3(b), 1.5, &mut i) };
    expect(
        s,
        PsInvalidArgument,
        "ps_crowd_add_agent_on_surface: `position`",
    );
    assert_eq!(i, PS_NO_AGENT);
    let s = unsafe { ps_crowd_add_agent_on_surface(crowd, p3(a), p3(b), -1.0, &mut i) };
    expect(s, PsInvalidArgument, "speed");
    let s = unsafe {
        ps_crowd_add_agent_on_surface_with_radius(crowd, p3(a), p3(b), 1.5, f64::NAN, &mut i)
    };
    expect(
        s,
        PsInvalidArgument,
        "ps_crowd_add_agent_on_surface_with_radius: ",
    );
    let s = unsafe { ps_crowd_set_target_on_surface(crowd, 12, p3(b)) };
    expect(s, PsInvalidArgument, "ps_crowd_set_target_on_surface: ");
    let s = unsafe { ps_crowd_set_target_on_surface(crowd, 0, p3(nan)) };
    expect(s, PsInvalidArgument, "`target`");
    let s = unsafe { ps_crowd_add_agent_on_surface(crowd, p3(a), p3(b), 1.5, null_mut()) };
    expect(s, PsNullPointer, "out_agent");
    assert_eq!(count(crowd), 12);
    // A flat crowd takes its agents in 2D.
    let rows = room_rows(6, 6);
    let grid = grid_world(&rows);
    let flat = new_crowd(grid, 0.2, None);
    let s = unsafe { ps_crowd_add_agent_on_surface(flat, p3(a), p3(b), 1.5, &mut i) };
    expect(s, PsUnsupported, "2D points");
    let s = unsafe { ps_crowd_add_disk_on_floor(flat, p2(a), 0.4, p3(a), &mut id, null_mut()) };
    expect(s, PsUnsupported, "floors to put an obstacle on");
    let s = unsafe { ps_crowd_set_moving_obstacle_floor(flat, 0, 0.0) };
    expect(s, PsUnsupported, "has floors");
    unsafe {
        ps_crowd_destroy(flat);
        ps_world_destroy(grid);
        ps_crowd_destroy(crowd);
        ps_world_destroy(world);
    }
}

/// An agent taking an off-mesh link through the ABI (RecastDemo's dungeon as Detour baked
/// it, agents sent from each link's entry to its landing): its state says which link it
/// is on and how far, and its position is where it is on the way, as the library's crowd
/// driven alike says, to the bit, every frame; on no link, `PS_NO_LINK` and 0.
#[test]
fn an_agent_on_an_off_mesh_link_says_which_and_how_far() {
    let (world, crowd, surface, mut library) = layered_crowd_pair("dungeon");
    // From a step before each link's entry to a step past its landing, where there is room.
    for link in surface.links() {
        let way = (link.end - link.start).normalize_or_zero();
        let (a, b) = (link.start - way * 0.5, link.end + way * 0.5);
        add_agent_to_both(&mut library, crowd, a, b);
    }
    assert!(!library.agents().is_empty());
    let mut frames_on = 0;
    for frame in 0..200 {
        library.update(0.05).unwrap();
        update(crowd, 0.05);
        for (i, a) in library.agents().iter().enumerate() {
            let st = state(crowd, i);
            let what = format!("frame {frame} agent {i}");
            let p = a.position();
            assert_eq!((st.position.x, st.position.y), (p.x, p.y), "{what}");
            match a.crossing() {
                Some(c) => {
                    frames_on += 1;
                    assert_eq!(
                        (st.crossing_link, st.crossing_progress),
                        (c.link(), c.progress()),
                        "{what}"
                    );
                    assert!((0.0..=1.0).contains(&c.progress()), "{what}: {c:?}");
                    assert_eq!(st.arrived, 0, "{what}");
                }
                None => assert_eq!(
                    (st.crossing_link, st.crossing_progress),
                    (PS_NO_LINK, 0.0),
                    "{what}"
                ),
            }
        }
    }
    assert!(frames_on > 0, "no agent took a link");
    expect(unsafe { ps_crowd_destroy(crowd) }, PsOk, "");
    expect(unsafe { ps_world_destroy(world) }, PsOk, "");
}
