//! Neither side of the benchmark allocates in its timed loop: after one warm-up pass over
//! the pairs, a second pass of Detour's `query_raw` and of pathsmooth's reused
//! `SurfaceQuery::find_path` makes no heap allocation (counted by a global allocator).

use detour_peer::{dvec3, Bake, DetourMesh, PathsmoothMesh, MAX_PATH};
use recastnavigation_sys::dtPolyRef;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
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
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            for &(s, g) in &pairs {
                std::hint::black_box(detour.query_raw(
                    &centroids[s],
                    &centroids[g],
                    &mut corridor,
                    &mut straight,
                ));
            }
            let mid = ALLOCATIONS.load(Ordering::Relaxed);
            for &(s, g) in &ends {
                std::hint::black_box(query.find_path(&ours.mesh, s, g, 0.0).unwrap().len());
            }
            let after = ALLOCATIONS.load(Ordering::Relaxed);
            if pass == 1 {
                count = [mid - before, after - mid];
            }
        }
        assert_eq!(count, [0, 0], "{name}: allocations (Detour, pathsmooth)");
    }
}
