//! The navmesh JSON format of `docs/navmesh-json.md` (Recast's poly mesh in world units,
//! as `pathsmooth-bake` writes it) in and out of a [`Surface`]. Needs the `serde` feature.
//!
//! Read: `up`, `vertices`, `polygons`, and optionally `areas` and `flags`; `detail`,
//! `bake` and any other field are accepted and ignored (the format tells readers to ignore
//! what they do not know).

use std::fmt;
use std::marker::PhantomData;

use glam::DVec3;
use serde::de::{self, DeserializeOwned, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::navmesh::surface::{Surface, SurfaceOptions, UpAxis};

/// The fields the reader uses; serde skips the rest.
#[derive(Deserialize)]
struct FileIn {
    up: Up,
    #[serde(deserialize_with = "vertices")]
    vertices: Vec<[f64; 3]>,
    #[serde(deserialize_with = "polygons")]
    polygons: Vec<Vec<u32>>,
    #[serde(default, deserialize_with = "areas")]
    areas: Vec<u8>,
    #[serde(default, deserialize_with = "flags")]
    flags: Vec<u16>,
}

/// What the writer writes (no `detail`: a surface keeps none).
#[derive(Serialize)]
struct FileOut<'a> {
    up: Up,
    vertices: Vec<[f64; 3]>,
    polygons: Vec<Vec<u32>>,
    areas: &'a [u8],
    flags: &'a [u16],
}

/// The `up` field.
#[derive(Serialize, Deserialize, Clone, Copy)]
enum Up {
    #[serde(rename = "y")]
    Y,
    #[serde(rename = "z")]
    Z,
}

/// A JSON array whose element errors name the field and the element's index (serde_json
/// adds the line and column).
fn indexed<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
    field: &'static str,
) -> std::result::Result<Vec<T>, D::Error> {
    struct Items<T>(&'static str, PhantomData<T>);
    impl<'de, T: DeserializeOwned> Visitor<'de> for Items<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "an array for `{}`", self.0)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Vec<T>, A::Error> {
            // Capacity from the hint, capped: a hostile hint must not allocate.
            let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
            loop {
                match seq.next_element::<T>() {
                    Ok(Some(item)) => items.push(item),
                    Ok(None) => return Ok(items),
                    Err(e) => {
                        return Err(de::Error::custom(format_args!(
                            "`{}[{}]`: {e}",
                            self.0,
                            items.len()
                        )))
                    }
                }
            }
        }
    }
    d.deserialize_seq(Items(field, PhantomData))
}

fn vertices<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<[f64; 3]>, D::Error> {
    indexed(d, "vertices")
}

fn polygons<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<Vec<u32>>, D::Error> {
    indexed(d, "polygons")
}

fn areas<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<u8>, D::Error> {
    indexed(d, "areas")
}

fn flags<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<u16>, D::Error> {
    indexed(d, "flags")
}

/// Reads a navmesh JSON file (`docs/navmesh-json.md`) as a [`Surface`]: its `up` axis
/// (which replaces `options.up`), `vertices`, `polygons` and, when present, `areas` and
/// `flags` (one per polygon); `detail`, `bake` and unknown fields are ignored. The rest
/// of `options` (weld, planarity, [`split_t_junctions`](SurfaceOptions::split_t_junctions))
/// applies as in [`Surface::from_polygons_with`]. `file` names the input in errors.
///
/// Errors: [`Error::Parse`] (file, line, column; a bounded message) for malformed JSON, a
/// missing field, an `up` other than `"y"` or `"z"`, or a value of the wrong kind, naming
/// the field and the element's index (`` `vertices[3]`: invalid length 2, expected an
/// array of length 3 ``); [`Error::BadParameter`] for `areas` or `flags` not one per
/// polygon; and the errors of [`Surface::from_polygons_with`], naming the polygon or
/// vertex by its index in the file. Never a panic.
///
/// Cost: O(file size) to read, then as [`Surface::from_polygons_with`].
///
/// ```
/// use pathsmooth::navmesh::import::parse_surface_json;
/// use pathsmooth::navmesh::{SurfaceOptions, UpAxis};
/// let text = r#"{"up": "z", "vertices": [[0,0,1], [2,0,1], [0,2,1]], "polygons": [[0, 1, 2]],
///               "areas": [63], "flags": [1], "detail": {"meshes": []}}"#;
/// let s = parse_surface_json(text, "tri.json", &SurfaceOptions::default())?;
/// assert_eq!((s.up(), s.area(0), s.flags(0)), (UpAxis::Z, 63, 1));
/// let bad = r#"{"up": "y", "vertices": [[0,0,0], [1,0]], "polygons": []}"#;
/// let e = parse_surface_json(bad, "bad.json", &SurfaceOptions::default()).unwrap_err();
/// assert!(e.to_string().starts_with("bad.json:1:"), "{e}");
/// assert!(e.to_string().contains("`vertices[1]`"), "{e}");
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_surface_json(text: &str, file: &str, options: &SurfaceOptions) -> Result<Surface> {
    let parsed: FileIn =
        serde_json::from_str(text).map_err(|e| Error::parse(file, e.line(), e.column(), e))?;
    let up = match parsed.up {
        Up::Y => UpAxis::Y,
        Up::Z => UpAxis::Z,
    };
    let vertices: Vec<DVec3> = parsed.vertices.iter().map(|&v| DVec3::from(v)).collect();
    let options = SurfaceOptions { up, ..*options };
    Surface::from_polygons_with(
        &vertices,
        &parsed.polygons,
        &parsed.areas,
        &parsed.flags,
        &options,
    )
}

/// Writes `surface` in the navmesh JSON format (`docs/navmesh-json.md`), compact: `up`,
/// the welded `vertices` ([`Surface::vertices`], exactly: numbers round-trip), the
/// `polygons` ([`Surface::polygon`], after welding and any T-junction splits) wound as
/// Recast winds them (clockwise in plan view, the reverse of the surface's order),
/// `areas` and `flags`. No `detail` or `bake`. [`parse_surface_json`] reads it back into
/// the same surface (the same vertices, polygons as vertex cycles, areas, flags and
/// neighbours).
///
/// Cost: O(vertices + total polygon size).
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::import::{parse_surface_json, write_surface_json};
/// use pathsmooth::navmesh::{Surface, SurfaceOptions, UpAxis};
/// let v = [DVec3::ZERO, DVec3::X, DVec3::Z];
/// let s = Surface::from_polygons(&v, &[[0u32, 1, 2]], UpAxis::Y, 0.0)?;
/// let text = write_surface_json(&s);
/// assert_eq!(text, r#"{"up":"y","vertices":[[0.0,0.0,0.0],[1.0,0.0,0.0],[0.0,0.0,1.0]],"polygons":[[2,1,0]],"areas":[0],"flags":[0]}"#);
/// let back = parse_surface_json(&text, "s.json", &SurfaceOptions::default())?;
/// assert_eq!(back.polygon(0), s.polygon(0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn write_surface_json(surface: &Surface) -> String {
    let n = surface.num_polygons();
    let areas: Vec<u8> = (0..n as u32).map(|p| surface.area(p)).collect();
    let flags: Vec<u16> = (0..n as u32).map(|p| surface.flags(p)).collect();
    let out = FileOut {
        up: match surface.up() {
            UpAxis::Y => Up::Y,
            UpAxis::Z => Up::Z,
        },
        vertices: surface.vertices().iter().map(|v| v.to_array()).collect(),
        polygons: (0..n as u32)
            .map(|p| surface.polygon(p).iter().rev().copied().collect())
            .collect(),
        areas: &areas,
        flags: &flags,
    };
    // Plain numbers and arrays: serialising cannot fail.
    serde_json::to_string(&out).unwrap_or_default()
}
