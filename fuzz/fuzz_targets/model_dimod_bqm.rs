#![no_main]
//! The binary DIMODBQM reader on arbitrary bytes: it parses or names the problem, never panics,
//! and never allocates by a count the file's length does not back.

use libfuzzer_sys::fuzz_target;
use qubo_workbench::qubo::formats::{Format, parse_model_bytes};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(m) = parse_model_bytes(bytes, Format::DimodBqm, "fuzz") {
        let x = vec![1u8; m.qubo.num_variables()];
        let _ = m.qubo.energy(&x);
        let _ = m.qubo.csr();
    }
});
