//! The playground's state: the worlds on offer (the embedded examples and the maps given
//! with `--map`), the maps uploaded lately, the clients with requests in progress, the
//! workers and their lanes, and the memory budget.
//! The handlers ([`api`](super::api), [`layered`](super::layered)) and a request's
//! [`Work`](super::work::Work) share it, so it lives apart from the handlers, below them.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use axum::http::StatusCode;
use glam::IVec2;
use pathsmooth::{GridMap, GridWorld};
use tokio::time::Instant;

use super::budget::{self, Budget, Reservation};
use super::clients::Clients;
use super::error::{quote, ApiError};
use super::lanes::Lanes;
use super::limits::{self, declared_size};
use crate::areas::grid_area_costs;
use crate::demo_map::{DEMO_FROM, DEMO_MAP, DEMO_TO};

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
pub(super) struct Named {
    pub(super) name: String,
    pub(super) world: Arc<GridWorld>,
    pub(super) start: Option<IVec2>,
    pub(super) goal: Option<IVec2>,
}

/// An uploaded map kept ready: its text, its world, and the memory reserved for the world
/// while it is kept.
type Cached = (Arc<str>, Arc<GridWorld>, Reservation);

/// The server's state: the worlds on offer, the last uploaded maps, the clients, the
/// workers and the memory budget.
pub struct Playground {
    pub(super) worlds: Vec<Named>,
    /// The area costs of requests that give none (`serve --area-costs`), checked.
    pub(super) area_costs: Option<String>,
    /// Recently uploaded maps by their text, newest last.
    cache: Mutex<VecDeque<Cached>>,
    /// The requests in progress per client (see [`clients`](super::clients)).
    clients: Clients,
    /// The workers (one per core) and who may take them.
    lanes: Lanes,
    budget: Budget,
}

impl Playground {
    /// The embedded example plus the `.map` files given (named by file name).
    pub fn new(maps: &[String]) -> anyhow::Result<Self> {
        let (name, text) = EXAMPLE_WORLD;
        let mut worlds = vec![Named {
            name: name.to_string(),
            world: Arc::new(GridWorld::new(GridMap::parse(text, "example map")?)?),
            start: Some(DEMO_FROM),
            goal: Some(DEMO_TO),
        }];
        for file in maps {
            let world = GridWorld::new(GridMap::load(file)?).with_context(|| file.clone())?;
            let base = std::path::Path::new(file)
                .file_name()
                .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
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
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Ok(Playground {
            worlds,
            area_costs: None,
            cache: Mutex::new(VecDeque::new()),
            clients: Clients::default(),
            lanes: Lanes::new(cores),
            budget: Budget::new(limits::MEMORY_BUDGET),
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

    /// The same playground with a memory budget of `bytes` (see [`budget`]).
    pub fn with_memory_budget(mut self, bytes: usize) -> Self {
        self.budget = Budget::new(bytes);
        self
    }

    /// Reserves `bytes` from the budget for `what` (see [`Budget::reserve`]), first
    /// dropping kept worlds, oldest first, while the budget is short: a kept world is
    /// only a saving for a later request, and its reservation must not keep this one
    /// waiting. (A request still using a dropped world keeps it alive unaccounted until
    /// it ends.)
    pub(super) async fn reserve(
        &self,
        bytes: usize,
        what: &str,
        deadline: Instant,
    ) -> Result<Reservation, ApiError> {
        {
            let mut cache = self.lock_cache();
            while self.budget.available() < bytes && bytes <= self.budget.total() {
                if cache.pop_front().is_none() {
                    break;
                }
            }
        }
        self.budget.reserve(bytes, what, deadline).await
    }

    /// The clients with requests in progress.
    pub(super) fn clients(&self) -> &Clients {
        &self.clients
    }

    /// The workers and their lanes.
    pub(super) fn lanes(&self) -> &Lanes {
        &self.lanes
    }

    pub(super) fn named(&self, name: &str) -> Result<&Named, ApiError> {
        self.worlds.iter().find(|w| w.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.worlds.iter().map(|w| w.name.as_str()).collect();
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "unknown world {} (known: {})",
                    quote(name),
                    known.join(", ")
                ),
            )
        })
    }

    fn cached(&self, text: &str) -> Option<Arc<GridWorld>> {
        let cache = self.lock_cache();
        cache
            .iter()
            .find(|(t, _, _)| &**t == text)
            .map(|(_, w, _)| w.clone())
    }

    /// Where the world of a map's text will come from: the kept world (held from now on,
    /// so that a request short of memory cannot drop it from under this one), else the
    /// memory to build it, its cells' worth (see [`budget::WORLD_BYTES_PER_CELL`]). A map
    /// whose header declares more than the playground takes is a 413 here, before
    /// anything is reserved or parsed.
    pub(super) async fn reserve_world(
        &self,
        text: &str,
        deadline: Instant,
    ) -> Result<WorldSource, ApiError> {
        if let Some(world) = self.cached(text) {
            return Ok(WorldSource {
                kept: Some(world),
                hold: Reservation::none(),
            });
        }
        let cells = map_cells(text)?;
        let bytes = cells.saturating_mul(budget::WORLD_BYTES_PER_CELL);
        let hold = self
            .reserve(bytes, "building the map's world", deadline)
            .await?;
        Ok(WorldSource { kept: None, hold })
    }

    /// The world for a map's text: the one `source` holds, one kept meanwhile, or parsed
    /// after its header's size is checked and then kept with the memory `source` reserved
    /// for it. Runs on a blocking worker (parsing builds the distance field).
    pub(super) fn world_for_text(
        &self,
        text: &str,
        source: WorldSource,
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

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, VecDeque<Cached>> {
        // A panic while holding the lock leaves a consistent cache: keep using it.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The size (width, height) of the world a request names (`world`, on offer, or `map`,
    /// a file's text: its header's, `None` when the header does not say), for the checks
    /// and estimates made before any work; errors as [`world_for`](Self::world_for), and a
    /// 413 for a map's text declaring more than [`limits::MAX_MAP_SIDE`].
    pub(super) fn size_for(
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
            (None, None) | (Some(_), Some(_)) => self
                .world_for(world, map, WorldSource::default())
                .map(|_| None),
        }
    }

    /// The world a plan request names: `world` (on offer) or `map` (a file's text, whose
    /// world comes from `source`, see [`reserve_world`](Self::reserve_world)).
    pub(super) fn world_for(
        &self,
        world: Option<&str>,
        map: Option<&str>,
        source: WorldSource,
    ) -> Result<Arc<GridWorld>, ApiError> {
        match (world, map) {
            (Some(name), None) => Ok(self.named(name)?.world.clone()),
            (None, Some(text)) => self.world_for_text(text, source),
            (Some(_), Some(_)) => Err(ApiError::bad_request("give `world` or `map`, not both")),
            (None, None) => Err(ApiError::bad_request(
                "give `world` (a name from GET /api/worlds) or `map` (a .map file's text)",
            )),
        }
    }
}

/// Where a request's world from a map's text comes from (see
/// [`Playground::reserve_world`]).
#[derive(Default)]
pub(super) struct WorldSource {
    /// The kept world, held by the request.
    kept: Option<Arc<GridWorld>>,
    /// Or the memory reserved to build it (kept with it in the cache).
    hold: Reservation,
}

/// The cells of a map's text: its header's width × height (a 413 past
/// [`limits::MAX_MAP_SIDE`]), or 0 when the header does not say: the library's parser
/// then refuses the text at its header, before it allocates a grid.
fn map_cells(text: &str) -> Result<usize, ApiError> {
    match declared_size(text) {
        Some((w, h)) if w > limits::MAX_MAP_SIDE || h > limits::MAX_MAP_SIDE => {
            Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
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
