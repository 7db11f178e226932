//! Exact classical Sudoku solver: depth-first search on the most constrained cell with
//! row/column/box bitmasks. Used as the tests' reference, for "solve classically" comparisons,
//! for ground energies, and by the generator to prove uniqueness.

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use super::Sudoku;

struct Search<'a> {
    side: usize,
    bs: usize,
    grid: Vec<u8>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    boxes: Vec<u32>,
    full: u32,
    rng: Option<&'a mut Xoshiro256PlusPlus>,
    /// Search nodes left before giving up (`None`: no limit).
    budget: Option<u64>,
    found: usize,
    limit: usize,
    /// The first solutions found (up to `limit`).
    solutions: Vec<Vec<u8>>,
}

impl Search<'_> {
    /// Sets up the masks; `None` when two givens already clash.
    fn new(p: &Sudoku, limit: usize) -> Option<Search<'static>> {
        let side = p.side();
        let mut s = Search {
            side,
            bs: p.box_size(),
            grid: p.cells().to_vec(),
            rows: vec![0; side],
            cols: vec![0; side],
            boxes: vec![0; side],
            full: if side == 32 {
                u32::MAX
            } else {
                (1u32 << side) - 1
            },
            rng: None,
            budget: None,
            found: 0,
            limit,
            solutions: Vec::new(),
        };
        for r in 0..side {
            for c in 0..side {
                let d = s.grid[r * side + c];
                if d != 0 {
                    let bit = 1u32 << (d - 1);
                    let b = s.box_of(r, c);
                    if (s.rows[r] | s.cols[c] | s.boxes[b]) & bit != 0 {
                        return None;
                    }
                    s.rows[r] |= bit;
                    s.cols[c] |= bit;
                    s.boxes[b] |= bit;
                }
            }
        }
        Some(s)
    }

    fn box_of(&self, r: usize, c: usize) -> usize {
        (r / self.bs) * self.bs + c / self.bs
    }

    /// Returns true when the search should stop (limit reached or budget spent).
    fn run(&mut self) -> bool {
        if let Some(b) = &mut self.budget {
            if *b == 0 {
                return true;
            }
            *b -= 1;
        }
        let side = self.side;
        let mut best: Option<(usize, u32)> = None;
        for k in 0..side * side {
            if self.grid[k] != 0 {
                continue;
            }
            let (r, c) = (k / side, k % side);
            let cand = self.full & !(self.rows[r] | self.cols[c] | self.boxes[self.box_of(r, c)]);
            if best.is_none_or(|(_, m)| cand.count_ones() < m.count_ones()) {
                best = Some((k, cand));
                if cand.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((k, cand)) = best else {
            self.found += 1;
            if self.solutions.len() < self.limit {
                self.solutions.push(self.grid.clone());
            }
            return self.found >= self.limit;
        };
        let (r, c) = (k / side, k % side);
        let b = self.box_of(r, c);
        let mut digits: Vec<u8> = (0..side as u8).filter(|d| cand & (1 << d) != 0).collect();
        if let Some(rng) = self.rng.as_deref_mut() {
            for i in (1..digits.len()).rev() {
                let j = rng.random_range(0..=i);
                digits.swap(i, j);
            }
        }
        for d in digits {
            let bit = 1u32 << d;
            self.grid[k] = d + 1;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            let stop = self.run();
            self.grid[k] = 0;
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
            if stop {
                return true;
            }
        }
        false
    }
}

/// What a budgeted search found.
pub(super) struct Found {
    /// Up to `limit` solutions (digits row-major).
    pub solutions: Vec<Vec<u8>>,
    /// The node budget ran out before the search finished or reached its limit.
    pub gave_up: bool,
    /// Search nodes spent.
    pub nodes: u64,
}

/// Looks for up to `limit` solutions within `budget` search nodes.
pub(super) fn search(p: &Sudoku, limit: usize, budget: u64) -> Found {
    let Some(mut s) = Search::new(p, limit) else {
        return Found {
            solutions: Vec::new(),
            gave_up: false,
            nodes: 0,
        };
    };
    s.budget = Some(budget);
    s.run();
    let left = s.budget.unwrap_or(0);
    Found {
        gave_up: left == 0 && s.found < limit,
        nodes: budget - left,
        solutions: s.solutions,
    }
}

/// Number of solutions, counting at most `limit` (no budget: for small instances and tests).
pub fn count_solutions(p: &Sudoku, limit: usize) -> usize {
    match Search::new(p, limit) {
        Some(mut s) => {
            s.run();
            s.found
        }
        None => 0,
    }
}

/// Whether the puzzle has exactly one solution (`None` if the node budget ran out first), and
/// the search nodes spent.
pub(super) fn is_unique(p: &Sudoku, budget: u64) -> (Option<bool>, u64) {
    let Some(mut s) = Search::new(p, 2) else {
        return (Some(false), 0);
    };
    s.budget = Some(budget);
    let stopped = s.run();
    let spent = budget - s.budget.unwrap_or(0);
    if stopped && s.found < 2 && s.budget == Some(0) {
        return (None, spent);
    }
    (Some(s.found == 1), spent)
}

/// A random complete grid (digits row-major).
pub(super) fn random_grid(box_size: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<u8> {
    let empty = Sudoku::empty(box_size).expect("supported box size");
    let mut s = Search::new(&empty, 1).expect("an empty grid has no clash");
    s.rng = Some(rng);
    s.run();
    s.solutions.pop().expect("an empty grid has solutions")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_norvigs_hardest_and_counts() {
        let p = Sudoku::from_line(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let g = search(&p, 1, 1_000_000).solutions.remove(0);
        assert_eq!(
            g.iter().map(|d| d.to_string()).collect::<String>(),
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
        );
        assert_eq!(count_solutions(&p, 2), 1);
        assert_eq!(count_solutions(&Sudoku::empty(2).unwrap(), 1000), 288);
    }

    #[test]
    fn a_spent_budget_says_so() {
        let empty = Sudoku::empty(4).unwrap();
        let f = search(&empty, 2, 10);
        assert!(f.gave_up && f.solutions.is_empty() && f.nodes == 10);
    }

    #[test]
    fn clashing_givens_have_no_solution() {
        let p = Sudoku::from_line("11..............").unwrap();
        assert!(search(&p, 1, 1000).solutions.is_empty());
        assert_eq!(count_solutions(&p, 2), 0);
    }
}
