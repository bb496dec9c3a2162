#!/usr/bin/env bash
# jsonscan's line check on each kind of transcript line of a home (i32j,
# docs/PERFORMANCE.md): writes up to $MB megabytes of each kind (the
# kinds of scripts/ledger-lines.sh, from the transcripts holding a
# compact boundary) into $LINES_DIR, then runs BenchmarkLinesByKind of
# two jsonscan test binaries (go test -c) on them: $RUNS runs of each,
# alternated, the median ns/op printed; with VALGRIND=1, also each
# kind once under cachegrind (-benchtime 1x), the instructions of
# jsonscan's functions (the benchmark's own excluded). Read-only on the
# home.
#
#   HOME_DIR=.cache/bench/W A_TEST=/tmp/a.test B_TEST=/tmp/b.test scripts/jsonscan-kinds.sh
set -euo pipefail
: "${HOME_DIR:?HOME_DIR: the home to read}"
: "${A_TEST:?A_TEST: the first jsonscan test binary}" "${B_TEST:?B_TEST: the second}"
RUNS=${RUNS:-3}
MB=${MB:-16}
KINDS=${KINDS:-api-request-blob attachment toolresult assistant api-request-shape user api-request}
LINES_DIR=${LINES_DIR:-$(mktemp -d)}
mkdir -p "$LINES_DIR"
if ! ls "$LINES_DIR"/*.jsonl >/dev/null 2>&1; then
	find -L "$HOME_DIR/projects" -name '*.jsonl' -type f -print0 |
		xargs -0 grep -l -F compact_boundary |
		tr '\n' '\0' |
		xargs -0 cat |
		LC_ALL=C awk -v out="$LINES_DIR" -v max=$((MB * 1000000)) '
			{
				k = "other"
				if (match($0, /^\{"type":"[^"]*"/)) k = substr($0, 10, RLENGTH - 10)
				else if (match($0, /"type":"(user|assistant|system|attachment|progress)","uuid"/)) {
					k = substr($0, RSTART + 8, RLENGTH - 16)
					if (k == "user" && index($0, "\"tool_result\"")) k = "toolresult"
				}
				if (b[k] < max) { print > (out "/" k ".jsonl"); b[k] += length($0) + 1 }
			}' || true
fi
echo "- $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), lines in $LINES_DIR"
echo
echo "| kind | MB | A ns/op | B ns/op | B/A |$([ "${VALGRIND:-}" = 1 ] && echo ' A Ir | B Ir | B/A |')"
echo "|---|---:|---:|---:|---:|$([ "${VALGRIND:-}" = 1 ] && echo '---:|---:|---:|')"
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
bench() { # binary kind
	MEMSCOPE_BENCH_LINES="$LINES_DIR" nice -n 10 "$1" -test.run XXX -test.bench "LinesByKind/$2\$" -test.benchtime 10x |
		awk '/ns\/op/ {print $3}'
}
irs() { # binary kind
	local out
	out=$(mktemp)
	MEMSCOPE_BENCH_LINES="$LINES_DIR" nice -n 10 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" \
		"$1" -test.run XXX -test.bench "LinesByKind/$2\$" -test.benchtime 1x >/dev/null 2>&1
	cg_annotate "$out" 2>/dev/null | grep 'internal/jsonscan/' | grep -v _test.go | awk '{gsub(",", "", $1); s += $1} END {print s}'
	rm -f "$out"
}
for k in $KINDS; do
	[ -f "$LINES_DIR/$k.jsonl" ] || continue
	a=() b=()
	for _ in $(seq "$RUNS"); do
		a+=("$(bench "$A_TEST" "$k")")
		b+=("$(bench "$B_TEST" "$k")")
	done
	am=$(printf '%s\n' "${a[@]}" | median)
	bm=$(printf '%s\n' "${b[@]}" | median)
	row="| \`$k\` | $(awk -v s="$(stat -c %s "$LINES_DIR/$k.jsonl")" 'BEGIN {printf "%.0f", s / 1e6}') | $am | $bm | $(awk -v a="$am" -v b="$bm" 'BEGIN {printf "%.2f", b / a}') |"
	if [ "${VALGRIND:-}" = 1 ]; then
		ai=$(irs "$A_TEST" "$k")
		bi=$(irs "$B_TEST" "$k")
		row="$row $ai | $bi | $(awk -v a="$ai" -v b="$bi" 'BEGIN {printf "%.2f", b / a}') |"
	fi
	echo "$row"
done
