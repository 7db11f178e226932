//! The solver panel's remote section, shown when the chosen sampler runs on a service (D-Wave
//! Leap, Fujitsu's Digital Annealer): the account in effect (endpoint and where it came from; the token as present or
//! missing, never its value), the service's solvers with status and load (a click picks one),
//! what a run will cost, the running job's live status, and a job left over from an earlier
//! session to resume or cancel.
//!
//! Invariant: every network call runs on a job thread; the panel only lays out what came back.

use crate::gui::jobs::OneShot;
use crate::gui::shared::{Command, Shared};
use crate::params::ParamValues;
use crate::remote::leap::{self, LeapSettings};
use crate::remote::sapi::{Solver, minimum_time_limit_s};
use crate::sampler::{RemoteJob, SamplerEntry};

/// The remote section's own state: the solver list and a server-side cancel in flight.
#[derive(Default)]
pub struct RemoteSection {
    listing: Option<OneShot<Result<Vec<Solver>, String>>>,
    /// The last list fetched (or why it could not be).
    pub solvers: Option<Result<Vec<Solver>, String>>,
    cancelling: Option<OneShot<Result<String, String>>>,
    /// The settings the account lines were resolved for, and the lines.
    account: Option<(ParamValues, Vec<(String, bool)>)>,
}

impl RemoteSection {
    /// Draws the section for sampler `e` (a remote one).
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared, e: &'static SamplerEntry) {
        self.poll(s);
        let values = crate::params::validate(e.params, &s.settings.sampler_params(e.name))
            .unwrap_or_default();
        ui.separator();
        if e.name == crate::remote::digital_annealer::ENTRY.name {
            ui.strong("Remote service: Fujitsu Digital Annealer");
            self.da_ui(ui, s, &values);
            return;
        }
        let settings = LeapSettings::from_values(&values);
        ui.strong("Remote service: D-Wave Leap");
        for (line, ok) in self.account_lines(&values, &settings) {
            if ok {
                ui.label(line);
            } else {
                ui.colored_label(ui.visuals().warn_fg_color, line);
            }
        }
        ui.horizontal(|ui| {
            let busy = self.listing.is_some();
            if ui
                .add_enabled(!busy, egui::Button::new("List solvers"))
                .clicked()
            {
                let settings = settings.clone();
                let ctx = ui.ctx().clone();
                self.listing = Some(OneShot::start(
                    move || {
                        leap::client(&settings, leap::process_env())
                            .and_then(|c| c.solvers())
                            .map_err(|e| e.to_string())
                    },
                    move || ctx.request_repaint(),
                ));
            }
            if busy {
                ui.spinner();
            }
        });
        self.solvers_ui(ui, s, e);
        cost_ui(ui, s, e, &values, self.solvers.as_ref());
        self.live_job_ui(ui, s);
        self.pending_ui(ui, s);
    }

    /// The Digital Annealer's account, cost, live job and left-over job.
    fn da_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared, values: &ParamValues) {
        let sampler = crate::remote::digital_annealer::DigitalAnnealer::from_values(values);
        if self.account.as_ref().is_none_or(|(v, _)| v != values) {
            let line = match sampler.client(leap::process_env()) {
                Ok(_) => ("key: present".to_string(), true),
                Err(e) => (e.to_string(), false),
            };
            self.account = Some((values.clone(), vec![line]));
        }
        for (line, ok) in self
            .account
            .as_ref()
            .map(|a| a.1.clone())
            .unwrap_or_default()
        {
            if ok {
                ui.label(line);
            } else {
                ui.colored_label(ui.visuals().warn_fg_color, line);
            }
        }
        let seconds = values
            .get("time_limit_sec")
            .and_then(|v| v.as_u64())
            .unwrap_or(10);
        ui.weak(format!("cost: {seconds} s of annealer time per job"));
        self.live_job_ui(ui, s);
        self.pending_ui(ui, s);
    }

    /// The running job's id and state, as the sampler last reported them.
    fn live_job_ui(&self, ui: &mut egui::Ui, s: &Shared) {
        if let Some(job) = s.run.as_ref().and_then(|r| r.remote_job()) {
            ui.label(format!(
                "job: {} on {} — {}",
                if job.problem_id.is_empty() {
                    "(not yet submitted)"
                } else {
                    &job.problem_id
                },
                job.solver,
                job.status
            ));
        }
    }

    /// Takes in what the job threads finished.
    fn poll(&mut self, s: &mut Shared) {
        if let Some(list) = self.listing.as_ref().and_then(OneShot::poll) {
            self.listing = None;
            self.solvers = Some(list.and_then(|inner| inner));
        }
        if let Some(done) = self.cancelling.as_ref().and_then(OneShot::poll) {
            self.cancelling = None;
            match done.and_then(|inner| inner) {
                Ok(message) => {
                    s.status = message;
                    s.settings.pending_remote_job = None;
                }
                Err(e) => s.status = e,
            }
        }
    }

    /// Endpoint and token lines, resolved again only when the sampler's settings change.
    fn account_lines(
        &mut self,
        values: &ParamValues,
        settings: &LeapSettings,
    ) -> Vec<(String, bool)> {
        if self.account.as_ref().is_none_or(|(v, _)| v != values) {
            let lines = match leap::resolve_config(settings, leap::process_env()) {
                Ok(c) => {
                    // A setting given here is named by its field, not by the CLI flag.
                    let from = |k: &str| {
                        c.sources
                            .get(k)
                            .map(|s| match s.strip_prefix("--") {
                                Some(flag) => format!(" (from this panel's {flag} field)"),
                                None => format!(" (from {s})"),
                            })
                            .unwrap_or_default()
                    };
                    vec![
                        (
                            format!("endpoint: {}{}", c.base_url(), from("endpoint")),
                            true,
                        ),
                        match &c.token {
                            Some(_) => (format!("token: present{}", from("token")), true),
                            None => (
                                "token: missing — set DWAVE_API_TOKEN, or token = … in a \
                                 dwave.conf profile"
                                    .to_string(),
                                false,
                            ),
                        },
                    ]
                }
                Err(e) => vec![(e.to_string(), false)],
            };
            self.account = Some((values.clone(), lines));
        }
        self.account
            .as_ref()
            .map(|(_, l)| l.clone())
            .unwrap_or_default()
    }

    fn solvers_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared, e: &'static SamplerEntry) {
        let category = if e.name == "dwave-qpu" {
            "qpu"
        } else {
            "hybrid"
        };
        match &self.solvers {
            None => {}
            Some(Err(why)) => {
                ui.colored_label(ui.visuals().error_fg_color, why);
            }
            Some(Ok(list)) => {
                let chosen = s
                    .settings
                    .sampler_params(e.name)
                    .get("solver")
                    .and_then(|v| v.as_str().map(str::to_string));
                egui::Grid::new("remote solvers")
                    .striped(true)
                    .show(ui, |ui| {
                        ui.strong("solver");
                        ui.strong("kind");
                        ui.strong("status");
                        ui.strong("load");
                        ui.end_row();
                        for solver in list {
                            let fits = solver.category == category;
                            let selected = chosen.as_deref() == Some(solver.name.as_str());
                            let label = ui
                                .add_enabled(fits, egui::Button::selectable(selected, &solver.name))
                                .on_hover_text(&solver.description);
                            if label.clicked() {
                                s.settings
                                    .sampler_params_mut(e.name)
                                    .insert("solver".into(), solver.name.clone().into());
                            }
                            ui.label(&solver.category);
                            ui.label(if solver.online { "online" } else { "offline" });
                            ui.label(
                                solver
                                    .avg_load
                                    .map_or("—".into(), |l| format!("{:.0} %", 100.0 * l)),
                            );
                            ui.end_row();
                        }
                    });
            }
        }
    }

    /// A job an earlier session submitted and did not read back.
    fn pending_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let Some(job) = s.settings.pending_remote_job.clone() else {
            return;
        };
        if s.run.is_some() {
            return;
        }
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "unfinished job: {} problem {} on {} (last seen {})",
                job.sampler, job.problem_id, job.solver, job.status
            ),
        );
        ui.horizontal(|ui| {
            if ui
                .button("Resume")
                .on_hover_text("wait for this problem's answer (nothing is submitted again)")
                .clicked()
            {
                s.send(Command::ResumeRemote(job.clone()));
            }
            if ui
                .add_enabled(
                    self.cancelling.is_none(),
                    egui::Button::new("Cancel on server"),
                )
                .clicked()
            {
                self.cancelling = Some(cancel_on_server(ui.ctx().clone(), s, job.clone()));
            }
            if ui.button("Forget").clicked() {
                s.settings.pending_remote_job = None;
            }
        });
    }
}

/// Cancels `job` on its service from a job thread.
fn cancel_on_server(
    ctx: egui::Context,
    s: &Shared,
    job: RemoteJob,
) -> OneShot<Result<String, String>> {
    let mut values = s.settings.sampler_params(&job.sampler);
    values.insert("endpoint".into(), job.endpoint.clone().into());
    let da = job.sampler == crate::remote::digital_annealer::ENTRY.name;
    OneShot::start(
        move || {
            if da {
                let sampler =
                    crate::remote::digital_annealer::DigitalAnnealer::from_values(&values);
                let client = sampler
                    .client(leap::process_env())
                    .map_err(|e| e.to_string())?;
                let status = client.cancel(&job.problem_id).map_err(|e| e.to_string())?;
                let _ = client.delete(&job.problem_id);
                return Ok(format!("job {} is {} and deleted", job.problem_id, status));
            }
            let settings = LeapSettings::from_values(&values);
            let sapi = leap::client(&settings, leap::process_env()).map_err(|e| e.to_string())?;
            let status = sapi.cancel(&job.problem_id).map_err(|e| e.to_string())?;
            Ok(format!("problem {} is {}", job.problem_id, status.status))
        },
        move || ctx.request_repaint(),
    )
}

/// What a run will cost, as far as the settings and the listed solver tell.
fn cost_ui(
    ui: &mut egui::Ui,
    s: &Shared,
    e: &SamplerEntry,
    values: &ParamValues,
    solvers: Option<&Result<Vec<Solver>, String>>,
) {
    let n = s.doc.model.as_ref().map_or(0, |m| m.qubo.num_variables());
    let named = values.get("solver").and_then(|v| v.as_str());
    let solver = solvers.and_then(|r| r.as_ref().ok()).and_then(|list| {
        list.iter()
            .find(|x| Some(x.name.as_str()) == named)
            .or_else(|| list.iter().find(|x| x.category == "hybrid"))
    });
    if e.name == "dwave-hybrid" {
        let minimum = solver.map(|x| minimum_time_limit_s(&x.properties["minimum_time_limit"], n));
        let limit = values.get("time_limit").and_then(|v| v.as_f64());
        let text = match (limit, minimum) {
            (Some(t), Some(m)) => {
                format!("cost: {t} s of solver time (minimum {m} s for {n} variables)")
            }
            (None, Some(m)) => {
                format!("cost: {m} s of solver time (the minimum for {n} variables)")
            }
            (Some(t), None) => format!("cost: {t} s of solver time"),
            (None, None) => {
                "cost: the solver's minimum time for the model (list solvers to see it)".into()
            }
        };
        ui.weak(text);
    } else {
        let reads = values
            .get("num_reads")
            .and_then(|v| v.as_u64())
            .unwrap_or(100);
        let anneal_us = values
            .get("annealing_time")
            .and_then(|v| v.as_f64())
            .unwrap_or(20.0);
        // Each read anneals and then reads out (about 100–200 µs on Advantage systems).
        let estimate_ms = reads as f64 * (anneal_us + 150.0) / 1000.0;
        ui.weak(format!(
            "cost: about {estimate_ms:.0} ms of QPU time ({reads} reads × ({anneal_us} µs anneal + readout))"
        ));
    }
}
