//! Many corridors in one frame, in parallel (issue 30, item 3).

use glam::DVec2;
use rayon::prelude::*;

use super::{Moved, PathCorridor, Retargeted};
use crate::error::{Error, Result};
use crate::pipeline::{Pipeline, Step};
use crate::world::World;

/// One agent's frame: where it walked to, and its new target if the target moved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentMove {
    /// The agent's new position ([`PathCorridor::move_position`]).
    pub position: DVec2,
    /// Its new target, if it moved ([`PathCorridor::move_target`], after the position).
    pub target: Option<DVec2>,
}

/// What a batch update did to one corridor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Updated {
    /// What [`PathCorridor::move_position`] did.
    pub moved: Moved,
    /// What [`PathCorridor::move_target`] did, when the target moved.
    pub retargeted: Option<Retargeted>,
}

/// Updates every corridor for one frame on rayon's thread pool: corridor `i` moves to
/// `moves[i].position`, then to its new target if it has one. Each worker owns a
/// [`Pipeline`] on `world` with `radius` and `steps` (the per-thread scratch, as Detour's
/// crowd keeps one `dtNavMeshQuery` per thread); a corridor's update reads nothing but
/// the corridor, its move and the world, so the results are the same, bit for bit,
/// whatever the number of threads (run inside a `rayon::ThreadPool::install` to choose
/// it). Results are in input order; one agent's error (a position in a wall, an
/// unreachable target) is its own entry, and that corridor is left as the error leaves it
/// (unchanged, or stuck with the reason).
///
/// Errors (for the whole batch, before any corridor changes): [`Error::BadParameter`]
/// when `moves` and `corridors` differ in length, and [`Pipeline::new`]'s for the world
/// and radius. Cost: the corridors' updates, spread over the pool, plus one pipeline per
/// worker split (its buffers grow once). Needs the `rayon` feature.
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::crowd::{update_batch, AgentMove, PathCorridor};
/// use pathsmooth::{GridMap, GridWorld, Pipeline, Preset};
/// let world = GridWorld::new(GridMap::from_rows(&["........", "..@@@@..", "........"])?)?;
/// let steps = Preset::Smooth.steps();
/// let mut pipeline = Pipeline::new(&world, 0.0)?.with_steps(steps.clone());
/// let mut corridors = vec![
///     PathCorridor::new(&mut pipeline, DVec2::new(0.5, 1.5), DVec2::new(7.5, 1.5))?,
///     PathCorridor::new(&mut pipeline, DVec2::new(7.5, 0.5), DVec2::new(0.5, 2.5))?,
/// ];
/// let moves: Vec<AgentMove> = corridors
///     .iter()
///     .map(|c| AgentMove { position: c.steering_point(0.5), target: None })
///     .collect();
/// let done = update_batch(&world, 0.0, &steps, &mut corridors, &moves)?;
/// assert!(done.iter().all(|u| u.is_ok()));
/// assert!(corridors.iter().all(|c| c.is_valid(&pipeline)));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
pub fn update_batch<W: World + Sync>(
    world: &W,
    radius: f64,
    steps: &[Step],
    corridors: &mut [PathCorridor],
    moves: &[AgentMove],
) -> Result<Vec<Result<Updated>>> {
    if moves.len() != corridors.len() {
        return Err(Error::param(
            "moves",
            moves.len() as f64,
            "one move per corridor",
        ));
    }
    // The world and radius once, so that a worker's own pipeline cannot fail.
    Pipeline::new(world, radius)?;
    let pipeline = || Pipeline::new(world, radius).map(|p| p.with_steps(steps.iter().cloned()));
    Ok(corridors
        .par_iter_mut()
        .zip(moves.par_iter())
        .map_init(pipeline, |pipeline, (corridor, m)| {
            let pipeline = pipeline.as_mut().map_err(|e| e.clone())?;
            let moved = corridor.move_position(pipeline, m.position)?;
            let retargeted = match m.target {
                Some(t) => Some(corridor.move_target(pipeline, t)?),
                None => None,
            };
            Ok(Updated { moved, retargeted })
        })
        .collect())
}
