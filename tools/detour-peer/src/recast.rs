//! C++ Recast (through `recastnavigation-sys`'s `recast` feature) baking RecastDemo's levels
//! as RecastDemo's `Sample_SoloMesh::handleBuild` and `Sample_TileMesh::buildTileMesh` do,
//! `dtCreateNavMeshData` making the tiles, and the navmesh files RecastDemo writes: its
//! navmesh sets (`Sample::saveAll`: `MSET` version 1) and one tile's data (`DNAV`) as
//! `dtCreateNavMeshData` returns it. `detour-peer write-sets OUT_DIR` writes the files of
//! `crates/pathsmooth/tests/data/corpus/detour/` ([`write_sets`]).

use recastnavigation_sys::*;
use std::path::Path;
use std::ptr;

/// RecastDemo's `SamplePolyAreas::SAMPLE_POLYAREA_GROUND`.
pub const AREA_GROUND: u8 = 0;
/// `SAMPLE_POLYAREA_JUMP`, the area `OffMeshConnectionTool` gives its connections.
pub const AREA_JUMP: u8 = 5;
/// `SAMPLE_POLYFLAGS_WALK`.
pub const FLAG_WALK: u16 = 0x01;
/// `SAMPLE_POLYFLAGS_JUMP`.
pub const FLAG_JUMP: u16 = 0x08;
/// RecastDemo's `NAVMESHSET_MAGIC` ('M' << 24 | 'S' << 16 | 'E' << 8 | 'T').
pub const NAVMESHSET_MAGIC: i32 =
    (b'M' as i32) << 24 | (b'S' as i32) << 16 | (b'E' as i32) << 8 | b'T' as i32;
/// RecastDemo's `NAVMESHSET_VERSION`.
pub const NAVMESHSET_VERSION: i32 = 1;

/// RecastDemo's build settings (`Sample::resetCommonSettings`), world units unless said.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub cell_size: f32,
    pub cell_height: f32,
    pub agent_height: f32,
    pub agent_radius: f32,
    pub agent_max_climb: f32,
    /// Degrees.
    pub agent_max_slope: f32,
    /// Cells (squared for the area).
    pub region_min_size: f32,
    pub region_merge_size: f32,
    pub edge_max_len: f32,
    pub edge_max_error: f32,
    pub verts_per_poly: f32,
    /// Cells.
    pub detail_sample_dist: f32,
    /// Cell heights.
    pub detail_sample_max_error: f32,
}

impl Default for Settings {
    /// `Sample::resetCommonSettings` (watershed partition; the three span filters on).
    fn default() -> Self {
        Settings {
            cell_size: 0.3,
            cell_height: 0.2,
            agent_height: 2.0,
            agent_radius: 0.6,
            agent_max_climb: 0.9,
            agent_max_slope: 45.0,
            region_min_size: 8.0,
            region_merge_size: 20.0,
            edge_max_len: 12.0,
            edge_max_error: 1.3,
            verts_per_poly: 6.0,
            detail_sample_dist: 6.0,
            detail_sample_max_error: 1.0,
        }
    }
}

/// A level's triangles as RecastDemo's `rcMeshLoaderObj` reads an OBJ file: `v` rows (not
/// `vn`/`vt`), `f` rows fanned from their first index (1-based, negative counts back),
/// triangles with an index out of range skipped.
pub struct Level {
    pub verts: Vec<f32>,
    pub tris: Vec<i32>,
}

impl Level {
    pub fn load(path: &Path) -> Result<Level, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Level::parse(&text))
    }

    pub fn parse(text: &str) -> Level {
        let (mut verts, mut tris) = (Vec::new(), Vec::new());
        for row in text.lines() {
            let row = row.trim_end_matches('\r');
            let b = row.as_bytes();
            if b.first() == Some(&b'#') {
                continue;
            }
            if b.first() == Some(&b'v') && b.get(1) != Some(&b'n') && b.get(1) != Some(&b't') {
                // sscanf("%f %f %f"): missing numbers stay 0 (RecastDemo keeps the last
                // values; the levels have none missing).
                let mut xyz = [0.0f32; 3];
                for (c, s) in xyz.iter_mut().zip(row[1..].split_whitespace()) {
                    *c = s.parse().unwrap_or(0.0);
                }
                verts.extend_from_slice(&xyz);
            }
            if b.first() == Some(&b'f') {
                let nverts = (verts.len() / 3) as i32;
                let face: Vec<i32> = row[1..]
                    .split_whitespace()
                    .take(32)
                    .map(|s| {
                        let vi: i32 = s.split('/').next().unwrap_or("").parse().unwrap_or(0);
                        if vi < 0 {
                            vi + nverts
                        } else {
                            vi - 1
                        }
                    })
                    .collect();
                for i in 2..face.len() {
                    let (a, b, c) = (face[0], face[i - 1], face[i]);
                    if [a, b, c].iter().all(|&x| (0..nverts).contains(&x)) {
                        tris.extend_from_slice(&[a, b, c]);
                    }
                }
            }
        }
        Level { verts, tris }
    }

    pub fn num_verts(&self) -> i32 {
        (self.verts.len() / 3) as i32
    }

    pub fn num_tris(&self) -> i32 {
        (self.tris.len() / 3) as i32
    }

    /// `rcCalcBounds` of the vertices (RecastDemo's `InputGeom` mesh bounds, the navmesh
    /// bounds when no build settings are given).
    pub fn bounds(&self) -> ([f32; 3], [f32; 3]) {
        let (mut bmin, mut bmax) = ([0.0f32; 3], [0.0f32; 3]);
        unsafe {
            rcCalcBounds(
                self.verts.as_ptr(),
                self.num_verts(),
                bmin.as_mut_ptr(),
                bmax.as_mut_ptr(),
            )
        };
        (bmin, bmax)
    }

    /// The height of the highest level triangle under plan point (x, z) at or below
    /// `below`, as a click in RecastDemo hits the geometry seen from above.
    pub fn height_under(&self, x: f32, z: f32, below: f32) -> Option<f32> {
        let v = |i: i32| {
            let i = 3 * i as usize;
            [self.verts[i], self.verts[i + 1], self.verts[i + 2]]
        };
        let mut best: Option<f32> = None;
        for t in self.tris.chunks(3) {
            let (a, b, c) = (v(t[0]), v(t[1]), v(t[2]));
            let d = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
            if d.abs() < 1e-12 {
                continue;
            }
            let u = ((x - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (z - a[2])) / d;
            let w = ((b[0] - a[0]) * (z - a[2]) - (x - a[0]) * (b[2] - a[2])) / d;
            if u < 0.0 || w < 0.0 || u + w > 1.0 {
                continue;
            }
            let h = a[1] + u * (b[1] - a[1]) + w * (c[1] - a[1]);
            if h <= below && best.is_none_or(|b| h > b) {
                best = Some(h);
            }
        }
        best
    }
}

/// An off-mesh connection as RecastDemo's `OffMeshConnectionTool` adds it
/// (`InputGeom::addOffMeshConnection`): radius the agent's, area `SAMPLE_POLYAREA_JUMP`,
/// flags `SAMPLE_POLYFLAGS_JUMP`, user id 1000 + its index.
#[derive(Clone, Copy, Debug)]
pub struct OffMeshCon {
    pub start: [f32; 3],
    pub end: [f32; 3],
    pub bidirectional: bool,
}

/// The connections' arrays as `dtNavMeshCreateParams` takes them.
struct OffMeshArrays {
    verts: Vec<f32>,
    rads: Vec<f32>,
    dirs: Vec<u8>,
    areas: Vec<u8>,
    flags: Vec<u16>,
    ids: Vec<u32>,
}

impl OffMeshArrays {
    fn new(cons: &[OffMeshCon], radius: f32) -> Self {
        OffMeshArrays {
            verts: cons
                .iter()
                .flat_map(|c| c.start.into_iter().chain(c.end))
                .collect(),
            rads: vec![radius; cons.len()],
            dirs: cons.iter().map(|c| u8::from(c.bidirectional)).collect(),
            areas: vec![AREA_JUMP; cons.len()],
            flags: vec![FLAG_JUMP; cons.len()],
            ids: (0..cons.len() as u32).map(|i| 1000 + i).collect(),
        }
    }
}

/// `rcContext` (logging off), freed on drop.
struct Context(*mut rcContext);

impl Context {
    fn new() -> Self {
        Context(unsafe { CreateContext(false) })
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        unsafe { DeleteContext(self.0) }
    }
}

/// Recast's intermediate results of one build, freed on drop.
struct Build {
    solid: *mut rcHeightfield,
    chf: *mut rcCompactHeightfield,
    cset: *mut rcContourSet,
    pmesh: *mut rcPolyMesh,
    dmesh: *mut rcPolyMeshDetail,
}

impl Drop for Build {
    fn drop(&mut self) {
        unsafe {
            rcFreeHeightField(self.solid);
            rcFreeCompactHeightfield(self.chf);
            rcFreeContourSet(self.cset);
            rcFreePolyMesh(self.pmesh);
            rcFreePolyMeshDetail(self.dmesh);
        }
    }
}

/// Tile data from `dtCreateNavMeshData` (`dtAlloc`ed), or `None` where Recast made no
/// polygons (an empty tile: RecastDemo adds nothing there).
pub struct TileData {
    pub data: *mut u8,
    pub size: i32,
    pub polys: i32,
}

impl TileData {
    pub fn bytes(&self) -> &[u8] {
        unsafe { std::slice::from_raw_parts(self.data, self.size as usize) }
    }
}

/// `m_cfg` as RecastDemo fills it; `tile_size` 0 for the solo mesh.
fn config(s: &Settings, tile_size: i32) -> rcConfig {
    let mut cfg: rcConfig = unsafe { std::mem::zeroed() };
    cfg.cs = s.cell_size;
    cfg.ch = s.cell_height;
    cfg.walkableSlopeAngle = s.agent_max_slope;
    cfg.walkableHeight = (s.agent_height / cfg.ch).ceil() as i32;
    cfg.walkableClimb = (s.agent_max_climb / cfg.ch).floor() as i32;
    cfg.walkableRadius = (s.agent_radius / cfg.cs).ceil() as i32;
    cfg.maxEdgeLen = (s.edge_max_len / s.cell_size) as i32;
    cfg.maxSimplificationError = s.edge_max_error;
    cfg.minRegionArea = (s.region_min_size * s.region_min_size) as i32;
    cfg.mergeRegionArea = (s.region_merge_size * s.region_merge_size) as i32;
    cfg.maxVertsPerPoly = s.verts_per_poly as i32;
    cfg.detailSampleDist = if s.detail_sample_dist < 0.9 {
        0.0
    } else {
        s.cell_size * s.detail_sample_dist
    };
    cfg.detailSampleMaxError = s.cell_height * s.detail_sample_max_error;
    if tile_size > 0 {
        cfg.tileSize = tile_size;
        cfg.borderSize = cfg.walkableRadius + 3;
        cfg.width = cfg.tileSize + cfg.borderSize * 2;
        cfg.height = cfg.tileSize + cfg.borderSize * 2;
    }
    cfg
}

/// The rcBuild* pipeline of `Sample_SoloMesh::handleBuild` / `Sample_TileMesh::buildTileMesh`
/// on `cfg` (bounds and grid size set), then `dtCreateNavMeshData` with RecastDemo's
/// areas and flags. `tile` is (tx, ty) for a tile, `None` for the solo mesh.
fn build(
    level: &Level,
    s: &Settings,
    cfg: &mut rcConfig,
    tile: Option<(i32, i32)>,
    cons: &[OffMeshCon],
) -> Result<Option<TileData>, String> {
    let ctx = Context::new();
    let c = ctx.0;
    let mut b = Build {
        solid: unsafe { rcAllocHeightfield() },
        chf: ptr::null_mut(),
        cset: ptr::null_mut(),
        pmesh: ptr::null_mut(),
        dmesh: ptr::null_mut(),
    };
    let fail = |what: &str| Err(format!("Recast: {what} failed"));
    unsafe {
        if !rcCreateHeightfield(
            c,
            b.solid,
            cfg.width,
            cfg.height,
            cfg.bmin.as_ptr(),
            cfg.bmax.as_ptr(),
            cfg.cs,
            cfg.ch,
        ) {
            return fail("rcCreateHeightfield");
        }
        // RecastDemo's tile build takes the triangles of the chunks overlapping the tile
        // (its chunky tri mesh); all of them here: those outside the tile's box rasterise
        // into nothing.
        let mut areas = vec![0u8; level.num_tris() as usize];
        rcMarkWalkableTriangles(
            c,
            cfg.walkableSlopeAngle,
            level.verts.as_ptr(),
            level.num_verts(),
            level.tris.as_ptr(),
            level.num_tris(),
            areas.as_mut_ptr(),
        );
        if !rcRasterizeTriangles(
            c,
            level.verts.as_ptr(),
            level.num_verts(),
            level.tris.as_ptr(),
            areas.as_ptr(),
            level.num_tris(),
            b.solid,
            cfg.walkableClimb,
        ) {
            return fail("rcRasterizeTriangles");
        }
        rcFilterLowHangingWalkableObstacles(c, cfg.walkableClimb, b.solid);
        rcFilterLedgeSpans(c, cfg.walkableHeight, cfg.walkableClimb, b.solid);
        rcFilterWalkableLowHeightSpans(c, cfg.walkableHeight, b.solid);
        b.chf = rcAllocCompactHeightfield();
        if !rcBuildCompactHeightfield(c, cfg.walkableHeight, cfg.walkableClimb, b.solid, b.chf) {
            return fail("rcBuildCompactHeightfield");
        }
        if !rcErodeWalkableArea(c, cfg.walkableRadius, b.chf) {
            return fail("rcErodeWalkableArea");
        }
        // Watershed partition (RecastDemo's default).
        if !rcBuildDistanceField(c, b.chf) {
            return fail("rcBuildDistanceField");
        }
        if !rcBuildRegions(
            c,
            b.chf,
            cfg.borderSize,
            cfg.minRegionArea,
            cfg.mergeRegionArea,
        ) {
            return fail("rcBuildRegions");
        }
        b.cset = rcAllocContourSet();
        if !rcBuildContours(
            c,
            b.chf,
            cfg.maxSimplificationError,
            cfg.maxEdgeLen,
            b.cset,
            rcBuildContoursFlags_RC_CONTOUR_TESS_WALL_EDGES as i32,
        ) {
            return fail("rcBuildContours");
        }
        if tile.is_some() && (*b.cset).nconts == 0 {
            return Ok(None);
        }
        b.pmesh = rcAllocPolyMesh();
        if !rcBuildPolyMesh(c, b.cset, cfg.maxVertsPerPoly, b.pmesh) {
            return fail("rcBuildPolyMesh");
        }
        b.dmesh = rcAllocPolyMeshDetail();
        if !rcBuildPolyMeshDetail(
            c,
            b.pmesh,
            b.chf,
            cfg.detailSampleDist,
            cfg.detailSampleMaxError,
            b.dmesh,
        ) {
            return fail("rcBuildPolyMeshDetail");
        }
        let pm = &mut *b.pmesh;
        let dm = &*b.dmesh;
        if cfg.maxVertsPerPoly > DT_VERTS_PER_POLYGON {
            return Err("verts per poly above Detour's".into());
        }
        if pm.nverts >= 0xffff {
            return Err(format!("too many vertices per tile {}", pm.nverts));
        }
        // RecastDemo's areas and flags: every walkable polygon is ground (the levels have no
        // convex volumes), flag WALK.
        for i in 0..pm.npolys as usize {
            let area = &mut *pm.areas.add(i);
            if *area == RC_WALKABLE_AREA {
                *area = AREA_GROUND;
            }
            if *area == AREA_GROUND {
                *pm.flags.add(i) = FLAG_WALK;
            }
        }
        let off = OffMeshArrays::new(cons, s.agent_radius);
        let mut params: dtNavMeshCreateParams = std::mem::zeroed();
        params.verts = pm.verts;
        params.vertCount = pm.nverts;
        params.polys = pm.polys;
        params.polyAreas = pm.areas;
        params.polyFlags = pm.flags;
        params.polyCount = pm.npolys;
        params.nvp = pm.nvp;
        params.detailMeshes = dm.meshes;
        params.detailVerts = dm.verts;
        params.detailVertsCount = dm.nverts;
        params.detailTris = dm.tris;
        params.detailTriCount = dm.ntris;
        if !cons.is_empty() {
            params.offMeshConVerts = off.verts.as_ptr();
            params.offMeshConRad = off.rads.as_ptr();
            params.offMeshConDir = off.dirs.as_ptr();
            params.offMeshConAreas = off.areas.as_ptr();
            params.offMeshConFlags = off.flags.as_ptr();
            params.offMeshConUserID = off.ids.as_ptr();
            params.offMeshConCount = cons.len() as i32;
        }
        params.walkableHeight = s.agent_height;
        params.walkableRadius = s.agent_radius;
        params.walkableClimb = s.agent_max_climb;
        if let Some((tx, ty)) = tile {
            params.tileX = tx;
            params.tileY = ty;
            params.tileLayer = 0;
        }
        params.bmin = pm.bmin;
        params.bmax = pm.bmax;
        params.cs = cfg.cs;
        params.ch = cfg.ch;
        params.buildBvTree = true;
        let mut data: *mut u8 = ptr::null_mut();
        let mut size = 0i32;
        if !dtCreateNavMeshData(&mut params, &mut data, &mut size) {
            // RecastDemo returns no data here too (a tile with nothing to store).
            if tile.is_some() && pm.npolys == 0 {
                return Ok(None);
            }
            return fail("dtCreateNavMeshData");
        }
        Ok(Some(TileData {
            data,
            size,
            polys: pm.npolys,
        }))
    }
}

/// `Sample_SoloMesh::handleBuild`: the whole level as one tile's data.
pub fn build_solo(level: &Level, s: &Settings, cons: &[OffMeshCon]) -> Result<TileData, String> {
    let mut cfg = config(s, 0);
    let (bmin, bmax) = level.bounds();
    cfg.bmin = bmin;
    cfg.bmax = bmax;
    unsafe {
        rcCalcGridSize(
            cfg.bmin.as_ptr(),
            cfg.bmax.as_ptr(),
            cfg.cs,
            &mut cfg.width,
            &mut cfg.height,
        )
    };
    build(level, s, &mut cfg, None, cons)?.ok_or_else(|| "no polygons".into())
}

/// A `dtNavMesh` (freed on drop) and its tiles' data (owned by it: `DT_TILE_FREE_DATA`).
pub struct NavMesh(pub *mut dtNavMesh);

impl Drop for NavMesh {
    fn drop(&mut self) {
        unsafe { dtFreeNavMesh(self.0) }
    }
}

fn ok(status: dtStatus) -> bool {
    status & DT_SUCCESS != 0
}

/// `dtNavMesh::init(data, size, DT_TILE_FREE_DATA)` of the solo tile, as
/// `Sample_SoloMesh::handleBuild` does; the navmesh owns the data.
pub fn solo_navmesh(tile: TileData) -> Result<NavMesh, String> {
    unsafe {
        let nav = NavMesh(dtAllocNavMesh());
        let st = dtNavMesh_init1(
            nav.0,
            tile.data,
            tile.size,
            dtTileFlags_DT_TILE_FREE_DATA as i32,
        );
        if !ok(st) {
            dtFree(tile.data.cast());
            return Err(format!("dtNavMesh::init: {st:#x}"));
        }
        Ok(nav)
    }
}

/// `nextPow2` and `ilog2` of `Sample_TileMesh`.
fn next_pow2(mut v: u32) -> u32 {
    v = v.wrapping_sub(1);
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    v.wrapping_add(1)
}

fn ilog2(v: u32) -> u32 {
    31 - v.leading_zeros().min(31)
}

/// `Sample_TileMesh::handleBuild` with "build all tiles": `dtNavMesh::init(&params)` with
/// the demo's max tiles and polys per tile, then `buildAllTiles` (`addTile` of each tile's
/// data, `DT_TILE_FREE_DATA`). Returns the navmesh and its tile grid size.
pub fn build_tiled(
    level: &Level,
    s: &Settings,
    tile_size: i32,
    cons: &[OffMeshCon],
) -> Result<(NavMesh, (i32, i32)), String> {
    let (bmin, bmax) = level.bounds();
    let (mut gw, mut gh) = (0, 0);
    unsafe { rcCalcGridSize(bmin.as_ptr(), bmax.as_ptr(), s.cell_size, &mut gw, &mut gh) };
    let ts = tile_size;
    let (tw, th) = ((gw + ts - 1) / ts, (gh + ts - 1) / ts);
    let tile_bits = ilog2(next_pow2((tw * th) as u32)).min(14);
    let poly_bits = 22 - tile_bits;
    let mut params: dtNavMeshParams = unsafe { std::mem::zeroed() };
    params.orig = bmin;
    params.tileWidth = tile_size as f32 * s.cell_size;
    params.tileHeight = tile_size as f32 * s.cell_size;
    params.maxTiles = 1 << tile_bits;
    params.maxPolys = 1 << poly_bits;
    let nav = NavMesh(unsafe { dtAllocNavMesh() });
    let st = unsafe { dtNavMesh_init(nav.0, &params) };
    if !ok(st) {
        return Err(format!("dtNavMesh::init(params): {st:#x}"));
    }
    let tcs = tile_size as f32 * s.cell_size;
    for y in 0..th {
        for x in 0..tw {
            let tbmin = [bmin[0] + x as f32 * tcs, bmin[1], bmin[2] + y as f32 * tcs];
            let tbmax = [
                bmin[0] + (x + 1) as f32 * tcs,
                bmax[1],
                bmin[2] + (y + 1) as f32 * tcs,
            ];
            let mut cfg = config(s, tile_size);
            cfg.bmin = tbmin;
            cfg.bmax = tbmax;
            let border = cfg.borderSize as f32 * cfg.cs;
            cfg.bmin[0] -= border;
            cfg.bmin[2] -= border;
            cfg.bmax[0] += border;
            cfg.bmax[2] += border;
            if let Some(t) = build(level, s, &mut cfg, Some((x, y)), cons)? {
                unsafe {
                    let st = dtNavMesh_addTile(
                        nav.0,
                        t.data,
                        t.size,
                        dtTileFlags_DT_TILE_FREE_DATA as i32,
                        0,
                        ptr::null_mut(),
                    );
                    if !ok(st) {
                        dtFree(t.data.cast());
                        return Err(format!("addTile ({x}, {y}): {st:#x}"));
                    }
                }
            }
        }
    }
    Ok((nav, (tw, th)))
}

/// `Sample::saveAll`'s bytes: `NavMeshSetHeader` {magic, version, numTiles,
/// dtNavMeshParams}, then per tile `NavMeshTileHeader` {tileRef, dataSize} (as `fwrite`
/// writes the struct: 8 bytes with 32-bit refs, 16 with 64-bit ones) and the data (as the
/// navmesh holds it, links included), in the navmesh's tile order.
pub fn save_all(nav: &NavMesh) -> Vec<u8> {
    let mut out = Vec::new();
    unsafe {
        let mesh = nav.0 as *const dtNavMesh;
        let tiles: Vec<*const dtMeshTile> = (0..dtNavMesh_getMaxTiles(mesh))
            .map(|i| dtNavMesh_getTile(mesh, i))
            .filter(|&t| !t.is_null() && !(*t).header.is_null() && (*t).dataSize != 0)
            .collect();
        let p = &*dtNavMesh_getParams(mesh);
        out.extend_from_slice(&NAVMESHSET_MAGIC.to_le_bytes());
        out.extend_from_slice(&NAVMESHSET_VERSION.to_le_bytes());
        out.extend_from_slice(&(tiles.len() as i32).to_le_bytes());
        for f in p.orig.iter().chain([&p.tileWidth, &p.tileHeight]) {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&p.maxTiles.to_le_bytes());
        out.extend_from_slice(&p.maxPolys.to_le_bytes());
        for t in tiles {
            let tile_ref = dtNavMesh_getTileRef(mesh, t);
            let start = out.len();
            out.extend_from_slice(&tile_ref.to_le_bytes());
            out.extend_from_slice(&(*t).dataSize.to_le_bytes());
            // `fwrite(&tileHeader, sizeof(tileHeader), …)`: the struct's padding too (4
            // bytes after `dataSize` with 64-bit refs: 16 bytes a record, 8 with 32-bit).
            let record = std::mem::size_of::<dtTileRef>() + 4;
            let align = std::mem::align_of::<dtTileRef>();
            out.resize(start + record.div_ceil(align) * align, 0);
            out.extend_from_slice(std::slice::from_raw_parts(
                (*t).data,
                (*t).dataSize as usize,
            ));
        }
    }
    out
}

/// Tiles, ground polygons and off-mesh connections of a navmesh.
pub fn counts(nav: &NavMesh) -> (usize, usize, usize) {
    let (mut tiles, mut ground, mut cons) = (0, 0, 0);
    unsafe {
        let mesh = nav.0 as *const dtNavMesh;
        for i in 0..dtNavMesh_getMaxTiles(mesh) {
            let t = dtNavMesh_getTile(mesh, i);
            if t.is_null() || (*t).header.is_null() {
                continue;
            }
            let h = &*(*t).header;
            tiles += 1;
            ground += (h.polyCount - h.offMeshConCount) as usize;
            cons += h.offMeshConCount as usize;
        }
    }
    (tiles, ground, cons)
}

/// How many of the navmesh's off-mesh connections Detour attached at both ends (its
/// polygon has a link to a ground polygon at each end it can be entered from: the start,
/// and the end too for a bidirectional one) — `connectExtOffMeshLinks`/`baseOffMeshLinks`
/// drop an end with no polygon within the radius.
pub fn connected_off_mesh(nav: &NavMesh) -> usize {
    let mut connected = 0;
    unsafe {
        let mesh = nav.0 as *const dtNavMesh;
        for i in 0..dtNavMesh_getMaxTiles(mesh) {
            let t = dtNavMesh_getTile(mesh, i);
            if t.is_null() || (*t).header.is_null() {
                continue;
            }
            let h = &*(*t).header;
            for c in 0..h.offMeshConCount as usize {
                let con = &*(*t).offMeshCons.add(c);
                let poly = &*(*t).polys.add(con.poly as usize);
                // Links out of the connection polygon: edge 0 (its start), edge 1 (its end).
                let mut ends = [false; 2];
                let mut l = poly.firstLink;
                while l != DT_NULL_LINK {
                    let link = &*(*t).links.add(l as usize);
                    if (link.edge as usize) < 2 {
                        ends[link.edge as usize] = true;
                    }
                    l = link.next;
                }
                if ends[0] && ends[1] {
                    connected += 1;
                }
            }
        }
    }
    connected
}

/// One file [`write_sets`] writes.
pub struct Written {
    pub file: String,
    pub bytes: usize,
    pub tiles: usize,
    pub ground_polygons: usize,
    pub off_mesh: usize,
    pub off_mesh_connected: usize,
    pub what: String,
}

/// Tile size (cells) of dungeon's tiled set.
pub const DUNGEON_TILE_SIZE: i32 = 32;
/// Tile size (cells) of nav_test's tiled set.
pub const NAV_TEST_TILE_SIZE: i32 = 48;

/// The off-mesh connections of dungeon's tiled set, picked on the level as one would with
/// RecastDemo's Off-Mesh Links tool (plan points; heights from the level's triangles, as a
/// click hits them): a one-way jump down the 2.7 m ledge of the platform at y 23.4 (reached
/// by no walk) onto the walkway below; a bidirectional jump over the 1.6 m gap between the
/// walkway at y 15.15 and the three-polygon ledge beside it; a one-way drop of 2.1 m off the
/// side of the stairs at (-14.7, 3.8, -6.6).
pub fn dungeon_connections(level: &Level) -> Result<Vec<OffMeshCon>, String> {
    // (start x, z, height guess), (end x, z, height guess), bidirectional.
    let picked = [
        ((16.9, -82.9, 23.4), (18.1, -80.2, 20.7), false),
        ((23.97, -85.46, 15.15), (25.52, -83.82, 15.15), true),
        ((-14.9, -6.85, 3.8), (-12.5, -4.6, 1.7), false),
    ];
    picked
        .iter()
        .map(|&((sx, sz, sy), (ex, ez, ey), bidirectional)| {
            let at = |x: f32, z: f32, y: f32| {
                level
                    .height_under(x, z, y + 0.5)
                    .map(|h| [x, h, z])
                    .ok_or_else(|| format!("no level triangle under ({x}, {z}) below {}", y + 0.5))
            };
            Ok(OffMeshCon {
                start: at(sx, sz, sy)?,
                end: at(ex, ez, ey)?,
                bidirectional,
            })
        })
        .collect()
}

/// Bakes `levels/dungeon.obj` and `levels/nav_test.obj` (in `levels_dir`) and writes into
/// `out_dir`: for each level a solo navmesh set and a tiled one (dungeon's with
/// [`dungeon_connections`]), and nav_test's solo tile as `dtCreateNavMeshData` returned it.
pub fn write_sets(levels_dir: &Path, out_dir: &Path) -> Result<Vec<Written>, String> {
    let s = Settings::default();
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let mut written = Vec::new();
    // `nav`: the navmesh the bytes are a set of, else one tile's `ground` polygons.
    let mut put = |file: String,
                   bytes: &[u8],
                   nav: Result<&NavMesh, usize>,
                   what: String|
     -> Result<(), String> {
        std::fs::write(out_dir.join(&file), bytes).map_err(|e| format!("{file}: {e}"))?;
        let (tiles, ground, cons, connected) = match nav {
            Ok(n) => {
                let (t, g, c) = counts(n);
                (t, g, c, connected_off_mesh(n))
            }
            Err(ground) => (1, ground, 0, 0),
        };
        written.push(Written {
            file,
            bytes: bytes.len(),
            tiles,
            ground_polygons: ground,
            off_mesh: cons,
            off_mesh_connected: connected,
            what,
        });
        Ok(())
    };
    for (name, tile_size) in [
        ("dungeon", DUNGEON_TILE_SIZE),
        ("nav_test", NAV_TEST_TILE_SIZE),
    ] {
        let level = Level::load(&levels_dir.join(format!("{name}.obj")))?;
        let cons = if name == "dungeon" {
            dungeon_connections(&level)?
        } else {
            Vec::new()
        };
        // Solo.
        let tile = build_solo(&level, &s, &[])?;
        if name == "nav_test" {
            let polys = tile.polys;
            let bytes = tile.bytes().to_vec();
            put(
                format!("{name}.tile.bin"),
                &bytes,
                Err(polys as usize),
                "one tile (DNAV) as dtCreateNavMeshData returns it, solo build".into(),
            )?;
        }
        let nav = solo_navmesh(tile)?;
        put(
            format!("{name}.solo_navmesh.bin"),
            &save_all(&nav),
            Ok(&nav),
            "navmesh set, solo build".into(),
        )?;
        // Tiled.
        let (nav, (tw, th)) = build_tiled(&level, &s, tile_size, &cons)?;
        put(
            format!("{name}.all_tiles_navmesh.bin"),
            &save_all(&nav),
            Ok(&nav),
            format!(
                "navmesh set, tile size {tile_size} ({tw} x {th} grid){}",
                if cons.is_empty() {
                    String::new()
                } else {
                    format!(", {} off-mesh connections", cons.len())
                }
            ),
        )?;
    }
    Ok(written)
}
