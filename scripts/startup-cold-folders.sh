#!/usr/bin/env bash
# The file calls of one cold start of the app (its cache folder empty),
# two builds, by the home's folder they name: each build starts once
# under `strace -f -y` (scripts/startup-opens.sh, KEEP) until it has made
# no file call for QUIET seconds, and the calls (openat, openat2,
# newfstatat, fstat, statx, fcntl, getdents64, close) are counted by
# where their name or descriptor points: the home itself, projects/,
# projects/<slug>, a session folder projects/<slug>/<x>, what is beneath
# a session folder, transcripts, memory folders, and each other
# top-level folder of the home (paste-cache, file-history, ...). A call
# made from a held folder's descriptor counts where the descriptor
# points. Counts do not depend on the load (strace slows the app, not
# what it asks).
#
#   A_BIN=/work/coord/memscope-s20a B_BIN=/tmp/x-memscope scripts/startup-cold-folders.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}"
command -v python3 >/dev/null || { echo "startup-cold-folders: python3 is required" >&2; exit 1; }
HOME_DIR=${HOME_DIR:-.cache/bench/W}
H=$(cd "$HOME_DIR" && pwd -P)
keep=$(mktemp -d)
trap 'rm -rf "$keep"' EXIT
KEEP=$keep A_BIN=$A_BIN B_BIN=$B_BIN HOME_DIR=$H scripts/startup-opens.sh | sed -n 1p
python3 - "$H" "$keep/a.strace" "$keep/b.strace" <<'PY'
import collections, re, sys
home, traces = sys.argv[1].rstrip('/'), sys.argv[2:]
call = re.compile(r'^\d+\s+(\w+)\((.*)$')
named = re.compile(r'(AT_FDCWD|-?\d+)(?:<([^>]*)>)?, "([^"]*)"')
byfd = re.compile(r'(\d+)<([^>]*)>')

def where(p):
    if p != home and not p.startswith(home + '/'):
        return 'outside the home'
    parts = p[len(home):].strip('/').split('/')
    if parts == ['']:
        return 'the home'
    if parts[0] != 'projects':
        return parts[0] + ('/' if len(parts) > 1 else '')
    if len(parts) == 1:
        return 'projects/'
    if len(parts) == 2:
        return 'projects/<slug>'
    if parts[2] == 'memory':
        return 'projects/<slug>/memory...'
    if parts[2].endswith('.jsonl'):
        return 'projects/<slug>/<transcript>'
    return 'projects/<slug>/<x>' if len(parts) == 3 else 'projects/<slug>/<x>/...'

def count(f):
    by, pending = collections.Counter(), {}
    for line in open(f, errors='replace'):
        pid, _, body = line.partition(' ')
        body = body.strip()
        if body.endswith('<unfinished ...>'):
            pending[pid] = body[:-len('<unfinished ...>')]
            continue
        m = re.match(r'<\.\.\. \w+ resumed>(.*)', body)
        if m:
            body = pending.pop(pid, '') + m.group(1)
        m = call.match(pid + ' ' + body)
        if not m:
            continue
        c, rest = m.groups()
        if c in ('openat', 'openat2', 'newfstatat', 'statx'):
            n = named.match(rest)
            if not n:
                continue
            _, dp, name = n.groups()
            p = name if name.startswith('/') else (dp or '') + ('/' + name if name else '')
            p = re.sub('/+', '/', p)
        else:
            n = byfd.match(rest)
            if not n:
                continue
            p = re.sub('/+', '/', n.group(2))
        by[(where(p.rstrip('/')), c)] += 1
    return by

a, b = count(traces[0]), count(traces[1])
print('\n| folder | call | a | b |\n|---|---|---:|---:|')
tot = collections.Counter()
for k in sorted(set(a) | set(b), key=lambda k: (-(a[k] + b[k]), k)):
    if a[k] + b[k] >= 20:
        print(f'| {k[0]} | {k[1]} | {a[k]} | {b[k]} |')
for which, c in (('a', a), ('b', b)):
    tot[which] = sum(v for k, v in c.items() if k[0] != 'outside the home')
print(f"| (all beneath the home) | all | {tot['a']} | {tot['b']} |")
PY
