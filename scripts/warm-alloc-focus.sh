#!/usr/bin/env bash
# Bytes a warm start allocates by function (FOCUS; scripts/warm-alloc-ab.sh
# gives the totals and CPU), old binary against new, alternated: each
# binary fills its own cache folder (a private XDG_CACHE_HOME) with one
# start, then PAIRS times (default 3) a start of a, a start of b, each in a
# private tmux server for SECS seconds (default 12) with
# MEMSCOPE_ALLOCPROFILE set; prints each profile's total and the
# cumulative bytes of the functions matching FOCUS (a pprof regex). The
# profile samples every 512 KB, so totals vary by a few MB run to run.
#
#   A_BIN=/work/coord/memscope-s18d B_BIN=/tmp/new HOME_DIR=$PWD/.cache/bench/W scripts/warm-alloc-focus.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN=old binary}" "${B_BIN:?B_BIN=new binary}" "${HOME_DIR:?HOME_DIR=the home}"
PAIRS=${PAIRS:-3}
SECS=${SECS:-12}
FOCUS=${FOCUS:-'memindex.CapIndex$|DupeIndex..rebuild$|udiff.myersDiff$|review.build$'}
work=$(mktemp -d /tmp/warm-alloc-focus.XXXXXX)
trap 'tmux -S "$work/sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/a" "$work/b"
# start NAME BIN [PROF]: run BIN on the home with NAME's cache folder.
start() {
	tmux -S "$work/sock" new-session -d -x 120 -y 40 \
		"env XDG_CACHE_HOME=$work/$1 ${3:+MEMSCOPE_ALLOCPROFILE=$3} $2 --home $HOME_DIR"
	sleep "$SECS"
	tmux -S "$work/sock" send-keys q
	sleep 2
	tmux -S "$work/sock" kill-server 2>/dev/null || true
}
start a "$A_BIN"
start b "$B_BIN"
echo "# $(date -u '+%F %T UTC') $(uname -n) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$PAIRS"); do
	for x in a b; do
		bin=$A_BIN
		[ "$x" = b ] && bin=$B_BIN
		start "$x" "$bin" "$work/$x$i.prof"
		total=$(go tool pprof -sample_index=alloc_space -top "$bin" "$work/$x$i.prof" 2>/dev/null | sed -n 's/.* of \([0-9.]*[kMG]*B\) total.*/\1/p')
		echo "$x$i total $total"
		go tool pprof -sample_index=alloc_space -top -cum "$bin" "$work/$x$i.prof" 2>/dev/null |
			grep -E "$FOCUS" | awk '{print "   ", $4, $NF}'
	done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
