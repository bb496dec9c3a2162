#!/usr/bin/env bash
# Runs every fuzz test of the repository in turn, FUZZTIME each (default
# 10m), one worker each (-parallel 1) at nice 19, so it can run beside
# other work. A crasher is written by go test to the package's
# testdata/fuzz/FuzzXxx/ (commit it with the fix: go test replays it).
#
#   scripts/fuzz.sh                       every fuzzer, 10 minutes each
#   FUZZTIME=1m scripts/fuzz.sh           shorter
#   scripts/fuzz.sh FuzzImportsFind ...   only these
#
# One line per fuzzer (package, name, result, executions) goes to stdout
# and to .cache/fuzz/results.txt; the tail of a failing run goes to
# .cache/fuzz/FuzzXxx.fail.
set -uo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-10m}
mkdir -p .cache/fuzz
out=.cache/fuzz/results.txt

list=$(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(f \*testing\.F\)' . |
	grep -v -e '^./third_party/' -e '^./.cache/' |
	while read -r file; do
		pkg=$(dirname "$file")
		grep -oE '^func Fuzz[A-Za-z0-9_]+' "$file" | sed "s|^func |$pkg |"
	done | sort -k2)

failed=0
while read -r pkg name; do
	[ -z "$name" ] && continue
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
	log=$(nice -n 19 go test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 10x -parallel 1 2>&1)
	rc=$?
	execs=$(printf '%s\n' "$log" | grep -E '^fuzz: elapsed' | tail -1 | sed -E 's/.*execs: ([0-9]+).*/\1/')
	if [ $rc -eq 0 ]; then res=ok; else res=FAIL; failed=$((failed + 1)); printf '%s\n' "$log" | tail -40 >".cache/fuzz/$name.fail"; fi
	line="$(date -u +%FT%TZ) $pkg $name $res $FUZZTIME execs=${execs:-?}"
	echo "$line" | tee -a "$out"
done <<<"$list"
[ $failed -eq 0 ]
