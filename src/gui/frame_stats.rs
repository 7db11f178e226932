//! UI time per frame, kept so the status bar and `QUBO_WORKBENCH_FRAME_STATS=1` can report it.

use std::collections::VecDeque;

/// UI time per frame (ms), over the last frames.
#[derive(Default)]
pub struct FrameStats {
    /// Frames laid out.
    pub frames: u64,
    recent: VecDeque<f32>,
    /// The slowest frame.
    pub max_ms: f32,
    /// Sum over all frames.
    pub total_ms: f64,
    /// Frames laid out while a sampling run or sweep was going.
    pub busy_frames: u64,
    /// The slowest of those.
    pub busy_max_ms: f32,
}

impl FrameStats {
    /// Records one frame.
    pub fn record(&mut self, ms: f32, busy: bool) {
        if busy {
            self.busy_frames += 1;
            self.busy_max_ms = self.busy_max_ms.max(ms);
        }
        self.frames += 1;
        self.total_ms += ms as f64;
        self.max_ms = self.max_ms.max(ms);
        self.recent.push_back(ms);
        if self.recent.len() > 120 {
            self.recent.pop_front();
        }
    }

    /// The last frame's time.
    pub fn last_ms(&self) -> f32 {
        self.recent.back().copied().unwrap_or(0.0)
    }

    /// The slowest of the last 120 frames.
    pub fn recent_max_ms(&self) -> f32 {
        self.recent.iter().copied().fold(0.0, f32::max)
    }

    /// Mean over all frames.
    pub fn mean_ms(&self) -> f64 {
        self.total_ms / self.frames.max(1) as f64
    }
}
