//! Settings kept between runs (eframe storage): the chosen sampler and every sampler's
//! parameters by name, the inspector view, sweep set-up, recent files. Runtime state lives in
//! the panels, not here.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::heatmap::Order;
use crate::params::ParamValues;

/// Recent files remembered.
pub const RECENT_LIMIT: usize = 10;
/// Generated instances remembered.
pub const RECENT_GENERATED_LIMIT: usize = 8;
/// Largest text of a generated instance kept in the settings (a full Eternity II is ~10 KB).
const RECENT_GENERATED_MAX_BYTES: usize = 256 * 1024;

/// A generated instance, kept so it can be opened again (generators that search can take a
/// while, and a designer compares what they made).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneratedEntry {
    /// The kind's name.
    pub kind: String,
    /// The instance's one-line summary.
    pub description: String,
    /// The parameters it was made with, in words (`seed 3 · difficulty hard`).
    pub params: String,
    /// The instance in the kind's text form.
    pub text: String,
}

/// What persists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Chosen sampler (a name in `sampler::SAMPLERS`, or `sampler::AUTO`).
    pub sampler: String,
    /// Each sampler's parameters as last set, by sampler name (missing ones: defaults).
    pub sampler_params: BTreeMap<String, ParamValues>,
    /// Heatmap ordering.
    pub order: Order,
    /// Heatmap log scale.
    pub log_scale: bool,
    /// Sweep set-up.
    pub sweep: SweepSettings,
    /// Recent files, newest first.
    pub recent: Vec<PathBuf>,
    /// Recently generated instances, newest first.
    pub recent_generated: Vec<GeneratedEntry>,
    /// A remote job submitted and not yet read back (kept so that closing the window does not
    /// lose it: the solver panel offers to resume or cancel it). Never holds a token.
    pub pending_remote_job: Option<crate::sampler::RemoteJob>,
    /// Use the workbench's own file form instead of the desktop's file dialog.
    pub builtin_file_dialog: bool,
    /// Export image… choices, by kind name (each kind keeps its own).
    pub pictures: BTreeMap<String, PictureSettings>,
    /// Runs kept per document for comparison (the oldest unpinned goes first).
    pub run_history_limit: usize,
}

/// What Export image… writes for one kind: the content and the size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PictureSettings {
    /// What the picture shows.
    pub content: crate::puzzle::picture::PictureOptions,
    /// Sized by a width in pixels (else by a scale factor).
    pub by_width: bool,
    /// The width in pixels, when `by_width`.
    pub width_px: u32,
    /// A multiple of the default size, when not `by_width`.
    pub scale: f32,
    /// Dots per inch written into a PNG (`None`: no chunk).
    pub dpi: Option<u32>,
}

impl Default for PictureSettings {
    fn default() -> Self {
        PictureSettings {
            content: Default::default(),
            by_width: false,
            width_px: 2000,
            scale: 1.0,
            dpi: None,
        }
    }
}

impl PictureSettings {
    /// The size and resolution to write at (out-of-range values from an edited settings file
    /// are brought into range).
    pub fn export_options(&self) -> crate::render::image::ExportOptions {
        use crate::render::image::{ExportOptions, ImageSize, MAX_IMAGE_SIDE};
        ExportOptions {
            size: if self.by_width {
                ImageSize::Width(self.width_px.clamp(1, MAX_IMAGE_SIDE))
            } else if self.scale.is_finite() {
                ImageSize::Scale(self.scale.clamp(0.05, 100.0))
            } else {
                ImageSize::Scale(1.0)
            },
            dpi: self.dpi.map(|d| d.clamp(1, 100_000)),
        }
    }
}

/// The sweep panel's set-up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SweepSettings {
    /// The weight to sweep (empty: the kind's default sweep weight).
    pub weight: String,
    /// A sampler parameter to sweep instead (empty: the weight): a parameter of the solver
    /// panel's sampler.
    pub param: String,
    /// Geometric steps (a parameter counted in decades, as sweeps are).
    pub log: bool,
    /// First value.
    pub from: f64,
    /// Last value.
    pub to: f64,
    /// Reads per run (0: the solver panel's).
    pub num_reads: usize,
    /// A second weight (empty: one-weight sweep); every pair of values is a point.
    pub weight2: String,
    /// A second sampler parameter instead (empty: the second weight).
    pub param2: String,
    /// Geometric steps on the second axis.
    pub log2: bool,
    /// Its first value.
    pub from2: f64,
    /// Its last value.
    pub to2: f64,
    /// Steps, runs per point and the plotted metric (described by `SweepSetup::PARAMS`; kept
    /// under their own names, as the command line's flags).
    #[serde(flatten)]
    pub setup: crate::sweep::SweepSetup,
    /// When a point stops before its last run.
    pub stop: crate::sweep::StopRule,
    /// "Suggest weights": its time and runs per point (`TuneSetup::PARAMS`).
    pub tune: crate::sweep::TuneSetup,
}

impl Default for SweepSettings {
    fn default() -> Self {
        SweepSettings {
            weight: String::new(),
            param: String::new(),
            log: false,
            from: 0.0,
            to: 4.0,
            num_reads: 0,
            weight2: String::new(),
            param2: String::new(),
            log2: false,
            from2: 0.5,
            to2: 2.0,
            setup: crate::sweep::SweepSetup::default(),
            stop: crate::sweep::StopRule::default(),
            tune: crate::sweep::TuneSetup::default(),
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            sampler: crate::samplers::AUTO.into(),
            sampler_params: BTreeMap::new(),
            order: Order::Index,
            log_scale: false,
            sweep: SweepSettings::default(),
            recent: Vec::new(),
            recent_generated: Vec::new(),
            pending_remote_job: None,
            builtin_file_dialog: false,
            pictures: BTreeMap::new(),
            run_history_limit: super::runs::DEFAULT_RUN_HISTORY_LIMIT,
        }
    }
}

impl Settings {
    /// Puts `path` first in the recent files.
    pub fn remember(&mut self, path: PathBuf) {
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
    }

    /// Puts a generated instance first among the recent ones (a very large one is not kept).
    pub fn remember_generated(&mut self, entry: GeneratedEntry) {
        if entry.text.len() > RECENT_GENERATED_MAX_BYTES {
            return;
        }
        self.recent_generated.retain(|e| e.text != entry.text);
        self.recent_generated.insert(0, entry);
        self.recent_generated.truncate(RECENT_GENERATED_LIMIT);
    }

    /// Settings read back from storage, made safe to use: a stored file may be old, edited or
    /// damaged. Unknown samplers fall back to the default, parameters their sampler refuses are
    /// dropped (so the defaults apply), sweep numbers are brought into range and the recent list
    /// is cut to its limit.
    pub fn sanitized(mut self) -> Settings {
        let defaults = Settings::default();
        if self.sampler != crate::samplers::AUTO && crate::samplers::entry(&self.sampler).is_err() {
            self.sampler = defaults.sampler.clone();
        }
        self.sampler_params.retain(|name, values| {
            crate::samplers::entry(name)
                .is_ok_and(|e| crate::params::validate(e.params, values).is_ok())
        });
        let sw = &mut self.sweep;
        sw.num_reads = sw.num_reads.min(100_000);
        // Each setting checked against its own description; one it refuses goes back to the
        // defaults with the rest of its set.
        sw.setup = crate::sweep::SweepSetup::from_values(&sw.setup.values()).unwrap_or_default();
        sw.tune = crate::sweep::TuneSetup::from_values(&sw.tune.values()).unwrap_or_default();
        if sw.stop.validate().is_err() {
            sw.stop = defaults.sweep.stop;
        }
        // A range the sweep would refuse (not finite, degenerate) goes back to the default.
        let setup = &mut sw.setup;
        if crate::sweep::values(sw.from, sw.to, setup.steps).is_err() {
            (sw.from, sw.to, setup.steps) = (
                defaults.sweep.from,
                defaults.sweep.to,
                defaults.sweep.setup.steps,
            );
        }
        if crate::sweep::values(sw.from2, sw.to2, setup.steps2).is_err() {
            (sw.from2, sw.to2, setup.steps2) = (
                defaults.sweep.from2,
                defaults.sweep.to2,
                defaults.sweep.setup.steps2,
            );
        }
        self.recent.truncate(RECENT_LIMIT);
        self.run_history_limit = self
            .run_history_limit
            .clamp(1, super::runs::MAX_RUN_HISTORY_LIMIT);
        self.recent_generated
            .retain(|e| e.text.len() <= RECENT_GENERATED_MAX_BYTES);
        self.recent_generated.truncate(RECENT_GENERATED_LIMIT);
        if self
            .pending_remote_job
            .as_ref()
            .is_some_and(|j| j.problem_id.is_empty() || crate::samplers::entry(&j.sampler).is_err())
        {
            self.pending_remote_job = None;
        }
        self
    }

    /// A sampler's parameters as last set (for `sampler_from_params`).
    pub fn sampler_params(&self, sampler: &str) -> ParamValues {
        self.sampler_params
            .get(sampler)
            .cloned()
            .unwrap_or_default()
    }

    /// A sampler's parameters, to edit.
    pub fn sampler_params_mut(&mut self, sampler: &str) -> &mut ParamValues {
        self.sampler_params.entry(sampler.to_string()).or_default()
    }
}
