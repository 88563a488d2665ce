//! Building a surface from polygons as engines write them: welded, cleaned, checked and
//! joined. Repairs are counted in the surface's [`LoadReport`]; what cannot be used is an
//! error naming the input polygon or vertex.

use glam::{DVec2, DVec3};
use rustc_hash::FxHashMap;

use super::issue::Issue;
use super::report::{Dropped, LoadReport};
use super::topology::{self, NO_POLY};
use super::{plane, split, weld, Bounds, Surface, SurfaceOptions, DEFAULT_WELD};
use crate::cancel::{Cancel, Checkpoint, CHECK_EVERY};
use crate::error::{num, Error};
use crate::geometry::{check_within, max_map_coordinate, tolerance_at};
use crate::navmesh::mesh::boxes::BoxIndex;

/// A polygon that passed the per-polygon checks: its corners (welded vertices,
/// counter-clockwise in plan view), plane, bounds and whether it is bent.
struct Kept {
    input: u32,
    plane: (DVec3, f64),
    bounds: Bounds,
    bent: bool,
}

impl Surface {
    /// The builder behind every constructor: like
    /// [`from_polygons_with`](Self::from_polygons_with), with the polygon or vertex of
    /// the problem beside the error (for file readers to name its line), and stopped by
    /// `cancel` ([`Issue::cancelled`]) in its long loops: welding, the polygons, cleaning
    /// a long ring, the T-junction search.
    pub(crate) fn build<P: AsRef<[u32]>>(
        vertices: &[DVec3],
        polygons: &[P],
        (areas, flags): (&[u8], &[u16]),
        options: &SurfaceOptions,
        cancel: Option<&Cancel>,
    ) -> std::result::Result<Self, Issue> {
        let SurfaceOptions {
            up,
            weld,
            planarity,
            split_t_junctions,
        } = *options;
        check_input(vertices, polygons, areas, flags, options)?;
        let mut report = LoadReport {
            input_vertices: vertices.len(),
            input_polygons: polygons.len(),
            ..LoadReport::default()
        };

        // 1. Weld, in the frame (a permutation of the axes: distances unchanged).
        let frame_in: Vec<DVec3> = vertices.iter().map(|&v| up.world_to_frame(v)).collect();
        let weld = weld.unwrap_or_else(|| DEFAULT_WELD * extent(&frame_in));
        report.weld = weld;
        let welded = weld::weld(&frame_in, weld, cancel)?;
        report.welded = vertices.len() - welded.vertices.len();
        let frame = welded.vertices;
        // Welded vertex → the input vertex it came from (the first of its copies).
        let mut names = vec![0u32; frame.len()];
        for (i, &w) in welded.remap.iter().enumerate().rev() {
            names[w as usize] = i as u32;
        }
        let magnitude = frame
            .iter()
            .fold(0.0f64, |m, p| m.max(p.abs().max_element()));
        let tolerance = tolerance_at(magnitude);

        // 2. Each polygon on its own: cleaned, dropped when it has no area, oriented
        // counter-clockwise, checked convex; copies of an earlier polygon dropped.
        let mut start = Vec::with_capacity(polygons.len() + 1);
        let mut ring: Vec<u32> = Vec::new();
        let mut kept: Vec<Kept> = Vec::with_capacity(polygons.len());
        let mut seen: FxHashMap<Box<[u32]>, u32> = FxHashMap::default();
        let (mut clockwise, mut counter) = (0usize, 0usize);
        start.push(0u32);
        let mut corners: Vec<u32> = Vec::new();
        let mut sorted: Vec<u32> = Vec::new();
        let mut pts2: Vec<DVec2> = Vec::new();
        let mut pts3: Vec<DVec3> = Vec::new();
        let mut checkpoint = Checkpoint::new(cancel);
        for (p, poly) in polygons.iter().enumerate() {
            if checkpoint.stop() {
                return Err(Issue::cancelled());
            }
            corners.clear();
            corners.extend(poly.as_ref().iter().map(|&v| welded.remap[v as usize]));
            report.repeated_corners += clean_ring(&mut corners, cancel)?;
            if corners.len() < 3 {
                report.drop(p, Dropped::Degenerate);
                continue;
            }
            sorted.clear();
            sorted.extend_from_slice(&corners);
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p} visits vertex {} twice (after welding within {}): it is not a simple polygon",
                        names[w[0] as usize],
                        num(weld)
                    ),
                ));
            }
            pts2.clear();
            pts2.extend(corners.iter().map(|&w| frame[w as usize].truncate()));
            let area2 = plane::plan_area2(&pts2);
            let (lo, hi) = bounds_of(pts2.iter().copied());
            let plan_size = (hi - lo).length();
            // Zero (or rounding-level) area in plan view: a wall, a vertical or collapsed
            // polygon, a sliver; it has no height at any plan-view point. Its neighbours
            // keep their edges; a T-junction it leaves is split below.
            if area2.abs() <= tolerance * plan_size.max(tolerance) || !area2.is_finite() {
                report.drop(p, Dropped::Degenerate);
                continue;
            }
            if seen.insert(sorted.as_slice().into(), p as u32).is_some() {
                report.drop(p, Dropped::Duplicate);
                continue;
            }
            if area2 < 0.0 {
                clockwise += 1;
                corners.reverse();
                pts2.reverse();
            } else {
                counter += 1;
            }
            if let Err((i, why)) = plane::check_convex(&pts2, weld.max(tolerance)) {
                return Err(Issue::polygon(
                    p,
                    format!(
                        "polygon {p}, at vertex {} (plan view, up axis {up}), {why}",
                        names[corners[i] as usize]
                    ),
                ));
            }
            pts3.clear();
            pts3.extend(corners.iter().map(|&w| frame[w as usize]));
            let Some((n, d, dev, worst)) = plane::fit_plane(&pts3) else {
                return Err(Issue::polygon(
                    p,
                    format!("polygon {p} has no plane (zero area)"),
                ));
            };
            // Relative to the plan-view size: a floor is measured by its extent on the
            // ground. Recast's polygons on stairs and ramps are far from planar (their
            // heights come from the detail mesh), so this only counts.
            if dev > planarity * plan_size {
                report.note_non_planar(p, names[corners[worst] as usize], dev);
            }
            let (lo3, hi3) = pts3.iter().fold(
                (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
                |(lo, hi), &q| (lo.min(q), hi.max(q)),
            );
            kept.push(Kept {
                input: p as u32,
                plane: (n, d),
                bounds: Bounds {
                    lo: lo3.truncate(),
                    hi: hi3.truncate(),
                    h_lo: lo3.z,
                    h_hi: hi3.z,
                },
                bent: dev > tolerance,
            });
            ring.extend_from_slice(&corners);
            start.push(ring.len() as u32);
        }
        report.reversed = clockwise.min(counter);
        if kept.is_empty() {
            return Err(Issue {
                polygon: None,
                vertex: None,
                error: Error::InvalidPolygon {
                    message: format!(
                        "no polygon has area in plan view (up axis {up}) after welding within {}: \
                         all {} are vertical, collapsed or slivers",
                        num(weld),
                        polygons.len()
                    ),
                },
            });
        }

        // 3. Topology, then the checks that need it. Issues name input polygons.
        let inputs: Vec<u32> = kept.iter().map(|k| k.input).collect();
        let reach = weld.max(tolerance);
        let mut adjacency = topology::adjacency(&start, &ring, &names, &inputs);
        if split_t_junctions {
            let inserted = split::split_t_junctions(
                &frame,
                &mut start,
                &mut ring,
                &adjacency.neighbors,
                (&names, &inputs),
                (reach, cancel),
            )?;
            if inserted > 0 {
                report.t_junctions = inserted;
                // The split edges are new vertex pairs: join them (a sub-edge of three
                // polygons or a fold stays unjoined, as any edge).
                adjacency = topology::adjacency(&start, &ring, &names, &inputs);
            }
        }
        let neighbors = adjacency.neighbors;
        report.unjoined_edges = adjacency.unjoined;
        report.unjoined_example = adjacency.example;
        topology::t_junction(
            &frame,
            &start,
            &ring,
            &neighbors,
            (&names, &inputs),
            reach,
            cancel,
        )?;

        let bounds: Vec<Bounds> = kept.iter().map(|k| k.bounds).collect();
        let (lo, hi) = bounds.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), b| (lo.min(b.lo), hi.max(b.hi)),
        );
        let index = BoxIndex::new(
            lo,
            hi,
            bounds.len() as f64,
            bounds.iter().map(|b| (b.lo, b.hi)),
        );
        let identity = kept.len() == polygons.len();
        Ok(Surface {
            up,
            weld,
            vertices: frame.iter().map(|&f| up.frame_to_world(f)).collect(),
            remap: welded.remap,
            start,
            ring,
            neighbors,
            planes: kept.iter().map(|k| k.plane).collect(),
            bent: kept.iter().map(|k| k.bent).collect(),
            bounds,
            areas: pick(areas, &inputs),
            flags: pick(flags, &inputs),
            source: if identity { Vec::new() } else { inputs },
            refs: Vec::new(),
            index,
            tolerance,
            detail: None,
            links: Vec::new(),
            agent: Default::default(),
            report,
        })
    }
}

/// The checks of the input as a whole: parameters, lengths, coordinates, indices.
fn check_input<P: AsRef<[u32]>>(
    vertices: &[DVec3],
    polygons: &[P],
    areas: &[u8],
    flags: &[u16],
    options: &SurfaceOptions,
) -> std::result::Result<(), Issue> {
    let plain = |error| Issue {
        polygon: None,
        vertex: None,
        error,
    };
    if let Some(weld) = options.weld
        && !(weld >= 0.0 && weld.is_finite())
    {
        return Err(plain(Error::param("weld", weld, "a finite number ≥ 0")));
    }
    if options.planarity.is_nan() || options.planarity < 0.0 {
        return Err(plain(Error::param(
            "planarity",
            options.planarity,
            "a number ≥ 0 (infinity: never count a polygon as non-planar)",
        )));
    }
    for (name, len) in [("areas", areas.len()), ("flags", flags.len())] {
        if len != 0 && len != polygons.len() {
            return Err(plain(Error::BadParameter {
                name,
                value: len as f64,
                expected: "as many entries as polygons, or none",
            }));
        }
    }
    if polygons.is_empty() {
        return Err(plain(Error::InvalidPolygon {
            message: "the surface has no polygons".into(),
        }));
    }
    if vertices.len() >= NO_POLY as usize || polygons.len() >= NO_POLY as usize {
        return Err(plain(Error::InvalidPolygon {
            message: format!(
                "{} vertices and {} polygons: at most {} of each",
                vertices.len(),
                polygons.len(),
                NO_POLY - 1
            ),
        }));
    }
    check_within(vertices, max_map_coordinate::<f64>()).map_err(|error| {
        let vertex = match error {
            Error::NonFinite { index } => Some(index),
            Error::CoordinateOutOfRange { index, .. } => index,
            _ => None,
        };
        Issue {
            polygon: None,
            vertex,
            error,
        }
    })?;
    for (p, poly) in polygons.iter().enumerate() {
        if let Some(&v) = poly
            .as_ref()
            .iter()
            .find(|&&v| v as usize >= vertices.len())
        {
            return Err(Issue::polygon(
                p,
                format!(
                    "polygon {p} uses vertex {v}, but there are {} vertices",
                    vertices.len()
                ),
            ));
        }
    }
    Ok(())
}

/// Removes from a ring of welded vertex indices the corners welding made redundant: a
/// corner equal to the one before it (also across the wrap), and a spike `a b a` (an
/// edge there and straight back) as `a`. Returns how many corners it removed.
///
/// A spike at a time: O(corners²) for a ring of nested spikes (`a b a b …`, a few hundred
/// thousand corners in one polygon of a file take minutes), so a long ring reads `cancel`
/// every round ([`Issue::cancelled`]).
fn clean_ring(corners: &mut Vec<u32>, cancel: Option<&Cancel>) -> Result<usize, Issue> {
    let before = corners.len();
    loop {
        let n = corners.len();
        // A round costs O(n): the clock read is nothing beside it.
        if n > CHECK_EVERY as usize && cancel.is_some_and(Cancel::is_cancelled) {
            return Err(Issue::cancelled());
        }
        corners.dedup();
        while corners.len() > 1 && corners.first() == corners.last() {
            corners.pop();
        }
        let m = corners.len();
        if m >= 3
            && let Some(i) = (0..m).find(|&i| corners[(i + m - 1) % m] == corners[(i + 1) % m])
        {
            // `a b a`: drop `b` and the second `a`.
            let next = (i + 1) % m;
            let (first, second) = (i.max(next), i.min(next));
            corners.remove(first);
            corners.remove(second);
        } else if corners.len() == n {
            break;
        }
    }
    Ok(before - corners.len())
}

/// The entries of `all` (one per input polygon, or none: every polygon the default) for the
/// kept polygons `inputs`.
fn pick<T: Copy + Default>(all: &[T], inputs: &[u32]) -> Vec<T> {
    if all.is_empty() {
        vec![T::default(); inputs.len()]
    } else {
        inputs.iter().map(|&p| all[p as usize]).collect()
    }
}

/// The plan-view bounding box of `points`.
fn bounds_of(points: impl Iterator<Item = DVec2>) -> (DVec2, DVec2) {
    points.fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), q| (lo.min(q), hi.max(q)),
    )
}

/// The diagonal of the bounding box of `points` (0 for none).
fn extent(points: &[DVec3]) -> f64 {
    let (lo, hi) = points.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), &q| (lo.min(q), hi.max(q)),
    );
    if points.is_empty() {
        0.0
    } else {
        (hi - lo).length()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::surface::{fan, OffMeshLink, UpAxis};

    #[test]
    fn a_cancelled_token_stops_every_long_loop_of_the_build() {
        let (v, tris) = fan(64, 10.0);
        let options = SurfaceOptions::new(UpAxis::Y);
        let go = Cancel::new();
        let stop = Cancel::new();
        stop.cancel();
        let cancelled = |issue: Issue| assert_eq!(issue.error, Error::Cancelled);
        // The whole build: at its first vertex welded.
        assert!(Surface::build(&v, &tris, (&[], &[]), &options, Some(&go)).is_ok());
        cancelled(Surface::build(&v, &tris, (&[], &[]), &options, Some(&stop)).unwrap_err());
        cancelled(weld::weld(&v, 0.0, Some(&stop)).map(drop).unwrap_err());
        cancelled(weld::weld(&v, 1e-6, Some(&stop)).map(drop).unwrap_err());
        // The T-junction search: at its first vertex tested.
        let start: Vec<u32> = (0..=64).map(|k| 3 * k).collect();
        let ring: Vec<u32> = tris.iter().flatten().copied().collect();
        let neighbors = vec![NO_POLY; ring.len()];
        let search = |cancel| {
            topology::t_junctions(&v, &start, &ring, &neighbors, (1e-9, true), cancel, |_| {
                true
            })
        };
        assert!(search(Some(&go)).is_ok());
        cancelled(search(Some(&stop)).unwrap_err());
        // Cleaning a long ring of spikes (quadratic): at its first round.
        let mut spikes: Vec<u32> = (0..4 * CHECK_EVERY).map(|i| i % 2).collect();
        spikes.push(2);
        cancelled(clean_ring(&mut spikes.clone(), Some(&stop)).unwrap_err());
        assert!(clean_ring(&mut spikes, Some(&go)).is_ok());
        assert_eq!(spikes, [0, 1, 2]);
        // The links: at their first polygon tested.
        let s = Surface::from_polygons(&v, &tris, UpAxis::Y, 0.0).unwrap();
        let link = OffMeshLink::new(DVec3::new(5.0, 0.0, 0.1), DVec3::new(-5.0, 0.0, 0.1), 20.0);
        let e = s.clone().with_links_cancellable(&[link], Some(&stop));
        assert_eq!(e.unwrap_err(), Error::Cancelled);
        assert_eq!(
            s.with_links_cancellable(&[link], Some(&go))
                .unwrap()
                .links()
                .len(),
            1
        );
    }

    #[test]
    fn cleaning_a_ring_removes_repeats_and_spikes() {
        let clean = |v: &[u32]| {
            let mut c = v.to_vec();
            let removed = clean_ring(&mut c, None).unwrap();
            (c, removed)
        };
        assert_eq!(clean(&[0, 1, 2]), (vec![0, 1, 2], 0));
        assert_eq!(clean(&[0, 0, 1, 2, 2, 0]), (vec![0, 1, 2], 3));
        // A spike out to 3 and back.
        assert_eq!(clean(&[0, 1, 3, 1, 2]), (vec![0, 1, 2], 2));
        // A spike across the wrap.
        assert_eq!(clean(&[1, 2, 3, 1, 0]), (vec![2, 3, 1], 2));
        assert_eq!(clean(&[4, 4, 4]), (vec![4], 2));
        assert!(clean(&[0, 1, 0]).0.len() < 3);
    }
}
