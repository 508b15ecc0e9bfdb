//! contest.toml's `[printing]`: whether teams may send files to the
//! contest's printer, how large, and the command that prints one
//! ([`PrintCommand`]: argv words, the job's file and title substituted as
//! whole words, never through a shell). The main type is [`Printing`].

use serde::Deserialize;

/// The largest file a team may send to print unless `max_size` says.
pub(crate) const DEFAULT_MAX_PRINT: u64 = 100 << 10;

/// `[printing]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PrintingDeserialize {
    enabled: Option<bool>,
    print_command: Option<CommandDeserialize>,
    max_size: Option<String>,
}

/// A command as a string (split as a POSIX shell splits words, nothing
/// expanded) or as its words.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum CommandDeserialize {
    Line(String),
    Words(Vec<String>),
}

/// A word of the print command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PrintWord {
    /// Itself.
    Text(String),
    /// `{file}`: the path of the file to print.
    File,
    /// `{title}`: the job's title (team and file name).
    Title,
}

/// The command that prints a job: without `{file}`, it reads the file on
/// its stdin (as `lpr` does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PrintCommand {
    /// Its words, the first the program.
    pub(crate) words: Vec<PrintWord>,
}

impl PrintCommand {
    /// The argv for the file at `file` titled `title`.
    pub(crate) fn argv(&self, file: &std::path::Path, title: &str) -> Vec<std::ffi::OsString> {
        self.words
            .iter()
            .map(|w| match w {
                PrintWord::Text(t) => t.into(),
                PrintWord::File => file.as_os_str().to_owned(),
                PrintWord::Title => title.into(),
            })
            .collect()
    }

    /// Whether it names the file (else it reads it on stdin).
    pub(crate) fn names_file(&self) -> bool {
        self.words.contains(&PrintWord::File)
    }
}

/// Printing in a live contest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Printing {
    /// Whether teams may print (off: no page, no menu entry).
    pub(crate) enabled: bool,
    /// The command run for each job, if any (else the jury prints from
    /// its queue page).
    pub(crate) command: Option<PrintCommand>,
    /// The largest file a team may send, bytes.
    pub(crate) max_size: u64,
}

impl Default for Printing {
    fn default() -> Self {
        Printing {
            enabled: false,
            command: None,
            max_size: DEFAULT_MAX_PRINT,
        }
    }
}

/// `[printing]` validated; each problem pushed to `problems`.
pub(super) fn printing_of(
    raw: Option<PrintingDeserialize>,
    problems: &mut Vec<String>,
) -> Printing {
    let mut printing = Printing::default();
    let Some(raw) = raw else {
        return printing;
    };
    printing.enabled = raw.enabled.unwrap_or(true);
    if let Some(text) = raw.max_size {
        match crate::units::parse_size(&text) {
            Ok(0) | Err(_) => problems.push(format!(
                "[printing] `max_size = {text:?}`: not a size above zero (write e.g. \"100KiB\")"
            )),
            Ok(bytes) => printing.max_size = bytes,
        }
    }
    let words = match raw.print_command {
        None => return printing,
        Some(CommandDeserialize::Words(words)) => Some(words),
        Some(CommandDeserialize::Line(line)) => shlex::split(&line),
    };
    let Some(words) = words.filter(|w| !w.is_empty()) else {
        problems.push(
            "[printing] `print_command`: no command (write e.g. \"lpr -T {title}\"; quotes must be closed)"
                .into(),
        );
        return printing;
    };
    let mut command = Vec::new();
    for (i, word) in words.into_iter().enumerate() {
        let parsed = match word.as_str() {
            "{file}" => PrintWord::File,
            "{title}" => PrintWord::Title,
            _ if word.contains('{') || word.contains('}') => {
                problems.push(format!(
                    "[printing] `print_command`: `{word}`: the placeholders are `{{file}}` and `{{title}}`, each a whole word"
                ));
                continue;
            }
            _ => PrintWord::Text(word),
        };
        if i == 0 && !matches!(parsed, PrintWord::Text(_)) {
            problems.push(
                "[printing] `print_command`: the first word is the program, not a placeholder"
                    .into(),
            );
        }
        command.push(parsed);
    }
    printing.command = Some(PrintCommand { words: command });
    printing
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Printing, Vec<String>) {
        #[derive(Deserialize)]
        struct File {
            printing: PrintingDeserialize,
        }
        let file: File = toml::from_str(text).unwrap();
        let mut problems = Vec::new();
        (printing_of(Some(file.printing), &mut problems), problems)
    }

    #[test]
    fn print_commands_are_words_with_whole_word_placeholders() {
        let (p, problems) = parse("[printing]\nprint_command = \"lpr -P 'HP 1' -T {title}\"\n");
        assert!(problems.is_empty(), "{problems:?}");
        assert!(p.enabled);
        let command = p.command.unwrap();
        assert!(!command.names_file());
        let argv = command.argv(std::path::Path::new("/tmp/x"), "t1: a;rm -rf ~.txt");
        assert_eq!(argv, ["lpr", "-P", "HP 1", "-T", "t1: a;rm -rf ~.txt"]);
        let (p, problems) = parse("[printing]\nenabled = false\nprint_command = [\"cp\", \"{file}\", \"/x\"]\nmax_size = \"1KiB\"\n");
        assert!(problems.is_empty(), "{problems:?}");
        assert!(!p.enabled && p.max_size == 1024 && p.command.unwrap().names_file());
        let (_, problems) =
            parse("[printing]\nprint_command = \"lpr --title={title} 'open\"\nmax_size = \"0\"\n");
        assert_eq!(problems.len(), 2, "{problems:?}");
        let (_, problems) = parse("[printing]\nprint_command = \"lpr --title={title}\"\n");
        assert_eq!(
            problems,
            ["[printing] `print_command`: `--title={title}`: the placeholders are `{file}` and `{title}`, each a whole word"]
        );
        let (_, problems) = parse("[printing]\nprint_command = \"{file}\"\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
    }
}
