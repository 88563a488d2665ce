//! A pair where pathsmooth's path is longer than Detour's, walked with pathsmooth's own
//! query along Detour's route: pathsmooth's whole path, Detour's straight path, and the sum
//! of pathsmooth's paths from corner to corner of Detour's (each corner moved onto the
//! surface vertex it is a quantised copy of, when one is within 1e-3). When that sum is
//! Detour's length and below pathsmooth's whole path, pathsmooth's search missed a shorter
//! path on its own surface.
//!
//! `cargo run --release --example legs -- FILE_FILTER PAIR` (the pairs of
//! `compare-corpus`, Detour's node pool 65535), e.g. `-- navmesh-demo-3.1 22`.

use detour_peer::corpus::{manifest, plan_length, Case, PAIRS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(filter), Some(pair)) = (args.first(), args.get(1)) else {
        eprintln!("usage: legs FILE_FILTER PAIR");
        std::process::exit(2)
    };
    let pair: usize = pair.parse().expect("PAIR");
    let e = manifest(filter).into_iter().next().expect("a file");
    let mut c = Case::new(&e, PAIRS, 65535).unwrap();
    let up = c.mesh.surface().up();
    let d = c.detour_query(pair);
    let detour = c.detour_points(&d);
    let p = c.pairs[pair];
    let whole: Vec<_> = c
        .query
        .find_path(&c.mesh, p.start, p.goal, 0.0)
        .unwrap()
        .iter()
        .map(|q| q.position)
        .collect();
    println!(
        "{} pair {pair}: {} (polygon {}) → {} (polygon {})",
        e.file, p.start, p.start_poly, p.goal, p.goal_poly
    );
    println!(
        "pathsmooth's path: {:.4} ({} points); Detour's: {:.4} ({} points, complete {})",
        plan_length(up, &whole),
        whole.len(),
        plan_length(up, &detour),
        detour.len(),
        d.complete
    );
    let verts = c.mesh.surface().vertices().to_vec();
    let mut corners = vec![p.start];
    for &q in &detour[1..detour.len().saturating_sub(1)] {
        let v = verts
            .iter()
            .copied()
            .min_by(|a, b| a.distance(q).total_cmp(&b.distance(q)))
            .unwrap();
        corners.push(if v.distance(q) < 1e-3 { v } else { q });
    }
    corners.push(p.goal);
    let mut total = 0.0;
    for w in corners.windows(2) {
        let leg = c
            .query
            .find_path(&c.mesh, w[0], w[1], 0.0)
            .map(|path| plan_length(up, &path.iter().map(|q| q.position).collect::<Vec<_>>()));
        let straight = up.plan(w[0]).distance(up.plan(w[1]));
        println!(
            "  {} → {}: straight {straight:.4}, pathsmooth {leg:.4?}",
            w[0], w[1]
        );
        total += leg.unwrap_or(f64::NAN);
    }
    println!("pathsmooth along Detour's corners: {total:.4}");
}
