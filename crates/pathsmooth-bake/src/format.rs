//! The navmesh JSON format (`docs/navmesh-json.md`): types and a line-per-item writer.

use serde::{Deserialize, Serialize};

/// A navmesh file: Recast's poly mesh in world units, and optionally its detail mesh.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NavmeshJson {
    /// The up axis: `"y"` (Recast, Unity, Godot) or `"z"`.
    pub up: String,
    /// How the file was made (informative; readers may ignore it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bake: Option<BakeInfo>,
    /// Vertex positions in world units.
    pub vertices: Vec<[f32; 3]>,
    /// Convex polygons as indices into `vertices`, 3 or more each.
    pub polygons: Vec<Vec<u32>>,
    /// One area id per polygon (Recast's: 63 is `RC_WALKABLE_AREA`).
    pub areas: Vec<u8>,
    /// One flags word per polygon (RecastDemo's: 1 is walk).
    pub flags: Vec<u16>,
    /// Recast's detail mesh (heights of the surface inside each polygon), when baked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<DetailJson>,
}

/// Recast's detail mesh (`rcPolyMeshDetail`): one sub-mesh of triangles per polygon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DetailJson {
    /// Per polygon: `[first vertex, vertex count, first triangle, triangle count]`.
    pub meshes: Vec<[u32; 4]>,
    /// Vertex positions in world units; each sub-mesh starts with its polygon's corners.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles `[a, b, c, edge flags]`, indices local to their sub-mesh.
    pub triangles: Vec<[u8; 4]>,
}

/// The bake's source and settings, in world units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BakeInfo {
    /// The level geometry the mesh was baked from.
    pub source: String,
    /// The baking tool and its Recast port.
    pub tool: String,
    /// The settings.
    pub settings: BakeSettings,
    /// Cells left unwalkable along the level's bounds (RecastDemo's solo mesh: 0).
    #[serde(default)]
    pub border_size: u16,
    /// How many convex area volumes were marked.
    #[serde(default)]
    pub volumes: usize,
}

/// Recast's build settings as RecastDemo names them (world units, degrees).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BakeSettings {
    /// Voxel size on the ground plane.
    pub cell_size: f32,
    /// Voxel size on the up axis.
    pub cell_height: f32,
    /// Headroom the agent needs.
    pub agent_height: f32,
    /// Distance the walkable area is eroded from walls (0: no erosion).
    pub agent_radius: f32,
    /// Highest step the agent climbs.
    pub agent_max_climb: f32,
    /// Steepest walkable slope, degrees.
    pub agent_max_slope: f32,
    /// Regions smaller than this squared (in cells) are dropped.
    pub region_min_size: f32,
    /// Regions smaller than this squared (in cells) are merged into neighbours.
    pub region_merge_size: f32,
    /// Longest outline edge (0: no limit).
    pub edge_max_len: f32,
    /// Outline simplification error, in cells.
    pub edge_max_error: f32,
    /// Most vertices a polygon may have.
    pub verts_per_poly: u16,
    /// Detail mesh sample spacing, in cells (below 0.9: no samples).
    pub detail_sample_dist: f32,
    /// Detail mesh height error, in cell heights.
    pub detail_sample_max_error: f32,
}

impl Default for BakeSettings {
    /// RecastDemo's defaults (`Sample::resetCommonSettings`).
    fn default() -> Self {
        Self {
            cell_size: 0.3,
            cell_height: 0.2,
            agent_height: 2.0,
            agent_radius: 0.6,
            agent_max_climb: 0.9,
            agent_max_slope: 45.0,
            region_min_size: 8.0,
            region_merge_size: 20.0,
            edge_max_len: 12.0,
            edge_max_error: 1.3,
            verts_per_poly: 6,
            detail_sample_dist: 6.0,
            detail_sample_max_error: 1.0,
        }
    }
}

impl NavmeshJson {
    /// The file's text: the format's JSON with one vertex, polygon or triangle per line,
    /// so that files stay readable and diffs small.
    pub fn to_json_lines(&self) -> String {
        fn list<T: Serialize>(out: &mut String, indent: &str, items: &[T]) {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "\n" } else { ",\n" });
                out.push_str(indent);
                out.push_str("  ");
                out.push_str(&serde_json::to_string(item).expect("plain data serialises"));
            }
            if !items.is_empty() {
                out.push('\n');
                out.push_str(indent);
            }
            out.push(']');
        }
        let mut out = String::from("{\n  \"up\": ");
        out.push_str(&serde_json::to_string(&self.up).expect("a string serialises"));
        if let Some(bake) = &self.bake {
            out.push_str(",\n  \"bake\": ");
            out.push_str(&serde_json::to_string(bake).expect("plain data serialises"));
        }
        out.push_str(",\n  \"vertices\": ");
        list(&mut out, "  ", &self.vertices);
        out.push_str(",\n  \"polygons\": ");
        list(&mut out, "  ", &self.polygons);
        out.push_str(",\n  \"areas\": ");
        out.push_str(&serde_json::to_string(&self.areas).expect("plain data serialises"));
        out.push_str(",\n  \"flags\": ");
        out.push_str(&serde_json::to_string(&self.flags).expect("plain data serialises"));
        if let Some(detail) = &self.detail {
            out.push_str(",\n  \"detail\": {\n    \"meshes\": ");
            list(&mut out, "    ", &detail.meshes);
            out.push_str(",\n    \"vertices\": ");
            list(&mut out, "    ", &detail.vertices);
            out.push_str(",\n    \"triangles\": ");
            list(&mut out, "    ", &detail.triangles);
            out.push_str("\n  }");
        }
        out.push_str("\n}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_text_reads_back() {
        let mesh = NavmeshJson {
            up: "y".into(),
            bake: Some(BakeInfo {
                source: "test".into(),
                tool: "none".into(),
                settings: BakeSettings::default(),
                border_size: 0,
                volumes: 0,
            }),
            vertices: vec![[0.0, 1.5, 0.0], [0.3, 1.5, 0.0], [0.3, 1.7, 0.6]],
            polygons: vec![vec![0, 1, 2]],
            areas: vec![63],
            flags: vec![1],
            detail: Some(DetailJson {
                meshes: vec![[0, 3, 0, 1]],
                vertices: vec![[0.0, 1.5, 0.0], [0.3, 1.5, 0.0], [0.3, 1.7, 0.6]],
                triangles: vec![[0, 1, 2, 21]],
            }),
        };
        let text = mesh.to_json_lines();
        let back: NavmeshJson = serde_json::from_str(&text).unwrap();
        assert_eq!(back, mesh);
        let bare = NavmeshJson {
            bake: None,
            detail: None,
            ..mesh
        };
        let back: NavmeshJson = serde_json::from_str(&bare.to_json_lines()).unwrap();
        assert_eq!(back, bare);
    }
}
