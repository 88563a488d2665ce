//! SVG output of a [`Scene`]: plain SVG 1.1 that any browser shows.

use std::fmt::Write;

use glam::DVec2;
use pathsmooth::curve::exact::{ExactCurve, Piece};

use super::{Scene, LEGEND_ROW, MARGIN, WALL};

/// Renders the scene as an SVG document.
pub fn render(scene: &Scene) -> String {
    let (w, h) = scene.image_size();
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    walls(&mut s, scene);
    triangles(&mut s, scene);
    disks(&mut s, scene);
    for layer in &scene.layers {
        if layer.points.is_empty() {
            continue;
        }
        let dash = if layer.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        if let Some(curve) = &layer.curve {
            let _ = writeln!(
                s,
                r#"<path d="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linejoin="round"{dash}><title>{}</title></path>"#,
                curve_d(scene, curve),
                layer.color.hex(),
                layer.width,
                escape(&layer.label)
            );
        } else {
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{}" stroke-linejoin="round"{dash}><title>{}</title></polyline>"#,
                points_attr(scene, &layer.points),
                layer.color.hex(),
                layer.width,
                escape(&layer.label)
            );
        }
        if layer.dots {
            for p in &layer.points {
                let q = scene.to_px(*p);
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.2}" cy="{:.2}" r="2" fill="{}"/>"#,
                    q.x,
                    q.y,
                    layer.color.hex()
                );
            }
        }
    }
    for m in &scene.markers {
        let q = scene.to_px(m.at);
        let _ = writeln!(
            s,
            r#"<circle cx="{:.2}" cy="{:.2}" r="6" fill="{}" stroke="black"/>"#,
            q.x,
            q.y,
            m.color.hex()
        );
    }
    tracks(&mut s, scene);
    legend(&mut s, scene);
    s.push_str("</svg>\n");
    s
}

fn walls(s: &mut String, scene: &Scene) {
    let runs = scene.wall_runs();
    if runs.is_empty() {
        return;
    }
    let _ = writeln!(s, r#"<g fill="{}">"#, WALL.hex());
    for (lo, hi) in runs {
        let (a, b) = (scene.to_px(lo), scene.to_px(hi));
        let _ = writeln!(
            s,
            r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}"/>"#,
            a.x,
            a.y,
            b.x - a.x,
            b.y - a.y
        );
    }
    s.push_str("</g>\n");
}

fn triangles(s: &mut String, scene: &Scene) {
    let poly = |t: &[DVec2]| points_attr(scene, t);
    for hole in &scene.obstacles {
        let _ = writeln!(
            s,
            r#"<polygon points="{}" fill="{}"/>"#,
            poly(hole),
            WALL.hex()
        );
    }
    if !scene.highlight.is_empty() {
        let _ = writeln!(s, r##"<g fill="#ffe9a8" stroke="none">"##);
        for t in &scene.highlight {
            let _ = writeln!(s, r#"<polygon points="{}"/>"#, poly(&t[..]));
        }
        s.push_str("</g>\n");
    }
    if scene.triangles.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        r##"<g fill="none" stroke="#b0b8c8" stroke-width="0.6">"##
    );
    for t in &scene.triangles {
        let _ = writeln!(s, r#"<polygon points="{}"/>"#, poly(&t[..]));
    }
    s.push_str("</g>\n");
}

fn disks(s: &mut String, scene: &Scene) {
    if scene.disks.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        r##"<g fill="#4a90d9" fill-opacity="0.12" stroke="#4a90d9" stroke-opacity="0.5" stroke-width="0.8">"##
    );
    for (c, r) in &scene.disks {
        let q = scene.to_px(*c);
        let _ = writeln!(
            s,
            r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}"/>"#,
            q.x,
            q.y,
            r * scene.scale
        );
    }
    s.push_str("</g>\n");
}

/// One dot per track, animated with SMIL `<animate>` on cx/cy. All tracks share one loop
/// period (the longest track plus a one-second hold), so agents that arrive early wait at
/// their goal and every method's agent restarts together.
fn tracks(s: &mut String, scene: &Scene) {
    let end = scene
        .tracks
        .iter()
        .filter_map(|t| t.samples.last().map(|(t, _)| *t))
        .fold(0.0, f64::max);
    if scene.tracks.is_empty() || end <= 0.0 {
        return;
    }
    let period = end + 1.0;
    for track in &scene.tracks {
        let Some(&(_, last)) = track.samples.last() else {
            continue;
        };
        let mut key_times = Vec::with_capacity(track.samples.len() + 1);
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for (t, p) in track.samples.iter().chain(std::iter::once(&(period, last))) {
            let q = scene.to_px(*p);
            key_times.push(format!("{:.5}", (t / period).clamp(0.0, 1.0)));
            xs.push(format!("{:.2}", q.x));
            ys.push(format!("{:.2}", q.y));
        }
        let first = scene.to_px(track.samples[0].1);
        let _ = writeln!(
            s,
            r#"<circle cx="{:.2}" cy="{:.2}" r="5" fill="{}" stroke="black">"#,
            first.x,
            first.y,
            track.color.hex()
        );
        for (attr, values) in [("cx", &xs), ("cy", &ys)] {
            let _ = writeln!(
                s,
                r#"<animate attributeName="{attr}" dur="{period:.3}s" repeatCount="indefinite" calcMode="linear" keyTimes="{}" values="{}"/>"#,
                key_times.join(";"),
                values.join(";")
            );
        }
        s.push_str("</circle>\n");
    }
}

fn legend(s: &mut String, scene: &Scene) {
    let (_, top) = scene.drawing_size();
    for (i, (color, text, dashed)) in scene.legend().into_iter().enumerate() {
        let y = top + i as f64 * LEGEND_ROW + LEGEND_ROW * 0.7;
        let x = MARGIN;
        match color {
            None => {
                let _ = writeln!(
                    s,
                    r#"<text x="{x}" y="{y:.1}" font-weight="bold">{}</text>"#,
                    escape(&text)
                );
            }
            Some(c) => {
                let dash = if dashed {
                    r#" stroke-dasharray="6 4""#
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    r#"<line x1="{x}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="3"{dash}/><text x="{:.1}" y="{y:.1}">{}</text>"#,
                    y - 4.0,
                    x + 28.0,
                    y - 4.0,
                    c.hex(),
                    x + 36.0,
                    escape(&text)
                );
            }
        }
    }
}

/// World points as an SVG `points` attribute in pixel coordinates.
/// An SVG path's `d` for an exact curve: lines as `L`, circular arcs as `A` (elliptical
/// arc commands with equal radii), clothoids as `L` chords about 2 px long.
fn curve_d(scene: &Scene, curve: &ExactCurve) -> String {
    let px = |p: DVec2| scene.to_px(p);
    let start = px(curve.start());
    let mut d = format!("M{:.2},{:.2}", start.x, start.y);
    for piece in curve.pieces() {
        match *piece {
            Piece::Line { end, .. } => {
                let q = px(end);
                let _ = write!(d, " L{:.2},{:.2}", q.x, q.y);
            }
            Piece::Arc {
                radius, sweep, end, ..
            } => {
                // Screen and world share orientation (x right, y down): a positive sweep
                // turns from +x towards +y, SVG's sweep-flag 1.
                let q = px(end);
                let r = radius * scene.scale;
                let large = (sweep.abs() > std::f64::consts::PI) as u8;
                let flag = (sweep > 0.0) as u8;
                let _ = write!(d, " A{r:.2},{r:.2} 0 {large} {flag} {:.2},{:.2}", q.x, q.y);
            }
            Piece::Clothoid { .. } => {
                let n = piece.length() * scene.scale;
                let chords = (n / 2.0).ceil().clamp(2.0, 500.0) as usize;
                for k in 1..=chords {
                    let q = px(piece.point_at(piece.length() * k as f64 / chords as f64));
                    let _ = write!(d, " L{:.2},{:.2}", q.x, q.y);
                }
            }
        }
    }
    d
}

fn points_attr(scene: &Scene, pts: &[DVec2]) -> String {
    let p: Vec<String> = pts
        .iter()
        .map(|v| {
            let q = scene.to_px(*v);
            format!("{:.2},{:.2}", q.x, q.y)
        })
        .collect();
    p.join(" ")
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::super::{Layer, Scene};
    use super::*;
    use glam::DVec2;
    use pathsmooth::grid::GridMap;

    #[test]
    fn svg_has_walls_paths_and_legend() {
        let map = GridMap::from_rows(&["@.", ".."]).unwrap();
        let world = pathsmooth::GridWorld::new(map).unwrap();
        let mut scene = Scene::for_map("a <b>", &world);
        let path = vec![DVec2::new(0.5, 1.5), DVec2::new(1.5, 0.5)];
        scene.mark_ends(&path);
        scene.layers.push(Layer::raw("raw", path));
        let svg = render(&scene);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("<polyline"));
        assert!(svg.contains("a &lt;b&gt;"));
        assert_eq!(svg.matches("<rect").count(), 2); // background + one wall run
    }
}
