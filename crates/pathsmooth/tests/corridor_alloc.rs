//! The reusable corridor `Solver` allocates nothing once its buffers have grown: checked
//! with a counting global allocator (its own test binary, so no other test interferes).

#[path = "support/corridor_ref.rs"]
mod corridor_ref;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use pathsmooth::corridor::optimize::{Init, Solver, SolverOptions, Stop};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn repeated_solves_do_not_allocate() {
    let big = corridor_ref::random_problem(1, 60);
    let small = corridor_ref::random_problem(2, 40);
    let options = [
        SolverOptions::default(),
        SolverOptions::chapter(100, 1.0, 1.0),
        SolverOptions {
            acceleration: 0.05,
            record_energy: true,
            stop: Stop::Iterations(100),
            ..Default::default()
        },
    ];
    let mut solver = Solver::new();
    for o in &options {
        solver.solve(&big, o).unwrap(); // grow the buffers
    }
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for o in &options {
        solver.solve(&big, o).unwrap();
        solver.solve(&small, o).unwrap();
        solver.solve(&small, o).unwrap();
        solver.solve_from(&small, o, Init::Previous).unwrap();
    }
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(after - before, 0, "allocations in steady state");
    // The counter does see allocations.
    let v = std::hint::black_box(Vec::<u64>::with_capacity(16));
    assert!(ALLOCATIONS.load(Ordering::SeqCst) > after);
    drop(v);
}
