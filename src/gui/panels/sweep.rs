//! Weight sweep and suggestion: one weight (or a grid of two) sampled in the background, the
//! answers drawn by the same chart the CLI exports — valid fraction with its interval, ground
//! fraction and "penalty too weak" flags, or a heatmap of TTS99 / valid / weak — and a search
//! that suggests weights. A click on the plot sets the weight(s) of that point; a click on a
//! flagged point shows its witness (the invalid read that beats a valid solution) drawn on the
//! board. Weights without terms are not offered (the slider says why).

use std::path::Path;

use super::sweep_axes::{AxisSetting, axis_word, range_widgets};
use crate::gui::document::SavedSweep;
use crate::gui::file_actions::FileAction;
use crate::gui::jobs::{
    SweepInput, SweepJob, SweepMessage, SweepRequest, TuneJob, TuneMessage, start_tune,
};
use crate::gui::shared::{Command, Shared};
use crate::sweep::{Metric, Suggestion, SweepChart, SweepPoint};
use crate::sweep::{param_starting_range, weight_starting_range};

/// The sweep panel: its points, the running sweep or suggestion, and what was clicked.
#[derive(Default)]
pub struct SweepPanel {
    /// Points of the last (or running) sweep.
    pub points: Vec<SweepPoint>,
    job: Option<SweepJob>,
    /// Weight the points belong to (and the second one of a grid), or sampler parameters.
    weight: String,
    weight2: Option<String>,
    /// Which of the two axes are sampler parameters.
    params: [bool; 2],
    /// The running suggestion and the points it tried so far.
    tune: Option<TuneJob>,
    /// Points the running (or last) suggestion tried, with whether it moved there.
    pub tried: Vec<(SweepPoint, bool)>,
    /// The last suggestion.
    pub suggestion: Option<Suggestion>,
    /// The point whose witness is shown (a flagged point clicked).
    pub witness_of: Option<usize>,
    /// Where a relation among the weights flips on the swept weight (`with_marks`).
    marks: Vec<(f64, String)>,
    /// The plot in its own window, full size.
    enlarged: bool,
    /// The metric chosen in the panel (exports use it too).
    metric: Option<Metric>,
}

impl SweepPanel {
    /// The sweep and the suggestion in flight, for the window's task list.
    pub fn running_tasks(&self) -> Vec<crate::gui::tasks::RunningTask> {
        use crate::gui::tasks::RunningTask;
        let mut tasks = Vec::new();
        if let Some(j) = &self.job {
            tasks.push(RunningTask {
                name: "sweep",
                detail: format!("{} / {} points", self.points.len(), j.total),
            });
        }
        if self.tune.is_some() {
            tasks.push(RunningTask {
                name: "suggest weights",
                detail: format!("{} tried", self.tried.len()),
            });
        }
        tasks
    }

    /// Whether a sweep or a suggestion is going.
    pub fn is_running(&self) -> bool {
        self.job.is_some() || self.tune.is_some()
    }

    /// The finished sweep and suggestion, to keep with the document (`None`: nothing to keep).
    pub fn saved(&self) -> Option<SavedSweep> {
        (!self.points.is_empty() || self.suggestion.is_some()).then(|| SavedSweep {
            weight: self.weight.clone(),
            weight2: self.weight2.clone(),
            params: self.params,
            points: self.points.clone(),
            suggestion: self.suggestion.clone(),
            marks: self.marks.clone(),
        })
    }

    /// Shows a kept sweep again (a restored document).
    pub fn restore(&mut self, saved: SavedSweep) {
        self.clear();
        self.weight = saved.weight;
        self.weight2 = saved.weight2;
        self.params = saved.params;
        self.points = saved.points;
        self.suggestion = saved.suggestion;
        self.marks = saved.marks;
    }

    /// Cancels the sweep or suggestion going on (what it measured so far stays).
    pub fn cancel(&self) {
        if let Some(j) = &self.job {
            j.control.cancel();
        }
        if let Some(j) = &self.tune {
            j.control.cancel();
        }
    }

    /// Cancels and forgets everything (a new document).
    pub fn clear(&mut self) {
        self.cancel();
        *self = SweepPanel::default();
    }

    /// Takes what arrived (called from `Workbench::logic`).
    pub fn poll(&mut self, s: &mut Shared) {
        if let Some(job) = &self.job {
            for m in job.poll() {
                match m {
                    SweepMessage::Point(p) => {
                        // Points finish in any order (side by side, coarse grid first): keep
                        // them in grid order for the chart.
                        self.points.push(*p);
                        self.points.sort_by(|a, b| {
                            a.value
                                .total_cmp(&b.value)
                                .then(a.value2.unwrap_or(0.0).total_cmp(&b.value2.unwrap_or(0.0)))
                        });
                    }
                    SweepMessage::Done(r) => {
                        self.job = None;
                        s.status = match r {
                            Ok(()) => format!("sweep done: {} points", self.points.len()),
                            Err(e) => format!("sweep failed: {e}"),
                        };
                        break;
                    }
                }
            }
        }
        if let Some(job) = &self.tune {
            for m in job.poll() {
                match m {
                    TuneMessage::Point(p, moved) => self.tried.push((*p, moved)),
                    TuneMessage::Done(r) => {
                        self.tune = None;
                        match r {
                            Ok(found) => {
                                s.status = format!("suggestion: {}", found.stopped);
                                self.suggestion = Some(*found);
                            }
                            Err(e) => s.status = format!("no suggestion: {e}"),
                        }
                        break;
                    }
                }
            }
        }
    }

    /// The document's puzzle, encoding and weights, and a sampler with the sweep's reads; or
    /// why not (in the status line).
    fn inputs(s: &mut Shared) -> Option<(SweepInput, Box<dyn crate::sampler::Sampler>)> {
        let (Some(puzzle), Some(encoding)) = (s.doc.puzzle().cloned(), s.doc.encoding.clone())
        else {
            return None;
        };
        if let Some(c) = puzzle.conflicts().first() {
            s.status = format!("not swept: the givens conflict: {}", c.detail);
            return None;
        }
        match sweep_sampler(s) {
            Ok((sampler, _)) => {
                let reference = s
                    .current_facts()
                    .and_then(Result::ok)
                    .map(crate::puzzle::DesignFacts::reference);
                let input = SweepInput {
                    puzzle,
                    encoding,
                    weights: s.doc.weights.clone(),
                    reference,
                };
                Some((input, sampler))
            }
            Err(e) => {
                s.status = e;
                None
            }
        }
    }

    /// Starts the sweep the settings describe (the Run sweep button, or `gui --sweep`).
    pub fn start(&mut self, s: &mut Shared, ctx: &egui::Context) {
        // The sweep measures the document's model: one asked for while the file is read or
        // the model built waits for them (`Workbench::logic` starts it).
        let auto_waits = s.settings.sampler == crate::samplers::AUTO
            && s.doc.puzzle().is_some()
            && s.current_facts().is_none();
        if !s.files.is_empty() || !s.doc.model_is_current() || auto_waits {
            s.sweep_when_built = true;
            s.status = "the sweep starts once the model is built".into();
            return;
        }
        let Some((input, sampler)) = Self::inputs(s) else {
            return;
        };
        let sw = &s.settings.sweep;
        let sampler_name = sampler.name();
        let [first, second] = AxisSetting::both(sw);
        let values1 = first.values(sampler_name);
        let values2 = (!second.name().is_empty()
            && (second.name(), second.is_param()) != (first.name(), first.is_param()))
            .then(|| {
                second
                    .values(sampler_name)
                    .map(|v| (second.name().to_string(), v))
            })
            .transpose();
        let (values, second_values) = match (values1, values2) {
            (Ok(v), Ok(second)) => (v, second),
            (Err(e), _) | (_, Err(e)) => {
                s.status = format!("not swept: {e}");
                return;
            }
        };
        let params = [first.is_param(), second.is_param()];
        self.marks = match (first.is_param(), &second_values) {
            (false, None) => (input.encoding)
                .condition_thresholds(&input.weights, first.name())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        self.weight = first.name().to_string();
        self.weight2 = second_values.as_ref().map(|(w, _)| w.clone());
        self.params = params;
        self.points.clear();
        self.witness_of = None;
        // The plot is what a sweep is for: open it full size (the panel's copy is small).
        self.enlarged = true;
        let repaint = ctx.clone();
        let request = SweepRequest {
            weight: self.weight.clone(),
            params,
            values,
            second: second_values,
            repeats: sw.setup.repeats,
            stop: sw.stop,
            metric: sw.setup.metric,
        };
        self.job = Some(SweepJob::start(input, request, sampler, move || {
            repaint.request_repaint()
        }));
    }

    fn start_suggestion(&mut self, s: &mut Shared, ctx: &egui::Context) {
        let Some((input, sampler)) = Self::inputs(s) else {
            return;
        };
        self.tried.clear();
        self.suggestion = None;
        let repaint = ctx.clone();
        let sw = &s.settings.sweep;
        self.tune = Some(start_tune(
            input,
            sampler,
            crate::sweep::TuneEffort {
                repeats: sw.tune.repeats,
                stop: sw.stop,
                budget: std::time::Duration::from_secs_f64(sw.tune.budget),
            },
            move || repaint.request_repaint(),
        ));
    }

    /// The chart of the current points.
    fn chart(&self, metric: Metric, description: &str) -> SweepChart {
        crate::sweep::chart(
            &self.points,
            &self.weight,
            self.weight2.as_deref(),
            metric,
            description,
        )
        .with_marks(&self.marks)
    }

    /// The points as JSON (with the swept weights) or CSV, by the file's extension.
    pub fn points_bytes(&self, path: &Path) -> Result<Vec<u8>, String> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => Ok(crate::sweep::to_csv(&self.points).into_bytes()),
            Some("json") => serde_json::to_vec_pretty(&serde_json::json!({
                "weight": self.weight,
                "weight2": self.weight2,
                "points": self.points,
            }))
            .map_err(|e| e.to_string()),
            _ => Err(format!(
                "{}: not written: use .json or .csv",
                path.display()
            )),
        }
    }

    /// The plot of the metric chosen in the panel, as a drawing (exported as PNG or SVG).
    pub fn plot_drawing(&self, description: &str) -> crate::render::Drawing {
        let metric = self.metric.unwrap_or(Metric::Valid);
        self.chart(metric, description).drawing()
    }

    /// Lays out the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.heading("Weight sweep");
        let Some(enc) = s.doc.encoding.clone() else {
            ui.weak(if s.doc.puzzle().is_some() && s.doc.error.is_some() {
                "sweeps need the puzzle's model, which could not be built (see the inspector)"
            } else if s.doc.puzzle().is_some() {
                "sweeps need the puzzle's model (its weights): not built yet"
            } else {
                "sweeps need a puzzle (its weights)"
            });
            return;
        };
        self.setup_ui(ui, s, &enc);
        Self::stopping_ui(ui, &mut s.settings.sweep.stop);
        let metric = self.run_ui(ui, s);
        if !self.points.is_empty() {
            self.plot_ui(ui, s, metric);
        }
    }

    /// Set-up: the swept weights (those with terms here), their ranges, reads and runs.
    fn setup_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared, enc: &crate::qubo::Encoding) {
        let presolved = s.doc.options.presolve;
        let names: Vec<String> = enc.weight_names().iter().map(|n| n.to_string()).collect();
        let idle_weights = crate::sweep::idle_weights(enc, presolved);
        let idle = |n: &str| idle_weights.get(n);
        let spec_of = |n: &str| enc.weight_specs().iter().find(|w| w.name == n);
        let usable: Vec<&String> = names.iter().filter(|n| idle(n).is_none()).collect();
        if !usable.contains(&&s.settings.sweep.weight) {
            // The weight this kind's designers tune first, if it has terms here, over its own
            // range (unless a sampler parameter is the axis): a range is kept only with the
            // weight it was chosen for (a fresh install's 0…4 would stop below Sudoku's default
            // hint weight of 6).
            let kind_default = s
                .doc
                .puzzle()
                .map(|p| p.sweep_weight(enc))
                .filter(|w| usable.contains(&w));
            let sw = &mut s.settings.sweep;
            sw.weight = kind_default
                .or_else(|| usable.first().map(|n| n.to_string()))
                .unwrap_or_default();
            if let Some(spec) = spec_of(&sw.weight).filter(|_| sw.param.is_empty()) {
                (sw.from, sw.to) = weight_starting_range(spec);
                sw.log = false;
            }
        }
        // The solver panel's sampler's parameters are axes too (seed aside: repeats reseed).
        let sampler = s.sampler_choice().0;
        let params: Vec<crate::sweep::ParamAxis> = crate::samplers::entry(&sampler)
            .map(|e| {
                e.params
                    .iter()
                    .filter(|p| p.exposed)
                    .filter_map(|p| crate::sweep::ParamAxis::of(&sampler, p.name).ok())
                    .collect()
            })
            .unwrap_or_default();
        let sw = &mut s.settings.sweep;
        let axis_choice = |ui: &mut egui::Ui,
                           label: &str,
                           [weight, param]: [&mut String; 2],
                           [from, to]: [&mut f64; 2],
                           log: &mut bool,
                           none: bool| {
            let shown = match (weight.is_empty(), param.is_empty()) {
                (_, false) => format!("{param} ({sampler})"),
                (true, true) => "(none)".to_string(),
                (false, true) => weight.clone(),
            };
            egui::ComboBox::from_label(label)
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    if none
                        && ui
                            .selectable_label(weight.is_empty() && param.is_empty(), "(none)")
                            .clicked()
                    {
                        weight.clear();
                        param.clear();
                    }
                    for n in &names {
                        match idle(n) {
                            None => {
                                let chosen = param.is_empty() && weight == n;
                                if ui.selectable_label(chosen, n).clicked() && !chosen {
                                    *weight = n.clone();
                                    param.clear();
                                    if let Some(spec) = spec_of(n) {
                                        (*from, *to) = weight_starting_range(spec);
                                        *log = false;
                                    }
                                }
                            }
                            Some(why) => {
                                ui.add_enabled(false, egui::Button::selectable(false, n))
                                    .on_disabled_hover_text(why);
                            }
                        }
                    }
                    ui.separator();
                    ui.weak(format!("{sampler}'s parameters"));
                    for p in &params {
                        let chosen = param.as_str() == p.spec.name;
                        if ui
                            .selectable_label(chosen, format!("{} ({sampler})", p.spec.name))
                            .on_hover_text(p.spec.help)
                            .clicked()
                            && !chosen
                        {
                            *param = p.spec.name.to_string();
                            (*from, *to, *log) = param_starting_range(&p.spec);
                        }
                    }
                });
            let axis = params.iter().find(|p| p.spec.name == param.as_str());
            if let Some(words) = axis.and_then(|a| a.categories()) {
                ui.weak(format!("every value: {}", words.join(", ")));
                return false;
            }
            !(weight.is_empty() && param.is_empty())
        };
        let ranged = axis_choice(
            ui,
            "axis to sweep",
            [&mut sw.weight, &mut sw.param],
            [&mut sw.from, &mut sw.to],
            &mut sw.log,
            false,
        );
        ui.horizontal(|ui| {
            if ranged {
                range_widgets(
                    ui,
                    [&mut sw.from, &mut sw.to],
                    &mut sw.log,
                    !sw.param.is_empty(),
                );
            }
            setup_widgets(ui, &mut sw.setup, &["steps"]);
        });
        let ranged2 = axis_choice(
            ui,
            "second axis",
            [&mut sw.weight2, &mut sw.param2],
            [&mut sw.from2, &mut sw.to2],
            &mut sw.log2,
            true,
        );
        if !(sw.weight2.is_empty() && sw.param2.is_empty()) {
            ui.horizontal(|ui| {
                if ranged2 {
                    range_widgets(
                        ui,
                        [&mut sw.from2, &mut sw.to2],
                        &mut sw.log2,
                        !sw.param2.is_empty(),
                    );
                }
                setup_widgets(ui, &mut sw.setup, &["steps2"]);
            });
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut sw.num_reads)
                    .range(0..=100_000)
                    .prefix("reads ")
                    .custom_formatter(|v, _| {
                        if v == 0.0 {
                            "default".into()
                        } else {
                            format!("{v:.0}")
                        }
                    }),
            )
            .on_hover_text("reads per run (0: the solver panel's)");
            setup_widgets(ui, &mut sw.setup, &["repeats"]);
        });
    }

    /// Stopping: when a point stops before its last run, folded away under a summary.
    fn stopping_ui(ui: &mut egui::Ui, stop: &mut crate::sweep::StopRule) {
        // The stopping rule, folded away: its summary says what it does.
        let summary = if *stop == crate::sweep::StopRule::NEVER {
            "stopping: every point does all its runs".to_string()
        } else {
            format!(
                "stopping: interval ≤ {:.2}, or {} × the best TTS99",
                stop.ci_width, stop.budget_factor
            )
        };
        egui::CollapsingHeader::new(summary)
            .id_salt("sweep stopping")
            .show(ui, |ui| {
                // Widgets, ranges and tooltips from the rule's own description.
                use crate::sweep::StopRule;
                crate::gui::params::described_ui(
                    ui,
                    "sweep stopping",
                    &StopRule::PARAMS,
                    stop,
                    StopRule::values,
                    StopRule::from_values,
                );
            });
    }

    /// Run: the plotted metric, Run and Cancel, and "Suggest weights"; the metric chosen.
    fn run_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) -> Metric {
        let setup = &mut s.settings.sweep.setup;
        setup_widgets(ui, setup, &["metric"]);
        // On a model with an objective the valid share alone hides what a weight costs: it is
        // drawn under the best feasible objective (the trade-off chart).
        let metric = match setup.metric {
            Metric::Valid
                if self
                    .points
                    .iter()
                    .any(|p| p.best_feasible_objective.is_some()) =>
            {
                Metric::Objective
            }
            m => m,
        };
        self.metric = Some(metric);
        ui.horizontal(|ui| {
            let idle = !self.is_running();
            if ui
                .add_enabled(idle, egui::Button::new("Run sweep"))
                .clicked()
            {
                self.start(s, ui.ctx());
            }
            if ui
                .add_enabled(self.job.is_some(), egui::Button::new("Cancel sweep"))
                .clicked()
                && let Some(j) = &self.job
            {
                j.control.cancel();
            }
            if let Some(j) = &self.job {
                ui.spinner();
                ui.label(format!("{} / {} points", self.points.len(), j.total));
            }
        });
        self.suggestion_ui(ui, s);
        metric
    }

    /// Plot: the chart (click a point to use its weights), its buttons, the enlarged window
    /// and the flagged point's witness.
    fn plot_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared, metric: Metric) {
        let description = s.doc.puzzle().map(|p| p.describe()).unwrap_or_default();
        let chart = self.chart(metric, &description);
        let drawing = chart.drawing();
        let width = ui.available_width();
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(width, width * drawing.height / drawing.width),
            egui::Sense::click(),
        );
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::accesskit::Role::Canvas, true, "sweep plot")
        });
        let placed = crate::gui::painter::paint(ui.painter(), &drawing, rect, s.fonts_installed);
        self.hover_readout(&response, &placed, &chart);
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            self.clicked(&chart, placed.to_units(pos), s);
        }
        ui.horizontal(|ui| {
            ui.toggle_value(&mut self.enlarged, "Enlarge");
            if ui.button("Save plot…").clicked() {
                s.send(Command::Dialog(FileAction::ExportSweepPlot));
            }
            if ui.button("Export points…").clicked() {
                s.send(Command::Dialog(FileAction::ExportSweep));
            }
        });
        ui.weak("click a point (or a cell) to use its weights; a flagged one shows its witness");
        if self.enlarged {
            let mut open = true;
            egui::Window::new("Sweep plot")
                .open(&mut open)
                .default_rect(egui::Rect::from_min_size(
                    egui::pos2(310.0, 40.0),
                    egui::vec2(760.0, 500.0),
                ))
                .show(ui.ctx(), |ui| {
                    let size = ui.available_size();
                    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
                    response.widget_info(|| {
                        egui::WidgetInfo::labeled(
                            egui::accesskit::Role::Canvas,
                            true,
                            "sweep plot, large",
                        )
                    });
                    let placed =
                        crate::gui::painter::paint(ui.painter(), &drawing, rect, s.fonts_installed);
                    self.hover_readout(&response, &placed, &chart);
                    if response.clicked()
                        && let Some(pos) = response.interact_pointer_pos()
                    {
                        self.clicked(&chart, placed.to_units(pos), s);
                    }
                });
            self.enlarged = open;
        }
        self.witness_ui(ui, s);
    }

    /// The point under a place on the chart (drawing units): the cell of a heatmap, the
    /// nearest point of a line.
    fn point_at(&self, chart: &SweepChart, at: [f32; 2]) -> Option<usize> {
        match chart {
            SweepChart::Heat(map) => map.cell_at(at).and_then(|(col, row)| {
                let (x, y) = (map.xs[col], map.ys[row]);
                self.points
                    .iter()
                    .position(|p| p.value == x && p.value2 == Some(y))
            }),
            SweepChart::Line(line) | SweepChart::Tradeoff(line, _) => line.x_at(at).and_then(|x| {
                (0..self.points.len()).min_by(|&a, &b| {
                    (self.points[a].value - x)
                        .abs()
                        .total_cmp(&(self.points[b].value - x).abs())
                })
            }),
        }
    }

    /// The hover read-out of the point under the pointer: its weights and what it measured.
    fn hover_readout(
        &self,
        response: &egui::Response,
        placed: &crate::gui::painter::Placement,
        chart: &SweepChart,
    ) {
        let Some(k) = response
            .hover_pos()
            .and_then(|pos| self.point_at(chart, placed.to_units(pos)))
        else {
            return;
        };
        let p = &self.points[k];
        let at = |name: &str, v: f64| p.params.get(name).map_or_else(|| v.to_string(), axis_word);
        let mut text = format!("{} = {}", self.weight, at(&self.weight, p.value));
        if let (Some(w2), Some(v2)) = (&self.weight2, p.value2) {
            text += &format!(", {w2} = {}", at(w2, v2));
        }
        text += &format!(
            "\nvalid {:.1} % (95 %: {:.1}–{:.1} %) of {} reads",
            100.0 * p.success_fraction,
            100.0 * p.success_ci95[0],
            100.0 * p.success_ci95[1],
            p.reads
        );
        if let Some(g) = p.ground_fraction {
            text += &format!("\nat ground {:.1} %", 100.0 * g);
        }
        text += &match p.tts99_s {
            Some(t) => format!("\nTTS99 {t:.4} s"),
            None => "\nTTS99 — (no valid read)".into(),
        };
        if let Some(o) = p.best_feasible_objective {
            text += &format!("\nbest feasible objective {}", crate::io::number_text(o));
        }
        if p.penalty_too_weak {
            text += "\npenalty too weak (click to see the witness)";
        }
        response.clone().on_hover_text_at_pointer(text);
    }

    /// A click on the chart: set the point's weights; show the witness of a flagged point.
    fn clicked(&mut self, chart: &SweepChart, at: [f32; 2], s: &mut Shared) {
        let Some(k) = self.point_at(chart, at) else {
            return;
        };
        let p = &self.points[k];
        let mut set = vec![(self.weight.clone(), p.value, self.params[0])];
        if let (Some(w2), Some(v2)) = (&self.weight2, p.value2) {
            set.push((w2.clone(), v2, self.params[1]));
        }
        let mut said = Vec::new();
        for (w, v, param) in set {
            // A sampler parameter goes to the solver panel's sampler; a weight to the model.
            if param {
                let sampler = s.sampler_choice().0;
                let value = p.params.get(&w).cloned().unwrap_or(serde_json::json!(v));
                said.push(format!("{sampler} {w} = {}", axis_word(&value)));
                s.settings
                    .sampler_params
                    .entry(sampler)
                    .or_default()
                    .insert(w, value);
                continue;
            }
            if let Err(e) = s.doc.set_weight(&w, v) {
                s.status = e;
                return;
            }
            said.push(format!("{w} = {v}"));
        }
        // What the point measured and why it stopped, beside what was set.
        s.status = format!(
            "set {} — valid {:.0} % of {} reads; {}",
            said.join(", "),
            100.0 * p.success_fraction,
            p.reads,
            s.settings.sweep.stop.describe(p)
        );
        self.witness_of = p.penalty_too_weak.then_some(k);
    }

    /// The witness of the clicked flagged point: what it breaks, and the board it decodes to.
    fn witness_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let Some(p) = self.witness_of.and_then(|k| self.points.get(k)) else {
            return;
        };
        let Some(w) = &p.witness else { return };
        ui.separator();
        ui.colored_label(
            egui::Color32::from_rgb(210, 30, 30),
            format!(
                "penalty too weak: an invalid read at energy {} ≤ a valid solution's {}",
                w.energy,
                p.valid_energy.map_or("?".into(), |v| v.to_string())
            ),
        );
        for line in w.violations.iter().chain(&w.broken).take(8) {
            ui.label(format!("• {line}"));
        }
        let (Some(puzzle), Some(encoding)) = (s.doc.puzzle(), s.doc.encoding.as_ref()) else {
            return;
        };
        let sample: Vec<u8> = w.sample.bytes().map(|b| b - b'0').collect();
        if sample.len() != encoding.num_variables() {
            return; // swept on another encoding
        }
        let decoded = puzzle.decode(encoding, &sample);
        let drawing = puzzle.draw(Some(&decoded));
        let width = ui.available_width().min(260.0);
        let (rect, _) = ui.allocate_exact_size(
            egui::vec2(width, width * drawing.height / drawing.width),
            egui::Sense::hover(),
        );
        crate::gui::painter::paint(ui.painter(), &drawing, rect, s.fonts_installed);
    }

    /// "Suggest weights": the search, its progress, and "Use these".
    fn suggestion_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!self.is_running(), egui::Button::new("Suggest weights"))
                .on_hover_text(
                    "a coordinate search on TTS99: one weight at a time × or ÷ 2, then √2, …; \
                     never a point where an invalid read wins",
                )
                .clicked()
            {
                self.start_suggestion(s, ui.ctx());
            }
            // The search's budget and runs per point, from their descriptions.
            use crate::sweep::TuneSetup;
            crate::gui::params::described_ui(
                ui,
                "suggest weights",
                &TuneSetup::PARAMS,
                &mut s.settings.sweep.tune,
                TuneSetup::values,
                TuneSetup::from_values,
            );
            if let Some(j) = &self.tune {
                if ui.button("Stop").clicked() {
                    j.control.cancel();
                }
                ui.spinner();
                ui.label(format!("{} tried", self.tried.len()));
            }
        });
        let Some(found) = &self.suggestion else {
            self.path_ui(ui, s);
            return;
        };
        let shown: Vec<String> = found
            .best
            .weights
            .iter()
            .map(|(n, v)| format!("{n} {}", format!("{v:.3e}").parse::<f64>().unwrap_or(*v)))
            .collect();
        if let Some(why) = found.no_suggestion() {
            ui.colored_label(ui.visuals().warn_fg_color, format!("no suggestion: {why}"));
            self.path_ui(ui, s);
            return;
        }
        ui.label(format!(
            "suggested: {} (TTS99 {}, {:.0} % valid; {} points tried)",
            shown.join(", "),
            found
                .best
                .tts99_s
                .map_or("—".into(), |t| format!("{t:.2e} s")),
            100.0 * found.best.success_fraction,
            found.path.len()
        ));
        if ui.button("Use these").clicked() {
            let weights = found.best.weights.clone();
            for (name, value) in weights {
                if let Err(e) = s.doc.set_weight(&name, value) {
                    s.status = e;
                    return;
                }
            }
            s.status = "suggested weights set".into();
        }
        self.path_ui(ui, s);
    }

    /// The search's path: TTS99 of each point tried and the best so far, as `tune --plot`.
    fn path_ui(&self, ui: &mut egui::Ui, s: &Shared) {
        if !self.tried.is_empty() {
            let stopped = self
                .suggestion
                .as_ref()
                .map_or("still searching", |found| found.stopped.as_str());
            let description = s.doc.puzzle().map(|p| p.describe()).unwrap_or_default();
            let drawing = crate::sweep::plot_suggestion(&self.tried, stopped, &description);
            let width = ui.available_width();
            // (Sensing clicks, though none do anything, gives it an accessibility node.)
            let (rect, response) = ui.allocate_exact_size(
                egui::vec2(width, width * drawing.height / drawing.width),
                egui::Sense::click(),
            );
            response.widget_info(|| {
                egui::WidgetInfo::labeled(egui::accesskit::Role::Canvas, true, "suggestion path")
            });
            crate::gui::painter::paint(ui.painter(), &drawing, rect, s.fonts_installed);
        }
    }
}

/// Widgets for some of the sweep's settings (`names`), from their descriptions: the same
/// ranges and help as the command line's flags. The setup takes only values its description
/// accepts.
fn setup_widgets(ui: &mut egui::Ui, setup: &mut crate::sweep::SweepSetup, names: &[&str]) {
    let specs: Vec<crate::params::ParamSpec> = crate::sweep::SweepSetup::PARAMS
        .iter()
        .filter(|s| names.contains(&s.name))
        .copied()
        .collect();
    use crate::sweep::SweepSetup;
    crate::gui::params::described_ui(
        ui,
        "sweep setup",
        &specs,
        setup,
        SweepSetup::values,
        SweepSetup::from_values,
    );
}

/// The solver panel's sampler with the sweep's reads (0: the solver panel's own, the sampler's
/// default unless changed there), and the parameter values it was built from (a campaign
/// builds one per instance from them; the sampler's echo of its state has more).
pub(super) fn sweep_sampler(
    s: &Shared,
) -> Result<(Box<dyn crate::sampler::Sampler>, crate::params::ParamValues), String> {
    let reads = s.settings.sweep.num_reads;
    let extra: Vec<(&str, serde_json::Value)> = if reads == 0 {
        Vec::new()
    } else {
        vec![("num_reads", serde_json::json!(reads))]
    };
    let sampler = s.build_sampler(&extra)?;
    let mut params = s.settings.sampler_params(sampler.name());
    for (k, v) in extra {
        params.insert(k.to_string(), v);
    }
    Ok((sampler, params))
}
