//! Commands on puzzles: `solve`, `encode`, `check`, `render`, `generate`. None of them
//! names a puzzle kind: everything goes through `AnyPuzzle` and `Kind`.

use std::path::Path;

use serde_json::json;

use super::args::{
    CheckArgs, EncodeArgs, GenerateArgs, RenderArgs, SolveArgs, build_sampler, load, pick, threads,
    weights_for,
};
use super::output::{
    Output, check_output, check_outputs, control_with_progress, design_json, long_run_note,
    numbered, print_json, print_outcome,
};
use super::{Failure, RANDOM_QUBO_PARAMS, usage};
use crate::outcome::target_energy;
use crate::puzzle::{
    AnyPuzzle, AnySolution, Kind, LoadedPuzzle, PuzzleError, REFERENCE_NODE_BUDGET, SolutionCount,
    refuse_conflicts,
};
use crate::qubo::Weights;
use crate::qubo::formats::write_model;
use crate::render::image::export_with;
use crate::samplers::Task;
use crate::solve::{ProbabilityMethod, SolveOutcome};

/// `solve PUZZLE`: encode, sample, decode and referee every puzzle of a file.
pub(super) fn solve(a: SolveArgs) -> Result<i32, Failure> {
    let input = a.puzzle.puzzle.as_path();
    let outputs: Vec<(&str, &Path, Output)> = [
        ("--render", &a.render, Output::Image),
        ("--histogram", &a.histogram, Output::Image),
        ("--save-samples", &a.save_samples, Output::Samples),
    ]
    .into_iter()
    .filter_map(|(flag, out, what)| out.as_deref().map(|p| (flag, p, what)))
    .collect();
    // The names alone first (no reading), then every file really written once the puzzles
    // are counted: NAME-K per puzzle of a multi-puzzle file.
    check_outputs(&outputs, &[input], None)?;
    // Picture sizes are checked before anything is read or sampled.
    a.pictures.image.export_options().map_err(usage)?;
    let mut puzzles = load(&a.puzzle)?;
    let first_index = match a.index {
        Some(k) => {
            puzzles = vec![pick(puzzles, k, &a.puzzle.puzzle)?];
            k
        }
        None => 1,
    };
    if puzzles.len() > 1 {
        check_outputs(
            &outputs,
            &[input],
            Some(first_index..=first_index + puzzles.len() - 1),
        )?;
    }
    // Contradictory givens are an error before anything is sampled.
    for p in &puzzles {
        refuse_conflicts(&p.puzzle, &p.origin)?;
    }
    // So are pictures the chosen scale cannot make (their sizes are known now): a PNG of
    // 144000×92000 pixels was refused only after the sampling.
    let picture_size = a.pictures.image.export_options().map_err(usage)?;
    for p in &puzzles {
        let pictures = [
            (&a.render, "--render", p.puzzle.draw(None)),
            (
                &a.histogram,
                "--histogram",
                crate::render::chart::BarChart::default().drawing(),
            ),
        ];
        for (out, flag, drawing) in pictures {
            if let Some(out) = out {
                crate::render::image::check_export(&drawing, out, &picture_size)
                    .map_err(|e| usage(format!("{flag} {}: {e}", out.display())))?;
            }
        }
    }
    if let Some(method) = a.method {
        for p in &puzzles {
            if !p.puzzle.kind().has_probabilities() {
                return Err(usage(format!(
                    "--method {}: {} puzzles have no per-cell probabilities",
                    format!("{method:?}").to_lowercase(),
                    p.puzzle.kind()
                )));
            }
        }
        if method == ProbabilityMethod::Exact {
            // Nothing is sampled: a sampler named here would be silently ignored.
            if a.sampler.sampler != crate::samplers::AUTO {
                return Err(usage(format!(
                    "--sampler {}: --method exact samples nothing (use --method sample or both)",
                    a.sampler.sampler
                )));
            }
            return exact_probabilities_only(&a, &puzzles, first_index);
        }
    }
    let threads = threads(&a.sampler)?;
    let many = puzzles.len() > 1;
    let mut results: Vec<SolvedPuzzle> = Vec::new();
    // A puzzle that fails (encoding, sampling, an output file) is reported with its number; the
    // others still run and their results are still printed.
    let mut failures: Vec<(usize, String)> = Vec::new();
    for (offset, loaded) in puzzles.iter().enumerate() {
        let number = first_index + offset;
        match solve_one(&a, loaded, number, many, threads) {
            Ok((outcome, design, output_errors)) => {
                if !a.json {
                    print_outcome(number, &outcome);
                }
                for e in &output_errors {
                    eprintln!("error: puzzle {number}: {e}");
                }
                results.push((number, outcome, design, output_errors));
            }
            // A usage error applies to every puzzle, and one puzzle has no others to save.
            Err(f) if f.code == 2 || !many => return Err(f),
            Err(f) => {
                eprintln!("error: puzzle {number}: {}", f.message);
                failures.push((number, f.message));
            }
        }
    }
    if a.json {
        print_results_json(&results, &failures, many)?;
    }
    let files_failed = results.iter().any(|r| !r.3.is_empty());
    Ok(if failures.is_empty() && !files_failed {
        0
    } else {
        1
    })
}

/// `solve --method exact`: the exact per-cell probabilities of every puzzle, no sampling.
fn exact_probabilities_only(
    a: &SolveArgs,
    puzzles: &[LoadedPuzzle],
    first_index: usize,
) -> Result<i32, Failure> {
    let mut objects = Vec::new();
    for (offset, loaded) in puzzles.iter().enumerate() {
        let number = first_index + offset;
        let t = std::time::Instant::now();
        let budget = loaded.puzzle.kind().probability_budget();
        let exact = match loaded.puzzle.exact_probabilities(budget) {
            Some(Ok(p)) => p,
            Some(Err(e)) => {
                return Err(PuzzleError::Invalid(format!("{}: {e}", loaded.origin)).into());
            }
            None => continue,
        };
        let exact_s = t.elapsed().as_secs_f64();
        if let Some(out) = &a.render {
            let out = if puzzles.len() > 1 {
                numbered(out, number)
            } else {
                out.clone()
            };
            export_with(
                &loaded.puzzle.draw_probabilities(None, &exact),
                &out,
                &a.pictures.image.export_options().map_err(usage)?,
            )?;
        }
        if a.json {
            objects.push(json!({
                "puzzle": number,
                "kind": loaded.puzzle.kind().name(),
                "description": loaded.puzzle.describe(),
                "method": "exact",
                "probabilities": exact.rows(),
                "timing": {"exact_s": exact_s},
            }));
        } else {
            println!(
                "puzzle {number}: {} — exact probabilities in {:.4} s (%):",
                loaded.puzzle.describe(),
                exact_s
            );
            super::output::print_probability_rows(&exact.rows());
        }
    }
    if a.json {
        match objects.len() {
            1 => print_json(&objects[0])?,
            _ => print_json(&json!(objects))?,
        }
    }
    Ok(0)
}

/// One puzzle of `solve`: encode, sample, evaluate, write its picture and samples.
fn solve_one(
    a: &SolveArgs,
    loaded: &LoadedPuzzle,
    number: usize,
    many: bool,
    threads: Option<usize>,
) -> Result<(SolveOutcome, Option<serde_json::Value>, Vec<String>), Failure> {
    let puzzle = &loaded.puzzle;
    let options = &a.encoding.options(puzzle.kind());
    {
        let t0 = std::time::Instant::now();
        let encoding = puzzle.encode(options)?;
        let encode_s = t0.elapsed().as_secs_f64();
        // The reference first: whether a valid solution's energy is known decides `auto`.
        // With --json the design facts are reported too: their search is the reference (one
        // search, not two), unless it gave up, when the reference searches on its own as ever.
        let facts = a.json.then(|| puzzle.design_facts(REFERENCE_NODE_BUDGET));
        let reference = match facts.as_ref().map(crate::puzzle::DesignFacts::reference) {
            Some(
                r @ (crate::puzzle::Reference::Solved(_) | crate::puzzle::Reference::NoSolution),
            ) => r,
            _ => puzzle.solve_classically(REFERENCE_NODE_BUDGET),
        };
        let (sampler, reason) = build_sampler(
            &a.sampler,
            Task {
                num_variables: encoding.num_variables(),
                has_target: a.sampler.target_energy.is_some()
                    || target_energy(puzzle, &encoding, &Weights::new(), &reference).is_some(),
                stored: encoding.unstored().is_none(),
                marginals: puzzle.kind().has_probabilities(),
            },
        )?;
        let weights = weights_for(&encoding, "--weight", &a.encoding.weights)?;
        // Said before the wait: a target no state reaches keeps the run to its time limit.
        if let Some(t) = a.sampler.target_energy
            && encoding.unstored().is_none()
            && let Some(why) = encoding
                .qubo(&weights)
                .ok()
                .and_then(|q| crate::solve::target_out_of_reach(&q, t))
        {
            eprintln!("warning: puzzle {number}: {why}");
        }
        let note = long_run_note(sampler.as_ref(), 1, encoding.num_variables());
        let (control, bar) = control_with_progress(threads, &format!("puzzle {number}"), note);
        let control = control
            .with_target_energy(a.sampler.target_energy)
            .ending_at_first_target(!a.all_reads);
        // With every read running to its end, the first valid solution is said at once.
        let started = std::time::Instant::now();
        let say_first_valid = |solution: &AnySolution| {
            let at_s = started.elapsed().as_secs_f64();
            if a.json {
                // A progress line on stderr: stdout stays one JSON document.
                eprintln!(
                    "{}",
                    json!({
                        "event": "first_valid",
                        "puzzle": number,
                        "after_s": at_s,
                        "solution": puzzle.solution_to_json(solution),
                    })
                );
            } else {
                let line = format!(
                    "puzzle {number}: first valid solution after {at_s:.2} s (the other reads go on): {}",
                    puzzle.solution_to_string(solution)
                );
                match &bar {
                    Some(b) => b.suspend(|| println!("{line}")),
                    None => println!("{line}"),
                }
            }
        };
        let (mut outcome, encoding) = crate::solve::solve_with_cuts(
            puzzle,
            crate::solve::FirstEncoding {
                options,
                encoding,
                encode_s,
            },
            &reference,
            &weights,
            crate::solve::Sampling {
                sampler: sampler.as_ref(),
                control: &control,
                on_first_valid: a
                    .all_reads
                    .then_some(&say_first_valid as crate::solve::OnFirstValid),
            },
            crate::solve::CutRounds {
                max_rounds: a.cut_rounds as usize,
                repair: !a.no_repair,
                ..Default::default()
            },
        )?;
        outcome.sampler_choice = reason;
        outcome.add_probabilities(
            puzzle,
            a.method.unwrap_or_default(),
            puzzle.kind().probability_budget(),
        );
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let output_errors = write_solve_outputs(a, puzzle, &outcome, &encoding, (number, many))?;
        let design = facts.map(|f| design_json(puzzle, &f));
        Ok((outcome, design, output_errors))
    }
}

/// The files `solve` was asked for beside its report (the picture, the histogram, the
/// samples; numbered per puzzle when the file holds `many`): what could not be written, in
/// words — the sampled result is kept either way.
fn write_solve_outputs(
    a: &SolveArgs,
    puzzle: &AnyPuzzle,
    outcome: &SolveOutcome,
    encoding: &crate::qubo::Encoding,
    (number, many): (usize, bool),
) -> Result<Vec<String>, Failure> {
    let path_for = |out: &Path| {
        if many {
            numbered(out, number)
        } else {
            out.to_path_buf()
        }
    };
    // A file that cannot be written is reported; the sampled result is kept either way.
    let mut output_errors = Vec::new();
    let picture_size = a.pictures.image.export_options().map_err(usage)?;
    if let Some(out) = &a.render {
        let solution = outcome.best.as_ref().and_then(|b| b.decoded.as_ref());
        if let Err(e) = export_with(&puzzle.draw(solution), &path_for(out), &picture_size) {
            output_errors.push(e.to_string());
        }
    }
    if let Some(out) = &a.histogram {
        let chart = a
            .pictures
            .chart(outcome.outcome.histogram_chart(&puzzle.describe()));
        if let Err(e) = export_with(&chart, &path_for(out), &picture_size) {
            output_errors.push(e.to_string());
        }
    }
    if let Some(out) = &a.save_samples {
        let labels: Vec<String> = encoding.labels().iter().map(|l| l.to_string()).collect();
        if let Err(e) = outcome.outcome.save_samples(&path_for(out), Some(&labels)) {
            output_errors.push(e.to_string());
        }
    }
    Ok(output_errors)
}

/// `solve --json`: one object, or with several puzzles a summary, the results and the failures.
/// One puzzle's result: its number, outcome, design facts (JSON) and the output files that
/// could not be written.
type SolvedPuzzle = (usize, SolveOutcome, Option<serde_json::Value>, Vec<String>);

fn print_results_json(
    results: &[SolvedPuzzle],
    failures: &[(usize, String)],
    many: bool,
) -> Result<(), Failure> {
    let objects: Vec<serde_json::Value> = results
        .iter()
        .map(|(k, o, design, output_errors)| {
            let mut v = serde_json::to_value(o).unwrap_or_default();
            if let Some(obj) = v.as_object_mut() {
                obj.insert("puzzle".into(), json!(k));
                obj.insert("design".into(), design.clone().unwrap_or_default());
                if !output_errors.is_empty() {
                    obj.insert("output_errors".into(), json!(output_errors));
                }
            }
            v
        })
        .collect();
    let failures_json: Vec<serde_json::Value> = failures
        .iter()
        .map(|(k, e)| json!({"puzzle": k, "error": e}))
        .collect();
    if !many {
        return match objects.into_iter().next() {
            Some(o) => print_json(&o),
            None => print_json(&json!({"failures": failures_json})),
        };
    }
    let solved = results
        .iter()
        .filter(|(_, o, _, _)| o.best.as_ref().is_some_and(|b| b.valid))
        .count();
    let n = results.len().max(1) as f64;
    // The ground fraction is unknown where the ground energy is: averaged over the known ones.
    let grounds: Vec<f64> = results
        .iter()
        .filter_map(|(_, o, _, _)| o.ground_fraction)
        .collect();
    let mean_ground =
        (!grounds.is_empty()).then(|| grounds.iter().sum::<f64>() / grounds.len() as f64);
    print_json(&json!({
        "summary": {
            "puzzles": results.len() + failures.len(),
            "solved": solved,
            "failed": failures.len(),
            "output_errors": results.iter().map(|r| r.3.len()).sum::<usize>(),
            "mean_success_fraction": results.iter().map(|(_, o, _, _)| o.success_fraction).sum::<f64>() / n,
            "mean_ground_fraction": mean_ground,
            "ground_fraction_known": grounds.len(),
            "total_sample_s": results.iter().map(|(_, o, _, _)| o.timing.sample_s).sum::<f64>(),
        },
        "results": objects,
        "failures": failures_json,
    }))
}

/// `encode PUZZLE -o MODEL`: write the weighted QUBO.
pub(super) fn encode(a: EncodeArgs) -> Result<i32, Failure> {
    check_output("-o", &a.output, Output::Model, &[&a.puzzle.puzzle])?;
    let puzzle = pick(load(&a.puzzle)?, a.index, &a.puzzle.puzzle)?.puzzle;
    let encoding = puzzle.encode(&a.encoding.options(puzzle.kind()))?;
    let weights = weights_for(&encoding, "--weight", &a.encoding.weights)?;
    for unmet in encoding.unmet_conditions(&weights)? {
        eprintln!("warning: {unmet}");
    }
    let qubo = match encoding.qubo(&weights) {
        // Too large to store for sampling, but the file is what was asked for: spelled out
        // from the structure (within the memory budget).
        Err(crate::qubo::QuboError::Unstored(_)) => {
            let model = puzzle.stored_model(&encoding, &weights)?;
            crate::qubo::Qubo::spell_out(&model, model.num_interactions() as u64)?
        }
        other => other?,
    };
    let labels: Vec<String> = encoding.labels().iter().map(|l| l.to_string()).collect();
    write_model(&a.output, &qubo, Some(&labels))?;
    eprintln!(
        "wrote {}: {}, {}, offset {}",
        a.output.display(),
        crate::io::count(qubo.num_variables(), "variable"),
        crate::io::count(qubo.num_interactions(), "interaction"),
        crate::io::number_text(qubo.offset())
    );
    Ok(0)
}

/// A solution given inline, or the first non-empty line of a file (the whole file when it is
/// JSON).
fn solution_text(arg: &str) -> Result<String, Failure> {
    let p = Path::new(arg);
    if p.is_file() {
        let text = crate::io::read_text_limited(p, 1 << 20)?;
        if text.trim().is_empty() {
            return Err(format!("{arg}: the file holds no solution").into());
        }
        return Ok(text);
    }
    if p.is_dir() {
        return Err(format!("{arg}: is a folder, not a solution file").into());
    }
    // Inline solutions are digits and dots, rows with spaces (Numberlink's `1 1 / 2 2`) or
    // JSON; one word with a folder or a file extension that names no file is a missing file.
    let path_like = !arg.contains(char::is_whitespace)
        && (arg.contains(std::path::MAIN_SEPARATOR)
            || p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                // No inline form has letters after its last dot (`1.3.`, `*.?`).
                !e.is_empty() && e.len() <= 5 && e.bytes().all(|b| b.is_ascii_alphabetic())
            }));
    if path_like && !arg.starts_with(['{', '[']) {
        return Err(
            format!("{arg}: no such file (a solution is given as a file or inline)").into(),
        );
    }
    Ok(arg.to_string())
}

/// A solution from `text`: the whole text in the kind's form (multi-line forms such as an ADC
/// answer), else its first non-empty line (a file of one-line solutions).
fn parse_solution_text(puzzle: &AnyPuzzle, text: &str) -> Result<AnySolution, PuzzleError> {
    puzzle.parse_solution(text).or_else(|whole| {
        let first = text.lines().map(str::trim).find(|l| !l.is_empty());
        match first {
            Some(line) if line != text.trim() => puzzle.parse_solution(line).map_err(|_| whole),
            _ => Err(whole),
        }
    })
}

/// `check PUZZLE [SOLUTION]`: referee a solution, or print the puzzle's design facts.
pub(super) fn check(a: CheckArgs) -> Result<i32, Failure> {
    let loaded = pick(load(&a.puzzle)?, a.index, &a.puzzle.puzzle)?;
    let puzzle = loaded.puzzle;
    let Some(solution) = &a.solution else {
        let facts = puzzle.design_facts(REFERENCE_NODE_BUDGET);
        let good = facts.conflicts.is_empty() && facts.solutions != SolutionCount::Zero;
        if !(a.tts_budget_s.is_finite() && (0.1..=86_400.0).contains(&a.tts_budget_s)) {
            return Err(usage(format!(
                "--tts-budget-s {}: seconds in 0.1 to 86400",
                crate::io::number_text(a.tts_budget_s)
            )));
        }
        let qubo = (a.tts && good)
            .then(|| crate::solve::qubo_difficulty(&puzzle, a.tts_budget_s))
            .transpose()?
            .map(|q| serde_json::to_value(q).unwrap_or_default());
        if a.json {
            let mut v = design_json(&puzzle, &facts);
            if let Some(obj) = v.as_object_mut() {
                obj.insert("description".into(), puzzle.describe().into());
                if let Some(q) = &qubo {
                    obj.insert("qubo_difficulty".into(), q.clone());
                }
            }
            print_json(&v)?;
        } else {
            println!("{}: {}", loaded.origin, puzzle.describe());
            println!("  {}", facts.summary());
            if let Some(q) = &qubo {
                println!(
                    "  QUBO path: TTS99 {} with {} at default weights ({})",
                    match (q["tts99_s"].as_f64(), q["stopped_at_budget"].as_bool()) {
                        (Some(t), Some(true)) => format!(
                            "≈ {t:.3e} s (stopped at {} s: from the reads finished)",
                            a.tts_budget_s
                        ),
                        (Some(t), _) => format!("{t:.3e} s"),
                        (None, Some(true)) => {
                            format!("above {} s (stopped there)", a.tts_budget_s)
                        }
                        (None, _) => "— (no valid read)".into(),
                    },
                    q["sampler"].as_str().unwrap_or("?"),
                    match q["num_reads"].as_u64().unwrap_or(0) {
                        0 => "no read finished".to_string(),
                        n => format!(
                            "{:.0} % of {} valid",
                            100.0 * q["success_fraction"].as_f64().unwrap_or(0.0),
                            crate::io::count(n as usize, "read")
                        ),
                    }
                );
            }
            for c in facts.conflicts.iter().skip(1) {
                println!("  also: {}", c.detail);
            }
            if let Some(s) = &facts.second_solution {
                println!("  a second solution: {}", puzzle.solution_to_string(s));
            }
        }
        return Ok(if good { 0 } else { 1 });
    };
    let solution = parse_solution_text(&puzzle, &solution_text(solution)?)?;
    let violations = puzzle.check(&solution);
    // An invalid answer (a notebook's, an annealer's) measured against the reference's: a near
    // miss or another basin.
    // (Kinds that do not measure it, seen by comparing the answer with itself, skip the search.)
    let agreement = if violations.is_empty() || puzzle.agreement(&solution, &solution).is_none() {
        None
    } else {
        puzzle
            .solve_classically(REFERENCE_NODE_BUDGET)
            .solution()
            .and_then(|known| puzzle.agreement(&solution, known))
    };
    if a.json {
        print_json(&json!({
            "valid": violations.is_empty(),
            "violations": violations,
            "reference_agreement": agreement,
        }))?;
    } else if violations.is_empty() {
        println!("valid");
    } else {
        for v in &violations {
            println!("{}: {}", v.constraint, v.detail);
        }
        if let Some(a) = &agreement {
            println!("{}", crate::solve::agreement_sentence(a, false));
        }
    }
    Ok(if violations.is_empty() { 0 } else { 1 })
}

/// `render PUZZLE -o IMAGE`: the puzzle, the puzzle solved, or the answer key, at any size.
pub(super) fn render(a: RenderArgs) -> Result<i32, Failure> {
    use crate::puzzle::picture::{PictureOptions, Show};
    check_output("-o", &a.output, Output::Image, &[&a.puzzle.puzzle])?;
    let size = a.image.export_options().map_err(usage)?;
    let puzzle = pick(load(&a.puzzle)?, a.index, &a.puzzle.puzzle)?.puzzle;
    let given = match &a.solution {
        Some(s) => Some(parse_solution_text(&puzzle, &solution_text(s)?)?),
        None => None,
    };
    let show = a.show.unwrap_or(if given.is_some() {
        Show::Solved
    } else {
        Show::Puzzle
    });
    // A picture of the solution without one given: the exact solver finds it, in its budget.
    let solution = match (given, show) {
        (Some(s), _) => Some(s),
        (None, Show::Puzzle) => None,
        (None, _) => {
            let why = match puzzle.solve_classically(crate::puzzle::REFERENCE_NODE_BUDGET) {
                crate::puzzle::Reference::Solved(s) => Ok(s),
                crate::puzzle::Reference::NoSolution => Err("the puzzle has no solution"),
                crate::puzzle::Reference::GaveUp { .. } => {
                    Err("the exact solver's budget ran out before it found one")
                }
            };
            Some(why.map_err(|why| {
                Failure::from(format!(
                    "{}: --show {} needs a solution: none was given (--solution) and {why}",
                    a.puzzle.puzzle.display(),
                    show.name()
                ))
            })?)
        }
    };
    let options = PictureOptions {
        show,
        piece_numbers: !a.no_piece_numbers,
        probabilities: !a.no_probabilities,
        transparent: a.transparent,
        title: a.title,
    };
    // Kinds that answer with probabilities are drawn with their exact ones.
    let probabilities = if options.probabilities && show != Show::Solution {
        match puzzle.exact_probabilities(puzzle.kind().probability_budget()) {
            Some(Ok(p)) => Some(p),
            Some(Err(e)) => {
                eprintln!("warning: drawn without probabilities: {e}");
                None
            }
            None => None,
        }
    } else {
        None
    };
    let name = a
        .puzzle
        .puzzle
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let drawing = puzzle
        .picture(solution.as_ref(), probabilities.as_ref(), &options, &name)
        .map_err(Failure::from)?;
    export_with(&drawing, &a.output, &size)?;
    let (w, h) = size.size.pixels(&drawing);
    eprintln!(
        "wrote {} ({w}×{h} px{})",
        a.output.display(),
        size.dpi.map_or(String::new(), |d| format!(", {d} dpi"))
    );
    Ok(0)
}

/// While it lives, prints a generator's tries to stderr once a second (on a terminal only);
/// dropping it stops the printing.
struct TriesShown(Option<(std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>)>);

impl Drop for TriesShown {
    fn drop(&mut self) {
        // The line is cleared before anything else is printed.
        if let Some((stop, printer)) = self.0.take() {
            let _ = stop.send(());
            let _ = printer.join();
        }
    }
}

fn tries_on_terminal(control: &crate::puzzle::GenerateControl) -> TriesShown {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return TriesShown(None);
    }
    let (stop, wait) = std::sync::mpsc::channel::<()>();
    let control = control.clone();
    let printer = std::thread::spawn(move || {
        while wait
            .recv_timeout(std::time::Duration::from_secs(1))
            .is_err_and(|e| e == std::sync::mpsc::RecvTimeoutError::Timeout)
        {
            let (tried, of) = control.progress();
            if of > 0 {
                eprint!("\rgenerating: try {tried} of at most {of}   ");
            }
        }
        eprint!("\r\x1b[2K");
    });
    TriesShown(Some((stop, printer)))
}

/// `A:B` as two numbers.
fn parse_range(text: &str) -> Option<[f64; 2]> {
    let (a, b) = text.split_once(':')?;
    Some([a.trim().parse().ok()?, b.trim().parse().ok()?])
}

/// `generate KIND [--PARAM VALUE]… [-o FILE]`.
pub(super) fn generate(a: GenerateArgs) -> Result<i32, Failure> {
    if a.kind == "random-qubo" {
        let path = a
            .output
            .ok_or_else(|| usage("random-qubo needs -o MODEL.(qubo|coo|json|bqm)"))?;
        check_output("-o", &path, Output::Model, &[])?;
        let given = a.params.0.values_for("random-qubo", RANDOM_QUBO_PARAMS)?;
        let v = crate::params::validate(RANDOM_QUBO_PARAMS, &given)?;
        let int = |name: &str| v[name].as_u64().unwrap_or(0);
        let q =
            crate::qubo::random_qubo(int("size") as usize, int("degree") as usize, int("seed"))?;
        write_model(&path, &q, None)?;
        eprintln!(
            "wrote {}: {}, {}",
            path.display(),
            crate::io::count(q.num_variables(), "variable"),
            crate::io::count(q.num_interactions(), "interaction")
        );
        return Ok(0);
    }
    let kind: Kind = a.kind.parse().map_err(|_: PuzzleError| {
        usage(format!(
            "unknown kind '{}' (known: {}, random-qubo)",
            crate::io::printable(&crate::params::shown_within(&a.kind, 40)),
            crate::puzzle::kind_names()
        ))
    })?;
    if let Some(path) = &a.output {
        check_output("-o", path, Output::Text, &[])?;
    }
    let values = a
        .params
        .0
        .values_for(kind.name(), kind.generator_params())?;
    // A generator that searches (a band, no guess, a TTS99 range) says how far it got on a
    // terminal, once a second.
    let control = crate::puzzle::GenerateControl::new();
    let _progress = tries_on_terminal(&control);
    let (puzzle, comment) = match &a.target_tts99 {
        None => (kind.generate_with(&values, &control)?, None),
        Some(range) => {
            let range = parse_range(range)
                .ok_or_else(|| usage(format!("--target-tts99 {range}: expected A:B seconds")))?;
            let found = crate::solve::generate_for_tts99(kind, &values, range, &control)
                .map_err(|e| usage(format!("--target-tts99: {e}")))?;
            eprintln!(
                "kept seed {} after {} instance(s): {}",
                found.seed,
                found.tries,
                found.comment(range)
            );
            let comment = found.comment(range);
            (found.puzzle, Some(comment))
        }
    };
    let text = match comment {
        Some(c) => format!("# {c}\n{}", puzzle.to_text()),
        None => puzzle.to_text(),
    };
    match &a.output {
        Some(path) => {
            crate::io::write_atomic(path, format!("{text}\n").as_bytes())?;
            eprintln!("wrote {}: {}", path.display(), puzzle.describe());
        }
        None => println!("{text}"),
    }
    Ok(0)
}
