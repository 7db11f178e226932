//! `EncodingBuilder`: how encoders add weights, variables and constraint groups.

use super::*;

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
    conditions: Vec<WeightCondition>,
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

    /// Declares a relation among weights a guarantee of the encoding rests on (see
    /// `WeightCondition`): Σ coefficient × weight ≥ 0, or > 0 when `strict`; `relation` says it
    /// in words and `otherwise` what is lost while it fails.
    pub fn condition(
        &mut self,
        terms: &[(u16, f64)],
        strict: bool,
        relation: &str,
        otherwise: &str,
    ) {
        self.conditions.push(WeightCondition {
            terms: terms.to_vec(),
            strict,
            relation: relation.to_string(),
            otherwise: otherwise.to_string(),
        });
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
            role: Role::AtMinimum,
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
            role: Role::AtMinimum,
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
            role: Role::AtMinimum,
        });
    }

    /// An objective's terms, weight · (constant + Σ linear + Σ quadratic): priced like a
    /// group, but never held or broken (a constrained model's objective). An encoding with one
    /// has no ground energy known from its groups (`Encoding::ground_from_groups`).
    pub fn add_objective(
        &mut self,
        label: String,
        weight: u16,
        constant: f64,
        linear: Vec<(u32, f64)>,
        quadratic: Vec<(u32, u32, f64)>,
    ) {
        self.groups.push(Group {
            label,
            weight,
            constant,
            linear,
            quadratic,
            square: None,
            satisfied: 0.0,
            role: Role::Objective,
        });
    }

    /// An inequality Σ cᵢxᵢ ≤ bound priced without slack variables by the terms given (the
    /// unbalanced penalty: −λ₁h + λ₂h² of h = bound − Σ cᵢxᵢ): it holds when the sum is within
    /// the bound, whatever its energy there.
    #[allow(clippy::too_many_arguments)]
    pub fn add_at_most(
        &mut self,
        label: String,
        weight: u16,
        constant: f64,
        linear: Vec<(u32, f64)>,
        quadratic: Vec<(u32, u32, f64)>,
        terms: Vec<(u32, f64)>,
        bound: f64,
    ) {
        self.groups.push(Group {
            label,
            weight,
            constant,
            linear,
            quadratic,
            square: None,
            satisfied: 0.0,
            role: Role::AtMost { terms, bound },
        });
    }

    /// Compiles the re-weighting table; the builder's groups are kept for reports.
    pub fn build(self) -> Encoding {
        let mut e = Encoding::compile(self.labels, self.specs, self.groups, Vec::new(), None);
        e.conditions = self.conditions;
        e
    }

    /// An encoding with its variables and weights but no stored terms, for a model too large
    /// to store (sampled through its structure, `Puzzle::structure`): `qubo` refuses it with
    /// `reason`; decoding, labels and weight sliders work as usual.
    pub fn build_unstored(self, reason: String) -> Encoding {
        let mut e = Encoding::compile(
            self.labels,
            self.specs,
            Vec::new(),
            Vec::new(),
            Some(reason),
        );
        e.conditions = self.conditions;
        e
    }
}
