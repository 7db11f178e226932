#![no_main]
//! The Qbsolv model reader on arbitrary text: it parses or names the problem, never panics.

use libfuzzer_sys::fuzz_target;
use qubo_workbench::qubo::formats::{Format, parse_model};

fuzz_target!(|text: &str| {
    if let Ok(m) = parse_model(text, Format::Qbsolv, "fuzz") {
        // What parses must also be ready to sample: its CSR and an energy.
        let x = vec![1u8; m.qubo.num_variables()];
        let _ = m.qubo.energy(&x);
        let _ = m.qubo.csr();
    }
});
