//! A tally of the work the import's spatial searches do (index nodes visited, candidates
//! handed to an exact test), counted in unit tests only: the tests of the adversarial
//! layouts (`navmesh/abuse_tests.rs`) assert that it grows linearly with the input, a
//! measure of complexity that no machine load can make flaky. Outside tests, [`tally`] is
//! empty and compiles to nothing.

#[cfg(test)]
thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `n` units of work on this thread (unit tests only).
#[inline(always)]
pub(crate) fn tally(n: usize) {
    #[cfg(test)]
    WORK.with(|w| w.set(w.get() + n as u64));
    #[cfg(not(test))]
    let _ = n;
}

/// The work counted on this thread since the last call, and the count reset.
#[cfg(test)]
pub(crate) fn take() -> u64 {
    WORK.with(|w| w.replace(0))
}
