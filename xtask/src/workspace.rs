//! Facts about the workspace read from its manifests: where it is, where
//! cargo builds, which packages are library crates.
//!
//! The manifests are read with a line-based reader that understands only the
//! simple TOML this repository writes (`key = "string"`, `key = [ ... ]`,
//! `[section]`), which keeps xtask free of dependencies.

use crate::run::Result;
use std::path::{Path, PathBuf};

/// The workspace root (the directory holding the root `Cargo.toml`).
pub fn root() -> PathBuf {
    let xtask_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask_dir.parent().unwrap_or(xtask_dir).to_path_buf()
}

/// The directory cargo builds into: `$CARGO_TARGET_DIR` when set (relative
/// to the current directory, as cargo reads it), else `<root>/target`.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                std::env::current_dir().unwrap_or_else(|_| root()).join(dir)
            }
        }
        _ => root().join("target"),
    }
}

/// Reads a file to a string, with an error naming it.
pub fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The library crates: workspace members under `crates/` that are
/// publishable (a `publish = false` package such as the test kit is not a
/// library) and not marked `std-only = true` under `[package.metadata.mink]`
/// (a host tool such as mink-query, which needs std by nature), as
/// `(package name, manifest directory)`, in member order.
pub fn library_crates() -> Result<Vec<(String, PathBuf)>> {
    let root = root();
    let manifest = read(&root.join("Cargo.toml"))?;
    let members = string_list(&manifest, "workspace", "members")
        .ok_or("the root Cargo.toml has no [workspace] members list")?;
    let mut crates = Vec::new();
    for member in members.iter().filter(|m| m.starts_with("crates/")) {
        let dir = root.join(member);
        let text = read(&dir.join("Cargo.toml"))?;
        let name = string_value(&text, "package", "name")
            .ok_or_else(|| format!("{member}/Cargo.toml has no package name"))?;
        let std_only = value(&text, "package.metadata.mink", "std-only").as_deref() == Some("true");
        if value(&text, "package", "publish").as_deref() != Some("false") && !std_only {
            crates.push((name, dir));
        }
    }
    if crates.is_empty() {
        return Err("found no library crates under crates/ in the workspace members".into());
    }
    Ok(crates)
}

/// The raw value of `key` in `[section]` (text after `=`, trimmed, comment
/// removed), first occurrence. Only single-line values.
pub fn value(text: &str, section: &str, key: &str) -> Option<String> {
    entries(text)
        .find(|(s, k, _)| s == section && k == key)
        .map(|(_, _, v)| v)
}

/// The value of `key = "string"` in `[section]`.
pub fn string_value(text: &str, section: &str, key: &str) -> Option<String> {
    value(text, section, key).map(|v| v.trim_matches('"').to_string())
}

/// Every `(section, key, raw value)` entry, in file order; `[[array]]`
/// sections are reported with their name (`bin` for `[[bin]]`).
pub fn entries(text: &str) -> impl Iterator<Item = (String, String, String)> + '_ {
    let mut section = String::new();
    text.lines().filter_map(move |line| {
        let line = strip_comment(line).trim();
        if line.starts_with('[') {
            section = line
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string();
            return None;
        }
        let (k, v) = line.split_once('=')?;
        Some((section.clone(), k.trim().to_string(), v.trim().to_string()))
    })
}

/// The strings of a (possibly multi-line) `key = [ "a", "b" ]` list in
/// `[section]`.
pub fn string_list(text: &str, section: &str, key: &str) -> Option<Vec<String>> {
    let mut current = String::new();
    let mut collecting = false;
    let mut items = String::new();
    for line in text.lines() {
        let line = strip_comment(line).trim();
        if collecting {
            items.push_str(line);
            if line.contains(']') {
                break;
            }
            continue;
        }
        if line.starts_with('[') {
            current = line
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string();
        } else if let Some((k, v)) = line.split_once('=') {
            if current == section && k.trim() == key {
                items.push_str(v);
                if v.contains(']') {
                    break;
                }
                collecting = true;
            }
        }
    }
    if items.is_empty() {
        return None;
    }
    let inner = items.trim().trim_start_matches('[');
    let inner = inner.split(']').next().unwrap_or("");
    Some(
        inner
            .split(',')
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// The line without a trailing `# comment` (a `#` inside a string is kept).
fn strip_comment(line: &str) -> &str {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return &line[..i],
            _ => {}
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"
[workspace]
members = [
    "crates/a", # the first
    "xtask",
]
exclude = ["fuzz"]

[package]
name = "probe" # a comment
publish = false

[[bin]]
name = "one"

[[bin]]
name = "two"
"#;

    #[test]
    fn reads_lists_values_and_array_sections() {
        assert_eq!(
            string_list(MANIFEST, "workspace", "members").unwrap(),
            vec!["crates/a", "xtask"]
        );
        assert_eq!(
            string_list(MANIFEST, "workspace", "exclude").unwrap(),
            vec!["fuzz"]
        );
        assert_eq!(string_list(MANIFEST, "workspace", "missing"), None);
        assert_eq!(string_value(MANIFEST, "package", "name").unwrap(), "probe");
        assert_eq!(value(MANIFEST, "package", "publish").unwrap(), "false");
        let bins: Vec<String> = entries(MANIFEST)
            .filter(|(s, k, _)| s == "bin" && k == "name")
            .map(|(_, _, v)| v.trim_matches('"').to_string())
            .collect();
        assert_eq!(bins, vec!["one", "two"]);
    }

    #[test]
    fn finds_the_library_crates_of_this_workspace() {
        let names: Vec<String> = library_crates().unwrap().into_iter().map(|c| c.0).collect();
        assert!(names.contains(&"mink-support".to_string()), "{names:?}");
        assert!(names.contains(&"mink".to_string()), "{names:?}");
        assert!(!names.contains(&"mink-testkit".to_string()), "{names:?}");
    }
}
