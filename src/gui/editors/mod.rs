//! One editor per puzzle kind, behind one entry point: the puzzle panel hands every kind's
//! editor the same things (the canvas response, where the drawing landed, the document).

mod sudoku;

use super::document::Document;
use super::painter::Placement;
use crate::puzzle::{AnyPuzzle, AnySolution};

pub use sudoku::SudokuEditor;

/// Editor state of every kind (only the current kind's is used).
#[derive(Default)]
pub struct Editors {
    pub sudoku: SudokuEditor,
}

impl Editors {
    /// Handles clicks and keys on the canvas for the document's kind. Returns a status message.
    pub fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String> {
        match doc.puzzle()? {
            AnyPuzzle::Sudoku(_) => self.sudoku.handle(response, at, doc),
        }
    }

    /// Highlights the editor draws over the puzzle (selection).
    pub fn overlay(&self, painter: &egui::Painter, at: &Placement, doc: &Document) {
        if let Some(AnyPuzzle::Sudoku(_)) = doc.puzzle() {
            self.sudoku.overlay(painter, at);
        }
    }

    /// The user's own entries as a candidate solution, if any (drawn and refereed live).
    pub fn entries(&self, doc: &Document) -> Option<AnySolution> {
        match doc.puzzle()? {
            AnyPuzzle::Sudoku(p) => self.sudoku.entries_solution(p).map(AnySolution::Sudoku),
        }
    }

    /// Clears per-instance editor state (a new or generated puzzle).
    pub fn reset(&mut self) {
        *self = Editors::default();
    }
}
