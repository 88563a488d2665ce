//! Following a 2D path: the speeds its curvature allows, and an agent driven frame by frame.
//!
//! `speed_profile` gives the time-optimal speed along a path for an agent's limits (top
//! speed, acceleration, braking, lateral acceleration, turn rate, stop-and-rotate angle);
//! a `Follower` plays the path back in a game loop, cutting corners as it turns.
//!
//! Run: `cargo run -p pathsmooth --example following`

use glam::DVec2;
use pathsmooth::follow::{speed_profile, Agent, Follower};

fn main() -> Result<(), pathsmooth::Error> {
    // An L-shaped corridor with a hairpin at the end.
    let path = [
        DVec2::new(0.0, 0.0),
        DVec2::new(12.0, 0.0),
        DVec2::new(12.0, 8.0),
        DVec2::new(14.0, 8.0),
        DVec2::new(14.0, 0.5),
    ];
    let agent = Agent {
        max_speed: 4.0,
        ..Agent::default()
    };

    let profile = speed_profile(&path, &agent)?;
    println!(
        "length {:.2} m, time {:.2} s",
        profile.length(),
        profile.total_time()
    );
    for v in profile.vertices() {
        println!(
            "  vertex at {:5.2} m: {:4.2} m/s at t = {:5.2} s (waits {:.2} s)",
            v.s, v.speed, v.t, v.dwell
        );
    }

    let mut follower = Follower::new(agent)?;
    follower.set_path(&path)?;
    let dt = 1.0 / 30.0;
    let mut frame = 0;
    loop {
        let state = follower.step(dt)?;
        if frame % 30 == 0 || state.finished {
            println!(
                "t = {:5.2} s  at ({:6.2}, {:5.2})  {:4.2} m/s",
                state.time, state.position.x, state.position.y, state.speed
            );
        }
        if state.finished {
            break;
        }
        frame += 1;
        assert!(frame < 30 * 120, "the path takes seconds, not minutes");
    }
    assert_eq!(follower.state().position_2d(), path[path.len() - 1]);
    Ok(())
}
