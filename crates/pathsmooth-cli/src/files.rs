//! Reading and writing the CLI's files: `-` is stdin/stdout, and a path file's format
//! comes from `--format`, else the file's extension, else (on input) its first character.
//! A navmesh file's format (scene JSON, polyanya `.mesh`, OBJ) comes from its extension,
//! else from its first word.

use std::io::{BufWriter, Read, Write};
use std::path::Path;

use anyhow::{Context, Result};
use glam::DVec2;
use pathsmooth::io::{parse_path, write_path_to, Format, PathData};
use pathsmooth::navmesh::{parse, GroundPlane, MeshFormat};
use pathsmooth::navmesh::{NavMesh, Scene};
use pathsmooth::Point;

/// Reads a whole file, or stdin for `-`.
pub fn read_text(name: &str) -> Result<String> {
    if name == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading stdin")?;
        Ok(s)
    } else {
        std::fs::read_to_string(name).map_err(|e| match e.kind() {
            // A binary file handed to a text format: say so, not "stream did not contain
            // valid UTF-8".
            std::io::ErrorKind::InvalidData => anyhow::anyhow!(
                "{name}: cannot read: not UTF-8 text (a binary file? the one binary format \
                 read is Detour's navmesh .bin, by its content)"
            ),
            _ => anyhow::Error::new(e).context(format!("{name}: cannot read")),
        })
    }
}

/// Reads a whole file's bytes, or stdin's for `-`.
pub fn read_bytes(name: &str) -> Result<Vec<u8>> {
    if name == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .context("reading stdin")?;
        Ok(b)
    } else {
        std::fs::read(name).with_context(|| format!("{name}: cannot read"))
    }
}

/// Writes bytes to a file, or stdout for `-`.
pub fn write_bytes(name: &str, bytes: &[u8]) -> Result<()> {
    if name == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes).context("writing stdout")?;
        out.flush().context("writing stdout")
    } else {
        create_parent(name)?;
        std::fs::write(name, bytes).with_context(|| format!("{name}: cannot write"))
    }
}

/// Creates the folder a file goes into, if it names one.
fn create_parent(name: &str) -> Result<()> {
    if let Some(dir) = Path::new(name)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create folder", dir.display()))?;
    }
    Ok(())
}

/// Reads a path file (`-` for stdin).
pub fn read_path(name: &str, format: Option<Format>) -> Result<PathData> {
    let text = read_text(name)?;
    let format = format
        .or_else(|| Format::from_extension(name))
        .unwrap_or_else(|| Format::sniff(&text));
    let shown = if name == "-" { "<stdin>" } else { name };
    Ok(parse_path(&text, format, shown)?)
}

/// Writes a path file (`-` for stdout); JSON unless `--format` or the extension says CSV.
/// Streams point by point through a buffer: no copy of the whole file in memory.
pub fn write_path_file<P: Point>(name: &str, format: Option<Format>, points: &[P]) -> Result<()> {
    let format = format
        .or_else(|| Format::from_extension(name))
        .unwrap_or(Format::Json);
    if name == "-" {
        let out = BufWriter::new(std::io::stdout().lock());
        Ok(write_path_to(points, format, out, "<stdout>")?)
    } else {
        create_parent(name)?;
        let file = std::fs::File::create(name).with_context(|| format!("{name}: cannot write"))?;
        Ok(write_path_to(points, format, BufWriter::new(file), name)?)
    }
}

/// A navmesh file as read by [`read_navmesh`]: the mesh and, for a scene JSON, its holes
/// (obstacles to draw).
pub struct NavMeshFile {
    pub mesh: NavMesh,
    pub holes: Vec<Vec<DVec2>>,
}

/// A flat reading's refusal of an OBJ file's polygons (what the reader could not repair:
/// floors over one another in plan view, faces it would have to drop), with how to read
/// the file instead: as a layered navmesh (`--up`); on the same line, as every error of
/// the CLI. Syntax errors (a column named) are left as they are.
fn with_surface_hint(e: pathsmooth::Error, format: MeshFormat) -> anyhow::Error {
    let polygons_refused = matches!(
        e,
        pathsmooth::Error::Parse { column: 0, .. } | pathsmooth::Error::InvalidPolygon { .. }
    );
    if polygons_refused && format == MeshFormat::Obj {
        anyhow::anyhow!(
            "{e}; --up y (or z) reads the file as a layered navmesh instead, whose floors may \
             lie over one another and which drops and counts the faces it cannot use"
        )
    } else {
        e.into()
    }
}

/// Reads a navmesh (`-` for stdin): a scene JSON, a polyanya `.mesh` or an OBJ file, the
/// format from the extension, else from the text; OBJ vertices are projected on `plane`.
pub fn read_navmesh(name: &str, plane: GroundPlane) -> Result<NavMeshFile> {
    let text = read_text(name)?;
    let format = MeshFormat::from_extension(name).unwrap_or_else(|| MeshFormat::sniff(&text));
    let shown = if name == "-" { "<stdin>" } else { name };
    let mesh = parse(&text, format, plane, shown).map_err(|e| with_surface_hint(e, format))?;
    // The scene parsed, so its holes are there to draw.
    let holes = match format {
        MeshFormat::SceneJson => serde_json::from_str::<Scene>(&text)
            .map(|s| {
                s.holes
                    .iter()
                    .map(|h| h.iter().map(|&[x, y]| DVec2::new(x, y)).collect())
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    Ok(NavMeshFile { mesh, holes })
}
