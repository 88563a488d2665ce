//! Corridors of clearance disks and the convex path optimiser (Langerak, Game AI Pro 3,
//! ch. 20, solved with Chambolle–Pock or ADMM).

pub mod admm;
pub mod disks;
pub mod graph;
mod on_grid;
pub mod operators;
pub mod optimize;
pub mod problem;
pub mod smooth;
