//! Integration tests of the `judge` binary: the real CLI, with real compilers,
//! on fixture submissions that misbehave on purpose (tests/fixtures). Every
//! test works in its own temporary workspace (see [`support::Workspace`]), so
//! the tests run in parallel and never touch the repository's cache.
//!
//! - [`verdicts`]: the table of fixtures and their expected verdicts;
//! - [`bad_input`]: bad specs, files, package programs, contest folders: clear errors, no hangs;
//! - [`contestant`]: samples folders, file input and output, `--input -`, `stress
//!   --generator`, and `judge listen` receiving Competitive Companion's requests;
//! - [`layers`]: no loop between the top-level modules of `src/`;
//! - [`exit_codes`]: 0, 1, 2 (could not judge) and 3 (internal error);
//! - [`formats`]: ICPC/Kattis and Polygon packages, testlib, `judge export`, and the
//!   cross-check with problemtools;
//! - [`real_packages`]: packages as people publish them (the peers' layouts and spellings);
//! - [`reports`]: the JSON schema, the human diff, `--fail-fast`, `--input`, `list`;
//! - [`processes`]: nothing outlives the judge; ready executables;
//! - [`batch`]: contests judged, scored, merged across partitions, rendered in a browser;
//! - [`browser`]: `judge serve` in headless Chromium (a verdict appears live, a frozen board stays);
//! - [`hostile`]: hostile submissions are contained and leave nothing behind;
//! - [`placement`]: the level and exact memory wherever the judge is started (the cgroup-v2 VM's placements);
//! - [`sandbox`]: what compilations and runs can see and do (an allow-list);
//! - [`untrusted`]: package programs and contest folders are hostile too: contained,
//!   bounded, and one submission never ends a contest;
//! - [`snapshots`]: what every command prints, byte for byte (times and sizes normalised);
//! - [`verify`]: `judge verify` holds on a sound package and fails on broken ones;
//! - [`stress`]: `judge stress` finds and shrinks counterexamples; `judge gen`;
//! - [`serve`]: `judge serve` over HTTP as its clients use it (harness in [`serve_support`]);
//! - [`archive`]: a served contest archived as a contest package and judged again by `judge batch`; hostile packages refused;
//! - [`upgrade`]: a judge whose binary is replaced while it runs (an upgrade) goes on;
//! - [`vm_proof`]: the VM's proof of the whole hostile suite follows the sandbox (tests/vm/fingerprint.sh).

mod archive;
mod bad_input;
mod batch;
mod browser;
mod contention;
mod contestant;
mod exit_codes;
mod formats;
mod hostile;
mod interactive;
mod judgehost;
mod languages;
mod layers;
mod pch;
mod placement;
mod postgres_support;
mod processes;
mod real_packages;
mod reports;
mod sandbox;
mod serve;
mod serve_review;
mod serve_support;
mod snapshots;
mod starved;
mod stress;
mod support;
mod untrusted;
mod upgrade;
mod verdicts;
mod verify;
mod vm_proof;
