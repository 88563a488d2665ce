//! A navmesh as a file or an engine gives it, before a [`Surface`] is built from it: what
//! every reader produces (navmesh JSON, Recast's poly mesh, Detour's binary tiles, Godot's
//! `NavigationMesh`, Unity's triangulation, OBJ), so that one builder repairs and checks
//! them all the same way.

use glam::DVec3;

use super::{Detail, OffMeshLink, Surface, SurfaceOptions, UpAxis};
use crate::cancel::Cancel;
use crate::error::{Error, Result};

/// The agent a navmesh was baked for, as far as the file says (world units; `None` where
/// the file is silent). Recast and Detour call these `walkableHeight`, `walkableRadius`
/// and `walkableClimb`; Godot `agent_height`, `agent_radius` and `agent_max_climb`.
///
/// ```
/// use pathsmooth::navmesh::BakeAgent;
/// let agent = BakeAgent { climb: Some(0.9), ..BakeAgent::default() };
/// assert_eq!((agent.climb, agent.radius), (Some(0.9), None));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BakeAgent {
    /// The agent's height.
    pub height: Option<f64>,
    /// The agent's radius (the bake keeps this far from walls).
    pub radius: Option<f64>,
    /// The largest step the agent climbs: how far above or below a floor a point may be
    /// and still be on it.
    pub climb: Option<f64>,
}

/// A navmesh as its source gives it: 3D vertices, convex polygons as vertex index lists
/// (either winding), and what else the source carries. Readers fill it in and
/// [`Surface::from_data`] builds the surface; nothing here is checked until then.
///
/// ```
/// use glam::DVec3;
/// use pathsmooth::navmesh::{Surface, SurfaceData, SurfaceOptions, UpAxis};
/// let data = SurfaceData {
///     vertices: vec![DVec3::ZERO, DVec3::X, DVec3::Z],
///     polygons: vec![vec![0, 1, 2]],
///     ..SurfaceData::new(UpAxis::Y)
/// };
/// let s = Surface::from_data(&data, &SurfaceOptions::default())?;
/// assert_eq!(s.num_polygons(), 1);
/// # Ok::<(), pathsmooth::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceData {
    /// Which world axis is up. Readers of formats that fix it (Recast, Detour, Godot,
    /// Unity: y) set it; a caller's options cannot override it.
    pub up: UpAxis,
    /// The vertices, world axes.
    pub vertices: Vec<DVec3>,
    /// The polygons: indices into `vertices`, 3 or more each, convex in plan view, either
    /// winding.
    pub polygons: Vec<Vec<u32>>,
    /// One area id per polygon, or empty (every polygon area 0).
    pub areas: Vec<u8>,
    /// One flags word per polygon, or empty (every polygon 0).
    pub flags: Vec<u16>,
    /// The file's own reference for each polygon (Detour's `dtPolyRef`, say), or empty
    /// (the reference is then the polygon's index in `polygons`).
    pub refs: Vec<u64>,
    /// Recast's detail mesh: one sub-mesh per polygon of `polygons`, in order.
    pub detail: Option<Detail>,
    /// Off-mesh links.
    pub links: Vec<OffMeshLink>,
    /// The agent the navmesh was baked for, where the file says.
    pub agent: BakeAgent,
}

impl SurfaceData {
    /// Empty data with `up` as the up axis.
    pub fn new(up: UpAxis) -> Self {
        SurfaceData {
            up,
            vertices: Vec::new(),
            polygons: Vec::new(),
            areas: Vec::new(),
            flags: Vec::new(),
            refs: Vec::new(),
            detail: None,
            links: Vec::new(),
            agent: BakeAgent::default(),
        }
    }
}

impl SurfaceData {
    /// The data of a triangulation as Unity's `NavMesh.CalculateTriangulation()` gives it
    /// (`NavMeshTriangulation`: `vertices`, `indices` three per triangle, `areas` one per
    /// triangle — Unity's area indices, 0 "Walkable", 1 "Not Walkable", 2 "Jump", 3–31 the
    /// project's own — or empty), y up. Each triangle is a polygon; Unity repeats the
    /// vertices of every tile, which [`Surface::from_data`] welds.
    ///
    /// Errors: [`Error::BadParameter`] for `indices` not a whole number of triangles, or
    /// `areas` neither empty nor one per triangle. Indices out of range are the builder's
    /// error.
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, SurfaceData, SurfaceOptions};
    /// // Two triangles of a tile, with their own copies of the shared corners.
    /// let v = [DVec3::ZERO, DVec3::X, DVec3::new(1.0, 0.0, 1.0), DVec3::ZERO, DVec3::new(1.0, 0.0, 1.0), DVec3::Z];
    /// let data = SurfaceData::from_triangles(&v, &[0, 1, 2, 3, 4, 5], &[0, 2])?;
    /// let s = Surface::from_data(&data, &SurfaceOptions::default())?;
    /// assert_eq!((s.num_polygons(), s.area(1)), (2, 2));
    /// assert_eq!(s.neighbors(0).flatten().count(), 1);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn from_triangles(vertices: &[DVec3], indices: &[u32], areas: &[u8]) -> Result<Self> {
        if !indices.len().is_multiple_of(3) {
            return Err(Error::param(
                "indices",
                indices.len() as f64,
                "three per triangle",
            ));
        }
        let triangles = indices.len() / 3;
        if !areas.is_empty() && areas.len() != triangles {
            return Err(Error::param(
                "areas",
                areas.len() as f64,
                "one per triangle, or none",
            ));
        }
        Ok(SurfaceData {
            vertices: vertices.to_vec(),
            polygons: indices.chunks_exact(3).map(<[u32]>::to_vec).collect(),
            areas: areas.to_vec(),
            ..SurfaceData::new(UpAxis::Y)
        })
    }
}

impl Surface {
    /// Builds a surface from a reader's `data`, read as `options` say (its `up` is the
    /// data's): the polygons ([`from_polygons_with`](Self::from_polygons_with): welded,
    /// cleaned, joined), then the detail mesh ([`with_detail`](Self::with_detail); the
    /// sub-meshes of polygons dropped while building are dropped with them) and the links
    /// ([`with_links`](Self::with_links), but a link with an end that has no floor within
    /// its radius is left out and counted in the [`LoadReport`](super::LoadReport)'s `unconnected_links`, as
    /// Detour and Godot leave it unconnected); the surface keeps the file's polygon
    /// references ([`polygon_ref`](Self::polygon_ref)) and the bake's agent
    /// ([`bake_agent`](Self::bake_agent)).
    ///
    /// Errors: those of the three calls above; [`Error::BadParameter`] for `refs` neither
    /// empty nor one per polygon, or an agent value that is not a finite number ≥ 0; [`Error::InvalidPolygon`] for a detail mesh without one
    /// sub-mesh per input polygon.
    ///
    /// Cost: as those calls.
    pub fn from_data(data: &SurfaceData, options: &SurfaceOptions) -> Result<Surface> {
        Self::from_data_with(data, options, None)
    }

    /// [`from_data`](Self::from_data), stopped with [`Error::Cancelled`] when `cancel` is
    /// cancelled or its deadline passes (see [`Cancel`]): read every
    /// 1,024 polygons built, vertices tested for
    /// T-junctions and polygons tested for links, and every round of cleaning a long
    /// polygon ring. For a server that builds what its clients send: some inputs take
    /// quadratic time (a fan of edges over most of the mesh for the T-junction search,
    /// many links with large radii).
    ///
    /// ```
    /// use glam::DVec3;
    /// use pathsmooth::navmesh::{Surface, SurfaceData, SurfaceOptions, UpAxis};
    /// use pathsmooth::{Cancel, Error};
    /// let data = SurfaceData {
    ///     vertices: vec![DVec3::ZERO, DVec3::X, DVec3::Z],
    ///     polygons: vec![vec![0, 1, 2]],
    ///     ..SurfaceData::new(UpAxis::Y)
    /// };
    /// let cancel = Cancel::new();
    /// assert!(Surface::from_data_cancellable(&data, &SurfaceOptions::default(), &cancel).is_ok());
    /// cancel.cancel();
    /// let e = Surface::from_data_cancellable(&data, &SurfaceOptions::default(), &cancel);
    /// assert_eq!(e.unwrap_err(), Error::Cancelled);
    /// ```
    pub fn from_data_cancellable(
        data: &SurfaceData,
        options: &SurfaceOptions,
        cancel: &Cancel,
    ) -> Result<Surface> {
        Self::from_data_with(data, options, Some(cancel))
    }

    fn from_data_with(
        data: &SurfaceData,
        options: &SurfaceOptions,
        cancel: Option<&Cancel>,
    ) -> Result<Surface> {
        let options = SurfaceOptions {
            up: data.up,
            ..*options
        };
        for (name, value) in [
            ("agent height", data.agent.height),
            ("agent radius", data.agent.radius),
            ("agent climb", data.agent.climb),
        ] {
            if let Some(v) = value
                && !(v.is_finite() && v >= 0.0)
            {
                return Err(Error::param(name, v, "a finite number ≥ 0"));
            }
        }
        if !data.refs.is_empty() && data.refs.len() != data.polygons.len() {
            return Err(Error::BadParameter {
                name: "refs",
                value: data.refs.len() as f64,
                expected: "as many entries as polygons, or none",
            });
        }
        let mut surface = Surface::build(
            &data.vertices,
            &data.polygons,
            (&data.areas, &data.flags),
            &options,
            cancel,
        )
        .map_err(|issue| issue.error)?;
        surface.refs = data.refs.clone();
        surface.agent = data.agent;
        if let Some(detail) = &data.detail {
            if detail.meshes.len() != data.polygons.len() {
                return Err(Error::InvalidPolygon {
                    message: format!(
                        "the detail mesh has {} sub-meshes for {} polygons: it needs one per polygon",
                        detail.meshes.len(),
                        data.polygons.len()
                    ),
                });
            }
            let kept = Detail {
                meshes: (0..surface.num_polygons() as u32)
                    .map(|p| detail.meshes[surface.input_polygon(p) as usize])
                    .collect(),
                ..detail.clone()
            };
            surface = surface.with_detail(kept)?;
        }
        if !data.links.is_empty() {
            surface = surface.attach_links(&data.links, cancel, true)?;
        }
        Ok(surface)
    }
}
