//! SAPI's `qp` encodings: a problem on a QPU's working graph, and the answer that comes back
//! (as D-Wave's cloud client writes and reads them). Both sides live here — the client
//! encodes problems and decodes answers, the tests' fake server does the reverse — so one
//! reading of the byte layout serves both and a mistake cannot hide in a matching pair.
//!
//! Invariants of the wire format, each checked against the official client:
//! - `lin` has one little-endian f64 per entry of the solver's `qubits`, in that order; NaN marks
//!   an inactive qubit, 0.0 an active one without a bias.
//! - `quad` has one f64 per entry of `couplers`, in that order, *only* for couplers whose two
//!   ends are active (not NaN for the others), each the sum of both directions.
//! - Answer solutions are bit-packed per solution, `ceil(A/8)` bytes for A active variables,
//!   most significant bit first; `active_variables` and `num_occurrences` are i32 LE, energies
//!   f64 LE and without the problem's offset.

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::RemoteError;

/// A problem on physical qubits: linear biases and couplings keyed by (low, high) qubit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PhysicalProblem {
    /// Linear bias per qubit (a qubit listed here is active even with bias 0).
    pub linear: BTreeMap<u32, f64>,
    /// Coupling per qubit pair, low index first.
    pub quadratic: BTreeMap<(u32, u32), f64>,
    /// Constant added to every energy.
    pub offset: f64,
}

impl PhysicalProblem {
    /// Adds `bias` to the coupling of `a` and `b` (either order); a self-pair is linear.
    pub fn add_coupling(&mut self, a: u32, b: u32, bias: f64) {
        if a == b {
            *self.linear.entry(a).or_default() += bias;
        } else {
            *self.quadratic.entry((a.min(b), a.max(b))).or_default() += bias;
        }
    }

    /// Qubits with a bias or an end of a coupling.
    pub fn active(&self) -> BTreeSet<u32> {
        let mut active: BTreeSet<u32> = self.linear.keys().copied().collect();
        for &(a, b) in self.quadratic.keys() {
            active.insert(a);
            active.insert(b);
        }
        active
    }

    /// The QUBO energy of a full-length 0/1 vector indexed by qubit.
    pub fn energy(&self, x: &[u8]) -> f64 {
        let on = |q: u32| x.get(q as usize).is_some_and(|&v| v == 1);
        let lin: f64 = self.linear.iter().filter(|e| on(*e.0)).map(|e| e.1).sum();
        let quad: f64 = self
            .quadratic
            .iter()
            .filter(|((a, b), _)| on(*a) && on(*b))
            .map(|e| e.1)
            .sum();
        self.offset + lin + quad
    }
}

/// The `data` object of a QPU submission: `{"format":"qp","lin","quad","offset"}`.
///
/// Fails, naming the qubit or coupler, when the problem uses one the solver does not have
/// working (the official client's `ProblemStructureError`).
pub fn encode_problem(
    p: &PhysicalProblem,
    qubits: &[u32],
    couplers: &[(u32, u32)],
) -> Result<Value, RemoteError> {
    let working: BTreeSet<u32> = qubits.iter().copied().collect();
    let active = p.active();
    if let Some(q) = active.iter().find(|q| !working.contains(q)) {
        return Err(RemoteError::Problem(format!(
            "qubit {q} is not a working qubit of the solver"
        )));
    }
    let available: BTreeSet<(u32, u32)> = couplers
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    if let Some((a, b)) = p.quadratic.keys().find(|k| !available.contains(k)) {
        return Err(RemoteError::Problem(format!(
            "coupler ({a}, {b}) is not a working coupler of the solver"
        )));
    }
    let lin: Vec<f64> = qubits
        .iter()
        .map(|q| match p.linear.get(q) {
            Some(&h) => h,
            None if active.contains(q) => 0.0,
            None => f64::NAN,
        })
        .collect();
    let quad: Vec<f64> = couplers
        .iter()
        .filter(|(a, b)| active.contains(a) && active.contains(b))
        .map(|&(a, b)| {
            p.quadratic
                .get(&(a.min(b), a.max(b)))
                .copied()
                .unwrap_or(0.0)
        })
        .collect();
    Ok(json!({
        "format": "qp",
        "lin": STANDARD.encode(f64_bytes(&lin)),
        "quad": STANDARD.encode(f64_bytes(&quad)),
        "offset": p.offset,
    }))
}

/// Reads a `qp` problem back against the solver's graph (the fake server's side): the active
/// set comes from the non-NaN entries of `lin`, and `quad` must hold exactly one value per
/// coupler with both ends active.
pub fn decode_problem(
    data: &Value,
    qubits: &[u32],
    couplers: &[(u32, u32)],
) -> Result<PhysicalProblem, RemoteError> {
    let field = |name: &str| {
        data.get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| RemoteError::Protocol(format!("qp problem: no string '{name}'")))
    };
    if data.get("format").and_then(Value::as_str) != Some("qp") {
        return Err(RemoteError::Protocol(
            "qp problem: 'format' is not \"qp\"".into(),
        ));
    }
    let lin = f64s(&b64(field("lin")?, "lin")?, "lin")?;
    if lin.len() != qubits.len() {
        return Err(RemoteError::Protocol(format!(
            "qp problem: 'lin' has {} values for {} qubits",
            lin.len(),
            qubits.len()
        )));
    }
    let mut p = PhysicalProblem {
        offset: data.get("offset").and_then(Value::as_f64).unwrap_or(0.0),
        ..Default::default()
    };
    for (&q, &h) in qubits.iter().zip(&lin) {
        if !h.is_nan() {
            p.linear.insert(q, h);
        }
    }
    let active: Vec<&(u32, u32)> = couplers
        .iter()
        .filter(|(a, b)| p.linear.contains_key(a) && p.linear.contains_key(b))
        .collect();
    let quad = f64s(&b64(field("quad")?, "quad")?, "quad")?;
    if quad.len() != active.len() {
        return Err(RemoteError::Protocol(format!(
            "qp problem: 'quad' has {} values for {} couplers with both ends active",
            quad.len(),
            active.len()
        )));
    }
    for (&&(a, b), &j) in active.iter().zip(&quad) {
        if j != 0.0 {
            p.quadratic.insert((a.min(b), a.max(b)), j);
        }
    }
    Ok(p)
}

/// A decoded `qp` answer: distinct samples over the active qubits.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// Length of a full solution vector (the solver's `num_qubits`).
    pub num_variables: usize,
    /// Active qubits, in the bit order of each solution.
    pub active_variables: Vec<u32>,
    /// One 0/1 value per active variable, per sample.
    pub solutions: Vec<Vec<u8>>,
    /// Energy per sample, without the problem's offset (as SAPI returns it).
    pub energies: Vec<f64>,
    /// How often each sample was read (1 each when the answer has no counts).
    pub num_occurrences: Vec<u32>,
    /// The answer's timing object (microseconds), as sent.
    pub timing: serde_json::Map<String, Value>,
}

/// Reads an `answer` object of format `qp` for a `qubo` problem.
pub fn decode_answer(answer: &Value) -> Result<Answer, RemoteError> {
    let bad = |what: String| RemoteError::Protocol(format!("qp answer: {what}"));
    if answer.get("format").and_then(Value::as_str) != Some("qp") {
        return Err(bad("'format' is not \"qp\"".into()));
    }
    let text = |name: &str| {
        answer
            .get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| bad(format!("no string '{name}'")))
    };
    let num_variables = answer
        .get("num_variables")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad("no integer 'num_variables'".into()))? as usize;
    let active: Vec<u32> = i32s(
        &b64(text("active_variables")?, "active_variables")?,
        "active_variables",
    )?
    .into_iter()
    .map(|q| u32::try_from(q).map_err(|_| bad(format!("negative active variable {q}"))))
    .collect::<Result<_, _>>()?;
    if let Some(q) = active.iter().find(|&&q| q as usize >= num_variables) {
        return Err(bad(format!(
            "active variable {q} ≥ num_variables {num_variables}"
        )));
    }
    let energies = f64s(&b64(text("energies")?, "energies")?, "energies")?;
    let num_occurrences = match answer.get("num_occurrences").and_then(Value::as_str) {
        Some(t) => i32s(&b64(t, "num_occurrences")?, "num_occurrences")?
            .into_iter()
            .map(|c| u32::try_from(c).map_err(|_| bad(format!("negative occurrence count {c}"))))
            .collect::<Result<Vec<_>, _>>()?,
        None => vec![1; energies.len()],
    };
    if num_occurrences.len() != energies.len() {
        return Err(bad(format!(
            "{} occurrence counts for {} energies",
            num_occurrences.len(),
            energies.len()
        )));
    }
    let bytes = b64(text("solutions")?, "solutions")?;
    let per = active.len().div_ceil(8);
    if bytes.len() < per * energies.len() {
        return Err(bad(format!(
            "'solutions' has {} bytes; {} samples of {} active variables need {}",
            bytes.len(),
            energies.len(),
            active.len(),
            per * energies.len()
        )));
    }
    let solutions = (0..energies.len())
        .map(|s| {
            let row = &bytes[s * per..(s + 1) * per];
            (0..active.len())
                .map(|k| u8::from(row[k / 8] & (0x80 >> (k % 8)) != 0))
                .collect()
        })
        .collect();
    let timing = answer
        .get("timing")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    Ok(Answer {
        num_variables,
        active_variables: active,
        solutions,
        energies,
        num_occurrences,
        timing,
    })
}

/// Writes an answer object (the fake server's side); `solutions` rows follow `active`.
pub fn encode_answer(a: &Answer) -> Value {
    let per = a.active_variables.len().div_ceil(8);
    let mut bits = vec![0u8; per * a.solutions.len()];
    for (s, row) in a.solutions.iter().enumerate() {
        for (k, &v) in row.iter().enumerate() {
            if v != 0 {
                bits[s * per + k / 8] |= 0x80 >> (k % 8);
            }
        }
    }
    let i32_bytes =
        |v: &mut dyn Iterator<Item = i32>| -> Vec<u8> { v.flat_map(|x| x.to_le_bytes()).collect() };
    json!({
        "format": "qp",
        "num_variables": a.num_variables,
        "active_variables": STANDARD.encode(i32_bytes(&mut a.active_variables.iter().map(|&q| q as i32))),
        "energies": STANDARD.encode(f64_bytes(&a.energies)),
        "num_occurrences": STANDARD.encode(i32_bytes(&mut a.num_occurrences.iter().map(|&c| c as i32))),
        "solutions": STANDARD.encode(bits),
        "timing": a.timing,
    })
}

fn f64_bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn b64(text: &str, name: &str) -> Result<Vec<u8>, RemoteError> {
    STANDARD
        .decode(text)
        .map_err(|e| RemoteError::Protocol(format!("'{name}' is not base64: {e}")))
}

fn f64s(bytes: &[u8], name: &str) -> Result<Vec<f64>, RemoteError> {
    le_values(bytes, name, "float64", f64::from_le_bytes)
}

fn i32s(bytes: &[u8], name: &str) -> Result<Vec<i32>, RemoteError> {
    le_values(bytes, name, "int32", i32::from_le_bytes)
}

/// Little-endian values of N bytes each; a length that is not a multiple of N is an error.
fn le_values<T, const N: usize>(
    bytes: &[u8],
    name: &str,
    type_name: &str,
    from: fn([u8; N]) -> T,
) -> Result<Vec<T>, RemoteError> {
    if !bytes.len().is_multiple_of(N) {
        return Err(RemoteError::Protocol(format!(
            "'{name}' has {} bytes, not a whole number of {type_name} values",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(N)
        .map(|c| from(c.try_into().expect("N bytes")))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 4-qubit example of the protocol notes: Q00 = 1, Q11 = −1, Q01 = 0.5, qubits 2 and 3
    /// unused; its bytes were checked with Python's struct and base64.
    fn example() -> (PhysicalProblem, Vec<u32>, Vec<(u32, u32)>) {
        let mut p = PhysicalProblem::default();
        p.add_coupling(0, 0, 1.0);
        p.add_coupling(1, 1, -1.0);
        p.add_coupling(1, 0, 0.5);
        (p, vec![0, 1, 2, 3], vec![(0, 1), (1, 2), (2, 3), (0, 3)])
    }

    #[test]
    fn the_documented_example_encodes_byte_for_byte() {
        let (p, qubits, couplers) = example();
        let data = encode_problem(&p, &qubits, &couplers).unwrap();
        assert_eq!(data["lin"], "AAAAAAAA8D8AAAAAAADwvwAAAAAAAPh/AAAAAAAA+H8=");
        assert_eq!(data["quad"], "AAAAAAAA4D8=");
        assert_eq!(decode_problem(&data, &qubits, &couplers).unwrap(), p);
    }

    #[test]
    fn a_qubit_active_only_through_a_coupler_gets_bias_zero_and_order_follows_the_solver() {
        let mut p = PhysicalProblem::default();
        p.add_coupling(3, 2, -2.0);
        // Shuffled orders, as a real solver's lists may be.
        let qubits = vec![3, 0, 2, 1];
        let couplers = vec![(2, 3), (0, 1), (3, 0)];
        let data = encode_problem(&p, &qubits, &couplers).unwrap();
        let lin = f64s(&b64(data["lin"].as_str().unwrap(), "lin").unwrap(), "lin").unwrap();
        assert_eq!(lin[0], 0.0);
        assert!(lin[1].is_nan() && lin[3].is_nan());
        assert_eq!(lin[2], 0.0);
        let quad = f64s(
            &b64(data["quad"].as_str().unwrap(), "quad").unwrap(),
            "quad",
        )
        .unwrap();
        assert_eq!(quad, vec![-2.0], "only the coupler with both ends active");
        let back = decode_problem(&data, &qubits, &couplers).unwrap();
        assert_eq!(back.quadratic, p.quadratic);
        assert_eq!(back.active(), p.active());
    }

    #[test]
    fn a_problem_off_the_working_graph_is_refused_by_name() {
        let (mut p, qubits, couplers) = example();
        p.add_coupling(0, 2, 1.0);
        let e = encode_problem(&p, &qubits, &couplers)
            .unwrap_err()
            .to_string();
        assert!(e.contains("coupler (0, 2)"), "{e}");
        p.add_coupling(7, 7, 1.0);
        let e = encode_problem(&p, &qubits, &couplers)
            .unwrap_err()
            .to_string();
        assert!(e.contains("qubit 7"), "{e}");
    }

    #[test]
    fn answers_pack_bits_most_significant_first() {
        // The worked example: qubits 0 and 1, samples (1,0) and (0,1) → bytes 80 40.
        let a = Answer {
            num_variables: 4,
            active_variables: vec![0, 1],
            solutions: vec![vec![1, 0], vec![0, 1]],
            energies: vec![-1.0, -1.0],
            num_occurrences: vec![7, 3],
            timing: Default::default(),
        };
        let v = encode_answer(&a);
        assert_eq!(v["solutions"], "gEA=");
        assert_eq!(v["active_variables"], "AAAAAAEAAAA=");
        assert_eq!(v["energies"], "AAAAAAAA8L8AAAAAAADwvw==");
        assert_eq!(v["num_occurrences"], "BwAAAAMAAAA=");
        assert_eq!(decode_answer(&v).unwrap(), a);
        // Ten active variables: 1,0,0,0,0,0,0,0,1,1 → 80 c0.
        let ten = Answer {
            num_variables: 10,
            active_variables: (0..10).collect(),
            solutions: vec![vec![1, 0, 0, 0, 0, 0, 0, 0, 1, 1]],
            energies: vec![0.0],
            num_occurrences: vec![1],
            timing: Default::default(),
        };
        let v = encode_answer(&ten);
        assert_eq!(
            b64(v["solutions"].as_str().unwrap(), "s").unwrap(),
            vec![0x80, 0xc0]
        );
        assert_eq!(decode_answer(&v).unwrap(), ten);
    }

    #[test]
    fn malformed_answers_say_what_is_wrong() {
        let mut v = encode_answer(&Answer {
            num_variables: 2,
            active_variables: vec![0, 1],
            solutions: vec![vec![1, 1]],
            energies: vec![0.0],
            num_occurrences: vec![1],
            timing: Default::default(),
        });
        v["energies"] = json!("not base64!");
        assert!(
            decode_answer(&v)
                .unwrap_err()
                .to_string()
                .contains("'energies' is not base64")
        );
        v["energies"] = json!(STANDARD.encode([0u8; 12]));
        assert!(
            decode_answer(&v)
                .unwrap_err()
                .to_string()
                .contains("not a whole number")
        );
        v["energies"] = json!(STANDARD.encode([0u8; 16]));
        let e = decode_answer(&v).unwrap_err().to_string();
        assert!(e.contains("occurrence counts"), "{e}");
        v["num_variables"] = json!(1);
        let e = decode_answer(&v).unwrap_err().to_string();
        assert!(e.contains("≥ num_variables"), "{e}");
    }
}
