//! Commands on puzzles: `solve`, `encode`, `check`, `render`, `generate`, `sweep`. None of them
//! names a puzzle kind: everything goes through `AnyPuzzle` and `Kind`.

use std::path::Path;

use serde_json::json;

use super::args::{
    CheckArgs, EncodeArgs, GenerateArgs, PlayArgs, PlayStrategy, RenderArgs, SolveArgs, SweepArgs,
    TuneArgs, build_sampler, load, pick, threads, weights_for,
};
use super::output::{
    Output, check_output, control_with_progress, design_json, numbered, print_json, print_outcome,
};
use super::{Failure, RANDOM_QUBO_PARAMS, usage};
use crate::puzzle::{
    AnyPuzzle, AnySolution, EncodeOptions, Kind, LoadedPuzzle, PuzzleError, REFERENCE_NODE_BUDGET,
    SolutionCount, refuse_conflicts,
};
use crate::qubo::formats::write_model;
use crate::render::PX_PER_UNIT;
use crate::render::image::export;
use crate::samplers::Task;
use crate::solve::{ProbabilityMethod, Problem, SolveOutcome};

/// `solve PUZZLE`: encode, sample, decode and referee every puzzle of a file.
pub(super) fn solve(a: SolveArgs) -> Result<i32, Failure> {
    let input = a.puzzle.puzzle.as_path();
    if let Some(out) = &a.render {
        check_output("--render", out, Output::Image, &[input])?;
    }
    if let Some(out) = &a.histogram {
        check_output("--histogram", out, Output::Image, &[input])?;
    }
    if let Some(out) = &a.save_samples {
        check_output("--save-samples", out, Output::Samples, &[input])?;
    }
    let mut puzzles = load(&a.puzzle)?;
    let first_index = match a.index {
        Some(k) => {
            puzzles = vec![pick(puzzles, k, &a.puzzle.puzzle)?];
            k
        }
        None => 1,
    };
    // Contradictory givens are an error before anything is sampled.
    for p in &puzzles {
        refuse_conflicts(&p.puzzle, &p.origin)?;
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
            return exact_probabilities_only(&a, &puzzles, first_index);
        }
    }
    let threads = threads(&a.sampler)?;
    let many = puzzles.len() > 1;
    let mut results: Vec<(usize, SolveOutcome, Option<serde_json::Value>)> = Vec::new();
    // A puzzle that fails (encoding, sampling, an output file) is reported with its number; the
    // others still run and their results are still printed.
    let mut failures: Vec<(usize, String)> = Vec::new();
    for (offset, loaded) in puzzles.iter().enumerate() {
        let number = first_index + offset;
        match solve_one(&a, loaded, number, many, threads) {
            Ok((outcome, design)) => {
                if !a.json {
                    print_outcome(number, &outcome);
                }
                results.push((number, outcome, design));
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
    Ok(if failures.is_empty() { 0 } else { 1 })
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
            export(
                &loaded.puzzle.draw_probabilities(None, &exact),
                &out,
                PX_PER_UNIT,
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
) -> Result<(SolveOutcome, Option<serde_json::Value>), Failure> {
    let puzzle = &loaded.puzzle;
    let options = &a.encoding.options(puzzle.kind());
    {
        let t0 = std::time::Instant::now();
        let encoding = puzzle.encode(options)?;
        let encode_s = t0.elapsed().as_secs_f64();
        // The reference first: whether a valid solution's energy is known decides `auto`.
        let reference = puzzle.solve_classically(REFERENCE_NODE_BUDGET);
        let (sampler, reason) = build_sampler(
            &a.sampler,
            Task {
                num_variables: encoding.num_variables(),
                has_target: reference.solution().is_some() || a.sampler.target_energy.is_some(),
                stored: encoding.unstored().is_none(),
                marginals: puzzle.kind().has_probabilities(),
            },
        )?;
        let weights = weights_for(&encoding, "--weight", &a.encoding.weights)?;
        let (control, bar) = control_with_progress(threads, &format!("puzzle {number}"));
        let control = control.with_target_energy(a.sampler.target_energy);
        let (mut outcome, encoding) = crate::solve::solve_with_cuts(
            puzzle,
            crate::solve::FirstEncoding {
                options,
                encoding,
                encode_s,
            },
            &reference,
            &weights,
            sampler.as_ref(),
            &control,
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
        let path_for = |out: &Path| {
            if many {
                numbered(out, number)
            } else {
                out.to_path_buf()
            }
        };
        if let Some(out) = &a.render {
            let solution = outcome.best.as_ref().and_then(|b| b.decoded.as_ref());
            export(&puzzle.draw(solution), &path_for(out), PX_PER_UNIT)?;
        }
        if let Some(out) = &a.histogram {
            let chart = outcome.outcome.histogram_chart(&puzzle.describe());
            export(&chart, &path_for(out), 2.0)?;
        }
        if let Some(out) = &a.save_samples {
            let labels: Vec<String> = encoding.labels().iter().map(|l| l.to_string()).collect();
            outcome
                .outcome
                .samples
                .save(&path_for(out), Some(&labels))?;
        }
        let design = a
            .json
            .then(|| design_json(puzzle, &puzzle.design_facts(REFERENCE_NODE_BUDGET)));
        Ok((outcome, design))
    }
}

/// `solve --json`: one object, or with several puzzles a summary, the results and the failures.
fn print_results_json(
    results: &[(usize, SolveOutcome, Option<serde_json::Value>)],
    failures: &[(usize, String)],
    many: bool,
) -> Result<(), Failure> {
    let objects: Vec<serde_json::Value> = results
        .iter()
        .map(|(k, o, design)| {
            let mut v = serde_json::to_value(o).unwrap_or_default();
            if let Some(obj) = v.as_object_mut() {
                obj.insert("puzzle".into(), json!(k));
                obj.insert("design".into(), design.clone().unwrap_or_default());
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
        .filter(|(_, o, _)| o.best.as_ref().is_some_and(|b| b.valid))
        .count();
    let n = results.len().max(1) as f64;
    print_json(&json!({
        "summary": {
            "puzzles": results.len() + failures.len(),
            "solved": solved,
            "failed": failures.len(),
            "mean_success_fraction": results.iter().map(|(_, o, _)| o.success_fraction).sum::<f64>() / n,
            "mean_ground_fraction": results.iter().filter_map(|(_, o, _)| o.ground_fraction).sum::<f64>() / n,
            "total_sample_s": results.iter().map(|(_, o, _)| o.timing.sample_s).sum::<f64>(),
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
    let qubo = encoding.qubo(&weights)?;
    let labels: Vec<String> = encoding.labels().iter().map(|l| l.to_string()).collect();
    write_model(&a.output, &qubo, Some(&labels))?;
    eprintln!(
        "wrote {}: {} variables, {} interactions, offset {}",
        a.output.display(),
        qubo.num_variables(),
        qubo.num_interactions(),
        qubo.offset()
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
                a.tts_budget_s
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
                    "  QUBO path: TTS99 {} with {} at default weights ({:.0} % of {} reads valid)",
                    match (q["tts99_s"].as_f64(), q["stopped_at_budget"].as_bool()) {
                        (Some(t), _) => format!("{t:.3e} s"),
                        (None, Some(true)) => {
                            format!("above {} s (stopped there)", a.tts_budget_s)
                        }
                        (None, _) => "— (no valid read)".into(),
                    },
                    q["sampler"].as_str().unwrap_or("?"),
                    100.0 * q["success_fraction"].as_f64().unwrap_or(0.0),
                    q["num_reads"]
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
    if a.json {
        print_json(&json!({"valid": violations.is_empty(), "violations": violations}))?;
    } else if violations.is_empty() {
        println!("valid");
    } else {
        for v in &violations {
            println!("{}: {}", v.constraint, v.detail);
        }
    }
    Ok(if violations.is_empty() { 0 } else { 1 })
}

/// `render PUZZLE -o IMAGE`.
pub(super) fn render(a: RenderArgs) -> Result<i32, Failure> {
    check_output("-o", &a.output, Output::Image, &[&a.puzzle.puzzle])?;
    let puzzle = pick(load(&a.puzzle)?, a.index, &a.puzzle.puzzle)?.puzzle;
    let solution = match &a.solution {
        Some(s) => Some(parse_solution_text(&puzzle, &solution_text(s)?)?),
        None => None,
    };
    // Kinds that answer with probabilities are drawn with their exact ones.
    let budget = puzzle.kind().probability_budget();
    let drawing = match puzzle.exact_probabilities(budget) {
        Some(Ok(p)) => puzzle.draw_probabilities(solution.as_ref(), &p),
        Some(Err(e)) => {
            eprintln!("warning: drawn without probabilities: {e}");
            puzzle.draw(solution.as_ref())
        }
        None => puzzle.draw(solution.as_ref()),
    };
    export(&drawing, &a.output, PX_PER_UNIT)?;
    eprintln!("wrote {}", a.output.display());
    Ok(0)
}

/// `generate KIND [--PARAM VALUE]… [-o FILE]`.
pub(super) fn generate(a: GenerateArgs) -> Result<i32, Failure> {
    if a.kind == "random-qubo" {
        let path = a
            .output
            .ok_or_else(|| usage("random-qubo needs -o MODEL.(qubo|coo|json)"))?;
        check_output("-o", &path, Output::Model, &[])?;
        let given = a.params.0.values_for("random-qubo", RANDOM_QUBO_PARAMS)?;
        let v = crate::params::validate(RANDOM_QUBO_PARAMS, &given)?;
        let int = |name: &str| v[name].as_u64().unwrap_or(0);
        let q =
            crate::qubo::random_qubo(int("size") as usize, int("degree") as usize, int("seed"))?;
        write_model(&path, &q, None)?;
        eprintln!(
            "wrote {}: {} variables, {} interactions",
            path.display(),
            q.num_variables(),
            q.num_interactions()
        );
        return Ok(0);
    }
    let kind: Kind = a
        .kind
        .parse()
        .map_err(|e: PuzzleError| usage(e.to_string()))?;
    if let Some(path) = &a.output {
        check_output("-o", path, Output::Text, &[])?;
    }
    let values = a
        .params
        .0
        .values_for(kind.name(), kind.generator_params())?;
    let puzzle = kind.generate(&values)?;
    let text = puzzle.to_text();
    match &a.output {
        Some(path) => {
            crate::io::write_atomic(path, format!("{text}\n").as_bytes())?;
            eprintln!("wrote {}: {}", path.display(), puzzle.describe());
        }
        None => println!("{text}"),
    }
    Ok(0)
}

/// `play --games N --strategy exact|sample`: Minesweeper games dealt from seeds deal_seed,
/// deal_seed + 1, …,
/// played in parallel (exact) or one after another with the sampler's threads (sample).
pub(super) fn play(a: PlayArgs) -> Result<i32, Failure> {
    use crate::autoplay::{GameRecord, Strategy, play_game};
    use rayon::prelude::*;
    let (w, h, m) = (a.width as usize, a.height as usize, a.mines as usize);
    if m >= w * h {
        return Err(usage(format!(
            "--mines {m}: a {w}×{h} board holds at most {} mines",
            w * h - 1
        )));
    }
    let t = std::time::Instant::now();
    let games: Vec<u64> = (0..a.games as u64)
        .map(|k| a.deal_seed.wrapping_add(k))
        .collect();
    let (records, sampler_name): (Vec<GameRecord>, String) = match a.strategy {
        PlayStrategy::Exact => {
            let control = crate::sampler::RunControl::new().with_threads(threads(&a.sampler)?);
            let records = control.install(games.len(), || {
                games
                    .par_iter()
                    .map(|&s| play_game(w, h, m, s, &Strategy::Exact))
                    .collect::<Result<Vec<_>, String>>()
            });
            (records.map_err(PuzzleError::Invalid)?, "exact".into())
        }
        PlayStrategy::Sample => {
            let mut args = a.sampler.clone();
            if args.sampler == crate::samplers::AUTO {
                args.sampler = "sa".into();
            }
            let task = Task {
                stored: true,
                marginals: true,
                ..Task::default()
            };
            let (sampler, _) = build_sampler(&args, task)?;
            let control = crate::sampler::RunControl::new().with_threads(threads(&args)?);
            let strategy = Strategy::Sampled {
                sampler: sampler.as_ref(),
                control: &control,
            };
            let records = games
                .iter()
                .map(|&s| play_game(w, h, m, s, &strategy))
                .collect::<Result<Vec<_>, String>>()
                .map_err(PuzzleError::Invalid)?;
            (records, sampler.name().to_string())
        }
    };
    let n = records.len() as f64;
    let wins = records.iter().filter(|r| r.won).count();
    let rate = wins as f64 / n;
    // Wilson's 95 % interval for the win rate.
    let z = 1.96f64;
    let centre = (rate + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (rate * (1.0 - rate) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    let mean = |f: &dyn Fn(&GameRecord) -> usize| records.iter().map(f).sum::<usize>() as f64 / n;
    let seconds = t.elapsed().as_secs_f64();
    let positions: usize = records.iter().map(|r| r.positions).sum();
    let probability_s: f64 = records.iter().map(|r| r.probability_s).sum();
    let max_probability_s = records
        .iter()
        .map(|r| r.max_probability_s)
        .fold(0.0, f64::max);
    if a.json {
        print_json(&json!({
            "board": {"width": w, "height": h, "mines": m},
            "strategy": format!("{:?}", a.strategy).to_lowercase(),
            "sampler": sampler_name,
            "games": records.len(),
            "wins": wins,
            "win_rate": rate,
            "win_rate_95": [centre - half, centre + half],
            "mean_moves": mean(&|r| r.moves),
            "mean_guesses": mean(&|r| r.guesses),
            "mean_opened_fraction": records.iter().map(|r| r.opened as f64 / (w * h - m) as f64).sum::<f64>() / n,
            "positions": positions,
            "mean_probability_ms": 1e3 * probability_s / positions.max(1) as f64,
            "max_probability_ms": 1e3 * max_probability_s,
            "seconds": seconds,
        }))?;
    } else {
        println!(
            "{w}×{h}, {m} mines, strategy {:?} ({sampler_name}): won {wins} of {} games ({:.1} %, 95 % {:.1}–{:.1} %), {:.1} guesses per game, {seconds:.1} s; probabilities of {positions} positions, mean {:.3} ms, max {:.3} ms",
            a.strategy,
            records.len(),
            100.0 * rate,
            100.0 * (centre - half),
            100.0 * (centre + half),
            mean(&|r| r.guesses),
            1e3 * probability_s / positions.max(1) as f64,
            1e3 * max_probability_s,
        );
    }
    Ok(0)
}

/// `sweep PUZZLE --weight NAME --from A --to B`.
/// What `sweep` and `tune` work on: the puzzle (its givens consistent), its encoding, the
/// weights given with --set, the classical reference, and the sampler.
struct Tuning {
    puzzle: AnyPuzzle,
    encoding: crate::qubo::Encoding,
    base: crate::qubo::Weights,
    reference: crate::puzzle::Reference<crate::puzzle::AnySolution>,
    sampler: Box<dyn crate::sampler::Sampler>,
    /// Why `auto` chose the sampler (printed once the flags are all checked).
    sampler_note: Option<String>,
}

fn prepare_tuning(
    puzzle_args: &super::args::PuzzleArgs,
    index: usize,
    presolve: &super::args::PresolveArgs,
    formulation: &Option<String>,
    set: &[String],
    sampler_args: &super::args::SamplerArgs,
) -> Result<Tuning, Failure> {
    let loaded = pick(load(puzzle_args)?, index, &puzzle_args.puzzle)?;
    refuse_conflicts(&loaded.puzzle, &loaded.origin)?;
    let puzzle = loaded.puzzle;
    let options = EncodeOptions {
        presolve: presolve.on_for(puzzle.kind()),
        formulation: formulation.clone(),
        ..Default::default()
    };
    let encoding = puzzle.encode(&options)?;
    let base = weights_for(&encoding, "--set", set)?;
    let reference = puzzle.solve_classically(REFERENCE_NODE_BUDGET);
    let (sampler, reason) = build_sampler(
        sampler_args,
        Task {
            num_variables: encoding.num_variables(),
            has_target: reference.solution().is_some() || sampler_args.target_energy.is_some(),
            stored: encoding.unstored().is_none(),
            marginals: puzzle.kind().has_probabilities(),
        },
    )?;
    Ok(Tuning {
        puzzle,
        encoding,
        base,
        reference,
        sampler_note: reason.map(|why| format!("sampler: {} ({why})", sampler.name())),
        sampler,
    })
}

fn check_repeats(repeats: usize) -> Result<(), Failure> {
    if (1..=crate::sweep::MAX_REPEATS).contains(&repeats) {
        Ok(())
    } else {
        Err(usage(format!(
            "--repeats {repeats}: a point takes 1 to {} repeats",
            crate::sweep::MAX_REPEATS
        )))
    }
}

pub(super) fn sweep(a: SweepArgs) -> Result<i32, Failure> {
    use crate::sweep::{Metric, SweepPoint};
    let input = a.puzzle.puzzle.as_path();
    for (flag, out) in [("--plot", &a.plot), ("--plot-broken", &a.plot_broken)] {
        if let Some(out) = out {
            check_output(flag, out, Output::Image, &[input])?;
        }
    }
    if let Some(out) = &a.csv {
        check_output("--csv", out, Output::Text, &[input])?;
    }
    let metric = Metric::parse(&a.metric).ok_or_else(|| {
        usage(format!(
            "--metric {}: one of {}",
            a.metric,
            Metric::ALL.map(Metric::name).join(", ")
        ))
    })?;
    check_repeats(a.repeats)?;
    let Tuning {
        puzzle,
        encoding,
        base,
        reference,
        sampler,
        sampler_note,
    } = prepare_tuning(
        &a.puzzle,
        a.index,
        &a.presolve,
        &a.formulation,
        &a.set,
        &a.sampler,
    )?;
    crate::sweep::check_sweepable(&encoding, &a.weight)
        .map_err(|e| usage(format!("--weight {}: {e}", a.weight)))?;
    let values = crate::sweep::values(a.from, a.to, a.steps).map_err(|e| {
        usage(format!(
            "--from {} --to {} --steps {}: {e}",
            a.from, a.to, a.steps
        ))
    })?;
    let values2 = match &a.weight2 {
        None => None,
        Some(w2) => {
            crate::sweep::check_sweepable(&encoding, w2)
                .map_err(|e| usage(format!("--weight2 {w2}: {e}")))?;
            let (Some(from2), Some(to2)) = (a.from2, a.to2) else {
                return Err(usage(format!("--weight2 {w2} needs --from2 and --to2")));
            };
            Some(crate::sweep::values(from2, to2, a.steps2).map_err(|e| {
                usage(format!(
                    "--from2 {from2} --to2 {to2} --steps2 {}: {e}",
                    a.steps2
                ))
            })?)
        }
    };
    if let Some(note) = sampler_note {
        eprintln!("{note}");
    }
    let (control, bar) = control_with_progress(threads(&a.sampler)?, "sweep");
    let control = control.with_target_energy(a.sampler.target_energy);
    let second = a.weight2.as_deref().zip(values2.as_deref());
    if !a.json {
        println!(
            "{:>10} {:>10} {:>22} {:>9} {:>11}  penalty too weak",
            a.weight,
            a.weight2.as_deref().unwrap_or(""),
            "valid [95 % interval]",
            "ground",
            "TTS99",
        );
    }
    let spec = crate::sweep::SweepSpec {
        problem: Problem {
            puzzle: &puzzle,
            encoding: &encoding,
            reference: &reference,
        },
        base: &base,
        weight: &a.weight,
        values: &values,
        second,
        repeats: a.repeats,
    };
    let points = crate::sweep::run(&spec, sampler.as_ref(), &control, |p: &SweepPoint| {
        if !a.json {
            println!(
                "{:>10.4} {:>10} {:>6.1}% [{:>5.1}, {:>5.1}] {:>9} {:>11}  {}",
                p.value,
                p.value2.map_or(String::new(), |v| format!("{v:.4}")),
                100.0 * p.success_fraction,
                100.0 * p.success_ci95[0],
                100.0 * p.success_ci95[1],
                p.ground_fraction
                    .map_or("—".into(), |g| format!("{:.1}%", 100.0 * g)),
                p.tts99_s.map_or("—".into(), |t| format!("{t:.3e} s")),
                match &p.witness {
                    Some(w) => format!(
                        "YES (E {} ≤ valid {})",
                        w.energy,
                        p.valid_energy.unwrap_or(f64::NAN)
                    ),
                    None => "no".into(),
                }
            );
        }
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let description = puzzle.describe();
    if let Some(out) = &a.plot {
        let d = crate::sweep::plot(
            &points,
            &a.weight,
            a.weight2.as_deref(),
            metric,
            &description,
        );
        export(&d, out, 2.0)?;
    }
    if let Some(out) = &a.plot_broken {
        export(
            &crate::sweep::plot_broken(&points, &a.weight, &description),
            out,
            2.0,
        )?;
    }
    if let Some(out) = &a.csv {
        crate::io::write_atomic(out, crate::sweep::to_csv(&points).as_bytes())?;
    }
    let best = crate::sweep::best_point(&points, metric);
    if a.json {
        print_json(&json!({
            "weight": a.weight,
            "weight2": a.weight2,
            "metric": metric.name(),
            "repeats": a.repeats,
            "description": description,
            "points": points,
            "best": best.map(|k| &points[k]),
        }))?;
    } else if let Some(k) = best {
        println!(
            "best by {}: {}",
            metric.name(),
            points[k]
                .weights
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Ok(0)
}

/// `tune`: suggest weights by a coordinate search on TTS99.
pub(super) fn tune(a: TuneArgs) -> Result<i32, Failure> {
    let input = a.puzzle.puzzle.as_path();
    if let Some(out) = &a.plot {
        check_output("--plot", out, Output::Image, &[input])?;
    }
    if !(a.budget.is_finite() && (0.0..=86_400.0).contains(&a.budget)) {
        return Err(usage(format!(
            "--budget {}: seconds in 0 to 86400",
            a.budget
        )));
    }
    check_repeats(a.repeats)?;
    let Tuning {
        puzzle,
        encoding,
        base,
        reference,
        sampler,
        sampler_note,
    } = prepare_tuning(
        &a.puzzle,
        a.index,
        &a.presolve,
        &a.formulation,
        &a.set,
        &a.sampler,
    )?;
    if let Some(note) = sampler_note {
        eprintln!("{note}");
    }
    let (control, bar) = control_with_progress(threads(&a.sampler)?, "tune");
    let control = control.with_target_energy(a.sampler.target_energy);
    // Four significant digits: the search moves by factors of √2 and finer, not by 1e-16.
    let short = |v: f64| format!("{}", format!("{v:.4e}").parse::<f64>().unwrap_or(v));
    let show = |w: &std::collections::BTreeMap<String, f64>| {
        w.iter()
            .map(|(n, v)| format!("{n}={}", short(*v)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let problem = Problem {
        puzzle: &puzzle,
        encoding: &encoding,
        reference: &reference,
    };
    let budget = std::time::Duration::from_secs_f64(a.budget);
    let found = crate::sweep::suggest(
        problem,
        &base,
        sampler.as_ref(),
        a.repeats,
        budget,
        &control,
        |p, moved| {
            if !a.json {
                println!(
                    "{} {:>6.1}% valid  TTS99 {:>11}{}  {}",
                    if moved { "→" } else { " " },
                    100.0 * p.success_fraction,
                    p.tts99_s.map_or("—".into(), |t| format!("{t:.3e} s")),
                    if p.penalty_too_weak {
                        "  penalty too weak"
                    } else {
                        ""
                    },
                    show(&p.weights)
                );
            }
        },
    )?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(out) = &a.plot {
        export(
            &crate::sweep::plot_suggestion(
                &found
                    .path
                    .iter()
                    .cloned()
                    .zip(found.accepted.iter().copied())
                    .collect::<Vec<_>>(),
                &found.stopped,
                &puzzle.describe(),
            ),
            out,
            2.0,
        )?;
    }
    if a.json {
        print_json(&json!({
            "description": puzzle.describe(),
            "weights": found.best.weights,
            "best": found.best,
            "path": found.path,
            "accepted": found.accepted,
            "stopped": found.stopped,
        }))?;
    } else {
        println!(
            "suggested ({}): {}",
            found.stopped,
            show(&found.best.weights)
        );
        println!(
            "use them: --weight {}",
            found
                .best
                .weights
                .iter()
                .map(|(n, v)| format!("{n}={}", short(*v)))
                .collect::<Vec<_>>()
                .join(" --weight ")
        );
    }
    Ok(0)
}
