//! The puzzle kinds this build has: one line each (see `dispatch.rs` for what it generates).

use super::*;

registry! {
    /// Digit grids, n²×n².
    Sudoku = "sudoku" => sudoku::Sudoku, example "sudoku/euler96_g1.txt";
    /// Digit grids with mine probabilities.
    Minesweeper = "minesweeper" => minesweeper::Minesweeper, example "minesweeper/beginner-9x9-seed3.txt";
    /// Path layers, one per number.
    Numberlink = "numberlink" => numberlink::Numberlink, example "numberlink/generated/7x7-6pairs-seed1.txt";
    /// Eternity II style tiles.
    EdgeMatching = "edge-matching" => edge_matching::EdgeMatching, example "edge-matching/seed-article-4x4.txt";
    /// Models with an objective and labelled constraints (dimod CQM, LP, our JSON).
    Constrained = "constrained" => constrained::ConstrainedModel, example "constrained/knapsack-12.lp";
}
