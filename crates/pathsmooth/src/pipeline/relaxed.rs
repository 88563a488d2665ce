//! The relax step: the channel, its portals, portal relaxation, and the local fix at an
//! agent radius > 0.
//!
//! Portal relaxation ([`relax_into`](crate::navmesh::relax::relax_into)) knows only the
//! portals, not the walls, so at a radius its path can still come within the radius of a
//! wall; before this fix the pipeline's validation skipped the step on 20–97 % of Moving
//! AI paths. [`RelaxFix::fix`] replaces each such stretch by the funnel at the radius (or
//! the world's own path), so the step's result keeps the radius (see the
//! [relax module docs](mod@crate::navmesh::relax) and `tests/relax_radius.rs`).

use glam::DVec2;

use crate::error::Result;
use crate::navmesh::funnel::Funnel;
use crate::navmesh::portals::{portals_into, Portal};
use crate::navmesh::relax::{relax_into, RelaxParams};
use crate::navmesh::NavMeshQuery;
use crate::world::{path_is_clear, World};

/// The relax step's scratch: the navmesh query that finds the channel, its portals and the
/// fix at a radius, kept between runs so that a pipeline run allocates nothing once warm.
#[derive(Debug, Default)]
pub(super) struct RelaxStage {
    query: NavMeshQuery,
    portals: Vec<Portal>,
    fix: RelaxFix,
}

impl RelaxStage {
    /// The relax step from `start` to `goal` into `out`: the channel (the cheapest one with
    /// area costs on a navmesh with areas; at a radius, the channel with room for the agent),
    /// the waypoints slid along its portals the agent radius plus the parameters' margin
    /// from their ends, then, at a radius, the local fix (`world_query` is the world's
    /// path-finding scratch, for it).
    #[allow(clippy::too_many_arguments)] // the step's inputs, the world's scratch and `out`
    pub(super) fn run<W: World>(
        &mut self,
        world: &W,
        params: &RelaxParams,
        radius: f64,
        world_query: &mut W::Query,
        start: DVec2,
        goal: DVec2,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        let mesh = world.navmesh()?;
        let channel = match world.cost_filter().filter(|_| mesh.has_areas()) {
            Some(costs) => {
                self.query
                    .find_path_with_costs(mesh, costs, start, goal, radius)?;
                self.query.channel()
            }
            None => self.query.find_channel(mesh, start, goal, radius)?,
        };
        portals_into(mesh, channel, &mut self.portals)?;
        // Keep the waypoints the agent radius plus the article's margin from the portal
        // ends (at radius 0, the margin alone).
        let params = RelaxParams {
            margin: params.margin + radius,
            ..*params
        };
        relax_into(&self.portals, start, goal, &params, out)?;
        if radius > 0.0 {
            self.fix.fix(world, &self.portals, world_query, radius, out);
        }
        Ok(())
    }
}

/// The relax step's fix at a radius, with its scratch (two buffers and a funnel).
#[derive(Debug, Default)]
struct RelaxFix {
    /// The fixed path being built, then swapped with the caller's.
    fixed: Vec<DVec2>,
    /// One replacement stretch (the funnel's or the world's path).
    stretch: Vec<DVec2>,
    funnel: Funnel,
}

impl RelaxFix {
    /// The relax step's local fix at a radius > 0: a relaxed node can still come within the
    /// radius of a wall (near a wall edge that meets its portal's end at an acute angle), and
    /// a segment between two nodes can cut the circle of the radius round the corner both of
    /// their portals end at. Each maximal stretch of such nodes and segments, between nodes
    /// that keep the radius, is replaced by the funnel path at the radius between those two
    /// nodes through the portals they lie on and those between (so it wraps the corner at the
    /// radius), if that path is clear on the world — else (the funnel knows only the portal
    /// ends, not the world's other walls near them) by the world's own path at the radius
    /// between them (grid A*, the navmesh search). A stretch neither can replace is left as it
    /// was (the pipeline's validation then skips the step). `path` is the relaxed path
    /// through `portals` (node `k` on portal `k − 1`); its ends are kept.
    fn fix<W: World>(
        &mut self,
        world: &W,
        portals: &[Portal],
        query: &mut W::Query,
        radius: f64,
        path: &mut Vec<DVec2>,
    ) {
        let Self {
            fixed,
            stretch,
            funnel,
        } = self;
        let n = path.len();
        if n < 2 || portals.len() + 2 != n {
            return;
        }
        let node_ok = |k: usize| k == 0 || k == n - 1 || world.clearance(path[k]) >= radius;
        fixed.clear();
        fixed.push(path[0]);
        // The last node that keeps the radius (already in `fixed`), and whether the path
        // after it has gone bad.
        let (mut anchor, mut bad, mut replaced) = (0, false, false);
        for k in 1..n {
            if !node_ok(k) {
                bad = true;
                continue;
            }
            if !bad && world.segment_is_clear(path[k - 1], path[k], radius) {
                fixed.push(path[k]);
            } else {
                let (a, b) = (path[anchor], path[k]);
                // Node j lies on portal j − 1: the portals of a and b and those between (or,
                // where a node on its own portal's line reads as on its wrong side, without
                // that portal). `hi` can be 0 (no portals: start and goal in one triangle),
                // so the bound is tested without subtracting from it.
                let (lo, hi) = (anchor.max(1) - 1, k.min(n - 2));
                let wrapped = [(0, 0), (1, 0), (0, 1), (1, 1)].iter().any(|&(x, y)| {
                    lo + x + y <= hi
                        && funnel
                            .funnel_into(&portals[lo + x..hi - y], a, b, radius, stretch)
                            .is_ok()
                        && stretch.len() >= 2
                        && path_is_clear(world, stretch, radius)
                }) || (world.find_path_into(a, b, radius, query, stretch).is_ok()
                    && stretch.len() >= 2
                    && path_is_clear(world, stretch, radius));
                if wrapped {
                    fixed.extend_from_slice(&stretch[1..stretch.len() - 1]);
                    replaced = true;
                } else {
                    fixed.extend_from_slice(&path[anchor + 1..k]);
                }
                fixed.push(b);
            }
            anchor = k;
            bad = false;
        }
        if replaced {
            drop_reversals(world, radius, fixed, stretch);
            std::mem::swap(path, stretch);
        } else {
            std::mem::swap(path, fixed);
        }
    }
}

/// Writes `path` into `out` without its repeated points and without each node where it
/// doubles back (turns by more than 90°) when the segment between that node's neighbours is
/// clear at `radius`; the ends are kept. A replacement stretch can end that way: the
/// world's path on a grid runs through cell centres, so it can pass the stretch's end (a
/// point on a cell's edge), come back to it, and the relaxed path then turns on into the
/// cell again (a 180° spike, on 50 of 300 demo-map paths at radius 0.5 before this). Each
/// dropped node's neighbours are joined by a segment found clear, so the path stays valid.
fn drop_reversals<W: World + ?Sized>(world: &W, radius: f64, path: &[DVec2], out: &mut Vec<DVec2>) {
    out.clear();
    for &p in path {
        while let [.., a, b] = out[..] {
            if out.last() == Some(&p)
                || (b - a).dot(p - b) >= 0.0
                || !world.segment_is_clear(a, p, radius)
            {
                break;
            }
            out.pop();
        }
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
}
