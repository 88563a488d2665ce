//! Wavefront OBJ polygon meshes (the polygon-mesh dumps Recast writes): reader and writer.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`parse_obj`].)

use std::fmt::Write as _;
use std::str::FromStr;

use glam::{DVec2, DVec3};

use super::polygons::{ids_by_index, triangulate};
use super::text::{error, number, tokens, Token};
use crate::error::{excerpt, Result};
use crate::navmesh::mesh::NavMesh;
use crate::navmesh::surface::{Surface, SurfaceOptions, UpAxis};

/// Which two 3D axes of an OBJ file are the navmesh's ground: `Xz` (y is up: Recast, Unity,
/// glTF) or `Xy` (z is up). Parses from and prints as `"xz"` / `"xy"`.
///
/// ```
/// use pathsmooth::navmesh::GroundPlane;
/// assert_eq!("xy".parse::<GroundPlane>(), Ok(GroundPlane::Xy));
/// assert_eq!(GroundPlane::default().to_string(), "xz");
/// assert!("yz".parse::<GroundPlane>().is_err());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum GroundPlane {
    /// 2D point = (x, z); y is up.
    #[default]
    Xz,
    /// 2D point = (x, y); z is up.
    Xy,
}

impl FromStr for GroundPlane {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "xz" => Ok(GroundPlane::Xz),
            "xy" => Ok(GroundPlane::Xy),
            _ => Err(format!(
                "unknown ground plane `{}`: expected xz (y up) or xy (z up)",
                excerpt(s)
            )),
        }
    }
}

impl std::fmt::Display for GroundPlane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GroundPlane::Xz => "xz",
            GroundPlane::Xy => "xy",
        })
    }
}

impl GroundPlane {
    /// The 2D point of a 3D vertex.
    fn project(self, [x, y, z]: [f64; 3]) -> DVec2 {
        match self {
            GroundPlane::Xz => DVec2::new(x, z),
            GroundPlane::Xy => DVec2::new(x, y),
        }
    }

    /// The 3D vertex (height 0) of a 2D point.
    fn lift(self, p: DVec2) -> [f64; 3] {
        match self {
            GroundPlane::Xz => [p.x, 0.0, p.y],
            GroundPlane::Xy => [p.x, p.y, 0.0],
        }
    }
}

/// Wavefront OBJ polygon meshes (the polygon-mesh dumps Recast writes): reader and writer.
///
/// Read: `v x y z [w]` vertices and `f a b c …` faces, whose references may be `a`,
/// `a/t`, `a//n` or `a/t/n`, 1-based or negative (relative to the vertices defined so
/// far). Every other statement (`vt`, `vn`, `o`, `g`, `s`, `usemtl`, `l`, …) and `#`
/// comments are ignored. The 2D navmesh is the faces projected on the ground plane:
/// [`GroundPlane::Xz`] (y up, as in Recast, Unity and glTF; the default) or
/// [`GroundPlane::Xy`] (z up). Face `i` of the file (counting from 0) gets id `i`. The
/// faces then go through [`NavMesh::from_polygons`]'s checks. What engines' exports hold
/// and those checks refuse — faces that each carry their own copies of shared vertices
/// (Unity's `NavMesh.CalculateTriangulation`), T-junctions at tile seams — is repaired as
/// [`parse_obj_surface`] repairs it (welded within [`DEFAULT_WELD`](crate::navmesh::DEFAULT_WELD)
/// of the mesh's size, T-junctions split; the ground unchanged) when nothing is lost: no
/// face dropped, no edge left unjoined, one floor in plan view
/// ([`NavMesh::from_surface`]). Otherwise the checks' error is reported at the face's or
/// vertex's line: two vertices that project to the same point without being one (a
/// multi-level mesh) are an error, since this is a 2D navmesh.
///
/// [`parse_obj_surface`] reads the same statements as a 3D, possibly multi-level
/// [`Surface`] instead: no projection, vertices welded, floors free to overlap in plan view.
///
/// Cost: O(size of the file) plus [`NavMesh::from_polygons`] (or
/// [`Surface::from_polygons`]).
///
/// Parses an OBJ file's faces into a navmesh, projected on `plane`; `file` names the text
/// in errors. (See above.)
///
/// Errors: [`Error::Parse`](crate::Error::Parse) with the line (and column, for a bad
/// token) for a vertex with too few coordinates, non-numbers, NaN or infinite coordinates,
/// a face with fewer than 3 vertices, a reference that is 0, malformed or out of range,
/// and every bad polygon [`NavMesh::from_polygons`] refuses.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{parse_obj, GroundPlane};
/// let text = "# two quads, y up\nv 0 0 0\nv 1 0 0\nv 2 0 0\nv 2 0 1\nv 1 0 1\nv 0 0 1\n\
///             f 1 2 5 6\nf 2/1 3/2 4/3 -2/4\n";
/// let mesh = parse_obj(text, "quads.obj", GroundPlane::Xz)?;
/// assert_eq!(mesh.num_polygons(), 2);
/// assert_eq!(mesh.polygon_of(mesh.locate(DVec2::new(1.5, 0.5)).unwrap()), 1);
/// let err = parse_obj("v 0 0 0\nv 1 0 0\nf 1 2 3\n", "bad.obj", GroundPlane::Xz).unwrap_err();
/// assert!(err.to_string().starts_with("bad.obj:3:"));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_obj(text: &str, file: &str, plane: GroundPlane) -> Result<NavMesh> {
    let obj = read(text, file)?;
    let vertices: Vec<DVec2> = obj.vertices.iter().map(|&c| plane.project(c)).collect();
    match triangulate(&vertices, &obj.faces) {
        Ok(built) => Ok(NavMesh::from_triangulated(
            built,
            ids_by_index(obj.faces.len()),
        )),
        Err(issue) => repaired(&obj, plane).ok_or_else(|| {
            let line = obj.line_of(issue.polygon, issue.vertex).unwrap_or(1);
            // The messages count from 0, as the face ids do; say so next to OBJ's
            // 1-based file.
            error(
                file,
                line,
                0,
                format!(
                    "{} (faces and vertices counted from 0 in this message)",
                    issue.message
                ),
            )
        }),
    }
}

/// The faces that the strict reading refused, read as engines write them: as a surface
/// (duplicated vertices welded, T-junctions split: [`parse_obj_surface`]'s defaults) taken
/// flat ([`NavMesh::from_surface`]), when that loses nothing — no face dropped (a sliver,
/// a copy), no edge left unjoined, one floor in plan view. Welding and splitting leave
/// the ground as it was, so the mesh is the one the file means; anything else is the
/// strict reading's error.
fn repaired(obj: &Obj, plane: GroundPlane) -> Option<NavMesh> {
    let vertices: Vec<DVec3> = obj.vertices.iter().map(|&c| DVec3::from_array(c)).collect();
    let options = SurfaceOptions::new(plane.into());
    let surface = Surface::build(&vertices, &obj.faces, (&[], &[]), &options, None).ok()?;
    let r = surface.load_report();
    let lossless = r.degenerate.is_empty() && r.duplicates.is_empty() && r.unjoined_edges == 0;
    lossless.then(|| NavMesh::from_surface(&surface).ok())?
}

/// Parses an OBJ file's faces into a 3D [`Surface`]: every `v` is a 3D vertex
/// (`options.up` says which axis is height), every `f` a polygon (face `i` of the file,
/// counting from 0, is input polygon `i`), built as `options` say
/// ([`Surface::from_polygons_with`]: by default welded within a tolerance derived from the
/// mesh's size, so per-triangle exports such as Unity's `NavMesh.CalculateTriangulation`
/// join up; T-junctions at tile seams split; slivers and repeated faces dropped and
/// counted in [`Surface::load_report`]). Floors may overlap in plan view: a multi-level
/// mesh is read as it is. `file` names the text in errors.
///
/// Errors: [`Error::Parse`](crate::Error::Parse) at the line (and column, for a bad
/// token) of everything [`parse_obj`] refuses while reading, and at the face's or
/// vertex's line of everything [`Surface::from_polygons_with`] refuses (its message, with
/// faces and vertices counted from 0); [`Error::BadParameter`](crate::Error::BadParameter)
/// for bad options; [`Error::InvalidPolygon`](crate::Error::InvalidPolygon) naming the
/// file when no face has area in plan view.
///
/// Cost: O(size of the file) plus [`Surface::from_polygons_with`].
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::parse_obj_surface;
/// use pathsmooth::navmesh::{SurfaceOptions, UpAxis};
/// // A floor at height 0 and a bridge at height 3 over it (y up).
/// let text = "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 1 3 1\nv 3 3 1\nv 3 3 3\nv 1 3 3\n\
///             f 1 2 3 4\nf 5 6 7 8\n";
/// let s = parse_obj_surface(text, "two.obj", &SurfaceOptions::new(UpAxis::Y))?;
/// assert_eq!(s.locate(DVec3::new(2.0, 3.1, 2.0), 0.5)?, 1);
/// let err = parse_obj_surface("v 0 0 0\nv 1 0 0\nv 1 0 1\nv 2 0 0\nf 1 2 3\nf 1 3 2 4\n", "bow.obj", &SurfaceOptions::new(UpAxis::Y)).unwrap_err();
/// assert!(err.to_string().starts_with("bow.obj:6:"), "{err}");
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_obj_surface(text: &str, file: &str, options: &SurfaceOptions) -> Result<Surface> {
    let obj = read(text, file)?;
    let vertices: Vec<DVec3> = obj.vertices.iter().map(|&c| DVec3::from_array(c)).collect();
    Surface::build(&vertices, &obj.faces, (&[], &[]), options, None).map_err(|issue| {
        let Some(line) = obj.line_of(issue.polygon, issue.vertex) else {
            return match issue.error {
                // About the whole mesh: named by the file.
                crate::Error::InvalidPolygon { message } => crate::Error::InvalidPolygon {
                    message: format!("{file}: {message}"),
                },
                // A bad parameter: the error as it is.
                error => error,
            };
        };
        let message = match issue.error {
            crate::Error::InvalidPolygon { message } => message,
            other => other.to_string(),
        };
        error(
            file,
            line,
            0,
            format!("{message} (faces and vertices counted from 0 in this message)"),
        )
    })
}

impl From<GroundPlane> for UpAxis {
    /// The up axis of a ground plane: `Xz` → `Y`, `Xy` → `Z`.
    fn from(plane: GroundPlane) -> Self {
        match plane {
            GroundPlane::Xz => UpAxis::Y,
            GroundPlane::Xy => UpAxis::Z,
        }
    }
}

impl From<UpAxis> for GroundPlane {
    /// The plan view of an up axis: `Y` → `Xz`, `Z` → `Xy`.
    fn from(up: UpAxis) -> Self {
        match up {
            UpAxis::Y => GroundPlane::Xz,
            UpAxis::Z => GroundPlane::Xy,
        }
    }
}

/// An OBJ file's vertices and faces (0-based references, every one checked to exist), with
/// the line of each.
struct Obj {
    vertices: Vec<[f64; 3]>,
    vertex_lines: Vec<usize>,
    faces: Vec<Vec<u32>>,
    face_lines: Vec<usize>,
}

impl Obj {
    /// The line of the face `polygon`, else of the vertex `vertex`, that a build issue names
    /// (both readers report an issue at the line it is about); `None` when it names neither.
    fn line_of(&self, polygon: Option<usize>, vertex: Option<usize>) -> Option<usize> {
        match (polygon, vertex) {
            (Some(p), _) => Some(self.face_lines[p]),
            (None, Some(v)) => Some(self.vertex_lines[v]),
            (None, None) => None,
        }
    }
}

/// Reads the `v` and `f` statements of an OBJ file (see [`parse_obj`]).
fn read(text: &str, file: &str) -> Result<Obj> {
    let mut vertices = Vec::new();
    let mut vertex_lines = Vec::new();
    let mut faces: Vec<Vec<u32>> = Vec::new();
    let mut face_lines = Vec::new();
    // Tokens grouped by line.
    let mut all = tokens(text, true).peekable();
    while let Some(first) = all.next() {
        let mut rest: Vec<Token> = Vec::new();
        while let Some(t) = all.next_if(|t| t.line == first.line) {
            rest.push(t);
        }
        let at = |t: Token, m: String| error(file, t.line, t.column, m);
        match first.text {
            "v" => {
                at_least_three_fields(&rest, |n| {
                    format!(
                        "a vertex needs x, y and z, this one has {n} coordinates (too few fields)"
                    )
                })
                .map_err(|m| at(first, m))?;
                let mut c = [0.0; 3];
                for (k, t) in rest.iter().take(3).enumerate() {
                    c[k] = number(t.text).map_err(|m| at(*t, m))?;
                }
                vertices.push(c);
                vertex_lines.push(first.line);
            }
            "f" => {
                at_least_three_fields(&rest, |n| {
                    format!("a face needs at least 3 vertices, this one has {n}")
                })
                .map_err(|m| at(first, m))?;
                let mut face = Vec::with_capacity(rest.len());
                for t in &rest {
                    face.push(reference(t.text, vertices.len()).map_err(|m| at(*t, m))?);
                }
                faces.push(face);
                face_lines.push(first.line);
            }
            _ => {}
        }
    }
    // Positive references may point forward; every one must exist by the end.
    for (f, face) in faces.iter().enumerate() {
        if let Some(&v) = face.iter().find(|&&v| v as usize >= vertices.len()) {
            return Err(error(
                file,
                face_lines[f],
                0,
                format!(
                    "face {f} uses vertex {}, but the file has {} vertices",
                    v as u64 + 1,
                    vertices.len()
                ),
            ));
        }
    }
    Ok(Obj {
        vertices,
        vertex_lines,
        faces,
        face_lines,
    })
}

/// Checks that a `v` or `f` statement has the 3 fields after its keyword that both need;
/// otherwise the message `too_few` makes from the number it has.
fn at_least_three_fields(
    fields: &[Token],
    too_few: impl FnOnce(usize) -> String,
) -> std::result::Result<(), String> {
    if fields.len() < 3 {
        return Err(too_few(fields.len()));
    }
    Ok(())
}

/// An OBJ vertex reference (`a`, `a/t`, `a//n`, `a/t/n`; 1-based, or negative relative to
/// the `defined` vertices so far) as a 0-based index.
fn reference(token: &str, defined: usize) -> std::result::Result<u32, String> {
    let head = token.split('/').next().unwrap_or("");
    let k: i64 = head
        .parse()
        .map_err(|_| format!("expected a vertex reference, found `{}`", excerpt(token)))?;
    let index = match k {
        0 => return Err("vertex references start at 1 (0 is not a vertex)".into()),
        k if k > 0 => k - 1,
        k => {
            let i = defined as i64 + k;
            if i < 0 {
                return Err(format!(
                    "vertex reference {k} reaches before the first vertex ({defined} defined so far)"
                ));
            }
            i
        }
    };
    u32::try_from(index)
        .ok()
        .filter(|&i| i < u32::MAX)
        .ok_or_else(|| format!("vertex reference {k} is too large"))
}

/// Writes `mesh` as OBJ: its vertices at height 0 on `plane`, then one face per polygon
/// ([`NavMesh::polygon`], counter-clockwise in the navmesh's (y-up) plane), 1-based.
/// Numbers are written in Rust's shortest round-trip form, so [`parse_obj`] with the same
/// plane reads back the same navmesh. Polygon ids are not part of the format: polygon `i`
/// is face `i`.
///
/// Cost: O(vertices + polygon vertices).
///
/// ```
/// use pathsmooth::navmesh::{parse_obj, write_obj, GroundPlane};
/// use pathsmooth::navmesh::{NavMesh, Scene};
/// let scene = Scene { boundary: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]], holes: vec![] };
/// let mesh = NavMesh::from_scene(&scene)?;
/// let text = write_obj(&mesh, GroundPlane::Xy);
/// assert!(text.contains("\nf "));
/// assert_eq!(parse_obj(&text, "again.obj", GroundPlane::Xy)?.num_triangles(), 2);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn write_obj(mesh: &NavMesh, plane: GroundPlane) -> String {
    let mut out = format!(
        "# pathsmooth navmesh: {} vertices, {} polygons, ground plane {plane}\n",
        mesh.vertices().len(),
        mesh.num_polygons()
    );
    for &p in mesh.vertices() {
        let [x, y, z] = plane.lift(p);
        let _ = writeln!(out, "v {x} {y} {z}");
    }
    for i in 0..mesh.num_polygons() {
        out.push('f');
        for v in mesh.polygon(i) {
            let _ = write!(out, " {}", v + 1);
        }
        out.push('\n');
    }
    out
}
