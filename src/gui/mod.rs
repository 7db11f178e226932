//! The desktop workbench (eframe/egui). It holds no puzzle or QUBO logic of its own: panels call
//! the library (`puzzle`, `qubo`, `sampler`, `solve`, `sweep`, `render`) and paint its results.

pub mod app;
pub mod commands;
pub mod document;
pub mod editors;
pub mod export_form;
pub mod file_actions;
pub mod file_form;
pub mod frame_stats;
pub mod heatmap;
pub mod jobs;
mod menu;
pub mod painter;
pub mod panels;
pub mod params;
pub mod runs;
pub mod settings;
pub mod shared;
pub mod shortcuts;
pub mod tasks;

use std::path::PathBuf;

pub use app::{Workbench, WorkbenchApp};
pub use shared::{Command, Shared};

/// The name eframe keeps the window's state under (`~/.local/share/qubo-workbench/app.ron`).
const APP_ID: &str = "qubo-workbench";

/// Largest state file read (eframe's holds a few KB plus the autosaved document).
const STATE_FILE_LIMIT: u64 = 256 << 20;

/// Checks eframe's state file before the window opens: egui's entry (zoom, panel sizes) is
/// restored before any of our code runs, and a damaged one — a NaN or absurd zoom — panicked
/// every start. An entry that does not read, or whose zoom is not a number from 0.25 to 5, is
/// dropped (the file written atomically, the rest kept) and the returned line says so. The
/// workbench's own settings in the same file are sanitized when they are read.
pub fn repair_window_state(path: &std::path::Path) -> Option<String> {
    use std::collections::BTreeMap;
    let size = std::fs::metadata(path).ok()?.len();
    if size > STATE_FILE_LIMIT {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    // A file eframe itself cannot read is ignored by eframe: nothing to repair here.
    let mut entries: BTreeMap<String, String> = ron::from_str(&text).ok()?;
    let egui_state = entries.get("egui")?;
    let why = match ron::from_str::<egui::Memory>(egui_state) {
        Err(e) => format!("it does not read ({e})"),
        Ok(memory) => {
            let zoom = memory.options.zoom_factor;
            if zoom.is_finite() && (0.25..=5.0).contains(&zoom) {
                return None;
            }
            format!("its zoom is {zoom}, not a number from 0.25 to 5")
        }
    };
    entries.remove("egui");
    let repaired = ron::ser::to_string_pretty(&entries, Default::default()).ok()?;
    match crate::io::write_atomic(path, repaired.as_bytes()) {
        Ok(()) => Some(format!(
            "{}: the window's saved view state was dropped: {why} (your settings and work are kept)",
            path.display()
        )),
        Err(e) => Some(format!(
            "{}: the window's saved view state is damaged ({why}) and could not be repaired: {e}",
            path.display()
        )),
    }
}

/// Opens the window (optionally on `file`); `autorun` starts sampling at once; with
/// `screenshot`, saves a PNG once the window has settled (and a started run has finished) and
/// exits (settings are then neither read nor written). `sampler` chooses a sampler and sets
/// some of its parameters first; `sweep` (weight, from, to, steps — one, or two for a grid)
/// starts a weight sweep; `samples` (a dimod SampleSet file) is shown as a run of `file`'s model;
/// `weights` are set on `file`'s puzzle before anything runs.
pub fn run(
    file: Option<PathBuf>,
    screenshot: Option<PathBuf>,
    autorun: bool,
    sampler: Option<(String, crate::params::ParamValues)>,
    sweep: Vec<(String, f64, f64, usize)>,
    samples: Option<PathBuf>,
    weights: Vec<(String, f64)>,
) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1400.0, 900.0])
            .with_min_inner_size([800.0, 500.0])
            .with_title("qubo-workbench"),
        persist_window: screenshot.is_none(),
        // A screenshot neither reads nor writes the user's window state (a zoom saved there
        // would scale the picture): eframe is pointed at a file that does not exist.
        persistence_path: screenshot.as_ref().map(|_| {
            std::env::temp_dir().join(format!(
                "qubo-workbench-screenshot-{}-unused.ron",
                std::process::id()
            ))
        }),
        ..Default::default()
    };
    // eframe restores egui's own state before the window exists: check it first.
    if screenshot.is_none()
        && let Some(state) = eframe::storage_dir(APP_ID).map(|d| d.join("app.ron"))
        && let Some(said) = repair_window_state(&state)
    {
        eprintln!("{said}");
    }
    let print_stats = std::env::var_os("QUBO_WORKBENCH_FRAME_STATS").is_some();
    // The window system can fail under the event loop (an X window destroyed from outside
    // made winit unwrap an error): end with a message and exit 1, not an abort's 101.
    let run = std::panic::AssertUnwindSafe(move || {
        eframe::run_native(
            APP_ID,
            options,
            Box::new(move |cc| {
                let mut app = WorkbenchApp::new(cc, file, screenshot);
                app.print_frame_stats = print_stats;
                if let Some((name, values)) = sampler {
                    let settings = &mut app.workbench.shared.settings;
                    settings.sampler_params_mut(&name).extend(values);
                    settings.sampler = name;
                }
                // After the file's opening, which is a command too.
                for (name, value) in weights {
                    app.workbench.shared.send(Command::SetWeight(name, value));
                }
                if let Some(path) = samples {
                    app.workbench
                        .shared
                        .send(Command::File(file_actions::FileAction::ImportSamples, path));
                }
                if autorun {
                    app.workbench.shared.send(Command::Run);
                }
                if let Some((weight, from, to, steps)) = sweep.first().cloned() {
                    let sw = &mut app.workbench.shared.settings.sweep;
                    (sw.weight, sw.from, sw.to, sw.setup.steps) = (weight, from, to, steps);
                    sw.weight2.clear();
                    if let Some((weight, from, to, steps)) = sweep.get(1).cloned() {
                        (sw.weight2, sw.from2, sw.to2, sw.setup.steps2) = (weight, from, to, steps);
                    }
                    app.workbench.shared.send(Command::RunSweep);
                }
                Ok(Box::new(app))
            }),
        )
        .map_err(|e| format!("cannot open the window: {e}"))
    });
    std::panic::catch_unwind(run).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no reason given");
        Err(format!(
            "the window system failed ({why}); the document autosaved last is kept"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_window_state_is_dropped_and_the_rest_kept() {
        let dir = std::env::temp_dir().join(format!("qw-window-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("app.ron");
        let state = |zoom: &str| {
            format!(
                "{{\n \"egui\": \"(options:(zoom_factor:{zoom}))\",\n \"settings\": \"(kept)\",\n}}"
            )
        };
        for bad in ["NaN", "1000.0", "1e-30", "inf"] {
            std::fs::write(&path, state(bad)).unwrap();
            let said = repair_window_state(&path).expect("repaired");
            assert!(said.contains("zoom"), "{bad}: {said}");
            let left = std::fs::read_to_string(&path).unwrap();
            assert!(!left.contains("egui") && left.contains("(kept)"), "{left}");
        }
        // A good zoom, and no file at all, are left alone.
        std::fs::write(&path, state("1.25")).unwrap();
        assert_eq!(repair_window_state(&path), None);
        assert!(std::fs::read_to_string(&path).unwrap().contains("egui"));
        assert_eq!(repair_window_state(&dir.join("missing.ron")), None);
        // An egui entry that does not read at all is dropped too.
        std::fs::write(
            &path,
            "{\"egui\": \"(options:(zoom_factor:\", \"x\": \"y\"}",
        )
        .unwrap();
        assert!(
            repair_window_state(&path)
                .unwrap()
                .contains("does not read")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
