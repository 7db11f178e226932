//! The edge-matching editor, on the board as `EdgeMatching::layout` shows it (fixed pieces at
//! their cells, the rest in list order): click a triangle to select its piece (and, with
//! "Paint" on, give that side the brush colour); right-click or R turns a piece clockwise;
//! drag a piece onto another to swap them; F fixes the selected piece where it is, or frees it.
//! Every change edits the instance (undoable). With "Referee the layout" on, the layout is
//! drawn as a trial solution: mismatched joints in red and the score, live.

use egui::{Color32, Key, Rect, Stroke, Vec2};

use super::KindEditor;
use super::{edit_as, puzzle_of};
use crate::gui::document::Document;
use crate::gui::painter::Placement;
use crate::puzzle::edge_matching::{EdgeMatching, cell_origin, side_at};
use crate::puzzle::{AnyPuzzle, AnySolution};
use crate::render::palette;

/// The edge-matching editor's state.
pub struct EdgeMatchingEditor {
    /// The selected cell (row, column).
    pub selected: Option<(usize, usize)>,
    /// Clicks paint the clicked side with `brush`.
    pub paint: bool,
    /// The colour clicks paint (0 = border).
    pub brush: u8,
    /// Draw the layout as a trial solution (score, mismatches).
    pub referee_layout: bool,
    /// Where a drag started.
    drag_from: Option<(usize, usize)>,
    /// Where the pointer was last seen during the drag (the release may come without a
    /// position).
    drag_to: Option<egui::Pos2>,
}

impl Default for EdgeMatchingEditor {
    fn default() -> Self {
        EdgeMatchingEditor {
            selected: None,
            paint: false,
            brush: 1,
            referee_layout: false,
            drag_from: None,
            drag_to: None,
        }
    }
}

impl EdgeMatchingEditor {
    /// Gives side `side` (on the board) of the piece at (r, c) the brush colour.
    pub fn paint_side(
        &mut self,
        doc: &mut Document,
        r: usize,
        c: usize,
        side: usize,
    ) -> Option<String> {
        let p = puzzle_of::<EdgeMatching>(doc)?;
        let placed = p.layout()[r * p.cols() + c]?;
        // The board shows listed side (side − rotation) on `side`.
        let listed = (side + 4 - placed.rotation as usize) % 4;
        let brush = self.brush;
        edit_as::<EdgeMatching>(doc, |e| e.set_colour(placed.piece, listed, brush))
    }

    /// Turns the piece at (r, c) a quarter turn clockwise on the board.
    pub fn rotate(&mut self, doc: &mut Document, r: usize, c: usize) -> Option<String> {
        let p = puzzle_of::<EdgeMatching>(doc)?;
        let placed = p.layout()[r * p.cols() + c]?;
        if p.fixed_at(r, c).is_some() {
            edit_as::<EdgeMatching>(doc, |e| {
                e.rotate_fixed(r, c);
                Ok(())
            })
        } else {
            edit_as::<EdgeMatching>(doc, |e| e.rotate_piece(placed.piece, 1))
        }
    }

    /// Fixes the piece at (r, c) where it is, or frees it if it is fixed.
    pub fn toggle_fixed(&mut self, doc: &mut Document, r: usize, c: usize) -> Option<String> {
        let p = puzzle_of::<EdgeMatching>(doc)?;
        let placed = p.layout()[r * p.cols() + c]?;
        let number = p.number(placed.piece);
        if p.fixed_at(r, c).is_some() {
            edit_as::<EdgeMatching>(doc, |e| e.set_fixed(r, c, None)).or_else(|| {
                Some(format!(
                    "piece {number} is free again (shown at its place in the list)"
                ))
            })
        } else {
            // A fix that would leave the board without a solution the encoder can build (its
            // border sides off the edge, neighbours presolve cannot place) is refused with
            // the reason, so the model on show stays.
            let mut trial = p.clone();
            if let Err(e) = trial.set_fixed(r, c, Some((placed.piece, placed.rotation))) {
                return Some(format!("not fixed: {e}"));
            }
            let trial = AnyPuzzle::EdgeMatching(trial);
            if let Some(conflict) = trial.conflicts().first() {
                return Some(format!(
                    "not fixed: piece {} there would make the board impossible ({})",
                    p.number(placed.piece),
                    conflict.detail
                ));
            }
            if let Err(e) = trial.encode(&doc.options) {
                return Some(format!(
                    "not fixed: piece {} there would make the board impossible ({e})",
                    p.number(placed.piece)
                ));
            }
            edit_as::<EdgeMatching>(doc, |e| {
                e.set_fixed(r, c, Some((placed.piece, placed.rotation)))
            })
            .or_else(|| {
                Some(format!(
                    "piece {number} fixed at row {}, column {}",
                    r + 1,
                    c + 1
                ))
            })
        }
    }

    /// Swaps the pieces at two cells (neither may be fixed).
    pub fn swap(
        &mut self,
        doc: &mut Document,
        a: (usize, usize),
        b: (usize, usize),
    ) -> Option<String> {
        let p = puzzle_of::<EdgeMatching>(doc)?;
        if a == b {
            return None;
        }
        let layout = p.layout();
        let (pa, pb) = (layout[a.0 * p.cols() + a.1]?, layout[b.0 * p.cols() + b.1]?);
        for (r, c) in [a, b] {
            if let Some(f) = p.fixed_at(r, c) {
                return Some(format!(
                    "piece {} is fixed: free it (F) before moving it",
                    p.number(f.piece)
                ));
            }
        }
        edit_as::<EdgeMatching>(doc, |e| e.swap_pieces(pa.piece, pb.piece))
    }

    /// Clicks select (and paint), right-clicks turn, drags swap, keys R and F.
    pub fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String> {
        let p = puzzle_of::<EdgeMatching>(doc)?.clone();
        let hit = |pos: egui::Pos2| side_at(&p, at.to_units(pos));
        let mut status = None;
        if response.drag_started() {
            let pos = response.interact_pointer_pos();
            self.drag_from = pos.and_then(hit).map(|(r, c, _)| (r, c));
            self.drag_to = pos;
        }
        if response.dragged()
            && let Some(pos) = response.interact_pointer_pos()
        {
            self.drag_to = Some(pos);
        }
        // A press and release on one cell is a click even when egui saw a (slow) drag.
        let mut tap = None;
        if response.drag_stopped() {
            let to = self.drag_to.take();
            let from = self.drag_from.take();
            match (from, to.and_then(hit)) {
                (Some(from), Some((r, c, side))) if from == (r, c) => tap = Some((r, c, side)),
                (Some(from), Some((r, c, _))) => {
                    status = self.swap(doc, from, (r, c));
                    self.selected = Some((r, c));
                }
                _ => {}
            }
        }
        if response.clicked() {
            tap = response.interact_pointer_pos().and_then(hit);
            response.request_focus();
        }
        if let Some((r, c, side)) = tap {
            self.selected = Some((r, c));
            if self.paint {
                status = self.paint_side(doc, r, c, side);
            }
        } else if response.clicked() {
            self.selected = None;
        }
        if response.secondary_clicked()
            && let Some((r, c, _)) = response.interact_pointer_pos().and_then(hit)
        {
            self.selected = Some((r, c));
            status = self.rotate(doc, r, c);
        }
        let (r, c) = self.selected?;
        let free = response.ctx.memory(|m| m.focused().is_none());
        if response.has_focus() || free {
            let (rotate, fix) = response
                .ctx
                .input(|i| (i.key_pressed(Key::R), i.key_pressed(Key::F)));
            if rotate {
                status = self.rotate(doc, r, c);
            }
            if fix {
                status = self.toggle_fixed(doc, r, c);
            }
        }
        status
    }

    /// The selection frame, and while a piece is dragged: its cell outlined, the cell it
    /// would swap with highlighted, and a line to the pointer.
    pub fn overlay(&self, painter: &egui::Painter, at: &Placement, doc: &Document) {
        if let (Some((r, c)), Some(to), Some(p)) =
            (self.drag_from, self.drag_to, puzzle_of::<EdgeMatching>(doc))
            && r < p.rows()
            && c < p.cols()
        {
            let cell = |r: usize, c: usize| {
                Rect::from_min_size(at.to_screen(cell_origin(p, r, c)), Vec2::splat(at.scale))
            };
            let from = cell(r, c);
            painter.rect_stroke(
                from.shrink(1.5),
                2.0,
                Stroke::new(2.0, Color32::from_gray(160)),
                egui::StrokeKind::Inside,
            );
            if let Some((tr, tc, _)) = side_at(p, at.to_units(to))
                && (tr, tc) != (r, c)
            {
                let target = cell(tr, tc);
                let fixed = p.fixed_at(tr, tc).is_some() || p.fixed_at(r, c).is_some();
                let colour = if fixed {
                    Color32::from_rgb(220, 60, 60)
                } else {
                    Color32::from_rgb(60, 140, 240)
                };
                painter.rect_filled(target.shrink(2.0), 2.0, colour.gamma_multiply(0.25));
                painter.rect_stroke(
                    target.shrink(1.5),
                    2.0,
                    Stroke::new(3.0, colour),
                    egui::StrokeKind::Inside,
                );
            }
            painter.line_segment(
                [from.center(), to],
                Stroke::new(2.0, Color32::from_gray(90)),
            );
        }
        if let Some((r, c)) = self.selected
            && let Some(p) = puzzle_of::<EdgeMatching>(doc)
            && r < p.rows()
            && c < p.cols()
        {
            let min = at.to_screen(cell_origin(p, r, c));
            let rect = Rect::from_min_size(min, Vec2::splat(at.scale));
            painter.rect_stroke(
                rect.shrink(1.5),
                2.0,
                Stroke::new(3.0, Color32::from_rgb(240, 160, 0)),
                egui::StrokeKind::Inside,
            );
        }
    }
}

/// A colour swatch for the brush row.
fn swatch(k: u8) -> Color32 {
    let c = palette::tile(k);
    Color32::from_rgb(c.r, c.g, c.b)
}

impl KindEditor for EdgeMatchingEditor {
    fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String> {
        EdgeMatchingEditor::handle(self, response, at, doc)
    }

    fn overlay(&self, painter: &egui::Painter, at: &Placement, doc: &Document) {
        EdgeMatchingEditor::overlay(self, painter, at, doc)
    }

    fn entries(&self, puzzle: &AnyPuzzle) -> Option<AnySolution> {
        match puzzle {
            AnyPuzzle::EdgeMatching(p) if self.referee_layout => {
                Some(AnySolution::EdgeMatching(p.layout_solution()))
            }
            _ => None,
        }
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> Option<String> {
        let mut status = None;
        ui.checkbox(&mut self.referee_layout, "Referee the layout")
            .on_hover_text("Show mismatched joints and the score of the board as laid out");
        ui.checkbox(&mut self.paint, "Paint")
            .on_hover_text("Clicks give the clicked side of a piece the brush colour");
        let top = puzzle_of::<EdgeMatching>(doc)
            .map(|p| p.pieces().iter().flatten().copied().max().unwrap_or(0))
            .unwrap_or(0);
        // Every colour in use and one new one.
        for k in 0..=top.saturating_add(1) {
            let selected = self.brush == k;
            let button = egui::Button::new(egui::RichText::new(format!("{k}")).color(
                if k == 0 || palette::tile(k).r as u32 + palette::tile(k).g as u32 > 300 {
                    Color32::BLACK
                } else {
                    Color32::WHITE
                },
            ))
            .fill(swatch(k))
            .stroke(if selected {
                Stroke::new(2.5, Color32::from_rgb(240, 160, 0))
            } else {
                Stroke::NONE
            });
            if ui
                .add(button)
                .on_hover_text(if k == 0 {
                    "border (grey)".to_string()
                } else {
                    format!("colour {k}")
                })
                .clicked()
            {
                self.brush = k;
                self.paint = true;
            }
        }
        // Always there (greyed without a selection), so the toolbar never reflows.
        let selected = self.selected;
        if ui
            .add_enabled(selected.is_some(), egui::Button::new("Turn ⟳"))
            .on_hover_text("Turn the selected piece clockwise (R)")
            .on_disabled_hover_text("Click a piece to select it first")
            .clicked()
            && let Some((r, c)) = selected
        {
            status = self.rotate(doc, r, c);
        }
        if ui
            .add_enabled(selected.is_some(), egui::Button::new("Fix / free"))
            .on_hover_text("Fix the selected piece where it is, or free it (F)")
            .on_disabled_hover_text("Click a piece to select it first")
            .clicked()
            && let Some((r, c)) = selected
        {
            status = self.toggle_fixed(doc, r, c);
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
