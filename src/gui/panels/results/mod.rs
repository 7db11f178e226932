//! Results: energy histogram (valid and invalid decodes in two colours, the ground energy
//! marked), success fraction and time to solution, and the table of distinct samples; clicking
//! a row draws that sample on the puzzle with its broken constraints. *Compare runs*
//! (`compare_runs`) lists the document's kept runs and overlays their energy histograms.

mod compare_runs;

use egui::Color32;
use egui_plot::{Bar, BarChart, Legend, Plot, VLine};

use crate::compare::{EnergyAxis, Heights};
use crate::gui::jobs::RunResult;
use crate::gui::shared::Shared;
use crate::render::Drawing;

pub const VALID: Color32 = Color32::from_rgb(60, 160, 90);
pub const INVALID: Color32 = Color32::from_rgb(200, 90, 80);
/// Samples on a bare model: neither valid nor invalid.
pub const PLAIN: Color32 = Color32::from_rgb(100, 130, 200);

fn seconds(t: f64) -> String {
    if t < 1e-3 {
        format!("{:.1} µs", t * 1e6)
    } else if t < 1.0 {
        format!("{:.2} ms", t * 1e3)
    } else {
        format!("{t:.2} s")
    }
}

/// What the results area shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResultsView {
    /// The last run: figures, histogram, samples.
    #[default]
    LastRun,
    /// The kept runs and their overlay.
    Runs,
}

/// The results: figures, the energy histogram, the samples table and the broken constraints;
/// or the kept runs compared.
#[derive(Default)]
pub struct ResultsPanel {
    /// Which view is shown.
    pub view: ResultsView,
    /// Overlay bars as counts or shares.
    pub heights: Heights,
    /// The overlay's energy axis as chosen; `None`: the one that cannot mislead
    /// (`EnergyAxis::for_runs`: above each run's ground when the ticked runs' models differ).
    pub axis: Option<EnergyAxis>,
    /// The run being renamed, the name being typed, and whether the field has had focus.
    renaming: Option<(u64, String, bool)>,
    /// The overlay as last drawn (tests read it).
    pub overlay: Option<Drawing>,
    /// The overlay in a window of its own.
    pub enlarged: bool,
    /// The hover read-out under the pointer as last shown (tests read it).
    pub readout: Option<String>,
    /// The run the table's buttons act on.
    pub selected: Option<u64>,
}

impl ResultsPanel {
    /// Draws the results of the last run, or the kept runs compared.
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.view, ResultsView::LastRun, "Last run");
            ui.selectable_value(
                &mut self.view,
                ResultsView::Runs,
                format!("Compare runs ({})", s.doc.runs.len()),
            );
        });
        if self.view == ResultsView::Runs {
            self.runs_ui(ui, s);
            return;
        }
        self.last_run_ui(ui, s);
    }

    fn last_run_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let Some(r) = &s.result else {
            ui.heading("Results");
            ui.weak(if s.run.is_some() {
                "sampling…"
            } else {
                "Run a sampler to see the energies of its samples here."
            });
            return;
        };
        let report = r.samples.report();
        let reads = report.reads;
        let percent =
            |p: Option<f64>| p.map_or("—".to_string(), |p| format!("{:.1} %", 100.0 * p));
        let tts = match (r.success_fraction().or(r.ground_fraction()), r.tts99_s()) {
            (Some(_), Some(t)) => seconds(t),
            _ => "—".into(),
        };
        ui.horizontal_wrapped(|ui| {
            ui.heading("Results");
            ui.label(format!(
                "{reads} reads in {}, min energy {}, ground {}, at ground {}, valid {}, TTS99 {tts}{}{}",
                seconds(r.sample_s),
                r.samples.lowest().map_or("—".into(), |x| x.energy.to_string()),
                r.ground_energy.map_or("unknown".into(), |g| g.to_string()),
                percent(r.ground_fraction()),
                percent(r.success_fraction()),
                if r.samples.info.cancelled { " (cancelled)" } else { "" },
                if r.version != s.doc.version { " — the model changed since this run" } else { "" },
            ));
        });
        // Reads returned of reads asked and why the run stopped; a run that did less than
        // asked says so in the warning colour.
        let kernel = r
            .samples
            .info
            .kernel()
            .map_or(String::new(), |k| format!(" · kernel {k}"));
        if report.reads < report.reads_requested {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("⚠ {}{kernel}", report.summary),
            );
        } else {
            ui.weak(format!("{}{kernel}", report.summary));
        }
        for w in &r.samples.info.warnings {
            ui.colored_label(ui.visuals().warn_fg_color, format!("⚠ {w}"));
        }
        if let Some(why) = &r.ground_unknown {
            ui.weak(format!("ground energy unknown: {why}"));
        }
        // A model with an objective: the best feasible read's, apart from the penalties.
        if r.rows.iter().any(|v| v.objective.is_some()) {
            match r.best_feasible_objective() {
                Some(o) => ui.label(format!(
                    "best feasible objective {} ({}, apart from the penalties)",
                    crate::io::number_text(o.value),
                    if o.maximize { "maximised" } else { "minimised" }
                )),
                None => ui.colored_label(
                    ui.visuals().warn_fg_color,
                    "⚠ no read is feasible: raise the broken constraints' weights",
                ),
            };
        }
        if !r.samples.info.details.is_empty() {
            // Remote timing (queue, QPU or solver time), chain breaks, what the polish changed.
            ui.label(crate::sampler::SampleInfo::details_line(
                &r.samples.info.details,
            ));
        }
        repair_ui(ui, s);
        cuts_ui(ui, s);
        let width = ui.available_width();
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(width * 0.45);
                if let Some(r) = &s.result {
                    self.histogram_ui(ui, r);
                }
            });
            ui.separator();
            ui.vertical(|ui| {
                self.table_ui(ui, s);
            });
        });
    }

    fn histogram_ui(&mut self, ui: &mut egui::Ui, r: &RunResult) {
        let bars = r.histogram();
        let decoded = r.rows.iter().any(|x| x.valid.is_some());
        let valid: Vec<Bar> = bars
            .iter()
            .map(|b| Bar::new(b.energy, b.valid as f64).width(b.width))
            .collect();
        let other: Vec<Bar> = bars
            .iter()
            .map(|b| Bar::new(b.energy, b.other as f64).width(b.width))
            .collect();
        let valid_chart = BarChart::new("valid", valid).color(VALID);
        let other_chart = BarChart::new(if decoded { "invalid" } else { "samples" }, other)
            .color(if decoded { INVALID } else { PLAIN })
            .stack_on(&[&valid_chart]);
        let ground = r.ground_energy;
        energy_plot(
            "energy-histogram",
            "energy",
            "reads",
            ui.available_height().max(120.0),
        )
        .show(ui, |plot| {
            if decoded {
                plot.bar_chart(valid_chart);
            }
            plot.bar_chart(other_chart);
            if let Some(g) = ground {
                plot.vline(VLine::new("ground energy", g).color(Color32::DARK_GREEN));
            }
        });
    }

    fn table_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let Some(r) = &s.result else { return };
        let mut clicked = None;
        egui::ScrollArea::vertical()
            .id_salt("samples")
            .max_height(ui.available_height() * 0.55)
            .show(ui, |ui| {
                egui::Grid::new("samples-grid")
                    .striped(true)
                    .show(ui, |ui| {
                        // Constrained models: "feasible" and their objective beside it.
                        let objective = r.rows.iter().any(|v| v.objective.is_some());
                        ui.strong("#");
                        ui.strong("energy");
                        ui.strong("count");
                        ui.strong(if objective { "feasible" } else { "valid" });
                        if objective {
                            ui.strong("objective");
                        }
                        let constraints = r.constraint_labels.len();
                        if constraints > 0 {
                            ui.strong("satisfied").on_hover_text(
                                "the model's constraints the read satisfies (dimod's \
                                 is_satisfied); hover a cell for the ones it does not",
                            );
                        }
                        ui.strong("broken").on_hover_text(
                            "constraint groups the sample breaks; for a model too large to \
                             store, the referee's findings (such as mismatched joints)",
                        );
                        ui.end_row();
                        for (k, (row, info)) in
                            r.samples.rows.iter().zip(&r.rows).enumerate().take(500)
                        {
                            let selected = s.selected_row == Some(k);
                            if ui
                                .selectable_label(selected, format!("{}", k + 1))
                                .clicked()
                            {
                                clicked = Some(k);
                            }
                            if ui
                                .selectable_label(selected, format!("{}", row.energy))
                                .clicked()
                            {
                                clicked = Some(k);
                            }
                            ui.label(row.num_occurrences.to_string());
                            match info.valid {
                                Some(true) => ui.colored_label(VALID, "yes"),
                                Some(false) => ui.colored_label(INVALID, "no"),
                                None => ui.weak("—"),
                            };
                            if objective {
                                ui.label(
                                    info.objective
                                        .map_or("—".into(), |o| crate::io::number_text(o.value)),
                                );
                            }
                            if constraints > 0 {
                                satisfied_cell(ui, &r.constraint_labels, &info.satisfied);
                            }
                            ui.label(info.broken_count().to_string());
                            ui.end_row();
                        }
                    });
            });
        if let Some(k) = clicked {
            s.selected_row = Some(k);
            s.shown_run = None;
            s.samples_offered += 1;
        }
        let Some(info) = s.selected_row.and_then(|k| r.rows.get(k)) else {
            return;
        };
        ui.separator();
        // How near the read is to the classical solution (the design facts'), when that is
        // known and the run is of the puzzle as it stands. In the scrolled list: the panel's
        // height is fixed, and a line above the list pushed its tabs out of view.
        let known = s
            .current_facts()
            .and_then(Result::ok)
            .and_then(|f| f.solution.as_ref());
        let agreement = match (s.doc.puzzle(), known, info.decoded.as_ref()) {
            (Some(p), Some(known), Some(read)) if r.version == s.doc.version => {
                p.agreement(read, known)
            }
            _ => None,
        };
        egui::ScrollArea::vertical()
            .id_salt("broken")
            .show(ui, |ui| {
                if let Some(a) = agreement {
                    ui.label(crate::solve::agreement_sentence(
                        &a,
                        info.valid == Some(true),
                    ));
                }
                if info.broken.is_empty() && info.violations.is_empty() {
                    ui.label("no broken constraints");
                }
                for b in info.broken.iter().take(100) {
                    ui.label(format!(
                        "{} ({}): energy {} instead of {}",
                        b.constraint, b.weight, b.energy, b.satisfied_energy
                    ));
                }
                for b in info.unenforced.iter().take(100) {
                    ui.weak(format!(
                        "{} ({}): not enforced (weight 0)",
                        b.constraint, b.weight
                    ));
                }
                for v in info.violations.iter().take(100) {
                    ui.colored_label(INVALID, format!("referee — {}: {}", v.constraint, v.detail));
                }
            });
    }
}

/// "k/n" constraints satisfied, hovering to the labels of those that are not.
fn satisfied_cell(ui: &mut egui::Ui, labels: &[String], satisfied: &[bool]) {
    if satisfied.len() != labels.len() {
        ui.weak("—");
        return;
    }
    let unsatisfied: Vec<&str> = labels
        .iter()
        .zip(satisfied)
        .filter(|(_, ok)| !**ok)
        .map(|(l, _)| l.as_str())
        .collect();
    let text = format!("{}/{}", labels.len() - unsatisfied.len(), labels.len());
    if unsatisfied.is_empty() {
        ui.label(text);
    } else {
        let shown = unsatisfied
            .iter()
            .take(20)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let more = unsatisfied.len().saturating_sub(20);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        ui.colored_label(INVALID, text)
            .on_hover_text(format!("not satisfied: {shown}{tail}"));
    }
}

/// A histogram plot of energies: round axis marks, a legend, no scroll zoom.
fn energy_plot<'a>(name: &str, x_label: &str, y_label: &str, height: f32) -> Plot<'a> {
    let (x_axis, y_axis) = super::sampler_plots::round_axes(x_label, y_label);
    Plot::new(name)
        .height(height)
        .legend(Legend::default())
        .custom_x_axes(vec![x_axis])
        .custom_y_axes(vec![y_axis])
        .grid_spacing(super::sampler_plots::GRID_SPACING_MIN..=300.0)
        .x_grid_spacer(super::sampler_plots::round_grid)
        .y_grid_spacer(super::sampler_plots::round_grid)
        .allow_scroll(false)
}

/// When no read was valid and the kind's repair step made a low read valid (Numberlink: its
/// defects re-solved in a window), what it did and a switch to show the answer on the board.
fn repair_ui(ui: &mut egui::Ui, s: &mut Shared) {
    let Some(r) = s.result.as_ref().filter(|r| r.version == s.doc.version) else {
        return;
    };
    let Some((energy, repaired)) = &r.repaired else {
        return;
    };
    let line = format!(
        "Repaired: a read of energy {energy} became valid: {} (not counted as a read)",
        repaired.how
    );
    ui.horizontal_wrapped(|ui| {
        ui.label(line);
        ui.checkbox(&mut s.show_repaired, "Show the repaired answer");
    });
}

/// Reads whose defects may become cuts (the CLI's `CutRounds::reads`).
const CUT_READS: usize = 16;

/// A manual cut round: when no read of the current model is valid and the lowest reads show
/// defects the kind can cut (Numberlink's loops), a button adds them to the model; the next Run
/// samples it (the CLI's `solve` does these rounds by itself).
fn cuts_ui(ui: &mut egui::Ui, s: &mut Shared) {
    let Some(r) = &s.result else { return };
    let mut found: Vec<Vec<crate::qubo::Label>> = Vec::new();
    if r.version == s.doc.version
        && r.success_fraction() == Some(0.0)
        && let Some(p) = s.doc.puzzle()
    {
        for row in r.rows.iter().take(CUT_READS) {
            for cut in row.decoded.as_ref().map(|d| p.cuts(d)).unwrap_or_default() {
                if !found.contains(&cut) && !s.doc.options.cuts.contains(&cut) {
                    found.push(cut);
                }
            }
        }
    }
    let existing = s.doc.options.cuts.len();
    if found.is_empty() && existing == 0 {
        return;
    }
    ui.horizontal(|ui| {
        if !found.is_empty()
            && ui
                .button(format!("Cut {} defect(s) and re-encode", found.len()))
                .on_hover_text(
                    "Each loop found in the lowest reads becomes a penalty (weight `cut`) that \
                     forbids it whole; no valid answer has a loop, so none is charged. Run again \
                     to sample the new model.",
                )
                .clicked()
        {
            s.doc.add_cuts(found);
        }
        if existing > 0 {
            ui.label(format!("the model has {existing} cut(s)"));
            if ui.button("Clear cuts").clicked() {
                s.doc.clear_cuts();
            }
        }
    });
}
