//! The sandbox against hostile programs.
