//! `Drawing` → egui: the same picture the PNG/SVG export makes, painted on screen.

use egui::{Align2, Color32, FontFamily, FontId, Painter, Pos2, Rect, Stroke, Vec2, epaint};

use crate::render::{Color, Drawing, Shape};

/// Font family name of the bundled bold face (installed by `install_fonts`).
pub const BOLD: &str = "DejaVuSans-Bold";

/// Adds the bundled DejaVu Sans (regular and bold) so screen and exports use the same faces.
pub fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(
        "DejaVuSans".into(),
        std::sync::Arc::new(egui::FontData::from_static(include_bytes!(
            "../../assets/DejaVuSans.ttf"
        ))),
    );
    fonts.font_data.insert(
        BOLD.into(),
        std::sync::Arc::new(egui::FontData::from_static(include_bytes!(
            "../../assets/DejaVuSans-Bold.ttf"
        ))),
    );
    fonts.families.insert(
        FontFamily::Name(BOLD.into()),
        vec![BOLD.into(), "DejaVuSans".into()],
    );
    if let Some(p) = fonts.families.get_mut(&FontFamily::Proportional) {
        p.push("DejaVuSans".into());
    }
    ctx.set_fonts(fonts);
}

/// A drawing colour in egui's terms.
pub fn color(c: Color) -> Color32 {
    Color32::from_rgba_unmultiplied(c.r, c.g, c.b, c.a)
}

/// Where a drawing lands inside `area`: uniformly scaled, centred.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    /// Screen position of the drawing's (0, 0).
    pub origin: Pos2,
    /// Points per puzzle unit.
    pub scale: f32,
}

impl Placement {
    /// The largest uniform scale at which `d` fits `area`, centred in it.
    pub fn fit(d: &Drawing, area: Rect) -> Self {
        let scale = (area.width() / d.width)
            .min(area.height() / d.height)
            .max(0.01);
        let size = Vec2::new(d.width, d.height) * scale;
        Placement {
            origin: area.center() - size / 2.0,
            scale,
        }
    }

    /// Screen position of a point in puzzle units.
    pub fn to_screen(&self, p: [f32; 2]) -> Pos2 {
        self.origin + Vec2::new(p[0], p[1]) * self.scale
    }

    /// Puzzle units of a screen point.
    pub fn to_units(&self, p: Pos2) -> [f32; 2] {
        let v = (p - self.origin) / self.scale;
        [v.x, v.y]
    }
}

/// Paints the drawing into `area`; returns where it went (for hit tests).
pub fn paint(painter: &Painter, d: &Drawing, area: Rect, fonts_installed: bool) -> Placement {
    let at = Placement::fit(d, area);
    let s = at.scale;
    let frame = Rect::from_min_size(at.origin, Vec2::new(d.width, d.height) * s);
    painter.rect_filled(frame, 0.0, color(d.background));
    let stroke_of =
        |st: &crate::render::Stroke| Stroke::new((st.width * s).max(0.5), color(st.color));
    for shape in &d.shapes {
        match shape {
            Shape::Rect {
                min,
                max,
                fill,
                stroke,
            } => {
                let r = Rect::from_two_pos(at.to_screen(*min), at.to_screen(*max));
                if let Some(f) = fill {
                    painter.rect_filled(r, 0.0, color(*f));
                }
                if let Some(st) = stroke {
                    painter.rect_stroke(r, 0.0, stroke_of(st), egui::StrokeKind::Middle);
                }
            }
            Shape::Line { from, to, stroke } => {
                painter.line_segment([at.to_screen(*from), at.to_screen(*to)], stroke_of(stroke));
            }
            Shape::Polygon {
                points,
                fill,
                stroke,
            } => {
                let pts: Vec<Pos2> = points.iter().map(|p| at.to_screen(*p)).collect();
                painter.add(epaint::PathShape {
                    points: pts,
                    closed: true,
                    fill: fill.map_or(Color32::TRANSPARENT, color),
                    stroke: stroke.as_ref().map_or(Stroke::NONE, stroke_of).into(),
                });
            }
            Shape::Circle {
                center,
                radius,
                fill,
                stroke,
            } => {
                let c = at.to_screen(*center);
                if let Some(f) = fill {
                    painter.circle_filled(c, radius * s, color(*f));
                }
                if let Some(st) = stroke {
                    painter.circle_stroke(c, radius * s, stroke_of(st));
                }
            }
            Shape::Text {
                center,
                size,
                text,
                color: c,
                bold,
            } => {
                let family = if *bold && fonts_installed {
                    FontFamily::Name(BOLD.into())
                } else {
                    FontFamily::Proportional
                };
                painter.text(
                    at.to_screen(*center),
                    Align2::CENTER_CENTER,
                    text,
                    FontId::new(size * s, family),
                    color(*c),
                );
            }
        }
    }
    at
}
