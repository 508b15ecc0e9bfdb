//! What `judge listen` prints: where it listens, a line per problem
//! received with the command that judges a file on it, and a line per
//! request refused. Pure functions of the events.

use crate::printable::printable_line;
use crate::problem::companion::Task;
use crate::units::{format_kib, format_ms};

/// The first line: where problems come and go.
pub(crate) fn listening(address: &str, dir: &str, known_port: bool) -> String {
    let mut text = format!(
        "listening on http://{address}/ for Competitive Companion; problems go to {dir} (Ctrl-C stops)\n"
    );
    if !known_port {
        text.push_str(
            "note: Competitive Companion posts to this port only once it is added to its \
             custom ports (the extension's settings)\n",
        );
    }
    text
}

/// A problem received: what it is, where it went, and how to judge a file on it.
pub(crate) fn saved(task: &Task, folder: &str, unchanged: bool) -> String {
    let mut what = vec![match task.tests.len() {
        1 => "1 sample".to_string(),
        n => format!("{n} samples"),
    }];
    if let Some(time) = task.time_limit {
        what.push(format_ms(time.as_millis() as u64));
    }
    if let Some(memory) = task.memory_limit {
        what.push(format_kib(memory / 1024));
    }
    if !task.files.is_standard() {
        what.push(task.files.describe());
    }
    let batch = match &task.batch {
        Some((_, size)) if *size > 1 => format!(" [one of {size} problems]"),
        _ => String::new(),
    };
    let group = match task.group.is_empty() {
        true => String::new(),
        false => format!(" ({})", printable_line(&task.group)),
    };
    let mut text = format!(
        "received \"{}\"{group}{batch}: {}\n",
        printable_line(&task.name),
        what.join(", ")
    );
    let folder = printable_line(folder);
    if unchanged {
        text.push_str(&format!(
            "  already in {folder}, the same samples: left as it is\n"
        ));
    } else {
        text.push_str(&format!("  saved to {folder}\n"));
    }
    if task.interactive {
        text.push_str(
            "  note: an interactive problem: its samples show a dialogue, and judging one \
             needs the site's interactor; `judge run` refuses it\n",
        );
    } else {
        text.push_str(&format!("  judge run {folder} FILE\n"));
    }
    if let Some(note) = &task.note {
        text.push_str(&format!("  note: {}\n", printable_line(note)));
    }
    text
}

/// A request refused (or a problem that could not be kept).
pub(crate) fn refused(status: u16, why: &str) -> String {
    format!("refused a request ({status}): {}\n", printable_line(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_received_problem_says_where_it_went_and_how_to_judge_it() {
        let body = r#"{"name":"A. Sum\u001b[2J","group":"Codeforces - Round 1","url":"u","interactive":false,"memoryLimit":256,"timeLimit":2000,"tests":[{"input":"1 2\n","output":"3\n"}],"input":{"type":"file","fileName":"input.txt"},"output":{"type":"stdout"},"batch":{"id":"x","size":3}}"#;
        let task = Task::parse(body.as_bytes()).unwrap();
        insta::assert_snapshot!(saved(&task, "./a-sum", false), @r#"
        received "A. Sum\x1b[2J" (Codeforces - Round 1) [one of 3 problems]: 1 sample, 2.00 s, 256.0 MiB, reads input.txt, writes stdout
          saved to ./a-sum
          judge run ./a-sum FILE
        "#);
        assert_eq!(
            refused(403, "Origin `https://evil.example` is a web page"),
            "refused a request (403): Origin `https://evil.example` is a web page\n"
        );
    }
}
