//! What the window does with files, as data: each `FileAction` has its dialog's title and
//! filters (`kind`), and a `Command::File(action, path)` carries it out
//! (`Workbench::carry_out_file`), an export through its one payload function.

/// What a file dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    /// Open a puzzle file.
    OpenPuzzle,
    /// Open a model file (qbsolv, COO, dimod JSON).
    OpenModel,
    /// Save the puzzle under a new name.
    SaveAs,
    /// Export the drawing as PNG or SVG.
    ExportImage,
    /// Export the weighted model.
    ExportQubo,
    /// Export the last run's samples.
    ExportSamples,
    /// Read samples (a notebook's SampleSet JSON) as a run of the open model.
    ImportSamples,
    /// Export the sweep's points.
    ExportSweep,
    /// Export the sweep's plot.
    ExportSweepPlot,
    /// Export the overlay of the ticked runs.
    ExportRunsChart,
    /// Export the table of the ticked runs.
    ExportRunsTable,
    /// Open a campaign's table (campaign.json) in its window.
    OpenCampaign,
    /// Save the campaign window's chart.
    ExportCampaignPlot,
}

/// What a file action accepts and suggests.
pub struct FileKind {
    /// The form's title.
    pub title: &'static str,
    /// Accepted extensions (lowercase, without the dot), the first one suggested.
    pub extensions: &'static [&'static str],
    /// Whether the action writes the file (else it reads one).
    pub writes: bool,
    /// The suggested file name's stem when the document has none.
    pub stem: &'static str,
}

impl FileAction {
    /// Its title, filters and suggested name; the native dialog uses the same filters.
    pub fn kind(self) -> FileKind {
        let (title, extensions, writes, stem): (_, &'static [&'static str], _, _) = match self {
            FileAction::OpenPuzzle => (
                "Open puzzle or constrained model",
                &["txt", "json", "csv", "lp", "qplib", "cqm"],
                false,
                "puzzle",
            ),
            FileAction::OpenModel => (
                "Open model",
                &["qubo", "coo", "json", "bqm", "txt"],
                false,
                "model",
            ),
            FileAction::SaveAs => ("Save puzzle as", &["txt", "json", "lp"], true, "puzzle"),
            FileAction::ExportImage => ("Export image", &["png", "svg"], true, "puzzle"),
            FileAction::ExportQubo => (
                "Export QUBO",
                &["coo", "qubo", "json", "bqm"],
                true,
                "model",
            ),
            FileAction::ExportSamples => ("Export samples", &["json", "csv"], true, "samples"),
            FileAction::ImportSamples => ("Import samples", &["json"], false, "samples"),
            FileAction::ExportSweep => ("Export sweep points", &["csv", "json"], true, "sweep"),
            FileAction::ExportSweepPlot => ("Save sweep plot", &["png", "svg"], true, "sweep"),
            FileAction::ExportRunsChart => ("Save runs chart", &["png", "svg"], true, "runs"),
            FileAction::ExportRunsTable => ("Save runs table", &["csv", "json"], true, "runs"),
            FileAction::OpenCampaign => ("Open campaign table", &["json"], false, "campaign"),
            FileAction::ExportCampaignPlot => {
                ("Save campaign plot", &["png", "svg"], true, "campaign")
            }
        };
        FileKind {
            title,
            extensions,
            writes,
            stem,
        }
    }
}

/// Writes an export to its path on a file job's thread (atomically; the error names the file).
type Writer = Box<dyn FnOnce(&std::path::Path) -> Result<(), String> + Send>;

impl super::app::Workbench {
    /// Carries out `action` on `path`: opens and imports read the file, a save writes the
    /// puzzle, an export writes what its payload function made from the window's state (or
    /// the status line says why there is nothing to write).
    pub(super) fn carry_out_file(
        &mut self,
        action: FileAction,
        path: std::path::PathBuf,
        ctx: &egui::Context,
    ) {
        match action {
            FileAction::OpenPuzzle => self.open(path),
            FileAction::OpenModel => self.open_model(path),
            FileAction::SaveAs => self.save_to(path, ctx),
            // After the file being opened (`gui MODEL --samples FILE`), on its model.
            FileAction::ImportSamples => self.shared.samples_when_built = Some(path),
            FileAction::OpenCampaign => match self.campaign.load(&path) {
                Ok(()) => {
                    self.shared.status = format!(
                        "campaign: {} rows from {}",
                        self.campaign.rows.len(),
                        path.display()
                    );
                }
                Err(why) => self.shared.status = why,
            },
            export => match self.export_payload(export, &path) {
                Ok(write) => {
                    let job = super::jobs::FileJob::write(
                        path,
                        None,
                        write,
                        super::commands::repaint(ctx),
                    );
                    self.shared.start_file(job);
                }
                Err(why) => {
                    self.shared.status = format!("{}: not written: {why}", path.display());
                }
            },
        }
    }

    /// What an export writes, made here from the window's state (a description: rasterising,
    /// formatting and writing happen off the UI thread); why not when there is nothing to
    /// write.
    fn export_payload(&self, action: FileAction, path: &std::path::Path) -> Result<Writer, String> {
        use crate::render::image::{export, export_with};
        let s = &self.shared;
        let description = || s.doc.puzzle().map(|p| p.describe()).unwrap_or_default();
        let ticked = || {
            let ticked = s.doc.runs.ticked();
            if ticked.is_empty() {
                Err("no run is ticked".to_string())
            } else {
                Ok(ticked)
            }
        };
        let text = |text: String| -> Writer {
            Box::new(move |p| {
                crate::io::write_atomic(p, text.as_bytes()).map_err(|e| e.to_string())
            })
        };
        Ok(match action {
            FileAction::ExportImage => {
                // The picture with the kind's remembered choices.
                let drawing = self.picture_to_export().0?;
                let options = s
                    .doc
                    .puzzle()
                    .and_then(|pz| s.settings.pictures.get(pz.kind().name()))
                    .cloned()
                    .unwrap_or_default()
                    .export_options();
                Box::new(move |p| export_with(&drawing, p, &options).map_err(|e| e.to_string()))
            }
            FileAction::ExportQubo => {
                let Some(model) = s.doc.model.clone().filter(|_| s.doc.model_is_current()) else {
                    return Err(match (&s.doc.error, s.doc.building_for()) {
                        (_, Some(_)) => "the model is still being built".to_string(),
                        (Some(e), None) => e.clone(),
                        (None, None) => "there is no model".to_string(),
                    });
                };
                let labels = s.doc.label_source();
                Box::new(move |p| {
                    // A model too large to store is spelled out from its structure (as the
                    // CLI's `encode` does), within the memory budget.
                    let spelled;
                    let qubo = if model.is_stored() {
                        &model.qubo
                    } else {
                        spelled = crate::qubo::Qubo::spell_out(
                            model.as_ref(),
                            model.num_interactions() as u64,
                        )
                        .map_err(|e| format!("{}: not written: {e}", p.display()))?;
                        &spelled
                    };
                    let labels = labels.all(qubo.num_variables());
                    crate::qubo::formats::write_model(p, qubo, Some(&labels))
                        .map_err(|e| e.to_string())
                })
            }
            FileAction::ExportSamples => {
                let r = s.result.as_ref().ok_or("no run to export yet")?;
                let outcome = r.outcome.clone();
                let labels = s.doc.label_source();
                Box::new(move |p| {
                    let labels = labels.all(outcome.samples.num_variables);
                    outcome
                        .save_samples(p, Some(&labels))
                        .map_err(|e| e.to_string())
                })
            }
            FileAction::ExportSweep => {
                let bytes = self.sweep.points_bytes(path)?;
                Box::new(move |p| crate::io::write_atomic(p, &bytes).map_err(|e| e.to_string()))
            }
            FileAction::ExportCampaignPlot => {
                if self.campaign.rows.is_empty() {
                    return Err("no campaign is open".into());
                }
                let drawing = self.campaign.plot_drawing();
                Box::new(move |p| export(&drawing, p, 2.0).map_err(|e| e.to_string()))
            }
            FileAction::ExportSweepPlot => {
                let drawing = self.sweep.plot_drawing(&description());
                Box::new(move |p| export(&drawing, p, 2.0).map_err(|e| e.to_string()))
            }
            FileAction::ExportRunsChart => {
                let ticked = ticked()?;
                let axis = self.results.axis_for(&ticked);
                let drawing =
                    crate::compare::overlay(&ticked, self.results.heights, axis, &description());
                Box::new(move |p| {
                    export_with(&drawing, p, &Default::default()).map_err(|e| e.to_string())
                })
            }
            FileAction::ExportRunsTable => {
                let ticked = ticked()?;
                text(match path.extension().and_then(|e| e.to_str()) {
                    Some("json") => {
                        serde_json::to_string_pretty(&crate::compare::table_json(&ticked))
                            .unwrap_or_default()
                            + "\n"
                    }
                    _ => crate::compare::table_csv(&ticked),
                })
            }
            FileAction::OpenPuzzle
            | FileAction::OpenModel
            | FileAction::SaveAs
            | FileAction::ImportSamples
            | FileAction::OpenCampaign => return Err("not an export".into()),
        })
    }
}
