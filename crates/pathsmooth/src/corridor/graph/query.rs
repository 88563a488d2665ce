//! Start/goal queries on the corridor map: attach the start and goal to the skeleton, A*
//! over the compact graph, and the chain of cells turned into overlapping disks. See
//! [`CorridorMap::corridor`].

use std::collections::BinaryHeap;

use glam::{DVec2, IVec2};
use pathfinding::prelude::{astar, dijkstra};

use super::{cell_of, CorridorMap, Place, COST_UNIT, KAPPA, MARGIN, MAX_CORRIDOR_DISKS, NONE};
use crate::corridor::disks::DiskCorridor;
use crate::error::{Error, Result};
use crate::grid::map::GridMap;
use crate::world::check_ends;
use crate::world::grid::Cells;

/// How many nearest vertices are tested for visibility before the grid search fallback.
const CANDIDATE_TESTS: usize = 64;

impl CorridorMap {
    /// The corridor from `start` to `goal` for an agent of radius `radius` (≥ 0): a chain of
    /// disks, first centre `start`, last `goal`, each of radius = clearance at its centre −
    /// `radius`, consecutive disks overlapping, every segment between consecutive centres
    /// keeping clearance ≥ `radius` + 10⁻⁶ (a margin). No facing directions are set; put them in
    /// the result's `start_dir` / `goal_dir` if wanted.
    ///
    /// Errors: the input checks of
    /// [the world contract](crate::world#coordinates-and-input-checks) on the map in cell
    /// units ([`Error::NonFinite`] or [`Error::CoordinateOutOfRange`] for the start, point
    /// 0, or the goal, point 1; [`Error::BadParameter`] for a negative or non-finite radius;
    /// a radius below the tolerance, 10⁻⁹ of the map's larger side, is taken as 0);
    /// [`Error::OutsideMap`] / [`Error::Blocked`] for a start or goal outside the map or
    /// on a blocked cell ([`GridMap::check_free_point`]), and [`Error::Blocked`] also when
    /// its clearance is not above `radius` + 10⁻⁶ (a point on a wall's surface, or
    /// too close for the agent); [`Error::Unreachable`] when no path of clearance > `radius`
    /// joins them; [`Error::OutputTooLarge`] beyond [`MAX_CORRIDOR_DISKS`].
    ///
    /// Reachability: with `radius = 0` every goal that grid A* reaches is reached (the
    /// graph keeps every free region connected; a point that sees no vertex is joined by a
    /// grid search). With `radius > 0` the route runs through cell centres, which can sit
    /// up to half a cell off the true medial axis, so a passage whose half-width exceeds
    /// `radius` by less than about half a cell may be refused as unreachable.
    ///
    /// How: for an agent of radius `r`,
    ///
    /// 1. **Attach.** Around the start, in each of eight directions, the nearest skeleton cell
    ///    that the start sees with clearance above `r` (a grid search finds one when none is
    ///    in sight); the same around the goal. An attachment may lie inside an edge
    ///    ([`CorridorMap::place`] says where each skeleton cell is).
    /// 2. **A\*** (`pathfinding`) over the compact graph through edges whose clearance is above
    ///    `r`, from a virtual source to a virtual sink spliced into the graph: the source
    ///    reaches each start attachment and from there, along its edge, both of the edge's end
    ///    vertices (as far as the chain's clearance allows); each goal attachment is reached
    ///    likewise from its edge's ends; a start and goal attachment on the same edge are also
    ///    joined directly along it. Costs are chain lengths, the heuristic is the octile
    ///    distance (a chain of grid moves is never shorter). Several attachments keep the route
    ///    from backtracking to a single nearest cell behind the start. The route is expanded
    ///    back to its chain of cell centres, the start and goal prepended and appended, as in
    ///    the chapter.
    /// 3. **Disks.** The chain is thinned (a cell is skipped while one good step reaches a
    ///    later one) and refined where the clearance changes fast, e.g. on the start and goal
    ///    legs. A step x → y is *good* when the disks overlap and the segment keeps clearance
    ///    ≥ `r` + κ × the larger radius (κ = ½). Each disk has radius = clearance at its centre
    ///    − `r`, so it lies in free space shrunk by the agent radius. Consecutive disks overlap,
    ///    so the result is a valid [`DiskCorridor`].
    ///
    /// ```
    /// use glam::DVec2;
    /// use pathsmooth::{corridor::CorridorMap, grid::GridMap, Error};
    /// let cmap = CorridorMap::build(&GridMap::from_rows(&["...@...", "...@...", "...@..."])?);
    /// let (s, g) = (DVec2::new(0.5, 1.5), DVec2::new(6.5, 1.5));
    /// assert!(matches!(cmap.corridor(s, g, 0.0), Err(Error::Unreachable { .. })));
    /// assert!(matches!(cmap.corridor(DVec2::new(3.5, 0.5), g, 0.0), Err(Error::Blocked { .. })));
    /// assert!(matches!(cmap.corridor(s, s, 0.6), Err(Error::Blocked { .. })));
    /// assert_eq!(cmap.corridor(s, s, 0.0)?.len(), 2);
    /// # Ok::<(), pathsmooth::Error>(())
    /// ```
    pub fn corridor(&self, start: DVec2, goal: DVec2, radius: f64) -> Result<DiskCorridor> {
        // The input checks of every map-aware call, on the map in cell units.
        let default_costs = crate::area::AreaCosts::default();
        let cells = Cells {
            map: &self.map,
            field: &self.field,
            costs: &default_costs,
        };
        let radius = check_ends(&cells, start, goal, radius)?;
        self.check_endpoint(start, "start", radius)?;
        self.check_endpoint(goal, "goal", radius)?;
        let unreachable = || Error::Unreachable {
            sx: start.x,
            sy: start.y,
            gx: goal.x,
            gy: goal.y,
        };
        let mut chain = self.route(start, goal, radius).ok_or_else(unreachable)?;
        // A start or goal at a vertex's centre would repeat it; start = goal keeps two.
        chain.dedup();
        if chain.len() == 1 {
            chain.push(chain[0]);
        }
        let (centers, radii) = self.disks(&chain, radius)?;
        DiskCorridor::new(centers, radii, None, None)
    }

    /// The grid check, then clearance > radius + MARGIN.
    fn check_endpoint(&self, p: DVec2, what: &'static str, radius: f64) -> Result<()> {
        self.map.check_free_point(p, what)?;
        if self.field.clearance(p) <= radius + MARGIN {
            return Err(Error::Blocked {
                what,
                x: p.x,
                y: p.y,
            });
        }
        Ok(())
    }

    /// True when the segment keeps clearance ≥ radius + MARGIN (so > radius, and never
    /// touches the blocked region).
    fn sees(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        self.field.segment_clear_of(a, b, radius + MARGIN)
    }

    /// Skeleton slot `s` usable by an agent of this radius.
    fn usable(&self, s: usize, radius: f64) -> bool {
        self.slots[s].clearance > radius + MARGIN
    }

    /// The length along edge `e` between chain positions `i` and `j` (either order), or
    /// None when a segment between them has clearance ≤ radius + MARGIN.
    fn span(&self, e: usize, i: usize, j: usize, radius: f64) -> Option<f64> {
        let d = &self.edges[e];
        let (lo, hi) = (d.first as usize + i.min(j), d.first as usize + i.max(j));
        let clear = self.chain_clearance[lo..hi]
            .iter()
            .all(|&c| c > radius + MARGIN);
        clear.then(|| self.chain_along[hi] - self.chain_along[lo])
    }

    /// Appends the centres of edge `e`'s chain from position `i` to `j` (both included).
    fn push_span(&self, e: usize, i: usize, j: usize, out: &mut Vec<DVec2>) {
        let first = self.edges[e].first as usize;
        let cell = |k: usize| GridMap::cell_center(self.chain_cells[first + k]);
        if i <= j {
            out.extend((i..=j).map(cell));
        } else {
            out.extend((j..=i).rev().map(cell));
        }
    }

    /// The last chain position of edge `e`.
    fn last(&self, e: usize) -> usize {
        self.edges[e].len as usize - 1
    }

    /// The chain start, skeleton cell centres…, goal (each consecutive segment in sight),
    /// or None when the goal cannot be reached.
    fn route(&self, start: DVec2, goal: DVec2, radius: f64) -> Option<Vec<DVec2>> {
        if self.sees(start, goal, radius) {
            return Some(vec![start, goal]);
        }
        let from = self.attach(start, radius)?;
        let to = self.attach(goal, radius)?;
        let n = self.vertex_count();
        let (source, sink) = (n, n + 1);
        let splice = self.splice(&from, &to, radius, sink);
        let usable_edge = |e: u32| {
            let d = &self.edges[e as usize];
            // A loop never shortens a route between vertices.
            (d.clearance > radius + MARGIN && d.ends[0] != d.ends[1]).then_some(d)
        };
        // Iterators, not Vecs: no allocation per expansion.
        let successors = |&u: &usize| {
            let leave: &[(usize, u64, Arc)] = if u == source { &splice.leave } else { &[] };
            let range = if u < n {
                self.offsets[u] as usize..self.offsets[u + 1] as usize
            } else {
                0..0
            };
            let edges = self.incident[range].iter().filter_map(move |&e| {
                let d = usable_edge(e)?;
                let t = if d.ends[0] as usize == u {
                    d.ends[1]
                } else {
                    d.ends[0]
                };
                Some((t as usize, d.cost))
            });
            let arrive = splice.arrive.iter().filter(move |a| a.0 == u);
            leave
                .iter()
                .map(|a| (a.0, a.1))
                .chain(edges)
                .chain(arrive.map(move |a| (sink, a.1)))
        };
        // Every edge is a chain of 8-neighbour grid moves, so the octile distance to a goal
        // attachment's cell plus that attachment's straight leg is admissible and
        // consistent, and much tighter than the straight line.
        let heuristic = |&u: &usize| match u {
            u if u == sink => 0,
            u if u == source => (start.distance(goal) * COST_UNIT).floor() as u64,
            u => {
                let c = self.centers[u];
                let best = to
                    .iter()
                    .map(|a| octile(c, self.slots[a.slot].center) + a.cost as f64 / COST_UNIT)
                    .fold(f64::INFINITY, f64::min);
                (best * COST_UNIT).floor() as u64
            }
        };
        let (nodes, _) = astar(&source, successors, heuristic, |&u| u == sink)?;
        let mut chain = Vec::new();
        for pair in nodes.windows(2) {
            let (u, v) = (pair[0], pair[1]);
            // The cheapest arc u → v, which is the one A* took.
            let arc = if u == source {
                cheapest(splice.leave.iter().filter(|a| a.0 == v))
            } else if v == sink {
                cheapest(splice.arrive.iter().filter(|a| a.0 == u))
            } else {
                let along = self.incident[self.offsets[u] as usize..self.offsets[u + 1] as usize]
                    .iter()
                    .filter_map(|&e| usable_edge(e).map(|d| (e, d)))
                    .filter(|(_, d)| d.ends.contains(&(v as u32)))
                    .map(|(e, d)| {
                        let forward = d.ends[0] as usize == u;
                        (
                            v,
                            d.cost,
                            Arc::Edge {
                                edge: e as usize,
                                forward,
                            },
                        )
                    });
                cheapest(along)
            }?;
            self.expand(arc, &from, &to, &mut chain);
        }
        Some(chain)
    }

    /// The arcs that splice the start and goal into the graph: from the source to the
    /// vertices (and, along a shared edge, straight to the sink), and from vertices to the
    /// sink. An attachment inside an edge reaches both of its end vertices, along the chain
    /// as far as its clearance allows.
    fn splice(&self, from: &[Attachment], to: &[Attachment], radius: f64, sink: usize) -> Splice {
        let cost = |a: &Attachment, length: f64| a.cost + (length * COST_UNIT).round() as u64;
        let mut splice = Splice::default();
        for (k, a) in from.iter().enumerate() {
            for (v, l, toward_last) in self.ways_to_vertices(a, radius).into_iter().flatten() {
                let arc = Arc::Leave {
                    att: k,
                    forward: toward_last,
                };
                splice.leave.push((v, cost(a, l), arc));
            }
            let Place::Edge { edge, index } = self.slots[a.slot].place else {
                continue;
            };
            for (m, b) in to.iter().enumerate() {
                let Place::Edge { edge: e, index: j } = self.slots[b.slot].place else {
                    continue;
                };
                if let Some(l) = (e == edge)
                    .then(|| self.span(edge, index, j, radius))
                    .flatten()
                {
                    let arc = Arc::Direct { from: k, to: m };
                    splice.leave.push((sink, cost(a, l) + b.cost, arc));
                }
            }
        }
        for (k, a) in to.iter().enumerate() {
            for (v, l, toward_last) in self.ways_to_vertices(a, radius).into_iter().flatten() {
                // Arriving runs the other way: from vertex `v` towards the attachment.
                let arc = Arc::Arrive {
                    att: k,
                    forward: !toward_last,
                };
                splice.arrive.push((v, cost(a, l), arc));
            }
        }
        splice
    }

    /// The vertices the skeleton cell of attachment `a` reaches along the skeleton, each
    /// with the length of the way and whether it runs towards the last cell of the edge's
    /// chain: the cell itself when it is a vertex (length 0), else the edge's two ends, as
    /// far as the chain's clearance allows.
    fn ways_to_vertices(&self, a: &Attachment, radius: f64) -> [Option<(usize, f64, bool)>; 2] {
        match self.slots[a.slot].place {
            Place::Vertex(v) => [Some((v, 0.0, true)), None],
            Place::Edge { edge, index } => {
                [(0, false), (self.last(edge), true)].map(|(end, toward_last)| {
                    let l = self.span(edge, index, end, radius)?;
                    let v = self.edges[edge].ends[toward_last as usize] as usize;
                    Some((v, l, toward_last))
                })
            }
        }
    }

    /// Appends the points of `arc` to `chain` (repeated points are removed later).
    fn expand(&self, arc: Arc, from: &[Attachment], to: &[Attachment], chain: &mut Vec<DVec2>) {
        match arc {
            Arc::Edge { edge, forward } => {
                let last = self.last(edge);
                let (i, j) = if forward { (0, last) } else { (last, 0) };
                self.push_span(edge, i, j, chain);
            }
            Arc::Leave { att, forward } => {
                let a = &from[att];
                chain.extend(&a.chain);
                if let Place::Edge { edge, index } = self.slots[a.slot].place {
                    let end = if forward { self.last(edge) } else { 0 };
                    self.push_span(edge, index, end, chain);
                }
            }
            Arc::Arrive { att, forward } => {
                let a = &to[att];
                if let Place::Edge { edge, index } = self.slots[a.slot].place {
                    let end = if forward { 0 } else { self.last(edge) };
                    self.push_span(edge, end, index, chain);
                }
                chain.extend(a.chain.iter().rev());
            }
            Arc::Direct { from: k, to: m } => {
                let (a, b) = (&from[k], &to[m]);
                chain.extend(&a.chain);
                if let (Place::Edge { edge, index: i }, Place::Edge { index: j, .. }) =
                    (self.slots[a.slot].place, self.slots[b.slot].place)
                {
                    self.push_span(edge, i, j, chain);
                }
                chain.extend(b.chain.iter().rev());
            }
        }
    }

    /// The ways from `p` onto the skeleton: in each of eight directions (octants around
    /// `p`), the nearest skeleton cell in sight, looking no farther than twice the nearest
    /// one's distance + 4 and testing at most [`CANDIDATE_TESTS`] cells; else the nearest
    /// cell by a grid search. Offering A* several directions keeps the route from
    /// backtracking to a single nearest cell behind the start.
    fn attach(&self, p: DVec2, radius: f64) -> Option<Vec<Attachment>> {
        let mut sectors: [Option<Attachment>; 8] = Default::default();
        let mut limit = f64::INFINITY;
        for (tests, s) in self.nearest_slots(p, radius).enumerate() {
            let c = self.slots[s].center;
            let d = p.distance(c);
            if tests >= CANDIDATE_TESTS || d > limit {
                break;
            }
            let angle = (c - p).y.atan2((c - p).x);
            let sector = ((angle / std::f64::consts::FRAC_PI_4).floor() as i64).rem_euclid(8);
            let slot = &mut sectors[sector as usize];
            if slot.is_none() && self.sees(p, c, radius) {
                limit = limit.min(2.0 * d + 4.0);
                *slot = Some(Attachment {
                    slot: s,
                    cost: (d * COST_UNIT).round() as u64,
                    chain: vec![p, c],
                });
            }
        }
        let mut found: Vec<Attachment> = sectors.into_iter().flatten().collect();
        if found.is_empty() {
            found.extend(self.grid_attach(p, radius));
        }
        (!found.is_empty()).then_some(found)
    }

    /// Usable skeleton slots in order of distance from `p`, scanning square rings of cells.
    fn nearest_slots(&self, p: DVec2, radius: f64) -> impl Iterator<Item = usize> + '_ {
        let (w, h) = (self.map.width() as i64, self.map.height() as i64);
        let centre = GridMap::cell_at(p).unwrap_or(IVec2::ZERO);
        let max_ring = w.max(h);
        let mut heap: BinaryHeap<(std::cmp::Reverse<u64>, usize)> = BinaryHeap::new();
        let mut ring = 0i64;
        std::iter::from_fn(move || {
            loop {
                // A cell in ring k (Chebyshev distance k from p's cell) is at least k − 1
                // away from p; pop only when no unscanned ring can hold a nearer cell.
                let bound = (((ring - 1).max(0) as f64) * COST_UNIT) as u64;
                let ready = heap.peek().is_some_and(|(d, _)| d.0 <= bound);
                if ready || ring > max_ring {
                    return heap.pop().map(|(_, s)| s);
                }
                for c in ring_cells(centre, ring) {
                    if let Some(s) = self.slot_at(c).filter(|&s| self.usable(s, radius)) {
                        let d = (self.slots[s].center.distance(p) * COST_UNIT) as u64;
                        heap.push((std::cmp::Reverse(d), s));
                    }
                }
                ring += 1;
            }
        })
    }

    /// Fallback when no skeleton cell is in sight: Dijkstra over cell centres (segments in
    /// sight with clearance) from `p` to the nearest usable skeleton cell.
    fn grid_attach(&self, p: DVec2, radius: f64) -> Option<Attachment> {
        let w = self.map.width();
        let here = GridMap::cell_at(p)?;
        let cell_index = |c: IVec2| c.y as usize * w + c.x as usize;
        let point = |i: usize| {
            if i == usize::MAX {
                p
            } else {
                GridMap::cell_center(cell_of(i, w))
            }
        };
        let successors = |&i: &usize| -> Vec<(usize, u64)> {
            let c = if i == usize::MAX { here } else { cell_of(i, w) };
            let mut out = Vec::new();
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let n = c + IVec2::new(dx, dy);
                    let inside = self.map.passable_cell(n);
                    if (dx, dy) == (0, 0) && i != usize::MAX || !inside {
                        continue;
                    }
                    let (a, b) = (point(i), GridMap::cell_center(n));
                    if self.sees(a, b, radius) {
                        out.push((cell_index(n), (a.distance(b) * COST_UNIT).round() as u64));
                    }
                }
            }
            out
        };
        let success = |&i: &usize| {
            i != usize::MAX
                && self.cell_slot[i] != NONE
                && self.usable(self.cell_slot[i] as usize, radius)
        };
        let (cells, cost) = dijkstra(&usize::MAX, successors, success)?;
        let slot = self.cell_slot[*cells.last()?] as usize;
        let chain = cells.iter().map(|&i| point(i)).collect();
        Some(Attachment { slot, cost, chain })
    }

    /// Turns the chain into disks: thinned where the medial axis allows long, clear steps,
    /// refined where the clearance changes fast (the start and goal connectors). Every
    /// step x → y taken is *good* (see [`CorridorMap::good`]).
    fn disks(&self, chain: &[DVec2], radius: f64) -> Result<(Vec<DVec2>, Vec<f64>)> {
        const LOOKAHEAD: usize = 64;
        let rho = |p: DVec2| (self.field.clearance(p) - radius).max(0.0);
        let mut centers = vec![chain[0]];
        let mut radii = vec![rho(chain[0])];
        let last = chain.len() - 1;
        let mut i = 0;
        while i < last {
            // Thinning: a far chain point (within the look-ahead) reached by one good
            // step, else the next one. Galloping then bisection: O(log LOOKAHEAD) exact
            // clearance tests instead of one per point.
            let (x, rx) = (chain[i], radii[radii.len() - 1]);
            let good = |j: usize| self.good(x, rx, chain[j], rho(chain[j]), radius);
            let end = last.min(i + LOOKAHEAD);
            let (mut ok, mut bad) = (i + 1, end + 1);
            let mut step = 1;
            while ok + step <= end {
                if good(ok + step) {
                    ok += step;
                    step *= 2;
                } else {
                    bad = ok + step;
                    break;
                }
            }
            while bad - ok > 1 {
                let mid = (ok + bad) / 2;
                if good(mid) {
                    ok = mid;
                } else {
                    bad = mid;
                }
            }
            let next = ok;
            self.refine(chain[next], radius, &mut centers, &mut radii)?;
            i = next;
        }
        Ok((centers, radii))
    }

    /// A step x → y is good when the disks overlap (|x − y| ≤ ρx + ρy) and the segment
    /// keeps clearance ≥ r + max(MARGIN, κ·max(ρx, ρy)) with κ = [`KAPPA`]: then the safe
    /// radii of the corridor smoother (the segment clearances − r) stay within a factor κ of
    /// the disks' radii.
    fn good(&self, x: DVec2, rx: f64, y: DVec2, ry: f64, radius: f64) -> bool {
        let wanted = radius + MARGIN.max(KAPPA * rx.max(ry));
        x.distance(y) <= rx + ry && self.field.segment_clear_of(x, y, wanted)
    }

    /// Appends disks from the last centre to `b` (a point in sight with clearance): the
    /// longest good step among the whole way, half of it, a quarter…, and at worst the
    /// step L = 0.99·(1 − κ)/(1 + κ)·ρx, which is good by the Lipschitz bound (on it the
    /// clearance is ≥ r + ρx − L ≥ r + κ(ρx + L) ≥ r + κ·max(ρx, ρy), and L < ρx).
    fn refine(
        &self,
        b: DVec2,
        radius: f64,
        centers: &mut Vec<DVec2>,
        radii: &mut Vec<f64>,
    ) -> Result<()> {
        let rho = |p: DVec2| (self.field.clearance(p) - radius).max(0.0);
        let rb = rho(b);
        loop {
            let (x, rx) = (centers[centers.len() - 1], radii[radii.len() - 1]);
            let remaining = x.distance(b);
            if remaining == 0.0 || self.good(x, rx, b, rb, radius) {
                break;
            }
            let dir = (b - x) / remaining;
            let floor = 0.99 * (1.0 - KAPPA) / (1.0 + KAPPA) * rx;
            let mut step = remaining * 0.5;
            let mut y = x + dir * step;
            let mut ry = rho(y);
            while step > floor && !self.good(x, rx, y, ry, radius) {
                step = (step * 0.5).max(floor);
                y = x + dir * step;
                ry = rho(y);
            }
            if step.is_nan() || step <= 0.0 || centers.len() >= MAX_CORRIDOR_DISKS {
                return Err(Error::OutputTooLarge {
                    requested: centers.len() as u128 + (remaining / step.max(1e-300)) as u128,
                    cap: MAX_CORRIDOR_DISKS,
                });
            }
            centers.push(y);
            radii.push(ry);
        }
        centers.push(b);
        radii.push(rb);
        Ok(())
    }
}

/// One way onto the skeleton from a start or goal.
#[derive(Debug, Clone)]
struct Attachment {
    /// The skeleton slot reached.
    slot: usize,
    cost: u64,
    /// From the point to the slot's centre (both included).
    chain: Vec<DVec2>,
}

/// How the route goes from one A* node to the next (see [`CorridorMap::expand`]).
#[derive(Debug, Clone, Copy)]
enum Arc {
    /// A graph edge, from its first end to its last when `forward`.
    Edge { edge: usize, forward: bool },
    /// Start attachment `att`, then (when its cell is inside an edge) along that edge to
    /// its last end when `forward`, else to its first.
    Leave { att: usize, forward: bool },
    /// From an end of the goal attachment's edge (the first when `forward`) along it to
    /// the attachment's cell, then goal attachment `att`.
    Arrive { att: usize, forward: bool },
    /// Start attachment `from`, along the edge it shares with goal attachment `to`, then
    /// that attachment.
    Direct { from: usize, to: usize },
}

/// The virtual start and goal spliced into the graph for one query: arcs (target, cost,
/// arc) from the source, and (vertex, cost, arc) from a vertex to the sink.
#[derive(Debug, Default)]
struct Splice {
    leave: Vec<(usize, u64, Arc)>,
    arrive: Vec<(usize, u64, Arc)>,
}

/// The arc of least cost.
fn cheapest(
    arcs: impl IntoIterator<Item = impl std::borrow::Borrow<(usize, u64, Arc)>>,
) -> Option<Arc> {
    arcs.into_iter()
        .map(|a| *a.borrow())
        .min_by_key(|a| a.1)
        .map(|a| a.2)
}

/// Octile distance between two points (the shortest 8-connected grid walk between cell
/// centres).
fn octile(a: DVec2, b: DVec2) -> f64 {
    let d = (a - b).abs();
    let (lo, hi) = (d.x.min(d.y), d.x.max(d.y));
    hi - lo + lo * std::f64::consts::SQRT_2
}

/// The cells at Chebyshev distance `k` from `c`.
fn ring_cells(c: IVec2, k: i64) -> impl Iterator<Item = IVec2> {
    let k = k as i32;
    (-k..=k).flat_map(move |t| {
        let top = [IVec2::new(c.x + t, c.y - k), IVec2::new(c.x + t, c.y + k)];
        let vertical = (t > -k && t < k)
            .then_some([IVec2::new(c.x - k, c.y + t), IVec2::new(c.x + k, c.y + t)]);
        top.into_iter()
            .take(if k == 0 { 1 } else { 2 })
            .chain(vertical.into_iter().flatten())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_cover_each_cell_once() {
        let mut seen = std::collections::HashSet::new();
        for k in 0..4 {
            for c in ring_cells(IVec2::new(5, 5), k) {
                assert!(seen.insert(c), "{c:?} twice");
                assert_eq!((c - IVec2::new(5, 5)).abs().max_element() as i64, k);
            }
        }
        assert_eq!(seen.len(), 49);
    }

    #[test]
    fn corridor_disks_overlap_and_stay_clear() {
        let map = GridMap::from_fn(40, 30, |x, y| !((x / 6 + y / 5) % 3 == 0 && x % 6 < 3));
        let cmap = CorridorMap::build(&map);
        let s = DVec2::new(3.5, 2.5);
        for g in [DVec2::new(37.5, 27.5), DVec2::new(20.2, 13.7)] {
            let Ok(c) = cmap.corridor(s, g, 0.3) else {
                continue;
            };
            for (k, (&p, &r)) in c.centers.iter().zip(&c.radii).enumerate() {
                assert!(cmap.field().clearance(p) - 0.3 >= r - 1e-9);
                if k > 0 {
                    let prev = c.centers[k - 1];
                    assert!(cmap.field().segment_clearance(prev, p) > 0.3);
                }
            }
        }
    }
}
