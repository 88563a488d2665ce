//! The reusable corridor `Solver` allocates nothing once its buffers have grown: checked
//! with a counting global allocator (counting per thread, so no other test interferes).

use crate::common;
use common::counting_alloc::allocations;
use pathsmooth::corridor::{Init, Solver, SolverParams, Stop};

#[test]
fn repeated_solves_do_not_allocate() {
    let big = common::corridor_ref::random_problem(1, 60);
    let small = common::corridor_ref::random_problem(2, 40);
    let options = [
        SolverParams::default(),
        SolverParams::chapter(100, 1.0, 1.0),
        SolverParams {
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
    let before = allocations();
    for o in &options {
        solver.solve(&big, o).unwrap();
        solver.solve(&small, o).unwrap();
        solver.solve(&small, o).unwrap();
        solver.solve_from(&small, o, Init::Previous).unwrap();
    }
    let after = allocations();
    assert_eq!(after - before, 0, "allocations in steady state");
    // The counter does see allocations.
    let v = std::hint::black_box(Vec::<u64>::with_capacity(16));
    assert!(allocations() > after);
    drop(v);
}
