//! Tests of `encode`.

use super::*;
use crate::puzzle::edge_matching::tests::SEED_LTRB;
use crate::puzzle::{Puzzle, REFERENCE_NODE_BUDGET};
use crate::qubo::{Model, StoredModel};
use crate::sampler::{ExactSolver, RunControl, Sampler};
use rand::{RngExt, SeedableRng};

fn seed() -> EdgeMatching {
    let pieces = SEED_LTRB.iter().map(|&[l, t, r, b]| [t, r, b, l]).collect();
    EdgeMatching::new(4, 4, pieces, Vec::new()).unwrap()
}

#[test]
fn the_structured_model_has_the_stored_qubos_energies() {
    for p in [seed(), super::super::generate(5, 6, 2, 3, 4).unwrap()] {
        let enc = encode(&p, &EncodeOptions::default()).unwrap();
        let mut w = enc.default_weights();
        w.set("match", 1.5).unwrap();
        w.set("piece", 2.5).unwrap();
        let stored = StoredModel::new(enc.qubo(&w).unwrap());
        let g = structured_model(&p, &w);
        assert_eq!(g.num_variables(), stored.num_variables());
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(9);
        for density in [0.01, 0.05, 0.3] {
            for _ in 0..50 {
                let x: Vec<u8> = (0..g.num_variables())
                    .map(|_| u8::from(rng.random_bool(density)))
                    .collect();
                let (a, b) = (stored.energy(&x), g.energy(&x));
                assert!((a - b).abs() < 1e-9, "{a} vs {b}");
            }
        }
        // The pair-by-pair form agrees too (what CSR-based samplers would read).
        for i in (0..g.num_variables()).step_by(7) {
            let mut from_g = Vec::new();
            g.for_each_neighbour(i, &mut |j, q| from_g.push((j, q)));
            let mut from_s = Vec::new();
            stored.for_each_neighbour(i, &mut |j, q| from_s.push((j, q)));
            from_s.sort_by_key(|t| t.0);
            assert_eq!(from_g, from_s, "row {i}");
            assert_eq!(g.linear(i), stored.linear(i));
        }
        assert_eq!(g.offset(), stored.offset());
        assert!(g.num_couplings() as usize >= stored.qubo.num_interactions());
    }
}

#[test]
fn annealing_the_structured_model_finds_the_seed_tiling() {
    let p = seed();
    let enc = encode(&p, &EncodeOptions::default()).unwrap();
    let w = enc.default_weights();
    let g = structured_model(&p, &w);
    let sa = crate::sampler::SimulatedAnnealing {
        num_reads: 16,
        num_sweeps: 2000,
        seed: Some(2),
        ..Default::default()
    };
    let set = sa.sample(&g, &RunControl::new()).unwrap();
    assert_eq!(set.info.params["kernel"], "grouped");
    assert_eq!(set.rows[0].energy, -24.0);
    assert!(p.check(&decode(&p, &enc, &set.rows[0].sample)).is_empty());
}

#[test]
fn the_seed_4x4_has_138_variables() {
    let enc = encode(&seed(), &EncodeOptions::default()).unwrap();
    assert_eq!(enc.num_variables(), 138);
    assert_eq!(
        enc.weight_names(),
        vec!["piece", "cell", "mismatch", "match"]
    );
    // 24 joints: a perfect tiling's energy is −24 at the defaults.
    let w = enc.default_weights();
    assert_eq!(enc.satisfied_energy(&w).unwrap(), -24.0);
}

#[test]
fn the_random_6x6_has_the_peers_size() {
    let p = super::super::generate(6, 6, 2, 4, 7).unwrap();
    let pl = Placements::of(&p);
    // 1 + 3·3 corner, 16·16 edge, 16·16·4 inner placements (no symmetric inner piece
    // drops a rotation in this instance).
    assert!(
        pl.list.len() <= 1290 && pl.list.len() > 1200,
        "{}",
        pl.list.len()
    );
}

#[test]
fn defaults_keep_perfect_tilings_ground() {
    // Enumeration on a small board: nothing below a perfect tiling's energy.
    let p = EdgeMatching::blank(2, 3).unwrap();
    let enc = encode(&p, &EncodeOptions::default()).unwrap();
    let w = enc.default_weights();
    let model = StoredModel::new(enc.qubo(&w).unwrap());
    assert!(enc.num_variables() <= 22, "{}", enc.num_variables());
    let set = ExactSolver { num_reads: 1 }
        .sample(&model, &RunControl::new())
        .unwrap();
    let ground = enc.satisfied_energy(&w).unwrap();
    assert!((set.rows[0].energy - ground).abs() < 1e-9);
    assert!(p.check(&decode(&p, &enc, &set.rows[0].sample)).is_empty());
    // Random states of the seed 4×4, dense and sparse, never beat the bound either; and
    // the tight case of the proof — one extra placement matching all four neighbours —
    // costs cell + piece − 4·match > 0.
    let p = seed();
    let enc = encode(&p, &EncodeOptions::default()).unwrap();
    let model = StoredModel::new(enc.qubo(&enc.default_weights()).unwrap());
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(3);
    for density in [0.02, 0.1, 0.3, 0.6] {
        for _ in 0..2000 {
            let x: Vec<u8> = (0..enc.num_variables())
                .map(|_| u8::from(rng.random_bool(density)))
                .collect();
            assert!(model.energy(&x) >= -24.0 - 1e-9);
        }
    }
    let solved = p.solve_classically(REFERENCE_NODE_BUDGET);
    let sample = p.solution_sample(&enc, solved.solution().unwrap()).unwrap();
    assert_eq!(model.energy(&sample), -24.0);
}

#[test]
fn presolve_keeps_energies_and_the_solution() {
    let p = seed();
    let full = encode(&p, &EncodeOptions::default()).unwrap();
    let pre = encode(&p, &EncodeOptions::presolved(true)).unwrap();
    assert!(pre.num_variables() < full.num_variables());
    let known = p.solve_classically(REFERENCE_NODE_BUDGET);
    let known = known.solution().unwrap();
    for enc in [&full, &pre] {
        let model = StoredModel::new(enc.qubo(&enc.default_weights()).unwrap());
        let s = sample_of(&p, enc, known).unwrap();
        assert_eq!(model.energy(&s), -24.0);
        assert_eq!(&decode(&p, enc, &s), known);
    }
}

#[test]
fn a_fixed_piece_has_only_its_placement() {
    let mut p = EdgeMatching::blank(4, 4).unwrap();
    p.set_fixed(1, 2, Some((6, 0))).unwrap();
    let pl = Placements::of(&p);
    assert_eq!(pl.by_piece[6].len(), 1);
    assert_eq!(pl.by_cell[6].len(), 1);
    // Nothing else is held in a corner once something is fixed.
    assert!(pl.by_cell[0].len() > 1);
}

#[test]
fn a_model_beyond_the_budget_is_not_stored_and_says_so() {
    let text = include_str!("../../../../puzzles/edge-matching/official/eternity2.txt");
    let p = super::super::parse(text, "e2", &Default::default()).unwrap();
    let pl = Placements::of(&p);
    let couplings = estimate_couplings(&p, &pl);
    assert!(
        pl.list.len() > 150_000 && couplings > 100_000_000,
        "{couplings}"
    );
    // The full Eternity II QUBO is not stored, whatever the memory; its variables are.
    let enc = encode_within(&p, &EncodeOptions::default(), u64::MAX).unwrap();
    assert_eq!(enc.num_variables(), pl.list.len());
    let e = enc.qubo(&enc.default_weights()).unwrap_err().to_string();
    assert!(e.contains("340296492 couplings"), "{e}");
    // A model under the cap but over the memory budget is not stored either, and says why
    // with both figures.
    let clue = super::super::parse(
        include_str!("../../../../puzzles/edge-matching/official/clue2.txt"),
        "clue2",
        &Default::default(),
    )
    .unwrap();
    // Room for the placements (the unstored route), not for the stored couplings.
    let limit = placements_bound(&clue) * BYTES_PER_PLACEMENT;
    assert!(limit < estimate_couplings(&clue, &Placements::of(&clue)) * BYTES_PER_COUPLING);
    let enc = encode_within(&clue, &EncodeOptions::default(), limit).unwrap();
    // Below the placements' own need, the board is refused outright.
    let e = encode_within(&clue, &EncodeOptions::default(), limit - 1).unwrap_err();
    assert!(e.to_string().contains("placements, even unstored"), "{e}");
    let e = enc.qubo(&enc.default_weights()).unwrap_err().to_string();
    assert!(
        e.contains("couplings") && e.contains("memory budget"),
        "{e}"
    );
}
