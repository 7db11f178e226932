//! Sudoku: n²×n² digit grids (4×4, 9×9, 16×16) with boxes of n×n.
//!
//! Text form: one puzzle per line, row-major, `.` or `0` blank, symbols `1-9` then `A-G`
//! (A = 10 … G = 16). Files may have CRLF line ends, a header line, and a trailing
//! `,solution` field (as in the 16×16 CSV of the corpus).

mod check;
mod draw;
mod encode;
mod generate;
pub mod grade;
mod solve;
mod text;
pub use text::parse_lines;

use serde::{Deserialize, Serialize};

use super::{
    DesignFacts, EncodeOptions, Kind, Located, ParseHints, Puzzle, PuzzleError, Reference,
    SolutionCount, Violation,
};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::puzzle::GenerateControl;
use crate::qubo::Encoding;
use crate::render::Drawing;
pub use check::{Cell, SudokuSolution};
pub use draw::MARGIN as DRAW_MARGIN;
pub use encode::{DEFAULT_HINT_WEIGHT, HARNESS_HINT_WEIGHT};
pub use generate::generate;
pub use solve::count_solutions;

/// Box sizes supported: 2 (4×4), 3 (9×9), 4 (16×16).
pub const BOX_SIZES: [usize; 3] = [2, 3, 4];

/// A Sudoku instance: `cells[side·r + c]` is the given digit (1..=side) or 0 for blank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SudokuFile", into = "SudokuFile")]
pub struct Sudoku {
    box_size: usize,
    cells: Vec<u8>,
}

/// The JSON shape: `{"kind": "sudoku", "size": 9, "grid": "003020600…"}`.
#[derive(Serialize, Deserialize)]
struct SudokuFile {
    size: usize,
    grid: String,
}

impl TryFrom<SudokuFile> for Sudoku {
    type Error = PuzzleError;
    fn try_from(f: SudokuFile) -> Result<Self, Self::Error> {
        let s = Sudoku::from_line(&f.grid)?;
        if s.side() != f.size {
            return Err(PuzzleError::Invalid(format!(
                "size is {}, but the grid has {} cells",
                f.size,
                f.grid.len()
            )));
        }
        Ok(s)
    }
}

impl From<Sudoku> for SudokuFile {
    fn from(s: Sudoku) -> Self {
        SudokuFile {
            size: s.side(),
            grid: s.to_line(),
        }
    }
}

/// The symbol for a digit 1..=16 (`.` for 0).
pub fn symbol(d: u8) -> char {
    match d {
        0 => '.',
        1..=9 => (b'0' + d) as char,
        _ => (b'A' + d - 10) as char,
    }
}

/// The digit for a symbol (0 for blank), or `None` for a character that is not a symbol.
fn digit_of(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='G' => Some(c as u8 - b'A' + 10),
        'a'..='g' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

impl Sudoku {
    /// An empty grid with boxes of `box_size`×`box_size`.
    pub fn empty(box_size: usize) -> Result<Self, PuzzleError> {
        if !BOX_SIZES.contains(&box_size) {
            return Err(PuzzleError::Invalid(format!(
                "Sudoku size {} is not supported (4, 9 or 16)",
                box_size * box_size
            )));
        }
        let side = box_size * box_size;
        Ok(Sudoku {
            box_size,
            cells: vec![0; side * side],
        })
    }

    /// Parses one puzzle line (whitespace inside the line is ignored).
    pub fn from_line(line: &str) -> Result<Self, PuzzleError> {
        let symbols: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        let box_size = match symbols.len() {
            16 => 2,
            81 => 3,
            256 => 4,
            k => {
                return Err(PuzzleError::Invalid(format!(
                    "a Sudoku line has 16, 81 or 256 cells (4×4, 9×9, 16×16); this one has {k}"
                )));
            }
        };
        let side = box_size * box_size;
        let mut cells = Vec::with_capacity(symbols.len());
        for (k, &c) in symbols.iter().enumerate() {
            let d = digit_of(c)
                .filter(|&d| d as usize <= side)
                .ok_or_else(|| {
                    PuzzleError::Invalid(format!(
                        "cell {} (row {}, column {}) has '{c}', which is not a {side}×{side} Sudoku symbol",
                        k + 1,
                        k / side + 1,
                        k % side + 1
                    ))
                })?;
            cells.push(d);
        }
        Ok(Sudoku { box_size, cells })
    }

    /// Box side (2, 3 or 4).
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Digits per row (4, 9 or 16).
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The given digit at (r, c), 0 when blank.
    pub fn given(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.side() + c]
    }

    /// Sets or clears (0) a given; digits above the side are refused.
    pub fn set_given(&mut self, r: usize, c: usize, digit: u8) -> Result<(), PuzzleError> {
        let side = self.side();
        if r >= side || c >= side || digit as usize > side {
            return Err(PuzzleError::Invalid(format!(
                "cannot put {digit} at row {r}, column {c} of a {side}×{side} Sudoku"
            )));
        }
        self.cells[r * side + c] = digit;
        Ok(())
    }

    /// How many cells hold a given.
    pub fn num_givens(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    /// Givens row-major (0 = blank).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Box index (row-major) of cell (r, c).
    pub fn box_of(&self, r: usize, c: usize) -> usize {
        (r / self.box_size) * self.box_size + c / self.box_size
    }

    /// The one-line form (`.` for blanks).
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&d| symbol(d)).collect()
    }
}

/// Generator parameters: side, number of givens, seed.
const GENERATOR_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "size",
        ty: ParamType::IntSet(&[4, 9, 16]),
        default: ParamDefault::Int(9),
        help: "side of the grid: 4, 9 or 16",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "givens",
        ty: ParamType::Int { min: 0, max: 256 },
        default: ParamDefault::Auto("by size: 6 for 4×4, 28 for 9×9, 120 for 16×16"),
        help: "number of givens (the solution stays unique); with a difficulty band, the \
               fewest givens the band's digging may leave",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "difficulty",
        ty: ParamType::Choice(&["any", "easy", "medium", "hard", "expert"]),
        default: ParamDefault::Word("any"),
        help: "a band for people (unique solution always): easy: singles solve it; medium: \
               locked candidates needed; hard: pairs or triples needed; expert: those stall, \
               search needed",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(ParamDefault::Int(1), "the same seed gives the same puzzle"),
];

/// The givens a generated puzzle of `size` keeps when none are asked for: a default that fits
/// every size (28 of a 4×4's 16 cells was refused, and a 16×16 with 28 could not be made).
pub fn default_givens(size: usize) -> usize {
    match size {
        4 => 6,
        16 => 120,
        _ => 28,
    }
}

/// Reads a validated whole-number parameter.
fn int_param(values: &ParamValues, name: &str) -> u64 {
    values.get(name).and_then(|v| v.as_u64()).unwrap_or(0)
}

impl Puzzle for Sudoku {
    type Solution = SudokuSolution;
    const KIND: Kind = Kind::Sudoku;
    const GENERATES_UNIQUE: bool = true;

    fn parse_text(
        text: &str,
        origin: &str,
        _hints: &ParseHints,
    ) -> Result<Vec<Located<Self>>, PuzzleError> {
        parse_lines(text, origin)
    }

    fn looks_like(text: &str) -> bool {
        // The first content line (before any `,solution` field) is a grid of 16, 81 or 256
        // symbols; a CSV header line may come first.
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(2)
            .any(|l| Sudoku::from_line(l.split(',').next().unwrap_or("")).is_ok())
    }

    fn to_text(&self) -> String {
        self.to_line()
    }

    fn describe(&self) -> String {
        format!(
            "{0}×{0} Sudoku, {1}",
            self.side(),
            crate::io::count(self.num_givens(), "given")
        )
    }

    fn presets() -> Vec<(String, Self)> {
        BOX_SIZES
            .iter()
            .filter_map(|&b| Sudoku::empty(b).ok())
            .map(|p| (format!("Sudoku {0}×{0}", p.side()), p))
            .collect()
    }

    fn generator_params() -> &'static [ParamSpec] {
        GENERATOR_PARAMS
    }

    fn generate(params: &ParamValues, control: &GenerateControl) -> Result<Self, PuzzleError> {
        let size = int_param(params, "size") as usize;
        let givens = match params.get("givens").and_then(|v| v.as_u64()) {
            Some(g) => g as usize,
            None => default_givens(size),
        };
        let seed = int_param(params, "seed");
        match params
            .get("difficulty")
            .and_then(|v| v.as_str())
            .and_then(grade::Band::parse)
        {
            Some(band) => generate::generate_band(size, band, givens, seed, control),
            None => generate(size, givens, seed),
        }
    }

    fn default_sweep_weight() -> &'static str {
        "hint"
    }

    fn conflicts(&self) -> Vec<Violation> {
        check::given_conflicts(self)
    }

    fn design_facts(&self, node_budget: u64) -> DesignFacts<SudokuSolution> {
        let conflicts = self.conflicts();
        let side = self.side();
        let band = (conflicts.is_empty() && side <= 16).then(|| grade::grade(self).band);
        let mut nodes = None;
        let (solutions, first, second_solution) = if !conflicts.is_empty() {
            (SolutionCount::Zero, None, None)
        } else {
            let found = solve::search(self, 2, node_budget);
            nodes = Some(found.nodes);
            let count = match (found.solutions.len(), found.gave_up) {
                (2.., _) => SolutionCount::AtLeastTwo,
                (_, true) => SolutionCount::Unknown {
                    spent: crate::puzzle::Spent::Nodes(found.nodes),
                },
                (1, false) => SolutionCount::One,
                _ => SolutionCount::Zero,
            };
            let [first, second] = [0, 1].map(|k| {
                found
                    .solutions
                    .get(k)
                    .map(|g| SudokuSolution::from_digits(side, g))
            });
            (count, first, second)
        };
        DesignFacts {
            solutions,
            conflicts,
            facts: [
                ("size".into(), format!("{side}×{side}").into()),
                ("givens".into(), self.num_givens().into()),
            ]
            .into_iter()
            // The classical difficulty: what proving the solution count cost, and the band
            // for people (the techniques needed).
            .chain(nodes.map(|n| ("search nodes".to_string(), n.into())))
            .chain(band.map(|b| ("difficulty".to_string(), b.name().into())))
            .collect(),
            solution: first,
            second_solution,
            probabilities: None,
        }
    }

    fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
        Ok(encode::encode(self, options))
    }

    fn agreement(
        &self,
        candidate: &SudokuSolution,
        solution: &SudokuSolution,
    ) -> Option<crate::puzzle::Agreement> {
        let side = self.side();
        if candidate.side() != side || solution.side() != side {
            return None;
        }
        // The cells the puzzle leaves open: a kept given agrees by itself.
        let open: Vec<(usize, usize)> = (0..side * side)
            .map(|k| (k / side, k % side))
            .filter(|&(r, c)| self.given(r, c) == 0)
            .collect();
        let same = open
            .iter()
            .filter(|&&(r, c)| {
                candidate.digit(r, c).is_some() && candidate.digit(r, c) == solution.digit(r, c)
            })
            .count();
        Some(crate::puzzle::Agreement {
            same,
            of: open.len(),
        })
    }

    fn decode(&self, encoding: &Encoding, sample: &[u8]) -> SudokuSolution {
        encode::decode(self, encoding, sample)
    }

    fn solution_sample(&self, encoding: &Encoding, solution: &SudokuSolution) -> Option<Vec<u8>> {
        encode::sample_of(self, encoding, solution)
    }

    fn check(&self, solution: &SudokuSolution) -> Vec<Violation> {
        check::check(self, solution).violations
    }

    fn unfinished(&self, violation: &Violation) -> bool {
        // An empty cell is a digit still to write; two digits in a unit are a conflict.
        violation.detail == check::EMPTY
    }

    fn solve_classically(&self, node_budget: u64) -> Reference<SudokuSolution> {
        let found = solve::search(self, 1, node_budget);
        match (found.solutions.first(), found.gave_up) {
            (Some(g), _) => Reference::Solved(SudokuSolution::from_digits(self.side(), g)),
            (None, true) => Reference::GaveUp {
                spent: crate::puzzle::Spent::Nodes(found.nodes),
            },
            (None, false) => Reference::NoSolution,
        }
    }

    fn solution_to_string(&self, solution: &SudokuSolution) -> String {
        solution.to_line()
    }

    fn solution_to_json(&self, solution: &SudokuSolution) -> serde_json::Value {
        solution.to_line().into()
    }

    fn parse_solution(&self, text: &str) -> Result<SudokuSolution, PuzzleError> {
        let text = text.trim();
        // The JSON form is the one-line string in quotes.
        let line = match serde_json::from_str::<String>(text) {
            Ok(s) if text.starts_with('"') => s,
            _ => text.to_string(),
        };
        // A line of another size is said as such before its symbols are read at that size
        // (16 cells of a 9×9 answer would otherwise meet "8 is not a 4×4 symbol").
        let cells = line.chars().filter(|c| !c.is_whitespace()).count();
        let want = self.side() * self.side();
        if cells != want && [16, 81, 256].contains(&cells) {
            return Err(PuzzleError::parse(
                "solution",
                format!(
                    "it has {cells} cells, but the puzzle is {0}×{0}: a solution has {want}",
                    self.side()
                ),
            ));
        }
        let grid = Sudoku::from_line(&line).map_err(|e| {
            PuzzleError::parse(
                "solution",
                match e {
                    PuzzleError::Invalid(m) => m,
                    other => other.to_string(),
                },
            )
        })?;
        if grid.side() != self.side() {
            return Err(PuzzleError::parse(
                "solution",
                format!(
                    "it is {0}×{0}, but the puzzle is {1}×{1}",
                    grid.side(),
                    self.side()
                ),
            ));
        }
        Ok(SudokuSolution::from_digits(self.side(), &grid.cells))
    }

    fn draw(&self, solution: Option<&SudokuSolution>) -> Drawing {
        draw::draw(self, solution, false)
    }

    fn draw_styled(
        &self,
        solution: Option<&SudokuSolution>,
        _probabilities: Option<&crate::puzzle::CellProbabilities>,
        style: &crate::puzzle::picture::DrawStyle,
    ) -> Drawing {
        draw::draw(self, solution, style.answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_givens_follow_the_size() {
        // `generate sudoku --size 4` failed on its own default of 28 givens.
        let params = crate::params::validate(
            GENERATOR_PARAMS,
            &serde_json::json!({"size": 4})
                .as_object()
                .unwrap()
                .clone()
                .into_iter()
                .collect(),
        )
        .unwrap();
        let p = Sudoku::generate(&params, &GenerateControl::new()).unwrap();
        assert_eq!((p.side(), p.num_givens()), (4, default_givens(4)));
        assert!(default_givens(16) > 28 && default_givens(16) <= 256);
    }

    #[test]
    fn parses_lines_headers_crlf_and_solution_fields() {
        let text = "Sudoku,solution\r\n\
            1.3...2.4.......,1234341221434321\r\n\
            \r\n\
            0000000000000000\r\n";
        let ps = parse_lines(text, "f.csv").unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].line, Some(2));
        assert_eq!(ps[1].line, Some(4));
        assert_eq!(ps[0].puzzle.side(), 4);
        assert_eq!(ps[0].puzzle.num_givens(), 4);
        assert_eq!(ps[0].puzzle.to_line(), "1.3...2.4.......");
    }

    #[test]
    fn bad_lines_name_file_line_and_cell() {
        let e = parse_lines("1234\n", "p.txt").unwrap_err().to_string();
        assert_eq!(
            e,
            "p.txt:1: a Sudoku line has 16, 81 or 256 cells (4×4, 9×9, 16×16); this one has 4"
        );
        let mut line = ".".repeat(81);
        line.replace_range(10..11, "A");
        let e = parse_lines(&format!("{}\n{line}\n", ".".repeat(81)), "p.txt")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("p.txt:2: cell 11 (row 2, column 2) has 'A'"),
            "{e}"
        );
    }

    #[test]
    fn hexadoku_symbols_round_trip() {
        let mut line: String = (0..16).map(|d| symbol(d as u8 + 1)).collect();
        line.push_str(&"0".repeat(240));
        let s = Sudoku::from_line(&line).unwrap();
        assert_eq!(s.given(0, 15), 16);
        assert!(s.to_line().starts_with("123456789ABCDEFG...."));
    }
}
