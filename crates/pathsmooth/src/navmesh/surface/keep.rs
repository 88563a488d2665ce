//! A surface restricted to some of its polygons (the route of a path,
//! `SurfaceWorld::route_world`), and the copy-and-rebuild it shares with the obstacle cut.

use super::{Detail, Surface, SurfaceData, SurfaceOptions};
use crate::error::{Error, Result};

impl Surface {
    /// The surface of the polygons `p` with `keep[p]` (one flag per polygon), in their
    /// order: a wall wherever a kept polygon bordered a dropped one. Every kept polygon
    /// keeps its corners, area, flags, [reference](Self::polygon_ref) and detail mesh, and
    /// the bake's agent is kept; the off-mesh links are not (a route is the polygons a
    /// path crosses).
    ///
    /// Errors: [`Error::NoFreeSpace`] when no polygon is kept; those of
    /// [`Surface::from_data`] on the kept polygons (none expected of a surface it built).
    /// Cost: O(polygons + corners) for the copy, and the builder's O(n log n).
    pub(crate) fn keep_polygons(&self, keep: &[bool]) -> Result<Surface> {
        debug_assert_eq!(keep.len(), self.num_polygons());
        let (mut data, mut detail) = self.empty_copy();
        for p in (0..self.num_polygons()).filter(|&p| keep[p]) {
            let p = p as u32;
            data.polygons.push(self.polygon(p).to_vec());
            data.areas.push(self.area(p));
            data.flags.push(self.flags(p));
            data.refs.push(self.polygon_ref(p));
            if let (Some(d), Some(old)) = (&mut detail, &self.detail) {
                d.meshes.push(old.meshes[p as usize]);
            }
        }
        self.rebuilt(data, detail)
    }

    /// What a surface made from this one's polygons starts from: its vertices, up axis
    /// and bake agent, no polygon; and its detail mesh (if any) with no sub-mesh yet.
    pub(super) fn empty_copy(&self) -> (SurfaceData, Option<Detail>) {
        let data = SurfaceData {
            vertices: self.vertices.clone(),
            agent: self.agent,
            ..SurfaceData::new(self.up)
        };
        let detail = self.detail.as_ref().map(|d| Detail {
            meshes: Vec::new(),
            ..d.clone()
        });
        (data, detail)
    }

    /// The surface of `data` with `detail`, built with this one's weld tolerance.
    /// Errors: [`Error::NoFreeSpace`] when `data` has no polygon; those of
    /// [`Surface::from_data`].
    pub(super) fn rebuilt(&self, mut data: SurfaceData, detail: Option<Detail>) -> Result<Surface> {
        if data.polygons.is_empty() {
            return Err(Error::NoFreeSpace);
        }
        data.detail = detail;
        let options = SurfaceOptions {
            weld: Some(self.weld),
            ..SurfaceOptions::new(self.up)
        };
        Surface::from_data(&data, &options)
    }
}
