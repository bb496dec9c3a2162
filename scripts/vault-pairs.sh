#!/usr/bin/env bash
# Alternated pairs of a first sync (old binary, then new, PAIRS times),
# the vault removed before each, the home's pages resident (read once
# first): per run wall, user, sys, minor faults and peak RSS
# (/usr/bin/time), then the medians of wall, CPU (user+sys), faults and
# peak RSS for each binary.
#
#   OLD=FILE NEW=FILE scripts/vault-pairs.sh            10 pairs on .cache/vault-bench/home
#   PAIRS=20 HOME_DIR=DIR OLD=… NEW=… scripts/vault-pairs.sh
#
#   VAULT_DIR=DIR OLD=… NEW=… scripts/vault-pairs.sh   the vault in DIR (on a disk: its
#                                                      fsyncs count), removed before each run and at the end
#
#   CAT=1 OLD=… NEW=… scripts/vault-pairs.sh          also `cat` of the same files (find | xargs cat,
#                                                      as vault-bench.sh does) in every round, before the
#                                                      pair: its median and each binary's median wall ÷ it
#
# The home is only read; the vault is in /dev/shm/vault-pairs-$$ (removed
# at the end) unless VAULT_DIR names another.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?OLD=<memscope binary> is required}" "${NEW:?NEW=<memscope binary> is required}"
PAIRS=${PAIRS:-10}
H=$(realpath "${HOME_DIR:-.cache/vault-bench/home}")
V=${VAULT_DIR:-/dev/shm/vault-pairs-$$}
out=$(mktemp -d /tmp/vault-pairs-XXXXXX)
trap 'rm -rf "$V" "$out"' EXIT
find "$H" -type f -exec cat {} + > /dev/null
echo "== vault pairs, $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), home $H ($(du -sh "$H" | cut -f1))"
for r in $(seq "$PAIRS"); do
	if [ -n "${CAT:-}" ]; then
		/usr/bin/time -f "%e %U %S" -o "$out/t" bash -c "cd '$H' && find . -type f -print0 | xargs -0 cat > /dev/null"
		read -r w u s < "$out/t"
		echo "$w" >> "$out/cat"
		printf 'cat %2d wall %s user %s sys %s\n' "$r" "$w" "$u" "$s"
	fi
	for ab in old new; do
		bin=$OLD
		[ "$ab" = new ] && bin=$NEW
		rm -rf "$V"
		/usr/bin/time -f "%e %U %S %R %M" -o "$out/t" "$bin" vault sync --home "$H" --vault "$V" --json > /dev/null
		read -r w u s f m < "$out/t"
		echo "$ab $w $u $s $f $m" >> "$out/all"
		printf '%-3s %2d wall %s user %s sys %s faults %s rss %s KB load %s\n' "$ab" "$r" "$w" "$u" "$s" "$f" "$m" "$(cut -d' ' -f1 /proc/loadavg)"
	done
done
median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
for ab in old new; do
	printf '%s: median wall %s s, CPU %s s, minor faults %s, peak RSS %s KB (min-max wall %s)\n' "$ab" \
		"$(awk -v a="$ab" '$1 == a {print $2}' "$out/all" | median)" \
		"$(awk -v a="$ab" '$1 == a {print $3 + $4}' "$out/all" | median)" \
		"$(awk -v a="$ab" '$1 == a {print $5}' "$out/all" | median)" \
		"$(awk -v a="$ab" '$1 == a {print $6}' "$out/all" | median)" \
		"$(awk -v a="$ab" '$1 == a {print $2}' "$out/all" | sort -n | sed -n '1p;$p' | paste -sd-)"
done
if [ -n "${CAT:-}" ]; then
	c=$(median < "$out/cat")
	printf 'cat: median wall %s s (min-max %s); median wall ÷ cat: old %s, new %s\n' "$c" "$(sort -n "$out/cat" | sed -n '1p;$p' | paste -sd-)" \
		"$(awk -v a=old '$1 == a {print $2}' "$out/all" | median | awk -v c="$c" '{printf "%.2f", $1 / c}')" \
		"$(awk -v a=new '$1 == a {print $2}' "$out/all" | median | awk -v c="$c" '{printf "%.2f", $1 / c}')"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
