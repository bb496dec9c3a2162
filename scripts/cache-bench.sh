#!/usr/bin/env bash
# What memscope's cache (engine/diskcache) saves: `sessions --json` and
# `stat --json` run cold (an empty cache folder), warm (the cache the
# cold run wrote) and with --no-cache, beside `cat` of every transcript
# (the floor), each RUNS times (default 3); it prints the median CPU
# (user + system), wall time and peak RSS of each, the ratio of CPU to
# cat's, the size of the cache files, and checks the warm JSON equals the
# --no-cache JSON. The issue-28 goals: sessions warm <= 0.1 s on W, cold
# <= 2 x cat.
#
#   scripts/cache-bench.sh                      W/4 (generated once into .cache/bench/W4)
#   SIZE=W scripts/cache-bench.sh
#   HOME_DIR=~/.claude RUNS=5 scripts/cache-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SIZE=${SIZE:-W/4}
CACHE=.cache/bench
mkdir -p "$CACHE"
log() { echo "cache-bench: $*" >&2; }
command -v /usr/bin/time >/dev/null || { log "/usr/bin/time is required (Debian package time)"; exit 1; }
go build -o "$CACHE/memscope" .
MEMSCOPE="$PWD/$CACHE/memscope"
if [ -n "${HOME_DIR:-}" ]; then
	H=$(cd "$HOME_DIR" && pwd)
else
	H="$PWD/$CACHE/$(echo "$SIZE" | tr -d /)"
	if [ ! -f "$H/manifest.json" ]; then
		go build -o "$CACHE/gen" ./scripts/memscope-gen
		log "generating $SIZE in $H (once)"
		rm -rf "$H"
		"$CACHE/gen" -out "$H" -size "$SIZE" -seed 1 >&2
	fi
fi
XDG=$(mktemp -d)
OUTS=$(mktemp -d)
trap 'rm -rf "$XDG" "$OUTS"' EXIT
mapfile -t FILES < <(find "$H/projects" -name '*.jsonl' -type f)
TBYTES=$(cat "${FILES[@]}" | wc -c)
cat "${FILES[@]}" >/dev/null # the page cache warm for every row

# measure NAME CMD...: RUNS runs; prints "cpu wall rss" medians.
measure() {
	local name=$1 i
	shift
	for i in $(seq "$RUNS"); do
		if [ "$name" = cold ]; then rm -rf "$XDG/memscope"; fi
		# cat's bytes go to /dev/null: written to a file they cost more
		# CPU than reading them (the floor is reading).
		out=$OUTS/$name.out
		if [ "$name" = cat ]; then out=/dev/null; fi
		/usr/bin/time -f '%U %S %e %M' -o "$OUTS/t" env XDG_CACHE_HOME="$XDG" "$@" >"$out"
		awk '{printf "%.2f %.2f %d\n", $1 + $2, $3, $4}' "$OUTS/t"
	done | sort -n | awk -v n="$RUNS" 'NR == int((n + 1) / 2)'
}
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
read -r CAT_CPU CAT_WALL CAT_RSS < <(measure cat cat "${FILES[@]}")
ROWS=()
SIZES=()
for cmd in sessions stat; do
	for mode in cold warm nocache; do
		extra=()
		[ "$mode" = nocache ] && extra=(--no-cache)
		read -r cpu wall rss < <(measure "$mode" "$MEMSCOPE" "$cmd" --home "$H" --json "${extra[@]}")
		if [ "$mode" = warm ]; then
			SIZES+=("$cmd: $(du -ch "$XDG"/memscope/scan/*.cache 2>/dev/null | tail -1 | cut -f1)")
		fi
		cp "$OUTS/$mode.out" "$OUTS/$cmd-$mode.json"
		ROWS+=("| \`memscope $cmd --json\` $mode | $cpu s | $(awk -v a="$cpu" -v b="$CAT_CPU" 'BEGIN {if (b > 0) printf "%.1f", a / b; else print "-"}') | $wall s | $((rss / 1024)) MB |")
	done
	if [ "$cmd" = sessions ] && ! cmp -s "$OUTS/$cmd-warm.json" "$OUTS/$cmd-nocache.json"; then
		log "sessions: the warm JSON differs from the --no-cache JSON"
		exit 1
	fi
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "### memscope's cache on $(basename "$H") ($TBYTES transcript bytes, ${#FILES[@]} files), $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "- $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(go version | cut -d' ' -f3); load average before: $LOAD_BEFORE; after: $LOAD_AFTER; medians of $RUNS"
	echo "- the cache folder after each command's warm runs: ${SIZES[*]}"
	echo
	echo "| command | CPU (user + system) | × cat CPU | wall | peak RSS |"
	echo "|---|---:|---:|---:|---:|"
	echo "| \`cat\` of every transcript (the floor) | $CAT_CPU s | 1 | $CAT_WALL s | $((CAT_RSS / 1024)) MB |"
	printf '%s\n' "${ROWS[@]}"
} | tee "$CACHE/cache-results.md"
