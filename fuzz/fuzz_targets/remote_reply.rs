#![no_main]
//! Replies a remote service might send, on arbitrary bytes: the `qp` answer and problem
//! decoders, SAPI status objects and solver definitions read them or name the problem, never
//! panic and never allocate by a length the bytes do not back.

use libfuzzer_sys::fuzz_target;
use qubo_workbench::remote::qp::{decode_answer, decode_problem};
use qubo_workbench::remote::sapi::{ProblemStatus, Solver};

fuzz_target!(|bytes: &[u8]| {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return;
    };
    if let Ok(a) = decode_answer(&v) {
        assert_eq!(a.solutions.len(), a.energies.len());
    }
    let _ = decode_problem(&v, &[0, 1, 2, 3], &[(0, 1), (1, 2), (2, 3), (0, 3)]);
    let _ = ProblemStatus::from_json(&v);
    let _ = Solver::from_json(&v);
});
