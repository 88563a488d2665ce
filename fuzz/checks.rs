//! The properties the fuzz targets check, one function per target, shared by the targets
//! (`fuzz_targets/*.rs`, run with cargo-fuzz) and by the replay of the committed corpora in
//! the library's tests (`crates/pathsmooth/tests/fuzz_corpora.rs`, run by CI on stable).
//! Each takes arbitrary bytes and panics only when a property fails.
#![allow(dead_code)]

use pathsmooth::corridor::{optimize, Method, Problem, ProblemParams, SolverParams, Stop};
use pathsmooth::glam::{DVec2, DVec3};
use pathsmooth::grid::GridMap;
use pathsmooth::io::{parse_path, write_path, Format, PathData};
use pathsmooth::navmesh::{
    is_detour, is_godot, is_recast_json, parse_detour, parse_godot, parse_mesh, parse_obj,
    parse_recast_json, read_surface, write_mesh, write_mesh_v3, write_obj, GroundPlane,
    SurfaceFormat,
};
use pathsmooth::navmesh::{NavMesh, Scene, Surface, SurfaceData, SurfaceOptions, UpAxis};
use pathsmooth::{GridWorld, SurfaceWorld, World};

/// Any text given to the Moving AI map parser is a map or an error, never a panic; a map
/// that parses answers A*, line-of-sight and clearance queries without panicking.
pub fn parse_map(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(map) = GridMap::parse(text, "fuzz.map") else {
        return;
    };
    if map.width() * map.height() > 1 << 16 {
        return;
    }
    if let Ok(world) = GridWorld::new(map) {
        let b = world.bounds();
        let (lo, hi) = (b.min, b.max);
        let _ = world.clearance(lo.lerp(hi, 0.5));
        let _ = world.segment_is_clear(lo, hi, 0.25);
        let _ = world.find_path(lo.lerp(hi, 0.1), lo.lerp(hi, 0.9), 0.0);
    }
}

/// Any text given to the Moving AI scenario parser is a list of scenarios or an error.
pub fn parse_scenarios(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = pathsmooth::grid::parse_scenarios(text, "fuzz.scen");
    }
}

/// Any text given to the path-file parsers (JSON and CSV) is a path or an error; a path
/// that parses is written and read back to the same points.
pub fn parse_path_round_trip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for format in [Format::Json, Format::Csv] {
        if let Ok(PathData::D2(points)) = parse_path(text, format, "fuzz") {
            let again = parse_path(&write_path(&points, format), format, "again").unwrap();
            assert_eq!(again, PathData::D2(points));
        }
    }
}

/// Any text given to the scene parser is a navmesh or an error, never a panic.
pub fn scene_json(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = NavMesh::from_scene_json(text, "fuzz.json");
    }
}

/// Any text given to the corridor / problem parser is a problem or an error; a problem that
/// parses is solved (a few iterations, by each method) without panicking.
pub fn corridor_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(problem) = Problem::from_any_json(text, &ProblemParams::default())
        && problem.len() <= 1000
    {
        for method in [Method::ChambollePock, Method::ADMM] {
            let params = SolverParams {
                stop: Stop::Iterations(20),
                method,
                ..SolverParams::default()
            };
            let _ = optimize(&problem, &params);
        }
    }
}

/// Reads fuzz bytes as structured values. When the bytes run out every read returns zero,
/// so any input decodes to something and short inputs are small cases.
struct Input<'a> {
    data: &'a [u8],
}

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        std::array::from_fn(|_| self.byte())
    }

    /// Any f64, NaN, infinities and subnormals included.
    fn raw(&mut self) -> f64 {
        f64::from_le_bytes(self.bytes())
    }

    /// Mostly tame values (multiples of 1/8 in [0, 32)), sometimes any f64: the smoothers
    /// meet both ordinary geometry and the extremes.
    fn number(&mut self) -> f64 {
        match self.byte() {
            0..=223 => f64::from(u16::from_le_bytes(self.bytes())) / 2048.0,
            224..=239 => f64::from(self.byte()) / 255.0,
            _ => self.raw(),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    fn points(&mut self, max: usize) -> Vec<DVec2> {
        let n = self.below(max + 1);
        (0..n)
            .map(|_| DVec2::new(self.number(), self.number()))
            .collect()
    }
}

fn all_finite<P: pathsmooth::Point>(path: &[P]) -> bool {
    path.iter().all(|p| p.is_finite())
}

/// Every dimension-free smoother (classic, in-place and adaptive Chaikin, Catmull-Rom of
/// each parameterisation, resampling, in 2D and 3D) and the speed profile, on arbitrary
/// points and parameters: an error or an output, never a panic, and finite input gives
/// finite output.
pub fn curves(data: &[u8]) {
    use pathsmooth::curve::{catmull_rom, CatmullRomParams, Ends};
    use pathsmooth::curve::{chaikin_in_place, chaikin_output_len};
    use pathsmooth::follow::{speed_profile, Agent, Steering};
    use pathsmooth::{chaikin, chaikin_adaptive, resample, AdaptiveParams, ChaikinParams};

    let mut input = Input { data };
    let path = input.points(24);
    let lift = |p: &DVec2| DVec3::new(p.x, p.y, p.x - p.y);
    let path3: Vec<DVec3> = path.iter().map(lift).collect();
    let finite = all_finite(&path);
    let ok = |out: &[DVec2]| assert!(!finite || all_finite(out), "non-finite output");
    let ok3 = |out: &[DVec3]| assert!(!finite || all_finite(out), "non-finite 3D output");

    let classic = ChaikinParams {
        ratio: input.number(),
        passes: u32::from(input.byte() % 7),
        closed: input.byte() & 1 == 1,
    };
    if let Ok(out) = chaikin(&path, &classic) {
        ok(&out);
    }
    if let Ok(out) = chaikin(&path3, &classic) {
        ok3(&out);
    }
    if let Ok(len) = chaikin_output_len(path.len(), classic.passes, classic.closed)
        && len <= 1 << 16
    {
        let mut buf = path.clone();
        buf.resize(len.max(path.len()), DVec2::ZERO);
        if let Ok(n) = chaikin_in_place(&mut buf, path.len(), &classic) {
            ok(&buf[..n]);
        }
    }
    let adaptive = AdaptiveParams {
        angle_limit: input.number(),
        outlier_limit: (input.byte() & 1 == 1).then(|| input.number()),
        ratio: input.number(),
        max_passes: u32::from(input.byte() % 6),
    };
    if let Ok(out) = chaikin_adaptive(&path, &adaptive) {
        ok(&out);
    }
    let ends = [Ends::Doubled, Ends::Reflected, Ends::Closed][input.below(3)];
    let spline = CatmullRomParams {
        subdivisions: input.below(17),
        alpha: input.number(),
        ends,
    };
    if let Ok(out) = catmull_rom(&path, &spline) {
        ok(&out);
    }
    if let Ok(out) = catmull_rom(&path3, &spline) {
        ok3(&out);
    }
    // Resampling at a spacing far below the length makes millions of points legitimately;
    // the fuzzer explores the arithmetic, not the output cap, so such calls are skipped.
    let spacing = input.number();
    let samples = pathsmooth::metrics::length(&path) / spacing;
    if (samples.is_nan() || samples <= 1e5)
        && let Ok(out) = resample(&path, spacing)
    {
        ok(&out);
    }
    let agent = Agent {
        max_speed: input.number(),
        max_accel: input.number(),
        max_brake: input.number(),
        max_lateral_accel: input.number(),
        max_turn_rate: input.number(),
        stop_angle: input.number(),
        max_corner_cut: input.number(),
        steering: if input.byte() & 1 == 1 {
            Steering::Ground
        } else {
            Steering::Full3d
        },
    };
    if let Ok(profile) = speed_profile(&path3, &agent) {
        let t = profile.total_time();
        assert!(!finite || (t.is_finite() && t >= 0.0), "traversal time {t}");
        assert!(!finite || profile.length().is_finite(), "length not finite");
    }
}

/// A small grid world (up to 12×12 cells, any cell size and origin) from the bytes, and
/// a path on it.
fn grid_case(input: &mut Input) -> Option<(GridWorld, f64, Vec<DVec2>)> {
    let (w, h) = (1 + input.below(12), 1 + input.below(12));
    let bits: Vec<u8> = (0..(w * h).div_ceil(8)).map(|_| input.byte()).collect();
    let cell = if input.byte() < 200 {
        0.25 * f64::from(1 + input.byte() % 16)
    } else {
        input.raw()
    };
    let origin = DVec2::new(input.number(), input.number()) - 8.0;
    let free = |x: usize, y: usize| {
        let i = y * w + x;
        bits[i / 8] & (1 << (i % 8)) == 0
    };
    let world = GridWorld::from_fn(w, h, cell, origin, free).ok()?;
    let radius = match input.byte() {
        0..=127 => 0.0,
        b @ 128..=250 => f64::from(b - 127) / 64.0 * cell,
        _ => input.raw(),
    };
    let bounds = world.bounds();
    let n = 1 + input.below(10);
    let path = (0..n)
        .map(|_| {
            let t = DVec2::new(input.number(), input.number()) / 32.0;
            bounds.min + (bounds.max - bounds.min) * t
        })
        .collect();
    Some((world, radius, path))
}

/// The map-aware smoothers and every pipeline preset on a small grid world and an
/// arbitrary path: never a panic; whenever a call succeeds its output is finite, keeps the
/// path's ends, and is valid on the world for the agent radius (the pipeline promises it
/// for any input; shortcuts and map-aware Chaikin promise it for valid input).
pub fn map_smoothers(data: &[u8]) {
    use pathsmooth::{map_chaikin, shortcut, validate, ChaikinParams, Pipeline, Preset};

    let mut input = Input { data };
    let Some((world, radius, path)) = grid_case(&mut input) else {
        return;
    };
    let valid = |out: &[DVec2]| validate(&world, out, radius).is_ok_and(|r| r.is_valid());
    let ends_kept = |out: &[DVec2]| out.first() == path.first() && out.last() == path.last();
    let input_valid = path.len() >= 2 && valid(&path);
    if let Ok(out) = shortcut(&world, &path, radius) {
        assert!(all_finite(&out) && ends_kept(&out), "shortcut moved an end");
        assert!(
            !input_valid || valid(&out),
            "shortcut made a valid path invalid"
        );
    }
    let params = ChaikinParams {
        ratio: 0.25,
        passes: u32::from(input.byte() % 4),
        closed: false,
    };
    if let Ok(out) = map_chaikin(&world, &path, radius, &params) {
        assert!(
            all_finite(&out) && ends_kept(&out),
            "map chaikin moved an end"
        );
        assert!(
            !input_valid || valid(&out),
            "map chaikin made a valid path invalid"
        );
    }
    for preset in [Preset::Shortest, Preset::Smooth, Preset::Corridor] {
        let Ok(mut pipeline) = Pipeline::preset(&world, radius, preset) else {
            continue;
        };
        if let Ok(out) = pipeline.smooth(&path) {
            assert!(
                valid(&out) && ends_kept(&out),
                "{preset:?}: invalid smooth output"
            );
        }
        if let (Some(&a), Some(&b)) = (path.first(), path.last())
            && let Ok(out) = pipeline.plan(a, b)
        {
            assert!(valid(&out), "{preset:?}: invalid plan output");
        }
    }
}

/// A navmesh world from the bytes: a box with up to three quadrilateral holes (rings that
/// cross are refused by the scene check, a mesh with no area at its tolerance by the
/// world's; both are part of what is fuzzed).
fn navmesh_case(input: &mut Input) -> Option<SurfaceWorld> {
    let size = DVec2::new(1.0 + input.number(), 1.0 + input.number());
    let boundary = vec![[0.0, 0.0], [size.x, 0.0], [size.x, size.y], [0.0, size.y]];
    let holes = (0..input.below(4))
        .map(|_| {
            let c = size * DVec2::new(input.number(), input.number()) / 32.0;
            let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
            corners
                .iter()
                .map(|&(sx, sy)| {
                    let d = DVec2::new(sx, sy) * (0.05 + input.number() / 16.0);
                    [c.x + d.x, c.y + d.y]
                })
                .collect()
        })
        .collect();
    let mesh = NavMesh::from_scene(&Scene { boundary, holes }).ok()?;
    SurfaceWorld::from_navmesh(&mesh).ok()
}

/// The navmesh methods (funnel, portal relaxation) and the shortcut pipeline on a random
/// scene: never a panic; a path the pipeline returns is finite, joins start and goal and is
/// valid on the world for the radius.
pub fn navmesh_smoothers(data: &[u8]) {
    use pathsmooth::{validate, Pipeline, Preset, Step};

    let mut input = Input { data };
    let Some(world) = navmesh_case(&mut input) else {
        return;
    };
    let radius = match input.byte() {
        0..=127 => 0.0,
        b @ 128..=250 => f64::from(b - 127) / 256.0,
        _ => input.raw(),
    };
    let b = world.bounds();
    let mut point = || {
        let t = DVec2::new(input.number(), input.number()) / 32.0;
        b.min + (b.max - b.min) * t
    };
    let (start, goal) = (point(), point());
    let steps = [
        vec![Step::Funnel],
        vec![Step::relax()],
        Preset::Smooth.steps(),
    ];
    for steps in steps {
        let Ok(pipeline) = Pipeline::new(&world, radius) else {
            return;
        };
        let mut pipeline = pipeline.with_steps(steps);
        if let Ok(out) = pipeline.plan(start, goal) {
            assert!(all_finite(&out), "non-finite navmesh path");
            assert_eq!((out.first(), out.last()), (Some(&start), Some(&goal)));
            let report = validate(&world, &out, radius).expect("a finite path validates");
            assert!(
                report.is_valid(),
                "invalid navmesh path: {:?}",
                report.problem()
            );
        }
    }
}

/// Checks a navmesh a reader accepted: every triangle has a polygon, and the mesh answers
/// a query between two of its triangles' centroids without panicking (small meshes only).
fn check_navmesh(mesh: &NavMesh) {
    let n = mesh.num_triangles();
    assert!(n > 0, "an accepted navmesh has triangles");
    for t in 0..n {
        assert!(mesh.polygon_index_of(t) < mesh.num_polygons());
    }
    if n <= 4096 {
        let (a, b) = (mesh.centroid(0), mesh.centroid(n - 1));
        if let Ok(channel) = mesh.find_channel(a, b) {
            let _ = mesh.polygons_along(&[a, b]);
            let _ = mesh.polygons_crossed(&[a, b]);
            assert!(!channel.is_empty());
        }
    }
}

/// Any text given to the polyanya `.mesh` reader is a navmesh or an error, never a panic;
/// a navmesh that parses is written (version 2 and version 3) and read back to the same
/// triangles and polygons.
pub fn parse_mesh_round_trip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mesh) = parse_mesh(text, "fuzz.mesh") {
        check_navmesh(&mesh);
        let again = parse_mesh(&write_mesh(&mesh), "again.mesh").unwrap();
        assert_eq!(again.num_triangles(), mesh.num_triangles());
        assert_eq!(again.num_polygons(), mesh.num_polygons());
        assert_eq!(again.vertices(), mesh.vertices());
        // And through version 3.
        let v3 = parse_mesh(&write_mesh_v3(&mesh), "again.v3.mesh").unwrap();
        assert_eq!(v3.num_triangles(), mesh.num_triangles());
        assert_eq!(v3.num_polygons(), mesh.num_polygons());
        assert_eq!(v3.vertices(), mesh.vertices());
    }
}

/// Any text given to the OBJ reader (either ground plane) is a navmesh or an error, never
/// a panic; a navmesh that parses is written and read back to the same triangles.
pub fn parse_obj_round_trip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for plane in [GroundPlane::Xz, GroundPlane::Xy] {
        if let Ok(mesh) = parse_obj(text, "fuzz.obj", plane) {
            check_navmesh(&mesh);
            let again = parse_obj(&write_obj(&mesh, plane), "again.obj", plane).unwrap();
            assert_eq!(again.num_triangles(), mesh.num_triangles());
            assert_eq!(again.num_polygons(), mesh.num_polygons());
            assert_eq!(again.vertices(), mesh.vertices());
        }
    }
}

/// What every reader's [`SurfaceData`] promises: y up, finite vertices, polygon indices in
/// range, areas and flags empty or one per polygon, a detail mesh (if any) that is data
/// only; and building a surface from it (small ones only) is a surface or an error, never a
/// panic.
fn check_surface_data(data: &SurfaceData) {
    assert_eq!(data.up, UpAxis::Y);
    assert!(data.vertices.iter().all(|v| v.is_finite()));
    let n = data.vertices.len();
    for p in &data.polygons {
        assert!(p.iter().all(|&i| (i as usize) < n), "index out of range");
    }
    for len in [data.areas.len(), data.flags.len()] {
        assert!(len == 0 || len == data.polygons.len());
    }
    if n <= 4096 && data.polygons.len() <= 4096 {
        let options = SurfaceOptions {
            weld: Some(1e-4),
            ..SurfaceOptions::new(UpAxis::Y)
        };
        let _ = Surface::from_data(data, &options);
    }
}

/// Any text given to the Godot reader (and its sniffer) is surface data or an error, never
/// a panic; data it accepts keeps [`check_surface_data`]'s promises.
pub fn parse_godot_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = is_godot(text);
    if let Ok(d) = parse_godot(text, "fuzz.tscn") {
        check_surface_data(&d);
        assert!(d.areas.is_empty() && d.flags.is_empty() && d.detail.is_none());
    }
}

/// Any text given to the Recast poly mesh JSON reader (and its sniffer) is surface data or
/// an error, never a panic; data it accepts keeps [`check_surface_data`]'s promises.
pub fn parse_recast_json_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = is_recast_json(text);
    if let Ok(d) = parse_recast_json(text, "fuzz.json") {
        check_surface_data(&d);
    }
}

/// Any bytes given to Detour's binary reader are a navmesh's data or an error, never a
/// panic; data it reads is consistent (one area, flags word, ref and detail sub-mesh per
/// polygon, indices in range, only from bytes with Detour's magic) and, when small, builds
/// a surface or fails with an error.
pub fn parse_detour_binary(data: &[u8]) {
    let Ok(d) = parse_detour(data, "fuzz.bin") else {
        return;
    };
    assert!(is_detour(data));
    let n = d.polygons.len();
    assert_eq!((d.areas.len(), d.flags.len(), d.refs.len()), (n, n, n));
    for p in &d.polygons {
        assert!((3..=6).contains(&p.len()));
        assert!(p.iter().all(|&v| (v as usize) < d.vertices.len()));
    }
    assert!(d.vertices.iter().all(|v| v.is_finite()));
    if let Some(detail) = &d.detail {
        assert_eq!(detail.meshes.len(), n);
        for &[vb, vn, tb, tn] in &detail.meshes {
            assert!((vb + vn) as usize <= detail.vertices.len());
            assert!((tb + tn) as usize <= detail.triangles.len());
            let tris = &detail.triangles[tb as usize..(tb + tn) as usize];
            assert!(tris.iter().all(|t| t[..3].iter().all(|&i| i < vn)));
        }
    }
    if n <= 1000 {
        let _ = Surface::from_data(&d, &SurfaceOptions::default());
    }
}

/// Any bytes given to the library's loader (every navmesh format it sniffs, then the
/// surface builder) are a surface or an error, never a panic; a surface it builds has
/// finite vertices, every polygon of 3 or more corners in range, neighbours that name each
/// other, and a report whose counts add up to its input.
pub fn read_surface_bytes(data: &[u8]) {
    // Small inputs only: the builder is linear, but a fuzzer's time is better spent on
    // variety than on size.
    if data.len() > 1 << 16 {
        return;
    }
    let _ = SurfaceFormat::sniff(data);
    let Ok(s) = read_surface(data, "fuzz.bin", &SurfaceOptions::default()) else {
        return;
    };
    assert!(s.vertices().iter().all(|v| v.is_finite()));
    let n = s.num_polygons() as u32;
    for p in 0..n {
        let ring = s.polygon(p);
        assert!(ring.len() >= 3);
        assert!(ring.iter().all(|&v| (v as usize) < s.vertices().len()));
        for q in s.neighbors(p).flatten() {
            assert!(q < n && s.neighbors(q).any(|r| r == Some(p)));
        }
    }
    let r = s.load_report();
    assert_eq!(
        s.num_polygons() + r.degenerate.len() + r.duplicates.len(),
        r.input_polygons
    );
}
