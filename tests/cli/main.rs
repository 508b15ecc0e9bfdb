//! The integration tests: one binary driving the built `judge`.

mod verify;
