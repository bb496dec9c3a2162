#!/usr/bin/env bash
# How often a start of the app opens each memory file (projects/*/memory/
# *.md of the home), two builds: scripts/startup-opens.sh's traces (one
# start each under strace -f, cold; WARM=1 for a second start), then the
# opens (openat, openat2, each reopen through /proc counted as one open
# more) whose descriptor is a memory file: in all, of the project opened
# at the start (the project whose files are opened most), the files
# opened, and the most opens of one file. Counts do not depend on the load.
#
#   A_BIN=/work/coord/memscope-d31d817 B_BIN=/tmp/memscope HOME_DIR=.cache/bench/W scripts/startup-memory-opens.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}" "${HOME_DIR:?HOME_DIR: the home to read}"
keep=$(mktemp -d)
trap 'rm -rf "$keep"' EXIT
KEEP=$keep scripts/startup-opens.sh >/dev/null
echo "### memory files opened by a $([ -n "${WARM:-}" ] && echo warm || echo cold) start, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| build | opens of memory files | files | of the project opened: opens, files, opens a file | most opens of one file |"
echo "|---|---:|---:|---|---:|"
for b in a b; do
	# An open's result, on its line or its resumed line: "= N</path>".
	grep -E '^[0-9]+ +(openat2?\(|<\.\.\. openat2? resumed>)' "$keep/$b.strace" |
		sed -nE 's#.*= [0-9]+<(.*/projects/[^/]+/memory/[^>]*\.md)>$#\1#p' |
		awk -v b="$b" '
			{ n++; f[$0]++; p = $0; sub(/\/memory\/.*/, "", p); pn[p]++; if (!((p, $0) in pf)) { pf[p, $0] = 1; pfiles[p]++ } }
			END {
				for (x in f) { files++; if (f[x] > most) most = f[x] }
				for (p in pn) if (pn[p] > top) { top = pn[p]; tp = p }
				printf "| %s | %d | %d | %d, %d, %.1f | %d |\n", b, n, files, top, pfiles[tp], top / pfiles[tp], most
			}'
done
