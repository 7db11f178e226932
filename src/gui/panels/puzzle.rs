//! The puzzle: drawn from the same `Drawing` the CLI exports, edited through the kind's editor,
//! with the selected sample (or the user's own entries) drawn over it and refereed live.

use egui::{Role, Sense, WidgetInfo};

use crate::gui::app::{Command, Shared};
use crate::gui::document::Content;
use crate::gui::editors::Editors;
use crate::gui::painter::{self, Placement};
use crate::puzzle::{AnyPuzzle, sudoku};

pub struct PuzzlePanel {
    pub editors: Editors,
    gen_side: usize,
    gen_givens: usize,
    gen_seed: u64,
    /// Draw the selected sample over the puzzle.
    pub show_sample: bool,
    /// Where the drawing landed last frame (tests click through it).
    pub placement: Option<Placement>,
}

impl Default for PuzzlePanel {
    fn default() -> Self {
        PuzzlePanel {
            editors: Editors::default(),
            gen_side: 9,
            gen_givens: 28,
            gen_seed: 1,
            show_sample: true,
            placement: None,
        }
    }
}

impl PuzzlePanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        if let Content::Model { name, .. } = &s.doc.content {
            ui.heading(name.clone());
            let n = s.doc.model.as_ref().map_or(0, |m| m.qubo.num_variables());
            ui.label(format!("A QUBO model opened from a file: {n} variables. There is no puzzle to draw; inspect it and sample it."));
            return;
        }
        self.toolbar_ui(ui, s);
        let Some(puzzle) = s.doc.puzzle().cloned() else {
            return;
        };
        let entries = self.editors.entries(&s.doc);
        let shown = if self.show_sample {
            s.selected_solution().cloned()
        } else {
            None
        }
        .or(entries);
        let drawing = puzzle.draw(shown.as_ref());
        let verdict = shown.as_ref().map(|sol| puzzle.check(sol));
        let avail =
            ui.available_size() - egui::vec2(0.0, if verdict.is_some() { 48.0 } else { 0.0 });
        let (response, painter) =
            ui.allocate_painter(avail.max(egui::vec2(50.0, 50.0)), Sense::click());
        response.widget_info(|| WidgetInfo::labeled(Role::Canvas, true, "Puzzle canvas"));
        let at = painter::paint(
            &painter,
            &drawing,
            response.rect.shrink(8.0),
            s.fonts_installed,
        );
        self.editors.overlay(&painter, &at, &s.doc);
        if let Some(message) = self.editors.handle(&response, &at, &mut s.doc) {
            s.status = message;
        }
        self.placement = Some(at);
        if let Some(v) = verdict {
            if v.is_empty() {
                ui.colored_label(egui::Color32::from_rgb(30, 140, 60), "✔ valid solution");
            } else {
                let first: Vec<String> = v
                    .iter()
                    .take(4)
                    .map(|v| format!("{}: {}", v.constraint, v.detail))
                    .collect();
                ui.colored_label(
                    egui::Color32::from_rgb(200, 40, 40),
                    format!("{} broken: {}", v.len(), first.join("; ")),
                );
            }
        }
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.horizontal_wrapped(|ui| {
            if ui.add_enabled(s.doc.can_undo(), egui::Button::new("Undo")).clicked() {
                s.send(Command::Undo);
            }
            if ui.add_enabled(s.doc.can_redo(), egui::Button::new("Redo")).clicked() {
                s.send(Command::Redo);
            }
            ui.separator();
            let Some(AnyPuzzle::Sudoku(p)) = s.doc.puzzle() else { return };
            let side = p.side();
            let ed = &mut self.editors.sudoku;
            ui.checkbox(&mut ed.givens_mode, "Typing sets givens")
                .on_hover_text("On: digits you type become givens of the instance. Off: they are your own trial entries.");
            if ui.button("Toggle given").on_hover_text("Selected cell: given ↔ entry (key T)").clicked()
                && let Some(m) = ed.toggle_given(&mut s.doc)
            {
                s.status = m;
            }
            if ui.button("Clear entries").clicked() {
                ed.entries.clear();
            }
            ui.checkbox(&mut self.show_sample, "Show selected sample");
            ui.separator();
            egui::ComboBox::from_label("size")
                .selected_text(format!("{0}×{0}", self.gen_side))
                .show_ui(ui, |ui| {
                    for k in [4, 9, 16] {
                        ui.selectable_value(&mut self.gen_side, k, format!("{k}×{k}"));
                    }
                });
            ui.add(egui::DragValue::new(&mut self.gen_givens).range(0..=256).prefix("givens "));
            ui.add(egui::DragValue::new(&mut self.gen_seed).prefix("seed "));
            if ui.button("Generate").clicked() {
                match sudoku::generate(self.gen_side, self.gen_givens, self.gen_seed) {
                    Ok(p) => {
                        let _ = s.doc.replace(AnyPuzzle::Sudoku(p));
                        self.editors.reset();
                        s.result = None;
                        s.selected_row = None;
                        s.status = format!("generated a {0}×{0} Sudoku with {1} givens (seed {2})", self.gen_side, self.gen_givens, self.gen_seed);
                    }
                    Err(e) => s.status = e.to_string(),
                }
            }
            let _ = side;
        });
    }
}
