//! Layers look only down: reads the `crate::` and `super::` paths of `src/`
//! (the `use` lines and paths written inline, not comments or test modules)
//! and fails on any loop between top-level modules, or between the files of
//! one module, naming the files of each step.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which top-level module imports which, and in which files.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

#[test]
fn no_loop_between_top_level_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert_no_loop(
        &graph_of(&src),
        &src,
        "modules",
        "a loop between top-level modules (each layer may import only layers below it)",
    );
}

/// No two files (or folders) of one module import each other, directly or
/// through others of that module: a module's files are layered too.
#[test]
fn no_loop_between_the_files_of_a_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert_no_loop(
        &file_graph(&src),
        &src,
        "files",
        "a loop between the files of a module (each may import only those below it)",
    );
}

/// Fails unless `graph` holds more than ten nodes (`what` read from `src`)
/// and no loop; the panic opens with `problem` and names each step's files.
fn assert_no_loop(graph: &Graph, src: &Path, what: &str, problem: &str) {
    assert!(
        graph.len() > 10,
        "too few {what} read from {}",
        src.display()
    );
    if let Some(cycle) = find_cycle(graph) {
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|w| {
                let files = &graph[&w[0]][&w[1]];
                format!("  {} -> {} (in {})", w[0], w[1], join(files))
            })
            .collect();
        panic!("{problem}:\n{}", steps.join("\n"));
    }
}

/// Paths are resolved from the file that writes them, and a step between
/// two files of one module is found however deep either side is.
#[test]
fn a_file_loop_is_found() {
    let modules: BTreeSet<Vec<String>> = [
        "sandbox",
        "sandbox::plain",
        "sandbox::pool",
        "sandbox::cgroup",
        "sandbox::cgroup::place",
        "verdict",
    ]
    .iter()
    .map(|m| m.split("::").map(String::from).collect())
    .collect();
    let module = |m: &str| m.split("::").map(String::from).collect::<Vec<_>>();
    let mut paths = Vec::new();
    full_paths(
        "use super::pool::Shared;\nuse crate::{verdict::Verdict, sandbox::cgroup::place};\n",
        &mut paths,
    );
    let steps: Vec<_> = paths
        .iter()
        .filter_map(|p| step(&module("sandbox::plain"), p, &modules))
        .collect();
    assert_eq!(
        steps,
        [
            ("sandbox::plain".to_string(), "sandbox::pool".to_string()),
            ("sandbox".into(), "verdict".into()),
            ("sandbox::plain".into(), "sandbox::cgroup".into()),
        ]
    );
    let mut paths = Vec::new();
    full_paths("let x = super::super::plain::run();\n", &mut paths);
    assert_eq!(
        step(&module("sandbox::cgroup::place"), &paths[0], &modules),
        Some(("sandbox::cgroup".into(), "sandbox::plain".into()))
    );
}

/// The finder finds a loop where there is one, and none in a chain.
#[test]
fn a_loop_is_found() {
    let edge = |graph: &mut Graph, from: &str, to: &str| {
        graph
            .entry(from.into())
            .or_default()
            .entry(to.into())
            .or_default()
            .insert(format!("{from}.rs"));
    };
    let mut graph = Graph::new();
    edge(&mut graph, "commands", "engine");
    edge(&mut graph, "engine", "report");
    edge(&mut graph, "render", "report");
    assert_eq!(find_cycle(&graph), None);
    edge(&mut graph, "report", "commands");
    assert_eq!(
        find_cycle(&graph),
        Some(vec![
            "commands".to_string(),
            "engine".into(),
            "report".into(),
            "commands".into()
        ])
    );
    let mut edges = BTreeSet::new();
    read_paths(
        "use crate::{engine::Judge, report};\nlet x = crate::verdict::Verdict::AC; // crate::web\n",
        &mut edges,
    );
    assert_eq!(
        edges,
        ["engine", "report", "verdict"].map(String::from).into()
    );
}

fn join(files: &BTreeSet<String>) -> String {
    files.iter().cloned().collect::<Vec<_>>().join(", ")
}

fn graph_of(src: &Path) -> Graph {
    let tops: BTreeSet<String> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let name = p.file_stem()?.to_str()?.to_string();
            let module = p.is_dir() || p.extension().is_some_and(|e| e == "rs");
            (module && !["lib", "main"].contains(&name.as_str())).then_some(name)
        })
        .collect();
    let mut graph = Graph::new();
    for file in rust_files(src) {
        let rel = file.strip_prefix(src).unwrap();
        let top = rel.iter().next().unwrap().to_str().unwrap();
        let top = top.strip_suffix(".rs").unwrap_or(top).to_string();
        if !tops.contains(&top) || is_test_file(rel) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let mut used = BTreeSet::new();
        read_paths(&without_test_module(&text), &mut used);
        for to in used {
            if to != top && tops.contains(&to) {
                graph
                    .entry(top.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(rel.display().to_string());
            }
        }
    }
    graph
}

/// Which file (or folder) of a module imports which of the same module,
/// and in which files; named by their module paths.
fn file_graph(src: &Path) -> Graph {
    let files: Vec<(PathBuf, Vec<String>)> = rust_files(src)
        .into_iter()
        .map(|file| {
            let rel = file.strip_prefix(src).unwrap().to_path_buf();
            let mut module: Vec<String> = rel
                .with_extension("")
                .iter()
                .map(|c| c.to_str().unwrap().to_string())
                .collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            if module == ["lib"] || module == ["main"] {
                module.clear();
            }
            (rel, module)
        })
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
    let mut graph = Graph::new();
    for (rel, module) in &files {
        if is_test_file(rel) {
            continue;
        }
        let text = std::fs::read_to_string(src.join(rel)).unwrap();
        let mut paths = Vec::new();
        full_paths(&without_test_module(&text), &mut paths);
        for path in &paths {
            if let Some((from, to)) = step(module, path, &modules) {
                graph
                    .entry(from)
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(rel.display().to_string());
            }
        }
    }
    graph
}

/// The step between two files of one module that `path`, written in the
/// file of `module`, makes: the two children of their closest common
/// module that hold either side; `None` within one file or for a path to
/// a module above.
fn step(
    module: &[String],
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<(String, String)> {
    let mut absolute: Vec<String> = Vec::new();
    let mut segments = path.iter();
    match segments.next()?.as_str() {
        "crate" => {}
        "super" => {
            absolute = module.to_vec();
            absolute.pop()?;
            for s in segments.by_ref() {
                if s != "super" {
                    absolute.push(s.clone());
                    break;
                }
                absolute.pop()?;
            }
        }
        _ => return None,
    }
    absolute.extend(segments.cloned());
    let target = (1..=absolute.len())
        .rev()
        .map(|n| &absolute[..n])
        .find(|m| modules.contains(*m))?;
    let common = module
        .iter()
        .zip(target)
        .take_while(|(a, b)| a == b)
        .count();
    if module.len() <= common || target.len() <= common {
        return None;
    }
    Some((module[..=common].join("::"), target[..=common].join("::")))
}

/// Every `crate::` and `super::` path in code (not comments), as its
/// segments, a `{...}` group giving one path per member.
fn full_paths(text: &str, paths: &mut Vec<Vec<String>>) {
    let code: String = text
        .lines()
        .map(|line| line.find("//").map_or(line, |i| &line[..i]))
        .collect::<Vec<_>>()
        .join("\n");
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let root = ["crate::", "super::"]
            .into_iter()
            .find(|r| rest.starts_with(r));
        let after_ident = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        match root {
            Some(r) if !after_ident => {
                let prefix = vec![r.trim_end_matches(':').to_string()];
                i += r.len() + read_path(&code[i + r.len()..], prefix, paths);
            }
            _ => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
}

/// Reads the rest of a path after `prefix::` (a name, more segments, or a
/// group); returns how many bytes it read.
fn read_path(text: &str, mut prefix: Vec<String>, paths: &mut Vec<Vec<String>>) -> usize {
    let mut at = 0;
    loop {
        let rest = &text[at..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut read = 1;
            let mut member = group;
            loop {
                let skipped = member.len() - member.trim_start().len();
                member = member.trim_start();
                read += skipped;
                if member.starts_with('}') {
                    return at + read + 1;
                }
                if member.is_empty() {
                    return at + read;
                }
                let n = read_path(member, prefix.clone(), paths).max(1);
                member = &member[n..];
                read += n;
                // `name as alias`: the alias is no path.
                let trimmed = member.trim_start();
                if let Some(alias) = trimmed.strip_prefix("as ") {
                    let alias = alias.trim_start();
                    let skip = member.len() - alias.len() + ident(alias).len();
                    member = &member[skip..];
                    read += skip;
                }
                if let Some(after) = member.strip_prefix(',') {
                    member = after;
                    read += 1;
                }
            }
        }
        let name = ident(rest);
        if name.is_empty() {
            if prefix.len() > 1 {
                paths.push(prefix);
            }
            return at;
        }
        prefix.push(name.to_string());
        at += name.len();
        if text[at..].starts_with("::") {
            at += 2;
        } else {
            // `super::x as y`, `super::x;`, `crate::x::f(...)`: the path ends.
            paths.push(prefix);
            return at;
        }
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Test-only files: `tests.rs`, anything under a `tests/` folder.
fn is_test_file(rel: &Path) -> bool {
    rel.iter().any(|c| c == "tests" || c == "tests.rs")
}

/// The text before the `#[cfg(test)] mod ... {` that ends a file.
fn without_test_module(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|w| {
            w[0].trim() == "#[cfg(test)]"
                && w[1].trim_start().starts_with("mod ")
                && w[1].trim_end().ends_with('{')
        })
        .unwrap_or(lines.len());
    lines[..end].join("\n")
}

/// The top-level modules named by `crate::` paths in code (not comments).
fn read_paths(text: &str, used: &mut BTreeSet<String>) {
    for line in text.lines() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let before = rest[..i].chars().next_back();
            rest = &rest[i + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                read_group(group, used);
            } else {
                used.insert(ident(rest).to_string());
            }
        }
    }
    // Groups over several lines: `use crate::{\n a,\n b::c,\n};`.
    let mut rest = text;
    while let Some(i) = rest.find("use crate::{") {
        rest = &rest[i + "use crate::{".len()..];
        read_group(rest, used);
    }
}

/// The first names of the paths in a `{...}` group (after its `{`).
fn read_group(group: &str, used: &mut BTreeSet<String>) {
    let mut depth = 0;
    let mut at_start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return,
            '}' => depth -= 1,
            ',' if depth == 0 => at_start = true,
            c if at_start && depth == 0 && (c.is_alphanumeric() || c == '_') => {
                used.insert(ident(&group[i..]).to_string());
                at_start = false;
            }
            _ => {}
        }
    }
}

fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// A loop in the graph, as the modules along it (the first repeated last).
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|n| n == node) {
            let mut cycle = path[i..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(|m| m.keys()) {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

/// The web layer asks the live contest (the one door, with a viewer) and
/// never its store: no `.store` and no `server::store` in `src/web/`
/// outside its tests, so no rule of who sees what can be skipped there.
#[test]
fn the_web_layer_never_reaches_the_store() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut read = 0;
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&web).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with("tests.rs") {
            continue;
        }
        read += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            let field = line.match_indices(".store").any(|(at, m)| {
                !line[at + m.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if field || line.contains("server::store") || line.trim_end().ends_with(".store") {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(read > 5, "too few files read from {}", web.display());
    assert!(
        found.is_empty(),
        "the web layer reaches the store directly (ask crate::server::live::LiveContest with a \
         viewer instead):\n{}",
        found.join("\n")
    );
}
