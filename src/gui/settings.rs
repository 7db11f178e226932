//! Settings kept between runs (eframe storage): sampler parameters, inspector view, sweep
//! set-up, recent files. Runtime state lives in the panels, not here.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::heatmap::Order;
use crate::sampler::{ExactSolver, SimulatedAnnealing};

/// Recent files remembered.
pub const RECENT_LIMIT: usize = 10;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Chosen sampler (one of `sampler::SAMPLER_NAMES`).
    pub sampler: String,
    pub sa: SimulatedAnnealing,
    pub exact: ExactSolver,
    pub order: Order,
    pub log_scale: bool,
    pub sweep: SweepSettings,
    pub recent: Vec<PathBuf>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SweepSettings {
    pub weight: String,
    pub from: f64,
    pub to: f64,
    pub steps: usize,
    pub num_reads: usize,
}

impl Default for SweepSettings {
    fn default() -> Self {
        SweepSettings {
            weight: "hint".into(),
            from: 0.0,
            to: 4.0,
            steps: 9,
            num_reads: 100,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            sampler: "sa".into(),
            sa: SimulatedAnnealing::default(),
            exact: ExactSolver::default(),
            order: Order::Index,
            log_scale: false,
            sweep: SweepSettings::default(),
            recent: Vec::new(),
        }
    }
}

impl Settings {
    pub fn remember(&mut self, path: PathBuf) {
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
    }

    /// The chosen sampler's parameters as JSON (for `sampler_from_params`).
    pub fn sampler_params(&self) -> serde_json::Value {
        match self.sampler.as_str() {
            "exact" => serde_json::to_value(&self.exact),
            _ => serde_json::to_value(&self.sa),
        }
        .unwrap_or_default()
    }
}
