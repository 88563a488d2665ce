//! Steady-state following allocates nothing: a counting global allocator watches
//! `Follower::step`, a recompute into a warm `SpeedProfile` and `samples_into` a warm buffer.
//! (A separate test binary, so no other test's allocations are counted.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::DVec2;
use pathsmooth::follow::{Agent, Follower, SpeedProfile};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

fn zigzag(n: usize) -> Vec<DVec2> {
    (0..n)
        .map(|i| DVec2::new(i as f64, if i % 2 == 0 { 0.0 } else { 1.5 }))
        .collect()
}

// One test function: the harness runs tests on threads, and another test's allocations
// would be counted.
#[test]
fn steady_state_following_does_not_allocate() {
    let path = zigzag(200);
    let agent = Agent::default();

    let mut follower = Follower::new(agent).unwrap();
    follower.set_path(&path).unwrap();
    let steps = allocations_during(|| {
        for _ in 0..2000 {
            follower.step(1.0 / 60.0).unwrap();
        }
    });
    assert!(follower.state().time > 30.0);
    assert_eq!(steps, 0, "Follower::step allocated");

    // Setting a path no longer than the last one reuses the follower's buffers.
    let again = allocations_during(|| follower.set_path(&path[..150]).unwrap());
    assert_eq!(again, 0, "Follower::set_path allocated");

    let mut profile = SpeedProfile::new();
    profile.compute(&path, &agent).unwrap();
    let recompute = allocations_during(|| profile.compute(&path, &agent).unwrap());
    assert_eq!(recompute, 0, "SpeedProfile::compute allocated");

    let mut out = Vec::new();
    profile.samples_into(30.0, &mut out).unwrap();
    let resample = allocations_during(|| profile.samples_into(30.0, &mut out).unwrap());
    assert_eq!(resample, 0, "samples_into allocated");
}
