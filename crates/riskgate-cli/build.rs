//! Link the `riskgate` binary as a position-dependent executable on Linux. A hook call is a
//! fresh process each time, and a position-independent binary makes the dynamic loader apply
//! tens of thousands of relocations (the embedded rule tables are full of pointers) and touch
//! every page they sit on before `main` runs; linked at a fixed address, those are resolved
//! at link time. Measured with `python3 bench/latency.py` (see the README).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // The static build (`scripts/build-static.sh`: `+crt-static`, `relocation-model=static`) is
    // already position-dependent; `-no-pie` on top of it would ask for an interpreter.
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    if os == "linux" && env == "gnu" && !features.split(',').any(|f| f == "crt-static") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
