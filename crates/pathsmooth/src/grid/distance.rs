//! Exact Euclidean clearance: the distance from any point (or segment) to the blocked
//! region of a grid map.
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "The distance field".)

use glam::{DVec2, I64Vec2, IVec2};

use crate::grid::map::GridMap;

/// Exact clearance of a map: stored at every cell centre and lattice vertex, computed for
/// any point or segment. See the module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct DistanceField {
    width: usize,
    height: usize,
    /// Row-major `width × height`: 4 × squared clearance of each cell centre.
    centres: Vec<u32>,
    /// Row-major `(width + 1) × (height + 1)`: 4 × squared clearance of each vertex.
    vertices: Vec<u32>,
    /// Per-cell distances to the nearest blocked cell up and down the column.
    runs: Runs,
}

/// The column pass, in the narrowest integer type that holds the map's height.
#[derive(Debug, Clone, PartialEq)]
enum Runs {
    Narrow(ColumnRuns<u16>),
    Wide(ColumnRuns<u32>),
}

/// Row-major, per cell: rows from the cell to the nearest blocked cell at or above it
/// (`up`) and at or below it (`down`) in its column; 0 for a blocked cell, and the rows
/// just outside the map count as blocked (so `up` ≤ y + 1 and `down` ≤ height − y).
#[derive(Debug, Clone, PartialEq)]
struct ColumnRuns<T> {
    up: Vec<T>,
    down: Vec<T>,
}

/// An unsigned integer type for [`ColumnRuns`].
trait Run: Copy + PartialEq {
    /// `v` (which fits).
    fn from_usize(v: usize) -> Self;
    fn get(self) -> usize;
}

impl Run for u16 {
    fn from_usize(v: usize) -> Self {
        v as u16
    }
    fn get(self) -> usize {
        self as usize
    }
}

impl Run for u32 {
    fn from_usize(v: usize) -> Self {
        v as u32
    }
    fn get(self) -> usize {
        self as usize
    }
}

impl<T: Run> ColumnRuns<T> {
    /// Two row-major sweeps over the map (`free` as [`GridMap::cells`]); the values are at
    /// most `height`, which must fit `T`.
    fn new(free: &[bool], w: usize, h: usize) -> Self {
        let mut up = Vec::with_capacity(w * h);
        // Per column: 1 + the last blocked row so far (0: only the border above).
        let mut last = vec![0usize; w];
        for y in 0..h {
            for (x, last) in last.iter_mut().enumerate() {
                if !free[y * w + x] {
                    *last = y + 1;
                }
                up.push(T::from_usize(y + 1 - *last));
            }
        }
        let mut down = vec![T::from_usize(0); w * h];
        // Per column: the next blocked row below (h: the border).
        let mut next = vec![h; w];
        for y in (0..h).rev() {
            for (x, next) in next.iter_mut().enumerate() {
                if !free[y * w + x] {
                    *next = y;
                }
                down[y * w + x] = T::from_usize(*next - y);
            }
        }
        ColumnRuns { up, down }
    }

    /// Column `x` swept again from `free` (as in [`new`](Self::new)).
    fn redo_column(&mut self, free: &[bool], w: usize, h: usize, x: usize) {
        let mut last = 0;
        for y in 0..h {
            if !free[y * w + x] {
                last = y + 1;
            }
            self.up[y * w + x] = T::from_usize(y + 1 - last);
        }
        let mut next = h;
        for y in (0..h).rev() {
            if !free[y * w + x] {
                next = y;
            }
            self.down[y * w + x] = T::from_usize(next - y);
        }
    }

    /// The exact distance transform at every centre and vertex (see the module docs), as
    /// 4 × squared distance: `(centres, vertices)`.
    fn transform(&self, w: usize, h: usize) -> (Vec<u32>, Vec<u32>) {
        let mut centres = vec![0u32; w * h];
        // Vertex rows 0 and h touch the border: all 0.
        let mut vertices = vec![0u32; (w + 1) * (h + 1)];
        // Per column: squared vertical distance (half units) from the query row to the
        // column's blocked squares; per grid line X = 0..=w: the parabola's offset.
        let mut column = vec![0i64; w];
        let mut lines = vec![0i64; w + 1];
        let mut envelope = Envelope::with_capacity(w + 1);
        let mut out = vec![0i64; w + 1];
        let lines_from = |column: &[i64], lines: &mut [i64]| {
            // The border lines 0 and w keep g = 0.
            for x in 1..w {
                lines[x] = column[x - 1].min(column[x]);
            }
        };
        for y in 0..h {
            let row = y * w;
            for (x, g) in column.iter_mut().enumerate() {
                let run = self.up[row + x].get().min(self.down[row + x].get()) as i64;
                // From the centre row y + ½ to the square of row y ∓ run: 2·run − 1 half
                // units (0 when the cell itself is blocked).
                let d = (2 * run - 1).max(0);
                *g = d * d;
            }
            lines_from(&column, &mut lines);
            envelope.evaluate(&lines, 1, &mut out[..w]);
            for x in 0..w {
                centres[row + x] = saturate(out[x].min(column[x]));
            }
        }
        for y in 1..h {
            for (x, g) in column.iter_mut().enumerate() {
                // From the vertex row y to the squares above row y − 1 and below row y.
                let run = self.up[(y - 1) * w + x]
                    .get()
                    .min(self.down[y * w + x].get()) as i64;
                *g = 4 * run * run;
            }
            lines_from(&column, &mut lines);
            envelope.evaluate(&lines, 0, &mut out);
            for (v, &d) in vertices[y * (w + 1)..][..w + 1].iter_mut().zip(&out) {
                *v = saturate(d);
            }
        }
        (centres, vertices)
    }
}

/// `cells` as rectangles of cells (lowest and highest corner cells), whose union they are:
/// the longest runs along x of each row, and runs of one span on consecutive rows merged.
/// Repeated cells count once. O(n log n).
fn rectangles(cells: &[IVec2]) -> Vec<(IVec2, IVec2)> {
    // Sorted as (u64, u32) pairs, the keys the crowd's buckets sort by, so that the
    // WebAssembly build holds one sort for both (a sort of its own is several KB).
    let bias = |v: i32| (i64::from(v) + (1 << 31)) as u64; // keeps the order, ≥ 0
    let unbias = |k: u64| ((k & 0xffff_ffff) as i64 - (1 << 31)) as i32;
    let pair = |hi: i32, lo: i32| (bias(hi) << 32) | bias(lo);
    let mut keys: Vec<(u64, u32)> = cells.iter().map(|c| (pair(c.y, c.x), 0)).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut runs: Vec<(IVec2, IVec2)> = Vec::new();
    for (k, _) in keys {
        let c = IVec2::new(unbias(k), unbias(k >> 32));
        match runs.last_mut() {
            Some((_, b)) if b.y == c.y && b.x + 1 == c.x => b.x = c.x,
            _ => runs.push((c, c)),
        }
    }
    // By span, then row: runs of one span on consecutive rows follow one another.
    let mut spans: Vec<(u64, u32)> = (runs.iter())
        .map(|(a, b)| (pair(a.x, b.x), bias(a.y) as u32))
        .collect();
    spans.sort_unstable();
    let mut out: Vec<(IVec2, IVec2)> = Vec::new();
    for (k, y) in spans {
        let (x0, x1, y) = (unbias(k >> 32), unbias(k), unbias(u64::from(y)));
        match out.last_mut() {
            Some((a, b)) if (a.x, b.x) == (x0, x1) && b.y + 1 == y => b.y = y,
            _ => out.push((IVec2::new(x0, y), IVec2::new(x1, y))),
        }
    }
    out
}

fn saturate(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// Scratch for the lower envelope of the parabolas `f_k(P) = (P − 2k)² + g[k]`, after
/// Meijster et al. (module docs): `sites` are the parabolas on the envelope from left to
/// right, `starts[i]` the first query index where `sites[i]` is lowest.
struct Envelope {
    sites: Vec<usize>,
    starts: Vec<usize>,
}

impl Envelope {
    fn with_capacity(n: usize) -> Self {
        Envelope {
            sites: Vec::with_capacity(n),
            starts: Vec::with_capacity(n),
        }
    }

    /// `out[j] = min_k f_k(2j + off)` for every `j`, in O(g.len() + out.len()); exact for
    /// values up to about 2⁶² (coordinates up to 2³⁰).
    fn evaluate(&mut self, g: &[i64], off: i64, out: &mut [i64]) {
        let m = out.len();
        if m == 0 || g.is_empty() {
            return;
        }
        let f = |j: usize, k: usize| {
            let d = 2 * j as i64 + off - 2 * k as i64;
            d * d + g[k]
        };
        // First query index where parabola u is strictly below parabola i < u:
        // f_u(P) < f_i(P) ⟺ 4(u − i)·P > 4(u² − i²) + g_u − g_i, with P = 2j + off.
        let first_below = |i: usize, u: usize| {
            let (i, u) = (i as i64, u as i64);
            let num = 4 * (u * u - i * i) + g[u as usize] - g[i as usize] - 4 * (u - i) * off;
            num.div_euclid(8 * (u - i)) + 1
        };
        let (sites, starts) = (&mut self.sites, &mut self.starts);
        sites.clear();
        starts.clear();
        sites.push(0);
        starts.push(0);
        for u in 1..g.len() {
            // Drop the parabolas that u is strictly below from where they start on: the
            // difference of two parabolas is monotone, so u stays below them to the right.
            while let (Some(&k), Some(&s)) = (sites.last(), starts.last()) {
                if f(s, u) < f(s, k) {
                    sites.pop();
                    starts.pop();
                } else {
                    break;
                }
            }
            match sites.last() {
                None => {
                    sites.push(u);
                    starts.push(0);
                }
                Some(&k) => {
                    let s = first_below(k, u);
                    if s < m as i64 {
                        sites.push(u);
                        starts.push(s as usize);
                    }
                }
            }
        }
        let mut q = sites.len() - 1;
        for j in (0..m).rev() {
            out[j] = f(j, sites[q]);
            if j == starts[q] && q > 0 {
                q -= 1;
            }
        }
    }
}

/// `√q / 2`: a stored value in cell units.
fn from_quarters(q: u32) -> f64 {
    (q as f64).sqrt() * 0.5
}

impl DistanceField {
    /// Builds the field for `map` in O(width × height) time; 12 bytes per cell (module
    /// docs).
    ///
    /// ```
    /// use pathsmooth::grid::{DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["..", ".@"])?);
    /// assert_eq!(field.cell_clearance(0, 0), 0.5);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn new(map: &GridMap) -> Self {
        let (w, h) = (map.width(), map.height());
        let (runs, (centres, vertices)) = if h <= u16::MAX as usize {
            let runs = ColumnRuns::<u16>::new(map.cells(), w, h);
            let t = runs.transform(w, h);
            (Runs::Narrow(runs), t)
        } else {
            let runs = ColumnRuns::<u32>::new(map.cells(), w, h);
            let t = runs.transform(w, h);
            (Runs::Wide(runs), t)
        };
        DistanceField {
            width: w,
            height: h,
            centres,
            vertices,
            runs,
        }
    }

    /// How far (in cells, rounded up, plus one) the clearance of any centre or vertex
    /// reaches: a blocked cell farther than this from a point cannot be its nearest. O(cells).
    pub(crate) fn reach(&self) -> usize {
        let q = self
            .centres
            .iter()
            .chain(&self.vertices)
            .max()
            .copied()
            .unwrap_or(0);
        from_quarters(q).ceil() as usize + 1
    }

    /// Makes this field that of `map` after a local change: `map` is the map `base` was
    /// built for with the cells `extra` blocked too, the cells that changed since this
    /// field was right (blocked or freed) lie in the box `lo..=hi`, and `reach` is
    /// `base.reach()`. Exact, and equal to [`DistanceField::new`]`(map)`: the distance to a
    /// union of squares is the smaller of the distances to its parts, so each centre and
    /// vertex near the change is the least of its value in `base` and its distance to each
    /// part of `extra` (its cells merged into rectangles, [`rectangles`]: an obstacle's box
    /// is one); farther ones are nearer to `base`'s walls than to any changed cell. The
    /// changed columns' runs are swept again.
    ///
    /// Cost: O(h) per changed column, O(|extra| log |extra|) for the rectangles, plus
    /// O((box + 2 reach)² × rectangles near the box).
    pub(crate) fn patch(
        &mut self,
        map: &GridMap,
        base: &DistanceField,
        reach: usize,
        extra: &[IVec2],
        lo: IVec2,
        hi: IVec2,
    ) {
        let (w, h) = (self.width, self.height);
        for x in lo.x.max(0) as usize..=(hi.x.max(0) as usize).min(w - 1) {
            match &mut self.runs {
                Runs::Narrow(r) => r.redo_column(map.cells(), w, h, x),
                Runs::Wide(r) => r.redo_column(map.cells(), w, h, x),
            }
        }
        let reach = reach as i64;
        let span = |lo: i32, hi: i32, end: usize| {
            (lo as i64 - reach).max(0) as usize..=((hi as i64 + reach).max(0) as usize).min(end)
        };
        let (wlo, whi) = (lo.as_i64vec2() - 2 * reach, hi.as_i64vec2() + 2 * reach);
        let near: Vec<(I64Vec2, I64Vec2)> = rectangles(extra)
            .into_iter()
            .map(|(a, b)| (a.as_i64vec2(), b.as_i64vec2()))
            .filter(|&(a, b)| a.cmple(whi).all() && b.cmpge(wlo).all())
            .collect();
        // Half-unit gaps, on one axis, to the squares of columns a..=b: from a centre x,
        // max(0, 2(a − x) − 1, 2(x − b) − 1); from a vertex line x, max(0, 2(a − x),
        // 2(x − b − 1)). The union of a rectangle's squares is a rectangle, so its squared
        // gap is the sum of the axes'; the least over the rectangles is the least over
        // their cells, to the bit.
        let centre_gap = |x: usize, a: i64, b: i64| {
            let x = x as i64;
            (2 * (a - x) - 1).max(2 * (x - b) - 1).max(0)
        };
        let vertex_gap = |x: usize, a: i64, b: i64| {
            let x = x as i64;
            (2 * (a - x)).max(2 * (x - b - 1)).max(0)
        };
        for y in span(lo.y, hi.y, h - 1) {
            for x in span(lo.x, hi.x, w - 1) {
                let i = y * w + x;
                let q = near.iter().fold(base.centres[i] as i64, |q, &(a, b)| {
                    q.min(centre_gap(x, a.x, b.x).pow(2) + centre_gap(y, a.y, b.y).pow(2))
                });
                self.centres[i] = saturate(q);
            }
        }
        for y in span(lo.y, hi.y + 1, h) {
            for x in span(lo.x, hi.x + 1, w) {
                let i = y * (w + 1) + x;
                let q = near.iter().fold(base.vertices[i] as i64, |q, &(a, b)| {
                    q.min(vertex_gap(x, a.x, b.x).pow(2) + vertex_gap(y, a.y, b.y).pow(2))
                });
                self.vertices[i] = saturate(q);
            }
        }
    }

    /// Width of the map the field was built for.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height of the map the field was built for.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Exact Euclidean distance from `p` to the blocked region (0 inside a wall, on its
    /// surface, or outside the map; 0 for non-finite points). At a cell centre or lattice
    /// vertex it is the stored value ([`cell_clearance`](Self::cell_clearance),
    /// [`vertex_clearance`](Self::vertex_clearance)), in O(1); elsewhere O(clearance).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::{DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["...", "...", "..."])?);
    /// assert_eq!(field.clearance(DVec2::new(1.5, 1.5)), 1.5); // to the map border
    /// assert_eq!(field.clearance(DVec2::new(5.0, 1.0)), 0.0); // outside
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn clearance(&self, p: DVec2) -> f64 {
        if !p.is_finite() || self.border_clearance(p, p) <= 0.0 {
            return 0.0;
        }
        // Doubling is exact: centres have odd, vertices even half-unit coordinates.
        let half = p * 2.0;
        if half.x.fract() == 0.0 && half.y.fract() == 0.0 {
            let (hx, hy) = (half.x as i64, half.y as i64);
            match (hx & 1, hy & 1) {
                (1, 1) => return self.cell_clearance(hx >> 1, hy >> 1),
                (0, 0) => return self.vertex_clearance(hx >> 1, hy >> 1),
                _ => {}
            }
        }
        self.segment_clearance_until(p, p, f64::INFINITY, 0.0)
    }

    /// Exact clearance of the centre (x + ½, y + ½) of cell (x, y) in O(1): 0 for blocked
    /// cells and cells outside the map. Equal to [`clearance`](Self::clearance) at the
    /// centre.
    ///
    /// ```
    /// use pathsmooth::grid::{DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["...", ".@.", "..."])?);
    /// assert_eq!(field.cell_clearance(1, 0), 0.5);
    /// assert_eq!(field.cell_clearance(1, 1), 0.0);
    /// assert_eq!(field.cell_clearance(0, 0), 0.5); // the border and the wall's corner
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn cell_clearance(&self, x: i64, y: i64) -> f64 {
        match self.cell_index(x, y) {
            Some(i) => from_quarters(self.centres[i]),
            None => 0.0,
        }
    }

    /// Exact clearance of the lattice vertex (x, y) — the corner shared by cells
    /// (x − 1, y − 1), (x, y − 1), (x − 1, y) and (x, y) — in O(1), for 0 ≤ x ≤ width and
    /// 0 ≤ y ≤ height: 0 when one of those cells is blocked or the vertex is on the map
    /// border, and 0 outside that range. Equal to [`clearance`](Self::clearance) at the
    /// vertex.
    ///
    /// A diagonal move between two free cell centres passes closest to the walls at their
    /// shared corner, so with an agent of radius r it keeps clearance ≥ r exactly when both
    /// centres and that vertex do.
    ///
    /// ```
    /// use pathsmooth::grid::{DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["....", "....", "....", "...@"])?);
    /// assert_eq!(field.vertex_clearance(0, 2), 0.0); // on the border
    /// assert_eq!(field.vertex_clearance(3, 3), 0.0); // a corner of the blocked cell
    /// assert_eq!(field.vertex_clearance(2, 2), 1.0f64.hypot(1.0)); // to the corner (3, 3)
    /// assert_eq!(field.vertex_clearance(5, 0), 0.0); // outside
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn vertex_clearance(&self, x: i64, y: i64) -> f64 {
        let (w, h) = (self.width as i64, self.height as i64);
        if (0..=w).contains(&x) && (0..=h).contains(&y) {
            from_quarters(self.vertices[(y * (w + 1) + x) as usize])
        } else {
            0.0
        }
    }

    fn cell_index(&self, x: i64, y: i64) -> Option<usize> {
        let (w, h) = (self.width as i64, self.height as i64);
        ((0..w).contains(&x) && (0..h).contains(&y)).then(|| (y * w + x) as usize)
    }

    /// Exact minimum clearance along the closed segment `a`–`b` (up to rounding): 0 when
    /// the segment touches or enters the blocked region or has a non-finite endpoint.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::{DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["....", "....", "....", ".@.."])?);
    /// // Passing the wall's top-right corner (2, 3) at distance √0.5.
    /// let c = field.segment_clearance(DVec2::new(1.5, 1.5), DVec2::new(3.0, 3.0));
    /// assert!((c - 0.5f64.sqrt()).abs() < 1e-12);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn segment_clearance(&self, a: DVec2, b: DVec2) -> f64 {
        self.segment_clearance_capped(a, b, f64::INFINITY)
    }

    /// `min(segment_clearance(a, b), cap)`, computed faster for small `cap` (only squares
    /// nearer than `cap` are looked at). Values below `cap` are exact.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::{DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_fn(9, 9, |_, _| true));
    /// let (a, b) = (DVec2::new(4.5, 3.0), DVec2::new(4.5, 6.0));
    /// assert_eq!(field.segment_clearance_capped(a, b, 1.0), 1.0); // true value 3
    /// assert_eq!(field.segment_clearance_capped(a, b, 10.0), 3.0);
    /// ```
    pub fn segment_clearance_capped(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        self.segment_clearance_until(a, b, cap, 0.0)
    }

    /// Like [`segment_clearance_capped`](Self::segment_clearance_capped), but may stop as
    /// soon as the minimum is known to be below `stop_below` (returning some value below
    /// it).
    fn segment_clearance_until(&self, a: DVec2, b: DVec2, cap: f64, stop_below: f64) -> f64 {
        // The map is convex: a segment leaves it (or touches its border) exactly when an
        // endpoint does. Otherwise every piece below is inside the map.
        if !a.is_finite() || !b.is_finite() || self.border_clearance(a, b) <= 0.0 || cap <= 0.0 {
            return 0.0;
        }
        let len = a.distance(b);
        let pieces = len.ceil().max(1.0);
        if pieces > 1e9 {
            // Far longer than any map: it leaves the map, where clearance is 0.
            return self.border_clearance(a, b).min(cap).max(0.0);
        }
        let n = pieces as usize;
        let piece = |k: usize| {
            let start = if k == 0 {
                a
            } else {
                a.lerp(b, k as f64 / pieces)
            };
            let end = if k + 1 == n {
                b
            } else {
                a.lerp(b, (k + 1) as f64 / pieces)
            };
            (start, end)
        };
        if cap <= NEAR_CAP {
            // Few cells lie that near a piece: looking at each is cheaper than bounding
            // the piece first.
            let mut best = cap;
            for k in 0..n {
                let (p0, p1) = piece(k);
                best = self.piece_near(p0, p1, best);
                if best <= 0.0 || best < stop_below {
                    return best.max(0.0);
                }
            }
            return best;
        }
        // The bounds from the stored values are exact up to rounding errors far below
        // `slack`, which keeps every skip and early answer conservative.
        let slack = 1e-9 * (1.0 + (self.width + self.height) as f64);
        // `best` is only ever `cap`, a piece's upper bound plus `slack` (above the true
        // minimum), or a computed piece clearance. The piece holding the minimum is never
        // skipped (its lower bound is at most the minimum), so the result is exact.
        let mut best = cap;
        if n > 1 && stop_below <= 0.0 {
            // Without a radius to stop at, start every piece's search from the least upper
            // bound over the whole segment, so pieces far from its minimum cost O(1). (A
            // radius test instead stops at the first piece found too close.)
            for k in 0..n {
                let (p0, p1) = piece(k);
                best = best.min(self.piece_bounds(p0, p1).1 + slack);
            }
        }
        for k in 0..n {
            let (p0, p1) = piece(k);
            let (lower, upper) = self.piece_bounds(p0, p1);
            best = best.min(upper + slack);
            if best <= 0.0 || best < stop_below {
                return best.max(0.0);
            }
            if lower >= best + slack {
                continue;
            }
            best = self.piece_clearance(p0, p1, best);
            if best <= 0.0 || best < stop_below {
                return best.max(0.0);
            }
        }
        best
    }

    /// True when every point of the segment `a`–`b` has clearance ≥ `radius`.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::grid::{DistanceField, GridMap};
    /// let field = DistanceField::new(&GridMap::from_rows(&["...", "...", "..."])?);
    /// assert!(field.segment_clear_of(DVec2::new(0.5, 1.5), DVec2::new(2.5, 1.5), 0.5));
    /// assert!(!field.segment_clear_of(DVec2::new(0.5, 1.5), DVec2::new(2.5, 1.5), 0.51));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn segment_clear_of(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        if radius.is_nan() {
            return false;
        }
        if radius <= 0.0 {
            // Clearance is never negative; radius 0 asks nothing of the distance.
            return a.is_finite() && b.is_finite();
        }
        self.segment_clearance_until(a, b, radius, radius) >= radius
    }

    /// Distance from the segment to the outside of the map: the linear functions x, W − x,
    /// y, H − y reach their minimum over a segment at an endpoint.
    fn border_clearance(&self, a: DVec2, b: DVec2) -> f64 {
        let (w, h) = (self.width as f64, self.height as f64);
        let one = |p: DVec2| p.x.min(w - p.x).min(p.y).min(h - p.y);
        one(a).min(one(b)).max(0.0)
    }

    /// `(lower, upper)` bounds on the clearance of the points of the segment `p0`–`p1`
    /// (non-empty map): clearance is 1-Lipschitz, so from a lattice point `L` with stored
    /// value `v`, every point `q` has clearance within `v ± |q − L|`. `L` is the centre or
    /// vertex nearest to the midpoint (at most ½ away inside the map).
    fn piece_bounds(&self, p0: DVec2, p1: DVec2) -> (f64, f64) {
        let (w, h) = (self.width, self.height);
        let m = p0.lerp(p1, 0.5);
        let cell = m
            .floor()
            .clamp(DVec2::ZERO, DVec2::new(w as f64 - 1.0, h as f64 - 1.0));
        let vertex = m.round().clamp(DVec2::ZERO, DVec2::new(w as f64, h as f64));
        let centre = cell + 0.5;
        let (l, q) = if m.distance_squared(centre) <= m.distance_squared(vertex) {
            (centre, self.centres[cell.y as usize * w + cell.x as usize])
        } else {
            (
                vertex,
                self.vertices[vertex.y as usize * (w + 1) + vertex.x as usize],
            )
        };
        let v = from_quarters(q);
        let d0 = p0.distance(l);
        let d1 = if p1 == p0 { d0 } else { p1.distance(l) };
        (v - d0.max(d1), v + d0.min(d1))
    }

    /// `min(cap, distance from the segment p0–p1 to B)`, for a piece spanning at most a
    /// couple of rows.
    fn piece_clearance(&self, p0: DVec2, p1: DVec2, cap: f64) -> f64 {
        match &self.runs {
            Runs::Narrow(runs) => self.piece_search(runs, p0, p1, cap),
            Runs::Wide(runs) => self.piece_search(runs, p0, p1, cap),
        }
    }

    /// [`Self::piece_clearance`] by looking at every cell whose square meets the piece's
    /// bounding box widened by `cap` (only those can be nearer than `cap`): for small caps,
    /// a handful of cells. The same distances of the same squares as the column search,
    /// so the same answer to the last bit.
    fn piece_near(&self, p0: DVec2, p1: DVec2, cap: f64) -> f64 {
        let best = cap.min(self.border_clearance(p0, p1));
        if best <= 0.0 {
            return 0.0;
        }
        // Both endpoints are strictly inside the map here; a square [x, x + 1] is nearer
        // than `best` only if x > lo.x − best − 1 and x < hi.x + best.
        let (w, h) = (self.width, self.height);
        let (lo, hi) = (p0.min(p1), p0.max(p1));
        let first = |v: f64| (v - best).floor().max(0.0) as usize;
        let (x0, y0) = (first(lo.x), first(lo.y));
        let x1 = ((hi.x + best).floor() as usize).min(w - 1);
        let y1 = ((hi.y + best).floor() as usize).min(h - 1);
        // As the column search: squares of caps below about 10⁻¹⁵⁴ underflow.
        let start2 = best.max(f64::MIN_POSITIVE.sqrt()).powi(2);
        let mut best2 = start2;
        for y in y0..=y1 {
            for x in x0..=x1 {
                if self.blocked(y * w + x) {
                    best2 = seg_square_dist2(p0, p1, x as f64, y as f64, best2);
                }
            }
        }
        if best2 < start2 {
            best.min(best2.sqrt())
        } else {
            best
        }
    }

    /// True when the cell of index `i` (row-major) is blocked (its run up is 0).
    fn blocked(&self, i: usize) -> bool {
        match &self.runs {
            Runs::Narrow(runs) => runs.up[i] == 0,
            Runs::Wide(runs) => runs.up[i] == 0,
        }
    }

    fn piece_search<T: Run>(&self, runs: &ColumnRuns<T>, p0: DVec2, p1: DVec2, cap: f64) -> f64 {
        if !p0.is_finite() || !p1.is_finite() {
            return 0.0;
        }
        let mut best = cap.min(self.border_clearance(p0, p1));
        if best <= 0.0 {
            return 0.0;
        }
        // Both endpoints are strictly inside the map here.
        let (w, h) = (self.width, self.height);
        let (lo, hi) = (p0.min(p1), p0.max(p1));
        let r0 = (lo.y.floor() as usize).min(h - 1);
        let r1 = (hi.y.floor() as usize).min(h - 1);
        let c0 = (lo.x.floor() as usize).min(w - 1);
        let c1 = (hi.x.floor() as usize).min(w - 1);
        // The search compares squared distances, and the square of a cap below about
        // 10⁻¹⁵⁴ underflows (10⁻¹⁶² squared is 0, which reads as "a wall touches the
        // piece"). So it starts from the square of a cap no smaller than the root of the
        // smallest normal number, and only a square found nearer than that lowers `best`.
        let start2 = best.max(f64::MIN_POSITIVE.sqrt()).powi(2);
        let mut best2 = start2;
        let visit = |x: usize, best2: &mut f64| {
            for r in r0..=r1 {
                if runs.up[r * w + x].get() == 0 {
                    *best2 = seg_square_dist2(p0, p1, x as f64, r as f64, *best2);
                }
            }
            // The nearest blocked cell above row r0 (none: the border, handled above).
            if r0 > 0 {
                let d = runs.up[(r0 - 1) * w + x].get();
                if d < r0 {
                    *best2 = seg_square_dist2(p0, p1, x as f64, (r0 - 1 - d) as f64, *best2);
                }
            }
            if r1 + 1 < h {
                let below = r1 + 1 + runs.down[(r1 + 1) * w + x].get();
                if below < h {
                    *best2 = seg_square_dist2(p0, p1, x as f64, below as f64, *best2);
                }
            }
        };
        for x in c0..=c1 {
            visit(x, &mut best2);
        }
        // Columns outwards; `gap` is the horizontal distance from the piece to the column,
        // a lower bound on the distance to any square in it.
        let mut k = 1;
        loop {
            let mut any = false;
            if k <= c0 {
                let x = c0 - k;
                let gap = lo.x - (x + 1) as f64;
                if gap * gap < best2 {
                    visit(x, &mut best2);
                    any = true;
                }
            }
            if c1 + k < w {
                let x = c1 + k;
                let gap = x as f64 - hi.x;
                if gap * gap < best2 {
                    visit(x, &mut best2);
                    any = true;
                }
            }
            if !any {
                break;
            }
            k += 1;
        }
        if best2 < start2 {
            best = best.min(best2.sqrt());
        }
        best
    }
}

/// The largest cap [`DistanceField`]'s segment walks answer by looking at the cells near
/// each piece ([`DistanceField::piece_near`]) instead of bounding the piece first: at most
/// 5 × 5 cells for a piece of one unit. Agents' radii and the caps just above them (the
/// crowd's legs, the validator, the map-aware smoothers) are below it.
const NEAR_CAP: f64 = 1.5;

/// `min(best2, squared distance from the segment p0–p1 to the closed unit square of cell
/// (x, y))`.
#[inline]
pub(crate) fn seg_square_dist2(p0: DVec2, p1: DVec2, x: f64, y: f64, best2: f64) -> f64 {
    let lo = DVec2::new(x, y);
    seg_box_dist2(p0, p1, lo, lo + DVec2::ONE, best2)
}

/// The squared gap between the bounding box of the segment p0–p1 and the closed box
/// `lo..=hi`: a lower bound on their squared distance, exact when the segment is
/// axis-parallel (or a point).
#[inline]
pub(crate) fn box_gap2(p0: DVec2, p1: DVec2, lo: DVec2, hi: DVec2) -> f64 {
    (lo - p0.max(p1))
        .max(p0.min(p1) - hi)
        .max(DVec2::ZERO)
        .length_squared()
}

/// `min(best2, squared distance from the segment p0–p1 to the closed box lo..=hi)`.
#[inline]
pub(crate) fn seg_box_dist2(p0: DVec2, p1: DVec2, lo: DVec2, hi: DVec2, best2: f64) -> f64 {
    let gap2 = box_gap2(p0, p1, lo, hi);
    if gap2 >= best2 {
        return best2;
    }
    if p0.x == p1.x || p0.y == p1.y {
        return gap2;
    }
    if segment_meets_box(p0, p1, lo, hi) {
        return 0.0;
    }
    // Disjoint convex sets: the distance is attained at an endpoint of one of them.
    let point_box = |p: DVec2| (lo - p).max(p - hi).max(DVec2::ZERO).length_squared();
    let mut d2 = point_box(p0).min(point_box(p1));
    for c in [lo, hi, DVec2::new(lo.x, hi.y), DVec2::new(hi.x, lo.y)] {
        let (q, _) = crate::geometry::closest_on_segment(c, p0, p1);
        d2 = d2.min(q.distance_squared(c));
    }
    d2.min(best2)
}

/// Slab test: does the closed segment meet the closed box?
fn segment_meets_box(p0: DVec2, p1: DVec2, lo: DVec2, hi: DVec2) -> bool {
    let d = p1 - p0;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..2 {
        if d[i] == 0.0 {
            if p0[i] < lo[i] || p0[i] > hi[i] {
                return false;
            }
        } else {
            let ta = (lo[i] - p0[i]) / d[i];
            let tb = (hi[i] - p0[i]) / d[i];
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// The rectangles cover exactly the cells given (repeats and all), one cell once.
    #[test]
    fn rectangles_cover_the_cells_once() {
        let mut next = crate::test_fixtures::uniform(17);
        for _ in 0..200 {
            let n = (next() * 40.0) as usize;
            let cells: Vec<IVec2> = (0..n)
                .map(|_| IVec2::new((next() * 8.0) as i32 - 2, (next() * 8.0) as i32 - 2))
                .collect();
            let mut covered: Vec<IVec2> = rectangles(&cells)
                .iter()
                .flat_map(|&(a, b)| {
                    assert!(a.cmple(b).all(), "{a} {b}");
                    (a.y..=b.y).flat_map(move |y| (a.x..=b.x).map(move |x| IVec2::new(x, y)))
                })
                .collect();
            let mut want = cells.clone();
            for v in [&mut covered, &mut want] {
                v.sort_unstable_by_key(|c| (c.y, c.x));
            }
            want.dedup();
            assert_eq!(covered, want, "from {cells:?}");
        }
        // A box of cells is one rectangle.
        let block: Vec<IVec2> = (0..12).map(|k| IVec2::new(k % 3, k / 3)).collect();
        assert_eq!(rectangles(&block), [(IVec2::ZERO, IVec2::new(2, 3))]);
    }

    #[test]
    fn border_only() {
        let field = DistanceField::new(&GridMap::from_rows(&["....", "...."]).unwrap());
        assert_eq!(field.clearance(p(1.0, 1.0)), 1.0);
        assert_eq!(field.clearance(p(0.0, 1.0)), 0.0);
        assert_eq!(field.segment_clearance(p(1.0, 1.0), p(3.0, 1.0)), 1.0);
        assert_eq!(field.vertex_clearance(1, 1), 1.0);
        assert_eq!(field.vertex_clearance(2, 1), 1.0);
        assert_eq!(field.cell_clearance(1, 0), 0.5);
    }

    #[test]
    fn segment_through_wall_is_zero() {
        let field = DistanceField::new(&GridMap::from_rows(&["....", ".@..", "...."]).unwrap());
        assert_eq!(field.segment_clearance(p(0.5, 1.5), p(3.5, 1.5)), 0.0);
        assert!(!field.segment_clear_of(p(0.5, 1.5), p(3.5, 1.5), 0.1));
    }

    #[test]
    fn long_segment_far_from_walls() {
        let map = GridMap::from_fn(100, 9, |x, y| !(x == 50 && y == 0));
        let field = DistanceField::new(&map);
        let c = field.segment_clearance(p(1.5, 4.5), p(98.5, 4.5));
        assert_eq!(c, 1.5);
        let c = field.segment_clearance(p(10.0, 4.5), p(90.0, 4.5));
        assert_eq!(c, 3.5);
        assert!(field.segment_clear_of(p(10.0, 4.5), p(90.0, 4.5), 3.5));
        assert!(!field.segment_clear_of(p(10.0, 4.5), p(90.0, 4.5), 3.5 + 1e-12));
    }

    #[test]
    fn exact_values_at_centres_and_vertices() {
        // 7 × 7 with one blocked cell (3, 3).
        let map = GridMap::from_fn(7, 7, |x, y| (x, y) != (3, 3));
        let field = DistanceField::new(&map);
        // Diagonal neighbour: the wall's corner is ½ away on both axes.
        assert_eq!(field.cell_clearance(2, 2), 0.5f64.sqrt());
        assert_eq!(field.cell_clearance(2, 2), 0.5f64.hypot(0.5));
        assert_eq!(field.clearance(p(2.5, 2.5)), field.cell_clearance(2, 2));
        // Beside it: ½ to the wall's face.
        assert_eq!(field.cell_clearance(2, 3), 0.5);
        // Two cells away diagonally: the corner (3, 3) from (1.5, 1.5) is 1.5 on both axes,
        // but the border is 1.5 away too.
        assert_eq!(field.cell_clearance(1, 1), 1.5);
        // (4.5, 5.5): the corner (4, 4) is (0.5, 1.5) away: √2.5 > 1.5 to the border.
        assert_eq!(field.cell_clearance(4, 5), 1.5);
        assert_eq!(field.cell_clearance(3, 3), 0.0);
        assert_eq!(field.cell_clearance(-1, 0), 0.0);
        assert_eq!(field.cell_clearance(0, 7), 0.0);
        // Vertices: the four corners of the wall are 0, (2, 2) is √2 from (3, 3).
        for (x, y) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
            assert_eq!(field.vertex_clearance(x, y), 0.0);
        }
        assert_eq!(field.vertex_clearance(2, 2), 2.0f64.sqrt());
        assert_eq!(field.vertex_clearance(2, 3), 1.0);
        assert_eq!(field.vertex_clearance(7, 7), 0.0);
        assert_eq!(field.vertex_clearance(8, 7), 0.0);
        assert_eq!(field.vertex_clearance(1, 6), 1.0);
        // The centre of the map beside nothing: (1.5, 5.5) → border 1.5.
        assert_eq!(field.clearance(p(1.5, 5.5)), 1.5);
        // An edge midpoint (not stored) through the search.
        assert_eq!(field.clearance(p(2.0, 3.5)), 1.0);
        assert_eq!(field.clearance(p(3.0, 2.5)), 0.5);
    }

    #[test]
    fn one_by_one_and_empty_maps() {
        let field = DistanceField::new(&GridMap::from_rows(&["."]).unwrap());
        assert_eq!(field.cell_clearance(0, 0), 0.5);
        assert_eq!(field.clearance(p(0.5, 0.5)), 0.5);
        assert_eq!(field.clearance(p(0.25, 0.5)), 0.25);
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert_eq!(field.vertex_clearance(x, y), 0.0);
        }
        let field = DistanceField::new(&GridMap::from_rows(&["@"]).unwrap());
        assert_eq!(field.cell_clearance(0, 0), 0.0);
        assert_eq!(field.clearance(p(0.5, 0.5)), 0.0);
        assert!(!field.segment_clear_of(p(0.5, 0.5), p(0.6, 0.5), 0.1));
        // Maps with no cells (only `from_fn` builds them): everything is 0.
        for (w, h) in [(0, 0), (0, 3), (3, 0)] {
            let field = DistanceField::new(&GridMap::from_fn(w, h, |_, _| true));
            assert_eq!(field.cell_clearance(0, 0), 0.0);
            assert_eq!(field.vertex_clearance(0, 0), 0.0);
            assert_eq!(field.clearance(p(0.0, 0.0)), 0.0);
            assert_eq!(field.clearance(p(0.5, 0.5)), 0.0);
            assert_eq!(field.segment_clearance(p(0.5, 0.5), p(1.5, 0.5)), 0.0);
            assert!(!field.segment_clear_of(p(0.5, 0.5), p(1.5, 0.5), 0.1));
        }
    }

    /// Radii and caps whose squares underflow (below about 10⁻¹⁵⁴): a free segment half a
    /// cell from every wall kept them all, but the search squared the cap to 0 and found
    /// "a wall at distance 0" (issue 32: clear at 10⁻¹², not at 10⁻³⁰⁰).
    #[test]
    fn tiny_radii_and_caps_do_not_underflow() {
        let field = DistanceField::new(&GridMap::from_rows(&["...", ".@."]).unwrap());
        let (a, b) = (p(0.5, 0.5), p(2.5, 0.5));
        for r in [1e-12, 1e-100, 1e-155, 1e-162, 1e-300, 5e-324] {
            assert!(field.segment_clear_of(a, b, r), "radius {r:e}");
            assert_eq!(field.segment_clearance_capped(a, b, r), r);
            assert_eq!(field.segment_clearance_capped(a, a, r), r);
        }
        assert_eq!(field.segment_clearance(a, b), 0.5);
        // A point one unit in the last place off the wall's top side keeps that much; one
        // on the side keeps nothing, for any radius.
        let near = p(1.5, 1.0 - f64::EPSILON / 2.0);
        assert_eq!(field.clearance(near), f64::EPSILON / 2.0);
        for r in [1e-300, 1e-200, 1e-17] {
            assert!(field.segment_clear_of(near, near, r), "radius {r:e}");
            assert_eq!(field.segment_clearance_capped(near, a, r), r);
            assert!(!field.segment_clear_of(p(1.5, 1.0), a, r));
            assert_eq!(field.segment_clearance_capped(p(1.5, 1.0), a, r), 0.0);
        }
        assert!(!field.segment_clear_of(near, near, 1e-15));
    }

    #[test]
    fn non_finite_and_huge_inputs() {
        let field = DistanceField::new(&GridMap::from_fn(5, 5, |_, _| true));
        let big = p(1e308, -1e308);
        assert_eq!(field.clearance(p(f64::NAN, 1.0)), 0.0);
        assert_eq!(field.clearance(big), 0.0);
        assert_eq!(field.segment_clearance(p(2.5, 2.5), big), 0.0);
        assert_eq!(field.segment_clearance(big, -big), 0.0);
        // Leaving the map: 0 at once, not after 10⁸ unit pieces.
        assert_eq!(field.segment_clearance(p(2.5, 2.5), p(1e8, 2.5)), 0.0);
        assert!(!field.segment_clear_of(p(2.5, 2.5), p(2.5, -1e8), 0.1));
        assert_eq!(
            field.segment_clearance(p(2.5, 2.5), p(f64::INFINITY, 2.5)),
            0.0
        );
        assert_eq!(
            field.segment_clearance_capped(p(2.5, 2.5), p(2.5, 2.5), -1.0),
            0.0
        );
        assert_eq!(
            field.segment_clearance_capped(p(2.5, 2.5), p(2.5, 2.5), f64::NAN),
            2.5
        );
        assert!(!field.segment_clear_of(p(2.5, 2.5), p(2.5, 2.6), f64::NAN));
    }

    /// Maps taller than `u16::MAX` rows keep their column distances in `u32`.
    #[test]
    fn tall_maps() {
        let h = 70_000;
        let map = GridMap::from_fn(5, h, |x, y| !(x == 2 && (y == 5 || y == 69_990)));
        let field = DistanceField::new(&map);
        assert!(matches!(field.runs, Runs::Wide(_)));
        assert_eq!(field.cell_clearance(2, 30_000), 2.5);
        assert_eq!(field.cell_clearance(0, 30_000), 0.5);
        assert_eq!(field.cell_clearance(2, 6), 0.5);
        assert_eq!(field.cell_clearance(2, 7), 1.5);
        assert_eq!(field.cell_clearance(1, 6), 0.5f64.sqrt());
        assert_eq!(field.vertex_clearance(2, 6), 0.0);
        assert_eq!(field.vertex_clearance(1, 7), 1.0);
        assert_eq!(field.clearance(p(2.5, 7.25)), 1.25);
        assert_eq!(field.clearance(p(2.5, 69_989.0)), 1.0);
        assert_eq!(field.clearance(p(2.5, 69_988.75)), 1.25);
        let long = field.segment_clearance(p(2.5, 6.5), p(2.5, 69_989.5));
        assert_eq!(long, 0.5);
        assert!(field.segment_clear_of(p(2.5, 7.0), p(2.5, 69_989.0), 1.0));
        assert!(!field.segment_clear_of(p(2.5, 7.0), p(2.5, 69_989.0), 1.0 + 1e-9));
        let tall = DistanceField::new(&GridMap::from_fn(1, h, |_, _| true));
        assert_eq!(tall.cell_clearance(0, 40_000), 0.5);
        assert_eq!(tall.clearance(p(0.5, 12_345.6)), 0.5);
    }

    #[test]
    fn envelope_matches_brute_force() {
        let mut env = Envelope::with_capacity(4);
        let gs: [&[i64]; 5] = [
            &[0, 100, 100, 0],
            &[0, 1, 0],
            &[0],
            &[0, 9, 4, 36, 1, 0],
            &[0, 400, 400, 400, 400, 400, 0],
        ];
        for g in gs {
            for off in [0i64, 1] {
                let mut out = vec![0; g.len()];
                env.evaluate(g, off, &mut out);
                for (j, &o) in out.iter().enumerate() {
                    let brute = (0..g.len())
                        .map(|k| (2 * j as i64 + off - 2 * k as i64).pow(2) + g[k])
                        .min()
                        .unwrap();
                    assert_eq!(o, brute, "{g:?} off {off} j {j}");
                }
            }
        }
    }

    // ---- brute force --------------------------------------------------------------

    /// 16 × the squared distance from (X/4, Y/4) to the blocked region, in exact integers:
    /// per axis, the gap from X to the cell [4i, 4i + 4] is max(0, |X − 4i − 2| − 2).
    fn brute_sixteenths(map: &GridMap, x: i64, y: i64) -> i64 {
        let (w, h) = (map.width() as i64, map.height() as i64);
        let border = x.min(4 * w - x).min(y).min(4 * h - y);
        if border <= 0 {
            return 0;
        }
        let mut best = border * border;
        for j in 0..h {
            for i in 0..w {
                if map.is_blocked(i, j) {
                    let dx = ((x - 4 * i - 2).abs() - 2).max(0);
                    let dy = ((y - 4 * j - 2).abs() - 2).max(0);
                    best = best.min(dx * dx + dy * dy);
                }
            }
        }
        best
    }

    fn from_sixteenths(q: i64) -> f64 {
        (q as f64).sqrt() / 4.0
    }

    /// Exact distance from the segment to every blocked square and the border, without
    /// the column search or the stored bounds.
    fn brute_segment(map: &GridMap, a: DVec2, b: DVec2) -> f64 {
        let (w, h) = (map.width() as f64, map.height() as f64);
        let one = |q: DVec2| q.x.min(w - q.x).min(q.y).min(h - q.y);
        let mut best2 = one(a).min(one(b)).max(0.0).powi(2);
        for j in 0..map.height() as i64 {
            for i in 0..map.width() as i64 {
                if map.is_blocked(i, j) {
                    best2 = seg_square_dist2(a, b, i as f64, j as f64, best2);
                }
            }
        }
        best2.sqrt()
    }

    /// Small maps of every density, including all-free, all-blocked and 1 × N.
    fn arb_map(max: usize) -> impl Strategy<Value = GridMap> {
        let size = prop_oneof![
            (1..=max, 1..=max),
            (Just(1), 1..=3 * max),
            (1..=3 * max, Just(1)),
        ];
        let density = prop_oneof![Just(0.0), Just(1.0), Just(0.05), Just(0.2), Just(0.5)];
        (size, density).prop_flat_map(|((w, h), d)| {
            proptest::collection::vec(proptest::bool::weighted(d), w * h)
                .prop_map(move |blocked| GridMap::from_fn(w, h, |x, y| !blocked[y * w + x]))
        })
    }

    /// Sparse obstacles on larger maps, where clearances (and the pruning) are large.
    fn arb_sparse_map() -> impl Strategy<Value = GridMap> {
        (
            8usize..=40,
            8usize..=40,
            prop_oneof![Just(0.0), Just(0.003), Just(0.02)],
        )
            .prop_flat_map(|(w, h, d)| {
                proptest::collection::vec(proptest::bool::weighted(d), w * h)
                    .prop_map(move |blocked| GridMap::from_fn(w, h, |x, y| !blocked[y * w + x]))
            })
    }

    fn arb_point(map: &GridMap) -> impl Strategy<Value = DVec2> + use<> {
        let (w, h) = (map.width() as f64, map.height() as f64);
        (-0.5..w + 0.5, -0.5..h + 0.5).prop_map(|(x, y)| p(x, y))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Every centre and vertex, bit for bit: the stored value, `clearance` there (both
        /// its O(1) path and the column search) and the integer brute force.
        #[test]
        fn centres_and_vertices_are_exact(map in arb_map(9)) {
            let field = DistanceField::new(&map);
            let (w, h) = (map.width() as i64, map.height() as i64);
            for y in -1..=h {
                for x in -1..=w {
                    let expect = if map.contains(x, y) {
                        from_sixteenths(brute_sixteenths(&map, 4 * x + 2, 4 * y + 2))
                    } else {
                        0.0
                    };
                    let c = field.cell_clearance(x, y);
                    prop_assert_eq!(c, expect, "cell ({}, {})", x, y);
                    let centre = p(x as f64 + 0.5, y as f64 + 0.5);
                    prop_assert_eq!(field.clearance(centre), c);
                    prop_assert_eq!(field.segment_clearance(centre, centre), c);
                }
            }
            for y in -1..=h + 1 {
                for x in -1..=w + 1 {
                    let expect = if (0..=w).contains(&x) && (0..=h).contains(&y) {
                        from_sixteenths(brute_sixteenths(&map, 4 * x, 4 * y))
                    } else {
                        0.0
                    };
                    let v = field.vertex_clearance(x, y);
                    prop_assert_eq!(v, expect, "vertex ({}, {})", x, y);
                    let q = p(x as f64, y as f64);
                    prop_assert_eq!(field.clearance(q), v);
                    prop_assert_eq!(field.segment_clearance(q, q), v);
                }
            }
        }

        /// Points on the quarter lattice, inside and outside the map: exact.
        #[test]
        fn quarter_lattice_points_are_exact(
            (map, qx, qy) in arb_map(9).prop_flat_map(|m| {
                let (w, h) = (4 * m.width() as i64, 4 * m.height() as i64);
                (Just(m), -3..=w + 3, -3..=h + 3)
            })
        ) {
            let field = DistanceField::new(&map);
            let q = p(qx as f64 / 4.0, qy as f64 / 4.0);
            prop_assert_eq!(field.clearance(q), from_sixteenths(brute_sixteenths(&map, qx, qy)));
        }

        /// Any point: the search agrees with the distance to every square, and stays
        /// within the distance to the cell's centre of the centre's stored value.
        #[test]
        fn points_match_brute_force(
            (map, q) in prop_oneof![arb_map(9), arb_sparse_map()]
                .prop_flat_map(|m| { let s = arb_point(&m); (Just(m), s) })
        ) {
            let field = DistanceField::new(&map);
            let c = field.clearance(q);
            let brute = brute_segment(&map, q, q);
            prop_assert!((c - brute).abs() < 1e-12, "{} vs {}", c, brute);
            let cell = q.floor();
            if map.contains(cell.x as i64, cell.y as i64) {
                let v = field.cell_clearance(cell.x as i64, cell.y as i64);
                prop_assert!((c - v).abs() <= q.distance(cell + 0.5) + 1e-12);
            }
        }

        /// Segments (including long ones, where pieces are skipped on the stored bounds):
        /// the exact value, the capped form and the radius test agree with brute force.
        #[test]
        fn segments_match_brute_force(
            (map, a, b) in prop_oneof![arb_map(9), arb_sparse_map()]
                .prop_flat_map(|m| { let (s, t) = (arb_point(&m), arb_point(&m)); (Just(m), s, t) }),
            radius in 0.0..6.0f64,
        ) {
            let field = DistanceField::new(&map);
            let c = field.segment_clearance(a, b);
            let brute = brute_segment(&map, a, b);
            prop_assert!((c - brute).abs() < 1e-9, "{} vs {}", c, brute);
            let cap = brute / 2.0 + 0.3;
            prop_assert_eq!(field.segment_clearance_capped(a, b, cap), c.min(cap));
            if (brute - radius).abs() > 1e-9 {
                prop_assert_eq!(field.segment_clear_of(a, b, radius), brute >= radius);
            }
        }

        /// The small caps' search of the cells near a piece answers what the column
        /// search answers, bit for bit, for pieces up to a unit long (as the walks cut).
        #[test]
        fn the_near_cells_search_equals_the_column_search(
            (map, a, b) in prop_oneof![arb_map(9), arb_sparse_map()]
                .prop_flat_map(|m| { let (s, t) = (arb_point(&m), arb_point(&m)); (Just(m), s, t) }),
            cap in 1e-6..NEAR_CAP,
        ) {
            let field = DistanceField::new(&map);
            let b = if a.distance(b) > 1.0 { a + (b - a).normalize() } else { b };
            if field.border_clearance(a, b) > 0.0 {
                let near = field.piece_near(a, b, cap);
                prop_assert_eq!(near.to_bits(), field.piece_clearance(a, b, cap).to_bits());
            }
        }
    }
}
