#!/usr/bin/env bash
# BLAKE3's AVX-512 paths (third_party/blake3/MEMSCOPE.md; docs/VAULT.md,
# "i31b3") against the AVX2 ones, in CPU seconds: blake3's Sum256
# benchmark run for a fixed number of hashes with BLAKE3_DISABLE_AVX512=1
# (the AVX2 code, as before the AVX-512 paths) and without, alternated
# ROUNDS times, then the medians of user+sys.
#
#   scripts/blake3-ab.sh              3 rounds, 8 KiB, 128 KiB and 4 MiB inputs
#   ROUNDS=5 scripts/blake3-ab.sh
#   SYNC=1 ROUNDS=9 scripts/blake3-ab.sh   instead, the vault's first sync of the
#                                          vault bench's home (scripts/vault-bench.sh
#                                          makes it; SYNC_HOME=DIR another), one
#                                          memscope built here, the same switch
#
# scripts/vault-ab.sh compares two builds' whole vault bench.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/blake3-ab.XXXXXX")
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/b3.test" github.com/zeebo/blake3
if [ -n "${SYNC:-}" ]; then
	H=${SYNC_HOME:-.cache/vault-bench/home}
	[ -d "$H" ] || { echo "blake3-ab: no home at $H (run scripts/vault-bench.sh first, or set SYNC_HOME)" >&2; exit 1; }
	go build -o "$dir/memscope" .
	echo "== vault first sync, AVX2 vs AVX-512 BLAKE3, $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), home $H ($(du -sh "$H" | cut -f1))"
	for r in $(seq "$ROUNDS"); do
		for path in avx2 avx512; do
			env=X=1
			[ "$path" = avx2 ] && env=BLAKE3_DISABLE_AVX512=1
			rm -rf "$dir/vault"
			/usr/bin/time -f "%U %S" -o "$dir/t" env "$env" "$dir/memscope" vault sync --home "$H" --vault "$dir/vault" --json >/dev/null
			echo "$path $(awk '{print $1 + $2}' "$dir/t") load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$dir/all"
		done
	done
	median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
	a=$(awk '$1 == "avx2" {print $2}' "$dir/all" | median)
	b=$(awk '$1 == "avx512" {print $2}' "$dir/all" | median)
	echo "first sync CPU s (user+sys), median of $ROUNDS: AVX2 $a, AVX-512 $b, ratio $(echo "scale=3; $b / $a" | bc)"
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi
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
