//! Flags generated from parameter descriptions: every sampler's parameters (`--num-sweeps`, …)
//! and every generator's (`--size`, `--givens`, …) become typed flags of the commands that take
//! them, plus `--param NAME=VALUE` for any of them. Values are checked against the chosen
//! sampler's or kind's own description, so a flag another sampler owns is a clear error.

use clap::{Arg, ArgAction, ArgMatches};
use serde_json::Value;

use crate::params::{ParamSpec, ParamType, ParamValues, find};

use super::{Failure, usage};

/// Flags as given: (the parameter's name, its text) in command-line order.
#[derive(Clone, Debug, Default)]
pub struct ParamFlags {
    given: Vec<(String, String, String)>,
}

/// Who owns which parameters: (owner name, its specs), for help texts and messages.
pub type Owners = Vec<(&'static str, &'static [ParamSpec])>;

/// The exposed parameters of all owners, each name once (the first owner's spec).
fn distinct_specs(owners: &Owners) -> Vec<&'static ParamSpec> {
    let mut out: Vec<&'static ParamSpec> = Vec::new();
    for (_, specs) in owners {
        for spec in specs.iter().filter(|s| s.exposed) {
            if !out.iter().any(|s| s.name == spec.name) {
                out.push(spec);
            }
        }
    }
    out
}

/// How generated flags are offered.
#[derive(Clone, Copy)]
pub struct FlagStyle {
    /// Whether `--param NAME=VALUE` is added too (one command has it once).
    pub param: bool,
    /// Whether each help line names its owner (`sa: …; pt: …`): for parameters several
    /// owners share, not for a command's own settings.
    pub owner_in_help: bool,
}

/// Flags kept under an earlier name, so scripts that use it go on working.
const FLAG_ALIASES: &[(&str, &str)] = &[("min_budget_s", "min-budget")];

/// Adds one flag per distinct parameter name among `owners`, and `--param` when the style
/// asks for it.
pub fn augment_with(mut cmd: clap::Command, owners: &Owners, style: FlagStyle) -> clap::Command {
    for spec in distinct_specs(owners) {
        let help: Vec<String> = owners
            .iter()
            .filter_map(|(owner, specs)| {
                let s = specs.iter().find(|s| s.name == spec.name)?;
                Some(if style.owner_in_help {
                    format!("{owner}: {} ({})", s.help, default_text(s))
                } else {
                    format!("{} ({})", s.help, default_text(s))
                })
            })
            .collect();
        let mut arg = Arg::new(spec.name)
            .long(spec.name.replace('_', "-"))
            .help(help.join("; "))
            .action(ArgAction::Set);
        for &(_, old) in FLAG_ALIASES.iter().filter(|(name, _)| *name == spec.name) {
            arg = arg.alias(old);
        }
        arg = match spec.ty {
            ParamType::FloatPair { .. } => arg
                .num_args(2)
                .value_names(["A", "B"])
                .allow_negative_numbers(true),
            // `-1,2` is not a number to clap but is a list to check here (its message names the
            // bad entry), not an unknown flag.
            ParamType::FloatList { .. } => arg.value_name("X,Y,…").allow_hyphen_values(true),
            ParamType::Float { .. } => arg.value_name("X").allow_negative_numbers(true),
            ParamType::Choice(words) => arg.value_name(words.join("|")),
            // `--no-guess` alone means true.
            ParamType::Bool => arg
                .value_name("true|false")
                .num_args(0..=1)
                .default_missing_value("true"),
            ParamType::Text { .. } => arg.value_name("TEXT"),
            // A negative count reaches the parameter's own range check, which names the range.
            ParamType::Int { .. } | ParamType::IntSet(_) => {
                arg.value_name("N").allow_negative_numbers(true)
            }
        };
        cmd = cmd.arg(arg);
    }
    if !style.param {
        return cmd;
    }
    cmd.arg(
        Arg::new("param")
            .long("param")
            .value_name("NAME=VALUE")
            .action(ArgAction::Append)
            .help("set any parameter by name, e.g. --param num_sweeps=5000 (repeatable)"),
    )
}

fn default_text(spec: &ParamSpec) -> String {
    match spec.default {
        crate::params::ParamDefault::Auto(what) => format!("default: {what}"),
        _ => format!("default {}", spec.default_value()),
    }
}

/// Reads the flags `augment` added.
pub fn collect(m: &ArgMatches, owners: &Owners, style: FlagStyle) -> ParamFlags {
    let mut given = Vec::new();
    for spec in distinct_specs(owners) {
        if let Ok(Some(values)) = m.try_get_many::<String>(spec.name) {
            let values: Vec<&str> = values.map(String::as_str).collect();
            given.push((
                spec.name.to_string(),
                values.join(","),
                format!("{} {}", spec.flag(), values.join(" ")),
            ));
        }
    }
    if style.param
        && let Ok(Some(values)) = m.try_get_many::<String>("param")
    {
        for v in values {
            let (name, value) = v.split_once('=').unwrap_or((v.as_str(), ""));
            given.push((name.to_string(), value.to_string(), format!("--param {v}")));
        }
    }
    ParamFlags { given }
}

impl ParamFlags {
    /// Whether no flag was given.
    pub fn is_empty(&self) -> bool {
        self.given.is_empty()
    }

    /// The values for `owner`, parsed against its specs; a flag it does not have, or a bad
    /// value, is a usage error naming the flag.
    pub fn values_for(&self, owner: &str, specs: &[ParamSpec]) -> Result<ParamValues, Failure> {
        self.values_skipping(owner, specs, false)
            .map(|(values, _)| values)
    }

    /// The values for `owner`, when it was chosen for the user (`--sampler auto`): flags it does
    /// not have were meant for another choice and are returned as written, to be reported as
    /// ignored; a bad value for one it has is still an error.
    pub fn values_for_chosen(
        &self,
        owner: &str,
        specs: &[ParamSpec],
    ) -> Result<(ParamValues, Vec<String>), Failure> {
        self.values_skipping(owner, specs, true)
    }

    /// The values for each of `owners`, in their order, each parsed against its own specs
    /// (every flag of a settings group belongs to one of them).
    pub fn values_by_owner(&self, owners: &Owners) -> Result<Vec<ParamValues>, Failure> {
        owners
            .iter()
            .map(|(owner, specs)| self.values_skipping(owner, specs, true).map(|(v, _)| v))
            .collect()
    }

    fn values_skipping(
        &self,
        owner: &str,
        specs: &[ParamSpec],
        skip_unknown: bool,
    ) -> Result<(ParamValues, Vec<String>), Failure> {
        let mut out = ParamValues::new();
        let mut skipped = Vec::new();
        for (name, text, as_written) in &self.given {
            let Some(spec) = find(specs, name) else {
                if skip_unknown {
                    skipped.push(as_written.clone());
                    continue;
                }
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                return Err(usage(format!(
                    "{}: {owner} has no parameter '{name}' (its parameters: {})",
                    crate::params::shown_within(as_written, 48),
                    known.join(", ")
                )));
            };
            let value: Value = spec.parse_text(text).map_err(|e| {
                usage(format!(
                    "{}: {e}",
                    crate::params::shown_within(as_written, 48)
                ))
            })?;
            // Given twice (a flag and --param, or --param twice) with different values: which
            // one wins would be an accident of order.
            if let Some(first) = out.get(spec.name).filter(|v| **v != value) {
                return Err(usage(format!(
                    "{}: {} is already {first} (give it once)",
                    crate::params::shown_within(as_written, 48),
                    spec.name
                )));
            }
            out.insert(spec.name.to_string(), value);
        }
        Ok((out, skipped))
    }
}

/// Declares a clap argument group whose flags come from `owners()`, in `$style` (default:
/// with `--param` and owners named in the help).
macro_rules! param_flags {
    ($name:ident, $owners:path) => {
        param_flags!(
            $name,
            $owners,
            FlagStyle {
                param: true,
                owner_in_help: true
            }
        );
    };
    ($name:ident, $owners:path, $style:expr) => {
        /// Flags generated from parameter descriptions.
        #[derive(Clone, Debug, Default)]
        pub struct $name(pub ParamFlags);

        impl clap::FromArgMatches for $name {
            fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
                Ok($name(collect(m, &$owners(), $style)))
            }
            fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
                self.0 = collect(m, &$owners(), $style);
                Ok(())
            }
        }

        impl clap::Args for $name {
            fn augment_args(cmd: clap::Command) -> clap::Command {
                augment_with(cmd, &$owners(), $style)
            }
            fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
                augment_with(cmd, &$owners(), $style)
            }
        }
    };
}

/// Every registered sampler with its parameters.
pub fn sampler_owners() -> Owners {
    crate::samplers::SAMPLERS
        .iter()
        .map(|e| (e.name, e.params))
        .collect()
}

/// Every registered kind's generator, and `random-qubo`.
pub fn generator_owners() -> Owners {
    let mut owners: Owners = crate::puzzle::Kind::ALL
        .iter()
        .map(|k| (k.name(), k.generator_params()))
        .collect();
    owners.push(("random-qubo", super::RANDOM_QUBO_PARAMS));
    owners
}

/// A sweep's settings and its stopping rule.
pub fn sweep_owners() -> Owners {
    vec![
        ("sweep", &crate::sweep::SweepSetup::PARAMS),
        ("stop", &crate::sweep::StopRule::PARAMS),
    ]
}

/// A tuning search's settings and its stopping rule.
pub fn tune_owners() -> Owners {
    vec![
        ("tune", &crate::sweep::TuneSetup::PARAMS),
        ("stop", &crate::sweep::StopRule::PARAMS),
    ]
}

/// A command's own settings: no `--param` (the sampler's flags have it), no owner in the help.
const OWN_SETTINGS: FlagStyle = FlagStyle {
    param: false,
    owner_in_help: false,
};

param_flags!(SamplerFlags, sampler_owners);
param_flags!(GeneratorFlags, generator_owners);
param_flags!(SweepSettingFlags, sweep_owners, OWN_SETTINGS);
param_flags!(TuneSettingFlags, tune_owners, OWN_SETTINGS);
