#!/usr/bin/env bash
# make test: every test, in three lanes side by side once the binary and the tools are built.
#
#   [e2e i/n]  the browser suite, in shards (web/scripts/e2e.mjs), then [web] the console
#              unit tests
#   [go]       the Go tests with every go vet check, then staticcheck
#   [lint]     gofmt, tsc and eslint
#
# On two cores the three lanes end within a minute of each other (docs/frontend.md).
#
# The browser suite and many Go packages mostly wait (on servers, brokers, browsers and live
# figures) while lint and the unit tests compute, so together they keep both cores busy where
# one after the other they would leave them idle. Each line carries its lane's tag. Every lane
# runs to its end even when another fails, so one run names every failure; the exit code is
# non-zero when any lane failed.
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
rcs=$(mktemp -d)
trap 'rm -rf "$rcs"' EXIT

# cpu FILE: writes to FILE the processor time (user + system, whole seconds) this shell's
# finished children took, from the second line `times` prints (run here, not in a pipe or
# $(...), whose subshell would count only its own children). On two cores the lanes share the
# processor, so this, not the time a lane took, says which lane costs what.
cpu() {
  times >"$1.times"
  awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%d\n", n }' "$1.times" >"$1"
}

started=$SECONDS
"$MAKE" --no-print-directory build chromium fonts bin/telegraf bin/mailpit deps || exit 1
cpu "$rcs/tools.cpu"
echo "test: tools and binary ready after $((SECONDS - started)) s (cpu $(cat "$rcs/tools.cpu") s)"

# result TAG: passed or FAILED, from the exit code the lane kept.
result() {
  [ "$(cat "$rcs/$1" 2>/dev/null)" = 0 ] && echo passed || echo FAILED
}

# lane TAG COMMAND...: runs the command, its lines tagged, and keeps its exit code.
lane() {
  local tag=$1
  shift
  { "$@" 2>&1; echo $? >"$rcs/$tag"; cpu "$rcs/$tag.cpu"; } | sed -u "s/^/[$tag] /"
  echo "test: $tag $(result "$tag") after $((SECONDS - started)) s (cpu $(cat "$rcs/$tag.cpu") s)"
}

browser() {
  (cd web && HELIO_BIN="$PWD/../bin/helio" node scripts/e2e.mjs)
  echo $? >"$rcs/e2e"
  cpu "$rcs/e2e.cpu"
  echo "test: browser suite $(result e2e) after $((SECONDS - started)) s (cpu $(cat "$rcs/e2e.cpu") s)"
  lane web "$MAKE" --no-print-directory test-web
}

browser &
first=$!
# BUILT=1: the binary the browser suite runs is not built again under it. staticcheck follows
# the tests (-k: even when they fail), reading the packages and test variants they compiled.
lane go "$MAKE" --no-print-directory -k BUILT=1 test-go staticcheck &
second=$!
# VET=0 STATICCHECK=0: the Go lane runs go vet's every check with the tests (-vet=all), and
# staticcheck after them
lane lint "$MAKE" --no-print-directory VET=0 STATICCHECK=0 lint
wait $first $second

# The last lines name every lane's end, so a log cut to its tail still says which failed.
failed=""
summary=""
for tag in e2e go lint web; do
  [ "$(result "$tag")" = passed ] || failed="$failed $tag"
  summary="$summary $tag $(result "$tag") (cpu $(cat "$rcs/$tag.cpu" 2>/dev/null || echo ?) s);"
done
echo "test: every lane done after $((SECONDS - started)) s:$summary"
if [ -n "$failed" ]; then
  echo "test: FAILED:$failed (a lane's lines begin with its tag: [go], [lint], [web], [e2e i/n])"
  exit 1
fi
