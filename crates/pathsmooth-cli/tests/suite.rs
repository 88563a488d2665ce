//! The CLI's integration tests, one module per file beside this one (`tests/<name>.rs`),
//! built as one test binary whose tests the harness runs in parallel. Run one file's tests
//! with `cargo test -p pathsmooth-cli --test suite <name>::`. `tests/serve.rs` is its own
//! binary: it measures the server's CPU time and holds hundreds of connections, which tests
//! running beside it in one process would disturb.

mod support;

mod area_costs;
mod cli;
mod corpus;
mod crowd;
mod layered;
mod readme;
