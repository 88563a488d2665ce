//! Routes over off-mesh links on a bake another tool wrote: RecastDemo's dungeon, tiled,
//! with its three off-mesh connections, as C++ Detour saved it
//! (`tests/data/corpus/detour/dungeon.all_tiles_navmesh.bin`), plus random links of every
//! kind (one-way and both ways, costed by length, free like a teleport, dearer than their
//! length). On random pairs of points (fixed seed) at radius 0 the query's route must cost
//! what an independent oracle finds cheapest: Dijkstra's algorithm over the start, the goal
//! and the links' ends, each walk between them the visibility-graph optimum of
//! `common/surface_oracle.rs`; and each leg of the path must walk the surface.

use crate::common;

use common::rng::Rng;
use common::surface_oracle::{check_on_surface, plan_areas, random_point, SurfaceOracle};
use glam::DVec2;
use pathsmooth::navmesh::load_surface;
use pathsmooth::navmesh::{
    OffMeshLink, PointFlags, PolyId, Surface, SurfaceMesh, SurfaceOptions, SurfacePoint,
    SurfaceQuery, UpAxis,
};
use pathsmooth::Error;

fn dungeon() -> Surface {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/detour/dungeon.all_tiles_navmesh.bin"
    );
    load_surface(path, &SurfaceOptions::new(UpAxis::Y)).unwrap()
}

/// The dungeon's own links and `extra` random ones between random points of the surface.
fn with_random_links(s: Surface, rng: &mut Rng, extra: usize) -> Surface {
    let areas = plan_areas(&s);
    let mut links: Vec<OffMeshLink> = s.links().iter().map(|l| l.given).collect();
    assert_eq!(links.len(), 3, "the dungeon's three off-mesh connections");
    for i in 0..extra {
        let (_, a) = random_point(&s, rng, &areas);
        let (_, b) = random_point(&s, rng, &areas);
        let length = a.distance(b);
        let cost = match i % 4 {
            0 => None,
            1 => Some(0.0),
            2 => Some(length * rng.range(0.1, 0.9)),
            _ => Some(length * rng.range(1.0, 3.0)),
        };
        links.push(OffMeshLink {
            cost,
            bidirectional: i % 3 == 0,
            ..OffMeshLink::new(a, b, 0.1)
        });
    }
    s.with_links(&links).unwrap()
}

/// The cheapest route's cost from `a` to `b`: Dijkstra over the places a route can be
/// (the start, each link's landing) with the oracle's walks between them.
fn cheapest(o: &SurfaceOracle, s: &Surface, a: (PolyId, DVec2), b: (PolyId, DVec2)) -> f64 {
    // (entry, landing, cost) for each way a link can be taken.
    let mut hops = Vec::new();
    let up = s.up();
    for l in s.links() {
        let (start, end) = (
            (l.start_poly, up.plan(l.start)),
            (l.end_poly, up.plan(l.end)),
        );
        hops.push((start, end, l.cost));
        if l.given.bidirectional {
            hops.push((end, start, l.cost));
        }
    }
    let places: Vec<(PolyId, DVec2)> = std::iter::once(a).chain(hops.iter().map(|h| h.1)).collect();
    let mut dist = vec![f64::INFINITY; places.len()];
    let mut done = vec![false; places.len()];
    dist[0] = 0.0;
    let mut best = f64::INFINITY;
    // Few places: the quadratic Dijkstra, no heap.
    while let Some(u) = (0..places.len())
        .filter(|&i| !done[i] && dist[i].is_finite())
        .min_by(|&i, &j| dist[i].total_cmp(&dist[j]))
    {
        done[u] = true;
        let walk = |to: (PolyId, DVec2)| {
            if places[u] == to {
                Some(0.0)
            } else {
                o.shortest(places[u], to)
            }
        };
        if let Some(w) = walk(b) {
            best = best.min(dist[u] + w);
        }
        for (h, &(entry, _, cost)) in hops.iter().enumerate() {
            if let Some(w) = walk(entry) {
                let lands = h + 1;
                dist[lands] = dist[lands].min(dist[u] + w + cost);
            }
        }
    }
    best
}

/// The cost of the query's route: the plan-view length walked plus each link's cost.
fn route_cost(s: &Surface, query: &SurfaceQuery, path: &[SurfacePoint]) -> f64 {
    let up = s.up();
    let links: f64 = query
        .legs()
        .iter()
        .filter_map(|l| l.link)
        .map(|i| s.links()[i as usize].cost)
        .sum();
    let walked: f64 = path
        .windows(2)
        .filter(|w| !w[0].flags.contains(PointFlags::LINK_START))
        .map(|w| up.plan(w[0].position).distance(up.plan(w[1].position)))
        .sum();
    walked + links
}

/// The path cut at its links: each leg walked on the surface, as its own path.
fn legs(path: &[SurfacePoint]) -> Vec<Vec<SurfacePoint>> {
    let mut out = vec![Vec::new()];
    for p in path {
        let mut p = *p;
        if p.flags.contains(PointFlags::LINK_END) {
            out.push(Vec::new());
            p.flags |= PointFlags::START;
        }
        if p.flags.contains(PointFlags::LINK_START) {
            p.flags |= PointFlags::END;
        }
        out.last_mut().unwrap().push(p);
    }
    out
}

#[test]
fn routes_over_links_cost_the_oracles_cheapest() {
    let mut rng = Rng::new(38);
    let s = with_random_links(dungeon(), &mut rng, 8);
    let oracle = SurfaceOracle::new(&s);
    let mesh = SurfaceMesh::new(s.clone()).unwrap();
    let mut query = SurfaceQuery::new();
    let areas = plan_areas(&s);
    let up = s.up();
    let (mut over_links, mut unreachable) = (0, 0);
    for q in 0..60 {
        let (pa, a) = random_point(&s, &mut rng, &areas);
        let (pb, b) = random_point(&s, &mut rng, &areas);
        let best = cheapest(&oracle, &s, (pa, up.plan(a)), (pb, up.plan(b)));
        let path = match query.find_path(&mesh, a, b, 0.0) {
            Ok(path) => path.to_vec(),
            Err(Error::UnreachableOnSurface { .. }) => {
                assert!(
                    best.is_infinite(),
                    "query {q}: refused, the oracle has {best}"
                );
                unreachable += 1;
                continue;
            }
            Err(e) => panic!("query {q} {a} → {b}: {e}"),
        };
        assert_eq!(up.plan(path[0].position), up.plan(a), "query {q}");
        assert_eq!(
            up.plan(path.last().unwrap().position),
            up.plan(b),
            "query {q}"
        );
        let cost = route_cost(&s, &query, &path);
        assert!(
            (cost - best).abs() <= 1e-9 * best.max(1.0),
            "query {q} {a} → {b}: the route costs {cost}, the cheapest {best} (legs {:?})",
            query.legs()
        );
        let legs = legs(&path);
        assert_eq!(legs.len(), query.legs().len(), "query {q}");
        for leg in &legs {
            check_on_surface(&oracle, &s, leg, 0.0);
        }
        // Each link's ends are where the path leaves and lands.
        for (leg, next) in query.legs().iter().zip(&legs[1..]) {
            let link = s.links()[leg.link.unwrap() as usize];
            let lands = next[0].position;
            assert!(lands == link.end || lands == link.start, "query {q}");
        }
        over_links += usize::from(query.legs().len() > 1);
    }
    println!("60 queries: {over_links} over links, {unreachable} unreachable");
    // The seed gives routes of every kind (a test that cannot fail proves nothing).
    assert!(
        over_links >= 10 && unreachable >= 1,
        "{over_links}, {unreachable}"
    );
}
