//! Detour itself (recastnavigation, through `recastnavigation-sys`) against pathsmooth's
//! `navmesh::import::parse_detour`:
//!
//! - the Detour files of the corpus (`crates/pathsmooth/tests/data/corpus/detour/`: those
//!   C++ Recast and Detour wrote here, `detour-peer write-sets`, and the sets other
//!   projects saved; not its tile cache, which is no navmesh), loaded as RecastDemo's
//!   `Sample::loadAll` loads a navmesh set (or with `dtNavMesh::init(data, …)` for the lone
//!   tile): every ground polygon Detour holds has a polygon in pathsmooth's data with the
//!   same `dtPolyRef`, corners, area and flags, and no other polygon is there. With the
//!   `polyref64` feature (Detour built with `DT_POLYREF64`, whose sets have 16-byte tile
//!   records and 64-bit refs) the same sets are baked afresh by this Detour into a
//!   temporary folder and checked the same way, with the committed 64-bit set DotRecast
//!   ships (`WIDE_FILES`; the 32-bit build leaves exactly those to it). Nothing is
//!   skipped: a missing file fails;
//! - the committed files are what `write-sets` writes, byte for byte (32-bit build);
//! - single tiles that Detour's own `dtCreateNavMeshData` writes from the bakes of
//!   `crates/pathsmooth/tests/data/navmesh/`, read back the same way against
//!   `dtNavMesh::init(data, …)`, and their detail meshes against the bake's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::ptr;

use detour_peer::{tile_data, Bake};
use pathsmooth::navmesh::parse_detour;
use pathsmooth::navmesh::SurfaceData;
use recastnavigation_sys::*;

/// A ground polygon as Detour holds it: corners, area, flags.
type Poly = (Vec<[f32; 3]>, u8, u16);

/// A `dtNavMesh` and the tile data it points into (added without `DT_TILE_FREE_DATA`).
struct Loaded {
    nav: *mut dtNavMesh,
    _data: Vec<Vec<u8>>,
}

impl Drop for Loaded {
    fn drop(&mut self) {
        unsafe { dtFreeNavMesh(self.nav) }
    }
}

fn ok(status: dtStatus) -> bool {
    status & DT_SUCCESS != 0
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Whether this Detour has 64-bit polygon refs (`DT_POLYREF64`).
const WIDE: bool = cfg!(feature = "polyref64");

/// A navmesh set with tile records of this Detour's width (8 bytes, or 16 with 64-bit
/// refs), loaded as `Sample::loadAll` does.
fn load_all(b: &[u8]) -> Loaded {
    let f = |at: usize| f32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let mut params: dtNavMeshParams = unsafe { std::mem::zeroed() };
    params.orig = [f(12), f(16), f(20)];
    params.tileWidth = f(24);
    params.tileHeight = f(28);
    params.maxTiles = i32_at(b, 32);
    params.maxPolys = i32_at(b, 36);
    let nav = unsafe { dtAllocNavMesh() };
    assert!(ok(unsafe { dtNavMesh_init(nav, &params) }));
    let mut loaded = Loaded {
        nav,
        _data: Vec::new(),
    };
    let mut at = 40;
    for _ in 0..i32_at(b, 8) {
        let (tile_ref, size) = if WIDE {
            let r = u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
            (r, i32_at(b, at + 8) as usize)
        } else {
            (u64::from(i32_at(b, at) as u32), i32_at(b, at + 4) as usize)
        };
        at += if WIDE { 16 } else { 8 };
        if tile_ref == 0 || size == 0 {
            break;
        }
        let mut data = b[at..at + size].to_vec();
        let status = unsafe {
            dtNavMesh_addTile(
                nav,
                data.as_mut_ptr(),
                size as i32,
                0,
                tile_ref as dtTileRef,
                ptr::null_mut(),
            )
        };
        assert!(ok(status), "addTile: {status:#x}");
        loaded._data.push(data);
        at += size;
    }
    loaded
}

/// Every ground polygon of every tile of `nav`, by its `dtPolyRef`.
fn ground_polygons(nav: *const dtNavMesh) -> HashMap<u64, Poly> {
    let mut out = HashMap::new();
    unsafe {
        for i in 0..dtNavMesh_getMaxTiles(nav) {
            let tile = dtNavMesh_getTile(nav, i);
            if tile.is_null() || (*tile).header.is_null() {
                continue;
            }
            let base = dtNavMesh_getPolyRefBase(nav, tile);
            let header = &*(*tile).header;
            for ip in 0..header.polyCount as usize {
                let poly = &*(*tile).polys.add(ip);
                if poly.areaAndtype >> 6 == 1 {
                    continue;
                }
                let corners = (0..poly.vertCount as usize)
                    .map(|j| {
                        let v = (*tile).verts.add(3 * poly.verts[j] as usize);
                        [*v, *v.add(1), *v.add(2)]
                    })
                    .collect();
                #[allow(clippy::useless_conversion)] // u32 without DT_POLYREF64
                let r = u64::from(base) | ip as u64;
                out.insert(r, (corners, poly.areaAndtype & 0x3f, poly.flags));
            }
        }
    }
    out
}

/// pathsmooth's data holds exactly Detour's ground polygons, by ref.
fn same_polygons(name: &str, data: &SurfaceData, detour: &HashMap<u64, Poly>) {
    assert_eq!(data.polygons.len(), detour.len(), "{name}");
    for (k, p) in data.polygons.iter().enumerate() {
        let r = data.refs[k];
        let (corners, area, flags) = detour
            .get(&r)
            .unwrap_or_else(|| panic!("{name}: polygon {k}'s ref {r:#x} is not Detour's"));
        let ours: Vec<[f32; 3]> = p
            .iter()
            .map(|&v| {
                let v = data.vertices[v as usize];
                // Exact: the reader widens f32 exactly.
                assert_eq!(v.as_vec3().as_dvec3(), v, "{name}");
                v.as_vec3().to_array()
            })
            .collect();
        assert_eq!(&ours, corners, "{name}: polygon {k} (ref {r:#x})");
        assert_eq!(
            (data.areas[k], data.flags[k]),
            (*area, *flags),
            "{name}: {k}"
        );
    }
}

/// The committed Detour files.
fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../crates/pathsmooth/tests/data/corpus/detour")
}

/// The corpus's navmesh sets that other projects saved with 64-bit refs (`DT_POLYREF64`):
/// the `polyref64` build checks them, the 32-bit one the rest.
const WIDE_FILES: [&str; 1] = ["ikpil__all_tiles_navmesh.bin"];

/// The navmesh `.bin` files of `dir` (not its tile caches, `TSET`, which are no
/// navmeshes), sorted; at least the five `write-sets` writes.
fn bin_files(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "bin"));
    files.retain(|p| std::fs::read(p).map_or(true, |b| !b.starts_with(b"TEST")));
    files.sort();
    assert!(
        files.len() >= 5,
        "{}: {} .bin files",
        dir.display(),
        files.len()
    );
    files
}

/// One tile's data (`DNAV`) loaded as `dtNavMesh::init(data, size, 0)` loads it.
fn load_tile(b: &[u8]) -> Loaded {
    let mut data = b.to_vec();
    let nav = unsafe { dtAllocNavMesh() };
    assert!(ok(unsafe {
        dtNavMesh_init1(nav, data.as_mut_ptr(), data.len() as i32, 0)
    }));
    Loaded {
        nav,
        _data: vec![data],
    }
}

#[test]
fn detour_loads_the_corpus_files_as_parse_detour_reads_them() {
    // This Detour's width: the committed 32-bit files, or 64-bit sets baked here.
    let dir = if WIDE {
        let dir = std::env::temp_dir().join(format!("detour-peer-sets-64-{}", std::process::id()));
        let levels =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../crates/pathsmooth-bake/levels");
        detour_peer::recast::write_sets(&levels, &dir).unwrap();
        dir
    } else {
        corpus()
    };
    let mut files = bin_files(&dir);
    if WIDE {
        // And the committed sets other projects saved with 64-bit refs.
        let wide = |p: &PathBuf| WIDE_FILES.iter().any(|w| p.ends_with(w));
        files.extend(bin_files(&corpus()).into_iter().filter(wide));
    }
    let (mut compared, mut other_width) = (0, Vec::new());
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let loaded = if &bytes[0..4] == b"VAND" {
            load_tile(&bytes)
        } else if (&bytes[48..52] != b"VAND") != WIDE {
            // The other build checks it.
            other_width.push(name);
            continue;
        } else {
            load_all(&bytes)
        };
        let data = parse_detour(&bytes, &name).unwrap();
        let detour = ground_polygons(loaded.nav);
        same_polygons(&name, &data, &detour);
        println!(
            "{name}: {} polygons, refs and corners as Detour's ({}-bit refs)",
            detour.len(),
            if WIDE { 64 } else { 32 }
        );
        compared += 1;
    }
    assert_eq!(compared + other_width.len(), files.len());
    // Which files are left to the other width's build is known: nothing is passed over
    // unnoticed.
    if !WIDE {
        assert_eq!(other_width, WIDE_FILES, "the 64-bit sets");
    } else {
        assert!(other_width.is_empty(), "{other_width:?}");
    }
    if WIDE {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The committed files are what `write-sets` writes now (the same C++ Recast and Detour,
/// the same compiler: Recast's floats can round differently elsewhere).
#[cfg(not(feature = "polyref64"))]
#[test]
fn the_corpus_files_are_what_write_sets_writes() {
    let dir = std::env::temp_dir().join(format!("detour-peer-sets-{}", std::process::id()));
    let levels =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../crates/pathsmooth-bake/levels");
    let written = detour_peer::recast::write_sets(&levels, &dir).unwrap();
    // Not the files other projects saved (`owner__file`), which it does not write.
    let ours = bin_files(&corpus())
        .into_iter()
        .filter(|p| !p.file_name().unwrap().to_string_lossy().contains("__"))
        .count();
    assert_eq!(written.len(), ours);
    for w in &written {
        let ours = std::fs::read(dir.join(&w.file)).unwrap();
        let committed = std::fs::read(corpus().join(&w.file)).unwrap();
        assert!(
            ours == committed,
            "{}: write-sets writes other bytes than the committed file",
            w.file
        );
        // RecastDemo's connections all attached at both ends.
        assert_eq!(w.off_mesh_connected, w.off_mesh, "{}", w.file);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tiles_detour_writes_read_as_detour_loads_them() {
    let bakes = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/pathsmooth/tests/data/navmesh/"
    );
    for name in ["dungeon", "dungeon.areas", "nav_test", "nav_test.r0"] {
        let bake = Bake::load(&format!("{bakes}{name}.navmesh.json")).unwrap();
        let (ptr, size, _) = tile_data(&bake).unwrap();
        let bytes = unsafe { std::slice::from_raw_parts(ptr, size as usize) }.to_vec();
        unsafe { dtFree(ptr.cast()) };
        let data = parse_detour(&bytes, name).unwrap();
        // dtNavMesh::init(data, …): one tile, maxPolys its polygon count.
        let mut copy = bytes.clone();
        let loaded = Loaded {
            nav: unsafe { dtAllocNavMesh() },
            _data: Vec::new(),
        };
        assert!(ok(unsafe {
            dtNavMesh_init1(loaded.nav, copy.as_mut_ptr(), size, 0)
        }));
        same_polygons(name, &data, &ground_polygons(loaded.nav));
        drop(loaded);
        // The detail mesh: per polygon Detour's corners, then the bake's own detail
        // vertices after its first `nv` (which Detour drops for the corners), and the
        // bake's triangles unchanged.
        let (ours, theirs) = (data.detail.as_ref().unwrap(), bake.detail.as_ref().unwrap());
        assert_eq!(ours.meshes.len(), theirs.meshes.len(), "{name}");
        for (p, (m, t)) in ours.meshes.iter().zip(&theirs.meshes).enumerate() {
            let nv = bake.polygons[p].len();
            assert_eq!((m[1], m[3]), (t[1], t[3]), "{name}: polygon {p}");
            let ours_v = &ours.vertices[m[0] as usize..(m[0] + m[1]) as usize];
            let theirs_v = &theirs.vertices[t[0] as usize..(t[0] + t[1]) as usize];
            for (a, b) in ours_v[nv..].iter().zip(&theirs_v[nv..]) {
                assert_eq!(a.as_vec3().to_array(), *b, "{name}: polygon {p}");
            }
            let ours_t = &ours.triangles[m[2] as usize..(m[2] + m[3]) as usize];
            let theirs_t = &theirs.triangles[t[2] as usize..(t[2] + t[3]) as usize];
            for (a, b) in ours_t.iter().zip(theirs_t) {
                assert_eq!(*a, b.map(u32::from), "{name}: polygon {p}");
            }
        }
        assert_eq!(
            (data.agent.height, data.agent.climb),
            (
                Some(bake.bake.settings.agent_height.into()),
                Some(bake.bake.settings.agent_max_climb.into())
            ),
            "{name}"
        );
        println!(
            "{name}: Detour's tile of {} bytes, {} polygons as Detour loads them",
            bytes.len(),
            data.polygons.len()
        );
    }
}
