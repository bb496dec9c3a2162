#!/usr/bin/env bash
# memscope search against ripgrep on the workload W (scripts/bench.sh
# generates it into .cache/bench/W; this script does too when it is
# missing), side by side in one run:
#
#   literal   memscope search QUERY            vs rg -F -i -c and rg -F -c
#   case      memscope search --case QUERY     vs rg -F -c
#   regex     memscope search --regex RE       vs rg -c RE
#
# over the transcripts (--in transcripts: the files rg is given), and
# over the whole home (every store) against rg -uu over the home folder
# (hidden files included, as memscope reads them). RUNS runs each (default 5), page cache warm; the median
# wall time, CPU time and peak RSS (/usr/bin/time -v) are reported, with
# the load average, which on a shared machine says how much to trust the
# wall times (CPU time is disturbed less). ripgrep comes from Debian's
# package; as root the script installs it with apt-get when it is missing.
#
#   scripts/search-bench.sh
#   RUNS=9 QUERY=deadlock REGEX='dead(lock|line)' scripts/search-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
NICE=${NICE:-0}
QUERY=${QUERY:-deadlock}
REGEX=${REGEX:-'dead(lock|line)s?'}
CACHE=.cache/bench
H="$PWD/$CACHE/W"
mkdir -p "$CACHE"
log() { echo "search-bench: $*" >&2; }

need_apt() {
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		log "$1 is missing: installing the Debian package '$2' with apt-get"
		apt-get install -y -qq "$2" >&2
	else
		log "$1 is missing (install the package '$2')"
		exit 1
	fi
}
command -v rg >/dev/null || need_apt rg ripgrep
[ -x /usr/bin/time ] || need_apt /usr/bin/time time

go build -o "$CACHE/memscope" .
MEMSCOPE="$PWD/$CACHE/memscope"
if [ ! -f "$H/manifest.json" ]; then
	go build -o "$CACHE/gen" ./scripts/memscope-gen
	log "generating W in $H (once)"
	rm -rf "$H"
	"$CACHE/gen" -out "$H" -size W -seed 1 >&2
fi
LIST="$H.transcripts"
find "$H/projects" -name '*.jsonl' -print0 | sort -z >"$LIST"
log "warming the page cache"
xargs -0 cat <"$LIST" >/dev/null
xargs -0 cat <"$LIST" >/dev/null

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4g\n", (a[NR/2]+a[NR/2+1])/2}'; }

RAW=$(mktemp)
# measure NAME CMD...: exit 0 or 1 are both a finished search (xargs says
# 123 when an rg found nothing in its files; the rg lines map that to 1).
measure() {
	local name=$1
	shift
	local walls=() cpus=() rsss=() tv i t0 t1 rc
	tv=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s%N)
		rc=0
		nice -n "$NICE" /usr/bin/time -v -o "$tv" "$@" >/dev/null 2>&1 || rc=$?
		t1=$(date +%s%N)
		if [ "$rc" -gt 1 ]; then
			log "$name failed (exit $rc)"
			return 1
		fi
		walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')")
		rsss+=("$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$tv")")
		cpus+=("$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$tv")")
	done
	rm -f "$tv"
	printf '%s\t%s\t%s\t%s\n' "$name" "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)" "$(printf '%s\n' "${rsss[@]}" | median)" >>"$RAW"
	log "$(tail -1 "$RAW")"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
measure "rg -F -c (case-sensitive)" sh -c 'xargs -0 rg -F -c -- "$1" <"$2"; s=$?; [ $s -le 1 ] || [ $s = 123 ]' sh "$QUERY" "$LIST"
measure "rg -F -i -c (any case)" sh -c 'xargs -0 rg -F -i -c -- "$1" <"$2"; s=$?; [ $s -le 1 ] || [ $s = 123 ]' sh "$QUERY" "$LIST"
measure "memscope search --case (transcripts)" "$MEMSCOPE" search --home "$H" --in transcripts --case --json -- "$QUERY"
measure "memscope search (transcripts)" "$MEMSCOPE" search --home "$H" --in transcripts --json -- "$QUERY"
measure "rg -uu -F -c over the whole home" sh -c 'rg -uu -F -c -- "$1" "$2"; s=$?; [ $s -le 1 ]' sh "$QUERY" "$H"
measure "memscope search (every store)" "$MEMSCOPE" search --home "$H" --json -- "$QUERY"
measure "rg -i -c regex" sh -c 'xargs -0 rg -i -c -- "$1" <"$2"; s=$?; [ $s -le 1 ] || [ $s = 123 ]' sh "$REGEX" "$LIST"
measure "memscope search --regex (transcripts)" "$MEMSCOPE" search --home "$H" --in transcripts --regex --json -- "$REGEX"
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# The TUI: from enter in the Search overlay (ctrl+f) to the first hits on
# the screen, in a real terminal (tmux, polled every 20 ms), RUNS times,
# each in a new app that has settled (SETTLE seconds after loading);
# and the same through the app's command and pump without a terminal
# (go test -bench), with the CPU time it took.
FIRST_QUERY=${FIRST_QUERY:-queue branch}
FIRST=""
if command -v tmux >/dev/null; then
	. scripts/tmux-lib.sh
	tmux_work memscope-search-bench
	# A session that outlives the runs: killing a run's session must not
	# take the server down while the next run starts one.
	tmux -S "$sock" new-session -d -s keep "sleep 3600"
	firsts=()
	for ((i = 0; i < RUNS; i++)); do
		session="search-bench-$i"
		tmux -S "$sock" new-session -d -s "$session" -x 120 -y 40 "NO_COLOR=1 $MEMSCOPE --home $H --no-watch; sleep 30"
		wait_tries=600 wait_for "1 Proj"
		wait_tries=600 wait_gone "loading"
		# The app goes on with quieter background reads (the paste
		# inventory, the Live pane's sessions) after the status line's
		# "loading" ends: let them end, as a person reading the first
		# screen would.
		sleep "${SETTLE:-5}"
		keys C-f
		wait_for "search:"
		keys -l "$FIRST_QUERY"
		t0=$(date +%s%N)
		keys Enter
		firsts+=("$(ms_until "$t0" "«")")
		keys Escape Escape
		tmux -S "$sock" kill-session -t "$session"
	done
	FIRST="$(printf '%s\n' "${firsts[@]}" | median) ms (runs: ${firsts[*]})"
	log "TUI first hits on screen: $FIRST"
fi
FIRST_BENCH=$(MEMSCOPE_BENCH_HOME="$H" MEMSCOPE_BENCH_QUERY="$FIRST_QUERY" go test ./ui -run '^$' -bench SearchFirstHits -benchtime "${RUNS}x" | awk '/^BenchmarkSearchFirstHits/ {print $7 " ms wall, " $5 " ms CPU"}')
log "first hits through the command and pump: $FIRST_BENCH"

{
	echo "### memscope search vs ripgrep on W, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "- $(nproc) CPUs, $(go version | cut -d' ' -f3-); ripgrep $(rg --version | head -1 | cut -d' ' -f2)"
	echo "- load average before: $LOAD_BEFORE; after: $LOAD_AFTER"
	echo "- query \`$QUERY\`, regex \`$REGEX\`; $RUNS runs each, page cache warm, median"
	echo
	echo "| command | wall | CPU (user+sys) | peak RSS |"
	echo "|---|---:|---:|---:|"
	awk -F'\t' '{printf "| %s | %.3f s | %.2f s | %.1f MB |\n", $1, $2, $3, $4}' "$RAW"
	echo
	echo "TUI, query \`$FIRST_QUERY\`: first hits on screen (tmux) ${FIRST:-not measured (no tmux)}; through the app's command and pump: $FIRST_BENCH"
} | tee "$CACHE/search-results.md"
rm -f "$RAW"
