//! Encodings against their own matrices: energies, reports, structure, fixing.

use super::compile::too_large_to_store;
use super::*;

fn two_var_one_hot() -> Encoding {
    let mut b = EncodingBuilder::new();
    let w = b.weight("oh", 1.0, (0.0, 10.0), "one-hot");
    let r = b.weight("bonus", 2.0, (0.0, 10.0), "reward");
    let x0 = b.variable(Label::new("x", &[0]));
    let x1 = b.variable(Label::new("x", &[1]));
    b.add_one_hot("pick".into(), w, &[x0, x1]);
    b.add_reward("prefer[1]".into(), r, x1);
    b.build()
}

/// Every kind of group on 9 variables: squares with coefficients and targets (variable 0 in
/// three of them, so one is spelled out), an at-most-one, a nogood, general terms.
fn mixed_encoding() -> Encoding {
    let mut b = EncodingBuilder::new();
    let a = b.weight("a", 1.5, (0.0, 10.0), "");
    let c = b.weight("c", 0.7, (0.0, 10.0), "");
    let v: Vec<u32> = (0..7).map(|i| b.variable(Label::new("x", &[i]))).collect();
    b.add_one_hot("oh".into(), a, &v[0..4]);
    b.add_square(
        "sq".into(),
        c,
        &[(v[0], 1.0), (v[4], -2.0), (v[5], 1.0)],
        1.0,
    );
    b.add_square("third".into(), a, &[(v[0], 3.0), (v[6], 1.0)], 2.0);
    b.add_at_most_one("amo".into(), c, &v[3..7]);
    b.add_nogood("cut".into(), a, &v[1..4], |j| Label::new("s", &[j]));
    b.add_group(
        "general".into(),
        c,
        0.5,
        vec![(v[2], -1.0)],
        vec![(v[2], v[5], 2.0), (v[1], v[6], -1.5)],
        -1.0,
    );
    b.build()
}

/// The structure of an encoding has the stored QUBO's energies and couplings.
fn assert_structure_matches(enc: &Encoding, w: &Weights) {
    let q = enc.qubo(w).unwrap();
    let g = enc.structure(w).unwrap();
    let n = enc.num_variables();
    assert_eq!(super::super::Model::num_variables(&g), n);
    for bits in 0..1u32 << n {
        let x: Vec<u8> = (0..n).map(|i| ((bits >> i) & 1) as u8).collect();
        let (want, got) = (q.energy(&x).unwrap(), super::super::Model::energy(&g, &x));
        assert!(
            (want - got).abs() < 1e-9,
            "{x:?}: stored {want}, structure {got}"
        );
    }
    let csr = super::super::Csr::of_model(&g);
    let stored = q.csr();
    for i in 0..n {
        assert!(
            (csr.linear[i] - stored.linear[i]).abs() < 1e-9,
            "linear {i}"
        );
        let row = |c: &super::super::Csr| -> Vec<(u32, i64)> {
            let (cols, vals) = c.row(i);
            cols.iter()
                .zip(vals)
                .map(|(&j, &v)| (j, (v * 1e9).round() as i64))
                .filter(|t| t.1 != 0)
                .collect()
        };
        assert_eq!(row(&csr), row(&stored), "row {i}");
    }
}

#[test]
fn the_structure_of_an_encoding_prices_states_as_its_qubo_does() {
    let enc = mixed_encoding();
    assert_structure_matches(&enc, &enc.default_weights());
    assert_structure_matches(&enc, &Weights::new().with("a", 0.0).unwrap());
    // Presolved: squares absorb their fixed terms into the target.
    let mut fixed = vec![None; enc.num_variables()];
    fixed[0] = Some(true);
    fixed[4] = Some(false);
    let presolved = enc.fix(&fixed);
    assert_structure_matches(&presolved, &presolved.default_weights());
    // Reports read the factored squares: x0 alone on holds the one-hot.
    let mut x = vec![0u8; presolved.num_variables()];
    let oh = presolved
        .report(&x, &presolved.default_weights(), false)
        .unwrap();
    assert!(oh.iter().find(|r| r.constraint == "oh").unwrap().holds);
    x[0] = 1; // x1 on as well
    let broken = presolved
        .report(&x, &presolved.default_weights(), true)
        .unwrap();
    assert!(broken.iter().any(|r| r.constraint == "oh"), "{broken:?}");
}

#[test]
fn contributors_of_a_square_add_up_to_its_entry() {
    let enc = mixed_encoding();
    let w = enc.default_weights();
    let q = enc.qubo(&w).unwrap();
    let csr = q.csr();
    for (i, j) in [(0, 0), (0, 4), (3, 5), (4, 5), (1, 6)] {
        let sum: f64 = enc
            .contributors(i, j, &w)
            .unwrap()
            .iter()
            .map(|c| c.value)
            .sum();
        let want = if i == j {
            csr.linear[i]
        } else {
            let (cols, vals) = csr.row(i);
            cols.iter()
                .position(|&c| c as usize == j)
                .map_or(0.0, |k| vals[k])
        };
        assert!((sum - want).abs() < 1e-9, "({i}, {j}): {sum} vs {want}");
    }
}

#[test]
fn models_past_the_stored_limit_are_not_stored() {
    assert!(too_large_to_store(1000).is_none());
    let why = too_large_to_store(MAX_STORED_PAIRS + 1).unwrap();
    assert!(why.contains("sampled through its structure"), "{why}");
}

#[test]
fn label_round_trips_through_text() {
    let l = Label::new("x", &[3, 4, 6]);
    assert_eq!(l.to_string(), "x[3][4][6]");
    assert_eq!("x[3][4][6]".parse::<Label>().unwrap(), l);
    assert!("x[3".parse::<Label>().is_err());
}

#[test]
fn qubo_follows_weights_and_energies_match_groups() {
    let enc = two_var_one_hot();
    let w = enc.default_weights();
    let q = enc.qubo(&w).unwrap();
    // (x0+x1-1)^2 - 2 x1
    assert_eq!(q.energy(&[0, 0]).unwrap(), 1.0);
    assert_eq!(q.energy(&[1, 0]).unwrap(), 0.0);
    assert_eq!(q.energy(&[0, 1]).unwrap(), -2.0);
    assert_eq!(q.energy(&[1, 1]).unwrap(), 1.0 - 2.0);
    let w3 = w.clone().with("oh", 3.0).unwrap();
    let q3 = enc.qubo(&w3).unwrap();
    assert_eq!(q3.energy(&[1, 1]).unwrap(), 3.0 - 2.0);
    assert_eq!(enc.satisfied_energy(&w3).unwrap(), -2.0);
}

#[test]
fn unknown_or_nan_weights_are_rejected() {
    let enc = two_var_one_hot();
    let err = enc
        .qubo(&Weights::new().with("nope", 1.0).unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("unknown weight 'nope'"), "{err}");
    assert!(Weights::new().with("oh", f64::NAN).is_err());
}

#[test]
fn report_names_broken_groups() {
    let enc = two_var_one_hot();
    let w = enc.default_weights();
    let broken = enc.report(&[1, 1], &w, true).unwrap();
    let names: Vec<_> = broken.iter().map(|r| r.constraint.as_str()).collect();
    assert_eq!(names, ["pick"]);
    let all = enc.report(&[1, 0], &w, false).unwrap();
    assert_eq!(all.len(), 2);
    assert!(!all[1].holds, "prefer[1] does not hold when x1 = 0");
}

#[test]
fn contributors_of_an_entry() {
    let enc = two_var_one_hot();
    let w = enc.default_weights();
    let c = enc.contributors(1, 1, &w).unwrap();
    let mut names: Vec<_> = c.iter().map(|c| (c.constraint.as_str(), c.value)).collect();
    names.sort_by(|a, b| a.0.cmp(b.0));
    assert_eq!(names, [("pick", -1.0), ("prefer[1]", -2.0)]);
    let c01 = enc.contributors(0, 1, &w).unwrap();
    assert_eq!(c01.len(), 1);
    assert_eq!(c01[0].value, 2.0);
}

#[test]
fn fixing_variables_keeps_energies() {
    let enc = two_var_one_hot();
    let w = enc.default_weights();
    let full = enc.qubo(&w).unwrap();
    let reduced = enc.fix(&[Some(false), None]);
    let q = reduced.qubo(&w).unwrap();
    assert_eq!(q.num_variables(), 1);
    for x1 in [0u8, 1] {
        assert_eq!(q.energy(&[x1]).unwrap(), full.energy(&[0, x1]).unwrap());
    }
    let assignment: Vec<_> = reduced
        .full_assignment(&[1])
        .map(|(l, b)| (l.to_string(), b))
        .collect();
    assert_eq!(assignment, [("x[1]".into(), true), ("x[0]".into(), false)]);
}

#[test]
fn untouched_variables_get_empty_rows_and_repeated_terms_add_up() {
    let mut b = EncodingBuilder::new();
    let w = b.weight("a", 2.0, (0.0, 10.0), "a");
    let v = b.weight("b", 3.0, (0.0, 10.0), "b");
    let x: Vec<u32> = (0..4).map(|k| b.variable(Label::new("x", &[k]))).collect();
    // x0 and x2 untouched; x1 twice under `a`, once under `b`; x1·x3 twice.
    b.add_group(
        "g0".into(),
        w,
        0.5,
        vec![(x[1], 1.0), (x[1], 4.0)],
        Vec::new(),
        0.0,
    );
    b.add_group(
        "g1".into(),
        v,
        0.0,
        vec![(x[1], -1.0)],
        vec![(x[1], x[3], 1.0), (x[3], x[1], 2.0)],
        -1.0,
    );
    let enc = b.build();
    let q = enc.qubo(&enc.default_weights()).unwrap();
    assert_eq!(q.linear(), [0.0, 2.0 * 5.0 - 3.0, 0.0, 0.0]);
    assert_eq!(q.offset(), 1.0);
    assert_eq!(enc.num_pairs(), 1);
    assert_eq!(q.energy(&[0, 1, 0, 1]).unwrap(), 1.0 + 7.0 + 9.0);
    assert!(enc.groups_of(0).is_empty() && enc.groups_of(2).is_empty());
    assert_eq!(enc.groups_of(1), [0, 1]);
    assert_eq!(enc.groups_of(3), [1]);
}

#[test]
fn slack_weights_reach_every_count_exactly() {
    for total in 0..70u64 {
        let w = slack_weights(total);
        assert_eq!(w.iter().sum::<u64>(), total);
        // Greedy representation of every value.
        for value in 0..=total {
            let mut left = value;
            for &x in w.iter().rev() {
                if x <= left {
                    left -= x;
                }
            }
            assert_eq!(left, 0, "total {total}, value {value}: {w:?}");
        }
    }
}

#[test]
fn a_nogood_forbids_all_ones_and_nothing_else() {
    for n in 1..=5u32 {
        let mut b = EncodingBuilder::new();
        let w = b.weight("cut", 1.0, (0.0, 10.0), "");
        let vars: Vec<u32> = (0..n).map(|i| b.variable(Label::new("y", &[i]))).collect();
        b.add_nogood("cut#0".into(), w, &vars, |j| Label::new("s", &[j]));
        let enc = b.build();
        let q = enc.qubo(&enc.default_weights()).unwrap();
        let slack = enc.num_variables() - n as usize;
        for x in 0..1u32 << n {
            // The best slack for this x.
            let best = (0..1u32 << slack)
                .map(|s| {
                    let mut sample: Vec<u8> = (0..n).map(|i| (x >> i & 1) as u8).collect();
                    sample.extend((0..slack).map(|i| (s >> i & 1) as u8));
                    q.energy(&sample).unwrap()
                })
                .fold(f64::INFINITY, f64::min);
            let all_ones = x == (1 << n) - 1;
            assert_eq!(best > 0.5, all_ones, "n {n}, x {x:b}: {best}");
        }
    }
}

#[test]
fn unmet_conditions_name_the_relation_and_its_values_and_skip_moot_ones() {
    let mut b = EncodingBuilder::new();
    let wa = b.weight("a", 3.0, (0.0, 10.0), "a");
    let wb = b.weight("b", 1.0, (0.0, 10.0), "b");
    let x = b.variable(Label::new("x", &[0]));
    let y = b.variable(Label::new("x", &[1]));
    b.add_one_hot("one".into(), wa, &[x, y]);
    b.add_reward("keep".into(), wb, y);
    b.condition(&[(wa, 1.0), (wb, -1.0)], true, "a > b", "lost");
    b.condition(&[(wa, 1.0), (wb, -3.0)], false, "a ≥ 3 × b", "also lost");
    let e = b.build();
    assert!(e.unmet_conditions(&Weights::new()).unwrap().is_empty());
    // A strict relation fails at the tie; a non-strict one holds there.
    let w = Weights::new().with("a", 4.0).unwrap();
    assert!(e.unmet_conditions(&w).unwrap().is_empty());
    let tie = w.with("b", 4.0).unwrap();
    let said: Vec<String> = (e.unmet_conditions(&tie).unwrap().iter())
        .map(|u| u.to_string())
        .collect();
    assert_eq!(
        said,
        [
            "a > b does not hold (4 against 4): lost",
            "a ≥ 3 × b does not hold (4 against 12): also lost"
        ]
    );
    assert!(
        e.unmet_conditions(&Weights::new().with("c", 1.0).unwrap())
            .is_err()
    );
    // Where each relation flips as one weight moves, the others as set.
    let relations = |w: &Weights, name: &str| -> Vec<(f64, String)> {
        e.condition_thresholds(w, name).unwrap()
    };
    assert_eq!(
        relations(&tie, "b"),
        [
            (4.0, "a > b".to_string()),
            (4.0 / 3.0, "a ≥ 3 × b".to_string())
        ]
    );
    assert_eq!(
        relations(&Weights::new(), "a"),
        [(1.0, "a > b".to_string()), (3.0, "a ≥ 3 × b".to_string())]
    );
    // With y fixed, b scales no term: its conditions are moot.
    let fixed = e.fix(&[None, Some(true)]);
    assert!(fixed.unmet_conditions(&tie).unwrap().is_empty());
    assert!(fixed.condition_thresholds(&tie, "a").unwrap().is_empty());
}
