//! Reads side by side: the lane width the annealing kernels sweep at once, and how a run's
//! reads are cut into lane groups across threads (SA and SQA alike).

/// Lane width: 32 replicas (four AVX2 vectors) give the most independent work per variable.
pub(super) const LANES: usize = 32;

/// Splits reads into lane groups of at most `LANES`. On one thread: full groups and a short
/// remainder; on several: a multiple of the thread count of equal groups, so every thread gets
/// the same work. (The grouping never changes results: each read is computed the same way.)
pub(super) fn lane_groups(num_reads: usize, threads: usize) -> Vec<std::ops::Range<usize>> {
    let full = num_reads.div_ceil(LANES);
    let groups = if threads <= 1 {
        full
    } else {
        full.div_ceil(threads) * threads
    }
    .min(num_reads);
    if groups == 0 {
        return Vec::new();
    }
    if threads <= 1 {
        return (0..num_reads)
            .step_by(LANES)
            .map(|a| a..(a + LANES).min(num_reads))
            .collect();
    }
    let (base, extra) = (num_reads / groups, num_reads % groups);
    let mut start = 0;
    (0..groups)
        .map(|g| {
            let len = base + usize::from(g < extra);
            start += len;
            start - len..start
        })
        .collect()
}

/// Every read of a run, lane group by lane group on the current thread pool (call inside
/// `RunControl::install`): `run` sweeps one group's reads and returns their states, or `None`
/// when cancelled. After a cancel, groups not yet begun are skipped: each would otherwise set
/// up and sweep once before looking (thousands of groups took minutes to notice a Ctrl-C).
pub(super) fn sample_lane_groups(
    num_reads: usize,
    cancelled: impl Fn() -> bool + Sync,
    run: impl Fn(&[usize]) -> Option<Vec<Vec<u8>>> + Sync,
) -> Vec<(usize, Vec<u8>)> {
    use rayon::prelude::*;
    lane_groups(num_reads, rayon::current_num_threads())
        .into_par_iter()
        .filter_map(|group| {
            if cancelled() {
                return None;
            }
            let reads: Vec<usize> = group.collect();
            run(&reads).map(|xs| reads.into_iter().zip(xs).collect::<Vec<_>>())
        })
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_groups_cover_every_read_once_and_balance_threads() {
        assert_eq!(lane_groups(100, 1), vec![0..32, 32..64, 64..96, 96..100]);
        assert_eq!(lane_groups(100, 2), vec![0..25, 25..50, 50..75, 75..100]);
        assert_eq!(lane_groups(3, 2), vec![0..2, 2..3]);
        assert!(lane_groups(0, 4).is_empty());
        for (reads, threads) in [(1, 1), (33, 2), (1000, 3), (7, 8)] {
            let g = lane_groups(reads, threads);
            assert!(g.iter().all(|r| !r.is_empty() && r.len() <= LANES));
            assert_eq!(
                g.iter().flat_map(|r| r.clone()).collect::<Vec<_>>(),
                (0..reads).collect::<Vec<_>>()
            );
        }
    }
}
