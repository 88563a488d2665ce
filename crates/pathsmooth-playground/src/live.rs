//! A live crowd: the playground's crowd ([`crate::crowd`]) simulated a few frames at a
//! time for as long as the page shows it, the player sending the agents where they click
//! (issue 40, item 7: "the playground shows a crowd live"). The static playground's worker
//! holds one (`pathsmooth-playground-wasm`, through [`request`]): in the browser the
//! simulation runs on the player's own machine, for as long as they like. `pathsmooth
//! serve` keeps one per client between requests, numbered, within its bounds (its
//! `serve::sessions`; the routes in `serve::live`).
//!
//! A live crowd started from a [`CrowdRequest`] and stepped by `k` frames sent at a time
//! is the same crowd, frame for frame, as `POST /api/crowd`'s run of the same request,
//! until the player sends the agents somewhere (a test checks it).

use glam::DVec2;
use pathsmooth::{Cancel, GridWorld};
use serde::{Deserialize, Serialize};

use crate::crowd::{frame_step, world_of, Contacts, CrowdRequest, FrameOut, Running, AGENT_RADIUS};
use crate::error::{encode, ApiError, BAD_REQUEST, METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE};
use crate::route::{read_json, WRONG_METHOD};
use crate::world::Playground;

/// Where the page starts a live crowd (`POST`, [`CrowdRequest`]).
pub const START: &str = "/api/crowd/live";

/// Where the page steps it (`POST`, [`StepRequest`]).
pub const STEP: &str = "/api/crowd/live/step";

/// Answers a live crowd's routes ([`START`], [`STEP`]) for a shell that holds one live
/// crowd in `slot` (a new start replaces it); `None` for any other path (a query string is
/// ignored).
pub fn request<H>(
    slot: &mut Option<LiveCrowd>,
    p: &Playground<H>,
    method: &str,
    path: &str,
    body: &[u8],
    cancel: &Cancel,
) -> Option<Result<Vec<u8>, ApiError>> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    if path != START && path != STEP {
        return None;
    }
    if !method.eq_ignore_ascii_case("POST") {
        return Some(Err(ApiError::new(METHOD_NOT_ALLOWED, WRONG_METHOD)));
    }
    Some(if path == START {
        // The old crowd goes first: two need not be held at once.
        *slot = None;
        read_json(body)
            .and_then(|req| LiveCrowd::start(&req, world_of(p, &req)?, cancel))
            .map(|(live, answer)| {
                *slot = Some(live);
                answer
            })
    } else {
        match slot {
            Some(live) => read_json(body).and_then(|req| live.step(&req, cancel)),
            None => Err(ApiError::new(
                BAD_REQUEST,
                format!("no live crowd to step: start one with POST {START}"),
            )),
        }
    })
}

/// Most frames one step may ask for (of [`crate::limits::CROWD_FPS`] a second): two seconds.
pub const MAX_STEP_FRAMES: usize = 40;

/// The body of a live crowd's step (`POST /api/crowd/live/step`; the server's names the
/// crowd in its query string, `?session=N`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// Frames to simulate and send, 1 to [`MAX_STEP_FRAMES`] (default 10: half a second).
    #[serde(default = "default_frames")]
    pub frames: usize,
    /// Sends every agent to a goal of its own round this point (cells), before the
    /// frames: the player's click. They keep it until they are sent elsewhere (they
    /// wander, re-targeted at random, until the first click).
    #[serde(default)]
    pub send: Option<[f64; 2]>,
}

fn default_frames() -> usize {
    10
}

/// A step's answer.
#[derive(Serialize)]
struct StepResponse {
    /// The frames simulated, in order, as `POST /api/crowd` sends them.
    frames: Vec<FrameOut>,
    /// Every agent's path after the last frame (agent `i`'s at index `i`), or `null` when
    /// they hold more than [`crate::limits::MAX_CROWD_PATH_POINTS`] points.
    paths: Option<Vec<Vec<[f64; 2]>>>,
    /// The agents sent to the point asked for (all of them), when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    sent: Option<usize>,
    /// The contacts summed over every frame so far.
    contacts: Contacts,
    /// `pathsmooth crowd`'s contacts line: `overlaps K wall_hits W arrived A/N`.
    line: String,
}

/// A crowd simulated on request, a few frames at a time, on its own copy of a world on
/// offer.
pub struct LiveCrowd {
    crowd: Running,
}

impl std::fmt::Debug for LiveCrowd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sim = self.crowd.sim();
        f.debug_struct("LiveCrowd")
            .field("agents", &sim.crowd().agents().len())
            .field("time", &sim.time())
            .finish_non_exhaustive()
    }
}

impl LiveCrowd {
    /// Starts the crowd of `req` (`POST /api/crowd`'s request, checked, as
    /// [`world_of`] checks it; its `seconds` is not used: a live crowd runs for as long as
    /// it is stepped) on `named`, the world on offer it names: the crowd, and the answer to
    /// send, `POST /api/crowd`'s with its first frame and paths only.
    ///
    /// Errors: as `POST /api/crowd`'s run's ([`run`](crate::crowd::run)).
    pub fn start(
        req: &CrowdRequest,
        named: &GridWorld,
        cancel: &Cancel,
    ) -> Result<(LiveCrowd, Vec<u8>), ApiError> {
        let crowd = Running::start(req, named, cancel)?;
        let answer = crowd.first_answer(req)?;
        Ok((LiveCrowd { crowd }, answer))
    }

    /// Sends the agents where `req` says (if it does), then simulates its frames (each
    /// [`frame_step`] simulated frames, as `POST /api/crowd` sends them) and answers them;
    /// stops with [`ApiError::cancelled`] at the first frame after `cancel` is.
    ///
    /// Errors (the crowd as it was): a 400 for no `frames` or a `send` point too large to
    /// be a place; a 413 for more than [`MAX_STEP_FRAMES`]; a 422 for a `send` point off
    /// the map, in a wall, in a closed door, on a spot without room for the agents or in a
    /// part of the map theirs does not join. A frame's error (none expected)
    /// leaves the crowd part-way through the step.
    pub fn step(&mut self, req: &StepRequest, cancel: &Cancel) -> Result<Vec<u8>, ApiError> {
        if req.frames == 0 {
            return Err(ApiError::bad_request(
                "frames 0: a step simulates at least one frame",
            ));
        }
        if req.frames > MAX_STEP_FRAMES {
            return Err(ApiError::new(
                PAYLOAD_TOO_LARGE,
                format!(
                    "frames {}: a step simulates at most {MAX_STEP_FRAMES} frames",
                    req.frames
                ),
            ));
        }
        let sent = match req.send {
            Some(point) => Some(self.send(point)?),
            None => None,
        };
        let mut frames = Vec::with_capacity(req.frames);
        for _ in 0..req.frames {
            for _ in 0..frame_step() {
                cancel.check().map_err(ApiError::planning)?;
                self.crowd.advance()?;
            }
            frames.push(self.crowd.frame_out());
        }
        let (contacts, line) = self.crowd.contacts();
        encode(&StepResponse {
            frames,
            paths: self.crowd.paths_within_cap(),
            sent,
            contacts,
            line,
        })
    }

    /// Sends every agent round `point` (cells), spread over about two cells per agent so
    /// that each finds a spot of its own.
    fn send(&mut self, point: [f64; 2]) -> Result<usize, ApiError> {
        let sim = self.crowd.sim_mut();
        let world = sim.crowd().world();
        let goal = world.to_world(DVec2::from(point));
        let agents = sim.crowd().agents().len() as f64;
        let spread = (0.75 * agents.sqrt()).max(AGENT_RADIUS * 4.0) * world.cell_size();
        // They stay there until they are sent elsewhere, as units sent by a click do.
        sim.send_to(goal, spread, f64::INFINITY)
            .map_err(ApiError::planning)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::run;
    use crate::demo_map::DEMO_TO;
    use serde_json::Value;

    fn playground() -> Playground {
        Playground::new(Vec::new()).unwrap()
    }

    fn crowd_request(agents: usize, seconds: f64) -> CrowdRequest {
        CrowdRequest {
            world: "demo".into(),
            agents,
            seconds,
            seed: 7,
            avoid: true,
            doors: true,
            truck: true,
        }
    }

    fn step(
        live: &mut LiveCrowd,
        frames: usize,
        send: Option<[f64; 2]>,
    ) -> Result<Value, ApiError> {
        let answer = live.step(&StepRequest { frames, send }, &Cancel::new())?;
        Ok(serde_json::from_slice(&answer).unwrap())
    }

    /// Stepped by any number of frames at a time, a live crowd is `POST /api/crowd`'s run
    /// of the same request, frame for frame (doors, the truck and avoidance in it), with
    /// the same contacts.
    #[test]
    fn a_live_crowd_stepped_by_chunks_is_the_run_of_its_request() {
        let p = playground();
        let req = crowd_request(30, 3.0);
        let cancel = Cancel::new();
        let whole: Value =
            serde_json::from_slice(&run(&req, &p.named("demo").unwrap().world, &cancel).unwrap())
                .unwrap();
        let (mut live, first) =
            LiveCrowd::start(&req, world_of(&p, &req).unwrap(), &cancel).unwrap();
        let first: Value = serde_json::from_slice(&first).unwrap();
        for key in [
            "world", "width", "height", "radius", "speed", "fps", "doors", "truck",
        ] {
            assert_eq!(first[key], whole[key], "{key}");
        }
        assert!(whole["truck"].is_object() && whole["doors"].as_array().unwrap().len() == 4);
        assert_eq!(first["frames"][0], whole["frames"][0]);
        assert_eq!(first["paths"][0], whole["paths"][0]);
        let mut frames = vec![first["frames"][0].clone()];
        let mut last = Value::Null;
        for k in [1, 7, 13, 39] {
            last = step(&mut live, k, None).unwrap();
            frames.extend(last["frames"].as_array().unwrap().iter().cloned());
        }
        assert_eq!(frames.len(), 61);
        assert_eq!(Value::Array(frames), whole["frames"]);
        assert_eq!(last["line"], whole["line"]);
        assert_eq!(last["contacts"], whole["contacts"]);
    }

    /// The agents' positions of a frame, cells.
    fn positions(frame: &Value) -> Vec<[f64; 2]> {
        let at: Vec<f64> = frame["at"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        at.chunks(2).map(|c| [c[0], c[1]]).collect()
    }

    /// Sent to the park, the agents walk there from all over the map and stay round the
    /// point: judged here from the frames and the map's text alone: every agent on a free
    /// cell, no two overlapping by more than 1 % of the radii's sum (positions are rounded
    /// to 1/1000), and within a few cells of the point once there.
    #[test]
    fn agents_sent_where_the_player_clicks_gather_there() {
        let p = playground();
        let req = CrowdRequest {
            truck: false,
            doors: false,
            ..crowd_request(40, 1.0)
        };
        let (mut live, _) =
            LiveCrowd::start(&req, world_of(&p, &req).unwrap(), &Cancel::new()).unwrap();
        step(&mut live, 10, None).unwrap();
        let click = [DEMO_TO.x as f64 + 0.5, DEMO_TO.y as f64 - 2.5];
        let rows: Vec<&str> = crate::demo_map::DEMO_MAP.lines().skip(4).collect();
        let free = |[x, y]: [f64; 2]| {
            let row = rows.get(y.floor() as usize).map(|r| r.as_bytes());
            row.and_then(|r| r.get(x.floor() as usize)) == Some(&b'.')
        };
        // The farthest agent's distance from the point, cells.
        let far = |frame: &Value| {
            positions(frame)
                .iter()
                .map(|&[x, y]| (x - click[0]).hypot(y - click[1]))
                .fold(0.0, f64::max)
        };
        let mut answer = step(&mut live, 1, Some(click)).unwrap();
        assert_eq!(answer["sent"], 40);
        let mut farthest = Vec::new();
        for _ in 0..60 {
            answer = step(&mut live, MAX_STEP_FRAMES, None).unwrap();
            for frame in answer["frames"].as_array().unwrap() {
                let points = positions(frame);
                for (i, &a) in points.iter().enumerate() {
                    assert!(free(a), "agent {i} at {a:?} at {}", frame["t"]);
                    for &b in &points[i + 1..] {
                        let apart = (a[0] - b[0]).hypot(a[1] - b[1]);
                        assert!(apart >= 0.99 * 2.0 * AGENT_RADIUS - 2e-3, "{a:?} {b:?}");
                    }
                }
                farthest.push(far(frame));
            }
        }
        // Every agent at a goal of its own (each came to one), within the spread of the
        // point on each axis, rounded to a cell centre, after 85 s of the 120 walked (the
        // farthest started 95 cells away, at 1.5 cells a second).
        assert_eq!(answer["line"], "overlaps 0 wall_hits 0 arrived 40/40");
        let spread = 0.75 * 40f64.sqrt();
        let settled = farthest
            .iter()
            .position(|&d| d <= (spread + 0.5) * 2f64.sqrt());
        assert!(settled.is_some_and(|f| f <= 85 * 20), "{settled:?}");
        assert!(farthest[settled.unwrap()..]
            .iter()
            .all(|&d| d <= (spread + 0.5) * 2f64.sqrt()));
        assert!(farthest[0] > 90.0, "{}", farthest[0]);
    }

    /// The routes: a start holds the crowd in the slot (a new start replaces it), a step
    /// steps it; a step with none, a `GET`, or a bad body are refused; other paths are not
    /// theirs.
    #[test]
    fn the_routes_start_step_and_refuse() {
        let p = playground();
        let cancel = Cancel::new();
        let mut slot = None;
        let mut ask = |method: &str, path: &str, body: &str| {
            request(&mut slot, &p, method, path, body.as_bytes(), &cancel)
                .map(|r| r.map_err(|e| (e.status(), e.message().to_string())))
        };
        assert!(ask("POST", "/api/crowd", "{}").is_none());
        let none = ask("POST", STEP, "{}").unwrap().unwrap_err();
        assert_eq!(
            none,
            (
                400,
                format!("no live crowd to step: start one with POST {START}")
            )
        );
        assert_eq!(ask("GET", START, "").unwrap().unwrap_err().0, 405);
        assert_eq!(
            ask("POST", START, r#"{"world": "nowhere"}"#)
                .unwrap()
                .unwrap_err()
                .0,
            404
        );
        assert_eq!(
            ask("POST", START, r#"{"world": "demo", "agents": 0}"#)
                .unwrap()
                .unwrap_err()
                .0,
            400
        );
        let started: Value = serde_json::from_slice(
            &ask("POST", START, r#"{"world": "demo", "agents": 3}"#)
                .unwrap()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(started["frames"].as_array().unwrap().len(), 1);
        assert_eq!(
            ask("POST", STEP, r#"{"frames": 2, "jump": 1}"#)
                .unwrap()
                .unwrap_err()
                .0,
            400
        );
        let stepped: Value = serde_json::from_slice(
            &ask("POST", &format!("{STEP}?x=1"), r#"{"frames": 2}"#)
                .unwrap()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(stepped["frames"][1]["t"], 0.1);
        // A new start: a crowd of its own, from its first frame.
        ask("POST", START, r#"{"world": "demo", "agents": 5}"#)
            .unwrap()
            .unwrap();
        let stepped: Value =
            serde_json::from_slice(&ask("POST", STEP, "{}").unwrap().unwrap()).unwrap();
        assert_eq!(stepped["frames"].as_array().unwrap().len(), 10);
        assert_eq!(stepped["frames"][0]["t"], 0.05);
        assert_eq!(stepped["frames"][0]["at"].as_array().unwrap().len(), 10);
    }

    /// A step asking for no frames or too many, or sending the agents into a wall, off the
    /// map or out of reach, is refused with its status and a message saying why, and the
    /// crowd goes on from where it was.
    #[test]
    fn bad_steps_are_refused_and_the_crowd_goes_on() {
        let p = playground();
        let req = crowd_request(10, 1.0);
        let (mut live, _) =
            LiveCrowd::start(&req, world_of(&p, &req).unwrap(), &Cancel::new()).unwrap();
        let t = |answer: &Value| answer["frames"][0]["t"].as_f64().unwrap();
        assert_eq!(t(&step(&mut live, 2, None).unwrap()), 0.05);
        let refused = |live: &mut LiveCrowd, frames, send| {
            let e = step(live, frames, send).unwrap_err();
            (e.status(), e.message().to_string())
        };
        let (status, message) = refused(&mut live, 0, None);
        assert_eq!(
            (status, message.as_str()),
            (400, "frames 0: a step simulates at least one frame")
        );
        assert_eq!(refused(&mut live, MAX_STEP_FRAMES + 1, None).0, 413);
        // The demo map's outer wall, and points off the map.
        let (status, message) = refused(&mut live, 1, Some([0.5, 0.5]));
        assert_eq!(
            (status, message.as_str()),
            (422, "goal (0.5, 0.5) is inside a wall")
        );
        let (status, message) = refused(&mut live, 1, Some([-3.0, 12.0]));
        assert_eq!(status, 422, "{message}");
        assert!(message.contains("outside the 80×80 map"), "{message}");
        assert_eq!(refused(&mut live, 1, Some([f64::MAX, 2.0])).0, 422);
        // Nothing of those moved the crowd: the next frame is the third.
        assert_eq!(t(&step(&mut live, 1, None).unwrap()), 0.15);
    }

    /// The cells of a Moving AI map's text the agents can reach, by the map's own rows: the
    /// largest 4-connected set of free (`.`) cells, the first of equals in row order (a
    /// cell centre has half a cell of room, more than the agents' radius, and the way
    /// between two free neighbours' centres stays in their two cells). `None` outside.
    fn reachable_cells(rows: &[&[u8]]) -> impl Fn(i64, i64) -> Option<bool> {
        let (h, w) = (rows.len() as i64, rows[0].len() as i64);
        let free = |x: i64, y: i64| {
            x >= 0 && y >= 0 && x < w && y < h && rows[y as usize][x as usize] == b'.'
        };
        let mut label = vec![usize::MAX; (w * h) as usize];
        let (mut best, mut best_size) = (usize::MAX, 0);
        for start in 0..w * h {
            if label[start as usize] != usize::MAX || !free(start % w, start / w) {
                continue;
            }
            let (mut stack, mut size) = (vec![start], 0);
            label[start as usize] = start as usize;
            while let Some(c) = stack.pop() {
                size += 1;
                let (x, y) = (c % w, c / w);
                for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                    if free(nx, ny) && label[(ny * w + nx) as usize] == usize::MAX {
                        label[(ny * w + nx) as usize] = start as usize;
                        stack.push(ny * w + nx);
                    }
                }
            }
            if size > best_size {
                (best, best_size) = (start as usize, size);
            }
        }
        move |x, y| {
            (x >= 0 && y >= 0 && x < w && y < h).then(|| label[(y * w + x) as usize] == best)
        }
    }

    /// On maps we did not make (Moving AI's den312d, from Dragon Age: Origins, and
    /// Berlin_0_256), clicks at random points of random cells (fixed seed) are judged by
    /// the map's text alone: a click is taken exactly when its cell is one the agents can
    /// reach (else a 422 saying why: a wall, or out of reach); once taken, every agent's
    /// path ends at a reachable cell centre within the spread of the clicked cell's centre;
    /// and in every frame every agent stands on a free cell, no two closer than 99 % of the
    /// sum of their radii.
    #[test]
    fn clicks_at_random_on_moving_ai_maps_send_the_agents_as_the_maps_text_says() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut uniform = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (agents, spread) = (30, 0.75 * 30f64.sqrt());
        for file in ["dao/den312d.map", "cities/Berlin_0_256.map"] {
            let path = format!("{}/../../data/movingai/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let rows: Vec<&[u8]> = text.lines().skip(4).map(str::as_bytes).collect();
            assert!(
                rows.iter()
                    .flat_map(|r| r.iter())
                    .all(|c| b".@T".contains(c)),
                "{file}: cells other than . @ T"
            );
            let reachable = reachable_cells(&rows);
            let world =
                pathsmooth::GridWorld::new(pathsmooth::GridMap::load(&path).unwrap()).unwrap();
            let p = Playground::<()>::new(vec![(file.to_string(), world)]).unwrap();
            let req = CrowdRequest {
                world: file.into(),
                ..crowd_request(agents, 1.0)
            };
            let req = CrowdRequest {
                doors: false,
                truck: false,
                ..req
            };
            let (mut live, _) =
                LiveCrowd::start(&req, world_of(&p, &req).unwrap(), &Cancel::new()).unwrap();
            let (w, h) = (rows[0].len() as f64, rows.len() as f64);
            let (mut taken, mut refused, mut frames) = (0, 0, 0);
            while taken < 3 || refused < 2 {
                let click = [uniform() * w, uniform() * h];
                let cell = (click[0].floor() as i64, click[1].floor() as i64);
                let answer = step(&mut live, 1, Some(click));
                match reachable(cell.0, cell.1) {
                    Some(true) => {
                        let answer = answer.unwrap_or_else(|e| panic!("{file}: {click:?}: {e}"));
                        assert_eq!(answer["sent"], agents);
                        taken += 1;
                    }
                    _ => {
                        let e = answer.expect_err(&format!("{file}: {click:?} taken"));
                        assert_eq!(e.status(), 422, "{e}");
                        let why = if rows[cell.1 as usize][cell.0 as usize] == b'.' {
                            "cannot be reached"
                        } else {
                            "inside a wall"
                        };
                        assert!(e.message().contains(why), "{file}: {click:?}: {e}");
                        refused += 1;
                        continue;
                    }
                }
                let centre = [cell.0 as f64 + 0.5, cell.1 as f64 + 0.5];
                for _ in 0..5 {
                    let answer = step(&mut live, MAX_STEP_FRAMES, None).unwrap();
                    for frame in answer["frames"].as_array().unwrap() {
                        frames += 1;
                        let points = positions(frame);
                        for (i, &a) in points.iter().enumerate() {
                            let free = rows[a[1].floor() as usize][a[0].floor() as usize] == b'.';
                            assert!(free, "{file}: agent {i} at {a:?}");
                            for &b in &points[i + 1..] {
                                let apart = (a[0] - b[0]).hypot(a[1] - b[1]);
                                assert!(
                                    apart >= 0.99 * 2.0 * AGENT_RADIUS - 2e-3,
                                    "{file}: {a:?} {b:?}"
                                );
                            }
                        }
                    }
                    for path in answer["paths"].as_array().unwrap() {
                        let end = path.as_array().unwrap().last().unwrap();
                        let goal = [end[0].as_f64().unwrap(), end[1].as_f64().unwrap()];
                        let off = (goal[0] - centre[0]).abs().max((goal[1] - centre[1]).abs());
                        assert!(
                            off <= spread + 0.5 + 1e-9,
                            "{file}: goal {goal:?} for a click at {click:?}"
                        );
                        assert_eq!(
                            (goal[0].fract(), goal[1].fract()),
                            (0.5, 0.5),
                            "{file}: goal {goal:?}"
                        );
                        assert_eq!(
                            reachable(goal[0] as i64, goal[1] as i64),
                            Some(true),
                            "{file}: goal {goal:?}"
                        );
                    }
                }
            }
            eprintln!("{file}: {taken} clicks taken, {refused} refused, {frames} frames judged");
        }
    }
}
