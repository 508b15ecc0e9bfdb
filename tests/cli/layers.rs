//! Layers look only down: reads the `crate::` paths of `src/` (the `use`
//! lines and paths written inline, not comments or test modules) and fails
//! on any loop between top-level modules, naming the files of each step.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which top-level module imports which, and in which files.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

#[test]
fn no_loop_between_top_level_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph_of(&src);
    assert!(
        graph.len() > 10,
        "too few modules read from {}",
        src.display()
    );
    if let Some(cycle) = find_cycle(&graph) {
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|w| {
                let files = &graph[&w[0]][&w[1]];
                format!("  {} -> {} (in {})", w[0], w[1], join(files))
            })
            .collect();
        panic!(
            "a loop between top-level modules (each layer may import only layers below it):\n{}",
            steps.join("\n")
        );
    }
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
