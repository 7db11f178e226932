//! What a sweep axis varies: a penalty weight of the encoding, or a parameter of the sampler
//! (`num_sweeps`, `num_replicas`, `gamma`, `moves`…, read from its `ParamSpec`). Numeric
//! parameters take evenly or geometrically spaced values (whole numbers for counts); words,
//! switches and sets are categories, a point's value being the category's index. One end of a
//! pair (`beta_range[1]`, the cold β) is an axis too; the other end stays as set.
//!
//! A point's sampler is the given one with the axis values set (and seed + r for its r-th run),
//! built through the registry, so every value is checked as the CLI checks it.

use serde_json::Value;

use super::SweepError;
use crate::params::{ParamSpec, ParamType, ParamValues};
use crate::sampler::Sampler;

/// One axis of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axis<'a> {
    /// A penalty weight of the encoding, by name.
    Weight(&'a str),
    /// A sampler parameter, by name; one end of a pair as `name[0]` or `name[1]`.
    Param(&'a str),
}

impl<'a> Axis<'a> {
    /// The name it goes by (the weight's, or the parameter's as written).
    pub fn name(&self) -> &'a str {
        match *self {
            Axis::Weight(n) | Axis::Param(n) => n,
        }
    }
}

/// A sampler parameter as a sweep axis.
#[derive(Clone, Debug)]
pub struct ParamAxis {
    /// Its description.
    pub spec: ParamSpec,
    /// For a pair: the end swept (0 or 1).
    pub end: Option<usize>,
}

impl ParamAxis {
    /// The axis `name` of sampler `sampler` (`beta_range[1]` for one end of a pair).
    pub fn of(sampler: &str, name: &str) -> Result<ParamAxis, SweepError> {
        let entry = crate::samplers::entry(sampler).map_err(|e| SweepError::Axis(e.to_string()))?;
        let (base, end) = match name.strip_suffix(']').and_then(|n| n.split_once('[')) {
            Some((base, "0")) => (base, Some(0)),
            Some((base, "1")) => (base, Some(1)),
            Some((base, k)) => {
                return Err(SweepError::Axis(format!(
                    "'{name}': a pair's ends are {base}[0] and {base}[1], not [{k}]"
                )));
            }
            None => (name, None),
        };
        let Some(spec) = entry.params.iter().find(|p| p.name == base).copied() else {
            let known: Vec<&str> = entry
                .params
                .iter()
                .filter(|p| p.exposed && Self::sweepable(p))
                .map(|p| p.name)
                .collect();
            return Err(SweepError::Axis(format!(
                "sampler '{sampler}' has no parameter '{base}' (sweepable: {})",
                known.join(", ")
            )));
        };
        match (spec.ty, end) {
            (ParamType::FloatPair { .. }, None) => Err(SweepError::Axis(format!(
                "'{base}' is a pair: sweep one end, {base}[0] or {base}[1], with the other set"
            ))),
            (ParamType::FloatPair { .. }, Some(_)) => Ok(ParamAxis { spec, end }),
            (_, Some(_)) => Err(SweepError::Axis(format!("'{base}' is not a pair"))),
            _ if Self::sweepable(&spec) && spec.name != "seed" => Ok(ParamAxis { spec, end }),
            _ => Err(SweepError::Axis(format!(
                "'{base}' cannot be swept (a list, a text or the seed: repeats reseed each run)"
            ))),
        }
    }

    fn sweepable(p: &ParamSpec) -> bool {
        !matches!(p.ty, ParamType::FloatList { .. } | ParamType::Text { .. }) && p.name != "seed"
    }

    /// The categories of a word, switch or set parameter (a point's value is an index into
    /// them); `None` for numbers.
    pub fn categories(&self) -> Option<Vec<String>> {
        match self.spec.ty {
            ParamType::Choice(words) => Some(words.iter().map(|w| w.to_string()).collect()),
            ParamType::Bool => Some(vec!["false".into(), "true".into()]),
            ParamType::IntSet(set) => Some(set.iter().map(u64::to_string).collect()),
            _ => None,
        }
    }

    /// Whether values must be whole numbers.
    pub fn whole(&self) -> bool {
        matches!(self.spec.ty, ParamType::Int { .. })
    }

    /// The parameter's value at axis value `v`, given the sampler's current parameters (a
    /// pair's other end comes from them).
    fn value_at(&self, current: &ParamValues, v: f64) -> Result<Value, SweepError> {
        if let Some(words) = self.categories() {
            let k = v as usize;
            if v.fract() != 0.0 || v < 0.0 || k >= words.len() {
                return Err(SweepError::Axis(format!(
                    "{v} is not a category of '{}' (0 to {})",
                    self.spec.name,
                    words.len() - 1
                )));
            }
            return Ok(match self.spec.ty {
                ParamType::Bool => Value::from(k == 1),
                ParamType::IntSet(set) => Value::from(set[k]),
                _ => Value::from(words[k].clone()),
            });
        }
        if let Some(end) = self.end {
            let pair = current
                .get(self.spec.name)
                .and_then(Value::as_array)
                .filter(|a| a.len() == 2)
                .ok_or_else(|| {
                    SweepError::Axis(format!(
                        "sweeping {}[{end}] keeps the other end as set: give {} first",
                        self.spec.name, self.spec.name
                    ))
                })?;
            let mut pair = pair.clone();
            pair[end] = Value::from(v);
            return Ok(Value::Array(pair));
        }
        if self.whole() {
            if v.fract() != 0.0 || v < 0.0 {
                return Err(SweepError::Axis(format!(
                    "'{}' takes whole numbers, not {v}",
                    self.spec.name
                )));
            }
            return Ok(Value::from(v as u64));
        }
        Ok(Value::from(v))
    }

    /// What a point's axis value says, for tables and labels (the word of a category).
    pub fn text(&self, v: f64) -> String {
        match self.categories() {
            Some(words) => words
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| v.to_string()),
            None => crate::io::number_text(v),
        }
    }
}

/// `steps` values from `from` to `to` spaced evenly (`log`: geometrically, both ends above 0);
/// whole numbers for an axis that takes them, refused when rounding would repeat a value.
pub fn numeric_values(
    from: f64,
    to: f64,
    steps: usize,
    log: bool,
    whole: bool,
) -> Result<Vec<f64>, SweepError> {
    let mut values = if log {
        if !(from > 0.0 && to > 0.0) {
            return Err(SweepError::Range(format!(
                "log steps need both ends above 0, not {from} and {to}"
            )));
        }
        super::values(from.ln(), to.ln(), steps)?
            .into_iter()
            .map(f64::exp)
            .collect()
    } else {
        super::values(from, to, steps)?
    };
    if log {
        // exp(ln(x)) may miss an end by an ulp: the ends are the ones asked for.
        values[0] = from;
        if let Some(last) = values.last_mut()
            && steps > 1
        {
            *last = to;
        }
    }
    if whole {
        for v in &mut values {
            *v = v.round();
        }
        if values.windows(2).any(|w| w[0] == w[1]) {
            return Err(SweepError::Range(format!(
                "{steps} whole-number steps from {from} to {to} repeat a value (fewer steps, \
                 or a wider range)"
            )));
        }
    }
    Ok(values)
}

/// Every category of the axis, or the ones named (by word or index), as axis values.
pub fn category_values(axis: &ParamAxis, named: &[String]) -> Result<Vec<f64>, SweepError> {
    let words = axis.categories().ok_or_else(|| {
        SweepError::Axis(format!(
            "'{}' is a number: give a range (from, to, steps), not categories",
            axis.spec.name
        ))
    })?;
    if named.is_empty() {
        return Ok((0..words.len()).map(|k| k as f64).collect());
    }
    let mut values = Vec::new();
    for name in named {
        let k = words.iter().position(|w| w == name.trim()).ok_or_else(|| {
            SweepError::Axis(format!(
                "'{name}' is not a value of '{}' ({})",
                axis.spec.name,
                words.join(", ")
            ))
        })?;
        if values.contains(&(k as f64)) {
            return Err(SweepError::Axis(format!("'{name}' is listed twice")));
        }
        values.push(k as f64);
    }
    Ok(values)
}

/// The sampler for a point's run `r`: the given one's parameters with `set` applied and, for
/// r > 0 with a fixed seed, seed + r (as `reseeded`).
pub(super) fn sampler_with(
    sampler: &dyn Sampler,
    set: &[(String, Value)],
    r: usize,
) -> Result<Box<dyn Sampler>, SweepError> {
    let mut values = current_params(sampler);
    for (name, value) in set {
        values.insert(name.clone(), value.clone());
    }
    if r > 0
        && let Some(seed) = values.get("seed").and_then(Value::as_u64)
    {
        values.insert("seed".into(), seed.wrapping_add(r as u64).into());
    }
    crate::samplers::sampler_from_params(sampler.name(), &values)
        .map_err(|e| SweepError::Axis(e.to_string()))
}

/// The sampler's parameters that are set (nulls are "auto" and stay unset).
pub(super) fn current_params(sampler: &dyn Sampler) -> ParamValues {
    let params = sampler.params();
    params
        .as_object()
        .map(|o| {
            o.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// The parameter values a point sets: `(name, value)` for each parameter axis at its value.
pub(super) fn point_params(
    sampler: &dyn Sampler,
    axes: &[(&ParamAxis, f64)],
) -> Result<Vec<(String, Value)>, SweepError> {
    let current = current_params(sampler);
    axes.iter()
        .map(|(axis, v)| Ok((axis.spec.name.to_string(), axis.value_at(&current, *v)?)))
        .collect()
}

/// Where a weight axis starts when no range is given (the window's choice of the weight, `sweep`
/// without --from/--to): from the weight's slider minimum to twice its
/// default (within the slider's range), so the default sits inside and the sweep shows both
/// sides of it (Sudoku's hint: 0 to 10, across the threshold at 4 that its default 6 clears).
pub fn weight_starting_range(spec: &crate::qubo::WeightSpec) -> (f64, f64) {
    let to = (2.0 * spec.default).clamp(spec.min, spec.max);
    if to > spec.min {
        (spec.min, to)
    } else {
        (spec.min, spec.max)
    }
}

/// Where a parameter axis starts when no range is given: a tenth to ten times its default, in log steps,
/// for counts (num_sweeps 100–10 000); half to twice it for other numbers; clamped to its range.
pub fn param_starting_range(spec: &crate::params::ParamSpec) -> (f64, f64, bool) {
    use crate::params::{ParamDefault, ParamType};
    let default = match spec.default {
        ParamDefault::Int(v) => v as f64,
        ParamDefault::Float(v) => v,
        _ => 1.0,
    };
    match spec.ty {
        ParamType::Int { min, max } => (
            (default / 10.0)
                .round()
                .clamp(min.max(1) as f64, max as f64),
            (default * 10.0).clamp(min.max(1) as f64, max as f64),
            true,
        ),
        ParamType::Float { min, max } | ParamType::FloatPair { min, max } => {
            let d = if default > 0.0 { default } else { 1.0 };
            ((d / 2.0).clamp(min, max), (d * 2.0).clamp(min, max), false)
        }
        _ => (0.0, 1.0, false),
    }
}
