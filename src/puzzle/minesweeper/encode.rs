//! Minesweeper → QUBO, the third seed article's formulation: a variable `x[r][c]` per frontier
//! cell (unopened, next to an opened number), and per opened number with unopened neighbours
//! `hint[r][c]` = hint·(Σ neighbours − need)², need = the number − its flags. Optionally
//! (`mine_count`, 0 by default as in the seed) `mines` = mine_count·(Σ frontier + rest − R)²,
//! R = mines − flags, where the unconstrained cells are one aggregate `rest` held by binary
//! slack variables `rest[k]` (weights 1, 2, 4, … capped so the largest sum is exactly their
//! count F). Every group is 0 exactly when it holds, so the consistent configurations are the
//! ground states (energy 0) whenever the weights are positive.

use super::check::MineSolution;
use super::{Cell, Hint, Minesweeper};
use crate::puzzle::EncodeOptions;
use crate::qubo::encoding::slack_weights;
use crate::qubo::{Encoding, EncodingBuilder, Label};

/// The frontier cells (row-major) and the numbers' constraints.
fn frontier(p: &Minesweeper) -> (Vec<usize>, Vec<Hint>) {
    let hints = p.hints();
    let mut on = vec![false; p.width() * p.height()];
    for h in &hints {
        for &j in &h.unknown {
            on[j] = true;
        }
    }
    ((0..on.len()).filter(|&k| on[k]).collect(), hints)
}

pub(super) fn encode(p: &Minesweeper, _options: &EncodeOptions) -> Encoding {
    let mut b = EncodingBuilder::new();
    let w_hint = b.weight(
        "hint",
        1.0,
        (0.0, 10.0),
        "each opened number sees exactly its count of mines",
    );
    let w_count = b.weight(
        "mine_count",
        0.0,
        (0.0, 10.0),
        "the total mine count (the unconstrained cells as one aggregate); 0 = off, as in the seed",
    );
    let (cells, hints) = frontier(p);
    let mut var_of = vec![u32::MAX; p.width() * p.height()];
    for &k in &cells {
        var_of[k] = b.variable(Label::new(
            "x",
            &[(k / p.width()) as u32, (k % p.width()) as u32],
        ));
    }
    for h in &hints {
        let terms: Vec<(u32, f64)> = h.unknown.iter().map(|&j| (var_of[j], 1.0)).collect();
        let label = format!("hint[{}][{}]", h.cell / p.width(), h.cell % p.width());
        b.add_square(label, w_hint, &terms, h.need as f64);
    }
    let unconstrained = p
        .cells()
        .iter()
        .enumerate()
        .filter(|&(k, c)| *c == Cell::Unopened && var_of[k] == u32::MAX)
        .count();
    let remaining = p.mines().saturating_sub(p.num_flags());
    let mut terms: Vec<(u32, f64)> = cells.iter().map(|&k| (var_of[k], 1.0)).collect();
    for (i, w) in slack_weights(unconstrained as u64).into_iter().enumerate() {
        let v = b.variable(Label::new("rest", &[i as u32]));
        terms.push((v, w as f64));
    }
    if !terms.is_empty() {
        b.add_square("mines".into(), w_count, &terms, remaining as f64);
    }
    b.build()
}

/// Frontier cells from `x`; other unopened cells undecided.
pub(super) fn decode(p: &Minesweeper, encoding: &Encoding, sample: &[u8]) -> MineSolution {
    let mut mines = vec![None; p.width() * p.height()];
    for (label, value) in encoding.full_assignment(sample) {
        if label.name == "x"
            && let [r, c] = label.index[..]
        {
            let (r, c) = (r as usize, c as usize);
            if r < p.height() && c < p.width() {
                mines[p.index(r, c)] = Some(value);
            }
        }
    }
    MineSolution { mines }
}

/// The sample setting the solution's frontier mines, with the slack holding the rest of the
/// mines (when that many fit among the unconstrained cells; else the slack is 0).
pub(super) fn sample_of(
    p: &Minesweeper,
    encoding: &Encoding,
    solution: &MineSolution,
) -> Option<Vec<u8>> {
    if solution.mines.len() != p.width() * p.height() {
        return None;
    }
    let (cells, _) = frontier(p);
    let frontier_mines = cells
        .iter()
        .filter(|&&k| solution.mines[k] == Some(true))
        .count();
    let unconstrained = p.cells().iter().filter(|&&c| c == Cell::Unopened).count() - cells.len();
    let rest = p
        .mines()
        .saturating_sub(p.num_flags())
        .saturating_sub(frontier_mines)
        .min(unconstrained) as u64;
    let weights = slack_weights(unconstrained as u64);
    // Greedy from the largest weight: exact, since each weight ≤ 1 + the sum of those before.
    let mut bits = vec![0u8; weights.len()];
    let mut left = rest;
    for (i, &w) in weights.iter().enumerate().rev() {
        if w <= left {
            bits[i] = 1;
            left -= w;
        }
    }
    encoding
        .labels()
        .iter()
        .map(|l| match (l.name.as_str(), &l.index[..]) {
            ("x", [r, c]) => {
                let k = p.index(*r as usize, *c as usize);
                solution.mines.get(k).copied().flatten().map(u8::from)
            }
            ("rest", [i]) => bits.get(*i as usize).copied(),
            _ => None,
        })
        .collect()
}
