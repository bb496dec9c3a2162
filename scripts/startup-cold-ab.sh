#!/usr/bin/env bash
# Cold starts of two builds of the app, alternated run by run (A, B, A,
# B, …), each in a private tmux server on a home with its cache folder
# empty: the CPU-seconds (utime + stime) and the bytes read (rchar) until
# the process is idle, taken as CPU growing less than IDLE_CPU seconds
# (default 0.15) over STEP seconds (default 10): a long step, so that a
# busy machine's stalls are not taken for idleness. Prints each run and
# the medians. On a shared machine read the medians side by side, not
# the levels.
#
# GC=1 runs each start with GODEBUG=gctrace=1 and prints, instead of the
# bytes read, the collector's side: the peak RSS (VmHWM), the RSS at
# idle (VmRSS), the collector's cycles and the MB allocated between them
# (each cycle's heap at its start less the live heap after the one
# before; cycles and MB do not depend on the load). WARM=1 measures warm
# starts: each build's cache folder is filled by one start first (not
# measured) and kept.
#
#   A_BIN=/tmp/main-memscope B_BIN=.cache/bench/memscope HOME_DIR=/dev/shm/W scripts/startup-cold-ab.sh
#   RUNS=3 (each)
#   GC=1 WARM=1 A_BIN=... B_BIN=... HOME_DIR=... scripts/startup-cold-ab.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}" "${HOME_DIR:?HOME_DIR: the home to read}"
command -v tmux >/dev/null || { echo "startup-cold-ab: tmux is required" >&2; exit 1; }
RUNS=${RUNS:-3}
STEP=${STEP:-10}
IDLE_CPU=${IDLE_CPU:-0.15}
H=$(cd "$HOME_DIR" && pwd -P)
CLK=$(getconf CLK_TCK)
. scripts/tmux-lib.sh
tmux_work memscope-startup-cold-ab
tmux -S "$sock" new-session -d -s keep "sleep 36000"
ROWS="$work/rows"

# cold NAME BIN: one start; appends "NAME cpu rchar load" (GC=1: "NAME
# cpu hwm-MB rss-MB cycles alloc-MB load") to ROWS.
cold() {
	local name=$1 bin=$2 pid c prev=0 xdg="$work/xdg-$1" trace="$work/trace" gc="" row
	[ -n "${WARM:-}" ] || rm -rf "$xdg"
	mkdir -p "$xdg"
	[ -z "${GC:-}" ] || gc="GODEBUG=gctrace=1"
	session="ab-$name"
	tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 "XDG_CACHE_HOME=$xdg NO_COLOR=1 $gc exec $bin --home $H 2>$trace"
	pid=$(tmux -S "$sock" list-panes -t "$session" -F '#{pane_pid}')
	for _ in $(seq 1 60); do
		sleep "$STEP"
		c=$(awk -v t="$CLK" '{printf "%.2f", ($14 + $15) / t}' "/proc/$pid/stat")
		awk -v a="$c" -v b="$prev" -v d="$IDLE_CPU" 'BEGIN {exit !(a - b < d)}' && break
		prev=$c
	done
	if [ -n "${GC:-}" ]; then
		row="$(awk '/^VmHWM/ {hwm = $2} /^VmRSS/ {rss = $2} END {printf "%.0f %.0f", hwm / 1024, rss / 1024}' "/proc/$pid/status")"
		row="$row $(awk '/^gc [0-9]+ @/ {n++; for (i = 1; i <= NF; i++) if ($(i + 1) == "MB," && $i ~ /->/) {split($i, h, "->"); a += h[1] - prev; prev = h[3]}} END {printf "%d %d", n, a}' "$trace")"
	else
		row=$(awk '/^rchar/ {print $2}' "/proc/$pid/io")
	fi
	printf '%s %s %s %s\n' "$name" "$c" "$row" "$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$ROWS" >&2
	keys q
	sleep 2
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
}

if [ -n "${WARM:-}" ]; then
	cold a "$A_BIN" && cold b "$B_BIN"
	: >"$ROWS"
fi
for _ in $(seq 1 "$RUNS"); do
	cold a "$A_BIN"
	cold b "$B_BIN"
done
# median BUILD [COLUMN]; runs BUILD COLUMN: the runs' values, comma-separated.
median() { awk -v n="$1" -v c="${2:-2}" '$1 == n {print $c}' "$ROWS" | sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
runs() { awk -v n="$1" -v c="$2" '$1 == n {printf "%s%s", s, $c; s = ", "}' "$ROWS"; }
kind=cold
[ -z "${WARM:-}" ] || kind=warm
echo "### $kind starts on $(basename "$H"), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs"
echo
if [ -n "${GC:-}" ]; then
	echo "| build | CPU-s until idle | median | peak RSS MB | median | RSS at idle MB | GC cycles | MB allocated | load average |"
	echo "|---|---|---:|---|---:|---|---|---|---|"
else
	echo "| build | CPU-s until idle, run by run | median | rchar MB | load average |"
	echo "|---|---|---:|---:|---|"
fi
for b in a b; do
	bin=$A_BIN
	[ "$b" = b ] && bin=$B_BIN
	if [ -n "${GC:-}" ]; then
		echo "| $b: $(basename "$bin") | $(runs $b 2) | $(median $b 2) | $(runs $b 3) | $(median $b 3) | $(runs $b 4) | $(runs $b 5) | $(runs $b 6) | $(runs $b 7) |"
	else
		echo "| $b: $(basename "$bin") | $(runs $b 2) | $(median $b) | $(awk -v n=$b '$1 == n {printf "%s%.0f", s, $3 / 1e6; s = ", "}' "$ROWS") | $(runs $b 4) |"
	fi
done
