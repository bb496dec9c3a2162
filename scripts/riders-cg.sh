#!/usr/bin/env bash
# The shared pass's riders a round, in instructions (valgrind's
# cachegrind: the machine's load does not move them): engine/homepass
# BenchmarkRiders (doctor, secrets, stat's summary, the ledger,
# provenance's first pass, the Projects list's last activity and the
# Replay list's followers of the first file's project, over
# VG_MB megabytes, default 16, of the
# home's transcripts held in memory) of BASE (a git ref, default main,
# given the worktree's benchmark) and of the worktree, each run for 1
# and 1+ROUNDS rounds (default 5) under GOGC=off and GOMAXPROCS=1: the
# difference over ROUNDS is one round. With TOP=N, the N costliest
# functions of one round of each. BENCH=Summarizing measures stat's
# summary alone as the pass's rider (engine/sessions
# BenchmarkSummarizingFiles) instead.
#
#   HOME_DIR=.cache/bench/W scripts/riders-cg.sh
#   BASE=main VG_MB=16 ROUNDS=5 TOP=25 BENCH=Summarizing
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-main}
VG_MB=${VG_MB:-16}
ROUNDS=${ROUNDS:-5}
: "${HOME_DIR:?HOME_DIR: the home to read}"
command -v valgrind >/dev/null || { echo "riders-cg: valgrind is required (apt-get install valgrind)" >&2; exit 1; }
H=$(cd "$HOME_DIR" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/a"
git archive "$BASE" | tar -x -C "$TMP/a"
pkg=engine/homepass bench=BenchmarkRiders file=riders_bench_test.go
if [ "${BENCH:-}" = Summarizing ]; then
	pkg=engine/sessions bench=BenchmarkSummarizingFiles file=bench_test.go
fi
cp "$pkg/$file" "$TMP/a/$pkg/"
(cd "$TMP/a" && go test -c -o "$TMP/a.test" "./$pkg")
go test -c -o "$TMP/b.test" "./$pkg"
echo "base $BASE ($(git rev-parse --short "$BASE")) against the worktree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')), $(date -u '+%F %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
cg() {
	local out=$1 rounds=$2 test=$3
	GOGC=off GOMAXPROCS=1 MEMSCOPE_BENCH_HOME=$H MEMSCOPE_BENCH_MB=$VG_MB valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" \
		"$test" -test.run '^$' -test.bench "^$bench\$" -test.benchtime "${rounds}x" >/dev/null 2>&1
	awk '/^summary:/ {print $2}' "$out"
}
for b in a b; do
	t1=$(cg "$TMP/cg1.$b" 1 "$TMP/$b.test")
	tn=$(cg "$TMP/cgn.$b" "$((ROUNDS + 1))" "$TMP/$b.test")
	awk -v l="$([ $b = a ] && echo "base $BASE" || echo worktree)" -v t1="$t1" -v tn="$tn" -v r="$ROUNDS" -v mb="$VG_MB" 'BEGIN {
		t = (tn - t1) / r
		printf "%-16s %8.1f M instructions a round (%.2f a byte)\n", l, t / 1e6, t / (mb * 1048576)
	}'
	if [ -n "${TOP:-}" ]; then
		cg_diff "$TMP/cg1.$b" "$TMP/cgn.$b" >"$TMP/cgd.$b" 2>/dev/null; cg_annotate "$TMP/cgd.$b" 2>/dev/null | sed -n '/file:function/,$p' | awk -v r="$ROUNDS" -v top="$TOP" '
			$1 ~ /^-?[0-9,]+$/ && NF >= 3 && n < top {v = $1; gsub(",", "", v); printf "    %7.2f M  %s\n", v / r / 1e6, $NF; n++}'
	fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
