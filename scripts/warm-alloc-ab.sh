#!/usr/bin/env bash
# A warm start, old binary against new, alternated: each binary is
# started once on the home to fill its own cache folder (a private
# XDG_CACHE_HOME each), then PAIRS times (default 3) a start of a, a
# start of b, each in a private tmux server with MEMSCOPE_ALLOCPROFILE
# set; AT seconds (default 6) after the start the script reads the app's
# /proc/<pid>/stat (utime + stime, CPU-seconds; minflt, the minor page
# faults: first touches of new memory) and its VmRSS, quits it, and
# prints the profile's total (alloc_space: every byte allocated from the
# start to the quit, sampled every 512 KB, so a few MB from run to run).
# Allocated bytes and faults do not depend on the machine's load; CPU
# does. FOCUS (a pprof regex) also lists the cumulative bytes of the
# functions it matches, per run.
#
#   A_BIN=/work/coord/memscope-s18d B_BIN=/tmp/new HOME_DIR=/dev/shm/W-copy scripts/warm-alloc-ab.sh
#   FOCUS='memindex.CapIndex$|DupeIndex..rebuild$' PAIRS=3 ... scripts/warm-alloc-ab.sh
#
# HOME_DIR should be a private copy of the home (cp -a): an older binary
# may write into the home at its start (its write probe moved the home's
# root folder's times before 33d89654), which changes what the other's
# warm start finds.
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
# seconds; print its allocated MB, CPU, faults, RSS and the load (and,
# with FOCUS, the matching functions' bytes on lines of their own).
start() {
	local name=$1 bin=$2 pid s rss prof=$work/$1.prof
	rm -f "$prof"
	tmux -S "$sock" new-session -d -s "$session" -x 120 -y 40 \
		"exec env XDG_CACHE_HOME=$work/$name NO_COLOR=1 MEMSCOPE_ALLOCPROFILE=$prof $bin --home $HOME_DIR"
	pid=$(tmux -S "$sock" display -p -t "$session" '#{pane_pid}')
	[ -n "$pid" ] || fail "$bin did not start"
	sleep "$AT"
	read -r -a s <"/proc/$pid/stat"
	rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
	keys q
	# It saves its caches and the profile as it quits; after 30 s it is
	# stopped.
	for _ in $(seq 300); do tmux -S "$sock" has-session -t "$session" 2>/dev/null || break; sleep 0.1; done
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
	[ -s "$prof" ] || fail "no profile from $bin"
	local mb
	mb=$(go tool pprof -sample_index=alloc_space -unit=MB -top -nodecount=1 "$bin" "$prof" 2>/dev/null |
		sed -n 's/.* of \([0-9.]*\)MB total.*/\1/p')
	echo "$name $mb $(awk -v t=$((s[13] + s[14])) -v c="$CLK" 'BEGIN {printf "%.2f", t / c}') ${s[9]} $((rss / 1024)) $(cut -d' ' -f1 /proc/loadavg)"
	if [ -n "${FOCUS:-}" ]; then
		go tool pprof -sample_index=alloc_space -top -cum "$bin" "$prof" 2>/dev/null |
			grep -E "$FOCUS" | awk -v n="$name" '{print "#", n, $4, $NF}'
	fi
}

start a "$A_BIN" >/dev/null
start b "$B_BIN" >/dev/null
out=$(for _ in $(seq "$PAIRS"); do start a "$A_BIN"; start b "$B_BIN"; done)
echo "| run | allocated MB | CPU-s at ${AT} s | minor faults | RSS MB | load |"
echo "|---|---:|---:|---:|---:|---:|"
echo "$out" | awk '$1 != "#" {printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6}'
# med NAME COL: the (lower) median of column COL of NAME's runs.
med() { echo "$out" | awk -v n="$1" '$1 == n {print $'"$2"'}' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for n in a b; do
	echo "| median $n | $(med $n 2) | $(med $n 3) | $(med $n 4) | $(med $n 5) | |"
done
if [ -n "${FOCUS:-}" ]; then
	echo
	echo "Bytes allocated by the functions FOCUS matches (cumulative), run by run:"
	echo "$out" | awk '$1 == "#" {print "-", $2, $3, $4}'
fi
