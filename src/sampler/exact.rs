//! Exact enumeration of all 2ⁿ states (n ≤ 30) in Gray-code order, keeping the `num_reads`
//! lowest: the oracle the tests compare every other sampler with.

use std::collections::BinaryHeap;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::control::ProgressTracker;
use super::{
    RunControl, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry, build_from_json,
};
use crate::budget::{bytes_of, check_memory};
use crate::params::ParamSpec;
use crate::qubo::Model;

/// The largest model enumerated (2³⁰ states take seconds on two cores).
pub const MAX_EXACT_VARIABLES: usize = 30;

/// The registry entry: `exact`, the tests' oracle.
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "exact",
    summary: "exact enumeration of all 2ⁿ states (n ≤ 30): the lowest num_reads states",
    params: &[ParamSpec::num_reads(
        100_000,
        100,
        "how many of the lowest-energy states to return",
    )],
    build: build_from_json::<ExactSolver>,
    runs_on: super::RunsOn::ThisMachine,
    plots: &[],
    effort: None,
};

/// Exact enumeration's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExactSolver {
    /// How many of the lowest-energy states to return.
    pub num_reads: usize,
}

impl Default for ExactSolver {
    fn default() -> Self {
        ExactSolver { num_reads: 100 }
    }
}

/// A state with its energy, ordered by (energy, bits) so the heap keeps the lowest.
#[derive(PartialEq)]
struct Candidate(f64, u64);
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

struct Dense {
    n: usize,
    lin: Vec<f64>,
    nbrs: Vec<Vec<(usize, f64)>>,
    offset: f64,
}

impl Dense {
    /// Enumerates the 2^low states whose top bits are `prefix`, keeping the k lowest.
    fn enumerate_block(
        &self,
        prefix: u64,
        low: usize,
        k: usize,
        tracker: &ProgressTracker,
    ) -> Option<Vec<Candidate>> {
        let mut x = prefix << low;
        let bit = |x: u64, i: usize| ((x >> i) & 1) as f64;
        let mut field: Vec<f64> = (0..self.n)
            .map(|i| {
                self.lin[i]
                    + self.nbrs[i]
                        .iter()
                        .map(|&(j, q)| q * bit(x, j))
                        .sum::<f64>()
            })
            .collect();
        let mut energy = self.offset
            + (0..self.n)
                .map(|i| {
                    bit(x, i)
                        * (self.lin[i]
                            + self.nbrs[i]
                                .iter()
                                .filter(|&&(j, _)| j > i)
                                .map(|&(j, q)| q * bit(x, j))
                                .sum::<f64>())
                })
                .sum::<f64>();
        let mut heap: BinaryHeap<Candidate> = BinaryHeap::with_capacity(k + 1);
        let push = |heap: &mut BinaryHeap<Candidate>, e: f64, x: u64| {
            if heap.len() < k {
                heap.push(Candidate(e, x));
            } else if let Some(top) = heap.peek()
                && Candidate(e, x) < *top
            {
                heap.pop();
                heap.push(Candidate(e, x));
            }
        };
        push(&mut heap, energy, x);
        let steps: u64 = 1 << low;
        const CHECK: u64 = 1 << 16;
        for t in 1..steps {
            let i = t.trailing_zeros() as usize;
            let on = bit(x, i) == 0.0;
            let d = if on { 1.0 } else { -1.0 };
            energy += d * field[i];
            x ^= 1 << i;
            for &(j, q) in &self.nbrs[i] {
                field[j] += d * q;
            }
            push(&mut heap, energy, x);
            if t % CHECK == 0 {
                if tracker.is_cancelled() {
                    return None;
                }
                if tracker.wants_reports() {
                    tracker.add(CHECK, heap.peek().map_or(f64::INFINITY, |c| c.0));
                }
            }
        }
        // The states since the last report (all of them in a block under CHECK), so the
        // reports add up to the total.
        if tracker.wants_reports() {
            tracker.add(
                steps - (steps - 1) / CHECK * CHECK,
                heap.peek().map_or(f64::INFINITY, |c| c.0),
            );
        }
        Some(heap.into_vec())
    }
}

impl Sampler for ExactSolver {
    fn name(&self) -> &'static str {
        "exact"
    }

    fn params(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        let n = model.num_variables();
        if n > MAX_EXACT_VARIABLES {
            return Err(SampleError::ModelNotSupported(format!(
                "exact enumeration handles at most {MAX_EXACT_VARIABLES} variables; this model has {n} \
                 (take a smaller model, or use an annealer)"
            )));
        }
        let mut nbrs = vec![Vec::new(); n];
        for (i, row) in nbrs.iter_mut().enumerate() {
            model.for_each_neighbour(i, &mut |j, q| row.push((j, q)));
        }
        let dense = Dense {
            n,
            lin: (0..n).map(|i| model.linear(i)).collect(),
            nbrs,
            offset: model.offset(),
        };
        let k = self.num_reads.min(1usize << n.min(62));
        // Split on the top bits so blocks run in parallel.
        let high = n.min(6);
        // Every block keeps its k best candidates until the merge; then k rows of n bytes.
        check_memory(
            || format!("exact enumeration keeping the {k} lowest of {n} variables"),
            bytes_of(&[1 << high, k, std::mem::size_of::<Candidate>()])
                .saturating_add(bytes_of(&[k, n + 16])),
        )?;
        let low = n - high;
        let tracker = ProgressTracker::new(control, 1u64 << n);
        let t_sample = Instant::now();
        let blocks: Vec<Option<Vec<Candidate>>> = control.install(1 << high, || {
            (0..1u64 << high)
                .into_par_iter()
                .map(|prefix| dense.enumerate_block(prefix, low, k, &tracker))
                .collect()
        });
        let sampling_ns = t_sample.elapsed().as_nanos() as u64;
        let cancelled = blocks.iter().any(Option::is_none);
        let mut all: Vec<Candidate> = blocks.into_iter().flatten().flatten().collect();
        all.sort();
        // Recompute energies exactly (the running sums may carry rounding) and keep the k lowest.
        let mut reads: Vec<(Vec<u8>, f64)> = all
            .iter()
            .take((2 * k).max(k + 16))
            .map(|c| {
                let x: Vec<u8> = (0..n).map(|i| ((c.1 >> i) & 1) as u8).collect();
                let e = model.energy(&x);
                (x, e)
            })
            .collect();
        reads.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        reads.truncate(k);
        let info = SampleInfo {
            sampler: self.name().into(),
            params: self.params(),
            num_reads_requested: self.num_reads,
            cancelled,
            seed: None,
            preprocessing_ns: (t_sample - t0).as_nanos() as u64,
            sampling_ns,
            postprocessing_ns: 0,
            num_sweeps: 0,
            warnings: Vec::new(),
            details: Default::default(),
            end: Default::default(),
            one_trial: false,
        };
        Ok(SampleSet::from_reads(n, reads, info))
    }
}
