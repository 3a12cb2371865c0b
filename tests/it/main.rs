//! The integration test binary: one module per area.

mod sandbox;
