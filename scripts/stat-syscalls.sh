#!/usr/bin/env bash
# The system calls of a warm `memscope stat --json` on a home (HOME_DIR,
# default .cache/bench/W), two revisions side by side: each is built
# from a copy of it (git archive), run once to fill its own cache, then
# RUNS times (default 2) under `strace -f -c`; prints the newfstatat,
# openat, openat2 and total counts of each run, and checks the two
# revisions print the same report (cmp).
#
#   scripts/stat-syscalls.sh [REV_A [REV_B]]     (default: main HEAD)
set -euo pipefail
cd "$(dirname "$0")/.."
A=${1:-main} B=${2:-HEAD}
H=${HOME_DIR:-$PWD/.cache/bench/W}
H=$(cd "$H" && pwd)
command -v strace >/dev/null || { echo "stat-syscalls: strace is required" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in "$A" "$B"; do
	d="$work/$(echo "$r" | tr / _)"
	mkdir -p "$d/src" "$d/xdg"
	git archive "$r" | tar -x -C "$d/src"
	(cd "$d/src" && go build -o "$d/memscope" .)
	XDG_CACHE_HOME=$d/xdg "$d/memscope" stat --home "$H" --json >"$d/cold.json"
	for i in $(seq 1 "${RUNS:-2}"); do
		XDG_CACHE_HOME=$d/xdg strace -f -c -o "$d/strace.txt" "$d/memscope" stat --home "$H" --json >"$d/warm.json"
		echo "$r warm run $i $(date -u +%H:%M:%S): $(awk '$NF ~ /^(newfstatat|openat|openat2|total)$/ {printf "%s %s  ", $NF, $4}' "$d/strace.txt")"
	done
done
da="$work/$(echo "$A" | tr / _)" db="$work/$(echo "$B" | tr / _)"
cmp "$da/cold.json" "$db/cold.json" && cmp "$da/warm.json" "$db/warm.json" && echo "same report, cold and warm"
