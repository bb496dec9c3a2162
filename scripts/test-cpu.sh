#!/usr/bin/env bash
# test-cpu.sh [packages...]: the CPU-seconds (user + sys) of `go test`,
# per package and in all, with the load average before and after.
#
# Each test binary runs under /usr/bin/time through `go test -exec`
# (this script is its own wrapper), so a package's figure is its tests'
# (children included: the CLI tests' guarded child processes), and the
# total adds what the go command spent (linking each test binary,
# vet). -count=1 runs every test; build the packages first (for example
# `go test -count=1 -run '^$' ./...`) to measure with a warm build cache,
# as docs/DEVELOPING.md "How long the tests take" does. CPU-seconds hold
# better than wall time on a busy machine, but a heavily loaded one
# still inflates them (shared caches, more GC work per second): say the
# load with the figures.
set -euo pipefail
if [ "${1:-}" = "--exec" ]; then
  # Wrapper mode: run the test binary, append "pkgdir user sys".
  shift
  t=$(mktemp)
  rc=0
  /usr/bin/time -f "%U %S" -o "$t" "$@" || rc=$?
  # The last line: /usr/bin/time writes "Command exited with non-zero
  # status N" first when the binary fails, whose figures still count.
  read -r u s < <(tail -n 1 "$t")
  rm -f "$t"
  echo "$PWD $u $s" >>"$TEST_CPU_OUT"
  exit "$rc"
fi
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- ./...
out=$(mktemp) total=$(mktemp) log=$(mktemp)
trap 'rm -f "$out" "$total" "$log"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
rc=0
TEST_CPU_OUT=$out /usr/bin/time -f "%U %S %e" -o "$total" \
  go test -count=1 -exec "$PWD/scripts/test-cpu.sh --exec" "$@" >"$log" 2>&1 || rc=$?
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E '^(FAIL|---)' "$log" || true
root=$PWD
awk -v root="$root/" '{sub(root, "", $1); printf "%8.1f  %s\n", $2 + $3, $1}' "$out" | sort -rn | head -20
awk '{s += $2 + $3} END {printf "%8.1f  test binaries (%d packages)\n", s, NR}' "$out"
read -r u s e < <(tail -n 1 "$total")
awk -v u="$u" -v s="$s" -v e="$e" 'BEGIN {printf "%8.1f  go test in all (user %.1f + sys %.1f), %.0f s wall\n", u + s, u, s, e}'
exit "$rc"
