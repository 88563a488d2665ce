//! Cancellation: a token that long work checks, so that work nobody waits for any more
//! stops early with [`Error::Cancelled`] instead of running to its end (see [`Cancel`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::error::{Error, Result};

/// How many iterations of a long loop run between two checks of a [`Cancel`]: an atomic
/// load is cheap, but reading the clock for a deadline is about 20 ns, which an iteration
/// of the cheapest loops (a rejected line of sight) does not cost.
pub(crate) const CHECK_EVERY: u32 = 1024;

/// A cancellation token: a flag shared by its clones and an optional deadline.
///
/// The caller keeps one clone and hands another to the work
/// ([`Pipeline::set_cancel`](crate::Pipeline::set_cancel),
/// [`Shortcutter::set_cancel`](crate::Shortcutter::set_cancel),
/// [`World::find_path_cancellable_into`](crate::World::find_path_cancellable_into));
/// calling [`cancel`](Cancel::cancel) on any clone, or reaching the deadline, makes the
/// work stop at its next check with [`Error::Cancelled`]. Work checks between steps and,
/// inside the loops that can run long on large inputs (the grid search, the line-of-sight
/// shortcuts), every 1024 iterations, so it stops within that many iterations' work: a few
/// milliseconds.
///
/// Cost: cloning is one reference count; a check is one atomic load, plus one clock read
/// (about 20 ns) when there is a deadline.
///
/// ```
/// use std::time::{Duration, Instant};
/// use pathsmooth::{Cancel, Error};
/// let cancel = Cancel::new();
/// let seen_by_work = cancel.clone();
/// assert!(!seen_by_work.is_cancelled());
/// cancel.cancel();
/// assert!(seen_by_work.is_cancelled());
/// assert_eq!(seen_by_work.check(), Err(Error::Cancelled));
/// // A deadline in the past cancels at once.
/// let late = Cancel::new().with_deadline(Instant::now() - Duration::from_millis(1));
/// assert!(late.is_cancelled());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Cancel {
    /// A token that is not cancelled and has no deadline.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same token (its clones share the flag) that is also cancelled from `deadline`
    /// on.
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The deadline, if the token has one.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Cancels this token and every clone of it. Work that checks it stops at its next
    /// check; calling it again does nothing.
    pub fn cancel(&self) {
        // No data is published through the flag, only the request to stop: relaxed order
        // suffices, and the checking thread sees the store within a few iterations.
        self.flag.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called on any clone, or the deadline passed.
    pub fn is_cancelled(&self) -> bool {
        if self.flag.load(Ordering::Relaxed) {
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            // Clones without the deadline see it too from now on.
            self.cancel();
            return true;
        }
        false
    }

    /// `Err(`[`Error::Cancelled`]`)` when [`is_cancelled`](Self::is_cancelled), else `Ok`.
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Checks an optional token every [`CHECK_EVERY`] calls of [`stop`](Self::stop): what a
/// long loop holds to stay cheap when nobody cancels (and free when there is no token).
#[derive(Debug)]
pub(crate) struct Checkpoint<'a> {
    cancel: Option<&'a Cancel>,
    count: u32,
    stopped: bool,
}

impl<'a> Checkpoint<'a> {
    pub(crate) fn new(cancel: Option<&'a Cancel>) -> Self {
        Checkpoint {
            cancel,
            count: 0,
            stopped: false,
        }
    }

    /// True when the loop should stop: the token was found cancelled at this call or an
    /// earlier one (it is read on the first call and every [`CHECK_EVERY`]-th after).
    /// Inlined: it runs once per line-of-sight test, where a call showed as 1.2 % of the
    /// shortcut's time.
    #[inline]
    pub(crate) fn stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let Some(cancel) = self.cancel else {
            return false;
        };
        // The first call reads the token, so that work handed a cancelled token does not
        // start; then every CHECK_EVERY-th.
        if self.count == 0 {
            self.stopped = cancel.is_cancelled();
        }
        self.count = (self.count + 1) % CHECK_EVERY;
        self.stopped
    }

    /// Whether a call of [`stop`](Self::stop) returned true.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn clones_share_the_flag_and_the_deadline_sets_it() {
        let a = Cancel::new();
        let b = a
            .clone()
            .with_deadline(Instant::now() + Duration::from_secs(3600));
        assert!(!a.is_cancelled() && !b.is_cancelled());
        b.cancel();
        assert!(a.is_cancelled());
        let c = Cancel::new();
        let d = c.clone().with_deadline(Instant::now());
        assert!(d.is_cancelled());
        assert!(c.is_cancelled(), "a passed deadline cancels every clone");
    }

    #[test]
    fn a_checkpoint_reads_the_token_every_check_every_calls() {
        let cancel = Cancel::new();
        let mut point = Checkpoint::new(Some(&cancel));
        assert!(!point.stop());
        cancel.cancel();
        let calls = (1..=CHECK_EVERY).find(|_| point.stop()).unwrap();
        assert_eq!(
            calls, CHECK_EVERY,
            "read again CHECK_EVERY calls after the first"
        );
        let mut fresh = Checkpoint::new(Some(&cancel));
        assert!(fresh.stop(), "the first call reads the token");
        assert!(point.stop() && point.stopped());
        let mut none = Checkpoint::new(None);
        assert!((0..3 * CHECK_EVERY).all(|_| !none.stop()));
    }
}
