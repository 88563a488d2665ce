//! Where each side's time goes on the corpus's random pairs (`detour_peer::corpus`): per
//! file, the median over the pairs of each query's best of ROUNDS rounds, µs, for
//! Detour's `findNearestPoly` ×2 and its whole query, and pathsmooth's two locates
//! (`SurfaceQuery::locate`), `find_path_between` (search, funnel, lift), the two locates and
//! `find_path_between` called one after the other per pair, and the whole `find_path`; with `only`, just pathsmooth's `find_path` loop over and over (for
//! `perf record`; build with `CARGO_PROFILE_RELEASE_DEBUG=true` for symbols); with
//! `only-locate`, just pathsmooth's two locates a pair, over and over.
//!
//! `cargo run --release --example corpus_parts -- [FILTER [ROUNDS [only | only-locate]]]`

use detour_peer::corpus::{manifest, Case, PAIRS};
use std::hint::black_box;
use std::time::Instant;

fn median_best(rounds: usize, n: usize, mut f: impl FnMut(usize)) -> f64 {
    let mut best = vec![f64::INFINITY; n];
    for _ in 0..rounds {
        for (i, b) in best.iter_mut().enumerate() {
            let t = Instant::now();
            f(i);
            *b = b.min(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    best.sort_by(f64::total_cmp);
    best[n / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filter = args.first().cloned().unwrap_or_default();
    let rounds: usize = args.get(1).map_or(30, |r| r.parse().expect("ROUNDS"));
    let only = args.get(2).map(String::as_str) == Some("only");
    let only_locate = args.get(2).map(String::as_str) == Some("only-locate");
    println!(
        "| file | Detour: findNearestPoly ×2 | Detour: whole | pathsmooth: locate ×2 | pathsmooth: find_path_between | pathsmooth: locate ×2 + find_path_between in one go | pathsmooth: find_path |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for e in manifest(&filter) {
        let mut c = Case::new(&e, PAIRS, detour_peer::MAX_NODES).unwrap();
        let n = c.pairs.len();
        if only {
            let t = median_best(rounds, n, |i| {
                black_box(c.pathsmooth_query(i));
            });
            println!("{}: pathsmooth find_path {t:.2} µs", e.file);
            continue;
        }
        if only_locate {
            let t = median_best(rounds, n, |i| {
                let p = c.pairs[i];
                black_box(c.query.locate(&c.mesh, p.start).unwrap());
                black_box(c.query.locate(&c.mesh, p.goal).unwrap());
            });
            println!("{}: pathsmooth locate ×2 {t:.2} µs", e.file);
            continue;
        }
        let located: Vec<_> = (0..n)
            .map(|i| {
                let p = c.pairs[i];
                (
                    c.query.locate(&c.mesh, p.start).unwrap(),
                    c.query.locate(&c.mesh, p.goal).unwrap(),
                )
            })
            .collect();
        let d_locate = median_best(rounds, n, |i| {
            let (s, g) = c.detour_pairs[i];
            black_box(c.detour.nearest_raw(&s));
            black_box(c.detour.nearest_raw(&g));
        });
        let d_whole = median_best(rounds, n, |i| {
            black_box(c.detour_query(i));
        });
        let p_locate = median_best(rounds, n, |i| {
            let p = c.pairs[i];
            black_box(c.query.locate(&c.mesh, p.start).unwrap());
            black_box(c.query.locate(&c.mesh, p.goal).unwrap());
        });
        let p_between = median_best(rounds, n, |i| {
            let (s, g) = located[i];
            black_box(
                c.query
                    .find_path_between(&c.mesh, s, g, 0.0)
                    .map(|p| p.len())
                    .unwrap_or(0),
            );
        });
        let p_whole = median_best(rounds, n, |i| {
            black_box(c.pathsmooth_query(i));
        });
        // The same three calls in one go: what `find_path` would cost if it were its parts.
        let p_composed = median_best(rounds, n, |i| {
            let p = c.pairs[i];
            let s = c.query.locate(&c.mesh, p.start).unwrap();
            let g = c.query.locate(&c.mesh, p.goal).unwrap();
            black_box(
                c.query
                    .find_path_between(&c.mesh, s, g, 0.0)
                    .map(|p| p.len())
                    .unwrap_or(0),
            );
        });
        println!(
            "| {} | {d_locate:.2} | {d_whole:.2} | {p_locate:.2} | {p_between:.2} | {p_composed:.2} | {p_whole:.2} |",
            e.file
        );
    }
}
