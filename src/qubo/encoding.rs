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

/// Weights of binary slack variables whose subsets sum to every value 0..=total (1, 2, 4, …,
/// the last one capped so they add up to exactly `total`).
pub fn slack_weights(total: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut covered = 0u64;
    let mut next = 1u64;
    while covered < total {
        let w = next.min(total - covered);
        out.push(w);
        covered += w;
        next *= 2;
    }
    out
}

/// Adds variables, weights and groups; `build` compiles the re-weighting table.
#[derive(Default)]
pub struct EncodingBuilder {
    labels: Vec<Label>,
    specs: Vec<WeightSpec>,
    groups: Vec<Group>,
}

impl EncodingBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares a weight; returns its handle for `add_*`.
    pub fn weight(&mut self, name: &str, default: f64, range: (f64, f64), help: &str) -> u16 {
        if let Some(k) = self.specs.iter().position(|s| s.name == name) {
            return k as u16;
        }
        self.specs.push(WeightSpec {
            name: name.to_string(),
            default,
            min: range.0,
            max: range.1,
            help: help.to_string(),
        });
        (self.specs.len() - 1) as u16
    }

    /// Adds a variable; returns its index.
    pub fn variable(&mut self, label: Label) -> u32 {
        self.labels.push(label);
        (self.labels.len() - 1) as u32
    }

    /// Variables added so far.
    pub fn num_variables(&self) -> usize {
        self.labels.len()
    }

    /// weight · (Σ x_v − 1)²  (with x² = x): holds iff exactly one of `vars` is 1.
    pub fn add_one_hot(&mut self, label: String, weight: u16, vars: &[u32]) {
        let terms: Vec<(u32, f64)> = vars.iter().map(|&v| (v, 1.0)).collect();
        self.add_square(label, weight, &terms, 1.0);
    }

    /// weight · Σ_{pairs} x_u x_v = weight · ½((Σx)² − Σx): holds iff at most one of `vars`
    /// is 1 (kept factored like a square).
    pub fn add_at_most_one(&mut self, label: String, weight: u16, vars: &[u32]) {
        self.groups.push(Group {
            label,
            weight,
            constant: 0.0,
            linear: vars.iter().map(|&v| (v, -0.5)).collect(),
            quadratic: Vec::new(),
            square: Some(SquareTerms {
                factor: 0.5,
                target: 0.0,
                terms: vars.iter().map(|&v| (v, 1.0)).collect(),
            }),
            satisfied: 0.0,
        });
    }

    /// weight · (Σ cᵢxᵢ − target)² over distinct variables (x² = x; spelled out: constant
    /// target², linear cᵢ(cᵢ − 2·target), pairs 2cᵢcⱼ); holds iff the sum is exactly `target`.
    /// Kept factored until the model is stored.
    pub fn add_square(&mut self, label: String, weight: u16, terms: &[(u32, f64)], target: f64) {
        self.groups.push(Group {
            label,
            weight,
            constant: 0.0,
            linear: Vec::new(),
            quadratic: Vec::new(),
            square: Some(SquareTerms {
                factor: 1.0,
                target,
                terms: terms.to_vec(),
            }),
            satisfied: 0.0,
        });
    }

    /// A nogood (a cut): weight · (Σ xᵢ + slack − (n − 1))², where the slack is binary
    /// variables (labelled by `slack(j)`) with `slack_weights(n − 1)`; it holds (energy 0)
    /// exactly when not every one of the n `vars` is 1, whatever else the model says.
    pub fn add_nogood(
        &mut self,
        label: String,
        weight: u16,
        vars: &[u32],
        slack: impl Fn(u32) -> Label,
    ) {
        let bound = vars.len().saturating_sub(1) as u64;
        let mut terms: Vec<(u32, f64)> = vars.iter().map(|&v| (v, 1.0)).collect();
        for (j, w) in slack_weights(bound).into_iter().enumerate() {
            let s = self.variable(slack(j as u32));
            terms.push((s, w as f64));
        }
        self.add_square(label, weight, &terms, bound as f64);
    }

    /// −weight · x_var: a reward, holds iff x_var = 1.
    pub fn add_reward(&mut self, label: String, weight: u16, var: u32) {
        self.add_group(label, weight, 0.0, vec![(var, -1.0)], Vec::new(), -1.0);
    }

    /// A general group: weight · (constant + Σ linear + Σ quadratic), whose minimum (the
    /// energy when it holds) is `satisfied`.
    pub fn add_group(
        &mut self,
        label: String,
        weight: u16,
        constant: f64,
        linear: Vec<(u32, f64)>,
        quadratic: Vec<(u32, u32, f64)>,
        satisfied: f64,
    ) {
        self.groups.push(Group {
            label,
            weight,
            constant,
            linear,
            quadratic,
            square: None,
            satisfied,
        });
    }

    /// Compiles the re-weighting table; the builder's groups are kept for reports.
    pub fn build(self) -> Encoding {
        Encoding::compile(self.labels, self.specs, self.groups, Vec::new(), None)
    }

    /// An encoding with its variables and weights but no stored terms, for a model too large
    /// to store (sampled through its structure, `Puzzle::structure`): `qubo` refuses it with
    /// `reason`; decoding, labels and weight sliders work as usual.
    pub fn build_unstored(self, reason: String) -> Encoding {
        Encoding::compile(
            self.labels,
            self.specs,
            Vec::new(),
            Vec::new(),
            Some(reason),
        )
    }
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
}

/// The one CSR row builder: gathers `(key, tag, value)` items into one row per distinct key,
/// each row a list of `(tag, Σ value)` sorted by tag (items with equal key and tag merge).
/// Returns the distinct keys, the row starts (`keys.len() + 1` of them) and the terms.
fn merge_rows<K: Copy + Ord, T: Copy + Ord>(
    mut items: Vec<(K, T, f64)>,
) -> (Vec<K>, Vec<u32>, Vec<(T, f64)>) {
    items.sort_unstable_by_key(|t| (t.0, t.1));
    let mut keys = Vec::new();
    let mut start = vec![0u32];
    let mut terms: Vec<(T, f64)> = Vec::new();
    for (k, tag, c) in items {
        if keys.last() != Some(&k) {
            if !keys.is_empty() {
                start.push(terms.len() as u32);
            }
            keys.push(k);
            terms.push((tag, c));
        } else if let Some(last) = terms.last_mut().filter(|t| t.0 == tag) {
            last.1 += c;
        } else {
            terms.push((tag, c));
        }
    }
    if !keys.is_empty() {
        start.push(terms.len() as u32);
    }
    (keys, start, terms)
}

/// Row starts indexed by variable (`n + 1` of them) from `merge_rows`' sparse rows, so that a
/// variable without items has an empty row.
fn rows_by_variable(n: usize, keys: &[u32], start: &[u32]) -> Vec<u32> {
    let mut by_var = Vec::with_capacity(n + 1);
    let mut k = 0;
    for v in 0..n as u32 {
        while k < keys.len() && keys[k] < v {
            k += 1;
        }
        by_var.push(start[k]);
    }
    by_var.push(start[keys.len()]);
    by_var
}

/// Couplings a stored model may have. Past this a model is not stored but sampled through its
/// structure (`Encoding::structure`): storing 10⁷ couplings already takes about a GiB on the way
/// to a sampler, and the structure anneals the same energies in a fraction of it.
pub const MAX_STORED_PAIRS: u64 = 10_000_000;

/// Bytes per stored coupling on the way to a sampler: its spelled-out term while compiling, the
/// re-weighting table, the weighted QUBO and the sampler's adjacency (both directions).
const BYTES_PER_STORED_PAIR: u64 = 128;

/// Why groups spelling out `pairs` couplings are not stored, if they are not.
fn too_large_to_store(pairs: u64) -> Option<String> {
    let tail = "it is sampled through its structure (simulated annealing, parallel tempering) and not stored";
    if pairs > MAX_STORED_PAIRS {
        return Some(format!(
            "the QUBO has {pairs} couplings, more than the {MAX_STORED_PAIRS} a stored model may have: {tail}"
        ));
    }
    let needed = pairs.saturating_mul(BYTES_PER_STORED_PAIR);
    crate::budget::check_memory(|| format!("the QUBO's {pairs} couplings"), needed)
        .err()
        .map(|e| format!("{e}: {tail}"))
}

impl Encoding {
    /// Compiles the re-weighting table, unless the model is too large to store (or `unstored`
    /// says why it is not): then only the groups are kept, for reports and the structure.
    fn compile(
        labels: Vec<Label>,
        specs: Vec<WeightSpec>,
        groups: Vec<Group>,
        fixed: Vec<(Label, bool)>,
        unstored: Option<String>,
    ) -> Encoding {
        let n = labels.len();
        let unstored = unstored
            .or_else(|| too_large_to_store(groups.iter().map(Group::num_pairs).sum::<u64>()));
        let store = unstored.is_none();
        let mut lin_items = Vec::new();
        let mut pair_items = Vec::new();
        let mut touch_items = Vec::new();
        let mut const_by_weight = vec![0.0; specs.len()];
        for (g, group) in groups.iter().enumerate() {
            let g = g as u32;
            touch_items.extend(group.variables().map(|v| (v, g, 0.0)));
            if !store {
                continue;
            }
            const_by_weight[group.weight as usize] += group.constant;
            for &(i, c) in &group.linear {
                lin_items.push((i, group.weight, c));
            }
            for &(a, b, c) in &group.quadratic {
                let (i, j) = if a < b { (a, b) } else { (b, a) };
                if i == j {
                    lin_items.push((i, group.weight, c));
                } else {
                    pair_items.push(((i, j), group.weight, c));
                }
            }
            if let Some(sq) = &group.square {
                // f·(Σ cx − t)² spelled out with x² = x.
                let (f, t) = (sq.factor, sq.target);
                const_by_weight[group.weight as usize] += f * t * t;
                for (k, &(u, cu)) in sq.terms.iter().enumerate() {
                    lin_items.push((u, group.weight, f * cu * (cu - 2.0 * t)));
                    for &(v, cv) in &sq.terms[k + 1..] {
                        let (i, j) = if u < v { (u, v) } else { (v, u) };
                        pair_items.push(((i, j), group.weight, 2.0 * f * cu * cv));
                    }
                }
            }
        }
        let (lin_vars, lin_rows, lin_terms) = merge_rows(lin_items);
        let lin_start = rows_by_variable(n, &lin_vars, &lin_rows);
        let (pairs, pair_start, pair_terms) = merge_rows(pair_items);
        let (touched, touch_rows, touch_terms) = merge_rows(touch_items);
        let var_groups_start = rows_by_variable(n, &touched, &touch_rows);
        let var_groups = touch_terms.into_iter().map(|(g, _)| g).collect();
        Encoding {
            labels,
            specs,
            groups,
            fixed,
            lin_start,
            lin_terms,
            pairs,
            pair_start,
            pair_terms,
            const_by_weight,
            var_groups_start,
            var_groups,
            unstored,
        }
    }

    /// The weighted model as a structure (`GroupedModel`): squares kept as groups (two per
    /// variable; further ones spelled out), every other term explicit. Its energies are those
    /// of `qubo(weights)`, and it exists when the model is too large to store.
    pub fn structure(&self, weights: &Weights) -> Result<super::GroupedModel, QuboError> {
        use super::grouped::Square;
        let w = self.resolve(weights)?;
        let n = self.labels.len();
        let mut offset = 0.0;
        let mut linear = vec![0.0; n];
        let mut squares = Vec::new();
        let mut pairs = Vec::new();
        // Large squares first: they are the ones worth a group slot.
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.sort_by_key(|&g| {
            std::cmp::Reverse(self.groups[g].square.as_ref().map_or(0, |s| s.terms.len()))
        });
        for g in order {
            let group = &self.groups[g];
            let wv = w[group.weight as usize];
            if wv == 0.0 {
                continue;
            }
            offset += wv * group.constant;
            for &(i, c) in &group.linear {
                linear[i as usize] += wv * c;
            }
            for &(i, j, c) in &group.quadratic {
                if i == j {
                    linear[i as usize] += wv * c;
                } else {
                    pairs.push((i, j, wv * c));
                }
            }
            if let Some(sq) = &group.square {
                squares.push(Square {
                    weight: wv * sq.factor,
                    target: sq.target,
                    terms: sq.terms.clone(),
                });
            }
        }
        Ok(super::GroupedModel::from_terms(
            n, offset, linear, squares, pairs,
        ))
    }

    /// The exactly-one groups of the weighted model, as data for samplers: every group that
    /// is w·(Σx − 1)² over plain variables (`add_one_hot`, after presolve too) with w > 0.
    pub fn one_hot_groups(&self, weights: &Weights) -> Result<super::OneHotGroups, QuboError> {
        let w = self.resolve(weights)?;
        let exactly_one = self.groups.iter().filter_map(|g| {
            let sq = g.square.as_ref()?;
            let plain = g.linear.is_empty()
                && g.quadratic.is_empty()
                && g.constant == 0.0
                && sq.target == 1.0
                && sq.factor * w[g.weight as usize] > 0.0
                && sq.terms.iter().all(|t| t.1 == 1.0);
            plain.then(|| (g.label.as_str(), sq.terms.iter().map(|t| t.0).collect()))
        });
        Ok(super::OneHotGroups::from_labelled(
            self.labels.len(),
            exactly_one,
        ))
    }

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

    /// Weight values in spec order; unknown names and non-finite values are errors.
    fn resolve(&self, weights: &Weights) -> Result<Vec<f64>, QuboError> {
        for (name, value) in weights.iter() {
            if !self.specs.iter().any(|s| s.name == name) {
                return Err(QuboError::UnknownWeight {
                    name: name.to_string(),
                    known: self.weight_names().join(", "),
                });
            }
            if !value.is_finite() {
                return Err(QuboError::NonFinite {
                    what: format!("weight '{name}'"),
                    value,
                });
            }
        }
        Ok(self
            .specs
            .iter()
            .map(|s| weights.get(&s.name).unwrap_or(s.default))
            .collect())
    }

    /// The weights' names, in declaration order.
    pub fn weight_names(&self) -> Vec<&str> {
        self.specs.iter().map(|s| s.name.as_str()).collect()
    }

    /// The weighted matrix. Re-weighting never re-encodes: one pass over the compiled table.
    pub fn qubo(&self, weights: &Weights) -> Result<Qubo, QuboError> {
        if let Some(reason) = &self.unstored {
            return Err(QuboError::Unstored(reason.clone()));
        }
        let w = self.resolve(weights)?;
        let n = self.labels.len();
        let mut linear = vec![0.0; n];
        for (v, lin) in linear.iter_mut().enumerate() {
            let r = self.lin_start[v] as usize..self.lin_start[v + 1] as usize;
            *lin = self.lin_terms[r]
                .iter()
                .map(|&(k, c)| w[k as usize] * c)
                .sum();
        }
        let mut couplings = Vec::with_capacity(self.pairs.len());
        for (p, &(i, j)) in self.pairs.iter().enumerate() {
            let r = self.pair_start[p] as usize..self.pair_start[p + 1] as usize;
            let value = self.pair_terms[r]
                .iter()
                .map(|&(k, c)| w[k as usize] * c)
                .sum();
            couplings.push(Coupling { i, j, value });
        }
        let offset = self
            .const_by_weight
            .iter()
            .zip(&w)
            .map(|(c, w)| c * w)
            .sum();
        let q = Qubo::from_canonical(linear, couplings, offset);
        q.check_energy_range()?;
        Ok(q)
    }

    /// Energy every assignment that satisfies all groups has: the ground energy when the
    /// puzzle has a solution and all weights are ≥ 0 (each group is then at its minimum).
    pub fn satisfied_energy(&self, weights: &Weights) -> Result<f64, QuboError> {
        let w = self.resolve(weights)?;
        Ok(self
            .groups
            .iter()
            .map(|g| w[g.weight as usize] * g.satisfied)
            .sum())
    }

    /// Whether every weight is ≥ 0 (needed for `satisfied_energy` to be the ground energy).
    pub fn weights_nonnegative(&self, weights: &Weights) -> Result<bool, QuboError> {
        Ok(self.resolve(weights)?.iter().all(|&w| w >= 0.0))
    }

    /// Each group's energy in `sample`, and whether it holds.
    pub fn report(
        &self,
        sample: &[u8],
        weights: &Weights,
        only_broken: bool,
    ) -> Result<Vec<ConstraintReport>, QuboError> {
        if sample.len() != self.labels.len() {
            return Err(QuboError::LengthMismatch {
                expected: self.labels.len(),
                found: sample.len(),
            });
        }
        let w = self.resolve(weights)?;
        let mut out = Vec::new();
        for (g, group) in self.groups.iter().enumerate() {
            let e = group.energy(sample);
            let holds = super::energy_matches(e, group.satisfied, group.tolerance());
            if only_broken && holds {
                continue;
            }
            let wv = w[group.weight as usize];
            out.push(ConstraintReport {
                group: g,
                constraint: group.label.clone(),
                weight: self.specs[group.weight as usize].name.clone(),
                energy: wv * e,
                satisfied_energy: wv * group.satisfied,
                holds,
                enforced: wv != 0.0,
            });
        }
        Ok(out)
    }

    /// Groups touching variable `v`.
    pub fn groups_of(&self, v: usize) -> &[u32] {
        &self.var_groups[self.var_groups_start[v] as usize..self.var_groups_start[v + 1] as usize]
    }

    /// Which constraint groups contributed to matrix entry (i, j) (i = j: the linear term).
    pub fn contributors(
        &self,
        i: usize,
        j: usize,
        weights: &Weights,
    ) -> Result<Vec<Contribution>, QuboError> {
        let w = self.resolve(weights)?;
        let (a, b) = (i.min(j) as u32, i.max(j) as u32);
        let mut out = Vec::new();
        for &g in self.groups_of(a as usize) {
            let group = &self.groups[g as usize];
            let mut coef = 0.0;
            let mut touched = false;
            if a == b {
                for &(v, c) in &group.linear {
                    if v == a {
                        coef += c;
                        touched = true;
                    }
                }
            }
            for &(u, v, c) in &group.quadratic {
                if (u.min(v), u.max(v)) == (a, b) {
                    coef += c;
                    touched = true;
                }
            }
            if let Some(sq) = &group.square {
                let ca = sq.terms.iter().find(|t| t.0 == a).map(|t| t.1);
                let cb = sq.terms.iter().find(|t| t.0 == b).map(|t| t.1);
                if let (Some(ca), Some(cb)) = (ca, cb) {
                    coef += if a == b {
                        sq.factor * ca * (ca - 2.0 * sq.target)
                    } else {
                        2.0 * sq.factor * ca * cb
                    };
                    touched = true;
                }
            }
            if touched {
                let wv = w[group.weight as usize];
                out.push(Contribution {
                    group: g as usize,
                    constraint: group.label.clone(),
                    weight: self.specs[group.weight as usize].name.clone(),
                    coefficient: coef,
                    value: wv * coef,
                });
            }
        }
        Ok(out)
    }

    /// Every variable of the original model with its value: the free ones from `sample`, the
    /// presolved ones from their fixed values.
    pub fn full_assignment<'a>(
        &'a self,
        sample: &'a [u8],
    ) -> impl Iterator<Item = (&'a Label, bool)> + 'a {
        self.labels
            .iter()
            .zip(sample)
            .map(|(l, &b)| (l, b != 0))
            .chain(self.fixed.iter().map(|(l, b)| (l, *b)))
    }

    /// Substitutes fixed values for some variables: the result has only the free variables,
    /// each group restricted to them (constants absorbed), so every assignment of the free
    /// variables has exactly the energy it had in the full model.
    pub fn fix(&self, values: &[Option<bool>]) -> Encoding {
        assert_eq!(values.len(), self.labels.len(), "one entry per variable");
        let mut new_index = vec![u32::MAX; self.labels.len()];
        let mut labels = Vec::new();
        let mut fixed = self.fixed.clone();
        for (v, val) in values.iter().enumerate() {
            match val {
                None => {
                    new_index[v] = labels.len() as u32;
                    labels.push(self.labels[v].clone());
                }
                Some(b) => fixed.push((self.labels[v].clone(), *b)),
            }
        }
        let value = |v: u32| values[v as usize].map(|b| if b { 1.0 } else { 0.0 });
        let groups = self
            .groups
            .iter()
            .map(|g| {
                let mut constant = g.constant;
                let mut linear: Vec<(u32, f64)> = Vec::new();
                let mut quadratic = Vec::new();
                for &(v, c) in &g.linear {
                    match value(v) {
                        Some(x) => constant += c * x,
                        None => linear.push((new_index[v as usize], c)),
                    }
                }
                for &(u, v, c) in &g.quadratic {
                    match (value(u), value(v)) {
                        (Some(xu), Some(xv)) => constant += c * xu * xv,
                        (Some(xu), None) => linear.push((new_index[v as usize], c * xu)),
                        (None, Some(xv)) => linear.push((new_index[u as usize], c * xv)),
                        (None, None) => {
                            quadratic.push((new_index[u as usize], new_index[v as usize], c))
                        }
                    }
                }
                linear.retain(|t| t.1 != 0.0);
                // A square's fixed terms move its target: (Σ_free cx + Σ_fixed cv − t)².
                let square = g.square.as_ref().map(|sq| {
                    let mut target = sq.target;
                    let mut terms = Vec::new();
                    for &(v, c) in &sq.terms {
                        match value(v) {
                            Some(x) => target -= c * x,
                            None => terms.push((new_index[v as usize], c)),
                        }
                    }
                    SquareTerms {
                        factor: sq.factor,
                        target,
                        terms,
                    }
                });
                Group {
                    label: g.label.clone(),
                    weight: g.weight,
                    constant,
                    linear,
                    quadratic,
                    square,
                    satisfied: g.satisfied,
                }
            })
            .collect();
        // Refused by its encoder (no groups) stays so; otherwise the fixed model is judged anew.
        let forced = self
            .groups
            .is_empty()
            .then(|| self.unstored.clone())
            .flatten();
        Encoding::compile(labels, self.specs.clone(), groups, fixed, forced)
    }

    /// Number of terms (linear + quadratic) per weight name: the inspector's statistics.
    pub fn terms_per_weight(&self) -> Vec<(String, usize)> {
        let mut counts = vec![0usize; self.specs.len()];
        for g in &self.groups {
            let square = g
                .square
                .as_ref()
                .map_or(0, |sq| sq.terms.len() + SquareTerms::num_pairs(sq) as usize);
            counts[g.weight as usize] += g.linear.len() + g.quadratic.len() + square;
        }
        self.specs
            .iter()
            .zip(counts)
            .map(|(s, c)| (s.name.clone(), c))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_var_one_hot() -> Encoding {
        let mut b = EncodingBuilder::new();
        let w = b.weight("oh", 1.0, (0.0, 10.0), "one-hot");
        let r = b.weight("bonus", 2.0, (0.0, 10.0), "reward");
        let x0 = b.variable(Label::new("x", &[0]));
        let x1 = b.variable(Label::new("x", &[1]));
        b.add_one_hot("pick".into(), w, &[x0, x1]);
        b.add_reward("prefer[1]".into(), r, x1);
        b.build()
    }

    /// Every kind of group on 9 variables: squares with coefficients and targets (variable 0 in
    /// three of them, so one is spelled out), an at-most-one, a nogood, general terms.
    fn mixed_encoding() -> Encoding {
        let mut b = EncodingBuilder::new();
        let a = b.weight("a", 1.5, (0.0, 10.0), "");
        let c = b.weight("c", 0.7, (0.0, 10.0), "");
        let v: Vec<u32> = (0..7).map(|i| b.variable(Label::new("x", &[i]))).collect();
        b.add_one_hot("oh".into(), a, &v[0..4]);
        b.add_square(
            "sq".into(),
            c,
            &[(v[0], 1.0), (v[4], -2.0), (v[5], 1.0)],
            1.0,
        );
        b.add_square("third".into(), a, &[(v[0], 3.0), (v[6], 1.0)], 2.0);
        b.add_at_most_one("amo".into(), c, &v[3..7]);
        b.add_nogood("cut".into(), a, &v[1..4], |j| Label::new("s", &[j]));
        b.add_group(
            "general".into(),
            c,
            0.5,
            vec![(v[2], -1.0)],
            vec![(v[2], v[5], 2.0), (v[1], v[6], -1.5)],
            -1.0,
        );
        b.build()
    }

    /// The structure of an encoding has the stored QUBO's energies and couplings.
    fn assert_structure_matches(enc: &Encoding, w: &Weights) {
        let q = enc.qubo(w).unwrap();
        let g = enc.structure(w).unwrap();
        let n = enc.num_variables();
        assert_eq!(super::super::Model::num_variables(&g), n);
        for bits in 0..1u32 << n {
            let x: Vec<u8> = (0..n).map(|i| ((bits >> i) & 1) as u8).collect();
            let (want, got) = (q.energy(&x).unwrap(), super::super::Model::energy(&g, &x));
            assert!(
                (want - got).abs() < 1e-9,
                "{x:?}: stored {want}, structure {got}"
            );
        }
        let csr = super::super::Csr::of_model(&g);
        let stored = q.csr();
        for i in 0..n {
            assert!(
                (csr.linear[i] - stored.linear[i]).abs() < 1e-9,
                "linear {i}"
            );
            let row = |c: &super::super::Csr| -> Vec<(u32, i64)> {
                let (cols, vals) = c.row(i);
                cols.iter()
                    .zip(vals)
                    .map(|(&j, &v)| (j, (v * 1e9).round() as i64))
                    .filter(|t| t.1 != 0)
                    .collect()
            };
            assert_eq!(row(&csr), row(&stored), "row {i}");
        }
    }

    #[test]
    fn the_structure_of_an_encoding_prices_states_as_its_qubo_does() {
        let enc = mixed_encoding();
        assert_structure_matches(&enc, &enc.default_weights());
        assert_structure_matches(&enc, &Weights::new().with("a", 0.0).unwrap());
        // Presolved: squares absorb their fixed terms into the target.
        let mut fixed = vec![None; enc.num_variables()];
        fixed[0] = Some(true);
        fixed[4] = Some(false);
        let presolved = enc.fix(&fixed);
        assert_structure_matches(&presolved, &presolved.default_weights());
        // Reports read the factored squares: x0 alone on holds the one-hot.
        let mut x = vec![0u8; presolved.num_variables()];
        let oh = presolved
            .report(&x, &presolved.default_weights(), false)
            .unwrap();
        assert!(oh.iter().find(|r| r.constraint == "oh").unwrap().holds);
        x[0] = 1; // x1 on as well
        let broken = presolved
            .report(&x, &presolved.default_weights(), true)
            .unwrap();
        assert!(broken.iter().any(|r| r.constraint == "oh"), "{broken:?}");
    }

    #[test]
    fn contributors_of_a_square_add_up_to_its_entry() {
        let enc = mixed_encoding();
        let w = enc.default_weights();
        let q = enc.qubo(&w).unwrap();
        let csr = q.csr();
        for (i, j) in [(0, 0), (0, 4), (3, 5), (4, 5), (1, 6)] {
            let sum: f64 = enc
                .contributors(i, j, &w)
                .unwrap()
                .iter()
                .map(|c| c.value)
                .sum();
            let want = if i == j {
                csr.linear[i]
            } else {
                let (cols, vals) = csr.row(i);
                cols.iter()
                    .position(|&c| c as usize == j)
                    .map_or(0.0, |k| vals[k])
            };
            assert!((sum - want).abs() < 1e-9, "({i}, {j}): {sum} vs {want}");
        }
    }

    #[test]
    fn models_past_the_stored_limit_are_not_stored() {
        assert!(too_large_to_store(1000).is_none());
        let why = too_large_to_store(MAX_STORED_PAIRS + 1).unwrap();
        assert!(why.contains("sampled through its structure"), "{why}");
    }

    #[test]
    fn label_round_trips_through_text() {
        let l = Label::new("x", &[3, 4, 6]);
        assert_eq!(l.to_string(), "x[3][4][6]");
        assert_eq!("x[3][4][6]".parse::<Label>().unwrap(), l);
        assert!("x[3".parse::<Label>().is_err());
    }

    #[test]
    fn qubo_follows_weights_and_energies_match_groups() {
        let enc = two_var_one_hot();
        let w = enc.default_weights();
        let q = enc.qubo(&w).unwrap();
        // (x0+x1-1)^2 - 2 x1
        assert_eq!(q.energy(&[0, 0]).unwrap(), 1.0);
        assert_eq!(q.energy(&[1, 0]).unwrap(), 0.0);
        assert_eq!(q.energy(&[0, 1]).unwrap(), -2.0);
        assert_eq!(q.energy(&[1, 1]).unwrap(), 1.0 - 2.0);
        let w3 = w.clone().with("oh", 3.0).unwrap();
        let q3 = enc.qubo(&w3).unwrap();
        assert_eq!(q3.energy(&[1, 1]).unwrap(), 3.0 - 2.0);
        assert_eq!(enc.satisfied_energy(&w3).unwrap(), -2.0);
    }

    #[test]
    fn unknown_or_nan_weights_are_rejected() {
        let enc = two_var_one_hot();
        let err = enc
            .qubo(&Weights::new().with("nope", 1.0).unwrap())
            .unwrap_err();
        assert!(err.to_string().contains("unknown weight 'nope'"), "{err}");
        assert!(Weights::new().with("oh", f64::NAN).is_err());
    }

    #[test]
    fn report_names_broken_groups() {
        let enc = two_var_one_hot();
        let w = enc.default_weights();
        let broken = enc.report(&[1, 1], &w, true).unwrap();
        let names: Vec<_> = broken.iter().map(|r| r.constraint.as_str()).collect();
        assert_eq!(names, ["pick"]);
        let all = enc.report(&[1, 0], &w, false).unwrap();
        assert_eq!(all.len(), 2);
        assert!(!all[1].holds, "prefer[1] does not hold when x1 = 0");
    }

    #[test]
    fn contributors_of_an_entry() {
        let enc = two_var_one_hot();
        let w = enc.default_weights();
        let c = enc.contributors(1, 1, &w).unwrap();
        let mut names: Vec<_> = c.iter().map(|c| (c.constraint.as_str(), c.value)).collect();
        names.sort_by(|a, b| a.0.cmp(b.0));
        assert_eq!(names, [("pick", -1.0), ("prefer[1]", -2.0)]);
        let c01 = enc.contributors(0, 1, &w).unwrap();
        assert_eq!(c01.len(), 1);
        assert_eq!(c01[0].value, 2.0);
    }

    #[test]
    fn fixing_variables_keeps_energies() {
        let enc = two_var_one_hot();
        let w = enc.default_weights();
        let full = enc.qubo(&w).unwrap();
        let reduced = enc.fix(&[Some(false), None]);
        let q = reduced.qubo(&w).unwrap();
        assert_eq!(q.num_variables(), 1);
        for x1 in [0u8, 1] {
            assert_eq!(q.energy(&[x1]).unwrap(), full.energy(&[0, x1]).unwrap());
        }
        let assignment: Vec<_> = reduced
            .full_assignment(&[1])
            .map(|(l, b)| (l.to_string(), b))
            .collect();
        assert_eq!(assignment, [("x[1]".into(), true), ("x[0]".into(), false)]);
    }

    #[test]
    fn untouched_variables_get_empty_rows_and_repeated_terms_add_up() {
        let mut b = EncodingBuilder::new();
        let w = b.weight("a", 2.0, (0.0, 10.0), "a");
        let v = b.weight("b", 3.0, (0.0, 10.0), "b");
        let x: Vec<u32> = (0..4).map(|k| b.variable(Label::new("x", &[k]))).collect();
        // x0 and x2 untouched; x1 twice under `a`, once under `b`; x1·x3 twice.
        b.add_group(
            "g0".into(),
            w,
            0.5,
            vec![(x[1], 1.0), (x[1], 4.0)],
            Vec::new(),
            0.0,
        );
        b.add_group(
            "g1".into(),
            v,
            0.0,
            vec![(x[1], -1.0)],
            vec![(x[1], x[3], 1.0), (x[3], x[1], 2.0)],
            -1.0,
        );
        let enc = b.build();
        let q = enc.qubo(&enc.default_weights()).unwrap();
        assert_eq!(q.linear(), [0.0, 2.0 * 5.0 - 3.0, 0.0, 0.0]);
        assert_eq!(q.offset(), 1.0);
        assert_eq!(enc.num_pairs(), 1);
        assert_eq!(q.energy(&[0, 1, 0, 1]).unwrap(), 1.0 + 7.0 + 9.0);
        assert!(enc.groups_of(0).is_empty() && enc.groups_of(2).is_empty());
        assert_eq!(enc.groups_of(1), [0, 1]);
        assert_eq!(enc.groups_of(3), [1]);
    }

    #[test]
    fn slack_weights_reach_every_count_exactly() {
        for total in 0..70u64 {
            let w = slack_weights(total);
            assert_eq!(w.iter().sum::<u64>(), total);
            // Greedy representation of every value.
            for value in 0..=total {
                let mut left = value;
                for &x in w.iter().rev() {
                    if x <= left {
                        left -= x;
                    }
                }
                assert_eq!(left, 0, "total {total}, value {value}: {w:?}");
            }
        }
    }

    #[test]
    fn a_nogood_forbids_all_ones_and_nothing_else() {
        for n in 1..=5u32 {
            let mut b = EncodingBuilder::new();
            let w = b.weight("cut", 1.0, (0.0, 10.0), "");
            let vars: Vec<u32> = (0..n).map(|i| b.variable(Label::new("y", &[i]))).collect();
            b.add_nogood("cut#0".into(), w, &vars, |j| Label::new("s", &[j]));
            let enc = b.build();
            let q = enc.qubo(&enc.default_weights()).unwrap();
            let slack = enc.num_variables() - n as usize;
            for x in 0..1u32 << n {
                // The best slack for this x.
                let best = (0..1u32 << slack)
                    .map(|s| {
                        let mut sample: Vec<u8> = (0..n).map(|i| (x >> i & 1) as u8).collect();
                        sample.extend((0..slack).map(|i| (s >> i & 1) as u8));
                        q.energy(&sample).unwrap()
                    })
                    .fold(f64::INFINITY, f64::min);
                let all_ones = x == (1 << n) - 1;
                assert_eq!(best > 0.5, all_ones, "n {n}, x {x:b}: {best}");
            }
        }
    }
}
