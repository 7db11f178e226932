//! UI time per frame, kept so the status bar and `QUBO_WORKBENCH_FRAME_STATS=1` can report it.

use std::collections::VecDeque;

/// UI time per frame (ms), over the last frames, and when the window first drew and first had
/// a model (seconds since it was created).
pub struct FrameStats {
    /// When the window was created.
    pub created: std::time::Instant,
    /// Seconds from creation to the first frame laid out.
    pub first_frame_s: Option<f64>,
    /// Seconds from creation to the first model installed.
    pub model_ready_s: Option<f64>,
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

impl Default for FrameStats {
    fn default() -> Self {
        FrameStats {
            created: std::time::Instant::now(),
            first_frame_s: None,
            model_ready_s: None,
            frames: 0,
            recent: VecDeque::new(),
            max_ms: 0.0,
            total_ms: 0.0,
            busy_frames: 0,
            busy_max_ms: 0.0,
        }
    }
}

impl FrameStats {
    /// Notes that a model was installed (the first time counts).
    pub fn model_ready(&mut self) {
        if self.model_ready_s.is_none() {
            self.model_ready_s = Some(self.created.elapsed().as_secs_f64());
        }
    }

    /// Records one frame.
    pub fn record(&mut self, ms: f32, busy: bool) {
        if self.first_frame_s.is_none() {
            self.first_frame_s = Some(self.created.elapsed().as_secs_f64());
        }
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
