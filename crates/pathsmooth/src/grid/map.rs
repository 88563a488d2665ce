//! Moving AI grid maps (`.map`) and scenario lists (`.scen`).
//!
//! (A private module: its public items are re-exported by its parent, whose docs
//! describe it under "Maps and scenarios".)

use std::path::Path;

use glam::{DVec2, IVec2};

use crate::area::{AreaCosts, AreaId, GROUND, SWAMP, WATER};
use crate::error::{excerpt, Error, Result};

/// Largest accepted side length; larger headers are reported as errors rather than
/// attempting a huge allocation.
pub const MAX_MAP_SIDE: usize = 1 << 14;

/// A grid map: `width × height` cells, each passable or blocked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridMap {
    width: usize,
    height: usize,
    /// Row-major, `y * width + x`; `true` means passable.
    passable: Vec<bool>,
    /// Row-major area ids ([`crate::area`]), `None` when every cell is plain ground.
    areas: Option<Vec<AreaId>>,
}

impl GridMap {
    /// Builds a map from rows of characters with Moving AI meanings (`.`/`G`/`S` free,
    /// anything else blocked). Handy for tests and small hand-made maps.
    ///
    /// ```
    /// let map = pathsmooth::grid::GridMap::from_rows(&["..", "@."])?;
    /// assert!(!map.is_passable(0, 1));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Self> {
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.as_ref().chars().count());
        if width == 0 || height == 0 {
            return Err(parse_err("<rows>", 1, 0, "the map has no cells".into()));
        }
        let mut passable = Vec::with_capacity(width * height);
        for (y, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            if row.chars().count() != width {
                return Err(parse_err(
                    "<rows>",
                    y + 1,
                    0,
                    format!("row has {} cells, expected {width}", row.chars().count()),
                ));
            }
            passable.extend(row.chars().map(is_passable_char));
        }
        let areas = terrain_areas(rows.iter().flat_map(|r| r.as_ref().chars()));
        Ok(GridMap {
            width,
            height,
            passable,
            areas,
        })
    }

    /// Builds a map from a passability predicate.
    ///
    /// ```
    /// let map = pathsmooth::grid::GridMap::from_fn(4, 3, |x, _y| x != 2);
    /// assert!(!map.is_passable(2, 1));
    /// ```
    pub fn from_fn(
        width: usize,
        height: usize,
        mut free: impl FnMut(usize, usize) -> bool,
    ) -> Self {
        let mut passable = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                passable.push(free(x, y));
            }
        }
        GridMap {
            width,
            height,
            passable,
            areas: None,
        }
    }

    /// Parses the text of a `.map` file; `file` names it in error messages.
    ///
    /// Only `type octile` maps are grids of square cells; any other type (the format also
    /// names `hex`) is [`Error::Parse`], as is any malformed header, row or trailing text.
    ///
    /// ```
    /// use pathsmooth::grid::GridMap;
    /// let err = GridMap::parse("type hex\nheight 1\nwidth 1\nmap\n.\n", "h.map").unwrap_err();
    /// assert_eq!(err.to_string(), "h.map:1:6: unsupported map type `hex`: only `type octile` is supported");
    /// ```
    pub fn parse(text: &str, file: &str) -> Result<Self> {
        let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
        let mut line_no = 0;
        let mut next_line = |what: &str| -> Result<(usize, &str)> {
            line_no += 1;
            lines.next().map(|l| (line_no, l)).ok_or_else(|| {
                parse_err(
                    file,
                    line_no,
                    0,
                    format!("expected {what}, found end of file"),
                )
            })
        };

        let (n, l) = next_line("`type octile`")?;
        let words: Vec<&str> = l.split_whitespace().collect();
        match words[..] {
            ["type", "octile"] => {}
            ["type", other] => {
                let column = l.find(other).map_or(1, |c| c + 1);
                return Err(parse_err(
                    file,
                    n,
                    column,
                    format!(
                        "unsupported map type `{}`: only `type octile` is supported",
                        excerpt(other)
                    ),
                ));
            }
            _ => {
                return Err(parse_err(
                    file,
                    n,
                    1,
                    format!("expected `type octile`, found `{}`", excerpt(l)),
                ))
            }
        }
        let height = header_number(file, next_line("`height H`")?, "height")?;
        let width = header_number(file, next_line("`width W`")?, "width")?;
        let (n, l) = next_line("`map`")?;
        if l.trim() != "map" {
            return Err(parse_err(
                file,
                n,
                1,
                format!("expected `map`, found `{}`", excerpt(l)),
            ));
        }

        let mut passable = Vec::with_capacity(width * height);
        let mut rows_text = Vec::with_capacity(height);
        for _ in 0..height {
            let (n, row) = next_line("a map row")?;
            let count = row.chars().count();
            if count != width {
                return Err(parse_err(
                    file,
                    n,
                    count.min(width) + 1,
                    format!("row has {count} cells, expected {width}"),
                ));
            }
            passable.extend(row.chars().map(is_passable_char));
            rows_text.push(row);
        }
        // Anything after the grid must be blank.
        while let Ok((n, l)) = next_line("") {
            if !l.trim().is_empty() {
                return Err(parse_err(
                    file,
                    n,
                    1,
                    format!("unexpected text after the {height} map rows"),
                ));
            }
        }
        let areas = terrain_areas(rows_text.iter().flat_map(|r| r.chars()));
        Ok(GridMap {
            width,
            height,
            passable,
            areas,
        })
    }

    /// Reads and parses a `.map` file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = read_text(path)?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Width in cells (number of columns).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in cells (number of rows).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// True when (x, y) is inside the map.
    #[inline]
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as u64) < self.width as u64 && (y as u64) < self.height as u64
    }

    /// True when cell (x, y) is inside the map and passable.
    #[inline]
    pub fn is_passable(&self, x: i64, y: i64) -> bool {
        self.contains(x, y) && self.passable[y as usize * self.width + x as usize]
    }

    /// True when cell (x, y) is blocked or outside the map.
    #[inline]
    pub fn is_blocked(&self, x: i64, y: i64) -> bool {
        !self.is_passable(x, y)
    }

    /// [`is_passable`](Self::is_passable) for an `IVec2` cell.
    #[inline]
    pub fn passable_cell(&self, c: IVec2) -> bool {
        self.is_passable(c.x as i64, c.y as i64)
    }

    /// Number of passable cells.
    pub fn passable_count(&self) -> usize {
        self.passable.iter().filter(|&&p| p).count()
    }

    /// The centre (x + 0.5, y + 0.5) of a cell.
    ///
    /// ```
    /// use glam::{DVec2, IVec2};
    /// assert_eq!(pathsmooth::grid::GridMap::cell_center(IVec2::new(2, 3)), DVec2::new(2.5, 3.5));
    /// ```
    #[inline]
    pub fn cell_center(c: IVec2) -> DVec2 {
        DVec2::new(c.x as f64 + 0.5, c.y as f64 + 0.5)
    }

    /// The cell whose square contains `p` (floor of each coordinate), whether or not it is
    /// inside the map. Non-finite points map to `None`.
    #[inline]
    pub fn cell_at(p: DVec2) -> Option<IVec2> {
        let f = p.floor();
        (f.is_finite() && f.abs().max_element() < i32::MAX as f64)
            .then(|| IVec2::new(f.x as i32, f.y as i32))
    }

    /// Row-major passability, `y * width + x`.
    pub fn cells(&self) -> &[bool] {
        &self.passable
    }

    /// The area of cell (x, y) ([`crate::area`]): Moving AI's terrain letter as its byte
    /// (`.` for `.` and `G`, `S` swamp, `W` water), a caller's id
    /// ([`with_areas`](Self::with_areas)), [`GROUND`] for maps without areas. Blocked
    /// cells other than water have an area too (`@`), which no filter can open.
    #[inline]
    pub fn area(&self, x: usize, y: usize) -> AreaId {
        self.areas
            .as_ref()
            .map_or(GROUND, |a| a[y * self.width + x])
    }

    /// Row-major area ids, `None` when every cell is plain ground ([`GROUND`]).
    pub fn areas(&self) -> Option<&[AreaId]> {
        self.areas.as_deref()
    }

    /// The map with the area of each passable cell given by `area(x, y)` (a caller's own
    /// terrain: roads, cover, danger). Blocked cells keep theirs: an area function cannot
    /// open a wall. Cost: O(width × height).
    ///
    /// ```
    /// use pathsmooth::grid::GridMap;
    /// let map = GridMap::from_rows(&["...", ".@."])?.with_areas(|x, _| if x == 2 { 7 } else { b'.' });
    /// assert_eq!((map.area(2, 0), map.area(0, 0), map.area(1, 1)), (7, b'.', b'@'));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn with_areas(mut self, mut area: impl FnMut(usize, usize) -> AreaId) -> Self {
        let mut areas = Vec::with_capacity(self.passable.len());
        for y in 0..self.height {
            for x in 0..self.width {
                let i = y * self.width + x;
                let old = self.areas.as_ref().map_or(WALL, |a| a[i]);
                areas.push(if self.passable[i] { area(x, y) } else { old });
            }
        }
        self.areas = Some(areas);
        self
    }

    /// The areas that passable cells have, and water, in increasing order.
    pub fn areas_present(&self) -> Vec<AreaId> {
        let mut seen = [false; 256];
        for (i, &free) in self.passable.iter().enumerate() {
            let area = self.areas.as_ref().map_or(GROUND, |a| a[i]);
            if free || area == WATER {
                seen[area as usize] = true;
            }
        }
        (0..=255u8).filter(|&a| seen[a as usize]).collect()
    }

    /// Blocks `cells` (each inside the map; areas kept), for temporary obstacles.
    pub(crate) fn block(&mut self, cells: impl IntoIterator<Item = IVec2>) {
        for c in cells {
            if self.contains(c.x as i64, c.y as i64) {
                self.passable[c.y as usize * self.width + c.x as usize] = false;
            }
        }
    }

    /// Makes `cells` (those inside the map) passable.
    pub(crate) fn open(&mut self, cells: impl IntoIterator<Item = IVec2>) {
        for c in cells {
            if self.contains(c.x as i64, c.y as i64) {
                self.passable[c.y as usize * self.width + c.x as usize] = true;
            }
        }
    }

    /// A map from its cells and their areas (row-major, one each per cell).
    pub(crate) fn from_parts(
        width: usize,
        height: usize,
        passable: Vec<bool>,
        areas: Vec<AreaId>,
    ) -> Self {
        debug_assert_eq!(
            (passable.len(), areas.len()),
            (width * height, width * height)
        );
        GridMap {
            width,
            height,
            passable,
            areas: Some(areas),
        }
    }

    /// True when cell `c` is passable terrain or water that `costs` excludes.
    pub(crate) fn filtered_out(&self, c: IVec2, costs: &AreaCosts) -> bool {
        let (x, y) = (c.x as usize, c.y as usize);
        self.contains(c.x as i64, c.y as i64)
            && (self.passable[y * self.width + x] || self.area(x, y) == WATER)
            && costs.is_excluded(self.area(x, y))
    }

    /// The map as an agent with the filter `costs` sees it: a cell is passable when it is
    /// passable terrain or water, and its area is not excluded. With the default filter
    /// this is the map itself. Areas are kept. Cost: O(width × height).
    ///
    /// ```
    /// use pathsmooth::{area::AreaCosts, grid::GridMap};
    /// let map = GridMap::from_rows(&[".SW."])?;
    /// assert_eq!(map.filtered(&AreaCosts::default()), map);
    /// let swim: AreaCosts = "W=3,S=exclude".parse()?;
    /// let seen = map.filtered(&swim);
    /// assert_eq!(seen.cells(), &[true, false, true, true]);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn filtered(&self, costs: &AreaCosts) -> GridMap {
        let Some(areas) = &self.areas else {
            let mut map = self.clone();
            if costs.is_excluded(GROUND) {
                map.passable.iter_mut().for_each(|p| *p = false);
            }
            return map;
        };
        let passable = self
            .passable
            .iter()
            .zip(areas)
            .map(|(&free, &area)| (free || area == WATER) && !costs.is_excluded(area))
            .collect();
        GridMap {
            width: self.width,
            height: self.height,
            passable,
            areas: self.areas.clone(),
        }
    }

    /// Checks that `p` is a finite point inside the map and on a passable cell; `what`
    /// names it in the error (`"start"`, `"goal"`).
    pub fn check_free_point(&self, p: DVec2, what: &'static str) -> Result<IVec2> {
        let outside = || Error::OutsideMap {
            what,
            x: p.x,
            y: p.y,
            width: self.width,
            height: self.height,
        };
        let c = Self::cell_at(p).ok_or_else(outside)?;
        if !self.contains(c.x as i64, c.y as i64) {
            return Err(outside());
        }
        if !self.passable_cell(c) {
            return Err(Error::Blocked {
                what,
                x: p.x,
                y: p.y,
            });
        }
        Ok(c)
    }
}

/// The areas of Moving AI terrain characters (`.`/`G` ground, `S` swamp, `W` water, other
/// characters walls), `None` when there is no swamp or water.
fn terrain_areas(chars: impl Iterator<Item = char> + Clone) -> Option<Vec<AreaId>> {
    if !chars.clone().any(|c| matches!(c, 'S' | 'W')) {
        return None;
    }
    Some(
        chars
            .map(|c| match c {
                '.' | 'G' => GROUND,
                'S' => SWAMP,
                'W' => WATER,
                _ => WALL,
            })
            .collect(),
    )
}

/// The area recorded for blocked cells other than water (no filter opens them).
pub(crate) const WALL: AreaId = b'@';

/// Moving AI terrain: `.`, `G` and `S` are passable; everything else is blocked.
#[inline]
fn is_passable_char(c: char) -> bool {
    matches!(c, '.' | 'G' | 'S')
}

fn header_number(file: &str, (n, l): (usize, &str), key: &str) -> Result<usize> {
    let mut words = l.split_whitespace();
    let ok_key = words.next() == Some(key);
    let value = words.next().and_then(|v| v.parse::<usize>().ok());
    match (ok_key, value, words.next()) {
        (true, Some(v), None) if (1..=MAX_MAP_SIDE).contains(&v) => Ok(v),
        (true, Some(v), None) => Err(parse_err(
            file,
            n,
            key.len() + 2,
            format!("{key} {v} is outside 1..={MAX_MAP_SIDE}"),
        )),
        _ => Err(parse_err(
            file,
            n,
            1,
            format!("expected `{key} N`, found `{}`", excerpt(l)),
        )),
    }
}

/// One problem of a `.scen` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// `floor(optimal_length / 4)` as the file gives it.
    pub bucket: u32,
    /// The map name recorded in the file (not used to find the map).
    pub map: String,
    /// Map width the problem was made for.
    pub map_width: usize,
    /// Map height the problem was made for.
    pub map_height: usize,
    /// Start cell (x = column, y = row).
    pub start: IVec2,
    /// Goal cell.
    pub goal: IVec2,
    /// Octile length of a shortest 8-connected path without corner cutting.
    pub optimal_length: f64,
}

impl Scenario {
    /// Centre of the start cell.
    pub fn start_point(&self) -> DVec2 {
        GridMap::cell_center(self.start)
    }

    /// Centre of the goal cell.
    pub fn goal_point(&self) -> DVec2 {
        GridMap::cell_center(self.goal)
    }
}

/// Parses the text of a `.scen` file (`version 1` or `version 1.0` on the first line, then
/// one scenario per line, fields separated by any whitespace; blank lines are ignored).
/// A file without a scenario line is [`Error::Parse`]: an empty benchmark would otherwise
/// pass every check.
///
/// ```
/// let text = "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t2\t3\t2\t2\n";
/// let scen = pathsmooth::grid::parse_scenarios(text, "a.scen")?;
/// assert_eq!(scen[0].start, glam::IVec2::new(1, 2));
/// assert_eq!(scen[0].optimal_length, 2.0);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// ```
/// let err = pathsmooth::grid::parse_scenarios("version 1\n\n", "empty.scen").unwrap_err();
/// assert_eq!(err.to_string(), "empty.scen:2:0: the file has no scenario lines");
/// ```
pub fn parse_scenarios(text: &str, file: &str) -> Result<Vec<Scenario>> {
    scenario_file(text, file, parse_scenario_line)
}

/// A scenario between two points rather than two cells: polyanya's scenarios for navmeshes
/// (`.scen` with the Moving AI layout and real-valued ends, in the mesh's units).
#[derive(Debug, Clone, PartialEq)]
pub struct PointScenario {
    /// The map or mesh name recorded in the file (not used to find it).
    pub map: String,
    /// The start point.
    pub start: DVec2,
    /// The goal point.
    pub goal: DVec2,
    /// The length the file gives (polyanya's: the shortest path's; −1 for none; for a
    /// Moving AI grid scenario read this way, the octile length between cells).
    pub optimal_length: f64,
}

/// Parses a `.scen` file whose ends are points (polyanya's mesh scenarios: `version 1`, then
/// `bucket map width height sx sy gx gy length`, the coordinates any finite numbers, the
/// length −1 when the file says there is no path). A Moving AI file reads as well, its
/// cells' coordinates taken as points.
///
/// Errors: as [`parse_scenarios`] (file, line, column), for a field that is not a finite
/// number.
///
/// ```
/// use pathsmooth::grid::parse_point_scenarios;
/// let s = parse_point_scenarios("version 1\n0\tmeshes/a.mesh\t3\t3\t0.99\t1.01\t1.0\t-73.0625\t-1\n", "a.scen")?;
/// assert_eq!((s[0].start.x, s[0].goal.y, s[0].optimal_length), (0.99, -73.0625, -1.0));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn parse_point_scenarios(text: &str, file: &str) -> Result<Vec<PointScenario>> {
    scenario_file(text, file, |line, file, line_no| {
        let fields = scenario_fields(line, file, line_no)?;
        let number = |k: usize, name: &str| -> Result<f64> {
            let (col, f) = fields[k];
            f.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    parse_err(
                        file,
                        line_no,
                        col,
                        format!("{name} `{}` is not a finite number", excerpt(f)),
                    )
                })
        };
        Ok(PointScenario {
            map: fields[1].1.to_string(),
            start: DVec2::new(number(4, "start_x")?, number(5, "start_y")?),
            goal: DVec2::new(number(6, "goal_x")?, number(7, "goal_y")?),
            optimal_length: number(8, "optimal_length")?,
        })
    })
}

/// Reads a `.scen` file's `version 1` line, then each non-blank line with `line`.
fn scenario_file<T>(
    text: &str,
    file: &str,
    line_parser: impl Fn(&str, &str, usize) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    let mut lines = 0;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        lines = line_no;
        if line.trim().is_empty() && line_no > 1 {
            continue;
        }
        if line_no == 1 {
            let mut w = line.split_whitespace();
            match (w.next(), w.next(), w.next()) {
                (Some("version"), Some("1" | "1.0"), None) => continue,
                _ => {
                    return Err(parse_err(
                        file,
                        1,
                        1,
                        format!("expected `version 1`, found `{}`", excerpt(line)),
                    ))
                }
            }
        }
        out.push(line_parser(line, file, line_no)?);
    }
    if out.is_empty() {
        // Name the last line (the final newline's empty tail is not a line).
        let last = if text.ends_with('\n') {
            lines - 1
        } else {
            lines
        };
        return Err(parse_err(
            file,
            last.max(1),
            0,
            "the file has no scenario lines".into(),
        ));
    }
    Ok(out)
}

/// Splits a scenario line into its 9 whitespace-separated fields, each with its 1-based
/// column, so both scenario parsers report a bad field at the same place and a wrong field
/// count with the same message.
fn scenario_fields<'a>(line: &'a str, file: &str, line_no: usize) -> Result<[(usize, &'a str); 9]> {
    let fields: Vec<(usize, &str)> = line
        .split_whitespace()
        .map(|f| (f.as_ptr() as usize - line.as_ptr() as usize + 1, f))
        .collect();
    let found = fields.len();
    fields.try_into().map_err(|_| {
        parse_err(
            file,
            line_no,
            1,
            format!(
                "expected 9 fields (bucket map width height sx sy gx gy length), found {found}"
            ),
        )
    })
}

fn parse_scenario_line(line: &str, file: &str, line_no: usize) -> Result<Scenario> {
    const NAMES: [&str; 9] = [
        "bucket",
        "map",
        "map_width",
        "map_height",
        "start_x",
        "start_y",
        "goal_x",
        "goal_y",
        "optimal_length",
    ];
    let fields = scenario_fields(line, file, line_no)?;
    let int = |k: usize| -> Result<i64> {
        let (col, f) = fields[k];
        f.parse::<i64>()
            .ok()
            .filter(|v| (0..=i32::MAX as i64).contains(v))
            .ok_or_else(|| {
                parse_err(
                    file,
                    line_no,
                    col,
                    format!(
                        "{} `{}` is not a non-negative integer",
                        NAMES[k],
                        excerpt(f)
                    ),
                )
            })
    };
    let (len_col, len_text) = fields[8];
    let optimal_length = len_text
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| {
            parse_err(
                file,
                line_no,
                len_col,
                format!(
                    "optimal_length `{}` is not a non-negative number",
                    excerpt(len_text)
                ),
            )
        })?;
    Ok(Scenario {
        bucket: int(0)? as u32,
        map: fields[1].1.to_string(),
        map_width: int(2)? as usize,
        map_height: int(3)? as usize,
        start: IVec2::new(int(4)? as i32, int(5)? as i32),
        goal: IVec2::new(int(6)? as i32, int(7)? as i32),
        optimal_length,
    })
}

/// Reads and parses a `.scen` file.
pub fn load_scenarios(path: impl AsRef<Path>) -> Result<Vec<Scenario>> {
    let path = path.as_ref();
    let text = read_text(path)?;
    parse_scenarios(&text, &path.display().to_string())
}

/// Checks that a scenario fits a map: same size, start and goal inside and passable.
pub fn check_scenario(map: &GridMap, s: &Scenario) -> Result<()> {
    if (s.map_width, s.map_height) != (map.width(), map.height()) {
        return Err(Error::param(
            "scenario map size",
            s.map_width as f64,
            "the scenario was made for a map of another size",
        ));
    }
    map.check_free_point(s.start_point(), "start")?;
    map.check_free_point(s.goal_point(), "goal")?;
    Ok(())
}

/// Reads a whole text file, mapping I/O failures to [`Error::Io`].
pub(crate) fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

fn parse_err(file: &str, line: usize, column: usize, message: String) -> Error {
    Error::parse(file, line, column, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_crlf_without_final_newline() {
        let m = GridMap::parse("type octile\r\nheight 1\r\nwidth 2\r\nmap\r\n.@", "x").unwrap();
        assert!(m.is_passable(0, 0) && m.is_blocked(1, 0));
    }

    #[test]
    fn short_row_names_line() {
        let e =
            GridMap::parse("type octile\nheight 2\nwidth 3\nmap\n...\n..\n", "f.map").unwrap_err();
        match e {
            Error::Parse { file, line, .. } => assert_eq!((file.as_str(), line), ("f.map", 6)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn header_errors() {
        assert!(GridMap::parse("type octile\nwidth 2\nheight 2\nmap\n..\n..\n", "f").is_err());
        assert!(GridMap::parse("", "f").is_err());
        assert!(GridMap::parse("type octile\nheight 99999999\nwidth 2\nmap\n", "f").is_err());
        assert!(GridMap::parse("type octile\nheight 1\nwidth 1\nmap\n.\nextra\n", "f").is_err());
    }

    #[test]
    fn unknown_characters_are_blocked() {
        let m = GridMap::from_rows(&[".?W", "GST"]).unwrap();
        assert_eq!(m.passable_count(), 3);
    }

    #[test]
    fn scenario_errors_name_column() {
        let e = parse_scenarios("version 1\n0 m 4 4 1 x 2 2 1\n", "s").unwrap_err();
        assert_eq!(
            e,
            Error::Parse {
                file: "s".into(),
                line: 2,
                column: 11,
                message: "start_y `x` is not a non-negative integer".into()
            }
        );
        assert!(parse_scenarios("version 2\n", "s").is_err());
        assert!(parse_scenarios("version 1.0\n0 m 4 4 1 1 2\n", "s").is_err());
    }

    #[test]
    fn only_octile_maps_are_accepted() {
        let hex = "type hex\nheight 1\nwidth 2\nmap\n..\n";
        assert_eq!(
            GridMap::parse(hex, "h.map"),
            Err(Error::Parse {
                file: "h.map".into(),
                line: 1,
                column: 6,
                message: "unsupported map type `hex`: only `type octile` is supported".into()
            })
        );
        for bad in ["type", "type octile extra", "kind octile", "octile"] {
            let text = format!("{bad}\nheight 1\nwidth 2\nmap\n..\n");
            assert!(
                matches!(
                    GridMap::parse(&text, "f"),
                    Err(Error::Parse { line: 1, .. })
                ),
                "{bad}"
            );
        }
        assert!(GridMap::parse("type  octile \nheight 1\nwidth 2\nmap\n..\n", "f").is_ok());
    }

    #[test]
    fn scenario_files_without_scenarios_are_errors() {
        for (text, line) in [
            ("", 1),
            ("version 1", 1),
            ("version 1\n", 1),
            ("version 1\n\n  \n", 3),
            ("version 1\r\n", 1),
        ] {
            assert_eq!(
                parse_scenarios(text, "e.scen"),
                Err(Error::Parse {
                    file: "e.scen".into(),
                    line,
                    column: if text.is_empty() { 1 } else { 0 },
                    message: if text.is_empty() {
                        "expected `version 1`, found ``".into()
                    } else {
                        "the file has no scenario lines".into()
                    }
                }),
                "{text:?}"
            );
        }
        // The version line must come first, not after a blank line.
        assert!(matches!(
            parse_scenarios("\nversion 1\n0 m 4 4 1 1 2 2 1\n", "s"),
            Err(Error::Parse { line: 1, .. })
        ));
    }
}
