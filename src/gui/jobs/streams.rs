//! Jobs that report as they go: weight sweeps (`SweepJob`) and suggestions (`start_tune`),
//! both a `StreamJob`.

use super::*;

/// What a sweep thread reports.
pub enum SweepMessage {
    /// One finished point.
    Point(Box<SweepPoint>),
    /// The end (cancelled sweeps end with `Ok` too).
    Done(Result<(), String>),
}

/// What a sweep or a suggestion works on: the document's puzzle, encoding and weights, and
/// the design facts' reference when they hold it.
pub struct SweepInput {
    /// The puzzle.
    pub puzzle: AnyPuzzle,
    /// Its encoding (never re-encoded by the sweep).
    pub encoding: Arc<Encoding>,
    /// The document's weights (the swept ones are replaced point by point).
    pub weights: Weights,
    /// The classical reference, when the design facts hold it (else searched once on the
    /// sweep's thread, as the CLI does).
    pub reference: Option<Reference<AnySolution>>,
}

impl SweepInput {
    /// The reference once for the whole sweep.
    pub(super) fn reference(&self) -> Reference<AnySolution> {
        self.reference
            .clone()
            .unwrap_or_else(|| self.puzzle.solve_classically(REFERENCE_NODE_BUDGET))
    }
}

/// What a sweep measures: one weight over `values` (or a grid with a second), `repeats` runs
/// per point.
pub struct SweepRequest {
    /// The swept weight (or sampler parameter, with `params[0]`).
    pub weight: String,
    /// Which axes are sampler parameters (else weights).
    pub params: [bool; 2],
    /// Its values.
    pub values: Vec<f64>,
    /// A second weight and its values.
    pub second: Option<(String, Vec<f64>)>,
    /// Most runs per point.
    pub repeats: usize,
    /// When a point stops before its last run.
    pub stop: sweep::StopRule,
    /// What the points are judged by.
    pub metric: sweep::Metric,
}

/// A job that reports as it goes (a sweep's points, a suggestion's tries) on its own thread:
/// its messages are taken once per frame; a thread that died without its last message is
/// reported through `died`.
pub struct StreamJob<M> {
    /// Cancel through this.
    pub control: RunControl,
    pub(super) rx: Receiver<M>,
    pub(super) died: fn() -> M,
}

impl<M: Send + 'static> StreamJob<M> {
    /// Runs `work` with `control` and a way to send, waking the UI through `repaint` after
    /// each message.
    pub(super) fn start(
        control: RunControl,
        died: fn() -> M,
        work: impl FnOnce(&RunControl, &dyn Fn(M)) + Send + 'static,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let (tx, rx) = channel();
        let worker_control = control.clone();
        std::thread::spawn(move || {
            let send = |m: M| {
                let _ = tx.send(m);
                repaint();
            };
            work(&worker_control, &send);
        });
        StreamJob { control, rx, died }
    }

    /// Messages that arrived since the last poll.
    pub fn poll(&self) -> Vec<M> {
        let mut out: Vec<M> = self.rx.try_iter().collect();
        if out.is_empty() && matches!(self.rx.try_recv(), Err(TryRecvError::Disconnected)) {
            out.push((self.died)());
        }
        out
    }
}

/// A weight sweep on its own thread.
pub struct SweepJob {
    /// Points asked for.
    pub total: usize,
    /// Its points as they are measured.
    pub stream: StreamJob<SweepMessage>,
}

impl std::ops::Deref for SweepJob {
    type Target = StreamJob<SweepMessage>;
    fn deref(&self) -> &Self::Target {
        &self.stream
    }
}

/// An axis by name: a sampler parameter, or a weight.
fn axis(name: &str, param: bool) -> sweep::Axis<'_> {
    if param {
        sweep::Axis::Param(name)
    } else {
        sweep::Axis::Weight(name)
    }
}

impl SweepJob {
    /// Sweeps the request's weights on the document's encoding (never re-encoded).
    pub fn start(
        input: SweepInput,
        request: SweepRequest,
        sampler: Box<dyn Sampler>,
        repaint: impl Fn() + Send + 'static,
    ) -> Self {
        let total = request.values.len() * request.second.as_ref().map_or(1, |s| s.1.len());
        // A sweep takes every core: its points run side by side, and the window's own thread
        // needs little (the sweep is what the user waits for).
        let work = move |control: &RunControl, send: &dyn Fn(SweepMessage)| {
            let reference = input.reference();
            let spec = sweep::SweepSpec {
                problem: Problem {
                    puzzle: &input.puzzle,
                    encoding: &input.encoding,
                    reference: &reference,
                },
                base: &input.weights,
                axis: axis(&request.weight, request.params[0]),
                values: &request.values,
                second: request
                    .second
                    .as_ref()
                    .map(|(w, v)| (axis(w, request.params[1]), v.as_slice())),
                repeats: request.repeats,
                stop: request.stop,
                metric: request.metric,
            };
            let result = sweep::run(&spec, sampler.as_ref(), control, |p| {
                send(SweepMessage::Point(Box::new(p.clone())));
            });
            send(SweepMessage::Done(
                result.map(|_| ()).map_err(|e| e.to_string()),
            ));
        };
        let died = || SweepMessage::Done(Err("the sweep thread stopped unexpectedly".into()));
        SweepJob {
            total,
            stream: StreamJob::start(RunControl::new(), died, work, repaint),
        }
    }
}

/// What a weight suggestion's thread reports.
pub enum TuneMessage {
    /// A point tried, and whether the search moved to it.
    Point(Box<SweepPoint>, bool),
    /// The end: the suggestion, or why there is none.
    Done(Result<Box<sweep::Suggestion>, String>),
}

/// "Suggest weights" on its own thread (`sweep::suggest`).
pub type TuneJob = StreamJob<TuneMessage>;

/// Starts "Suggest weights" from the document's weights, for at most `budget_s` seconds.
pub fn start_tune(
    input: SweepInput,
    sampler: Box<dyn Sampler>,
    effort: sweep::TuneEffort,
    repaint: impl Fn() + Send + 'static,
) -> TuneJob {
    let work = move |control: &RunControl, send: &dyn Fn(TuneMessage)| {
        let reference = input.reference();
        let problem = Problem {
            puzzle: &input.puzzle,
            encoding: &input.encoding,
            reference: &reference,
        };
        let result = sweep::suggest(
            problem,
            &input.weights,
            sampler.as_ref(),
            effort,
            control,
            |p, moved| send(TuneMessage::Point(Box::new(p.clone()), moved)),
        );
        send(TuneMessage::Done(
            result.map(Box::new).map_err(|e| e.to_string()),
        ));
    };
    let died = || TuneMessage::Done(Err("the suggestion thread stopped unexpectedly".into()));
    let control = RunControl::new().with_threads(Some(worker_threads()));
    StreamJob::start(control, died, work, repaint)
}
