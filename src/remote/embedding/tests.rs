//! The embedding search against its invariant on small graphs and real topologies.

use super::*;
use crate::remote::topology::pegasus;

const LONG: std::time::Duration = std::time::Duration::from_secs(600);

#[test]
fn a_clique_and_a_grid_embed_into_pegasus_and_verify() {
    let graph = pegasus(4);
    let clique: Vec<(usize, usize)> = (0..12)
        .flat_map(|a| (a + 1..12).map(move |b| (a, b)))
        .collect();
    let e = find_embedding(12, &clique, &graph, 1, LONG, &|| false).unwrap();
    e.verify(&clique, &graph).unwrap();
    assert!(e.max_chain_length() > 1, "K12 needs chains on Pegasus");
    let side = 6;
    let grid: Vec<(usize, usize)> = (0..side * side)
        .flat_map(|v| {
            let (r, c) = (v / side, v % side);
            let mut out = Vec::new();
            if c + 1 < side {
                out.push((v, v + 1));
            }
            if r + 1 < side {
                out.push((v, v + side));
            }
            out
        })
        .collect();
    let e = find_embedding(side * side, &grid, &graph, 2, LONG, &|| false).unwrap();
    e.verify(&grid, &graph).unwrap();
}

#[test]
fn a_path_between_two_chains_goes_to_the_shorter_one() {
    // Qubits 0–1–2–3–4 in a row, plus 5 hanging off 1; variables 0 (chain 0, 1, 2, 3) and
    // 1 (chain 4) are coupled, and variable 2 (chain 5) is coupled to variable 0.
    let graph = WorkingGraph::new(
        (0..6).collect(),
        vec![(0, 1), (1, 2), (2, 3), (3, 4), (1, 5)],
    );
    let neighbours = vec![vec![1, 2], vec![0], vec![0]];
    let mut chains = vec![vec![0, 1, 2, 3], vec![4], vec![5]];
    let mut owners = Owners::new(&graph, &chains);
    // Variable 0 gives its spare qubits to variable 1 until 1's chain has 3 qubits; qubit 1
    // stays, as variable 2 needs it and the chain must stay connected.
    owners.flip_back(0, 3, &mut chains, &neighbours);
    chains.iter_mut().for_each(|c| c.sort_unstable());
    assert_eq!(chains, vec![vec![0, 1], vec![2, 3, 4], vec![5]]);
    let edges = [(0, 1), (0, 2)];
    Embedding {
        chains: chains.clone(),
    }
    .verify(&edges, &graph)
    .unwrap();
    // Taking everything back: variable 0 steals all its neighbours can spare.
    owners.steal_all(0, &mut chains, &neighbours);
    chains.iter_mut().for_each(|c| c.sort_unstable());
    assert_eq!(chains, vec![vec![0, 1, 2, 3], vec![4], vec![5]]);
    Embedding { chains }.verify(&edges, &graph).unwrap();
}

#[test]
fn a_long_chain_between_far_neighbours_is_rebuilt_with_them() {
    // Qubits 0–1–…–10 in a row; variable 0 is coupled to 1 and 2, whose chains sit at the
    // two ends, so variable 0 spans the row. Re-placing one chain at a time cannot help;
    // rebuilding the three together gives chains of one qubit each.
    let graph = WorkingGraph::new((0..11).collect(), (0..10).map(|q| (q, q + 1)).collect());
    let neighbours = vec![vec![1, 2], vec![0], vec![0]];
    let edges = [(0, 1), (0, 2)];
    let mut chains = vec![(1..10).collect::<Vec<u32>>(), vec![0], vec![10]];
    let mut search = Search::new(&graph, 7);
    search.strict = true;
    for chain in &chains {
        search.occupy(chain);
    }
    let mut owners = Owners::new(&graph, &chains);
    let mut rng = 1;
    assert!(regroup(
        0,
        &mut chains,
        &neighbours,
        &mut search,
        &mut owners,
        &mut rng
    ));
    let e = Embedding {
        chains: chains.clone(),
    };
    e.verify(&edges, &graph).unwrap();
    assert_eq!(e.max_chain_length(), 1, "{chains:?}");
    assert_eq!(
        search.usage.iter().sum::<u32>(),
        3,
        "usage follows the chains"
    );
    // Nothing better exists now: the move is refused and everything stays as it was.
    let before = chains.clone();
    assert!(!regroup(
        0,
        &mut chains,
        &neighbours,
        &mut search,
        &mut owners,
        &mut rng
    ));
    assert_eq!(chains, before);
    let owned = (0..11u32)
        .filter(|&q| owners.owner[q as usize] != FREE)
        .count();
    assert_eq!(owned, 3, "owners follow the chains");
}

#[test]
fn a_qubit_no_neighbour_needs_is_freed() {
    // Qubits 0–1–2–3–4 in a row; variable 0 holds 0–3 but only needs to reach variable 1
    // at qubit 4: qubits 0, 1 and 2 go, 3 stays (it is the only coupler to 4).
    let graph = WorkingGraph::new((0..5).collect(), (0..4).map(|q| (q, q + 1)).collect());
    let neighbours = vec![vec![1], vec![0]];
    let mut chains = vec![vec![0, 1, 2, 3], vec![4]];
    let mut search = Search::new(&graph, 1);
    for chain in &chains {
        search.occupy(chain);
    }
    let mut owners = Owners::new(&graph, &chains);
    owners.trim(0, &mut chains, &neighbours, &mut search);
    assert_eq!(chains, vec![vec![3], vec![4]]);
    assert_eq!(
        search.usage,
        vec![0, 0, 0, 1, 1],
        "usage follows the chains"
    );
    assert_eq!(owners.owner[..3], [FREE; 3], "owners follow the chains");
    // A chain never goes below one qubit, and a needed qubit stays.
    owners.trim(1, &mut chains, &neighbours, &mut search);
    assert_eq!(chains, vec![vec![3], vec![4]]);
}

#[test]
fn a_cliques_chains_shorten_to_what_a_sparser_model_needs() {
    use crate::remote::{clique::zephyr_clique, topology::zephyr};
    let graph = zephyr(4, 4);
    // 32 variables, every pair coupled with probability 0.4 (seeded).
    let n = 32;
    let mut rng = 11u64;
    let edges: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .filter(|_| crate::rng::splitmix64(&mut rng) % 10 < 4)
        .collect();
    let clique = zephyr_clique(n, &graph, 4, 4).unwrap();
    let e = shorten_embedding(clique.clone(), &edges, &graph, 1, LONG, &|| false).unwrap();
    e.verify(&edges, &graph).unwrap();
    assert!(
        e.num_qubits() < clique.num_qubits() * 9 / 10,
        "{} qubits against the clique's {}",
        e.num_qubits(),
        clique.num_qubits()
    );
    assert!(e.max_chain_length() <= clique.max_chain_length());
    // Chains that do not embed the model are refused, naming why; a cancel says so.
    let mut bad = clique.clone();
    bad.chains[1] = bad.chains[0].clone();
    let err = shorten_embedding(bad, &edges, &graph, 1, LONG, &|| false).unwrap_err();
    assert!(
        err.to_string().contains("in the chains of 0 and 1"),
        "{err}"
    );
    let err = shorten_embedding(clique, &[(0, n)], &graph, 1, LONG, &|| false).unwrap_err();
    assert!(err.to_string().contains("beyond the model's 32"), "{err}");
    let err = shorten_embedding(e, &edges, &graph, 1, LONG, &|| true).unwrap_err();
    assert_eq!(err, EmbedError::Cancelled);
}

#[test]
fn a_search_around_initial_chains_checks_them_and_embeds_the_rest() {
    let graph = pegasus(4);
    let q = |k: usize| graph.qubits[k];
    // A path of 6 variables; variables 0 and 1 start on a coupled pair of qubits.
    let path: Vec<(usize, usize)> = (0..5).map(|v| (v, v + 1)).collect();
    let (a, b) = graph.couplers[0];
    let initial = vec![vec![a], vec![b]];
    let e = find_embedding_around(6, &path, &graph, &initial, 1, LONG, &|| false).unwrap();
    e.verify(&path, &graph).unwrap();
    let refused = |initial: &[Vec<u32>]| {
        find_embedding_around(6, &path, &graph, initial, 1, LONG, &|| false)
            .unwrap_err()
            .to_string()
    };
    assert!(refused(&vec![vec![]; 7]).contains("7 initial chains for 6 variables"));
    assert!(refused(&[vec![q(0)], vec![q(0)]]).contains("in the initial chains of 0 and 1"));
    let dead = (0..graph.adjacency.len() as u32)
        .find(|q| graph.qubits.binary_search(q).is_err())
        .unwrap_or(u32::MAX);
    if dead != u32::MAX {
        assert!(refused(&[vec![dead]]).contains("which does not work"));
    }
    let far = *graph
        .qubits
        .iter()
        .find(|&&x| x != a && !graph.adjacency[a as usize].contains(&x))
        .unwrap();
    assert!(refused(&[vec![a, far]]).contains("initial chain 0 is not connected"));
}

#[test]
fn the_last_overlaps_go_by_re_placing_on_free_qubits() {
    // Qubits 0–1–2–3–4 in a row; variables 0 and 1 are coupled, and their chains share
    // qubit 2. One of them moves to a free qubit next to the other.
    let graph = WorkingGraph::new((0..5).collect(), (0..4).map(|q| (q, q + 1)).collect());
    let neighbours = vec![vec![1], vec![0]];
    let mut chains = vec![vec![1, 2], vec![2, 3]];
    let mut search = Search::new(&graph, 3);
    for chain in &chains {
        search.occupy(chain);
    }
    assert_eq!(search.shared(), 1);
    repair_overlaps(&mut chains, &neighbours, &mut search, &mut 5);
    assert_eq!(search.shared(), 0, "{chains:?}");
    assert!(!search.strict, "the search is left as it was found");
    Embedding { chains }.verify(&[(0, 1)], &graph).unwrap();
}

#[test]
fn impossible_models_and_cancels_say_so() {
    let graph = pegasus(2);
    let many: Vec<(usize, usize)> = (0..60)
        .flat_map(|a| (a + 1..60).map(move |b| (a, b)))
        .collect();
    let e = find_embedding(60, &many, &graph, 1, LONG, &|| false).unwrap_err();
    assert!(e.to_string().contains("60 variables but only"), "{e}");
    let e = find_embedding(30, &many, &graph, 1, LONG, &|| false).unwrap_err();
    assert!(e.to_string().contains("beyond the model's 30"), "{e}");
    let k30: Vec<(usize, usize)> = many.iter().copied().filter(|&(_, b)| b < 30).collect();
    // Rounds go on until the budget ends them.
    let short = std::time::Duration::from_millis(500);
    let e = find_embedding(30, &k30, &graph, 1, short, &|| false).unwrap_err();
    assert!(matches!(e, EmbedError::NotFound(_)), "{e}");
    let e = find_embedding(3, &[(0, 1)], &pegasus(3), 1, LONG, &|| true).unwrap_err();
    assert_eq!(e, EmbedError::Cancelled);
    // `verify` catches a broken embedding.
    let bad = Embedding {
        chains: vec![vec![graph.qubits[0]], vec![graph.qubits[0]]],
    };
    assert!(
        bad.verify(&[(0, 1)], &graph)
            .unwrap_err()
            .to_string()
            .contains("in the chains")
    );
}
