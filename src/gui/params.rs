//! Widgets drawn from parameter descriptions (`params::ParamSpec`): the solver panel's sampler
//! parameters and the puzzle panel's generator form. The help text is the tooltip; ranges come
//! from the description, so the GUI never offers a value the CLI would refuse.

use serde_json::Value;

use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};

/// One widget per exposed parameter, editing `values` in place (missing entries show their
/// default). Returns true when something changed.
pub fn params_ui(
    ui: &mut egui::Ui,
    id: &str,
    specs: &[ParamSpec],
    values: &mut ParamValues,
) -> bool {
    let mut changed = false;
    for spec in specs.iter().filter(|s| s.exposed) {
        let current = values
            .get(spec.name)
            .cloned()
            .unwrap_or_else(|| spec.default_value());
        let mut value = current.clone();
        ui.push_id((id, spec.name), |ui| param_ui(ui, spec, &mut value));
        if value != current {
            values.insert(spec.name.to_string(), value);
            changed = true;
        }
    }
    changed
}

/// Widgets for `specs` of a settings struct described by them (the sweep's setup, its stopping
/// rule, the suggestion's budget): `setting` takes only values `from_values` accepts.
pub fn described_ui<T>(
    ui: &mut egui::Ui,
    id: &str,
    specs: &[ParamSpec],
    setting: &mut T,
    values: impl Fn(&T) -> ParamValues,
    from_values: impl Fn(&ParamValues) -> Result<T, crate::params::ParamError>,
) {
    let mut edited = values(setting);
    if params_ui(ui, id, specs, &mut edited)
        && let Ok(changed) = from_values(&edited)
    {
        *setting = changed;
    }
}

fn param_ui(ui: &mut egui::Ui, spec: &ParamSpec, value: &mut Value) {
    let help = match spec.default {
        ParamDefault::Auto(what) => format!("{} (unset: {what})", spec.help),
        _ => format!("{} (default {})", spec.help, spec.default_value()),
    };
    ui.horizontal(|ui| {
        // Optional parameters: a checkbox switches between "automatic" and a value.
        if let ParamDefault::Auto(_) = spec.default {
            let mut set = !value.is_null();
            if ui
                .checkbox(&mut set, spec.name)
                .on_hover_text(&help)
                .changed()
            {
                *value = if set { first_value(spec) } else { Value::Null };
            }
            if value.is_null() {
                ui.weak("auto");
                return;
            }
        }
        let label = if spec.optional() { "" } else { spec.name };
        value_ui(ui, spec, label, value, &help);
    });
}

/// A value to start from when an optional parameter is switched on.
fn first_value(spec: &ParamSpec) -> Value {
    match spec.ty {
        ParamType::Int { min, .. } => Value::from(min.max(1)),
        ParamType::IntSet(set) => Value::from(set.first().copied().unwrap_or(0)),
        ParamType::Float { min, .. } => Value::from(min.max(0.1)),
        ParamType::FloatPair { min, .. } => Value::from(vec![min.max(0.1), min.max(0.1) * 100.0]),
        ParamType::FloatList { min, .. } => Value::from(vec![min.max(0.1)]),
        ParamType::Choice(words) => Value::from(words.first().copied().unwrap_or("")),
        ParamType::Bool => Value::from(false),
        ParamType::Text { .. } => Value::from(""),
    }
}

fn value_ui(ui: &mut egui::Ui, spec: &ParamSpec, label: &str, value: &mut Value, help: &str) {
    match spec.ty {
        ParamType::Int { min, max } => {
            let mut v = value.as_u64().unwrap_or(min);
            let speed = ((max - min) as f64 / 2000.0).clamp(1.0, 1000.0);
            if ui
                .add(
                    egui::DragValue::new(&mut v)
                        .range(min..=max)
                        .speed(speed)
                        .prefix(format!("{label} ")),
                )
                .on_hover_text(help)
                .changed()
            {
                *value = Value::from(v);
            }
        }
        ParamType::IntSet(set) => {
            let v = value.as_u64().unwrap_or(0);
            egui::ComboBox::from_label(label)
                .selected_text(v.to_string())
                .show_ui(ui, |ui| {
                    for &option in set {
                        if ui
                            .selectable_label(v == option, option.to_string())
                            .clicked()
                        {
                            *value = Value::from(option);
                        }
                    }
                })
                .response
                .on_hover_text(help);
        }
        ParamType::Float { min, max } => {
            let mut v = value.as_f64().unwrap_or(min);
            if ui
                .add(
                    egui::DragValue::new(&mut v)
                        .range(min..=max)
                        .speed(0.01)
                        .prefix(format!("{label} ")),
                )
                .on_hover_text(help)
                .changed()
            {
                *value = Value::from(v);
            }
        }
        ParamType::FloatPair { min, max } => {
            let mut pair: Vec<f64> = value
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default();
            pair.resize(2, min);
            let mut changed = false;
            for (k, v) in pair.iter_mut().enumerate() {
                changed |= ui
                    .add(
                        egui::DragValue::new(v)
                            .range(min.max(1e-6)..=max)
                            .speed(0.01 * (k as f64 * 10.0 + 1.0))
                            .prefix(format!("{label}{} ", if k == 0 { " hot" } else { " cold" })),
                    )
                    .on_hover_text(help)
                    .changed();
            }
            if changed {
                *value = Value::from(pair);
            }
        }
        ParamType::FloatList { .. } => {
            // Lists (custom β schedules) are long: shown, edited from the CLI or a settings file.
            let n = value.as_array().map_or(0, Vec::len);
            ui.label(format!("{label} {n} values")).on_hover_text(help);
        }
        ParamType::Choice(words) => {
            let v = value.as_str().unwrap_or("").to_string();
            egui::ComboBox::from_label(label)
                .selected_text(v.clone())
                .show_ui(ui, |ui| {
                    for &w in words {
                        if ui.selectable_label(v == w, w).clicked() {
                            *value = Value::from(w);
                        }
                    }
                })
                .response
                .on_hover_text(help);
        }
        ParamType::Bool => {
            let mut b = value.as_bool().unwrap_or(false);
            if ui.checkbox(&mut b, label).on_hover_text(help).changed() {
                *value = Value::from(b);
            }
        }
        ParamType::Text { max_len } => {
            let mut t = value.as_str().unwrap_or("").to_string();
            let name = (!label.is_empty()).then(|| ui.label(label).id);
            let edit = egui::TextEdit::singleline(&mut t)
                .char_limit(max_len)
                .desired_width(220.0);
            let mut field = ui.add(edit);
            // Named by its label, for screen readers (and tests).
            if let Some(name) = name {
                field = field.labelled_by(name);
            }
            if field.on_hover_text(help).changed() {
                *value = Value::from(t);
            }
        }
    }
}

/// The values that differ from their defaults, in words (`seed 3 · no_guess true`), for lists
/// of what was made with them; "defaults" when none differs.
pub fn summary(specs: &[ParamSpec], values: &ParamValues) -> String {
    let words: Vec<String> = specs
        .iter()
        .filter_map(|spec| {
            let v = values.get(spec.name)?;
            (*v != spec.default_value()).then(|| {
                let shown = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                format!("{} {shown}", spec.name)
            })
        })
        .collect();
    if words.is_empty() {
        "defaults".into()
    } else {
        words.join(" · ")
    }
}
