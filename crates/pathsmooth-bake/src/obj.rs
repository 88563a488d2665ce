//! A minimal Wavefront OBJ reader: `v` and `f` lines, as Recast's demo loader reads them.

use std::fmt;

/// Triangles read from an OBJ file: vertex positions and index triples.
#[derive(Debug, Clone, Default)]
pub struct ObjMesh {
    /// Vertex positions, in file order.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles (faces with more than three corners are fanned from their first corner).
    pub triangles: Vec<[u32; 3]>,
}

/// A line of an OBJ file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for ObjError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ObjError {}

/// Reads the `v` and `f` lines of an OBJ text; other lines (normals, texture coordinates,
/// groups, materials, comments) are skipped. Face corners may be `i`, `i/t`, `i//n` or
/// `i/t/n`; negative indices count back from the last vertex read, as the format says.
pub fn parse(text: &str) -> Result<ObjMesh, ObjError> {
    let mut mesh = ObjMesh::default();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let err = |message: String| ObjError { line, message };
        let mut words = raw.split_whitespace();
        match words.next() {
            Some("v") => {
                let mut p = [0.0f32; 3];
                for c in &mut p {
                    let w = words
                        .next()
                        .ok_or_else(|| err("a vertex needs three coordinates".into()))?;
                    *c = w.parse().map_err(|_| err(format!("not a number: {w:?}")))?;
                    if !c.is_finite() {
                        return Err(err(format!("not a finite number: {w:?}")));
                    }
                }
                mesh.vertices.push(p);
            }
            Some("f") => {
                let mut corners = Vec::new();
                for w in words {
                    let first = w.split('/').next().unwrap_or("");
                    let i: i64 = first
                        .parse()
                        .map_err(|_| err(format!("not a vertex index: {w:?}")))?;
                    let count = mesh.vertices.len() as i64;
                    let index = if i > 0 { i - 1 } else { count + i };
                    if i == 0 || index < 0 || index >= count {
                        return Err(err(format!(
                            "vertex index {i} out of range (1..={count} so far)"
                        )));
                    }
                    corners.push(index as u32);
                }
                if corners.len() < 3 {
                    return Err(err("a face needs at least three corners".into()));
                }
                for k in 2..corners.len() {
                    mesh.triangles
                        .push([corners[0], corners[k - 1], corners[k]]);
                }
            }
            _ => {}
        }
    }
    Ok(mesh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_vertices_faces_and_fans() {
        let m = parse("# c\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nvn 0 1 0\nf 1//1 2//1 3//1 4//1\nf -1 -2 -3\n")
            .unwrap();
        assert_eq!(m.vertices.len(), 4);
        assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3], [3, 2, 1]]);
    }

    #[test]
    fn names_the_bad_line() {
        let e = parse("v 0 0 0\nf 1 2 3\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("v 0 x 0\n").unwrap_err();
        assert_eq!(e.line, 1);
    }
}
