//! The Sudoku editor: click a cell, type a digit (1-9, A-G on 16×16), Delete/Backspace/0 clears,
//! arrows move, T toggles the cell between "given" and "my entry". Givens change the instance
//! (undoable); entries are a trial solution, drawn and refereed live but not saved.

use egui::{Color32, Key, Rect, Stroke, Vec2};

use super::KindEditor;
use super::puzzle_of;
use crate::gui::document::Document;
use crate::gui::painter::Placement;
use crate::puzzle::sudoku::DRAW_MARGIN;
use crate::puzzle::{AnyPuzzle, AnySolution, Sudoku, SudokuSolution};

/// The Sudoku editor's state.
pub struct SudokuEditor {
    /// The selected cell (row, column).
    pub selected: Option<(usize, usize)>,
    /// Typing sets givens (designing the instance) rather than entries (trying a solution).
    pub givens_mode: bool,
    /// The user's own digits per cell (0 = none), row-major.
    pub entries: Vec<u8>,
}

impl Default for SudokuEditor {
    fn default() -> Self {
        SudokuEditor {
            selected: None,
            givens_mode: true,
            entries: Vec::new(),
        }
    }
}

/// The keys that type the digits 1–9 and A–G (16×16), in symbol order.
pub const DIGIT_KEYS: [Key; 16] = [
    Key::Num1,
    Key::Num2,
    Key::Num3,
    Key::Num4,
    Key::Num5,
    Key::Num6,
    Key::Num7,
    Key::Num8,
    Key::Num9,
    Key::A,
    Key::B,
    Key::C,
    Key::D,
    Key::E,
    Key::F,
    Key::G,
];

impl KindEditor for SudokuEditor {
    fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String> {
        SudokuEditor::handle(self, response, at, doc)
    }

    fn overlay(&self, painter: &egui::Painter, at: &Placement, _doc: &Document) {
        SudokuEditor::overlay(self, painter, at)
    }

    fn entries(&self, puzzle: &AnyPuzzle) -> Option<AnySolution> {
        match puzzle {
            AnyPuzzle::Sudoku(p) => self.entries_solution(p).map(AnySolution::Sudoku),
            _ => None,
        }
    }

    fn set_entries(&mut self, entries: Option<AnySolution>) {
        // The givens' digits come back too; `entries_solution` lets the givens win there.
        self.entries = match entries {
            Some(AnySolution::Sudoku(s)) => {
                let side = s.side();
                (0..side * side)
                    .map(|k| s.digit(k / side, k % side).unwrap_or(0))
                    .collect()
            }
            _ => Vec::new(),
        };
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> Option<String> {
        let mut status = None;
        ui.checkbox(&mut self.givens_mode, "Typing sets givens")
            .on_hover_text(
                "On: digits you type become givens of the instance. Off: they are your own trial entries.",
            );
        if ui
            .button("Toggle given")
            .on_hover_text("Selected cell: given ↔ entry (key T)")
            .clicked()
        {
            status = self.toggle_given(doc);
        }
        let entries = puzzle_of::<Sudoku>(doc).and_then(|p| self.entries_solution(p));
        if ui
            .add_enabled(entries.is_some(), egui::Button::new("Clear entries"))
            .on_hover_text("Remove your trial entries (undoable)")
            .clicked()
        {
            doc.record_entries(entries.map(AnySolution::Sudoku));
            self.entries.clear();
        }
        status
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

impl SudokuEditor {
    fn entry(&self, k: usize) -> u8 {
        self.entries.get(k).copied().unwrap_or(0)
    }

    fn set_entry(&mut self, side: usize, k: usize, d: u8) {
        self.entries.resize(side * side, 0);
        self.entries[k] = d;
    }

    /// Puts digit `d` (0 clears) into the selected cell, as a given or an entry.
    pub fn type_digit(&mut self, doc: &mut Document, d: u8) -> Option<String> {
        let (r, c) = self.selected?;
        let side = puzzle_of::<Sudoku>(doc)?.side();
        let k = r * side + c;
        if d as usize > side {
            return Some(format!("{d} is not a digit of a {side}×{side} Sudoku"));
        }
        let given = puzzle_of::<Sudoku>(doc)?.given(r, c);
        // Entries are undoable like edits: their state before the change is recorded.
        let before = self
            .entries_solution(puzzle_of::<Sudoku>(doc)?)
            .map(AnySolution::Sudoku);
        if d == 0 {
            if self.entry(k) != 0 {
                doc.record_entries(before);
                self.set_entry(side, k, 0);
            } else if given != 0 {
                return doc.edit(|p| set(p, r, c, 0)).err();
            }
            return None;
        }
        if self.givens_mode {
            self.set_entry(side, k, 0);
            doc.edit(|p| set(p, r, c, d)).err()
        } else if given != 0 {
            Some("that cell holds a given: toggle it (T) to change it".into())
        } else {
            if self.entry(k) != d {
                doc.record_entries(before);
            }
            self.set_entry(side, k, d);
            None
        }
    }

    /// Turns the selected cell's given into an entry, or its entry into a given.
    pub fn toggle_given(&mut self, doc: &mut Document) -> Option<String> {
        let (r, c) = self.selected?;
        let s = puzzle_of::<Sudoku>(doc)?;
        let (side, given) = (s.side(), s.given(r, c));
        let k = r * side + c;
        if given != 0 {
            self.set_entry(side, k, given);
            doc.edit(|p| set(p, r, c, 0)).err()
        } else if self.entry(k) != 0 {
            let d = self.entry(k);
            self.set_entry(side, k, 0);
            doc.edit(|p| set(p, r, c, d)).err()
        } else {
            None
        }
    }

    /// Clicks select a cell; keys type, clear, move and toggle.
    pub fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String> {
        let side = puzzle_of::<Sudoku>(doc)?.side();
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let [x, y] = at.to_units(pos);
            let (c, r) = ((x - DRAW_MARGIN).floor(), (y - DRAW_MARGIN).floor());
            self.selected = (c >= 0.0 && r >= 0.0 && (c as usize) < side && (r as usize) < side)
                .then_some((r as usize, c as usize));
            response.request_focus();
        }
        let (r, c) = self.selected?;
        // Keys go to the grid when it has focus, or when no other widget (say a text field) does.
        let free = response.ctx.memory(|m| m.focused().is_none());
        if !(response.has_focus() || free) {
            return None;
        }
        let mut message = None;
        response.ctx.input(|i| {
            for (k, key) in DIGIT_KEYS.iter().enumerate() {
                if i.key_pressed(*key) {
                    message = Some(k as u8 + 1);
                }
            }
            for key in [Key::Delete, Key::Backspace, Key::Num0, Key::Period] {
                if i.key_pressed(key) {
                    message = Some(0);
                }
            }
            let moves = [
                (Key::ArrowUp, (-1, 0)),
                (Key::ArrowDown, (1, 0)),
                (Key::ArrowLeft, (0, -1)),
                (Key::ArrowRight, (0, 1)),
            ];
            for (key, (dr, dc)) in moves {
                if i.key_pressed(key) {
                    let nr = (r as i64 + dr).clamp(0, side as i64 - 1) as usize;
                    let nc = (c as i64 + dc).clamp(0, side as i64 - 1) as usize;
                    self.selected = Some((nr, nc));
                }
            }
        });
        let toggle = response.ctx.input(|i| i.key_pressed(Key::T));
        let mut status = None;
        if let Some(d) = message {
            status = self.type_digit(doc, d);
        }
        if toggle {
            status = self.toggle_given(doc);
        }
        status
    }

    /// The selection frame.
    pub fn overlay(&self, painter: &egui::Painter, at: &Placement) {
        if let Some((r, c)) = self.selected {
            let min = at.to_screen([DRAW_MARGIN + c as f32, DRAW_MARGIN + r as f32]);
            let rect = Rect::from_min_size(min, Vec2::splat(at.scale));
            painter.rect_stroke(
                rect.shrink(1.5),
                2.0,
                Stroke::new(3.0, Color32::from_rgb(240, 160, 0)),
                egui::StrokeKind::Inside,
            );
        }
    }

    /// Givens plus entries, when there are entries.
    pub fn entries_solution(&self, p: &Sudoku) -> Option<SudokuSolution> {
        let side = p.side();
        if self.entries.len() != side * side || self.entries.iter().all(|&d| d == 0) {
            return None;
        }
        let digits: Vec<u8> = (0..side * side)
            .map(|k| match p.cells()[k] {
                0 => self.entries[k],
                g => g,
            })
            .collect();
        Some(SudokuSolution::from_digits(side, &digits))
    }
}

fn set(p: &mut AnyPuzzle, r: usize, c: usize, d: u8) -> Result<(), crate::puzzle::PuzzleError> {
    match p {
        AnyPuzzle::Sudoku(s) => s.set_given(r, c, d),
        _ => Ok(()),
    }
}
