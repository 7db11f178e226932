//! Generating a puzzle on its own thread (`GenerateJob`), cancellable, with its measured TTS99.

use super::*;

/// A generation on its own thread: its answer, and the control that shows its tries and
/// cancels it (generators that search — no-guess boards, difficulty bands, a TTS99 range —
/// take a while).
pub struct GenerateJob {
    /// Progress and cancel.
    pub control: crate::puzzle::GenerateControl,
    /// The kind and parameters asked for (kept with the instance in Recent).
    pub request: (crate::puzzle::Kind, crate::params::ParamValues),
    pub(super) answer: OneShot<Result<Generated, String>>,
}

/// A generated instance and, when it was aimed at a TTS99 range, what was measured.
pub struct Generated {
    /// The instance.
    pub puzzle: AnyPuzzle,
    /// The measured TTS99 in words (the header comment its file carries).
    pub measured: Option<String>,
}

impl GenerateJob {
    /// Generates `kind` from `params` (and, with `tts99_range`, keeps drawing until the default
    /// sampler's TTS99 falls in it); `repaint` wakes the UI when it is done.
    pub fn start(
        kind: crate::puzzle::Kind,
        params: crate::params::ParamValues,
        tts99_range: Option<[f64; 2]>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let control = crate::puzzle::GenerateControl::new();
        let worker = control.clone();
        let asked = params.clone();
        let answer =
            OneShot::start(
                move || match tts99_range {
                    None => kind
                        .generate_with(&asked, &worker)
                        .map(|puzzle| Generated {
                            puzzle,
                            measured: None,
                        })
                        .map_err(|e| e.to_string()),
                    Some(range) => crate::solve::generate_for_tts99(kind, &asked, range, &worker)
                        .map(|found| Generated {
                            measured: Some(found.comment(range)),
                            puzzle: found.puzzle,
                        }),
                },
                repaint,
            );
        GenerateJob {
            control,
            request: (kind, params),
            answer,
        }
    }

    /// The answer once it is there.
    pub fn poll(&self) -> Option<Result<Result<Generated, String>, String>> {
        self.answer.poll()
    }
}
