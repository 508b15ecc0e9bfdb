#!/usr/bin/env bash
# Prints the fingerprint of what decides the hostile suite's and the verdict
# table's results in the cgroup-v2 VM: a sha256 over the path and content of
# every file below. tests/vm/full-proved holds the fingerprint of the tree on
# which `tests/vm/run.sh 6.1 full` last passed; tests/vm/ci.sh runs that part
# again whenever the tree's differs.
#   tests/vm/fingerprint.sh [ROOT]          the fingerprint (ROOT: the repository)
#   tests/vm/fingerprint.sh --files [ROOT]  the files it covers, one a line
# What it covers, and why: what behaves differently on a cgroup-v2 kernel is
# the sandbox (src/sandbox: cgroups, namespaces, keepers, limits); everything
# above it runs the same on the host, where `cargo test` runs the hostile
# suite and the verdict table on every push. Besides: the tests and fixtures
# the VM runs (and support.rs, which scales limits for emulation), judge.toml
# (languages and default limits), the guest's scripts, and this script.
set -euo pipefail
list=0
if [ "${1:-}" = --files ]; then list=1; shift; fi
root=${1:-"$(dirname "$0")/../.."}
cd "$root"
covered=(src/sandbox judge.toml
  tests/cli/hostile.rs tests/cli/untrusted.rs tests/cli/verdicts.rs tests/cli/support.rs
  tests/fixtures/hostile tests/fixtures/submissions
  tests/vm/build.sh tests/vm/boot.sh tests/vm/guest.sh tests/vm/in-container.sh tests/vm/run.sh
  tests/vm/fingerprint.sh)
files() {
  local path
  for path in "${covered[@]}"; do
    if [ -d "$path" ]; then
      find "$path" -type f
    elif [ -f "$path" ]; then
      echo "$path"
    else
      echo "fingerprint: $path is missing in $PWD" >&2
      return 1
    fi
  done | LC_ALL=C sort
}
names=$(files)
if ((list)); then
  echo "$names"
  exit 0
fi
# Each file's hash with its path (a rename counts), then one hash of those.
while IFS= read -r file; do
  printf '%s  %s\n' "$(sha256sum <"$file" | cut -d' ' -f1)" "$file"
done <<<"$names" | sha256sum | cut -d' ' -f1
