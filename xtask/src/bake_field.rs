//! `cargo xtask bake-field MESH OUT [--res N] [--compact]`: builds a
//! support field for a convex mesh on the host and writes it as Rust
//! `static` arrays (`OUT` ending in `.rs`) or as a versioned blob (any other
//! name), so a microcontroller can query it from flash without building it.

use crate::run::Result;
use mink_field::bake::{bake_file, BakeOptions};
use mink_field::blob::BlobLayout;
use std::path::Path;

/// Parses the arguments after `bake-field` and bakes the field.
pub fn run(args: &[&str]) -> Result {
    let mut positional = Vec::new();
    let mut options = BakeOptions::default();
    let mut it = args.iter();
    while let Some(&arg) = it.next() {
        match arg {
            "--res" => {
                let value = it.next().ok_or("--res needs a number")?;
                options.res = value
                    .parse()
                    .map_err(|_| format!("--res takes a whole number, got `{value}`"))?;
            }
            "--compact" => options.layout = BlobLayout::Compact,
            other if other.starts_with("--") => {
                return Err(format!("bake-field: unknown option `{other}`"));
            }
            other => positional.push(other),
        }
    }
    let [mesh, out] = positional.as_slice() else {
        return Err(
            "usage: cargo xtask bake-field MESH.(obj|json) OUT.(rs|bin) [--res N] [--compact]"
                .into(),
        );
    };
    let report = bake_file(Path::new(mesh), Path::new(out), &options)
        .map_err(|e| format!("bake-field: {e}"))?;
    println!(
        "baked {mesh}: {} points, {} field vertices, resolution {}, {} bytes written to {out}",
        report.points, report.vertices, report.res, report.bytes
    );
    Ok(())
}
