#!/usr/bin/env bash
# BLAKE3's AVX-512 paths (third_party/blake3/MEMSCOPE.md; docs/VAULT.md,
# "i31b3") against the AVX2 ones, in CPU seconds: blake3's Sum256
# benchmark run for a fixed number of hashes with BLAKE3_DISABLE_AVX512=1
# (the AVX2 code, as before the AVX-512 paths) and without, alternated
# ROUNDS times, then the medians of user+sys.
#
#   scripts/blake3-ab.sh              3 rounds, 8 KiB, 128 KiB and 4 MiB inputs
#   ROUNDS=5 scripts/blake3-ab.sh
#
# The vault's first sync is measured by scripts/vault-ab.sh (OLD= a build
# without the AVX-512 paths, NEW= one with them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/blake3-ab.XXXXXX")
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/b3.test" github.com/zeebo/blake3
grep -qw avx512f /proc/cpuinfo || echo "blake3-ab: no AVX-512 on this processor: both columns run the AVX2 code"
echo "== blake3 AVX2 vs AVX-512, $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
# size name, hashes per run (about 1.6 GB each)
sizes="8KiB:200000 128KiB:12500 4MiB:400"
for r in $(seq "$ROUNDS"); do
	for s in $sizes; do
		for path in avx2 avx512; do
			env=X=1
			[ "$path" = avx2 ] && env=BLAKE3_DISABLE_AVX512=1
			/usr/bin/time -f "%U %S" -o "$dir/t" env "$env" "$dir/b3.test" -test.run '^$' \
				-test.bench "^BenchmarkSum256\$/^${s%%:*}\$" -test.benchtime "${s##*:}x" >/dev/null
			echo "${s%%:*} $path $(awk '{print $1 + $2}' "$dir/t")" >>"$dir/all"
		done
	done
done
median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
printf '%-7s %-10s %-10s %s\n' input 'AVX2 CPU s' 'AVX-512' 'AVX-512/AVX2 (median of each, ~1.6 GB hashed a run)'
for s in $sizes; do
	n=${s%%:*}
	a=$(awk -v n="$n" '$1 == n && $2 == "avx2" {print $3}' "$dir/all" | median)
	b=$(awk -v n="$n" '$1 == n && $2 == "avx512" {print $3}' "$dir/all" | median)
	printf '%-7s %-10s %-10s %s\n' "$n" "$a" "$b" "$(echo "scale=3; $b / $a" | bc)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
