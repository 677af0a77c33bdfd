#!/bin/sh
# Runs every fuzz target (func FuzzXxx in a *_fuzz_test.go file) for the given time
# each, one after the other: ./scripts/fuzz.sh [30s] (also 5m, 1h, or a count: 100000x).
# A failing input is written by `go test` to the package's testdata/fuzz/FuzzXxx/:
# commit it with the fix, it then runs in every `go test`. Exits non-zero when a target
# failed.
#
# Go 1.26's fuzz coordinator can end a healthy run with a bare "context deadline
# exceeded" when the time is up while a worker is busy, mostly on a loaded machine
# (golang/go#75804, fixed in Go 1.27). Such a run wrote no failing input and failed
# no seed; it is reported as that race, not as a finding.
set -u
cd "$(dirname "$0")/.."
FUZZTIME=${1:-30s}
GO=${GO:-go}

# the test timeout must outlast the fuzzing
case "$FUZZTIME" in
*s) secs=${FUZZTIME%s} ;;
*m) secs=$((${FUZZTIME%m} * 60)) ;;
*h) secs=$((${FUZZTIME%h} * 3600)) ;;
*) secs=3600 ;;
esac
timeout=$((secs + 600))s

failed=""
raced=""
total=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for file in $(find cmd internal -name '*_fuzz_test.go' | sort); do
	pkg=./$(dirname "$file")
	for target in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
		total=$((total + 1))
		echo "== $pkg $target ($FUZZTIME)"
		if $GO test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -timeout "$timeout" "$pkg" >"$log" 2>&1; then
			grep -v '^fuzz: elapsed' "$log"
			continue
		fi
		grep -v '^fuzz: elapsed' "$log"
		if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written\|failure while testing seed corpus\|panic:' "$log"; then
			echo "   (the fuzz coordinator's deadline race, golang/go#75804: no failing input)"
			raced="$raced $pkg:$target"
		else
			failed="$failed $pkg:$target"
		fi
	done
done
if [ -n "$raced" ]; then
	echo "ended by the deadline race, without a finding:$raced"
fi
if [ -n "$failed" ]; then
	echo "fuzzing failed:$failed"
	exit 1
fi
echo "fuzzing: $total targets, no failures"
