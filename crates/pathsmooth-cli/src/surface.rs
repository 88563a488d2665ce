//! Navmesh surfaces in the CLI (what `plan` and `bench --navmesh` share): reading a layered
//! navmesh (any format the library reads: the navmesh JSON of `docs/navmesh-json.md`,
//! Recast and rerecast JSON, Godot scenes, Detour binaries, OBJ and polyanya meshes read
//! in 3D; or level geometry baked on the spot), 2D or 3D points on the command line, random
//! points on a surface, and writing a path on a surface with each point's polygon and
//! flags.

use std::io::{BufWriter, Write};

use anyhow::{bail, Context, Result};
use glam::{DVec2, DVec3};
use pathsmooth::io::Format;
use pathsmooth::navmesh::{
    read_surface as read_surface_bytes, read_surface_with_detail, SurfaceFormat,
};
use pathsmooth::navmesh::{
    GroundPlane, PointFlags, Surface, SurfaceOptions, SurfacePoint, SurfaceQuery, UpAxis,
};

use crate::files::{read_bytes, read_navmesh};
use crate::methods::parse_xy;

/// A point given on the command line as `X,Y` (a 2D map or scene) or `X,Y,Z` (a layered
/// navmesh, in world axes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Coords {
    D2(DVec2),
    D3(DVec3),
}

/// Parses `X,Y` or `X,Y,Z` (finite numbers).
pub fn parse_coords(s: &str) -> std::result::Result<Coords, String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != 3 {
        return parse_xy(s).map(Coords::D2);
    }
    let mut v = [0.0; 3];
    for (slot, t) in v.iter_mut().zip(&parts) {
        let t = t.trim();
        *slot = t
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{t}` is not a finite number"))?;
    }
    Ok(Coords::D3(DVec3::from_array(v)))
}

impl std::fmt::Display for Coords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Coords::D2(p) => write!(f, "{},{}", p.x, p.y),
            Coords::D3(p) => write!(f, "{},{},{}", p.x, p.y, p.z),
        }
    }
}

/// How a navmesh file is read as a surface, and where its points are on it: the options
/// every command that reads one takes.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SurfaceArgs {
    /// Weld a navmesh's vertices within this distance (world units) when reading it
    /// (default: 10⁻⁶ of the mesh's size; 0 merges exact copies only).
    #[arg(long, value_name = "DISTANCE")]
    pub weld: Option<f64>,
    /// How far above or below a floor a point may be and still be on it (world units;
    /// default: the bake's agent climb when the file has one, else 0.25).
    #[arg(long, value_name = "HEIGHT")]
    pub climb: Option<f64>,
    /// The detail mesh of a Recast or rerecast JSON poly mesh, from a file of its own.
    #[arg(long, value_name = "FILE")]
    pub detail_mesh: Option<String>,
}

impl SurfaceArgs {
    /// The library's options for reading with `up` (the default's y when `None`).
    fn options(&self, up: Option<UpAxis>) -> Result<SurfaceOptions> {
        if let Some(w) = self.weld.filter(|w| !(w.is_finite() && *w >= 0.0)) {
            bail!("--weld {w}: expected a finite number ≥ 0");
        }
        Ok(SurfaceOptions {
            weld: self.weld,
            ..SurfaceOptions::new(up.unwrap_or_default())
        })
    }

    /// Sets the query's climb to `--climb`, when given.
    pub fn apply(&self, query: &mut SurfaceQuery) -> Result<()> {
        if let Some(c) = self.climb {
            query.set_climb(c).context("--climb")?;
        }
        Ok(())
    }
}

/// Is the file `name` a 3D navmesh by its content (navmesh JSON, Recast or rerecast JSON,
/// a Godot scene, a Detour binary)? OBJ and polyanya meshes are 2D unless the points or
/// `--up` say otherwise. Reads it unless it is stdin (`-`, then no).
pub fn is_surface_file(name: &str) -> bool {
    name != "-"
        && std::fs::read(name).is_ok_and(|b| {
            matches!(
                SurfaceFormat::sniff(&b),
                Some(
                    SurfaceFormat::NavmeshJson
                        | SurfaceFormat::RecastJson
                        | SurfaceFormat::RerecastJson
                        | SurfaceFormat::Godot
                        | SurfaceFormat::Detour
                )
            )
        })
}

/// Reads a navmesh file (`-` for stdin) as a surface, in any format the library reads
/// (`pathsmooth::navmesh::read_surface`: the navmesh JSON, Recast's and
/// rerecast's JSON, Godot scenes, Detour binaries, OBJ and polyanya meshes), with
/// `--detail-mesh` beside it when given; `up` for the formats that do not fix theirs (an
/// explicit `up` that differs from a file's own is an error naming both). What the reader
/// repaired is printed on stderr.
pub fn read_surface(name: &str, up: Option<UpAxis>, args: &SurfaceArgs) -> Result<Surface> {
    let bytes = read_bytes(name)?;
    let shown = if name == "-" { "<stdin>" } else { name };
    if SurfaceFormat::sniff(&bytes).is_none() && bytes.trim_ascii_start().starts_with(b"{") {
        bail!(
            "{shown}: 3D points need a layered navmesh (the navmesh JSON with `vertices` and \
             `polygons`, Recast's JSON, a Godot scene, a Detour binary or an OBJ file); this \
             JSON is not one (a scene takes --from X,Y)"
        );
    }
    let options = args.options(up)?;
    let surface = match &args.detail_mesh {
        Some(detail) => read_surface_with_detail(&bytes, &read_bytes(detail)?, shown, &options)?,
        None => read_surface_bytes(&bytes, shown, &options)?,
    };
    if let Some(up) = up.filter(|&u| u != surface.up()) {
        bail!(
            "{shown}: the navmesh is {} up (its format says so) but --up says {up}; drop --up \
             or make them agree",
            surface.up()
        );
    }
    let report = surface.load_report();
    if !report.is_clean() {
        eprintln!(
            "{shown}: read {} polygons: {report}",
            surface.num_polygons()
        );
    }
    Ok(surface)
}

/// How a navmesh file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// A flat navmesh (a scene, `.mesh`, an OBJ file on its ground plane): the surface of
    /// one floor ([`read_flat_surface`]), 2D ends, a path written in 2D.
    Flat,
    /// A layered navmesh (the navmesh JSON, an engine's file, an OBJ file in 3D, a baked
    /// level): 3D or plan-view ends, a path written in 3D.
    Layered,
}

impl Reading {
    /// What a file's header line says of its frame: `flat`, or the axis `up`.
    pub fn frame(self, up: UpAxis) -> String {
        match self {
            Reading::Flat => "flat".to_string(),
            Reading::Layered => format!("{up} up"),
        }
    }
}

/// A flat navmesh file (`files::read_navmesh`) as the surface of one floor (z up, every
/// height 0), as the library's navmesh worlds make it, and a scene's holes (to draw).
pub fn read_flat_surface(name: &str, plane: GroundPlane) -> Result<(Surface, Vec<Vec<DVec2>>)> {
    let loaded = read_navmesh(name, plane)?;
    Ok((
        Surface::from_navmesh(&loaded.mesh, UpAxis::Z)?,
        loaded.holes,
    ))
}

/// A surface from navmesh JSON text (the bake command's output).
#[cfg(feature = "bake")]
pub fn surface_from_json(text: &str, shown: &str) -> Result<Surface> {
    Ok(pathsmooth::navmesh::parse_surface_json(
        text,
        shown,
        &SurfaceOptions::default(),
    )?)
}

/// The names of a point's flags, `|` between them (empty for a plain corner).
pub fn flag_names(f: PointFlags) -> String {
    let names: Vec<&str> = [
        (PointFlags::START, "start"),
        (PointFlags::END, "end"),
        (PointFlags::LINK_START, "link-start"),
        (PointFlags::LINK_END, "link-end"),
    ]
    .into_iter()
    .filter(|&(b, _)| f.contains(b))
    .map(|(_, n)| n)
    .collect();
    names.join("|")
}

/// A number as the library's path writer prints it in CSV: the shortest round-trip digits,
/// with an exponent only outside [1e-4, 1e16).
fn csv_number(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        format!("{v:?}")
    } else {
        format!("{v}")
    }
}

/// Writes a path on a surface: CSV `x,y,z,polygon,flags` (flags by name, `|` between
/// them), or JSON `{"up": "y", "points": [{"position": [x, y, z], "polygon": p, "flags":
/// ["start"]}, …]}` (numbers in Rust's shortest round-trip form, as the 2D writer).
fn write_surface_path<W: Write>(
    points: &[SurfacePoint],
    up: UpAxis,
    format: Format,
    out: &mut W,
) -> std::io::Result<()> {
    match format {
        Format::Csv => {
            out.write_all(b"x,y,z,polygon,flags\n")?;
            for p in points {
                let [x, y, z] = p.position.to_array().map(csv_number);
                writeln!(out, "{x},{y},{z},{},{}", p.polygon, flag_names(p.flags))?;
            }
        }
        Format::Json => {
            write!(out, "{{\"up\":\"{up}\",\"points\":[")?;
            for (k, p) in points.iter().enumerate() {
                let flags: Vec<String> = flag_names(p.flags)
                    .split('|')
                    .filter(|n| !n.is_empty())
                    .map(|n| format!("\"{n}\""))
                    .collect();
                write!(
                    out,
                    "{}{{\"position\":[{:?},{:?},{:?}],\"polygon\":{},\"flags\":[{}]}}",
                    if k == 0 { "" } else { "," },
                    p.position.x,
                    p.position.y,
                    p.position.z,
                    p.polygon,
                    flags.join(",")
                )?;
            }
            out.write_all(b"]}\n")?;
        }
    }
    out.flush()
}

/// Writes a path on a surface to a file (`-` for stdout), JSON unless the extension says
/// CSV (see [`write_surface_path`]).
pub fn write_surface_path_file(name: &str, points: &[SurfacePoint], up: UpAxis) -> Result<()> {
    let format = Format::from_extension(name).unwrap_or(Format::Json);
    if name == "-" {
        let mut out = BufWriter::new(std::io::stdout().lock());
        write_surface_path(points, up, format, &mut out).context("writing stdout")
    } else {
        if let Some(dir) = std::path::Path::new(name)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
        {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot create folder", dir.display()))?;
        }
        let file = std::fs::File::create(name).with_context(|| format!("{name}: cannot write"))?;
        write_surface_path(points, up, format, &mut BufWriter::new(file))
            .with_context(|| format!("{name}: cannot write"))
    }
}

/// A small deterministic generator (SplitMix64) for the bench's random queries.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The items (a surface's polygons, [`Surface::pieces`], or a flat mesh's triangles,
/// `NavMesh::pieces`) of the largest connected piece of `pieces` (each item's piece), in
/// order; the lowest-numbered piece on a tie.
pub fn largest_piece(pieces: &[u32]) -> Vec<u32> {
    let mut sizes = vec![0usize; pieces.iter().map(|&p| p as usize + 1).max().unwrap_or(0)];
    for &p in pieces {
        sizes[p as usize] += 1;
    }
    let Some(best) = (0..sizes.len()).max_by_key(|&i| (sizes[i], std::cmp::Reverse(i))) else {
        return Vec::new();
    };
    (0..pieces.len() as u32)
        .filter(|&p| pieces[p as usize] == best as u32)
        .collect()
}

/// A random point inside polygon `p` (a random convex combination of its corners, pulled
/// a little towards its centre), in 3D on the polygon.
pub fn random_point(surface: &Surface, p: u32, rng: &mut Rng) -> DVec3 {
    let corners: Vec<DVec3> = surface
        .polygon(p)
        .iter()
        .map(|&v| surface.vertices()[v as usize])
        .collect();
    let centre = corners.iter().copied().sum::<DVec3>() / corners.len() as f64;
    let weights: Vec<f64> = corners.iter().map(|_| rng.unit() + 1e-3).collect();
    let sum: f64 = weights.iter().sum();
    let q: DVec3 = corners
        .iter()
        .zip(&weights)
        .map(|(&c, &w)| c * (w / sum))
        .sum();
    let q = centre + (q - centre) * 0.9;
    // On the polygon's floor exactly (its corners may be a rounding off one plane).
    let up = surface.up();
    let plan = up.plan(q);
    up.join(plan, surface.height_at(p, plan))
}
