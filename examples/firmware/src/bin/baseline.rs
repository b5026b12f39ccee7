//! The baseline firmware: the same runtime, semihosting output and exit as
//! the real one, and no query. The flash size of the queries is the real
//! firmware's minus this one's.

#![no_std]
#![no_main]

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};

#[entry]
fn main() -> ! {
    let n = core::hint::black_box(0u32);
    hprintln!("baseline|{}|{}", n, i64::from(n));
    debug::exit(debug::EXIT_SUCCESS);
    halt()
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    hprintln!("baseline: panic");
    debug::exit(debug::EXIT_FAILURE);
    halt()
}

/// Waits forever (reached only without a semihosting host).
fn halt() -> ! {
    loop {
        cortex_m::asm::wfi();
    }
}
