//! Real navmeshes in and out: a caller's convex polygons with ids
//! ([`NavMesh::from_polygons_with_ids`]), polyanya's `.mesh` files ([`parse_mesh`],
//! [`write_mesh`], [`write_mesh_v3`]) and OBJ polygon meshes ([`parse_obj`], [`write_obj`]), and [`load`],
//! which picks the reader by the file's extension.
//!
//! Every reader validates the polygons the same way (convex, no overlap, no T-junction, no
//! duplicate vertex, non-zero area, coordinates in range; see
//! [`NavMesh::from_polygons_with_ids`]) and reports a problem as an error naming the file,
//! the line and the polygon or vertex, never a panic. Each triangle of the result knows its
//! polygon ([`NavMesh::polygon_of`]) and a path can be mapped to the polygons it enters
//! ([`NavMesh::polygons_along`]), as Detour's `findStraightPath` reports, or to every
//! polygon it passes through ([`NavMesh::polygons_crossed`]).

mod detour;
mod godot;
mod grid;
mod grid_build;
pub(crate) mod mesh_file;
mod mesh_v3;
pub(crate) mod obj;
pub(crate) mod polygons;
#[cfg(feature = "serde")]
pub(crate) mod recast_json;
#[cfg(feature = "serde")]
mod rerecast_json;
mod rings;
mod scene;
mod surface_file;
#[cfg(feature = "serde")]
mod surface_json;
mod text;

use std::path::Path;

pub use detour::{is_detour, parse_detour};
pub use godot::{is_godot, parse_godot};
pub use mesh_file::{parse_mesh, write_mesh};
pub use mesh_v3::write_mesh_v3;
pub use obj::{parse_obj, parse_obj_surface, write_obj, GroundPlane};
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use recast_json::{
    is_recast_json, parse_recast_json, parse_recast_json_pair, DETAIL_KEYS, POLY_KEYS,
};
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use rerecast_json::parse_rerecast_json;
pub use scene::Scene;
pub use surface_file::{
    load_surface, load_surface_with_detail, read_surface, read_surface_with_detail, SurfaceFormat,
};
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use surface_json::{parse_surface_json, read_surface_json, write_surface_json};

use crate::error::{Error, Result};
use crate::navmesh::mesh::NavMesh;

/// A navmesh file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshFormat {
    /// A scene JSON `{"boundary": …, "holes": …}` (needs the `serde` feature).
    SceneJson,
    /// Polyanya's `.mesh` (version 3, 2 or 1).
    Mesh,
    /// Wavefront OBJ faces.
    Obj,
}

impl MeshFormat {
    /// The format a file name's extension names (`.json`, `.mesh`, `.obj`, any case), if
    /// any.
    ///
    /// ```
    /// use pathsmooth::navmesh::MeshFormat;
    /// assert_eq!(MeshFormat::from_extension("a/b.OBJ"), Some(MeshFormat::Obj));
    /// assert_eq!(MeshFormat::from_extension("a/b.txt"), None);
    /// ```
    pub fn from_extension(name: &str) -> Option<Self> {
        let ext = Path::new(name).extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(MeshFormat::SceneJson),
            "mesh" => Some(MeshFormat::Mesh),
            "obj" => Some(MeshFormat::Obj),
            _ => None,
        }
    }

    /// A guess from the text: `{` first is JSON, `mesh` first is a `.mesh` file, else OBJ.
    ///
    /// ```
    /// use pathsmooth::navmesh::MeshFormat;
    /// assert_eq!(MeshFormat::sniff("mesh\n2\n"), MeshFormat::Mesh);
    /// assert_eq!(MeshFormat::sniff(" {\"boundary\": []}"), MeshFormat::SceneJson);
    /// assert_eq!(MeshFormat::sniff("v 0 0 0\n"), MeshFormat::Obj);
    /// ```
    pub fn sniff(text: &str) -> Self {
        let t = text.trim_start();
        if t.starts_with('{') {
            MeshFormat::SceneJson
        } else if t.split_whitespace().next() == Some("mesh") {
            MeshFormat::Mesh
        } else {
            MeshFormat::Obj
        }
    }
}

/// Parses navmesh text in `format` (`plane` is used by OBJ only); `file` names the text in
/// errors.
///
/// ```
/// use pathsmooth::navmesh::{parse, GroundPlane, MeshFormat};
/// let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
/// assert_eq!(parse(obj, MeshFormat::Obj, GroundPlane::Xy, "t.obj")?.num_triangles(), 1);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse(text: &str, format: MeshFormat, plane: GroundPlane, file: &str) -> Result<NavMesh> {
    match format {
        MeshFormat::Mesh => parse_mesh(text, file),
        MeshFormat::Obj => parse_obj(text, file, plane),
        #[cfg(feature = "serde")]
        MeshFormat::SceneJson => NavMesh::from_scene_json(text, file),
        #[cfg(not(feature = "serde"))]
        MeshFormat::SceneJson => Err(Error::Unsupported {
            what: "reading a scene JSON",
            needs: "the `serde` feature",
        }),
    }
}

/// Reads a navmesh file: the format from the extension (`.json` scene, `.mesh`, `.obj`),
/// else from the text ([`MeshFormat::sniff`]); `plane` is used by OBJ files only.
///
/// Errors: [`Error::Io`] when the file cannot be read, else as the format's reader.
///
/// ```
/// use pathsmooth::navmesh::{load, GroundPlane};
/// let path = std::env::temp_dir().join("pathsmooth_doc_load.obj");
/// std::fs::write(&path, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n").unwrap();
/// assert_eq!(load(&path, GroundPlane::Xz)?.num_triangles(), 1);
/// assert!(load("/no/such/file.mesh", GroundPlane::Xz).is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn load(path: impl AsRef<Path>, plane: GroundPlane) -> Result<NavMesh> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
        path: name.clone(),
        message: e.to_string(),
    })?;
    let format = MeshFormat::from_extension(&name).unwrap_or_else(|| MeshFormat::sniff(&text));
    parse(&text, format, plane, &name)
}
