//! pathsmooth against Detour on every navmesh file of the corpus
//! (`crates/pathsmooth/tests/data/corpus/`, formats godot, unity-obj, obj, polyanya-mesh,
//! recast-json, detour), on random points: the machinery of `compare-corpus`, of the
//! criterion bench `corpus` and of `tests/corpus.rs`.
//!
//! Detour's navmesh: a `detour` file is loaded by Detour itself ([`DetourMesh::load_file`],
//! as RecastDemo's `Sample::loadAll` loads a set, or `dtNavMesh::init(data)` for one tile);
//! every other file is built from the [`Surface`] pathsmooth loads ([`surface_tile`]):
//! vertices quantised to Detour's `u16` cells, polygons of more than 6 corners cut into
//! fans of ≤ 6, neighbours from the surface's adjacency, its detail mesh and links, one
//! tile. Random points ([`random_pairs`]): polygons drawn by plan-view area, a point strictly
//! inside (a random convex combination of the corners pulled 5 % towards their mean) at its
//! floor height, both ends of a pair in one connected piece.

use crate::{DetourMesh, MAX_PATH};
use glam::{DVec2, DVec3};
use pathsmooth::navmesh::{load_surface, load_surface_with_detail};
use pathsmooth::navmesh::{PolyId, Surface, SurfaceMesh, SurfaceOptions, SurfaceQuery, UpAxis};
use recastnavigation_sys::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::ptr;

/// Random pairs per file.
pub const PAIRS: usize = 200;
/// Seed of the random points (mixed with each file's name).
pub const SEED: u64 = 0x2700_0027_c0de_0b0b;
/// The formats compared (MANIFEST.tsv's `format` column).
pub const FORMATS: [&str; 6] = [
    "godot",
    "unity-obj",
    "obj",
    "polyanya-mesh",
    "recast-json",
    "detour",
];

/// The corpus folder.
pub fn corpus_dir() -> PathBuf {
    // `CORPUS_DIR`: another corpus of the same layout (files the repository cannot hold).
    std::env::var_os("CORPUS_DIR").map_or_else(
        || {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../crates/pathsmooth/tests/data/corpus"
            ))
        },
        PathBuf::from,
    )
}

/// One navmesh file of MANIFEST.tsv.
#[derive(Clone, Debug)]
pub struct Entry {
    pub file: String,
    pub format: String,
    pub up: UpAxis,
    pub polygons: usize,
}

/// The navmesh files of the manifest in [`FORMATS`] (not the detail meshes that come beside
/// a poly mesh), those whose name contains `filter`.
pub fn manifest(filter: &str) -> Vec<Entry> {
    let text = std::fs::read_to_string(corpus_dir().join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Entry {
                file: f[0].to_string(),
                format: f[1].to_string(),
                up: if f[2] == "z" { UpAxis::Z } else { UpAxis::Y },
                polygons: f[3].parse().expect("polygon count"),
            }
        })
        .filter(|e| FORMATS.contains(&e.format.as_str()))
        .filter(|e| !e.file.contains("detail") && e.file.contains(filter))
        .collect()
}

/// The file loaded as `tests/navmesh_corpus.rs` loads it: the library's defaults and the
/// manifest's up axis; a poly mesh dump with the detail mesh beside it.
pub fn load(e: &Entry) -> Result<Surface, String> {
    let path = corpus_dir().join(&e.file);
    let options = SurfaceOptions::new(e.up);
    let detail = ["poly_mesh_detail", "detail_mesh"]
        .map(|d| corpus_dir().join(e.file.replace("poly_mesh", d)))
        .into_iter()
        .find(|d| e.file.contains("poly_mesh") && d.exists());
    match detail {
        Some(d) => load_surface_with_detail(&path, d, &options),
        None => load_surface(&path, &options),
    }
    .map_err(|err| format!("{}: {err}", e.file))
}

/// A world point in Detour's axes (y up): the plan view is Detour's (x, z).
pub fn to_detour(up: UpAxis, p: DVec3) -> [f32; 3] {
    let (plan, h) = up.split(p);
    [plan.x as f32, h as f32, plan.y as f32]
}

/// A Detour point back in the surface's axes.
pub fn from_detour(up: UpAxis, p: &[f32]) -> DVec3 {
    up.join(
        DVec2::new(f64::from(p[0]), f64::from(p[2])),
        f64::from(p[1]),
    )
}

/// What building Detour's tile from a surface did.
#[derive(Clone, Debug, Default)]
pub struct TileReport {
    /// Cell size and height (equal, a power of two).
    pub cs: f32,
    /// The largest distance between a surface vertex and Detour's vertex from its cells.
    pub worst_displacement: f64,
    /// The largest extent of the tile's box (the quantisation's range).
    pub extent: f64,
    /// Detour's ground polygons, and how many surface polygons were cut into fans.
    pub polygons: usize,
    pub split: usize,
    pub vertices: usize,
    /// Surface vertices that share a cell with another (merged by the quantisation).
    pub merged_vertices: usize,
    /// The surface's links, and the off-mesh connections Detour stored.
    pub links: usize,
    pub off_mesh_stored: usize,
    /// Detour's polygon index → the surface polygon it comes from.
    pub owner: Vec<PolyId>,
}

/// Detour's per-tile limits: `u16` vertex indices (`0xffff` is none) and internal neighbour
/// indices below `0x8000` (the bit marks a portal edge).
pub const MAX_TILE_VERTICES: usize = 0xfffe;
pub const MAX_TILE_POLYGONS: usize = 0x7fff;

/// One tile's data (`dtCreateNavMeshData`, `dtAlloc`ed) holding `surface`'s polygons, for
/// `dtNavMesh::init(data, size, DT_TILE_FREE_DATA)`:
///
/// - vertices in Detour's axes ([`to_detour`]) quantised to cells of `cs = ch`, the smallest
///   power of two whose 60000 cells span the box of the vertices, detail vertices and link
///   ends (so the round trip moves a vertex by at most `cs / 2` per axis; coordinates on a
///   binary grid finer than that do not move at all), `bmin` on that lattice one cell below;
/// - each polygon in Recast's winding (reversed from the surface's counter-clockwise plan
///   view, its first corner kept first), cut into fans of ≤ 6 corners from its first corner
///   (from the next corner whose fan has no flat triangle when that one has), the cuts being
///   neighbours;
/// - neighbours from [`Surface::neighbors`] (the piece of the neighbour holding the edge);
/// - areas `& 0x3f`; flags the surface's, 1 where they are 0 (Detour's default filter passes
///   no polygon without a flag);
/// - the detail mesh, per Detour polygon its polygon's whole sub-mesh (its vertices after
///   the Detour polygon's own corners, its triangles re-indexed, their edge flags
///   recomputed against the Detour polygon as Recast's `getTriFlags` does: an edge within
///   0.001 of the outline in plan view is a boundary edge);
/// - the surface's links as off-mesh connections (given ends, radius, direction, area,
///   flags as for polygons, user id);
/// - `walkableClimb` the surface's [`climb`](Surface::climb), `walkableHeight` and
///   `walkableRadius` the bake's (2 and 0 when unknown); BV tree on.
///
/// Errors when the polygons exceed Detour's per-tile limits ([`MAX_TILE_VERTICES`],
/// [`MAX_TILE_POLYGONS`]) or a detail sub-mesh exceeds Detour's `u8` counts.
pub fn surface_tile(surface: &Surface) -> Result<(*mut u8, i32, TileReport), String> {
    let up = surface.up();
    let verts: Vec<[f64; 3]> = surface
        .vertices()
        .iter()
        .map(|&v| {
            let (plan, h) = up.split(v);
            [plan.x, h, plan.y]
        })
        .collect();
    if verts.len() > MAX_TILE_VERTICES {
        return Err(format!(
            "{} vertices: more than a Detour tile holds ({MAX_TILE_VERTICES}); needs tiles",
            verts.len()
        ));
    }
    let detail = surface.detail();
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    let mut grow = |p: [f64; 3]| {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    };
    verts.iter().for_each(|&v| grow(v));
    if let Some(d) = detail {
        d.vertices.iter().for_each(|&v| {
            let (plan, h) = up.split(v);
            grow([plan.x, h, plan.y])
        });
    }
    for l in surface.links() {
        for p in [l.start, l.end] {
            let (plan, h) = up.split(p);
            grow([plan.x, h, plan.y]);
        }
    }
    let extent = (0..3).map(|i| hi[i] - lo[i]).fold(0.0, f64::max).max(1e-6);
    let cs = 2f64.powi((extent / 60000.0).log2().ceil() as i32);
    let bmin: [f64; 3] = lo.map(|x| (x / cs).floor() * cs - cs);
    let bmax: [f64; 3] = hi.map(|x| (x / cs).ceil() * cs + cs);

    // Quantised vertices.
    let mut qverts = Vec::with_capacity(verts.len() * 3);
    let mut worst = 0.0f64;
    let mut cells: HashMap<[u16; 3], usize> = HashMap::new();
    for v in &verts {
        let q: [u16; 3] = std::array::from_fn(|i| ((v[i] - bmin[i]) / cs).round() as u16);
        let back: [f64; 3] =
            std::array::from_fn(|i| f64::from((bmin[i] + f64::from(q[i]) * cs) as f32));
        let d = (0..3).map(|i| (back[i] - v[i]).powi(2)).sum::<f64>().sqrt();
        worst = worst.max(d);
        *cells.entry(q).or_default() += 1;
        qverts.extend_from_slice(&q);
    }
    let merged = cells.values().filter(|&&n| n > 1).sum();

    // Polygons in Recast's winding, cut into fans of ≤ 6.
    const NVP: usize = DT_VERTS_PER_POLYGON as usize;
    let np = surface.num_polygons();
    let mut pieces: Vec<Vec<u32>> = Vec::with_capacity(np);
    let mut owner: Vec<PolyId> = Vec::with_capacity(np);
    let mut first_piece = Vec::with_capacity(np + 1);
    let mut split = 0;
    let plan_of = |v: u32| DVec2::new(verts[v as usize][0], verts[v as usize][2]);
    for p in 0..np as PolyId {
        first_piece.push(pieces.len());
        let ring = surface.polygon(p);
        let n = ring.len();
        // Reversed, first corner kept first.
        let mut r: Vec<u32> = std::iter::once(ring[0])
            .chain(ring[1..].iter().rev().copied())
            .collect();
        let signed: f64 = (0..n)
            .map(|i| {
                let (a, b) = (plan_of(r[i]), plan_of(r[(i + 1) % n]));
                a.x * b.y - b.x * a.y
            })
            .sum();
        if signed > 0.0 {
            // Not clockwise after all: keep the surface's order.
            r = ring.to_vec();
        }
        if n <= NVP {
            pieces.push(r);
            owner.push(p);
            continue;
        }
        split += 1;
        let flat = |r: &[u32]| {
            (1..n - 1).any(|i| {
                let (a, b, c) = (plan_of(r[0]), plan_of(r[i]), plan_of(r[i + 1]));
                ((b - a).perp_dot(c - a)).abs() <= 1e-12 * (1.0 + a.abs().max_element())
            })
        };
        let apex = (0..n).find(|&k| {
            let rot: Vec<u32> = r[k..].iter().chain(&r[..k]).copied().collect();
            !flat(&rot)
        });
        let r: Vec<u32> = match apex {
            Some(k) => r[k..].iter().chain(&r[..k]).copied().collect(),
            None => r,
        };
        let mut start = 1;
        while start < n - 1 {
            let end = (start + NVP - 2).min(n - 1);
            let mut piece = vec![r[0]];
            piece.extend_from_slice(&r[start..=end]);
            pieces.push(piece);
            owner.push(p);
            start = end;
        }
    }
    first_piece.push(pieces.len());
    if pieces.len() > MAX_TILE_POLYGONS {
        return Err(format!(
            "{} polygons after the cuts: more than a Detour tile links ({MAX_TILE_POLYGONS}); \
             needs tiles",
            pieces.len()
        ));
    }

    // Neighbours: an edge (a, b) of a piece of p is either a cut (another piece of p holds
    // (b, a)) or a surface edge of p, whose neighbour q holds (b, a) or (a, b) in one piece.
    let mut edge_of: HashMap<(PolyId, u32, u32), usize> = HashMap::new();
    for (k, piece) in pieces.iter().enumerate() {
        for j in 0..piece.len() {
            edge_of.insert((owner[k], piece[j], piece[(j + 1) % piece.len()]), k);
        }
    }
    let mut neighbour_of: HashMap<(PolyId, u32, u32), PolyId> = HashMap::new();
    for p in 0..np as PolyId {
        let ring = surface.polygon(p);
        for (i, nb) in surface.neighbors(p).enumerate() {
            if let Some(q) = nb {
                let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                neighbour_of.insert((p, a, b), q);
                neighbour_of.insert((p, b, a), q);
            }
        }
    }
    let mut polys = vec![0xffffu16; pieces.len() * 2 * NVP];
    for (k, piece) in pieces.iter().enumerate() {
        let row = &mut polys[k * 2 * NVP..(k + 1) * 2 * NVP];
        let p = owner[k];
        for j in 0..piece.len() {
            let (a, b) = (piece[j], piece[(j + 1) % piece.len()]);
            row[j] = a as u16;
            let across = edge_of.get(&(p, b, a)).copied().or_else(|| {
                let q = *neighbour_of.get(&(p, a, b))?;
                edge_of
                    .get(&(q, b, a))
                    .or_else(|| edge_of.get(&(q, a, b)))
                    .copied()
            });
            if let Some(other) = across {
                row[NVP + j] = other as u16;
            }
        }
    }
    let areas: Vec<u8> = owner.iter().map(|&p| surface.area(p) & 0x3f).collect();
    let flags: Vec<u16> = owner
        .iter()
        .map(|&p| match surface.flags(p) {
            0 => 1,
            f => f,
        })
        .collect();

    // Detail: each piece gets its polygon's whole sub-mesh after its own corners.
    let (mut dmeshes, mut dverts, mut dtris) = (Vec::new(), Vec::new(), Vec::new());
    if let Some(d) = detail {
        for (k, piece) in pieces.iter().enumerate() {
            let [vb, vn, tb, tn] = d.meshes[owner[k] as usize];
            let nv = piece.len() as u32;
            if vn > 255 || tn > 255 || nv + vn > 255 {
                return Err(format!(
                    "polygon {}: a detail sub-mesh of {vn} vertices, {tn} triangles is beyond \
                     Detour's u8 counts",
                    owner[k]
                ));
            }
            dmeshes.extend_from_slice(&[
                (dverts.len() / 3) as u32,
                nv + vn,
                (dtris.len() / 4) as u32,
                tn,
            ]);
            for &c in piece {
                let v = verts[c as usize];
                dverts.extend_from_slice(&[v[0] as f32, v[1] as f32, v[2] as f32]);
            }
            for v in &d.vertices[vb as usize..(vb + vn) as usize] {
                dverts.extend_from_slice(&to_detour(up, *v));
            }
            let sub = &d.vertices[vb as usize..(vb + vn) as usize];
            let outline: Vec<DVec2> = piece.iter().map(|&c| plan_of(c)).collect();
            for t in &d.triangles[tb as usize..(tb + tn) as usize] {
                // Recast's `getTriFlags` against this Detour polygon (a file's own flags may
                // be missing, and a cut polygon's pieces have other outlines): Detour's
                // `closestPointOnDetailEdges` needs a boundary edge in every polygon.
                let at = |i: u32| up.plan(sub[i as usize]);
                let on_outline = |a: DVec2, b: DVec2| {
                    (0..outline.len()).any(|i| {
                        let (p, q) = (outline[i], outline[(i + 1) % outline.len()]);
                        segment_distance(a, p, q) < 1e-3 && segment_distance(b, p, q) < 1e-3
                    })
                };
                let flags = (0..3).fold(0u8, |f, e| {
                    f | (u8::from(on_outline(at(t[e]), at(t[(e + 1) % 3]))) << (2 * e))
                });
                dtris.extend_from_slice(&[
                    (t[0] + nv) as u8,
                    (t[1] + nv) as u8,
                    (t[2] + nv) as u8,
                    flags,
                ]);
            }
        }
    }

    // Links as off-mesh connections, from the ends pathsmooth snapped onto the floors:
    // `dtCreateNavMeshData` drops a connection whose start lies farther than the climb
    // above or below every polygon, which a Godot link's end within its 1 m radius may
    // (GDQuest's teleport: 0.5 under the floor), so both sides get the same links.
    let links = surface.links();
    let con_verts: Vec<f32> = links
        .iter()
        .flat_map(|l| {
            to_detour(up, l.start)
                .into_iter()
                .chain(to_detour(up, l.end))
        })
        .collect();
    let con_rad: Vec<f32> = links.iter().map(|l| l.given.radius as f32).collect();
    let con_dir: Vec<u8> = links
        .iter()
        .map(|l| u8::from(l.given.bidirectional))
        .collect();
    let con_area: Vec<u8> = links.iter().map(|l| l.given.area & 0x3f).collect();
    let con_flags: Vec<u16> = links
        .iter()
        .map(|l| if l.given.flags == 0 { 1 } else { l.given.flags })
        .collect();
    let con_id: Vec<u32> = links.iter().map(|l| l.given.user_id).collect();

    let agent = surface.bake_agent();
    let mut params: dtNavMeshCreateParams = unsafe { std::mem::zeroed() };
    params.verts = qverts.as_ptr();
    params.vertCount = verts.len() as i32;
    params.polys = polys.as_ptr();
    params.polyFlags = flags.as_ptr();
    params.polyAreas = areas.as_ptr();
    params.polyCount = pieces.len() as i32;
    params.nvp = NVP as i32;
    if detail.is_some() {
        params.detailMeshes = dmeshes.as_ptr();
        params.detailVerts = dverts.as_ptr();
        params.detailVertsCount = (dverts.len() / 3) as i32;
        params.detailTris = dtris.as_ptr();
        params.detailTriCount = (dtris.len() / 4) as i32;
    }
    if !links.is_empty() {
        params.offMeshConVerts = con_verts.as_ptr();
        params.offMeshConRad = con_rad.as_ptr();
        params.offMeshConDir = con_dir.as_ptr();
        params.offMeshConAreas = con_area.as_ptr();
        params.offMeshConFlags = con_flags.as_ptr();
        params.offMeshConUserID = con_id.as_ptr();
        params.offMeshConCount = links.len() as i32;
    }
    params.bmin = bmin.map(|x| x as f32);
    params.bmax = bmax.map(|x| x as f32);
    params.walkableHeight = agent.height.unwrap_or(2.0) as f32;
    params.walkableRadius = agent.radius.unwrap_or(0.0) as f32;
    params.walkableClimb = surface.climb() as f32;
    params.cs = cs as f32;
    params.ch = cs as f32;
    params.buildBvTree = true;
    let mut data: *mut u8 = ptr::null_mut();
    let mut size = 0i32;
    if !unsafe { dtCreateNavMeshData(&mut params, &mut data, &mut size) } {
        return Err("dtCreateNavMeshData failed".into());
    }
    // The stored connections: the tile header's count.
    let stored = unsafe { (*(data as *const dtMeshHeader)).offMeshConCount } as usize;
    Ok((
        data,
        size,
        TileReport {
            cs: cs as f32,
            worst_displacement: worst,
            extent,
            polygons: pieces.len(),
            split,
            vertices: verts.len(),
            merged_vertices: merged,
            links: links.len(),
            off_mesh_stored: stored,
            owner,
        },
    ))
}

/// Plan-view distance from `p` to segment `ab`.
fn segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

/// A random pair of points on a surface: both in one connected piece.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    pub start: DVec3,
    pub goal: DVec3,
    pub start_poly: PolyId,
    pub goal_poly: PolyId,
}

/// The longest move of the `moves` bench, world units (plan view).
pub const STRIDE: f64 = 2.0;

impl Pair {
    /// The `moves` bench's target: from the start towards the goal by at most [`STRIDE`]
    /// in plan view, at the start's height (as a walking agent's next position).
    pub fn stride_target(&self, up: UpAxis) -> DVec3 {
        let (from, to) = (up.plan(self.start), up.plan(self.goal));
        up.join(
            from + (to - from).clamp_length_max(STRIDE),
            up.height(self.start),
        )
    }
}

/// SplitMix64.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A file's seed: [`SEED`] mixed with its name (FNV-1a), so a file gets the same points
/// whatever else is compared.
pub fn seed_of(file: &str) -> u64 {
    file.bytes().fold(0xcbf2_9ce4_8422_2325u64 ^ SEED, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Plan-view area of polygon `p`.
pub fn plan_area(surface: &Surface, p: PolyId) -> f64 {
    let up = surface.up();
    let ring = surface.polygon(p);
    let at = |i: usize| up.plan(surface.vertices()[ring[i % ring.len()] as usize]);
    (0..ring.len())
        .map(|i| at(i).perp_dot(at(i + 1)))
        .sum::<f64>()
        .abs()
        / 2.0
}

/// A random point strictly inside polygon `p`: a random convex combination of its corners
/// (weights uniform in [0, 1), normalised) pulled 5 % towards their mean, at the floor's
/// height there ([`Surface::floor_height`]).
pub fn point_in(surface: &Surface, p: PolyId, rng: &mut Rng) -> DVec3 {
    let up = surface.up();
    let ring = surface.polygon(p);
    let corners: Vec<DVec2> = ring
        .iter()
        .map(|&v| up.plan(surface.vertices()[v as usize]))
        .collect();
    let centre = corners.iter().sum::<DVec2>() / corners.len() as f64;
    let w: Vec<f64> = corners.iter().map(|_| rng.unit()).collect();
    let total: f64 = w.iter().sum();
    let mix = if total > 0.0 {
        corners
            .iter()
            .zip(&w)
            .map(|(&c, &wi)| c * wi)
            .sum::<DVec2>()
            / total
    } else {
        centre
    };
    let plan = mix + (centre - mix) * 0.05;
    up.join(plan, surface.floor_height(p, plan))
}

/// `n` random pairs on `surface` (seed `seed`): the start's polygon drawn by plan-view area
/// over the whole surface, the goal's by plan-view area among the polygons of the start's
/// piece ([`Surface::pieces`]), each point [`point_in`] its polygon.
pub fn random_pairs(surface: &Surface, seed: u64, n: usize) -> Vec<Pair> {
    let np = surface.num_polygons();
    let pieces = surface.pieces();
    let areas: Vec<f64> = (0..np as PolyId).map(|p| plan_area(surface, p)).collect();
    // Cumulative areas, over all polygons and per piece.
    let cumulative = |polys: &[PolyId]| {
        let mut acc = 0.0;
        polys
            .iter()
            .map(|&p| {
                acc += areas[p as usize];
                acc
            })
            .collect::<Vec<f64>>()
    };
    let all: Vec<PolyId> = (0..np as PolyId).collect();
    let all_cum = cumulative(&all);
    let mut by_piece: HashMap<u32, Vec<PolyId>> = HashMap::new();
    for p in 0..np as PolyId {
        by_piece.entry(pieces[p as usize]).or_default().push(p);
    }
    let piece_cum: HashMap<u32, Vec<f64>> = by_piece
        .iter()
        .map(|(&k, polys)| (k, cumulative(polys)))
        .collect();
    let draw = |polys: &[PolyId], cum: &[f64], rng: &mut Rng| {
        let total = *cum.last().unwrap();
        let u = rng.unit() * total;
        let i = cum.partition_point(|&c| c <= u).min(polys.len() - 1);
        polys[i]
    };
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let a = draw(&all, &all_cum, &mut rng);
            let k = pieces[a as usize];
            let b = draw(&by_piece[&k], &piece_cum[&k], &mut rng);
            Pair {
                start: point_in(surface, a, &mut rng),
                goal: point_in(surface, b, &mut rng),
                start_poly: a,
                goal_poly: b,
            }
        })
        .collect()
}

/// How Detour's navmesh was made.
pub enum DetourSource {
    /// Detour loaded the file itself: its tiles, ground polygons, off-mesh connections.
    File {
        tiles: usize,
        polygons: usize,
        off_mesh: usize,
    },
    /// Built from the surface ([`surface_tile`]).
    Surface(TileReport),
}

/// One file's comparison: the surface on pathsmooth's side, the Detour navmesh, the pairs
/// in both axes, the caller buffers and query objects both sides reuse.
pub struct Case {
    pub entry: Entry,
    pub mesh: SurfaceMesh,
    pub detour: DetourMesh,
    pub source: DetourSource,
    pub pairs: Vec<Pair>,
    /// The pairs in Detour's axes.
    pub detour_pairs: Vec<([f32; 3], [f32; 3])>,
    pub query: SurfaceQuery,
    /// For a Detour file: Detour's polygon ref → the surface polygon.
    pub by_ref: HashMap<u64, PolyId>,
    pub corridor: Vec<dtPolyRef>,
    pub straight: Vec<f32>,
}

/// One Detour query's outcome ([`DetourMesh::path`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct DetourPath {
    pub start_ref: dtPolyRef,
    pub end_ref: dtPolyRef,
    pub npolys: usize,
    pub nstraight: usize,
    /// Both ends found, the corridor reached the end polygon (not a partial result: not out
    /// of nodes), the straight path fitted.
    pub complete: bool,
}

impl DetourMesh {
    /// Detour's own load of a Detour file: a navmesh set (`MSET`) as RecastDemo's
    /// `Sample::loadAll` loads it (`dtNavMesh::init(&params)`, `addTile` of each tile with
    /// `DT_TILE_FREE_DATA`), or one tile (`DNAV`) with `dtNavMesh::init(data, size,
    /// DT_TILE_FREE_DATA)`. Returns the mesh and (tiles, ground polygons, off-mesh
    /// connections).
    pub fn load_file(
        path: &Path,
        max_nodes: i32,
    ) -> Result<(DetourMesh, (usize, usize, usize)), String> {
        let b = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let i32_at = |at: usize| i32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        let f32_at = |at: usize| f32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        let copy = |bytes: &[u8]| unsafe {
            let data = dtAlloc(bytes.len(), dtAllocHint_DT_ALLOC_PERM) as *mut u8;
            ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len());
            data
        };
        let nav = crate::recast::NavMesh(unsafe { dtAllocNavMesh() });
        let ok = |st: dtStatus| st & DT_SUCCESS != 0;
        if &b[0..4] == b"VAND" {
            // The tile's sections add up to its size with this Detour's link size (12 bytes
            // with 32-bit refs, 16 with 64-bit ones) or it is the other build's: a tile of
            // the other width would be read past its links.
            let c = |k: usize| i32_at(24 + 4 * k).max(0) as usize;
            let link = std::mem::size_of::<dtLink>();
            let size = 100
                + 12 * c(1)
                + 32 * c(0)
                + link * c(2)
                + 12 * c(3)
                + 12 * c(4)
                + (4 * c(5)).div_ceil(4) * 4
                + 16 * c(6)
                + 36 * c(7);
            if size != b.len() {
                return Err(format!(
                    "a tile whose links are not {link} bytes: refs of the other width, compare it with{} `--features polyref64`",
                    if link == 12 { "" } else { "out" }
                ));
            }
            let data = copy(&b);
            let st = unsafe {
                dtNavMesh_init1(
                    nav.0,
                    data,
                    b.len() as i32,
                    dtTileFlags_DT_TILE_FREE_DATA as i32,
                )
            };
            if !ok(st) {
                unsafe { dtFree(data.cast()) };
                return Err(format!("dtNavMesh::init(data): {st:#x}"));
            }
        } else {
            if &b[0..4] != b"TESM" || i32_at(4) != 1 {
                return Err(format!("{}: not a navmesh set", path.display()));
            }
            let mut params: dtNavMeshParams = unsafe { std::mem::zeroed() };
            params.orig = [f32_at(12), f32_at(16), f32_at(20)];
            params.tileWidth = f32_at(24);
            params.tileHeight = f32_at(28);
            params.maxTiles = i32_at(32);
            params.maxPolys = i32_at(36);
            let st = unsafe { dtNavMesh_init(nav.0, &params) };
            if !ok(st) {
                return Err(format!("dtNavMesh::init(params): {st:#x}"));
            }
            let wide = std::mem::size_of::<dtPolyRef>() == 8;
            // A set's tile records are 8 bytes with 32-bit refs, 16 with 64-bit ones: the
            // first tile's data starts at 48 or 56. A set of the other width is this
            // Detour's to refuse (`--features polyref64` builds the other).
            if b.get(48..52) != Some(&b"VAND"[..]) && !wide {
                return Err(
                    "a set with 64-bit refs: refs of the other width, compare it with `--features polyref64`".into(),
                );
            }
            if b.get(56..60) != Some(&b"VAND"[..]) && wide {
                return Err("a set with 32-bit refs: refs of the other width, compare it without `--features polyref64`".into());
            }
            let mut at = 40;
            for _ in 0..i32_at(8) {
                let (tile_ref, size) = if wide {
                    let r = u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
                    (r, i32_at(at + 8) as usize)
                } else {
                    (u64::from(i32_at(at) as u32), i32_at(at + 4) as usize)
                };
                at += if wide { 16 } else { 8 };
                if tile_ref == 0 || size == 0 {
                    break;
                }
                let data = copy(&b[at..at + size]);
                let st = unsafe {
                    dtNavMesh_addTile(
                        nav.0,
                        data,
                        size as i32,
                        dtTileFlags_DT_TILE_FREE_DATA as i32,
                        tile_ref as dtTileRef,
                        ptr::null_mut(),
                    )
                };
                if !ok(st) {
                    unsafe { dtFree(data.cast()) };
                    return Err(format!("addTile: {st:#x}"));
                }
                at += size;
            }
        }
        let counts = crate::recast::counts(&nav);
        Ok((DetourMesh::from_navmesh(nav, max_nodes, 0.0)?, counts))
    }

    /// `findNearestPoly` ×2, `findPath`, `findStraightPath` (options 0) from `start` to
    /// `end` (Detour's axes) into caller buffers; as [`query_raw`](Self::query_raw), with
    /// the outcome told apart (a partial corridor is not complete).
    pub fn path(
        &self,
        start: &[f32; 3],
        end: &[f32; 3],
        corridor: &mut [dtPolyRef],
        straight: &mut [f32],
    ) -> DetourPath {
        let mut out = DetourPath::default();
        let (mut spt, mut ept) = ([0.0f32; 3], [0.0f32; 3]);
        unsafe {
            let q = self.query;
            let f = &self.filter;
            let he = crate::HALF_EXTENTS.as_ptr();
            dtNavMeshQuery_findNearestPoly(
                q,
                start.as_ptr(),
                he,
                f,
                &mut out.start_ref,
                spt.as_mut_ptr(),
            );
            dtNavMeshQuery_findNearestPoly(
                q,
                end.as_ptr(),
                he,
                f,
                &mut out.end_ref,
                ept.as_mut_ptr(),
            );
            if out.start_ref == 0 || out.end_ref == 0 {
                return out;
            }
            let mut npolys = 0i32;
            let st = dtNavMeshQuery_findPath(
                q,
                out.start_ref,
                out.end_ref,
                spt.as_ptr(),
                ept.as_ptr(),
                f,
                corridor.as_mut_ptr(),
                &mut npolys,
                corridor.len() as i32,
            );
            if st & DT_SUCCESS == 0 || npolys == 0 {
                return out;
            }
            out.npolys = npolys as usize;
            let reached = corridor[out.npolys - 1] == out.end_ref && st & DT_PARTIAL_RESULT == 0;
            let mut target = ept;
            if corridor[out.npolys - 1] != out.end_ref {
                dtNavMeshQuery_closestPointOnPoly(
                    q,
                    corridor[out.npolys - 1],
                    ept.as_ptr(),
                    target.as_mut_ptr(),
                    ptr::null_mut(),
                );
            }
            let mut nstraight = 0i32;
            let st2 = dtNavMeshQuery_findStraightPath(
                q,
                spt.as_ptr(),
                target.as_ptr(),
                corridor.as_ptr(),
                npolys,
                straight.as_mut_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
                &mut nstraight,
                (straight.len() / 3) as i32,
                0,
            );
            out.nstraight = nstraight as usize;
            out.complete = reached
                && st2 & DT_SUCCESS != 0
                && st2 & DT_BUFFER_TOO_SMALL == 0
                && out.nstraight >= 1;
        }
        out
    }
}

impl Case {
    /// Loads `entry` on both sides and draws its pairs (`pairs` of them, [`seed_of`] its
    /// name); Detour's query gets `max_nodes` search nodes.
    pub fn new(entry: &Entry, pairs: usize, max_nodes: i32) -> Result<Case, String> {
        let surface = load(entry)?;
        let up = surface.up();
        let (detour, source) = if entry.format == "detour" {
            let (d, (tiles, polygons, off_mesh)) =
                DetourMesh::load_file(&corpus_dir().join(&entry.file), max_nodes)?;
            (
                d,
                DetourSource::File {
                    tiles,
                    polygons,
                    off_mesh,
                },
            )
        } else {
            let (data, size, report) = surface_tile(&surface)?;
            let nav = crate::recast::NavMesh(unsafe { dtAllocNavMesh() });
            let st =
                unsafe { dtNavMesh_init1(nav.0, data, size, dtTileFlags_DT_TILE_FREE_DATA as i32) };
            if st & DT_SUCCESS == 0 {
                unsafe { dtFree(data.cast()) };
                return Err(format!("dtNavMesh::init(data): {st:#x}"));
            }
            let d = DetourMesh::from_navmesh(nav, max_nodes, report.worst_displacement as f32)?;
            (d, DetourSource::Surface(report))
        };
        let pairs = random_pairs(&surface, seed_of(&entry.file), pairs);
        let detour_pairs = pairs
            .iter()
            .map(|p| (to_detour(up, p.start), to_detour(up, p.goal)))
            .collect();
        let by_ref = (0..surface.num_polygons() as PolyId)
            .map(|p| (surface.polygon_ref(p), p))
            .collect();
        let mesh = SurfaceMesh::new(surface).map_err(|e| format!("{}: {e}", entry.file))?;
        Ok(Case {
            entry: entry.clone(),
            mesh,
            detour,
            source,
            pairs,
            detour_pairs,
            query: SurfaceQuery::new(),
            by_ref,
            corridor: vec![0; MAX_PATH.max(max_nodes as usize)],
            straight: vec![0.0; 3 * MAX_PATH.max(max_nodes as usize)],
        })
    }

    /// Detour's query on pair `i` (caller buffers: no allocation).
    #[inline]
    pub fn detour_query(&mut self, i: usize) -> DetourPath {
        let (s, g) = &self.detour_pairs[i];
        self.detour
            .path(s, g, &mut self.corridor, &mut self.straight)
    }

    /// pathsmooth's query on pair `i` (the reused query object: no allocation once warm);
    /// the path's point count, 0 for an error.
    #[inline]
    pub fn pathsmooth_query(&mut self, i: usize) -> usize {
        let p = &self.pairs[i];
        self.query
            .find_path(&self.mesh, p.start, p.goal, 0.0)
            .map_or(0, |path| path.len())
    }

    /// Detour's straight path of the last [`detour_query`](Self::detour_query), in the
    /// surface's axes.
    pub fn detour_points(&self, d: &DetourPath) -> Vec<DVec3> {
        let up = self.mesh.surface().up();
        self.straight[..3 * d.nstraight]
            .chunks(3)
            .map(|c| from_detour(up, c))
            .collect()
    }
}

/// Plan-view length of a path on a surface of up axis `up`.
pub fn plan_length(up: UpAxis, points: &[DVec3]) -> f64 {
    points
        .windows(2)
        .map(|w| up.plan(w[0]).distance(up.plan(w[1])))
        .sum()
}

/// What the untimed pass over a case's pairs found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub pairs: usize,
    pub detour_complete: usize,
    pub pathsmooth_complete: usize,
    /// Pairs both completed, and the mean plan-view length of each side's path over them.
    pub both: usize,
    pub detour_mean_length: f64,
    pub pathsmooth_mean_length: f64,
    /// Pairs (both complete, Detour's ends on the polygons drawn) where pathsmooth's path
    /// is longer than Detour's by more than `1e-6 × (1 + length)` plus twice the
    /// quantisation's worst displacement per path point plus how far the ends moved when
    /// rounded to `f32` for Detour, and the largest such excess.
    pub pathsmooth_longer: usize,
    pub worst_excess: f64,
    /// pathsmooth's first error, if any.
    pub first_error: Option<String>,
    /// Pairs where Detour's `findNearestPoly` put an end on a polygon other than the one
    /// the point was drawn in (another floor within the climb, a neighbour across an edge
    /// the point lies on, a Detour polygon of another surface polygon); the same for
    /// pathsmooth's located ends.
    pub detour_elsewhere: usize,
    pub pathsmooth_elsewhere: usize,
    /// The first few pairs where pathsmooth's path is longer, described.
    pub longer_examples: Vec<String>,
    /// Mean path points, each side.
    pub detour_points: f64,
    pub pathsmooth_points: f64,
}

impl Case {
    /// The surface polygon a Detour polygon ref comes from (`None` for 0, an off-mesh
    /// connection or an unknown ref).
    pub fn surface_polygon(&self, r: dtPolyRef) -> Option<PolyId> {
        if r == 0 {
            return None;
        }
        match &self.source {
            #[allow(clippy::useless_conversion)] // u32 without DT_POLYREF64
            DetourSource::File { .. } => self.by_ref.get(&u64::from(r)).copied(),
            DetourSource::Surface(t) => {
                let i = r.checked_sub(self.detour.poly_base)? as usize;
                t.owner.get(i).copied()
            }
        }
    }

    /// One untimed pass over the pairs: completions, lengths.
    pub fn outcome(&mut self) -> Outcome {
        let up = self.mesh.surface().up();
        let slack = match &self.source {
            DetourSource::Surface(r) => 2.0 * r.worst_displacement,
            DetourSource::File { .. } => 0.0,
        };
        let mut o = Outcome {
            pairs: self.pairs.len(),
            ..Outcome::default()
        };
        let (mut sum_d, mut sum_p, mut pts_d, mut pts_p) = (0.0, 0.0, 0usize, 0usize);
        for i in 0..self.pairs.len() {
            let d = self.detour_query(i);
            let dpts = self.detour_points(&d);
            let p = self.pairs[i];
            let ours = self
                .query
                .find_path(&self.mesh, p.start, p.goal, 0.0)
                .map(|path| path.iter().map(|q| q.position).collect::<Vec<_>>());
            if d.complete {
                o.detour_complete += 1;
            }
            match &ours {
                Ok(_) => o.pathsmooth_complete += 1,
                Err(e) if o.first_error.is_none() => o.first_error = Some(format!("pair {i}: {e}")),
                Err(_) => {}
            }
            let drawn = (p.start_poly, p.goal_poly);
            let detour_ends = (
                self.surface_polygon(d.start_ref),
                self.surface_polygon(d.end_ref),
            );
            if detour_ends != (Some(drawn.0), Some(drawn.1)) {
                o.detour_elsewhere += 1;
            }
            let our_ends = self.query.path().first().zip(self.query.path().last());
            if ours.is_ok() && our_ends.map(|(a, b)| (a.polygon, b.polygon)) != Some(drawn) {
                o.pathsmooth_elsewhere += 1;
            }
            let same_ends = detour_ends == (Some(drawn.0), Some(drawn.1));
            if let (true, Ok(path)) = (d.complete, &ours) {
                o.both += 1;
                let (ld, lp) = (plan_length(up, &dpts), plan_length(up, path));
                sum_d += ld;
                sum_p += lp;
                pts_d += dpts.len();
                pts_p += path.len();
                // Detour is given the ends rounded to `f32` (`to_detour`): its path may be
                // shorter by as much as they moved.
                let moved = |q: DVec3| q.distance(q.as_vec3().as_dvec3());
                let allowed = 1e-6 * (1.0 + ld)
                    + slack * (dpts.len() + path.len()) as f64
                    + moved(p.start)
                    + moved(p.goal);
                if same_ends && lp > ld + allowed {
                    o.pathsmooth_longer += 1;
                    o.worst_excess = o.worst_excess.max(lp - ld);
                    if o.longer_examples.len() < 3 {
                        o.longer_examples.push(format!(
                            "pair {i}: drawn polygons {drawn:?}, Detour's ends on {detour_ends:?}, \
                             {} → {}: pathsmooth {lp:.4} ({} points), Detour {ld:.4} ({} points: {:?})",
                            p.start,
                            p.goal,
                            path.len(),
                            dpts.len(),
                            dpts.iter().map(|q| q.to_array()).collect::<Vec<_>>()
                        ));
                    }
                }
            }
        }
        let n = o.both.max(1) as f64;
        o.detour_mean_length = sum_d / n;
        o.pathsmooth_mean_length = sum_p / n;
        o.detour_points = pts_d as f64 / n;
        o.pathsmooth_points = pts_p as f64 / n;
        o
    }
}
