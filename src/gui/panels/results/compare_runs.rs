//! *Compare runs*: the document's kept runs (pin, rename, delete, show the best on the board)
//! and the ticked ones' energy histograms overlaid (`compare::overlay`, the drawing `compare`
//! exports) with their table.

use egui_plot::{Bar, BarChart, VLine};

use super::{ResultsPanel, energy_plot};
use crate::compare::{EnergyAxis, Heights, RunSummary, TABLE_COLUMNS, table_row};
use crate::gui::file_actions::FileAction;
use crate::gui::shared::{Command, Shared};

impl ResultsPanel {
    /// The kept runs: the ticked ones' overlay on the left; on the right the table of every
    /// run (tick to overlay, click a name to select it) under the selected run's actions (pin,
    /// show on the board, rename, delete).
    pub(super) fn runs_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        if s.doc.runs.is_empty() {
            ui.weak(
                "Every run is kept here (sampler, parameters, weights, energies, best sample). \
                 Run two samplers, or one at two weights, then tick them to overlay their energies.",
            );
            return;
        }
        let width = ui.available_width();
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(width * 0.4);
                self.overlay_ui(ui, s);
            });
            ui.separator();
            ui.vertical(|ui| {
                self.run_table_ui(ui, s);
            });
        });
    }

    fn run_table_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        if self
            .selected
            .is_some_and(|id| !s.doc.runs.runs.iter().any(|r| r.id == id))
        {
            self.selected = None;
        }
        self.run_actions_ui(ui, s);
        // Filling the room, so a floating scroll bar sits under the rows, not over the last.
        egui::ScrollArea::both()
            .id_salt("kept-runs")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("kept-runs-grid")
                    .striped(true)
                    .show(ui, |ui| {
                        ui.strong("");
                        for head in TABLE_COLUMNS {
                            ui.strong(head);
                        }
                        ui.end_row();
                        for run in s.doc.runs.runs.iter_mut().rev() {
                            let id = run.id;
                            let name = run.summary.name.clone();
                            let tick = ui
                                .add(egui::Checkbox::without_text(&mut run.ticked))
                                .on_hover_text("overlay this run");
                            let ticked = run.ticked;
                            tick.widget_info(|| {
                                egui::WidgetInfo::selected(
                                    egui::Role::CheckBox,
                                    true,
                                    ticked,
                                    name.as_str(),
                                )
                            });
                            let cells = table_row(&run.summary);
                            match &mut self.renaming {
                                Some((rid, text, focused)) if *rid == id => {
                                    // Typed afresh (the old name as the hint); an empty field
                                    // keeps the old name.
                                    let edit = ui.add(
                                        egui::TextEdit::singleline(text)
                                            .hint_text(name.as_str())
                                            .desired_width(110.0),
                                    );
                                    if !*focused {
                                        edit.request_focus();
                                        *focused = true;
                                    }
                                    if edit.lost_focus() {
                                        let typed = text.trim();
                                        if !typed.is_empty() {
                                            run.summary.name = typed.to_string();
                                        }
                                        self.renaming = None;
                                    }
                                }
                                _ => {
                                    let label = if run.pinned {
                                        format!("{name} (pinned)")
                                    } else {
                                        name.clone()
                                    };
                                    if ui
                                        .selectable_label(self.selected == Some(id), label)
                                        .on_hover_text(run_details(&run.summary))
                                        .clicked()
                                    {
                                        self.selected = Some(id);
                                    }
                                }
                            }
                            for cell in &cells[1..] {
                                ui.label(cell.as_str());
                            }
                            ui.end_row();
                        }
                    });
            });
    }

    /// The buttons above the kept runs (pin, show on board, rename, delete the selected one)
    /// and how many runs are kept; what was clicked is carried out here.
    fn run_actions_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let (some, has_best, pinned) = self
            .selected
            .and_then(|id| s.doc.runs.runs.iter().find(|r| r.id == id))
            .map_or((false, false, false), |r| {
                (true, r.summary.best.is_some(), r.pinned)
            });
        let mut action = None;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(some, egui::Button::selectable(pinned, "pin"))
                .on_hover_text("a pinned run is never dropped to make room")
                .clicked()
            {
                action = Some(RunAction::Pin);
            }
            if ui
                .add_enabled(has_best, egui::Button::new("show on board"))
                .on_hover_text("draw the run's best sample on the puzzle")
                .clicked()
            {
                action = Some(RunAction::Show);
            }
            if ui.add_enabled(some, egui::Button::new("rename")).clicked() {
                action = Some(RunAction::Rename);
            }
            if ui.add_enabled(some, egui::Button::new("delete")).clicked() {
                action = Some(RunAction::Delete);
            }
            ui.separator();
            ui.label("keep the last");
            let limit = &mut s.settings.run_history_limit;
            if ui
                .add(egui::DragValue::new(limit).range(1..=crate::gui::runs::MAX_RUN_HISTORY_LIMIT))
                .on_hover_text("runs kept with the document; the oldest unpinned goes first")
                .changed()
            {
                s.doc.runs.trim(*limit);
            }
        });
        if let (Some(id), Some(action)) = (self.selected, action) {
            match action {
                RunAction::Pin => {
                    if let Some(r) = s.doc.runs.get_mut(id) {
                        r.pinned = !r.pinned;
                    }
                }
                RunAction::Show => show_run(s, id),
                RunAction::Rename => self.renaming = Some((id, String::new(), false)),
                RunAction::Delete => {
                    s.doc.runs.remove(id);
                    if s.shown_run.as_ref().is_some_and(|(shown, _)| *shown == id) {
                        s.shown_run = None;
                    }
                    self.selected = None;
                }
            }
        }
    }

    fn overlay_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let any = s.doc.runs.runs.iter().any(|r| r.ticked);
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.heights, Heights::Counts, "reads");
            ui.selectable_value(&mut self.heights, Heights::Shares, "shares");
            if ui
                .add_enabled(any, egui::Button::new("Save chart…"))
                .clicked()
            {
                s.send(Command::Dialog(FileAction::ExportRunsChart));
            }
            if ui
                .add_enabled(any, egui::Button::new("Save table…"))
                .on_hover_text("the ticked runs' figures as CSV or JSON")
                .clicked()
            {
                s.send(Command::Dialog(FileAction::ExportRunsTable));
            }
        });
        let ticked = s.doc.runs.ticked();
        if ticked.is_empty() {
            self.overlay = None;
            ui.weak("Tick runs to overlay their energies.");
            return;
        }
        // Runs of different models (other weights, an edited puzzle) have energies on
        // different scales: say so, and by default draw each above its own ground.
        let models = crate::compare::distinct_models(&ticked);
        let axis = self.axis_for(&ticked);
        ui.horizontal_wrapped(|ui| {
            ui.label("axis:");
            let mut choice = self.axis;
            ui.selectable_value(&mut choice, None, "auto");
            ui.selectable_value(&mut choice, Some(EnergyAxis::Absolute), "energy");
            ui.selectable_value(
                &mut choice,
                Some(EnergyAxis::AboveGround),
                "above own ground",
            );
            self.axis = choice;
            if models > 1 {
                let text = match axis {
                    EnergyAxis::AboveGround => format!(
                        "⚠ the ticked runs are of {models} different models (see their weights): \
                         each is drawn above its own ground"
                    ),
                    EnergyAxis::Absolute => format!(
                        "⚠ the ticked runs are of {models} different models (see their weights): \
                         their energies are not on one scale"
                    ),
                };
                ui.colored_label(ui.visuals().warn_fg_color, text);
            }
        });
        let description = s.doc.puzzle().map(|p| p.describe()).unwrap_or_default();
        let chart = crate::compare::overlay_chart(&ticked, self.heights, axis, &description);
        let drawing = chart.drawing();
        ui.toggle_value(&mut self.enlarged, "Enlarge")
            .on_hover_text("the overlay in a window of its own, at reading size");
        // Drawn live at the panel's size (the exported picture is `drawing`).
        let height = ui.available_height().max(120.0);
        let hovered = overlay_plot(ui, &chart, "runs overlay", height);
        if self.enlarged {
            let mut open = true;
            let screen = ui.ctx().content_rect();
            egui::Window::new("Runs overlay")
                .open(&mut open)
                .default_rect(screen.shrink2(screen.size() * 0.1))
                .show(ui.ctx(), |ui| {
                    let height = ui.available_height().max(120.0);
                    overlay_plot(ui, &chart, "runs overlay, large", height);
                });
            self.enlarged = open;
        }
        self.readout = hovered.map(|bin| readout(&chart, bin));
        self.overlay = Some(drawing);
    }
}

/// The runs overlay as a live plot filling the width and `height`: each run's bars side by
/// side in every bin (valid reads dark, the others lighter), the marks as vertical lines,
/// the read-out under the pointer. Returns the hovered bin.
fn overlay_plot(
    ui: &mut egui::Ui,
    chart: &crate::render::chart::GroupedHistogram,
    name: &str,
    height: f32,
) -> Option<usize> {
    let width = chart.bin_width.max(1e-12);
    let slot = 0.9 * width / chart.series.len().max(1) as f64;
    let mut charts = Vec::new();
    for (i, (run, colour, heights)) in chart.series.iter().enumerate() {
        let x = |c: f64| c - 0.45 * width + slot * (i as f64 + 0.5);
        let bars = |part: usize| -> Vec<Bar> {
            chart
                .centres
                .iter()
                .zip(heights)
                .map(|(&c, h)| Bar::new(x(c), h[part]).width(slot))
                .collect()
        };
        let valid = BarChart::new(run.clone(), bars(0)).color(crate::gui::painter::color(*colour));
        // Without a referee every read is "other": one legend entry per run then.
        let other_name = if chart.has_valid {
            format!("{run} (not valid)")
        } else {
            run.clone()
        };
        let other = BarChart::new(other_name, bars(1))
            .color(crate::gui::painter::color(
                crate::render::chart::colors::lighter(*colour, 0.55),
            ))
            .stack_on(&[&valid]);
        charts.push((valid, other));
    }
    let response = energy_plot(name, &chart.x_label, &chart.y_label, height)
        .width(ui.available_width())
        .show_x(false)
        .show_y(false)
        .show(ui, |plot| {
            for (valid, other) in charts {
                plot.bar_chart(valid);
                plot.bar_chart(other);
            }
            for (mark, x, colour) in &chart.marks {
                plot.vline(VLine::new(mark.clone(), *x).color(crate::gui::painter::color(*colour)));
            }
        });
    response
        .response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, name));
    let bin = response
        .response
        .hover_pos()
        .map(|pos| response.transform.value_from_position(pos).x)
        .and_then(|x| chart.bin_at_value(x));
    if let Some(bin) = bin {
        response
            .response
            .on_hover_text_at_pointer(readout(chart, bin));
    }
    bin
}

impl ResultsPanel {
    /// The overlay's axis for these runs: the one chosen, else the one that cannot mislead.
    pub fn axis_for(&self, runs: &[&RunSummary]) -> EnergyAxis {
        self.axis.unwrap_or_else(|| EnergyAxis::for_runs(runs))
    }
}

/// What the overlay shows at one bin: its energy and every run's reads there.
fn readout(chart: &crate::render::chart::GroupedHistogram, bin: usize) -> String {
    let mut lines = vec![format!("{} ≈ {}", chart.x_label, chart.centres[bin])];
    for (name, _, heights) in &chart.series {
        let [valid, other] = heights.get(bin).copied().unwrap_or([0.0, 0.0]);
        let n = |v: f64| {
            if v.fract() == 0.0 {
                format!("{v}")
            } else {
                format!("{v:.3}")
            }
        };
        lines.push(if chart.has_valid {
            format!("{name}: {} valid, {} other", n(valid), n(other))
        } else {
            format!("{name}: {}", n(valid + other))
        });
    }
    lines.join("\n")
}

/// What the run table's buttons do to the selected run.
#[derive(Clone, Copy)]
enum RunAction {
    Pin,
    Show,
    Rename,
    Delete,
}

/// A kept run's best sample on the board (the status says which, or why not).
fn show_run(s: &mut Shared, id: u64) {
    let Some(run) = s.doc.runs.runs.iter().find(|r| r.id == id) else {
        return;
    };
    let name = run.summary.name.clone();
    let parsed = match (s.doc.puzzle(), &run.summary.best) {
        (Some(p), Some(best)) => p
            .parse_solution(&best.to_string())
            .map_err(|e| format!("it does not fit this puzzle ({e})")),
        _ => Err("it kept no decoded sample".to_string()),
    };
    match parsed {
        Ok(solution) => {
            s.shown_run = Some((id, solution));
            s.samples_offered += 1;
            s.status = format!("showing the best sample of {name}");
        }
        Err(why) => s.status = format!("cannot show {name}: {why}"),
    }
}

/// A run's set-up in a few lines (the list's hover text).
fn run_details(r: &crate::compare::RunSummary) -> String {
    let mut lines = vec![format!(
        "{} · seed {}",
        r.sampler,
        r.seed.map_or("—".into(), |s| s.to_string())
    )];
    if let Some(obj) = r.params.as_object() {
        let params: Vec<String> = obj.iter().map(|(k, v)| format!("{k} {v}")).collect();
        lines.push(params.join(", "));
    }
    if !r.weights.is_empty() {
        let w: Vec<String> = r
            .weights
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        lines.push(format!("weights: {}", w.join(", ")));
    }
    lines.push(format!(
        "min {} · mean {} · ground {}",
        r.min_energy.map_or("—".into(), |e| e.to_string()),
        r.mean_energy.map_or("—".into(), |e| format!("{e:.4}")),
        r.ground_energy.map_or("unknown".into(), |e| e.to_string())
    ));
    if r.cancelled {
        lines.push("cancelled".into());
    }
    lines.join("\n")
}
