//! The Numberlink editor. A click on an empty cell starts a new pair (the next click on an
//! empty cell is its other end); a click on an endpoint picks it up and the next click on an
//! empty cell puts it there; a right click on an endpoint removes its pair. Dragging from an
//! endpoint (or from a cell on a path already drawn) draws that pair's path through the cells
//! crossed — the designer's intended solution, drawn and refereed live like a sample; a right
//! click on a drawn cell clears its edges. The toolbar resizes the grid, sets the rule, shows
//! one pair's layer alone, and clears the drawing.

use std::any::Any;

use egui::{Color32, Stroke};

use super::KindEditor;
use super::{edit_as, puzzle_of};
use crate::gui::document::Document;
use crate::gui::painter::Placement;
use crate::puzzle::numberlink::draw::{MARGIN, centre};
use crate::puzzle::numberlink::{Numberlink, NumberlinkSolution, Rule};
use crate::puzzle::{AnyPuzzle, AnySolution};
use crate::render::Drawing;

/// The editor's state.
#[derive(Default)]
pub struct NumberlinkEditor {
    /// The first end of a pair being placed.
    pub pending: Option<usize>,
    /// An endpoint picked up to move.
    pub moving: Option<usize>,
    /// Show only this pair's layer (1-based), or every layer.
    pub layer: Option<u16>,
    /// The designer's drawn paths (for the current grid).
    pub drawn: Option<NumberlinkSolution>,
    /// The drawing as it was when the current stroke began (recorded for undo at its end).
    before_stroke: Option<Option<AnySolution>>,
    /// The pair being drawn and the last cell the drag reached.
    dragging: Option<(u16, usize)>,
    /// Where a press began (a slow click reaches the editor as a drag).
    pressed: Option<usize>,
    /// Width and height typed into the toolbar.
    size: Option<(usize, usize)>,
}

/// The cell under a point in drawing units.
fn cell_at(p: &Numberlink, units: [f32; 2]) -> Option<usize> {
    let (x, y) = (units[0] - MARGIN, units[1] - MARGIN);
    if x < 0.0 || y < 0.0 {
        return None;
    }
    let (c, r) = (x as usize, y as usize);
    (r < p.height() && c < p.width()).then_some(r * p.width() + c)
}

impl NumberlinkEditor {
    /// The drawn paths, reset when the grid changed under them.
    fn drawn_for(&mut self, p: &Numberlink) -> &mut NumberlinkSolution {
        let n = p.width() * p.height();
        let fits = self.drawn.as_ref().is_some_and(|d| d.right.len() == n);
        if !fits {
            self.drawn = Some(NumberlinkSolution::empty(n));
        }
        self.drawn
            .get_or_insert_with(|| NumberlinkSolution::empty(n))
    }

    /// A left click on cell i.
    pub fn click(&mut self, doc: &mut Document, i: usize) -> Option<String> {
        let p = puzzle_of::<Numberlink>(doc)?.clone();
        if p.endpoints()[i] != 0 {
            self.pending = None;
            self.moving = Some(i);
            return Some(format!(
                "endpoint {} picked up: click an empty cell to put it there",
                p.name(p.endpoints()[i])
            ));
        }
        if let Some(from) = self.moving.take() {
            self.drawn = None;
            return edit_as::<Numberlink>(doc, |m| m.move_endpoint(from, i));
        }
        match self.pending.take() {
            Some(a) if a != i => {
                self.drawn = None;
                let mut name = String::new();
                let status = edit_as::<Numberlink>(doc, |m| {
                    name = m.add_pair(a, i)?;
                    Ok(())
                });
                status.or(Some(format!("pair {name} placed")))
            }
            Some(_) => None,
            None => {
                self.pending = Some(i);
                Some(format!(
                    "{}: first end of a new pair; click another empty cell for the second",
                    p.place(i)
                ))
            }
        }
    }

    /// A right click on cell i.
    pub fn secondary_click(&mut self, doc: &mut Document, i: usize) -> Option<String> {
        let p = puzzle_of::<Numberlink>(doc)?.clone();
        self.pending = None;
        self.moving = None;
        if p.endpoints()[i] != 0 {
            self.drawn = None;
            return edit_as::<Numberlink>(doc, |m| m.remove_pair_at(i));
        }
        let before = self.entries(&AnyPuzzle::Numberlink(p.clone()));
        let drawn = self.drawn_for(&p);
        for (j, _) in drawn.edges_at(&p, i) {
            drawn.set(&p, i, j, 0);
        }
        if before != self.entries(&AnyPuzzle::Numberlink(p.clone())) {
            doc.record_entries(before);
        }
        None
    }

    /// Extends the path being drawn to cell j (backing up onto the previous cell undoes).
    fn drag_to(&mut self, p: &Numberlink, j: usize) {
        let Some((k, last)) = self.dragging else {
            return;
        };
        if j == last || !p.neighbours(last).any(|x| x == j) {
            return;
        }
        let owner = p.endpoints()[j];
        if owner != 0 && owner != k {
            return;
        }
        let drawn = self.drawn_for(p);
        let existing = drawn.edges_at(p, last).into_iter().find(|e| e.0 == j);
        if existing.is_some_and(|e| e.1 == k) {
            drawn.set(p, last, j, 0);
        } else {
            // Entering a cell takes it from any other pair.
            for (x, other) in drawn.edges_at(p, j) {
                if other != k {
                    drawn.set(p, j, x, 0);
                }
            }
            drawn.set(p, last, j, k);
        }
        self.dragging = Some((k, j));
    }
}

impl KindEditor for NumberlinkEditor {
    fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String> {
        let p = puzzle_of::<Numberlink>(doc)?.clone();
        let hit = |pos: egui::Pos2| cell_at(&p, at.to_units(pos));
        // A drag starts where the button went down (egui reports it a few points later).
        let origin = response.ctx.input(|i| i.pointer.press_origin());
        if response.drag_started()
            && let Some(i) = origin.or(response.interact_pointer_pos()).and_then(hit)
        {
            self.pressed = Some(i);
            self.before_stroke = Some(self.entries(&AnyPuzzle::Numberlink(p.clone())));
            let k = match p.endpoints()[i] {
                0 => self
                    .drawn
                    .as_ref()
                    .and_then(|d| d.edges_at(&p, i).first().map(|e| e.1))
                    .unwrap_or(0),
                k => k,
            };
            self.dragging = (k != 0).then_some((k, i));
        }
        if response.dragged()
            && let Some(j) = response.interact_pointer_pos().and_then(hit)
        {
            self.drag_to(&p, j);
        }
        if response.drag_stopped() {
            let drew = self
                .dragging
                .take()
                .is_some_and(|(_, last)| Some(last) != self.pressed);
            // A stroke that changed the drawing is one undo step.
            if let Some(before) = self.before_stroke.take()
                && before != self.entries(&AnyPuzzle::Numberlink(p.clone()))
            {
                doc.record_entries(before);
            }
            let to = response.interact_pointer_pos().and_then(hit);
            // A press and release on one cell is a click (egui calls a slow one a drag).
            if !drew && let Some(i) = to.filter(|&i| Some(i) == self.pressed.take()) {
                return self.click(doc, i);
            }
            return None;
        }
        if response.clicked()
            && let Some(i) = response.interact_pointer_pos().and_then(hit)
        {
            return self.click(doc, i);
        }
        if response.secondary_clicked()
            && let Some(i) = response.interact_pointer_pos().and_then(hit)
        {
            return self.secondary_click(doc, i);
        }
        None
    }

    fn overlay(&self, painter: &egui::Painter, at: &Placement, doc: &Document) {
        let Some(p) = puzzle_of::<Numberlink>(doc) else {
            return;
        };
        for (cell, colour) in [
            (self.pending, Color32::from_rgb(40, 120, 230)),
            (self.moving, Color32::from_rgb(240, 160, 0)),
        ] {
            if let Some(i) = cell.filter(|&i| i < p.width() * p.height()) {
                painter.circle_stroke(
                    at.to_screen(centre(p, i)),
                    0.36 * at.scale,
                    Stroke::new(3.0, colour),
                );
            }
        }
    }

    fn set_entries(&mut self, entries: Option<AnySolution>) {
        self.drawn = match entries {
            Some(AnySolution::Numberlink(d)) => Some(d),
            _ => None,
        };
    }

    fn entries(&self, puzzle: &AnyPuzzle) -> Option<AnySolution> {
        let AnyPuzzle::Numberlink(p) = puzzle else {
            return None;
        };
        let d = self.drawn.as_ref()?;
        let n = p.width() * p.height();
        (d.right.len() == n && d.right.iter().chain(&d.down).any(|&k| k != 0))
            .then(|| AnySolution::Numberlink(d.clone()))
    }

    fn drawing(&self, puzzle: &AnyPuzzle, shown: Option<&AnySolution>) -> Option<Drawing> {
        let (AnyPuzzle::Numberlink(p), Some(k)) = (puzzle, self.layer) else {
            return None;
        };
        let s = match shown {
            Some(AnySolution::Numberlink(s)) => Some(s),
            _ => None,
        };
        Some(crate::puzzle::numberlink::draw::draw_layer(p, s, Some(k)))
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> Option<String> {
        let p = puzzle_of::<Numberlink>(doc)?.clone();
        let mut status = None;
        let (mut w, mut h) = self.size.unwrap_or((p.width(), p.height()));
        ui.label("Grid");
        ui.add(egui::DragValue::new(&mut w).range(2..=crate::puzzle::numberlink::MAX_SIDE))
            .on_hover_text("columns");
        ui.label("×");
        ui.add(egui::DragValue::new(&mut h).range(2..=crate::puzzle::numberlink::MAX_SIDE))
            .on_hover_text("rows");
        self.size = Some((w, h));
        if (w, h) != (p.width(), p.height())
            && ui
                .button("Resize")
                .on_hover_text("Keeps the top-left part; pairs with an end outside are dropped")
                .clicked()
        {
            self.drawn = None;
            self.size = None;
            status = edit_as::<Numberlink>(doc, |m| m.resize(w, h));
        }
        let mut rule = p.rule();
        egui::ComboBox::from_label("rule")
            .selected_text(match rule {
                Rule::Fill => "every cell on a path",
                Rule::NoFill => "cells may stay empty",
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut rule, Rule::Fill, "every cell on a path")
                    .on_hover_text("Nikoli, Janko, Flow Free");
                ui.selectable_value(&mut rule, Rule::NoFill, "cells may stay empty")
                    .on_hover_text("the ADC contest rule");
            });
        if rule != p.rule() {
            status = edit_as::<Numberlink>(doc, |m| {
                m.set_rule(rule);
                Ok(())
            });
        }
        let name = |k: Option<u16>| match k {
            Some(k) if (k as usize) <= p.num_pairs() => format!("layer {}", p.name(k)),
            _ => "all layers".to_string(),
        };
        egui::ComboBox::from_label("show")
            .selected_text(name(self.layer))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.layer, None, "all layers");
                for k in 1..=p.num_pairs() as u16 {
                    ui.selectable_value(&mut self.layer, Some(k), name(Some(k)));
                }
            })
            .response
            .on_hover_text("Show one pair's layer alone (the seed's layers)");
        let drawing = self.entries(&AnyPuzzle::Numberlink(p.clone()));
        // Always there (greyed when there is nothing drawn), so the toolbar never reflows.
        if ui
            .add_enabled(drawing.is_some(), egui::Button::new("Clear drawing"))
            .on_hover_text("Remove the paths you drew (undoable)")
            .clicked()
        {
            doc.record_entries(drawing);
            self.drawn = None;
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
