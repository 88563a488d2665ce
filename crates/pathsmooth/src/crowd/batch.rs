//! Many agent paths in one frame, in parallel (issue 30, item 3).

use glam::DVec2;
use rayon::prelude::*;

use super::{AgentPath, Moved, Retargeted};
use crate::error::{Error, Result};
use crate::pipeline::{Pipeline, Step};
use crate::world::World;

/// One agent's frame: where it walked to, and its new target if the target moved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentMove {
    /// The agent's new position ([`AgentPath::move_position`]).
    pub position: DVec2,
    /// Its new target, if it moved ([`AgentPath::move_target`], after the position).
    pub target: Option<DVec2>,
}

/// What a batch update did to one agent path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Updated {
    /// What [`AgentPath::move_position`] did.
    pub moved: Moved,
    /// What [`AgentPath::move_target`] did, when the target moved.
    pub retargeted: Option<Retargeted>,
}

/// Updates every agent path for one frame on rayon's thread pool: agent path `i` moves to
/// `moves[i].position`, then to its new target if it has one. Each worker owns a
/// [`Pipeline`] on `world` with `radius` and `steps` (the per-thread scratch, as Detour's
/// crowd keeps one `dtNavMeshQuery` per thread); an agent path's update reads nothing but
/// the agent path, its move and the world, so the results are the same, bit for bit,
/// whatever the number of threads (run inside a `rayon::ThreadPool::install` to choose
/// it). Results are in input order; one agent's error (a position in a wall, an
/// unreachable target) is its own entry, and that agent path is left as the error leaves it
/// (unchanged, or stuck with the reason).
///
/// Errors (for the whole batch, before any agent path changes): [`Error::BadParameter`]
/// when `moves` and `paths` differ in length, and [`Pipeline::new`]'s for the world
/// and radius. Cost: the agent paths' updates, spread over the pool, plus one pipeline per
/// worker split (its buffers grow once). Needs the `rayon` feature.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::crowd::{update_batch, AgentMove, AgentPath};
/// use pathsmooth::{GridMap, GridWorld, Pipeline, Preset};
/// let world = GridWorld::new(GridMap::from_rows(&["........", "..@@@@..", "........"])?)?;
/// let steps = Preset::Smooth.steps();
/// let mut pipeline = Pipeline::new(&world, 0.0)?.with_steps(steps.clone());
/// let mut paths = vec![
///     AgentPath::new(&mut pipeline, DVec2::new(0.5, 1.5), DVec2::new(7.5, 1.5))?,
///     AgentPath::new(&mut pipeline, DVec2::new(7.5, 0.5), DVec2::new(0.5, 2.5))?,
/// ];
/// let moves: Vec<AgentMove> = paths
///     .iter()
///     .map(|c| AgentMove { position: c.steering_point(0.5), target: None })
///     .collect();
/// let done = update_batch(&world, 0.0, &steps, &mut paths, &moves)?;
/// assert!(done.iter().all(|u| u.is_ok()));
/// assert!(paths.iter().all(|c| c.is_valid(&pipeline)));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn update_batch<W: World + Sync>(
    world: &W,
    radius: f64,
    steps: &[Step],
    paths: &mut [AgentPath],
    moves: &[AgentMove],
) -> Result<Vec<Result<Updated>>> {
    if moves.len() != paths.len() {
        return Err(Error::param(
            "moves",
            moves.len() as f64,
            "one move per agent path",
        ));
    }
    // The world and radius once, so that a worker's own pipeline cannot fail.
    Pipeline::new(world, radius)?;
    let pipeline = || Pipeline::new(world, radius).map(|p| p.with_steps(steps.iter().cloned()));
    Ok(paths
        .par_iter_mut()
        .zip(moves.par_iter())
        .map_init(pipeline, |pipeline, (agent_path, m)| {
            let pipeline = pipeline.as_mut().map_err(|e| e.clone())?;
            let moved = agent_path.move_position(pipeline, m.position)?;
            let retargeted = match m.target {
                Some(t) => Some(agent_path.move_target(pipeline, t)?),
                None => None,
            };
            Ok(Updated { moved, retargeted })
        })
        .collect())
}
