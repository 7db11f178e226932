//! The integration tests, as one binary (one link instead of twelve): each module is one
//! subject; `common` holds what they share — the command-line recipe (run the binary, check
//! it succeeded, read its JSON) and the window harness (egui_kittest, no display).

mod common;

mod cli;
mod edge_matching;
mod formats;
mod gui;
mod kernel_contract;
mod minesweeper;
mod numberlink;
mod parser_properties;
mod puzzle_contract;
mod remote_da;
mod remote_sapi;
mod sampler_contract;
mod security;
mod sudoku_encoding;
mod trust;
