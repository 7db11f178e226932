//! One editor per puzzle kind, behind one trait: the puzzle panel hands every kind's editor the
//! same things (the canvas response, where the drawing landed, the document) and asks it for its
//! toolbar. `editor_for` matches on `AnyPuzzle`, so a kind without an editor does not compile.

mod constrained;
mod edge_matching;
mod minesweeper;
mod numberlink;
mod sudoku;

use std::any::Any;

use super::document::Document;
use super::painter::Placement;
use crate::puzzle::{AnyPuzzle, AnySolution, Kind, PuzzleError, Variant};

/// The document's puzzle, if it is of the editor's kind `P`.
pub(super) fn puzzle_of<P: Variant>(doc: &Document) -> Option<&P> {
    doc.puzzle().and_then(P::of)
}

/// Applies `f` to the document's puzzle of kind `P` (undoable); the error in words.
pub(super) fn edit_as<P: Variant>(
    doc: &mut Document,
    f: impl FnOnce(&mut P) -> Result<(), PuzzleError>,
) -> Option<String> {
    doc.edit(|p| P::of_mut(p).map_or(Ok(()), f)).err()
}

pub use constrained::ConstrainedEditor;
pub use edge_matching::EdgeMatchingEditor;
pub use minesweeper::{MinesweeperEditor, Mode as MinesweeperMode};
pub use numberlink::NumberlinkEditor;
pub use sudoku::{DIGIT_KEYS, SudokuEditor};

/// What the puzzle panel needs of a kind's editor.
pub trait KindEditor: Any {
    /// Handles clicks and keys on the canvas. Returns a status message.
    fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String>;
    /// Highlights drawn over the puzzle (selection).
    fn overlay(&self, painter: &egui::Painter, at: &Placement, doc: &Document);
    /// The user's own entries as a candidate solution, if any (drawn and refereed live).
    fn entries(&self, puzzle: &AnyPuzzle) -> Option<AnySolution>;
    /// Puts back entries an undo or redo restores (kinds whose entries are kept elsewhere, or
    /// that have none, ignore it).
    fn set_entries(&mut self, _entries: Option<AnySolution>) {}
    /// What to say about the point `pos` when per-cell probabilities are drawn (the value
    /// under the pointer); `None` by default.
    fn hover_text(
        &self,
        _at: &Placement,
        _pos: egui::Pos2,
        _doc: &Document,
        _probabilities: &crate::puzzle::CellProbabilities,
    ) -> Option<String> {
        None
    }
    /// The editor's own picture of the puzzle with `shown` (Numberlink: one layer alone), or
    /// `None` for the kind's usual drawing.
    fn drawing(
        &self,
        _puzzle: &AnyPuzzle,
        _shown: Option<&AnySolution>,
    ) -> Option<crate::render::Drawing> {
        None
    }
    /// The kind's own toolbar controls. Returns a status message.
    fn toolbar_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> Option<String>;
    /// For tests and callers that know the kind.
    fn as_any(&self) -> &dyn Any;
    /// For tests and callers that know the kind, to change.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// A fresh editor for the puzzle's kind.
pub fn editor_for(puzzle: &AnyPuzzle) -> Box<dyn KindEditor> {
    match puzzle {
        AnyPuzzle::Sudoku(_) => Box::new(SudokuEditor::default()),
        AnyPuzzle::EdgeMatching(_) => Box::new(EdgeMatchingEditor::default()),
        AnyPuzzle::Minesweeper(_) => Box::new(MinesweeperEditor::default()),
        AnyPuzzle::Numberlink(_) => Box::new(NumberlinkEditor::default()),
        AnyPuzzle::Constrained(_) => Box::new(ConstrainedEditor::default()),
    }
}

/// The current document's editor, made when the kind changes.
#[derive(Default)]
pub struct Editors {
    current: Option<(Kind, Box<dyn KindEditor>)>,
}

impl Editors {
    /// The editor for the document's puzzle (made on first use, or when the kind changed).
    pub fn for_doc(&mut self, doc: &Document) -> Option<&mut Box<dyn KindEditor>> {
        let puzzle = doc.puzzle()?;
        if self.current.as_ref().map(|(k, _)| *k) != Some(puzzle.kind()) {
            self.current = Some((puzzle.kind(), editor_for(puzzle)));
        }
        self.current.as_mut().map(|(_, e)| e)
    }

    /// The current editor as its concrete type (tests).
    pub fn get<E: KindEditor>(&self) -> Option<&E> {
        self.current.as_ref()?.1.as_any().downcast_ref::<E>()
    }

    /// The current editor as its concrete type, to change (tests).
    pub fn get_mut<E: KindEditor>(&mut self) -> Option<&mut E> {
        self.current.as_mut()?.1.as_any_mut().downcast_mut::<E>()
    }

    /// The user's own entries as a candidate solution, if any.
    pub fn entries(&self, doc: &Document) -> Option<AnySolution> {
        self.current.as_ref()?.1.entries(doc.puzzle()?)
    }

    /// Gives the current editor back the entries an undo or redo restored.
    pub fn set_entries(&mut self, doc: &Document, entries: Option<AnySolution>) {
        if let Some(editor) = self.for_doc(doc) {
            editor.set_entries(entries);
        }
    }

    /// The current editor's own picture, if it has one (see `KindEditor::drawing`).
    pub fn drawing(
        &self,
        doc: &Document,
        shown: Option<&AnySolution>,
    ) -> Option<crate::render::Drawing> {
        self.current.as_ref()?.1.drawing(doc.puzzle()?, shown)
    }

    /// Clears per-instance editor state (a new or generated puzzle).
    pub fn reset(&mut self) {
        self.current = None;
    }
}
