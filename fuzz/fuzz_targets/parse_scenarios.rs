//! Any text given to the Moving AI scenario parser is a list of scenarios or an error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = pathsmooth::grid::parse_scenarios(text, "fuzz.scen");
    }
});
