//! Godot's text resources (`.tscn` scenes, `.tres` resources) in: the baked
//! `NavigationMesh` resources they hold, placed in the world by the navigation region nodes
//! that use them, as [`SurfaceData`].
//!
//! The file is a list of sections (`[gd_scene …]`, `[sub_resource type="NavigationMesh"
//! id="…"]`, `[node name="…" type="…" parent="…"]`, `[resource]`, …), each followed by
//! `key = value` lines; a value may span lines and nest `[…]`, `(…)` and `{…}`. A small
//! scanner reads just that (strings with escapes, `;` comments, numbers as Godot writes
//! them) and keeps only the values it needs, skipping the others (mesh data, materials,
//! scripts) without building them, so unknown sections, keys and constructors are never an
//! error unless their brackets do not balance.
//!
//! Source: Godot Engine (J. Linietsky, A. Manzur and contributors), `VariantParser`
//! (`core/variant/variant_parser.cpp`: the tokens, the constructors, `Transform3D`'s
//! argument order), `ResourceFormatText` (the sections), `NavigationMesh`
//! (`scene/resources/navigation_mesh.cpp`: `vertices`, `polygons`, the agent properties and
//! their defaults) and `NavigationRegion3D` (the region's global transform places the mesh).

use glam::{DAffine3, DMat3, DVec2, DVec3};
use rustc_hash::FxHashMap;

use crate::error::{excerpt, Error, Result};
use crate::navmesh::surface::{BakeAgent, OffMeshLink, SurfaceData, UpAxis};

/// Godot 4's `NavigationMesh` defaults (`navigation_mesh.h`): agent height, radius, climb.
const GODOT4_AGENT: [f64; 3] = [1.5, 0.5, 0.25];
/// Godot 3's (the 3.x `NavigationMesh` constructor), the same as RecastDemo's.
const GODOT3_AGENT: [f64; 3] = [2.0, 0.6, 0.9];
/// The agent properties, Godot 4 (and 3.5) name then Godot ≤ 3.4 name, in
/// [`BakeAgent`]'s order (height, radius, climb).
const AGENT_KEYS: [[&str; 2]; 3] = [
    ["agent_height", "agent/height"],
    ["agent_radius", "agent/radius"],
    ["agent_max_climb", "agent/max_climb"],
];
/// How far a link's end may be from a polygon and still connect: Godot 4's project
/// defaults `navigation/3d/default_link_connection_radius` (1 m) and
/// `navigation/2d/default_link_connection_radius` (4 px).
const LINK_RADIUS: [f64; 2] = [1.0, 4.0];
/// How deeply values may nest (Godot's own files nest three or four levels).
const MAX_DEPTH: usize = 64;

/// Whether `text` looks like a Godot text resource: its first section (after a byte-order
/// mark, blank lines and `;` comments) is `[gd_scene` or `[gd_resource`. For picking a
/// reader; [`parse_godot`] does the real checks.
///
/// Cost: O(leading blank and comment lines).
///
/// ```
/// use pathsmooth::navmesh::is_godot;
/// assert!(is_godot("[gd_scene load_steps=2 format=3]\n"));
/// assert!(is_godot("\u{feff}; saved by hand\n[gd_resource type=\"NavigationMesh\" format=3]"));
/// assert!(!is_godot("{\"verts\": []}"));
/// ```
pub fn is_godot(text: &str) -> bool {
    let mut s = Scanner::new(text.strip_prefix('\u{feff}').unwrap_or(text), "");
    s.skip_space();
    let rest = &s.text[s.at..];
    rest.starts_with("[gd_scene") || rest.starts_with("[gd_resource")
}

/// Reads the baked navigation meshes of a Godot text scene (`.tscn`) or resource (`.tres`),
/// Godot 4 (`format=3`, `format=4`) or Godot 3 (`format=2`), as one [`SurfaceData`] in world
/// space, y up; `file` names the text in errors.
///
/// What is read:
///
/// - **Meshes.** Every `NavigationMesh` resource: a `[sub_resource type="NavigationMesh"]`,
///   or a `.tres`'s own `[resource]` when its header says `type="NavigationMesh"`. Its
///   `vertices` (`PackedVector3Array(x, y, z, …)`; Godot 3 `PoolVector3Array( … )`) and
///   `polygons` (`[PackedInt32Array(0, 1, 2), …]`, also written
///   `Array[PackedInt32Array]([…])`; Godot 3 `[ PoolIntArray( … ), … ]`), each polygon a
///   list of vertex indices as Godot keeps it (convex, either winding: [`SurfaceData`]'s
///   contract).
/// - **Placement.** Every node with a `navigation_mesh` (Godot 3 and early 4.0: `navmesh`)
///   property naming a sub-resource, `SubResource("id")` (Godot 3: `SubResource( 3 )`), is a
///   region (Godot 4's `NavigationRegion3D`, Godot 3's `NavigationMeshInstance`): its mesh is
///   placed by the node's global transform, its `transform = Transform3D(…)` (Godot 3:
///   `Transform( … )`; the basis's three rows, then the origin) composed with those of its
///   ancestors by the `parent="…"` paths, the scene's root included, as Godot places it. The
///   chain stops at a `top_level = true` node and below a plain `Node` parent (Godot gives
///   a 3D node under a non-3D parent its own transform as global). A mesh used by two regions
///   appears twice; a region with `enabled = false` is left out, as Godot leaves it; a mesh
///   no region uses (a `.tres`, or a sub-resource used by none) appears once, as written,
///   unless another resource refers to it by a property named `…navmesh` or
///   `…navigation_mesh` (a Godot 3 `MeshLibrary` item, which only a `GridMap` places): then
///   it is left out. A region whose mesh is in another file (`ExtResource(…)`) is not read.
/// - **2D.** A file with no baked `NavigationMesh` is read for Godot's 2D
///   `NavigationPolygon` resources instead: `vertices` (`PackedVector2Array`; Godot 3
///   `PoolVector2Array`) and `polygons` as above (the `outlines` they were made from are
///   not needed), placed by the regions that use them (`navigation_polygon`, Godot 3 and
///   early 4.0 `navpoly`: `NavigationRegion2D`, `NavigationPolygonInstance`) through the 2D
///   nodes' `position`, `rotation` (radians; older Godot 3: `rotation_degrees`), `scale` and
///   `skew`, or a `transform = Transform2D(…)`, composed as Godot composes them. The result
///   is z up, in the file's units (pixels), vertex `(x, y)` at `(x, y, 0)` (Godot's y axis
///   points down the screen: a mirror image, which planning does not mind); the agent's
///   radius only where the resource writes `agent_radius`. A file with both kinds is read
///   in 3D.
/// - **Links.** Every enabled `NavigationLink3D` (with 2D meshes, `NavigationLink2D`) as an
///   [`OffMeshLink`]: `start_position` and `end_position` placed by the node's global
///   transform, `bidirectional` (default true), Godot's default connection radius (1 m; 4
///   px in 2D: a project may set another, which the scene does not say), a cost only when
///   `enter_cost` or `travel_cost` differ from 0 and 1 (`enter_cost + travel_cost ×` the
///   ends' distance), area 0, flags 0, user id its order among the links.
///   [`Surface::from_data`](crate::navmesh::Surface::from_data) leaves out a link whose end
///   meets no polygon within the radius, as Godot leaves it unconnected.
/// - **Output.** The placed meshes' vertices, one after the other, and their polygons,
///   indexing that combined list; areas and flags empty (every polygon area 0: a Godot
///   region's `navigation_layers` and costs belong to the region, not to polygons); no
///   detail mesh; the links (below). The agent
///   ([`BakeAgent`]) from `agent_height`, `agent_radius` and `agent_max_climb` (Godot ≤ 3.4:
///   `agent/height`, …), with Godot's default for a key the file leaves out (Godot writes only
///   values that differ from the default: Godot 4 height 1.5, radius 0.5, climb 0.25; Godot 3
///   2.0, 0.6, 0.9); a value the placed meshes disagree on is `None`.
///
/// Everything else (other sections, keys, constructors, comments, strings with brackets in
/// them) is skipped. Numbers are taken as written (Godot 4 writes the shortest decimal of
/// each `f32`) and transformed in `f64`.
///
/// Errors: [`Error::Parse`] at the line and column for malformed syntax (a bracket, brace or
/// parenthesis, or a string, that is not closed, a stray closer, a missing `=`, a value
/// nested over 64 deep), a coordinate or agent value that is not a finite number (`inf`,
/// `nan`, `1e`, naming it), a vertex list that is not whole (x, y, z) triples, a polygon
/// index that is not a whole number, is negative or is out of the mesh's vertex range, a
/// `transform` that is not 12 finite numbers, a region using a sub-resource the file does not
/// define, or a region whose parent path the file does not declare; [`Error::InvalidPolygon`]
/// naming the file when no placed `NavigationMesh` has polygons (saying whether the file has
/// no `NavigationMesh`, none baked, only meshes in other files, only disabled regions, or
/// only meshes other resources hold). Never a panic. The polygons themselves are checked by
/// [`Surface::from_data`](crate::navmesh::Surface::from_data).
///
/// Cost: O(file size) to scan, plus O(placed vertices + polygon indices + nodes × depth of
/// the tree).
///
/// Source: Godot Engine (J. Linietsky, A. Manzur and contributors): `VariantParser`,
/// `ResourceFormatText`, `NavigationMesh` and `NavigationRegion3D`.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::parse_godot;
/// let scene = r#"[gd_scene load_steps=2 format=3]
///
/// [sub_resource type="NavigationMesh" id="NavigationMesh_a1"]
/// vertices = PackedVector3Array(0, 0, 0, 4, 0, 0, 4, 0, 4, 0, 0, 4)
/// polygons = [PackedInt32Array(0, 1, 2, 3)]
/// agent_radius = 0.25
///
/// [node name="Level" type="Node3D"]
/// transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 10, 0, 0)
///
/// [node name="Region" type="NavigationRegion3D" parent="."]
/// transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0)
/// navigation_mesh = SubResource("NavigationMesh_a1")
/// "#;
/// let data = parse_godot(scene, "level.tscn")?;
/// assert_eq!(data.vertices[2], DVec3::new(14.0, 2.0, 4.0));
/// assert_eq!(data.polygons, vec![vec![0, 1, 2, 3]]);
/// assert_eq!((data.agent.radius, data.agent.climb), (Some(0.25), Some(0.25)));
///
/// let e = parse_godot("[gd_scene format=3]\n[node name=\"A\" type=\"Node3D\"]\n", "empty.tscn").unwrap_err();
/// assert_eq!(e.to_string(), "invalid polygon: empty.tscn: the file has no NavigationMesh (3D) or NavigationPolygon (2D) resource");
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_godot(text: &str, file: &str) -> Result<SurfaceData> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let scene = read(text, file)?;
    place(&scene, file)
}

// ---- scanning ---------------------------------------------------------------------------

/// A place in the text: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pos {
    line: usize,
    column: usize,
}

/// A value as far as the reader needs it: numbers and identifiers stay text, containers keep
/// their elements only when asked ([`Value::Skipped`] otherwise).
#[derive(Debug)]
enum Value<'a> {
    /// A number as written (`-0`, `1e-05`, `0.0431004`).
    Number(&'a str, Pos),
    /// A string's contents (escapes decoded), also a `&"…"` or `@"…"` name.
    Str(String, Pos),
    /// A bare identifier (`true`, `null`, `inf`, `-inf`, `nan`, a type name) or a colour
    /// `#rrggbb`.
    Ident(&'a str, Pos),
    /// `Name(args)`, `Array[T](args)`: a constructor and its arguments (values separated by
    /// `,` or, in `Object(…)`, `:`).
    Call(&'a str, Vec<Value<'a>>, Pos),
    /// `[a, b, …]`.
    Array(Vec<Value<'a>>, Pos),
    /// A value that was scanned but not kept.
    Skipped,
}

impl Value<'_> {
    fn pos(&self) -> Option<Pos> {
        match self {
            Value::Number(_, p)
            | Value::Str(_, p)
            | Value::Ident(_, p)
            | Value::Call(_, _, p)
            | Value::Array(_, p) => Some(*p),
            Value::Skipped => None,
        }
    }

    /// How the value reads in an error message.
    fn describe(&self) -> String {
        match self {
            Value::Number(t, _) | Value::Ident(t, _) => format!("`{}`", excerpt(t)),
            Value::Str(s, _) => format!("the string \"{}\"", excerpt(s)),
            Value::Call(name, _, _) => format!("`{}(…)`", excerpt(name)),
            Value::Array(..) => "an array `[…]`".to_string(),
            Value::Skipped => "a value".to_string(),
        }
    }
}

/// A section header `[name attr=value …]`.
struct Tag<'a> {
    name: &'a str,
    attrs: Vec<(&'a str, Value<'a>)>,
    at: Pos,
}

impl<'a> Tag<'a> {
    fn attr(&self, name: &str) -> Option<&Value<'a>> {
        self.attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// A string (or, for Godot 3 ids, number) attribute as text.
    fn text(&self, name: &str) -> Option<String> {
        match self.attr(name)? {
            Value::Str(s, _) => Some(s.clone()),
            Value::Number(t, _) | Value::Ident(t, _) => Some((*t).to_string()),
            _ => None,
        }
    }
}

/// The scanner: a position in the text, with its line and column.
struct Scanner<'a> {
    text: &'a str,
    file: &'a str,
    /// Byte offset of the next character.
    at: usize,
    line: usize,
    column: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str, file: &'a str) -> Self {
        Scanner {
            text,
            file,
            at: 0,
            line: 1,
            column: 1,
        }
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.column,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Moves past the next character.
    fn bump(&mut self) {
        let Some(c) = self.text[self.at..].chars().next() else {
            return;
        };
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
    }

    /// Skips white space (every character up to the space, as Godot does) and `;` comments.
    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if b == b';' {
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.bump();
                }
            } else if b <= b' ' {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn error(&self, at: Pos, message: impl std::fmt::Display) -> Error {
        Error::parse(self.file, at.line, at.column, message)
    }

    /// The next character, quoted for an error message.
    fn found(&self) -> String {
        match self.text[self.at..].chars().next() {
            Some(c) => format!("`{c}`"),
            None => "the end of the file".to_string(),
        }
    }

    fn unclosed(&self, open: Pos, what: &str) -> Error {
        self.error(
            open,
            format!("this {what} is not closed before the end of the file"),
        )
    }

    /// A run of identifier characters (`extra` allowed too), possibly empty.
    fn word(&mut self, extra: &[u8]) -> &'a str {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || extra.contains(&b))
        {
            self.bump();
        }
        &self.text[start..self.at]
    }

    /// A string starting at the quote under the cursor; its contents when `keep`.
    fn string(&mut self, keep: bool) -> Result<String> {
        let open = self.pos();
        self.bump();
        let mut out = String::new();
        loop {
            let Some(c) = self.text[self.at..].chars().next() else {
                return Err(self.unclosed(open, "string"));
            };
            self.bump();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let Some(e) = self.text[self.at..].chars().next() else {
                        return Err(self.unclosed(open, "string"));
                    };
                    self.bump();
                    let decoded = match e {
                        'b' => '\u{8}',
                        't' => '\t',
                        'n' => '\n',
                        'f' => '\u{c}',
                        'r' => '\r',
                        'u' | 'U' => {
                            let digits = if e == 'u' { 4 } else { 6 };
                            let mut code = 0u32;
                            for _ in 0..digits {
                                match self.peek().and_then(|b| (b as char).to_digit(16)) {
                                    Some(d) => {
                                        code = code * 16 + d;
                                        self.bump();
                                    }
                                    None => break,
                                }
                            }
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        other => other,
                    };
                    if keep {
                        out.push(decoded);
                    }
                }
                c => {
                    if keep {
                        out.push(c);
                    }
                }
            }
        }
    }

    /// A number, or `-inf` and the like, starting at a digit or `-` under the cursor: the
    /// longest run Godot's tokenizer takes (digits, one `.` part, one exponent with an
    /// optional sign).
    fn number(&mut self) -> Result<Value<'a>> {
        let at = self.pos();
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.bump();
            if self
                .peek()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            {
                self.word(&[]);
                return Ok(Value::Ident(&self.text[start..self.at], at));
            }
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(self.error(
                    at,
                    format!("expected a number after `-`, found {}", self.found()),
                ));
            }
        }
        let digits = |s: &mut Self| {
            while s.peek().is_some_and(|b| b.is_ascii_digit()) {
                s.bump();
            }
        };
        digits(self);
        if self.peek() == Some(b'.') {
            self.bump();
            digits(self);
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.bump();
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.bump();
            }
            digits(self);
        }
        Ok(Value::Number(&self.text[start..self.at], at))
    }

    /// Values up to `close`, separated by `,` (and `:` when `colons`), after the opener
    /// under the cursor. A trailing separator is allowed.
    fn items(
        &mut self,
        close: u8,
        what: &str,
        colons: bool,
        keep: bool,
        depth: usize,
    ) -> Result<Vec<Value<'a>>> {
        let open = self.pos();
        self.bump();
        let mut items = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None => return Err(self.unclosed(open, what)),
                Some(b) if b == close => {
                    self.bump();
                    return Ok(items);
                }
                _ => {}
            }
            let v = self.value(keep, depth + 1)?;
            if keep {
                items.push(v);
            }
            self.skip_space();
            match self.peek() {
                None => return Err(self.unclosed(open, what)),
                Some(b',') => self.bump(),
                Some(b':') if colons => self.bump(),
                Some(b) if b == close => {}
                Some(_) => {
                    return Err(self.error(
                        self.pos(),
                        format!(
                            "expected `,` or `{}` in the {what} opened at line {}, found {}",
                            close as char,
                            open.line,
                            self.found()
                        ),
                    ))
                }
            }
        }
    }

    /// One value; kept (containers with their elements) when `keep`, else scanned over.
    fn value(&mut self, keep: bool, depth: usize) -> Result<Value<'a>> {
        self.skip_space();
        let at = self.pos();
        if depth > MAX_DEPTH {
            return Err(self.error(at, format!("values are nested more than {MAX_DEPTH} deep")));
        }
        let Some(b) = self.peek() else {
            return Err(self.error(at, "expected a value, found the end of the file"));
        };
        let v = match b {
            b'[' => Value::Array(self.items(b']', "`[`", false, keep, depth)?, at),
            b'{' => {
                // A dictionary: `key: value` pairs; read, never needed.
                self.items(b'}', "`{`", true, false, depth)?;
                Value::Skipped
            }
            b'"' => Value::Str(self.string(keep)?, at),
            b'&' | b'@' => {
                self.bump();
                if self.peek() != Some(b'"') {
                    return Err(self.error(at, format!("expected `\"` after `{}`", b as char)));
                }
                Value::Str(self.string(keep)?, at)
            }
            b'-' | b'0'..=b'9' => self.number()?,
            b'#' => {
                let start = self.at;
                self.bump();
                self.word(&[]);
                Value::Ident(&self.text[start..self.at], at)
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let name = self.word(&[]);
                self.skip_space();
                if matches!(name, "Array" | "Dictionary") && self.peek() == Some(b'[') {
                    // A typed container: `Array[PackedInt32Array]([…])`.
                    self.items(b']', "`[`", true, false, depth)?;
                    self.skip_space();
                    if self.peek() != Some(b'(') {
                        return Err(self.error(
                            self.pos(),
                            format!("expected `(` after `{name}[…]`, found {}", self.found()),
                        ));
                    }
                }
                if self.peek() == Some(b'(') {
                    Value::Call(name, self.items(b')', "`(`", true, keep, depth)?, at)
                } else {
                    Value::Ident(name, at)
                }
            }
            _ => {
                return Err(self.error(at, format!("expected a value, found {}", self.found())));
            }
        };
        Ok(if keep { v } else { Value::Skipped })
    }

    /// A section header, the cursor on its `[`.
    fn tag(&mut self) -> Result<Tag<'a>> {
        let at = self.pos();
        self.bump();
        self.skip_space();
        let name = self.word(b".");
        if name.is_empty() {
            return Err(self.error(
                self.pos(),
                format!("expected a section name after `[`, found {}", self.found()),
            ));
        }
        let mut attrs = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None => return Err(self.unclosed(at, "section header `[`")),
                Some(b']') => {
                    self.bump();
                    return Ok(Tag { name, attrs, at });
                }
                _ => {}
            }
            let attr_at = self.pos();
            let attr = self.word(&[]);
            if attr.is_empty() {
                return Err(self.error(
                    attr_at,
                    format!(
                        "expected an attribute name or `]` in the `[{}` header, found {}",
                        excerpt(name),
                        self.found()
                    ),
                ));
            }
            self.skip_space();
            if self.peek() != Some(b'=') {
                return Err(self.error(
                    self.pos(),
                    format!(
                        "expected `=` after `{}`, found {}",
                        excerpt(attr),
                        self.found()
                    ),
                ));
            }
            self.bump();
            let v = self.value(true, 1)?;
            attrs.push((attr, v));
        }
    }

    /// A property name, up to `=` (or a quoted name), and the `=`.
    fn key(&mut self) -> Result<(String, Pos)> {
        let at = self.pos();
        let key = if self.peek() == Some(b'"') {
            self.string(true)?
        } else {
            let start = self.at;
            while self.peek().is_some_and(|b| b > b' ' && b != b'=') {
                self.bump();
            }
            self.text[start..self.at].to_string()
        };
        if key.is_empty() {
            return Err(self.error(
                at,
                format!("expected a property name, found {}", self.found()),
            ));
        }
        self.skip_space();
        if self.peek() != Some(b'=') {
            return Err(self.error(
                self.pos(),
                format!(
                    "expected `=` after the property name `{}`, found {}",
                    excerpt(&key),
                    self.found()
                ),
            ));
        }
        self.bump();
        Ok((key, at))
    }
}

// ---- what the file says -----------------------------------------------------------------

/// A `NavigationMesh` (or 2D `NavigationPolygon`) resource as written.
struct Mesh {
    /// The sub-resource id; `None` for a `.tres`'s own `[resource]`.
    id: Option<String>,
    /// A 2D `NavigationPolygon`: its vertices are `(x, y, 0)`.
    flat: bool,
    vertices: Vec<DVec3>,
    polygons: Vec<Vec<u32>>,
    /// Where each polygon's list starts.
    polygon_at: Vec<Pos>,
    /// Agent height, radius, climb as written.
    agent: [Option<f64>; 3],
}

/// A reference to a resource.
#[derive(Debug, Clone, PartialEq)]
enum Ref {
    /// `SubResource("id")`: in this file.
    Sub(String),
    /// `ExtResource("id")`: in another file.
    Ext(String),
}

/// A `[node]` section, as far as placing meshes goes.
struct Node {
    name: String,
    parent: Option<String>,
    kind: Option<String>,
    at: Pos,
    /// The `transform` (`Transform3D`, or a 2D node's `Transform2D` in the plane), or why
    /// it is not one; an error only matters (and is reported) when the node is on a
    /// region's chain.
    transform: Option<Result<DAffine3>>,
    /// A 2D node's `position`, `rotation`, `scale` and `skew`, as written.
    plane: Plane,
    /// A `NavigationLink3D`'s (or `NavigationLink2D`'s) keys, as written.
    link: Option<LinkKeys>,
    mesh: Option<Ref>,
    enabled: bool,
    top_level: bool,
}

/// A 2D node's placement keys (`Node2D`), each as written or why it is not a value; the
/// node's transform when any is given.
#[derive(Default)]
struct Plane {
    position: Option<Result<DVec3>>,
    /// Radians (Godot 4 and 3.x write `rotation`); `rotation_degrees` (older Godot 3).
    rotation: Option<Result<f64>>,
    degrees: Option<Result<f64>>,
    scale: Option<Result<DVec3>>,
    skew: Option<Result<f64>>,
}

impl Plane {
    /// The node's transform in the plane (z kept), as Godot's `Transform2D` composes it
    /// (`set_rotation_scale_and_skew`, then the position); `None` when no key is given.
    fn affine(&self) -> Option<Result<DAffine3>> {
        let given = self.position.is_some()
            || self.rotation.is_some()
            || self.degrees.is_some()
            || self.scale.is_some()
            || self.skew.is_some();
        let made = || -> Result<DAffine3> {
            let position = written(&self.position, DVec3::ZERO)?.truncate();
            let rotation = match &self.rotation {
                Some(r) => r.clone()?,
                None => written(&self.degrees, 0.0)?.to_radians(),
            };
            let scale = written(&self.scale, DVec3::ONE)?.truncate();
            let skew = written(&self.skew, 0.0)?;
            let (x, y) = (
                DVec2::from_angle(rotation) * scale.x,
                DVec2::from_angle(rotation + skew).perp() * scale.y,
            );
            Ok(plane_affine(x, y, position))
        };
        given.then(made)
    }
}

/// A key's value as written, why it is not one, or `default` when the file leaves it out.
fn written<T: Clone>(key: &Option<Result<T>>, default: T) -> Result<T> {
    key.clone().unwrap_or(Ok(default))
}

/// The 3D affine map of the 2D one with columns `x`, `y` and origin `o` (z kept).
fn plane_affine(x: DVec2, y: DVec2, o: DVec2) -> DAffine3 {
    DAffine3::from_mat3_translation(
        DMat3::from_cols(x.extend(0.0), y.extend(0.0), DVec3::Z),
        o.extend(0.0),
    )
}

/// A navigation link node's keys, each as written or why it is not a value (Godot's
/// defaults for those left out: both ways, entered for free, travelled at 1 a unit).
#[derive(Default)]
struct LinkKeys {
    start: Option<Result<DVec3>>,
    end: Option<Result<DVec3>>,
    bidirectional: Option<Result<bool>>,
    enter_cost: Option<Result<f64>>,
    travel_cost: Option<Result<f64>>,
}

/// The file, read.
struct Scene {
    /// Godot 4 (`format` 3 or more, or no header) rather than Godot 3.
    godot4: bool,
    meshes: Vec<Mesh>,
    nodes: Vec<Node>,
    /// Sub-resource ids that other resources (not nodes) hold as a navmesh.
    held: Vec<String>,
}

/// Which section the keys belong to.
enum Section {
    None,
    Mesh(usize),
    Node(usize),
    Other,
}

/// The text of a reference argument: `"id"` (Godot 4) or `1` (Godot 3).
fn ref_id(v: &Value) -> Option<String> {
    match v {
        Value::Str(s, _) => Some(s.clone()),
        Value::Number(t, _) => Some((*t).to_string()),
        _ => None,
    }
}

/// `SubResource(id)` or `ExtResource(id)` (any other value: `None`).
fn reference(v: &Value) -> Option<Ref> {
    match v {
        Value::Call("SubResource", args, _) => args.first().and_then(ref_id).map(Ref::Sub),
        Value::Call("ExtResource", args, _) => args.first().and_then(ref_id).map(Ref::Ext),
        _ => None,
    }
}

impl Scanner<'_> {
    /// A finite number, for `what`.
    fn finite(&self, v: &Value, what: &str) -> Result<f64> {
        let at = v.pos().unwrap_or(self.pos());
        match v {
            Value::Number(t, _) => match t.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                Ok(_) => Err(self.error(at, format!("{what}: `{}` is too large", excerpt(t)))),
                Err(_) => Err(self.error(at, format!("{what}: `{}` is not a number", excerpt(t)))),
            },
            Value::Ident(t, _) if matches!(*t, "inf" | "-inf" | "inf_neg" | "nan") => {
                Err(self.error(at, format!("{what}: `{t}` is not a finite number")))
            }
            other => Err(self.error(
                at,
                format!("{what}: expected a number, found {}", other.describe()),
            )),
        }
    }

    /// The numbers of a packed array constructor named one of `names`.
    fn packed<'v, 't>(
        &self,
        v: &'v Value<'t>,
        names: &[&str],
        what: &str,
    ) -> Result<&'v [Value<'t>]> {
        match v {
            Value::Call(name, args, _) if names.contains(name) => Ok(args),
            other => Err(self.error(
                other.pos().unwrap_or(self.pos()),
                format!(
                    "`{what}` should be `{}(…)`, found {}",
                    names[0],
                    other.describe()
                ),
            )),
        }
    }

    /// A `NavigationMesh`'s vertices, or a 2D `NavigationPolygon`'s (`flat`: `(x, y, 0)`).
    fn vertices(&self, v: &Value, flat: bool) -> Result<Vec<DVec3>> {
        let (names, n, what) = match flat {
            false => (
                ["PackedVector3Array", "PoolVector3Array", "Vector3Array"],
                3,
                "(x, y, z)",
            ),
            true => (
                ["PackedVector2Array", "PoolVector2Array", "Vector2Array"],
                2,
                "(x, y)",
            ),
        };
        let args = self.packed(v, &names, "vertices")?;
        if !args.len().is_multiple_of(n) {
            return Err(self.error(
                v.pos().unwrap_or(self.pos()),
                format!(
                    "`vertices` has {} numbers, not a whole number of {what} vertices",
                    args.len()
                ),
            ));
        }
        args.chunks_exact(n)
            .enumerate()
            .map(|(i, c)| self.point(c, &format!("vertex {i}")))
            .collect()
    }

    /// The two or three finite numbers of a point, for `what`: `(x, y, 0)` from two.
    fn point(&self, numbers: &[Value], what: &str) -> Result<DVec3> {
        let mut xyz = [0.0; 3];
        for (slot, a) in xyz.iter_mut().zip(numbers) {
            *slot = self.finite(a, what)?;
        }
        Ok(DVec3::from_array(xyz))
    }

    /// A `Vector2(x, y)` (as `(x, y, 0)`) or `Vector3(x, y, z)`, for `what`.
    fn vector(&self, v: &Value, what: &str) -> Result<DVec3> {
        let args = self.packed(v, &["Vector3", "Vector2"], what)?;
        let n = if matches!(v, Value::Call("Vector2", ..)) {
            2
        } else {
            3
        };
        if args.len() != n {
            return Err(self.error(
                v.pos().unwrap_or(self.pos()),
                format!("`{what}` has {} numbers, expected {n}", args.len()),
            ));
        }
        self.point(args, what)
    }

    fn polygons(&self, v: &Value) -> Result<(Vec<Vec<u32>>, Vec<Pos>)> {
        let at = v.pos().unwrap_or(self.pos());
        let list = match v {
            Value::Array(items, _) => items.as_slice(),
            // `Array[PackedInt32Array]([…])`.
            Value::Call("Array", args, _) => match args.as_slice() {
                [Value::Array(items, _)] => items.as_slice(),
                [] => &[],
                _ => {
                    return Err(
                        self.error(at, "`polygons`: expected `Array[…]([…])` with one array")
                    )
                }
            },
            other => {
                return Err(self.error(
                    at,
                    format!(
                        "`polygons` should be an array `[…]`, found {}",
                        other.describe()
                    ),
                ))
            }
        };
        let mut polygons = Vec::with_capacity(list.len());
        let mut starts = Vec::with_capacity(list.len());
        for (p, item) in list.iter().enumerate() {
            let what = format!("polygon {p}");
            let args = self.packed(
                item,
                &[
                    "PackedInt32Array",
                    "PoolIntArray",
                    "IntArray",
                    "PackedInt64Array",
                ],
                &what,
            )?;
            let indices = args
                .iter()
                .map(|a| self.index(a, &what))
                .collect::<Result<Vec<u32>>>()?;
            polygons.push(indices);
            starts.push(item.pos().unwrap_or(at));
        }
        Ok((polygons, starts))
    }

    fn index(&self, v: &Value, what: &str) -> Result<u32> {
        let at = v.pos().unwrap_or(self.pos());
        let Value::Number(t, _) = v else {
            return Err(self.error(
                at,
                format!("{what}: expected a vertex index, found {}", v.describe()),
            ));
        };
        match t.parse::<i64>() {
            Ok(i) if i >= 0 => u32::try_from(i)
                .map_err(|_| self.error(at, format!("{what}: vertex index {i} is out of range"))),
            Ok(i) => Err(self.error(at, format!("{what}: vertex index {i} is negative"))),
            Err(_) if t.bytes().all(|b| b.is_ascii_digit() || b == b'-') => Err(self.error(
                at,
                format!("{what}: vertex index {} is out of range", excerpt(t)),
            )),
            Err(_) => Err(self.error(
                at,
                format!(
                    "{what}: vertex index `{}` is not a whole number",
                    excerpt(t)
                ),
            )),
        }
    }

    fn transform(&self, v: &Value) -> Result<DAffine3> {
        let at = v.pos().unwrap_or(self.pos());
        if let Value::Call("Transform2D", args, _) = v {
            // A 2D node's: the x axis, the y axis, the origin.
            let x = args
                .iter()
                .map(|a| self.finite(a, "transform"))
                .collect::<Result<Vec<f64>>>()?;
            let [xx, xy, yx, yy, ox, oy] = x[..] else {
                return Err(self.error(
                    at,
                    format!(
                        "`transform` has {} numbers, expected 6 (Transform2D)",
                        x.len()
                    ),
                ));
            };
            return Ok(plane_affine(
                DVec2::new(xx, xy),
                DVec2::new(yx, yy),
                DVec2::new(ox, oy),
            ));
        }
        let args = self.packed(v, &["Transform3D", "Transform"], "transform")?;
        if args.len() != 12 {
            return Err(self.error(
                at,
                format!(
                    "`transform` has {} numbers, expected 12 (basis rows, origin)",
                    args.len()
                ),
            ));
        }
        let mut x = [0.0; 12];
        for (slot, a) in x.iter_mut().zip(args) {
            *slot = self.finite(a, "transform")?;
        }
        // Godot writes the basis row by row: `from_cols_array` takes each row as a column,
        // so transpose.
        let basis = DMat3::from_cols_array(&[x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]])
            .transpose();
        Ok(DAffine3::from_mat3_translation(
            basis,
            DVec3::new(x[9], x[10], x[11]),
        ))
    }

    fn boolean(&self, v: &Value, what: &str) -> Result<bool> {
        match v {
            Value::Ident("true", _) => Ok(true),
            Value::Ident("false", _) => Ok(false),
            other => Err(self.error(
                other.pos().unwrap_or(self.pos()),
                format!(
                    "`{what}`: expected true or false, found {}",
                    other.describe()
                ),
            )),
        }
    }
}

/// Scans the file, keeping the meshes and nodes.
fn read<'a>(text: &'a str, file: &'a str) -> Result<Scene> {
    let mut s = Scanner::new(text, file);
    let mut scene = Scene {
        godot4: true,
        meshes: Vec::new(),
        nodes: Vec::new(),
        held: Vec::new(),
    };
    // The `.tres`'s own resource: a NavigationMesh (Some(false)) or NavigationPolygon.
    let mut main_is_mesh = None;
    let mut section = Section::None;
    loop {
        s.skip_space();
        let Some(b) = s.peek() else { break };
        if b == b'[' {
            let tag = s.tag()?;
            section = match tag.name {
                "gd_scene" | "gd_resource" => {
                    if let Some(v) = tag.attr("format") {
                        scene.godot4 = !matches!(v, Value::Number("1" | "2", _));
                    }
                    main_is_mesh = mesh_kind(tag.text("type").as_deref());
                    Section::None
                }
                "sub_resource" | "resource" => {
                    // A sub-resource says its type; a `.tres`'s own resource, its header.
                    let (kind, id) = match tag.name {
                        "sub_resource" => (mesh_kind(tag.text("type").as_deref()), tag.text("id")),
                        _ => (main_is_mesh, None),
                    };
                    match kind {
                        Some(flat) => {
                            scene.meshes.push(Mesh::new(id, flat));
                            Section::Mesh(scene.meshes.len() - 1)
                        }
                        None => Section::Other,
                    }
                }
                "node" => {
                    scene.nodes.push(Node {
                        name: tag.text("name").unwrap_or_default(),
                        parent: tag.text("parent"),
                        kind: tag.text("type"),
                        at: tag.at,
                        transform: None,
                        plane: Plane::default(),
                        link: matches!(
                            tag.text("type").as_deref(),
                            Some("NavigationLink3D" | "NavigationLink2D")
                        )
                        .then(LinkKeys::default),
                        mesh: None,
                        enabled: true,
                        top_level: false,
                    });
                    Section::Node(scene.nodes.len() - 1)
                }
                _ => Section::Other,
            };
            continue;
        }
        let (key, _) = s.key()?;
        let key = key.as_str();
        match section {
            Section::Mesh(m) => {
                let agent = AGENT_KEYS.iter().position(|names| names.contains(&key));
                let keep = agent.is_some() || matches!(key, "vertices" | "polygons");
                let v = s.value(keep, 1)?;
                let mesh = &mut scene.meshes[m];
                match key {
                    "vertices" => mesh.vertices = s.vertices(&v, mesh.flat)?,
                    "polygons" => (mesh.polygons, mesh.polygon_at) = s.polygons(&v)?,
                    _ => {
                        if let Some(k) = agent {
                            mesh.agent[k] = Some(s.finite(&v, key)?);
                        }
                    }
                }
            }
            Section::Node(n) => {
                let keep = matches!(
                    key,
                    "transform"
                        | "navigation_mesh"
                        | "navmesh"
                        | "navigation_polygon"
                        | "navpoly"
                        | "enabled"
                        | "top_level"
                        | "position"
                        | "rotation"
                        | "rotation_degrees"
                        | "scale"
                        | "skew"
                        | "start_position"
                        | "end_position"
                        | "bidirectional"
                        | "enter_cost"
                        | "travel_cost"
                );
                let v = s.value(keep, 1)?;
                let node = &mut scene.nodes[n];
                let plane = &mut node.plane;
                match key {
                    "transform" => node.transform = Some(s.transform(&v)),
                    "navigation_mesh" | "navmesh" | "navigation_polygon" | "navpoly" => {
                        node.mesh = reference(&v)
                    }
                    "position" => plane.position = Some(s.vector(&v, key)),
                    "rotation" => plane.rotation = Some(s.finite(&v, key)),
                    "rotation_degrees" => plane.degrees = Some(s.finite(&v, key)),
                    "scale" => plane.scale = Some(s.vector(&v, key)),
                    "skew" => plane.skew = Some(s.finite(&v, key)),
                    "start_position" | "end_position" | "bidirectional" | "enter_cost"
                    | "travel_cost" => {
                        if let Some(link) = &mut node.link {
                            match key {
                                "start_position" => link.start = Some(s.vector(&v, key)),
                                "end_position" => link.end = Some(s.vector(&v, key)),
                                "bidirectional" => link.bidirectional = Some(s.boolean(&v, key)),
                                "enter_cost" => link.enter_cost = Some(s.finite(&v, key)),
                                _ => link.travel_cost = Some(s.finite(&v, key)),
                            }
                        }
                    }
                    "enabled" => node.enabled = s.boolean(&v, key)?,
                    "top_level" => node.top_level = s.boolean(&v, key)?,
                    _ => {}
                }
            }
            Section::None | Section::Other => {
                // A resource holding a navmesh (a Godot 3 MeshLibrary's `item/0/navmesh`).
                let keep = key.ends_with("navmesh") || key.ends_with("navigation_mesh");
                let v = s.value(keep, 1)?;
                if let Some(Ref::Sub(id)) = reference(&v) {
                    scene.held.push(id);
                }
            }
        }
    }
    Ok(scene)
}

/// Whether a resource type is a navigation mesh: `Some(false)` for a `NavigationMesh`,
/// `Some(true)` for a 2D `NavigationPolygon`.
fn mesh_kind(kind: Option<&str>) -> Option<bool> {
    match kind {
        Some("NavigationMesh") => Some(false),
        Some("NavigationPolygon") => Some(true),
        _ => None,
    }
}

impl Mesh {
    fn new(id: Option<String>, flat: bool) -> Self {
        Mesh {
            id,
            flat,
            vertices: Vec::new(),
            polygons: Vec::new(),
            polygon_at: Vec::new(),
            agent: [None; 3],
        }
    }
}

// ---- placing the meshes -----------------------------------------------------------------

/// The node at each path (`"."` is the root, then `"A"`, `"A/B"`, as `parent="…"` names
/// them).
fn paths(nodes: &[Node]) -> FxHashMap<String, usize> {
    let mut map = FxHashMap::default();
    for (i, n) in nodes.iter().enumerate() {
        let path = match n.parent.as_deref() {
            None => ".".to_string(),
            Some(".") => n.name.clone(),
            Some(p) => format!("{p}/{}", n.name),
        };
        map.entry(path).or_insert(i);
    }
    map
}

/// Node `i`'s global transform: its own, then its ancestors' up to the root, a
/// `top_level` node or a plain `Node` parent.
fn global(
    nodes: &[Node],
    by_path: &FxHashMap<String, usize>,
    i: usize,
    file: &str,
) -> Result<DAffine3> {
    let own = |n: &Node| match (&n.transform, n.plane.affine()) {
        (Some(t), None) => t.clone(),
        (_, Some(t)) => t,
        (None, None) => Ok(DAffine3::IDENTITY),
    };
    let mut node = &nodes[i];
    let mut t = own(node)?;
    while !node.top_level {
        let Some(parent) = node.parent.as_deref() else {
            break;
        };
        let Some(&p) = by_path.get(parent) else {
            let at = nodes[i].at;
            return Err(Error::parse(
                file,
                at.line,
                at.column,
                format!(
                    "node `{}`: its ancestor `{}` is not in the file (inside an instanced scene?), so its place in the world is unknown",
                    excerpt(&nodes[i].name),
                    excerpt(parent)
                ),
            ));
        };
        node = &nodes[p];
        if node.kind.as_deref() == Some("Node") {
            break;
        }
        t = own(node)? * t;
    }
    Ok(t)
}

/// Checks `mesh`'s polygons index its vertices.
fn check_indices(mesh: &Mesh, file: &str) -> Result<()> {
    let n = mesh.vertices.len();
    for (p, (poly, at)) in mesh.polygons.iter().zip(&mesh.polygon_at).enumerate() {
        if let Some(&i) = poly.iter().find(|&&i| i as usize >= n) {
            return Err(Error::parse(
                file,
                at.line,
                at.column,
                format!(
                    "polygon {p} of NavigationMesh {}: vertex index {i} is out of range: the mesh has {n} vertices",
                    mesh.name()
                ),
            ));
        }
    }
    Ok(())
}

impl Mesh {
    fn name(&self) -> String {
        match &self.id {
            Some(id) => format!("\"{}\"", excerpt(id)),
            None => "(the file's resource)".to_string(),
        }
    }
}

/// The meshes in the world, as [`SurfaceData`].
fn place(scene: &Scene, file: &str) -> Result<SurfaceData> {
    let by_id: FxHashMap<&str, usize> = scene
        .meshes
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.id.as_deref().map(|id| (id, i)))
        .collect();
    let by_path = paths(&scene.nodes);
    let mut used = vec![false; scene.meshes.len()];
    let mut placed: Vec<(usize, DAffine3)> = Vec::new();
    let (mut external, mut disabled) = (0, 0);
    for (i, node) in scene.nodes.iter().enumerate() {
        let id = match &node.mesh {
            None => continue,
            Some(Ref::Ext(_)) => {
                external += 1;
                continue;
            }
            Some(Ref::Sub(id)) => id,
        };
        let Some(&m) = by_id.get(id.as_str()) else {
            return Err(Error::parse(
                file,
                node.at.line,
                node.at.column,
                format!(
                    "node `{}` uses SubResource(\"{}\"), which is not a NavigationMesh of this file",
                    excerpt(&node.name),
                    excerpt(id)
                ),
            ));
        };
        used[m] = true;
        if !node.enabled {
            disabled += 1;
            continue;
        }
        placed.push((m, global(&scene.nodes, &by_path, i, file)?));
    }
    let mut held = 0;
    for (m, mesh) in scene.meshes.iter().enumerate() {
        if used[m] {
            continue;
        }
        if mesh.id.as_ref().is_some_and(|id| scene.held.contains(id)) {
            held += 1;
        } else {
            placed.push((m, DAffine3::IDENTITY));
        }
    }
    // A file with baked 3D meshes is read in 3D, its 2D NavigationPolygons (an overlay's)
    // left out; a file with only 2D ones is read in the plane, z up.
    let baked = |m: usize| !scene.meshes[m].polygons.is_empty();
    let flat = !placed
        .iter()
        .any(|&(m, _)| baked(m) && !scene.meshes[m].flat);
    placed.retain(|&(m, _)| baked(m) && scene.meshes[m].flat == flat);
    if placed.is_empty() {
        return Err(nothing_placed(scene, file, external, disabled, held));
    }

    let mut data = SurfaceData::new(if flat { UpAxis::Z } else { UpAxis::Y });
    let mut checked = vec![false; scene.meshes.len()];
    for &(m, t) in &placed {
        let mesh = &scene.meshes[m];
        if !checked[m] {
            check_indices(mesh, file)?;
            checked[m] = true;
        }
        // Every index, `offset` included, must fit a u32.
        let end = (data.vertices.len() + mesh.vertices.len()) as u64;
        if end > u64::from(u32::MAX) + 1 {
            return Err(Error::InvalidPolygon {
                message: format!("{file}: the placed meshes have more than 2³² vertices"),
            });
        }
        let offset = data.vertices.len() as u32;
        data.vertices
            .extend(mesh.vertices.iter().map(|&v| t.transform_point3(v)));
        data.polygons.extend(
            mesh.polygons
                .iter()
                .map(|p| p.iter().map(|&i| i + offset).collect()),
        );
    }
    data.links = links(scene, &by_path, flat, file)?;
    data.agent = agent(scene, &placed, flat);
    Ok(data)
}

/// The enabled navigation links of the kind read (`NavigationLink3D`, or 2D's), their
/// ends placed by the node's global transform; Godot's default connection radius; a cost
/// only where the node's differs from the length (Godot charges `enter_cost +
/// travel_cost × length`).
fn links(
    scene: &Scene,
    by_path: &FxHashMap<String, usize>,
    flat: bool,
    file: &str,
) -> Result<Vec<OffMeshLink>> {
    let kind = if flat {
        "NavigationLink2D"
    } else {
        "NavigationLink3D"
    };
    let mut out = Vec::new();
    for (i, node) in scene.nodes.iter().enumerate() {
        let Some(keys) = node.link.as_ref().filter(|_| node.enabled) else {
            continue;
        };
        if node.kind.as_deref() != Some(kind) {
            continue;
        }
        let t = global(&scene.nodes, by_path, i, file)?;
        let (start, end) = (
            t.transform_point3(written(&keys.start, DVec3::ZERO)?),
            t.transform_point3(written(&keys.end, DVec3::ZERO)?),
        );
        let (enter, travel) = (
            written(&keys.enter_cost, 0.0)?,
            written(&keys.travel_cost, 1.0)?,
        );
        let bidirectional = written(&keys.bidirectional, true)?;
        out.push(OffMeshLink {
            bidirectional,
            cost: (enter != 0.0 || travel != 1.0).then(|| enter + travel * start.distance(end)),
            user_id: out.len() as u32,
            ..OffMeshLink::new(start, end, LINK_RADIUS[usize::from(flat)])
        });
    }
    Ok(out)
}

/// The bake's agent: each value the placed meshes agree on (written, else Godot's default);
/// for 2D `NavigationPolygon`s only the radius, where every placed one writes the same
/// `agent_radius` (Godot 4.2 and later, pixels): a 2D agent has no height or climb.
fn agent(scene: &Scene, placed: &[(usize, DAffine3)], flat: bool) -> BakeAgent {
    let defaults = if scene.godot4 {
        GODOT4_AGENT
    } else {
        GODOT3_AGENT
    };
    let value = |k: usize| {
        let mut values = placed.iter().map(|&(m, _)| match flat {
            // 2D resources write no default we could rely on (4.2's radius is 10 px;
            // before 4.2 there is none).
            true => scene.meshes[m].agent[k],
            false => Some(scene.meshes[m].agent[k].unwrap_or(defaults[k])),
        });
        let first = values.next()??;
        values.all(|v| v == Some(first)).then_some(first)
    };
    BakeAgent {
        height: (!flat).then(|| value(0)).flatten(),
        radius: value(1),
        climb: (!flat).then(|| value(2)).flatten(),
    }
}

/// Why no polygons were placed.
fn nothing_placed(
    scene: &Scene,
    file: &str,
    external: usize,
    disabled: usize,
    held: usize,
) -> Error {
    let baked = scene
        .meshes
        .iter()
        .filter(|m| !m.polygons.is_empty())
        .count();
    let n = scene.meshes.len();
    let message = if n == 0 && external > 0 {
        format!(
            "the file has no NavigationMesh resource; its {external} navigation region(s) use meshes saved in other files (ExtResource), which are not read"
        )
    } else if n == 0 {
        "the file has no NavigationMesh (3D) or NavigationPolygon (2D) resource".to_string()
    } else if baked == 0 {
        format!("the file has {n} NavigationMesh resource(s) but none is baked (no polygons)")
    } else if disabled > 0 && held == 0 {
        format!("every navigation region using a baked NavigationMesh is disabled ({disabled} with `enabled = false`)")
    } else {
        format!(
            "the file's baked NavigationMesh resources are held by other resources (a MeshLibrary's items?), which only a GridMap places, and used by no enabled navigation region ({held} held, {disabled} disabled region(s))"
        )
    };
    Error::InvalidPolygon {
        message: format!("{file}: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SurfaceData> {
        parse_godot(text, "t.tscn")
    }

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    const G4: &str = r#"[gd_scene load_steps=3 format=3 uid="uid://abc"]

[ext_resource type="Script" path="res://a;b.gd" id="1_x"]

[sub_resource type="BoxMesh" id="BoxMesh_1"]
size = Vector3(2, 4, 2)

[sub_resource type="NavigationMesh" id="NavigationMesh_q"]
vertices = PackedVector3Array(-1.5, 0.25, -2, 1e-05, -0, 3,
  4, 0.25, 1.5E+1, 2, 2, 2)
polygons = [PackedInt32Array(0, 1, 2), PackedInt32Array(2, 1, 3)]
agent_max_climb = 0.5

[node name="Root" type="Node3D"]
script = ExtResource("1_x")
metadata/_note = "a [bracket] and a \"quote\" ( in a string"

[node name="Region" type="NavigationRegion3D" parent="."]
navigation_mesh = SubResource("NavigationMesh_q")
"#;

    #[test]
    fn godot4_scene_vertices_and_polygons_exactly() {
        let d = parse(G4).unwrap();
        assert_eq!(d.up, UpAxis::Y);
        assert_eq!(
            d.vertices,
            vec![
                DVec3::new(-1.5, 0.25, -2.0),
                DVec3::new(1e-5, 0.0, 3.0),
                DVec3::new(4.0, 0.25, 15.0),
                DVec3::new(2.0, 2.0, 2.0),
            ]
        );
        assert_eq!(d.polygons, vec![vec![0, 1, 2], vec![2, 1, 3]]);
        assert!(d.areas.is_empty() && d.flags.is_empty() && d.detail.is_none());
        // Climb written, height and radius Godot 4's defaults.
        assert_eq!(
            d.agent,
            BakeAgent {
                height: Some(1.5),
                radius: Some(0.5),
                climb: Some(0.5)
            }
        );
    }

    #[test]
    fn typed_polygon_arrays_and_tres_resources() {
        let tres = r#"[gd_resource type="NavigationMesh" format=3 uid="uid://x"]

[resource]
vertices = PackedVector3Array(0, 0, 0, 1, 0, 0, 0, 0, 1)
polygons = Array[PackedInt32Array]([PackedInt32Array(0, 2, 1)])
agent_height = 2.0
agent_radius = 0.4
"#;
        let d = parse(tres).unwrap();
        assert_eq!(d.polygons, vec![vec![0, 2, 1]]);
        assert_eq!(d.vertices[2], DVec3::Z);
        assert_eq!(
            (d.agent.height, d.agent.radius, d.agent.climb),
            (Some(2.0), Some(0.4), Some(0.25))
        );
        // A `.tres` of another type is not a navmesh.
        let other = tres.replacen("type=\"NavigationMesh\"", "type=\"Environment\"", 1);
        assert!(err(&other).contains("no NavigationMesh"), "{}", err(&other));
    }

    const G3: &str = r#"[gd_scene load_steps=4 format=2]

[ext_resource path="res://x.gd" type="Script" id=1]

[sub_resource type="NavigationMesh" id=1]
vertices = PoolVector3Array( 0, 0, 0, 2, 0, 0, 2, 0, 2, 0, 0, 2 )
polygons = [ PoolIntArray( 0, 1, 2, 3 ) ]
agent/radius = 0.3
geometry/collision_mask = 4294967295

[sub_resource type="ArrayMesh" id=2]
surfaces/0 = {
"aabb": AABB( -1, 0, -1, 2, 0, 2 ),
"array_data": PoolByteArray( 0, 0, 128, 63 ),
"blend_shape_data": [  ],
"material": SubResource( 1 )
}

[node name="Navigation" type="Navigation"]
transform = Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0 )
__meta__ = {
"__editor_plugin_screen__": "3D"
}

[node name="Instance" type="NavigationMeshInstance" parent="."]
transform = Transform( 0, 0, 1, 0, 1, 0, -1, 0, 0, 10, 0, 0 )
navmesh = SubResource( 1 )

[node name="Child" type="MeshInstance" parent="Instance" groups=["navmesh"]]
mesh = SubResource( 2 )
"#;

    #[test]
    fn godot3_scene_with_transforms_composed_through_the_parent() {
        let d = parse(G3).unwrap();
        // Instance: basis rows (0,0,1), (0,1,0), (-1,0,0): a quarter turn about y taking x
        // to -z; origin (10, 0, 0); then the parent's (0, 1, 0).
        assert_eq!(
            d.vertices,
            vec![
                DVec3::new(10.0, 1.0, 0.0),
                DVec3::new(10.0, 1.0, -2.0),
                DVec3::new(12.0, 1.0, -2.0),
                DVec3::new(12.0, 1.0, 0.0),
            ]
        );
        assert_eq!(d.polygons, vec![vec![0, 1, 2, 3]]);
        // Godot 3's defaults where the file is silent.
        assert_eq!(
            (d.agent.height, d.agent.radius, d.agent.climb),
            (Some(2.0), Some(0.3), Some(0.9))
        );
    }

    #[test]
    fn transforms_compose_through_deep_paths_and_stop_where_godot_stops() {
        let scene = |extra: &str, parent_type: &str| {
            format!(
                r#"[gd_scene format=3]
[sub_resource type="NavigationMesh" id="m"]
vertices = PackedVector3Array(1, 0, 0, 0, 0, 1, 0, 0, 0)
polygons = [PackedInt32Array(0, 1, 2)]
[node name="Root" type="Node3D"]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 100, 0, 0)
[node name="A" type="{parent_type}" parent="."]
transform = Transform3D(2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 10, 0)
[node name="B" type="Node3D" parent="A"]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1)
[node name="R" type="NavigationRegion3D" parent="A/B"]
{extra}navigation_mesh = SubResource("m")
"#
            )
        };
        // R at B's place: root ∘ A (scale 2, up 10) ∘ B (z + 1).
        let d = parse(&scene("", "Node3D")).unwrap();
        assert_eq!(d.vertices[0], DVec3::new(102.0, 10.0, 2.0));
        assert_eq!(d.vertices[2], DVec3::new(100.0, 10.0, 2.0));
        // top_level: R's own transform is its global one.
        let d = parse(&scene(
            "top_level = true\ntransform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 0)\n",
            "Node3D",
        ))
        .unwrap();
        assert_eq!(d.vertices[0], DVec3::new(1.0, 5.0, 0.0));
        // A plain Node ancestor ends the chain below it: B ∘ (A and the root ignored).
        let d = parse(&scene("", "Node")).unwrap();
        assert_eq!(d.vertices[0], DVec3::new(1.0, 0.0, 1.0));
    }

    #[test]
    fn a_mesh_used_twice_appears_twice_an_unused_one_once_and_disabled_regions_not() {
        let text = r#"[gd_scene format=3]
[sub_resource type="NavigationMesh" id="used"]
vertices = PackedVector3Array(0, 0, 0, 1, 0, 0, 0, 0, 1)
polygons = [PackedInt32Array(0, 1, 2)]
agent_radius = 0.5
[sub_resource type="NavigationMesh" id="spare"]
vertices = PackedVector3Array(5, 0, 5, 6, 0, 5, 5, 0, 6)
polygons = [PackedInt32Array(2, 1, 0)]
agent_radius = 0.75
[sub_resource type="NavigationMesh" id="off"]
vertices = PackedVector3Array(9, 0, 9, 8, 0, 9, 9, 0, 8)
polygons = [PackedInt32Array(0, 1, 2)]
[sub_resource type="NavigationMesh" id="unbaked"]
agent_radius = 0.5
[node name="Root" type="Node3D"]
[node name="R1" type="NavigationRegion3D" parent="."]
navigation_mesh = SubResource("used")
[node name="R2" type="NavigationRegion3D" parent="."]
transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 3, 0)
navigation_mesh = SubResource("used")
[node name="R3" type="NavigationRegion3D" parent="."]
navigation_mesh = SubResource("off")
enabled = false
[node name="R4" type="NavigationRegion3D" parent="."]
navigation_mesh = ExtResource("1_ext")
"#;
        let d = parse(text).unwrap();
        assert_eq!(d.vertices.len(), 9);
        assert_eq!(d.vertices[3], DVec3::new(0.0, 3.0, 0.0));
        assert_eq!(d.vertices[6], DVec3::new(5.0, 0.0, 5.0));
        assert_eq!(
            d.polygons,
            vec![vec![0, 1, 2], vec![3, 4, 5], vec![8, 7, 6]]
        );
        // The radius differs between the placed meshes; height and climb agree (defaults).
        assert_eq!(
            (d.agent.height, d.agent.radius, d.agent.climb),
            (Some(1.5), None, Some(0.25))
        );
    }

    #[test]
    fn meshes_a_mesh_library_holds_are_not_placed() {
        let lib = r#"[gd_resource type="MeshLibrary" load_steps=3 format=2]
[sub_resource type="NavigationMesh" id=1]
vertices = PoolVector3Array( 0, 0, 0, 1, 0, 0, 0, 0, 1 )
polygons = [ PoolIntArray( 0, 1, 2 ) ]
[resource]
item/0/name = "floor"
item/0/navmesh = SubResource( 1 )
item/0/navmesh_transform = Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 )
"#;
        let e = err(lib);
        assert!(e.contains("held by other resources"), "{e}");
    }

    #[test]
    fn nothing_to_read_says_why() {
        assert_eq!(
            err("[gd_scene format=3]\n"),
            "invalid polygon: t.tscn: the file has no NavigationMesh (3D) or NavigationPolygon (2D) resource"
        );
        let unbaked = "[gd_scene format=3]\n[sub_resource type=\"NavigationMesh\" id=\"n\"]\nagent_radius = 0.3\n[node name=\"R\" type=\"NavigationRegion3D\"]\nnavigation_mesh = SubResource(\"n\")\n";
        assert_eq!(
            err(unbaked),
            "invalid polygon: t.tscn: the file has 1 NavigationMesh resource(s) but none is baked (no polygons)"
        );
        let external = "[gd_scene format=3]\n[ext_resource type=\"NavigationMesh\" path=\"res://n.res\" id=\"2_a\"]\n[node name=\"R\" type=\"NavigationRegion3D\"]\nnavigation_mesh = ExtResource(\"2_a\")\n";
        assert!(
            err(external).contains("meshes saved in other files"),
            "{}",
            err(external)
        );
        let disabled = G4.replace(
            "navigation_mesh = SubResource(\"NavigationMesh_q\")",
            "navigation_mesh = SubResource(\"NavigationMesh_q\")\nenabled = false",
        );
        assert!(err(&disabled).contains("is disabled"), "{}", err(&disabled));
    }

    #[test]
    fn numbers_godot_writes_and_numbers_it_does_not() {
        let with = |v: &str| {
            format!(
                "[gd_resource type=\"NavigationMesh\" format=3]\n[resource]\nvertices = PackedVector3Array({v})\npolygons = [PackedInt32Array(0, 1, 2)]\n"
            )
        };
        let d = parse(&with("1, -0, 2.5e-3, 3., 4E2, -5.25e+1, 0, 0, 1")).unwrap();
        assert_eq!(d.vertices[0], DVec3::new(1.0, 0.0, 0.0025));
        assert_eq!(d.vertices[1], DVec3::new(3.0, 400.0, -52.5));
        for (bad, message) in [
            (
                "inf, 0, 0, 0, 0, 0, 0, 0, 0",
                "t.tscn:3:31: vertex 0: `inf` is not a finite number",
            ),
            (
                "0, -inf, 0, 0, 0, 0, 0, 0, 0",
                "t.tscn:3:34: vertex 0: `-inf` is not a finite number",
            ),
            (
                "0, 0, nan, 0, 0, 0, 0, 0, 0",
                "t.tscn:3:37: vertex 0: `nan` is not a finite number",
            ),
            (
                "0, 0, 0, 1e, 0, 0, 0, 0, 0",
                "t.tscn:3:40: vertex 1: `1e` is not a number",
            ),
            (
                "0, 0, 0, 1e999, 0, 0, 0, 0, 0",
                "t.tscn:3:40: vertex 1: `1e999` is too large",
            ),
            (
                "0, 0, 0, \"1\", 0, 0, 0, 0, 0",
                "t.tscn:3:40: vertex 1: expected a number, found the string \"1\"",
            ),
            (
                "0, 0, 0, 0, 0, 0, 0, 0",
                "t.tscn:3:12: `vertices` has 8 numbers, not a whole number of (x, y, z) vertices",
            ),
            (
                "0, 0, 0, 0, 0, 0, 0, 0, - 1",
                "t.tscn:3:55: expected a number after `-`, found ` `",
            ),
        ] {
            let e = err(&with(bad)).to_string();
            assert_eq!(e, format!("{message}"), "{bad}");
        }
    }

    #[test]
    fn polygon_indices_are_checked() {
        let with = |p: &str| {
            format!(
                "[gd_resource type=\"NavigationMesh\" format=3]\n[resource]\nvertices = PackedVector3Array(0, 0, 0, 1, 0, 0, 0, 0, 1)\npolygons = [{p}]\n"
            )
        };
        assert_eq!(
            err(&with("PackedInt32Array(0, 1, 2), PackedInt32Array(0, 3, 1)")),
            "t.tscn:4:40: polygon 1 of NavigationMesh (the file's resource): vertex index 3 is out of range: the mesh has 3 vertices"
        );
        assert_eq!(
            err(&with("PackedInt32Array(0, -1, 2)")),
            "t.tscn:4:33: polygon 0: vertex index -1 is negative"
        );
        assert_eq!(
            err(&with("PackedInt32Array(0, 1.5, 2)")),
            "t.tscn:4:33: polygon 0: vertex index `1.5` is not a whole number"
        );
        assert_eq!(
            err(&with("PackedInt32Array(0, 99999999999999999999, 2)")),
            "t.tscn:4:33: polygon 0: vertex index 99999999999999999999 is out of range"
        );
        assert_eq!(
            err(&with("PackedInt32Array(0, 4294967296, 2)")),
            "t.tscn:4:33: polygon 0: vertex index 4294967296 is out of range"
        );
        assert_eq!(
            err(&with("PackedFloat32Array(0, 1, 2)")),
            "t.tscn:4:13: `polygon 0` should be `PackedInt32Array(…)`, found `PackedFloat32Array(…)`"
        );
        let wrong = "[gd_resource type=\"NavigationMesh\" format=3]\n[resource]\npolygons = PackedInt32Array(0, 1, 2)\n";
        assert_eq!(
            err(wrong),
            "t.tscn:3:12: `polygons` should be an array `[…]`, found `PackedInt32Array(…)`"
        );
    }

    #[test]
    fn syntax_errors_name_the_line_and_column() {
        let cases: [(&str, &str); 12] = [
            (
                "[gd_scene format=3\n",
                "t.tscn:1:1: this section header `[` is not closed before the end of the file",
            ),
            (
                "[gd_scene format=3]\nkey value\n",
                "t.tscn:2:5: expected `=` after the property name `key`, found `v`",
            ),
            (
                "[gd_scene format=3]\nkey = [1, 2\n",
                "t.tscn:2:7: this `[` is not closed before the end of the file",
            ),
            (
                "[gd_scene format=3]\nkey = Vector3(1, 2\n",
                "t.tscn:2:14: this `(` is not closed before the end of the file",
            ),
            (
                "[gd_scene format=3]\nkey = {\"a\": 1\n",
                "t.tscn:2:7: this `{` is not closed before the end of the file",
            ),
            (
                "[gd_scene format=3]\nkey = \"abc\n",
                "t.tscn:2:7: this string is not closed before the end of the file",
            ),
            (
                "[gd_scene format=3]\nkey = [1 2]\n",
                "t.tscn:2:10: expected `,` or `]` in the `[` opened at line 2, found `2`",
            ),
            (
                "[gd_scene format=3]\nkey = ]\n",
                "t.tscn:2:7: expected a value, found `]`",
            ),
            (
                "[gd_scene format=3]\nkey =\n",
                "t.tscn:3:1: expected a value, found the end of the file",
            ),
            (
                "[gd_scene format=3]\n= 1\n",
                "t.tscn:2:1: expected a property name, found `=`",
            ),
            (
                "[ ]\n",
                "t.tscn:1:3: expected a section name after `[`, found `]`",
            ),
            (
                "[node name=\"a\" \"b\"]\n",
                "t.tscn:1:16: expected an attribute name or `]` in the `[node` header, found `\"`",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(err(text), message, "{text:?}");
        }
        let deep = format!(
            "[gd_scene format=3]\nk = {}{}\n",
            "[".repeat(100),
            "]".repeat(100)
        );
        assert_eq!(
            err(&deep),
            "t.tscn:2:69: values are nested more than 64 deep"
        );
        let e = err(&G4.replace(
            "navigation_mesh = SubResource(\"NavigationMesh_q\")",
            "transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0)\nnavigation_mesh = SubResource(\"NavigationMesh_q\")",
        ));
        assert!(e.contains("`transform` has 11 numbers, expected 12"), "{e}");
    }

    #[test]
    fn transforms_off_the_regions_chains_are_not_read() {
        // A 2D node's Transform2D, and a broken transform on a node no region sits under.
        let text = G4.replace(
            "[node name=\"Region\"",
            "[node name=\"Sprite\" type=\"Node2D\" parent=\".\"]\ntransform = Transform2D(1, 0, 0, 1, 5, 5)\n\n[node name=\"Odd\" type=\"Node3D\" parent=\".\"]\ntransform = Transform3D(1, 0, nan, 0, 1, 0, 0, 0, 1, 0, 0, 0)\n\n[node name=\"Region\"",
        );
        assert_eq!(parse(&text).unwrap(), parse(G4).unwrap());
        // Under the broken one, it is an error.
        let under = text.replace(
            "parent=\".\"]\nnavigation_mesh",
            "parent=\"Odd\"]\nnavigation_mesh",
        );
        assert_eq!(
            err(&under),
            "t.tscn:22:31: transform: `nan` is not a finite number"
        );
    }

    #[test]
    fn references_the_file_cannot_resolve() {
        let missing = G4.replace("SubResource(\"NavigationMesh_q\")", "SubResource(\"nope\")");
        assert_eq!(
            err(&missing),
            "t.tscn:18:1: node `Region` uses SubResource(\"nope\"), which is not a NavigationMesh of this file"
        );
        let orphan = G4.replace("parent=\".\"", "parent=\"Lost/Child\"");
        assert!(
            err(&orphan).starts_with(
                "t.tscn:18:1: node `Region`: its ancestor `Lost/Child` is not in the file"
            ),
            "{}",
            err(&orphan)
        );
    }

    #[test]
    fn comments_strings_and_unknown_syntax_are_skipped() {
        let text = r#"; a comment [ with an open bracket
[gd_scene load_steps=2 format=3 uid="uid://x"]
[ext_resource type="Script" uid="uid://y" path="res://]odd[.gd" id="1"]
[sub_resource type="NavigationMesh" id="m"] ; trailing comment (
vertices = PackedVector3Array(0, 0, 0, 1, 0, 0, ; comment inside a value
0, 0, 1)
"quoted/key" = &"name"
colour = #ff00ff
other = Object(Resource, "a": [1, {"b": [2]}], "c": null)
typed = Dictionary[String, int]({"x": 1})
callable = Callable()
polygons = [PackedInt32Array(0, 1, 2),]
[connection signal="s" from="." to="." method="m" flags=3 binds=["]", 2]]
[editable path="x/y"]
"#;
        let d = parse(text).unwrap();
        assert_eq!(d.polygons, vec![vec![0, 1, 2]]);
        assert_eq!(d.vertices.len(), 3);
    }

    #[test]
    fn sniffing() {
        assert!(is_godot(G4));
        assert!(is_godot(G3));
        assert!(is_godot("\n\n  [gd_resource type=\"NavigationMesh\"]"));
        assert!(!is_godot("[node name=\"x\"]"));
        assert!(!is_godot(""));
        assert!(!is_godot("mesh\n2\n"));
    }

    #[test]
    fn every_prefix_is_ok_or_an_error_never_a_panic() {
        for text in [G4, G3] {
            for (i, _) in text.char_indices() {
                let _ = parse_godot(&text[..i], "prefix.tscn");
            }
        }
    }

    /// A 2D `NavigationPolygon` (Godot 4) placed by its region's and its parent's
    /// `position`, `rotation` and `scale`, composed as Godot composes `Transform2D`s: in
    /// the plane, z up; the agent's radius as written, no height or climb.
    #[test]
    fn navigation_polygons_are_read_in_the_plane_where_their_regions_place_them() {
        let text = r#"[gd_scene load_steps=2 format=3]

[sub_resource type="NavigationPolygon" id="NavigationPolygon_a"]
vertices = PackedVector2Array(0, 0, 4, 0, 4, 2, 0, 2)
polygons = [PackedInt32Array(0, 1, 2, 3)]
outlines = [PackedVector2Array(0, 0, 4, 0, 4, 2, 0, 2)]
agent_radius = 12.0

[node name="Level" type="Node2D"]
position = Vector2(100, 50)
scale = Vector2(2, 2)

[node name="Region" type="NavigationRegion2D" parent="."]
position = Vector2(10, 0)
rotation = 1.5707963267948966
navigation_polygon = SubResource("NavigationPolygon_a")
"#;
        let data = parse(text).unwrap();
        assert_eq!(data.up, UpAxis::Z);
        assert_eq!(data.polygons, vec![vec![0, 1, 2, 3]]);
        // (x, y) -> Level(Region(x, y)) = 2 ((-y, x) + (10, 0)) + (100, 50).
        let want = [(120.0, 50.0), (120.0, 58.0), (116.0, 58.0), (116.0, 50.0)];
        for (v, (x, y)) in data.vertices.iter().zip(want) {
            assert!(
                v.distance(DVec3::new(x, y, 0.0)) < 1e-12,
                "{v} != ({x}, {y})"
            );
        }
        assert_eq!(
            (data.agent.height, data.agent.radius, data.agent.climb),
            (None, Some(12.0), None)
        );
        assert!(data.links.is_empty());

        // Links: a NavigationLink2D under the level, placed by its transforms, one way,
        // priced; a disabled one and a 3D one (of the other kind) left out.
        let links = format!(
            "{text}
[node name=\"Jump\" type=\"NavigationLink2D\" parent=\".\"]
position = Vector2(1, 1)
start_position = Vector2(0, 0)
end_position = Vector2(3, 4)
bidirectional = false
enter_cost = 2.0
travel_cost = 0.5

[node name=\"Off\" type=\"NavigationLink2D\" parent=\".\"]
enabled = false
end_position = Vector2(1, 0)

[node name=\"Other\" type=\"NavigationLink3D\" parent=\".\"]
end_position = Vector3(1, 0, 0)
"
        );
        let data = parse(&links).unwrap();
        assert_eq!(data.links.len(), 1);
        let l = data.links[0];
        // (x, y) -> 2 ((x, y) + (1, 1)) + (100, 50).
        assert_eq!(
            (l.start, l.end),
            (DVec3::new(102.0, 52.0, 0.0), DVec3::new(108.0, 60.0, 0.0))
        );
        assert!(!l.bidirectional);
        assert_eq!((l.radius, l.cost), (LINK_RADIUS[1], Some(2.0 + 0.5 * 10.0)));
        // A link's bad value is an error where the link is read.
        let bad = links.replace("end_position = Vector2(3, 4)", "end_position = Vector2(3)");
        assert!(
            err(&bad).contains("`end_position` has 1 numbers, expected 2"),
            "{}",
            err(&bad)
        );
    }

    /// Godot 3's `NavigationPolygonInstance` (`navpoly`, `PoolVector2Array`,
    /// `rotation_degrees`) under a node placed by a `Transform2D`; and a file with a 3D
    /// `NavigationMesh` as well is read in 3D, the 2D polygon left out.
    #[test]
    fn godot3_navigation_polygons_and_files_with_both_kinds() {
        let text = r#"[gd_scene load_steps=2 format=2]

[sub_resource type="NavigationPolygon" id=1]
vertices = PoolVector2Array( 0, 0, 4, 0, 4, 2 )
polygons = [ PoolIntArray( 0, 1, 2 ) ]

[node name="Root" type="CanvasLayer"]
transform = Transform2D( 1, 0, 0, 1, 5, 7 )

[node name="Nav" type="NavigationPolygonInstance" parent="."]
rotation_degrees = 180.0
navpoly = SubResource( 1 )
"#;
        let data = parse(text).unwrap();
        assert_eq!(data.up, UpAxis::Z);
        // (x, y) -> (-x, -y) + (5, 7).
        let want = [(5.0, 7.0), (1.0, 7.0), (1.0, 5.0)];
        for (v, (x, y)) in data.vertices.iter().zip(want) {
            assert!(
                v.distance(DVec3::new(x, y, 0.0)) < 1e-12,
                "{v} != ({x}, {y})"
            );
        }
        assert_eq!(data.agent.radius, None);

        let both = format!(
            "{text}\n[sub_resource type=\"NavigationMesh\" id=2]\nvertices = PoolVector3Array( 0, 1, 0, 1, 1, 0, 0, 1, 1 )\npolygons = [ PoolIntArray( 0, 1, 2 ) ]\n"
        );
        let data = parse(&both).unwrap();
        assert_eq!(data.up, UpAxis::Y);
        assert_eq!(data.vertices.len(), 3);
        assert_eq!(data.vertices[0], DVec3::new(0.0, 1.0, 0.0));
        // A 2D polygon with an odd count of numbers is refused at the line.
        let odd = text.replace("4, 0, 4, 2 )", "4, 0, 4 )");
        assert!(
            err(&odd).contains("not a whole number of (x, y) vertices"),
            "{}",
            err(&odd)
        );
    }
}
