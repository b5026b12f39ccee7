//! `cargo xtask firmware`: runs mink on an emulated Cortex-M4F and writes
//! its figures.
//!
//! 1. Installs what it needs: the bare-metal targets (`rustup target add`)
//!    and QEMU (`scripts/install-qemu.sh`, Debian's `qemu-system-arm`) when
//!    `qemu-system-arm` is missing.
//! 2. Builds `examples/firmware` (a crate of its own; its `build.rs`
//!    computes the expected answers on the host in `f64`) for
//!    `thumbv7em-none-eabihf`, the firmware and a baseline that runs no
//!    query, and the same firmware for `thumbv6m-none-eabi` (Cortex-M0, no
//!    FPU) for its size.
//! 3. Runs the firmware twice under
//!    `qemu-system-arm -machine mps2-an386 -cpu cortex-m4 -icount shift=8`:
//!    it checks every `f32` answer against the `f64` one and exits with a
//!    failure status if one is off; both runs must report the same
//!    instruction and stack figures.
//! 4. Reads the sizes from the ELF section headers (no binutils needed) and
//!    writes the figures table to `<target dir>/firmware/figures.md`.
//!
//! Fails when a build fails, an answer is off, the instruction counter is
//! not exact (calibration), the two runs differ, or a figure is over its
//! budget: [`FLASH_BUDGET`] for the queries' flash and [`STACK_BUDGET`] for
//! the largest stack of one query. The budgets are the measured figures plus
//! about 10%, so a change that grows them fails here (and in CI, which runs
//! this command); the targets (32 KiB of flash, 4 KiB of stack,
//! 10,000 instructions for the arm) are reported as met or missed.

use crate::run::{Cmd, Result};
use crate::workspace::{root, target_dir};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The firmware crate, relative to the workspace root.
const FIRMWARE_DIR: &str = "examples/firmware";
/// The script that installs QEMU, relative to the workspace root.
const INSTALL_QEMU: &str = "scripts/install-qemu.sh";
/// The Cortex-M4F target the firmware runs on.
const TARGET_M4F: &str = "thumbv7em-none-eabihf";
/// The Cortex-M0 target the firmware is sized for.
const TARGET_M0: &str = "thumbv6m-none-eabi";
/// The firmware binary and the baseline binary.
const FIRMWARE_BIN: &str = "mink-firmware";
/// The binary that runs no query.
const BASELINE_BIN: &str = "baseline";
/// QEMU's `-icount shift`: each instruction advances the virtual clock by
/// 2^8 ns; the firmware converts SysTick ticks (40 ns) with the same value.
const ICOUNT_SHIFT: &str = "8";
/// How long one QEMU run may take before it is killed.
const QEMU_TIMEOUT: Duration = Duration::from_secs(60);
/// Budget of the queries' flash on the Cortex-M4F (the firmware's text and
/// data minus the baseline's), bytes: the measured figure (38,708 B) plus
/// 192 B. Over it, `cargo xtask firmware` (and CI) fails. The target
/// is 32 KiB (`FLASH_TARGET`); this budget only stops growth past today's build.
pub const FLASH_BUDGET: u64 = 38_900;
/// Budget of the largest stack high-water mark of one query on the
/// Cortex-M4F, bytes: the measured figure (3,812 B) plus about 10%.
pub const STACK_BUDGET: u64 = 4_200;
/// The targets: flash of all queries, stack of every query,
/// instructions of the arm's 15-pair check.
const FLASH_TARGET: u64 = 32 * 1024;
/// Stack target of every query, bytes.
const STACK_TARGET: u64 = 4 * 1024;
/// Instruction target of the arm's full self-collision check.
const ARM_INSTRUCTIONS_TARGET: u64 = 10_000;

/// One query's line of the firmware's report.
struct Row {
    /// The query.
    name: String,
    /// Instructions it took.
    instructions: u64,
    /// Its stack high-water mark, bytes.
    stack: u64,
    /// Its `f32` answer, nanometres (1e9 for `true`).
    value_nm: i64,
    /// The expected `f64` answer, nanometres.
    expected_nm: i64,
    /// The tolerance, nanometres.
    tolerance_nm: i64,
    /// Whether the firmware found it within tolerance.
    ok: bool,
}

/// The allocated sizes of an ELF image, as `size` reports them: `text`
/// (read-only sections, code and constants), `data` (initialized
/// writable), `bss` (zeroed writable).
#[derive(Clone, Copy, Debug, Default)]
struct Sizes {
    /// Read-only allocated bytes.
    text: u64,
    /// Initialized writable bytes (stored in flash too).
    data: u64,
    /// Zero-initialized bytes.
    bss: u64,
}

impl Sizes {
    /// Bytes in flash: code, constants and the initial values of data.
    fn flash(&self) -> u64 {
        self.text + self.data
    }
}

/// Runs the four stages above.
pub fn run() -> Result {
    let started = Instant::now();
    ensure_targets()?;
    let qemu = ensure_qemu()?;
    let manifest = root().join(FIRMWARE_DIR).join("Cargo.toml");
    let dir = target_dir().join("firmware");
    build(&manifest, &dir, TARGET_M4F)?;
    build(&manifest, &dir, TARGET_M0)?;
    let elf = |target: &str, bin: &str| dir.join(target).join("release").join(bin);
    let firmware = elf(TARGET_M4F, FIRMWARE_BIN);

    let first = run_qemu(&qemu, &firmware)?;
    let second = run_qemu(&qemu, &firmware)?;
    if first != second {
        return Err(
            "two runs of the firmware reported different figures: the instruction counter is \
             not repeatable"
                .into(),
        );
    }
    let rows = parse_report(&first)?;

    let m4 = elf_sizes(&firmware)?;
    let m4_base = elf_sizes(&elf(TARGET_M4F, BASELINE_BIN))?;
    let m0 = elf_sizes(&elf(TARGET_M0, FIRMWARE_BIN))?;
    let m0_base = elf_sizes(&elf(TARGET_M0, BASELINE_BIN))?;
    let table = figures(&rows, [m4, m4_base, m0, m0_base]);
    let out = dir.join("figures.md");
    std::fs::write(&out, &table).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("{table}");
    check_budgets(&rows, m4.flash().saturating_sub(m4_base.flash()))?;
    println!(
        "firmware: {} queries within tolerance on the emulated Cortex-M4F, figures in {} ({})",
        rows.len(),
        out.display(),
        crate::run::format_duration(started.elapsed())
    );
    Ok(())
}

/// Fails when the queries' flash (`flash`, bytes) or the largest stack of
/// one query is over its budget, naming the figure and the budget.
fn check_budgets(rows: &[Row], flash: u64) -> Result {
    let (stack, query) = rows
        .iter()
        .map(|r| (r.stack, r.name.as_str()))
        .max()
        .unwrap_or((0, ""));
    let mut over = Vec::new();
    if flash > FLASH_BUDGET {
        over.push(format!(
            "the queries take {flash} B of flash, over the budget of {FLASH_BUDGET} B"
        ));
    }
    if stack > STACK_BUDGET {
        over.push(format!(
            "`{query}` takes {stack} B of stack, over the budget of {STACK_BUDGET} B"
        ));
    }
    if over.is_empty() {
        println!(
            "firmware: within budget: {flash} B of flash (budget {FLASH_BUDGET} B), \
             largest stack {stack} B (budget {STACK_BUDGET} B)"
        );
        Ok(())
    } else {
        Err(format!(
            "{}; shrink the code, or raise the budget in xtask/src/firmware.rs and the \
             figures in README.md and examples/firmware if the growth is intended",
            over.join("; ")
        ))
    }
}

/// Adds the bare-metal targets rustup does not list as installed.
fn ensure_targets() -> Result {
    let installed = Cmd::new("rustup")
        .args(["target", "list", "--installed"])
        .stdout()
        .ok_or("`rustup target list --installed` failed: the firmware needs rustup's targets")?;
    let missing: Vec<&str> = [TARGET_M4F, TARGET_M0]
        .into_iter()
        .filter(|t| !installed.lines().any(|l| l.trim() == *t))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Cmd::new("rustup")
        .args(["target", "add"])
        .args(&missing)
        .run()
}

/// The QEMU binary, installed by [`INSTALL_QEMU`] when missing.
fn ensure_qemu() -> Result<String> {
    let qemu = "qemu-system-arm".to_string();
    let version = || Cmd::new(&qemu).arg("--version").stdout();
    if version().is_none() {
        Cmd::new("sh").arg(root().join(INSTALL_QEMU)).run()?;
    }
    let v = version().ok_or_else(|| {
        format!("`{qemu} --version` failed after {INSTALL_QEMU}: install qemu-system-arm")
    })?;
    println!("{}", v.lines().next().unwrap_or_default());
    Ok(qemu)
}

/// Builds both binaries of the firmware crate for `target`, in release.
fn build(manifest: &Path, dir: &Path, target: &str) -> Result {
    Cmd::cargo()
        .args(["build", "--release", "--bins", "--manifest-path"])
        .arg(manifest)
        .args(["--target", target, "--target-dir"])
        .arg(dir)
        .locked_in_ci()
        .run()
}

/// Runs `elf` under QEMU and returns its semihosting output; fails when it
/// exits unsuccessfully (an answer off) or hangs.
fn run_qemu(qemu: &str, elf: &Path) -> Result<String> {
    let args: Vec<String> = [
        "-machine",
        "mps2-an386",
        "-cpu",
        "cortex-m4",
        "-icount",
        &format!("shift={ICOUNT_SHIFT}"),
        "-nographic",
        "-monitor",
        "none",
        "-serial",
        "none",
        "-semihosting-config",
        "enable=on,target=native",
        "-kernel",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([elf.display().to_string()])
    .collect();
    eprintln!("\n$ {qemu} {}", args.join(" "));
    let mut child = Command::new(qemu)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start {qemu}: {e}"))?;
    let deadline = Instant::now() + QEMU_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "the firmware did not exit within {}s under QEMU",
                    QEMU_TIMEOUT.as_secs()
                ));
            }
            Err(e) => return Err(format!("waiting for {qemu}: {e}")),
        }
    };
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = stdout.read_to_string(&mut out);
    }
    print!("{out}");
    if status.success() {
        Ok(out)
    } else {
        Err(format!(
            "the firmware failed under QEMU ({status}): an answer is off or the instruction \
             counter is not exact (see its report above)"
        ))
    }
}

/// The `result|name|instructions|stack|value|expected|tolerance|ok` lines.
fn parse_report(report: &str) -> Result<Vec<Row>> {
    let rows: Vec<Row> = report
        .lines()
        .filter_map(|l| l.strip_prefix("result|"))
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let bad = || format!("malformed firmware report line `result|{l}`");
            let int = |i: usize| f.get(i).and_then(|s| s.parse::<i64>().ok()).ok_or_else(bad);
            if f.len() != 7 {
                return Err(bad());
            }
            Ok(Row {
                name: f[0].to_string(),
                instructions: int(1)? as u64,
                stack: int(2)? as u64,
                value_nm: int(3)?,
                expected_nm: int(4)?,
                tolerance_nm: int(5)?,
                ok: f[6] == "ok",
            })
        })
        .collect::<Result<_>>()?;
    if rows.is_empty() {
        return Err("the firmware reported no result".into());
    }
    Ok(rows)
}

/// The figures as Markdown.
fn figures(rows: &[Row], [m4, m4_base, m0, m0_base]: [Sizes; 4]) -> String {
    let met = |ok: bool| if ok { "met" } else { "MISSED" };
    let mut s = String::new();
    s.push_str(&format!(
        "Firmware figures (`cargo xtask firmware`: `examples/firmware` in release, \
         `qemu-system-arm -machine mps2-an386 -cpu cortex-m4 -icount shift={ICOUNT_SHIFT}`)\n\n"
    ));
    s.push_str("| query | instructions | stack (bytes) | f32 answer (m) | f64 answer (m) | |\n");
    s.push_str("|---|---:|---:|---:|---:|---|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.name,
            r.instructions,
            r.stack,
            meters(r.value_nm),
            meters(r.expected_nm),
            if r.ok { "ok" } else { "OFF" }
        ));
    }
    let tolerance = rows.iter().map(|r| r.tolerance_nm).max().unwrap_or(0);
    let max_stack = rows.iter().map(|r| r.stack).max().unwrap_or(0);
    let arm = rows
        .iter()
        .filter(|r| r.name.starts_with("arm_check"))
        .map(|r| r.instructions)
        .max()
        .unwrap_or(0);
    s.push_str(&format!(
        "\nLengths agree with the host's f64 answers within {} m; booleans exactly.\n\n",
        meters(tolerance)
    ));
    s.push_str("| build | flash (text + data) | of which the queries (minus baseline) | RAM (data + bss) |\n");
    s.push_str("|---|---:|---:|---:|\n");
    for (name, full, base) in [
        ("Cortex-M4F, thumbv7em-none-eabihf", m4, m4_base),
        (
            "Cortex-M0, thumbv6m-none-eabi (no FPU, size only)",
            m0,
            m0_base,
        ),
    ] {
        s.push_str(&format!(
            "| {name} | {} B | {} B | {} B |\n",
            full.flash(),
            full.flash().saturating_sub(base.flash()),
            full.data + full.bss
        ));
    }
    s.push_str(&format!(
        "\nTargets on the Cortex-M4F: queries in 32 KiB of flash: {} ({} B); every query in \
         4 KiB of stack: {} (largest {} B); the arm's 15-pair check under 10,000 \
         instructions: {} ({}).\n",
        met(m4.flash().saturating_sub(m4_base.flash()) <= FLASH_TARGET),
        m4.flash().saturating_sub(m4_base.flash()),
        met(max_stack <= STACK_TARGET),
        max_stack,
        met(arm <= ARM_INSTRUCTIONS_TARGET),
        arm
    ));
    s
}

/// Nanometres as meters with nine decimals (`i64::MAX` is infinity).
fn meters(nm: i64) -> String {
    if nm == i64::MAX {
        return "inf".into();
    }
    let sign = if nm < 0 { "-" } else { "" };
    let a = nm.unsigned_abs();
    format!("{sign}{}.{:09}", a / 1_000_000_000, a % 1_000_000_000)
}

/// Reads the section headers of a 32-bit little-endian ELF file and sums
/// its allocated sections the way `size` does.
fn elf_sizes(path: &Path) -> Result<Sizes> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bad = || format!("{} is not a 32-bit little-endian ELF file", path.display());
    let u16_at = |o: usize| -> Result<u64> {
        let b = bytes.get(o..o + 2).ok_or_else(bad)?;
        Ok(u64::from(u16::from_le_bytes([b[0], b[1]])))
    };
    let u32_at = |o: usize| -> Result<u64> {
        let b = bytes.get(o..o + 4).ok_or_else(bad)?;
        Ok(u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    };
    // Magic, ELFCLASS32 (1) and ELFDATA2LSB (1).
    if bytes.get(0..6) != Some(&[0x7f, b'E', b'L', b'F', 1, 1][..]) {
        return Err(bad());
    }
    const SHT_NOBITS: u64 = 8;
    const SHF_WRITE: u64 = 1;
    const SHF_ALLOC: u64 = 2;
    let shoff = u32_at(0x20)? as usize;
    let shentsize = u16_at(0x2e)? as usize;
    let shnum = u16_at(0x30)? as usize;
    let mut sizes = Sizes::default();
    for i in 0..shnum {
        let h = shoff + i * shentsize;
        let (kind, flags, size) = (u32_at(h + 4)?, u32_at(h + 8)?, u32_at(h + 20)?);
        if flags & SHF_ALLOC == 0 {
            continue;
        }
        if kind == SHT_NOBITS {
            sizes.bss += size;
        } else if flags & SHF_WRITE != 0 {
            sizes.data += size;
        } else {
            sizes.text += size;
        }
    }
    Ok(sizes)
}
