//! The library's integration tests, one module per file beside this one (`tests/<name>.rs`),
//! built as one test binary: `tests/common` and the link happen once, and the harness runs
//! every file's tests in parallel. Run one file's tests with
//! `cargo test -p pathsmooth --all-features --test suite <name>::`.
//!
//! The "allocates nothing" tests, which install a counting global allocator, are the other
//! binary (`tests/alloc.rs`).

mod common;

mod architecture;
mod area_costs;
mod area_navmesh;
mod catmull_rom_props;
mod chaikin_props;
mod corridor_maps;
#[cfg(all(feature = "serde", feature = "rayon"))]
mod corridor_optimize;
mod corridor_quality;
mod crowd_agent_path;
mod crowd_agents;
mod crowd_avoidance;
#[cfg(feature = "rayon")]
mod crowd_batch;
mod crowd_floors;
mod crowd_obstacles;
mod crowd_push_out;
mod crowd_speed_profile;
mod fillet;
mod fillet_maps;
mod follow;
#[cfg(feature = "serde")]
mod fuzz_corpora;
mod grid_jump_points;
mod grid_real_maps;
mod map_safe;
mod maps;
#[cfg(feature = "serde")]
mod navmesh;
mod navmesh_bad_files;
mod navmesh_corpus;
mod navmesh_detail;
mod navmesh_detour;
mod navmesh_detour_links;
mod navmesh_godot;
mod navmesh_import;
mod navmesh_layered;
mod navmesh_link_routes;
mod navmesh_links;
mod navmesh_mesh_v3;
mod navmesh_obstacles;
mod navmesh_on_maps;
mod navmesh_one_world;
mod navmesh_recast_json;
mod navmesh_rerecast;
mod navmesh_surface;
mod navmesh_surface_bakes;
mod numeric_edges;
#[cfg(feature = "serde")]
mod pipeline;
mod pipeline_maps;
mod precision;
mod precision_maps;
mod readme;
mod relax_radius;
mod resample_variations_props;
mod segment_distance;
mod surface_obstacles;
mod validity_rule;
