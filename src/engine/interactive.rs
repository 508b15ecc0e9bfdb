//! A test of an interactive problem: the submission and the interactor run
//! at once, each in its own sandbox under its own limits, the submission's
//! stdout piped into the interactor's stdin and back, end to end (the kernel
//! connects them; the judge only waits). The verdict follows the rules of
//! [`decide`]. When the test fails, it is played once more with the judge
//! relaying (see [`crate::sandbox::relay`]) to show the last lines each side
//! sent; the verdict stays the first play's.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::classify::classify;
use super::submission::{Pass, SlotUse, TestRun};
use super::Judge;
use crate::check::{interactor_result, CheckResult, Interactive, Subject};
use crate::error::{Error, Result};
use crate::problem::{InteractorProtocol, ProblemLimits};
use crate::report::{InteractionLine, TestReport};
use crate::sandbox::{
    self, Captured, Environment, Exchange, Exit, Handoff, Profile, RunOutcome, RunRequest, Side,
    Stdin,
};
use crate::verdict::Verdict;

/// How long the interactor may go on after the latest the submission can
/// end (its wall limit and the time it waited for a CPU): it is not the one
/// waited for.
const INTERACTOR_GRACE: Duration = Duration::from_secs(1);

/// The file a testlib interactor writes for the checker, in its working
/// directory.
const OUTPUT: &str = "output";

/// What one play of a test gave.
struct Play {
    submission: RunOutcome,
    interactor: RunOutcome,
    /// The interactor's output file (testlib) and feedback directory (ICPC).
    output: PathBuf,
    feedback: PathBuf,
    /// With a relay: the last lines each side sent, and who ended first.
    relayed: Option<sandbox::Relayed>,
}

impl Judge {
    /// Judges `run` (an interactive problem's test) with `interactive`.
    pub(super) async fn run_interactive(
        &self,
        run: &TestRun<'_>,
        interactive: &Interactive,
        slot: SlotUse<'_>,
        pass: Option<Pass<'_>>,
    ) -> Result<(TestReport, bool)> {
        let scratch = self.inner.scratch.take()?;
        // The submission's slot (the interactor, package code that mostly
        // waits, runs beside it without one).
        let _slot = match slot {
            SlotUse::Held => None,
            SlotUse::AfterPreparing(preparing) => {
                let slot = self.slot().await;
                drop(preparing);
                Some(slot)
            }
        };
        // A multi-pass test's pass: every play starts from the feedback
        // the passes before left.
        let carried = pass.map(|p| p.carried);
        let play = self
            .play(run, interactive, scratch.path(), false, carried)
            .await?;
        // A multi-pass problem's next input and feedback, before a second
        // play could wipe them.
        let wrote_next = match pass {
            Some(pass) => pass.end(&play.feedback)?,
            None => false,
        };
        if let Some(error) = super::classify::overloaded(&play.submission, run.wall, &run.test.name)
        {
            return Err(error);
        }
        let mut report = TestReport::of(run.test);
        report.measured(&play.submission, run.limits.time);
        let limits = &super::programs::package_of(&interactive.interactor).limits;
        let said = interactor_result(
            interactive.protocol,
            &play.interactor,
            &play.feedback,
            limits,
        );
        // Which ended first, by the system's clock where each ended: close
        // calls (a crash caused by the interactor's going) are settled by
        // the replay below, whose relay sees the order exactly.
        let order = Order::Clocked;
        let mut decided = decide(
            &play,
            said.clone(),
            order,
            &run.limits,
            run.wall,
            run.exe.address_space_limit(),
        );
        report.verdict = decided.verdict;
        report.message = decided.message.clone();
        report.score = decided.score;
        self.check_if_accepted(run, interactive, &play, scratch.path(), &mut report)
            .await?;
        if decided.verdict != Verdict::AC {
            // Played again through the judge, to see how it ended.
            let mut again = self
                .play(run, interactive, scratch.path(), true, carried)
                .await?;
            let relayed = again.relayed.take().expect("a relayed play");
            // A crash against a rejection: who ended first, as the relay
            // saw it, when the replay went the same way.
            let same = classify(
                &again.submission,
                &run.limits,
                run.wall,
                run.exe.address_space_limit(),
            )
            .map(|(v, _)| v)
                == classify(
                    &play.submission,
                    &run.limits,
                    run.wall,
                    run.exe.address_space_limit(),
                )
                .map(|(v, _)| v);
            if same && matches!(decided.verdict, Verdict::RE | Verdict::WA | Verdict::PE) {
                let order = Order::Seen(relayed.first_to_end);
                decided = decide(
                    &play,
                    said,
                    order,
                    &run.limits,
                    run.wall,
                    run.exe.address_space_limit(),
                );
                report.verdict = decided.verdict;
                report.message = decided.message.clone();
                report.score = decided.score;
            } else if !same && stopped_by_the_clock(&play, &decided) {
                // A verdict of the wall clock that the second play does not
                // repeat was the machine's (a partner started or ran late),
                // not the submission's: the second play decides.
                let said = interactor_result(
                    interactive.protocol,
                    &again.interactor,
                    &again.feedback,
                    limits,
                );
                let second = decide(
                    &again,
                    said,
                    Order::Seen(relayed.first_to_end),
                    &run.limits,
                    run.wall,
                    run.exe.address_space_limit(),
                );
                report.measured(&again.submission, run.limits.time);
                report.verdict = second.verdict;
                report.score = second.score;
                report.message = second.message;
                self.check_if_accepted(run, interactive, &again, scratch.path(), &mut report)
                    .await?;
                let first = format!(
                    "the first play was stopped by the wall clock ({})",
                    decided.verdict
                );
                report.message = if report.message.is_empty() {
                    format!("judged on a second play: {first}")
                } else {
                    format!("{} (judged on a second play: {first})", report.message)
                };
            }
            let lines = Some(relayed.lines);
            report.interaction = lines.map(|lines| {
                lines
                    .into_iter()
                    .map(|(side, line)| InteractionLine {
                        side: match side {
                            Side::Submission => "submission",
                            Side::Interactor => "interactor",
                        }
                        .into(),
                        line,
                    })
                    .collect()
            });
        }
        Ok((report, wrote_next))
    }

    /// Runs the submission and the interactor together once, connected end
    /// to end or (`relayed`) through the judge.
    async fn play(
        &self,
        run: &TestRun<'_>,
        interactive: &Interactive,
        work: &Path,
        relayed: bool,
        carried: Option<&Path>,
    ) -> Result<Play> {
        let io = |path: &Path, e| Error::io(path, e);
        // The submission works in a directory of its own (its cwd where it
        // is not sandboxed): the interactor's files are not in it.
        let (mine, theirs) = (work.join("submission"), work.join("interactor"));
        for dir in [&mine, &theirs] {
            let _ = std::fs::remove_dir_all(dir);
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        }
        let feedback = theirs.join(crate::check::FEEDBACK);
        std::fs::create_dir(&feedback).map_err(|e| io(&feedback, e))?;
        let output = theirs.join(OUTPUT);
        let (relay, ends) = if relayed {
            let (relay, ends) = sandbox::relay().map_err(|e| io(work, e))?;
            (Some(relay), ends)
        } else {
            let (to_interactor, from_submission) = sandbox::wire().map_err(|e| io(work, e))?;
            let (to_submission, from_interactor) = sandbox::wire().map_err(|e| io(work, e))?;
            (
                None,
                (
                    to_submission,
                    from_submission,
                    to_interactor,
                    from_interactor,
                ),
            )
        };
        let (sub_in, sub_out, int_in, int_out): (Handoff, Handoff, Handoff, Handoff) = ends;
        let (exe, test, limits) = (run.exe, run.test, run.limits);
        let submission = RunRequest {
            argv: exe.argv(Some(limits.memory)),
            cwd: mine.clone(),
            stdin: Stdin::Pipe(sub_in),
            stdout_spill: None,
            stdout_to: Some(sub_out),
            environment: Environment::Minimal(exe.env().to_vec()),
            program_dir: Some(exe.dir().to_path_buf()),
            limits: run.sandbox_limits(),
            exchange: Exchange::default(),
        };
        let interactor = &interactive.interactor;
        let answer = test.answer.clone().unwrap_or_else(|| test.input.clone());
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        let files = vec![test.input.clone(), answer.clone()];
        let exchange = match interactive.protocol {
            InteractorProtocol::Testlib => {
                args.extend([test.input.clone(), output.clone(), answer].map(Into::into));
                Exchange {
                    files,
                    keep: vec![OUTPUT.into()],
                    ..Exchange::default()
                }
            }
            InteractorProtocol::Kattis => {
                let mut dir = feedback.clone().into_os_string();
                dir.push("/");
                args.extend([test.input.clone().into(), answer.into(), dir]);
                crate::check::feedback_exchange(files, carried)
            }
        };
        args.extend(test.checker_args.iter().map(Into::into));
        // The package's limits, but a wall clock one second beyond the
        // latest the submission can end (a starved submission's wall is
        // moved): an interactor waits for it, and stopping it first would
        // blame it (IE) for the machine's load.
        let mut interactor_request = super::programs::package_request(
            interactor,
            &args,
            &theirs,
            Stdin::Pipe(int_in),
            exchange,
        );
        interactor_request.stdout_spill = None;
        interactor_request.stdout_to = Some(int_out);
        let interactor_limits = &mut interactor_request.limits;
        interactor_limits.wall_time = sandbox::longest_wall(run.wall) + INTERACTOR_GRACE;
        interactor_limits.cpu_time = interactor_limits.cpu_time.min(interactor_limits.wall_time);
        let package = super::programs::package_of(interactor);
        let interactor_profile = Profile::Package(std::sync::Arc::clone(&package.view));
        let sandbox = self.sandbox();
        let timed = |request: RunRequest, profile: Profile| async move {
            let outcome = sandbox.run(&request, profile).await;
            // The pipe ends it did not take (it could not start) are closed
            // now, so the other side sees the end of its stream.
            drop(request);
            outcome
        };
        // The interactor first: it usually speaks first, and the
        // submission's start (its slot's staging) takes longer.
        let (int, sub) = tokio::join!(
            timed(interactor_request, interactor_profile),
            timed(submission, Profile::Submission)
        );
        let relayed = relay.map(sandbox::Relay::finish);
        let submission = sub.map_err(|e| {
            Error::from_run(e, Some((&exe.language.id, exe.language.install_hint())))
        })?;
        let interactor = int.map_err(|e| Error::from_run(e, None))?;
        Ok(Play {
            submission,
            interactor,
            output,
            feedback,
            relayed,
        })
    }

    /// An accepted play's output through the problem's checker, when it has
    /// one after the interactor (`then`): its verdict is the test's.
    async fn check_if_accepted(
        &self,
        run: &TestRun<'_>,
        interactive: &Interactive,
        play: &Play,
        work: &Path,
        report: &mut TestReport,
    ) -> Result<()> {
        if report.verdict != Verdict::AC {
            return Ok(());
        }
        if let Some(then) = &interactive.then {
            let checked = self.check_output(run, then, play, work).await?;
            report.verdict = checked.verdict;
            report.message = checked.message;
            report.diff = checked.diff;
            report.score = checked.score.or(report.score);
        }
        Ok(())
    }

    /// The problem's checker on what a testlib interactor wrote.
    async fn check_output(
        &self,
        run: &TestRun<'_>,
        checker: &crate::check::Checker,
        play: &Play,
        work: &Path,
    ) -> Result<CheckResult> {
        let len = std::fs::metadata(&play.output).map_or(0, |m| m.len());
        let answer = run
            .test
            .answer
            .clone()
            .unwrap_or_else(|| run.test.input.clone());
        let dir = work.join("check");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let subject = Subject {
            input: &run.test.input,
            output: Captured::File {
                path: play.output.clone(),
                len,
            },
            answer: &answer,
            work: Some(&dir),
            args: &run.test.checker_args,
            carried_feedback: None,
        };
        self.check(checker, subject).await
    }
}

/// Whether a play's verdict came from a wall clock running out rather than
/// from what the programs did: the submission stopped at its wall limit
/// (TLE), or the interactor stopped at its own (IE).
fn stopped_by_the_clock(play: &Play, decided: &Decided) -> bool {
    let wall = |outcome: &RunOutcome| outcome.limit_hit == Some(sandbox::LimitHit::WallTime);
    match decided.verdict {
        Verdict::TLE => wall(&play.submission),
        Verdict::IE => wall(&play.interactor),
        _ => false,
    }
}

/// How to tell which program ended first.
#[derive(Debug, Clone, Copy)]
enum Order {
    /// By the system's monotonic clock when each was seen to end.
    Clocked,
    /// As a relay saw it (exact).
    Seen(Side),
}

/// A verdict with its message.
#[derive(Debug, PartialEq)]
struct Decided {
    verdict: Verdict,
    message: String,
    score: Option<f64>,
}

/// The verdict of one play, by these rules, in order:
/// 0. the interactor rejecting before the submission ended is WA (or PE);
/// 1. the submission exceeding a limit is TLE, MLE or OLE (both waiting on
///    each other ends at its wall-clock limit: TLE, "idle");
/// 2. the interactor failing (a crash, an exit code outside its protocol,
///    its own limit) is IE, never AC;
/// 3. the interactor rejecting is WA (or PE), even if the submission then
///    died, unless the submission crashed first (before the interactor
///    decided): RE;
/// 4. the interactor accepting is AC, unless the submission crashed: RE
///    (SIGPIPE after the interactor ended is no crash: it wrote more once
///    the play was over, which BAPCtools accepts, e.g. its `guessnoeofcheck`).
fn decide(
    play: &Play,
    said: CheckResult,
    order: Order,
    limits: &ProblemLimits,
    wall: Duration,
    address_space: bool,
) -> Decided {
    let of = |verdict, message| Decided {
        verdict,
        message,
        score: None,
    };
    let ran = classify(&play.submission, limits, wall, address_space);
    // The interactor rejecting before the submission ended decides (WA or
    // PE), whatever the submission then did (ran on, idle, to its limit):
    // problemtools' order, where a validator that exits first with 43 is WA.
    let interactor_first = match order {
        Order::Clocked => play.interactor.ended_ns < play.submission.ended_ns,
        Order::Seen(first) => first == Side::Interactor,
    };
    if interactor_first && matches!(said.verdict, Verdict::WA | Verdict::PE) {
        return of(said.verdict, said.message);
    }
    match ran {
        Some((Verdict::TLE, message))
            if play.submission.limit_hit == Some(sandbox::LimitHit::WallTime)
                && !super::classify::starved(&play.submission, wall) =>
        {
            return of(
                Verdict::TLE,
                format!("{message}: idle, the submission and the interactor waited on each other (idleness limit)"),
            )
        }
        Some((verdict, message)) if verdict != Verdict::RE => return of(verdict, message),
        _ => {}
    }
    let crashed = ran.filter(|(v, _)| *v == Verdict::RE);
    // The interactor killed by SIGPIPE (or a script reporting it, 141):
    // it wrote to a submission that had stopped reading (ended, or closed
    // its input). Not a judge failure: the submission's doing, as
    // problemtools and BAPCtools judge it (their interactor never sees the
    // pipe close): RE if it crashed, else WA.
    let broken_pipe = play.interactor.limit_hit.is_none()
        && matches!(play.interactor.exit, Exit::Signal(13) | Exit::Code(141));
    if said.verdict == Verdict::IE && broken_pipe {
        return match crashed {
            Some((_, message)) => of(Verdict::RE, message),
            None => of(
                Verdict::WA,
                "the submission stopped reading while the interactor was still writing to it (the interactor died of SIGPIPE)".into(),
            ),
        };
    }
    match said.verdict {
        Verdict::IE => of(Verdict::IE, said.message),
        Verdict::AC => match crashed {
            Some((_, message))
                if !(play.submission.broken_pipe()
                    && match order {
                        Order::Clocked => play.interactor.ended_ns <= play.submission.ended_ns,
                        Order::Seen(first) => first == Side::Interactor,
                    }) =>
            {
                of(Verdict::RE, message)
            }
            _ => Decided {
                verdict: Verdict::AC,
                message: said.message,
                score: said.score,
            },
        },
        rejected => match crashed {
            Some((_, message))
                if !play.submission.broken_pipe()
                    && match order {
                        Order::Clocked => play.submission.ended_ns <= play.interactor.ended_ns,
                        Order::Seen(first) => first == Side::Submission,
                    } =>
            {
                of(
                    Verdict::RE,
                    format!("{message} (before the interactor decided)"),
                )
            }
            _ => of(rejected, said.message),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(exit: Exit, limit_hit: Option<sandbox::LimitHit>) -> RunOutcome {
        RunOutcome {
            exit,
            limit_hit,
            cpu_time: Duration::from_millis(5),
            wall_time: Duration::from_millis(10),
            peak_memory_kib: 1000,
            stdout: Captured::Memory(Vec::new()),
            stderr: Vec::new(),
            stderr_truncated: false,
            memory_exceeded: false,
            process_limit_hit: false,
            ended_ns: 0,
            waited_for_cpu: Duration::ZERO,
            keep_error: None,
        }
    }

    fn play(mut submission: RunOutcome, submission_first: bool) -> Play {
        let mut interactor = outcome(Exit::Code(0), None);
        (submission.ended_ns, interactor.ended_ns) = if submission_first { (1, 2) } else { (2, 1) };
        Play {
            submission,
            interactor,
            output: PathBuf::new(),
            feedback: PathBuf::new(),
            relayed: None,
        }
    }

    fn said(verdict: Verdict) -> CheckResult {
        CheckResult {
            verdict,
            message: format!("interactor says {verdict}"),
            position: None,
            diff: None,
            score: None,
        }
    }

    fn verdict(play: &Play, interactor: Verdict) -> Verdict {
        let limits = ProblemLimits {
            time: Duration::from_secs(1),
            memory: 256 << 20,
            output: 1 << 20,
        };
        let wall = Duration::from_secs(3);
        let clocked = decide(play, said(interactor), Order::Clocked, &limits, wall, true);
        // The relay's exact order gives the same where it agrees.
        let first = if play.submission.ended_ns <= play.interactor.ended_ns {
            Side::Submission
        } else {
            Side::Interactor
        };
        let seen = decide(
            play,
            said(interactor),
            Order::Seen(first),
            &limits,
            wall,
            true,
        );
        assert_eq!(clocked, seen);
        clocked.verdict
    }

    #[test]
    fn the_verdict_rules_hold_in_their_order() {
        use sandbox::LimitHit::{CpuTime, WallTime};
        let clean = outcome(Exit::Code(0), None);
        let crash = outcome(Exit::Signal(11), None);
        // SIGPIPE: it wrote after the interactor had gone.
        let pipe = outcome(Exit::Signal(13), None);
        // A limit of the submission first, whatever the interactor said.
        let cpu = outcome(Exit::Signal(9), Some(CpuTime));
        assert_eq!(verdict(&play(cpu, true), Verdict::WA), Verdict::TLE);
        // ... unless the interactor had rejected it before (problemtools:
        // a validator exiting first with 43 is WA).
        let late = outcome(Exit::Signal(9), Some(WallTime));
        assert_eq!(verdict(&play(late, false), Verdict::WA), Verdict::WA);
        let idle = outcome(Exit::Signal(9), Some(WallTime));
        assert_eq!(verdict(&play(idle, true), Verdict::IE), Verdict::TLE);
        // The interactor failing is IE, never AC.
        assert_eq!(
            verdict(&play(outcome(Exit::Code(0), None), true), Verdict::IE),
            Verdict::IE
        );
        // Rejected: WA, even if the submission died after; RE if it crashed first.
        assert_eq!(
            verdict(&play(outcome(Exit::Code(0), None), true), Verdict::WA),
            Verdict::WA
        );
        assert_eq!(
            verdict(&play(outcome(Exit::Signal(11), None), false), Verdict::WA),
            Verdict::WA
        );
        assert_eq!(verdict(&play(pipe, true), Verdict::WA), Verdict::WA);
        assert_eq!(
            verdict(&play(outcome(Exit::Signal(11), None), true), Verdict::WA),
            Verdict::RE
        );
        assert_eq!(
            verdict(&play(outcome(Exit::Code(0), None), true), Verdict::PE),
            Verdict::PE
        );
        // Accepted: AC, unless the submission crashed.
        assert_eq!(verdict(&play(clean, true), Verdict::AC), Verdict::AC);
        assert_eq!(verdict(&play(crash, false), Verdict::AC), Verdict::RE);
        // ... but not by writing after an accepting interactor had ended
        // (SIGPIPE): AC, as BAPCtools; SIGPIPE before it ended is RE.
        let late_pipe = outcome(Exit::Signal(13), None);
        assert_eq!(verdict(&play(late_pipe, false), Verdict::AC), Verdict::AC);
        let early_pipe = outcome(Exit::Signal(13), None);
        assert_eq!(verdict(&play(early_pipe, true), Verdict::AC), Verdict::RE);
        // The interactor killed by SIGPIPE (the submission stopped reading):
        // the submission's verdict, never IE.
        for exit in [Exit::Signal(13), Exit::Code(141)] {
            let mut early = play(outcome(Exit::Code(0), None), true);
            early.interactor = outcome(exit, None);
            early.interactor.ended_ns = 2;
            assert_eq!(verdict(&early, Verdict::IE), Verdict::WA);
            let mut crashed = play(outcome(Exit::Signal(11), None), true);
            crashed.interactor = outcome(exit, None);
            crashed.interactor.ended_ns = 2;
            assert_eq!(verdict(&crashed, Verdict::IE), Verdict::RE);
        }
    }
}
