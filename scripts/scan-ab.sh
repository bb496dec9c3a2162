#!/usr/bin/env bash
# The per-line work of a transcript scan as instruction counts, which the
# load of a shared machine does not move (valgrind's cachegrind; under
# valgrind the processor has no AVX-512, so jsonscan's AVX2 loop is
# counted; GOGC=off and GOMAXPROCS=1, so the collector does not move the
# count). Each benchmark runs 1 and 1+ROUNDS times (default 5) over
# VG_MB megabytes (default 4) of the home's transcripts held in memory;
# the difference over ROUNDS is one round's instructions, whatever the
# test binary does once.
#
#   1. `sessions`' scan (engine/sessions BenchmarkScanFiles: one worker's
#      scanWorker.scan, ccusage's usage lines included) in BASE (a git
#      ref, default main, given the worktree's bench_test.go and
#      enginetest/benchhome.go) and in the worktree;
#   2. the shared pass's work on each line for stat's summary and
#      doctor's scan (engine/doctor BenchmarkSharedLines, worktree):
#      doctor reading the members stat's check walked against doctor
#      walking each line again (the pass before i28j);
#   3. with CLI=1, the whole of `sessions --json --no-cache`, `sessions
#      --json` cold (its cache written) and `overview --json` cold (the
#      shared pass: doctor's and stat's readers among others) of both
#      builds over the home (a minute or more each on W; CLI_CMDS, comma
#      separated, picks the commands);
#
#   4. with CPU=1 (RUNS times, default 5, the builds alternated), the CPU
#      (user + system) and wall of `overview --json` cold, `sessions
#      --json` cold and `sessions --json --no-cache`, beside `cat` of
#      every transcript: medians, and the load before and after.
#
#   5. with PERF=1, one cold `overview --json` of each build under `perf
#      record` (cpu-clock): the share of the run in doctor's line work
#      (lineValid or lineTop, and jsonscan.EachMember).
#
#   HOME_DIR=.cache/bench/W scripts/scan-ab.sh
#   BASE=main VG_MB=4 ROUNDS=5 CLI=1 CPU=1 RUNS=5 PERF=1
#   NOBENCH=1 skips 1 and 2
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
cp engine/internal/enginetest/benchhome.go "$TMP/a/engine/internal/enginetest/benchhome.go"
(cd "$TMP/a" && go test -c -o "$TMP/s-a.test" ./engine/sessions && go build -o "$TMP/memscope-a" .)
go test -c -o "$TMP/s-b.test" ./engine/sessions
go test -c -o "$TMP/d-b.test" ./engine/doctor
go build -o "$TMP/memscope-b" .
echo "base $BASE ($(git rev-parse --short "$BASE")) against the worktree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')), $(date -u '+%F %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
# cg OUT CMD...: CMD under cachegrind; prints its instructions, then
# internal/jsonscan's and engine/sessions'.
cg() {
	local out=$1
	shift
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" "$@" >/dev/null 2>&1
	cg_annotate "$out" 2>/dev/null | awk '
		/PROGRAM TOTALS/ {gsub(",", "", $1); total = $1}
		/internal\/jsonscan\// && !/_test\.go/ {gsub(",", "", $1); js += $1}
		/engine\/sessions\// && !/_test\.go/ {gsub(",", "", $1); ss += $1}
		END {printf "%.0f %.0f %.0f\n", total, js, ss}'
}
# round LABEL TEST BENCH: one round's instructions of the benchmark.
round() {
	local label=$1 test=$2 bench=$3 t1 j1 s1 tn jn sn
	export GOGC=off GOMAXPROCS=1 MEMSCOPE_BENCH_HOME=$H MEMSCOPE_BENCH_MB=$VG_MB
	read -r t1 j1 s1 < <(cg "$TMP/cg" "$test" -test.run '^$' -test.bench "$bench" -test.benchtime 1x)
	read -r tn jn sn < <(cg "$TMP/cg" "$test" -test.run '^$' -test.bench "$bench" -test.benchtime "$((ROUNDS + 1))x")
	unset GOGC GOMAXPROCS MEMSCOPE_BENCH_HOME MEMSCOPE_BENCH_MB
	awk -v l="$label" -v t1="$t1" -v tn="$tn" -v j1="$j1" -v jn="$jn" -v s1="$s1" -v sn="$sn" -v r="$ROUNDS" -v mb="$VG_MB" 'BEGIN {
		t = (tn - t1) / r; j = (jn - j1) / r; s = (sn - s1) / r
		printf "%-34s %7.1f M instructions a round (%.2f a byte); jsonscan %.1f M, engine/sessions %.1f M\n", l, t / 1e6, t / (mb * 1048576), j / 1e6, s / 1e6
	}'
}
if [ -z "${NOBENCH:-}" ]; then
	echo "== one round over $VG_MB MB of $H's transcripts"
	round "sessions scan, base" "$TMP/s-a.test" '^BenchmarkScanFiles$'
	round "sessions scan, worktree" "$TMP/s-b.test" '^BenchmarkScanFiles$'
	round "stat + doctor, doctor walks again" "$TMP/d-b.test" '^BenchmarkSharedLines$/^rewalked$'
	round "stat + doctor, one walk" "$TMP/d-b.test" '^BenchmarkSharedLines$/^walked$'
fi
if [ -n "${CLI:-}" ]; then
	echo "== whole commands over $H, GOMAXPROCS=1, cold (an empty cache folder) or --no-cache"
	IFS=, read -r -a CMDS <<<"${CLI_CMDS:-sessions --json --no-cache,sessions --json,overview --json}"
	for cmd in "${CMDS[@]}"; do
		for b in a b; do
			rm -rf "$TMP/xdg"
			# shellcheck disable=SC2086 # cmd is words
			read -r t j s < <(XDG_CACHE_HOME="$TMP/xdg" GOMAXPROCS=1 cg "$TMP/cg" "$TMP/memscope-$b" $cmd --home "$H")
			printf '%-28s %-8s %8.0f M instructions; jsonscan %.0f M, engine/sessions %.0f M\n' "$cmd" "$([ $b = a ] && echo base || echo worktree)" "$(echo "$t / 1000000" | bc -l)" "$(echo "$j / 1000000" | bc -l)" "$(echo "$s / 1000000" | bc -l)"
			# Where they go, by kind of function (those above
			# cg_annotate's 0.1 % threshold).
			cg_annotate "$TMP/cg" 2>/dev/null | sed -n '/file:function/,/^-- Auto/p' | awk -v total="$t" '$1 ~ /^[0-9,]+$/ && NF >= 3 {
				n = $1; gsub(",", "", n); fn = $NF; c = "other"
				if (fn ~ /classify/) c = "jsonscan bitmap pass"
				else if (fn ~ /internal\/jsonscan/) c = "jsonscan walk"
				else if (fn ~ /sha256/) c = "SHA-256"
				else if (fn ~ /indexbyte/) c = "newline search (IndexByte)"
				else if (fn ~ /engine\/sessions/) c = "engine/sessions"
				else if (fn ~ /engine\/diskcache|encoding\/gob/) c = "diskcache, gob"
				else if (fn ~ /memscope\/model/) c = "model"
				else if (fn ~ /go\/src\/runtime|internal\/runtime/) c = "runtime"
				k[c] += n; t += n
			} END {
				k["below the threshold"] = total - t
				for (c in k) printf "    %7.0f M %5.1f %%  %s\n", k[c] / 1e6, 100 * k[c] / total, c
			}' | sort -rn
		done
	done
fi
if [ -n "${CPU:-}" ]; then
	RUNS=${RUNS:-5}
	mapfile -t FILES < <(find "$H/projects" -name '*.jsonl' -type f)
	cat "${FILES[@]}" >/dev/null # the page cache warm
	echo "== CPU (user + system) and wall, medians of $RUNS, builds alternated; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	: >"$TMP/runs"
	timed() {
		local label=$1
		shift
		/usr/bin/time -f '%U %S %e' -o "$TMP/t" "$@" >/dev/null
		awk -v l="$label" '{printf "%s %.3f %.3f\n", l, $1 + $2, $3}' "$TMP/t" >>"$TMP/runs"
	}
	for _ in $(seq "$RUNS"); do
		timed cat cat "${FILES[@]}"
		for cmd in overview-cold sessions-cold sessions-nocache; do
			for b in a b; do
				rm -rf "$TMP/xdg"
				case $cmd in
				overview-cold) args=(overview --json) ;;
				sessions-cold) args=(sessions --json) ;;
				sessions-nocache) args=(sessions --json --no-cache) ;;
				esac
				timed "$cmd-$b" env XDG_CACHE_HOME="$TMP/xdg" "$TMP/memscope-$b" "${args[@]}" --home "$H"
			done
		done
	done
	median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
	med() { awk -v l="$1" -v f="$2" '$1 == l {print $f}' "$TMP/runs" | median; }
	cat_cpu=$(med cat 2)
	printf '%-18s %9s %9s %9s %9s %8s %8s\n' "" "CPU base" "CPU tree" "× cat" "× cat" "wall b." "wall t."
	printf '%-18s %8ss %9s %9s %9s %7ss %8s\n' cat "$cat_cpu" "" 1 "" "$(med cat 3)" ""
	for cmd in overview-cold sessions-cold sessions-nocache; do
		a=$(med "$cmd-a" 2)
		b=$(med "$cmd-b" 2)
		printf '%-18s %8ss %8ss %9.2f %9.2f %7ss %7ss\n' "$cmd" "$a" "$b" "$(echo "$a / $cat_cpu" | bc -l)" "$(echo "$b / $cat_cpu" | bc -l)" "$(med "$cmd-a" 3)" "$(med "$cmd-b" 3)"
	done
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
if [ -n "${PERF:-}" ]; then
	echo "== perf samples of one sessions --json --no-cache (worktree; load $(cut -d' ' -f1-3 /proc/loadavg))"
	perf record -F 2000 -g -o "$TMP/perf-s" "$TMP/memscope-b" sessions --json --no-cache --home "$H" >/dev/null 2>&1
	perf report -i "$TMP/perf-s" --no-children --sort dso -g none 2>/dev/null | awk '$1 ~ /%$/ {printf "    %7s in %s\n", $1, $2}' | head -3
	perf report -i "$TMP/perf-s" --no-children --sort symbol -g none 2>/dev/null | awk '$1 ~ /%$/ && $3 ~ /_copy_to_iter|blocksAVX512|blocksAVX2|sha256/ {printf "    %7s in %s\n", $1, $3}'
	echo "== perf samples of one cold overview --json each (load $(cut -d' ' -f1-3 /proc/loadavg))"
	for b in a b; do
		rm -rf "$TMP/xdg"
		XDG_CACHE_HOME="$TMP/xdg" perf record -F 2000 -g -o "$TMP/perf-$b" "$TMP/memscope-$b" overview --json --home "$H" >/dev/null 2>&1
		perf report -i "$TMP/perf-$b" --children --sort symbol -g none 2>/dev/null |
			awk -v b="$([ $b = a ] && echo base || echo worktree)" '$1 ~ /%$/ && $4 ~ /doctor\.\(\*fileFeed\)\.(lineValid|lineTop|member)$|jsonscan\.EachMember$/ {printf "%-8s %7s of the run in %s\n", b, $1, $4}'
	done
fi
