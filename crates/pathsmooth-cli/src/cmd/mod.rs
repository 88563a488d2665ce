//! One module per subcommand.

pub mod bench;
pub mod demo;
pub mod follow;
pub mod plan;
pub mod smooth;
