//! The embedded demo map and its start and goal: what `pathsmooth demo` plans on, and the
//! playground's first example world. It lives here, not in `cmd/demo.rs`, because the
//! playground (`serve`) uses it too, and the `serve` command imports the playground.

use glam::IVec2;

/// The embedded default map, made by the project: `assets/demo.map`, written by the
/// generator in `src/cmd/demo/map.rs` (rooms, a corridor, diagonal walls, an open park;
/// 80×80).
pub const DEMO_MAP: &str = include_str!("../assets/demo.map");

/// The demo's start cell: the top-left room of the building in the north-west.
pub const DEMO_FROM: IVec2 = IVec2::new(5, 5);
/// The demo's goal cell: the south-west corner of the park.
pub const DEMO_TO: IVec2 = IVec2::new(5, 74);
