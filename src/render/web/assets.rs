//! The pages' only assets, served by the server itself: a stylesheet and
//! a script that keeps the parts of a page marked `data-live` current (it
//! listens to server-sent events and fetches the part again, also each
//! time its stream opens, and opens a refused stream again later; the
//! pages work without it, a reload shows the same) and shows the notice of a new
//! clarification (the event `clarification`).

/// `/static/style.css`.
pub(crate) const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { display: flex; gap: 1em; align-items: center; flex-wrap: wrap; padding: .6em 1em; background: #24324a; color: #fff; }
header a, header button { color: #fff; background: none; border: none; font: inherit; cursor: pointer; text-decoration: underline; padding: 0 .4em; }
header nav { margin-left: auto; display: flex; gap: .3em; align-items: center; }
.clock { opacity: .85; }
main { padding: 1em 2em; max-width: 72em; }
form.inline { display: inline; }
.card { display: grid; gap: .6em; max-width: 28em; padding: 1em; background: #fff; border: 1px solid #ddd; border-radius: 6px; }
label { display: grid; gap: .2em; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid #ddd; padding: .3em .6em; text-align: left; vertical-align: top; }
.verdict { font-weight: bold; padding: 0 .3em; border-radius: 3px; }
.ok { background: #c8f0c8; color: #064d06; }
.bad { background: #f6cccc; color: #7a0b0b; }
.pending { background: #eee; color: #555; }
.solved { background: #c8f0c8; }
.tried { background: #f6cccc; }
.waiting { background: #f5ecb8; }
.error { color: #7a0b0b; font-weight: bold; }
pre { background: #fff; border: 1px solid #ddd; padding: .5em; overflow-x: auto; max-height: 40em; }
.note { color: #555; }
.frozen { background: #dfe9f7; padding: .4em; }
.awards th { text-align: left; padding-right: 1em; }
.clarification div { white-space: pre-wrap; }
.badge:not(:empty) { background: #d33; color: #fff; border-radius: .8em; padding: 0 .45em; font-size: .85em; text-decoration: none; }
.notice { background: #fff3c4; border: 1px solid #e0c040; padding: .5em 1em; }
.answered { opacity: .7; }
.claimed { border-color: #e0a040; }
tr.first-solve { background: #c8f0c8; font-weight: bold; }
tr.done { opacity: .55; }
tr.changed { background: #fff3c4; font-weight: bold; }
.swatch { display: inline-block; width: 1em; height: 1em; border: 1px solid #888; border-radius: 50%; vertical-align: middle; }
"#;

/// `/static/live.js`.
pub(crate) const SCRIPT: &str = r#"
(function () {
  function refresh(el) {
    fetch(el.getAttribute('data-live'), {credentials: 'same-origin'})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) { el.innerHTML = html; } });
  }
  function start() {
    var parts = document.querySelectorAll('[data-live]');
    var sources = {};
    parts.forEach(function (el) {
      var url = el.getAttribute('data-events');
      (sources[url] = sources[url] || []).push(el);
    });
    var notice = document.querySelector('[data-notice]');
    Object.keys(sources).forEach(function (url) {
      var wait = 5000;
      function connect() {
        var es = new EventSource(url);
        // A stream tells of changes after it opened: what changed before
        // (since the page was made, or while it had no stream) is fetched.
        es.onopen = function () { wait = 5000; sources[url].forEach(refresh); };
        es.onmessage = function () { sources[url].forEach(refresh); };
        es.addEventListener('clarification', function () {
          sources[url].forEach(refresh);
          if (notice && location.pathname !== notice.getAttribute('data-notice')) {
            notice.hidden = false;
          }
        });
        // Refused (the server's streams are taken): the browser gives up
        // on it, so try again later, less often each time.
        es.onerror = function () {
          if (es.readyState === EventSource.CLOSED) {
            setTimeout(connect, wait);
            wait = Math.min(wait * 2, 60000);
          }
        };
      }
      connect();
    });
    var clock = document.querySelector('[data-live-text]');
    if (clock) {
      setInterval(function () {
        fetch(clock.getAttribute('data-live-text'), {credentials: 'same-origin'})
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (t) { if (t !== null) { clock.textContent = t; } });
      }, 5000);
    }
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
"#;
