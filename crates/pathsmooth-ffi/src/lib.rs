//! # pathsmooth-ffi
//!
//! The C ABI of [`pathsmooth`]: a thin shell over its worlds and its pipeline, for C, C++,
//! C# (P/Invoke) and anything else that calls C. The header, `include/pathsmooth.h`, is
//! generated from this file by cbindgen (the crate's tests fail when it is stale).
//!
//! ## Shape
//!
//! - **Worlds** ([`PsWorld`]): a grid from a cell array ([`ps_world_grid_new`]), a navmesh
//!   from 2D convex polygons ([`ps_world_navmesh_new`]), a layered surface from 3D
//!   vertices and polygons with area ids ([`ps_world_surface_new`]), from a navmesh file
//!   in any format the library reads ([`ps_world_surface_load`]) or from Unity's
//!   triangulation ([`ps_world_surface_from_triangulation`]); what a surface's reader
//!   repaired is [`ps_world_surface_load_report`], its climb [`ps_world_surface_climb`].
//!   Immutable once built.
//! - **Pipelines** ([`PsPipeline`]): a world, an agent radius and a preset
//!   ([`ps_pipeline_new_preset`]) or a list of steps ([`ps_pipeline_new_steps`]).
//!   [`ps_pipeline_plan_f64`] / [`ps_pipeline_plan_f32`] plan from a start to a goal,
//!   [`ps_pipeline_smooth_f64`] / [`ps_pipeline_smooth_f32`] smooth a caller's path,
//!   [`ps_pipeline_plan3_f64`] plans on a surface (its ends located within
//!   [`ps_pipeline_set_climb`] of a floor); [`ps_pipeline_report`] and
//!   [`ps_pipeline_skipped`] say what the last run did.
//! - **Crowds** ([`PsCrowd`]): the library's `Crowd` on its own copy of a grid or
//!   navmesh world ([`ps_crowd_new_preset`], [`ps_crowd_new_steps`]; [`PsCrowdSettings`]:
//!   threads, plan budget, avoidance and its settings). Agents are added
//!   ([`ps_crowd_add_agent`]), removed ([`ps_crowd_remove_agent`]: the last agent takes
//!   the index, as `Vec::swap_remove`) and sent elsewhere ([`ps_crowd_set_target`]);
//!   [`ps_crowd_update`] walks them and gives a [`PsCrowdFrame`];
//!   [`ps_crowd_positions`] / [`ps_crowd_velocities`] fill the caller's buffer, x and y
//!   per agent; [`ps_crowd_agent_state`], [`ps_crowd_agent_path`],
//!   [`ps_crowd_agent_error`] and [`ps_crowd_agent_stuck`] read one agent; obstacles
//!   ([`ps_crowd_add_box`], `_disk`, `_polygon`, `_cells`, [`ps_crowd_remove_obstacle`])
//!   and moving obstacles ([`ps_crowd_add_moving_obstacle`],
//!   [`ps_crowd_set_moving_obstacle_velocity`], [`ps_crowd_remove_moving_obstacle`],
//!   [`ps_crowd_moving_obstacles`]) change the crowd's world.
//! - **Results** go into the caller's buffers. A buffer too small gives
//!   [`PsStatus::PsBufferTooSmall`] with the needed number of points in `*out_len`, as
//!   Detour does; the pipeline keeps that result, and the next call on the same pipeline
//!   with bit-identical input copies it out **without recomputing**.
//! - **Errors**: every function returns a [`PsStatus`]; [`ps_last_error`] gives the
//!   library's message for the last call on the calling thread.
//!
//! ## Safety rules (the C side's contract)
//!
//! - Every pointer argument must be NULL or valid for the documented length; NULL is
//!   reported ([`PsStatus::PsNullPointer`]) except where a parameter says it may be NULL
//!   and for an array of length 0 (which is then not read).
//!   `double*` buffers must be 8-byte aligned and `float*` / `uint32_t*` 4-byte aligned
//!   ([`PsStatus::PsMisaligned`] otherwise).
//! - Handles carry a tag checked on entry: a world passed where a pipeline is expected
//!   (or any pointer that is not a live handle but points at readable memory) is
//!   [`PsStatus::PsWrongHandle`]. A destroyed handle's tag is cleared before its memory is
//!   freed, which catches many uses after free, but using a handle after its destroy
//!   function (including a double destroy) is undefined behaviour, as for `free` in C.
//! - No panic crosses the boundary: each entry point runs inside `catch_unwind`, and a
//!   panic (a bug in the library) is [`PsStatus::PsPanic`] with its message.
//!
//! ## Threads
//!
//! A [`PsWorld`] is immutable: one world may be used by any number of threads at once
//! (to make pipelines). A [`PsPipeline`] owns mutable scratch buffers: use one pipeline
//! from one thread at a time (distinct pipelines on distinct threads, even over one
//! world, need no locking). A pipeline keeps its world alive: a world may be destroyed
//! while pipelines made from it are still in use. A [`PsCrowd`] too is used from one
//! thread at a time; with [`PsCrowdSettings::threads`] > 1 its updates run on a pool of
//! threads of its own (the same results for any number). The last-error message is per
//! thread.
//!
//! ## Coordinates
//!
//! World units throughout, as in the library. A grid's cell `(x, y)` is
//! `free[y * width + x]` (row-major, row 0 first) and covers
//! `origin + cell_size · [x, x+1] × [y, y+1]`: rows go towards **+y** (row 0 has the
//! smallest y), columns towards +x — the library's [`GridWorld`] convention (a Moving AI
//! map's first text row is row 0).

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use pathsmooth::glam::{DVec2, DVec3, Vec2};
use pathsmooth::grid::GridMap;
use pathsmooth::navmesh::{load_surface, load_surface_with_detail};
use pathsmooth::navmesh::{NavMesh, Surface, SurfaceData, SurfaceMesh, SurfaceOptions, UpAxis};
use pathsmooth::{
    AnyPipeline, AreaCosts, CatmullRomParams, ChaikinParams, CorridorParams, Error, FilletParams,
    GridWorld, Pipeline, PipelineReport, Point2, Preset, RelaxParams, Step, SurfaceWorld,
};

mod crowd;
mod moves;
pub use crowd::*;
pub use moves::*;

// ───────────────────────────── status codes and errors ─────────────────────────────

/// What a call did. `PS_OK` is 0; every other value is a failure whose message
/// [`ps_last_error`] gives.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PsStatus {
    /// Success.
    PsOk = 0,
    /// A pointer that must not be NULL was NULL.
    PsNullPointer = 1,
    /// A buffer or handle pointer was not aligned for its type.
    PsMisaligned = 2,
    /// A handle of the wrong type (a world where a pipeline is expected), a destroyed
    /// handle, or a pointer that is not a handle.
    PsWrongHandle = 3,
    /// The output buffer is too small: `*out_len` holds the number of points needed; the
    /// result is kept for a retry with the same input.
    PsBufferTooSmall = 4,
    /// Bad input: NaN or infinite coordinates, an empty or too short path, a bad
    /// parameter, size or id, invalid polygons, a malformed file (the message gives its
    /// line).
    PsInvalidArgument = 5,
    /// A point is outside the world, inside a wall, or off the navmesh.
    PsOutsideWorld = 6,
    /// No path: unreachable goal, a passage too narrow for the radius, an end too close
    /// to a wall, or no room anywhere for the radius.
    PsNoPath = 7,
    /// The world cannot do what was asked (a navmesh step on a grid without a navmesh,
    /// smoothing on a surface, a 3D plan on a flat world).
    PsUnsupported = 8,
    /// The result failed the final validation (a library bug; the message says where).
    PsInvalidResult = 9,
    /// Any other library error.
    PsError = 10,
    /// A panic inside the library was caught (a library bug).
    PsPanic = 11,
    /// A file could not be read (missing, unreadable, a directory): the message names it.
    /// A file that is read but malformed is `PS_INVALID_ARGUMENT`.
    PsIoError = 12,
}

/// A failure: its status and its message.
#[derive(Debug)]
struct Fail {
    status: PsStatus,
    message: String,
}

impl Fail {
    fn new(status: PsStatus, message: impl Into<String>) -> Self {
        Fail {
            status,
            message: message.into(),
        }
    }
}

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        let status = match &e {
            Error::NonFinite { .. }
            | Error::CoordinateOutOfRange { .. }
            | Error::EmptyPath
            | Error::TooFewPoints { .. }
            | Error::BadParameter { .. }
            | Error::BadAngle { .. }
            | Error::OutputTooLarge { .. }
            | Error::InvalidInputPath { .. }
            | Error::NoFreeSpace
            | Error::InvalidPolygon { .. }
            | Error::InvalidLink { .. }
            | Error::BadAreaCost { .. }
            | Error::BadObstacle { .. }
            | Error::OverSeveralFloors { .. }
            | Error::Parse { .. } => PsStatus::PsInvalidArgument,
            Error::Io { .. } => PsStatus::PsIoError,
            Error::OutsideMap { .. }
            | Error::Blocked { .. }
            | Error::ExcludedArea { .. }
            | Error::OutsideWorld { .. }
            | Error::OutsideMesh { .. }
            | Error::NoFloor { .. } => PsStatus::PsOutsideWorld,
            Error::Unreachable { .. }
            | Error::UnreachableOnSurface { .. }
            | Error::TooNarrow { .. }
            | Error::TooClose { .. }
            | Error::NoRoom { .. }
            | Error::ChannelTooNarrow { .. } => PsStatus::PsNoPath,
            Error::Unsupported { .. } => PsStatus::PsUnsupported,
            Error::InvalidResult { .. } => PsStatus::PsInvalidResult,
            _ => PsStatus::PsError,
        };
        Fail::new(status, e.to_string())
    }
}

type Res<T> = std::result::Result<T, Fail>;

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

fn set_last_error(message: &str) {
    // `try_with`: during a thread's exit, after its locals are gone, the message is lost
    // rather than a panic raised outside `catch_unwind`.
    let _ = LAST_ERROR.try_with(|e| {
        if let Ok(mut e) = e.try_borrow_mut() {
            e.clear();
            e.push_str(message);
        }
    });
}

/// Runs one entry point: its failure's message becomes the thread's last error (cleared on
/// success), and a panic is caught and reported, never unwound into the caller.
fn guard(f: impl FnOnce() -> Res<()>) -> PsStatus {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {
            set_last_error("");
            PsStatus::PsOk
        }
        Ok(Err(fail)) => {
            set_last_error(&fail.message);
            fail.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string());
            set_last_error(&format!(
                "panic inside pathsmooth (a bug; please report it): {what}"
            ));
            PsStatus::PsPanic
        }
    }
}

/// [`guard`] for an entry point whose failures name it: every message starts with
/// `what` (the function's name) and a colon.
fn guard_named(what: &str, f: impl FnOnce() -> Res<()>) -> PsStatus {
    guard(|| {
        f().map_err(|fail| Fail {
            message: format!("{what}: {}", fail.message),
            ..fail
        })
    })
}

/// Writes `text` into `buf` as [`ps_last_error`] does (at most `capacity − 1` bytes, cut at
/// a character boundary, then a NUL; nothing when `capacity` is 0) and its full length in
/// bytes into `*out_len` (checked by the caller, as `buf`).
fn write_text(text: &str, buf: *mut c_char, capacity: usize, out_len: *mut usize) {
    // SAFETY: checked non-NULL and aligned by the caller.
    unsafe { *out_len = text.len() };
    // SAFETY: `buf` checked by the caller, non-NULL with `capacity` bytes.
    unsafe { copy_text(text, buf, capacity) };
}

/// Copies at most `capacity − 1` bytes of `text` into `buf`, cut at a character boundary,
/// then a NUL; nothing when `capacity` is 0.
///
/// # Safety
///
/// `buf` must be valid for writing `capacity` bytes when `capacity` > 0.
unsafe fn copy_text(text: &str, buf: *mut c_char, capacity: usize) {
    if capacity > 0 {
        let mut n = text.len().min(capacity - 1);
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        // SAFETY: the caller gives `capacity` writable bytes; n + 1 ≤ capacity.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
            *buf.add(n) = 0;
        }
    }
}

/// Copies the calling thread's last error message into `buf` (at most `capacity − 1`
/// bytes of UTF-8, cut at a character boundary, then a NUL) and returns its full length
/// in bytes, without the NUL: a return value ≥ `capacity` means it was cut. `buf` may be
/// NULL when `capacity` is 0 (to ask for the length). The message is that of the last
/// `ps_*` call on this thread, empty after a call that returned `PS_OK`; this function
/// does not change it.
///
/// # Safety
///
/// `buf` must be NULL or valid for writing `capacity` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_last_error(buf: *mut c_char, capacity: usize) -> usize {
    catch_unwind(|| {
        LAST_ERROR.with(|e| {
            let e = e.borrow();
            if !buf.is_null() {
                // SAFETY: the caller gives `capacity` writable bytes.
                unsafe { copy_text(&e, buf, capacity) };
            }
            e.len()
        })
    })
    .unwrap_or(0)
}

/// The name of a status code as a static NUL-terminated string (`"PS_BUFFER_TOO_SMALL"`),
/// or `"PS_UNKNOWN_STATUS"` for a value that is not one.
#[unsafe(no_mangle)]
pub extern "C" fn ps_status_name(status: i32) -> *const c_char {
    let name: &'static [u8] = match status {
        0 => b"PS_OK\0",
        1 => b"PS_NULL_POINTER\0",
        2 => b"PS_MISALIGNED\0",
        3 => b"PS_WRONG_HANDLE\0",
        4 => b"PS_BUFFER_TOO_SMALL\0",
        5 => b"PS_INVALID_ARGUMENT\0",
        6 => b"PS_OUTSIDE_WORLD\0",
        7 => b"PS_NO_PATH\0",
        8 => b"PS_UNSUPPORTED\0",
        9 => b"PS_INVALID_RESULT\0",
        10 => b"PS_ERROR\0",
        11 => b"PS_PANIC\0",
        12 => b"PS_IO_ERROR\0",
        _ => b"PS_UNKNOWN_STATUS\0",
    };
    name.as_ptr().cast()
}

// ───────────────────────────── pointers and handles ─────────────────────────────

/// Checks that `p` is not NULL and is aligned for `T`.
fn check_ptr<T>(p: *const T, name: &str) -> Res<()> {
    if p.is_null() {
        return Err(Fail::new(
            PsStatus::PsNullPointer,
            format!("`{name}` is NULL"),
        ));
    }
    if !p.is_aligned() {
        let align = std::mem::align_of::<T>();
        return Err(Fail::new(
            PsStatus::PsMisaligned,
            format!(
                "`{name}` ({p:p}) is not aligned to {align} bytes for {}",
                std::any::type_name::<T>()
            ),
        ));
    }
    Ok(())
}

/// An output buffer: NULL only when `capacity` is 0.
fn check_out<T>(p: *const T, capacity: usize, name: &str) -> Res<()> {
    if p.is_null() && capacity == 0 {
        return Ok(());
    }
    check_ptr(p, name)
}

/// A slice of `n` items at `p` (checked non-NULL and aligned unless empty), `n · dim`
/// elements.
///
/// # Safety
///
/// `p` must be valid for reading `n · dim` elements, unaliased by writes while in use.
unsafe fn input<'a, T>(p: *const T, n: usize, dim: usize, name: &str) -> Res<&'a [T]> {
    if n == 0 || dim == 0 {
        // An empty array may be NULL (C#'s `fixed` on an empty array gives NULL).
        return Ok(&[]);
    }
    check_ptr(p, name)?;
    let len = n
        .checked_mul(dim)
        .filter(|&len| len <= isize::MAX as usize / std::mem::size_of::<T>().max(1))
        .ok_or_else(|| {
            Fail::new(
                PsStatus::PsInvalidArgument,
                format!("`{name}`: {n} items is more than memory can hold"),
            )
        })?;
    // SAFETY: checked non-NULL and aligned; the caller gives `len` readable elements.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// The `n` pairs at `xy` (x then y each, checked as [`input`] checks), each made into a
/// point by `point`.
///
/// # Safety
///
/// As [`input`]: `xy` must be valid for reading `n · 2` elements.
unsafe fn input_pairs<T: Copy, P>(
    xy: *const T,
    n: usize,
    name: &str,
    point: fn(T, T) -> P,
) -> Res<Vec<P>> {
    // SAFETY: the caller's length.
    let flat = unsafe { input(xy, n, 2, name)? };
    Ok(flat.chunks_exact(2).map(|c| point(c[0], c[1])).collect())
}

/// The `n` points at `xyz` (x, y, z each, checked as [`input`] checks).
///
/// # Safety
///
/// As [`input`]: `xyz` must be valid for reading `n · 3` elements.
unsafe fn input_points3(xyz: *const f64, n: usize, name: &str) -> Res<Vec<DVec3>> {
    // SAFETY: the caller's length.
    let flat = unsafe { input(xyz, n, 3, name)? };
    Ok(flat
        .chunks_exact(3)
        .map(|c| DVec3::new(c[0], c[1], c[2]))
        .collect())
}

const WORLD_TAG: u64 = u64::from_le_bytes(*b"PSWORLD\0");
const PIPELINE_TAG: u64 = u64::from_le_bytes(*b"PSPIPE\0\0");
const DEAD_TAG: u64 = u64::from_le_bytes(*b"PSDEAD\0\0");

/// What a handle points at: a tag, then the value.
#[repr(C)]
struct Tagged<T> {
    tag: u64,
    value: T,
}

fn tag_name(tag: u64) -> &'static str {
    match tag {
        WORLD_TAG => "a PsWorld",
        PIPELINE_TAG => "a PsPipeline",
        crowd::CROWD_TAG => "a PsCrowd",
        DEAD_TAG => "a destroyed handle",
        _ => "not a pathsmooth handle",
    }
}

/// The handle's value, once its pointer and tag are checked.
///
/// # Safety
///
/// `p` must be NULL or point at 8 readable bytes (a handle, or anything else readable:
/// what is not a live handle of the right type is refused).
unsafe fn handle<T>(p: *const Tagged<T>, tag: u64, name: &str) -> Res<*mut Tagged<T>> {
    check_ptr(p.cast::<u64>(), name)?;
    // SAFETY: non-NULL and aligned; the caller gives a readable handle-sized object.
    let found = unsafe { p.cast::<u64>().read() };
    if found != tag {
        return Err(Fail::new(
            PsStatus::PsWrongHandle,
            format!(
                "`{name}` is {}, expected {}",
                tag_name(found),
                tag_name(tag).trim_start_matches("a ")
            ),
        ));
    }
    // The tag says it is a live `Tagged<T>` made by this library (`emit`).
    Ok(p as *mut Tagged<T>)
}

/// Writes a handle for `value` into `*out`.
fn emit<T, H>(out: *mut *mut H, tag: u64, value: T) {
    let boxed = Box::new(Tagged { tag, value });
    // SAFETY: `out` was checked non-NULL and aligned by the caller of `emit`.
    unsafe { *out = Box::into_raw(boxed).cast::<H>() };
}

/// Destroys a handle: clears its tag, then frees it. NULL is a no-op.
///
/// # Safety
///
/// As for [`handle`]; the handle must not be used afterwards.
unsafe fn destroy<T>(p: *mut Tagged<T>, tag: u64, name: &str) -> Res<()> {
    if p.is_null() {
        return Ok(());
    }
    // SAFETY: as for `handle`.
    let h = unsafe { handle(p, tag, name)? };
    // SAFETY: a live handle; the caller destroys it from one thread, once.
    unsafe { (*h).tag = DEAD_TAG };
    // SAFETY: made by `Box::into_raw` in `emit`, and its tag was live: not freed yet.
    drop(unsafe { Box::from_raw(p) });
    Ok(())
}

/// Checks `out` (non-NULL and aligned; `name` for the message) and writes `failed` into
/// it, so that every failure after this leaves `failed` there.
fn start_with<T>(out: *mut T, name: &str, failed: T) -> Res<()> {
    check_ptr(out, name)?;
    // SAFETY: checked non-NULL and aligned; the caller's contract makes it writable.
    unsafe { out.write(failed) };
    Ok(())
}

/// Checks `out` (a handle output) and sets `*out` to NULL, so that a failure leaves NULL.
fn start_out<H>(out: *mut *mut H, name: &str) -> Res<()> {
    start_with(out, name, std::ptr::null_mut())
}

/// Checks `out_len` and sets `*out_len` to 0, so that a failure leaves 0.
fn start_len(out_len: *mut usize) -> Res<()> {
    start_with(out_len, "out_len", 0)
}

/// The checks before a call writes a list into a caller's buffer: `*out_len` set to 0
/// first (so that every failure leaves 0), then `out` (room for `capacity` items, NULL
/// only when `capacity` is 0; `name` for the message).
fn start_list<T>(out: *mut T, capacity: usize, name: &str, out_len: *mut usize) -> Res<()> {
    start_len(out_len)?;
    check_out(out, capacity, name)
}

/// The body of a getter of one value: checks `out` (`name` for the message) before
/// anything else, then writes what `value` gives into it; on failure `*out` is left as it
/// was.
fn write_out<T>(out: *mut T, name: &str, value: impl FnOnce() -> Res<T>) -> Res<()> {
    check_ptr(out, name)?;
    let value = value()?;
    // SAFETY: checked non-NULL and aligned; the caller's contract makes it writable.
    unsafe { out.write(value) };
    Ok(())
}

// ───────────────────────────── worlds ─────────────────────────────

/// A world: a grid, a navmesh or a layered surface. Opaque; made by `ps_world_*_new`,
/// freed by [`ps_world_destroy`]. Immutable, so usable from several threads at once.
pub struct PsWorld {
    _opaque: [u8; 0],
}

/// A pipeline: a world, an agent radius and steps, with its scratch buffers and its last
/// result. Opaque; made by `ps_pipeline_new_*`, freed by [`ps_pipeline_destroy`]. Use it
/// from one thread at a time.
pub struct PsPipeline {
    _opaque: [u8; 0],
}

// One per world, built once inside an `Arc`: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum WorldKind {
    /// Shared with the pipelines made on it.
    Grid(Arc<GridWorld>),
    /// A navmesh, flat (`ps_world_navmesh_new*`: a surface of one floor) or layered
    /// (`ps_world_surface_*`): the library's one navmesh world. Its pipelines and crowds
    /// each own a clone, which shares its meshes (and on a mesh of one floor, its whole
    /// sheet) and cuts sheets of its own.
    Surface(SurfaceWorld),
}

type WorldBox = Tagged<Arc<WorldKind>>;

const _: () = {
    const fn shareable<T: Send + Sync>() {}
    const fn sendable<T: Send>() {}
    shareable::<WorldKind>();
    sendable::<PipelineData>();
};

/// The last step of every world constructor: the new world handed to the caller.
fn emit_world(out_world: *mut *mut PsWorld, world: WorldKind) -> Res<()> {
    emit(out_world, WORLD_TAG, Arc::new(world));
    Ok(())
}

/// The last step of the three surface constructors: the surface's mesh (its checks may
/// still refuse it) handed to the caller as a world.
fn emit_surface(out_world: *mut *mut PsWorld, surface: Surface) -> Res<()> {
    let mesh = SurfaceMesh::new(surface)?;
    emit_world(out_world, WorldKind::Surface(SurfaceWorld::new(mesh)))
}

fn world_ref<'a>(world: *const PsWorld) -> Res<&'a Arc<WorldKind>> {
    // SAFETY: the caller's contract (a handle or NULL).
    // A shared reference: a world may be used by several threads at once.
    unsafe { handle(world.cast::<WorldBox>(), WORLD_TAG, "world").map(|h| &(*h).value) }
}

/// Up axis of a surface: height is y (Recast, Unity, Godot).
pub const PS_UP_Y: u32 = 0;
/// Up axis of a surface: height is z (Unreal, robotics).
pub const PS_UP_Z: u32 = 1;
/// Up axis of a navmesh file: the file's own ([`ps_world_surface_load`]: Recast, Detour and
/// Godot files are y up, the navmesh JSON names its axis; OBJ and polyanya `.mesh` files,
/// which do not say, are read y up).
pub const PS_UP_FILE: u32 = 2;

/// Makes a grid world of `width` × `height` cells of `cell_size` world units, cell
/// (0, 0)'s corner at (`origin_x`, `origin_y`). Cell (x, y) is `free[y * width + x]`
/// (row-major, row 0 first; rows go towards +y), nonzero meaning passable. The world
/// builds the grid's exact distance field now (O(width × height)).
///
/// Errors: `PS_NULL_POINTER` (`free`, `out_world`), `PS_INVALID_ARGUMENT` (a side of 0
/// or more than 16384 cells, a cell size not positive and finite, a non-finite origin, no
/// passable cell, coordinates too large). On failure `*out_world` is NULL.
///
/// # Safety
///
/// `free` must be valid for reading `width * height` bytes; `out_world` for writing one
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_grid_new(
    free: *const u8,
    width: usize,
    height: usize,
    cell_size: f64,
    origin_x: f64,
    origin_y: f64,
    out_world: *mut *mut PsWorld,
) -> PsStatus {
    // SAFETY: the caller's contract, that of the function with areas and NULLs.
    unsafe {
        ps_world_grid_new_areas(
            free,
            std::ptr::null(),
            width,
            height,
            cell_size,
            origin_x,
            origin_y,
            std::ptr::null(),
            out_world,
        )
    }
}

/// [`ps_world_grid_new`] with areas and area costs: `areas` (NULL: every cell ground,
/// `'.'`) gives each cell an area id (row-major like `free`); `area_costs` (NULL: the
/// default, every area 1 and Moving AI water `'W'` excluded) is a NUL-terminated UTF-8
/// `"AREA=COST,..."`: AREA a letter (its byte, e.g. `S`) or an id 0–255, COST a positive
/// multiplier in [2⁻²⁰, 2²⁰] or `exclude`. Planning minimises length × cost, smoothing never
/// raises the path's cost (the report's `cost` ≤ `input_cost`), and excluded areas are walls.
///
/// Errors: those of [`ps_world_grid_new`], and `PS_INVALID_ARGUMENT` for area costs that do
/// not parse (the message names the entry) or a filter that excludes every free cell.
///
/// # Safety
///
/// `free` (and `areas` unless NULL) valid for reading `width * height` bytes; `area_costs`
/// NULL or a NUL-terminated string; `out_world` writable for one pointer.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ps_world_grid_new_areas(
    free: *const u8,
    areas: *const u8,
    width: usize,
    height: usize,
    cell_size: f64,
    origin_x: f64,
    origin_y: f64,
    area_costs: *const c_char,
    out_world: *mut *mut PsWorld,
) -> PsStatus {
    guard(|| {
        start_out(out_world, "out_world")?;
        check_ptr(free, "free")?;
        // SAFETY: the caller gives NULL or a NUL-terminated string.
        let costs = unsafe { costs_from(area_costs, AreaCosts::default())? };
        let origin = DVec2::new(origin_x, origin_y);
        let side = 1..=pathsmooth::grid::MAX_MAP_SIDE;
        if !(side.contains(&width) && side.contains(&height)) {
            // The library's own error for the size; the cells are not read.
            GridWorld::from_fn(width, height, cell_size, origin, |_, _| false)?;
        }
        // SAFETY: the caller gives width · height readable bytes (≤ 2²⁸).
        let cells = unsafe { input(free, width, height, "free")? };
        let mut map = GridMap::from_fn(width, height, |x, y| cells[y * width + x] != 0);
        if !areas.is_null() {
            // SAFETY: as `free`.
            let ids = unsafe { input(areas, width, height, "areas")? };
            map = map.with_areas(|x, y| ids[y * width + x]);
        }
        let world = GridWorld::with_frame(map, cell_size, origin)?.with_area_costs(costs)?;
        emit_world(out_world, WorldKind::Grid(Arc::new(world)))
    })
}

/// The polygons of a polygon list: `sizes[i]` vertex indices each, one after another in
/// `indices`.
fn polygon_lists(indices: *const u32, sizes: &[u32]) -> Res<Vec<Vec<u32>>> {
    let total = sizes
        .iter()
        .try_fold(0usize, |t, &s| t.checked_add(s as usize))
        .ok_or_else(|| Fail::new(PsStatus::PsInvalidArgument, "polygon sizes overflow"))?;
    // SAFETY: the caller gives sum(sizes) readable indices.
    let indices = unsafe { input(indices, total, 1, "indices")? };
    let mut at = 0;
    Ok(sizes
        .iter()
        .map(|&s| {
            let p = indices[at..at + s as usize].to_vec();
            at += s as usize;
            p
        })
        .collect())
}

/// Makes a navmesh world from convex polygons in the plane: `vertex_count` vertices
/// (`vertices_xy`, x then y for each), `polygon_count` polygons, polygon i being the next
/// `polygon_sizes[i]` vertex indices of `indices` (either winding). `ids` (NULL for
/// 0, 1, 2, …) gives each polygon its id, which must be distinct. Edges shared by two
/// polygons are open, the rest are walls.
///
/// The world is the library's one navmesh world, a surface of one floor (z up, every
/// height 0; `SurfaceWorld::from_navmesh`): its pipelines take 2D ends ([`ps_pipeline_plan_f64`]) and 3D ends
/// ([`ps_pipeline_plan3_f64`], whose polygons are the input's indices, each id
/// [`ps_world_surface_polygon_ref`]), and the surface calls ([`ps_pipeline_set_climb`],
/// [`ps_world_surface_locate`], …) take it.
///
/// Errors: `PS_NULL_POINTER`, `PS_MISALIGNED`, and `PS_INVALID_ARGUMENT` for what the
/// library refuses (no polygons, a polygon with fewer than 3 vertices, an index out of
/// range, NaN or huge coordinates, overlapping, non-convex or zero-area polygons,
/// T-junctions, repeated ids), the message naming the polygon or vertex.
///
/// # Safety
///
/// Each pointer must be valid for its documented length; `out_world` for one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_navmesh_new(
    vertices_xy: *const f64,
    vertex_count: usize,
    indices: *const u32,
    polygon_sizes: *const u32,
    polygon_count: usize,
    ids: *const u32,
    out_world: *mut *mut PsWorld,
) -> PsStatus {
    // SAFETY: the caller's contract, that of the function with areas and NULLs.
    unsafe {
        ps_world_navmesh_new_areas(
            vertices_xy,
            vertex_count,
            indices,
            polygon_sizes,
            polygon_count,
            ids,
            std::ptr::null(),
            std::ptr::null(),
            out_world,
        )
    }
}

/// [`ps_world_navmesh_new`] with areas and area costs: `areas` (NULL: every polygon area
/// 63, Recast's walkable area) gives each polygon an area id; `area_costs` (NULL: every
/// area 1) is a NUL-terminated UTF-8 `"AREA=COST,..."` with AREA an id 0–255 and COST a
/// positive multiplier in [2⁻²⁰, 2²⁰] or `exclude`. Planning takes the cheaper of the
/// cheapest channel's path and the shortest path, smoothing never raises the path's cost,
/// and excluded areas are walls.
///
/// Errors: those of [`ps_world_navmesh_new`], and `PS_INVALID_ARGUMENT` for area costs that
/// do not parse or a filter that excludes every polygon.
///
/// # Safety
///
/// As [`ps_world_navmesh_new`]; `areas` NULL or readable for `polygon_count` bytes;
/// `area_costs` NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ps_world_navmesh_new_areas(
    vertices_xy: *const f64,
    vertex_count: usize,
    indices: *const u32,
    polygon_sizes: *const u32,
    polygon_count: usize,
    ids: *const u32,
    areas: *const u8,
    area_costs: *const c_char,
    out_world: *mut *mut PsWorld,
) -> PsStatus {
    guard(|| {
        start_out(out_world, "out_world")?;
        // A navmesh's filter starts from every area at 1 (87 is no water there).
        // SAFETY: the caller gives NULL or a NUL-terminated string.
        let costs = unsafe { costs_from(area_costs, AreaCosts::unit())? };
        // SAFETY: the caller's lengths.
        let vertices =
            unsafe { input_pairs(vertices_xy, vertex_count, "vertices_xy", DVec2::new)? };
        let sizes = unsafe { input(polygon_sizes, polygon_count, 1, "polygon_sizes")? };
        let polygons = polygon_lists(indices, sizes)?;
        let mut mesh = if ids.is_null() {
            NavMesh::from_polygons(&vertices, &polygons)?
        } else {
            // SAFETY: the caller gives one id per polygon.
            let ids = unsafe { input(ids, polygon_count, 1, "ids")? };
            NavMesh::from_polygons_with_ids(&vertices, &polygons, ids)?
        };
        if !areas.is_null() {
            // SAFETY: the caller gives one area per polygon.
            let areas = unsafe { input(areas, polygon_count, 1, "areas")? };
            mesh = mesh.with_areas(areas)?;
        }
        let world = SurfaceWorld::from_navmesh(&mesh)?.with_area_costs(costs)?;
        emit_world(out_world, WorldKind::Surface(world))
    })
}

/// The filter `spec` (NULL: `base` itself) applied over `base`.
///
/// # Safety
///
/// `spec` NULL or a NUL-terminated string.
unsafe fn costs_from(spec: *const c_char, base: AreaCosts) -> Res<AreaCosts> {
    if spec.is_null() {
        return Ok(base);
    }
    // SAFETY: the caller gives a NUL-terminated string.
    let spec = unsafe { std::ffi::CStr::from_ptr(spec) };
    let spec = spec
        .to_str()
        .map_err(|_| Fail::new(PsStatus::PsInvalidArgument, "area_costs: not UTF-8"))?;
    Ok(base.apply(spec)?)
}

/// Makes a layered navmesh surface (floors may overlap in plan view) from 3D vertices
/// (`vertices_xyz`, x, y, z each) and convex polygons (as in [`ps_world_navmesh_new`];
/// polygon i has id i), with an area id per polygon (`areas`, NULL for all 0), `up_axis`
/// [`PS_UP_Y`] or [`PS_UP_Z`], and vertices closer than `weld` world units merged (0:
/// exact copies only — enough for Unity's `NavMesh.CalculateTriangulation()`, whose
/// triangles share vertices). Plan on it with [`ps_pipeline_plan3_f64`].
///
/// Errors: `PS_NULL_POINTER`, `PS_MISALIGNED`, and `PS_INVALID_ARGUMENT` for a bad up
/// axis and what the library refuses (see [`ps_world_navmesh_new`]; also polygons far
/// from planar, vertical polygons, edges of three polygons).
///
/// # Safety
///
/// Each pointer must be valid for its documented length; `out_world` for one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_surface_new(
    vertices_xyz: *const f64,
    vertex_count: usize,
    indices: *const u32,
    polygon_sizes: *const u32,
    polygon_count: usize,
    areas: *const u8,
    up_axis: u32,
    weld: f64,
    out_world: *mut *mut PsWorld,
) -> PsStatus {
    guard(|| {
        start_out(out_world, "out_world")?;
        let up = up_axis_of(up_axis, false)?.unwrap_or_default();
        // SAFETY: the caller's lengths.
        let vertices = unsafe { input_points3(vertices_xyz, vertex_count, "vertices_xyz")? };
        let sizes = unsafe { input(polygon_sizes, polygon_count, 1, "polygon_sizes")? };
        let polygons = polygon_lists(indices, sizes)?;
        let areas: &[u8] = if areas.is_null() {
            &[]
        } else {
            // SAFETY: the caller gives one area per polygon.
            unsafe { input(areas, polygon_count, 1, "areas")? }
        };
        let options = surface_options(up, weld);
        let surface = Surface::from_polygons_with(&vertices, &polygons, areas, &[], &options)?;
        emit_surface(out_world, surface)
    })
}

/// The up axis `PS_UP_Y` / `PS_UP_Z` (and `PS_UP_FILE`, as `None`, when `file` allows it).
fn up_axis_of(up_axis: u32, file: bool) -> Res<Option<UpAxis>> {
    match up_axis {
        PS_UP_Y => Ok(Some(UpAxis::Y)),
        PS_UP_Z => Ok(Some(UpAxis::Z)),
        PS_UP_FILE if file => Ok(None),
        other => Err(Fail::new(
            PsStatus::PsInvalidArgument,
            if file {
                format!("`up_axis` = {other} is not PS_UP_Y (0), PS_UP_Z (1) or PS_UP_FILE (2)")
            } else {
                format!("`up_axis` = {other} is not PS_UP_Y (0) or PS_UP_Z (1)")
            },
        )),
    }
}

/// The options of a surface made by a C call: `up`, and the weld tolerance `weld` (negative
/// is the library's default, derived from the mesh's size; anything else, NaN included,
/// goes to the library, which checks it).
fn surface_options(up: UpAxis, weld: f64) -> SurfaceOptions {
    let weld = if weld < 0.0 { None } else { Some(weld) };
    SurfaceOptions {
        weld,
        ..SurfaceOptions::new(up)
    }
}

/// A NUL-terminated UTF-8 string argument.
///
/// # Safety
///
/// `p` NULL or a NUL-terminated string.
unsafe fn text_arg<'a>(p: *const c_char, name: &str) -> Res<&'a str> {
    check_ptr(p, name)?;
    // SAFETY: the caller gives a NUL-terminated string.
    let text = unsafe { std::ffi::CStr::from_ptr(p) };
    text.to_str().map_err(|e| {
        Fail::new(
            PsStatus::PsInvalidArgument,
            format!("`{name}` is not UTF-8 (byte {})", e.valid_up_to()),
        )
    })
}

/// Makes a surface world from a navmesh file, its format found from its bytes (the
/// library's `navmesh::load_surface`): the navmesh JSON, Recast's and `rerecast`'s
/// JSON, Godot scenes and resources (`.tscn`, `.tres`), Detour binaries (RecastDemo's
/// `MSET` navmesh sets, `DNAV` tiles), OBJ (Unity's `NavMesh.CalculateTriangulation`
/// exports) and polyanya `.mesh` files. `path` is a NUL-terminated UTF-8 path;
/// `detail_path` (may be NULL) a second file holding the detail mesh of a Recast or
/// `rerecast` JSON poly mesh. `up_axis` is [`PS_UP_FILE`] (the file's own axis), or
/// [`PS_UP_Y`] / [`PS_UP_Z`] for OBJ and `.mesh` files (for a format that fixes its axis,
/// it must agree). Vertices within `weld` world units are merged (negative: the library's
/// default, 10⁻⁶ of the mesh's size; 0: exact copies only). Duplicated vertices are welded,
/// T-junctions split, slivers and duplicate polygons dropped:
/// [`ps_world_surface_load_report`] says what was repaired. Plan on it with
/// [`ps_pipeline_plan3_f64`].
///
/// Errors (every message starts with `ps_world_surface_load:`): `PS_NULL_POINTER`
/// (`path`, `out_world`), `PS_IO_ERROR` (a file that cannot be read, named),
/// `PS_INVALID_ARGUMENT` (a path not UTF-8, a bad `up_axis` or one that contradicts the
/// file, NaN `weld`; a file in no format the library reads, or malformed: its line and
/// column; polygons the library refuses), `PS_UNSUPPORTED` (a detail file beside a format
/// that carries its own). On failure `*out_world` is NULL.
///
/// # Safety
///
/// `path` a NUL-terminated string, `detail_path` NULL or one; `out_world` writable for one
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_surface_load(
    path: *const c_char,
    detail_path: *const c_char,
    up_axis: u32,
    weld: f64,
    out_world: *mut *mut PsWorld,
) -> PsStatus {
    guard_named("ps_world_surface_load", || {
        start_out(out_world, "out_world")?;
        // SAFETY: the caller's strings.
        let path = unsafe { text_arg(path, "path")? };
        let detail = if detail_path.is_null() {
            None
        } else {
            // SAFETY: as above.
            Some(unsafe { text_arg(detail_path, "detail_path")? })
        };
        let up = up_axis_of(up_axis, true)?;
        let options = surface_options(up.unwrap_or_default(), weld);
        let surface = match detail {
            None => load_surface(path, &options)?,
            Some(detail) => load_surface_with_detail(path, detail, &options)?,
        };
        if let Some(up) = up.filter(|&u| u != surface.up()) {
            return Err(Fail::new(
                PsStatus::PsInvalidArgument,
                format!(
                    "{path}: the navmesh is {} up (its format says so) but `up_axis` says {up}; \
                     pass PS_UP_FILE",
                    surface.up()
                ),
            ));
        }
        emit_surface(out_world, surface)
    })
}

/// Makes a surface world from a triangulation as Unity's
/// `NavMesh.CalculateTriangulation()` gives it (`NavMeshTriangulation`; the library's
/// `SurfaceData::from_triangles`): `vertex_count` vertices (`vertices_xyz`, x, y, z each,
/// y up), `index_count` indices (three per triangle), and `areas` (NULL, or one Unity area
/// index per triangle). Unity repeats the vertices of every tile: they are welded within
/// `weld` world units (negative: the library's default, 10⁻⁶ of the mesh's size), and
/// T-junctions at tile seams split, so the triangles join. Plan on it with
/// [`ps_pipeline_plan3_f64`].
///
/// Errors (every message starts with `ps_world_surface_from_triangulation:`):
/// `PS_NULL_POINTER`, `PS_MISALIGNED`, `PS_INVALID_ARGUMENT` (`index_count` not a multiple
/// of 3, an index out of range, NaN or infinite coordinates naming the vertex, NaN
/// `weld`, no triangle with area). On failure `*out_world` is NULL.
///
/// # Safety
///
/// `vertices_xyz` readable for `3 · vertex_count` doubles, `indices` for `index_count`
/// integers, `areas` NULL or readable for `index_count / 3` bytes; `out_world` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_surface_from_triangulation(
    vertices_xyz: *const f64,
    vertex_count: usize,
    indices: *const u32,
    index_count: usize,
    areas: *const u8,
    weld: f64,
    out_world: *mut *mut PsWorld,
) -> PsStatus {
    guard_named("ps_world_surface_from_triangulation", || {
        start_out(out_world, "out_world")?;
        // SAFETY: the caller's lengths.
        let vertices = unsafe { input_points3(vertices_xyz, vertex_count, "vertices_xyz")? };
        let indices = unsafe { input(indices, index_count, 1, "indices")? };
        // One area per whole triangle; with a partial one, `from_triangles` refuses the
        // indices first.
        let areas: &[u8] = if areas.is_null() || !index_count.is_multiple_of(3) {
            &[]
        } else {
            // SAFETY: the caller gives one area per triangle.
            unsafe { input(areas, index_count / 3, 1, "areas")? }
        };
        let data = SurfaceData::from_triangles(&vertices, indices, areas)?;
        // Unity's triangulation is y up.
        let options = surface_options(UpAxis::Y, weld);
        emit_surface(out_world, Surface::from_data(&data, &options)?)
    })
}

/// The surface of a world, or `PS_UNSUPPORTED` naming `what`.
fn surface_of<'a>(world: *const PsWorld, what: &str) -> Res<&'a Surface> {
    mesh_of(world, what).map(|m| m.surface())
}

/// The layered mesh of a surface world, or `PS_UNSUPPORTED` naming `what`.
fn mesh_of<'a>(world: *const PsWorld, what: &str) -> Res<&'a SurfaceMesh> {
    match &**world_ref(world)? {
        WorldKind::Surface(w) => Ok(w.mesh()),
        WorldKind::Grid(_) => Err(Fail::new(
            PsStatus::PsUnsupported,
            format!(
                "{what} needs a surface world (ps_world_surface_* or ps_world_navmesh_*), not \
                 a grid"
            ),
        )),
    }
}

/// Writes what building a surface world repaired, dropped or noticed in its input, as one
/// line of UTF-8 (the library's `LoadReport`: "welded 77 vertices (within 0.000026…);
/// dropped 1 duplicate polygon (12)", or "nothing to repair"), NUL-terminated and cut at
/// `capacity − 1` bytes, into `buf`, and its full length in bytes into `*out_len` (`buf`
/// may be NULL with capacity 0, to ask for the length; a cut line is not an error).
///
/// Errors (messages start with `ps_world_surface_load_report:`): the pointer and handle
/// errors, `PS_UNSUPPORTED` for a grid world.
///
/// # Safety
///
/// `world` a live world handle; `buf` NULL or writable for `capacity` bytes; `out_len`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_surface_load_report(
    world: *const PsWorld,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    guard_named("ps_world_surface_load_report", || {
        start_list(buf, capacity, "buf", out_len)?;
        let surface = surface_of(world, "ps_world_surface_load_report")?;
        write_text(&surface.load_report().to_string(), buf, capacity, out_len);
        Ok(())
    })
}

/// Writes the surface's climb into `*out_climb`: how far above or below a floor a point
/// may be and still be on it (world units) — the bake's agent climb when the file says
/// (Recast's `walkableClimb`, Godot's `agent_max_climb`), else the library's default,
/// 0.25. Pipelines locate their ends with it unless [`ps_pipeline_set_climb`] says
/// otherwise.
///
/// Errors (messages start with `ps_world_surface_climb:`): the pointer and handle errors,
/// `PS_UNSUPPORTED` for a grid world.
///
/// # Safety
///
/// `world` a live world handle; `out_climb` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_surface_climb(
    world: *const PsWorld,
    out_climb: *mut f64,
) -> PsStatus {
    guard_named("ps_world_surface_climb", || {
        write_out(out_climb, "out_climb", || {
            Ok(surface_of(world, "ps_world_surface_climb")?.climb())
        })
    })
}

/// Writes the file's reference of the surface's polygon `polygon` (as
/// [`ps_pipeline_plan3_f64`] gives it) into `*out_ref`: Detour's `dtPolyRef` for a Detour
/// navmesh, else the polygon's index in the input (the file's polygons, or the polygons
/// and triangles given to `ps_world_surface_new` and
/// [`ps_world_surface_from_triangulation`]; polygons the builder dropped leave gaps).
///
/// Errors (messages start with `ps_world_surface_polygon_ref:`): the pointer and handle
/// errors, `PS_INVALID_ARGUMENT` for a polygon out of range, `PS_UNSUPPORTED` for a grid
/// world.
///
/// # Safety
///
/// `world` a live world handle; `out_ref` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_surface_polygon_ref(
    world: *const PsWorld,
    polygon: u32,
    out_ref: *mut u64,
) -> PsStatus {
    guard_named("ps_world_surface_polygon_ref", || {
        write_out(out_ref, "out_ref", || {
            let surface = surface_of(world, "ps_world_surface_polygon_ref")?;
            let n = surface.num_polygons();
            if polygon as usize >= n {
                return Err(Fail::new(
                    PsStatus::PsInvalidArgument,
                    format!("`polygon` = {polygon}: the surface has {n} polygons"),
                ));
            }
            Ok(surface.polygon_ref(polygon))
        })
    })
}

/// Destroys a world. NULL is a no-op. Pipelines made from it keep it alive and stay
/// usable. Destroying a handle twice is undefined behaviour (often caught as
/// `PS_WRONG_HANDLE`, never guaranteed).
///
/// Errors: `PS_WRONG_HANDLE` (nothing is freed), `PS_MISALIGNED`.
///
/// # Safety
///
/// `world` must be NULL or a handle from `ps_world_*_new` not yet destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_world_destroy(world: *mut PsWorld) -> PsStatus {
    // SAFETY: the caller's contract.
    guard(|| unsafe { destroy(world.cast::<WorldBox>(), WORLD_TAG, "world") })
}

// ───────────────────────────── pipelines ─────────────────────────────

/// Preset: line-of-sight shortcuts, straight segments ([`Preset::Shortest`]).
pub const PS_PRESET_SHORTEST: u32 = 0;
/// Preset: shortcuts then map-aware Chaikin ([`Preset::Smooth`]), the default for agents.
pub const PS_PRESET_SMOOTH: u32 = 1;
/// Preset: Langerak's corridor optimiser ([`Preset::Corridor`]).
pub const PS_PRESET_CORRIDOR: u32 = 2;

/// Step: line-of-sight shortcuts.
pub const PS_STEP_SHORTCUT: u32 = 0;
/// Step: map-aware Chaikin, default parameters (4 passes at ¼).
pub const PS_STEP_CHAIKIN: u32 = 1;
/// Step: centripetal Catmull-Rom, 5 points per segment, kept where clear.
pub const PS_STEP_CATMULL_ROM: u32 = 2;
/// Step: resampling at the spacing `value` (world units, > 0).
pub const PS_STEP_RESAMPLE: u32 = 3;
/// Step: the funnel through the navmesh channel (needs a navmesh or a grid).
pub const PS_STEP_FUNNEL: u32 = 4;
/// Step: portal relaxation, default parameters.
pub const PS_STEP_RELAX: u32 = 5;
/// Step: the corridor optimiser, default parameters.
pub const PS_STEP_CORRIDOR: u32 = 6;
/// Step: circular fillets of minimum turning radius `value` (world units, > 0).
pub const PS_STEP_FILLET: u32 = 7;

/// One step of a pipeline: a `PS_STEP_*` kind and its one parameter (`value`: the spacing
/// of `PS_STEP_RESAMPLE`, the turning radius of `PS_STEP_FILLET`; ignored by the others).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PsStep {
    /// A `PS_STEP_*` constant.
    pub kind: u32,
    /// The step's parameter, where it has one.
    pub value: f64,
}

/// A point in the plane, `double`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PsPoint2d {
    /// x, world units.
    pub x: f64,
    /// y, world units.
    pub y: f64,
}

/// A point in the plane, `float`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PsPoint2f {
    /// x, world units.
    pub x: f32,
    /// y, world units.
    pub y: f32,
}

/// A point in space, `double`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PsPoint3d {
    /// x, world units.
    pub x: f64,
    /// y, world units.
    pub y: f64,
    /// z, world units.
    pub z: f64,
}

/// The input of the result a pipeline keeps after `PS_BUFFER_TOO_SMALL`.
#[derive(Debug, PartialEq)]
enum Key {
    Plan64([u64; 4]),
    Plan32([u32; 4]),
    Plan3([u64; 6]),
    Smooth64(Vec<u64>),
    Smooth32(Vec<u32>),
}

struct PipelineData {
    /// The library's pipeline on the world it was made on (sharing a grid; owning a
    /// clone of a navmesh world, whose plans on a mesh with floors over one another cut
    /// the sheet round their paths).
    runner: AnyPipeline,
    out64: Vec<DVec2>,
    out32: Vec<Vec2>,
    out3: Vec<DVec3>,
    polygons3: Vec<u32>,
    /// The input whose result `out*` holds after a `PS_BUFFER_TOO_SMALL`.
    kept: Option<Key>,
}

type PipelineBox = Tagged<PipelineData>;

fn pipeline_mut<'a>(pipeline: *mut PsPipeline) -> Res<&'a mut PipelineData> {
    // SAFETY: the caller's contract (a handle or NULL).
    unsafe {
        // A unique reference: a pipeline is used by one thread at a time.
        handle(pipeline.cast::<PipelineBox>(), PIPELINE_TAG, "pipeline").map(|h| &mut (*h).value)
    }
}

fn steps_of(steps: &[PsStep]) -> Res<Vec<Step>> {
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let positive = |what: &str| {
                if s.value.is_finite() && s.value > 0.0 {
                    Ok(s.value)
                } else {
                    Err(Fail::new(
                        PsStatus::PsInvalidArgument,
                        format!(
                            "step {i}: the {what} `value` = {} must be finite and > 0",
                            s.value
                        ),
                    ))
                }
            };
            Ok(match s.kind {
                PS_STEP_SHORTCUT => Step::Shortcut,
                PS_STEP_CHAIKIN => Step::Chaikin(ChaikinParams::default()),
                PS_STEP_CATMULL_ROM => Step::CatmullRom(CatmullRomParams::centripetal(5)),
                PS_STEP_RESAMPLE => Step::Resample {
                    spacing: positive("spacing")?,
                },
                PS_STEP_FUNNEL => Step::Funnel,
                PS_STEP_RELAX => Step::Relax(RelaxParams::default()),
                PS_STEP_CORRIDOR => Step::Corridor(CorridorParams::default()),
                PS_STEP_FILLET => Step::Fillet(FilletParams::new(positive("turning radius")?)),
                other => {
                    return Err(Fail::new(
                        PsStatus::PsInvalidArgument,
                        format!("step {i}: kind {other} is not a PS_STEP_* constant (0 to 7)"),
                    ))
                }
            })
        })
        .collect()
}

/// The body of the two constructors: `*out` set to NULL first (so that every failure
/// leaves NULL), then the `steps` read, then the pipeline made on `world`.
fn new_pipeline(
    world: *const PsWorld,
    steps: impl FnOnce() -> Res<Vec<Step>>,
    radius: f64,
    out: *mut *mut PsPipeline,
) -> Res<()> {
    start_out(out, "out_pipeline")?;
    let steps = steps()?;
    let runner = match &**world_ref(world)? {
        WorldKind::Grid(w) => Pipeline::new(Arc::clone(w), radius)?
            .with_steps(steps)
            .into(),
        WorldKind::Surface(w) => Pipeline::new(w.clone(), radius)?.with_steps(steps).into(),
    };
    emit(
        out,
        PIPELINE_TAG,
        PipelineData {
            runner,
            out64: Vec::new(),
            out32: Vec::new(),
            out3: Vec::new(),
            polygons3: Vec::new(),
            kept: None,
        },
    );
    Ok(())
}

/// The steps of preset `preset` (a `PS_PRESET_*` constant).
fn preset_steps(preset: u32) -> Res<Vec<Step>> {
    let preset = match preset {
        PS_PRESET_SHORTEST => Preset::Shortest,
        PS_PRESET_SMOOTH => Preset::Smooth,
        PS_PRESET_CORRIDOR => Preset::Corridor,
        other => {
            return Err(Fail::new(
                PsStatus::PsInvalidArgument,
                format!("`preset` = {other} is not a PS_PRESET_* constant (0 to 2)"),
            ))
        }
    };
    Ok(preset.steps())
}

/// Makes a pipeline on `world` for an agent of `radius` (world units, ≥ 0) with a preset's
/// steps (`PS_PRESET_*`). The pipeline keeps the world alive.
///
/// Errors: `PS_NULL_POINTER`, `PS_WRONG_HANDLE` (`world`), `PS_INVALID_ARGUMENT` (an
/// unknown preset, a negative or non-finite radius), `PS_NO_PATH` (no free space has room
/// for the radius).
///
/// # Safety
///
/// `world` must be NULL or a live world handle; `out_pipeline` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_new_preset(
    world: *const PsWorld,
    preset: u32,
    radius: f64,
    out_pipeline: *mut *mut PsPipeline,
) -> PsStatus {
    guard(|| new_pipeline(world, || preset_steps(preset), radius, out_pipeline))
}

/// Makes a pipeline on `world` for an agent of `radius` with `step_count` steps, in
/// order (`steps` may be NULL when `step_count` is 0: no steps, the world's own path).
///
/// Errors: as [`ps_pipeline_new_preset`], and `PS_INVALID_ARGUMENT` for an unknown step
/// kind or a bad step value.
///
/// # Safety
///
/// `steps` must be valid for `step_count` items; otherwise as [`ps_pipeline_new_preset`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_new_steps(
    world: *const PsWorld,
    steps: *const PsStep,
    step_count: usize,
    radius: f64,
    out_pipeline: *mut *mut PsPipeline,
) -> PsStatus {
    // SAFETY: the caller's length (NULL with 0 steps).
    let steps = || steps_of(unsafe { input(steps, step_count, 1, "steps")? });
    guard(|| new_pipeline(world, steps, radius, out_pipeline))
}

/// Destroys a pipeline (and its hold on its world). NULL is a no-op; a double destroy is
/// undefined behaviour (see [`ps_world_destroy`]).
///
/// # Safety
///
/// `pipeline` must be NULL or a pipeline handle not yet destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_destroy(pipeline: *mut PsPipeline) -> PsStatus {
    // SAFETY: the caller's contract.
    guard(|| unsafe { destroy(pipeline.cast::<PipelineBox>(), PIPELINE_TAG, "pipeline") })
}

/// Writes `n` points (`dim` numbers each, `flat`) to `out`, or reports the length needed.
fn deliver<T: Copy>(
    flat: &[T],
    dim: usize,
    out: *mut T,
    capacity: usize,
    out_len: *mut usize,
) -> Res<()> {
    let n = flat.len() / dim;
    // SAFETY: checked by `start_len`.
    unsafe { *out_len = n };
    if n > capacity {
        return Err(Fail::new(
            PsStatus::PsBufferTooSmall,
            format!(
                "the buffer holds {capacity} points but {n} are needed (kept: retry with the same input and a buffer of {n})"
            ),
        ));
    }
    if n > 0 {
        // SAFETY: `out` was checked non-NULL and aligned (capacity ≥ n > 0) and holds
        // `capacity · dim` elements; `copy` allows it to overlap the input.
        unsafe { std::ptr::copy(flat.as_ptr(), out, flat.len()) };
    }
    Ok(())
}

/// Flattens points to their coordinates (glam's vectors are `repr(C)` of their fields).
fn flat2<T: Flat>(points: &[T]) -> &[T::Scalar] {
    // SAFETY: `DVec2` and `Vec2` are `#[repr(C)]` structs of two scalars, no padding.
    unsafe { std::slice::from_raw_parts(points.as_ptr().cast::<T::Scalar>(), points.len() * 2) }
}

fn flat3(points: &[DVec3]) -> &[f64] {
    // SAFETY: `DVec3` is a `#[repr(C)]` struct of three `f64`, no padding.
    unsafe { std::slice::from_raw_parts(points.as_ptr().cast::<f64>(), points.len() * 3) }
}

/// The pipeline's 2D doors, over any world type.
/// What the 2D doors need of a point type: its buffer in the pipeline and its keys.
trait Flat: Point2 + Copy {
    /// The pipeline's output buffer of this type, beside the runner.
    fn parts(p: &mut PipelineData) -> (&mut AnyPipeline, &mut Vec<Self>);
    /// The key of a plan from `s` to `g`.
    fn plan_key(s: Self, g: Self) -> Key;
    /// The key of a smooth of `flat`.
    fn smooth_key(flat: &[Self::Scalar]) -> Key;
    /// Whether `key` is a smooth of exactly `flat`.
    fn same_smooth(key: &Key, flat: &[Self::Scalar]) -> bool;
    /// The point at `(x, y)`.
    fn at(x: Self::Scalar, y: Self::Scalar) -> Self;
}

/// The two impls differ only in names (the buffer, the key variants, the scalar), which a
/// generic cannot pick: one macro writes both, so the keys of `double` and `float` calls
/// cannot drift apart.
macro_rules! impl_flat {
    ($point:ident, $scalar:ty, $out:ident, $plan:ident, $smooth:ident) => {
        impl Flat for $point {
            fn parts(p: &mut PipelineData) -> (&mut AnyPipeline, &mut Vec<Self>) {
                (&mut p.runner, &mut p.$out)
            }
            fn plan_key(s: Self, g: Self) -> Key {
                Key::$plan([s.x, s.y, g.x, g.y].map(<$scalar>::to_bits))
            }
            fn smooth_key(flat: &[$scalar]) -> Key {
                Key::$smooth(flat.iter().map(|x| x.to_bits()).collect())
            }
            fn same_smooth(key: &Key, flat: &[$scalar]) -> bool {
                matches!(key, Key::$smooth(bits) if bits.len() == flat.len()
                    && bits.iter().zip(flat).all(|(b, x)| *b == x.to_bits()))
            }
            fn at(x: $scalar, y: $scalar) -> Self {
                $point::new(x, y)
            }
        }
    };
}

impl_flat!(DVec2, f64, out64, Plan64, Smooth64);
impl_flat!(Vec2, f32, out32, Plan32, Smooth32);

/// Runs a 2D job on the pipeline's world into the point type's buffer.
fn run2<P: Flat>(
    p: &mut PipelineData,
    job: impl FnOnce(&mut AnyPipeline, &mut Vec<P>) -> pathsmooth::Result<()>,
) -> Res<()> {
    let (runner, out) = P::parts(p);
    Ok(job(runner, out)?)
}

/// A caller's buffer for 2D points (`points`, room for `capacity` points) and its
/// length (`len`): one value, so that `plan2` and `smooth2` check and fill it alike.
struct Out2<S> {
    points: *mut S,
    capacity: usize,
    len: *mut usize,
}

impl<S> Out2<S> {
    fn new(points: *mut S, capacity: usize, len: *mut usize) -> Self {
        Out2 {
            points,
            capacity,
            len,
        }
    }

    /// The checks before any work: `*len` is set to 0 first, so every failure leaves 0.
    fn start(&self) -> Res<()> {
        start_list(self.points, self.capacity, "out_points", self.len)
    }
}

/// Copies the pipeline's 2D result out; when it does not fit, keeps `key()` so that the
/// retry with a larger buffer copies it out without recomputing.
fn deliver2<P: Flat>(
    p: &mut PipelineData,
    key: impl FnOnce() -> Key,
    out: Out2<P::Scalar>,
) -> Res<()> {
    let r = deliver(flat2(P::parts(p).1), 2, out.points, out.capacity, out.len);
    if matches!(&r, Err(f) if f.status == PsStatus::PsBufferTooSmall) {
        p.kept = Some(key());
    }
    r
}

/// The body of `ps_pipeline_plan_f64` / `_f32`.
fn plan2<P: Flat>(pipeline: *mut PsPipeline, start: P, goal: P, out: Out2<P::Scalar>) -> Res<()> {
    out.start()?;
    let p = pipeline_mut(pipeline)?;
    let key = P::plan_key(start, goal);
    if p.kept.take().as_ref() != Some(&key) {
        run2(p, |r, out| r.plan_into(start, goal, out))?;
    }
    deliver2::<P>(p, || key, out)
}

/// The body of `ps_pipeline_smooth_f64` / `_f32`.
fn smooth2<P: Flat>(
    pipeline: *mut PsPipeline,
    in_points: *const P::Scalar,
    n: usize,
    out: Out2<P::Scalar>,
) -> Res<()> {
    out.start()?;
    let p = pipeline_mut(pipeline)?;
    let kept = p.kept.take();
    if n == 0 {
        return Err(Fail::from(Error::EmptyPath));
    }
    // SAFETY: the caller's length; the points are read before the output is written.
    let flat = unsafe { input(in_points, n, 2, "in_points")? };
    let same = kept.is_some_and(|k| P::same_smooth(&k, flat));
    if !same {
        // A glam vector is `#[repr(C)]` of two scalars: the input is a slice of points
        // as it is (no copy).
        // SAFETY: same layout and alignment as two scalars; `n` points.
        let points: &[P] = unsafe { std::slice::from_raw_parts(flat.as_ptr().cast::<P>(), n) };
        run2(p, |r, out| r.smooth_into(points, out))?;
    }
    deliver2::<P>(p, || P::smooth_key(flat), out)
}

/// Plans a path from `start` to `goal` (world units) on the pipeline's grid or navmesh
/// world for its radius, then runs its steps (`double` points): the library's
/// `Pipeline::plan`.
///
/// The result goes into `out_points` (x then y for each point, `out_capacity` points of
/// room; NULL only with capacity 0) and its number of points into `*out_len`. When it
/// does not fit: `PS_BUFFER_TOO_SMALL`, the needed number in `*out_len`, and the result
/// kept, so a call with the same start and goal (bit for bit) and a large enough buffer
/// copies it out without recomputing. Any other call on the pipeline drops the kept
/// result.
///
/// Errors: `PS_NULL_POINTER`, `PS_MISALIGNED`, `PS_WRONG_HANDLE`, `PS_INVALID_ARGUMENT`
/// (NaN or infinite coordinates), `PS_OUTSIDE_WORLD` (an end outside the world or in a
/// wall; on a surface world, an end over no floor), `PS_NO_PATH`, `PS_BUFFER_TOO_SMALL`;
/// on a surface world (a navmesh world is one too), where each end is located on the one
/// floor under it and the path returned in plan view: `PS_INVALID_ARGUMENT` for an end
/// over floors farther apart than the climb, `PS_UNSUPPORTED` for a way over off-mesh
/// links (3D ends, [`ps_pipeline_plan3_f64`], keep them).
///
/// # Safety
///
/// `pipeline` a live pipeline handle used by no other thread now; `out_points` writable
/// for `out_capacity · 2` numbers; `out_len` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_plan_f64(
    pipeline: *mut PsPipeline,
    start: PsPoint2d,
    goal: PsPoint2d,
    out_points: *mut f64,
    out_capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    let out = Out2::new(out_points, out_capacity, out_len);
    let (s, g) = (DVec2::at(start.x, start.y), DVec2::at(goal.x, goal.y));
    guard(|| plan2(pipeline, s, g, out))
}

/// [`ps_pipeline_plan_f64`] with `float` points: computed in `double`, valid for the
/// radius once rounded to `float`.
///
/// # Safety
///
/// As [`ps_pipeline_plan_f64`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_plan_f32(
    pipeline: *mut PsPipeline,
    start: PsPoint2f,
    goal: PsPoint2f,
    out_points: *mut f32,
    out_capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    let out = Out2::new(out_points, out_capacity, out_len);
    let (s, g) = (Vec2::at(start.x, start.y), Vec2::at(goal.x, goal.y));
    guard(|| plan2(pipeline, s, g, out))
}

/// Smooths a caller's path (`double` points, world units) into a path valid on the
/// pipeline's world for its radius: the library's `Pipeline::smooth` (an input that comes
/// closer than the radius to a wall is re-planned there first). On a surface world with
/// floors over one another, on the sheet of the pipeline's last plan (the one-floor piece
/// of the surface round its path); a surface of one floor (a navmesh world's) is its own
/// sheet.
///
/// `in_points` holds `n` points (x then y each); the result is written as for
/// [`ps_pipeline_plan_f64`] (the same buffer rules; `PS_BUFFER_TOO_SMALL` keeps the result
/// for a retry with the same input, bit for bit). `out_points` may be the input buffer.
///
/// Errors: `PS_NULL_POINTER`, `PS_MISALIGNED`, `PS_WRONG_HANDLE`, `PS_INVALID_ARGUMENT`
/// (`n` = 0, with `in_points` NULL or not; NaN or infinite coordinates, the message
/// naming the point),
/// `PS_OUTSIDE_WORLD`, `PS_NO_PATH` (an invalid input that cannot be re-planned),
/// `PS_UNSUPPORTED` (a surface world with floors over one another before any plan),
/// `PS_BUFFER_TOO_SMALL`.
///
/// # Safety
///
/// `in_points` readable for `n · 2` numbers; otherwise as [`ps_pipeline_plan_f64`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_smooth_f64(
    pipeline: *mut PsPipeline,
    in_points: *const f64,
    n: usize,
    out_points: *mut f64,
    out_capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    let out = Out2::new(out_points, out_capacity, out_len);
    guard(|| smooth2::<DVec2>(pipeline, in_points, n, out))
}

/// [`ps_pipeline_smooth_f64`] with `float` points: computed in `double`, valid for the
/// radius once rounded to `float`.
///
/// # Safety
///
/// As [`ps_pipeline_smooth_f64`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_smooth_f32(
    pipeline: *mut PsPipeline,
    in_points: *const f32,
    n: usize,
    out_points: *mut f32,
    out_capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    let out = Out2::new(out_points, out_capacity, out_len);
    guard(|| smooth2::<Vec2>(pipeline, in_points, n, out))
}

/// Plans on a surface world (made by `ps_world_surface_*`, or a navmesh world's surface
/// of one floor, z up at height 0): from `start` to `goal` (3D)
/// for the pipeline's radius, the steps run on the path's floor; the library's
/// `Pipeline::plan_surface`. An end over a polygon within the climb of its floor
/// ([`ps_pipeline_set_climb`]) keeps its plan-view position exactly; one off the surface
/// is moved onto it (the report's `start_snapped`, `goal_snapped`). Writes x, y, z per
/// point into `out_points` and, when `out_polygons` is not NULL, each point's polygon of
/// the surface into `out_polygons` (room for `out_capacity` too; the input's index, or the
/// file's reference, is [`ps_world_surface_polygon_ref`]). Buffer rules as
/// [`ps_pipeline_plan_f64`].
///
/// Errors: as [`ps_pipeline_plan_f64`]; `PS_OUTSIDE_WORLD` for no floor near an end,
/// `PS_UNSUPPORTED` on a grid world.
///
/// # Safety
///
/// `out_points` writable for `out_capacity · 3` numbers, `out_polygons` NULL or writable
/// for `out_capacity`; otherwise as [`ps_pipeline_plan_f64`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_plan3_f64(
    pipeline: *mut PsPipeline,
    start: PsPoint3d,
    goal: PsPoint3d,
    out_points: *mut f64,
    out_polygons: *mut u32,
    out_capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    guard(|| {
        start_list(out_points, out_capacity, "out_points", out_len)?;
        if !out_polygons.is_null() {
            check_ptr(out_polygons, "out_polygons")?;
        }
        let p = pipeline_mut(pipeline)?;
        let key = Key::Plan3([start.x, start.y, start.z, goal.x, goal.y, goal.z].map(f64::to_bits));
        if p.kept.take().as_ref() != Some(&key) {
            let Some(planner) = p.runner.navmesh_mut() else {
                return Err(Fail::new(
                    PsStatus::PsUnsupported,
                    "ps_pipeline_plan3_f64 needs a surface world (ps_world_surface_new); use ps_pipeline_plan_f64",
                ));
            };
            let (s, g) = (
                DVec3::new(start.x, start.y, start.z),
                DVec3::new(goal.x, goal.y, goal.z),
            );
            p.out3.clear();
            p.polygons3.clear();
            for sp in planner.plan_surface(s, g)? {
                p.out3.push(sp.position);
                p.polygons3.push(sp.polygon);
            }
        }
        let r = deliver(flat3(&p.out3), 3, out_points, out_capacity, out_len);
        match &r {
            Err(f) if f.status == PsStatus::PsBufferTooSmall => p.kept = Some(key),
            Ok(_) if !out_polygons.is_null() && !p.polygons3.is_empty() => {
                // SAFETY: checked non-NULL and aligned, `out_capacity` ≥ the points.
                unsafe { std::ptr::copy(p.polygons3.as_ptr(), out_polygons, p.polygons3.len()) }
            }
            _ => {}
        }
        r
    })
}

/// Sets how far above or below a floor the ends of a surface pipeline's plans may be and
/// still be on it (world units, finite, ≥ 0; the library's `SurfaceQuery::set_climb`):
/// an end over a polygon within the climb of its floor keeps its plan-view position
/// exactly, one farther off is moved onto the surface (the report's `start_snapped`,
/// `goal_snapped`). Until set, the world's ([`ps_world_surface_climb`]). Drops a result
/// kept after `PS_BUFFER_TOO_SMALL`.
///
/// Errors (messages start with `ps_pipeline_set_climb:`): the handle errors,
/// `PS_INVALID_ARGUMENT` for a negative, NaN or infinite climb, `PS_UNSUPPORTED` on a grid
/// world.
///
/// # Safety
///
/// `pipeline` a live pipeline handle used by no other thread now.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_set_climb(pipeline: *mut PsPipeline, climb: f64) -> PsStatus {
    guard_named("ps_pipeline_set_climb", || {
        let p = pipeline_mut(pipeline)?;
        let Some(planner) = p.runner.navmesh_mut() else {
            return Err(Fail::new(
                PsStatus::PsUnsupported,
                "a climb needs a surface world (ps_world_surface_* or ps_world_navmesh_*), not \
                 a grid",
            ));
        };
        planner.surface_query_mut().set_climb(climb)?;
        p.kept = None;
        Ok(())
    })
}

/// What the last run of a pipeline did ([`ps_pipeline_report`]).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PsReport {
    /// The smallest clearance of the returned path (world units; ≥ the radius).
    pub min_clearance: f64,
    /// The path's length, world units.
    pub length: f64,
    /// The largest turn at a vertex, radians.
    pub max_turn: f64,
    /// The sum of the turns, radians.
    pub total_turn: f64,
    /// The input segments re-planned before smoothing (invalid for the radius).
    pub repaired_segments: usize,
    /// How many steps did not take effect ([`ps_pipeline_skipped`] gives each reason).
    pub skipped_count: usize,
    /// The corners a fillet step could not give its turning radius.
    pub corners_below_turn_radius: usize,
    /// The cost of the steps' input under the world's area costs (its length without).
    pub input_cost: f64,
    /// The cost of the returned path; never above `input_cost` (relative 10⁻⁹).
    pub cost: f64,
    /// The path's length in plan view (on a surface; `length` is then its 3D length along
    /// the surface). Equal to `length` on a grid or navmesh.
    pub plan_length: f64,
    /// How far (plan view, world units) the start was moved onto the surface because it
    /// was off it; 0 when it was on it (a point over a polygon within the climb of its
    /// floor keeps its plan-view position exactly) and on grids and navmeshes.
    pub start_snapped: f64,
    /// As `start_snapped`, for the goal.
    pub goal_snapped: f64,
}

/// How far the report says the end `which` ("start" or "goal") was moved, or 0.
fn snapped(r: &PipelineReport, which: &str) -> f64 {
    r.snapped
        .iter()
        .find(|(end, _)| *end == which)
        .map_or(0.0, |&(_, d)| d)
}

impl From<&PipelineReport> for PsReport {
    fn from(r: &PipelineReport) -> Self {
        let v = &r.validation;
        PsReport {
            min_clearance: v.min_clearance,
            length: v.length,
            max_turn: v.max_turn,
            total_turn: v.total_turn,
            repaired_segments: r.repaired_segments,
            skipped_count: r.skipped.len(),
            corners_below_turn_radius: r.corners.len(),
            input_cost: r.input_cost,
            cost: r.cost,
            plan_length: r.plan_length,
            start_snapped: snapped(r, "start"),
            goal_snapped: snapped(r, "goal"),
        }
    }
}

fn report_of(p: &PipelineData) -> &PipelineReport {
    p.runner.report()
}

/// Fills `*out_report` with what the last run (plan or smooth) of the pipeline did
/// (all zero before the first; the last run's if it failed). A retry served from a kept
/// result keeps the report of the run that made it.
///
/// # Safety
///
/// `pipeline` a live pipeline handle; `out_report` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_report(
    pipeline: *mut PsPipeline,
    out_report: *mut PsReport,
) -> PsStatus {
    guard(|| {
        write_out(out_report, "out_report", || {
            Ok(report_of(pipeline_mut(pipeline)?).into())
        })
    })
}

/// Writes the `index`-th skipped step of the last run as `"step: reason"` (UTF-8,
/// NUL-terminated, cut at `capacity − 1` bytes) into `buf`, its full length in bytes into
/// `*out_len` (`buf` may be NULL with capacity 0, to ask for the length; a cut message is
/// not an error).
///
/// Errors: `PS_INVALID_ARGUMENT` for an index ≥ the report's `skipped_count`, and the
/// pointer and handle errors.
///
/// # Safety
///
/// `buf` NULL or writable for `capacity` bytes; `out_len` writable; `pipeline` live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ps_pipeline_skipped(
    pipeline: *mut PsPipeline,
    index: usize,
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> PsStatus {
    guard(|| {
        start_list(buf, capacity, "buf", out_len)?;
        let r = report_of(pipeline_mut(pipeline)?);
        let Some((step, why)) = r.skipped.get(index) else {
            return Err(Fail::new(
                PsStatus::PsInvalidArgument,
                format!(
                    "`index` = {index}: the last run skipped {} steps",
                    r.skipped.len()
                ),
            ));
        };
        write_text(&format!("{step}: {why}"), buf, capacity, out_len);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_caught_and_reported() {
        let status = guard(|| panic!("boom"));
        assert_eq!(status, PsStatus::PsPanic);
        let mut buf = [0 as c_char; 128];
        // SAFETY: a 128-byte buffer.
        let n = unsafe { ps_last_error(buf.as_mut_ptr(), buf.len()) };
        let text = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
            .to_str()
            .unwrap();
        assert_eq!(n, text.len());
        assert!(text.contains("panic") && text.contains("boom"), "{text}");
        assert_eq!(guard(|| Ok(())), PsStatus::PsOk);
        assert_eq!(unsafe { ps_last_error(std::ptr::null_mut(), 0) }, 0);
    }

    #[test]
    fn a_retry_after_buffer_too_small_copies_the_kept_result_without_recomputing() {
        let free = [1u8; 16];
        let mut world = std::ptr::null_mut();
        let mut pipeline = std::ptr::null_mut();
        let (s, g) = (PsPoint2d { x: 0.5, y: 0.5 }, PsPoint2d { x: 3.5, y: 3.5 });
        let mut len = 0;
        let mut out = [0.0; 8];
        unsafe {
            assert_eq!(
                ps_world_grid_new(free.as_ptr(), 4, 4, 1.0, 0.0, 0.0, &mut world),
                PsStatus::PsOk
            );
            assert_eq!(
                ps_pipeline_new_preset(world, PS_PRESET_SHORTEST, 0.0, &mut pipeline),
                PsStatus::PsOk
            );
            let st = ps_pipeline_plan_f64(pipeline, s, g, std::ptr::null_mut(), 0, &mut len);
            assert_eq!((st, len), (PsStatus::PsBufferTooSmall, 2));
            // Mark the kept result: a recomputed path would not have the mark.
            pipeline_mut(pipeline).unwrap().out64[1].x = 42.0;
            let st = ps_pipeline_plan_f64(pipeline, s, g, out.as_mut_ptr(), 4, &mut len);
            assert_eq!((st, len, out[2]), (PsStatus::PsOk, 2, 42.0));
            // The kept result is used once: the next call computes.
            let st = ps_pipeline_plan_f64(pipeline, s, g, out.as_mut_ptr(), 4, &mut len);
            assert_eq!((st, len, out[2]), (PsStatus::PsOk, 2, 3.5));
            // A different input after too small computes.
            ps_pipeline_plan_f64(pipeline, s, g, std::ptr::null_mut(), 0, &mut len);
            pipeline_mut(pipeline).unwrap().out64[1].x = 42.0;
            let g2 = PsPoint2d { x: 3.5, y: 2.5 };
            let st = ps_pipeline_plan_f64(pipeline, s, g2, out.as_mut_ptr(), 4, &mut len);
            assert_eq!((st, out[2], out[3]), (PsStatus::PsOk, 3.5, 2.5));
            ps_pipeline_destroy(pipeline);
            ps_world_destroy(world);
        }
    }

    #[test]
    fn status_names_match_the_codes() {
        for (s, name) in [
            (PsStatus::PsOk, "PS_OK"),
            (PsStatus::PsBufferTooSmall, "PS_BUFFER_TOO_SMALL"),
            (PsStatus::PsPanic, "PS_PANIC"),
        ] {
            let got = unsafe { std::ffi::CStr::from_ptr(ps_status_name(s as i32)) };
            assert_eq!(got.to_str().unwrap(), name);
        }
        let got = unsafe { std::ffi::CStr::from_ptr(ps_status_name(99)) };
        assert_eq!(got.to_str().unwrap(), "PS_UNKNOWN_STATUS");
    }
}
