//! The polygon search's own polygons: the surface's convex polygons merged, across shared
//! edges, into larger polygons that are still convex in plan view.
//!
//! Polyanya expands one node per polygon its cones cross, so its cost follows the number
//! of polygons between the ends, and a triangulated export (Unity's
//! `NavMesh.CalculateTriangulation`, two or three triangles where Recast would keep one
//! polygon) costs it two or three times what the same floor in convex polygons does. Cui,
//! Harabor & Grastien (*Compromise-free Pathfinding on a Navigation Mesh*, IJCAI 2017)
//! merge their meshes for this reason. The merge is greedy, as Hertel and Mehlhorn's: a
//! shared edge is removed when both its ends stay convex; what it makes is the same floor,
//! so the shortest path over it is the shortest path over the surface.
//!
//! The surface's polygons stay what every caller sees: the members of a search polygon,
//! joined by the edges the merge removed, form a tree, and the search polygons a path crosses
//! polygons is mapped back to the surface's polygons by walking those trees
//! ([`SearchPolygons::members_between`]). Within a convex search polygon a taut path is one
//! straight segment from the edge it enters by to the edge it leaves by, and a straight
//! segment crosses each removed edge at most once, so the tree's path between the members
//! it enters and leaves is the run of surface polygons it crosses.

use glam::DVec2;

use crate::geometry::cross;
use crate::navmesh::mesh::PolyId;
use crate::navmesh::polyanya::ConvexPolygons;

const NONE: u32 = u32::MAX;

/// The most corners a merged polygon may have. Polyanya's expansion scans a polygon's
/// corners, so a very large polygon costs every node that enters it. On the engine files
/// measured convexity stops the merge first (on Unity's triangulated export, caps of 8, 16
/// and 32 gave the same query time within noise: `docs/detour-peer.md`); the cap bounds
/// what an adversarial mesh can make.
const MAX_CORNERS: usize = 12;

/// The surface's polygons as the polygon search sees them (see the [module docs](self)),
/// in the per-corner layout of [`SurfaceMesh`](super::SurfaceMesh), each polygon's ring
/// stored twice over so that the search walks on from any corner without wrapping round
/// (`corner_after`): 80 bytes a corner (two [`SearchCorner`]s and two members) and 20 a
/// surface polygon.
#[derive(Debug, Clone, Default)]
pub(crate) struct SearchPolygons {
    /// Search polygon `m`'s ring, twice over, is `corner_start[m]..corner_start[m + 1]`;
    /// its corners (`corners_of`) are the first half.
    pub(crate) corner_start: Vec<u32>,
    /// The corners: what the search reads of one, in one place.
    pub(crate) corners: Vec<SearchCorner>,
    /// Search polygon → how many of its edges have a neighbour.
    pub(crate) exits: Vec<u8>,
    /// The surface polygon and its edge that this corner's edge is (twice over, as
    /// `corners`).
    pub(crate) corner_member: Vec<(PolyId, u32)>,
    /// Surface polygon → its search polygon.
    pub(crate) of: Vec<u32>,
    /// Surface polygon → its parent in its search polygon's tree of members (`NONE`: the
    /// root), the parent's edge to it, its own edge to the parent, and its depth.
    up: Vec<u32>,
    up_edge_parent: Vec<u32>,
    up_edge_self: Vec<u32>,
    depth: Vec<u32>,
    /// The number of plan-view vertices the corners index.
    vertices: usize,
}

/// A search polygon's corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SearchCorner {
    /// The corner's plan-view position (its vertex's, kept per corner so that the search
    /// reads a polygon's corners from one run of memory).
    pub(crate) pos: DVec2,
    /// The corner's vertex.
    pub(crate) vert: u32,
    /// The search polygon across the edge from this corner to the next (`NONE`: a wall).
    pub(crate) nb: u32,
    /// That edge's index in the neighbour.
    pub(crate) nb_edge: u32,
    /// A taut path may turn at this corner (a member's corner there may).
    pub(crate) turn: bool,
}

/// The surface's per-corner topology ([`SurfaceMesh`](super::SurfaceMesh)'s arrays) that
/// the merge reads.
pub(crate) struct Corners<'a> {
    pub(crate) start: &'a [u32],
    pub(crate) vert: &'a [u32],
    pub(crate) nb: &'a [u32],
    pub(crate) nb_edge: &'a [u32],
    pub(crate) turn: &'a [bool],
}

impl Corners<'_> {
    fn of(&self, p: u32) -> std::ops::Range<usize> {
        self.start[p as usize] as usize..self.start[p as usize + 1] as usize
    }
}

impl SearchPolygons {
    /// Merges the polygons of `corners` over plan-view `vertices` (see the
    /// [module docs](self)). Cost: O(c log c) for the c corners (the shared edges sorted), and
    /// O(`MAX_CORNERS`) a merge tried.
    pub(crate) fn merge(corners: &Corners, vertices: &[DVec2]) -> Self {
        let np = corners.start.len() - 1;
        let corner_poly: Vec<u32> = (0..np as u32)
            .flat_map(|p| corners.of(p).map(move |_| p))
            .collect();
        // Each group's ring of surface corners (global indices), the group of a surface
        // polygon by union-find.
        let mut rings: Vec<Vec<u32>> = (0..np as u32)
            .map(|p| corners.of(p).map(|c| c as u32).collect())
            .collect();
        let mut group: Vec<u32> = (0..np as u32).collect();
        let find = |group: &mut Vec<u32>, mut p: u32| {
            while group[p as usize] != p {
                let up = group[group[p as usize] as usize];
                group[p as usize] = up;
                p = up;
            }
            p
        };
        let ccw = |ring: &[u32]| {
            let area: f64 = (0..ring.len())
                .map(|i| {
                    let a = vertices[corners.vert[ring[i] as usize] as usize];
                    let b = vertices[corners.vert[ring[(i + 1) % ring.len()] as usize] as usize];
                    cross(a, b)
                })
                .sum();
            area > 0.0
        };
        // The longest shared edges first (Hertel and Mehlhorn's order does not matter for
        // their bound; removing long edges first leaves fewer, rounder polygons).
        let length = |c: usize| {
            let p = corner_poly[c];
            let next = if c + 1 == corners.start[p as usize + 1] as usize {
                corners.start[p as usize] as usize
            } else {
                c + 1
            };
            let (u, v) = (corners.vert[c] as usize, corners.vert[next] as usize);
            vertices[u].distance_squared(vertices[v])
        };
        let mut shared: Vec<usize> = (0..corners.vert.len())
            .filter(|&c| corners.nb[c] != NONE && corners.nb[c] > corner_poly[c])
            .collect();
        shared.sort_by(|&x, &y| length(y).total_cmp(&length(x)).then(x.cmp(&y)));
        for c in shared {
            let (a, b) = (
                find(&mut group, corner_poly[c]),
                find(&mut group, corners.nb[c]),
            );
            if a == b {
                continue;
            }
            let ra = &rings[a as usize];
            // Too large is known before any ring is walked (a polygon of many corners would
            // otherwise cost a walk per neighbour).
            if ra.len() + rings[b as usize].len() - 2 > MAX_CORNERS {
                continue;
            }
            let Some(i) = ra.iter().position(|&d| d as usize == c) else {
                continue;
            };
            let Some(union) = union_of(ra, i, &rings[b as usize], corners, c) else {
                continue;
            };
            // Halves wound the same way in plan view (a surface folded over an edge would
            // wind them opposite, and their union would overlap itself).
            let wound = ccw(ra);
            let fits = wound == ccw(&rings[b as usize])
                && convex_at_joints(&union, ra.len() - 1, corners, vertices, wound)
                && !touches_twice(&union, a, b, corners, &mut group, find);
            if fits {
                rings[a as usize] = union;
                rings[b as usize].clear();
                group[b as usize] = a;
            }
        }
        Self::lay_out(corners, vertices, &corner_poly, &rings, &mut group, find)
    }

    /// The arrays of the merged `rings` (`rings[g]` empty for a group merged away).
    fn lay_out(
        corners: &Corners,
        vertices: &[DVec2],
        corner_poly: &[u32],
        rings: &[Vec<u32>],
        group: &mut Vec<u32>,
        find: impl Fn(&mut Vec<u32>, u32) -> u32,
    ) -> Self {
        let np = rings.len();
        let mut id = vec![NONE; np];
        let mut next = 0u32;
        for (g, ring) in rings.iter().enumerate() {
            if !ring.is_empty() {
                id[g] = next;
                next += 1;
            }
        }
        let of: Vec<u32> = (0..np as u32)
            .map(|p| id[find(group, p) as usize])
            .collect();
        // Surface corner → search corner, for the neighbours' edge indices.
        let mut search_corner = vec![NONE; corners.vert.len()];
        let mut sp = SearchPolygons {
            of,
            vertices: vertices.len(),
            ..Self::default()
        };
        // Where each ring goes (twice over, so that the search walks on from any corner
        // without wrapping), and its members' corners; the corners themselves below, once
        // every neighbour's place is known.
        sp.corner_start.push(0);
        for ring in rings.iter().filter(|r| !r.is_empty()) {
            let first = sp.corner_member.len();
            for &c in ring {
                search_corner[c as usize] = sp.corner_member.len() as u32;
                let p = corner_poly[c as usize];
                sp.corner_member.push((p, c - corners.start[p as usize]));
            }
            sp.corner_member.extend_from_within(first..);
            sp.corner_start.push(sp.corner_member.len() as u32);
        }
        // Members of each search polygon, to gather their turn bits and build their trees.
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); next as usize];
        for p in 0..np as u32 {
            members[sp.of[p as usize] as usize].push(p);
        }
        let mut turn_at = vec![NONE; vertices.len()];
        sp.up = vec![NONE; np];
        sp.up_edge_parent = vec![0; np];
        sp.up_edge_self = vec![0; np];
        sp.depth = vec![0; np];
        for (m, ring) in rings.iter().filter(|r| !r.is_empty()).enumerate() {
            let m = m as u32;
            for &p in &members[m as usize] {
                for c in corners.of(p).filter(|&c| corners.turn[c]) {
                    turn_at[corners.vert[c] as usize] = m;
                }
            }
            let mut exits = 0u8;
            for &c in ring {
                let nb = corners.nb[c as usize];
                let (n, e) = if nb == NONE {
                    (NONE, 0)
                } else {
                    let far = corners.start[nb as usize] + corners.nb_edge[c as usize];
                    exits = exits.saturating_add(1);
                    (
                        sp.of[nb as usize],
                        search_corner[far as usize] - sp.corner_start[sp.of[nb as usize] as usize],
                    )
                };
                let vert = corners.vert[c as usize];
                sp.corners.push(SearchCorner {
                    pos: vertices[vert as usize],
                    vert,
                    nb: n,
                    nb_edge: e,
                    turn: turn_at[vert as usize] == m,
                });
            }
            let first = sp.corners.len() - ring.len();
            sp.corners.extend_from_within(first..);
            sp.exits.push(exits);
            sp.tree(m, &members[m as usize], corners);
        }
        sp
    }

    /// The tree of `members` (search polygon `m`), from the first, over the removed edges.
    fn tree(&mut self, m: u32, members: &[u32], corners: &Corners) {
        let mut queue = vec![members[0]];
        let mut k = 0;
        while k < queue.len() {
            let p = queue[k];
            k += 1;
            for c in corners.of(p) {
                let q = corners.nb[c];
                if q == NONE
                    || self.of[q as usize] != m
                    || q == members[0]
                    || self.up[q as usize] != NONE
                {
                    continue;
                }
                self.up[q as usize] = p;
                self.up_edge_parent[q as usize] = (c - corners.start[p as usize] as usize) as u32;
                self.up_edge_self[q as usize] = corners.nb_edge[c];
                self.depth[q as usize] = self.depth[p as usize] + 1;
                queue.push(q);
            }
        }
    }

    /// Appends to `polygons` the surface polygons after `a` on the way to `b` through
    /// their search polygon's tree (both its members), and to `entry` the edge of each by
    /// which it is entered; `scratch` holds the way down from the meeting point.
    pub(crate) fn members_between(
        &self,
        (a, b): (PolyId, PolyId),
        polygons: &mut Vec<PolyId>,
        entry: &mut Vec<u32>,
        scratch: &mut Vec<u32>,
    ) {
        scratch.clear();
        let (mut x, mut y) = (a as usize, b as usize);
        let mut climb = |x: &mut usize| {
            polygons.push(self.up[*x]);
            entry.push(self.up_edge_parent[*x]);
            *x = self.up[*x] as usize;
        };
        while self.depth[x] > self.depth[y] {
            climb(&mut x);
        }
        while self.depth[y] > self.depth[x] {
            scratch.push(y as u32);
            y = self.up[y] as usize;
        }
        while x != y {
            climb(&mut x);
            scratch.push(y as u32);
            y = self.up[y] as usize;
        }
        for &t in scratch.iter().rev() {
            polygons.push(t);
            entry.push(self.up_edge_self[t as usize]);
        }
    }
}

/// The merged polygons as the search walks them.
impl ConvexPolygons for SearchPolygons {
    #[inline]
    fn faces(&self) -> usize {
        self.exits.len()
    }
    #[inline]
    fn vertex_count(&self) -> usize {
        self.vertices
    }
    #[inline]
    fn corners_of(&self, m: PolyId) -> std::ops::Range<usize> {
        let (start, end) = (
            self.corner_start[m as usize] as usize,
            self.corner_start[m as usize + 1] as usize,
        );
        start..start + (end - start) / 2
    }
    #[inline]
    fn corner_after(&self, first: usize, _: usize, k: usize) -> usize {
        first + k
    }
    #[inline]
    fn corner_vertex(&self, c: usize) -> u32 {
        self.corners[c].vert
    }
    #[inline]
    fn corner_point(&self, c: usize) -> DVec2 {
        self.corners[c].pos
    }
    #[inline]
    fn neighbour(&self, c: usize) -> u32 {
        self.corners[c].nb
    }
    #[inline]
    fn neighbour_edge(&self, c: usize) -> u32 {
        self.corners[c].nb_edge
    }
    #[inline]
    fn turns(&self, c: usize) -> bool {
        self.corners[c].turn
    }
    #[inline]
    fn dead_end(&self, m: PolyId) -> bool {
        self.exits[m as usize] <= 1
    }
}

/// The ring of `ra` and `rb` joined across `ra[i]` (surface corner `c`, whose edge is shared
/// with one of `rb`'s): `ra` from the edge's far end round to its near end, then `rb` from
/// there round to the far end. `None` when `rb` holds no edge twin of `c`.
fn union_of(ra: &[u32], i: usize, rb: &[u32], corners: &Corners, c: usize) -> Option<Vec<u32>> {
    let twin = corners.start[corners.nb[c] as usize] + corners.nb_edge[c];
    let j = rb.iter().position(|&d| d == twin)?;
    let (na, nb) = (ra.len(), rb.len());
    let mut u = Vec::with_capacity(na + nb - 2);
    u.extend((1..na).map(|k| ra[(i + k) % na]));
    u.extend((1..nb).map(|k| rb[(j + k) % nb]));
    Some(u)
}

/// True when the two corners where `union` joins its halves (the first corner, and
/// `joint`, the first of the second half) turn the ring's way, strictly: the union is then convex, as both
/// halves are and lie on either side of the removed edge. A joint that goes straight on is
/// refused: the search met such corners wrongly (on 18 of 36,000 random pairs over the
/// engine files a goal was "unreachable", 2 paths were up to 9 % long), where strict merges
/// gave every path the unmerged search gives.
fn convex_at_joints(
    union: &[u32],
    joint: usize,
    corners: &Corners,
    vertices: &[DVec2],
    ccw: bool,
) -> bool {
    let n = union.len();
    let at = |k: usize| vertices[corners.vert[union[k % n] as usize] as usize];
    let turns = |k: usize| {
        let (d0, d1) = (at(k) - at(k + n - 1), at(k + 1) - at(k));
        let t = cross(d0, d1);
        if ccw {
            t > 0.0
        } else {
            t < 0.0
        }
    };
    turns(0) && turns(joint)
}

/// True when an edge of `union` other than the removed one still joins groups `a` and `b`
/// (they shared two edges): the union would border itself.
fn touches_twice(
    union: &[u32],
    a: u32,
    b: u32,
    corners: &Corners,
    group: &mut Vec<u32>,
    find: impl Fn(&mut Vec<u32>, u32) -> u32,
) -> bool {
    union.iter().any(|&c| {
        let q = corners.nb[c as usize];
        q != NONE && {
            let g = find(group, q);
            g == a || g == b
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::import::load_surface;
    use crate::navmesh::layered::SurfaceMesh;
    use crate::navmesh::surface::UpAxis;
    use crate::navmesh::SurfaceOptions;

    /// Twice the signed plan-view area of a ring of vertex ids.
    fn area2(verts: &[DVec2], ring: impl Iterator<Item = u32> + Clone) -> f64 {
        let v: Vec<DVec2> = ring.map(|i| verts[i as usize]).collect();
        (0..v.len())
            .map(|i| cross(v[i], v[(i + 1) % v.len()]))
            .sum()
    }

    /// What the search relies on, checked on its own terms for every search polygon of
    /// `mesh`: convex (no corner turning against the ring), the members' areas summing to
    /// its own, each edge's neighbour pointing back across the same two vertices, the exit
    /// count right, and the tree path between any two members a chain of neighbours, each
    /// entered by the edge it shares with the one before.
    fn check(name: &str, mesh: &SurfaceMesh) -> (usize, usize) {
        let sp = mesh.search_polygons();
        let verts = mesh.plan_mesh().vertices();
        let surface = mesh.surface();
        let np = surface.num_polygons();
        let mut members: Vec<Vec<PolyId>> = vec![Vec::new(); sp.faces()];
        for p in 0..np as PolyId {
            members[sp.of[p as usize] as usize].push(p);
        }
        let (mut polygons, mut entry, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
        for m in 0..sp.faces() as u32 {
            let cs = sp.corners_of(m);
            let ring = || cs.clone().map(|c| sp.corners[c].vert);
            let whole = area2(verts, ring());
            let sum: f64 = members[m as usize]
                .iter()
                .map(|&p| area2(verts, surface.polygon(p).iter().copied()))
                .sum();
            assert!(
                (whole - sum).abs() <= 1e-9 * whole.abs().max(1e-12),
                "{name}: search polygon {m}: area {whole} against its members' {sum}"
            );
            let n = cs.len();
            assert_eq!(
                (
                    sp.corner_start[m as usize + 1] as usize - cs.end,
                    &sp.corners[cs.end..cs.end + n]
                ),
                (n, &sp.corners[cs.clone()]),
                "{name}: search polygon {m}: the ring's second copy"
            );
            let at = |k: usize| verts[sp.corners[cs.start + k % n].vert as usize];
            for k in 0..n {
                let turn = cross(at(k + 1) - at(k), at(k + 2) - at(k + 1));
                assert!(
                    turn * whole >= 0.0,
                    "{name}: search polygon {m} is not convex at corner {k}"
                );
            }
            let mut exits = 0;
            for k in 0..n {
                let c = cs.start + k;
                let q = sp.corners[c].nb;
                if q == NONE {
                    continue;
                }
                exits += 1;
                let back = sp.corners_of(q).start + sp.corners[c].nb_edge as usize;
                let qn = sp.corners_of(q).len();
                let back_next = sp.corners_of(q).start + (sp.corners[c].nb_edge as usize + 1) % qn;
                assert_eq!(
                    sp.corners[back].nb, m,
                    "{name}: {m} → {q} does not point back"
                );
                assert_eq!(
                    (sp.corners[back].vert, sp.corners[back_next].vert),
                    (sp.corners[cs.start + (k + 1) % n].vert, sp.corners[c].vert),
                    "{name}: {m} → {q}: the twin edge has other vertices"
                );
            }
            assert_eq!(sp.exits[m as usize] as usize, exits, "{name}: exits of {m}");
            let ms = &members[m as usize];
            for &a in ms {
                for &b in ms {
                    polygons.clear();
                    entry.clear();
                    polygons.push(a);
                    sp.members_between((a, b), &mut polygons, &mut entry, &mut scratch);
                    assert_eq!(polygons.last(), Some(&b), "{name}: {a} to {b}");
                    for (w, &e) in polygons.windows(2).zip(&entry) {
                        assert_eq!(
                            mesh.corner_neighbor(w[1], e),
                            w[0],
                            "{name}: {a} to {b}: {} is not entered from {} by its edge {e}",
                            w[1],
                            w[0]
                        );
                        assert_eq!(sp.of[w[1] as usize], m, "{name}: {a} to {b} leaves {m}");
                    }
                }
            }
        }
        (np, sp.faces())
    }

    #[test]
    fn merged_polygons_are_convex_partitions_with_trees_on_engine_files() {
        let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/");
        for (file, up) in [
            ("unity/lear315__LayaNavMesh.obj", UpAxis::Y),
            ("detour/dungeon.all_tiles_navmesh.bin", UpAxis::Y),
            ("godot/godotengine__navmesh-demo-3x.tscn", UpAxis::Y),
            ("polyanya/vleue__arena.mesh", UpAxis::Z),
            ("polyanya/xiangzebo__bad-collinear.mesh", UpAxis::Z),
        ] {
            let surface =
                load_surface(format!("{corpus}{file}"), &SurfaceOptions::new(up)).unwrap();
            let (np, merged) = check(file, &SurfaceMesh::new(surface).unwrap());
            // A triangulated export merges to about half as many polygons (measured:
            // 2,030 → 1,065 for the Unity export).
            if file.starts_with("unity") {
                assert!(
                    merged * 10 < np * 6,
                    "{file}: {np} polygons merged only to {merged}"
                );
            }
        }
    }

    #[test]
    fn a_pentagon_fan_merges_in_pairs() {
        // Five triangles round a centre: two join (the centre's corner 144°), three would
        // turn inwards there (216°). Every maximal pairing of a ring of five leaves two pairs
        // and one triangle.
        let mut v = vec![glam::DVec3::ZERO];
        v.extend((0..5).map(|k| {
            let a = std::f64::consts::TAU * k as f64 / 5.0;
            glam::DVec3::new(a.cos(), 0.0, a.sin())
        }));
        let tris: Vec<[u32; 3]> = (0..5).map(|k| [0, 1 + k, 1 + (k + 1) % 5]).collect();
        let surface =
            crate::navmesh::surface::Surface::from_polygons(&v, &tris, UpAxis::Y, 0.0).unwrap();
        let mesh = SurfaceMesh::new(surface).unwrap();
        assert_eq!(check("fan", &mesh), (5, 3));
        let sp = mesh.search_polygons();
        for m in 0..3 {
            let ring: Vec<u32> = sp.corners_of(m).map(|c| sp.corners[c].vert).collect();
            assert!(ring.len() <= 4, "{ring:?}");
            assert!(
                ring.contains(&0),
                "{ring:?}: the centre is a corner of each"
            );
        }
    }

    #[test]
    fn no_merge_leaves_a_straight_corner_on_the_unity_export() {
        // The pair where merges that left a straight corner lost the way (the Detour peer's
        // corpus run): the goal is in the start's piece, so a path must come back.
        let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/");
        let file = format!("{corpus}unity/lear315__LayaNavMesh.obj");
        let surface = load_surface(file, &SurfaceOptions::new(UpAxis::Y)).unwrap();
        let mesh = SurfaceMesh::new(surface).unwrap();
        let mut query = crate::navmesh::layered::SurfaceQuery::new();
        let (a, b) = (
            glam::DVec3::new(34.859407646611935, 1.0, 8.855445962122548),
            glam::DVec3::new(5.139103494595776, 1.0, 33.48921193280668),
        );
        let path = query.find_path(&mesh, a, b, 0.0).unwrap();
        assert_eq!(path.len(), 29);
    }
}
