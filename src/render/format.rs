//! The output formats a command can be asked for.

/// How a command prints its results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// Text for people.
    Human,
    /// JSON.
    Json,
    /// JUnit XML.
    Junit,
}
