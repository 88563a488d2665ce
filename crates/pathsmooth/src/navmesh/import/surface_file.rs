//! Any navmesh file as a [`Surface`]: the format sniffed from the bytes, read by its reader,
//! built by the one builder ([`Surface::from_data`]).

use std::path::Path;

use super::detour::{is_detour, parse_detour};
use super::godot::{is_godot, parse_godot};
use super::obj::parse_obj_surface;
use crate::error::{Error, Result};
use crate::navmesh::surface::{Surface, SurfaceOptions};

/// A navmesh file format that [`read_surface`] reads as a [`Surface`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SurfaceFormat {
    /// The library's navmesh JSON (`vertices`, `polygons`, `up`, …; needs the `serde`
    /// feature).
    NavmeshJson,
    /// Recast's own `rcPolyMesh` (and `rcPolyMeshDetail`) as JSON with Recast's field
    /// names ([`parse_recast_json`](super::parse_recast_json); needs the `serde` feature).
    RecastJson,
    /// The `rerecast` crate's serde JSON of a `PolygonNavmesh`
    /// ([`parse_rerecast_json`](super::parse_rerecast_json); needs the `serde` feature).
    RerecastJson,
    /// A Godot text scene or resource (`.tscn`, `.tres`) holding baked `NavigationMesh`
    /// resources ([`parse_godot`]).
    Godot,
    /// Wavefront OBJ faces, read in 3D: Unity's `NavMesh.CalculateTriangulation` exports,
    /// Recast's debug dumps, any polygon soup ([`parse_obj_surface`]).
    Obj,
    /// Polyanya's `.mesh` (2D: a flat surface at height 0).
    PolyanyaMesh,
    /// Detour's binary navmesh: RecastDemo's navmesh set (`MSET`) or one tile's data as
    /// `dtCreateNavMeshData` writes it ([`parse_detour`]).
    Detour,
}

impl SurfaceFormat {
    /// The format of a file from its first bytes, or `None` when it is none of them.
    /// JSON is told apart by its fields: `max_vertices_per_polygon` for `rerecast`'s,
    /// `polys` and `nvp` for Recast's, `vertices` and `polygons` for the navmesh JSON.
    ///
    /// ```
    /// use pathsmooth::navmesh::SurfaceFormat;
    /// assert_eq!(SurfaceFormat::sniff(b"mesh\n2\n"), Some(SurfaceFormat::PolyanyaMesh));
    /// assert_eq!(SurfaceFormat::sniff(b"# Unity\nv 0 0 0\n"), Some(SurfaceFormat::Obj));
    /// assert_eq!(SurfaceFormat::sniff(b"[gd_scene load_steps=2 format=3]\n"), Some(SurfaceFormat::Godot));
    /// assert_eq!(SurfaceFormat::sniff(b"\x00\x01"), None);
    /// ```
    pub fn sniff(bytes: &[u8]) -> Option<SurfaceFormat> {
        if is_detour(bytes) {
            return Some(SurfaceFormat::Detour);
        }
        let text = std::str::from_utf8(bytes).ok()?;
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if is_godot(t) {
            return Some(SurfaceFormat::Godot);
        }
        if t.starts_with('{') {
            // The keys say which JSON it is; the reader decides.
            return if t.contains("\"max_vertices_per_polygon\"") {
                Some(SurfaceFormat::RerecastJson)
            } else if t.contains("\"polys\"") && t.contains("\"nvp\"") {
                Some(SurfaceFormat::RecastJson)
            } else if t.contains("\"vertices\"") && t.contains("\"polygons\"") {
                Some(SurfaceFormat::NavmeshJson)
            } else {
                None
            };
        }
        match t.split_whitespace().next() {
            Some("mesh") => Some(SurfaceFormat::PolyanyaMesh),
            Some(_) if looks_like_obj(t) => Some(SurfaceFormat::Obj),
            _ => None,
        }
    }

    /// The format's name, as errors and reports print it.
    pub fn name(self) -> &'static str {
        match self {
            SurfaceFormat::NavmeshJson => "navmesh JSON",
            SurfaceFormat::RecastJson => "Recast JSON",
            SurfaceFormat::RerecastJson => "rerecast JSON",
            SurfaceFormat::Godot => "Godot scene",
            SurfaceFormat::Obj => "OBJ",
            SurfaceFormat::PolyanyaMesh => "polyanya .mesh",
            SurfaceFormat::Detour => "Detour binary",
        }
    }
}

/// Whether the first lines are blank, comments or OBJ statements.
fn looks_like_obj(text: &str) -> bool {
    const STATEMENTS: [&str; 12] = [
        "v", "vn", "vt", "vp", "f", "l", "g", "o", "s", "mtllib", "usemtl", "p",
    ];
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(64)
        .all(|l| {
            l.starts_with('#') || STATEMENTS.contains(&l.split_whitespace().next().unwrap_or(""))
        })
}

/// The names of the formats [`read_surface`] reads, for its error.
const KNOWN: &str = "navmesh JSON, Recast JSON, rerecast JSON, Godot .tscn/.tres, OBJ, \
                     polyanya .mesh, Detour .bin (a navmesh set or one tile)";

/// Reads a navmesh file's bytes as a [`Surface`], in the format [`SurfaceFormat::sniff`]
/// finds, built as `options` say ([`Surface::from_data`]: welded, cleaned and joined by
/// default, with what was repaired in [`Surface::load_report`]). Formats that fix their up
/// axis (Recast, Detour, Godot: y; the navmesh JSON names its own) use it; `options.up` is for OBJ
/// and polyanya meshes. `file` names the input in errors.
///
/// Errors: [`Error::Parse`] for bytes in no format it reads (naming those it knows); then
/// the format's reader's errors, each naming the file and the line, field, polygon or
/// vertex; [`Error::Unsupported`] for a JSON format without the `serde` feature. Never a
/// panic.
///
/// Cost: the reader's (linear in the file) and [`Surface::from_data`]'s.
///
/// ```
/// use pathsmooth::navmesh::read_surface;
/// use pathsmooth::navmesh::SurfaceOptions;
/// // Two triangles of a Unity export: each with its own copies of the shared corners.
/// let obj = "g navmesh\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3\nf 4 5 6\n";
/// let s = read_surface(obj.as_bytes(), "level.obj", &SurfaceOptions::default())?;
/// assert_eq!((s.num_polygons(), s.vertices().len()), (2, 4));
/// assert_eq!(s.load_report().welded, 2);
/// assert!(read_surface(b"hello", "x.txt", &SurfaceOptions::default()).is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn read_surface(bytes: &[u8], file: &str, options: &SurfaceOptions) -> Result<Surface> {
    let format = SurfaceFormat::sniff(bytes).ok_or_else(|| unknown(file))?;
    if format == SurfaceFormat::Detour {
        return Surface::from_data(&parse_detour(bytes, file)?, options);
    }
    let text = text_of(bytes, file)?;
    match format {
        SurfaceFormat::Obj => parse_obj_surface(text, file, options),
        SurfaceFormat::PolyanyaMesh => {
            Surface::from_navmesh(&super::parse_mesh(text, file)?, options.up)
        }
        SurfaceFormat::Godot => Surface::from_data(&parse_godot(text, file)?, options),
        SurfaceFormat::Detour => Surface::from_data(&parse_detour(bytes, file)?, options),
        #[cfg(feature = "serde")]
        SurfaceFormat::NavmeshJson => super::parse_surface_json(text, file, options),
        #[cfg(feature = "serde")]
        SurfaceFormat::RecastJson => {
            Surface::from_data(&super::parse_recast_json(text, file)?, options)
        }
        #[cfg(feature = "serde")]
        SurfaceFormat::RerecastJson => super::parse_rerecast_json(text, None, file, options),
        #[cfg(not(feature = "serde"))]
        SurfaceFormat::NavmeshJson | SurfaceFormat::RecastJson | SurfaceFormat::RerecastJson => {
            Err(Error::Unsupported {
                what: "reading a navmesh JSON",
                needs: "the `serde` feature",
            })
        }
    }
}

/// [`read_surface`] for a navmesh whose detail mesh is in a file of its own: Recast's
/// `rcPolyMesh` and `rcPolyMeshDetail` dumps
/// ([`parse_recast_json_pair`](super::parse_recast_json_pair)), or `rerecast`'s
/// `PolygonNavmesh` and `DetailNavmesh` ([`parse_rerecast_json`](super::parse_rerecast_json)).
/// `file` names the poly mesh in errors.
///
/// Errors: [`Error::Unsupported`] for a poly mesh in another format (the others carry
/// their detail inside, or have none) or without the `serde` feature; then as
/// [`read_surface`].
pub fn read_surface_with_detail(
    poly: &[u8],
    detail: &[u8],
    file: &str,
    options: &SurfaceOptions,
) -> Result<Surface> {
    let text = text_of(poly, file)?;
    let detail_file = format!("{file} (detail mesh)");
    let detail = text_of(detail, &detail_file)?;
    match SurfaceFormat::sniff(poly).ok_or_else(|| unknown(file))? {
        #[cfg(feature = "serde")]
        SurfaceFormat::RecastJson => {
            Surface::from_data(&super::parse_recast_json_pair(text, detail, file)?, options)
        }
        #[cfg(feature = "serde")]
        SurfaceFormat::RerecastJson => {
            super::parse_rerecast_json(text, Some(detail), file, options)
        }
        other => {
            // (Without `serde`, nothing here reads them.)
            let _ = (text, detail, options);
            Err(Error::Unsupported {
                what: match other {
                    SurfaceFormat::NavmeshJson => "a separate detail mesh for a navmesh JSON",
                    SurfaceFormat::Godot => "a separate detail mesh for a Godot scene",
                    SurfaceFormat::Obj => "a separate detail mesh for an OBJ file",
                    _ => "a separate detail mesh for this format",
                },
                needs: "Recast or rerecast JSON (with the `serde` feature)",
            })
        }
    }
}

/// Reads a navmesh file as a [`Surface`]: [`read_surface`] on its bytes, the file named by
/// its path in errors.
///
/// Errors: [`Error::Io`] when the file cannot be read; then those of [`read_surface`].
pub fn load_surface(path: impl AsRef<Path>, options: &SurfaceOptions) -> Result<Surface> {
    let (bytes, name) = read_file(path.as_ref())?;
    read_surface(&bytes, &name, options)
}

/// Reads a navmesh file and the file of its detail mesh as a [`Surface`]:
/// [`read_surface_with_detail`] on their bytes.
///
/// Errors: [`Error::Io`] when a file cannot be read; then those of
/// [`read_surface_with_detail`].
pub fn load_surface_with_detail(
    poly: impl AsRef<Path>,
    detail: impl AsRef<Path>,
    options: &SurfaceOptions,
) -> Result<Surface> {
    let (poly, name) = read_file(poly.as_ref())?;
    let (detail, _) = read_file(detail.as_ref())?;
    read_surface_with_detail(&poly, &detail, &name, options)
}

/// A file's bytes and its name for errors.
fn read_file(path: &Path) -> Result<(Vec<u8>, String)> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| Error::Io {
        path: name.clone(),
        message: e.to_string(),
    })?;
    Ok((bytes, name))
}

/// The bytes as UTF-8 text (every text format here), or a parse error at the first bad
/// byte.
fn text_of<'a>(bytes: &'a [u8], file: &str) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let column = at
            - bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        if at == 0 {
            unknown(file)
        } else {
            Error::parse(file, line, column, "not UTF-8 text")
        }
    })
}

/// The error for bytes in no known format.
fn unknown(file: &str) -> Error {
    Error::parse(
        file,
        1,
        1,
        format!("not a navmesh file this library reads ({KNOWN})"),
    )
}
