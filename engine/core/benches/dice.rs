//! Benchmarks (in progress).
#![allow(missing_docs)]
fn main() {}
