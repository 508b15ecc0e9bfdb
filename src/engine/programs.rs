//! Package programs as a service: building and running them, and the steps
//! that make an input a test, in one pipeline ([`Judge::prepare_case`]) used
//! by the test set, `judge stress` and `judge verify`: validator runs
//! ([`Gate`]s) in order, then the expected answer. Results are cached by
//! content where the same inputs come back (a package's tests) and kept out
//! of the cache where they do not (stress inputs): see [`Memo`].

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::sources::program_files;
use super::{Judge, Submission};
use crate::cache::{Key, Kind};
use crate::check::Checker;
use crate::compile::{Build, Executable};
use crate::error::{Error, PackageError, Result};
use crate::problem::{CheckerSpec, Problem, ProgramLimits, ProgramSpec, Role};
use crate::sandbox::{
    self, Captured, Environment, Exchange, Exit, Profile, RunOutcome, RunRequest, Stdin,
};

/// Exit code of a brute force refusing an input (outside its bounds).
pub(crate) const BRUTE_SKIP: i32 = 3;

/// A validator run an input must pass: the validator with these arguments.
#[derive(Debug, Clone)]
pub(crate) struct Gate<'a> {
    /// The validator.
    pub(crate) validator: &'a Executable,
    /// Its arguments.
    pub(crate) args: Vec<String>,
    /// The exit code that means valid.
    pub(crate) valid_exit: i32,
    /// Where validators that failed to run are given up on, when a failure
    /// is only a warning (`judge run`, `batch`): one in it by the time its
    /// run gets a slot is not run ([`Validity::NotRun`]), so a validator
    /// that hangs costs one wait per slot, not one per test.
    pub(crate) given_up: Option<&'a std::sync::Mutex<std::collections::BTreeSet<PathBuf>>>,
}

/// A program whose output on an input is the expected answer.
#[derive(Debug)]
pub(crate) enum AnswerProgram {
    /// The package's reference solution.
    Reference(Executable),
    /// The package's brute force, which may refuse an input ([`BRUTE_SKIP`]).
    Brute(Executable),
    /// A file from the command line (`judge stress --against FILE`): not
    /// trusted, so run as a submission, with the problem's memory limit.
    Untrusted {
        /// The built file.
        exe: Executable,
        /// The memory limit, bytes.
        memory: u64,
    },
}

impl AnswerProgram {
    /// The program.
    pub(crate) fn exe(&self) -> &Executable {
        match self {
            AnswerProgram::Reference(exe) | AnswerProgram::Brute(exe) => exe,
            AnswerProgram::Untrusted { exe, .. } => exe,
        }
    }

    /// The cache key of its answer for an input.
    fn answer_key(&self, input_key: &Key) -> Key {
        match self {
            AnswerProgram::Reference(exe) | AnswerProgram::Brute(exe) => Key::of(&[
                b"answer-v1",
                exe.key.as_str().as_bytes(),
                input_key.as_str().as_bytes(),
            ]),
            AnswerProgram::Untrusted { exe, memory } => Key::of(&[
                b"untrusted-answer-v1",
                exe.key.as_str().as_bytes(),
                input_key.as_str().as_bytes(),
                memory.to_string().as_bytes(),
            ]),
        }
    }

    /// Who failed, when it fails.
    pub(crate) fn who(&self) -> &'static str {
        match self {
            AnswerProgram::Reference(_) => "the reference",
            AnswerProgram::Brute(_) => "the brute force",
            AnswerProgram::Untrusted { .. } => "the file compared against",
        }
    }
}

/// The ICPC format's constants replaced in a program of the package that
/// judges or makes tests (validators, output validator, interactor,
/// generators, as the spec and BAPCtools say), in its source and the files
/// built beside it: the source's new text, if it changed. Solutions are
/// built as written, as BAPCtools builds them and as a contestant's
/// submission is.
fn substitute_constants(
    problem: &Problem,
    role: Role,
    program: &mut Submission,
) -> Result<Option<Vec<u8>>> {
    let substituted = matches!(
        role,
        Role::Validator | Role::Checker | Role::Interactor | Role::Generator
    );
    if !substituted || problem.constants.is_empty() {
        return Ok(None);
    }
    for companion in &mut program.companions {
        if let Some(bytes) = problem.constants.substitute_bytes(&companion.bytes) {
            companion.bytes = bytes;
        }
    }
    let source = crate::sandbox::untrusted::open_regular(&program.path)
        .and_then(|f| crate::sandbox::untrusted::read_capped(f, 32 << 20))
        .map_err(|e| Error::io(&program.path, e))?;
    Ok(problem.constants.substitute_bytes(&source))
}

/// The file a generator may write its input to instead of printing it
/// (BAPCtools' `{name}.in`, its `{name}` being `testcase`).
pub(crate) const GENERATED_INPUT: &str = "testcase.in";

/// Where an input's expected answer comes from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum AnswerFrom<'a> {
    /// A file of the package.
    File(&'a Path),
    /// A program's output.
    Program(&'a AnswerProgram),
}

/// Where the results of a case's steps are kept.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Memo<'a> {
    /// In the cache, by content: validator passes and reference answers.
    Cache,
    /// Nowhere but in this directory (its `answer` file): one-off inputs.
    Dir(&'a Path),
}

/// Where an input stands after [`Judge::prepare_case`].
#[derive(Debug)]
pub(crate) enum Case {
    /// Gate number `gate` rejected it, saying `why`.
    Invalid {
        /// Which gate, from 0.
        gate: usize,
        /// What the validator said.
        why: String,
    },
    /// The brute force refused it.
    Refused,
    /// The answer program failed on it; how.
    NoAnswer(Box<RunOutcome>),
    /// Valid, with this answer file.
    Ready(PathBuf),
}

/// What a validator said of an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Validity {
    /// It accepted the input.
    Valid,
    /// It rejected it (exited with a code other than 0), saying this.
    Invalid(String),
    /// It was not run: it had failed to run on an earlier input.
    NotRun,
}

impl Judge {
    /// A solution of the package as a submission to judge: its main source,
    /// its language (its `lang`, else its extension), and what its build
    /// sees beside it.
    pub(crate) fn package_submission(
        &self,
        problem: &Problem,
        spec: &ProgramSpec,
    ) -> Result<Submission> {
        // A submit-answer problem's solutions are answers (its validators
        // and output validator are programs all the same).
        if problem.submit_answer && spec.path.starts_with(problem.dir.join("submissions")) {
            return Ok(Submission {
                path: spec.path.clone(),
                shown: None,
                language: crate::config::Language::answers(),
                companions: Vec::new(),
                text: None,
            });
        }
        let files = program_files(problem, spec, self.config())?;
        let language = match (&spec.lang, files.build_run) {
            (_, true) => crate::config::Language::build_run(self.config()),
            (Some(id), false) => self.config().language_by_id(id, &files.main)?,
            (None, false) => self.config().detect_language(&files.main)?,
        };
        Ok(Submission {
            path: files.main,
            shown: None,
            language,
            companions: files.companions,
            text: None,
        })
    }

    /// Compiles a program of the package, with the files its build sees
    /// beside it; a compile error is an error of the package (and is not
    /// remembered: see [`crate::compile::Compiler::build`]).
    pub(crate) async fn build_package_program(
        &self,
        problem: &Problem,
        spec: &ProgramSpec,
        role: Role,
    ) -> Result<Executable> {
        let mut program = self.package_submission(problem, spec)?;
        let text = substitute_constants(problem, role, &mut program)?;
        let build = self.build_with(
            &program.path,
            text.as_deref(),
            &program.language,
            &program.companions,
            false,
        );
        match build.await? {
            Build::Ready(exe, _) => {
                let mut exe = *exe;
                exe.package = Some(self.package_run(problem, role, &exe)?);
                Ok(exe)
            }
            Build::Failed(report) => Err(Error::package(
                &problem.id,
                PackageError::DoesNotCompile {
                    role: role.as_str(),
                    path: spec.path.clone(),
                    message: report.message,
                },
            )),
        }
    }

    /// The checker of a problem, compiled if it is a program.
    pub(crate) async fn prepare_checker(&self, problem: &Problem) -> Result<Checker> {
        let checker = self.prepare_output_checker(problem).await?;
        let Some(spec) = &problem.interactor else {
            return Ok(checker);
        };
        let interactor = self
            .build_package_program(problem, &spec.program, Role::Interactor)
            .await?;
        // A testlib interactor's output file goes to the problem's own
        // checker program, when it has one; otherwise the interactor decides.
        let then = match (&checker, spec.protocol) {
            (Checker::External(_), crate::problem::InteractorProtocol::Testlib) => Some(checker),
            _ => None,
        };
        Ok(Checker::Interactive(Box::new(crate::check::Interactive {
            interactor,
            protocol: spec.protocol,
            then,
        })))
    }

    /// The checker of outputs, compiled if it is a program.
    async fn prepare_output_checker(&self, problem: &Problem) -> Result<Checker> {
        Ok(match &problem.checker {
            CheckerSpec::Custom(spec) => Checker::External(Box::new(
                self.build_package_program(problem, spec, Role::Checker)
                    .await?,
            )),
            CheckerSpec::Kattis(spec) => Checker::Kattis(Box::new(
                self.build_package_program(problem, spec, Role::Checker)
                    .await?,
            )),
            builtin => Checker::Builtin(builtin.clone()),
        })
    }

    /// Runs a program of a package (built by
    /// [`Judge::build_package_program`]) with `args`, in the sandbox as its
    /// package says, holding a slot; `cwd` stands for its working directory
    /// (a large stdout spills there), `exchange` names the files it reads
    /// and leaves.
    pub(crate) async fn run_package_program(
        &self,
        exe: &Executable,
        args: &[std::ffi::OsString],
        cwd: &Path,
        stdin: Stdin,
        exchange: Exchange,
    ) -> Result<RunOutcome> {
        let _slot = self.slot().await;
        self.run_package_program_in_slot(exe, args, cwd, stdin, exchange)
            .await
    }

    /// [`Judge::run_package_program`] when the caller holds the slot.
    async fn run_package_program_in_slot(
        &self,
        exe: &Executable,
        args: &[std::ffi::OsString],
        cwd: &Path,
        stdin: Stdin,
        exchange: Exchange,
    ) -> Result<RunOutcome> {
        let request = package_request(exe, args, cwd, stdin, exchange);
        let profile = Profile::Package(std::sync::Arc::clone(&package_of(exe).view));
        let run = self.sandbox().run(&request, profile);
        run.await.map_err(|e| Error::from_run(e, None))
    }

    /// Runs a built program that is not part of a package (so not trusted)
    /// as a submission on `input`, holding a slot, with the time and output
    /// limits of package programs and `memory` bytes; a large stdout spills
    /// into `work`.
    pub(crate) async fn run_untrusted(
        &self,
        exe: &Executable,
        input: &Path,
        work: &Path,
        memory: u64,
    ) -> Result<RunOutcome> {
        let defaults = ProgramLimits::defaults(self.config());
        let request = RunRequest {
            argv: exe.argv(Some(memory)),
            cwd: work.to_path_buf(),
            stdin: Stdin::File(input.to_path_buf()),
            stdout_spill: Some(work.join("stdout")),
            stdout_to: None,
            environment: Environment::Minimal(exe.env().to_vec()),
            limits: sandbox::Limits {
                memory: Some(memory),
                ..super::judge::program_limits(defaults, exe, false)
            },
            program_dir: Some(exe.dir().to_path_buf()),
            exchange: Exchange::default(),
        };
        let _slot = self.slot().await;
        let run = self.sandbox().run(&request, Profile::Submission);
        run.await
            .map_err(|e| Error::from_run(e, Some((&exe.language.id, exe.language.install_hint()))))
    }

    /// Runs the generator with `args` in `dir`: what it printed, or (when
    /// it printed nothing) the `testcase.in` it wrote in its working
    /// directory, as BAPCtools' generators may; `Ok(Err(why))` when it
    /// failed.
    pub(crate) async fn generate_in(
        &self,
        generator: &Executable,
        args: &[String],
        dir: &Path,
    ) -> Result<std::result::Result<Captured, String>> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let exchange = Exchange {
            keep: vec![GENERATED_INPUT.into()],
            ..Exchange::default()
        };
        // Named as BAPCtools names a generator (`generators/NAME/run`).
        let generator = generator.as_generator();
        let outcome = self
            .run_package_program(&generator, &args, dir, Stdin::Null, exchange)
            .await?;
        if !outcome.success() {
            return Ok(Err(describe_failure(&outcome)));
        }
        let written = dir.join(GENERATED_INPUT);
        if outcome.stdout.is_empty() {
            if let Ok(meta) = std::fs::symlink_metadata(&written) {
                if meta.is_file() {
                    return Ok(Ok(Captured::File {
                        path: written,
                        len: meta.len(),
                    }));
                }
            }
        }
        Ok(Ok(outcome.stdout))
    }

    /// Runs the generator with `args`, its output cached by (generator,
    /// args): the input's file and key, or `Ok(Err(why))` when it failed.
    pub(crate) async fn generate(
        &self,
        generator: &Executable,
        args: &[String],
    ) -> Result<std::result::Result<(PathBuf, Key), String>> {
        let key = Key::of(&[
            b"input-v2",
            generator.key.as_str().as_bytes(),
            args.join("\0").as_bytes(),
        ]);
        if let Some(path) = self.cache().get(Kind::Input, &key) {
            return Ok(Ok((path, key)));
        }
        let scratch = self.cache().scratch_dir()?;
        Ok(
            match self.generate_in(generator, args, scratch.path()).await? {
                Ok(output) => Ok((self.store(Kind::Input, &key, &output)?, key)),
                Err(why) => Err(why),
            },
        )
    }

    /// The pipeline an input goes through before a program is judged on it:
    /// each gate in order, then the expected answer.
    pub(crate) async fn prepare_case(
        &self,
        problem: &str,
        input: &Path,
        input_key: &Key,
        gates: &[Gate<'_>],
        answer: AnswerFrom<'_>,
        memo: Memo<'_>,
    ) -> Result<Case> {
        for (index, gate) in gates.iter().enumerate() {
            if let Validity::Invalid(why) =
                self.validate(problem, gate, input, input_key, memo).await?
            {
                return Ok(Case::Invalid { gate: index, why });
            }
        }
        match answer {
            AnswerFrom::File(path) => Ok(Case::Ready(path.to_path_buf())),
            AnswerFrom::Program(program) => self.answer(program, input, input_key, memo).await,
        }
    }

    /// Runs a validator on an input; with [`Memo::Cache`], passes are
    /// cached. A validator that fails (crashes, is killed, exceeds a limit,
    /// cannot start) is the package's fault: an error naming it, never a
    /// rejection.
    pub(crate) async fn validate(
        &self,
        problem: &str,
        gate: &Gate<'_>,
        input: &Path,
        input_key: &Key,
        memo: Memo<'_>,
    ) -> Result<Validity> {
        let key = match memo {
            Memo::Cache => Some(Key::of(&[
                b"valid-v2",
                gate.validator.key.as_str().as_bytes(),
                gate.args.join("\0").as_bytes(),
                gate.valid_exit.to_string().as_bytes(),
                input_key.as_str().as_bytes(),
            ])),
            Memo::Dir(_) => None,
        };
        if let Some(key) = &key {
            if self.cache().get(Kind::Valid, key).is_some() {
                return Ok(Validity::Valid);
            }
        }
        let args: Vec<OsString> = gate.args.iter().map(OsString::from).collect();
        let scratch = self.cache().scratch_dir()?;
        let stdin = Stdin::File(input.to_path_buf());
        let slot = self.slot().await;
        let given_up = |source: &PathBuf| {
            gate.given_up
                .is_some_and(|g| g.lock().expect("not poisoned").contains(source))
        };
        if given_up(&gate.validator.source) {
            return Ok(Validity::NotRun);
        }
        let outcome = self
            .run_package_program_in_slot(
                gate.validator,
                &args,
                scratch.path(),
                stdin,
                Exchange::default(),
            )
            .await?;
        // A validator that ran out of memory has not rejected the input.
        let out_of_memory =
            crate::check::out_of_memory(&outcome, &package_of(gate.validator).limits);
        let validity = match (outcome.exit, outcome.limit_hit) {
            (Exit::Code(code), None) if code == gate.valid_exit => Validity::Valid,
            (Exit::Code(_), None) if !out_of_memory => Validity::Invalid(rejection(&outcome)),
            _ => {
                // Given up before the slot is free for the next run of it.
                if let Some(g) = gate.given_up {
                    let source = gate.validator.source.clone();
                    g.lock().expect("not poisoned").insert(source);
                }
                drop(slot);
                return Err(Error::package(
                    problem,
                    PackageError::Validator {
                        validator: gate.validator.source.clone(),
                        input: input.to_path_buf(),
                        why: describe_failure(&outcome),
                    },
                ));
            }
        };
        if let (Some(key), Validity::Valid) = (&key, &validity) {
            self.cache().put_bytes(Kind::Valid, key, b"ok")?;
        }
        Ok(validity)
    }

    /// Runs an answer program on an input. With [`Memo::Cache`], answers
    /// are cached by (program, input).
    async fn answer(
        &self,
        program: &AnswerProgram,
        input: &Path,
        input_key: &Key,
        memo: Memo<'_>,
    ) -> Result<Case> {
        let cached = match memo {
            Memo::Cache => Some(program.answer_key(input_key)),
            Memo::Dir(_) => None,
        };
        if let Some(path) = cached
            .as_ref()
            .and_then(|k| self.cache().get(Kind::Answer, k))
        {
            return Ok(Case::Ready(path));
        }
        let scratch;
        let run_dir = match memo {
            Memo::Cache => {
                scratch = self.cache().scratch_dir()?;
                scratch.path().to_path_buf()
            }
            Memo::Dir(dir) => {
                let run_dir = dir.join("answer-run");
                std::fs::create_dir(&run_dir).map_err(|e| Error::io(&run_dir, e))?;
                run_dir
            }
        };
        let stdin = Stdin::File(input.to_path_buf());
        let outcome = match program {
            AnswerProgram::Reference(exe) | AnswerProgram::Brute(exe) => {
                self.run_package_program(exe, &[], &run_dir, stdin, Exchange::default())
                    .await?
            }
            AnswerProgram::Untrusted { exe, memory } => {
                self.run_untrusted(exe, input, &run_dir, *memory).await?
            }
        };
        if matches!(program, AnswerProgram::Brute(_)) && outcome.exit == Exit::Code(BRUTE_SKIP) {
            return Ok(Case::Refused);
        }
        if !outcome.success() {
            return Ok(Case::NoAnswer(Box::new(outcome)));
        }
        let path = match cached {
            Some(key) => self.store(Kind::Answer, &key, &outcome.stdout)?,
            None => {
                // `Memo::Dir(dir)`: dir/answer, beside dir/answer-run.
                let path = run_dir.with_file_name("answer");
                outcome
                    .stdout
                    .write_to(&path)
                    .map_err(|e| Error::io(&path, e))?;
                path
            }
        };
        Ok(Case::Ready(path))
    }

    /// Keeps a program's output in the cache.
    fn store(&self, kind: Kind, key: &Key, captured: &Captured) -> Result<PathBuf> {
        match captured {
            Captured::Memory(bytes) => self.cache().put_bytes(kind, key, bytes),
            Captured::File { path, .. } => self.cache().put_file(kind, key, path),
        }
    }
}

/// The package program `exe` is: what it sees and its limits.
pub(crate) fn package_of(exe: &Executable) -> &sandbox::PackageRun {
    exe.package
        .as_ref()
        .expect("a package's programs are built by build_package_program")
}

/// The request that runs the package program `exe` with `args`.
pub(crate) fn package_request(
    exe: &Executable,
    args: &[OsString],
    cwd: &Path,
    stdin: Stdin,
    exchange: Exchange,
) -> RunRequest {
    let package = package_of(exe);
    let mut argv = exe.argv(package.limits.memory);
    argv.extend(args.iter().cloned());
    RunRequest {
        argv,
        cwd: cwd.to_path_buf(),
        stdin,
        stdout_spill: Some(cwd.join("stdout")),
        stdout_to: None,
        environment: Environment::Minimal(exe.env().to_vec()),
        limits: package.limits,
        program_dir: Some(exe.dir().to_path_buf()),
        exchange,
    }
}

/// What a validator said when it rejected an input: its stderr, else its
/// stdout, else how it exited.
fn rejection(outcome: &RunOutcome) -> String {
    let said = String::from_utf8_lossy(&outcome.stderr).trim().to_string();
    let said = if said.is_empty() {
        String::from_utf8_lossy(&outcome.stdout.to_vec().unwrap_or_default())
            .trim()
            .to_string()
    } else {
        said
    };
    if said.is_empty() {
        format!("the validator rejected it ({})", outcome.describe_exit())
    } else {
        format!("the validator says: {said}")
    }
}

/// Why a package program failed: the exit or limit, and its last stderr line.
pub(crate) fn describe_failure(outcome: &RunOutcome) -> String {
    let how = match outcome.limit_hit {
        Some(hit) => format!("stopped by the {hit:?} limit for package programs"),
        None if outcome.memory_exceeded => format!(
            "stopped by the memory limit for package programs ({})",
            outcome.describe_exit()
        ),
        None => outcome.describe_exit(),
    };
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    let last = stderr.trim().lines().last().unwrap_or("");
    if last.is_empty() {
        how
    } else {
        format!("{how}: {last}")
    }
}
