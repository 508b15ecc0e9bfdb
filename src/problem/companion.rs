//! Competitive Companion's problem format, read: the JSON the browser
//! extension posts to local tools (`name`, `group`, `url`, `interactive`,
//! `memoryLimit` in MB, `timeLimit` in ms, `tests` of `input`/`output`,
//! `input`/`output` as stdin/stdout or a file, `batch`), and what
//! `judge listen` keeps of it in a samples folder. The main type is
//! [`Task`].
//!
//! Read leniently where the extension's parsers differ (a missing
//! `interactive`, a limit of 0 or absent: the defaults apply), strictly
//! where a wrong value would judge wrongly (a file name that is not a plain
//! name, a limit that is not a number).

use std::time::Duration;

use serde_json::Value;

use super::FileIo;

/// The most tests a task may carry.
pub(crate) const MAX_TASK_TESTS: usize = 1000;

/// The longest time limit taken (Meta Hacker Cup says 6 minutes).
const MAX_TIME: Duration = Duration::from_secs(3600);

/// One problem as Competitive Companion describes it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Task {
    /// The problem's full name (`G. Castle Defense`).
    pub(crate) name: String,
    /// The judge and contest (`Codeforces - Educational Round 40`).
    pub(crate) group: String,
    /// The problem's page.
    pub(crate) url: String,
    /// Whether the problem is interactive.
    pub(crate) interactive: bool,
    /// The time limit, when the page gives one.
    pub(crate) time_limit: Option<Duration>,
    /// The memory limit in bytes, when the page gives one.
    pub(crate) memory_limit: Option<u64>,
    /// The samples: input and expected output.
    pub(crate) tests: Vec<(String, String)>,
    /// Files the program reads and writes instead of stdin and stdout.
    pub(crate) files: FileIo,
    /// The batch (a contest sent problem by problem): its id and size.
    pub(crate) batch: Option<(String, u64)>,
    /// The class name Competitive Companion made of the name (ASCII).
    pub(crate) task_class: Option<String>,
    /// What was read but is judged differently, for people.
    pub(crate) note: Option<String>,
}

impl Task {
    /// Reads a task from the JSON `body`; the error says what is wrong.
    pub(crate) fn parse(body: &[u8]) -> Result<Task, String> {
        let value: Value =
            serde_json::from_slice(body).map_err(|e| format!("not valid JSON: {e}"))?;
        let Value::Object(object) = &value else {
            return Err("not a JSON object".into());
        };
        let text = |key: &str| -> Result<String, String> {
            match object.get(key) {
                None | Some(Value::Null) => Ok(String::new()),
                Some(Value::String(s)) => Ok(s.clone()),
                Some(other) => Err(format!("`{key}` is {}, not a string", kind(other))),
            }
        };
        let name = text("name")?;
        let group = text("group")?;
        let url = text("url")?;
        let interactive = match object.get("interactive") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(format!(
                    "`interactive` is {}, not true or false",
                    kind(other)
                ))
            }
        };
        let limit = |key: &str| -> Result<Option<f64>, String> {
            match object.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::Number(n)) => match n.as_f64() {
                    Some(v) if v.is_finite() && v >= 0.0 => Ok((v > 0.0).then_some(v)),
                    _ => Err(format!("`{key}` is {n}, not a number >= 0")),
                },
                Some(other) => Err(format!("`{key}` is {}, not a number", kind(other))),
            }
        };
        // Out of range is refused, naming the key: never a silent cap.
        let time_limit = match limit("timeLimit")? {
            Some(ms) if ms > MAX_TIME.as_millis() as f64 => {
                return Err(format!(
                    "`timeLimit` is {} ms, more than {} ms",
                    crate::units::shown_number(ms),
                    MAX_TIME.as_millis()
                ))
            }
            ms => ms
                .map(|ms| Duration::from_millis(ms.ceil() as u64))
                .filter(|t| !t.is_zero()),
        };
        // Some sites state limits below what a process needs to start here
        // (NerdArena's and Kilonova's 1 MB): judged with that floor, said so.
        let mut memory_note = None;
        let memory_limit = match limit("memoryLimit")? {
            None => None,
            Some(mb) => {
                let bytes = (mb * 1024.0 * 1024.0).min(u64::MAX as f64 / 2.0) as u64;
                match crate::units::check_memory_limit(bytes) {
                    Ok(()) => Some(bytes),
                    Err(why) => {
                        memory_note = Some(format!(
                            "the memory limit {mb} MB: {why}; judged with {} MiB",
                            crate::units::MIN_MEMORY >> 20
                        ));
                        Some(crate::units::MIN_MEMORY)
                    }
                }
            }
        };
        let tests = match object.get("tests") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(tests)) => {
                if tests.len() > MAX_TASK_TESTS {
                    return Err(format!("{} tests: at most {MAX_TASK_TESTS}", tests.len()));
                }
                tests
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let field = |key: &str| match t.get(key) {
                            Some(Value::String(s)) => Ok(s.clone()),
                            None | Some(Value::Null) if key == "output" => Ok(String::new()),
                            _ => Err(format!("`tests[{i}].{key}` is missing or not a string")),
                        };
                        Ok((field("input")?, field("output")?))
                    })
                    .collect::<Result<_, String>>()?
            }
            Some(other) => return Err(format!("`tests` is {}, not a list", kind(other))),
        };
        let (input, input_note) = io_side(object.get("input"), "input")?;
        let (output, output_note) = io_side(object.get("output"), "output")?;
        let batch = object.get("batch").and_then(|b| {
            let id = b.get("id")?.as_str()?.to_string();
            let size = b.get("size")?.as_u64()?;
            Some((id, size))
        });
        let task_class = object
            .get("languages")
            .and_then(|l| l.get("java")?.get("taskClass")?.as_str())
            .map(str::to_string);
        Ok(Task {
            name,
            group,
            url,
            interactive,
            time_limit,
            memory_limit,
            tests,
            files: FileIo { input, output },
            batch,
            task_class,
            note: [input_note, output_note, memory_note]
                .into_iter()
                .flatten()
                .reduce(|a, b| format!("{a}; {b}")),
        })
    }
}

/// One of `input` and `output`: `None` for stdin/stdout, else the file's
/// name; a note when the judge reads it differently (input by a regex).
fn io_side(value: Option<&Value>, key: &str) -> Result<(Option<String>, Option<String>), String> {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return Ok((None, None));
    };
    let kind_of = value.get("type").and_then(Value::as_str).unwrap_or("");
    match (kind_of, key) {
        ("stdin", "input") | ("stdout", "output") => Ok((None, None)),
        ("file", _) => {
            let name = value
                .get("fileName")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("`{key}` is a file without a `fileName`"))?;
            crate::sandbox::check_file_name(name).map_err(|e| format!("`{key}.fileName`: {e}"))?;
            Ok((Some(name.to_string()), None))
        }
        ("regex", "input") => {
            let pattern = value.get("pattern").and_then(Value::as_str).unwrap_or("");
            let note = format!(
                "the input is the newest file matching `{}` on the site; judged from stdin",
                pattern.escape_debug()
            );
            Ok((None, Some(note)))
        }
        (other, _) => Err(format!(
            "`{key}.type` is `{}` (known: {})",
            other.escape_debug(),
            match key {
                "input" => "stdin, file, regex",
                _ => "stdout, file",
            }
        )),
    }
}

/// "a number", "a list", ... for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of Competitive Companion's README (Codeforces 954G), as
    /// the extension sends it.
    const CODEFORCES: &str = r#"{"name":"G. Castle Defense","group":"Codeforces - Educational Codeforces Round 40 (Rated for Div. 2)","url":"https://codeforces.com/problemset/problem/954/G","interactive":false,"memoryLimit":256,"timeLimit":1500,"tests":[{"input":"5 0 6\n5 4 3 4 9\n","output":"5\n"},{"input":"4 2 0\n1 2 3 4\n","output":"6\n"},{"input":"5 1 1\n2 1 2 1 2\n","output":"3\n"}],"testType":"single","input":{"type":"stdin"},"output":{"type":"stdout"},"languages":{"java":{"mainClass":"Main","taskClass":"GCastleDefense"}},"batch":{"id":"123e67c8-03c6-44a4-a3f9-5918533f9fb2","size":1}}"#;

    #[test]
    fn reads_what_the_extension_sends() {
        let task = Task::parse(CODEFORCES.as_bytes()).unwrap();
        assert_eq!(task.name, "G. Castle Defense");
        assert_eq!(task.time_limit, Some(Duration::from_millis(1500)));
        assert_eq!(task.memory_limit, Some(256 << 20));
        assert_eq!(task.tests.len(), 3);
        assert_eq!(task.tests[1], ("4 2 0\n1 2 3 4\n".into(), "6\n".into()));
        assert!(task.files.is_standard());
        assert_eq!(task.task_class.as_deref(), Some("GCastleDefense"));
        assert_eq!(
            task.batch,
            Some(("123e67c8-03c6-44a4-a3f9-5918533f9fb2".into(), 1))
        );
    }

    #[test]
    fn a_memory_limit_too_small_to_start_a_process_is_raised_and_said() {
        let task = Task::parse(br#"{"memoryLimit":1}"#).unwrap();
        assert_eq!(task.memory_limit, Some(crate::units::MIN_MEMORY));
        assert!(task.note.unwrap().contains("the memory limit 1 MB"));
    }

    #[test]
    fn file_input_and_output() {
        let body = r#"{"name":"A","tests":[],"input":{"type":"file","fileName":"input.txt"},"output":{"type":"file","fileName":"output.txt"}}"#;
        let task = Task::parse(body.as_bytes()).unwrap();
        assert_eq!(task.files.input.as_deref(), Some("input.txt"));
        assert_eq!(task.files.output.as_deref(), Some("output.txt"));
        assert_eq!(task.time_limit, None);
    }

    #[test]
    fn what_cannot_be_judged_right_is_refused_with_the_key() {
        for (body, message) in [
            ("[1]", "not a JSON object"),
            ("{", "not valid JSON"),
            (r#"{"name":3}"#, "`name` is a number, not a string"),
            (
                r#"{"timeLimit":"2s"}"#,
                "`timeLimit` is a string, not a number",
            ),
            (
                r#"{"timeLimit":-1}"#,
                "`timeLimit` is -1, not a number >= 0",
            ),
            (
                r#"{"timeLimit":1e300}"#,
                "`timeLimit` is 1e300 ms, more than 3600000 ms",
            ),
            (
                r#"{"tests":[{"output":"1"}]}"#,
                "`tests[0].input` is missing",
            ),
            (
                r#"{"input":{"type":"file","fileName":"../../etc/passwd"}}"#,
                "`input.fileName`",
            ),
            (
                r#"{"output":{"type":"file","fileName":"a\nb"}}"#,
                "`output.fileName`",
            ),
            (r#"{"output":{"type":"file"}}"#, "without a `fileName`"),
            (r#"{"input":{"type":"socket"}}"#, "`input.type` is `socket`"),
        ] {
            let e = Task::parse(body.as_bytes()).unwrap_err();
            assert!(e.contains(message), "{body}: {e}");
        }
    }
}
