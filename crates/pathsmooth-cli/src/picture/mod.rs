//! Pictures: a map (or just a bounding box) with any number of paths, markers, disks and
//! triangles, a heading, a scale bar and a legend, rendered to SVG ([`svg`]) or PNG
//! ([`png`]); and sheets of such pictures side by side ([`Sheet`], small multiples: one
//! panel per method, so no path hides another).
//!
//! World coordinates are the library's: x to the right, y down (row 0 of a grid map at the
//! top), so a map is drawn the way its file reads.

pub mod png;
pub mod svg;

use glam::DVec2;
use pathsmooth::area::{SWAMP, WATER};
use pathsmooth::navmesh::{NavMesh, TriId};
use pathsmooth::{GridMap, GridWorld, World};

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
/// Colour of swamp cells (Moving AI `S`), as the playground paints them.
pub const SWAMP_FILL: Rgb = Rgb(190, 200, 140);
/// Colour of water cells (Moving AI `W`; blocked unless the area costs give it a cost).
pub const WATER_FILL: Rgb = Rgb(125, 170, 230);
/// Start marker colour.
pub const START: Rgb = Rgb(0, 170, 0);
/// Goal marker colour.
pub const GOAL: Rgb = Rgb(220, 0, 0);
/// Colour of a heading that reports a problem (a skipped step, a failed method).
pub const ALERT: Rgb = Rgb(200, 0, 0);
/// Colour of text.
pub const INK: Rgb = Rgb(20, 20, 20);
/// Fill of a navmesh channel's triangles.
pub const CHANNEL: Rgb = Rgb(255, 233, 168);
/// Opacity (0–255) of an agent's swept band.
pub const BAND_ALPHA: u8 = 110;

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
    pub curve: Option<pathsmooth::curve::ExactCurve>,
    /// The agent's radius, world units: the band the agent sweeps (the polyline stroked
    /// 2·radius wide, translucent) is drawn under every path.
    pub band: Option<f64>,
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
            band: None,
        }
    }

    /// The same layer with the band an agent of `radius` (world units) sweeps along it.
    pub fn with_band(self, radius: f64) -> Self {
        Layer {
            band: (radius > 0.0).then_some(radius),
            ..self
        }
    }

    /// A solid path drawn from an exact curve (arcs as arcs in SVG), `points` being its
    /// sampled polyline.
    pub fn curve(
        label: impl Into<String>,
        curve: pathsmooth::curve::ExactCurve,
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
    /// The agent's radius in world units (the dot is drawn that size); 0 for a 5 px dot.
    pub radius: f64,
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
    /// Lines of text above the drawing (a panel's method and metrics);
    /// [`set_heading`](Self::set_heading) wraps them to the drawing's width.
    pub heading: Vec<String>,
    /// How many of the heading's first lines are its title, drawn in bold.
    pub title_lines: usize,
    /// The heading's title reports a problem (drawn in [`ALERT`] red, the drawing framed
    /// in red).
    pub alert: bool,
    /// Outlined rectangles (world min and max corners), such as the window a detail view
    /// shows.
    pub boxes: Vec<(DVec2, DVec2)>,
    /// Clip everything drawn to the view (a detail that shows part of the geometry).
    pub clip: bool,
    /// The word the scale bar counts in ("cells", "units"); plural.
    pub unit: &'static str,
}

/// Margin around the drawing, in pixels.
pub const MARGIN: f64 = 8.0;
/// Height of one legend row (and of a heading line), in pixels.
pub const LEGEND_ROW: f64 = 20.0;
/// Width of one character of the PNG text (the 8×8 font drawn at double size), in pixels;
/// headings are wrapped to it.
pub const CHAR_WIDTH: f64 = 16.0;
/// Height of the band under the drawing that holds the scale bar, in pixels.
pub const SCALE_BAR_BAND: f64 = 28.0;
/// Space between the panels of a [`Sheet`], in pixels.
pub const GAP: f64 = 16.0;
/// Width of a legend swatch (and the space after it), in pixels.
pub const SWATCH: f64 = 28.0;

/// What a legend entry shows before its text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Key {
    /// No swatch: the text is a title, in bold.
    Title,
    /// A path's stroke, dashed or solid, with the agent's band under it when `band`.
    Line {
        /// Stroke colour.
        color: Rgb,
        /// Dashed like a raw path.
        dashed: bool,
        /// With the translucent band of the agent's size under the line.
        band: bool,
    },
    /// A filled circle (start, goal).
    Dot(Rgb),
    /// A filled square (an area, such as a navmesh channel).
    Fill(Rgb),
}

/// A nice scale bar length: 1, 2 or 5 × 10ⁿ world units, at most `max` (and at least
/// 10⁻⁹).
fn nice_length(max: f64) -> f64 {
    if !(max.is_finite() && max > 1e-9) {
        return 1e-9;
    }
    let p = 10f64.powf(max.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&l| l <= max * (1.0 + 1e-12))
        .unwrap_or(p)
}

/// Splits `text` into lines of at most `width` characters at spaces (a longer word is
/// cut).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let used = line.chars().count();
            let sep = usize::from(used > 0);
            if used + sep + word.len() <= width {
                if sep == 1 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A word longer than a line: cut it.
            let rest = word.split_off(width);
            lines.push(word.iter().collect());
            word = rest;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

impl<'a> Scene<'a> {
    /// A scene over a whole grid world (in its world units), scaled so that the longer
    /// side is about 1024 px (at least 1 and at most 24 px per cell).
    pub fn for_map(title: impl Into<String>, world: &'a GridWorld) -> Self {
        let map = world.map();
        let side = map.width().max(map.height()) as f64;
        let bounds = world.bounds();
        Scene {
            grid: Some(world),
            unit: if world.cell_size() == 1.0 {
                "cells"
            } else {
                "units"
            },
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
            heading: Vec::new(),
            title_lines: 0,
            alert: false,
            boxes: Vec::new(),
            clip: false,
            unit: "units",
        }
    }

    /// Fits the view to everything the scene draws (paths with their bands, markers,
    /// disks, triangles, obstacles, boxes, tracks), with `pad` (a fraction of the larger
    /// side) around it, `longer_px` pixels on its longer side.
    pub fn fit(&mut self, pad: f64, longer_px: f64) {
        let (mut min, mut max) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        let mut add = |p: DVec2, r: f64| {
            if p.is_finite() {
                min = min.min(p - DVec2::splat(r));
                max = max.max(p + DVec2::splat(r));
            }
        };
        for l in &self.layers {
            let r = l.band.unwrap_or(0.0);
            l.points.iter().for_each(|&p| add(p, r));
        }
        self.markers.iter().for_each(|m| add(m.at, 0.0));
        self.disks.iter().for_each(|&(c, r)| add(c, r));
        let polygons = self.triangles.iter().chain(&self.highlight);
        polygons.flatten().for_each(|&p| add(p, 0.0));
        self.obstacles.iter().flatten().for_each(|&p| add(p, 0.0));
        self.boxes.iter().for_each(|&(a, b)| {
            add(a, 0.0);
            add(b, 0.0);
        });
        for t in &self.tracks {
            t.samples.iter().for_each(|&(_, p)| add(p, t.radius));
        }
        if !min.is_finite() || !max.is_finite() {
            (min, max) = (DVec2::ZERO, DVec2::ONE);
        }
        let pad = ((max - min).max_element() * pad).max(1e-3);
        (self.min, self.max) = (min - pad, max + pad);
        self.scale = longer_px / (self.max - self.min).max_element();
    }

    /// Sets the heading to `lines`, each wrapped to the view's width (so set the view and
    /// scale first); the first is the title.
    pub fn set_heading<S: AsRef<str>>(&mut self, lines: impl IntoIterator<Item = S>) {
        let (w, _) = self.view_px();
        let width = (w / CHAR_WIDTH).floor() as usize;
        self.heading.clear();
        self.title_lines = 0;
        for (i, line) in lines.into_iter().enumerate() {
            let wrapped = wrap(line.as_ref(), width);
            if i == 0 {
                self.title_lines = wrapped.len();
            }
            self.heading.extend(wrapped);
        }
    }

    /// Height of the heading band in pixels (0 without a heading).
    pub fn heading_height(&self) -> f64 {
        match self.heading.len() {
            0 => 0.0,
            n => n as f64 * LEGEND_ROW + MARGIN,
        }
    }

    /// Width and height of the view (the world rectangle) in pixels.
    pub fn view_px(&self) -> (f64, f64) {
        let s = (self.max - self.min) * self.scale;
        (s.x, s.y)
    }

    /// The scale bar: its length in world units and its label ("10 cells"), about a fifth
    /// of the view's width.
    pub fn scale_bar(&self) -> (f64, String) {
        let (w, _) = self.view_px();
        let length = nice_length(w.max(1.0) / 5.0 / self.scale);
        let unit = if length == 1.0 {
            self.unit.strip_suffix('s').unwrap_or(self.unit)
        } else {
            self.unit
        };
        (length, format!("{length} {unit}"))
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

    /// Width and height of the drawing area in pixels: the heading, the view with its
    /// margin, the scale bar's band (no legend).
    pub fn drawing_size(&self) -> (f64, f64) {
        let (w, h) = self.view_px();
        (
            w + 2.0 * MARGIN,
            self.heading_height() + h + 2.0 * MARGIN + SCALE_BAR_BAND,
        )
    }

    /// The view's top-left and bottom-right corners in pixels.
    pub fn view_rect(&self) -> (DVec2, DVec2) {
        (self.to_px(self.min), self.to_px(self.max))
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
        (p - self.min) * self.scale + DVec2::new(MARGIN, MARGIN + self.heading_height())
    }

    /// Horizontal runs of blocked cells as world rectangles (min, max corners), so a
    /// 512×512 map is a few thousand rectangles rather than a quarter million.
    pub fn wall_runs(&self) -> Vec<(DVec2, DVec2)> {
        self.runs(|map, x, y| map.is_blocked(x as i64, y as i64))
    }

    /// Swamp and water cells as [`wall_runs`](Self::wall_runs) gives walls, each kind
    /// with its colour ([`SWAMP_FILL`], [`WATER_FILL`]; water over the wall it is unless
    /// given a cost); empty on a map without areas.
    pub fn area_runs(&self) -> Vec<(Rgb, Vec<(DVec2, DVec2)>)> {
        if self.grid.is_none_or(|w| w.map().areas().is_none()) {
            return Vec::new();
        }
        [(SWAMP, SWAMP_FILL), (WATER, WATER_FILL)]
            .into_iter()
            .map(|(area, fill)| (fill, self.runs(|map, x, y| map.area(x, y) == area)))
            .filter(|(_, runs)| !runs.is_empty())
            .collect()
    }

    /// Horizontal runs of the grid's cells where `is(map, x, y)`, as world rectangles.
    fn runs(&self, is: impl Fn(&GridMap, usize, usize) -> bool) -> Vec<(DVec2, DVec2)> {
        let Some(world) = self.grid else {
            return Vec::new();
        };
        let map = world.map();
        let corner = |x: usize, y: usize| world.to_world(DVec2::new(x as f64, y as f64));
        let mut runs = Vec::new();
        for y in 0..map.height() {
            let mut x = 0;
            while x < map.width() {
                if is(map, x, y) {
                    let x0 = x;
                    while x < map.width() && is(map, x, y) {
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

    /// The legend's entries with their top-left corners: one row each, under the drawing.
    pub fn legend_layout(&self) -> Vec<(DVec2, Key, String)> {
        let (_, top) = self.drawing_size();
        let rows = self.legend().into_iter().enumerate();
        rows.map(|(i, (key, text))| (DVec2::new(MARGIN, top + i as f64 * LEGEND_ROW), key, text))
            .collect()
    }

    /// Legend entries: the title, one per layer (its line), one per marker (its dot).
    pub fn legend(&self) -> Vec<(Key, String)> {
        let mut rows = vec![(Key::Title, self.title.clone())];
        rows.extend(self.layers.iter().map(|l| {
            let key = Key::Line {
                color: l.color,
                dashed: l.dashed,
                band: l.band.is_some(),
            };
            let text = match l.band {
                Some(r) => format!("{} (band: an agent of radius {r})", l.label),
                None => l.label.clone(),
            };
            (key, text)
        }));
        rows.extend(
            self.markers
                .iter()
                .map(|m| (Key::Dot(m.color), m.label.clone())),
        );
        rows
    }
}

/// Pictures side by side in a grid (small multiples), under a title, over one legend.
#[derive(Debug, Clone)]
pub struct Sheet<'a> {
    /// Title at the top.
    pub title: String,
    /// The panels, row by row; each is drawn with its heading and scale bar, without its
    /// own legend.
    pub panels: Vec<Scene<'a>>,
    /// Panels per row (at least 1).
    pub columns: usize,
    /// The legend under the panels, its entries flowing left to right.
    pub legend: Vec<(Key, String)>,
}

impl<'a> Sheet<'a> {
    /// A sheet of `panels`, `columns` a row, their headings padded to the same number of
    /// lines so the views of a row line up.
    pub fn new(
        title: impl Into<String>,
        mut panels: Vec<Scene<'a>>,
        columns: usize,
        legend: Vec<(Key, String)>,
    ) -> Self {
        let rows = panels.iter().map(|p| p.heading.len()).max().unwrap_or(0);
        for p in &mut panels {
            p.heading.resize(rows, String::new());
        }
        Sheet {
            title: title.into(),
            panels,
            columns,
            legend,
        }
    }

    fn columns(&self) -> usize {
        self.columns.clamp(1, self.panels.len().max(1))
    }

    /// The width of each column and the height of each row: their largest panel's.
    fn grid(&self) -> (Vec<f64>, Vec<f64>) {
        let c = self.columns();
        let mut widths = vec![0.0f64; c];
        let mut heights = vec![0.0f64; self.panels.len().div_ceil(c)];
        for (i, p) in self.panels.iter().enumerate() {
            let (w, h) = p.drawing_size();
            widths[i % c] = widths[i % c].max(w);
            heights[i / c] = heights[i / c].max(h);
        }
        (widths, heights)
    }

    /// The panels' width: every column and the gaps between them.
    fn panels_width(&self) -> f64 {
        let (widths, _) = self.grid();
        widths.iter().sum::<f64>() + widths.len().saturating_sub(1) as f64 * GAP
    }

    /// The top-left corner of panel `i`, in pixels.
    pub fn panel_origin(&self, i: usize) -> DVec2 {
        let (widths, heights) = self.grid();
        let c = self.columns();
        let x: f64 = widths[..i % c].iter().map(|w| w + GAP).sum();
        let y: f64 = heights[..i / c].iter().map(|h| h + GAP).sum();
        DVec2::new(MARGIN + x, LEGEND_ROW + MARGIN + y)
    }

    /// Where the legend starts (its first row's top), in pixels.
    pub fn legend_top(&self) -> f64 {
        let (_, heights) = self.grid();
        LEGEND_ROW + MARGIN + heights.iter().map(|h| h + GAP).sum::<f64>()
    }

    /// The legend's entries with their top-left corners: left to right, onto a new row
    /// when the next one would pass the sheet's width, for text `char_width` pixels a
    /// character.
    pub fn legend_layout(&self, char_width: f64) -> Vec<(DVec2, Key, String)> {
        let right = MARGIN + self.panels_width();
        let mut at = DVec2::new(MARGIN, self.legend_top());
        let mut out = Vec::new();
        for (key, text) in &self.legend {
            let width = SWATCH + 8.0 + text.chars().count() as f64 * char_width;
            if at.x > MARGIN && at.x + width > right {
                at = DVec2::new(MARGIN, at.y + LEGEND_ROW);
            }
            out.push((at, *key, text.clone()));
            at.x += width + 2.0 * char_width;
        }
        out
    }

    /// Full image size in pixels, for title and legend text `char_width` pixels a
    /// character: wide enough for the panels and the title.
    pub fn image_size(&self, char_width: f64) -> (u32, u32) {
        let title = self.title.chars().count() as f64 * char_width;
        let width = 2.0 * MARGIN + self.panels_width().max(title);
        let bottom = self
            .legend_layout(char_width)
            .last()
            .map_or(self.legend_top(), |(at, _, _)| at.y + LEGEND_ROW);
        (width.ceil() as u32, (bottom + MARGIN).ceil() as u32)
    }

    /// The longest track of any panel (seconds): every panel's agents loop over it plus a
    /// one-second hold, so all restart together.
    pub fn track_end(&self) -> f64 {
        self.panels.iter().map(Scene::track_end).fold(0.0, f64::max)
    }
}

impl Scene<'_> {
    /// The end of the longest track, seconds (0 without tracks).
    pub fn track_end(&self) -> f64 {
        self.tracks
            .iter()
            .filter_map(|t| t.samples.last().map(|(t, _)| *t))
            .fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pathsmooth::grid::GridMap;

    /// The world the PNG and SVG renderers' tests draw: a 2 × 2 map whose cell (0, 0) is a
    /// wall.
    pub(super) fn one_wall_world() -> GridWorld {
        GridWorld::new(GridMap::from_rows(&["@.", ".."]).unwrap()).unwrap()
    }

    /// What the PNG and SVG renderers' tests draw: `world` (`one_wall_world`) titled `title`,
    /// with a raw path across the wall from (0.5, 1.5) to (1.5, 0.5), its ends marked.
    pub(super) fn one_wall_scene<'a>(title: &str, world: &'a GridWorld) -> Scene<'a> {
        let path = vec![DVec2::new(0.5, 1.5), DVec2::new(1.5, 0.5)];
        let mut scene = Scene::for_map(title, world);
        scene.mark_ends(&path);
        scene.layers.push(Layer::raw("raw", path));
        scene
    }

    #[test]
    fn swamp_and_water_are_runs_of_their_own() {
        let map = GridMap::from_rows(&["SS.W", "@.SS"]).unwrap();
        let world = GridWorld::new(map).unwrap();
        let scene = Scene::for_map("t", &world);
        let d = DVec2::new;
        assert_eq!(
            scene.area_runs(),
            vec![
                (
                    SWAMP_FILL,
                    vec![(d(0.0, 0.0), d(2.0, 1.0)), (d(2.0, 1.0), d(4.0, 2.0))]
                ),
                (WATER_FILL, vec![(d(3.0, 0.0), d(4.0, 1.0))])
            ]
        );
        let plain = GridWorld::new(GridMap::from_rows(&["..@"]).unwrap()).unwrap();
        assert!(Scene::for_map("t", &plain).area_runs().is_empty());
    }

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

    #[test]
    fn scale_bars_are_round_numbers() {
        assert_eq!(nice_length(17.0), 10.0);
        assert_eq!(nice_length(4.9), 2.0);
        assert_eq!(nice_length(5.0), 5.0);
        assert_eq!(nice_length(0.3), 0.2);
        let map = GridMap::from_rows(&["....."; 5]).unwrap();
        let world = GridWorld::new(map).unwrap();
        let mut scene = Scene::for_map("t", &world);
        scene.unit = "cells";
        assert_eq!(scene.scale_bar(), (1.0, "1 cell".to_string()));
    }

    #[test]
    fn fit_holds_every_layer() {
        let d = DVec2::new;
        let mut s = Scene::for_points("t", &[d(0.0, 0.0), d(1.0, 1.0)]);
        s.layers
            .push(Layer::path("a", vec![d(0.0, 0.0), d(100.0, 2.0)], RAW));
        s.layers
            .push(Layer::path("b", vec![d(-5.0, 0.0), d(1.0, 1.0)], RAW).with_band(1.0));
        s.fit(0.05, 1000.0);
        assert!(s.min.x < -6.0 && s.max.x > 100.0 && s.min.y < -1.0 && s.max.y > 2.0);
        let (w, h) = s.view_px();
        assert!((w.max(h) - 1000.0).abs() < 1e-6);
    }

    #[test]
    fn wrap_breaks_at_spaces_and_cuts_long_words() {
        assert_eq!(
            wrap("relax - skipped: segment 3", 12),
            ["relax -", "skipped:", "segment 3"]
        );
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap("", 3), [""]);
    }
}
