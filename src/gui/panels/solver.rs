//! The solver panel: every sampler of the library in one list with its parameters (dwave-style
//! names), a slider per penalty weight of the current encoding, Run / Cancel and progress.

use crate::gui::app::{Command, Shared};
use crate::gui::jobs::worker_threads;
use crate::sampler::{BetaScheduleType, SAMPLER_NAMES};

#[derive(Default)]
pub struct SolverPanel {}

impl SolverPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.heading("Solver");
        egui::ComboBox::from_label("sampler")
            .selected_text(s.settings.sampler.clone())
            .show_ui(ui, |ui| {
                for name in SAMPLER_NAMES {
                    ui.selectable_value(&mut s.settings.sampler, name.to_string(), *name);
                }
            });
        match s.settings.sampler.as_str() {
            "exact" => {
                ui.add(
                    egui::DragValue::new(&mut s.settings.exact.num_reads)
                        .range(1..=100_000)
                        .prefix("num_reads "),
                );
                ui.weak("enumerates all 2ⁿ states (n ≤ 30); use presolve on small puzzles");
            }
            _ => self.sa_params_ui(ui, s),
        }
        ui.separator();
        self.weights_ui(ui, s);
        ui.separator();
        ui.horizontal(|ui| {
            let running = s.run.is_some();
            if ui
                .add_enabled(!running && s.doc.model.is_some(), egui::Button::new("Run"))
                .clicked()
            {
                s.send(Command::Run);
            }
            if ui
                .add_enabled(running, egui::Button::new("Cancel"))
                .clicked()
            {
                s.send(Command::Cancel);
            }
            ui.weak(format!("{} worker thread(s)", worker_threads()));
        });
        if let Some(job) = &s.run {
            let p = job.progress.lock().ok().and_then(|g| *g);
            let (done, total) = p.map_or((0, 1), |p| (p.sweeps_done, p.sweeps_total.max(1)));
            let best = p
                .and_then(|p| p.best_energy)
                .map_or("—".to_string(), |e| format!("{e:.4}"));
            ui.add(
                egui::ProgressBar::new(done as f32 / total as f32)
                    .text(format!("{done} / {total} sweeps, best energy {best}")),
            );
            ui.weak(format!("{:.1} s", job.started.elapsed().as_secs_f32()));
        }
    }

    fn sa_params_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let sa = &mut s.settings.sa;
        ui.add(
            egui::DragValue::new(&mut sa.num_reads)
                .range(1..=1_000_000)
                .prefix("num_reads "),
        );
        ui.add(
            egui::DragValue::new(&mut sa.num_sweeps)
                .range(0..=10_000_000)
                .speed(10.0)
                .prefix("num_sweeps "),
        );
        egui::ComboBox::from_label("beta_schedule_type")
            .selected_text(format!("{:?}", sa.beta_schedule_type).to_lowercase())
            .show_ui(ui, |ui| {
                ui.selectable_value(
                    &mut sa.beta_schedule_type,
                    BetaScheduleType::Geometric,
                    "geometric",
                );
                ui.selectable_value(
                    &mut sa.beta_schedule_type,
                    BetaScheduleType::Linear,
                    "linear",
                );
            });
        let mut auto = sa.beta_range.is_none();
        if ui
            .checkbox(&mut auto, "automatic beta_range (as dwave-samplers)")
            .changed()
        {
            sa.beta_range = if auto { None } else { Some([0.1, 10.0]) };
        }
        if let Some([hot, cold]) = &mut sa.beta_range {
            ui.horizontal(|ui| {
                ui.add(
                    egui::DragValue::new(hot)
                        .range(1e-6..=1e6)
                        .speed(0.01)
                        .prefix("hot β "),
                );
                ui.add(
                    egui::DragValue::new(cold)
                        .range(1e-6..=1e6)
                        .speed(0.1)
                        .prefix("cold β "),
                );
            });
        }
        let mut fixed = sa.seed.is_some();
        ui.horizontal(|ui| {
            if ui.checkbox(&mut fixed, "fixed seed").changed() {
                sa.seed = fixed.then_some(1);
            }
            if let Some(seed) = &mut sa.seed {
                ui.add(egui::DragValue::new(seed).prefix("seed "));
            }
        });
    }

    fn weights_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let Some(enc) = s.doc.encoding.clone() else {
            ui.weak("no penalty weights (a model opened from a file)");
            return;
        };
        ui.label("Penalty weights");
        for spec in enc.weight_specs() {
            let mut v = s.doc.weight(&spec.name).unwrap_or(spec.default);
            let slider = egui::Slider::new(&mut v, spec.min..=spec.max).text(&spec.name);
            if ui.add(slider).on_hover_text(&spec.help).changed()
                && let Err(e) = s.doc.set_weight(&spec.name, v)
            {
                s.status = e;
            }
        }
        let mut presolve = s.doc.options.presolve;
        if ui
            .checkbox(&mut presolve, "presolve (drop what the givens decide)")
            .changed()
        {
            s.doc.set_presolve(presolve);
        }
    }
}
