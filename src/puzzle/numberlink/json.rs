//! The JSON form of an instance (`Numberlink` reads and writes itself through `NumberlinkFile`).

use serde::{Deserialize, Serialize};

use super::{Numberlink, Rule};
use crate::puzzle::PuzzleError;

/// The JSON shape: `{"kind": "numberlink", "width": 5, "height": 5, "rule": "fill",
/// "rows": [["1", null, …], …]}` — per cell the pair's name or null.
#[derive(Serialize, Deserialize)]
pub(super) struct NumberlinkFile {
    width: usize,
    height: usize,
    #[serde(default)]
    rule: RuleName,
    rows: Vec<Vec<Option<String>>>,
}

/// The rule's name in JSON.
#[derive(Clone, Copy, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum RuleName {
    #[default]
    Fill,
    NoFill,
}

impl TryFrom<NumberlinkFile> for Numberlink {
    type Error = PuzzleError;
    fn try_from(f: NumberlinkFile) -> Result<Self, Self::Error> {
        if f.rows.len() != f.height || f.rows.iter().any(|r| r.len() != f.width) {
            return Err(PuzzleError::Invalid(format!(
                "`rows` must be {} rows of {} cells",
                f.height, f.width
            )));
        }
        // A name is written in the text forms and drawn on the board: empty, ".", spaces and
        // control characters would read back as something else (or nothing).
        for (r, row) in f.rows.iter().enumerate() {
            for (c, name) in row.iter().enumerate() {
                if let Some(n) = name
                    && (n.is_empty()
                        || n == "."
                        || n.chars().any(|ch| ch.is_whitespace() || ch.is_control()))
                {
                    return Err(PuzzleError::Invalid(format!(
                        "rows[{r}][{c}]: {:?} is not a pair's name (a name is letters or digits \
                         without spaces; an empty cell is null)",
                        crate::params::shown_within(n, 20)
                    )));
                }
            }
        }
        let rule = match f.rule {
            RuleName::Fill => Rule::Fill,
            RuleName::NoFill => Rule::NoFill,
        };
        let cells: Vec<Option<String>> = f.rows.into_iter().flatten().collect();
        Numberlink::new(f.width, f.height, &cells, rule)
    }
}

impl From<Numberlink> for NumberlinkFile {
    fn from(p: Numberlink) -> Self {
        NumberlinkFile {
            width: p.width,
            height: p.height,
            rule: match p.rule {
                Rule::Fill => RuleName::Fill,
                Rule::NoFill => RuleName::NoFill,
            },
            rows: p
                .endpoints
                .chunks(p.width)
                .map(|row| {
                    row.iter()
                        .map(|&k| (k != 0).then(|| p.names[k as usize - 1].clone()))
                        .collect()
                })
                .collect(),
        }
    }
}
