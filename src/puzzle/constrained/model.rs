//! The constrained model itself: variables, an objective, labelled constraints — what dimod's
//! `ConstrainedQuadraticModel`, an LP file and QPLIB's binary problems hold — and what it says
//! about an assignment (objective, each constraint's left side and violation).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

/// Largest model accepted from any file: variables, constraints, and terms over all
/// expressions (a budget: each costs a few dozen bytes, and the encoding more).
pub const MAX_VARIABLES: usize = 1 << 20;
/// See `MAX_VARIABLES`.
pub const MAX_CONSTRAINTS: usize = 1 << 20;
/// See `MAX_VARIABLES`.
pub const MAX_TERMS: usize = 1 << 25;

/// How a variable takes its two values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VarType {
    /// 0 or 1.
    Binary,
    /// −1 or +1 (held as a bit b, the value 2b − 1).
    Spin,
}

/// A variable of the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Variable {
    /// Its label as the file spelled it.
    pub label: String,
    /// Binary or spin.
    pub vartype: VarType,
}

/// constant + Σ aᵢ vᵢ + Σ bᵢⱼ vᵢ vⱼ over the model's variables (by index, as they are valued:
/// a spin's value is ±1). Quadratic terms have i ≠ j; a square of a variable is folded into its
/// linear term when read (v² = v for binary, 1 for spin).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    /// The constant.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub constant: f64,
    /// (variable, coefficient).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub linear: Vec<(u32, f64)>,
    /// (variable, variable, coefficient).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quadratic: Vec<(u32, u32, f64)>,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

impl Expr {
    /// Its value for `bits` (each variable's bit; spins valued 2b − 1).
    pub fn value(&self, vars: &[Variable], bits: &[u8]) -> f64 {
        let v = |i: u32| value_of(vars[i as usize].vartype, bits[i as usize]);
        self.constant
            + self.linear.iter().map(|&(i, a)| a * v(i)).sum::<f64>()
            + self
                .quadratic
                .iter()
                .map(|&(i, j, b)| b * v(i) * v(j))
                .sum::<f64>()
    }

    /// Whether it has quadratic terms.
    pub fn is_quadratic(&self) -> bool {
        !self.quadratic.is_empty()
    }

    /// Terms in all.
    pub fn num_terms(&self) -> usize {
        self.linear.len() + self.quadratic.len()
    }

    /// The same function over bits (x ∈ {0, 1}): spins substituted by 2x − 1, like terms
    /// merged, zeros dropped.
    pub fn to_binary(&self, vars: &[Variable]) -> Expr {
        let spin = |i: u32| vars[i as usize].vartype == VarType::Spin;
        let mut constant = self.constant;
        let mut linear: HashMap<u32, f64> = HashMap::new();
        let mut quadratic: HashMap<(u32, u32), f64> = HashMap::new();
        for &(i, a) in &self.linear {
            if spin(i) {
                *linear.entry(i).or_default() += 2.0 * a;
                constant -= a;
            } else {
                *linear.entry(i).or_default() += a;
            }
        }
        for &(i, j, b) in &self.quadratic {
            let key = (i.min(j), i.max(j));
            match (spin(i), spin(j)) {
                (false, false) => *quadratic.entry(key).or_default() += b,
                // x·(2y − 1) = 2xy − x
                (false, true) => {
                    *quadratic.entry(key).or_default() += 2.0 * b;
                    *linear.entry(i).or_default() -= b;
                }
                (true, false) => {
                    *quadratic.entry(key).or_default() += 2.0 * b;
                    *linear.entry(j).or_default() -= b;
                }
                // (2x − 1)(2y − 1) = 4xy − 2x − 2y + 1
                (true, true) => {
                    *quadratic.entry(key).or_default() += 4.0 * b;
                    *linear.entry(i).or_default() -= 2.0 * b;
                    *linear.entry(j).or_default() -= 2.0 * b;
                    constant += b;
                }
            }
        }
        let mut linear: Vec<(u32, f64)> = linear.into_iter().filter(|t| t.1 != 0.0).collect();
        linear.sort_by_key(|t| t.0);
        let mut quadratic: Vec<(u32, u32, f64)> = quadratic
            .into_iter()
            .filter(|t| t.1 != 0.0)
            .map(|((i, j), b)| (i, j, b))
            .collect();
        quadratic.sort_by_key(|t| (t.0, t.1));
        Expr {
            constant,
            linear,
            quadratic,
        }
    }

    /// The smallest and largest values it takes over all assignments, bounded term by term
    /// (exact for linear expressions over distinct variables).
    pub fn bounds(&self, vars: &[Variable]) -> (f64, f64) {
        let b = self.to_binary(vars);
        let (mut lo, mut hi) = (b.constant, b.constant);
        for &(_, a) in &b.linear {
            lo += a.min(0.0);
            hi += a.max(0.0);
        }
        for &(_, _, q) in &b.quadratic {
            lo += q.min(0.0);
            hi += q.max(0.0);
        }
        (lo, hi)
    }
}

/// A variable's value from its bit.
pub fn value_of(vartype: VarType, bit: u8) -> f64 {
    match (vartype, bit != 0) {
        (VarType::Binary, b) => b as u8 as f64,
        (VarType::Spin, true) => 1.0,
        (VarType::Spin, false) => -1.0,
    }
}

/// `≤`, `≥` or `=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sense {
    /// lhs ≤ rhs.
    #[serde(rename = "<=")]
    Le,
    /// lhs ≥ rhs.
    #[serde(rename = ">=")]
    Ge,
    /// lhs = rhs.
    #[serde(rename = "==")]
    Eq,
}

impl Sense {
    /// As dimod and LP files write it.
    pub fn symbol(self) -> &'static str {
        match self {
            Sense::Le => "<=",
            Sense::Ge => ">=",
            Sense::Eq => "==",
        }
    }
}

/// Whether the objective is minimised or maximised (LP files may say either; dimod minimises).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Smaller is better.
    #[default]
    Minimize,
    /// Larger is better.
    Maximize,
}

/// A labelled constraint lhs ⋚ rhs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    /// Its label (`capacity[3]`, `c12`, …).
    pub label: String,
    /// Left-hand side.
    pub lhs: Expr,
    /// ≤, ≥ or =.
    pub sense: Sense,
    /// Right-hand side.
    pub rhs: f64,
    /// Marked one-hot by its author (dimod's `add_discrete`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub discrete: bool,
    /// A soft constraint's weight (dimod's `weight=`, quadratic penalty): it is priced, not
    /// required, so feasibility ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soft_weight: Option<f64>,
    /// The penalty weight's name when the user gave this constraint a weight of its own;
    /// `None`: its family's, from the label (`family_of`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<String>,
    /// The left side is its own penalty (≥ 0 everywhere, 0 exactly where it holds: a PyQUBO
    /// `Constraint`), priced as it stands rather than squared; with `= 0`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub penalty: bool,
}

impl Constraint {
    /// A required constraint `lhs ⋚ rhs` as files state it, the left side's constant moved to
    /// the right.
    pub fn required(label: String, lhs: Expr, sense: Sense, rhs: f64) -> Constraint {
        Constraint {
            label,
            rhs: rhs - lhs.constant,
            lhs: Expr {
                constant: 0.0,
                ..lhs
            },
            sense,
            discrete: false,
            soft_weight: None,
            weight: None,
            penalty: false,
        }
    }

    /// `bound[x] : x = value`, for a variable its bounds fix (LP and QPLIB files).
    pub fn fixed(vars: &[Variable], i: u32, value: f64) -> Constraint {
        let lhs = Expr {
            constant: 0.0,
            linear: vec![(i, 1.0)],
            quadratic: Vec::new(),
        };
        Constraint::required(
            format!("bound[{}]", vars[i as usize].label),
            lhs,
            Sense::Eq,
            value,
        )
    }

    /// How far the assignment is from satisfying it (0 when it holds; dimod's violation:
    /// lhs − rhs for ≤, rhs − lhs for ≥, |lhs − rhs| for =, clipped at 0).
    pub fn violation(&self, vars: &[Variable], bits: &[u8]) -> f64 {
        let lhs = self.lhs.value(vars, bits);
        match self.sense {
            Sense::Le => (lhs - self.rhs).max(0.0),
            Sense::Ge => (self.rhs - lhs).max(0.0),
            Sense::Eq => (lhs - self.rhs).abs(),
        }
    }

    /// The name of the penalty weight it is scaled by.
    pub fn weight_name(&self) -> String {
        self.weight
            .clone()
            .unwrap_or_else(|| family_of(&self.label))
    }

    /// Whether it is required (not soft).
    pub fn is_hard(&self) -> bool {
        self.soft_weight.is_none()
    }
}

/// The absolute tolerance of feasibility checks (dimod's `check_feasible` default).
pub const FEASIBILITY_TOLERANCE: f64 = 1e-6;

/// A constraint's weight family from its label: the part before the first `[` or `(`
/// (`capacity[3]` → `capacity`), else the label without trailing digits and separators
/// (`c12` → `c`, `cap_3` → `cap`); a tuple's first element (`('c', 1)` → `c`); dimod's
/// unnamed constraints (`c` and hexadecimal digits) and bare numbers fall in `constraint`.
/// So a thousand constraints give a handful of sliders.
pub fn family_of(label: &str) -> String {
    // dimod names unnamed constraints `c` + hexadecimal digits (or a uuid's hex).
    let rest = label.strip_prefix('c').unwrap_or(label);
    let hexish = rest.len() >= 6
        && rest.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
        && rest.chars().any(|c| c.is_ascii_digit());
    if hexish {
        return "constraint".into();
    }
    // A tuple label, `('c', 1)`: its first element.
    if let Some(inner) = label.strip_prefix('(') {
        let first = inner.split(',').next().unwrap_or("").trim();
        let first = first.trim_matches(|c| c == '\'' || c == '"' || c == ')');
        return if first.is_empty() || first.chars().all(|c| c.is_ascii_digit()) {
            "constraint".into()
        } else {
            first.to_string()
        };
    }
    let head = match label.find(['[', '(']) {
        Some(p) if p > 0 => &label[..p],
        _ => label.trim_end_matches(|c: char| c.is_ascii_digit() || "_-.#,: ".contains(c)),
    };
    if head.is_empty() {
        "constraint".into()
    } else {
        head.to_string()
    }
}

/// A model with an objective and labelled constraints over binary and spin variables.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawModel")]
pub struct ConstrainedModel {
    /// Its name (LP's `\Problem name:`, the file's stem), for titles.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Minimise or maximise the objective.
    #[serde(default, skip_serializing_if = "is_minimize")]
    pub direction: Direction,
    /// The variables, by index.
    pub variables: Vec<Variable>,
    /// What to minimise (or maximise).
    #[serde(default)]
    pub objective: Expr,
    /// The constraints.
    #[serde(default)]
    pub constraints: Vec<Constraint>,
    /// Default values of weights, by name, when the model's author chose them (PyQUBO's
    /// feed_dict); the others take the encoder's defaults.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub weights: std::collections::BTreeMap<String, f64>,
}

fn is_minimize(d: &Direction) -> bool {
    *d == Direction::Minimize
}

/// The JSON form before its checks.
#[derive(Deserialize)]
struct RawModel {
    #[serde(default)]
    name: String,
    #[serde(default)]
    direction: Direction,
    variables: Vec<Variable>,
    #[serde(default)]
    objective: Expr,
    #[serde(default)]
    constraints: Vec<Constraint>,
    #[serde(default)]
    weights: std::collections::BTreeMap<String, f64>,
}

impl TryFrom<RawModel> for ConstrainedModel {
    type Error = String;
    fn try_from(raw: RawModel) -> Result<Self, String> {
        let model = ConstrainedModel {
            name: raw.name,
            direction: raw.direction,
            variables: raw.variables,
            objective: raw.objective,
            constraints: raw.constraints,
            weights: raw.weights,
        };
        model.validate()?;
        Ok(model)
    }
}

impl ConstrainedModel {
    /// Checks what every reader promises: sizes within budget, labels unique, indices in
    /// range, no self-products, every number finite.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.variables.len();
        if n > MAX_VARIABLES {
            return Err(format!(
                "{n} variables: more than the {MAX_VARIABLES} a model may have"
            ));
        }
        if self.constraints.len() > MAX_CONSTRAINTS {
            return Err(format!(
                "{} constraints: more than the {MAX_CONSTRAINTS} a model may have",
                self.constraints.len()
            ));
        }
        let mut seen = HashMap::with_capacity(n);
        for (k, v) in self.variables.iter().enumerate() {
            if v.label.is_empty() {
                return Err(format!("variable {} has an empty label", k + 1));
            }
            if let Some(first) = seen.insert(v.label.as_str(), k) {
                return Err(format!(
                    "variable '{}' is declared twice (variables {} and {})",
                    v.label,
                    first + 1,
                    k + 1
                ));
            }
        }
        let mut labels = HashMap::with_capacity(self.constraints.len());
        let mut terms = self.objective.num_terms();
        self.check_expr(&self.objective, "the objective")?;
        for c in &self.constraints {
            if let Some(_first) = labels.insert(c.label.as_str(), ()) {
                return Err(format!("constraint '{}' is defined twice", c.label));
            }
            self.check_expr(&c.lhs, &format!("constraint '{}'", c.label))?;
            if !c.rhs.is_finite() {
                return Err(format!(
                    "constraint '{}': right-hand side {} is not finite",
                    c.label, c.rhs
                ));
            }
            if let Some(w) = c.soft_weight
                && !(w.is_finite() && w >= 0.0)
            {
                return Err(format!(
                    "constraint '{}': soft weight {w} is not a finite number ≥ 0",
                    c.label
                ));
            }
            terms += c.lhs.num_terms();
        }
        for (name, v) in &self.weights {
            if !v.is_finite() {
                return Err(format!("weight '{name}': {v} is not a finite number"));
            }
        }
        if terms > MAX_TERMS {
            return Err(format!(
                "{terms} terms: more than the {MAX_TERMS} a model may have"
            ));
        }
        Ok(())
    }

    fn check_expr(&self, e: &Expr, what: &str) -> Result<(), String> {
        let n = self.variables.len() as u32;
        let bad = |v: f64| !v.is_finite();
        if bad(e.constant) {
            return Err(format!("{what}: the constant {} is not finite", e.constant));
        }
        for &(i, a) in &e.linear {
            if i >= n {
                return Err(format!("{what}: variable index {i} of {n}"));
            }
            if bad(a) {
                return Err(format!(
                    "{what}: coefficient {a} of '{}' is not finite",
                    self.variables[i as usize].label
                ));
            }
        }
        for &(i, j, b) in &e.quadratic {
            if i >= n || j >= n {
                return Err(format!("{what}: variable index {} of {n}", i.max(j)));
            }
            if i == j {
                return Err(format!(
                    "{what}: '{}' times itself (write it as a linear term)",
                    self.variables[i as usize].label
                ));
            }
            if bad(b) {
                return Err(format!("{what}: coefficient {b} is not finite"));
            }
        }
        Ok(())
    }

    /// The objective's value (as the model states it: larger is better when maximising).
    pub fn objective_value(&self, bits: &[u8]) -> f64 {
        self.objective.value(&self.variables, bits)
    }

    /// The required constraints the assignment breaks, with their violations (soft ones are
    /// priced, never required).
    pub fn violations(&self, bits: &[u8]) -> Vec<(usize, f64)> {
        self.constraints
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_hard())
            .map(|(k, c)| (k, c.violation(&self.variables, bits)))
            .filter(|&(_, v)| v > FEASIBILITY_TOLERANCE)
            .collect()
    }

    /// Gives constraint `label` a weight of its own (named after it), or back to its family's:
    /// a per-constraint override of the family's slider, kept in the model (and its file).
    pub fn set_own_weight(
        &mut self,
        label: &str,
        own: bool,
    ) -> Result<(), crate::puzzle::PuzzleError> {
        match self.constraints.iter_mut().find(|c| c.label == label) {
            Some(c) => {
                c.weight = own.then(|| label.to_string());
                Ok(())
            }
            None => {
                let some: Vec<&str> = self
                    .constraints
                    .iter()
                    .take(8)
                    .map(|c| c.label.as_str())
                    .collect();
                let more = if self.constraints.len() > 8 {
                    ", …"
                } else {
                    ""
                };
                Err(crate::puzzle::PuzzleError::Invalid(format!(
                    "no constraint '{label}' in the model (its constraints: {}{more})",
                    some.join(", ")
                )))
            }
        }
    }

    /// Whether every required constraint holds (dimod's `check_feasible`).
    pub fn is_feasible(&self, bits: &[u8]) -> bool {
        self.violations(bits).is_empty()
    }

    /// Whether `a` is a better objective value than `b` in this model's direction.
    pub fn better(&self, a: f64, b: f64) -> bool {
        match self.direction {
            Direction::Minimize => a < b,
            Direction::Maximize => a > b,
        }
    }

    /// The weight families, in order of first appearance, with their constraint counts.
    pub fn families(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for c in &self.constraints {
            let name = c.weight_name();
            match out.iter_mut().find(|(n, _)| *n == name) {
                Some(f) => f.1 += 1,
                None => out.push((name, 1)),
            }
        }
        out
    }

    /// A variable's index by label.
    pub fn index_of(&self, label: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.label == label)
    }
}

/// Builds a model term by term from labels (the readers' shared bookkeeping): variables are
/// added on first use, squares folded, repeated terms merged.
#[derive(Default)]
pub struct ModelBuilder {
    /// The model so far.
    pub model: ConstrainedModel,
    index: HashMap<String, u32>,
}

impl ModelBuilder {
    /// The index of `label`, declaring it (binary) on first use.
    pub fn var(&mut self, label: &str) -> Result<u32, String> {
        if let Some(&i) = self.index.get(label) {
            return Ok(i);
        }
        if self.model.variables.len() >= MAX_VARIABLES {
            return Err(format!(
                "more than the {MAX_VARIABLES} variables a model may have"
            ));
        }
        let i = self.model.variables.len() as u32;
        self.model.variables.push(Variable {
            label: label.to_string(),
            vartype: VarType::Binary,
        });
        self.index.insert(label.to_string(), i);
        Ok(i)
    }

    /// Whether `label` is a variable yet.
    pub fn has(&self, label: &str) -> bool {
        self.index.contains_key(label)
    }
}

/// Merges repeated terms and folds squares (binary x² = x, spin s² = 1) into a clean `Expr`.
pub fn tidy(vars: &[Variable], mut e: Expr) -> Expr {
    let mut linear: Vec<(u32, f64)> = Vec::with_capacity(e.linear.len());
    let mut quadratic = Vec::with_capacity(e.quadratic.len());
    for (i, j, b) in e.quadratic.drain(..) {
        if i == j {
            match vars[i as usize].vartype {
                VarType::Binary => e.linear.push((i, b)),
                VarType::Spin => e.constant += b,
            }
        } else {
            quadratic.push((i.min(j), i.max(j), b));
        }
    }
    e.linear.sort_by_key(|t| t.0);
    for (i, a) in e.linear {
        match linear.last_mut() {
            Some(last) if last.0 == i => last.1 += a,
            _ => linear.push((i, a)),
        }
    }
    quadratic.sort_by_key(|t: &(u32, u32, f64)| (t.0, t.1));
    let mut merged: Vec<(u32, u32, f64)> = Vec::with_capacity(quadratic.len());
    for (i, j, b) in quadratic {
        match merged.last_mut() {
            Some(last) if (last.0, last.1) == (i, j) => last.2 += b,
            _ => merged.push((i, j, b)),
        }
    }
    linear.retain(|t| t.1 != 0.0);
    merged.retain(|t| t.2 != 0.0);
    Expr {
        constant: e.constant,
        linear,
        quadratic: merged,
    }
}
