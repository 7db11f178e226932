//! Puzzle families behind one trait. Each kind is one folder with the same files: `mod.rs`
//! (model, the `Puzzle` impl), `text.rs` (its text forms), `encode.rs`, `check.rs` (the referee,
//! which never reads the QUBO), `solve.rs` (exact classical reference), `generate.rs`, `draw.rs`
//! — plus one line in `registry.rs`'s `registry!`, which generates `Kind`, `AnyPuzzle`, `AnySolution`
//! and every dispatch `match`, so no arm can be forgotten.

pub mod constrained;
pub mod edge_matching;
pub mod generating;
pub mod minesweeper;
pub mod numberlink;
pub mod picture;
pub mod sudoku;

#[macro_use]
mod dispatch;
mod load;
mod measures;
mod registry;

use std::fmt;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::params::{ParamError, ParamSpec, ParamValues};
use crate::qubo::{Encoding, GroupedModel, Label, Weights};
use crate::render::Drawing;
pub use edge_matching::{EdgeMatching, EdgeSolution};
pub use generating::GenerateControl;
pub use sudoku::{Sudoku, SudokuSolution};

/// A kind's own type inside `AnyPuzzle` (implemented by the registry for every kind): the
/// editors and tools that work on one kind take it out without a `match` of their own.
pub trait Variant: Sized {
    /// This kind's puzzle, if `puzzle` is one.
    fn of(puzzle: &AnyPuzzle) -> Option<&Self>;
    /// The same, to change.
    fn of_mut(puzzle: &mut AnyPuzzle) -> Option<&mut Self>;
}

pub use load::*;
pub use measures::*;
pub use registry::*;

/// Largest puzzle file accepted.
pub const MAX_PUZZLE_FILE_BYTES: u64 = 256 << 20;

/// Search nodes the classical reference and the design facts may spend per puzzle before they
/// answer "unknown" (a few seconds at most on the slowest kind).
pub const REFERENCE_NODE_BUDGET: u64 = 5_000_000;

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = PuzzleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let want = s.to_ascii_lowercase().replace('_', "-");
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == want)
            .ok_or_else(|| PuzzleError::UnknownKind(s.to_string()))
    }
}

/// A rule a candidate solution (or an instance's own givens) breaks, as the referee words it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The constraint's label (`row[0]#1`, `cell[3][4]`, …).
    pub constraint: String,
    /// What is wrong, in words.
    pub detail: String,
}

/// Options every encoder understands.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EncodeOptions {
    /// Remove variables the instance's givens already decide (the model keeps the full
    /// model's energies through its offset; decoding maps back).
    pub presolve: bool,
    /// The kind's formulation by name (`Puzzle::formulations`); `None`: its first, the default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formulation: Option<String>,
    /// Nogoods learned in earlier rounds (`Puzzle::cuts`, e.g. Numberlink's cycle cuts): sets
    /// of variables, by label, that no valid answer sets all to 1. The encoder adds each as a
    /// group under the weight `cut`; labels the encoding does not have are skipped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cuts: Vec<Vec<Label>>,
}

impl EncodeOptions {
    /// Just the presolve switch, everything else default.
    pub fn presolved(presolve: bool) -> Self {
        EncodeOptions {
            presolve,
            ..Self::default()
        }
    }

    /// Which of `kind`'s formulations is chosen (its index), or why none is.
    pub fn formulation_index(&self, kind: Kind) -> Result<usize, PuzzleError> {
        let all = kind.formulations();
        let Some(name) = &self.formulation else {
            return Ok(0);
        };
        all.iter().position(|f| f.name == name).ok_or_else(|| {
            PuzzleError::Invalid(if all.len() <= 1 {
                format!("formulation '{name}': {kind} has one formulation, the default")
            } else {
                format!(
                    "unknown formulation '{name}' for {kind} (choose {})",
                    all.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
                )
            })
        })
    }
}

/// One way of encoding a kind, chosen by name (`--formulation`, the solver panel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formulation {
    /// The name on the command line and in files.
    pub name: &'static str,
    /// One line: what it encodes and why one would pick it.
    pub summary: &'static str,
}

/// What the reader of a text form may be told from outside the file (the CLI's `--rows` and
/// `--cols`): piece lists without a size line, say. Kinds whose text fixes its shape ignore it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseHints {
    /// Board rows.
    pub rows: Option<usize>,
    /// Board columns.
    pub cols: Option<usize>,
    /// Total mines (Minesweeper forms without a count).
    pub mines: Option<usize>,
}

/// A `ParseHints` field, named so that a caller can say how its users give it (the CLI: a flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The board's rows and columns.
    Size,
    /// The total mine count.
    Mines,
}

/// Why a puzzle could not be read, made or encoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PuzzleError {
    /// Where (file:line or a short description) and what.
    #[error("{origin}: {message}")]
    Parse {
        /// `FILE:LINE`, `FILE: puzzle K`, or what was being read.
        origin: String,
        /// What is wrong.
        message: String,
    },
    /// An instance or request the kind cannot accept.
    #[error("{0}")]
    Invalid(String),
    /// The instance contradicts itself before any solving (e.g. two 1s in one row).
    #[error("{origin}: the givens conflict: {detail}")]
    Conflict {
        /// Where the puzzle came from.
        origin: String,
        /// The first conflict, in words (more may follow in `check`).
        detail: String,
    },
    /// A generator parameter that does not fit its description.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The file leaves out something the caller may give from outside it (`ParseHints`).
    #[error("{origin}: {message}")]
    NeedsHint {
        /// Where.
        origin: String,
        /// What is missing, in words.
        message: String,
        /// Which hint would supply it.
        hint: Hint,
    },
    /// A kind name nobody knows.
    #[error("unknown puzzle kind '{0}' (known: {known})", known = kind_names())]
    UnknownKind(String),
}

/// The registered kinds' names, for messages.
pub fn kind_names() -> String {
    Kind::ALL
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl PuzzleError {
    /// A parse error at `origin`.
    pub fn parse(origin: impl Into<String>, message: impl Into<String>) -> Self {
        PuzzleError::Parse {
            origin: origin.into(),
            message: message.into(),
        }
    }
}

/// A puzzle with the line of its file it came from (1-based; `None` for JSON items).
#[derive(Clone, Debug, PartialEq)]
pub struct Located<P> {
    /// The line in the file, when the format has one puzzle per line.
    pub line: Option<usize>,
    /// The puzzle.
    pub puzzle: P,
}

impl<P> Located<P> {
    /// The same location around another value.
    pub fn map<Q>(self, f: impl FnOnce(P) -> Q) -> Located<Q> {
        Located {
            line: self.line,
            puzzle: f(self.puzzle),
        }
    }
}

/// What the exact classical solver found, within its node budget.
#[derive(Clone, Debug, PartialEq)]
pub enum Reference<S> {
    /// A solution (valid by the referee).
    Solved(S),
    /// The search finished: there is none.
    NoSolution,
    /// The budget ran out first.
    GaveUp {
        /// The budget it spent.
        spent: Spent,
    },
}

/// The budget an exact search spent before giving up: nodes for the searches that count
/// them, seconds for the SAT references (which have a time limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    /// Search nodes.
    Nodes(u64),
    /// Seconds of solving.
    Seconds(u64),
}

impl fmt::Display for Spent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spent::Nodes(n) => write!(f, "after {n} nodes"),
            Spent::Seconds(s) => write!(f, "undecided within {s} s"),
        }
    }
}

impl<S> Reference<S> {
    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&S> {
        match self {
            Reference::Solved(s) => Some(s),
            _ => None,
        }
    }

    /// The same answer around another solution type.
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> Reference<T> {
        match self {
            Reference::Solved(s) => Reference::Solved(f(s)),
            Reference::NoSolution => Reference::NoSolution,
            Reference::GaveUp { spent } => Reference::GaveUp { spent },
        }
    }
}

/// How many solutions an instance has, as far as the budgeted search could tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionCount {
    /// None: the instance is unsolvable.
    Zero,
    /// Exactly one: a proper puzzle.
    One,
    /// Two or more.
    AtLeastTwo,
    /// The search gave up within its budget.
    Unknown {
        /// The budget it spent.
        spent: Spent,
    },
}

impl fmt::Display for SolutionCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolutionCount::Zero => f.write_str("0"),
            SolutionCount::One => f.write_str("1"),
            SolutionCount::AtLeastTwo => f.write_str("≥ 2"),
            SolutionCount::Unknown {
                spent: spent @ Spent::Nodes(_),
            } => {
                write!(f, "unknown (gave up {spent})")
            }
            SolutionCount::Unknown { spent } => write!(f, "unknown ({spent})"),
        }
    }
}

/// What a designer wants to know while editing: is this instance any good?
#[derive(Clone, Debug, PartialEq)]
pub struct DesignFacts<S> {
    /// 0, 1, ≥ 2, or unknown.
    pub solutions: SolutionCount,
    /// Contradictions among the instance's own givens (empty when consistent).
    pub conflicts: Vec<Violation>,
    /// Kind-specific figures, in display order (e.g. `givens: 28`).
    pub facts: Vec<(String, serde_json::Value)>,
    /// The first solution the search found ("solve classically": shown on request).
    pub solution: Option<S>,
    /// A second solution when there are two or more (shown on request).
    pub second_solution: Option<S>,
    /// The exact per-cell probabilities, for kinds that have them (drawn over the puzzle).
    pub probabilities: Option<CellProbabilities>,
}

impl<S: Clone> DesignFacts<S> {
    /// The facts' search as the classical reference a run measures against (the same search,
    /// within the same budget, as `solve_classically`): a run need not search again.
    pub fn reference(&self) -> Reference<S> {
        match (&self.solution, self.solutions) {
            (Some(s), _) => Reference::Solved(s.clone()),
            (None, SolutionCount::Zero) => Reference::NoSolution,
            (None, SolutionCount::Unknown { spent }) => Reference::GaveUp { spent },
            // Counted but not kept: no reference to offer.
            (None, _) => Reference::GaveUp {
                spent: crate::puzzle::Spent::Nodes(0),
            },
        }
    }
}

impl<S> DesignFacts<S> {
    /// The same facts around another solution type.
    pub fn map<T>(self, f: impl Fn(S) -> T) -> DesignFacts<T> {
        DesignFacts {
            solutions: self.solutions,
            conflicts: self.conflicts,
            facts: self.facts,
            solution: self.solution.map(&f),
            second_solution: self.second_solution.map(f),
            probabilities: self.probabilities,
        }
    }

    /// One line for a status bar or the terminal: `1 solution · givens 28 · no conflicts`.
    pub fn summary(&self) -> String {
        let mut parts = vec![match self.solutions {
            SolutionCount::One => "1 solution".to_string(),
            other => format!("solutions: {other}"),
        }];
        for (name, value) in &self.facts {
            parts.push(format!("{name} {}", plain(value)));
        }
        parts.push(match self.conflicts.len() {
            0 => "no conflicts".to_string(),
            k => format!(
                "the givens conflict ({k}): {}",
                self.conflicts[0].detail.clone()
            ),
        });
        parts.join(" · ")
    }
}

/// A JSON value as a person reads it (strings without quotes).
fn plain(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What a kind's repair step (`Puzzle::repair`) made of a defective candidate.
#[derive(Clone, Debug)]
pub struct Repaired<S> {
    /// The valid answer.
    pub solution: S,
    /// What the step did, in words for the reports ("re-solved 12 of 100 cells …").
    pub how: String,
}

/// What every puzzle family provides. The CLI and the GUI only call these (through
/// `AnyPuzzle` and `Kind`), so a new kind needs nothing of its own there.
pub trait Puzzle:
    Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// A decoded candidate solution (may be invalid: the referee says how).
    type Solution: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// The family.
    const KIND: Kind;
    /// Whether `generate` promises a unique solution (the conformance suite holds it to that).
    const GENERATES_UNIQUE: bool;
    /// Whether the kind's question is per-cell probabilities (`exact_probabilities` and
    /// `sampled_probabilities` answer it): runs then want many independent reads.
    const HAS_PROBABILITIES: bool = false;
    /// Whether presolve is on unless the user turns it off (the solver panel's checkbox; the
    /// command line's switch): for kinds whose deductions are sound and decide most of the
    /// model, so that default settings solve.
    const PRESOLVE_BY_DEFAULT: bool = false;
    /// The `ParseHints` its text forms read (the others are refused, not silently ignored).
    const HINTS: &'static [Hint] = &[];
    /// Search nodes `exact_probabilities` may spend (kinds with probabilities; the others
    /// never use it).
    const PROBABILITY_NODE_BUDGET: u64 = REFERENCE_NODE_BUDGET;

    /// Reads the kind's text form(s): every puzzle in `text`, with its line. `origin` names the
    /// source in messages (`FILE`, then `FILE:LINE`); `hints` carry what the caller knows.
    fn parse_text(
        text: &str,
        origin: &str,
        hints: &ParseHints,
    ) -> Result<Vec<Located<Self>>, PuzzleError>;
    /// Whether `text` looks like this kind's text form (a file opened without `--kind`).
    fn looks_like(text: &str) -> bool;
    /// The canonical text form: `parse_text(to_text())` gives the puzzle back.
    fn to_text(&self) -> String;
    /// One-line summary for lists and logs.
    fn describe(&self) -> String;

    /// Blank instances for the New menu, with their menu names.
    fn presets() -> Vec<(String, Self)>;
    /// The generator's parameters (CLI flags and the GUI's generator form).
    fn generator_params() -> &'static [ParamSpec];
    /// A generated instance; `params` passed `params::validate` against `generator_params`.
    /// The same parameters always give the same instance. Generators that search (until an
    /// instance fits a band) report their tries to `control` and stop when it is cancelled.
    fn generate(params: &ParamValues, control: &GenerateControl) -> Result<Self, PuzzleError>;
    /// The weight a sweep offers first (the one designers tune).
    fn default_sweep_weight() -> &'static str;

    /// Contradictions among the instance's own givens (cheap; empty when consistent).
    fn conflicts(&self) -> Vec<Violation>;
    /// Facts for designers (solution count within `node_budget`, conflicts, figures).
    fn design_facts(&self, node_budget: u64) -> DesignFacts<Self::Solution>;

    /// The kind's formulations, the default first (empty: one, unnamed).
    fn formulations() -> &'static [Formulation] {
        &[]
    }
    /// The labelled, re-weightable QUBO of this instance (`options.formulation` was checked
    /// against `formulations`).
    fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError>;
    /// Nogoods a decoded candidate shows (`EncodeOptions::cuts`): sets of variables its
    /// defects set together and no valid answer does (Numberlink: an isolated cycle's edges).
    /// Re-encoding with them and sampling again is a cut round.
    fn cuts(&self, _solution: &Self::Solution) -> Vec<Vec<Label>> {
        Vec::new()
    }
    /// A valid answer made from a defective candidate by a local step the kind documents
    /// (Numberlink: loops removed under no-fill, the defects' window re-solved under fill; edge
    /// matching: the mismatches' window re-solved by the exact search), or `None`. Reported as repaired, never counted as a valid read.
    fn repair(&self, _solution: &Self::Solution) -> Option<Repaired<Self::Solution>> {
        None
    }
    /// The cells `candidate` fills as `solution` does, for kinds whose answers are cell
    /// fillings (Sudoku: digits; edge matching: the colours shown, up to the board's turns
    /// when no piece is fixed; Numberlink: the path through each cell, under no-fill over the
    /// cells either one routes through).
    fn agreement(
        &self,
        _candidate: &Self::Solution,
        _solution: &Self::Solution,
    ) -> Option<Agreement> {
        None
    }
    /// Reads a sample of `encoding` (made by `encode`) back into a candidate solution.
    fn decode(&self, encoding: &Encoding, sample: &[u8]) -> Self::Solution;
    /// The sample of `encoding` that decodes to `solution` (`None` if it has no such sample,
    /// e.g. it contradicts what presolve fixed).
    fn solution_sample(&self, encoding: &Encoding, solution: &Self::Solution) -> Option<Vec<u8>>;

    /// The weighted model of `encoding` (made by `encode`) as a structure whose flips are
    /// priced from counts (`qubo::grouped`), with exactly the stored QUBO's energies; `None`
    /// when the kind has none or the encoding is presolved.
    fn structure(&self, _encoding: &Encoding, _weights: &Weights) -> Option<GroupedModel> {
        None
    }
    /// The energy a valid solution has under `weights`, known from the instance alone (no
    /// search): every group at its minimum (`Encoding::satisfied_energy`) when no weight is
    /// negative. A run that reaches it has solved the puzzle, so samplers may stop there; it
    /// says nothing about whether a solution exists.
    fn ideal_energy(&self, encoding: &Encoding, weights: &Weights) -> Option<f64> {
        let nonnegative = encoding.weights_nonnegative(weights).ok()?;
        (nonnegative && encoding.num_groups() > 0)
            .then(|| encoding.satisfied_energy(weights).ok())
            .flatten()
    }
    /// The exact per-cell probabilities within `node_budget`, for kinds whose question is how
    /// likely (`None` for the others; `Err` when the instance is inconsistent or too large).
    fn exact_probabilities(
        &self,
        _node_budget: u64,
    ) -> Option<Result<CellProbabilities, PuzzleError>> {
        None
    }
    /// The per-cell probabilities estimated from decoded samples with their read counts (the
    /// share of reads with a mine in the cell, for Minesweeper); `None` for other kinds.
    fn sampled_probabilities(
        &self,
        _candidates: &[(&Self::Solution, u64)],
    ) -> Option<CellProbabilities> {
        None
    }
    /// The picture with per-cell probabilities shown (kinds without them draw as usual).
    fn draw_probabilities(
        &self,
        solution: Option<&Self::Solution>,
        _probabilities: &CellProbabilities,
    ) -> Drawing {
        self.draw(solution)
    }
    /// The independent referee: every rule the solution breaks (empty when valid).
    fn check(&self, solution: &Self::Solution) -> Vec<Violation>;
    /// Whether a violation `check` reported is work not done yet (an empty cell, a path still
    /// being drawn) rather than a conflict: editors count these calmly and draw only the
    /// conflicts. Neither is a solution. Default: every violation is a conflict.
    fn unfinished(&self, _violation: &Violation) -> bool {
        false
    }
    /// The solution's score, for kinds scored by degree (`None`: valid or not is all).
    fn score(&self, _solution: &Self::Solution) -> Option<Score> {
        None
    }
    /// The objective's value of a candidate, for kinds that optimise one (`None`: valid or not
    /// is all).
    fn objective(&self, _solution: &Self::Solution) -> Option<ObjectiveValue> {
        None
    }
    /// The labels of the constraints the model states itself (constrained models; empty for
    /// the puzzles): the columns of `satisfied` and of saved sample sets' `is_satisfied`.
    fn constraint_labels(&self) -> Vec<String> {
        Vec::new()
    }
    /// Per constraint of `constraint_labels`, whether the candidate satisfies it.
    fn satisfied(&self, _solution: &Self::Solution) -> Vec<bool> {
        Vec::new()
    }
    /// An exact classical solution, searched within `node_budget`.
    fn solve_classically(&self, node_budget: u64) -> Reference<Self::Solution>;
    /// The solution in the kind's one-line human form.
    fn solution_to_string(&self, solution: &Self::Solution) -> String;
    /// The solution as JSON (Sudoku: its one-line string; other kinds: structured).
    fn solution_to_json(&self, solution: &Self::Solution) -> serde_json::Value;
    /// Reads a solution in the one-line form or as JSON (`solution_to_json`'s shape).
    fn parse_solution(&self, text: &str) -> Result<Self::Solution, PuzzleError>;
    /// The picture of the instance, with a candidate solution and its broken rules if given.
    fn draw(&self, solution: Option<&Self::Solution>) -> Drawing;
    /// The picture in a chosen style (`picture::DrawStyle`: piece numbers, the answer key),
    /// with probabilities when given. Kinds without those choices draw as usual.
    fn draw_styled(
        &self,
        solution: Option<&Self::Solution>,
        probabilities: Option<&CellProbabilities>,
        _style: &picture::DrawStyle,
    ) -> Drawing {
        match probabilities {
            Some(p) => self.draw_probabilities(solution, p),
            None => self.draw(solution),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_parse_both_spellings() {
        assert_eq!("edge_matching".parse::<Kind>().unwrap(), Kind::EdgeMatching);
        assert_eq!("edge-matching".parse::<Kind>().unwrap(), Kind::EdgeMatching);
        assert_eq!("Sudoku".parse::<Kind>().unwrap(), Kind::Sudoku);
        assert!("chess".parse::<Kind>().is_err());
    }

    #[test]
    fn kind_names_are_the_serde_names_and_examples_parse() {
        for &kind in Kind::ALL {
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                serde_json::json!(kind.name())
            );
            assert_eq!(kind.example().kind(), kind);
        }
        let e = parse_puzzles("1 2\n", Some(Kind::Numberlink), "x").unwrap_err();
        assert!(e.to_string().starts_with("x:"), "{e}");
    }

    #[test]
    fn json_puzzles_carry_their_kind() {
        assert!(parse_puzzles("", None, "x").unwrap().is_empty());
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let one = parse_puzzles(line, None, "x").unwrap();
        let json = serde_json::to_string(&one[0].puzzle).unwrap();
        assert!(json.starts_with(r#"{"kind":"sudoku""#), "{json}");
        let back = parse_puzzles(&json, None, "x").unwrap();
        assert_eq!(back[0].puzzle, one[0].puzzle);
        let e = parse_puzzles(&json, Some(Kind::Minesweeper), "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a sudoku"), "{e}");
    }
}
