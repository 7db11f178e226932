//! dimod's `ConstrainedQuadraticModel.to_file()` (serialization version 2.0): the magic
//! `DIMODCQM`, a version, a JSON header, then a zip of `varinfo`, `objective`,
//! `constraints/<label>/{lhs, rhs, sense, discrete, weight, penalty}` and
//! `variable_labels.json`. Expressions are `DIMODEXPR` files of NPY-like sections (`INDX`,
//! `OFFS`, `LINB`, `QUAD`). Binary and spin variables are read; integer and real variables
//! are refused, naming the variable.

use std::collections::BTreeMap;
use std::io::{Cursor, Read};

use super::model::{
    ConstrainedModel, Constraint, Expr, MAX_CONSTRAINTS, MAX_TERMS, MAX_VARIABLES, Sense, VarType,
    Variable, tidy,
};

/// The file's first bytes.
pub const MAGIC: &[u8] = b"DIMODCQM";
/// Largest decompressed zip member (and, summed, the whole model) a file may hold.
const MAX_MEMBER_BYTES: u64 = 1 << 30;

/// Whether `bytes` start like a CQM file.
pub fn looks_like(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads a CQM file; errors name `origin` and the member at fault.
pub fn parse(bytes: &[u8], origin: &str) -> Result<ConstrainedModel, crate::puzzle::PuzzleError> {
    read(bytes, origin).map_err(crate::puzzle::PuzzleError::Invalid)
}

fn read(bytes: &[u8], origin: &str) -> Result<ConstrainedModel, String> {
    // Labels and member names come from the file: a line break in one must not split the message.
    let fail = |what: String| format!("{origin}: {}", crate::io::printable(&what));
    let (header, _) = header(bytes, MAGIC).map_err(fail)?;
    let version = header.version;
    if version.0 != 2 {
        return Err(fail(format!(
            "CQM serialization version {}.{}: only version 2 is read (save it again with dimod ≥ 0.12)",
            version.0, version.1
        )));
    }
    let num_variables = header.data["num_variables"]
        .as_u64()
        .ok_or_else(|| fail("the header has no num_variables".into()))?
        as usize;
    if num_variables > MAX_VARIABLES {
        return Err(fail(format!(
            "{num_variables} variables: more than the {MAX_VARIABLES} a model may have"
        )));
    }
    // The zip follows the header, its offsets counted from the file's start (Python's
    // zipfile appends it so): the archive is read from the whole file.
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| fail(format!("the model's zip part is unreadable: {e}")))?;
    if zip.len() > 6 * MAX_CONSTRAINTS + 8 {
        return Err(fail(format!("{} zip members: too many", zip.len())));
    }
    let mut budget = MAX_MEMBER_BYTES;
    let mut member = |zip: &mut zip::ZipArchive<Cursor<&[u8]>>, name: &str| {
        read_member(zip, name, &mut budget).map_err(&fail)
    };

    // Variables: vartype (i8), lower and upper bounds (f64 each), packed.
    let varinfo = member(&mut zip, "varinfo")?.ok_or_else(|| fail("no varinfo member".into()))?;
    let data = section(&varinfo, b"VTYP", 4).map_err(|e| fail(format!("varinfo: {e}")))?;
    if data.len() < 17 * num_variables {
        return Err(fail(format!(
            "varinfo holds {} bytes, {num_variables} variables need {}",
            data.len(),
            17 * num_variables
        )));
    }
    let labels: Option<Vec<String>> = match member(&mut zip, "variable_labels.json")? {
        None => None,
        Some(raw) => {
            let v: serde_json::Value = serde_json::from_slice(&raw)
                .map_err(|e| fail(format!("variable_labels.json: {e}")))?;
            let list = v
                .as_array()
                .ok_or_else(|| fail("variable_labels.json is not a list".into()))?;
            if list.len() != num_variables {
                return Err(fail(format!(
                    "variable_labels.json has {} labels for {num_variables} variables",
                    list.len()
                )));
            }
            Some(list.iter().map(label_text).collect())
        }
    };
    let mut variables = Vec::with_capacity(num_variables);
    for k in 0..num_variables {
        let rec = &data[17 * k..17 * k + 17];
        let label = labels
            .as_ref()
            .map_or_else(|| k.to_string(), |l| l[k].clone());
        let lb = f64::from_le_bytes(rec[1..9].try_into().unwrap_or_default());
        let ub = f64::from_le_bytes(rec[9..17].try_into().unwrap_or_default());
        let vartype = match rec[0] {
            0 => VarType::Binary,
            1 => VarType::Spin,
            2 => {
                return Err(fail(format!(
                    "variable '{label}' is an integer variable (bounds {lb}..{ub}): only binary and \
                     spin variables are supported; expand it into binary digits before saving \
                     (x = Σ 2ᵏ bₖ)"
                )));
            }
            3 => {
                return Err(fail(format!(
                    "variable '{label}' is a real variable: only binary and spin variables are supported"
                )));
            }
            t => {
                return Err(fail(format!(
                    "variable '{label}' has an unknown vartype {t}"
                )));
            }
        };
        variables.push(Variable { label, vartype });
    }

    let objective =
        member(&mut zip, "objective")?.ok_or_else(|| fail("no objective member".into()))?;
    let mut terms = 0usize;
    let objective = expression(&objective, num_variables, &mut terms)
        .map_err(|e| fail(format!("objective: {e}")))?;

    // Constraints, by their directory (the label as JSON); sorted for a stable order.
    let mut dirs: BTreeMap<String, ()> = BTreeMap::new();
    for k in 0..zip.len() {
        let name = zip
            .by_index_raw(k)
            .map_err(|e| fail(format!("zip member {k}: {e}")))?
            .name()
            .map_err(|e| fail(format!("zip member {k}: {e}")))?
            .to_string();
        if let Some(rest) = name.strip_prefix("constraints/")
            && let Some((dir, _)) = rest.rsplit_once('/')
        {
            dirs.insert(dir.to_string(), ());
        }
    }
    if dirs.len() > MAX_CONSTRAINTS {
        return Err(fail(format!(
            "{} constraints: more than the {MAX_CONSTRAINTS} a model may have",
            dirs.len()
        )));
    }
    let mut constraints = Vec::with_capacity(dirs.len());
    for dir in dirs.keys() {
        let label = serde_json::from_str::<serde_json::Value>(dir)
            .map(|v| label_text(&v))
            .unwrap_or_else(|_| dir.clone());
        let at = |what: &str| format!("constraint '{label}': {what}");
        let get = |zip: &mut zip::ZipArchive<Cursor<&[u8]>>, budget: &mut u64, part: &str| {
            read_member(zip, &format!("constraints/{dir}/{part}"), budget)
        };
        let lhs = get(&mut zip, &mut budget, "lhs")
            .map_err(&fail)?
            .ok_or_else(|| fail(at("no lhs")))?;
        let lhs = expression(&lhs, num_variables, &mut terms).map_err(|e| fail(at(&e)))?;
        let rhs = get(&mut zip, &mut budget, "rhs")
            .map_err(&fail)?
            .and_then(|b| {
                b.get(..8)
                    .map(|b| f64::from_le_bytes(b.try_into().unwrap_or_default()))
            })
            .ok_or_else(|| fail(at("no rhs")))?;
        let sense = match get(&mut zip, &mut budget, "sense")
            .map_err(&fail)?
            .as_deref()
        {
            Some(b"==") => Sense::Eq,
            Some(b"<=") => Sense::Le,
            Some(b">=") => Sense::Ge,
            Some(other) => {
                return Err(fail(at(&format!(
                    "unknown sense {:?}",
                    String::from_utf8_lossy(other)
                ))));
            }
            None => return Err(fail(at("no sense"))),
        };
        let discrete = get(&mut zip, &mut budget, "discrete")
            .map_err(&fail)?
            .is_some_and(|b| b.iter().any(|&x| x != 0));
        let weight = get(&mut zip, &mut budget, "weight")
            .map_err(&fail)?
            .and_then(|b| {
                b.get(..8)
                    .map(|b| f64::from_le_bytes(b.try_into().unwrap_or_default()))
            });
        let penalty = get(&mut zip, &mut budget, "penalty").map_err(&fail)?;
        let soft_weight = match (weight, penalty.as_deref()) {
            (None, _) => None,
            // dimod marks hard constraints with an infinite weight.
            (Some(w), _) if w.is_infinite() => None,
            (Some(w), Some(b"quadratic")) => Some(w),
            (Some(_), Some(p)) => {
                return Err(fail(at(&format!(
                    "a soft constraint with a {} penalty: only quadratic penalties can be a QUBO's",
                    String::from_utf8_lossy(p)
                ))));
            }
            (Some(w), None) => Some(w),
        };
        constraints.push(Constraint {
            label,
            lhs: tidy(&variables, lhs),
            sense,
            rhs,
            discrete,
            soft_weight,
            weight: None,
            penalty: false,
        });
    }
    let model = ConstrainedModel {
        name: String::new(),
        direction: Default::default(),
        objective: tidy(&variables, objective),
        variables,
        constraints,
        weights: Default::default(),
    };
    model.validate().map_err(fail)?;
    Ok(model)
}

/// A dimod label as text: strings as they are, numbers as written, tuples (JSON lists) as
/// Python prints them, `('x', 1)`.
fn label_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| match i {
                    serde_json::Value::String(s) => format!("'{s}'"),
                    other => label_text(other),
                })
                .collect();
            if parts.len() == 1 {
                format!("({},)", parts[0])
            } else {
                format!("({})", parts.join(", "))
            }
        }
        other => other.to_string(),
    }
}

/// A zip member's bytes, or `None` when the archive has no such member; every byte read is
/// taken from `budget` (a zip bomb stops there).
fn read_member(
    zip: &mut zip::ZipArchive<Cursor<&[u8]>>,
    name: &str,
    budget: &mut u64,
) -> Result<Option<Vec<u8>>, String> {
    let file = match zip.by_name(name) {
        Ok(f) => f,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let mut out = Vec::new();
    let read = file
        .take(*budget + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("{name}: {e}"))? as u64;
    if read > *budget {
        return Err(format!(
            "{name}: the model decompresses to more than {} MiB",
            MAX_MEMBER_BYTES >> 20
        ));
    }
    *budget -= read;
    Ok(Some(out))
}

struct Header {
    version: (u8, u8),
    data: serde_json::Value,
}

/// `MAGIC`, major, minor, a little-endian u32 length, that many bytes of JSON; the rest.
fn header<'a>(bytes: &'a [u8], magic: &[u8]) -> Result<(Header, &'a [u8]), String> {
    let m = magic.len();
    if !bytes.starts_with(magic) {
        return Err(format!(
            "not a dimod file (it does not start with {})",
            String::from_utf8_lossy(magic)
        ));
    }
    let fixed = bytes
        .get(m..m + 6)
        .ok_or_else(|| "the header is cut short".to_string())?;
    let len = u32::from_le_bytes(fixed[2..6].try_into().unwrap_or_default()) as usize;
    let json = bytes
        .get(m + 6..m + 6 + len)
        .ok_or_else(|| format!("the header says {len} bytes, the file is shorter"))?;
    let data: serde_json::Value = serde_json::from_slice(json.trim_ascii_end())
        .map_err(|e| format!("the header is not JSON: {e}"))?;
    Ok((
        Header {
            version: (fixed[0], fixed[1]),
            data,
        },
        &bytes[m + 6 + len..],
    ))
}

/// A section: 4 magic bytes, a little-endian length of `len_bytes` bytes, the data.
fn section<'a>(bytes: &'a [u8], magic: &[u8; 4], len_bytes: usize) -> Result<&'a [u8], String> {
    let (data, _) = section_rest(bytes, magic, len_bytes)?;
    Ok(data)
}

fn section_rest<'a>(
    bytes: &'a [u8],
    magic: &[u8; 4],
    len_bytes: usize,
) -> Result<(&'a [u8], &'a [u8]), String> {
    let name = String::from_utf8_lossy(magic);
    if !bytes.starts_with(magic) {
        return Err(format!("expected the {name} section"));
    }
    let raw = bytes
        .get(4..4 + len_bytes)
        .ok_or_else(|| format!("the {name} section is cut short"))?;
    let mut len = [0u8; 8];
    len[..len_bytes].copy_from_slice(raw);
    let len = u64::from_le_bytes(len);
    let start = 4 + len_bytes;
    let end = (start as u64)
        .checked_add(len)
        .filter(|&e| e <= bytes.len() as u64)
        .ok_or_else(|| format!("the {name} section says {len} bytes, fewer remain"))?
        as usize;
    Ok((&bytes[start..end], &bytes[end..]))
}

/// A numpy dtype this reader takes: its size and how to read one value.
#[derive(Clone, Copy)]
enum Dtype {
    F64,
    F32,
    I64,
    I32,
    I16,
    U64,
    U32,
    U16,
}

impl Dtype {
    fn parse(name: &str) -> Result<Dtype, String> {
        Ok(match name {
            "float64" => Dtype::F64,
            "float32" => Dtype::F32,
            "int64" => Dtype::I64,
            "int32" => Dtype::I32,
            "int16" => Dtype::I16,
            "uint64" => Dtype::U64,
            "uint32" => Dtype::U32,
            "uint16" => Dtype::U16,
            other => return Err(format!("unsupported dtype '{other}'")),
        })
    }
    fn size(self) -> usize {
        match self {
            Dtype::F64 | Dtype::I64 | Dtype::U64 => 8,
            Dtype::F32 | Dtype::I32 | Dtype::U32 => 4,
            Dtype::I16 | Dtype::U16 => 2,
        }
    }
    fn read(self, b: &[u8]) -> f64 {
        let a = |n: usize| -> [u8; 8] {
            let mut out = [0u8; 8];
            out[..n].copy_from_slice(&b[..n]);
            out
        };
        match self {
            Dtype::F64 => f64::from_le_bytes(a(8)),
            Dtype::F32 => f32::from_le_bytes(a(4)[..4].try_into().unwrap_or_default()) as f64,
            Dtype::I64 => i64::from_le_bytes(a(8)) as f64,
            Dtype::I32 => i32::from_le_bytes(a(4)[..4].try_into().unwrap_or_default()) as f64,
            Dtype::I16 => i16::from_le_bytes([b[0], b[1]]) as f64,
            Dtype::U64 => u64::from_le_bytes(a(8)) as f64,
            Dtype::U32 => u32::from_le_bytes(a(4)[..4].try_into().unwrap_or_default()) as f64,
            Dtype::U16 => u16::from_le_bytes([b[0], b[1]]) as f64,
        }
    }
}

/// An expression file: its variables (indices into the model), offset, linear and quadratic
/// biases (the quadratic pairs index the expression's own variables). `terms` counts every
/// term read across the model against `MAX_TERMS`.
fn expression(bytes: &[u8], num_variables: usize, terms: &mut usize) -> Result<Expr, String> {
    let (h, rest) = header(bytes, b"DIMODEXPR")?;
    let shape = h.data["shape"]
        .as_array()
        .filter(|s| s.len() == 2)
        .ok_or_else(|| "the expression header has no shape".to_string())?;
    let (n, m) = (
        shape[0].as_u64().unwrap_or(u64::MAX) as usize,
        shape[1].as_u64().unwrap_or(u64::MAX) as usize,
    );
    if n > num_variables || m > MAX_TERMS || terms.saturating_add(n).saturating_add(m) > MAX_TERMS {
        return Err(format!(
            "{n} variables and {m} interactions: more than the model's budget"
        ));
    }
    *terms += n + m;
    let dtype = Dtype::parse(h.data["dtype"].as_str().unwrap_or("?"))?;
    let itype = Dtype::parse(h.data["itype"].as_str().unwrap_or("?"))?;
    if matches!(itype, Dtype::F64 | Dtype::F32) {
        return Err("a floating-point index type".into());
    }
    let (indices, rest) = section_rest(rest, b"INDX", 4)?;
    let (offset, rest) = section_rest(rest, b"OFFS", 4)?;
    let (linear, rest) = section_rest(rest, b"LINB", 4)?;
    let (quad, _) = section_rest(rest, b"QUAD", 8)?;
    let need = |what: &str, have: usize, want: usize| {
        if have < want {
            Err(format!(
                "the {what} section holds {have} bytes, {want} are needed"
            ))
        } else {
            Ok(())
        }
    };
    need("INDX", indices.len(), n * itype.size())?;
    need("OFFS", offset.len(), dtype.size())?;
    need("LINB", linear.len(), n * dtype.size())?;
    let rec = 2 * itype.size() + dtype.size();
    need("QUAD", quad.len(), m * rec)?;
    let mut var = Vec::with_capacity(n);
    for k in 0..n {
        let v = itype.read(&indices[k * itype.size()..]);
        if !(v >= 0.0 && (v as usize) < num_variables) {
            return Err(format!(
                "variable index {v} outside the model's {num_variables}"
            ));
        }
        var.push(v as u32);
    }
    let mut e = Expr {
        constant: dtype.read(offset),
        ..Expr::default()
    };
    for (k, &v) in var.iter().enumerate() {
        let a = dtype.read(&linear[k * dtype.size()..]);
        if a != 0.0 {
            e.linear.push((v, a));
        }
    }
    for k in 0..m {
        let r = &quad[k * rec..];
        let (u, w) = (itype.read(r), itype.read(&r[itype.size()..]));
        let b = dtype.read(&r[2 * itype.size()..]);
        let local = |x: f64| {
            (x >= 0.0 && (x as usize) < n)
                .then(|| var[x as usize])
                .ok_or_else(|| {
                    format!("interaction index {x} outside the expression's {n} variables")
                })
        };
        e.quadratic.push((local(u)?, local(w)?, b));
    }
    Ok(e)
}
