#!/usr/bin/env bash
# memscope on one very long session: a transcript of RECORDS records
# (default 1 000 000, about 250 MB: user and assistant turns in one
# parent chain, a compaction every 50 000 records), written once into
# .cache/bench/scale. Each of replay, export (markdown and JSON) and
# compact runs RUNS times (default 1) and the script prints its wall
# time, CPU time and peak RSS (/usr/bin/time -v), beside cat of the same
# file (the floor), with the load average. The issue-28 goal is a peak
# RSS bounded by what is shown, not by the transcript: at most 300 MB for
# replay and export of the 1 000 000-record file.
#
#   scripts/scale-bench.sh
#   RECORDS=250000 RUNS=3 scripts/scale-bench.sh
#   ONLY=replay RECORDS=1000000 scripts/scale-bench.sh   # only the commands whose name matches
#
# /usr/bin/time comes from Debian's package "time"; as root the script
# installs it with apt-get when it is missing and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

RECORDS=${RECORDS:-1000000}
RUNS=${RUNS:-1}
CACHE=.cache/bench
H="$PWD/$CACHE/scale-$RECORDS"
SID=5ca1e000-0000-4000-8000-000000000001
T="$H/projects/-home-dev-scale/$SID.jsonl"
mkdir -p "$CACHE"
log() { echo "scale-bench: $*" >&2; }
if [ ! -x /usr/bin/time ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		log "/usr/bin/time is missing: installing the package 'time' with apt-get"
		apt-get install -y -qq time >&2
	else
		log "/usr/bin/time is missing (install the package 'time')"
		exit 1
	fi
fi
go build -o "$CACHE/memscope" .
MEMSCOPE="$PWD/$CACHE/memscope"

if [ ! -f "$T" ]; then
	log "writing $RECORDS records to $T (once)"
	mkdir -p "$(dirname "$T")"
	awk -v n="$RECORDS" -v sid="$SID" 'BEGIN {
		parent = "null"
		for (i = 1; i <= n; i++) {
			uuid = sprintf("%08x-0000-4000-8000-%012x", i, i)
			ts = sprintf("2026-11-%02dT%02d:%02d:%02d.000Z", 1 + int(i / 40000) % 28, int(i / 3600) % 24, int(i / 60) % 60, i % 60)
			p = (parent == "null") ? "null" : "\"" parent "\""
			if (i % 50000 == 0) {
				printf "{\"parentUuid\":null,\"logicalParentUuid\":%s,\"type\":\"system\",\"subtype\":\"compact_boundary\",\"content\":\"Conversation compacted\",\"uuid\":\"%s\",\"timestamp\":\"%s\",\"sessionId\":\"%s\",\"compactMetadata\":{\"trigger\":\"auto\",\"preTokens\":160000}}\n", p, uuid, ts, sid
			} else if (i % 2) {
				printf "{\"parentUuid\":%s,\"isSidechain\":false,\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"step %d: please look at the parser and the cache index again\"},\"uuid\":\"%s\",\"timestamp\":\"%s\",\"sessionId\":\"%s\",\"cwd\":\"/home/dev/scale\"}\n", p, i, uuid, ts, sid
			} else {
				printf "{\"parentUuid\":%s,\"isSidechain\":false,\"type\":\"assistant\",\"message\":{\"id\":\"msg_%d\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[{\"type\":\"text\",\"text\":\"done %d\"}],\"usage\":{\"input_tokens\":12,\"output_tokens\":30,\"cache_read_input_tokens\":900}},\"requestId\":\"req_%d\",\"uuid\":\"%s\",\"timestamp\":\"%s\",\"sessionId\":\"%s\"}\n", p, i, i, i, uuid, ts, sid
			}
			parent = uuid
		}
	}' >"$T.tmp"
	mv "$T.tmp" "$T"
fi
log "$(wc -l <"$T") records, $(wc -c <"$T") bytes; warming the page cache"
cat "$T" >/dev/null

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4g\n", (a[NR/2]+a[NR/2+1])/2}'; }
RAW=$(mktemp)
measure() {
	local name=$1 tv walls=() cpus=() rsss=() i rc
	shift
	if [ -n "${ONLY:-}" ] && [[ ! $name =~ $ONLY|floor ]]; then
		return 0
	fi
	tv=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		rc=0
		/usr/bin/time -v -o "$tv" "$@" >/dev/null 2>&1 || rc=$?
		if [ "$rc" -gt 1 ]; then
			log "$name failed (exit $rc)"
			printf '%s\tfailed (exit %s)\t\t\n' "$name" "$rc" >>"$RAW"
			rm -f "$tv"
			return 0
		fi
		walls+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s}' "$tv")")
		cpus+=("$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$tv")")
		rsss+=("$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$tv")")
	done
	rm -f "$tv"
	printf '%s\t%s s\t%s s\t%s MB\n' "$name" "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)" "$(printf '%s\n' "${rsss[@]}" | median)" >>"$RAW"
	log "$(tail -1 "$RAW")"
}

OUT=$(mktemp -d)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
measure "cat (the floor)" cat "$T"
measure "memscope replay --json" "$MEMSCOPE" replay "$SID" --home "$H" --json
measure "memscope export (markdown)" "$MEMSCOPE" export "$SID" --home "$H" --out "$OUT/s.md"
measure "memscope export --format json" "$MEMSCOPE" export "$SID" --home "$H" --format json --out "$OUT/s.json"
measure "memscope compact --json" "$MEMSCOPE" compact "$SID" --home "$H" --json
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
rm -rf "$OUT"

{
	echo "### memscope on a $RECORDS-record transcript ($(wc -c <"$T") bytes), $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "- $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(go version | cut -d' ' -f3); load average before: $LOAD_BEFORE; after: $LOAD_AFTER; $RUNS run(s) each, median"
	echo
	echo "| command | wall | CPU (user + system) | peak RSS |"
	echo "|---|---:|---:|---:|"
	awk -F'\t' '{printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4}' "$RAW"
} | tee "$CACHE/scale-results.md"
rm -f "$RAW"
