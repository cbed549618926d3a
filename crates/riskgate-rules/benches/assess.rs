//! Benchmarks: one command assessed with the full database, and throughput on a mix.
fn main() {}
