//! The playground's worlds: the ones on offer (the embedded examples and maps given by the
//! shell) and the maps uploaded lately, kept ready for the next request on the same text.
//! The handlers ([`grid`](crate::grid), [`plan`](crate::plan), [`crowd`](crate::crowd)) read
//! it; the server wraps it with its clients, workers and memory budget, the WebAssembly
//! worker holds one for the page's life.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use glam::IVec2;
use pathsmooth::{GridMap, GridWorld};

use crate::areas::grid_area_costs;
use crate::demo_map::{DEMO_FROM, DEMO_MAP, DEMO_TO};
use crate::error::{quote, ApiError, PAYLOAD_TOO_LARGE};
use crate::limits::{self, declared_size};

/// The embedded example world: its name in the API and its `.map` text (the map `demo`
/// embeds), with the demo's start and goal cells.
pub const EXAMPLE_WORLD: (&str, &str) = ("demo", DEMO_MAP);

/// The name of the embedded example with areas: the demo map with seeded swamp and water
/// discs ([`swamp_demo_map`]), the same start and goal.
pub const SWAMP_WORLD: &str = "demo-swamp";

/// The demo map with swamp (`S`) and water (`W`) painted on its free cells: discs of radius
/// 2–6 cells at places drawn by a fixed-seed xorshift generator, two of swamp for one of
/// water, none within 6 cells of the demo's start or goal. Deterministic: the same map on
/// every run (a test checks that the start still reaches the goal with water excluded).
pub fn swamp_demo_map() -> String {
    let text = DEMO_MAP;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let Some(first_row) = lines.iter().position(|l| l.trim() == "map").map(|i| i + 1) else {
        return text.to_string();
    };
    let (height, width) = (lines.len() - first_row, lines[first_row].len());
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as i32
    };
    let ends = [DEMO_FROM, DEMO_TO];
    let mut rows: Vec<Vec<u8>> = lines[first_row..]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect();
    for disc in 0..18 {
        let (cx, cy, r) = (next(width), next(height), 2 + next(5));
        let letter = if disc % 3 == 2 { b'W' } else { b'S' };
        for y in (cy - r).max(0)..=(cy + r).min(height as i32 - 1) {
            for x in (cx - r).max(0)..=(cx + r).min(width as i32 - 1) {
                let near_end = ends
                    .iter()
                    .any(|e| (e.x - x).abs().max((e.y - y).abs()) <= 6);
                let inside = (x - cx).pow(2) + (y - cy).pow(2) <= r * r;
                let cell = &mut rows[y as usize][x as usize];
                if inside && !near_end && *cell == b'.' {
                    *cell = letter;
                }
            }
        }
    }
    for (line, row) in lines[first_row..].iter_mut().zip(rows) {
        *line = String::from_utf8_lossy(&row).into_owned();
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// A world on offer, built once (its distance field and, on first use, its navmesh and
/// corridor map are shared by every request).
pub struct Named {
    /// Its name in the API.
    pub name: String,
    /// The world.
    pub world: Arc<GridWorld>,
    /// A suggested start cell, for the examples.
    pub start: Option<IVec2>,
    /// A suggested goal cell.
    pub goal: Option<IVec2>,
}

/// An uploaded map kept ready: its text, its world, and what the shell keeps with it (the
/// server: the memory reserved for the world; the worker: nothing).
type Cached<H> = (Arc<str>, Arc<GridWorld>, H);

/// The playground's state: the worlds on offer, the default area costs, the last uploaded
/// maps (at most [`limits::CACHED_MAPS`]), each with an `H`: what the shell keeps with it
/// (the server: the memory reserved for its world; the worker: nothing).
pub struct Playground<H = ()> {
    worlds: Vec<Named>,
    /// The area costs of requests that give none (`serve --area-costs`), checked.
    area_costs: Option<String>,
    /// Recently uploaded maps by their text, newest last.
    cache: Mutex<VecDeque<Cached<H>>>,
}

impl<H> Playground<H> {
    /// The embedded examples (`demo` first, `demo-swamp` last) and `maps` between them,
    /// each named by its name, made unique with ` (2)`, ` (3)`… Errors: building an
    /// example's world (none: they are tested).
    pub fn new(maps: Vec<(String, GridWorld)>) -> pathsmooth::Result<Self> {
        let (name, text) = EXAMPLE_WORLD;
        let mut worlds = vec![Named {
            name: name.to_string(),
            world: Arc::new(GridWorld::new(GridMap::parse(text, "example map")?)?),
            start: Some(DEMO_FROM),
            goal: Some(DEMO_TO),
        }];
        for (base, world) in maps {
            let mut name = base.clone();
            let mut n = 1;
            while worlds.iter().any(|w| w.name == name) || name == SWAMP_WORLD {
                n += 1;
                name = format!("{base} ({n})");
            }
            worlds.push(Named {
                name,
                world: Arc::new(world),
                start: None,
                goal: None,
            });
        }
        // The example with areas comes last, so that the maps given keep their places.
        worlds.push(Named {
            name: SWAMP_WORLD.to_string(),
            world: Arc::new(GridWorld::new(GridMap::parse(
                &swamp_demo_map(),
                "example map with swamp and water",
            )?)?),
            start: Some(DEMO_FROM),
            goal: Some(DEMO_TO),
        });
        Ok(Playground {
            worlds,
            area_costs: None,
            cache: Mutex::new(VecDeque::new()),
        })
    }

    /// The same playground with `spec` (`AREA=COST,...`, as `--area-costs`) as the area
    /// costs of plan requests that give none. Errors: the spec's, as the CLI reports them.
    pub fn with_area_costs(mut self, spec: Option<&str>) -> pathsmooth::Result<Self> {
        if let Some(spec) = spec {
            grid_area_costs(spec)?;
        }
        self.area_costs = spec.map(str::to_string);
        Ok(self)
    }

    /// The worlds on offer, in the order `GET /api/worlds` lists them.
    pub fn worlds(&self) -> &[Named] {
        &self.worlds
    }

    /// The area costs of requests that give none.
    pub fn area_costs(&self) -> Option<&str> {
        self.area_costs.as_deref()
    }

    /// The world on offer called `name`, else a 404 naming the known ones.
    pub fn named(&self, name: &str) -> Result<&Named, ApiError> {
        self.worlds.iter().find(|w| w.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.worlds.iter().map(|w| w.name.as_str()).collect();
            ApiError::new(
                crate::error::NOT_FOUND,
                format!(
                    "unknown world {} (known: {})",
                    quote(name),
                    known.join(", ")
                ),
            )
        })
    }

    /// The kept world of a map's text, if it is kept.
    pub fn cached(&self, text: &str) -> Option<Arc<GridWorld>> {
        let cache = self.lock_cache();
        cache
            .iter()
            .find(|(t, _, _)| &**t == text)
            .map(|(_, w, _)| w.clone())
    }

    /// Drops the oldest kept world (and its `H`); false when none is kept.
    pub fn drop_oldest(&self) -> bool {
        self.lock_cache().pop_front().is_some()
    }

    /// The world for a map's text: the one `source` holds, one kept meanwhile, or parsed
    /// after its header's size is checked and then kept with `source`'s `H`. (The server
    /// runs this on a blocking worker: parsing builds the distance field.)
    pub fn world_for_text(
        &self,
        text: &str,
        source: WorldSource<H>,
    ) -> Result<Arc<GridWorld>, ApiError> {
        let WorldSource { kept, hold } = source;
        if let Some(w) = kept.or_else(|| self.cached(text)) {
            return Ok(w);
        }
        map_cells(text)?;
        let map = GridMap::parse(text, "map").map_err(ApiError::bad_request)?;
        let world = Arc::new(GridWorld::new(map).map_err(ApiError::bad_request)?);
        let mut cache = self.lock_cache();
        cache.push_back((Arc::from(text), world.clone(), hold));
        while cache.len() > limits::CACHED_MAPS {
            cache.pop_front();
        }
        Ok(world)
    }

    fn lock_cache(&self) -> MutexGuard<'_, VecDeque<Cached<H>>> {
        // A panic while holding the lock leaves a consistent cache: keep using it.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The size (width, height) of the world a request names (`world`, on offer, or `map`,
    /// a file's text: its header's, `None` when the header does not say), for the checks
    /// and estimates made before any work; errors as [`world_for`](Self::world_for), and a
    /// 413 for a map's text declaring more than [`limits::MAX_MAP_SIDE`].
    pub fn size_for(
        &self,
        world: Option<&str>,
        map: Option<&str>,
    ) -> Result<Option<(usize, usize)>, ApiError> {
        match (world, map) {
            (Some(name), None) => {
                let m = self.named(name)?.world.map();
                Ok(Some((m.width(), m.height())))
            }
            (None, Some(text)) => {
                map_cells(text)?;
                Ok(declared_size(text))
            }
            // Neither or both: the same error as `world_for`.
            (None, None) | (Some(_), Some(_)) => Err(which_world(world, map)),
        }
    }

    /// The world a plan request names: `world` (on offer) or `map` (a file's text, whose
    /// world comes from `source`, see [`WorldSource`]).
    pub fn world_for(
        &self,
        world: Option<&str>,
        map: Option<&str>,
        source: WorldSource<H>,
    ) -> Result<Arc<GridWorld>, ApiError> {
        match (world, map) {
            (Some(name), None) => Ok(self.named(name)?.world.clone()),
            (None, Some(text)) => self.world_for_text(text, source),
            _ => Err(which_world(world, map)),
        }
    }
}

/// The 400 of a request naming neither a world nor a map, or both.
fn which_world(world: Option<&str>, map: Option<&str>) -> ApiError {
    if world.is_some() && map.is_some() {
        ApiError::bad_request("give `world` or `map`, not both")
    } else {
        ApiError::bad_request(
            "give `world` (a name from GET /api/worlds) or `map` (a .map file's text)",
        )
    }
}

/// Where a request's world from a map's text comes from: a kept world the request holds
/// (so that a request short of memory cannot drop it from under this one), or the `H` to
/// keep with the world once it is built (the server: the memory reserved for it).
#[derive(Default)]
pub struct WorldSource<H = ()> {
    /// The kept world, held by the request.
    pub kept: Option<Arc<GridWorld>>,
    /// Or what is kept with the world once built.
    pub hold: H,
}

/// The cells of a map's text: its header's width × height (a 413 past
/// [`limits::MAX_MAP_SIDE`]), or 0 when the header does not say: the library's parser
/// then refuses the text at its header, before it allocates a grid.
pub fn map_cells(text: &str) -> Result<usize, ApiError> {
    match declared_size(text) {
        Some((w, h)) if w > limits::MAX_MAP_SIDE || h > limits::MAX_MAP_SIDE => {
            Err(ApiError::new(
                PAYLOAD_TOO_LARGE,
                format!(
                    "map too large: its header declares {w}×{h} cells; the playground takes at most {m}×{m}",
                    m = limits::MAX_MAP_SIDE
                ),
            ))
        }
        Some((w, h)) => Ok(w * h),
        None => Ok(0),
    }
}
