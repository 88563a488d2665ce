//! The navmesh JSON format of `docs/navmesh-json.md` (Recast's poly mesh in world units,
//! as `pathsmooth-bake` writes it) in and out of a [`Surface`]. Needs the `serde` feature.
//!
//! Read: `up`, `vertices`, `polygons`, and optionally `areas`, `flags`, `detail` (the
//! detail mesh) and `links` (off-mesh links); `bake` and any other field are accepted and
//! ignored (the format tells readers to ignore what they do not know).

use std::fmt;
use std::marker::PhantomData;

use glam::DVec3;
use serde::de::{self, DeserializeOwned, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::navmesh::surface::{
    BakeAgent, Detail, OffMeshLink, Surface, SurfaceData, SurfaceOptions, UpAxis,
};

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
    #[serde(default)]
    detail: Option<DetailIo>,
    #[serde(default, deserialize_with = "links")]
    links: Vec<OffMeshLink>,
    #[serde(default, deserialize_with = "refs")]
    refs: Vec<u64>,
    #[serde(default)]
    bake: Option<BakeIo>,
}

/// The part of the `bake` field the reader uses: the agent it was baked for.
#[derive(Deserialize, Serialize, Default)]
struct BakeIo {
    #[serde(default)]
    settings: AgentIo,
}

/// The agent's settings in `bake.settings`, as RecastDemo names them (others ignored).
#[derive(Deserialize, Serialize, Default)]
struct AgentIo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agent_height: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agent_radius: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agent_max_climb: Option<f64>,
}

/// What the writer writes.
#[derive(Serialize)]
struct FileOut<'a> {
    up: Up,
    vertices: Vec<[f64; 3]>,
    polygons: Vec<Vec<u32>>,
    areas: &'a [u8],
    flags: &'a [u16],
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<DetailIo>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    links: Vec<OffMeshLink>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    refs: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bake: Option<BakeIo>,
}

/// The `detail` field: Recast's `rcPolyMeshDetail` in world units.
#[derive(Serialize, Deserialize)]
struct DetailIo {
    #[serde(deserialize_with = "meshes")]
    meshes: Vec<[u32; 4]>,
    #[serde(deserialize_with = "detail_vertices")]
    vertices: Vec<[f64; 3]>,
    #[serde(deserialize_with = "triangles")]
    triangles: Vec<[u32; 4]>,
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

fn meshes<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<[u32; 4]>, D::Error> {
    indexed(d, "detail.meshes")
}

fn detail_vertices<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Vec<[f64; 3]>, D::Error> {
    indexed(d, "detail.vertices")
}

fn triangles<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<[u32; 4]>, D::Error> {
    indexed(d, "detail.triangles")
}

fn links<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<OffMeshLink>, D::Error> {
    indexed(d, "links")
}

fn refs<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<u64>, D::Error> {
    indexed(d, "refs")
}

/// Reads a navmesh JSON file (`docs/navmesh-json.md`) as a [`Surface`]: its `up` axis
/// (which replaces `options.up`), `vertices`, `polygons` and, when present, `areas` and
/// `flags` (one per polygon), `detail` (attached with [`Surface::with_detail`]) and
/// `links` (attached, after the detail, with [`Surface::with_links`]), `refs` (the
/// polygons' references in the file they came from, [`Surface::polygon_ref`]) and the
/// agent of `bake.settings` (`agent_height`, `agent_radius`, `agent_max_climb`:
/// [`Surface::bake_agent`], whose climb locates points); the rest of `bake` and unknown
/// fields are ignored. The rest of `options` (weld, planarity,
/// [`split_t_junctions`](SurfaceOptions::split_t_junctions)) applies as in
/// [`Surface::from_polygons_with`]. `file` names the input in errors.
///
/// Errors: [`Error::Parse`] (file, line, column; a bounded message) for malformed JSON, a
/// missing field, an `up` other than `"y"` or `"z"`, or a value of the wrong kind, naming
/// the field and the element's index (`` `vertices[3]`: invalid length 2, expected an
/// array of length 3 ``, `` `links[2]`: unknown field `radious` ``); [`Error::BadParameter`]
/// for `areas` or `flags` not one per polygon; the errors of
/// [`Surface::from_polygons_with`], naming the polygon or vertex by its index in the
/// file; those of [`Surface::with_detail`] (naming the polygon and detail triangle) and
/// of [`Surface::with_links`] (naming the link). Never a panic.
///
/// Cost: O(file size) to read, then as [`Surface::from_polygons_with`],
/// [`Surface::with_detail`] and [`Surface::with_links`].
///
/// ```
/// use glam::{DVec2, DVec3};
/// use pathsmooth::navmesh::parse_surface_json;
/// use pathsmooth::navmesh::{SurfaceOptions, UpAxis};
/// let text = r#"{"up": "z", "vertices": [[0,0,1], [2,0,1], [0,2,1]], "polygons": [[0, 1, 2]],
///               "areas": [63], "flags": [1],
///               "detail": {"meshes": [[0, 3, 0, 1]], "vertices": [[0,0,1], [2,0,1], [0,2,2]], "triangles": [[0, 1, 2, 0]]},
///               "links": [{"start": [0.5, 0.5, 1], "end": [1, 0.2, 1], "radius": 0.5, "bidirectional": false}]}"#;
/// let s = parse_surface_json(text, "tri.json", &SurfaceOptions::default())?;
/// assert_eq!((s.up(), s.area(0), s.flags(0)), (UpAxis::Z, 63, 1));
/// assert_eq!(s.floor_height(0, DVec2::new(0.0, 1.0)), 1.5);
/// assert_eq!(s.links()[0].start, DVec3::new(0.5, 0.5, 1.25));
/// let bad = r#"{"up": "y", "vertices": [[0,0,0], [1,0]], "polygons": []}"#;
/// let e = parse_surface_json(bad, "bad.json", &SurfaceOptions::default()).unwrap_err();
/// assert!(e.to_string().starts_with("bad.json:1:"), "{e}");
/// assert!(e.to_string().contains("`vertices[1]`"), "{e}");
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_surface_json(text: &str, file: &str, options: &SurfaceOptions) -> Result<Surface> {
    Surface::from_data(&read_surface_json(text, file)?, options)
}

/// Reads a navmesh JSON file's fields as [`SurfaceData`], unchecked (see
/// [`parse_surface_json`], which builds the surface from it). Errors: [`Error::Parse`] as
/// there.
pub fn read_surface_json(text: &str, file: &str) -> Result<SurfaceData> {
    let parsed: FileIn =
        serde_json::from_str(text).map_err(|e| Error::parse(file, e.line(), e.column(), e))?;
    let up = match parsed.up {
        Up::Y => UpAxis::Y,
        Up::Z => UpAxis::Z,
    };
    let agent = parsed.bake.map(|b| b.settings).unwrap_or_default();
    Ok(SurfaceData {
        up,
        vertices: parsed.vertices.iter().map(|&v| DVec3::from(v)).collect(),
        polygons: parsed.polygons,
        areas: parsed.areas,
        flags: parsed.flags,
        refs: parsed.refs,
        detail: parsed.detail.map(|d| Detail {
            meshes: d.meshes,
            vertices: d.vertices.iter().map(|&v| DVec3::from(v)).collect(),
            triangles: d.triangles,
        }),
        links: parsed.links,
        agent: BakeAgent {
            height: agent.agent_height,
            radius: agent.agent_radius,
            climb: agent.agent_max_climb,
        },
    })
}

/// Writes `surface` in the navmesh JSON format (`docs/navmesh-json.md`), compact: `up`,
/// the welded `vertices` ([`Surface::vertices`], exactly: numbers round-trip), the
/// `polygons` ([`Surface::polygon`], after welding and any T-junction splits) wound as
/// Recast winds them (clockwise in plan view, the reverse of the surface's order),
/// `areas` and `flags`; the `detail` mesh ([`Surface::detail`]) and the `links` as given
/// ([`Link::given`](crate::navmesh::Link::given)) when the surface has them; `refs` when
/// a polygon's reference is not its index ([`Surface::polygon_ref`]); and `bake` with only
/// the agent's settings when the surface knows any ([`Surface::bake_agent`]).
/// [`parse_surface_json`] reads it back into the same surface (the same vertices,
/// polygons as vertex cycles, areas, flags, neighbours, detail mesh, links, references
/// and agent).
///
/// Cost: O(vertices + total polygon size + detail mesh + links).
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::{parse_surface_json, write_surface_json};
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
        detail: surface.detail().map(|d| DetailIo {
            meshes: d.meshes.clone(),
            vertices: d.vertices.iter().map(|v| v.to_array()).collect(),
            triangles: d.triangles.clone(),
        }),
        links: surface.links().iter().map(|l| l.given).collect(),
        refs: if (0..n as u32).all(|p| surface.polygon_ref(p) == u64::from(p)) {
            Vec::new()
        } else {
            (0..n as u32).map(|p| surface.polygon_ref(p)).collect()
        },
        bake: {
            let a = surface.bake_agent();
            (a != BakeAgent::default()).then_some(BakeIo {
                settings: AgentIo {
                    agent_height: a.height,
                    agent_radius: a.radius,
                    agent_max_climb: a.climb,
                },
            })
        },
    };
    // Plain numbers and arrays: serialising cannot fail.
    serde_json::to_string(&out).unwrap_or_default()
}
