//! Crowds: agents that walk, change their goals and re-plan while the world changes.
//!
//! A game with a thousand agents cannot smooth a thousand paths from scratch every time
//! an agent moves. Mononen's Detour keeps a **path corridor** per agent
//! (`dtPathCorridor` in Recast & Detour's `DetourCrowd`): the start moves as the agent
//! walks, the target moves with a moving goal, only the next few corners are
//! string-pulled, and an invalid corridor is repaired locally. [`AgentPath`] is that
//! idea over a *smooth* path instead of a list of polygons: it keeps the path from the
//! agent's position to its target that a [`Pipeline`](crate::Pipeline) planned, and
//! updates it with the least work that keeps it valid for the pipeline's radius.
//!
//! The heavy scratch (the world's search, the steps' buffers) is the pipeline's, one per
//! thread as Detour's `dtNavMeshQuery` is; an agent path owns only its path and one spare
//! buffer, so many agent paths can be updated on many threads, each thread with its own
//! pipeline, with results that do not depend on the thread (nothing in an agent path's update
//! reads another agent path or any shared mutable state).
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::crowd::{Moved, AgentPath};
//! use pathsmooth::{GridMap, GridWorld, Pipeline, Preset};
//! let world = GridWorld::new(GridMap::from_rows(&["........", "..@@@@..", "........"])?)?;
//! let mut pipeline = Pipeline::preset(&world, 0.0, Preset::Shortest)?;
//! let mut agent_path = AgentPath::new(&mut pipeline, DVec2::new(0.5, 1.5), DVec2::new(7.5, 1.5))?;
//! // The agent steers towards a point one unit ahead, and walks there.
//! let p = agent_path.steering_point(1.0);
//! assert_ne!(agent_path.move_position(&mut pipeline, p)?, Moved::Replanned);
//! assert_eq!(agent_path.position(), p);
//! assert!(agent_path.is_valid(&pipeline));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

mod agent_path;
mod agents;
mod avoid;
#[cfg(feature = "rayon")]
mod batch;
mod moving;
mod pace;

pub use agent_path::{AgentPath, Moved, Repair, Retargeted, MAX_PULL};
pub use agents::{
    AgentIndex, Crowd, CrowdAgent, CrowdFrame, LinkCrossing, DEFAULT_AGENT_HEIGHT, LINK_TRIGGER,
    MAX_RADII, MAX_THREADS,
};
pub use avoid::Avoidance;
#[cfg(feature = "rayon")]
#[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
pub use batch::{update_batch, AgentMove, Updated};
pub use moving::{MovingId, MovingObstacle, MAX_MOVING};
