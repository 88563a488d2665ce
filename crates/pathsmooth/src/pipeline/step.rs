//! The steps a pipeline can run, and its presets.

use crate::corridor::CorridorParams;
use crate::curve::catmull_rom::CatmullRomParams;
use crate::curve::chaikin::ChaikinParams;
use crate::fillet::FilletParams;
use crate::navmesh::relax::RelaxParams;

/// One step of a [`Pipeline`](crate::Pipeline): from a path valid on the world to a path
/// valid on the world.
///
/// Steps keep the path's route (the start, the goal and the way between), except the
/// navmesh steps, which re-route between the path's first and last points through the
/// navmesh's channel of triangles, as their algorithms need one.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Step {
    /// Line-of-sight shortcuts: drop every waypoint the agent can see past
    /// ([`Shortcutter`](crate::Shortcutter)).
    Shortcut,
    /// Map-aware Chaikin: each corner cut as deeply as the walls allow
    /// ([`MapSafe::chaikin`](crate::MapSafe::chaikin)).
    Chaikin(ChaikinParams),
    /// A Catmull-Rom spline through the waypoints, kept only where it stays clear; the
    /// corners where it would not are kept as they are
    /// ([`MapSafe::smooth`](crate::MapSafe::smooth)).
    CatmullRom(CatmullRomParams),
    /// Points at a fixed arc-length spacing (world units) along the path, kept where the
    /// chords between them stay clear.
    Resample {
        /// Distance between consecutive points, world units (> 0).
        spacing: f64,
    },
    /// The shortest path through the navmesh channel from the path's start to its goal,
    /// keeping the agent radius from the channel's corners
    /// ([`funnel`](crate::navmesh::funnel::funnel)). Needs a world with a navmesh.
    Funnel,
    /// The same channel (at a radius, the channel with room for the agent: every portal at
    /// least `2r` wide) with the waypoints slid along its portals, kept the agent radius plus
    /// the parameters' margin from the portal ends
    /// ([`relax`](crate::navmesh::relax::relax)); at a radius > 0, each stretch that still
    /// comes within the radius of a wall (a segment cutting a corner's circle) is replaced
    /// by the funnel at the radius between its good nodes, so the step's result keeps the
    /// radius and is not skipped (see [`RelaxParams`](crate::navmesh::RelaxParams)).
    /// Needs a world with a navmesh.
    Relax(RelaxParams),
    /// Langerak's corridor optimisation in a corridor of disks along the path: the path is
    /// pulled taut in its own navmesh channel, kept a quarter of its vertices' room off the
    /// corners (on worlds without a navmesh: shortcut with half that room), sampled, each
    /// sample's disk is the room the agent has there (made safe for the segments between
    /// waypoints), Langerak's optimiser (ADMM by default, or the chapter's Chambolle–Pock)
    /// smooths the path inside, and corners still turning more than π/18 rad (10°) are cut by
    /// map-aware adaptive Chaikin
    /// ([`CorridorSmoother::smooth_along`](crate::corridor::CorridorSmoother::smooth_along),
    /// [`CorridorParams::refine`](crate::corridor::CorridorParams::refine)).
    /// Keeps the route's side of every obstacle; works on any world. Give it the planner's
    /// path: a path already shortcut grazes wall corners and leaves the corners less room.
    Corridor(CorridorParams),
    /// Fillet smoothing: each corner replaced by an arc (or clothoid–arc–clothoid) of
    /// radius ≥ the minimum turning radius where the walls and legs leave room
    /// ([`Filleter`](crate::Filleter)). The step's output is the exact curve sampled within
    /// the parameters' chord error (its chords keep the agent radius: the curve is tested
    /// with the chord error as margin); the curve itself is
    /// [`Pipeline::last_curve`](crate::Pipeline::last_curve), and the corners below the
    /// turning radius are in the report ([`PipelineReport::corners`](crate::PipelineReport::corners)).
    /// Give it a shortcut path: its corners are the turns to round.
    Fillet(FilletParams),
}

impl Step {
    /// Every step's [name](Self::name), in the order of the variants.
    pub const NAMES: [&'static str; 8] = [
        "shortcut",
        "chaikin",
        "catmull-rom",
        "resample",
        "funnel",
        "relax",
        "corridor",
        "fillet",
    ];

    /// The step's name, as the command line spells it.
    ///
    /// ```
    /// assert_eq!(pathsmooth::Step::Shortcut.name(), "shortcut");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Step::Shortcut => "shortcut",
            Step::Chaikin(_) => "chaikin",
            Step::CatmullRom(_) => "catmull-rom",
            Step::Resample { .. } => "resample",
            Step::Funnel => "funnel",
            Step::Relax(_) => "relax",
            Step::Corridor(_) => "corridor",
            Step::Fillet(_) => "fillet",
        }
    }

    /// The step called `name` ([`NAMES`](Self::NAMES)) with its default parameters, or with
    /// `value` for the two steps that need one: `resample`'s spacing and `fillet`'s minimum
    /// turning radius (world units). The one reading of step names that the bindings
    /// (Python, WebAssembly) share; the value is not checked here ([`validate`](Self::validate)).
    ///
    /// ```
    /// use pathsmooth::{Step, StepNameError};
    /// assert_eq!(Step::named("chaikin", None), Ok(Step::chaikin()));
    /// assert_eq!(Step::named("resample", Some(0.5)), Ok(Step::Resample { spacing: 0.5 }));
    /// assert_eq!(Step::named("fillet", None), Err(StepNameError::NeedsValue {
    ///     step: "fillet",
    ///     what: "a minimum turning radius (world units)",
    /// }));
    /// assert!(Step::named("bogus", None).unwrap_err().to_string().starts_with("unknown step `bogus`"));
    /// ```
    pub fn named(name: &str, value: Option<f64>) -> Result<Step, StepNameError> {
        let step = match name {
            "shortcut" => Step::Shortcut,
            "chaikin" => Step::chaikin(),
            "catmull-rom" => Step::catmull_rom(),
            "funnel" => Step::Funnel,
            "relax" => Step::relax(),
            "corridor" => Step::corridor(),
            "resample" | "fillet" => {
                let (step, what) = if name == "resample" {
                    ("resample", "a spacing (world units)")
                } else {
                    ("fillet", "a minimum turning radius (world units)")
                };
                let Some(v) = value else {
                    return Err(StepNameError::NeedsValue { step, what });
                };
                return Ok(if step == "resample" {
                    Step::Resample { spacing: v }
                } else {
                    Step::fillet(v)
                });
            }
            _ => return Err(StepNameError::Unknown(name.to_owned())),
        };
        match value {
            None => Ok(step),
            Some(_) => Err(StepNameError::TakesNoValue(step.name())),
        }
    }

    /// Checks the step's parameters, as the step itself would when it runs: a binding
    /// checks its steps with this when a pipeline is made, so a bad one is refused there
    /// and not at the first plan. Errors: [`Error::BadParameter`](crate::Error::BadParameter)
    /// naming the parameter. O(1).
    ///
    /// ```
    /// use pathsmooth::{FilletParams, Step};
    /// assert!(Step::Resample { spacing: f64::NAN }.validate().is_err());
    /// assert!(Step::Fillet(FilletParams::new(-1.0)).validate().is_err());
    /// assert!(Step::chaikin().validate().is_ok());
    /// ```
    pub fn validate(&self) -> crate::error::Result<()> {
        match self {
            Step::Shortcut | Step::Funnel => Ok(()),
            Step::Chaikin(p) => p.validate(),
            Step::CatmullRom(p) => p.validate(),
            Step::Resample { spacing } => {
                crate::error::Error::check_positive("spacing", *spacing, "a finite number > 0")
                    .map(|_| ())
            }
            Step::Relax(p) => p.validate(),
            Step::Corridor(p) => p.validate(),
            Step::Fillet(p) => p.validate(),
        }
    }

    /// Why this step can return its input unchanged, for the report.
    pub(crate) fn unchanged_reason(&self) -> &'static str {
        match self {
            Step::Shortcut => "changed nothing: no waypoint could be skipped with the radius kept",
            Step::Chaikin(_) | Step::CatmullRom(_) => {
                "changed nothing: no corner could be cut without coming closer than the \
                 radius to a wall (or the path has no corner)"
            }
            Step::Resample { .. } => {
                "changed nothing: the path already has the spacing (or no resampled piece kept \
                 the radius)"
            }
            Step::Funnel | Step::Relax(_) | Step::Corridor(_) => {
                "changed nothing: the path was already what this step makes"
            }
            Step::Fillet(_) => {
                "changed nothing: no corner could take a turn of the minimum radius (see the \
                 report's corners)"
            }
        }
    }

    /// The most points this step can write for `input`, when that is known before it runs
    /// (what [`Pipeline::set_max_points`](crate::Pipeline::set_max_points) compares with
    /// its cap): Chaikin at most doubles the points per pass, Catmull-Rom writes at most
    /// `subdivisions` points per input point, resampling ⌈length / spacing⌉ plus one per
    /// piece it is split into. `None` for the steps whose output is not larger than their
    /// input or that re-route (shortcuts, funnel, relaxation, corridor, fillets): the
    /// pipeline checks their result's length after they run. Saturates rather than
    /// overflows; O(1), or O(n) for resampling (the input's length).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::curve::CatmullRomParams;
    /// use pathsmooth::Step;
    /// let path = vec![DVec2::ZERO; 1000];
    /// let step = Step::CatmullRom(CatmullRomParams::uniform(31));
    /// assert_eq!(step.max_output_len(&path), Some(31_000));
    /// assert_eq!(Step::Shortcut.max_output_len(&path), None);
    /// ```
    pub fn max_output_len(&self, input: &[glam::DVec2]) -> Option<u128> {
        let n = input.len() as u128;
        match self {
            Step::Chaikin(p) => Some(
                1u128
                    .checked_shl(p.passes)
                    .map_or(u128::MAX, |f| n.saturating_mul(f)),
            ),
            Step::CatmullRom(p) => Some(n.saturating_mul(p.subdivisions.max(1) as u128)),
            Step::Resample { spacing } if *spacing > 0.0 => {
                // A float-to-integer cast saturates (and NaN gives 0, for a NaN length the
                // step refuses anyway).
                let samples = (crate::metrics::length(input) / spacing).ceil() as u128;
                Some(samples.saturating_add(n).saturating_add(1))
            }
            _ => None,
        }
    }

    /// True for the steps that keep a valid path valid by construction (they test every
    /// segment and bend they make): the pipeline validates their result only at the end.
    /// The navmesh and corridor steps are checked after they run, and skipped (reported)
    /// should their result not be valid.
    pub(crate) fn keeps_validity(&self) -> bool {
        matches!(
            self,
            Step::Shortcut
                | Step::Chaikin(_)
                | Step::CatmullRom(_)
                | Step::Resample { .. }
                | Step::Fillet(_)
        )
    }

    /// Map-aware Chaikin with the default parameters (4 passes at ratio ¼).
    pub fn chaikin() -> Self {
        Step::Chaikin(ChaikinParams::default())
    }

    /// Centripetal Catmull-Rom (α = ½) with 5 points per segment.
    pub fn catmull_rom() -> Self {
        Step::CatmullRom(CatmullRomParams::centripetal(5))
    }

    /// Portal relaxation with the default parameters.
    pub fn relax() -> Self {
        Step::Relax(RelaxParams::default())
    }

    /// Circular fillets of minimum turning radius `turn_radius` (world units), corners
    /// below it reported ([`FilletParams::new`]).
    ///
    /// ```
    /// use pathsmooth::{FilletParams, Step};
    /// assert_eq!(Step::fillet(2.0), Step::Fillet(FilletParams::new(2.0)));
    /// ```
    pub fn fillet(turn_radius: f64) -> Self {
        Step::Fillet(FilletParams::new(turn_radius))
    }

    /// The corridor optimiser with the default parameters.
    pub fn corridor() -> Self {
        Step::Corridor(CorridorParams::default())
    }
}

/// Why a step or preset name was refused ([`Step::named`], [`Preset::named`]); the message
/// lists what the name could have been.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StepNameError {
    /// No step has this name.
    #[error(
        "unknown step `{0}`: expected one of shortcut, chaikin, catmull-rom, resample, \
         funnel, relax, corridor, fillet"
    )]
    Unknown(String),
    /// No preset has this name.
    #[error("unknown preset `{0}`: expected one of shortest, smooth, corridor")]
    UnknownPreset(String),
    /// The step needs a value and was given none.
    #[error("step `{step}` needs {what}")]
    NeedsValue {
        /// The step's name.
        step: &'static str,
        /// What the value is, in words.
        what: &'static str,
    },
    /// The step takes no value and was given one.
    #[error("step `{0}` takes no parameter")]
    TakesNoValue(&'static str),
}

/// Ready-made step lists, named for what users want.
///
/// ```
/// use pathsmooth::{Preset, Step};
/// assert_eq!(Preset::Smooth.steps(), vec![Step::Shortcut, Step::chaikin()]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// As short as the route allows, straight segments: line-of-sight shortcuts.
    Shortest,
    /// Short and round: shortcuts, then map-aware Chaikin. The default for agents.
    Smooth,
    /// Langerak's corridor optimiser along the path (which it first shortcuts, kept off the
    /// walls): smooth, near-shortest, with waypoints spread by the room there is.
    Corridor,
}

impl Preset {
    /// Every preset's name, as [`named`](Self::named) reads them.
    pub const NAMES: [&'static str; 3] = ["shortest", "smooth", "corridor"];

    /// The preset called `name` (`shortest`, `smooth`, `corridor`), as the command line and
    /// the bindings spell them.
    ///
    /// ```
    /// use pathsmooth::{Preset, StepNameError};
    /// assert_eq!(Preset::named("smooth"), Ok(Preset::Smooth));
    /// assert!(matches!(Preset::named("nope"), Err(StepNameError::UnknownPreset(_))));
    /// ```
    pub fn named(name: &str) -> Result<Preset, StepNameError> {
        match name {
            "shortest" => Ok(Preset::Shortest),
            "smooth" => Ok(Preset::Smooth),
            "corridor" => Ok(Preset::Corridor),
            _ => Err(StepNameError::UnknownPreset(name.to_owned())),
        }
    }

    /// The preset's steps.
    pub fn steps(self) -> Vec<Step> {
        match self {
            Preset::Shortest => vec![Step::Shortcut],
            Preset::Smooth => vec![Step::Shortcut, Step::chaikin()],
            Preset::Corridor => vec![Step::corridor()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lists_every_variant_once() {
        // Exhaustive: a new variant fails to compile here until it is named.
        let name = |s: &Step| match s {
            Step::Shortcut
            | Step::Chaikin(_)
            | Step::CatmullRom(_)
            | Step::Resample { .. }
            | Step::Funnel
            | Step::Relax(_)
            | Step::Corridor(_)
            | Step::Fillet(_) => s.name(),
        };
        let all = [
            Step::Shortcut,
            Step::chaikin(),
            Step::catmull_rom(),
            Step::Resample { spacing: 1.0 },
            Step::Funnel,
            Step::relax(),
            Step::corridor(),
            Step::fillet(1.0),
        ];
        assert_eq!(all.iter().map(name).collect::<Vec<_>>(), Step::NAMES);
    }
}
