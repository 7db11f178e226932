//! Cut rounds: sample; while no read is valid, try the kind's repair on the lowest reads, then
//! turn their defects into cuts, re-encode and sample again (`solve_with_cuts`).

use super::*;

/// Seconds the repair step may spend over all the reads it tries (each read's step has its
/// own budget too): no repair keeps an answer waiting long.
const REPAIR_BUDGET_S: f64 = 5.0;

/// The first of the lowest `reads` reads whose candidate the kind's repair makes valid: its
/// energy and the repair. Reads are tried while `REPAIR_BUDGET_S` lasts.
pub fn repaired(
    puzzle: &AnyPuzzle,
    o: &Outcome,
    reads: usize,
) -> Option<(f64, crate::puzzle::Repaired<AnySolution>)> {
    let started = Instant::now();
    o.samples
        .rows
        .iter()
        .zip(&o.rows)
        .take(reads)
        .take_while(|_| started.elapsed().as_secs_f64() < REPAIR_BUDGET_S)
        .find_map(|(row, verdict)| {
            let fixed = puzzle.repair(verdict.decoded.as_ref()?)?;
            puzzle
                .check(&fixed.solution)
                .is_empty()
                .then_some((row.energy, fixed))
        })
}

/// Cut rounds: how many, and from how many of each round's lowest reads cuts are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CutRounds {
    /// Sampling rounds at most (1: no cuts).
    pub max_rounds: usize,
    /// Distinct lowest-energy reads whose defects become cuts (or are repaired), per round.
    pub reads: usize,
    /// Try the kind's repair step on those reads before another round.
    pub repair: bool,
}

impl Default for CutRounds {
    fn default() -> Self {
        CutRounds {
            max_rounds: 5,
            reads: 16,
            repair: true,
        }
    }
}

/// The first round's encoding, made by the caller (who sized the sampler on it).
pub struct FirstEncoding<'a> {
    /// The options it was made with (cut rounds add their cuts to a copy).
    pub options: &'a crate::puzzle::EncodeOptions,
    /// `puzzle.encode(options)`.
    pub encoding: Encoding,
    /// Seconds that took.
    pub encode_s: f64,
}

/// What samples each round of `solve_with_cuts`, and who hears of its first valid solution.
pub struct Sampling<'a> {
    /// The sampler.
    pub sampler: &'a dyn Sampler,
    /// Its run control (threads, target, cancel, progress).
    pub control: &'a RunControl,
    /// Told the first valid solution while the reads go on (`solve --all-reads`).
    pub on_first_valid: Option<OnFirstValid<'a>>,
}

/// Solves with cut rounds: encode with `options`, sample; while no read is valid, first try
/// the kind's repair on the lowest reads after every round, the last one too (a repaired
/// answer ends the rounds, reported in `repaired` and `repair_step`), then, if the lowest reads show defects the kind turns into cuts (`AnyPuzzle::cuts`), add them to the
/// options, re-encode (the weights are kept by name; `cut` takes its default unless set) and
/// sample again, up to `rounds.max_rounds`, all within the sampler's one time limit (a round
/// gets what the earlier ones left; none starts once it is spent). The outcome is the last round's, with the rounds,
/// the cuts and the sampling time of all rounds, and the last round's encoding;
/// `timing.encode_s` counts every round's encoding.
pub fn solve_with_cuts(
    puzzle: &AnyPuzzle,
    first: FirstEncoding,
    reference: &Reference<AnySolution>,
    weights: &Weights,
    run: Sampling,
    rounds: CutRounds,
) -> Result<(SolveOutcome, Encoding), SolveError> {
    let Sampling {
        sampler,
        control,
        on_first_valid,
    } = run;
    let told = std::sync::atomic::AtomicBool::new(false);
    let FirstEncoding {
        options,
        mut encoding,
        mut encode_s,
    } = first;
    let mut options = options.clone();
    // One time limit for all rounds: each samples within what the earlier ones left.
    let started = Instant::now();
    let has_target = control.target_energy.is_some()
        || crate::outcome::target_energy(puzzle, &encoding, weights, reference).is_some();
    let time_limit = sampler.time_limit(has_target);
    let round_control = control
        .clone()
        .with_deadline(time_limit.map(|d| started + d));
    let control = &round_control;
    let mut sample_s = 0.0;
    let mut round = 0;
    loop {
        round += 1;
        if round > 1 {
            let t0 = Instant::now();
            encoding = puzzle.encode(&options)?;
            encode_s += t0.elapsed().as_secs_f64();
        }
        let problem = Problem {
            puzzle,
            encoding: &encoding,
            reference,
        };
        let watch = on_first_valid.map(|f| (f, &told));
        let mut outcome = solve_watched(problem, weights, sampler, control, watch)?;
        sample_s += outcome.timing.sample_s;
        outcome.timing.sample_s = sample_s;
        outcome.timing.encode_s += encode_s;
        outcome.rounds = Some(round);
        outcome.cuts = Some(options.cuts.len());
        let solved = outcome.success_fraction > 0.0;
        if solved || outcome.cancelled {
            return Ok((outcome, encoding));
        }
        // The repair is tried after every round, the last one too (`--cut-rounds 1` only
        // means no cuts).
        if rounds.repair
            && let Some((energy, fixed)) = repaired(puzzle, &outcome.outcome, rounds.reads)
        {
            outcome.repaired = Some(best_of(puzzle, energy, &fixed.solution));
            outcome.repair_step = Some(fixed.how);
            return Ok((outcome, encoding));
        }
        if round >= rounds.max_rounds.max(1) {
            return Ok((outcome, encoding));
        }
        if let Some(limit) = time_limit.filter(|&d| started.elapsed() >= d) {
            outcome.warnings.push(format!(
                "the time limit ({:.1} s, shared by the cut rounds) ended them after round {round} of {}",
                limit.as_secs_f64(),
                rounds.max_rounds
            ));
            return Ok((outcome, encoding));
        }
        let before = options.cuts.len();
        for verdict in outcome.outcome.rows.iter().take(rounds.reads) {
            for cut in verdict
                .decoded
                .as_ref()
                .map(|d| puzzle.cuts(d))
                .unwrap_or_default()
            {
                if !options.cuts.contains(&cut) {
                    options.cuts.push(cut);
                }
            }
        }
        if options.cuts.len() == before {
            return Ok((outcome, encoding));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qubo::Model;
    use crate::sampler::{SampleSet, SimulatedAnnealing};
    use std::sync::Mutex;
    use std::time::Duration;

    /// Short SA (no read valid without presolve, so loops become cuts) that then, like PT, uses
    /// its time limit to the end: to the caller's deadline when there is one.
    struct TimeLimited {
        sa: SimulatedAnnealing,
        limit: Duration,
        deadlines_seen: Mutex<Vec<Option<Instant>>>,
    }

    impl Sampler for TimeLimited {
        fn name(&self) -> &'static str {
            "time-limited"
        }
        fn params(&self) -> serde_json::Value {
            serde_json::Value::Null
        }
        fn sample(
            &self,
            model: &dyn Model,
            control: &RunControl,
        ) -> Result<SampleSet, SampleError> {
            let t0 = Instant::now();
            let set = self.sa.sample(model, control)?;
            self.deadlines_seen.lock().unwrap().push(control.deadline);
            if let Some(left) = control.time_limit_from(t0, Some(self.limit)) {
                std::thread::sleep(left.saturating_sub(t0.elapsed()));
            }
            Ok(set)
        }
        fn time_limit(&self, _has_target: bool) -> Option<Duration> {
            Some(self.limit)
        }
    }

    #[test]
    fn cut_rounds_share_one_time_limit() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt");
        let puzzle = crate::puzzle::load_puzzles(&file, None)
            .unwrap()
            .remove(0)
            .puzzle;
        let options = crate::puzzle::EncodeOptions::presolved(false);
        let reference = puzzle.solve_classically(100_000);
        let sampler = TimeLimited {
            sa: SimulatedAnnealing {
                num_reads: 4,
                num_sweeps: 300,
                seed: Some(1),
                ..Default::default()
            },
            limit: Duration::from_millis(300),
            deadlines_seen: Mutex::new(Vec::new()),
        };
        let control = RunControl::new().with_threads(Some(1));
        let started = Instant::now();
        let (outcome, _) = solve_with_cuts(
            &puzzle,
            FirstEncoding {
                options: &options,
                encoding: puzzle.encode(&options).unwrap(),
                encode_s: 0.0,
            },
            &reference,
            &Weights::new(),
            Sampling {
                sampler: &sampler,
                control: &control,
                on_first_valid: None,
            },
            CutRounds {
                repair: false,
                ..Default::default()
            },
        )
        .unwrap();
        // The first round was handed the whole run's deadline and spent it: no second round
        // (each round with its own 300 ms made five), and the report says why.
        let seen = sampler.deadlines_seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 1, "{seen:?}");
        let deadline = seen[0].expect("the round was given the run's deadline");
        assert!(deadline >= started + sampler.limit && deadline <= Instant::now());
        assert_eq!(outcome.rounds, Some(1));
        assert_eq!(outcome.success_fraction, 0.0);
        assert!(
            outcome
                .warnings
                .iter()
                .any(|w| w.contains("shared by the cut rounds") && w.contains("after round 1 of 5")),
            "{:?}",
            outcome.warnings
        );
    }

    /// Returns one fixed state, as a sampler that ended on a near miss would.
    struct Fixed(Vec<u8>);

    impl Sampler for Fixed {
        fn name(&self) -> &'static str {
            "fixed"
        }
        fn params(&self) -> serde_json::Value {
            serde_json::Value::Null
        }
        fn sample(
            &self,
            model: &dyn Model,
            _control: &RunControl,
        ) -> Result<SampleSet, SampleError> {
            Ok(SampleSet::from_states(
                model,
                vec![self.0.clone()],
                Default::default(),
            ))
        }
    }

    /// `solve`'s path: a fill-rule read with two cells torn out is not a valid read, and the
    /// repair step's window re-solve turns it into the answer, reported apart with what it did.
    #[test]
    fn a_near_miss_under_the_fill_rule_is_repaired_and_reported_apart() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles/numberlink/generated/7x7-6pairs-seed1.txt");
        let puzzle = crate::puzzle::load_puzzles(&file, None)
            .unwrap()
            .remove(0)
            .puzzle;
        let options = crate::puzzle::EncodeOptions::presolved(false);
        let encoding = puzzle.encode(&options).unwrap();
        let reference = puzzle.solve_classically(1_000_000);
        let Some(AnySolution::Numberlink(answer)) = reference.solution().cloned() else {
            panic!("the reference solves the 7×7");
        };
        let AnyPuzzle::Numberlink(p) = &puzzle else {
            unreachable!()
        };
        let mut damaged = answer.clone();
        for i in (0..49).filter(|&i| p.endpoints()[i] == 0).take(2) {
            for (j, _) in answer.edges_at(p, i) {
                damaged.set(p, i, j, 0);
            }
        }
        let state = puzzle
            .solution_sample(&encoding, &AnySolution::Numberlink(damaged))
            .unwrap();
        let control = RunControl::new().with_threads(Some(1));
        let run = |repair: bool| {
            solve_with_cuts(
                &puzzle,
                FirstEncoding {
                    options: &options,
                    encoding: encoding.clone(),
                    encode_s: 0.0,
                },
                &reference,
                &Weights::new(),
                Sampling {
                    sampler: &Fixed(state.clone()),
                    control: &control,
                    on_first_valid: None,
                },
                CutRounds {
                    max_rounds: 1,
                    repair,
                    ..Default::default()
                },
            )
            .unwrap()
            .0
        };
        let outcome = run(true);
        assert_eq!(outcome.success_fraction, 0.0, "never counted as a read");
        let repaired = outcome.repaired.as_ref().expect("repaired");
        assert_eq!(repaired.violations.len(), 0);
        let step = outcome.repair_step.clone().unwrap();
        assert!(
            step.starts_with("re-solved ") && step.contains("of 49 cells"),
            "{step}"
        );
        let json = serde_json::to_value(&outcome).unwrap();
        assert_eq!(json["repair_step"], step.as_str());
        // `--no-repair`: the read stays as it is.
        let plain = run(false);
        assert!(plain.repaired.is_none() && plain.repair_step.is_none());
    }
}
