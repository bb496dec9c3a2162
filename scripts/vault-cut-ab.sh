#!/usr/bin/env bash
# The cutter alone (engine/vault's BenchmarkCut: lines found, boundaries
# decided, session ids taken out into a frame's room, chunks named) at
# two revisions, alternated ROUNDS times (default 5): its CPU time per op
# (cpu-ns/op, user+sys, which a loaded machine's time slices leave out)
# on the transcripts of HOME_DIR (up to MB megabytes, default 400), then
# each revision's median; with CG=1 also each revision's instructions
# (cachegrind, 3 ops on CG_MB megabytes, default 60: the load does not
# move them). The benchmark file of the working tree is run at both
# revisions (an old revision may not have it).
#
#   OLD=main NEW=HEAD HOME_DIR=.cache/vault-bench/home scripts/vault-cut-ab.sh
#   CG=1 ROUNDS=3 OLD=e6376c8f NEW=HEAD HOME_DIR=… scripts/vault-cut-ab.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?OLD=<revision> is required}" "${NEW:?NEW=<revision> is required}" "${HOME_DIR:?HOME_DIR: the home whose transcripts are cut}"
ROUNDS=${ROUNDS:-5}
MB=${MB:-400}
CG_MB=${CG_MB:-60}
H=$(cd "$HOME_DIR" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for ab in old new; do
	rev=$OLD
	[ "$ab" = new ] && rev=$NEW
	mkdir -p "$TMP/$ab"
	git archive "$rev" | tar -x -C "$TMP/$ab"
	cp engine/vault/cut_bench_test.go "$TMP/$ab/engine/vault/"
	(cd "$TMP/$ab" && go test -c -o "$TMP/$ab.test" ./engine/vault)
done
echo "== vault cut A/B, $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), transcripts of $H up to $MB MB, old $OLD ($(git rev-parse --short "$OLD")), new $NEW ($(git rev-parse --short "$NEW"))"
for r in $(seq "$ROUNDS"); do
	for ab in old new; do
		line=$(MEMSCOPE_BENCH_HOME=$H MEMSCOPE_BENCH_MB=$MB "$TMP/$ab.test" -test.run XXX -test.bench '^BenchmarkCut$' -test.benchtime 8x -test.cpu 1 | grep '^BenchmarkCut')
		cpu=$(awk '{for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ns/op") print $i / 1e6}' <<<"$line")
		echo "$ab $cpu" >>"$TMP/runs"
		printf '%-3s round %d: %s ms CPU an op, load %s\n' "$ab" "$r" "$cpu" "$(cut -d' ' -f1-3 /proc/loadavg)"
	done
done
med() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for ab in old new; do
	printf '%-3s median: %s ms CPU an op\n' "$ab" "$(awk -v l="$ab" '$1 == l {print $2}' "$TMP/runs" | med)"
done
if [ "${CG:-}" = 1 ]; then
	command -v valgrind >/dev/null || { echo "vault-cut-ab: valgrind is required for CG=1" >&2; exit 1; }
	for ab in old new; do
		n=$(MEMSCOPE_BENCH_HOME=$H MEMSCOPE_BENCH_MB=$CG_MB valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$TMP/$ab.test" -test.run XXX -test.bench '^BenchmarkCut$' -test.benchtime 3x -test.cpu 1 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}')
		printf '%-3s instructions (%s MB, 3 ops, loading the transcripts included): %s\n' "$ab" "$CG_MB" "$n"
	done
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
