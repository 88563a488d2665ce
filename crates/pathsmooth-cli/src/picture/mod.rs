//! Pictures: a map (or just a bounding box) with any number of paths, markers, disks and
//! triangles, a title and a legend, rendered to SVG ([`svg`]) or PNG ([`png`]).
//!
//! World coordinates are the library's: x to the right, y down (row 0 of a grid map at the
//! top), so a map is drawn the way its file reads.

pub mod png;
pub mod svg;

use glam::DVec2;
use pathsmooth::navmesh::mesh::{NavMesh, TriId};
use pathsmooth::{GridWorld, World};

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Distinct colours for paths, in the order methods are listed (colour-blind-friendly
/// Okabe–Ito palette first, then extras).
pub const PALETTE: [Rgb; 10] = [
    Rgb(0, 114, 178),   // blue
    Rgb(213, 94, 0),    // vermillion
    Rgb(0, 158, 115),   // bluish green
    Rgb(204, 121, 167), // reddish purple
    Rgb(230, 159, 0),   // orange
    Rgb(86, 180, 233),  // sky blue
    Rgb(120, 94, 240),  // violet
    Rgb(160, 160, 0),   // olive
    Rgb(0, 95, 95),     // dark teal
    Rgb(200, 30, 60),   // crimson
];

/// Colour of the raw (unsmoothed) path.
pub const RAW: Rgb = Rgb(150, 150, 150);
/// Colour of blocked cells.
pub const WALL: Rgb = Rgb(45, 45, 55);
/// Start marker colour.
pub const START: Rgb = Rgb(0, 170, 0);
/// Goal marker colour.
pub const GOAL: Rgb = Rgb(220, 0, 0);

/// One polyline to draw.
#[derive(Debug, Clone)]
pub struct Layer {
    /// Legend text.
    pub label: String,
    /// The polyline, in world coordinates.
    pub points: Vec<DVec2>,
    /// Stroke colour.
    pub color: Rgb,
    /// Stroke width in pixels.
    pub width: f64,
    /// Dashed stroke (used for raw input paths).
    pub dashed: bool,
    /// Draw a dot at every vertex.
    pub dots: bool,
    /// The exact curve the polyline samples (a fillet path): SVG draws its arcs as arcs;
    /// PNG draws the polyline.
    pub curve: Option<pathsmooth::curve::exact::ExactCurve>,
}

impl Layer {
    /// A solid path of width 2 px with no dots.
    pub fn path(label: impl Into<String>, points: Vec<DVec2>, color: Rgb) -> Self {
        Layer {
            label: label.into(),
            points,
            color,
            width: 2.0,
            dashed: false,
            dots: false,
            curve: None,
        }
    }

    /// A solid path drawn from an exact curve (arcs as arcs in SVG), `points` being its
    /// sampled polyline.
    pub fn curve(
        label: impl Into<String>,
        curve: pathsmooth::curve::exact::ExactCurve,
        points: Vec<DVec2>,
        color: Rgb,
    ) -> Self {
        Layer {
            curve: Some(curve),
            ..Layer::path(label, points, color)
        }
    }

    /// A dashed raw input path with vertex dots.
    pub fn raw(label: impl Into<String>, points: Vec<DVec2>) -> Self {
        Layer {
            dashed: true,
            dots: true,
            ..Layer::path(label, points, RAW)
        }
    }
}

/// An agent moving along a path: (time in seconds, position) samples, drawn as an animated
/// dot in SVG output (PNG output ignores tracks).
#[derive(Debug, Clone)]
pub struct Track {
    /// Dot colour.
    pub color: Rgb,
    /// Samples in increasing time, starting at t = 0.
    pub samples: Vec<(f64, DVec2)>,
}

/// A labelled point (start, goal).
#[derive(Debug, Clone)]
pub struct Marker {
    /// Position in world coordinates.
    pub at: DVec2,
    /// Fill colour.
    pub color: Rgb,
    /// Legend text.
    pub label: String,
}

/// Everything a picture shows.
#[derive(Debug, Clone)]
pub struct Scene<'a> {
    /// Title printed at the top of the legend.
    pub title: String,
    /// The grid world drawn underneath, if any.
    pub grid: Option<&'a GridWorld>,
    /// World-space corner with the smallest coordinates.
    pub min: DVec2,
    /// World-space corner with the largest coordinates.
    pub max: DVec2,
    /// Pixels per world unit.
    pub scale: f64,
    /// Navmesh triangles (drawn as thin outlines).
    pub triangles: Vec<[DVec2; 3]>,
    /// Triangles to fill (a navmesh corridor).
    pub highlight: Vec<[DVec2; 3]>,
    /// Obstacle polygons (scene holes), filled like walls.
    pub obstacles: Vec<Vec<DVec2>>,
    /// Clearance disks (centre, radius).
    pub disks: Vec<(DVec2, f64)>,
    /// Paths, drawn in order.
    pub layers: Vec<Layer>,
    /// Start and goal markers.
    pub markers: Vec<Marker>,
    /// Animated agents (SVG only).
    pub tracks: Vec<Track>,
}

/// Margin around the drawing, in pixels.
pub const MARGIN: f64 = 8.0;
/// Height of one legend row, in pixels.
pub const LEGEND_ROW: f64 = 20.0;

impl<'a> Scene<'a> {
    /// A scene over a whole grid world (in its world units), scaled so that the longer
    /// side is about 1024 px (at least 1 and at most 24 px per cell).
    pub fn for_map(title: impl Into<String>, world: &'a GridWorld) -> Self {
        let map = world.map();
        let side = map.width().max(map.height()) as f64;
        let bounds = world.bounds();
        Scene {
            grid: Some(world),
            ..Scene::empty(
                title,
                bounds.min,
                bounds.max,
                (1024.0 / side).floor().clamp(1.0, 24.0) / world.cell_size(),
            )
        }
    }

    /// A scene around some points (5% padding), about 1000 px on its longer side.
    pub fn for_points<'p>(
        title: impl Into<String>,
        points: impl IntoIterator<Item = &'p DVec2>,
    ) -> Self {
        let (mut min, mut max) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for p in points {
            min = min.min(*p);
            max = max.max(*p);
        }
        if !min.is_finite() || !max.is_finite() {
            (min, max) = (DVec2::ZERO, DVec2::ONE);
        }
        let pad = ((max - min).max_element() * 0.05).max(1e-3);
        let (min, max) = (min - pad, max + pad);
        Scene::empty(title, min, max, 1000.0 / (max - min).max_element())
    }

    /// A scene with nothing in it over the world rectangle `min`–`max`.
    fn empty(title: impl Into<String>, min: DVec2, max: DVec2, scale: f64) -> Self {
        Scene {
            title: title.into(),
            grid: None,
            min,
            max,
            scale,
            triangles: Vec::new(),
            highlight: Vec::new(),
            obstacles: Vec::new(),
            disks: Vec::new(),
            layers: Vec::new(),
            markers: Vec::new(),
            tracks: Vec::new(),
        }
    }

    /// Adds a navmesh's triangles, with `corridor`'s triangles filled.
    pub fn add_navmesh(&mut self, mesh: &NavMesh, corridor: &[TriId]) {
        self.triangles = (0..mesh.num_triangles())
            .map(|t| mesh.triangle(t))
            .collect();
        self.highlight = corridor.iter().map(|&t| mesh.triangle(t)).collect();
    }

    /// Adds start and goal markers at the ends of `path` (if it has any points).
    pub fn mark_ends(&mut self, path: &[DVec2]) {
        if let (Some(&s), Some(&g)) = (path.first(), path.last()) {
            self.markers.push(Marker {
                at: s,
                color: START,
                label: "start".into(),
            });
            self.markers.push(Marker {
                at: g,
                color: GOAL,
                label: "goal".into(),
            });
        }
    }

    /// Width and height of the drawing area (without legend) in pixels.
    pub fn drawing_size(&self) -> (f64, f64) {
        let s = (self.max - self.min) * self.scale;
        (s.x + 2.0 * MARGIN, s.y + 2.0 * MARGIN)
    }

    /// Number of legend rows: the title, then one per layer and marker.
    pub fn legend_rows(&self) -> usize {
        1 + self.layers.len() + self.markers.len()
    }

    /// Full image size in pixels (drawing plus legend band below it), at least 360 px wide
    /// so the legend fits.
    pub fn image_size(&self) -> (u32, u32) {
        let (w, h) = self.drawing_size();
        let legend = self.legend_rows() as f64 * LEGEND_ROW + MARGIN;
        (w.max(360.0).ceil() as u32, (h + legend).ceil() as u32)
    }

    /// World → pixel coordinates.
    pub fn to_px(&self, p: DVec2) -> DVec2 {
        (p - self.min) * self.scale + DVec2::splat(MARGIN)
    }

    /// Horizontal runs of blocked cells as world rectangles (min, max corners), so a
    /// 512×512 map is a few thousand rectangles rather than a quarter million.
    pub fn wall_runs(&self) -> Vec<(DVec2, DVec2)> {
        let Some(world) = self.grid else {
            return Vec::new();
        };
        let map = world.map();
        let corner = |x: usize, y: usize| world.to_world(DVec2::new(x as f64, y as f64));
        let mut runs = Vec::new();
        for y in 0..map.height() {
            let mut x = 0;
            while x < map.width() {
                if map.is_blocked(x as i64, y as i64) {
                    let x0 = x;
                    while x < map.width() && map.is_blocked(x as i64, y as i64) {
                        x += 1;
                    }
                    runs.push((corner(x0, y), corner(x, y + 1)));
                } else {
                    x += 1;
                }
            }
        }
        runs
    }

    /// Legend entries: (colour or none for the title, text, dashed).
    pub fn legend(&self) -> Vec<(Option<Rgb>, String, bool)> {
        let mut rows = vec![(None, self.title.clone(), false)];
        rows.extend(
            self.layers
                .iter()
                .map(|l| (Some(l.color), l.label.clone(), l.dashed)),
        );
        rows.extend(
            self.markers
                .iter()
                .map(|m| (Some(m.color), m.label.clone(), false)),
        );
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathsmooth::grid::GridMap;

    #[test]
    fn wall_runs_merge_rows() {
        let map = GridMap::from_rows(&["@@.@", "...."]).unwrap();
        let world = GridWorld::with_frame(map, 0.5, DVec2::new(10.0, 20.0)).unwrap();
        let scene = Scene::for_map("t", &world);
        let d = DVec2::new;
        assert_eq!(
            scene.wall_runs(),
            vec![
                (d(10.0, 20.0), d(11.0, 20.5)),
                (d(11.5, 20.0), d(12.0, 20.5))
            ]
        );
        assert_eq!(scene.scale, 48.0);
    }

    #[test]
    fn for_points_survives_no_points() {
        let s = Scene::for_points("t", &[]);
        assert!(s.scale.is_finite() && s.scale > 0.0);
    }
}
