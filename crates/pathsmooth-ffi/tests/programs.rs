//! The C and C# programs over the C ABI, built and run here against the library this
//! test build made (`target/<profile>/deps/libpathsmooth_ffi.so`):
//!
//! - `tests/c/test_ffi.c` (gcc): plans and smooths on a Moving AI map at radius 0.3, and
//!   plans on a navmesh file of the library's corpus (a Godot scene) between two points
//!   this test gives it, and prints every point's f64 bits, which must equal the Rust
//!   pipeline's on the same input; its bad-input checks must pass; and the same run under valgrind (no memory
//!   error, no leak) when valgrind is installed;
//! - `bindings/csharp/Test.cs` (Mono's `mcs`, run by `mono`): the same points, bit for
//!   bit, and its bad-input checks;
//! - `tests/c/test_crowd.c` (gcc): a crowd of avoiding agents and a moving obstacle, its
//!   distances checked by the program itself, then removals, obstacles and bad input; and
//!   the same run under valgrind (the two C tests share their checking, `tests/c/check.h`);
//! - the README's C and C# quick starts run (the C one linked with the shared and with
//!   the static library).
//!
//! A missing tool (gcc, valgrind, mcs, mono) skips its test with a line saying so, except
//! under CI (`CI` set), where `.ci/run` installs them and a missing one fails. The Moving
//! AI map is the repository's `data/movingai/`; without it the tests fail.

use std::path::{Path, PathBuf};
use std::process::Command;

use pathsmooth::glam::{DVec2, DVec3};
use pathsmooth::grid::{load_scenarios, GridMap};
use pathsmooth::navmesh::load_surface;
use pathsmooth::navmesh::{SurfaceMesh, SurfaceOptions};
use pathsmooth::{GridWorld, Pipeline, Preset, SurfaceWorld};

const MAP: &str = "dao/arena";
const RADIUS: f64 = 0.3;

/// Where this test build put the library: `target/<profile>/deps`, beside the test
/// binary (a test build leaves `libpathsmooth_ffi.so` there; `target/<profile>/` has the
/// one `cargo build` made, which may be older).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent().expect("deps dir").to_path_buf()
}

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `tool` runs; when it does not, says so and (under CI) fails.
fn have(tool: &str) -> bool {
    let there = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !there {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is missing (CI installs it in .ci/run)"
        );
        println!("skipped: {tool} not found");
    }
    there
}

/// The map's path and the start/goal pairs of a few of its scenarios (cell centres). The
/// map is the repository's `data/movingai/`; a missing file fails the test, naming it.
fn scenarios() -> (PathBuf, Vec<[DVec2; 2]>) {
    let dir = crate_dir().join("../../data/movingai");
    let map = dir.join(format!("{MAP}.map"));
    assert!(map.is_file(), "Moving AI file {} not found", map.display());
    let scen_path = dir.join(format!("{MAP}.map.scen"));
    let scen =
        load_scenarios(&scen_path).unwrap_or_else(|e| panic!("{}: {e}", scen_path.display()));
    // Short and long ones: every 10th scenario (16 of 161).
    let pairs = scen
        .iter()
        .step_by(10)
        .map(|s| [s.start_point(), s.goal_point()])
        .collect();
    (map, pairs)
}

/// The navmesh file the C and C# tests load (a Godot 3 scene of the library's corpus:
/// overlapping floors, every triangle with its own vertex copies).
const SURFACE_FILE: &str = "godot/godotengine__navmesh-demo-3x.tscn";
/// The agent radius of their plan on it.
const SURFACE_RADIUS: f64 = 0.1;

/// The navmesh file's path, and two points on its floors: the centres of its first
/// polygon and of the last polygon walkable from it.
fn surface_case() -> (PathBuf, [DVec3; 2]) {
    let file = crate_dir()
        .join("../pathsmooth/tests/data/corpus")
        .join(SURFACE_FILE);
    let surface = load_surface(&file, &SurfaceOptions::default()).expect("the corpus scene");
    let pieces = surface.pieces();
    let last = (0..pieces.len() as u32)
        .rev()
        .find(|&p| pieces[p as usize] == pieces[0])
        .expect("polygon 0's piece");
    let up = surface.up();
    let centre = |p: u32| {
        let corners = surface.polygon(p);
        let sum: DVec3 = corners
            .iter()
            .map(|&v| surface.vertices()[v as usize])
            .sum();
        let plan = up.plan(sum / corners.len() as f64);
        up.join(plan, surface.height_at(p, plan))
    };
    (file, [centre(0), centre(last)])
}

/// Runs `cmd` with the navmesh file and its two points in the environment
/// (`PS_TEST_SURFACE_FILE`, `PS_TEST_SURFACE_ENDS`: "sx sy sz gx gy gz"), and the corpus
/// folder (`PS_TEST_CORPUS`, whose every file the C# test loads).
fn with_surface(cmd: &mut Command) -> &mut Command {
    let (file, [s, g]) = surface_case();
    let ends: Vec<String> = [s.x, s.y, s.z, g.x, g.y, g.z]
        .iter()
        .map(|c| format!("{c}"))
        .collect();
    let corpus = crate_dir().join("../pathsmooth/tests/data/corpus");
    cmd.env("PS_TEST_SURFACE_FILE", file)
        .env("PS_TEST_SURFACE_ENDS", ends.join(" "))
        .env("PS_TEST_CORPUS", corpus)
}

/// The lines the C and C# tests print, computed by the library itself.
fn reference(map: &Path, pairs: &[[DVec2; 2]]) -> String {
    let world = GridWorld::new(GridMap::load(map).expect("map")).expect("world");
    let mut shortest = Pipeline::preset(&world, RADIUS, Preset::Shortest).unwrap();
    let mut smooth = Pipeline::preset(&world, RADIUS, Preset::Smooth).unwrap();
    let mut out = String::new();
    let mut line = |label: &str, i: usize, path: &[DVec2]| {
        out += &format!("{label} {i} {}", path.len());
        for p in path {
            out += &format!(" {:016x} {:016x}", p.x.to_bits(), p.y.to_bits());
        }
        out += "\n";
    };
    for (i, &[s, g]) in pairs.iter().enumerate() {
        let a = shortest.plan(s, g).expect("shortest plan");
        line("shortest", i, &a);
        line("smooth", i, &smooth.smooth(&a).expect("smooth"));
        line("plan", i, &smooth.plan(s, g).expect("plan"));
    }
    let (file, [s, g]) = surface_case();
    let mesh = SurfaceMesh::new(load_surface(&file, &SurfaceOptions::default()).unwrap()).unwrap();
    let mut planner = Pipeline::preset(
        SurfaceWorld::new(mesh.clone()),
        SURFACE_RADIUS,
        Preset::Smooth,
    )
    .unwrap();
    let path = planner.plan_surface(s, g).expect("surface plan");
    out += &format!("surface 0 {}", path.len());
    for p in path {
        for c in p.position.to_array() {
            out += &format!(" {:016x}", c.to_bits());
        }
    }
    out += "\n";
    out
}

fn args(map: &Path, pairs: &[[DVec2; 2]]) -> Vec<String> {
    let mut args = vec![map.display().to_string()];
    for [s, g] in pairs {
        // `{}` prints the shortest decimal that reads back to the same f64.
        args.extend([s.x, s.y, g.x, g.y].map(|c| format!("{c}")));
    }
    args
}

/// Runs `cmd`, which must succeed; returns its standard output.
fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stderr}",
        out.status
    );
    eprint!("{stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Builds a C program against the library with gcc, warnings as errors.
fn build_c(source: &str, name: &str) -> PathBuf {
    let target = lib_dir();
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    run(Command::new("gcc")
        .args(["-std=c99", "-g", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir().join("include"))
        .arg(crate_dir().join(source))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&target)
        .arg("-lpathsmooth_ffi")
        .arg(format!("-Wl,-rpath,{}", target.display()))
        .arg("-lm"));
    exe
}

/// Builds C# sources (with the binding) into an executable with Mono's `mcs`.
fn build_cs(sources: &[&str], name: &str) -> PathBuf {
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let dir = crate_dir().join("../../bindings/csharp");
    run(Command::new("mcs")
        .args(["-unsafe", "-warnaserror", "-nologo"])
        .arg(format!("-out:{}", exe.display()))
        .arg(dir.join("Pathsmooth.cs"))
        .args(sources.iter().map(|s| dir.join(s))));
    exe
}

/// A command that loads this build's library: `LD_LIBRARY_PATH` is the test build's
/// `deps` (cargo's own puts `target/<profile>` first, which may hold an older library
/// that `cargo build` made, and it wins over the programs' run path).
fn native(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    cmd.env("LD_LIBRARY_PATH", lib_dir());
    cmd
}

fn mono(exe: &Path) -> Command {
    let mut cmd = Command::new("mono");
    cmd.arg(exe).env("LD_LIBRARY_PATH", lib_dir());
    cmd
}

/// Compares the program's lines with the library's, naming the first that differs.
fn assert_same(got: &str, want: &str, who: &str) {
    assert_eq!(
        got.lines().count(),
        want.lines().count(),
        "{who}: line count"
    );
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w, "{who} differs from the Rust pipeline");
    }
}

#[test]
fn c_test_gets_the_rust_pipelines_points_bit_for_bit() {
    let (map, pairs) = scenarios();
    if !have("gcc") {
        return;
    }
    let exe = build_c("tests/c/test_ffi.c", "test_ffi");
    let got = run(with_surface(&mut native(&exe)).args(args(&map, &pairs)));
    assert_same(&got, &reference(&map, &pairs), "the C test");
}

#[test]
fn c_test_is_clean_under_valgrind() {
    let (map, pairs) = scenarios();
    if !have("gcc") || !have("valgrind") {
        return;
    }
    let exe = build_c("tests/c/test_ffi.c", "test_ffi_valgrind");
    // Two scenarios: valgrind runs the pipeline some 50 times slower.
    let pairs = &pairs[..2];
    let got = run(with_surface(&mut native("valgrind"))
        .args(VALGRIND)
        .arg(&exe)
        .args(args(&map, pairs)));
    assert_same(&got, &reference(&map, pairs), "the C test under valgrind");
}

/// Valgrind's arguments: any memory error or definite leak fails the run.
const VALGRIND: [&str; 4] = [
    "--quiet",
    "--error-exitcode=99",
    "--leak-check=full",
    "--errors-for-leak-kinds=definite",
];

#[test]
fn c_crowd_test_passes_its_checks() {
    if !have("gcc") {
        return;
    }
    let exe = build_c("tests/c/test_crowd.c", "test_crowd");
    let out = run(&mut native(&exe));
    assert!(
        out.starts_with("crowd: 6 agents arrived by frame "),
        "{out}"
    );
}

#[test]
fn c_crowd_test_is_clean_under_valgrind() {
    if !have("gcc") || !have("valgrind") {
        return;
    }
    let exe = build_c("tests/c/test_crowd.c", "test_crowd_valgrind");
    let out = run(native("valgrind").args(VALGRIND).arg(&exe));
    assert!(
        out.starts_with("crowd: 6 agents arrived by frame "),
        "{out}"
    );
}

#[test]
fn c_quickstart_runs() {
    if !have("gcc") {
        return;
    }
    let exe = build_c("examples/c/quickstart.c", "quickstart");
    let out = run(&mut native(&exe));
    assert!(
        out.starts_with("34 points") || out.contains(" points, length "),
        "{out}"
    );
}

#[test]
fn c_quickstart_links_the_static_library() {
    if !have("gcc") {
        return;
    }
    // The link line the header gives for `libpathsmooth_ffi.a`.
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("quickstart_static");
    run(Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir().join("include"))
        .arg(crate_dir().join("examples/c/quickstart.c"))
        .arg("-o")
        .arg(&exe)
        .arg(lib_dir().join("libpathsmooth_ffi.a"))
        .args(["-lpthread", "-ldl", "-lm"]));
    let out = run(&mut native(&exe));
    assert!(out.contains(" points, length "), "{out}");
}

#[test]
fn csharp_test_gets_the_rust_pipelines_points_bit_for_bit() {
    let (map, pairs) = scenarios();
    if !have("mcs") || !have("mono") {
        return;
    }
    let exe = build_cs(&["Test.cs"], "test_csharp.exe");
    let got = run(with_surface(&mut mono(&exe)).args(args(&map, &pairs)));
    assert_same(&got, &reference(&map, &pairs), "the C# test");
}

#[test]
fn csharp_quickstart_runs() {
    if !have("mcs") || !have("mono") {
        return;
    }
    let exe = build_cs(&["Quickstart.cs"], "quickstart_csharp.exe");
    let out = run(&mut mono(&exe));
    assert!(out.contains(" points, length "), "{out}");
}
