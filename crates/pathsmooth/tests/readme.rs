//! The crate README's quick start is the crate docs' quick start, character for character
//! (the README's copy runs as a doctest too, through `ReadmeDoctests` in `lib.rs`).

/// The first fenced code block after the "Quick start" heading, each line without
/// `prefix` (and the one space after it).
fn quick_start(text: &str, prefix: &str) -> String {
    let mut lines = text.lines().map(|l| {
        let l = l.strip_prefix(prefix).unwrap_or(l);
        l.strip_prefix(' ')
            .filter(|_| !prefix.is_empty())
            .unwrap_or(l)
            .trim_end()
    });
    lines
        .find(|l| l.ends_with("Quick start"))
        .expect("a Quick start heading");
    lines.find(|l| l.starts_with("```")).expect("a code block");
    lines
        .take_while(|l| !l.starts_with("```"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn readme_quick_start_is_the_crate_docs_quick_start() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{dir}/README.md")).unwrap();
    let lib = std::fs::read_to_string(format!("{dir}/src/lib.rs")).unwrap();
    let (readme, lib) = (quick_start(&readme, ""), quick_start(&lib, "//!"));
    assert!(readme.contains("Pipeline::preset"), "{readme}");
    assert_eq!(readme, lib);
}
