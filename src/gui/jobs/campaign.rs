//! A small campaign started from the window (`CampaignForm`): puzzles generated like the open
//! one, swept on the sweep panel's axis with the solver panel's sampler, through
//! `campaign::run` — the command line's path, so the folder resumes from either.

use super::*;
use crate::campaign::{CampaignRow, CampaignSettings, Folder, Instance, Plan};

/// What a campaign thread reports.
pub enum CampaignMessage {
    /// One finished point (already in the journal).
    Row(Box<CampaignRow>),
    /// The end: the table's path, or why there is none. A cancelled campaign ends with its
    /// table so far.
    Done(Result<std::path::PathBuf, String>),
}

/// What a campaign measures.
pub struct CampaignRequest {
    /// The kind and its generator's parameters (the puzzle panel's form).
    pub kind: crate::puzzle::Kind,
    /// Those parameters; the seed counts up from the form's.
    pub generator: crate::params::ParamValues,
    /// Instances to generate.
    pub count: usize,
    /// The campaign's folder.
    pub folder: std::path::PathBuf,
    /// The sampler (its name and parameters, the sweep's reads included).
    pub sampler: String,
    /// Its parameters.
    pub sampler_params: crate::params::ParamValues,
    /// The swept axis, whether it is a sampler parameter, and its values.
    pub axis: String,
    /// Whether the axis is a sampler parameter.
    pub axis_is_param: bool,
    /// Its values.
    pub values: Vec<f64>,
    /// Most runs per point.
    pub repeats: usize,
    /// What points are judged by.
    pub metric: sweep::Metric,
    /// When a point stops.
    pub stop: sweep::StopRule,
    /// Whether instances are presolved.
    pub presolve: bool,
}

/// A campaign on its own thread.
pub struct CampaignJob {
    /// Points asked for (instances × values).
    pub total: usize,
    /// Its rows as they finish.
    pub stream: StreamJob<CampaignMessage>,
}

impl std::ops::Deref for CampaignJob {
    type Target = StreamJob<CampaignMessage>;
    fn deref(&self) -> &Self::Target {
        &self.stream
    }
}

impl CampaignJob {
    /// Generates the instances into the folder, measures what its journal lacks, then writes
    /// the table and plots.
    pub fn start(request: CampaignRequest, repaint: impl Fn() + Send + 'static) -> Self {
        let total = request.count * request.values.len();
        let work = move |control: &RunControl, send: &dyn Fn(CampaignMessage)| {
            let result = run_campaign(&request, control, send);
            send(CampaignMessage::Done(result));
        };
        let died = || CampaignMessage::Done(Err("the campaign thread stopped unexpectedly".into()));
        CampaignJob {
            total,
            stream: StreamJob::start(RunControl::new(), died, work, repaint),
        }
    }
}

fn run_campaign(
    r: &CampaignRequest,
    control: &RunControl,
    send: &dyn Fn(CampaignMessage),
) -> Result<std::path::PathBuf, String> {
    let text = |e: crate::campaign::CampaignError| e.to_string();
    let settings = CampaignSettings {
        axis: r.axis.clone(),
        axis_is_param: r.axis_is_param,
        values: r.values.clone(),
        repeats: r.repeats,
        stop: r.stop,
    };
    let folder = Folder::open(&r.folder, &settings).map_err(text)?;
    let generating = crate::puzzle::GenerateControl::new();
    let instances: Vec<Instance> =
        crate::campaign::generated_instances(r.kind, &r.generator, r.count, &r.folder, &generating)
            .map_err(text)?;
    let axis = if r.axis_is_param {
        sweep::Axis::Param(&r.axis)
    } else {
        sweep::Axis::Weight(&r.axis)
    };
    let plan = Plan {
        instances: &instances,
        samplers: std::slice::from_ref(&r.sampler),
        axis,
        values: &r.values,
        repeats: r.repeats,
        metric: r.metric,
        stop: r.stop,
        presolve: &|_| r.presolve,
    };
    let build = |name: &str, _: Problem, _: &Weights| {
        crate::samplers::sampler_from_params(name, &r.sampler_params)
    };
    crate::campaign::run(&plan, &folder, build, control, |_, row| {
        send(CampaignMessage::Row(Box::new(row.clone())));
    })
    .map_err(text)?;
    let rows = folder.write_table().map_err(text)?;
    for (name, drawing) in crate::campaign::plots(&rows, &r.axis, r.metric) {
        let path = r.folder.join(name);
        crate::render::image::export(&drawing, &path, 1.0)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(r.folder.join("campaign.json"))
}
