//! Area costs on real maps: seeded swamp and water painted over a Moving AI map, and an
//! exact cost integral and cheapest 8-connected path over it, written independently of the
//! library (tests/area_costs.rs; the docs' tables).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{DVec2, IVec2};
use pathsmooth::grid::GridMap;

use super::rng::Rng;

/// The map's rows with swamp and water blobs (discs of radius 2–12 cells, about 12 % of
/// the area each) painted over its free cells, from `seed`.
pub fn painted(map: &GridMap, seed: u64) -> Vec<String> {
    let (w, h) = (map.width(), map.height());
    let mut cells: Vec<Vec<u8>> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if map.is_passable(x as i64, y as i64) {
                        b'.'
                    } else {
                        b'@'
                    }
                })
                .collect()
        })
        .collect();
    let mut rng = Rng::new(seed);
    for (letter, share) in [(b'S', 0.12), (b'W', 0.04)] {
        let mut painted = 0.0;
        while painted < share * (w * h) as f64 {
            let c = DVec2::new(rng.range(0.0, w as f64), rng.range(0.0, h as f64));
            let r = rng.range(2.0, 12.0);
            let (x0, x1) = ((c.x - r).max(0.0) as usize, ((c.x + r) as usize).min(w - 1));
            let (y0, y1) = ((c.y - r).max(0.0) as usize, ((c.y + r) as usize).min(h - 1));
            for (y, row) in cells.iter_mut().enumerate().take(y1 + 1).skip(y0) {
                for (x, cell) in row.iter_mut().enumerate().take(x1 + 1).skip(x0) {
                    let centre = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
                    if centre.distance(c) <= r && *cell == b'.' {
                        *cell = letter;
                    }
                }
            }
            painted += std::f64::consts::PI * r * r;
        }
    }
    cells
        .into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect()
}

/// The oracle's terrain: per cell, the multiplier (infinite for walls and water).
pub struct Terrain {
    w: i64,
    h: i64,
    cost: Vec<f64>,
}

impl Terrain {
    pub fn new(rows: &[String], swamp: f64) -> Self {
        let cost = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|c| match c {
                b'.' => 1.0,
                b'S' => swamp,
                _ => f64::INFINITY,
            })
            .collect();
        Terrain {
            w: rows[0].len() as i64,
            h: rows.len() as i64,
            cost,
        }
    }

    pub fn at(&self, x: i64, y: i64) -> f64 {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            f64::INFINITY
        } else {
            self.cost[(y * self.w + x) as usize]
        }
    }

    /// The exact cost integral of the segment a–b: every parameter where it crosses a
    /// grid line, sorted; each piece between two consecutive ones lies in one cell (its
    /// midpoint's), or along a grid line between two cells, where it costs the cheaper.
    pub fn segment(&self, a: DVec2, b: DVec2) -> f64 {
        let d = b - a;
        let mut ts = vec![0.0, 1.0];
        for (s0, ds) in [(a.x, d.x), (a.y, d.y)] {
            if ds != 0.0 {
                let (lo, hi) = (
                    s0.min(s0 + ds).ceil() as i64,
                    s0.max(s0 + ds).floor() as i64,
                );
                ts.extend(
                    (lo..=hi)
                        .map(|k| (k as f64 - s0) / ds)
                        .filter(|t| (0.0..=1.0).contains(t)),
                );
            }
        }
        ts.sort_by(f64::total_cmp);
        // Crossings 1e-12 apart are one (a lattice vertex; rounding splits it).
        ts.dedup_by(|b, a| *b - *a <= 1e-12);
        if let Some(last) = ts.last_mut() {
            *last = 1.0;
        }
        let len = d.length();
        ts.windows(2)
            .filter(|t| t[1] > t[0])
            .map(|t| {
                let m = a + d * (0.5 * (t[0] + t[1]));
                let (x, y) = (m.x.floor() as i64, m.y.floor() as i64);
                let c = if d.x == 0.0 && m.x == m.x.floor() {
                    self.at(x - 1, y).min(self.at(x, y))
                } else if d.y == 0.0 && m.y == m.y.floor() {
                    self.at(x, y - 1).min(self.at(x, y))
                } else {
                    self.at(x, y)
                };
                (t[1] - t[0]) * len * c
            })
            .sum()
    }

    pub fn path(&self, p: &[DVec2]) -> f64 {
        p.windows(2).map(|s| self.segment(s[0], s[1])).sum()
    }

    /// The cheapest 8-connected cell path's cost (Dijkstra; a diagonal step needs both
    /// cells beside it free; a step costs its length × the mean of its cells' costs).
    pub fn dijkstra(&self, s: IVec2, g: IVec2) -> f64 {
        let idx = |x: i64, y: i64| (y * self.w + x) as usize;
        let mut dist = vec![f64::INFINITY; (self.w * self.h) as usize];
        let mut heap = BinaryHeap::new();
        dist[idx(s.x as i64, s.y as i64)] = 0.0;
        heap.push((Reverse(Key(0.0)), s.x as i64, s.y as i64));
        while let Some((Reverse(Key(d)), x, y)) = heap.pop() {
            if (x, y) == (g.x as i64, g.y as i64) {
                return d;
            }
            if d > dist[idx(x, y)] {
                continue;
            }
            for dx in -1..=1i64 {
                for dy in -1..=1i64 {
                    let (nx, ny) = (x + dx, y + dy);
                    if (dx, dy) == (0, 0) || !self.at(nx, ny).is_finite() {
                        continue;
                    }
                    let diagonal = dx != 0 && dy != 0;
                    if diagonal && !(self.at(nx, y).is_finite() && self.at(x, ny).is_finite()) {
                        continue;
                    }
                    let len = if diagonal { 2f64.sqrt() } else { 1.0 };
                    let nd = d + len * 0.5 * (self.at(x, y) + self.at(nx, ny));
                    if nd < dist[idx(nx, ny)] {
                        dist[idx(nx, ny)] = nd;
                        heap.push((Reverse(Key(nd)), nx, ny));
                    }
                }
            }
        }
        f64::INFINITY
    }
}

/// f64 ordered by `total_cmp`, for the heap.
#[derive(PartialEq, Clone, Copy)]
struct Key(f64);
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

/// True when `p` lies in a water cell of the painted `rows`.
pub fn in_water(rows: &[String], p: DVec2) -> bool {
    rows[p.y as usize].as_bytes()[p.x as usize] == b'W'
}
