//! Property tests of the moves: groups stay held, ΔE is the recomputed difference, and at a
//! fixed β each engine samples the Boltzmann distribution over the held states (exact
//! enumeration as the oracle).

use super::*;
use crate::qubo::grouped::{GroupedModel, Square};
use crate::qubo::{Model, OneHotGroups};
use std::collections::HashMap;

/// A model over families A (rows of a 3×3 board) and B (columns), each (a, b) cell holding one
/// variable or two (as an edge board's cells hold a piece's rotations), plus `free` variables
/// outside every group; random linear terms and couplings on top of the two families'
/// one-hot squares. Returns the model and its labelled groups.
fn model(free: usize, seed: u64) -> (GroupedModel, Vec<(String, Vec<u32>)>) {
    model_with_cells(free, seed, |a, b| 1 + (a + 2 * b) % 2)
}

/// `model` with `cell_size(a, b)` variables in cell (a, b).
fn model_with_cells(
    free: usize,
    seed: u64,
    cell_size: impl Fn(u32, u32) -> u32,
) -> (GroupedModel, Vec<(String, Vec<u32>)>) {
    let mut s = seed;
    let mut next = || (crate::rng::splitmix64(&mut s) % 2001) as f64 / 1000.0 - 1.0;
    let mut cell_vars = Vec::new();
    let mut n = 0u32;
    for a in 0..3 {
        for b in 0..3 {
            let k = cell_size(a, b);
            cell_vars.push(((a, b), (n..n + k).collect::<Vec<u32>>()));
            n += k;
        }
    }
    let n = n as usize + free;
    let mut labelled = Vec::new();
    for a in 0..3 {
        let vars: Vec<u32> = cell_vars
            .iter()
            .filter(|c| c.0.0 == a)
            .flat_map(|c| c.1.clone())
            .collect();
        labelled.push((format!("row[{a}]"), vars));
    }
    for b in 0..3 {
        let vars: Vec<u32> = cell_vars
            .iter()
            .filter(|c| c.0.1 == b)
            .flat_map(|c| c.1.clone())
            .collect();
        labelled.push((format!("col[{b}]"), vars));
    }
    let squares = labelled
        .iter()
        .map(|(_, vars)| Square {
            weight: 2.0,
            target: 1.0,
            terms: vars.iter().map(|&v| (v, 1.0)).collect(),
        })
        .collect();
    let linear = (0..n).map(|_| next()).collect();
    let mut pairs = Vec::new();
    for i in 0..n as u32 {
        for j in i + 1..n as u32 {
            if (i * 7 + j * 3) % 3 == 0 {
                pairs.push((i, j, next()));
            }
        }
    }
    (
        GroupedModel::from_terms(n, 0.25, linear, squares, pairs),
        labelled,
    )
}

fn groups(n: usize, labelled: &[(String, Vec<u32>)]) -> OneHotGroups {
    OneHotGroups::from_labelled(n, labelled.iter().map(|(l, v)| (l.as_str(), v.clone())))
}

/// Every state of `n` bits the plan holds.
fn held_states(plan: &MovePlan, n: usize) -> Vec<Vec<u8>> {
    // A held state has exactly one variable on per group of the first family: testing that on
    // the bits first skips nearly all of the 2ⁿ candidates (a 24-variable test spent 30 s
    // building and checking each).
    let grouped: u32 = (0..n)
        .filter(|&v| plan.a_of[v] != NONE)
        .map(|v| 1 << v)
        .sum();
    let mut x = vec![0u8; n];
    let mut held = Vec::new();
    for bits in 0u32..1 << n {
        if (bits & grouped).count_ones() as usize != plan.num_a() {
            continue;
        }
        for (v, b) in x.iter_mut().enumerate() {
            *b = ((bits >> v) & 1) as u8;
        }
        if plan.holds(&x) {
            held.push(x.clone());
        }
    }
    held
}

/// Runs the moves at fixed β from one start and compares the visited states' frequencies
/// with the Boltzmann distribution over the held states.
fn assert_boltzmann<E: Engine>(
    plan: &MovePlan,
    model: &dyn Model,
    mut state: MoveState<E>,
    beta: f64,
) {
    let n = model.num_variables();
    let states = held_states(plan, n);
    let weights: Vec<f64> = states
        .iter()
        .map(|x| (-beta * model.energy(x)).exp())
        .collect();
    let z: f64 = weights.iter().sum();
    let mut rng = Xoshiro128p::for_read(11, 0);
    let mut counts: HashMap<Vec<u8>, u64> = HashMap::new();
    let sweeps = 150_000;
    for _ in 0..sweeps {
        state.sweep(plan, &mut rng, beta);
        *counts.entry(state.engine.state()).or_default() += 1;
    }
    let mut distance = 0.0;
    for (x, w) in states.iter().zip(&weights) {
        let seen = counts.get(x).copied().unwrap_or(0) as f64 / sweeps as f64;
        distance += (seen - w / z).abs() / 2.0;
    }
    assert_eq!(
        counts.keys().filter(|x| !plan.holds(x)).count(),
        0,
        "a visited state breaks a held group"
    );
    assert!(
        distance < 0.04,
        "total variation {distance:.4} from the Boltzmann distribution over {} held states",
        states.len()
    );
}

#[test]
fn both_engines_sample_the_boltzmann_distribution_over_the_held_states() {
    for (set, free) in [(MoveSet::TwoWay, 1), (MoveSet::OneHot, 2)] {
        let (m, labelled) = model(free, 3);
        let n = m.num_variables();
        let plan = MovePlan::new(Some(&groups(n, &labelled)), set, None, n)
            .unwrap()
            .unwrap();
        assert_eq!(
            plan.kind(),
            if set == MoveSet::TwoWay {
                "two-way"
            } else {
                "one-hot"
            }
        );
        let mut rng = Xoshiro128p::for_read(5, 0);
        let start = plan.random_start(&mut rng).unwrap();
        assert!(plan.holds(&start));
        let run::EngineLayout::Grouped(kernel, all_held) = run::Layout::new(&m, &plan).engine
        else {
            panic!("a structured model")
        };
        assert_eq!(
            all_held,
            set == MoveSet::TwoWay,
            "both families are all the groups"
        );
        let csr = MoveCsr::new(&m);
        for beta in [0.7, 2.0] {
            assert_boltzmann(
                &plan,
                &m,
                MoveState::new(&plan, GroupedEngine::new(&kernel, all_held, start.clone())),
                beta,
            );
            assert_boltzmann(
                &plan,
                &m,
                MoveState::new(&plan, CsrEngine::new(&csr, start.clone())),
                beta,
            );
        }
    }
}

#[test]
fn every_move_keeps_the_groups_and_its_delta_is_the_energy_difference() {
    let (m, labelled) = model(3, 8);
    let n = m.num_variables();
    let csr = MoveCsr::new(&m);
    for set in [MoveSet::OneHot, MoveSet::TwoWay] {
        let plan = MovePlan::new(Some(&groups(n, &labelled)), set, None, n)
            .unwrap()
            .unwrap();
        // The structure with its held groups' pair weights zeroed walks exactly as the
        // stored model does.
        let run::EngineLayout::Grouped(kernel, all_held) = run::Layout::new(&m, &plan).engine
        else {
            panic!("a structured model")
        };
        let mut rng = Xoshiro128p::for_read(2, 1);
        let start = plan.random_start(&mut rng).unwrap();
        let mut a = MoveState::new(&plan, GroupedEngine::new(&kernel, all_held, start.clone()));
        let mut b = MoveState::new(&plan, CsrEngine::new(&csr, start));
        let (mut ra, mut rb) = (Xoshiro128p::for_read(4, 0), Xoshiro128p::for_read(4, 0));
        for sweep in 0..300 {
            let beta = 0.05 * sweep as f64;
            a.sweep(&plan, &mut ra, beta);
            b.sweep(&plan, &mut rb, beta);
            let (xa, xb) = (a.engine.state(), b.engine.state());
            // Same random numbers, same exact ΔE: the two engines walk the same path.
            assert_eq!(xa, xb, "sweep {sweep}");
            assert!(plan.holds(&xa), "sweep {sweep}: a held group broke");
            assert!((a.energy - m.energy(&xa)).abs() < 1e-9, "sweep {sweep}");
            assert!((b.energy - m.energy(&xb)).abs() < 1e-9, "sweep {sweep}");
        }
        assert!(a.accepted > 100, "{set:?}: moves were accepted");
    }
}

#[test]
fn auto_holds_a_lone_family_by_one_hot_moves() {
    // Numberlink's cells: each cell on exactly one of three paths, no second family.
    let labelled: Vec<(String, Vec<u32>)> = (0..4u32)
        .map(|c| (format!("cell[0][{c}]"), (0..3).map(|k| 3 * c + k).collect()))
        .collect();
    let plan = MovePlan::new(Some(&groups(12, &labelled)), MoveSet::Auto, None, 12)
        .unwrap()
        .unwrap();
    assert_eq!(plan.kind(), "one-hot");
    // A narrower family beside it (an endpoint's edges, not a permutation): the widest held.
    let mut two = labelled.clone();
    two.push(("endpoint[0]".to_string(), vec![0, 4]));
    let plan = MovePlan::new(Some(&groups(12, &two)), MoveSet::Auto, None, 12)
        .unwrap()
        .unwrap();
    assert_eq!(plan.kind(), "one-hot");
    assert!(
        plan.describe().starts_with("cell groups held"),
        "{}",
        plan.describe()
    );
}

#[test]
fn two_way_starts_are_perfect_matchings_and_impossible_ones_are_refused() {
    // Sudoku's cells × row-digits on a 4×4 board: every start fills each row with a
    // permutation of the digits.
    let x = |r: u32, c: u32, d: u32| 16 * r + 4 * c + d;
    let mut labelled = Vec::new();
    for r in 0..4 {
        for c in 0..4 {
            labelled.push((
                format!("cell[{r}][{c}]"),
                (0..4).map(|d| x(r, c, d)).collect(),
            ));
        }
    }
    for r in 0..4 {
        for d in 0..4 {
            labelled.push((
                format!("row[{r}]#{d}"),
                (0..4).map(|c| x(r, c, d)).collect(),
            ));
        }
    }
    let g = groups(64, &labelled);
    // Groups of 4: `auto` leaves them to single flips.
    assert!(
        MovePlan::new(Some(&g), MoveSet::Auto, None, 64)
            .unwrap()
            .is_none()
    );
    let plan = MovePlan::new(Some(&g), MoveSet::TwoWay, None, 64)
        .unwrap()
        .unwrap();
    assert_eq!(plan.kind(), "two-way");
    assert_eq!(
        plan.describe(),
        "cell and row groups held by two-way moves; their penalty terms are constant"
    );
    for seed in 0..20 {
        let start = plan
            .random_start(&mut Xoshiro128p::for_read(seed, 0))
            .unwrap();
        assert!(plan.holds(&start));
    }
    // Flip asked for, or no groups: no plan.
    assert!(
        MovePlan::new(Some(&g), MoveSet::Flip, None, 64)
            .unwrap()
            .is_none()
    );
    assert!(
        MovePlan::new(None, MoveSet::Auto, None, 64)
            .unwrap()
            .is_none()
    );
    // Two rows of two cells where both cells can take only digit 0: no permutation exists.
    let labelled = vec![
        ("a[0]".to_string(), vec![0, 1]),
        ("a[1]".to_string(), vec![2, 3]),
        ("b[0]".to_string(), vec![0, 2]),
        ("b[1]".to_string(), vec![1, 3]),
    ];
    let plan = MovePlan::new(Some(&groups(4, &labelled)), MoveSet::TwoWay, None, 4)
        .unwrap()
        .unwrap();
    assert!(
        plan.random_start(&mut Xoshiro128p::for_read(1, 0))
            .is_some()
    );
    let labelled = vec![
        ("a[0]".to_string(), vec![0, 1]),
        ("a[1]".to_string(), vec![2, 3]),
        ("b[0]".to_string(), vec![0, 1, 2, 3]),
        ("b[1]".to_string(), vec![4, 5]),
        ("a[2]".to_string(), vec![4, 5]),
    ];
    // Families of unequal sizes are not a permutation: one-hot on the widest instead.
    let plan = MovePlan::new(Some(&groups(6, &labelled)), MoveSet::TwoWay, None, 6)
        .unwrap()
        .unwrap();
    assert_eq!(plan.kind(), "one-hot");
}

#[test]
fn groups_no_state_can_hold_are_refused_by_name() {
    // Three rows and columns where rows 1 and 2 can both take only column 0: no permutation.
    // Variables: x00 x01 x02 (row 0), x10 (row 1), x20 (row 2).
    use crate::qubo::onehot::Family;
    use crate::qubo::{Qubo, StoredModel};
    let g = OneHotGroups {
        families: vec![
            Family {
                name: "row".into(),
                groups: vec![vec![0, 1, 2], vec![3], vec![4]],
            },
            Family {
                name: "col".into(),
                groups: vec![vec![0, 3, 4], vec![1], vec![2]],
            },
        ],
        two_way: Some([0, 1]),
    };
    let plan = MovePlan::new(Some(&g), MoveSet::TwoWay, None, 5)
        .unwrap()
        .unwrap();
    let m = StoredModel::new(Qubo::new(vec![0.0; 5], [], 0.0).unwrap());
    let e = run::prepare(&m, &plan, 1, 1, 1, String::new).err().unwrap();
    assert!(
        e.to_string()
            .contains("no assignment satisfies the row and col groups at once"),
        "{e}"
    );
}

#[test]
fn a_single_variable_group_in_a_held_family_stays_at_one() {
    // An edge board without presolve: the first corner may go to one cell in one turn only,
    // so its piece group and its cell group are both that one variable (v0). Rows 1–2 and
    // columns 1–2 hold two variables per cell. Even at β = 0, where every move is accepted,
    // v0 stays 1: its groups are held like the others (once, single flips cleared it).
    let mut labelled = vec![
        ("row[0]".to_string(), vec![0]),
        ("col[0]".to_string(), vec![0]),
    ];
    let cell = |a: u32, b: u32| 1 + 2 * (2 * (a - 1) + (b - 1));
    for a in 1..3 {
        labelled.push((
            format!("row[{a}]"),
            (1..3).flat_map(|b| [cell(a, b), cell(a, b) + 1]).collect(),
        ));
    }
    for b in 1..3 {
        labelled.push((
            format!("col[{b}]"),
            (1..3).flat_map(|a| [cell(a, b), cell(a, b) + 1]).collect(),
        ));
    }
    let n = 9;
    let squares = labelled
        .iter()
        .map(|(_, vars)| Square {
            weight: 2.0,
            target: 1.0,
            terms: vars.iter().map(|&v| (v, 1.0)).collect(),
        })
        .collect();
    // A reward for turning v0 off, so a free v0 would leave.
    let mut linear = vec![0.0; n];
    linear[0] = 5.0;
    let m = GroupedModel::from_terms(n, 0.25, linear, squares, Vec::new());
    let plan = MovePlan::new(Some(&groups(n, &labelled)), MoveSet::TwoWay, None, n)
        .unwrap()
        .unwrap();
    assert_eq!(plan.kind(), "two-way");
    assert!(
        !plan.holds(&[0, 1, 0, 0, 0, 0, 0, 1, 0]),
        "v0 off breaks a held group"
    );
    let run::EngineLayout::Grouped(kernel, all_held) = run::Layout::new(&m, &plan).engine else {
        panic!("a structured model")
    };
    assert!(all_held, "every group is held, the single ones included");
    for seed in 0..10 {
        let mut rng = Xoshiro128p::for_read(seed, 0);
        let start = plan.random_start(&mut rng).unwrap();
        let mut st = MoveState::new(&plan, GroupedEngine::new(&kernel, all_held, start));
        for _ in 0..50 {
            st.sweep(&plan, &mut rng, 0.0);
            let x = st.engine.state();
            assert!(plan.holds(&x) && x[0] == 1, "seed {seed}: {x:?}");
        }
    }
}

/// A 4×4 board of rows (A) and columns (B), one or two variables per cell, whose couplings
/// join only rows 0 with 1 and rows 2 with 3: two rows, one from each pair, are uncoupled, so
/// the assignment step re-solves rows (columns are all coupled to one another).
fn paired_rows_model(seed: u64) -> (crate::qubo::StoredModel, Vec<(String, Vec<u32>)>) {
    use crate::qubo::{Qubo, StoredModel};
    let mut s = seed;
    let mut next = || (crate::rng::splitmix64(&mut s) % 2001) as f64 / 1000.0 - 1.0;
    let mut cell = Vec::new();
    let mut n = 0u32;
    for a in 0..4u32 {
        for b in 0..4u32 {
            let k = 1 + (a + b) % 2;
            cell.push((a, b, (n..n + k).collect::<Vec<u32>>()));
            n += k;
        }
    }
    let row_of = |v: u32| cell.iter().find(|c| c.2.contains(&v)).unwrap().0;
    let mut labelled = Vec::new();
    for a in 0..4 {
        let vars = cell
            .iter()
            .filter(|c| c.0 == a)
            .flat_map(|c| c.2.clone())
            .collect();
        labelled.push((format!("row[{a}]"), vars));
    }
    for b in 0..4 {
        let vars = cell
            .iter()
            .filter(|c| c.1 == b)
            .flat_map(|c| c.2.clone())
            .collect();
        labelled.push((format!("col[{b}]"), vars));
    }
    let mut q = HashMap::new();
    for i in 0..n {
        for j in i + 1..n {
            if row_of(i) / 2 == row_of(j) / 2 && row_of(i) != row_of(j) {
                q.insert((i, j), next());
            }
        }
    }
    let linear = (0..n).map(|_| next()).collect();
    let terms = q.into_iter().map(|((i, j), v)| (i as usize, j as usize, v));
    let qubo = Qubo::new(linear, terms, 0.0).unwrap();
    (StoredModel::new(qubo), labelled)
}

#[test]
fn the_assignment_step_refills_its_set_optimally_and_exactly() {
    for seed in 0..6 {
        let (m, labelled) = paired_rows_model(seed);
        let n = m.num_variables();
        let plan = MovePlan::new(Some(&groups(n, &labelled)), MoveSet::Assignment, None, n)
            .unwrap()
            .unwrap();
        assert_eq!(plan.kind(), "assignment");
        let layout = run::Layout::new(&m, &plan);
        let asg = layout.assignment.as_ref().expect("an assignment table");
        let run::EngineLayout::Csr(csr) = &layout.engine else {
            panic!("a stored model")
        };
        let states = held_states(&plan, n);
        let mut rng = Xoshiro128p::for_read(seed, 3);
        let mut st = MoveState::new(
            &plan,
            CsrEngine::new(csr, plan.random_start(&mut rng).unwrap()),
        );
        let mut scratch = assignment::Scratch::new(&plan);
        let mut improved = 0;
        for step in 0..40 {
            // Shake the state between steps so each step has work to do.
            st.sweep(&plan, &mut rng, 0.3);
            let before = st.engine.state();
            let e_before = m.energy(&before);
            let applied = assignment::step(asg, &plan, &mut st, &mut rng, &mut scratch);
            let after = st.engine.state();
            assert!(
                plan.holds(&after),
                "seed {seed} step {step}: a held group broke"
            );
            assert!(
                (st.energy - m.energy(&after)).abs() < 1e-9,
                "seed {seed} step {step}"
            );
            let set = scratch.last_set().to_vec();
            assert!(set.len() >= 2, "a set of at least two uncoupled rows");
            assert!(
                set.iter()
                    .all(|&a| set.iter().all(|&b| a == b || (a / 2 != b / 2))),
                "rows {set:?} are coupled"
            );
            // The oracle: the lowest held state that agrees with `before` outside the set.
            let in_set = |v: usize| set.contains(&plan.a_of[v]);
            let best = states
                .iter()
                .filter(|x| (0..n).all(|v| in_set(v) || x[v] == before[v]))
                .map(|x| m.energy(x))
                .fold(f64::INFINITY, f64::min);
            match applied {
                Some(de) => {
                    assert!(de <= 1e-9, "seed {seed} step {step}: ΔE {de}");
                    assert!(
                        (m.energy(&after) - best).abs() < 1e-9,
                        "seed {seed} step {step}"
                    );
                    improved += usize::from(de < -1e-9);
                }
                None => {
                    assert_eq!(after, before);
                    assert!(
                        best >= e_before - 1e-9,
                        "seed {seed} step {step}: missed {best}"
                    );
                }
            }
        }
        assert!(improved > 0, "seed {seed}: some step lowered the energy");
    }
}

/// `hold` picks the pair: on a full 4×4 Sudoku model, `cell,box` holds cells × box-digits
/// (Lewis's box permutations) instead of the default cells × row-digits; every move keeps
/// both families and its ΔE is the model's own. Names that cannot be held are refused with
/// the reason.
#[test]
fn hold_names_the_families_and_box_moves_keep_the_boxes() {
    use crate::puzzle::{EncodeOptions, Puzzle, sudoku::Sudoku};
    let p = Sudoku::from_line("1.3...1.2.......").unwrap();
    let encoding = p.encode(&EncodeOptions::default()).unwrap();
    let weights = encoding.default_weights();
    let m = crate::qubo::StoredModel::new(encoding.qubo(&weights).unwrap());
    let n = m.num_variables();
    let groups = &encoding.one_hot_groups(&weights).unwrap();
    let default = MovePlan::new(Some(groups), MoveSet::TwoWay, None, n)
        .unwrap()
        .unwrap();
    assert_eq!(default.held(), ["cell", "row"]);
    let plan = MovePlan::new(Some(groups), MoveSet::TwoWay, Some("cell, box"), n)
        .unwrap()
        .unwrap();
    assert_eq!(plan.held(), ["cell", "box"]);
    // auto with two names makes two-way moves; with one, one-hot.
    let auto = MovePlan::new(Some(groups), MoveSet::Auto, Some("cell,box"), n).unwrap();
    assert_eq!(auto.map(|p| p.kind()), Some("two-way"));
    let one = MovePlan::new(Some(groups), MoveSet::Auto, Some("box"), n).unwrap();
    assert_eq!(
        one.as_ref().map(|p| p.held().to_vec()),
        Some(vec!["box".to_string()])
    );

    let box_of = |v: usize| {
        let (r, c, d) = (v / 16, (v / 4) % 4, v % 4);
        (2 * (r / 2) + c / 2) * 4 + d
    };
    let csr = MoveCsr::new(&m);
    let start = plan.random_start(&mut Xoshiro128p::for_read(3, 0)).unwrap();
    let mut state = MoveState::new(&plan, CsrEngine::new(&csr, start));
    let mut rng = Xoshiro128p::for_read(9, 0);
    for sweep in 0..200 {
        state.sweep(&plan, &mut rng, 0.02 * sweep as f64);
        let x = state.engine.state();
        let mut per_box_digit = [0; 16];
        for v in (0..n).filter(|&v| x[v] == 1) {
            per_box_digit[box_of(v)] += 1;
        }
        assert_eq!(
            per_box_digit, [1; 16],
            "sweep {sweep}: a box holds a digit once"
        );
        assert!(
            (state.energy - Model::energy(&m, &x)).abs() < 1e-9,
            "sweep {sweep}"
        );
    }
    assert!(state.accepted > 50);

    let refused = |set, hold| {
        MovePlan::new(Some(groups), set, Some(hold), n)
            .unwrap_err()
            .to_string()
    };
    let e = refused(MoveSet::TwoWay, "cell,block");
    assert!(
        e.contains("'block'") && e.contains("cell, row, col, box"),
        "{e}"
    );
    // Rows × columns is a permutation too (per digit); a family of 3 groups against one of
    // 2 is not.
    assert_eq!(
        MovePlan::new(Some(groups), MoveSet::TwoWay, Some("row,col"), n)
            .unwrap()
            .unwrap()
            .held(),
        ["row", "col"]
    );
    let uneven = self::groups(
        4,
        &[
            ("a[0]".to_string(), vec![0, 1]),
            ("a[1]".to_string(), vec![2, 3]),
            ("b[0]".to_string(), vec![0, 1, 2, 3]),
        ],
    );
    let e = MovePlan::new(Some(&uneven), MoveSet::TwoWay, Some("a,b"), 4)
        .unwrap_err()
        .to_string();
    assert!(e.contains("'a' and 'b' do not form a permutation"), "{e}");
    assert!(refused(MoveSet::OneHot, "cell,box").contains("one family"));
    assert!(refused(MoveSet::TwoWay, "cell").contains("two families"));
    assert!(refused(MoveSet::Flip, "cell").contains("flip"));
    assert!(refused(MoveSet::TwoWay, "cell,cell").contains("named twice"));
    assert!(MovePlan::new(None, MoveSet::Auto, Some("cell"), n).is_err());
    // The window's line says the same.
    assert_eq!(
        describe(Some(groups), MoveSet::TwoWay, Some("cell,box"), n),
        Ok(Some(
            "cell and box groups held by two-way moves; their penalty terms are constant".into()
        ))
    );
}

mod in_lanes;

#[test]
fn a_ladders_cold_end_leaves_the_rarest_small_steps_unfrozen_and_an_anneals_does_not() {
    // As Numberlink's cell model: soft terms of 1/8 and their sums (about 6 % of the uphill
    // steps), then 7/8 and up with a median near 4.
    let mut steps: Vec<f64> = (0..1000)
        .map(|k| match k % 50 {
            0 => 0.125,
            1 => 0.25,
            2 => 0.375,
            3 => 0.875,
            j => 1.125 + (j % 7) as f64,
        })
        .collect();
    let ln100 = 100f64.ln();
    let (hot, anneal_cold) = range_from_uphill(&mut steps.clone(), RangeFor::Annealing);
    let (ladder_hot, ladder_cold) = range_from_uphill(&mut steps, RangeFor::Tempering);
    assert_eq!(hot, ladder_hot, "the hot end is the same rule for both");
    assert!((anneal_cold - ln100 / 0.125).abs() < 1e-12, "{anneal_cold}");
    assert!((ladder_cold - ln100 / 0.875).abs() < 1e-12, "{ladder_cold}");
    // Where the smallest step is common (Sudoku's and edge matching's penalties), both agree.
    let mut even: Vec<f64> = (0..1000).map(|k| [2.0, 2.0, 4.0][k % 3]).collect();
    assert_eq!(
        range_from_uphill(&mut even.clone(), RangeFor::Annealing),
        range_from_uphill(&mut even, RangeFor::Tempering)
    );
    // No uphill step at all (a model without couplings) keeps the fallback range.
    assert_eq!(range_from_uphill(&mut [], RangeFor::Tempering), (0.1, 1.0));
}
