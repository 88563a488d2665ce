//! The crowd benchmark's scenario (issue 30), outside the library: a
//! [`Crowd`](pathsmooth::crowd::Crowd) on a grid world whose agents walk to random goals,
//! get new ones every few seconds, and meet doors that close and open
//! ([`CrowdScenario`], [`CrowdSimulation`], one frame's counts in [`SimFrame`]), and the
//! check that every agent's path is valid after every frame
//! ([`CrowdSimulation::check`], with the library's validator where a path changed).
//!
//! Also a crowd on an engine's navmesh as the bindings run one ([`EngineCrowd`]), and one
//! on a layered navmesh, floors over one another ([`LayeredCrowd`]).
//!
//! A dev crate of the pathsmooth workspace (not published): `pathsmooth crowd` runs it,
//! `benches/crowd.rs` times its frames and `tests/crowd_sim.rs` checks every path against
//! an oracle of its own. It uses only the library's public API.
//!
//! ```
//! use pathsmooth::{GridMap, GridWorld};
//! use pathsmooth_scenarios::{CrowdScenario, CrowdSimulation};
//! let world = GridWorld::new(GridMap::from_rows(&vec!["................"; 12])?)?;
//! let scenario = CrowdScenario { agents: 10, doors: 1, goal_range: 8.0, ..Default::default() };
//! let mut sim = CrowdSimulation::new(world, scenario)?;
//! sim.frame()?;
//! assert_eq!(sim.check(), 0);
//! # Ok::<(), pathsmooth::Error>(())
//! ```

mod apart;
mod engine;
mod layered;
mod scenario;
mod watch;

pub use engine::EngineCrowd;
pub use layered::LayeredCrowd;
pub use scenario::{CrowdScenario, CrowdSimulation, SimFrame, MAX_SCENARIO_AGENTS};
