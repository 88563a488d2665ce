//! Detour's binary navmeshes (recastnavigation's run-time format) in to [`SurfaceData`]: a
//! navmesh set (`MSET`) as RecastDemo saves it, or one tile's data (`DNAV`) as
//! `dtCreateNavMeshData` writes it.
//!
//! The layout, all little-endian, as `dtNavMesh::addTile` reads it: a 100-byte
//! `dtMeshHeader`, then eight sections, each padded to 4 bytes — vertices (`float[3]`),
//! `dtPoly` (32 bytes), `dtLink` (12 bytes, 16 with `DT_POLYREF64`), `dtPolyDetail` (12),
//! detail vertices (`float[3]`), detail triangles (`u8[4]`), `dtBVNode` (16) and
//! `dtOffMeshConnection` (36). A set is a 40-byte `NavMeshSetHeader` (magic, version,
//! tile count, `dtNavMeshParams`), then per tile a `NavMeshTileHeader` (`dtTileRef`, data
//! size: 8 bytes, 16 with `DT_POLYREF64`) and the tile's data. Links and the BV tree are
//! Detour's run-time structures and are not read.

use std::fmt::Display;

use glam::DVec3;

use crate::error::{Error, Result};
use crate::navmesh::surface::{BakeAgent, Detail, OffMeshLink, SurfaceData, UpAxis};

/// `'M'<<24 | 'S'<<16 | 'E'<<8 | 'T'` (RecastDemo's `NAVMESHSET_MAGIC`) as stored.
const SET_MAGIC: [u8; 4] = *b"TESM";
/// RecastDemo's `NAVMESHSET_VERSION`.
const SET_VERSION: i32 = 1;
/// `'D'<<24 | 'N'<<16 | 'A'<<8 | 'V'` (`DT_NAVMESH_MAGIC`) as stored.
const TILE_MAGIC: [u8; 4] = *b"VAND";
/// `DT_NAVMESH_VERSION`.
const TILE_VERSION: i32 = 7;
/// `'T'<<24 | 'S'<<16 | 'E'<<8 | 'T'` (RecastDemo's `TILECACHESET_MAGIC`, the file its
/// Temp Obstacles sample saves) and `'D'<<24 | 'T'<<16 | 'L'<<8 | 'R'`
/// (`DT_TILECACHE_MAGIC`, one compressed layer), as stored, each followed by version 1:
/// recognised only to be refused by name (they hold heightfield layers, not a navmesh).
const TILE_CACHE_MAGICS: [[u8; 8]; 2] = [*b"TEST\x01\0\0\0", *b"RLTD\x01\0\0\0"];

/// `sizeof(NavMeshSetHeader)`: magic, version, numTiles and the 28-byte `dtNavMeshParams`.
const SET_HEADER_SIZE: usize = 40;
/// `sizeof(dtMeshHeader)`.
const TILE_HEADER_SIZE: u64 = 100;
/// `sizeof(dtPoly)`.
const POLY_SIZE: u64 = 32;
/// `sizeof(dtPolyDetail)`: two `u32`, two `u8`, padded.
const DETAIL_MESH_SIZE: u64 = 12;
/// `sizeof(dtBVNode)`.
const BV_NODE_SIZE: u64 = 16;
/// `sizeof(dtOffMeshConnection)`.
const OFF_MESH_SIZE: u64 = 36;

/// `DT_POLYTYPE_OFFMESH_CONNECTION`.
const POLYTYPE_OFF_MESH: u8 = 1;
/// `DT_OFFMESH_CON_BIDIR`.
const OFF_MESH_BIDIR: u8 = 1;
/// `DT_VERTS_PER_POLYGON`.
const MAX_POLY_VERTS: u8 = 6;

/// The sections after the header, in file order.
const SECTIONS: [&str; 8] = [
    "vertices",
    "polygons",
    "links",
    "detail sub-meshes",
    "detail vertices",
    "detail triangles",
    "BV tree",
    "off-mesh connections",
];

/// The width of `dtPolyRef` and `dtTileRef` the file was written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Width {
    /// The default build: 32-bit refs, bit counts from `dtNavMeshParams`.
    Bits32,
    /// `DT_POLYREF64`: 64-bit refs, 16 salt, 28 tile and 20 polygon bits.
    Bits64,
}

impl Width {
    /// `sizeof(dtLink)`.
    fn link_size(self) -> u64 {
        match self {
            Width::Bits32 => 12,
            Width::Bits64 => 16,
        }
    }

    /// `sizeof(NavMeshTileHeader)` in a set.
    fn record_size(self) -> usize {
        match self {
            Width::Bits32 => 8,
            Width::Bits64 => 16,
        }
    }

    fn other(self) -> Width {
        match self {
            Width::Bits32 => Width::Bits64,
            Width::Bits64 => Width::Bits32,
        }
    }

    fn bits(self) -> u32 {
        match self {
            Width::Bits32 => 32,
            Width::Bits64 => 64,
        }
    }
}

/// How a `dtPolyRef` splits into salt, tile index and polygon index
/// (`dtNavMesh::encodePolyId`).
#[derive(Debug, Clone, Copy)]
struct RefBits {
    salt: u32,
    tile: u32,
    poly: u32,
}

impl RefBits {
    fn encode(self, salt: u64, tile: u64, poly: u64) -> u64 {
        (salt << (self.poly + self.tile)) | (tile << self.poly) | poly
    }

    /// The salt and tile index of `r` (`decodePolyIdSalt`, `decodePolyIdTile`).
    fn decode(self, r: u64) -> (u64, u64) {
        let mask = |bits: u32| (1u64 << bits) - 1;
        (
            (r >> (self.poly + self.tile)) & mask(self.salt),
            (r >> self.poly) & mask(self.tile),
        )
    }
}

/// `dtIlog2(dtNextPow2(v))`: the bits `dtNavMesh::init` gives `v` tiles or polygons.
fn id_bits(v: u32) -> u32 {
    v.checked_next_power_of_two().map_or(0, u32::trailing_zeros)
}

/// The bit split of `dtNavMesh::init` for `max_tiles` and `max_polys` (both ≥ 1), or why
/// Detour refuses them.
fn ref_bits(width: Width, max_tiles: u32, max_polys: u32) -> std::result::Result<RefBits, String> {
    match width {
        Width::Bits64 => Ok(RefBits {
            salt: 16,
            tile: 28,
            poly: 20,
        }),
        Width::Bits32 => {
            let (tile, poly) = (id_bits(max_tiles), id_bits(max_polys));
            let salt = 32u32.saturating_sub(tile + poly).min(31);
            if tile + poly > 31 || salt < 10 {
                Err(format!(
                    "maxTiles {max_tiles} and maxPolys {max_polys} need {tile} + {poly} bits of a \
                     32-bit polygon ref, leaving {salt} for the salt: Detour needs at least 10"
                ))
            } else {
                Ok(RefBits { salt, tile, poly })
            }
        }
    }
}

/// Little-endian reads. Every read the reader makes is inside a section it checked to fit
/// the data; one outside reads zeros rather than panicking.
#[derive(Clone, Copy)]
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn array<const N: usize>(self, at: u64) -> [u8; N] {
        usize::try_from(at)
            .ok()
            .and_then(|at| self.0.get(at..at.checked_add(N)?))
            .and_then(|s| s.try_into().ok())
            .unwrap_or([0; N])
    }
    fn u8(self, at: u64) -> u8 {
        self.array::<1>(at)[0]
    }
    fn u16(self, at: u64) -> u16 {
        u16::from_le_bytes(self.array(at))
    }
    fn u32(self, at: u64) -> u32 {
        u32::from_le_bytes(self.array(at))
    }
    fn i32(self, at: u64) -> i32 {
        i32::from_le_bytes(self.array(at))
    }
    fn u64(self, at: u64) -> u64 {
        u64::from_le_bytes(self.array(at))
    }
    fn f32(self, at: u64) -> f32 {
        f32::from_le_bytes(self.array(at))
    }
    fn vec3(self, at: u64) -> [f32; 3] {
        [self.f32(at), self.f32(at + 4), self.f32(at + 8)]
    }
}

/// A problem with the file as a whole, naming it.
fn bad(file: &str, message: impl Display) -> Error {
    Error::InvalidPolygon {
        message: format!("{file}: {message}"),
    }
}

/// Where a tile is, for its errors: `file: tile 3 (at byte 1234): …`.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    file: &'a str,
    tile: usize,
    /// The byte of the file where the tile's data (its `dtMeshHeader`) starts.
    at: usize,
}

impl Ctx<'_> {
    fn err(self, message: impl Display) -> Error {
        bad(
            self.file,
            format!("tile {} (at byte {}): {message}", self.tile, self.at),
        )
    }
}

/// The fields of `dtMeshHeader` the reader uses, counts checked non-negative.
#[derive(Debug, Clone, Copy)]
struct Header {
    x: i32,
    y: i32,
    layer: i32,
    poly_count: u32,
    vert_count: u32,
    max_link_count: u32,
    detail_mesh_count: u32,
    detail_vert_count: u32,
    detail_tri_count: u32,
    bv_node_count: u32,
    off_mesh_con_count: u32,
    walkable: [f32; 3],
}

/// A tile's header and the offsets (from the tile's start) of its sections, checked to add
/// up to its data size.
#[derive(Clone, Copy)]
struct Tile<'a> {
    data: Bytes<'a>,
    header: Header,
    /// Where each of [`SECTIONS`] starts.
    starts: [u64; 8],
    ctx: Ctx<'a>,
    /// The tile's salt and index: its polygon `i` has ref `bits.encode(salt, index, i)`.
    salt: u64,
    index: u64,
}

/// Reads the `dtMeshHeader` at the start of `data`.
fn read_header(data: Bytes, ctx: Ctx) -> Result<Header> {
    let len = data.0.len();
    if (len as u64) < TILE_HEADER_SIZE {
        return Err(ctx.err(format!(
            "truncated: its header needs {TILE_HEADER_SIZE} bytes, the tile has {len}"
        )));
    }
    let magic: [u8; 4] = data.array(0);
    if magic != TILE_MAGIC {
        return Err(ctx.err(format!(
            "it starts with \"{}\", not Detour's tile magic \"VAND\" (DNAV as a little-endian \
             int)",
            magic.escape_ascii()
        )));
    }
    let version = data.i32(4);
    if version != TILE_VERSION {
        return Err(ctx.err(format!(
            "tile data version {version}: this reader reads version {TILE_VERSION} \
             (DT_NAVMESH_VERSION) only"
        )));
    }
    let count = |at: u64, name: &str| {
        let n = data.i32(at);
        u32::try_from(n).map_err(|_| ctx.err(format!("{name} is {n}, below 0")))
    };
    Ok(Header {
        x: data.i32(8),
        y: data.i32(12),
        layer: data.i32(16),
        poly_count: count(24, "polyCount")?,
        vert_count: count(28, "vertCount")?,
        max_link_count: count(32, "maxLinkCount")?,
        detail_mesh_count: count(36, "detailMeshCount")?,
        detail_vert_count: count(40, "detailVertCount")?,
        detail_tri_count: count(44, "detailTriCount")?,
        bv_node_count: count(48, "bvNodeCount")?,
        off_mesh_con_count: count(52, "offMeshConCount")?,
        walkable: data.vec3(60),
    })
}

/// The starts of the sections and the end of the last, for links of `width`
/// (`dtNavMesh::addTile`'s layout; `u64`, so no count wraps).
fn layout(h: &Header, width: Width) -> ([u64; 8], u64) {
    let align4 = |x: u64| (x + 3) & !3;
    let sizes = [
        12 * u64::from(h.vert_count),
        POLY_SIZE * u64::from(h.poly_count),
        width.link_size() * u64::from(h.max_link_count),
        DETAIL_MESH_SIZE * u64::from(h.detail_mesh_count),
        12 * u64::from(h.detail_vert_count),
        4 * u64::from(h.detail_tri_count),
        BV_NODE_SIZE * u64::from(h.bv_node_count),
        OFF_MESH_SIZE * u64::from(h.off_mesh_con_count),
    ];
    let mut starts = [0u64; 8];
    let mut at = TILE_HEADER_SIZE;
    for (start, size) in starts.iter_mut().zip(sizes) {
        *start = at;
        at += align4(size);
    }
    (starts, at)
}

/// The width whose layout fills the tile's `size` bytes exactly: `want` if given (a set
/// says it), else 32-bit refs, else 64-bit. The error names the first section that runs
/// past the end, or the bytes left over.
fn fit(h: &Header, size: u64, want: Option<Width>, ctx: Ctx) -> Result<(Width, [u64; 8])> {
    let first = want.unwrap_or(Width::Bits32);
    let (starts, end) = layout(h, first);
    if end == size {
        return Ok((first, starts));
    }
    let (other_starts, other_end) = layout(h, first.other());
    if other_end == size {
        if want.is_none() {
            return Ok((first.other(), other_starts));
        }
        return Err(ctx.err(format!(
            "its sections fill its {size} bytes with {}-bit polygon refs, but the set's tile \
             records are {}-bit",
            first.other().bits(),
            first.bits()
        )));
    }
    let ends = starts.iter().skip(1).copied().chain([end]);
    for ((name, &s), e) in SECTIONS.iter().zip(&starts).zip(ends) {
        if e > size {
            return Err(ctx.err(format!(
                "truncated: its {name} (bytes {s} to {e} of the tile) run past the end of its \
                 {size} bytes"
            )));
        }
    }
    Err(ctx.err(format!(
        "its sections end at byte {end} ({other_end} with {}-bit polygon refs), but it has \
         {size} bytes",
        first.other().bits()
    )))
}

/// The tiles of a navmesh set, read with tile records of `width`.
fn read_set<'a>(bytes: &'a [u8], file: &'a str, width: Width) -> Result<(Vec<Tile<'a>>, RefBits)> {
    let b = Bytes(bytes);
    let num_tiles = b.i32(8);
    let (max_tiles, max_polys) = (b.i32(32), b.i32(36));
    if num_tiles <= 0 {
        return Err(bad(file, format!("the set has {num_tiles} tiles")));
    }
    if max_tiles <= 0 || max_polys <= 0 {
        return Err(bad(
            file,
            format!("the set's maxTiles {max_tiles} and maxPolys {max_polys} must be at least 1"),
        ));
    }
    if num_tiles > max_tiles {
        return Err(bad(
            file,
            format!("the set has {num_tiles} tiles, more than its maxTiles {max_tiles}"),
        ));
    }
    let bits = ref_bits(width, max_tiles as u32, max_polys as u32).map_err(|m| bad(file, m))?;
    let mut tiles: Vec<Tile> = Vec::new();
    let mut at = SET_HEADER_SIZE;
    for t in 0..num_tiles as usize {
        let record = width.record_size();
        if bytes.len() - at < record {
            return Err(bad(
                file,
                format!(
                    "tile {t}: truncated: its record (tileRef, dataSize) at byte {at} needs \
                     {record} bytes, {} are left",
                    bytes.len() - at
                ),
            ));
        }
        let (tile_ref, data_size) = match width {
            Width::Bits32 => (u64::from(b.u32(at as u64)), b.i32(at as u64 + 4)),
            Width::Bits64 => (b.u64(at as u64), b.i32(at as u64 + 8)),
        };
        at += record;
        let ctx = Ctx { file, tile: t, at };
        // RecastDemo's `loadAll` stops at a record with no ref or no data.
        if tile_ref == 0 || data_size == 0 {
            break;
        }
        let left = bytes.len() - at;
        let size = usize::try_from(data_size)
            .map_err(|_| ctx.err(format!("its dataSize is {data_size}, below 0")))?;
        if size > left {
            return Err(ctx.err(format!(
                "truncated: its dataSize {size} runs past the end of the file ({left} bytes left)"
            )));
        }
        let data = Bytes(&bytes[at..at + size]);
        let header = read_header(data, ctx)?;
        let (_, starts) = fit(&header, size as u64, Some(width), ctx)?;
        let (salt, index) = bits.decode(tile_ref);
        if index >= max_tiles as u64 {
            return Err(ctx.err(format!(
                "its tileRef {tile_ref} names tile index {index}, but maxTiles is {max_tiles}"
            )));
        }
        if header.poly_count > 1 << bits.poly {
            return Err(ctx.err(format!(
                "it has {} polygons, more than the {} its refs have room for (maxPolys {max_polys})",
                header.poly_count,
                1u64 << bits.poly
            )));
        }
        for other in &tiles {
            let o = &other.header;
            if other.index == index {
                return Err(ctx.err(format!(
                    "its tileRef {tile_ref} names tile index {index}, as tile {}'s does",
                    other.ctx.tile
                )));
            }
            if (o.x, o.y, o.layer) == (header.x, header.y, header.layer) {
                return Err(ctx.err(format!(
                    "it is at tile (x {}, y {}, layer {}), as tile {} is",
                    o.x, o.y, o.layer, other.ctx.tile
                )));
            }
        }
        tiles.push(Tile {
            data,
            header,
            starts,
            ctx,
            salt,
            index,
        });
        at += size;
    }
    if tiles.is_empty() {
        return Err(bad(
            file,
            "the set's first tile record has tileRef 0 or dataSize 0: it has no tiles",
        ));
    }
    Ok((tiles, bits))
}

/// Output being gathered across tiles.
struct Out {
    data: SurfaceData,
    detail: Option<Detail>,
}

/// Appends tile `t`'s ground polygons, their detail sub-meshes (a fan of the polygon where
/// the tile has none, if `detail` is wanted) and its off-mesh connections.
fn emit(out: &mut Out, t: &Tile, bits: RefBits) -> Result<()> {
    let (d, h, ctx, s) = (t.data, &t.header, t.ctx, &t.starts);
    let nv = h.vert_count as usize;
    let mut verts = Vec::with_capacity(nv);
    for i in 0..nv as u64 {
        let v = d.vec3(s[0] + 12 * i);
        if !v.iter().all(|c| c.is_finite()) {
            return Err(ctx.err(format!("vertex {i} is {v:?}: not finite")));
        }
        verts.push(DVec3::new(v[0].into(), v[1].into(), v[2].into()));
    }
    // Pass 1: check the polygons and mark the vertices ground polygons use.
    let poly_at = |p: u32| s[1] + POLY_SIZE * u64::from(p);
    let corners = |p: u32| {
        let n = d.u8(poly_at(p) + 30).min(MAX_POLY_VERTS);
        (0..u64::from(n)).map(move |j| d.u16(poly_at(p) + 4 + 2 * j))
    };
    let is_ground = |p: u32| d.u8(poly_at(p) + 31) >> 6 != POLYTYPE_OFF_MESH;
    let mut used = vec![false; nv];
    for p in 0..h.poly_count {
        let kind = d.u8(poly_at(p) + 31) >> 6;
        if kind == POLYTYPE_OFF_MESH {
            continue;
        }
        if kind != 0 {
            return Err(ctx.err(format!(
                "polygon {p} has type {kind}: Detour's are 0 (ground) and 1 (off-mesh connection)"
            )));
        }
        let n = d.u8(poly_at(p) + 30);
        if !(3..=MAX_POLY_VERTS).contains(&n) {
            return Err(ctx.err(format!(
                "polygon {p} has {n} vertices: a ground polygon has 3 to {MAX_POLY_VERTS}"
            )));
        }
        for v in corners(p) {
            if usize::from(v) >= nv {
                return Err(ctx.err(format!(
                    "polygon {p} uses vertex {v}, but the tile has {nv} vertices"
                )));
            }
            used[usize::from(v)] = true;
        }
        if h.detail_mesh_count > 0 && p >= h.detail_mesh_count {
            return Err(ctx.err(format!(
                "polygon {p} has no detail sub-mesh: the tile has {} (one per ground polygon)",
                h.detail_mesh_count
            )));
        }
    }
    // Pass 2: the used vertices, in the tile's order.
    let mut index = vec![u32::MAX; nv];
    for (i, v) in verts.iter().enumerate() {
        if used[i] {
            index[i] = out.data.vertices.len() as u32;
            out.data.vertices.push(*v);
        }
    }
    for p in (0..h.poly_count).filter(|&p| is_ground(p)) {
        let at = poly_at(p);
        out.data
            .polygons
            .push(corners(p).map(|v| index[usize::from(v)]).collect());
        out.data.flags.push(d.u16(at + 28));
        out.data.areas.push(d.u8(at + 31) & 0x3f);
        out.data
            .refs
            .push(bits.encode(t.salt, t.index, u64::from(p)));
        if let Some(detail) = &mut out.detail {
            let poly: Vec<DVec3> = corners(p).map(|v| verts[usize::from(v)]).collect();
            sub_mesh(detail, t, p, &poly)?;
        }
    }
    for k in 0..u64::from(h.off_mesh_con_count) {
        let at = s[7] + OFF_MESH_SIZE * k;
        let (a, b) = (d.vec3(at), d.vec3(at + 12));
        let radius = d.f32(at + 24);
        if !a.iter().chain(&b).chain([&radius]).all(|c| c.is_finite()) {
            return Err(ctx.err(format!(
                "off-mesh connection {k} is from {a:?} to {b:?} with radius {radius}: not finite"
            )));
        }
        let p = d.u16(at + 28);
        if u32::from(p) >= h.poly_count {
            return Err(ctx.err(format!(
                "off-mesh connection {k} names polygon {p}, but the tile has {}",
                h.poly_count
            )));
        }
        let poly = poly_at(u32::from(p));
        let wide = |v: [f32; 3]| DVec3::new(v[0].into(), v[1].into(), v[2].into());
        out.data.links.push(OffMeshLink {
            bidirectional: d.u8(at + 30) & OFF_MESH_BIDIR != 0,
            area: d.u8(poly + 31) & 0x3f,
            flags: d.u16(poly + 28),
            user_id: d.u32(at + 32),
            ..OffMeshLink::new(wide(a), wide(b), radius.into())
        });
    }
    Ok(())
}

/// Checks that polygon `p`'s detail sub-mesh takes its `count` detail `what` (vertices or
/// triangles) from `base` on within the tile's `total`; else the error names the range
/// used and the tile's count. No overflow: the sums are taken in `u64`.
fn check_detail_range(
    ctx: Ctx<'_>,
    p: u32,
    what: &str,
    (base, count): (u32, u32),
    total: u32,
) -> Result<()> {
    if u64::from(base) + u64::from(count) > u64::from(total) {
        return Err(ctx.err(format!(
            "polygon {p}'s detail sub-mesh uses detail {what} {base} to {}, but the tile has \
             {total}",
            u64::from(base) + u64::from(count) - 1,
        )));
    }
    Ok(())
}

/// Appends ground polygon `p`'s detail sub-mesh: its corners `poly`, then its own detail
/// vertices; Detour's indices (below the corner count: a corner; else its detail vertices
/// in order) are the sub-mesh's. A tile without a detail mesh gets a fan of the polygon,
/// as `dtCreateNavMeshData` makes one.
fn sub_mesh(detail: &mut Detail, t: &Tile, p: u32, poly: &[DVec3]) -> Result<()> {
    let (d, h, ctx, s) = (t.data, &t.header, t.ctx, &t.starts);
    let first_vertex = detail.vertices.len() as u32;
    let first_triangle = detail.triangles.len() as u32;
    detail.vertices.extend_from_slice(poly);
    let nv = poly.len() as u32;
    if h.detail_mesh_count == 0 {
        for j in 2..nv {
            let edges = 1 << 2 | u32::from(j == 2) | u32::from(j == nv - 1) << 4;
            detail.triangles.push([0, j - 1, j, edges]);
        }
        detail
            .meshes
            .push([first_vertex, nv, first_triangle, nv - 2]);
        return Ok(());
    }
    let at = s[3] + DETAIL_MESH_SIZE * u64::from(p);
    let (vert_base, tri_base) = (d.u32(at), d.u32(at + 4));
    let (vert_count, tri_count) = (u32::from(d.u8(at + 8)), u32::from(d.u8(at + 9)));
    check_detail_range(
        ctx,
        p,
        "vertices",
        (vert_base, vert_count),
        h.detail_vert_count,
    )?;
    check_detail_range(
        ctx,
        p,
        "triangles",
        (tri_base, tri_count),
        h.detail_tri_count,
    )?;
    for i in 0..u64::from(vert_count) {
        let n = u64::from(vert_base) + i;
        let v = d.vec3(s[4] + 12 * n);
        if !v.iter().all(|c| c.is_finite()) {
            return Err(ctx.err(format!("detail vertex {n} is {v:?}: not finite")));
        }
        detail
            .vertices
            .push(DVec3::new(v[0].into(), v[1].into(), v[2].into()));
    }
    let size = nv + vert_count;
    for k in 0..tri_count {
        let tri: [u8; 4] = d.array(s[5] + 4 * u64::from(tri_base + k));
        if let Some(&i) = tri[..3].iter().find(|&&i| u32::from(i) >= size) {
            return Err(ctx.err(format!(
                "polygon {p}'s detail triangle {k} (triangle {} of the tile) uses vertex {i}, \
                 but its sub-mesh has {size} ({nv} corners and {vert_count} detail vertices)",
                tri_base + k
            )));
        }
        detail.triangles.push(tri.map(u32::from));
    }
    detail
        .meshes
        .push([first_vertex, size, first_triangle, tri_count]);
    Ok(())
}

/// The agent of the first tile (`walkableHeight`, `walkableRadius`, `walkableClimb`).
fn agent(t: &Tile) -> Result<BakeAgent> {
    let [height, radius, climb] = t.header.walkable;
    if ![height, radius, climb].iter().all(|x| x.is_finite()) {
        return Err(t.ctx.err(format!(
            "walkableHeight {height}, walkableRadius {radius}, walkableClimb {climb}: not finite"
        )));
    }
    Ok(BakeAgent {
        height: Some(height.into()),
        radius: Some(radius.into()),
        climb: Some(climb.into()),
    })
}

/// Reads Detour's binary navmesh: a navmesh set (`MSET`, version 1, as RecastDemo's
/// `Sample_TileMesh` and `Sample_SoloMesh` save it: `NavMeshSetHeader` — magic, version,
/// tile count, `dtNavMeshParams` — then per tile a `NavMeshTileHeader` — `dtTileRef`, data
/// size — and the tile's data) or a single tile's data as `dtCreateNavMeshData` writes it
/// (`DNAV`, version 7). Little-endian; either width of `dtPolyRef` (`DT_POLYREF64` builds
/// write 64-bit tile refs and 16-byte links), told apart by where the first tile's data
/// starts and by which width makes each tile's sections add up to its data size.
/// `file` names the input in errors.
///
/// What it gives, y up: every tile's ground polygons (off-mesh connection polygons
/// skipped) as vertex index lists in Detour's order; the vertices each tile's ground
/// polygons use, in the tile's order, `f32` widened exactly (tiles repeat the vertices of
/// their shared borders: [`Surface::from_data`](crate::navmesh::Surface::from_data) welds
/// them); `areas` (the low 6 bits of `areaAndtype`), `flags`; `refs`, each polygon's
/// `dtPolyRef` as Detour computes it after loading the file (`dtNavMesh::encodePolyId`:
/// the salt and tile index the tile's stored `tileRef` decodes to with the bit counts of
/// `dtNavMeshParams`' `maxTiles` and `maxPolys`; for a single tile, as
/// `dtNavMesh::init(data, …)` gives: salt 1, tile 0, `maxPolys` its polygon count); the
/// detail mesh ([`Detail`]: per ground polygon its corners, in the polygon's order, then
/// its detail vertices; Detour's triangle indices and edge-flag bytes as they are, since
/// Detour numbers corners then detail vertices the same way), or `None` when no tile has
/// one (a tile without, among tiles with, gets a fan of each polygon, as
/// `dtCreateNavMeshData` makes); every off-mesh connection as an [`OffMeshLink`] (start
/// `pos[0..3]`, end `pos[3..6]`, `rad`, `DT_OFFMESH_CON_BIDIR`, area and flags of its
/// polygon, `userId`); and [`BakeAgent`] from `walkableHeight`, `walkableRadius`,
/// `walkableClimb` of the first tile (Detour keeps them per tile; tiles of one bake agree,
/// and where they do not the first tile's are taken). As RecastDemo's `loadAll` does, a
/// tile record with `tileRef` 0 or data size 0 ends the set. Links and BV trees (Detour's
/// run-time structures) are not read.
///
/// Errors, each an [`Error::InvalidPolygon`] naming the file and, where it is about one,
/// the tile by its position in the file and the byte where its data starts
/// (`level.bin: tile 3 (at byte 1234): polygon 5 uses vertex 40, but the tile has 30
/// vertices`): a magic other than `MSET` or `DNAV` (big-endian ones, and a tile cache's,
/// named as such); a set
/// version other than 1 or a tile version other than 7; a truncated set header, tile
/// record or tile (naming the section that runs past the end); a data size below 0 or
/// beyond the file; sections that do not add up to the tile's size; a count below 0; a set
/// of no tiles, of more tiles than `maxTiles`, or whose `maxTiles` and `maxPolys` leave
/// Detour's 32-bit refs fewer than 10 salt bits; a tile ref naming a tile index beyond
/// `maxTiles` or one taken, two tiles at one grid position, a tile with more polygons than
/// its refs can number; a polygon of an unknown type, a ground polygon with fewer than 3
/// or more than 6 vertices or a vertex index out of range; a NaN or infinite vertex,
/// detail vertex, off-mesh connection or agent value; a detail sub-mesh missing or out of
/// range, a detail triangle index beyond its sub-mesh; an off-mesh connection naming a
/// polygon out of range. Counts are checked against the bytes there before anything is
/// allocated, so no count makes it allocate more than a few times the file's size. Never a
/// panic. What the polygons are (convex, planar, joined) is the surface builder's to check.
///
/// Cost: O(file size).
///
/// Source: M. Mononen, recastnavigation: Detour's `dtMeshHeader`, `dtPoly`,
/// `dtPolyDetail`, `dtOffMeshConnection`, `dtNavMesh::addTile` and `encodePolyId`
/// (`DetourNavMesh.h`, `DetourNavMesh.cpp`), `dtCreateNavMeshData`
/// (`DetourNavMeshBuilder.cpp`), and RecastDemo's `Sample::saveAll` and `loadAll`.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::parse_detour;
/// use pathsmooth::navmesh::{Surface, SurfaceOptions};
/// // One tile (DNAV, version 7) of one triangle, as dtCreateNavMeshData lays it out.
/// let mut b = b"VAND".to_vec();
/// // version, x, y, layer, userId, polyCount, vertCount, maxLinkCount, detailMeshCount,
/// // detailVertCount, detailTriCount, bvNodeCount, offMeshConCount, offMeshBase
/// for v in [7, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 1] {
///     b.extend_from_slice(&i32::to_le_bytes(v));
/// }
/// // walkableHeight, walkableRadius, walkableClimb, bmin, bmax, bvQuantFactor; vertices
/// for v in [2.0f32, 0.5, 0.25, 0., 0., 0., 1., 0., 1., 1., 0., 0., 0., 1., 0., 0., 0., 0., 1.] {
///     b.extend_from_slice(&v.to_le_bytes());
/// }
/// // dtPoly: firstLink, verts[6], neis[6], flags, vertCount, area 63 | type ground << 6
/// b.extend_from_slice(&[0; 4]);
/// for v in [0u16, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] {
///     b.extend_from_slice(&v.to_le_bytes());
/// }
/// b.extend_from_slice(&[3, 63]);
/// let data = parse_detour(&b, "triangle.bin")?;
/// assert_eq!(data.vertices, [DVec3::ZERO, DVec3::X, DVec3::Z]);
/// assert_eq!(data.polygons, [vec![0, 1, 2]]);
/// // dtNavMesh::init(data): salt 1, tile 0, no bits for one polygon.
/// assert_eq!((data.areas[0], data.flags[0], data.refs[0]), (63, 1, 1));
/// assert_eq!(data.agent.climb, Some(0.25));
/// assert_eq!(Surface::from_data(&data, &SurfaceOptions::default())?.num_polygons(), 1);
/// // Cut short, it is an error naming the section:
/// let err = parse_detour(&b[..150], "triangle.bin").unwrap_err().to_string();
/// assert!(err.contains("triangle.bin: tile 0 (at byte 0): truncated: its polygons"), "{err}");
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_detour(bytes: &[u8], file: &str) -> Result<SurfaceData> {
    let magic = bytes.get(..4);
    let (tiles, bits) = match magic {
        Some(m) if m == SET_MAGIC => {
            if bytes.len() < SET_HEADER_SIZE {
                return Err(bad(
                    file,
                    format!(
                        "truncated: a navmesh set's header needs {SET_HEADER_SIZE} bytes, the \
                         file has {}",
                        bytes.len()
                    ),
                ));
            }
            let version = Bytes(bytes).i32(4);
            if version != SET_VERSION {
                return Err(bad(
                    file,
                    format!(
                        "navmesh set version {version}: this reader reads version {SET_VERSION} \
                         (RecastDemo's NAVMESHSET_VERSION) of sets and version {TILE_VERSION} of \
                         tiles"
                    ),
                ));
            }
            // The first tile's data starts at byte 48 with 32-bit tile records, 56 with
            // 64-bit ones; the other width is tried when the first does not read.
            let data_at = |w: Width| SET_HEADER_SIZE + w.record_size();
            let magic_at = |at: usize| bytes.get(at..at + 4) == Some(&TILE_MAGIC[..]);
            let order = if !magic_at(data_at(Width::Bits32)) && magic_at(data_at(Width::Bits64)) {
                [Width::Bits64, Width::Bits32]
            } else {
                [Width::Bits32, Width::Bits64]
            };
            match read_set(bytes, file, order[0]) {
                Ok(read) => read,
                Err(e) => read_set(bytes, file, order[1]).map_err(|_| e)?,
            }
        }
        Some(m) if m == TILE_MAGIC => {
            let ctx = Ctx {
                file,
                tile: 0,
                at: 0,
            };
            let data = Bytes(bytes);
            let header = read_header(data, ctx)?;
            let (width, starts) = fit(&header, bytes.len() as u64, None, ctx)?;
            // `dtNavMesh::init(data, …)`: one tile, maxPolys its polygon count.
            let bits = ref_bits(width, 1, header.poly_count).map_err(|m| ctx.err(m))?;
            let tile = Tile {
                data,
                header,
                starts,
                ctx,
                salt: 1,
                index: 0,
            };
            (vec![tile], bits)
        }
        Some(b"MSET") | Some(b"DNAV") => {
            return Err(bad(
                file,
                "a big-endian Detour navmesh: this reader reads little-endian ones",
            ))
        }
        _ if is_tile_cache(bytes) => {
            return Err(bad(
                file,
                "a Detour tile cache (`dtTileCache`'s compressed heightfield layers, as \
                 RecastDemo's Temp Obstacles sample saves them), not a navmesh: its tiles \
                 are built at run time; save the built navmesh instead (a navmesh set, \
                 MSET, as the Solo and Tile Mesh samples save it)",
            ))
        }
        _ => {
            let start = &bytes[..bytes.len().min(4)];
            return Err(bad(
                file,
                format!(
                    "not a Detour navmesh: it starts with \"{}\", not a navmesh set's magic \
                     \"TESM\" or a tile's \"VAND\" (MSET and DNAV as little-endian ints)",
                    start.escape_ascii()
                ),
            ));
        }
    };
    let any_detail = tiles.iter().any(|t| t.header.detail_mesh_count > 0);
    let mut out = Out {
        data: SurfaceData::new(UpAxis::Y),
        detail: any_detail.then(Detail::default),
    };
    for t in &tiles {
        emit(&mut out, t, bits)?;
    }
    out.data.detail = out.detail;
    out.data.agent = agent(&tiles[0])?;
    Ok(out.data)
}

/// Whether `bytes` start as Detour's binary files do: a navmesh set's magic (`MSET`,
/// stored as the little-endian int `b"TESM"`) or a tile's (`DNAV`, `b"VAND"`), for telling
/// the format from the content; also a tile cache's (`TSET` or a layer's `DTLR`, version
/// 1), which [`parse_detour`] recognises to refuse by name. O(1).
///
/// ```
/// use pathsmooth::navmesh::is_detour;
/// assert!(is_detour(b"TESM\x01\x00\x00\x00"));
/// assert!(is_detour(b"VAND\x07\x00\x00\x00"));
/// assert!(is_detour(b"TEST\x01\x00\x00\x00")); // a tile cache, refused by parse_detour
/// assert!(!is_detour(b"MSET") && !is_detour(b"VA") && !is_detour(b"TEST case"));
/// ```
pub fn is_detour(bytes: &[u8]) -> bool {
    matches!(bytes.get(..4), Some(m) if m == SET_MAGIC || m == TILE_MAGIC) || is_tile_cache(bytes)
}

/// Whether `bytes` start as a Detour tile cache set or layer (magic and version 1).
fn is_tile_cache(bytes: &[u8]) -> bool {
    bytes
        .get(..8)
        .is_some_and(|head| TILE_CACHE_MAGICS.iter().any(|m| head == m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::surface::{Surface, SurfaceOptions};

    /// A polygon to write: corners, `neis`, flags, area, type.
    struct PolyIn {
        verts: Vec<u16>,
        neis: Vec<u16>,
        flags: u16,
        area: u8,
        kind: u8,
    }

    fn poly(verts: &[u16], neis: &[u16], flags: u16, area: u8, kind: u8) -> PolyIn {
        PolyIn {
            verts: verts.to_vec(),
            neis: neis.to_vec(),
            flags,
            area,
            kind,
        }
    }

    /// An off-mesh connection to write.
    struct ConIn {
        pos: [f32; 6],
        rad: f32,
        poly: u16,
        flags: u8,
        user_id: u32,
    }

    /// A detail mesh to write: `(vertBase, triBase, vertCount, triCount)` per polygon,
    /// detail vertices, triangles.
    type DetailIn = (Vec<(u32, u32, u8, u8)>, Vec<[f32; 3]>, Vec<[u8; 4]>);

    /// A tile to write, field for field what `dtCreateNavMeshData` stores.
    struct TileIn {
        x: i32,
        y: i32,
        layer: i32,
        verts: Vec<[f32; 3]>,
        polys: Vec<PolyIn>,
        max_links: u32,
        detail: Option<DetailIn>,
        bv_nodes: u32,
        cons: Vec<ConIn>,
        walkable: [f32; 3],
        wide: bool,
    }

    /// Two quads side by side (the second raised at its far side), an off-mesh connection
    /// from the first to the second (its polygon 2, area 5, flags 9), a detail mesh that
    /// raises the first quad's centre.
    fn tile_a() -> TileIn {
        TileIn {
            x: 0,
            y: 0,
            layer: 0,
            verts: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 0.0, 1.0],
                [0.0, 0.0, 1.0],
                [2.0, 0.5, 0.0],
                [2.0, 0.5, 1.0],
                [0.5, 0.0, 0.5],
                [1.5, 0.25, 0.5],
            ],
            polys: vec![
                poly(&[0, 1, 2, 3], &[0, 2, 0, 0], 1, 63, 0),
                poly(&[1, 4, 5, 2], &[0, 0x8000, 0, 1], 3, 7, 0),
                poly(&[6, 7], &[0, 0], 9, 5, 1),
            ],
            max_links: 10,
            detail: Some((
                vec![(0, 0, 1, 4), (1, 4, 0, 2)],
                vec![[0.5, 0.1, 0.5]],
                vec![
                    [0, 1, 4, 1],
                    [1, 2, 4, 1],
                    [2, 3, 4, 1],
                    [3, 0, 4, 1],
                    [0, 1, 2, 5],
                    [0, 2, 3, 20],
                ],
            )),
            bv_nodes: 4,
            cons: vec![ConIn {
                pos: [0.5, 0.0, 0.5, 1.5, 0.25, 0.5],
                rad: 0.3,
                poly: 2,
                flags: 1,
                user_id: 77,
            }],
            walkable: [2.0, 0.6, 0.9],
            wide: false,
        }
    }

    /// One quad beyond tile A's second quad, at grid x 1, without a detail mesh.
    fn tile_b() -> TileIn {
        TileIn {
            x: 1,
            verts: vec![
                [2.0, 0.5, 0.0],
                [3.0, 0.5, 0.0],
                [3.0, 0.5, 1.0],
                [2.0, 0.5, 1.0],
            ],
            polys: vec![poly(&[0, 1, 2, 3], &[0, 0, 0, 0x8004], 2, 1, 0)],
            max_links: 4,
            detail: None,
            bv_nodes: 0,
            cons: Vec::new(),
            walkable: [2.5, 0.5, 0.5],
            ..tile_a()
        }
    }

    fn pad4(b: &mut Vec<u8>) {
        while !b.len().is_multiple_of(4) {
            b.push(0);
        }
    }

    /// The tile's data as `dtCreateNavMeshData` lays it out.
    fn tile_bytes(t: &TileIn) -> Vec<u8> {
        let mut b = Vec::new();
        let i = |b: &mut Vec<u8>, v: i32| b.extend_from_slice(&v.to_le_bytes());
        let f = |b: &mut Vec<u8>, v: f32| b.extend_from_slice(&v.to_le_bytes());
        let (dm, dv, dt) = t.detail.clone().unwrap_or_default();
        let (bmin, bmax) = t.verts.iter().fold(
            ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]),
            |(lo, hi), v| {
                (
                    [lo[0].min(v[0]), lo[1].min(v[1]), lo[2].min(v[2])],
                    [hi[0].max(v[0]), hi[1].max(v[1]), hi[2].max(v[2])],
                )
            },
        );
        b.extend_from_slice(&TILE_MAGIC);
        for v in [TILE_VERSION, t.x, t.y, t.layer, 0] {
            i(&mut b, v);
        }
        let counts = [
            t.polys.len(),
            t.verts.len(),
            t.max_links as usize,
            dm.len(),
            dv.len(),
            dt.len(),
            t.bv_nodes as usize,
            t.cons.len(),
            t.polys.len() - t.cons.len(),
        ];
        for c in counts {
            i(&mut b, c as i32);
        }
        for v in t.walkable.iter().chain(&bmin).chain(&bmax).chain(&[4.0]) {
            f(&mut b, *v);
        }
        assert_eq!(b.len(), 100);
        for v in t.verts.iter().flatten() {
            f(&mut b, *v);
        }
        for p in &t.polys {
            b.extend_from_slice(&0u32.to_le_bytes());
            for k in 0..6 {
                b.extend_from_slice(&p.verts.get(k).copied().unwrap_or(0).to_le_bytes());
            }
            for k in 0..6 {
                b.extend_from_slice(&p.neis.get(k).copied().unwrap_or(0).to_le_bytes());
            }
            b.extend_from_slice(&p.flags.to_le_bytes());
            b.push(p.verts.len() as u8);
            b.push(p.area | p.kind << 6);
        }
        let link = if t.wide { 16 } else { 12 };
        b.resize(b.len() + link * t.max_links as usize, 0xee);
        for &(vb, tb, vc, tc) in &dm {
            b.extend_from_slice(&vb.to_le_bytes());
            b.extend_from_slice(&tb.to_le_bytes());
            b.extend_from_slice(&[vc, tc, 0, 0]);
        }
        for v in dv.iter().flatten() {
            f(&mut b, *v);
        }
        for tri in &dt {
            b.extend_from_slice(tri);
        }
        pad4(&mut b);
        b.resize(b.len() + 16 * t.bv_nodes as usize, 0xbb);
        for c in &t.cons {
            for v in c.pos.iter().chain(&[c.rad]) {
                f(&mut b, *v);
            }
            b.extend_from_slice(&c.poly.to_le_bytes());
            b.extend_from_slice(&[c.flags, 0xff]);
            b.extend_from_slice(&c.user_id.to_le_bytes());
        }
        b
    }

    /// A navmesh set of `tiles` (tile ref, data), records of 8 bytes or (`wide`) 16.
    fn set_bytes(max_tiles: i32, max_polys: i32, tiles: &[(u64, Vec<u8>)], wide: bool) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&SET_MAGIC);
        for v in [SET_VERSION, tiles.len() as i32] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in [0.0f32, 0.0, 0.0, 1.0, 1.0] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in [max_tiles, max_polys] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for (r, data) in tiles {
            if wide {
                b.extend_from_slice(&r.to_le_bytes());
                b.extend_from_slice(&(data.len() as i32).to_le_bytes());
                b.extend_from_slice(&[0xff, 0x7f, 0, 0]);
            } else {
                b.extend_from_slice(&(*r as u32).to_le_bytes());
                b.extend_from_slice(&(data.len() as i32).to_le_bytes());
            }
            b.extend_from_slice(data);
        }
        b
    }

    /// Tile A and tile B in a set: maxTiles 4, maxPolys 8 (2 tile bits, 3 polygon bits,
    /// 27 salt bits); A at index 0 with salt 1, B at index 2 with salt 3.
    fn two_tiles(wide: bool) -> Vec<u8> {
        let (a, b) = (TileIn { wide, ..tile_a() }, TileIn { wide, ..tile_b() });
        let refs = if wide {
            [1u64 << 48, 3 << 48 | 2 << 20]
        } else {
            [1 << 5, 3 << 5 | 2 << 3]
        };
        set_bytes(
            4,
            8,
            &[(refs[0], tile_bytes(&a)), (refs[1], tile_bytes(&b))],
            wide,
        )
    }

    fn v(x: f32, y: f32, z: f32) -> DVec3 {
        DVec3::new(x.into(), y.into(), z.into())
    }

    #[track_caller]
    fn err(bytes: &[u8]) -> String {
        match parse_detour(bytes, "t.bin") {
            Ok(_) => panic!("read without an error"),
            Err(e) => e.to_string(),
        }
    }

    #[track_caller]
    fn fails(bytes: &[u8], says: &str) {
        let e = err(bytes);
        assert!(e.contains(says), "{e:?} does not say {says:?}");
        assert!(e.starts_with("invalid polygon: t.bin: "), "{e}");
    }

    #[test]
    fn one_tile_reads_exactly() {
        let d = parse_detour(&tile_bytes(&tile_a()), "a.bin").unwrap();
        assert_eq!(d.up, UpAxis::Y);
        assert_eq!(
            d.vertices,
            [
                v(0.0, 0.0, 0.0),
                v(1.0, 0.0, 0.0),
                v(1.0, 0.0, 1.0),
                v(0.0, 0.0, 1.0),
                v(2.0, 0.5, 0.0),
                v(2.0, 0.5, 1.0),
            ]
        );
        assert_eq!(d.polygons, [vec![0, 1, 2, 3], vec![1, 4, 5, 2]]);
        assert_eq!((d.areas, d.flags), (vec![63, 7], vec![1, 3]));
        // dtNavMesh::init(data): maxPolys 3 → 2 polygon bits, 0 tile bits, salt 1.
        assert_eq!(d.refs, [4, 5]);
        let detail = d.detail.unwrap();
        assert_eq!(detail.meshes, [[0, 5, 0, 4], [5, 4, 4, 2]]);
        // Each sub-mesh holds its polygon's corners (checked above), then its own detail
        // vertices: polygon 0 has one, at its centre; polygon 1 none.
        let corners = |p: usize| d.polygons[p].iter().map(|&i| d.vertices[i as usize]);
        let expected = corners(0).chain([v(0.5, 0.1, 0.5)]).chain(corners(1));
        assert_eq!(detail.vertices, expected.collect::<Vec<_>>());
        assert_eq!(
            detail.triangles,
            [
                [0, 1, 4, 1],
                [1, 2, 4, 1],
                [2, 3, 4, 1],
                [3, 0, 4, 1],
                [0, 1, 2, 5],
                [0, 2, 3, 20]
            ]
        );
        assert_eq!(
            d.links,
            [OffMeshLink {
                bidirectional: true,
                area: 5,
                flags: 9,
                user_id: 77,
                ..OffMeshLink::new(v(0.5, 0.0, 0.5), v(1.5, 0.25, 0.5), 0.3f32.into())
            }]
        );
        assert_eq!(
            d.agent,
            BakeAgent {
                height: Some(2.0),
                radius: Some(0.6f32.into()),
                climb: Some(0.9f32.into()),
            }
        );
    }

    #[test]
    fn one_tile_builds_a_surface_with_its_detail_and_link() {
        let d = parse_detour(&tile_bytes(&tile_a()), "a.bin").unwrap();
        let s = Surface::from_data(&d, &SurfaceOptions::default()).unwrap();
        assert_eq!(s.num_polygons(), 2);
        assert_eq!(s.neighbors(0).flatten().collect::<Vec<_>>(), [1]);
        assert_eq!(s.floor_height(0, glam::DVec2::new(0.5, 0.5)), 0.1f32 as f64);
        assert_eq!(s.links().len(), 1);
        assert_eq!((s.links()[0].start_poly, s.links()[0].end_poly), (0, 1));
    }

    #[test]
    fn one_tile_with_64_bit_refs() {
        let d = parse_detour(
            &tile_bytes(&TileIn {
                wide: true,
                ..tile_a()
            }),
            "a.bin",
        )
        .unwrap();
        assert_eq!(d.refs, [1 << 48, 1 << 48 | 1]);
        assert_eq!(d.polygons.len(), 2);
    }

    #[test]
    fn a_tile_without_links_reads_as_32_bit() {
        let t = TileIn {
            max_links: 0,
            ..tile_a()
        };
        assert_eq!(parse_detour(&tile_bytes(&t), "a.bin").unwrap().refs, [4, 5]);
    }

    /// Tile A's data with its six detail triangles and tile B's fan, its vertices after
    /// A's, its ref from its stored tile ref.
    fn check_two(d: &SurfaceData, refs: [u64; 3]) {
        assert_eq!(d.vertices.len(), 10);
        assert_eq!(
            &d.vertices[6..],
            [
                v(2.0, 0.5, 0.0),
                v(3.0, 0.5, 0.0),
                v(3.0, 0.5, 1.0),
                v(2.0, 0.5, 1.0)
            ]
        );
        assert_eq!(
            d.polygons,
            [vec![0, 1, 2, 3], vec![1, 4, 5, 2], vec![6, 7, 8, 9]]
        );
        assert_eq!(
            (&d.areas[..], &d.flags[..]),
            (&[63, 7, 1][..], &[1, 3, 2][..])
        );
        assert_eq!(d.refs, refs);
        let detail = d.detail.as_ref().unwrap();
        assert_eq!(detail.meshes[2], [9, 4, 6, 2]);
        assert_eq!(&detail.triangles[6..], [[0, 1, 2, 5], [0, 2, 3, 20]]);
        assert_eq!(&detail.vertices[9..], &d.vertices[6..]);
        assert_eq!(d.links.len(), 1);
        // The first tile's agent, though tile B says otherwise.
        assert_eq!(d.agent.height, Some(2.0));
        let s = Surface::from_data(d, &SurfaceOptions::default()).unwrap();
        assert_eq!(s.num_polygons(), 3);
        assert_eq!(s.neighbors(1).flatten().collect::<Vec<_>>(), [2, 0]);
    }

    #[test]
    fn a_set_of_two_tiles_reads_exactly() {
        let d = parse_detour(&two_tiles(false), "set.bin").unwrap();
        // Salt 1, tile 0: 1 << 5; salt 3, tile 2: 3 << 5 | 2 << 3.
        check_two(&d, [32, 33, 112]);
    }

    #[test]
    fn a_set_with_64_bit_refs_reads_exactly() {
        let d = parse_detour(&two_tiles(true), "set.bin").unwrap();
        check_two(&d, [1 << 48, 1 << 48 | 1, 3 << 48 | 2 << 20]);
    }

    #[test]
    fn tiles_without_detail_give_none() {
        let t = TileIn {
            detail: None,
            ..tile_a()
        };
        let d = parse_detour(&tile_bytes(&t), "a.bin").unwrap();
        assert_eq!(d.detail, None);
        let set = set_bytes(1, 4, &[(1 << 2, tile_bytes(&tile_b()))], false);
        assert_eq!(parse_detour(&set, "b.bin").unwrap().detail, None);
    }

    #[test]
    fn a_zero_record_ends_the_set() {
        let a = tile_bytes(&tile_a());
        let mut set = set_bytes(4, 8, &[(32, a.clone()), (0, a)], false);
        let d = parse_detour(&set, "set.bin").unwrap();
        assert_eq!(d.polygons.len(), 2);
        set.truncate(40 + 8 + tile_bytes(&tile_a()).len() + 8);
        assert_eq!(parse_detour(&set, "set.bin").unwrap().polygons.len(), 2);
    }

    #[test]
    fn sniffs_both_magics() {
        assert!(is_detour(&two_tiles(false)) && is_detour(&tile_bytes(&tile_a())));
        assert!(!is_detour(b"MSET....") && !is_detour(b"") && !is_detour(b"TES"));
    }

    #[test]
    fn every_prefix_is_an_error_never_a_panic() {
        for bytes in [two_tiles(false), two_tiles(true), tile_bytes(&tile_a())] {
            for n in 0..bytes.len() {
                assert!(
                    parse_detour(&bytes[..n], "t.bin").is_err(),
                    "prefix of {n} bytes"
                );
            }
            assert!(parse_detour(&bytes, "t.bin").is_ok());
        }
    }

    #[test]
    fn changed_bytes_never_panic() {
        // Each byte set to a few telling values, one at a time.
        for bytes in [two_tiles(false), two_tiles(true), tile_bytes(&tile_a())] {
            for at in 0..bytes.len() {
                for value in [0u8, 1, 2, 7, 0x3f, 0x40, 0x7f, 0x80, 0xc0, 0xff] {
                    let mut b = bytes.clone();
                    b[at] = value;
                    let _ = parse_detour(&b, "t.bin");
                }
            }
        }
    }

    /// `bytes` with the little-endian `value` written at `at`.
    fn with<const N: usize>(bytes: &[u8], at: usize, value: [u8; N]) -> Vec<u8> {
        let mut b = bytes.to_vec();
        b[at..at + N].copy_from_slice(&value);
        b
    }

    /// Byte offsets in tile A alone (`tile_bytes(&tile_a())`).
    const POLYS_AT: usize = 100 + 12 * 8;
    const DETAIL_AT: usize = POLYS_AT + 32 * 3 + 12 * 10;

    #[test]
    fn magic_and_version_errors() {
        fails(
            b"hello world",
            "not a Detour navmesh: it starts with \"hell\", not",
        );
        fails(b"MS", "not a Detour navmesh");
        fails(b"MSET\0\0\0\x01", "big-endian");
        let set = two_tiles(false);
        fails(
            &with(&set, 4, 2i32.to_le_bytes()),
            "navmesh set version 2: this reader reads version 1",
        );
        let a = tile_bytes(&tile_a());
        fails(
            &with(&a, 4, 6i32.to_le_bytes()),
            "tile data version 6: this reader reads version 7",
        );
        // The second tile's magic, in a set.
        fails(
            &with(&set, 48 + a.len() + 8, *b"XXXX"),
            "tile 1 (at byte 628): it starts with \"XXXX\", not Detour's tile magic",
        );
    }

    #[test]
    fn truncation_errors_name_tile_and_section() {
        let set = two_tiles(false);
        fails(
            &set[..39],
            "truncated: a navmesh set's header needs 40 bytes, the file has 39",
        );
        let a = tile_bytes(&tile_a()).len();
        fails(&set[..48 + a + 4], "tile 1: truncated: its record (tileRef, dataSize) at byte 620 needs 8 bytes, 4 are left");
        fails(&set[..48 + a + 8 + 50], "tile 1 (at byte 628): truncated: its dataSize 228 runs past the end of the file (50 bytes left)");
        let single = tile_bytes(&tile_a());
        fails(
            &single[..99],
            "tile 0 (at byte 0): truncated: its header needs 100 bytes, the tile has 99",
        );
        fails(&single[..single.len() - 4], "truncated: its off-mesh connections (bytes 536 to 572 of the tile) run past the end of its 568 bytes");
        let mut longer = single.clone();
        longer.extend_from_slice(&[0; 4]);
        fails(
            &longer,
            "its sections end at byte 572 (612 with 64-bit polygon refs), but it has 576 bytes",
        );
    }

    #[test]
    fn count_errors() {
        let a = tile_bytes(&tile_a());
        fails(
            &with(&a, 24, (-1i32).to_le_bytes()),
            "polyCount is -1, below 0",
        );
        // A lying count: no huge allocation, the section named.
        fails(
            &with(&a, 24, i32::MAX.to_le_bytes()),
            "truncated: its polygons (bytes 196 to 68719476900 of the tile)",
        );
        fails(
            &with(&a, 44, 1_000_000i32.to_le_bytes()),
            "its detail triangles",
        );
        let set = two_tiles(false);
        fails(
            &with(&set, 44, (-5i32).to_le_bytes()),
            "tile 0 (at byte 48): its dataSize is -5, below 0",
        );
        fails(
            &with(&set, 44, 100_000i32.to_le_bytes()),
            "tile 0 (at byte 48): truncated: its dataSize 100000 runs past the end of the file",
        );
    }

    #[test]
    fn set_errors() {
        let set = two_tiles(false);
        fails(&with(&set, 8, 0i32.to_le_bytes()), "the set has 0 tiles");
        fails(
            &with(&set, 8, 5i32.to_le_bytes()),
            "the set has 5 tiles, more than its maxTiles 4",
        );
        fails(
            &with(&set, 32, 0i32.to_le_bytes()),
            "maxTiles 0 and maxPolys 8 must be at least 1",
        );
        // 12 tile bits and 12 polygon bits leave 8 salt bits.
        let big = with(
            &with(&set, 32, 4096i32.to_le_bytes()),
            36,
            4096i32.to_le_bytes(),
        );
        fails(
            &big,
            "need 12 + 12 bits of a 32-bit polygon ref, leaving 8 for the salt",
        );
        // Tile index 3 with maxTiles 3 (still 2 tile bits).
        let three = with(&set, 32, 3i32.to_le_bytes());
        fails(
            &with(&three, 40, (1u32 << 5 | 3 << 3).to_le_bytes()),
            "tile 0 (at byte 48): its tileRef 56 names tile index 3, but maxTiles is 3",
        );
        let a = tile_bytes(&tile_a());
        let dup = with(&set, 48 + a.len(), 32u32.to_le_bytes());
        fails(
            &dup,
            "tile 1 (at byte 628): its tileRef 32 names tile index 0, as tile 0's does",
        );
        // Tile B moved onto tile A's grid position.
        let at = 48 + a.len() + 8 + 8;
        fails(
            &with(&set, at, 0i32.to_le_bytes()),
            "it is at tile (x 0, y 0, layer 0), as tile 0 is",
        );
        // maxPolys 2: 1 polygon bit for tile A's 3 polygons.
        let few = with(&set, 36, 2i32.to_le_bytes());
        fails(
            &few,
            "it has 3 polygons, more than the 2 its refs have room for (maxPolys 2)",
        );
        fails(
            &with(&set, 40, 0u32.to_le_bytes()),
            "tileRef 0 or dataSize 0: it has no tiles",
        );
        // A tile of 64-bit links in a set of 32-bit records.
        let wide = TileIn {
            wide: true,
            ..tile_a()
        };
        let mixed = set_bytes(4, 8, &[(32, tile_bytes(&wide))], false);
        fails(&mixed, "its sections fill its 612 bytes with 64-bit polygon refs, but the set's tile records are 32-bit");
    }

    #[test]
    fn polygon_errors() {
        let a = tile_bytes(&tile_a());
        let p1 = POLYS_AT + 32;
        fails(
            &with(&a, p1 + 6, 40u16.to_le_bytes()),
            "tile 0 (at byte 0): polygon 1 uses vertex 40, but the tile has 8 vertices",
        );
        fails(
            &with(&a, p1 + 30, [2]),
            "polygon 1 has 2 vertices: a ground polygon has 3 to 6",
        );
        fails(&with(&a, p1 + 30, [7]), "polygon 1 has 7 vertices");
        fails(&with(&a, p1 + 31, [2 << 6]), "polygon 1 has type 2");
        fails(
            &with(&a, 100 + 12 * 3 + 4, f32::NAN.to_le_bytes()),
            "vertex 3 is [0.0, NaN, 1.0]: not finite",
        );
        fails(
            &with(&a, 100 + 12 * 7, f32::INFINITY.to_le_bytes()),
            "vertex 7 is [inf, 0.25, 0.5]: not finite",
        );
        // In a set: the tile and where it starts.
        let set = two_tiles(false);
        let b_at = 48 + a.len() + 8;
        fails(
            &with(&set, b_at + 100 + 48 + 4, 9u16.to_le_bytes()),
            "tile 1 (at byte 628): polygon 0 uses vertex 9, but the tile has 4 vertices",
        );
    }

    #[test]
    fn detail_errors() {
        let a = tile_bytes(&tile_a());
        // Polygon 1's sub-mesh: vertBase, triBase, vertCount, triCount.
        let m1 = DETAIL_AT + 12;
        fails(
            &with(&a, m1 + 8, [1]),
            "polygon 1's detail sub-mesh uses detail vertices 1 to 1, but the tile has 1",
        );
        fails(
            &with(&a, m1 + 4, 5u32.to_le_bytes()),
            "polygon 1's detail sub-mesh uses detail triangles 5 to 6, but the tile has 6",
        );
        fails(
            &with(&a, 36, 1i32.to_le_bytes()),
            "its sections end at byte 560 (600 with 64-bit polygon refs), but it has 572 bytes",
        );
        let tris = DETAIL_AT + 24 + 12;
        fails(&with(&a, tris + 4 * 4 + 2, [4]), "polygon 1's detail triangle 0 (triangle 4 of the tile) uses vertex 4, but its sub-mesh has 4 (4 corners and 0 detail vertices)");
        fails(
            &with(&a, DETAIL_AT + 24 + 4, f32::NAN.to_le_bytes()),
            "detail vertex 0 is [0.5, NaN, 0.5]: not finite",
        );
    }

    #[test]
    fn a_missing_sub_mesh_is_an_error() {
        // One sub-mesh for two ground polygons (the sections still add up).
        let mut t = tile_a();
        if let Some((meshes, _, _)) = &mut t.detail {
            meshes.pop();
        }
        fails(
            &tile_bytes(&t),
            "polygon 1 has no detail sub-mesh: the tile has 1",
        );
    }

    #[test]
    fn link_and_agent_errors() {
        let a = tile_bytes(&tile_a());
        let con = a.len() - 36;
        fails(
            &with(&a, con + 28, 3u16.to_le_bytes()),
            "off-mesh connection 0 names polygon 3, but the tile has 3",
        );
        fails(
            &with(&a, con + 4, f32::NAN.to_le_bytes()),
            "off-mesh connection 0 is from [0.5, NaN, 0.5]",
        );
        fails(
            &with(&a, con + 24, f32::INFINITY.to_le_bytes()),
            "with radius inf: not finite",
        );
        fails(
            &with(&a, 64, f32::NAN.to_le_bytes()),
            "walkableHeight 2, walkableRadius NaN, walkableClimb 0.9: not finite",
        );
    }
}
