//! A navmesh world: the free region is the union of a navmesh's triangles.

use glam::DVec2;

use super::{check_ends, clearance_error, first_problem, path_is_clear, settle, Bounds, World};
use crate::error::{num, Error, Result};
use crate::geometry::{closest_on_segment, segment_distance};
use crate::navmesh::mesh::boxes::BoxIndex;
use crate::navmesh::mesh::NavMesh;
use crate::navmesh::NavMeshQuery;

/// A [`NavMesh`] as a [`World`]: everything outside its triangles is blocked, so a point's
/// clearance is its distance to the nearest boundary edge (an edge with no triangle on its
/// other side).
///
/// The boundary edges are kept in a grid of buckets over the mesh's bounds (a hierarchy
/// of them, so long walls cost no more than short ones), about as many buckets as edges, so a clearance query looks at the edges near the point and a
/// segment test at the edges near the segment. Containment uses the mesh's exact walk
/// ([`NavMesh::line_of_sight`]): a segment is clear at radius 0 when it stays in the
/// triangles (touching the boundary allowed), and at radius `r > 0` when moreover every
/// boundary edge is at least `r` away.
///
/// Cost: building O(e) for e boundary edges (plus the mesh); a clearance query
/// O(point location + edges in the buckets searched), a segment test O(triangles crossed
/// + edges in the buckets the segment's box, grown by the radius, overlaps).
///
/// ```
/// use glam::DVec2;
/// use pathsmooth::navmesh::{NavMesh, Scene};
/// use pathsmooth::{NavMeshWorld, World};
/// let mesh = NavMesh::from_scene(&Scene {
///     boundary: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
///     holes: vec![vec![[4.0, 4.0], [6.0, 4.0], [6.0, 6.0], [4.0, 6.0]]],
/// })?;
/// let world = NavMeshWorld::new(mesh);
/// assert_eq!(world.clearance(DVec2::new(2.0, 5.0)), 2.0); // the wall at x = 0 and the hole at x = 4
/// assert_eq!(world.clearance(DVec2::new(5.0, 5.0)), 0.0); // inside the hole
/// assert!(world.segment_is_clear(DVec2::new(1.0, 1.0), DVec2::new(9.0, 1.0), 1.0));
/// assert!(!world.segment_is_clear(DVec2::new(1.0, 1.0), DVec2::new(9.0, 1.0), 1.5));
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct NavMeshWorld {
    mesh: NavMesh,
    index: EdgeIndex,
}

impl NavMeshWorld {
    /// Wraps `mesh`, indexing its boundary edges (O(edges)).
    pub fn new(mesh: NavMesh) -> Self {
        let mut edges = Vec::new();
        for t in 0..mesh.num_triangles() {
            let tri = mesh.triangle(t);
            for (i, n) in mesh.neighbors(t).iter().enumerate() {
                if n.is_none() {
                    edges.push([tri[i], tri[(i + 1) % 3]]);
                }
            }
        }
        let bounds = Bounds::around(mesh.vertices().iter().copied())
            .unwrap_or(Bounds::new(DVec2::ZERO, DVec2::ZERO));
        NavMeshWorld {
            index: EdgeIndex::new(edges, bounds),
            mesh,
        }
    }

    /// The navmesh.
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// The boundary edges (walls), each once.
    pub fn walls(&self) -> &[[DVec2; 2]] {
        &self.index.edges
    }
}

impl World for NavMeshWorld {
    fn bounds(&self) -> Bounds {
        self.index.bounds
    }

    fn clearance(&self, p: DVec2) -> f64 {
        if self.mesh.locate(p).is_none() {
            return 0.0;
        }
        self.index.distance_to_point(p)
    }

    fn segment_is_clear(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        if radius.is_nan() || radius < 0.0 || !self.mesh.line_of_sight(a, b) {
            return false;
        }
        radius == 0.0 || self.index.segment_distance_capped(a, b, radius) >= radius
    }

    fn segment_clearance(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        if !self.mesh.line_of_sight(a, b) {
            return 0.0;
        }
        self.index.segment_distance_capped(a, b, cap)
    }

    /// The shortest path from `start` to `goal` by the navmesh query
    /// ([`NavMeshQuery`]): exact at radius 0 (Polyanya); with
    /// a radius, the funnel with that radius through the channel of a search restricted to
    /// passages at least `2·radius` wide. A radius path must keep the radius itself (the
    /// world's [tolerance](World::tolerance) is for input; only the error of computing a
    /// clearance, 64 units in the last place of the largest coordinate, is allowed). The
    /// funnel first builds its circles a hair outside the radius; in a passage exactly
    /// `2·radius` wide that leaves the order of the corners to rounding, so when the result
    /// is not clear it is rebuilt with circles of the radius itself, then the path through
    /// the portals' midpoints is tried; last, a funnel a hair inside the radius that keeps
    /// it within the world's tolerance (some passages exactly `2·radius` wide admit nothing
    /// else). When none is clear the result is [`Error::InvalidResult`] — never a path that
    /// is not valid.
    ///
    /// Errors as [`NavMeshQuery::find_path`]. Cost: the query (no allocation once
    /// `query` and `out` have grown), plus one clearance check of the path per attempt.
    fn find_path_into(
        &self,
        start: DVec2,
        goal: DVec2,
        radius: f64,
        query: &mut NavMeshQuery,
        out: &mut Vec<DVec2>,
    ) -> Result<()> {
        path_on_mesh(self, &self.mesh, query, start, goal, radius, out)
    }

    fn navmesh(&self) -> Result<&NavMesh> {
        Ok(&self.mesh)
    }
}

/// Line segments in a [`BoxIndex`] over a rectangle, about one bucket of its finest level
/// per edge.
#[derive(Debug, Clone)]
struct EdgeIndex {
    edges: Vec<[DVec2; 2]>,
    bounds: Bounds,
    /// The finest buckets' side, about: where the doubling search for the nearest edge
    /// starts.
    side: f64,
    index: BoxIndex,
}

impl EdgeIndex {
    fn new(edges: Vec<[DVec2; 2]>, bounds: Bounds) -> Self {
        let boxes = edges.iter().map(|&[a, b]| (a.min(b), a.max(b)));
        let index = BoxIndex::new(bounds.min, bounds.max, edges.len() as f64, boxes);
        let side = index.bucket_size().max_element();
        EdgeIndex {
            edges,
            bounds,
            side,
            index,
        }
    }

    /// The smallest of `cap` and `dist(edge)` over the edges whose boxes may overlap the box
    /// `lo..=hi`.
    fn min_over_box(
        &self,
        lo: DVec2,
        hi: DVec2,
        cap: f64,
        dist: impl Fn([DVec2; 2]) -> f64,
    ) -> f64 {
        let mut best = cap;
        self.index.for_each_bucket(lo, hi, |list| {
            for &e in list {
                best = best.min(dist(self.edges[e as usize]));
            }
        });
        best
    }

    /// Distance from `p` to the nearest edge: boxes around `p` doubling until the nearest
    /// edge found lies within the box (so none outside can be nearer).
    fn distance_to_point(&self, p: DVec2) -> f64 {
        if self.edges.is_empty() || !p.is_finite() {
            return 0.0;
        }
        let dist = |[a, b]: [DVec2; 2]| p.distance(closest_on_segment(p, a, b).0);
        let whole = self.bounds.size().max_element() + self.bounds.min.distance(p) + self.side;
        let mut reach = self.side;
        loop {
            let d = self.min_over_box(p - reach, p + reach, f64::INFINITY, dist);
            if d <= reach || reach >= whole {
                return d;
            }
            reach *= 2.0;
        }
    }

    /// min(cap, distance from the segment `a`–`b` to the nearest edge).
    fn segment_distance_capped(&self, a: DVec2, b: DVec2, cap: f64) -> f64 {
        // NaN caps, non-positive caps and non-finite segments have no clearance to report.
        if cap.is_nan() || cap <= 0.0 || !a.is_finite() || !b.is_finite() {
            return 0.0;
        }
        let reach = DVec2::splat(cap);
        if cap.is_finite() {
            self.min_over_box(a.min(b) - reach, a.max(b) + reach, cap, |[c, d]| {
                segment_distance(a, b, c, d)
            })
        } else {
            let whole = self.bounds;
            self.min_over_box(whole.min, whole.max, cap, |[c, d]| {
                segment_distance(a, b, c, d)
            })
        }
    }
}

/// The navmesh path of [`NavMeshWorld`]'s [`find_path_into`](World::find_path_into) on
/// `mesh`, searched with `query` and checked against `world` (a navmesh world, or a grid
/// world and its own navmesh for the pipeline's funnel step), into `out`.
pub(crate) fn path_on_mesh<W: World + ?Sized>(
    world: &W,
    mesh: &NavMesh,
    query: &mut NavMeshQuery,
    start: DVec2,
    goal: DVec2,
    radius: f64,
    out: &mut Vec<DVec2>,
) -> Result<()> {
    let radius = check_ends(world, start, goal, radius)?;
    out.clear();
    out.extend_from_slice(query.find_path(mesh, start, goal, radius)?);
    if radius == 0.0 {
        return Ok(());
    }
    // Outputs keep the radius itself, up to the error of computing a clearance.
    let accept = radius - clearance_error(world);
    if path_is_clear(world, out, accept) {
        return Ok(());
    }
    let first = first_problem(world, out, accept);
    if query
        .refunnel_into(start, goal, radius, radius, out)
        .is_ok()
        && path_is_clear(world, out, accept)
    {
        return Ok(());
    }
    out.clear();
    out.push(start);
    out.extend(query.portals().iter().map(|p| p.midpoint()));
    out.push(goal);
    out.dedup();
    if path_is_clear(world, out, accept) {
        return Ok(());
    }
    // Last, the funnel a hair inside the radius: in some passages exactly `2·radius` wide
    // (one-cell corridors at radius ½ on grid meshes) nothing else gets through. Its points
    // are then settled out to the radius itself where they can be (moved off the walls by
    // the shortfall, or onto the passage's centre line); what remains keeps the radius
    // within the world's tolerance, valid as input, and the pipeline's final check (which
    // asks for the radius itself) settles or refuses it.
    let tol = world.tolerance();
    if query
        .refunnel_into(start, goal, radius, radius - 0.5 * tol, out)
        .is_ok()
        && path_is_clear(world, out, (radius - tol).max(0.0))
    {
        // (A copy, in this rare case, to keep the path as found should settling leave it
        // worse somewhere.)
        let found = out.clone();
        settle(world, None, radius, out);
        if !path_is_clear(world, out, (radius - tol).max(0.0)) {
            out.clone_from(&found);
        }
        return Ok(());
    }
    out.clear();
    let reason = match first {
        Some((i, at)) => format!(
            "segment {i} comes closer than the radius {} to a wall near ({}, {})",
            num(radius),
            num(at.x),
            num(at.y)
        ),
        None => "the path is not clear".into(),
    };
    Err(Error::InvalidResult {
        step: "navmesh plan",
        reason,
    })
}
