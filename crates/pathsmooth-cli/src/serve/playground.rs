//! The server's state: the playground's worlds and kept maps
//! ([`pathsmooth_playground::Playground`], each kept map with the memory reserved for it),
//! the clients with requests in progress, the workers and their lanes, and the memory
//! budget. The handlers ([`api`](super::api), [`layered`](super::layered)) and a request's
//! [`Work`](super::work::Work) share it, so it lives apart from the handlers, below them.

use anyhow::Context;
use pathsmooth::{GridMap, GridWorld};
use pathsmooth_playground::world::{map_cells, WorldSource};
use tokio::time::Instant;

use super::budget::{self, Budget, Reservation};
use super::clients::Clients;
use super::error::ApiError;
use super::lanes::Lanes;
use super::limits;
use super::sessions::LiveCrowds;

/// The playground the server holds: its kept maps keep their memory reserved.
pub type Worlds = pathsmooth_playground::Playground<Reservation>;

/// The server's state: the worlds, the clients, the workers and the memory budget.
pub struct Playground {
    worlds: Worlds,
    /// The requests in progress per client (see [`clients`](super::clients)).
    clients: Clients,
    /// The workers (one per core) and who may take them.
    lanes: Lanes,
    budget: Budget,
    /// The clients' live crowds (see [`sessions`](super::sessions)).
    live: LiveCrowds,
}

impl Playground {
    /// The embedded examples plus the `.map` files given (named by file name).
    pub fn new(maps: &[String]) -> anyhow::Result<Self> {
        let mut given = Vec::with_capacity(maps.len());
        for file in maps {
            let world = GridWorld::new(GridMap::load(file)?).with_context(|| file.clone())?;
            let base = std::path::Path::new(file)
                .file_name()
                .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
            given.push((base, world));
        }
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Ok(Playground {
            worlds: Worlds::new(given)?,
            clients: Clients::default(),
            lanes: Lanes::new(cores),
            budget: Budget::new(limits::MEMORY_BUDGET),
            live: LiveCrowds::default(),
        })
    }

    /// The same playground with `spec` (`AREA=COST,...`, as `--area-costs`) as the area
    /// costs of plan requests that give none. Errors: the spec's, as the CLI reports them.
    pub fn with_area_costs(mut self, spec: Option<&str>) -> pathsmooth::Result<Self> {
        self.worlds = self.worlds.with_area_costs(spec)?;
        Ok(self)
    }

    /// The same playground with a memory budget of `bytes` (see [`budget`]).
    pub fn with_memory_budget(mut self, bytes: usize) -> Self {
        self.budget = Budget::new(bytes);
        self
    }

    /// The worlds on offer and the kept maps.
    pub(super) fn worlds(&self) -> &Worlds {
        &self.worlds
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
        while self.budget.available() < bytes
            && bytes <= self.budget.total()
            && self.worlds.drop_oldest()
        {}
        self.budget.reserve(bytes, what, deadline).await
    }

    /// The clients with requests in progress.
    pub(super) fn clients(&self) -> &Clients {
        &self.clients
    }

    /// The clients' live crowds.
    pub(super) fn live(&self) -> &LiveCrowds {
        &self.live
    }

    /// The workers and their lanes.
    pub(super) fn lanes(&self) -> &Lanes {
        &self.lanes
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
    ) -> Result<WorldSource<Reservation>, ApiError> {
        if let Some(world) = self.worlds.cached(text) {
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
}
