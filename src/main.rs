//! The `judge` binary: all logic lives in the library.

fn main() {
    std::process::exit(judge::cli::main());
}
