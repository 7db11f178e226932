#![no_main]
//! Replies a remote service might send, on arbitrary bytes: the `qp` answer and problem
//! decoders, the `bq` sample-set decoder, SAPI status objects, solver definitions and their
//! working graphs (and a clique embedding on them), embedding files, the Digital Annealer's solutions and timing read them or name the problem, never panic and never allocate by a length
//! the bytes do not back.

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
    if let Ok(a) = qubo_workbench::remote::bq::decode_answer(&v) {
        assert_eq!(a.samples.len(), a.energies.len());
        let _ = qubo_workbench::remote::bq::columns_of_variables(&a.labels, a.labels.len());
    }
    let _ = ProblemStatus::from_json(&v);
    let _ = Solver::from_json(&v);
    if let Ok(g) = qubo_workbench::remote::topology::WorkingGraph::from_properties(&v) {
        // A clique on whatever graph a solver claims: found and verified, or refused.
        let _ = qubo_workbench::remote::clique::pegasus_clique(4, &g, 2);
    }
    // An embedding file's chains, checked against P2 for K6.
    if let Ok(e) = qubo_workbench::remote::qpu::embedding_from_json(&v, 6) {
        let k6: Vec<(usize, usize)> = (0..6)
            .flat_map(|a| (a + 1..6).map(move |b| (a, b)))
            .collect();
        let _ = e.verify(&k6, &qubo_workbench::remote::topology::pegasus(2));
    }
    let _ = qubo_workbench::remote::sapi::minimum_time_limit_s(&v, 1000);
    let _ = qubo_workbench::remote::fujitsu::decode_solution(&v, 64);
    let _ = qubo_workbench::remote::fujitsu::timing_ms(&v);
});
