//! The contest server's web pages: pure functions from a live contest's
//! data to HTML (maud escapes every string, so what a team typed is shown
//! as text), one module per audience: [`team`], [`jury`], and what both
//! and the public see ([`board`], the scoreboard). Pages load nothing from
//! elsewhere (the LAN may be offline): one stylesheet and one small script
//! of our own ([`assets`]), which follows server-sent events to refresh the
//! parts of a page marked `data-live`.

pub(crate) mod assets;
pub(crate) mod board;
pub(crate) mod jury;
pub(crate) mod printing;
pub(crate) mod rejudging;
pub(crate) mod team;

use maud::{html, Markup, PreEscaped, DOCTYPE};

use crate::contest::clock::{format_reltime, format_time, ContestClock, EpochMs};
use crate::server::live::{ABOUT_GENERAL, ABOUT_TECHNICAL};
use crate::server::model::{Clarification, LiveConfig, StateSnapshot, TECHNICAL};
use crate::verdict::Verdict;

/// Who is looking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Who {
    /// Not logged in.
    Anonymous,
    /// A team: its id.
    Team(String),
    /// The jury.
    Jury,
}

/// What every page shows around its content.
#[derive(Debug, Clone)]
pub(crate) struct Chrome<'a> {
    /// The contest.
    pub(crate) config: &'a LiveConfig,
    /// Who is looking.
    pub(crate) who: Who,
    /// The form token of the session, for forms that change something.
    pub(crate) csrf: Option<&'a str>,
    /// The contest's state.
    pub(crate) state: StateSnapshot,
    /// The effective start.
    pub(crate) start: Option<EpochMs>,
    /// Now.
    pub(crate) now: EpochMs,
    /// The clock in effect: contest.toml's with the jury's start, length
    /// and freeze.
    pub(crate) clock: ContestClock,
    /// The number on the menu's clarifications badge: a team's unread
    /// messages, the jury's unanswered questions.
    pub(crate) badge: usize,
    /// The number on the menu's print-jobs badge: the jury's jobs not
    /// handed out yet.
    pub(crate) print_badge: usize,
}

impl Chrome<'_> {
    /// The hidden form field with the session's token.
    pub(crate) fn csrf_field(&self) -> Markup {
        html! { input type="hidden" name="csrf" value=(self.csrf.unwrap_or("")); }
    }

    /// The field of a message's form saying what it is about: the contest
    /// in general, or one of its problems.
    pub(crate) fn about_field(&self) -> Markup {
        html! {
            label { "About"
                select name="problem" {
                    option value=(ABOUT_GENERAL) { "General (the contest)" }
                    option value=(ABOUT_TECHNICAL) { "Technical (machines, compilers)" }
                    @for p in &self.config.problems { option value=(p.id) { "Problem " (p.label) ". " (p.name) } }
                }
            }
        }
    }

    /// What a message is about: a problem (its label), technical, general.
    pub(crate) fn about(&self, c: &Clarification) -> String {
        match (&c.problem, c.category.as_deref()) {
            (Some(p), _) => match self.config.problems.iter().find(|x| x.id == *p) {
                Some(x) => format!("problem {}", x.label),
                None => format!("problem {p}"),
            },
            (None, Some(TECHNICAL)) => "technical".into(),
            (None, _) => "general".into(),
        }
    }

    /// A line about the clock: before the start, the time left, frozen, over.
    pub(crate) fn clock_line(&self) -> String {
        let s = &self.state;
        let clock = self.clock;
        match (s.started, s.ended) {
            (None, _) => match self.start.filter(|st| *st > self.now && *st < i64::MAX / 8) {
                Some(start) => format!(
                    "starts at {} (in {})",
                    format_time(start),
                    short(start - self.now)
                ),
                None => "not started: the jury starts it".into(),
            },
            (Some(start), None) => {
                let left = clock.end(start) - self.now;
                let frozen = if s.is_frozen() {
                    ", scoreboard frozen"
                } else {
                    ""
                };
                format!("running, {} left{frozen}", short(left))
            }
            (Some(_), Some(_)) => {
                let mut text = String::from("over");
                if s.is_frozen() {
                    text.push_str(", scoreboard frozen");
                }
                if s.finalized.is_some() {
                    text.push_str(", results final");
                }
                text
            }
        }
    }
}

/// `1:02:03` (hours, minutes, seconds) of a span in ms.
fn short(ms: i64) -> String {
    let text = format_reltime(ms.max(0));
    text.split('.').next().unwrap_or(&text).to_string()
}

/// A whole page: header with the contest, the clock and the menu of who is
/// looking, then `body`.
pub(crate) fn layout(chrome: &Chrome, title: &str, body: Markup) -> String {
    let contest = &chrome.config.contest.title;
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · " (contest) }
                link rel="stylesheet" href="/static/style.css";
                script src="/static/live.js" defer {}
            }
            body {
                header {
                    strong { (contest) }
                    span.clock data-live-text="/clock" { (chrome.clock_line()) }
                    nav { (menu(chrome)) }
                }
                main {
                    @if let Some(url) = notice_of(&chrome.who) {
                        p.notice hidden data-notice=(url) {
                            "A new clarification: " a href=(url) { "read it" }
                        }
                    }
                    h1 { (title) }
                    (body)
                }
            }
        }
    };
    page.into_string()
}

/// Where a new message is read, for whom has messages.
fn notice_of(who: &Who) -> Option<&'static str> {
    match who {
        Who::Team(_) => Some("/team/clarifications"),
        Who::Jury => Some("/jury/clarifications"),
        Who::Anonymous => None,
    }
}

/// The menu's badge: a team's unread messages, the jury's unanswered
/// questions (also what its live refresh fetches).
pub(crate) fn badge(who: &Who, count: usize) -> Markup {
    html! {
        @if count > 0 {
            @match who {
                Who::Jury => { (count) " unanswered" }
                _ => { (count) " new" }
            }
        }
    }
}

/// The menu's print-jobs badge: the jobs waiting to be handed out (also
/// what its live refresh fetches).
pub(crate) fn print_badge(count: usize) -> Markup {
    html! { @if count > 0 { (count) " waiting" } }
}

fn menu(chrome: &Chrome) -> Markup {
    html! {
        @match &chrome.who {
            Who::Team(id) => {
                a href="/team" { "Problems & submissions" }
                a href="/team/clarifications" {
                    "Clarifications "
                    span.badge data-live="/team/fragment/badge" data-events="/team/updates" {
                        (badge(&chrome.who, chrome.badge))
                    }
                }
                a href="/team/scoreboard" { "Scoreboard" }
                @if chrome.config.printing.enabled { a href="/team/print" { "Print" } }
                form.inline method="post" action="/logout" {
                    (chrome.csrf_field())
                    button type="submit" { "Log out " (id) }
                }
            }
            Who::Jury => {
                a href="/jury" { "Contest" }
                a href="/jury/submissions" { "Submissions" }
                a href="/jury/clarifications" {
                    "Clarifications "
                    span.badge data-live="/jury/fragment/badge" data-events="/jury/updates" {
                        (badge(&chrome.who, chrome.badge))
                    }
                }
                a href="/jury/balloons" { "Balloons" }
                a href="/jury/rejudgings" { "Rejudgings" }
                @if chrome.config.printing.enabled {
                    a href="/jury/print" {
                        "Print jobs "
                        span.badge data-live="/jury/fragment/print-badge" data-events="/jury/updates" {
                            (print_badge(chrome.print_badge))
                        }
                    }
                }
                a href="/jury/scoreboard" { "Scoreboard" }
                a href="/scoreboard" { "Public scoreboard" }
                form.inline method="post" action="/logout" {
                    (chrome.csrf_field())
                    button type="submit" { "Log out (jury)" }
                }
            }
            Who::Anonymous => {
                a href="/scoreboard" { "Scoreboard" }
                a href="/login" { "Log in" }
            }
        }
    }
}

/// `text` percent-encoded for a URL's query.
pub(crate) fn query_value(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A verdict as a coloured badge (`pending` when there is none yet).
pub(crate) fn verdict_badge(verdict: Option<Verdict>) -> Markup {
    match verdict {
        Some(v) => {
            let class = if v == Verdict::AC {
                "verdict ok"
            } else {
                "verdict bad"
            };
            html! { span class=(class) title=(v.description()) { (v.as_str()) } }
        }
        None => html! { span.verdict.pending { "pending" } },
    }
}

/// The login page.
pub(crate) fn login(chrome: &Chrome, error: Option<&str>) -> String {
    let body = html! {
        @if let Some(error) = error { p.error { (error) } }
        form.card method="post" action="/login" {
            label { "Team id (or " code { "jury" } ")" input name="login" autocomplete="username" required autofocus; }
            label { "Password" input name="password" type="password" autocomplete="current-password" required; }
            button type="submit" { "Log in" }
        }
    };
    layout(chrome, "Log in", body)
}

/// A page that only says something (an error, a refusal, a confirmation).
pub(crate) fn message(chrome: &Chrome, title: &str, text: &str, back: &str) -> String {
    let body = html! {
        p.error { (text) }
        p { a href=(back) { "Back" } }
    };
    layout(chrome, title, body)
}

/// A problem statement in Markdown as HTML: raw HTML in it is shown as
/// text, and links and images go only to http(s), mailto (links) or
/// relative addresses (a package is not ours: a `javascript:` link on a
/// team's page would run in the team's session).
pub(crate) fn markdown(text: &str) -> Markup {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let parser = Parser::new_ext(text, Options::ENABLE_TABLES).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) if !safe_url(&dest_url, true) => Event::Start(Tag::Link {
            link_type,
            dest_url: "#".into(),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) if !safe_url(&dest_url, false) => Event::Start(Tag::Image {
            link_type,
            dest_url: "".into(),
            title,
            id,
        }),
        other => other,
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, parser);
    PreEscaped(out)
}

/// Whether a statement may link (or, `link` false, load an image) to
/// `url`: a relative address, or http(s) (and mailto for links). A scheme
/// is what comes before the first `:` if no `/`, `?` or `#` does.
fn safe_url(url: &str, link: bool) -> bool {
    let url = url.trim_start_matches(|c: char| c.is_whitespace() || c.is_control());
    let scheme_end = url.find(':');
    let path_start = url.find(['/', '?', '#']);
    let Some(end) = scheme_end.filter(|e| path_start.is_none_or(|p| *e < p)) else {
        return true;
    };
    let scheme = url[..end].to_ascii_lowercase();
    scheme == "http" || scheme == "https" || (link && scheme == "mailto")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_links_go_only_to_the_web_mail_or_nearby() {
        let html = markdown(
            "[a](javascript:alert(1)) [b]( JaVaScRiPt:alert(1)) [c](data:text/html,x) \
             [d](vbscript:x) [e](https://example.org/x) [f](mailto:jury@example.org) \
             [g](img/x.png) [h](#top) [i](?q=a:b) ![j](javascript:x) ![k](pic.png)",
        )
        .into_string();
        assert!(!html.to_ascii_lowercase().contains("javascript:"), "{html}");
        assert!(
            !html.contains("data:") && !html.contains("vbscript:"),
            "{html}"
        );
        for kept in [
            "href=\"https://example.org/x\"",
            "href=\"mailto:jury@example.org\"",
            "href=\"img/x.png\"",
            "href=\"#top\"",
            "href=\"?q=a:b\"",
            "src=\"pic.png\"",
        ] {
            assert!(html.contains(kept), "{kept} in {html}");
        }
    }

    #[test]
    fn markdown_shows_raw_html_as_text() {
        let html = markdown("# Title\n\n<script>alert(1)</script> and *x* <b>b</b>").into_string();
        assert!(html.contains("<h1>Title</h1>"));
        assert!(html.contains("&lt;script&gt;"));
        assert!(html.contains("&lt;b&gt;"));
        assert!(!html.contains("<script"));
    }
}
