//! The no-std probe: a bare-metal binary (`#![no_std]`, `#![no_main]`, its
//! own panic handler, no global allocator) that calls the core API of every
//! mink library crate, with default features off. If any of them pulled in
//! `std` or `alloc`, this would not link: `std` does not exist for the
//! bare-metal targets, and `alloc` needs a global allocator the probe does
//! not have.
//!
//! Each crate's calls live in its own module with one `exercise` function;
//! new API joins there. Inputs and results go through
//! [`core::hint::black_box`] so the optimizer keeps every call. The binary is
//! linked by `cargo xtask no-std`, never run.
#![no_std]
#![no_main]

mod broadphase;
mod field;
mod gjk;
mod islands;
mod mpr;
mod sat;
mod sdf;
mod support;
mod umbrella;

/// The entry point named in `link.x`: calls every crate's core API, then
/// parks.
#[no_mangle]
pub extern "C" fn _start() -> ! {
    support::exercise::<f32>();
    support::exercise::<f64>();
    field::exercise();
    gjk::exercise();
    mpr::exercise();
    sat::exercise();
    broadphase::exercise();
    islands::exercise();
    sdf::exercise();
    umbrella::exercise();
    loop {
        core::hint::spin_loop();
    }
}

/// A panic parks the core: there is no `std` to unwind or print.
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}
