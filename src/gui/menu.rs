//! The menu bar (its New menu comes from the registered kinds), the status bar, and the
//! unsaved-changes question.

use super::app::Workbench;
use super::file_actions::FileAction;
use super::shared::Command;
use super::shortcuts::Action;
use crate::puzzle::Kind;

impl Workbench {
    /// The menu bar.
    pub(super) fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("Edit", |ui| self.edit_menu(ui));
            ui.menu_button("View", |ui| self.view_menu(ui));
            ui.separator();
            ui.strong(self.shared.doc.title());
        });
    }

    /// File: new, open, recent, save, the exports and imports, the file form setting.
    fn file_menu(&mut self, ui: &mut egui::Ui) {
        ui.menu_button("New", |ui| {
            ui.weak(format!(
                "{}: a blank puzzle of the open kind",
                shortcut(ui, Action::New)
            ));
            // Every registered kind's example, then its blank presets.
            for &kind in Kind::ALL {
                if ui
                    .button(format!("{kind} example"))
                    .on_hover_text(kind.example_file())
                    .clicked()
                {
                    self.shared.send(Command::New(Box::new(kind.example())));
                }
                for (name, puzzle) in kind.presets() {
                    if ui.button(name).clicked() {
                        self.shared.send(Command::New(Box::new(puzzle)));
                    }
                }
            }
        });
        if ui
            .add(egui::Button::new("Open…").shortcut_text(shortcut(ui, Action::Open)))
            .clicked()
        {
            self.shared.send(Command::Dialog(FileAction::OpenPuzzle));
        }
        if ui.button("Open model…").clicked() {
            self.shared.send(Command::Dialog(FileAction::OpenModel));
        }
        ui.menu_button("Recent files", |ui| {
            if self.shared.settings.recent.is_empty() {
                ui.label("none yet");
            }
            for p in self.shared.settings.recent.clone() {
                if ui.button(p.display().to_string()).clicked() {
                    self.shared.send(Command::File(FileAction::OpenPuzzle, p));
                }
            }
        });
        ui.separator();
        if ui
            .add_enabled(
                self.shared.doc.puzzle().is_some(),
                egui::Button::new("Save").shortcut_text(shortcut(ui, Action::Save)),
            )
            .clicked()
        {
            self.shared.send(Command::Save);
        }
        if ui
            .add_enabled(
                self.shared.doc.puzzle().is_some(),
                egui::Button::new("Save As…").shortcut_text(shortcut(ui, Action::SaveAs)),
            )
            .clicked()
        {
            self.shared.send(Command::Dialog(FileAction::SaveAs));
        }
        ui.separator();
        if ui
            .add_enabled(
                self.shared.doc.puzzle().is_some(),
                egui::Button::new("Export image…"),
            )
            .clicked()
        {
            // The choices first; the form goes on to the file dialog.
            self.export_form = true;
        }
        if ui
            .add_enabled(
                self.shared.doc.model.is_some(),
                egui::Button::new("Export QUBO…"),
            )
            .clicked()
        {
            self.shared.send(Command::Dialog(FileAction::ExportQubo));
        }
        if ui
            .add_enabled(
                self.shared.result.is_some(),
                egui::Button::new("Export samples…"),
            )
            .clicked()
        {
            self.shared.send(Command::Dialog(FileAction::ExportSamples));
        }
        if ui
            .add_enabled(
                self.shared.doc.model.is_some(),
                egui::Button::new("Import samples…"),
            )
            .on_hover_text(
                "A sample set saved by dimod (SampleSet.to_serializable() as JSON) or by \
                 Export samples, shown as a run of this model",
            )
            .clicked()
        {
            self.shared.send(Command::Dialog(FileAction::ImportSamples));
        }
        if ui
            .button("Open campaign table…")
            .on_hover_text(
                "A campaign's campaign.json (qubo-workbench campaign --out DIR): TTS99 per \
                 instance and its scaling with problem size",
            )
            .clicked()
        {
            self.shared.send(Command::Dialog(FileAction::OpenCampaign));
        }
        ui.separator();
        ui.checkbox(
            &mut self.shared.settings.builtin_file_dialog,
            "Use the workbench's own file form",
        )
        .on_hover_text(
            "type paths instead of the desktop's file dialog (used anyway where no \
             dialog can open)",
        );
    }

    /// Edit: undo and redo.
    fn edit_menu(&mut self, ui: &mut egui::Ui) {
        if ui
            .add_enabled(
                self.shared.doc.can_undo(),
                egui::Button::new("Undo").shortcut_text(shortcut(ui, Action::Undo)),
            )
            .clicked()
        {
            self.shared.send(Command::Undo);
        }
        if ui
            .add_enabled(
                self.shared.doc.can_redo(),
                egui::Button::new("Redo").shortcut_text(shortcut(ui, Action::Redo)),
            )
            .clicked()
        {
            self.shared.send(Command::Redo);
        }
    }

    /// View: which panels around the board are shown.
    fn view_menu(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.shown.solver, "Solver and sweeps (left)");
        ui.checkbox(&mut self.shown.inspector, "QUBO inspector (right)");
        ui.checkbox(&mut self.shown.results, "Results (bottom)");
        ui.separator();
        let all = self.shown == super::app::PanelsShown::default();
        if ui
            .button(if all { "Board only" } else { "All panels" })
            .on_hover_text("hide or show every panel around the board")
            .clicked()
        {
            let on = !all;
            self.shown = super::app::PanelsShown {
                solver: on,
                inspector: on,
                results: on,
            };
        }
    }

    /// The status bar.
    pub(super) fn status_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label(&self.shared.status);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.weak(format!(
                    "frame {:.1} ms (max {:.1} ms over the last 120)",
                    self.frame_stats.last_ms(),
                    self.frame_stats.recent_max_ms()
                ));
                // What runs in the background, by name (`running_tasks`).
                if let Some(running) = self.running_summary() {
                    ui.separator();
                    ui.spinner();
                    ui.label(format!("running: {running}"));
                }
            });
        });
    }

    /// The "unsaved changes" question before the document is replaced (New, Open, a generated
    /// puzzle): save first where the document has a file, discard, or keep it.
    pub(super) fn confirm_replace_ui(&mut self, ctx: &egui::Context) {
        let Some(pending) = &self.pending_replace else {
            return;
        };
        let what = pending.describe();
        let title = self.shared.doc.title();
        let save_to = self
            .shared
            .doc
            .path
            .clone()
            .filter(|_| self.shared.doc.puzzle().is_some());
        #[derive(PartialEq)]
        enum Answer {
            Save,
            Discard,
            Keep,
        }
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("confirm-replace")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!(
                "{title} has changes that are not saved to a file. To {what}, save them first \
                 or discard them."
            ));
            ui.horizontal(|ui| {
                if let Some(path) = &save_to
                    && ui
                        .button("Save, then go on")
                        .on_hover_text(format!("writes {}", path.display()))
                        .clicked()
                {
                    answer = Some(Answer::Save);
                }
                if ui.button("Discard changes").clicked() {
                    answer = Some(Answer::Discard);
                }
                if ui.button("Keep editing").clicked() {
                    answer = Some(Answer::Keep);
                }
            });
            if save_to.is_none() {
                ui.weak(format!(
                    "It has no file yet: to keep it, choose Keep editing, then File ▸ Save As… \
                     ({}).",
                    super::shortcuts::text(ctx, super::shortcuts::Action::SaveAs)
                ));
            }
        });
        if answer.is_none() && modal.should_close() {
            answer = Some(Answer::Keep);
        }
        let Some(answer) = answer else { return };
        let Some(pending) = self.pending_replace.take() else {
            return;
        };
        match answer {
            Answer::Keep => self.shared.status = format!("kept {title}: did not {what}"),
            Answer::Save => {
                if let Some(path) = save_to {
                    self.save_to(path, ctx);
                }
                self.go_on_replacing(pending, ctx);
            }
            Answer::Discard => self.go_on_replacing(pending, ctx),
        }
    }

    /// The "unsaved changes" question.
    pub(super) fn confirm_close_ui(&mut self, ctx: &egui::Context) {
        egui::Modal::new(egui::Id::unique("confirm-close")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!(
                "{} has changes that are not saved to a file.",
                self.shared.doc.title()
            ));
            ui.label("(They are kept in the autosave either way.)");
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    self.confirm_close = false;
                    self.shared.send(Command::Save);
                    self.close_now = !self.shared.doc.dirty;
                }
                if ui.button("Close without saving").clicked() {
                    self.confirm_close = false;
                    self.close_now = true;
                }
                if ui.button("Don't close").clicked() {
                    self.confirm_close = false;
                }
            });
        });
    }
}

/// The shortcut text shown beside a menu item.
fn shortcut(ui: &egui::Ui, action: Action) -> String {
    super::shortcuts::text(ui.ctx(), action)
}
