//! The comparison that `plan`, `bench`, `demo` and the playground show: one pipeline per
//! method on the same world and agent radius, every one run on the same query and timed.
//! The shells format what it returns; the work is the library's pipeline.

use std::time::Duration;

use glam::DVec2;
use pathsmooth::{Pipeline, PipelineReport, Result, World};
use serde::Serialize;
// std's `Instant` panics on wasm32-unknown-unknown; this one reads `performance.now()`
// there and is std's elsewhere.
use web_time::Instant;

use crate::methods::{CurveParams, MapMethod, OptimiserParams};

/// One pipeline per method, kept from query to query (so their buffers are reused).
pub struct Comparison<'w, W: World> {
    methods: Vec<MapMethod>,
    pipelines: Vec<Pipeline<&'w W>>,
}

/// One method's run on one query.
pub struct Run<'a, 'w, W: World> {
    /// The method run.
    pub method: MapMethod,
    /// The method's path, or why it failed.
    pub path: Result<Vec<DVec2>>,
    /// The method's pipeline after the run: its report (steps skipped, corners below the
    /// turning radius, the final validation with the path's metrics), its last corridor and
    /// its last exact curve.
    pub pipeline: &'a Pipeline<&'w W>,
    /// How long the pipeline took.
    pub time: Duration,
}

/// The most characters of a skip reason a shell shows; a longer reason is cut to this
/// length, its last character an ellipsis, so that one long reason cannot flood a table.
pub const REASON_MAX_CHARS: usize = 200;

/// A step of a method's pipeline that did not take effect on a run: its result failed the
/// pipeline's validation (or it changed nothing), so the pipeline went on with the step's
/// input. The entries of the pipeline's report, as every shell shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The step's name (`relax`, `corridor`…).
    pub step: &'static str,
    /// Why, as the library says it, at most [`REASON_MAX_CHARS`] characters.
    pub reason: String,
}

impl std::fmt::Display for Skipped {
    /// `step "relax" skipped: <reason>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step \"{}\" skipped: {}", self.step, self.reason)
    }
}

/// `text` when it has at most `max` characters, else its first `max - 1` and `…`.
pub fn bounded(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `a / b`, or 1 when `b` is 0 (start == goal): a length or cost against the shortest.
pub fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        1.0
    }
}

impl Skipped {
    /// The steps of a pipeline's run (its `report`) that did not take effect, in pipeline
    /// order, with their reasons cut to [`REASON_MAX_CHARS`]: on any world, a layered
    /// navmesh's included.
    pub fn of(report: &PipelineReport) -> Vec<Skipped> {
        report
            .skipped
            .iter()
            .map(|(step, reason)| Skipped {
                step,
                reason: bounded(reason, REASON_MAX_CHARS),
            })
            .collect()
    }
}

impl<W: World> Run<'_, '_, W> {
    /// The steps of this run that did not take effect ([`Skipped::of`]).
    pub fn skipped(&self) -> Vec<Skipped> {
        Skipped::of(self.pipeline.report())
    }
}

impl<'w, W: World> Comparison<'w, W> {
    /// A pipeline for each of `methods` on `world` for an agent of `radius`.
    pub fn new(
        world: &'w W,
        radius: f64,
        methods: &[MapMethod],
        curve: &CurveParams,
        optimiser: &OptimiserParams,
    ) -> Result<Self> {
        let pipelines = methods
            .iter()
            .map(|m| Ok(Pipeline::new(world, radius)?.with_steps(m.steps(curve, optimiser))))
            .collect::<Result<_>>()?;
        Ok(Comparison {
            methods: methods.to_vec(),
            pipelines,
        })
    }

    /// Lets every pipeline's runs stop early (see [`Pipeline::set_cancel`]).
    pub fn set_cancel(&mut self, cancel: Option<pathsmooth::Cancel>) {
        for p in &mut self.pipelines {
            p.set_cancel(cancel.clone());
        }
    }

    /// Caps the points of every step of every pipeline (see [`Pipeline::set_max_points`]).
    pub fn set_max_points(&mut self, max_points: Option<usize>) {
        for p in &mut self.pipelines {
            p.set_max_points(max_points);
        }
    }

    /// Every method on the same path (the world's A* route, planned once): each pipeline
    /// smooths it.
    pub fn smooth(&mut self, raw: &[DVec2]) -> Vec<Run<'_, 'w, W>> {
        self.run(|pipeline| pipeline.smooth(raw))
    }

    /// Every method from `start` to `goal`, each pipeline planning on the world itself (the
    /// navmesh methods re-route between the ends).
    pub fn plan(&mut self, start: DVec2, goal: DVec2) -> Vec<Run<'_, 'w, W>> {
        self.run(|pipeline| pipeline.plan(start, goal))
    }

    fn run(
        &mut self,
        mut one: impl FnMut(&mut Pipeline<&'w W>) -> Result<Vec<DVec2>>,
    ) -> Vec<Run<'_, 'w, W>> {
        let results: Vec<_> = self
            .pipelines
            .iter_mut()
            .map(|pipeline| {
                let clock = Instant::now();
                let path = one(pipeline);
                (path, clock.elapsed())
            })
            .collect();
        self.methods
            .iter()
            .zip(&self.pipelines)
            .zip(results)
            .map(|((&method, pipeline), (path, time))| Run {
                method,
                path,
                pipeline,
                time,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_reasons_are_cut_with_an_ellipsis() {
        assert_eq!(bounded("short", 200), "short");
        let exact = "é".repeat(200);
        assert_eq!(bounded(&exact, 200), exact);
        let long = "é".repeat(1000);
        let cut = bounded(&long, 200);
        assert_eq!(cut.chars().count(), 200);
        assert!(cut.ends_with("é…"));
    }
}
