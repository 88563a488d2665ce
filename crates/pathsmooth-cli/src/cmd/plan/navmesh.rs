//! `pathsmooth plan` on a navmesh, flat or layered: the library's one navmesh world under
//! both. 3D ends are located on their floors, 2D ones (plan view) on the one floor under
//! them; each method's steps are run by the one `Pipeline` on a `SurfaceWorld`
//! (`plan_surface`). A layered file's path is written in 3D with each point's polygon and
//! flags, a flat file's in 2D; a navmesh of one floor is drawn (`--png`, `--svg`) in plan
//! view with the channel and every method's path.

use std::sync::Arc;

use anyhow::{bail, Context, Result};
use glam::{DVec2, DVec3};
use pathsmooth::navmesh::{Surface, SurfaceMesh, SurfacePoint, SurfaceQuery, UpAxis};
use pathsmooth::{Pipeline, Step, SurfaceWorld, SurfaceWorldQuery};

use super::{Outcomes, PlanArgs, Planned};
use crate::compare::Skipped;
use crate::files::write_path_file;
use crate::methods::{check_navmesh_methods, MapMethod};
use crate::picture::{Layer, Scene, PALETTE};
use crate::report::metrics_header;
use crate::surface::{
    flag_names, read_flat_surface, read_surface, write_surface_path_file, Coords, Reading,
};
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

/// The surface `a` names, its name, and the holes of a scene (to draw): a navmesh file,
/// or level geometry baked here.
fn surface(a: &PlanArgs, reading: Reading) -> Result<(Surface, String, Vec<Vec<DVec2>>)> {
    if let Some(level) = &a.level {
        let (surface, name) = from_level(a, level)?;
        return Ok((surface, name, Vec::new()));
    }
    let file = a.navmesh.as_deref().unwrap_or_default();
    if file.ends_with(".map") {
        bail!("{file}: a grid map is 2D; give --from X,Y and --to X,Y as cells");
    }
    match reading {
        Reading::Layered => Ok((
            read_surface(file, a.up, &a.surface)?,
            file.into(),
            Vec::new(),
        )),
        Reading::Flat => {
            let (surface, holes) = read_flat_surface(file, a.ground_plane)?;
            Ok((surface, file.into(), holes))
        }
    }
}

#[cfg(feature = "bake")]
fn from_level(a: &PlanArgs, level: &str) -> Result<(Surface, String)> {
    use crate::cmd::bake::{bake_level, CELL_HEIGHT, CELL_SIZE};
    if a.up == Some(pathsmooth::navmesh::UpAxis::Z) {
        bail!("--up z: level geometry is baked y up (as Recast reads it); drop --up");
    }
    let baked = bake_level(level, &a.agent, (CELL_SIZE, CELL_HEIGHT), false)?;
    let text = baked.to_json_lines();
    let surface = crate::surface::surface_from_json(&text, &format!("{level} (baked)"))?;
    Ok((surface, format!("{level} (baked)")))
}

#[cfg(not(feature = "bake"))]
fn from_level(_: &PlanArgs, level: &str) -> Result<(Surface, String)> {
    bail!("--level {level}: this pathsmooth was built without the `bake` feature")
}

/// One run's name and steps: the preset, or each method (funnel and relax by default).
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
    check_navmesh_methods(&methods, "a navmesh", " (or --preset)")?;
    Ok(methods
        .iter()
        .map(|m| (m.name(), m.steps(&a.smooth.curve, &a.smooth.optimiser)))
        .collect())
}

/// Plans on a navmesh: the table (under a line naming the navmesh), the pictures asked
/// for and what went wrong, for `plan`'s one way of printing them, and how many runs
/// there were.
pub(super) fn plan(a: &PlanArgs, reading: Reading) -> Result<(Planned, usize)> {
    let runs = runs(a)?;
    if a.output.is_some() && runs.len() != 1 {
        bail!(
            "--output needs exactly one --method or a --preset (got {} methods)",
            runs.len()
        );
    }
    let (surface, name, holes) = surface(a, reading)?;
    let up = surface.up();
    let mesh = Arc::new(SurfaceMesh::new(surface)?);
    let drawn = a.png.is_some() || a.svg.is_some();
    if drawn && !mesh.is_one_floor() {
        bail!("--png and --svg draw in plan view: this navmesh has floors over one another");
    }
    // One world, cloned for each run: the clones share its meshes (and on a mesh of one
    // floor, its whole plan mesh and wall index, which making a world builds).
    let world = SurfaceWorld::new(Arc::clone(&mesh));
    let (from, to) = {
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
    let mut scene = drawn.then(|| picture(&mesh, &name, holes, [from, to]));
    for (i, (method, steps)) in runs.iter().enumerate() {
        let mut planner =
            Pipeline::new(world.clone(), a.smooth.radius)?.with_steps(steps.iter().cloned());
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
            write_path(out, &path, &plan, up, reading)?;
        }
        if let Some(scene) = &mut scene {
            let color = PALETTE[(i + 6) % PALETTE.len()];
            scene.layers.push(Layer::path(*method, plan, color));
        }
    }
    let frame = reading.frame(up);
    let mut text = format!(
        "{name}: {} polygons, {frame}; from {} to {}\n",
        mesh.surface().num_polygons(),
        a.from,
        a.to
    );
    let mut planned = Planned::new(a, &table, scene.as_ref(), outcomes)?;
    text.push_str(&planned.table);
    planned.table = text;
    Ok((planned, runs.len()))
}

/// The plan view of a navmesh of one floor: its triangles, the channel between the ends
/// (the shortest path's, at radius 0) shaded, a scene's holes, the ends marked.
fn picture(
    mesh: &SurfaceMesh,
    name: &str,
    holes: Vec<Vec<DVec2>>,
    ends: [DVec3; 2],
) -> Scene<'static> {
    let up = mesh.surface().up();
    let (from, to) = (up.plan(ends[0]), up.plan(ends[1]));
    let plan = mesh.plan_mesh();
    // The file's name, not its path: a long path ran past the picture's edge.
    let name = std::path::Path::new(name)
        .file_name()
        .map_or(name.into(), |n| n.to_string_lossy());
    // None where the ends are not joined: each method's row says why.
    let channel = plan.find_channel(from, to).unwrap_or_default();
    let mut scene = Scene::for_points(
        format!("{name}: navmesh channel of {} triangles", channel.len()),
        plan.vertices(),
    );
    scene.add_navmesh(plan, &channel);
    scene.obstacles = holes;
    scene.mark_ends(&[from, to]);
    scene
}

/// Writes a method's path to `out`: a flat file's in 2D (`plan`), a layered one's in 3D
/// with each point's polygon and flags.
fn write_path(
    out: &str,
    path: &[SurfacePoint],
    plan: &[DVec2],
    up: UpAxis,
    reading: Reading,
) -> Result<()> {
    match reading {
        Reading::Flat => write_path_file(out, None, plan),
        Reading::Layered => write_surface_path_file(out, path, up),
    }
}
