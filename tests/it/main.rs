//! The integration test binary: one module per area.

mod cli;
mod coverage;
mod export;
mod helpers;
mod sandbox;
mod store;
mod verify;
