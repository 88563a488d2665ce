//! cargo-fuzz target: see `checks::parse_detour_binary` for the property checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::parse_detour_binary(data));
