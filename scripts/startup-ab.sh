#!/usr/bin/env bash
# Two revisions' start-up side by side: scripts/startup-bench.sh run
# from a copy of each (git archive, so the tree being edited is not what
# is measured), alternated PAIRS times (default 3), on the same home
# (HOME_DIR, default .cache/bench/W). Prints each run's cold and warm
# rows with the revision and the load average before it: on a busy
# machine, compare the medians of the alternated runs, not one pair.
#
#   scripts/startup-ab.sh [REV_A [REV_B]]     (default: main HEAD)
#   PAIRS=5 IDLE_SECS=5 scripts/startup-ab.sh main my-branch
set -euo pipefail
cd "$(dirname "$0")/.."
A=${1:-main} B=${2:-HEAD}
H=${HOME_DIR:-$PWD/.cache/bench/W}
H=$(cd "$H" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in "$A" "$B"; do
	mkdir -p "$work/$r"
	git archive "$r" | tar -x -C "$work/$r"
done
for i in $(seq 1 "${PAIRS:-3}"); do
	for r in "$A" "$B"; do
		echo "== $r run $i $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)"
		(cd "$work/$r" && IDLE_SECS=${IDLE_SECS:-5} HOME_DIR=$H scripts/startup-bench.sh 2>/dev/null | grep '^| \(cold\|warm\)')
	done
done
