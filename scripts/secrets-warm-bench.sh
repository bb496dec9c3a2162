#!/usr/bin/env bash
# What a warm secrets count costs in-process (i28s4): engine/secrets'
# TestWarmCountsBench (a warm Counts on a planted home with 15 000 more
# pastes, W's size, every write-once folder trusted; time, bytes and
# allocations a run), for this tree and, with REV, for that revision
# (a copy from git archive, given this tree's warmalloc_test.go), run
# alternated COUNT times (default 3); the date, machine and load are
# printed with each.
#   scripts/secrets-warm-bench.sh
#   REV=main COUNT=3 scripts/secrets-warm-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD
trees=("$here")
if [ -n "${REV:-}" ]; then
	old=$(mktemp -d)
	trap 'rm -rf "$old"' EXIT
	git archive "$REV" | tar -x -C "$old"
	cp engine/secrets/warmalloc_test.go "$old/engine/secrets/"
	trees=("$old" "$here")
fi
for _ in $(seq "${COUNT:-3}"); do
	for tree in "${trees[@]}"; do
		name=this
		[ "$tree" = "$here" ] || name=$REV
		line=$(cd "$tree" && MEMSCOPE_LONG=1 nice -n 10 go test -count=1 -run '^TestWarmCountsBench$' -v ./engine/secrets | grep -o 'warm Counts, 15 000 pastes:.*')
		echo "$(date -u '+%Y-%m-%d %H:%M UTC') $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg) | $name | $line"
	done
done
