//! Problems whose programs read and write files (`input.txt`,
//! `output.txt`): the sandbox's named files of a test's run, and the output
//! that is checked (the file, not stdout). The sandbox puts and takes the
//! files (see `sandbox::RunFiles`); this says which.

use super::scratch::RemoveOnDrop;
use super::Judge;
use crate::error::Result;
use crate::problem::FileIo;
use crate::sandbox::{Captured, OutputFile, RunFiles};
use crate::testset::TestCase;
use crate::verdict::Verdict;

impl Judge {
    /// The named files of `test`'s run, and the removal of the host file
    /// its output file is copied to.
    pub(super) fn run_files(
        &self,
        files: &FileIo,
        test: &TestCase,
    ) -> Result<(RunFiles, Option<RemoveOnDrop>)> {
        let input = files.input.clone().map(|name| (name, test.input.clone()));
        let Some(name) = &files.output else {
            return Ok((
                RunFiles {
                    input,
                    output: None,
                },
                None,
            ));
        };
        let sink = self.inner.spill.next()?;
        let remove = RemoveOnDrop(sink.clone());
        let output = Some((name.clone(), sink));
        Ok((RunFiles { input, output }, Some(remove)))
    }
}

/// The output to check (stdout, or what the run left under the output
/// file's name), and the verdict when there is none to check.
pub(super) fn output_to_check(
    files: &FileIo,
    stdout: Captured,
    file: Option<OutputFile>,
) -> (Captured, Option<(Verdict, String)>) {
    let Some(name) = &files.output else {
        return (stdout, None);
    };
    let printed = match stdout.len() {
        0 => String::new(),
        n => format!(" (it printed {n} bytes to stdout, which is not read)"),
    };
    let empty = Captured::Memory(Vec::new());
    match file {
        Some(OutputFile::Written(output)) => (output, None),
        Some(OutputFile::NotRegular) => (
            empty,
            Some((
                Verdict::WA,
                format!("`{name}` is not a regular file (a link, a pipe or a folder): not read"),
            )),
        ),
        Some(OutputFile::OverLimit(limit)) => (
            empty,
            Some((
                Verdict::OLE,
                format!("wrote more than {limit} bytes to `{name}`, the problem's output file"),
            )),
        ),
        Some(OutputFile::Missing) | None => (
            empty,
            Some((
                Verdict::WA,
                format!("wrote no `{name}`, the problem's output file{printed}"),
            )),
        ),
    }
}
