//! Recast's single-mesh build (RecastDemo's `Sample_SoloMesh`) through `rerecast`.

use glam::{UVec3, Vec2, Vec3A};
use rerecast::{
    Aabb3d, AreaType, BuildContoursFlags, Config, ConvexVolume, DetailNavmesh, HeightfieldBuilder,
    PolygonNavmesh, TriMesh,
};
use serde::Deserialize;

use crate::format::{BakeInfo, BakeSettings, DetailJson, NavmeshJson};
use crate::obj::ObjMesh;

/// Recast's `RC_WALKABLE_AREA`, the area id C++ Recast gives walkable polygons
/// (`rerecast` uses 255 for it).
pub const RC_WALKABLE_AREA: u8 = 63;

/// RecastDemo's `SAMPLE_POLYFLAGS_WALK`.
pub const POLYFLAGS_WALK: u16 = 1;

/// The version of the `rerecast` crate this tool is built against (its `Cargo.toml`).
pub const RERECAST_VERSION: &str = "0.5.0";

/// Convex volumes that mark areas, in RecastDemo's form (as `rerecast`'s C++ reference
/// data stores them): `{"volumes": [{"verts": [[x, y, z], …], "hmin": h, "hmax": h, "area": a}]}`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Volumes {
    /// The volumes.
    pub volumes: Vec<Volume>,
}

/// One convex volume: a plan-view outline (the `y` of its corners is unused) and a height range.
#[derive(Debug, Clone, Deserialize)]
pub struct Volume {
    /// Corners of the outline.
    pub verts: Vec<[f32; 3]>,
    /// Bottom of the volume.
    pub hmin: f32,
    /// Top of the volume.
    pub hmax: f32,
    /// The area id the spans inside get.
    pub area: u8,
}

/// Options of a bake beyond RecastDemo's settings.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    /// Bake the detail mesh too.
    pub detail: bool,
    /// Cells left unwalkable along the heightfield's edge (`Sample_SoloMesh`: 0; tiled
    /// builds and `rerecast`'s reference data: `ceil(radius / cs) + 3`).
    pub border_size: u16,
    /// Convex volumes that mark areas.
    pub volumes: Volumes,
}

/// Recast's voxel-unit configuration from world-unit settings, as `Sample_SoloMesh`
/// computes it (with `border_size` 0: one tile covers the level).
pub fn config(settings: &BakeSettings, aabb: Aabb3d, border_size: u16) -> Config {
    let s = settings;
    let cs = s.cell_size;
    let ch = s.cell_height;
    let sq = |v: f32| {
        let v = v as u16;
        v.saturating_mul(v)
    };
    Config {
        width: ((aabb.max.x - aabb.min.x) / cs + 0.5) as u16,
        height: ((aabb.max.z - aabb.min.z) / cs + 0.5) as u16,
        tile_size: 0,
        border_size,
        cell_size: cs,
        cell_height: ch,
        aabb,
        walkable_slope_angle: s.agent_max_slope.to_radians(),
        walkable_height: (s.agent_height / ch).ceil() as u16,
        walkable_climb: (s.agent_max_climb / ch).floor() as u16,
        walkable_radius: (s.agent_radius / cs).ceil() as u16,
        max_edge_len: (s.edge_max_len / cs) as u16,
        max_simplification_error: s.edge_max_error,
        min_region_area: sq(s.region_min_size),
        merge_region_area: sq(s.region_merge_size),
        max_vertices_per_polygon: s.verts_per_poly,
        detail_sample_dist: if s.detail_sample_dist < 0.9 {
            0.0
        } else {
            cs * s.detail_sample_dist
        },
        detail_sample_max_error: ch * s.detail_sample_max_error,
        contour_flags: BuildContoursFlags::default(),
        area_volumes: Vec::new(),
    }
}

/// Bakes `mesh` with `settings` and `extras`; `source` names the geometry in the output's
/// `bake` record.
pub fn bake(
    mesh: &ObjMesh,
    settings: &BakeSettings,
    extras: &Extras,
    source: &str,
) -> Result<NavmeshJson, String> {
    let (poly, detail) = bake_rerecast(mesh, settings, extras)?;
    let mut out = poly_json(&poly);
    out.detail = detail.as_ref().map(detail_json);
    out.bake = Some(BakeInfo {
        source: source.to_owned(),
        tool: format!(
            "pathsmooth-bake {} (rerecast {RERECAST_VERSION})",
            env!("CARGO_PKG_VERSION")
        ),
        settings: *settings,
        border_size: extras.border_size,
        volumes: extras.volumes.volumes.len(),
    });
    Ok(out)
}

/// The steps of [`bake`], giving `rerecast`'s own poly mesh and (when `extras.detail`)
/// detail mesh, in cells and world units as `rerecast` keeps them.
pub fn bake_rerecast(
    mesh: &ObjMesh,
    settings: &BakeSettings,
    extras: &Extras,
) -> Result<(PolygonNavmesh, Option<DetailNavmesh>), String> {
    if mesh.triangles.is_empty() {
        return Err("the geometry has no triangles".into());
    }
    let mut trimesh = TriMesh {
        vertices: mesh
            .vertices
            .iter()
            .map(|&p| Vec3A::from_array(p))
            .collect(),
        indices: mesh
            .triangles
            .iter()
            .map(|&t| UVec3::from_array(t))
            .collect(),
        area_types: vec![AreaType::NOT_WALKABLE; mesh.triangles.len()],
    };
    let aabb = trimesh
        .compute_aabb()
        .ok_or("the geometry has no vertices")?;
    let cfg = config(settings, aabb, extras.border_size);
    trimesh.mark_walkable_triangles(cfg.walkable_slope_angle);

    let mut heightfield = HeightfieldBuilder {
        aabb: cfg.aabb,
        cell_size: cfg.cell_size,
        cell_height: cfg.cell_height,
    }
    .build()
    .map_err(|e| format!("heightfield: {e}"))?;
    heightfield
        .rasterize_triangles(&trimesh, cfg.walkable_climb)
        .map_err(|e| format!("rasterising: {e}"))?;
    heightfield.filter_low_hanging_walkable_obstacles(cfg.walkable_climb);
    heightfield.filter_ledge_spans(cfg.walkable_height, cfg.walkable_climb);
    heightfield.filter_walkable_low_height_spans(cfg.walkable_height);

    let mut compact = heightfield
        .into_compact(cfg.walkable_height, cfg.walkable_climb)
        .map_err(|e| format!("compact heightfield: {e}"))?;
    compact.erode_walkable_area(cfg.walkable_radius);
    for v in &extras.volumes.volumes {
        if v.area == 0 || v.verts.len() < 3 {
            return Err("a volume needs an area id above 0 and three corners".into());
        }
        compact.mark_convex_poly_area(&ConvexVolume {
            vertices: v.verts.iter().map(|p| Vec2::new(p[0], p[2])).collect(),
            min_y: v.hmin,
            max_y: v.hmax,
            area: AreaType(v.area),
        });
    }
    compact.build_distance_field();
    compact
        .build_regions(cfg.border_size, cfg.min_region_area, cfg.merge_region_area)
        .map_err(|e| format!("regions: {e}"))?;
    let contours = compact.build_contours(
        cfg.max_simplification_error,
        cfg.max_edge_len,
        cfg.contour_flags,
    );
    let poly = contours
        .into_polygon_mesh(cfg.max_vertices_per_polygon)
        .map_err(|e| format!("poly mesh: {e}"))?;
    let detail = if extras.detail {
        let d = DetailNavmesh::new(
            &poly,
            &compact,
            cfg.detail_sample_dist,
            cfg.detail_sample_max_error,
        )
        .map_err(|e| format!("detail mesh: {e}"))?;
        Some(d)
    } else {
        None
    };
    Ok((poly, detail))
}

/// The poly mesh in world units: `x = bmin.x + vx·cs`, `y = bmin.y + vy·ch`,
/// `z = bmin.z + vz·cs` (computed in `f32`, as Detour does), polygons without
/// `RC_MESH_NULL_IDX` padding, Recast's area ids and RecastDemo's walk flag.
pub fn poly_json(poly: &PolygonNavmesh) -> NavmeshJson {
    let min = poly.aabb.min;
    let vertices = poly
        .vertices
        .iter()
        .map(|v| {
            [
                min.x + v.x as f32 * poly.cell_size,
                min.y + v.y as f32 * poly.cell_height,
                min.z + v.z as f32 * poly.cell_size,
            ]
        })
        .collect();
    let polygons = poly
        .polygons()
        .map(|p| p.map(u32::from).collect())
        .collect();
    let areas: Vec<u8> = poly
        .areas
        .iter()
        .map(|a| {
            if *a == AreaType::DEFAULT_WALKABLE {
                RC_WALKABLE_AREA
            } else {
                a.0
            }
        })
        .collect();
    let flags = areas
        .iter()
        .map(|&a| if a == 0 { 0 } else { POLYFLAGS_WALK })
        .collect();
    NavmeshJson {
        up: "y".into(),
        bake: None,
        vertices,
        polygons,
        areas,
        flags,
        detail: None,
    }
}

fn detail_json(d: &DetailNavmesh) -> DetailJson {
    DetailJson {
        meshes: d
            .meshes
            .iter()
            .map(|m| {
                [
                    m.base_vertex_index,
                    m.vertex_count,
                    m.base_triangle_index,
                    m.triangle_count,
                ]
            })
            .collect(),
        vertices: d.vertices.iter().map(|v| v.to_array()).collect(),
        triangles: d
            .triangles
            .iter()
            .zip(&d.triangle_flags)
            .map(|(t, &f)| [t[0], t[1], t[2], f])
            .collect(),
    }
}
