//! The window's keyboard shortcuts: one table, read by the key handler (`Workbench::shortcuts`)
//! and by the menus, which show each shortcut beside its item.

use egui::{Key, KeyboardShortcut, Modifiers};

/// What a shortcut asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A new blank puzzle of the open kind (File ▸ New).
    New,
    /// File ▸ Open….
    Open,
    /// File ▸ Save.
    Save,
    /// File ▸ Save As….
    SaveAs,
    /// Edit ▸ Undo.
    Undo,
    /// Edit ▸ Redo.
    Redo,
    /// Start sampling.
    Run,
    /// Cancel the run, sweep or generation going on.
    Cancel,
}

const CTRL: Modifiers = Modifiers::COMMAND;
const CTRL_SHIFT: Modifiers = Modifiers::COMMAND.plus(Modifiers::SHIFT);

/// Every shortcut, most specific first: egui matches Ctrl+Z while Shift is held as well, so
/// Ctrl+Shift+Z and Ctrl+Shift+S are tried before Ctrl+Z and Ctrl+S.
pub const SHORTCUTS: &[(KeyboardShortcut, Action)] = &[
    (KeyboardShortcut::new(CTRL_SHIFT, Key::Z), Action::Redo),
    (KeyboardShortcut::new(CTRL_SHIFT, Key::S), Action::SaveAs),
    (KeyboardShortcut::new(CTRL, Key::Z), Action::Undo),
    (KeyboardShortcut::new(CTRL, Key::Y), Action::Redo),
    (KeyboardShortcut::new(CTRL, Key::S), Action::Save),
    (KeyboardShortcut::new(CTRL, Key::N), Action::New),
    (KeyboardShortcut::new(CTRL, Key::O), Action::Open),
    (KeyboardShortcut::new(Modifiers::NONE, Key::F5), Action::Run),
    (KeyboardShortcut::new(CTRL, Key::Enter), Action::Run),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::Escape),
        Action::Cancel,
    ),
];

/// The first shortcut for `action`, as the menus show it (e.g. "Ctrl+Shift+S").
pub fn text(ctx: &egui::Context, action: Action) -> String {
    SHORTCUTS
        .iter()
        .filter(|(_, a)| *a == action)
        .map(|(s, _)| ctx.format_shortcut(s))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The actions whose shortcuts were pressed this frame (consumed, so no widget sees them too).
/// Escape is left to egui (closing a popup or a form) unless `cancellable` — a run, sweep or
/// generation is going on.
pub fn pressed(ctx: &egui::Context, cancellable: bool) -> Vec<Action> {
    ctx.input_mut(|i| {
        SHORTCUTS
            .iter()
            .filter(|(s, a)| (*a != Action::Cancel || cancellable) && i.consume_shortcut(s))
            .map(|(_, a)| *a)
            .collect()
    })
}
