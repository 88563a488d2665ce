//! Scenes: a boundary ring with hole rings, built in code or read from JSON, and their
//! validation.

use std::collections::HashMap;
#[cfg(feature = "serde")]
use std::path::Path;

use glam::DVec2;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use spade::Point2;

use super::rings;
use crate::error::{num, Error, Result};
use crate::navmesh::mesh::{
    check_vertex_range, coordinate_ok, NavMesh, MAX_COORDINATE, MIN_COORDINATE,
};

/// A polygonal scene: a boundary ring and hole rings, built in code or (with the `serde`
/// feature) read from JSON.
///
/// In JSON, unknown keys are an error (a misspelt `"hole"` would otherwise silently drop
/// every obstacle).
///
/// ```
/// use pathsmooth::navmesh::{NavMesh, Scene};
/// let s = Scene { boundary: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], holes: vec![] };
/// assert_eq!(NavMesh::from_scene(&s)?.num_triangles(), 1);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(deny_unknown_fields)
)]
pub struct Scene {
    /// The outer boundary ring, `[x, y]` per vertex, implicitly closed.
    pub boundary: Vec<[f64; 2]>,
    /// Hole rings (obstacles) strictly inside the boundary; may be absent in JSON.
    #[cfg_attr(feature = "serde", serde(default))]
    pub holes: Vec<Vec<[f64; 2]>>,
}

/// Navmeshes from scenes.
impl NavMesh {
    /// Builds a navmesh from a [`Scene`], validating its rings first.
    ///
    /// Errors: [`Error::CoordinateOutOfRange`] for a vertex beyond
    /// [`MAX_COORDINATE`] (the library's one error for coordinates too large; the index
    /// counts the boundary's vertices, then each hole's in order), and
    /// [`Error::InvalidPolygon`] for a bad ring (named, with the vertex).
    ///
    /// Cost: O(n log n) for n ring corners to check the rings (one sweep finds touching
    /// edges and which ring lies in which), then spade's constrained Delaunay bulk loader
    /// (about n log n, slower on long thin scenes: a one-hole-wide column of holes).
    ///
    /// ```
    /// use pathsmooth::navmesh::{NavMesh, Scene};
    /// let scene = Scene { boundary: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]], holes: vec![] };
    /// let mesh = NavMesh::from_scene(&scene)?;
    /// assert_eq!(mesh.num_triangles(), 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_scene(scene: &Scene) -> Result<Self> {
        let all = std::iter::once(&scene.boundary)
            .chain(&scene.holes)
            .flatten();
        check_vertex_range(all.map(|&[x, y]| DVec2::new(x, y)))?;
        let rings = validate_scene(scene)?;
        let mut vertices = Vec::new();
        let mut edges = Vec::new();
        for ring in &rings {
            let base = vertices.len();
            let n = ring.len();
            vertices.extend(ring.iter().map(|p| Point2::new(p.x, p.y)));
            edges.extend((0..n).map(|i| [base + i, base + (i + 1) % n]));
        }
        Self::build(vertices, edges)
    }

    /// Parses a JSON scene (`{"boundary": …, "holes": …}`) and builds its navmesh; `file`
    /// names the text in error messages. Malformed JSON and unknown keys are
    /// [`Error::Parse`]; bad rings as [`NavMesh::from_scene`]. Needs the `serde` feature.
    ///
    /// ```
    /// use pathsmooth::navmesh::NavMesh;
    /// let err = NavMesh::from_scene_json(r#"{"boundary": [[0,0],[1,1]]}"#, "bad.json").unwrap_err();
    /// assert!(err.to_string().contains("at least 3"));
    /// let typo = r#"{"boundary": [[0,0],[1,0],[0,1]], "hole": []}"#;
    /// assert!(matches!(NavMesh::from_scene_json(typo, "typo.json"), Err(pathsmooth::Error::Parse { .. })));
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn from_scene_json(text: &str, file: &str) -> Result<Self> {
        let scene: Scene =
            serde_json::from_str(text).map_err(|e| Error::parse(file, e.line(), e.column(), e))?;
        Self::from_scene(&scene)
    }

    /// Reads a JSON scene file and builds its navmesh. Needs the `serde` feature.
    ///
    /// ```
    /// use pathsmooth::navmesh::NavMesh;
    /// let path = std::env::temp_dir().join("pathsmooth_doc_scene.json");
    /// std::fs::write(&path, r#"{"boundary": [[0,0],[3,0],[3,3],[0,3]]}"#).unwrap();
    /// assert_eq!(NavMesh::load_scene(&path)?.num_triangles(), 2);
    /// assert!(NavMesh::load_scene("/no/such/scene.json").is_err());
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn load_scene(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Self::from_scene_json(&text, &path.display().to_string())
    }
}

/// Checks a scene's rings and returns them as closed vertex lists (a repeated first point
/// at the end dropped).
fn validate_scene(scene: &Scene) -> Result<Vec<Vec<DVec2>>> {
    let bad = |message: String| Error::InvalidPolygon { message };
    let name = |r: usize| {
        if r == 0 {
            "the boundary".to_string()
        } else {
            format!("hole {}", r - 1)
        }
    };
    let mut rings = Vec::with_capacity(1 + scene.holes.len());
    for (r, raw) in std::iter::once(&scene.boundary)
        .chain(&scene.holes)
        .enumerate()
    {
        let mut ring: Vec<DVec2> = raw.iter().map(|&[x, y]| DVec2::new(x, y)).collect();
        if let Some(i) = ring.iter().position(|p| !p.is_finite()) {
            return Err(bad(format!(
                "{} vertex {i} has a NaN or infinite coordinate",
                name(r)
            )));
        }
        if let Some(i) = ring
            .iter()
            .position(|p| !(coordinate_ok(p.x) && coordinate_ok(p.y)))
        {
            return Err(bad(format!(
                "{} vertex {i} ({}, {}) is out of range: each coordinate must be 0 or have a \
                 magnitude in [{}, {}]",
                name(r),
                num(ring[i].x),
                num(ring[i].y),
                num(MIN_COORDINATE),
                num(MAX_COORDINATE)
            )));
        }
        if ring.len() > 1 && ring.first() == ring.last() {
            ring.pop();
        }
        if ring.len() < 3 {
            return Err(bad(format!(
                "{} is not a closed polygon: it needs at least 3 distinct vertices, it has {}",
                name(r),
                ring.len()
            )));
        }
        if rings::area2(&ring) == 0.0 {
            return Err(bad(format!("{} has zero area", name(r))));
        }
        rings.push(ring);
    }
    // Duplicate vertices anywhere (within a ring or shared between rings).
    let mut seen: HashMap<(u64, u64), (usize, usize)> = HashMap::new();
    for (r, ring) in rings.iter().enumerate() {
        for (i, p) in ring.iter().enumerate() {
            let key = ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits());
            if let Some(&(r0, i0)) = seen.get(&key) {
                return Err(bad(format!(
                    "duplicate vertex ({}, {}): {} vertex {i0} and {} vertex {i}",
                    num(p.x),
                    num(p.y),
                    name(r0),
                    name(r)
                )));
            }
            seen.insert(key, (r, i));
        }
    }
    // One sweep: no two edges touch, and the ring each ring lies in (see `rings`).
    let nesting = rings::sweep(&rings).map_err(|((r, i), (q, j))| {
        let what = if r == q {
            "self-intersecting"
        } else {
            "crossing"
        };
        bad(format!(
            "{what} edges: {} edge {i} and {} edge {j}",
            name(r),
            name(q)
        ))
    })?;
    // Each hole inside the boundary and in no other hole: the boundary among the rings
    // enclosing it, and no hole (the lowest-numbered one named). Those are its parent and
    // the rings enclosing that, met by the sweep before it: one pass in the sweep's order.
    let n = rings.len();
    let (mut in_boundary, mut first_hole) = (vec![false; n], vec![None::<usize>; n]);
    for &r in &nesting.order {
        if let Some(p) = nesting.parent[r] {
            in_boundary[r] = p == 0 || in_boundary[p];
            first_hole[r] = match (p, first_hole[p]) {
                (0, h) => h,
                (p, h) => Some(h.map_or(p, |h| h.min(p))),
            };
        }
    }
    for r in 1..n {
        if !in_boundary[r] {
            return Err(bad(format!("{} lies outside the boundary", name(r))));
        }
        if let Some(o) = first_hole[r] {
            return Err(bad(format!("{} lies inside {}", name(r), name(o))));
        }
    }
    Ok(rings)
}
