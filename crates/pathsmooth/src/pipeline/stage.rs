//! A step as the pipeline runs it: the step's own scratch, kept between runs, and the one
//! method that reads the path and writes `out`.
//!
//! [`Step`] is what a caller asks for (its parameters); a [`Stage`] is that step's working
//! memory (the shortcutter's, the map-safe smoother's, the navmesh query and portals of the
//! navmesh steps, the corridor solver's, the fillet's curve). The pipeline keeps one stage
//! per step, so once warmed up a run allocates nothing but what a step's own algorithm
//! does (`tests/pipeline_alloc.rs` counts, step by step).

use glam::DVec2;

use super::relaxed::RelaxStage;
use super::Step;
use crate::corridor::{CorridorPath, CorridorSmoother};
use crate::curve::catmull_rom::catmull_rom_into;
use crate::curve::exact::ExactCurve;
use crate::curve::resample::resample_into;
use crate::error::Result;
use crate::fillet::{Corner, Filleted, Filleter};
use crate::map_safe::MapSafe;
use crate::navmesh::NavMeshQuery;
use crate::shortcut::Shortcutter;
use crate::world::{path_on_mesh, World};

/// What a stage runs against: the world, the radius the steps aim at, the world's
/// path-finding scratch (shared by the stages: a grid's is 28 bytes per cell), and the
/// report's list of corners a fillet could not round.
pub(super) struct Context<'a, W: World> {
    pub(super) world: &'a W,
    pub(super) radius: f64,
    pub(super) query: &'a mut W::Query,
    pub(super) corners: &'a mut Vec<Corner>,
}

/// One step's scratch (see the module docs). Built by [`Stage::for_step`]; run with the
/// step's parameters by [`Stage::run`].
#[derive(Debug)]
pub(super) enum Stage {
    Shortcut(Shortcutter),
    /// Chaikin, Catmull-Rom and resampling: the map-safe smoother.
    MapSafe(MapSafe),
    // The large stages are boxed, so that a list of stages is not as wide as the widest.
    Funnel(Box<NavMeshQuery>),
    Relax(Box<RelaxStage>),
    Corridor {
        smoother: Box<CorridorSmoother>,
        /// The corridor of the stage's last run (kept for its memory), and whether that run
        /// is the pipeline's last.
        last: Option<CorridorPath>,
        ran: bool,
    },
    Fillet {
        filleter: Filleter,
        /// The curve and corners of the stage's last run (kept for their memory), and
        /// whether that run is the pipeline's last.
        last: Option<Filleted>,
        ran: bool,
    },
}

impl Stage {
    /// Empty scratch for `step`.
    pub(super) fn for_step(step: &Step) -> Self {
        match step {
            Step::Shortcut => Stage::Shortcut(Shortcutter::new()),
            Step::Chaikin(_) | Step::CatmullRom(_) | Step::Resample { .. } => {
                Stage::MapSafe(MapSafe::new())
            }
            Step::Funnel => Stage::Funnel(Box::default()),
            Step::Relax(_) => Stage::Relax(Box::default()),
            Step::Corridor(_) => Stage::Corridor {
                smoother: Box::default(),
                last: None,
                ran: false,
            },
            Step::Fillet(_) => Stage::Fillet {
                filleter: Filleter::new(),
                last: None,
                ran: false,
            },
        }
    }

    /// Forgets the last run's corridor or curve (a run that does not reach this stage must
    /// not show the one before).
    pub(super) fn forget(&mut self) {
        match self {
            Stage::Corridor { ran, .. } | Stage::Fillet { ran, .. } => *ran = false,
            _ => {}
        }
    }

    /// The corridor this stage made in the last run, if it is a corridor stage that ran.
    pub(super) fn last_corridor(&self) -> Option<&CorridorPath> {
        match self {
            Stage::Corridor {
                last: Some(plan),
                ran: true,
                ..
            } => Some(plan),
            _ => None,
        }
    }

    /// The exact curve this stage made in the last run, if it is a fillet stage that ran.
    pub(super) fn last_curve(&self) -> Option<&ExactCurve> {
        match self {
            Stage::Fillet {
                last: Some(done),
                ran: true,
                ..
            } => Some(&done.curve),
            _ => None,
        }
    }

    /// Carries out `step` (the step this stage was made for) on `input`, a path valid for
    /// the context's radius, writing its result into `out`.
    pub(super) fn run<W: World>(
        &mut self,
        step: &Step,
        cx: &mut Context<'_, W>,
        input: &[DVec2],
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        let (world, radius) = (cx.world, cx.radius);
        // A one-point path (a plan from a point to itself) has no channel to re-route
        // through and nothing to optimise: it stays one point.
        if input.len() < 2 && matches!(step, Step::Funnel | Step::Relax(_) | Step::Corridor(_)) {
            out.clear();
            out.extend_from_slice(input);
            return Ok(());
        }
        let (start, goal) = (input[0], input[input.len() - 1]);
        match (step, self) {
            (Step::Shortcut, Stage::Shortcut(s)) => s.shortcut_into(world, input, radius, out),
            (Step::Chaikin(params), Stage::MapSafe(m)) => {
                m.chaikin_into(world, input, radius, params, out)
            }
            (Step::CatmullRom(params), Stage::MapSafe(m)) => m.smooth_into(
                world,
                input,
                radius,
                |p, o| catmull_rom_into(p, params, o),
                out,
            ),
            (&Step::Resample { spacing }, Stage::MapSafe(m)) => m.smooth_into(
                world,
                input,
                radius,
                |p, o| resample_into(p, spacing, o),
                out,
            ),
            // The navmesh query's path (exact at radius 0; with a radius, the funnel through
            // a channel wide enough, checked against the world). With area costs on a
            // navmesh whose triangles have areas, the world's own plan: the cheaper of the
            // cheapest channel's funnel and the shortest path.
            (Step::Funnel, Stage::Funnel(query)) => {
                let mesh = world.navmesh()?;
                match world.cost_filter().filter(|_| mesh.has_areas()) {
                    Some(_) => world.find_path_into(start, goal, radius, cx.query, out),
                    None => path_on_mesh(world, mesh, None, query, start, goal, radius, out),
                }
            }
            (Step::Relax(params), Stage::Relax(relax)) => {
                relax.run(world, params, radius, cx.query, start, goal, out)
            }
            (
                Step::Fillet(params),
                Stage::Fillet {
                    filleter,
                    last,
                    ran,
                },
            ) => {
                let done = match last {
                    Some(done) => {
                        filleter.fillet_into(world, input, radius, params, done)?;
                        done
                    }
                    None => last.insert(filleter.fillet(world, input, radius, params)?),
                };
                *ran = true;
                done.curve.to_polyline_into(params.chord_error, out)?;
                cx.corners.extend_from_slice(&done.corners);
                Ok(())
            }
            (
                Step::Corridor(params),
                Stage::Corridor {
                    smoother,
                    last,
                    ran,
                },
            ) => {
                let plan = match last {
                    Some(plan) => {
                        smoother.smooth_along_into(world, input, radius, params, plan)?;
                        plan
                    }
                    None => last.insert(smoother.smooth_along(world, input, radius, params)?),
                };
                *ran = true;
                out.clear();
                out.extend_from_slice(&plan.path);
                Ok(())
            }
            (step, stage) => unreachable!("stage {stage:?} was not made for step {step:?}"),
        }
    }
}
