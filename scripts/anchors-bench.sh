#!/usr/bin/env bash
# The secret scan's anchor search (engine/scan Anchors.Find) before and
# after the vector loops (i28a). Three parts:
#
#   1. BenchmarkFind (engine/scan) over a real-shaped corpus: a home's
#      transcripts, pastes, file backups and history (24 MB from each)
#      and the shared transcript formats (../shared/formats), JSONL by
#      line and other files whole, as the scan hands them to Find. "old"
#      is the byte loop Find was (findOld, kept verbatim in the tests),
#      then each loop of Find (avx512, avx2, go); BenchmarkFindHot the
#      same over a 256 KB sample of the lines, which stays in the cache
#      (as a line the scan has just read does). MB per CPU-second (one
#      core), median of RUNS; and TestTeddyFalseCandidates' count
#      of candidates and filed pieces in the same corpus.
#   2. With valgrind, the instructions (cachegrind, load-independent) of
#      one round of BenchmarkFind/old and /avx2 over the corpus, counted
#      inside findOld and Anchors.Find only, per byte. Under valgrind
#      the processor has no AVX-512, so this counts the AVX2 loop.
#   3. `memscope secrets --home H --json` (the whole-home scan) of BASE
#      (default main) and the worktree, runs alternated: median CPU
#      (user + system) and wall; the two builds' JSON compared.
#
#   HOME_DIR=.cache/bench/W scripts/anchors-bench.sh
#   BASE=main RUNS=5 (default 3) FORMATS=../shared/formats
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-main}
RUNS=${RUNS:-3}
FORMATS=${FORMATS:-../shared/formats}
: "${HOME_DIR:?HOME_DIR: the home to read}"
command -v /usr/bin/time >/dev/null || { echo "anchors-bench: /usr/bin/time is required" >&2; exit 1; }
H=$(cd "$HOME_DIR" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
scripts/build-rev.sh "$BASE" "$TMP/memscope-a"
go build -o "$TMP/memscope-b" .
go test -c -o "$TMP/scan.test" ./engine/scan
CORPUS="$H/projects:$H/paste-cache:$H/file-history:$H/history.jsonl"
[ -d "$FORMATS" ] && CORPUS="$CORPUS:$(cd "$FORMATS" && pwd)"
export MEMSCOPE_FIND_CORPUS=$CORPUS
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "base $BASE ($(git rev-parse --short "$BASE")) against the worktree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')), $(date -u '+%F %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(go version | cut -d' ' -f3)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== candidates in the corpus"
"$TMP/scan.test" -test.run '^TestTeddyFalseCandidates$' -test.v | grep 'candidates' | sed 's/^ *anchors_amd64_test.go:[0-9]*: //' | tee "$TMP/cand"
BYTES=$(sed -n 's/^\([0-9]*\) bytes:.*/\1/p' "$TMP/cand")

echo "== BenchmarkFind and BenchmarkFindHot (a 256 KB sample of the lines, in the cache), MB/cpu-s (one core, median of $RUNS)"
for _ in $(seq "$RUNS"); do
	"$TMP/scan.test" -test.run '^$' -test.bench '^BenchmarkFind(Hot)?$' -test.benchtime 2s -test.cpu 1 |
		awk '/^BenchmarkFind/ {for (i = 1; i <= NF; i++) if ($i == "MB/cpu-s") print $1, $(i-1)}' >>"$TMP/bench"
done
for bench in BenchmarkFind BenchmarkFindHot; do
	for loop in old avx512 avx2 go; do
		m=$(awk -v l="$bench/$loop" '$1 == l {print $2}' "$TMP/bench" | median)
		[ -n "$m" ] && printf '%-24s %8.0f MB/cpu-s  (%s)\n' "$bench/$loop" "$m" "$(awk -v l="$bench/$loop" '$1 == l {printf "%s ", $2}' "$TMP/bench")"
	done
done

if command -v valgrind >/dev/null; then
	echo "== instructions, one round of BenchmarkFind over the corpus (cachegrind; AVX2 loop)"
	for loop in old avx2; do
		valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$TMP/cg-$loop" \
			"$TMP/scan.test" -test.run '^$' -test.bench "^BenchmarkFind/$loop\$" -test.benchtime 1x -test.cpu 1 >"$TMP/vg-$loop" 2>&1
		# The functions of the search: findOld for old; Find, its
		# helpers, the vector loop and its ABI wrapper for the others.
		cg_annotate "$TMP/cg-$loop" 2>/dev/null | awk -v loop="$loop" -v bytes="$BYTES" '
			/^ *[0-9,]+ +\(/ && (loop == "old" ? /engine\/scan\.findOld$/ : /engine\/scan\.(teddyAVX2(\.abi0)?|\(\*Anchors\)\.(Find|findFrom|verify|candidates))$/) {
				n = $1; gsub(",", "", n); ir += n; sub(/.*engine\/scan\./, ""); parts = parts sprintf(" %s %.1f M;", $0, n / 1e6)
			}
			END {printf "%-8s %8.1f M instructions, %5.2f a byte:%s\n", loop, ir / 1e6, ir / bytes, parts}'
	done
fi

echo "== memscope secrets --home $H --json (median of $RUNS; CPU = user + system)"
export XDG_CACHE_HOME=$TMP/xdg
run() {
	local label=$1 out=$2
	shift 2
	/usr/bin/time -f '%U %S %e' -o "$TMP/t" "$@" >"$out" || true
	awk -v l="$label" -v load="$(cut -d' ' -f1 /proc/loadavg)" '{printf "%s %.2f %.2f %s\n", l, $1 + $2, $3, load}' "$TMP/t" >>"$TMP/runs"
}
for _ in $(seq "$RUNS"); do
	for b in a b; do
		run "secrets-$b" "$TMP/secrets-$b.json" "$TMP/memscope-$b" secrets --home "$H" --json
	done
done
med() { awk -v l="$1" -v f="$2" '$1 == l {print $f}' "$TMP/runs" | median; }
for b in a b; do
	printf '%-20s CPU %6ss  wall %6ss  (runs: %s)\n' "secrets $([ "$b" = a ] && echo base || echo worktree)" "$(med "secrets-$b" 2)" "$(med "secrets-$b" 3)" \
		"$(awk -v l="secrets-$b" '$1 == l {printf "%s/%s at load %s; ", $2, $3, $4}' "$TMP/runs")"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
if cmp -s "$TMP/secrets-a.json" "$TMP/secrets-b.json"; then
	echo "secrets: the two builds' JSON is byte-identical"
else
	echo "secrets: THE JSON DIFFERS" >&2
	exit 1
fi
