#!/usr/bin/env bash
# Two memscope builds and ripgrep on one pattern, alternated run by run
# (a, b, rg -n -o, a, b, rg...), over exactly the files `memscope search
# --in transcripts` reads: the median CPU time of each (perf stat's
# task-clock, 1 ms; /usr/bin/time's 10 ms where perf is missing), the
# ratios to rg, and whether the builds print the same JSON. For a before
# and after finer than search-patterns.sh's.
#
#   A_BIN=/tmp/main-memscope B_BIN=/tmp/branch-memscope HOME_DIR=.cache/bench/W \
#     PATTERN='queue branch' MEMSCOPE_FLAGS=--case RG_FLAGS=-F scripts/search-ab.sh
#   MEMSCOPE_FLAGS (default none: a literal, any case) and RG_FLAGS (default
#   "-F -i"): the same query for each, as search-patterns.sh pairs them
#   (--case with -F, --regex with -i, --regex --case with none)
#   RUNS=11 (default 9)
#   REALTIME=1: every command on both cores at real-time priority
#   (chrt -f 10, root only), so a shared machine's other work does not
#   preempt it
#   CACHEGRIND=1: also each build's user-space instructions of one run
#   (valgrind --tool=cachegrind; independent of the load)
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}" "${HOME_DIR:?HOME_DIR: the home to read}" "${PATTERN:?PATTERN: the query}"
RUNS=${RUNS:-9}
read -r -a mflags <<<"${MEMSCOPE_FLAGS:-}"
read -r -a rflags <<<"${RG_FLAGS--F -i}"
command -v rg >/dev/null || { echo "search-ab: rg is required (Debian package ripgrep)" >&2; exit 1; }
H=$(cd "$HOME_DIR" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
find "$H/projects" -type f \( -name '*.jsonl' -o -path '*/tool-results/*' \) -print0 | sort -z >"$TMP/list"
xargs -0 cat <"$TMP/list" >/dev/null # the page cache warm
RT=()
if [ -n "${REALTIME:-}" ]; then
	RT=(chrt -f 10)
fi
# cpu LABEL OUT CMD...: one run; "LABEL seconds" on stdout. Exit 1 (no
# match) is a finished search.
cpu() {
	local label=$1 out=$2
	shift 2
	if command -v perf >/dev/null; then
		perf stat -x, -e task-clock -o "$TMP/t" "${RT[@]}" "$@" >"$out" || [ $? = 1 ]
		awk -F, -v l="$label" '/task-clock/ {printf "%s %.4f\n", l, $1 / 1000}' "$TMP/t"
	else
		/usr/bin/time -f '%U %S' -o "$TMP/t" "${RT[@]}" "$@" >"$out" || [ $? = 1 ]
		awk -v l="$label" '{printf "%s %.4f\n", l, $1 + $2}' "$TMP/t"
	fi
}
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for _ in $(seq "$RUNS"); do
	cpu a "$TMP/a.json" "$A_BIN" search --home "$H" --in transcripts --json "${mflags[@]}" -- "$PATTERN"
	cpu b "$TMP/b.json" "$B_BIN" search --home "$H" --in transcripts --json "${mflags[@]}" -- "$PATTERN"
	# To a file: ripgrep stops at the first match when it writes to /dev/null.
	cpu rg "$TMP/rg.out" sh -c 'xargs -0 rg -n -o --no-filename "$@" <"$0"' "$TMP/list" "${rflags[@]}" -e "$PATTERN"
done >"$TMP/runs"
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
med() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
col() { awk -v l="$1" '$1 == l {print $2}' "$TMP/runs" | med; }
range() { awk -v l="$1" '$1 == l {print $2}' "$TMP/runs" | sort -g | sed -n '1p;$p' | paste -sd-; }
A=$(col a)
B=$(col b)
R=$(col rg)
echo "### \`$PATTERN\` (memscope ${MEMSCOPE_FLAGS:-}, rg ${RG_FLAGS--F -i}) over $(tr -cd '\0' <"$TMP/list" | wc -c) files of $H, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "- a = $A_BIN, b = $B_BIN; $(nproc) CPUs; load average before: $LOAD_BEFORE; after: $LOAD_AFTER; medians of $RUNS alternated runs${REALTIME:+, every command at real-time priority (chrt -f 10)}"
if cmp -s "$TMP/a.json" "$TMP/b.json"; then
	echo "- the two builds print the same JSON ($(wc -l <"$TMP/a.json") hits)"
else
	echo "- **the two builds print different JSON**"
fi
echo
echo "| | CPU (median) | range | × \`rg -n -o\` |"
echo "|---|---:|---:|---:|"
for l in a b rg; do
	v=$(col $l)
	printf '| %s | %.3f s | %s s | %.2f |\n' "$l" "$v" "$(range $l)" "$(awk -v v="$v" -v r="$R" 'BEGIN {print v / r}')"
done
awk -v a="$A" -v b="$B" 'BEGIN {printf "\nb against a: %+.1f %%\n", 100 * (b - a) / a}'
if [ -n "${CACHEGRIND:-}" ]; then
	command -v valgrind >/dev/null || { echo "search-ab: valgrind is required for CACHEGRIND=1 (Debian package valgrind)" >&2; exit 1; }
	for l in a b; do
		bin=$A_BIN
		[ "$l" = b ] && bin=$B_BIN
		n=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" search --home "$H" --in transcripts --json "${mflags[@]}" -- "$PATTERN" 2>&1 >/dev/null |
			awk '/I +refs:/ {gsub(",", "", $NF); print $NF}')
		echo "- $l: $n user-space instructions (cachegrind)"
	done
fi
