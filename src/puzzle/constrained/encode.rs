//! A constrained model as an `Encoding`: the objective under the weight `objective`, each
//! constraint a labelled group under its family's weight (`family_of`: `capacity[3]` →
//! `capacity`), so a thousand constraints give a handful of sliders.
//!
//! - Equalities: weight · (Σ aᵢxᵢ − b)² / s², s the constraint's step (the gcd of its
//!   coefficients, so one step off costs the weight); Σ xᵢ = 1 is a one-hot group (the moves
//!   hold it).
//! - Inequalities, by the formulation chosen: `slack` — binary slack variables turn them into
//!   equalities (as `dimod.cqm_to_bqm`; exact, log₂(range) more variables each; needs integer
//!   steps) — or `unbalanced` — h = (b − Σ aᵢxᵢ)/s priced λ₂h² − λ₁h with the paper's λ₁ = 0.96,
//!   λ₂ = 0.0371 and no extra variables (Montañez-Barrera et al., Quantum Sci. Technol. 2024):
//!   the penalty's minimum sits inside the feasible side, so feasible states are not all equal.
//!   Σ xᵢ ≤ 1 is an at-most-one group either way.
//! - Quadratic constraints only where the left side is a penalty already: all its coefficients
//!   ≥ 0 with `≤ 0` or `= 0` (x·y ≤ 0 forbids a pair).
//! - Soft constraints (dimod's `weight=`): their square under a weight of their own whose
//!   default is the file's weight.

use super::model::{ConstrainedModel, Expr, Sense};
use crate::puzzle::{EncodeOptions, Formulation, PuzzleError};
use crate::qubo::encoding::slack_weights;
use crate::qubo::{Encoding, EncodingBuilder, Label};

/// The formulations, the default first.
pub const FORMULATIONS: &[Formulation] = &[
    Formulation {
        name: "slack",
        summary: "inequalities become equalities with binary slack variables, as dimod.cqm_to_bqm: \
                  exact, a few more variables each",
    },
    Formulation {
        name: "unbalanced",
        summary: "inequalities priced by their slack h as 0.0371·h² − 0.96·h, no extra variables \
                  (unbalanced penalisation, Montañez-Barrera et al. 2024)",
    },
];

/// The unbalanced penalty's λ₁ and λ₂ (the paper's values for knapsack-like constraints on a
/// slack measured in coefficient steps).
const UNBALANCED: (f64, f64) = (0.96, 0.0371);

/// How one constraint is priced (shared by `encode` and `sample_of`, which must agree on the
/// slack variables).
#[derive(Clone, Debug)]
pub(super) enum Plan {
    /// Always holds (its bound is beyond anything the left side reaches): no group.
    Free,
    /// w · (Σ cᵢxᵢ + Σ slack − target)², coefficients already divided by the step; `slack`:
    /// the slack variables' weights (in steps).
    Square {
        terms: Vec<(u32, f64)>,
        target: f64,
        slack: Vec<u64>,
    },
    /// Σ xᵢ = 1.
    OneHot(Vec<u32>),
    /// Σ xᵢ ≤ 1.
    AtMostOne(Vec<u32>),
    /// The unbalanced penalty of Σ cᵢxᵢ ≤ bound (in steps).
    Unbalanced { terms: Vec<(u32, f64)>, bound: f64 },
    /// A quadratic left side that is its own penalty (sign ±1 applied).
    Itself(Expr),
}

/// The step of a linear constraint: the largest s with every coefficient and the right side a
/// whole multiple of it, found by scaling to integers (up to 10⁶); `None` when there is none.
fn step_of(coefficients: impl Iterator<Item = f64> + Clone, rhs: f64) -> Option<f64> {
    for k in 0..=6 {
        let scale = 10f64.powi(k);
        let whole = |v: f64| {
            let x = v * scale;
            (x - x.round()).abs() <= 1e-9 * x.abs().max(1.0) && x.abs() < 1e15
        };
        if coefficients.clone().all(whole) && whole(rhs) {
            let g = coefficients
                .clone()
                .map(|v| (v * scale).round().abs() as u64)
                .filter(|&v| v > 0)
                .fold(0u64, gcd);
            return (g > 0).then(|| g as f64 / scale);
        }
    }
    None
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// How each constraint is priced under `formulation` (0 slack, 1 unbalanced).
pub(super) fn plan(model: &ConstrainedModel, formulation: usize) -> Result<Vec<Plan>, PuzzleError> {
    let vars = &model.variables;
    let invalid =
        |label: &str, why: String| PuzzleError::Invalid(format!("constraint '{label}': {why}"));
    let mut out = Vec::with_capacity(model.constraints.len());
    for c in &model.constraints {
        let lhs = c.lhs.to_binary(vars);
        let target = c.rhs - lhs.constant;
        if c.penalty {
            // Its own penalty (a PyQUBO constraint): priced as it stands, held at 0.
            out.push(Plan::Itself(Expr {
                constant: lhs.constant - c.rhs,
                ..lhs
            }));
            continue;
        }
        if lhs.is_quadratic() {
            let sign = match c.sense {
                Sense::Ge => -1.0,
                _ => 1.0,
            };
            let all_nonneg = lhs.linear.iter().all(|t| sign * t.1 >= 0.0)
                && lhs.quadratic.iter().all(|t| sign * t.2 >= 0.0);
            if target == 0.0 && all_nonneg && (c.sense != Sense::Eq || sign > 0.0) {
                let e = Expr {
                    constant: 0.0,
                    linear: lhs.linear.iter().map(|&(i, a)| (i, sign * a)).collect(),
                    quadratic: lhs
                        .quadratic
                        .iter()
                        .map(|&(i, j, b)| (i, j, sign * b))
                        .collect(),
                };
                out.push(Plan::Itself(e));
                continue;
            }
            return Err(invalid(
                &c.label,
                "it is quadratic, and its penalty (lhs − rhs)² would be of degree four; a QUBO \
                 takes linear constraints, and quadratic ones only as Σ products ≤ 0 with \
                 coefficients ≥ 0"
                    .into(),
            ));
        }
        // Σ aᵢxᵢ ⋚ target, turned to ≤ for inequalities.
        let (terms, target) = match c.sense {
            Sense::Ge => (
                lhs.linear.iter().map(|&(i, a)| (i, -a)).collect::<Vec<_>>(),
                -target,
            ),
            _ => (lhs.linear.clone(), target),
        };
        let lo: f64 = terms.iter().map(|t| t.1.min(0.0)).sum();
        let hi: f64 = terms.iter().map(|t| t.1.max(0.0)).sum();
        let unit = terms.iter().all(|t| t.1 == 1.0);
        let vars_of = || terms.iter().map(|t| t.0).collect::<Vec<u32>>();
        if c.sense == Sense::Eq {
            if unit && target == 1.0 {
                out.push(Plan::OneHot(vars_of()));
                continue;
            }
            let step = step_of(terms.iter().map(|t| t.1), target)
                .or_else(|| {
                    terms
                        .iter()
                        .map(|t| t.1.abs())
                        .fold(None, |m: Option<f64>, a| Some(m.map_or(a, |m| m.min(a))))
                })
                .unwrap_or(1.0);
            out.push(Plan::Square {
                terms: terms.iter().map(|&(i, a)| (i, a / step)).collect(),
                target: target / step,
                slack: Vec::new(),
            });
            continue;
        }
        if hi <= target + 1e-9 * target.abs().max(1.0) {
            out.push(Plan::Free);
            continue;
        }
        if unit && target == 1.0 {
            out.push(Plan::AtMostOne(vars_of()));
            continue;
        }
        let step = step_of(terms.iter().map(|t| t.1), target);
        if formulation == 1 {
            let step = step.unwrap_or_else(|| {
                terms
                    .iter()
                    .map(|t| t.1.abs())
                    .fold(f64::INFINITY, f64::min)
            });
            out.push(Plan::Unbalanced {
                terms: terms.iter().map(|&(i, a)| (i, a / step)).collect(),
                bound: target / step,
            });
            continue;
        }
        let Some(step) = step else {
            return Err(invalid(
                &c.label,
                "its coefficients have no common step (not whole multiples of one number up to \
                 10⁻⁶), so binary slack cannot reach every value; choose the unbalanced \
                 formulation"
                    .into(),
            ));
        };
        // Slack s ≥ 0 with Σ aᵢxᵢ + s = target; s reaches target − lo at most.
        let range = ((target - lo) / step + 1e-9).floor().max(0.0);
        if range > (1u64 << 40) as f64 {
            return Err(invalid(
                &c.label,
                format!("its slack would range over {range} steps: too many"),
            ));
        }
        out.push(Plan::Square {
            terms: terms.iter().map(|&(i, a)| (i, a / step)).collect(),
            target: target / step,
            slack: slack_weights(range as u64),
        });
    }
    Ok(out)
}

/// The largest change one flip makes to the objective (over bits), rounded up to the next
/// 1, 2 or 5 × 10ᵏ above it: the default penalty weight, so that breaking a constraint by one
/// step costs more than any single flip can gain (equal would leave broken and kept states
/// tied). 1 for a model without objective.
pub(super) fn default_penalty(model: &ConstrainedModel) -> f64 {
    let obj = model.objective.to_binary(&model.variables);
    let mut reach = vec![0.0f64; model.variables.len()];
    for &(i, a) in &obj.linear {
        reach[i as usize] += a.abs();
    }
    for &(i, j, b) in &obj.quadratic {
        reach[i as usize] += b.abs();
        reach[j as usize] += b.abs();
    }
    let most = reach.iter().copied().fold(0.0, f64::max);
    if most <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(most.log10().floor());
    [1.0, 2.0, 5.0, 10.0, 20.0]
        .iter()
        .map(|m| m * p)
        .find(|&v| v > most * (1.0 + 1e-12))
        .unwrap_or(20.0 * p)
}

/// The weight name a constraint's family takes (never `objective`, which the objective has).
pub(super) fn family_weight(model: &ConstrainedModel, k: usize) -> String {
    let c = &model.constraints[k];
    let name = match c.soft_weight {
        Some(_) => c
            .weight
            .clone()
            .unwrap_or_else(|| format!("{}.soft", c.label)),
        None => c.weight_name(),
    };
    if name == "objective" {
        "objective constraints".into()
    } else {
        name
    }
}

/// The slack variables' label for constraint `label`.
fn slack_label(label: &str, k: usize) -> Label {
    Label::new(&format!("{label}.slack"), &[k as u32])
}

/// The encoding (see the module's comment).
pub fn encode(model: &ConstrainedModel, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
    let formulation = options.formulation_index(crate::puzzle::Kind::Constrained)?;
    let plans = plan(model, formulation)?;
    let mut b = EncodingBuilder::new();
    for v in &model.variables {
        b.variable(Label::new(&v.label, &[]));
    }
    let penalty = default_penalty(model);
    for (k, (c, plan)) in model.constraints.iter().zip(&plans).enumerate() {
        let name = family_weight(model, k);
        let default = model
            .weights
            .get(&name)
            .copied()
            .or(c.soft_weight)
            .unwrap_or(penalty);
        let help = match c.soft_weight {
            Some(_) => format!(
                "soft constraint '{}' (its file's weight by default)",
                c.label
            ),
            None => format!("penalty of the '{name}' constraints (one step off costs this)"),
        };
        let w = b.weight(&name, default, (0.0, 10.0 * default.max(1e-9)), &help);
        let label = c.label.clone();
        match plan {
            Plan::Free => {}
            Plan::OneHot(vars) => b.add_one_hot(label, w, vars),
            Plan::AtMostOne(vars) => b.add_at_most_one(label, w, vars),
            Plan::Itself(e) => b.add_group(
                label,
                w,
                e.constant,
                e.linear.clone(),
                e.quadratic.clone(),
                0.0,
            ),
            Plan::Square {
                terms,
                target,
                slack,
            } => {
                let mut all = terms.clone();
                for (j, &s) in slack.iter().enumerate() {
                    let v = b.variable(slack_label(&c.label, j));
                    all.push((v, s as f64));
                }
                b.add_square(label, w, &all, *target);
            }
            Plan::Unbalanced { terms, bound } => {
                // h = bound − Σ aᵢxᵢ;  λ₂h² − λ₁h = λ₂(bound² − 2·bound·Σ + Σ²) − λ₁(bound − Σ).
                let (l1, l2) = UNBALANCED;
                let constant = l2 * bound * bound - l1 * bound;
                let linear = terms
                    .iter()
                    .map(|&(i, a)| (i, l2 * (a * a - 2.0 * bound * a) + l1 * a))
                    .collect();
                let mut quadratic = Vec::new();
                for (x, &(i, a)) in terms.iter().enumerate() {
                    for &(j, c2) in &terms[x + 1..] {
                        quadratic.push((i, j, 2.0 * l2 * a * c2));
                    }
                }
                b.add_at_most(label, w, constant, linear, quadratic, terms.clone(), *bound);
            }
        }
    }
    // The objective last, so the families' sliders come first (the sweep offers the first).
    let objective = model.objective.to_binary(&model.variables);
    if objective.num_terms() > 0 || objective.constant != 0.0 {
        let w = b.weight(
            "objective",
            model.weights.get("objective").copied().unwrap_or(1.0),
            (0.0, 10.0),
            "scales the objective against the constraints' penalties",
        );
        let sign = match model.direction {
            super::model::Direction::Minimize => 1.0,
            super::model::Direction::Maximize => -1.0,
        };
        b.add_objective(
            "objective".into(),
            w,
            sign * objective.constant,
            objective
                .linear
                .iter()
                .map(|&(i, a)| (i, sign * a))
                .collect(),
            objective
                .quadratic
                .iter()
                .map(|&(i, j, q)| (i, j, sign * q))
                .collect(),
        );
    }
    Ok(b.build())
}

/// The model's assignment in a sample (its first variables; slack follows them).
pub fn decode(model: &ConstrainedModel, sample: &[u8]) -> Vec<u8> {
    let n = model.variables.len();
    sample.iter().take(n).copied().collect()
}

/// The sample of an assignment in an encoding of `encoded_vars` variables: its bits, then
/// each constraint's slack at the value that closes it (the nearest one when the constraint
/// is broken). An encoding without slack variables (the unbalanced formulation, or none
/// needed) is the bits alone.
pub fn sample_of(model: &ConstrainedModel, encoded_vars: usize, bits: &[u8]) -> Option<Vec<u8>> {
    if bits.len() != model.variables.len() {
        return None;
    }
    let mut out = bits.to_vec();
    if encoded_vars == out.len() {
        return Some(out);
    }
    for plan in plan(model, 0).ok()? {
        if let Plan::Square {
            terms,
            target,
            slack,
        } = plan
        {
            if slack.is_empty() {
                continue;
            }
            let sum: f64 = terms
                .iter()
                .filter(|t| bits[t.0 as usize] != 0)
                .map(|t| t.1)
                .sum();
            let total: u64 = slack.iter().sum();
            let mut left = (target - sum).round().clamp(0.0, total as f64) as u64;
            let mut chosen = vec![0u8; slack.len()];
            for (j, &s) in slack.iter().enumerate().rev() {
                if s <= left {
                    chosen[j] = 1;
                    left -= s;
                }
            }
            out.extend(chosen);
        }
    }
    (out.len() == encoded_vars).then_some(out)
}
