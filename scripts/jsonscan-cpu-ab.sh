#!/usr/bin/env bash
# CPU-seconds (user+sys) of two memscope binaries on the commands whose
# time is mostly jsonscan's check (i32j, docs/PERFORMANCE.md): `replay
# --lost --all --json --no-cache` and `sessions --json --no-cache`, run
# alternately $RUNS times each; prints each command's median, minimum
# and every run, with the load before and after. Read-only on the home.
#
#   HOME_DIR=.cache/bench/W A_BIN=/tmp/main-memscope B_BIN=/tmp/branch-memscope RUNS=15 scripts/jsonscan-cpu-ab.sh
set -euo pipefail
: "${HOME_DIR:?HOME_DIR: the home to read}" "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second}"
RUNS=${RUNS:-5}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "- $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load before $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$RUNS"); do
	for b in A B; do
		bin=$A_BIN
		[ "$b" = B ] && bin=$B_BIN
		/usr/bin/time -f "replay $b %U %S" "$bin" replay --lost --all --json --no-cache --home "$HOME_DIR" >/dev/null 2>>"$out"
		/usr/bin/time -f "sessions $b %U %S" "$bin" sessions --json --no-cache --home "$HOME_DIR" >/dev/null 2>>"$out"
	done
done
echo "- load after $(cut -d' ' -f1-3 /proc/loadavg)"
echo
awk '{print $1, $2, $3 + $4}' "$out" | sort -k1,2 -k3n |
	awk '{k = $1 " " $2; n[k]++; a[k, n[k]] = $3; v[k] = v[k] " " $3}
		END {for (k in n) printf "- %s: median %.2f s, min %.2f s, runs%s\n", k, a[k, int((n[k] + 1) / 2)], a[k, 1], v[k]}' | sort
