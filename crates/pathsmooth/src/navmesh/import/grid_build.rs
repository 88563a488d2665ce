//! Navmeshes of grid maps, built tile by tile in time linear in the number of cells.
//!
//! The map is cut into tiles of about [`TILE`]² cells (see [`tiles`]). Each tile is
//! triangulated on its own (spade's constrained Delaunay bulk loader on the tile's wall
//! vertices, so its cost is bounded by the tile's size rather than the map's), and the
//! tiles are stitched along their borders. A tile keeps the triangles whose centroid lies in
//! a passable cell: every wall inside the tile is a constraint edge, so a triangle never
//! straddles a wall and one interior point tells its side.
//!
//! Stitching needs both tiles of a border to put vertices at the same points of it. Each
//! tile therefore puts a vertex on its border wherever the passability of the cells on
//! *either* side changes (where walls meet the border) and at its four corners; its
//! triangulation's hull edges along the border then join consecutive vertices of the same
//! list on both sides. Tile corners are placed where walls meet the borders, so, as in a
//! mesh of one triangulation, every vertex lies on a wall (the funnel with a radius and
//! Demyen & Buro's widths take every vertex for an obstacle corner). The union of the
//! tiles' triangulations is then made Delaunay across the borders by edge flips
//! (`flip.rs`), so it is the constrained Delaunay triangulation of its vertices.
//!
//! With the `rayon` feature the tiles are triangulated in parallel.

use glam::DVec2;
use rustc_hash::FxHashMap;
use spade::Point2;

use crate::error::{Error, Result};
use crate::grid::GridMap;
use crate::navmesh::mesh::{flip, kept_faces, wall_runs, wall_side, Cdt, NO_TRI};

/// Cells along a tile's side: large enough that the borders add few triangles, small
/// enough that a tile's triangulation stays in cache.
pub(super) const TILE: i64 = 128;

/// The free region of a grid map as triangles, in world units.
pub(super) struct GridMesh {
    pub vertices: Vec<DVec2>,
    /// Counter-clockwise (y-up) vertex indices.
    pub triangles: Vec<[u32; 3]>,
    /// The triangle across each edge, or [`NO_TRI`] at a wall.
    pub neighbors: Vec<[u32; 3]>,
}

/// One tile's triangles, in grid coordinates with tile-local indices.
struct Tile {
    points: Vec<(i32, i32)>,
    /// The tile's cells: `[x0, x1) × [y0, y1)`.
    bounds: [i64; 4],
    triangles: Vec<[u32; 3]>,
    /// Tile-local neighbours; [`NO_TRI`] at walls and across the tile's border.
    neighbors: Vec<[u32; 3]>,
}

impl Tile {
    /// True when point `i` lies on the tile's border (shared with neighbouring tiles).
    fn on_border(&self, i: usize) -> bool {
        let (x, y) = self.points[i];
        let [x0, y0, x1, y1] = self.bounds.map(|c| c as i32);
        x == x0 || x == x1 || y == y0 || y == y1
    }

    /// True when the segment between two of the tile's points runs along one of its sides.
    fn along_border(&self, [(xa, ya), (xb, yb)]: [(i32, i32); 2]) -> bool {
        let [x0, y0, x1, y1] = self.bounds.map(|c| c as i32);
        (xa == xb && (xa == x0 || xa == x1)) || (ya == yb && (ya == y0 || ya == y1))
    }
}

/// The navmesh of `map`, cell (x, y) covering `origin + cell_size · [x, x+1] × [y, y+1]`.
///
/// The tiles are triangulated a column at a time (in parallel with `rayon`) and stitched
/// as they come, so only one column's tiles are held besides the mesh.
pub(super) fn build(map: &GridMap, cell_size: f64, origin: DVec2) -> Result<GridMesh> {
    let rects = tiles(map);
    let mut stitcher = Stitcher {
        mesh: GridMesh {
            vertices: Vec::new(),
            triangles: Vec::new(),
            neighbors: Vec::new(),
        },
        shared: FxHashMap::default(),
        open: FxHashMap::default(),
        grid: Vec::new(),
        linked: Vec::new(),
        cell_size,
        origin,
    };
    for column in rects.chunk_by(|a, b| a[0] == b[0]) {
        let one = |&[x0, y0, x1, y1]: &[i64; 4]| tile(map, x0, y0, x1, y1);
        #[cfg(feature = "rayon")]
        let tiles: Vec<Result<Tile>> = {
            use rayon::prelude::*;
            column.par_iter().map(one).collect()
        };
        #[cfg(not(feature = "rayon"))]
        let tiles: Vec<Result<Tile>> = column.iter().map(one).collect();
        for tile in tiles {
            stitcher.add(&tile?);
        }
    }
    // Each tile is Delaunay, their union not quite: flip across the borders.
    let mut mesh = stitcher.mesh;
    flip::make_delaunay(
        &stitcher.grid,
        &mut mesh.triangles,
        &mut mesh.neighbors,
        stitcher.linked,
    );
    // Growth by doubling left up to half of each array unused (for large arrays the
    // allocator shrinks in place).
    mesh.vertices.shrink_to_fit();
    mesh.triangles.shrink_to_fit();
    mesh.neighbors.shrink_to_fit();
    Ok(mesh)
}

/// The tiles, `[x0, y0, x1, y1]` in cells: columns [`TILE`] cells wide, each cut across
/// at the first row at least [`TILE`] below the previous cut where both corners of the cut
/// lie on walls that meet the column's sides (or on the map's border). A tile corner is
/// then never a vertex in open space, and the neighbouring column, which triangulates the
/// same side, has a vertex there too (a wall meets its side). Where no row qualifies (open
/// space along a side) the tile grows taller; open space has few vertices, so its
/// triangulation stays cheap.
fn tiles(map: &GridMap) -> Vec<[i64; 4]> {
    let (w, h) = (map.width() as i64, map.height() as i64);
    let mut rects = Vec::new();
    for x0 in (0..w).step_by(TILE as usize) {
        let x1 = (x0 + TILE).min(w);
        let cut = |y: i64| {
            (x0 == 0 || wall_meets_column_line(map, x0, y))
                && (x1 == w || wall_meets_column_line(map, x1, y))
        };
        let mut y0 = 0;
        while y0 < h {
            let y1 = (y0 + TILE..h).find(|&y| cut(y)).unwrap_or(h);
            rects.push([x0, y0, x1, y1]);
            y0 = y1;
        }
    }
    rects
}

/// Joins tiles into one mesh: border points shared, border edges linked.
struct Stitcher {
    mesh: GridMesh,
    /// Border points already in the mesh.
    shared: FxHashMap<(i32, i32), u32>,
    /// Border edges still without a neighbour: (from, to) → (triangle, edge).
    open: FxHashMap<(u32, u32), (u32, u8)>,
    /// Each mesh vertex's grid corner (exact, for the Delaunay flips).
    grid: Vec<(i32, i32)>,
    /// Border edges linked across tiles (triangle, edge): where the flips start.
    linked: Vec<(u32, u8)>,
    cell_size: f64,
    origin: DVec2,
}

impl Stitcher {
    fn add(&mut self, tile: &Tile) {
        let mesh = &mut self.mesh;
        // Only points of kept triangles become mesh vertices (a corner of a tile may lie
        // in blocked cells).
        let mut global = vec![NO_TRI; tile.points.len()];
        for &i in tile.triangles.iter().flatten() {
            let i = i as usize;
            if global[i] != NO_TRI {
                continue;
            }
            let (x, y) = tile.points[i];
            let grid = &mut self.grid;
            let mut add = || {
                let p = DVec2::new(x as f64, y as f64);
                mesh.vertices.push(self.origin + p * self.cell_size);
                grid.push((x, y));
                (mesh.vertices.len() - 1) as u32
            };
            global[i] = if tile.on_border(i) {
                *self.shared.entry((x, y)).or_insert_with(add)
            } else {
                add()
            };
        }
        let offset = mesh.triangles.len() as u32;
        for (t, (tri, across)) in tile.triangles.iter().zip(&tile.neighbors).enumerate() {
            let tri = tri.map(|i| global[i as usize]);
            let here = offset + t as u32;
            let mut linked = [NO_TRI; 3];
            for e in 0..3 {
                if across[e] != NO_TRI {
                    linked[e] = offset + across[e];
                    continue;
                }
                let (a, b) = (tri[e], tri[(e + 1) % 3]);
                let ends = [tile.triangles[t][e], tile.triangles[t][(e + 1) % 3]];
                if !tile.along_border(ends.map(|i| tile.points[i as usize])) {
                    continue; // a wall inside the tile
                }
                // The other tile's triangle on this edge runs it the other way round.
                match self.open.remove(&(b, a)) {
                    Some((u, k)) => {
                        linked[e] = u;
                        mesh.neighbors[u as usize][k as usize] = here;
                        self.linked.push((here, e as u8));
                    }
                    None => {
                        self.open.insert((a, b), (here, e as u8));
                    }
                }
            }
            mesh.triangles.push(tri);
            mesh.neighbors.push(linked);
        }
    }
}

/// True when a wall meets grid line `x` at grid point (x, y), from the left or the right: the
/// cells above and below the point differ on one side of the line.
fn wall_meets_column_line(map: &GridMap, x: i64, y: i64) -> bool {
    let free = |x: i64, y: i64| map.is_passable(x, y);
    free(x - 1, y - 1) != free(x - 1, y) || free(x, y - 1) != free(x, y)
}

/// True when a wall meets grid line `y` at grid point (x, y), from above or below.
fn wall_meets_row_line(map: &GridMap, x: i64, y: i64) -> bool {
    let free = |x: i64, y: i64| map.is_passable(x, y);
    free(x - 1, y - 1) != free(x, y - 1) || free(x - 1, y) != free(x, y)
}

/// The triangles of the free cells of tile `[x0, x1) × [y0, y1)`.
fn tile(map: &GridMap, x0: i64, y0: i64, x1: i64, y1: i64) -> Result<Tile> {
    let free = |x: i64, y: i64| map.is_passable(x, y);
    let (cols, rows) = (x1 - x0 + 1, y1 - y0 + 1);
    let mut index = vec![u32::MAX; (cols * rows) as usize];
    let mut points = Vec::new();
    let mut vid = |x: i64, y: i64| {
        let slot = &mut index[((y - y0) * cols + (x - x0)) as usize];
        if *slot == u32::MAX {
            *slot = points.len() as u32;
            points.push((x as i32, y as i32));
        }
        *slot as usize
    };
    for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
        vid(x, y);
    }
    // Border vertices where walls meet the border from either side.
    for x in x0 + 1..x1 {
        for y in [y0, y1] {
            if wall_meets_row_line(map, x, y) {
                vid(x, y);
            }
        }
    }
    for y in y0 + 1..y1 {
        for x in [x0, x1] {
            if wall_meets_column_line(map, x, y) {
                vid(x, y);
            }
        }
    }
    // Walls: horizontal on grid line y between cells (x, y-1) and (x, y); vertical on grid
    // line x between cells (x-1, y) and (x, y). Merged runs end at pinches (see `wall_side`).
    let mut edges = Vec::new();
    for y in y0..=y1 {
        for (a, b) in wall_runs(x1 - x0, |k| wall_side(free(x0 + k, y - 1), free(x0 + k, y))) {
            edges.push([vid(x0 + a, y), vid(x0 + b, y)]);
        }
    }
    for x in x0..=x1 {
        for (a, b) in wall_runs(y1 - y0, |k| wall_side(free(x - 1, y0 + k), free(x, y0 + k))) {
            edges.push([vid(x, y0 + a), vid(x, y0 + b)]);
        }
    }
    let at = |&(x, y): &(i32, i32)| Point2::new(x as f64, y as f64);
    let cdt = Cdt::bulk_load_cdt(points.iter().map(at).collect(), edges).map_err(|e| {
        Error::InvalidPolygon {
            message: format!("the triangulation of the tile at cell ({x0}, {y0}) failed: {e:?}"),
        }
    })?;
    // A triangle is free when the cell holding its centroid is. The centroid of integer
    // points is exact or at least a third away from a grid line, so the floor is exact.
    let kept = kept_faces(&cdt, |_, [a, b, c]| {
        let centroid = ((a + b + c) / 3.0).floor();
        free(centroid.x as i64, centroid.y as i64)
    });
    Ok(Tile {
        points,
        bounds: [x0, y0, x1, y1],
        triangles: kept.triangles,
        neighbors: kept.neighbors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::mesh::NavMesh;

    /// A map of several tiles: 20 % of cells blocked by a fixed hash, with an open
    /// rectangle where no column side has a wall to cut at.
    fn patchy(w: usize, h: usize) -> GridMap {
        GridMap::from_fn(w, h, |x, y| {
            let open = (100..220).contains(&x) && (50..300).contains(&y);
            let z = (y * w + x) as u64;
            open || z.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 59 >= 7
        })
    }

    #[test]
    fn tiles_cover_the_map_once_and_cut_only_where_walls_meet_the_sides() {
        let map = patchy(300, 330);
        let rects = tiles(&map);
        let area: i64 = rects
            .iter()
            .map(|[x0, y0, x1, y1]| (x1 - x0) * (y1 - y0))
            .sum();
        assert_eq!(area, 300 * 330);
        assert!(rects.len() > 3, "several tiles: {rects:?}");
        let free = |x: i64, y: i64| map.is_passable(x, y);
        let on_wall = |x: i64, y: i64| {
            !(free(x - 1, y - 1) && free(x, y - 1) && free(x - 1, y) && free(x, y))
        };
        for &[x0, y0, x1, y1] in &rects {
            for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
                assert!(on_wall(x, y), "tile corner ({x}, {y}) in open space");
            }
        }
    }

    #[test]
    fn a_tiled_mesh_is_a_conforming_cover_of_the_free_cells() {
        let map = patchy(300, 330);
        assert_conforming(&map);
        // A sight line across the open rectangle crosses tile borders.
        let mesh = NavMesh::from_grid(&map).unwrap();
        assert!(mesh.line_of_sight(DVec2::new(101.5, 60.5), DVec2::new(218.5, 290.5)));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]
        /// Maps of two to three tile columns, any density of blocked cells.
        #[test]
        fn random_tiled_meshes_are_conforming_covers(
            w in 129usize..300,
            h in 20usize..300,
            blocked in 0u64..60,
            seed in 0u64..1000,
        ) {
            let map = GridMap::from_fn(w, h, |x, y| {
                let z = ((y * w + x) as u64 ^ (seed << 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                (z >> 32) % 100 >= blocked
            });
            if map.passable_count() > 0 {
                assert_conforming(&map);
            }
        }
    }

    /// The mesh of `map` covers its free cells exactly, with symmetric adjacency, walls
    /// only where blocked cells are, and every vertex used and on a wall.
    fn assert_conforming(map: &GridMap) {
        let mesh = NavMesh::from_grid(map).unwrap();
        // The triangles' area is the free cells' area.
        let area: f64 = (0..mesh.num_triangles())
            .map(|t| {
                let [a, b, c] = mesh.triangle(t);
                crate::geometry::cross(b - a, c - a) / 2.0
            })
            .sum();
        assert_eq!(area, map.passable_count() as f64);
        // Adjacency is symmetric and across a shared edge; an edge without a neighbour is a
        // wall (a blocked cell or the map's outside beyond it), so no border between tiles
        // was left closed.
        let free = |x: i64, y: i64| map.is_passable(x, y);
        for t in 0..mesh.num_triangles() {
            let tri = mesh.triangle_indices()[t];
            for (e, n) in mesh.neighbors(t).into_iter().enumerate() {
                let Some(n) = n else {
                    let [a, b] = [tri[e], tri[(e + 1) % 3]].map(|v| mesh.vertices()[v as usize]);
                    let d = b - a;
                    assert!(
                        d.x == 0.0 || d.y == 0.0,
                        "open edge {a}–{b} off the grid lines"
                    );
                    // Counter-clockwise triangles have their outside on the right.
                    let beyond = (a + b) / 2.0 + DVec2::new(d.y, -d.x).normalize() * 0.25;
                    let cell = beyond.floor();
                    assert!(
                        !free(cell.x as i64, cell.y as i64),
                        "open edge {a}–{b} is no wall"
                    );
                    continue;
                };
                let k = mesh.shared_edge(n, t).expect("symmetric");
                let other = mesh.triangle_indices()[n];
                assert_eq!((other[k], other[(k + 1) % 3]), (tri[(e + 1) % 3], tri[e]));
            }
        }
        // Every vertex is used, and on a wall; every free cell's centre is in the mesh.
        let mut used = vec![false; mesh.vertices().len()];
        mesh.triangle_indices()
            .iter()
            .flatten()
            .for_each(|&v| used[v as usize] = true);
        assert!(used.iter().all(|&u| u));
        for v in mesh.vertices() {
            let (x, y) = (v.x as i64, v.y as i64);
            assert!(!(free(x - 1, y - 1) && free(x, y - 1) && free(x - 1, y) && free(x, y)));
        }
        for y in 0..map.height() as i64 {
            for x in 0..map.width() as i64 {
                let centre = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
                assert_eq!(mesh.locate(centre).is_some(), free(x, y), "cell ({x}, {y})");
            }
        }
    }
}
