//! The layered query's exact search: Polyanya (`navmesh::polyanya`, the one search under
//! both navmesh queries) over the surface's convex polygons merged into larger convex ones
//! (`SearchPolygons`, as Cui, Harabor & Grastien's own implementation runs it), the
//! merged polygons it crosses mapped back to the surface's polygons.

use glam::DVec2;

use super::SurfaceMesh;
use crate::navmesh::mesh::PolyId;
use crate::navmesh::polyanya::{ConvexPolygons, Polyanya, Unfiltered};

/// The polygon search's scratch (kept by [`SurfaceQuery`](super::SurfaceQuery)).
#[derive(Debug, Clone, Default)]
pub(crate) struct PolySearch {
    search: Polyanya,
    polygons: Vec<PolyId>,
    /// `entry[k]`: the edge of `polygons[k + 1]` shared with `polygons[k]`.
    entry: Vec<u32>,
    /// `SearchPolygons::members_between`'s scratch.
    down: Vec<u32>,
}

impl PolySearch {
    /// The last path's plan-view points.
    pub(crate) fn path(&self) -> &[DVec2] {
        self.search.path()
    }

    /// The surface polygons the last path crosses, in order.
    pub(crate) fn polygons(&self) -> &[PolyId] {
        &self.polygons
    }

    /// The edge of `polygons[k + 1]` it was entered by from `polygons[k]`.
    pub(crate) fn entries(&self) -> &[u32] {
        &self.entry
    }

    /// The shortest path from `start` in polygon `s` to `goal` in polygon `g` (both in
    /// plan view, inside their polygons); false when they are not connected.
    pub(crate) fn find(
        &mut self,
        mesh: &SurfaceMesh,
        (start, s): (DVec2, PolyId),
        (goal, g): (DVec2, PolyId),
    ) -> bool {
        self.polygons.clear();
        self.entry.clear();
        let sp = mesh.search_polygons();
        let (ms, mg) = (sp.of[s as usize], sp.of[g as usize]);
        if !self
            .search
            .find(sp, &mut Unfiltered, (start, ms), (goal, mg))
        {
            return false;
        }
        self.members(mesh, s, g);
        true
    }

    /// Maps the merged polygons the search crossed (and their entry edges) to the surface
    /// polygons from `s` to `g` (see `SearchPolygons::members_between`).
    fn members(&mut self, mesh: &SurfaceMesh, s: PolyId, g: PolyId) {
        let sp = mesh.search_polygons();
        self.polygons.push(s);
        let mut at = s;
        let (merged, entries) = (self.search.polygons(), self.search.entries());
        for (k, &m) in merged.iter().enumerate().skip(1) {
            // The edge entered by, as the surface's: its polygon, and the one left behind.
            let (p, e) = sp.corner_member[sp.corners_of(m).start + entries[k - 1] as usize];
            let left = mesh.corner_neighbor(p, e);
            sp.members_between(
                (at, left),
                &mut self.polygons,
                &mut self.entry,
                &mut self.down,
            );
            self.polygons.push(p);
            self.entry.push(e);
            at = p;
        }
        sp.members_between((at, g), &mut self.polygons, &mut self.entry, &mut self.down);
    }
}
