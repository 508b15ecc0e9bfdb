//! The global flags checked and merged with judge.toml into one [`Settings`]
//! that every command reads: what a command sees is valid.

use std::io::IsTerminal;

use super::args::{Cli, ColorChoice};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::sandbox::IsolationMode;

/// What every command runs with.
#[derive(Debug)]
pub(crate) struct Settings {
    /// judge.toml, with `--jobs` and `--cpu` applied.
    pub(crate) config: Config,
    /// Colours in human output.
    pub(crate) color: bool,
    /// How hard to insist on isolation.
    pub(crate) isolation: IsolationMode,
    /// Judge every test again (`--no-cache`).
    pub(crate) no_cache: bool,
}

impl Settings {
    /// Finds judge.toml (or reads `--config`) and applies the global flags.
    pub(crate) fn new(cli: &Cli) -> Result<Settings> {
        let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
        let mut config = Config::discover(cli.config.as_deref(), &cwd)?;
        if let Some(jobs) = cli.jobs {
            config.jobs = std::num::NonZeroUsize::new(jobs)
                .ok_or_else(|| Error::Usage("--jobs must be at least 1".into()))?;
        }
        if let Some(cpu) = cli.cpu {
            config.cpu = cpu;
        }
        let color = match cli.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Ok(Settings {
            config,
            color,
            isolation: IsolationMode::from(cli.isolation),
            no_cache: cli.no_cache,
        })
    }
}
