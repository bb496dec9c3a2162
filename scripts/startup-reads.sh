#!/usr/bin/env bash
# Which bytes a cold start of the app reads, file by file: the built app
# runs under `strace -f -y -e trace=read,pread64,mmap` in a private tmux server
# on a home (W by default: HOME_DIR=... for another), its cache folder
# empty, until it has read nothing for QUIET seconds (default 8; at most
# MAX_WAIT, default 300), then quits. The bytes each read returned, and
# the length of each window of a file mapped to be read (the pass reads
# a transcript of 64 KiB or more through a mapping: no read call), are
# summed by the file they came from. It prints the transcript bytes read
# against those the home holds (the issue-28 goal: each transcript byte
# read at most once, so ≤ 1.00 ×), the transcripts read more than once,
# and the other files read most. Counts do not depend on the load (strace
# slows the app, not what it reads).
#
#   scripts/startup-reads.sh
#   MEMSCOPE_BIN=/tmp/main-memscope HOME_DIR=.cache/bench/W scripts/startup-reads.sh
#   WARM=1: a second start on the cache the first left, measured too.
#   KEEP=DIR: the bytes read of each file kept in DIR (cold.sums, warm.sums).
#   ARGS='--project /home/dev/work/by-struct-06': more arguments to the app
#   (started in one of W's projects, not in a folder with none).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "startup-reads: tmux is required" >&2; exit 1; }
command -v strace >/dev/null || { echo "startup-reads: strace is required (Debian package strace)" >&2; exit 1; }
QUIET=${QUIET:-8}
MAX_WAIT=${MAX_WAIT:-300}
CACHE=.cache/bench
mkdir -p "$CACHE"
if [ -z "${MEMSCOPE_BIN:-}" ]; then
	go build -o "$CACHE/memscope" .
	MEMSCOPE_BIN="$PWD/$CACHE/memscope"
fi
H=$(cd "${HOME_DIR:-$CACHE/W}" && pwd -P)
[ -d "$H/projects" ] || { echo "startup-reads: no projects in $H (scripts/startup-bench.sh generates W)" >&2; exit 1; }
TBYTES=$(find "$H/projects" -name '*.jsonl' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
XDG=$(mktemp -d)
. scripts/tmux-lib.sh
tmux_work memscope-startup-reads
trap 'cleanup; rm -rf "$XDG"' EXIT
tmux -S "$sock" new-session -d -s keep "sleep 36000"

# run NAME: one start under strace; prints its table.
run() {
	local name=$1 out="$work/$1.strace" size prev=-1 still=0 t0
	session="reads-$name"
	t0=$(date +%s)
	tmux -S "$sock" new-session -d -s "$session" -x 160 -y 45 \
		"XDG_CACHE_HOME=$XDG NO_COLOR=1 exec strace -f -y -s 0 -e signal=none -e trace=read,pread64,mmap -o $out $MEMSCOPE_BIN --home $H ${ARGS:-}"
	while :; do
		sleep 1
		size=$(grep -c "<$H/" "$out" 2>/dev/null || true)
		if [ "$size" = "$prev" ]; then still=$((still + 1)); else still=0; prev=$size; fi
		[ "$still" -ge "$QUIET" ] && [ "$size" -gt 0 ] && break
		if [ $(($(date +%s) - t0)) -gt "$MAX_WAIT" ]; then
			echo "startup-reads: $name still reading after $MAX_WAIT s: counted from there" >&2
			break
		fi
	done
	keys q
	sleep 2
	tmux -S "$sock" kill-session -t "$session" 2>/dev/null || true
	# read(7</path>, ""..., 65536) = 4096: the bytes, by path; a call
	# another thread's interrupts is split in two lines, read(7</path>,
	# <unfinished ...> and later <... read resumed>""..., 65536) = 4096 on
	# the same thread. mmap(NULL, 4194304, PROT_READ, MAP_SHARED,
	# 7</path>, 0): a file's window mapped to be read (the transcripts of
	# the pass, model.MappedLines), counted as read whole: its length, by
	# path (a window the next overlaps, in a file of more than 8 MiB,
	# counts its last lines twice).
	awk '/mmap\([^,]*, [0-9]+, [^,]*, [^,]*, [0-9]+</ {
			p = $0; sub(/^[^<]*</, "", p); sub(/>,.*$/, "", p)
			n = $0; sub(/^[^,]*, /, "", n); sub(/,.*$/, "", n)
			bytes[p] += n
			next
		}
		/(read|pread64)\([0-9]+</ {
			p = $0; sub(/^[^<]*</, "", p); sub(/>,.*$/, "", p)
			if ($0 ~ /unfinished \.\.\.>$/) {pending[$1] = p; next}
			n = $NF; if (n ~ /^[0-9]+$/) bytes[p] += n
			next
		}
		/<\.\.\. (read|pread64) resumed>/ && ($1 in pending) {
			n = $NF; if (n ~ /^[0-9]+$/) bytes[pending[$1]] += n
			delete pending[$1]
		}
		END {for (p in bytes) printf "%s\t%d\n", p, bytes[p]}' "$out" >"$work/$name.sums"
	[ -z "${KEEP:-}" ] || cp "$work/$name.sums" "$KEEP/$name.sums"
	local held
	held=$(cut -f1 "$work/$name.sums" | grep "^$H/projects/.*\.jsonl$" | while read -r f; do printf '%s\t%s\n' "$f" "$(stat -c %s "$f")"; done)
	printf '%s\n' "$held" >"$work/$name.held"
	echo "#### $name start ($(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg))"
	echo
	awk -F'\t' -v h="$H/projects/" -v tb="$TBYTES" 'NR == FNR {size[$1] = $2; next}
		index($1, h) == 1 && $1 ~ /\.jsonl$/ {
			t += $2; nf++
			if ($2 > size[$1] && size[$1] > 0) {over++; extra += $2 - size[$1]; k = ($1 ~ /\/subagents\// ? "subagent" : "main"); ek[k] += $2 - size[$1]; ok[k]++}
			next
		}
		{o += $2}
		END {
			printf "- transcript bytes read: %.1f MB of %.1f MB held: **%.2f ×**\n", t / 1e6, tb / 1e6, t / tb
			printf "- transcripts read: %d; read more than once: %d (%.1f MB beyond once)\n", nf, over, extra / 1e6
			printf "- other files: %.1f MB\n", o / 1e6
			for (k in ek) printf "  - %s transcripts read more than once: %d, %.1f MB beyond once\n", k, ok[k], ek[k] / 1e6
		}' "$work/$name.held" "$work/$name.sums"
	echo
	# The other files by kind: what a kind's files held, what was read
	# of them (× their size: 2.00 is each byte read twice).
	echo "| kind of file | files read | MB held | MB read | × |"
	echo "|---|---:|---:|---:|---:|"
	grep -v "^$H/projects/.*\.jsonl	" "$work/$name.sums" |
		while IFS=$'\t' read -r f n; do
			case "$f" in
			"$H"/paste-cache/* | "$H"/paste-store/*) k=pastes ;;
			"$H"/file-history/*) k=file-history ;;
			"$H"/history.jsonl) k=history.jsonl ;;
			"$H"/projects/*/tool-results/*) k=tool-results ;;
			"$H"/projects/*/memory/*) k=memory ;;
			"$H"/*) k="other in the home" ;;
			*) k="outside the home" ;;
			esac
			printf '%s\t%s\t%s\n' "$k" "$n" "$(stat -c %s "$f" 2>/dev/null || echo 0)"
		done | awk -F'\t' '{n[$1]++; r[$1] += $2; s[$1] += $3}
			END {for (k in n) printf "| %s | %d | %.1f | %.1f | %s |\n", k, n[k], s[k] / 1e6, r[k] / 1e6, (s[k] > 0 ? sprintf("%.2f", r[k] / s[k]) : "-")}' | sort
	echo
	echo "| transcript read more than once | size MB | × |"
	echo "|---|---:|---:|"
	awk -F'\t' 'NR == FNR {size[$1] = $2; next} ($1 in size) && size[$1] > 0 && $2 > size[$1] {printf "%s\t%.2f\t%.2f\n", $1, size[$1] / 1e6, $2 / size[$1]}' \
		"$work/$name.held" "$work/$name.sums" | sort -t$'\t' -k2,2nr | head -"${TOP:-12}" |
		awk -F'\t' -v h="$H/" '{sub(h, "", $1); printf "| %s | %s | %s |\n", $1, $2, $3}' || true # head ends sort early
	echo
	echo "| other file | MB read | × its size |"
	echo "|---|---:|---:|"
	grep -v "^$H/projects/.*\.jsonl	" "$work/$name.sums" | sort -t$'\t' -k2,2nr | head -"${TOP:-12}" |
		while IFS=$'\t' read -r f n; do
			s=$(stat -c %s "$f" 2>/dev/null || echo 0)
			awk -v f="${f#"$H"/}" -v n="$n" -v s="$s" 'BEGIN {printf "| %s | %.2f | %s |\n", f, n / 1e6, (s > 0 ? sprintf("%.2f", n / s) : "-")}'
		done || true
	echo
}

echo "### memscope start-up reads on $(basename "$H") ($TBYTES transcript bytes), $(basename "$MEMSCOPE_BIN")"
echo
run cold
if [ -n "${WARM:-}" ]; then run warm; fi
