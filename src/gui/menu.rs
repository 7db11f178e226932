//! The menu bar (its New menu comes from the registered kinds), the status bar, and the
//! unsaved-changes question.

use super::app::Workbench;
use super::jobs::FileAction;
use super::shared::Command;
use crate::puzzle::Kind;

impl Workbench {
    /// The menu bar.
    pub(super) fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                ui.menu_button("New", |ui| {
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
                if ui.button("Open…").clicked() {
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
                            self.shared.send(Command::Open(p));
                        }
                    }
                });
                ui.separator();
                if ui
                    .add_enabled(
                        self.shared.doc.puzzle().is_some(),
                        egui::Button::new("Save"),
                    )
                    .clicked()
                {
                    self.shared.send(Command::Save);
                }
                if ui
                    .add_enabled(
                        self.shared.doc.puzzle().is_some(),
                        egui::Button::new("Save As…"),
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
                ui.separator();
                ui.checkbox(
                    &mut self.shared.settings.builtin_file_dialog,
                    "Use the workbench's own file form",
                )
                .on_hover_text(
                    "type paths instead of the desktop's file dialog (used anyway where no \
                     dialog can open)",
                );
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(self.shared.doc.can_undo(), egui::Button::new("Undo"))
                    .clicked()
                {
                    self.shared.send(Command::Undo);
                }
                if ui
                    .add_enabled(self.shared.doc.can_redo(), egui::Button::new("Redo"))
                    .clicked()
                {
                    self.shared.send(Command::Redo);
                }
            });
            ui.separator();
            ui.strong(self.shared.doc.title());
        });
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
            });
        });
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
