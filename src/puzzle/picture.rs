//! What an exported puzzle picture shows: the blank to print, the puzzle with its solution, or
//! the solution alone (the answer key); piece numbers, probabilities, background and a title
//! line. One description for the CLI's `render` and the window's Export image…; the kinds'
//! own `draw_styled` does the drawing, so the screen and the file still share one picture.

use serde::{Deserialize, Serialize};

use super::{AnyPuzzle, AnySolution, CellProbabilities};
use crate::render::Drawing;

/// Which of the puzzle and its solution the picture shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Show {
    /// The instance alone, as printed for someone to solve.
    Puzzle,
    /// The instance with the solution drawn over it (givens told apart, broken rules marked).
    #[default]
    Solved,
    /// The solution alone, every entry alike, no marks (the answer key).
    Solution,
}

impl Show {
    /// Every choice, in menu order.
    pub const ALL: [Show; 3] = [Show::Puzzle, Show::Solved, Show::Solution];

    /// The name on the command line and in settings.
    pub fn name(self) -> &'static str {
        match self {
            Show::Puzzle => "puzzle",
            Show::Solved => "solved",
            Show::Solution => "solution",
        }
    }

    /// Reads a name (`puzzle`, `solved`, `solution`; `blank` for `puzzle`).
    pub fn parse(text: &str) -> Result<Show, PictureError> {
        match text {
            "puzzle" | "blank" => Ok(Show::Puzzle),
            "solved" => Ok(Show::Solved),
            "solution" | "answer" => Ok(Show::Solution),
            other => Err(PictureError::UnknownShow(crate::io::printable(other))),
        }
    }
}

/// Why a picture cannot be drawn as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// `--show` named something else.
    #[error("'{0}': one of puzzle (the blank), solved, solution (the answer key)")]
    UnknownShow(String),
    /// A picture of a solution with none to draw.
    #[error("a picture of the {} needs a solution, and there is none", .0.name())]
    NoSolution(Show),
}

/// How a kind draws a picture beyond which solution it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawStyle {
    /// Edge matching: the piece numbers on the pieces.
    pub piece_numbers: bool,
    /// The answer key: the solution's entries all alike, no givens told apart, no referee marks
    /// or captions.
    pub answer: bool,
    /// The kind's own caption line (edge matching's score); left out under a title line,
    /// which says the same.
    pub caption: bool,
}

impl Default for DrawStyle {
    fn default() -> Self {
        DrawStyle {
            piece_numbers: true,
            answer: false,
            caption: true,
        }
    }
}

/// The content choices of an exported puzzle picture (remembered per kind by the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PictureOptions {
    /// Puzzle, solved or solution.
    pub show: Show,
    /// Edge matching: piece numbers drawn (the layout's numbers; a solved board has none).
    pub piece_numbers: bool,
    /// Minesweeper: each unopened cell's mine probability (when known).
    pub probabilities: bool,
    /// A transparent background instead of white.
    pub transparent: bool,
    /// A title line above the picture: the instance's name and the solution's score.
    pub title: bool,
}

impl Default for PictureOptions {
    fn default() -> Self {
        PictureOptions {
            show: Show::Solved,
            piece_numbers: true,
            probabilities: true,
            transparent: false,
            title: false,
        }
    }
}

impl AnyPuzzle {
    /// The picture `options` ask for. `solution` is needed unless the picture shows the puzzle
    /// alone; `probabilities` are drawn where the kind has them and `options` want them;
    /// `name` heads the title line.
    pub fn picture(
        &self,
        solution: Option<&AnySolution>,
        probabilities: Option<&CellProbabilities>,
        options: &PictureOptions,
        name: &str,
    ) -> Result<Drawing, PictureError> {
        let solution = match options.show {
            Show::Puzzle => None,
            Show::Solved | Show::Solution => {
                Some(solution.ok_or(PictureError::NoSolution(options.show))?)
            }
        };
        let style = DrawStyle {
            piece_numbers: options.piece_numbers,
            answer: options.show == Show::Solution,
            caption: !options.title,
        };
        let probabilities = probabilities.filter(|_| options.probabilities);
        let mut d = self.draw_styled(solution, probabilities, &style);
        if options.title {
            d = d.with_title(&self.title_line(solution, name));
        }
        if options.transparent {
            d.background = crate::render::Color {
                a: 0,
                ..d.background
            };
        }
        Ok(d)
    }

    /// "name · what it is" for the puzzle alone, "name · score a / b" or "· valid" or "· N
    /// rules broken" with a solution.
    pub fn title_line(&self, solution: Option<&AnySolution>, name: &str) -> String {
        let what = match solution {
            None => self.describe(),
            Some(s) => match (self.score(s), self.check(s).len()) {
                (Some(sc), _) => format!("score {} / {}", sc.value, sc.max),
                (None, 0) => "valid".to_string(),
                (None, 1) => "1 rule broken".to_string(),
                (None, n) => format!("{n} rules broken"),
            },
        };
        if name.is_empty() {
            what
        } else {
            format!("{name} · {what}")
        }
    }
}
