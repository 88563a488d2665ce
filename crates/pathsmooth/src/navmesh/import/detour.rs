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
            "it starts with {magic:?}, not Detour's tile magic DNAV ({TILE_MAGIC:?})"
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
    let bits =
        ref_bits(width, max_tiles as u32, max_polys as u32).map_err(|m| bad(file, m))?;
    let mut tiles: Vec<Tile> = Vec::new();
    let mut at = SET_HEADER_SIZE;
    for t in 0..num_tiles as usize {
        let record = width.record_size();
        if bytes.len() - at < record {
            return Err(bad(
                file,
                format!(
                    "tile {t} (at byte {at}): truncated: its record (tileRef, dataSize) needs \
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
    if u64::from(vert_base) + u64::from(vert_count) > u64::from(h.detail_vert_count) {
        return Err(ctx.err(format!(
            "polygon {p}'s detail sub-mesh uses detail vertices {vert_base} to {}, but the tile \
             has {}",
            u64::from(vert_base) + u64::from(vert_count) - 1,
            h.detail_vert_count
        )));
    }
    if u64::from(tri_base) + u64::from(tri_count) > u64::from(h.detail_tri_count) {
        return Err(ctx.err(format!(
            "polygon {p}'s detail sub-mesh uses detail triangles {tri_base} to {}, but the tile \
             has {}",
            u64::from(tri_base) + u64::from(tri_count) - 1,
            h.detail_tri_count
        )));
    }
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
/// vertices`): a magic other than `MSET` or `DNAV` (big-endian ones named as such); a set
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
/// use pathsmooth::navmesh::import::{is_detour, parse_detour};
/// // Not a Detour file:
/// assert!(!is_detour(b"v 0 0 0\n"));
/// let err = parse_detour(b"v 0 0 0\n", "level.obj").unwrap_err();
/// assert!(err.to_string().contains("level.obj: not a Detour navmesh"));
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
            let order = if !magic_at(data_at(Width::Bits32)) && magic_at(data_at(Width::Bits64))
            {
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
        _ => {
            let start = &bytes[..bytes.len().min(4)];
            return Err(bad(
                file,
                format!(
                    "not a Detour navmesh: it starts with {start:?}, not a navmesh set's magic \
                     MSET ({SET_MAGIC:?}) or a tile's DNAV ({TILE_MAGIC:?})"
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

/// Whether `bytes` start as Detour's binary navmeshes do: a navmesh set's magic (`MSET`,
/// stored as the little-endian int `b"TESM"`) or a tile's (`DNAV`, `b"VAND"`), for telling
/// the format from the content. O(1).
///
/// ```
/// use pathsmooth::navmesh::import::is_detour;
/// assert!(is_detour(b"TESM\x01\x00\x00\x00"));
/// assert!(is_detour(b"VAND\x07\x00\x00\x00"));
/// assert!(!is_detour(b"MSET") && !is_detour(b"VA"));
/// ```
pub fn is_detour(bytes: &[u8]) -> bool {
    matches!(bytes.get(..4), Some(m) if m == SET_MAGIC || m == TILE_MAGIC)
}
