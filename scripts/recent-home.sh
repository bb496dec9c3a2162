#!/usr/bin/env bash
# A home whose Live pane has work at every start: the generated W/4
# (scripts/memscope-gen, seed 1) with every fourth main transcript (18 of
# them, 58 MB) given a modification time three hours ago, so they fall in
# the Live pane's 5-hour-block lookback (the last day) while no session
# of theirs runs. W itself has no transcript written in the last day, so
# scripts/startup-bench.sh on W does not measure the Live feed's reads;
# on this home it does (docs/PERFORMANCE.md, "i28m"):
#
#   scripts/recent-home.sh /dev/shm/recent-W4
#   HOME_DIR=/dev/shm/recent-W4 scripts/startup-ab.sh main HEAD
#
# The mtimes are relative to when the script runs: after a day the files
# leave the lookback; run it again into a new folder.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: scripts/recent-home.sh OUT}
[ ! -e "$OUT" ] || { echo "recent-home: $OUT exists" >&2; exit 1; }
GEN=$(mktemp -d)
trap 'rm -rf "$GEN"' EXIT
go build -o "$GEN/gen" ./scripts/memscope-gen
"$GEN/gen" -out "$OUT" -size W/4 -seed 1 >/dev/null
(cd "$OUT" && find projects -maxdepth 2 -name '*.jsonl' | sort | awk 'NR % 4 == 0' | xargs touch -d '-3 hours')
find "$OUT/projects" -name '*.jsonl' -newermt '-1 day' -printf '%s\n' |
	awk '{n++; s += $1} END {printf "recent-home: %d transcripts (%.0f MB) written in the last day\n", n, s / 1e6}' >&2
