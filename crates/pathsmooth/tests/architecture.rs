//! The import structure of the workspace's crates, checked from their source. Every path
//! in the code (not in comments or docs, not in unit tests) that names something of its
//! own crate — `crate::…`, `super::…`, `self::…`, and a `use` path that starts at a
//! submodule or a name the module imported — is an import edge from the file's module to
//! the module that defines the name. Names are followed through `use`s, so `super::Thing`,
//! where the folder's `mod.rs` says `pub use inner::Thing`, imports `inner`. Then
//!
//! - in the library, no top-level module imports one of a higher layer (the table below,
//!   which `ARCHITECTURE.md` draws);
//! - in every crate (the library, the CLI, the C ABI, the Python binding, the baker, the
//!   crowd benchmark's scenarios; every folder of `crates/` is one of them) and in
//!   every folder at any depth — the crate root, `navmesh/`, `navmesh/import/`, the CLI's
//!   `serve/`, … — the folder's direct children import each other without a circle. An
//!   import between deeper modules counts for the children of the deepest folder both are
//!   in: `navmesh/import/obj.rs` importing `navmesh/mesh/los.rs` is the edge
//!   `import → mesh` of `navmesh/`. (A module importing its own folder or a module inside
//!   itself is no edge between children, so it is not checked.)
//!
//! A violation names the file and line of each offending import.
//!
//! A glob `use a::*` is followed too: a name a module does not define or bind itself is
//! looked up in the modules its globs bring in (what a module defines is read from the
//! items that start a line: `pub fn x`, `struct X`, …, as rustfmt writes them). Not
//! followed: an inline `mod m { … }` other than the unit tests (the sources have none). A
//! crate's `lib.rs` and `main.rs` are both its root.

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

/// The crates whose folders must have no import circle (the library is the first).
const CRATES: &[&str] = &[
    "pathsmooth",
    "pathsmooth-cli",
    "pathsmooth-ffi",
    "pathsmooth-py",
    "pathsmooth-bake",
    "pathsmooth-scenarios",
    "pathsmooth-wasm",
    "pathsmooth-playground",
    "pathsmooth-playground-wasm",
];

#[test]
fn top_level_modules_respect_the_layers() {
    let graphs = folder_graphs(&read_crate("pathsmooth").edges);
    let top = &graphs[&Vec::new()];
    let rank = |m: &str| {
        LAYERS
            .iter()
            .position(|layer| layer.contains(&m))
            .unwrap_or_else(|| panic!("module `{m}` is in no layer of tests/architecture.rs"))
    };
    let mut problems = Vec::new();
    for (a, imports) in top {
        for (b, at) in imports {
            if rank(b) > rank(a) {
                problems.push(format!("{at}: `{a}` imports `{b}`, a higher layer"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The check sees the imports it should: a sample of edges that exist.
    assert!(top["pipeline"].contains_key("world"));
    assert!(top["world"].contains_key("navmesh"));
    assert!(top["navmesh"].contains_key("geometry"));
}

#[test]
fn no_folder_of_any_crate_has_an_import_circle() {
    let mut circles = Vec::new();
    let mut graphs = BTreeMap::new();
    for name in CRATES {
        let krate = read_crate(name);
        let folders = folder_graphs(&krate.edges);
        for (folder, graph) in &folders {
            if let Some(circle) = find_circle(graph) {
                circles.push(describe(name, folder, graph, &circle));
            }
        }
        graphs.insert(*name, folders);
    }
    assert!(circles.is_empty(), "{}", circles.join("\n"));
    // The check sees every depth and the CLI: a sample of edges that exist.
    let folder = |s: &str| -> Vec<String> { s.split('/').map(String::from).collect() };
    let library = &graphs["pathsmooth"];
    assert!(library[&folder("navmesh")]["search"].contains_key("mesh"));
    assert!(library[&folder("navmesh/layered")]["query"].contains_key("sheet"));
    // Through `navmesh`'s glob front door: `layered` names `crate::navmesh::NavMeshQuery`.
    assert!(library[&folder("navmesh")]["layered"].contains_key("search"));
    let cli = &graphs["pathsmooth-cli"];
    assert!(cli[&Vec::new()]["cmd"].contains_key("serve"));
    let playground = &graphs["pathsmooth-playground"][&Vec::new()];
    assert!(playground["plan"].contains_key("world"));
    assert!(playground["route"].contains_key("crowd"));
    assert!(cli[&folder("serve")]["conn"].contains_key("limits"));
    assert!(graphs["pathsmooth-scenarios"][&Vec::new()]["scenario"].contains_key("watch"));
}

/// A new crate is checked as soon as it exists: every folder of `crates/` is in [`CRATES`].
#[test]
fn every_crate_of_the_workspace_is_checked() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.join("Cargo.toml").is_file() && !CRATES.contains(&name.as_str()) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "crates not in tests/architecture.rs's CRATES: {missing:?}"
    );
}

/// One module layout: a module with sub-modules is a folder with a `mod.rs`, never a file
/// `x.rs` beside a folder `x/` (both forms compile; a reader should not have to look for
/// two).
#[test]
fn every_module_with_children_is_a_folder_with_a_mod_rs() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut both = Vec::new();
    for name in CRATES {
        let mut files = Vec::new();
        collect(&crates.join(name).join("src"), &mut files);
        for file in &files {
            let stem = file.file_stem().unwrap().to_string_lossy();
            if !["mod", "lib", "main"].contains(&stem.as_ref()) && file.with_extension("").is_dir()
            {
                both.push(file.strip_prefix(&crates).unwrap().display().to_string());
            }
        }
        assert!(!files.is_empty(), "{name}: no source files under src/");
    }
    assert!(
        both.is_empty(),
        "files beside a folder of the same name (make them the folder's mod.rs): {both:?}"
    );
}

/// Scratch belongs to the object that runs the work (a step, a query, a world's
/// `World::Query`), never to the thread: a `thread_local!` in the library hides memory that
/// no caller can free or size, and breaks when work moves between threads. (A counter
/// under `#[cfg(test)]`, instrumentation of the unit tests, is not the library's.)
#[test]
fn the_library_keeps_no_thread_local_state() {
    let found = library_lines_where(|lines, i| {
        let for_tests = i > 0 && lines[i - 1].trim() == "#[cfg(test)]";
        !lines[i].trim_start().starts_with("//") && lines[i].contains("thread_local!") && !for_tests
    });
    assert!(found.is_empty(), "thread_local! in the library: {found:?}");
}

/// `file:line` of every line `i` of the library's sources for which `keep(lines, i)`.
fn library_lines_where(keep: impl Fn(&[&str], usize) -> bool) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    collect(&src, &mut paths);
    assert!(paths.len() >= 100, "the library's sources were not found");
    paths
        .iter()
        .flat_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let found: Vec<String> = (0..lines.len())
                .filter(|&i| keep(&lines, i))
                .map(|i| format!("{}:{}", p.display(), i + 1))
                .collect();
            found
        })
        .collect()
}

/// Each module lists by name what it makes public (ARCHITECTURE.md, "Front doors"): a
/// glob re-export makes public whatever its module later adds, and hides which module a
/// name comes from.
#[test]
fn the_library_re_exports_by_name_not_by_glob() {
    let globs = library_lines_where(|lines, i| {
        let l = lines[i].trim();
        l.starts_with("pub use ") && l.ends_with("::*;")
    });
    assert!(
        globs.is_empty(),
        "glob re-exports in the library: {globs:?}"
    );
}

#[test]
fn paths_are_read_from_code_and_from_use_trees() {
    let file = "\
use crate::{error::Result, geometry::{cross, Point as P}};
use super::portals::{self, Portal};
use std::fmt::Write as _;
// crate::commented::Out
fn f() { crate::grid::los::bends::<f64>(); let _ = self::super::x::Y; }
#[cfg(test)]
fn helper() {
    crate::world::World::new();
}
#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod tests {
    use crate::world::World;
}
";
    let parsed = parse(file);
    let found: Vec<String> = parsed
        .found
        .iter()
        .map(|f| match &f.binds {
            Some(name) => format!("{} as {name} @{}", f.path.join("::"), f.line),
            None => format!("{} @{}", f.path.join("::"), f.line),
        })
        .collect();
    assert_eq!(
        found,
        [
            "crate::error::Result as Result @1",
            "crate::geometry::cross as cross @1",
            "crate::geometry::Point as P @1",
            "super::portals as portals @2",
            "super::portals::Portal as Portal @2",
            "std::fmt::Write @3",
            "crate::grid::los::bends @5",
            "self::super::x::Y @5",
        ]
    );
    assert_eq!(parsed.test_modules, ["fixtures"]);
}

#[test]
fn imports_resolve_at_depth_and_count_for_the_folder_both_are_in() {
    // `a::x` imports `b::y` with `super::super`; `b::y` imports `a`'s re-export of
    // `a::x::Thing` with a `use` relative to a name `b` imported: a circle `a → b → a` in
    // the crate root, invisible at the depth of either file.
    let krate = crate_of(
        "made",
        vec![
            ("lib.rs".into(), "mod a;\nmod b;\n".into()),
            ("a.rs".into(), "mod x;\npub use x::Thing;\n".into()),
            (
                "a/x.rs".into(),
                "pub struct Thing;\nfn f() { super::super::b::y::g(); }\n".into(),
            ),
            ("b/mod.rs".into(), "mod y;\nmod z;\nuse crate::a;\n".into()),
            (
                "b/y.rs".into(),
                "use super::a::Thing;\npub fn g() {}\n".into(),
            ),
            ("b/z.rs".into(), "use super::y::g;\n".into()),
        ],
    );
    let edges = edge_lines(&krate);
    assert_eq!(
        edges,
        [
            "a → a::x at made/src/a.rs:2",
            "a::x → b::y at made/src/a/x.rs:2",
            "b → a at made/src/b/mod.rs:3",
            "b::y → a::x at made/src/b/y.rs:1",
            "b::z → b::y at made/src/b/z.rs:1",
        ]
    );
    let graphs = folder_graphs(&krate.edges);
    let top = &graphs[&Vec::new()];
    let circle = find_circle(top).unwrap();
    assert_eq!(circle, ["a", "b", "a"]);
    assert_eq!(
        describe("made", &[], top, &circle),
        "made src/: import circle a → b → a\n  \
         a → b at made/src/a/x.rs:2\n  \
         b → a at made/src/b/mod.rs:3"
    );
    assert_eq!(find_circle(&graphs[&vec!["b".to_string()]]), None);
}

/// Each import edge of `krate` as a line `from → to at file:line`.
fn edge_lines(krate: &Crate) -> Vec<String> {
    krate
        .edges
        .iter()
        .map(|e| format!("{} → {} at {}", e.from.join("::"), e.to.join("::"), e.at))
        .collect()
}

#[test]
fn names_behind_glob_re_exports_resolve_to_their_module() {
    // The front door `n/mod.rs` re-exports its children by globs (as `navmesh/` does);
    // `n::p` names `Query` through it, defined in `n::q`, which names `Sheet` from `n::p`
    // the same way: a circle `p → q → p` in `n/` that only the globs show. Names the
    // module defines itself (`Own`) stay there; a submodule comes through a glob too.
    let krate = crate_of(
        "made",
        vec![
            ("lib.rs".into(), "mod n;\n".into()),
            (
                "n/mod.rs".into(),
                "mod p;\nmod q;\nmod r;\npub use p::*;\npub use q::*;\npub struct Own;\n".into(),
            ),
            (
                "n/p.rs".into(),
                "use crate::n::Query;\npub struct Sheet;\nfn f() { let _ = crate::n::Own; }\n"
                    .into(),
            ),
            (
                "n/q.rs".into(),
                "pub mod deep;\nuse super::Sheet;\npub struct Query;\nfn own() {}\n".into(),
            ),
            ("n/q/deep.rs".into(), "pub const DEEP: u8 = 1;\n".into()),
            ("n/r.rs".into(), "use super::deep::DEEP;\n".into()),
        ],
    );
    let edges = edge_lines(&krate);
    assert_eq!(
        edges,
        [
            "n → n::p at made/src/n/mod.rs:4",
            "n → n::q at made/src/n/mod.rs:5",
            "n::p → n::q at made/src/n/p.rs:1",
            "n::p → n at made/src/n/p.rs:3",
            "n::q → n::p at made/src/n/q.rs:2",
            "n::r → n::q::deep at made/src/n/r.rs:1",
        ]
    );
    let graphs = folder_graphs(&krate.edges);
    let circle = find_circle(&graphs[&vec!["n".to_string()]]).unwrap();
    assert_eq!(circle, ["p", "q", "p"]);
}

#[test]
fn the_circle_finder_finds_circles_and_only_circles() {
    let graph = |edges: &[(&str, &str)]| -> Graph {
        let mut g = Graph::new();
        for (a, b) in edges {
            g.entry(a.to_string())
                .or_default()
                .insert(b.to_string(), String::new());
        }
        g
    };
    // A diamond and a chain: no circle.
    let dag = graph(&[("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "e")]);
    assert_eq!(find_circle(&dag), None);
    // Three steps round, off a node that is not on the circle.
    let round = graph(&[("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")]);
    assert_eq!(find_circle(&round).unwrap(), ["b", "c", "d", "b"]);
    assert_eq!(find_circle(&graph(&[("a", "a")])).unwrap(), ["a", "a"]);
}

/// A module, as its path from the crate root (`[navmesh, mesh, los]`; the root is `[]`).
type Module = Vec<String>;

/// One import: from module `from` to the module `to` that defines what it names, seen at
/// `at` (`crate/src/file.rs:line`).
struct Edge {
    from: Module,
    to: Module,
    at: String,
}

/// One folder's children and the imports between them: `from → to → at`, the first such
/// import in file order.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// One crate's import edges.
struct Crate {
    edges: Vec<Edge>,
}

/// The crate `crates/<name>`, read from its `src/`.
fn read_crate(name: &str) -> Crate {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src");
    let mut paths = Vec::new();
    collect(&src, &mut paths);
    paths.sort();
    let files: Vec<(PathBuf, String)> = paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p.strip_prefix(&src).unwrap().to_path_buf(), text)
        })
        .collect();
    // A miscounted folder would pass every check: the crates that have folders are read.
    let least = match name {
        "pathsmooth" => 100,
        "pathsmooth-cli" => 25,
        _ => 1,
    };
    assert!(
        files.len() >= least,
        "{name}: found only {} source files",
        files.len()
    );
    crate_of(name, files)
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

/// The crate made of `files` (paths relative to `src/`, and their text).
fn crate_of(name: &str, files: Vec<(PathBuf, String)>) -> Crate {
    let parsed: Vec<(Module, String, Parsed)> = files
        .iter()
        .map(|(rel, text)| {
            let at = format!("{name}/src/{}", rel.display());
            (module_of(rel), at, parse(text))
        })
        .collect();
    // Modules declared `#[cfg(test)] mod m;` are unit tests: left out with their files.
    let tests: Vec<Module> = parsed
        .iter()
        .flat_map(|(m, _, p)| {
            p.test_modules
                .iter()
                .map(|t| [m.clone(), vec![t.clone()]].concat())
        })
        .collect();
    let parsed: Vec<_> = parsed
        .into_iter()
        .filter(|(m, _, _)| !tests.iter().any(|t| m.starts_with(t)))
        .collect();
    let mut modules: BTreeSet<Module> = BTreeSet::new();
    for (m, _, _) in &parsed {
        for k in 0..=m.len() {
            modules.insert(m[..k].to_vec());
        }
    }
    // What each module's `use`s bring into it from the crate, and where each name points.
    // A relative `use` path may start at a name another `use` brought in, so the names
    // grow until they settle; `use glam;` brings in another crate, never a name of this one.
    let items = parsed
        .iter()
        .flat_map(|(m, _, p)| {
            p.items
                .iter()
                .map(|(i, public)| ((m.clone(), i.clone()), *public))
        })
        .collect();
    let public_uses = parsed
        .iter()
        .flat_map(|(m, _, p)| {
            p.found
                .iter()
                .filter(|f| f.public)
                .filter_map(|f| Some((m.clone(), f.binds.clone()?)))
        })
        .collect();
    let mut names = Names {
        modules,
        items,
        public_uses,
        uses: BTreeMap::new(),
        globs: BTreeMap::new(),
    };
    loop {
        let mut uses = BTreeMap::new();
        let mut globs: BTreeMap<Module, Vec<Module>> = BTreeMap::new();
        for (m, _, p) in &parsed {
            for f in &p.found {
                match (&f.binds, names.absolute(&f.path, m)) {
                    (Some(name), Some(path)) if name == "*" => {
                        globs.entry(m.clone()).or_default().push(path)
                    }
                    (Some(name), Some(path)) => {
                        uses.insert((m.clone(), name.clone()), path);
                    }
                    _ => {}
                }
            }
        }
        let settled = uses.len() == names.uses.len()
            && globs.values().map(Vec::len).sum::<usize>()
                == names.globs.values().map(Vec::len).sum::<usize>();
        (names.uses, names.globs) = (uses, globs);
        if settled {
            break;
        }
    }
    let mut edges = Vec::new();
    for (m, at, p) in &parsed {
        for f in &p.found {
            if let Some(path) = names.absolute(&f.path, m) {
                edges.push(Edge {
                    from: m.clone(),
                    to: names.resolve(path),
                    at: format!("{at}:{}", f.line),
                });
            }
        }
    }
    Crate { edges }
}

/// `navmesh/mesh/los.rs` → `[navmesh, mesh, los]`; `navmesh/mesh.rs` and
/// `navmesh/mesh/mod.rs` are both `[navmesh, mesh]`; `lib.rs` and `main.rs` are the root.
fn module_of(rel: &Path) -> Module {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") || parts == ["lib"] || parts == ["main"] {
        parts.pop();
    }
    parts
}

/// The names of one crate: its modules, the items each defines, and what its `use`s bind.
struct Names {
    modules: BTreeSet<Module>,
    /// (module, name) for each item a module defines at its top level: whether it is `pub`.
    items: BTreeMap<(Module, String), bool>,
    /// (module, name) for each name a `pub use` of the module binds.
    public_uses: BTreeSet<(Module, String)>,
    /// The modules each module's glob `use`s (`use a::*`) bring the names of (from the
    /// crate root).
    globs: BTreeMap<Module, Vec<Module>>,
    /// The names each module's `use`s bring in from the crate, and where each points
    /// (from the crate root).
    uses: BTreeMap<(Module, String), Vec<String>>,
}

impl Names {
    /// `path`, written in `module`, from the crate root; `None` for a path outside the
    /// crate (`std::…`, `pathsmooth::…` in the CLI).
    fn absolute(&self, path: &[String], module: &Module) -> Option<Vec<String>> {
        let first = path.first()?;
        if first == "crate" {
            return Some(path[1..].to_vec());
        }
        if first == "self" || first == "super" {
            let mut at = module.clone();
            let mut rest = path;
            while let Some(step) = rest.first().filter(|s| *s == "self" || *s == "super") {
                if step == "super" {
                    at.pop()?;
                }
                rest = &rest[1..];
            }
            return Some([at, rest.to_vec()].concat());
        }
        // A relative `use` path starts at a submodule or at a name the module imported;
        // anything else is another crate.
        let here = [module.clone(), vec![first.clone()]].concat();
        let local = self.modules.contains(&here)
            || self.uses.contains_key(&(module.clone(), first.clone()));
        local.then(|| [module.clone(), path.to_vec()].concat())
    }

    /// The module a glob of `module` brings `name` from: the first of its globs' modules
    /// that defines it `pub`, binds it by a `pub use`, has it as a submodule, or brings it
    /// by a glob of its own.
    fn through_glob(&self, module: &Module, name: &str, depth: usize) -> Option<Module> {
        if depth > 8 {
            return None;
        }
        self.globs.get(module)?.iter().find_map(|g| {
            let key = (g.clone(), name.to_string());
            let has = self.items.get(&key) == Some(&true)
                || self.public_uses.contains(&key)
                || self
                    .modules
                    .contains(&[g.clone(), vec![name.to_string()]].concat());
            if has {
                Some(g.clone())
            } else {
                self.through_glob(g, name, depth + 1)
            }
        })
    }

    /// The module that defines what `path` (from the crate root) names: its longest
    /// prefix that is a module, after following the names that prefix's `use`s bind.
    fn resolve(&self, mut path: Vec<String>) -> Module {
        for _ in 0..64 {
            let k = (0..=path.len())
                .rev()
                .find(|&k| self.modules.contains(&path[..k]))
                .unwrap();
            let Some(name) = path.get(k) else {
                return path;
            };
            let module = path[..k].to_vec();
            if let Some(target) = self.uses.get(&(module.clone(), name.clone())) {
                path = [target.clone(), path[k + 1..].to_vec()].concat();
            } else if !self.items.contains_key(&(module.clone(), name.clone()))
                && let Some(g) = self.through_glob(&module, name, 0)
            {
                path = [g, path[k..].to_vec()].concat();
            } else {
                return module;
            }
        }
        panic!("the `use`s of `{}` go round", path.join("::"))
    }
}

/// For each folder (a module with submodules, the root `[]` too), the imports between its
/// children: an edge `a/b/c/… → a/b/d/…` is the edge `c → d` of folder `a/b`.
fn folder_graphs(edges: &[Edge]) -> BTreeMap<Module, Graph> {
    let mut graphs: BTreeMap<Module, Graph> = BTreeMap::new();
    for e in edges {
        let shared = e.from.iter().zip(&e.to).take_while(|(a, b)| a == b).count();
        if shared < e.from.len() && shared < e.to.len() {
            graphs
                .entry(e.from[..shared].to_vec())
                .or_default()
                .entry(e.from[shared].clone())
                .or_default()
                .entry(e.to[shared].clone())
                .or_insert_with(|| e.at.clone());
        }
    }
    graphs
}

/// A circle of `folder` in crate `krate`, with the import that makes each step.
fn describe(krate: &str, folder: &[String], graph: &Graph, circle: &[String]) -> String {
    let folder: String = folder.iter().map(|f| format!("{f}/")).collect();
    let mut out = format!("{krate} src/{folder}: import circle {}", circle.join(" → "));
    for step in circle.windows(2) {
        let at = &graph[&step[0]][&step[1]];
        out.push_str(&format!("\n  {} → {} at {at}", step[0], step[1]));
    }
    out
}

/// A circle in a directed graph, as the nodes along it (the first repeated last).
fn find_circle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        n: &str,
        graph: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(n.to_string(), Mark::Open);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flat_map(BTreeMap::keys) {
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

/// What one file names.
struct Parsed {
    found: Vec<Found>,
    /// The names of the items it defines at its top level (`fn`, `struct`, `mod`, …), and
    /// whether each is `pub` (in any form: what a glob of another module of the crate
    /// can bring).
    items: Vec<(String, bool)>,
    /// The submodules it declares `#[cfg(test)] mod m;`.
    test_modules: Vec<String>,
}

/// A path as written (`[super, mesh, Mesh]`), with the name a `use` binds it to (`Mesh`,
/// or the name after `as`; none for a path in code, `as _` or a glob) and its line.
struct Found {
    path: Vec<String>,
    binds: Option<String>,
    /// A `pub use` (in any form), whose names a glob of another module can bring.
    public: bool,
    line: usize,
}

/// The paths in `text`: every `use` tree's leaves, and the `crate::`, `super::` and
/// `self::` paths in other code. Comment lines are skipped, and so is test code: an item
/// after `#[cfg(test)]`, and everything from an inline `#[cfg(test)] mod tests {` on (the
/// unit tests come last).
fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed {
        found: Vec::new(),
        items: Vec::new(),
        test_modules: Vec::new(),
    };
    let mut lines = text.lines().enumerate().peekable();
    let mut statement = String::new();
    let mut statement_line = 0;
    while let Some((i, line)) = lines.next() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        if code.starts_with("#[cfg(test)]") {
            let next = lines
                .peek()
                .map_or("", |(_, l)| without_visibility(l.trim_start()));
            if let Some(m) = next.strip_prefix("mod ") {
                if !m.contains('{') {
                    parsed.test_modules.push(ident(m).to_string());
                    lines.next();
                    continue;
                }
                break;
            }
            skip_item(&mut lines);
            continue;
        }
        if statement.is_empty()
            && code.len() == line.len()
            && let Some(name) = item_name(without_visibility(code))
        {
            parsed
                .items
                .push((name.to_string(), code.starts_with("pub")));
        }
        // A `use` statement may span lines: gather it up to its `;`.
        if statement.is_empty() && is_use(code) {
            statement_line = i + 1;
        }
        if !statement.is_empty() || is_use(code) {
            statement.push(' ');
            statement.push_str(code);
            if !code.contains(';') {
                continue;
            }
            let tree = without_visibility(statement.trim_start()).trim_start_matches("use ");
            let mut leaves = Vec::new();
            read_tree(tree, &[], &mut leaves);
            let public = statement.trim_start().starts_with("pub");
            for (path, binds) in leaves {
                parsed.found.push(Found {
                    path,
                    binds,
                    public,
                    line: statement_line,
                });
            }
            statement.clear();
            continue;
        }
        for root in ["crate::", "super::", "self::"] {
            let mut from = 0;
            while let Some(k) = code[from..].find(root).map(|k| k + from) {
                from = k + root.len();
                // Inside a longer path (`self::super::…`) or an identifier (`in_crate::`).
                let before = code[..k].chars().last();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let mut leaves = Vec::new();
                read_tree(&code[k..], &[], &mut leaves);
                parsed
                    .found
                    .extend(leaves.into_iter().map(|(path, _)| Found {
                        path,
                        binds: None,
                        public: false,
                        line: i + 1,
                    }));
            }
        }
    }
    parsed
}

/// Skips the lines of one item (to the `;` or the `}` that ends it).
fn skip_item<'a>(lines: &mut impl Iterator<Item = (usize, &'a str)>) {
    let mut depth = 0i32;
    for (_, line) in lines {
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with("#[") {
            continue;
        }
        let mut in_string = false;
        let mut escaped = false;
        for c in code.chars() {
            match c {
                _ if escaped => escaped = false,
                '\\' if in_string => escaped = true,
                '"' => in_string = !in_string,
                '{' if !in_string => depth += 1,
                '}' if !in_string => depth -= 1,
                ';' if !in_string && depth == 0 => return,
                _ => {}
            }
        }
        if depth == 0 && code.contains('}') {
            return;
        }
    }
}

/// `code` without a leading `pub`, `pub(crate)`, `pub(in …)`.
fn without_visibility(code: &str) -> &str {
    match code.strip_prefix("pub") {
        Some(r) if r.starts_with('(') => r.find(')').map_or("", |k| r[k + 1..].trim_start()),
        Some(r) if r.starts_with(' ') => r.trim_start(),
        _ => code,
    }
}

/// The name of the item that `code` (without its visibility) starts, if it starts one.
fn item_name(code: &str) -> Option<&str> {
    // Qualifiers before `fn` (`const fn` too: `const` alone starts a constant).
    let mut code = code;
    for qualifier in ["const ", "async ", "unsafe ", "extern \"C\" "] {
        code = match code.strip_prefix(qualifier) {
            Some(rest) if qualifier != "const " || rest.trim_start().starts_with("fn ") => rest,
            _ => code,
        };
    }
    [
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "mod ",
        "union ",
        "macro_rules! ",
    ]
    .iter()
    .find_map(|kw| code.strip_prefix(kw))
    .map(|rest| ident(rest.trim_start_matches("mut ")))
    .filter(|name| !name.is_empty())
}

/// True for the first line of a `use` statement (`use …`, `pub use …`, `pub(crate) use …`).
fn is_use(code: &str) -> bool {
    without_visibility(code).starts_with("use ")
}

/// The identifier `s` starts with.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The leaves of the use tree (or path in code) `s`, after `prefix`, each with the name it
/// binds: `a::{b::{c, d as e}, self, f::*}` → `a::b::c` (`c`), `a::b::d` (`e`), `a` (`a`),
/// `a::f` (none). A path in code ends where its segments do (`a::f::<T>()` is `a::f`).
fn read_tree(s: &str, prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    let mut path = prefix.to_vec();
    let mut s = s.trim_start();
    loop {
        if let Some(inner) = s.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 0 => {
                        read_tree(&inner[start..k], &path, out);
                        if c == '}' {
                            return;
                        }
                        start = k + 1;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            return;
        }
        let id = ident(s);
        if id.is_empty() {
            // A glob (binding `*`) or a turbofish ends the path; an empty group item
            // (`{a, b,}`) is none.
            if !path.is_empty() && s.starts_with('*') {
                out.push((path, Some("*".to_string())));
            } else if path.len() > prefix.len() {
                out.push((path, None));
            }
            return;
        }
        s = s[id.len()..].trim_start();
        if let Some(rest) = s.strip_prefix("::") {
            path.push(id.to_string());
            s = rest.trim_start();
            continue;
        }
        let alias = s.strip_prefix("as ").map(|r| ident(r.trim_start()));
        if id != "self" {
            path.push(id.to_string());
        }
        let name = alias.unwrap_or(path.last().map_or("", String::as_str));
        let binds = (!name.is_empty() && name != "_").then(|| name.to_string());
        out.push((path, binds));
        return;
    }
}
