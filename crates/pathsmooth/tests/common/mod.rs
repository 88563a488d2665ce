//! The integration tests' one shared module, declared by the two test binaries' roots
//! (`tests/suite.rs`, `tests/alloc.rs`): each test file takes what it needs with
//! `use crate::common;` (the benches reach it through `benches/support`).
//!
//! - [`maps`] (re-exported here): where the Moving AI data lives, the DEV maps, loading
//!   them, the loop over them ([`real_maps`]) and how many scenarios a sweep runs.
//! - [`areas`]: seeded swamp and water on a map, an exact cost integral and Dijkstra.
//! - [`rng`]: the one seeded generator, for reproducible input outside proptest.
//! - [`grids`]: the one random-map strategy (proptest) and scenes on it.
//! - [`oracle`]: brute-force clearance on a grid map, independent of the library.
//! - [`exact`]: an exact (rational arithmetic) clearance check of a path on a grid map.
//! - [`corridor_ref`]: random corridors and clarabel's exact optimum of a corridor problem.
//! - [`polyanya_mesh`]: the `polyanya` crate's mesh from a pathsmooth navmesh.
//! - [`surface_oracle`]: walks, wall distances and exact shortest paths on layered surfaces.
//! - [`counting_alloc`]: the counting global allocator of the "allocates nothing" tests.
//! - [`paths`]: paths from the source articles (the Terrator article's 15 points).
//! - [`abuse`]: adversarial import layouts of n polygons (stacked floors, strips, fans,
//!   grids, grids of holes) for the import's growth test and the scale bench.
//! - [`fixtures`]: small fixtures the library's unit tests share (three squares in a row,
//!   the obstacles no world takes).
//! - [`plane`]: a ring's area and convex clipping, for the oracles.
#![allow(dead_code)]

pub mod abuse;
pub mod areas;
pub mod corridor_ref;
pub mod counting_alloc;
pub mod exact;
pub mod fixtures;
pub mod grids;
pub mod maps;
pub mod oracle;
pub mod paths;
pub mod plane;
pub mod polyanya_mesh;
pub mod rng;
pub mod surface_oracle;

// For `abuse` and `fixtures`, which the library's unit tests include as well (they have
// their own).
use pathsmooth::navmesh::Scene;
use pathsmooth::world::Obstacle;

// Unused in the test binaries that need no map.
#[allow(unused_imports)]
pub use maps::*;
