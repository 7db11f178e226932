//! `qubo_workbench._native`: the workbench's local samplers and its window, for Python.
//!
//! The Python package (`qubo_workbench/`) wraps these few functions as dimod samplers; this
//! file only moves numbers across. A model arrives as dimod's numpy vectors in raw bytes
//! (little-endian f64 biases, i64 indices), is checked and built exactly as the CLI builds a
//! model file (`Qubo::new`: NaN, ∞ and bad indices are refused with the position named), and
//! is sampled by the registry's sampler with parameters checked by its own description
//! (`SamplerEntry::build_with`), so names, aliases, ranges and messages are the CLI's.
//!
//! Sampling runs on a worker thread while the calling thread waits without the GIL; every
//! 50 ms it takes the GIL back to look for Ctrl-C, which cancels the run and raises
//! `KeyboardInterrupt`.

use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use qubo_workbench::params::{ParamDefault, ParamType, ParamValues};
use qubo_workbench::qubo::{Qubo, StoredModel};
use qubo_workbench::sampler::{RunControl, SampleSet};
use serde_json::{Value, json};

/// How often the waiting thread looks for Ctrl-C.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Numbers from raw little-endian bytes, named in errors.
fn f64s(bytes: &[u8], what: &str) -> PyResult<Vec<f64>> {
    if !bytes.len().is_multiple_of(8) {
        return Err(PyValueError::new_err(format!(
            "{what}: {} bytes is not a whole number of float64 values",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect())
}

fn indices(bytes: &[u8], what: &str) -> PyResult<Vec<usize>> {
    if !bytes.len().is_multiple_of(8) {
        return Err(PyValueError::new_err(format!(
            "{what}: {} bytes is not a whole number of int64 values",
            bytes.len()
        )));
    }
    bytes
        .chunks_exact(8)
        .map(|c| {
            let v = i64::from_le_bytes(c.try_into().expect("8 bytes"));
            usize::try_from(v)
                .map_err(|_| PyValueError::new_err(format!("{what}: negative index {v}")))
        })
        .collect()
}

/// The local samplers' descriptions as JSON: name, summary and each parameter's name, peer
/// alias, type, default and help (what the Python classes report as `parameters` and
/// `properties`).
#[pyfunction]
fn describe_samplers() -> String {
    let samplers: Vec<Value> = qubo_workbench::samplers::SAMPLERS
        .iter()
        .filter(|e| e.is_local())
        .map(|e| {
            let params: Vec<Value> = e
                .params
                .iter()
                .map(|p| {
                    json!({
                        "name": p.name,
                        "alias": p.alias,
                        "type": p.type_text(),
                        "range": range(p.ty),
                        "default": match p.default {
                            ParamDefault::Auto(why) => json!({"auto": why}),
                            _ => p.default_value(),
                        },
                        "help": p.help,
                    })
                })
                .collect();
            json!({"name": e.name, "summary": e.summary, "parameters": params})
        })
        .collect();
    Value::Array(samplers).to_string()
}

/// A parameter type's bounds or choices, for `properties`.
fn range(ty: ParamType) -> Value {
    match ty {
        ParamType::Int { min, max } => json!([min, max]),
        ParamType::Float { min, max }
        | ParamType::FloatPair { min, max }
        | ParamType::FloatList { min, max } => json!([min, max]),
        ParamType::IntSet(values) => json!(values),
        ParamType::Choice(words) => json!(words),
        ParamType::Bool | ParamType::Text { .. } => Value::Null,
    }
}

/// The registry's local sampler `sampler`, built from `params_json` (checked by its own
/// description, as the CLI checks flags), for a run on `threads` (`None`: every core).
fn local_sampler(
    sampler: &str,
    params_json: &str,
    threads: Option<usize>,
) -> PyResult<Box<dyn qubo_workbench::sampler::Sampler>> {
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let entry = qubo_workbench::samplers::entry(sampler)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if !entry.is_local() {
        return Err(PyValueError::new_err(format!(
            "{sampler} runs remotely; the Python bridge offers the local samplers"
        )));
    }
    let params: ParamValues = match serde_json::from_str(params_json) {
        Ok(Value::Object(map)) => map,
        _ => return Err(PyValueError::new_err("parameters must be a JSON object")),
    };
    entry
        .build_with(&params)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A run's answer for Python: distinct samples as rows of 0/1 bytes, their energies, their
/// occurrence counts, and the run's info as JSON.
type Answer<'py> = (Bound<'py, PyBytes>, Vec<f64>, Vec<usize>, String);

/// Samples a model with a local sampler. The model: `num_variables`, linear biases, then the
/// quadratic terms as parallel row, column and value vectors, and the offset (raw bytes of
/// little-endian float64 / int64 arrays). `params_json`: a JSON object of parameter values.
/// `threads`: worker threads (`None`: every core), as the CLI's `--threads`.
#[pyfunction]
#[pyo3(signature = (sampler, num_variables, linear, rows, cols, values, offset, params_json, threads=None))]
#[allow(clippy::too_many_arguments)]
fn sample<'py>(
    py: Python<'py>,
    sampler: &str,
    num_variables: usize,
    linear: &[u8],
    rows: &[u8],
    cols: &[u8],
    values: &[u8],
    offset: f64,
    params_json: &str,
    threads: Option<usize>,
) -> PyResult<Answer<'py>> {
    let built = local_sampler(sampler, params_json, threads)?;
    let linear = f64s(linear, "linear biases")?;
    if linear.len() != num_variables {
        return Err(PyValueError::new_err(format!(
            "{} linear biases for {num_variables} variables",
            linear.len()
        )));
    }
    let (rows, cols, values) = (
        indices(rows, "quadratic rows")?,
        indices(cols, "quadratic columns")?,
        f64s(values, "quadratic biases")?,
    );
    if rows.len() != cols.len() || rows.len() != values.len() {
        return Err(PyValueError::new_err(format!(
            "{} rows, {} columns and {} quadratic biases: they must be as many",
            rows.len(),
            cols.len(),
            values.len()
        )));
    }
    let terms = rows
        .into_iter()
        .zip(cols)
        .zip(values)
        .map(|((i, j), v)| (i, j, v));
    let qubo =
        Qubo::new(linear, terms, offset).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let model = StoredModel::new(qubo);

    let set = sample_on_worker(py, built, model, threads)?;
    let mut bytes = Vec::with_capacity(set.rows.len() * num_variables);
    for row in &set.rows {
        bytes.extend_from_slice(&row.sample);
    }
    let energies = set.rows.iter().map(|r| r.energy).collect();
    let counts = set.rows.iter().map(|r| r.num_occurrences).collect();
    let info = serde_json::to_string(&set.info).unwrap_or_else(|_| "{}".into());
    Ok((PyBytes::new(py, &bytes), energies, counts, info))
}

/// Samples `model` on a worker thread while this thread waits without the GIL, looking for
/// Ctrl-C every `SIGNAL_CHECK` (which cancels the run and raises `KeyboardInterrupt`).
fn sample_on_worker(
    py: Python<'_>,
    built: Box<dyn qubo_workbench::sampler::Sampler>,
    model: StoredModel,
    threads: Option<usize>,
) -> PyResult<SampleSet> {
    let control = RunControl::new().with_threads(threads);
    let worker = control.clone();
    let (tx, mut rx) = channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(built.sample(&model, &worker));
    });
    let answer = loop {
        // The receiver goes into the GIL-free wait and comes back (it may not be shared).
        let (got, back) = py.detach(move || (rx.recv_timeout(SIGNAL_CHECK), rx));
        rx = back;
        match got {
            Ok(answer) => break answer,
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    control.cancel();
                    py.detach(|| handle.join()).ok();
                    return Err(if interrupt.is_instance_of::<PyKeyboardInterrupt>(py) {
                        interrupt
                    } else {
                        PyKeyboardInterrupt::new_err("sampling cancelled")
                    });
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the sampler stopped without an answer",
                ));
            }
        }
    };
    handle.join().ok();
    answer.map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A constrained model's run for Python: per distinct read, the model's variables (one byte
/// each, 0/1 bits), the penalty model's energy, its count, whether it is feasible, each
/// constraint's verdict (rows × constraints bytes, 1 = satisfied), the objective; then the
/// constraint labels and the run's info as JSON.
type CqmAnswer<'py> = (
    Bound<'py, PyBytes>,
    Vec<f64>,
    Vec<usize>,
    Vec<bool>,
    Bound<'py, PyBytes>,
    Vec<f64>,
    Vec<String>,
    String,
);

/// Samples a constrained model given as dimod's CQM file bytes (`cqm.to_file()`) or as the
/// workbench's JSON form (`model_json`, what `from_pyqubo` makes): encoded as
/// the workbench encodes it (a weight per constraint family, `weights_json` overriding the
/// defaults; `formulation`: `slack` or `unbalanced`), sampled by the registry's sampler, each
/// read refereed on the model itself (feasibility per constraint, the objective apart from
/// the penalties).
#[pyfunction]
#[pyo3(signature = (sampler, cqm_bytes, params_json, weights_json, formulation=None, threads=None, model_json=None))]
#[allow(clippy::too_many_arguments)]
fn sample_cqm<'py>(
    py: Python<'py>,
    sampler: &str,
    cqm_bytes: &[u8],
    params_json: &str,
    weights_json: &str,
    formulation: Option<String>,
    threads: Option<usize>,
    model_json: Option<&str>,
) -> PyResult<CqmAnswer<'py>> {
    use qubo_workbench::puzzle::constrained::{ConstrainedModel, cqm_file};
    use qubo_workbench::puzzle::{AnyPuzzle, EncodeOptions};
    let built = local_sampler(sampler, params_json, threads)?;
    let model: ConstrainedModel = match model_json {
        Some(text) => match qubo_workbench::puzzle::parse_puzzles(
            text,
            Some(qubo_workbench::puzzle::Kind::Constrained),
            "the model",
        )
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .pop()
        .map(|l| l.puzzle)
        {
            Some(AnyPuzzle::Constrained(m)) => m,
            _ => {
                return Err(PyValueError::new_err(
                    "the model: no constrained model in it",
                ));
            }
        },
        None => cqm_file::parse(cqm_bytes, "the CQM")
            .map_err(|e| PyValueError::new_err(e.to_string()))?,
    };
    let puzzle = AnyPuzzle::Constrained(model);
    let options = EncodeOptions {
        formulation,
        ..EncodeOptions::default()
    };
    let encoding = puzzle
        .encode(&options)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut weights = qubo_workbench::qubo::Weights::new();
    let given: serde_json::Map<String, Value> = match serde_json::from_str(weights_json) {
        Ok(Value::Object(map)) => map,
        _ => {
            return Err(PyValueError::new_err(
                "weights must be a mapping of name to number",
            ));
        }
    };
    for (name, value) in given {
        let v = value.as_f64().ok_or_else(|| {
            PyValueError::new_err(format!("weight '{name}': {value} is not a number"))
        })?;
        weights
            .set(&name, v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    let stored = puzzle
        .stored_model(&encoding, &weights)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let set = sample_on_worker(py, built, stored, threads)?;
    let AnyPuzzle::Constrained(model) = &puzzle else {
        unreachable!("built above");
    };
    let n = model.variables.len();
    let m = model.constraints.len();
    let (mut bits, mut satisfied) = (Vec::new(), Vec::new());
    let (mut feasible, mut objective) = (Vec::new(), Vec::new());
    for row in &set.rows {
        let x = &row.sample[..n];
        bits.extend_from_slice(x);
        for c in &model.constraints {
            let ok = c.violation(&model.variables, x)
                <= qubo_workbench::puzzle::constrained::model::FEASIBILITY_TOLERANCE;
            satisfied.push(ok as u8);
        }
        feasible.push(model.is_feasible(x));
        objective.push(model.objective_value(x));
    }
    debug_assert_eq!(satisfied.len(), set.rows.len() * m);
    let energies = set.rows.iter().map(|r| r.energy).collect();
    let counts = set.rows.iter().map(|r| r.num_occurrences).collect();
    let mut info = serde_json::to_value(&set.info).unwrap_or_else(|_| json!({}));
    info["weights"] = json!(
        encoding
            .weight_specs()
            .iter()
            .map(|s| (
                s.name.clone(),
                json!(weights.get(&s.name).unwrap_or(s.default))
            ))
            .collect::<serde_json::Map<String, Value>>()
    );
    Ok((
        PyBytes::new(py, &bits),
        energies,
        counts,
        feasible,
        PyBytes::new(py, &satisfied),
        objective,
        model.constraints.iter().map(|c| c.label.clone()).collect(),
        info.to_string(),
    ))
}

/// Runs the workbench's command line in this process (`argv` without the program name), as
/// `qubo-workbench` would: `["gui", "model.json", "--samples", "s.json"]` opens the window.
/// Returns the exit code. Called by `python -m qubo_workbench`, in a process of its own, so a
/// notebook's kernel never waits on the window.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<String>) -> i32 {
    let args = std::iter::once("qubo-workbench".to_string())
        .chain(argv)
        .map(std::ffi::OsString::from);
    py.detach(|| qubo_workbench::cli::run(args))
}

/// The version of the workbench built into this module.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(describe_samplers, m)?)?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(sample_cqm, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
