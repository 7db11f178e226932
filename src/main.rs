//! `qubo-workbench`: with a subcommand, the command line (see `cli`); without one, for now,
//! the command line's help (the GUI comes with its own issue).

fn main() {
    std::process::exit(qubo_workbench::cli::run(std::env::args_os()));
}
