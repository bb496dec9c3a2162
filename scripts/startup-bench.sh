#!/usr/bin/env bash
# What opening the app costs, and what it costs while nothing changes:
# the built binary runs in a private tmux server on a home (W, generated
# once into .cache/bench/W; HOME_DIR=... for another), and the script
# reads the process's /proc/<pid>/stat (utime + stime) and /proc/<pid>/io
# (read_bytes: from the disk; rchar: through read calls, page cache
# included) every STEP seconds (default 0.5) until it is idle: CPU grew
# less than IDLE_CPU seconds (default 0.05) over IDLE_FOR seconds (default
# 3). Any Bubble Tea program costs about 0.01 CPU-s a second idle (its
# renderer's frame ticker, 60 a second): the floor row measures it with
# scripts/memscope-tea-idle, a program that draws one screen and does nothing, so
# a lower IDLE_CPU never sees an idle app on a busy machine. It prints the CPU-seconds and bytes read until idle, the time to
# idle, to the first screen with data (the Overview, the first screen,
# shows its first counted line) and to every Overview line counted (its
# header no longer says "counting…"), then the CPU used over
# the next IDLE_SECS seconds (default 60) with nothing changing (--no-watch
# is not given: the watcher runs as a person would have it), as % of a
# core. Two starts: cold (the app's caches removed) and warm (they
# remain). The issue-28 goals: until idle <= 1.2 CPU-s and each
# transcript byte read at most once (rchar against the home's transcript
# bytes); warm <= 0.3 CPU-s; idle ~0.
#
#   scripts/startup-bench.sh
#   IDLE_SECS=20 HOME_DIR=~/.claude scripts/startup-bench.sh
#   MEMSCOPE_BIN=/tmp/main-memscope: that binary instead of this tree's
#   ARGS='--project /home/dev/work/by-struct-06': more arguments to the
#   app (W's projects: started in one, not in a folder with none)
#
# PREWARM=1: before each start, read every file of the home once with cat
# (the page cache as a person's machine has it after using the home; a VM
# that reclaims idle pages, as this project's CI machine does, otherwise
# makes a "cold" start also pay for disk reads the kernel counts as the
# app's system time). The read_bytes column says how much came from disk.
#
# "CPU until idle" is read once the app has been idle IDLE_FOR seconds,
# so it also holds the idle CPU of that check (the renderer's ticks,
# ~0.01 CPU-s a second); "CPU at the idle point" is the CPU at the last
# sample before the check began (the app's whole start-up, without it).
#
# An app that never goes idle (a poll that costs IDLE_CPU every few
# seconds) is measured after MAX_WAIT seconds (default 120), and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

STEP=${STEP:-0.5}
IDLE_CPU=${IDLE_CPU:-0.05}
IDLE_FOR=${IDLE_FOR:-3}
IDLE_SECS=${IDLE_SECS:-60}
CACHE=.cache/bench
mkdir -p "$CACHE"
log() { echo "startup-bench: $*" >&2; }
command -v tmux >/dev/null || { log "tmux is required"; exit 1; }
go build -o "$CACHE/memscope-tea-idle" ./scripts/memscope-tea-idle
if [ -n "${MEMSCOPE_BIN:-}" ]; then
	MEMSCOPE=$(cd "$(dirname "$MEMSCOPE_BIN")" && pwd)/$(basename "$MEMSCOPE_BIN")
else
	go build -o "$CACHE/memscope" .
	MEMSCOPE="$PWD/$CACHE/memscope"
fi
if [ -n "${HOME_DIR:-}" ]; then
	H=$(cd "$HOME_DIR" && pwd)
else
	H="$PWD/$CACHE/W"
	if [ ! -f "$H/manifest.json" ]; then
		go build -o "$CACHE/gen" ./scripts/memscope-gen
		log "generating W in $H (once)"
		rm -rf "$H"
		"$CACHE/gen" -out "$H" -size W -seed 1 >&2
	fi
fi
TBYTES=$(find "$H/projects" -name '*.jsonl' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
# The app's caches live under XDG_CACHE_HOME: a private one per run.
XDG=$(mktemp -d)
. scripts/tmux-lib.sh
tmux_work memscope-startup-bench
trap 'cleanup; rm -rf "$XDG"' EXIT
tmux -S "$sock" new-session -d -s keep "sleep 36000"
CLK=$(getconf CLK_TCK)

# cpu PID: utime + stime of PID and its threads, in seconds.
cpu() { awk -v t="$CLK" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }
io() { awk '/^rchar|^read_bytes/ {printf "%s ", $2}' "/proc/$1/io"; }

# start NAME: runs the app, waits until it is idle, measures the idle
# minute; appends a row.
ROWS=$(mktemp)
start() {
	local name=$1 pid t0 first="" all="" c prev idle_since now rchar rbytes c0 c1 scr
	session="startup-$name"
	if [ "${PREWARM:-0}" = 1 ]; then
		find "$H" -type f -print0 | xargs -0 cat >/dev/null
	fi
	t0=$(date +%s%N)
	tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 \
		"XDG_CACHE_HOME=$XDG NO_COLOR=1 exec $MEMSCOPE --home $H ${ARGS:-}"
	pid=$(tmux -S "$sock" list-panes -t "$session" -F '#{pane_pid}')
	prev=-1
	idle_since=$(date +%s%N)
	while :; do
		sleep "$STEP"
		if [ -z "$first" ] || [ -z "$all" ]; then
			scr=$(screen)
			# A row of the Overview with its count: "│  cut  3  …".
			if [ -z "$first" ] && grep -E "[a-z] {2,}[0-9]+  [a-z]" <<<"$scr" >/dev/null; then
				first=$((($(date +%s%N) - t0) / 1000000))
			fi
			if [ -z "$all" ] && grep -F "what needs you" <<<"$scr" | grep -vF "counting" >/dev/null; then
				all=$((($(date +%s%N) - t0) / 1000000))
			fi
		fi
		c=$(cpu "$pid")
		now=$(date +%s%N)
		if awk -v a="$c" -v b="$prev" -v d="$IDLE_CPU" 'BEGIN {exit !(a - b >= d)}'; then
			prev=$c
			idle_since=$now
		elif [ $(((now - idle_since) / 1000000)) -ge $((IDLE_FOR * 1000)) ] && [ -n "$first" ]; then
			break
		fi
		if [ $(((now - t0) / 1000000000)) -gt "${MAX_WAIT:-120}" ]; then
			log "$name: not idle after ${MAX_WAIT:-120} s: measured from there"
			break
		fi
	done
	set -- $(io "$pid")
	rchar=$1 rbytes=$2
	c0=$(cpu "$pid")
	local to_idle=$(((idle_since - t0) / 1000000))
	sleep "$IDLE_SECS"
	c1=$(cpu "$pid")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$c0" "$rchar" "$rbytes" "$to_idle" "${first:-?}" "${all:-?}" \
		"$(awk -v a="$c0" -v b="$c1" -v s="$IDLE_SECS" 'BEGIN {printf "%.2f s (%.2f%% of a core)", b - a, 100 * (b - a) / s}')" "$prev" >>"$ROWS"
	log "$(tail -1 "$ROWS")"
	keys q
	sleep 1
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
}

# floor: the idle CPU of a Bubble Tea program that does nothing.
floor() {
	local pid c0 c1
	session=floor
	tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 "exec $PWD/$CACHE/memscope-tea-idle"
	pid=$(tmux -S "$sock" list-panes -t "$session" -F '#{pane_pid}')
	sleep 2
	c0=$(cpu "$pid")
	sleep "$IDLE_SECS"
	c1=$(cpu "$pid")
	printf 'floor (tea-idle)\t-\t-\t-\t-\t-\t-\t%s\n' \
		"$(awk -v a="$c0" -v b="$c1" -v s="$IDLE_SECS" 'BEGIN {printf "%.2f s (%.2f%% of a core)", b - a, 100 * (b - a) / s}')" >>"$ROWS"
	log "$(tail -1 "$ROWS")"
	keys q
	sleep 1
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
start cold
start warm
floor
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "### memscope start-up on $(basename "$H") ($TBYTES transcript bytes), $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "- $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(go version | cut -d' ' -f3); load average before: $LOAD_BEFORE; after: $LOAD_AFTER"
	echo "- page cache: $([ "${PREWARM:-0}" = 1 ] && echo "the home read with cat before each start (PREWARM=1)" || echo "as found (PREWARM unset)")"
	echo "- idle: CPU grew less than $IDLE_CPU s over $IDLE_FOR s; then $IDLE_SECS s with nothing changing"
	echo
	echo "| start | CPU until idle | rchar | × transcript bytes | read_bytes (disk) | ms to idle | ms to first data | ms to every Overview line | CPU over the idle ${IDLE_SECS} s | CPU at the idle point |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	awk -F'\t' -v tb="$TBYTES" '$2 == "-" {printf "| %s | | | | | | | | %s | |\n", $1, $8; next}
		{printf "| %s | %s s | %.0f MB | %.2f | %.0f MB | %s | %s | %s | %s | %s s |\n", $1, $2, $3 / 1e6, $3 / tb, $4 / 1e6, $5, $6, $7, $8, $9}' "$ROWS"
} | tee "$CACHE/startup-results.md"
rm -f "$ROWS"
