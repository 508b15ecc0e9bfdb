//! The `judge` binary: all logic lives in the library.

fn main() {
    let mut args = std::env::args_os().skip(1);
    if args
        .next()
        .is_some_and(|a| a == judge::sandbox::KEEPER_COMMAND)
    {
        // The sandbox starts its keepers from this same executable.
        let config = args
            .next()
            .and_then(|c| c.into_string().ok())
            .unwrap_or_default();
        std::process::exit(judge::sandbox::keeper_main(&config));
    }
    std::process::exit(judge::cli::main());
}
