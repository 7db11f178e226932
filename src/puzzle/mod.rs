//! Puzzle families behind one trait. Each kind has the same files: `mod.rs` (model + parse),
//! `encode.rs`, `check.rs` (the referee, which never reads the QUBO), `solve.rs` (exact
//! classical reference), `generate.rs`, `draw.rs`.
//!
//! `AnyPuzzle` is what files, the CLI and the GUI hold: the set of kinds is closed, so adding
//! a kind means adding an arm to each `match` here and nowhere else.

pub mod sudoku;

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::qubo::Encoding;
use crate::render::Drawing;
pub use sudoku::{Sudoku, SudokuSolution};

/// Largest puzzle file accepted.
pub const MAX_PUZZLE_FILE_BYTES: u64 = 256 << 20;

/// The puzzle families the product knows by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Sudoku,
    Minesweeper,
    Numberlink,
    EdgeMatching,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Sudoku,
        Kind::Minesweeper,
        Kind::Numberlink,
        Kind::EdgeMatching,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Sudoku => "sudoku",
            Kind::Minesweeper => "minesweeper",
            Kind::Numberlink => "numberlink",
            Kind::EdgeMatching => "edge-matching",
        }
    }

    /// Whether this build has the kind's encoder, checker and renderer.
    pub fn is_available(self) -> bool {
        matches!(self, Kind::Sudoku)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "sudoku" => Ok(Kind::Sudoku),
            "minesweeper" => Ok(Kind::Minesweeper),
            "numberlink" => Ok(Kind::Numberlink),
            "edge-matching" => Ok(Kind::EdgeMatching),
            _ => Err(format!(
                "unknown puzzle kind '{s}' (sudoku, minesweeper, numberlink, edge-matching)"
            )),
        }
    }
}

/// A rule a candidate solution breaks, as the referee words it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub constraint: String,
    pub detail: String,
}

/// Options every encoder understands.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EncodeOptions {
    /// Remove variables the instance's givens already decide (the model keeps the full
    /// model's energies through its offset; decoding maps back).
    pub presolve: bool,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PuzzleError {
    /// Where (file:line or a short description) and what.
    #[error("{origin}: {message}")]
    Parse { origin: String, message: String },
    #[error("{0}")]
    Invalid(String),
    #[error("puzzle kind '{0}' is not available yet in this build (available: sudoku)")]
    KindNotAvailable(Kind),
}

impl PuzzleError {
    pub fn parse(origin: impl Into<String>, message: impl Into<String>) -> Self {
        PuzzleError::Parse {
            origin: origin.into(),
            message: message.into(),
        }
    }
}

/// What every puzzle family provides. The GUI and CLI only ever call these.
pub trait Puzzle: Clone {
    /// A decoded candidate solution (may be invalid: the checker says how).
    type Solution: Clone + fmt::Debug;

    fn kind(&self) -> Kind;
    /// One-line summary for lists and logs.
    fn describe(&self) -> String;
    /// The labelled, re-weightable QUBO of this instance.
    fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError>;
    /// Reads a sample of `encoding` (made by `encode`) back into a candidate solution.
    fn decode(&self, encoding: &Encoding, sample: &[u8]) -> Self::Solution;
    /// The independent referee: every rule the solution breaks (empty when valid).
    fn check(&self, solution: &Self::Solution) -> Vec<Violation>;
    /// An exact classical solution, if one exists.
    fn solve_classically(&self) -> Option<Self::Solution>;
    /// The solution in the kind's one-line text form.
    fn solution_to_string(&self, solution: &Self::Solution) -> String;
    fn parse_solution(&self, text: &str) -> Result<Self::Solution, PuzzleError>;
    /// The picture of the instance, with a candidate solution and its broken rules if given.
    fn draw(&self, solution: Option<&Self::Solution>) -> Drawing;
}

/// Any puzzle, as files (`{"kind": "sudoku", …}`), the CLI and the GUI hold it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum AnyPuzzle {
    Sudoku(Sudoku),
}

/// A candidate solution of any kind.
#[derive(Clone, Debug, PartialEq)]
pub enum AnySolution {
    Sudoku(SudokuSolution),
}

impl AnyPuzzle {
    pub fn kind(&self) -> Kind {
        match self {
            AnyPuzzle::Sudoku(p) => p.kind(),
        }
    }
    pub fn describe(&self) -> String {
        match self {
            AnyPuzzle::Sudoku(p) => p.describe(),
        }
    }
    pub fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
        match self {
            AnyPuzzle::Sudoku(p) => p.encode(options),
        }
    }
    pub fn decode(&self, encoding: &Encoding, sample: &[u8]) -> AnySolution {
        match self {
            AnyPuzzle::Sudoku(p) => AnySolution::Sudoku(p.decode(encoding, sample)),
        }
    }
    pub fn check(&self, solution: &AnySolution) -> Vec<Violation> {
        match (self, solution) {
            (AnyPuzzle::Sudoku(p), AnySolution::Sudoku(s)) => p.check(s),
        }
    }
    pub fn solve_classically(&self) -> Option<AnySolution> {
        match self {
            AnyPuzzle::Sudoku(p) => p.solve_classically().map(AnySolution::Sudoku),
        }
    }
    pub fn solution_to_string(&self, solution: &AnySolution) -> String {
        match (self, solution) {
            (AnyPuzzle::Sudoku(p), AnySolution::Sudoku(s)) => p.solution_to_string(s),
        }
    }
    pub fn parse_solution(&self, text: &str) -> Result<AnySolution, PuzzleError> {
        match self {
            AnyPuzzle::Sudoku(p) => p.parse_solution(text).map(AnySolution::Sudoku),
        }
    }
    pub fn draw(&self, solution: Option<&AnySolution>) -> Drawing {
        match (self, solution) {
            (AnyPuzzle::Sudoku(p), None) => p.draw(None),
            (AnyPuzzle::Sudoku(p), Some(AnySolution::Sudoku(s))) => p.draw(Some(s)),
        }
    }
    /// The puzzle in its kind's one-line text form (what `generate -o` writes).
    pub fn to_line(&self) -> String {
        match self {
            AnyPuzzle::Sudoku(p) => p.to_line(),
        }
    }
}

/// Parses puzzle text: our JSON (one object or an array), or the kind's line format with one
/// puzzle per line. `origin` names the source in messages (`FILE`, then `FILE:LINE`).
pub fn parse_puzzles(
    text: &str,
    kind: Option<Kind>,
    origin: &str,
) -> Result<Vec<AnyPuzzle>, PuzzleError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            PuzzleError::parse(
                format!("{origin}:{}", e.line()),
                format!("invalid JSON: {e}"),
            )
        })?;
        let items = match value {
            serde_json::Value::Array(items) => items,
            one => vec![one],
        };
        return items
            .into_iter()
            .enumerate()
            .map(|(k, v)| {
                let p: AnyPuzzle = serde_json::from_value(v).map_err(|e| {
                    PuzzleError::parse(format!("{origin}: puzzle {}", k + 1), e.to_string())
                })?;
                if let Some(want) = kind
                    && want != p.kind()
                {
                    return Err(PuzzleError::parse(
                        origin,
                        format!(
                            "puzzle {} is a {}, but --kind {want} was asked for",
                            k + 1,
                            p.kind()
                        ),
                    ));
                }
                Ok(p)
            })
            .collect();
    }
    match kind.unwrap_or(Kind::Sudoku) {
        Kind::Sudoku => Ok(sudoku::parse_lines(text, origin)?
            .into_iter()
            .map(AnyPuzzle::Sudoku)
            .collect()),
        other => Err(PuzzleError::KindNotAvailable(other)),
    }
}

/// Reads a puzzle file (see `parse_puzzles`).
pub fn load_puzzles(path: &Path, kind: Option<Kind>) -> Result<Vec<AnyPuzzle>, PuzzleError> {
    let origin = path.display().to_string();
    let text = crate::io::read_text_limited(path, MAX_PUZZLE_FILE_BYTES)
        .map_err(|e| PuzzleError::parse(&origin, e))?;
    let puzzles = parse_puzzles(&text, kind, &origin)?;
    if puzzles.is_empty() {
        return Err(PuzzleError::parse(&origin, "no puzzle found in the file"));
    }
    Ok(puzzles)
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
    fn kinds_not_built_yet_say_so() {
        let e = parse_puzzles("1 2\n", Some(Kind::Numberlink), "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "puzzle kind 'numberlink' is not available yet in this build (available: sudoku)"
        );
    }

    #[test]
    fn json_puzzles_carry_their_kind() {
        let p = &parse_puzzles(&"1".repeat(0), None, "x").unwrap_or_default();
        assert!(p.is_empty());
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let one = parse_puzzles(line, None, "x").unwrap();
        let json = serde_json::to_string(&one[0]).unwrap();
        assert!(json.starts_with(r#"{"kind":"sudoku""#), "{json}");
        let back = parse_puzzles(&json, None, "x").unwrap();
        assert_eq!(back, one);
        let e = parse_puzzles(&json, Some(Kind::Minesweeper), "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a sudoku"), "{e}");
    }
}
