//! `Encoding`: a QUBO built from labelled constraint groups, each scaled by a named weight
//! (PyQUBO's Placeholder + Constraint idea without a symbolic compiler).
//!
//! An encoder adds groups once; `qubo(&weights)` then rebuilds the matrix in one linear pass over
//! a precompiled table of (matrix entry → weight → coefficient), so a GUI slider can drag a weight.
//! The groups stay available for per-constraint reports and for the inspector's question
//! "which constraints made this matrix entry?".

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::QuboError;
use super::model::{Coupling, Qubo};

mod builder;
mod compile;
mod fix;
mod report;
mod structure;
#[cfg(test)]
mod tests;

pub use builder::{EncodingBuilder, slack_weights};
pub use compile::MAX_STORED_PAIRS;

/// A structured variable label such as `x[3][4][6]`: a name and 0-based indices.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Label {
    /// The variable family, e.g. `x`.
    pub name: String,
    /// 0-based indices, e.g. row, column, digit.
    pub index: Vec<u32>,
}

impl Label {
    /// A label from a name and its indices.
    pub fn new(name: &str, index: &[u32]) -> Self {
        Label {
            name: name.to_string(),
            index: index.to_vec(),
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for k in &self.index {
            write!(f, "[{k}]")?;
        }
        Ok(())
    }
}

impl FromStr for Label {
    type Err = String;
    /// Parses `name[i][j]…`; a label without brackets is a bare name.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, mut rest) = match s.find('[') {
            Some(p) => (&s[..p], &s[p..]),
            None => (s, ""),
        };
        let mut index = Vec::new();
        while !rest.is_empty() {
            let close = rest
                .find(']')
                .filter(|_| rest.starts_with('['))
                .ok_or_else(|| format!("label '{s}' is not of the form name[i][j]…"))?;
            let k = rest[1..close]
                .parse::<u32>()
                .map_err(|_| format!("label '{s}' has a non-numeric index"))?;
            index.push(k);
            rest = &rest[close + 1..];
        }
        Ok(Label {
            name: name.to_string(),
            index,
        })
    }
}

/// A named penalty weight with its default and the range a slider should offer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightSpec {
    /// The name encoders and users refer to it by (`--weight NAME=VALUE`, the GUI's sliders).
    pub name: String,
    /// The value used when none is set.
    pub default: f64,
    /// Lowest value a slider offers (values outside are still accepted).
    pub min: f64,
    /// Highest value a slider offers.
    pub max: f64,
    /// What the weight penalises or rewards, for tooltips and `describe`.
    pub help: String,
}

/// A relation among weights that a guarantee of the encoding rests on: Σ coefficient × weight
/// ≥ 0 (> 0 when strict). The encoder declares it (`EncodingBuilder::condition`); every run's
/// warnings and the window's weight sliders say when the weights in use break it
/// (`Encoding::unmet_conditions`), since the model then still samples but no longer means what
/// its encoder promised (a trap below the answer, a ground state that is not a solution).
#[derive(Clone, Debug, PartialEq)]
pub struct WeightCondition {
    terms: Vec<(WeightIdx, f64)>,
    strict: bool,
    /// The relation in words: "hint > cell + row + col + box".
    relation: String,
    /// What is lost while it fails.
    otherwise: String,
}

/// A `WeightCondition` the weights in use break, with both sides' values.
#[derive(Clone, Debug, PartialEq)]
pub struct UnmetCondition {
    /// The relation in words: "hint > cell + row + col + box".
    pub relation: String,
    /// The values of its left and right sides.
    pub sides: (f64, f64),
    /// What is lost while it fails.
    pub otherwise: String,
}

impl UnmetCondition {
    /// The relation and its values alone (the window's line; the rest is its hover text).
    pub fn short(&self) -> String {
        format!(
            "{} does not hold ({} against {})",
            self.relation,
            crate::io::number_text(self.sides.0),
            crate::io::number_text(self.sides.1)
        )
    }
}

impl fmt::Display for UnmetCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.short(), self.otherwise)
    }
}

/// Weight values by name. Names not set take the encoding's defaults.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Weights(BTreeMap<String, f64>);

impl Weights {
    /// No weights set: every weight takes its default.
    pub fn new() -> Self {
        Weights::default()
    }

    /// Sets a weight; NaN and infinities are refused.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), QuboError> {
        if !value.is_finite() {
            return Err(QuboError::NonFinite {
                what: format!("weight '{name}'"),
                value,
            });
        }
        self.0.insert(name.to_string(), value);
        Ok(())
    }

    /// `set`, for chaining.
    pub fn with(mut self, name: &str, value: f64) -> Result<Self, QuboError> {
        self.set(name, value)?;
        Ok(self)
    }

    /// The value set for `name`, if any (not its default).
    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.get(name).copied()
    }

    /// The weights set, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }

    /// `name=value` for each weight, for messages (numbers as `io::number_text` prints them).
    pub fn describe(&self) -> String {
        self.iter()
            .map(|(name, v)| format!("{name}={}", crate::io::number_text(v)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Index of a constraint group in its encoding.
pub type GroupId = usize;
type WeightIdx = u16;

/// One labelled constraint group: an unweighted energy function of a few variables.
#[derive(Clone, Debug)]
struct Group {
    label: String,
    weight: WeightIdx,
    constant: f64,
    linear: Vec<(u32, f64)>,
    quadratic: Vec<(u32, u32, f64)>,
    /// A square kept factored, added to the terms above: a group of m variables stores m
    /// terms, not m²/2 pairs (the pairs are spelled out only when the model is stored).
    square: Option<SquareTerms>,
    /// The group's unweighted energy when it holds (its minimum).
    satisfied: f64,
    /// What the group is: a constraint (held at its minimum), an inequality that holds on a
    /// side rather than at a minimum, or part of an objective (never "broken").
    role: Role,
}

/// What a group stands for, so reports know when it holds.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Role {
    /// Holds at its minimum energy (`satisfied`).
    AtMinimum,
    /// Holds when Σ cᵢxᵢ ≤ bound (an inequality priced without slack: its energy varies
    /// among the assignments that satisfy it).
    AtMost {
        /// (variable, coefficient).
        terms: Vec<(u32, f64)>,
        /// The bound.
        bound: f64,
    },
    /// An objective's terms: reported by the model's own objective, never held or broken.
    Objective,
}

/// factor · (Σ cᵢxᵢ − target)² over distinct variables.
#[derive(Clone, Debug)]
struct SquareTerms {
    factor: f64,
    target: f64,
    terms: Vec<(u32, f64)>,
}

impl SquareTerms {
    fn sum(&self, x: &[u8]) -> f64 {
        self.terms
            .iter()
            .filter(|t| x[t.0 as usize] != 0)
            .map(|t| t.1)
            .sum()
    }

    /// Pairs it spells out.
    fn num_pairs(&self) -> u64 {
        let m = self.terms.len() as u64;
        m * m.saturating_sub(1) / 2
    }
}

impl Group {
    /// The resolution of this group's (unweighted) energy.
    fn tolerance(&self) -> f64 {
        let square = self.square.as_ref().map_or(0.0, |sq| {
            let reach = sq.target.abs() + sq.terms.iter().map(|t| t.1.abs()).sum::<f64>();
            sq.factor.abs() * reach * reach
        });
        let scale = self.constant.abs()
            + self.linear.iter().map(|t| t.1.abs()).sum::<f64>()
            + self.quadratic.iter().map(|t| t.2.abs()).sum::<f64>()
            + square;
        super::energy_tolerance(scale)
    }

    /// Whether the group holds in `x`, whose energy is `e` (objective groups always do).
    fn holds(&self, x: &[u8], e: f64) -> bool {
        match &self.role {
            Role::AtMinimum => crate::qubo::energy_matches(e, self.satisfied, self.tolerance()),
            Role::AtMost { terms, bound } => {
                let sum: f64 = terms
                    .iter()
                    .filter(|t| x[t.0 as usize] != 0)
                    .map(|t| t.1)
                    .sum();
                let scale = bound.abs() + terms.iter().map(|t| t.1.abs()).sum::<f64>();
                sum <= bound + super::energy_tolerance(scale)
            }
            Role::Objective => true,
        }
    }

    fn energy(&self, x: &[u8]) -> f64 {
        let mut e = self.constant;
        for &(i, c) in &self.linear {
            if x[i as usize] != 0 {
                e += c;
            }
        }
        for &(i, j, c) in &self.quadratic {
            if x[i as usize] != 0 && x[j as usize] != 0 {
                e += c;
            }
        }
        if let Some(sq) = &self.square {
            let d = sq.sum(x) - sq.target;
            e += sq.factor * d * d;
        }
        e
    }

    /// Pairs the group spells out when stored.
    fn num_pairs(&self) -> u64 {
        self.quadratic.len() as u64 + self.square.as_ref().map_or(0, SquareTerms::num_pairs)
    }

    /// Every variable its terms touch (with repeats).
    fn variables(&self) -> impl Iterator<Item = u32> + '_ {
        self.linear
            .iter()
            .map(|t| t.0)
            .chain(self.quadratic.iter().flat_map(|t| [t.0, t.1]))
            .chain(
                self.square
                    .iter()
                    .flat_map(|sq| sq.terms.iter().map(|t| t.0)),
            )
    }
}

/// A constraint group's state in one sample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConstraintReport {
    /// The group's index.
    pub group: GroupId,
    /// The group's label, e.g. `row[0] digit 3`.
    pub constraint: String,
    /// The name of the weight that scales it.
    pub weight: String,
    /// Weighted energy of the group in the sample.
    pub energy: f64,
    /// Weighted energy the group has when it holds.
    pub satisfied_energy: f64,
    /// Whether the group is at its minimum (within `qubo::energy_tolerance` of its scale).
    pub holds: bool,
    /// Whether its weight enforces it: a group of weight 0 adds nothing to the energy, so a
    /// sample that violates it is "not enforced", never "broken".
    pub enforced: bool,
}

/// One constraint group's share of a matrix entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Contribution {
    /// The group's index.
    pub group: GroupId,
    /// The group's label.
    pub constraint: String,
    /// The name of the weight that scales it.
    pub weight: String,
    /// Coefficient before weighting.
    pub coefficient: f64,
    /// Coefficient × the weight's value.
    pub value: f64,
}

/// A labelled, re-weightable QUBO.
#[derive(Clone, Debug)]
pub struct Encoding {
    labels: Vec<Label>,
    specs: Vec<WeightSpec>,
    groups: Vec<Group>,
    /// Variables removed by presolve, with the values they were fixed to.
    fixed: Vec<(Label, bool)>,
    // Compiled re-weighting table: per variable and per coupling, a short list of
    // (weight, summed coefficient) in CSR layout.
    lin_start: Vec<u32>,
    lin_terms: Vec<(WeightIdx, f64)>,
    pairs: Vec<(u32, u32)>,
    pair_start: Vec<u32>,
    pair_terms: Vec<(WeightIdx, f64)>,
    const_by_weight: Vec<f64>,
    // Which groups touch each variable (for reports and the inspector's hover).
    var_groups_start: Vec<u32>,
    var_groups: Vec<u32>,
    /// Why the terms are not stored (`build_unstored`), if so.
    unstored: Option<String>,
    /// Terms per weight (by weight index), counted at compile (`terms_per_weight`).
    term_counts: Vec<usize>,
    /// Relations among the weights the encoder's guarantees rest on.
    conditions: Vec<WeightCondition>,
}

impl Encoding {
    /// Why this encoding stores no terms (a model sampled only through its structure).
    pub fn unstored(&self) -> Option<&str> {
        self.unstored.as_deref()
    }

    /// Number of variables (after presolve).
    pub fn num_variables(&self) -> usize {
        self.labels.len()
    }

    /// Number of distinct coupled pairs in the structure (before weighting); for a model too
    /// large to store, the pairs its groups spell out (repeats counted).
    pub fn num_pairs(&self) -> usize {
        if self.unstored.is_some() {
            return self.groups.iter().map(Group::num_pairs).sum::<u64>() as usize;
        }
        self.pairs.len()
    }

    /// Each variable's label, by index.
    pub fn labels(&self) -> &[Label] {
        &self.labels
    }

    /// The weights this encoding uses, with defaults and slider ranges.
    pub fn weight_specs(&self) -> &[WeightSpec] {
        &self.specs
    }

    /// Every weight at its default value.
    pub fn default_weights(&self) -> Weights {
        let mut w = Weights::new();
        for s in &self.specs {
            w.0.insert(s.name.clone(), s.default);
        }
        w
    }

    /// Number of constraint groups.
    pub fn num_groups(&self) -> usize {
        self.groups.len()
    }

    /// A group's label, e.g. `row[0] digit 3`.
    pub fn group_label(&self, g: GroupId) -> &str {
        &self.groups[g].label
    }

    /// The variables a group's terms touch, ascending.
    pub fn group_variables(&self, g: GroupId) -> Vec<u32> {
        let mut vars: Vec<u32> = self.groups[g].variables().collect();
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    /// The name of the weight that scales a group.
    pub fn group_weight_name(&self, g: GroupId) -> &str {
        &self.specs[self.groups[g].weight as usize].name
    }

    /// Variables fixed by presolve, with their values.
    pub fn fixed(&self) -> &[(Label, bool)] {
        &self.fixed
    }

    /// Checks weights against the declared names and for finite values (what `qubo` checks
    /// first; an unstored encoding's caller checks here).
    pub fn check_weights(&self, weights: &Weights) -> Result<(), QuboError> {
        self.resolve(weights).map(|_| ())
    }

    /// The weights' names, in declaration order.
    pub fn weight_names(&self) -> Vec<&str> {
        self.specs.iter().map(|s| s.name.as_str()).collect()
    }

    /// Where each declared condition involving weight `name` flips as that weight alone moves
    /// from `weights` (a one-weight sweep's axis): (the value, the relation). Moot conditions
    /// are left out, as in `unmet_conditions`.
    pub fn condition_thresholds(
        &self,
        weights: &Weights,
        name: &str,
    ) -> Result<Vec<(f64, String)>, QuboError> {
        let values = self.resolve(weights)?;
        let Some(w) = self.specs.iter().position(|s| s.name == name) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for c in self.live_conditions() {
            let Some(&(_, k)) = c.terms.iter().find(|&&(v, k)| v as usize == w && k != 0.0) else {
                continue;
            };
            let others: f64 = (c.terms.iter())
                .filter(|&&(v, _)| v as usize != w)
                .map(|&(v, k)| k * values[v as usize])
                .sum();
            out.push((-others / k, c.relation.clone()));
        }
        Ok(out)
    }

    /// The conditions whose weights all have terms here (the others are moot).
    fn live_conditions(&self) -> impl Iterator<Item = &WeightCondition> {
        let idle: Vec<bool> = match self.unstored {
            Some(_) => vec![false; self.specs.len()],
            None => self
                .terms_per_weight()
                .iter()
                .map(|(_, n)| *n == 0)
                .collect(),
        };
        (self.conditions.iter()).filter(move |c| c.terms.iter().all(|&(w, _)| !idle[w as usize]))
    }

    /// The declared conditions (`WeightCondition`) that `weights` break (displayed, a sentence
    /// naming the relation, the values and what is lost). A condition over a weight with no
    /// terms here (presolve removed them) is moot and skipped.
    pub fn unmet_conditions(&self, weights: &Weights) -> Result<Vec<UnmetCondition>, QuboError> {
        let values = self.resolve(weights)?;
        let mut unmet = Vec::new();
        for c in self.live_conditions() {
            let side = |positive: bool| -> f64 {
                (c.terms.iter())
                    .filter(|&&(_, k)| (k > 0.0) == positive)
                    .map(|&(w, k)| k.abs() * values[w as usize])
                    .sum()
            };
            let (left, right) = (side(true), side(false));
            let holds = if c.strict {
                left > right
            } else {
                left >= right
            };
            if !holds {
                unmet.push(UnmetCondition {
                    relation: c.relation.clone(),
                    sides: (left, right),
                    otherwise: c.otherwise.clone(),
                });
            }
        }
        Ok(unmet)
    }
}
