//! Recast's own structures as JSON — `rcPolyMesh` and, optionally, its `rcPolyMeshDetail`,
//! with Recast's field names, as dumps of C++ Recast and of its ports write them — in to
//! [`SurfaceData`]. Needs the `serde` feature.
//!
//! (A private module: its public items are re-exported by `navmesh`; the description
//! of what it does is on [`parse_recast_json`].)

use serde_json::Value;

use super::rerecast_json::widen;
use crate::error::{excerpt, Error, Result};
use crate::navmesh::surface::{Detail, SurfaceData, UpAxis};

/// Recast's `RC_MESH_NULL_IDX`: the padding after a polygon's last vertex.
const NO_INDEX: u64 = 0xffff;

/// The keys a wrapper object may hold the poly mesh under (shape (b)), in the order they are
/// looked for.
pub const POLY_KEYS: [&str; 5] = ["polyMesh", "pmesh", "poly_mesh", "polymesh", "PolyMesh"];

/// The keys the detail mesh may be under, next to the poly mesh's fields (shape (a)) or next
/// to the poly mesh's key (shape (b)), in the order they are looked for.
pub const DETAIL_KEYS: [&str; 8] = [
    "detailMesh",
    "dmesh",
    "detail",
    "polyMeshDetail",
    "poly_mesh_detail",
    "detail_mesh",
    "detailmesh",
    "PolyMeshDetail",
];

/// Whether `text` looks like a Recast poly mesh dump: a JSON object whose text has the
/// `"polys"` and `"nvp"` fields of `rcPolyMesh`. For picking a reader; [`parse_recast_json`]
/// does the real checks.
///
/// Cost: O(text length).
///
/// ```
/// use pathsmooth::navmesh::is_recast_json;
/// assert!(is_recast_json(r#"{"verts": [], "polys": [], "nvp": 6}"#));
/// assert!(!is_recast_json(r#"{"up": "y", "vertices": [], "polygons": []}"#));
/// ```
pub fn is_recast_json(text: &str) -> bool {
    text.trim_start().starts_with('{') && text.contains("\"polys\"") && text.contains("\"nvp\"")
}

/// Recast's own structures as JSON — `rcPolyMesh` and, optionally, its `rcPolyMeshDetail`,
/// with Recast's field names, as dumps of C++ Recast and of its ports write them — in to
/// [`SurfaceData`]. Needs the `serde` feature.
///
/// Accepted shapes (a JSON object either way):
///
/// - **(a)** the poly mesh's fields at the top level, and the detail mesh, if any, as an
///   object under one of [`DETAIL_KEYS`] (`{"verts": …, "polys": …, …, "dmesh": {…}}`);
/// - **(b)** a wrapper holding the poly mesh under one of [`POLY_KEYS`] and the detail mesh,
///   if any, under one of [`DETAIL_KEYS`] (`{"pmesh": {…}, "dmesh": {…}}`).
///
/// Poly mesh fields: `verts` (cells, `[x, y, z]` triples or a flat list; whole numbers 0 to
/// 65535), `polys` (per polygon `nvp` vertex indices, or `2·nvp` entries as `rcPolyMesh`
/// stores them — the indices, then the neighbour data, which is not read — as a flat list or
/// one array per polygon; `0xffff`, `RC_MESH_NULL_IDX`, pads a polygon with fewer than `nvp`
/// vertices), `nvp`, `bmin`, `cs`, `ch`, and optionally `npolys`, `nverts`, `maxpolys`,
/// `areas`, `flags`; `regs`, `bmax`, `borderSize`, `maxEdgeError` and unknown fields are
/// ignored. Detail mesh fields: `meshes` (`[vertBase, vertCount, triBase, triCount]` per
/// polygon), `verts` (world units), `tris` (`[a, b, c, edge flags]`, the indices local to the
/// polygon's sub-mesh; `[a, b, c]` is read with flags 0), each nested or flat, and optionally
/// `nmeshes`, `nverts`, `ntris`.
///
/// Reads a JSON dump of Recast's `rcPolyMesh` (and its `rcPolyMeshDetail`, when present) as
/// [`SurfaceData`], y up; the shapes and fields are above.
/// `file` names the input in errors.
///
/// Vertex `i` is `bmin + (x·cs, y·ch, z·cs)` of its cells, computed in `f32` as Recast and
/// Detour do, and every `f32` (these, and the detail mesh's vertices) is taken as its
/// shortest decimal, as [`parse_rerecast_json`](super::parse_rerecast_json) and the navmesh
/// JSON take them. Polygon `p` is the indices of its first `nvp` entries up to the first
/// `0xffff`. How many polygons there are: `npolys` if given, else the length of `areas`, of
/// `flags` or of `regs`, else as many as the list holds; with `2·nvp` entries per polygon
/// unless `nvp` entries per polygon fit that count exactly (or, with no count at all, unless
/// the list is not a whole number of `2·nvp` blocks). A list longer than the count (Recast's
/// arrays hold `maxpolys` polygons and `maxverts` vertices) is read up to the count; the
/// same for `nverts` and the detail mesh's counts. Areas are kept as Recast numbers them (63,
/// `RC_WALKABLE_AREA`, is walkable ground), and flags as they are; refs and links empty; the
/// agent unknown (Recast keeps it in its build config, not in the mesh).
///
/// Errors: [`Error::Parse`] (line, column) for malformed JSON; [`Error::InvalidPolygon`]
/// naming the file and the field, with the element's index, for a missing or mistyped field
/// (`` `pmesh.polys[14]`: expected a whole number 0 to 65535, found -1 ``), a flat list that
/// is not a whole number of elements, an array row of the wrong length, `nvp` below 3, a
/// count larger than its list, a `polys` length that fits neither `nvp` nor `2·nvp` entries
/// per polygon, a polygon's vertex index out of range, `areas` or `flags` shorter than the
/// polygons, `cs` or `ch` not finite and positive, a non-finite `bmin` or detail vertex, and
/// an object that is only a detail mesh. The polygons and the detail mesh themselves are
/// checked by [`Surface::from_data`](crate::navmesh::Surface::from_data). Never a panic.
///
/// Cost: O(input size).
///
/// Source: M. Mononen, Recast (recastnavigation): `rcPolyMesh` and `rcPolyMeshDetail`
/// (`Recast.h`), their layout and `RC_MESH_NULL_IDX`.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::parse_recast_json;
/// // A ramp quad as rcPolyMesh stores it: nvp = 6, 2·nvp entries (indices, then neighbours).
/// let text = r#"{"pmesh": {"verts": [[0,0,0],[0,2,4],[4,2,4],[4,0,0]],
///   "polys": [0,1,2,3,65535,65535, 65535,65535,65535,65535,65535,65535],
///   "npolys": 1, "nvp": 6, "areas": [63], "flags": [1],
///   "bmin": [10, 0, 20], "bmax": [12, 1, 22], "cs": 0.5, "ch": 0.25}}"#;
/// let data = parse_recast_json(text, "ramp.json")?;
/// assert_eq!(data.vertices[2], DVec3::new(12.0, 0.5, 22.0));
/// assert_eq!(data.polygons, vec![vec![0, 1, 2, 3]]);
/// assert_eq!((data.areas[0], data.flags[0]), (63, 1));
/// assert!(data.detail.is_none());
/// let e = parse_recast_json(&text.replace("[4,2,4]", "[4,2,-4]"), "ramp.json").unwrap_err();
/// assert_eq!(e.to_string(), "invalid polygon: ramp.json: `pmesh.verts[2][2]`: expected a whole number 0 to 65535, found -4");
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_recast_json(text: &str, file: &str) -> Result<SurfaceData> {
    let root: Value =
        serde_json::from_str(text).map_err(|e| Error::parse(file, e.line(), e.column(), e))?;
    let Value::Object(top) = &root else {
        return Err(bad(
            file,
            "expected a JSON object (Recast's rcPolyMesh)".to_string(),
        ));
    };
    fn detail_in(map: &serde_json::Map<String, Value>) -> Option<(&Value, String)> {
        DETAIL_KEYS
            .iter()
            .find_map(|&k| map.get(k).map(|v| (v, format!("{k}."))))
    }
    let (poly, poly_prefix, detail) = if top.contains_key("polys") {
        (&root, String::new(), detail_in(top))
    } else if let Some((key, v)) = POLY_KEYS.iter().find_map(|&k| top.get(k).map(|v| (k, v))) {
        (v, format!("{key}."), detail_in(top))
    } else if top.contains_key("meshes") && top.contains_key("tris") {
        return Err(bad(
            file,
            "this is a detail mesh (rcPolyMeshDetail: `meshes`, `tris`) without its poly mesh (rcPolyMesh: `verts`, `polys`)".to_string(),
        ));
    } else {
        return Err(bad(
            file,
            format!(
                "no poly mesh: expected Recast's rcPolyMesh fields (`verts`, `polys`, `nvp`, …) or one under {}",
                POLY_KEYS.map(|k| format!("`{k}`")).join(", ")
            ),
        ));
    };
    let r = Reader { file };
    let mut data = r.poly_mesh(poly, &poly_prefix)?;
    if let Some((d, prefix)) = detail.filter(|(d, _)| !d.is_null()) {
        data.detail = Some(r.detail(d, &prefix)?);
    }
    Ok(data)
}

/// [`parse_recast_json`] for a dump written as two files, as C++ Recast's users and its
/// ports' tests keep them: `poly` holds `rcPolyMesh` (either shape, its own detail mesh
/// ignored) and `detail` holds `rcPolyMeshDetail`'s fields at its top level (or under one
/// of [`DETAIL_KEYS`]). `file` names the poly mesh in errors, `file (detail mesh)` the
/// other.
///
/// Errors: those of [`parse_recast_json`] for each text; [`Error::InvalidPolygon`] when
/// `detail` has no detail mesh.
pub fn parse_recast_json_pair(poly: &str, detail: &str, file: &str) -> Result<SurfaceData> {
    let mut data = parse_recast_json(poly, file)?;
    let detail_file = format!("{file} (detail mesh)");
    let root: Value = serde_json::from_str(detail)
        .map_err(|e| Error::parse(&detail_file, e.line(), e.column(), e))?;
    let (value, prefix) = match &root {
        Value::Object(top) if top.contains_key("meshes") => (&root, String::new()),
        Value::Object(top) => DETAIL_KEYS
            .iter()
            .find_map(|&k| top.get(k).map(|v| (v, format!("{k}."))))
            .ok_or_else(|| {
                bad(
                    &detail_file,
                    "no detail mesh: expected rcPolyMeshDetail's fields (`meshes`, `verts`, `tris`)"
                        .to_string(),
                )
            })?,
        _ => {
            return Err(bad(
                &detail_file,
                "expected a JSON object (Recast's rcPolyMeshDetail)".to_string(),
            ));
        }
    };
    data.detail = Some(Reader { file: &detail_file }.detail(value, &prefix)?);
    Ok(data)
}

/// A problem with the data (not its syntax), naming the file.
fn bad(file: &str, message: String) -> Error {
    Error::InvalidPolygon {
        message: format!("{file}: {message}"),
    }
}

/// Reads fields, naming them (with their prefix) in errors.
struct Reader<'a> {
    file: &'a str,
}

/// A list's elements, and the length of its rows when it is an array of arrays.
struct Items<'v> {
    leaves: Vec<&'v Value>,
    row: Option<usize>,
    /// How each leaf is named: `field[i]` or `field[row][j]`.
    name: String,
}

impl Items<'_> {
    fn name(&self, i: usize) -> String {
        match self.row {
            Some(r) => format!("{}[{}][{}]", self.name, i / r, i % r),
            None => format!("{}[{i}]", self.name),
        }
    }
}

impl<'a> Reader<'a> {
    fn err(&self, field: &str, message: impl std::fmt::Display) -> Error {
        bad(self.file, format!("`{field}`: {message}"))
    }

    fn field<'v>(&self, obj: &'v Value, prefix: &str, key: &str) -> Result<Option<&'v Value>> {
        match obj {
            Value::Object(map) => Ok(map.get(key).filter(|v| !v.is_null())),
            other => Err(bad(
                self.file,
                format!(
                    "`{}`: expected an object, found {}",
                    prefix.trim_end_matches('.'),
                    kind(other)
                ),
            )),
        }
    }

    fn required<'v>(&self, obj: &'v Value, prefix: &str, key: &str) -> Result<&'v Value> {
        self.field(obj, prefix, key)?
            .ok_or_else(|| bad(self.file, format!("missing field `{prefix}{key}`")))
    }

    /// A list, flat or of equal-length rows.
    fn items<'v>(&self, v: &'v Value, name: String) -> Result<Items<'v>> {
        let Value::Array(list) = v else {
            return Err(self.err(&name, format!("expected an array, found {}", kind(v))));
        };
        let row = match list.first() {
            Some(Value::Array(first)) => Some(first.len()),
            _ => None,
        };
        let mut leaves = Vec::with_capacity(list.len() * row.unwrap_or(1));
        for (i, item) in list.iter().enumerate() {
            match (item, row) {
                (Value::Array(r), Some(n)) if r.len() == n => leaves.extend(r),
                (Value::Array(r), Some(n)) => {
                    return Err(self.err(
                        &format!("{name}[{i}]"),
                        format!("has {} elements, the rows before it {n}", r.len()),
                    ))
                }
                (Value::Array(_), None) => {
                    return Err(self.err(
                        &format!("{name}[{i}]"),
                        "an array among numbers: expected a flat list or one array per element",
                    ))
                }
                (other, Some(_)) => {
                    return Err(self.err(
                        &format!("{name}[{i}]"),
                        format!(
                            "expected an array like the rows before it, found {}",
                            kind(other)
                        ),
                    ))
                }
                (other, None) => leaves.push(other),
            }
        }
        Ok(Items { leaves, row, name })
    }

    /// A whole number in `0..=max` (a JSON integer, or a float with no fraction).
    fn whole(&self, v: &Value, name: &dyn Fn() -> String, max: u64) -> Result<u64> {
        let n = match v {
            Value::Number(n) => n.as_u64().or_else(|| {
                n.as_f64()
                    .filter(|x| x.fract() == 0.0 && *x >= 0.0 && *x <= max as f64)
                    .map(|x| x as u64)
            }),
            _ => None,
        };
        n.filter(|&n| n <= max).ok_or_else(|| {
            self.err(
                &name(),
                format!("expected a whole number 0 to {max}, found {}", shown(v)),
            )
        })
    }

    /// A finite `f32`.
    fn float(&self, v: &Value, name: &dyn Fn() -> String) -> Result<f32> {
        match v.as_f64() {
            Some(x) if (x as f32).is_finite() => Ok(x as f32),
            _ => Err(self.err(
                &name(),
                format!("expected a finite number, found {}", shown(v)),
            )),
        }
    }

    /// An optional count field.
    fn count(&self, obj: &Value, prefix: &str, key: &str) -> Result<Option<usize>> {
        self.field(obj, prefix, key)?
            .map(|v| {
                self.whole(v, &|| format!("{prefix}{key}"), u32::MAX as u64)
                    .map(|n| n as usize)
            })
            .transpose()
    }

    /// The first `count` of a list's elements (all of them without a count), as whole
    /// numbers up to `max`, in groups of `width`.
    fn groups(
        &self,
        items: &Items,
        width: usize,
        count: Option<usize>,
        max: u64,
    ) -> Result<Vec<Vec<u64>>> {
        if let Some(r) = items.row {
            if r != width {
                return Err(self.err(
                    &format!("{}[0]", items.name),
                    format!("has {r} elements, expected {width}"),
                ));
            }
        } else if !items.leaves.len().is_multiple_of(width) {
            return Err(self.err(
                &items.name,
                format!(
                    "{} numbers, not a whole number of groups of {width}",
                    items.leaves.len()
                ),
            ));
        }
        let have = items.leaves.len() / width;
        let n = self.take(&items.name, have, count)?;
        (0..n)
            .map(|g| {
                (0..width)
                    .map(|j| {
                        let i = g * width + j;
                        self.whole(items.leaves[i], &|| items.name(i), max)
                    })
                    .collect()
            })
            .collect()
    }

    /// How many of `have` elements to read for a `count`.
    fn take(&self, name: &str, have: usize, count: Option<usize>) -> Result<usize> {
        match count {
            Some(n) if n > have => Err(self.err(
                name,
                format!("holds {have} elements, fewer than its count {n}"),
            )),
            Some(n) => Ok(n),
            None => Ok(have),
        }
    }

    fn poly_mesh(&self, pm: &Value, p: &str) -> Result<SurfaceData> {
        let nvp = self.whole(self.required(pm, p, "nvp")?, &|| format!("{p}nvp"), 255)? as usize;
        if nvp < 3 {
            return Err(self.err(&format!("{p}nvp"), format!("is {nvp}, fewer than 3")));
        }
        let cs = self.float(self.required(pm, p, "cs")?, &|| format!("{p}cs"))?;
        let ch = self.float(self.required(pm, p, "ch")?, &|| format!("{p}ch"))?;
        if cs <= 0.0 || ch <= 0.0 {
            return Err(bad(
                self.file,
                format!("`{p}cs` {cs} and `{p}ch` {ch}: each must be finite and > 0"),
            ));
        }
        let bmin = self.items(self.required(pm, p, "bmin")?, format!("{p}bmin"))?;
        if bmin.row.is_some() || bmin.leaves.len() != 3 {
            return Err(self.err(&bmin.name, "expected [x, y, z]"));
        }
        let bmin: Vec<f32> = (0..3)
            .map(|i| self.float(bmin.leaves[i], &|| bmin.name(i)))
            .collect::<Result<_>>()?;

        let verts = self.items(self.required(pm, p, "verts")?, format!("{p}verts"))?;
        let nverts = self.count(pm, p, "nverts")?;
        let cells = self.groups(&verts, 3, nverts, 0xffff)?;
        let vertices = cells
            .iter()
            .map(|c| {
                let [x, y, z] = [c[0], c[1], c[2]].map(|q| q as u16);
                // In f32, as Recast and Detour compute it.
                glam::DVec3::new(
                    widen(bmin[0] + f32::from(x) * cs),
                    widen(bmin[1] + f32::from(y) * ch),
                    widen(bmin[2] + f32::from(z) * cs),
                )
            })
            .collect::<Vec<_>>();

        // How many polygons, and how the list is laid out.
        let polys = self.items(self.required(pm, p, "polys")?, format!("{p}polys"))?;
        let mut npolys = self.count(pm, p, "npolys")?;
        for key in ["areas", "flags", "regs"] {
            if npolys.is_some() {
                break;
            }
            if let Some(Value::Array(list)) = self.field(pm, p, key)? {
                npolys = Some(list.len());
            }
        }
        let total = polys.leaves.len();
        let stride = match (polys.row, npolys) {
            (Some(r), _) if r == nvp || r == 2 * nvp => r,
            (Some(r), _) => {
                return Err(self.err(
                    &format!("{}[0]", polys.name),
                    format!(
                        "has {r} entries, expected nvp = {nvp} or 2·nvp = {}",
                        2 * nvp
                    ),
                ))
            }
            // Exactly a whole count's worth: nvp or 2·nvp per polygon; more (Recast's
            // `maxpolys` buffer): rcPolyMesh's 2·nvp.
            (None, Some(n)) if n > 0 && total == n * nvp => nvp,
            (None, Some(n)) if total >= n * 2 * nvp && total.is_multiple_of(2 * nvp) => 2 * nvp,
            (None, None) if total.is_multiple_of(2 * nvp) => 2 * nvp,
            (None, None) if total.is_multiple_of(nvp) => nvp,
            (None, count) => {
                return Err(self.err(
                    &polys.name,
                    format!(
                    "{total} entries fit neither nvp = {nvp} nor 2·nvp = {} entries per polygon{}",
                    2 * nvp,
                    count
                        .map(|n| format!(" for {n} polygons"))
                        .unwrap_or_default()
                ),
                ))
            }
        };
        let n = self.take(&polys.name, total / stride, npolys)?;
        let mut polygons = Vec::with_capacity(n);
        for q in 0..n {
            let mut polygon = Vec::with_capacity(nvp);
            for j in 0..nvp {
                let i = q * stride + j;
                let index = self.whole(polys.leaves[i], &|| polys.name(i), 0xffff)?;
                if index == NO_INDEX {
                    break;
                }
                if index as usize >= vertices.len() {
                    return Err(self.err(
                        &polys.name(i),
                        format!(
                            "polygon {q}'s vertex {index} is out of range: there are {} vertices",
                            vertices.len()
                        ),
                    ));
                }
                polygon.push(index as u32);
            }
            polygons.push(polygon);
        }

        let per_polygon = |key: &str, max: u64| -> Result<Vec<u64>> {
            let Some(v) = self.field(pm, p, key)? else {
                return Ok(Vec::new());
            };
            let items = self.items(v, format!("{p}{key}"))?;
            if items.row.is_some() {
                return Err(self.err(&items.name, "expected a flat list, one per polygon"));
            }
            if items.leaves.len() < n {
                return Err(self.err(
                    &items.name,
                    format!("has {} elements for {n} polygons", items.leaves.len()),
                ));
            }
            (0..n)
                .map(|i| self.whole(items.leaves[i], &|| items.name(i), max))
                .collect()
        };
        let areas = per_polygon("areas", 255)?
            .into_iter()
            .map(|a| a as u8)
            .collect();
        let flags = per_polygon("flags", 0xffff)?
            .into_iter()
            .map(|f| f as u16)
            .collect();
        Ok(SurfaceData {
            vertices,
            polygons,
            areas,
            flags,
            ..SurfaceData::new(UpAxis::Y)
        })
    }

    fn detail(&self, dm: &Value, p: &str) -> Result<Detail> {
        let meshes = self.items(self.required(dm, p, "meshes")?, format!("{p}meshes"))?;
        let meshes = self.groups(&meshes, 4, self.count(dm, p, "nmeshes")?, u32::MAX as u64)?;
        let verts = self.items(self.required(dm, p, "verts")?, format!("{p}verts"))?;
        if verts.row.is_some_and(|r| r != 3)
            || (verts.row.is_none() && !verts.leaves.len().is_multiple_of(3))
        {
            return Err(self.err(&verts.name, "expected (x, y, z) vertices"));
        }
        let nv = self.take(
            &verts.name,
            verts.leaves.len() / 3,
            self.count(dm, p, "nverts")?,
        )?;
        let vertices = (0..nv)
            .map(|k| {
                let c = (0..3)
                    .map(|j| self.float(verts.leaves[3 * k + j], &|| verts.name(3 * k + j)))
                    .collect::<Result<Vec<f32>>>()?;
                Ok(glam::DVec3::new(widen(c[0]), widen(c[1]), widen(c[2])))
            })
            .collect::<Result<Vec<_>>>()?;
        let tris = self.items(self.required(dm, p, "tris")?, format!("{p}tris"))?;
        let ntris = self.count(dm, p, "ntris")?;
        // `[a, b, c]` rows carry no flags.
        let triangles = if tris.row == Some(3) {
            self.groups(&tris, 3, ntris, 255)?
                .into_iter()
                .map(|t| [t[0], t[1], t[2], 0])
                .collect::<Vec<_>>()
        } else {
            self.groups(&tris, 4, ntris, 255)?
                .into_iter()
                .map(|t| [t[0], t[1], t[2], t[3]])
                .collect()
        };
        Ok(Detail {
            meshes: meshes
                .into_iter()
                .map(|m| [m[0], m[1], m[2], m[3]].map(|x| x as u32))
                .collect(),
            vertices,
            triangles: triangles.into_iter().map(|t| t.map(|x| x as u32)).collect(),
        })
    }
}

/// A JSON value's kind, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value as it reads in a message: a number or a short string as written, else its kind.
fn shown(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("\"{}\"", excerpt(s)),
        other => kind(other).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::*;

    fn err(text: &str) -> String {
        parse_recast_json(text, "r.json").unwrap_err().to_string()
    }

    /// Two quads sharing an edge, as rcPolyMesh stores them (nvp 4, 2·nvp entries each).
    const PM: &str = r#""verts": [[0,0,0],[0,0,4],[4,0,4],[4,0,0],[8,0,4],[8,0,0]],
        "polys": [0,1,2,3, 65535,65535,1,65535, 3,2,4,5, 0,65535,65535,65535],
        "regs": [1,1], "flags": [1,2], "areas": [63,5],
        "nverts": 6, "npolys": 2, "maxpolys": 2, "nvp": 4,
        "bmin": [-1, 0.5, 2], "bmax": [1.4, 0.5, 3.2], "cs": 0.3, "ch": 0.2,
        "borderSize": 0, "maxEdgeError": 1.3"#;

    /// A detail mesh for [`PM`]: each quad as two triangles over its corners.
    const DM: &str = r#"{"meshes": [[0,4,0,2],[4,4,2,2]],
        "verts": [[-1,0.5,2],[-1,0.5,3.2],[0.2,0.5,3.2],[0.2,0.5,2],
                  [0.2,0.5,2],[0.2,0.5,3.2],[1.4,0.5,3.2],[1.4,0.5,2]],
        "tris": [[0,1,2,1],[0,2,3,2],[0,1,2,0],[0,2,3,0]],
        "nmeshes": 2, "nverts": 8, "ntris": 4}"#;

    fn expected_vertices() -> Vec<DVec3> {
        // x: -1 + 0, 1.2, 2.4 (f32 sums, as their shortest decimals); z: 2, 3.2.
        [[0, 0], [0, 4], [4, 4], [4, 0], [8, 4], [8, 0]]
            .iter()
            .map(|&[x, z]| {
                DVec3::new(
                    widen(-1.0 + x as f32 * 0.3),
                    0.5,
                    widen(2.0 + z as f32 * 0.3),
                )
            })
            .collect()
    }

    #[test]
    fn a_poly_mesh_at_the_top_with_its_detail_under_a_key() {
        let d = parse_recast_json(&format!("{{{PM}, \"dmesh\": {DM}}}"), "r.json").unwrap();
        assert_eq!(d.up, UpAxis::Y);
        assert_eq!(d.vertices, expected_vertices());
        // -1 + 4 × 0.3 in f32 is 0.20000005.
        assert_eq!(d.vertices[2], DVec3::new(0.20000005, 0.5, 3.2));
        assert_eq!(d.polygons, vec![vec![0, 1, 2, 3], vec![3, 2, 4, 5]]);
        assert_eq!((d.areas, d.flags), (vec![63, 5], vec![1, 2]));
        let detail = d.detail.unwrap();
        assert_eq!(detail.meshes, vec![[0, 4, 0, 2], [4, 4, 2, 2]]);
        assert_eq!(detail.vertices[6], DVec3::new(1.4, 0.5, 3.2));
        assert_eq!(detail.triangles[1], [0, 2, 3, 2]);
        assert!(d.refs.is_empty() && d.links.is_empty());
        assert_eq!(d.agent, Default::default());
    }

    #[test]
    fn every_accepted_shape_reads_the_same() {
        let reference = parse_recast_json(&format!("{{{PM}, \"detail\": {DM}}}"), "r").unwrap();
        // Flat lists everywhere.
        let flat = PM.replace(
            "[[0,0,0],[0,0,4],[4,0,4],[4,0,0],[8,0,4],[8,0,0]]",
            "[0,0,0,0,0,4,4,0,4,4,0,0,8,0,4,8,0,0]",
        );
        let flat_detail = DM
            .replace("[[0,4,0,2],[4,4,2,2]]", "[0,4,0,2,4,4,2,2]")
            .replace(
                "[[0,1,2,1],[0,2,3,2],[0,1,2,0],[0,2,3,0]]",
                "[0,1,2,1,0,2,3,2,0,1,2,0,0,2,3,0]",
            );
        // Per-polygon rows of 2·nvp, and of nvp.
        let rows = PM.replace(
            "[0,1,2,3, 65535,65535,1,65535, 3,2,4,5, 0,65535,65535,65535]",
            "[[0,1,2,3, 65535,65535,1,65535], [3,2,4,5, 0,65535,65535,65535]]",
        );
        let rows_nvp = PM.replace(
            "[0,1,2,3, 65535,65535,1,65535, 3,2,4,5, 0,65535,65535,65535]",
            "[[0,1,2,3], [3,2,4,5]]",
        );
        // nvp entries per polygon, counted by npolys; and with no count but the areas'.
        let flat_nvp = PM.replace(
            "[0,1,2,3, 65535,65535,1,65535, 3,2,4,5, 0,65535,65535,65535]",
            "[0,1,2,3, 3,2,4,5]",
        );
        let no_count = flat_nvp.replace("\"npolys\": 2,", "");
        // A maxpolys-long buffer read up to npolys.
        let buffer = PM
            .replace(
                "65535,65535,65535]",
                "65535,65535,65535, 65535,65535,65535,65535,65535,65535,65535,65535]",
            )
            .replace("\"maxpolys\": 2", "\"maxpolys\": 3");
        for (name, text) in [
            ("flat", format!("{{{flat}, \"dmesh\": {flat_detail}}}")),
            ("rows", format!("{{{rows}, \"detailMesh\": {DM}}}")),
            (
                "rows of nvp",
                format!("{{{rows_nvp}, \"polyMeshDetail\": {DM}}}"),
            ),
            ("flat nvp", format!("{{{flat_nvp}, \"detail_mesh\": {DM}}}")),
            ("no count", format!("{{{no_count}, \"detail\": {DM}}}")),
            ("buffer", format!("{{{buffer}, \"detail\": {DM}}}")),
            (
                "pmesh/dmesh",
                format!("{{\"pmesh\": {{{PM}}}, \"dmesh\": {DM}}}"),
            ),
            (
                "polyMesh/detailMesh",
                format!(
                    "{{\"polyMesh\": {{{PM}}}, \"detailMesh\": {DM}, \"config\": {{\"cs\": 0.3}}}}"
                ),
            ),
        ] {
            assert_eq!(parse_recast_json(&text, "r").unwrap(), reference, "{name}");
        }
        // Without a detail mesh, and with a null one.
        let plain = parse_recast_json(&format!("{{{PM}}}"), "r").unwrap();
        assert!(plain.detail.is_none());
        assert_eq!(plain.polygons, reference.polygons);
        let null = parse_recast_json(&format!("{{{PM}, \"dmesh\": null}}"), "r").unwrap();
        assert_eq!(null, plain);
        // Triangles without flags read with flags 0.
        let three = DM.replace(
            "[[0,1,2,1],[0,2,3,2],[0,1,2,0],[0,2,3,0]]",
            "[[0,1,2],[0,2,3],[0,1,2],[0,2,3]]",
        );
        let d = parse_recast_json(&format!("{{{PM}, \"dmesh\": {three}}}"), "r").unwrap();
        assert_eq!(d.detail.unwrap().triangles[1], [0, 2, 3, 0]);
    }

    #[test]
    fn errors_name_the_field_and_the_element() {
        let top = |pm: &str| err(&format!("{{{pm}}}"));
        let cases = [
            (PM.replace("\"nvp\": 4", "\"nvp\": 2"), "`nvp`: is 2, fewer than 3"),
            (PM.replace("\"nvp\": 4,", ""), "missing field `nvp`"),
            (PM.replace("\"cs\": 0.3", "\"cs\": 0"), "`cs` 0 and `ch` 0.2: each must be finite and > 0"),
            (PM.replace("\"cs\": 0.3", "\"cs\": \"0.3\""), "`cs`: expected a finite number, found \"0.3\""),
            (PM.replace("\"bmin\": [-1, 0.5, 2]", "\"bmin\": [-1, 0.5]"), "`bmin`: expected [x, y, z]"),
            (PM.replace("[4,0,4],[4,0,0]", "[4,0,4],[4,0]"), "`verts[3]`: has 2 elements, the rows before it 3"),
            (PM.replace("[8,0,4]", "[8,0.5,4]"), "`verts[4][1]`: expected a whole number 0 to 65535, found 0.5"),
            (PM.replace("[8,0,4]", "[8,70000,4]"), "`verts[4][1]`: expected a whole number 0 to 65535, found 70000"),
            (PM.replace("\"nverts\": 6", "\"nverts\": 7"), "`verts`: holds 6 elements, fewer than its count 7"),
            (PM.replace("3,2,4,5,", "3,2,9,5,"), "`polys[10]`: polygon 1's vertex 9 is out of range: there are 6 vertices"),
            (PM.replace("3,2,4,5,", "3,2,-4,5,"), "`polys[10]`: expected a whole number 0 to 65535, found -4"),
            (PM.replace(" 0,65535,65535,65535]", " 0,65535,65535]"), "`polys`: 15 entries fit neither nvp = 4 nor 2·nvp = 8 entries per polygon for 2 polygons"),
            (PM.replace("\"areas\": [63,5]", "\"areas\": [63]"), "`areas`: has 1 elements for 2 polygons"),
            (PM.replace("\"areas\": [63,5]", "\"areas\": [63,300]"), "`areas[1]`: expected a whole number 0 to 255, found 300"),
            (PM.replace("\"flags\": [1,2]", "\"flags\": {}"), "`flags`: expected an array, found an object"),
            (PM.replace("\"npolys\": 2", "\"npolys\": 3"), "`polys`: 16 entries fit neither nvp = 4 nor 2·nvp = 8 entries per polygon for 3 polygons"),
        ];
        for (text, message) in cases {
            assert_eq!(top(&text), format!("invalid polygon: r.json: {message}"));
        }
        let with_detail = |dm: &str| err(&format!("{{\"pmesh\": {{{PM}}}, \"dmesh\": {dm}}}"));
        for (dm, message) in [
            (
                DM.replace("\"ntris\": 4", "\"ntris\": 5"),
                "`dmesh.tris`: holds 4 elements, fewer than its count 5",
            ),
            (
                DM.replace("[0,4,0,2]", "[0,4,0]"),
                "`dmesh.meshes[1]`: has 4 elements, the rows before it 3",
            ),
            (
                DM.replace("[1.4,0.5,2]]", "[1.4,0.5,1e39]]"),
                "`dmesh.verts[7][2]`: expected a finite number, found 1e+39",
            ),
            (
                DM.replace("[0,2,3,2]", "[0,2,256,2]"),
                "`dmesh.tris[1][2]`: expected a whole number 0 to 255, found 256",
            ),
            (
                DM.replace("\"meshes\"", "\"mesh\""),
                "missing field `dmesh.meshes`",
            ),
            (
                "[1, 2]".to_string(),
                "`dmesh`: expected an object, found an array",
            ),
        ] {
            assert_eq!(
                with_detail(&dm),
                format!("invalid polygon: r.json: {message}")
            );
        }
        assert_eq!(
            err(DM),
            "invalid polygon: r.json: this is a detail mesh (rcPolyMeshDetail: `meshes`, `tris`) without its poly mesh (rcPolyMesh: `verts`, `polys`)"
        );
        assert!(
            err("{\"vertices\": []}").contains("no poly mesh"),
            "{}",
            err("{\"vertices\": []}")
        );
        assert_eq!(
            err("[]"),
            "invalid polygon: r.json: expected a JSON object (Recast's rcPolyMesh)"
        );
        assert!(
            err("{\"polys\": [1,").starts_with("r.json:1:"),
            "{}",
            err("{\"polys\": [1,")
        );
    }

    #[test]
    fn sniffing() {
        assert!(is_recast_json(&format!("{{{PM}}}")));
        assert!(is_recast_json(&format!("  {{\"pmesh\": {{{PM}}}}}")));
        assert!(!is_recast_json(DM));
        assert!(!is_recast_json("[gd_scene format=3]"));
    }

    #[test]
    fn every_prefix_is_ok_or_an_error_never_a_panic() {
        let text = format!("{{\"pmesh\": {{{PM}}}, \"dmesh\": {DM}}}");
        for (i, _) in text.char_indices() {
            let _ = parse_recast_json(&text[..i], "prefix.json");
        }
    }
}
