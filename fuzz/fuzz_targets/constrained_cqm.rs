#![no_main]
//! dimod's CQM file reader on arbitrary bytes: it reads a model or names the problem, never
//! panics, and a model it reads encodes or says why not.

use libfuzzer_sys::fuzz_target;
use qubo_workbench::puzzle::constrained::cqm_file;
use qubo_workbench::puzzle::{EncodeOptions, Puzzle};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(m) = cqm_file::parse(bytes, "fuzz") {
        let _ = m.encode(&EncodeOptions::default());
        let _ = m.conflicts();
    }
});
