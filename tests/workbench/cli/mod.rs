//! The command line as scripts use it: JSON shapes, files written, exit codes, error lines.

use crate::common::*;
use std::path::{Path, PathBuf};

use serde_json::Value;

mod bench_and_generate;
mod campaigns;
mod commands;
mod outputs;
mod refusals;
mod weights;

/// Two 1s in row 1 of a 4×4 grid, on line 2 of the file.
fn conflicting_file(dir: &Path) -> PathBuf {
    let f = dir.join("conflict.txt");
    std::fs::write(&f, "# two 1s in row 1\n1..1............\n").unwrap();
    f
}
