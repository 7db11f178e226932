//! The puzzle: drawn from the same `Drawing` the CLI exports, edited through the kind's editor,
//! with the selected sample (or the user's own entries) drawn over it and refereed live, the
//! instance's design facts (solutions, conflicts) computed off the UI thread, and a generator
//! form drawn from the kind's parameter description.

use std::collections::BTreeMap;

use egui::{Color32, Role, Sense, WidgetInfo};

use crate::gui::document::Content;
use crate::gui::editors::Editors;
use crate::gui::painter::{self, Placement};
use crate::gui::params::params_ui;
use crate::gui::shared::{Command, Shared};
use crate::params::ParamValues;
use crate::puzzle::{Kind, SolutionCount};
use crate::solve::QuboDifficulty;

const GOOD: Color32 = Color32::from_rgb(30, 140, 60);
const BAD: Color32 = Color32::from_rgb(200, 40, 40);

/// Which per-cell probabilities are drawn over the puzzle (kinds that have them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProbabilityView {
    /// The kind's exact engine (from the design facts).
    #[default]
    Exact,
    /// Estimated from the last run's reads.
    Sampled,
    /// None.
    Off,
}

/// The puzzle panel's state.
pub struct PuzzlePanel {
    /// Which probabilities are drawn, for kinds that have them.
    pub probability_view: ProbabilityView,
    /// The current kind's editor.
    pub editors: Editors,
    /// Generator parameters per kind, as last set.
    pub generator: BTreeMap<&'static str, ParamValues>,
    /// Draw the selected sample over the puzzle.
    pub show_sample: bool,
    /// Draw the design facts' second solution (when there are two or more).
    pub show_second_solution: bool,
    /// Draw the classical solver's solution (from the design facts) instead of the sample.
    pub show_classical_solution: bool,
    /// Where the drawing landed last frame (tests click through it).
    pub placement: Option<Placement>,
    /// The QUBO path's difficulty being measured, for this puzzle ("Estimate TTS99").
    difficulty_job: Option<(crate::puzzle::AnyPuzzle, DifficultyJob)>,
    /// The last measurement, for this puzzle (or why there is none).
    pub difficulty: Option<(crate::puzzle::AnyPuzzle, Result<QuboDifficulty, String>)>,
    /// Generate only instances whose TTS99 falls in `tts99_range_s`.
    pub aim_tts99: bool,
    /// The TTS99 range aimed at, in seconds.
    pub tts99_range_s: [f64; 2],
    /// The figures behind the last generation that failed (shown in a fold).
    pub generate_details: Option<String>,
    /// `Document::edits` and `Shared::samples_offered` as last seen: an edit turns the sample
    /// overlay off (the user's own entries are never hidden under a sample), a sample put
    /// forward turns it on.
    seen: (u64, u64),
}

/// Height of the controls above the board (they scroll within it when they need more).
const HEADER_HEIGHT: f32 = 176.0;
/// Height kept under the board for the verdict line.
const VERDICT_HEIGHT: f32 = 48.0;

/// Seconds "Estimate TTS99" samples at most.
const DIFFICULTY_BUDGET_S: f64 = 10.0;

type DifficultyJob = crate::gui::jobs::OneShot<Result<QuboDifficulty, String>>;

impl Default for PuzzlePanel {
    fn default() -> Self {
        PuzzlePanel {
            probability_view: ProbabilityView::default(),
            editors: Editors::default(),
            generator: BTreeMap::new(),
            show_sample: true,
            show_second_solution: false,
            show_classical_solution: false,
            placement: None,
            difficulty_job: None,
            difficulty: None,
            aim_tts99: false,
            tts99_range_s: [0.1, 1.0],
            generate_details: None,
            seen: (0, 0),
        }
    }
}

impl PuzzlePanel {
    /// Whether the QUBO path's difficulty is being estimated.
    pub fn estimating(&self) -> bool {
        self.difficulty_job.is_some()
    }

    /// Lays out the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        if let Content::Model { name, .. } = &s.doc.content {
            s.board_side = 0.0;
            ui.heading(name.clone());
            let n = s.doc.model.as_ref().map_or(0, |m| m.qubo.num_variables());
            ui.label(format!("A QUBO model opened from a file: {n} variables. There is no puzzle to draw; inspect it and sample it."));
            return;
        }
        // The controls above the board live in a band of fixed height (scrolling when they
        // overflow it), so nothing that comes and goes there — selection tools, a clear button,
        // a longer facts line, a generator's progress — can move the board under the pointer.
        let width = ui.available_width();
        // The band's height depends on the window alone (never on its content), so the board
        // never moves under the pointer; in a short window it takes less and scrolls.
        let header = HEADER_HEIGHT.min(ui.available_height() * 0.3).max(60.0);
        ui.allocate_ui_with_layout(
            egui::vec2(width, header),
            egui::Layout::top_down(egui::Align::Min),
            |ui| {
                ui.set_min_size(egui::vec2(width, header));
                egui::ScrollArea::vertical()
                    .id_salt("puzzle controls")
                    .max_height(header)
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        self.toolbar_ui(ui, s);
                        self.facts_ui(ui, s);
                    });
            },
        );
        let Some(puzzle) = s.doc.puzzle().cloned() else {
            return;
        };
        let (shown, running) = self.shown_solution(s);
        // Only a run of the current model: an earlier position's estimate would mislead.
        let sampled = s
            .result
            .as_ref()
            .filter(|r| r.version == s.doc.version)
            .and_then(|r| r.probabilities.clone());
        let probabilities = match self.probability_view {
            // When the exact engine could not answer (the facts say why), the sampled estimate.
            ProbabilityView::Exact => s
                .current_facts()
                .and_then(Result::ok)
                .and_then(|f| f.probabilities.clone())
                .or(sampled),
            ProbabilityView::Sampled => sampled,
            ProbabilityView::Off => None,
        };
        let drawing = match (&probabilities, self.editors.drawing(&s.doc, shown.as_ref())) {
            (Some(pr), _) => puzzle.draw_probabilities(shown.as_ref(), pr),
            (None, Some(own)) => own,
            (None, None) => puzzle.draw(shown.as_ref()),
        };
        let verdict = shown.as_ref().map(|sol| puzzle.check(sol));
        let score = shown.as_ref().and_then(|sol| puzzle.score(sol));
        // The verdict line's room is always kept: a verdict appearing never shrinks the board.
        let avail = ui.available_size() - egui::vec2(0.0, VERDICT_HEIGHT);
        let (response, painter) =
            ui.allocate_painter(avail.max(egui::vec2(50.0, 50.0)), Sense::click_and_drag());
        response.widget_info(|| WidgetInfo::labeled(Role::Canvas, true, "Puzzle canvas"));
        s.board_side = response.rect.width().min(response.rect.height());
        let at = painter::paint(
            &painter,
            &drawing,
            response.rect.shrink(8.0),
            s.fonts_installed,
        );
        if let Some(editor) = self.editors.for_doc(&s.doc) {
            editor.overlay(&painter, &at, &s.doc);
            if let (Some(pos), Some(pr)) = (response.hover_pos(), &probabilities)
                && let Some(text) = editor.hover_text(&at, pos, &s.doc, pr)
            {
                response.clone().on_hover_text_at_pointer(text);
            }
            if let Some(message) = editor.handle(&response, &at, &mut s.doc) {
                s.status = message;
            }
        }
        self.placement = Some(at);
        verdict_ui(ui, &puzzle, verdict, score, running);
    }

    /// What the board shows, and whether it is a running sampler's best state: the classical
    /// solution asked for, else the run's best state so far, else the selected sample or
    /// shown run (unless an edit hid it), else the editor's own entries.
    fn shown_solution(&mut self, s: &mut Shared) -> (Option<crate::puzzle::AnySolution>, bool) {
        let (edits, offered) = self.seen;
        if s.samples_offered != offered {
            self.show_sample = true;
        } else if s.doc.edits != edits
            && self.show_sample
            && (s.result.is_some() || s.shown_run.is_some())
        {
            self.show_sample = false;
            s.shown_run = None;
            s.status =
                "your edit is shown; tick Show selected sample to see the run's sample again"
                    .into();
        }
        self.seen = (s.doc.edits, s.samples_offered);
        let classical = |second: bool| {
            let facts = s.current_facts()?.ok()?;
            if second {
                facts.second_solution.clone()
            } else {
                facts.solution.clone()
            }
        };
        // The last run's repaired answer, when asked for (results panel).
        let repaired = || {
            let r = s.result.as_ref().filter(|r| r.version == s.doc.version)?;
            Some(r.repaired.as_ref()?.1.solution.clone())
        };
        let second = if self.show_second_solution {
            classical(true)
        } else if self.show_classical_solution {
            classical(false)
        } else if s.show_repaired {
            repaired()
        } else {
            None
        };
        // While a run goes on, its best state so far (a partial board for large instances).
        let live = match (&mut s.run, self.show_sample && second.is_none()) {
            (Some(job), true) => job.live_solution().cloned(),
            _ => None,
        };
        let entries = self.editors.entries(&s.doc);
        let running = live.is_some();
        let shown = second
            .or(live)
            .or_else(|| {
                self.show_sample
                    .then(|| s.shown_run.as_ref().map(|(_, sol)| sol.clone()))
                    .flatten()
            })
            .or_else(|| {
                self.show_sample
                    .then(|| s.selected_solution().cloned())
                    .flatten()
            })
            .or(entries);
        (shown, running)
    }

    /// Undo/redo, the kind's own controls, and the generator form.
    fn toolbar_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let Some(kind) = s.doc.puzzle().map(|p| p.kind()) else {
            return;
        };
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(s.doc.can_undo(), egui::Button::new("Undo"))
                .clicked()
            {
                s.send(Command::Undo);
            }
            if ui
                .add_enabled(s.doc.can_redo(), egui::Button::new("Redo"))
                .clicked()
            {
                s.send(Command::Redo);
            }
            ui.separator();
            if let Some(editor) = self.editors.for_doc(&s.doc)
                && let Some(message) = editor.toolbar_ui(ui, &mut s.doc)
            {
                s.status = message;
            }
            ui.checkbox(&mut self.show_sample, "Show selected sample");
        });
        self.generator_ui(ui, s, kind);
    }

    /// The kind's generator parameters and a Generate button (generation runs as a job).
    fn generator_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared, kind: Kind) {
        let specs = kind.generator_params();
        if specs.is_empty() {
            return;
        }
        ui.horizontal_wrapped(|ui| {
            let values = self.generator.entry(kind.name()).or_default();
            params_ui(ui, "generator", specs, values);
            let busy = s.generating.is_some();
            if ui
                .add_enabled(!busy, egui::Button::new("Generate"))
                .on_hover_text(format!("a new {kind} from these parameters"))
                .clicked()
            {
                self.generate_details = None;
                s.send(Command::Generate(
                    kind,
                    values.clone(),
                    self.aim_tts99.then_some(self.tts99_range_s),
                ));
            }
            if let Some(job) = &s.generating {
                ui.spinner();
                // Generators that search say how far they got; every one can be stopped.
                let (tried, of) = job.control.progress();
                if of > 0 {
                    ui.label(format!("try {tried} of at most {of}"));
                }
                if ui.button("Cancel generating").clicked() {
                    job.control.cancel();
                }
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(200));
            }
        });
        // Annealer hardness: keep drawing until the default sampler's TTS99 falls in a range.
        ui.horizontal_wrapped(|ui| {
            let aim = ui
                .checkbox(&mut self.aim_tts99, "aim at a TTS99 of")
                .on_hover_text(
                    "draw instances (seed, seed + 1, …) until the default sampler's TTS99 at \
                     default weights falls in this range; the measured value is kept with it. \
                     Ticked after Estimate TTS99, the range starts around that estimate (a \
                     third to three times it), which fits the kind and size at hand",
                );
            // A range that fits what is open: around this puzzle's measured TTS99.
            if aim.changed()
                && self.aim_tts99
                && let Some((of, Ok(d))) = &self.difficulty
                && Some(of) == s.doc.puzzle()
                && let Some(t) = d.tts99_s.filter(|t| *t > 0.0)
            {
                self.tts99_range_s = [t / 3.0, (t * 3.0).min(3600.0)];
            }
            let [lo, hi] = &mut self.tts99_range_s;
            ui.add_enabled(
                self.aim_tts99,
                egui::DragValue::new(lo)
                    .range(0.0..=3600.0)
                    .speed(0.01)
                    .suffix(" s"),
            );
            ui.label("to");
            ui.add_enabled(
                self.aim_tts99,
                egui::DragValue::new(hi)
                    .range(0.0..=3600.0)
                    .speed(0.01)
                    .suffix(" s"),
            );
            if *lo > *hi {
                *hi = *lo;
            }
        });
        if let Some(details) = &self.generate_details {
            egui::CollapsingHeader::new("details of the last failed generation")
                .id_salt("generate details")
                .show(ui, |ui| {
                    ui.add(egui::Label::new(details.as_str()).wrap());
                });
        }
        // The last instances generated (of any kind), to go back to.
        // Their names only: the kept texts (up to 256 KB each) are not copied per frame.
        let recent: Vec<String> = s
            .settings
            .recent_generated
            .iter()
            .map(|e| format!("{} — {}", e.description, e.params))
            .collect();
        if !recent.is_empty() {
            egui::CollapsingHeader::new(format!("Recently generated ({})", recent.len()))
                .id_salt("recently generated")
                .show(ui, |ui| {
                    for (k, name) in recent.iter().enumerate() {
                        if ui
                            .button(name)
                            .on_hover_text("open it again (a new document)")
                            .clicked()
                        {
                            s.send(Command::OpenGenerated(k));
                        }
                    }
                });
        }
    }

    /// The design facts line: solutions, figures, conflicts.
    fn facts_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let facts = match s.current_facts() {
            None => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.weak("checking the instance…");
                });
                return;
            }
            Some(Err(why)) => {
                ui.colored_label(BAD, format!("could not check the instance: {why}"));
                return;
            }
            Some(Ok(facts)) => facts,
        };
        // Kinds that promise unique solutions want exactly one; for the others (edge matching,
        // Minesweeper positions) any solution at all is good news.
        let unique = s.doc.puzzle().is_some_and(|p| p.kind().generates_unique());
        let good = facts.conflicts.is_empty()
            && match facts.solutions {
                SolutionCount::One => true,
                SolutionCount::AtLeastTwo => !unique,
                _ => false,
            };
        let line = facts.summary();
        let has_second = facts.second_solution.is_some();
        let has_first = facts.solution.is_some();
        let has_probabilities = facts.probabilities.is_some();
        let sampled = s
            .result
            .as_ref()
            .is_some_and(|r| r.version == s.doc.version && r.probabilities.is_some());
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(if good { GOOD } else { BAD }, line);
            if has_first {
                ui.checkbox(
                    &mut self.show_classical_solution,
                    "Show the classical solution",
                )
                .on_hover_text(
                    "The exact backtracking solver's solution, found while checking the instance",
                );
            }
            if has_second {
                ui.checkbox(&mut self.show_second_solution, "Show a second solution");
            }
            if has_probabilities {
                ui.label("Probabilities:");
                ui.selectable_value(&mut self.probability_view, ProbabilityView::Exact, "exact")
                    .on_hover_text("Exact, from every layout that fits the position (refreshed after each move)");
                ui.add_enabled_ui(sampled, |ui| {
                    ui.selectable_value(
                        &mut self.probability_view,
                        ProbabilityView::Sampled,
                        "sampled",
                    )
                    .on_hover_text("The share of the last run's reads with a mine in each cell (the seed's estimate); run the sampler on this position first")
                    .on_disabled_hover_text("Run a sampler on this position first");
                });
                ui.selectable_value(&mut self.probability_view, ProbabilityView::Off, "off");
            }
        });
        if good {
            self.difficulty_ui(ui, s);
        }
    }

    /// Takes in the difficulty estimate when it lands (`Workbench::logic`, before layout).
    pub fn poll(&mut self) {
        if let Some((of, job)) = &self.difficulty_job
            && let Some(answer) = job.poll()
        {
            self.difficulty = Some((of.clone(), answer.and_then(|r| r)));
            self.difficulty_job = None;
        }
    }

    /// The QUBO path's difficulty on request: the default sampler at default weights, in the
    /// background, at most `DIFFICULTY_BUDGET_S` seconds; shown for the puzzle it measured.
    fn difficulty_ui(&mut self, ui: &mut egui::Ui, s: &mut Shared) {
        let Some(puzzle) = s.doc.puzzle().cloned() else {
            return;
        };
        ui.horizontal_wrapped(|ui| {
            let running = self.difficulty_job.is_some();
            if ui
                .add_enabled(!running, egui::Button::new("Estimate TTS99"))
                .on_hover_text(format!(
                    "the QUBO path's difficulty: the default sampler at default weights, one run \
                     of at most {DIFFICULTY_BUDGET_S} s (the classical search's effort is the \
                     'search nodes' above)"
                ))
                .clicked()
            {
                let p = puzzle.clone();
                let repaint = ui.ctx().clone();
                let job = crate::gui::jobs::OneShot::start(
                    move || {
                        crate::solve::qubo_difficulty(&p, DIFFICULTY_BUDGET_S)
                            .map_err(|e| e.to_string())
                    },
                    move || repaint.request_repaint(),
                );
                self.difficulty_job = Some((puzzle.clone(), job));
            }
            if running {
                ui.spinner();
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(200));
            }
            match &self.difficulty {
                Some((of, Ok(d))) if *of == puzzle => {
                    ui.label(match (d.tts99_s, d.stopped_at_budget) {
                        (Some(t), true) => format!(
                            "QUBO path: TTS99 ≈ {t:.3} s with {} (stopped at {DIFFICULTY_BUDGET_S} s: \
                             from the {} reads finished, {:.0} % valid)",
                            d.sampler,
                            d.num_reads,
                            100.0 * d.success_fraction
                        ),
                        (Some(t), false) => format!(
                            "QUBO path: TTS99 {t:.3} s with {} ({:.0} % of {} reads valid)",
                            d.sampler,
                            100.0 * d.success_fraction,
                            d.num_reads
                        ),
                        (None, true) => format!(
                            "QUBO path: TTS99 above {DIFFICULTY_BUDGET_S} s with {}",
                            d.sampler
                        ),
                        (None, false) => format!("QUBO path: no valid read with {}", d.sampler),
                    });
                }
                Some((of, Err(e))) if *of == puzzle => {
                    ui.colored_label(BAD, format!("could not estimate: {e}"));
                }
                _ => {}
            }
        });
    }
}

/// The line under the board: a running sampler's best state and what it breaks, or the
/// referee's verdict — conflicts first, in red, and what is merely unfinished counted calmly.
fn verdict_ui(
    ui: &mut egui::Ui,
    puzzle: &crate::puzzle::AnyPuzzle,
    verdict: Option<Vec<crate::puzzle::Violation>>,
    score: Option<crate::puzzle::Score>,
    running: bool,
) {
    if running {
        let score = score.map_or(String::new(), |sc| {
            format!(", score {} / {}", sc.value, sc.max)
        });
        let broken = verdict.as_ref().map_or(0, |v| v.len());
        ui.label(format!(
                "Running: the best state so far{score}, {broken} broken"
            ))
            .on_hover_text("the lowest-energy state the sampler has reported, decoded and refereed; it is replaced by the results when the run ends");
    } else if let Some(v) = verdict {
        if v.is_empty() {
            ui.colored_label(GOOD, "✔ valid solution");
        } else {
            // Conflicts first, in red; what is merely unfinished is counted calmly.
            let (todo, conflicts): (Vec<_>, Vec<_>) = v.iter().partition(|v| puzzle.unfinished(v));
            let first = |v: &[&crate::puzzle::Violation], n: usize| {
                v.iter()
                    .take(n)
                    .map(|v| v.detail.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            // One line each, cut to the board's width (the whole text on hover): a long
            // verdict never runs under the results or the status bar.
            let one_line = |ui: &mut egui::Ui, text: egui::RichText| {
                ui.add(egui::Label::new(text).truncate());
            };
            if !conflicts.is_empty() {
                let text = format!("{} conflict(s): {}", conflicts.len(), first(&conflicts, 3));
                one_line(ui, egui::RichText::new(text).color(BAD));
            }
            if !todo.is_empty() {
                let text = format!(
                    "unfinished: {} still to do ({})",
                    todo.len(),
                    first(&todo, 2)
                );
                one_line(ui, egui::RichText::new(text).weak());
            }
        }
    }
}
