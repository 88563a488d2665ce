//! The playground's API without a server: its requests, answers and handlers as plain
//! functions over a [`Playground`] (the worlds on offer and the maps uploaded lately). Two
//! thin shells serve it: `pathsmooth serve` (HTTP, with its per-client limits, workers,
//! memory budget and deadlines between the phases of a request), and the static
//! playground's Web Worker (`pathsmooth-playground-wasm`: [`route::request`], one request
//! at a time, cancelled by ending the worker).
//!
//! - [`route`]: one request by method and path, answered in one go;
//! - [`grid`]: the worlds on offer, their cells, uploaded maps and scenarios, the methods;
//! - [`plan`]: A* then one pipeline per method (`POST /api/plan`);
//! - [`layered`]: layered navmeshes and paths on them (`POST /api/layered`);
//! - [`crowd`]: a crowd simulated on a world on offer, as frames (`POST /api/crowd`);
//! - [`live`]: the same crowd simulated a few frames at a time, sent where the player
//!   clicks (the static playground's worker holds one);
//! - [`world`]: the playground's state;
//! - [`methods`], [`compare`], [`areas`]: the grid methods, their comparison and the area
//!   costs, shared with the CLI's `plan`, `bench` and `demo`;
//! - [`limits`]: what one request may ask for; [`error`]: the one error, [`ApiError`].
//!
//! Nothing here blocks on I/O or spawns threads: it runs as well on
//! `wasm32-unknown-unknown` (timings through `web-time`). Work that may be long takes a
//! [`Cancel`](pathsmooth::Cancel) and stops at its next check when it is cancelled.

pub mod areas;
pub mod compare;
pub mod crowd;
pub mod demo_map;
pub mod error;
pub mod grid;
pub mod layered;
pub mod limits;
pub mod live;
pub mod methods;
pub mod plan;
pub mod route;
pub mod world;

pub use error::ApiError;
pub use world::Playground;
