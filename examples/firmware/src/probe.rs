//! The measuring and reporting harness, shared by the firmware and the
//! `baseline` binary so that its code cancels out of the flash difference:
//! SysTick as an instruction counter, stack painting, the calibration,
//! the report lines over semihosting, the exit and the panic handler.

use core::arch::asm;
use core::ptr::{read_volatile, write_volatile};
use cortex_m_semihosting::{debug, hprintln};

/// Virtual nanoseconds per instruction under `-icount shift=8` (2⁸): QEMU
/// then advances its virtual clock by exactly this much per instruction.
/// SysTick runs from the 25 MHz processor clock (40 ns per tick), so with
/// `shift=0` a tick would be 40 instructions; with `shift=8` an instruction
/// is 6.4 ticks and `ticks × 40 / 256`, rounded, is the exact count. The
/// firmware checks it on a loop of known length at start-up.
const INSTRUCTION_NS: u32 = 256;
/// SysTick period on mps2-an386 (25 MHz processor clock), nanoseconds.
const SYSTICK_NS: u32 = 40;
/// SysTick's current value register.
const SYST_CVR: *mut u32 = 0xE000_E018 as *mut u32;
/// SysTick's control register.
const SYST_CSR: *mut u32 = 0xE000_E010 as *mut u32;
/// SysTick's reload value register.
const SYST_RVR: *mut u32 = 0xE000_E014 as *mut u32;
/// SysTick counts 24 bits.
const SYSTICK_MASK: u32 = 0x00FF_FFFF;

/// How far a count may be from the truth, instructions: the probe's own
/// instructions differ by one or two between call sites (register moves),
/// and are subtracted as measured at one of them.
const COUNT_UNCERTAINTY: u32 = 2;

/// Bytes of stack painted below the caller of each query.
const PAINT_BYTES: usize = 16 * 1024;
/// The paint.
const PAINT: u32 = 0xC0DE_F00D;

/// Iterations of the calibration loop.
const CALIBRATION_LOOPS: u32 = 250;
/// Instructions the calibration loop executes: one `movs`, then a `subs`
/// and a `bne` per iteration (Thumb-1 forms, so it builds for the M0 too).
const CALIBRATION_INSTRUCTIONS: u32 = 1 + 2 * CALIBRATION_LOOPS;

/// Measures one query: instructions (SysTick ticks converted) and stack
/// (the lowest painted word overwritten below the caller's stack pointer).
pub struct Probe {
    /// SysTick value at `start`.
    t0: u32,
    /// Stack pointer at `start`.
    sp: usize,
    /// SysTick ticks of the last measurement.
    ticks: u32,
    /// Stack bytes of the last measurement.
    pub stack: usize,
    /// The probe's own ticks (a measurement of nothing), subtracted.
    overhead: u32,
}

/// The stack pointer.
#[inline(always)]
fn stack_pointer() -> usize {
    let sp: usize;
    // SAFETY: reads a register, touches no memory.
    unsafe { asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
    sp
}

impl Probe {
    /// Starts SysTick (free-running from the processor clock, no
    /// interrupt), learns the probe's own ticks and checks the conversion
    /// on a loop of known length; reports the calibration. Also returns
    /// whether the counter is exact.
    pub fn calibrated() -> (Self, bool) {
        // SAFETY: SysTick set up once, before any measurement.
        unsafe {
            write_volatile(SYST_RVR, SYSTICK_MASK);
            write_volatile(SYST_CVR, 0);
            write_volatile(SYST_CSR, 0b101);
        }
        let mut probe = Probe {
            t0: 0,
            sp: 0,
            ticks: 0,
            stack: 0,
            overhead: 0,
        };
        empty(&mut probe);
        let overhead = probe.ticks;
        empty(&mut probe);
        let overhead_again = probe.ticks;
        probe.overhead = overhead;
        calibration_loop(&mut probe);
        let counted = probe.instructions();
        hprintln!(
            "calibration|{}|{}|{}|{}",
            overhead,
            overhead_again,
            CALIBRATION_INSTRUCTIONS,
            counted
        );
        // The two measurements of nothing may differ by a tick (an
        // instruction is 6.4 ticks, so a count of ticks depends on where
        // the first read falls within an instruction), never by an
        // instruction.
        let exact = ticks_to_instructions(overhead) == ticks_to_instructions(overhead_again)
            && counted.abs_diff(CALIBRATION_INSTRUCTIONS) <= COUNT_UNCERTAINTY;
        if !exact {
            hprintln!("calibration FAILED: the instruction counter is not exact");
        }
        (probe, exact)
    }

    /// Instructions of the last measurement, less the probe's own.
    pub fn instructions(&self) -> u32 {
        ticks_to_instructions(self.ticks.saturating_sub(self.overhead))
    }

    /// Paints the stack below the caller and reads the counter.
    #[inline(always)]
    pub fn start(&mut self) {
        let sp = stack_pointer();
        let mut p = sp - PAINT_BYTES;
        while p < sp {
            // SAFETY: below the stack pointer, inside RAM (4 MiB, the stack
            // at its top, statics of a few bytes at its bottom); nothing
            // live is below the stack pointer on Arm.
            unsafe { write_volatile(p as *mut u32, PAINT) };
            p += 4;
        }
        self.sp = sp;
        // SAFETY: SysTick register read.
        self.t0 = unsafe { read_volatile(SYST_CVR) };
    }

    /// Reads the counter and finds the lowest overwritten painted word.
    #[inline(always)]
    pub fn stop(&mut self) {
        // SAFETY: SysTick register read.
        let t1 = unsafe { read_volatile(SYST_CVR) };
        self.ticks = self.t0.wrapping_sub(t1) & SYSTICK_MASK;
        let mut p = self.sp - PAINT_BYTES;
        // SAFETY: the region painted by `start`.
        while p < self.sp && unsafe { read_volatile(p as *const u32) } == PAINT {
            p += 4;
        }
        self.stack = self.sp - p;
    }

    /// Prints the result line of the last measurement (the format
    /// `cargo xtask firmware` parses): name (`name` then `suffix`),
    /// instructions, stack, the answer, the expected answer and the
    /// tolerance (nanometres), and `ok` or `FAIL`.
    pub fn report(&self, name: &str, suffix: &str, value: f32, expected: f32, tol: f32, ok: bool) {
        hprintln!(
            "result|{}{}|{}|{}|{}|{}|{}|{}",
            name,
            suffix,
            self.instructions(),
            self.stack,
            nm(value),
            nm(expected),
            nm(tol),
            if ok { "ok" } else { "FAIL" }
        );
    }
}

/// SysTick ticks in instructions, rounded to the nearest.
fn ticks_to_instructions(ticks: u32) -> u32 {
    (ticks * SYSTICK_NS + INSTRUCTION_NS / 2) / INSTRUCTION_NS
}

/// A measurement of nothing, to learn the probe's own ticks.
#[inline(never)]
pub fn empty(m: &mut Probe) {
    m.start();
    m.stop();
}

/// A measurement of exactly [`CALIBRATION_INSTRUCTIONS`] instructions, to
/// check the conversion from ticks.
#[inline(never)]
fn calibration_loop(m: &mut Probe) {
    m.start();
    // SAFETY: a register-only countdown loop.
    unsafe {
        asm!(
            "movs {n}, #{loops}",
            "2:",
            "subs {n}, {n}, #1",
            "bne 2b",
            n = out(reg) _,
            loops = const CALIBRATION_LOOPS,
            options(nomem, nostack)
        )
    };
    m.stop();
}

/// `x` meters in nanometres, for printing without float formatting.
fn nm(x: f32) -> i64 {
    if x.is_finite() {
        (x * 1.0e9) as i64
    } else {
        i64::MAX
    }
}

/// Prints the verdict for `failures` answers off and ends the emulation
/// with a success status when there are none.
pub fn finish(failures: u32) -> ! {
    if failures == 0 {
        hprintln!("firmware: all answers within tolerance");
    } else {
        hprintln!("firmware: {} answers off", failures);
    }
    exit(failures == 0)
}

/// Ends the emulation with a success or failure status (semihosting).
pub fn exit(success: bool) -> ! {
    debug::exit(if success {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    // Only reached without a semihosting host: wait for a debugger.
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    hprintln!("firmware: panic");
    exit(false)
}
