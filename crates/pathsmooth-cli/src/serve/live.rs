//! The live crowd on the server (the playground's [`LiveCrowd`]): `POST /api/crowd/live`
//! starts one for the client, `POST /api/crowd/live/step?session=N` steps it (the page asks
//! for the next half second while it plays the last, and sends the agents where the map is
//! clicked).
//!
//! A live crowd is state kept between requests, so it is bounded for the others' sake:
//! - at most [`MAX_LIVE_CROWDS`] at once, and one a client (an address): a client's new
//!   start ends its old crowd; a start when the table is full of other clients' crowds that
//!   are all in use is a 503 with `Retry-After`;
//! - each holds its memory reserved from the budget for its life (its world, a search's
//!   worth, a step's answer);
//! - a crowd not stepped for [`live_idle`] ends (its table place and memory given back),
//!   and one ends [`LIVE_LIFETIME`] after its start however busy (a 410 tells the page);
//! - a start and each step are requests like any other: the client's admission, a lane by
//!   their estimated work, the work deadline, cancelled when the client goes.
//!
//! A step names its crowd by the session number the start answered, and only the client
//! that started it may step it; one step of a crowd at a time (a second at once is a 409).

use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use pathsmooth_playground::crowd::CrowdRequest;
use pathsmooth_playground::live::{LiveCrowd, StepRequest, MAX_STEP_FRAMES};
use tokio::time::Instant;

use super::api::JsonRequest;
use super::budget::{held_json, Reservation};
use super::crowd;
use super::error::ApiError;
use super::lanes::Lane;
use super::playground::Playground;
use super::work::Work;

/// Most live crowds the server keeps at once.
pub const MAX_LIVE_CROWDS: usize = 8;

/// How long a live crowd may go without a step before it ends (the page steps twice a
/// second while it shows one).
pub const LIVE_IDLE: Duration = Duration::from_secs(10);

/// How long a live crowd lives at most, from its start.
pub const LIVE_LIFETIME: Duration = Duration::from_secs(600);

/// [`LIVE_IDLE`], or the milliseconds in the environment variable `PATHSMOOTH_LIVE_IDLE_MS`
/// (read once; for tests of the expiry).
pub fn live_idle() -> Duration {
    static IDLE: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *IDLE.get_or_init(|| {
        std::env::var("PATHSMOOTH_LIVE_IDLE_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(LIVE_IDLE, Duration::from_millis)
    })
}

/// One client's live crowd.
struct Session {
    id: u64,
    ip: IpAddr,
    /// `None` while a step runs (the crowd is on a worker).
    crowd: Option<LiveCrowd>,
    started: Instant,
    /// The end of its last request.
    last: Instant,
    /// Its memory, reserved for its life.
    _hold: Reservation,
}

impl Session {
    fn expired(&self, now: Instant) -> bool {
        let idle = self.crowd.is_some() && now.duration_since(self.last) > live_idle();
        idle || now.duration_since(self.started) > LIVE_LIFETIME
    }
}

/// The live crowds the server keeps.
#[derive(Default)]
pub struct LiveCrowds {
    table: Mutex<Vec<Session>>,
    next: std::sync::atomic::AtomicU64,
}

impl LiveCrowds {
    /// The table, its expired crowds ended.
    fn table(&self) -> MutexGuard<'_, Vec<Session>> {
        // Sessions only: consistent whatever panicked while holding the lock.
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        table.retain(|s| !s.expired(now));
        table
    }

    /// Ends `ip`'s live crowd, if any, and checks that the table has room for a new one:
    /// the 503 of a table full of other clients' crowds.
    fn make_room(&self, ip: IpAddr) -> Result<MutexGuard<'_, Vec<Session>>, ApiError> {
        let mut table = self.table();
        table.retain(|s| s.ip != ip);
        if table.len() >= MAX_LIVE_CROWDS {
            return Err(ApiError::busy(format_args!(
                "{MAX_LIVE_CROWDS} live crowds are running, the most the server keeps (Run plays a crowd without keeping one)"
            )));
        }
        Ok(table)
    }

    /// Keeps `crowd` for `ip` (ending its earlier one) and returns its session number, or
    /// [`make_room`](Self::make_room)'s 503.
    fn insert(&self, ip: IpAddr, crowd: LiveCrowd, hold: Reservation) -> Result<u64, ApiError> {
        let mut table = self.make_room(ip)?;
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let now = Instant::now();
        table.push(Session {
            id,
            ip,
            crowd: Some(crowd),
            started: now,
            last: now,
            _hold: hold,
        });
        Ok(id)
    }

    /// Takes session `id`'s crowd out for a step by `ip`.
    fn take(&self, id: u64, ip: IpAddr) -> Result<LiveCrowd, ApiError> {
        let mut table = self.table();
        let gone = || {
            ApiError::new(
                StatusCode::GONE,
                format!("live crowd {id} has ended (not stepped for {} s, older than {} min, or replaced by a new one): press Live again", live_idle().as_secs_f64(), LIVE_LIFETIME.as_secs() / 60),
            )
        };
        let session = table
            .iter_mut()
            .find(|s| s.id == id && s.ip == ip)
            .ok_or_else(gone)?;
        session.crowd.take().ok_or_else(|| {
            ApiError::new(
                StatusCode::CONFLICT,
                format!("live crowd {id} is being stepped: one step at a time"),
            )
        })
    }

    /// Puts session `id`'s crowd back after a step (dropped if the session ended meanwhile).
    fn put_back(&self, id: u64, crowd: LiveCrowd) {
        let mut table = self.table();
        if let Some(session) = table.iter_mut().find(|s| s.id == id) {
            session.crowd = Some(crowd);
            session.last = Instant::now();
        }
    }

    /// Ends session `id` (a step failed part-way).
    fn end(&self, id: u64) {
        self.table().retain(|s| s.id != id);
    }
}

/// `POST /api/crowd/live`: the client's live crowd started (its earlier one ended), and
/// `POST /api/crowd`'s answer with the first frame, plus `"session"`: the number to step it
/// by.
pub(super) async fn start(
    State(p): State<Arc<Playground>>,
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<CrowdRequest>,
) -> Result<Response, ApiError> {
    // Only its world's name is used: the crowd is built on the world on offer itself.
    let (_, cells) = crowd::world_of(&p, &req)?;
    // Refused before any work when other clients' crowds fill the table (this client's
    // old one ends here: a page that starts again wants the new one).
    drop(p.live().make_room(client.ip())?);
    let work = Work::start(&p, &client, Lane::for_work(4 * cells as u64)).await?;
    let hold = p
        // For its life: the world and a search, a step's frames and the paths sent.
        .reserve(
            crowd::bytes(req.agents, MAX_STEP_FRAMES, cells),
            "a live crowd",
            work.deadline(),
        )
        .await?;
    let (crowd, answer) = work
        .blocking(&p, move |p, cancel| {
            Ok(LiveCrowd::start(p.worlds(), &req, cancel)?)
        })
        .await?;
    let id = p.live().insert(client.ip(), crowd, hold)?;
    // The playground's answer is one JSON object: the session goes in first.
    let mut body = format!("{{\"session\":{id},").into_bytes();
    body.extend_from_slice(answer.get(1..).unwrap_or_default());
    Ok(held_json(StatusCode::OK, body, vec![body_hold]))
}

/// The session number of a step's query string (`session=N`), or the 400 saying what is
/// missing.
fn session_of(uri: &Uri) -> Result<u64, ApiError> {
    uri.query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("session="))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "a live crowd's step names its crowd: ?session=N, the number its start answered",
            )
        })
}

/// `POST /api/crowd/live/step?session=N`: the playground's step of that crowd.
pub(super) async fn step(
    State(p): State<Arc<Playground>>,
    uri: Uri,
    JsonRequest {
        client,
        req,
        body_hold,
    }: JsonRequest<StepRequest>,
) -> Result<Response, ApiError> {
    let session = session_of(&uri)?;
    let mut crowd = p.live().take(session, client.ip())?;
    let work = match Work::start(&p, &client, Lane::Cheap).await {
        Ok(work) => work,
        Err(e) => {
            p.live().put_back(session, crowd);
            return Err(e);
        }
    };
    let stepped = work
        .blocking(&p, move |_, cancel| {
            let answer = crowd.step(&req, cancel);
            Ok((crowd, answer))
        })
        .await;
    match stepped {
        Ok((crowd, Ok(answer))) => {
            p.live().put_back(session, crowd);
            Ok(held_json(StatusCode::OK, answer, vec![body_hold]))
        }
        // A refused request (no frames, a click in a wall…) leaves the crowd as it was.
        Ok((crowd, Err(e))) if !e.is_cancelled() => {
            p.live().put_back(session, crowd);
            Err(e.into())
        }
        // Cut short part-way (out of time, the client gone): the crowd ends.
        Ok((_, Err(e))) => {
            p.live().end(session);
            Err(e.into())
        }
        Err(e) => {
            p.live().end(session);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathsmooth::Cancel;

    /// A live crowd of one agent on the demo map.
    fn crowd() -> LiveCrowd {
        let worlds = pathsmooth_playground::Playground::<()>::new(Vec::new()).unwrap();
        let req: CrowdRequest = serde_json::from_str(r#"{"world": "demo", "agents": 1}"#).unwrap();
        LiveCrowd::start(&worlds, &req, &Cancel::new()).unwrap().0
    }

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, n])
    }

    /// One crowd a client: a new start ends the old one (its number is gone); at most
    /// [`MAX_LIVE_CROWDS`] clients' crowds, the next client refused with a 503 and
    /// `Retry-After`; a crowd is stepped by its own client only, one step at a time.
    #[test]
    fn one_live_crowd_a_client_and_a_bounded_table() {
        super::super::block_on(async {
            let live = LiveCrowds::default();
            let first = live.insert(ip(1), crowd(), Reservation::none()).unwrap();
            let second = live.insert(ip(1), crowd(), Reservation::none()).unwrap();
            assert_ne!(first, second);
            assert_eq!(
                live.take(first, ip(1)).unwrap_err().status(),
                StatusCode::GONE
            );
            // Someone else's number is no crowd of theirs.
            assert_eq!(
                live.take(second, ip(2)).unwrap_err().status(),
                StatusCode::GONE
            );
            let stepped = live.take(second, ip(1)).unwrap();
            let again = live.take(second, ip(1)).unwrap_err();
            assert_eq!(again.status(), StatusCode::CONFLICT, "{}", again.message());
            live.put_back(second, stepped);
            assert!(live.take(second, ip(1)).is_ok());
            for n in 2..=MAX_LIVE_CROWDS as u8 {
                live.insert(ip(n), crowd(), Reservation::none()).unwrap();
            }
            let full = live
                .insert(ip(100), crowd(), Reservation::none())
                .unwrap_err();
            assert_eq!(full.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert!(
                full.retry_after().is_some() && full.message().contains("8 live crowds"),
                "{}",
                full.message()
            );
            // A client with a crowd may start again: its old one makes the room.
            assert!(live.insert(ip(3), crowd(), Reservation::none()).is_ok());
            // A crowd that ended while stepped is not put back.
            live.end(second);
            assert_eq!(live.table().len(), MAX_LIVE_CROWDS - 1);
        });
    }
}
