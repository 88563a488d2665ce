//! The pipeline on a world chosen at run time.

use std::sync::Arc;

use super::{Pipeline, PipelineReport, Step};
use crate::error::Result;
use crate::geometry::Point2;
use crate::validate::ValidationReport;
use crate::world::{GridWorld, SurfaceWorld};

/// The one [`Pipeline`] on the world a program picks at run time: a grid, or a navmesh
/// (flat or layered: the one navmesh world, [`SurfaceWorld`]). A program that loads "a
/// map or a navmesh" from a file or a user (a binding, a tool, a level loader) holds one of
/// these instead of a type parameter; each call is one `match` on the two instances of
/// the generic pipeline. The npm package and the Python package hold one per `Pipeline`.
///
/// What only a navmesh's pipeline does (3D ends, [`Pipeline::plan_surface`]; the climb)
/// is reached through [`navmesh_mut`](Self::navmesh_mut).
///
/// ```
/// use std::sync::Arc;
/// use glam::DVec2;
/// use pathsmooth::navmesh::NavMesh;
/// use pathsmooth::{AnyPipeline, GridMap, GridWorld, Pipeline, Preset, SurfaceWorld};
/// // A file that is a grid map, or a navmesh: the same calls on either.
/// let grid = Arc::new(GridWorld::new(GridMap::from_rows(&["....", "....", "...."])?)?);
/// let v = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 3.0), DVec2::new(0.0, 3.0)];
/// let navmesh = SurfaceWorld::from_navmesh(&NavMesh::from_polygons(&v, &[vec![0, 1, 2, 3]])?)?;
/// let mut pipelines = [
///     AnyPipeline::from(Pipeline::preset(grid, 0.2, Preset::Shortest)?),
///     AnyPipeline::from(Pipeline::preset(navmesh, 0.2, Preset::Shortest)?),
/// ];
/// for p in &mut pipelines {
///     let path = p.plan(DVec2::new(0.5, 0.5), DVec2::new(3.5, 2.5))?;
///     assert_eq!(path, [DVec2::new(0.5, 0.5), DVec2::new(3.5, 2.5)]);
///     assert!(p.report().validation.min_clearance >= 0.2);
/// }
/// assert!(pipelines[0].navmesh_mut().is_none() && pipelines[1].navmesh_mut().is_some());
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug)]
pub enum AnyPipeline {
    /// On a grid (shared, so that many pipelines plan on one).
    Grid(Pipeline<Arc<GridWorld>>),
    /// On a navmesh, flat or layered (the pipeline owns its world: on a mesh with floors
    /// over one another each plan cuts the sheet round its path).
    NavMesh(Pipeline<SurfaceWorld>),
}

/// `$call` on the pipeline inside, whichever its world (`p` names it).
macro_rules! each {
    ($pipeline:expr, |$p:ident| $call:expr) => {
        match $pipeline {
            AnyPipeline::Grid($p) => $call,
            AnyPipeline::NavMesh($p) => $call,
        }
    };
}

impl AnyPipeline {
    /// The agent radius in effect ([`Pipeline::radius`]).
    pub fn radius(&self) -> f64 {
        each!(self, |p| p.radius())
    }

    /// The steps, in order ([`Pipeline::steps`]).
    pub fn steps(&self) -> &[Step] {
        each!(self, |p| p.steps())
    }

    /// What the last run did ([`Pipeline::report`]).
    pub fn report(&self) -> &PipelineReport {
        each!(self, |p| p.report())
    }

    /// A path from `start` to `goal`, found and smoothed ([`Pipeline::plan`]: on a
    /// navmesh, each end on the one floor under it, the path in plan view).
    pub fn plan<P: Point2>(&mut self, start: P, goal: P) -> Result<Vec<P>> {
        each!(self, |p| p.plan(start, goal))
    }

    /// [`plan`](Self::plan) into `out` ([`Pipeline::plan_into`]).
    pub fn plan_into<P: Point2>(&mut self, start: P, goal: P, out: &mut Vec<P>) -> Result<()> {
        each!(self, |p| p.plan_into(start, goal, out))
    }

    /// `path` smoothed into a path valid on the world ([`Pipeline::smooth`]).
    pub fn smooth<P: Point2>(&mut self, path: &[P]) -> Result<Vec<P>> {
        each!(self, |p| p.smooth(path))
    }

    /// [`smooth`](Self::smooth) into `out` ([`Pipeline::smooth_into`]).
    pub fn smooth_into<P: Point2>(&mut self, path: &[P], out: &mut Vec<P>) -> Result<()> {
        each!(self, |p| p.smooth_into(path, out))
    }

    /// `path` checked on the world for the radius ([`Pipeline::validate`]).
    pub fn validate<P: Point2>(&self, path: &[P]) -> Result<ValidationReport> {
        each!(self, |p| p.validate(path))
    }

    /// The navmesh's pipeline, `None` on a grid.
    pub fn navmesh(&self) -> Option<&Pipeline<SurfaceWorld>> {
        match self {
            AnyPipeline::NavMesh(p) => Some(p),
            AnyPipeline::Grid(_) => None,
        }
    }

    /// The navmesh's pipeline, `None` on a grid: its 3D plans
    /// ([`Pipeline::plan_surface`]) and its query's settings
    /// ([`Pipeline::surface_query_mut`]).
    pub fn navmesh_mut(&mut self) -> Option<&mut Pipeline<SurfaceWorld>> {
        match self {
            AnyPipeline::NavMesh(p) => Some(p),
            AnyPipeline::Grid(_) => None,
        }
    }
}

impl From<Pipeline<Arc<GridWorld>>> for AnyPipeline {
    fn from(p: Pipeline<Arc<GridWorld>>) -> Self {
        AnyPipeline::Grid(p)
    }
}

impl From<Pipeline<SurfaceWorld>> for AnyPipeline {
    fn from(p: Pipeline<SurfaceWorld>) -> Self {
        AnyPipeline::NavMesh(p)
    }
}
