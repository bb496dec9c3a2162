#!/usr/bin/env bash
# The file system calls of a warm start of the app (its cache folder as a
# first start left it), two builds side by side: each build starts once in
# a private tmux server on the home (HOME_DIR, default .cache/bench/W) to
# fill its own cache folder (FILL seconds, default 60), then again under
# `strace -f` for WINDOW seconds (default 40: a loaded machine and strace
# slow the start; a window that ends before the Overview is counted
# misses its calls) and quits with q. Prints,
# per build, the calls that look at, open and list files, in all and by
# the home's top-level folder they name (calls made relative to a held
# folder's descriptor count under "(by descriptor)"). The counts do not
# depend on the machine's load (strace slows the app, not what it asks).
#
#   A_BIN=/tmp/main-memscope B_BIN=/tmp/branch-memscope scripts/startup-syscalls.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}"
command -v strace >/dev/null || { echo "startup-syscalls: strace is required (Debian package strace)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "startup-syscalls: tmux is required" >&2; exit 1; }
H=$(cd "${HOME_DIR:-.cache/bench/W}" && pwd -P)
work=$(mktemp -d)
sock="$work/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
tmux -S "$sock" new-session -d -s keep "sleep 36000"
. scripts/tmux-lib.sh
calls=newfstatat,openat,openat2,getdents64,close
for b in a b; do
	bin=$A_BIN
	[ "$b" = b ] && bin=$B_BIN
	mkdir -p "$work/xdg-$b"
	env="XDG_CACHE_HOME=$work/xdg-$b NO_COLOR=1"
	run_window fill "${FILL:-60}" "$env exec $bin --home $H"
	run_window warm "${WINDOW:-40}" "$env strace -f -e trace=$calls -o $work/$b.trace $bin --home $H"
done
echo "### warm start on $H, $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg): file system calls (strace -f)"
echo
python3 - "$H" "$work/a.trace" "$work/b.trace" <<'PY'
import collections, re, sys
home = sys.argv[1].rstrip("/") + "/"
call = re.compile(r'^\d+\s+(?:<\.\.\. )?(\w+)\((\d+|AT_FDCWD)?(?:, )?"?([^",)]*)')
tables = []
for f in sys.argv[2:]:
    by_call, by_dir = collections.Counter(), collections.Counter()
    for line in open(f):
        m = call.match(line)
        if not m or "resumed" in line:
            continue
        name, at, p = m.groups()
        by_call[name] += 1
        if name == "close" or name == "getdents64":
            continue
        if p.startswith(home):
            top = p[len(home):].split("/")[0] or "(the home)"
        elif p == home.rstrip("/"):
            top = "(the home)"
        elif at not in (None, "AT_FDCWD"):
            top = "(by descriptor) " + p.split("/")[0] if p.split("/")[0] in ("projects", "file-history", "paste-cache", "paste-store") else "(by descriptor)"
        else:
            top = "(outside the home)"
        by_dir[(name, top)] += 1
    tables.append((by_call, by_dir))
print("| call | a | b |")
print("|---|---:|---:|")
for c in ["newfstatat", "openat", "openat2", "getdents64", "close"]:
    print(f"| {c} | {tables[0][0][c]} | {tables[1][0][c]} |")
print(f"| all | {sum(tables[0][0].values())} | {sum(tables[1][0].values())} |")
print()
print("| call, folder | a | b |")
print("|---|---:|---:|")
keys = sorted(set(tables[0][1]) | set(tables[1][1]), key=lambda k: -(tables[0][1][k] + tables[1][1][k]))
for k in keys[:16]:
    print(f"| {k[0]} {k[1]} | {tables[0][1][k]} | {tables[1][1][k]} |")
PY
