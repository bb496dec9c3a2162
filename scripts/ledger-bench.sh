#!/usr/bin/env bash
# The loss ledger over a whole generated home: `memscope replay --lost
# --all --json` beside `cat` of every transcript (the floor: reading the
# bytes). The issue's target is at most 3x cat on W (1 GB).
#
#   scripts/ledger-bench.sh              SIZE=W/4, RUNS=3
#   SIZE=W RUNS=5 scripts/ledger-bench.sh
#
# The home is generated once with scripts/memscope-gen into
# .cache/bench/ledger-<size> (git ignores .cache), or into $HOME_DIR when
# set (HOME_DIR=/tmp/ledger-w: a 1 GB home outside the checkout; delete
# it after). The page cache is warmed
# with one cat first; each command then runs RUNS times and the median wall
# time is printed: cold (--no-cache) and with memscope's cache filled by a
# first run (in .cache/bench/xdg, not the user's cache folder). The median
# times come with the load average before and after (quote it: on a
# shared machine the ratio is the figure to read, not the seconds), and
# the median CPU time (user + system) of each. XDG_CACHE_HOME, when set,
# is where the warm runs keep memscope's cache.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE=${SIZE:-W/4}
RUNS=${RUNS:-3}
CACHE=.cache/bench
HOME_DIR=${HOME_DIR:-"$CACHE/ledger-$(echo "$SIZE" | tr '/' '_')"}
mkdir -p "$CACHE"
go build -o "$CACHE/memscope" .
if [ ! -d "$HOME_DIR/projects" ]; then
	rm -rf "$HOME_DIR"
	go run ./scripts/memscope-gen -size "$SIZE" -out "$HOME_DIR" >&2
fi
files() { find "$HOME_DIR/projects" -name '*.jsonl' -print0; }
bytes=$(files | xargs -0 cat | wc -c)
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
TIMES=$(mktemp)
trap 'rm -f "$TIMES"' EXIT
# timeit CMD...: RUNS runs; prints the median wall time, and leaves the
# median CPU time (user + system, /usr/bin/time) in $TIMES.cpu.
timeit() {
	local i
	: >"$TIMES"
	for i in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %U %S' -a -o "$TIMES" "$@" >/dev/null
	done
	awk '{print $2 + $3}' "$TIMES" | median >"$TIMES.cpu"
	awk '{print $1}' "$TIMES" | median
}
cpu() { cat "$TIMES.cpu"; }
echo "load before: $(uptime)"
files | xargs -0 cat >/dev/null
cat_s=$(timeit sh -c "find '$HOME_DIR/projects' -name '*.jsonl' -print0 | xargs -0 cat")
cat_c=$(cpu)
cold_s=$(timeit "$CACHE/memscope" replay --lost --all --json --no-cache --home "$HOME_DIR")
cold_c=$(cpu)
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-"$PWD/$CACHE/xdg"}
"$CACHE/memscope" replay --lost --all --json --home "$HOME_DIR" >/dev/null
ledger_s=$(timeit "$CACHE/memscope" replay --lost --all --json --home "$HOME_DIR")
ledger_c=$(cpu)
echo "load after:  $(uptime)"
sessions=$("$CACHE/memscope" replay --lost --all --json --home "$HOME_DIR" | jq '.sessions | length')
printf 'home %s: %s bytes of transcripts, %s with compactions\n' "$SIZE" "$bytes" "$sessions"
printf '%-40s %8s %8s\n' "" "wall" "CPU" "cat" "${cat_s}s" "${cat_c}s" "replay --lost --all --json --no-cache" "${cold_s}s" "${cold_c}s" "replay --lost --all --json (cache warm)" "${ledger_s}s" "${ledger_c}s"
printf 'ratio cold %.2f x cat, warm %.2f x cat (target <= 3)\n' "$(echo "$cold_s / $cat_s" | bc -l)" "$(echo "$ledger_s / $cat_s" | bc -l)"
