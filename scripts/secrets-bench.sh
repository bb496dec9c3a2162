#!/usr/bin/env bash
# The speed of `memscope secrets` (the scan of every store for secrets at
# rest) on the workload W, per core.
#
#   scripts/secrets-bench.sh             W; 5 runs
#   RUNS=9 SIZE=W/4 scripts/secrets-bench.sh
#   NICE=-20 scripts/secrets-bench.sh    as root, on a machine others are using
#
# It generates the workload once with scripts/memscope-gen (cached in .cache/bench,
# as scripts/bench.sh does), builds memscope, warms the page cache and
# runs, RUNS times each:
#
#   cat        every file the scan reads, to /dev/null (the floor)
#   secrets    memscope secrets --json, on all CPUs
#   secrets-1  the same with GOMAXPROCS=1: one core
#
# and reports the median wall time, CPU time (user + system) and peak RSS,
# and MB/s: bytes read (as the scan reports them) per wall second, and
# per CPU second (the figure per core, which a busy machine disturbs
# least). The table goes to stdout and .cache/bench/secrets.md.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
SIZE=${SIZE:-W}
NICE=${NICE:-0}
CACHE=.cache/bench
mkdir -p "$CACHE"
OUT="$CACHE/secrets.md"

log() { echo "secrets-bench: $*" >&2; }

if [ ! -x /usr/bin/time ]; then
	log "/usr/bin/time is missing (install the package 'time')"
	exit 1
fi
command -v jq >/dev/null || { log "jq is required"; exit 1; }

log "building memscope and scripts/memscope-gen"
go build -o "$CACHE/memscope" .
go build -o "$CACHE/gen" ./scripts/memscope-gen
MEMSCOPE="$PWD/$CACHE/memscope"
h="$PWD/$CACHE/${SIZE//\//_}"
if [ ! -f "$h/manifest.json" ]; then
	log "generating $SIZE in $h (once)"
	rm -rf "$h"
	"$CACHE/gen" -out "$h" -size "$SIZE" -seed 1 >&2
fi

list=$(mktemp)
scan=$(mktemp)
trap 'rm -f "$list" "$scan"' EXIT
find "$h" -type f -not -path '*/.memscope/*' -not -name manifest.json -print0 | sort -z >"$list"
log "warming the page cache"
xargs -0 cat <"$list" >/dev/null
xargs -0 cat <"$list" >/dev/null

# One scan for the figures (it exits 1 when it finds secrets).
"$MEMSCOPE" secrets --home "$h" --json >"$scan" || [ $? -eq 1 ]
BYTES=$(jq '.bytes' "$scan")
FINDINGS=$(jq '.findings | length' "$scan")
TRANSCRIPT_BYTES=$(jq '.totals.transcriptBytes' "$h/manifest.json")

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.6g\n", (a[NR/2]+a[NR/2+1])/2}'; }

ROWS=()
# measure NAME CMD...: RUNS runs; a row "name wall cpu rss".
measure() {
	local name=$1
	shift
	local walls=() cpus=() rsss=() i t0 t1 tv
	tv=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s%N)
		nice -n "$NICE" /usr/bin/time -v -o "$tv" "$@" >/dev/null 2>"$tv.err" || true
		t1=$(date +%s%N)
		walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')")
		cpus+=("$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$tv")")
		rsss+=("$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$tv")")
	done
	rm -f "$tv" "$tv.err"
	local w c r
	w=$(printf '%s\n' "${walls[@]}" | median)
	c=$(printf '%s\n' "${cpus[@]}" | median)
	r=$(printf '%s\n' "${rsss[@]}" | median)
	ROWS+=("$name $w $c $r")
	log "$(printf '%-10s median %8.3f s  CPU %6.2f s  peak RSS %7.1f MB' "$name" "$w" "$c" "$r")"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
measure cat sh -c 'xargs -0 cat <"$1" >/dev/null' sh "$list"
measure secrets "$MEMSCOPE" secrets --home "$h" --json
measure secrets-1 env GOMAXPROCS=1 "$MEMSCOPE" secrets --home "$h" --json
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

{
	echo "### memscope secrets on $SIZE, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(go version | cut -d' ' -f3-)"
	echo "- load average before: $LOAD_BEFORE; after: $LOAD_AFTER"
	echo "- $RUNS runs at nice $NICE, page cache warm; medians"
	echo "- read by the scan: $BYTES bytes (transcripts $TRANSCRIPT_BYTES), $FINDINGS findings"
	echo
	echo "| command | wall | CPU (user+sys) | peak RSS | MB/s (wall) | MB/s per CPU second |"
	echo "|---|---:|---:|---:|---:|---:|"
	for row in "${ROWS[@]}"; do
		set -- $row
		awk -v n="$1" -v w="$2" -v c="$3" -v r="$4" -v b="$BYTES" 'BEGIN {
			cps = (c > 0) ? sprintf("%.0f", b / 1e6 / c) : "—"
			printf "| %s | %.3f s | %.2f s | %.1f MB | %.0f | %s |\n", n, w, c, r, b / 1e6 / w, cps
		}'
	done
} | tee "$OUT"
