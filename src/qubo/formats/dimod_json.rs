//! dimod `BinaryQuadraticModel.to_serializable()` JSON (bqm_schema 3.0.0, `use_bytes: false`).

use serde_json::{Value, json};

use super::{FormatError, MAX_VARIABLES, ModelFile};
use crate::qubo::{Coupling, Ising, Qubo};

fn numbers(v: &Value, field: &str, origin: &str) -> Result<Vec<f64>, FormatError> {
    let arr = v.get(field).and_then(Value::as_array).ok_or_else(|| {
        FormatError::whole(
            origin,
            format!("field '{field}' is missing or not an array"),
        )
    })?;
    arr.iter()
        .enumerate()
        .map(|(k, x)| {
            x.as_f64().filter(|f| f.is_finite()).ok_or_else(|| {
                FormatError::whole(origin, format!("{field}[{k}] is not a finite number: {x}"))
            })
        })
        .collect()
}

fn indices(v: &Value, field: &str, n: usize, origin: &str) -> Result<Vec<usize>, FormatError> {
    let arr = v.get(field).and_then(Value::as_array).ok_or_else(|| {
        FormatError::whole(
            origin,
            format!("field '{field}' is missing or not an array"),
        )
    })?;
    arr.iter()
        .enumerate()
        .map(|(k, x)| {
            x.as_u64()
                .map(|u| u as usize)
                .filter(|&u| u < n)
                .ok_or_else(|| {
                    FormatError::whole(
                        origin,
                        format!("{field}[{k}] = {x} is not a variable index below {n}"),
                    )
                })
        })
        .collect()
}

/// A label as text: strings as they are, anything else (ints, tuples) as compact JSON. The one
/// rule for model files and sample sets alike, so their columns match.
pub fn label_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(super) fn parse(text: &str, origin: &str) -> Result<ModelFile, FormatError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| FormatError::at(origin, e.line(), format!("invalid JSON: {e}")))?;
    if v.get("type").and_then(Value::as_str) != Some("BinaryQuadraticModel") {
        return Err(FormatError::whole(
            origin,
            "not a dimod BQM: field 'type' must be \"BinaryQuadraticModel\"",
        ));
    }
    let schema = v
        .pointer("/version/bqm_schema")
        .and_then(Value::as_str)
        .unwrap_or("");
    let major: u32 = schema
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if major < 2 {
        return Err(FormatError::whole(
            origin,
            format!("bqm_schema '{schema}' is not supported (2.0.0 or later)"),
        ));
    }
    if v.get("use_bytes").and_then(Value::as_bool) == Some(true) {
        return Err(FormatError::whole(
            origin,
            "use_bytes: true (raw buffers) cannot be read from JSON; save with use_bytes=False",
        ));
    }
    let raw = v
        .get("variable_labels")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            FormatError::whole(origin, "field 'variable_labels' is missing or not an array")
        })?;
    let labels: Vec<String> = raw.iter().map(label_text).collect();
    let n = labels.len();
    let mut first_index = std::collections::HashMap::with_capacity(n);
    for (k, l) in labels.iter().enumerate() {
        if let Some(first) = first_index.insert(l.as_str(), k) {
            // dimod keeps 0 and "0" apart; labels here are text, so they would merge.
            let why = if raw[k] == raw[first] {
                "labels must be distinct".to_string()
            } else {
                format!(
                    "{} and {} are different labels in dimod but the same text here: rename one",
                    raw[first], raw[k]
                )
            };
            return Err(FormatError::whole(
                origin,
                format!(
                    "variable_labels[{k}] repeats the label {l:?} of variable_labels[{first}]: {why}"
                ),
            ));
        }
    }
    if n >= MAX_VARIABLES {
        return Err(FormatError::whole(
            origin,
            format!("{n} variables is too many"),
        ));
    }
    if let Some(declared) = v.get("num_variables").and_then(Value::as_u64)
        && declared as usize != n
    {
        return Err(FormatError::whole(
            origin,
            format!("num_variables is {declared}, but variable_labels has {n} entries"),
        ));
    }
    let entries = v
        .get("quadratic_biases")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    super::check_model_memory(origin, n, entries)?;
    let linear = numbers(&v, "linear_biases", origin)?;
    if linear.len() != n {
        return Err(FormatError::whole(
            origin,
            format!(
                "linear_biases has {} entries for {n} variables",
                linear.len()
            ),
        ));
    }
    let biases = numbers(&v, "quadratic_biases", origin)?;
    let heads = indices(&v, "quadratic_head", n, origin)?;
    let tails = indices(&v, "quadratic_tail", n, origin)?;
    if heads.len() != biases.len() || tails.len() != biases.len() {
        return Err(FormatError::whole(
            origin,
            "quadratic_head, quadratic_tail and quadratic_biases differ in length",
        ));
    }
    let offset = v
        .get("offset")
        .and_then(Value::as_f64)
        .filter(|f| f.is_finite())
        .ok_or_else(|| {
            FormatError::whole(origin, "field 'offset' is missing or not a finite number")
        })?;
    let qubo = match v.get("variable_type").and_then(Value::as_str) {
        Some("BINARY") => Qubo::new(
            linear,
            heads
                .iter()
                .zip(&tails)
                .zip(&biases)
                .map(|((&h, &t), &b)| (h, t, b)),
            offset,
        ),
        Some("SPIN") => {
            // A self-loop s_i·s_i is 1 whatever the spin: dimod adds its bias to the offset.
            let self_loops: f64 = heads
                .iter()
                .zip(&tails)
                .zip(&biases)
                .filter(|((h, t), _)| h == t)
                .map(|(_, &b)| b)
                .sum();
            let j = heads
                .iter()
                .zip(&tails)
                .zip(&biases)
                .filter(|((h, t), _)| h != t)
                .map(|((&h, &t), &b)| Coupling {
                    i: h.min(t) as u32,
                    j: h.max(t) as u32,
                    value: b,
                })
                .collect();
            Qubo::from_ising(&Ising {
                h: linear,
                j,
                offset: offset + self_loops,
            })
        }
        other => {
            return Err(FormatError::whole(
                origin,
                match other {
                    Some(t) => format!(
                        "variable_type {:?} is not \"BINARY\" or \"SPIN\"",
                        crate::params::shown_within(t, 40)
                    ),
                    None => "variable_type is missing or not text (\"BINARY\" or \"SPIN\")".into(),
                },
            ));
        }
    }
    .map_err(|e| FormatError::whole(origin, e.to_string()))?;
    Ok(ModelFile {
        qubo,
        labels: Some(labels),
        warnings: Vec::new(),
    })
}

pub(super) fn write(q: &Qubo, labels: Option<&[String]>) -> String {
    let n = q.num_variables();
    let labels: Vec<Value> = match labels {
        Some(l) => l.iter().map(|s| Value::String(s.clone())).collect(),
        None => (0..n).map(|k| json!(k)).collect(),
    };
    let live: Vec<&Coupling> = q.couplings().iter().filter(|c| c.value != 0.0).collect();
    let doc = json!({
        "type": "BinaryQuadraticModel",
        "version": {"bqm_schema": "3.0.0"},
        "use_bytes": false,
        "index_type": "int32",
        "bias_type": "float64",
        "num_variables": n,
        "num_interactions": live.len(),
        "variable_labels": labels,
        "variable_type": "BINARY",
        "offset": q.offset(),
        "info": {},
        "linear_biases": q.linear(),
        "quadratic_biases": live.iter().map(|c| c.value).collect::<Vec<_>>(),
        "quadratic_head": live.iter().map(|c| c.i).collect::<Vec<_>>(),
        "quadratic_tail": live.iter().map(|c| c.j).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_spin_example() {
        let text = r#"{"type": "BinaryQuadraticModel", "version": {"bqm_schema": "3.0.0"},
          "use_bytes": false, "index_type": "int32", "bias_type": "float64",
          "num_variables": 3, "num_interactions": 2, "variable_labels": ["c", "a", ["t", 1]],
          "variable_type": "SPIN", "offset": 1.5, "info": {},
          "linear_biases": [1.0, 2.0, 0.5], "quadratic_biases": [3.0, -1.0],
          "quadratic_head": [0, 0], "quadratic_tail": [1, 2]}"#;
        let m = parse(text, "bqm.json").unwrap();
        assert_eq!(m.labels.unwrap(), ["c", "a", "[\"t\",1]"]);
        // s = (+1, -1, +1) → x = (1, 0, 1): 1.5 + 1 - 2 + 0.5 - 3 - 1 = -3
        assert_eq!(m.qubo.energy(&[1, 0, 1]).unwrap(), -3.0);
    }

    #[test]
    fn rejects_bad_documents_with_clear_messages() {
        let e = parse("{\n  \"type\": \n}", "b.json")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("b.json:3: invalid JSON"), "{e}");
        let e = parse(r#"{"type": "SampleSet"}"#, "b.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a dimod BQM"), "{e}");
        let e = parse(
            r#"{"type": "BinaryQuadraticModel", "version": {"bqm_schema": "3.0.0"},
            "variable_labels": [0, 1], "linear_biases": [0, 0], "quadratic_biases": [1],
            "quadratic_head": [0], "quadratic_tail": [7], "offset": 0, "variable_type": "BINARY"}"#,
            "b.json",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("quadratic_tail[0] = 7 is not a variable index below 2"),
            "{e}"
        );
    }
}
