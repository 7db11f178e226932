//! The document's run history: every finished run kept as a `compare::RunSummary` (sampler,
//! parameters, weights, seed, energies, figures, best sample), up to a limit from the settings
//! — the oldest unpinned run goes first —, saved with the autosaved document. The results
//! panel lists them (pin, rename, delete, show on the board) and overlays the ticked ones.

use serde::{Deserialize, Serialize};

use crate::compare::RunSummary;

/// Runs kept by default (`Settings::run_history_limit`).
pub const DEFAULT_RUN_HISTORY_LIMIT: usize = 20;
/// The most the setting allows (each run keeps at most `compare::MAX_ENERGIES` energies).
pub const MAX_RUN_HISTORY_LIMIT: usize = 200;

/// One kept run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeptRun {
    /// Stable within the document (names can repeat).
    pub id: u64,
    /// Pinned runs are never dropped to make room.
    pub pinned: bool,
    /// Drawn on the overlay.
    pub ticked: bool,
    /// What it measured.
    pub summary: RunSummary,
}

/// The runs of one document, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunHistory {
    /// The runs, oldest first.
    pub runs: Vec<KeptRun>,
    /// The next run's id (and number in its default name).
    next_id: u64,
}

impl RunHistory {
    /// Keeps a new run (ticked, named "SAMPLER #N" unless it has a name), dropping the oldest
    /// unpinned runs past `limit`; returns its id.
    pub fn add(&mut self, mut summary: RunSummary, limit: usize) -> u64 {
        self.next_id = self
            .next_id
            .max(self.runs.iter().map(|r| r.id + 1).max().unwrap_or(0));
        let id = self.next_id;
        self.next_id += 1;
        if summary.name.is_empty() {
            summary.name = format!("{} #{}", summary.sampler, id + 1);
        }
        self.runs.push(KeptRun {
            id,
            pinned: false,
            ticked: true,
            summary,
        });
        self.trim(limit);
        id
    }

    /// Drops the oldest unpinned runs until at most `limit` are kept (pinned ones stay even
    /// past it).
    pub fn trim(&mut self, limit: usize) {
        while self.runs.len() > limit.max(1) {
            match self.runs.iter().position(|r| !r.pinned) {
                Some(k) => {
                    self.runs.remove(k);
                }
                None => break,
            }
        }
    }

    /// The run with this id.
    pub fn get_mut(&mut self, id: u64) -> Option<&mut KeptRun> {
        self.runs.iter_mut().find(|r| r.id == id)
    }

    /// Forgets the run with this id.
    pub fn remove(&mut self, id: u64) {
        self.runs.retain(|r| r.id != id);
    }

    /// The ticked runs' summaries, oldest first.
    pub fn ticked(&self) -> Vec<&RunSummary> {
        self.runs
            .iter()
            .filter(|r| r.ticked)
            .map(|r| &r.summary)
            .collect()
    }

    /// How many runs are kept.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(sampler: &str) -> RunSummary {
        RunSummary {
            sampler: sampler.into(),
            ..RunSummary::default()
        }
    }

    #[test]
    fn the_oldest_unpinned_run_makes_room_and_names_count_on() {
        let mut h = RunHistory::default();
        let first = h.add(run("sa"), 2);
        h.get_mut(first).unwrap().pinned = true;
        h.add(run("sqa"), 2);
        h.add(run("pt"), 2);
        let names: Vec<&str> = h.runs.iter().map(|r| r.summary.name.as_str()).collect();
        assert_eq!(
            names,
            ["sa #1", "pt #3"],
            "the pinned first stays, sqa made room"
        );
        h.remove(first);
        assert_eq!(h.add(run("tabu"), 2), 3, "ids are never reused");
    }
}
