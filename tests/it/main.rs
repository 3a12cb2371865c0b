//! The integration test binary: one module per area.

mod boundaries;
mod cli;
mod export;
mod helpers;
mod sandbox;
mod server;
mod store;
mod verify;
