//! mink's workspace-level integration tests live in `tests/`.
