//! `qubo-workbench`: without a subcommand, the workbench window; with one, the command line
//! (see `cli`).

fn main() {
    std::process::exit(qubo_workbench::cli::run(std::env::args_os()));
}
