use pathsmooth::crowd::{CrowdScenario, CrowdSimulation};
use pathsmooth::{GridMap, GridWorld};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let map = GridMap::load(&args[1]).unwrap();
    let agents: usize = args[2].parse().unwrap();
    let range: f64 = args.get(3).map_or(48.0, |s| s.parse().unwrap());
    let t0 = Instant::now();
    let mut sim = CrowdSimulation::new(
        GridWorld::new(map).unwrap(),
        CrowdScenario {
            agents,
            goal_range: range,
            ..Default::default()
        },
    )
    .unwrap();
    eprintln!("setup {:?}", t0.elapsed());
    let mut times = vec![];
    let mut invalid = 0;
    let mut replans = 0;
    let mut total = pathsmooth::crowd::SimFrame::default();
    let mut tc = std::time::Duration::ZERO;
    for _ in 0..600 {
        let t = Instant::now();
        let f = sim.frame().unwrap();
        if f.crowd.failed > 0 {
            static mut SHOWN: usize = 0;
            for a in sim.crowd().agents() {
                if let Some(e) = a.error() {
                    unsafe {
                        if SHOWN < 6 {
                            SHOWN += 1;
                            eprintln!(
                                "frame {} err {e:?} stuck {:?} path {:?}",
                                sim.frames(),
                                a.corridor().stuck(),
                                &a.corridor().path()[..a.corridor().path().len().min(3)]
                            );
                        }
                    }
                }
            }
        }
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if *times.last().unwrap() > 3.0 {
            eprintln!("slow {:.2} ms {:?}", times.last().unwrap(), f);
        }
        let t = Instant::now();
        let k = if std::env::var("NOCHECK").is_ok() {
            0
        } else {
            sim.check()
        };
        invalid += k;
        if k > 0 {
            for (i, a) in sim.crowd().agents().iter().enumerate() {
                let c = a.corridor();
                if !pathsmooth::is_valid(sim.crowd().world(), c.path(), 0.3) {
                    let r = pathsmooth::validate(sim.crowd().world(), c.path(), 0.3).unwrap();
                    eprintln!("frame {} agent {i} stuck {:?} len {} problem {:?} err {:?} pos {} first {:?}", sim.frames(), c.stuck(), c.path().len(), r.problem(), a.error(), c.position(), &c.path()[..c.path().len().min(4)]);
                }
            }
        }
        tc += t.elapsed();
        replans += f.crowd.replans;
        total.retargets += f.retargets;
        total.doors_closed += f.doors_closed;
        total.blocked += f.blocked;
        total.crowd += f.crowd;
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let mut s = times.clone();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("agents {agents} mean {mean:.3} p99 {:.3} max {:.3} replans/s {:.1} invalid {invalid} check {:?}", s[s.len()*99/100], s[s.len()-1], replans as f64 / sim.time(), tc);
    println!("{total:?}");
}
