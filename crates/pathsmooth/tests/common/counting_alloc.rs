//! A counting global allocator for the "allocates nothing" tests. Their test binary
//! (`tests/alloc.rs`) installs it in one line:
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: common::counting_alloc::Counting = common::counting_alloc::Counting;
//! ```
//!
//! Allocations are counted per thread, so the test harness's own threads (and other tests
//! running beside the one measured) cannot disturb the count; the code measured must
//! therefore run on the calling thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting every allocation and reallocation on the current thread.
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: the thread-local may be gone while a thread is being torn down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations made so far on this thread.
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// Allocations made by `f` on this thread, with `f`'s result.
pub fn allocations_during<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = allocations();
    let r = f();
    (allocations() - before, r)
}
