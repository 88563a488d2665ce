//! The library's layers, checked from its source: every `crate::…` and `super::…` path in
//! the code (not in comments or docs, not in unit tests) is an import edge between
//! modules, and
//!
//! - no top-level module imports one of a higher layer (the table below, which
//!   `ARCHITECTURE.md` draws), and the edges within one layer have no circle;
//! - inside each folder module (`navmesh/`, `corridor/`, `curve/`, …) the submodules
//!   import each other without a circle.
//!
//! A violation names the file and line of the offending path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: a module may import its own layer (without a circle) and the
/// layers below it.
const LAYERS: &[&[&str]] = &[
    &["error", "cancel"],
    &["geometry", "area"],
    &["metrics", "curve", "grid"],
    &["io", "navmesh"],
    &["world"],
    &["validate"],
    &["shortcut", "map_safe", "fillet", "corridor"],
    &["pipeline", "follow", "crowd"],
];

/// One import: from module `from` (a path like `navmesh::mesh::los`) to `to`, seen at
/// `file:line`.
struct Edge {
    from: Vec<String>,
    to: Vec<String>,
    at: String,
}

#[test]
fn top_level_modules_respect_the_layers_and_have_no_circles() {
    let edges = edges();
    let rank = |m: &str| {
        LAYERS
            .iter()
            .position(|layer| layer.contains(&m))
            .unwrap_or_else(|| panic!("module `{m}` is in no layer of tests/architecture.rs"))
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    for e in &edges {
        let (a, b) = (&e.from[0], &e.to[0]);
        // `crate::GridWorld` names a root re-export: no module to attribute it to.
        let root_item = |m: &str| m == "lib" || m.starts_with(char::is_uppercase);
        if a == b || root_item(a) || root_item(b) {
            continue;
        }
        if rank(b) > rank(a) {
            problems.push(format!("{}: `{a}` imports `{b}`, a higher layer", e.at));
        }
        graph.entry(a.clone()).or_default().insert(b.clone());
    }
    if let Some(circle) = find_circle(&graph) {
        problems.push(format!("import circle: {}", circle.join(" → ")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The check sees the imports it should: a sample of edges that exist.
    assert!(graph["pipeline"].contains("world"));
    assert!(graph["world"].contains("navmesh"));
    assert!(graph["navmesh"].contains("geometry"));
}

#[test]
fn submodules_of_each_folder_have_no_circles() {
    let mut graphs: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for e in edges() {
        if e.from.len() < 2 || e.to.len() < 2 || e.from[0] != e.to[0] || e.from[1] == e.to[1] {
            continue;
        }
        graphs
            .entry(e.from[0].clone())
            .or_default()
            .entry(e.from[1].clone())
            .or_default()
            .insert(e.to[1].clone());
    }
    let circles: Vec<String> = graphs
        .iter()
        .filter_map(|(folder, g)| find_circle(g).map(|c| format!("{folder}: {}", c.join(" → "))))
        .collect();
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
    assert!(graphs["navmesh"]["search"].contains("mesh"));
}

#[test]
fn the_path_reader_sees_grouped_and_relative_imports() {
    let file = "use crate::{error::Result, geometry::cross};\nuse super::portals::Portal;\n\
                fn f() { crate::grid::los::bends(); }\n#[cfg(test)]\nmod tests {\n use crate::world::World;\n}\n";
    let module = vec!["navmesh".to_string(), "funnel".to_string()];
    let found: Vec<String> = paths_in(file, &module)
        .into_iter()
        .map(|(p, _)| p.join("::"))
        .collect();
    assert_eq!(
        found,
        [
            "error::Result",
            "geometry::cross",
            "navmesh::portals::Portal",
            "grid::los::bends"
        ]
    );
}

/// Every import edge of the library's source.
fn edges() -> Vec<Edge> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    assert!(files.len() > 40, "found only {} source files", files.len());
    let mut edges = Vec::new();
    for file in files {
        let module = module_of(&src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        for (to, line) in paths_in(&text, &module) {
            let at = format!("{}:{line}", file.strip_prefix(&src).unwrap().display());
            edges.push(Edge {
                from: module.clone(),
                to,
                at,
            });
        }
    }
    edges
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/navmesh/mesh/los.rs` → `[navmesh, mesh, los]`; `mod.rs` names its folder;
/// `lib.rs` is `[lib]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The crate paths named in `text` (the module `module`), as segments after `crate::`,
/// with their line numbers. Comment lines and everything after `#[cfg(test)] mod tests`
/// are skipped; `super::` is resolved against `module`.
fn paths_in(text: &str, module: &[String]) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    let mut statement = String::new();
    let mut statement_line = 0;
    while let Some((i, line)) = lines.next() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        if code.starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|(_, l)| l.trim_start().starts_with("mod tests"))
        {
            break;
        }
        // A `use` statement may span lines: gather it up to its `;`.
        if statement.is_empty() && is_use(code) && !code.contains(';') {
            statement_line = i + 1;
            statement.push_str(code);
            continue;
        }
        if !statement.is_empty() {
            statement.push(' ');
            statement.push_str(code);
            if !code.contains(';') {
                continue;
            }
            let s = std::mem::take(&mut statement);
            scan(&s, module, statement_line, &mut out);
            continue;
        }
        scan(code, module, i + 1, &mut out);
    }
    out
}

/// True for the first line of a `use` statement (`use …`, `pub use …`, `pub(crate) use …`).
fn is_use(code: &str) -> bool {
    let rest = match code.strip_prefix("pub") {
        Some(r) if r.starts_with('(') => r.find(')').map_or("", |k| &r[k + 1..]),
        Some(r) => r,
        None => code,
    };
    rest.trim_start().starts_with("use ")
}

/// The paths in one line or statement: `crate::a::b`, `super::a`, and groups
/// `crate::{a::x, b::y}`.
fn scan(code: &str, module: &[String], line: usize, out: &mut Vec<(Vec<String>, usize)>) {
    for (root, resolved) in [("crate::", Vec::new()), ("super::", parent(module))] {
        let mut rest = code;
        while let Some(k) = rest.find(root) {
            // `self::super::…` or an identifier ending in `crate` is not a root.
            let before = rest[..k].chars().last();
            rest = &rest[k + root.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            for tail in expand(rest) {
                let mut path = resolved.clone();
                path.extend(tail);
                if !path.is_empty() {
                    out.push((path, line));
                }
            }
        }
    }
}

/// The module a `super::` in `module` names (a folder's `mod.rs` is the folder itself,
/// so its parent is the folder's parent, as for any other file).
fn parent(module: &[String]) -> Vec<String> {
    module[..module.len().saturating_sub(1)].to_vec()
}

/// The paths after a root: `a::b::c` → `[[a, b, c]]`, `{a::x, b::{y, z}}` → one per
/// leaf (only their first segments matter to the checks).
fn expand(rest: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    if let Some(inner) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut items = Vec::new();
        let mut start = 0;
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    items.push(&inner[start..k]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&inner[start..k]);
                    start = k + 1;
                }
                _ => {}
            }
        }
        return items
            .into_iter()
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "self")
            .flat_map(|s| expand(s).into_iter().take(1))
            .collect();
    }
    let mut path = Vec::new();
    let mut s = rest;
    loop {
        let id = ident(s);
        if id.is_empty() {
            break;
        }
        s = &s[id.len()..];
        path.push(id);
        match s.strip_prefix("::") {
            Some(t) if !t.starts_with('{') => s = t,
            _ => break,
        }
    }
    vec![path]
}

/// A circle in a directed graph, as the modules along it (the first repeated last).
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(n.to_string(), Mark::Open);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match marks.get(m).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = stack.iter().position(|s| s == m).unwrap();
                    let mut circle = stack[from..].to_vec();
                    circle.push(m.clone());
                    return Some(circle);
                }
                Mark::New => {
                    if let Some(c) = visit(m, graph, marks, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(n.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for n in graph.keys() {
        if marks.get(n).copied().unwrap_or(Mark::New) == Mark::New
            && let Some(c) = visit(n, graph, &mut marks, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}
