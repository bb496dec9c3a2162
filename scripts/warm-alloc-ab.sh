#!/usr/bin/env bash
# The bytes a warm start allocates, old binary against new, alternated:
# each binary is started once on the home to fill its own cache folder
# (a private XDG_CACHE_HOME each), then PAIRS times (default 3) a start
# of a, a start of b, each in a private tmux server with
# MEMSCOPE_ALLOCPROFILE set; AT seconds (default 6) after the start it
# is quit and the profile's total (alloc_space: every byte allocated from
# the start to the quit, sampled) and its CPU-seconds are printed.
# Allocated bytes do not depend on the machine's load; CPU does.
#
#   A_BIN=/work/coord/memscope-s18d B_BIN=/tmp/new HOME_DIR=/dev/shm/W-copy scripts/warm-alloc-ab.sh
#
# HOME_DIR should be a private copy of the home (cp -a), as for
# startup-warm-gc.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN=old binary}" "${B_BIN:?B_BIN=new binary}" "${HOME_DIR:?HOME_DIR=a private copy of the home}"
PAIRS=${PAIRS:-3}
AT=${AT:-6}
. scripts/tmux-lib.sh
tmux_work memscope-warm-alloc
mkdir -p "$work/a" "$work/b"
tmux -S "$sock" new-session -d -s keep "sleep 36000"
CLK=$(getconf CLK_TCK)

# start NAME BIN: run BIN on the home with NAME's cache folder for AT
# seconds; print its allocated MB and CPU-seconds.
start() {
	local name=$1 bin=$2 pid s prof=$work/$1.prof
	rm -f "$prof"
	tmux -S "$sock" new-session -d -s "$session" -x 120 -y 40 \
		"exec env XDG_CACHE_HOME=$work/$name NO_COLOR=1 MEMSCOPE_ALLOCPROFILE=$prof $bin --home $HOME_DIR"
	pid=$(tmux -S "$sock" display -p -t "$session" '#{pane_pid}')
	[ -n "$pid" ] || fail "$bin did not start"
	sleep "$AT"
	read -r -a s <"/proc/$pid/stat"
	keys q
	for _ in $(seq 300); do tmux -S "$sock" has-session -t "$session" 2>/dev/null || break; sleep 0.1; done
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
	[ -s "$prof" ] || fail "no profile from $bin"
	local mb
	mb=$(go tool pprof -sample_index=alloc_space -unit=MB -top -nodecount=1 "$bin" "$prof" 2>/dev/null |
		sed -n 's/.* of \([0-9.]*\)MB total.*/\1/p')
	echo "$name $mb $(awk -v t=$((s[13] + s[14])) -v c="$CLK" 'BEGIN {printf "%.2f", t / c}') $(cut -d' ' -f1 /proc/loadavg)"
}

start a "$A_BIN" >/dev/null
start b "$B_BIN" >/dev/null
out=$(for _ in $(seq "$PAIRS"); do start a "$A_BIN"; start b "$B_BIN"; done)
echo "| run | allocated MB | CPU-s at ${AT} s | load |"
echo "|---|---:|---:|---:|"
echo "$out" | awk '{printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4}'
# med NAME COL: the (lower) median of column COL of NAME's runs.
med() { echo "$out" | awk -v n="$1" '$1 == n {print $'"$2"'}' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for n in a b; do
	echo "| median $n | $(med $n 2) | $(med $n 3) | |"
done
