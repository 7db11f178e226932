//! The desktop workbench (eframe/egui). It holds no puzzle or QUBO logic of its own: panels call
//! the library (`puzzle`, `qubo`, `sampler`, `solve`, `sweep`, `render`) and paint its results.

pub mod app;
pub mod commands;
pub mod document;
pub mod editors;
pub mod export_form;
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

use std::path::PathBuf;

pub use app::{Workbench, WorkbenchApp};
pub use shared::{Command, Shared};

/// Opens the window (optionally on `file`); `autorun` starts sampling at once; with
/// `screenshot`, saves a PNG once the window has settled (and a started run has finished) and
/// exits (settings are then neither read nor written). `sampler` chooses a sampler and sets
/// some of its parameters first; `sweep` (weight, from, to, steps — one, or two for a grid)
/// starts a weight sweep; `samples` (a dimod SampleSet file) is shown as a run of `file`'s model.
pub fn run(
    file: Option<PathBuf>,
    screenshot: Option<PathBuf>,
    autorun: bool,
    sampler: Option<(String, crate::params::ParamValues)>,
    sweep: Vec<(String, f64, f64, usize)>,
    samples: Option<PathBuf>,
) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1400.0, 900.0])
            .with_min_inner_size([800.0, 500.0])
            .with_title("qubo-workbench"),
        persist_window: screenshot.is_none(),
        ..Default::default()
    };
    let print_stats = std::env::var_os("QUBO_WORKBENCH_FRAME_STATS").is_some();
    eframe::run_native(
        "qubo-workbench",
        options,
        Box::new(move |cc| {
            let mut app = WorkbenchApp::new(cc, file, screenshot);
            app.print_frame_stats = print_stats;
            if let Some((name, values)) = sampler {
                let settings = &mut app.workbench.shared.settings;
                settings.sampler_params_mut(&name).extend(values);
                settings.sampler = name;
            }
            if let Some(path) = samples {
                app.workbench.shared.send(Command::ImportSamples(path));
            }
            if autorun {
                app.workbench.shared.send(Command::Run);
            }
            if let Some((weight, from, to, steps)) = sweep.first().cloned() {
                let sw = &mut app.workbench.shared.settings.sweep;
                (sw.weight, sw.from, sw.to, sw.steps) = (weight, from, to, steps);
                sw.weight2.clear();
                if let Some((weight, from, to, steps)) = sweep.get(1).cloned() {
                    (sw.weight2, sw.from2, sw.to2, sw.steps2) = (weight, from, to, steps);
                }
                app.workbench.shared.send(Command::RunSweep);
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("cannot open the window: {e}"))
}
