#!/usr/bin/env bash
# make test: every test, the browser suite beside the rest.
#
# The browser suite mostly waits (on its servers, the browser and live figures) while lint and
# the Go and console unit tests mostly compute, so the two run side by side once the binary
# and the tools are built: the browser suite's lines carry an "[e2e i/n]" prefix. Every part
# runs to its end even when another fails, so one run names every failure; the exit code is
# non-zero when any part failed.
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}

started=$SECONDS
"$MAKE" --no-print-directory build chromium fonts bin/telegraf deps || exit 1
echo "test: tools and binary ready after $((SECONDS - started)) s"

(cd web && HELIO_BIN="$PWD/../bin/helio" exec node scripts/e2e.mjs) &
e2e=$!
trap 'kill $e2e 2>/dev/null; exit 130' INT TERM

# BUILT=1: the binary the browser suite runs is not built again under it
"$MAKE" --no-print-directory -k BUILT=1 lint test-go test-web
checks=$?
echo "test: lint, Go and console unit tests $( [ $checks -eq 0 ] && echo passed || echo FAILED ) after $((SECONDS - started)) s"

wait $e2e
browser=$?
echo "test: browser suite $( [ $browser -eq 0 ] && echo passed || echo FAILED ) after $((SECONDS - started)) s"

[ $checks -eq 0 ] && [ $browser -eq 0 ]
