//! The CLI tests' one shared module: running the binary and judging its output. Declared by
//! `tests/suite.rs`; each test file takes what it needs with `use crate::support;`.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The library tests' seeded generator (xorshift64*), shared so that both suites draw
/// their random cases the same way.
#[path = "../../../pathsmooth/tests/common/rng.rs"]
pub mod rng;

/// The map methods `plan` runs when `--method` is not given (every one but `fillet`), in
/// the order its table prints them and the demo's sheet draws them.
pub const GRID_PLAN_METHODS: [&str; 9] = [
    "astar",
    "shortcut",
    "chaikin",
    "catmull-rom",
    "shortcut-chaikin",
    "shortcut-catmull-rom",
    "funnel",
    "relax",
    "corridor",
];

/// The `pathsmooth` binary, ready for arguments.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pathsmooth"))
}

/// Runs the binary with these arguments.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> Output {
    bin().args(args).output().expect("binary starts")
}

/// A fresh folder for one test's files (`prefix` keeps test files apart).
pub fn tmp_dir(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pathsmooth-cli-{prefix}-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that the run succeeded, showing its stderr when it did not.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What a successful run printed.
pub fn stdout(out: &Output) -> String {
    assert_success(out);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A failed run: non-zero exit, exactly one line on stderr that says `error`, no panic;
/// the line.
pub fn assert_clean_failure(out: &Output) -> String {
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.trim_end().lines().count(), 1, "stderr: {err}");
    assert!(err.contains("error"), "stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
    err
}

/// The cells of the row of a printed table whose first cell is `first` (the method's or
/// scenario's name), split at whitespace; panics showing the table when there is none.
pub fn table_row<'a>(table: &'a str, first: &str) -> Vec<&'a str> {
    let row = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(first))
        .unwrap_or_else(|| panic!("no row {first}: {table}"));
    row.split_whitespace().collect()
}
