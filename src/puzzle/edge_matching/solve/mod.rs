//! Exact reference: backtracking over the same placements the QUBO uses (so the first corner is
//! held where the encoding holds it). Fixed pieces go down first; then the cells in a scan along
//! the board's shorter side. Each cell's candidates are looked up by the colours its first two
//! already-placed neighbours show it (colour-pair tables: in a scan the top and left, so the
//! list holds only pieces that fit both), then checked against any other placed neighbour.
//! (Tables by one anchor colour left the second colour to a check per candidate: the pairs place
//! 3.3× more pieces a second on random 8×8 boards and 5.5× on Eternity II, over the same nodes.)
//! Frame-first, the classic Eternity II order, was measured worse here: on a random 5×8 board it
//! gave up after 5·10⁶ nodes where the scan needs 0.01 s; both solve the clue puzzles. A node is
//! one piece placed.
//!
//! `search` runs a portfolio: scans from different corners (`scan_orders`), as many as there
//! are cores, taking turns a slice at a time, their solutions pooled by colour board. What a
//! scan costs depends on where it starts, and extra cores are otherwise idle here. Measured on
//! ten random 8×8 boards (4 frame, 6 inner colours), 2 cores, about 11 s each: the held
//! corner's scan alone (1.7·10⁸ nodes) settled 5; two scans side by side (1.7·10⁸ each) settled
//! 7, one of them in 2.3 s where the one scan gave up; all eight scans taking turns on the two
//! cores (4·10⁷ each) settled 6. Shuffled candidate lists with restarts did no better (2–3 of
//! 24 shuffles found a tiling within 2·10⁷ nodes). SAT was measured too and is slower here:
//! CaDiCaL 1.9.5 (the `cadical` crate's version, run through PySAT) on the direct encoding
//! (a variable per placement and per joint colour, exactly one placement per cell and per
//! piece, each joint colour supported by the placements on both sides, the held corner, a
//! second solution asked for by blocking the first's colour board and its turns) needed over
//! 120 s on three of five such boards (seeds 1–3) where the scans settle two of them in ~1 s,
//! and 51 s and 11 s for two solutions on seeds 4 and 5, where two scans give up after 2 s;
//! Glucose 4 took over 60 s on seed 3. Each scan may place `node_budget` pieces;
//! the search says when all ran out. Uniqueness proofs for `--unique` generation run the held
//! corner's scan alone (`search_one_scan`).
//!
//! Identical pieces (the same colours up to rotation, and the same cells open to them) are
//! interchangeable: a scan uses them in list order only, so it neither repeats work nor counts
//! a swap of two twins as a second solution. Where nothing is fixed, a solution that is a turn of
//! one already found is skipped too (the held corner's look-alike can put a turned board back
//! with the held piece in its corner) — "2 solutions" means two colour boards that differ
//! however the board is turned.

mod joints;
mod scan;

pub(crate) use joints::no_tiling;

use std::collections::HashSet;

use scan::{JointChecks, Search, Stand};

use super::check::{EdgeSolution, Placed};
use super::encode::Placements;
use super::{Colours, EdgeMatching, rotated};

/// What a search found.
pub struct Found {
    /// Solutions, in the order found (at most the number asked for).
    pub solutions: Vec<EdgeSolution>,
    /// The same solutions as placements of `Placements::of` per cell.
    pub(super) boards: Vec<Vec<Option<u32>>>,
    /// Candidates tried.
    pub nodes: u64,
    /// True when the budget ran out before the search finished.
    pub gave_up: bool,
}

/// The orders the portfolio's scans fill cells in: from each corner, a scan along the board's
/// shorter side (row by row on a board at least as tall as wide, else column by column), so
/// each new cell meets two placed neighbours and the open frontier is as short as the board
/// allows; on a square board both ways from each corner. The first starts at the held corner
/// (top left, row by row), the second at the opposite corner the other way, and so on, so that
/// the scans that run first differ the most.
fn scan_orders(rows: usize, cols: usize) -> Vec<Vec<usize>> {
    // Corners by the sides they flip: 1 the rows (bottom left), 2 the columns (top right).
    let scans: Vec<(usize, bool)> = match rows.cmp(&cols) {
        std::cmp::Ordering::Equal => vec![
            (0, false),
            (3, true),
            (1, true),
            (2, false),
            (0, true),
            (3, false),
            (1, false),
            (2, true),
        ],
        by_rows => {
            let by_column = by_rows == std::cmp::Ordering::Less;
            [0, 3, 1, 2].map(|corner| (corner, by_column)).to_vec()
        }
    };
    (scans.into_iter())
        .map(|(corner, by_column)| {
            (0..rows * cols)
                .map(|k| {
                    let (r, c) = if by_column {
                        (k % rows, k / rows)
                    } else {
                        (k / cols, k % cols)
                    };
                    let r = if corner & 1 == 1 { rows - 1 - r } else { r };
                    let c = if corner & 2 == 2 { cols - 1 - c } else { c };
                    r * cols + c
                })
                .collect()
        })
        .collect()
}

/// form for a board and every turn of it.
fn turned_form(rows: usize, cols: usize, board: &[Colours]) -> Vec<Colours> {
    let n = rows * cols;
    let half: Vec<Colours> = (0..n).map(|k| rotated(board[n - 1 - k], 2)).collect();
    let mut least = board.to_vec().min(half);
    if rows == cols {
        // A quarter turn clockwise: new (r, c) shows old (n − 1 − c, r) turned once.
        let quarter: Vec<Colours> = (0..n)
            .map(|k| rotated(board[(rows - 1 - k % cols) * cols + k / cols], 1))
            .collect();
        let three: Vec<Colours> = (0..n).map(|k| rotated(quarter[n - 1 - k], 2)).collect();
        least = least.min(quarter).min(three);
    }
    least
}

/// Placements a scan may try for each node of the budget every kind's reference shares
/// (`REFERENCE_NODE_BUDGET`, "a few seconds at most on the slowest kind"). A placement here is a
/// lookup in a set of pieces, about 2·10⁷ a second per scan (two scans side by side on 2 cores:
/// 4.0–4.6·10⁷ a second on random 8×8 and 10×10 boards, where the lists placed 2.0–2.2·10⁷), so
/// the shared budget alone would stop the search after ~0.2 s, while random 8×8 boards that two
/// scans settle need ~1 s (b10 0.9 s, b1 1.2 s). Nine of them make it ~2 s a scan.
const PLACEMENTS_PER_BUDGET_NODE: u64 = 9;

/// The per-scan budget of the design facts and the classical reference for a shared node
/// budget (see `PLACEMENTS_PER_BUDGET_NODE`).
pub fn scan_budget(node_budget: u64) -> u64 {
    node_budget.saturating_mul(PLACEMENTS_PER_BUDGET_NODE)
}

/// Up to `want` solutions, each scan of the portfolio (`scan_orders`) placing at most
/// `node_budget` pieces.
pub fn search(p: &EdgeMatching, want: usize, node_budget: u64) -> Found {
    // One scan per core, not per thread of the pool it is called in (a sampler's pool may
    // hold a thread per read).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    search_scans(p, want, node_budget, cores)
}

/// Up to `want` solutions by the scan from the held corner alone, within `node_budget` pieces
/// placed: for a uniqueness proof, which must go through a whole tree. On boards with one tiling
/// the scans' trees are alike in size (random 6×6 boards: the held corner's within 25 % of the
/// smallest), so the portfolio would spend eight times the nodes to prove what one scan proves.
pub fn search_one_scan(p: &EdgeMatching, want: usize, node_budget: u64) -> Found {
    search_scans(p, want, node_budget, 1)
}

/// `search` with at most `most` scans.
fn search_scans(p: &EdgeMatching, want: usize, node_budget: u64, most: usize) -> Found {
    let pl = Placements::of(p);
    let mut board: Vec<Option<u32>> = vec![None; p.rows() * p.cols()];
    // Fixed pieces are placed before the search (a fixed piece has exactly one placement).
    for f in p.fixed() {
        let cell = f.row * p.cols() + f.col;
        match pl.by_piece[f.piece].first() {
            Some(&v) if pl.list[v as usize].cell as usize == cell => board[cell] = Some(v),
            _ => {
                return Found {
                    solutions: Vec::new(),
                    boards: Vec::new(),
                    nodes: 0,
                    gave_up: false,
                };
            }
        }
    }
    // Each scan keeps its own tables, a copy of every placement: on the largest boards fewer
    // scans (64×64 has 6·10⁷ placements, one scan).
    let most = (PORTFOLIO_PLACEMENTS / pl.list.len().max(1)).clamp(1, most);
    let scans: Vec<Search> = (scan_orders(p.rows(), p.cols()).iter().take(most))
        .map(|order| {
            Search::new(
                p,
                &pl,
                board.clone(),
                order,
                want,
                node_budget,
                JointChecks::AtStart,
            )
        })
        .collect();
    portfolio(p, &pl, scans, want)
}

/// Placements the portfolio's tables may hold together (4 bytes each).
const PORTFOLIO_PLACEMENTS: usize = 40_000_000;

/// Pieces a scan places before the next takes its turn: ~3 ms, so the scans keep pace with
/// each other and the first to settle the question stops the rest soon after.
const SLICE: u64 = 1 << 16;

/// The scans take turns (side by side on the thread pool), and their solutions are
/// pooled by colour board: the question is settled when the pool holds `want` solutions or
/// one scan has gone through its whole tree (then its solutions are all there are).
fn portfolio(p: &EdgeMatching, pl: &Placements, mut scans: Vec<Search>, want: usize) -> Found {
    use rayon::prelude::*;
    let want = want.max(1);
    let mut seen: HashSet<Vec<Colours>> = HashSet::new();
    let mut boards: Vec<Vec<Option<u32>>> = Vec::new();
    let mut taken = vec![0; scans.len()];
    let gave_up = loop {
        let stands: Vec<Stand> = scans.par_iter_mut().map(|s| s.run(SLICE)).collect();
        // Pooled in scan order, so the result does not depend on which thread ran first.
        for (s, taken) in scans.iter().zip(&mut taken) {
            for (key, board) in &s.found[*taken..] {
                if boards.len() < want && seen.insert(key.clone()) {
                    boards.push(board.clone());
                }
            }
            *taken = s.found.len();
        }
        if let Some(k) = stands.iter().position(|&t| t == Stand::Exhausted) {
            debug_assert_eq!(boards.len(), scans[k].found.len(), "one tree, one answer");
            break false;
        }
        if boards.len() >= want {
            break false;
        }
        if stands.iter().all(|&t| t == Stand::Spent) {
            break true;
        }
    };
    let solutions = (boards.iter())
        .map(|board| board_solution(p, pl, board))
        .collect();
    Found {
        solutions,
        boards,
        nodes: scans.iter().map(|s| s.nodes).sum(),
        gave_up,
    }
}

/// Up to `want` completions of `board` (a placement of `pl` per cell already down, `None`
/// where the search fills in, cell by cell in `order`, which lists every such cell) with the
/// pieces not already down, within `node_budget` candidates tried. The placed cells must hold
/// distinct pieces.
pub(super) fn search_from(
    p: &EdgeMatching,
    pl: &Placements,
    board: Vec<Option<u32>>,
    order: &[usize],
    want: usize,
    node_budget: u64,
) -> Found {
    let mut s = Search::new(
        p,
        pl,
        board,
        order,
        want,
        node_budget,
        JointChecks::EveryPiece,
    );
    let gave_up = s.run(u64::MAX) == Stand::Spent;
    let solutions = (s.found.iter())
        .map(|(_, board)| board_solution(p, pl, board))
        .collect();
    Found {
        solutions,
        boards: s.found.into_iter().map(|(_, board)| board).collect(),
        nodes: s.nodes,
        gave_up,
    }
}

/// A board of `pl`'s placements as a candidate solution.
pub(super) fn board_solution(
    p: &EdgeMatching,
    pl: &Placements,
    board: &[Option<u32>],
) -> EdgeSolution {
    let cells: Vec<Option<Placed>> = board
        .iter()
        .map(|v| {
            v.map(|v| {
                let place = pl.list[v as usize];
                Placed {
                    piece: place.piece as usize,
                    rotation: place.rotation,
                }
            })
        })
        .collect();
    EdgeSolution::from_single(p.rows(), p.cols(), &cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::edge_matching::PieceClass;
    use crate::puzzle::edge_matching::generate::generate;

    /// Distinct colour boards of every perfect tiling, up to the board's rotations, by brute
    /// force over pieces and rotations (no held corner, no twin rule): the count the
    /// reference's symmetry breaking and twin rule must reproduce. Its turns are written out
    /// here apart from `turned_form`, so that the oracle does not lean on the code it checks.
    fn colour_boards(p: &EdgeMatching) -> usize {
        fn go(
            p: &EdgeMatching,
            cell: usize,
            board: &mut Vec<Colours>,
            used: &mut Vec<bool>,
            out: &mut HashSet<Vec<Colours>>,
        ) {
            let cols = p.cols();
            if cell == p.rows() * cols {
                out.insert(board.clone());
                return;
            }
            for piece in 0..p.pieces().len() {
                if used[piece] {
                    continue;
                }
                for r in 0..4 {
                    let shown = rotated(p.pieces()[piece], r);
                    let (row, col) = (cell / cols, cell % cols);
                    let agrees = p.fits(shown, row, col)
                        && (col == 0 || board[cell - 1][1] == shown[3])
                        && (row == 0 || board[cell - cols][2] == shown[0]);
                    if agrees {
                        used[piece] = true;
                        board.push(shown);
                        go(p, cell + 1, board, used, out);
                        board.pop();
                        used[piece] = false;
                    }
                }
            }
        }
        let mut all = HashSet::new();
        go(
            p,
            0,
            &mut Vec::new(),
            &mut vec![false; p.pieces().len()],
            &mut all,
        );
        // Up to the half turn (and the quarter turns on a square board).
        let (rows, cols) = (p.rows(), p.cols());
        let half = |b: &Vec<Colours>| -> Vec<Colours> {
            (0..rows * cols)
                .map(|k| rotated(b[rows * cols - 1 - k], 2))
                .collect()
        };
        let quarter = |b: &Vec<Colours>| -> Vec<Colours> {
            // New (r, c) shows old (n − 1 − c, r) turned once clockwise.
            (0..rows * cols)
                .map(|k| rotated(b[(rows - 1 - k % cols) * cols + k / cols], 1))
                .collect()
        };
        let canonical: HashSet<Vec<Colours>> = all
            .iter()
            .map(|b| {
                let mut forms = vec![b.clone(), half(b)];
                if rows == cols {
                    let q = quarter(b);
                    forms.push(half(&q));
                    forms.push(q);
                }
                forms.into_iter().min().expect("forms")
            })
            .collect();
        canonical.len()
    }

    #[test]
    fn the_reference_counts_colour_boards_up_to_turns_in_any_fill_order() {
        // Few colours: many solutions, twins, and corner pieces alike (a held corner's twin
        // used to let a turned copy of a board count as a second solution: 9 for 3 on the first
        // 3×3). Orders where a cell's placed neighbours lie below or to the right, as in a
        // repair window, as well as the scan.
        for (rows, cols) in [(3, 3), (3, 4)] {
            for seed in 0..8 {
                let p = generate(rows, cols, 2, 2, seed).unwrap();
                let pl = Placements::of(&p);
                let cells = rows * cols;
                let want = colour_boards(&p);
                assert!(want >= 1, "a generated board has its own tiling");
                let orders = [
                    scan_orders(rows, cols).swap_remove(0),
                    (0..cells).rev().collect(),
                    (0..cells).map(|k| (k * 5) % cells).collect::<Vec<usize>>(),
                ];
                for order in orders {
                    let found =
                        search_from(&p, &pl, vec![None; cells], &order, usize::MAX, u64::MAX);
                    assert!(!found.gave_up);
                    assert_eq!(
                        found.solutions.len(),
                        want,
                        "{rows}×{cols} seed {seed}, order {order:?}"
                    );
                }
                // The portfolio pools its scans' solutions: each colour board counts once
                // however many scans find it.
                let pooled = search_scans(&p, usize::MAX, u64::MAX, 8);
                assert!(!pooled.gave_up);
                assert_eq!(pooled.solutions.len(), want, "{rows}×{cols} seed {seed}");
            }
        }
    }

    #[test]
    fn a_board_whose_colours_cannot_pair_up_by_class_has_no_solution_before_any_search() {
        // An edge piece's frame side and an inner piece's side trade colours: every colour
        // is still on an even number of sides, but a frame joint would need the inner colour
        // on two frame sides, and there is one.
        let mut p = generate(8, 8, 4, 6, 2).unwrap();
        assert!(
            search(&p, 2, 1_000).gave_up,
            "too large to settle in 1 000 nodes"
        );
        let class =
            |p: &EdgeMatching, k: usize| crate::puzzle::edge_matching::class_of(p.pieces()[k]);
        let edge = (0..64).find(|&k| class(&p, k) == PieceClass::Edge).unwrap();
        let inner = (0..64)
            .find(|&k| class(&p, k) == PieceClass::Inner)
            .unwrap();
        let border = (0..4).find(|&s| p.pieces()[edge][s] == 0).unwrap();
        let frame_colour = p.pieces()[edge][(border + 1) % 4];
        let inner_colour = p.pieces()[inner][0];
        p.set_colour(edge, (border + 1) % 4, inner_colour).unwrap();
        p.set_colour(inner, 0, frame_colour).unwrap();
        assert_eq!(crate::puzzle::edge_matching::check::odd_colour(&p), None);
        let found = search(&p, 2, 1_000);
        assert!(!found.gave_up && found.solutions.is_empty());
        assert_eq!(found.nodes, 0);
        let facts = crate::puzzle::Puzzle::design_facts(&p, 1_000);
        assert_eq!(facts.solutions, crate::puzzle::SolutionCount::Zero);
        // And the facts say why, by colour.
        let why = no_tiling(&p).expect("a reason");
        assert!(why.contains("frame joints pair them"), "{why}");
        assert!(
            (facts.facts.iter())
                .any(|(name, value)| name == "no perfect tiling"
                    && format!("{value:?}").contains(&why)),
            "{:?}",
            facts.facts
        );
    }

    #[test]
    fn the_portfolio_settles_a_board_its_first_scan_cannot_within_the_budget() {
        // A 6×6 board with two or more tilings: the scan from the held corner gives up
        // within 10⁶ placements, the scan from the top right finds two tilings after ~2·10⁵.
        let p = generate(6, 6, 3, 5, 8).unwrap();
        let pl = Placements::of(&p);
        let first = &scan_orders(6, 6)[0];
        let alone = search_from(&p, &pl, vec![None; 36], first, 2, 1_000_000);
        assert!(alone.gave_up && alone.solutions.len() < 2);
        assert!(search_one_scan(&p, 2, 1_000_000).gave_up);
        let found = search_scans(&p, 2, 1_000_000, 8);
        assert!(!found.gave_up);
        assert_eq!(found.solutions.len(), 2);
        assert_ne!(found.solutions[0], found.solutions[1]);
        for s in &found.solutions {
            let verdict = crate::puzzle::edge_matching::check::check(&p, s);
            assert!(verdict.violations.is_empty() && verdict.mismatched.is_empty());
        }
        // Every scan ran, and none past its budget.
        assert!(
            found.nodes > 1_000_000 && found.nodes <= 8_000_000,
            "{}",
            found.nodes
        );
        // On a board with one tiling the portfolio proves it, as a single scan does.
        let unique = generate(6, 6, 3, 5, 6).unwrap();
        let found = search_scans(&unique, 2, 3_000_000, 8);
        assert!(!found.gave_up);
        assert_eq!(found.solutions.len(), 1);
    }
}
