//! Writes the gomoku line-pattern tables (`src/pattern/classify.rs`) that
//! the crate embeds: one per five rule, 59,049 bytes each. Made here, once,
//! they cost nothing per build; as compile-time constants they cost every
//! build of the crate about 5 seconds.
use std::path::PathBuf;

include!("src/pattern/classify.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/pattern/classify.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (name, exactly_five) in [("five_or_more.bin", false), ("exactly_five.bin", true)] {
        let table = classify_all(exactly_five);
        std::fs::write(out.join(name), table)
            .unwrap_or_else(|e| panic!("cannot write {name} in {}: {e}", out.display()));
    }
}
