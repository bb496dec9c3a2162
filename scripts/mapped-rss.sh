#!/usr/bin/env bash
# The memory of a cold start of the app at idle (i28m3: the pass maps
# the transcripts it reads, and a mapped page counts in the resident set
# while it is mapped): each binary given (default: this tree's, built)
# starts in a private tmux server on HOME_DIR (default .cache/bench/W)
# with an empty cache folder, is left until its CPU grew less than 0.05 s
# over 3 s, and its /proc status is printed: VmHWM (the peak resident
# set), VmRSS, RssAnon, RssFile (mapped file pages). Alternated ROUNDS
# times (default 2), with the date and load.
#   scripts/mapped-rss.sh
#   ROUNDS=3 scripts/mapped-rss.sh /tmp/old-memscope .cache/bench/memscope
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "mapped-rss: tmux is required" >&2; exit 1; }
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
	mkdir -p .cache/bench
	go build -o .cache/bench/memscope .
	bins=("$PWD/.cache/bench/memscope")
fi
H=$(cd "${HOME_DIR:-.cache/bench/W}" && pwd -P)
. scripts/tmux-lib.sh
tmux_work memscope-mapped-rss
tmux -S "$sock" new-session -d -s keep "sleep 36000"
echo "### memory at idle after a cold start on $(basename "$H"), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for _ in $(seq "${ROUNDS:-2}"); do
	for bin in "${bins[@]}"; do
		xdg=$(mktemp -d)
		session=rss
		tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 "XDG_CACHE_HOME=$xdg NO_COLOR=1 exec $bin --home $H"
		pid=$(tmux -S "$sock" list-panes -t "$session" -F '#{pane_pid}')
		prev=-100 still=0
		for _ in $(seq 600); do
			sleep 0.5
			c=$(cpu "$pid")
			if [ $((c - prev)) -lt 5 ]; then still=$((still + 1)); else still=0; prev=$c; fi
			[ "$still" -ge 6 ] && break
		done
		printf '%s | load %s |' "$(basename "$bin")" "$(cut -d' ' -f1-3 /proc/loadavg)"
		grep -E '^(VmHWM|VmRSS|RssAnon|RssFile):' "/proc/$pid/status" | awk '{printf " %s %.1f MB", $1, $2 / 1024}'
		echo
		keys q
		sleep 1
		tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
		rm -rf "$xdg"
	done
done
