//! What the test modules share: paths into the project, the command-line recipe, and the
//! window harness. Tests read only the project's own files (`puzzles/`, `tests/data/`).

#![allow(dead_code)] // each module uses its own part of the toolbox

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use qubo_workbench::gui::Workbench;
use qubo_workbench::gui::settings::Settings;
use serde_json::Value;

/// The project's root folder.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A file below the project's root (`puzzles/sudoku/euler96_g1.txt`).
pub fn file(rel: &str) -> PathBuf {
    root().join(rel)
}

/// A Sudoku file of `puzzles/sudoku/`.
pub fn puzzle(name: &str) -> PathBuf {
    root().join("puzzles/sudoku").join(name)
}

/// The command-line binary, ready for arguments.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_qubo-workbench"))
}

/// Runs the binary with `args` to its end.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// The JSON a successful run printed (fails the test, with its stderr, if it did not succeed).
pub fn stdout_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

/// The recipe most command-line tests follow: run, check it succeeded, read its JSON.
pub fn run_json(args: &[&str]) -> Value {
    stdout_json(&run(args))
}

/// What a run wrote to stderr.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Width and height from a PNG's IHDR chunk.
pub fn png_size(path: &Path) -> (u32, u32) {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n");
    let be = |k: usize| u32::from_be_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
    (be(16), be(20))
}

/// The window as the tests drive it: logic then layout each frame, as eframe does.
pub type Window = Harness<'static, Workbench>;

/// A harness around `wb` at the size CI's screenshot uses.
pub fn harness(wb: Workbench) -> Window {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            |ui, wb: &mut Workbench| {
                // eframe calls logic() then ui() every frame; so does the harness.
                wb.logic(ui.ctx());
                wb.ui(ui)
            },
            wb,
        )
}

/// The window opened on `file` (the example when `None`) with `settings`, first frames drawn.
pub fn open(file: Option<&Path>, settings: Settings) -> Window {
    let mut h = harness(Workbench::with_file(file, settings));
    frames(&mut h);
    h
}

/// Steps frames until `done` holds (background jobs finish on their own threads). The two
/// minutes are a hang guard, not a timing: a test binary runs its tests two at a time on CI's
/// two cores, and the slowest (the full Eternity II) takes 17 s alone in a debug build.
pub fn wait_for(h: &mut Window, what: &str, done: impl Fn(&Workbench) -> bool) {
    for _ in 0..6000 {
        h.step();
        if done(h.state()) {
            frames(h);
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("timed out waiting for {what}");
}

/// Steps frames until the model the document asks for is built (it is built off the UI
/// thread after every change).
pub fn wait_for_model(h: &mut Window) {
    for _ in 0..3000 {
        h.step();
        if h.state().shared.doc.model_is_current() {
            h.step();
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("timed out waiting for the model");
}

/// A few frames: enough for a click or key to take effect, the files it reads or writes and the
/// model it asks for to be built (off the UI thread) and the next layout to show both (`Harness::run` would wait for
/// repaints to stop, which a spinner never does). Tests of what shows *while* a model is built
/// step frames themselves.
pub fn frames(h: &mut Window) {
    for _ in 0..4 {
        h.step();
    }
    // Files are read and written off the UI thread too: let them land first.
    for _ in 0..1500 {
        if h.state().shared.files.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        h.step();
    }
    if !h.state().shared.doc.model_is_current() {
        wait_for_model(h);
    }
}

/// Presses Run and steps frames until the run has ended with a result.
pub fn run_to_end(h: &mut Window, what: &str) {
    h.get_by_label("Run").click();
    frames(h);
    wait_for(h, what, |wb| !wb.is_running() && wb.shared.result.is_some());
}

/// Sets one parameter of one sampler where the window keeps them.
pub fn set_param(settings: &mut Settings, sampler: &str, name: &str, value: Value) {
    settings
        .sampler_params
        .entry(sampler.into())
        .or_default()
        .insert(name.into(), value);
}
