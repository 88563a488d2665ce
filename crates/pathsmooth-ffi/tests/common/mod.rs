//! What the Rust tests of the C ABI (`abi.rs`, `crowd.rs`) share: reading the last error
//! as C would, asserting a status with its message, and the L-shaped navmesh both plan on.

use std::ffi::{c_char, CStr};

use pathsmooth_ffi::{ps_last_error, PsPoint2d, PsStatus};

/// The thread's last error message (empty after a success), as a C caller reads it.
pub fn last_error() -> String {
    let mut buf = [0 as c_char; 1024];
    // SAFETY: a 1024-byte buffer.
    unsafe { ps_last_error(buf.as_mut_ptr(), buf.len()) };
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// Asserts the status and that the message holds `words`.
#[track_caller]
pub fn expect(status: PsStatus, want: PsStatus, words: &str) {
    let message = last_error();
    assert_eq!(status, want, "message: {message}");
    assert!(message.contains(words), "{message:?} lacks {words:?}");
}

pub fn pt(x: f64, y: f64) -> PsPoint2d {
    PsPoint2d { x, y }
}

/// Two squares of side `scale` side by side, then a third above the right one (an L), as
/// `ps_world_navmesh_new` takes them: the vertices (x then y each), the polygons' vertex
/// indices one after another, and each polygon's number of vertices.
pub fn l_navmesh(scale: f64) -> (Vec<f64>, Vec<u32>, Vec<u32>) {
    let v = [
        (0.0, 0.0),
        (1.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (0.0, 1.0),
        (2.0, 2.0),
        (1.0, 2.0),
    ];
    let xy = v
        .iter()
        .flat_map(|&(x, y)| [scale * x, scale * y])
        .collect();
    (xy, vec![0, 1, 4, 5, 1, 2, 3, 4, 4, 3, 6, 7], vec![4, 4, 4])
}
