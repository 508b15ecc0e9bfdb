//! The format-independent problem model: what every loader produces and
//! the rest of the judge reads. The main type is [`Problem`].

use std::path::PathBuf;
use std::time::Duration;

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
    /// Where the fixed tests live.
    pub(crate) testdata_dir: PathBuf,
    /// Limits for submissions.
    pub(crate) limits: ProblemLimits,
    /// How outputs are compared.
    pub(crate) checker: CheckerSpec,
    /// The reference solution.
    pub(crate) reference: Option<ProgramSpec>,
    /// The test generator.
    pub(crate) generator: Option<ProgramSpec>,
    /// The input validator.
    pub(crate) validator: Option<ValidatorSpec>,
    /// The brute force.
    pub(crate) brute: Option<BruteSpec>,
    /// How `judge stress` generates its inputs (`None` without a generator).
    pub(crate) stress: Option<StressSpec>,
    /// Test groups, in test order.
    pub(crate) groups: Vec<TestGroup>,
    /// Example solutions with expected verdicts.
    pub(crate) solutions: Vec<SolutionSpec>,
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
        }
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

/// The validator and its fixed arguments.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValidatorSpec {
    /// The program.
    pub(crate) program: ProgramSpec,
    /// Arguments always passed.
    pub(crate) args: Vec<String>,
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
}

/// An example solution.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SolutionSpec {
    /// The program.
    pub(crate) program: ProgramSpec,
    /// Verdicts it may get.
    pub(crate) expect: Vec<Verdict>,
}

/// The placeholder for the seed in generator arguments.
pub(crate) const SEED: &str = "{seed}";

/// The placeholder for the size in `[stress]` generator arguments.
pub(crate) const SIZE: &str = "{size}";
