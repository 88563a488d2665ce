//! A crowd on an engine's navmesh, as the bindings run one: a `Crowd<SurfaceWorld>` on a
//! surface of one floor, whose agents walk its plan view, agents at random points walking to random points and given another
//! on arrival. The criterion bench times its frames; `examples/engine_crowd_frames.rs`
//! times a fixed run of them and prints the agents' positions summed, so that two builds
//! can be shown to give the same answers.

use std::path::Path;
use std::sync::Arc;

use glam::DVec2;
use pathsmooth::crowd::{Avoidance, Crowd, CrowdFrame};
use pathsmooth::navmesh::{load_surface, SurfaceMesh, SurfaceOptions, UpAxis};
use pathsmooth::{Error, Preset, Result, SurfaceWorld};

use crate::apart::place_apart;

/// A crowd walking an engine's navmesh (a one-floor surface file, Y up): avoidance on
/// (ORCA, the defaults), the Smooth preset, 1.5 m/s, new targets drawn uniformly over the
/// mesh's area from a seeded generator.
pub struct EngineCrowd {
    /// The crowd (its agents, positions and paths).
    pub crowd: Crowd<SurfaceWorld>,
    rng: fastrand::Rng,
    /// The mesh as loaded (shared with the crowd's world): the random points are drawn
    /// from its plan view's triangles.
    mesh: Arc<SurfaceMesh>,
    /// The triangles' areas summed in order: a triangle drawn by area is a search here.
    cumulative: Vec<f64>,
}

impl EngineCrowd {
    /// Loads `file` and places `agents` agents of `radius` at random points, none within
    /// 2.5 radii of another, each bound for a random point.
    ///
    /// Errors: the file's and the surface's; [`Error::Unsupported`] for floors over one
    /// another; the crowd's for bad settings; [`Error::BadParameter`] (`agents`) when 100
    /// draws an agent do not place them all.
    pub fn load(file: &Path, agents: usize, radius: f64, seed: u64) -> Result<Self> {
        let surface = load_surface(file, &SurfaceOptions::new(UpAxis::Y))?;
        let mesh = SurfaceMesh::new(surface)?;
        if !mesh.is_one_floor() {
            return Err(Error::Unsupported {
                what: "a crowd on a surface",
                needs: "one floor (no floors over one another)",
            });
        }
        let mesh = Arc::new(mesh);
        let world = SurfaceWorld::new(Arc::clone(&mesh));
        let plan = mesh.plan_mesh();
        let mut total = 0.0;
        let cumulative = (0..plan.num_triangles())
            .map(|t| {
                let [a, b, c] = plan.triangle(t);
                total += (b - a).perp_dot(c - a).abs() / 2.0;
                total
            })
            .collect();
        let crowd = Crowd::new(world, radius, Preset::Smooth.steps())?
            .with_avoidance(Some(Avoidance::default()))?;
        let mut scene = EngineCrowd {
            crowd,
            rng: fastrand::Rng::with_seed(seed),
            mesh,
            cumulative,
        };
        scene.place(agents, radius)?;
        Ok(scene)
    }

    /// Adds agents apart from one another (`place_apart`), each bound for a random point.
    fn place(&mut self, agents: usize, radius: f64) -> Result<()> {
        let add = |scene: &mut Self, p: DVec2| {
            let t = scene.point();
            scene.crowd.add_agent(p, t, 1.5).is_ok()
        };
        place_apart(self, (agents, radius), Self::point, |p| (p, 0.0), add)
    }

    /// A uniformly random point of the mesh: a triangle drawn by area, a point in it.
    fn point(&mut self) -> DVec2 {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let x = self.rng.f64() * total;
        let t = self
            .cumulative
            .partition_point(|&c| c < x)
            .min(self.cumulative.len() - 1);
        let [a, b, c] = self.mesh.plan_mesh().triangle(t);
        let (mut s, mut u) = (self.rng.f64(), self.rng.f64());
        if s + u > 1.0 {
            (s, u) = (1.0 - s, 1.0 - u);
        }
        a + (b - a) * s + (c - a) * u
    }

    /// One 60 Hz frame, then a new target for each agent that arrived.
    ///
    /// Errors: the update's.
    pub fn frame(&mut self) -> Result<CrowdFrame> {
        let frame = self.crowd.update(1.0 / 60.0)?;
        for i in 0..self.crowd.agents().len() {
            if self.crowd.agents()[i].arrived() {
                let t = self.point();
                let _ = self.crowd.set_target(i, t);
            }
        }
        Ok(frame)
    }
}
