//! The library's one error type.
//!
//! Every function that takes user data returns [`Result`]; nothing panics on user input.
//! Each kind of bad input has its own variant so callers can match on it and the message
//! can say exactly what was wrong and where.

use thiserror::Error;

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
    #[error("parameter `{name}` = {value} is out of range: {expected}")]
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
        "parameter `{name}` = {value} {unit} is out of range: {expected}; angles are in \
         radians (did you mean {value}{} = {:.4} {unit}?)",
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
    #[error("{what} ({x}, {y}) is outside the {width}×{height} map")]
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
    #[error("{what} ({x}, {y}) is inside a wall")]
    Blocked {
        /// `"start"`, `"goal"`, …
        what: &'static str,
        /// x coordinate.
        x: f64,
        /// y coordinate.
        y: f64,
    },
    /// No path joins start and goal.
    #[error("the goal ({gx}, {gy}) cannot be reached from the start ({sx}, {sy})")]
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
    /// Start and goal are joined, but not with room for the agent: the route with the most
    /// room is narrowest at (x, y), where its clearance is below the radius (world units;
    /// on a grid, the routes through cell centres that the planner takes).
    #[error("the goal ({gx}, {gy}) cannot be reached from the start ({sx}, {sy}) with radius {radius}: the route with the most room is narrowest at ({x}, {y}), with clearance {clearance}")]
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
    #[error("{what} ({x}, {y}) has clearance {clearance}, less than the agent radius {radius}")]
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
        "point {index} ({x}, {y}) is outside the world [{}, {}]×[{}, {}]; is the path in the world's units?",
        min[0], max[0], min[1], max[1]
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
    #[error("no room for an agent of radius {radius}: the largest clearance in the world is {max_clearance}")]
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
    #[error("{what} ({x}, {y}) is outside the navmesh")]
    OutsideMesh {
        /// `"start"`, `"goal"`, …
        what: &'static str,
        /// x coordinate.
        x: f64,
        /// y coordinate.
        y: f64,
    },
    /// A navmesh channel is too narrow for the agent radius somewhere.
    #[error(
        "portal {index} at ({x}, {y}) is {width} wide, too narrow for an agent of radius {radius}"
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
    #[error("disk {index} has radius {radius}, which is not a non-negative number")]
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
    #[error("corner {index} at ({x}, {y}) takes radius {radius} < the turning radius {turn_radius}: {reason}")]
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
