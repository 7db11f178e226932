//! `SampleSet`: distinct samples with energy and occurrence count, lowest energy first.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleRow {
    pub sample: Vec<u8>,
    pub energy: f64,
    pub num_occurrences: usize,
}

/// What produced a sample set, and how long it took.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SampleInfo {
    pub sampler: String,
    pub params: serde_json::Value,
    /// Reads asked for.
    pub num_reads_requested: usize,
    /// True when the run was cancelled: the rows hold only the reads completed before that.
    pub cancelled: bool,
    /// Seed actually used (also when the caller left it unset), so a run can be repeated.
    pub seed: Option<u64>,
    pub preprocessing_ns: u64,
    pub sampling_ns: u64,
    pub postprocessing_ns: u64,
    /// Sweeps per read actually run (for ns-per-update figures).
    pub num_sweeps: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SampleSet {
    pub num_variables: usize,
    pub rows: Vec<SampleRow>,
    pub info: SampleInfo,
}

impl SampleSet {
    /// Aggregates reads (sample, energy): rows sorted by energy, ties by sample (so identical
    /// samples are adjacent and merge), and the result does not depend on read order.
    pub fn from_reads(
        num_variables: usize,
        mut reads: Vec<(Vec<u8>, f64)>,
        info: SampleInfo,
    ) -> Self {
        reads.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        let mut rows: Vec<SampleRow> = Vec::new();
        for (sample, energy) in reads {
            match rows.last_mut() {
                Some(last) if last.sample == sample => last.num_occurrences += 1,
                _ => rows.push(SampleRow {
                    sample,
                    energy,
                    num_occurrences: 1,
                }),
            }
        }
        SampleSet {
            num_variables,
            rows,
            info,
        }
    }

    /// Reads represented (sum of occurrence counts).
    pub fn num_reads(&self) -> usize {
        self.rows.iter().map(|r| r.num_occurrences).sum()
    }

    pub fn lowest(&self) -> Option<&SampleRow> {
        self.rows.first()
    }

    /// One energy per read, lowest first.
    pub fn energies(&self) -> Vec<f64> {
        self.rows
            .iter()
            .flat_map(|r| std::iter::repeat_n(r.energy, r.num_occurrences))
            .collect()
    }

    /// Share of reads whose energy is within `tol` of `target`.
    pub fn fraction_at(&self, target: f64, tol: f64) -> f64 {
        let n = self.num_reads();
        if n == 0 {
            return 0.0;
        }
        let hits: usize = self
            .rows
            .iter()
            .filter(|r| (r.energy - target).abs() <= tol)
            .map(|r| r.num_occurrences)
            .sum();
        hits as f64 / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_and_sorts_reads() {
        let reads = vec![
            (vec![1, 0], 2.0),
            (vec![0, 1], -1.0),
            (vec![1, 1], -1.0),
            (vec![0, 1], -1.0),
        ];
        let s = SampleSet::from_reads(2, reads, SampleInfo::default());
        assert_eq!(s.num_reads(), 4);
        assert_eq!(s.rows.len(), 3);
        assert_eq!(s.rows[0].sample, vec![0, 1]);
        assert_eq!(s.rows[0].num_occurrences, 2);
        assert_eq!(s.energies(), vec![-1.0, -1.0, -1.0, 2.0]);
        assert_eq!(s.fraction_at(-1.0, 1e-9), 0.75);
    }
}
