//! The command line: clap arguments, turned into settings, dispatched to the
//! library, with the exit code decided here. The main entry point is [`main`].

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};

use crate::config::Config;
use crate::error::{exit_code, render_chain, Error, Result};
use crate::judge::{Judge, RunOptions, Submission};
use crate::problem::Problem;
use crate::report::junit::{self, JunitSubmission};
use crate::report::{human::Human, json, SubmissionReport};
use crate::sandbox::CpuChoice;
use crate::sandbox::IsolationMode;
use crate::testset::{self, TestFilter};
use crate::units::{format_kib, parse_duration, parse_memory_limit};
use crate::verdict::Verdict;

/// A local online-judge grader: compile, run under limits, check, diff, report.
#[derive(Debug, Parser)]
#[command(name = "judge", version, about, long_about = None)]
pub struct Cli {
    /// Use this judge.toml instead of the nearest one above the current directory.
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Run at most N tests at once (default: judge.toml's `jobs`, else the number of CPUs).
    #[arg(short, long, global = true, value_name = "N")]
    pub jobs: Option<usize>,
    /// With one job (`-j 1`), keep the judging on one CPU: `auto` (default:
    /// one no other judge has claimed), `off`, or a CPU number.
    #[arg(long, global = true, value_name = "auto|off|N")]
    pub cpu: Option<CpuChoice>,
    /// When to use colours in human output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// How submissions are isolated: `strict` refuses to judge without full
    /// isolation (namespaces + cgroup), `auto` uses the best available and
    /// warns when weaker, `none` runs with process groups and rlimits only.
    #[arg(long, global = true, value_enum, default_value_t = IsolationChoice::Auto)]
    pub isolation: IsolationChoice,
    /// Judge every test again instead of reusing results from the result cache.
    #[arg(long, global = true)]
    pub no_cache: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Colour choice.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Isolation choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IsolationChoice {
    /// Full isolation or an error (exit 2).
    Strict,
    /// The best available, with a warning when weaker than full.
    Auto,
    /// Process group and rlimits only.
    None,
}

impl From<IsolationChoice> for IsolationMode {
    fn from(c: IsolationChoice) -> IsolationMode {
        match c {
            IsolationChoice::Strict => IsolationMode::Strict,
            IsolationChoice::Auto => IsolationMode::Auto,
            IsolationChoice::None => IsolationMode::None,
        }
    }
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text for people.
    Human,
    /// One JSON object per submission, one per line (schema: docs/json-report.md).
    Json,
    /// JUnit XML: a testcase per submission x test (for CI systems).
    Junit,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Judge submission files on a problem.
    Run(RunArgs),
    /// List the problems of the workspace.
    List(ListArgs),
    /// Prove packages sound: valid tests, reference = brute force, every
    /// solution gets its expected verdict (all problems when none is named).
    Verify(VerifyArgs),
    /// Scaffold an empty problem package (stubs that fail `verify` until written).
    New(NewArgs),
    /// Judge a contest directory (a folder per contestant) and write
    /// results.json, scoreboard.txt, scoreboard.html and junit.xml.
    Batch(BatchArgs),
    /// Combine the results.json of partitioned runs into the outputs of one run.
    Merge(MergeArgs),
    /// Run a file on generated inputs against a trusted solution until it
    /// fails, then shrink the failing input to a minimal one.
    Stress(StressArgs),
    /// Write a problem's full test set (inputs and answers) to a directory.
    Gen(GenArgs),
}

/// Arguments of `judge stress`.
#[derive(Debug, clap::Args)]
pub struct StressArgs {
    /// Problem id (looked up in problems/) or path to a problem directory.
    pub problem: String,
    /// The file to stress (a source, or a ready executable).
    pub file: PathBuf,
    /// Language of FILE, overriding detection by extension.
    #[arg(long, value_name = "NAME")]
    pub lang: Option<String>,
    /// What gives the expected answers: the package's `reference`, its
    /// `brute` force (inputs outside its bounds are skipped), or another
    /// file, trusted like a reference but run in the sandbox (write
    /// `./brute` for a file named brute).
    #[arg(long, value_name = "reference|brute|FILE", default_value = "reference")]
    pub against: String,
    /// Seed of the whole run: the same seed and budget give the same
    /// counterexample and minimal input.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Stop after N iterations (default 1000 when --time is not given).
    #[arg(long, value_name = "N")]
    pub iterations: Option<u64>,
    /// Stop starting iterations after this long (e.g. 30s, 2m).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<std::time::Duration>,
    /// Where to write the minimal input (default: `<cache>/stress/<problem>-<seed>.in`).
    #[arg(long, value_name = "PATH")]
    pub save: Option<PathBuf>,
    /// Output format (`json`: one object, schema in docs/json-report.md).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Arguments of `judge batch`.
#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    /// The contest directory: DIR/CONTESTANT/PROBLEM.EXT, further attempts
    /// PROBLEM.2.EXT, ...; an optional DIR/contest.toml.
    pub dir: PathBuf,
    /// Where to write the results and scoreboards.
    #[arg(long, value_name = "OUTDIR")]
    pub out: PathBuf,
    /// Scoring mode (default: contest.toml's, else icpc).
    #[arg(long, value_enum)]
    pub scoring: Option<crate::contest::Scoring>,
    /// ICPC penalty minutes per rejected attempt (default: contest.toml's, else 20).
    #[arg(long, value_name = "MINUTES")]
    pub penalty: Option<u64>,
    /// Judge only part K of N of the submissions (slice:K/N); merge the parts with `judge merge`.
    #[arg(long, value_name = "slice:K/N")]
    pub partition: Option<crate::partition::Partition>,
    /// What to print on stdout: the scoreboard, results.json, or JUnit XML.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Arguments of `judge merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The results.json of every part.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    /// Where to write the combined results and scoreboards.
    #[arg(long, value_name = "OUTDIR")]
    pub out: PathBuf,
    /// What to print on stdout.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Arguments of `judge gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// Problem id (looked up in problems/) or path to a problem directory.
    pub problem: String,
    /// The directory to write (created if missing; must be empty unless --force).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// File layout.
    #[arg(long, value_enum, default_value_t = GenFormat::Numbered)]
    pub format: GenFormat,
    /// Write into a non-empty DIR, replacing the `*.in`, `*.ans` and `*.out` files in it.
    #[arg(long)]
    pub force: bool,
}

/// File layout of `judge gen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenFormat {
    /// `01.in` / `01.ans`, ... in test order.
    Numbered,
    /// online-judge-tools' `test/` folder: `sample-1.in` / `sample-1.out`, then `NAME.in` / `NAME.out`.
    Oj,
}

/// Arguments of `judge new`.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The new problem's id (e.g. hdu-1847).
    pub id: String,
}

/// Arguments of `judge verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Problem ids or paths (default: every problem of the workspace).
    pub problems: Vec<String>,
    /// Verify only part K of N of the problems (slice:K/N), for CI matrices.
    #[arg(long, value_name = "slice:K/N")]
    pub partition: Option<crate::partition::Partition>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Arguments of `judge run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Problem id (looked up in problems/) or path to a problem directory.
    pub problem: String,
    /// Submission files (sources, or ready executables).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Language of the files, overriding detection by extension (e.g. cpp, python).
    #[arg(long, value_name = "NAME")]
    pub lang: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Stop starting new tests after the first failure.
    #[arg(long)]
    pub fail_fast: bool,
    /// Run only the tests whose names match these globs (e.g. 'sample-*').
    #[arg(long = "tests", value_name = "GLOB", num_args = 1..)]
    pub tests: Vec<String>,
    /// Run on this one input file instead of the test set, print the output,
    /// and check it against the reference solution's answer when there is one.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Override the problem's time limit (e.g. 2s, 500ms).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time_limit: Option<std::time::Duration>,
    /// Override the problem's memory limit (e.g. 256MiB).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory_limit)]
    pub memory_limit: Option<u64>,
    /// Show the diff of every failing test, not only the first.
    #[arg(long)]
    pub all_diffs: bool,
    /// Judge only part K of N of the files (slice:K/N), for CI matrices.
    #[arg(long, value_name = "slice:K/N")]
    pub partition: Option<crate::partition::Partition>,
}

/// Arguments of `judge list`.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub format: ListFormat,
}

/// Output format of `judge list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// A table.
    Human,
    /// One JSON object per problem per line.
    Json,
}

/// Parses the command line, runs it, and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = std::panic::catch_unwind(|| run_cli(cli));
    match result {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            let _ = std::io::stdout().flush();
            eprintln!("{}", render_chain(&e));
            e.exit_code()
        }
        Err(_) => {
            eprintln!(
                "error: internal error (a bug in judge); please report it with the message above"
            );
            exit_code::INTERNAL
        }
    }
}

fn run_cli(cli: Cli) -> Result<i32> {
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let mut config = Config::discover(cli.config.as_deref(), &cwd)?;
    if let Some(jobs) = cli.jobs {
        if jobs == 0 {
            return Err(Error::Usage("--jobs must be at least 1".into()));
        }
        config.jobs = jobs;
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
    let isolation = IsolationMode::from(cli.isolation);
    let no_cache = cli.no_cache;
    match cli.command {
        Command::Run(args) => run(config, args, color, isolation, no_cache),
        Command::List(args) => list(&config, args),
        Command::Verify(args) => verify(config, args, isolation, no_cache),
        Command::Batch(args) => batch(config, args, isolation, no_cache),
        Command::Merge(args) => merge(args),
        Command::Stress(args) => stress(config, args, isolation),
        Command::Gen(args) => gen(config, args, isolation),
        Command::New(args) => {
            let dir = crate::scaffold::new_package(&config, &args.id)?;
            println!(
                "created {} and {}",
                dir.display(),
                config.testdata_dir.join(&args.id).display()
            );
            println!(
                "next: write the statement, programs and tests, then run `judge verify {}`",
                args.id
            );
            Ok(exit_code::OK)
        }
    }
}

/// Runs `future` on a fresh runtime; Ctrl-C or SIGTERM drops it (which kills
/// every running process and removes scratch directories) and gives `Interrupted`.
fn block_on_interruptible<T>(
    jobs: usize,
    future: impl std::future::Future<Output = Result<T>>,
) -> Result<T> {
    // One test at a time needs no second thread: waking one per test costs
    // more than the judge's own work for it.
    let mut builder = if jobs <= 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(jobs.clamp(1, 4));
        b
    };
    let runtime = builder.enable_all().build().map_err(|e| Error::Sandbox {
        program: "tokio runtime".into(),
        source: e,
    })?;
    let result = runtime.block_on(async {
        let mut terminate = tokio::signal::unix::signal(
            tokio::signal::unix::SignalKind::terminate(),
        )
        .map_err(|e| Error::Sandbox {
            program: "signal handler".into(),
            source: e,
        })?;
        tokio::select! {
            r = future => r,
            _ = tokio::signal::ctrl_c() => Err(Error::Interrupted),
            _ = terminate.recv() => Err(Error::Interrupted),
        }
    });
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    result
}

/// Creates the engine and prints the sandbox's warning, if any, once.
fn start_judge(
    config: Config,
    isolation: IsolationMode,
    problems: &[Arc<Problem>],
) -> Result<Judge> {
    let hide: Vec<PathBuf> = problems
        .iter()
        .flat_map(|p| [p.dir.clone(), p.testdata_dir.clone()])
        .collect();
    let judge = Judge::new(config, isolation, &hide)?;
    if let Some(warning) = judge.sandbox().warning() {
        eprintln!("warning: {warning}");
    }
    Ok(judge)
}

fn run(
    config: Config,
    args: RunArgs,
    color: bool,
    isolation: IsolationMode,
    no_cache: bool,
) -> Result<i32> {
    let mut problem = Problem::find(&args.problem, &config)?;
    if let Some(t) = args.time_limit {
        problem.limits.time = t;
    }
    if let Some(m) = args.memory_limit {
        problem.limits.memory = m;
    }
    let problem = Arc::new(problem);
    let mut submissions = Vec::new();
    let files: Vec<&PathBuf> = args
        .files
        .iter()
        .enumerate()
        .filter(|(i, _)| args.partition.is_none_or(|p| p.includes(*i)))
        .map(|(_, f)| f)
        .collect();
    for file in files {
        regular_file(file)?;
        let language = match &args.lang {
            Some(id) => config.language_by_id(id, file)?,
            None => config.detect_language(file)?,
        };
        submissions.push(Submission {
            path: file.clone(),
            language,
        });
    }
    let filter = TestFilter::new(&args.tests)?;
    let human = Human {
        color,
        all_diffs: args.all_diffs,
    };
    let options = RunOptions {
        fail_fast: args.fail_fast,
        keep_output: args.input.is_some(),
        no_cache,
    };
    let jobs = config.jobs;
    let judge = start_judge(config, isolation, std::slice::from_ref(&problem))?;
    let reports = block_on_interruptible(jobs, async {
        let tests = match &args.input {
            Some(input) => {
                regular_file(input)?;
                testset::single(&judge, &problem, input).await?
            }
            None => testset::materialise(&judge, &problem, &filter).await?,
        };
        let tests = Arc::new(tests);
        let checker = judge.prepare_checker(&problem).await?;
        let mut reports = Vec::new();
        for submission in &submissions {
            let mut out = std::io::stdout();
            if args.format == Format::Human {
                let header = human.header(
                    &problem.id,
                    &problem.title,
                    &submission.path.display().to_string(),
                    &submission.language.name,
                );
                let _ = out.write_all(header.as_bytes());
                let _ = out.flush();
            }
            let mut failure_shown = false;
            let report = judge
                .judge_submission(&problem, &tests, &checker, submission, &options, |t| {
                    if args.format == Format::Human {
                        let with_diff = human.wants_diff(t, failure_shown);
                        failure_shown |= !t.verdict.is_accepted();
                        let mut out = std::io::stdout();
                        let _ = out.write_all(human.test(t, with_diff).as_bytes());
                        if let Some(output) = &t.output {
                            let _ = writeln!(out, "  output:");
                            for line in crate::report::printable(output).lines() {
                                let _ = writeln!(out, "    {line}");
                            }
                        }
                        let _ = out.flush();
                    }
                })
                .await?;
            match args.format {
                Format::Human => {
                    let _ = out.write_all(human.summary(&report).as_bytes());
                }
                Format::Json => {
                    let _ = out.write_all(json::render(&report).as_bytes());
                }
                Format::Junit => {}
            }
            let _ = out.flush();
            reports.push(report);
        }
        Ok(reports)
    })?;
    if args.format == Format::Junit {
        let suites: Vec<JunitSubmission> = reports
            .iter()
            .map(|r| JunitSubmission {
                suite: format!("{} {}", r.problem, r.submission),
                report: r,
                expected: None,
            })
            .collect();
        print!("{}", junit::render("judge run", &suites));
    }
    Ok(exit_code_for(&reports))
}

/// 0 when every submission is accepted, 3 when a test was judged IE (the
/// result cannot be trusted), else 1.
pub fn exit_code_for(reports: &[SubmissionReport]) -> i32 {
    if reports
        .iter()
        .any(|r| r.tests.iter().any(|t| t.verdict == Verdict::IE))
    {
        exit_code::INTERNAL
    } else if reports.iter().all(|r| r.verdict.is_accepted()) {
        exit_code::OK
    } else {
        exit_code::NOT_ACCEPTED
    }
}

fn verify(
    config: Config,
    args: VerifyArgs,
    isolation: IsolationMode,
    no_cache: bool,
) -> Result<i32> {
    let names: Vec<String> = if args.problems.is_empty() {
        Problem::list_ids(&config)
    } else {
        args.problems.clone()
    }
    .into_iter()
    .enumerate()
    .filter(|(i, _)| args.partition.is_none_or(|p| p.includes(*i)))
    .map(|(_, n)| n)
    .collect();
    if names.is_empty() {
        return Err(Error::Usage(format!(
            "no problems in {}",
            config.problems_dir.display()
        )));
    }
    let mut problems = Vec::new();
    let mut code = exit_code::OK;
    for name in &names {
        match Problem::find(name, &config) {
            Ok(p) => problems.push(Arc::new(p)),
            Err(e) => {
                eprintln!("{}", render_chain(&e));
                code = exit_code::COULD_NOT_JUDGE;
            }
        }
    }
    let jobs = config.jobs;
    let judge = start_judge(config, isolation, &problems)?;
    let format = args.format;
    let (all_ok, verified) = block_on_interruptible(jobs, async {
        let mut all_ok = true;
        let mut verified = Vec::new();
        for problem in &problems {
            let options = RunOptions {
                no_cache,
                ..RunOptions::default()
            };
            let report = crate::verify::verify(&judge, problem, &options).await?;
            all_ok &= report.ok;
            let text = match format {
                Format::Human => crate::verify::render_human(&report),
                Format::Json => serde_json::to_string(&report).expect("serialisable") + "\n",
                Format::Junit => String::new(),
            };
            let mut out = std::io::stdout();
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
            verified.push(report);
        }
        Ok((all_ok, verified))
    })?;
    if format == Format::Junit {
        let suites: Vec<JunitSubmission> = verified
            .iter()
            .flat_map(|v| {
                v.solutions.iter().map(|s| JunitSubmission {
                    suite: format!("{} {}", v.problem, s.report.submission),
                    report: &s.report,
                    expected: Some(&s.expected),
                })
            })
            .collect();
        print!("{}", junit::render("judge verify", &suites));
    }
    if code == exit_code::OK && !all_ok {
        code = exit_code::NOT_ACCEPTED;
    }
    Ok(code)
}

fn batch(
    mut config: Config,
    args: BatchArgs,
    isolation: IsolationMode,
    no_cache: bool,
) -> Result<i32> {
    use crate::contest::{run as contest_run, ContestSpec};
    if !args.dir.is_dir() {
        let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory");
        return Err(Error::io(&args.dir, source));
    }
    // Checked before anything is judged: results are never lost at the end.
    writable_dir(&args.out)?;
    let mut spec = ContestSpec::load(&args.dir)?;
    if let Some(s) = args.scoring {
        spec.scoring = s;
    }
    if let Some(p) = args.penalty {
        spec.penalty = p;
    }
    let discovered = contest_run::discover(&args.dir, &spec, &config)?;
    let info = contest_run::contest_info(&spec, &discovered);
    // Several submissions are judged at once; each test still takes a slot.
    config.jobs = config.jobs.max(1);
    let jobs = config.jobs;
    let judge = start_judge(config, isolation, &discovered.problems)?;
    let options = RunOptions {
        no_cache,
        ..RunOptions::default()
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar
    });
    let results = block_on_interruptible(jobs, async {
        contest_run::judge_contest(
            &judge,
            info,
            discovered,
            args.partition,
            &options,
            |done, total, entry| {
                let what = crate::report::printable_line(if entry.file.is_empty() {
                    &entry.contestant
                } else {
                    &entry.file
                })
                .into_owned();
                let verdict = match (&entry.report, &entry.error) {
                    (Some(r), _) => r.verdict.to_string(),
                    (None, Some(_)) => "not judged".into(),
                    (None, None) => String::new(),
                };
                match &bar {
                    Some(bar) => {
                        bar.set_length(total as u64);
                        bar.set_position(done as u64);
                        bar.set_message(format!("{what}: {verdict}"));
                    }
                    None => eprintln!("[{done}/{total}] {what}: {verdict}"),
                }
            },
        )
        .await
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    write_contest_outputs(&results, &args.out, args.format)?;
    Ok(exit_code::OK)
}

/// Makes `dir` (if missing) and checks that files can be written in it.
fn writable_dir(dir: &std::path::Path) -> Result<()> {
    let write = |source| Error::Write {
        path: dir.to_path_buf(),
        source,
    };
    if dir.exists() && !dir.is_dir() {
        return Err(write(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "--out must name a directory, and this is not one",
        )));
    }
    std::fs::create_dir_all(dir).map_err(write)?;
    tempfile::NamedTempFile::new_in(dir).map_err(write)?;
    Ok(())
}

fn merge(args: MergeArgs) -> Result<i32> {
    writable_dir(&args.out)?;
    let mut parts = Vec::new();
    for path in &args.parts {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let results: crate::contest::Results = serde_json::from_str(&text).map_err(|e| {
            Error::Usage(format!(
                "{} is not a results.json of `judge batch`: {e}",
                path.display()
            ))
        })?;
        parts.push((path.clone(), results));
    }
    let merged = crate::contest::Results::merge(parts)?;
    write_contest_outputs(&merged, &args.out, args.format)?;
    Ok(exit_code::OK)
}

/// Writes results.json, scoreboard.txt, scoreboard.html and junit.xml to
/// `out`, and prints the chosen format on stdout.
fn write_contest_outputs(
    results: &crate::contest::Results,
    out: &std::path::Path,
    format: Format,
) -> Result<()> {
    use crate::report::scoreboard;
    writable_dir(out)?;
    let json = serde_json::to_string_pretty(results).expect("serialisable") + "\n";
    let text = scoreboard::render_text(results);
    let suites: Vec<JunitSubmission> = results
        .entries
        .iter()
        .filter_map(|e| {
            e.report.as_ref().map(|r| JunitSubmission {
                suite: e.file.clone(),
                report: r,
                expected: None,
            })
        })
        .collect();
    let junit_xml = junit::render(&format!("judge batch: {}", results.contest.title), &suites);
    for (name, content) in [
        ("results.json", json.as_str()),
        ("scoreboard.txt", text.as_str()),
        ("scoreboard.html", &scoreboard::render_html(results)),
        ("junit.xml", junit_xml.as_str()),
    ] {
        let path = out.join(name);
        std::fs::write(&path, content).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
    }
    match format {
        Format::Human => print!("{text}"),
        Format::Json => print!("{json}"),
        Format::Junit => print!("{junit_xml}"),
    }
    Ok(())
}

/// Checks that a file named on the command line exists and is a regular file
/// (a link to one is followed): a device or a pipe would be read forever.
fn regular_file(file: &std::path::Path) -> Result<()> {
    let why = match std::fs::metadata(file) {
        Ok(meta) if meta.is_file() => return Ok(()),
        Ok(_) => std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a device, pipe or directory cannot be judged or read as a test)",
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")
        }
        Err(e) => e,
    };
    Err(Error::io(file, why))
}

/// A file named on the command line, with its language.
fn submission_of(
    config: &Config,
    file: &std::path::Path,
    lang: Option<&str>,
) -> Result<Submission> {
    regular_file(file)?;
    let language = match lang {
        Some(id) => config.language_by_id(id, file)?,
        None => config.detect_language(file)?,
    };
    Ok(Submission {
        path: file.to_path_buf(),
        language,
    })
}

fn stress(config: Config, args: StressArgs, isolation: IsolationMode) -> Result<i32> {
    use crate::stress::{Against, Progress, StressOptions};
    if args.iterations == Some(0) {
        return Err(Error::Usage("--iterations must be at least 1".into()));
    }
    let problem = Arc::new(Problem::find(&args.problem, &config)?);
    let submission = submission_of(&config, &args.file, args.lang.as_deref())?;
    let against = match args.against.as_str() {
        "reference" => Against::Reference,
        "brute" => Against::Brute,
        other => Against::File(Box::new(submission_of(
            &config,
            std::path::Path::new(other),
            None,
        )?)),
    };
    let options = StressOptions {
        against,
        seed: args.seed,
        iterations: args.iterations,
        time: args.time,
    };
    let save = args.save.clone().unwrap_or_else(|| {
        crate::stress::default_save_path(&config.cache_dir, &problem.id, args.seed)
    });
    let show_progress = std::io::stderr().is_terminal();
    let jobs = config.jobs;
    let judge = start_judge(config, isolation, std::slice::from_ref(&problem))?;
    let mut report = block_on_interruptible(jobs, async {
        crate::stress::stress(&judge, &problem, &submission, &options, |p| {
            if !show_progress {
                return;
            }
            match p {
                Progress::Searching {
                    done,
                    invalid,
                    per_second,
                    size,
                } => {
                    let size = size.map(|s| format!(", size {s}")).unwrap_or_default();
                    eprintln!(
                        "stress: {done} iterations, {per_second}/s{size}, {invalid} invalid skipped"
                    );
                }
                Progress::Shrinking { tried, smallest } => {
                    eprintln!(
                        "shrinking: {tried} candidates tried, smallest failing input {smallest} bytes"
                    );
                }
            }
        })
        .await
    })?;
    if let Some(c) = &mut report.counterexample {
        if let Some(parent) = save.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        std::fs::write(&save, c.minimal.input.as_bytes()).map_err(|e| Error::io(&save, e))?;
        let shown = save
            .strip_prefix(std::env::current_dir().unwrap_or_default())
            .unwrap_or(&save)
            .to_path_buf();
        c.replay = Some(format!(
            "judge run {} {} --input {}",
            args.problem,
            args.file.display(),
            shown.display()
        ));
        c.saved = Some(shown);
    }
    let mut out = std::io::stdout();
    let text = match args.format {
        Format::Human => crate::stress::render_human(&report),
        Format::Json => serde_json::to_string(&report).expect("serialisable") + "\n",
        Format::Junit => {
            return Err(Error::Usage(
                "judge stress has no JUnit output (use --format human or json)".into(),
            ))
        }
    };
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    Ok(if report.counterexample.is_some() {
        exit_code::NOT_ACCEPTED
    } else {
        exit_code::OK
    })
}

fn gen(config: Config, args: GenArgs, isolation: IsolationMode) -> Result<i32> {
    let problem = Arc::new(Problem::find(&args.problem, &config)?);
    let jobs = config.jobs;
    let judge = start_judge(config, isolation, std::slice::from_ref(&problem))?;
    let tests = block_on_interruptible(jobs, async {
        testset::materialise(&judge, &problem, &TestFilter::default()).await
    })?;
    let layout = match args.format {
        GenFormat::Numbered => crate::export::Layout::Numbered,
        GenFormat::Oj => crate::export::Layout::Oj,
    };
    let written = crate::export::write(&problem.id, &tests, &args.out, layout, args.force)?;
    let mut out = std::io::stdout();
    let width = written.iter().map(|e| e.input.len()).max().unwrap_or(0);
    for e in &written {
        let _ = writeln!(out, "{:<width$}  {}", e.input, e.test);
    }
    let _ = writeln!(
        out,
        "wrote {} tests of {} to {}",
        written.len(),
        problem.id,
        args.out.display()
    );
    Ok(exit_code::OK)
}

fn list(config: &Config, args: ListArgs) -> Result<i32> {
    let ids = Problem::list_ids(config);
    let mut rows = Vec::new();
    let mut code = exit_code::OK;
    for id in ids {
        // A broken package is reported and skipped; the others are still listed.
        let loaded = Problem::load(&config.problems_dir.join(&id), config)
            .and_then(|p| testset::count(&p).map(|n| (p, n)));
        match loaded {
            Ok(row) => rows.push(row),
            Err(e) => {
                eprintln!("{}", render_chain(&e));
                code = exit_code::COULD_NOT_JUDGE;
            }
        }
    }
    let mut out = std::io::stdout();
    match args.format {
        ListFormat::Json => {
            for (p, tests) in &rows {
                let line = serde_json::json!({
                    "id": p.id,
                    "title": p.title,
                    "source": p.source,
                    "time_limit_ms": p.limits.time.as_millis() as u64,
                    "memory_limit_kib": p.limits.memory / 1024,
                    "output_limit_kib": p.limits.output / 1024,
                    "tests": tests,
                });
                let _ = writeln!(out, "{line}");
            }
        }
        ListFormat::Human => {
            if rows.is_empty() {
                let _ = writeln!(out, "no problems in {}", config.problems_dir.display());
            }
            let width = rows
                .iter()
                .map(|(p, _)| p.id.len())
                .max()
                .unwrap_or(2)
                .max(2);
            let _ = writeln!(
                out,
                "{:<width$}  {:>7}  {:>9}  {:>5}  TITLE",
                "ID", "TIME", "MEMORY", "TESTS"
            );
            for (p, tests) in &rows {
                let _ = writeln!(
                    out,
                    "{:<width$}  {:>7}  {:>9}  {:>5}  {}",
                    p.id,
                    crate::units::format_ms(p.limits.time.as_millis() as u64),
                    format_kib(p.limits.memory / 1024),
                    tests,
                    p.title
                );
            }
        }
    }
    Ok(code)
}
