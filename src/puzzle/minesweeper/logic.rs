//! Logic alone: how far certain deductions clear a position, with no guess. A cell is opened
//! only when its mine probability is exactly 0 and flagged only when it is 1 — the exact
//! engine's verdict, with the mine count — repeated until the board is cleared or nothing is
//! certain. Cheap local rules come first (a number whose need is 0 or equals its unknown
//! cells; one number's cells inside another's); they are sound, and deductions only add
//! information, so the order changes the work, never the cells cleared. The exact engine runs
//! only when they stall.
//!
//! The depth a position needed is its difficulty for a player: `Depth::Single` (each number on
//! its own), `Depth::Pairs` (one number's cells inside another's), `Depth::Global` (the whole
//! frontier and the mine count together).

use serde::Serialize;

use super::{Cell, GameState, Minesweeper, exact_probabilities};
use crate::puzzle::PuzzleError;

/// The hardest rule a logical clearing needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Depth {
    /// Every step was one number on its own.
    #[default]
    Single,
    /// Some step compared two numbers (one's cells inside the other's).
    Pairs,
    /// Some step needed the whole frontier and the mine count (the exact engine).
    Global,
}

impl Depth {
    /// The word reports use.
    pub fn name(self) -> &'static str {
        match self {
            Depth::Single => "single",
            Depth::Pairs => "pairs",
            Depth::Global => "global",
        }
    }
}

/// What logic alone did to a position.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LogicReport {
    /// Every safe cell ended opened.
    pub cleared: bool,
    /// Safe cells still unopened when logic stopped.
    pub safe_left: usize,
    /// Cells opened by deduction (floods included).
    pub opened: usize,
    /// Mines flagged by deduction.
    pub flagged: usize,
    /// Rounds of the exact engine (each when the local rules stalled).
    pub global_rounds: usize,
    /// The hardest rule needed.
    pub depth: Depth,
    /// The exact engine's search nodes, summed.
    pub nodes: u64,
}

impl LogicReport {
    /// In a few words, for the facts line: "no guess (pairs)", "no guess (global ×2)" (the
    /// exact engine needed twice), or "needs a guess (31 safe left)".
    pub fn verdict(&self) -> String {
        match (self.cleared, self.global_rounds) {
            (true, 0) => format!("no guess ({})", self.depth.name()),
            (true, g) => format!("no guess ({} ×{g})", self.depth.name()),
            (false, _) => format!("needs a guess ({} safe left)", self.safe_left),
        }
    }
}

/// Clears `position` (which must carry its layout) by certain deductions only; returns the
/// position where logic stopped and what it took. Errors: no layout, an inconsistent position,
/// or a frontier too large for `node_budget` (reported as such: no guess is assumed).
pub fn clear_by_logic(
    position: &Minesweeper,
    node_budget: u64,
) -> Result<(Minesweeper, LogicReport), PuzzleError> {
    let Some(layout) = position.layout().map(<[bool]>::to_vec) else {
        return Err(PuzzleError::Invalid(
            "clearing by logic needs the board's layout".into(),
        ));
    };
    let mut p = position.clone();
    let mut report = LogicReport::default();
    loop {
        // A won game is cleared; a lost one (a mine opened in play) takes no more moves.
        if p.game_state() != GameState::Playing {
            break;
        }
        let (safe, mines, depth) = match local_deductions(&p) {
            Some(found) => found,
            None => {
                let probabilities =
                    exact_probabilities(&p, node_budget.saturating_sub(report.nodes))?;
                report.nodes += probabilities.nodes;
                report.global_rounds += 1;
                let unopened = |k: &usize| p.cells[*k] == Cell::Unopened;
                let safe: Vec<usize> = (0..p.cells.len())
                    .filter(|k| unopened(k) && probabilities.p[*k] == 0.0)
                    .collect();
                let mines: Vec<usize> = (0..p.cells.len())
                    .filter(|k| unopened(k) && probabilities.p[*k] >= 1.0 - 1e-12)
                    .collect();
                (safe, mines, Depth::Global)
            }
        };
        if safe.is_empty() && mines.is_empty() {
            break;
        }
        // A deduction the layout contradicts would be a defect of the rules (or a probability
        // within rounding of 0 or 1): stop there rather than open a mine.
        if safe.iter().any(|&k| layout[k]) || mines.iter().any(|&k| !layout[k]) {
            break;
        }
        report.depth = report.depth.max(depth);
        let before = (report.opened, report.flagged);
        for k in mines {
            if p.cells[k] == Cell::Unopened {
                p.cells[k] = Cell::Flagged;
                report.flagged += 1;
            }
        }
        for k in safe {
            let (r, c) = (k / p.width, k % p.width);
            report.opened += p.open(r, c).map_or(0, |o| o.len());
        }
        // Every round must move the position on, or logic has stopped.
        if (report.opened, report.flagged) == before {
            break;
        }
    }
    report.safe_left = p
        .cells
        .iter()
        .zip(&layout)
        .filter(|(c, mine)| !**mine && !matches!(c, Cell::Opened(_)))
        .count();
    report.cleared = report.safe_left == 0;
    Ok((p, report))
}

/// Safe cells and mines that one number, or one number inside another, makes certain; `None`
/// when there are none.
fn local_deductions(p: &Minesweeper) -> Option<(Vec<usize>, Vec<usize>, Depth)> {
    let hints = p.hints();
    let (mut safe, mut mines) = (Vec::new(), Vec::new());
    for h in &hints {
        if h.need == 0 {
            safe.extend(&h.unknown);
        } else if h.need == h.unknown.len() as i64 {
            mines.extend(&h.unknown);
        }
    }
    if !safe.is_empty() || !mines.is_empty() {
        return Some((dedup(safe), dedup(mines), Depth::Single));
    }
    // One number's unknown cells inside another's: the difference holds the difference of
    // their needs. Numbers sharing a cell are at most two apart, so only those are compared.
    let at: std::collections::HashMap<usize, usize> =
        hints.iter().enumerate().map(|(i, h)| (h.cell, i)).collect();
    for a in &hints {
        let (ra, ca) = ((a.cell / p.width) as isize, (a.cell % p.width) as isize);
        for dr in -2..=2isize {
            for dc in -2..=2isize {
                let (r, c) = (ra + dr, ca + dc);
                if (dr, dc) == (0, 0)
                    || r < 0
                    || c < 0
                    || r as usize >= p.height
                    || c as usize >= p.width
                {
                    continue;
                }
                let Some(&bi) = at.get(&(r as usize * p.width + c as usize)) else {
                    continue;
                };
                let b = &hints[bi];
                if !a.unknown.iter().all(|k| b.unknown.contains(k)) {
                    continue;
                }
                let rest: Vec<usize> = b
                    .unknown
                    .iter()
                    .copied()
                    .filter(|k| !a.unknown.contains(k))
                    .collect();
                let need = b.need - a.need;
                if rest.is_empty() {
                    continue;
                }
                if need == 0 {
                    safe.extend(rest);
                } else if need == rest.len() as i64 {
                    mines.extend(rest);
                }
            }
        }
    }
    (!safe.is_empty() || !mines.is_empty()).then(|| (dedup(safe), dedup(mines), Depth::Pairs))
}

fn dedup(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forced_board_clears_and_a_fifty_fifty_does_not() {
        // Two mines side by side in a corner pair: the 1-2-1 style forced case clears.
        let layout = |rows: &[&str]| -> Vec<bool> {
            rows.iter()
                .flat_map(|r| r.chars().map(|c| c == '*'))
                .collect()
        };
        let forced = Minesweeper::with_layout(4, 3, layout(&["*...", "....", "...."])).unwrap();
        let mut p = forced.clone();
        p.open(2, 3);
        let (done, report) = clear_by_logic(&p, 1_000_000).unwrap();
        assert!(report.cleared, "{report:?}");
        assert_eq!(done.game_state(), GameState::Won);
        // A classic 50/50: two cells, one mine, nothing tells them apart.
        let coin = Minesweeper::with_layout(2, 2, layout(&["*.", ".."])).unwrap();
        let mut p = coin.clone();
        p.open(1, 1);
        let (_, report) = clear_by_logic(&p, 1_000_000).unwrap();
        assert!(!report.cleared && report.safe_left > 0, "{report:?}");
        assert!(clear_by_logic(&Minesweeper::undealt(3, 3, 1, 1).unwrap(), 10).is_err());
    }
}
