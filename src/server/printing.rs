//! Printing, the door and the printer: who may send, read and mark which
//! print job (a team sends and reads its own; the jury reads and marks
//! all; the public nothing; with `[printing]` off, nobody anything: as
//! missing), and the print command run for each job (the jury's trusted
//! command, through the plain runner, with the job's file and title as
//! whole argv words: nothing a team wrote reaches a shell). A failing
//! command is recorded on the job for the jury's queue, never an error of
//! the team's request. The main type is [`PrintJob`] (from the store).

use std::time::Duration;

use super::live::{LiveContest, Refusal};
pub(crate) use super::store::{PrintJob, PrintState};
use super::visibility::Viewer;
use crate::contest::clock::now_ms;
use crate::contest::printing::{PrintCommand, PrintWord, Printing};
use crate::sandbox::{self, Captured, Environment, Exit, Limits, RunRequest, Stdin};

/// The longest a file's name is kept, characters.
const NAME_LIMIT: usize = 100;

/// How long the print command may take.
const COMMAND_TIME: Duration = Duration::from_secs(60);

/// How much of the command's output is kept, bytes of each stream.
const OUTPUT_KEPT: u64 = 4 << 10;

/// A file name a team gave, made harmless to show and to pass as a title:
/// its last path component, without control characters, at most
/// [`NAME_LIMIT`] characters; `print.txt` when nothing is left.
pub(crate) fn harmless_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let kept: String = last
        .chars()
        .filter(|c| !c.is_control())
        .take(NAME_LIMIT)
        .collect();
    let kept = kept.trim().trim_start_matches('.').trim().to_string();
    if kept.is_empty() {
        "print.txt".into()
    } else {
        kept
    }
}

/// Why `printing`'s command cannot run here, if it cannot: its program is
/// not an installed program (checked at start, so the coach learns it
/// before the first team prints).
pub(crate) fn missing_printer(printing: &Printing) -> Option<String> {
    let command = printing.command.as_ref().filter(|_| printing.enabled)?;
    let Some(PrintWord::Text(program)) = command.words.first() else {
        return None;
    };
    let found = sandbox::find_in_user_path(&program.into());
    (!sandbox::is_executable_file(std::path::Path::new(&found))).then(|| {
        format!(
            "[printing] `print_command`: `{program}` is not an installed program (not an \
             executable file, nor found in PATH)"
        )
    })
}

/// Whether `viewer` may read `job`: the jury all, a team its own.
pub(crate) fn may_read(viewer: &Viewer, job: &PrintJob) -> bool {
    match viewer {
        Viewer::Jury => true,
        Viewer::Team(t) => *t == job.team,
        Viewer::Public => false,
    }
}

fn missing() -> Refusal {
    Refusal::NotFound("not found".into())
}

impl LiveContest {
    /// Whether teams may print here (the pages show the menu entry).
    pub(crate) fn printing_enabled(&self) -> bool {
        self.config.printing.enabled
    }

    fn printing_open(&self) -> Result<(), Refusal> {
        if self.printing_enabled() {
            Ok(())
        } else {
            Err(missing())
        }
    }

    /// The print jobs `viewer` may read, oldest first.
    pub(crate) async fn print_jobs_for(&self, viewer: &Viewer) -> Result<Vec<PrintJob>, Refusal> {
        self.printing_open()?;
        let jobs = match viewer {
            Viewer::Jury => self.store.print_jobs(None).await?,
            Viewer::Team(t) => self.store.print_jobs(Some(t)).await?,
            Viewer::Public => return Err(missing()),
        };
        Ok(jobs.into_iter().filter(|j| may_read(viewer, j)).collect())
    }

    /// The number on the menu's print-jobs badge: for the jury, the jobs
    /// not handed out yet; for anyone else, or with printing off, none.
    pub(crate) async fn print_badge(&self, viewer: &Viewer) -> Result<usize, Refusal> {
        if *viewer != Viewer::Jury || !self.printing_enabled() {
            return Ok(0);
        }
        let jobs = self.store.print_jobs(None).await?;
        Ok(jobs.iter().filter(|j| j.done.is_none()).count())
    }

    /// Print job `id`, when `viewer` may read it (another team's is as
    /// missing as one that does not exist).
    pub(crate) async fn print_job_for(
        &self,
        viewer: &Viewer,
        id: i64,
    ) -> Result<PrintJob, Refusal> {
        self.printing_open()?;
        self.store
            .print_job(id)
            .await?
            .filter(|j| may_read(viewer, j))
            .ok_or_else(missing)
    }

    /// Team `viewer`'s file to print, stored and, when `print_command` is
    /// set, printed: the job as it is then.
    pub(crate) async fn print(
        &self,
        viewer: &Viewer,
        filename: &str,
        content: &[u8],
    ) -> Result<PrintJob, Refusal> {
        self.printing_open()?;
        let Viewer::Team(team) = viewer else {
            return Err(Refusal::Forbidden(
                "only a team sends files to print".into(),
            ));
        };
        let max = self.config.printing.max_size;
        if content.len() as u64 > max {
            return Err(Refusal::TooLarge(format!(
                "the file is over {max} bytes, the most this contest prints"
            )));
        }
        if content.iter().all(u8::is_ascii_whitespace) {
            return Err(Refusal::Invalid(
                "nothing to print: the text is empty".into(),
            ));
        }
        if content.contains(&0) {
            return Err(Refusal::Invalid(
                "not a text file (it holds NUL bytes): only text is printed".into(),
            ));
        }
        self.take_rate(team, now_ms())?;
        let name = harmless_name(filename);
        let id = self
            .store
            .add_print_job(team, &name, content, now_ms())
            .await?;
        let job = self.print_job_for(viewer, id).await?;
        self.start_printing(&job);
        Ok(job)
    }

    /// Runs the print command for job `id` again. The jury's only.
    pub(crate) async fn reprint(&self, viewer: &Viewer, id: i64) -> Result<(), Refusal> {
        let job = self.print_job_for(viewer, id).await?;
        if *viewer != Viewer::Jury {
            return Err(missing());
        }
        if self.config.printing.command.is_none() {
            return Err(Refusal::Invalid("no `print_command` is set".into()));
        }
        self.start_printing(&job);
        Ok(())
    }

    /// Marks job `id` handed out (or not). The jury's only.
    pub(crate) async fn mark_print(
        &self,
        viewer: &Viewer,
        id: i64,
        done: bool,
    ) -> Result<(), Refusal> {
        self.print_job_for(viewer, id).await?;
        if *viewer != Viewer::Jury {
            return Err(missing());
        }
        self.store.set_print_done(id, done.then(now_ms)).await?;
        Ok(())
    }

    /// Prints `job` with `print_command` (if set) in the background, one
    /// job at a time in the order sent, and records how it went (the jury's
    /// pages are told): a slow or hung printer holds up no page.
    fn start_printing(&self, job: &PrintJob) {
        let Some(command) = self.config.printing.command.clone() else {
            return;
        };
        let team = self
            .config
            .teams
            .iter()
            .find(|t| t.id == job.team)
            .map_or(job.team.as_str(), |t| t.name.as_str());
        let title = format!("{team}: {}", job.filename);
        let (store, printer, job) = (self.store.clone(), self.printer.clone(), job.clone());
        tokio::spawn(async move {
            let _turn = printer.lock().await;
            let (state, output) = print_with(&command, &job, &title).await;
            if let Err(e) = store.set_print_outcome(job.id, state, &output).await {
                eprintln!(
                    "print job {}: the outcome was not recorded: {}",
                    job.id,
                    crate::error::render_chain(&e)
                );
            }
        });
    }
}

/// Runs `command` on `job`'s text, titled `title`: how it went, and its
/// exit and output as the jury's queue shows them.
pub(crate) async fn print_with(
    command: &PrintCommand,
    job: &PrintJob,
    title: &str,
) -> (PrintState, String) {
    let dir = match tempfile::Builder::new().prefix("judge-print-").tempdir() {
        Ok(dir) => dir,
        Err(e) => return (PrintState::Failed, format!("no folder for the file: {e}")),
    };
    let file = dir.path().join(format!("job-{}.txt", job.id));
    if let Err(e) = std::fs::write(&file, &job.content) {
        return (
            PrintState::Failed,
            format!("the file could not be written: {e}"),
        );
    }
    let request = RunRequest {
        argv: command.argv(&file, title),
        cwd: dir.path().to_path_buf(),
        stdin: if command.names_file() {
            Stdin::Null
        } else {
            Stdin::File(file.clone())
        },
        stdout_spill: None,
        stdout_to: None,
        environment: Environment::Inherit,
        limits: Limits {
            cpu_time: COMMAND_TIME,
            wall_time: COMMAND_TIME,
            memory: None,
            address_space: false,
            stdout: OUTPUT_KEPT,
            stderr: OUTPUT_KEPT,
            file_size: 1 << 30,
            output_ends_run: false,
        },
        program_dir: None,
        exchange: Default::default(),
    };
    let outcome = match sandbox::run(&request).await {
        Ok(outcome) => outcome,
        Err(e) => return (PrintState::Failed, format!("could not run: {e}")),
    };
    let mut text = match (outcome.limit_hit, outcome.exit) {
        (Some(_), _) => format!("did not end within {} s", COMMAND_TIME.as_secs()),
        (None, Exit::Code(code)) => format!("exit {code}"),
        (None, Exit::Signal(s)) => format!("killed by signal {s}"),
    };
    let stdout = match &outcome.stdout {
        Captured::Memory(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        Captured::File { .. } => String::new(),
    };
    for part in [
        stdout,
        String::from_utf8_lossy(&outcome.stderr).into_owned(),
    ] {
        if !part.trim().is_empty() {
            text.push('\n');
            text.push_str(part.trim_end());
        }
    }
    let printed = outcome.limit_hit.is_none() && outcome.exit == Exit::Code(0);
    let state = if printed {
        PrintState::Printed
    } else {
        PrintState::Failed
    };
    (state, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::testing::live_contest_printing;

    fn on(command: Option<Vec<PrintWord>>) -> Printing {
        Printing {
            enabled: true,
            command: command.map(|words| PrintCommand { words }),
            max_size: 1000,
        }
    }

    fn team(t: &str) -> Viewer {
        Viewer::Team(t.into())
    }

    /// Job `id` once its print command has ended (the jury's pages are
    /// told; no fixed wait).
    async fn printed(live: &LiveContest, id: i64) -> PrintJob {
        let wait = async {
            let mut desk = live.subscribe_desk();
            loop {
                let job = live.print_job_for(&Viewer::Jury, id).await.unwrap();
                if job.state != PrintState::Waiting {
                    return job;
                }
                desk.changed().await.unwrap();
            }
        };
        tokio::time::timeout(Duration::from_secs(600), wait)
            .await
            .expect("the print command's outcome was recorded")
    }

    #[test]
    fn a_print_command_of_no_installed_program_is_found_at_start() {
        let with = |program: &str| on(Some(vec![PrintWord::Text(program.into())]));
        assert_eq!(missing_printer(&with("sh")), None);
        assert_eq!(missing_printer(&with("/bin/sh")), None);
        assert_eq!(
            missing_printer(&with("/nonexistent/lpr")).as_deref(),
            Some(
                "[printing] `print_command`: `/nonexistent/lpr` is not an installed program \
                 (not an executable file, nor found in PATH)"
            )
        );
        assert!(missing_printer(&with("judge-no-such-printer")).is_some());
        let off = Printing {
            enabled: false,
            ..with("judge-no-such-printer")
        };
        assert_eq!(missing_printer(&off), None);
    }

    #[test]
    fn names_are_made_harmless() {
        assert_eq!(harmless_name("../../etc/passwd"), "passwd");
        assert_eq!(harmless_name("a\\b\u{1b}[31m\n.c"), "b[31m.c");
        assert_eq!(harmless_name("/.."), "print.txt");
        assert_eq!(harmless_name(""), "print.txt");
        assert_eq!(harmless_name(&"x".repeat(500)).len(), NAME_LIMIT);
    }

    #[tokio::test]
    async fn each_viewer_sees_what_the_door_allows() {
        let dir = tempfile::tempdir().unwrap();
        let live = live_contest_printing(dir.path(), true, false, on(None)).await;
        let job = live
            .print(&team("t1"), "../a.cpp", b"int main;\n")
            .await
            .unwrap();
        assert_eq!(
            (job.filename.as_str(), job.state),
            ("a.cpp", PrintState::Waiting)
        );
        live.print(&team("t2"), "b.py", b"print(1)\n")
            .await
            .unwrap();
        // Viewer x what: the list, another team's job, sending, marking.
        let ids = |jobs: Vec<PrintJob>| jobs.iter().map(|j| j.id).collect::<Vec<_>>();
        assert_eq!(ids(live.print_jobs_for(&team("t1")).await.unwrap()), [1]);
        assert_eq!(
            ids(live.print_jobs_for(&Viewer::Jury).await.unwrap()),
            [1, 2]
        );
        assert!(matches!(
            live.print_jobs_for(&Viewer::Public).await,
            Err(Refusal::NotFound(_))
        ));
        assert!(matches!(
            live.print_job_for(&team("t1"), 2).await,
            Err(Refusal::NotFound(_))
        ));
        assert!(matches!(
            live.print_job_for(&Viewer::Public, 1).await,
            Err(Refusal::NotFound(_))
        ));
        assert_eq!(
            live.print_job_for(&Viewer::Jury, 2).await.unwrap().content,
            b"print(1)\n"
        );
        assert!(matches!(
            live.print(&Viewer::Jury, "x", b"x").await,
            Err(Refusal::Forbidden(_))
        ));
        assert!(matches!(
            live.print(&Viewer::Public, "x", b"x").await,
            Err(Refusal::Forbidden(_))
        ));
        assert!(matches!(
            live.mark_print(&team("t1"), 1, true).await,
            Err(Refusal::NotFound(_))
        ));
        assert!(matches!(
            live.mark_print(&team("t1"), 2, true).await,
            Err(Refusal::NotFound(_))
        ));
        live.mark_print(&Viewer::Jury, 1, true).await.unwrap();
        assert!(live
            .print_job_for(&team("t1"), 1)
            .await
            .unwrap()
            .done
            .is_some());
        // Refused: too large, empty, binary.
        assert!(matches!(
            live.print(&team("t1"), "x", &[b'a'; 1001]).await,
            Err(Refusal::TooLarge(_))
        ));
        assert!(matches!(
            live.print(&team("t1"), "x", b" \n").await,
            Err(Refusal::Invalid(_))
        ));
        assert!(matches!(
            live.print(&team("t1"), "x", b"a\0b").await,
            Err(Refusal::Invalid(_))
        ));
        assert!(matches!(
            live.reprint(&Viewer::Jury, 1).await,
            Err(Refusal::Invalid(_))
        ));
    }

    #[tokio::test]
    async fn with_printing_off_nobody_prints_or_reads() {
        let dir = tempfile::tempdir().unwrap();
        let live = live_contest_printing(dir.path(), true, false, Printing::default()).await;
        assert!(!live.printing_enabled());
        assert!(matches!(
            live.print(&team("t1"), "a", b"x").await,
            Err(Refusal::NotFound(_))
        ));
        assert!(matches!(
            live.print_jobs_for(&Viewer::Jury).await,
            Err(Refusal::NotFound(_))
        ));
    }

    #[tokio::test]
    async fn the_print_command_gets_the_file_and_the_title_as_whole_words() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("printed");
        std::fs::create_dir(&out).unwrap();
        let script = format!(
            "cp \"$1\" {0}/file && printf '%s' \"$2\" > {0}/title && echo spooled",
            out.display()
        );
        let words = vec![
            PrintWord::Text("sh".into()),
            PrintWord::Text("-c".into()),
            PrintWord::Text(script),
            PrintWord::Text("print".into()),
            PrintWord::File,
            PrintWord::Title,
        ];
        let live = live_contest_printing(dir.path(), true, false, on(Some(words))).await;
        let name = "$(touch pwned);`touch pwned` x.c";
        let job = live.print(&team("t1"), name, b"hello\n").await.unwrap();
        let job = printed(&live, job.id).await;
        assert_eq!(job.state, PrintState::Printed, "{:?}", job.output);
        assert_eq!(job.output.as_deref(), Some("exit 0\nspooled"));
        assert_eq!(std::fs::read(out.join("file")).unwrap(), b"hello\n");
        assert_eq!(
            std::fs::read_to_string(out.join("title")).unwrap(),
            format!("T1: {name}")
        );
        assert!(!dir.path().join("pwned").exists() && !out.join("pwned").exists());

        // A failing printer: recorded on the job, the team's request served.
        let failing = vec![
            PrintWord::Text("sh".into()),
            PrintWord::Text("-c".into()),
            PrintWord::Text("echo out of paper >&2; exit 3".into()),
        ];
        let dir = tempfile::tempdir().unwrap();
        let live = live_contest_printing(dir.path(), true, false, on(Some(failing))).await;
        let job = live.print(&team("t2"), "a.txt", b"x\n").await.unwrap();
        let job = printed(&live, job.id).await;
        assert_eq!(job.state, PrintState::Failed);
        assert_eq!(job.output.as_deref(), Some("exit 3\nout of paper"));
        let missing = vec![PrintWord::Text("/nonexistent/lpr".into())];
        let dir = tempfile::tempdir().unwrap();
        let live = live_contest_printing(dir.path(), true, false, on(Some(missing))).await;
        let job = live.print(&team("t2"), "a.txt", b"x\n").await.unwrap();
        let job = printed(&live, job.id).await;
        assert_eq!(job.state, PrintState::Failed, "{:?}", job.output);
        live.reprint(&Viewer::Jury, job.id).await.unwrap();
    }
}
