//! Background work, so the UI thread only lays out and paints: sampling runs, weight sweeps,
//! heatmap rasters, file dialogs and file reads and writes each run on their own thread and
//! report through a channel that the app polls once per frame (`Workbench::logic`). Here the
//! shapes every job shares (`OneShot`, and `StreamJob` in `streams`); `run`, `files`,
//! `streams`, `generate`, `campaign` and `raster` hold the jobs themselves.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::outcome::Outcome;
use crate::puzzle::{AnyPuzzle, AnySolution, DesignFacts, REFERENCE_NODE_BUDGET, Reference};
use crate::qubo::{Encoding, StoredModel, Weights};
use crate::sampler::{BestState, Progress, RemoteJob, RemoteJobSlot, RunControl, Sampler};
use crate::solve::Problem;
use crate::sweep::{self, SweepPoint};

use super::file_actions::FileAction;
use super::heatmap::{self, Order, Raster};

mod campaign;
mod files;
mod generate;
mod raster;
mod run;
mod streams;

pub use campaign::*;
pub use files::*;
pub use generate::*;
pub use raster::*;
pub use run::*;
pub use streams::*;

/// Threads for sampling: all cores but one for the UI (at least one).
pub fn worker_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

/// A slow computation on its own thread whose one answer the UI polls for: generating a
/// puzzle, a puzzle's design facts.
pub struct OneShot<T> {
    rx: Receiver<T>,
}

impl<T: Send + 'static> OneShot<T> {
    /// Runs `work` on a new thread; `repaint` wakes the UI when it is done.
    pub fn start(
        work: impl FnOnce() -> T + Send + 'static,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(work());
            repaint();
        });
        OneShot { rx }
    }

    /// The answer once it is there (`Err` if the thread died without one).
    pub fn poll(&self) -> Option<Result<T, String>> {
        match self.rx.try_recv() {
            Ok(v) => Some(Ok(v)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err("the worker thread stopped unexpectedly".into()))
            }
        }
    }
}

/// A puzzle's design facts being computed.
pub type FactsJob = OneShot<DesignFacts<AnySolution>>;
