//! The Minesweeper editor, in two modes. **Play**: a click opens a cell (a 0 floods, a click on
//! a satisfied number chords), a right click flags; a timer runs from the first move to the win
//! or loss; "New game" deals a fresh board of the same size. **Design**: a click opens or closes
//! a cell (its number from the layout), a right click puts or takes a mine. Every move is an
//! undoable edit of the document, so the design facts — and with them the exact mine
//! probabilities drawn over the board — refresh off the UI thread after each one.

use std::any::Any;
use std::time::Instant;

use egui::{Color32, Stroke};

use super::KindEditor;
use super::{edit_as, puzzle_of};
use crate::gui::document::Document;
use crate::gui::painter::Placement;
use crate::puzzle::minesweeper::{Cell, GameState, Minesweeper};
use crate::puzzle::{AnyPuzzle, AnySolution};

/// What clicks do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Open, chord, flag.
    #[default]
    Play,
    /// Open or close cells, put or take mines.
    Design,
}

/// The editor's state.
#[derive(Default)]
pub struct MinesweeperEditor {
    /// Play or design.
    pub mode: Mode,
    /// When the current game's first move was made.
    started: Option<Instant>,
    /// The game's time once it ended.
    finished_s: Option<f64>,
    /// The last cell clicked (outlined).
    pub last: Option<(usize, usize)>,
    /// Where a press began (a slow click reaches the editor as a drag).
    pressed: Option<(usize, usize)>,
}

/// The cell under a point in drawing units.
fn cell_at(p: &Minesweeper, units: [f32; 2]) -> Option<(usize, usize)> {
    let (x, y) = (
        units[0] - crate::puzzle::minesweeper::DRAW_MARGIN,
        units[1] - crate::puzzle::minesweeper::DRAW_MARGIN,
    );
    if x < 0.0 || y < 0.0 {
        return None;
    }
    let (c, r) = (x as usize, y as usize);
    (r < p.height() && c < p.width()).then_some((r, c))
}

impl MinesweeperEditor {
    /// A left click on (r, c) in the current mode.
    pub fn click(&mut self, doc: &mut Document, r: usize, c: usize) -> Option<String> {
        self.last = Some((r, c));
        let p = puzzle_of::<Minesweeper>(doc)?;
        match self.mode {
            Mode::Design => edit_as::<Minesweeper>(doc, |m| m.toggle_open(r, c)),
            Mode::Play => {
                if p.layout().is_none() && !p.is_undealt() {
                    return Some(
                        "this position has no mine layout to play: generate a board (New game)"
                            .into(),
                    );
                }
                let chord = matches!(p.cell(r, c), Cell::Opened(_));
                self.started.get_or_insert_with(Instant::now);
                let status = edit_as::<Minesweeper>(doc, |m| {
                    if chord {
                        m.chord(r, c);
                    } else {
                        m.open(r, c);
                    }
                    Ok(())
                });
                self.note_end(doc);
                status
            }
        }
    }

    /// A right click on (r, c) in the current mode.
    pub fn secondary_click(&mut self, doc: &mut Document, r: usize, c: usize) -> Option<String> {
        self.last = Some((r, c));
        match self.mode {
            Mode::Design => edit_as::<Minesweeper>(doc, |m| m.toggle_mine(r, c)),
            Mode::Play => edit_as::<Minesweeper>(doc, |m| {
                m.toggle_flag(r, c);
                Ok(())
            }),
        }
    }

    /// A fresh board of the current size and mine count (a new random seed).
    pub fn new_game(&mut self, doc: &mut Document) -> Option<String> {
        let p = puzzle_of::<Minesweeper>(doc)?;
        let (w, h, m) = (p.width(), p.height(), p.mines().max(1));
        let seed = rand::random::<u64>();
        self.started = None;
        self.finished_s = None;
        self.last = None;
        // The mines are placed at the first click, away from it: the first click is safe.
        match Minesweeper::undealt(w.max(2), h.max(2), m, seed) {
            Ok(fresh) => doc.replace(AnyPuzzle::Minesweeper(fresh)).err(),
            Err(e) => Some(e.to_string()),
        }
    }

    /// The game's state and seconds so far (or at its end).
    pub fn clock(&self, doc: &Document) -> Option<(GameState, f64)> {
        let p = puzzle_of::<Minesweeper>(doc)?;
        let s = self
            .finished_s
            .or_else(|| self.started.map(|t| t.elapsed().as_secs_f64()))
            .unwrap_or(0.0);
        Some((p.game_state(), s))
    }

    fn note_end(&mut self, doc: &Document) {
        if let (Some(p), Some(t)) = (puzzle_of::<Minesweeper>(doc), self.started)
            && p.game_state() != GameState::Playing
            && self.finished_s.is_none()
        {
            self.finished_s = Some(t.elapsed().as_secs_f64());
        }
    }
}

impl KindEditor for MinesweeperEditor {
    fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String> {
        let p = puzzle_of::<Minesweeper>(doc)?.clone();
        let hit = |pos: egui::Pos2| cell_at(&p, at.to_units(pos));
        // A slow press and release on one cell is a click too (egui calls it a drag).
        if response.drag_started() {
            self.pressed = response.interact_pointer_pos().and_then(hit);
        }
        if response.drag_stopped() {
            let from = self.pressed.take();
            let to = response.interact_pointer_pos().and_then(hit);
            if let (Some(a), Some(b)) = (from, to)
                && a == b
            {
                return self.click(doc, a.0, a.1);
            }
        }
        if response.clicked()
            && let Some((r, c)) = response.interact_pointer_pos().and_then(hit)
        {
            return self.click(doc, r, c);
        }
        if response.secondary_clicked()
            && let Some((r, c)) = response.interact_pointer_pos().and_then(hit)
        {
            return self.secondary_click(doc, r, c);
        }
        None
    }

    fn overlay(&self, painter: &egui::Painter, at: &Placement, doc: &Document) {
        let (Some((r, c)), Some(_)) = (self.last, puzzle_of::<Minesweeper>(doc)) else {
            return;
        };
        let m = crate::puzzle::minesweeper::DRAW_MARGIN;
        let min = at.to_screen([m + c as f32, m + r as f32]);
        let max = at.to_screen([m + c as f32 + 1.0, m + r as f32 + 1.0]);
        painter.rect_stroke(
            egui::Rect::from_min_max(min, max),
            0.0,
            Stroke::new(2.0, Color32::from_rgb(240, 160, 0)),
            egui::StrokeKind::Inside,
        );
    }

    fn hover_text(
        &self,
        at: &Placement,
        pos: egui::Pos2,
        doc: &Document,
        probabilities: &crate::puzzle::CellProbabilities,
    ) -> Option<String> {
        let p = puzzle_of::<Minesweeper>(doc)?;
        let (r, c) = cell_at(p, at.to_units(pos))?;
        let k = p.index(r, c);
        (p.cell(r, c) == Cell::Unopened).then(|| {
            format!(
                "{}: mine probability {:.4} %",
                p.place(k),
                100.0 * probabilities.p.get(k).copied().unwrap_or(0.0)
            )
        })
    }

    fn entries(&self, _puzzle: &AnyPuzzle) -> Option<AnySolution> {
        None
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> Option<String> {
        let mut status = None;
        ui.selectable_value(&mut self.mode, Mode::Play, "Play")
            .on_hover_text("Click opens (a click on a number whose flags match opens the rest), right click flags");
        ui.selectable_value(&mut self.mode, Mode::Design, "Design")
            .on_hover_text("Click opens or closes a cell, right click puts or takes a mine");
        if ui
            .button("New game")
            .on_hover_text("A fresh board of this size and mine count; the mines are placed at your first click, away from it")
            .clicked()
        {
            status = self.new_game(doc);
        }
        if let Some((state, s)) = self.clock(doc) {
            let p = puzzle_of::<Minesweeper>(doc);
            let left = p.map_or(0, |p| p.mines() as i64 - p.num_flags() as i64);
            let text = match state {
                GameState::Playing => format!("{left} mines left · {s:.0} s"),
                GameState::Won => format!("Won in {s:.1} s"),
                GameState::Lost(_) => format!("Lost after {s:.1} s"),
            };
            ui.label(text);
            if state == GameState::Playing && self.started.is_some() {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(250));
            }
        }
        status
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
