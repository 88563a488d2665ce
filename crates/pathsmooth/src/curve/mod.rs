//! Dimension-free smoothing: corner cutting, splines, resampling and path variations.
//! They know nothing of walls; see [`crate::validate`] and the map-safe forms for that.

pub mod catmull_rom;
pub mod chaikin;
pub mod resample;
pub mod variations;
