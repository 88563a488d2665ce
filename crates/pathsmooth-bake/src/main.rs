//! `pathsmooth-bake`: bake a navmesh from OBJ level geometry with rerecast, or print the
//! counts and plan-view overlaps of a navmesh JSON file. See `docs/navmesh-json.md`.

use std::process::ExitCode;

use pathsmooth_bake::check;
use pathsmooth_bake::format::{BakeSettings, NavmeshJson};
use pathsmooth_bake::{bake, obj};

const USAGE: &str = "\
usage: pathsmooth-bake LEVEL.obj -o OUT.json [--source TEXT] [--no-detail]
                       [--border-size CELLS] [--volumes VOLUMES.json]
                       [--rerecast-json PREFIX] [SETTINGS]
       pathsmooth-bake --stats MESH.json [--agent-height H]

Bakes Recast's poly mesh (and detail mesh) from the triangles of LEVEL.obj with the rerecast
crate, as RecastDemo's solo mesh sample does, and writes docs/navmesh-json.md's JSON.
--stats checks a navmesh file's invariants and counts its plan-view overlaps.
--border-size leaves cells along the level's bounds unwalkable (0, as the solo mesh sample);
--volumes marks convex area volumes ({\"volumes\": [{\"verts\", \"hmin\", \"hmax\", \"area\"}]}).
--rerecast-json also writes rerecast's own serde JSON of its PolygonNavmesh and
DetailNavmesh to PREFIX.poly.json and PREFIX.detail.json.

SETTINGS (world units, RecastDemo's defaults):
  --cell-size 0.3  --cell-height 0.2  --agent-height 2.0  --agent-radius 0.6
  --max-climb 0.9  --max-slope 45 (degrees)  --region-min-size 8  --region-merge-size 20
  --edge-max-len 12  --edge-max-error 1.3  --verts-per-poly 6
  --detail-sample-dist 6  --detail-sample-max-error 1";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pathsmooth-bake: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut s = BakeSettings::default();
    let mut input = None;
    let mut output = None;
    let mut source = None;
    let mut stats = None;
    let mut raw = None;
    let mut extras = bake::Extras {
        detail: true,
        ..Default::default()
    };
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let mut num = |name: &str| -> Result<f32, String> {
            let v = value(name)?;
            v.parse::<f32>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("{name}: not a non-negative number: {v:?}"))
        };
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            "-o" | "--out" => output = Some(value("-o")?),
            "--source" => source = Some(value("--source")?),
            "--stats" => stats = Some(value("--stats")?),
            "--no-detail" => extras.detail = false,
            "--rerecast-json" => raw = Some(value("--rerecast-json")?),
            "--border-size" => {
                let v = num("--border-size")?;
                if v.fract() != 0.0 || v > 255.0 {
                    return Err(format!("--border-size: a whole number of cells, not {v}"));
                }
                extras.border_size = v as u16;
            }
            "--volumes" => {
                let path = value("--volumes")?;
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                extras.volumes = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
            }
            "--cell-size" => s.cell_size = num("--cell-size")?,
            "--cell-height" => s.cell_height = num("--cell-height")?,
            "--agent-height" => s.agent_height = num("--agent-height")?,
            "--agent-radius" => s.agent_radius = num("--agent-radius")?,
            "--max-climb" => s.agent_max_climb = num("--max-climb")?,
            "--max-slope" => s.agent_max_slope = num("--max-slope")?,
            "--region-min-size" => s.region_min_size = num("--region-min-size")?,
            "--region-merge-size" => s.region_merge_size = num("--region-merge-size")?,
            "--edge-max-len" => s.edge_max_len = num("--edge-max-len")?,
            "--edge-max-error" => s.edge_max_error = num("--edge-max-error")?,
            "--verts-per-poly" => {
                let v = num("--verts-per-poly")?;
                if !(3.0..=6.0).contains(&v) || v.fract() != 0.0 {
                    return Err(format!(
                        "--verts-per-poly: 3 to 6 (Detour's limit), not {v}"
                    ));
                }
                s.verts_per_poly = v as u16;
            }
            "--detail-sample-dist" => s.detail_sample_dist = num("--detail-sample-dist")?,
            "--detail-sample-max-error" => {
                s.detail_sample_max_error = num("--detail-sample-max-error")?
            }
            a if a.starts_with('-') => return Err(format!("unknown option {a}\n\n{USAGE}")),
            a => {
                if input.replace(a.to_owned()).is_some() {
                    return Err(format!("one level file only\n\n{USAGE}"));
                }
            }
        }
    }
    if s.cell_size <= 0.0 || s.cell_height <= 0.0 || s.agent_max_slope >= 90.0 {
        return Err("cell size and height must be positive, the slope below 90°".into());
    }

    if let Some(path) = stats {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let mesh: NavmeshJson = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        print_stats(&path, &mesh, s.agent_height)?;
        return Ok(());
    }

    let (Some(input), Some(output)) = (input, output) else {
        return Err(format!("a level file and -o are needed\n\n{USAGE}"));
    };
    let text = std::fs::read_to_string(&input).map_err(|e| format!("{input}: {e}"))?;
    let level = obj::parse(&text).map_err(|e| format!("{input}: {e}"))?;
    let source = source.unwrap_or_else(|| input.clone());
    let mesh = bake::bake(&level, &s, &extras, &source)?;
    if let Some(prefix) = raw {
        // The same steps again (deterministic), for rerecast's own structures.
        let (poly, detail) = bake::bake_rerecast(&level, &s, &extras)?;
        let write = |name: String, text: serde_json::Result<String>| {
            let text = text.map_err(|e| format!("{name}: {e}"))?;
            std::fs::write(&name, text).map_err(|e| format!("{name}: {e}"))
        };
        write(format!("{prefix}.poly.json"), serde_json::to_string(&poly))?;
        if let Some(d) = detail {
            write(format!("{prefix}.detail.json"), serde_json::to_string(&d))?;
        }
    }
    std::fs::write(&output, mesh.to_json_lines()).map_err(|e| format!("{output}: {e}"))?;
    eprintln!(
        "{input}: {} vertices, {} triangles → {output}",
        level.vertices.len(),
        level.triangles.len()
    );
    print_stats(&output, &mesh, s.agent_height)
}

fn print_stats(name: &str, mesh: &NavmeshJson, agent_height: f32) -> Result<(), String> {
    let c = check::validate(mesh).map_err(|e| format!("{name}: {e}"))?;
    let o = check::overlaps(mesh);
    let (sep_pairs, sep_polys) = o.separated_by(f64::from(agent_height));
    let detail = mesh.detail.as_ref().map_or(String::new(), |d| {
        format!(
            ", detail mesh {} vertices / {} triangles",
            d.vertices.len(),
            d.triangles.len()
        )
    });
    let mut areas: Vec<u8> = mesh.areas.clone();
    areas.sort_unstable();
    areas.dedup();
    println!(
        "{name}: {} vertices, {} polygons (≤ {} vertices each, {} winding in plan view), \
         {} interior and {} boundary edges, areas {areas:?}{detail}",
        c.vertices,
        c.polygons,
        c.max_polygon_vertices,
        if c.winding > 0 {
            "counter-clockwise"
        } else {
            "clockwise"
        },
        c.interior_edges,
        c.boundary_edges,
    );
    println!(
        "  plan-view overlaps: {} pairs, {} polygons overlap another; \
         {sep_pairs} pairs ({sep_polys} polygons) with more than {agent_height} between them vertically",
        o.pairs.len(),
        o.polygons,
    );
    Ok(())
}
