#!/bin/bash
# Runs inside the test VM (started by boot.sh with the job's settings in the
# environment: REPO, CLI (the test binary), SUITE): the placements of
# tests/vm/README.md, each a run of the test binary with the level it must
# reach, and for `full` the hostile suite, the package-program tests and the
# verdict table. Writes one
# line per placement to /vm-out/placements.txt; exits non-zero if any failed.
set -u
set -a
. /vm-out/job.env
set +a
cd "$REPO"
suite=${1:-smoke}
# A suite is a list of parts: smoke = placements (the judge's own and the
# containers' shapes: `placements`, `containers`); full = those, the
# docs/ci.md workflow, and the hostile suite with the package-program tests
# (untrusted::) and the verdict table.
case $suite in
  smoke) parts=" placements containers " ;;
  full) parts=" placements containers workflow hostile " ;;
  only) parts=" only " ;;
  *) parts=" ${suite//,/ } " ;;
esac
kernel=$(uname -r)
log=/vm-out/placements.txt
failed=0
export JUDGE_TEST_SLOWDOWN=${JUDGE_TEST_SLOWDOWN:-5}
echo "kernel $kernel, cgroup $(stat -fc %T /sys/fs/cgroup), suite $suite, $(nproc) CPUs"

# Each test's time in the log, for the budgets (libtest's --report-time is
# unstable: RUSTC_BOOTSTRAP lets a stable build take it; left out if refused).
report_time=()
if RUSTC_BOOTSTRAP=1 "$CLI" --list -Z unstable-options --report-time >/dev/null 2>&1; then
  report_time=(-Z unstable-options --report-time)
fi

if [[ $parts == *" only "* ]]; then
  # shellcheck disable=SC2086
  env RUSTC_BOOTSTRAP=1 JUDGE_TEST_UNPRIVILEGED_USER=judgeci JUDGE_TEST_INSTALLED_LANGUAGES_ONLY=1 \
    "$CLI" $FILTER --skip without_isolation --test-threads 2 "${report_time[@]}" || failed=1
fi

# One placement: NAME, LEVEL it must reach, REASON (a piece of the warning,
# or -), then the command that runs the test binary's filter.
placement() {
  local name=$1 level=$2 reason=$3
  shift 3
  local started=$SECONDS
  echo "== $name (expect $level)"
  local envs=(JUDGE_TEST_EXPECT_ISOLATION="$level" JUDGE_TEST_PLACEMENT_LOG=/tmp/placement.line
    JUDGE_TEST_SLOWDOWN="$JUDGE_TEST_SLOWDOWN")
  [ "$reason" != - ] && envs+=(JUDGE_TEST_EXPECT_REASON="$reason")
  rm -f /tmp/placement.line
  if "$@" env "${envs[@]}" "$CLI" placement:: --test-threads 1 --nocapture; then
    result=ok
  else
    result=FAILED
    failed=1
  fi
  echo "$kernel | $name | $level | $result | $(cat /tmp/placement.line 2>/dev/null) | $((SECONDS - started)) s" \
    | tee -a "$log"
}

as_user() { runuser -u "$1" -- "${@:2}"; }
in_root_cgroup() { bash -c 'echo $$ > /sys/fs/cgroup/cgroup.procs && exec "$@"' bash "$@"; }
chmod 1777 /tmp
grep -qs judge-vm /etc/hosts || echo "127.0.1.1 judge-vm" >>/etc/hosts   # for sudo


if [[ $parts == *" placements "* ]]; then
  # Root: in this service (judge-vm.service, shared, no delegation), in the
  # root cgroup, and started in a delegated scope of its own.
  placement "root, in a service without delegation" cgroup-v2 - env
  placement "root, in the root cgroup" cgroup-v2 - in_root_cgroup
  placement "root, systemd-run --scope -p Delegate=yes" cgroup-v2 - \
    env JUDGE_TEST_LAUNCHER="systemd-run --scope -p Delegate=yes --quiet"
  # Root as a container's main process (Docker's and Podman's default on
  # cgroup v2): a delegated cgroup that its own cgroup namespace makes look
  # like the root, and no systemd to ask.
  placement "root, a container's main process (own cgroup namespace, no systemd)" cgroup-v2 - \
    env JUDGE_TEST_LAUNCHER="systemd-run --scope -p Delegate=yes --quiet /bin/sh $REPO/tests/vm/in-container.sh"
  # A user with a user manager (judgeci lingers): started in a delegated
  # scope, and started anywhere (the judge asks the user manager itself).
  placement "user, systemd-run --user --scope -p Delegate=yes" cgroup-v2 - \
    as_user judgeci env XDG_RUNTIME_DIR=/run/user/1001 \
    JUDGE_TEST_LAUNCHER="systemd-run --user --scope -p Delegate=yes --quiet"
  placement "user, in a root service (asks its user manager)" cgroup-v2 - as_user judgeci env
  # A user without a user manager: namespaces, saying why.
  placement "user without a user manager" namespaces "loginctl enable-linger" as_user judgealone env
  # User namespaces denied (Debian's sysctl; the generic one where missing).
  if [ -e /proc/sys/kernel/unprivileged_userns_clone ]; then
    knob=kernel.unprivileged_userns_clone on=1 off=0
  else
    knob=user.max_user_namespaces on=$(sysctl -n user.max_user_namespaces) off=0
  fi
  sysctl -qw "$knob=$off"
  placement "user, user namespaces denied" rlimit-only "$knob" as_user judgeci env
  # Root needs no user namespace: full isolation all the same.
  placement "root, user namespaces denied" cgroup-v2 - env
  sysctl -qw "$knob=$on"
fi

if [[ $parts == *" containers "* ]]; then
  # Root in a container that is not the judge's alone (tests/vm/in-container.sh's
  # shapes), each in a delegated scope of its own as an engine makes one, and
  # on a host without systemd. The test finds no judge-PID cgroup left on the
  # host's hierarchy, which holds the containers'.
  in_container="systemd-run --scope -p Delegate=yes --quiet /bin/sh $REPO/tests/vm/in-container.sh"
  placement "root, a container with a shell parent (docker run IMAGE sh -c, GitLab, a pod's command)" \
    cgroup-v2 - env JUDGE_TEST_LAUNCHER="env JUDGE_CONTAINER=shell $in_container"
  placement "root, a container after docker:dind's entrypoint (processes in /init)" \
    cgroup-v2 - env JUDGE_TEST_LAUNCHER="env JUDGE_CONTAINER=dind $in_container"
  placement "root, a container seeing the host's /run (systemd's socket)" \
    cgroup-v2 - env JUDGE_TEST_LAUNCHER="env JUDGE_CONTAINER=run $in_container"
  placement "root, a container with cgroupfs read-only (an unprivileged pod)" \
    namespaces "read-only" env JUDGE_TEST_LAUNCHER="env JUDGE_CONTAINER=readonly $in_container"
  placement "root, a host without systemd, beside other processes" \
    cgroup-v2 - env JUDGE_TEST_LAUNCHER="env JUDGE_CONTAINER=nosystemd /bin/sh $REPO/tests/vm/in-container.sh"
fi

if [[ $parts == *" workflow "* ]]; then
  # docs/ci.md's workflow, step by step, as a user with sudo (the runner).
  started=$SECONDS
  if runuser -u judgeci -- env REPO="$REPO" bash "$REPO/tests/vm/ci-workflow.sh"; then
    result=ok
  else
    result=FAILED
    failed=1
  fi
  echo "$kernel | docs/ci.md workflow (user with sudo, service) | cgroup-v2 | $result | | $((SECONDS - started)) s" \
    | tee -a "$log"
fi

if [[ $parts == *" hostile "* ]]; then
  echo "== the hostile suite, the package-program tests and the verdict table, as root in this service"
  started=$SECONDS
  if env RUSTC_BOOTSTRAP=1 JUDGE_TEST_UNPRIVILEGED_USER=judgeci JUDGE_TEST_INSTALLED_LANGUAGES_ONLY=1 \
    "$CLI" hostile:: untrusted:: verdicts::every_fixture_gets_its_verdict \
    --skip without_isolation --test-threads 2 "${report_time[@]}"; then
    result=ok
  else
    result=FAILED
    failed=1
  fi
  echo "$kernel | hostile suite + untrusted + verdict table (root, service) | cgroup-v2 | $result | | $((SECONDS - started)) s" \
    | tee -a "$log"
fi
exit $failed
