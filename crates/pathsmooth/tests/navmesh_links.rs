//! Off-mesh links on surfaces: a link between the dungeon bake's two floors lands on the
//! polygons of those floors, snapped to their detail heights; links round-trip through the
//! navmesh JSON; every bad link is refused naming the link and the end.
#![cfg(feature = "serde")]

use glam::{DVec2, DVec3};
use pathsmooth::navmesh::{parse_surface_json, write_surface_json};
use pathsmooth::navmesh::{OffMeshLink, Surface, SurfaceOptions, UpAxis};
use pathsmooth::Error;

fn text(name: &str) -> String {
    let path = format!(
        "{}/tests/data/navmesh/{name}.navmesh.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn dungeon() -> Surface {
    parse_surface_json(&text("dungeon"), "dungeon", &SurfaceOptions::default()).unwrap()
}

fn plan(v: DVec3) -> DVec2 {
    DVec2::new(v.x, v.z)
}

/// A point of polygon `p` (plan view: its centre, or 80 % of the way from it to a
/// corner) inside just one other polygon `q`, more than 2 higher (another storey): the
/// first such of the dungeon.
fn stacked(s: &Surface) -> (u32, u32, DVec2) {
    let n = s.num_polygons() as u32;
    for p in 0..n {
        let ring: Vec<DVec2> = s
            .polygon(p)
            .iter()
            .map(|&v| plan(s.vertices()[v as usize]))
            .collect();
        let centre = ring.iter().sum::<DVec2>() / ring.len() as f64;
        for c in std::iter::once(centre).chain(ring.iter().map(|&r| centre.lerp(r, 0.8))) {
            let over: Vec<u32> = (0..n).filter(|&q| s.contains_plan(q, c)).collect();
            let h = s.floor_height(p, c);
            if let [a, b] = over[..] {
                let q = if a == p { b } else { a };
                if s.floor_height(q, c) > h + 2.0 {
                    return (p, q, c);
                }
            }
        }
    }
    panic!("the dungeon has no stacked floors");
}

#[test]
fn a_link_between_the_dungeons_floors_lands_on_each_floor() {
    let s = dungeon();
    let (lower, upper, c) = stacked(&s);
    let (hl, hu) = (s.floor_height(lower, c), s.floor_height(upper, c));
    println!("dungeon: polygon {lower} at {hl} under polygon {upper} at {hu}, at {c}");
    // A drop from the upper floor to the lower one, each end 0.3 above its floor.
    let link = OffMeshLink {
        area: 5,
        flags: 8,
        user_id: 42,
        ..OffMeshLink::new(
            DVec3::new(c.x, hu + 0.3, c.y),
            DVec3::new(c.x, hl + 0.3, c.y),
            0.5,
        )
    };
    let s = s.with_links(&[link]).unwrap();
    let l = s.links()[0];
    assert_eq!((l.start_poly, l.end_poly), (upper, lower));
    // Straight down onto each floor, at its detail height.
    assert_eq!(l.start, DVec3::new(c.x, hu, c.y));
    assert_eq!(l.end, DVec3::new(c.x, hl, c.y));
    assert_eq!(l.cost, hu - hl);
    assert_eq!(l.given, link);
    // Location by the planes agrees (with a tolerance above the 0.3 the detail mesh
    // strays from the upper polygon's plane here; below half the storey).
    assert!((hu - s.height_at(upper, c)).abs() > 0.2);
    assert_eq!(s.locate(link.start, 1.0).unwrap(), upper);
    assert_eq!(s.locate(link.end, 1.0).unwrap(), lower);
}

#[test]
fn an_end_beside_the_surface_snaps_to_its_edge() {
    // A 2 × 2 floor (z up); the link's start is 0.3 beyond its edge x = 2.
    let v = [
        DVec3::new(0.0, 0.0, 1.0),
        DVec3::new(2.0, 0.0, 1.0),
        DVec3::new(2.0, 2.0, 1.0),
        DVec3::new(0.0, 2.0, 1.0),
    ];
    let s = Surface::from_polygons(&v, &[[0u32, 1, 2, 3]], UpAxis::Z, 0.0).unwrap();
    let link = OffMeshLink {
        cost: Some(7.5),
        ..OffMeshLink::new(DVec3::new(2.3, 1.0, 1.0), DVec3::new(1.0, 1.0, 1.2), 0.4)
    };
    let s = s.with_links(&[link]).unwrap();
    let l = s.links()[0];
    // Onto the edge, then in by a few of the surface's tolerances (inside its polygon for
    // every later test, never outside by rounding).
    assert!(l.start.x < 2.0 && 2.0 - l.start.x <= 1e-8, "{}", l.start);
    assert_eq!((l.start.y, l.start.z), (1.0, 1.0));
    assert_eq!(l.end, DVec3::new(1.0, 1.0, 1.0));
    assert_eq!(l.cost, 7.5);
    // Just out of reach: 0.3 from the edge with a radius of 0.29.
    let e = s
        .clone()
        .with_links(&[OffMeshLink {
            radius: 0.29,
            ..link
        }])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "link 0: its start (2.3, 1, 1) has no floor within 0.29"
    );
    // Links are replaced, not added to.
    assert_eq!(s.with_links(&[]).unwrap().links(), &[]);
}

#[test]
fn links_round_trip_through_the_navmesh_json() {
    let s = dungeon();
    let (lower, upper, c) = stacked(&s);
    let (hl, hu) = (s.floor_height(lower, c), s.floor_height(upper, c));
    let links = [
        OffMeshLink {
            bidirectional: true,
            area: 63,
            flags: 1,
            user_id: u32::MAX,
            ..OffMeshLink::new(
                DVec3::new(c.x, hu + 0.1, c.y),
                DVec3::new(c.x + 0.01, hl, c.y),
                0.6,
            )
        },
        OffMeshLink {
            cost: Some(0.1 + 0.2),
            ..OffMeshLink::new(
                DVec3::new(c.x, hl, c.y),
                DVec3::new(c.x, hu - 0.2, c.y),
                0.25,
            )
        },
    ];
    let a = s.with_links(&links).unwrap();
    let written = write_surface_json(&a);
    let b = parse_surface_json(&written, "w.json", &SurfaceOptions::default()).unwrap();
    assert_eq!(a.links(), b.links());
    assert_eq!(b.links()[1].given.cost, Some(0.30000000000000004));
    assert!(b.detail().is_some());
    assert_eq!(write_surface_json(&b), written);
    // Without links, the writer writes no `links` field.
    assert!(!write_surface_json(&dungeon()).contains("\"links\""));
}

#[test]
fn attaching_the_detail_mesh_after_the_links_snaps_them_again() {
    let s = dungeon();
    let detail = s.detail().unwrap().clone();
    let flat = s.without_detail().unwrap();
    // The polygon where the detail mesh is farthest from the plane, at that vertex.
    let (p, at) = (0..flat.num_polygons())
        .flat_map(|p| {
            let [vb, vn, _, _] = detail.meshes[p].map(|x| x as usize);
            detail.vertices[vb..vb + vn]
                .iter()
                .map(move |&v| (p as u32, v))
        })
        .max_by(|a, b| {
            let off = |(p, v): (u32, DVec3)| (v.y - flat.height_at(p, plan(v))).abs();
            off(*a).total_cmp(&off(*b))
        })
        .unwrap();
    // A point a little inside the polygon from that vertex, at the detail height there.
    let ring = flat.polygon(p);
    let centre = ring
        .iter()
        .map(|&v| plan(flat.vertices()[v as usize]))
        .sum::<DVec2>()
        / ring.len() as f64;
    let q = plan(at).lerp(centre, 0.01);
    let detailed = flat.clone().with_detail(detail.clone()).unwrap();
    let h = detailed.floor_height(p, q);
    assert!((h - flat.height_at(p, q)).abs() > 0.2);
    let link = OffMeshLink::new(DVec3::new(q.x, h, q.y), DVec3::new(q.x, h, q.y), 1.0);
    // On the planes, the link's end is off polygon `p`'s plane: whichever floor is
    // nearest, it is snapped onto that polygon's plane.
    let flat = flat.with_links(&[link]).unwrap();
    let l = flat.links()[0];
    assert_eq!(l.start.y, flat.height_at(l.start_poly, plan(l.start)));
    // With the detail mesh, it is on `p`'s floor exactly.
    let detailed = flat.clone().with_detail(detail).unwrap();
    assert_eq!(detailed.links()[0].start_poly, p);
    assert_eq!(detailed.links()[0].start, DVec3::new(q.x, h, q.y));
    assert_eq!(detailed.links()[0].cost, 0.0);
    // And back: without the detail mesh, the planes again.
    assert_eq!(detailed.without_detail().unwrap().links(), flat.links());
}

#[test]
fn bad_links_are_refused_naming_the_link_and_the_end() {
    let s = dungeon();
    let (_, upper, c) = stacked(&s);
    let good = OffMeshLink::new(
        DVec3::new(c.x, s.floor_height(upper, c), c.y),
        DVec3::new(c.x, s.floor_height(upper, c), c.y + 0.1),
        0.5,
    );
    assert!(s.clone().with_links(&[good]).is_ok());
    let refuse = |bad: OffMeshLink| match s.clone().with_links(&[good, good, bad]).unwrap_err() {
        Error::InvalidLink { index, message } => {
            assert_eq!(index, 2);
            message
        }
        e => panic!("not InvalidLink: {e:?}"),
    };
    let with = |f: fn(&mut OffMeshLink)| {
        let mut l = good;
        f(&mut l);
        refuse(l)
    };
    let m = with(|l| l.start.x = f64::NAN);
    assert!(m.starts_with("its start (NaN, "), "{m}");
    assert!(m.contains(") is not finite or beyond ±"), "{m}");
    assert!(with(|l| l.end.y = f64::INFINITY).starts_with("its end ("));
    assert!(with(|l| l.end.z = 1e100).contains("is not finite or beyond"));
    assert_eq!(
        with(|l| l.radius = -1.0),
        "its radius -1 is not a finite number ≥ 0"
    );
    assert_eq!(
        with(|l| l.radius = f64::NAN),
        "its radius NaN is not a finite number ≥ 0"
    );
    assert_eq!(
        with(|l| l.cost = Some(-0.5)),
        "its cost -0.5 is not a finite number ≥ 0"
    );
    assert_eq!(
        with(|l| l.cost = Some(f64::NAN)),
        "its cost NaN is not a finite number ≥ 0"
    );
    assert_eq!(
        with(|l| l.cost = Some(f64::INFINITY)),
        "its cost inf is not a finite number ≥ 0"
    );
    // An end in mid-air: 1.5 above the floor with a radius of 0.5.
    let mut l = good;
    l.end.y += 1.5;
    let e = s.clone().with_links(&[l]).unwrap_err().to_string();
    assert!(e.starts_with("link 0: its end ("), "{e}");
    assert!(e.ends_with(") has no floor within 0.5"), "{e}");
    let mut l = good;
    l.start.x += 1000.0;
    let e = s.clone().with_links(&[l]).unwrap_err().to_string();
    assert!(e.starts_with("link 0: its start ("), "{e}");
}

#[test]
fn a_bad_link_in_a_file_is_named() {
    let base = text("dungeon");
    let with_links = |links: &str| {
        let json = base.trim_end().trim_end_matches('}');
        format!("{json}, \"links\": {links}}}")
    };
    let e = parse_surface_json(
        &with_links(r#"[{"start": [0,0,0], "end": [0,0,0], "radius": 1, "bidirectional": true, "radious": 2}]"#),
        "l.json",
        &SurfaceOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("l.json:") && e.contains("`links[0]`: unknown field `radious`"),
        "{e}"
    );
    let e = parse_surface_json(
        &with_links(r#"[{"start": [0,0,0], "end": [0,0,0], "bidirectional": true}]"#),
        "l.json",
        &SurfaceOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("`links[0]`: missing field `radius`"), "{e}");
    // A link with an end that meets no floor is left out and reported, as Detour and
    // Godot leave it unconnected (`with_links` refuses it: see above).
    let s = parse_surface_json(
        &with_links(
            r#"[{"start": [0,-1000,0], "end": [0,0,0], "radius": 1, "bidirectional": true}]"#,
        ),
        "l.json",
        &SurfaceOptions::default(),
    )
    .unwrap();
    assert!(s.links().is_empty());
    assert_eq!(s.load_report().unconnected_links, [0]);
    let summary = s.load_report().to_string();
    assert!(
        summary.contains(
            "left out 1 off-mesh link with an end that has no floor within its radius (0)"
        ),
        "{summary}"
    );
}
