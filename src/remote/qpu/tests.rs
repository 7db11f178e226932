//! Tests of `qpu`.

use super::*;
use crate::qubo::{Qubo, StoredModel};
use crate::remote::embedding::find_embedding;
use crate::remote::topology::pegasus;

/// An embedded problem's energy at intact chains equals the logical energy, and a broken
/// chain costs at least the chain strength.
#[test]
fn embedding_preserves_energies_and_penalises_broken_chains() {
    let q = crate::qubo::random::random_qubo(10, 4, 3).unwrap();
    let graph = pegasus(3);
    let edges: Vec<(usize, usize)> = q
        .couplings()
        .iter()
        .map(|c| (c.i as usize, c.j as usize))
        .collect();
    let e = find_embedding(
        10,
        &edges,
        &graph,
        5,
        std::time::Duration::from_secs(600),
        &|| false,
    )
    .unwrap();
    e.verify(&edges, &graph).unwrap();
    let p = embed_qubo(&q, &e, &graph, 50.0);
    let size = graph.adjacency.len();
    for bits in [0u32, 0b1010110011, 0b1111111111, 0b0100100001] {
        let x: Vec<u8> = (0..10).map(|v| ((bits >> v) & 1) as u8).collect();
        let mut phys = vec![0u8; size];
        for (v, chain) in e.chains.iter().enumerate() {
            for &a in chain {
                phys[a as usize] = x[v];
            }
        }
        assert!((p.energy(&phys) - q.energy(&x).unwrap()).abs() < 1e-9);
    }
    if let Some((v, chain)) = e.chains.iter().enumerate().find(|c| c.1.len() > 1) {
        let mut phys = vec![0u8; size];
        phys[chain[0] as usize] = 1;
        let mut x = vec![0u8; 10];
        x[v] = 0;
        assert!(p.energy(&phys) - q.energy(&x).unwrap() >= 50.0 - 20.0);
    }
}

#[test]
fn ranges_scale_and_votes_and_descent_behave() {
    let mut p = PhysicalProblem::default();
    p.linear.insert(0, 8.0);
    p.add_coupling(0, 1, -8.0);
    let props = json!({"h_range": [-2.0, 2.0], "j_range": [-1.0, 1.0]});
    let s = fit_to_ranges(&mut p, &props);
    assert_eq!(s, 2.0, "J = −8/4 = −2 against −1");
    assert_eq!(p.quadratic[&(0, 1)], -4.0);
    // Majority: 2 of 3 ones → 1 with the chain broken; a tie uses the coin.
    let (x, broken) = majority_vote(&[1, 1, 0, 0], &[vec![0, 1, 2], vec![3]], &mut 7);
    assert_eq!((x, broken), (vec![1, 0], 1));
    // Descent reaches a local minimum: x0 = 1 alone is best here.
    let q = Qubo::new(vec![-1.0, 1.0], [(0, 1, 3.0)], 0.0).unwrap();
    let m = StoredModel::new(q);
    let csr = Csr::of_model(&m);
    let mut x = vec![0, 1];
    assert!(steepest_descent(&csr, &m, &mut x));
    assert_eq!(x, vec![1, 0]);
    assert!(!steepest_descent(&csr, &m, &mut x));
}
