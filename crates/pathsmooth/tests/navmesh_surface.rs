//! Navmesh surfaces (issue 27, item 1): a hand-made two-storey level with a ramp, Unity-style
//! per-triangle vertices welding to the shared-vertex mesh (property test), every bad input
//! refused with its error, both up axes agreeing, and a flat surface agreeing with the 2D
//! navmesh of the same polygons on point location.

use crate::common;

use std::collections::BTreeSet;

use common::rng::Rng;
use glam::{DVec2, DVec3};
use pathsmooth::navmesh::parse_obj_surface;
use pathsmooth::navmesh::{NavMesh, Surface, SurfaceOptions, UpAxis};
use pathsmooth::Error;
use proptest::prelude::*;

/// y-up point from plan view (x, z) and height h.
fn y(x: f64, h: f64, z: f64) -> DVec3 {
    DVec3::new(x, h, z)
}

/// A random point in the box `lo..hi` (each coordinate uniform, drawn x, y, z in turn).
fn point_in(rng: &mut Rng, lo: DVec3, hi: DVec3) -> DVec3 {
    DVec3::new(
        rng.range(lo.x, hi.x),
        rng.range(lo.y, hi.y),
        rng.range(lo.z, hi.z),
    )
}

/// A two-storey level, y up (plan view x–z):
///
/// - ground floor at height 0: `G0` x 0..10, z 0..4 and `G1` x 0..10, z 4..8;
/// - a ramp `R` x 10..16, z 0..4 rising from 0 (x = 10) to 3 (x = 16);
/// - landings `L0` x 16..18, z 0..4 and `L1` x 16..18, z 4..8 at height 3;
/// - a bridge `B` x 2..16, z 4..8 at height 3, over `G1` in plan view.
///
/// Polygons in that order: G0 = 0, G1 = 1, R = 2, L0 = 3, L1 = 4, B = 5.
fn two_storey() -> (Vec<DVec3>, Vec<Vec<u32>>) {
    let v = vec![
        y(0.0, 0.0, 0.0),  // 0
        y(10.0, 0.0, 0.0), // 1
        y(10.0, 0.0, 4.0), // 2
        y(0.0, 0.0, 4.0),  // 3
        y(10.0, 0.0, 8.0), // 4
        y(0.0, 0.0, 8.0),  // 5
        y(16.0, 3.0, 0.0), // 6
        y(16.0, 3.0, 4.0), // 7
        y(18.0, 3.0, 0.0), // 8
        y(18.0, 3.0, 4.0), // 9
        y(18.0, 3.0, 8.0), // 10
        y(16.0, 3.0, 8.0), // 11
        y(2.0, 3.0, 4.0),  // 12
        y(2.0, 3.0, 8.0),  // 13
    ];
    let polys = vec![
        vec![0, 1, 2, 3],    // G0
        vec![3, 2, 4, 5],    // G1
        vec![1, 6, 7, 2],    // R
        vec![6, 8, 9, 7],    // L0
        vec![7, 9, 10, 11],  // L1
        vec![12, 7, 11, 13], // B
    ];
    (v, polys)
}

/// Options with weld tolerance `weld`, otherwise the defaults.
fn welded(up: UpAxis, weld: f64) -> SurfaceOptions {
    SurfaceOptions {
        weld: Some(weld),
        ..SurfaceOptions::new(up)
    }
}

fn adjacency(s: &Surface) -> BTreeSet<(u32, u32)> {
    (0..s.num_polygons() as u32)
        .flat_map(|p| s.neighbors(p).flatten().map(move |q| (p.min(q), p.max(q))))
        .collect()
}

#[test]
fn a_two_storey_level_joins_along_the_ramp_not_the_overlap() {
    let (v, polys) = two_storey();
    let s = Surface::from_polygons(&v, &polys, UpAxis::Y, 1e-6).unwrap();
    assert_eq!(s.num_polygons(), 6);
    let expected: BTreeSet<(u32, u32)> = [(0, 1), (0, 2), (2, 3), (3, 4), (4, 5)].into();
    assert_eq!(adjacency(&s), expected);
    // The bridge (5) overlaps the ground floor's G1 (1) in plan view, but they share no edge.
    assert!(s.neighbors(5).all(|n| n != Some(1)));
    // The ramp's plane rises 3 over 6.
    assert!((s.height_at(2, DVec2::new(13.0, 2.0)) - 1.5).abs() < 1e-12);
    let n = s.plane(2).normal;
    assert!(
        (n - DVec3::new(-0.5, 1.0, 0.0).normalize()).length() < 1e-12,
        "{n}"
    );
}

#[test]
fn find_nearest_and_locate_pick_the_floor_the_point_is_on() {
    let (v, polys) = two_storey();
    let s = Surface::from_polygons(&v, &polys, UpAxis::Y, 1e-6).unwrap();
    let he = DVec3::new(0.5, 2.0, 0.5);
    // Over G1 and under B at plan (5, 6).
    assert_eq!(
        s.find_nearest(y(5.0, 0.2, 6.0), he),
        Some((1, y(5.0, 0.0, 6.0)))
    );
    assert_eq!(
        s.find_nearest(y(5.0, 3.2, 6.0), he),
        Some((5, y(5.0, 3.0, 6.0)))
    );
    // A box tall enough for both floors still takes the nearer one.
    let tall = DVec3::new(0.5, 10.0, 0.5);
    assert_eq!(s.find_nearest(y(5.0, 0.4, 6.0), tall).unwrap().0, 1);
    assert_eq!(s.find_nearest(y(5.0, 2.6, 6.0), tall).unwrap().0, 5);
    // Beside the mesh in plan view: the nearest boundary point in 3D.
    let (p, at) = s
        .find_nearest(y(-0.5, 0.0, 2.0), DVec3::splat(1.0))
        .unwrap();
    assert_eq!((p, at), (0, y(0.0, 0.0, 2.0)));
    assert_eq!(s.find_nearest(y(5.0, 20.0, 6.0), he), None);
    // The ramp.
    assert_eq!(s.find_nearest(y(13.0, 1.7, 2.0), he).unwrap().0, 2);

    assert_eq!(s.locate(y(5.0, 0.1, 6.0), 0.5), Ok(1));
    assert_eq!(s.locate(y(5.0, 2.9, 6.0), 0.5), Ok(5));
    assert_eq!(s.locate(y(13.0, 1.6, 2.0), 0.5), Ok(2));
    // Halfway between the floors: no floor, whatever is nearest.
    let e = s.locate(y(5.0, 1.5, 6.0), 0.5).unwrap_err();
    assert!(matches!(e, Error::NoFloor { .. }));
    assert_eq!(e.to_string(), "no floor within 0.5 of (5, 1.5, 6)");
    assert!(matches!(
        s.locate(y(30.0, 0.0, 6.0), 0.5),
        Err(Error::NoFloor { .. })
    ));
    assert!(matches!(
        s.locate(y(f64::NAN, 0.0, 6.0), 0.5),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        s.locate(y(5.0, 0.0, 6.0), -1.0),
        Err(Error::BadParameter { .. })
    ));
    assert_eq!(s.find_nearest(y(5.0, f64::INFINITY, 6.0), he), None);
}

#[test]
fn the_same_level_from_obj_with_z_up() {
    let (v, polys) = two_storey();
    let mut text = String::new();
    for p in &v {
        // z up: (x, plan z, height).
        text += &format!("v {} {} {}\n", p.x, p.z, p.y);
    }
    for poly in &polys {
        text += "f";
        for i in poly {
            text += &format!(" {}", i + 1);
        }
        text += "\n";
    }
    let s = parse_obj_surface(&text, "level.obj", &welded(UpAxis::Z, 1e-6)).unwrap();
    let ys = Surface::from_polygons(&v, &polys, UpAxis::Y, 1e-6).unwrap();
    assert_eq!(adjacency(&s), adjacency(&ys));
    assert_eq!(s.locate(DVec3::new(5.0, 6.0, 2.9), 0.5), Ok(5));
    // A bad face names its line.
    let bad = format!("{text}f 1 2 15\n");
    let e = parse_obj_surface(&bad, "level.obj", &welded(UpAxis::Z, 1e-6)).unwrap_err();
    assert!(e.to_string().starts_with("level.obj:21:"), "{e}");
    // A second polygon on G0's edges 0–1 and 1–2, on the same side: both edges stay
    // walls, counted.
    let nm = format!("{text}f 1 2 3\n");
    let s = parse_obj_surface(&nm, "level.obj", &welded(UpAxis::Z, 1e-6)).unwrap();
    assert_eq!(s.load_report().unjoined_edges, 2);
}

/// Polygon `p`'s 3D bounding box, from its corners.
fn box_of(s: &Surface, p: u32) -> (DVec3, DVec3) {
    let ring = s.polygon(p).iter().map(|&i| s.vertices()[i as usize]);
    (
        ring.clone().fold(DVec3::INFINITY, DVec3::min),
        ring.fold(DVec3::NEG_INFINITY, DVec3::max),
    )
}

/// A scan of every polygon whose box meets the box `q ± he`: the one whose nearest point
/// to `q` has the least `rank(p, point)` (the lower id on a tie), with that point.
fn scan_nearest<R: PartialOrd>(
    s: &Surface,
    q: DVec3,
    he: DVec3,
    rank: impl Fn(u32, DVec3) -> R,
) -> Option<(u32, DVec3)> {
    let mut best: Option<(R, u32, DVec3)> = None;
    for p in 0..s.num_polygons() as u32 {
        let (lo, hi) = box_of(s, p);
        if (lo.cmple(q + he) & hi.cmpge(q - he)).all() {
            let c = s.nearest_on_polygon(p, q);
            let r = rank(p, c);
            if best.as_ref().is_none_or(|b| r < b.0) {
                best = Some((r, p, c));
            }
        }
    }
    best.map(|b| (b.1, b.2))
}

/// `find_nearest` and `locate` agree with a scan of every polygon (the bucket grid misses
/// nothing), on random points around the two-storey level.
#[test]
fn point_location_matches_a_scan_of_every_polygon() {
    let (v, polys) = two_storey();
    let s = Surface::from_polygons(&v, &polys, UpAxis::Y, 1e-6).unwrap();
    let mut rng = Rng::new(11);
    for _ in 0..3000 {
        let q = point_in(&mut rng, y(-2.0, -1.0, -2.0), y(20.0, 5.0, 10.0));
        let he = point_in(&mut rng, DVec3::ZERO, DVec3::splat(2.0));
        let nearest = scan_nearest(&s, q, he, |_, c| c.distance_squared(q));
        assert_eq!(s.find_nearest(q, he), nearest, "{q} ± {he}");
        // With a climb: a floor straight above or below within it first (nearest in
        // height, then lower id), else the rest ranked by distance beyond the climb.
        // (Up to past the storey height, so both floors are within it at times; and
        // above the box's height as often as below it, as Godot's agents' climbs are.)
        let climb = rng.range(0.0, 3.5);
        let he = DVec3::new(he.x, rng.range(0.0, 4.0), he.z);
        let plan = DVec2::new(q.x, q.z);
        let climbing = scan_nearest(&s, q, he, |p, c| {
            let dh = (c.y - q.y).abs();
            match s.contains_plan(p, plan) {
                true if dh <= climb => (false, dh),
                true => (true, (dh - climb).powi(2)),
                false => (true, c.distance_squared(q)),
            }
        });
        assert_eq!(
            s.find_nearest_climbing(q, he, climb),
            climbing,
            "{q} ± {he}, climb {climb}"
        );
        let tol = rng.range(0.0, 2.0);
        let scan = (0..s.num_polygons() as u32)
            .filter(|&p| s.contains_plan(p, plan))
            .map(|p| ((s.height_at(p, plan) - q.y).abs(), p))
            .filter(|&(dh, _)| dh <= tol)
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        assert_eq!(s.locate(q, tol).ok(), scan.map(|x| x.1), "{q}, {tol}");
    }
}

/// An OBJ file with every face on its own vertices (as per-triangle exports write them)
/// welds into the shared-vertex surface.
#[test]
fn obj_faces_on_their_own_vertices_weld() {
    let (v, polys) = two_storey();
    let mut text = String::new();
    let mut k = 1;
    for (f, poly) in polys.iter().enumerate() {
        // Each face's copies a little off, differently for every face.
        let off = DVec3::new(1.0, -1.0, 1.0) * 1e-7 * (f + 1) as f64;
        for &i in poly {
            let p = v[i as usize] + off;
            text += &format!("v {} {} {}\n", p.x, p.y, p.z);
        }
        text += "f";
        for _ in poly {
            text += &format!(" {k}");
            k += 1;
        }
        text += "\n";
    }
    let s = parse_obj_surface(&text, "soup.obj", &welded(UpAxis::Y, 1e-5)).unwrap();
    let shared = Surface::from_polygons(&v, &polys, UpAxis::Y, 1e-6).unwrap();
    assert_eq!(s.vertices().len(), 14);
    assert_eq!(adjacency(&s), adjacency(&shared));
    // Without welding (exact copies only), nothing is joined.
    let apart = parse_obj_surface(&text, "soup.obj", &welded(UpAxis::Y, 0.0)).unwrap();
    assert!(adjacency(&apart).is_empty());
}

/// Both up axes give the same surface on the same mesh with its axes swapped.
#[test]
fn both_up_axes_agree() {
    let (v, polys) = two_storey();
    let ys = Surface::from_polygons(&v, &polys, UpAxis::Y, 1e-6).unwrap();
    let swap = |p: DVec3| DVec3::new(p.x, p.z, p.y);
    let vz: Vec<DVec3> = v.iter().map(|&p| swap(p)).collect();
    let zs = Surface::from_polygons(&vz, &polys, UpAxis::Z, 1e-6).unwrap();
    assert_eq!(adjacency(&ys), adjacency(&zs));
    for p in 0..6 {
        assert_eq!(ys.polygon(p), zs.polygon(p));
        assert_eq!(swap(ys.plane(p).normal), zs.plane(p).normal);
        assert_eq!(ys.plan_bounds(p), zs.plan_bounds(p));
    }
    let mut rng = Rng::new(27);
    for _ in 0..2000 {
        let q = point_in(&mut rng, y(-1.0, -1.0, -1.0), y(19.0, 4.0, 9.0));
        assert_eq!(ys.locate(q, 0.4).ok(), zs.locate(swap(q), 0.4).ok());
        let he = DVec3::new(0.7, 1.1, 0.3);
        let a = ys.find_nearest(q, he);
        let b = zs.find_nearest(swap(q), swap(he));
        assert_eq!(a.map(|(p, c)| (p, swap(c))), b);
    }
}

/// A flat surface made from a 2D navmesh's polygons locates points as the navmesh does.
#[test]
fn a_flat_surface_agrees_with_the_2d_navmesh() {
    // A 4×4 grid of unit quads with the middle 2×2 missing (a hole), as polygons.
    let mut verts = Vec::new();
    for j in 0..5 {
        for i in 0..5 {
            verts.push(DVec2::new(i as f64, j as f64));
        }
    }
    let mut polys = Vec::new();
    for j in 0..4u32 {
        for i in 0..4u32 {
            if (1..3).contains(&i) && (1..3).contains(&j) {
                continue;
            }
            let v = |i: u32, j: u32| j * 5 + i;
            polys.push(vec![v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)]);
        }
    }
    let mesh = NavMesh::from_polygons(&verts, &polys).unwrap();
    for up in [UpAxis::Y, UpAxis::Z] {
        let s = Surface::from_navmesh(&mesh, up).unwrap();
        assert_eq!(s.num_polygons(), 12);
        let mut rng = Rng::new(5);
        for _ in 0..3000 {
            let q = DVec2::new(rng.range(-0.5, 4.5), rng.range(-0.5, 4.5));
            let got = s.locate(up.join(q, 0.0), 1e-6);
            match mesh.locate(q) {
                Some(t) => {
                    let want = mesh.polygon_of(t);
                    let got = got.unwrap();
                    assert!(
                        got == want || s.contains_plan(want, q),
                        "{q}: {got} vs {want}"
                    );
                }
                None => assert!(matches!(got, Err(Error::NoFloor { .. })), "{q}: {got:?}"),
            }
        }
    }
}

/// The error of building `polys` on `v` (z up, weld 1e-6, T-junctions refused).
fn refused(v: &[DVec3], polys: &[Vec<u32>]) -> Error {
    let strict = SurfaceOptions {
        split_t_junctions: false,
        ..welded(UpAxis::Z, 1e-6)
    };
    match Surface::from_polygons_with(v, polys, &[], &[], &strict) {
        Ok(_) => panic!("{polys:?} on {v:?} should be refused"),
        Err(e) => e,
    }
}

/// The surface of `polys` on `v` (z up, weld 1e-6).
fn built(v: &[DVec3], polys: &[Vec<u32>]) -> Surface {
    Surface::from_polygons(v, polys, UpAxis::Z, 1e-6).unwrap()
}

fn z(x: f64, y: f64, h: f64) -> DVec3 {
    DVec3::new(x, y, h)
}

/// Vertices at height 0 (z up) at the plan-view points `xy`.
fn ground(xy: &[(f64, f64)]) -> Vec<DVec3> {
    xy.iter().map(|&(x, y)| z(x, y, 0.0)).collect()
}

#[test]
fn bad_input_gets_its_error() {
    let sq = ground(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
    let msg = |e: Error| e.to_string();

    // Fewer than 3 distinct vertices (after welding): dropped and counted; with nothing
    // left, an error.
    let e = msg(refused(&sq, &[vec![0, 1, 1, 0]]));
    assert!(e.contains("no polygon has area in plan view"), "{e}");
    let s = built(&sq, &[vec![0, 1, 1, 0], vec![0, 1, 2, 3]]);
    assert_eq!(s.num_polygons(), 1);
    assert_eq!(s.input_polygon(0), 1);
    assert_eq!(s.load_report().degenerate, [0]);
    assert_eq!(s.load_report().repeated_corners, 2);
    let close = ground(&[(0., 0.), (1., 0.), (1e-7, 0.)]);
    assert!(msg(refused(&close, &[vec![0, 1, 2]])).contains("no polygon has area"));
    // Index out of range.
    assert!(msg(refused(&sq, &[vec![0, 1, 9]])).contains("polygon 0 uses vertex 9"));
    // Non-finite and out-of-range coordinates.
    let mut nan = sq.clone();
    nan[2].y = f64::NAN;
    assert_eq!(
        refused(&nan, &[vec![0, 1, 2, 3]]),
        Error::NonFinite { index: 2 }
    );
    let mut big = sq.clone();
    big[3].x = 1e70;
    assert!(matches!(
        refused(&big, &[vec![0, 1, 2, 3]]),
        Error::CoordinateOutOfRange { index: Some(3), .. }
    ));
    // Non-manifold: three triangles on edge 0–1.
    let fan = vec![
        z(0., 0., 0.),
        z(1., 0., 0.),
        z(0.5, 1., 0.),
        z(0.5, -1., 0.),
        z(0.5, 2., 1.),
    ];
    // It joins none of them: a wall for all three, counted.
    let s = built(&fan, &[vec![0, 1, 2], vec![1, 0, 3], vec![0, 1, 4]]);
    assert!((0..3).all(|p| s.neighbors(p).all(|n| n.is_none())));
    assert_eq!(s.load_report().unjoined_edges, 1);
    assert_eq!(s.load_report().unjoined_example, Some(([0, 1], 2)));
    assert!(s.load_report().to_string().contains("left 1 edge unjoined"));
    // A fold: two polygons on the same side of their shared edge; likewise.
    let s = built(&fan, &[vec![0, 1, 2], vec![0, 1, 4]]);
    assert!((0..2).all(|p| s.neighbors(p).all(|n| n.is_none())));
    assert_eq!(s.load_report().unjoined_edges, 1);
    // Not convex (a dart) and self-intersecting (a bow tie, a pentagram).
    let dart = ground(&[(0., 0.), (2., 0.), (1., 0.5), (2., 2.), (0., 2.)]);
    assert!(msg(refused(&dart, &[vec![0, 1, 2, 3, 4]])).contains("not convex"));
    let e = msg(refused(&sq, &[vec![0, 1, 3, 2]]));
    // (this bow tie's two halves cancel: no area in plan view)
    assert!(
        e.contains("not convex") || e.contains("intersects itself") || e.contains("has area"),
        "{e}"
    );
    let star: Vec<DVec3> = (0..5)
        .map(|k| {
            let a = (2 * k) as f64 * std::f64::consts::TAU / 5.0;
            z(a.cos(), a.sin(), 0.0)
        })
        .collect();
    assert!(msg(refused(&star, &[vec![0, 1, 2, 3, 4]])).contains("intersects itself"));
    // Far from planar: kept, counted, its heights from its own triangles.
    let bent = vec![z(0., 0., 0.), z(1., 0., 0.), z(1., 1., 0.), z(0., 1., 5.)];
    let s = built(&bent, &[vec![0, 1, 2, 3]]);
    assert_eq!(s.load_report().non_planar, 1);
    assert_eq!(s.load_report().worst_non_planar.map(|w| w.0), Some(0));
    assert!(s.load_report().to_string().contains("1 polygon not planar"));
    assert_eq!(s.floor_height(0, DVec2::new(0.0, 1.0)), 5.0);
    assert_eq!(s.floor_height(0, DVec2::new(1.0, 1.0)), 0.0);
    // Vertical: no area in plan view.
    let wall = vec![z(0., 0., 0.), z(1., 0., 0.), z(1., 0., 1.), z(0., 0., 1.)];
    assert!(msg(refused(&wall, &[vec![0, 1, 2, 3]])).contains("no polygon has area in plan view"));
    // A vertex used twice; a spike out and back (as welding leaves) is only cleaned.
    let e = msg(refused(&dart, &[vec![0, 1, 2, 0, 3, 4]]));
    assert!(e.contains("twice"), "{e}");
    let s = built(&dart, &[vec![0, 1, 3, 1, 4]]);
    assert_eq!(s.polygon(0).len(), 3);
    assert_eq!(s.load_report().repeated_corners, 2);
    // A T-junction: vertex 4 splits the bottom edge of the upper triangle's neighbours.
    let t = ground(&[(0., 0.), (2., 0.), (1., 1.), (1., -1.), (1., 0.)]);
    let e = msg(refused(&t, &[vec![0, 1, 2], vec![0, 3, 4], vec![4, 3, 1]]));
    assert!(e.contains("T-junction") && e.contains("vertex 4"), "{e}");
    // The same, but close enough to weld? No: a T-junction within the weld tolerance in 3D.
    let mut t2 = t.clone();
    t2[4].y = 5e-7;
    assert!(
        msg(refused(&t2, &[vec![0, 1, 2], vec![0, 3, 4], vec![4, 3, 1]])).contains("T-junction")
    );
    // With `split_t_junctions`, vertex 4 becomes a corner of the upper triangle, which
    // then neighbours both lower ones — also when it is off the edge by less than the weld.
    let split = SurfaceOptions {
        weld: Some(1e-6),
        split_t_junctions: true,
        ..SurfaceOptions::new(UpAxis::Z)
    };
    for verts in [&t, &t2] {
        let polys = [vec![0u32, 1, 2], vec![0, 3, 4], vec![4, 3, 1]];
        let s = Surface::from_polygons_with(verts, &polys, &[], &[], &split).unwrap();
        assert_eq!(s.polygon(0).len(), 4);
        assert!(s.polygon(0).contains(&s.welded_vertex(4).unwrap()));
        let mut n: Vec<_> = s.neighbors(0).flatten().collect();
        n.sort_unstable();
        assert_eq!(n, [1, 2]);
        assert_eq!(s.neighbors(1).flatten().filter(|&q| q == 0).count(), 1);
        assert_eq!(s.neighbors(2).flatten().filter(|&q| q == 0).count(), 1);
        assert_eq!(s.locate(z(1.0, 0.5, 0.0), 0.1).unwrap(), 0);
    }
    // Several vertices on one edge go in in order along it; a split that would give a
    // sub-edge three polygons is refused like any non-manifold edge, never a panic.
    let fan = ground(&[
        (0., 0.),
        (3., 0.),
        (1.5, 2.),
        (1., 0.),
        (2., 0.),
        (1.5, -1.),
    ]);
    let fan_of =
        |polys: [[u32; 3]; 4]| Surface::from_polygons_with(&fan, &polys, &[], &[], &split).unwrap();
    let s = fan_of([[0, 1, 2], [0, 5, 3], [3, 5, 4], [4, 5, 1]]);
    assert_eq!(s.polygon(0).len(), 5);
    assert_eq!(s.neighbors(0).flatten().count(), 3);
    let s = fan_of([[0, 1, 2], [0, 5, 3], [3, 5, 1], [3, 5, 1]]);
    assert_eq!(s.load_report().duplicates, [3]);
    assert_eq!(s.num_polygons(), 3);
    // …but a vertex of another floor above the edge is not one.
    let mut t3 = t.clone();
    t3[4].z = 3.0;
    t3[3].z = 3.0;
    let polys = [vec![0, 1, 2], vec![0, 3, 4], vec![4, 3, 1]];
    assert!(Surface::from_polygons(&t3, &polys, UpAxis::Z, 1e-6).is_ok());
    // No polygons; bad parameters.
    assert!(msg(refused(&sq, &[])).contains("no polygons"));
    let o = |weld, planarity| SurfaceOptions {
        up: UpAxis::Z,
        weld: Some(weld),
        planarity,
        split_t_junctions: false,
    };
    for opts in [
        o(-1.0, 0.1),
        o(f64::NAN, 0.1),
        o(f64::INFINITY, 0.1),
        o(0.0, f64::NAN),
    ] {
        assert!(matches!(
            Surface::from_polygons_with(&sq, &[[0u32, 1, 2, 3]], &[], &[], &opts),
            Err(Error::BadParameter { .. })
        ));
    }
    assert!(matches!(
        Surface::from_polygons_with(&sq, &[[0u32, 1, 2, 3]], &[1, 2], &[], &o(0.0, 0.1)),
        Err(Error::BadParameter { name: "areas", .. })
    ));
}

/// Clockwise input is stored counter-clockwise in plan view; repeated closing vertices are
/// dropped.
#[test]
fn winding_and_repeats_are_normalised() {
    let sq = ground(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]);
    let s = Surface::from_polygons(&sq, &[[0u32, 3, 3, 2, 1, 0]], UpAxis::Z, 0.0).unwrap();
    assert_eq!(s.polygon(0), [1, 2, 3, 0]);
    assert!(s.plane(0).normal.z > 0.0);
}

/// A random height field on a grid of quads, each split into two triangles along a random
/// diagonal: the shared-vertex triangles, and the same triangles Unity style (each with its
/// own three vertices, jittered by less than a quarter of the weld tolerance, in a random
/// rotation of its corners).
fn grid_triangles(
    nx: usize,
    ny: usize,
    heights: &[f64],
    diagonals: &[bool],
) -> (Vec<DVec3>, Vec<[u32; 3]>) {
    let v: Vec<DVec3> = (0..=ny)
        .flat_map(|j| (0..=nx).map(move |i| (i, j)))
        .map(|(i, j)| DVec3::new(i as f64, heights[j * (nx + 1) + i], j as f64))
        .collect();
    let id = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    let mut tris = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            if diagonals[j * nx + i] {
                tris.push([a, b, c]);
                tris.push([a, c, d]);
            } else {
                tris.push([a, b, d]);
                tris.push([b, c, d]);
            }
        }
    }
    (v, tris)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn unity_style_triangles_weld_to_the_shared_vertex_mesh(
        (nx, ny, heights, diagonals, jitter, rotations) in (1usize..7, 1usize..7).prop_flat_map(|(nx, ny)| (
            Just(nx),
            Just(ny),
            prop::collection::vec(-0.3f64..0.3, (nx + 1) * (ny + 1)),
            prop::collection::vec(any::<bool>(), nx * ny),
            prop::collection::vec(prop::array::uniform3(-1.0f64..1.0), 6 * nx * ny),
            prop::collection::vec(0usize..3, 2 * nx * ny),
        )),
        up_z in any::<bool>(),
    ) {
        let weld = 1e-3;
        let (v, tris) = grid_triangles(nx, ny, &heights, &diagonals);
        let mut dup = Vec::new();
        let mut dup_tris = Vec::new();
        for (t, tri) in tris.iter().enumerate() {
            let mut out = [0u32; 3];
            for k in 0..3 {
                let corner = tri[(k + rotations[t]) % 3];
                let j = DVec3::from_array(jitter[3 * t + k]) * (weld / 4.0 / 3f64.sqrt());
                out[k] = dup.len() as u32;
                dup.push(v[corner as usize] + j);
            }
            dup_tris.push(out);
        }
        let (up, swap): (UpAxis, fn(DVec3) -> DVec3) = if up_z {
            (UpAxis::Z, |p| DVec3::new(p.x, p.z, p.y))
        } else {
            (UpAxis::Y, |p| p)
        };
        let v: Vec<DVec3> = v.into_iter().map(swap).collect();
        let dup: Vec<DVec3> = dup.into_iter().map(swap).collect();
        let shared = Surface::from_polygons(&v, &tris, up, weld).unwrap();
        let welded = Surface::from_polygons(&dup, &dup_tris, up, weld).unwrap();
        prop_assert_eq!(shared.vertices().len(), welded.vertices().len());
        prop_assert_eq!(adjacency(&shared), adjacency(&welded));
        // Interior edges: every quad's diagonal, and the edges between quads.
        let interior = nx * ny + (nx - 1) * ny + nx * (ny - 1);
        prop_assert_eq!(adjacency(&shared).len(), interior);
        // Both locate the same triangle at the middle of every triangle.
        for (t, tri) in tris.iter().enumerate() {
            let c = tri.iter().map(|&i| v[i as usize]).sum::<DVec3>() / 3.0;
            prop_assert_eq!(welded.locate(c, 1e-2), Ok(t as u32));
        }
    }
}
