//! The state a move reads and changes, on the two model layouts: a stored model's CSR (local
//! fields) and a structured model (`qubo::grouped`, running sums). Both work in f64, one read
//! at a time: a move touches two or four variables chosen per read, so reads do not line up
//! in SIMD lanes the way single flips at the same index do.
//!
//! Invariant: `CsrEngine::field[i]` = linear_i + Σ_j Q_ij·x_j of its state; `GroupedEngine`'s
//! sums are those of its state (as `GroupedState`'s).

use crate::qubo::grouped::GroupedKernel;
use crate::qubo::{Csr, Model};

/// A state that prices and applies multi-bit changes exactly.
pub(in crate::sampler) trait Engine {
    /// Whether variable `v` is 1.
    fn bit(&self, v: usize) -> bool;
    /// ΔE of flipping every variable of `change` (distinct), the state left as it was.
    fn delta(&mut self, change: &[u32]) -> f64;
    /// Flips every variable of `change`.
    fn apply(&mut self, change: &[u32]);
    /// Flips every variable of `change` when its ΔE ≤ `threshold` and returns the ΔE; else
    /// leaves the state as it was.
    #[inline(always)]
    fn try_change(&mut self, change: &[u32], threshold: f64) -> Option<f64> {
        let de = self.delta(change);
        (de <= threshold).then(|| {
            self.apply(change);
            de
        })
    }
    /// The state as 0/1.
    fn state(&self) -> Vec<u8>;
    /// The exact energy of the state (recomputed).
    fn energy(&self) -> f64;
    /// Recomputes fields or sums from the state.
    fn resync(&mut self);
}

/// A model's couplings for `CsrEngine`: f64 rows sorted by column, so a pair is found by
/// binary search.
pub(in crate::sampler) struct MoveCsr {
    start: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f64>,
    linear: Vec<f64>,
    offset: f64,
    /// The full matrix (f64, row-major) for small models: a pair is one load.
    dense: Vec<f64>,
}

/// Models up to this many variables also keep their matrix dense (8 MB at most).
const DENSE_UP_TO: usize = 1024;

impl MoveCsr {
    /// The model's rows, sorted (a stored CSR's rows already are; others are sorted here).
    pub fn new(model: &dyn Model) -> Self {
        let csr = Csr::of_model(model);
        let n = csr.num_variables();
        let mut cols = Vec::with_capacity(csr.num_entries());
        let mut vals = Vec::with_capacity(csr.num_entries());
        for i in 0..n {
            let (c, v) = csr.row(i);
            let mut row: Vec<(u32, f64)> = c.iter().copied().zip(v.iter().copied()).collect();
            row.sort_unstable_by_key(|t| t.0);
            cols.extend(row.iter().map(|t| t.0));
            vals.extend(row.iter().map(|t| t.1));
        }
        let mut dense = Vec::new();
        if n <= DENSE_UP_TO {
            dense = vec![0.0; n * n];
            for i in 0..n {
                for k in csr.start[i]..csr.start[i + 1] {
                    dense[i * n + cols[k] as usize] = vals[k];
                }
            }
        }
        MoveCsr {
            start: csr.start.clone(),
            cols,
            vals,
            linear: csr.linear.clone(),
            offset: csr.offset,
            dense,
        }
    }

    /// Bytes it holds for a model of `n` variables and `entries` directed entries.
    pub fn bytes(n: usize, entries: usize) -> u64 {
        let dense = if n <= DENSE_UP_TO { n * n * 8 } else { 0 };
        crate::budget::bytes_of(&[n, 16])
            .saturating_add(crate::budget::bytes_of(&[entries, 12]))
            .saturating_add(dense as u64)
    }

    /// Row `i`: columns (sorted) and values.
    #[inline(always)]
    pub(super) fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let r = self.start[i]..self.start[i + 1];
        (&self.cols[r.clone()], &self.vals[r])
    }

    /// Variables.
    pub(super) fn num_variables(&self) -> usize {
        self.linear.len()
    }

    /// linear_i.
    pub(super) fn linear(&self, i: usize) -> f64 {
        self.linear[i]
    }

    /// Every linear term and coupling.
    pub(super) fn coefficients(&self) -> impl Iterator<Item = f64> + '_ {
        self.linear.iter().chain(&self.vals).copied()
    }

    /// Q_ij (0 when not coupled).
    #[inline(always)]
    pub(super) fn pair(&self, i: u32, j: u32) -> f64 {
        if !self.dense.is_empty() {
            return self.dense[i as usize * self.linear.len() + j as usize];
        }
        let (cols, vals) = self.row(i as usize);
        match cols.binary_search(&j) {
            Ok(k) => vals[k],
            Err(_) => 0.0,
        }
    }
}

/// A state on a stored model: the bits and every variable's local field.
pub(in crate::sampler) struct CsrEngine<'m> {
    m: &'m MoveCsr,
    x: Vec<u8>,
    field: Vec<f64>,
}

impl<'m> CsrEngine<'m> {
    pub fn new(m: &'m MoveCsr, x: Vec<u8>) -> Self {
        let mut e = CsrEngine {
            m,
            field: vec![0.0; x.len()],
            x,
        };
        e.resync();
        e
    }
}

impl CsrEngine<'_> {
    /// Every variable's local field.
    pub(super) fn fields(&self) -> &[f64] {
        &self.field
    }
}

impl Engine for CsrEngine<'_> {
    fn bit(&self, v: usize) -> bool {
        self.x[v] != 0
    }

    #[inline(always)]
    fn delta(&mut self, change: &[u32]) -> f64 {
        // Σ sᵢfᵢ + Σ_{i<j} sᵢsⱼQᵢⱼ, s = +1 turning on, −1 turning off.
        let mut de = 0.0;
        for (k, &i) in change.iter().enumerate() {
            let si = 1.0 - 2.0 * self.x[i as usize] as f64;
            de += si * self.field[i as usize];
            for &j in &change[..k] {
                let sj = 1.0 - 2.0 * self.x[j as usize] as f64;
                de += si * sj * self.m.pair(i, j);
            }
        }
        de
    }

    #[inline(always)]
    fn apply(&mut self, change: &[u32]) {
        for &i in change {
            let s = 1.0 - 2.0 * self.x[i as usize] as f64;
            self.x[i as usize] ^= 1;
            let (cols, vals) = self.m.row(i as usize);
            for (&j, &q) in cols.iter().zip(vals) {
                self.field[j as usize] += s * q;
            }
        }
    }

    fn state(&self) -> Vec<u8> {
        self.x.clone()
    }

    fn energy(&self) -> f64 {
        let mut e = self.m.offset;
        for (i, &b) in self.x.iter().enumerate() {
            if b == 0 {
                continue;
            }
            e += self.m.linear[i];
            let (cols, vals) = self.m.row(i);
            for (&j, &q) in cols.iter().zip(vals) {
                if (j as usize) > i && self.x[j as usize] != 0 {
                    e += q;
                }
            }
        }
        e
    }

    fn resync(&mut self) {
        for i in 0..self.x.len() {
            let (cols, vals) = self.m.row(i);
            self.field[i] = self.m.linear[i]
                + cols
                    .iter()
                    .zip(vals)
                    .filter(|(j, _)| self.x[**j as usize] != 0)
                    .map(|(_, q)| q)
                    .sum::<f64>();
        }
    }
}

/// A state on a structured model: the bits and the running sums per group, port and label.
pub(in crate::sampler) struct GroupedEngine<'k> {
    k: &'k GroupedKernel,
    /// Every group of the kernel is held by the moves (its weight zeroed, `run::Layout`): its
    /// sums need not be kept at all.
    skip_groups: bool,
    on: Vec<u8>,
    in_group: Vec<f64>,
    /// Counts per port and per (port, label): small integers, held as i32 so a full Eternity
    /// II replica's counts stay in cache.
    at_port: Vec<i32>,
    with_label: Vec<i32>,
}

impl<'k> GroupedEngine<'k> {
    pub fn new(k: &'k GroupedKernel, skip_groups: bool, x: Vec<u8>) -> Self {
        let mut e = GroupedEngine {
            k,
            skip_groups,
            on: x,
            in_group: vec![0.0; k.num_groups],
            at_port: vec![0; k.num_ports],
            with_label: vec![0; k.num_ports * k.num_labels],
        };
        e.resync();
        e
    }

    /// ΔE of flipping `v` alone.
    #[inline(always)]
    fn flip_delta(&self, v: usize) -> f64 {
        let k = self.k;
        let x = self.on[v] as f64;
        let mut field = k.linear[v];
        if !self.skip_groups {
            for (&g, &c) in k.groups[v].iter().zip(&k.coef[v]) {
                field += k.twice_weight[g as usize] * c * (self.in_group[g as usize] - c * x);
            }
        }
        let row = k.pair_start[v] as usize..k.pair_start[v + 1] as usize;
        for (&j, &q) in k.pair_cols[row.clone()].iter().zip(&k.pair_vals[row]) {
            field += q * self.on[j as usize] as f64;
        }
        for &(q, ql) in &k.other[v] {
            field += k.diff * self.at_port[q as usize] as f64
                + k.same_minus_diff * self.with_label[ql as usize] as f64;
        }
        field * (1.0 - 2.0 * x)
    }

    #[inline(always)]
    fn flip(&mut self, v: usize) {
        let k = self.k;
        let up = self.on[v] == 0;
        self.on[v] ^= 1;
        if !self.skip_groups {
            let d = if up { 1.0 } else { -1.0 };
            for (&g, &c) in k.groups[v].iter().zip(&k.coef[v]) {
                self.in_group[g as usize] += c * d;
            }
        }
        let d = if up { 1 } else { -1 };
        for &(p, pl) in &k.own[v] {
            self.at_port[p as usize] += d;
            self.with_label[pl as usize] += d;
        }
    }
}

impl Engine for GroupedEngine<'_> {
    fn bit(&self, v: usize) -> bool {
        self.on[v] != 0
    }

    #[inline(always)]
    fn delta(&mut self, change: &[u32]) -> f64 {
        // Flip one at a time, adding each change, then undo in reverse.
        let mut de = 0.0;
        for &v in change {
            de += self.flip_delta(v as usize);
            self.flip(v as usize);
        }
        for &v in change.iter().rev() {
            self.flip(v as usize);
        }
        de
    }

    #[inline(always)]
    fn apply(&mut self, change: &[u32]) {
        for &v in change {
            self.flip(v as usize);
        }
    }

    #[inline(always)]
    fn try_change(&mut self, change: &[u32], threshold: f64) -> Option<f64> {
        // Priced by flipping: an accepted change is already applied.
        let mut de = 0.0;
        for &v in change {
            de += self.flip_delta(v as usize);
            self.flip(v as usize);
        }
        if de <= threshold {
            return Some(de);
        }
        for &v in change.iter().rev() {
            self.flip(v as usize);
        }
        None
    }

    fn state(&self) -> Vec<u8> {
        self.on.clone()
    }

    fn energy(&self) -> f64 {
        crate::qubo::grouped::GroupedState::energy_of(self.k, &self.on)
    }

    fn resync(&mut self) {
        self.in_group.fill(0.0);
        self.at_port.fill(0);
        self.with_label.fill(0);
        for v in 0..self.on.len() {
            if self.on[v] != 0 {
                self.on[v] = 0;
                self.flip(v);
            }
        }
    }
}
