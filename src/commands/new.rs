//! `judge new`: an empty problem package to fill in.

use super::print;
use crate::cli::args::NewArgs;
use crate::config::Config;
use crate::error::{exit_code, Result};

pub(super) fn new(config: &Config, args: NewArgs) -> Result<i32> {
    let dir = crate::scaffold::new_package(config, &args.id)?;
    print(&format!(
        "created {} and {}\nnext: write the statement, programs and tests, then run `judge verify {}`\n",
        dir.display(),
        config.testdata_dir.join(&args.id).display(),
        args.id
    ));
    Ok(exit_code::OK)
}
