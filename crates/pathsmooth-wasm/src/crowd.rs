//! `Crowd`: many agents walking their paths on a grid, a 2D navmesh or a one-floor layered
//! navmesh, avoiding each other and moving obstacles; positions and velocities out as
//! `Float64Array`s.

use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd as RsCrowd, CrowdAgent, MovingId, MovingObstacle};
use pathsmooth::world::{Obstacle, ObstacleId, ObstacleWorld};
use pathsmooth::{GridWorld as RsGrid, Step, SurfaceWorld};
use wasm_bindgen::prelude::*;

use crate::args::{flat2, steps, whole};
use crate::worlds::{world_of, AnyWorld};
use crate::{arg_error, err_in, report};

/// A crowd on either kind of world it runs on.
enum AnyCrowd {
    Grid(RsCrowd<RsGrid>),
    Mesh(RsCrowd<SurfaceWorld>),
}

/// `$body` with `$c` bound to the crowd, whichever its world.
macro_rules! on_crowd {
    ($crowd:expr, $c:ident => $body:expr) => {
        match $crowd {
            AnyCrowd::Grid($c) => $body,
            AnyCrowd::Mesh($c) => $body,
        }
    };
}

/// The library's crowd on `world` with the options given: avoidance (ORCA) or none, and
/// the plans-per-update budget.
fn new_crowd<W: ObstacleWorld + Send + Sync>(
    world: W,
    radius: f64,
    steps: Vec<Step>,
    avoid: Option<Avoidance>,
    plan_budget: Option<usize>,
) -> pathsmooth::Result<RsCrowd<W>> {
    RsCrowd::new(world, radius, steps)?
        .with_plan_budget(plan_budget)?
        .with_avoidance(avoid)
}

/// The `avoid` option: `true` the library's default avoidance, an object the settings
/// that differ from it (camelCase names of `Avoidance`'s fields; the library checks the
/// values), anything else none.
fn avoidance(what: &'static str, avoid: &JsValue) -> Result<Option<Avoidance>, JsError> {
    if !avoid.is_object() {
        return Ok(avoid.is_truthy().then(Avoidance::default));
    }
    let mut a = Avoidance::default();
    for key in js_sys::Object::keys(avoid.unchecked_ref::<js_sys::Object>()).iter() {
        let name = key.as_string().unwrap_or_default();
        let v = js_sys::Reflect::get(avoid, &key).unwrap_or(JsValue::UNDEFINED);
        let number = || {
            v.as_f64()
                .ok_or_else(|| arg_error(what, format!("avoid.{name}: expected a number")))
        };
        match name.as_str() {
            "timeHorizon" => a.time_horizon = number()?,
            "wallTimeHorizon" => a.wall_time_horizon = number()?,
            "neighbourDistance" if v.is_null() || v.is_undefined() => a.neighbour_distance = None,
            "neighbourDistance" => a.neighbour_distance = Some(number()?),
            "maxNeighbours" => {
                a.max_neighbours = whole(what, "avoid.maxNeighbours", number()?, u32::MAX as usize)?
            }
            _ => {
                return Err(arg_error(
                    what,
                    format!(
                        "avoid: no setting {name:?} (timeHorizon, maxNeighbours, \
                         wallTimeHorizon, neighbourDistance)"
                    ),
                ))
            }
        }
    }
    Ok(Some(a))
}

/// Many agents walking their paths on one world whose obstacles come and go
/// (`pathsmooth::crowd::Crowd`), on one thread. The crowd owns a copy of the world it is
/// given: its obstacles change the crowd's world only.
#[wasm_bindgen]
pub struct Crowd {
    crowd: AnyCrowd,
}

/// The option `key` of `options` (`undefined` when there are no options).
fn option(options: &Option<js_sys::Object>, key: &str) -> JsValue {
    options
        .as_ref()
        .and_then(|o| js_sys::Reflect::get(o, &JsValue::from_str(key)).ok())
        .unwrap_or(JsValue::UNDEFINED)
}

#[wasm_bindgen]
impl Crowd {
    /// A crowd on `world` (a `GridWorld`, a `NavMeshWorld`, or a `SurfaceMesh` with one
    /// floor: no floor over another, as most levels without bridges or storeys; the agents
    /// then walk its plan view, the two axes across its up axis, and `positions3` puts them
    /// on its floor) whose agents are `radius` across by default, their paths made with
    /// `steps` (as `Pipeline`'s). `options`:
    /// `avoid` (true: agents avoid each other and moving obstacles, ORCA; an object sets
    /// some of its settings, the others kept: `timeHorizon` seconds ahead neighbours are
    /// avoided, default 2; `maxNeighbours`, 10; `wallTimeHorizon` seconds ahead walls are
    /// kept off, 1; `neighbourDistance`, null: as far as the time horizon reaches), `planBudget`
    /// (at most this many plans for new targets per update: the rest wait their turn; a
    /// target the agent's path sees takes no plan).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "GridWorld | NavMeshWorld | SurfaceMesh")]
        world: &JsValue,
        radius: f64,
        #[wasm_bindgen(unchecked_param_type = "string | (string | [string, number])[]")]
        steps_spec: Option<JsValue>,
        #[wasm_bindgen(
            unchecked_param_type = "{ avoid?: boolean | { timeHorizon?: number, maxNeighbours?: number, wallTimeHorizon?: number, neighbourDistance?: number | null }, planBudget?: number }"
        )]
        options: Option<js_sys::Object>,
    ) -> Result<Crowd, JsError> {
        const WHAT: &str = "new Crowd";
        let steps = steps(WHAT, &steps_spec.unwrap_or(JsValue::UNDEFINED))?;
        let avoid = avoidance(WHAT, &option(&options, "avoid"))?;
        let budget = option(&options, "planBudget");
        let plan_budget = match budget.as_f64() {
            _ if budget.is_undefined() || budget.is_null() => None,
            Some(b) => Some(whole(WHAT, "planBudget", b, u32::MAX as usize)?),
            None => return Err(arg_error(WHAT, "planBudget: expected a number")),
        };
        let crowd = match world_of(WHAT, world)? {
            AnyWorld::Grid(w, map) => {
                let own = RsGrid::with_frame((*map).clone(), w.cell_size(), w.origin())
                    .map_err(err_in(WHAT))?;
                AnyCrowd::Grid(
                    new_crowd(own, radius, steps, avoid, plan_budget).map_err(err_in(WHAT))?,
                )
            }
            // Agents come in with 2D points here, which name no floor where floors lie
            // over one another: that crowd needs the library's 3D calls, not in the
            // package (docs/wasm.md).
            AnyWorld::Surface(surface) if !surface.mesh().is_one_floor() => {
                return Err(arg_error(
                    WHAT,
                    "this SurfaceMesh has floors over one another (a bridge, a storey): the \
                     crowd runs on a SurfaceMesh with one floor, a GridWorld or a \
                     NavMeshWorld, not yet across several floors",
                ))
            }
            // On one floor the agents walk its whole plan view, each on the floor.
            AnyWorld::Surface(surface) => AnyCrowd::Mesh(
                new_crowd(surface, radius, steps, avoid, plan_budget).map_err(err_in(WHAT))?,
            ),
        };
        Ok(Crowd { crowd })
    }

    /// The number of agents.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.agents().len()
    }

    /// Adds an agent at (`x`, `y`) walking to (`tx`, `ty`) at `speed` (world units per
    /// second), of the crowd's radius or its own `radius`, its path planned now; its index.
    #[wasm_bindgen(js_name = addAgent)]
    pub fn add_agent(
        &mut self,
        x: f64,
        y: f64,
        tx: f64,
        ty: f64,
        speed: f64,
        radius: Option<f64>,
    ) -> Result<usize, JsError> {
        let (p, t) = (DVec2::new(x, y), DVec2::new(tx, ty));
        match radius {
            None => on_crowd!(&mut self.crowd, c => c.add_agent(p, t, speed)),
            Some(r) => on_crowd!(&mut self.crowd, c => c.add_agent_with_radius(p, t, speed, r)),
        }
        .map_err(err_in("Crowd.addAgent"))
    }

    /// Removes agent `agent`: the last agent takes its index; returns the index that agent
    /// had (`undefined` when the removed one was the last).
    #[wasm_bindgen(js_name = removeAgent)]
    pub fn remove_agent(&mut self, agent: f64) -> Result<Option<usize>, JsError> {
        const WHAT: &str = "Crowd.removeAgent";
        let i = self.agent_index(WHAT, agent)?;
        on_crowd!(&mut self.crowd, c => c.remove_agent(i)).map_err(err_in(WHAT))
    }

    /// Asks agent `agent` to walk to (`x`, `y`): the next `update` plans it.
    #[wasm_bindgen(js_name = setTarget)]
    pub fn set_target(&mut self, agent: f64, x: f64, y: f64) -> Result<(), JsError> {
        const WHAT: &str = "Crowd.setTarget";
        let i = self.agent_index(WHAT, agent)?;
        on_crowd!(&mut self.crowd, c => c.set_target(i, DVec2::new(x, y))).map_err(err_in(WHAT))
    }

    /// Moves every agent `dt` seconds on; what it did, summed over the agents (`moved`,
    /// `replans`, `stuck`, `waiting`, …).
    #[wasm_bindgen(unchecked_return_type = "CrowdFrame")]
    pub fn update(&mut self, dt: f64) -> Result<js_sys::Object, JsError> {
        let frame =
            on_crowd!(&mut self.crowd, c => c.update(dt)).map_err(err_in("Crowd.update"))?;
        Ok(report::frame(&frame))
    }

    /// The agents' positions, `[x0, y0, x1, y1, …]`.
    pub fn positions(&self) -> Vec<f64> {
        let p: Vec<DVec2> = self
            .agents()
            .iter()
            .map(|a| a.agent_path().position())
            .collect();
        flat2(&p)
    }

    /// On a crowd made on a navmesh (a `SurfaceMesh`, or a `NavMeshWorld`: z up, its floor
    /// at 0): the agents' positions in 3D, `[x0, y0, z0, x1,
    /// …]` in the mesh's axes, each on the floor where it stands (its height from the
    /// mesh's detail when it has one), as the crowd keeps it. Cost: O(agents).
    pub fn positions3(&self) -> Result<Vec<f64>, JsError> {
        let AnyCrowd::Mesh(c) = &self.crowd else {
            return Err(arg_error(
                "Crowd.positions3",
                "only a crowd made on a navmesh (a NavMeshWorld or a SurfaceMesh) has a floor",
            ));
        };
        Ok(c.agent_points().flat_map(|p| p.to_array()).collect())
    }

    /// The agents' velocities over the last update, `[vx0, vy0, …]` (world units per
    /// second).
    pub fn velocities(&self) -> Vec<f64> {
        let v: Vec<DVec2> = self.agents().iter().map(CrowdAgent::velocity).collect();
        flat2(&v)
    }

    /// Every agent's radius, in agent order.
    pub fn radii(&self) -> Vec<f64> {
        self.agents().iter().map(CrowdAgent::radius).collect()
    }

    /// Agent `agent`'s path, `[x0, y0, …]`.
    pub fn path(&self, agent: f64) -> Result<Vec<f64>, JsError> {
        let i = self.agent_index("Crowd.path", agent)?;
        Ok(flat2(self.agents()[i].agent_path().path()))
    }

    /// True once agent `agent` has reached its target.
    pub fn arrived(&self, agent: f64) -> Result<bool, JsError> {
        let i = self.agent_index("Crowd.arrived", agent)?;
        Ok(self.agents()[i].arrived())
    }

    /// Why agent `agent` stands stuck, or `undefined`.
    pub fn stuck(&self, agent: f64) -> Result<Option<String>, JsError> {
        let i = self.agent_index("Crowd.stuck", agent)?;
        Ok(self.agents()[i]
            .agent_path()
            .stuck()
            .map(ToString::to_string))
    }

    /// Adds a moving obstacle ("a truck"): a disc of `radius` at (`x`, `y`) moving at
    /// (`vx`, `vy`) world units per second, which avoiding agents steer round and which
    /// blocks paths like a door while it stands still; its id.
    #[wasm_bindgen(js_name = addMovingObstacle)]
    pub fn add_moving_obstacle(
        &mut self,
        x: f64,
        y: f64,
        radius: f64,
        vx: f64,
        vy: f64,
    ) -> Result<f64, JsError> {
        let o = MovingObstacle {
            center: DVec2::new(x, y),
            radius,
            velocity: DVec2::new(vx, vy),
        };
        on_crowd!(&mut self.crowd, c => c.add_moving_obstacle(o))
            .map(|id| id.get() as f64)
            .map_err(err_in("Crowd.addMovingObstacle"))
    }

    /// Sets a moving obstacle's velocity (zero stops it).
    #[wasm_bindgen(js_name = setMovingObstacleVelocity)]
    pub fn set_moving_obstacle_velocity(
        &mut self,
        id: f64,
        vx: f64,
        vy: f64,
    ) -> Result<(), JsError> {
        const WHAT: &str = "Crowd.setMovingObstacleVelocity";
        let id = MovingId::from_raw(whole(WHAT, "id", id, u32::MAX as usize)? as u64);
        on_crowd!(&mut self.crowd, c => c.set_moving_obstacle_velocity(id, DVec2::new(vx, vy)))
            .map_err(err_in(WHAT))
    }

    #[wasm_bindgen(js_name = removeMovingObstacle)]
    pub fn remove_moving_obstacle(&mut self, id: f64) -> Result<(), JsError> {
        const WHAT: &str = "Crowd.removeMovingObstacle";
        let id = MovingId::from_raw(whole(WHAT, "id", id, u32::MAX as usize)? as u64);
        on_crowd!(&mut self.crowd, c => c.remove_moving_obstacle(id)).map_err(err_in(WHAT))
    }

    /// The moving obstacles, `[x, y, radius, vx, vy]` each, one after another.
    #[wasm_bindgen(js_name = movingObstacles)]
    pub fn moving_obstacles(&self) -> Vec<f64> {
        on_crowd!(&self.crowd, c => c
            .moving_obstacles()
            .flat_map(|(_, o)| [o.center.x, o.center.y, o.radius, o.velocity.x, o.velocity.y])
            .collect())
    }

    /// Closes the box [`minX`, `maxX`] × [`minY`, `maxY`] (a door shutting): the paths it
    /// blocks are re-planned; its id.
    #[wasm_bindgen(js_name = addBox)]
    pub fn add_box(
        &mut self,
        min_x: f64,
        min_y: f64,
        max_x: f64,
        max_y: f64,
    ) -> Result<f64, JsError> {
        let obstacle = Obstacle::Box {
            min: DVec2::new(min_x, min_y),
            max: DVec2::new(max_x, max_y),
        };
        self.add_obstacle("Crowd.addBox", obstacle)
    }

    /// Closes the disc of `radius` at (`x`, `y`); its id.
    #[wasm_bindgen(js_name = addDisk)]
    pub fn add_disk(&mut self, x: f64, y: f64, radius: f64) -> Result<f64, JsError> {
        let obstacle = Obstacle::Disk {
            center: DVec2::new(x, y),
            radius,
        };
        self.add_obstacle("Crowd.addDisk", obstacle)
    }

    /// Opens an obstacle added with `addBox` or `addDisk` again.
    #[wasm_bindgen(js_name = removeObstacle)]
    pub fn remove_obstacle(&mut self, id: f64) -> Result<(), JsError> {
        const WHAT: &str = "Crowd.removeObstacle";
        let id = ObstacleId::from_raw(whole(WHAT, "id", id, u32::MAX as usize)? as u64);
        on_crowd!(&mut self.crowd, c => c.remove_obstacle(id)).map_err(err_in(WHAT))
    }
}

impl Crowd {
    fn agents(&self) -> &[CrowdAgent] {
        on_crowd!(&self.crowd, c => c.agents())
    }

    /// `agent` as the index of one of the crowd's agents.
    fn agent_index(&self, what: &'static str, agent: f64) -> Result<usize, JsError> {
        match self.agents().len() {
            0 => Err(arg_error(what, "the crowd has no agents")),
            n => whole(what, "agent", agent, n - 1),
        }
    }

    fn add_obstacle(&mut self, what: &'static str, obstacle: Obstacle) -> Result<f64, JsError> {
        on_crowd!(&mut self.crowd, c => c.add_obstacle(obstacle))
            .map(|(id, _)| id.get() as f64)
            .map_err(err_in(what))
    }
}
