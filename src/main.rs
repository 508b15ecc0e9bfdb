//! The `judge` binary: all logic lives in the library.

fn main() {
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == judge::KEEPER_COMMAND)
    {
        // The sandbox starts its keepers from this same executable.
        std::process::exit(judge::keeper_main());
    }
    std::process::exit(judge::main());
}
