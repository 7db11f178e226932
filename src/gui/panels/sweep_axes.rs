//! The sweep panel's axes: a weight or a parameter of the solver panel's sampler, its range
//! widgets, and the values an axis's settings give (where a range starts is the library's,
//! `sweep::weight_starting_range` and `param_starting_range`, which `sweep` uses too).

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
