//! The `rerecast` crate's own serde form of its `PolygonNavmesh` and `DetailNavmesh`
//! (rerecast 0.5, feature `serialize`, written with `serde_json`) in to a [`Surface`].
//! Needs the `serde` feature.
//!
//! A `PolygonNavmesh` holds vertices in cells (`[u16; 3]`) over an `aabb` with
//! `cell_size` and `cell_height`, and polygons as one flat array of
//! `max_vertices_per_polygon` entries each, padded with `0xffff`; a `DetailNavmesh` holds
//! `meshes` (`{base_vertex_index, vertex_count, base_triangle_index, triangle_count}`),
//! world-space `vertices`, `triangles` (`[u8; 3]`) and `triangle_flags`. Fields not read:
//! `polygon_neighbors` (the surface finds its own adjacency), `regions`, `border_size`,
//! `max_edge_error`.

use glam::DVec3;
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::navmesh::surface::{Detail, Surface, SurfaceData, SurfaceOptions, UpAxis};

/// Recast's `RC_MESH_NULL_IDX`: the padding after a polygon's last vertex.
const NO_INDEX: u16 = 0xffff;

/// `rerecast`'s `AreaType::DEFAULT_WALKABLE`, and Recast's `RC_WALKABLE_AREA` it stands for.
const RERECAST_WALKABLE: u8 = 255;
const RC_WALKABLE_AREA: u8 = 63;

#[derive(Deserialize)]
struct PolyIn {
    vertices: Vec<[u16; 3]>,
    polygons: Vec<u16>,
    flags: Vec<u16>,
    areas: Vec<u8>,
    max_vertices_per_polygon: u16,
    aabb: AabbIn,
    cell_size: f32,
    cell_height: f32,
}

#[derive(Deserialize)]
struct AabbIn {
    min: [f32; 3],
}

#[derive(Deserialize)]
struct DetailIn {
    meshes: Vec<SubMeshIn>,
    vertices: Vec<[f32; 3]>,
    triangles: Vec<[u8; 3]>,
    #[serde(default)]
    triangle_flags: Vec<u8>,
}

#[derive(Deserialize)]
struct SubMeshIn {
    base_vertex_index: u32,
    vertex_count: u32,
    base_triangle_index: u32,
    triangle_count: u32,
}

impl SubMeshIn {
    /// The order of [`Detail::meshes`]: first vertex, vertices, first triangle, triangles.
    fn ranges(&self) -> [u32; 4] {
        let (v, t) = (self.base_vertex_index, self.base_triangle_index);
        [v, self.vertex_count, t, self.triangle_count]
    }
}

/// An `f32` as the `f64` of its shortest decimal: what the navmesh JSON holds for it
/// (`pathsmooth-bake` writes that decimal), so both readers give the same surface (and
/// [`parse_recast_json`](super::parse_recast_json) too).
pub(super) fn widen(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}

/// A problem with the data (not its syntax), naming the file.
fn bad(file: &str, message: String) -> Error {
    Error::InvalidPolygon {
        message: format!("{file}: {message}"),
    }
}

/// Reads `rerecast`'s serde JSON of a `PolygonNavmesh` (`polygon_mesh`) and, if given, of
/// its `DetailNavmesh` (`detail_mesh`, attached with [`Surface::with_detail`]) as a
/// [`Surface`], y up (`options.up` is ignored: Recast is y-up). Vertex `i` is
/// `aabb.min + vertices[i] × (cell_size, cell_height, cell_size)`, computed in `f32` as
/// Detour does; every `f32` is taken as its shortest decimal, as the navmesh JSON
/// (`docs/navmesh-json.md`) writes it, so a bake read this way and through
/// [`parse_surface_json`](super::parse_surface_json) gives the same surface. Area 255
/// (`rerecast`'s `AreaType::DEFAULT_WALKABLE`) becomes Recast's 63 (`RC_WALKABLE_AREA`),
/// as in that format; flags are kept. `file` names the input in errors (the detail mesh
/// as `file (detail mesh)`).
///
/// Errors: [`Error::Parse`] (line, column) for malformed JSON or a missing or mistyped
/// field; [`Error::InvalidPolygon`] naming the file for `max_vertices_per_polygon` below 3,
/// a `polygons` array not a whole number of polygons, a non-finite or non-positive cell
/// size, a non-finite `aabb.min`, `triangle_flags` neither empty nor one per triangle;
/// then the errors
/// of [`Surface::from_polygons_with`] and [`Surface::with_detail`], naming the polygon.
/// Never a panic.
///
/// Cost: O(input size), then as [`Surface::from_polygons_with`] and
/// [`Surface::with_detail`].
///
/// Source: the `rerecast` crate (J. Hohenheim), a Rust port of Recast
/// (M. Mononen): `PolygonNavmesh` and `DetailNavmesh`, Recast's `rcPolyMesh` and
/// `rcPolyMeshDetail`.
///
/// ```
/// use glam::{DVec2, DVec3};
/// use pathsmooth::navmesh::parse_rerecast_json;
/// use pathsmooth::navmesh::SurfaceOptions;
/// let poly = r#"{"vertices": [[0,0,0],[4,0,0],[4,2,4],[0,2,4]], "polygons": [0,1,2,3,65535,65535],
///   "polygon_neighbors": [65535,65535,65535,65535,65535,65535], "flags": [1], "regions": [1],
///   "areas": [255], "max_vertices_per_polygon": 6, "aabb": {"min": [10,0,20], "max": [12,1,22]},
///   "cell_size": 0.5, "cell_height": 0.25, "border_size": 0, "max_edge_error": 1.3}"#;
/// let s = parse_rerecast_json(poly, None, "ramp.json", &SurfaceOptions::default())?;
/// assert_eq!(s.vertices()[2], DVec3::new(12.0, 0.5, 22.0));
/// assert_eq!((s.area(0), s.flags(0)), (63, 1));
/// assert!(s.detail().is_none());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_rerecast_json(
    polygon_mesh: &str,
    detail_mesh: Option<&str>,
    file: &str,
    options: &SurfaceOptions,
) -> Result<Surface> {
    Surface::from_data(
        &read_rerecast_json(polygon_mesh, detail_mesh, file)?,
        options,
    )
}

/// The fields of [`parse_rerecast_json`]'s input as [`SurfaceData`], unchecked (the
/// surface builder checks them). Errors: [`Error::Parse`] and [`Error::InvalidPolygon`] as
/// there, for what is wrong with the data's form.
fn read_rerecast_json(
    polygon_mesh: &str,
    detail_mesh: Option<&str>,
    file: &str,
) -> Result<SurfaceData> {
    let poly: PolyIn = serde_json::from_str(polygon_mesh)
        .map_err(|e| Error::parse(file, e.line(), e.column(), e))?;
    let nvp = poly.max_vertices_per_polygon as usize;
    if nvp < 3 {
        return Err(bad(
            file,
            format!("max_vertices_per_polygon is {nvp}, fewer than 3"),
        ));
    }
    if !poly.polygons.len().is_multiple_of(nvp) {
        return Err(bad(
            file,
            format!(
                "polygons has {} entries, not a whole number of polygons of {nvp}",
                poly.polygons.len()
            ),
        ));
    }
    let (cs, ch) = (poly.cell_size, poly.cell_height);
    if !(cs > 0.0 && cs.is_finite() && ch > 0.0 && ch.is_finite()) {
        return Err(bad(
            file,
            format!("cell_size {cs} and cell_height {ch}: each must be finite and > 0"),
        ));
    }
    let min = poly.aabb.min;
    if !min.iter().all(|m| m.is_finite()) {
        return Err(bad(file, format!("aabb.min {min:?} is not finite")));
    }
    let vertices: Vec<DVec3> = poly
        .vertices
        .iter()
        .map(|v| {
            // In f32, as Detour (and pathsmooth-bake) compute it.
            DVec3::new(
                widen(min[0] + f32::from(v[0]) * cs),
                widen(min[1] + f32::from(v[1]) * ch),
                widen(min[2] + f32::from(v[2]) * cs),
            )
        })
        .collect();
    let polygons: Vec<Vec<u32>> = poly
        .polygons
        .chunks_exact(nvp)
        .map(|c| {
            c.iter()
                .take_while(|&&i| i != NO_INDEX)
                .map(|&i| u32::from(i))
                .collect()
        })
        .collect();
    let areas: Vec<u8> = poly
        .areas
        .iter()
        .map(|&a| {
            if a == RERECAST_WALKABLE {
                RC_WALKABLE_AREA
            } else {
                a
            }
        })
        .collect();
    let mut data = SurfaceData {
        vertices,
        polygons,
        areas,
        flags: poly.flags,
        ..SurfaceData::new(UpAxis::Y)
    };
    let Some(text) = detail_mesh else {
        return Ok(data);
    };
    let name = format!("{file} (detail mesh)");
    let d: DetailIn =
        serde_json::from_str(text).map_err(|e| Error::parse(&name, e.line(), e.column(), e))?;
    // Flags are optional: some writers leave them out (read as 0).
    if !d.triangle_flags.is_empty() && d.triangle_flags.len() != d.triangles.len() {
        return Err(bad(
            &name,
            format!(
                "{} triangle_flags for {} triangles: one per triangle, or none",
                d.triangle_flags.len(),
                d.triangles.len()
            ),
        ));
    }
    data.detail = Some(Detail {
        meshes: d.meshes.iter().map(SubMeshIn::ranges).collect(),
        vertices: d
            .vertices
            .iter()
            .map(|v| DVec3::new(widen(v[0]), widen(v[1]), widen(v[2])))
            .collect(),
        triangles: d
            .triangles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let f = d.triangle_flags.get(i).copied().unwrap_or(0);
                [t[0], t[1], t[2], f].map(u32::from)
            })
            .collect(),
    });
    Ok(data)
}
