//! The clients' live crowds kept between requests ([`live`](super::live) serves them):
//! at most [`MAX_LIVE_CROWDS`], one a client, each with its memory reserved for its life,
//! ended when not stepped for [`live_idle`] or [`LIVE_LIFETIME`] after its start. The
//! server's state holds the table; the handlers take a crowd out for a step and put it
//! back.

use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use axum::http::StatusCode;
use pathsmooth_playground::live::LiveCrowd;
use tokio::time::Instant;

use super::budget::Reservation;
use super::error::ApiError;
use super::limits;

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
    *IDLE.get_or_init(|| limits::millis_from_env("PATHSMOOTH_LIVE_IDLE_MS", LIVE_IDLE))
}

/// One client's live crowd.
struct Session {
    id: u64,
    ip: IpAddr,
    /// `None` while a step runs (the crowd is on a worker).
    crowd: Option<LiveCrowd>,
    /// Its start and [`LIVE_LIFETIME`].
    ends: Instant,
    /// The end of its last request.
    last: Instant,
    /// Its memory, reserved for its life.
    _hold: Reservation,
}

impl Session {
    /// Not stepped for [`live_idle`], or older than [`LIVE_LIFETIME`]. A crowd out on a
    /// step counts as idle only past the longest a step may take besides: a step whose
    /// client left took the crowd with it (the handler is dropped before it can put the
    /// crowd back or end the session), and its place must not be held for good.
    fn expired(&self, now: Instant) -> bool {
        let idle = match self.crowd {
            Some(_) => live_idle(),
            None => live_idle() + limits::work_timeout(),
        };
        now.duration_since(self.last) > idle || now > self.ends
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

    /// Ends `ip`'s live crowd, if any, and checks that the table has room for a new one:
    /// what a start asks before its work.
    pub(super) fn check_room(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.make_room(ip).map(drop)
    }

    /// Keeps `crowd` for `ip` (ending its earlier one) and returns its session number, or
    /// [`make_room`](Self::make_room)'s 503.
    pub(super) fn insert(
        &self,
        ip: IpAddr,
        crowd: LiveCrowd,
        hold: Reservation,
    ) -> Result<u64, ApiError> {
        let mut table = self.make_room(ip)?;
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let now = Instant::now();
        table.push(Session {
            id,
            ip,
            crowd: Some(crowd),
            ends: now + LIVE_LIFETIME,
            last: now,
            _hold: hold,
        });
        Ok(id)
    }

    /// Takes session `id`'s crowd out for a step by `ip`.
    pub(super) fn take(&self, id: u64, ip: IpAddr) -> Result<LiveCrowd, ApiError> {
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
    pub(super) fn put_back(&self, id: u64, crowd: LiveCrowd) {
        let mut table = self.table();
        if let Some(session) = table.iter_mut().find(|s| s.id == id) {
            session.crowd = Some(crowd);
            session.last = Instant::now();
        }
    }

    /// Ends session `id` (a step failed part-way).
    pub(super) fn end(&self, id: u64) {
        self.table().retain(|s| s.id != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathsmooth::Cancel;
    use pathsmooth_playground::crowd::CrowdRequest;

    /// A live crowd of one agent on the demo map.
    fn crowd() -> LiveCrowd {
        let worlds = pathsmooth_playground::Playground::<()>::new(Vec::new()).unwrap();
        let req: CrowdRequest = serde_json::from_str(r#"{"world": "demo", "agents": 1}"#).unwrap();
        let named = pathsmooth_playground::crowd::world_of(&worlds, &req).unwrap();
        LiveCrowd::start(&req, named, &Cancel::new()).unwrap().0
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

    /// A crowd ends when not stepped for the idle time; one out on a step whose client left
    /// (taken, never put back) once no step could still be running: the idle time and the
    /// work deadline besides; any crowd at its lifetime. Each a moment before, it stays.
    #[test]
    fn idle_crowds_end_and_a_step_left_mid_way_gives_its_place_back() {
        super::super::block_on(async {
            let live = LiveCrowds::default();
            let ago = |d: Duration| Instant::now().checked_sub(d).unwrap();
            let second = Duration::from_secs(1);
            let (idle, out) = (live_idle(), live_idle() + limits::work_timeout());
            let ids: Vec<u64> = (1..=4)
                .map(|n| live.insert(ip(n), crowd(), Reservation::none()).unwrap())
                .collect();
            // Crowds 3 and 4 are out on steps whose handlers were dropped.
            let _lost = (
                live.take(ids[2], ip(3)).unwrap(),
                live.take(ids[3], ip(4)).unwrap(),
            );
            let set = |id: u64, last: Instant, ends: Instant| {
                let mut table = live.table.lock().unwrap();
                let s = table.iter_mut().find(|s| s.id == id).unwrap();
                (s.last, s.ends) = (last, ends);
            };
            let (now, later) = (Instant::now(), Instant::now() + LIVE_LIFETIME);
            set(ids[0], ago(idle - second), later);
            set(ids[1], ago(idle + second), later);
            set(ids[2], ago(out - second), later);
            set(ids[3], ago(out + second), later);
            let kept = |live: &LiveCrowds| live.table().iter().map(|s| s.id).collect::<Vec<_>>();
            assert_eq!(kept(&live), [ids[0], ids[2]]);
            // Stepped a moment ago, but older than the lifetime.
            set(ids[0], now, ago(second));
            assert_eq!(kept(&live), [ids[2]]);
        });
    }
}
