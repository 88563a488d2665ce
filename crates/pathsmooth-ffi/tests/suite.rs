//! The C ABI's integration tests, one module per file beside this one (`tests/<name>.rs`),
//! built as one test binary whose tests the harness runs in parallel. Run one file's tests
//! with `cargo test -p pathsmooth-ffi --test suite <name>::`.

mod common;

mod abi;
mod crowd;
mod header;
mod programs;
