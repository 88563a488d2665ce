//! Any navmesh file as a [`Surface`]: the format sniffed from the bytes, read by its reader,
//! built by the one builder.

use std::path::Path;

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
    /// The `rerecast` crate's serde JSON of a `PolygonNavmesh` (its detail mesh, a
    /// second file, is not read this way: see
    /// [`parse_rerecast_json`](super::parse_rerecast_json); needs the `serde` feature).
    RerecastJson,
    /// Wavefront OBJ faces, read in 3D (Unity's `NavMesh.CalculateTriangulation` exports,
    /// Recast's debug dumps, any polygon soup).
    Obj,
    /// Polyanya's `.mesh` (2D: a flat surface at height 0).
    PolyanyaMesh,
}

impl SurfaceFormat {
    /// The format of a file from its first bytes, or `None` when it is none of them.
    /// JSON is told apart by its fields: `max_vertices_per_polygon` for `rerecast`'s,
    /// `vertices` and `polygons` for the navmesh JSON.
    ///
    /// ```
    /// use pathsmooth::navmesh::import::SurfaceFormat;
    /// assert_eq!(SurfaceFormat::sniff(b"mesh\n2\n"), Some(SurfaceFormat::PolyanyaMesh));
    /// assert_eq!(SurfaceFormat::sniff(b"# Unity\nv 0 0 0\n"), Some(SurfaceFormat::Obj));
    /// assert_eq!(SurfaceFormat::sniff(b"\x00\x01"), None);
    /// ```
    pub fn sniff(bytes: &[u8]) -> Option<SurfaceFormat> {
        let text = std::str::from_utf8(bytes).ok()?;
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('{') {
            // The keys near the start say which JSON it is; a full parse decides.
            if t.contains("\"max_vertices_per_polygon\"") {
                return Some(SurfaceFormat::RerecastJson);
            }
            if t.contains("\"vertices\"") && t.contains("\"polygons\"") {
                return Some(SurfaceFormat::NavmeshJson);
            }
            return None;
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
            SurfaceFormat::RerecastJson => "rerecast JSON",
            SurfaceFormat::Obj => "OBJ",
            SurfaceFormat::PolyanyaMesh => "polyanya .mesh",
        }
    }
}

/// Whether every line before the first `v` or `f` line is blank, a comment or an OBJ
/// statement.
fn looks_like_obj(text: &str) -> bool {
    const STATEMENTS: [&str; 12] = [
        "#", "v", "vn", "vt", "f", "g", "o", "s", "mtllib", "usemtl", "l", "vp",
    ];
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(64)
        .all(|l| {
            let word = l.split_whitespace().next().unwrap_or("");
            l.starts_with('#') || STATEMENTS.contains(&word)
        })
}

/// Reads a navmesh file's bytes as a [`Surface`], in the format [`SurfaceFormat::sniff`]
/// finds, built as `options` say ([`Surface::from_data`]: welded, cleaned and joined by
/// default, with what was repaired in [`Surface::load_report`]). Formats that name their
/// up axis use their own; `options.up` is for OBJ and polyanya meshes. `file` names the
/// input in errors.
///
/// Errors: [`Error::Parse`] for bytes in no format it reads (naming the formats it
/// tried); then the format's reader's errors, each naming the file and the line, polygon,
/// vertex or tile. Never a panic.
///
/// Cost: the reader's (linear in the file) and [`Surface::from_data`]'s.
///
/// ```
/// use pathsmooth::navmesh::import::read_surface;
/// use pathsmooth::navmesh::SurfaceOptions;
/// // Two triangles of a Unity export: each with its own copies of the shared corners.
/// let obj = "g navmesh\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3\nf 4 5 6\n";
/// let s = read_surface(obj.as_bytes(), "level.obj", &SurfaceOptions::default())?;
/// assert_eq!((s.num_polygons(), s.vertices().len()), (2, 4));
/// assert_eq!(s.load_report().welded, 2);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn read_surface(bytes: &[u8], file: &str, options: &SurfaceOptions) -> Result<Surface> {
    let format = SurfaceFormat::sniff(bytes).ok_or_else(|| {
        Error::parse(
            file,
            1,
            1,
            "not a navmesh file this library reads (navmesh JSON, rerecast JSON, OBJ, polyanya .mesh)",
        )
    })?;
    // Every format sniffed so far is text.
    let text = std::str::from_utf8(bytes).map_err(|e| Error::parse(file, 1, 1, e))?;
    match format {
        SurfaceFormat::Obj => parse_obj_surface(text, file, options),
        SurfaceFormat::PolyanyaMesh => {
            Surface::from_navmesh(&super::parse_mesh(text, file)?, options.up)
        }
        #[cfg(feature = "serde")]
        SurfaceFormat::NavmeshJson => super::parse_surface_json(text, file, options),
        #[cfg(feature = "serde")]
        SurfaceFormat::RerecastJson => super::parse_rerecast_json(text, None, file, options),
        #[cfg(not(feature = "serde"))]
        SurfaceFormat::NavmeshJson | SurfaceFormat::RerecastJson => Err(Error::Unsupported {
            what: "reading a navmesh JSON",
            needs: "the `serde` feature",
        }),
    }
}

/// Reads a navmesh file as a [`Surface`]: [`read_surface`] on its bytes, the file named
/// by its path in errors.
///
/// Errors: [`Error::Io`] when the file cannot be read; then those of [`read_surface`].
pub fn load_surface(path: impl AsRef<Path>, options: &SurfaceOptions) -> Result<Surface> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| Error::Io {
        path: name.clone(),
        message: e.to_string(),
    })?;
    read_surface(&bytes, &name, options)
}
