//! Commands on bare models: `sample` and `bench`.

use serde_json::json;

use super::Failure;
use super::args::{BenchArgs, SampleArgs, build_sampler, threads};
use super::output::{Output, check_output, control_with_progress, long_run_note, print_json};
use crate::bench;
use crate::qubo::StoredModel;
use crate::qubo::formats::read_model;

/// `sample MODEL`: sample a model file.
pub(super) fn sample(a: SampleArgs) -> Result<i32, Failure> {
    if let Some(out) = &a.save_samples {
        check_output("--save-samples", out, Output::Samples, &[&a.model])?;
    }
    let file = match read_model(&a.model) {
        Ok(file) => file,
        Err(e) => constrained_as_model(&a.model).unwrap_or(Err(e.into()))?,
    };
    for w in &file.warnings {
        eprintln!("warning: {w}");
    }
    let model = StoredModel::new(file.qubo);
    let (sampler, reason) = build_sampler(
        &a.sampler,
        crate::samplers::Task {
            num_variables: model.qubo.num_variables(),
            stored: true,
            ..Default::default()
        },
    )?;
    if let Some(why) = &reason {
        eprintln!("sampler: {} ({why})", sampler.name());
    }
    let note = long_run_note(sampler.as_ref(), 1, model.qubo.num_variables());
    let (control, bar) = control_with_progress(threads(&a.sampler)?, "sampling", note);
    let control = control.with_target_energy(a.sampler.target_energy);
    let set = sampler.sample(&model, &control)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    for w in &set.info.warnings {
        eprintln!("warning: {w}");
    }
    let warnings: Vec<&String> = file.warnings.iter().chain(&set.info.warnings).collect();
    let n = model.qubo.num_variables();
    let sample_s = set.info.sampling_ns as f64 * 1e-9;
    if let Some(out) = &a.save_samples {
        // With the run's figures and the model's fingerprint, for `compare`.
        let subject = crate::solve::Subject::model(&model);
        let outcome = crate::solve::evaluate_samples(subject, set.clone(), sample_s)?;
        outcome.save_samples(out, file.labels.as_deref())?;
    }
    let updates = (set.num_reads() * set.info.num_sweeps * n) as f64;
    let ns_per_update = (updates > 0.0).then(|| set.info.sampling_ns as f64 / updates);
    let best = set.lowest();
    if a.json {
        print_json(&json!({
            "num_variables": n,
            "num_interactions": model.qubo.num_interactions(),
            "sampler": set.info.sampler,
            "sampler_choice": reason,
            "params": set.info.params,
            "num_reads": set.num_reads(),
            "cancelled": set.info.cancelled,
            "min_energy": best.map(|r| r.energy),
            "energies": set.energies(),
            "best": best.map(|r| json!({
                "energy": r.energy,
                "sample": r.sample.iter().map(|b| if *b != 0 { '1' } else { '0' }).collect::<String>(),
            })),
            "timing": {"sample_s": sample_s, "ns_per_update": ns_per_update},
            "warnings": warnings,
        }))?;
    } else {
        println!(
            "{}: {}, {}",
            a.model.display(),
            crate::io::count(n, "variable"),
            crate::io::count(model.qubo.num_interactions(), "interaction")
        );
        println!(
            "{}{}: {} in {sample_s:.3} s{}; min energy {}",
            set.info.sampler,
            set.info
                .kernel()
                .map_or(String::new(), |k| format!(" ({k} kernel)")),
            crate::io::count(set.num_reads(), "read"),
            ns_per_update.map_or(String::new(), |x| format!(" ({x:.2} ns per update)")),
            best.map_or("—".into(), |r| crate::io::number_text(r.energy))
        );
        for row in set.rows.iter().take(5) {
            println!(
                "  energy {:>14}  ×{}",
                crate::io::number_text(row.energy),
                row.num_occurrences
            );
        }
    }
    Ok(0)
}

/// A constrained model (dimod CQM, LP or QPLIB file) as a bare model: its encoding at the default
/// weights, variables labelled (slack included); `None` when the file is not one.
fn constrained_as_model(
    path: &std::path::Path,
) -> Option<Result<crate::qubo::formats::ModelFile, Failure>> {
    use crate::puzzle::{AnyPuzzle, EncodeOptions, Kind, load_puzzles};
    let is_lp = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("lp") || e.eq_ignore_ascii_case("qplib"));
    let is_cqm = crate::io::read_bytes_limited(path, 64 << 10)
        .is_ok_and(|b| crate::puzzle::constrained::cqm_file::looks_like(&b))
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("cqm"));
    if !is_lp && !is_cqm {
        return None;
    }
    Some((|| {
        let loaded = load_puzzles(path, Some(Kind::Constrained))?;
        let puzzle: &AnyPuzzle = &loaded[0].puzzle;
        let encoding = puzzle.encode(&EncodeOptions::default())?;
        let qubo = encoding.qubo(&encoding.default_weights())?;
        Ok(crate::qubo::formats::ModelFile {
            qubo,
            labels: Some(encoding.labels().iter().map(|l| l.to_string()).collect()),
            warnings: vec![format!(
                "{}: a constrained model, sampled at its default weights ({}); `solve` referees \
                 feasibility and reports the objective apart from the penalties",
                path.display(),
                encoding.default_weights().describe()
            )],
        })
    })())
}

/// `bench`: time every sampler.
pub(super) fn bench(a: BenchArgs) -> Result<i32, Failure> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Thread counts are clamped to the cores by the run; report what actually ran.
    let mut threads: Vec<usize> = match &a.threads {
        Some(t) => t.iter().map(|&t| (t as usize).min(cores)).collect(),
        None if cores > 1 => vec![1, cores],
        None => vec![1],
    };
    threads.dedup();
    let settings = bench::BenchSettings {
        num_reads: a.num_reads as usize,
        num_sweeps: a.num_sweeps.unwrap_or(if a.quick { 100 } else { 1000 }) as usize,
        repeats: a.repeats.unwrap_or(if a.quick { 1 } else { 3 }) as usize,
        threads,
        scalar: true,
        seed: 1,
        only: bench::RowFilter::new(a.only.as_deref().unwrap_or_default()),
    };
    let wanted = |name: &str| settings.only.wants_instance(name, &settings);
    let instances = match &a.instances {
        Some(dir) => bench::file_instances(dir, wanted)?,
        None => bench::builtin_instances(a.quick, wanted)?,
    };
    if instances.is_empty() {
        return Err(super::usage(format!(
            "--only {}: no bench row matches every term (terms are looked for in the instance's \
             name, the sampler's name, the kernel and the moves; see `bench --help`)",
            a.only.unwrap_or_default().join(",")
        )));
    }
    if !a.json {
        println!(
            "{} reads × {} sweeps, median of {} run(s), wall time of sample()",
            settings.num_reads, settings.num_sweeps, settings.repeats
        );
        println!(
            "{:<34} {:>6} {:>5} {:>17} {:>3} {:>10} {:>9} {:>14} {:>8} {:>9}",
            "instance",
            "n",
            "samp.",
            "kernel",
            "thr",
            "wall s",
            "ns/upd",
            "min E",
            "P(gnd)",
            "TTS99 s"
        );
    }
    let rows = bench::run(&instances, &settings, |r| {
        if !a.json {
            println!(
                "{:<34} {:>6} {:>5} {:>17} {:>3} {:>10.3} {:>9} {:>14} {:>7.2}{} {:>9}",
                r.instance,
                r.n,
                r.sampler,
                r.kernel,
                r.threads,
                r.wall_s,
                r.ns_per_update.map_or("—".into(), |v| format!("{v:.2}")),
                r.min_energy,
                r.ground_fraction,
                if r.ground_known { "" } else { "*" },
                r.tts99_s.map_or("—".into(), |t| format!("{t:.3}"))
            );
        }
    });
    let (reweight_s, reweight_n) = bench::reweight_time(bench::SUDOKUS[0].1, 101)?;
    if a.json {
        print_json(&json!({
            "reweight": {"num_variables": reweight_n, "median_s": reweight_s},
            "num_reads": settings.num_reads,
            "num_sweeps": settings.num_sweeps,
            "repeats": settings.repeats,
            "cores": cores,
            "results": rows,
        }))?;
    } else {
        println!(
            "ns/upd: per replica update for pt (16 replicas, reads/16 ladders), per slice update \
             for sqa (4 slices), per proposal for moves (one-hot, two-way: sa on one thread, its \
             β range measured on the moves); tabu runs reads/10 searches of 10 restarts"
        );
        if rows.iter().any(|r| !r.ground_known) {
            println!(
                "* no known ground energy: share of reads at the lowest energy seen in this bench"
            );
        }
        println!(
            "re-weighting the {reweight_n}-variable Sudoku encoding into a QUBO: {:.3} ms (median of 101)",
            reweight_s * 1e3
        );
    }
    Ok(0)
}
