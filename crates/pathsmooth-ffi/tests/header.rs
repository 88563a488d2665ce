//! The committed header is what cbindgen makes from the source now: CI fails when it is
//! stale. `PATHSMOOTH_BLESS=1 cargo test -p pathsmooth-ffi --test suite header::` rewrites it.

use std::path::Path;

#[test]
fn committed_header_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut fresh = Vec::new();
    cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not read the crate")
        .write(&mut fresh);
    let fresh = String::from_utf8(fresh).expect("UTF-8 header");
    let path = dir.join("include/pathsmooth.h");
    if std::env::var_os("PATHSMOOTH_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the header");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: regenerate it with `PATHSMOOTH_BLESS=1 cargo test -p pathsmooth-ffi --test suite header::` and commit it",
        path.display()
    );
}
