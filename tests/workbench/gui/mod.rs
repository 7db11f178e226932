//! The workbench's panels driven like a person would (egui_kittest: no display, no GPU):
//! clicks, keys and sliders through accesskit, then assertions on the state behind them.
//! No test reads or writes the user's settings: the workbench is built without storage.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use qubo_workbench::gui::editors::{
    ConstrainedEditor, EdgeMatchingEditor, MinesweeperEditor, MinesweeperMode, NumberlinkEditor,
    SudokuEditor,
};
use qubo_workbench::gui::file_actions::FileAction;
use qubo_workbench::gui::settings::Settings;
use qubo_workbench::gui::{Command, Workbench};
use qubo_workbench::puzzle::AnyPuzzle;
use qubo_workbench::puzzle::edge_matching::{EdgeMatching, cell_origin, rotated};
use qubo_workbench::puzzle::picture::Show;

mod editors;
mod files;
mod remote;
mod results;
mod runs;
mod weights;

fn sudoku_editor(wb: &Workbench) -> &SudokuEditor {
    wb.puzzle
        .editors
        .get::<SudokuEditor>()
        .expect("a Sudoku editor")
}

/// Chooses SA and sets one of its parameters.
fn set_sa(settings: &mut Settings, name: &str, value: serde_json::Value) {
    settings.sampler = "sa".into();
    set_param(settings, "sa", name, value);
}

/// Picks a sampler from the solver panel's list, as a user would.
fn choose_sampler(h: &mut Harness<'static, Workbench>, name: &str) {
    h.get_by_label("sampler").click();
    frames(h);
    h.get_by_label(name).click();
    frames(h);
    assert_eq!(h.state().shared.settings.sampler, name);
}

fn given(wb: &Workbench, r: usize, c: usize) -> u8 {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::Sudoku(s)) => s.given(r, c),
        _ => panic!("no Sudoku"),
    }
}

fn edge_matching(wb: &Workbench) -> &EdgeMatching {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::EdgeMatching(p)) => p,
        _ => panic!("no edge-matching puzzle"),
    }
}

/// Screen position of the centre of cell (r, c), nudged towards one side.
fn cell_point(wb: &Workbench, r: usize, c: usize, towards: [f32; 2]) -> egui::Pos2 {
    let at = wb.puzzle.placement.expect("the canvas was laid out");
    let [x, y] = cell_origin(edge_matching(wb), r, c);
    at.to_screen([x + 0.5 + towards[0], y + 0.5 + towards[1]])
}

/// Presses the primary button at `pos` and releases it at `to`, moving in between (a click
/// when `to == pos`).
fn press_release(h: &mut Harness<'static, Workbench>, pos: egui::Pos2, to: egui::Pos2) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(pos));
    h.step();
    h.event(button(pos, true));
    h.step();
    for k in 1..=8 {
        if to != pos {
            h.event(egui::Event::PointerMoved(
                pos + (to - pos) * (k as f32 / 8.0),
            ));
        }
        h.step();
    }
    h.event(button(to, false));
    frames(h);
}

fn minesweeper(wb: &Workbench) -> &qubo_workbench::puzzle::minesweeper::Minesweeper {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::Minesweeper(p)) => p,
        _ => panic!("no Minesweeper position"),
    }
}

/// Screen centre of Minesweeper cell (r, c).
fn mine_cell(wb: &Workbench, k: usize) -> egui::Pos2 {
    let at = wb.puzzle.placement.expect("the canvas was laid out");
    let w = minesweeper(wb).width();
    let m = qubo_workbench::puzzle::minesweeper::DRAW_MARGIN;
    at.to_screen([m + (k % w) as f32 + 0.5, m + (k / w) as f32 + 0.5])
}

/// Waits for the design facts of the current position (they move the board when they
/// arrive), then lets the layout settle.
fn settle(h: &mut Harness<'static, Workbench>) {
    wait_for(h, "the design facts", |wb| {
        wb.shared.current_facts().is_some()
    });
    frames(h);
}

fn secondary_click(h: &mut Harness<'static, Workbench>, pos: egui::Pos2) {
    for pressed in [true, false] {
        h.event(egui::Event::PointerMoved(pos));
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    frames(h);
}

fn numberlink(wb: &Workbench) -> &qubo_workbench::puzzle::numberlink::Numberlink {
    match wb.shared.doc.puzzle() {
        Some(AnyPuzzle::Numberlink(p)) => p,
        _ => panic!("no Numberlink instance"),
    }
}

/// Screen centre of Numberlink cell k.
fn link_cell(wb: &Workbench, k: usize) -> egui::Pos2 {
    let at = wb.puzzle.placement.expect("the canvas was laid out");
    at.to_screen(qubo_workbench::puzzle::numberlink::draw::centre(
        numberlink(wb),
        k,
    ))
}

/// Presses at cell `cells[0]`, moves through the others, releases on the last.
fn drag_through(h: &mut Harness<'static, Workbench>, cells: &[usize]) {
    let at = |h: &Harness<'static, Workbench>, k| link_cell(h.state(), k);
    let start = at(h, cells[0]);
    h.event(egui::Event::PointerMoved(start));
    h.step();
    h.event(egui::Event::PointerButton {
        pos: start,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    for &k in cells {
        let to = at(h, k);
        for _ in 0..3 {
            h.event(egui::Event::PointerMoved(to));
            h.step();
        }
    }
    let end = at(h, *cells.last().unwrap());
    h.event(egui::Event::PointerButton {
        pos: end,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    frames(h);
}

/// Where the puzzle canvas is on screen.
fn canvas_rect(h: &Harness<'static, Workbench>) -> egui::Rect {
    h.get_by_label("Puzzle canvas").rect()
}

/// Presses at `points[0]`, moves through the others (fixed screen points: if the board moved
/// under the pointer, the drag would land on other cells), releases on the last.
fn drag_fixed(h: &mut Harness<'static, Workbench>, points: &[egui::Pos2]) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    h.event(egui::Event::PointerMoved(points[0]));
    h.step();
    h.event(button(points[0], true));
    h.step();
    for &p in points {
        for _ in 0..3 {
            h.event(egui::Event::PointerMoved(p));
            h.step();
        }
    }
    h.event(button(*points.last().unwrap(), false));
    frames(h);
}

/// Screen centre of a constrained model's variable cell `k`.
fn variable_cell(wb: &Workbench, k: usize) -> egui::Pos2 {
    let at = wb.puzzle.placement.expect("the canvas was laid out");
    let Some(AnyPuzzle::Constrained(m)) = wb.shared.doc.puzzle() else {
        panic!("no constrained model");
    };
    let l = qubo_workbench::puzzle::constrained::draw::layout(m.variables.len());
    let top = qubo_workbench::puzzle::constrained::draw::MARGIN + 1.0;
    at.to_screen([
        l.left + (k % l.cols) as f32 + 0.5,
        top + (k / l.cols) as f32 + 0.5,
    ])
}

fn primary_click(h: &mut Harness<'static, Workbench>, pos: egui::Pos2) {
    for pressed in [true, false] {
        h.event(egui::Event::PointerMoved(pos));
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    frames(h);
}
