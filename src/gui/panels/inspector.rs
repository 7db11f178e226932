//! The QUBO inspector: the matrix as a texture (rebuilt off the UI thread once per model change,
//! never per frame), zoom with the wheel, pan by dragging, hover for i, j, labels, value and the
//! constraint groups that made it; a symmetric diverging legend; the model's figures.

use egui::{Color32, Pos2, Rect, Sense, TextureHandle, TextureOptions, Vec2};

use crate::gui::heatmap::{self, Order, Stats};
use crate::gui::jobs::{Heatmap, HeatmapJob};
use crate::gui::shared::Shared;

/// What the current texture shows (a change starts a rebuild).
#[derive(Clone, Copy, PartialEq)]
struct Key {
    version: u64,
    order: Order,
    log: bool,
}

/// The QUBO inspector: the matrix as a heatmap (built off the UI thread), zoom, pan and hover.
pub struct InspectorPanel {
    texture: Option<TextureHandle>,
    shown: Option<(Key, Heatmap)>,
    job: Option<(Key, HeatmapJob)>,
    /// 1 = whole matrix; 2 = half of each side, …
    zoom: f32,
    /// Texture coordinates (0–1) at the view's centre.
    center: Vec2,
    /// The entry under the pointer: (display row, display column).
    pub hover: Option<(usize, usize)>,
    /// Where the matrix was drawn last frame.
    pub view_rect: Option<Rect>,
    /// The current model is structure-only (nothing to draw).
    structure_only: bool,
    /// Rasters started so far (one in flight at a time; the tests count them).
    pub rasters_started: u64,
}

impl Default for InspectorPanel {
    fn default() -> Self {
        InspectorPanel {
            texture: None,
            shown: None,
            job: None,
            zoom: 1.0,
            center: Vec2::splat(0.5),
            hover: None,
            view_rect: None,
            rasters_started: 0,
            structure_only: false,
        }
    }
}

impl InspectorPanel {
    /// Whether a heatmap raster is being drawn.
    pub fn drawing(&self) -> bool {
        self.job.is_some()
    }

    /// The texture matches the current model (used by `--screenshot` to wait for it).
    pub fn is_ready(&self) -> bool {
        self.structure_only || (self.job.is_none() && self.texture.is_some())
    }

    /// The figures of the heatmap on screen, if one is.
    pub fn stats(&self) -> Option<&Stats> {
        self.shown.as_ref().map(|(_, h)| &h.stats)
    }

    /// Model version the texture shows.
    pub fn shown_version(&self) -> Option<u64> {
        self.shown.as_ref().map(|(k, _)| k.version)
    }

    /// Takes in a finished heatmap and starts the one the settings ask for (`Workbench::logic`,
    /// before layout). One raster is in flight at a time: a change meanwhile (a slider dragged
    /// across ten versions) starts only its newest request once the running one lands, as the
    /// model build does.
    pub fn poll(&mut self, ctx: &egui::Context, s: &Shared) {
        let Some(model) = &s.doc.model else {
            self.texture = None;
            self.shown = None;
            return;
        };
        let want = Key {
            version: s.doc.version,
            order: s.settings.order,
            log: s.settings.log_scale,
        };
        if let Some((key, job)) = &self.job
            && let Some(mut built) = job.poll()
        {
            let key = *key;
            self.job = None;
            if let Some(image) = built.image.take() {
                // Reuse the texture: `set` replaces its pixels in place.
                match &mut self.texture {
                    Some(t) => t.set(image, TextureOptions::NEAREST),
                    None => {
                        self.texture =
                            Some(ctx.load_texture("qubo-heatmap", image, TextureOptions::NEAREST))
                    }
                }
            }
            self.shown = Some((key, built));
        }
        let shown = self.shown.as_ref().map(|(k, _)| *k);
        if self.job.is_none() && shown != Some(want) {
            let labels = s.doc.encoding.as_ref().map(|e| e.labels().to_vec());
            let repaint = ctx.clone();
            let job = HeatmapJob::start(
                model.clone(),
                labels,
                want.order,
                want.log,
                want.version,
                move || repaint.request_repaint(),
            );
            self.job = Some((want, job));
            self.rasters_started += 1;
        }
    }

    /// Draws the inspector for the current model.
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.heading("QUBO inspector");
        // The model is rebuilt off the UI thread; the last one stays on show meanwhile.
        ui.add_visible(
            s.doc.building_for().is_some(),
            egui::Label::new(building_text(s.doc.building_for())),
        );
        // A model too large to store has no matrix to draw: say what it is instead.
        self.structure_only = s.doc.model.as_ref().is_some_and(|m| !m.is_stored());
        if self.structure_only {
            let (n, couplings) = s
                .doc
                .model
                .as_ref()
                .map_or((0, 0), |m| (m.qubo.num_variables(), m.num_interactions()));
            ui.label(format!(
                "n = {n}, couplings = {couplings}: too large to store, so there is no matrix to draw. \
                 Simulated annealing and parallel tempering sample it through its structure (each \
                 flip priced from its groups' running sums, never from stored couplings); the \
                 other samplers need the stored matrix."
            ));
            self.texture = None;
            self.shown = None;
            self.job = None;
            return;
        }
        // Presolve may decide everything: an empty matrix would draw as a blank square.
        if s.doc
            .model
            .as_ref()
            .is_some_and(|m| m.qubo.num_variables() == 0)
        {
            ui.label(if s.doc.options.presolve {
                "presolve decided every variable — untick presolve to see the full model"
            } else {
                "the model has no variables"
            });
            self.texture = None;
            self.shown = None;
            self.job = None;
            return;
        }
        if let Some(e) = &s.doc.error {
            ui.colored_label(Color32::RED, e);
        }
        self.controls_ui(ui, s);
        if self.job.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("building the heatmap…");
            });
        }
        let (Some(texture), true) = (self.texture.as_ref().map(|t| t.id()), self.shown.is_some())
        else {
            return;
        };
        let response = self.matrix_ui(ui, s.board_side, texture);
        let rect = response.rect;
        let Some((_, built)) = &self.shown else {
            return;
        };
        self.legend_ui(ui, built.raster.max_abs, built.raster.log_scale);
        self.hover = None;
        if let Some(p) = response.hover_pos() {
            let t = self.uv_of(rect, p);
            let r = &built.raster;
            let (row, col) = (
                (t.y * r.side as f32) as usize,
                (t.x * r.side as f32) as usize,
            );
            if row < r.side && col < r.side {
                self.hover = Some((row, col));
                self.hover_ui(ui, s, built, row, col);
            }
        } else {
            ui.weak("Hover the matrix for an entry; wheel to zoom, drag to pan.");
        }
    }

    /// The view's controls (order, log scale, reset) and the model's figures.
    fn controls_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        ui.horizontal_wrapped(|ui| {
            egui::ComboBox::from_label("order")
                .selected_text(s.settings.order.name())
                .show_ui(ui, |ui| {
                    for o in Order::ALL {
                        ui.selectable_value(&mut s.settings.order, o, o.name());
                    }
                });
            ui.checkbox(&mut s.settings.log_scale, "log scale");
            if ui.button("Reset view").clicked() {
                self.zoom = 1.0;
                self.center = Vec2::splat(0.5);
            }
        });
        if let Some(st) = self.stats() {
            ui.label(format!(
                "n = {}, couplings = {}, density = {:.4} %, offset = {}",
                st.n,
                st.couplings,
                100.0 * st.density,
                st.offset
            ));
            ui.label(format!(
                "linear ∈ [{}, {}], couplings ∈ [{}, {}]",
                st.linear_range.0, st.linear_range.1, st.coupling_range.0, st.coupling_range.1
            ));
        }
        if let Some(enc) = &s.doc.encoding {
            let terms: Vec<String> = enc
                .terms_per_weight()
                .into_iter()
                .map(|(w, k)| format!("{w}: {k}"))
                .collect();
            ui.label(format!("terms per weight — {}", terms.join(", ")));
        }
    }

    /// The matrix at most the board's size (`board_side`, as last drawn), zoomed around the
    /// pointer by the wheel and panned by dragging; its response (where, and the pointer).
    fn matrix_ui(
        &mut self,
        ui: &mut egui::Ui,
        board_side: f32,
        texture: egui::TextureId,
    ) -> egui::Response {
        let mut side = (ui.available_width())
            .min(ui.available_height() - 120.0)
            .max(120.0);
        if board_side > 0.0 {
            // Never larger than the board (as last drawn): the puzzle is what the window is for.
            side = side.min(board_side).max(80.0);
        }
        let (response, painter) = ui.allocate_painter(Vec2::splat(side), Sense::click_and_drag());
        let rect = response.rect;
        self.view_rect = Some(rect);
        // Zoom around the pointer; drag to pan.
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0
                && let Some(p) = response.hover_pos()
            {
                let before = self.uv_of(rect, p);
                self.zoom = (self.zoom * (scroll * 0.003).exp()).clamp(1.0, 512.0);
                let after = self.uv_of(rect, p);
                self.center += before - after;
            }
        }
        if response.dragged() {
            self.center -= response.drag_delta() / rect.width() / self.zoom;
        }
        let half = 0.5 / self.zoom;
        self.center = self
            .center
            .clamp(Vec2::splat(half), Vec2::splat(1.0 - half));
        let uv = Rect::from_center_size(self.center.to_pos2(), Vec2::splat(2.0 * half));
        painter.rect_filled(rect, 0.0, Color32::WHITE);
        painter.image(texture, rect, uv, Color32::WHITE);
        painter.rect_stroke(
            rect,
            0.0,
            egui::Stroke::new(1.0, Color32::GRAY),
            egui::StrokeKind::Outside,
        );
        response
    }

    /// Texture coordinates of a screen point.
    fn uv_of(&self, rect: Rect, p: Pos2) -> Vec2 {
        let local = (p - rect.min) / rect.width();
        self.center + (local - Vec2::splat(0.5)) / self.zoom
    }

    fn legend_ui(&self, ui: &mut egui::Ui, max_abs: f64, log: bool) {
        ui.horizontal(|ui| {
            ui.label(format!("{:.3}", -max_abs));
            // Room for the two numbers beside it: the row never runs past a narrow panel.
            let bar = (ui.available_width() - 110.0).clamp(40.0, 160.0);
            let (rect, _) = ui.allocate_exact_size(Vec2::new(bar, 12.0), Sense::hover());
            let steps = 64;
            for k in 0..steps {
                let t = -1.0 + 2.0 * (k as f32 + 0.5) / steps as f32;
                let [r, g, b] = heatmap::diverging(t);
                let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
                let x1 = rect.left() + rect.width() * (k + 1) as f32 / steps as f32;
                ui.painter().rect_filled(
                    Rect::from_x_y_ranges(x0..=x1, rect.y_range()),
                    0.0,
                    Color32::from_rgb(r, g, b),
                );
            }
            ui.label(format!("{:.3}{}", max_abs, if log { " (log)" } else { "" }));
        });
    }

    fn hover_ui(&self, ui: &mut egui::Ui, s: &Shared, built: &Heatmap, row: usize, col: usize) {
        let Some(model) = &s.doc.model else { return };
        let bin = built.raster.bin;
        if bin > 1 {
            ui.label(format!(
                "rows {}–{}, columns {}–{} (display order): largest |Q| in this block ≈ {:.4}",
                row * bin,
                (row + 1) * bin - 1,
                col * bin,
                (col + 1) * bin - 1,
                built.raster.values[row * built.raster.side + col]
            ));
            return;
        }
        let (i, j) = (built.order[row] as usize, built.order[col] as usize);
        let value = heatmap::entry(&model.qubo, i, j);
        ui.label(format!("Q[{i}][{j}] = {value}"));
        ui.label(format!(
            "i = {i}: {}   j = {j}: {}",
            s.doc.label_of(i),
            s.doc.label_of(j)
        ));
        if let Some(enc) = &s.doc.encoding
            && let Ok(parts) = enc.contributors(i, j, &s.doc.weights)
        {
            if parts.is_empty() {
                ui.weak("no constraint group contributes here");
            }
            for c in parts.iter().take(8) {
                ui.label(format!(
                    "  {} (weight {}): coefficient {} → {}",
                    c.constraint, c.weight, c.coefficient, c.value
                ));
            }
            if parts.len() > 8 {
                ui.weak(format!("  … and {} more", parts.len() - 8));
            }
        }
    }
}

/// "building model… 1.2 s" while a build runs (and a placeholder of the same height otherwise,
/// so nothing below moves when a build starts or ends).
pub fn building_text(elapsed: Option<std::time::Duration>) -> String {
    match elapsed {
        Some(t) => format!("building model… {:.1} s", t.as_secs_f32()),
        None => "model up to date".to_string(),
    }
}
