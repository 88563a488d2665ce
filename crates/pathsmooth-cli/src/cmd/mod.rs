//! One module per subcommand.

pub mod bench;
pub mod demo;
pub mod follow;
pub mod optimize;
pub mod plan;
pub mod serve;
pub mod smooth;
