//! Tests of one scan: piece sets against lists, joint budgets, keys by one anchor.

use super::JointChecks::{AtStart, EveryPiece};
use super::*;
use crate::puzzle::edge_matching::generate::generate;
use crate::puzzle::edge_matching::solve::{board_solution, scan_orders, search_from};

/// How the placed part of the repair window in `starts` is left.
#[derive(Clone, Copy, PartialEq)]
enum Window {
    /// As the tiling has it.
    AsTiled,
    /// With two frame pieces outside the window swapped, so it mismatches.
    Mismatched,
}

/// Search starts on `p`: an empty board in each of `orders` (the first a scan), then a repair
/// window — the first tiling of that scan with its middle rows freed, filled bottom up.
fn starts(
    p: &EdgeMatching,
    pl: &Placements,
    orders: Vec<Vec<usize>>,
    window: Window,
) -> Vec<(Vec<Option<u32>>, Vec<usize>)> {
    let (cols, cells) = (p.cols(), p.rows() * p.cols());
    let first = search_from(p, pl, vec![None; cells], &orders[0], 1, u64::MAX);
    let mut half = first.boards[0].clone();
    let freed: Vec<usize> = (cols..cells - cols).collect();
    for &cell in &freed {
        half[cell] = None;
    }
    if window == Window::Mismatched {
        let at = |cell: usize, v: Option<u32>| {
            let piece = pl.list[v.unwrap() as usize].piece;
            (pl.by_cell[cell].iter().copied()).find(|&w| pl.list[w as usize].piece == piece)
        };
        if let (Some(a), Some(b)) = (at(cells - 2, half[1]), at(1, half[cells - 2])) {
            (half[1], half[cells - 2]) = (Some(b), Some(a));
        }
    }
    let mut starts: Vec<_> = (orders.into_iter())
        .map(|order| (vec![None; cells], order))
        .collect();
    starts.push((half, freed.into_iter().rev().collect()));
    starts
}

/// The same scan by piece sets and by its lists (sets off, as on boards past
/// `MASK_PIECES`) visits the same tree: the same nodes, the same solutions in the same
/// order, whether it runs in one go or pauses every few nodes; from an empty board in
/// several fill orders, and from a half-filled one as a repair window searches.
#[test]
fn piece_sets_and_lists_search_the_same_tree() {
    let lists = |p: &EdgeMatching, pl: &Placements, board: Vec<Option<u32>>, order: &[usize]| {
        let mut s = Search::new(p, pl, board, order, usize::MAX, 300_000, EveryPiece);
        s.masks = Masks::none();
        s.enter::<0>(0);
        s
    };
    let mut searched = 0;
    for (rows, cols, frame, inner) in [
        (3, 3, 2, 2),
        (4, 4, 2, 3),
        (4, 6, 3, 4),
        (5, 6, 3, 4),
        (6, 6, 3, 5),
    ] {
        for seed in 0..3 {
            let p = generate(rows, cols, frame, inner, seed).unwrap();
            let pl = Placements::of(&p);
            let cells = rows * cols;
            let orders = vec![
                scan_orders(rows, cols).swap_remove(0),
                (0..cells).rev().collect(),
                (0..cells).map(|k| (k * 7) % cells).collect(),
            ];
            for (board, order) in starts(&p, &pl, orders, Window::AsTiled) {
                let mut by_sets = Search::new(
                    &p,
                    &pl,
                    board.clone(),
                    &order,
                    usize::MAX,
                    300_000,
                    EveryPiece,
                );
                assert!(by_sets.masks.words > 0);
                let mut by_lists = lists(&p, &pl, board, &order);
                let paused = loop {
                    match by_sets.run(7) {
                        Stand::Paused => continue,
                        stand => break stand,
                    }
                };
                assert_eq!(paused, by_lists.run(u64::MAX), "{rows}×{cols} seed {seed}");
                assert_eq!(by_sets.nodes, by_lists.nodes, "{rows}×{cols} seed {seed}");
                assert_eq!(by_sets.found, by_lists.found, "{rows}×{cols} seed {seed}");
                assert!(
                    !by_sets.found.is_empty() || paused == Stand::Spent,
                    "{rows}×{cols} seed {seed}: a start with a tiling"
                );
                searched += by_sets.nodes;
            }
        }
    }
    assert!(
        searched > 100_000,
        "the trees are not trivial: {searched} nodes"
    );
}

/// Joint budgets refuse only placements no completion can follow: with and without the
/// check at every piece a search finds the same solutions in the same order, from empty
/// boards in several fill orders and from a repair window whose placed part mismatches
/// elsewhere; with it, it places fewer pieces, and at a solution no joint is left over.
#[test]
fn joint_budgets_keep_every_solution_and_prune() {
    let (mut with, mut without) = (0, 0);
    for (rows, cols, frame, inner) in [(3, 3, 2, 2), (4, 4, 2, 3), (4, 5, 3, 3), (5, 5, 4, 7)] {
        for seed in 0..4 {
            let p = generate(rows, cols, frame, inner, seed).unwrap();
            let pl = Placements::of(&p);
            let cells = rows * cols;
            let mut orders = vec![
                scan_orders(rows, cols).swap_remove(0),
                (0..cells).rev().collect(),
            ];
            // A scattered order, where the budgets cut the most (5×5: 3.6·10⁹ nodes
            // without against 2.3·10⁸), on the boards small enough to go through without.
            if cells <= 20 {
                orders.push((0..cells).map(|k| (k * 7) % cells).collect());
            }
            for (board, order) in starts(&p, &pl, orders, Window::Mismatched) {
                let run = |checks| {
                    let mut s =
                        Search::new(&p, &pl, board.clone(), &order, usize::MAX, u64::MAX, checks);
                    assert_eq!(s.run(u64::MAX), Stand::Exhausted);
                    s
                };
                let (budgeted, bare) = (run(EveryPiece), run(AtStart));
                assert_eq!(budgeted.found, bare.found, "{rows}×{cols} seed {seed}");
                assert!(budgeted.nodes <= bare.nodes);
                (with, without) = (with + budgeted.nodes, without + bare.nodes);
            }
            // Every joint of a tiling spent: nothing left over on any kind or colour.
            let order = &scan_orders(rows, cols)[0];
            let mut s = Search::new(&p, &pl, vec![None; cells], order, 1, u64::MAX, EveryPiece);
            assert_eq!(s.run(u64::MAX), Stand::Enough);
            let spare = s.joints.spare();
            assert!(
                spare.iter().all(|kind| kind.iter().all(|&n| n == 0)),
                "{rows}×{cols} seed {seed}: {spare:?}"
            );
        }
    }
    assert!(
        with < without * 9 / 10,
        "budgets prune: {with} against {without} nodes"
    );
}

/// A board with so many colours that pair tables would pass `MAX_TABLE_KEYS` keys its
/// steps by one anchor and checks the other per candidate: it still finds the tiling.
#[test]
fn a_board_of_many_colours_keys_its_tables_by_one_anchor() {
    let p = generate(16, 16, 45, 210, 1).unwrap();
    let pl = Placements::of(&p);
    let order = scan_orders(16, 16).swap_remove(0);
    let mut s = Search::new(&p, &pl, vec![None; 256], &order, 1, 1_000_000, AtStart);
    assert_eq!(s.keys, s.colours, "one anchor's keys");
    assert!(256 * s.colours * s.colours > MAX_TABLE_KEYS);
    // Cells with a top and a left neighbour check the second per candidate.
    let inside = |cell: usize| !cell.is_multiple_of(16) && cell >= 16;
    assert!(
        s.steps
            .iter()
            .all(|step| step.extra.len() == usize::from(inside(step.cell)))
    );
    assert_eq!(s.run(u64::MAX), Stand::Enough);
    let solution = board_solution(&p, &pl, &s.found[0].1);
    let verdict = crate::puzzle::edge_matching::check::check(&p, &solution);
    assert!(verdict.violations.is_empty() && verdict.mismatched.is_empty());
}
