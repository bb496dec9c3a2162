#!/usr/bin/env bash
# The system calls of one cold run (an empty cache folder) of a memscope
# command, two builds side by side, under `strace -f -c`: the calls that
# open, look at and close files, which are most of what `stat` costs on
# a home of many small files (pastes, memory files) beside its reading.
# The counts do not depend on the load; strace's times do (and strace
# slows every call), so only the counts are printed.
#
#   A_BIN=/tmp/main-memscope B_BIN=/tmp/branch-memscope HOME_DIR=.cache/bench/W scripts/syscall-count.sh
#   CMD=sessions (default stat)
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}" "${HOME_DIR:?HOME_DIR: the home to read}"
command -v strace >/dev/null || { echo "syscall-count: strace is required (Debian package strace)" >&2; exit 1; }
CMD=${CMD:-stat}
H=$(cd "$HOME_DIR" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for b in a b; do
	bin=$A_BIN
	[ "$b" = b ] && bin=$B_BIN
	mkdir -p "$TMP/xdg-$b"
	XDG_CACHE_HOME="$TMP/xdg-$b" strace -f -c -o "$TMP/$b.txt" "$bin" "$CMD" --home "$H" --json >"$TMP/$b.json"
done
cmp -s "$TMP/a.json" "$TMP/b.json" || echo "syscall-count: the two builds print different JSON" >&2
# calls NAME FILE: the calls column of syscall NAME in strace's table.
calls() { awk -v s="$1" '$NF == s {print $4}' "$2" | head -1; }
echo "### \`memscope $CMD --json\` cold on $H, $(date -u +%Y-%m-%dT%H:%MZ): system calls (strace -f -c)"
echo
echo "| call | a | b |"
echo "|---|---:|---:|"
for s in openat openat2 newfstatat fstat fcntl epoll_ctl read pread64 close getdents64; do
	echo "| $s | $(calls "$s" "$TMP/a.txt") | $(calls "$s" "$TMP/b.txt") |"
done
