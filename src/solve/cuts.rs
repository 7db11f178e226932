//! Cut rounds: sample; while no read is valid, try the kind's repair on the lowest reads, then
//! turn their defects into cuts, re-encode and sample again (`solve_with_cuts`).

use super::*;

/// The first of the lowest `reads` reads whose candidate the kind's repair makes valid.
pub(super) fn repaired(
    puzzle: &AnyPuzzle,
    outcome: &SolveOutcome,
    reads: usize,
) -> Option<(f64, AnySolution)> {
    let o = &outcome.outcome;
    o.samples
        .rows
        .iter()
        .zip(&o.rows)
        .take(reads)
        .find_map(|(row, verdict)| {
            let fixed = puzzle.repair(verdict.decoded.as_ref()?)?;
            puzzle
                .check(&fixed)
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
/// the kind's repair on the lowest reads (a repaired answer ends the rounds, reported in
/// `repaired`), then, if the lowest reads show defects the kind turns into cuts (`AnyPuzzle::cuts`), add them to the
/// options, re-encode (the weights are kept by name; `cut` takes its default unless set) and
/// sample again, up to `rounds.max_rounds`. The outcome is the last round's, with the rounds,
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
        if solved || outcome.cancelled || round >= rounds.max_rounds.max(1) {
            return Ok((outcome, encoding));
        }
        if rounds.repair
            && let Some((energy, fixed)) = repaired(puzzle, &outcome, rounds.reads)
        {
            outcome.repaired = Some(best_of(puzzle, energy, &fixed));
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
