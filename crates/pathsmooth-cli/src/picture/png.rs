//! PNG output of a [`Scene`] with tiny-skia; legend text uses the 8×8 bitmap font of the
//! `font8x8` crate, drawn at double size.

use font8x8::UnicodeFonts;
use glam::DVec2;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform};

use super::{Rgb, Scene, LEGEND_ROW, MARGIN, WALL};

/// Renders the scene to PNG bytes.
pub fn render(scene: &Scene) -> anyhow::Result<Vec<u8>> {
    let (w, h) = scene.image_size();
    let mut pm =
        Pixmap::new(w, h).ok_or_else(|| anyhow::anyhow!("picture size {w}×{h} is too large"))?;
    pm.fill(Color::WHITE);
    walls(&mut pm, scene);
    for hole in &scene.obstacles {
        let px: Vec<DVec2> = hole.iter().map(|v| scene.to_px(*v)).collect();
        if let Some(path) = px_path(&px) {
            pm.fill_path(
                &path,
                &paint(WALL, 255),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    for t in &scene.highlight {
        if let Some(path) = px_path(&[t[0], t[1], t[2]].map(|v| scene.to_px(v))) {
            pm.fill_path(
                &path,
                &paint(Rgb(255, 233, 168), 255),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    for t in &scene.triangles {
        polyline(
            &mut pm,
            scene,
            &[t[0], t[1], t[2], t[0]],
            Rgb(176, 184, 200),
            0.6,
            false,
        );
    }
    for (c, r) in &scene.disks {
        circle(
            &mut pm,
            scene.to_px(*c),
            (*r * scene.scale) as f32,
            Rgb(74, 144, 217),
            30,
            true,
        );
    }
    for layer in &scene.layers {
        polyline(
            &mut pm,
            scene,
            &layer.points,
            layer.color,
            layer.width as f32,
            layer.dashed,
        );
        if layer.dots {
            for p in &layer.points {
                circle(&mut pm, scene.to_px(*p), 2.0, layer.color, 255, false);
            }
        }
    }
    for m in &scene.markers {
        let q = scene.to_px(m.at);
        circle(&mut pm, q, 7.0, Rgb(0, 0, 0), 255, false);
        circle(&mut pm, q, 6.0, m.color, 255, false);
    }
    legend(&mut pm, scene);
    pm.encode_png()
        .map_err(|e| anyhow::anyhow!("PNG encoding failed: {e}"))
}

fn paint(c: Rgb, alpha: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, alpha);
    p.anti_alias = true;
    p
}

fn walls(pm: &mut Pixmap, scene: &Scene) {
    let p = paint(WALL, 255);
    for (lo, hi) in scene.wall_runs() {
        let (a, b) = (scene.to_px(lo), scene.to_px(hi));
        if let Some(r) = Rect::from_ltrb(a.x as f32, a.y as f32, b.x as f32, b.y as f32) {
            pm.fill_rect(r, &p, Transform::identity(), None);
        }
    }
}

fn polyline(pm: &mut Pixmap, scene: &Scene, pts: &[DVec2], c: Rgb, width: f32, dashed: bool) {
    let Some(path) = px_path(&pts.iter().map(|p| scene.to_px(*p)).collect::<Vec<_>>()) else {
        return;
    };
    let stroke = Stroke {
        line_join: tiny_skia::LineJoin::Round,
        ..stroke(width, dashed)
    };
    pm.stroke_path(&path, &paint(c, 255), &stroke, Transform::identity(), None);
}

/// A stroke of `width` px, dashed 6 on 4 off when asked (the raw-path style).
fn stroke(width: f32, dashed: bool) -> Stroke {
    Stroke {
        width,
        dash: if dashed {
            StrokeDash::new(vec![6.0, 4.0], 0.0)
        } else {
            None
        },
        ..Stroke::default()
    }
}

fn circle(pm: &mut Pixmap, at: DVec2, r: f32, c: Rgb, alpha: u8, outline: bool) {
    let Some(path) = PathBuilder::from_circle(at.x as f32, at.y as f32, r.max(0.5)) else {
        return;
    };
    pm.fill_path(
        &path,
        &paint(c, alpha),
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    if outline {
        pm.stroke_path(
            &path,
            &paint(c, 140),
            &Stroke::default(),
            Transform::identity(),
            None,
        );
    }
}

fn legend(pm: &mut Pixmap, scene: &Scene) {
    let (_, top) = scene.drawing_size();
    for (i, (color, text, dashed)) in scene.legend().into_iter().enumerate() {
        let y = top + i as f64 * LEGEND_ROW;
        let mut x = MARGIN;
        if let Some(c) = color {
            let mid = y + LEGEND_ROW / 2.0;
            let mut pb = PathBuilder::new();
            pb.move_to(x as f32, mid as f32);
            pb.line_to((x + 28.0) as f32, mid as f32);
            if let Some(path) = pb.finish() {
                pm.stroke_path(
                    &path,
                    &paint(c, 255),
                    &stroke(3.0, dashed),
                    Transform::identity(),
                    None,
                );
            }
            x += 36.0;
        }
        text_at(pm, x, y + 2.0, &text);
    }
}

/// Draws ASCII text with its top-left corner at (x, y), 16 px tall.
fn text_at(pm: &mut Pixmap, x: f64, y: f64, text: &str) {
    const SCALE: f32 = 2.0;
    let p = paint(Rgb(20, 20, 20), 255);
    for (i, ch) in text.chars().enumerate() {
        let Some(glyph) = font8x8::BASIC_FONTS.get(ch) else {
            continue;
        };
        let gx = x as f32 + i as f32 * 8.0 * SCALE;
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) != 0 {
                    let r = Rect::from_xywh(
                        gx + col as f32 * SCALE,
                        y as f32 + row as f32 * SCALE,
                        SCALE,
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
    use super::super::{Layer, Scene};
    use super::*;
    use pathsmooth::grid::GridMap;

    #[test]
    fn png_decodes_with_expected_size_and_wall_pixels() {
        let map = GridMap::from_rows(&["@.", ".."]).unwrap();
        let world = pathsmooth::GridWorld::new(map).unwrap();
        let mut scene = Scene::for_map("t", &world);
        scene.layers.push(Layer::raw(
            "raw",
            vec![DVec2::new(0.5, 1.5), DVec2::new(1.5, 0.5)],
        ));
        let bytes = render(&scene).unwrap();
        let pm = Pixmap::decode_png(&bytes).unwrap();
        assert_eq!((pm.width(), pm.height()), scene.image_size());
        // Centre of the blocked cell (0, 0) is wall-coloured.
        let q = scene.to_px(DVec2::new(0.5, 0.5));
        let px = pm.pixel(q.x as u32, q.y as u32).unwrap();
        assert_eq!((px.red(), px.green(), px.blue()), (WALL.0, WALL.1, WALL.2));
    }
}
