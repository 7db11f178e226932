//! Tests of `fujitsu`.

use super::*;
use crate::qubo::Qubo;

#[test]
fn requests_are_polynomials_without_the_constant() {
    let q = Qubo::new(vec![-1.0, 0.0, 2.0], [(0, 1, 3.0)], 7.0).unwrap();
    let r = request(&q, Map::new(), false, &DaGroups::of(None, 3)).unwrap();
    assert_eq!(
        r["binary_polynomial"]["terms"],
        json!([{"c": -1.0, "p": [0]}, {"c": 2.0, "p": [2]}, {"c": 3.0, "p": [0, 1]}])
    );
    let huge = Qubo::new(vec![1e17], [], 0.0).unwrap();
    assert!(
        request(&huge, Map::new(), false, &DaGroups::of(None, 1))
            .unwrap_err()
            .to_string()
            .contains("2^52")
    );
}

/// Cells × row-digits of a board of `rows` rows, `side` cells and digits per row:
/// x[r][c][d] = side²·r + side·c + d.
fn latin_rows(rows: usize, side: usize) -> crate::qubo::OneHotGroups {
    let x = |r: usize, c: usize, d: usize| (side * side * r + side * c + d) as u32;
    let mut labelled: Vec<(String, Vec<u32>)> = Vec::new();
    for r in 0..rows {
        for c in 0..side {
            labelled.push((
                format!("cell[{r}][{c}]"),
                (0..side).map(|d| x(r, c, d)).collect(),
            ));
        }
    }
    for r in 0..rows {
        for d in 0..side {
            labelled.push((
                format!("row[{r}]#{d}"),
                (0..side).map(|c| x(r, c, d)).collect(),
            ));
        }
    }
    crate::qubo::OneHotGroups::from_labelled(
        rows * side * side + 1,
        labelled.iter().map(|(l, v)| (l.as_str(), v.clone())),
    )
}

#[test]
fn a_permutation_goes_as_square_blocks_over_the_leading_variables() {
    // Two rows of 3 cells × 3 digits and one free variable: two 3×3 blocks, then the free.
    let n = 19;
    let groups = latin_rows(2, 3);
    let da = DaGroups::of(Some(&groups), n);
    assert_eq!(da.param, Some(("two_way_one_hot_groups", vec![3, 3])));
    assert_eq!(da.order[18], 18, "the free variable comes last");
    let mut sorted = da.order.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
    // The fake's reading of the numbers holds exactly where the model's groups hold.
    let mut params = Map::new();
    params.insert("two_way_one_hot_groups".into(), json!({"numbers": [3, 3]}));
    let wire_groups = DaGroups::read(&params, n).unwrap();
    assert_eq!(wire_groups.two_way, Some([0, 1]));
    let wire = da.wire_index();
    // Row 0 holds digits (0, 1, 2) in cells (0, 1, 2); row 1 holds (2, 0, 1).
    let mut x = vec![0u8; n];
    for (r, digits) in [(0usize, [0, 1, 2]), (1, [2, 0, 1])] {
        for (c, d) in digits.into_iter().enumerate() {
            x[9 * r + 3 * c + d] = 1;
        }
    }
    let mut on_wire = vec![0u8; n];
    for v in 0..n {
        on_wire[wire[v] as usize] = x[v];
    }
    assert!(wire_groups.holds(0, &on_wire) && wire_groups.holds(1, &on_wire));
    assert_eq!(da.to_model(&on_wire), x);
    // Without groups: the identity, nothing sent.
    assert_eq!(DaGroups::of(None, 4).order, vec![0, 1, 2, 3]);
    assert_eq!(DaGroups::of(None, 4).param, None);
}

#[test]
fn groups_that_are_not_square_blocks_go_one_way_and_bad_numbers_are_refused() {
    // An edge board's shape: each (cell, piece) pair has two variables (rotations).
    let labelled = vec![
        ("cell[0]", vec![0, 1, 2, 3]),
        ("cell[1]", vec![4, 5, 6, 7]),
        ("piece[0]", vec![0, 1, 4, 5]),
        ("piece[1]", vec![2, 3, 6, 7]),
    ];
    let groups = crate::qubo::OneHotGroups::from_labelled(8, labelled);
    assert!(groups.two_way.is_some());
    let da = DaGroups::of(Some(&groups), 8);
    assert_eq!(da.param, Some(("one_way_one_hot_groups", vec![4, 4])));
    let read = |v: Value| {
        let mut p = Map::new();
        for (k, x) in v.as_object().unwrap() {
            p.insert(k.clone(), x.clone());
        }
        DaGroups::read(&p, 8)
    };
    assert!(read(json!({"one_way_one_hot_groups": {"numbers": [4, 4]}})).is_ok());
    for (bad, says) in [
        (
            json!({"one_way_one_hot_groups": {"numbers": [4, 5]}}),
            "cover 9",
        ),
        (
            json!({"two_way_one_hot_groups": {"numbers": [3]}}),
            "cover 9",
        ),
        (
            json!({"one_way_one_hot_groups": {"numbers": [0]}}),
            "positive",
        ),
        (json!({"one_way_one_hot_groups": [4]}), "numbers"),
        (
            json!({"one_way_one_hot_groups": {"numbers": [4]}, "two_way_one_hot_groups": {"numbers": [2]}}),
            "together",
        ),
    ] {
        let e = read(bad).unwrap_err();
        assert!(e.contains(says), "{e}");
    }
}

#[test]
fn solutions_and_timing_are_read_and_bad_ones_named() {
    let s = json!({"solutions": [{"energy": -2.0, "penalty_energy": 0.0, "frequency": 3,
        "configuration": {"0": true, "2": false}}],
        "timing": {"solve_time": "11027", "total_elapsed_time": "11062"}});
    let d = decode_solution(&s, 3).unwrap();
    assert_eq!(d[0].sample, vec![1, 0, 0]);
    assert_eq!((d[0].energy, d[0].frequency), (-2.0, 3));
    assert_eq!(timing_ms(&s)["solve_time_ms"], 11027.0);
    let bad = json!({"solutions": [{"configuration": {"7": true}}]});
    assert!(
        decode_solution(&bad, 3)
            .unwrap_err()
            .to_string()
            .contains("\"7\"")
    );
    let bad = json!({"solutions": [{"configuration": {"0": 1}}]});
    assert!(decode_solution(&bad, 3).is_err());
}
