//! Typed parameter descriptions, written once and read by everyone: samplers describe their
//! parameters and puzzle kinds their generators here, and the CLI (flags, `--param NAME=VALUE`),
//! the GUI (widgets with the help text as tooltip) and validation all work from the same
//! `ParamSpec` list — the way dimod samplers expose `parameters`.
//!
//! Values travel as a JSON object (`ParamValues`), so a sampler or generator can deserialize
//! them into its own struct. Invariant: `validate` is the only door — after it every known
//! parameter is present (explicit or default), of its declared type, and inside its range.

use serde_json::{Map, Value};

/// Parameter values by name, as JSON (what `validate` returns and samplers deserialize).
pub type ParamValues = Map<String, Value>;

/// 2⁵³: whole numbers from here on are not all exact in f64.
const EXACT_IN_F64: f64 = 9_007_199_254_740_992.0;

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamType {
    /// A whole number in `min..=max`.
    Int {
        /// Smallest value allowed.
        min: u64,
        /// Largest value allowed.
        max: u64,
    },
    /// One of these whole numbers (e.g. a Sudoku side: 4, 9, 16).
    IntSet(&'static [u64]),
    /// A finite number in `min..=max`.
    Float {
        /// Smallest value allowed.
        min: f64,
        /// Largest value allowed.
        max: f64,
    },
    /// Two finite numbers in `min..=max` (e.g. a β range: hot, cold).
    FloatPair {
        /// Smallest value allowed.
        min: f64,
        /// Largest value allowed.
        max: f64,
    },
    /// A list of finite numbers in `min..=max` (e.g. an explicit β schedule).
    FloatList {
        /// Smallest value allowed.
        min: f64,
        /// Largest value allowed.
        max: f64,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
    /// true or false.
    Bool,
    /// A line of text of at most `max_len` characters, no control characters (an endpoint, a
    /// solver name, a profile).
    Text {
        /// Longest text allowed.
        max_len: usize,
    },
}

/// A parameter's default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamDefault {
    /// A whole number.
    Int(u64),
    /// A number.
    Float(f64),
    /// A word (for `Choice`).
    Word(&'static str),
    /// true or false.
    Bool(bool),
    /// Unset (JSON null): the owner decides, as the text says (e.g. "random", "as dwave-samplers").
    Auto(&'static str),
}

/// One parameter: its name, type, default, range (in the type) and help.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// The name in JSON, settings and `--param` (snake_case; the flag is `--kebab-case`).
    pub name: &'static str,
    /// What values it takes (with their range).
    pub ty: ParamType,
    /// The value when not given.
    pub default: ParamDefault,
    /// One line for `--help` and the GUI's tooltip.
    pub help: &'static str,
    /// The name a peer library (dwave-samplers, OpenJij) uses for the same thing, if different.
    pub alias: Option<&'static str>,
    /// Whether the CLI and GUI offer it (large inputs such as starting states are library-only).
    pub exposed: bool,
}

impl ParamSpec {
    /// The `num_reads` parameter every sampler takes: 1 to `max` reads, with the sampler's
    /// default and its words for what one read is.
    pub const fn num_reads(max: u64, default: u64, help: &'static str) -> ParamSpec {
        ParamSpec {
            name: "num_reads",
            ty: ParamType::Int { min: 1, max },
            default: ParamDefault::Int(default),
            help,
            alias: None,
            exposed: true,
        }
    }

    /// The `seed` parameter every randomised job takes: any u64, so a run can be repeated.
    pub const fn seed(default: ParamDefault, help: &'static str) -> ParamSpec {
        ParamSpec {
            name: "seed",
            ty: ParamType::Int {
                min: 0,
                max: u64::MAX,
            },
            default,
            help,
            alias: None,
            exposed: true,
        }
    }

    /// The command-line flag for this parameter (`num_sweeps` → `--num-sweeps`).
    pub fn flag(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }

    /// The default as JSON (`null` for `Auto`).
    pub fn default_value(&self) -> Value {
        match self.default {
            ParamDefault::Int(v) => Value::from(v),
            ParamDefault::Float(v) => Value::from(v),
            ParamDefault::Word(w) => Value::from(w),
            ParamDefault::Bool(b) => Value::from(b),
            ParamDefault::Auto(_) => Value::Null,
        }
    }

    /// Whether the parameter may be unset (`null`).
    pub fn optional(&self) -> bool {
        matches!(self.default, ParamDefault::Auto(_))
    }

    /// A short word for the type, for messages and `--help` (`integer 1..=1000000`).
    pub fn type_text(&self) -> String {
        match self.ty {
            ParamType::Int { min, max } => format!("an integer in {min}..={max}"),
            ParamType::IntSet(set) => format!("one of {}", join(set.iter())),
            ParamType::Float { min, max } => format!("a number in [{min}, {max}]"),
            ParamType::FloatPair { min, max } => format!("two numbers in [{min}, {max}]"),
            ParamType::FloatList { min, max } => format!("a list of numbers in [{min}, {max}]"),
            ParamType::Choice(words) => format!("one of {}", words.join(", ")),
            ParamType::Bool => "true or false".into(),
            ParamType::Text { max_len } => {
                format!("a line of text of at most {max_len} characters")
            }
        }
    }

    /// Reads a value written as text (a flag's or `--param`'s): numbers, `a,b` pairs and
    /// lists, words; `auto` (or `none`) unsets an optional parameter.
    pub fn parse_text(&self, text: &str) -> Result<Value, ParamError> {
        let t = text.trim();
        if self.optional() && matches!(t, "auto" | "none" | "null") {
            return Ok(Value::Null);
        }
        let bad = || ParamError::Type {
            name: self.name,
            expected: self.type_text(),
            found: shown(text),
        };
        // NaN and ∞ are refused here, naming the text: as JSON they would read as `null`.
        let number = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(bad)
        };
        let value = match self.ty {
            ParamType::Int { .. } | ParamType::IntSet(_) => {
                // Digits are read exactly; 1e6 is accepted too, but only for whole numbers an
                // f64 holds exactly (below 2⁵³): 18446744073709551616 was once read as
                // u64::MAX, and 12345678901234567891 as a neighbour.
                match t.trim().parse::<u64>() {
                    Ok(v) => Value::from(v),
                    Err(_) => {
                        let v = number(t)?;
                        if v.fract() != 0.0 || v < 0.0 {
                            return Err(bad());
                        }
                        if t.trim().bytes().all(|b| b.is_ascii_digit()) {
                            return Err(self.out_of_range(t));
                        }
                        if v >= EXACT_IN_F64 {
                            return Err(ParamError::Type {
                                name: self.name,
                                expected: "a whole number; write one from 2^53 \
                                           (9007199254740992) up in digits, where e-notation \
                                           is not exact"
                                    .into(),
                                found: shown(t),
                            });
                        }
                        Value::from(v as u64)
                    }
                }
            }
            ParamType::Float { .. } => Value::from(number(t)?),
            ParamType::FloatPair { .. } | ParamType::FloatList { .. } => {
                let items = t
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .split([',', ' '])
                    .filter(|s| !s.is_empty())
                    .map(number)
                    .collect::<Result<Vec<f64>, _>>()?;
                Value::from(items)
            }
            ParamType::Choice(_) => Value::from(t.to_ascii_lowercase()),
            ParamType::Bool => match t.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Value::from(true),
                "false" | "no" | "off" | "0" => Value::from(false),
                _ => return Err(bad()),
            },
            ParamType::Text { .. } => Value::from(t),
        };
        self.check(&value)?;
        Ok(value)
    }

    fn out_of_range(&self, found: impl ToString) -> ParamError {
        ParamError::OutOfRange {
            name: self.name,
            expected: self.type_text(),
            found: shown(&found.to_string()),
        }
    }

    /// Checks one JSON value against the type and range.
    pub fn check(&self, value: &Value) -> Result<(), ParamError> {
        if value.is_null() {
            return if self.optional() {
                Ok(())
            } else {
                Err(ParamError::Required { name: self.name })
            };
        }
        let bad = || ParamError::Type {
            name: self.name,
            expected: self.type_text(),
            found: shown(&value.to_string()),
        };
        let in_float_range = |v: f64, min: f64, max: f64| v.is_finite() && v >= min && v <= max;
        match self.ty {
            ParamType::Int { min, max } => {
                let v = value.as_u64().ok_or_else(bad)?;
                if v < min || v > max {
                    return Err(self.out_of_range(v));
                }
            }
            ParamType::IntSet(set) => {
                let v = value.as_u64().ok_or_else(bad)?;
                if !set.contains(&v) {
                    return Err(self.out_of_range(v));
                }
            }
            ParamType::Float { min, max } => {
                let v = value.as_f64().ok_or_else(bad)?;
                if !in_float_range(v, min, max) {
                    return Err(self.out_of_range(v));
                }
            }
            ParamType::FloatPair { min, max } | ParamType::FloatList { min, max } => {
                let items = value.as_array().ok_or_else(bad)?;
                if matches!(self.ty, ParamType::FloatPair { .. }) && items.len() != 2 {
                    return Err(bad());
                }
                for item in items {
                    let v = item.as_f64().ok_or_else(bad)?;
                    if !in_float_range(v, min, max) {
                        return Err(self.out_of_range(v));
                    }
                }
            }
            ParamType::Choice(words) => {
                let w = value.as_str().ok_or_else(bad)?;
                if !words.contains(&w) {
                    return Err(bad());
                }
            }
            ParamType::Bool => {
                value.as_bool().ok_or_else(bad)?;
            }
            ParamType::Text { max_len } => {
                let t = value.as_str().ok_or_else(bad)?;
                if t.chars().any(char::is_control) {
                    return Err(bad());
                }
                if t.chars().count() > max_len {
                    return Err(self.out_of_range(format!("{} characters", t.chars().count())));
                }
            }
        }
        Ok(())
    }
}

fn join<T: ToString>(items: impl Iterator<Item = T>) -> String {
    items.map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

/// A parameter value that does not fit its description.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// No parameter of that name (or alias).
    #[error("unknown parameter '{name}' (known: {known})")]
    Unknown {
        /// The name given.
        name: String,
        /// The parameters there are.
        known: String,
    },
    /// The value has the wrong shape.
    #[error("{name} must be {expected}, not {found}")]
    Type {
        /// The parameter.
        name: &'static str,
        /// What it takes.
        expected: String,
        /// What was given.
        found: String,
    },
    /// The value is outside the range.
    #[error("{name} is {found}, but it must be {expected}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// What it takes.
        expected: String,
        /// What was given.
        found: String,
    },
    /// A required parameter was unset.
    #[error("{name} needs a value")]
    Required {
        /// The parameter.
        name: &'static str,
    },
}

/// A value as messages echo it: whole when short, else its start and its length (a 300-digit
/// number is not repeated back in full).
pub fn shown(text: &str) -> String {
    shown_within(text, 24)
}

/// `shown` with room for `most` characters (a flag and its value).
pub fn shown_within(text: &str, most: usize) -> String {
    let n = text.chars().count();
    if n <= most {
        text.to_string()
    } else {
        let head: String = text.chars().take(most.saturating_sub(8).max(8)).collect();
        format!("{head}… ({n} characters)")
    }
}

/// A settings struct as parameter values: its serialized fields, named as its `ParamSpec`s
/// name them (`StopRule`, `SweepSetup`, `TuneSetup`).
pub fn values_of(setting: &impl serde::Serialize) -> ParamValues {
    match serde_json::to_value(setting) {
        Ok(Value::Object(map)) => map,
        _ => ParamValues::new(),
    }
}

/// A settings struct from parameter values, checked against its `specs` first (missing ones:
/// defaults), so every field it reads is there and in range.
pub fn checked_from<T: serde::de::DeserializeOwned>(
    specs: &[ParamSpec],
    values: &ParamValues,
) -> Result<T, ParamError> {
    let checked = validate(specs, values)?;
    serde_json::from_value(Value::Object(checked)).map_err(|e| ParamError::Type {
        name: "settings",
        expected: "values its description accepts".into(),
        found: e.to_string(),
    })
}

/// Finds a parameter by name or peer alias.
pub fn find<'a>(specs: &'a [ParamSpec], name: &str) -> Option<&'a ParamSpec> {
    let name = name.replace('-', "_");
    specs
        .iter()
        .find(|s| s.name == name || s.alias == Some(name.as_str()))
}

/// Every parameter at its default.
pub fn defaults(specs: &[ParamSpec]) -> ParamValues {
    specs
        .iter()
        .map(|s| (s.name.to_string(), s.default_value()))
        .collect()
}

/// Checks `given` against `specs` (names or aliases; unknown names, wrong types and
/// out-of-range values are errors) and fills in the defaults of what is missing.
pub fn validate(specs: &[ParamSpec], given: &ParamValues) -> Result<ParamValues, ParamError> {
    let mut out = defaults(specs);
    for (name, value) in given {
        let spec = find(specs, name).ok_or_else(|| ParamError::Unknown {
            name: name.clone(),
            known: specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
        })?;
        spec.check(value)?;
        out.insert(spec.name.to_string(), value.clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_read_exactly_or_refused() {
        let seed = ParamSpec::seed(ParamDefault::Int(1), "seed");
        for (text, want) in [
            ("18446744073709551615", u64::MAX),
            ("12345678901234567891", 12_345_678_901_234_567_891),
            ("1e6", 1_000_000),
        ] {
            assert_eq!(seed.parse_text(text).unwrap(), Value::from(want), "{text}");
        }
        // Once clamped to u64::MAX, or rounded to a neighbour: now refused with the reason.
        let e = seed
            .parse_text("18446744073709551616")
            .unwrap_err()
            .to_string();
        assert!(e.contains("0..=18446744073709551615"), "{e}");
        let e = seed.parse_text("1e17").unwrap_err().to_string();
        assert!(e.contains("in digits"), "{e}");
    }

    const SPECS: &[ParamSpec] = &[
        ParamSpec {
            name: "num_reads",
            ty: ParamType::Int { min: 1, max: 1000 },
            default: ParamDefault::Int(10),
            help: "reads",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "beta_range",
            ty: ParamType::FloatPair { min: 0.0, max: 1e9 },
            default: ParamDefault::Auto("automatic"),
            help: "β",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "trotter",
            ty: ParamType::Int { min: 2, max: 64 },
            default: ParamDefault::Int(8),
            help: "Trotter slices",
            alias: Some("trotter_slices"),
            exposed: true,
        },
    ];

    #[test]
    fn validation_fills_defaults_and_names_the_problem() {
        let v = validate(SPECS, &Map::new()).unwrap();
        assert_eq!(v["num_reads"], 10);
        assert!(v["beta_range"].is_null());
        let mut given = Map::new();
        given.insert("trotter_slices".into(), Value::from(4));
        assert_eq!(validate(SPECS, &given).unwrap()["trotter"], 4);
        given.insert("num_reads".into(), Value::from(0));
        assert_eq!(
            validate(SPECS, &given).unwrap_err().to_string(),
            "num_reads is 0, but it must be an integer in 1..=1000"
        );
        let mut unknown = Map::new();
        unknown.insert("sweeps".into(), Value::from(1));
        assert_eq!(
            validate(SPECS, &unknown).unwrap_err().to_string(),
            "unknown parameter 'sweeps' (known: num_reads, beta_range, trotter)"
        );
    }

    #[test]
    fn text_values_parse_by_type() {
        assert_eq!(SPECS[0].parse_text("1e2").unwrap(), 100);
        assert!(SPECS[0].parse_text("2.5").is_err());
        assert!(SPECS[0].parse_text("1e30").is_err());
        assert_eq!(
            SPECS[1].parse_text("0.1,10").unwrap(),
            serde_json::json!([0.1, 10.0])
        );
        assert!(SPECS[1].parse_text("auto").unwrap().is_null());
        assert!(
            SPECS[1].parse_text("1").is_err(),
            "a pair needs two numbers"
        );
        assert!(SPECS[1].parse_text("nan,1").is_err());
        assert!(SPECS[0].parse_text("auto").is_err(), "required");
    }
}
