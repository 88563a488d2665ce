//! Grid worlds: Moving AI maps and scenarios, A*, exact line of sight and clearance.

pub mod astar;
pub(crate) mod cost;
pub mod distance;
pub mod los;
pub mod map;
mod open_list;

pub use map::{
    check_scenario, load_scenarios, parse_point_scenarios, parse_scenarios, GridMap, PointScenario,
    Scenario,
};
