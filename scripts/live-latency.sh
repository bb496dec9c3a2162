#!/usr/bin/env bash
# How long an appended transcript line takes to show in the app, on a
# generated home: the Live pane (engine/live's tracker) and the Replay
# timeline of the open session (its follower). Builds memscope, writes a
# home with scripts/memscope-gen (-size, default W/4), makes its largest session a
# running client (a process file naming this script's pid), runs the app
# in a private tmux server and appends N answer lines (default 5) while
# each pane is in front, timing write → screen (polled every 20 ms, so
# ±20 ms). Prints the medians. Speed is not asserted.
#
#   scripts/live-latency.sh [-size W] [-n 5] [-home DIR (reuse a home)]
set -euo pipefail
cd "$(dirname "$0")/.."

size=W/4 n=5 home=""
while [ $# -gt 0 ]; do
  case "$1" in
    -size) size=$2; shift 2 ;;
    -n) n=$2; shift 2 ;;
    -home) home=$2; shift 2 ;;
    *) echo "usage: $0 [-size W] [-n 5] [-home DIR]" >&2; exit 2 ;;
  esac
done
command -v tmux >/dev/null || { echo "live-latency: tmux not installed" >&2; exit 1; }

wait_tries=300
. scripts/tmux-lib.sh
tmux_work memscope-latency

go build -o "$work/memscope" .
if [ -z "$home" ]; then
  home="$work/home"
  go run ./scripts/memscope-gen -out "$home" -size "$size" >/dev/null
fi
tr=$(ls -S "$home"/projects/*/*.jsonl | awk 'NR==1')
sid=$(basename "$tr" .jsonl)
cwd=$(grep -o '"cwd":"[^"]*"' "$tr" | awk 'NR==1' | cut -d'"' -f4)
mkdir -p "$home/sessions"
printf '{"pid":%d,"sessionId":"%s","cwd":"%s","status":"busy"}\n' $$ "$sid" "$cwd" >"$home/sessions/$$.json"
trap 'rm -f "$home/sessions/$$.json"; cleanup' EXIT

k=0
# answer: append one response (with usage) to the session, now.
answer() {
  k=$((k + 1))
  printf '{"parentUuid":null,"isSidechain":false,"type":"assistant","uuid":"latency-%d-%d","timestamp":"%s","sessionId":"%s","cwd":"%s","requestId":"req_latency_%d_%d","message":{"id":"msg_latency_%d_%d","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"cache_read_input_tokens":50000,"output_tokens":10}}}\n' \
    $$ "$k" "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" "$sid" "$cwd" $$ "$k" $$ "$k" >>"$tr"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 \
  "NO_COLOR=1 $work/memscope --home $home --project $cwd; sleep 30"
wait_for "1 Projects"
keys L
wait_for "pid $$"
wait_for " turns · "
live=()
for _ in $(seq 1 "$n"); do
  turns=$(screen | grep -o '[0-9]* turns · ' | awk 'NR==1' | cut -d' ' -f1)
  t0=$(date +%s%N)
  answer
  live+=("$(ms_until "$t0" "$((turns + 1)) turns · ")")
  sleep 0.5
done

# Replay: the session is the project's newest; open it at its last step.
keys 6
wait_for "$(echo "$sid" | cut -c1-8)"
keys g Enter
wait_for "● following the file"
keys G
sleep 0.5
replay=()
for _ in $(seq 1 "$n"); do
  pos=$(screen | grep -o 'step [0-9]*/[0-9]*' | awk 'NR==1' | cut -d/ -f2)
  t0=$(date +%s%N)
  answer
  replay+=("$(ms_until "$t0" "step $((pos + 1))/$((pos + 1))")")
  sleep 0.5
done
echo "home: $(du -sh "$home" | cut -f1), session $(du -h "$tr" | cut -f1)"
echo "append → Live pane (ms): ${live[*]}; median $(printf '%s\n' "${live[@]}" | median)"
echo "append → Replay timeline (ms): ${replay[*]}; median $(printf '%s\n' "${replay[@]}" | median)"
