#!/usr/bin/env bash
# The collector's stops in a first sync: RUNS first syncs of HOME_DIR
# (default the vault bench's home) into an empty vault in /dev/shm, each
# with GODEBUG=gctrace=1, and per collection its start in the sync and
# its two stop-the-world phases' wall time (sweep termination, mark
# termination; ms): while the world stops, a core waits for the
# goroutine still in a long call the runtime cannot preempt.
#
#   MEMSCOPE_BIN=FILE scripts/vault-gcstw.sh        that binary (default: built here)
#   RUNS=5 HOME_DIR=DIR scripts/vault-gcstw.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
H=$(realpath "${HOME_DIR:-.cache/vault-bench/home}")
out=$(mktemp -d /tmp/vault-gcstw-XXXXXX)
V=/dev/shm/vault-gcstw-$$
trap 'rm -rf "$V" "$out"' EXIT
if [ -n "${MEMSCOPE_BIN:-}" ]; then
	MS=$(realpath "$MEMSCOPE_BIN")
else
	go build -o "$out/memscope" .
	MS=$out/memscope
fi
echo "== vault gc stops, $(date -u '+%F %H:%M') UTC, $(nproc) cores, home $H ($(du -sh "$H" | cut -f1)), $MS"
for r in $(seq "$RUNS"); do
	rm -rf "$V"
	GODEBUG=gctrace=1 "$MS" vault sync --home "$H" --vault "$V" --json 2> "$out/gc" > /dev/null
	printf 'run %d, load %s:' "$r" "$(cut -d' ' -f1 /proc/loadavg)"
	# "gc N @Ts P%: A+B+C ms clock, ...": A sweep termination, C mark termination.
	awk '/^gc [0-9]+ @/ { split($5, c, "+"); printf "  gc %s at %d ms: stops %s + %s ms", $2, substr($3, 2) * 1000, c[1], c[3] }' "$out/gc"
	echo
done
