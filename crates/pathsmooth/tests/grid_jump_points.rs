//! The grid search at radii up to half a cell without area costs is a jump point search
//! (`src/grid/jump.rs`). Judged here by an independent Dijkstra over every cell
//! (`common::areas::Terrain`), on Moving AI maps of four kinds with seeded crates dropped
//! on them (a crowd's doors and crates are the worlds it searches most): the same
//! reachability, the same length, and every step a king's move between free cells that
//! clips no corner.

use crate::common;
use crate::common::areas::Terrain;
use crate::common::rng::Rng;

use glam::{DVec2, IVec2};
use pathsmooth::grid::GridMap;
use pathsmooth::world::Obstacle;
use pathsmooth::{Error, GridWorld};

/// A random free cell of `rows`.
fn free_cell(rows: &[String], rng: &mut Rng) -> IVec2 {
    let (w, h) = (rows[0].len(), rows.len());
    loop {
        let c = IVec2::new(
            (rng.unit() * w as f64) as i32,
            (rng.unit() * h as f64) as i32,
        );
        if rows[c.y as usize].as_bytes()[c.x as usize] == b'.' {
            return c;
        }
    }
}

/// The checks of one path's cells against the oracle's terrain.
fn assert_valid_steps(what: &str, terrain: &Terrain, cells: &[IVec2]) {
    let free = |c: IVec2| terrain.at(c.x as i64, c.y as i64).is_finite();
    assert!(cells.iter().all(|&c| free(c)), "{what}: a blocked cell");
    for s in cells.windows(2) {
        let d = s[1] - s[0];
        assert!(
            d != IVec2::ZERO && d.abs().max_element() == 1,
            "{what}: {s:?}"
        );
        if d.x != 0 && d.y != 0 {
            let sides = [s[0] + IVec2::new(d.x, 0), s[0] + IVec2::new(0, d.y)];
            assert!(
                sides.iter().all(|&c| free(c)),
                "{what}: clips a corner at {s:?}"
            );
        }
    }
}

#[test]
fn paths_are_as_short_as_dijkstra_finds_on_moving_ai_maps_with_crates() {
    let mut rng = Rng::new(0x5eed_0001);
    let mut compared = 0;
    for name in [
        "mazes/maze512-4-0",
        "rooms/8room_000",
        "random/random512-10-0",
        "dao/den312d",
    ] {
        let (map, _) = common::load(name);
        let mut rows = common::grids::rows(&map);
        let mut world = GridWorld::new(map).unwrap();
        // Crates of 1–4 cells a side, their corners inside their cells so the cells they
        // block are plain to see (the oracle's map marks them).
        for _ in 0..40 {
            let c = free_cell(&rows, &mut rng);
            let size = IVec2::new(1 + (rng.unit() * 4.0) as i32, 1 + (rng.unit() * 4.0) as i32);
            let min = c.as_dvec2() + 0.3;
            let max = (c + size).as_dvec2() - 0.3;
            if world.add_obstacle(Obstacle::Box { min, max }).is_err() {
                continue;
            }
            for y in c.y..c.y + size.y {
                for x in c.x..c.x + size.x {
                    let (x, y) = (x as usize, y as usize);
                    if y < rows.len() && x < rows[y].len() {
                        rows[y].replace_range(x..x + 1, "@");
                    }
                }
            }
        }
        let terrain = Terrain::new(&rows, 1.0);
        for _ in 0..12 {
            let (s, g) = (free_cell(&rows, &mut rng), free_cell(&rows, &mut rng));
            let shortest = terrain.dijkstra(s, g);
            for radius in [0.0, 0.3, 0.5] {
                let what = format!("{name} {s} → {g} radius {radius}");
                let centre = |c: IVec2| GridMap::cell_center(c);
                match world.find_cell_path(centre(s), centre(g), radius) {
                    Ok(path) => {
                        assert!(
                            (path.length - shortest).abs() <= 1e-9 * shortest.max(1.0),
                            "{what}: {} against Dijkstra's {shortest}",
                            path.length
                        );
                        assert_eq!(path.cells.first(), Some(&s), "{what}");
                        assert_eq!(path.cells.last(), Some(&g), "{what}");
                        assert_valid_steps(&what, &terrain, &path.cells);
                        let centres: Vec<DVec2> = path.cells.iter().map(|&c| centre(c)).collect();
                        assert_eq!(path.points, centres, "{what}");
                        compared += 1;
                    }
                    Err(e) => {
                        assert!(shortest.is_infinite(), "{what}: {e}, Dijkstra {shortest}");
                        assert!(matches!(e, Error::Unreachable { .. }), "{what}: {e}");
                    }
                }
            }
        }
    }
    // Most pairs are joined (a crate may wall one in).
    assert!(compared >= 3 * 40, "{compared} paths compared");
}
