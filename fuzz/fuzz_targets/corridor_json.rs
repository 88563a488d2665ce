//! Any text given to the corridor / problem parser is a problem or an error; a problem that
//! parses is solved (a few iterations) without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pathsmooth::corridor::optimize::{optimize, SolverParams, Stop};
use pathsmooth::corridor::problem::{Problem, ProblemParams};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(problem) = Problem::from_any_json(text, &ProblemParams::default()) {
        if problem.len() <= 1000 {
            let params = SolverParams {
                stop: Stop::Iterations(20),
                ..SolverParams::default()
            };
            let _ = optimize(&problem, &params);
        }
    }
});
