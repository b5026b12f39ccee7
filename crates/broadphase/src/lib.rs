//! Placeholder crate docs.
#![no_std]
