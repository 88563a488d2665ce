//! cargo-fuzz target: see `checks::scene_json` for the property checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::scene_json(data));
