//! `detour-peer stats FILE [-o OUT.json]`: Detour on a navmesh JSON bake, 200 reproducible
//! queries between polygon centroids; prints success count, µs per query and total
//! straight-path length, and writes the queries with Detour's paths as JSON.

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) != Some("stats") || args.len() < 2 {
        eprintln!("usage: detour-peer stats FILE.navmesh.json [-o OUT.json]");
        std::process::exit(2);
    }
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
