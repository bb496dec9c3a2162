#!/usr/bin/env bash
# What reading a home's transcripts costs in-process with read(2) (a
# LineReader) and through mappings (model.MappedLines, what the pass of
# a cold start reads with since i28m3): model's TestMappedReadBench reads
# every transcript of HOME_DIR (default .cache/bench/W, which
# scripts/startup-bench.sh generates) line by line, the two ways
# alternated ROUNDS times (default 5), and prints the CPU-seconds (user
# + system) of each whole read, with the date, machine and load. The
# files are in the page cache after the first round (a cold start's
# page cache, PREWARM=1 in startup-bench.sh).
#   scripts/mapped-read-bench.sh
#   ROUNDS=9 HOME_DIR=~/.claude scripts/mapped-read-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
H=$(cd "${HOME_DIR:-.cache/bench/W}" && pwd -P)
echo "### transcripts read in-process, $(basename "$H"), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), load before $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(MEMSCOPE_LONG=1 MEMSCOPE_BENCH_HOME=$H ROUNDS=${ROUNDS:-5} nice -n 10 go test -count=1 -run '^TestMappedReadBench$' -v ./model |
	grep -o '[a-z]*: [0-9]* transcripts.*')
echo "$out"
for how in read mapped; do
	echo "$out" | awk -v w="$how:" '$1 == w {print $(NF-1)}' | sort -n |
		awk -v w="$how" '{v[NR] = $1} END {printf "%s: median %.3f CPU-s of %d rounds\n", w, (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2), NR}'
done
echo "load after $(cut -d' ' -f1-3 /proc/loadavg)"
