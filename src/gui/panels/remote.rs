//! The solver panel's remote section, shown when the chosen sampler runs on a service (D-Wave
//! Leap, Fujitsu's Digital Annealer): the account in effect (endpoint and where it came from; the
//! credential as present or missing, never its value), the service's solvers with status and
//! load (a click picks one), what a run will cost, the running job's live status, and a job left
//! over from an earlier session to resume or cancel. Everything service-specific comes from the
//! sampler's `Service` description (`sampler::Service`, written beside its client in `remote`).
//!
//! Invariant: every network call runs on a job thread; the panel only lays out what came back.

use crate::gui::jobs::OneShot;
use crate::gui::shared::{Command, Shared};
use crate::params::ParamValues;
use crate::sampler::{RemoteJob, RunsOn, SamplerEntry, Service, ServiceSolver};

/// The remote section's own state: the solver list and a server-side cancel in flight.
#[derive(Default)]
pub struct RemoteSection {
    listing: Option<OneShot<Result<Vec<ServiceSolver>, String>>>,
    /// The last list fetched (or why it could not be).
    pub solvers: Option<Result<Vec<ServiceSolver>, String>>,
    cancelling: Option<OneShot<Result<String, String>>>,
    /// The sampler and settings the account lines were resolved for, and the lines.
    account: Option<(&'static str, ParamValues, AccountLines)>,
}

/// A service's account lines: the text, and `false` where the user must act.
type AccountLines = Vec<(String, bool)>;

impl RemoteSection {
    /// Whether the section waits on the service (the solver list, a cancel).
    pub fn busy(&self) -> bool {
        self.listing.is_some() || self.cancelling.is_some()
    }

    /// Draws the section for sampler `e` (nothing for a local one).
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared, e: &'static SamplerEntry) {
        let RunsOn::Service(service) = e.runs_on else {
            return;
        };
        let values = crate::params::validate(e.params, &s.settings.sampler_params(e.name))
            .unwrap_or_default();
        ui.separator();
        ui.strong(format!("Remote service: {}", service.name));
        for (line, ok) in self.account_lines(e.name, service, &values) {
            if ok {
                ui.label(line);
            } else {
                ui.colored_label(ui.visuals().warn_fg_color, line);
            }
        }
        let mut chosen_properties = None;
        if let Some(listing) = &service.solvers {
            ui.horizontal(|ui| {
                let busy = self.listing.is_some();
                if ui
                    .add_enabled(!busy, egui::Button::new("List solvers"))
                    .clicked()
                {
                    let values = values.clone();
                    let list = listing.list;
                    let ctx = ui.ctx().clone();
                    self.listing = Some(OneShot::start(
                        move || list(&values),
                        move || ctx.request_repaint(),
                    ));
                }
                if busy {
                    ui.spinner();
                }
            });
            self.solvers_ui(ui, s, e, listing.category);
            // The cost is figured for the solver chosen, else the first of the right category.
            let named = values.get("solver").and_then(|v| v.as_str());
            chosen_properties = self
                .solvers
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .and_then(|list| {
                    list.iter()
                        .find(|x| Some(x.name.as_str()) == named)
                        .or_else(|| list.iter().find(|x| x.category == listing.category))
                })
                .map(|x| x.properties.clone());
        }
        let n = s.doc.model.as_ref().map_or(0, |m| m.qubo.num_variables());
        ui.weak((service.cost)(&values, n, chosen_properties.as_ref()));
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

    /// Takes in what the job threads finished (`Workbench::logic`, before layout).
    pub fn poll(&mut self, s: &mut Shared) {
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

    /// The account lines, resolved again only when the sampler or its settings change (the
    /// service reads configuration files).
    fn account_lines(
        &mut self,
        sampler: &'static str,
        service: &Service,
        values: &ParamValues,
    ) -> Vec<(String, bool)> {
        if self
            .account
            .as_ref()
            .is_none_or(|(n, v, _)| *n != sampler || v != values)
        {
            self.account = Some((sampler, values.clone(), (service.account)(values)));
        }
        self.account
            .as_ref()
            .map(|(_, _, l)| l.clone())
            .unwrap_or_default()
    }

    fn solvers_ui(
        &mut self,
        ui: &mut egui::Ui,
        s: &mut Shared,
        e: &'static SamplerEntry,
        category: &str,
    ) {
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
                        ui.strong("topology and size");
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
                            ui.label(solver.shape());
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
    let service = crate::samplers::entry(&job.sampler)
        .ok()
        .and_then(|e| match e.runs_on {
            RunsOn::Service(service) => Some(service),
            RunsOn::ThisMachine => None,
        });
    OneShot::start(
        move || match service {
            Some(service) => (service.cancel)(&values, &job.problem_id),
            None => Err(format!(
                "{} is not a remote sampler of this build: cannot cancel its job",
                job.sampler
            )),
        },
        move || ctx.request_repaint(),
    )
}
