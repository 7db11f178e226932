//! The one path from samples to figures. Every caller that samples — the CLI's `solve`, the
//! GUI's Run and weight sweep, `bench` — hands its `SampleSet` to `Outcome::evaluate`, which
//! decodes and referees each distinct sample (when there is a puzzle) and computes the shares,
//! TTS99 and the histogram. So a figure means the same thing wherever it is shown.
//!
//! Invariant: "at the ground energy" is decided by `qubo::energy_matches` only, within the
//! model's own resolution (`Ground::tolerance`), and the ground energy of a puzzle is known only
//! from a valid classical reference (never guessed from the samples).

use crate::puzzle::{AnyPuzzle, AnySolution, ObjectiveValue, Reference, Violation};
use crate::qubo::{ConstraintReport, Encoding, Qubo, Weights, energy_matches};
use crate::sampler::SampleSet;

/// The ground energy of `encoding` under `weights`: the energy every assignment satisfying all
/// groups has, when the classical reference proved such an assignment exists and no weight is
/// negative (each group is then at its minimum). `None` otherwise.
pub fn ground_energy(
    encoding: &Encoding,
    weights: &Weights,
    reference: &Reference<AnySolution>,
) -> Option<f64> {
    reference.solution()?;
    // An unstored encoding keeps no groups to sum: its "satisfied energy" is not the ground
    // (it was above a 24×24 board's broken states, so runs ended "at the target" on them).
    // The kind's `ideal_energy` knows such models' valid energy instead.
    if encoding.unstored().is_some() || !encoding.weights_nonnegative(weights).ok()? {
        return None;
    }
    encoding.satisfied_energy(weights).ok()
}

/// The energy at which a run may stop: the ground energy when the reference proved it, else a
/// valid solution's energy known from the instance (`Puzzle::ideal_energy`: edge matching's
/// perfect board, every group satisfied) unless the reference proved there is no solution.
pub fn target_energy(
    puzzle: &AnyPuzzle,
    encoding: &Encoding,
    weights: &Weights,
    reference: &Reference<AnySolution>,
) -> Option<f64> {
    if matches!(reference, Reference::NoSolution) {
        return None;
    }
    ground_energy(encoding, weights, reference).or_else(|| puzzle.ideal_energy(encoding, weights))
}

/// Time to solution with 99 % confidence from a success share `p` over `reads` reads sampled
/// in `sample_s` seconds: t_read · ln(0.01)/ln(1 − p), t_read itself when p = 1, `None` when
/// p = 0 or nothing was read. The one definition behind every TTS99 shown.
pub fn tts99_s(p: f64, reads: usize, sample_s: f64) -> Option<f64> {
    if reads == 0 || p <= 0.0 || p.is_nan() {
        return None;
    }
    let t_read = sample_s / reads as f64;
    Some(if p >= 1.0 {
        t_read
    } else {
        t_read * 0.01f64.ln() / (1.0 - p).ln()
    })
}

/// A ground energy and the resolution within which a sample's energy counts as equal to it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// The ground energy.
    pub energy: f64,
    /// The model's energy resolution (`Qubo::energy_tolerance`).
    pub tolerance: f64,
    /// Whether that resolution tells the ground from a state one coefficient above it: with
    /// weights so extreme that it does not (say hint = 1e30 beside coefficients of 1), "at
    /// ground" cannot be told and ground shares are unknown, not 100 %.
    pub resolves: bool,
}

impl Ground {
    /// `energy` as the ground energy of `model`, at the model's resolution.
    pub fn of(energy: f64, model: &Qubo) -> Ground {
        let tolerance = model.energy_tolerance();
        Ground {
            energy,
            tolerance,
            resolves: model
                .smallest_coefficient()
                .is_none_or(|gap| tolerance < gap / 2.0),
        }
    }
}

/// The puzzle side of an evaluation: what decodes and referees the samples.
#[derive(Clone, Copy)]
pub struct PuzzleContext<'a> {
    /// The instance.
    pub puzzle: &'a AnyPuzzle,
    /// The encoding the samples are of.
    pub encoding: &'a Encoding,
    /// The weights the model was built with (for the broken-constraint reports).
    pub weights: &'a Weights,
}

/// One distinct sample, decoded and refereed.
#[derive(Clone, Debug)]
pub struct RowVerdict {
    /// `None` for bare models (nothing to decode into).
    pub valid: Option<bool>,
    /// The referee's findings.
    pub violations: Vec<Violation>,
    /// The encoding's constraint groups that are broken in this sample (enforced ones only).
    pub broken: Vec<ConstraintReport>,
    /// Groups the sample violates whose weight is 0: not enforced, so not broken.
    pub unenforced: Vec<ConstraintReport>,
    /// Whether the groups could be reported at all (a model too large to store keeps no
    /// terms to report on: then only the referee's findings say what is broken).
    pub groups_reported: bool,
    /// The candidate solution.
    pub decoded: Option<AnySolution>,
    /// The candidate's objective, for kinds that optimise one (constrained models).
    pub objective: Option<ObjectiveValue>,
    /// Per constraint the model states itself (`Outcome::constraint_labels`), whether the
    /// candidate satisfies it; empty for the puzzles.
    pub satisfied: Vec<bool>,
}

impl RowVerdict {
    /// What is broken in the sample, counted once: the enforced groups the encoding reports,
    /// or the referee's findings where the groups cannot be reported (Eternity II's
    /// mismatched joints), so a broken board never reads "broken 0".
    pub fn broken_count(&self) -> usize {
        if self.groups_reported {
            self.broken.len()
        } else {
            self.violations.len()
        }
    }
}

/// One histogram bar: the reads whose energy is `energy` (or falls in its bin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    /// Centre of the bin.
    pub energy: f64,
    /// Reads that decode to a valid solution (all reads for bare models are in `other`).
    pub valid: usize,
    /// The other reads.
    pub other: usize,
    /// Bar width to draw.
    pub width: f64,
}

/// A run, decoded, refereed and summarised.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The samples, lowest energy first.
    pub samples: SampleSet,
    /// One verdict per distinct sample (same order as `samples.rows`).
    pub rows: Vec<RowVerdict>,
    /// Known when the puzzle has a valid classical solution and the weights are ≥ 0.
    pub ground_energy: Option<f64>,
    /// Within this of `ground_energy`, a read is at the ground.
    pub energy_tolerance: f64,
    /// Whether the model's precision can tell reads at the ground from reads one coefficient
    /// above it (`Ground::resolves`); when not, the ground share is unknown.
    pub ground_resolved: bool,
    /// Wall time of sampling.
    pub sample_s: f64,
    /// Per-cell probabilities estimated from every read, for kinds that have them.
    pub probabilities: Option<crate::puzzle::CellProbabilities>,
    /// The sampled model's `Qubo::fingerprint`, when the caller knows the stored model (saved
    /// with the samples, so `compare` can refuse runs of different models).
    pub model_fingerprint: Option<String>,
    /// Why the ground energy is not given although the puzzle's reference solved it (a
    /// negative weight; a model sampled through its structure), in words.
    pub ground_unknown: Option<String>,
    /// The labels of the constraints the model states itself (constrained models): the
    /// columns of each row's `satisfied`.
    pub constraint_labels: Vec<String>,
}

impl Outcome {
    /// Bytes `evaluate` holds for `rows` distinct reads of `n` variables, at most: each read's
    /// decoded candidate, the referee's findings and the broken groups' reports (measured: about
    /// 12 KB a read for a 4×4 Sudoku of 64 variables).
    pub fn evaluation_bytes(rows: usize, n: usize) -> u64 {
        crate::budget::bytes_of(&[rows, n.max(1), 64])
            .saturating_add(crate::budget::bytes_of(&[rows, 8192]))
    }

    /// Refuses, with the reason, to referee more distinct reads than the memory budget holds
    /// (a million distinct reads of a 4×4 Sudoku took 7.9 GB before this check): every caller
    /// of `evaluate` on a run's samples asks first.
    pub fn check_evaluation_budget(samples: &SampleSet) -> Result<(), crate::budget::BudgetError> {
        let (rows, n) = (samples.rows.len(), samples.num_variables);
        crate::budget::check_memory(
            || format!("refereeing {rows} distinct reads of {n} variables"),
            Outcome::evaluation_bytes(rows, n),
        )
    }

    /// Decodes and referees every distinct sample (when `puzzle` is given).
    pub fn evaluate(
        samples: SampleSet,
        puzzle: Option<PuzzleContext>,
        ground: Option<Ground>,
        sample_s: f64,
    ) -> Outcome {
        let rows = samples
            .rows
            .iter()
            .map(|row| match puzzle {
                Some(ctx) => {
                    let decoded = ctx.puzzle.decode(ctx.encoding, &row.sample);
                    let violations = ctx.puzzle.check(&decoded);
                    let report = ctx.encoding.report(&row.sample, ctx.weights, true);
                    // An unstored encoding keeps no terms: an empty report would say nothing.
                    let groups_reported = report.is_ok() && ctx.encoding.unstored().is_none();
                    let (broken, unenforced) = report
                        .unwrap_or_default()
                        .into_iter()
                        .partition(|r| r.enforced);
                    RowVerdict {
                        valid: Some(violations.is_empty()),
                        violations,
                        broken,
                        unenforced,
                        groups_reported,
                        objective: ctx.puzzle.objective(&decoded),
                        satisfied: ctx.puzzle.satisfied(&decoded),
                        decoded: Some(decoded),
                    }
                }
                None => RowVerdict {
                    valid: None,
                    violations: Vec::new(),
                    broken: Vec::new(),
                    unenforced: Vec::new(),
                    groups_reported: false,
                    decoded: None,
                    objective: None,
                    satisfied: Vec::new(),
                },
            })
            .collect::<Vec<RowVerdict>>();
        let probabilities = puzzle.and_then(|ctx| {
            let candidates: Vec<_> = rows
                .iter()
                .zip(&samples.rows)
                .filter_map(|(v, r)| v.decoded.as_ref().map(|d| (d, r.num_occurrences as u64)))
                .collect();
            ctx.puzzle.sampled_probabilities(&candidates)
        });
        Outcome {
            samples,
            rows,
            probabilities,
            ground_energy: ground.map(|g| g.energy),
            energy_tolerance: ground.map_or(0.0, |g| g.tolerance),
            ground_resolved: ground.is_none_or(|g| g.resolves),
            sample_s,
            model_fingerprint: None,
            ground_unknown: None,
            constraint_labels: puzzle
                .map(|ctx| ctx.puzzle.constraint_labels())
                .unwrap_or_default(),
        }
    }

    /// The samples as dimod SampleSet JSON (`SampleSet::to_dimod_json`) with what this run
    /// knows besides: a `valid` vector per row (puzzles), and in `info` the reads, sampling
    /// time, ground energy, shares, TTS99, seed and the model's fingerprint — what `compare`
    /// reads back (dimod keeps extra vectors and info when it loads the file).
    pub fn to_dimod_json(&self, labels: Option<&[String]>) -> serde_json::Value {
        let mut v = self.samples.to_dimod_json(labels);
        if self.rows.iter().all(|r| r.valid.is_some()) && !self.rows.is_empty() {
            let valid: Vec<bool> = self.rows.iter().map(|r| r.valid == Some(true)).collect();
            v["vectors"]["valid"] = serde_json::json!({
                "type": "array", "data": valid, "data_type": "bool",
                "shape": [valid.len()], "use_bytes": false
            });
        }
        if self.rows.iter().any(|r| r.objective.is_some()) {
            // As LeapHybridCQMSampler's sample sets: feasibility per row, and the objective
            // apart from the penalties.
            let feasible: Vec<bool> = self.rows.iter().map(|r| r.valid == Some(true)).collect();
            let objective: Vec<f64> = self
                .rows
                .iter()
                .map(|r| r.objective.map_or(f64::NAN, |o| o.value))
                .collect();
            v["vectors"]["is_feasible"] = serde_json::json!({
                "type": "array", "data": feasible, "data_type": "bool",
                "shape": [feasible.len()], "use_bytes": false
            });
            v["vectors"]["objective"] = serde_json::json!({
                "type": "array", "data": objective, "data_type": "float64",
                "shape": [objective.len()], "use_bytes": false
            });
            v["info"]["best_feasible_objective"] =
                serde_json::json!(self.best_feasible_objective().map(|o| o.value));
            // Per row and constraint, as LeapHybridCQMSampler's `is_satisfied`, with the
            // constraints' labels in `info`.
            let k = self.constraint_labels.len();
            if k > 0 && self.rows.iter().all(|r| r.satisfied.len() == k) {
                let satisfied: Vec<&[bool]> =
                    self.rows.iter().map(|r| r.satisfied.as_slice()).collect();
                v["vectors"]["is_satisfied"] = serde_json::json!({
                    "type": "array", "data": satisfied, "data_type": "bool",
                    "shape": [satisfied.len(), k], "use_bytes": false
                });
                v["info"]["constraint_labels"] = serde_json::json!(self.constraint_labels);
            }
        }
        let info = &mut v["info"];
        info["seed"] = serde_json::json!(self.samples.info.seed);
        info["num_reads"] = serde_json::json!(self.num_reads());
        info["sample_s"] = serde_json::json!(self.sample_s);
        info["ground_energy"] = serde_json::json!(self.ground_energy);
        info["valid_fraction"] = serde_json::json!(self.success_fraction());
        info["ground_fraction"] = serde_json::json!(self.ground_fraction());
        info["tts99_s"] = serde_json::json!(self.tts99_s());
        info["model_fingerprint"] = serde_json::json!(self.model_fingerprint);
        v
    }

    /// Writes the samples atomically: dimod SampleSet JSON with this run's figures
    /// (`to_dimod_json`) for `.json`, CSV for `.csv`.
    pub fn save_samples(
        &self,
        path: &std::path::Path,
        labels: Option<&[String]>,
    ) -> Result<(), crate::io::FileError> {
        if path.extension().and_then(|e| e.to_str()) == Some("json") {
            let text =
                serde_json::to_string_pretty(&self.to_dimod_json(labels)).unwrap_or_default();
            crate::io::write_atomic(path, (text + "\n").as_bytes())
        } else {
            self.samples.save(path, labels)
        }
    }

    /// The best objective among the valid (feasible) reads, for kinds that optimise one.
    pub fn best_feasible_objective(&self) -> Option<ObjectiveValue> {
        self.rows
            .iter()
            .filter(|v| v.valid == Some(true))
            .filter_map(|v| v.objective)
            .reduce(|best, o| if o.better_than(&best) { o } else { best })
    }

    /// Share of reads that are valid with an objective at least as good as `target` (the
    /// reference's optimum), within the objective's resolution.
    pub fn optimal_fraction(&self, target: ObjectiveValue) -> Option<f64> {
        if self.num_reads() == 0 || self.rows.iter().all(|v| v.objective.is_none()) {
            return None;
        }
        let tolerance = crate::qubo::running_tolerance(target.value);
        let hits = self
            .samples
            .rows
            .iter()
            .zip(&self.rows)
            .filter(|(_, v)| {
                v.valid == Some(true)
                    && v.objective.is_some_and(|o| {
                        o.better_than(&target) || (o.value - target.value).abs() <= tolerance
                    })
            })
            .map(|(r, _)| r.num_occurrences)
            .sum();
        Some(self.share(hits))
    }

    /// Reads in the run.
    pub fn num_reads(&self) -> usize {
        self.samples.num_reads()
    }

    fn share(&self, hits: usize) -> f64 {
        match self.num_reads() {
            0 => 0.0,
            n => hits as f64 / n as f64,
        }
    }

    /// Share of reads that decode to a valid solution (`None` without a puzzle).
    pub fn success_fraction(&self) -> Option<f64> {
        // No reads, no share (an empty imported file once showed "valid 0.0 %").
        if self.num_reads() == 0 || self.rows.iter().any(|r| r.valid.is_none()) {
            return None;
        }
        let ok = self
            .samples
            .rows
            .iter()
            .zip(&self.rows)
            .filter(|(_, v)| v.valid == Some(true))
            .map(|(r, _)| r.num_occurrences)
            .sum();
        Some(self.share(ok))
    }

    /// Share of reads at the ground energy (`None` when it is not known).
    pub fn ground_fraction(&self) -> Option<f64> {
        if !self.ground_resolved {
            return None;
        }
        let g = self.ground_energy?;
        let hits = self
            .samples
            .rows
            .iter()
            .filter(|r| energy_matches(r.energy, g, self.energy_tolerance))
            .map(|r| r.num_occurrences)
            .sum();
        Some(self.share(hits))
    }

    /// Independent trials in the run and how many of them succeeded (a valid read, or on bare
    /// models the ground energy): every read is a trial, except where the sampler's reads are
    /// one correlated population (`SampleInfo::one_trial`) — then the run is one trial, which
    /// succeeded when any read did. `None` when success is unknown.
    pub fn trials(&self) -> Option<(usize, usize)> {
        let reads = self.num_reads();
        let share = self.success_fraction().or(self.ground_fraction())?;
        let hits = (share * reads as f64).round() as usize;
        Some(if self.samples.info.one_trial {
            (reads.min(1), (hits > 0) as usize)
        } else {
            (reads, hits)
        })
    }

    /// Time to solution with 99 % confidence: t_trial · ln(0.01)/ln(1 − p), with p the share of
    /// trials that succeeded (`trials`: reads, or the whole run for a population) and t_trial
    /// = sampling wall time / trials; t_trial itself when p = 1; `None` when p = 0 or unknown.
    pub fn tts99_s(&self) -> Option<f64> {
        let (trials, hits) = self.trials()?;
        tts99_s(hits as f64 / trials.max(1) as f64, trials, self.sample_s)
    }

    /// Lowest energy sampled.
    pub fn min_energy(&self) -> Option<f64> {
        self.samples.lowest().map(|r| r.energy)
    }

    /// Mean energy over reads (NaN with no reads).
    pub fn mean_energy(&self) -> f64 {
        let total: f64 = self
            .samples
            .rows
            .iter()
            .map(|r| r.energy * r.num_occurrences as f64)
            .sum();
        total / self.num_reads() as f64
    }

    /// The energy histogram as a chart (valid reads stacked under the others; the ground
    /// energy named in the title when known).
    pub fn histogram_chart(&self, description: &str) -> crate::render::Drawing {
        use crate::render::chart::{BarChart, colors};
        let bars = self.histogram();
        let has_puzzle = self.rows.iter().all(|r| r.valid.is_some());
        BarChart {
            title: match self.ground_energy {
                Some(g) => format!(
                    "Energies of {} reads (ground {g}) — {description}",
                    self.num_reads()
                ),
                None => format!("Energies of {} reads — {description}", self.num_reads()),
            },
            x_label: "energy".into(),
            y_label: "reads".into(),
            bars: bars
                .iter()
                .map(|b| (b.energy, b.width, vec![b.valid as f64, b.other as f64]))
                .collect(),
            parts: if has_puzzle {
                vec![
                    ("valid".into(), colors::VALID),
                    ("invalid".into(), colors::OTHER),
                ]
            } else {
                vec![
                    ("valid".into(), colors::VALID),
                    ("reads".into(), colors::OTHER),
                ]
            },
        }
        .drawing()
    }

    /// The energy histogram, valid and other reads apart: one bar per distinct energy when
    /// there are at most 60 (puzzle energies are few and exact), else 40 equal bins.
    pub fn histogram(&self) -> Vec<Bar> {
        let rows = &self.samples.rows;
        let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
            return Vec::new();
        };
        // Rows are sorted by energy.
        let (lo, hi) = (first.energy, last.energy);
        let mut distinct: Vec<f64> = rows.iter().map(|r| r.energy).collect();
        distinct.dedup();
        let few = distinct.len() <= 60;
        let (centres, width) = if distinct.len() == 1 {
            // One energy: a bar one unit wide, so the axis around it counts in units, not 1e-9s.
            (distinct, 1.0)
        } else if few {
            let gap = distinct
                .windows(2)
                .map(|w| w[1] - w[0])
                .fold(f64::INFINITY, f64::min)
                .min(hi - lo)
                .max(1e-9);
            (distinct, gap)
        } else {
            let w = (hi - lo) / 40.0;
            ((0..40).map(|k| lo + w * (k as f64 + 0.5)).collect(), w)
        };
        let mut bars: Vec<Bar> = centres
            .iter()
            .map(|&energy| Bar {
                energy,
                valid: 0,
                other: 0,
                width: width * 0.8,
            })
            .collect();
        for (row, verdict) in rows.iter().zip(&self.rows) {
            let k = if few {
                centres.iter().position(|&c| c == row.energy).unwrap_or(0)
            } else {
                (((row.energy - lo) / width) as usize).min(39)
            };
            if verdict.valid == Some(true) {
                bars[k].valid += row.num_occurrences;
            } else {
                bars[k].other += row.num_occurrences;
            }
        }
        bars
    }

    /// The best (lowest-energy) sample's verdict, with its row.
    pub fn best(&self) -> Option<(&crate::sampler::SampleRow, &RowVerdict)> {
        self.samples.rows.first().zip(self.rows.first())
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_evaluation_estimate_matches_what_refereeing_holds() {
        // Measured by the round-4 probe: about 12 KB a distinct read of a 4×4 Sudoku (64
        // variables); a million such reads took 7.9 GB and aborted.
        let per_read = Outcome::evaluation_bytes(1, 64);
        assert!((10_000..=16_384).contains(&per_read), "{per_read}");
        assert!(Outcome::evaluation_bytes(1_000_000, 64) > 10 << 30);
        assert!(
            Outcome::evaluation_bytes(100_000, 64) > 1 << 30,
            "over a 1 GB budget"
        );
        assert!(
            Outcome::evaluation_bytes(1000, 729) < 100 << 20,
            "a usual run is cheap"
        );
        assert_eq!(
            Outcome::evaluation_bytes(usize::MAX, usize::MAX),
            u64::MAX,
            "saturates"
        );
    }
    use super::*;
    use crate::sampler::{SampleInfo, SampleSet};

    fn set(reads: Vec<(Vec<u8>, f64)>) -> SampleSet {
        SampleSet::from_reads(2, reads, SampleInfo::default())
    }

    #[test]
    fn a_population_is_one_trial_for_the_time_to_solution() {
        // Reads (energy −1 is the ground): 3 of 4 at it, sampled in 2 s.
        let model = Qubo::new(vec![-1.0, -1.0], vec![(0, 1, 1.0)], 0.0).unwrap();
        let reads = || {
            let mut r = vec![(vec![1, 0], -1.0), (vec![0, 1], -1.0), (vec![1, 0], -1.0)];
            r.push((vec![0, 0], 0.0));
            r
        };
        let evaluate = |one_trial: bool, reads: Vec<(Vec<u8>, f64)>| {
            let mut s = set(reads);
            s.info.one_trial = one_trial;
            Outcome::evaluate(s, None, Some(Ground::of(-1.0, &model)), 2.0)
        };
        // Independent reads: t_read = 0.5 s, p = 0.75.
        let independent = evaluate(false, reads());
        assert_eq!(independent.trials(), Some((4, 3)));
        let t = independent.tts99_s().unwrap();
        assert!((t - 0.5 * 0.01f64.ln() / 0.25f64.ln()).abs() < 1e-12, "{t}");
        // One population: the run is one trial, and it succeeded, so TTS99 is the run's time.
        let population = evaluate(true, reads());
        assert_eq!(
            population.ground_fraction(),
            Some(0.75),
            "shares stay per read"
        );
        assert_eq!(population.trials(), Some((1, 1)));
        assert_eq!(population.tts99_s(), Some(2.0));
        // A population with no read at the ground has no time to solution.
        let missed = evaluate(true, vec![(vec![0, 0], 0.0), (vec![1, 1], -1.0 + 2.0)]);
        assert_eq!(missed.trials(), Some((1, 0)));
        assert_eq!(missed.tts99_s(), None);
    }

    #[test]
    fn a_huge_weight_does_not_blur_one_broken_constraint_into_the_ground() {
        // A weight of 1e10 puts the ground near −3.2e11; a read 12 above it breaks constraints.
        // A tolerance relative to the energy (1e-9 × 3.2e11 = 320) called it "at ground"; the
        // model's resolution (1e-12 × its scale) does not.
        let model = Qubo::new(vec![-1.6e11, -1.6e11], vec![(0, 1, 12.0)], 0.0).unwrap();
        let ground = Ground::of(-3.2e11, &model);
        assert!(ground.tolerance < 1.0, "{}", ground.tolerance);
        let s = set(vec![(vec![1, 0], -3.2e11 + 12.0), (vec![0, 1], -3.2e11)]);
        let o = Outcome::evaluate(s, None, Some(ground), 1.0);
        assert_eq!(o.ground_fraction(), Some(0.5));
    }

    #[test]
    fn weights_beyond_the_models_precision_make_the_ground_share_unknown_not_full() {
        // hint = 1e30 beside a coupling of 1: a read one coupling above the ground has the
        // ground's energy to within the model's resolution, so nobody can tell.
        let model = Qubo::new(vec![-1e30, -1e30], vec![(0, 1, 1.0)], 0.0).unwrap();
        let ground = Ground::of(-2e30, &model);
        assert!(!ground.resolves);
        let s = set(vec![(vec![1, 1], -2e30 + 1.0), (vec![1, 0], -1e30)]);
        let o = Outcome::evaluate(s, None, Some(ground), 1.0);
        assert_eq!(o.ground_fraction(), None);
        assert!(!o.ground_resolved);
    }

    #[test]
    fn no_reads_have_no_valid_share() {
        // An imported file with no rows showed "valid 0.0 %"; a share of nothing is none.
        let o = Outcome::evaluate(set(Vec::new()), None, None, 0.0);
        assert_eq!(o.success_fraction(), None);
    }

    #[test]
    fn bare_models_have_ground_shares_but_no_validity() {
        let s = set(vec![
            (vec![0, 1], -1.0),
            (vec![0, 1], -1.0),
            (vec![1, 1], -1.0 + 1e-12),
            (vec![1, 0], 2.0),
        ]);
        let ground = Ground {
            energy: -1.0,
            tolerance: 1e-9,
            resolves: true,
        };
        let o = Outcome::evaluate(s, None, Some(ground), 2.0);
        assert_eq!(o.success_fraction(), None);
        assert_eq!(o.ground_fraction(), Some(0.75));
        // p = 0.75 from the ground share; t_read = 0.5 s.
        let tts = o.tts99_s().unwrap();
        assert!((tts - 0.5 * 0.01f64.ln() / 0.25f64.ln()).abs() < 1e-12);
        assert_eq!(o.mean_energy(), (-3.0 + 1e-12 + 2.0) / 4.0);
        let bars = o.histogram();
        assert_eq!(bars.iter().map(|b| b.other).sum::<usize>(), 4);
        assert_eq!(bars.len(), 3, "three distinct energies, three bars");
        assert_eq!((bars[0].energy, bars[0].other), (-1.0, 2));
    }

    #[test]
    fn no_ground_energy_means_no_ground_share() {
        let o = Outcome::evaluate(set(vec![(vec![0, 0], 0.0)]), None, None, 1.0);
        assert_eq!(o.ground_fraction(), None);
        assert_eq!(o.tts99_s(), None);
    }
}
