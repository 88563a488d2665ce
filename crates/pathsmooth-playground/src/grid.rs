//! The grids: the worlds on offer (`GET /api/worlds`), one world's cells
//! (`GET /api/worlds/{name}`), a `.map` file's cells (`POST /api/map`), a `.map.scen` file's
//! scenarios (`POST /api/scenarios`) and the method names (`GET /api/methods`).

use pathsmooth::area::{SWAMP, WATER};
use pathsmooth::grid::parse_scenarios;
use pathsmooth::{AreaId, GridWorld};
use serde::{Deserialize, Serialize};

use crate::error::{encode, ApiError};
use crate::limits;
use crate::methods::MapMethod;
use crate::world::{Playground, WorldSource};

/// Methods the page turns on when it opens.
pub const DEFAULT_METHODS: [MapMethod; 4] = [
    MapMethod::Astar,
    MapMethod::ShortcutChaikin,
    MapMethod::ShortcutCatmullRom,
    MapMethod::Corridor,
];

#[derive(Serialize)]
struct WorldInfo {
    name: String,
    width: usize,
    height: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<[i32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<[i32; 2]>,
}

/// A world's cells for drawing: rows of `.` (free) and `@` (blocked); for a map with
/// swamp or water, its areas too.
#[derive(Serialize)]
struct Grid {
    name: String,
    width: usize,
    height: usize,
    rows: Vec<String>,
    /// Rows of each cell's area: `.` ground, `S` swamp, `W` water (blocked unless the
    /// area costs give it a cost), `@` wall; absent when the map has neither swamp nor
    /// water.
    #[serde(skip_serializing_if = "Option::is_none")]
    areas: Option<Vec<String>>,
}

/// The letter the playground draws for area `a` of a cell (`passable` or not).
fn area_letter(a: AreaId, passable: bool) -> char {
    match a {
        SWAMP | WATER => a as char,
        _ if passable => '.',
        _ => '@',
    }
}

impl Grid {
    /// The cells of `world`, called `name`.
    pub fn of(name: &str, world: &GridWorld) -> Grid {
        let map = world.map();
        let rows = (0..map.height() as i64)
            .map(|y| {
                (0..map.width() as i64)
                    .map(|x| if map.is_passable(x, y) { '.' } else { '@' })
                    .collect()
            })
            .collect();
        let areas = map.areas().map(|_| {
            (0..map.height())
                .map(|y| {
                    (0..map.width())
                        .map(|x| area_letter(map.area(x, y), map.is_passable(x as i64, y as i64)))
                        .collect()
                })
                .collect()
        });
        Grid {
            name: name.to_string(),
            width: map.width(),
            height: map.height(),
            rows,
            areas,
        }
    }
}

/// `GET /api/worlds`: the worlds on offer (name, size, suggested ends) and the default
/// area costs.
pub fn worlds<H>(p: &Playground<H>) -> Result<Vec<u8>, ApiError> {
    let list: Vec<WorldInfo> = p
        .worlds()
        .iter()
        .map(|w| WorldInfo {
            name: w.name.clone(),
            width: w.world.map().width(),
            height: w.world.map().height(),
            start: w.start.map(|c| c.to_array()),
            goal: w.goal.map(|c| c.to_array()),
        })
        .collect();
    encode(&serde_json::json!({ "worlds": list, "area_costs": p.area_costs() }))
}

/// `GET /api/worlds/{name}`: a world's cells; a 404 for a name not on offer.
pub fn world_grid<H>(p: &Playground<H>, name: &str) -> Result<Vec<u8>, ApiError> {
    let w = p.named(name)?;
    encode(&Grid::of(&w.name, &w.world))
}

/// `GET /api/methods`: every method name, and the ones the page turns on at first.
pub fn methods() -> Result<Vec<u8>, ApiError> {
    let all: Vec<&str> = MapMethod::ALL.iter().map(|m| m.name()).collect();
    let on: Vec<&str> = DEFAULT_METHODS.iter().map(|m| m.name()).collect();
    encode(&serde_json::json!({ "methods": all, "default": on }))
}

/// The body of `POST /api/map`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapRequest {
    /// A `.map` file's text.
    pub map: String,
    /// The name the answer gives it (default `uploaded map`).
    #[serde(default)]
    pub name: Option<String>,
}

/// `POST /api/map`: a `.map` file's cells, checked by the library's parser; its world is
/// kept (see [`Playground::world_for_text`]) for the plans on it that follow.
pub fn upload_map<H>(
    p: &Playground<H>,
    req: &MapRequest,
    source: WorldSource<H>,
) -> Result<Vec<u8>, ApiError> {
    let world = p.world_for_text(&req.map, source)?;
    encode(&Grid::of(
        req.name.as_deref().unwrap_or("uploaded map"),
        &world,
    ))
}

/// The body of `POST /api/scenarios`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenRequest {
    /// A `.map.scen` file's text.
    pub scen: String,
}

#[derive(Serialize)]
struct ScenOut {
    bucket: u32,
    start: [i32; 2],
    goal: [i32; 2],
    optimal: f64,
    map_width: usize,
    map_height: usize,
}

/// `POST /api/scenarios`: a `.map.scen` file's scenarios (the first
/// [`limits::MAX_SCENARIOS`]).
pub fn scenarios(req: &ScenRequest) -> Result<Vec<u8>, ApiError> {
    let text = first_scenarios(&req.scen, limits::MAX_SCENARIOS);
    let all = parse_scenarios(text, "scenario file").map_err(ApiError::bad_request)?;
    let list: Vec<ScenOut> = all
        .iter()
        .map(|s| ScenOut {
            bucket: s.bucket,
            start: s.start.to_array(),
            goal: s.goal.to_array(),
            optimal: s.optimal_length,
            map_width: s.map_width,
            map_height: s.map_height,
        })
        .collect();
    encode(&serde_json::json!({ "scenarios": list }))
}

/// `text` up to the end of the line of its `n`-th scenario (the first line, `version`, and
/// blank lines aside): what is answered, and all that is parsed, so that the parse of an
/// 8 MiB file (0.35 s in a test build, not interrupted) is not spent on scenarios that
/// are never sent.
fn first_scenarios(text: &str, n: usize) -> &str {
    let mut end = 0;
    let mut lines = 0;
    for line in text.split_inclusive('\n') {
        end += line.len();
        if !line.trim().is_empty() {
            lines += 1;
            if lines > n {
                break;
            }
        }
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_scenarios_answered_are_parsed() {
        let text = "version 1\n\na\nb\n\nc\nd";
        assert_eq!(first_scenarios(text, 2), "version 1\n\na\nb\n");
        assert_eq!(first_scenarios(text, 9), text);
        assert_eq!(first_scenarios("", 3), "");
    }
}
