#!/usr/bin/env bash
# `memscope overview --json` of two builds on a home with an empty cache
# folder each run (the CLI's cold count of every Overview line: the
# shared pass, the secrets count, stat and the rest), alternated run by
# run (A, B, A, B, …): the task-clock (CPU-seconds of every thread, perf
# stat) of each run and the medians, with the load before each run; and
# a check that the two print the same JSON.
#
#   A_BIN=/tmp/main-memscope B_BIN=.cache/bench/memscope HOME_DIR=.cache/bench/W scripts/overview-ab.sh
#   RUNS=3 (each)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { echo "overview-ab: perf is required (Debian package linux-perf)" >&2; exit 1; }
: "${A_BIN:?A_BIN: the first build}" "${B_BIN:?B_BIN: the second build}"
H=$(cd "${HOME_DIR:-.cache/bench/W}" && pwd -P)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "### memscope overview --json, cold cache, on $(basename "$H") ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs)"
echo
echo "| run | build | load | CPU-s |"
echo "|---:|---|---:|---:|"
for i in $(seq "${RUNS:-3}"); do
	for v in A B; do
		bin=$A_BIN
		[ "$v" = B ] && bin=$B_BIN
		rm -rf "$TMP/xdg" && mkdir "$TMP/xdg"
		load=$(cut -d' ' -f1 /proc/loadavg)
		XDG_CACHE_HOME="$TMP/xdg" perf stat -x, -e task-clock -o "$TMP/perf" "$bin" overview --home "$H" --json >"$TMP/$v.json"
		ms=$(awk -F, '/task-clock/ {print $1}' "$TMP/perf")
		echo "$v $ms" >>"$TMP/all"
		printf '| %d | %s | %s | %.2f |\n' "$i" "$v" "$load" "$(echo "$ms / 1000" | bc -l)"
	done
	cmp -s "$TMP/A.json" "$TMP/B.json" || echo "overview-ab: run $i: the two builds print different JSON" >&2
done
echo
for v in A B; do
	awk -v v="$v" '$1 == v {print $2}' "$TMP/all" | sort -n | awk -v v="$v" '{a[NR] = $1} END {printf "- %s median: %.2f CPU-s\n", v, a[int((NR + 1) / 2)] / 1000}'
done
