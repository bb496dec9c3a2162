#!/usr/bin/env bash
# live-bench.sh: memscope's terminal app left open beside a writing
# Claude Code. It builds the binary and the chaos writer, copies a
# scripts/memscope-gen home, opens the app in a private tmux server on the biggest
# session of the biggest project, and has the chaos writer append to that
# session (a prompt with its transcript lines, a pasted prompt, or a memory
# file written, per step) at a steady rate. It samples /proc/PID/status
# (VmRSS) and /proc/PID/stat (utime+stime) and reports the RSS after load,
# its growth, and the CPU the app used while the writer wrote.
#
#   scripts/live-bench.sh                      200 MB home, 180 s, 1 step/s
#   SIZE=W DURATION=600 scripts/live-bench.sh  the issue's target workload
#
# Environment:
#   SIZE      scripts/memscope-gen -size (W, W/2, W/4, or bytes like 200M; default 200M)
#   DURATION  seconds the writer writes (default 180)
#   PAUSE     the writer's pause between steps (default 1s)
#   SAMPLE    seconds between samples (default 5)
#   SETTLE    seconds to wait after start-up before the baseline (default 10)
#   KEEP=1    keep the work folder (its path is printed)
#
# The generated home is cached in .cache/live-bench/<size> (git ignores
# .cache); each run works on a copy, since the writer appends to it. The
# machine's load average is printed with the numbers: on a shared machine
# CPU figures include waiting for a core.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE=${SIZE:-200M}
DURATION=${DURATION:-180}
PAUSE=${PAUSE:-1s}
SAMPLE=${SAMPLE:-5}
SETTLE=${SETTLE:-10}

for tool in tmux go; do
	command -v "$tool" >/dev/null || { echo "live-bench: needs $tool" >&2; exit 2; }
done

cache=.cache/live-bench/$(echo "$SIZE" | tr / -)
work=$(mktemp -d "${TMPDIR:-/tmp}/memscope-live.XXXXXX")
sock="$work/tmux.sock"
writer_pid=""
tm() { tmux -S "$sock" "$@"; }
cleanup() {
	if [ -n "$writer_pid" ]; then kill "$writer_pid" 2>/dev/null || true; fi
	tm kill-server 2>/dev/null || true
	if [ -n "${KEEP:-}" ]; then echo "work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

log() { echo "live-bench: $*" >&2; }

go build -o "$work/memscope" .
go build -o "$work/writer" ./scripts/chaos/memscope-chaos-writer
if [ ! -f "$cache/manifest.json" ]; then
	log "generating a $SIZE home in $cache (once)"
	rm -rf "$cache"
	mkdir -p "$(dirname "$cache")"
	go run ./scripts/memscope-gen -size "$SIZE" -out "$cache" >/dev/null
fi
home="$work/home"
cp -a "$cache" "$home"
rm -f "$home/manifest.json"

# The biggest project, and its biggest main session: the writer appends
# to that session, and the app shows that project.
read -r project session < <(python3 - "$cache/manifest.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
best = max(m["projects"], key=lambda p: sum(s["bytes"] for s in p["sessions"]))
s = max((s for s in best["sessions"] if s["kind"] == "main"), key=lambda s: s["bytes"])
print(best["path"], s["sessionId"])
EOF
)
log "home $SIZE ($(du -sh "$home" | cut -f1)), project $project, session $session"

tm -f /dev/null new-session -d -s live -x 160 -y 50 "exec $work/memscope --home $home --project $project"
pid=$(tm list-panes -t live -F '#{pane_pid}')
clk=$(getconf CLK_TCK)
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
now() { date +%s.%N; }

# Start-up: wait until the app has drawn its project, then let it settle.
for _ in $(seq 1 300); do
	tm capture-pane -p -t live | grep -q "Projects" && break
	sleep 0.1
done
sleep "$SETTLE"
kill -0 "$pid" 2>/dev/null || { echo "live-bench: the app exited during start-up" >&2; exit 1; }
rss0=$(rss)
ticks0=$(ticks)
t0=$(now)
log "after load: RSS $((rss0 / 1024)) MB, CPU so far $(awk -v t="$ticks0" -v c="$clk" 'BEGIN {printf "%.2f", t / c}') s"

"$work/writer" -home "$home" -project "$project" -session "$session" -duration "${DURATION}s" -pause "$PAUSE" \
	-split-every 0 -counts "$work/counts.json" >/dev/null 2>"$work/writer.err" &
writer_pid=$!

samples="$work/samples.tsv"
printf 'seconds\trss_kb\tcpu_s\n' >"$samples"
max=$rss0
while kill -0 "$writer_pid" 2>/dev/null; do
	sleep "$SAMPLE"
	kill -0 "$pid" 2>/dev/null || { echo "live-bench: the app exited" >&2; exit 1; }
	r=$(rss)
	[ "$r" -gt "$max" ] && max=$r
	printf '%s\t%s\t%s\n' "$(awk -v a="$(now)" -v b="$t0" 'BEGIN {printf "%.0f", a - b}')" "$r" \
		"$(awk -v t="$(ticks)" -v t0="$ticks0" -v c="$clk" 'BEGIN {printf "%.2f", (t - t0) / c}')" >>"$samples"
done
wait "$writer_pid" || { echo "live-bench: the writer failed: $(cat "$work/writer.err")" >&2; exit 1; }
writer_pid=""
# The last events' reload (debounce) lands within a second.
sleep 2
t1=$(now)
rss1=$(rss)
ticks1=$(ticks)
[ "$rss1" -gt "$max" ] && max=$rss1
steps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steps"])' "$work/counts.json")

wall=$(awk -v a="$t1" -v b="$t0" 'BEGIN {printf "%.1f", a - b}')
cpu=$(awk -v t="$ticks1" -v t0="$ticks0" -v c="$clk" 'BEGIN {printf "%.2f", (t - t0) / c}')
# Keep the samples; print about one a minute.
mkdir -p .cache/live-bench
cp "$samples" .cache/live-bench/last-samples.tsv
echo "samples (all in .cache/live-bench/last-samples.tsv):"
awk -v s="$SAMPLE" 'NR == 1 || $1 % 60 < s' "$samples" | column -t
echo
echo "home              $SIZE ($(du -sh "$home" | cut -f1) after the run)"
echo "writer            $steps steps in ${DURATION}s (pause $PAUSE)"
echo "RSS after load    $((rss0 / 1024)) MB"
echo "RSS at the end    $((rss1 / 1024)) MB (max $((max / 1024)) MB, $(awk -v a="$rss1" -v b="$rss0" 'BEGIN {printf "%+.1f", (a - b) * 100 / b}') %)"
echo "CPU while writing ${cpu} s over ${wall} s = $(awk -v c="$cpu" -v w="$wall" 'BEGIN {printf "%.1f", c * 100 / w}') % of a core ($(awk -v c="$cpu" -v s="$steps" 'BEGIN {printf "%.1f", c * 1000 / s}') ms per step)"
echo "load average      $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
