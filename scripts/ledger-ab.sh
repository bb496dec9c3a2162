#!/usr/bin/env bash
# Two memscope builds side by side on the loss ledger of a whole home,
# `replay --lost --all --json --no-cache` (the cold run of
# scripts/ledger-bench.sh), beside `cat` of every transcript (the floor):
# runs alternate (cat, a, b, cat, a, b...), so a change of load hits both
# builds alike. Prints the median CPU (user + system), wall time and
# peak RSS of each, the wall ratio to cat's (the issue's figure: at most
# 3 x), the load before and after, and checks both builds print the
# same JSON.
#
#   A_BIN=/tmp/main-memscope B_BIN=/tmp/branch-memscope HOME_DIR=.cache/bench/W scripts/ledger-ab.sh
#   RUNS=5 (default 3)
#   REALTIME=1: every command on both cores at real-time priority (chrt
#   -f 10, root only), so the other work of a shared machine does not
#   preempt it
#   VALGRIND=1: also one run of each build under cachegrind (valgrind
#   --tool=cachegrind --cache-sim=no, GOMAXPROCS=2): the instructions
#   it executes, which the load does not change (minutes a run)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}" "${HOME_DIR:?HOME_DIR: the home to read}"
ALONE=()
[ -n "${REALTIME:-}" ] && ALONE=(chrt -f 10)
. scripts/ab-lib.sh
ab_home ledger-ab
for _ in $(seq "$RUNS"); do
	run cat /dev/null cat "${FILES[@]}"
	run a "$TMP/a.json" "$A_BIN" replay --lost --all --json --no-cache --home "$H"
	run b "$TMP/b.json" "$B_BIN" replay --lost --all --json --no-cache --home "$H"
	cmp -s "$TMP/a.json" "$TMP/b.json" || echo "ledger-ab: the two builds print different JSON" >&2
done >"$TMP/runs"
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
CAT=$(col cat 3)
echo "### replay --lost --all --json --no-cache, ${#FILES[@]} transcripts of $H, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "- a = $A_BIN, b = $B_BIN; $(nproc) CPUs, load average before: $LOAD_BEFORE; after: $LOAD_AFTER; medians of $RUNS alternated runs${REALTIME:+, at real-time priority (chrt -f 10)}"
echo
echo "| command | CPU | wall | wall × cat | peak RSS |"
echo "|---|---:|---:|---:|---:|"
echo "| \`cat\` (the floor) | $(col cat 2) s | $CAT s | 1 | |"
for b in a b; do
	w=$(col "$b" 3)
	echo "| $b | $(col "$b" 2) s | $w s | $(awk -v a="$w" -v c="$CAT" 'BEGIN {printf "%.2f", a / c}') | $(($(col "$b" 4) / 1024)) MB |"
done
if [ -n "${VALGRIND:-}" ]; then
	echo
	for b in a b; do
		bin=$A_BIN
		[ "$b" = b ] && bin=$B_BIN
		GOMAXPROCS=2 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$TMP/cg-$b" "$bin" replay --lost --all --json --no-cache --home "$H" 2>"$TMP/vg" >/dev/null
		echo "- $b under cachegrind: $(awk '/I *refs/ {print $NF}' "$TMP/vg") instructions; by function (M):"
		# The groups of docs/PERFORMANCE.md's i32m section, from
		# cg_annotate's function list.
		cg_annotate --threshold=0 "$TMP/cg-$b" 2>/dev/null | awk '
			/file:function/ && !done {p = 1; next}
			# The function list ends; the annotated sources follow (read
			# to the end: an early exit would kill cg_annotate with
			# SIGPIPE, which pipefail and set -e turn into the
			# script'"'"'s exit).
			p && /^$/ {p = 0; done = 1}
			p && /^ *[0-9,]+ \(/ {
				n = $1; gsub(",", "", n)
				if ($0 ~ /encoding\/json|lostAppender|appendJSONString|escapeTerminalRunes|needsRuneEscape|cli\.appendList/) g["the answer'"'"'s JSON"] += n
				else if ($0 ~ /jsonscan/) g["jsonscan"] += n
				else if ($0 ~ /memscope\/model\./) g["model (decoder)"] += n
				else if ($0 ~ /engine\/extract|engine\/scan|regexp/) g["instruction detector, regexp"] += n
				else if ($0 ~ /engine\/ledger/) g["engine/ledger"] += n
				else if ($0 ~ /stringslite|indexbytebody|memeqbody|bytealg/) g["string searches"] += n
				else if ($0 ~ /runtime\.(malloc|memclr|memmove|gc|scan|sweep)/) g["allocation, GC, copies"] += n
				else g["other"] += n
			}
			END {for (k in g) printf "  - %s: %.0f\n", k, g[k] / 1e6}' | sort
	done
fi
