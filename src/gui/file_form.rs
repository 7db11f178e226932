//! The workbench's own file form: a path field prefilled with a suggested name beside the
//! document, the dialog's filters, overwrite confirmation. Shown when no native file dialog can
//! open (no desktop portal, no zenity: rfd then answers at once with nothing), or always when
//! the settings ask for it (`Settings::builtin_file_dialog`, or QUBO_WORKBENCH_FILE_DIALOG=builtin).

use std::path::{Path, PathBuf};

use super::jobs::FileAction;

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
            FileAction::OpenPuzzle => ("Open puzzle", &["txt", "json", "csv"], false, "puzzle"),
            FileAction::OpenModel => (
                "Open model",
                &["qubo", "coo", "json", "bqm", "txt"],
                false,
                "model",
            ),
            FileAction::SaveAs => ("Save puzzle as", &["txt", "json"], true, "puzzle"),
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
        };
        FileKind {
            title,
            extensions,
            writes,
            stem,
        }
    }
}

/// The suggested path for `action`: beside the document's file (else in the current folder),
/// under the document's stem (`Document::file_stem`) with the action's first extension; an
/// export of samples, sweeps or runs adds what it is ("euler-samples.json"), once.
pub fn suggested_path(action: FileAction, document: Option<&Path>, stem: &str) -> PathBuf {
    let kind = action.kind();
    let folder = document
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    if !kind.writes {
        return folder;
    }
    let stem = if stem.is_empty() { kind.stem } else { stem };
    let suffixed = matches!(
        action,
        FileAction::ExportSamples
            | FileAction::ExportSweep
            | FileAction::ExportSweepPlot
            | FileAction::ExportRunsChart
            | FileAction::ExportRunsTable
    ) && stem != kind.stem
        && !stem.ends_with(&format!("-{}", kind.stem));
    let stem = if suffixed {
        format!("{stem}-{}", kind.stem)
    } else {
        stem.to_string()
    };
    folder.join(format!("{stem}.{}", kind.extensions[0]))
}

/// The form's state while it is open.
pub struct FileForm {
    /// What the chosen path is for.
    pub action: FileAction,
    /// The path as typed.
    pub path: String,
    /// Why the form is shown instead of the native dialog, if that is the reason.
    pub note: Option<String>,
    /// What is wrong with the path, or the overwrite question, shown under the field.
    pub problem: Option<String>,
    /// The user saw "exists — overwrite?" for this path.
    overwrite_asked: Option<String>,
}

/// What the form's frame came to.
pub enum FormAnswer {
    /// Still open.
    Open,
    /// Closed without a path.
    Cancelled,
    /// A path, checked against the filters (and confirmed when it overwrites).
    Chosen(PathBuf),
}

impl FileForm {
    /// A form for `action` starting at `suggested`.
    pub fn new(action: FileAction, suggested: &Path, note: Option<String>) -> Self {
        FileForm {
            action,
            path: suggested.display().to_string(),
            note,
            problem: None,
            overwrite_asked: None,
        }
    }

    /// Checks the typed path: its extension against the filters, an existing file for reads,
    /// an existing file for writes only once confirmed, a folder that exists.
    pub fn check(&mut self) -> Result<PathBuf, String> {
        let kind = self.action.kind();
        let text = self.path.trim();
        if text.is_empty() {
            return Err("type a file path".into());
        }
        let path = PathBuf::from(text);
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if !kind.extensions.contains(&ext.as_str()) {
            return Err(format!(
                "{}: the name must end in .{}",
                path.display(),
                kind.extensions.join(", .")
            ));
        }
        if path.is_dir() {
            return Err(format!("{}: is a folder", path.display()));
        }
        if !kind.writes {
            return if path.is_file() {
                Ok(path)
            } else {
                Err(format!("{}: no such file", path.display()))
            };
        }
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty())
            && !folder.is_dir()
        {
            return Err(format!("{}: no such folder", folder.display()));
        }
        if path.exists() && self.overwrite_asked.as_deref() != Some(text) {
            self.overwrite_asked = Some(text.to_string());
            return Err(format!(
                "{} exists — press {} again to overwrite it",
                path.display(),
                self.confirm_label()
            ));
        }
        Ok(path)
    }

    fn confirm_label(&self) -> &'static str {
        if self.action.kind().writes {
            "Save"
        } else {
            "Open"
        }
    }

    /// Lays the form out as a window of its own; the answer says whether it closed.
    pub fn ui(&mut self, ctx: &egui::Context) -> FormAnswer {
        let kind = self.action.kind();
        let mut answer = FormAnswer::Open;
        egui::Window::new(kind.title)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ctx, |ui| {
                if let Some(note) = &self.note {
                    ui.weak(note);
                }
                let field = ui.add(
                    egui::TextEdit::singleline(&mut self.path)
                        .desired_width(480.0)
                        .hint_text("file path"),
                );
                let field = field.labelled_by(ui.label("file path").id);
                if field.changed() {
                    self.problem = None;
                }
                ui.weak(format!("*.{}", kind.extensions.join(", *.")));
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                // The line under the field keeps its height, so the buttons do not jump.
                let problem = self.problem.clone().unwrap_or_default();
                ui.colored_label(ui.visuals().warn_fg_color, problem);
                ui.horizontal(|ui| {
                    if ui.button(self.confirm_label()).clicked() || enter {
                        match self.check() {
                            Ok(p) => answer = FormAnswer::Chosen(p),
                            Err(why) => self.problem = Some(why),
                        }
                    }
                    if ui.button("Cancel").clicked() {
                        answer = FormAnswer::Cancelled;
                    }
                });
            });
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_sit_beside_the_document_with_the_first_extension() {
        let doc = Path::new("/tmp/puzzles/euler.txt");
        assert_eq!(
            suggested_path(FileAction::ExportImage, Some(doc), "euler"),
            Path::new("/tmp/puzzles/euler.png")
        );
        assert_eq!(
            suggested_path(FileAction::ExportSamples, Some(doc), "euler"),
            Path::new("/tmp/puzzles/euler-samples.json")
        );
        // Never doubled: a document without a file, or a stem that already says what it is.
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            suggested_path(FileAction::ExportSweepPlot, None, "sudoku"),
            here.join("sudoku-sweep.png")
        );
        assert_eq!(
            suggested_path(FileAction::ExportSweepPlot, None, ""),
            here.join("sweep.png")
        );
        assert_eq!(
            suggested_path(FileAction::ExportSweepPlot, Some(doc), "euler-sweep"),
            Path::new("/tmp/puzzles/euler-sweep.png")
        );
    }

    #[test]
    fn paths_are_checked_against_filters_folders_and_overwrites() {
        let dir = tempfile_dir();
        let mut form = FileForm::new(FileAction::ExportImage, &dir.join("a.txt"), None);
        assert!(form.check().unwrap_err().contains(".png, .svg"));
        form.path = dir.join("missing/a.png").display().to_string();
        assert!(form.check().unwrap_err().contains("no such folder"));
        let existing = dir.join("b.png");
        std::fs::write(&existing, b"x").unwrap();
        form.path = existing.display().to_string();
        assert!(form.check().unwrap_err().contains("overwrite"));
        assert_eq!(form.check().unwrap(), existing, "confirmed the second time");
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn tempfile_dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!("qw-file-form-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
