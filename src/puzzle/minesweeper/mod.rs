//! Minesweeper: a W×H board with M mines; cells unopened, opened (showing 0–8) or flagged. The
//! question a position asks is "where are the mines likely to be": a *solution* here is one
//! mine configuration consistent with the opened numbers (the referee checks that), and the
//! kind's answer is the mine probability of every cell — exactly (`probability`: components,
//! boxes, log-space binomials) and from samples of the QUBO (`encode`: the seed's formulation).
//!
//! Text forms read as they are:
//! - ours: a `W H M` line, then H rows of W characters (`#` unopened, `0`–`8` or `.` opened,
//!   `*` flagged), then optionally a `layout` line and H rows of `.`/`*` (the true mines, for
//!   play and design);
//! - ADC contest packs: records `X Y M name` followed by Y rows of digits, 9 = mine (full
//!   layouts, opened at their largest 0-region to make a position);
//! - ADC 2025 sample boards: rows of space-separated hex pairs, `0F` = mine (full layouts);
//! - LewisGaul/minesolver positions: space-separated cells `#`, `.`, `N`, `*` (the total mine
//!   count comes from `--mines`).
//!
//! Invariant: `cells.len() == width · height`, a layout (when present) has the same length,
//! and opened numbers are 0–8.

mod check;
mod draw;
mod encode;
mod generate;
pub mod logic;
mod play;
pub mod probability;
mod solve;
mod text;

use text::{parse_all, parse_ours};

use serde::{Deserialize, Serialize};

use super::{
    CellProbabilities, DesignFacts, EncodeOptions, Kind, Located, ParseHints, Puzzle, PuzzleError,
    Reference, SolutionCount, Violation,
};
use crate::params::{ParamSpec, ParamValues};
use crate::puzzle::GenerateControl;
use crate::qubo::Encoding;
use crate::render::Drawing;
pub use check::MineSolution;
pub use draw::MARGIN as DRAW_MARGIN;
pub use generate::{NoGuessReport, generate, generate_no_guess};
pub use play::GameState;
pub use probability::{Probabilities, exact_probabilities};

/// Why design edits need a layout.
const NO_LAYOUT: &str = "this position has no mine layout (only its numbers): design needs one — \
                         generate a board, or open a file with a `layout` section";

/// Largest side accepted (a 256×256 board has 65 536 cells).
pub const MAX_SIDE: usize = 256;

/// An opened number's constraint on its unopened neighbours: exactly `need` mines among
/// `unknown` (the number minus its flagged neighbours).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The number's cell.
    pub cell: usize,
    /// Mines still needed among `unknown`.
    pub need: i64,
    /// Its unopened, unflagged neighbours (never empty).
    pub unknown: Vec<usize>,
}

/// What a player sees in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    /// Not opened yet.
    Unopened,
    /// Opened, showing how many of its neighbours are mines.
    Opened(u8),
    /// Flagged (a known mine).
    Flagged,
}

/// A Minesweeper position: what is open, what is flagged, the total mine count, and (in play
/// and design) the true layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "MinesweeperFile", into = "MinesweeperFile")]
pub struct Minesweeper {
    width: usize,
    height: usize,
    mines: usize,
    cells: Vec<Cell>,
    layout: Option<Vec<bool>>,
    /// The mine opened by mistake in play, if any.
    exploded: Option<usize>,
    /// A new game not dealt yet: the layout is drawn from this seed at the first click,
    /// away from the clicked cell, so the first click is always safe. Not saved.
    deal: Option<u64>,
}

/// The JSON shape: `{"kind": "minesweeper", "width": 9, "height": 9, "mines": 10,
/// "rows": ["#########", …], "layout": ["....*....", …]}` (`layout` optional).
#[derive(Serialize, Deserialize)]
struct MinesweeperFile {
    width: usize,
    height: usize,
    mines: usize,
    rows: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    layout: Option<Vec<String>>,
}

impl TryFrom<MinesweeperFile> for Minesweeper {
    type Error = PuzzleError;
    fn try_from(f: MinesweeperFile) -> Result<Self, Self::Error> {
        // Each JSON string is one row: a line break inside one would reshape the text form.
        let rows = f.rows.iter().enumerate().map(|(k, r)| ("rows", k, r));
        let layout_rows = f
            .layout
            .iter()
            .flatten()
            .enumerate()
            .map(|(k, r)| ("layout", k, r));
        if let Some((field, k, _)) = rows
            .chain(layout_rows)
            .find(|(_, _, r)| r.contains(['\n', '\r']))
        {
            return Err(PuzzleError::Invalid(format!(
                "{field}[{k}]: a row holds a line break; each string is one row"
            )));
        }
        if f.rows.len() != f.height {
            return Err(PuzzleError::Invalid(format!(
                "rows: {} strings for a height of {}",
                f.rows.len(),
                f.height
            )));
        }
        let mut text = format!(
            "{} {} {}\n{}\n",
            f.width,
            f.height,
            f.mines,
            f.rows.join("\n")
        );
        if let Some(layout) = f.layout {
            text.push_str(&format!("layout\n{}\n", layout.join("\n")));
        }
        parse_ours(&text, "JSON", &ParseHints::default()).map_err(|e| match e {
            PuzzleError::Parse { message, .. } => PuzzleError::Invalid(message),
            other => other,
        })
    }
}

impl From<Minesweeper> for MinesweeperFile {
    fn from(p: Minesweeper) -> Self {
        MinesweeperFile {
            width: p.width,
            height: p.height,
            mines: p.mines,
            rows: p.rows(),
            layout: p.layout_rows(),
        }
    }
}

/// The one check of a board's sides (checked before any row is read or allocated).
pub(super) fn check_sides(width: usize, height: usize) -> Result<(), String> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(format!(
            "a {width}×{height} board: each side must be 1 to {MAX_SIDE}"
        ));
    }
    Ok(())
}

impl Minesweeper {
    /// A position; checks the shape and the numbers (consistency is `conflicts`' job).
    pub fn new(
        width: usize,
        height: usize,
        mines: usize,
        cells: Vec<Cell>,
        layout: Option<Vec<bool>>,
    ) -> Result<Self, PuzzleError> {
        check_sides(width, height).map_err(PuzzleError::Invalid)?;
        let n = width * height;
        if cells.len() != n || layout.as_ref().is_some_and(|l| l.len() != n) {
            return Err(PuzzleError::Invalid(format!(
                "a {width}×{height} board needs {n} cells"
            )));
        }
        if mines > n {
            return Err(PuzzleError::Invalid(format!(
                "{mines} mines do not fit on {n} cells"
            )));
        }
        if let Some((k, _)) = cells
            .iter()
            .enumerate()
            .find(|(_, c)| matches!(c, Cell::Opened(v) if *v > 8))
        {
            return Err(PuzzleError::Invalid(format!(
                "row {}, column {}: a number above 8",
                k / width + 1,
                k % width + 1
            )));
        }
        if let Some(l) = &layout {
            let count = l.iter().filter(|&&m| m).count();
            if count != mines {
                return Err(PuzzleError::Invalid(format!(
                    "the layout has {count} mines, but the header says {mines}"
                )));
            }
        }
        Ok(Minesweeper {
            width,
            height,
            mines,
            cells,
            layout,
            exploded: None,
            deal: None,
        })
    }

    /// A new game whose mines are placed at the first click (away from it), from `seed`.
    pub fn undealt(
        width: usize,
        height: usize,
        mines: usize,
        seed: u64,
    ) -> Result<Self, PuzzleError> {
        let n = width * height;
        if mines == 0 || mines >= n {
            return Err(PuzzleError::Invalid(format!(
                "{mines} mines on {n} cells: at least 1 and at most {}",
                n.saturating_sub(1)
            )));
        }
        let mut p = Minesweeper::new(width, height, mines, vec![Cell::Unopened; n], None)?;
        p.deal = Some(seed);
        Ok(p)
    }

    /// Whether the mines are still to be placed at the first click.
    pub fn is_undealt(&self) -> bool {
        self.deal.is_some() && self.layout.is_none()
    }

    /// A fresh game on a known layout: nothing opened.
    pub fn with_layout(
        width: usize,
        height: usize,
        layout: Vec<bool>,
    ) -> Result<Self, PuzzleError> {
        let mines = layout.iter().filter(|&&m| m).count();
        Minesweeper::new(
            width,
            height,
            mines,
            vec![Cell::Unopened; width * height],
            Some(layout),
        )
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Total mines on the board.
    pub fn mines(&self) -> usize {
        self.mines
    }

    /// The cell at row r, column c.
    pub fn cell(&self, r: usize, c: usize) -> Cell {
        self.cells[self.index(r, c)]
    }

    /// Every cell, row-major.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The true layout, when known.
    pub fn layout(&self) -> Option<&[bool]> {
        self.layout.as_deref()
    }

    /// Row-major index of (r, c).
    pub fn index(&self, r: usize, c: usize) -> usize {
        r * self.width + c
    }

    /// The up to 8 neighbours of cell k.
    pub fn neighbours(&self, k: usize) -> Vec<usize> {
        let (r, c) = ((k / self.width) as isize, (k % self.width) as isize);
        let mut out = Vec::with_capacity(8);
        for dr in -1..=1isize {
            for dc in -1..=1isize {
                let (rr, cc) = (r + dr, c + dc);
                if (dr, dc) != (0, 0)
                    && rr >= 0
                    && cc >= 0
                    && (rr as usize) < self.height
                    && (cc as usize) < self.width
                {
                    out.push(rr as usize * self.width + cc as usize);
                }
            }
        }
        out
    }

    /// The constraint of every opened number that still has unopened neighbours, in reading
    /// order: what the encoder, the engine and the classical search all start from.
    pub fn hints(&self) -> Vec<Hint> {
        (0..self.cells.len())
            .filter_map(|k| {
                let Cell::Opened(v) = self.cells[k] else {
                    return None;
                };
                let around = self.neighbours(k);
                let flags = around
                    .iter()
                    .filter(|&&j| self.cells[j] == Cell::Flagged)
                    .count();
                let unknown: Vec<usize> = around
                    .into_iter()
                    .filter(|&j| self.cells[j] == Cell::Unopened)
                    .collect();
                (!unknown.is_empty()).then(|| Hint {
                    cell: k,
                    need: v as i64 - flags as i64,
                    unknown,
                })
            })
            .collect()
    }

    /// Per cell: unopened and next to an opened number (the cells the numbers constrain).
    pub fn frontier_mask(&self) -> Vec<bool> {
        (0..self.cells.len())
            .map(|k| {
                self.cells[k] == Cell::Unopened
                    && self
                        .neighbours(k)
                        .iter()
                        .any(|&j| matches!(self.cells[j], Cell::Opened(_)))
            })
            .collect()
    }

    /// Flags on the board.
    pub fn num_flags(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Flagged).count()
    }

    /// Opened cells.
    pub fn num_opened(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c, Cell::Opened(_)))
            .count()
    }

    /// The board as rows of `#`, `0`–`8`, `*`.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.width)
            .map(|row| {
                row.iter()
                    .map(|c| match c {
                        Cell::Unopened => '#',
                        Cell::Opened(v) => (b'0' + v) as char,
                        Cell::Flagged => '*',
                    })
                    .collect()
            })
            .collect()
    }

    fn layout_rows(&self) -> Option<Vec<String>> {
        self.layout.as_ref().map(|l| {
            l.chunks(self.width)
                .map(|row| row.iter().map(|&m| if m { '*' } else { '.' }).collect())
                .collect()
        })
    }

    /// "row R, column C" (1-based), for messages.
    pub fn place(&self, k: usize) -> String {
        format!("row {}, column {}", k / self.width + 1, k % self.width + 1)
    }

    /// Design: puts a mine at (r, c) or takes it away; the opened numbers follow the layout, and
    /// a cell that gets a mine closes. Needs a layout (generated boards and files with a
    /// `layout` section have one).
    pub fn toggle_mine(&mut self, r: usize, c: usize) -> Result<(), PuzzleError> {
        if r >= self.height || c >= self.width {
            return Ok(());
        }
        let k = self.index(r, c);
        let Some(layout) = self.layout.as_mut() else {
            return Err(PuzzleError::Invalid(NO_LAYOUT.into()));
        };
        layout[k] = !layout[k];
        self.mines = layout.iter().filter(|&&m| m).count();
        if layout[k] && matches!(self.cells[k], Cell::Opened(_)) {
            self.cells[k] = Cell::Unopened;
        }
        self.exploded = None;
        let layout = layout.clone();
        for j in 0..self.cells.len() {
            if let Cell::Opened(_) = self.cells[j] {
                let n = self.neighbours(j).iter().filter(|&&i| layout[i]).count() as u8;
                self.cells[j] = Cell::Opened(n);
            }
        }
        Ok(())
    }

    /// Design: opens (r, c) showing its number from the layout (no flood), or closes an opened
    /// cell; a mine's cell does not open.
    pub fn toggle_open(&mut self, r: usize, c: usize) -> Result<(), PuzzleError> {
        if r >= self.height || c >= self.width {
            return Ok(());
        }
        let k = self.index(r, c);
        let Some(layout) = self.layout.clone() else {
            return Err(PuzzleError::Invalid(NO_LAYOUT.into()));
        };
        self.cells[k] = match self.cells[k] {
            Cell::Opened(_) => Cell::Unopened,
            _ if layout[k] => {
                return Err(PuzzleError::Invalid(format!(
                    "{}: a mine cannot be opened (take the mine away first)",
                    self.place(k)
                )));
            }
            _ => Cell::Opened(self.neighbours(k).iter().filter(|&&i| layout[i]).count() as u8),
        };
        Ok(())
    }

    /// Sets what a cell shows (design mode): opening needs no layout here, the number is
    /// given. Out-of-range cells and numbers above 8 are ignored.
    pub fn set_cell(&mut self, r: usize, c: usize, cell: Cell) {
        if r < self.height && c < self.width && !matches!(cell, Cell::Opened(v) if v > 8) {
            let k = self.index(r, c);
            self.cells[k] = cell;
        }
    }
}

/// Reads every record of `text` in whichever of the forms it is (see the module header).
impl Minesweeper {
    /// The position after a first click on the 0 that opens the most cells (the first such in
    /// reading order); unchanged when the layout has no 0.
    fn opened_at_largest_zero(self) -> Minesweeper {
        let Some(layout) = self.layout.clone() else {
            return self;
        };
        let mut best: Option<(usize, Minesweeper)> = None;
        let mut seen = vec![false; layout.len()];
        for k in 0..layout.len() {
            if seen[k] || layout[k] || self.neighbours(k).iter().any(|&j| layout[j]) {
                continue;
            }
            let mut trial = self.clone();
            let opened = trial
                .open(k / self.width, k % self.width)
                .unwrap_or_default();
            for &j in &opened {
                seen[j] = true;
            }
            if best.as_ref().is_none_or(|(n, _)| opened.len() > *n) {
                best = Some((opened.len(), trial));
            }
        }
        best.map_or(self, |(_, p)| p)
    }
}

const GENERATOR_PARAMS: &[ParamSpec] = generate::PARAMS;

impl Puzzle for Minesweeper {
    type Solution = MineSolution;
    const KIND: Kind = Kind::Minesweeper;
    const GENERATES_UNIQUE: bool = false;
    const HAS_PROBABILITIES: bool = true;
    const PROBABILITY_NODE_BUDGET: u64 = probability::ENGINE_NODE_BUDGET;
    const HINTS: &'static [crate::puzzle::Hint] = &[crate::puzzle::Hint::Mines];

    fn parse_text(
        text: &str,
        origin: &str,
        hints: &ParseHints,
    ) -> Result<Vec<Located<Self>>, PuzzleError> {
        parse_all(text, origin, hints)
    }

    fn looks_like(text: &str) -> bool {
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .skip_while(|l| text::is_comment(l));
        let (Some(first), Some(second)) = (lines.next(), lines.next()) else {
            return false;
        };
        let t: Vec<&str> = first.split_whitespace().collect();
        // Digits of any length: an over-long count is this kind's to refuse.
        let header = (t.len() == 3 || t.len() == 4)
            && t[..3]
                .iter()
                .all(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
        let board_row = |l: &str| l.chars().all(|c| matches!(c, '#' | '*' | '.' | '0'..='9'));
        let spaced_row = |l: &str| {
            l.split_whitespace()
                .all(|t| matches!(t, "#" | "." | "*") || t.parse::<u8>().is_ok_and(|v| v <= 8))
                && l.contains('#')
        };
        // ADC 2025 boards: hex pairs 00–08 and 0F.
        let hex_row = |l: &str| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.len() > 1
                && t.iter().all(|v| {
                    v.len() == 2 && v.starts_with('0') && u8::from_str_radix(v, 16).is_ok()
                })
        };
        (header && board_row(second))
            || (spaced_row(first) && spaced_row(second))
            || (hex_row(first) && hex_row(second))
    }

    fn to_text(&self) -> String {
        let mut s = format!(
            "{} {} {}\n{}",
            self.width,
            self.height,
            self.mines,
            self.rows().join("\n")
        );
        if let Some(rows) = self.layout_rows() {
            s.push_str(&format!("\nlayout\n{}", rows.join("\n")));
        }
        s
    }

    fn describe(&self) -> String {
        format!(
            "{}×{} Minesweeper, {} mine{}, {} opened, {} flagged{}",
            self.width,
            self.height,
            self.mines,
            if self.mines == 1 { "" } else { "s" },
            self.num_opened(),
            self.num_flags(),
            if self.layout.is_some() {
                " (layout known)"
            } else {
                ""
            }
        )
    }

    fn presets() -> Vec<(String, Self)> {
        [
            ("beginner", 9, 9, 10),
            ("intermediate", 16, 16, 40),
            ("expert", 30, 16, 99),
        ]
        .into_iter()
        .filter_map(|(name, w, h, m)| {
            let p = generate::generate(w, h, m, 1).ok()?;
            Some((format!("Minesweeper {name} {w}×{h}, {m} mines"), p))
        })
        .collect()
    }

    fn generator_params() -> &'static [ParamSpec] {
        GENERATOR_PARAMS
    }

    fn generate(params: &ParamValues, control: &GenerateControl) -> Result<Self, PuzzleError> {
        generate::from_params(params, control)
    }

    fn default_sweep_weight() -> &'static str {
        "hint"
    }

    fn conflicts(&self) -> Vec<Violation> {
        check::conflicts(self)
    }

    fn design_facts(&self, node_budget: u64) -> DesignFacts<MineSolution> {
        solve::design_facts(self, node_budget)
    }

    fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
        Ok(encode::encode(self, options))
    }

    fn decode(&self, encoding: &Encoding, sample: &[u8]) -> MineSolution {
        encode::decode(self, encoding, sample)
    }

    fn solution_sample(&self, encoding: &Encoding, solution: &MineSolution) -> Option<Vec<u8>> {
        encode::sample_of(self, encoding, solution)
    }

    fn check(&self, solution: &MineSolution) -> Vec<Violation> {
        check::check(self, solution)
    }

    fn exact_probabilities(
        &self,
        node_budget: u64,
    ) -> Option<Result<CellProbabilities, PuzzleError>> {
        Some(exact_probabilities(self, node_budget).map(|p| p.cells()))
    }

    fn sampled_probabilities(
        &self,
        candidates: &[(&MineSolution, u64)],
    ) -> Option<CellProbabilities> {
        Some(probability::sampled(self, candidates))
    }

    fn draw_probabilities(
        &self,
        solution: Option<&MineSolution>,
        probabilities: &CellProbabilities,
    ) -> Drawing {
        let fits = probabilities.p.len() == self.width * self.height;
        draw::draw(self, solution, fits.then_some(&probabilities.p[..]))
    }

    fn solve_classically(&self, node_budget: u64) -> Reference<MineSolution> {
        solve::first_configuration(self, node_budget)
    }

    fn solution_to_string(&self, solution: &MineSolution) -> String {
        solution.to_line(self)
    }

    fn solution_to_json(&self, solution: &MineSolution) -> serde_json::Value {
        solution.to_json(self)
    }

    fn parse_solution(&self, text: &str) -> Result<MineSolution, PuzzleError> {
        MineSolution::parse(self, text)
    }

    fn draw(&self, solution: Option<&MineSolution>) -> Drawing {
        draw::draw(self, solution, None)
    }

    fn draw_styled(
        &self,
        solution: Option<&MineSolution>,
        probabilities: Option<&CellProbabilities>,
        style: &crate::puzzle::picture::DrawStyle,
    ) -> Drawing {
        match (solution, probabilities) {
            (Some(s), _) if style.answer => draw::draw_answer(self, s),
            (_, Some(pr)) => self.draw_probabilities(solution, pr),
            _ => self.draw(solution),
        }
    }
}

/// The solution count of design facts from a number of consistent configurations.
fn count_of(configurations: f64) -> SolutionCount {
    if configurations <= 0.0 {
        SolutionCount::Zero
    } else if configurations < 1.5 {
        SolutionCount::One
    } else {
        SolutionCount::AtLeastTwo
    }
}
