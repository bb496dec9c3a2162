#!/usr/bin/env bash
# Two memscope builds side by side on `sessions --json` and `stat --json`,
# cold (an empty cache folder), warm (the cache the cold run wrote) and
# with --no-cache, beside `cat` of every transcript (the floor): runs
# alternate between the builds (a, b, a, b...), so a change of load hits
# both alike. Prints the median CPU (user + system), wall time and peak
# RSS of each, the ratio of CPU to cat's, the load before and after, and
# checks the builds print the same JSON (cold and warm).
#
#   A_BIN=/tmp/main-memscope B_BIN=/tmp/branch-memscope HOME_DIR=.cache/bench/W scripts/cache-ab.sh
#   RUNS=5 (default 3)
#   ONE_CORE=1: every command alone on CPU 1 at real-time priority
#   (chrt -f 10, root only) with GOMAXPROCS=1, so the other work of a
#   shared machine does not preempt it: CPU times that separate two
#   builds when the load does not let the two-core runs (wall times then
#   mean nothing)
#   REALTIME=1: every command on both cores at real-time priority (chrt
#   -f 10, root only): CPU and wall times of the two-core runs that the
#   other work of a shared machine does not preempt
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}" "${HOME_DIR:?HOME_DIR: the home to read}"
ALONE=()
if [ -n "${ONE_CORE:-}" ]; then
	ALONE=(env GOMAXPROCS=1 chrt -f 10 taskset -c 1)
elif [ -n "${REALTIME:-}" ]; then
	ALONE=(chrt -f 10)
fi
. scripts/ab-lib.sh
ab_home cache-ab
for _ in $(seq "$RUNS"); do
	run "cat" /dev/null cat "${FILES[@]}"
	for cmd in sessions stat; do
		for b in a b; do
			bin=$A_BIN
			[ "$b" = b ] && bin=$B_BIN
			x="$TMP/xdg-$b"
			rm -rf "$x"
			mkdir -p "$x"
			run "$cmd-cold-$b" "$TMP/$cmd-cold-$b.json" env XDG_CACHE_HOME="$x" "$bin" "$cmd" --home "$H" --json
			run "$cmd-warm-$b" "$TMP/$cmd-warm-$b.json" env XDG_CACHE_HOME="$x" "$bin" "$cmd" --home "$H" --json
			run "$cmd-nocache-$b" /dev/null "$bin" "$cmd" --home "$H" --json --no-cache
		done
		for m in cold warm; do
			cmp -s "$TMP/$cmd-$m-a.json" "$TMP/$cmd-$m-b.json" || echo "cache-ab: $cmd $m: the two builds print different JSON" >&2
		done
	done
done >"$TMP/runs"
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
CAT=$(col cat 2)
echo "### ${#FILES[@]} transcripts of $H, $(date -u +%Y-%m-%dT%H:%MZ); a = $A_BIN, b = $B_BIN"
echo
echo "- $(nproc) CPUs, load average before: $LOAD_BEFORE; after: $LOAD_AFTER; medians of $RUNS alternated runs${ONE_CORE:+, each alone on CPU 1 (chrt -f 10, GOMAXPROCS=1)}${REALTIME:+, on both cores at real-time priority (chrt -f 10)}"
echo
echo "| command | CPU a | CPU b | × cat a | × cat b | wall a | wall b | RSS a | RSS b |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
echo "| \`cat\` (the floor) | $CAT s | | 1 | | $(col cat 3) s | | | |"
for cmd in sessions stat; do
	for m in cold warm nocache; do
		ca=$(col "$cmd-$m-a" 2)
		cb=$(col "$cmd-$m-b" 2)
		echo "| \`$cmd\` $m | $ca s | $cb s | $(awk -v a="$ca" -v c="$CAT" 'BEGIN {printf "%.1f", a / c}') | $(awk -v a="$cb" -v c="$CAT" 'BEGIN {printf "%.1f", a / c}') | $(col "$cmd-$m-a" 3) s | $(col "$cmd-$m-b" 3) s | $(($(col "$cmd-$m-a" 4) / 1024)) MB | $(($(col "$cmd-$m-b" 4) / 1024)) MB |"
	done
done
