//! The command line as clap sees it: flags, subcommands and their
//! arguments, parsed but not yet checked against judge.toml (see
//! [`super::settings`]).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::sandbox::{CpuChoice, IsolationMode};
use crate::units::{parse_duration, parse_memory_limit};

/// A local online-judge grader: compile, run under limits, check, diff, report.
#[derive(Debug, Parser)]
#[command(name = "judge", version, about, long_about = None)]
pub(crate) struct Cli {
    /// Use this judge.toml instead of the nearest one above the current directory.
    #[arg(long, global = true, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
    /// Run at most N tests at once (default: judge.toml's `jobs`, else the number of CPUs).
    #[arg(short, long, global = true, value_name = "N")]
    pub(crate) jobs: Option<usize>,
    /// With one job (`-j 1`), keep the judging on one CPU: `auto` (default:
    /// one no other judge has claimed), `off`, or a CPU number.
    #[arg(long, global = true, value_name = "auto|off|N")]
    pub(crate) cpu: Option<CpuChoice>,
    /// When to use colours in human output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub(crate) color: ColorChoice,
    /// How submissions are isolated: `strict` refuses to judge without full
    /// isolation (namespaces + cgroup), `auto` uses the best available and
    /// warns when weaker, `none` runs with process groups and rlimits only.
    #[arg(long, global = true, value_enum, default_value_t = IsolationChoice::Auto)]
    pub(crate) isolation: IsolationChoice,
    /// Judge every test again instead of reusing results from the result cache.
    #[arg(long, global = true)]
    pub(crate) no_cache: bool,
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Colour choice.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Isolation choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum IsolationChoice {
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
pub(crate) enum Format {
    /// Text for people.
    Human,
    /// One JSON object per submission, one per line (schema: docs/json-report.md).
    Json,
    /// JUnit XML: a testcase per submission x test (for CI systems).
    Junit,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
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
    /// Write a problem as a package of another format (an ICPC/Kattis
    /// package, for problemtools, DOMjudge, Kattis).
    Export(ExportArgs),
    /// Run a live contest: a web server for teams and the jury, the ICPC
    /// Contest API, and the judging, from CONTEST_DIR/contest.toml.
    Serve(ServeArgs),
    /// Judge a contest server's submissions on this machine: take them
    /// from its PostgreSQL queue, judge them with this machine's copy of
    /// the problems (one slot per core by default, -j N), write the results.
    Judgehost(JudgehostArgs),
    /// Submit a file to a contest server (`judge serve`, or any server of
    /// the ICPC Contest API), as DOMjudge's submit client does.
    Submit(SubmitArgs),
    /// Download a contest's archive from its server (`judge serve`) as the
    /// jury: the Contest API's contest package, a zip that `judge batch`
    /// replays once unzipped.
    Archive(ArchiveArgs),
    /// Generate passwords for a contest's teams and jury: their hashes go
    /// into contest.toml, the passwords to hand out are printed.
    Passwords(PasswordsArgs),
    /// Receive problems from Competitive Companion (the browser extension)
    /// and keep each as a folder of samples in DIR, ready for `judge run`.
    Listen(ListenArgs),
}

/// Arguments of `judge serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The contest directory: its contest.toml gives the problems, the
    /// clock, the teams and the jury.
    pub(crate) dir: PathBuf,
    /// The address to listen on (default 127.0.0.1:8080; another address,
    /// such as 0.0.0.0:8080 for a LAN, only when given).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub(crate) listen: String,
    /// The contest's database: an SQLite file (default
    /// CONTEST_DIR/.judge-serve/contest.sqlite) or a PostgreSQL URL
    /// (`postgres://user@host/db`), which judging hosts on other machines
    /// share (`judge judgehost`). Its password: PGPASSWORD, ~/.pgpass or
    /// --db-password-file, never in the URL (any user sees it in `ps`).
    #[arg(long, value_name = "PATH|URL")]
    pub(crate) db: Option<String>,
    /// A file whose first line is the PostgreSQL database's password.
    #[arg(long, value_name = "FILE")]
    pub(crate) db_password_file: Option<PathBuf>,
    /// Judge with the isolation this machine offers even when it is not
    /// full (the default refuses to start without it, and refuses
    /// `--isolation none`): teams' programs are then less contained.
    #[arg(long)]
    pub(crate) insecure: bool,
    /// Only serve: leave the judging to `judge judgehost` processes (on
    /// this machine or others, over a PostgreSQL --db).
    #[arg(long)]
    pub(crate) no_judging: bool,
}

/// Arguments of `judge judgehost`.
#[derive(Debug, clap::Args)]
pub(crate) struct JudgehostArgs {
    /// This host's copy of the contest directory (contest.toml and the
    /// problems it names): it must match the server's, by content hash.
    pub(crate) dir: PathBuf,
    /// The contest server's PostgreSQL database (`postgres://user@host/db`;
    /// the password from PGPASSWORD, ~/.pgpass or --db-password-file).
    #[arg(long, value_name = "URL")]
    pub(crate) db: String,
    /// A file whose first line is the database's password.
    #[arg(long, value_name = "FILE")]
    pub(crate) db_password_file: Option<PathBuf>,
    /// This host's name in the queue's claims (default: the machine's
    /// name); two hosts on one database need two names.
    #[arg(long, value_name = "NAME")]
    pub(crate) name: Option<String>,
    /// Judge with the isolation this machine offers even when it is not
    /// full (as `judge serve --insecure`).
    #[arg(long)]
    pub(crate) insecure: bool,
}

/// Arguments of `judge submit`.
#[derive(Debug, clap::Args)]
pub(crate) struct SubmitArgs {
    /// The server's address (`http://10.0.0.1:8080`).
    #[arg(long, value_name = "URL")]
    pub(crate) server: String,
    /// Your team's id (the login).
    #[arg(long, value_name = "ID")]
    pub(crate) team: String,
    /// The file to submit.
    pub(crate) file: PathBuf,
    /// The problem (id or label; default: the file's name without its
    /// extension, as DOMjudge's client does).
    #[arg(long, short, value_name = "P")]
    pub(crate) problem: Option<String>,
    /// The language (id or extension; default: the file's extension).
    #[arg(long, short, value_name = "L")]
    pub(crate) language: Option<String>,
    /// The contest's id (default: the server's only contest).
    #[arg(long, value_name = "ID")]
    pub(crate) contest: Option<String>,
}

/// Arguments of `judge archive`.
#[derive(Debug, clap::Args)]
pub(crate) struct ArchiveArgs {
    /// The server's address (`http://10.0.0.1:8080`); the jury's password
    /// from JUDGE_PASSWORD or ~/.netrc (`login jury`).
    #[arg(long, value_name = "URL")]
    pub(crate) server: String,
    /// The contest's id (default: the server's only contest).
    #[arg(long, value_name = "ID")]
    pub(crate) contest: Option<String>,
    /// Where to write the zip (default: CONTEST-ID.zip in the current
    /// folder).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
}

/// Arguments of `judge passwords`.
#[derive(Debug, clap::Args)]
pub(crate) struct PasswordsArgs {
    /// The contest directory (its contest.toml is rewritten).
    pub(crate) dir: PathBuf,
    /// Give every team and the jury a new password, also those that have one.
    #[arg(long)]
    pub(crate) all: bool,
}

/// Arguments of `judge listen`.
#[derive(Debug, clap::Args)]
pub(crate) struct ListenArgs {
    /// The port on 127.0.0.1 (27121, the one Competitive Companion posts to
    /// for CPH; its others: 10043, 10045, 1327, 4244, 6174, 10042; 0: any
    /// free port, to be added to the extension's custom ports).
    #[arg(long, default_value_t = 27121)]
    pub(crate) port: u16,
    /// The folder problems are written to (created if missing).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub(crate) dir: PathBuf,
    /// Stop after receiving N problems (default: until Ctrl-C).
    #[arg(long, value_name = "N")]
    pub(crate) count: Option<u64>,
}

/// Arguments of `judge stress`.
#[derive(Debug, clap::Args)]
pub(crate) struct StressArgs {
    /// Problem id (looked up in problems/) or path to a problem directory.
    pub(crate) problem: String,
    /// The file to stress (a source, or a ready executable).
    pub(crate) file: PathBuf,
    /// Language of FILE, overriding detection by extension.
    #[arg(long, value_name = "NAME")]
    pub(crate) lang: Option<String>,
    /// What gives the expected answers: the package's `reference`, its
    /// `brute` force (inputs outside its bounds are skipped), or another
    /// file, trusted like a reference but run in the sandbox (write
    /// `./brute` for a file named brute).
    #[arg(long, value_name = "reference|brute|FILE", default_value = "reference")]
    pub(crate) against: String,
    /// A generator to use instead of the package's (a samples folder has
    /// none): a source or executable run as `FILE {seed} {size}` (see
    /// --generator-args) that prints one input.
    #[arg(long, value_name = "FILE")]
    pub(crate) generator: Option<PathBuf>,
    /// The arguments of --generator's file, `{seed}` and `{size}` replaced
    /// by each iteration's (split on whitespace).
    #[arg(
        long,
        value_name = "ARGS",
        default_value = "{seed} {size}",
        requires = "generator"
    )]
    pub(crate) generator_args: String,
    /// Seed of the whole run: the same seed and budget give the same
    /// counterexample and minimal input.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Stop after N iterations (default 1000 when --time is not given).
    #[arg(long, value_name = "N")]
    pub(crate) iterations: Option<u64>,
    /// Stop starting iterations after this long (e.g. 30s, 2m).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub(crate) time: Option<std::time::Duration>,
    /// Where to write the minimal input (default: `<cache>/stress/<problem>-<seed>.in`).
    #[arg(long, value_name = "PATH")]
    pub(crate) save: Option<PathBuf>,
    /// Output format (`json`: one object, schema in docs/json-report.md).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
}

/// Arguments of `judge batch`.
#[derive(Debug, clap::Args)]
pub(crate) struct BatchArgs {
    /// The contest directory: DIR/CONTESTANT/PROBLEM.EXT, further attempts
    /// PROBLEM.2.EXT, ...; an optional DIR/contest.toml.
    pub(crate) dir: PathBuf,
    /// Where to write the results and scoreboards.
    #[arg(long, value_name = "OUTDIR")]
    pub(crate) out: PathBuf,
    /// Scoring mode (default: contest.toml's, else icpc).
    #[arg(long, value_enum)]
    pub(crate) scoring: Option<crate::contest::Scoring>,
    /// ICPC penalty minutes per rejected attempt (default: contest.toml's, else 20).
    #[arg(long, value_name = "MINUTES")]
    pub(crate) penalty: Option<u64>,
    /// Judge only part K of N of the submissions (slice:K/N); merge the parts with `judge merge`.
    #[arg(long, value_name = "slice:K/N")]
    pub(crate) partition: Option<crate::partition::Partition>,
    /// Run every test of every submission. By default judging is lazy, as
    /// DOMjudge's and Kattis': under ICPC scoring a submission stops at its
    /// first failing test (the verdict is decided), under IOI scoring a
    /// subtask stops at its first failing test (its points are lost) while
    /// the other subtasks run. Tests not run are listed as such.
    #[arg(long)]
    pub(crate) all_tests: bool,
    /// What to print on stdout: the scoreboard, results.json, or JUnit XML.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
}

/// Arguments of `judge merge`.
#[derive(Debug, clap::Args)]
pub(crate) struct MergeArgs {
    /// The results.json of every part.
    #[arg(required = true)]
    pub(crate) parts: Vec<PathBuf>,
    /// Where to write the combined results and scoreboards.
    #[arg(long, value_name = "OUTDIR")]
    pub(crate) out: PathBuf,
    /// What to print on stdout.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Merge even when parts are missing; the scoreboards then say they are
    /// partial and which parts they lack.
    #[arg(long)]
    pub(crate) allow_partial: bool,
}

/// Arguments of `judge gen`.
#[derive(Debug, clap::Args)]
pub(crate) struct GenArgs {
    /// Problem id (looked up in problems/) or path to a problem directory.
    pub(crate) problem: String,
    /// The directory to write (created if missing; must be empty unless --force).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// File layout.
    #[arg(long, value_enum, default_value_t = GenFormat::Numbered)]
    pub(crate) format: GenFormat,
    /// Write into a non-empty DIR, replacing the `*.in`, `*.ans` and `*.out` files in it.
    #[arg(long)]
    pub(crate) force: bool,
}

/// Arguments of `judge export`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExportArgs {
    /// Problem id (looked up in problems/) or path to a problem package.
    pub(crate) problem: String,
    /// The package format to write.
    #[arg(long, value_enum, default_value_t = ExportFormat::Kattis)]
    pub(crate) format: ExportFormat,
    /// The package directory to write (created if missing; must be empty unless --force).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// Write into a non-empty DIR, replacing the package's own files and folders in it.
    #[arg(long)]
    pub(crate) force: bool,
}

/// Package formats `judge export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    /// The ICPC problem package format, legacy version: the one problemtools
    /// (Kattis) and DOMjudge both read; BAPCtools reads only 2025-09.
    Kattis,
    /// The same as `kattis`: the legacy version (problemtools, Kattis, DOMjudge).
    KattisLegacy,
    /// Version 2023-07 (problemtools and Kattis; not BAPCtools, not DOMjudge).
    #[value(name = "kattis-2023-07")]
    Kattis2023_07,
    /// Version 2025-09 (BAPCtools; problemtools' current release refuses it).
    #[value(name = "kattis-2025-09")]
    Kattis2025_09,
}

/// File layout of `judge gen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum GenFormat {
    /// `01.in` / `01.ans`, ... in test order.
    Numbered,
    /// online-judge-tools' `test/` folder: `sample-1.in` / `sample-1.out`, then `NAME.in` / `NAME.out`.
    Oj,
}

/// Arguments of `judge new`.
#[derive(Debug, clap::Args)]
pub(crate) struct NewArgs {
    /// The new problem's id (e.g. hdu-1847).
    pub(crate) id: String,
}

/// Arguments of `judge verify`.
#[derive(Debug, clap::Args)]
pub(crate) struct VerifyArgs {
    /// Problem ids or paths (default: every problem of the workspace).
    pub(crate) problems: Vec<String>,
    /// Verify only part K of N of the problems (slice:K/N), for CI matrices.
    #[arg(long, value_name = "slice:K/N")]
    pub(crate) partition: Option<crate::partition::Partition>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
}

/// Arguments of `judge run`.
#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    /// Problem id (looked up in problems/) or path to a problem directory.
    pub(crate) problem: String,
    /// Submission files (sources, or ready executables).
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
    /// Language of the files, overriding detection by extension (e.g. cpp, python).
    #[arg(long, value_name = "NAME")]
    pub(crate) lang: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub(crate) format: Format,
    /// Stop starting new tests after the first failure.
    #[arg(long)]
    pub(crate) fail_fast: bool,
    /// Run only the tests whose names match these globs (e.g. 'sample-*').
    #[arg(long = "tests", value_name = "GLOB", num_args = 1..)]
    pub(crate) tests: Vec<String>,
    /// Run on this one input file (`-`: standard input) instead of the test
    /// set, print the output, and check it against the reference solution's
    /// answer when there is one. The problem's validator checks it first.
    #[arg(long, value_name = "FILE")]
    pub(crate) input: Option<PathBuf>,
    /// Override the problem's time limit (e.g. 2s, 500ms).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub(crate) time_limit: Option<std::time::Duration>,
    /// Override the problem's memory limit (e.g. 256MiB).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory_limit)]
    pub(crate) memory_limit: Option<u64>,
    /// Show the diff of every failing test, not only the first.
    #[arg(long)]
    pub(crate) all_diffs: bool,
    /// Judge only part K of N of the files (slice:K/N), for CI matrices.
    #[arg(long, value_name = "slice:K/N")]
    pub(crate) partition: Option<crate::partition::Partition>,
}

/// Arguments of `judge list`.
#[derive(Debug, clap::Args)]
pub(crate) struct ListArgs {
    /// List the languages of judge.toml instead: which are usable on this
    /// machine (compiler and runtime installed), with their versions.
    #[arg(long)]
    pub(crate) languages: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Human)]
    pub(crate) format: ListFormat,
}

/// Output format of `judge list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ListFormat {
    /// A table.
    Human,
    /// One JSON object per problem (or language) per line.
    Json,
}
