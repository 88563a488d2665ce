//! Detour's binary navmeshes as C++ Recast/Detour write them: the files of
//! `tests/data/corpus/detour/` (RecastDemo's levels baked with RecastDemo's settings by the
//! C++ Recast of `recastnavigation-sys`, written as RecastDemo's `Sample::saveAll` writes
//! navmesh sets, and one tile as `dtCreateNavMeshData` returns it; made by
//! `tools/detour-peer`'s `write-sets`; and sets other projects saved: RecastDemo forks'
//! own levels, go-detour's and DotRecast's test data, one with 64-bit refs; see the
//! corpus's `SOURCES.md`), read with
//! `navmesh::import::parse_detour` and checked against facts this file reads from the bytes
//! itself with a minimal parser of its own: the polygon count, each polygon's corners
//! (exactly, and inside its tile's box), each polygon's `dtPolyRef`, Detour's own links
//! inside a tile, which must be neighbours in the surface built from the data, and the
//! off-mesh connections. The files are committed: a missing file fails, nothing is skipped.

use std::path::PathBuf;

use glam::DVec3;
use pathsmooth::navmesh::{is_detour, load_surface, parse_detour};
use pathsmooth::navmesh::{Surface, SurfaceData, SurfaceOptions, UpAxis};

/// The committed Detour files, with what each must hold: (file, tiles, ground polygons,
/// off-mesh connections).
/// (The counts of the files other projects saved are those their headers give, summed
/// over the tiles by a decoder of the collector's, independent of both readers.)
const FILES: [(&str, usize, usize, usize); 11] = [
    ("dungeon.solo_navmesh.bin", 1, 118, 0),
    ("dungeon.all_tiles_navmesh.bin", 41, 143, 3),
    ("nav_test.solo_navmesh.bin", 1, 155, 0),
    ("nav_test.all_tiles_navmesh.bin", 34, 220, 0),
    ("nav_test.tile.bin", 1, 155, 0),
    ("ikpil__all_tiles_navmesh.bin", 66, 271, 0),
    ("arl__offmeshcons.bin", 4, 120, 1),
    ("arl__twisted.bin", 6, 43, 0),
    ("rockingdice__all_tiles_navmesh.bin", 50, 85, 0),
    ("rockingdice__all_cache_navmesh.bin", 31, 52, 0),
    ("SkadyCat__lostArea.bin", 1, 110, 0),
];

/// The committed tile caches (`TSET`): Detour files that are not navmeshes.
const TILE_CACHES: [&str; 1] = ["rockingdice__all_tiles_tilecache.bin"];

/// Every navmesh `.bin` file of the corpus's `detour/` folder, which must hold exactly
/// [`FILES`] and [`TILE_CACHES`].
fn corpus() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus/detour");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    files.sort();
    let mut names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want: Vec<&str> = FILES.iter().map(|f| f.0).chain(TILE_CACHES).collect();
    want.sort();
    assert_eq!(names, want, "{}: the committed files", dir.display());
    files.retain(|p| !TILE_CACHES.iter().any(|t| p.ends_with(t)));
    files
}

/// A tile cache (what RecastDemo's Temp Obstacles sample saves: compressed heightfield
/// layers, built into tiles at run time) is recognised and refused by name, not read as
/// text or as a corrupt navmesh.
#[test]
fn tile_caches_are_refused_by_name() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus/detour");
    for name in TILE_CACHES {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        assert!(is_detour(&bytes), "{name}");
        let err = load_surface(&path, &SurfaceOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(name) && err.contains("a Detour tile cache") && err.contains("MSET"),
            "{name}: {err}"
        );
    }
}

/// What [`FILES`] says of `name`.
fn expected(name: &str) -> (usize, usize, usize) {
    let f = FILES.iter().find(|f| f.0 == name).unwrap();
    (f.1, f.2, f.3)
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// One polygon of a tile as this test reads it.
struct Poly {
    corners: Vec<u16>,
    neis: Vec<u16>,
    off_mesh: bool,
}

/// One tile as this test reads it.
struct Tile {
    tile_ref: u64,
    bmin: [f32; 3],
    bmax: [f32; 3],
    verts: Vec<[f32; 3]>,
    polys: Vec<Poly>,
    off_mesh_cons: usize,
    /// `walkableHeight`, `walkableRadius`, `walkableClimb` as stored.
    agent: [f32; 3],
    detail_meshes: usize,
}

/// A navmesh set read the simplest way: the tile records are 8 bytes (32-bit refs) when the
/// first tile's magic is at byte 48, 16 when it is at byte 56; links are 12 or 16 bytes to
/// match. A lone tile (`DNAV`) is read as the one tile of `dtNavMesh::init(data, …)`: salt
/// 1, tile 0, as many polygon bits as its polygon count needs. Returns the tiles and whether
/// the refs are 64-bit.
fn read_set(b: &[u8]) -> (Vec<Tile>, bool) {
    let lone = &b[0..4] == b"VAND";
    let (num_tiles, wide, mut at) = if lone {
        (1, false, 0)
    } else {
        assert_eq!(&b[0..4], b"TESM");
        assert_eq!(i32_at(b, 4), 1);
        let wide = &b[48..52] != b"VAND";
        assert!(!wide || &b[56..60] == b"VAND");
        (i32_at(b, 8) as usize, wide, 40)
    };
    let link = if wide { 16 } else { 12 };
    let mut tiles = Vec::new();
    for _ in 0..num_tiles {
        let (tile_ref, size) = if lone {
            let polys = i32_at(b, 24) as u32;
            (1u64 << polys.next_power_of_two().trailing_zeros(), b.len())
        } else if wide {
            let r = u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
            (r, i32_at(b, at + 8) as usize)
        } else {
            (i32_at(b, at) as u32 as u64, i32_at(b, at + 4) as usize)
        };
        if !lone {
            at += if wide { 16 } else { 8 };
        }
        if tile_ref == 0 || size == 0 {
            break;
        }
        let d = &b[at..at + size];
        assert_eq!(&d[0..4], b"VAND");
        assert_eq!(i32_at(d, 4), 7);
        let c = |k: usize| i32_at(d, 24 + 4 * k) as usize;
        let (polys, verts, links) = (c(0), c(1), c(2));
        let (dmeshes, dverts, dtris, bv, cons) = (c(3), c(4), c(5), c(6), c(7));
        let v3 = |at: usize| [f32_at(d, at), f32_at(d, at + 4), f32_at(d, at + 8)];
        let pad = |x: usize| x.div_ceil(4) * 4;
        let verts_at = 100;
        let polys_at = verts_at + 12 * verts;
        let total = polys_at
            + 32 * polys
            + link * links
            + 12 * dmeshes
            + 12 * dverts
            + pad(4 * dtris)
            + 16 * bv
            + 36 * cons;
        assert_eq!(total, size, "the sections fill the tile");
        tiles.push(Tile {
            tile_ref,
            bmin: v3(72),
            bmax: v3(84),
            verts: (0..verts).map(|i| v3(verts_at + 12 * i)).collect(),
            polys: (0..polys)
                .map(|p| {
                    let at = polys_at + 32 * p;
                    let n = d[at + 30] as usize;
                    Poly {
                        corners: (0..n).map(|j| u16_at(d, at + 4 + 2 * j)).collect(),
                        neis: (0..n).map(|j| u16_at(d, at + 16 + 2 * j)).collect(),
                        off_mesh: d[at + 31] >> 6 == 1,
                    }
                })
                .collect(),
            off_mesh_cons: cons,
            agent: [f32_at(d, 60), f32_at(d, 64), f32_at(d, 68)],
            detail_meshes: dmeshes,
        });
        at += size;
    }
    (tiles, wide)
}

/// The surface of `data`, built as the brief for real files asks: T-junctions split,
/// vertices welded within 10⁻⁴.
fn build(data: &SurfaceData) -> pathsmooth::Result<Surface> {
    let options = SurfaceOptions {
        split_t_junctions: true,
        weld: Some(1e-4),
        ..SurfaceOptions::new(UpAxis::Y)
    };
    Surface::from_data(data, &options)
}

#[test]
fn real_files_read_as_their_bytes_say() {
    let mut read = 0;
    for path in corpus() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        assert!(is_detour(&bytes), "{name}");
        let data = parse_detour(&bytes, &name).unwrap_or_else(|e| panic!("{e}"));
        let (tiles, wide) = read_set(&bytes);
        let (want_tiles, want_ground, want_links) = expected(&name);
        assert_eq!(tiles.len(), want_tiles, "{name}: tiles");

        // Polygons: every tile's ground polygons, in order.
        let ground: usize = tiles.iter().map(|t| t.polys.len() - t.off_mesh_cons).sum();
        assert_eq!(ground, want_ground, "{name}: ground polygons");
        assert_eq!(data.polygons.len(), ground, "{name}");
        assert_eq!(data.refs.len(), ground, "{name}");
        assert_eq!(data.areas.len(), ground, "{name}");
        assert_eq!(data.flags.len(), ground, "{name}");
        assert_eq!(
            data.links.len(),
            tiles.iter().map(|t| t.off_mesh_cons).sum::<usize>(),
            "{name}"
        );
        assert_eq!(data.links.len(), want_links, "{name}: off-mesh connections");
        if let Some(detail) = &data.detail {
            assert_eq!(detail.meshes.len(), ground, "{name}");
        }

        // Corners exactly as the tile stores them, inside the tile's box; refs as
        // `tileRef | polygon index` (the stored tile ref has its polygon bits zero).
        let mut k = 0;
        for (t, tile) in tiles.iter().enumerate() {
            let slack = 1e-3;
            for (p, poly) in tile.polys.iter().enumerate() {
                if poly.off_mesh {
                    continue;
                }
                let got = &data.polygons[k];
                assert_eq!(
                    got.len(),
                    poly.corners.len(),
                    "{name}: tile {t} polygon {p}"
                );
                for (&v, &c) in got.iter().zip(&poly.corners) {
                    let want = tile.verts[c as usize];
                    let have = data.vertices[v as usize];
                    assert_eq!(
                        have,
                        DVec3::new(want[0].into(), want[1].into(), want[2].into()),
                        "{name}: tile {t} polygon {p}"
                    );
                    for axis in 0..3 {
                        assert!(
                            have[axis].is_finite()
                                && have[axis] >= f64::from(tile.bmin[axis]) - slack
                                && have[axis] <= f64::from(tile.bmax[axis]) + slack,
                            "{name}: tile {t} polygon {p}: {have} outside the tile's box"
                        );
                    }
                }
                assert_eq!(data.refs[k], tile.tile_ref | p as u64, "{name}");
                k += 1;
            }
        }
        let mut refs = data.refs.clone();
        refs.sort_unstable();
        refs.dedup();
        assert_eq!(refs.len(), ground, "{name}: refs are distinct");
        println!(
            "{name}: {} tiles, {ground} polygons, {} links, {}-bit refs, detail {}",
            tiles.len(),
            data.links.len(),
            if wide { 64 } else { 32 },
            data.detail.is_some()
        );
        read += 1;
    }
    assert_eq!(read, FILES.len());
}

#[test]
fn real_files_build_surfaces_joined_where_detour_links_them() {
    let mut built = 0;
    for path in corpus() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let data = parse_detour(&bytes, &name).unwrap();
        // Recast's detail meshes hold slivers now and then (an edge sample on the edge of
        // another triangle: a triangle of zero plan-view area), which `with_detail` refuses
        // for now: such a file is built without its detail mesh and says so.
        let surface = match build(&data) {
            Ok(s) => s,
            Err(e) if e.to_string().contains("has no area in plan view") => {
                println!("{name}: built without its detail mesh: {e}");
                let data = SurfaceData {
                    detail: None,
                    ..data.clone()
                };
                build(&data).unwrap_or_else(|e| panic!("{name}: {e}"))
            }
            Err(e) => panic!("{name}: {e}"),
        };
        assert_eq!(surface.num_polygons(), data.polygons.len(), "{name}");
        let (tiles, _) = read_set(&bytes);
        // Detour's internal links: `neis[j]` is 1 + the neighbour's index in the tile,
        // without the external bit 0x8000; ids of ground polygons in the data's order.
        let mut first = 0usize;
        let mut internal = 0;
        let (mut portals, mut joined) = (0, 0);
        for tile in &tiles {
            let id: Vec<Option<u32>> = {
                let mut next = first as u32;
                tile.polys
                    .iter()
                    .map(|p| {
                        (!p.off_mesh).then(|| {
                            next += 1;
                            next - 1
                        })
                    })
                    .collect()
            };
            for (p, poly) in tile.polys.iter().enumerate() {
                let Some(me) = id[p] else { continue };
                for &n in &poly.neis {
                    if n == 0 || n & 0x8000 != 0 {
                        continue;
                    }
                    let other = id[n as usize - 1].expect("a link to a ground polygon");
                    assert!(
                        surface.neighbors(me).flatten().any(|q| q == other),
                        "{name}: Detour links polygon {me} to {other}, the surface does not"
                    );
                    internal += 1;
                }
            }
            // Portal edges (`0x8000 | side`, side 0 to 7) face the next tile: count those the
            // welded surface joins to a polygon.
            for (p, poly) in tile.polys.iter().enumerate() {
                let Some(me) = id[p] else { continue };
                let corners = &data.polygons[me as usize];
                for (j, &n) in poly.neis.iter().enumerate() {
                    if n & 0x8000 == 0 || n & 0xff > 7 {
                        continue;
                    }
                    portals += 1;
                    let a = data.vertices[corners[j] as usize];
                    let b = data.vertices[corners[(j + 1) % corners.len()] as usize];
                    let ring = surface.polygon(me);
                    let at = |k: usize| surface.vertices()[ring[k % ring.len()] as usize];
                    let near = |u: DVec3, v: DVec3| u.distance(v) <= 1e-4;
                    let edge = (0..ring.len()).find(|&k| {
                        (near(at(k), a) && near(at(k + 1), b))
                            || (near(at(k), b) && near(at(k + 1), a))
                    });
                    let edge = edge.expect("the edge is in the surface's polygon");
                    if surface.neighbors(me).nth(edge).flatten().is_some() {
                        joined += 1;
                    }
                }
            }
            first += id.iter().flatten().count();
        }
        // Corners the builder inserted: T-junctions it split (tiles' borders, mostly).
        let split: usize = (0..surface.num_polygons())
            .map(|p| surface.polygon(p as u32).len() - data.polygons[p].len())
            .sum();
        println!(
            "{name}: {} polygons build ({} welded vertices of {}, {split} T-junction corners \
             inserted), {internal} internal links are neighbours, {joined} of {portals} portal \
             edges joined",
            surface.num_polygons(),
            surface.vertices().len(),
            data.vertices.len()
        );
        // A tiled set's tiles meet: Detour's portal edges that the welded surface joins.
        if tiles.len() > 1 {
            assert!(
                portals > 0 && joined > 0,
                "{name}: {joined} of {portals} portal edges"
            );
        }
        built += 1;
    }
    assert_eq!(built, FILES.len());
}

#[test]
fn every_file_loads_with_the_defaults_as_one_surface() {
    for path in corpus() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (_, want_ground, want_links) = expected(&name);
        let surface = load_surface(&path, &SurfaceOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let report = surface.load_report();
        assert_eq!(report.input_polygons, want_ground, "{name}");
        assert_eq!(surface.num_polygons(), want_ground, "{name}: {report}");
        assert_eq!(surface.links().len(), want_links, "{name}");
        assert_eq!(surface.up(), UpAxis::Y, "{name}");
        // The bake's agent as the first tile's header stores it (RecastDemo's: height 2,
        // radius 0.6, climb 0.9; a game server's level: climb 0.2).
        let (tiles, _) = read_set(&std::fs::read(&path).unwrap());
        let [h, r, c] = tiles[0].agent.map(f64::from);
        let agent = surface.bake_agent();
        assert_eq!(
            (agent.height, agent.radius, agent.climb),
            (Some(h), Some(r), Some(c)),
            "{name}"
        );
        // Recast's detail mesh where a tile has one (a tile cache's tiles have none).
        let detailed = tiles.iter().any(|t| t.detail_meshes > 0);
        assert_eq!(surface.detail().is_some(), detailed, "{name}");
        if name.starts_with("dungeon.all_tiles") {
            // OffMeshConnectionTool's: area SAMPLE_POLYAREA_JUMP (5), flag
            // SAMPLE_POLYFLAGS_JUMP (8), radius the agent's, user ids from 1000; two
            // one-way jumps and one both ways.
            let links = surface.links();
            assert!(
                links
                    .iter()
                    .all(|l| (l.given.area, l.given.flags) == (5, 8)),
                "{name}"
            );
            assert!(
                links.iter().all(|l| l.given.radius == f64::from(0.6f32)),
                "{name}"
            );
            let both: usize = links.iter().filter(|l| l.given.bidirectional).count();
            assert_eq!(both, 1, "{name}");
            let mut ids: Vec<u32> = links.iter().map(|l| l.given.user_id).collect();
            ids.sort_unstable();
            assert_eq!(ids, [1000, 1001, 1002], "{name}");
        }
        println!(
            "{name}: {} polygons, {} links, {} pieces: {report}",
            surface.num_polygons(),
            surface.links().len(),
            surface.pieces().iter().max().map_or(0, |m| m + 1)
        );
    }
}
