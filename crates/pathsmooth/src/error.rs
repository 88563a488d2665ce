//! The library's one error type.
//!
//! Every function that takes user data returns [`Result`]; nothing panics on user input.
//! Each kind of bad input has its own variant so callers can match on it and the message
//! can say exactly what was wrong and where.
//!
//! Messages stay short whatever the input: numbers are printed by [`num`] (shortest
//! round-trip digits in the caller's precision, scientific beyond ordinary magnitudes,
//! never `-0`), and text quoted
//! from a file by [`excerpt`] (at most [`EXCERPT_CHARS`] characters).

use std::fmt::{self, Display};

use thiserror::Error;

/// How a number appears in an error message: the shortest digits that read back to the
/// same `f64` (`{}`) for magnitudes in [10⁻⁵, 10¹⁶), scientific (`{:e}`, also shortest)
/// beyond them, so `1e308` is not 309 digits and `1e-300` not 300 zeros; zero as `0`
/// (never `-0`); NaN and infinities as `NaN`, `inf`, `-inf`. In the caller's precision: a
/// value that is exactly an `f32` (what an `f32` caller's numbers become) prints the
/// shortest digits that read back to that `f32`, so `-2.4f32` is `-2.4`, not
/// `-2.4000000953674316`.
///
/// Public for shells that write messages of their own about the caller's numbers (the
/// playground's server), so that they read as the library's.
///
/// ```
/// use pathsmooth::num;
/// assert_eq!(num(1e300).to_string(), "1e300");
/// assert_eq!(num(-0.0).to_string(), "0");
/// assert_eq!(num(2.5).to_string(), "2.5");
/// ```
pub fn num(x: f64) -> impl Display {
    struct Num(f64);
    impl Display for Num {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let x = self.0;
            // A value that is exactly an `f32` most likely came from an `f32` caller: its
            // shortest `f32` form reads back to it (`-2.4`, not `-2.4000000953674316`).
            let narrow = x as f32;
            if x == 0.0 {
                f.write_str("0")
            } else if !x.is_finite() || (1e-5..1e16).contains(&x.abs()) {
                if f64::from(narrow) == x {
                    write!(f, "{narrow}")
                } else {
                    write!(f, "{x}")
                }
            } else if f64::from(narrow) == x {
                write!(f, "{narrow:e}")
            } else {
                write!(f, "{x:e}")
            }
        }
    }
    Num(x)
}

/// The most characters of the input an error message quotes.
pub(crate) const EXCERPT_CHARS: usize = 80;

/// At most [`EXCERPT_CHARS`] characters of `text`, ending in `…` when cut: how an error
/// quotes the input it refuses (an 8 MiB line of junk gives a short message).
pub(crate) fn excerpt(text: &str) -> impl Display + '_ {
    struct Excerpt<'a>(&'a str);
    impl Display for Excerpt<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self.0.char_indices().nth(EXCERPT_CHARS) {
                None => f.write_str(self.0),
                Some((cut, _)) => write!(f, "{}…", &self.0[..cut]),
            }
        }
    }
    Excerpt(text)
}

/// The subject of [`Error::CoordinateOutOfRange`]: point `index`, or the world itself.
fn subject(index: &Option<usize>) -> String {
    match index {
        Some(i) => format!("point {i}"),
        None => "the world".into(),
    }
}

/// `Result` with the library's [`Error`](enum@Error).
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in pathsmooth.
///
/// ```
/// use pathsmooth::Error;
/// let e = Error::NonFinite { index: 3 };
/// assert_eq!(e.to_string(), "point 3 has a NaN or infinite coordinate");
/// ```
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    // ---- paths and parameters -------------------------------------------------------
    /// A coordinate is NaN or infinite.
    #[error("point {index} has a NaN or infinite coordinate")]
    NonFinite {
        /// Index of the offending point in the input.
        index: usize,
    },
    /// A coordinate beyond the largest magnitude accepted: beyond it lengths, squared
    /// distances or a navmesh's exact predicates would overflow. The limit is
    /// [`max_coordinate`](crate::geometry::max_coordinate) of the scalar type for the
    /// wall-blind smoothers and the speed profile, and
    /// [`max_map_coordinate`](crate::geometry::max_map_coordinate) (≈ 3.2·10⁶⁰ in `f64`)
    /// for worlds and everything map-aware; every function refuses such a point (or world)
    /// up front with this one error (the navmesh file readers name the line instead, as
    /// [`Error::Parse`]).
    ///
    /// ```
    /// use pathsmooth::Error;
    /// let e = Error::CoordinateOutOfRange { index: Some(2), value: 1e300, limit: 3.2e60 };
    /// assert_eq!(
    ///     e.to_string(),
    ///     "point 2 has coordinate 1e300, out of range: beyond ±3.2e60, the largest magnitude \
    ///      accepted (past it lengths, squared distances or exact predicates overflow)"
    /// );
    /// ```
    #[error(
        "{} has coordinate {}, out of range: beyond ±{}, the largest magnitude accepted (past it \
         lengths, squared distances or exact predicates overflow)",
        subject(.index), num(*.value), num(*.limit)
    )]
    CoordinateOutOfRange {
        /// The first point (in the input) with such a coordinate, or `None` for a world
        /// whose extent reaches beyond the limit (a grid's far corner).
        index: Option<usize>,
        /// The coordinate.
        value: f64,
        /// The limit it exceeds.
        limit: f64,
    },
    /// The path has no points.
    #[error("the path is empty")]
    EmptyPath,
    /// The path has fewer points than the method needs.
    #[error("{method} needs at least {needed} points, the path has {got}")]
    TooFewPoints {
        /// The method that refused the path.
        method: &'static str,
        /// How many points it needs.
        needed: usize,
        /// How many the path has.
        got: usize,
    },
    /// A parameter is outside its allowed range (or NaN).
    #[error("parameter `{name}` = {} is out of range: {expected}", num(*.value))]
    BadParameter {
        /// The parameter's name as the API spells it.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The allowed range, in words.
        expected: &'static str,
    },
    /// An angle or angular-rate parameter above its largest value in radians: most likely
    /// degrees passed by mistake. The message names the unit and the conversion
    /// (`180` → "did you mean 180° = 3.1416 rad?"). Values below the range (or NaN) are
    /// [`Error::BadParameter`].
    ///
    /// ```
    /// use pathsmooth::follow::Agent;
    /// let a = Agent { max_turn_rate: 180.0, ..Agent::default() };
    /// let e = a.validate().unwrap_err().to_string();
    /// assert!(e.contains("180 rad/s") && e.contains("did you mean 180°/s = 3.1416 rad/s?"), "{e}");
    /// ```
    #[error(
        "parameter `{name}` = {} {unit} is out of range: {expected}; angles are in \
         radians (did you mean {}{} = {:.4} {unit}?)",
        num(*.value),
        num(*.value),
        unit.replacen("rad", "°", 1),
        value.to_radians()
    )]
    BadAngle {
        /// The parameter's name as the API spells it.
        name: &'static str,
        /// The value given.
        value: f64,
        /// Its unit: `rad` or `rad/s`.
        unit: &'static str,
        /// The allowed range, in words.
        expected: &'static str,
    },
    /// The requested output would be larger than the documented cap (or overflow).
    #[error("the output would have {requested} points, more than the cap of {cap}")]
    OutputTooLarge {
        /// Points the request would produce (saturated at `u128::MAX`).
        requested: u128,
        /// The cap.
        cap: usize,
    },
    /// A caller-provided buffer is too small.
    #[error("the buffer holds {capacity} points but {needed} are needed")]
    BufferTooSmall {
        /// Points needed.
        needed: usize,
        /// Points the buffer can hold.
        capacity: usize,
    },
    /// Points of mixed dimension (2D and 3D) in one path.
    #[error("line {line}: point has {got} coordinates but the path is {expected}D")]
    MixedDimensions {
        /// 1-based line (CSV) or point index + 1 (JSON).
        line: usize,
        /// Coordinates found.
        got: usize,
        /// Dimension of the earlier points.
        expected: usize,
    },

    /// The work was stopped through a [`Cancel`](crate::Cancel) token: its deadline passed
    /// or its caller cancelled it (nobody waits for the result any more). Nothing is wrong
    /// with the input; the same call without the token would have run to its end.
    #[error("the work was cancelled: its deadline passed or its caller stopped waiting")]
    Cancelled,

    // ---- files ------------------------------------------------------------------------
    /// A file does not parse.
    #[error("{file}:{line}:{column}: {message}")]
    Parse {
        /// File name (or `<stdin>`, `<string>`).
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (0 when unknown).
        column: usize,
        /// What was expected and what was found.
        message: String,
    },
    /// A file cannot be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The path as given.
        path: String,
        /// The operating system's message.
        message: String,
    },

    // ---- maps and planning ------------------------------------------------------------
    /// A point or cell lies outside the map.
    #[error("{what} ({}, {}) is outside the {width}×{height} map", num(*.x), num(*.y))]
    OutsideMap {
        /// `"start"`, `"goal"`, …
        what: &'static str,
        /// x (column) coordinate.
        x: f64,
        /// y (row) coordinate.
        y: f64,
        /// Map width in cells.
        width: usize,
        /// Map height in cells.
        height: usize,
    },
    /// A start or goal lies on a blocked cell (or too close to one for the agent radius).
    #[error("{what} ({}, {}) is inside a wall", num(*.x), num(*.y))]
    Blocked {
        /// `"start"`, `"goal"`, …
        what: &'static str,
        /// x coordinate.
        x: f64,
        /// y coordinate.
        y: f64,
    },
    /// No path joins start and goal.
    #[error(
        "the goal ({}, {}) cannot be reached from the start ({}, {})",
        num(*.gx), num(*.gy), num(*.sx), num(*.sy)
    )]
    Unreachable {
        /// Start x.
        sx: f64,
        /// Start y.
        sy: f64,
        /// Goal x.
        gx: f64,
        /// Goal y.
        gy: f64,
    },
    /// No walk over a navmesh surface, and no off-mesh link, joins start and goal (3D
    /// points, world axes, as located on the surface): they lie on different connected
    /// pieces of it (or, on one piece, the area costs or one-way links leave no route).
    #[error(
        "the goal ({}, {}, {}) on piece {goal_piece} (polygon {goal_polygon}) cannot be reached from the start ({}, {}, {}) on piece {start_piece} (polygon {start_polygon}): {}",
        num(.goal[0]), num(.goal[1]), num(.goal[2]), num(.start[0]), num(.start[1]), num(.start[2]),
        if start_piece == goal_piece { "the area costs or one-way links leave no route" } else { "no walk on the surface and no off-mesh link joins the two pieces" }
    )]
    UnreachableOnSurface {
        /// The start, world axes.
        start: [f64; 3],
        /// The goal, world axes.
        goal: [f64; 3],
        /// The start's connected piece of the surface (`Surface::pieces`).
        start_piece: u32,
        /// The goal's connected piece.
        goal_piece: u32,
        /// The start's polygon.
        start_polygon: u32,
        /// The goal's polygon.
        goal_polygon: u32,
    },
    /// Start and goal are joined, but not with room for the agent: the route with the most
    /// room is narrowest at (x, y), where its clearance is below the radius (world units;
    /// on a grid, the routes through cell centres that the planner takes).
    #[error(
        "the goal ({}, {}) cannot be reached from the start ({}, {}) with radius {}: the route with the most room is narrowest at ({}, {}), with clearance {}",
        num(*.gx), num(*.gy), num(*.sx), num(*.sy), num(*.radius), num(*.x), num(*.y), num(*.clearance)
    )]
    TooNarrow {
        /// Start x.
        sx: f64,
        /// Start y.
        sy: f64,
        /// Goal x.
        gx: f64,
        /// Goal y.
        gy: f64,
        /// Where the widest route is narrowest: x.
        x: f64,
        /// Where the widest route is narrowest: y.
        y: f64,
        /// The clearance there.
        clearance: f64,
        /// The agent radius asked for.
        radius: f64,
    },
    /// An input path is not valid on its map (it must be for map-aware smoothing).
    #[error("the input path is not valid on the map: {reason}")]
    InvalidInputPath {
        /// What the validator found.
        reason: String,
    },

    /// A start or goal (or its cell's centre) is closer to a wall than the agent radius.
    #[error(
        "{what} ({}, {}) has clearance {}, less than the agent radius {}",
        num(*.x), num(*.y), num(*.clearance), num(*.radius)
    )]
    TooClose {
        /// `"start"`, `"goal"`, …
        what: &'static str,
        /// x coordinate (world units).
        x: f64,
        /// y coordinate (world units).
        y: f64,
        /// The clearance found there.
        clearance: f64,
        /// The agent radius asked for.
        radius: f64,
    },
    /// A point of a path lies outside the world's bounds: most often a path in other units
    /// (cells instead of metres) or another world's path.
    #[error(
        "point {index} ({}, {}) is outside the world [{}, {}]×[{}, {}]; is the path in the world's units?",
        num(*.x), num(*.y), num(min[0]), num(max[0]), num(min[1]), num(max[1])
    )]
    OutsideWorld {
        /// Index of the first such point.
        index: usize,
        /// Its x coordinate.
        x: f64,
        /// Its y coordinate.
        y: f64,
        /// The world's lower corner.
        min: [f64; 2],
        /// The world's upper corner.
        max: [f64; 2],
    },
    /// The world has no free space at all (a grid with no passable cell).
    #[error("the world has no free space")]
    NoFreeSpace,
    /// The agent radius is larger than any free space of the world.
    #[error(
        "no room for an agent of radius {}: the largest clearance in the world is {}",
        num(*.radius), num(*.max_clearance)
    )]
    NoRoom {
        /// The agent radius asked for.
        radius: f64,
        /// The largest clearance the world has.
        max_clearance: f64,
    },
    /// A step or query needs something this world does not have.
    #[error("{what} needs {needs}")]
    Unsupported {
        /// What was asked for.
        what: &'static str,
        /// What it needs.
        needs: &'static str,
    },
    /// A pipeline's result failed the final validation (a defect: please report it).
    #[error("the {step} step produced a path that is not valid: {reason}")]
    InvalidResult {
        /// The step whose output failed.
        step: &'static str,
        /// What the validator found.
        reason: String,
    },

    // ---- navmeshes --------------------------------------------------------------------
    /// A polygon of a scene is unusable (self-intersecting, unclosed, outside the boundary…).
    #[error("invalid polygon: {message}")]
    InvalidPolygon {
        /// What is wrong and where.
        message: String,
    },
    /// A point is not inside any navmesh triangle.
    #[error("{what} ({}, {}) is outside the navmesh", num(*.x), num(*.y))]
    OutsideMesh {
        /// `"start"`, `"goal"`, …
        what: &'static str,
        /// x coordinate.
        x: f64,
        /// y coordinate.
        y: f64,
    },
    /// No floor of a navmesh [`Surface`](crate::navmesh::Surface) lies within the vertical
    /// tolerance of a 3D point: the point is between floors, above or below the mesh, or
    /// outside it in plan view ([`Surface::locate`](crate::navmesh::Surface::locate)).
    ///
    /// ```
    /// use pathsmooth::Error;
    /// let e = Error::NoFloor { x: 1.0, y: 1.5, z: 2.0, tolerance: 0.5 };
    /// assert_eq!(e.to_string(), "no floor within 0.5 of (1, 1.5, 2)");
    /// ```
    #[error("no floor within {} of ({}, {}, {})", num(*.tolerance), num(*.x), num(*.y), num(*.z))]
    NoFloor {
        /// x coordinate (world axes, as given).
        x: f64,
        /// y coordinate.
        y: f64,
        /// z coordinate.
        z: f64,
        /// The vertical tolerance asked for.
        tolerance: f64,
    },
    /// A 2D point given to a layered navmesh ([`SurfaceWorld`](crate::SurfaceWorld)) lies
    /// over several floors in plan view (under a bridge, on a storey of a building), so
    /// its floor cannot be told: give the point in 3D
    /// ([`Pipeline::plan_surface`](crate::Pipeline::plan_surface)). Never a silent pick.
    ///
    /// ```
    /// use pathsmooth::Error;
    /// let e = Error::OverSeveralFloors { what: "start", x: 1.0, y: 2.0, floors: 2 };
    /// assert_eq!(
    ///     e.to_string(),
    ///     "start (1, 2) lies over 2 floors: give it in 3D (plan_surface) to say which"
    /// );
    /// ```
    #[error("{what} ({}, {}) lies over {floors} floors: give it in 3D (plan_surface) to say which", num(*.x), num(*.y))]
    OverSeveralFloors {
        /// `"start"` or `"goal"`, or `"point"` ([`SurfaceWorld::floor_point`](crate::SurfaceWorld::floor_point)).
        what: &'static str,
        /// Plan-view x coordinate.
        x: f64,
        /// Plan-view y coordinate.
        y: f64,
        /// How many floors lie under it (more than the climb apart).
        floors: usize,
    },
    /// An off-mesh link of a navmesh [`Surface`](crate::navmesh::Surface) is unusable: a
    /// coordinate, radius or cost out of range, or an end with no floor within the link's
    /// radius ([`Surface::with_links`](crate::navmesh::Surface::with_links)).
    ///
    /// ```
    /// use pathsmooth::Error;
    /// let e = Error::InvalidLink { index: 3, message: "its end (1, 2, 3) has no floor within 0.5".into() };
    /// assert_eq!(e.to_string(), "link 3: its end (1, 2, 3) has no floor within 0.5");
    /// ```
    #[error("link {index}: {message}")]
    InvalidLink {
        /// The link's index in the input (0-based).
        index: usize,
        /// What is wrong, naming the end where it is about one.
        message: String,
    },
    // ---- temporary obstacles ------------------------------------------------------------
    /// A temporary obstacle is malformed (NaN or infinite coordinates, zero size, a polygon
    /// not convex, a cell outside the map), or an obstacle id the world does not have.
    ///
    /// ```
    /// use pathsmooth::Error;
    /// let e = Error::BadObstacle { reason: "no obstacle 3 (never added, or removed already)".into() };
    /// assert_eq!(e.to_string(), "obstacle: no obstacle 3 (never added, or removed already)");
    /// ```
    #[error("obstacle: {reason}")]
    BadObstacle {
        /// What is wrong.
        reason: String,
    },
    // ---- areas and their costs --------------------------------------------------------
    /// An area-cost filter or specification is malformed: a cost that is not a positive
    /// number in range, an area that is not a terrain letter or id, or (from a shell) an
    /// area the map does not have.
    ///
    /// ```
    /// use pathsmooth::Error;
    /// let e = Error::BadAreaCost { area: "S".into(), reason: "cost 0 is not positive".into() };
    /// assert_eq!(e.to_string(), "area cost for S: cost 0 is not positive");
    /// ```
    #[error("area cost for {area}: {reason}")]
    BadAreaCost {
        /// The area (its letter or id), or the entry of a specification.
        area: String,
        /// What is wrong.
        reason: String,
    },
    /// A start or goal lies in an area the filter excludes.
    #[error("{what} ({}, {}) is in area {area}, which the area costs exclude", num(*.x), num(*.y))]
    ExcludedArea {
        /// `"start"` or `"goal"`.
        what: &'static str,
        /// The area (its letter or id).
        area: String,
        /// x coordinate.
        x: f64,
        /// y coordinate.
        y: f64,
    },
    /// A navmesh channel is too narrow for the agent radius somewhere.
    #[error(
        "portal {index} at ({}, {}) is {} wide, too narrow for an agent of radius {}",
        num(*.x), num(*.y), num(*.width), num(*.radius)
    )]
    ChannelTooNarrow {
        /// Index of the portal.
        index: usize,
        /// Midpoint x of the portal.
        x: f64,
        /// Midpoint y of the portal.
        y: f64,
        /// The portal's width.
        width: f64,
        /// The agent radius asked for.
        radius: f64,
    },
    /// A navmesh channel (sequence of polygons) is not connected.
    #[error("polygons {a} and {b} of the channel share no edge")]
    BrokenChannel {
        /// Index of the first polygon in the channel.
        a: usize,
        /// Index of the second.
        b: usize,
    },

    /// A portal's `left` and `right` ends are swapped: `left` must be on the left of the
    /// direction of travel.
    #[error("portal {index} has its left and right ends swapped (left must be on the left of the direction of travel)")]
    SwappedPortal {
        /// Index of the portal.
        index: usize,
    },

    // ---- disk corridors ---------------------------------------------------------------
    /// Two consecutive disks of a corridor do not overlap.
    #[error("disks {a} and {b} do not overlap: the corridor has a gap")]
    CorridorGap {
        /// Index of the first disk.
        a: usize,
        /// Index of the second disk.
        b: usize,
    },
    /// A disk radius is negative or not finite.
    #[error("disk {index} has radius {}, which is not a non-negative number", num(*.radius))]
    BadRadius {
        /// Index of the disk.
        index: usize,
        /// The radius given.
        radius: f64,
    },
    /// A facing direction has zero length.
    #[error("the {which} direction has zero length")]
    ZeroDirection {
        /// `"start"` or `"goal"`.
        which: &'static str,
    },

    // ---- fillets ----------------------------------------------------------------------
    /// Strict fillet smoothing: a corner cannot take the minimum turning radius.
    #[error(
        "corner {index} at ({}, {}) takes radius {} < the turning radius {}: {reason}",
        num(*.x), num(*.y), num(*.radius), num(*.turn_radius)
    )]
    CornerBelowTurnRadius {
        /// Index of the corner in the input path.
        index: usize,
        /// x coordinate of the corner.
        x: f64,
        /// y coordinate of the corner.
        y: f64,
        /// The largest radius found (0: none).
        radius: f64,
        /// The minimum turning radius asked for.
        turn_radius: f64,
        /// Why: legs too short, walls, a U-turn.
        reason: &'static str,
    },
}

impl Error {
    /// [`Error::Parse`] with a message of bounded size: one longer than three excerpts
    /// keeps its first and last [`EXCERPT_CHARS`] characters around an ellipsis (a
    /// message that quotes a whole line of junk, or serde's quoting a whole string, still
    /// says what was expected and where).
    pub(crate) fn parse(file: &str, line: usize, column: usize, message: impl Display) -> Self {
        let message = message.to_string();
        let chars = message.chars().count();
        let message = if chars <= 3 * EXCERPT_CHARS {
            message
        } else {
            let head: String = message.chars().take(EXCERPT_CHARS).collect();
            let tail: String = message.chars().skip(chars - EXCERPT_CHARS).collect();
            format!("{head} … {tail}")
        };
        Error::Parse {
            file: file.to_string(),
            line,
            column,
            message,
        }
    }

    /// Shorthand for [`Error::BadParameter`].
    pub(crate) fn param(name: &'static str, value: f64, expected: &'static str) -> Self {
        Error::BadParameter {
            name,
            value,
            expected,
        }
    }

    /// `Ok(value)` when the angle (or angular rate, per `unit`) `value` lies in `(0, max]`;
    /// [`Error::BadAngle`] above `max` (degrees by mistake, most likely), else
    /// [`Error::BadParameter`].
    pub(crate) fn check_angle(
        name: &'static str,
        value: f64,
        max: f64,
        unit: &'static str,
        expected: &'static str,
    ) -> Result<f64> {
        if value > max {
            Err(Error::BadAngle {
                name,
                value,
                unit,
                expected,
            })
        } else if value > 0.0 {
            Ok(value)
        } else {
            Err(Error::param(name, value, expected))
        }
    }

    /// `Ok(value)` when `value` is positive and finite (NaN is not), else
    /// [`Error::BadParameter`] with `name` and `expected`.
    pub(crate) fn check_positive(
        name: &'static str,
        value: f64,
        expected: &'static str,
    ) -> Result<f64> {
        if value > 0.0 && value.is_finite() {
            Ok(value)
        } else {
            Err(Error::param(name, value, expected))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_read_back() {
        let shown = |x: f64| num(x).to_string();
        assert_eq!(shown(1e308), "1e308");
        assert_eq!(shown(-1e-300), "-1e-300");
        assert_eq!(shown(f64::MAX), "1.7976931348623157e308");
        assert_eq!(shown(-0.0), "0");
        assert_eq!(shown(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(shown(12345.5), "12345.5");
        assert_eq!(shown(1e16), "1e16");
        assert_eq!(shown(123e-7), "0.0000123");
        assert_eq!(shown(123e-8), "1.23e-6");
        assert_eq!(shown(f64::NEG_INFINITY), "-inf");
        assert_eq!(shown(f64::NAN), "NaN");
        for x in [1e308, 3.2e-200, 0.1, 7.0, 1e15 + 0.5, 4.9e-324] {
            assert_eq!(shown(x).parse::<f64>(), Ok(x));
        }
    }

    #[test]
    fn an_f32_callers_numbers_print_in_f32() {
        let shown = |x: f32| num(f64::from(x)).to_string();
        assert_eq!(shown(-2.4), "-2.4");
        assert_eq!(shown(0.3), "0.3");
        assert_eq!(shown(1e-7), "1e-7");
        assert_eq!(shown(3.4e38), "3.4e38");
        for x in [0.1f32, 123.456, 1e-30, 65504.0, f32::MAX, f32::MIN_POSITIVE] {
            assert_eq!(shown(x).parse::<f32>(), Ok(x));
        }
        // The same message from an f32 caller and an f64 caller, each in its precision.
        let e = |x: f64, y: f64| {
            Error::Blocked {
                what: "start",
                x,
                y,
            }
            .to_string()
        };
        assert_eq!(
            e(f64::from(-2.4f32), f64::from(7.1f32)),
            "start (-2.4, 7.1) is inside a wall"
        );
        assert_eq!(e(-2.4, 7.1), "start (-2.4, 7.1) is inside a wall");
    }

    #[test]
    fn excerpts_and_parse_messages_are_bounded() {
        let junk = "é".repeat(1 << 20);
        let e = excerpt(&junk).to_string();
        assert_eq!(e.chars().count(), EXCERPT_CHARS + 1);
        assert!(e.ends_with("é…"));
        assert_eq!(excerpt("short").to_string(), "short");
        let long = format!("invalid type: string \"{junk}\", expected f64 at line 1 column 9");
        let Error::Parse { message, .. } = Error::parse("f", 1, 9, &long) else {
            unreachable!()
        };
        assert!(
            message.chars().count() <= 2 * EXCERPT_CHARS + 3,
            "{message}"
        );
        assert!(
            message.starts_with("invalid type: string \"éé"),
            "{message}"
        );
        assert!(
            message.ends_with("expected f64 at line 1 column 9"),
            "{message}"
        );
        let Error::Parse { message, .. } = Error::parse("f", 1, 9, "expected `map`") else {
            unreachable!()
        };
        assert_eq!(message, "expected `map`");
    }

    #[test]
    fn messages_print_numbers_in_short_form() {
        let e = Error::param("radius", 1e308, "a finite number ≥ 0");
        assert_eq!(
            e.to_string(),
            "parameter `radius` = 1e308 is out of range: a finite number ≥ 0"
        );
        let e = Error::TooClose {
            what: "goal",
            x: -0.0,
            y: 1e-300,
            clearance: 0.0,
            radius: 0.25,
        };
        assert_eq!(
            e.to_string(),
            "goal (0, 1e-300) has clearance 0, less than the agent radius 0.25"
        );
    }
}
