//! `GenerateControl`: how a caller steers a generator that searches — dealing until a board
//! needs no guess, drawing until an instance falls in a difficulty band or a TTS99 range. It can
//! be cancelled, and it tells how many tries of how many were made, so the window shows
//! progress and the CLI can say where a long generation stands.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::PuzzleError;

/// Cancel flag and progress of one generation (cheap to clone: the clones share them).
#[derive(Clone, Default)]
pub struct GenerateControl {
    cancel: Arc<AtomicBool>,
    tried: Arc<AtomicU64>,
    of: Arc<AtomicU64>,
}

impl GenerateControl {
    /// Not cancelled, nothing tried.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the generator to stop at its next try.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether `cancel` was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Records that `tried` of at most `of` tries are done.
    pub fn report(&self, tried: u64, of: u64) {
        self.tried.store(tried, Ordering::Relaxed);
        self.of.store(of, Ordering::Relaxed);
    }

    /// Tries done and the most there will be (0 of 0: nothing reported yet).
    pub fn progress(&self) -> (u64, u64) {
        (
            self.tried.load(Ordering::Relaxed),
            self.of.load(Ordering::Relaxed),
        )
    }

    /// Records try `tried` of `of` and fails when cancelled: call once per try.
    pub fn next_try(&self, tried: u64, of: u64) -> Result<(), PuzzleError> {
        self.report(tried, of);
        if self.is_cancelled() {
            Err(PuzzleError::Invalid("generation cancelled".into()))
        } else {
            Ok(())
        }
    }
}

/// How many draws ended in each band, in words (`easy 3, medium 1, hard 0`): what a search
/// that missed its band found instead.
pub fn band_tally(names: impl IntoIterator<Item = &'static str>, counts: &[usize]) -> String {
    names
        .into_iter()
        .zip(counts)
        .map(|(name, n)| format!("{name} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}
