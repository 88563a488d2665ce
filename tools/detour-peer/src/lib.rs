//! Detour (recastnavigation's `dtNavMeshQuery`) on pathsmooth's navmesh JSON bakes: the
//! peer that pathsmooth's layered search is to be measured against (issue 27, item 8).
//!
//! [`DetourMesh::from_bake`] quantises a bake (`docs/navmesh-json.md`) back to Recast's
//! cell coordinates, rebuilds the poly mesh's neighbour table from shared edges, and hands
//! it (with the detail mesh) to `dtCreateNavMeshData` as a single tile.
//! [`DetourMesh::query`] is what a game does per path request: `findNearestPoly` for both
//! ends, `findPath`, `findStraightPath`.

use glam::DVec3;
use pathsmooth::navmesh::parse_surface_json;
use pathsmooth::navmesh::{SurfaceMesh, SurfaceOptions, SurfaceQuery, UpAxis};
pub mod corpus;
pub mod crowd;
pub mod recast;

use recastnavigation_sys::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::ptr;

/// Half-extents of the `findNearestPoly` search box, world units (x, y, z).
pub const HALF_EXTENTS: [f32; 3] = [2.0, 4.0, 2.0];
/// `dtNavMeshQuery::init`'s node pool (RecastDemo uses 2048); the bakes have < 200 polygons.
pub const MAX_NODES: i32 = 2048;
/// Capacity of the polygon corridor and of the straight path.
pub const MAX_PATH: usize = 2048;
/// Query pairs per mesh.
pub const QUERIES: usize = 200;
/// Seed of the LCG that draws the query pairs.
pub const SEED: u64 = 0x2700_0027_d7e0_0008;

/// The fields of a navmesh JSON bake that Detour needs.
#[derive(Deserialize)]
pub struct Bake {
    pub up: String,
    pub vertices: Vec<[f32; 3]>,
    pub polygons: Vec<Vec<u32>>,
    pub areas: Vec<u8>,
    pub flags: Vec<u16>,
    pub detail: Option<Detail>,
    pub bake: BakeRecord,
}

#[derive(Deserialize)]
pub struct Detail {
    pub meshes: Vec<[u32; 4]>,
    pub vertices: Vec<[f32; 3]>,
    pub triangles: Vec<[u8; 4]>,
}

#[derive(Deserialize)]
pub struct BakeRecord {
    pub settings: Settings,
}

#[derive(Deserialize)]
pub struct Settings {
    pub cell_size: f32,
    pub cell_height: f32,
    pub agent_height: f32,
    pub agent_radius: f32,
    pub agent_max_climb: f32,
    pub verts_per_poly: usize,
}

impl Bake {
    pub fn load(path: &str) -> Result<Bake, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let bake: Bake = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        if bake.up != "y" {
            return Err(format!("{path}: up is {:?}, Detour wants y-up", bake.up));
        }
        Ok(bake)
    }

    /// Centroid (mean of the corners) of each polygon.
    pub fn centroids(&self) -> Vec<[f32; 3]> {
        self.polygons
            .iter()
            .map(|p| {
                let mut c = [0.0f32; 3];
                for &v in p {
                    for (ci, vi) in c.iter_mut().zip(self.vertices[v as usize]) {
                        *ci += vi;
                    }
                }
                c.map(|x| x / p.len() as f32)
            })
            .collect()
    }

    /// `QUERIES` reproducible (start polygon, end polygon) pairs, distinct polygons, drawn
    /// with a 64-bit LCG (Knuth's MMIX constants, high bits).
    pub fn query_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.polygons.len() as u64;
        let mut state = SEED;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 32) % n) as usize
        };
        let mut pairs = Vec::with_capacity(QUERIES);
        while pairs.len() < QUERIES {
            let (a, b) = (next(), next());
            if a != b {
                pairs.push((a, b));
            }
        }
        pairs
    }
}

impl Bake {
    /// The connected component of every polygon by shared edges (the same two vertices in
    /// opposite directions, which is what Detour links): `components()[p]` is a
    /// representative polygon of `p`'s component.
    pub fn components(&self) -> Vec<usize> {
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut parent: Vec<usize> = (0..self.polygons.len()).collect();
        let mut edges = HashMap::new();
        for (i, p) in self.polygons.iter().enumerate() {
            for j in 0..p.len() {
                edges.insert((p[j], p[(j + 1) % p.len()]), i);
            }
        }
        for (&(a, b), &i) in &edges {
            if let Some(&k) = edges.get(&(b, a)) {
                let (ri, rk) = (find(&mut parent, i), find(&mut parent, k));
                parent[ri] = rk;
            }
        }
        (0..parent.len()).map(|i| find(&mut parent, i)).collect()
    }

    /// `QUERIES` reproducible (start polygon, end polygon) pairs of distinct polygons in
    /// the same connected component ([`components`](Self::components)), so that every
    /// query reaches its goal: the same LCG and seed as [`query_pairs`](Self::query_pairs),
    /// a drawn pair whose polygons are in different components is skipped.
    pub fn connected_pairs(&self) -> Vec<(usize, usize)> {
        let comp = self.components();
        let n = self.polygons.len() as u64;
        let mut state = SEED;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 32) % n) as usize
        };
        let mut pairs = Vec::with_capacity(QUERIES);
        while pairs.len() < QUERIES {
            let (a, b) = (next(), next());
            if a != b && comp[a] == comp[b] {
                pairs.push((a, b));
            }
        }
        pairs
    }
}

/// pathsmooth's side: the bake read as a [`Surface`](pathsmooth::navmesh::Surface) and
/// triangulated into a [`SurfaceMesh`], with a [`SurfaceQuery`] whose half-extents are
/// Detour's ([`HALF_EXTENTS`]).
pub struct PathsmoothMesh {
    pub mesh: SurfaceMesh,
    /// The surface's connected pieces ([`Surface::pieces`](pathsmooth::navmesh::Surface::pieces)).
    pub pieces: Vec<u32>,
    /// The plain read refused a T-junction, so the bake was read with
    /// `split_t_junctions: true` (the split vertex joins two polygons Detour leaves unlinked).
    pub split_t_junctions: bool,
    /// The bake's `agent_max_climb`, Detour's `walkableClimb`: the query locates ends
    /// with it, as `findNearestPoly` does.
    pub climb: f64,
}

impl PathsmoothMesh {
    /// Reads the navmesh JSON at `path` (y up); with `split_t_junctions` when the plain
    /// read refuses a T-junction.
    pub fn load(path: &str) -> Result<PathsmoothMesh, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let plain = SurfaceOptions::new(UpAxis::Y);
        let (surface, split) = match parse_surface_json(&text, path, &plain) {
            Ok(s) => (s, false),
            Err(_) => {
                let split = SurfaceOptions {
                    split_t_junctions: true,
                    ..plain
                };
                let s = parse_surface_json(&text, path, &split).map_err(|e| e.to_string())?;
                (s, true)
            }
        };
        let pieces = surface.pieces();
        let mesh = SurfaceMesh::new(surface).map_err(|e| e.to_string())?;
        let climb = f64::from(Bake::load(path)?.bake.settings.agent_max_climb);
        Ok(PathsmoothMesh {
            mesh,
            pieces,
            split_t_junctions: split,
            climb,
        })
    }

    /// A query object with Detour's half-extents and the bake's climb, to be reused
    /// across queries.
    pub fn new_query(&self) -> SurfaceQuery {
        let mut q = SurfaceQuery::new();
        let [x, y, z] = HALF_EXTENTS.map(f64::from);
        q.set_half_extents(DVec3::new(x, y, z))
            .expect("finite half-extents");
        q.set_climb(self.climb).expect("a finite climb");
        q
    }
}

/// Plan-view (x, z) length of a y-up polyline.
pub fn plan_length<I: IntoIterator<Item = [f64; 3]>>(points: I) -> f64 {
    let mut it = points.into_iter();
    let Some(mut prev) = it.next() else {
        return 0.0;
    };
    let mut len = 0.0;
    for p in it {
        len += (p[0] - prev[0]).hypot(p[2] - prev[2]);
        prev = p;
    }
    len
}

/// Point `[f32; 3]` as `DVec3`.
pub fn dvec3(p: &[f32; 3]) -> DVec3 {
    DVec3::new(f64::from(p[0]), f64::from(p[1]), f64::from(p[2]))
}

/// A single-tile `dtNavMesh` and a `dtNavMeshQuery` on it.
pub struct DetourMesh {
    nav: *mut dtNavMesh,
    query: *mut dtNavMeshQuery,
    filter: dtQueryFilter,
    poly_base: dtPolyRef,
    /// Largest distance between a bake vertex and Detour's vertex from its cell coordinates.
    pub quantisation_error: f32,
}

/// One query's result.
#[derive(Serialize, Clone, Debug)]
pub struct PathResult {
    pub start_poly: usize,
    pub end_poly: usize,
    /// The query points (the polygons' centroids).
    pub start: [f32; 3],
    pub end: [f32; 3],
    /// Detour's nearest points on the nearest polygons (`findNearestPoly`).
    pub start_on_mesh: Option<[f32; 3]>,
    pub end_on_mesh: Option<[f32; 3]>,
    /// The corridor reached the end polygon (not a partial path).
    pub reached: bool,
    /// Polygon corridor, indices into the bake's `polygons`.
    pub corridor: Vec<usize>,
    /// `findStraightPath`'s points.
    pub straight_path: Vec<[f32; 3]>,
    /// Length of the straight path in 3D and in plan view (x, z).
    pub length_3d: f32,
    pub length_plan: f32,
    /// This query's time, µs (its best of the timed rounds; filled by the stats binary).
    pub us: f64,
}

fn ok(status: dtStatus) -> bool {
    status & DT_SUCCESS != 0
}

/// A single tile's data as `dtCreateNavMeshData` writes it for `bake` (allocated with
/// `dtAlloc`: free it with `dtFree`, or hand it to a `dtNavMesh` with `DT_TILE_FREE_DATA`),
/// its size, and the largest distance between a bake vertex and Detour's vertex from its
/// cell coordinates.
pub fn tile_data(bake: &Bake) -> Result<(*mut u8, i32, f32), String> {
    let s = &bake.bake.settings;
    let (cs, ch) = (s.cell_size, s.cell_height);
    let nvp = s.verts_per_poly;
    if nvp > DT_VERTS_PER_POLYGON as usize {
        return Err(format!(
            "verts_per_poly {nvp} > Detour's {DT_VERTS_PER_POLYGON}"
        ));
    }
    // bmin: the vertices' minimum, which is on Recast's cell lattice (offset by whole
    // cells from the bake's own bmin); y lowered by whole cells to cover the detail mesh.
    let mut bmin = [f32::INFINITY; 3];
    let mut bmax = [f32::NEG_INFINITY; 3];
    for v in &bake.vertices {
        for i in 0..3 {
            bmin[i] = bmin[i].min(v[i]);
            bmax[i] = bmax[i].max(v[i]);
        }
    }
    if let Some(d) = &bake.detail {
        let low = d
            .vertices
            .iter()
            .map(|v| v[1])
            .fold(f32::INFINITY, f32::min);
        if low < bmin[1] {
            bmin[1] -= ((bmin[1] - low) / ch).ceil() * ch;
        }
        for v in &d.vertices {
            bmax[1] = bmax[1].max(v[1]);
        }
    }
    let mut verts = Vec::with_capacity(bake.vertices.len() * 3);
    let mut quantisation_error = 0.0f32;
    for v in &bake.vertices {
        let q = [
            ((v[0] - bmin[0]) / cs).round(),
            ((v[1] - bmin[1]) / ch).round(),
            ((v[2] - bmin[2]) / cs).round(),
        ];
        for (i, &qi) in q.iter().enumerate() {
            if !(0.0..65535.0).contains(&qi) {
                return Err(format!("vertex {v:?} out of u16 cell range"));
            }
            let back = bmin[i] + qi * if i == 1 { ch } else { cs };
            quantisation_error = quantisation_error.max((back - v[i]).abs());
            verts.push(qi as u16);
        }
    }
    // rcPolyMesh layout: nvp vertex indices, then nvp neighbour polygons (0xffff: none).
    let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
    for (pi, p) in bake.polygons.iter().enumerate() {
        for j in 0..p.len() {
            edges.insert((p[j], p[(j + 1) % p.len()]), pi);
        }
    }
    let mut polys = vec![0xffffu16; bake.polygons.len() * 2 * nvp];
    for (pi, p) in bake.polygons.iter().enumerate() {
        if p.len() > nvp {
            return Err(format!("polygon {pi} has {} corners > {nvp}", p.len()));
        }
        let row = &mut polys[pi * 2 * nvp..(pi + 1) * 2 * nvp];
        for j in 0..p.len() {
            row[j] = p[j] as u16;
            if let Some(&other) = edges.get(&(p[(j + 1) % p.len()], p[j])) {
                row[nvp + j] = other as u16;
            }
        }
    }
    let (dmeshes, dverts, dtris): (Vec<u32>, Vec<f32>, Vec<u8>) = match &bake.detail {
        Some(d) => (
            d.meshes.iter().flatten().copied().collect(),
            d.vertices.iter().flatten().copied().collect(),
            d.triangles.iter().flatten().copied().collect(),
        ),
        None => (vec![], vec![], vec![]),
    };
    let has_detail = bake.detail.is_some();
    let mut params: dtNavMeshCreateParams = unsafe { std::mem::zeroed() };
    params.verts = verts.as_ptr();
    params.vertCount = bake.vertices.len() as i32;
    params.polys = polys.as_ptr();
    params.polyFlags = bake.flags.as_ptr();
    params.polyAreas = bake.areas.as_ptr();
    params.polyCount = bake.polygons.len() as i32;
    params.nvp = nvp as i32;
    if has_detail {
        params.detailMeshes = dmeshes.as_ptr();
        params.detailVerts = dverts.as_ptr();
        params.detailVertsCount = (dverts.len() / 3) as i32;
        params.detailTris = dtris.as_ptr();
        params.detailTriCount = (dtris.len() / 4) as i32;
    }
    params.bmin = bmin;
    params.bmax = bmax;
    params.walkableHeight = s.agent_height;
    params.walkableRadius = s.agent_radius;
    params.walkableClimb = s.agent_max_climb;
    params.cs = cs;
    params.ch = ch;
    params.buildBvTree = true;

    let mut data: *mut u8 = ptr::null_mut();
    let mut size = 0i32;
    if !unsafe { dtCreateNavMeshData(&mut params, &mut data, &mut size) } {
        return Err("dtCreateNavMeshData failed".into());
    }
    Ok((data, size, quantisation_error))
}

impl DetourMesh {
    pub fn from_bake(bake: &Bake) -> Result<DetourMesh, String> {
        let (data, size, quantisation_error) = tile_data(bake)?;
        unsafe {
            let nav = dtAllocNavMesh();
            if nav.is_null() {
                dtFree(data.cast());
                return Err("dtAllocNavMesh failed".into());
            }
            let st = dtNavMesh_init1(nav, data, size, dtTileFlags_DT_TILE_FREE_DATA as i32);
            if !ok(st) {
                dtFree(data.cast());
                dtFreeNavMesh(nav);
                return Err(format!("dtNavMesh::init failed: {st:#x}"));
            }
            DetourMesh::from_navmesh(recast::NavMesh(nav), MAX_NODES, quantisation_error)
        }
    }

    /// A query (`dtNavMeshQuery::init(nav, max_nodes)`, the default filter: every area
    /// costs 1, every flag included) on `nav`, which the result owns (freed on drop, also
    /// on error). `poly_base` is the first tile's.
    pub fn from_navmesh(
        nav: recast::NavMesh,
        max_nodes: i32,
        quantisation_error: f32,
    ) -> Result<DetourMesh, String> {
        let nav = std::mem::ManuallyDrop::new(nav).0;
        unsafe {
            let query = dtAllocNavMeshQuery();
            let st = dtNavMeshQuery_init(query, nav, max_nodes);
            if query.is_null() || !ok(st) {
                dtFreeNavMeshQuery(query);
                dtFreeNavMesh(nav);
                return Err(format!("dtNavMeshQuery::init failed: {st:#x}"));
            }
            let tile = dtNavMesh_getTile(nav, 0);
            let poly_base = dtNavMesh_getPolyRefBase(nav, tile);
            let mut filter: dtQueryFilter = std::mem::zeroed();
            // Default filter: every area costs 1, every flag included, none excluded.
            dtQueryFilter_dtQueryFilter(&mut filter);
            filter.m_includeFlags = 0xffff;
            filter.m_excludeFlags = 0;
            Ok(DetourMesh {
                nav,
                query,
                filter,
                poly_base,
                quantisation_error,
            })
        }
    }

    /// `findNearestPoly` alone (half-extents [`HALF_EXTENTS`]): the polygon ref (0: none)
    /// and the nearest point on it; to time the locating part of [`query_raw`](Self::query_raw).
    pub fn nearest_raw(&self, p: &[f32; 3]) -> (dtPolyRef, [f32; 3]) {
        let mut r = 0;
        let mut pt = [0.0f32; 3];
        unsafe {
            dtNavMeshQuery_findNearestPoly(
                self.query,
                p.as_ptr(),
                HALF_EXTENTS.as_ptr(),
                &self.filter,
                &mut r,
                pt.as_mut_ptr(),
            );
        }
        (r, pt)
    }

    /// `moveAlongSurface` from `start` on polygon `start_ref` towards `end`, then
    /// `getPolyHeight` of the polygon reached at the point, as `dtPathCorridor::movePosition`
    /// does (Detour's move leaves the height to its caller; pathsmooth's gives the floor's):
    /// the polygon reached (the last of the visited chain Detour returns, 0 when it failed)
    /// and the point; `visited` is the caller's buffer (16 refs, as `movePosition`'s).
    pub fn move_along_raw(
        &self,
        start_ref: dtPolyRef,
        start: &[f32; 3],
        end: &[f32; 3],
        visited: &mut [dtPolyRef; 16],
    ) -> (dtPolyRef, [f32; 3]) {
        let mut at = [0.0f32; 3];
        let mut n = 0i32;
        let st = unsafe {
            dtNavMeshQuery_moveAlongSurface(
                self.query,
                start_ref,
                start.as_ptr(),
                end.as_ptr(),
                &self.filter,
                at.as_mut_ptr(),
                visited.as_mut_ptr(),
                &mut n,
                visited.len() as i32,
            )
        };
        if st & DT_SUCCESS == 0 || n == 0 {
            return (0, at);
        }
        let reached = visited[n as usize - 1];
        let mut h = at[1];
        // A failure leaves the move's own height, as movePosition does.
        unsafe { dtNavMeshQuery_getPolyHeight(self.query, reached, at.as_ptr(), &mut h) };
        at[1] = h;
        (reached, at)
    }

    /// `findNearestPoly` ×2, `findPath`, `findStraightPath`, from `start` to `end`.
    /// `corridor` and `straight` are caller buffers (capacity [`MAX_PATH`]) so that a
    /// timed loop allocates nothing; returns the straight path's point count (0: no path).
    pub fn query_raw(
        &self,
        start: &[f32; 3],
        end: &[f32; 3],
        corridor: &mut [dtPolyRef; MAX_PATH],
        straight: &mut [f32; 3 * MAX_PATH],
    ) -> (usize, usize, [f32; 3], [f32; 3], dtPolyRef, dtPolyRef) {
        let (mut sref, mut eref) = (0, 0);
        let (mut spt, mut ept) = ([0.0f32; 3], [0.0f32; 3]);
        unsafe {
            let q = self.query;
            let f = &self.filter;
            dtNavMeshQuery_findNearestPoly(
                q,
                start.as_ptr(),
                HALF_EXTENTS.as_ptr(),
                f,
                &mut sref,
                spt.as_mut_ptr(),
            );
            dtNavMeshQuery_findNearestPoly(
                q,
                end.as_ptr(),
                HALF_EXTENTS.as_ptr(),
                f,
                &mut eref,
                ept.as_mut_ptr(),
            );
            if sref == 0 || eref == 0 {
                return (0, 0, spt, ept, sref, eref);
            }
            let mut npolys = 0i32;
            let st = dtNavMeshQuery_findPath(
                q,
                sref,
                eref,
                spt.as_ptr(),
                ept.as_ptr(),
                f,
                corridor.as_mut_ptr(),
                &mut npolys,
                MAX_PATH as i32,
            );
            if !ok(st) || npolys == 0 {
                return (0, 0, spt, ept, sref, eref);
            }
            // A partial corridor ends short of the end polygon: aim at its closest point, as
            // RecastDemo does.
            let mut target = ept;
            if corridor[npolys as usize - 1] != eref {
                dtNavMeshQuery_closestPointOnPoly(
                    q,
                    corridor[npolys as usize - 1],
                    ept.as_ptr(),
                    target.as_mut_ptr(),
                    ptr::null_mut(),
                );
            }
            let mut nstraight = 0i32;
            dtNavMeshQuery_findStraightPath(
                q,
                spt.as_ptr(),
                target.as_ptr(),
                corridor.as_ptr(),
                npolys,
                straight.as_mut_ptr(),
                ptr::null_mut(),
                ptr::null_mut(),
                &mut nstraight,
                MAX_PATH as i32,
                0,
            );
            (npolys as usize, nstraight as usize, spt, ept, sref, eref)
        }
    }

    /// One query with its result collected (for the stats and the JSON).
    pub fn query(&self, bake_pair: (usize, usize), centroids: &[[f32; 3]]) -> PathResult {
        let (a, b) = bake_pair;
        let mut corridor = Box::new([0 as dtPolyRef; MAX_PATH]);
        let mut straight = Box::new([0.0f32; 3 * MAX_PATH]);
        let (npolys, nstraight, spt, ept, sref, eref) =
            self.query_raw(&centroids[a], &centroids[b], &mut corridor, &mut straight);
        let corridor: Vec<usize> = corridor[..npolys]
            .iter()
            .map(|&r| (r - self.poly_base) as usize)
            .collect();
        let straight_path: Vec<[f32; 3]> = straight[..3 * nstraight]
            .chunks(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        let (mut length_3d, mut length_plan) = (0.0f32, 0.0f32);
        for w in straight_path.windows(2) {
            let d = [w[1][0] - w[0][0], w[1][1] - w[0][1], w[1][2] - w[0][2]];
            length_3d += (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            length_plan += (d[0] * d[0] + d[2] * d[2]).sqrt();
        }
        PathResult {
            start_poly: a,
            end_poly: b,
            start: centroids[a],
            end: centroids[b],
            start_on_mesh: (sref != 0).then_some(spt),
            end_on_mesh: (eref != 0).then_some(ept),
            reached: eref != 0
                && npolys > 0
                && corridor.last() == Some(&((eref - self.poly_base) as usize)),
            corridor,
            straight_path,
            length_3d,
            length_plan,
            us: f64::NAN,
        }
    }
}

impl Drop for DetourMesh {
    fn drop(&mut self) {
        unsafe {
            dtFreeNavMeshQuery(self.query);
            dtFreeNavMesh(self.nav);
        }
    }
}
