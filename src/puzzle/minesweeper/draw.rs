//! The Minesweeper picture: opened cells flat with their numbers in the classic colours,
//! unopened cells raised grey — or, with probabilities, shaded from green (safe) through yellow
//! to red (a mine) with the percentage written in, a legend below, and the safest cells
//! outlined. A candidate configuration marks its mines with dots; numbers it breaks are shaded
//! red; a lost game shows every mine.

use super::check::{MineSolution, check};
use super::{Cell, GameState, Minesweeper};
use crate::render::{Color, Drawing, Shape, Stroke, palette};

/// Space around the board, in cells (editors map clicks with it).
pub const MARGIN: f32 = 0.2;
/// Height of the probability legend under the board, in cells.
const LEGEND: f32 = 1.0;

const UNOPENED: Color = Color::rgb(189, 189, 189);
const OPENED: Color = Color::rgb(238, 238, 238);
const FLAG: Color = Color::rgb(210, 30, 30);
const MINE: Color = Color::rgb(20, 20, 20);
const SAFEST: Color = Color::rgb(20, 90, 220);

/// The classic colours of 1–8.
fn number_color(v: u8) -> Color {
    match v {
        1 => Color::rgb(0, 0, 255),
        2 => Color::rgb(0, 128, 0),
        3 => Color::rgb(255, 0, 0),
        4 => Color::rgb(0, 0, 128),
        5 => Color::rgb(128, 0, 0),
        6 => Color::rgb(0, 128, 128),
        7 => Color::rgb(0, 0, 0),
        _ => Color::rgb(128, 128, 128),
    }
}

/// Green (0) → yellow (½) → red (1).
pub fn probability_color(p: f64) -> Color {
    let p = p.clamp(0.0, 1.0) as f32;
    let (r, g) = if p < 0.5 {
        (2.0 * p, 1.0)
    } else {
        (1.0, 2.0 * (1.0 - p))
    };
    let mix = |v: f32| (110.0 + 130.0 * v) as u8;
    Color::rgb(mix(r), mix(g), 110)
}

/// The board's picture; `probabilities` (row-major, one per cell) shade the unopened cells.
pub(super) fn draw(
    p: &Minesweeper,
    solution: Option<&MineSolution>,
    probabilities: Option<&[f64]>,
) -> Drawing {
    let (w, h) = (p.width(), p.height());
    let legend = if probabilities.is_some() { LEGEND } else { 0.0 };
    let mut d = Drawing::new(w as f32 + 2.0 * MARGIN, h as f32 + 2.0 * MARGIN + legend);
    let at = |k: usize| [MARGIN + (k % w) as f32, MARGIN + (k / w) as f32];
    let broken: Vec<usize> = solution
        .map(|s| {
            check(p, s)
                .iter()
                .filter_map(|v| hint_cell(&v.constraint, w))
                .collect()
        })
        .unwrap_or_default();
    let lost = match p.game_state() {
        GameState::Lost(k) => Some(k),
        _ => None,
    };
    let safest: Vec<usize> = probabilities
        .map(|pr| super::probability::safest_cells(p.cells(), pr))
        .unwrap_or_default();
    for (k, cell) in p.cells().iter().enumerate() {
        let [x, y] = at(k);
        let center = [x + 0.5, y + 0.5];
        let fill = match cell {
            Cell::Opened(_) if broken.contains(&k) => palette::CONFLICT_FILL,
            Cell::Opened(_) => OPENED,
            Cell::Unopened if Some(k) == lost => FLAG,
            Cell::Unopened => probabilities.map_or(UNOPENED, |pr| probability_color(pr[k])),
            Cell::Flagged => UNOPENED,
        };
        d.push(cell_square(x, y, fill));
        match cell {
            Cell::Opened(v) if *v > 0 => d.push(Shape::Text {
                center,
                size: 0.62,
                text: v.to_string(),
                color: number_color(*v),
                bold: true,
            }),
            Cell::Flagged => push_flag(&mut d, x, y),
            Cell::Unopened => {
                let mined = solution.and_then(|s| s.mines.get(k).copied().flatten());
                let shown_mine = lost.is_some() && p.layout().is_some_and(|l| l[k]);
                if mined == Some(true) || shown_mine {
                    d.push(Shape::Circle {
                        center,
                        radius: 0.22,
                        fill: Some(MINE),
                        stroke: None,
                    });
                } else if let Some(pr) = probabilities {
                    d.push(Shape::Text {
                        center,
                        size: 0.34,
                        text: percent(pr[k]),
                        color: Color::rgb(30, 30, 30),
                        bold: false,
                    });
                }
            }
            _ => {}
        }
    }
    for &k in &safest {
        let [x, y] = at(k);
        d.push(Shape::Rect {
            min: [x + 0.04, y + 0.04],
            max: [x + 0.96, y + 0.96],
            fill: None,
            stroke: Some(Stroke {
                width: 0.08,
                color: SAFEST,
            }),
        });
    }
    d.push(frame(w, h));
    if probabilities.is_some() {
        push_legend(&mut d, w as f32, MARGIN + h as f32 + 0.25);
    }
    d
}

/// The answer key: every cell opened, mines as dots, every other cell with its count of
/// neighbouring mines (left blank where a neighbour is undecided in the candidate).
pub(super) fn draw_answer(p: &Minesweeper, solution: &MineSolution) -> Drawing {
    let (w, h) = (p.width(), p.height());
    let mut d = Drawing::new(w as f32 + 2.0 * MARGIN, h as f32 + 2.0 * MARGIN);
    let mine = |k: usize| solution.is_mine(p, k);
    for k in 0..w * h {
        let [x, y] = [MARGIN + (k % w) as f32, MARGIN + (k / w) as f32];
        let center = [x + 0.5, y + 0.5];
        d.push(cell_square(x, y, OPENED));
        match mine(k) {
            Some(true) => d.push(Shape::Circle {
                center,
                radius: 0.22,
                fill: Some(MINE),
                stroke: None,
            }),
            Some(false) => {
                let around: Option<usize> = p
                    .neighbours(k)
                    .into_iter()
                    .map(|j| mine(j).map(usize::from))
                    .sum();
                if let Some(v) = around.filter(|&v| v > 0) {
                    d.push(Shape::Text {
                        center,
                        size: 0.62,
                        text: v.to_string(),
                        color: number_color(v as u8),
                        bold: true,
                    });
                }
            }
            None => {}
        }
    }
    d.push(frame(w, h));
    d
}

/// A cell's square with its thin outline.
fn cell_square(x: f32, y: f32, fill: Color) -> Shape {
    Shape::Rect {
        min: [x, y],
        max: [x + 1.0, y + 1.0],
        fill: Some(fill),
        stroke: Some(Stroke {
            width: 0.03,
            color: palette::GRID_THIN,
        }),
    }
}

/// The board's outer frame.
fn frame(w: usize, h: usize) -> Shape {
    Shape::Rect {
        min: [MARGIN, MARGIN],
        max: [MARGIN + w as f32, MARGIN + h as f32],
        fill: None,
        stroke: Some(Stroke {
            width: 0.06,
            color: palette::GRID,
        }),
    }
}

/// "37%", "<1%", ">99%", "0%", "100%": whole percents that never round a possible mine to 0,
/// with the sign, so a safe cell's "0%" is never read as an opened 0.
fn percent(p: f64) -> String {
    let v = 100.0 * p;
    let number = if v <= 0.0 {
        "0".into()
    } else if v < 1.0 {
        "<1".into()
    } else if v >= 100.0 {
        "100".into()
    } else if v > 99.0 {
        ">99".into()
    } else {
        format!("{}", v.round() as u32)
    };
    format!("{number}%")
}

fn push_flag(d: &mut Drawing, x: f32, y: f32) {
    d.push(Shape::Line {
        from: [x + 0.42, y + 0.2],
        to: [x + 0.42, y + 0.8],
        stroke: Stroke {
            width: 0.06,
            color: MINE,
        },
    });
    d.push(Shape::Polygon {
        points: vec![
            [x + 0.42, y + 0.2],
            [x + 0.78, y + 0.36],
            [x + 0.42, y + 0.52],
        ],
        fill: Some(FLAG),
        stroke: None,
    });
}

/// A colour bar from 0 % to 100 % with its ends labelled.
fn push_legend(d: &mut Drawing, width: f32, top: f32) {
    let steps = 20;
    let (left, bar) = (MARGIN + 1.0, (width - 2.0).max(1.0));
    for s in 0..steps {
        let x0 = left + bar * s as f32 / steps as f32;
        d.push(Shape::Rect {
            min: [x0, top],
            max: [x0 + bar / steps as f32 + 0.01, top + 0.35],
            fill: Some(probability_color(s as f64 / (steps - 1) as f64)),
            stroke: None,
        });
    }
    for (x, label) in [(MARGIN + 0.5, "0 %"), (left + bar + 0.5, "100 %")] {
        d.push(Shape::Text {
            center: [x, top + 0.18],
            size: 0.3,
            text: label.into(),
            color: palette::GIVEN,
            bold: false,
        });
    }
}

/// The cell index of a `hint[r][c]` label.
fn hint_cell(label: &str, width: usize) -> Option<usize> {
    let rest = label.strip_prefix("hint[")?;
    let (r, rest) = rest.split_once("][")?;
    let c = rest.strip_suffix(']')?;
    Some(r.parse::<usize>().ok()? * width + c.parse::<usize>().ok()?)
}
