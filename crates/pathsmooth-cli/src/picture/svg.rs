//! SVG output of a [`Scene`] or a [`Sheet`] of them: plain SVG 1.1 that any browser shows.
//! Elements carry classes (`panel`, `band`, `marker`, `scale-bar`, `legend`) so tests and
//! style sheets can find them.

use std::fmt::Write;

use glam::DVec2;
use pathsmooth::curve::{ExactCurve, Piece};

use super::{
    Key, Rgb, Scene, Sheet, ALERT, BAND_ALPHA, INK, LEGEND_ROW, MARGIN, PALETTE, SCALE_BAR_BAND,
    SWATCH, WALL,
};

/// The width the legend's layout gives a character of the SVG text (13 px sans-serif,
/// generously).
const CHAR_WIDTH: f64 = 8.0;

/// Renders the scene as an SVG document: the drawing, then its legend (one row each).
pub fn render(scene: &Scene) -> String {
    let (w, h) = scene.image_size();
    let mut s = open(w, h);
    body(&mut s, scene, "s", scene.track_end(), false);
    for (at, key, text) in scene.legend_layout() {
        legend_entry(&mut s, at, key, &text);
    }
    s.push_str("</svg>\n");
    s
}

/// Renders a sheet: its title, each panel in its place (a `<g class="panel">` with the
/// panel's title as `data-title`), the legend under them.
pub fn render_sheet(sheet: &Sheet) -> String {
    let (w, h) = sheet.image_size(CHAR_WIDTH);
    let mut s = open(w, h);
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="{:.1}" font-weight="bold" font-size="15">{}</text>"#,
        LEGEND_ROW * 0.8,
        escape(&sheet.title)
    );
    // Panels over the same map at the same place share one copy of its walls.
    let shared = shared_walls(sheet);
    if let Some(first) = shared {
        s.push_str("<defs>\n");
        walls(&mut s, first, Some("walls"));
        s.push_str("</defs>\n");
    }
    let end = sheet.track_end();
    for (i, panel) in sheet.panels.iter().enumerate() {
        let o = sheet.panel_origin(i);
        let _ = writeln!(
            s,
            r#"<g class="panel" data-title="{}" transform="translate({:.1},{:.1})">"#,
            escape(&panel.title),
            o.x,
            o.y
        );
        body(&mut s, panel, &format!("p{i}"), end, shared.is_some());
        s.push_str("</g>\n");
    }
    for (at, key, text) in sheet.legend_layout(CHAR_WIDTH) {
        legend_entry(&mut s, at, key, &text);
    }
    s.push_str("</svg>\n");
    s
}

/// A crowd's animation over a scene: agents and doors sampled at the same times, the
/// whole looping over `seconds` (SMIL `<animate>`; PNG output has no counterpart).
#[derive(Debug, Clone, Default)]
pub struct Animation {
    /// The loop's length, seconds (> 0).
    pub seconds: f64,
    /// The sample times, increasing from 0 to `seconds`.
    pub times: Vec<f64>,
    /// The agents: their radius (world units) and position at each sample time.
    pub agents: Vec<(f64, Vec<DVec2>)>,
    /// The doors: their square (min, max corners) and whether closed at each sample time.
    pub doors: Vec<(DVec2, DVec2, Vec<bool>)>,
}

/// Renders the scene (its map, heading and legend) with an [`Animation`] over it: each
/// door a `<rect class="door">` whose fill opacity switches between closed (opaque) and
/// open (faint), each agent a `<circle class="agent">` of its radius (at least 1 px)
/// moving through its samples.
pub fn render_animation(scene: &Scene, anim: &Animation) -> String {
    let (w, h) = scene.image_size();
    let mut s = open(w, h);
    body(&mut s, scene, "s", scene.track_end(), false);
    if anim.seconds > 0.0 && !anim.times.is_empty() {
        let n = anim.times.len();
        let key_times: Vec<String> = anim
            .times
            .iter()
            .enumerate()
            .map(|(i, t)| match i {
                0 => "0".to_string(),
                // A linear animation's last key time must be exactly 1.
                _ if i + 1 == n => "1".to_string(),
                _ => format!("{:.5}", (t / anim.seconds).clamp(0.0, 1.0)),
            })
            .collect();
        let key_times = key_times.join(";");
        let timing = format!(
            r#"dur="{:.3}s" repeatCount="indefinite" keyTimes="{key_times}""#,
            anim.seconds
        );
        let door = Rgb(230, 120, 0).hex();
        for (min, max, closed) in &anim.doors {
            let (a, b) = (scene.to_px(*min), scene.to_px(*max));
            let opacity = |c: bool| if c { "0.9" } else { "0.12" };
            let values: Vec<&str> = closed.iter().map(|&c| opacity(c)).collect();
            let _ = writeln!(
                s,
                r#"<rect class="door" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{door}" fill-opacity="{}" stroke="{door}">"#,
                a.x,
                a.y,
                b.x - a.x,
                b.y - a.y,
                opacity(closed.first().copied().unwrap_or(false))
            );
            let _ = writeln!(
                s,
                r#"<animate attributeName="fill-opacity" calcMode="discrete" {timing} values="{}"/>"#,
                values.join(";")
            );
            s.push_str("</rect>\n");
        }
        for (i, (radius, positions)) in anim.agents.iter().enumerate() {
            let Some(&first) = positions.first() else {
                continue;
            };
            let q = scene.to_px(first);
            let r = (radius * scene.scale).max(1.0);
            let _ = writeln!(
                s,
                r#"<circle class="agent" cx="{:.2}" cy="{:.2}" r="{r:.2}" fill="{}">"#,
                q.x,
                q.y,
                PALETTE[i % PALETTE.len()].hex()
            );
            let px: Vec<DVec2> = positions.iter().map(|&p| scene.to_px(p)).collect();
            for (attr, coord) in [("cx", 0), ("cy", 1)] {
                let values: Vec<String> = px.iter().map(|p| format!("{:.2}", p[coord])).collect();
                let _ = writeln!(
                    s,
                    r#"<animate attributeName="{attr}" calcMode="linear" {timing} values="{}"/>"#,
                    values.join(";")
                );
            }
            s.push_str("</circle>\n");
        }
    }
    for (at, key, text) in scene.legend_layout() {
        legend_entry(&mut s, at, key, &text);
    }
    s.push_str("</svg>\n");
    s
}

fn open(w: u32, h: u32) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    s
}

/// The first panel of a sheet whose panels all draw the same map's walls at the same
/// pixels (the same grid, view, scale and heading height), if there is one.
fn shared_walls<'s, 'a>(sheet: &'s Sheet<'a>) -> Option<&'s Scene<'a>> {
    let first = sheet.panels.first()?;
    let grid = first.grid?;
    let same = |p: &Scene| {
        p.grid.is_some_and(|g| std::ptr::eq(g, grid))
            && (p.min, p.max, p.scale) == (first.min, first.max, first.scale)
            && p.heading_height() == first.heading_height()
    };
    sheet.panels.iter().all(same).then_some(first)
}

/// Everything in a scene's drawing area (heading, view, scale bar), in its own pixel
/// coordinates; `id` makes its clip path's id unique in the document; agents loop over
/// `track_end` plus one second; `shared_walls`: the walls are the document's `#walls`.
fn body(s: &mut String, scene: &Scene, id: &str, track_end: f64, shared_walls: bool) {
    heading(s, scene);
    if scene.clip {
        let (a, b) = scene.view_rect();
        let _ = writeln!(
            s,
            r#"<clipPath id="clip-{id}"><rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}"/></clipPath><g clip-path="url(#clip-{id})">"#,
            a.x,
            a.y,
            b.x - a.x,
            b.y - a.y
        );
    }
    if shared_walls {
        s.push_str("<use xlink:href=\"#walls\"/>\n");
    } else {
        walls(s, scene, None);
    }
    triangles(s, scene);
    disks(s, scene);
    bands(s, scene);
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
    for &(lo, hi) in &scene.boxes {
        let (a, b) = (scene.to_px(lo), scene.to_px(hi));
        let _ = writeln!(
            s,
            r#"<rect class="box" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="none" stroke="{}" stroke-dasharray="5 3"/>"#,
            a.x,
            a.y,
            b.x - a.x,
            b.y - a.y,
            INK.hex()
        );
    }
    for m in &scene.markers {
        let q = scene.to_px(m.at);
        let _ = writeln!(
            s,
            r#"<circle class="marker" data-label="{}" cx="{:.2}" cy="{:.2}" r="6" fill="{}" stroke="black"><title>{}</title></circle>"#,
            escape(&m.label),
            q.x,
            q.y,
            m.color.hex(),
            escape(&m.label)
        );
    }
    tracks(s, scene, track_end);
    if scene.clip {
        s.push_str("</g>\n");
    }
    scale_bar(s, scene);
}

/// The heading's lines (the title in bold; red, and a red frame round the drawing, when
/// the scene reports a problem).
fn heading(s: &mut String, scene: &Scene) {
    let lines = &scene.heading;
    if lines.is_empty() {
        return;
    }
    if scene.alert {
        let (w, h) = scene.drawing_size();
        let _ = writeln!(
            s,
            r#"<rect class="alert" x="1" y="1" width="{:.1}" height="{:.1}" fill="none" stroke="{}" stroke-width="2"/>"#,
            w - 2.0,
            h - 2.0,
            ALERT.hex()
        );
    }
    let _ = writeln!(s, r#"<g class="heading">"#);
    for (i, line) in lines.iter().enumerate() {
        let y = MARGIN + i as f64 * LEGEND_ROW + LEGEND_ROW * 0.7;
        let (weight, color) = match (i < scene.title_lines, scene.alert) {
            (true, true) => (r#" font-weight="bold""#, ALERT),
            (true, false) => (r#" font-weight="bold""#, INK),
            (false, _) => ("", INK),
        };
        let _ = writeln!(
            s,
            r#"<text x="{MARGIN}" y="{y:.1}"{weight} fill="{}" font-size="15">{}</text>"#,
            color.hex(),
            escape(line)
        );
    }
    s.push_str("</g>\n");
}

/// The scale bar under the view: a bar of a round length with end ticks, and its label.
fn scale_bar(s: &mut String, scene: &Scene) {
    let (length, label) = scene.scale_bar();
    let (_, bottom) = scene.view_rect();
    let (x0, y) = (MARGIN, bottom.y + MARGIN + SCALE_BAR_BAND * 0.45);
    let x1 = x0 + length * scene.scale;
    let ink = INK.hex();
    let _ = writeln!(
        s,
        r#"<g class="scale-bar"><path d="M{x0:.2},{:.2} V{y:.2} H{x1:.2} V{:.2}" fill="none" stroke="{ink}" stroke-width="2"/><text x="{:.2}" y="{:.2}" fill="{ink}">{}</text></g>"#,
        y - 6.0,
        y - 6.0,
        x1 + 8.0,
        y + 1.0,
        escape(&label)
    );
}

/// One legend entry with its top-left corner at `at`: the key's swatch, then the text.
fn legend_entry(s: &mut String, at: DVec2, key: Key, text: &str) {
    let mid = at.y + LEGEND_ROW / 2.0;
    let (x, y) = (at.x, at.y + LEGEND_ROW * 0.7);
    let text_x = x + SWATCH + 8.0;
    let swatch = match key {
        Key::Title => {
            let _ = writeln!(
                s,
                r#"<text class="legend" x="{x:.1}" y="{y:.1}" font-weight="bold">{}</text>"#,
                escape(text)
            );
            return;
        }
        Key::Line {
            color,
            dashed,
            band,
        } => {
            let mut out = String::new();
            if band {
                let _ = write!(
                    out,
                    r#"<line x1="{:.1}" y1="{mid:.1}" x2="{:.1}" y2="{mid:.1}" stroke="{}" stroke-opacity="{:.2}" stroke-width="12" stroke-linecap="round"/>"#,
                    x + 6.0,
                    x + SWATCH - 6.0,
                    color.hex(),
                    f64::from(BAND_ALPHA) / 255.0
                );
            }
            let dash = if dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let _ = write!(
                out,
                r#"<line x1="{x:.1}" y1="{mid:.1}" x2="{:.1}" y2="{mid:.1}" stroke="{}" stroke-width="3"{dash}/>"#,
                x + SWATCH,
                color.hex()
            );
            out
        }
        Key::Dot(color) => format!(
            r#"<circle cx="{:.1}" cy="{mid:.1}" r="6" fill="{}" stroke="black"/>"#,
            x + SWATCH / 2.0,
            color.hex()
        ),
        Key::Fill(color) => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="12" fill="{}"/>"#,
            x + 2.0,
            mid - 6.0,
            SWATCH - 4.0,
            color.hex()
        ),
    };
    let _ = writeln!(
        s,
        r#"<g class="legend">{swatch}<text x="{text_x:.1}" y="{y:.1}">{}</text></g>"#,
        escape(text)
    );
}

/// The bands the agents sweep, under every path: each polyline stroked 2·radius wide,
/// translucent, with round joins and caps (the set of points within the radius of it).
fn bands(s: &mut String, scene: &Scene) {
    for layer in &scene.layers {
        let Some(r) = layer.band else {
            continue;
        };
        if layer.points.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            r#"<polyline class="band" points="{}" fill="none" stroke="{}" stroke-opacity="{:.2}" stroke-width="{:.2}" stroke-linecap="round" stroke-linejoin="round"><title>{}: band of an agent of radius {r}</title></polyline>"#,
            points_attr(scene, &layer.points),
            layer.color.hex(),
            f64::from(BAND_ALPHA) / 255.0,
            2.0 * r * scene.scale,
            escape(&layer.label)
        );
    }
}

/// The scene's blocked cells, one rectangle a horizontal run, in a group with `id` if
/// given.
fn walls(s: &mut String, scene: &Scene, id: Option<&str>) {
    let runs = scene.wall_runs();
    let areas = scene.area_runs();
    if runs.is_empty() && areas.is_empty() {
        return;
    }
    let id = id.map(|id| format!(r#" id="{id}""#)).unwrap_or_default();
    let _ = writeln!(s, r#"<g{id} class="walls" fill="{}">"#, WALL.hex());
    run_rects(s, scene, &runs);
    // Swamp and water over the walls (water is blocked unless given a cost).
    for (fill, runs) in areas {
        let _ = writeln!(s, r#"<g class="areas" fill="{}">"#, fill.hex());
        run_rects(s, scene, &runs);
        s.push_str("</g>\n");
    }
    s.push_str("</g>\n");
}

/// One `<rect>` a cell run (from its low to its high corner, in world units), filled by
/// the group around them.
fn run_rects(s: &mut String, scene: &Scene, runs: &[(DVec2, DVec2)]) {
    for &(lo, hi) in runs {
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

/// One dot per track (the agent's size when the track has a radius), animated with SMIL
/// `<animate>` on cx/cy. Every track loops over `end` plus a one-second hold, so agents
/// that arrive early wait at their goal and every agent restarts together.
fn tracks(s: &mut String, scene: &Scene, end: f64) {
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
        let r = if track.radius > 0.0 {
            track.radius * scene.scale
        } else {
            5.0
        };
        let _ = writeln!(
            s,
            r#"<circle class="agent" cx="{:.2}" cy="{:.2}" r="{r:.2}" fill="{}" stroke="black">"#,
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

/// World points as an SVG `points` attribute in pixel coordinates.
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
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::super::tests::{one_wall_scene, one_wall_world};
    use super::*;

    #[test]
    fn svg_has_walls_paths_and_legend() {
        let world = one_wall_world();
        let scene = one_wall_scene("a <b>", &world);
        let svg = render(&scene);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("<polyline"));
        assert!(svg.contains("a &lt;b&gt;"));
        assert_eq!(svg.matches("<rect").count(), 2); // background + one wall run
    }
}
