#!/usr/bin/env bash
# The memory of `memscope secrets` on one transcript holding many
# secrets (issue 27 item 4: the peak is bounded by the largest file
# scanned, thrice, not by the secrets found). Writes a transcript of
# SECRETS lines (default 200 000), each holding a different GitHub token,
# into a temporary home (deleted after), and prints, for `secrets --json`,
# `secrets --scrub --json` (the plan) and `secrets --scrub --yes --json`
# (the scrub itself, last: it rewrites the temporary home), the peak RSS
# (/usr/bin/time), the CPU time and the peak ÷ the file's size, with the
# load average.
#
#   scripts/secrets-heap.sh
#   SECRETS=1000000 scripts/secrets-heap.sh
#   MEMSCOPE_BIN=/tmp/memscope-old scripts/secrets-heap.sh   another build
set -euo pipefail
cd "$(dirname "$0")/.."

SECRETS=${SECRETS:-200000}
log() { echo "secrets-heap: $*" >&2; }
[ -x /usr/bin/time ] || { log "/usr/bin/time is missing (install the package 'time')"; exit 1; }
if [ -n "${MEMSCOPE_BIN:-}" ]; then
	MEMSCOPE=$(realpath "$MEMSCOPE_BIN")
else
	mkdir -p .cache/bench
	go build -o .cache/bench/memscope .
	MEMSCOPE="$PWD/.cache/bench/memscope"
fi
H=$(mktemp -d)
trap 'rm -rf "$H"' EXIT
SID=5e55c0de-0000-4000-8000-000000000002
T="$H/projects/-home-me-big/$SID.jsonl"
mkdir -p "$(dirname "$T")"
awk -v n="$SECRETS" -v sid="$SID" 'BEGIN {
	srand(5)
	al = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	for (i = 0; i < n; i++) {
		t = "ghp_"
		for (j = 0; j < 36; j++) t = t substr(al, 1 + int(rand() * 62), 1)
		printf "{\"type\":\"user\",\"uuid\":\"u-%d\",\"timestamp\":\"2026-11-20T10:00:00.000Z\",\"sessionId\":\"%s\",\"message\":{\"role\":\"user\",\"content\":\"the token is %s, keep it\"}}\n", i, sid, t
	}
}' >"$T"
touch -d '2026-11-01' "$T"
SIZE=$(wc -c <"$T")
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "### memscope secrets on one transcript of $SECRETS secrets ($SIZE bytes), $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "| command | peak RSS | × the file | CPU (user + system) | wall |"
echo "|---|---:|---:|---:|---:|"
tv=$(mktemp)
for mode in "--json" "--scrub --json" "--scrub --yes --json"; do
	# shellcheck disable=SC2086 # mode is two flags
	/usr/bin/time -f '%M %U %S %e' -o "$tv" "$MEMSCOPE" secrets --home "$H" $mode >/dev/null || [ $? -eq 1 ]
	read -r rss u s e < <(tail -1 "$tv")
	awk -v m="secrets $mode" -v rss="$rss" -v size="$SIZE" -v u="$u" -v s="$s" -v e="$e" \
		'BEGIN {printf "| %s | %.0f MB | %.2f | %.2f s | %.2f s |\n", m, rss / 1024, rss * 1024 / size, u + s, e}'
done
rm -f "$tv"
echo
echo "- $(nproc) CPUs, $(go version | cut -d' ' -f3); load average before: $LOAD_BEFORE; after: $(cut -d' ' -f1-3 /proc/loadavg)"
