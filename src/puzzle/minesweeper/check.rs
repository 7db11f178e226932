//! The referee: a candidate (a mine assignment to unopened cells) is valid when every opened
//! number sees exactly its count of mines (flags count as mines) and the total fits the board's
//! mine count. It never reads the QUBO.

use super::{Cell, Minesweeper};
use crate::puzzle::{PuzzleError, Violation};

/// A candidate mine configuration: per cell, `Some(true)` a mine, `Some(false)` safe, `None`
/// undecided (unconstrained cells a sample says nothing about). Opened and flagged cells are
/// what the position says, whatever is stored for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MineSolution {
    /// Row-major, one entry per cell.
    pub mines: Vec<Option<bool>>,
}

impl MineSolution {
    /// Whether cell k holds a mine in this candidate (flags do; opened cells do not).
    pub fn is_mine(&self, p: &Minesweeper, k: usize) -> Option<bool> {
        match p.cells()[k] {
            Cell::Flagged => Some(true),
            Cell::Opened(_) => Some(false),
            Cell::Unopened => self.mines.get(k).copied().flatten(),
        }
    }

    /// Rows of `*` mine, `.` safe unopened, `?` undecided, digits for opened cells, `F` flags,
    /// joined by `/`.
    pub fn to_line(&self, p: &Minesweeper) -> String {
        self.rows(p).join("/")
    }

    /// The JSON form: rows as in `to_line`.
    pub fn to_json(&self, p: &Minesweeper) -> serde_json::Value {
        self.rows(p).into()
    }

    fn rows(&self, p: &Minesweeper) -> Vec<String> {
        (0..p.height())
            .map(|r| {
                (0..p.width())
                    .map(|c| {
                        let k = p.index(r, c);
                        match p.cells()[k] {
                            Cell::Opened(v) => (b'0' + v) as char,
                            Cell::Flagged => 'F',
                            Cell::Unopened => match self.mines.get(k).copied().flatten() {
                                Some(true) => '*',
                                Some(false) => '.',
                                None => '?',
                            },
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Reads `to_line`'s form (or its JSON array of rows).
    pub fn parse(p: &Minesweeper, text: &str) -> Result<Self, PuzzleError> {
        let text = text.trim();
        let rows: Vec<String> = match serde_json::from_str::<Vec<String>>(text) {
            Ok(rows) => rows,
            Err(_) => text.split('/').map(|r| r.trim().to_string()).collect(),
        };
        if rows.len() != p.height() || rows.iter().any(|r| r.chars().count() != p.width()) {
            return Err(PuzzleError::parse(
                "solution",
                format!("expected {} rows of {} cells", p.height(), p.width()),
            ));
        }
        let mut mines = Vec::with_capacity(p.width() * p.height());
        for row in &rows {
            for ch in row.chars() {
                mines.push(match ch {
                    '*' => Some(true),
                    '.' => Some(false),
                    '?' | 'F' | '0'..='8' | '#' => None,
                    other => {
                        return Err(PuzzleError::parse(
                            "solution",
                            format!("'{other}' is not a cell (* mine, . safe, ? undecided)"),
                        ));
                    }
                });
            }
        }
        Ok(MineSolution { mines })
    }
}

/// Contradictions a position shows by itself: a number with more flags around it than it
/// says, or fewer unopened neighbours than it still needs; more flags than mines.
pub fn conflicts(p: &Minesweeper) -> Vec<Violation> {
    let mut out = Vec::new();
    for (k, cell) in p.cells().iter().enumerate() {
        let Cell::Opened(v) = *cell else { continue };
        let around = p.neighbours(k);
        let flags = around
            .iter()
            .filter(|&&j| p.cells()[j] == Cell::Flagged)
            .count();
        let unknown = around
            .iter()
            .filter(|&&j| p.cells()[j] == Cell::Unopened)
            .count();
        let label = format!("hint[{}][{}]", k / p.width(), k % p.width());
        if flags > v as usize {
            out.push(Violation {
                constraint: label,
                detail: format!("{}: the {v} has {flags} flags around it", p.place(k)),
            });
        } else if v as usize - flags > unknown {
            out.push(Violation {
                constraint: label,
                detail: format!(
                    "{}: the {v} needs {} more mines but has {unknown} unopened neighbours",
                    p.place(k),
                    v as usize - flags
                ),
            });
        }
    }
    if p.num_flags() > p.mines() {
        out.push(Violation {
            constraint: "mines".into(),
            detail: format!("{} flags, but only {} mines", p.num_flags(), p.mines()),
        });
    }
    out
}

/// Every rule `s` breaks.
pub fn check(p: &Minesweeper, s: &MineSolution) -> Vec<Violation> {
    let mut out = Vec::new();
    if s.mines.len() != p.width() * p.height() {
        return vec![Violation {
            constraint: "shape".into(),
            detail: format!(
                "the candidate has {} cells, the board {}",
                s.mines.len(),
                p.width() * p.height()
            ),
        }];
    }
    for (k, cell) in p.cells().iter().enumerate() {
        let Cell::Opened(v) = *cell else { continue };
        let around = p.neighbours(k);
        let mines = around
            .iter()
            .filter(|&&j| s.is_mine(p, j) == Some(true))
            .count();
        let undecided = around
            .iter()
            .filter(|&&j| s.is_mine(p, j).is_none())
            .count();
        let label = format!("hint[{}][{}]", k / p.width(), k % p.width());
        if undecided > 0 {
            out.push(Violation {
                constraint: label,
                detail: format!(
                    "{}: {undecided} neighbours of the {v} undecided",
                    p.place(k)
                ),
            });
        } else if mines != v as usize {
            out.push(Violation {
                constraint: label,
                detail: format!("{}: the {v} sees {mines} mines", p.place(k)),
            });
        }
    }
    let decided = (0..s.mines.len())
        .filter(|&k| s.is_mine(p, k) == Some(true))
        .count();
    let undecided = (0..s.mines.len())
        .filter(|&k| s.is_mine(p, k).is_none())
        .count();
    if decided > p.mines() || decided + undecided < p.mines() {
        out.push(Violation {
            constraint: "mines".into(),
            detail: format!(
                "{decided} mines placed and {undecided} cells undecided: {} mines do not fit",
                p.mines()
            ),
        });
    }
    out
}
