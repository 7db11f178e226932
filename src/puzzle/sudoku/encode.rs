//! Sudoku → QUBO, as in the seed articles: one-hot `x[r][c][d]` (d = digit − 1, index
//! side²·r + side·c + d), penalty groups `cell[r][c]`, `row[r]#D`, `col[c]#D`, `box[b]#D`
//! (D = the digit's symbol) each weight·(Σx − 1)², and each hint a linear reward
//! `hint[r][c]` = −hint·x. A valid grid therefore has energy −hint × (number of givens).

use super::check::{Cell, SudokuSolution};
use super::{Sudoku, symbol};
use crate::puzzle::EncodeOptions;
use crate::qubo::{Encoding, EncodingBuilder, Label};

/// The default hint weight (see `encode`).
pub const DEFAULT_HINT_WEIGHT: f64 = 6.0;

/// The hint weight of the seed articles and of the peer harness (`qubo_gen.py`'s H = 2A):
/// the bench's Sudoku models use it, so that they stay the harness's files.
pub const HARNESS_HINT_WEIGHT: f64 = 2.0;

pub(super) fn encode(p: &Sudoku, options: &EncodeOptions) -> Encoding {
    let side = p.side();
    let bs = p.box_size();
    let mut b = EncodingBuilder::new();
    let w_cell = b.weight(
        "cell",
        1.0,
        (0.0, 10.0),
        "each cell holds exactly one digit",
    );
    let w_row = b.weight("row", 1.0, (0.0, 10.0), "each digit once per row");
    let w_col = b.weight("col", 1.0, (0.0, 10.0), "each digit once per column");
    let w_box = b.weight("box", 1.0, (0.0, 10.0), "each digit once per box");
    // At 2 (the seed articles' and the peer harness's H = 2A) a valid grid that changes one
    // given is a local minimum only 2 above the ground, every rule kept, and on Norvig's hard
    // top95 the annealers stopped there (0 of 10 within 30 s). Above 4 = cell + row + col + box
    // (what turning the given's digit back on costs in such a grid), that grid is no minimum:
    // the nearest trap, the grid with the given's digit on as well, sits 4 above. At 6: 5 of
    // those 10, and 73 of all 95 (`solve`, 2 cores).
    let w_hint = b.weight(
        "hint",
        DEFAULT_HINT_WEIGHT,
        (0.0, 10.0),
        "hint strength: reward for keeping a given (above cell + row + col + box, a grid that changes a given is no local minimum)",
    );
    for r in 0..side {
        for c in 0..side {
            for d in 0..side {
                b.variable(Label::new("x", &[r as u32, c as u32, d as u32]));
            }
        }
    }
    let var = |r: usize, c: usize, d: usize| (side * side * r + side * c + d) as u32;
    for r in 0..side {
        for c in 0..side {
            let vars: Vec<u32> = (0..side).map(|d| var(r, c, d)).collect();
            b.add_one_hot(format!("cell[{r}][{c}]"), w_cell, &vars);
        }
    }
    for d in 0..side {
        let ds = symbol(d as u8 + 1);
        for r in 0..side {
            let vars: Vec<u32> = (0..side).map(|c| var(r, c, d)).collect();
            b.add_one_hot(format!("row[{r}]#{ds}"), w_row, &vars);
        }
        for c in 0..side {
            let vars: Vec<u32> = (0..side).map(|r| var(r, c, d)).collect();
            b.add_one_hot(format!("col[{c}]#{ds}"), w_col, &vars);
        }
        for bx in 0..side {
            let (r0, c0) = ((bx / bs) * bs, (bx % bs) * bs);
            let vars: Vec<u32> = (0..side)
                .map(|k| var(r0 + k / bs, c0 + k % bs, d))
                .collect();
            b.add_one_hot(format!("box[{bx}]#{ds}"), w_box, &vars);
        }
    }
    for r in 0..side {
        for c in 0..side {
            let g = p.given(r, c);
            if g != 0 {
                b.add_reward(format!("hint[{r}][{c}]"), w_hint, var(r, c, g as usize - 1));
            }
        }
    }
    b.condition(
        &[
            (w_hint, 1.0),
            (w_cell, -1.0),
            (w_row, -1.0),
            (w_col, -1.0),
            (w_box, -1.0),
        ],
        true,
        "hint > cell + row + col + box",
        "a valid grid that changes one given is a local minimum close above the answer, where \
         annealers stop (docs/tuning.md); raise hint or lower the rule weights",
    );
    let full = b.build();
    if !options.presolve {
        return full;
    }
    // Presolve: a hint fixes its own variable to 1, the cell's other digits to 0, and the same
    // digit to 0 in its row, column and box. Substituting keeps every energy (Encoding::fix).
    let mut fixed: Vec<Option<bool>> = vec![None; side * side * side];
    for r in 0..side {
        for c in 0..side {
            let g = p.given(r, c);
            if g == 0 {
                continue;
            }
            let d = g as usize - 1;
            for k in 0..side {
                fixed[var(r, c, k) as usize] = Some(false);
                fixed[var(r, k, d) as usize] = Some(false);
                fixed[var(k, c, d) as usize] = Some(false);
                let (r0, c0) = ((r / bs) * bs, (c / bs) * bs);
                fixed[var(r0 + k / bs, c0 + k % bs, d) as usize] = Some(false);
            }
        }
    }
    // Hints win over peers' exclusions (only matters when two givens clash).
    for r in 0..side {
        for c in 0..side {
            let g = p.given(r, c);
            if g != 0 {
                fixed[var(r, c, g as usize - 1) as usize] = Some(true);
            }
        }
    }
    full.fix(&fixed)
}

/// Reads the digits a sample sets in each cell (presolved variables included).
pub(super) fn decode(p: &Sudoku, encoding: &Encoding, sample: &[u8]) -> SudokuSolution {
    let side = p.side();
    let mut on: Vec<Vec<u8>> = vec![Vec::new(); side * side];
    for (label, value) in encoding.full_assignment(sample) {
        if value && label.name == "x" && label.index.len() == 3 {
            let (r, c, d) = (
                label.index[0] as usize,
                label.index[1] as usize,
                label.index[2],
            );
            if r < side && c < side {
                on[r * side + c].push(d as u8 + 1);
            }
        }
    }
    let cells = on
        .into_iter()
        .map(|mut ds| {
            ds.sort_unstable();
            match ds.len() {
                0 => Cell::Empty,
                1 => Cell::Digit(ds[0]),
                _ => Cell::Multiple(ds),
            }
        })
        .collect();
    SudokuSolution::new(side, cells)
}

/// The sample of `encoding` that sets exactly the solution's digits; `None` when the solution
/// has empty or ambiguous cells, or contradicts a variable presolve fixed.
pub(super) fn sample_of(
    p: &Sudoku,
    encoding: &Encoding,
    solution: &SudokuSolution,
) -> Option<Vec<u8>> {
    let side = p.side();
    if solution.side() != side {
        return None;
    }
    let value = |label: &Label| -> Option<bool> {
        let [r, c, d] = label.index[..] else {
            return None;
        };
        let (r, c) = (r as usize, c as usize);
        if label.name != "x" || r >= side || c >= side {
            return None;
        }
        Some(solution.digit(r, c)? as u32 == d + 1)
    };
    for (label, fixed) in encoding.fixed() {
        if value(label)? != *fixed {
            return None;
        }
    }
    encoding
        .labels()
        .iter()
        .map(|l| value(l).map(u8::from))
        .collect()
}
