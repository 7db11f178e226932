//! What a solve reports, in the CLI's JSON shape (`SolveOutcome`, `Best`, `Timing`), and how an
//! evaluated run becomes it (`summarise`).

use super::*;

/// The best read, decoded and refereed.
#[derive(Clone, Debug, Serialize)]
pub struct Best {
    /// Its energy.
    pub energy: f64,
    /// Whether the referee accepts it.
    pub valid: bool,
    /// What the referee found.
    pub violations: Vec<Violation>,
    /// The candidate solution as JSON (Sudoku: its one-line string; edge matching: the board
    /// row-major, `{"piece": P, "rotation": R}` or `null` per cell).
    pub solution: serde_json::Value,
    /// The candidate solution in the kind's one-line form.
    pub solution_line: String,
    /// Its score, for kinds scored by degree (edge matching: matched joints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// The score of a perfect solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_score: Option<u64>,
    /// Its objective, apart from the penalties (constrained models).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<f64>,
    /// The open cells it fills as the classical reference's solution does, when the reference
    /// solved the puzzle (`Puzzle::agreement`): how near a near miss is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_agreement: Option<crate::puzzle::Agreement>,
    /// The candidate solution.
    #[serde(skip)]
    pub decoded: Option<AnySolution>,
}

/// Wall times.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    /// Encoding (presolve included) and weighting, over every cut round.
    pub encode_s: f64,
    /// Sampling.
    pub sample_s: f64,
}

/// Everything a solve produced, in the CLI's JSON shape.
#[derive(Clone, Debug, Serialize)]
pub struct SolveOutcome {
    /// The puzzle kind's name.
    pub kind: String,
    /// One-line summary of the puzzle.
    pub description: String,
    /// The penalty weights the model was built with, by name.
    pub weights: std::collections::BTreeMap<String, f64>,
    /// Variables of the model sampled.
    pub num_variables: usize,
    /// Couplings of the model sampled.
    pub num_interactions: usize,
    /// The sampler's name.
    pub sampler: String,
    /// Why the sampler was chosen, when the caller let the workbench choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampler_choice: Option<String>,
    /// The parameters it ran with (seed and β range filled in).
    pub params: serde_json::Value,
    /// Wall times.
    pub timing: Timing,
    /// Reads taken.
    pub num_reads: usize,
    /// True when cancelled before all reads were done.
    pub cancelled: bool,
    /// Reads returned of reads asked for, and why the run stopped (target, sweeps, time
    /// limit, cancel), in figures and words.
    pub run: crate::sampler::RunReport,
    /// Lowest energy sampled.
    pub min_energy: Option<f64>,
    /// Known when the puzzle has a solution (exact reference solver) and weights are ≥ 0.
    pub ground_energy: Option<f64>,
    /// Why the ground energy is not given although the reference solved the puzzle (a negative
    /// weight; a model sampled through its structure), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ground_unknown: Option<String>,
    /// Share of reads at the ground energy (the figure compared with the peers).
    pub ground_fraction: Option<f64>,
    /// Share of reads that decode to a valid solution.
    pub success_fraction: f64,
    /// Time to a valid solution with 99 % confidence.
    pub tts99_s: Option<f64>,
    /// The best objective among the feasible reads, apart from the penalties (constrained
    /// models).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_feasible_objective: Option<f64>,
    /// The classical reference's objective (the optimum when its search finished).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_objective: Option<f64>,
    /// Share of reads feasible and at the reference's objective or better.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal_fraction: Option<f64>,
    /// What the classical reference found: `solved`, `no solution`, or `gave up after N nodes`.
    pub reference: String,
    /// The best read.
    pub best: Option<Best>,
    /// What to know about how far to trust the run (from the sampler).
    pub warnings: Vec<String>,
    /// Sampler-specific facts: a remote job's id, solver and timing; an embedding's chain
    /// breaks (`SampleInfo::details`).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub sampler_details: serde_json::Map<String, serde_json::Value>,
    /// Per-cell probabilities, H rows of W (kinds that have them, Minesweeper: a mine under
    /// each cell): the exact ones when computed, else the sampled estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probabilities: Option<Vec<Vec<f64>>>,
    /// The estimate from the reads, when the exact ones are reported too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampled_probabilities: Option<Vec<Vec<f64>>>,
    /// Largest and mean |sampled − exact| over the undecided cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probability_error: Option<ProbabilityError>,
    /// Why the exact probabilities are missing (an inconsistent position, too large a group).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_probabilities_error: Option<String>,
    /// Sampling rounds run when cut rounds were allowed (1: the first round found a valid
    /// answer or showed no cut); `None` when they were not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<usize>,
    /// Cuts (nogoods from defective answers, e.g. Numberlink's loops) in the last round's model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuts: Option<usize>,
    /// When no read was valid: a low read's candidate made valid by the kind's repair step
    /// (Numberlink under no-fill: loops removed), with the read's energy. Not counted in
    /// `success_fraction`, which counts reads as sampled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repaired: Option<Best>,
    /// What the repair step did to make `repaired` valid, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repair_step: Option<String>,
    /// The samples with their verdicts.
    #[serde(skip)]
    pub outcome: Outcome,
}

/// How far the sampled probabilities are from the exact ones.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ProbabilityError {
    /// Largest |sampled − exact| over the undecided cells.
    pub max: f64,
    /// Mean |sampled − exact| over the undecided cells.
    pub mean: f64,
}

/// Which per-cell probabilities a report carries (kinds that have them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ProbabilityMethod {
    /// The exact engine alone (no sampling).
    Exact,
    /// The estimate from the reads alone.
    Sample,
    /// Both, and their difference.
    #[default]
    Both,
}

impl SolveOutcome {
    /// Fills in the probabilities `method` asks for: the sampled estimate from the run, and
    /// (for `both`) the exact ones from `puzzle` with the difference. Kinds without
    /// probabilities are left as they are.
    pub fn add_probabilities(
        &mut self,
        puzzle: &AnyPuzzle,
        method: ProbabilityMethod,
        node_budget: u64,
    ) {
        let Some(sampled) = self.outcome.probabilities.clone() else {
            return;
        };
        if method == ProbabilityMethod::Sample {
            self.probabilities = Some(sampled.rows());
            return;
        }
        match puzzle.exact_probabilities(node_budget) {
            Some(Ok(exact)) => {
                let (max, mean) = sampled.error_against(&exact);
                self.probabilities = Some(exact.rows());
                self.sampled_probabilities = Some(sampled.rows());
                self.probability_error = Some(ProbabilityError { max, mean });
            }
            Some(Err(e)) => {
                self.exact_probabilities_error = Some(e.to_string());
                self.probabilities = Some(sampled.rows());
            }
            None => {}
        }
    }
}

/// How a candidate's agreement with the classical solution reads (CLI and window alike): an
/// invalid read that shares under half the open cells is another answer's basin, which a weight
/// change does not turn into this one.
pub fn agreement_sentence(a: &crate::puzzle::Agreement, valid: bool) -> String {
    let far = !valid && 2 * a.same < a.of;
    format!(
        "agrees with the classical solution in {}{}",
        a.text(),
        if far {
            ": far from it, not a near miss but another basin of the landscape"
        } else {
            ""
        }
    )
}

/// How a reference reads in reports.
pub fn reference_text(reference: &Reference<AnySolution>) -> String {
    match reference {
        Reference::Solved(_) => "solved".into(),
        Reference::NoSolution => "no solution".into(),
        Reference::GaveUp { spent } => match spent {
            crate::puzzle::Spent::Nodes(_) => format!("gave up {spent}"),
            crate::puzzle::Spent::Seconds(_) => spent.to_string(),
        },
    }
}

/// The CLI's report of an evaluated run.
pub(super) fn summarise(
    problem: Problem,
    weights: &crate::qubo::Weights,
    outcome: Outcome,
    num_interactions: usize,
    encode_s: f64,
) -> SolveOutcome {
    let puzzle = problem.puzzle;
    let best = outcome.best().map(|(row, verdict)| {
        let score = verdict.decoded.as_ref().and_then(|d| puzzle.score(d));
        Best {
            energy: row.energy,
            valid: verdict.valid == Some(true),
            violations: verdict.violations.clone(),
            solution: verdict
                .decoded
                .as_ref()
                .map(|d| puzzle.solution_to_json(d))
                .unwrap_or_default(),
            solution_line: verdict
                .decoded
                .as_ref()
                .map(|d| puzzle.solution_to_string(d))
                .unwrap_or_default(),
            score: score.map(|s| s.value),
            max_score: score.map(|s| s.max),
            objective: verdict.objective.map(|o| o.value),
            reference_agreement: verdict
                .decoded
                .as_ref()
                .zip(problem.reference.solution())
                .and_then(|(d, known)| puzzle.agreement(d, known)),
            decoded: verdict.decoded.clone(),
        }
    });
    let info = &outcome.samples.info;
    let reference_objective = problem
        .reference
        .solution()
        .and_then(|s| puzzle.objective(s));
    SolveOutcome {
        best_feasible_objective: outcome.best_feasible_objective().map(|o| o.value),
        reference_objective: reference_objective.map(|o| o.value),
        optimal_fraction: reference_objective.and_then(|o| outcome.optimal_fraction(o)),
        kind: puzzle.kind().name().into(),
        description: puzzle.describe(),
        weights: weights.iter().map(|(n, v)| (n.to_string(), v)).collect(),
        num_variables: problem.encoding.num_variables(),
        num_interactions,
        sampler: info.sampler.clone(),
        sampler_choice: None,
        params: info.params.clone(),
        timing: Timing {
            encode_s,
            sample_s: outcome.sample_s,
        },
        num_reads: outcome.num_reads(),
        cancelled: info.cancelled,
        run: outcome.samples.report(),
        min_energy: outcome.min_energy(),
        ground_energy: outcome.ground_energy,
        ground_unknown: outcome.ground_unknown.clone(),
        ground_fraction: outcome.ground_fraction(),
        success_fraction: outcome.success_fraction().unwrap_or(0.0),
        tts99_s: outcome.tts99_s(),
        reference: reference_text(problem.reference),
        best,
        warnings: info.warnings.clone(),
        sampler_details: info.details.clone(),
        probabilities: None,
        sampled_probabilities: None,
        probability_error: None,
        exact_probabilities_error: None,
        rounds: None,
        cuts: None,
        repaired: None,
        repair_step: None,
        outcome,
    }
}

/// A valid candidate as a `Best`.
pub(super) fn best_of(puzzle: &AnyPuzzle, energy: f64, solution: &AnySolution) -> Best {
    let score = puzzle.score(solution);
    Best {
        energy,
        valid: true,
        violations: Vec::new(),
        solution: puzzle.solution_to_json(solution),
        solution_line: puzzle.solution_to_string(solution),
        score: score.map(|s| s.value),
        max_score: score.map(|s| s.max),
        objective: puzzle.objective(solution).map(|o| o.value),
        reference_agreement: None,
        decoded: Some(solution.clone()),
    }
}
