//! dimod's binary BQM file (`BinaryQuadraticModel.to_file()`, magic `DIMODBQM`), the form
//! D-Wave's hybrid solvers take by multipart upload (`remote::sapi`).
//!
//! Layout, all little-endian: magic, major and minor version bytes, a u32 header length, a JSON
//! header (sorted keys, Python's `", "`/`": "` separators, then `\n` and spaces up to a multiple
//! of 64 bytes), the offset, per variable `(neighbourhood start, linear bias)`, then every
//! variable's sorted neighbourhood `(neighbour, bias)` — each interaction twice — and, in
//! version 2 with `"variables": true`, a `VARS` section with the labels as a JSON array.
//!
//! Invariant of the writer: version 2.0, float64 biases, int32 indices, BINARY, so the bytes
//! (and the upload's MD5s) are exactly what dimod writes for the same model.

use serde_json::Value;

use super::{FormatError, MAX_VARIABLES, ModelFile, check_model_memory};
use crate::qubo::model::{Coupling, Ising, Qubo};

const MAGIC: &[u8; 8] = b"DIMODBQM";
/// Largest header accepted (dimod's are a few hundred bytes; a v1 header holds the labels).
const MAX_HEADER: usize = 64 << 20;

/// Writes `q` as a version 2.0 file; `labels` (one per variable) go to a `VARS` section.
pub(super) fn write(q: &Qubo, labels: Option<&[String]>) -> Vec<u8> {
    let n = q.num_variables();
    let live: Vec<&Coupling> = q.couplings().iter().filter(|c| c.value != 0.0).collect();
    // Full symmetric adjacency, each neighbourhood sorted by neighbour.
    let mut adjacency: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
    for c in &live {
        adjacency[c.i as usize].push((c.j, c.value));
        adjacency[c.j as usize].push((c.i, c.value));
    }
    for a in &mut adjacency {
        a.sort_by_key(|e| e.0);
    }
    let header = format!(
        "{{\"dtype\": \"float64\", \"itype\": \"int32\", \"ntype\": \"int32\", \"shape\": [{n}, {}], \"type\": \"BinaryQuadraticModel\", \"variables\": {}, \"vartype\": \"BINARY\"}}\n",
        live.len(),
        labels.is_some()
    );
    let mut out = Vec::with_capacity(64 + header.len() + 8 + 12 * (n + 2 * live.len()));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[2, 0]);
    let padded = (14 + header.len()).div_ceil(64) * 64 - 14;
    out.extend_from_slice(&(padded as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.resize(14 + padded, b' ');
    out.extend_from_slice(&q.offset().to_le_bytes());
    let mut start = 0i32;
    for (v, a) in adjacency.iter().enumerate() {
        out.extend_from_slice(&start.to_le_bytes());
        out.extend_from_slice(&q.linear()[v].to_le_bytes());
        start += a.len() as i32;
    }
    for a in &adjacency {
        for &(u, bias) in a {
            out.extend_from_slice(&(u as i32).to_le_bytes());
            out.extend_from_slice(&bias.to_le_bytes());
        }
    }
    if let Some(labels) = labels {
        let json = Value::Array(labels.iter().map(|l| Value::String(l.clone())).collect());
        let text = python_json(&json);
        let padded = (8 + text.len()).div_ceil(64) * 64 - 8;
        out.extend_from_slice(b"VARS");
        out.extend_from_slice(&(padded as u32).to_le_bytes());
        let at = out.len();
        out.extend_from_slice(text.as_bytes());
        out.resize(at + padded, b' ');
    }
    out
}

/// JSON as Python's `json.dumps` writes it by default (`", "` and `": "` separators).
fn python_json(v: &Value) -> String {
    match v {
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(python_json).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), python_json(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// A bounded cursor over the file's bytes; every read names what it wanted.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    origin: &'a str,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], FormatError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(FormatError::whole(
                self.origin,
                format!(
                    "the file ends at byte {} inside {what} (it needs {n} more bytes from byte {})",
                    self.bytes.len(),
                    self.at
                ),
            ));
        };
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
}

/// A numeric dtype of the header: its size and how to read one value as f64.
#[derive(Clone, Copy)]
enum Dtype {
    F32,
    F64,
    Int { size: usize, signed: bool },
}

impl Dtype {
    fn parse(name: &str, key: &str, origin: &str) -> Result<Dtype, FormatError> {
        Ok(match name {
            "float32" => Dtype::F32,
            "float64" => Dtype::F64,
            "int8" | "int16" | "int32" | "int64" | "uint8" | "uint16" | "uint32" | "uint64" => {
                let signed = !name.starts_with('u');
                let bits: usize = name.trim_start_matches('u')[3..].parse().unwrap_or(32);
                Dtype::Int {
                    size: bits / 8,
                    signed,
                }
            }
            other => {
                return Err(FormatError::whole(
                    origin,
                    format!("header {key} {other:?} is not a dtype dimod writes"),
                ));
            }
        })
    }

    /// The largest value an integer dtype holds (floats: unbounded here).
    fn max(self) -> f64 {
        match self {
            Dtype::Int { size, signed } => {
                let bits = 8 * size as i32 - i32::from(signed);
                2f64.powi(bits) - 1.0
            }
            _ => f64::INFINITY,
        }
    }

    fn size(self) -> usize {
        match self {
            Dtype::F32 => 4,
            Dtype::F64 => 8,
            Dtype::Int { size, .. } => size,
        }
    }

    fn read(self, b: &[u8]) -> f64 {
        match self {
            Dtype::F32 => f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
            Dtype::F64 => f64::from_le_bytes(b.try_into().expect("8 bytes")),
            Dtype::Int { signed, size } => {
                let mut buf = [0u8; 8];
                buf[..size].copy_from_slice(b);
                if signed && b[size - 1] & 0x80 != 0 {
                    buf[size..].fill(0xff);
                }
                if signed {
                    i64::from_le_bytes(buf) as f64
                } else {
                    u64::from_le_bytes(buf) as f64
                }
            }
        }
    }
}

/// Checks a file's first bytes while it is read: the magic string as soon as it is there, and
/// the bytes held against the memory budget (parsing needs about as much again).
pub(super) fn check_prefix(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() >= MAGIC.len() && &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a DIMODBQM file (it must start with \"DIMODBQM\")".into());
    }
    // Refused while still streaming: the figure is what has arrived so far (and parsing's
    // copy of it), not the file's size, which the stream does not tell.
    crate::budget::check_memory(
        || {
            format!(
                "reading the binary BQM file (over {} so far, with parsing's copy of it)",
                crate::budget::human(bytes.len() as u64)
            )
        },
        (bytes.len() as u64).saturating_mul(2),
    )
    .map_err(|e| e.to_string())
}

/// Reads a `DIMODBQM` file (versions 1 and 2, BINARY or SPIN; SPIN models are converted).
pub(super) fn parse(bytes: &[u8], origin: &str) -> Result<ModelFile, FormatError> {
    let err = |m: String| FormatError::whole(origin, m);
    let mut c = Cursor {
        bytes,
        at: 0,
        origin,
    };
    if c.take(8, "the magic string")? != MAGIC {
        return Err(err(
            "not a DIMODBQM file (it must start with \"DIMODBQM\")".into()
        ));
    }
    let version = c.take(2, "the version")?;
    let major = version[0];
    if !(1..=2).contains(&major) {
        return Err(err(format!(
            "DIMODBQM version {major}.{} is not 1.x or 2.x",
            version[1]
        )));
    }
    let header_len =
        u32::from_le_bytes(c.take(4, "the header length")?.try_into().expect("4")) as usize;
    if header_len > MAX_HEADER {
        return Err(err(format!("a header of {header_len} bytes is too large")));
    }
    let header_bytes = c.take(header_len, "the header")?;
    let header: Value = std::str::from_utf8(header_bytes)
        .ok()
        .and_then(|t| serde_json::from_str(t.trim_end()).ok())
        .ok_or_else(|| err("the header is not JSON".into()))?;
    let field = |key: &str| {
        header
            .get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| err(format!("header field {key:?} is missing or not a string")))
    };
    let dtype = Dtype::parse(field("dtype")?, "dtype", origin)?;
    let itype = Dtype::parse(field("itype")?, "itype", origin)?;
    let ntype = Dtype::parse(field("ntype")?, "ntype", origin)?;
    if matches!(itype, Dtype::F32 | Dtype::F64) || matches!(ntype, Dtype::F32 | Dtype::F64) {
        return Err(err("itype and ntype must be integer dtypes".into()));
    }
    let shape = header
        .get("shape")
        .and_then(Value::as_array)
        .filter(|s| s.len() == 2)
        .and_then(|s| Some((s[0].as_u64()? as usize, s[1].as_u64()? as usize)))
        .ok_or_else(|| err("header field \"shape\" is not [variables, interactions]".into()))?;
    let (n, ni) = shape;
    if n >= MAX_VARIABLES {
        return Err(err(format!("{n} variables is too many")));
    }
    if let Some(t) = header.get("type").and_then(Value::as_str)
        && t != "BinaryQuadraticModel"
    {
        return Err(err(format!(
            "header type {t:?}: only a BinaryQuadraticModel is read here"
        )));
    }
    // dimod picks index types that hold every index: one that cannot is not its file.
    if n > 0 && (n - 1) as f64 > itype.max() {
        return Err(err(format!(
            "header itype {} cannot index {n} variables",
            field("itype")?
        )));
    }
    if (2 * ni) as f64 > ntype.max() {
        return Err(err(format!(
            "header ntype {} cannot count {} neighbourhood entries",
            field("ntype")?,
            2 * ni
        )));
    }
    // The sections must fit in the file before anything is allocated by the header's counts.
    let need = dtype.size()
        + n.saturating_mul(ntype.size() + dtype.size())
        + ni.saturating_mul(2)
            .saturating_mul(itype.size() + dtype.size());
    // Without a labels section the sections are the whole rest of the file: a size that differs
    // means the header's types or counts are not the data's (an `itype` of int8 over int32
    // indices, say), which is the reason to give rather than whatever misreading follows.
    let labelled = major == 2 && header.get("variables") == Some(&Value::Bool(true));
    let after_header = bytes.len().saturating_sub(c.at);
    if need > after_header || (!labelled && need != after_header) {
        return Err(err(format!(
            "the header declares {n} variables and {ni} interactions of types {}/{}/{}, which need {need} bytes; the file has {after_header} after the header{}",
            field("dtype")?,
            field("itype")?,
            field("ntype")?,
            if need < after_header && bytes[c.at + need..].starts_with(b"VARS") {
                " (a VARS section, but the header says \"variables\": false)"
            } else {
                ""
            }
        )));
    }
    check_model_memory(origin, n, ni)?;
    let offset = dtype.read(c.take(dtype.size(), "the offset")?);
    let mut starts = Vec::with_capacity(n);
    let mut linear = Vec::with_capacity(n);
    for v in 0..n {
        let what = format!("variable {v}'s record");
        starts.push(ntype.read(c.take(ntype.size(), &what)?));
        linear.push(dtype.read(c.take(dtype.size(), &what)?));
    }
    let mut terms = Vec::with_capacity(ni);
    // Each coupling is listed in both its variables' neighbourhoods with one bias: the upper
    // copies are kept to check against the lower ones.
    let mut upper = Vec::with_capacity(ni);
    for v in 0..n {
        let start = starts[v];
        let end = if v + 1 < n {
            starts[v + 1]
        } else {
            (2 * ni) as f64
        };
        if !(start >= 0.0 && end >= start && end <= (2 * ni) as f64) {
            return Err(err(format!(
                "variable {v}'s neighbourhood [{start}, {end}) is not within 0..{}",
                2 * ni
            )));
        }
        let mut previous = -1.0;
        for _ in start as usize..end as usize {
            let what = format!("variable {v}'s neighbourhood");
            let u = itype.read(c.take(itype.size(), &what)?);
            let bias = dtype.read(c.take(dtype.size(), &what)?);
            if !(u >= 0.0 && (u as usize) < n) {
                return Err(err(format!(
                    "variable {v} has neighbour {u}, not in 0..{n}"
                )));
            }
            if u as usize == v || u <= previous {
                return Err(err(format!(
                    "variable {v}'s neighbourhood lists {u} {}; dimod lists distinct other variables in ascending order",
                    if u as usize == v {
                        "(itself)"
                    } else {
                        "out of order or twice"
                    }
                )));
            }
            previous = u;
            if (u as usize) < v {
                terms.push((u as usize, v, bias));
            } else {
                upper.push((v, u as usize, bias));
            }
        }
    }
    // Both copies of every coupling, with equal biases.
    upper.sort_by_key(|t| (t.0, t.1));
    let mut lower: Vec<(usize, usize, f64)> = terms.clone();
    lower.sort_by_key(|t| (t.0, t.1));
    if let Some(k) = (0..lower.len().max(upper.len()))
        .find(|&k| lower.get(k).map(|t| (t.0, t.1)) != upper.get(k).map(|t| (t.0, t.1)))
    {
        let (a, b) = lower
            .get(k)
            .or(upper.get(k))
            .map(|t| (t.0, t.1))
            .unwrap_or((0, 0));
        return Err(err(format!(
            "the coupling of variables {a} and {b} is listed in one's neighbourhood but not the other's (the adjacency must be symmetric)"
        )));
    }
    if let Some((l, _)) = lower
        .iter()
        .zip(&upper)
        .find(|(l, u)| l.2 != u.2 && !(l.2.is_nan() && u.2.is_nan()))
    {
        return Err(err(format!(
            "the coupling of variables {} and {} has different biases in their two neighbourhoods",
            l.0, l.1
        )));
    }
    let labels = read_labels(&mut c, &header, major, n, origin)?;
    if c.at < bytes.len() {
        return Err(err(format!(
            "{} bytes follow the end of the model at byte {}",
            bytes.len() - c.at,
            c.at
        )));
    }
    let qubo = match header.get("vartype").and_then(Value::as_str) {
        Some("BINARY") => Qubo::new(linear, terms, offset),
        Some("SPIN") => Qubo::from_ising(&Ising {
            h: linear,
            j: terms
                .into_iter()
                .map(|(i, j, value)| Coupling {
                    i: i.min(j) as u32,
                    j: i.max(j) as u32,
                    value,
                })
                .collect(),
            offset,
        }),
        Some(other) => {
            return Err(err(format!(
                "header vartype {:?} is not \"BINARY\" or \"SPIN\"",
                crate::params::shown_within(other, 40)
            )));
        }
        None => {
            return Err(err(
                "header field \"vartype\" is missing or not text (\"BINARY\" or \"SPIN\")".into(),
            ));
        }
    }
    .map_err(|e| err(e.to_string()))?;
    Ok(ModelFile {
        qubo,
        labels,
        warnings: Vec::new(),
    })
}

/// The labels: v1 keeps them in the header, v2 in a `VARS` section when `variables` is true.
fn read_labels(
    c: &mut Cursor<'_>,
    header: &Value,
    major: u8,
    n: usize,
    origin: &str,
) -> Result<Option<Vec<String>>, FormatError> {
    let err = |m: String| FormatError::whole(origin, m);
    let list = match (major, header.get("variables")) {
        (1, Some(Value::Array(a))) => a.clone(),
        (2, Some(Value::Bool(true))) => {
            if c.take(4, "the VARS section")? != b"VARS" {
                return Err(err("the labels section does not start with \"VARS\"".into()));
            }
            let len = u32::from_le_bytes(c.take(4, "the VARS length")?.try_into().expect("4 bytes"))
                as usize;
            let text = c.take(len, "the VARS section")?;
            let v: Value = std::str::from_utf8(text)
                .ok()
                .and_then(|t| serde_json::from_str(t.trim_end()).ok())
                .ok_or_else(|| err("the VARS section is not a JSON array".into()))?;
            match v {
                Value::Array(a) => a,
                _ => return Err(err("the VARS section is not a JSON array".into())),
            }
        }
        _ => return Ok(None),
    };
    if list.len() != n {
        return Err(err(format!("{} labels for {n} variables", list.len())));
    }
    let labels: Vec<String> = list
        .iter()
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    let mut seen = std::collections::HashSet::with_capacity(n);
    if let Some(l) = labels.iter().find(|l| !seen.insert(l.as_str())) {
        return Err(err(format!(
            "the label {l:?} repeats: labels must be distinct"
        )));
    }
    Ok(Some(labels))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of the format notes (checked there by running dimod): BINARY,
    /// linear {0: 1, 1: −2, 2: 0.5}, quadratic {(0,1): 3, (1,2): −1.5}, offset 0.25.
    fn example() -> Qubo {
        Qubo::new(vec![1.0, -2.0, 0.5], [(0, 1, 3.0), (1, 2, -1.5)], 0.25).unwrap()
    }

    #[test]
    fn the_documented_example_is_written_byte_for_byte() {
        let bytes = write(&example(), None);
        assert_eq!(bytes.len(), 284);
        assert_eq!(&bytes[..14], b"DIMODBQM\x02\x00\xb2\x00\x00\x00");
        let header = std::str::from_utf8(&bytes[14..192]).unwrap();
        assert!(header.starts_with(
            "{\"dtype\": \"float64\", \"itype\": \"int32\", \"ntype\": \"int32\", \"shape\": [3, 2], \"type\": \"BinaryQuadraticModel\", \"variables\": false, \"vartype\": \"BINARY\"}\n"
        ));
        let hex: Vec<String> = bytes[192..].iter().map(|b| format!("{b:02x}")).collect();
        let expected = "00000000000000d03f\
            00000000 000000000000f03f 01000000 00000000000000c0 03000000 000000000000e03f\
            01000000 0000000000000840 00000000 0000000000000840 02000000 000000000000f8bf\
            01000000 000000000000f8bf";
        let expected: String = expected.split_whitespace().collect();
        assert_eq!(hex.concat(), &expected[2..]);
        let back = parse(&bytes, "x.bqm").unwrap();
        assert_eq!(back.qubo, example());
        assert!(back.labels.is_none());
    }

    #[test]
    fn labels_go_to_a_padded_vars_section() {
        let q = Qubo::new(vec![1.0, 2.0], [(0, 1, -1.0)], 0.0).unwrap();
        let labels = vec!["a".to_string(), "b".to_string()];
        let bytes = write(&q, Some(&labels));
        let tail = &bytes[bytes.len() - 64..];
        assert_eq!(&tail[..8], b"VARS\x38\x00\x00\x00");
        assert_eq!(&tail[8..18], b"[\"a\", \"b\"]");
        assert!(tail[18..].iter().all(|&b| b == b' '));
        let back = parse(&bytes, "x.bqm").unwrap();
        assert_eq!(back.labels.unwrap(), labels);
        assert_eq!(back.qubo, q);
    }

    #[test]
    fn damaged_files_say_what_is_wrong() {
        let bytes = write(&example(), None);
        let e = parse(&bytes[..200], "x.bqm").unwrap_err().to_string();
        assert!(e.starts_with("x.bqm: ") && e.contains("need"), "{e}");
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(
            parse(&bad, "x.bqm")
                .unwrap_err()
                .to_string()
                .contains("DIMODBQM")
        );
        let mut bad = bytes.clone();
        bad[8] = 3;
        assert!(
            parse(&bad, "x.bqm")
                .unwrap_err()
                .to_string()
                .contains("version 3")
        );
        // A neighbour index out of range.
        let mut bad = bytes.clone();
        bad[192 + 8 + 36] = 9;
        let e = parse(&bad, "x.bqm").unwrap_err().to_string();
        assert!(e.contains("neighbour 9"), "{e}");
        // Variable 0 lists 2 instead of 1: the two neighbourhoods disagree.
        let mut bad = bytes.clone();
        bad[192 + 8 + 36] = 2;
        let e = parse(&bad, "x.bqm").unwrap_err().to_string();
        assert!(e.contains("must be symmetric"), "{e}");
        // The (0, 1) bias differs between its two copies.
        let mut bad = bytes.clone();
        bad[192 + 8 + 36 + 11] = 0x41;
        let e = parse(&bad, "x.bqm").unwrap_err().to_string();
        assert!(e.contains("variables 0 and 1 has different biases"), "{e}");
        // Another model type under the BQM magic.
        let mut bad = bytes.clone();
        let at = bytes
            .windows(20)
            .position(|w| w == b"BinaryQuadraticModel")
            .unwrap();
        bad[at..at + 20].copy_from_slice(b"DiscreteQuadraticMod");
        let e = parse(&bad, "x.bqm").unwrap_err().to_string();
        assert!(e.contains("only a BinaryQuadraticModel"), "{e}");
        // Bytes after the model, with and without labels.
        let mut bad = bytes.clone();
        bad.extend_from_slice(b"GARBAGE\n");
        let e = parse(&bad, "x.bqm").unwrap_err().to_string();
        assert!(
            e.contains("file has") && e.contains("after the header"),
            "{e}"
        );
        let labels = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let mut bad = write(&example(), Some(&labels));
        bad.extend_from_slice(b"GARBAGE\n");
        let e = parse(&bad, "x.bqm").unwrap_err().to_string();
        assert!(e.contains("8 bytes follow the end of the model"), "{e}");
        // A labels section the header does not announce.
        let labelled = write(&example(), Some(&labels));
        let mut bad = labelled.clone();
        let at = bad
            .windows(14)
            .position(|w| w == b"\"variables\": t")
            .unwrap();
        bad[at + 13..at + 19].copy_from_slice(b"false,");
        let e = parse(&bad, "x.bqm").unwrap_err().to_string();
        assert!(e.contains("a VARS section, but the header says"), "{e}");
        // An index type narrower than the data's: the sizes disagree, and that is the reason.
        let mut bad = bytes.clone();
        let at = bad
            .windows(16)
            .position(|w| w == b"\"itype\": \"int32\"")
            .unwrap();
        bad[at..at + 16].copy_from_slice(b"\"itype\": \"int8\" ");
        let e = parse(&bad, "x.bqm").unwrap_err().to_string();
        assert!(
            e.contains("float64/int8/int32") && e.contains("need"),
            "{e}"
        );
    }

    #[test]
    fn index_types_must_hold_every_index() {
        let int8 = Dtype::Int {
            size: 1,
            signed: true,
        };
        let uint16 = Dtype::Int {
            size: 2,
            signed: false,
        };
        assert_eq!((int8.max(), uint16.max()), (127.0, 65535.0));
    }
}
