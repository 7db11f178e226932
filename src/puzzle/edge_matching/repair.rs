//! The repair step: a near miss's defects re-solved exactly in a window (Salassa et al.'s window
//! re-solves; the Numberlink repair's idea). The defects are the cells on a mismatched joint
//! and the cells the read left empty, doubly filled or holding a piece it also put elsewhere.
//! The cells within a growing Manhattan distance of them are freed, everything else is kept as
//! the read has it, and the exact search (`solve::search_from`) refills the freed cells with
//! their own pieces so that every joint matches. A window that falls apart into separate
//! regions is re-solved region by region (each with the pieces it freed), so two distant
//! mismatches cost two small searches, not the product of both; regions that fail alone are
//! tried again as one (a colour balance let them go alone, but they need each other's
//! pieces). Windows are tried smallest
//! first; none may free more than `MAX_FREE_SHARE` of the board (past that it would be the
//! reference solving the puzzle, not a repair of the read), and every search has a node budget.
//!
//! The repaired answer is reported as repaired, with the window's size, never as a sample.

use std::time::Instant;

use super::EdgeMatching;
use super::check::EdgeSolution;
use super::encode::Placements;
use super::solve::{board_solution, search_from};
use crate::puzzle::Repaired;

/// The widest ring round the defects, in cells (Manhattan distance).
const MAX_RING: usize = 6;
/// The largest share of the board a window may free.
const MAX_FREE_SHARE: f64 = 0.5;
/// Candidates each region's search may try (the reference places ~2·10⁷ a second).
const REGION_NODES: u64 = 2_000_000;
/// Seconds the whole step may take; checked between searches.
const REPAIR_SECONDS: f64 = 2.0;

/// `s` repaired (see the module header); `None` when it has no defect or no window mends it.
pub fn repair(p: &EdgeMatching, s: &EdgeSolution) -> Option<Repaired<EdgeSolution>> {
    let started = Instant::now();
    let (rows, cols) = (p.rows(), p.cols());
    let cells = rows * cols;
    if s.rows() != rows || s.cols() != cols || p.pieces().len() != cells {
        return None;
    }
    let pl = Placements::of(p);
    let kept = read_placements(p, &pl, s);
    let defects = defects(p, &pl, &kept);
    if defects.is_empty() {
        return None;
    }
    let mut last_freed = 0;
    for ring in 0..=MAX_RING {
        let freed: Vec<bool> = (0..cells)
            .map(|cell| defects.iter().any(|&d| manhattan(cols, cell, d) <= ring))
            .collect();
        let count = freed.iter().filter(|&&f| f).count();
        if count as f64 > MAX_FREE_SHARE * cells as f64 {
            break;
        }
        if count == last_freed {
            continue;
        }
        last_freed = count;
        let Some(blocks) = blocks(p, &pl, &kept, regions(p, &freed)) else {
            continue;
        };
        // A balance is necessary, not sufficient: blocks that balance alone may still need
        // each other's pieces, so when they fail one by one they are tried as one.
        let pooled = (blocks.len() > 1).then(|| vec![blocks.concat()]);
        let mended = mend(p, &pl, &kept, &blocks, started).or_else(|| {
            let pooled = pooled?;
            balanced(p, &pl, &kept, &pooled[0])
                .then(|| mend(p, &pl, &kept, &pooled, started))
                .flatten()
        });
        if let Some(board) = mended {
            return Some(Repaired {
                solution: board_solution(p, &pl, &board),
                how: format!(
                    "re-solved {count} of {cells} cells exactly (the {} defective cell(s) and \
                     every cell within {ring} step(s) of one), the rest kept as read",
                    defects.len()
                ),
            });
        }
        if started.elapsed().as_secs_f64() > REPAIR_SECONDS {
            break;
        }
    }
    None
}

/// `kept` with each of `parts` (cell sets no joint connects, each listed in search order)
/// refilled in turn by the exact search with the pieces it holds, every joint matching; `None`
/// when one has no refill within its budget, or the step's time is up.
fn mend(
    p: &EdgeMatching,
    pl: &Placements,
    kept: &[Option<u32>],
    parts: &[Vec<usize>],
    started: Instant,
) -> Option<Vec<Option<u32>>> {
    let mut board = kept.to_vec();
    // The parts not yet refilled keep the read's pieces meanwhile: no joint touches them.
    for part in parts {
        if started.elapsed().as_secs_f64() > REPAIR_SECONDS {
            return None;
        }
        for &cell in part {
            board[cell] = None;
        }
        board = search_from(p, pl, board, part, 1, REGION_NODES)
            .boards
            .into_iter()
            .next()?;
    }
    Some(board)
}

/// The freed regions grouped into blocks that can be refilled one at a time, each with the
/// pieces it holds, each block's cells in search order (region by region, each in a row scan):
/// a region whose pieces' colours balance its rim alone, and one block of all the others (the
/// mismatches of a read usually form colour cycles across the board — 8|10, 10|6, 6|8 — that
/// only pieces moving between the sites can close). `None` when even that block cannot balance.
/// A read that is not a permutation (a region's own pieces are then undefined) gives one block
/// of the whole window, its balance left to the search.
fn blocks(
    p: &EdgeMatching,
    pl: &Placements,
    kept: &[Option<u32>],
    regions: Vec<Vec<usize>>,
) -> Option<Vec<Vec<usize>>> {
    let sorted = |mut cells: Vec<usize>| {
        cells.sort_unstable();
        cells
    };
    if kept.iter().any(Option::is_none) {
        // The pieces of the window are the ones nowhere kept: balance is checked by the search.
        return Some(vec![regions.into_iter().flat_map(sorted).collect()]);
    }
    let (alone, together): (Vec<_>, Vec<_>) = regions
        .into_iter()
        .map(sorted)
        .partition(|region| balanced(p, pl, kept, region));
    let mut blocks = alone;
    if !together.is_empty() {
        let block: Vec<usize> = together.into_iter().flatten().collect();
        if !balanced(p, pl, kept, &block) {
            return None;
        }
        blocks.push(block);
    }
    Some(blocks)
}

/// Whether the pieces `kept` has in `cells` can possibly tile them: for every colour, their
/// sides of it outnumber the sides the rim asks for (the board's outside asks for colour 0,
/// a kept neighbour for the colour it shows) by an even count, paired across inner joints.
fn balanced(p: &EdgeMatching, pl: &Placements, kept: &[Option<u32>], cells: &[usize]) -> bool {
    let (rows, cols) = (p.rows(), p.cols());
    let mut inside = vec![false; rows * cols];
    for &cell in cells {
        inside[cell] = true;
    }
    let mut spare = [0i32; 256];
    for &cell in cells {
        let Some(v) = kept[cell] else { return true };
        for colour in pl.list[v as usize].colours {
            spare[colour as usize] += 1;
        }
        for (side, nb) in p.across(cell).into_iter().enumerate() {
            let asked = match nb {
                None => 0,
                Some(nb) if inside[nb] => continue,
                Some(nb) => match kept[nb] {
                    Some(u) => pl.list[u as usize].colours[(side + 2) % 4],
                    None => return true,
                },
            };
            spare[asked as usize] -= 1;
        }
    }
    spare.iter().all(|&n| n >= 0 && n % 2 == 0)
}

/// Per cell, the read's placement where it is one of `pl`'s, holds a single piece and that
/// piece is nowhere else on the board; `None` otherwise.
fn read_placements(p: &EdgeMatching, pl: &Placements, s: &EdgeSolution) -> Vec<Option<u32>> {
    let cols = p.cols();
    let mut seen = vec![0usize; p.pieces().len()];
    for cell in 0..p.rows() * cols {
        for placed in s.cell(cell / cols, cell % cols) {
            if let Some(n) = seen.get_mut(placed.piece) {
                *n += 1;
            }
        }
    }
    (0..p.rows() * cols)
        .map(|cell| {
            let placed = s.single(cell / cols, cell % cols)?;
            if seen.get(placed.piece) != Some(&1) {
                return None;
            }
            pl.by_cell[cell].iter().copied().find(|&v| {
                let place = pl.list[v as usize];
                place.piece as usize == placed.piece && place.rotation == placed.rotation
            })
        })
        .collect()
}

/// Cells without a kept placement, and both cells of every joint whose colours differ.
fn defects(p: &EdgeMatching, pl: &Placements, kept: &[Option<u32>]) -> Vec<usize> {
    let (rows, cols) = (p.rows(), p.cols());
    let colours = |cell: usize| kept[cell].map(|v| pl.list[v as usize].colours);
    let mut bad = vec![false; rows * cols];
    for cell in 0..rows * cols {
        let Some(here) = colours(cell) else {
            bad[cell] = true;
            continue;
        };
        // Each joint once: from its upper or left cell.
        for side in [super::RIGHT, super::BOTTOM] {
            let Some(nb) = p.across(cell)[side] else {
                continue;
            };
            if colours(nb).is_some_and(|there| there[(side + 2) % 4] != here[side]) {
                bad[cell] = true;
                bad[nb] = true;
            }
        }
    }
    (0..rows * cols).filter(|&cell| bad[cell]).collect()
}

fn manhattan(cols: usize, a: usize, b: usize) -> usize {
    (a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols)
}

/// The freed cells in 4-connected regions.
fn regions(p: &EdgeMatching, freed: &[bool]) -> Vec<Vec<usize>> {
    let (rows, cols) = (p.rows(), p.cols());
    let mut region_of = vec![usize::MAX; rows * cols];
    let mut regions = Vec::new();
    for start in 0..rows * cols {
        if !freed[start] || region_of[start] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut region = vec![start];
        region_of[start] = id;
        let mut k = 0;
        while k < region.len() {
            let cell = region[k];
            k += 1;
            for nb in p.across(cell).into_iter().flatten() {
                if freed[nb] && region_of[nb] == usize::MAX {
                    region_of[nb] = id;
                    region.push(nb);
                }
            }
        }
        regions.push(region);
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;
    use crate::puzzle::edge_matching::check::Placed;
    use crate::puzzle::edge_matching::generate::generate;
    use crate::puzzle::edge_matching::solve::search;

    /// A random 6×6 board and one of its solutions (as the reference finds it).
    fn board() -> (EdgeMatching, Vec<Option<Placed>>) {
        let p = generate(6, 6, 3, 4, 7).unwrap();
        let found = search(&p, 1, 10_000_000);
        let s = &found.solutions[0];
        let cells = (0..36).map(|k| s.single(k / 6, k % 6)).collect();
        (p, cells)
    }

    fn swapped(cells: &[Option<Placed>], a: usize, b: usize) -> EdgeSolution {
        let mut cells = cells.to_vec();
        cells.swap(a, b);
        EdgeSolution::from_single(6, 6, &cells)
    }

    #[test]
    fn a_valid_board_needs_no_repair() {
        let (p, cells) = board();
        assert!(p.check(&EdgeSolution::from_single(6, 6, &cells)).is_empty());
        assert!(repair(&p, &EdgeSolution::from_single(6, 6, &cells)).is_none());
    }

    #[test]
    fn swapped_inner_pieces_near_or_far_apart_are_mended_in_a_window() {
        let (p, cells) = board();
        // Side by side (one region), and far apart (two regions, each holding the other's
        // piece: only the pooled window mends them, though on this board each region's
        // colours balance its rim, so they are first tried alone).
        for (a, b) in [(2 * 6 + 2, 2 * 6 + 3), (6 + 1, 4 * 6 + 4)] {
            let broken = swapped(&cells, a, b);
            let violations = p.check(&broken);
            assert!(!violations.is_empty(), "{a}↔{b} still fits");
            let fixed = repair(&p, &broken).unwrap_or_else(|| panic!("{a}↔{b}: {violations:?}"));
            assert!(
                p.check(&fixed.solution).is_empty(),
                "{a}↔{b}: {}",
                fixed.how
            );
            assert!(fixed.how.contains("of 36 cells"), "{}", fixed.how);
            // At most the window changed: half the board.
            let changed = (0..36)
                .filter(|&k| fixed.solution.single(k / 6, k % 6) != broken.single(k / 6, k % 6))
                .count();
            assert!((2..=18).contains(&changed), "{changed}: {}", fixed.how);
        }
    }

    #[test]
    fn a_board_in_pieces_is_beyond_repair_and_says_so_quickly() {
        let (p, mut cells) = board();
        // Every inner piece a cell along: defects everywhere, no window within the share.
        cells[7..29].rotate_left(1);
        let broken = EdgeSolution::from_single(6, 6, &cells);
        assert!(!p.check(&broken).is_empty());
        let t = Instant::now();
        assert!(repair(&p, &broken).is_none());
        assert!(t.elapsed().as_secs_f64() < 10.0 * REPAIR_SECONDS);
    }

    #[test]
    fn an_empty_cell_and_a_doubled_piece_are_refilled_with_the_piece_left_over() {
        let (p, cells) = board();
        let mut holes = cells.clone();
        holes[14] = None;
        holes[21] = cells[8];
        let broken = EdgeSolution::from_single(6, 6, &holes);
        let fixed = repair(&p, &broken).expect("repaired");
        assert!(p.check(&fixed.solution).is_empty(), "{}", fixed.how);
    }
}
