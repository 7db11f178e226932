//! The plain QUBO model (what samplers consume and files store), its Ising form, and the
//! `Model` seam through which samplers read a model.

use super::QuboError;

/// One off-diagonal entry of an upper-triangular QUBO matrix (`i < j`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coupling {
    /// Row index (the smaller one).
    pub i: u32,
    /// Column index (the larger one).
    pub j: u32,
    /// Q_ij.
    pub value: f64,
}

/// E(x) = Σ_i linear_i·x_i + Σ_{i<j} Q_ij·x_i·x_j + offset, with x ∈ {0,1}ⁿ, minimised.
///
/// Couplings are kept upper-triangular, sorted by (i, j), with duplicates already summed.
/// Zero-valued couplings may be present (a weight set to 0 keeps the matrix's structure);
/// `num_interactions` and the file writers skip them.
#[derive(Clone, Debug, PartialEq)]
pub struct Qubo {
    linear: Vec<f64>,
    couplings: Vec<Coupling>,
    offset: f64,
}

/// E(s) = Σ h_i·s_i + Σ_{i<j} J_ij·s_i·s_j + offset, with s ∈ {−1,+1}ⁿ.
#[derive(Clone, Debug, PartialEq)]
pub struct Ising {
    /// Local fields, one per spin.
    pub h: Vec<f64>,
    /// Couplings J_ij with i < j.
    pub j: Vec<Coupling>,
    /// Constant term.
    pub offset: f64,
}

fn check_finite(what: &str, value: f64) -> Result<(), QuboError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(QuboError::NonFinite {
            what: what.to_string(),
            value,
        })
    }
}

/// Sorts (i, j, v) triples into canonical upper-triangular order and sums duplicates;
/// diagonal entries are moved into `linear`.
fn canonical_couplings(
    n: usize,
    linear: &mut [f64],
    terms: impl IntoIterator<Item = (usize, usize, f64)>,
) -> Result<Vec<Coupling>, QuboError> {
    let mut raw: Vec<Coupling> = Vec::new();
    for (a, b, v) in terms {
        for idx in [a, b] {
            if idx >= n {
                return Err(QuboError::IndexOutOfRange { index: idx, n });
            }
        }
        check_finite(&format!("coefficient of ({a}, {b})"), v)?;
        if a == b {
            linear[a] += v;
        } else {
            let (i, j) = if a < b { (a, b) } else { (b, a) };
            raw.push(Coupling {
                i: i as u32,
                j: j as u32,
                value: v,
            });
        }
    }
    raw.sort_unstable_by_key(|c| (c.i, c.j));
    let mut out: Vec<Coupling> = Vec::with_capacity(raw.len());
    for c in raw {
        match out.last_mut() {
            Some(last) if last.i == c.i && last.j == c.j => last.value += c.value,
            _ => out.push(c),
        }
    }
    Ok(out)
}

impl Qubo {
    /// An all-zero model on `n` variables.
    pub fn zeros(n: usize) -> Self {
        Qubo {
            linear: vec![0.0; n],
            couplings: Vec::new(),
            offset: 0.0,
        }
    }

    /// Builds a model from linear biases and (i, j, value) terms in any order: `(i, j)` and
    /// `(j, i)` are added together, `(i, i)` adds to the linear bias, as every reader in the
    /// dimod ecosystem does. Rejects NaN/∞ and indices ≥ n.
    pub fn new(
        linear: Vec<f64>,
        terms: impl IntoIterator<Item = (usize, usize, f64)>,
        offset: f64,
    ) -> Result<Self, QuboError> {
        let mut linear = linear;
        for (i, &v) in linear.iter().enumerate() {
            check_finite(&format!("linear bias of variable {i}"), v)?;
        }
        check_finite("offset", offset)?;
        let n = linear.len();
        let couplings = canonical_couplings(n, &mut linear, terms)?;
        for (i, &v) in linear.iter().enumerate() {
            check_finite(&format!("linear bias of variable {i}"), v)?;
        }
        for c in &couplings {
            check_finite(&format!("coefficient of ({}, {})", c.i, c.j), c.value)?;
        }
        let q = Qubo {
            linear,
            couplings,
            offset,
        };
        q.check_energy_range()?;
        Ok(q)
    }

    /// Stores any model (a structure-only one by enumerating its couplings): what a remote
    /// service is sent.
    pub fn from_model(model: &dyn Model) -> Result<Self, QuboError> {
        let n = model.num_variables();
        let linear: Vec<f64> = (0..n).map(|i| model.linear(i)).collect();
        let mut terms = Vec::new();
        for i in 0..n {
            model.for_each_neighbour(i, &mut |j, q| {
                if j > i {
                    terms.push((i, j, q));
                }
            });
        }
        Qubo::new(linear, terms, model.offset())
    }

    /// Refuses a model some of whose energies overflow f64 (every coefficient finite, but their
    /// sum not), so no energy is ever reported as ±∞ or `null`.
    pub fn check_energy_range(&self) -> Result<(), QuboError> {
        let scale = self.energy_scale();
        if scale.is_finite() {
            Ok(())
        } else {
            Err(QuboError::EnergyOverflow)
        }
    }

    /// |offset| + Σ|linear| + Σ|couplings|: bounds every energy of the model and sets its
    /// energy resolution (`qubo::energy_tolerance`).
    pub fn energy_scale(&self) -> f64 {
        self.offset.abs()
            + self.linear.iter().map(|v| v.abs()).sum::<f64>()
            + self.couplings.iter().map(|c| c.value.abs()).sum::<f64>()
    }

    /// The smallest nonzero |coefficient| (linear or coupling): the least a change of one or
    /// two variables can move the energy by, in penalty models; `None` for a model without any.
    pub fn smallest_coefficient(&self) -> Option<f64> {
        self.linear
            .iter()
            .copied()
            .chain(self.couplings.iter().map(|c| c.value))
            .map(f64::abs)
            .filter(|v| *v > 0.0)
            .min_by(f64::total_cmp)
    }

    /// The tolerance within which two of this model's energies are the same.
    pub fn energy_tolerance(&self) -> f64 {
        super::energy_tolerance(self.energy_scale())
    }

    /// Spells out a model that is computed rather than stored (a structure too large to
    /// store), for tools that need the matrix (`encode`): `couplings` bounds the pairs it has,
    /// and the build is refused when they would not fit the memory budget.
    pub fn spell_out(model: &dyn Model, couplings: u64) -> Result<Qubo, QuboError> {
        let n = model.num_variables();
        // Each coupling once (16 bytes), plus a neighbour row at a time.
        crate::budget::check_memory(
            || format!("the matrix of a model of {n} variables and up to {couplings} couplings"),
            couplings
                .saturating_mul(16)
                .saturating_add(crate::budget::bytes_of(&[n, 8])),
        )?;
        let mut out = Vec::new();
        for i in 0..n {
            model.for_each_neighbour(i, &mut |j, value| {
                if j > i {
                    out.push(Coupling {
                        i: i as u32,
                        j: j as u32,
                        value,
                    });
                }
            });
        }
        // Rows are visited in order; within a row the neighbours may come in any order.
        out.sort_unstable_by_key(|c| (c.i, c.j));
        let linear = (0..n).map(|i| model.linear(i)).collect();
        let q = Qubo::from_canonical(linear, out, model.offset());
        q.check_energy_range()?;
        Ok(q)
    }

    /// Builds a model from parts already in canonical form (sorted, upper-triangular, unique,
    /// finite). Used by `Encoding::qubo`, whose structure is canonical by construction.
    pub(crate) fn from_canonical(linear: Vec<f64>, couplings: Vec<Coupling>, offset: f64) -> Self {
        debug_assert!(
            couplings
                .windows(2)
                .all(|w| (w[0].i, w[0].j) < (w[1].i, w[1].j))
        );
        debug_assert!(
            couplings
                .iter()
                .all(|c| c.i < c.j && (c.j as usize) < linear.len())
        );
        Qubo {
            linear,
            couplings,
            offset,
        }
    }

    /// Number of variables.
    pub fn num_variables(&self) -> usize {
        self.linear.len()
    }

    /// Number of non-zero couplings.
    pub fn num_interactions(&self) -> usize {
        self.couplings.iter().filter(|c| c.value != 0.0).count()
    }

    /// The diagonal: one linear coefficient per variable.
    pub fn linear(&self) -> &[f64] {
        &self.linear
    }

    /// Off-diagonal entries, upper-triangular, sorted by (i, j).
    pub fn couplings(&self) -> &[Coupling] {
        &self.couplings
    }

    /// A 64-bit fingerprint of the model (FNV-1a over its size, coefficients and offset, bit
    /// for bit), as 16 hex digits: two sample sets of one model carry the same one, so runs
    /// of different models are not compared by mistake.
    pub fn fingerprint(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |v: u64| {
            for b in v.to_le_bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(self.linear.len() as u64);
        for &a in &self.linear {
            eat(a.to_bits());
        }
        for c in &self.couplings {
            eat((u64::from(c.i) << 32) | u64::from(c.j));
            eat(c.value.to_bits());
        }
        eat(self.offset.to_bits());
        format!("{h:016x}")
    }

    /// The constant term.
    pub fn offset(&self) -> f64 {
        self.offset
    }

    /// A bound no assignment's energy is below: the offset plus every negative linear term
    /// and coupling (each could be on at once, at best). A target under it cannot be reached.
    pub fn energy_lower_bound(&self) -> f64 {
        self.offset
            + self.linear.iter().map(|&v| v.min(0.0)).sum::<f64>()
            + self.couplings.iter().map(|c| c.value.min(0.0)).sum::<f64>()
    }

    /// Replaces the constant term (finite values only).
    pub fn set_offset(&mut self, offset: f64) -> Result<(), QuboError> {
        check_finite("offset", offset)?;
        self.offset = offset;
        Ok(())
    }

    /// Energy of a 0/1 assignment (any non-zero byte counts as 1).
    pub fn energy(&self, x: &[u8]) -> Result<f64, QuboError> {
        if x.len() != self.linear.len() {
            return Err(QuboError::LengthMismatch {
                expected: self.linear.len(),
                found: x.len(),
            });
        }
        let mut e = self.offset;
        for (i, &b) in x.iter().enumerate() {
            if b != 0 {
                e += self.linear[i];
            }
        }
        for c in &self.couplings {
            if x[c.i as usize] != 0 && x[c.j as usize] != 0 {
                e += c.value;
            }
        }
        Ok(e)
    }

    /// Symmetric adjacency (both directions, zero couplings skipped), for samplers.
    pub fn csr(&self) -> Csr {
        Csr::from_couplings(&self.linear, &self.couplings, self.offset)
    }

    /// Ising form via x = (s + 1)/2, with the exact offset.
    pub fn to_ising(&self) -> Ising {
        let n = self.linear.len();
        let mut h: Vec<f64> = self.linear.iter().map(|q| q / 2.0).collect();
        let mut offset = self.offset + self.linear.iter().sum::<f64>() / 2.0;
        let mut j = Vec::with_capacity(self.couplings.len());
        for c in &self.couplings {
            let quarter = c.value / 4.0;
            h[c.i as usize] += quarter;
            h[c.j as usize] += quarter;
            offset += quarter;
            j.push(Coupling {
                value: quarter,
                ..*c
            });
        }
        debug_assert_eq!(h.len(), n);
        Ising { h, j, offset }
    }

    /// QUBO form of an Ising model via s = 2x − 1, with the exact offset.
    pub fn from_ising(ising: &Ising) -> Result<Self, QuboError> {
        let n = ising.h.len();
        let mut linear: Vec<f64> = ising.h.iter().map(|h| 2.0 * h).collect();
        let mut offset = ising.offset - ising.h.iter().sum::<f64>();
        let mut terms = Vec::with_capacity(ising.j.len());
        for c in &ising.j {
            for idx in [c.i as usize, c.j as usize] {
                if idx >= n {
                    return Err(QuboError::IndexOutOfRange { index: idx, n });
                }
            }
            terms.push((c.i as usize, c.j as usize, 4.0 * c.value));
            linear[c.i as usize] -= 2.0 * c.value;
            linear[c.j as usize] -= 2.0 * c.value;
            offset += c.value;
        }
        Qubo::new(linear, terms, offset)
    }
}

impl Ising {
    /// Energy of a ±1 assignment (a negative byte value counts as −1, anything else as +1).
    pub fn energy(&self, s: &[i8]) -> f64 {
        let spin = |k: u32| if s[k as usize] < 0 { -1.0 } else { 1.0 };
        let mut e = self.offset;
        for (i, h) in self.h.iter().enumerate() {
            e += h * spin(i as u32);
        }
        for c in &self.j {
            e += c.value * spin(c.i) * spin(c.j);
        }
        e
    }
}

/// Compressed sparse rows of the symmetric coupling matrix: `cols[start[i]..start[i+1]]` are the
/// neighbours of i (sorted) with coupling values in `values`, each pair stored in both rows.
#[derive(Clone, Debug, Default)]
pub struct Csr {
    /// Diagonal: one linear coefficient per variable.
    pub linear: Vec<f64>,
    /// Row starts into `cols`/`values`, `num_variables + 1` of them.
    pub start: Vec<usize>,
    /// Neighbour indices, sorted within each row.
    pub cols: Vec<u32>,
    /// Coupling values, parallel to `cols`.
    pub values: Vec<f64>,
    /// Constant term.
    pub offset: f64,
}

impl Csr {
    fn from_couplings(linear: &[f64], couplings: &[Coupling], offset: f64) -> Self {
        let n = linear.len();
        let mut degree = vec![0usize; n + 1];
        for c in couplings.iter().filter(|c| c.value != 0.0) {
            degree[c.i as usize] += 1;
            degree[c.j as usize] += 1;
        }
        let mut start = vec![0usize; n + 1];
        for i in 0..n {
            start[i + 1] = start[i] + degree[i];
        }
        let mut fill = start.clone();
        let nnz = start[n];
        let mut cols = vec![0u32; nnz];
        let mut values = vec![0f64; nnz];
        // Couplings are sorted by (i, j), so each row receives its columns in ascending order
        // if we place row entries j > i after those j < i: push in two passes.
        for c in couplings.iter().filter(|c| c.value != 0.0) {
            let r = c.j as usize;
            cols[fill[r]] = c.i;
            values[fill[r]] = c.value;
            fill[r] += 1;
        }
        for c in couplings.iter().filter(|c| c.value != 0.0) {
            let r = c.i as usize;
            cols[fill[r]] = c.j;
            values[fill[r]] = c.value;
            fill[r] += 1;
        }
        Csr {
            linear: linear.to_vec(),
            start,
            cols,
            values,
            offset,
        }
    }

    /// Bytes `of_model` allocates for `model`: none when it stores a CSR, else an estimate
    /// (for memory budgets, before building).
    pub fn bytes_to_build(model: &dyn Model) -> u64 {
        use crate::budget::bytes_of;
        if model.csr().is_some() {
            return 0;
        }
        let n = model.num_variables();
        if let Some(g) = model.grouped() {
            // Both directions of every coupling the structure spells out, 12 bytes each, held
            // twice while the vectors grow, plus a sampler's 8-byte kernel copy.
            let entries = g.num_couplings().saturating_mul(2);
            return bytes_of(&[n, 16]).saturating_add(entries.saturating_mul(32));
        }
        // Without a CSR the entry count is unknown until built: at least one per variable.
        bytes_of(&[n, 16]).saturating_add(bytes_of(&[n, 12]))
    }

    /// The model's stored CSR, or one built from its neighbour callback (a model computed on
    /// the fly, such as the full Eternity II one, stores none).
    pub fn of_model(model: &dyn Model) -> std::borrow::Cow<'_, Csr> {
        if let Some(csr) = model.csr() {
            return std::borrow::Cow::Borrowed(csr);
        }
        let n = model.num_variables();
        let mut start = vec![0usize; n + 1];
        let mut cols = Vec::new();
        let mut values = Vec::new();
        for i in 0..n {
            model.for_each_neighbour(i, &mut |j, q| {
                cols.push(j as u32);
                values.push(q);
            });
            start[i + 1] = cols.len();
        }
        std::borrow::Cow::Owned(Csr {
            linear: (0..n).map(|i| model.linear(i)).collect(),
            start,
            cols,
            values,
            offset: model.offset(),
        })
    }

    /// Number of variables (rows).
    pub fn num_variables(&self) -> usize {
        self.linear.len()
    }

    /// Number of stored (directed) neighbour entries: twice the number of couplings.
    pub fn num_entries(&self) -> usize {
        self.cols.len()
    }

    /// The neighbours of `i` and the coupling values to them.
    pub fn row(&self, i: usize) -> (&[u32], &[f64]) {
        let r = self.start[i]..self.start[i + 1];
        (&self.cols[r.clone()], &self.values[r])
    }
}

/// What a sampler needs to know of a model. A stored `Qubo` offers its CSR; a model whose
/// couplings are computed on the fly (the full Eternity II model is too big to store) answers
/// `for_each_neighbour` instead and returns `None` from `csr`.
pub trait Model: Sync {
    /// Number of variables.
    fn num_variables(&self) -> usize;
    /// Constant term of the energy.
    fn offset(&self) -> f64;
    /// Linear coefficient (diagonal) of variable `i`.
    fn linear(&self, i: usize) -> f64;
    /// Calls `f(j, Q_ij)` for every j ≠ i with a non-zero coupling.
    fn for_each_neighbour(&self, i: usize, f: &mut dyn FnMut(usize, f64));
    /// The stored adjacency, when there is one: samplers take their fast path on it.
    fn csr(&self) -> Option<&Csr> {
        None
    }
    /// The model's structure, when it has one (`grouped`): annealing then computes each
    /// flip's energy change from counts instead of reading couplings.
    fn grouped(&self) -> Option<&super::GroupedModel> {
        None
    }
    /// The model's exactly-one groups, when known (`OneHotGroups`): samplers that move inside
    /// groups hold them by construction.
    fn one_hot(&self) -> Option<&super::OneHotGroups> {
        None
    }
    /// Exact energy of a 0/1 assignment of length `num_variables`.
    fn energy(&self, x: &[u8]) -> f64 {
        let mut e = self.offset();
        for i in 0..self.num_variables() {
            if x[i] == 0 {
                continue;
            }
            e += self.linear(i);
            self.for_each_neighbour(i, &mut |j, q| {
                if j > i && x[j] != 0 {
                    e += q;
                }
            });
        }
        e
    }
}

/// A `Qubo` together with its CSR, ready for the samplers (build it once per model change).
#[derive(Clone, Debug)]
pub struct StoredModel {
    /// The model (all zeros when the model is structure-only: see `is_stored`).
    pub qubo: Qubo,
    csr: Csr,
    /// The same energies by structure, when the encoder knows it (SA then anneals on it).
    structure: Option<super::GroupedModel>,
    /// False for a model too large to store: `structure` is then the model.
    stored: bool,
    /// Its exactly-one groups, when the encoder knows them.
    one_hot: Option<std::sync::Arc<super::OneHotGroups>>,
}

impl StoredModel {
    /// Stores a model with its CSR, built here once.
    pub fn new(qubo: Qubo) -> Self {
        let csr = qubo.csr();
        StoredModel {
            qubo,
            csr,
            structure: None,
            stored: true,
            one_hot: None,
        }
    }

    /// A model too large to store, held only as its structure: energies, rows and the
    /// structured kernel come from it; `qubo` is all zeros and `csr()` is `None`, so samplers
    /// that need stored couplings estimate (and refuse) building them.
    pub fn structure_only(structure: super::GroupedModel) -> Self {
        let qubo = Qubo::zeros(structure.num_variables());
        let csr = qubo.csr();
        StoredModel {
            qubo,
            csr,
            structure: Some(structure),
            stored: false,
            one_hot: None,
        }
    }

    /// Whether the couplings are stored (`false`: structure-only).
    pub fn is_stored(&self) -> bool {
        self.stored
    }

    /// Couplings of the model (for a structure-only model, those its structure spells out).
    pub fn num_interactions(&self) -> usize {
        match (&self.structure, self.stored) {
            (Some(g), false) => g.num_couplings() as usize,
            _ => self.qubo.num_interactions(),
        }
    }

    /// Attaches the structure that spells out the same energies (`Model::grouped`); the caller
    /// vouches for the equality (the encoders' tests check it).
    pub fn with_structure(mut self, structure: Option<super::GroupedModel>) -> Self {
        self.structure = structure;
        self
    }
}

impl StoredModel {
    /// Attaches the model's exactly-one groups (`Model::one_hot`); empty groups attach nothing.
    pub fn with_one_hot(mut self, groups: super::OneHotGroups) -> Self {
        self.one_hot = (!groups.is_empty()).then(|| std::sync::Arc::new(groups));
        self
    }
}

impl From<Qubo> for StoredModel {
    fn from(q: Qubo) -> Self {
        StoredModel::new(q)
    }
}

impl Model for StoredModel {
    fn num_variables(&self) -> usize {
        self.csr.num_variables()
    }
    fn offset(&self) -> f64 {
        match (&self.structure, self.stored) {
            (Some(g), false) => g.offset(),
            _ => self.csr.offset,
        }
    }
    fn linear(&self, i: usize) -> f64 {
        match (&self.structure, self.stored) {
            (Some(g), false) => g.linear(i),
            _ => self.csr.linear[i],
        }
    }
    fn for_each_neighbour(&self, i: usize, f: &mut dyn FnMut(usize, f64)) {
        if let (Some(g), false) = (&self.structure, self.stored) {
            return g.for_each_neighbour(i, f);
        }
        let (cols, vals) = self.csr.row(i);
        for (&j, &q) in cols.iter().zip(vals) {
            f(j as usize, q);
        }
    }
    fn csr(&self) -> Option<&Csr> {
        self.stored.then_some(&self.csr)
    }
    fn energy(&self, x: &[u8]) -> f64 {
        match (&self.structure, self.stored) {
            (Some(g), false) => g.energy(x),
            _ => self.qubo.energy(x).unwrap_or(f64::NAN),
        }
    }
    fn grouped(&self) -> Option<&super::GroupedModel> {
        self.structure.as_ref()
    }
    fn one_hot(&self) -> Option<&super::OneHotGroups> {
        self.one_hot.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_energy_lower_bound_is_below_every_assignment() {
        let q = Qubo::new(vec![-1.0, 2.0, -0.5], vec![(0, 1, -3.0), (1, 2, 4.0)], 1.0).unwrap();
        let bound = q.energy_lower_bound();
        assert_eq!(bound, 1.0 - 1.0 - 0.5 - 3.0);
        for bits in 0u8..8 {
            let x: Vec<u8> = (0..3).map(|k| (bits >> k) & 1).collect();
            assert!(q.energy(&x).unwrap() >= bound, "{x:?}");
        }
    }
}
