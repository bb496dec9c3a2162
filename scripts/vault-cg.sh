#!/usr/bin/env bash
# A first sync's instructions (valgrind's cachegrind: the machine's load
# does not move them) for two memscope builds, alternated ROUNDS times
# (default 2): `memscope vault sync` into an empty vault, of a home made
# of HOME_DIR's first PROJECTS project folders (default 2) and its
# history.jsonl, copied to a temporary folder (in /dev/shm when there).
#
#   OLD=FILE NEW=FILE HOME_DIR=.cache/vault-bench/home scripts/vault-cg.sh
#   PROJECTS=3 ROUNDS=3 OLD=… NEW=… HOME_DIR=… scripts/vault-cg.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${OLD:?OLD=<memscope binary> is required}" "${NEW:?NEW=<memscope binary> is required}" "${HOME_DIR:?HOME_DIR: the home to take projects from}"
ROUNDS=${ROUNDS:-2}
PROJECTS=${PROJECTS:-2}
command -v valgrind >/dev/null || { echo "vault-cg: valgrind is required (apt-get install valgrind)" >&2; exit 1; }
parent=/dev/shm
[ -d "$parent" ] && [ -w "$parent" ] || parent=${TMPDIR:-/tmp}
TMP=$(mktemp -d "$parent/vault-cg.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/home/projects"
find "$HOME_DIR/projects" -mindepth 1 -maxdepth 1 -type d | sort | head -n "$PROJECTS" | while read -r p; do cp -a "$p" "$TMP/home/projects/"; done
[ -f "$HOME_DIR/history.jsonl" ] && cp -a "$HOME_DIR/history.jsonl" "$TMP/home/"
echo "== vault cachegrind, $(date -u '+%F %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), home $(du -sm "$TMP/home" | cut -f1) MB ($PROJECTS projects and history.jsonl of $HOME_DIR), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
	for ab in old new; do
		bin=$OLD
		[ "$ab" = new ] && bin=$NEW
		rm -rf "$TMP/vault"
		n=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" vault sync --home "$TMP/home" --vault "$TMP/vault" --json 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $NF); print $NF}')
		printf '%-4s round %d: %s instructions (%s)\n' "$ab" "$r" "$n" "$bin"
	done
done
