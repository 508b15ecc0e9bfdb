//! The command line: clap's view of it ([`args`]) and the checked settings
//! every command runs with ([`settings`]). The commands themselves are in
//! [`crate::commands`].

pub(crate) mod args;
pub(crate) mod settings;

pub(crate) use args::{Cli, Command, Format};
pub(crate) use settings::Settings;
