//! Custom checkers speaking the testlib protocol: run as
//! `checker INPUT OUTPUT ANSWER`; exit 0 is AC, 1 WA, 2 PE, anything else
//! (another code, a signal, a limit) means the checker failed, which is IE and
//! never AC. The checker's stderr (then stdout) is the message.

use std::path::Path;

use super::CheckResult;
use crate::compile::Executable;
use crate::sandbox::{self, Captured, Environment, Exit, RunError, RunRequest, Stdin};
use crate::verdict::Verdict;

/// Longest checker message kept, in characters.
const MAX_MESSAGE: usize = 500;

/// Runs `checker` on one test, as a package program of `sandbox`. `scratch`
/// is a private directory for the run.
pub(super) async fn check(
    sandbox: &sandbox::Sandbox,
    checker: &Executable,
    input: &Path,
    output: &Captured,
    answer: &Path,
    scratch: &Path,
    limits: sandbox::Limits,
) -> Result<CheckResult, RunError> {
    let output_path = match output {
        Captured::File { path, .. } => path.clone(),
        Captured::Memory(_) => {
            let path = scratch.join("checker-output");
            output.write_to(&path).map_err(|source| RunError::Spawn {
                program: format!("checker (writing {})", path.display()),
                source,
            })?;
            path
        }
    };
    let mut argv = checker.argv(limits.memory);
    argv.extend([input.into(), output_path.into(), answer.into()]);
    let request = RunRequest {
        argv,
        cwd: scratch.to_path_buf(),
        stdin: Stdin::Null,
        stdout_spill: None,
        environment: Environment::Minimal(Vec::new()),
        limits,
        program_dir: None,
    };
    let outcome = sandbox.run(&request, sandbox::Profile::Package).await?;
    let mut text = String::from_utf8_lossy(&outcome.stderr).trim().to_string();
    if text.is_empty() {
        text = String::from_utf8_lossy(&outcome.stdout.to_vec().unwrap_or_default())
            .trim()
            .to_string();
    }
    if text.chars().count() > MAX_MESSAGE {
        text = text.chars().take(MAX_MESSAGE).collect::<String>() + "…";
    }
    let verdict = match (outcome.exit, outcome.limit_hit) {
        (Exit::Code(0), None) => Verdict::AC,
        (Exit::Code(1), None) => Verdict::WA,
        (Exit::Code(2), None) => Verdict::PE,
        _ => Verdict::IE,
    };
    let message = if verdict == Verdict::IE {
        let how = match outcome.limit_hit {
            Some(hit) => format!("{hit:?} limit"),
            None => outcome.describe_exit(),
        };
        if text.is_empty() {
            format!("checker failed ({how})")
        } else {
            format!("checker failed ({how}): {text}")
        }
    } else {
        text
    };
    Ok(CheckResult {
        verdict,
        message,
        position: None,
        diff: None,
    })
}
