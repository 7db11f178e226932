//! The QUBO path's difficulty for designers (`qubo_difficulty`) and instances drawn until
//! their measured TTS99 falls in a range (`generate_for_tts99`).

use super::*;

/// The QUBO path's difficulty for designers: the default sampler (`auto`) on the kind's default
/// encoding at default weights, one run stopped after `budget_s` seconds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuboDifficulty {
    /// The sampler `auto` chose.
    pub sampler: String,
    /// Whether the encoding was presolved (the kind's default).
    pub presolve: bool,
    /// Time to a valid solution with 99 % confidence (`None`: no valid read). When the run was
    /// stopped at the budget, estimated from the reads finished by then over the whole time.
    pub tts99_s: Option<f64>,
    /// Share of reads that were valid.
    pub success_fraction: f64,
    /// Reads.
    pub num_reads: usize,
    /// Sampling wall time.
    pub sample_s: f64,
    /// The run was stopped at the budget (TTS99 is above it).
    pub stopped_at_budget: bool,
}

/// Measures `QuboDifficulty` (the CLI's `check --tts`, the editor's "Estimate TTS99").
pub fn qubo_difficulty(puzzle: &AnyPuzzle, budget_s: f64) -> Result<QuboDifficulty, SolveError> {
    let options = crate::puzzle::EncodeOptions {
        presolve: puzzle.kind().presolves_by_default(),
        ..Default::default()
    };
    let encoding = puzzle.encode(&options)?;
    let reference = puzzle.solve_classically(crate::puzzle::REFERENCE_NODE_BUDGET);
    let task = crate::samplers::Task {
        num_variables: encoding.num_variables(),
        has_target: crate::outcome::target_energy(puzzle, &encoding, &Weights::new(), &reference)
            .is_some(),
        stored: encoding.unstored().is_none(),
        marginals: puzzle.kind().has_probabilities(),
    };
    let (name, _) = crate::samplers::resolve(crate::samplers::AUTO, task);
    let sampler = crate::samplers::sampler_from_params(&name, &Default::default())?;
    let problem = Problem {
        puzzle,
        encoding: &encoding,
        reference: &reference,
    };
    // The budget: a watcher cancels the run when it is spent (or stops when the run ends).
    let control = RunControl::new();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let watcher = {
        let control = control.clone();
        let budget = std::time::Duration::from_secs_f64(budget_s.clamp(0.0, 86_400.0));
        std::thread::spawn(move || {
            if done_rx.recv_timeout(budget).is_err() {
                control.cancel();
            }
        })
    };
    let out = solve(problem, &Weights::new(), sampler.as_ref(), &control);
    let _ = done_tx.send(());
    let _ = watcher.join();
    let out = out?;
    Ok(QuboDifficulty {
        sampler: name,
        presolve: options.presolve,
        // Stopped at the budget: estimated from the reads finished by then, the whole time
        // counted (the run says it was stopped).
        tts99_s: out.tts99_s,
        success_fraction: out.success_fraction,
        num_reads: out.num_reads,
        sample_s: out.timing.sample_s,
        stopped_at_budget: out.cancelled,
    })
}

/// Instances `generate_for_tts99` draws (seed, seed + 1, …) before it gives up.
pub const TTS99_TRIES: u64 = 40;

/// An instance whose QUBO-path difficulty fell in the range asked for.
#[derive(Clone, Debug)]
pub struct AimedInstance {
    /// The instance.
    pub puzzle: AnyPuzzle,
    /// Its measured difficulty (`QuboDifficulty`: the default sampler at default weights).
    pub difficulty: QuboDifficulty,
    /// The seed that made it.
    pub seed: u64,
    /// Instances drawn, this one included.
    pub tries: u64,
}

impl AimedInstance {
    /// The header comment the file carries: what was measured, how, and the range asked for.
    pub fn comment(&self, range: [f64; 2]) -> String {
        format!(
            "TTS99 {:.4} s with {} ({} reads, {:.0} % valid, {}), aimed at {}–{} s; seed {}",
            self.difficulty.tts99_s.unwrap_or(f64::NAN),
            self.difficulty.sampler,
            self.difficulty.num_reads,
            100.0 * self.difficulty.success_fraction,
            if self.difficulty.presolve {
                "presolved"
            } else {
                "full model"
            },
            range[0],
            range[1],
            self.seed
        )
    }
}

/// Generates `kind` from `params`, then seed + 1, seed + 2, … until an instance's TTS99 on the
/// default sampler (`qubo_difficulty`, each run stopped after twice the range's top, at least a
/// second) falls in `range`; at most `TTS99_TRIES` instances, each reported to `control`.
pub fn generate_for_tts99(
    kind: crate::puzzle::Kind,
    params: &crate::params::ParamValues,
    range: [f64; 2],
    control: &crate::puzzle::GenerateControl,
) -> Result<AimedInstance, String> {
    let [lo, hi] = range;
    if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi && hi <= 3600.0) {
        return Err(format!(
            "a TTS99 range of {lo}:{hi} s: two numbers 0 ≤ A ≤ B ≤ 3600"
        ));
    }
    let base = params.get("seed").and_then(|v| v.as_u64()).unwrap_or(1);
    let budget_s = (2.0 * hi).clamp(1.0, 7200.0);
    // Each try's TTS99 (None: not finished within the budget).
    let mut measured: Vec<Option<f64>> = Vec::new();
    for t in 0..TTS99_TRIES {
        control
            .next_try(t, TTS99_TRIES)
            .map_err(|e| e.to_string())?;
        let seed = base.wrapping_add(t);
        let mut p = params.clone();
        p.insert("seed".into(), seed.into());
        // The kind's own search (a band, no guess) runs under its own control; this one
        // counts instances.
        let puzzle = kind.generate(&p).map_err(|e| e.to_string())?;
        let difficulty = qubo_difficulty(&puzzle, budget_s).map_err(|e| e.to_string())?;
        // Only a run that finished counts: a stopped one's estimate is not a measurement.
        match difficulty.tts99_s.filter(|_| !difficulty.stopped_at_budget) {
            Some(tts) if (lo..=hi).contains(&tts) => {
                return Ok(AimedInstance {
                    puzzle,
                    difficulty,
                    seed,
                    tries: t + 1,
                });
            }
            Some(tts) => measured.push(Some(tts)),
            None => measured.push(None),
        }
    }
    Err(aim_missed(&measured, [lo, hi], base, budget_s))
}

/// Why no instance fitted a TTS99 range: one line that says which way they missed and what
/// range would fit, then (after a line break) every try's figure for whoever wants them.
pub(super) fn aim_missed(
    measured: &[Option<f64>],
    [lo, hi]: [f64; 2],
    base: u64,
    budget_s: f64,
) -> String {
    let mut finished: Vec<f64> = measured.iter().flatten().copied().collect();
    finished.sort_by(f64::total_cmp);
    let faster = finished.iter().filter(|&&t| t < lo).count();
    let slower = measured.len() - faster;
    let tries = measured.len();
    let last = base.wrapping_add(tries.saturating_sub(1) as u64);
    let way = match (faster, slower) {
        (_, 0) => format!("all {tries} were faster than {lo} s"),
        (0, _) => format!("all {tries} were slower than {hi} s"),
        _ => format!("{faster} faster than {lo} s, {slower} slower than {hi} s"),
    };
    let hint = match finished.get(finished.len() / 2) {
        Some(m) => format!("; their median is {m:.3} s, so a range around it fits these settings"),
        None => format!("; none finished within {budget_s:.0} s"),
    };
    let figures: Vec<String> = measured
        .iter()
        .map(|t| t.map_or(format!(">{budget_s:.0}"), |t| format!("{t:.3}")))
        .collect();
    format!(
        "no instance with TTS99 in {lo}–{hi} s (seeds {base}…{last}): {way}{hint}\n\
         measured TTS99 per seed, in seconds: {}",
        figures.join(", ")
    )
}
