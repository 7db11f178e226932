//! The picture of a constrained model: the objective's value on top, the variables as a grid of
//! cells (dark: 1 or +1; light: 0 or −1; blank: no assignment shown), then one line per
//! constraint — its left side against its bound, green when it holds, red when it is broken —
//! the broken ones first, up to `MAX_ROWS`.

use super::ConstrainedModel;
use super::model::{Sense, VarType, value_of};
use crate::render::{Color, Drawing, Shape, Stroke, palette};

/// Space around the picture, in cells.
pub const MARGIN: f32 = 0.3;
/// Height of the objective line above the cells.
const TOP: f32 = 1.0;
/// Height of one constraint line.
const ROW: f32 = 0.8;
/// Constraint lines drawn at most (then a line saying how many more, and how many broken).
const MAX_ROWS: usize = 12;

const ON: Color = Color::rgb(40, 70, 140);
const OFF: Color = Color::rgb(225, 232, 245);
const HOLDS: Color = Color::rgb(30, 130, 60);

/// Where the cells go: columns, and the top of the first row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Cells per row.
    pub cols: usize,
    /// Rows of cells.
    pub rows: usize,
    /// The picture's width in cells.
    pub width: f32,
    /// The first column's left edge (the grid is centred).
    pub left: f32,
}

/// The layout for `n` variables: about twice as wide as tall, at least 16 cells of width (the
/// constraint lines' room).
pub fn layout(n: usize) -> Layout {
    let cols = ((2.0 * n as f64).sqrt().ceil() as usize).clamp(1, 64);
    let rows = n.div_ceil(cols).max(1);
    let width = (cols as f32).max(16.0) + 2.0 * MARGIN;
    Layout {
        cols,
        rows,
        width,
        left: (width - cols as f32) / 2.0,
    }
}

/// The variable under `pos` (puzzle units), if any.
pub fn cell_at(model: &ConstrainedModel, pos: [f32; 2]) -> Option<usize> {
    let l = layout(model.variables.len());
    let (x, y) = (pos[0] - l.left, pos[1] - MARGIN - TOP);
    if x < 0.0 || y < 0.0 {
        return None;
    }
    let (c, r) = (x as usize, y as usize);
    let k = r * l.cols + c;
    (c < l.cols && r < l.rows && k < model.variables.len()).then_some(k)
}

/// The picture, with `bits` (an assignment) when given.
pub fn draw(model: &ConstrainedModel, bits: Option<&[u8]>) -> Drawing {
    let n = model.variables.len();
    let l = layout(n);
    let shown = model.constraints.len().min(MAX_ROWS);
    let more = model.constraints.len() > MAX_ROWS;
    let lines = shown + more as usize;
    let height = 2.0 * MARGIN + TOP + l.rows as f32 + 0.4 + lines as f32 * ROW;
    let mut d = Drawing::new(l.width, height);
    let text = |d: &mut Drawing, x: f32, y: f32, size: f32, s: String, color: Color, bold: bool| {
        d.push(Shape::Text {
            center: [x, y],
            size,
            text: s,
            color,
            bold,
        })
    };
    let num = crate::io::number_text;
    let direction = match model.direction {
        super::model::Direction::Minimize => "minimise",
        super::model::Direction::Maximize => "maximise",
    };
    let head = match bits {
        Some(b) => format!("objective {} ({direction})", num(model.objective_value(b))),
        None => format!(
            "{} · {} · {direction}",
            crate::io::count(n, "variable"),
            crate::io::count(model.constraints.len(), "constraint")
        ),
    };
    text(
        &mut d,
        l.width / 2.0,
        MARGIN + TOP / 2.0,
        0.5,
        head,
        palette::GIVEN,
        true,
    );
    for (k, v) in model.variables.iter().enumerate() {
        let (c, r) = (k % l.cols, k / l.cols);
        let min = [l.left + c as f32 + 0.04, MARGIN + TOP + r as f32 + 0.04];
        let max = [min[0] + 0.92, min[1] + 0.92];
        let bit = bits.and_then(|b| b.get(k).copied());
        let fill = match bit {
            Some(1) => ON,
            Some(_) => OFF,
            None => palette::BACKGROUND,
        };
        d.push(Shape::Rect {
            min,
            max,
            fill: Some(fill),
            stroke: Some(Stroke {
                width: 0.03,
                color: palette::GRID_THIN,
            }),
        });
        // Small models name their variables in the cell's top (a long label is cut).
        if n <= 100 {
            let label: String = if v.label.chars().count() > 9 {
                v.label.chars().take(8).chain(['…']).collect()
            } else {
                v.label.clone()
            };
            let color = if bit == Some(1) {
                palette::BACKGROUND
            } else {
                palette::GRID
            };
            text(
                &mut d,
                (min[0] + max[0]) / 2.0,
                min[1] + 0.2,
                0.2,
                label,
                color,
                false,
            );
        }
        if let Some(b) = bit
            && n <= 400
        {
            let value = value_of(v.vartype, b);
            let s = match v.vartype {
                VarType::Binary => format!("{value}"),
                VarType::Spin if value > 0.0 => "+".into(),
                VarType::Spin => "−".into(),
            };
            let color = if b != 0 {
                palette::BACKGROUND
            } else {
                palette::GIVEN
            };
            text(
                &mut d,
                (min[0] + max[0]) / 2.0,
                (min[1] + max[1]) / 2.0 + 0.08,
                0.42,
                s,
                color,
                false,
            );
        }
    }
    // Constraint lines: broken first (largest violation first), then the rest in order.
    let y0 = MARGIN + TOP + l.rows as f32 + 0.4;
    let mut order: Vec<(usize, f64)> = model
        .constraints
        .iter()
        .enumerate()
        .map(|(k, c)| (k, bits.map_or(0.0, |b| c.violation(&model.variables, b))))
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let broken = order
        .iter()
        .filter(|(k, v)| {
            *v > super::model::FEASIBILITY_TOLERANCE && model.constraints[*k].is_hard()
        })
        .count();
    for (row, &(k, violation)) in order.iter().take(shown).enumerate() {
        let c = &model.constraints[k];
        let op = match c.sense {
            Sense::Le => "≤",
            Sense::Ge => "≥",
            Sense::Eq => "=",
        };
        let soft = if c.is_hard() { "" } else { " (soft)" };
        let (s, color) = match bits {
            Some(b) => {
                let lhs = c.lhs.value(&model.variables, b);
                let holds = violation <= super::model::FEASIBILITY_TOLERANCE;
                let mark = if holds { "holds" } else { "broken" };
                (
                    format!(
                        "{}{soft}: {} {op} {} · {mark}",
                        c.label,
                        num(lhs),
                        num(c.rhs)
                    ),
                    if holds { HOLDS } else { palette::CONFLICT_TEXT },
                )
            }
            None => (
                format!(
                    "{}{soft}: {} terms {op} {}",
                    c.label,
                    c.lhs.num_terms(),
                    num(c.rhs)
                ),
                palette::GIVEN,
            ),
        };
        text(
            &mut d,
            l.width / 2.0,
            y0 + (row as f32 + 0.5) * ROW,
            0.42,
            s,
            color,
            false,
        );
    }
    if more {
        let rest = model.constraints.len() - shown;
        let s = match bits {
            Some(_) => format!("… and {rest} more ({broken} broken in all)"),
            None => format!("… and {rest} more"),
        };
        text(
            &mut d,
            l.width / 2.0,
            y0 + (shown as f32 + 0.5) * ROW,
            0.42,
            s,
            palette::GRID,
            false,
        );
    }
    d
}
