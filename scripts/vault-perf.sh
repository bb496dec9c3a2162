#!/usr/bin/env bash
# Where a first sync's CPU goes, kernel included (perf record of
# `memscope vault sync` of HOME_DIR into an empty vault in a temporary
# folder, /dev/shm when there): the shares of the samples by part,
# ROUNDS runs (default 2) of BIN (default: a build of the worktree).
#
#   HOME_DIR=.cache/vault-bench/home scripts/vault-perf.sh
#   BIN=/work/coord/memscope-s19a ROUNDS=3 HOME_DIR=... scripts/vault-perf.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${HOME_DIR:?HOME_DIR: the home to sync}"
command -v perf >/dev/null || { echo "vault-perf: perf is required (apt-get install linux-perf)" >&2; exit 1; }
ROUNDS=${ROUNDS:-2}
parent=/dev/shm
[ -d "$parent" ] && [ -w "$parent" ] || parent=${TMPDIR:-/tmp}
T=$(mktemp -d "$parent/vault-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT
BIN=${BIN:-}
if [ -z "$BIN" ]; then
	go build -o "$T/memscope" .
	BIN="$T/memscope"
fi
echo "== vault perf, $(date -u '+%F %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), home $(du -sm "$HOME_DIR" | cut -f1) MB, $BIN"
for r in $(seq "$ROUNDS"); do
	rm -rf "$T/vault"
	load=$(cut -d' ' -f1 /proc/loadavg)
	perf record -q -o "$T/perf.data" -F 2000 -g -- "$BIN" vault sync --home "$HOME_DIR" --vault "$T/vault" --json >/dev/null 2>&1
	perf report -i "$T/perf.data" --children --sort sym --stdio -g none 2>/dev/null | awk -v r="$r" -v load="$load" '
	/%/ && !/^#/ {
		c = $1; s = $2; sub("%", "", c); sub("%", "", s); sym = $0; sub(/.*\] /, "", sym)
		if (sym ~ /s2\.encodeBlock/) s2 += s
		else if (sym ~ /blake3/) b3 += s
		else if (sym ~ /^runtime\.memmove/) mm += s
		if (sym == "golang.org/x/sys/unix.read") rd = c
		if (sym == "asm_exc_page_fault") pf = c
		if (sym == "golang.org/x/sys/unix.openat" || sym == "golang.org/x/sys/unix.Fstatat" || sym == "golang.org/x/sys/unix.Close" || sym == "syscall.Fstat") op += c
		if (sym == "syscall.write") wr = c
		if (sym == "encoding/json.Marshal" || sym ~ /vault\.appendRecord$/) js = (c > js ? c : js)
		if ($3 == "[k]") k += s
	}
	END { printf "round %d, load %s: s2 %.1f %%, BLAKE3 %.1f %%, memmove %.1f %%, read %.1f %%, page faults %.1f %%, open+stat+close %.1f %%, write %.1f %%, state lines %.1f %%; kernel %.1f %% of the samples\n", r, load, s2, b3, mm, rd, pf, op, wr, js, k }'
done
