//! How a sweep and a tuning search measure — steps, runs per point, the plotted metric, the
//! search's time — described once as `ParamSpec`s. The CLI's flags, the window's widgets, the
//! validation and the saved settings all read these descriptions (they once disagreed: the
//! window offered 200 steps and 100 runs where the command line took 1000 of each).

use serde::{Deserialize, Serialize};

use super::{MAX_REPEATS, MAX_SWEEP_STEPS, Metric};
use crate::params::{ParamDefault, ParamError, ParamSpec, ParamType, ParamValues};

/// What a sweep measures at each point besides the weights: how many values each axis takes,
/// how many runs a point may make, and what the plot and "best" are judged by.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SweepSetup {
    /// Values of the swept weight.
    pub steps: usize,
    /// Values of the second weight (with one).
    pub steps2: usize,
    /// Most runs per point, each with its own seed.
    pub repeats: usize,
    /// What the plot, the heatmap and "best by" show.
    pub metric: Metric,
}

impl Default for SweepSetup {
    fn default() -> Self {
        SweepSetup {
            steps: 9,
            steps2: 5,
            repeats: 8,
            metric: Metric::Valid,
        }
    }
}

/// The metric words, as `Metric::ALL` names them.
const METRIC_NAMES: &[&str] = &["tts99", "tts99_sweeps", "valid", "weak", "objective"];

impl SweepSetup {
    /// The settings described once (names as in JSON and the saved settings; flags
    /// `--steps`, `--steps2`, `--repeats`, `--metric`).
    pub const PARAMS: [ParamSpec; 4] = [
        ParamSpec {
            name: "steps",
            ty: ParamType::Int {
                min: 1,
                max: MAX_SWEEP_STEPS as u64,
            },
            default: ParamDefault::Int(9),
            help: "values of the swept weight, evenly spaced from the first to the last",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "steps2",
            ty: ParamType::Int {
                min: 1,
                max: MAX_SWEEP_STEPS as u64,
            },
            default: ParamDefault::Int(5),
            help: "values of the second weight (with a second weight: every pair is a point)",
            alias: None,
            exposed: true,
        },
        repeats(
            8,
            "most runs per point, each with its own seed; the reads are pooled and a point \
             stops as soon as its answer is settled",
        ),
        ParamSpec {
            name: "metric",
            ty: ParamType::Choice(METRIC_NAMES),
            default: ParamDefault::Word("valid"),
            help: "what the plot (one axis), the heatmap (two) and \"best by\" show: tts99, \
                   tts99_sweeps (the same in the sampler's sweeps, for sweeps over num_sweeps), \
                   valid, weak (penalty too weak) or objective (constrained models: the best \
                   feasible objective above the feasible share, the trade-off a weight buys)",
            alias: None,
            exposed: true,
        },
    ];

    /// The setup as parameter values (`PARAMS`' names).
    pub fn values(&self) -> ParamValues {
        crate::params::values_of(self)
    }

    /// The setup from parameter values, checked against `PARAMS` (missing ones: defaults).
    pub fn from_values(values: &ParamValues) -> Result<SweepSetup, ParamError> {
        crate::params::checked_from(&Self::PARAMS, values)
    }
}

/// How long `tune`'s search ("Suggest weights") may take, and its runs per point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TuneSetup {
    /// Seconds the whole search may take (it stops after the point running then).
    pub budget: f64,
    /// Most runs per point, each with its own seed.
    pub repeats: usize,
}

impl Default for TuneSetup {
    fn default() -> Self {
        TuneSetup {
            budget: 60.0,
            repeats: 4,
        }
    }
}

impl TuneSetup {
    /// The settings described once (flags `--budget`, `--repeats`).
    pub const PARAMS: [ParamSpec; 2] = [
        ParamSpec {
            name: "budget",
            ty: ParamType::Float {
                min: 0.1,
                max: 86_400.0,
            },
            default: ParamDefault::Float(60.0),
            help: "seconds the search may take (it stops after the point running then)",
            alias: None,
            exposed: true,
        },
        repeats(
            4,
            "most runs per point, each with its own seed; a point stops as soon as its answer \
             is settled",
        ),
    ];

    /// The setup as parameter values (`PARAMS`' names).
    pub fn values(&self) -> ParamValues {
        crate::params::values_of(self)
    }

    /// The setup from parameter values, checked against `PARAMS` (missing ones: defaults).
    pub fn from_values(values: &ParamValues) -> Result<TuneSetup, ParamError> {
        crate::params::checked_from(&Self::PARAMS, values)
    }
}

/// `repeats`, as a sweep and a search both take it (each with its own default).
const fn repeats(default: u64, help: &'static str) -> ParamSpec {
    ParamSpec {
        name: "repeats",
        ty: ParamType::Int {
            min: 1,
            max: MAX_REPEATS as u64,
        },
        default: ParamDefault::Int(default),
        help,
        alias: None,
        exposed: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_descriptions_and_the_structs_agree() {
        // Defaults: the struct's and the description's are one.
        assert_eq!(
            SweepSetup::from_values(&ParamValues::new()).unwrap(),
            SweepSetup::default()
        );
        assert_eq!(
            TuneSetup::from_values(&ParamValues::new()).unwrap(),
            TuneSetup::default()
        );
        // Every field round-trips through its values, and every value has a description.
        let setup = SweepSetup {
            steps: 3,
            steps2: 7,
            repeats: 2,
            metric: Metric::Tts99,
        };
        let values = setup.values();
        assert_eq!(values.len(), SweepSetup::PARAMS.len());
        assert_eq!(SweepSetup::from_values(&values).unwrap(), setup);
        assert_eq!(
            METRIC_NAMES,
            Metric::ALL.map(Metric::name).as_slice(),
            "the metric words are Metric's"
        );
        // Out of range is refused by the description, naming the parameter.
        let mut bad = values.clone();
        bad.insert("steps".into(), 1001.into());
        let e = SweepSetup::from_values(&bad).unwrap_err().to_string();
        assert!(e.contains("steps"), "{e}");
        let mut bad = TuneSetup::default().values();
        bad.insert("budget".into(), 0.0.into());
        assert!(TuneSetup::from_values(&bad).is_err());
    }
}
