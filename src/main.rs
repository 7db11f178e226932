//! `qubo-workbench`: without a subcommand, the workbench window; with one, the command line
//! (see `cli`).

fn main() {
    // An interrupted write leaves no temporary file behind.
    qubo_workbench::io::interrupted::remove_on_interrupt();
    std::process::exit(qubo_workbench::cli::run(std::env::args_os()));
}
