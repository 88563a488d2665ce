//! The peer's commands:
//!
//! - `detour-peer stats FILE [-o OUT.json]`: Detour on a navmesh JSON bake, 200 reproducible
//!   queries between polygon centroids; prints success count, µs per query and total
//!   straight-path length, and writes the queries with Detour's paths as JSON.
//! - `detour-peer write-sets OUT_DIR`: C++ Recast bakes RecastDemo's levels
//!   (`crates/pathsmooth-bake/levels/`) as RecastDemo does and writes its navmesh sets and one
//!   tile (`detour_peer::recast::write_sets`): the files of
//!   `crates/pathsmooth/tests/data/corpus/detour/`.
//! - `detour-peer compare-corpus [--filter TEXT] [--pairs N] [--rounds R] [--nodes N]`:
//!   pathsmooth against Detour on every navmesh file of the corpus, random points
//!   (`detour_peer::corpus`); prints a table.

use detour_peer::{Bake, DetourMesh, PathResult, MAX_PATH};
use recastnavigation_sys::dtPolyRef;
use serde::Serialize;
use std::time::Instant;

#[derive(Serialize)]
struct Report<'a> {
    file: &'a str,
    tool: String,
    half_extents: [f32; 3],
    max_nodes: i32,
    seed: u64,
    quantisation_error: f32,
    reached: usize,
    mean_us: f64,
    median_us: f64,
    median_reached_us: f64,
    median_unreached_us: f64,
    total_length_3d: f64,
    total_length_plan: f64,
    reached_length_3d: f64,
    queries: Vec<PathResult>,
}

const USAGE: &str = "usage: detour-peer stats FILE.navmesh.json [-o OUT.json]
       detour-peer write-sets OUT_DIR
       detour-peer compare-corpus [--filter TEXT] [--pairs N] [--rounds R] [--nodes N]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("stats") if args.len() >= 2 => stats(&args),
        Some("write-sets") if args.len() == 2 => write_sets(&args[1]),
        Some("compare-corpus") => compare_corpus(&args[1..]),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
}

fn write_sets(out: &str) {
    let levels = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/pathsmooth-bake/levels"
    );
    let written =
        detour_peer::recast::write_sets(std::path::Path::new(levels), std::path::Path::new(out))
            .unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(1)
            });
    let level = detour_peer::recast::Level::load(&std::path::Path::new(levels).join("dungeon.obj"))
        .expect("dungeon.obj");
    for (i, c) in detour_peer::recast::dungeon_connections(&level)
        .expect("the connections")
        .iter()
        .enumerate()
    {
        println!(
            "dungeon's off-mesh connection {i} (user id {}): {:?} -> {:?}, {}",
            1000 + i,
            c.start,
            c.end,
            if c.bidirectional {
                "bidirectional"
            } else {
                "one-way"
            }
        );
    }
    for w in written {
        println!(
            "{out}/{}: {} bytes, {} tiles, {} ground polygons, {} off-mesh connections ({} attached at both ends); {}",
            w.file, w.bytes, w.tiles, w.ground_polygons, w.off_mesh, w.off_mesh_connected, w.what
        );
    }
}

/// `compare-corpus`: per file, the untimed pass (completions, lengths), then `rounds`
/// rounds over the pairs, each side's query timed alone (`Instant`), the two sides
/// alternating which goes first; each query's best round; the median over the pairs.
fn compare_corpus(args: &[String]) {
    use detour_peer::corpus::{manifest, Case, DetourSource};
    let mut filter = String::new();
    let (mut pairs, mut rounds, mut nodes) =
        (detour_peer::corpus::PAIRS, 30usize, detour_peer::MAX_NODES);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next().cloned().unwrap_or_else(|| {
                eprintln!("{a} needs a value\n{USAGE}");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--filter" => filter = value(),
            "--pairs" => pairs = value().parse().expect("--pairs N"),
            "--rounds" => rounds = value().parse().expect("--rounds R"),
            "--nodes" => nodes = value().parse().expect("--nodes N"),
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2)
            }
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "compare-corpus: {pairs} random pairs a file, best of {rounds} rounds per query, Detour's node pool {nodes}; load average before: {}",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    let mut rows = Vec::new();
    for e in manifest(&filter) {
        let mut case = match Case::new(&e, pairs, nodes) {
            Ok(c) => c,
            Err(err) => {
                println!("{}: not compared: {err}", e.file);
                rows.push(format!(
                    "| {} | {} | not compared: {err} |",
                    e.file, e.format
                ));
                continue;
            }
        };
        let o = case.outcome();
        let n = case.pairs.len();
        let (mut td, mut tp) = (vec![f64::INFINITY; n], vec![f64::INFINITY; n]);
        for round in 0..rounds {
            for side in 0..2 {
                if (round + side) % 2 == 0 {
                    for (i, t) in td.iter_mut().enumerate() {
                        let t0 = Instant::now();
                        std::hint::black_box(case.detour_query(i));
                        *t = t.min(t0.elapsed().as_secs_f64() * 1e6);
                    }
                } else {
                    for (i, t) in tp.iter_mut().enumerate() {
                        let t0 = Instant::now();
                        std::hint::black_box(case.pathsmooth_query(i));
                        *t = t.min(t0.elapsed().as_secs_f64() * 1e6);
                    }
                }
            }
        }
        let (sum_d, sum_p): (f64, f64) = (td.iter().sum(), tp.iter().sum());
        td.sort_by(f64::total_cmp);
        tp.sort_by(f64::total_cmp);
        let (md, mp) = (median(&td), median(&tp));
        let p90 = |t: &[f64]| t[(t.len() * 9 / 10).min(t.len() - 1)];
        let tails = format!(
            "90th percentile µs Detour {:.2}, pathsmooth {:.2}; slowest Detour {:.1}, pathsmooth {:.1}",
            p90(&td),
            p90(&tp),
            td[n - 1],
            tp[n - 1]
        );
        let surface = case.mesh.surface();
        let (detour_polys, how) = match &case.source {
            DetourSource::File { tiles, polygons, off_mesh } => (
                *polygons,
                format!("Detour's own load: {tiles} tiles, {off_mesh} off-mesh connections"),
            ),
            DetourSource::Surface(r) => (
                r.polygons,
                format!(
                    "from the surface: cs = ch = {} ({:.1e} of the extent {:.1}), worst vertex displacement {:.2e} ({:.1e} of the extent), {} vertices ({} sharing a cell), {} polygons cut into fans, links {} / off-mesh stored {}",
                    r.cs,
                    f64::from(r.cs) / r.extent,
                    r.extent,
                    r.worst_displacement,
                    r.worst_displacement / r.extent,
                    r.vertices,
                    r.merged_vertices,
                    r.split,
                    r.links,
                    r.off_mesh_stored
                ),
            ),
        };
        println!(
            "{}: {} polygons (Detour {detour_polys}), climb {}; {how}; completed Detour {} / pathsmooth {} of {n}; median µs Detour {md:.2}, pathsmooth {mp:.2}, ratio {:.2} (sum {:.2}); {tails}; mean plan length over {} both completed: Detour {:.3}, pathsmooth {:.3}; mean points {:.1} / {:.1}; ends located on another polygon than drawn: Detour {}, pathsmooth {}; pathsmooth longer {} (worst {:.2e}){}{}",
            e.file,
            surface.num_polygons(),
            surface.climb(),
            o.detour_complete,
            o.pathsmooth_complete,
            mp / md,
            sum_p / sum_d,
            o.both,
            o.detour_mean_length,
            o.pathsmooth_mean_length,
            o.detour_points,
            o.pathsmooth_points,
            o.detour_elsewhere,
            o.pathsmooth_elsewhere,
            o.pathsmooth_longer,
            o.worst_excess,
            o.longer_examples
                .iter()
                .map(|x| format!("\n    {x}"))
                .collect::<String>(),
            o.first_error.map_or(String::new(), |err| format!("; pathsmooth's first error: {err}"))
        );
        rows.push(format!(
            "| {} | {} | {} / {} | {} / {} | {md:.2} | {mp:.2} | {:.2} | {:.2} | {:.2} / {:.2} |",
            e.file,
            e.format,
            surface.num_polygons(),
            detour_polys,
            o.detour_complete,
            o.pathsmooth_complete,
            mp / md,
            sum_p / sum_d,
            o.detour_mean_length,
            o.pathsmooth_mean_length,
        ));
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "\nload average after: {}\n",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("| file | format | polygons: pathsmooth / Detour | completed: Detour / pathsmooth (of {pairs}) | Detour median µs | pathsmooth median µs | pathsmooth / Detour (median) | (sum) | mean plan length: Detour / pathsmooth |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in rows {
        println!("{r}");
    }
}

fn stats(args: &[String]) {
    let file = &args[1];
    let out = match args.get(2).map(String::as_str) {
        Some("-o") => args.get(3).cloned(),
        _ => None,
    }
    .unwrap_or_else(|| {
        let stem = std::path::Path::new(file)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".navmesh.json", "");
        format!("{stem}.detour.json")
    });
    let bake = Bake::load(file).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let mesh = DetourMesh::from_bake(&bake).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let centroids = bake.centroids();
    let pairs = bake.query_pairs();

    // Timing: the batch, with caller buffers, repeated; each query's own time for the median.
    let mut corridor = Box::new([0 as dtPolyRef; MAX_PATH]);
    let mut straight = Box::new([0.0f32; 3 * MAX_PATH]);
    const ROUNDS: usize = 50;
    let mut per_query = vec![f64::INFINITY; pairs.len()];
    let mut batch_best = f64::INFINITY;
    for _ in 0..ROUNDS {
        let t0 = Instant::now();
        for (i, &(a, b)) in pairs.iter().enumerate() {
            let t = Instant::now();
            std::hint::black_box(mesh.query_raw(
                &centroids[a],
                &centroids[b],
                &mut corridor,
                &mut straight,
            ));
            per_query[i] = per_query[i].min(t.elapsed().as_secs_f64() * 1e6);
        }
        batch_best = batch_best.min(t0.elapsed().as_secs_f64() * 1e6);
    }
    let mean_us = batch_best / pairs.len() as f64;
    let mut sorted = per_query.clone();
    sorted.sort_by(f64::total_cmp);
    let median_us = median(&sorted);

    let queries: Vec<PathResult> = pairs
        .iter()
        .zip(&per_query)
        .map(|(&p, &us)| PathResult {
            us,
            ..mesh.query(p, &centroids)
        })
        .collect();
    let median_of = |reached: bool| {
        let mut t: Vec<f64> = queries
            .iter()
            .filter(|q| q.reached == reached)
            .map(|q| q.us)
            .collect();
        t.sort_by(f64::total_cmp);
        median(&t)
    };
    let (median_reached_us, median_unreached_us) = (median_of(true), median_of(false));
    let reached = queries.iter().filter(|q| q.reached).count();
    let found_ends = queries
        .iter()
        .filter(|q| q.start_on_mesh.is_some() && q.end_on_mesh.is_some())
        .count();
    let total_length_3d: f64 = queries.iter().map(|q| q.length_3d as f64).sum();
    let total_length_plan: f64 = queries.iter().map(|q| q.length_plan as f64).sum();
    let reached_length_3d: f64 = queries
        .iter()
        .filter(|q| q.reached)
        .map(|q| q.length_3d as f64)
        .sum();
    println!("{file}");
    println!(
        "  {} polygons, {} vertices; quantisation error {:.2e} wu",
        bake.polygons.len(),
        bake.vertices.len(),
        mesh.quantisation_error
    );
    println!(
        "  {} queries: both ends on the mesh {found_ends}, end polygon reached {reached}",
        queries.len()
    );
    println!(
        "  µs per query (findNearestPoly x2 + findPath + findStraightPath): mean {mean_us:.2} (best batch of {ROUNDS}), median {median_us:.2} (each query's best of {ROUNDS})"
    );
    println!(
        "  median µs, end polygon reached: {median_reached_us:.2}; not reached (other component, partial path): {median_unreached_us:.2}"
    );
    println!(
        "  total straight-path length: {total_length_3d:.3} (3D), {total_length_plan:.3} (plan view); over the reached queries {reached_length_3d:.3} (3D)"
    );
    let report = Report {
        file,
        tool: format!("detour-peer {}", env!("CARGO_PKG_VERSION")),
        half_extents: detour_peer::HALF_EXTENTS,
        max_nodes: detour_peer::MAX_NODES,
        seed: detour_peer::SEED,
        quantisation_error: mesh.quantisation_error,
        reached,
        mean_us,
        median_us,
        median_reached_us,
        median_unreached_us,
        total_length_3d,
        total_length_plan,
        reached_length_3d,
        queries,
    };
    std::fs::write(&out, serde_json::to_string_pretty(&report).unwrap()).unwrap();
    println!("  wrote {out}");
}

fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}
