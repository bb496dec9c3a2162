#!/usr/bin/env bash
# Peak RSS of a first sync, old binary against new, alternated on each
# home (the vault in /dev/shm, removed before each run and at the end):
# per home the files, chunks and state bytes (the new binary's sync),
# and each binary's median peak RSS (/usr/bin/time %M) and CPU
# (user+sys), with the load.
#
#   OLD=FILE NEW=FILE scripts/vault-rss.sh HOME...      3 runs each
#   RUNS=5 OLD=… NEW=… scripts/vault-rss.sh HOME...
set -euo pipefail
: "${OLD:?OLD=<memscope binary> is required}" "${NEW:?NEW=<memscope binary> is required}"
RUNS=${RUNS:-3}
V=/dev/shm/vault-rss-$$
out=$(mktemp -d /tmp/vault-rss-XXXXXX)
trap 'rm -rf "$V" "$out"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
echo "== vault rss, $(date -u '+%F %H:%M') UTC, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "| home | files | chunks | state file | old peak RSS | new peak RSS | old CPU | new CPU | load |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for H in "$@"; do
	H=$(realpath "$H")
	find "$H" -type f -exec cat {} + > /dev/null
	: > "$out/all"
	for r in $(seq "$RUNS"); do
		for ab in old new; do
			bin=$OLD
			[ "$ab" = new ] && bin=$NEW
			rm -rf "$V"
			/usr/bin/time -f "%M %U %S" -o "$out/t" "$bin" vault sync --home "$H" --vault "$V" --json > "$out/rep"
			read -r m u s < "$out/t"
			echo "$ab $m $(echo "$u + $s" | bc) $(cut -d' ' -f1 /proc/loadavg)" >> "$out/all"
		done
	done
	files=$(grep -m1 '"files"' "$out/rep" | tr -dc 0-9)
	chunks=$(grep -m1 '"chunks"' "$out/rep" | tr -dc 0-9)
	state=$(du -b "$V"/state/*.jsonl | awk '{s += $1} END {printf "%.1f MB", s / 1e6}')
	col() { awk -v a="$1" -v c="$2" '$1 == a {print $c}' "$out/all" | median; }
	printf '| `%s` | %s | %s | %s | %.1f MiB | %.1f MiB | %s s | %s s | %s |\n' "$H" "$files" "$chunks" "$state" \
		"$(col old 2 | awk '{print $1 / 1024}')" "$(col new 2 | awk '{print $1 / 1024}')" "$(col old 3)" "$(col new 3)" \
		"$(awk '{print $4}' "$out/all" | sort -n | sed -n '1p;$p' | paste -sd-)"
done
