#!/usr/bin/env bash
# The per-line scan of `sessions` (engine/sessions' scanWorker: the JSON
# check and walk, the summary, ccusage's usage lines) in two builds, as
# instruction counts, which the load of a shared machine does not move:
# BenchmarkScanFiles (one worker over VG_MB megabytes of the home's
# transcripts held in memory, default 4) under valgrind's cachegrind, run
# 1 and 1+ROUNDS times (default 5); the difference over ROUNDS is one
# round's instructions, whatever the test binary does once. Base is BASE
# (a git ref, default main) with the worktree's bench_test.go; under
# valgrind the processor has no AVX-512, so the AVX2 loop is counted;
# GOGC=off and GOMAXPROCS=1, so the collector does not move the count.
# Prints each build's instructions a round, a byte, and the share of
# internal/jsonscan and engine/sessions.
#
#   HOME_DIR=.cache/bench/W scripts/scan-ab.sh
#   BASE=main VG_MB=4 ROUNDS=5
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-main}
VG_MB=${VG_MB:-4}
ROUNDS=${ROUNDS:-5}
: "${HOME_DIR:?HOME_DIR: the home to read}"
command -v valgrind >/dev/null || { echo "scan-ab: valgrind is required (apt-get install valgrind)" >&2; exit 1; }
H=$(cd "$HOME_DIR" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/a"
git archive "$BASE" | tar -x -C "$TMP/a"
cp engine/sessions/bench_test.go "$TMP/a/engine/sessions/bench_test.go"
(cd "$TMP/a" && go test -c -o "$TMP/s-a.test" ./engine/sessions)
go test -c -o "$TMP/s-b.test" ./engine/sessions
echo "base $BASE ($(git rev-parse --short "$BASE")) against the worktree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')), $(date -u '+%F %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
# count B N: PROGRAM TOTALS, jsonscan's and sessions' instructions of N rounds.
count() {
	GOGC=off GOMAXPROCS=1 MEMSCOPE_BENCH_HOME=$H MEMSCOPE_BENCH_MB=$VG_MB valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$TMP/cg" \
		"$TMP/s-$1.test" -test.run '^$' -test.bench '^BenchmarkScanFiles$' -test.benchtime "${2}x" >"$TMP/out" 2>/dev/null
	cg_annotate "$TMP/cg" 2>/dev/null | awk '
		/PROGRAM TOTALS/ {gsub(",", "", $1); total = $1}
		/internal\/jsonscan\// && !/_test\.go/ {gsub(",", "", $1); js += $1}
		/engine\/sessions\// && !/_test\.go/ {gsub(",", "", $1); ss += $1}
		END {print total, js, ss}'
}
for b in a b; do
	read -r t1 j1 s1 < <(count "$b" 1)
	read -r tn jn sn < <(count "$b" $((ROUNDS + 1)))
	awk -v b="$b" -v t1="$t1" -v tn="$tn" -v j1="$j1" -v jn="$jn" -v s1="$s1" -v sn="$sn" -v r="$ROUNDS" -v mb="$VG_MB" 'BEGIN {
		t = (tn - t1) / r; j = (jn - j1) / r; s = (sn - s1) / r
		printf "%s a round: %.1f M instructions (%.2f a byte of %d MB); jsonscan %.1f M, engine/sessions %.1f M\n",
			(b == "a" ? "base    " : "worktree"), t / 1e6, t / (mb * 1048576), mb, j / 1e6, s / 1e6
	}'
done
