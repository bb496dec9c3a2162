#!/usr/bin/env bash
# Issue 27 item 12: how late `memscope watch` reports a memory write while
# another transcript has just become a multi-GB sparse file (a line of
# zeros with no end, as a disk error or a bad copy leaves). Builds
# memscope, writes a small generated home, starts `memscope watch --json`,
# and N times (default 5) writes a memory file by rename and times write →
# its event on watch's output (polled every 10 ms): first with the home
# quiet, then right after growing the home's largest transcript by G GiB
# (default 4) of holes each round. Prints both medians and the largest.
# Speed is not asserted.
#
#   scripts/watch-latency.sh [-n 5] [-grow 4]
set -euo pipefail
cd "$(dirname "$0")/.."

n=5 grow=4
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    -grow) grow=$2; shift 2 ;;
    *) echo "usage: $0 [-n 5] [-grow 4]" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

go build -o "$work/memscope" .
home="$work/home"
go run ./scripts/memscope-gen -out "$home" -size 20M -memories 5 -history 50 >/dev/null
# The largest transcript is a running session (a process file naming this
# script's pid): watch follows its file and its project's memory folder.
big=$(ls -S "$home"/projects/*/*.jsonl | awk 'NR==1')
mem="$(dirname "$big")/memory"
[ -d "$mem" ] || { echo "watch-latency: no memory folder beside $big" >&2; exit 1; }
sid=$(basename "$big" .jsonl)
cwd=$(grep -o '"cwd":"[^"]*"' "$big" | awk 'NR==1' | cut -d'"' -f4)
mkdir -p "$home/sessions"
printf '{"pid":%d,"sessionId":"%s","cwd":"%s","status":"busy"}\n' $$ "$sid" "$cwd" >"$home/sessions/$$.json"

"$work/memscope" watch --home "$home" --json >"$work/events" 2>"$work/stderr" &
pid=$!
for _ in $(seq 1 500); do grep -q 'ctrl+c stops' "$work/stderr" && break; sleep 0.02; done
grep -q 'ctrl+c stops' "$work/stderr" || { echo "watch-latency: watch did not start" >&2; cat "$work/stderr" >&2; exit 1; }

k=0
# write_and_time: write a new memory file by rename, print ms until watch
# names it (or "timeout" after 30 s).
write_and_time() {
  k=$((k + 1))
  local name="latency_$k.md" t0 t1
  printf -- '---\nname: latency %d\ndescription: a latency probe\ntype: project\n---\n\nprobe\n' "$k" >"$mem/.tmp_$name"
  t0=$(date +%s%N)
  mv "$mem/.tmp_$name" "$mem/$name"
  for _ in $(seq 1 3000); do
    if grep -q "$name" "$work/events"; then
      t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); return
    fi
    sleep 0.01
  done
  echo timeout
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
largest() { sort -n | tail -1; }

quiet=()
for _ in $(seq 1 "$n"); do quiet+=("$(write_and_time)"); sleep 0.3; done
grown=()
size=$(stat -c %s "$big")
for _ in $(seq 1 "$n"); do
  size=$((size + grow * 1024 * 1024 * 1024))
  truncate -s "$size" "$big"
  grown+=("$(write_and_time)")
  sleep 0.3
done

echo "date: $(date -u +%FT%TZ)  machine: $(nproc) cores  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "memory write → watch event, quiet home:            median $(printf '%s\n' "${quiet[@]}" | median) ms, largest $(printf '%s\n' "${quiet[@]}" | largest) ms"
echo "memory write → watch event, a transcript +${grow} GiB holes: median $(printf '%s\n' "${grown[@]}" | median) ms, largest $(printf '%s\n' "${grown[@]}" | largest) ms (final sparse size $((size / 1024 / 1024 / 1024)) GiB)"
