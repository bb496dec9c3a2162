#!/usr/bin/env bash
# The per-line JSON check of two builds side by side: a base (BASE, a git
# ref, default main) and the working tree. Three parts, the runs of the
# two builds alternated (a, b, a, b...) so a change of load hits both:
#
#   1. internal/jsonscan's benchmarks (the worktree's bench_test.go in
#      both trees): BenchmarkValidLines (Scanner.Line over transcript
#      lines) and BenchmarkResetLines (the bitmap pass alone), MB per
#      CPU-second, median of RUNS, over MB megabytes of the home's lines
#      (they stay in the caches below a few MB);
#   2. with valgrind, the instructions of BenchmarkValidLines (a fixed
#      100 rounds over VG_MB megabytes, default 1; load-independent): the program's and jsonscan's. Under
#      valgrind the processor has no AVX-512, so this counts the AVX2
#      loop;
#   3. `replay --lost --all --json --no-cache` (the loss ledger) and
#      `sessions --json --no-cache` over the home beside `cat` of every
#      transcript: median CPU (user + system) and wall; the two builds'
#      JSON compared.
#
#   HOME_DIR=.cache/bench/W scripts/jsonscan-ab.sh
#   BASE=main RUNS=5 (default 3) MB=1 (default 16)
#   ONE_CORE=1: each run alone on CPU 1 at real-time priority (chrt -f
#   10, root only) with GOMAXPROCS=1 for the commands, as cache-ab.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-main}
RUNS=${RUNS:-3}
MB=${MB:-16}
VG_MB=${VG_MB:-1}
: "${HOME_DIR:?HOME_DIR: the home to read}"
command -v /usr/bin/time >/dev/null || { echo "jsonscan-ab: /usr/bin/time is required" >&2; exit 1; }
H=$(cd "$HOME_DIR" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/a"
git archive "$BASE" | tar -x -C "$TMP/a"
cp internal/jsonscan/bench_test.go "$TMP/a/internal/jsonscan/bench_test.go"
(cd "$TMP/a" && go build -o "$TMP/memscope-a" . && go test -c -o "$TMP/js-a.test" ./internal/jsonscan)
go build -o "$TMP/memscope-b" .
go test -c -o "$TMP/js-b.test" ./internal/jsonscan
ALONE=()
CMD_ALONE=()
if [ -n "${ONE_CORE:-}" ]; then
	ALONE=(chrt -f 10 taskset -c 1)
	CMD_ALONE=(env GOMAXPROCS=1 chrt -f 10 taskset -c 1)
fi
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "base $BASE ($(git rev-parse --short "$BASE")) against the worktree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')), $(date -u '+%F %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== jsonscan benchmarks, $MB MB of $H's lines, MB/cpu-s (median of $RUNS)"
for bench in ValidLines ResetLines; do
	for _ in $(seq "$RUNS"); do
		for b in a b; do
			MEMSCOPE_BENCH_HOME=$H MEMSCOPE_BENCH_MB=$MB "${ALONE[@]}" "$TMP/js-$b.test" -test.run '^$' -test.bench "^Benchmark$bench\$" -test.benchtime 2s |
				awk -v b="$b" '/^Benchmark/ {for (i = 1; i <= NF; i++) if ($i == "MB/cpu-s") print b, $(i-1)}' >>"$TMP/bench-$bench"
		done
	done
	printf '%-12s base %8s  worktree %8s\n' "$bench" "$(awk '$1 == "a" {print $2}' "$TMP/bench-$bench" | median)" "$(awk '$1 == "b" {print $2}' "$TMP/bench-$bench" | median)"
done

if command -v valgrind >/dev/null; then
	echo "== instructions of BenchmarkValidLines, 100 rounds over $VG_MB MB (cachegrind; AVX2 loop)"
	for b in a b; do
		MEMSCOPE_BENCH_HOME=$H MEMSCOPE_BENCH_MB=$VG_MB valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$TMP/cg-$b" \
			"$TMP/js-$b.test" -test.run '^$' -test.bench '^BenchmarkValidLines$' -test.benchtime 100x >/dev/null 2>&1
		cg_annotate "$TMP/cg-$b" 2>/dev/null | awk -v b="$b" '
			/PROGRAM TOTALS/ {gsub(",", "", $1); total = $1}
			/internal\/jsonscan\// && !/_test\.go/ {gsub(",", "", $1); js += $1}
			END {printf "%s program %d M, jsonscan %d M\n", (b == "a" ? "base    " : "worktree"), total / 1e6, js / 1e6}'
	done
fi

echo "== commands over $H (median of $RUNS; CPU = user + system)"
mapfile -t FILES < <(find "$H/projects" -name '*.jsonl' -type f)
cat "${FILES[@]}" >/dev/null
run() {
	local label=$1 out=$2
	shift 2
	/usr/bin/time -f '%U %S %e' -o "$TMP/t" "$@" >"$out"
	awk -v l="$label" '{printf "%s %.2f %.2f\n", l, $1 + $2, $3}' "$TMP/t" >>"$TMP/runs"
}
for _ in $(seq "$RUNS"); do
	run cat /dev/null "${ALONE[@]}" cat "${FILES[@]}"
	for b in a b; do
		run "ledger-$b" "$TMP/ledger-$b.json" "${CMD_ALONE[@]}" "$TMP/memscope-$b" replay --lost --all --json --no-cache --home "$H"
		run "sessions-$b" "$TMP/sessions-$b.json" "${CMD_ALONE[@]}" "$TMP/memscope-$b" sessions --json --no-cache --home "$H"
	done
done
med() { awk -v l="$1" -v f="$2" '$1 == l {print $f}' "$TMP/runs" | median; }
cat_cpu=$(med cat 2)
cat_wall=$(med cat 3)
printf '%-32s %8s %8s %10s %10s\n' "" "CPU" "wall" "x cat CPU" "x cat wall"
printf '%-32s %7ss %7ss %10s %10s\n' "cat" "$cat_cpu" "$cat_wall" 1 1
for c in ledger sessions; do
	for b in a b; do
		cpu=$(med "$c-$b" 2)
		wall=$(med "$c-$b" 3)
		printf '%-32s %7ss %7ss %10.2f %10.2f\n' "$c $([ "$b" = a ] && echo base || echo worktree)" "$cpu" "$wall" "$(echo "$cpu / $cat_cpu" | bc -l)" "$(echo "$wall / $cat_wall" | bc -l)"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for c in ledger sessions; do
	if cmp -s "$TMP/$c-a.json" "$TMP/$c-b.json"; then
		echo "$c: the two builds' JSON is byte-identical"
	else
		echo "$c: THE JSON DIFFERS" >&2
		exit 1
	fi
done
