//! Areas and their costs: what the planner's filter says a stretch of ground costs.
//!
//! Every world can tell *areas* apart: a grid cell has one (Moving AI's terrain letter, or
//! a caller's per-cell function), a navmesh polygon has one (Recast's area id), and a
//! caller's own world may have regions. An [`AreaCosts`] filter, as Detour's
//! `dtQueryFilter` or Unity's `NavMesh.SetAreaCost`, gives each area a **cost
//! multiplier** or **excludes** it. The cost of a path is then the integral of its area's
//! multiplier along it: a metre of swamp at cost 4 costs as much as four metres of
//! ground. Planning minimises that cost, and smoothing never raises it (see
//! [`World::segment_cost`](crate::World::segment_cost)).
//!
//! An excluded area is part of the blocked region: nothing enters it, and an agent of
//! radius `r` keeps `r` from it as from a wall.

use crate::error::{num, Error, Result};

/// An area id: a Moving AI terrain letter as its byte (`b'S'` for swamp), a Recast area id
/// (0–63), or any id a caller gives its cells or polygons.
pub type AreaId = u8;

/// The area of plain ground on grid maps (`.` and `G` in Moving AI files, every passable
/// cell of a map built from booleans).
pub const GROUND: AreaId = b'.';
/// Moving AI's swamp (`S`): passable ground, cost 1 unless a filter says otherwise.
pub const SWAMP: AreaId = b'S';
/// Moving AI's water (`W`): the format makes it impassable from land, so the default
/// filter excludes it; give it a cost to let an agent swim.
pub const WATER: AreaId = b'W';

/// The smallest cost multiplier accepted (2⁻²⁰ ≈ 9.5·10⁻⁷).
pub const MIN_COST: f64 = 1.0 / (1u64 << 20) as f64;
/// The largest cost multiplier accepted (2²⁰ ≈ 1.05·10⁶): costs within
/// [`MIN_COST`, `MAX_COST`] keep grid A*'s integer sums exact (see
/// [`astar`](crate::grid::astar)).
pub const MAX_COST: f64 = (1u64 << 20) as f64;

/// A filter: each area's cost multiplier, or its exclusion.
///
/// By default every area costs 1 except Moving AI's water ([`WATER`]), which is excluded as
/// the format defines it (impassable from land). With the default filter every world
/// behaves exactly as one without areas, and results are bit-identical.
///
/// ```
/// use pathsmooth::area::{AreaCosts, SWAMP, WATER};
/// let mut costs = AreaCosts::default();
/// costs.set(SWAMP, 4.0)?;
/// assert_eq!(costs.cost(SWAMP), Some(4.0));
/// assert_eq!(costs.cost(WATER), None); // excluded
/// assert!(!costs.is_uniform());
/// let same: AreaCosts = "S=4".parse()?;
/// assert_eq!(same, costs);
/// assert!("S=0".parse::<AreaCosts>().is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct AreaCosts {
    /// Per area: the multiplier, or infinity for an excluded area.
    cost: [f64; 256],
    /// Per area: whether the caller set it (for a shell to check against a map's areas).
    given: [bool; 256],
    /// How many areas have a finite cost other than 1: [`is_uniform`](Self::is_uniform)
    /// is asked in the steps' inner loops, so it is kept rather than counted.
    weighted: u16,
}

impl Default for AreaCosts {
    fn default() -> Self {
        let mut cost = [1.0; 256];
        cost[WATER as usize] = f64::INFINITY;
        AreaCosts {
            cost,
            given: [false; 256],
            weighted: 0,
        }
    }
}

impl std::fmt::Debug for AreaCosts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut map = f.debug_map();
        for area in 0..=255u8 {
            let c = self.cost[area as usize];
            if c != 1.0 {
                map.entry(&area_name(area), &c);
            }
        }
        map.finish()
    }
}

impl AreaCosts {
    /// The default filter (see the type's docs).
    pub fn new() -> Self {
        Self::default()
    }

    /// The filter that excludes nothing: every area costs 1, Moving AI's water included.
    /// What a navmesh world starts with (navmesh area ids are not
    /// terrain letters: area 87, `b'W'`, is a walkable area like any other there).
    ///
    /// ```
    /// use pathsmooth::area::{AreaCosts, WATER};
    /// let c = AreaCosts::unit();
    /// assert_eq!(c.cost(WATER), Some(1.0));
    /// assert!(c.is_uniform() && c.given().next().is_none());
    /// ```
    pub fn unit() -> Self {
        AreaCosts {
            cost: [1.0; 256],
            given: [false; 256],
            weighted: 0,
        }
    }

    /// Gives `area` the cost multiplier `cost`.
    ///
    /// Errors: [`Error::BadAreaCost`] unless `cost` is a finite number in
    /// [[`MIN_COST`], [`MAX_COST`]] (zero, negative, NaN and infinite costs are refused;
    /// [`exclude`](Self::exclude) an area instead of giving it an infinite cost).
    pub fn set(&mut self, area: AreaId, cost: f64) -> Result<&mut Self> {
        if !(MIN_COST..=MAX_COST).contains(&cost) {
            return Err(Error::BadAreaCost {
                area: area_name(area),
                reason: format!(
                    "cost {} is not a number in [{}, {}] (use `exclude` to keep agents out)",
                    num(cost),
                    num(MIN_COST),
                    num(MAX_COST)
                ),
            });
        }
        self.put(area, cost);
        Ok(self)
    }

    /// Keeps every path out of `area`: it becomes part of the blocked region.
    pub fn exclude(&mut self, area: AreaId) -> &mut Self {
        self.put(area, f64::INFINITY);
        self
    }

    /// Sets `area`'s multiplier (infinite: excluded), keeping the count of weighted areas.
    fn put(&mut self, area: AreaId, cost: f64) {
        let weighted = |c: f64| c.is_finite() && c != 1.0;
        let old = self.cost[area as usize];
        self.weighted = self.weighted + u16::from(weighted(cost)) - u16::from(weighted(old));
        self.cost[area as usize] = cost;
        self.given[area as usize] = true;
    }

    /// The cost multiplier of `area`, `None` when it is excluded.
    #[inline]
    pub fn cost(&self, area: AreaId) -> Option<f64> {
        let c = self.cost[area as usize];
        c.is_finite().then_some(c)
    }

    /// The multiplier of `area` with exclusion as infinity (for sums that must never
    /// come out cheaper through an excluded area).
    #[inline]
    pub(crate) fn multiplier(&self, area: AreaId) -> f64 {
        self.cost[area as usize]
    }

    /// True when `area` is excluded.
    #[inline]
    pub fn is_excluded(&self, area: AreaId) -> bool {
        self.cost[area as usize].is_infinite()
    }

    /// True when every area that is not excluded costs 1: planning and smoothing are then
    /// exactly those of a world without areas (no step tests costs).
    pub fn is_uniform(&self) -> bool {
        self.weighted == 0
    }

    /// True when the costs change nothing: every area costs 1 and none is excluded.
    pub(crate) fn is_unit(&self) -> bool {
        self.is_uniform() && (0..=255u8).all(|a| !self.is_excluded(a))
    }

    /// The areas the caller set (with [`set`](Self::set), [`exclude`](Self::exclude) or
    /// a parsed specification), in increasing order: what a shell checks against the
    /// areas a map has.
    pub fn given(&self) -> impl Iterator<Item = AreaId> + '_ {
        (0..=255u8).filter(|&a| self.given[a as usize])
    }

    /// The smallest multiplier among `areas` that are not excluded (`None` if all are):
    /// the factor that keeps a search's distance heuristic admissible.
    pub fn min_cost(&self, areas: impl IntoIterator<Item = AreaId>) -> Option<f64> {
        areas
            .into_iter()
            .filter_map(|a| self.cost(a))
            .min_by(f64::total_cmp)
    }
}

/// The relative slack of a step's cost test: a change is accepted when the new stretch
/// costs at most the old one plus 10⁻¹² of it, so two ways of equal cost are not told
/// apart by the rounding of their sums. The [`Pipeline`](crate::Pipeline) allows
/// [`PIPELINE_COST_TOLERANCE`] over a whole run.
pub(crate) const STEP_COST_SLACK: f64 = 1e-12;

/// How much a [`Pipeline`](crate::Pipeline)'s result may cost above its input, relative:
/// 10⁻⁹ (the steps' slack over many changes, and the rounding of the output to the
/// caller's `f64` points; `f32` output adds its own rounding, see the pipeline's docs).
pub const PIPELINE_COST_TOLERANCE: f64 = 1e-9;

/// True when a change from a stretch of cost `old` to one of cost `new` keeps the cost
/// from rising (within [`STEP_COST_SLACK`]).
#[inline]
pub(crate) fn not_costlier(new: f64, old: f64) -> bool {
    new <= old + STEP_COST_SLACK * old
}

/// How an area is named in messages and specifications: its letter when it is an ASCII
/// letter or `.` (grid terrain), else its number.
pub fn area_name(area: AreaId) -> String {
    if area.is_ascii_alphabetic() || area == b'.' {
        (area as char).to_string()
    } else {
        area.to_string()
    }
}

/// Parses `AREA=COST,...`: AREA is a terrain letter (`S`, `W`, `.`: its byte) or an area
/// id (0–255); COST a positive number or `exclude`. Later entries override earlier ones;
/// areas not named keep the default (1, water excluded). An empty string is the default
/// filter.
///
/// Errors: [`Error::BadAreaCost`] naming the entry: a missing `=`, an area that is neither
/// one character nor a number 0–255, a cost that is not a number in
/// [[`MIN_COST`], [`MAX_COST`]] nor `exclude`.
///
/// ```
/// use pathsmooth::area::AreaCosts;
/// let c: AreaCosts = "S=4, W=exclude, 5=2.5".parse()?;
/// assert_eq!((c.cost(b'S'), c.cost(b'W'), c.cost(5)), (Some(4.0), None, Some(2.5)));
/// let e = "S=-1".parse::<AreaCosts>().unwrap_err();
/// assert!(e.to_string().contains("S"), "{e}");
/// assert!("300=2".parse::<AreaCosts>().is_err());
/// assert!("S=inf".parse::<AreaCosts>().is_err());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
impl std::str::FromStr for AreaCosts {
    type Err = Error;

    fn from_str(spec: &str) -> Result<Self> {
        AreaCosts::default().apply(spec)
    }
}

impl AreaCosts {
    /// This filter with the entries of `spec` (`AREA=COST,...`, as
    /// [`FromStr`](std::str::FromStr) reads them) applied over it: how a navmesh's filter, which
    /// starts from [`unit`](Self::unit) (area 87 is no water there), reads a specification.
    ///
    /// ```
    /// use pathsmooth::area::AreaCosts;
    /// let c = AreaCosts::unit().apply("3=4")?;
    /// assert_eq!((c.cost(3), c.cost(b'W')), (Some(4.0), Some(1.0)));
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn apply(self, spec: &str) -> Result<Self> {
        let mut costs = self;
        for entry in spec.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let bad = |reason: String| Error::BadAreaCost {
                area: crate::error::excerpt(entry).to_string(),
                reason,
            };
            let (area, cost) = entry
                .split_once('=')
                .ok_or_else(|| bad("expected AREA=COST (COST a number or `exclude`)".into()))?;
            let (area, cost) = (area.trim(), cost.trim());
            let id = match (area.parse::<u16>(), area.chars().count()) {
                (Ok(n), _) if n <= 255 => n as u8,
                (Err(_), 1) if area.is_ascii() => area.as_bytes()[0],
                _ => {
                    return Err(bad(format!(
                        "area `{}` is neither a terrain letter nor an id 0–255",
                        crate::error::excerpt(area)
                    )))
                }
            };
            if cost.eq_ignore_ascii_case("exclude") {
                costs.exclude(id);
            } else {
                let value: f64 = cost.parse().map_err(|_| {
                    bad(format!(
                        "cost `{}` is neither a number nor `exclude`",
                        crate::error::excerpt(cost)
                    ))
                })?;
                costs.set(id, value)?;
            }
        }
        Ok(costs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_uniform_with_water_excluded() {
        let c = AreaCosts::default();
        assert!(c.is_uniform());
        assert!(c.is_excluded(WATER));
        assert_eq!(c.cost(GROUND), Some(1.0));
        assert_eq!(c.given().count(), 0);
        assert_eq!("".parse::<AreaCosts>().unwrap(), c);
    }

    #[test]
    fn bad_costs_are_refused_with_the_area_named() {
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-9, 1e9] {
            let e = AreaCosts::new().set(SWAMP, bad).map(|_| ()).unwrap_err();
            assert!(
                matches!(&e, Error::BadAreaCost { area, .. } if area == "S"),
                "{e}"
            );
        }
        for spec in [
            "S", "S=", "SS=2", "-1=2", "256=2", "S=abc", "S=0", "S=NaN", "=2",
        ] {
            assert!(spec.parse::<AreaCosts>().is_err(), "{spec}");
        }
    }

    #[test]
    fn later_entries_override_and_given_lists_them() {
        let c: AreaCosts = "S=4,S=2,W=3,7=exclude".parse().unwrap();
        assert_eq!(c.cost(SWAMP), Some(2.0));
        assert_eq!(c.cost(WATER), Some(3.0));
        assert!(c.is_excluded(7));
        assert_eq!(c.given().collect::<Vec<_>>(), vec![7, b'S', b'W']);
        assert_eq!(c.min_cost([GROUND, SWAMP, 7]), Some(1.0));
        assert_eq!(area_name(7), "7");
        assert_eq!(area_name(b'S'), "S");
    }
}
