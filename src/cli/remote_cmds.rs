//! `remote …`: the remote services' configuration and solvers, and the loopback fake SAPI
//! server (for trying the clients, and for checking the fake against Ocean's own client).

use crate::remote::dwave_config::source_name;
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::json;

use super::Failure;
use super::output::print_json;
use crate::remote::dwave_config::{self, Environment, Overrides, ProcessEnv};
use crate::remote::sapi::Sapi;

/// `remote`.
#[derive(Args)]
pub struct RemoteArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: RemoteCommand,
}

/// The `remote` subcommands.
#[derive(Subcommand)]
pub enum RemoteCommand {
    /// Show the D-Wave settings in effect and where each came from (the token masked).
    Config(DwaveArgs),
    /// List the D-Wave solvers the token may use: name, category, status, load, size.
    Solvers(DwaveArgs),
    /// Serve the loopback fake SAPI (127.0.0.1) until interrupted; it accepts the token in
    /// DWAVE_API_TOKEN and samples submitted problems with our SA.
    FakeSapi {
        /// Port (0: any free port; the URL is printed).
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
    /// Serve the loopback fake Fujitsu Digital Annealer (127.0.0.1) until interrupted; it
    /// accepts the key in FUJITSU_DA_API_KEY and anneals submitted QUBOs with our SA.
    FakeDa {
        /// Port (0: any free port; the URL is printed).
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
}

/// Where and as whom to reach D-Wave (flags override DWAVE_* variables, which override
/// dwave.conf).
#[derive(Args)]
pub struct DwaveArgs {
    /// dwave.conf profile (default: DWAVE_PROFILE, the file's `profile` key, or its first).
    #[arg(long)]
    pub profile: Option<String>,
    /// SAPI endpoint URL (https://…, or http://127.0.0.1… for a local fake).
    #[arg(long)]
    pub endpoint: Option<String>,
    /// Region code (na-west-1, eu-central-1, …), when no endpoint is given.
    #[arg(long)]
    pub region: Option<String>,
    /// Solver name.
    #[arg(long)]
    pub solver: Option<String>,
    /// Seconds each request may take.
    #[arg(long, default_value_t = 60.0, value_parser = positive_seconds)]
    pub request_timeout: f64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !(v.is_finite() && v > 0.0 && v <= 3600.0) {
        return Err(format!(
            "{s}: a request timeout must be in (0, 3600] seconds"
        ));
    }
    Ok(v)
}

impl DwaveArgs {
    fn config(&self) -> Result<dwave_config::DwaveConfig, Failure> {
        let env = ProcessEnv;
        let files = dwave_config::config_files(&env);
        Ok(dwave_config::resolve(
            &files,
            &env,
            &Overrides {
                profile: self.profile.clone(),
                endpoint: self.endpoint.clone(),
                region: self.region.clone(),
                solver: self.solver.clone(),
            },
        )?)
    }
}

/// The flag that gives a parameter (`endpoint` → `--endpoint`).
fn flag_of(parameter: &str) -> String {
    format!("--{}", parameter.replace('_', "-"))
}

/// Runs a `remote` subcommand.
pub(super) fn remote(a: RemoteArgs) -> Result<i32, Failure> {
    match a.command {
        RemoteCommand::Config(d) => {
            let c = d.config()?;
            if d.json {
                print_json(&json!({
                    "endpoint": c.base_url(),
                    "token": c.token.as_ref().map(|t| t.masked()),
                    "solver": c.solver,
                    "sources": c
                        .sources
                        .iter()
                        .map(|(k, s)| (k.clone(), source_name(s, &flag_of)))
                        .collect::<std::collections::BTreeMap<_, _>>(),
                }))?;
            } else {
                for line in c.describe(&flag_of) {
                    println!("{line}");
                }
            }
            Ok(0)
        }
        RemoteCommand::Solvers(d) => {
            let c = d.config()?;
            let token = c.require_token()?.clone();
            let sapi = Sapi::new(
                &c.base_url(),
                token,
                Duration::from_secs_f64(d.request_timeout),
            )?;
            let solvers = sapi.solvers()?;
            let size = |s: &crate::remote::sapi::Solver| {
                s.properties["qubits"]
                    .as_array()
                    .map(|q| q.len() as u64)
                    .or_else(|| s.properties["maximum_number_of_variables"].as_u64())
            };
            if d.json {
                let list: Vec<_> = solvers
                    .iter()
                    .map(|s| {
                        json!({
                            "name": s.name, "graph_id": s.graph_id, "category": s.category,
                            "online": s.online, "avg_load": s.avg_load,
                            "description": s.description, "size": size(s),
                        })
                    })
                    .collect();
                print_json(&json!({"endpoint": c.base_url(), "solvers": list}))?;
            } else {
                println!("{} solver(s) at {}", solvers.len(), c.base_url());
                for s in &solvers {
                    println!(
                        "  {:<44} {:<8} {:<8} load {:>5} {}",
                        s.name,
                        s.category,
                        if s.online { "online" } else { "offline" },
                        s.avg_load.map(|l| format!("{l:.2}")).unwrap_or("-".into()),
                        size(s)
                            .map(|n| if s.category == "qpu" {
                                format!("{n} working qubits")
                            } else {
                                format!("up to {n} variables")
                            })
                            .unwrap_or_default()
                    );
                }
            }
            Ok(0)
        }
        RemoteCommand::FakeSapi { port } => {
            let token = ProcessEnv.var("DWAVE_API_TOKEN").ok_or_else(|| {
                super::usage("remote fake-sapi: set DWAVE_API_TOKEN to the token the fake accepts")
            })?;
            let fake = crate::remote::fake_sapi::FakeSapi::start_on(
                port,
                &token,
                crate::remote::fake_sapi::example_solvers(),
            )?;
            println!("fake SAPI at {} (Ctrl-C to stop)", fake.base_url);
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
        RemoteCommand::FakeDa { port } => {
            let key = ProcessEnv.var("FUJITSU_DA_API_KEY").ok_or_else(|| {
                super::usage("remote fake-da: set FUJITSU_DA_API_KEY to the key the fake accepts")
            })?;
            let fake = crate::remote::fake_da::FakeDa::start_on(port, &key)?;
            println!(
                "fake Digital Annealer at {} (Ctrl-C to stop)",
                fake.base_url
            );
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
    }
}
