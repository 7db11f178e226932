//! `campaign`: one sweep axis over many instances, journalled point by point so a rerun
//! resumes, written as one table with its plots (`crate::campaign`).

use std::path::{Path, PathBuf};

use serde_json::json;

use super::args::{CampaignArgs, build_one_of};
use super::output::{control_with_progress, print_json};
use super::tuning_cmds::{axis_values, campaign_settings, sampler_for};
use super::{Failure, usage};
use crate::campaign::{CampaignRow, CampaignSettings, Folder, Instance};
use crate::solve::Problem;
use crate::sweep::Axis;

/// Most instances one campaign takes (each is a sweep of its own).
const MAX_INSTANCES: usize = 100_000;

/// Every instance the arguments name: files, every file of a folder (sorted), every puzzle of a
/// file of several (`FILE#k`, at most `limit` of them). A puzzle whose givens conflict is said
/// and left out.
fn instances(paths: &[PathBuf], limit: Option<u64>) -> Result<Vec<Instance>, Failure> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| Failure::from(format!("{}: {e}", path.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && !p
                            .file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with('.'))
                })
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    let mut out = Vec::new();
    for file in &files {
        let loaded = crate::puzzle::load_puzzles(file, None)?;
        let several = loaded.len() > 1;
        let take = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
        for (k, l) in loaded.into_iter().enumerate().take(take) {
            if let Some(c) = l.puzzle.conflicts().first() {
                eprintln!("{}: left out: the givens conflict: {}", l.origin, c.detail);
                continue;
            }
            let name = if several {
                format!("{}#{}", file.display(), k + 1)
            } else {
                file.display().to_string()
            };
            out.push(Instance {
                name,
                puzzle: l.puzzle,
            });
            if out.len() > MAX_INSTANCES {
                return Err(usage(format!(
                    "more than {MAX_INSTANCES} instances: split the campaign"
                )));
            }
        }
    }
    if out.is_empty() {
        return Err(usage("no instance to sweep: every one was left out"));
    }
    Ok(out)
}

/// The campaign's samplers: those --samplers lists (each named once, every sampler flag some
/// one's), or --sampler alone (`auto` included).
fn samplers_named(a: &CampaignArgs) -> Result<Vec<String>, Failure> {
    if a.samplers.is_empty() {
        return Ok(vec![a.sampler.sampler.clone()]);
    }
    let list = a.samplers.join(", ");
    let mut lacked_by_all: Option<Vec<String>> = None;
    for (k, name) in a.samplers.iter().enumerate() {
        if name == crate::samplers::AUTO {
            return Err(usage(
                "--samplers auto: auto chooses per model, so its rows would mix samplers; name \
                 each sampler",
            ));
        }
        if a.samplers[..k].contains(name) {
            return Err(usage(format!("--samplers {list}: {name} is listed twice")));
        }
        let (_, lacked) = build_one_of(&a.sampler, name)?;
        lacked_by_all = Some(match lacked_by_all {
            None => lacked,
            Some(before) => before.into_iter().filter(|f| lacked.contains(f)).collect(),
        });
    }
    if let Some(flag) = lacked_by_all.unwrap_or_default().first() {
        return Err(usage(format!("{flag}: none of {list} has this parameter")));
    }
    Ok(a.samplers.clone())
}

/// The swept values: the same for every sampler (a parameter axis must mean the same values
/// to each).
fn values_for_all(a: &CampaignArgs, names: &[String], steps: usize) -> Result<Vec<f64>, Failure> {
    let axis = a.axis.axis();
    let mut values: Option<Vec<f64>> = None;
    for name in names {
        if matches!(axis, Axis::Param(_)) && name == crate::samplers::AUTO {
            return Err(usage(
                "--sampler-param sweeps a parameter of one sampler: name it with --sampler",
            ));
        }
        let own = axis_values(&a.axis.flags(steps), name, &[])?;
        match &values {
            Some(first) if *first != own => {
                return Err(usage(format!(
                    "{}: its values differ between {} and {name}: sweep them in two campaigns",
                    axis.name(),
                    names[0]
                )));
            }
            Some(_) => {}
            None => values = Some(own),
        }
    }
    Ok(values.unwrap_or_default())
}

/// `campaign INSTANCES… --out DIR --sampler-param NAME …`.
pub(super) fn campaign(a: CampaignArgs) -> Result<i32, Failure> {
    a.pictures.image.export_options().map_err(usage)?;
    let (setup, stop) = campaign_settings(&a.settings, a.no_early_stop)?;
    let axis = a.axis.axis();
    let names = samplers_named(&a)?;
    let values = values_for_all(&a, &names, setup.steps)?;
    let instances = instances(&a.instances, a.limit)?;
    let settings = CampaignSettings {
        axis: axis.name().to_string(),
        axis_is_param: matches!(axis, Axis::Param(_)),
        values: values.clone(),
        repeats: setup.repeats,
        stop,
    };
    let folder = Folder::open(&a.out, &settings).map_err(|e| Failure::from(e.to_string()))?;
    let (control, bar) = control_with_progress(super::args::threads(&a.sampler)?, "campaign", None);
    let say = |line: String| match &bar {
        Some(b) => b.println(line),
        None => eprintln!("{line}"),
    };
    let plan = crate::campaign::Plan {
        instances: &instances,
        samplers: &names,
        axis,
        values: &values,
        repeats: setup.repeats,
        metric: setup.metric,
        stop,
        presolve: &|kind| a.presolve.on_for(kind),
    };
    // Listed samplers are built by name (flags another of the list has are theirs); --sampler
    // alone as every command builds it (auto included, its other samplers' flags ignored).
    let listed = !a.samplers.is_empty();
    let build = |name: &str, problem: Problem, base: &crate::qubo::Weights| {
        let built = if listed {
            build_one_of(&a.sampler, name).map(|(s, _)| s)
        } else {
            sampler_for(
                &a.sampler,
                problem.puzzle,
                problem.encoding,
                base,
                problem.reference,
            )
            .map(|(s, _)| s)
        };
        built.map_err(|f| f.message)
    };
    let tally = crate::campaign::run(&plan, &folder, build, &control, |k, row| {
        let p = &row.point;
        say(format!(
            "instance {}/{} {} ({}): {}={} valid {:.1} %{}",
            k + 1,
            instances.len(),
            row.instance,
            row.sampler,
            axis.name(),
            crate::io::number_text(p.value),
            100.0 * p.success_fraction,
            p.tts99_s
                .map_or(String::new(), |t| format!(", TTS99 {t:.3e} s"))
        ));
    })
    .map_err(|e| Failure::from(e.to_string()))?;
    let (measured, kept) = (tally.measured, tally.kept);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let rows = folder
        .write_table()
        .map_err(|e| Failure::from(e.to_string()))?;
    let plots = write_plots(&a, &rows, axis.name(), setup.metric)?;
    let cancelled = control.is_cancelled();
    if a.json {
        print_json(&json!({
            "folder": a.out,
            "instances": instances.len(),
            "values": values,
            "rows": rows.len(),
            "measured": measured,
            "kept_from_journal": kept,
            "cancelled": cancelled,
            "table": [a.out.join("campaign.csv"), a.out.join("campaign.json")],
            "plots": plots,
            "optima": crate::campaign::optima(&rows, setup.metric)
                .into_iter()
                .map(|(s, n, t)| json!({"sampler": s, "num_variables": n, "tts99": t}))
                .collect::<Vec<_>>(),
        }))?;
    } else {
        println!(
            "{} rows in {} ({measured} measured now, {kept} kept from the journal){}",
            rows.len(),
            a.out.join("campaign.csv").display(),
            if cancelled {
                "; cancelled: rerun to resume"
            } else {
                ""
            }
        );
        for p in &plots {
            println!("plot: {}", p.display());
        }
    }
    Ok(if cancelled { 130 } else { 0 })
}

/// The TTS99 and scaling plots, into the campaign's folder.
fn write_plots(
    a: &CampaignArgs,
    rows: &[CampaignRow],
    axis: &str,
    metric: crate::sweep::Metric,
) -> Result<Vec<PathBuf>, Failure> {
    let dir: &Path = &a.out;
    let mut written = Vec::new();
    for (name, drawing) in crate::campaign::plots(rows, axis, metric) {
        let path = dir.join(name);
        a.pictures.write(drawing, &path)?;
        written.push(path);
    }
    Ok(written)
}
