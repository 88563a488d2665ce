//! The "allocates nothing" tests, one module per file beside this one, built as one test
//! binary with the counting global allocator of `common::counting_alloc` (the library's
//! other integration tests are `tests/suite.rs`). Allocations are counted per thread, so the
//! tests of this binary running beside each other do not disturb each other's counts. Run
//! one file's tests with `cargo test -p pathsmooth --all-features --test alloc <name>::`.

mod common;

#[global_allocator]
static GLOBAL: common::counting_alloc::Counting = common::counting_alloc::Counting;

mod alloc_catmull_rom;
mod alloc_chaikin;
mod corridor_alloc;
mod follow_alloc;
mod navmesh_polyanya;
mod pipeline_alloc;
