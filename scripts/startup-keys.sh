#!/usr/bin/env bash
# Keys during start-up: how long a key takes while the app's start-up
# work runs (the issue-28 goal: <= 30 ms). The built binary runs on a
# home (W by default, as scripts/startup-bench.sh; HOME_DIR=... for
# another) in a private tmux server with MEMSCOPE_KEYLOG set, so the app
# logs each key's Update and the View after it (cli/app/keylog.go); the
# script sends a pane-switch key (1..9 in turn) every EVERY seconds
# (default 0.2) for SECS seconds (default 20) from the start, quits and
# prints p50, p95 and max of Update + View over the keys, and how many
# took over 30 ms, and the same of the CPU time the two used on their
# thread (what a busy machine does not stretch). Two starts: cold (the app's caches removed) and warm
# (the cold run's). The time a key waits behind other messages in Bubble
# Tea's loop is not in it: the end-to-end row (tmux) adds that, timed
# from send-keys until the pane's screen changes, every EVERY_E2E-th key
# (default 5). The floor row runs the same end-to-end timing against
# scripts/memscope-tea-idle, a Bubble Tea program with no work behind a
# key (a digit changes its first line): what tmux's polling and the
# renderer's frame interval cost any Bubble Tea app.
#
# KEEP=DIR keeps the app's key logs (DIR/cold, DIR/warm) and the
# end-to-end times there; with GCTRACE=1 too, the app's GC trace
# (GODEBUG=gctrace=1) in DIR/cold.gc and DIR/warm.gc, to line a slow key
# up with the collections around it.
#
#   scripts/startup-keys.sh
#   SECS=30 HOME_DIR=~/.claude scripts/startup-keys.sh
#   KEEP=/tmp/keys GCTRACE=1 scripts/startup-keys.sh
set -euo pipefail
cd "$(dirname "$0")/.."

EVERY=${EVERY:-0.2}
SECS=${SECS:-20}
EVERY_E2E=${EVERY_E2E:-5}
CACHE=.cache/bench
mkdir -p "$CACHE"
log() { echo "startup-keys: $*" >&2; }
command -v tmux >/dev/null || { log "tmux is required"; exit 1; }
go build -o "$CACHE/memscope" .
go build -o "$CACHE/memscope-tea-idle" ./scripts/memscope-tea-idle
MEMSCOPE="$PWD/$CACHE/memscope"
H=$(cd "${HOME_DIR:-$CACHE/W}" && pwd)
[ -d "$H/projects" ] || { log "$H: no projects folder (run scripts/startup-bench.sh once to generate W)"; exit 1; }
XDG=$(mktemp -d)
LOGS=${KEEP:-$(mktemp -d)}
mkdir -p "$LOGS"
TRACE=
[ -z "${GCTRACE:-}" ] || [ -z "${KEEP:-}" ] || TRACE="GODEBUG=gctrace=1"
. scripts/tmux-lib.sh
tmux_work memscope-startup-keys
trap 'cleanup; rm -rf "$XDG"; [ -n "${KEEP:-}" ] || rm -rf "$LOGS"' EXIT
tmux -S "$sock" new-session -d -s keep "sleep 36000"

# run NAME [COMMAND]: one start, keys sent through SECS; the app's log in
# $LOGS/NAME, the end-to-end times in $LOGS/NAME.e2e. With COMMAND (the
# floor), that program runs instead of the app and there is no app log.
run() {
	local name=$1 t0 n=0 k before t1 now
	session="keys-$name"
	tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 \
		"${2:-XDG_CACHE_HOME=$XDG NO_COLOR=1 $TRACE MEMSCOPE_KEYLOG=$LOGS/$name exec $MEMSCOPE --home $H${TRACE:+ 2>$LOGS/$name.gc}}"
	: >"$LOGS/$name.e2e"
	t0=$(date +%s%N)
	while [ $((($(date +%s%N) - t0) / 1000000000)) -lt "$SECS" ]; do
		n=$((n + 1))
		k=$(((n - 1) % 9 + 1))
		if [ $((n % EVERY_E2E)) -eq 0 ]; then
			before=$(screen | md5sum)
			t1=$(date +%s%N)
			keys "$k"
			# Until the screen changes (at most 2 s).
			while [ "$(screen | md5sum)" = "$before" ] && [ $((($(date +%s%N) - t1) / 1000000)) -lt 2000 ]; do sleep 0.005; done
			now=$(date +%s%N)
			echo $(((now - t1) / 1000000)) >>"$LOGS/$name.e2e"
		else
			keys "$k"
		fi
		sleep "$EVERY"
	done
	keys q
	if [ -n "${2:-}" ]; then
		tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
		[ -s "$LOGS/$name.e2e" ] || { log "$name: no key was timed"; exit 1; }
		return
	fi
	for _ in $(seq 1 50); do [ -s "$LOGS/$name" ] && break; sleep 0.1; done
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
	[ -s "$LOGS/$name" ] || { log "$name: the app wrote no key log"; exit 1; }
}

# stats FILE COLUMN-EXPR: p50 p95 max count over30 of the values.
stats() {
	sort -n | awk '{v[NR] = $1; if ($1 > 30) o++} END {
		if (NR == 0) {print "| | | | 0 | |"; exit}
		p50 = v[int((NR - 1) * 0.50) + 1]; p95 = v[int((NR - 1) * 0.95) + 1]
		printf "| %.1f | %.1f | %.1f | %d | %d |\n", p50, p95, v[NR], NR, o + 0}'
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
run cold
run warm
run floor "exec $PWD/$CACHE/memscope-tea-idle"
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "### keys during start-up on $(basename "$H"), $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "- $(nproc) CPUs, load average before: $LOAD_BEFORE; after: $LOAD_AFTER"
	echo "- a pane key (1-9) every $EVERY s for the first $SECS s; ms"
	echo
	echo "| start | measured | p50 | p95 | max | keys | over 30 ms |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for name in cold warm; do
		printf '| %s | Update + View (in the app) ' "$name"
		awk -F'\t' '{print ($3 + $4) / 1000}' "$LOGS/$name" | stats
		printf '| %s | their CPU on the thread (in the app) ' "$name"
		awk -F'\t' '$5 >= 0 {print $5 / 1000}' "$LOGS/$name" | stats
		printf '| %s | send-keys to screen change (tmux) ' "$name"
		stats <"$LOGS/$name.e2e"
	done
	printf '| floor (tea-idle) | send-keys to screen change (tmux) '
	stats <"$LOGS/floor.e2e"
} | tee "$CACHE/startup-keys.md"
