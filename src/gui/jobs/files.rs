//! File reads and writes off the UI thread (`FileJob`: open, save, exports, imported samples)
//! and the native file dialog (`DialogJob`).

use super::*;

/// What a finished file job brings back to the UI thread.
pub enum FileDone {
    /// A file written; a save carries the puzzle it wrote (the document is clean only if it
    /// still holds that puzzle).
    Wrote {
        /// The file.
        path: PathBuf,
        /// The puzzle saved, for a save.
        saved: Option<AnyPuzzle>,
    },
    /// A puzzle file read: every puzzle in it.
    Puzzles {
        /// The file.
        path: PathBuf,
        /// Its puzzles (at least one).
        puzzles: Vec<crate::puzzle::LoadedPuzzle>,
    },
    /// A model file read.
    Model {
        /// The file.
        path: PathBuf,
        /// The model, its labels and read warnings.
        model: crate::qubo::formats::ModelFile,
    },
    /// A sample set read (dimod's SampleSet JSON: a notebook's, or `--save-samples`) and
    /// evaluated as a run of the model it was read for.
    Samples {
        /// The file.
        path: PathBuf,
        /// The run, refereed like a sampled one (boxed: the other variants are small).
        run: Box<RunResult>,
        /// The file's note (energies that differ from the model's), if any.
        warning: Option<String>,
    },
}

/// A file read or written on its own thread (open, save, every export): the window keeps
/// drawing meanwhile, and the status line says where the file went, or why it did not.
pub struct FileJob {
    /// The file.
    pub path: PathBuf,
    /// What is being done, for the status line: "opening", "writing".
    pub doing: &'static str,
    pub(super) job: OneShot<Result<FileDone, String>>,
}

impl FileJob {
    /// Writes `path` with `work` (which writes atomically and names the file in its error);
    /// `saved` is the puzzle a save writes.
    pub fn write(
        path: PathBuf,
        saved: Option<AnyPuzzle>,
        work: impl FnOnce(&Path) -> Result<(), String> + Send + 'static,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let p = path.clone();
        let job = OneShot::start(
            move || work(&p).map(|()| FileDone::Wrote { path: p, saved }),
            repaint,
        );
        FileJob {
            path,
            doing: "writing",
            job,
        }
    }

    /// Reads a puzzle file, or a model file (`as_model`, or by its extension).
    pub fn open(path: PathBuf, as_model: bool, repaint: impl Fn() + Send + 'static) -> Self {
        let p = path.clone();
        let job = OneShot::start(move || read_document(p, as_model), repaint);
        FileJob {
            path,
            doing: "opening",
            job,
        }
    }

    /// Reads a sample set (dimod's SampleSet JSON) and evaluates it as a run of `input`'s
    /// model, whose variables are named `labels` (columns are matched by label): reading,
    /// matching, energies and the referee all happen here, off the UI thread.
    pub fn read_samples(
        path: PathBuf,
        input: RunInput,
        labels: Vec<String>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let p = path.clone();
        let job = OneShot::start(
            move || {
                let text = crate::io::read_text_limited(&p, crate::compare::MAX_SAMPLE_FILE_BYTES)
                    .map_err(|e| e.to_string())?;
                let value: serde_json::Value = serde_json::from_str(&text)
                    .map_err(|e| format!("{}: not JSON: {e}", p.display()))?;
                let set = crate::sampler::dimod_json::read(&value)
                    .map_err(|e| format!("{}: not a dimod sample set: {e}", p.display()))?;
                let name = p
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into());
                let samples = set
                    .for_model(input.model.as_ref(), &labels, &format!("file {name}"))
                    .map_err(|e| format!("{}: not read: {e}", p.display()))?;
                let warning =
                    (!samples.info.warnings.is_empty()).then(|| samples.info.warnings.join("; "));
                // Our own saved runs say how long they sampled (`sample_s`; dwave-samplers'
                // timing says `sampling_ns`); a notebook's may not (then 0).
                let info_number = |key: &str| {
                    set.info
                        .get(key)
                        .and_then(serde_json::Value::as_f64)
                        .filter(|v| v.is_finite() && *v >= 0.0)
                };
                let sample_s = info_number("sample_s")
                    .or_else(|| info_number("sampling_ns").map(|ns| ns / 1e9))
                    .unwrap_or(0.0);
                let run = Box::new(
                    evaluate_run(&input, samples, sample_s)
                        .map_err(|e| format!("{}: not read: {e}", p.display()))?,
                );
                Ok(FileDone::Samples {
                    path: p,
                    run,
                    warning,
                })
            },
            repaint,
        );
        FileJob {
            path,
            doing: "reading",
            job,
        }
    }

    /// The outcome once it is there.
    pub fn poll(&self) -> Option<Result<FileDone, String>> {
        self.job.poll().map(|r| r.and_then(|done| done))
    }
}

/// Reads a document: a model for a model extension (.qubo, .coo, .bqm) or when asked, else a
/// puzzle file; a .json that is not a puzzle may be a dimod BQM.
pub(super) fn read_document(path: PathBuf, as_model: bool) -> Result<FileDone, String> {
    use crate::qubo::formats::read_model;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let read_as_model = |path: PathBuf| match read_model(&path) {
        Ok(model) => Ok(FileDone::Model { path, model }),
        Err(e) => Err(e.to_string()),
    };
    if as_model || matches!(ext.as_str(), "qubo" | "coo" | "bqm") {
        return read_as_model(path);
    }
    match crate::puzzle::load_puzzles(&path, None) {
        Ok(puzzles) => Ok(FileDone::Puzzles { path, puzzles }),
        Err(e) if ext == "json" => read_as_model(path).map_err(|_| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// A native file dialog on a worker thread (rfd's async dialog, driven by a tiny executor):
/// the UI keeps painting while it is open. With no desktop portal and no zenity, rfd returns
/// `None` at once: the window then shows its own form (`file_form`).
pub struct DialogJob {
    /// What the dialog's answer is for.
    pub action: FileAction,
    /// When it was asked for: an empty answer within moments means no dialog could open.
    pub started: std::time::Instant,
    pub(super) rx: Receiver<Option<PathBuf>>,
}

impl DialogJob {
    /// Opens the dialog on a worker thread; `suggested` is the file name it offers.
    pub fn start(
        action: FileAction,
        suggested: Option<String>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let kind = action.kind();
            let dialog = rfd::AsyncFileDialog::new().add_filter(kind.title, kind.extensions);
            let dialog = match suggested {
                Some(name) => dialog.set_file_name(name),
                None => dialog,
            };
            let picked = match action {
                FileAction::OpenPuzzle | FileAction::OpenModel => block_on(dialog.pick_file()),
                _ => block_on(dialog.save_file()),
            };
            let _ = tx.send(picked.map(|h| h.path().to_path_buf()));
            repaint();
        });
        DialogJob {
            action,
            started: std::time::Instant::now(),
            rx,
        }
    }

    /// `Some(answer)` once the dialog closed (`answer` is `None` when cancelled).
    pub fn poll(&self) -> Option<Option<PathBuf>> {
        match self.rx.try_recv() {
            Ok(p) => Some(p),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(None),
        }
    }
}

/// Runs a future to completion on this thread (dialogs need no more than this).
pub(super) fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}
