//! `pathsmooth plan` on a layered navmesh: 3D ends located on their floors (2D ones, in
//! plan view, on the one floor under them), each method's steps run by the library's one
//! `Pipeline` on a `SurfaceWorld` (`plan_surface`), the path written in 3D with each
//! point's polygon and flags.

use anyhow::{bail, Context, Result};
use glam::{DVec2, DVec3};
use pathsmooth::navmesh::{Surface, SurfaceMesh, SurfaceQuery};
use pathsmooth::{Pipeline, Step, SurfaceWorld, SurfaceWorldQuery};

use super::{Outcomes, PlanArgs, Planned};
use crate::compare::Skipped;
use crate::layered::{flag_names, read_surface, write_surface_path_file, Coords};
use crate::methods::{check_navmesh_methods, MapMethod};
use crate::report::metrics_header;
use crate::table::Table;

/// The 3D point of `--from` or `--to` (`what`): a 3D point as given, a 2D point (plan view:
/// the two axes across `up`) on the one floor under it, as the library's 2D plans locate
/// their ends.
fn on_floor(
    c: Coords,
    what: &str,
    world: &SurfaceWorld,
    query: &mut SurfaceWorldQuery,
) -> Result<DVec3> {
    match c {
        Coords::D3(p) => Ok(p),
        Coords::D2(p) => world.floor_point(p, query).with_context(|| {
            let up = world.mesh().surface().up();
            format!(
                "--{what} {},{} (plan view, {up} up; X,Y,Z is a 3D point)",
                p.x, p.y
            )
        }),
    }
}

/// The surface `a` names: a navmesh file, or level geometry baked here.
fn surface(a: &PlanArgs) -> Result<(Surface, String)> {
    if let Some(level) = &a.level {
        return from_level(a, level);
    }
    let file = a.navmesh.as_deref().unwrap_or_default();
    if file.ends_with(".map") {
        bail!("{file}: a grid map is 2D; give --from X,Y and --to X,Y as cells");
    }
    Ok((read_surface(file, a.up, &a.surface)?, file.to_string()))
}

#[cfg(feature = "bake")]
fn from_level(a: &PlanArgs, level: &str) -> Result<(Surface, String)> {
    use crate::cmd::bake::{bake_level, CELL_HEIGHT, CELL_SIZE};
    if a.up == Some(pathsmooth::navmesh::UpAxis::Z) {
        bail!("--up z: level geometry is baked y up (as Recast reads it); drop --up");
    }
    let baked = bake_level(level, &a.agent, (CELL_SIZE, CELL_HEIGHT), false)?;
    let text = baked.to_json_lines();
    let surface = crate::layered::surface_from_json(&text, &format!("{level} (baked)"))?;
    Ok((surface, format!("{level} (baked)")))
}

#[cfg(not(feature = "bake"))]
fn from_level(_: &PlanArgs, level: &str) -> Result<(Surface, String)> {
    bail!("--level {level}: this pathsmooth was built without the `bake` feature")
}

/// One run's name and steps: the preset, or each method.
fn runs(a: &PlanArgs) -> Result<Vec<(&'static str, Vec<Step>)>> {
    if let Some(p) = a.preset {
        let (name, preset) = p.preset();
        return Ok(vec![(name, preset.steps())]);
    }
    let methods = if a.method.is_empty() {
        vec![MapMethod::Funnel, MapMethod::Relax]
    } else {
        a.method.clone()
    };
    check_navmesh_methods(&methods, "a layered navmesh", " (or --preset)")?;
    Ok(methods
        .iter()
        .map(|m| (m.name(), m.steps(&a.smooth.curve, &a.smooth.optimiser)))
        .collect())
}

/// Plans on a layered navmesh: the table (under a line naming the navmesh) and what went
/// wrong, for `plan`'s one way of printing them, and how many runs there were.
pub(super) fn plan(a: &PlanArgs) -> Result<(Planned, usize)> {
    if a.png.is_some() || a.svg.is_some() {
        bail!("--png and --svg draw 2D maps and scenes; a layered navmesh has no picture yet");
    }
    let runs = runs(a)?;
    if a.output.is_some() && runs.len() != 1 {
        bail!(
            "--output needs exactly one --method or a --preset (got {} methods)",
            runs.len()
        );
    }
    let (surface, name) = surface(a)?;
    let up = surface.up();
    let mesh = std::sync::Arc::new(SurfaceMesh::new(surface)?);
    let (from, to) = {
        let world = SurfaceWorld::new(std::sync::Arc::clone(&mesh));
        let mut query = SurfaceWorldQuery::default();
        a.surface.apply(query.surface_mut())?;
        (
            on_floor(a.from, "from", &world, &mut query)?,
            on_floor(a.to, "to", &world, &mut query)?,
        )
    };
    // The ends first, so that a point with no floor near it is one clear error.
    let mut query = SurfaceQuery::new();
    a.surface.apply(&mut query)?;
    for (p, what) in [(from, "from"), (to, "to")] {
        query
            .locate(&mesh, p)
            .with_context(|| format!("--{what} {},{},{} on {name} ({up} up)", p.x, p.y, p.z))?;
    }
    let costs = match a.smooth.area_costs.as_deref() {
        Some(spec) => {
            Some(crate::areas::navmesh_area_costs(spec, mesh.surface()).context("--area-costs")?)
        }
        None => None,
    };
    let mut table = Table::new(metrics_header());
    let mut outcomes = Outcomes::default();
    for (method, steps) in &runs {
        let world = SurfaceWorld::new(std::sync::Arc::clone(&mesh));
        let mut planner = Pipeline::new(world, a.smooth.radius)?.with_steps(steps.iter().cloned());
        a.surface.apply(planner.surface_query_mut())?;
        if let Some(costs) = &costs {
            planner.set_area_costs(costs.clone());
        }
        let planned = planner.plan_surface(from, to).map(|p| p.to_vec());
        let path = match planned {
            Ok(path) => path,
            Err(e) => {
                outcomes.failed(method, &e, &mut table, false);
                continue;
            }
        };
        let skipped: Vec<Skipped> = Skipped::of(planner.report());
        outcomes.ran(method, &skipped);
        let plan: Vec<DVec2> = path.iter().map(|p| up.plan(p.position)).collect();
        // The report's figures are the returned path's: its length in 3D along the
        // surface, its turns and clearance in plan view.
        let validation = planner.report().validation.clone();
        for (end, moved) in &planner.report().snapped {
            outcomes.notes.push(format!(
                "{method}: the {end} was off the navmesh: moved {moved:.3} (plan view) onto it"
            ));
        }
        table.row(crate::report::metrics_row(
            method,
            &plan,
            validation.length,
            &validation,
            &skipped,
        )?);
        if costs.is_some() {
            let r = planner.report();
            outcomes.notes.push(format!(
                "{method}: cost {:.3} under the area costs (its planner's path: {:.3})",
                r.cost, r.input_cost
            ));
        }
        if a.polygons {
            let shown: Vec<String> = path
                .iter()
                .map(|p| match flag_names(p.flags).as_str() {
                    "" => p.polygon.to_string(),
                    f => format!("{}[{f}]", p.polygon),
                })
                .collect();
            outcomes.notes.push(format!(
                "{method}: polygons of its points: {}",
                shown.join(" ")
            ));
        }
        if let Some(out) = &a.output {
            write_surface_path_file(out, &path, up)?;
        }
    }
    let mut text = format!(
        "{name}: {} polygons, {up} up; from {} to {}\n",
        mesh.surface().num_polygons(),
        a.from,
        a.to
    );
    text.push_str(&Planned::render(&table, &outcomes));
    // No pictures: --png and --svg were refused above.
    let planned = Planned {
        table: text,
        png: None,
        svg: None,
        outcomes,
    };
    Ok((planned, runs.len()))
}
