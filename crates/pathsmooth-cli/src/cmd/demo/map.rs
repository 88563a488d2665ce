//! The demo's map, made by the project: `assets/demo.map` is exactly what `generate`
//! writes (the test below compares them; `PATHSMOOTH_BLESS=1 cargo test -p pathsmooth-cli
//! demo_map` rewrites the file after a change here).
//!
//! 80×80 cells in Moving AI format (`@` wall, `T` tree, `.` free): a walled building of six
//! rooms with doorways in the north-west, a long corridor east to a hall crossed by
//! diagonal walls, a wall with gaps between north and south, and an open park in the south
//! with a pond, a diagonal hedge and scattered trees.

/// Width and height of the map, in cells.
pub const SIZE: usize = 80;

/// A character grid being drawn on.
struct Canvas {
    rows: Vec<Vec<u8>>,
}

impl Canvas {
    fn new() -> Self {
        Canvas {
            rows: vec![vec![b'.'; SIZE]; SIZE],
        }
    }

    fn set(&mut self, x: i32, y: i32, c: u8) {
        if (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) {
            self.rows[y as usize][x as usize] = c;
        }
    }

    fn get(&self, x: i32, y: i32) -> u8 {
        self.rows[y as usize][x as usize]
    }

    /// Fills the cells of `[x0, x1] × [y0, y1]` (inclusive).
    fn fill(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: u8) {
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.set(x, y, c);
            }
        }
    }

    /// The outline of `[x0, x1] × [y0, y1]`, one cell thick.
    fn outline(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: u8) {
        self.fill(x0, y0, x1, y0, c);
        self.fill(x0, y1, x1, y1, c);
        self.fill(x0, y0, x0, y1, c);
        self.fill(x1, y0, x1, y1, c);
    }

    /// Every cell whose centre is within `r` of the segment from `a` to `b` (cell centres
    /// at integer + 0.5): a straight wall of width about 2r at any angle.
    fn thick_line(&mut self, a: (f64, f64), b: (f64, f64), r: f64, c: u8) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = (dx * dx + dy * dy).max(f64::MIN_POSITIVE);
        for y in 0..SIZE as i32 {
            for x in 0..SIZE as i32 {
                let (px, py) = (x as f64 + 0.5 - a.0, y as f64 + 0.5 - a.1);
                let t = ((px * dx + py * dy) / len2).clamp(0.0, 1.0);
                let (ex, ey) = (px - t * dx, py - t * dy);
                if ex * ex + ey * ey <= r * r {
                    self.set(x, y, c);
                }
            }
        }
    }

    /// Every cell whose centre is within `r` of `centre`.
    fn disk(&mut self, centre: (f64, f64), r: f64, c: u8) {
        self.thick_line(centre, centre, r, c);
    }
}

/// The map as Moving AI `.map` text.
pub fn generate() -> String {
    let mut g = Canvas::new();
    let n = SIZE as i32 - 1;
    g.outline(0, 0, n, n, b'@');

    // North-west: a building of 3 × 2 rooms with doorways between neighbours and one door
    // east onto the corridor.
    g.outline(0, 0, 34, 30, b'@');
    g.fill(13, 2, 13, 30, b'@');
    g.fill(24, 2, 24, 30, b'@');
    g.fill(2, 16, 34, 16, b'@');
    for (x0, y0, x1, y1) in [
        (13, 7, 13, 9),   // top left ↔ top middle
        (24, 11, 24, 13), // top middle ↔ top right
        (13, 22, 13, 24), // bottom left ↔ bottom middle
        (24, 19, 24, 21), // bottom middle ↔ bottom right
        (6, 16, 8, 16),   // top left ↔ bottom left
        (29, 16, 31, 16), // top right ↔ bottom right
        (34, 22, 34, 25), // east door onto the corridor
    ] {
        g.fill(x0, y0, x1, y1, b'.');
    }
    // Furniture: a table in the top-middle room, a pillar in the bottom-left one.
    g.fill(17, 6, 20, 8, b'@');
    g.fill(6, 22, 7, 25, b'@');

    // The corridor: five cells wide, from the east door to the hall, with a dog-leg.
    g.fill(35, 20, 47, 20, b'@');
    g.fill(35, 27, 52, 27, b'@');
    g.fill(47, 14, 47, 20, b'@');
    g.fill(52, 21, 52, 27, b'@');
    g.fill(47, 14, 56, 14, b'@');
    g.fill(52, 21, 56, 21, b'@');

    // North-east: a hall crossed by diagonal walls, with a gap at each end.
    g.thick_line((60.0, 4.0), (71.0, 15.0), 1.0, b'@');
    g.thick_line((77.0, 20.0), (64.0, 33.0), 1.0, b'@');
    g.disk((70.0, 27.0), 1.6, b'@');

    // Between north and south: a wall with two gaps, one into a yard south of the building.
    g.fill(1, 40, 78, 40, b'@');
    for (x0, x1) in [(10, 14), (70, 74)] {
        g.fill(x0, 40, x1, 40, b'.');
    }
    g.fill(34, 31, 34, 39, b'@');

    // South: an open park with a pond, a diagonal hedge of trees, and scattered trees.
    g.disk((42.0, 60.0), 7.5, b'@');
    g.thick_line((8.0, 48.0), (26.0, 66.0), 1.2, b'T');
    g.thick_line((58.0, 72.0), (70.0, 52.0), 0.8, b'T');
    let mut state: u32 = 0x2545_f491;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    for _ in 0..70 {
        let (x, y) = (2 + (next() % 76) as i32, 43 + (next() % 35) as i32);
        // Keep the doorways, the start and the goal clear.
        let near_goal = x <= 10 && y >= 70;
        if !near_goal && y > 42 && g.get(x, y) == b'.' && g.get(x, y - 1) != b'@' {
            g.set(x, y, b'T');
        }
    }

    let mut out = format!("type octile\nheight {SIZE}\nwidth {SIZE}\nmap\n");
    for row in &g.rows {
        out.push_str(std::str::from_utf8(row).expect("ASCII"));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_map_is_what_the_generator_writes() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo.map");
        let text = generate();
        if std::env::var_os("PATHSMOOTH_BLESS").is_some() {
            std::fs::write(path, &text).unwrap();
        }
        let stored = std::fs::read_to_string(path).unwrap();
        assert!(
            stored == text,
            "assets/demo.map differs from generate(); run \
             PATHSMOOTH_BLESS=1 cargo test -p pathsmooth-cli demo_map"
        );
    }
}
