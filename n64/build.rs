//! Links the ROM with `n64.ld` (memory layout: program at 0x80000400).

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:rerun-if-changed=n64.ld");
    println!("cargo:rustc-link-arg-bins=-T{dir}/n64.ld");
}
