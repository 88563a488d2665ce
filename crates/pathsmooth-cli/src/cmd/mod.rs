//! One module per subcommand.

#[cfg(feature = "bake")]
pub mod bake;
pub mod bench;
pub mod crowd;
pub mod demo;
pub mod follow;
pub mod optimize;
pub mod plan;
pub mod serve;
pub mod smooth;
