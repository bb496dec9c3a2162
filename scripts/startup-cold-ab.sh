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
#   A_BIN=/tmp/main-memscope B_BIN=.cache/bench/memscope HOME_DIR=/dev/shm/W scripts/startup-cold-ab.sh
#   RUNS=3 (each)
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

# cold NAME BIN: one cold start; appends "NAME cpu rchar" to ROWS.
cold() {
	local name=$1 bin=$2 pid c prev=0 xdg="$work/xdg"
	rm -rf "$xdg" && mkdir "$xdg"
	session="ab-$name"
	tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 "XDG_CACHE_HOME=$xdg NO_COLOR=1 exec $bin --home $H"
	pid=$(tmux -S "$sock" list-panes -t "$session" -F '#{pane_pid}')
	for _ in $(seq 1 60); do
		sleep "$STEP"
		c=$(awk -v t="$CLK" '{printf "%.2f", ($14 + $15) / t}' "/proc/$pid/stat")
		awk -v a="$c" -v b="$prev" -v d="$IDLE_CPU" 'BEGIN {exit !(a - b < d)}' && break
		prev=$c
	done
	printf '%s %s %s %s\n' "$name" "$c" "$(awk '/^rchar/ {print $2}' "/proc/$pid/io")" "$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$ROWS" >&2
	keys q
	sleep 2
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
}

for _ in $(seq 1 "$RUNS"); do
	cold a "$A_BIN"
	cold b "$B_BIN"
done
median() { awk -v n="$1" '$1 == n {print $2}' "$ROWS" | sort -n | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
echo "### cold starts on $(basename "$H"), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs"
echo
echo "| build | CPU-s until idle, run by run | median | rchar MB | load average |"
echo "|---|---|---:|---:|---|"
for b in a b; do
	bin=$A_BIN
	[ "$b" = b ] && bin=$B_BIN
	echo "| $b: $(basename "$bin") | $(awk -v n=$b '$1 == n {printf "%s%s", s, $2; s = ", "}' "$ROWS") | $(median $b) | $(awk -v n=$b '$1 == n {printf "%s%.0f", s, $3 / 1e6; s = ", "}' "$ROWS") | $(awk -v n=$b '$1 == n {printf "%s%s", s, $4; s = ", "}' "$ROWS") |"
done
