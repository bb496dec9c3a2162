#!/usr/bin/env bash
# The line reader's buffer (model.lineReaderBufSize: the size of each
# read of a transcript) at 64, 128 and 256 KiB, side by side: this tree
# is built three times with the constant set to each (in a temporary
# copy), and `stat --json --no-cache` (every transcript read whole, no
# cache) runs on a home, the builds alternated (64, 128, 256, 64, ...)
# so a change of load hits each alike. Prints the median CPU (user +
# system) and wall time of each, and the load before and after.
#
#   HOME_DIR=.cache/bench/W scripts/readbuf-bench.sh
#   RUNS=7 (default 5); SIZES="32 64 128 256 512" (KiB)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SIZES=${SIZES:-64 128 256}
: "${HOME_DIR:?HOME_DIR: the home to read}"
command -v /usr/bin/time >/dev/null || { echo "readbuf-bench: /usr/bin/time is required (Debian package time)" >&2; exit 1; }
H=$(cd "$HOME_DIR" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$TMP" --one-top-level=src
for k in $SIZES; do
	sed -i "s/^const lineReaderBufSize = .*/const lineReaderBufSize = $k << 10/" "$TMP/src/model/lines.go"
	grep -q "^const lineReaderBufSize = $k << 10" "$TMP/src/model/lines.go"
	(cd "$TMP/src" && go build -o "$TMP/memscope-$k" .)
done
echo "### line reader buffer, \`stat --json --no-cache\` on $(basename "$H"), $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "- $(nproc) CPUs, $(go env GOVERSION); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$RUNS"); do
	for k in $SIZES; do
		/usr/bin/time -f "$k %U %S %e" -a -o "$TMP/times" "$TMP/memscope-$k" stat --json --no-cache --home "$H" >/dev/null
	done
done
echo "- load after: $(cut -d' ' -f1-3 /proc/loadavg); medians of $RUNS alternated runs"
echo
echo "| read size | CPU (user + system) | wall |"
echo "|---:|---:|---:|"
med() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
for k in $SIZES; do
	cpu=$(awk -v k="$k" '$1 == k {print $2 + $3}' "$TMP/times" | med)
	wall=$(awk -v k="$k" '$1 == k {print $4}' "$TMP/times" | med)
	echo "| $k KiB | $cpu s | $wall s |"
done
