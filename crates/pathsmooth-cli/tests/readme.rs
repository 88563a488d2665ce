//! The root README's examples against the program they describe: every option of every
//! `pathsmooth …` line in its command-line block is one the subcommand accepts (read from
//! its `--help`), and the API example names a world the playground has. (Its Rust example
//! runs as a doctest of the library: `RootReadmeDoctests` in the library's `lib.rs`.)

use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap()
}

/// The lines of the fenced block that follows the heading `heading`.
fn block_after(text: &str, heading: &str) -> Vec<String> {
    let mut lines = text.lines().skip_while(|l| l.trim() != heading);
    lines.find(|l| l.starts_with("```")).expect("a code block");
    lines
        .take_while(|l| !l.starts_with("```"))
        .map(str::to_string)
        .collect()
}

fn help(subcommand: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pathsmooth"))
        .args([subcommand, "--help"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pathsmooth {subcommand} --help failed"
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_option_in_the_readme_exists() {
    let lines = block_after(&readme(), "## Command line");
    assert!(lines.len() >= 8, "{lines:?}");
    let mut checked = 0;
    for line in &lines {
        let mut words = line.split_whitespace();
        assert_eq!(words.next(), Some("pathsmooth"), "{line}");
        let sub = words.next().unwrap();
        let help = help(sub);
        for word in line.split(|c: char| c.is_whitespace() || "[]|".contains(c)) {
            if let Some(option) = word.strip_prefix("--") {
                let option = option.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '-');
                assert!(
                    help.contains(&format!("--{option}")),
                    "`pathsmooth {sub}` has no --{option} (README line: {line})"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "only {checked} options found");
}

#[test]
fn the_api_example_names_a_world_the_playground_has() {
    let text = readme();
    let at = text.find("`{\"world\": \"").expect("the API example");
    let name: String = text[at + 12..].chars().take_while(|&c| c != '"').collect();
    let playground = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../pathsmooth-playground/src/world.rs"
    ))
    .unwrap();
    let example = playground
        .lines()
        .find(|l| l.starts_with("pub const EXAMPLE_WORLD"))
        .expect("the example world's constant");
    assert!(
        example.contains(&format!("(\"{name}\"")),
        "the README's API example names world `{name}`, the playground's example is: {example}"
    );
}
