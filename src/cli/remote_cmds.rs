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
    /// Embed a model into a QPU solver's working graph without sampling: the chains (the shape
    /// --embedding-file reads) and their figures; kept in the embedding cache for later runs.
    Embed(EmbedArgs),
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

/// `remote embed`.
#[derive(Args)]
pub struct EmbedArgs {
    /// The model (.qubo, .coo, dimod .json or .bqm; `encode` writes a puzzle's).
    #[arg(required_unless_present = "clear_cache")]
    pub model: Option<std::path::PathBuf>,
    /// Where and as whom (the solver: --solver, else the least-loaded online QPU).
    #[command(flatten)]
    pub dwave: DwaveArgs,
    /// auto, clique (Pegasus and Zephyr) or heuristic.
    #[arg(long, default_value = "auto", value_parser = ["auto", "clique", "heuristic"])]
    pub embedding: String,
    /// Seed of the heuristic search.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds the heuristic search may take.
    #[arg(long, default_value_t = 30.0, value_parser = positive_seconds)]
    pub embedding_timeout: f64,
    /// Neither read nor write the embedding cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Write the chains to this file (JSON, the shape --embedding-file reads).
    #[arg(short = 'o', long = "output")]
    pub output: Option<std::path::PathBuf>,
    /// Remove every cached embedding (and embed nothing unless a model is given).
    #[arg(long)]
    pub clear_cache: bool,
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
        let c = dwave_config::resolve(
            &files,
            &env,
            &Overrides {
                profile: self.profile.clone(),
                endpoint: self.endpoint.clone(),
                region: self.region.clone(),
                solver: self.solver.clone(),
            },
        )?;
        Ok(c)
    }

    /// `config`, its notes said on stderr (for the commands that use it rather than show it).
    fn config_noted(&self) -> Result<dwave_config::DwaveConfig, Failure> {
        let c = self.config()?;
        for note in &c.notes {
            eprintln!("note: {note}");
        }
        Ok(c)
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
                    "notes": c.notes,
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
            let c = d.config_noted()?;
            let token = c.require_token()?.clone();
            let sapi = Sapi::new(
                &c.base_url(),
                token,
                Duration::from_secs_f64(d.request_timeout),
            )?;
            let mut solvers = sapi.solvers()?;
            // --solver narrows the list to that one; a name the service lacks is said, not
            // answered with the whole list.
            if let Some(name) = &c.solver {
                if !solvers.iter().any(|s| &s.name == name) {
                    let known: Vec<&str> = solvers.iter().map(|s| s.name.as_str()).collect();
                    return Err(Failure::from(format!(
                        "--solver {}: no such solver at {} (the token may use: {})",
                        crate::io::printable(name),
                        c.base_url(),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    )));
                }
                solvers.retain(|s| &s.name == name);
            }
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
                            "shape": crate::sampler::solver_shape(&s.properties),
                            "topology": s.properties.get("topology"),
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
                        crate::sampler::solver_shape(&s.properties)
                    );
                }
            }
            Ok(0)
        }
        RemoteCommand::Embed(e) => embed(e),
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

/// `remote embed MODEL`: chains for the model on the solver, and their figures.
fn embed(a: EmbedArgs) -> Result<i32, Failure> {
    use crate::remote::embedding_cache;
    if a.clear_cache {
        let folder = embedding_cache::folder(&ProcessEnv).ok_or_else(|| {
            Failure::from("no cache folder: set QUBO_WORKBENCH_CACHE_DIR, XDG_CACHE_HOME or HOME")
        })?;
        let removed = embedding_cache::clear(&folder).map_err(Failure::from)?;
        eprintln!(
            "removed {removed} cached embedding(s) from {}",
            folder.display()
        );
    }
    let Some(path) = &a.model else {
        return Ok(0);
    };
    if let Some(out) = &a.output {
        super::output::check_output("-o", out, super::output::Output::Text, &[path])?;
    }
    let file = crate::qubo::formats::read_model(path)?;
    let model = crate::qubo::StoredModel::new(file.qubo);
    let c = a.dwave.config_noted()?;
    let mut values = crate::params::ParamValues::new();
    let mut set = |k: &str, v: serde_json::Value| {
        values.insert(k.to_string(), v);
    };
    set("endpoint", json!(c.base_url()));
    if let Some(solver) = &c.solver {
        set("solver", json!(solver));
    }
    if let Some(profile) = &a.dwave.profile {
        set("profile", json!(profile));
    }
    set("request_timeout_s", json!(a.dwave.request_timeout));
    set("embedding", json!(a.embedding));
    set("seed", json!(a.seed));
    set("embedding_timeout_s", json!(a.embedding_timeout));
    set("embedding_cache", json!(!a.no_cache));
    let qpu = crate::remote::qpu::DwaveQpu::from_values(&values);
    let report = qpu.embed(&model, &crate::sampler::RunControl::new())?;
    let chains = embedding_cache::chains_json(&report.embedding);
    if let Some(out) = &a.output {
        crate::io::write_atomic(out, format!("{chains}\n").as_bytes())?;
    }
    let lengths: Vec<usize> = report.embedding.chains.iter().map(Vec::len).collect();
    let mean = lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64;
    if a.dwave.json {
        print_json(&json!({
            "solver": report.solver,
            "shape": report.shape,
            "working_qubits": report.working_qubits,
            "variables": lengths.len(),
            "method": report.method,
            "cached": report.cached,
            "cache_problem": report.cache_problem,
            "qubits": report.embedding.num_qubits(),
            "max_chain_length": report.embedding.max_chain_length(),
            "mean_chain_length": mean,
            "embed_s": report.embed_s,
            "chains": chains,
        }))?;
    } else {
        println!(
            "{} variables on {} ({}): {} qubits, longest chain {}, mean {mean:.2} — {}{} in {:.2} s",
            lengths.len(),
            report.solver,
            report.shape,
            report.embedding.num_qubits(),
            report.embedding.max_chain_length(),
            report.method,
            if report.cached {
                " (from the cache)"
            } else {
                ""
            },
            report.embed_s
        );
    }
    if let Some(problem) = &report.cache_problem {
        eprintln!("warning: {problem}");
    }
    Ok(0)
}
