// Temporary probe (not committed).
use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd};
use pathsmooth::navmesh::{load_surface, SurfaceMesh, SurfaceOptions};
use pathsmooth::{Preset, SurfaceWorld};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let s = load_surface("crates/pathsmooth/tests/data/corpus/godot/smix8__NavigationLinkDemo_Blocks.tscn", &SurfaceOptions::default())?;
    let world = SurfaceWorld::new(SurfaceMesh::new(s)?);
    let plan = world.sheet_world().cloned().unwrap();
    let mut crowd = Crowd::new(plan, 0.1, Preset::Smooth.steps())?.with_avoidance(Some(Avoidance::default()))?;
    let agents = [
        (11.033427087163309, 9.535911479294436, 9.968663722359539, 10.152266600656539),
        (12.475354400234556, 4.573908238819941, 9.397731114404609, 6.274159482033658),
        (12.591976193641393, 10.38127995746197, 7.634720122523918, 7.523846644353913),
        (11.193415686787327, 9.204136847598226, 12.814435125805883, 10.206268530003413),
        (11.648642161407928, 6.379674659643614, 11.836290093422653, 9.165559747901037),
        (10.537286382922092, 9.626093687287987, 10.634126534986173, 9.657626536980372),
        (7.174981328327401, 8.135411011957991, 7.702618828887863, 7.7640403642914535),
        (12.559014814779506, 2.2792296876685274, 12.052744754251702, 2.029374873503833),
    ];
    for (x, y, tx, ty) in agents {
        crowd.add_agent(DVec2::new(x, y), DVec2::new(tx, ty), 1.5)?;
    }
    for f in 1..=12 {
        crowd.update(0.05)?;
        let a = crowd.agents();
        let (p0, p5) = (a[0].agent_path().position(), a[5].agent_path().position());
        println!("{f} gap {:.4} p0 {p0:.3} p5 {p5:.3} arrived5 {}", p0.distance(p5), a[5].arrived());
    }
    Ok(())
}
