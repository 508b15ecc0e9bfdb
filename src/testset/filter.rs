//! Selecting tests by name (`--tests` globs).

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::error::{Error, Result};

/// Selects tests by name (`--tests` globs); all when empty.
#[derive(Debug, Clone, Default)]
pub(crate) struct TestFilter {
    set: Option<GlobSet>,
}

impl TestFilter {
    /// Whether it selects every test (no patterns).
    pub(crate) fn selects_all(&self) -> bool {
        self.set.is_none()
    }

    /// A filter from glob patterns over test names.
    pub(crate) fn new(patterns: &[String]) -> Result<TestFilter> {
        if patterns.is_empty() {
            return Ok(TestFilter { set: None });
        }
        let mut builder = GlobSetBuilder::new();
        for p in patterns {
            builder.add(
                Glob::new(p)
                    .map_err(|e| Error::Usage(format!("bad --tests pattern `{p}`: {e}")))?,
            );
        }
        let set = builder
            .build()
            .map_err(|e| Error::Usage(format!("bad --tests patterns: {e}")))?;
        Ok(TestFilter { set: Some(set) })
    }

    /// Whether the test named `name` is selected.
    pub(crate) fn matches(&self, name: &str) -> bool {
        self.set.as_ref().is_none_or(|s| s.is_match(name))
    }
}
