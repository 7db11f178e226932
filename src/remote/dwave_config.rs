//! D-Wave configuration the way Ocean users already have it: `dwave.conf` profiles, then
//! `DWAVE_*` environment variables, then our flags — each level overriding the one before,
//! as dwave-cloud-client resolves them.
//!
//! Files: `DWAVE_CONFIG_FILE` alone if set; otherwise every existing one of the system file
//! (`/etc/xdg/dwave/dwave.conf`), the user file (`$XDG_CONFIG_HOME/dwave/dwave.conf`, by default
//! `~/.config/dwave/dwave.conf`) and `./dwave.conf`, later files overriding earlier ones key by
//! key. INI sections are profiles; `[defaults]` is inherited by every profile. The profile is
//! `DWAVE_PROFILE` or the flag if given, else the `profile` key of `[defaults]`, else the first
//! other section, else `[defaults]` itself. `endpoint` and `region` exclude each other: setting
//! one at a level clears the other from the levels below.
//!
//! Invariant: the token is only ever held as a `Secret`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{RemoteError, Secret};

/// The SAPI endpoint used when nothing names one (the default region's).
pub const DEFAULT_ENDPOINT: &str = "https://na-west-1.cloud.dwavesys.com/sapi/v2/";
/// Largest config file read (a profile file is a few hundred bytes).
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The resolved settings for one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DwaveConfig {
    /// SAPI base URL, ending in `/`.
    pub endpoint: Option<String>,
    /// Region code (used when no endpoint is set).
    pub region: Option<String>,
    /// The token.
    pub token: Option<Secret>,
    /// A solver name, or a JSON feature filter as Ocean writes it (`{"qpu": true}`).
    pub solver: Option<String>,
    /// Where each value came from, for `remote` reports ("DWAVE_API_TOKEN", "~/.config/…
    /// [prod]"), keyed by setting name.
    pub sources: BTreeMap<String, String>,
    /// What the settings hold that the workbench does not act on (a key Ocean reads but we do
    /// not, a region not among the known ones), said where the settings are used.
    pub notes: Vec<String>,
}

/// The regions SAPI is known to serve (dwave-cloud-client's default metadata, 2026).
pub const KNOWN_REGIONS: &[&str] = &["na-west-1", "eu-central-1"];

/// Keys of a profile that the workbench reads.
const USED_KEYS: &[&str] = &["region", "endpoint", "token", "solver", "profile"];

/// What the caller overrides (the CLI's flags, the GUI's fields).
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--profile`.
    pub profile: Option<String>,
    /// `--endpoint`.
    pub endpoint: Option<String>,
    /// `--region`.
    pub region: Option<String>,
    /// `--solver`.
    pub solver: Option<String>,
}

/// Where the environment comes from (the process's, or a test's map).
pub trait Environment {
    /// The variable's value, if set and not empty.
    fn var(&self, name: &str) -> Option<String>;
}

/// The process environment.
pub struct ProcessEnv;

impl Environment for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }
}

impl Environment for BTreeMap<String, String> {
    fn var(&self, name: &str) -> Option<String> {
        self.get(name).cloned().filter(|v| !v.is_empty())
    }
}

/// The config files dwave-cloud-client would read, lowest priority first, existing ones only.
pub fn config_files(env: &dyn Environment) -> Vec<PathBuf> {
    if let Some(one) = env.var("DWAVE_CONFIG_FILE") {
        return vec![PathBuf::from(one)];
    }
    let user_dir = env
        .var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| env.var("HOME").map(|h| Path::new(&h).join(".config")));
    let mut candidates = vec![PathBuf::from("/etc/xdg/dwave/dwave.conf")];
    if let Some(dir) = user_dir {
        candidates.push(dir.join("dwave").join("dwave.conf"));
    }
    candidates.push(PathBuf::from("dwave.conf"));
    candidates.into_iter().filter(|p| p.is_file()).collect()
}

/// Resolves the settings from `files` (lowest priority first), the environment and `flags`.
pub fn resolve(
    files: &[PathBuf],
    env: &dyn Environment,
    flags: &Overrides,
) -> Result<DwaveConfig, RemoteError> {
    let mut ini = Ini::default();
    for f in files {
        let text = crate::io::read_text_limited(f, MAX_CONFIG_BYTES)
            .map_err(|e| RemoteError::Config(format!("cannot read a config file: {e}")))?;
        ini.merge(&text, f)?;
    }
    let profile = flags.profile.clone().or_else(|| env.var("DWAVE_PROFILE"));
    let (values, from) = ini.profile(profile.as_deref())?;
    let mut c = DwaveConfig::default();
    let set = |c: &mut DwaveConfig, key: &str, value: String, source: String| {
        match key {
            "endpoint" => {
                c.endpoint = Some(with_slash(value));
                c.region = None;
                c.sources.remove("region");
            }
            "region" => {
                c.region = Some(value);
                c.endpoint = None;
                c.sources.remove("endpoint");
            }
            "token" => c.token = Some(Secret::new(value.trim())),
            "solver" => c.solver = Some(value),
            _ => return,
        }
        c.sources.insert(key.to_string(), source);
    };
    // Within the file level, endpoint and region may both be set; the endpoint wins.
    for key in ["region", "endpoint", "token", "solver"] {
        if let Some(v) = values.get(key).filter(|v| !v.is_empty()) {
            set(&mut c, key, v.clone(), from.clone());
        }
    }
    for (var, key) in [
        ("DWAVE_API_REGION", "region"),
        ("DWAVE_API_ENDPOINT", "endpoint"),
        ("DWAVE_API_TOKEN", "token"),
        ("DWAVE_API_SOLVER", "solver"),
    ] {
        if let Some(v) = env.var(var) {
            set(&mut c, key, v, var.to_string());
        }
    }
    for (key, value) in [
        ("region", &flags.region),
        ("endpoint", &flags.endpoint),
        ("solver", &flags.solver),
    ] {
        if let Some(v) = value {
            set(&mut c, key, v.clone(), format!("{PARAMETER_SOURCE}{key}"));
        }
    }
    if let Some(e) = &c.endpoint {
        super::check_endpoint(e)?;
    }
    if c.endpoint.is_none()
        && let Some(r) = &c.region
    {
        // The region becomes a host name: anything else would build a URL to somewhere else.
        let host_safe = !r.is_empty()
            && r.len() <= 63
            && r.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !r.starts_with('-');
        if !host_safe {
            return Err(RemoteError::Config(format!(
                "region '{}' ({}): a region is a name such as {}",
                crate::io::printable(&crate::params::shown_within(r, 40)),
                c.sources.get("region").map_or("", String::as_str),
                KNOWN_REGIONS.join(" or ")
            )));
        }
        if !KNOWN_REGIONS.contains(&r.as_str()) {
            c.notes.push(format!(
                "region '{r}' is not one of the known regions ({}); its endpoint is taken to be {}",
                KNOWN_REGIONS.join(", "),
                c.base_url()
            ));
        }
    }
    for key in values.keys().filter(|k| !USED_KEYS.contains(&k.as_str())) {
        c.notes.push(format!(
            "'{key}' ({from}) is not used by the workbench{}",
            match key.as_str() {
                "request_timeout" => ": --request-timeout sets each request's deadline",
                "polling_timeout" => ": a remote job waits as long as its time limit allows",
                _ => "",
            }
        ));
    }
    Ok(c)
}

impl DwaveConfig {
    /// The SAPI base URL: the endpoint, or the region's (`https://<region>.cloud.dwavesys.com/
    /// sapi/v2/`), or the default.
    pub fn base_url(&self) -> String {
        match (&self.endpoint, &self.region) {
            (Some(e), _) => e.clone(),
            (None, Some(r)) => format!("https://{r}.cloud.dwavesys.com/sapi/v2/"),
            (None, None) => DEFAULT_ENDPOINT.to_string(),
        }
    }

    /// The token, or a message saying where one is looked for.
    pub fn require_token(&self) -> Result<&Secret, RemoteError> {
        if let Some(t) = &self.token {
            let from = self
                .sources
                .get("token")
                .map_or("the settings", String::as_str);
            t.clone().checked("D-Wave token", from)?;
        }
        self.token.as_ref().ok_or_else(|| {
            RemoteError::Config(
                "no D-Wave token: set DWAVE_API_TOKEN, or `token = …` in a dwave.conf profile \
                 (~/.config/dwave/dwave.conf or ./dwave.conf)"
                    .into(),
            )
        })
    }

    /// One line per setting and where it came from, the token masked.
    /// `name_parameter` says how the caller names a parameter given to it (the CLI: its flag;
    /// the window: its field).
    pub fn describe(&self, name_parameter: &dyn Fn(&str) -> String) -> Vec<String> {
        let from = |k: &str| {
            self.sources
                .get(k)
                .map(|s| format!(" (from {})", source_name(s, name_parameter)))
                .unwrap_or_default()
        };
        let mut lines = vec![
            format!(
                "endpoint: {}{}",
                self.base_url(),
                from("endpoint").to_string() + &from("region")
            ),
            match &self.token {
                Some(t) => format!("token: {}{}", t.masked(), from("token")),
                None => "token: missing".to_string(),
            },
            format!(
                "solver: {}{}",
                self.solver.as_deref().unwrap_or("(any)"),
                from("solver")
            ),
        ];
        lines.extend(self.notes.iter().map(|n| format!("note: {n}")));
        lines
    }
}

/// How a source names a parameter given by the caller (`parameter endpoint`): the library
/// names no command-line flag; `source_name` lets the caller say it its own way.
pub const PARAMETER_SOURCE: &str = "parameter ";

/// A source as the caller names it: a parameter through `name_parameter`, any other source
/// (a variable, a file and its profile) as it is.
pub fn source_name(source: &str, name_parameter: &dyn Fn(&str) -> String) -> String {
    match source.strip_prefix(PARAMETER_SOURCE) {
        Some(parameter) => name_parameter(parameter),
        None => source.to_string(),
    }
}

fn with_slash(mut url: String) -> String {
    if !url.ends_with('/') {
        url.push('/');
    }
    url
}

/// An INI file as Python's configparser reads dwave.conf: sections of `key = value` (or
/// `key: value`), `#` and `;` comments, keys case-insensitive, `[defaults]` inherited.
#[derive(Default)]
struct Ini {
    /// Sections in first-seen order, with where each key was last set.
    sections: Vec<(String, Section)>,
}

/// A section's keys, each with its value and where it was set ("FILE [section]").
type Section = BTreeMap<String, (String, String)>;

impl Ini {
    fn merge(&mut self, text: &str, file: &Path) -> Result<(), RemoteError> {
        let mut current: Option<usize> = None;
        // As Python's configparser (strict, which Ocean uses): a section or a key given twice
        // in one file is an error, not merged or overwritten without a word.
        let mut sections_here: BTreeMap<String, usize> = BTreeMap::new();
        let mut keys_here: BTreeMap<(usize, String), usize> = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
                continue;
            }
            let at = || format!("{}:{}", file.display(), i + 1);
            if let Some(name) = line.strip_prefix('[') {
                let name = name.strip_suffix(']').ok_or_else(|| {
                    RemoteError::Config(format!("{}: a section header needs its ']'", at()))
                })?;
                let name = name.trim().to_string();
                if let Some(first) = sections_here.insert(name.clone(), i + 1) {
                    return Err(RemoteError::Config(format!(
                        "{}: section [{name}] again (first on line {first}); give each profile once",
                        at()
                    )));
                }
                current = Some(match self.sections.iter().position(|s| s.0 == name) {
                    Some(k) => k,
                    None => {
                        self.sections.push((name, BTreeMap::new()));
                        self.sections.len() - 1
                    }
                });
                continue;
            }
            let Some((key, value)) = line.split_once(['=', ':']) else {
                return Err(RemoteError::Config(format!(
                    "{}: expected `key = value` or a [section]",
                    at()
                )));
            };
            let Some(k) = current else {
                return Err(RemoteError::Config(format!(
                    "{}: `{}` comes before any [section]",
                    at(),
                    key.trim()
                )));
            };
            let key_name = key.trim().to_ascii_lowercase();
            if let Some(first) = keys_here.insert((k, key_name.clone()), i + 1) {
                return Err(RemoteError::Config(format!(
                    "{}: `{key_name}` again in [{}] (first on line {first})",
                    at(),
                    self.sections[k].0
                )));
            }
            let source = format!("{} [{}]", file.display(), self.sections[k].0);
            self.sections[k].1.insert(
                key.trim().to_ascii_lowercase(),
                (value.trim().to_string(), source),
            );
        }
        Ok(())
    }

    /// The chosen profile's values over `[defaults]`, and a description of where they are.
    fn profile(
        &self,
        name: Option<&str>,
    ) -> Result<(BTreeMap<String, String>, String), RemoteError> {
        let defaults = self
            .sections
            .iter()
            .find(|s| s.0 == "defaults")
            .map(|s| s.1.clone())
            .unwrap_or_default();
        let chosen = match name {
            Some(n) => Some(n.to_string()),
            None => defaults.get("profile").map(|v| v.0.clone()).or_else(|| {
                self.sections
                    .iter()
                    .find(|s| s.0 != "defaults")
                    .map(|s| s.0.clone())
            }),
        };
        let mut values: BTreeMap<String, String> = defaults
            .iter()
            .map(|(k, v)| (k.clone(), v.0.clone()))
            .collect();
        let mut from = defaults
            .values()
            .next()
            .map(|v| v.1.clone())
            .unwrap_or_default();
        if let Some(n) = chosen.filter(|n| n != "defaults") {
            let Some(section) = self.sections.iter().find(|s| s.0 == n) else {
                let known: Vec<&str> = self
                    .sections
                    .iter()
                    .map(|s| s.0.as_str())
                    .filter(|s| *s != "defaults")
                    .collect();
                return Err(RemoteError::Config(format!(
                    "profile {n:?} is not in the config files (profiles: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            };
            for (k, v) in &section.1 {
                values.insert(k.clone(), v.0.clone());
                from = v.1.clone();
            }
        }
        Ok((values, from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn profiles_inherit_defaults_and_the_first_profile_is_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let f = write(
            dir.path(),
            "dwave.conf",
            "[defaults]\nendpoint = https://a.example/sapi\ntoken = ABC-1234567890123456789\n\n\
             [prod]\nsolver = Advantage_system4.1\n\n[test]\ntoken = DEF-9876543210987654321\n\
             endpoint = http://127.0.0.1:9/sapi/v2\n",
        );
        let c = resolve(std::slice::from_ref(&f), &env(&[]), &Overrides::default()).unwrap();
        assert_eq!(c.base_url(), "https://a.example/sapi/");
        assert_eq!(c.solver.as_deref(), Some("Advantage_system4.1"));
        assert_eq!(
            c.token.as_ref().unwrap().expose(),
            "ABC-1234567890123456789"
        );
        let test = Overrides {
            profile: Some("test".into()),
            ..Default::default()
        };
        let c = resolve(std::slice::from_ref(&f), &env(&[]), &test).unwrap();
        assert_eq!(c.base_url(), "http://127.0.0.1:9/sapi/v2/");
        assert_eq!(
            c.token.as_ref().unwrap().expose(),
            "DEF-9876543210987654321"
        );
        // DWAVE_PROFILE picks too; an unknown profile is named with the known ones.
        let e = resolve(
            &[f],
            &env(&[("DWAVE_PROFILE", "nope")]),
            &Overrides::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("\"nope\"") && e.contains("prod, test"), "{e}");
    }

    #[test]
    fn repeated_sections_and_keys_bad_regions_and_unused_keys_are_said() {
        let dir = tempfile::tempdir().unwrap();
        let resolved = |text: &str| {
            let f = write(dir.path(), "dwave.conf", text);
            resolve(&[f], &env(&[]), &Overrides::default())
        };
        let e = resolved("[a]\ntoken = T\n[b]\n[a]\nsolver = x\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains(":4: section [a] again (first on line 1)"), "{e}");
        let e = resolved("[a]\ntoken = T\nToken = U\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(":3: `token` again in [a] (first on line 2)"),
            "{e}"
        );
        let e = resolved("[a]\nregion = evil.example/x?\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("a region is a name such as"), "{e}");
        let c = resolved("[a]\nregion = mars-1\nrequest_timeout = -5\n").unwrap();
        assert_eq!(c.notes.len(), 2, "{:?}", c.notes);
        assert!(c.notes[0].contains("'mars-1' is not one of the known regions"));
        assert!(
            c.notes[1].contains("'request_timeout'") && c.notes[1].contains("--request-timeout")
        );
        assert!(
            c.describe(&|p| p.to_string())
                .iter()
                .any(|l| l.starts_with("note: "))
        );
        // A known region and the keys the workbench reads leave no note.
        let c = resolved("[a]\nregion = eu-central-1\ntoken = T\nsolver = s\n").unwrap();
        assert!(c.notes.is_empty(), "{:?}", c.notes);
    }

    #[test]
    fn environment_overrides_files_and_flags_override_both() {
        let dir = tempfile::tempdir().unwrap();
        let f = write(
            dir.path(),
            "dwave.conf",
            "[p]\nregion = eu-central-1\ntoken = FILE-TOKEN-0123456789\n",
        );
        let e = env(&[("DWAVE_API_TOKEN", "ENV-TOKEN-0123456789ab")]);
        let c = resolve(std::slice::from_ref(&f), &e, &Overrides::default()).unwrap();
        assert_eq!(
            c.base_url(),
            "https://eu-central-1.cloud.dwavesys.com/sapi/v2/"
        );
        assert_eq!(c.token.as_ref().unwrap().expose(), "ENV-TOKEN-0123456789ab");
        assert_eq!(c.sources["token"], "DWAVE_API_TOKEN");
        // An endpoint at a higher level clears the region below it.
        let flags = Overrides {
            endpoint: Some("http://127.0.0.1:8080/sapi/v2".into()),
            ..Default::default()
        };
        let c = resolve(&[f], &e, &flags).unwrap();
        assert_eq!(c.base_url(), "http://127.0.0.1:8080/sapi/v2/");
        assert!(c.region.is_none());
        // The description masks the token.
        let text = c.describe(&|p| format!("--{p}")).join("\n");
        assert!(text.contains("(from --endpoint)"), "{text}");
        assert!(
            text.contains("ENV-…") && !text.contains("0123456789ab"),
            "{text}"
        );
    }

    #[test]
    fn plain_http_to_a_remote_host_is_refused() {
        let e = env(&[("DWAVE_API_ENDPOINT", "http://cloud.dwavesys.com/sapi/v2/")]);
        let err = resolve(&[], &e, &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("in the clear"), "{err}");
    }

    #[test]
    fn malformed_files_say_where() {
        let dir = tempfile::tempdir().unwrap();
        let f = write(dir.path(), "bad.conf", "token = x\n");
        let e = resolve(&[f], &env(&[]), &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("bad.conf:1") && e.contains("before any [section]"),
            "{e}"
        );
        let f = write(dir.path(), "bad2.conf", "[p\n");
        let e = resolve(&[f], &env(&[]), &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("bad2.conf:1") && e.contains("']'"), "{e}");
        let missing = dir.path().join("none.conf");
        let e = resolve(&[missing], &env(&[]), &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("none.conf") && e.contains("cannot read"), "{e}");
    }

    #[test]
    fn a_missing_token_says_where_to_put_one() {
        let c = resolve(&[], &env(&[]), &Overrides::default()).unwrap();
        let e = c.require_token().unwrap_err().to_string();
        assert!(
            e.contains("DWAVE_API_TOKEN") && e.contains("dwave.conf"),
            "{e}"
        );
        assert_eq!(c.base_url(), DEFAULT_ENDPOINT);
    }

    #[test]
    fn dwave_config_file_replaces_the_search() {
        let e = env(&[
            ("DWAVE_CONFIG_FILE", "/some/where.conf"),
            ("HOME", "/nonexistent"),
        ]);
        assert_eq!(config_files(&e), vec![PathBuf::from("/some/where.conf")]);
    }
}
