#!/usr/bin/env bash
# Where a first sync leaves a core idle: engine/vault's BenchmarkSyncFirst
# (one first sync of HOME_DIR into an empty vault in a temporary folder)
# run under `go test -trace`, for BASE (a git ref, default main, given
# the worktree's benchmark file) and the worktree, alternated ROUNDS
# times (default 3). From the trace's goroutine states, inside the
# benchmark's "vault.Sync" region, per run:
#
#   span     the sync's wall time in the trace (the load stretches it)
#   idle     core-seconds with no goroutine of the sync's (the one that
#            began it and those started during it; not the runtime's
#            collector) to run on one of the two cores: the integral of
#            2 - min(2, running + runnable + in a system call); the load
#            does not create it (a goroutine that waits for a core is
#            runnable), the program's waits do (a lock, a channel; an
#            fsync counts as one in a system call)
#            (and its share of 2 x span), and its parts in the span's
#            first tenth, its last tenth and between them
#
#   HOME_DIR=.cache/vault-bench/home scripts/vault-timeline.sh
#   BASE=cfebfe52 ROUNDS=5 HOME_DIR=... scripts/vault-timeline.sh
#
# The temporary vault is where the tests' temporary folders are
# (internal/testenv: /dev/shm when it is a tmpfs, where fsyncs cost
# little); VAULT_TMP=DIR puts it in DIR instead (on a disk: the fsyncs
# of vault-bench.sh's vault, in .cache).
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-main}
ROUNDS=${ROUNDS:-3}
: "${HOME_DIR:?HOME_DIR: the home to sync}"
. scripts/vault-tests-lib.sh
vault_tests
echo "== vault timeline: base $BASE ($(git rev-parse --short "$BASE")) against the worktree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', changed')), $(date -u '+%F %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), home $(du -sm "$H" | cut -f1) MB"
busy() { # the parsed trace on stdin
	awk '
	function tm() { match($0, /Time=[0-9]+/); return substr($0, RSTART + 5, RLENGTH - 5) + 0 }
	/RegionBegin .*Type="vault.Sync"/ { t0 = last = tm(); on = 1; match($0, / G=[0-9]+/); g = substr($0, RSTART + 3, RLENGTH - 3); mine[g] = 1; s[g] = "Running"; next }
	/RegionEnd .*Type="vault.Sync"/ { t1 = tm(); acc(t1); on = 0; next }
	on && /StateTransition Time=[0-9]+ GoID=/ {
		t = tm()
		match($0, /GoID=[0-9]+ [A-Za-z]+->[A-Za-z]+/); split(substr($0, RSTART, RLENGTH), a, /[ ]|->/)
		g = substr(a[1], 6)
		if (a[2] == "NotExist") mine[g] = 1
		if (!(g in mine)) next
		acc(t)
		s[g] = a[3]
	}
	function acc(t,   d, k) {
		d = 0
		for (k in s) if (s[k] == "Running" || s[k] == "Runnable" || s[k] == "Syscall") d++
		if (d > 2) d = 2
		if (t > last) { idle += (2 - d) * (t - last); n++; at[n] = t; id[n] = idle }
		last = t
	}
	function upto(x,   k) { # idle before time x
		for (k = n; k > 0 && at[k] > x; k--) {}
		return k ? id[k] : 0
	}
	END {
		span = t1 - t0
		printf "span %.3f s  idle %.3f core-s (%.1f %%): first tenth %.3f, middle %.3f, last tenth %.3f\n", span / 1e9, idle / 1e9, 100 * idle / (2 * span),
			upto(t0 + span / 10) / 1e9, (upto(t1 - span / 10) - upto(t0 + span / 10)) / 1e9, (idle - upto(t1 - span / 10)) / 1e9
	}'
}
run_env=()
if [ -n "${VAULT_TMP:-}" ]; then
	mkdir -p "$VAULT_TMP"
	run_env=(TMPDIR="$(cd "$VAULT_TMP" && pwd)")
fi
for r in $(seq "$ROUNDS"); do
	for b in a b; do
		env "${run_env[@]}" MEMSCOPE_BENCH_HOME="$H" nice -n 10 "$TMP/$b.test" -test.run '^$' -test.bench '^BenchmarkSyncFirst$' -test.benchtime 1x -test.trace "$TMP/trace.$b" >/dev/null 2>&1
		printf '%-9s round %d, load %s: %s\n' "$([ $b = a ] && echo base || echo worktree)" "$r" "$(cut -d' ' -f1 /proc/loadavg)" "$(go tool trace -d=parsed "$TMP/trace.$b" 2>/dev/null | busy)"
	done
done
