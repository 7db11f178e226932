//! The sweep panel's axes: a weight or a parameter of the solver panel's sampler, its range
//! widgets and where a parameter's range starts, and the values an axis's settings give.

use crate::sweep::values;

/// An axis's from/to (and, for a parameter, log steps).
pub(super) fn range_widgets(
    ui: &mut egui::Ui,
    [from, to]: [&mut f64; 2],
    log: &mut bool,
    param: bool,
) {
    let speed = if param {
        (to.abs() / 100.0).max(0.1)
    } else {
        0.1
    };
    ui.add(egui::DragValue::new(from).speed(speed).prefix("from "));
    ui.add(egui::DragValue::new(to).speed(speed).prefix("to "));
    if param {
        ui.checkbox(log, "log steps").on_hover_text(
            "geometric steps from the first value to the last (sweep counts in decades)",
        );
    }
}

/// Where a weight axis starts when chosen: from the weight's slider minimum to twice its
/// default (within the slider's range), so the default sits inside and the sweep shows both
/// sides of it (Sudoku's hint: 0 to 10, across the threshold at 4 that its default 6 clears).
pub(super) fn weight_range(spec: &crate::qubo::WeightSpec) -> (f64, f64) {
    let to = (2.0 * spec.default).clamp(spec.min, spec.max);
    if to > spec.min {
        (spec.min, to)
    } else {
        (spec.min, spec.max)
    }
}

/// Where a parameter axis starts when chosen: a tenth to ten times its default, in log steps,
/// for counts (num_sweeps 100–10 000); half to twice it for other numbers; clamped to its range.
pub(super) fn starting_range(spec: &crate::params::ParamSpec) -> (f64, f64, bool) {
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

/// A parameter's value as the panel says it (a word without quotes).
pub(super) fn axis_word(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(w) => w.clone(),
        other => other.to_string(),
    }
}

/// One axis as the settings describe it: a weight, or a sampler parameter when `param` is set.
pub(super) struct AxisSetting<'a> {
    pub(super) weight: &'a str,
    pub(super) param: &'a str,
    pub(super) from: f64,
    pub(super) to: f64,
    pub(super) steps: usize,
    pub(super) log: bool,
}

impl<'a> AxisSetting<'a> {
    /// The sweep's first and second axes as its settings describe them.
    pub(super) fn both(sw: &'a crate::gui::settings::SweepSettings) -> [AxisSetting<'a>; 2] {
        [
            AxisSetting {
                weight: &sw.weight,
                param: &sw.param,
                from: sw.from,
                to: sw.to,
                steps: sw.setup.steps,
                log: sw.log,
            },
            AxisSetting {
                weight: &sw.weight2,
                param: &sw.param2,
                from: sw.from2,
                to: sw.to2,
                steps: sw.setup.steps2,
                log: sw.log2,
            },
        ]
    }

    pub(super) fn is_param(&self) -> bool {
        !self.param.is_empty()
    }

    pub(super) fn name(&self) -> &str {
        if self.is_param() {
            self.param
        } else {
            self.weight
        }
    }

    /// The axis's values: a range (log-spaced when asked; whole numbers for counts), or every
    /// category of a word parameter.
    pub(super) fn values(&self, sampler: &str) -> Result<Vec<f64>, String> {
        if !self.is_param() {
            return values(self.from, self.to, self.steps).map_err(|e| e.to_string());
        }
        let axis = crate::sweep::ParamAxis::of(sampler, self.param).map_err(|e| e.to_string())?;
        if axis.categories().is_some() {
            return crate::sweep::category_values(&axis, &[]).map_err(|e| e.to_string());
        }
        crate::sweep::numeric_values(self.from, self.to, self.steps, self.log, axis.whole())
            .map_err(|e| format!("{}: {e}", self.param))
    }
}
