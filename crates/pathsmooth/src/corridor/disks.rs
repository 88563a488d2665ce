//! The corridor of clearance disks ([`DiskCorridor`]) and its checks.

use glam::DVec2;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A corridor of clearance disks, the region a path must stay inside: a chain of disks from
/// start (first centre) to goal (last centre), with optional facing directions at both ends.
///
/// Langerak (Game AI Pro 3, ch. 20, §20.2) takes the corridor from the corridor map method
/// of Geraerts & Overmars (2007): a chain of disks whose centres lie on the medial axis of
/// free space and whose radii are the clearance there. Neighbouring disks overlap, so the
/// chain of centres is a feasible (if long and wiggly) path. The facing directions become
/// the dummy waypoints of the optimisation problem built from it.
///
/// A corridor can come from the caller (engines often have their own clearance data),
/// built directly (the fields are public; every consumer calls
/// [`DiskCorridor::validate`] before using it) or as JSON (with the `serde` feature,
/// [`from_json`](Self::from_json) and [`to_json`](Self::to_json)):
///
/// ```json
/// {"centers": [[x, y], …], "radii": […], "start_dir": [dx, dy], "goal_dir": [dx, dy]}
/// ```
///
/// with both directions optional. [`DiskCorridor::validate`] checks it: at least two disks,
/// finite coordinates, one non-negative radius per centre, consecutive disks overlapping
/// (touching counts), and facing directions of non-zero length.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::DiskCorridor;
/// let centers = vec![DVec2::ZERO, DVec2::new(2.0, 0.0), DVec2::new(4.0, 1.0)];
/// let c = DiskCorridor::new(centers, vec![0.5, 1.5, 1.0], Some(DVec2::X), None)?;
/// assert_eq!(c.len(), 3);
/// assert_eq!(c.initial_path(), c.centers);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::corridor::DiskCorridor;
/// let c = DiskCorridor::new(
///     vec![DVec2::ZERO, DVec2::new(3.0, 0.0)],
///     vec![2.0, 1.0],
///     Some(DVec2::Y),
///     None,
/// )
/// .unwrap();
/// assert_eq!(c.start(), DVec2::ZERO);
/// assert_eq!(c.goal(), DVec2::new(3.0, 0.0));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(deny_unknown_fields)
)]
pub struct DiskCorridor {
    /// Disk centres; the first is the start and the last the goal.
    pub centers: Vec<DVec2>,
    /// One clearance radius per centre.
    pub radii: Vec<f64>,
    /// The agent's facing direction at the start (any non-zero length).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub start_dir: Option<DVec2>,
    /// The desired facing direction at the goal (any non-zero length).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub goal_dir: Option<DVec2>,
}

impl DiskCorridor {
    /// Builds and validates a corridor (see [`DiskCorridor::validate`] for the errors).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{corridor::DiskCorridor, Error};
    /// let gap = DiskCorridor::new(vec![DVec2::ZERO, DVec2::new(5.0, 0.0)], vec![1.0, 1.0], None, None);
    /// assert_eq!(gap.unwrap_err(), Error::CorridorGap { a: 0, b: 1 });
    /// ```
    pub fn new(
        centers: Vec<DVec2>,
        radii: Vec<f64>,
        start_dir: Option<DVec2>,
        goal_dir: Option<DVec2>,
    ) -> Result<Self> {
        let corridor = DiskCorridor {
            centers,
            radii,
            start_dir,
            goal_dir,
        };
        corridor.validate()?;
        Ok(corridor)
    }

    /// Parses and validates the JSON form
    /// `{"centers": [[x,y],…], "radii": […], "start_dir": [dx,dy], "goal_dir": [dx,dy]}`.
    ///
    /// Malformed JSON is [`Error::Parse`] (file `<string>`, with line and column), and so
    /// is an unknown key (a misspelt `"start_dir"` must not be dropped silently); a
    /// well-formed but invalid corridor gets the error [`DiskCorridor::validate`] gives.
    ///
    /// ```
    /// use pathsmooth::{corridor::DiskCorridor, Error};
    /// let bad = DiskCorridor::from_json(r#"{"centers": [[0,0],[1,0]], "radii": [1, -1]}"#);
    /// assert_eq!(bad.unwrap_err(), Error::BadRadius { index: 1, radius: -1.0 });
    /// assert!(matches!(DiskCorridor::from_json("{"), Err(Error::Parse { .. })));
    /// ```
    ///
    /// Cost: one pass over the text and one over the disks, O(n). Needs the `serde` feature.
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn from_json(text: &str) -> Result<Self> {
        let corridor: DiskCorridor = parse_json(text)?;
        corridor.validate()?;
        Ok(corridor)
    }

    /// The JSON form (directions omitted when absent). Needs the `serde` feature.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::DiskCorridor;
    /// let c = DiskCorridor::new(vec![DVec2::ZERO, DVec2::X], vec![1.0, 1.0], None, None).unwrap();
    /// assert_eq!(c.to_json(), r#"{"centers":[[0.0,0.0],[1.0,0.0]],"radii":[1.0,1.0]}"#);
    /// ```
    #[cfg(feature = "serde")]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub fn to_json(&self) -> String {
        // Serialising plain numbers and vectors cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Checks the corridor:
    /// - fewer than two centres → [`Error::TooFewPoints`];
    /// - a NaN or infinite centre → [`Error::NonFinite`] (its index);
    /// - a centre coordinate beyond
    ///   [`max_coordinate`](crate::geometry::max_coordinate)`::<f64>()` (≈ 1.7·10¹⁵³) →
    ///   [`Error::CoordinateOutOfRange`], a radius beyond it → [`Error::BadParameter`]
    ///   (`radius`): past it distances and sums of radii overflow, and a corridor of huge
    ///   disks would pass for one with a gap;
    /// - a radius count different from the centre count → [`Error::BadParameter`] (`radii`);
    /// - a negative, NaN or infinite radius → [`Error::BadRadius`];
    /// - consecutive disks that do not overlap (centre distance > sum of radii; touching is
    ///   allowed) → [`Error::CorridorGap`] naming the pair;
    /// - a facing direction of zero length → [`Error::ZeroDirection`], a non-finite one →
    ///   [`Error::BadParameter`] (`start_dir` / `goal_dir`).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{corridor::DiskCorridor, Error};
    /// let c = DiskCorridor {
    ///     centers: vec![DVec2::ZERO, DVec2::X],
    ///     radii: vec![1.0, 1.0],
    ///     start_dir: Some(DVec2::ZERO),
    ///     goal_dir: None,
    /// };
    /// assert_eq!(c.validate().unwrap_err(), Error::ZeroDirection { which: "start" });
    /// ```
    pub fn validate(&self) -> Result<()> {
        crate::geometry::check_path(&self.centers, 2, "a disk corridor")?;
        crate::geometry::check_magnitude(&self.centers)?;
        if self.radii.len() != self.centers.len() {
            return Err(Error::param(
                "radii",
                self.radii.len() as f64,
                "exactly one radius per centre",
            ));
        }
        check_radii(&self.radii)?;
        let limit = crate::geometry::max_coordinate::<f64>();
        if let Some(&r) = self.radii.iter().find(|r| **r > limit) {
            return Err(Error::param(
                "radius",
                r,
                "a radius <= sqrt(f64::MAX)/8 (1.7e153), so distances cannot overflow",
            ));
        }
        check_overlaps(&self.centers, &self.radii)?;
        check_direction(self.start_dir, "start", "start_dir")?;
        check_direction(self.goal_dir, "goal", "goal_dir")
    }

    /// Number of disks.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::DiskCorridor;
    /// let c = DiskCorridor::new(vec![DVec2::ZERO, DVec2::X], vec![1.0, 1.0], None, None).unwrap();
    /// assert_eq!(c.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.centers.len()
    }

    /// True when the corridor has no disks (never for a validated corridor).
    ///
    /// ```
    /// use pathsmooth::corridor::DiskCorridor;
    /// let c = DiskCorridor { centers: vec![], radii: vec![], start_dir: None, goal_dir: None };
    /// assert!(c.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.centers.is_empty()
    }

    /// The start position (first centre). Panics on an empty corridor; validate first.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::DiskCorridor;
    /// let c = DiskCorridor::new(vec![DVec2::ZERO, DVec2::X], vec![1.0, 1.0], None, None).unwrap();
    /// assert_eq!(c.start(), DVec2::ZERO);
    /// ```
    pub fn start(&self) -> DVec2 {
        self.centers[0]
    }

    /// The goal position (last centre). Panics on an empty corridor; validate first.
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::DiskCorridor;
    /// let c = DiskCorridor::new(vec![DVec2::ZERO, DVec2::X], vec![1.0, 1.0], None, None).unwrap();
    /// assert_eq!(c.goal(), DVec2::X);
    /// ```
    pub fn goal(&self) -> DVec2 {
        self.centers[self.centers.len() - 1]
    }

    /// The mean distance between consecutive centres: the chapter's normalisation `h`
    /// (§20.2.1, "the average distance between neighboring graph vertices").
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::DiskCorridor;
    /// let c = DiskCorridor::new(
    ///     vec![DVec2::ZERO, DVec2::new(1.0, 0.0), DVec2::new(4.0, 0.0)],
    ///     vec![1.0, 2.0, 1.0],
    ///     None,
    ///     None,
    /// )
    /// .unwrap();
    /// assert_eq!(c.mean_spacing(), 2.0);
    /// ```
    pub fn mean_spacing(&self) -> f64 {
        if self.centers.len() < 2 {
            return 0.0;
        }
        let total: f64 = self.centers.windows(2).map(|w| w[0].distance(w[1])).sum();
        total / (self.centers.len() - 1) as f64
    }

    /// The initial feasible path: the disk centres themselves (every centre lies in its
    /// own disk). This is where the chapter starts the iteration (`v⁰ = c`).
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::corridor::DiskCorridor;
    /// let c = DiskCorridor::new(vec![DVec2::ZERO, DVec2::X], vec![1.0, 1.0], None, None).unwrap();
    /// assert_eq!(c.initial_path(), vec![DVec2::ZERO, DVec2::X]);
    /// ```
    pub fn initial_path(&self) -> Vec<DVec2> {
        self.centers.clone()
    }
}

/// Parses JSON into `T`, turning serde's error into [`Error::Parse`] with line and column.
#[cfg(feature = "serde")]
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| Error::parse("<string>", e.line(), e.column(), e))
}

/// Every radius finite and non-negative, else [`Error::BadRadius`] naming the first.
pub(crate) fn check_radii(radii: &[f64]) -> Result<()> {
    match radii.iter().position(|r| !(r.is_finite() && *r >= 0.0)) {
        Some(index) => Err(Error::BadRadius {
            index,
            radius: radii[index],
        }),
        None => Ok(()),
    }
}

/// Consecutive disks must overlap or touch: `|cᵢ − cᵢ₊₁| ≤ rᵢ + rᵢ₊₁`.
fn check_overlaps(centers: &[DVec2], radii: &[f64]) -> Result<()> {
    for i in 0..centers.len() - 1 {
        if centers[i].distance(centers[i + 1]) > radii[i] + radii[i + 1] {
            return Err(Error::CorridorGap { a: i, b: i + 1 });
        }
    }
    Ok(())
}

fn check_direction(dir: Option<DVec2>, which: &'static str, name: &'static str) -> Result<()> {
    match dir {
        None => Ok(()),
        Some(d) if !d.is_finite() => Err(Error::param(
            name,
            if d.x.is_finite() { d.y } else { d.x },
            "a finite direction vector",
        )),
        Some(d) if d.length_squared() == 0.0 => Err(Error::ZeroDirection { which }),
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(r0: f64, r1: f64, d: f64) -> DiskCorridor {
        DiskCorridor {
            centers: vec![DVec2::ZERO, DVec2::new(d, 0.0)],
            radii: vec![r0, r1],
            start_dir: None,
            goal_dir: None,
        }
    }

    #[test]
    fn touching_disks_are_connected_and_separated_ones_are_a_gap() {
        assert!(two(1.0, 1.0, 2.0).validate().is_ok());
        assert_eq!(
            two(1.0, 1.0, 2.0 + 1e-12).validate(),
            Err(Error::CorridorGap { a: 0, b: 1 })
        );
    }

    #[test]
    #[cfg(feature = "serde")]
    fn overflow_is_not_reported_as_a_gap() {
        // A 1e300 corridor: the centre distance overflowed to infinity, which used to be
        // reported as CorridorGap.
        let c = DiskCorridor::from_json(r#"{"centers":[[0,0],[1e300,0]],"radii":[1e300,1e300]}"#);
        assert!(
            matches!(c, Err(Error::CoordinateOutOfRange { index: Some(1), .. })),
            "{c:?}"
        );
        let big_radius = two(1e300, 1.0, 1.0).validate();
        assert!(
            matches!(big_radius, Err(Error::BadParameter { name: "radius", .. })),
            "{big_radius:?}"
        );
        // The largest accepted coordinates still validate and overlap exactly.
        let m = crate::geometry::max_coordinate::<f64>();
        let c = DiskCorridor {
            centers: vec![DVec2::new(-m, m), DVec2::new(m, m)],
            radii: vec![m, m],
            start_dir: None,
            goal_dir: None,
        };
        assert!(c.validate().is_ok());
    }

    #[test]
    fn the_gap_error_names_the_pair() {
        let c = DiskCorridor {
            centers: vec![
                DVec2::ZERO,
                DVec2::X,
                DVec2::new(2.0, 0.0),
                DVec2::new(9.0, 0.0),
            ],
            radii: vec![1.0; 4],
            start_dir: None,
            goal_dir: None,
        };
        assert_eq!(c.validate(), Err(Error::CorridorGap { a: 2, b: 3 }));
    }

    #[test]
    fn bad_input_gets_its_own_error() {
        let one = DiskCorridor {
            centers: vec![DVec2::ZERO],
            radii: vec![1.0],
            start_dir: None,
            goal_dir: None,
        };
        assert!(matches!(
            one.validate(),
            Err(Error::TooFewPoints { got: 1, .. })
        ));
        let mut nan = two(1.0, 1.0, 1.0);
        nan.centers[1].y = f64::NAN;
        assert_eq!(nan.validate(), Err(Error::NonFinite { index: 1 }));
        let r = two(1.0, f64::NAN, 1.0).validate().unwrap_err();
        assert!(matches!(r, Error::BadRadius { index: 1, radius } if radius.is_nan()));
        assert!(matches!(
            two(f64::INFINITY, 1.0, 1.0).validate(),
            Err(Error::BadRadius { index: 0, .. })
        ));
        let mut short = two(1.0, 1.0, 1.0);
        short.radii.pop();
        assert!(matches!(
            short.validate(),
            Err(Error::BadParameter { name: "radii", .. })
        ));
        let mut dir = two(1.0, 1.0, 1.0);
        dir.goal_dir = Some(DVec2::ZERO);
        assert_eq!(dir.validate(), Err(Error::ZeroDirection { which: "goal" }));
        dir.goal_dir = Some(DVec2::new(f64::NAN, 1.0));
        assert!(matches!(
            dir.validate(),
            Err(Error::BadParameter {
                name: "goal_dir",
                ..
            })
        ));
    }

    #[test]
    #[cfg(feature = "serde")]
    fn json_round_trip_keeps_directions() {
        let mut c = two(1.0, 2.0, 2.5);
        c.start_dir = Some(DVec2::new(0.0, -1.0));
        c.goal_dir = Some(DVec2::new(3.0, 4.0));
        let text = c.to_json();
        assert!(text.contains("\"start_dir\":[0.0,-1.0]"));
        assert_eq!(DiskCorridor::from_json(&text).unwrap(), c);
    }

    #[test]
    #[cfg(feature = "serde")]
    fn touching_disks_survive_a_json_round_trip() {
        // Needs serde_json's float_roundtrip (the CLI test json_numbers_round_trip_exactly
        // checks it in a build where no dev-dependency turns it on).
        let (r0, r1) = (2.2392946119404013e17, 9.136570257377501e17);
        let c = two(r0, r1, r0 + r1);
        assert!(c.validate().is_ok());
        assert_eq!(DiskCorridor::from_json(&c.to_json()), Ok(c));
    }

    #[test]
    #[cfg(feature = "serde")]
    fn unknown_keys_are_parse_errors_naming_the_key() {
        let typo = r#"{"centers": [[0,0],[1,0]], "radii": [1, 1], "start_direction": [1, 0]}"#;
        match DiskCorridor::from_json(typo) {
            Err(Error::Parse { message, .. }) => {
                assert!(
                    message.contains("unknown field `start_direction`"),
                    "{message}"
                )
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    #[cfg(feature = "serde")]
    fn parse_errors_carry_line_and_column() {
        let e = DiskCorridor::from_json("{\n \"centers\": [[0,0],\n [1, \"x\"]]}").unwrap_err();
        assert!(matches!(e, Error::Parse { line: 3, .. }), "{e:?}");
    }
}
