//! The embedded demo map and its start and goal: what `pathsmooth demo` plans on, and the
//! playground's first example world. It lives here, below both, because the playground
//! (served or in a Web Worker) and the CLI's `demo` use it.

use glam::IVec2;

/// The embedded default map, made by the project: `crates/pathsmooth-cli/assets/demo.map`,
/// written by the CLI's generator in `src/cmd/demo/map.rs` (rooms, a corridor, diagonal
/// walls, an open park; 80×80).
pub const DEMO_MAP: &str = include_str!("../../pathsmooth-cli/assets/demo.map");

/// The demo's start cell: the top-left room of the building in the north-west.
pub const DEMO_FROM: IVec2 = IVec2::new(5, 5);
/// The demo's goal cell: the south-west corner of the park.
pub const DEMO_TO: IVec2 = IVec2::new(5, 74);
