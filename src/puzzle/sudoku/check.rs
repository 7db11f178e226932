//! The Sudoku referee. It knows the rules, never the QUBO: empty or doubly-filled cells,
//! changed givens, and digits repeated in a row, column or box.

use super::{Sudoku, symbol};
use crate::puzzle::Violation;

/// What an empty cell is told.
pub(super) const EMPTY: &str = "empty";

/// What a decoded cell holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// No digit set: the one-hot constraint is broken.
    Empty,
    /// Exactly one digit, 1-based.
    Digit(u8),
    /// Several digits set at once (sorted): the one-hot constraint is broken.
    Multiple(Vec<u8>),
}

/// A candidate filled grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SudokuSolution {
    side: usize,
    cells: Vec<Cell>,
}

impl SudokuSolution {
    /// A grid from its cells, row by row; panics unless there are `side × side` of them.
    pub fn new(side: usize, cells: Vec<Cell>) -> Self {
        assert_eq!(cells.len(), side * side);
        SudokuSolution { side, cells }
    }

    /// From digits 0..=side (0 = empty).
    pub fn from_digits(side: usize, digits: &[u8]) -> Self {
        SudokuSolution::new(
            side,
            digits
                .iter()
                .map(|&d| if d == 0 { Cell::Empty } else { Cell::Digit(d) })
                .collect(),
        )
    }

    /// Digits per row.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The cell at row `r`, column `c` (0-based).
    pub fn cell(&self, r: usize, c: usize) -> &Cell {
        &self.cells[r * self.side + c]
    }

    /// The digit at (r, c) when exactly one is set.
    pub fn digit(&self, r: usize, c: usize) -> Option<u8> {
        match self.cell(r, c) {
            Cell::Digit(d) => Some(*d),
            _ => None,
        }
    }

    /// Row-major symbols; `.` where a cell is empty or ambiguous.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Cell::Digit(d) => symbol(*d),
                _ => '.',
            })
            .collect()
    }
}

/// A unit to check: (label, word for people, its cells).
type Unit = (&'static str, &'static str, Vec<(usize, usize)>);

/// Givens that contradict each other: a digit twice in a row, column or box. Messages count
/// rows, columns and boxes from 1, as people do (`digit 1 twice in row 1`).
pub fn given_conflicts(p: &Sudoku) -> Vec<Violation> {
    let side = p.side();
    let mut out = Vec::new();
    let mut report = |label: String, what: &str, k: usize, digit: u8| {
        out.push(Violation {
            constraint: format!("{label}#{}", symbol(digit)),
            detail: format!("digit {} twice in {what} {}", symbol(digit), k + 1),
        });
    };
    for k in 0..side {
        let units: [Unit; 3] = [
            ("row", "row", (0..side).map(|c| (k, c)).collect()),
            ("col", "column", (0..side).map(|r| (r, k)).collect()),
            (
                "box",
                "box",
                (0..side)
                    .map(|i| {
                        let bs = p.box_size();
                        ((k / bs) * bs + i / bs, (k % bs) * bs + i % bs)
                    })
                    .collect(),
            ),
        ];
        for (label, what, cells) in units {
            let mut seen = vec![0u8; side + 1];
            for (r, c) in cells {
                let d = p.given(r, c) as usize;
                if d != 0 {
                    seen[d] += 1;
                    if seen[d] == 2 {
                        report(format!("{label}[{k}]"), what, k, d as u8);
                    }
                }
            }
        }
    }
    out
}

/// The referee's findings: the violations, and which cells take part in one.
pub struct CheckReport {
    /// Every broken rule.
    pub violations: Vec<Violation>,
    /// Per cell (row-major): takes part in a broken rule.
    pub bad_cells: Vec<bool>,
}

fn list(items: &[usize]) -> String {
    let words: Vec<String> = items.iter().map(|k| k.to_string()).collect();
    match words.len() {
        0 | 1 => words.concat(),
        _ => format!(
            "{} and {}",
            words[..words.len() - 1].join(", "),
            words[words.len() - 1]
        ),
    }
}

pub fn check(p: &Sudoku, s: &SudokuSolution) -> CheckReport {
    let side = p.side();
    let bs = p.box_size();
    let mut violations = Vec::new();
    let mut bad = vec![false; side * side];
    if s.side != side {
        violations.push(Violation {
            constraint: "grid".into(),
            detail: format!("solution is {0}×{0}, puzzle is {1}×{1}", s.side, side),
        });
        return CheckReport {
            violations,
            bad_cells: bad,
        };
    }
    for r in 0..side {
        for c in 0..side {
            let given = p.given(r, c);
            let label = format!("cell[{r}][{c}]");
            match s.cell(r, c) {
                // Empty is unfinished, not wrong: reported, but the cell is not marked.
                Cell::Empty => {
                    violations.push(Violation {
                        constraint: label,
                        detail: EMPTY.into(),
                    });
                }
                Cell::Multiple(ds) => {
                    bad[r * side + c] = true;
                    let names: Vec<String> = ds.iter().map(|&d| symbol(d).to_string()).collect();
                    violations.push(Violation {
                        constraint: label,
                        detail: format!("digits {} all set", names.join(", ")),
                    });
                }
                Cell::Digit(_) => {}
            }
            if given != 0 && s.digit(r, c) != Some(given) {
                bad[r * side + c] = true;
                let now = match s.cell(r, c) {
                    Cell::Digit(d) => format!("changed to {}", symbol(*d)),
                    _ => "not kept".into(),
                };
                violations.push(Violation {
                    constraint: format!("hint[{r}][{c}]"),
                    detail: format!("given {} {now}", symbol(given)),
                });
            }
        }
    }
    // Units: (label, word for positions, the unit's cells in order).
    type Unit = (String, &'static str, Vec<(usize, usize)>);
    let mut units: Vec<Unit> = Vec::new();
    for k in 0..side {
        units.push((
            format!("row[{k}]"),
            "columns",
            (0..side).map(|c| (k, c)).collect(),
        ));
        units.push((
            format!("col[{k}]"),
            "rows",
            (0..side).map(|r| (r, k)).collect(),
        ));
        let (r0, c0) = ((k / bs) * bs, (k % bs) * bs);
        units.push((
            format!("box[{k}]"),
            "cells",
            (0..side).map(|i| (r0 + i / bs, c0 + i % bs)).collect(),
        ));
    }
    for (label, word, cells) in units {
        for d in 1..=side as u8 {
            let at: Vec<usize> = cells
                .iter()
                .enumerate()
                .filter(|(_, (r, c))| s.digit(*r, *c) == Some(d))
                .map(|(pos, _)| pos)
                .collect();
            if at.len() > 1 {
                for &pos in &at {
                    let (r, c) = cells[pos];
                    bad[r * side + c] = true;
                }
                let positions: Vec<usize> = at.iter().map(|p| p + 1).collect();
                violations.push(Violation {
                    constraint: label.clone(),
                    detail: format!(
                        "digit {} appears {} times ({word} {})",
                        symbol(d),
                        at.len(),
                        list(&positions)
                    ),
                });
            }
        }
    }
    CheckReport {
        violations,
        bad_cells: bad,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str = "1.3...1.2.......";
    const SOLVED: &str = "1234341221434321";

    #[test]
    fn a_valid_grid_has_no_violations() {
        let p = Sudoku::from_line(PUZZLE).unwrap();
        let s = SudokuSolution::from_digits(4, Sudoku::from_line(SOLVED).unwrap().cells());
        assert_eq!(check(&p, &s).violations, vec![]);
    }

    #[test]
    fn reports_each_kind_of_fault() {
        let p = Sudoku::from_line(PUZZLE).unwrap();
        let mut cells: Vec<Cell> = SOLVED
            .chars()
            .map(|c| Cell::Digit(c.to_digit(10).unwrap() as u8))
            .collect();
        cells[0] = Cell::Digit(4); // changes a given, repeats 4 in row 0, col 0, box 0
        cells[5] = Cell::Empty;
        cells[6] = Cell::Multiple(vec![1, 4]);
        let rep = check(&p, &SudokuSolution::new(4, cells));
        let v: Vec<(String, String)> = rep
            .violations
            .iter()
            .map(|v| (v.constraint.clone(), v.detail.clone()))
            .collect();
        assert!(
            v.contains(&("hint[0][0]".into(), "given 1 changed to 4".into())),
            "{v:?}"
        );
        assert!(v.contains(&("cell[1][1]".into(), "empty".into())), "{v:?}");
        assert!(
            v.contains(&("cell[1][2]".into(), "digits 1, 4 all set".into())),
            "{v:?}"
        );
        assert!(
            v.contains(&(
                "row[0]".into(),
                "digit 4 appears 2 times (columns 1 and 4)".into()
            )),
            "{v:?}"
        );
        assert!(rep.bad_cells[0] && rep.bad_cells[3] && !rep.bad_cells[15]);
        // The empty cell is unfinished: reported, not marked; the clashes are conflicts.
        assert!(!rep.bad_cells[5]);
        use crate::puzzle::Puzzle;
        for v in &rep.violations {
            assert_eq!(p.unfinished(v), v.detail == EMPTY, "{v:?}");
        }
    }
}
