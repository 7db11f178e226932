//! Numberlink (Arukone, Flow Free): a W×H grid with pairs of numbered endpoints; a solution
//! joins each pair by one path through orthogonally adjacent cells, paths never share a cell.
//! Two rules: *fill* (every cell on a path and no path touching itself: Nikoli, Janko, Flow
//! Free) and *no-fill* (cells may stay empty, paths may touch themselves: the ADC contest).
//!
//! Forms read as they are:
//! - Ahle's (and ours): `W H` then H rows of W characters, `.` empty, any other character an
//!   endpoint label appearing exactly twice; `#` comments, blank lines between puzzles, `0 0`
//!   ends the input; ours may start with `rule no-fill`, and writes rows of space-separated
//!   names (`.` empty) when a name is longer than one character;
//! - Zucker's Flow Free files: rows of characters, no header, letters are colours;
//! - the SAT study's `.in`: rows of space-separated integers, 0 empty;
//! - ADC 2018: `SIZE XxYx1`, `LINE_NUM n`, `LINE#k (x,y,z) (x,y,z)` (single-layer only).
//!
//! Invariant: `endpoints.len() == width · height`; every label 1..=pairs appears exactly twice.

pub mod check;
pub mod difficulty;
pub mod draw;
mod edit;
pub mod encode;
pub mod generate;
mod json;
pub mod presolve;
pub mod repair;
pub mod sat;
pub mod solve;
mod text;
pub use text::parse;
use text::parse_located;

use serde::{Deserialize, Serialize};

use crate::params::{ParamSpec, ParamValues};
use crate::puzzle::GenerateControl;
use crate::puzzle::{
    DesignFacts, EncodeOptions, Formulation, Kind, Located, ParseHints, Puzzle, PuzzleError,
    Reference, SolutionCount, Violation,
};
use crate::qubo::{Encoding, Label};
use crate::render::Drawing;
pub use check::NumberlinkSolution;

/// Largest side accepted.
pub const MAX_SIDE: usize = 128;

/// Whether every cell must be on a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Every cell is covered (Nikoli, Janko, Flow Free), and a path never runs alongside
    /// itself: two cells of one path side by side are consecutive on it. That is the convention
    /// under which these puzzles have their one answer (Ahle's and Zucker's solvers use it: a
    /// non-endpoint cell has exactly two neighbours of its colour); without it most of them have
    /// several.
    Fill,
    /// Cells may stay empty (ADC).
    NoFill,
}

/// A Numberlink instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "json::NumberlinkFile", into = "json::NumberlinkFile")]
pub struct Numberlink {
    width: usize,
    height: usize,
    /// Per cell: 0 empty, k the k-th pair's endpoint (1-based).
    endpoints: Vec<u16>,
    /// The pairs' names as the file wrote them (`A`, `7`, …), index k − 1.
    names: Vec<String>,
    rule: Rule,
    /// Per pair (k − 1): its two endpoint cells in reading order (derived from `endpoints`).
    pair_ends: Vec<[usize; 2]>,
}

impl Numberlink {
    /// An instance from per-cell labels (any names; each must appear exactly twice).
    pub fn new(
        width: usize,
        height: usize,
        cells: &[Option<String>],
        rule: Rule,
    ) -> Result<Self, PuzzleError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(PuzzleError::Invalid(format!(
                "a {width}×{height} grid: each side must be 1 to {MAX_SIDE}"
            )));
        }
        if cells.len() != width * height {
            return Err(PuzzleError::Invalid(format!(
                "a {width}×{height} grid needs {} cells, not {}",
                width * height,
                cells.len()
            )));
        }
        let mut names: Vec<String> = Vec::new();
        let mut count: Vec<usize> = Vec::new();
        let mut endpoints = vec![0u16; cells.len()];
        for (k, c) in cells.iter().enumerate() {
            let Some(name) = c else { continue };
            let id = match names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    if names.len() >= u16::MAX as usize - 1 {
                        return Err(PuzzleError::Invalid("too many pairs".into()));
                    }
                    names.push(name.clone());
                    count.push(0);
                    names.len() - 1
                }
            };
            count[id] += 1;
            endpoints[k] = id as u16 + 1;
        }
        if let Some(i) = count.iter().position(|&n| n != 2) {
            return Err(PuzzleError::Invalid(format!(
                "label '{}' appears {} time(s); every label marks exactly two endpoints",
                names[i], count[i]
            )));
        }
        // Number pairs in reading order of their first endpoint, as the files do.
        let mut pair_ends = vec![[usize::MAX; 2]; names.len()];
        for (i, &k) in endpoints.iter().enumerate() {
            if k != 0 {
                let e = &mut pair_ends[k as usize - 1];
                let slot = usize::from(e[0] != usize::MAX);
                e[slot] = i;
            }
        }
        Ok(Numberlink {
            width,
            height,
            endpoints,
            names,
            rule,
            pair_ends,
        })
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Pairs to join.
    pub fn num_pairs(&self) -> usize {
        self.names.len()
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Pair k's name (k 1-based).
    pub fn name(&self, k: u16) -> &str {
        &self.names[k as usize - 1]
    }

    /// Per cell: 0, or the pair whose endpoint it is.
    pub fn endpoints(&self) -> &[u16] {
        &self.endpoints
    }

    /// Pair k's two endpoint cells (k 1-based).
    pub fn ends(&self, k: u16) -> [usize; 2] {
        self.pair_ends
            .get((k as usize).wrapping_sub(1))
            .copied()
            .unwrap_or([0, 0])
    }

    /// The up to 4 orthogonal neighbours of cell i.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, c) = (i / self.width, i % self.width);
        [
            (r > 0).then(|| i - self.width),
            (c + 1 < self.width).then(|| i + 1),
            (r + 1 < self.height).then(|| i + self.width),
            (c > 0).then(|| i - 1),
        ]
        .into_iter()
        .flatten()
    }

    /// "row R, column C", 1-based.
    pub fn place(&self, i: usize) -> String {
        format!("row {}, column {}", i / self.width + 1, i % self.width + 1)
    }

    /// Pair k's number as the solution grid writes it: the name when every name is a
    /// positive integer, else k (pairs in reading order of their first endpoint).
    pub fn number(&self, k: u16) -> u64 {
        let numeric: Option<Vec<u64>> = self
            .names
            .iter()
            .map(|n| n.parse::<u64>().ok().filter(|&v| v > 0))
            .collect();
        match numeric {
            Some(v) if k >= 1 && (k as usize) <= v.len() => v[k as usize - 1],
            _ => k as u64,
        }
    }

    /// Per cell, the endpoint name or `None`.
    fn cells(&self) -> Vec<Option<String>> {
        self.endpoints
            .iter()
            .map(|&k| (k != 0).then(|| self.names[k as usize - 1].clone()))
            .collect()
    }

    /// The solution grid: per cell the number of the path through it (0 = none).
    pub fn solution_grid(&self, s: &NumberlinkSolution) -> Vec<Vec<u64>> {
        let labels = s.cell_labels(self);
        labels
            .chunks(self.width)
            .map(|row| {
                row.iter()
                    .map(|&k| if k == 0 { 0 } else { self.number(k) })
                    .collect()
            })
            .collect()
    }

    /// The edges of a solution given as a grid of pair numbers: each pair's cells joined
    /// along the one path through all of them from end to end (found by a small search),
    /// or, when there is none, every adjacent pair of its cells (the referee then objects).
    pub fn solution_from_grid(&self, grid: &[Vec<u64>]) -> Result<NumberlinkSolution, PuzzleError> {
        if grid.len() != self.height || grid.iter().any(|r| r.len() != self.width) {
            return Err(PuzzleError::Invalid(format!(
                "a solution grid is {} rows of {} numbers",
                self.height, self.width
            )));
        }
        let n = self.width * self.height;
        let mut label = vec![0u16; n];
        for (i, &v) in grid.iter().flatten().enumerate() {
            if v == 0 {
                continue;
            }
            let k = (1..=self.num_pairs() as u16)
                .find(|&k| self.number(k) == v)
                .ok_or_else(|| {
                    PuzzleError::Invalid(format!("{}: no pair numbered {v}", self.place(i)))
                })?;
            label[i] = k;
        }
        let mut s = NumberlinkSolution::empty(n);
        for k in 1..=self.num_pairs() as u16 {
            let cells: Vec<usize> = (0..n).filter(|&i| label[i] == k).collect();
            match self.path_through(k, &label, cells.len()) {
                Some(path) => {
                    for w in path.windows(2) {
                        s.set(self, w[0], w[1], k);
                    }
                }
                None => {
                    for &i in &cells {
                        for j in self.neighbours(i).filter(|&j| j > i && label[j] == k) {
                            s.set(self, i, j, k);
                        }
                    }
                }
            }
        }
        Ok(s)
    }

    /// A path from pair k's first end to its second through exactly the `len` cells
    /// labelled k (depth-first, at most 100 000 steps).
    fn path_through(&self, k: u16, label: &[u16], len: usize) -> Option<Vec<usize>> {
        let [a, b] = self.ends(k);
        let mut walk = Walk {
            p: self,
            k,
            label,
            len,
            target: b,
            path: vec![a],
            used: vec![false; label.len()],
            steps: 0,
        };
        walk.used[a] = true;
        walk.go().then_some(walk.path)
    }
}

/// `Numberlink::path_through`'s depth-first search.
struct Walk<'a> {
    p: &'a Numberlink,
    k: u16,
    label: &'a [u16],
    len: usize,
    target: usize,
    path: Vec<usize>,
    used: Vec<bool>,
    steps: u32,
}

impl Walk<'_> {
    fn go(&mut self) -> bool {
        self.steps += 1;
        let at = *self.path.last().unwrap_or(&self.target);
        if at == self.target {
            return self.path.len() == self.len;
        }
        if self.steps > 100_000 {
            return false;
        }
        let next: Vec<usize> = self
            .p
            .neighbours(at)
            .filter(|&j| self.label[j] == self.k && !self.used[j])
            .collect();
        for j in next {
            self.used[j] = true;
            self.path.push(j);
            if self.go() {
                return true;
            }
            self.path.pop();
            self.used[j] = false;
        }
        false
    }
}

impl Puzzle for Numberlink {
    type Solution = NumberlinkSolution;
    const KIND: Kind = Kind::Numberlink;
    const GENERATES_UNIQUE: bool = true;
    // The deductions (cases within cases) decide every Janko puzzle up to 10×10 in under a
    // second, while annealing the full model fails from 7×7 on: default settings must solve.
    const PRESOLVE_BY_DEFAULT: bool = true;

    fn parse_text(
        text: &str,
        origin: &str,
        _hints: &ParseHints,
    ) -> Result<Vec<Located<Self>>, PuzzleError> {
        parse_located(text, origin)
    }

    fn looks_like(text: &str) -> bool {
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        let Some(first) = lines.next() else {
            return false;
        };
        // ADC's `SIZE 10X10` (edge matching's `size 4 4` has no `X`), or our rule line.
        let adc_size = first
            .strip_prefix("SIZE")
            .is_some_and(|rest| rest.trim_start().contains(['X', 'x']));
        if adc_size || first.starts_with("rule ") {
            return true;
        }
        // Zucker's letters: equal rows of letters and dots, each letter exactly twice.
        let rows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let width = rows[0].chars().count();
        if rows.len() >= 2
            && rows.iter().all(|r| r.chars().count() == width)
            && rows
                .iter()
                .all(|r| r.chars().all(|c| c == '.' || c.is_ascii_alphabetic()))
        {
            let mut count = std::collections::HashMap::new();
            for c in rows.iter().flat_map(|r| r.chars()).filter(|&c| c != '.') {
                *count.entry(c).or_insert(0) += 1;
            }
            return !count.is_empty() && count.values().all(|&n| n == 2);
        }
        // `W H` then a row of W cells with at least one letter or digit and a `.`.
        let t: Vec<usize> = first
            .split_whitespace()
            .filter_map(|v| v.parse().ok())
            .collect();
        let Some(second) = lines.next() else {
            return false;
        };
        t.len() == 2
            && first.split_whitespace().count() == 2
            && second.chars().filter(|c| !c.is_whitespace()).count() >= t[0].min(1)
            && (second.chars().count() == t[0] || second.split_whitespace().count() == t[0])
            && second.contains('.')
            && !second.contains('#')
    }

    fn to_text(&self) -> String {
        let spaced = self.names.iter().any(|n| n.chars().count() != 1);
        let mut s = String::new();
        if self.rule == Rule::NoFill {
            s.push_str("rule no-fill\n");
        }
        s.push_str(&format!("{} {}\n", self.width, self.height));
        for row in self.cells().chunks(self.width) {
            let cells: Vec<&str> = row.iter().map(|c| c.as_deref().unwrap_or(".")).collect();
            s.push_str(&cells.join(if spaced { " " } else { "" }));
            s.push('\n');
        }
        s
    }

    fn describe(&self) -> String {
        format!(
            "{}×{} Numberlink, {} pair{}, {}",
            self.width,
            self.height,
            self.num_pairs(),
            if self.num_pairs() == 1 { "" } else { "s" },
            match self.rule {
                Rule::Fill => "every cell on a path",
                Rule::NoFill => "cells may stay empty",
            }
        )
    }

    fn presets() -> Vec<(String, Self)> {
        [(5, 5), (7, 7), (10, 10)]
            .into_iter()
            .filter_map(|(w, h)| {
                let blank = Numberlink::new(w, h, &vec![None; w * h], Rule::Fill).ok()?;
                Some((format!("Numberlink {w}×{h} (blank)"), blank))
            })
            .collect()
    }

    fn generator_params() -> &'static [ParamSpec] {
        generate::PARAMS
    }

    fn generate(params: &ParamValues, control: &GenerateControl) -> Result<Self, PuzzleError> {
        generate::from_params(params, control)
    }

    fn default_sweep_weight() -> &'static str {
        "endpoint"
    }

    fn conflicts(&self) -> Vec<Violation> {
        // Two pairs' endpoints next to each other are fine; what cannot work is a pair whose
        // endpoint is walled in by other endpoints.
        let mut out = Vec::new();
        // Under fill every cell must lie on a path: with no pairs there is none to lie on.
        if self.rule == Rule::Fill && self.num_pairs() == 0 && !self.endpoints.is_empty() {
            out.push(Violation {
                constraint: "fill".into(),
                detail: format!(
                    "every cell must lie on a path, but the {}×{} grid has no pairs",
                    self.width, self.height
                ),
            });
        }
        for i in 0..self.endpoints.len() {
            let k = self.endpoints[i];
            if k == 0 {
                continue;
            }
            let other = self.ends(k).into_iter().find(|&j| j != i).unwrap_or(i);
            let free = self
                .neighbours(i)
                .any(|j| self.endpoints[j] == 0 || j == other);
            if !free {
                out.push(Violation {
                    constraint: format!("cell[{}][{}]", i / self.width, i % self.width),
                    detail: format!(
                        "{}: endpoint {} is walled in by other endpoints",
                        self.place(i),
                        self.name(k)
                    ),
                });
            }
        }
        out
    }

    fn design_facts(&self, node_budget: u64) -> DesignFacts<NumberlinkSolution> {
        let conflicts = self.conflicts();
        let found = solve::reference(self, 2, node_budget);
        let solutions = match (found.solutions.len(), found.gave_up) {
            (0, None) => SolutionCount::Zero,
            (1, None) => SolutionCount::One,
            (n, _) if n >= 2 => SolutionCount::AtLeastTwo,
            (_, spent) => SolutionCount::Unknown {
                spent: spent.unwrap_or(crate::puzzle::Spent::Nodes(0)),
            },
        };
        let mut solutions_found = found.solutions.into_iter();
        let mut facts = vec![
            (
                "grid".into(),
                format!("{}×{}", self.width, self.height).into(),
            ),
            ("pairs".into(), self.num_pairs().into()),
        ];
        facts.push(found.how);
        // The depth of deduction a person (or presolve) needs, for a unique instance.
        if matches!(solutions, SolutionCount::One) {
            facts.push((
                "difficulty".into(),
                difficulty::deduction_band(self).name().into(),
            ));
        }
        DesignFacts {
            solutions,
            conflicts,
            facts,
            solution: solutions_found.next(),
            second_solution: solutions_found.next(),
            probabilities: None,
        }
    }

    fn formulations() -> &'static [Formulation] {
        encode::FORMULATIONS
    }

    fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
        encode::encode(self, options)
    }

    fn agreement(
        &self,
        candidate: &NumberlinkSolution,
        solution: &NumberlinkSolution,
    ) -> Option<crate::puzzle::Agreement> {
        let n = self.width() * self.height();
        let fits = |s: &NumberlinkSolution| s.right.len() == n && s.down.len() == n;
        if !fits(candidate) || !fits(solution) {
            return None;
        }
        let (seen, known) = (candidate.cell_labels(self), solution.cell_labels(self));
        // The cells between the endpoints (an endpoint agrees by itself) on the same path.
        // Under no-fill only the cells either one routes through: on a sparse board, cells
        // empty in both would otherwise make any read look close.
        let routed = |i: usize| self.rule() == Rule::Fill || seen[i] != 0 || known[i] != 0;
        let open: Vec<usize> = (0..n)
            .filter(|&i| self.endpoints()[i] == 0 && routed(i))
            .collect();
        let same = open.iter().filter(|&&i| seen[i] == known[i]).count();
        Some(crate::puzzle::Agreement {
            same,
            of: open.len(),
        })
    }

    fn decode(&self, encoding: &Encoding, sample: &[u8]) -> NumberlinkSolution {
        encode::decode(self, encoding, sample)
    }

    fn solution_sample(
        &self,
        encoding: &Encoding,
        solution: &NumberlinkSolution,
    ) -> Option<Vec<u8>> {
        encode::sample_of(self, encoding, solution)
    }

    fn cuts(&self, solution: &NumberlinkSolution) -> Vec<Vec<Label>> {
        check::cycles(self, solution)
            .into_iter()
            .map(|(k, cells)| {
                let mut ring = cells.clone();
                ring.push(cells[0]);
                ring.windows(2)
                    .map(|w| {
                        let (a, b) = (w[0].min(w[1]), w[0].max(w[1]));
                        encode::edge_label(self, a, b == a + self.width, k)
                    })
                    .collect()
            })
            .collect()
    }

    fn repair(
        &self,
        solution: &NumberlinkSolution,
    ) -> Option<crate::puzzle::Repaired<NumberlinkSolution>> {
        repair::repair(self, solution)
    }

    fn check(&self, solution: &NumberlinkSolution) -> Vec<Violation> {
        check::check(self, solution)
    }

    fn unfinished(&self, violation: &Violation) -> bool {
        check::is_unfinished(violation)
    }

    fn solve_classically(&self, node_budget: u64) -> Reference<NumberlinkSolution> {
        let found = solve::reference(self, 1, node_budget);
        match (found.solutions.into_iter().next(), found.gave_up) {
            (Some(s), _) => Reference::Solved(s),
            (None, Some(spent)) => Reference::GaveUp { spent },
            (None, None) => Reference::NoSolution,
        }
    }

    fn solution_to_string(&self, solution: &NumberlinkSolution) -> String {
        self.solution_grid(solution)
            .iter()
            .map(|row| row.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join(" / ")
    }

    fn solution_to_json(&self, solution: &NumberlinkSolution) -> serde_json::Value {
        serde_json::json!(self.solution_grid(solution))
    }

    fn parse_solution(&self, text: &str) -> Result<NumberlinkSolution, PuzzleError> {
        let text = text.trim();
        let grid: Vec<Vec<u64>> = if text.starts_with("SIZE") {
            // An ADC answer: `SIZE XxYx1`, `LAYER 1`, rows of comma-separated line numbers.
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("SIZE") && !l.starts_with("LAYER"))
                .map(|r| {
                    r.split(',')
                        .map(|v| {
                            v.trim().parse().map_err(|_| {
                                PuzzleError::Invalid(format!(
                                    "'{v}' in an ADC answer: expected a line number (00 = unused)"
                                ))
                            })
                        })
                        .collect()
                })
                .collect::<Result<_, _>>()?
        } else if text.starts_with('[') {
            serde_json::from_str(text).map_err(|e| {
                PuzzleError::Invalid(format!(
                    "a solution in JSON is H rows of W numbers: {}",
                    crate::io::plain_serde_message(&e.to_string())
                ))
            })?
        } else {
            text.split(['/', '\n'])
                .filter(|r| !r.trim().is_empty())
                .map(|r| {
                    r.split_whitespace()
                        .map(|v| {
                            v.parse().map_err(|_| {
                                PuzzleError::Invalid(format!(
                                    "'{v}' in a solution: expected a pair's number (0 = empty)"
                                ))
                            })
                        })
                        .collect()
                })
                .collect::<Result<_, _>>()?
        };
        self.solution_from_grid(&grid)
    }

    fn draw(&self, solution: Option<&NumberlinkSolution>) -> Drawing {
        draw::draw(self, solution)
    }
}

#[cfg(test)]
mod tests;
