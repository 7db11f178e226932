//! The workbench: shared state, the panels, and the commands they send. `Workbench::ui` lays
//! out one frame (it is what the tests drive); `WorkbenchApp` wraps it for eframe (persistence,
//! autosave, close confirmation, screenshots).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use egui::{CentralPanel, Panel};

use super::document::{Document, Snapshot};
use super::jobs::{DialogJob, FileAction, RunInput, RunResult, SampleJob};
use super::panels::{InspectorPanel, PuzzlePanel, ResultsPanel, SolverPanel, SweepPanel};
use super::settings::Settings;
use crate::puzzle::{AnyPuzzle, AnySolution, Kind, Sudoku, load_puzzles};
use crate::qubo::formats::{read_model, write_model};
use crate::render::image::export;
use crate::sampler::sampler_from_params;

/// Pixels per puzzle unit in exported images (as the CLI).
const PX_PER_UNIT: f32 = 48.0;

/// What panels ask the app to do; applied once per frame, after layout.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A new empty Sudoku with this side.
    NewSudoku(usize),
    Dialog(FileAction),
    Open(PathBuf),
    OpenModel(PathBuf),
    Save,
    SaveTo(PathBuf),
    ExportImage(PathBuf),
    ExportQubo(PathBuf),
    ExportSamples(PathBuf),
    Run,
    Cancel,
    Undo,
    Redo,
}

/// State every panel may read or change.
pub struct Shared {
    pub doc: Document,
    pub settings: Settings,
    pub commands: Vec<Command>,
    /// One line for the status bar: the last thing that happened or went wrong.
    pub status: String,
    pub run: Option<SampleJob>,
    pub result: Option<RunResult>,
    /// Row of `result` shown on the puzzle.
    pub selected_row: Option<usize>,
    pub fonts_installed: bool,
}

impl Shared {
    pub fn send(&mut self, c: Command) {
        self.commands.push(c);
    }

    /// The candidate solution to draw: the selected sample's, if any.
    pub fn selected_solution(&self) -> Option<&AnySolution> {
        let result = self.result.as_ref()?;
        result.rows.get(self.selected_row?)?.decoded.as_ref()
    }
}

/// UI time per frame (ms), over the last frames.
#[derive(Default)]
pub struct FrameStats {
    pub frames: u64,
    recent: std::collections::VecDeque<f32>,
    pub max_ms: f32,
    pub total_ms: f64,
    /// Frames laid out while a sampling run or sweep was going, and the slowest of them.
    pub busy_frames: u64,
    pub busy_max_ms: f32,
}

impl FrameStats {
    fn record(&mut self, ms: f32, busy: bool) {
        if busy {
            self.busy_frames += 1;
            self.busy_max_ms = self.busy_max_ms.max(ms);
        }
        self.frames += 1;
        self.total_ms += ms as f64;
        self.max_ms = self.max_ms.max(ms);
        self.recent.push_back(ms);
        if self.recent.len() > 120 {
            self.recent.pop_front();
        }
    }
    pub fn recent_max_ms(&self) -> f32 {
        self.recent.iter().copied().fold(0.0, f32::max)
    }
    pub fn mean_ms(&self) -> f64 {
        self.total_ms / self.frames.max(1) as f64
    }
}

pub struct Workbench {
    pub shared: Shared,
    pub puzzle: PuzzlePanel,
    pub inspector: InspectorPanel,
    pub solver: SolverPanel,
    pub results: ResultsPanel,
    pub sweep: SweepPanel,
    pub frame_stats: FrameStats,
    dialog: Option<DialogJob>,
    /// Showing the "unsaved changes" question.
    pub confirm_close: bool,
    /// The user agreed to close.
    pub close_now: bool,
}

/// The example loaded when nothing else is: Project Euler 96 grid 1 (Norvig's easy50, MIT).
pub fn example_puzzle() -> AnyPuzzle {
    AnyPuzzle::Sudoku(Sudoku::from_line(crate::bench::SUDOKUS[0].1).expect("valid example"))
}

impl Workbench {
    pub fn new(doc: Document, settings: Settings) -> Self {
        Workbench {
            shared: Shared {
                doc,
                settings,
                commands: Vec::new(),
                status: String::new(),
                run: None,
                result: None,
                selected_row: None,
                fonts_installed: false,
            },
            puzzle: PuzzlePanel::default(),
            inspector: InspectorPanel::default(),
            solver: SolverPanel::default(),
            results: ResultsPanel::default(),
            sweep: SweepPanel::default(),
            frame_stats: FrameStats::default(),
            dialog: None,
            confirm_close: false,
            close_now: false,
        }
    }

    /// Opens `path` as a puzzle (or, failing that for a model extension, as a model).
    pub fn with_file(path: Option<&Path>, settings: Settings) -> Self {
        let mut wb = Workbench::new(Document::from_puzzle(example_puzzle(), None), settings);
        if let Some(p) = path {
            wb.open(p.to_path_buf());
        }
        wb
    }

    pub fn is_running(&self) -> bool {
        self.shared.run.is_some()
    }

    pub fn is_sweeping(&self) -> bool {
        self.sweep.is_running()
    }

    /// One frame: polls jobs, lays out every panel, applies the commands they sent.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let started = Instant::now();
        if !self.shared.fonts_installed {
            super::painter::install_fonts(ui.ctx());
            self.shared.fonts_installed = true;
        }
        self.poll_jobs(ui.ctx());
        self.shortcuts(ui.ctx());

        Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        Panel::left("solver")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.solver.ui(ui, &mut self.shared);
                    ui.separator();
                    self.sweep.ui(ui, &mut self.shared);
                });
            });
        Panel::right("inspector")
            .resizable(true)
            .default_size(430.0)
            .show(ui, |ui| {
                self.inspector.ui(ui, &mut self.shared);
            });
        Panel::bottom("results")
            .resizable(true)
            .default_size(300.0)
            .min_size(260.0)
            .show(ui, |ui| {
                self.results.ui(ui, &mut self.shared);
            });
        CentralPanel::default().show(ui, |ui| self.puzzle.ui(ui, &mut self.shared));

        if self.confirm_close {
            self.confirm_close_ui(ui.ctx());
        }
        let commands = std::mem::take(&mut self.shared.commands);
        for c in commands {
            self.apply(c, ui.ctx());
        }
        let busy = self.is_running() || self.is_sweeping();
        self.frame_stats
            .record(started.elapsed().as_secs_f32() * 1e3, busy);
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let (undo, redo, save) = ctx.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y),
                i.consume_key(egui::Modifiers::COMMAND, egui::Key::S),
            )
        });
        if undo {
            self.shared.send(Command::Undo);
        }
        if redo {
            self.shared.send(Command::Redo);
        }
        if save {
            self.shared.send(Command::Save);
        }
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                ui.menu_button("New", |ui| {
                    for side in [4, 9, 16] {
                        if ui.button(format!("Sudoku {side}×{side}")).clicked() {
                            self.shared.send(Command::NewSudoku(side));
                        }
                    }
                    for kind in Kind::ALL.iter().filter(|k| !k.is_available()) {
                        ui.add_enabled(false, egui::Button::new(format!("{kind} (coming)")));
                    }
                });
                if ui.button("Open…").clicked() {
                    self.shared.send(Command::Dialog(FileAction::OpenPuzzle));
                }
                if ui.button("Open model…").clicked() {
                    self.shared.send(Command::Dialog(FileAction::OpenModel));
                }
                ui.menu_button("Recent files", |ui| {
                    if self.shared.settings.recent.is_empty() {
                        ui.label("none yet");
                    }
                    for p in self.shared.settings.recent.clone() {
                        if ui.button(p.display().to_string()).clicked() {
                            self.shared.send(Command::Open(p));
                        }
                    }
                });
                ui.separator();
                if ui
                    .add_enabled(
                        self.shared.doc.puzzle().is_some(),
                        egui::Button::new("Save"),
                    )
                    .clicked()
                {
                    self.shared.send(Command::Save);
                }
                if ui
                    .add_enabled(
                        self.shared.doc.puzzle().is_some(),
                        egui::Button::new("Save As…"),
                    )
                    .clicked()
                {
                    self.shared.send(Command::Dialog(FileAction::SaveAs));
                }
                ui.separator();
                if ui
                    .add_enabled(
                        self.shared.doc.puzzle().is_some(),
                        egui::Button::new("Export image…"),
                    )
                    .clicked()
                {
                    self.shared.send(Command::Dialog(FileAction::ExportImage));
                }
                if ui
                    .add_enabled(
                        self.shared.doc.model.is_some(),
                        egui::Button::new("Export QUBO…"),
                    )
                    .clicked()
                {
                    self.shared.send(Command::Dialog(FileAction::ExportQubo));
                }
                if ui
                    .add_enabled(
                        self.shared.result.is_some(),
                        egui::Button::new("Export samples…"),
                    )
                    .clicked()
                {
                    self.shared.send(Command::Dialog(FileAction::ExportSamples));
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(self.shared.doc.can_undo(), egui::Button::new("Undo"))
                    .clicked()
                {
                    self.shared.send(Command::Undo);
                }
                if ui
                    .add_enabled(self.shared.doc.can_redo(), egui::Button::new("Redo"))
                    .clicked()
                {
                    self.shared.send(Command::Redo);
                }
            });
            ui.separator();
            ui.strong(self.shared.doc.title());
        });
    }

    fn status_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label(&self.shared.status);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.weak(format!(
                    "frame {:.1} ms (max {:.1} ms over the last 120)",
                    self.frame_stats.recent.back().copied().unwrap_or(0.0),
                    self.frame_stats.recent_max_ms()
                ));
            });
        });
    }

    fn confirm_close_ui(&mut self, ctx: &egui::Context) {
        egui::Modal::new(egui::Id::unique("confirm-close")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!(
                "{} has changes that are not saved to a file.",
                self.shared.doc.title()
            ));
            ui.label("(They are kept in the autosave either way.)");
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    self.confirm_close = false;
                    self.shared.send(Command::Save);
                    self.close_now = !self.shared.doc.dirty;
                }
                if ui.button("Close without saving").clicked() {
                    self.confirm_close = false;
                    self.close_now = true;
                }
                if ui.button("Don't close").clicked() {
                    self.confirm_close = false;
                }
            });
        });
    }

    fn poll_jobs(&mut self, ctx: &egui::Context) {
        if let Some(job) = &self.shared.run
            && let Some(result) = job.poll()
        {
            self.shared.run = None;
            match result {
                Ok(r) => {
                    self.shared.status = format!(
                        "{} reads in {:.3} s{}",
                        r.samples.num_reads(),
                        r.sample_s,
                        if r.samples.info.cancelled {
                            " (cancelled)"
                        } else {
                            ""
                        }
                    );
                    self.shared.selected_row = (!r.rows.is_empty()).then_some(0);
                    self.shared.result = Some(r);
                }
                Err(e) => self.shared.status = format!("sampling failed: {e}"),
            }
        }
        self.sweep.poll(&mut self.shared);
        if let Some(d) = &self.dialog
            && let Some(answer) = d.poll()
        {
            let action = d.action;
            self.dialog = None;
            if let Some(path) = answer {
                let c = match action {
                    FileAction::OpenPuzzle => Command::Open(path),
                    FileAction::OpenModel => Command::OpenModel(path),
                    FileAction::SaveAs => Command::SaveTo(path),
                    FileAction::ExportImage => Command::ExportImage(path),
                    FileAction::ExportQubo => Command::ExportQubo(path),
                    FileAction::ExportSamples => Command::ExportSamples(path),
                };
                self.apply(c, ctx);
            }
        }
        if self.shared.run.is_some() || self.sweep.is_running() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    /// Carries out a command (also the way tests trigger file actions without dialogs).
    pub fn apply(&mut self, c: Command, ctx: &egui::Context) {
        let s = &mut self.shared;
        match c {
            Command::NewSudoku(side) => match Sudoku::empty((side as f64).sqrt() as usize) {
                Ok(p) => self.replace_document(Document::from_puzzle(AnyPuzzle::Sudoku(p), None)),
                Err(e) => s.status = e.to_string(),
            },
            Command::Dialog(action) => {
                let suggested = match action {
                    FileAction::ExportImage => Some("puzzle.png".to_string()),
                    FileAction::ExportQubo => Some("model.coo".to_string()),
                    FileAction::ExportSamples => Some("samples.json".to_string()),
                    FileAction::SaveAs => Some("puzzle.txt".to_string()),
                    _ => None,
                };
                let repaint_ctx = ctx.clone();
                self.dialog = Some(DialogJob::start(action, suggested, move || {
                    repaint_ctx.request_repaint()
                }));
            }
            Command::Open(path) => self.open(path),
            Command::OpenModel(path) => {
                if let Err(e) = self.open_model(path) {
                    self.shared.status = e;
                }
            }
            Command::Save => match s.doc.path.clone() {
                Some(p) if s.doc.puzzle().is_some() => self.save_to(p),
                _ => s.send(Command::Dialog(FileAction::SaveAs)),
            },
            Command::SaveTo(p) => self.save_to(p),
            Command::ExportImage(p) => {
                let Some(puzzle) = s.doc.puzzle() else { return };
                let solution = s
                    .selected_solution()
                    .cloned()
                    .or_else(|| self.puzzle.editors.entries(&s.doc));
                s.status = match export(&puzzle.draw(solution.as_ref()), &p, PX_PER_UNIT) {
                    Ok(()) => format!("wrote {}", p.display()),
                    Err(e) => e,
                };
            }
            Command::ExportQubo(p) => {
                let Some(model) = &s.doc.model else { return };
                let labels: Vec<String> = (0..model.qubo.num_variables())
                    .map(|v| s.doc.label_of(v))
                    .collect();
                s.status = match write_model(&p, &model.qubo, Some(&labels)) {
                    Ok(()) => format!("wrote {}", p.display()),
                    Err(e) => e,
                };
            }
            Command::ExportSamples(p) => {
                let Some(r) = &s.result else { return };
                let labels: Vec<String> = (0..r.samples.num_variables)
                    .map(|v| s.doc.label_of(v))
                    .collect();
                s.status = match r.samples.save(&p, Some(&labels)) {
                    Ok(()) => format!("wrote {}", p.display()),
                    Err(e) => e,
                };
            }
            Command::Run => self.start_run(ctx),
            Command::Cancel => {
                if let Some(job) = &s.run {
                    job.control.cancel();
                    s.status = "cancelling…".into();
                }
            }
            Command::Undo => s.doc.undo(),
            Command::Redo => s.doc.redo(),
        }
    }

    fn replace_document(&mut self, doc: Document) {
        if let Some(job) = &self.shared.run {
            job.control.cancel();
        }
        self.shared.doc = doc;
        self.shared.result = None;
        self.shared.selected_row = None;
        self.puzzle.editors.reset();
        self.sweep.clear();
    }

    /// Opens a puzzle file; a model extension (.qubo, .coo) opens it as a model.
    pub fn open(&mut self, path: PathBuf) {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if ext == "qubo" || ext == "coo" {
            if let Err(e) = self.open_model(path) {
                self.shared.status = e;
            }
            return;
        }
        match load_puzzles(&path, None) {
            Ok(mut puzzles) => {
                let count = puzzles.len();
                let first = puzzles.swap_remove(0);
                // Saving one puzzle over a file of many would lose the others: such a document
                // has no path, so Save asks where.
                let save_path = (count == 1).then(|| path.clone());
                self.shared.settings.remember(path.clone());
                self.replace_document(Document::from_puzzle(first, save_path));
                self.shared.status = if count == 1 {
                    format!("opened {}", path.display())
                } else {
                    format!(
                        "opened puzzle 1 of {count} from {} (Save asks for a new file)",
                        path.display()
                    )
                };
            }
            Err(e) => {
                // A .json that is not a puzzle may be a dimod BQM.
                if ext == "json" && self.open_model(path).is_ok() {
                    return;
                }
                self.shared.status = e.to_string();
            }
        }
    }

    /// Opens a QUBO model file (no puzzle); read warnings go to the status line.
    fn open_model(&mut self, path: PathBuf) -> Result<(), String> {
        let m = read_model(&path).map_err(|e| e.to_string())?;
        self.shared.settings.remember(path.clone());
        let warnings = m.warnings.join("; ");
        self.replace_document(Document::from_model(m.qubo, m.labels, path));
        self.shared.status = if warnings.is_empty() {
            "model opened".into()
        } else {
            format!("model opened; warning: {warnings}")
        };
        Ok(())
    }

    fn save_to(&mut self, path: PathBuf) {
        let s = &mut self.shared;
        let Some(p) = s.doc.puzzle() else { return };
        let text = if path.extension().is_some_and(|e| e == "json") {
            serde_json::to_string_pretty(p).unwrap_or_default() + "\n"
        } else {
            p.to_line() + "\n"
        };
        match crate::io::write_atomic(&path, text.as_bytes()) {
            Ok(()) => {
                s.doc.dirty = false;
                s.doc.path = Some(path.clone());
                s.settings.remember(path.clone());
                s.status = format!("saved {}", path.display());
            }
            Err(e) => s.status = e,
        }
    }

    fn start_run(&mut self, ctx: &egui::Context) {
        let s = &mut self.shared;
        if s.run.is_some() {
            return;
        }
        let Some(model) = s.doc.model.clone() else {
            s.status = s
                .doc
                .error
                .clone()
                .unwrap_or_else(|| "no model to sample".into());
            return;
        };
        let sampler = match sampler_from_params(&s.settings.sampler, &s.settings.sampler_params()) {
            Ok(x) => x,
            Err(e) => {
                s.status = e;
                return;
            }
        };
        let puzzle = match (s.doc.puzzle(), &s.doc.encoding) {
            (Some(p), Some(e)) => Some((
                p.clone(),
                e.clone(),
                s.doc.weights.clone(),
                s.doc.options.clone(),
            )),
            _ => None,
        };
        let input = RunInput {
            puzzle,
            model,
            version: s.doc.version,
        };
        let repaint_ctx = ctx.clone();
        s.run = Some(SampleJob::start(input, sampler, move || {
            repaint_ctx.request_repaint()
        }));
        s.status = "sampling…".into();
    }
}

/// eframe's side: persistence, autosave, close confirmation, `--screenshot`.
pub struct WorkbenchApp {
    pub workbench: Workbench,
    screenshot: Option<PathBuf>,
    screenshot_requested: bool,
    screenshot_done: Arc<AtomicBool>,
    pub print_frame_stats: bool,
}

const SETTINGS_KEY: &str = "settings";
const DOCUMENT_KEY: &str = "document";

impl WorkbenchApp {
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        file: Option<PathBuf>,
        screenshot: Option<PathBuf>,
    ) -> Self {
        let storage = if screenshot.is_some() {
            None
        } else {
            cc.storage
        };
        let settings: Settings = storage
            .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
            .unwrap_or_default();
        let mut workbench = Workbench::with_file(file.as_deref(), settings);
        if file.is_none()
            && let Some(snapshot) =
                storage.and_then(|s| eframe::get_value::<Snapshot>(s, DOCUMENT_KEY))
        {
            workbench.shared.doc = Document::from_snapshot(snapshot);
            workbench.shared.status = "restored the autosaved work".into();
        }
        WorkbenchApp {
            workbench,
            screenshot,
            screenshot_requested: false,
            screenshot_done: Arc::new(AtomicBool::new(false)),
            print_frame_stats: false,
        }
    }
}

impl eframe::App for WorkbenchApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let wb = &mut self.workbench;
        let ctx = ui.ctx().clone();
        if ctx.input(|i| i.viewport().close_requested())
            && wb.shared.doc.dirty
            && !wb.close_now
            && self.screenshot.is_none()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            wb.confirm_close = true;
        }
        wb.ui(ui);
        if wb.close_now {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        // --screenshot: once the first frames have settled (and the heatmap is built), save the
        // window as PNG and close.
        if let Some(path) = self.screenshot.clone() {
            if self.screenshot_done.load(Ordering::Relaxed) {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            } else if !self.screenshot_requested
                && wb.frame_stats.frames >= 10
                && !wb.is_running()
                && wb.shared.commands.is_empty()
                && (wb.inspector.is_ready() || wb.frame_stats.frames > 300)
            {
                self.screenshot_requested = true;
                let done = self.screenshot_done.clone();
                let repaint = ctx.clone();
                ctx.request_screenshot(move |image| {
                    match save_png(&image, &path) {
                        Ok(()) => eprintln!("wrote {}", path.display()),
                        Err(e) => eprintln!("error: {e}"),
                    }
                    done.store(true, Ordering::Relaxed);
                    repaint.request_repaint();
                });
            }
            ctx.request_repaint();
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_some() {
            return;
        }
        eframe::set_value(storage, SETTINGS_KEY, &self.workbench.shared.settings);
        if let Some(snapshot) = self.workbench.shared.doc.snapshot() {
            eframe::set_value(storage, DOCUMENT_KEY, &snapshot);
        }
    }

    fn auto_save_interval(&self) -> Duration {
        Duration::from_secs(5)
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if self.print_frame_stats || self.screenshot.is_some() {
            let f = &self.workbench.frame_stats;
            eprintln!(
                "frames: {}, UI time per frame: mean {:.2} ms, max {:.2} ms; while sampling: {} frames, max {:.2} ms",
                f.frames,
                f.mean_ms(),
                f.max_ms,
                f.busy_frames,
                f.busy_max_ms
            );
        }
    }
}

/// Saves an egui screenshot as PNG (through tiny-skia, already a dependency).
pub fn save_png(image: &egui::ColorImage, path: &Path) -> Result<(), String> {
    let [w, h] = image.size;
    let mut pm = tiny_skia::Pixmap::new(w as u32, h as u32).ok_or("empty screenshot")?;
    for (dst, px) in pm.pixels_mut().iter_mut().zip(&image.pixels) {
        let [r, g, b, a] = px.to_array();
        *dst = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
    }
    let bytes = pm
        .encode_png()
        .map_err(|e| format!("cannot encode PNG: {e}"))?;
    crate::io::write_atomic(path, &bytes)
}
