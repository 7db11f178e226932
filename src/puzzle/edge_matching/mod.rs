//! Edge-matching tiles (Eternity II style): a board of rows × cols square pieces, each with four
//! edge colours listed clockwise from the top (top, right, bottom, left); colour 0 is the grey
//! border. Pieces turn by quarter turns; some may be fixed at a cell with a rotation. A perfect
//! tiling has every border side facing out and every joint between neighbours of one colour;
//! a partial one is scored by its matched joints (480 for the 16×16 Eternity II).
//!
//! Text form (the corpus's piece lists, read as they are): one piece per line, `T R B L`, or
//! `ID T R B L` (Le Bail's SHORTER files). Piece number P = its id when the ids number the
//! pieces 1 to N (in any order), else its 1-based position among the piece lines (its line
//! number in a headerless file). Optional lines: `size ROWS COLS`, and `fixed P ROW COL ROT`
//! (piece number, 1-based row and column; ROT clockwise quarter turns). Without `size`, rows and cols come from the counts of corner, edge and
//! inner pieces (4 corners; edges = 2(r + c) − 8 fixes r + c; r·c = pieces), or from
//! `ParseHints` (the CLI's `--rows/--cols`). `#` starts a comment line.
//!
//! A piece's *number* is the name a person knows it by; its *index* is its place in the list,
//! which sets where the editor shows it. Swapping two pieces on the board swaps their places
//! in the list and their numbers with them, so a number stays on its piece. Everything a person
//! reads or writes (pictures, solutions, violations, variable labels, files) uses numbers;
//! code uses indices.
//!
//! Invariant: an `EdgeMatching` always has rows, cols ≥ 2, exactly rows·cols pieces, numbers
//! that are a permutation of 1..=pieces, and fixed positions inside the board on distinct
//! pieces and cells (the constructor checks; editing keeps it). Colours are not checked here: a piece that fits nowhere is a conflict.

mod check;
mod draw;
mod edit;
mod encode;
mod generate;
mod json;
mod repair;
mod solve;
mod text;
pub use text::{infer_shape, looks_like, parse};

use serde::{Deserialize, Serialize};

use super::{
    DesignFacts, EncodeOptions, Kind, Located, ParseHints, Puzzle, PuzzleError, Reference, Score,
    SolutionCount, Violation,
};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::puzzle::GenerateControl;
use crate::qubo::Encoding;
use crate::render::Drawing;
pub use check::{EdgeSolution, Placed};
pub use draw::{Side, cell_origin, side_at};
pub use encode::{Placements, estimate_couplings};
pub use generate::generate;

/// Edge colours of a piece, clockwise from the top: top, right, bottom, left. 0 = border.
pub type Colours = [u8; 4];

/// Sides in `Colours` order.
pub const TOP: usize = 0;
/// Right side.
pub const RIGHT: usize = 1;
/// Bottom side.
pub const BOTTOM: usize = 2;
/// Left side.
pub const LEFT: usize = 3;

/// Largest board side accepted (rows and cols): Eternity II is 16; 64 keeps every table small.
pub const MAX_SIDE: usize = 64;

/// The colours a piece shows after `rotation` clockwise quarter turns: the top colour moves
/// to the right, and so on.
pub fn rotated(colours: Colours, rotation: u8) -> Colours {
    let mut out = [0; 4];
    for (s, &c) in colours.iter().enumerate() {
        out[(s + rotation as usize) % 4] = c;
    }
    out
}

/// Where a piece belongs, by its border sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceClass {
    /// Two adjacent border sides.
    Corner,
    /// One border side.
    Edge,
    /// No border side.
    Inner,
    /// Border on opposite sides, or on three or four: it fits no cell of a board ≥ 2×2.
    Misfit,
}

/// The class of a piece.
pub fn class_of(colours: Colours) -> PieceClass {
    let zero: Vec<usize> = (0..4).filter(|&s| colours[s] == 0).collect();
    match zero[..] {
        [] => PieceClass::Inner,
        [_] => PieceClass::Edge,
        [a, b] if b - a == 1 || (a == 0 && b == 3) => PieceClass::Corner,
        _ => PieceClass::Misfit,
    }
}

/// A piece fixed at a cell with a rotation (all 0-based here; 1-based in files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixed {
    /// Piece index (0-based).
    pub piece: usize,
    /// Row (0-based).
    pub row: usize,
    /// Column (0-based).
    pub col: usize,
    /// Clockwise quarter turns, 0..=3.
    pub rotation: u8,
}

/// An edge-matching instance. See the module header for its invariant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "json::EdgeFile", into = "json::EdgeFile")]
pub struct EdgeMatching {
    rows: usize,
    cols: usize,
    pieces: Vec<Colours>,
    /// Each listed piece's number (see the module header); 1..=pieces in list order unless
    /// pieces were swapped.
    numbers: Vec<usize>,
    fixed: Vec<Fixed>,
}

impl EdgeMatching {
    /// An instance; checks the invariant (sizes, piece count, fixed positions).
    pub fn new(
        rows: usize,
        cols: usize,
        pieces: Vec<Colours>,
        fixed: Vec<Fixed>,
    ) -> Result<Self, PuzzleError> {
        if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
            return Err(PuzzleError::Invalid(format!(
                "a {rows}×{cols} board is not supported: rows and columns are 2 to {MAX_SIDE}"
            )));
        }
        if pieces.len() != rows * cols {
            return Err(PuzzleError::Invalid(format!(
                "a {rows}×{cols} board needs {} pieces; there are {}",
                rows * cols,
                pieces.len()
            )));
        }
        for (k, f) in fixed.iter().enumerate() {
            if f.piece >= pieces.len() {
                return Err(PuzzleError::Invalid(format!(
                    "fixed piece {} does not exist (there are {} pieces)",
                    f.piece + 1,
                    pieces.len()
                )));
            }
            if f.row >= rows || f.col >= cols || f.rotation > 3 {
                return Err(PuzzleError::Invalid(format!(
                    "fixed piece {} at row {}, column {}, rotation {} is off the {rows}×{cols} board",
                    f.piece + 1,
                    f.row + 1,
                    f.col + 1,
                    f.rotation
                )));
            }
            if let Some(g) = fixed[..k]
                .iter()
                .find(|g| g.piece == f.piece || (g.row, g.col) == (f.row, f.col))
            {
                return Err(PuzzleError::Invalid(format!(
                    "fixed piece {} at row {}, column {} clashes with fixed piece {} at row {}, column {}",
                    f.piece + 1,
                    f.row + 1,
                    f.col + 1,
                    g.piece + 1,
                    g.row + 1,
                    g.col + 1
                )));
            }
        }
        Ok(EdgeMatching {
            rows,
            cols,
            numbers: (1..=pieces.len()).collect(),
            pieces,
            fixed,
        })
    }

    /// The same instance with its pieces numbered `numbers` (in list order); they must be a
    /// permutation of 1..=pieces.
    pub fn with_numbers(mut self, numbers: Vec<usize>) -> Result<Self, PuzzleError> {
        json::check_numbers(&numbers, self.pieces.len())?;
        self.numbers = numbers;
        Ok(self)
    }

    /// The number a person knows piece `index` by (1-based).
    pub fn number(&self, index: usize) -> usize {
        self.numbers.get(index).copied().unwrap_or(index + 1)
    }

    /// Per number, the index of its piece (entry 0 unused): for lookups in bulk.
    pub fn indices_by_number(&self) -> Vec<Option<usize>> {
        let mut index = vec![None; self.pieces.len() + 1];
        for (i, &n) in self.numbers.iter().enumerate() {
            index[n] = Some(i);
        }
        index
    }

    /// Whether every piece's number is its place in the list.
    pub fn numbered_in_order(&self) -> bool {
        self.numbers.iter().enumerate().all(|(i, &n)| n == i + 1)
    }

    /// A solved blank design: every frame joint colour 1, every inner joint colour 2, pieces
    /// in solution order. Designers paint from here.
    pub fn blank(rows: usize, cols: usize) -> Result<Self, PuzzleError> {
        let joint = |frame: bool| if frame { 1 } else { 2 };
        let mut pieces = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                let on_frame_row = r == 0 || r + 1 == rows;
                let on_frame_col = c == 0 || c + 1 == cols;
                pieces.push([
                    if r == 0 { 0 } else { joint(on_frame_col) },
                    if c + 1 == cols {
                        0
                    } else {
                        joint(on_frame_row)
                    },
                    if r + 1 == rows {
                        0
                    } else {
                        joint(on_frame_col)
                    },
                    if c == 0 { 0 } else { joint(on_frame_row) },
                ]);
            }
        }
        EdgeMatching::new(rows, cols, pieces, Vec::new())
    }

    /// Board rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Board columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cell across each side of `cell` (row-major), by side (`TOP`, `RIGHT`, `BOTTOM`,
    /// `LEFT`); `None` where that side faces out of the board.
    pub fn across(&self, cell: usize) -> [Option<usize>; 4] {
        let (r, c) = (cell / self.cols, cell % self.cols);
        [
            (r > 0).then(|| cell - self.cols),
            (c + 1 < self.cols).then(|| cell + 1),
            (r + 1 < self.rows).then(|| cell + self.cols),
            (c > 0).then(|| cell - 1),
        ]
    }

    /// The pieces as listed (piece P is `pieces()[P − 1]`).
    pub fn pieces(&self) -> &[Colours] {
        &self.pieces
    }

    /// The fixed positions.
    pub fn fixed(&self) -> &[Fixed] {
        &self.fixed
    }

    /// The fixed position at a cell, if any.
    pub fn fixed_at(&self, row: usize, col: usize) -> Option<&Fixed> {
        self.fixed.iter().find(|f| (f.row, f.col) == (row, col))
    }

    /// Joints between neighbouring cells: the most a tiling can score.
    pub fn max_score(&self) -> u64 {
        (self.rows * (self.cols - 1) + self.cols * (self.rows - 1)) as u64
    }

    /// Which sides of cell (r, c) face out of the board.
    pub fn outward(&self, r: usize, c: usize) -> [bool; 4] {
        [r == 0, c + 1 == self.cols, r + 1 == self.rows, c == 0]
    }

    /// Whether `colours` (already rotated) fit cell (r, c): border exactly on the sides that
    /// face out.
    pub fn fits(&self, colours: Colours, r: usize, c: usize) -> bool {
        let out = self.outward(r, c);
        (0..4).all(|s| (colours[s] == 0) == out[s])
    }

    /// Pieces per class: (corners, edges, inner, misfits).
    pub fn class_counts(&self) -> [usize; 4] {
        let mut n = [0; 4];
        for &p in &self.pieces {
            n[match class_of(p) {
                PieceClass::Corner => 0,
                PieceClass::Edge => 1,
                PieceClass::Inner => 2,
                PieceClass::Misfit => 3,
            }] += 1;
        }
        n
    }

    /// Distinct colours on frame joints (a side beside a border side) and on inner joints (every
    /// other non-border side), in words: `5 frame + 17 inner colours` when the two sets are
    /// apart (Eternity II style), else `6 colours`.
    pub fn colours_in_words(&self) -> String {
        let mut frame = std::collections::BTreeSet::new();
        let mut inner = std::collections::BTreeSet::new();
        for &p in &self.pieces {
            for s in 0..4 {
                if p[s] == 0 {
                    continue;
                }
                if p[(s + 1) % 4] == 0 || p[(s + 3) % 4] == 0 {
                    frame.insert(p[s]);
                } else {
                    inner.insert(p[s]);
                }
            }
        }
        if frame.is_disjoint(&inner) {
            format!("{} frame + {} inner colours", frame.len(), inner.len())
        } else {
            format!("{} colours", frame.union(&inner).count())
        }
    }

    /// The canonical text form (what Save writes): a `size` line, `fixed` lines, then the
    /// pieces `T R B L`, one per line — `ID T R B L` when the numbers are not in list order.
    pub fn to_text_form(&self) -> String {
        let mut out = format!("size {} {}\n", self.rows, self.cols);
        for f in &self.fixed {
            out.push_str(&format!(
                "fixed {} {} {} {}\n",
                self.number(f.piece),
                f.row + 1,
                f.col + 1,
                f.rotation
            ));
        }
        let with_ids = !self.numbered_in_order();
        for (i, p) in self.pieces.iter().enumerate() {
            if with_ids {
                out.push_str(&format!("{} ", self.numbers[i]));
            }
            out.push_str(&format!("{} {} {} {}\n", p[0], p[1], p[2], p[3]));
        }
        out
    }
}

/// Generator parameters, described once for the CLI flags and the GUI form.
const GENERATOR_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "rows",
        ty: ParamType::Int {
            min: 2,
            max: MAX_SIDE as u64,
        },
        default: ParamDefault::Int(4),
        help: "board rows",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "cols",
        ty: ParamType::Int {
            min: 2,
            max: MAX_SIDE as u64,
        },
        default: ParamDefault::Int(4),
        help: "board columns",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "frame_colors",
        ty: ParamType::Int { min: 1, max: 100 },
        default: ParamDefault::Int(2),
        help: "colours on joints between two frame pieces (Eternity II: 5)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "inner_colors",
        ty: ParamType::Int { min: 1, max: 150 },
        default: ParamDefault::Int(4),
        help: "colours on every other joint (Eternity II: 17); fewer colours, more solutions",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "unique",
        ty: ParamType::Bool,
        default: ParamDefault::Bool(false),
        help: "only boards with exactly one solution (the first corner held, identical pieces \
               not told apart), proved by the exact search; more colours make it likelier",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(
        ParamDefault::Int(1),
        "the same seed gives the same board, shuffle and rotations",
    ),
];

/// Reads a validated whole-number parameter.
fn int_param(values: &ParamValues, name: &str) -> usize {
    values.get(name).and_then(|v| v.as_u64()).unwrap_or(0) as usize
}

/// The shipped instances offered in the New menu (MIT: see puzzles/SOURCES.md).
const OFFICIAL_SETS: &[(&str, &str)] = &[
    (
        "Eternity II seed article 4×4",
        include_str!("../../../puzzles/edge-matching/seed-article-4x4.txt"),
    ),
    (
        "Eternity II clue puzzle 1 (6×6)",
        include_str!("../../../puzzles/edge-matching/official/clue1.txt"),
    ),
    (
        "Eternity II clue puzzle 2 (6×12)",
        include_str!("../../../puzzles/edge-matching/official/clue2.txt"),
    ),
    (
        "Eternity II clue puzzle 3 (6×6)",
        include_str!("../../../puzzles/edge-matching/official/clue3.txt"),
    ),
    (
        "Eternity II clue puzzle 4 (6×12)",
        include_str!("../../../puzzles/edge-matching/official/clue4.txt"),
    ),
    (
        "Eternity II official 16×16",
        include_str!("../../../puzzles/edge-matching/official/eternity2.txt"),
    ),
];

impl Puzzle for EdgeMatching {
    type Solution = EdgeSolution;
    const KIND: Kind = Kind::EdgeMatching;
    const GENERATES_UNIQUE: bool = false;
    const HINTS: &'static [crate::puzzle::Hint] = &[crate::puzzle::Hint::Size];

    fn parse_text(
        text: &str,
        origin: &str,
        hints: &ParseHints,
    ) -> Result<Vec<Located<Self>>, PuzzleError> {
        Ok(vec![Located {
            line: None,
            puzzle: parse(text, origin, hints)?,
        }])
    }

    fn looks_like(text: &str) -> bool {
        looks_like(text)
    }

    fn to_text(&self) -> String {
        self.to_text_form()
    }

    fn describe(&self) -> String {
        format!(
            "{}×{} edge matching, {} pieces, {}{}",
            self.rows,
            self.cols,
            self.pieces.len(),
            self.colours_in_words(),
            match self.fixed.len() {
                0 => String::new(),
                k => format!(", {k} fixed"),
            }
        )
    }

    fn presets() -> Vec<(String, Self)> {
        let mut out: Vec<(String, Self)> = [(4, 4), (6, 6), (8, 8)]
            .iter()
            .filter_map(|&(r, c)| Some((format!("Edge matching {r}×{c}"), Self::blank(r, c).ok()?)))
            .collect();
        for (name, text) in OFFICIAL_SETS {
            if let Ok(p) = parse(text, name, &ParseHints::default()) {
                out.push((name.to_string(), p));
            }
        }
        out
    }

    fn generator_params() -> &'static [ParamSpec] {
        GENERATOR_PARAMS
    }

    fn generate(params: &ParamValues, control: &GenerateControl) -> Result<Self, PuzzleError> {
        let (rows, cols, frame, inner) = (
            int_param(params, "rows"),
            int_param(params, "cols"),
            int_param(params, "frame_colors"),
            int_param(params, "inner_colors"),
        );
        let seed = params.get("seed").and_then(|v| v.as_u64()).unwrap_or(0);
        if params.get("unique").and_then(|v| v.as_bool()) == Some(true) {
            return generate::generate_unique(rows, cols, frame, inner, seed, control);
        }
        generate(rows, cols, frame, inner, seed)
    }

    fn default_sweep_weight() -> &'static str {
        "match"
    }

    fn conflicts(&self) -> Vec<Violation> {
        check::instance_conflicts(self)
    }

    fn design_facts(&self, node_budget: u64) -> DesignFacts<EdgeSolution> {
        let conflicts = self.conflicts();
        let [corners, edges, inner, _] = self.class_counts();
        let mut nodes = None;
        let (solutions, first, second) = if conflicts.is_empty() {
            let found = solve::search(self, 2, solve::scan_budget(node_budget));
            nodes = Some(found.nodes);
            let count = match (found.solutions.len(), found.gave_up) {
                (2.., _) => SolutionCount::AtLeastTwo,
                (_, true) => SolutionCount::Unknown {
                    spent: crate::puzzle::Spent::Nodes(found.nodes),
                },
                (1, false) => SolutionCount::One,
                _ => SolutionCount::Zero,
            };
            (
                count,
                found.solutions.first().cloned(),
                found.solutions.get(1).cloned(),
            )
        } else {
            (SolutionCount::Zero, None, None)
        };
        let mut facts = vec![
            (
                "board".to_string(),
                format!("{}×{}", self.rows, self.cols).into(),
            ),
            (
                "pieces".into(),
                format!("{corners} corner / {edges} edge / {inner} inner").into(),
            ),
            ("with".into(), self.colours_in_words().into()),
            ("max score".into(), self.max_score().into()),
        ];
        // Colours that cannot pair up: on an odd number of sides, or not by kind of joint.
        if let Some(why) = check::odd_colour(self).or_else(|| solve::no_tiling(self)) {
            facts.push(("no perfect tiling".into(), why.into()));
        }
        if let Some(nodes) = nodes {
            // The classical difficulty: what proving the solution count cost.
            facts.push(("search nodes".into(), nodes.into()));
        }
        DesignFacts {
            solutions,
            conflicts,
            facts,
            solution: first,
            second_solution: second,
            probabilities: None,
        }
    }

    fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
        encode::encode(self, options)
    }

    fn decode(&self, encoding: &Encoding, sample: &[u8]) -> EdgeSolution {
        encode::decode(self, encoding, sample)
    }

    fn solution_sample(&self, encoding: &Encoding, solution: &EdgeSolution) -> Option<Vec<u8>> {
        encode::sample_of(self, encoding, solution)
    }

    fn check(&self, solution: &EdgeSolution) -> Vec<Violation> {
        check::check(self, solution).violations
    }

    fn repair(&self, solution: &EdgeSolution) -> Option<crate::puzzle::Repaired<EdgeSolution>> {
        repair::repair(self, solution)
    }

    fn ideal_energy(&self, encoding: &Encoding, weights: &crate::qubo::Weights) -> Option<f64> {
        if encoding.unstored().is_none() {
            // Stored: its groups know (every joint's reward, every one-hot at its minimum).
            let nonnegative = encoding.weights_nonnegative(weights).ok()?;
            return nonnegative
                .then(|| encoding.satisfied_energy(weights).ok())
                .flatten();
        }
        // Unstored (the full Eternity II): the structure's energy of a perfect board, every
        // joint matched and every piece and cell held once.
        encoding.check_weights(weights).ok()?;
        let w = |name: &str| weights.get(name).unwrap_or(1.0);
        let all_nonnegative = ["piece", "cell", "match", "mismatch"]
            .iter()
            .all(|n| weights.get(n).is_none_or(|v| v >= 0.0));
        let joints = encode::Placements::joints(self.rows(), self.cols()).len();
        all_nonnegative.then(|| -w("match") * joints as f64)
    }

    fn structure(
        &self,
        encoding: &Encoding,
        weights: &crate::qubo::Weights,
    ) -> Option<crate::qubo::GroupedModel> {
        // Only the full encoding: its variables are the placements, in order.
        if !encoding.fixed().is_empty() {
            return None;
        }
        let g = encode::structured_model(self, weights);
        (crate::qubo::Model::num_variables(&g) == encoding.num_variables()).then_some(g)
    }

    fn agreement(
        &self,
        candidate: &EdgeSolution,
        solution: &EdgeSolution,
    ) -> Option<crate::puzzle::Agreement> {
        check::agreement(self, candidate, solution)
    }

    fn score(&self, solution: &EdgeSolution) -> Option<Score> {
        Some(Score {
            value: check::check(self, solution).score,
            max: self.max_score(),
        })
    }

    fn solve_classically(&self, node_budget: u64) -> Reference<EdgeSolution> {
        if !self.conflicts().is_empty() {
            return Reference::NoSolution;
        }
        let found = solve::search(self, 1, solve::scan_budget(node_budget));
        match (found.solutions.into_iter().next(), found.gave_up) {
            (Some(s), _) => Reference::Solved(s),
            (None, true) => Reference::GaveUp {
                spent: crate::puzzle::Spent::Nodes(found.nodes),
            },
            (None, false) => Reference::NoSolution,
        }
    }

    fn solution_to_string(&self, solution: &EdgeSolution) -> String {
        solution.to_line(self)
    }

    fn solution_to_json(&self, solution: &EdgeSolution) -> serde_json::Value {
        solution.to_json(self)
    }

    fn parse_solution(&self, text: &str) -> Result<EdgeSolution, PuzzleError> {
        EdgeSolution::parse(text, self)
    }

    fn draw(&self, solution: Option<&EdgeSolution>) -> Drawing {
        draw::draw(self, solution)
    }

    fn draw_styled(
        &self,
        solution: Option<&EdgeSolution>,
        _probabilities: Option<&crate::puzzle::CellProbabilities>,
        style: &crate::puzzle::picture::DrawStyle,
    ) -> Drawing {
        draw::draw_with(
            self,
            solution,
            style.piece_numbers,
            style.answer,
            style.caption,
        )
    }
}

#[cfg(test)]
mod tests;
