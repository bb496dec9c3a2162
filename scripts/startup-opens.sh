#!/usr/bin/env bash
# The system calls of one cold start of the app (its cache folder empty)
# until it has made no file call for QUIET seconds (default 8), under
# `strace -f`, two builds one after the other: the calls that open, look
# at, list and close files, and the opens by kind of file (transcripts,
# pastes, projects/ other, the home's own folder, a bare name from a
# held folder, a reopen through /proc, the rest). Counts do not depend on the load
# (strace slows the app, not what it opens). WARM=1 measures a second
# start on the cache the first left instead. KEEP=DIR keeps the two
# traces there (a.strace, b.strace).
#
#   A_BIN=/tmp/main-memscope B_BIN=.cache/bench/memscope HOME_DIR=.cache/bench/W scripts/startup-opens.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${A_BIN:?A_BIN: the first memscope binary}" "${B_BIN:?B_BIN: the second memscope binary}" "${HOME_DIR:?HOME_DIR: the home to read}"
command -v tmux >/dev/null || { echo "startup-opens: tmux is required" >&2; exit 1; }
command -v strace >/dev/null || { echo "startup-opens: strace is required (Debian package strace)" >&2; exit 1; }
QUIET=${QUIET:-8}
MAX_WAIT=${MAX_WAIT:-300}
H=$(cd "$HOME_DIR" && pwd -P)
. scripts/tmux-lib.sh
tmux_work memscope-startup-opens
tmux -S "$sock" new-session -d -s keep "sleep 36000"
CALLS=openat,openat2,newfstatat,fstat,statx,fcntl,getdents64,close

# start NAME BIN XDG: one start of BIN under strace until quiet.
start() {
	local name=$1 bin=$2 xdg=$3 out="$work/$1.strace" size prev=-1 still=0 t0
	session="sys-$name"
	t0=$(date +%s)
	tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 \
		"XDG_CACHE_HOME=$xdg NO_COLOR=1 exec strace -f -y -s 256 -e signal=none -e trace=$CALLS -o $out $bin --home $H"
	while :; do
		sleep 1
		size=$(wc -l <"$out" 2>/dev/null || echo 0)
		if [ "$size" = "$prev" ]; then still=$((still + 1)); else still=0; prev=$size; fi
		[ "$still" -ge "$QUIET" ] && [ "$size" -gt 0 ] && break
		[ $(($(date +%s) - t0)) -gt "$MAX_WAIT" ] && { echo "startup-opens: $name still busy after $MAX_WAIT s" >&2; break; }
	done
	keys q
	sleep 2
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
}

# count FILE: the calls by name, then openat/openat2 by kind of file.
count() {
	awk -v h="$H/" '
		{ l = $0; sub(/^[0-9]+ +/, "", l) }
		l ~ /^<\.\.\. / || l ~ /^\+\+\+/ { next }
		{ c = l; sub(/\(.*/, "", c); n[c]++ }
		c == "openat" || c == "openat2" {
			p = l; sub(/^[^"]*"/, "", p); sub(/".*$/, "", p)
			k = "other"
			if (p ~ /^\/proc\/self\/fd/ || p ~ /^[0-9]+$/) k = "reopen"
			else if (p ~ /\.jsonl$/) k = "jsonl"
			else if (p ~ /paste-cache\//) k = "paste"
			else if (p ~ /(^|\/)projects\//) k = "projects"
			else if (p == h || p == substr(h, 1, length(h) - 1)) k = "the home"
			else if (p !~ /\//) k = "by bare name"
			o[c " " k]++
		}
		END { for (c in n) print c "\t" n[c]; for (k in o) print k "\t" o[k] }' "$1" | sort
}

run() {
	local label=$1 bin=$2 xdg
	xdg=$(mktemp -d "$work/xdg-XXXX")
	start "$label-fill" "$bin" "$xdg"
	if [ -n "${WARM:-}" ]; then start "$label" "$bin" "$xdg"; else mv "$work/$label-fill.strace" "$work/$label.strace"; fi
	count "$work/$label.strace" >"$work/$label.counts"
	[ -z "${KEEP:-}" ] || cp "$work/$label.strace" "$KEEP/$label.strace"
}
run a "$A_BIN"
run b "$B_BIN"
echo "### app start ($([ -n "${WARM:-}" ] && echo warm || echo cold)) on $H, $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg): system calls (strace -f)"
echo
echo "| call | a | b |"
echo "|---|---:|---:|"
join -t "$(printf '\t')" -a1 -a2 -e 0 -o 0,1.2,2.2 "$work/a.counts" "$work/b.counts" | awk -F'\t' '{printf "| %s | %s | %s |\n", $1, $2, $3}'
