//! Running external commands: each is echoed before it starts, and a failure
//! becomes an error that names the command and its exit status.

use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// xtask's result: the error is the message printed before exiting with 1.
pub type Result<T = ()> = std::result::Result<T, String>;

/// `true` when running under CI (`CI` set, and neither empty, `false` nor
/// `0`): cargo then gets `--locked`, so a stale `Cargo.lock` fails instead of
/// being rewritten.
pub fn ci_mode() -> bool {
    match std::env::var("CI") {
        Ok(v) => !(v.is_empty() || v == "false" || v == "0"),
        Err(_) => false,
    }
}

/// A command to run, built up like [`std::process::Command`] but printable.
#[derive(Clone, Debug)]
pub struct Cmd {
    /// The program (for cargo, the binary that runs xtask, from `$CARGO`).
    program: OsString,
    /// How the program is shown in the echo (`cargo` rather than a full path).
    shown_as: String,
    /// The arguments.
    args: Vec<OsString>,
    /// Environment variables set for the command (shown in the echo).
    envs: Vec<(String, OsString)>,
    /// Environment variables removed for the command.
    removed: Vec<String>,
    /// The working directory.
    dir: PathBuf,
}

impl Cmd {
    /// `program`, run in the workspace root.
    pub fn new(program: impl AsRef<OsStr>) -> Self {
        let program = program.as_ref().to_os_string();
        Self {
            shown_as: program.to_string_lossy().into_owned(),
            program,
            args: Vec::new(),
            envs: Vec::new(),
            removed: Vec::new(),
            dir: crate::workspace::root(),
        }
    }

    /// The cargo of the toolchain that runs xtask (`$CARGO`, else `cargo`
    /// from `PATH`), run in the workspace root.
    pub fn cargo() -> Self {
        let mut cmd = Self::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        cmd.shown_as = "cargo".into();
        cmd
    }

    /// The rustup proxy `cargo` from `PATH`, so that `+toolchain` works; the
    /// variables the outer cargo and rustup set are removed, so the toolchain
    /// named by `+toolchain` is used throughout.
    pub fn cargo_proxy() -> Self {
        Self::new("cargo")
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("CARGO")
            .env_remove("RUSTC")
            .env_remove("RUSTDOC")
    }

    /// Appends one argument.
    pub fn arg(mut self, a: impl AsRef<OsStr>) -> Self {
        self.args.push(a.as_ref().to_os_string());
        self
    }

    /// Appends arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Appends `--locked` when [`ci_mode`] is on.
    pub fn locked_in_ci(self) -> Self {
        if ci_mode() {
            self.arg("--locked")
        } else {
            self
        }
    }

    /// Sets an environment variable for the command.
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Self {
        self.envs
            .push((key.to_string(), value.as_ref().to_os_string()));
        self
    }

    /// Removes an environment variable for the command.
    pub fn env_remove(mut self, key: &str) -> Self {
        self.removed.push(key.to_string());
        self
    }

    /// The command as a shell line: `KEY="value" program args...`.
    pub fn display(&self) -> String {
        let mut parts: Vec<String> = self
            .envs
            .iter()
            .map(|(k, v)| format!("{k}={}", quote(&v.to_string_lossy())))
            .collect();
        parts.push(self.shown_as.clone());
        parts.extend(self.args.iter().map(|a| quote(&a.to_string_lossy())));
        parts.join(" ")
    }

    /// The [`Command`] this describes.
    fn command(&self) -> Command {
        let mut c = Command::new(&self.program);
        c.args(&self.args).current_dir(&self.dir);
        for k in &self.removed {
            c.env_remove(k);
        }
        for (k, v) in &self.envs {
            c.env(k, v);
        }
        c
    }

    /// Echoes the command, runs it with inherited stdio, and fails with a
    /// message naming it when it cannot start or exits unsuccessfully.
    pub fn run(&self) -> Result {
        echo(&self.display());
        let status = self
            .command()
            .status()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("`{}` failed ({status})", self.display()))
        }
    }

    /// Like [`Cmd::run`], but stderr is also kept: returns whether the
    /// command succeeded and everything it wrote to stderr (which is still
    /// shown as it arrives).
    pub fn run_keeping_stderr(&self) -> Result<(bool, String)> {
        echo(&self.display());
        let mut child = self
            .command()
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        let mut kept = String::new();
        if let Some(stderr) = child.stderr.take() {
            let mut out = std::io::stderr();
            for line in BufReader::new(stderr).lines() {
                let line = line.unwrap_or_default();
                let _ = writeln!(out, "{line}");
                kept.push_str(&line);
                kept.push('\n');
            }
        }
        let status = child
            .wait()
            .map_err(|e| format!("`{}` did not finish: {e}", self.display()))?;
        Ok((status.success(), kept))
    }

    /// Echoes the command and runs it with its stdout discarded (stderr is
    /// shown); returns whether it succeeded, failing only when it cannot
    /// start.
    pub fn run_without_stdout(&self) -> Result<bool> {
        echo(&self.display());
        let status = self
            .command()
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("could not start `{}`: {e}", self.display()))?;
        Ok(status.success())
    }

    /// Runs the command quietly and returns its stdout, or `None` when it
    /// cannot start or fails (used to ask tools about themselves).
    pub fn stdout(&self) -> Option<String> {
        let out = self.command().stderr(Stdio::null()).output().ok()?;
        if out.status.success() {
            Some(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            None
        }
    }
}

/// Prints a command about to run, set apart from its output.
fn echo(line: &str) {
    eprintln!("\n$ {line}");
}

/// Quotes a word for display when it holds a space or a shell character.
fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=+./:,@%".contains(c))
    {
        word.to_string()
    } else {
        format!("\"{}\"", word.replace('"', "\\\""))
    }
}

/// Formats a duration as `1m05s` or `4.2s`.
pub fn format_duration(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 60.0 {
        let whole = d.as_secs();
        format!("{}m{:02}s", whole / 60, whole % 60)
    } else {
        format!("{s:.1}s")
    }
}
