//! `judge judgehost CONTEST_DIR --db postgres://...`: a judging host of a
//! contest server. The arguments become
//! `crate::server::startup::HostOptions`; the server's layer
//! (`crate::server::startup::judgehost`) runs it until Ctrl-C, one slot
//! per core unless `-j` says otherwise.

use crate::cli::args::JudgehostArgs;
use crate::cli::Settings;
use crate::error::{exit_code, Error, Result};
use crate::server::startup::{judgehost as run, HostOptions};

pub(super) fn judgehost(settings: Settings, args: JudgehostArgs) -> Result<i32> {
    let options = HostOptions {
        dir: args.dir,
        db: args.db,
        db_password_file: args.db_password_file,
        name: args.name,
        insecure: args.insecure,
        config: settings.config,
        isolation: settings.isolation,
        no_cache: settings.no_cache,
    };
    match run(options) {
        Err(Error::Interrupted) => {
            eprintln!("judge judgehost: stopped; what it was judging is judged again elsewhere");
            Ok(exit_code::OK)
        }
        Err(e) => Err(e),
        Ok(()) => Ok(exit_code::OK),
    }
}
