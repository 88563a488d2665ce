//! `pathsmooth bake`: a Recast navmesh baked from OBJ level geometry (by `pathsmooth-bake`,
//! which runs Recast's pipeline through the `rerecast` crate), written as the navmesh JSON
//! of `docs/navmesh-json.md`. Also the agent options `plan --level` bakes with.

use anyhow::{anyhow, bail, Result};
use clap::Args;
use pathsmooth_bake::bake::{bake, Extras};
use pathsmooth_bake::format::{BakeSettings, NavmeshJson};

use crate::files::{read_text, write_bytes};

/// The agent and voxel settings of a bake (world units; RecastDemo's defaults).
#[derive(Debug, Clone, Args)]
pub struct AgentArgs {
    /// Agent radius: the bake keeps this far from walls (Recast's erosion).
    #[arg(long, default_value_t = 0.6)]
    pub agent_radius: f32,
    /// Agent height: the headroom a floor needs.
    #[arg(long, default_value_t = 2.0)]
    pub agent_height: f32,
    /// The highest step the agent climbs.
    #[arg(long, default_value_t = 0.9)]
    pub agent_max_climb: f32,
    /// The steepest slope the agent walks, in degrees (below 90).
    #[arg(long, default_value_t = 45.0)]
    pub agent_max_slope: f32,
}

impl AgentArgs {
    /// RecastDemo's settings with these agent values and voxels of `cell_size` across and
    /// `cell_height` up, checked.
    fn settings(&self, cell_size: f32, cell_height: f32) -> Result<BakeSettings> {
        let checks = [
            ("--agent-radius", self.agent_radius, 0.0),
            ("--agent-height", self.agent_height, 0.0),
            ("--agent-max-climb", self.agent_max_climb, 0.0),
            ("--agent-max-slope", self.agent_max_slope, 0.0),
        ];
        for (name, v, lo) in checks {
            if !(v.is_finite() && v >= lo) {
                bail!("{name} {v}: expected a finite number ≥ 0");
            }
        }
        if self.agent_max_slope >= 90.0 {
            bail!(
                "--agent-max-slope {}: expected degrees below 90",
                self.agent_max_slope
            );
        }
        for (name, v) in [("--cell-size", cell_size), ("--cell-height", cell_height)] {
            if !(v.is_finite() && v > 0.0) {
                bail!("{name} {v}: expected a finite number > 0");
            }
        }
        Ok(BakeSettings {
            agent_radius: self.agent_radius,
            agent_height: self.agent_height,
            agent_max_climb: self.agent_max_climb,
            agent_max_slope: self.agent_max_slope,
            cell_size,
            cell_height,
            ..BakeSettings::default()
        })
    }
}

/// Arguments of `pathsmooth bake`.
#[derive(Debug, Args)]
pub struct BakeArgs {
    /// Level geometry: an OBJ file of triangles (y up, as Recast reads it; `-` for stdin).
    pub level: String,
    /// The navmesh JSON to write (`-` for stdout), e.g. `level.navmesh.json`.
    #[arg(short, long)]
    pub output: String,
    /// Also write Recast's detail mesh (heights finer than the polygons; pathsmooth reads
    /// the polygons only).
    #[arg(long)]
    pub detail: bool,
    #[command(flatten)]
    pub agent: AgentArgs,
    /// Voxel size across (smaller: finer and slower).
    #[arg(long, default_value_t = CELL_SIZE)]
    pub cell_size: f32,
    /// Voxel size up.
    #[arg(long, default_value_t = CELL_HEIGHT)]
    pub cell_height: f32,
}

/// RecastDemo's voxel size across, the default of `bake` and `plan --level`.
pub const CELL_SIZE: f32 = 0.3;
/// RecastDemo's voxel size up.
pub const CELL_HEIGHT: f32 = 0.2;

/// Bakes the level in file `name` (`-` for stdin) with `agent`'s settings and voxels of
/// `cell` (across, up); `detail`: with Recast's detail mesh.
pub fn bake_level(
    name: &str,
    agent: &AgentArgs,
    cell: (f32, f32),
    detail: bool,
) -> Result<NavmeshJson> {
    let settings = agent.settings(cell.0, cell.1)?;
    let shown = if name == "-" { "<stdin>" } else { name };
    let text = read_text(name)?;
    let level = pathsmooth_bake::obj::parse(&text).map_err(|e| anyhow!("{shown}: {e}"))?;
    let extras = Extras {
        detail,
        ..Extras::default()
    };
    let mesh = bake(&level, &settings, &extras, shown).map_err(|e| anyhow!("{shown}: {e}"))?;
    if mesh.polygons.is_empty() {
        bail!(
            "{shown}: the bake has no walkable polygon (is the level y up? is \
             --agent-radius {} or --agent-height {} too large for it?)",
            agent.agent_radius,
            agent.agent_height
        );
    }
    Ok(mesh)
}

/// Runs `pathsmooth bake`.
pub fn run(a: &BakeArgs) -> Result<()> {
    let mesh = bake_level(&a.level, &a.agent, (a.cell_size, a.cell_height), a.detail)?;
    write_bytes(&a.output, mesh.to_json_lines().as_bytes())?;
    if a.output != "-" {
        println!(
            "{}: {} polygons, {} vertices (agent radius {}, height {})",
            a.output,
            mesh.polygons.len(),
            mesh.vertices.len(),
            a.agent.agent_radius,
            a.agent.agent_height
        );
    }
    Ok(())
}
