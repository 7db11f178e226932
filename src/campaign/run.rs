//! Running a campaign: every instance × sampler × value the folder's journal does not hold yet,
//! each instance's missing points measured by one `sweep::run`, each finished point journalled
//! the moment it is told. The command line's `campaign` and the window's campaign form both run
//! through here, so a folder started in one resumes in the other.

use super::{CampaignError, CampaignRow, Done, Folder};
use crate::puzzle::{AnyPuzzle, EncodeOptions, REFERENCE_NODE_BUDGET};
use crate::qubo::Weights;
use crate::sampler::{RunControl, Sampler};
use crate::solve::Problem;
use crate::sweep::{Axis, Metric, StopRule};

/// An instance: its name in the table and the puzzle.
pub struct Instance {
    /// The file, and `#k` for the k-th puzzle of a file of several.
    pub name: String,
    /// The puzzle.
    pub puzzle: AnyPuzzle,
}

/// What a campaign measures.
pub struct Plan<'a> {
    /// The instances, in order.
    pub instances: &'a [Instance],
    /// The samplers by name (`auto`: chosen per instance by the builder; its rows carry the
    /// sampler it chose).
    pub samplers: &'a [String],
    /// The swept axis and its values.
    pub axis: Axis<'a>,
    /// Its values.
    pub values: &'a [f64],
    /// Most runs per point.
    pub repeats: usize,
    /// What the points are judged by.
    pub metric: Metric,
    /// When a point stops.
    pub stop: StopRule,
    /// Whether an instance of this kind is presolved.
    pub presolve: &'a dyn Fn(crate::puzzle::Kind) -> bool,
}

/// How many points a run measured, and how many it found in the journal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Points measured now.
    pub measured: usize,
    /// Points already in the journal.
    pub kept: usize,
}

/// Measures what `folder`'s journal lacks; `build` makes the sampler a name stands for, for an
/// instance's problem at its default weights (its error is named with the instance); `on_row`
/// hears each finished point (with its instance's index) after it is journalled. Cancelling
/// `control` stops between points: what finished is kept, and a rerun resumes.
pub fn run<E: std::fmt::Display>(
    plan: &Plan,
    folder: &Folder,
    mut build: impl FnMut(&str, Problem, &Weights) -> Result<Box<dyn Sampler>, E>,
    control: &RunControl,
    mut on_row: impl FnMut(usize, &CampaignRow),
) -> Result<Tally, CampaignError> {
    let done = Done::of(&folder.rows()?);
    let mut tally = Tally::default();
    let at = |instance: &Instance, e: &dyn std::fmt::Display| CampaignError::Instance {
        instance: instance.name.clone(),
        message: e.to_string(),
    };
    for (k, inst) in plan.instances.iter().enumerate() {
        if control.is_cancelled() {
            break;
        }
        // A named sampler's finished instance is skipped before its model is built.
        let pending: Vec<&String> = plan
            .samplers
            .iter()
            .filter(|name| {
                *name == crate::samplers::AUTO
                    || !plan
                        .values
                        .iter()
                        .all(|&v| done.contains(&inst.name, name, v))
            })
            .collect();
        tally.kept += (plan.samplers.len() - pending.len()) * plan.values.len();
        if pending.is_empty() {
            continue;
        }
        let options = EncodeOptions {
            presolve: (plan.presolve)(inst.puzzle.kind()),
            ..Default::default()
        };
        let encoding = inst.puzzle.encode(&options).map_err(|e| at(inst, &e))?;
        let base = encoding.default_weights();
        let reference = inst.puzzle.solve_classically(REFERENCE_NODE_BUDGET);
        let problem = Problem {
            puzzle: &inst.puzzle,
            encoding: &encoding,
            reference: &reference,
        };
        for name in pending {
            if control.is_cancelled() {
                break;
            }
            let sampler = build(name, problem, &base).map_err(|e| at(inst, &e))?;
            let todo: Vec<f64> = plan
                .values
                .iter()
                .copied()
                .filter(|&v| !done.contains(&inst.name, sampler.name(), v))
                .collect();
            tally.kept += plan.values.len() - todo.len();
            if todo.is_empty() {
                continue;
            }
            let spec = crate::sweep::SweepSpec {
                problem,
                base: &base,
                axis: plan.axis,
                values: &todo,
                second: None,
                repeats: plan.repeats,
                stop: plan.stop,
                metric: plan.metric,
            };
            let mut failed = None;
            crate::sweep::run(&spec, sampler.as_ref(), control, |p| {
                let row = CampaignRow {
                    instance: inst.name.clone(),
                    sampler: sampler.name().to_string(),
                    num_variables: encoding.num_variables(),
                    point: p.clone(),
                };
                match folder.append(&row) {
                    Ok(()) => {
                        tally.measured += 1;
                        on_row(k, &row);
                    }
                    Err(e) => {
                        failed.get_or_insert(e);
                        control.cancel();
                    }
                }
            })
            .map_err(|e| at(inst, &e))?;
            if let Some(e) = failed {
                return Err(e);
            }
        }
    }
    Ok(tally)
}

/// `count` instances of `kind` from its generator's `params`, seeds `seed`, `seed` + 1, … (the
/// form's seed, else 1), each written to `dir/instances/` so the campaign can be rerun and
/// resumed from the command line (`campaign DIR/instances --out DIR`). The same parameters
/// always give the same instances, so a resumed campaign finds its journal's names again.
pub fn generated_instances(
    kind: crate::puzzle::Kind,
    params: &crate::params::ParamValues,
    count: usize,
    dir: &std::path::Path,
    control: &crate::puzzle::GenerateControl,
) -> Result<Vec<Instance>, CampaignError> {
    let folder = dir.join("instances");
    std::fs::create_dir_all(&folder).map_err(|e| CampaignError::File {
        path: folder.display().to_string(),
        message: e.to_string(),
    })?;
    let has_seed = kind.generator_params().iter().any(|p| p.name == "seed");
    let first = params
        .get("seed")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(1);
    let extension = match kind {
        crate::puzzle::Kind::Constrained => "lp",
        _ => "txt",
    };
    let mut out = Vec::with_capacity(count);
    for k in 0..count as u64 {
        let mut asked = params.clone();
        if has_seed {
            asked.insert("seed".into(), (first + k).into());
        }
        let name = format!("{}-{}.{extension}", kind.name(), first + k);
        let path = folder.join(&name);
        let puzzle = kind
            .generate_with(&asked, control)
            .map_err(|e| CampaignError::Instance {
                instance: name.clone(),
                message: e.to_string(),
            })?;
        crate::io::write_atomic(&path, puzzle.to_text().as_bytes()).map_err(|e| {
            CampaignError::File {
                path: path.display().to_string(),
                message: e.to_string(),
            }
        })?;
        out.push(Instance {
            name: path.display().to_string(),
            puzzle,
        });
        if !has_seed {
            break;
        }
    }
    Ok(out)
}
