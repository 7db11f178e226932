//! dimod's serialized `SampleSet` (`to_serializable`), the `bq` answer of D-Wave's hybrid
//! solvers (as dimod writes and reads it): both directions, the client reading answers
//! (through `sampler::dimod_json`, the crate's one reading of the format) and the fake
//! writing them.
//!
//! Invariant: packed rows are `ceil(n/32)` uint32 words per row, variable j at bit `j % 32`
//! (LSB first) of word `j / 32` — the opposite bit order of SAPI's `qp` answers. Numbers are
//! read leniently (ints where floats are expected, as dimod writes `-1` for −1.0); shapes are
//! checked strictly, and every problem is named.

use serde_json::{Map, Value, json};

use super::RemoteError;

/// A sample set as the answer carries it (dimod's serialized `SampleSet`).
pub type BqAnswer = crate::sampler::dimod_json::DimodSampleSet;

fn bad(what: impl std::fmt::Display) -> RemoteError {
    RemoteError::Protocol(format!("the bq answer (a dimod SampleSet): {what}"))
}

/// Reads `{"format": "bq", "data": {…}}` or the SampleSet object itself.
pub fn decode_answer(answer: &Value) -> Result<BqAnswer, RemoteError> {
    let data = match answer.get("format").and_then(Value::as_str) {
        Some("bq") => answer.get("data").ok_or_else(|| bad("no data"))?,
        Some(other) => return Err(bad(format!("format {other:?}, expected \"bq\""))),
        None => answer,
    };
    crate::sampler::dimod_json::read(data).map_err(|e| bad(e.to_string()))
}

/// Writes a BINARY sample set the way dimod's `to_serializable` does (packed rows, integer
/// labels `0..n`), wrapped as SAPI's `{"format": "bq", "data": …}`.
pub fn encode_answer(
    num_variables: usize,
    samples: &[Vec<u8>],
    energies: &[f64],
    num_occurrences: &[u64],
    info: Map<String, Value>,
) -> Value {
    let words = num_variables.div_ceil(32);
    let packed: Vec<Value> = samples
        .iter()
        .map(|s| {
            let mut w = vec![0u32; words];
            for (j, &bit) in s.iter().enumerate() {
                if bit != 0 {
                    w[j / 32] |= 1 << (j % 32);
                }
            }
            json!(w)
        })
        .collect();
    // dimod writes integral floats as integers.
    let energy: Vec<Value> = energies
        .iter()
        .map(|&e| {
            if e.fract() == 0.0 && e.abs() < 1e15 {
                json!(e as i64)
            } else {
                json!(e)
            }
        })
        .collect();
    let rows = samples.len();
    json!({
        "format": "bq",
        "data": {
            "type": "SampleSet",
            "version": {"sampleset_schema": "3.2.0"},
            "num_variables": num_variables,
            "num_rows": rows,
            "sample_data": {"type": "array", "data": packed, "data_type": "uint32",
                            "shape": [rows, words], "use_bytes": false},
            "sample_type": "int8",
            "sample_packed": true,
            "vectors": {
                "energy": {"type": "array", "data": energy, "data_type": "float64",
                           "shape": [rows], "use_bytes": false},
                "num_occurrences": {"type": "array", "data": num_occurrences,
                                    "data_type": "int64", "shape": [rows], "use_bytes": false}
            },
            "variable_labels": (0..num_variables).collect::<Vec<_>>(),
            "variable_type": "BINARY",
            "info": info
        }
    })
}

/// Column of each of our variables `0..n` in the answer, from integer labels (our uploads carry
/// no label section, so dimod numbers the variables).
pub fn columns_of_variables(labels: &[Value], n: usize) -> Result<Vec<usize>, RemoteError> {
    let mut column = vec![usize::MAX; n];
    for (c, label) in labels.iter().enumerate() {
        let v = label
            .as_u64()
            .filter(|&v| (v as usize) < n)
            .ok_or_else(|| bad(format!("variable label {label} is not one of 0..{n}")))?;
        if column[v as usize] != usize::MAX {
            return Err(bad(format!("variable {v} is labelled twice")));
        }
        column[v as usize] = c;
    }
    if let Some(missing) = column.iter().position(|&c| c == usize::MAX) {
        return Err(bad(format!(
            "variable {missing} is missing from the answer"
        )));
    }
    Ok(column)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The format notes' example: SPIN samples [−1,+1,−1] and [+1,+1,+1] packed as 2 and 7.
    #[test]
    fn reads_the_documented_example() {
        let v = json!({
            "type": "SampleSet", "version": {"sampleset_schema": "3.2.0"},
            "num_variables": 3, "num_rows": 2,
            "sample_data": {"type": "array", "data": [[2], [7]], "data_type": "uint32",
                            "shape": [2, 1], "use_bytes": false},
            "sample_type": "int8", "sample_packed": true,
            "vectors": {
                "energy": {"type": "array", "data": [-0.5, 1.5], "data_type": "float64", "shape": [2], "use_bytes": false},
                "num_occurrences": {"type": "array", "data": [3, 1], "data_type": "int64", "shape": [2], "use_bytes": false}
            },
            "variable_labels": [0, 1, 2], "variable_type": "SPIN", "info": {}
        });
        let a = decode_answer(&json!({"format": "bq", "data": v})).unwrap();
        assert_eq!(a.samples, vec![vec![0, 1, 0], vec![1, 1, 1]]);
        assert_eq!(a.energies, vec![-0.5, 1.5]);
        assert_eq!(a.num_occurrences, vec![3, 1]);
    }

    #[test]
    fn packing_matches_the_notes_and_round_trips() {
        // 9 binary variables 1,0,0,0,0,0,0,0,1 → [257]; 40 with 0 and 33 set → [1, 2].
        let nine = vec![1, 0, 0, 0, 0, 0, 0, 0, 1];
        let e = encode_answer(9, std::slice::from_ref(&nine), &[-1.0], &[1], Map::new());
        assert_eq!(e["data"]["sample_data"]["data"], json!([[257]]));
        assert_eq!(e["data"]["vectors"]["energy"]["data"], json!([-1]));
        let mut forty = vec![0u8; 40];
        forty[0] = 1;
        forty[33] = 1;
        let e = encode_answer(40, std::slice::from_ref(&forty), &[0.25], &[4], Map::new());
        assert_eq!(e["data"]["sample_data"]["data"], json!([[1, 2]]));
        let a = decode_answer(&e).unwrap();
        assert_eq!(a.samples, vec![forty]);
        assert_eq!(a.energies, vec![0.25]);
        assert_eq!(columns_of_variables(&a.labels, 40).unwrap()[39], 39);
    }

    #[test]
    fn malformed_answers_are_named() {
        let good = encode_answer(3, &[vec![1, 0, 1]], &[1.0], &[1], Map::new());
        let broken = |path: &str, value: Value| {
            let mut v = good.clone();
            *v.pointer_mut(path).unwrap() = value;
            decode_answer(&v).unwrap_err().to_string()
        };
        assert!(broken("/data/sample_data/data", json!([[1, 2]])).contains("2 words"));
        assert!(broken("/data/sample_data/data", json!([[-1]])).contains("non-uint32"));
        assert!(broken("/data/vectors/energy/data", json!([1, 2])).contains("2 energies"));
        assert!(broken("/data/version/sampleset_schema", json!("2.0.0")).contains("3.x"));
        assert!(broken("/data/variable_type", json!("DISCRETE")).contains("variable_type"));
        assert!(broken("/format", json!("qp")).contains("expected \"bq\""));
        assert!(columns_of_variables(&[json!(0), json!(0)], 2).is_err());
        assert!(columns_of_variables(&[json!("a")], 1).is_err());
        assert!(
            columns_of_variables(&[json!(0)], 2)
                .unwrap_err()
                .to_string()
                .contains("variable 1 is missing")
        );
    }
}
