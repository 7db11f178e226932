//! The solver panel: every registered sampler in one list with its parameters (widgets drawn
//! from each sampler's description, help as tooltip), a slider per penalty weight of the
//! current encoding, Run / Cancel and progress (with the best energy over time), the chosen
//! sampler's own plots (`sampler_plots`), and for remote samplers the service section
//! (`remote`).

use super::sampler_plots;
use crate::gui::jobs::worker_threads;
use crate::gui::params::params_ui;
use crate::gui::shared::{Command, Shared};
use crate::sampler::SamplerPlot;
use crate::samplers::{AUTO, SAMPLERS, entry};

/// The solver panel (settings hold the parameters; the remote section keeps what the service
/// sent).
#[derive(Default)]
pub struct SolverPanel {
    /// Shown for samplers that run on a service.
    pub remote: super::RemoteSection,
}

impl SolverPanel {
    /// Lays out the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.heading("Solver");
        egui::ComboBox::from_label("sampler")
            .selected_text(s.settings.sampler.clone())
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut s.settings.sampler, AUTO.to_string(), AUTO)
                    .on_hover_text("the workbench picks a sampler for the model and says why");
                for e in SAMPLERS {
                    ui.selectable_value(&mut s.settings.sampler, e.name.to_string(), e.name)
                        .on_hover_text(e.summary);
                }
            });
        // With `auto`, the sampler it picks (and why); its parameters are edited as its own.
        let (name, reason) = s.sampler_choice();
        if s.doc.model.is_none() {
            // `auto` weighs the model's size: nothing to weigh without one.
            if reason.is_some() {
                ui.label("auto → chosen once there is a model");
            }
        } else if let Some(why) = reason {
            ui.label(format!("auto → {name}")).on_hover_text(why);
            ui.weak(why);
        }
        // The parameters' widgets come from the sampler's own description.
        match entry(&name) {
            Ok(e) => {
                ui.weak(e.summary);
                params_ui(ui, e.name, e.params, s.settings.sampler_params_mut(e.name));
                moves_ui(ui, s, e);
                // The plots the sampler offers (its entry says which).
                for plot in e.plots {
                    match plot {
                        SamplerPlot::QuantumSchedule => {
                            sampler_plots::sqa_schedule_ui(ui, &s.settings.sampler_params(e.name))
                        }
                        SamplerPlot::Ladder => {
                            if let Some(r) = s
                                .result
                                .as_ref()
                                .filter(|r| r.samples.info.sampler == e.name)
                            {
                                sampler_plots::pt_ladder_ui(ui, &r.samples.info.params);
                            }
                        }
                    }
                }
                self.remote.ui(ui, s, e);
            }
            Err(err) => {
                ui.colored_label(egui::Color32::from_rgb(200, 40, 40), err.to_string());
            }
        }
        ui.separator();
        self.weights_ui(ui, s);
        ui.separator();
        ui.horizontal(|ui| {
            let running = s.run.is_some();
            if ui
                .add_enabled(
                    !running && (s.doc.model.is_some() || !s.doc.model_is_current()),
                    egui::Button::new("Run"),
                )
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
            let (fraction, text) = p.map_or((0.0, "starting…".to_string()), |p| p.describe());
            ui.add(egui::ProgressBar::new(fraction).text(text));
            ui.weak(format!("{:.1} s", job.started.elapsed().as_secs_f32()));
            if let Ok(h) = job.history.lock() {
                sampler_plots::best_energy_ui(ui, &h);
            }
        }
    }

    fn weights_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let Some(enc) = s.doc.encoding.clone() else {
            ui.weak(if s.doc.puzzle().is_none() {
                "no penalty weights (a model opened from a file)"
            } else if s.doc.building_for().is_some() {
                "penalty weights appear once the model is built"
            } else {
                "no penalty weights: the puzzle could not be encoded (see the inspector)"
            });
            return;
        };
        ui.label("Penalty weights");
        let idle_weights = crate::sweep::idle_weights(&enc, s.doc.options.presolve);
        for spec in enc.weight_specs() {
            let mut v = s.doc.weight(&spec.name).unwrap_or(spec.default);
            // A weight that scales no term is shown, greyed, with the reason: moving it would
            // change nothing, and a sweep of it would plot noise.
            let idle = idle_weights.get(&spec.name);
            let text = match idle {
                Some(_) => format!("{} (no terms)", spec.name),
                None => spec.name.clone(),
            };
            let slider = egui::Slider::new(&mut v, spec.min..=spec.max).text(text);
            let response = ui.add_enabled(idle.is_none(), slider);
            let response = match &idle {
                Some(why) => response.on_disabled_hover_text(why.as_str()),
                None => response.on_hover_text(&spec.help),
            };
            if response.changed()
                && let Err(e) = s.doc.set_weight(&spec.name, v)
            {
                s.status = e;
            }
        }
        // Weights that break a relation the encoder's guarantees rest on, said where they are
        // set (every run's warnings say it too).
        for unmet in enc.unmet_conditions(&s.doc.weights).unwrap_or_default() {
            ui.colored_label(ui.visuals().warn_fg_color, format!("⚠ {}", unmet.short()))
                .on_hover_text(&unmet.otherwise);
        }
        let formulations = s.doc.puzzle().map_or(&[][..], |p| p.kind().formulations());
        if formulations.len() > 1 {
            let chosen = s.doc.options.formulation.clone();
            let current = chosen.as_deref().unwrap_or(formulations[0].name);
            let mut pick = current.to_string();
            egui::ComboBox::from_label("formulation")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for f in formulations {
                        ui.selectable_value(&mut pick, f.name.to_string(), f.name)
                            .on_hover_text(f.summary);
                    }
                });
            if pick != current {
                let default = pick == formulations[0].name;
                s.doc.set_formulation((!default).then_some(pick));
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

/// For samplers with a `moves` parameter: which of the model's exactly-one groups the chosen
/// moves will hold.
fn moves_ui(ui: &mut egui::Ui, s: &Shared, e: &crate::sampler::SamplerEntry) {
    if !e.params.iter().any(|p| p.name == "moves") {
        return;
    }
    use crate::qubo::Model;
    let Some(groups) = s.doc.model.as_deref().and_then(|m| m.one_hot()) else {
        return;
    };
    let params = s.settings.sampler_params(e.name);
    let set = params
        .get("moves")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    let hold = params.get("hold").and_then(|v| v.as_str());
    let n = s.doc.model.as_deref().map_or(0, |m| m.num_variables());
    // Single flips (the default where groups are narrow) add no line: nothing is held.
    match crate::sampler::moves::describe(Some(groups), set, hold, n) {
        Ok(Some(held)) => {
            ui.label(format!("moves: {held}"));
        }
        Ok(None) => {}
        Err(why) => {
            ui.colored_label(ui.visuals().error_fg_color, format!("hold: {why}"));
        }
    }
}
