//! Model files: qbsolv `.qubo`, dimod COO, dimod BQM JSON (`to_serializable` shape) and dimod's
//! binary BQM file (`.bqm`, what `to_file()` writes and hybrid solvers take).
//! Each format's module says what it reads and writes; every reader reports `FILE:LINE: what
//! is wrong`.

mod coo;
mod dimod_bqm;
mod dimod_json;
pub use dimod_json::label_text;
mod qbsolv;

use std::fmt;
use std::path::Path;

use super::model::Qubo;
use crate::io::{FileError, FileProblem};

/// Files larger than this are refused before reading (a model this big wants a stream reader).
pub const MAX_MODEL_FILE_BYTES: u64 = 2 << 30;
/// Largest variable count a model file may declare (guards allocations against bad headers).
pub const MAX_VARIABLES: usize = 50_000_000;

/// The model file formats read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// qbsolv `.qubo` text.
    Qbsolv,
    /// dimod COO text (`i j value` lines), with our `# n=N offset=C` header.
    Coo,
    /// dimod `BinaryQuadraticModel.to_serializable()` JSON.
    DimodJson,
    /// dimod's binary `DIMODBQM` file (`BinaryQuadraticModel.to_file()`).
    DimodBqm,
}

impl Format {
    /// The format a file name's extension names: `.qubo`, `.coo`/`.txt`, `.json`, `.bqm`.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "qubo" => Some(Format::Qbsolv),
            "coo" | "txt" => Some(Format::Coo),
            "json" => Some(Format::DimodJson),
            "bqm" => Some(Format::DimodBqm),
            _ => None,
        }
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Qbsolv => "qbsolv .qubo",
            Format::Coo => "COO",
            Format::DimodJson => "dimod BQM JSON",
            Format::DimodBqm => "dimod binary BQM",
        }
    }
}

/// A model read from a file: the matrix, variable labels when the file has them, and
/// warnings about things other tools would read differently.
#[derive(Clone, Debug)]
pub struct ModelFile {
    /// The model.
    pub qubo: Qubo,
    /// One label per variable, when the file names them.
    pub labels: Option<Vec<String>>,
    /// Things other tools would read differently (e.g. a lower-triangular entry), for the user.
    pub warnings: Vec<String>,
}

/// What is wrong with a model file, and where.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub struct FormatError {
    /// The file (or other origin) named in the message.
    pub path: String,
    /// 1-based line, when the problem is on one.
    pub line: Option<usize>,
    /// What is wrong and, where it helps, what to do.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.path, l, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl FormatError {
    pub(crate) fn at(path: &str, line: usize, message: impl Into<String>) -> Self {
        FormatError {
            path: path.to_string(),
            line: Some(line),
            message: message.into(),
        }
    }
    pub(crate) fn whole(path: &str, message: impl Into<String>) -> Self {
        FormatError {
            path: path.to_string(),
            line: None,
            message: message.into(),
        }
    }
}

/// The extensions `Format::from_path` knows, as a phrase for messages.
const MODEL_EXTENSIONS: &str =
    ".qubo (qbsolv), .coo or .txt (COO), .json (dimod BQM JSON) or .bqm (dimod binary BQM)";

fn format_for(path: &Path) -> Result<Format, FormatError> {
    Format::from_path(path).ok_or_else(|| {
        FormatError::whole(
            &path.display().to_string(),
            format!("unknown model format: use the extension {MODEL_EXTENSIONS}"),
        )
    })
}

/// Reads a model file, choosing the format by extension.
pub fn read_model(path: &Path) -> Result<ModelFile, FormatError> {
    let name = path.display().to_string();
    let format = format_for(path)?;
    if format == Format::DimodBqm {
        let bytes =
            crate::io::read_bytes_checked(path, MAX_MODEL_FILE_BYTES, dimod_bqm::check_prefix)
                .map_err(|e| FormatError::whole(&name, e.problem.to_string()))?;
        return dimod_bqm::parse(&bytes, &name);
    }
    let text = crate::io::read_text_limited(path, MAX_MODEL_FILE_BYTES)
        .map_err(|e| FormatError::whole(&name, e.problem.to_string()))?;
    parse_model(&text, format, &name)
}

/// Parses model text; `origin` names the source in error messages.
pub fn parse_model(text: &str, format: Format, origin: &str) -> Result<ModelFile, FormatError> {
    parse_model_bytes(text.as_bytes(), format, origin)
}

/// Parses a model from bytes (the text formats must be UTF-8).
pub fn parse_model_bytes(
    bytes: &[u8],
    format: Format,
    origin: &str,
) -> Result<ModelFile, FormatError> {
    if format == Format::DimodBqm {
        return dimod_bqm::parse(bytes, origin);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        FormatError::whole(
            origin,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    match format {
        Format::Qbsolv => qbsolv::parse(text, origin),
        Format::Coo => coo::parse(text, origin),
        Format::DimodJson => dimod_json::parse(text, origin),
        Format::DimodBqm => unreachable!("handled above"),
    }
}

/// Serialises a model; `labels` (one per variable) are kept where the format can hold them.
pub fn model_to_bytes(qubo: &Qubo, labels: Option<&[String]>, format: Format) -> Vec<u8> {
    match format {
        Format::Qbsolv => qbsolv::write(qubo, labels).into_bytes(),
        Format::Coo => coo::write(qubo).into_bytes(),
        Format::DimodJson => dimod_json::write(qubo, labels).into_bytes(),
        Format::DimodBqm => dimod_bqm::write(qubo, labels),
    }
}

/// Writes a model atomically (temporary file, then rename), the format chosen by extension.
pub fn write_model(path: &Path, qubo: &Qubo, labels: Option<&[String]>) -> Result<(), FileError> {
    let format = Format::from_path(path).ok_or_else(|| {
        FileError::new(
            path,
            FileProblem::UnknownExtension {
                what: "model",
                expected: MODEL_EXTENSIONS,
            },
        )
    })?;
    crate::io::write_atomic(path, &model_to_bytes(qubo, labels, format))
}

/// Variables a header may declare beyond those the file mentions, at the least.
const FREE_ISOLATED_VARIABLES: usize = 1_000_000;
/// … and per entry the file holds, beyond that.
const ISOLATED_VARIABLES_PER_ENTRY: usize = 100;

/// A header's variable count against the file's content: isolated variables (declared, never
/// mentioned) are allowed, but a 13-byte file declaring 5·10⁷ of them is a typo or an attack,
/// and would cost gigabytes before anything else is checked.
fn check_declared_size(declared: usize, used: usize, entries: usize) -> Result<(), String> {
    let allowed =
        used + FREE_ISOLATED_VARIABLES.max(entries.saturating_mul(ISOLATED_VARIABLES_PER_ENTRY));
    if declared > allowed {
        return Err(format!(
            "the header declares {declared} variables, but the file mentions only {used} in \
             {entries} entries; at most {allowed} are accepted for a file this size"
        ));
    }
    Ok(())
}

/// How many distinct variables `indices` (each below `bound`) name: what a size rule counts as
/// used (the largest index + 1 would let one entry at 49 999 999 vouch for 5·10⁷ variables).
fn distinct_indices(indices: impl Iterator<Item = usize>, bound: usize) -> usize {
    let mut seen = vec![0u64; bound.div_ceil(64)];
    let mut count = 0;
    for i in indices {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if let Some(w) = seen.get_mut(word)
            && *w & bit == 0
        {
            *w |= bit;
            count += 1;
        }
    }
    count
}

/// The memory budget for a model of `n` variables and `entries` terms read from `origin`: the
/// model, then the samplers' CSR (every coupling in both rows).
fn check_model_memory(origin: &str, n: usize, entries: usize) -> Result<(), FormatError> {
    use crate::budget::{bytes_of, check_memory};
    check_memory(
        || format!("a model of {n} variables and {entries} entries"),
        bytes_of(&[n, 40]).saturating_add(bytes_of(&[entries, 16 + 24])),
    )
    .map_err(|e| FormatError::whole(origin, e.to_string()))
}

/// Parses a real number, naming it in the error; rejects NaN and infinities.
fn parse_real(token: &str, what: &str) -> Result<f64, String> {
    let v: f64 = token
        .parse()
        .map_err(|_| format!("{what} '{token}' is not a number"))?;
    if !v.is_finite() {
        return Err(format!("{what} is {token}, but it must be a finite number"));
    }
    Ok(v)
}

/// Parses a variable index, below `MAX_VARIABLES`.
fn parse_index(token: &str, what: &str) -> Result<usize, String> {
    let v = parse_count(token, what)?;
    if v >= MAX_VARIABLES {
        return Err(format!(
            "{what} {v} is too large (indices are 0 to {}: at most {MAX_VARIABLES} variables are supported)",
            MAX_VARIABLES - 1
        ));
    }
    Ok(v)
}

/// Parses a count of variables (or entries), at most `MAX_VARIABLES`.
fn parse_count(token: &str, what: &str) -> Result<usize, String> {
    let v: usize = token
        .parse()
        .map_err(|_| format!("{what} '{token}' is not a non-negative integer"))?;
    if v > MAX_VARIABLES {
        return Err(format!(
            "{what} {v} is too large (at most {MAX_VARIABLES} variables are supported)"
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_qubo() -> Qubo {
        Qubo::new(
            vec![3.4, 0.0, -2.1, 1e-7],
            vec![(0, 1, 2.2), (1, 3, -0.125), (0, 3, 1.0 / 3.0)],
            0.75,
        )
        .unwrap()
    }

    #[test]
    fn every_format_round_trips_exactly() {
        let q = sample_qubo();
        let labels: Vec<String> = (0..4).map(|k| format!("v[{k}]")).collect();
        for f in [
            Format::Qbsolv,
            Format::Coo,
            Format::DimodJson,
            Format::DimodBqm,
        ] {
            let bytes = model_to_bytes(&q, Some(&labels), f);
            let back = parse_model_bytes(&bytes, f, "mem").unwrap();
            assert_eq!(back.qubo, q, "{f:?}:\n{}", String::from_utf8_lossy(&bytes));
            if f != Format::Coo {
                assert_eq!(back.labels.as_deref(), Some(&labels[..]), "{f:?}");
            }
        }
    }

    #[test]
    fn coo_never_uses_exponents() {
        let text = String::from_utf8(model_to_bytes(&sample_qubo(), None, Format::Coo)).unwrap();
        assert!(
            text.starts_with("# vartype=BINARY\n# n=4 offset=0.75\n"),
            "{text}"
        );
        assert!(text.contains("3 3 0.0000001"), "{text}");
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            assert!(!line.contains('e') && !line.contains('E'), "{line}");
            let t: Vec<&str> = line.split(' ').collect();
            assert!(t[0].parse::<usize>().unwrap() <= t[1].parse::<usize>().unwrap());
        }
    }
}
