//! The baseline firmware: the same runtime, harness and report as the real
//! one (`src/probe.rs`: the instruction counter and its calibration, the
//! stack paint, a result line, the exit and the panic handler), and no
//! query. The flash size of the queries is the real firmware's minus this
//! one's.

#![no_std]
#![no_main]

#[path = "../probe.rs"]
mod probe;

use cortex_m_rt::entry;
use probe::Probe;

#[entry]
fn main() -> ! {
    let (mut probe, exact) = Probe::calibrated();
    // One measurement of nothing, reported like a query.
    probe::empty(&mut probe);
    let value = core::hint::black_box(0.0f32);
    probe.report("baseline", "", value, value, value, exact);
    probe::finish(u32::from(!exact))
}
