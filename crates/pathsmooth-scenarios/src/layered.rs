//! A crowd on an engine's layered navmesh (floors over one another): agents at random
//! points of the surface in 3D walking to random points, given another on arrival. The
//! criterion bench times its frames; `examples/engine_crowd_frames.rs --layered` times a
//! fixed run and prints a checksum of the positions.

use std::path::Path;
use std::sync::Arc;

use glam::{DVec2, DVec3};
use pathsmooth::crowd::{Avoidance, Crowd, CrowdFrame};
use pathsmooth::navmesh::{load_surface, PolyId, Surface, SurfaceMesh, SurfaceOptions, UpAxis};
use pathsmooth::{Preset, Result, SurfaceWorld};

use crate::apart::place_apart;

/// A crowd walking a layered navmesh file (Y up): avoidance on (ORCA, the defaults), the
/// Smooth preset, 1.5 m/s, every agent placed and sent in 3D
/// ([`Crowd::add_agent_on_surface`], [`Crowd::set_target_on_surface`]), targets drawn
/// uniformly over the surface's plan-view area from a seeded generator.
pub struct LayeredCrowd {
    /// The crowd (its agents, their sheets, positions and heights).
    pub crowd: Crowd<SurfaceWorld>,
    rng: fastrand::Rng,
    surface: Surface,
    /// The polygons' plan-view areas summed in order.
    cumulative: Vec<f64>,
    /// Targets refused (out of reach, too near a wall) and drawn again.
    pub refused: usize,
}

impl LayeredCrowd {
    /// Loads `file` and places `agents` agents of `radius` at random points, none within
    /// 2.5 radii of another on its floor (plan view and height in buckets), each bound for
    /// a random point.
    ///
    /// Errors: the file's and the surface's; the crowd's for bad settings;
    /// [`Error::BadParameter`](pathsmooth::Error::BadParameter) (`agents`) when 100 draws an
    /// agent do not place them all.
    pub fn load(file: &Path, agents: usize, radius: f64, seed: u64) -> Result<Self> {
        let surface = load_surface(file, &SurfaceOptions::new(UpAxis::Y))?;
        let mesh = Arc::new(SurfaceMesh::new(surface.clone())?);
        let mut total = 0.0;
        let cumulative = (0..surface.num_polygons() as PolyId)
            .map(|p| {
                total += fan(&surface, p).1.iter().map(|a| a / 2.0).sum::<f64>();
                total
            })
            .collect();
        let crowd = Crowd::new(SurfaceWorld::new(mesh), radius, Preset::Smooth.steps())?
            .with_avoidance(Some(Avoidance::default()))?;
        let mut scene = LayeredCrowd {
            crowd,
            rng: fastrand::Rng::with_seed(seed),
            surface,
            cumulative,
            refused: 0,
        };
        scene.place(agents, radius)?;
        Ok(scene)
    }

    /// Adds agents apart from one another on their floors (`place_apart`), each bound for
    /// a random point.
    fn place(&mut self, agents: usize, radius: f64) -> Result<()> {
        let up = self.surface.up();
        let add = |scene: &mut Self, p: DVec3| {
            let t = scene.point();
            scene.crowd.add_agent_on_surface(p, t, 1.5).is_ok()
        };
        place_apart(self, (agents, radius), Self::point, |p| up.split(p), add)
    }

    /// A uniformly random point of the surface (plan-view area) on its floor.
    fn point(&mut self) -> DVec3 {
        let s = &self.surface;
        let up = s.up();
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let x = self.rng.f64() * total;
        let p = self
            .cumulative
            .partition_point(|&c| c < x)
            .min(self.cumulative.len() - 1) as PolyId;
        // A fan triangle drawn by area, a point in it.
        let (ring, fan) = fan(s, p);
        let mut y = self.rng.f64() * fan.iter().sum::<f64>();
        let mut i = 0;
        while i + 1 < fan.len() && y >= fan[i] {
            y -= fan[i];
            i += 1;
        }
        let (a, b, c) = (ring[0], ring[i + 1], ring[i + 2]);
        let (mut u, mut v) = (self.rng.f64(), self.rng.f64());
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        let q = a + (b - a) * u + (c - a) * v;
        up.join(q, s.floor_height(p, q))
    }

    /// One 60 Hz frame, then a new target (3D, planned now) for each agent that arrived; a
    /// refused one is drawn again next frame.
    ///
    /// Errors: the update's.
    pub fn frame(&mut self) -> Result<CrowdFrame> {
        let frame = self.crowd.update(1.0 / 60.0)?;
        for i in 0..self.crowd.agents().len() {
            if self.crowd.agents()[i].arrived() {
                let t = self.point();
                if self.crowd.set_target_on_surface(i, t).is_err() {
                    self.refused += 1;
                }
            }
        }
        Ok(frame)
    }
}

/// Polygon `p` of `s` in plan view, and twice the area of each triangle of its fan from
/// its first corner (the `i`th: corners 0, `i + 1`, `i + 2`).
fn fan(s: &Surface, p: PolyId) -> (Vec<DVec2>, Vec<f64>) {
    let ring: Vec<DVec2> = s.plan_polygon(p).collect();
    let twice = (1..ring.len() - 1)
        .map(|i| (ring[i] - ring[0]).perp_dot(ring[i + 1] - ring[0]).abs())
        .collect();
    (ring, twice)
}
