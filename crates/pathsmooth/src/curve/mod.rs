//! Dimension-free smoothing: corner cutting, splines, resampling and path variations.
//! They know nothing of walls; see [`map_safe`](mod@crate::map_safe) for forms that never enter one and
//! [`crate::validate`] for the checks.
//!
//! The most used entry points are re-exported here:
//!
//! ```
//! use glam::DVec2;
//! use pathsmooth::curve::{catmull_rom, chaikin, resample, CatmullRomParams, ChaikinParams};
//! let path = [DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0)];
//! let cut = chaikin(&path, &ChaikinParams::default())?;
//! let spline = catmull_rom(&path, &CatmullRomParams::centripetal(8))?;
//! let even = resample(&spline, 0.5)?;
//! assert_eq!((cut.len(), spline.len()), ((3 - 2) * 16 + 2, 2 * 8 + 1));
//! assert!(even.windows(2).all(|w| w[0].distance(w[1]) <= 0.5 + 1e-9));
//! # Ok::<(), pathsmooth::Error>(())
//! ```

pub mod catmull_rom;
pub mod chaikin;
pub mod exact;
pub mod resample;
pub mod variations;

pub use catmull_rom::{catmull_rom, catmull_rom_into, CatmullRom, CatmullRomParams, Ends};
pub use chaikin::{
    chaikin, chaikin_adaptive, chaikin_in_place, chaikin_into, chaikin_output_len, AdaptiveChaikin,
    AdaptiveParams, ChaikinParams,
};
pub use resample::{resample, resample_into};
