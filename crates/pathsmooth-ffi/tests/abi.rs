//! The C ABI called from Rust as C would call it: every bad input gets its status and a
//! message that says what was wrong; good input gets the library's own results, bit for
//! bit.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use pathsmooth::glam::{DVec2, DVec3, Vec2};
use pathsmooth::navmesh::{NavMesh, Surface, SurfaceMesh, UpAxis};
use pathsmooth::{GridMap, GridWorld, Pipeline, Preset, SurfaceWorld};
use pathsmooth_ffi::*;

use PsStatus::*;

use crate::common;
use common::{expect, l_navmesh, last_error, pt};

const ROWS: [&str; 6] = [
    "..........",
    "..........",
    "...@@@@...",
    "...@@@@...",
    "..........",
    "@@@@@@@@@@",
];

fn cells() -> Vec<u8> {
    ROWS.iter()
        .flat_map(|r| r.bytes().map(|c| (c == b'.') as u8))
        .collect()
}

fn grid() -> *mut PsWorld {
    let mut world = null_mut();
    let c = cells();
    let s = unsafe { ps_world_grid_new(c.as_ptr(), 10, 6, 0.5, 1.0, 2.0, &mut world) };
    expect(s, PsOk, "");
    world
}

fn rust_grid() -> GridWorld {
    let map = GridMap::from_rows(&ROWS).unwrap();
    GridWorld::with_frame(map, 0.5, DVec2::new(1.0, 2.0)).unwrap()
}

fn pipeline(world: *const PsWorld, preset: u32, radius: f64) -> *mut PsPipeline {
    let mut p = null_mut();
    let s = unsafe { ps_pipeline_new_preset(world, preset, radius, &mut p) };
    expect(s, PsOk, "");
    p
}

/// The grid world and a pipeline on it: how most tests start.
fn grid_pipeline(preset: u32, radius: f64) -> (*mut PsWorld, *mut PsPipeline) {
    let world = grid();
    (world, pipeline(world, preset, radius))
}

/// Destroys a pipeline, then its world: how most tests end.
fn destroy(p: *mut PsPipeline, world: *mut PsWorld) {
    unsafe {
        ps_pipeline_destroy(p);
        ps_world_destroy(world);
    }
}

/// Plans with a buffer of `cap` points.
fn plan(p: *mut PsPipeline, s: PsPoint2d, g: PsPoint2d, cap: usize) -> (PsStatus, Vec<DVec2>) {
    let mut out = vec![0.0; 2 * cap];
    let mut len = usize::MAX;
    let st = unsafe { ps_pipeline_plan_f64(p, s, g, out.as_mut_ptr(), cap, &mut len) };
    let n = if st == PsOk { len } else { 0 };
    (
        st,
        (0..n)
            .map(|i| DVec2::new(out[2 * i], out[2 * i + 1]))
            .collect(),
    )
}

fn flat(path: &[DVec2]) -> Vec<f64> {
    path.iter().flat_map(|p| [p.x, p.y]).collect()
}

fn bits(path: &[DVec2]) -> Vec<u64> {
    flat(path).iter().map(|x| x.to_bits()).collect()
}

const START: PsPoint2d = PsPoint2d { x: 1.25, y: 3.25 };
const GOAL: PsPoint2d = PsPoint2d { x: 5.75, y: 3.75 };

#[test]
fn grid_plans_and_smooths_as_the_library_does() {
    let (world, p) = grid_pipeline(PS_PRESET_SMOOTH, 0.2);
    let (st, got) = plan(p, START, GOAL, 256);
    expect(st, PsOk, "");
    let rust = rust_grid();
    let mut rp = Pipeline::preset(&rust, 0.2, Preset::Smooth).unwrap();
    let want = rp
        .plan(DVec2::new(1.25, 3.25), DVec2::new(5.75, 3.75))
        .unwrap();
    assert_eq!(bits(&got), bits(&want));

    // Smoothing, in place (output = input buffer).
    let raw = [
        DVec2::new(1.25, 3.25),
        DVec2::new(1.25, 2.25),
        DVec2::new(5.75, 2.25),
        DVec2::new(5.75, 3.75),
    ];
    let mut buf = flat(&raw);
    buf.resize(512, 0.0);
    let mut len = 0;
    let st = unsafe { ps_pipeline_smooth_f64(p, buf.as_ptr(), 4, buf.as_mut_ptr(), 256, &mut len) };
    expect(st, PsOk, "");
    let want = rp.smooth(&raw).unwrap();
    assert_eq!(flat(&want)[..], buf[..2 * len]);

    // f32, against the library's Vec2 runs.
    let mut out = [0f32; 512];
    let st = unsafe {
        ps_pipeline_plan_f32(
            p,
            PsPoint2f { x: 1.25, y: 3.25 },
            PsPoint2f { x: 5.75, y: 3.75 },
            out.as_mut_ptr(),
            256,
            &mut len,
        )
    };
    expect(st, PsOk, "");
    let want = rp
        .plan(Vec2::new(1.25, 3.25), Vec2::new(5.75, 3.75))
        .unwrap();
    let want: Vec<f32> = want.iter().flat_map(|p| [p.x, p.y]).collect();
    assert_eq!(out[..2 * len], want[..]);
    let input32: Vec<f32> = raw.iter().flat_map(|p| [p.x as f32, p.y as f32]).collect();
    let st =
        unsafe { ps_pipeline_smooth_f32(p, input32.as_ptr(), 4, out.as_mut_ptr(), 256, &mut len) };
    expect(st, PsOk, "");
    let raw32: Vec<Vec2> = raw.iter().map(|p| p.as_vec2()).collect();
    let want: Vec<f32> = rp
        .smooth(&raw32)
        .unwrap()
        .iter()
        .flat_map(|p| [p.x, p.y])
        .collect();
    assert_eq!(out[..2 * len], want[..]);

    // The report.
    let mut r = PsReport::default();
    expect(unsafe { ps_pipeline_report(p, &mut r) }, PsOk, "");
    let rr = rp.report();
    assert_eq!(
        (r.min_clearance, r.length),
        (rr.validation.min_clearance, rr.validation.length)
    );
    assert_eq!(r.skipped_count, rr.skipped.len());
    destroy(p, world);
}

#[test]
fn a_buffer_too_small_reports_the_length_and_the_retry_gets_the_same_path() {
    let (world, p) = grid_pipeline(PS_PRESET_SMOOTH, 0.2);
    let (_, want) = plan(p, START, GOAL, 1024);
    let mut len = 0;
    let st = unsafe { ps_pipeline_plan_f64(p, START, GOAL, null_mut(), 0, &mut len) };
    expect(
        st,
        PsBufferTooSmall,
        &format!("but {} are needed", want.len()),
    );
    assert_eq!(len, want.len());
    let (st, small) = plan(p, START, GOAL, len - 1);
    assert_eq!((st, small.len()), (PsBufferTooSmall, 0));
    let (st, got) = plan(p, START, GOAL, len);
    expect(st, PsOk, "");
    assert_eq!(bits(&got), bits(&want));
    // Smoothing too.
    let input = flat(&want);
    let st =
        unsafe { ps_pipeline_smooth_f64(p, input.as_ptr(), want.len(), null_mut(), 0, &mut len) };
    expect(st, PsBufferTooSmall, "are needed");
    let mut out = vec![0.0; 2 * len];
    let st = unsafe {
        ps_pipeline_smooth_f64(
            p,
            input.as_ptr(),
            want.len(),
            out.as_mut_ptr(),
            len,
            &mut len,
        )
    };
    expect(st, PsOk, "");
    destroy(p, world);
}

#[test]
fn null_misaligned_and_non_finite_inputs_are_refused() {
    let (world, p) = grid_pipeline(PS_PRESET_SMOOTH, 0.2);
    let mut len = 7;
    let mut out = [0.0f64; 512];
    let o = out.as_mut_ptr();
    unsafe {
        expect(
            ps_pipeline_plan_f64(null_mut(), START, GOAL, o, 32, &mut len),
            PsNullPointer,
            "`pipeline` is NULL",
        );
        assert_eq!(len, 0, "out_len is set to 0 on failure");
        expect(
            ps_pipeline_plan_f64(p, START, GOAL, o, 32, null_mut()),
            PsNullPointer,
            "`out_len` is NULL",
        );
        expect(
            ps_pipeline_plan_f64(p, START, GOAL, null_mut(), 32, &mut len),
            PsNullPointer,
            "`out_points` is NULL",
        );
        let odd = o.cast::<u8>().add(4).cast::<f64>();
        expect(
            ps_pipeline_plan_f64(p, START, GOAL, odd, 8, &mut len),
            PsMisaligned,
            "not aligned to 8 bytes",
        );
        let odd32 = o.cast::<u8>().add(2).cast::<f32>();
        let s32 = PsPoint2f { x: 1.25, y: 3.25 };
        expect(
            ps_pipeline_plan_f32(p, s32, s32, odd32, 8, &mut len),
            PsMisaligned,
            "not aligned to 4 bytes",
        );
        let odd_len = (&mut out[1] as *mut f64)
            .cast::<u8>()
            .add(1)
            .cast::<usize>();
        expect(
            ps_pipeline_plan_f64(p, START, GOAL, o, 8, odd_len),
            PsMisaligned,
            "`out_len`",
        );
        // Ends that are not finite, outside the world or in a wall; an unreachable goal
        // (below the wall row). A table: only the ends and the answer differ.
        for (start, goal, status, words) in [
            (
                pt(f64::NAN, 3.25),
                GOAL,
                PsInvalidArgument,
                "point 0 has a NaN",
            ),
            (
                START,
                pt(5.75, f64::INFINITY),
                PsInvalidArgument,
                "point 1 has a NaN or infinite",
            ),
            (pt(-3.0, 3.25), GOAL, PsOutsideWorld, "outside"),
            (pt(2.75, 3.25), GOAL, PsOutsideWorld, "inside a wall"),
            (START, pt(6.0, 4.5), PsOutsideWorld, ""),
        ] {
            expect(
                ps_pipeline_plan_f64(p, start, goal, o, 32, &mut len),
                status,
                words,
            );
        }
        // Smoothing: NULL input, empty input, NaN in the middle, misaligned input, a point
        // outside the world.
        let input = [1.25, 3.25, 3.0, f64::NAN, 5.75, 3.75];
        let odd_in = input.as_ptr().cast::<u8>().add(1).cast::<f64>();
        let far = [1.25, 3.25, 1e9, 3.0];
        for (points, n, status, words) in [
            (null(), 3, PsNullPointer, "`in_points` is NULL"),
            (null(), 0, PsInvalidArgument, "the path is empty"),
            (input.as_ptr(), 3, PsInvalidArgument, "point 1 has a NaN"),
            (odd_in, 2, PsMisaligned, "`in_points`"),
            (far.as_ptr(), 2, PsOutsideWorld, "outside"),
        ] {
            expect(
                ps_pipeline_smooth_f64(p, points, n, o, 32, &mut len),
                status,
                words,
            );
        }
        // A good call clears the message.
        expect(
            ps_pipeline_plan_f64(p, START, GOAL, o, 256, &mut len),
            PsOk,
            "",
        );
        assert_eq!(last_error(), "");
        destroy(p, world);
    }
}

#[test]
fn handles_of_the_wrong_type_are_refused() {
    let (world, p) = grid_pipeline(PS_PRESET_SHORTEST, 0.0);
    let mut len = 0;
    let mut out = [0.0f64; 8];
    let mut q = null_mut();
    let junk = [0u64; 4];
    unsafe {
        expect(
            ps_pipeline_plan_f64(world.cast(), START, GOAL, out.as_mut_ptr(), 4, &mut len),
            PsWrongHandle,
            "`pipeline` is a PsWorld, expected PsPipeline",
        );
        expect(
            ps_pipeline_new_preset(p.cast(), PS_PRESET_SMOOTH, 0.2, &mut q),
            PsWrongHandle,
            "`world` is a PsPipeline, expected PsWorld",
        );
        assert!(q.is_null());
        expect(
            ps_pipeline_new_preset(junk.as_ptr().cast(), PS_PRESET_SMOOTH, 0.2, &mut q),
            PsWrongHandle,
            "not a pathsmooth handle",
        );
        expect(ps_world_destroy(p.cast()), PsWrongHandle, "is a PsPipeline");
        expect(
            ps_pipeline_destroy(world.cast()),
            PsWrongHandle,
            "is a PsWorld",
        );
        let mut r = PsReport::default();
        expect(ps_pipeline_report(world.cast(), &mut r), PsWrongHandle, "");
        expect(ps_world_destroy(null_mut()), PsOk, "");
        expect(ps_pipeline_destroy(null_mut()), PsOk, "");
        // Both still work after the refused calls.
        expect(
            ps_pipeline_plan_f64(p, START, GOAL, out.as_mut_ptr(), 4, &mut len),
            PsOk,
            "",
        );
        destroy(p, world);
    }
}

#[test]
fn bad_worlds_and_pipelines_are_refused_and_leave_null() {
    let c = cells();
    let mut w = std::ptr::dangling_mut::<PsWorld>();
    let mut p = std::ptr::dangling_mut::<PsPipeline>();
    unsafe {
        expect(
            ps_world_grid_new(null(), 10, 6, 1.0, 0.0, 0.0, &mut w),
            PsNullPointer,
            "`free` is NULL",
        );
        assert!(w.is_null());
        expect(
            ps_world_grid_new(c.as_ptr(), 10, 6, 1.0, 0.0, 0.0, null_mut()),
            PsNullPointer,
            "`out_world`",
        );
        expect(
            ps_world_grid_new(c.as_ptr(), 0, 6, 1.0, 0.0, 0.0, &mut w),
            PsInvalidArgument,
            "width",
        );
        expect(
            ps_world_grid_new(c.as_ptr(), 10, 1 << 20, 1.0, 0.0, 0.0, &mut w),
            PsInvalidArgument,
            "height",
        );
        expect(
            ps_world_grid_new(c.as_ptr(), 10, 6, f64::NAN, 0.0, 0.0, &mut w),
            PsInvalidArgument,
            "cell_size",
        );
        // A cell size every later call would refuse: refused when the world is made.
        expect(
            ps_world_grid_new(c.as_ptr(), 10, 6, 1e-300, 0.0, 0.0, &mut w),
            PsInvalidArgument,
            "cell_size",
        );
        assert!(w.is_null());
        expect(
            ps_world_grid_new(c.as_ptr(), 10, 6, 1.0, f64::INFINITY, 0.0, &mut w),
            PsInvalidArgument,
            "origin",
        );
        expect(
            ps_world_grid_new([0u8; 4].as_ptr(), 2, 2, 1.0, 0.0, 0.0, &mut w),
            PsInvalidArgument,
            "no free space",
        );
        let world = grid();
        for (preset, radius, status, words) in [
            (7, 0.2, PsInvalidArgument, "`preset` = 7"),
            (PS_PRESET_SMOOTH, -1.0, PsInvalidArgument, "radius"),
            (PS_PRESET_SMOOTH, f64::NAN, PsInvalidArgument, "radius"),
            (PS_PRESET_SMOOTH, 5.0, PsNoPath, "room"),
        ] {
            expect(
                ps_pipeline_new_preset(world, preset, radius, &mut p),
                status,
                words,
            );
            assert!(p.is_null());
        }
        expect(
            ps_pipeline_new_preset(null(), 0, 0.2, &mut p),
            PsNullPointer,
            "`world` is NULL",
        );
        let steps = [
            PsStep {
                kind: PS_STEP_SHORTCUT,
                value: 0.0,
            },
            PsStep {
                kind: 42,
                value: 0.0,
            },
        ];
        expect(
            ps_pipeline_new_steps(world, steps.as_ptr(), 2, 0.2, &mut p),
            PsInvalidArgument,
            "step 1: kind 42",
        );
        let steps = [PsStep {
            kind: PS_STEP_RESAMPLE,
            value: f64::NAN,
        }];
        expect(
            ps_pipeline_new_steps(world, steps.as_ptr(), 1, 0.2, &mut p),
            PsInvalidArgument,
            "step 0: the spacing",
        );
        expect(
            ps_pipeline_new_steps(world, null(), 3, 0.2, &mut p),
            PsNullPointer,
            "`steps` is NULL",
        );
        // Two rooms with no door: unreachable.
        let rooms = [1u8, 1, 0, 1, 1, 1, 1, 0, 1, 1];
        let mut two = null_mut();
        expect(
            ps_world_grid_new(rooms.as_ptr(), 5, 2, 1.0, 0.0, 0.0, &mut two),
            PsOk,
            "",
        );
        let q = pipeline(two, PS_PRESET_SMOOTH, 0.0);
        let (st, _) = plan(q, pt(0.5, 0.5), pt(4.5, 0.5), 8);
        expect(st, PsNoPath, "");
        ps_pipeline_destroy(q);
        ps_world_destroy(two);
        // No steps at all: the world's own path.
        expect(
            ps_pipeline_new_steps(world, null(), 0, 0.2, &mut p),
            PsOk,
            "",
        );
        ps_pipeline_destroy(p);
        let steps = [
            PsStep {
                kind: PS_STEP_SHORTCUT,
                value: 0.0,
            },
            PsStep {
                kind: PS_STEP_FILLET,
                value: 0.5,
            },
            PsStep {
                kind: PS_STEP_RESAMPLE,
                value: 0.25,
            },
        ];
        expect(
            ps_pipeline_new_steps(world, steps.as_ptr(), 3, 0.2, &mut p),
            PsOk,
            "",
        );
        let (st, path) = plan(p, START, GOAL, 1024);
        expect(st, PsOk, "");
        assert!(path.len() > 10);
        destroy(p, world);
    }
}

#[test]
fn skipped_steps_are_reported_with_their_reason() {
    let (world, p) = grid_pipeline(PS_PRESET_SMOOTH, 0.0);
    // A straight path: nothing to shortcut, no corner to cut.
    let input = [1.25, 2.25, 5.75, 2.25];
    let mut out = [0.0; 16];
    let mut len = 0;
    let mut r = PsReport::default();
    let mut text = [0 as c_char; 256];
    unsafe {
        expect(
            ps_pipeline_smooth_f64(p, input.as_ptr(), 2, out.as_mut_ptr(), 8, &mut len),
            PsOk,
            "",
        );
        expect(ps_pipeline_report(p, &mut r), PsOk, "");
        assert_eq!(r.skipped_count, 2);
        expect(
            ps_pipeline_report(p, null_mut()),
            PsNullPointer,
            "`out_report`",
        );
        expect(ps_pipeline_skipped(p, 0, null_mut(), 0, &mut len), PsOk, "");
        let full = len;
        expect(
            ps_pipeline_skipped(p, 0, text.as_mut_ptr(), text.len(), &mut len),
            PsOk,
            "",
        );
        let got = CStr::from_ptr(text.as_ptr()).to_str().unwrap();
        assert!(got.starts_with("shortcut: changed nothing"), "{got}");
        assert_eq!(got.len(), full);
        // Cut to 10 bytes (9 and the NUL).
        expect(
            ps_pipeline_skipped(p, 1, text.as_mut_ptr(), 10, &mut len),
            PsOk,
            "",
        );
        assert_eq!(CStr::from_ptr(text.as_ptr()).to_str().unwrap(), "chaikin: ");
        expect(
            ps_pipeline_skipped(p, 2, text.as_mut_ptr(), 10, &mut len),
            PsInvalidArgument,
            "skipped 2 steps",
        );
        destroy(p, world);
    }
}

#[test]
fn the_last_error_is_cut_at_a_character_boundary_and_per_thread() {
    let (world, p) = grid_pipeline(PS_PRESET_SMOOTH, 0.0);
    let mut len = 0;
    unsafe {
        // A message with multi-byte characters: "… is outside the 10×6 map".
        ps_pipeline_plan_f64(p, pt(-3.0, 3.25), GOAL, null_mut(), 0, &mut len);
        let full = ps_last_error(null_mut(), 0);
        let message = last_error();
        assert_eq!(full, message.len());
        let times = message.find('×').expect("a × in the message");
        let mut buf = [0 as c_char; 64];
        let n = ps_last_error(buf.as_mut_ptr(), times + 2); // room for the × 's first byte only
        assert_eq!(n, full);
        assert_eq!(
            CStr::from_ptr(buf.as_ptr()).to_str().unwrap(),
            &message[..times]
        );
    }
    // Another thread has its own (empty) message.
    let other = std::thread::spawn(last_error).join().unwrap();
    assert_eq!(other, "");
    assert!(!last_error().is_empty());
    destroy(p, world);
}

#[test]
fn pipelines_on_one_world_run_on_two_threads_and_outlive_it() {
    let world = grid();
    let a = pipeline(world, PS_PRESET_SMOOTH, 0.2) as usize;
    let b = pipeline(world, PS_PRESET_SMOOTH, 0.2) as usize;
    unsafe { ps_world_destroy(world) };
    let run = |p: usize| {
        std::thread::spawn(move || bits(&plan(p as *mut PsPipeline, START, GOAL, 256).1))
    };
    let (ta, tb) = (run(a), run(b));
    let (ra, rb) = (ta.join().unwrap(), tb.join().unwrap());
    assert!(!ra.is_empty());
    assert_eq!(ra, rb);
    unsafe {
        ps_pipeline_destroy(a as *mut PsPipeline);
        ps_pipeline_destroy(b as *mut PsPipeline);
    }
}

#[test]
fn navmesh_worlds_plan_as_the_library_does() {
    let (xy, idx, sizes) = l_navmesh(1.0);
    let mut w = null_mut();
    unsafe {
        expect(
            ps_world_navmesh_new(
                xy.as_ptr(),
                8,
                idx.as_ptr(),
                sizes.as_ptr(),
                3,
                [7u32, 8, 9].as_ptr(),
                &mut w,
            ),
            PsOk,
            "",
        );
    }
    let p = pipeline(w, PS_PRESET_SMOOTH, 0.1);
    let (st, got) = plan(p, pt(0.5, 0.5), pt(1.5, 1.5), 64);
    expect(st, PsOk, "");
    // The library's one navmesh world: the surface of one floor of those polygons.
    let vertices: Vec<DVec2> = xy.chunks(2).map(|c| DVec2::new(c[0], c[1])).collect();
    let polys = vec![vec![0, 1, 4, 5], vec![1, 2, 3, 4], vec![4, 3, 6, 7]];
    let mesh = NavMesh::from_polygons_with_ids(&vertices, &polys, &[7, 8, 9]).unwrap();
    let surface = SurfaceMesh::new(Surface::from_navmesh(&mesh, UpAxis::Z).unwrap()).unwrap();
    let (a, b) = (DVec2::new(0.5, 0.5), DVec2::new(1.5, 1.5));
    let mut library = Pipeline::preset(SurfaceWorld::new(surface), 0.1, Preset::Smooth).unwrap();
    assert_eq!(bits(&got), bits(&library.plan(a, b).unwrap()));
    // 3D ends (z up, the floor at height 0): the same path, each point's polygon, whose
    // reference is the polygon's id.
    let (mut len, mut out, mut polygons) = (0, [0.0; 3 * 16], [0u32; 16]);
    let at = |p: DVec2, z| PsPoint3d { x: p.x, y: p.y, z };
    unsafe {
        let (s, g) = (at(a, 0.2), at(b, 0.0));
        let st = ps_pipeline_plan3_f64(
            p,
            s,
            g,
            out.as_mut_ptr(),
            polygons.as_mut_ptr(),
            16,
            &mut len,
        );
        expect(st, PsOk, "");
        assert_eq!(len, got.len());
        for (i, q) in got.iter().enumerate() {
            assert_eq!(out[3 * i..3 * i + 3], [q.x, q.y, 0.0]);
        }
        let mut refs = [0u64; 2];
        for (k, polygon) in [polygons[0], polygons[len - 1]].into_iter().enumerate() {
            expect(
                ps_world_surface_polygon_ref(w, polygon, &mut refs[k]),
                PsOk,
                "",
            );
        }
        assert_eq!(refs, [7, 9]);
        expect(ps_pipeline_set_climb(p, 0.5), PsOk, "");
        destroy(p, w);
        // Bad polygons (each named), bad numbers, NULL and misaligned pointers: a table of
        // the vertices, their count, the indices, the sizes, their count and the ids.
        let (v, i, z) = (xy.as_ptr(), idx.as_ptr(), sizes.as_ptr());
        let (nf, nu) = (null::<f64>(), null::<u32>());
        let mut nan = xy.clone();
        nan[0] = f64::NAN;
        let vn = nan.as_ptr();
        let (bad, four, ids) = ([0u32, 1, 9, 5], [4u32], [1u32, 1, 2]);
        let (b, f, d) = (bad.as_ptr(), four.as_ptr(), ids.as_ptr());
        let odd = idx.as_ptr().cast::<u8>().add(1).cast::<u32>();
        for (vertices, nv, indices, polygon_sizes, np, ids, status, words) in [
            (v, 8, b, f, 1, nu, PsInvalidArgument, "9"),
            (v, 8, i, z, 3, d, PsInvalidArgument, "both have the id 1"),
            (vn, 8, i, z, 3, nu, PsInvalidArgument, ""),
            (v, 8, i, z, 0, nu, PsInvalidArgument, "no polygons"),
            (nf, 8, i, z, 3, nu, PsNullPointer, "`vertices_xy` is NULL"),
            (v, 8, nu, z, 3, nu, PsNullPointer, "`indices` is NULL"),
            (v, 8, odd, z, 3, nu, PsMisaligned, "`indices`"),
        ] {
            let mut w = null_mut();
            expect(
                ps_world_navmesh_new(vertices, nv, indices, polygon_sizes, np, ids, &mut w),
                status,
                words,
            );
            assert!(w.is_null());
        }
    }
}

#[test]
fn surfaces_plan_in_3d_as_the_library_does() {
    // A 10 × 10 floor (y up) round a 2 × 6 block, and a bridge over the block at height 3.
    let v: [[f64; 3]; 12] = [
        [0.0, 0.0, 0.0],
        [10.0, 0.0, 0.0],
        [10.0, 0.0, 10.0],
        [0.0, 0.0, 10.0],
        [4.0, 0.0, 2.0],
        [6.0, 0.0, 2.0],
        [6.0, 0.0, 8.0],
        [4.0, 0.0, 8.0],
        [2.0, 3.0, 4.0],
        [8.0, 3.0, 4.0],
        [8.0, 3.0, 6.0],
        [2.0, 3.0, 6.0],
    ];
    let idx = [
        0u32, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7, 8, 9, 10, 11,
    ];
    let sizes = [4u32; 5];
    let xyz: Vec<f64> = v.iter().flatten().copied().collect();
    let mut w = null_mut();
    unsafe {
        expect(
            ps_world_surface_new(
                xyz.as_ptr(),
                12,
                idx.as_ptr(),
                sizes.as_ptr(),
                5,
                [1u8, 1, 1, 1, 2].as_ptr(),
                PS_UP_Y,
                0.0,
                &mut w,
            ),
            PsOk,
            "",
        );
    }
    let p = pipeline(w, PS_PRESET_SMOOTH, 0.5);
    let (s, g) = (
        PsPoint3d {
            x: 1.0,
            y: 0.0,
            z: 5.0,
        },
        PsPoint3d {
            x: 9.0,
            y: 0.0,
            z: 5.0,
        },
    );
    let mut len = 0;
    let mut out = vec![0.0; 3 * 256];
    let mut polys = vec![0u32; 256];
    unsafe {
        expect(
            ps_pipeline_plan3_f64(p, s, g, null_mut(), null_mut(), 0, &mut len),
            PsBufferTooSmall,
            "are needed",
        );
        let needed = len;
        expect(
            ps_pipeline_plan3_f64(p, s, g, out.as_mut_ptr(), polys.as_mut_ptr(), 256, &mut len),
            PsOk,
            "",
        );
        assert_eq!(len, needed);
    }
    let vertices: Vec<DVec3> = v.iter().map(|c| DVec3::from_array(*c)).collect();
    let polygons: Vec<&[u32]> = idx.chunks(4).collect();
    let mesh =
        SurfaceMesh::new(Surface::from_polygons(&vertices, &polygons, UpAxis::Y, 0.0).unwrap())
            .unwrap();
    let mut planner =
        Pipeline::preset(SurfaceWorld::new(mesh.clone()), 0.5, Preset::Smooth).unwrap();
    let want = planner
        .plan_surface(DVec3::new(1.0, 0.0, 5.0), DVec3::new(9.0, 0.0, 5.0))
        .unwrap();
    assert_eq!(len, want.len());
    for (i, sp) in want.iter().enumerate() {
        assert_eq!(out[3 * i..3 * i + 3], sp.position.to_array());
        assert_eq!(polys[i], sp.polygon);
    }
    unsafe {
        // 2D ends in plan view (x and z, y up): the library's `Pipeline::plan`, and a
        // smoothing on the sheet of that plan.
        let mut o = [0.0; 512];
        let (s2, g2) = (pt(1.0, 5.0), pt(9.0, 5.0));
        let st = ps_pipeline_plan_f64(p, s2, g2, o.as_mut_ptr(), 256, &mut len);
        expect(st, PsOk, "");
        let flat = planner
            .plan(DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0))
            .unwrap();
        let got: Vec<DVec2> = o[..2 * len]
            .chunks(2)
            .map(|c| DVec2::new(c[0], c[1]))
            .collect();
        assert_eq!(bits(&got), bits(&flat));
        let ends = [o[0], o[1], o[2 * len - 2], o[2 * len - 1]];
        let st = ps_pipeline_smooth_f64(p, ends.as_ptr(), 2, o.as_mut_ptr(), 256, &mut len);
        expect(st, PsOk, "");
        // Over the floor and the bridge 3 above it: which floor is for a 3D end to say.
        let st = ps_pipeline_plan_f64(p, pt(3.0, 5.0), g2, o.as_mut_ptr(), 256, &mut len);
        expect(st, PsInvalidArgument, "floors");
        // No floor near the start.
        let high = PsPoint3d {
            x: 1.0,
            y: 50.0,
            z: 5.0,
        };
        expect(
            ps_pipeline_plan3_f64(p, high, g, out.as_mut_ptr(), null_mut(), 256, &mut len),
            PsOutsideWorld,
            "no floor",
        );
        destroy(p, w);
        // Refusals, a table: the vertices, the up axis and the weld.
        let mut nan = xyz.clone();
        nan[4] = f64::NAN;
        let (v, vn) = (xyz.as_ptr(), nan.as_ptr());
        for (vertices, up, weld, words) in [
            (v, 5, 0.0, "`up_axis` = 5"),
            (v, PS_UP_Y, f64::NAN, "weld"),
            (vn, PS_UP_Y, 0.0, "NaN"),
        ] {
            let (i, z) = (idx.as_ptr(), sizes.as_ptr());
            let mut w = null_mut();
            expect(
                ps_world_surface_new(vertices, 12, i, z, 5, null(), up, weld, &mut w),
                PsInvalidArgument,
                words,
            );
            assert!(w.is_null());
        }
    }
}

// ───────────────────────────── navmesh files ─────────────────────────────

/// A file of the library's navmesh corpus (`crates/pathsmooth/tests/data/corpus`).
fn corpus(rel: &str) -> std::ffi::CString {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pathsmooth/tests/data/corpus")
        .join(rel);
    std::ffi::CString::new(path.to_str().unwrap()).unwrap()
}

/// A corpus file loaded as a surface world through the ABI (the file's own up axis), and by
/// the library with the default options.
fn corpus_world(rel: &str) -> (*mut PsWorld, Surface) {
    let file = corpus(rel);
    let mut w = null_mut();
    unsafe {
        expect(
            ps_world_surface_load(file.as_ptr(), null(), PS_UP_FILE, -1.0, &mut w),
            PsOk,
            "",
        );
    }
    let options = pathsmooth::navmesh::SurfaceOptions::default();
    let surface = pathsmooth::navmesh::load_surface(file.to_str().unwrap(), &options).unwrap();
    (w, surface)
}

/// `ps_world_surface_move_along` over the rows of `polygons`, `starts` and `targets` into
/// separate output buffers of as many rows.
fn move_rows(
    w: *const PsWorld,
    (polygons, starts, targets): (&[u32], &[PsPoint3d], &[PsPoint3d]),
    out_polygons: &mut [u32],
    out_points: &mut [PsPoint3d],
) -> PsStatus {
    unsafe {
        ps_world_surface_move_along(
            w,
            polygons.len(),
            polygons.as_ptr(),
            starts.as_ptr(),
            targets.as_ptr(),
            out_polygons.as_mut_ptr(),
            out_points.as_mut_ptr(),
        )
    }
}

/// The surface world's load report line, through the ABI (asking for the length first).
fn load_report(w: *const PsWorld) -> String {
    let mut len = usize::MAX;
    unsafe {
        expect(
            ps_world_surface_load_report(w, null_mut(), 0, &mut len),
            PsOk,
            "",
        );
        let mut buf = vec![0 as c_char; len + 1];
        expect(
            ps_world_surface_load_report(w, buf.as_mut_ptr(), buf.len(), &mut len),
            PsOk,
            "",
        );
        CStr::from_ptr(buf.as_ptr()).to_str().unwrap().to_string()
    }
}

/// Plans on a surface pipeline; the points and polygons.
fn plan3(p: *mut PsPipeline, s: DVec3, g: DVec3) -> (PsStatus, Vec<DVec3>, Vec<u32>) {
    let (mut out, mut polys, mut len) = (vec![0.0; 3 * 1024], vec![0u32; 1024], 0);
    let at = |v: DVec3| PsPoint3d {
        x: v.x,
        y: v.y,
        z: v.z,
    };
    let st = unsafe {
        ps_pipeline_plan3_f64(
            p,
            at(s),
            at(g),
            out.as_mut_ptr(),
            polys.as_mut_ptr(),
            1024,
            &mut len,
        )
    };
    let n = if st == PsOk { len } else { 0 };
    let points = (0..n)
        .map(|i| DVec3::new(out[3 * i], out[3 * i + 1], out[3 * i + 2]))
        .collect();
    polys.truncate(n);
    (st, points, polys)
}

/// The centre of polygon `p`, on its floor.
fn centre(surface: &Surface, p: u32) -> DVec3 {
    let corners = surface.polygon(p);
    let sum: DVec3 = corners
        .iter()
        .map(|&v| surface.vertices()[v as usize])
        .sum();
    let c = sum / corners.len() as f64;
    let up = surface.up();
    up.join(up.plan(c), surface.height_at(p, up.plan(c)))
}

#[test]
fn navmesh_files_load_and_plan_as_the_library_does() {
    use pathsmooth::navmesh::load_surface_with_detail;
    use pathsmooth::navmesh::SurfaceOptions;
    // A Godot 3 scene: overlapping floors, duplicated vertices.
    let (w, surface) = corpus_world("godot/godotengine__navmesh-demo-3x.tscn");
    assert_eq!(load_report(w), surface.load_report().to_string());
    assert!(load_report(w).contains("welded"), "{}", load_report(w));
    let mut climb = f64::NAN;
    unsafe { expect(ps_world_surface_climb(w, &mut climb), PsOk, "") };
    assert_eq!(climb, surface.climb());

    // Two polygon centres of one piece, planned through the ABI and by the library.
    let pieces = surface.pieces();
    let last = (0..pieces.len() as u32)
        .rev()
        .find(|&p| pieces[p as usize] == pieces[0])
        .unwrap();
    let (s, g) = (centre(&surface, 0), centre(&surface, last));
    let p = pipeline(w, PS_PRESET_SMOOTH, 0.1);
    let (st, got, polys) = plan3(p, s, g);
    expect(st, PsOk, "");
    let mesh = SurfaceMesh::new(surface.clone()).unwrap();
    let mut planner =
        Pipeline::preset(SurfaceWorld::new(mesh.clone()), 0.1, Preset::Smooth).unwrap();
    let want = planner.plan_surface(s, g).unwrap().to_vec();
    assert_eq!(got, want.iter().map(|sp| sp.position).collect::<Vec<_>>());
    assert_eq!(polys, want.iter().map(|sp| sp.polygon).collect::<Vec<_>>());
    let mut r = u64::MAX;
    unsafe {
        expect(ps_world_surface_polygon_ref(w, polys[0], &mut r), PsOk, "");
        assert_eq!(r, surface.polygon_ref(polys[0]));
        let n = surface.num_polygons() as u32;
        expect(
            ps_world_surface_polygon_ref(w, n, &mut r),
            PsInvalidArgument,
            "ps_world_surface_polygon_ref: `polygon` = 101: the surface has 101 polygons",
        );
    }
    // The start is on the surface: its plan-view position kept exactly.
    assert_eq!((got[0].x, got[0].z), (s.x, s.z));
    let mut report = PsReport::default();
    unsafe { expect(ps_pipeline_report(p, &mut report), PsOk, "") };
    let r = planner.report();
    assert_eq!(
        (report.length, report.plan_length),
        (r.validation.length, r.plan_length)
    );
    assert_eq!((report.start_snapped, report.goal_snapped), (0.0, 0.0));

    // A start off the surface is moved onto it, and the report says how far.
    let off = s + DVec3::new(0.0, 0.0, 1000.0);
    let (st, _, _) = plan3(p, off, g);
    expect(st, PsOutsideWorld, "no floor");
    unsafe {
        expect(
            ps_pipeline_set_climb(p, f64::NAN),
            PsInvalidArgument,
            "ps_pipeline_set_climb: parameter `climb`",
        );
        expect(ps_pipeline_set_climb(p, -1.0), PsInvalidArgument, "climb");
        expect(ps_pipeline_set_climb(p, 0.5), PsOk, "");
    }
    planner.surface_query_mut().set_climb(0.5).unwrap();
    let high = s + surface.up().join(pathsmooth::glam::DVec2::ZERO, 0.4);
    let (st, got, _) = plan3(p, high, g);
    expect(st, PsOk, "");
    let want = planner.plan_surface(high, g).unwrap().to_vec();
    assert_eq!(got, want.iter().map(|sp| sp.position).collect::<Vec<_>>());
    assert_eq!((got[0].x, got[0].z), (s.x, s.z));
    destroy(p, w);

    // Recast's poly mesh and its detail mesh, from two files (C++ Recast's dump of the
    // dungeon, beside the corpus).
    let (poly, detail) = (
        corpus("../recast/dungeon.poly_mesh.json"),
        corpus("../recast/dungeon.poly_mesh_detail.json"),
    );
    let mut w = null_mut();
    unsafe {
        expect(
            ps_world_surface_load(poly.as_ptr(), detail.as_ptr(), PS_UP_Y, -1.0, &mut w),
            PsOk,
            "",
        );
    }
    let surface = load_surface_with_detail(
        poly.to_str().unwrap(),
        detail.to_str().unwrap(),
        &SurfaceOptions::default(),
    )
    .unwrap();
    assert_eq!(load_report(w), surface.load_report().to_string());
    let mut climb = 0.0;
    unsafe { expect(ps_world_surface_climb(w, &mut climb), PsOk, "") };
    assert_eq!(climb, surface.climb());
    unsafe { ps_world_destroy(w) };
}

#[test]
fn bad_navmesh_files_are_refused_naming_the_function() {
    let mut w = null_mut();
    let missing = corpus("godot/no-such-file.tscn");
    let garbage_file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("garbage.bin");
    std::fs::write(&garbage_file, [0u8, 159, 146, 150, 7, 7, 0, 1]).unwrap();
    let garbage = std::ffi::CString::new(garbage_file.to_str().unwrap()).unwrap();
    let godot = corpus("godot/Flavelius__Test.tscn");
    unsafe {
        expect(
            ps_world_surface_load(missing.as_ptr(), null(), PS_UP_FILE, -1.0, &mut w),
            PsIoError,
            "ps_world_surface_load: ",
        );
        assert!(
            last_error().contains("no-such-file.tscn"),
            "{}",
            last_error()
        );
        expect(
            ps_world_surface_load(garbage.as_ptr(), null(), PS_UP_FILE, -1.0, &mut w),
            PsInvalidArgument,
            "not a navmesh file this library reads",
        );
        expect(
            ps_world_surface_load(null(), null(), PS_UP_FILE, -1.0, &mut w),
            PsNullPointer,
            "ps_world_surface_load: `path` is NULL",
        );
        expect(
            ps_world_surface_load(godot.as_ptr(), null(), 7, -1.0, &mut w),
            PsInvalidArgument,
            "`up_axis` = 7",
        );
        expect(
            ps_world_surface_load(godot.as_ptr(), null(), PS_UP_Z, -1.0, &mut w),
            PsInvalidArgument,
            "y up (its format says so)",
        );
        expect(
            ps_world_surface_load(godot.as_ptr(), null(), PS_UP_FILE, f64::NAN, &mut w),
            PsInvalidArgument,
            "weld",
        );
        expect(
            ps_world_surface_load(godot.as_ptr(), godot.as_ptr(), PS_UP_FILE, -1.0, &mut w),
            PsUnsupported,
            "a separate detail mesh for a Godot scene",
        );
        let bad_utf8 = [0xffu8 as c_char, 0];
        expect(
            ps_world_surface_load(bad_utf8.as_ptr(), null(), PS_UP_FILE, -1.0, &mut w),
            PsInvalidArgument,
            "`path` is not UTF-8",
        );
        assert!(w.is_null());
        // A grid world has no load report or climb; a grid pipeline no climb.
        let g = grid();
        let (mut len, mut climb) = (0, 0.0);
        expect(
            ps_world_surface_load_report(g, null_mut(), 0, &mut len),
            PsUnsupported,
            "ps_world_surface_load_report: ",
        );
        expect(
            ps_world_surface_climb(g, &mut climb),
            PsUnsupported,
            "needs a surface world",
        );
        let p = pipeline(g, PS_PRESET_SMOOTH, 0.0);
        expect(
            ps_pipeline_set_climb(p, 0.5),
            PsUnsupported,
            "ps_pipeline_set_climb: ",
        );
        destroy(p, g);
    }
}

#[test]
fn unity_triangulations_are_welded_and_joined() {
    // Two tiles of Unity's triangulation: each triangle with its own vertex copies.
    let xyz = [
        0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 10.0, 0.0, 10.0, //
        0.0, 0.0, 0.0, 10.0, 0.0, 10.0, 0.0, 0.0, 10.0,
    ];
    let idx = [0u32, 1, 2, 3, 4, 5];
    let mut w = null_mut();
    unsafe {
        expect(
            ps_world_surface_from_triangulation(
                xyz.as_ptr(),
                6,
                idx.as_ptr(),
                6,
                [0u8, 3].as_ptr(),
                -1.0,
                &mut w,
            ),
            PsOk,
            "",
        );
    }
    assert!(
        load_report(w).starts_with("welded 2 vertices"),
        "{}",
        load_report(w)
    );
    let p = pipeline(w, PS_PRESET_SMOOTH, 0.5);
    let (st, got, polys) = plan3(p, DVec3::new(9.0, 0.0, 1.0), DVec3::new(1.0, 0.0, 9.0));
    expect(st, PsOk, "");
    assert_eq!(got.first(), Some(&DVec3::new(9.0, 0.0, 1.0)));
    assert_eq!(polys.first(), Some(&0));
    assert_eq!(polys.last(), Some(&1));
    unsafe {
        destroy(p, w);
        // Refusals, a table: the vertices, their count, the indices and their count.
        let mut nan = xyz;
        nan[7] = f64::NAN;
        let (v, i, vn) = (xyz.as_ptr(), idx.as_ptr(), nan.as_ptr());
        let in_indices = "ps_world_surface_from_triangulation: parameter `indices` = 5";
        for (vertices, nv, indices, ni, status, words) in [
            (v, 6, i, 5, PsInvalidArgument, in_indices),
            (v, 5, i, 6, PsInvalidArgument, "uses vertex 5"),
            (vn, 6, i, 6, PsInvalidArgument, "point 2 has a NaN"),
            (v, 6, null(), 6, PsNullPointer, "`indices` is NULL"),
        ] {
            let mut w = null_mut();
            expect(
                ps_world_surface_from_triangulation(
                    vertices,
                    nv,
                    indices,
                    ni,
                    null(),
                    -1.0,
                    &mut w,
                ),
                status,
                words,
            );
            assert!(w.is_null());
        }
    }
}

/// `ps_world_surface_locate` and `ps_world_surface_move_along` on RecastDemo's dungeon
/// (Detour's bake, several floors): the library's `SurfaceQuery` answers bit for bit, in
/// separate buffers and in place; a bad row is named and nothing is written; an empty
/// batch takes NULLs; a grid world is refused.
#[test]
fn points_are_located_and_moved_along_a_surface_as_the_library_does() {
    let (w, surface) = corpus_world("detour/dungeon.all_tiles_navmesh.bin");
    let mesh = SurfaceMesh::new(surface.clone()).unwrap();
    let mut query = pathsmooth::navmesh::SurfaceQuery::new();
    let at = |v: DVec3| PsPoint3d {
        x: v.x,
        y: v.y,
        z: v.z,
    };
    // Each polygon's first corner, pulled a little towards its second and third: points
    // on the surface, some of them under or over another floor.
    let n = surface.num_polygons();
    let points: Vec<DVec3> = (0..n as u32)
        .map(|p| {
            let ring: Vec<DVec3> = surface
                .polygon(p)
                .iter()
                .map(|&v| surface.vertices()[v as usize])
                .collect();
            ring[0] * 0.8 + ring[1] * 0.1 + ring[2] * 0.1
        })
        .collect();
    let c_points: Vec<PsPoint3d> = points.iter().map(|&p| at(p)).collect();
    let (mut polys, mut located) = (vec![u32::MAX; n], vec![at(DVec3::ZERO); n]);
    let st = unsafe {
        ps_world_surface_locate(
            w,
            n,
            c_points.as_ptr(),
            polys.as_mut_ptr(),
            located.as_mut_ptr(),
        )
    };
    expect(st, PsOk, "");
    for i in 0..n {
        let (p, q) = query.locate(&mesh, points[i]).unwrap();
        assert_eq!((polys[i], located[i]), (p, at(q)), "row {i}");
    }
    // Moves of about a metre in turning directions, compared with the library's.
    let targets: Vec<PsPoint3d> = (0..n)
        .map(|i| {
            let a = i as f64 * 2.399;
            at(DVec3::new(
                located[i].x + a.cos(),
                located[i].y,
                located[i].z + a.sin(),
            ))
        })
        .collect();
    let (mut moved_polys, mut moved) = (vec![u32::MAX; n], vec![at(DVec3::ZERO); n]);
    let st = move_rows(
        w,
        (&polys, &located, &targets),
        &mut moved_polys,
        &mut moved,
    );
    expect(st, PsOk, "");
    let start = |i: usize| DVec3::new(located[i].x, located[i].y, located[i].z);
    let target = |i: usize| DVec3::new(targets[i].x, targets[i].y, targets[i].z);
    for i in 0..n {
        let (p, q) = query
            .move_along_surface(&mesh, (polys[i], start(i)), target(i))
            .unwrap();
        assert_eq!((moved_polys[i], moved[i]), (p, at(q)), "row {i}");
    }
    // In place: the outputs are the inputs.
    let (mut in_polys, mut in_points) = (polys.clone(), located.clone());
    let st = unsafe {
        ps_world_surface_move_along(
            w,
            n,
            in_polys.as_ptr(),
            in_points.as_ptr(),
            targets.as_ptr(),
            in_polys.as_mut_ptr(),
            in_points.as_mut_ptr(),
        )
    };
    expect(st, PsOk, "");
    assert_eq!((in_polys, in_points), (moved_polys.clone(), moved.clone()));

    // A bad row: named, nothing written.
    let mut bad = polys.clone();
    bad[2] = n as u32;
    let (mut out_polys, mut out) = (vec![7u32; n], vec![at(DVec3::ONE); n]);
    let st = move_rows(w, (&bad, &located, &targets), &mut out_polys, &mut out);
    expect(
        st,
        PsInvalidArgument,
        "ps_world_surface_move_along: row 2: ",
    );
    assert!(out_polys.iter().all(|&p| p == 7) && out.iter().all(|&p| p == at(DVec3::ONE)));
    let mut nan = targets.clone();
    nan[3].x = f64::NAN;
    let st = move_rows(w, (&polys, &located, &nan), &mut out_polys, &mut out);
    expect(
        st,
        PsInvalidArgument,
        "ps_world_surface_move_along: row 3: ",
    );
    let far = [at(DVec3::new(1e4, 0.0, 1e4))];
    let st = unsafe {
        ps_world_surface_locate(w, 1, far.as_ptr(), out_polys.as_mut_ptr(), out.as_mut_ptr())
    };
    expect(st, PsOutsideWorld, "ps_world_surface_locate: row 0: ");
    let st = unsafe { ps_world_surface_locate(w, 1, far.as_ptr(), null_mut(), out.as_mut_ptr()) };
    expect(st, PsNullPointer, "out_polygons");
    // An empty batch takes NULLs.
    let st = unsafe {
        ps_world_surface_move_along(w, 0, null(), null(), null(), null_mut(), null_mut())
    };
    expect(st, PsOk, "");
    unsafe { ps_world_destroy(w) };
    let g = grid();
    let st = unsafe {
        ps_world_surface_locate(g, 1, far.as_ptr(), out_polys.as_mut_ptr(), out.as_mut_ptr())
    };
    expect(
        st,
        PsUnsupported,
        "ps_world_surface_locate needs a surface world",
    );
    unsafe { ps_world_destroy(g) };
}
