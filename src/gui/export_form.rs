//! The Export image… form: what the picture shows (the puzzle, solved, or the answer key; piece
//! numbers, probabilities, background, title) and its size, with the size in pixels shown as
//! it will be written. The choices are remembered per kind (`Settings::pictures`); "Choose
//! file…" goes on to the file dialog, and the export reads the same choices.

use crate::gui::settings::PictureSettings;
use crate::puzzle::Kind;
use crate::puzzle::picture::Show;
use crate::render::Drawing;

/// What the form's buttons asked for this frame.
#[derive(Debug, PartialEq, Eq)]
pub enum ExportAnswer {
    /// Still open, nothing chosen.
    Open,
    /// Go on to choosing the file.
    ChooseFile,
    /// Closed without exporting.
    Closed,
}

/// The form for the current kind's `settings`. `picture` is the drawing the choices make now
/// (or why there is none: a solution is asked for and there is none), `solution_from` says
/// where the shown solution comes from.
pub fn ui(
    ctx: &egui::Context,
    kind: Kind,
    settings: &mut PictureSettings,
    picture: &Result<Drawing, String>,
    solution_from: &str,
) -> ExportAnswer {
    let mut answer = ExportAnswer::Open;
    egui::Window::new("Export image")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.weak(format!("{} pictures remember these choices", kind.name()));
            ui.horizontal(|ui| {
                ui.label("show");
                for show in Show::ALL {
                    let label = match show {
                        Show::Puzzle => "puzzle (blank)",
                        Show::Solved => "puzzle + solution",
                        Show::Solution => "solution only",
                    };
                    ui.radio_value(&mut settings.content.show, show, label);
                }
            });
            ui.weak(if settings.content.show == Show::Puzzle {
                String::new()
            } else {
                format!("solution: {solution_from}")
            });
            let c = &mut settings.content;
            ui.add_enabled(
                kind == Kind::EdgeMatching,
                egui::Checkbox::new(&mut c.piece_numbers, "piece numbers"),
            );
            ui.add_enabled(
                kind == Kind::Minesweeper && c.show != Show::Solution,
                egui::Checkbox::new(&mut c.probabilities, "mine probabilities"),
            );
            ui.checkbox(&mut c.transparent, "transparent background");
            ui.checkbox(&mut c.title, "title line (name and score)");
            ui.separator();
            ui.horizontal(|ui| {
                ui.radio_value(&mut settings.by_width, true, "width");
                ui.add_enabled(
                    settings.by_width,
                    egui::DragValue::new(&mut settings.width_px)
                        .range(1..=crate::render::image::MAX_IMAGE_SIDE)
                        .suffix(" px"),
                );
                ui.radio_value(&mut settings.by_width, false, "scale");
                ui.add_enabled(
                    !settings.by_width,
                    egui::DragValue::new(&mut settings.scale)
                        .range(0.05..=100.0)
                        .speed(0.05)
                        .prefix("× "),
                );
            });
            ui.horizontal(|ui| {
                let mut with_dpi = settings.dpi.is_some();
                if ui.checkbox(&mut with_dpi, "print resolution").changed() {
                    settings.dpi = with_dpi.then_some(300);
                }
                if let Some(dpi) = &mut settings.dpi {
                    ui.add(egui::DragValue::new(dpi).range(1..=100_000).suffix(" dpi"));
                }
            });
            let ready = match picture {
                Ok(d) => {
                    let options = settings.export_options();
                    let (w, h) = options.size.pixels(d);
                    let print = options.dpi.map_or(String::new(), |dpi| {
                        format!(
                            " · {:.1} × {:.1} cm at {dpi} dpi",
                            2.54 * w as f64 / dpi as f64,
                            2.54 * h as f64 / dpi as f64
                        )
                    });
                    ui.label(format!("PNG: {w} × {h} px{print}"));
                    ui.weak("SVG: the same size, drawn as vectors");
                    true
                }
                Err(why) => {
                    ui.colored_label(ui.visuals().warn_fg_color, why);
                    ui.weak(" ");
                    false
                }
            };
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(ready, egui::Button::new("Choose file…"))
                    .clicked()
                {
                    answer = ExportAnswer::ChooseFile;
                }
                if ui.button("Close").clicked() {
                    answer = ExportAnswer::Closed;
                }
            });
        });
    answer
}
