#!/usr/bin/env bash
# The instructions of a cold `memscope overview --json` (the shared pass
# over every transcript: stat's check, doctor, secrets, inventory, the
# ledger's newest boundaries and, with PROJECT, provenance's first pass
# for that project's memory folders) for two builds, each with an empty
# cache folder, under `valgrind --tool=cachegrind --cache-sim=no`: a
# figure the machine's load does not move. Also the CPU-seconds of one
# run of each outside valgrind (load-dependent), and a check that both
# builds print the same JSON.
#
#   A_BIN=/tmp/main-memscope B_BIN=/tmp/branch-memscope HOME_DIR=.cache/bench/W scripts/overview-cold-cg.sh
#   PROJECT=/home/dev/work/for-value-09 (a project of W; default none)
#   RUNS=3 (each)
#   WARM=1: a warm run instead (each measured run after one unmeasured
#   run that fills its cache folder)
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}" "${HOME_DIR:?HOME_DIR: the home to read}"
command -v valgrind >/dev/null || { echo "overview-cold-cg: valgrind is required" >&2; exit 1; }
H=$(cd "$HOME_DIR" && pwd -P)
RUNS=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(overview --json --home "$H")
[ -z "${PROJECT:-}" ] || args+=(--project "$PROJECT")
kind=cold
[ -z "${WARM:-}" ] || kind=warm
echo "### $kind overview --json${PROJECT:+ --project $PROJECT}, $H, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| build | instructions, run by run | median |"
echo "|---|---|---:|"
# Alternated (a, b, a, b, ...): a run's count moves by some hundreds of
# millions with the goroutines' scheduling and the collector.
for i in $(seq "$RUNS"); do
	for n in a b; do
		bin=A_BIN
		[ "$n" = b ] && bin=B_BIN
		rm -rf "$work/xdg"
		mkdir -p "$work/xdg"
		[ -z "${WARM:-}" ] || XDG_CACHE_HOME="$work/xdg" "${!bin}" "${args[@]}" >/dev/null 2>&1
		XDG_CACHE_HOME="$work/xdg" GOMAXPROCS=2 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$work/cg" "${!bin}" "${args[@]}" >"$work/$n.json" 2>"$work/$n.err"
		awk '/^summary:/ {print $2}' "$work/cg" >>"$work/ir.$n"
	done
done
for n in a b; do
	bin=A_BIN
	[ "$n" = b ] && bin=B_BIN
	printf '| %s = %s | %s | %s |\n' "$n" "${!bin}" "$(paste -sd, "$work/ir.$n" | sed 's/,/, /g')" "$(sort -n "$work/ir.$n" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')"
done
echo
cmp -s "$work/a.json" "$work/b.json" && echo "Both print the same JSON." || echo "overview-cold-cg: the two builds print different JSON" >&2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
