//! The memory budget: one check before any allocation whose size comes from input (a file's
//! header, a flag, a model's size times a read count), so a hostile or mistaken number is
//! refused with the estimate and the limit instead of aborting the process.
//!
//! Searches have their own budgets where they run (node counts: `puzzle::REFERENCE_NODE_BUDGET`,
//! the generator's); this module is for bytes.

/// Environment variable that sets the budget, in MiB.
pub const MEMORY_BUDGET_ENV: &str = "QUBO_WORKBENCH_MEMORY_MB";

/// Budget when the machine's memory cannot be read: 4 GiB.
const FALLBACK_BYTES: u64 = 4 << 30;

/// An allocation that would exceed the budget.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "{what} needs about {}, more than the memory budget of {} ({})",
    human(*needed), human(*limit), source_text()
)]
pub struct BudgetError {
    /// What would have been allocated, e.g. "32 reads of 49999999 variables in SIMD lanes".
    pub what: String,
    /// Estimated bytes.
    pub needed: u64,
    /// The budget in bytes.
    pub limit: u64,
}

/// Where the budget comes from, in words for messages.
fn source_text() -> String {
    match budget_setting() {
        Ok(Some(_)) => format!("set by {MEMORY_BUDGET_ENV}"),
        _ => format!("half the machine's memory; set {MEMORY_BUDGET_ENV} to change it"),
    }
}

/// The budget `QUBO_WORKBENCH_MEMORY_MB` sets, in bytes: `None` when unset, `Err` (naming the
/// variable and its value) when it is not a whole number of MiB from 1 up.
pub fn budget_setting() -> Result<Option<u64>, String> {
    let Some(raw) = std::env::var_os(MEMORY_BUDGET_ENV) else {
        return Ok(None);
    };
    let text = raw.to_string_lossy();
    match text.trim().parse::<u64>() {
        Ok(mb) if mb > 0 => Ok(Some(mb.saturating_mul(1 << 20))),
        _ => Err(format!(
            "{MEMORY_BUDGET_ENV}={}: not a whole number of MiB (1 or more)",
            text.chars().take(40).collect::<String>()
        )),
    }
}

/// Bytes as `1.5 GiB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// The budget in bytes: `QUBO_WORKBENCH_MEMORY_MB` when set (the command line refuses a value
/// that is not a number before any work: `budget_setting`), else half the physical memory
/// (`/proc/meminfo`), else 4 GiB.
pub fn memory_budget() -> u64 {
    if let Ok(Some(bytes)) = budget_setting() {
        return bytes;
    }
    physical_memory().map_or(FALLBACK_BYTES, |b| b / 2)
}

fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Refuses `needed` bytes for `what` when they exceed the budget. Estimates are made with
/// saturating arithmetic by the callers, so an absurd input saturates rather than wraps.
pub fn check_memory(what: impl FnOnce() -> String, needed: u64) -> Result<(), BudgetError> {
    let limit = memory_budget();
    if needed > limit {
        return Err(BudgetError {
            what: what(),
            needed,
            limit,
        });
    }
    Ok(())
}

/// `a × b × …` in u64, saturating (for estimates).
pub fn bytes_of(factors: &[usize]) -> u64 {
    factors
        .iter()
        .fold(1u64, |acc, &f| acc.saturating_mul(f as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absurd_estimate_is_refused_with_both_figures() {
        let e = check_memory(|| "a test".into(), u64::MAX).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("a test needs about 16.0 EiB"), "{text}");
        assert!(text.contains(MEMORY_BUDGET_ENV), "{text}");
        assert!(check_memory(|| unreachable!(), 1 << 20).is_ok());
        assert_eq!(bytes_of(&[usize::MAX, 4]), u64::MAX);
        assert_eq!(human(1536), "1.5 KiB");
    }
}
