//! The `build` and `run` scripts of an exported program: an ICPC package
//! may hold a program as a directory with an executable `build` that makes
//! an executable `run` (problemtools, DOMjudge and judge read them). The
//! scripts use judge.toml's commands for the program's language, and `run`
//! adapts the program's protocol to the format's (exit 42 for valid).

use crate::config::Language;

/// The name of the compiled program inside the directory.
const PROGRAM: &str = "prog";

/// What `run` does with the program's exit.
#[derive(Debug, Clone)]
pub(super) enum Protocol {
    /// An input validator that exits `valid` on a valid input: 42 then,
    /// else 43.
    InputValidator {
        /// The exit code that means valid.
        valid: i32,
    },
    /// A checker of the testlib protocol, called as an output validator:
    /// `run input answer feedback_dir < output`.
    Testlib,
    /// An interactor of the testlib protocol, called as an interactive
    /// output validator: `run input answer feedback_dir`, talking on stdin
    /// and stdout.
    TestlibInteractor,
}

/// `arg` as one shell word, in double quotes.
fn quote(arg: &str) -> String {
    let mut out = String::from("\"");
    for c in arg.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// A command template as shell words, in the program's directory `$dir`.
fn command(template: &[String], source: &str) -> String {
    template
        .iter()
        .map(|word| {
            // A toolchain's own path is not known elsewhere: the compiler by
            // its name, from the PATH.
            let word = word.replace("{toolchain}/bin/", "");
            let quoted = quote(&word);
            let stem = source.rsplit_once('.').map_or(source, |(stem, _)| stem);
            quoted
                .replace("{src}", &format!("$dir/{source}"))
                .replace("{files}", &format!("$dir/{source}"))
                .replace("{name}", stem)
                .replace("{exe}", &format!("$dir/{PROGRAM}"))
                .replace("{dir}", "$dir")
                .replace("{memory_mib}", "1024")
                .replace("{toolchain}", "")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

const HEADER: &str =
    "#!/bin/sh\n# Written by `judge export`.\ndir=$(cd \"$(dirname \"$0\")\" && pwd)\n";

/// The `build` script: the language's compile command, if it has one.
pub(super) fn build(language: &Language, source: &str) -> String {
    let mut out = format!("{HEADER}set -e\n");
    if let Some(compile) = &language.compile {
        out.push_str(&command(compile, source));
        out.push('\n');
    }
    out
}

/// The `run` script: the language's run command with `fixed` arguments,
/// its exit adapted to the format.
pub(super) fn run(
    language: &Language,
    source: &str,
    fixed: &[String],
    protocol: &Protocol,
) -> String {
    let mut program = command(&language.run, source);
    for arg in fixed {
        program.push(' ');
        program.push_str(&quote(arg));
    }
    match protocol {
        Protocol::InputValidator { valid } => format!(
            "{HEADER}{program} \"$@\"\nstatus=$?\n[ \"$status\" -eq {valid} ] && exit 42\nexit 43\n"
        ),
        Protocol::Testlib => format!(
            "{HEADER}cat > \"$3/team_output\"\n{program} \"$1\" \"$3/team_output\" \"$2\" > \"$3/judgemessage.txt\" 2>&1\n\
             case $? in\n  0|7) exit 42 ;;\n  1|2|8) exit 43 ;;\n  *) exit 1 ;;\nesac\n"
        ),
        Protocol::TestlibInteractor => format!(
            "{HEADER}{program} \"$1\" \"$3/interactor_output\" \"$2\" 2> \"$3/judgemessage.txt\"\n\
             case $? in\n  0|7) exit 42 ;;\n  1|2|8) exit 43 ;;\n  *) exit 1 ;;\nesac\n"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn language(compile: Option<&str>, run: &str) -> Language {
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let mut l = Language::executable();
        l.compile = compile.map(words);
        l.run = words(run);
        l
    }

    #[test]
    fn scripts_fill_the_language_commands_in_the_program_directory() {
        let rust = language(Some("{toolchain}/bin/rustc -O -o {exe} {src}"), "{exe}");
        assert!(build(&rust, "validator.rs")
            .ends_with("\"rustc\" \"-O\" \"-o\" \"$dir/prog\" \"$dir/validator.rs\"\n"));
        let python = language(None, "python3 -I {src}");
        let script = run(
            &python,
            "v.py",
            &["--max n".into()],
            &Protocol::InputValidator { valid: 0 },
        );
        assert!(
            script.contains("\"python3\" \"-I\" \"$dir/v.py\" \"--max n\" \"$@\""),
            "{script}"
        );
        assert!(script.contains("-eq 0 ] && exit 42"));
    }

    #[test]
    fn quoting_keeps_shell_characters_literal() {
        assert_eq!(quote("a\"b$c`d\\e"), "\"a\\\"b\\$c\\`d\\\\e\"");
    }
}
