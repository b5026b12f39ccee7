//! Links the probe with its own minimal linker script (`link.x`): an entry
//! symbol and a flash/RAM layout, which is all a bare-metal binary needs.

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    println!("cargo:rustc-link-arg-bins=-T{dir}/link.x");
    println!("cargo:rerun-if-changed=link.x");
    println!("cargo:rerun-if-changed=build.rs");
}
