//! Constrained models brought from notebooks — dimod CQM files, LP files, our JSON — as a kind
//! beside the puzzles, so everything the workbench knows about penalty weights serves them:
//! a weight per constraint family with sliders, sweeps, *Suggest weights*, per-constraint
//! reports, compare runs. Valid means feasible, checked on the model itself (never on the
//! penalty); the objective is reported apart from the penalties.
//!
//! Files: `model.rs` (the model, feasibility), `lp/` (LP text, read and written), `qplib.rs`
//! (QPLIB text, read),
//! `cqm_file.rs` (dimod's CQM file), `encode.rs` (the penalty formulations), `solve.rs` (exact
//! branch and bound), `generate.rs` (knapsack, colouring, travelling salesman), `draw.rs`.

pub mod cqm_file;
pub mod draw;
mod encode;
mod generate;
pub mod lp;
pub mod model;
pub mod qplib;
mod solve;
#[cfg(test)]
mod tests;

pub use model::{ConstrainedModel, Constraint, Direction, Expr, Sense, VarType, Variable};
pub use solve::{Search, search};

use super::*;
use crate::params::{ParamSpec, ParamValues};
use crate::qubo::{Encoding, Weights};

/// An assignment of the model's variables: one bit each (a spin's value is 2b − 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstrainedSolution {
    /// One bit per variable, in the model's order.
    pub bits: Vec<u8>,
}

impl ConstrainedModel {
    /// The reader for a file's bytes: a dimod CQM file, else LP text or our JSON.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<ConstrainedModel, PuzzleError> {
        if cqm_file::looks_like(bytes) {
            return cqm_file::parse(bytes, origin);
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            PuzzleError::parse(origin, format!("not text (byte {})", e.valid_up_to()))
        })?;
        Self::from_text(text, origin)
    }

    /// The reader for a text file: QPLIB when it opens as one, else LP.
    fn from_text(text: &str, origin: &str) -> Result<ConstrainedModel, PuzzleError> {
        if qplib::looks_like(text) {
            qplib::parse(text, origin)
        } else {
            lp::parse(text, origin)
        }
    }

    /// `label = value` for each violated required constraint, as the referee says it.
    fn violation_text(&self, k: usize, bits: &[u8]) -> Violation {
        let c = &self.constraints[k];
        let lhs = c.lhs.value(&self.variables, bits);
        let num = crate::io::number_text;
        let (op, by) = match c.sense {
            Sense::Le => ("≤", lhs - c.rhs),
            Sense::Ge => ("≥", c.rhs - lhs),
            Sense::Eq => ("=", (lhs - c.rhs).abs()),
        };
        Violation {
            constraint: c.label.clone(),
            detail: format!(
                "{} {op} {} does not hold: the left side is {} (off by {})",
                c.label,
                num(c.rhs),
                num(lhs),
                num(by)
            ),
        }
    }
}

impl Puzzle for ConstrainedModel {
    type Solution = ConstrainedSolution;
    const KIND: Kind = Kind::Constrained;
    const GENERATES_UNIQUE: bool = false;

    fn parse_text(
        text: &str,
        origin: &str,
        _hints: &ParseHints,
    ) -> Result<Vec<Located<Self>>, PuzzleError> {
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        let mut model = Self::from_text(text, origin)?;
        if model.name.is_empty() {
            model.name = std::path::Path::new(origin)
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default();
        }
        Ok(vec![Located {
            line: None,
            puzzle: model,
        }])
    }

    fn looks_like(text: &str) -> bool {
        lp::looks_like(text) || qplib::looks_like(text)
    }

    fn to_text(&self) -> String {
        // LP where it says everything; else our JSON (spins, soft constraints, own weights).
        lp::write(self).unwrap_or_else(|| {
            let mut v = serde_json::to_value(self).unwrap_or_default();
            if let Some(o) = v.as_object_mut() {
                o.insert("kind".into(), Kind::Constrained.name().into());
            }
            serde_json::to_string(&v).unwrap_or_default()
        })
    }

    fn describe(&self) -> String {
        let families = self.families();
        let direction = match self.direction {
            Direction::Minimize => "minimise",
            Direction::Maximize => "maximise",
        };
        let named = if self.name.is_empty() {
            String::new()
        } else {
            format!("{}: ", self.name)
        };
        format!(
            "{named}{}, {} in {} ({}), {direction}",
            crate::io::count(self.variables.len(), "variable"),
            crate::io::count(self.constraints.len(), "constraint"),
            match families.len() {
                1 => "1 family".to_string(),
                k => format!("{k} families"),
            },
            families
                .iter()
                .take(4)
                .map(|(f, _)| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    fn presets() -> Vec<(String, Self)> {
        [
            ("Knapsack, 12 items", "knapsack", 12),
            ("Graph colouring, 8 nodes", "colouring", 8),
            ("Travelling salesman, 5 cities", "tsp", 5),
            ("Quadratic assignment, 5 facilities", "qap", 5),
        ]
        .into_iter()
        .filter_map(|(name, problem, size)| {
            let mut values = ParamValues::new();
            values.insert("problem".into(), problem.into());
            values.insert("size".into(), size.into());
            generate::generate(&values)
                .ok()
                .map(|m| (name.to_string(), m))
        })
        .collect()
    }

    fn generator_params() -> &'static [ParamSpec] {
        generate::PARAMS
    }

    fn generate(params: &ParamValues, _control: &GenerateControl) -> Result<Self, PuzzleError> {
        generate::generate(params)
    }

    fn default_sweep_weight() -> &'static str {
        // Families are the model's own: the sweep panel falls back to the first one.
        "constraint"
    }

    fn conflicts(&self) -> Vec<Violation> {
        // A required constraint no assignment satisfies, judged by its left side's bounds.
        self.constraints
            .iter()
            .filter(|c| c.is_hard() && !c.lhs.is_quadratic())
            .filter_map(|c| {
                let (lo, hi) = c.lhs.bounds(&self.variables);
                let tol = model::FEASIBILITY_TOLERANCE;
                let never = match c.sense {
                    Sense::Le => lo > c.rhs + tol,
                    Sense::Ge => hi < c.rhs - tol,
                    Sense::Eq => lo > c.rhs + tol || hi < c.rhs - tol,
                };
                never.then(|| Violation {
                    constraint: c.label.clone(),
                    detail: format!(
                        "{} {} {} can never hold: its left side ranges over [{}, {}]",
                        c.label,
                        c.sense.symbol(),
                        crate::io::number_text(c.rhs),
                        crate::io::number_text(lo),
                        crate::io::number_text(hi)
                    ),
                })
            })
            .collect()
    }

    fn design_facts(&self, node_budget: u64) -> DesignFacts<ConstrainedSolution> {
        let conflicts = self.conflicts();
        let found = if conflicts.is_empty() {
            Some(search(self, node_budget))
        } else {
            None
        };
        let solutions = match &found {
            None => SolutionCount::Zero,
            Some(f) => match (&f.best, &f.tie, f.gave_up) {
                (_, Some(_), _) => SolutionCount::AtLeastTwo,
                (_, _, true) => SolutionCount::Unknown {
                    spent: Spent::Nodes(f.nodes),
                },
                (Some(_), None, false) => SolutionCount::One,
                (None, _, false) => SolutionCount::Zero,
            },
        };
        let mut facts: Vec<(String, serde_json::Value)> = vec![
            ("variables".into(), self.variables.len().into()),
            ("constraints".into(), self.constraints.len().into()),
            (
                "families".into(),
                self.families()
                    .iter()
                    .map(|(f, n)| format!("{f} ({n})"))
                    .collect::<Vec<_>>()
                    .join(", ")
                    .into(),
            ),
        ];
        if let Some(f) = &found {
            if let Some((_, value)) = &f.best {
                let what = if f.gave_up { "best found" } else { "optimum" };
                // Whole numbers print as such (132, not 132.0).
                let v: serde_json::Value = if value.fract() == 0.0 && value.abs() < 9e15 {
                    (*value as i64).into()
                } else {
                    (*value).into()
                };
                facts.push((what.into(), v));
            }
            facts.push(("search nodes".into(), f.nodes.into()));
        }
        let (solution, second) = match found {
            Some(f) => (
                f.best.map(|(bits, _)| ConstrainedSolution { bits }),
                f.tie.map(|bits| ConstrainedSolution { bits }),
            ),
            None => (None, None),
        };
        DesignFacts {
            solutions,
            conflicts,
            facts,
            solution,
            second_solution: second,
            probabilities: None,
        }
    }

    fn formulations() -> &'static [Formulation] {
        encode::FORMULATIONS
    }

    fn encode(&self, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
        encode::encode(self, options)
    }

    fn decode(&self, _encoding: &Encoding, sample: &[u8]) -> ConstrainedSolution {
        ConstrainedSolution {
            bits: encode::decode(self, sample),
        }
    }

    fn solution_sample(
        &self,
        encoding: &Encoding,
        solution: &ConstrainedSolution,
    ) -> Option<Vec<u8>> {
        encode::sample_of(self, encoding.num_variables(), &solution.bits)
    }

    fn ideal_energy(&self, _encoding: &Encoding, _weights: &Weights) -> Option<f64> {
        // The objective's optimum is not known from the model alone.
        None
    }

    fn check(&self, solution: &ConstrainedSolution) -> Vec<Violation> {
        if solution.bits.len() != self.variables.len() {
            return vec![Violation {
                constraint: "assignment".into(),
                detail: format!(
                    "{} values for {} variables",
                    solution.bits.len(),
                    self.variables.len()
                ),
            }];
        }
        self.violations(&solution.bits)
            .into_iter()
            .map(|(k, _)| self.violation_text(k, &solution.bits))
            .collect()
    }

    fn objective(&self, solution: &ConstrainedSolution) -> Option<ObjectiveValue> {
        (solution.bits.len() == self.variables.len()).then(|| ObjectiveValue {
            value: self.objective_value(&solution.bits),
            maximize: self.direction == Direction::Maximize,
        })
    }

    fn constraint_labels(&self) -> Vec<String> {
        self.constraints.iter().map(|c| c.label.clone()).collect()
    }

    /// As dimod's `is_satisfied`: every constraint, soft ones included, within the
    /// feasibility tolerance.
    fn satisfied(&self, solution: &ConstrainedSolution) -> Vec<bool> {
        if solution.bits.len() != self.variables.len() {
            return Vec::new();
        }
        self.constraints
            .iter()
            .map(|c| c.violation(&self.variables, &solution.bits) <= model::FEASIBILITY_TOLERANCE)
            .collect()
    }

    fn solve_classically(&self, node_budget: u64) -> Reference<ConstrainedSolution> {
        if !self.conflicts().is_empty() {
            return Reference::NoSolution;
        }
        // Only a finished search is the reference: its objective is the optimum that runs are
        // measured against ("reached by N %"); a best found before the budget ran out is not
        // (a dense 2 000-variable model's reads all "reached" a budget-limited −79 while
        // finding −103 977). The design facts still show what it found.
        let found = search(self, node_budget);
        match (found.best, found.gave_up) {
            (_, true) => Reference::GaveUp {
                spent: Spent::Nodes(found.nodes),
            },
            (Some((bits, _)), false) => Reference::Solved(ConstrainedSolution { bits }),
            (None, false) => Reference::NoSolution,
        }
    }

    fn solution_to_string(&self, solution: &ConstrainedSolution) -> String {
        solution
            .bits
            .iter()
            .map(|&b| if b != 0 { '1' } else { '0' })
            .collect()
    }

    fn solution_to_json(&self, solution: &ConstrainedSolution) -> serde_json::Value {
        let map: serde_json::Map<String, serde_json::Value> = self
            .variables
            .iter()
            .zip(&solution.bits)
            .map(|(v, &b)| {
                let value = model::value_of(v.vartype, b);
                (v.label.clone(), serde_json::Value::from(value as i64))
            })
            .collect();
        serde_json::Value::Object(map)
    }

    fn parse_solution(&self, text: &str) -> Result<ConstrainedSolution, PuzzleError> {
        let t = text.trim();
        let n = self.variables.len();
        if t.starts_with('{') {
            let v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(t)
                .map_err(|e| PuzzleError::Invalid(format!("the assignment is not JSON: {e}")))?;
            let mut bits = vec![0u8; n];
            let mut seen = 0;
            for (label, value) in v {
                let i = self.index_of(&label).ok_or_else(|| {
                    PuzzleError::Invalid(format!("the model has no variable '{label}'"))
                })?;
                let x = value.as_f64().unwrap_or(f64::NAN);
                bits[i] = match (self.variables[i].vartype, x) {
                    (VarType::Binary, 0.0) | (VarType::Spin, -1.0) => 0,
                    (VarType::Binary, 1.0) | (VarType::Spin, 1.0) => 1,
                    _ => {
                        return Err(PuzzleError::Invalid(format!(
                            "'{label}' = {value}: not a value of a {} variable",
                            match self.variables[i].vartype {
                                VarType::Binary => "binary",
                                VarType::Spin => "spin",
                            }
                        )));
                    }
                };
                seen += 1;
            }
            if seen != n {
                return Err(PuzzleError::Invalid(format!(
                    "the assignment gives {seen} of the {n} variables"
                )));
            }
            return Ok(ConstrainedSolution { bits });
        }
        let bits: Vec<u8> = t
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '0' => Ok(0),
                '1' => Ok(1),
                other => Err(PuzzleError::Invalid(format!(
                    "'{other}' in an assignment of bits (0 and 1, one per variable)"
                ))),
            })
            .collect::<Result<_, _>>()?;
        if bits.len() != n {
            return Err(PuzzleError::Invalid(format!(
                "{} bits for {n} variables",
                bits.len()
            )));
        }
        Ok(ConstrainedSolution { bits })
    }

    fn draw(&self, solution: Option<&ConstrainedSolution>) -> Drawing {
        draw::draw(self, solution.map(|s| s.bits.as_slice()))
    }
}
