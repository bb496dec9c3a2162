#!/usr/bin/env bash
# A warm start's cost without the machine's load: each revision is built
# from a copy of it (git archive), started once in a private tmux server
# on the home (HOME_DIR, default .cache/bench/W) to fill its own cache
# folder (FILL seconds, default 15), then started again on that cache
# under `valgrind --tool=cachegrind --cache-sim=no` for CG_SECS seconds
# (default 150: valgrind runs it some 50 times slower) and quit with q.
# Prints the instructions of each (start-up and the idle rest of the
# window together: compare revisions with the same CG_SECS). With
# PROFILES=N it also runs N more warm starts of each (a WINDOW-second
# window, default 6) with MEMSCOPE_CPUPROFILE and prints, per start,
# the CPU-seconds of the profiles' samples and of the parts the
# docs/PERFORMANCE.md "i28m" table names. COLD=1 measures a cold start
# instead (no fill run: the cache folder empty).
#
#   scripts/startup-cg.sh [REV_A [REV_B]]            (default: main HEAD)
#   PROFILES=3 scripts/startup-cg.sh main i28m
set -euo pipefail
cd "$(dirname "$0")/.."
A=${1:-main} B=${2:-HEAD}
H=${HOME_DIR:-$PWD/.cache/bench/W}
H=$(cd "$H" && pwd)
command -v valgrind >/dev/null || { echo "startup-cg: valgrind is required" >&2; exit 1; }
work=$(mktemp -d)
sock="$work/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
tmux -S "$sock" new-session -d -s keep "sleep 36000"

. scripts/tmux-lib.sh

parts='overview.Compute$|overview.secretsLine$|overview.problemsLine$|overview.lostLine$|gob...Decoder..Decode$|History..load.func3$|History..loadDigest.func1$|runtime.gcBgMarkWorker$|ui.Model.View$|feed.loadProject$|leftover.Find$'
for r in "$A" "$B"; do
	d="$work/$(echo "$r" | tr / _)"
	mkdir -p "$d/src" "$d/xdg"
	git archive "$r" | tar -x -C "$d/src"
	(cd "$d/src" && go build -o "$d/memscope" .)
	env="XDG_CACHE_HOME=$d/xdg NO_COLOR=1"
	[ -n "${COLD:-}" ] || run_window fill "${FILL:-15}" "$env exec $d/memscope --home $H"
	run_window cg "${CG_SECS:-150}" "$env valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=$d/cg.out $d/memscope --home $H 2>/dev/null"
	echo "$r: $(awk '/^summary/ {printf "%.0f M instructions", $2 / 1e6}' "$d/cg.out") (load average $(cut -d' ' -f1-3 /proc/loadavg))"
	n=${PROFILES:-0}
	[ "$n" -gt 0 ] || continue
	profs=()
	for i in $(seq 1 "$n"); do
		run_window prof "${WINDOW:-6}" "$env MEMSCOPE_CPUPROFILE=$d/p$i.prof exec $d/memscope --home $H"
		profs+=("$d/p$i.prof")
	done
	go tool pprof -top -cum "$d/memscope" "${profs[@]}" 2>/dev/null | awk -v n="$n" -v p="$parts" '
		function secs(v) { if (v ~ /ms$/) { sub(/ms$/, "", v); return v / 1000 } sub(/s$/, "", v); return v }
		/Total samples/ { v = $0; sub(/.*Total samples = /, "", v); sub(/ .*/, "", v); printf "  samples per start %.3f\n", secs(v) / n }
		$NF ~ p { printf "  %-70s %.3f\n", $NF, secs($4) / n }'
done
