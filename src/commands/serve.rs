//! `judge serve CONTEST_DIR`: a live contest in one command. The arguments
//! become `crate::server::startup::ServeOptions`; the server
//! (`crate::server::startup::serve`) runs it, with the web layer
//! (`crate::web::Web`) serving pages, the Contest API and the streams.

use crate::cli::args::ServeArgs;
use crate::cli::Settings;
use crate::error::{exit_code, Error, Result};
use crate::server::startup::{serve as run, ServeOptions};

pub(super) fn serve(settings: Settings, args: ServeArgs) -> Result<i32> {
    let options = ServeOptions {
        dir: args.dir,
        listen: args.listen,
        db: args.db,
        db_password_file: args.db_password_file,
        insecure: args.insecure,
        no_judging: args.no_judging,
        config: settings.config,
        isolation: settings.isolation,
        no_cache: settings.no_cache,
    };
    match run(options, crate::web::Web) {
        Err(Error::Interrupted) => {
            eprintln!(
                "judge serve: stopped; what was being judged is judged again at the next start"
            );
            Ok(exit_code::OK)
        }
        Err(e) => Err(e),
        Ok(()) => Ok(exit_code::OK),
    }
}
