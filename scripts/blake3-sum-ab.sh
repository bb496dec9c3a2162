#!/usr/bin/env bash
# blake3.Sum256 of this tree against an older commit's (OLD_REV, default
# main), in ns a call: third_party/blake3's BenchmarkSum256Mix (the 32
# quantiles of the chunk lengths of a first sync of the vault bench home)
# and BenchmarkSum256Sizes (lengths around the ways an input ends), the
# two test binaries alternated ROUNDS times, then the fastest run of each
# (the least disturbed by other work on a loaded machine) and new/old.
#
#   scripts/blake3-sum-ab.sh
#   OLD_REV=e6376c8f ROUNDS=15 scripts/blake3-sum-ab.sh
#
# bench_test.go is copied into the old tree (it uses the package's API
# only), so both time the same benchmark code.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD_REV=${OLD_REV:-main}
ROUNDS=${ROUNDS:-9}
dir=$(mktemp -d "${TMPDIR:-/tmp}/blake3-sum-ab.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/old"
git archive "$OLD_REV" go.mod go.sum third_party/blake3 | tar -x -C "$dir/old"
cp third_party/blake3/bench_test.go "$dir/old/third_party/blake3/"
(cd "$dir/old" && go test -c -o "$dir/old.test" github.com/zeebo/blake3)
go test -c -o "$dir/new.test" github.com/zeebo/blake3
echo "== blake3 Sum256, $OLD_REV ($(git rev-parse --short "$OLD_REV")) vs this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- third_party/blake3 || echo ', modified')), $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
	for t in old new; do
		"$dir/$t.test" -test.run '^$' -test.bench '^BenchmarkSum256(Mix|Sizes)$' -test.benchtime 2000x |
			awk -v t="$t" '/^Benchmark/ {print t, $1, $3}' >>"$dir/all"
	done
done
awk '{k = $2; if (!((k, $1) in m) || $3 < m[k, $1]) m[k, $1] = $3; ks[k] = 1}
	END {for (k in ks) printf "%-34s old %9.0f ns  new %9.0f ns  new/old %.3f\n", k, m[k, "old"], m[k, "new"], m[k, "new"] / m[k, "old"]}' "$dir/all" | sort -t/ -k2 -n
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
