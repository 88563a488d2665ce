//! PNG output of a [`Scene`] or a [`Sheet`] of them with tiny-skia; text uses the 8×8
//! bitmap font of the `font8x8` crate, drawn at double size.

use font8x8::UnicodeFonts;
use glam::DVec2;
use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Mask, Paint, PathBuilder, Pixmap, PixmapPaint, Rect,
    Stroke, StrokeDash, Transform,
};

use super::{
    Key, Rgb, Scene, Sheet, ALERT, BAND_ALPHA, CHANNEL, CHAR_WIDTH, INK, LEGEND_ROW, MARGIN,
    SCALE_BAR_BAND, SWATCH, WALL,
};

/// Renders the scene to PNG bytes: the drawing, then its legend (one row each).
pub fn render(scene: &Scene) -> anyhow::Result<Vec<u8>> {
    let (w, h) = scene.image_size();
    let mut pm = pixmap(w, h)?;
    pm.draw_pixmap(
        0,
        0,
        panel(scene)?.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
    for (at, key, text) in scene.legend_layout() {
        legend_entry(&mut pm, at, key, &text);
    }
    encode(&pm)
}

/// Renders a sheet to PNG bytes: its title, each panel in its place, the legend under them.
pub fn render_sheet(sheet: &Sheet) -> anyhow::Result<Vec<u8>> {
    let (w, h) = sheet.image_size(CHAR_WIDTH);
    let mut pm = pixmap(w, h)?;
    text_styled(&mut pm, MARGIN, 2.0, &sheet.title, INK, true);
    for (i, scene) in sheet.panels.iter().enumerate() {
        let o = sheet.panel_origin(i);
        pm.draw_pixmap(
            o.x.round() as i32,
            o.y.round() as i32,
            panel(scene)?.as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }
    for (at, key, text) in sheet.legend_layout(CHAR_WIDTH) {
        legend_entry(&mut pm, at, key, &text);
    }
    encode(&pm)
}

fn pixmap(w: u32, h: u32) -> anyhow::Result<Pixmap> {
    let mut pm =
        Pixmap::new(w, h).ok_or_else(|| anyhow::anyhow!("picture size {w}×{h} is too large"))?;
    pm.fill(Color::WHITE);
    Ok(pm)
}

fn encode(pm: &Pixmap) -> anyhow::Result<Vec<u8>> {
    pm.encode_png()
        .map_err(|e| anyhow::anyhow!("PNG encoding failed: {e}"))
}

/// A scene's drawing area (heading, view, scale bar) as a picture of its own.
fn panel(scene: &Scene) -> anyhow::Result<Pixmap> {
    let (w, h) = scene.drawing_size();
    let mut pm = pixmap(w.ceil() as u32, h.ceil() as u32)?;
    heading(&mut pm, scene);
    // A detail view clips its geometry to the view.
    let mask = if scene.clip {
        let (a, b) = scene.view_rect();
        let mut mask = Mask::new(pm.width(), pm.height())
            .ok_or_else(|| anyhow::anyhow!("picture size {w}×{h} is too large"))?;
        if let Some(r) = Rect::from_ltrb(a.x as f32, a.y as f32, b.x as f32, b.y as f32) {
            mask.fill_path(
                &PathBuilder::from_rect(r),
                FillRule::Winding,
                false,
                Transform::identity(),
            );
        }
        Some(mask)
    } else {
        None
    };
    let d = Draw {
        scene,
        mask: mask.as_ref(),
    };
    d.geometry(&mut pm);
    scale_bar(&mut pm, scene);
    Ok(pm)
}

/// Drawing a scene's geometry, clipped to `mask` when there is one.
struct Draw<'s, 'a> {
    scene: &'s Scene<'a>,
    mask: Option<&'s Mask>,
}

impl Draw<'_, '_> {
    fn geometry(&self, pm: &mut Pixmap) {
        let scene = self.scene;
        self.walls(pm);
        for hole in &scene.obstacles {
            let px: Vec<DVec2> = hole.iter().map(|v| scene.to_px(*v)).collect();
            self.fill(pm, &px, WALL, 255);
        }
        // The channel filled, then every triangle's outline: each one path.
        let highlight = triangles_path(scene, &scene.highlight);
        if let Some(path) = highlight {
            pm.fill_path(
                &path,
                &paint(CHANNEL, 255),
                FillRule::Winding,
                Transform::identity(),
                self.mask,
            );
        }
        if let Some(path) = triangles_path(scene, &scene.triangles) {
            pm.stroke_path(
                &path,
                &paint(Rgb(176, 184, 200), 255),
                &thin(0.6),
                Transform::identity(),
                self.mask,
            );
        }
        for (c, r) in &scene.disks {
            self.circle(
                pm,
                scene.to_px(*c),
                (*r * scene.scale) as f32,
                Rgb(74, 144, 217),
                30,
                true,
            );
        }
        // The agents' bands under every path.
        for layer in &scene.layers {
            if let Some(r) = layer.band {
                let band = Stroke {
                    width: (2.0 * r * scene.scale) as f32,
                    line_cap: LineCap::Round,
                    line_join: LineJoin::Round,
                    ..Stroke::default()
                };
                self.stroke(pm, &self.px(&layer.points), layer.color, BAND_ALPHA, &band);
            }
        }
        for layer in &scene.layers {
            let line = Stroke {
                line_join: LineJoin::Round,
                ..stroke(layer.width as f32, layer.dashed)
            };
            self.stroke(pm, &self.px(&layer.points), layer.color, 255, &line);
            if layer.dots {
                for p in &layer.points {
                    self.circle(pm, scene.to_px(*p), 2.0, layer.color, 255, false);
                }
            }
        }
        for &(lo, hi) in &scene.boxes {
            let (a, b) = (scene.to_px(lo), scene.to_px(hi));
            let pts = [a, DVec2::new(b.x, a.y), b, DVec2::new(a.x, b.y), a];
            let dashed = Stroke {
                dash: StrokeDash::new(vec![5.0, 3.0], 0.0),
                ..thin(1.0)
            };
            self.stroke(pm, &pts, INK, 255, &dashed);
        }
        for m in &scene.markers {
            let q = scene.to_px(m.at);
            self.circle(pm, q, 7.0, Rgb(0, 0, 0), 255, false);
            self.circle(pm, q, 6.0, m.color, 255, false);
        }
    }

    fn px(&self, pts: &[DVec2]) -> Vec<DVec2> {
        pts.iter().map(|p| self.scene.to_px(*p)).collect()
    }

    /// The blocked cells: every horizontal run a rectangle, all filled as one path.
    fn walls(&self, pm: &mut Pixmap) {
        self.fill_runs(pm, &self.scene.wall_runs(), WALL);
        // Swamp and water over them (water is blocked unless given a cost).
        for (fill, runs) in self.scene.area_runs() {
            self.fill_runs(pm, &runs, fill);
        }
    }

    /// Fills cell runs (each a rectangle from its low to its high corner, in world units)
    /// with `fill`, as one path.
    fn fill_runs(&self, pm: &mut Pixmap, runs: &[(DVec2, DVec2)], fill: Rgb) {
        let mut pb = PathBuilder::new();
        for &(lo, hi) in runs {
            let (a, b) = (self.scene.to_px(lo), self.scene.to_px(hi));
            if let Some(r) = Rect::from_ltrb(a.x as f32, a.y as f32, b.x as f32, b.y as f32) {
                pb.push_rect(r);
            }
        }
        if let Some(path) = pb.finish() {
            pm.fill_path(
                &path,
                &paint(fill, 255),
                FillRule::Winding,
                Transform::identity(),
                self.mask,
            );
        }
    }

    /// Fills the polygon through pixel-space points.
    fn fill(&self, pm: &mut Pixmap, px: &[DVec2], c: Rgb, alpha: u8) {
        if let Some(path) = px_path(px) {
            pm.fill_path(
                &path,
                &paint(c, alpha),
                FillRule::Winding,
                Transform::identity(),
                self.mask,
            );
        }
    }

    /// Strokes the polyline through pixel-space points.
    fn stroke(&self, pm: &mut Pixmap, px: &[DVec2], c: Rgb, alpha: u8, stroke: &Stroke) {
        if let Some(path) = px_path(px) {
            pm.stroke_path(
                &path,
                &paint(c, alpha),
                stroke,
                Transform::identity(),
                self.mask,
            );
        }
    }

    fn circle(&self, pm: &mut Pixmap, at: DVec2, r: f32, c: Rgb, alpha: u8, outline: bool) {
        circle(pm, at, r, c, alpha, outline, self.mask);
    }
}

/// Triangles as one path of closed outlines (none for no triangles).
fn triangles_path(scene: &Scene, triangles: &[[DVec2; 3]]) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    for t in triangles {
        let [a, b, c] = t.map(|v| scene.to_px(v));
        pb.move_to(a.x as f32, a.y as f32);
        pb.line_to(b.x as f32, b.y as f32);
        pb.line_to(c.x as f32, c.y as f32);
        pb.close();
    }
    pb.finish()
}

fn paint(c: Rgb, alpha: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, alpha);
    p.anti_alias = true;
    p
}

/// A solid stroke of `width` px.
fn thin(width: f32) -> Stroke {
    Stroke {
        width,
        ..Stroke::default()
    }
}

/// A stroke of `width` px, dashed 6 on 4 off when asked (the raw-path style).
fn stroke(width: f32, dashed: bool) -> Stroke {
    Stroke {
        dash: if dashed {
            StrokeDash::new(vec![6.0, 4.0], 0.0)
        } else {
            None
        },
        ..thin(width)
    }
}

fn circle(
    pm: &mut Pixmap,
    at: DVec2,
    r: f32,
    c: Rgb,
    alpha: u8,
    outline: bool,
    mask: Option<&Mask>,
) {
    let Some(path) = PathBuilder::from_circle(at.x as f32, at.y as f32, r.max(0.5)) else {
        return;
    };
    pm.fill_path(
        &path,
        &paint(c, alpha),
        FillRule::Winding,
        Transform::identity(),
        mask,
    );
    if outline {
        pm.stroke_path(
            &path,
            &paint(c, 140),
            &Stroke::default(),
            Transform::identity(),
            mask,
        );
    }
}

/// The heading's lines (the title in bold; red, and a red frame round the drawing, when
/// the scene reports a problem).
fn heading(pm: &mut Pixmap, scene: &Scene) {
    for (i, line) in scene.heading.iter().enumerate() {
        let title = i < scene.title_lines;
        let color = if title && scene.alert { ALERT } else { INK };
        let y = MARGIN + i as f64 * LEGEND_ROW + 2.0;
        text_styled(pm, MARGIN, y, line, color, title);
    }
    if scene.alert {
        let (w, h) = (pm.width() as f64, pm.height() as f64);
        let frame = [
            DVec2::new(1.0, 1.0),
            DVec2::new(w - 1.0, 1.0),
            DVec2::new(w - 1.0, h - 1.0),
            DVec2::new(1.0, h - 1.0),
            DVec2::new(1.0, 1.0),
        ];
        stroke_px(pm, &frame, ALERT, 2.0);
    }
}

/// The scale bar under the view: a bar of a round length with end ticks, and its label.
fn scale_bar(pm: &mut Pixmap, scene: &Scene) {
    let (length, label) = scene.scale_bar();
    let (_, bottom) = scene.view_rect();
    let (x0, y) = (MARGIN, bottom.y + MARGIN + SCALE_BAR_BAND * 0.45);
    let x1 = x0 + length * scene.scale;
    let bar = [
        DVec2::new(x0, y - 6.0),
        DVec2::new(x0, y),
        DVec2::new(x1, y),
        DVec2::new(x1, y - 6.0),
    ];
    stroke_px(pm, &bar, INK, 2.0);
    text_at(pm, x1 + 8.0, y - 11.0, &label);
}

/// One legend entry with its top-left corner at `at`: the key's swatch, then the text.
fn legend_entry(pm: &mut Pixmap, at: DVec2, key: Key, text: &str) {
    let mid = at.y + LEGEND_ROW / 2.0;
    let x = at.x;
    match key {
        Key::Title => {
            text_styled(pm, x, at.y + 2.0, text, INK, true);
            return;
        }
        Key::Line {
            color,
            dashed,
            band,
        } => {
            let line = [DVec2::new(x, mid), DVec2::new(x + SWATCH, mid)];
            if band {
                let inset = [DVec2::new(x + 6.0, mid), DVec2::new(x + SWATCH - 6.0, mid)];
                let wide = Stroke {
                    line_cap: LineCap::Round,
                    ..thin(12.0)
                };
                if let Some(path) = px_path(&inset) {
                    pm.stroke_path(
                        &path,
                        &paint(color, BAND_ALPHA),
                        &wide,
                        Transform::identity(),
                        None,
                    );
                }
            }
            if let Some(path) = px_path(&line) {
                pm.stroke_path(
                    &path,
                    &paint(color, 255),
                    &stroke(3.0, dashed),
                    Transform::identity(),
                    None,
                );
            }
        }
        Key::Dot(color) => {
            let c = DVec2::new(x + SWATCH / 2.0, mid);
            circle(pm, c, 7.0, Rgb(0, 0, 0), 255, false, None);
            circle(pm, c, 6.0, color, 255, false, None);
        }
        Key::Fill(color) => {
            if let Some(r) = Rect::from_xywh(
                (x + 2.0) as f32,
                (mid - 6.0) as f32,
                (SWATCH - 4.0) as f32,
                12.0,
            ) {
                pm.fill_rect(r, &paint(color, 255), Transform::identity(), None);
            }
        }
    }
    text_at(pm, x + SWATCH + 8.0, at.y + 2.0, text);
}

/// The 8×8 glyph of `ch`: ASCII and Latin-1 (°, ×), a dash for the long dashes.
fn glyph(ch: char) -> Option<[u8; 8]> {
    let ch = match ch {
        '—' | '–' | '−' => '-',
        c => c,
    };
    font8x8::BASIC_FONTS
        .get(ch)
        .or_else(|| font8x8::LATIN_FONTS.get(ch))
}

/// Draws text with its top-left corner at (x, y), 16 px tall ([`CHAR_WIDTH`] a
/// character).
fn text_at(pm: &mut Pixmap, x: f64, y: f64, text: &str) {
    text_styled(pm, x, y, text, INK, false);
}

/// [`text_at`] in `color`, bold (each glyph's pixels one pixel wider) when asked.
fn text_styled(pm: &mut Pixmap, x: f64, y: f64, text: &str, color: Rgb, bold: bool) {
    const SCALE: f32 = 2.0;
    let p = paint(color, 255);
    for (i, ch) in text.chars().enumerate() {
        let Some(glyph) = glyph(ch) else {
            continue;
        };
        let gx = x as f32 + i as f32 * CHAR_WIDTH as f32;
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) != 0 {
                    let w = if bold { SCALE + 1.0 } else { SCALE };
                    let r = Rect::from_xywh(
                        gx + col as f32 * SCALE,
                        y as f32 + row as f32 * SCALE,
                        w,
                        SCALE,
                    );
                    if let Some(r) = r {
                        pm.fill_rect(r, &p, Transform::identity(), None);
                    }
                }
            }
        }
    }
}

/// A line plot of `values` against their index (e.g. energy per iteration), 640×400 px,
/// with the y range and the number of points written on the axes.
pub fn plot(title: &str, x_label: &str, y_label: &str, values: &[f64]) -> anyhow::Result<Vec<u8>> {
    const W: f32 = 640.0;
    const H: f32 = 400.0;
    const LEFT: f32 = 130.0;
    const BOTTOM: f32 = 50.0;
    const TOP: f32 = 40.0;
    let mut pm = Pixmap::new(W as u32, H as u32).ok_or_else(|| anyhow::anyhow!("plot size"))?;
    pm.fill(Color::WHITE);
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (lo.min(0.0), lo.max(0.0) + 1.0)
    };
    let (pw, ph) = (W - LEFT - 20.0, H - TOP - BOTTOM);
    // Axes.
    let axis = [
        DVec2::new(LEFT as f64, TOP as f64),
        DVec2::new(LEFT as f64, (H - BOTTOM) as f64),
        DVec2::new((W - 20.0) as f64, (H - BOTTOM) as f64),
    ];
    stroke_px(&mut pm, &axis, Rgb(0, 0, 0), 1.0);
    // The curve.
    let n = values.len().max(2) - 1;
    let pts: Vec<DVec2> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .map(|(i, v)| {
            let x = LEFT + pw * i as f32 / n as f32;
            let y = TOP + ph * (1.0 - ((v - lo) / (hi - lo)) as f32);
            DVec2::new(x as f64, y as f64)
        })
        .collect();
    stroke_px(&mut pm, &pts, super::PALETTE[0], 2.0);
    text_at(&mut pm, LEFT as f64, 10.0, title);
    text_at(&mut pm, 4.0, TOP as f64, &format!("{hi:.4}"));
    text_at(
        &mut pm,
        4.0,
        (H - BOTTOM - 16.0) as f64,
        &format!("{lo:.4}"),
    );
    text_at(&mut pm, 4.0, (TOP + ph / 2.0) as f64, y_label);
    text_at(&mut pm, LEFT as f64, (H - BOTTOM + 8.0) as f64, "0");
    let last = format!("{n}");
    text_at(
        &mut pm,
        (W - 20.0 - 16.0 * last.len() as f32) as f64,
        (H - BOTTOM + 8.0) as f64,
        &last,
    );
    text_at(
        &mut pm,
        (LEFT + pw / 2.0 - 40.0) as f64,
        (H - 22.0) as f64,
        x_label,
    );
    pm.encode_png()
        .map_err(|e| anyhow::anyhow!("PNG encoding failed: {e}"))
}

/// A tiny-skia path through pixel-space points (`None` for fewer than two).
fn px_path(pts: &[DVec2]) -> Option<tiny_skia::Path> {
    let (first, rest) = pts.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let mut pb = PathBuilder::new();
    pb.move_to(first.x as f32, first.y as f32);
    for p in rest {
        pb.line_to(p.x as f32, p.y as f32);
    }
    pb.finish()
}

/// Strokes a polyline given in pixel coordinates.
fn stroke_px(pm: &mut Pixmap, pts: &[DVec2], c: Rgb, width: f32) {
    if let Some(path) = px_path(pts) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        pm.stroke_path(&path, &paint(c, 255), &stroke, Transform::identity(), None);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{one_wall_scene, one_wall_world};
    use super::super::{Scene, SWAMP_FILL, WATER_FILL};
    use super::*;
    use pathsmooth::grid::GridMap;

    #[test]
    fn png_decodes_with_expected_size_and_wall_pixels() {
        let world = one_wall_world();
        let scene = one_wall_scene("t", &world);
        let bytes = render(&scene).unwrap();
        let pm = Pixmap::decode_png(&bytes).unwrap();
        assert_eq!((pm.width(), pm.height()), scene.image_size());
        // Centre of the blocked cell (0, 0) is wall-coloured.
        let q = scene.to_px(DVec2::new(0.5, 0.5));
        let px = pm.pixel(q.x as u32, q.y as u32).unwrap();
        assert_eq!((px.red(), px.green(), px.blue()), (WALL.0, WALL.1, WALL.2));
    }

    #[test]
    fn swamp_and_water_cells_have_their_colours() {
        let map = GridMap::from_rows(&["S.", ".W"]).unwrap();
        let world = pathsmooth::GridWorld::new(map).unwrap();
        let scene = Scene::for_map("t", &world);
        let pm = Pixmap::decode_png(&render(&scene).unwrap()).unwrap();
        let colour = |x: f64, y: f64| {
            let q = scene.to_px(DVec2::new(x, y));
            let px = pm.pixel(q.x as u32, q.y as u32).unwrap();
            Rgb(px.red(), px.green(), px.blue())
        };
        assert_eq!(colour(0.5, 0.5), SWAMP_FILL);
        assert_eq!(colour(1.5, 1.5), WATER_FILL);
        assert_ne!(colour(1.5, 0.5), SWAMP_FILL);
    }
}
