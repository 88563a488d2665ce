//! Area costs on navmeshes (issue 28): navmeshes of unit-square polygons cut from Moving
//! AI maps, with swamp (`S`) and water (`W`) painted by a seeded generator, checked
//! against an independent cost integral written here: each segment is clipped against
//! every polygon (convex-polygon clipping, nothing of the library's), and the length of
//! each piece times the cheapest polygon holding it is summed.

use crate::common;

use glam::DVec2;
use pathsmooth::area::{AreaCosts, AreaId, SWAMP, WATER};
use pathsmooth::navmesh::NavMesh;
use pathsmooth::{Error, GridMap, Pipeline, Preset, SurfaceWorld, World};

use common::fixtures::three_squares_in_a_row;
use common::rng::Rng;

const GROUND: AreaId = b'.';

/// A navmesh test case: convex polygons with an area each, the polygons kept for the
/// oracle.
struct Case {
    name: String,
    vertices: Vec<DVec2>,
    polygons: Vec<Vec<u32>>,
    areas: Vec<AreaId>,
}

impl Case {
    fn mesh(&self) -> NavMesh {
        NavMesh::from_polygons_with_areas(&self.vertices, &self.polygons, &self.areas)
            .unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }

    fn ring(&self, p: usize) -> Vec<DVec2> {
        self.polygons[p]
            .iter()
            .map(|&v| self.vertices[v as usize])
            .collect()
    }

    /// Indices of the polygons in areas `costs` does not exclude.
    fn free_polygons(&self, costs: &AreaCosts) -> Vec<usize> {
        (0..self.polygons.len())
            .filter(|&p| costs.cost(self.areas[p]).is_some())
            .collect()
    }

    /// The centre of polygon `p` (the mean of its corners).
    fn centre(&self, p: usize) -> DVec2 {
        let ring = self.ring(p);
        ring.iter().copied().sum::<DVec2>() / ring.len() as f64
    }
}

/// The `size`² window of `map` with the most passable cells (offsets in steps of 8), cut
/// into unit squares, with swamp and water discs painted from `seed`.
fn map_case(name: &str, map: &GridMap, size: usize, seed: u64) -> Case {
    let (w, h) = (map.width(), map.height());
    let free_in = |x0: usize, y0: usize| {
        (y0..y0 + size)
            .flat_map(|y| (x0..x0 + size).map(move |x| (x, y)))
            .filter(|&(x, y)| map.is_passable(x as i64, y as i64))
            .count()
    };
    let mut best = (0, 0, 0);
    for y0 in (0..=h.saturating_sub(size)).step_by(8) {
        for x0 in (0..=w.saturating_sub(size)).step_by(8) {
            let n = free_in(x0, y0);
            if n > best.0 {
                best = (n, x0, y0);
            }
        }
    }
    let (_, x0, y0) = best;
    let mut rng = Rng::new(seed);
    let disc = |rng: &mut Rng, r0: f64, r1: f64| {
        (
            DVec2::new(rng.range(0.0, size as f64), rng.range(0.0, size as f64)),
            rng.range(r0, r1),
        )
    };
    let swamps: Vec<(DVec2, f64)> = (0..6).map(|_| disc(&mut rng, 3.0, 7.0)).collect();
    let waters: Vec<(DVec2, f64)> = (0..3).map(|_| disc(&mut rng, 1.5, 3.5)).collect();
    let n = size + 1;
    let vertices: Vec<DVec2> = (0..n)
        .flat_map(|y| (0..n).map(move |x| DVec2::new(x as f64, y as f64)))
        .collect();
    let (mut polygons, mut areas) = (Vec::new(), Vec::new());
    for y in 0..size {
        for x in 0..size {
            if !map.is_passable((x0 + x) as i64, (y0 + y) as i64) {
                continue;
            }
            let c = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
            let inside = |discs: &[(DVec2, f64)]| discs.iter().any(|&(o, r)| o.distance(c) < r);
            let v = |x: usize, y: usize| (y * n + x) as u32;
            polygons.push(vec![v(x, y), v(x + 1, y), v(x + 1, y + 1), v(x, y + 1)]);
            areas.push(if inside(&waters) {
                WATER
            } else if inside(&swamps) {
                SWAMP
            } else {
                GROUND
            });
        }
    }
    Case {
        name: format!("{name} window ({x0}, {y0})"),
        vertices,
        polygons,
        areas,
    }
}

/// The cases: a window of each navmesh map.
fn map_cases() -> Vec<Case> {
    common::real_maps(&common::NAVMESH_MAPS)
        .enumerate()
        .map(|(k, (name, map, _))| map_case(name, &map, 40, 0x5eed + k as u64))
        .collect()
}

// ---- the oracle ---------------------------------------------------------------------

/// The parameter interval `[lo, hi]` (of positive length) of the segment `a + s·d`,
/// `s ∈ [0, 1]`, inside the closed convex polygon `ring`. Each edge's crossing parameter
/// is computed from the edge's ends in a fixed order, so two polygons sharing an edge get
/// the same number.
fn clip(ring: &[DVec2], a: DVec2, d: DVec2) -> Option<(f64, f64)> {
    let cr = |u: DVec2, v: DVec2| u.x * v.y - u.y * v.x;
    let n = ring.len();
    let area2: f64 = (0..n).map(|k| cr(ring[k], ring[(k + 1) % n])).sum();
    let sign = area2.signum();
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for k in 0..n {
        let (p, q) = (ring[k], ring[(k + 1) % n]);
        // Inside: sign · cross(q − p, x − p) ≥ 0.
        let rate = sign * cr(q - p, d);
        let (u, v) = if (p.x, p.y) < (q.x, q.y) {
            (p, q)
        } else {
            (q, p)
        };
        if rate == 0.0 {
            if sign * cr(q - p, a - p) < 0.0 {
                return None;
            }
            continue;
        }
        let root = cr(v - u, u - a) / cr(v - u, d);
        if rate > 0.0 {
            lo = lo.max(root);
        } else {
            hi = hi.min(root);
        }
    }
    (lo < hi).then_some((lo, hi))
}

/// The cost of `a`–`b` under `costs`: Σ over the pieces between consecutive clip ends of
/// length × the cheapest polygon holding the piece; infinite where no polygon holds a
/// piece (or only excluded ones do). Gaps shorter than 10⁻¹² of the segment are rounding
/// where the segment passes a vertex, and cost nothing.
fn oracle_cost(case: &Case, costs: &AreaCosts, a: DVec2, b: DVec2) -> f64 {
    if a == b {
        return 0.0;
    }
    let d = b - a;
    let (lo_box, hi_box) = (a.min(b), a.max(b));
    let mut pieces = Vec::new();
    for p in 0..case.polygons.len() {
        let ring = case.ring(p);
        let (rlo, rhi) = ring.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(l, h), &v| (l.min(v), h.max(v)),
        );
        if rhi.x < lo_box.x || rhi.y < lo_box.y || rlo.x > hi_box.x || rlo.y > hi_box.y {
            continue;
        }
        if let Some((lo, hi)) = clip(&ring, a, d) {
            let m = costs.cost(case.areas[p]).unwrap_or(f64::INFINITY);
            pieces.push((lo, hi, m));
        }
    }
    let mut cuts: Vec<f64> = vec![0.0, 1.0];
    cuts.extend(pieces.iter().flat_map(|&(lo, hi, _)| [lo, hi]));
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let length = d.length();
    let mut total = 0.0;
    for w in cuts.windows(2) {
        let (x0, x1) = (w[0], w[1]);
        let m = pieces
            .iter()
            .filter(|&&(lo, hi, _)| lo <= x0 && hi >= x1)
            .map(|&(_, _, m)| m)
            .fold(f64::INFINITY, f64::min);
        if m.is_infinite() && x1 - x0 < 1e-12 {
            continue;
        }
        total += (x1 - x0) * length * m;
    }
    total
}

fn oracle_path_cost(case: &Case, costs: &AreaCosts, path: &[DVec2]) -> f64 {
    path.windows(2)
        .map(|w| oracle_cost(case, costs, w[0], w[1]))
        .sum()
}

/// True when `p` lies in a closed polygon of an area `costs` does not exclude.
fn in_free_polygon(case: &Case, costs: &AreaCosts, p: DVec2) -> bool {
    (0..case.polygons.len()).any(|k| {
        costs.cost(case.areas[k]).is_some() && {
            let ring = case.ring(k);
            let n = ring.len();
            let cr = |u: DVec2, v: DVec2| u.x * v.y - u.y * v.x;
            let sides: Vec<f64> = (0..n)
                .map(|i| cr(ring[(i + 1) % n] - ring[i], p - ring[i]))
                .collect();
            sides.iter().all(|&s| s >= 0.0) || sides.iter().all(|&s| s <= 0.0)
        }
    })
}

fn close(x: f64, y: f64) -> bool {
    (x.is_infinite() && y.is_infinite()) || (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
}

fn swamp_costs() -> AreaCosts {
    // Swamp at 4; water excluded (the default filter).
    "S=4".parse().unwrap()
}

// ---- the tests ----------------------------------------------------------------------

#[test]
fn the_oracle_prices_known_segments() {
    // Three unit squares in a row, the middle a swamp; the oracle itself on known values.
    let case = row_case();
    let c = swamp_costs();
    let p = DVec2::new;
    assert_eq!(oracle_cost(&case, &c, p(0.5, 0.5), p(2.5, 0.5)), 5.0);
    assert_eq!(oracle_cost(&case, &c, p(0.0, 1.0), p(3.0, 1.0)), 6.0);
    assert_eq!(
        oracle_cost(&case, &c, p(0.5, 0.5), p(3.5, 0.5)),
        f64::INFINITY
    );
    assert_eq!(oracle_cost(&case, &c, p(1.0, 0.0), p(1.0, 1.0)), 1.0);
}

/// Three unit squares in a row: ground, swamp, ground.
fn row_case() -> Case {
    let (vertices, polygons) = three_squares_in_a_row();
    Case {
        name: "row".into(),
        vertices,
        polygons,
        areas: vec![GROUND, SWAMP, GROUND],
    }
}

#[test]
fn segment_cost_equals_the_oracle() {
    let cases = map_cases();
    for case in &cases {
        let costs = swamp_costs();
        let world = SurfaceWorld::from_navmesh(&case.mesh())
            .unwrap()
            .with_area_costs(costs.clone())
            .unwrap();
        assert!(world.has_area_costs());
        let free = case.free_polygons(&costs);
        let all: Vec<usize> = (0..case.polygons.len()).collect();
        let mut rng = Rng::new(0xc057);
        let (mut finite, mut infinite, mut swampy) = (0, 0, 0);
        for k in 0..400 {
            // Mostly ends in free cells; every fifth goal anywhere, water included.
            let pool = if k % 5 == 0 { &all } else { &free };
            let pick = |rng: &mut Rng, pool: &[usize]| {
                let p = pool[(rng.next_u64() % pool.len() as u64) as usize];
                case.centre(p) + DVec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5))
            };
            let a = pick(&mut rng, &free);
            // Short and long segments.
            let b = if k % 2 == 0 {
                a + DVec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0))
            } else {
                pick(&mut rng, pool)
            };
            let got = world.segment_cost(a, b);
            let want = oracle_cost(case, &costs, a, b);
            assert!(
                close(got, want),
                "{}: segment {a} → {b}: library {got}, oracle {want}",
                case.name
            );
            if want.is_finite() {
                finite += 1;
                swampy += usize::from(want > a.distance(b) * (1.0 + 1e-9));
            } else {
                infinite += 1;
            }
        }
        println!(
            "{}: {finite} finite ({swampy} through swamp), {infinite} infinite",
            case.name
        );
        assert!(
            finite >= 40 && infinite >= 40 && swampy >= 10,
            "{}",
            case.name
        );
    }
}

/// Random start and goal cell centres, `n` of them, from `seed`.
fn pairs(case: &Case, costs: &AreaCosts, n: usize, seed: u64) -> Vec<(DVec2, DVec2)> {
    let free = case.free_polygons(costs);
    let mut rng = Rng::new(seed);
    let mut pick = || case.centre(free[(rng.next_u64() % free.len() as u64) as usize]);
    (0..n).map(|_| (pick(), pick())).collect()
}

#[test]
fn the_planner_avoids_water_and_costs_no_more_than_the_shortest_path() {
    for case in &map_cases() {
        let costs = swamp_costs();
        let mesh = case.mesh();
        let world = SurfaceWorld::from_navmesh(&mesh)
            .unwrap()
            .with_area_costs(costs.clone())
            .unwrap();
        // The unit-cost reference: swamp at 1, water still excluded.
        let unit = SurfaceWorld::from_navmesh(&mesh)
            .unwrap()
            .with_area_costs("S=1".parse().unwrap())
            .unwrap();
        assert!(!unit.has_area_costs());
        for radius in [0.0, 0.3] {
            let (mut planned, mut cheaper) = (0, 0);
            let (mut total, mut total_reference) = (0.0, 0.0);
            for (start, goal) in pairs(case, &costs, 40, 0xa5) {
                let reference = unit.find_path(start, goal, radius);
                let found = world.find_path(start, goal, radius);
                let (reference, path) = match (reference, found) {
                    (Ok(r), Ok(p)) => (r, p),
                    (Err(_), Err(_)) => continue,
                    (r, p) => panic!(
                        "{} r = {radius} {start} → {goal}: unit {r:?}, costs {p:?}",
                        case.name
                    ),
                };
                planned += 1;
                let (first, last) = (path[0], *path.last().unwrap());
                assert_eq!((first, last), (start, goal));
                for &p in &path {
                    assert!(
                        in_free_polygon(case, &costs, p),
                        "{}: point {p} of {start} → {goal} is not in a free polygon",
                        case.name
                    );
                }
                let cost = oracle_path_cost(case, &costs, &path);
                let reference_cost = oracle_path_cost(case, &costs, &reference);
                assert!(
                    cost.is_finite(),
                    "{}: {start} → {goal} enters water",
                    case.name
                );
                assert!(
                    cost <= reference_cost * (1.0 + 1e-9),
                    "{} r = {radius}: {start} → {goal} costs {cost}, the shortest path {reference_cost}",
                    case.name
                );
                cheaper += usize::from(cost < reference_cost * (1.0 - 1e-6));
                total += cost;
                total_reference += reference_cost;
            }
            println!(
                "{} r = {radius}: {planned} planned, {cheaper} cheaper than the shortest path, \
                 total cost {:.4} of the shortest paths'",
                case.name,
                total / total_reference
            );
            assert!(planned >= 20, "{}", case.name);
            assert!(cheaper >= 1, "{}: costs changed nothing", case.name);
        }
    }
}

#[test]
fn round_the_swamp_on_a_hand_made_mesh() {
    // 5×3 unit squares; the middle column's two lower cells are swamp.
    let (w, h) = (5u32, 3u32);
    let vertices: Vec<DVec2> = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| DVec2::new(x as f64, y as f64)))
        .collect();
    let v = |x: u32, y: u32| y * (w + 1) + x;
    let mut polygons = Vec::new();
    let mut areas = Vec::new();
    for y in 0..h {
        for x in 0..w {
            polygons.push(vec![v(x, y), v(x + 1, y), v(x + 1, y + 1), v(x, y + 1)]);
            areas.push(if x == 2 && y < 2 { SWAMP } else { GROUND });
        }
    }
    let case = Case {
        name: "block".into(),
        vertices,
        polygons,
        areas,
    };
    // At cost 4 the way over the swamp (about 5.24 long) is cheaper than through it (7).
    let costs = swamp_costs();
    let world = SurfaceWorld::from_navmesh(&case.mesh())
        .unwrap()
        .with_area_costs(costs.clone())
        .unwrap();
    let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(4.5, 0.5));
    let straight = oracle_cost(&case, &costs, a, b);
    assert_eq!(straight, 1.5 + 4.0 + 1.5);
    // At cost 2 straight through (5) is the cheapest, and what the planner keeps.
    let cheap: AreaCosts = "S=2".parse().unwrap();
    let through = SurfaceWorld::from_navmesh(&case.mesh())
        .unwrap()
        .with_area_costs(cheap.clone())
        .unwrap()
        .find_path(a, b, 0.0)
        .unwrap();
    assert_eq!(oracle_path_cost(&case, &cheap, &through), 5.0);
    for radius in [0.0, 0.3] {
        let path = world.find_path(a, b, radius).unwrap();
        let cost = oracle_path_cost(&case, &costs, &path);
        let length: f64 = path.windows(2).map(|s| s[0].distance(s[1])).sum();
        // Over the swamp (y ≥ 2 at x = 2.5): its cost is its length.
        assert!(close(cost, length), "r = {radius}: {path:?} costs {cost}");
        assert!(cost < straight, "r = {radius}: {cost}");
        assert!(path.iter().any(|p| p.y >= 2.0 + radius - 1e-9), "{path:?}");
    }
}

#[test]
fn unit_costs_are_bit_identical_to_a_world_without_areas() {
    let mut cases = map_cases();
    cases.push(row_case());
    for case in &cases {
        // Water as ground, so that nothing is excluded.
        let areas: Vec<AreaId> = case
            .areas
            .iter()
            .map(|&a| if a == WATER { GROUND } else { a })
            .collect();
        let with_areas =
            NavMesh::from_polygons_with_areas(&case.vertices, &case.polygons, &areas).unwrap();
        let plain = NavMesh::from_polygons(&case.vertices, &case.polygons).unwrap();
        let reference = SurfaceWorld::from_navmesh(&plain).unwrap();
        let worlds = [
            SurfaceWorld::from_navmesh(&with_areas).unwrap(),
            SurfaceWorld::from_navmesh(&with_areas)
                .unwrap()
                .with_area_costs("S=1".parse().unwrap())
                .unwrap(),
        ];
        let costs = AreaCosts::unit();
        for (start, goal) in pairs(case, &costs, 25, 0xb17) {
            for radius in [0.0, 0.3] {
                let want = reference.find_path(start, goal, radius);
                for world in &worlds {
                    assert!(!world.has_area_costs());
                    let got = world.find_path(start, goal, radius);
                    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{}", case.name);
                    assert_eq!(world.segment_cost(start, goal), start.distance(goal));
                }
            }
        }
        // Excluding water at unit costs is the world of the mesh without it.
        let excluded = SurfaceWorld::from_navmesh(&case.mesh())
            .unwrap()
            .with_area_costs(AreaCosts::default())
            .unwrap();
        let without = SurfaceWorld::from_navmesh(
            &case
                .mesh()
                .without_excluded(&AreaCosts::default())
                .unwrap()
                .unwrap_or_else(|| case.mesh()),
        )
        .unwrap();
        let dry = AreaCosts::default();
        for (start, goal) in pairs(case, &dry, 25, 0xd1) {
            for radius in [0.0, 0.3] {
                assert_eq!(
                    format!("{:?}", excluded.find_path(start, goal, radius)),
                    format!("{:?}", without.find_path(start, goal, radius)),
                    "{}",
                    case.name
                );
            }
        }
    }
}

#[test]
fn bad_input_gives_the_errors() {
    let case = row_case();
    let mesh = case.mesh();
    let world = SurfaceWorld::from_navmesh(&mesh)
        .unwrap()
        .with_area_costs("S=exclude".parse().unwrap())
        .unwrap();
    let (left, mid, right) = (
        DVec2::new(0.5, 0.5),
        DVec2::new(1.5, 0.5),
        DVec2::new(2.5, 0.5),
    );
    for (start, goal, what) in [(mid, left, "start"), (left, mid, "goal")] {
        match world.find_path(start, goal, 0.0) {
            Err(Error::ExcludedArea { what: w, area, .. }) => {
                assert_eq!((w, area.as_str()), (what, "S"));
            }
            other => panic!("{what} in the swamp: {other:?}"),
        }
    }
    // Every route crosses the excluded swamp.
    assert!(matches!(
        world.find_path(left, right, 0.0),
        Err(Error::Unreachable { .. })
    ));
    // At unit costs a segment costs its length (no step asks); with costs, through an
    // excluded area it costs infinity.
    assert_eq!(world.segment_cost(left, right), 2.0);
    let priced = world
        .clone()
        .with_area_costs("S=exclude,.=2".parse().unwrap())
        .unwrap();
    assert_eq!(priced.segment_cost(left, right), f64::INFINITY);
    assert_eq!(priced.segment_cost(left, DVec2::new(0.5, 0.75)), 0.5);
    // Everything excluded: refused.
    let all: AreaCosts = "S=exclude,.=exclude".parse().unwrap();
    assert!(matches!(
        world.clone().with_area_costs(all),
        Err(Error::NoFreeSpace)
    ));
    // An area id per polygon, no fewer.
    assert!(matches!(
        mesh.with_areas(&[GROUND]),
        Err(Error::InvalidPolygon { .. })
    ));
    // The query: the start's triangle excluded.
    let mut query = pathsmooth::navmesh::NavMeshQuery::new();
    let costs: AreaCosts = "S=exclude".parse().unwrap();
    let e = query.find_path_with_costs(&case.mesh(), &costs, mid, left, 0.0);
    assert!(
        matches!(e, Err(Error::ExcludedArea { what: "start", .. })),
        "{e:?}"
    );
    let e = query.find_path_with_costs(&case.mesh(), &costs, left, right, 0.0);
    assert!(matches!(e, Err(Error::Unreachable { .. })), "{e:?}");
}

#[test]
fn the_pipeline_never_raises_the_planner_path_cost() {
    for case in &map_cases() {
        let costs = swamp_costs();
        let world = SurfaceWorld::from_navmesh(&case.mesh())
            .unwrap()
            .with_area_costs(costs.clone())
            .unwrap();
        for radius in [0.0, 0.3] {
            for preset in [Preset::Shortest, Preset::Smooth, Preset::Corridor] {
                let mut pipeline = Pipeline::preset(&world, radius, preset).unwrap();
                let mut planned = 0;
                for (start, goal) in pairs(case, &costs, 12, 0x91) {
                    let Ok(planner) = world.find_path(start, goal, radius) else {
                        continue;
                    };
                    let out = pipeline
                        .plan(start, goal)
                        .unwrap_or_else(|e| panic!("{} {preset:?} r = {radius}: {e}", case.name));
                    planned += 1;
                    let (got, want) = (
                        oracle_path_cost(case, &costs, &out),
                        oracle_path_cost(case, &costs, &planner),
                    );
                    assert!(
                        got <= want * (1.0 + 1e-9),
                        "{} {preset:?} r = {radius}: {start} → {goal} costs {got}, the planner's path {want}",
                        case.name
                    );
                }
                assert!(planned >= 5, "{} {preset:?}", case.name);
            }
        }
    }
}

#[test]
fn areas_are_per_polygon_and_reach_the_surface() {
    use pathsmooth::navmesh::{Surface, UpAxis, DEFAULT_AREA};
    let case = row_case();
    let mesh = case.mesh();
    for t in 0..mesh.num_triangles() {
        assert_eq!(
            mesh.area_of(t),
            case.areas[mesh.polygon_index_of(t)],
            "triangle {t}"
        );
    }
    let s = Surface::from_navmesh(&mesh, UpAxis::Z).unwrap();
    assert_eq!((0..3).map(|p| s.area(p)).collect::<Vec<_>>(), case.areas);
    let plain = NavMesh::from_polygons(&case.vertices, &case.polygons).unwrap();
    assert!((0..plain.num_triangles()).all(|t| plain.area_of(t) == DEFAULT_AREA));
    assert_eq!(Surface::from_navmesh(&plain, UpAxis::Z).unwrap().area(1), 0);
    // A grid map's navmesh is one area.
    let grid = NavMesh::from_grid(&GridMap::from_rows(&["..S", ".W."]).unwrap()).unwrap();
    assert!((0..grid.num_triangles()).all(|t| grid.area_of(t) == DEFAULT_AREA));
}

#[test]
fn layered_meshes_and_their_sheets_keep_the_surface_areas() {
    use glam::DVec3;
    use pathsmooth::navmesh::{Surface, SurfaceMesh, SurfaceQuery, UpAxis};
    let case = row_case();
    let surface = Surface::from_navmesh(&case.mesh(), UpAxis::Z).unwrap();
    let layered = SurfaceMesh::new(surface).unwrap();
    let plan = layered.plan_mesh();
    for t in 0..plan.num_triangles() {
        let p = layered.polygon_of(t);
        assert_eq!(plan.area_of(t), layered.surface().area(p), "triangle {t}");
    }
    let mut query = SurfaceQuery::new();
    query
        .find_path(
            &layered,
            DVec3::new(0.5, 0.5, 0.0),
            DVec3::new(2.5, 0.5, 0.0),
            0.0,
        )
        .unwrap();
    let sheet = query.sheet(&layered, 1.0).unwrap();
    let flat = sheet.mesh();
    assert!(flat.num_triangles() >= 6);
    for t in 0..flat.num_triangles() {
        assert_eq!(flat.area_of(t), plan.area_of(sheet.surface_triangle(t)));
    }
    // The middle square's triangles are swamp on the sheet too.
    let mid = flat.locate(DVec2::new(1.5, 0.5)).unwrap();
    assert_eq!(flat.area_of(mid), SWAMP);
}
