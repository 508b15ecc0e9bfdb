//! A statement for an exported ICPC package: the package's Markdown
//! statement turned into the LaTeX the legacy format wants
//! (`\problemname{}` and text), simply: headings become sections, code
//! becomes `\texttt`, fenced blocks `verbatim`, lists `itemize`, and every
//! other character is escaped.

/// LaTeX for a statement titled `title` from Markdown `markdown`.
pub(super) fn latex(title: &str, markdown: &str) -> String {
    let mut out = format!("\\problemname{{{}}}\n\n", escape(title));
    let mut in_code = false;
    let mut in_list = false;
    for line in markdown.lines() {
        let trimmed = line.trim_end();
        if trimmed.starts_with("```") {
            out.push_str(if in_code {
                "\\end{verbatim}\n"
            } else {
                "\\begin{verbatim}\n"
            });
            in_code = !in_code;
            continue;
        }
        if in_code {
            out.push_str(trimmed);
            out.push('\n');
            continue;
        }
        let item = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "));
        if in_list && item.is_none() {
            out.push_str("\\end{itemize}\n");
            in_list = false;
        }
        if let Some(item) = item {
            if !in_list {
                out.push_str("\\begin{itemize}\n");
                in_list = true;
            }
            out.push_str(&format!("\\item {}\n", inline(item)));
        } else if let Some(heading) = trimmed.strip_prefix('#') {
            let text = heading.trim_start_matches('#').trim();
            // The title is \problemname already.
            if !trimmed.starts_with("# ") {
                out.push_str(&format!("\\section*{{{}}}\n", inline(text)));
            }
        } else {
            out.push_str(&inline(trimmed));
            out.push('\n');
        }
    }
    if in_code {
        out.push_str("\\end{verbatim}\n");
    }
    if in_list {
        out.push_str("\\end{itemize}\n");
    }
    out
}

/// A line of text: `code` as `\texttt`, the rest escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("\\texttt{{{}}}", escape(part)));
        } else {
            out.push_str(&escape(part.replace("**", "").as_str()));
        }
    }
    out
}

/// Text with LaTeX's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '#' | '$' | '%' | '&' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_becomes_escaped_latex() {
        let tex = latex(
            "Nim & Co",
            "# Nim & Co\n\nTake `a_i` stones, 100% sure.\n\n## Input\n\n- `1 <= n`\n- second\n\nEnd.\n\n```\n1 2\n```\n",
        );
        assert!(tex.starts_with("\\problemname{Nim \\& Co}\n"));
        assert!(tex.contains("Take \\texttt{a\\_i} stones, 100\\% sure."));
        assert!(tex.contains("\\section*{Input}"));
        assert!(tex.contains(
            "\\begin{itemize}\n\\item \\texttt{1 \\textless{}= n}\n\\item second\n\\end{itemize}"
        ));
        assert!(tex.contains("\\begin{verbatim}\n1 2\n\\end{verbatim}"));
    }
}
