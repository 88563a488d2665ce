//! What building a surface repaired, dropped or noticed in its input.

use std::fmt;

use crate::error::num;

/// What building a [`Surface`](super::Surface) did to its input
/// ([`Surface::load_report`](super::Surface::load_report)): engines write duplicated
/// vertices, T-junctions, slivers, repeated faces and mixed windings, and the builder
/// repairs them rather than refusing the mesh; this says what it repaired, dropped and
/// noticed, so nothing changes unseen. Polygon ids here are input indices.
///
/// Its [`Display`](fmt::Display) is one line naming only what happened, or "nothing to
/// repair".
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::{Surface, SurfaceOptions, UpAxis};
/// // Two triangles with their own copies of the shared corners, and a collapsed one.
/// let v = [
///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 1.0),
///     DVec3::new(0.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 1.0), DVec3::new(0.0, 0.0, 1.0),
///     DVec3::new(0.5, 0.0, 0.5),
/// ];
/// let polys = [vec![0u32, 1, 2], vec![3, 4, 5], vec![0, 6, 2]];
/// let s = Surface::from_polygons_with(&v, &polys, &[], &[], &SurfaceOptions::default())?;
/// let report = s.load_report();
/// assert_eq!((report.welded, report.degenerate.as_slice()), (2, &[2u32][..]));
/// assert_eq!(s.num_polygons(), 2);
/// assert!(report.to_string().contains("dropped 1 polygon with no area in plan view (2)"));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadReport {
    /// Vertices in the input.
    pub input_vertices: usize,
    /// Polygons in the input.
    pub input_polygons: usize,
    /// The weld tolerance used (given, or derived from the mesh's size): vertices within it
    /// (3D, world units) became one.
    pub weld: f64,
    /// Input vertices merged into another by welding.
    pub welded: usize,
    /// Corners removed from polygons because welding made them repeat the corner before
    /// them, or fold straight back (`a b a`).
    pub repeated_corners: usize,
    /// Polygons dropped because they have fewer than 3 distinct corners after welding or
    /// no area in plan view (slivers at rounding level, vertical faces), by input id.
    pub degenerate: Vec<u32>,
    /// Polygons dropped as copies of an earlier polygon (the same corners, either
    /// winding), by input id.
    pub duplicates: Vec<u32>,
    /// Polygons wound against the majority, turned round.
    pub reversed: usize,
    /// Vertices inserted into edges they lay on (T-junctions split).
    pub t_junctions: usize,
    /// Polygons farther from their plane than the options' planarity allows (normal on
    /// stairs and ramps of a Recast bake; heights then come from the detail mesh, else
    /// from the polygon's own triangles).
    pub non_planar: usize,
    /// The least planar of those: input polygon, input vertex, its distance from the plane.
    pub worst_non_planar: Option<(u32, u32, f64)>,
    /// Edges left as walls because no two polygons can be joined across them: used by
    /// three or more polygons (non-manifold), or by two on the same side (overlapping
    /// polygons). Godot's navigation server leaves such edges unjoined too.
    pub unjoined_edges: usize,
    /// The first of those: its two vertices and the polygon that made it ambiguous
    /// (input indices).
    pub unjoined_example: Option<([u32; 2], u32)>,
    /// Detail triangles with no area in plan view, ignored (they carry no height).
    pub detail_slivers: usize,
    /// Off-mesh links of the file left out, by their index in it, because an end has no
    /// floor within the link's radius: Detour and Godot leave such a link unconnected, so
    /// it joins nothing here either. (Links given to
    /// [`Surface::with_links`](super::Surface::with_links) are refused instead.)
    pub unconnected_links: Vec<u32>,
}

/// Why the builder dropped a polygon: the reasons the report keeps apart (here, not in
/// the builder, so that the report never imports the builder that fills it).
pub(super) enum Dropped {
    Degenerate,
    Duplicate,
}

impl LoadReport {
    /// Records input polygon `p` as dropped for `why`.
    pub(super) fn drop(&mut self, p: usize, why: Dropped) {
        match why {
            Dropped::Degenerate => self.degenerate.push(p as u32),
            Dropped::Duplicate => self.duplicates.push(p as u32),
        }
    }

    /// Records input polygon `p` as non-planar: vertex `v` is `dev` from its plane.
    pub(super) fn note_non_planar(&mut self, p: usize, v: u32, dev: f64) {
        self.non_planar += 1;
        if self.worst_non_planar.is_none_or(|(_, _, d)| dev > d) {
            self.worst_non_planar = Some((p as u32, v, dev));
        }
    }

    /// True when the builder changed nothing but exact vertex copies (and noticed nothing).
    pub fn is_clean(&self) -> bool {
        self.repeated_corners == 0
            && self.degenerate.is_empty()
            && self.duplicates.is_empty()
            && self.reversed == 0
            && self.t_junctions == 0
            && self.non_planar == 0
            && self.unjoined_edges == 0
            && self.detail_slivers == 0
            && self.unconnected_links.is_empty()
    }
}

/// `n` and the noun, singular or plural.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// [`count`] when `n` is not zero, else `None`: the report names only what the builder did.
fn count_if_any(n: usize, one: &str, many: &str) -> Option<String> {
    (n > 0).then(|| count(n, one, many))
}

/// Up to five ids, then "…".
fn ids(list: &[u32]) -> String {
    let shown: Vec<String> = list.iter().take(5).map(u32::to_string).collect();
    let more = if list.len() > 5 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(c) = count_if_any(self.welded, "vertex", "vertices") {
            parts.push(format!("welded {c} (within {})", num(self.weld)));
        }
        if let Some(c) = count_if_any(self.repeated_corners, "repeated corner", "repeated corners")
        {
            parts.push(format!("removed {c}"));
        }
        if !self.degenerate.is_empty() {
            parts.push(format!(
                "dropped {} with no area in plan view ({})",
                count(self.degenerate.len(), "polygon", "polygons"),
                ids(&self.degenerate)
            ));
        }
        if !self.duplicates.is_empty() {
            parts.push(format!(
                "dropped {} ({})",
                count(
                    self.duplicates.len(),
                    "duplicate polygon",
                    "duplicate polygons"
                ),
                ids(&self.duplicates)
            ));
        }
        if let Some(c) = count_if_any(self.reversed, "polygon", "polygons") {
            parts.push(format!("turned {c} wound against the rest"));
        }
        if let Some(c) = count_if_any(self.t_junctions, "T-junction", "T-junctions") {
            parts.push(format!("split {c}"));
        }
        if let Some((p, v, d)) = self.worst_non_planar {
            parts.push(format!(
                "{} not planar (heights from the detail mesh or the polygon's triangles; worst: polygon {p}, vertex {v} is {} from its plane)",
                count(self.non_planar, "polygon", "polygons"),
                num(d)
            ));
        }
        if let Some(([a, b], p)) = self.unjoined_example {
            parts.push(format!(
                "left {} unjoined (three or more polygons on one edge, or two on the same side of it; first: vertices {a}–{b}, polygon {p})",
                count(self.unjoined_edges, "edge", "edges")
            ));
        }
        if let Some(c) = count_if_any(self.detail_slivers, "detail triangle", "detail triangles") {
            parts.push(format!("ignored {c} with no area in plan view"));
        }
        if let Some(c) = count_if_any(
            self.unconnected_links.len(),
            "off-mesh link",
            "off-mesh links",
        ) {
            parts.push(format!(
                "left out {c} with an end that has no floor within its radius ({})",
                ids(&self.unconnected_links)
            ));
        }
        if parts.is_empty() {
            write!(f, "nothing to repair")
        } else {
            write!(f, "{}", parts.join("; "))
        }
    }
}
