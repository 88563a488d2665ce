//! `--area-costs AREA=COST,...` (and the playground's `area_costs`): the library's parser
//! ([`AreaCosts`]'s `FromStr`), then a check of the areas named against the ones a world
//! can have. On a grid map those are Moving AI's terrain letters: `.` ground (`G` is the
//! same area), `S` swamp, `W` water. Navmeshes name their areas by number (Recast's area
//! ids); they take `--area-costs` once the library's navmesh world has area costs.

use pathsmooth::area::{area_name, AreaCosts, GROUND, SWAMP, WATER};
use pathsmooth::{Error, GridWorld, Result};

/// Moving AI's wall letters (`@` out of bounds, `O` out of bounds, `T` trees): blocked
/// terrain, which no filter opens.
const WALL_LETTERS: [u8; 3] = [b'@', b'O', b'T'];

/// Parses `spec` for a grid map: the library's parser, then each area named must be a
/// terrain letter a grid map has (`G` is taken as `.`, as the map reader does).
///
/// Errors: [`Error::BadAreaCost`] for the library's reasons (a missing `=`, a cost that is
/// zero, negative, not a number, infinite or out of range), for a wall letter (`@`, `O`,
/// `T`), a number (navmesh area ids) or any other unknown area, and for `G` and `.` given
/// different costs.
pub fn grid_area_costs(spec: &str) -> Result<AreaCosts> {
    let parsed: AreaCosts = spec.parse()?;
    let known = "a grid map's areas are `.` (ground, also `G`), `S` (swamp) and `W` (water)";
    for area in parsed.given() {
        let reason = match area {
            GROUND | SWAMP | WATER | b'G' => continue,
            a if WALL_LETTERS.contains(&a) => {
                format!(
                    "`{}` is a wall in Moving AI maps, not an area; {known}",
                    a as char
                )
            }
            a if matches!(a, b's' | b'w' | b'g') => format!(
                "unknown area `{}` (terrain letters are upper case: `{}`); {known}",
                a as char,
                a.to_ascii_uppercase() as char
            ),
            a if a.is_ascii_graphic() && !a.is_ascii_digit() => {
                format!("unknown area `{}`; {known}", a as char)
            }
            a => format!("area id {a} names a navmesh area, not a terrain letter; {known}"),
        };
        return Err(Error::BadAreaCost {
            area: area_name(area),
            reason,
        });
    }
    if !parsed.given().any(|a| a == b'G') {
        return Ok(parsed);
    }
    // `G` is ground: give `.` its setting (and refuse the two set differently).
    let (g, dot) = (parsed.cost(b'G'), parsed.cost(GROUND));
    if parsed.given().any(|a| a == GROUND) && g != dot {
        return Err(Error::BadAreaCost {
            area: "G".into(),
            reason: "`G` and `.` are the same area (ground) but were given different costs".into(),
        });
    }
    let mut costs = parsed.clone();
    match g {
        Some(c) => costs.set(GROUND, c)?,
        None => costs.exclude(GROUND),
    };
    Ok(costs)
}

/// The world with the area costs of `spec` (when given; the world unchanged without it),
/// and the areas named in `spec` that the map does not have, by name: a note for the user,
/// not an error (a filter may be written once for many maps).
///
/// Errors: those of [`grid_area_costs`], [`Error::NoFreeSpace`] when the costs exclude
/// every free cell.
pub fn with_grid_area_costs(
    world: GridWorld,
    spec: Option<&str>,
) -> Result<(GridWorld, Vec<String>)> {
    let Some(spec) = spec else {
        return Ok((world, Vec::new()));
    };
    let costs = grid_area_costs(spec)?;
    // The areas of the map as read (before the costs block any).
    let present = world.map().areas_present();
    let absent = costs
        .given()
        .filter(|&a| a != b'G' && !present.contains(&a))
        .map(area_name)
        .collect();
    Ok((world.with_area_costs(costs)?, absent))
}

/// Parses `spec` for a layered navmesh: area ids (Recast's, 0–255) over every area at 1;
/// each id named must be an area some polygon of `surface` has.
///
/// Errors: [`Error::BadAreaCost`] for the library's reasons, for a letter (navmesh areas
/// are numbered), and for an id no polygon has (the message lists the ids it has).
pub fn navmesh_area_costs(spec: &str, surface: &pathsmooth::navmesh::Surface) -> Result<AreaCosts> {
    let costs = AreaCosts::unit().apply(spec)?;
    let mut present: Vec<u8> = (0..surface.num_polygons() as u32)
        .map(|p| surface.area(p))
        .collect();
    present.sort_unstable();
    present.dedup();
    let have = present
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    for area in costs.given() {
        // The spec's own text decides: a letter's byte is an id too, but not what was meant.
        let named_by_letter = spec
            .split(',')
            .filter_map(|e| e.split_once('='))
            .any(|(k, _)| k.trim().parse::<u16>().is_err() && k.trim().as_bytes() == [area]);
        let reason = if named_by_letter {
            format!("navmesh areas are numbered (Recast's area ids); this navmesh has {have}")
        } else if !present.contains(&area) {
            format!("no polygon has area {area}; this navmesh has {have}")
        } else {
            continue;
        };
        return Err(Error::BadAreaCost {
            area: area_name(area),
            reason,
        });
    }
    Ok(costs)
}

/// `--keep-route`'s margin, at most the map's larger side: a wider margin keeps the same
/// cells (the whole map), and `route_world`'s work grows with the margin's square.
pub fn route_margin(world: &GridWorld, margin: usize) -> usize {
    let map = world.map();
    margin.min(map.width().max(map.height()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(spec: &str) -> String {
        grid_area_costs(spec).unwrap_err().to_string()
    }

    #[test]
    fn letters_of_the_map_are_taken_and_g_is_ground() {
        let c = grid_area_costs("S=4, W=2.5").unwrap();
        assert_eq!((c.cost(SWAMP), c.cost(WATER)), (Some(4.0), Some(2.5)));
        let g = grid_area_costs("G=3").unwrap();
        assert_eq!(g.cost(GROUND), Some(3.0));
        assert!(grid_area_costs("G=exclude").unwrap().is_excluded(GROUND));
        assert!(grid_area_costs("G=2,.=2").is_ok());
        assert!(err("G=2,.=3").contains("same area"));
        assert_eq!(grid_area_costs("").unwrap(), AreaCosts::default());
    }

    #[test]
    fn walls_numbers_and_unknown_letters_are_refused_by_name() {
        for wall in ["T", "@", "O"] {
            let e = err(&format!("{wall}=2"));
            assert!(e.contains("is a wall"), "{e}");
            assert!(e.contains(&format!("`{wall}`")), "{e}");
        }
        let e = err("Q=1");
        assert!(e.contains("unknown area `Q`"), "{e}");
        let e = err("s=4");
        assert!(e.contains("upper case: `S`"), "{e}");
        let e = err("7=2");
        assert!(e.contains("navmesh area"), "{e}");
        // The library's own reasons come through.
        assert!(err("S=0").contains("not a number in"), "{}", err("S=0"));
        assert!(
            err("S=abc").contains("neither a number"),
            "{}",
            err("S=abc")
        );
    }
}
