#!/usr/bin/env bash
# memscope at scale, side by side with the tools people use today.
#
#   scripts/bench.sh                 W/4, W/2 and W; 5 runs of each command
#   RUNS=9 SIZES="W" scripts/bench.sh
#   NICE=-20 scripts/bench.sh        as root, on a machine others are using
#
# It generates the workloads once with scripts/memscope-gen (cached in .cache/bench,
# which git ignores), builds memscope, installs ccusage 18.0.11 with npm
# (scripts/ccusage-install.sh, into .cache/bench/ccusage; MEMSCOPE_CCUSAGE
# may point at another copy), warms the page cache, then times each
# command RUNS times and reports the median wall time and peak RSS
# (/usr/bin/time -v; when it is missing and we are root, the script
# installs the Debian package "time" with apt-get and says so):
#
#   cat        every transcript to /dev/null: the floor (reading the bytes)
#   sessions   memscope sessions --json
#   stat       memscope stat --json
#   prompt     memscope prompt --json for the first project (when this
#              build has the command)
#   jq         jq selecting the compact boundaries of every transcript
#   ccusage    ccusage session --json --offline
#   search     scripts/search-bench.sh on W (memscope search vs ripgrep; SEARCH=0 skips it)
#
# cat, sessions and stat run on every size, to show cost growing with the
# bytes and memory staying flat; jq and ccusage (tens of seconds each) on W
# only, unless SLOW_ON_ALL=1. The table goes to stdout and to
# .cache/bench/results.md. The load average before and after is printed
# with the numbers; on a machine shared with other work, NICE=-20 (root
# only) runs every measured command, cat included, ahead of that work so
# the numbers say what the commands cost rather than how busy the
# machine was.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
SIZES=${SIZES:-"W/4 W/2 W"}
SLOW_ON_ALL=${SLOW_ON_ALL:-0}
NICE=${NICE:-0}
CACHE=.cache/bench
mkdir -p "$CACHE"
OUT="$CACHE/results.md"
RAW="$CACHE/results.tsv"

log() { echo "bench: $*" >&2; }

if [ ! -x /usr/bin/time ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		log "/usr/bin/time is missing: installing the package 'time' with apt-get"
		apt-get install -y -qq time >&2
	else
		log "/usr/bin/time is missing (install the package 'time')"
		exit 1
	fi
fi
for tool in go jq node npm; do
	command -v "$tool" >/dev/null || { log "$tool is required"; exit 1; }
done

log "building memscope and scripts/memscope-gen"
go build -o "$CACHE/memscope" .
go build -o "$CACHE/gen" ./scripts/memscope-gen
MEMSCOPE="$PWD/$CACHE/memscope"

CCUSAGE=${MEMSCOPE_CCUSAGE:-}
if [ -z "$CCUSAGE" ]; then
	log "installing ccusage 18.0.11 with npm (once)"
	CCUSAGE=$(scripts/ccusage-install.sh "$CACHE/ccusage")
fi

HAS_PROMPT=0
if "$MEMSCOPE" help 2>&1 | grep "memscope prompt" >/dev/null; then
	HAS_PROMPT=1
else
	log "this build has no 'memscope prompt': skipping it"
fi

# home DIR for a size name: W/4 -> .cache/bench/W_4
home_of() { echo "$PWD/$CACHE/${1//\//_}"; }

for size in $SIZES; do
	h=$(home_of "$size")
	if [ ! -f "$h/manifest.json" ]; then
		log "generating $size in $h (once)"
		rm -rf "$h"
		"$CACHE/gen" -out "$h" -size "$size" -seed 1 >&2
	fi
done

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.6g\n", (a[NR/2]+a[NR/2+1])/2}'; }

# measure SIZE NAME CMD...: RUNS timed runs; appends "size name wall rss
# min max cpu" to RAW (cpu: user + system seconds, which a busy machine
# disturbs less than wall time).
measure() {
	local size=$1 name=$2
	shift 2
	local walls=() rsss=() cpus=() i t0 t1 tv
	tv=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s%N)
		if ! nice -n "$NICE" /usr/bin/time -v -o "$tv" "$@" >/dev/null 2>"$tv.err"; then
			log "$name on $size failed:"
			cat "$tv.err" >&2
			rm -f "$tv" "$tv.err"
			return 1
		fi
		t1=$(date +%s%N)
		walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')")
		rsss+=("$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$tv")")
		cpus+=("$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$tv")")
	done
	rm -f "$tv" "$tv.err"
	local w r lo hi c
	w=$(printf '%s\n' "${walls[@]}" | median)
	c=$(printf '%s\n' "${cpus[@]}" | median)
	r=$(printf '%s\n' "${rsss[@]}" | median)
	lo=$(printf '%s\n' "${walls[@]}" | sort -g | head -1)
	hi=$(printf '%s\n' "${walls[@]}" | sort -g | tail -1)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$name" "$w" "$r" "$lo" "$hi" "$c" >>"$RAW"
	log "$(printf '%-5s %-9s median %8.3f s  (%s..%s)  CPU %6.2f s  peak RSS %7.1f MB' "$size" "$name" "$w" "$lo" "$hi" "$c" "$r")"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$RAW"
for size in $SIZES; do
	h=$(home_of "$size")
	list="$h.files"
	find "$h/projects" -name '*.jsonl' -print0 | sort -z >"$list"
	log "warming the page cache for $size"
	xargs -0 cat <"$list" >/dev/null
	xargs -0 cat <"$list" >/dev/null

	measure "$size" cat sh -c 'xargs -0 cat <"$1" >/dev/null' sh "$list"
	measure "$size" sessions "$MEMSCOPE" sessions --home "$h" --json
	measure "$size" stat "$MEMSCOPE" stat --home "$h" --json
	if [ "$HAS_PROMPT" = 1 ]; then
		project=$(jq -r '.projects[0].path' "$h/manifest.json")
		measure "$size" prompt "$MEMSCOPE" prompt --home "$h" --project "$project" --json
	fi
	if [ "$size" = W ] || [ "$SLOW_ON_ALL" = 1 ]; then
		measure "$size" jq sh -c 'xargs -0 jq -c "select(.type == \"system\" and .subtype == \"compact_boundary\")" <"$1" >/dev/null' sh "$list"
		measure "$size" ccusage env CLAUDE_CONFIG_DIR="$h" "$CCUSAGE" session --json --offline
		ours=$("$MEMSCOPE" sessions --home "$h" --json | jq -c '.totals.usage | [.input_tokens, .output_tokens, .cache_creation_input_tokens, .cache_read_input_tokens]')
		theirs=$(CLAUDE_CONFIG_DIR="$h" "$CCUSAGE" session --json --offline | jq -c '.totals | [.inputTokens, .outputTokens, .cacheCreationTokens, .cacheReadTokens]')
		if [ "$ours" = "$theirs" ]; then
			echo "$size	totals	equal	$ours" >>"$RAW.check"
			log "$size: memscope and ccusage totals are equal: $ours"
		else
			echo "$size	totals	DIFFER	memscope $ours ccusage $theirs" >>"$RAW.check"
			log "$size: totals DIFFER: memscope $ours, ccusage $theirs"
		fi
		# Cost: equal within 0.1 % (both sum per line in floating point).
		ourcost=$("$MEMSCOPE" sessions --home "$h" --json | jq '.totals.costUSD')
		theircost=$(CLAUDE_CONFIG_DIR="$h" "$CCUSAGE" session --json --offline | jq '.totals.totalCost')
		if awk -v a="$ourcost" -v b="$theircost" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.001 * b) }'; then
			echo "$size	cost	within 0.1 %	memscope \$$ourcost ccusage \$$theircost" >>"$RAW.check"
			log "$size: cost within 0.1 %: memscope \$$ourcost, ccusage \$$theircost"
		else
			echo "$size	cost	DIFFER	memscope \$$ourcost ccusage \$$theircost" >>"$RAW.check"
			log "$size: cost DIFFERS: memscope \$$ourcost, ccusage \$$theircost"
		fi
	fi
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# The report.
{
	echo "### memscope benchmark, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ {printf "%.0f GB RAM", $2/1048576}' /proc/meminfo); $(go version | cut -d' ' -f3-)"
	echo "- load average before: $LOAD_BEFORE; after: $LOAD_AFTER"
	echo "- $RUNS runs of each command at nice $NICE, page cache warm; wall time is the median (min..max), RSS the median peak"
	for size in $SIZES; do
		h=$(home_of "$size")
		jq -r --arg s "$size" '"- \($s): \(.totals.transcripts) transcripts (\(.totals.subagentTranscripts) subagent), \(.totals.transcriptBytes / 1e6 | floor) MB, \(.totals.records) records, \(.totals.compactBoundaries) compact boundaries"' "$h/manifest.json"
	done
	echo
	echo "| size | command | wall (median) | min..max | CPU (user+sys) | peak RSS | wall × cat |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	awk -F'\t' '
		$2 == "cat" { floor[$1] = $3 }
		{ rows[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				split(rows[i], f, "\t")
				printf "| %s | %s | %.3f s | %.3f..%.3f | %.2f s | %.1f MB | %.1f |\n", f[1], f[2], f[3], f[5], f[6], f[7], f[4], f[3] / floor[f[1]]
			}
		}' "$RAW"
	echo
	awk -F'\t' '
		{ t[$1 "/" $2] = $3 }
		END {
			if (("W/sessions" in t) && ("W/cat" in t)) printf "- W: memscope sessions = %.2f × cat (target ≤ 3)\n", t["W/sessions"] / t["W/cat"]
			if (("W/sessions" in t) && ("W/ccusage" in t)) printf "- W: ccusage = %.1f × memscope sessions (target ≥ 20)\n", t["W/ccusage"] / t["W/sessions"]
			if ("W/stat" in t) printf "- W: memscope stat %.3f s (target < 1 s)\n", t["W/stat"]
			if ("W/prompt" in t) printf "- W: memscope prompt %.1f ms (target < 20 ms)\n", t["W/prompt"] * 1000
		}' "$RAW"
	if [ -f "$RAW.check" ]; then
		awk -F'\t' '{ printf "- %s: sessions totals vs ccusage: %s %s\n", $1, $3, $4 }' "$RAW.check"
		rm -f "$RAW.check"
	fi
} | tee "$OUT"

# memscope search against ripgrep on W (its own table).
if [ "${SEARCH:-1}" = 1 ] && [[ " $SIZES " == *" W "* ]]; then
	RUNS="$RUNS" NICE="$NICE" scripts/search-bench.sh
fi
