#!/usr/bin/env bash
# A first sync's allocated bytes and CPU in process: engine/vault's
# BenchmarkSyncFirst (-benchmem, RUNS syncs a process, default 3) for
# BASE (a git ref, default main, given the worktree's benchmark file)
# and the worktree, alternated ROUNDS times (default 5), on HOME_DIR;
# per run the bytes and allocations a sync (-benchmem), and the process's
# CPU (user+sys, /usr/bin/time) divided by RUNS; then the medians.
#
#   HOME_DIR=.cache/vault-bench/home scripts/vault-mem-ab.sh
#   BASE=e6376c8f ROUNDS=7 HOME_DIR=... scripts/vault-mem-ab.sh
#
# The vaults are in the tests' temporary folders (internal/testenv:
# /dev/shm when it is a tmpfs).
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-main}
ROUNDS=${ROUNDS:-5}
RUNS=${RUNS:-3}
: "${HOME_DIR:?HOME_DIR: the home to sync}"
. scripts/vault-tests-lib.sh
vault_tests
echo "== vault memory A/B: base $BASE ($(git rev-parse --short "$BASE")) against the worktree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')), $(date -u '+%F %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), home $(du -sm "$H" | cut -f1) MB, $RUNS syncs a run"
for r in $(seq "$ROUNDS"); do
	for b in a b; do
		name=$([ $b = a ] && echo base || echo worktree)
		line=$(MEMSCOPE_BENCH_HOME="$H" /usr/bin/time -f "cpu %U %S" -o "$TMP/time" "$TMP/$b.test" -test.run '^$' -test.bench '^BenchmarkSyncFirst$' -test.benchtime "${RUNS}x" -test.benchmem 2>/dev/null | grep '^BenchmarkSyncFirst')
		read -r _ u s < "$TMP/time"
		bop=$(awk '{for (i = 1; i < NF; i++) if ($(i+1) == "B/op") print $i}' <<<"$line")
		aop=$(awk '{for (i = 1; i < NF; i++) if ($(i+1) == "allocs/op") print $i}' <<<"$line")
		cpu=$(awk -v u="$u" -v s="$s" -v n="$RUNS" 'BEGIN {printf "%.3f", (u + s) / n}')
		echo "$name $bop $aop $cpu" >> "$TMP/all"
		printf '%-8s round %d, load %s: %s MB/op allocated, %s allocs/op, CPU %s s/sync\n' "$name" "$r" "$(cut -d' ' -f1 /proc/loadavg)" "$(awk -v b="$bop" 'BEGIN {printf "%.1f", b / 1e6}')" "$aop" "$cpu"
	done
done
median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
for name in base worktree; do
	printf '%s: median %s MB allocated a sync, %s allocations, CPU %s s a sync (process, setup included)\n' "$name" \
		"$(awk -v a="$name" '$1 == a {printf "%.1f\n", $2 / 1e6}' "$TMP/all" | median)" \
		"$(awk -v a="$name" '$1 == a {print $3}' "$TMP/all" | median)" \
		"$(awk -v a="$name" '$1 == a {print $4}' "$TMP/all" | median)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
