//! The workbench's own file form: a path field prefilled with a suggested name beside the
//! document, the dialog's filters, overwrite confirmation, the folder's listing (subfolders and
//! the files the action takes, a click away), the shipped puzzles one click away, and Tab
//! completion in the field. Shown when no native file dialog can
//! open (no desktop portal, no zenity: rfd then answers at once with nothing), or always when
//! the settings ask for it (`Settings::builtin_file_dialog`, or QUBO_WORKBENCH_FILE_DIALOG=builtin).

use std::path::{Path, PathBuf};

use super::file_actions::FileAction;

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
            | FileAction::ExportCampaignPlot
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

/// Entries listed at most, so a folder of millions of files never stalls a frame.
const LISTING_LIMIT: usize = 2000;

/// A folder as the form lists it: subfolders, then the files the action takes (names only,
/// sorted, hidden entries left out).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listing {
    /// The folder listed.
    pub folder: PathBuf,
    /// Its subfolders' names.
    pub folders: Vec<String>,
    /// Its files with one of the action's extensions.
    pub files: Vec<String>,
    /// More entries than `LISTING_LIMIT` were there (the rest are not listed).
    pub truncated: bool,
    /// Why the folder could not be read, if it could not.
    pub problem: Option<String>,
}

impl Listing {
    /// Reads `folder` (bounded by `LISTING_LIMIT`), keeping files with one of `extensions`.
    pub fn read(folder: &Path, extensions: &[&str]) -> Listing {
        let mut listing = Listing {
            folder: folder.to_path_buf(),
            ..Default::default()
        };
        let entries = match std::fs::read_dir(folder) {
            Ok(e) => e,
            Err(e) => {
                listing.problem = Some(format!("{}: {e}", folder.display()));
                return listing;
            }
        };
        for (k, entry) in entries.flatten().enumerate() {
            if k >= LISTING_LIMIT {
                listing.truncated = true;
                break;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            // Follows symlinks, so a linked folder lists as a folder.
            let path = entry.path();
            if path.is_dir() {
                listing.folders.push(name);
            } else if takes(&name, extensions) {
                listing.files.push(name);
            }
        }
        listing.folders.sort();
        listing.files.sort();
        listing
    }
}

/// Whether a file name has one of `extensions` (any case).
fn takes(name: &str, extensions: &[&str]) -> bool {
    Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .is_some_and(|e| extensions.contains(&e.as_str()))
}

/// The folder a typed path lists: itself when it names a folder (or ends in a separator),
/// else its parent; relative paths are taken from the current folder.
pub fn folder_of(typed: &str) -> PathBuf {
    let path = PathBuf::from(typed.trim());
    if typed.ends_with(std::path::MAIN_SEPARATOR) || path.is_dir() {
        return path;
    }
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Tab completion: the typed path extended to the longest name its last part starts with
/// among the folder's subfolders (which get a trailing separator when alone) and the files
/// the action takes; `None` when nothing extends it.
pub fn complete(typed: &str, extensions: &[&str]) -> Option<String> {
    let (head, part) = match typed.rfind(std::path::MAIN_SEPARATOR) {
        Some(k) => typed.split_at(k + 1),
        None => ("", typed),
    };
    let folder = if head.is_empty() {
        PathBuf::from(".")
    } else {
        PathBuf::from(head)
    };
    let listing = Listing::read(&folder, extensions);
    let folders = listing.folders.iter().filter(|n| n.starts_with(part));
    let files = listing.files.iter().filter(|n| n.starts_with(part));
    let matches: Vec<(&String, bool)> = folders
        .map(|n| (n, true))
        .chain(files.map(|n| (n, false)))
        .collect();
    let (first, is_folder) = *matches.first()?;
    let mut common = first.clone();
    for (name, _) in &matches[1..] {
        let shared = common
            .chars()
            .zip(name.chars())
            .take_while(|(a, b)| a == b)
            .count();
        common = common.chars().take(shared).collect();
    }
    if matches.len() == 1 && is_folder {
        common.push(std::path::MAIN_SEPARATOR);
    }
    let completed = format!("{head}{common}");
    (completed != typed).then_some(completed)
}

/// The project's shipped puzzles (`puzzles/`), where this machine has them: beside the current
/// folder, beside the program (or a folder above it, as in a cargo build), or where the
/// program was built.
pub fn shipped_puzzles() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(here) = std::env::current_dir() {
        candidates.push(here.join("puzzles"));
    }
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).take(4).map(|d| d.join("puzzles")));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles"));
    candidates.into_iter().find(|p| p.join("sudoku").is_dir())
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
    /// The folder listed under the field (read again when the typed path's folder changes).
    pub listing: Listing,
    /// The shipped puzzles' folder, looked for once when the form opens (not every frame).
    shipped: Option<PathBuf>,
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
        let path = suggested.display().to_string();
        FileForm {
            action,
            listing: Listing::read(&folder_of(&path), action.kind().extensions),
            shipped: shipped_puzzles(),
            path,
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
                // Tab completes the path (and stays in the field) instead of moving focus.
                let field_id = ui.make_persistent_id("file form path");
                let tab = ui.memory(|m| m.has_focus(field_id))
                    && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Tab));
                if tab && let Some(done) = complete(&self.path, kind.extensions) {
                    self.path = done;
                    self.problem = None;
                    move_cursor_to_end(ui, field_id, &self.path);
                }
                let field = ui.add(
                    egui::TextEdit::singleline(&mut self.path)
                        .id(field_id)
                        .desired_width(480.0)
                        .hint_text("file path (Tab completes)"),
                );
                let field = field.labelled_by(ui.label("file path").id);
                if field.changed() {
                    self.problem = None;
                }
                if tab {
                    field.request_focus();
                }
                ui.weak(format!("*.{}", kind.extensions.join(", *.")));
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if let Some((chosen, file)) = self.listing_ui(ui) {
                    self.path = chosen;
                    self.problem = None;
                    // A file clicked in a read action, or double-clicked: as the button (a
                    // write still asks before it overwrites).
                    if file {
                        match self.check() {
                            Ok(p) => answer = FormAnswer::Chosen(p),
                            Err(why) => self.problem = Some(why),
                        }
                    }
                }
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

impl FileForm {
    /// The folder's listing under the field, with Up and the shipped puzzles: a click on a
    /// folder goes into it, a click on a file puts its path in the field, a double click (or a
    /// click in a read action) chooses it. Returns the new path, if one was clicked, and
    /// whether it was a file chosen that way.
    fn listing_ui(&mut self, ui: &mut egui::Ui) -> Option<(String, bool)> {
        let kind = self.action.kind();
        let folder = folder_of(&self.path);
        if folder != self.listing.folder {
            self.listing = Listing::read(&folder, kind.extensions);
        }
        let join = |dir: &Path, name: &str| dir.join(name).display().to_string();
        let mut chosen = None;
        let mut chosen_file = false;
        ui.horizontal_wrapped(|ui| {
            ui.label("in");
            ui.monospace(folder.display().to_string());
            let up = folder
                .canonicalize()
                .ok()
                .and_then(|f| f.parent().map(Path::to_path_buf));
            if ui
                .add_enabled(up.is_some(), egui::Button::new("Up a folder"))
                .clicked()
                && let Some(up) = up
            {
                chosen = Some(format!("{}{}", up.display(), std::path::MAIN_SEPARATOR));
            }
            if let Some(shipped) = &self.shipped
                && ui
                    .button("Shipped puzzles")
                    .on_hover_text(shipped.display().to_string())
                    .clicked()
            {
                chosen = Some(format!(
                    "{}{}",
                    shipped.display(),
                    std::path::MAIN_SEPARATOR
                ));
            }
        });
        if let Some(problem) = &self.listing.problem {
            ui.weak(problem);
        }
        egui::ScrollArea::vertical()
            .id_salt("file form listing")
            .max_height(220.0)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for name in &self.listing.folders {
                    if ui
                        .selectable_label(false, format!("{name}{}", std::path::MAIN_SEPARATOR))
                        .clicked()
                    {
                        chosen = Some(format!(
                            "{}{}",
                            join(&self.listing.folder, name),
                            std::path::MAIN_SEPARATOR
                        ));
                    }
                }
                let current = Path::new(self.path.trim())
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned());
                for name in &self.listing.files {
                    let selected = current.as_deref() == Some(name.as_str());
                    let item = ui.selectable_label(selected, name.as_str());
                    if item.clicked() || item.double_clicked() {
                        chosen = Some(join(&self.listing.folder, name));
                        chosen_file = item.double_clicked() || !kind.writes;
                    }
                }
                if self.listing.truncated {
                    ui.weak(format!("(the first {LISTING_LIMIT} entries)"));
                }
                if self.listing.folders.is_empty() && self.listing.files.is_empty() {
                    // The filters are named once, under the field.
                    ui.weak("no folders, and no files of these kinds, here");
                }
            });
        chosen.map(|path| (path, chosen_file))
    }
}

/// Puts the text cursor at the end of the field (after a completion).
fn move_cursor_to_end(ui: &egui::Ui, id: egui::Id, text: &str) {
    if let Some(mut state) = egui::TextEdit::load_state(ui.ctx(), id) {
        let end = egui::text::CCursor::new(text.chars().count());
        state
            .cursor
            .set_char_range(Some(egui::text::CCursorRange::one(end)));
        state.store(ui.ctx(), id);
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
    fn folders_are_listed_with_the_files_the_action_takes_and_tab_completes() {
        // A folder of its own: the other test removes `tempfile_dir()` when it ends.
        let dir = std::env::temp_dir().join(format!("qw-file-form-listing-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sudoku")).unwrap();
        std::fs::create_dir_all(dir.join("sums")).unwrap();
        for f in ["sudoku-a.txt", "sudoku-b.txt", "notes.md", ".hidden.txt"] {
            std::fs::write(dir.join(f), b"x").unwrap();
        }
        let l = Listing::read(&dir, &["txt"]);
        assert_eq!(l.folders, ["sudoku", "sums"]);
        assert_eq!(
            l.files,
            ["sudoku-a.txt", "sudoku-b.txt"],
            "no .md, no hidden file"
        );
        let sep = std::path::MAIN_SEPARATOR;
        let typed = |rest: &str| format!("{}{sep}{rest}", dir.display());
        // Shared prefix of a folder and two files; then one folder, with its separator.
        assert_eq!(complete(&typed("s"), &["txt"]), Some(typed("su")));
        assert_eq!(complete(&typed("sud"), &["txt"]), Some(typed("sudoku")));
        assert_eq!(
            complete(&typed("sum"), &["txt"]),
            Some(typed(&format!("sums{sep}")))
        );
        assert_eq!(
            complete(&typed("sudoku-a"), &["txt"]),
            Some(typed("sudoku-a.txt"))
        );
        assert_eq!(complete(&typed("x"), &["txt"]), None, "nothing extends it");
        assert_eq!(folder_of(&typed("sudoku-a.txt")), dir);
        assert_eq!(
            folder_of(&typed("sudoku")),
            dir.join("sudoku"),
            "a folder lists itself"
        );
        // A folder that cannot be read says so instead of listing nothing silently.
        assert!(
            Listing::read(&dir.join("missing"), &["txt"])
                .problem
                .is_some()
        );
        let _ = std::fs::remove_dir_all(&dir);
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
