//! Neither side of the benchmarks allocates in its timed loop: after one warm-up pass over
//! the pairs, a second pass of Detour's `query_raw` and of pathsmooth's reused
//! `SurfaceQuery::find_path` makes no heap allocation (counted by a global allocator); the
//! same for the corpus comparison's loops (`Case::detour_query`, `Case::pathsmooth_query`)
//! on every file of the corpus — except pathsmooth's on a surface with off-mesh links,
//! whose link router allocates (about 2.5 allocations a query on
//! `detour/dungeon.all_tiles_navmesh.bin`, 2026-12: the library's, reported in
//! `docs/detour-peer.md`), which the test prints and checks is the only exception.

use detour_peer::corpus::{manifest, Case, PAIRS};
use detour_peer::{dvec3, Bake, DetourMesh, PathsmoothMesh, MAX_NODES, MAX_PATH};
use recastnavigation_sys::dtPolyRef;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// This thread's allocations (the tests run on threads of their own).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

fn count() {
    // `try_with`: the thread's slot may be gone while it exits.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../crates/pathsmooth/tests/data/navmesh/"
);

#[test]
fn timed_loops_do_not_allocate() {
    for name in ["dungeon", "nav_test"] {
        let file = format!("{DATA}{name}.navmesh.json");
        let bake = Bake::load(&file).unwrap();
        let detour = DetourMesh::from_bake(&bake).unwrap();
        let ours = PathsmoothMesh::load(&file).unwrap();
        let centroids = bake.centroids();
        let pairs = bake.connected_pairs();
        let ends: Vec<_> = pairs
            .iter()
            .map(|&(s, g)| (dvec3(&centroids[s]), dvec3(&centroids[g])))
            .collect();
        let mut corridor = Box::new([0 as dtPolyRef; MAX_PATH]);
        let mut straight = Box::new([0.0f32; 3 * MAX_PATH]);
        let mut query = ours.new_query();
        let mut count = [0usize; 2];
        for pass in 0..2 {
            let before = allocations();
            for &(s, g) in &pairs {
                std::hint::black_box(detour.query_raw(
                    &centroids[s],
                    &centroids[g],
                    &mut corridor,
                    &mut straight,
                ));
            }
            let mid = allocations();
            for &(s, g) in &ends {
                std::hint::black_box(query.find_path(&ours.mesh, s, g, 0.0).unwrap().len());
            }
            let after = allocations();
            if pass == 1 {
                count = [mid - before, after - mid];
            }
        }
        assert_eq!(count, [0, 0], "{name}: allocations (Detour, pathsmooth)");
    }
}

#[test]
fn corpus_loops_do_not_allocate() {
    for e in manifest("") {
        let mut case = match Case::new(&e, PAIRS, MAX_NODES) {
            Ok(case) => case,
            // A set of the other width is the other build's (see `tests/corpus.rs`).
            Err(err) if err.contains("refs of the other width") => continue,
            Err(err) => panic!("{err}"),
        };
        let n = case.pairs.len();
        let mut count = [0usize; 2];
        for pass in 0..2 {
            let before = allocations();
            for i in 0..n {
                std::hint::black_box(case.detour_query(i));
            }
            let mid = allocations();
            for i in 0..n {
                std::hint::black_box(case.pathsmooth_query(i));
            }
            let after = allocations();
            if pass == 1 {
                count = [mid - before, after - mid];
            }
        }
        let links = case.mesh.surface().links().len();
        println!(
            "{}: allocations in the second pass (Detour, pathsmooth): {count:?}, links {links}",
            e.file
        );
        assert_eq!(count[0], 0, "{}: Detour allocates", e.file);
        if links == 0 {
            assert_eq!(count[1], 0, "{}: pathsmooth allocates", e.file);
        }
    }
}
