//! Weight sweep: pick a weight, a range and steps; N reads at each value in the background;
//! success fraction and mean energy plotted against the weight. Clicking a point sets it.

use egui_plot::{Line, Plot, PlotPoints, Points};

use crate::gui::jobs::{SweepJob, SweepMessage};
use crate::gui::shared::Shared;
use crate::sweep::{SweepPoint, values};

/// The sweep panel: its points and the running job.
#[derive(Default)]
pub struct SweepPanel {
    /// Points of the last (or running) sweep.
    pub points: Vec<SweepPoint>,
    job: Option<SweepJob>,
    /// Weight the points belong to.
    weight: String,
}

impl SweepPanel {
    /// Whether a sweep is going.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// Cancels and forgets the sweep (a new document).
    pub fn clear(&mut self) {
        if let Some(j) = &self.job {
            j.control.cancel();
        }
        self.job = None;
        self.points.clear();
    }

    /// Takes the points that arrived (called from `Workbench::logic`).
    pub fn poll(&mut self, s: &mut Shared) {
        let Some(job) = &self.job else { return };
        for m in job.poll() {
            match m {
                SweepMessage::Point(p) => self.points.push(*p),
                SweepMessage::Done(r) => {
                    self.job = None;
                    s.status = match r {
                        Ok(()) => format!(
                            "sweep of '{}' done: {} points",
                            self.weight,
                            self.points.len()
                        ),
                        Err(e) => format!("sweep failed: {e}"),
                    };
                    break;
                }
            }
        }
    }

    fn start(&mut self, s: &mut Shared, ctx: &egui::Context) {
        let (Some(puzzle), Some(encoding)) = (s.doc.puzzle().cloned(), s.doc.encoding.clone())
        else {
            return;
        };
        if let Some(c) = puzzle.conflicts().first() {
            s.status = format!("not swept: the givens conflict: {}", c.detail);
            return;
        }
        let reads = serde_json::json!(s.settings.sweep.num_reads);
        let sampler = match s.build_sampler(&[("num_reads", reads)]) {
            Ok(x) => x,
            Err(e) => {
                s.status = e;
                return;
            }
        };
        let sw = &s.settings.sweep;
        let values = match values(sw.from, sw.to, sw.steps) {
            Ok(v) => v,
            Err(e) => {
                s.status = format!("not swept: {e}");
                return;
            }
        };
        self.weight = sw.weight.clone();
        self.points.clear();
        let repaint = ctx.clone();
        self.job = Some(SweepJob::start(
            (puzzle, encoding, s.doc.weights.clone()),
            sw.weight.clone(),
            values,
            sampler,
            move || repaint.request_repaint(),
        ));
    }

    /// Lays out the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.heading("Weight sweep");
        let Some(enc) = s.doc.encoding.clone() else {
            ui.weak("sweeps need a puzzle (its weights)");
            return;
        };
        let names: Vec<String> = enc.weight_names().iter().map(|n| n.to_string()).collect();
        if !names.contains(&s.settings.sweep.weight) {
            // The weight this kind's designers tune first.
            let kind_default = s
                .doc
                .puzzle()
                .map(|p| p.kind().default_sweep_weight().to_string())
                .filter(|w| names.contains(w));
            s.settings.sweep.weight = kind_default
                .or_else(|| names.first().cloned())
                .unwrap_or_default();
        }
        let sw = &mut s.settings.sweep;
        egui::ComboBox::from_label("weight to sweep")
            .selected_text(sw.weight.clone())
            .show_ui(ui, |ui| {
                for n in &names {
                    ui.selectable_value(&mut sw.weight, n.clone(), n);
                }
            });
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut sw.from)
                    .speed(0.1)
                    .prefix("from "),
            );
            ui.add(egui::DragValue::new(&mut sw.to).speed(0.1).prefix("to "));
        });
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut sw.steps)
                    .range(1..=200)
                    .prefix("steps "),
            );
            ui.add(
                egui::DragValue::new(&mut sw.num_reads)
                    .range(1..=100_000)
                    .prefix("reads "),
            );
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.job.is_none(), egui::Button::new("Run sweep"))
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
                ui.label(format!("{} / {}", self.points.len(), j.total));
            }
        });
        if self.points.is_empty() {
            return;
        }
        let success: Vec<[f64; 2]> = self
            .points
            .iter()
            .map(|p| [p.value, p.success_fraction])
            .collect();
        let energy: Vec<[f64; 2]> = self
            .points
            .iter()
            .map(|p| [p.value, p.mean_energy])
            .collect();
        let weight = self.weight.clone();
        let plot_success = Plot::new("sweep-success")
            .height(140.0)
            .x_axis_label(weight.clone())
            .y_axis_label("success")
            .include_y(0.0)
            .include_y(1.0)
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.line(Line::new(
                    "success fraction",
                    PlotPoints::from(success.clone()),
                ));
                plot.points(Points::new("points", PlotPoints::from(success.clone())).radius(3.0));
                plot.pointer_coordinate()
            });
        let plot_energy = Plot::new("sweep-energy")
            .height(120.0)
            .x_axis_label(weight.clone())
            .y_axis_label("mean energy")
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.line(Line::new("mean energy", PlotPoints::from(energy.clone())));
                plot.points(Points::new("points", PlotPoints::from(energy)).radius(3.0));
                plot.pointer_coordinate()
            });
        // A click on either plot picks the nearest point's weight value.
        for resp in [&plot_success, &plot_energy] {
            if resp.response.clicked()
                && let Some(at) = resp.inner
                && let Some(p) = self
                    .points
                    .iter()
                    .min_by(|a, b| (a.value - at.x).abs().total_cmp(&(b.value - at.x).abs()))
            {
                let value = p.value;
                s.status = match s.doc.set_weight(&weight, value) {
                    Ok(()) => format!("{weight} set to {value}"),
                    Err(e) => e,
                };
            }
        }
        ui.weak("click a point to use its weight");
    }
}
