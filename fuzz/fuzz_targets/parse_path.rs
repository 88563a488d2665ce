//! Any text given to the path-file parsers (JSON and CSV) is a path or an error; a path
//! that parses is written and read back to the same points.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pathsmooth::io::{parse_path, write_path, Format, PathData};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for format in [Format::Json, Format::Csv] {
        if let Ok(PathData::D2(points)) = parse_path(text, format, "fuzz") {
            let again = parse_path(&write_path(&points, format), format, "again").unwrap();
            assert_eq!(again, PathData::D2(points));
        }
    }
});
