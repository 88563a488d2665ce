//! cargo-fuzz target: see `checks::read_surface_bytes` for the property checked.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::read_surface_bytes(data));
