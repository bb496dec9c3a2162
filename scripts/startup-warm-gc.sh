#!/usr/bin/env bash
# A warm start's CPU, page faults and RSS, old binary against new,
# alternated: each binary is started once on the home to fill its own
# cache folder (a private XDG_CACHE_HOME each), then PAIRS times (default
# 6) a start of a, a start of b, each in a private tmux server; AT seconds
# (default 6) after the start the script reads the app's /proc/<pid>/stat
# (utime + stime, CPU-seconds; minflt, the minor page faults: first
# touches of new memory, which do not depend on the load) and its VmRSS,
# and quits it. The figure a start-up collector's settings move (cli/
# gcphase.go: how far the heap grows, whether the phase's end collects and
# returns the pages): faults and RSS at once, CPU through its cycles.
#
#   A_BIN=/work/coord/memscope-s18c B_BIN=/tmp/new HOME_DIR=/dev/shm/W-copy scripts/startup-warm-gc.sh
#
# HOME_DIR should be a private copy of the home (cp -a): an older binary
# may write into the home at its start (its write probe moved the home's
# root folder's times before 33d89654), which changes what the other's
# warm start finds.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN=old binary}" "${B_BIN:?B_BIN=new binary}" "${HOME_DIR:?HOME_DIR=a private copy of the home}"
PAIRS=${PAIRS:-6}
AT=${AT:-6}
. scripts/tmux-lib.sh
tmux_work memscope-warm-gc
mkdir -p "$work/a" "$work/b"
tmux -S "$sock" new-session -d -s keep "sleep 36000"
CLK=$(getconf CLK_TCK)

# start NAME BIN: run BIN on the home with NAME's cache folder for AT
# seconds; print its CPU, faults and RSS.
start() {
	local name=$1 bin=$2 pid s rss
	tmux -S "$sock" new-session -d -s "$session" -x 120 -y 40 \
		"exec env XDG_CACHE_HOME=$work/$name NO_COLOR=1 $bin --home $HOME_DIR"
	pid=$(tmux -S "$sock" display -p -t "$session" '#{pane_pid}')
	[ -n "$pid" ] || fail "$bin did not start"
	sleep "$AT"
	read -r -a s <"/proc/$pid/stat"
	rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
	keys q
	# It saves its caches as it quits; after 30 s it is stopped.
	for _ in $(seq 300); do tmux -S "$sock" has-session -t "$session" 2>/dev/null || break; sleep 0.1; done
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
	echo "$name $(awk -v t=$((s[13] + s[14])) -v c="$CLK" 'BEGIN {printf "%.2f", t / c}') ${s[9]} $((rss / 1024)) $(cut -d' ' -f1 /proc/loadavg)"
}

start a "$A_BIN" >/dev/null
start b "$B_BIN" >/dev/null
out=$(for _ in $(seq "$PAIRS"); do start a "$A_BIN"; start b "$B_BIN"; done)
echo "| run | CPU-s at ${AT} s | minor faults | RSS MB | load |"
echo "|---|---:|---:|---:|---:|"
echo "$out" | awk '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
# med NAME COL: the (lower) median of column COL of NAME's runs.
med() { echo "$out" | awk -v n="$1" '$1 == n {print $'"$2"'}' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for n in a b; do
	echo "| median $n | $(med $n 2) | $(med $n 3) | $(med $n 4) | |"
done
