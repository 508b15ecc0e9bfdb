//! The format-independent problem model: what every loader produces and
//! the rest of the judge reads. The main type is [`Problem`].

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use super::format::Format;
use crate::verdict::Verdict;

/// The most tests a problem may have (and the most extra inputs its brute
/// force may be checked on): the test set is planned in memory.
pub(crate) const MAX_TESTS: u64 = 100_000;

/// A validated problem package.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    /// Short id, equal to the directory name (`acwing-891`).
    pub(crate) id: String,
    /// Title.
    pub(crate) title: String,
    /// Where the original lives.
    pub(crate) source: Option<String>,
    /// The package directory.
    pub(crate) dir: PathBuf,
    /// The package's on-disk format.
    pub(crate) format: Format,
    /// Where the fixed tests live.
    pub(crate) testdata_dir: PathBuf,
    /// Limits for submissions.
    pub(crate) limits: ProblemLimits,
    /// Limits of its generators, input validators, reference and brute force.
    pub(crate) program_limits: ProgramLimits,
    /// Limits of its checker (output validator) and interactor.
    pub(crate) checker_limits: ProgramLimits,
    /// Whether `limits.time` is final or to be inferred from the accepted solutions.
    pub(crate) time_rule: TimeRule,
    /// The factor of the time limit at which `verify` asks whether a
    /// solution's verdict would change (problemtools' time_limit_to_tle,
    /// legacy time_safety_margin): a solution whose verdict differs there,
    /// or an accepted one past the limit divided by it, is "sensitive to the
    /// time limit".
    pub(crate) time_limit_to_tle: f64,
    /// How outputs are compared (for an interactive problem, what the
    /// interactor wrote, once it accepted: see [`InteractorSpec`]).
    pub(crate) checker: CheckerSpec,
    /// The interactor of an interactive problem: the submission talks to
    /// it instead of reading a file.
    pub(crate) interactor: Option<InteractorSpec>,
    /// The reference solution.
    pub(crate) reference: Option<ProgramSpec>,
    /// The test generator.
    pub(crate) generator: Option<ProgramSpec>,
    /// More generators, by the name tests use for them (Polygon's `cmd`).
    pub(crate) generators: BTreeMap<String, ProgramSpec>,
    /// The input validators: every input must pass each (the first is the
    /// one `judge stress` and the brute force's bounds use).
    pub(crate) validators: Vec<ValidatorSpec>,
    /// The brute force.
    pub(crate) brute: Option<BruteSpec>,
    /// How `judge stress` generates its inputs (`None` without a generator).
    pub(crate) stress: Option<StressSpec>,
    /// Test groups, in test order.
    pub(crate) groups: Vec<TestGroup>,
    /// Example solutions with expected verdicts.
    pub(crate) solutions: Vec<SolutionSpec>,
    /// What the loader read but does not use, or guessed, for people to see.
    pub(crate) notes: Vec<String>,
    /// Whether submissions read and write files instead of stdin and stdout.
    pub(crate) files: FileIo,
    /// Named values replaced in the sources of its validators, checker,
    /// interactor and generators (the ICPC format's `constants`).
    pub(crate) constants: super::Constants,
    /// A multi-pass problem's most passes (`limits.validation_passes`):
    /// while its output validator accepts and writes `nextpass.in`, the
    /// submission runs again on it. `None`: one pass.
    pub(crate) validation_passes: Option<u32>,
    /// A submit-answer problem: a submission is its answers (a file, or a
    /// folder of one file per test), checked as they are; nothing runs.
    pub(crate) submit_answer: bool,
}

/// Where a submission reads its input and writes its output: stdin and
/// stdout, or files of its working directory (`input.txt`, `output.txt`),
/// as some judges ask and Competitive Companion's `input` and `output` say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FileIo {
    /// The file the input is in (stdin is then empty); `None`: stdin.
    pub(crate) input: Option<String>,
    /// The file the output is read from (stdout is then ignored); `None`: stdout.
    pub(crate) output: Option<String>,
}

impl FileIo {
    /// Whether the problem uses stdin and stdout only.
    pub(crate) fn is_standard(&self) -> bool {
        self.input.is_none() && self.output.is_none()
    }

    /// For people: "reads input.txt, writes output.txt".
    pub(crate) fn describe(&self) -> String {
        let input = self.input.as_deref().unwrap_or("stdin");
        let output = self.output.as_deref().unwrap_or("stdout");
        format!("reads {input}, writes {output}")
    }
}

impl Problem {
    /// What every loader starts from: a problem of `format` in `dir`, named
    /// after it, its tests under `testdata_dir`, with judge.toml's limits, the token
    /// checker, standard input and output, and no programs, tests, solutions
    /// nor notes. A loader sets what its format says over it.
    pub(crate) fn base(
        dir: PathBuf,
        format: Format,
        testdata_dir: PathBuf,
        config: &crate::config::Config,
    ) -> Problem {
        let id = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Problem {
            title: id.clone(),
            id,
            source: None,
            dir,
            format,
            testdata_dir,
            limits: ProblemLimits {
                time: config.limits.time,
                memory: config.limits.memory,
                output: config.limits.output,
            },
            program_limits: ProgramLimits::defaults(config),
            checker_limits: ProgramLimits::defaults(config),
            time_rule: TimeRule::Fixed,
            time_limit_to_tle: TIME_LIMIT_TO_TLE,
            checker: CheckerSpec::Tokens {
                case_sensitive: true,
            },
            interactor: None,
            reference: None,
            generator: None,
            generators: BTreeMap::new(),
            validators: Vec::new(),
            brute: None,
            stress: None,
            groups: Vec::new(),
            solutions: Vec::new(),
            notes: Vec::new(),
            files: FileIo::default(),
            constants: super::Constants::default(),
            validation_passes: None,
            submit_answer: false,
        }
    }

    /// The folders the package may read from: its directory and its test
    /// data folder.
    pub(crate) fn root(&self) -> std::io::Result<super::PackageRoot> {
        Ok(super::PackageRoot::new(&self.dir)?.with(&self.testdata_dir))
    }

    /// The validator `judge stress` and the brute force's bounds use.
    pub(crate) fn validator(&self) -> Option<&ValidatorSpec> {
        self.validators.first()
    }
}

/// The interactor of an interactive problem.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct InteractorSpec {
    /// The program.
    pub(crate) program: ProgramSpec,
    /// How it is called and what its exit means.
    pub(crate) protocol: InteractorProtocol,
}

/// How an interactor is called (its stdin is the submission's stdout, its
/// stdout the submission's stdin) and what its exit means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InteractorProtocol {
    /// testlib's: `interactor INPUT OUTPUT [ANSWER]`; exit 0 accepted, 1
    /// wrong answer, 2 presentation error, 7 points, else failed. OUTPUT is
    /// a file it writes, which the problem's checker (when it has its own)
    /// then checks.
    Testlib,
    /// The ICPC/Kattis package format's (`icpc` in problem.toml):
    /// `validator INPUT ANSWER FEEDBACK_DIR/`; exit 42 accepted, 43 wrong
    /// answer, else failed.
    Kattis,
}

impl InteractorProtocol {
    /// The name in problem.toml and reports.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            InteractorProtocol::Testlib => "testlib",
            InteractorProtocol::Kattis => "icpc",
        }
    }
}

/// How a problem's time limit is set.
/// problemtools' default time_limit_to_tle (the 2023-07 format's).
pub(crate) const TIME_LIMIT_TO_TLE: f64 = 1.5;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum TimeRule {
    /// `limits.time` is the limit.
    Fixed,
    /// The limit comes from the accepted solutions: the CPU time of the
    /// slowest of them on its slowest test, times `multiplier`, rounded up to
    /// a multiple of `resolution`, and at least `minimum` (the ICPC package
    /// format without a `time_limit`).
    Inferred {
        /// The factor over the slowest accepted run.
        multiplier: f64,
        /// The limit is a multiple of this.
        resolution: Duration,
        /// The limit is at least this.
        minimum: Duration,
    },
}

/// Limits of one run of a package's own program (its wall-clock limit is
/// twice its CPU time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProgramLimits {
    /// CPU time per run.
    pub(crate) time: Duration,
    /// Memory per run, bytes.
    pub(crate) memory: u64,
    /// What a run may print, and the largest file it may write, bytes.
    pub(crate) output: u64,
}

impl ProgramLimits {
    /// judge.toml's `package_time`, `package_memory` and `package_output`.
    pub(crate) fn defaults(config: &crate::config::Config) -> ProgramLimits {
        ProgramLimits {
            time: config.limits.package_time,
            memory: config.limits.package_memory,
            output: config.limits.package_output,
        }
    }
}

/// Limits of a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProblemLimits {
    /// CPU time per test.
    pub(crate) time: Duration,
    /// Memory per test, bytes.
    pub(crate) memory: u64,
    /// Stdout per test, bytes.
    pub(crate) output: u64,
}

impl ProblemLimits {
    /// The limits a submission in `language` gets: the time limit times the
    /// language's `time_factor` (whole milliseconds).
    pub(crate) fn for_language(self, language: &crate::config::Language) -> ProblemLimits {
        if language.time_factor == 1.0 {
            return self;
        }
        let ms = (self.time.as_secs_f64() * 1000.0 * language.time_factor).round();
        ProblemLimits {
            time: Duration::from_millis(ms.max(1.0) as u64),
            ..self
        }
    }
}

/// How outputs are compared with answers.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckerSpec {
    /// Whitespace-separated tokens (default).
    Tokens {
        /// Whether letter case matters (default true).
        case_sensitive: bool,
    },
    /// Lines, ignoring trailing whitespace and trailing blank lines.
    Lines,
    /// Bytes; PE when only whitespace differs.
    Exact,
    /// Tokens, numbers compared with a tolerance.
    Float {
        /// Absolute tolerance.
        abs: f64,
        /// Relative tolerance.
        rel: f64,
    },
    /// An external checker speaking the testlib protocol.
    Custom(ProgramSpec),
    /// The ICPC package format's default output validator: tokens,
    /// case-insensitive unless a test's checker arguments say
    /// `case_sensitive`; `space_change_sensitive`; `float_tolerance`,
    /// `float_absolute_tolerance`, `float_relative_tolerance` ε.
    KattisDefault,
    /// An output validator speaking the ICPC protocol: run as `validator
    /// input answer feedback_dir [args] < output`; exit 42 = AC, 43 = WA.
    Kattis(ProgramSpec),
}

impl CheckerSpec {
    /// A short description for reports and cache keys.
    pub fn describe(&self) -> String {
        match self {
            CheckerSpec::Tokens { case_sensitive } => {
                format!("tokens(case_sensitive={case_sensitive})")
            }
            CheckerSpec::Lines => "lines".into(),
            CheckerSpec::Exact => "exact".into(),
            CheckerSpec::Float { abs, rel } => format!("float(abs={abs},rel={rel})"),
            CheckerSpec::Custom(p) => format!("custom({})", p.path.display()),
            CheckerSpec::KattisDefault => "kattis-default".into(),
            CheckerSpec::Kattis(p) => format!("kattis({})", p.path.display()),
        }
    }
}

/// The default validator's flags.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct DefaultFlags {
    /// Letter case matters.
    pub(crate) case_sensitive: bool,
    /// Whitespace must match byte for byte.
    pub(crate) space_change_sensitive: bool,
    /// Absolute tolerance for numbers.
    pub(crate) absolute: Option<f64>,
    /// Relative tolerance for numbers.
    pub(crate) relative: Option<f64>,
}

impl DefaultFlags {
    /// Parses the flags; an unknown flag, or a tolerance without a number,
    /// is an error (problemtools' validator aborts: a judge error).
    pub(crate) fn parse(args: &[String]) -> Result<DefaultFlags, String> {
        let mut flags = DefaultFlags::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut tolerance = || -> Result<f64, String> {
                let value = args
                    .next()
                    .ok_or_else(|| format!("`{arg}` needs a number after it"))?;
                match value.parse::<f64>() {
                    Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
                    _ => Err(format!("`{arg} {value}`: not a number >= 0")),
                }
            };
            match arg.as_str() {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" => flags.absolute = Some(tolerance()?),
                "float_relative_tolerance" => flags.relative = Some(tolerance()?),
                "float_tolerance" => {
                    let v = tolerance()?;
                    flags.absolute = Some(v);
                    flags.relative = Some(v);
                }
                other => {
                    return Err(format!(
                        "unknown flag `{other}` of the default output validator (known: \
                         case_sensitive, space_change_sensitive, float_tolerance, \
                         float_absolute_tolerance, float_relative_tolerance)"
                    ))
                }
            }
        }
        Ok(flags)
    }
}

/// What a program of a package is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Makes inputs.
    Generator,
    /// Gives the answers.
    Reference,
    /// Accepts or rejects inputs.
    Validator,
    /// Judges outputs.
    Checker,
    /// A slow solution the reference is checked against.
    Brute,
    /// Talks to submissions and judges them.
    Interactor,
}

impl Role {
    /// Its name in messages.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Role::Generator => "generator",
            Role::Reference => "reference",
            Role::Validator => "validator",
            Role::Checker => "checker",
            Role::Brute => "brute force",
            Role::Interactor => "interactor",
        }
    }
}

/// A program of the package (path absolute, language optional).
#[derive(Debug, Clone, PartialEq)]
pub struct ProgramSpec {
    /// Source file.
    pub path: PathBuf,
    /// Language id, if not detected by extension.
    pub lang: Option<String>,
}

/// An input validator and its fixed arguments.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValidatorSpec {
    /// The program.
    pub(crate) program: ProgramSpec,
    /// Arguments always passed.
    pub(crate) args: Vec<String>,
    /// The exit code that means valid: 0 (judge's own and testlib
    /// validators), 42 (the ICPC package format).
    pub(crate) valid_exit: i32,
}

/// The brute force and the inputs it covers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BruteSpec {
    /// The program.
    pub(crate) program: ProgramSpec,
    /// Human description of the bounds it covers.
    pub(crate) covers: String,
    /// Validator arguments under which the validator accepts exactly the covered inputs.
    pub(crate) validator_args: Vec<String>,
    /// Generator arguments for extra small inputs (`{seed}` replaced).
    pub(crate) generate: Vec<String>,
    /// How many extra small inputs.
    pub(crate) count: u32,
}

/// How `judge stress` calls the generator.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StressSpec {
    /// Generator arguments; `{seed}` and `{size}` are replaced per iteration.
    pub(crate) generate: Vec<String>,
    /// Whether it came from a `[stress]` table (else it is the default).
    pub(crate) explicit: bool,
}

impl StressSpec {
    /// Whether the arguments grow with `{size}`.
    pub(crate) fn grows(&self) -> bool {
        self.generate.iter().any(|a| a.contains(SIZE))
    }

    /// The generator arguments for one iteration.
    pub(crate) fn args(&self, seed: u64, size: u64) -> Vec<String> {
        self.generate
            .iter()
            .map(|a| {
                a.replace(SEED, &seed.to_string())
                    .replace(SIZE, &size.to_string())
            })
            .collect()
    }
}

/// A group of tests.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TestGroup {
    /// Group name.
    pub(crate) name: String,
    /// Where its tests come from.
    pub(crate) source: GroupSource,
    /// Points (IOI scoring), if any.
    pub(crate) points: Option<u32>,
    /// Arguments the validators get for this group's inputs, after their own.
    pub(crate) validator_args: Vec<String>,
    /// Arguments the checker gets for this group's tests (the ICPC format's
    /// output validator flags).
    pub(crate) checker_args: Vec<String>,
}

/// Where a group's tests come from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum GroupSource {
    /// Fixed files matching these globs (over test names, i.e. file stems).
    Load(Vec<String>),
    /// Generator runs: argv template and seeds.
    Generate {
        /// Arguments, `{seed}` replaced by each seed.
        args: Vec<String>,
        /// Seeds.
        seeds: Vec<u64>,
    },
    /// Tests listed one by one, in order (packages of other formats).
    Tests(Vec<TestSpec>),
}

/// One test of a [`GroupSource::Tests`] group.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TestSpec {
    /// Its name, unique in the problem.
    pub(crate) name: String,
    /// Where it comes from.
    pub(crate) source: TestSource,
    /// Its own validator arguments, instead of its group's.
    pub(crate) validator_args: Option<Vec<String>>,
    /// Its own checker arguments, instead of its group's.
    pub(crate) checker_args: Option<Vec<String>>,
}

/// Where one test comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TestSource {
    /// Files of the package; without an answer, the reference gives one.
    File {
        /// The input.
        input: PathBuf,
        /// The answer.
        answer: Option<PathBuf>,
    },
    /// Text written in the package's metadata (BAPCtools'
    /// `generators.yaml`: `in:` and `ans:`); without an answer, the
    /// reference gives one.
    Inline {
        /// The input.
        input: String,
        /// The answer.
        answer: Option<String>,
    },
    /// A run of a named generator (`Problem::generators`).
    Command {
        /// The generator's name.
        generator: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

/// An example solution.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SolutionSpec {
    /// The program.
    pub(crate) program: ProgramSpec,
    /// Verdicts it may get (the overall verdict: the first failing test's).
    pub(crate) expect: Vec<Verdict>,
    /// When given, the verdict of every test must be one of these (the ICPC
    /// format's `permitted`), besides the overall verdict being in `expect`.
    pub(crate) permitted: Option<Vec<Verdict>>,
}

/// The placeholder for the seed in generator arguments.
pub(crate) const SEED: &str = "{seed}";

/// The placeholder for the size in `[stress]` generator arguments.
pub(crate) const SIZE: &str = "{size}";
