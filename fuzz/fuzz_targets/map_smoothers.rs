//! cargo-fuzz target: see `checks::map_smoothers` for the property checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::map_smoothers(data));
