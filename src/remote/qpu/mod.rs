//! `dwave-qpu`: D-Wave Leap's quantum annealers. The logical model is minor-embedded into the
//! solver's working graph — by the Cai–Macready–Roy search (`embedding`), by a clique
//! construction on Pegasus (`clique`), or from a file — each chain held together by a coupling of
//! `chain_strength`, scaled into the solver's `h_range`/`j_range` when it does not fit (and the
//! run says so), sent in the `qp` encoding, and the answer unembedded: majority vote per chain
//! (ties broken by the seed), then — on by default — steepest descent on the logical model,
//! because chains that broke leave reads that a few flips make much better (or a brief tabu
//! walk, on request: long chains freeze, and annealing alone rarely reaches a valid 9×9
//! Sudoku). What the chains and the post-processing did is reported in `info.details`.
//!
//! Invariant: resuming a problem (`problem_id`) re-derives the same embedding from the same
//! solver graph and `seed`, so the answer is unembedded with the chains it was sent with.

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{Value, json};

use super::RemoteError;
use super::chains::{
    EmbeddingMethod, choose_embedding, embed_qubo, read_embedding, uniform_torque_compensation,
};
use super::embedding::{EmbedError, Embedding, find_embedding_around, shorten_embedding};
use super::embedding_cache;
use super::leap::{self, LeapSettings};
use super::qp::{PhysicalProblem, decode_answer, encode_problem};
use super::topology::WorkingGraph;
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::qubo::{Csr, Model};
use crate::sampler::tabu::tabu_polish;
use crate::sampler::{
    RunControl, RunsOn, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry,
};

/// The registry entry.
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "dwave-qpu",
    summary: "D-Wave Leap quantum annealer: the model minor-embedded into the QPU's working \
              graph, chains unembedded by majority vote and polished by steepest descent (needs \
              a Leap token: DWAVE_API_TOKEN or dwave.conf)",
    params: &[
        leap::SOLVER,
        ParamSpec::num_reads(10_000, 100, "anneal-readout cycles on the QPU"),
        ParamSpec {
            name: "annealing_time",
            ty: ParamType::Float {
                min: 0.5,
                max: 2000.0,
            },
            default: ParamDefault::Auto("the solver's default (20 µs on Advantage)"),
            help: "anneal duration per read, in microseconds (within the solver's \
                   annealing_time_range)",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "chain_strength",
            ty: ParamType::Float { min: 0.0, max: 1e9 },
            default: ParamDefault::Auto("uniform torque compensation, as Ocean's default"),
            help: "penalty for a chain whose qubits disagree, in the model's energy units",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "postprocess",
            ty: ParamType::Choice(&["descent", "tabu", "none"]),
            default: ParamDefault::Word("descent"),
            help: "after the majority vote, on the logical model: steepest descent (to the \
                   nearest local minimum), a brief tabu walk (10 moves per variable: much \
                   stronger, and the answer is then partly classical — details say how much \
                   it changed), or nothing",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "embedding",
            ty: ParamType::Choice(&["auto", "clique", "heuristic"]),
            default: ParamDefault::Word("auto"),
            help: "how variables become chains of qubits: clique (Pegasus and Zephyr solvers: chains that \
                   all touch each other, so any model up to about 12·(m − 1) variables embeds, \
                   in milliseconds), heuristic (the Cai–Macready–Roy search: shorter chains on \
                   sparse models), or auto (on dense models the clique, its chains then \
                   shortened to what the couplings need within embedding_timeout_s — or, \
                   where no clique of the whole model fits, the heuristic started around the \
                   largest clique that does; the heuristic otherwise; each falling back on \
                   the other)",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "embedding_file",
            ty: ParamType::Text { max_len: 512 },
            default: ParamDefault::Auto("find chains (see embedding)"),
            help: "chains to use instead of finding them: a JSON object from variable index (the \
                   model's order, as `encode` writes it) to its list of qubits — the shape \
                   minorminer's find_embedding returns; checked against the solver's working \
                   graph before anything is sent",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "embedding_timeout_s",
            ty: ParamType::Float {
                min: 0.01,
                max: 3600.0,
            },
            default: ParamDefault::Float(30.0),
            help: "time the embedding search may take before it gives up, in seconds",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "embedding_cache",
            ty: ParamType::Bool,
            default: ParamDefault::Bool(true),
            help: "reuse an embedding found earlier for the same model graph on the same working \
                   graph (kept in the user's cache folder; `remote embed --clear-cache` empties \
                   it), and keep the one found now",
            alias: None,
            exposed: true,
        },
        ParamSpec::seed(
            ParamDefault::Int(1),
            "seed of the embedding search and of majority-vote ties (the same seed and solver \
             give the same embedding, which resuming a problem relies on)",
        ),
        leap::ENDPOINT,
        leap::REGION,
        leap::PROFILE,
        leap::CONFIG_FILE,
        leap::PROBLEM_ID,
        leap::REQUEST_TIMEOUT_S,
    ],
    build: |values| Ok(Box::new(DwaveQpu::from_values(values))),
    runs_on: RunsOn::Service(&leap::QPU_SERVICE),
    plots: &[],
    effort: None,
};

/// What embedding needs: the solver's working graph, the model's QUBO and its interaction
/// graph (the couplings that are not zero).
struct EmbeddingInput {
    graph: WorkingGraph,
    qubo: crate::qubo::Qubo,
    edges: Vec<(usize, usize)>,
}

impl EmbeddingInput {
    fn read(props: &Value, model: &dyn Model) -> Result<Self, SampleError> {
        let graph = WorkingGraph::from_properties(props)?;
        let qubo = super::model_qubo(model)?;
        let edges = qubo
            .couplings()
            .iter()
            .filter(|c| c.value != 0.0)
            .map(|c| (c.i as usize, c.j as usize))
            .collect();
        Ok(EmbeddingInput { graph, qubo, edges })
    }
}

/// What `DwaveQpu::embed` found.
#[derive(Clone, Debug)]
pub struct EmbedReport {
    /// The solver embedded into.
    pub solver: String,
    /// Its topology and size in words.
    pub shape: String,
    /// Its working qubits.
    pub working_qubits: usize,
    /// The chains.
    pub embedding: Embedding,
    /// The method that found them (`clique`, `heuristic`; a cached entry keeps its finder's).
    pub method: String,
    /// Whether they came from the cache.
    pub cached: bool,
    /// Why the chains found could not be kept in the cache (the next run searches again).
    pub cache_problem: Option<String>,
    /// Seconds taken, connection included.
    pub embed_s: f64,
}

/// Chains found for a model: by which method, whether from the cache, and why they could not
/// be kept there (a cache that cannot be written used to fail without a word).
struct Found {
    embedding: Embedding,
    method: String,
    cached: bool,
    cache_problem: Option<String>,
}

/// The QPU sampler's settings.
#[derive(Clone, Debug, Default)]
pub struct DwaveQpu {
    /// Where and how to connect.
    pub leap: LeapSettings,
    /// Reads.
    pub num_reads: u64,
    /// µs per anneal (`None`: the solver's default).
    pub annealing_time: Option<f64>,
    /// Chain coupling (`None`: uniform torque compensation).
    pub chain_strength: Option<f64>,
    /// What runs on the logical model after the vote.
    pub postprocess: Postprocess,
    /// Embedding and tie-break seed.
    pub seed: u64,
    /// How chains are found.
    pub embedding: EmbeddingMethod,
    /// Chains read from this file instead of found.
    pub embedding_file: Option<String>,
    /// Seconds the embedding search may take.
    pub embedding_timeout_s: f64,
    /// Reuse and keep embeddings in the cache folder.
    pub embedding_cache: bool,
    /// An environment to read instead of the process's (tests).
    pub environment: Option<BTreeMap<String, String>>,
}

impl DwaveQpu {
    /// From validated parameter values.
    pub fn from_values(values: &ParamValues) -> Self {
        DwaveQpu {
            leap: LeapSettings::from_values(values),
            num_reads: values
                .get("num_reads")
                .and_then(Value::as_u64)
                .unwrap_or(100),
            annealing_time: values.get("annealing_time").and_then(Value::as_f64),
            chain_strength: values.get("chain_strength").and_then(Value::as_f64),
            postprocess: match values.get("postprocess").and_then(Value::as_str) {
                Some("none") => Postprocess::None,
                Some("tabu") => Postprocess::Tabu,
                _ => Postprocess::Descent,
            },
            seed: values.get("seed").and_then(Value::as_u64).unwrap_or(1),
            embedding: match values.get("embedding").and_then(Value::as_str) {
                Some("clique") => EmbeddingMethod::Clique,
                Some("heuristic") => EmbeddingMethod::Heuristic,
                _ => EmbeddingMethod::Auto,
            },
            embedding_file: values
                .get("embedding_file")
                .and_then(Value::as_str)
                .map(str::to_string),
            embedding_timeout_s: values
                .get("embedding_timeout_s")
                .and_then(Value::as_f64)
                .unwrap_or(30.0),
            embedding_cache: values
                .get("embedding_cache")
                .and_then(Value::as_bool)
                .unwrap_or(true),
            environment: None,
        }
    }

    /// Reads `DWAVE_*` from `env` instead of the process environment.
    pub fn with_environment(mut self, env: BTreeMap<String, String>) -> Self {
        self.environment = Some(env);
        self
    }

    /// Chains for the model graph (`n` variables, `edges`) on `graph` by the chosen method,
    /// from the cache when an earlier run found them (then kept there); the method's name, and
    /// whether it came from the cache.
    fn embed_on(
        &self,
        n: usize,
        edges: &[(usize, usize)],
        graph: &WorkingGraph,
        props: &Value,
        env: &dyn super::dwave_config::Environment,
        control: &RunControl,
    ) -> Result<Found, EmbedError> {
        let folder = self
            .embedding_cache
            .then(|| embedding_cache::folder(env))
            .flatten();
        let key = embedding_cache::key(n, edges, graph, self.embedding.name());
        if let Some(f) = &folder
            && let Some((e, method)) = embedding_cache::load(f, &key, edges, graph, n)
        {
            return Ok(Found {
                embedding: e,
                method,
                cached: true,
                cache_problem: None,
            });
        }
        let budget = std::time::Duration::from_secs_f64(self.embedding_timeout_s);
        let (e, method) = choose_embedding(
            self.embedding,
            n,
            edges,
            graph,
            props,
            |edges, g, initial| {
                find_embedding_around(n, edges, g, initial, self.seed, budget, &|| {
                    control.is_cancelled()
                })
            },
            |start, edges, g| {
                shorten_embedding(start, edges, g, self.seed, budget, &|| {
                    control.is_cancelled()
                })
            },
        )?;
        // A cache that cannot be written costs the next run a search: said, not fatal.
        let cache_problem = folder.as_ref().and_then(|f| {
            embedding_cache::store(f, &key, &e, method)
                .err()
                .map(|why| format!("the embedding cache cannot keep these chains ({why}): the next run searches again"))
        });
        Ok(Found {
            embedding: e,
            method: method.to_string(),
            cached: false,
            cache_problem,
        })
    }

    /// Embeds `model` into the chosen solver's working graph without sampling (`remote
    /// embed`): the chains, the solver, the method, whether the cache had them, and the time.
    pub fn embed(
        &self,
        model: &dyn Model,
        control: &RunControl,
    ) -> Result<EmbedReport, SampleError> {
        let t0 = Instant::now();
        let env = super::environment(&self.environment);
        let conn = leap::connect(&self.leap, "qpu", "qubo", env)?;
        let props = &conn.solver.properties;
        let EmbeddingInput { graph, qubo, edges } = EmbeddingInput::read(props, model)?;
        let n = qubo.num_variables();
        let found = self
            .embed_on(n, &edges, &graph, props, env, control)
            .map_err(|e| match e {
                EmbedError::NotFound(why) => SampleError::ModelNotSupported(format!(
                    "no embedding into {}: {why}",
                    conn.solver.name
                )),
                EmbedError::Cancelled => SampleError::ModelNotSupported("cancelled".into()),
            })?;
        Ok(EmbedReport {
            solver: conn.solver.name.clone(),
            shape: crate::sampler::solver_shape(props),
            working_qubits: graph.qubits.len(),
            embedding: found.embedding,
            method: found.method,
            cached: found.cached,
            cache_problem: found.cache_problem,
            embed_s: t0.elapsed().as_secs_f64(),
        })
    }

    fn run(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        let given = match &self.embedding_file {
            Some(path) => Some((
                path,
                read_embedding(std::path::Path::new(path), model.num_variables())
                    .map_err(|e| SampleError::ModelNotSupported(e.to_string()))?,
            )),
            None => None,
        };
        let env = super::environment(&self.environment);
        let conn = leap::connect(&self.leap, "qpu", "qubo", env)?;
        let props = &conn.solver.properties;
        let EmbeddingInput { graph, qubo, edges } = EmbeddingInput::read(props, model)?;
        let n = qubo.num_variables();
        let mut info = SampleInfo {
            sampler: ENTRY.name.into(),
            params: self.params(),
            num_reads_requested: self.num_reads as usize,
            seed: Some(self.seed),
            ..SampleInfo::default()
        };
        let found = match given {
            Some((path, e)) => e
                .verify(&edges, &graph)
                .map(|()| Found {
                    embedding: e,
                    method: "file".to_string(),
                    cached: false,
                    cache_problem: None,
                })
                .map_err(|why| EmbedError::NotFound(format!("{path} does not fit: {why}"))),
            None => self.embed_on(n, &edges, &graph, props, env, control),
        };
        let Found {
            embedding,
            method,
            cached,
            cache_problem,
        } = match found {
            Ok(found) => found,
            Err(EmbedError::Cancelled) => return Ok(SampleSet::cancelled_without_reads(n, info)),
            Err(EmbedError::NotFound(why)) => {
                return Err(SampleError::ModelNotSupported(format!(
                    "no embedding into {}: {why}",
                    conn.solver.name
                )));
            }
        };
        info.warnings.extend(cache_problem);
        let embed_s = t0.elapsed().as_secs_f64();
        let chain_strength = self
            .chain_strength
            .unwrap_or_else(|| uniform_torque_compensation(&qubo));
        let mut physical = embed_qubo(&qubo, &embedding, &graph, chain_strength);
        let scale = fit_to_ranges(&mut physical, props);
        if scale > 1.0 {
            info.warnings.push(format!(
                "the embedded problem exceeds {}'s h_range/j_range: every bias was divided by \
                 {scale:.3} before sending (energies shown are the model's)",
                conn.solver.name
            ));
        }
        let data = encode_problem(&physical, &graph.qubits, &graph.couplers)?;
        let mut params = json!({ "num_reads": self.num_reads });
        if let Some(t) = self.annealing_time {
            params["annealing_time"] = json!(t);
        }
        let mut identity = json!({ "name": conn.solver.name });
        if let Some(g) = &conn.solver.graph_id {
            identity["version"] = json!({ "graph_id": g });
        }
        let job = json!({
            "solver": identity, "type": "qubo", "data": data, "params": params,
            "label": "qubo-workbench",
        });
        info.preprocessing_ns = t0.elapsed().as_nanos() as u64;
        let finished = match leap::run_problem(&conn, &self.leap, ENTRY.name, || Ok(job), control) {
            Ok(f) => f,
            Err(RemoteError::Cancelled(_)) if control.is_cancelled() => {
                return Ok(SampleSet::cancelled_without_reads(n, info));
            }
            Err(e) => return Err(e.into()),
        };
        let t_post = Instant::now();
        let answer = decode_answer(&finished.answer)?;
        let position: BTreeMap<u32, usize> = answer
            .active_variables
            .iter()
            .enumerate()
            .map(|(k, &q)| (q, k))
            .collect();
        let chain_positions: Vec<Vec<usize>> = embedding
            .chains
            .iter()
            .map(|chain| {
                chain
                    .iter()
                    .map(|q| {
                        position.get(q).copied().ok_or_else(|| {
                            RemoteError::Protocol(format!(
                                "the answer does not include qubit {q}, which was sent"
                            ))
                        })
                    })
                    .collect::<Result<Vec<usize>, _>>()
            })
            .collect::<Result<_, _>>()?;
        let csr = Csr::of_model(model);
        let mut tie_state = self.seed;
        let (mut broken_reads, mut total_reads, mut changed_reads) = (0.0, 0u64, 0u64);
        let mut energy_drop = 0.0;
        let mut counted = Vec::with_capacity(answer.solutions.len());
        for (row, &count) in answer.solutions.iter().zip(&answer.num_occurrences) {
            let (mut x, broken) = majority_vote(row, &chain_positions, &mut tie_state);
            broken_reads += broken as f64 / n.max(1) as f64 * count as f64;
            total_reads += count as u64;
            if self.postprocess != Postprocess::None {
                let before = model.energy(&x);
                let changed = match self.postprocess {
                    Postprocess::Tabu => tabu_polish(&csr, &mut x, tabu_moves(n)),
                    _ => steepest_descent(&csr, model, &mut x),
                };
                if changed {
                    changed_reads += count as u64;
                    energy_drop += (before - model.energy(&x)) * count as f64;
                }
            }
            counted.push((x, count as usize));
        }
        let reads = total_reads.max(1) as f64;
        let d = &mut info.details;
        d.insert("problem_id".into(), json!(finished.problem_id));
        d.insert("solver".into(), json!(conn.solver.name));
        d.insert("endpoint".into(), json!(conn.base_url));
        d.insert("embedding".into(), json!(method));
        d.insert("embedding_cached".into(), json!(cached));
        d.insert("qubits_used".into(), json!(embedding.num_qubits()));
        d.insert(
            "max_chain_length".into(),
            json!(embedding.max_chain_length()),
        );
        d.insert("chain_strength".into(), json!(chain_strength));
        d.insert("chain_break_fraction".into(), json!(broken_reads / reads));
        d.insert("scaled_by".into(), json!(scale.max(1.0)));
        if self.postprocess != Postprocess::None {
            d.insert("postprocess".into(), json!(self.postprocess.name()));
            d.insert(
                "postprocess_changed_fraction".into(),
                json!(changed_reads as f64 / reads),
            );
            d.insert(
                "postprocess_mean_energy_drop".into(),
                json!(energy_drop / reads),
            );
        }
        d.insert("embed_s".into(), json!(embed_s));
        d.insert("wall_s".into(), json!(finished.wall_s));
        d.insert("timing_us".into(), Value::Object(answer.timing.clone()));
        info.sampling_ns = (finished.wall_s * 1e9) as u64;
        let mut set = SampleSet::from_counted(model, counted, info);
        set.info.postprocessing_ns = t_post.elapsed().as_nanos() as u64;
        Ok(set)
    }
}

impl Sampler for DwaveQpu {
    fn name(&self) -> &'static str {
        ENTRY.name
    }

    fn params(&self) -> Value {
        let mut m = self.leap.to_json();
        m.insert("num_reads".into(), json!(self.num_reads));
        m.insert(
            "annealing_time".into(),
            self.annealing_time.map_or(Value::Null, Value::from),
        );
        m.insert(
            "chain_strength".into(),
            self.chain_strength.map_or(Value::Null, Value::from),
        );
        m.insert("postprocess".into(), json!(self.postprocess.name()));
        m.insert("seed".into(), json!(self.seed));
        m.insert("embedding".into(), json!(self.embedding.name()));
        m.insert(
            "embedding_file".into(),
            self.embedding_file.clone().map_or(Value::Null, Value::from),
        );
        m.insert(
            "embedding_timeout_s".into(),
            json!(self.embedding_timeout_s),
        );
        m.insert("embedding_cache".into(), json!(self.embedding_cache));
        Value::Object(m)
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        self.run(model, control)
    }
}

/// What runs on each unembedded read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Postprocess {
    /// Steepest descent to the nearest local minimum.
    #[default]
    Descent,
    /// A brief tabu walk (`tabu_moves`).
    Tabu,
    /// The vote's result as it is.
    None,
}

impl Postprocess {
    /// The parameter's word.
    pub fn name(self) -> &'static str {
        match self {
            Postprocess::Descent => "descent",
            Postprocess::Tabu => "tabu",
            Postprocess::None => "none",
        }
    }
}

/// Moves of the tabu polish on an n-variable model: 10 per variable, bounded so a read costs
/// at most about 10⁷ gain evaluations (each move scans every variable).
fn tabu_moves(n: usize) -> usize {
    (10 * n).min(10_000_000 / n.max(1)).max(1)
}

/// Divides every bias (and the offset) so the problem's Ising form fits the solver's
/// `h_range` and `j_range`; the factor (1 when it already fits).
pub fn fit_to_ranges(p: &mut PhysicalProblem, props: &Value) -> f64 {
    let range = |key: &str| {
        let r = props[key].as_array();
        let lo = r.and_then(|r| r.first()).and_then(Value::as_f64);
        let hi = r.and_then(|r| r.get(1)).and_then(Value::as_f64);
        match (lo, hi) {
            (Some(lo), Some(hi)) if lo < 0.0 && hi > 0.0 => Some((lo, hi)),
            _ => None,
        }
    };
    let ratio = |v: f64, (lo, hi): (f64, f64)| if v >= 0.0 { v / hi } else { v / lo };
    // Ising form of x = (1 + s)/2: h_a = Q_aa/2 + Σ_b Q_ab/4, J_ab = Q_ab/4.
    let mut h: BTreeMap<u32, f64> = p.linear.iter().map(|(&a, &v)| (a, v / 2.0)).collect();
    for (&(a, b), &v) in &p.quadratic {
        *h.entry(a).or_default() += v / 4.0;
        *h.entry(b).or_default() += v / 4.0;
    }
    let mut scale: f64 = 1.0;
    if let Some(hr) = range("h_range") {
        for &v in h.values() {
            scale = scale.max(ratio(v, hr));
        }
    }
    if let Some(jr) = range("j_range") {
        for &v in p.quadratic.values() {
            scale = scale.max(ratio(v / 4.0, jr));
        }
    }
    if scale > 1.0 {
        p.linear.values_mut().for_each(|v| *v /= scale);
        p.quadratic.values_mut().for_each(|v| *v /= scale);
        p.offset /= scale;
    }
    scale
}

/// One read unembedded: each variable takes its chain's majority (a tie by the seeded coin);
/// the number of chains that disagreed.
fn majority_vote(row: &[u8], chains: &[Vec<usize>], tie_state: &mut u64) -> (Vec<u8>, usize) {
    let mut broken = 0;
    let x = chains
        .iter()
        .map(|chain| {
            let ones = chain.iter().filter(|&&k| row[k] == 1).count();
            if ones != 0 && ones != chain.len() {
                broken += 1;
            }
            match (2 * ones).cmp(&chain.len()) {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Equal => (crate::rng::splitmix64(tie_state) & 1) as u8,
            }
        })
        .collect();
    (x, broken)
}

/// Flips the variable that lowers the energy most until none does (bounded by n² flips);
/// whether anything changed.
fn steepest_descent(csr: &Csr, model: &dyn Model, x: &mut [u8]) -> bool {
    let n = x.len();
    // Local field: the energy change of setting x_i = 1 from 0, given the others.
    let mut field: Vec<f64> = (0..n)
        .map(|i| {
            let (cols, vals) = csr.row(i);
            model.linear(i)
                + cols
                    .iter()
                    .zip(vals)
                    .filter(|(j, _)| x[**j as usize] == 1)
                    .map(|(_, v)| v)
                    .sum::<f64>()
        })
        .collect();
    let mut changed = false;
    for _ in 0..n.saturating_mul(n).max(1) {
        // Flipping i changes the energy by field[i] (0→1) or −field[i] (1→0).
        let (best, _) = (0..n)
            .map(|i| (i, if x[i] == 0 { field[i] } else { -field[i] }))
            .fold((usize::MAX, -1e-12), |b, c| if c.1 < b.1 { c } else { b });
        if best == usize::MAX {
            break;
        }
        let up = x[best] == 0;
        x[best] = u8::from(up);
        let (cols, vals) = csr.row(best);
        for (&j, &v) in cols.iter().zip(vals) {
            field[j as usize] += if up { v } else { -v };
        }
        changed = true;
    }
    changed
}

#[cfg(test)]
mod tests;
