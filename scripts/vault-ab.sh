#!/usr/bin/env bash
# A/B of the vault's first sync against cat: scripts/vault-bench.sh run
# for two binaries in turn, ROUNDS times each (alternated, so the load
# falls on both alike), then the medians.
#
#   OLD=FILE NEW=FILE scripts/vault-ab.sh        two builds of memscope (e.g. main's and a branch's)
#   ROUNDS=5 COLD=1 OLD=… NEW=… scripts/vault-ab.sh  5 rounds, pages dropped too (vault-bench.sh's COLD)
#
# Every other variable goes to vault-bench.sh (SIZE, FORKS, BENCH_HOME).
# Prints each run's lines, then per step the median wall and CPU of each
# binary and the first sync's median wall over cat's median wall.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?OLD=<memscope binary> is required}" "${NEW:?NEW=<memscope binary> is required}"
ROUNDS=${ROUNDS:-3}
out=.cache/vault-bench/ab
rm -rf "$out" && mkdir -p "$out"
echo "== vault A/B, $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
	for ab in old new; do
		bin=$OLD
		[ "$ab" = new ] && bin=$NEW
		echo "-- round $r, $ab ($bin), load $(cut -d' ' -f1-3 /proc/loadavg)"
		MEMSCOPE_BIN=$bin scripts/vault-bench.sh 2>/dev/null | tee "$out/$ab.$r" | grep -E '^(catcold|synccold|cat|sync|du|ratio) '
	done
done
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
col() { # step, field (2: wall, 5: CPU), binary
	cat "$out/$3".* | awk -v s="$1" -v f="$2" '$1 == s {print $f}' | median
}
echo "== medians of $ROUNDS (wall s / CPU s)"
printf '%-9s %15s %15s\n' step old new
for s in catcold synccold cat sync; do
	printf '%-9s %7s / %-5s %7s / %-5s\n' "$s" "$(col $s 2 old)" "$(col $s 5 old)" "$(col $s 2 new)" "$(col $s 5 new)"
done
for ab in old new; do
	c=$(col cat 2 "$ab"); s=$(col sync 2 "$ab"); cc=$(col catcold 2 "$ab"); sc=$(col synccold 2 "$ab")
	printf '%s: first sync / cat %s (warm)' "$ab" "$(echo "scale=2; $s / $c" | bc 2>/dev/null || echo -)"
	[ "$cc" != - ] && printf ', %s (pages dropped)' "$(echo "scale=2; $sc / $cc" | bc 2>/dev/null || echo -)"
	echo
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
