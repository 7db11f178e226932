//! The overlay of runs' energy histograms: shared bins, heights (reads or shares), the energy
//! axis (absolute, or above each run's ground), as a chart for the window and the files.

use super::*;

/// What the overlay's bars count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Heights {
    /// Reads.
    #[default]
    Counts,
    /// Each run's share of its reads (runs of different sizes compare).
    Shares,
}

/// Shared bins over every run's energies: one per distinct energy when there are at most 60
/// in all (puzzle energies are few and exact), else 40 equal bins; (centres, width).
pub(super) fn shared_bins(runs: &[&RunSummary]) -> (Vec<f64>, f64) {
    let mut all: Vec<f64> = runs
        .iter()
        .flat_map(|r| r.energies.iter().map(|e| e.energy))
        .collect();
    all.sort_by(f64::total_cmp);
    all.dedup();
    match all.len() {
        0 => (Vec::new(), 1.0),
        1 => (all, 1.0),
        n if n <= 60 => {
            let gap = all
                .windows(2)
                .map(|w| w[1] - w[0])
                .fold(f64::INFINITY, f64::min)
                .max(1e-9);
            (all, gap)
        }
        _ => {
            let (lo, hi) = (all[0], all[all.len() - 1]);
            let w = (hi - lo) / 40.0;
            ((0..40).map(|k| lo + w * (k as f64 + 0.5)).collect(), w)
        }
    }
}

/// Where the overlay's energy axis is measured from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EnergyAxis {
    /// The energies as sampled: one scale only for runs of one model.
    #[default]
    Absolute,
    /// Energy above each run's own ground energy (its lowest read where the ground is
    /// unknown): runs of different models — other weights, another puzzle — side by side
    /// without pretending their energies share a scale.
    AboveGround,
}

impl EnergyAxis {
    /// The axis that cannot mislead for these runs: absolute for one model, else above each
    /// run's ground.
    pub fn for_runs(runs: &[&RunSummary]) -> Self {
        if distinct_models(runs) > 1 {
            EnergyAxis::AboveGround
        } else {
            EnergyAxis::Absolute
        }
    }
}

/// How many different models the runs were sampled from: by fingerprint where both runs have
/// one, else by their variables and weights.
pub fn distinct_models(runs: &[&RunSummary]) -> usize {
    let mut seen: Vec<&RunSummary> = Vec::new();
    for r in runs {
        let same = |o: &&RunSummary| match (&o.model_fingerprint, &r.model_fingerprint) {
            (Some(a), Some(b)) => a == b,
            _ => o.num_variables == r.num_variables && o.weights == r.weights,
        };
        if !seen.iter().any(same) {
            seen.push(r);
        }
    }
    seen.len()
}

/// The overlay of the runs' energy histograms on shared bins, one colour per run, the ground
/// energy marked (when the runs know it), on `axis`.
pub fn overlay(
    runs: &[&RunSummary],
    heights: Heights,
    axis: EnergyAxis,
    description: &str,
) -> Drawing {
    overlay_chart(runs, heights, axis, description).drawing()
}

/// The overlay as a chart (`overlay` draws it; the window also asks it which bin is under
/// the pointer).
pub fn overlay_chart(
    runs: &[&RunSummary],
    heights: Heights,
    axis: EnergyAxis,
    description: &str,
) -> GroupedHistogram {
    if axis == EnergyAxis::AboveGround {
        // Each run moved so its own ground (else its lowest read) sits at 0.
        let shifted: Vec<RunSummary> = runs
            .iter()
            .map(|r| {
                let zero = r.ground_energy.or(r.min_energy).unwrap_or(0.0);
                let mut r = (*r).clone();
                for e in &mut r.energies {
                    e.energy -= zero;
                }
                r.min_energy = r.min_energy.map(|m| m - zero);
                r.ground_energy = Some(0.0);
                r
            })
            .collect();
        let refs: Vec<&RunSummary> = shifted.iter().collect();
        return histogram_of(&refs, heights, axis, description);
    }
    histogram_of(runs, heights, axis, description)
}

pub(super) fn histogram_of(
    runs: &[&RunSummary],
    heights: Heights,
    axis: EnergyAxis,
    description: &str,
) -> GroupedHistogram {
    let (centres, width) = shared_bins(runs);
    let bin_of = |e: f64| -> usize {
        // Nearest centre (centres are ascending).
        match centres.binary_search_by(|c| c.total_cmp(&e)) {
            Ok(k) => k,
            Err(0) => 0,
            Err(k) if k >= centres.len() => centres.len() - 1,
            Err(k) => {
                if e - centres[k - 1] <= centres[k] - e {
                    k - 1
                } else {
                    k
                }
            }
        }
    };
    let series = runs
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let mut h = vec![[0.0; 2]; centres.len()];
            let scale = match heights {
                Heights::Counts => 1.0,
                Heights::Shares => 1.0 / r.reads.max(1) as f64,
            };
            for e in &r.energies {
                let b = bin_of(e.energy);
                // Unrefereed reads are neither valid nor not: drawn in the run's full colour.
                let (valid, other) = if r.refereed {
                    (e.valid, e.other)
                } else {
                    (e.valid + e.other, 0)
                };
                h[b][0] += valid as f64 * scale;
                h[b][1] += other as f64 * scale;
            }
            (r.name.clone(), colors::series(k), h)
        })
        .collect();
    let ground = runs.iter().find_map(|r| r.ground_energy);
    let title = if description.is_empty() {
        format!("Energies of {} runs", runs.len())
    } else {
        format!("Energies of {} runs — {description}", runs.len())
    };
    let (x_label, ground_label) = match axis {
        EnergyAxis::Absolute => ("energy", "ground"),
        EnergyAxis::AboveGround => (
            "energy above the run's own ground (its lowest read where unknown)",
            "each run's ground",
        ),
    };
    GroupedHistogram {
        title,
        x_label: x_label.into(),
        y_label: match heights {
            Heights::Counts => "reads".into(),
            Heights::Shares => "share of the run's reads".into(),
        },
        centres,
        bin_width: width,
        series,
        marks: ground
            .map(|g| vec![(ground_label.to_string(), g, colors::VALID)])
            .unwrap_or_default(),
        has_valid: runs.iter().any(|r| r.refereed),
    }
}
