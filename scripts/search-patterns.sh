#!/usr/bin/env bash
# memscope search beside ripgrep on a fixed set of patterns, over exactly
# the files `memscope search --in transcripts` reads (every transcript
# .jsonl and every tool result saved to a file under projects/), in one
# run, with the ratio of each:
#
#   scripts/search-patterns.sh                 W (generated once into .cache/bench/W)
#   HOME_DIR=path/to/home scripts/search-patterns.sh
#   SIZE=W/4 RUNS=5 scripts/search-patterns.sh
#   MEMSCOPE_BIN=/tmp/memscope-main PATTERNS_ONLY=deploy scripts/search-patterns.sh
#   REALTIME=1 scripts/search-patterns.sh      every command (cat, rg,
#                                              memscope) on both cores at
#                                              real-time priority (chrt -f
#                                              10, root only), so the other
#                                              work of a shared machine does
#                                              not preempt it: CPU figures
#                                              that hold still under load
#   RG_PRINT=1 scripts/search-patterns.sh      also rg -n and rg -n -o:
#                                              ripgrep printing every
#                                              matching line, and every
#                                              match with its line number
#                                              (the output work a search
#                                              that shows its hits does;
#                                              rg -c prints counts)
#
# Each pattern runs RUNS times (default 3) for each tool, page cache warm;
# the median wall time and CPU time (user + system, /usr/bin/time) are
# printed, with the ratios memscope / rg, the load average before and
# after (on a shared machine the CPU ratio is the figure to trust), and
# the hits: memscope's distinct lines with a hit and rg's matching lines.
# These differ by design: rg matches the raw JSON of every record
# (metadata records, attachments, key names, escapes), memscope only the
# decoded text a person would mean; that memscope finds exactly what a
# decode-everything reference finds is go test ./engine/search -run
# PatternSet. ripgrep and time come from Debian; as root the script
# installs them with apt-get when they are missing and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
SIZE=${SIZE:-W}
CACHE=.cache/bench
mkdir -p "$CACHE"
log() { echo "search-patterns: $*" >&2; }
need_apt() {
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		log "$1 is missing: installing the Debian package '$2' with apt-get"
		apt-get install -y -qq "$2" >&2
	else
		log "$1 is missing (install the package '$2')"
		exit 1
	fi
}
command -v rg >/dev/null || need_apt rg ripgrep
[ -x /usr/bin/time ] || need_apt /usr/bin/time time

# MEMSCOPE_BIN runs another build (an older commit's, for a before and
# after) instead of this tree's.
if [ -n "${MEMSCOPE_BIN:-}" ]; then
	MEMSCOPE=$(realpath "$MEMSCOPE_BIN")
else
	go build -o "$CACHE/memscope" .
	MEMSCOPE="$PWD/$CACHE/memscope"
fi
if [ -n "${HOME_DIR:-}" ]; then
	H=$(cd "$HOME_DIR" && pwd)
else
	H="$PWD/$CACHE/${SIZE//\//_}"
	if [ ! -f "$H/manifest.json" ]; then
		go build -o "$CACHE/gen" ./scripts/memscope-gen
		log "generating $SIZE in $H (once)"
		rm -rf "$H"
		"$CACHE/gen" -out "$H" -size "$SIZE" -seed 1 >&2
	fi
fi
LIST=$(mktemp)
find "$H/projects" -type f \( -name '*.jsonl' -o -path '*/tool-results/*' \) -print0 | sort -z >"$LIST"
log "$(tr -cd '\0' <"$LIST" | wc -c) files, $(xargs -0 cat <"$LIST" | wc -c) bytes; warming the page cache"
xargs -0 cat <"$LIST" >/dev/null
xargs -0 cat <"$LIST" >/dev/null

# The set: kind (lit, case: literal --case, re, recase: regex --case), pattern.
PATTERNS=(
	"lit	deadlock"
	"lit	release parser"
	"case	queue branch"
	"lit	QUEUE BRANCH WORKER"
	"case	Zebra"
	"re	deploy (queue|feedback) build"
	"re	dead(lock|line)s?"
	"re	(migration|schema) (table|column)"
	"re	colu(mn|mns)? [a-z]{3,6} filter"
	"re	\\bver[a-z]*ion [0-9]"
	"re	^index prompt"
	"re	(?m)worker$"
	"recase	[A-Z][a-z]+Error"
	"re	parser|reader|writer"
	"re	[0-9]{5}"
	"re	zq(foo|bar)x"
)

RT=()
if [ -n "${REALTIME:-}" ]; then
	RT=(chrt -f 10)
fi
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4g\n", (a[NR/2]+a[NR/2+1])/2}'; }
# timed OUT CMD...: runs CMD RUNS times; prints "wall cpu" medians; the
# last run's stdout goes to OUT. Exit 1 (no match) is a finished search.
timed() {
	local out=$1 tv walls=() cpus=() i rc
	shift
	tv=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		rc=0
		/usr/bin/time -f '%e %U %S' -o "$tv" "${RT[@]}" "$@" >"$out" 2>/dev/null || rc=$?
		if [ "$rc" -gt 1 ] && [ "$rc" != 123 ]; then
			log "failed (exit $rc): $*"
			return 1
		fi
		read -r w u s < <(tail -1 "$tv")
		walls+=("$w")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}')")
	done
	rm -f "$tv"
	echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${cpus[@]}" | median)"
}

OUT=$(mktemp)
ROWS=$(mktemp)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
read -r catw catc < <(timed /dev/null sh -c 'xargs -0 cat <"$1" >/dev/null' sh "$LIST")
for p in "${PATTERNS[@]}"; do
	kind=${p%%	*}
	pat=${p#*	}
	# PATTERNS_ONLY=TEXT runs only the patterns holding TEXT.
	[[ -z "${PATTERNS_ONLY:-}" || "$pat" == *"$PATTERNS_ONLY"* ]] || continue
	case $kind in
	lit) mflags=(); rflags=(-F -i) ;;
	case) mflags=(--case); rflags=(-F) ;;
	re) mflags=(--regex); rflags=(-i) ;;
	recase) mflags=(--regex --case); rflags=() ;;
	esac
	read -r rw rc < <(timed "$OUT" sh -c 'xargs -0 rg -c --no-filename "$@" <"$0"' "$LIST" "${rflags[@]}" -e "$pat")
	rlines=$(awk '{s += $1} END {print s + 0}' "$OUT")
	pc=
	oc=
	if [ -n "${RG_PRINT:-}" ]; then
		# To a file: ripgrep stops at the first match when it writes to /dev/null.
		read -r _ pc < <(timed "$OUT" sh -c 'xargs -0 rg -n --no-filename "$@" <"$0"' "$LIST" "${rflags[@]}" -e "$pat")
		read -r _ oc < <(timed "$OUT" sh -c 'xargs -0 rg -n -o --no-filename "$@" <"$0"' "$LIST" "${rflags[@]}" -e "$pat")
	fi
	read -r mw mc < <(timed "$OUT" "$MEMSCOPE" search --home "$H" --in transcripts --json "${mflags[@]}" -- "$pat")
	mlines=$(jq -r '"\(.file):\(.line)"' "$OUT" | sort -u | wc -l)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$pat" "$rw" "$rc" "$mw" "$mc" "$rlines" "$mlines" "$pc" "$oc" >>"$ROWS"
	log "$(tail -1 "$ROWS")"
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

{
	echo "### memscope search vs ripgrep, pattern by pattern, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "- home: $H ($(tr -cd '\0' <"$LIST" | wc -c) files searched); $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(go version | cut -d' ' -f3); $(rg --version 2>/dev/null | head -1)"
	echo "- load average before: $LOAD_BEFORE; after: $LOAD_AFTER; $RUNS runs each, page cache warm, medians${REALTIME:+; every command at real-time priority (REALTIME=1)}"
	echo "- floor: cat of the same files $catw s wall, $catc s CPU"
	echo
	if [ -n "${RG_PRINT:-}" ]; then
		echo "| kind | pattern | rg wall | rg CPU | memscope wall | memscope CPU | wall × rg | CPU × rg | rg lines | memscope lines | rg -n CPU | CPU × rg -n | rg -n -o CPU | CPU × rg -n -o |"
		echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	else
		echo "| kind | pattern | rg wall | rg CPU | memscope wall | memscope CPU | wall × rg | CPU × rg | rg lines | memscope lines |"
		echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	fi
	awk -F'\t' '{wr = ($3 > 0) ? $5 / $3 : 0; cr = ($4 > 0) ? $6 / $4 : 0; p = $2; gsub(/\|/, "\\|", p);
		printf "| %s | `%s` | %.2f s | %.2f s | %.2f s | %.2f s | %.2f | %.2f | %d | %d |", $1, p, $3, $4, $5, $6, wr, cr, $7, $8
		if ($9 != "") printf " %.2f s | %.2f | %.2f s | %.2f |", $9, ($9 > 0) ? $6 / $9 : 0, $10, ($10 > 0) ? $6 / $10 : 0
		printf "\n"}' "$ROWS"
} | tee "$CACHE/search-patterns.md"
rm -f "$OUT" "$ROWS" "$LIST"
