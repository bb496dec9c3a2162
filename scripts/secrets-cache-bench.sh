#!/usr/bin/env bash
# What loading the secrets counts' cache costs (i28a1): a cache of W's
# size (14 555 entries, synthetic, in a temporary folder) loaded in its
# packed form (engine/secrets keptCounts, diskcache.Packed) and as gob
# wrote the same map before, with bytes and allocations a load; the
# date, machine and load are printed with it.
#   scripts/secrets-cache-bench.sh
#   COUNT=5 scripts/secrets-cache-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')), load $(cut -d' ' -f1-3 /proc/loadavg)"
nice -n 10 go test ./engine/secrets -run '^$' -bench 'BenchmarkCountsCacheLoad' -count "${COUNT:-3}" | grep -E '^Benchmark'
