//! The constrained model's editor: click a variable's cell to flip it in a trial assignment,
//! refereed live (feasibility, each constraint's left side, the objective); hover names the
//! variable. The model itself is edited in its file (LP or JSON); the constraint's weights
//! are the solver panel's sliders.

use super::KindEditor;
use super::{edit_as, puzzle_of};
use crate::gui::document::Document;
use crate::gui::painter::Placement;
use crate::puzzle::constrained::{ConstrainedModel, ConstrainedSolution, draw};
use crate::puzzle::{AnyPuzzle, AnySolution};

/// The trial assignment (empty: none yet), and the constraint chosen for a weight of its own.
#[derive(Default)]
pub struct ConstrainedEditor {
    /// One bit per variable, or empty before the first click.
    pub bits: Vec<u8>,
    /// The constraint the toolbar's "own weight" acts on.
    pub chosen: Option<String>,
}

impl ConstrainedEditor {
    /// Flips variable `k` (starting from all zeros); a status line naming it.
    pub fn flip(&mut self, model: &ConstrainedModel, k: usize) -> Option<String> {
        let n = model.variables.len();
        if self.bits.len() != n {
            self.bits = vec![0; n];
        }
        let b = self.bits.get_mut(k)?;
        *b ^= 1;
        let v = &model.variables[k];
        let value = crate::puzzle::constrained::model::value_of(v.vartype, *b);
        Some(format!("{} = {value}", v.label))
    }
}

impl KindEditor for ConstrainedEditor {
    fn handle(
        &mut self,
        response: &egui::Response,
        at: &Placement,
        doc: &mut Document,
    ) -> Option<String> {
        let model = puzzle_of::<ConstrainedModel>(doc)?;
        let pos = response.interact_pointer_pos()?;
        let k = draw::cell_at(model, at.to_units(pos))?;
        if response.clicked() {
            return self.flip(model, k);
        }
        None
    }

    fn overlay(&self, _painter: &egui::Painter, _at: &Placement, _doc: &Document) {}

    fn entries(&self, puzzle: &AnyPuzzle) -> Option<AnySolution> {
        match puzzle {
            AnyPuzzle::Constrained(m) if self.bits.len() == m.variables.len() => {
                Some(AnySolution::Constrained(ConstrainedSolution {
                    bits: self.bits.clone(),
                }))
            }
            _ => None,
        }
    }

    fn set_entries(&mut self, entries: Option<AnySolution>) {
        self.bits = match entries {
            Some(AnySolution::Constrained(s)) => s.bits,
            _ => Vec::new(),
        };
    }

    fn toolbar_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> Option<String> {
        let model = puzzle_of::<ConstrainedModel>(doc)?;
        ui.label("Click a variable to flip it: the constraints say live whether they hold.");
        // A per-constraint override: one constraint out of its family onto a slider of its own.
        let labels: Vec<(String, bool)> = model
            .constraints
            .iter()
            .take(2000)
            .map(|c| {
                (
                    c.label.clone(),
                    c.weight.as_deref() == Some(c.label.as_str()),
                )
            })
            .collect();
        let mut status = None;
        if !labels.is_empty() {
            let chosen = self
                .chosen
                .clone()
                .filter(|c| labels.iter().any(|(l, _)| l == c))
                .unwrap_or_else(|| labels[0].0.clone());
            egui::ComboBox::from_label("constraint")
                .selected_text(&chosen)
                .show_ui(ui, |ui| {
                    for (label, _) in &labels {
                        if ui.selectable_label(*label == chosen, label).clicked() {
                            self.chosen = Some(label.clone());
                        }
                    }
                });
            let own = labels.iter().any(|(l, o)| *l == chosen && *o);
            let mut want = own;
            ui.checkbox(&mut want, "own weight")
                .on_hover_text("a slider for this constraint alone, apart from its family's");
            if want != own {
                status = match edit_as::<ConstrainedModel>(doc, |m| m.set_own_weight(&chosen, want))
                {
                    Some(e) => Some(e),
                    None if want => Some(format!("'{chosen}' has a weight of its own")),
                    None => Some(format!("'{chosen}' is back in its family")),
                };
                self.chosen = Some(chosen);
                return status;
            }
        }
        let model = puzzle_of::<ConstrainedModel>(doc)?;
        if ui
            .add_enabled(!self.bits.is_empty(), egui::Button::new("Clear assignment"))
            .clicked()
        {
            self.bits.clear();
            return Some("assignment cleared".into());
        }
        if !self.bits.is_empty() {
            let broken = model.violations(&self.bits).len();
            let objective = crate::io::number_text(model.objective_value(&self.bits));
            ui.label(format!(
                "objective {objective} · {}",
                if broken == 0 {
                    "feasible".to_string()
                } else {
                    format!("{} broken", crate::io::count(broken, "constraint"))
                }
            ));
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
