//! How hard a Sudoku is for a person: the techniques a solver that never guesses needs, tried
//! in order of difficulty, and, when they stall, the classical search's effort.
//!
//! Bands (each includes the techniques of the ones before):
//! - **easy**: naked singles (a cell with one candidate left) and hidden singles (a digit with
//!   one place left in a row, column or box);
//! - **medium**: locked candidates (a digit confined to one line of a box, or to one box of a
//!   line, leaves the rest of that box or line);
//! - **hard**: naked and hidden pairs and triples (k cells of a unit holding only k digits
//!   between them, or k digits confined to k cells);
//! - **expert**: those techniques stall; the puzzle needs trial and error (search).
//!
//! Invariant: every technique only removes candidates no solution uses, so a grid the
//! techniques complete is the puzzle's solution, and the band never depends on the order of
//! the units.

use serde::Serialize;

use super::Sudoku;

/// A Sudoku's difficulty band for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// Singles only.
    Easy,
    /// Singles and locked candidates.
    Medium,
    /// Up to pairs and triples.
    Hard,
    /// Those stall: search needed.
    Expert,
}

impl Band {
    /// Every band, easiest first.
    pub const ALL: [Band; 4] = [Band::Easy, Band::Medium, Band::Hard, Band::Expert];

    /// The word flags, files and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Band::Easy => "easy",
            Band::Medium => "medium",
            Band::Hard => "hard",
            Band::Expert => "expert",
        }
    }

    /// From its word.
    pub fn parse(word: &str) -> Option<Band> {
        Band::ALL.into_iter().find(|b| b.name() == word)
    }
}

/// The grade of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Grade {
    /// The band.
    pub band: Band,
    /// Cells the techniques filled before they stalled (all empty ones unless expert).
    pub filled: usize,
    /// Empty cells at the start.
    pub empty: usize,
}

/// Candidates as bit masks (bit d − 1 for digit d), one per cell.
struct Grid {
    side: usize,
    box_size: usize,
    digit: Vec<u8>,
    cand: Vec<u32>,
    units: Vec<Vec<usize>>,
}

impl Grid {
    fn new(p: &Sudoku) -> Option<Grid> {
        let (side, b) = (p.side(), p.box_size());
        let mut units = Vec::with_capacity(3 * side);
        for i in 0..side {
            units.push((0..side).map(|c| i * side + c).collect());
            units.push((0..side).map(|r| r * side + i).collect());
            let (br, bc) = ((i / b) * b, (i % b) * b);
            units.push(
                (0..side)
                    .map(|k| (br + k / b) * side + bc + k % b)
                    .collect(),
            );
        }
        let all = if side == 32 {
            u32::MAX
        } else {
            (1u32 << side) - 1
        };
        let mut g = Grid {
            side,
            box_size: b,
            digit: vec![0; side * side],
            cand: vec![all; side * side],
            units,
        };
        for (k, &d) in p.cells().iter().enumerate() {
            if d != 0 && !g.place(k, d) {
                return None;
            }
        }
        Some(g)
    }

    fn peers(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, c) = (k / self.side, k % self.side);
        let b = self.box_size;
        let (br, bc) = ((r / b) * b, (c / b) * b);
        (0..self.side)
            .map(move |i| r * self.side + i)
            .chain((0..self.side).map(move |i| i * self.side + c))
            .chain((0..self.side).map(move |i| (br + i / b) * self.side + bc + i % b))
            .filter(move |&j| j != k)
    }

    /// Puts `d` in cell k; `false` when it clashes.
    fn place(&mut self, k: usize, d: u8) -> bool {
        let bit = 1u32 << (d - 1);
        if self.cand[k] & bit == 0 {
            return false;
        }
        self.digit[k] = d;
        self.cand[k] = bit;
        let peers: Vec<usize> = self.peers(k).collect();
        for j in peers {
            if self.digit[j] == d {
                return false;
            }
            self.cand[j] &= !bit;
        }
        true
    }

    fn empty(&self) -> usize {
        self.digit.iter().filter(|&&d| d == 0).count()
    }

    /// Naked and hidden singles, once over the grid; `Some(true)` when something was placed,
    /// `None` on a contradiction.
    fn singles(&mut self) -> Option<bool> {
        let mut moved = false;
        for k in 0..self.digit.len() {
            if self.digit[k] == 0 {
                match self.cand[k].count_ones() {
                    0 => return None,
                    1 => {
                        let d = self.cand[k].trailing_zeros() as u8 + 1;
                        if !self.place(k, d) {
                            return None;
                        }
                        moved = true;
                    }
                    _ => {}
                }
            }
        }
        for u in 0..self.units.len() {
            for d in 1..=self.side as u8 {
                let bit = 1u32 << (d - 1);
                let unit = &self.units[u];
                if unit.iter().any(|&k| self.digit[k] == d) {
                    continue;
                }
                let places: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&k| self.digit[k] == 0 && self.cand[k] & bit != 0)
                    .collect();
                match places.len() {
                    0 => return None,
                    1 => {
                        if !self.place(places[0], d) {
                            return None;
                        }
                        moved = true;
                    }
                    _ => {}
                }
            }
        }
        Some(moved)
    }

    /// Locked candidates: a digit whose places in one unit all lie in one other unit is
    /// removed from the rest of that other unit. `true` when a candidate went.
    fn locked(&mut self) -> bool {
        let mut moved = false;
        for u in 0..self.units.len() {
            for d in 1..=self.side as u8 {
                let bit = 1u32 << (d - 1);
                let places: Vec<usize> = self.units[u]
                    .iter()
                    .copied()
                    .filter(|&k| self.digit[k] == 0 && self.cand[k] & bit != 0)
                    .collect();
                if places.len() < 2 {
                    continue;
                }
                for v in 0..self.units.len() {
                    if v == u || !places.iter().all(|k| self.units[v].contains(k)) {
                        continue;
                    }
                    for j in self.units[v].clone() {
                        if self.digit[j] == 0 && !places.contains(&j) && self.cand[j] & bit != 0 {
                            self.cand[j] &= !bit;
                            moved = true;
                        }
                    }
                }
            }
        }
        moved
    }

    /// Naked and hidden subsets of 2 and 3 in every unit. `true` when a candidate went.
    fn subsets(&mut self) -> bool {
        let mut moved = false;
        for u in 0..self.units.len() {
            let open: Vec<usize> = self.units[u]
                .iter()
                .copied()
                .filter(|&k| self.digit[k] == 0)
                .collect();
            for size in 2..=3usize {
                if open.len() <= size {
                    continue;
                }
                for combo in combinations(open.len(), size) {
                    let cells: Vec<usize> = combo.iter().map(|&i| open[i]).collect();
                    // Naked: these cells hold only `size` digits between them.
                    let union = cells.iter().fold(0u32, |m, &k| m | self.cand[k]);
                    if union.count_ones() as usize == size {
                        for &j in &open {
                            if !cells.contains(&j) && self.cand[j] & union != 0 {
                                self.cand[j] &= !union;
                                moved = true;
                            }
                        }
                    }
                }
                // Hidden: `size` digits whose places in the unit are the same `size` cells.
                let digits: Vec<u8> = (1..=self.side as u8)
                    .filter(|&d| open.iter().any(|&k| self.cand[k] & (1 << (d - 1)) != 0))
                    .collect();
                if digits.len() <= size {
                    continue;
                }
                for combo in combinations(digits.len(), size) {
                    let mask = combo.iter().fold(0u32, |m, &i| m | 1 << (digits[i] - 1));
                    let cells: Vec<usize> = open
                        .iter()
                        .copied()
                        .filter(|&k| self.cand[k] & mask != 0)
                        .collect();
                    if cells.len() == size {
                        for &k in &cells {
                            if self.cand[k] & !mask != 0 {
                                self.cand[k] &= mask;
                                moved = true;
                            }
                        }
                    }
                }
            }
        }
        moved
    }
}

/// Every k-subset of 0..n, as index lists.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(idx.clone());
        let Some(i) = (0..k).rev().find(|&i| idx[i] != i + n - k) else {
            return out;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// The puzzle's band: the easiest set of techniques that completes it (`Expert` when none
/// does, or when the givens clash).
pub fn grade(p: &Sudoku) -> Grade {
    let empty = p.cells().iter().filter(|&&d| d == 0).count();
    let Some(mut g) = Grid::new(p) else {
        return Grade {
            band: Band::Expert,
            filled: 0,
            empty,
        };
    };
    let mut band = Band::Easy;
    loop {
        if g.empty() == 0 {
            break;
        }
        match g.singles() {
            None => {
                band = Band::Expert;
                break;
            }
            Some(true) => continue,
            Some(false) => {}
        }
        if g.locked() {
            band = band.max(Band::Medium);
            continue;
        }
        if g.subsets() {
            band = band.max(Band::Hard);
            continue;
        }
        band = Band::Expert;
        break;
    }
    Grade {
        band,
        filled: empty - g.empty(),
        empty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_follow_the_techniques_needed() {
        // Project Euler 96 grid 1: singles alone solve it.
        let easy = Sudoku::from_line(
            "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
        )
        .unwrap();
        let g = grade(&easy);
        assert_eq!(g.band, Band::Easy, "{g:?}");
        assert_eq!(g.filled, g.empty);
        // One of Norvig's hardest falls to locked candidates.
        let locked = Sudoku::from_line(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        assert_eq!(grade(&locked).band, Band::Medium);
        // Norvig's top95: the bands spread, and below expert the techniques fill the grid
        // with the solution.
        let mut seen = [0usize; 4];
        for line in include_str!("../../../puzzles/sudoku/top95.txt").lines() {
            let Ok(p) = Sudoku::from_line(line.trim()) else {
                continue;
            };
            let g = grade(&p);
            seen[g.band as usize] += 1;
            assert_eq!(g.filled == g.empty, g.band != Band::Expert, "{line}");
        }
        assert!(
            seen[Band::Expert as usize] > 0 && seen[Band::Hard as usize] > 0,
            "{seen:?}"
        );
        assert_eq!(combinations(4, 2).len(), 6);
        assert_eq!(Band::parse("hard"), Some(Band::Hard));
    }
}
