# Helpers for the scripts that run two memscope builds alternated on a
# home (cache-ab.sh, ledger-ab.sh): source it after setting ALONE (the
# prefix every command runs under; may be empty), then call ab_home.

# ab_home NAME: checks /usr/bin/time is there (NAME says who needs it),
# sets H (HOME_DIR made absolute), TMP (a folder removed on exit) and
# FILES (every transcript of the home), warms the page cache with them
# and sets LOAD_BEFORE.
ab_home() {
	command -v /usr/bin/time >/dev/null || { echo "$1: /usr/bin/time is required (Debian package time)" >&2; exit 1; }
	H=$(cd "$HOME_DIR" && pwd)
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT
	mapfile -t FILES < <(find "$H/projects" -name '*.jsonl' -type f)
	cat "${FILES[@]}" >/dev/null # the page cache warm for every row
	LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
}

# run LABEL OUT CMD...: one run of CMD (its output in OUT) under ALONE,
# "LABEL cpu wall rss-kB" on stdout.
run() {
	local label=$1 out=$2
	shift 2
	/usr/bin/time -f '%U %S %e %M' -o "$TMP/t" "${ALONE[@]}" "$@" >"$out"
	awk -v l="$label" '{printf "%s %.2f %.2f %d\n", l, $1 + $2, $3, $4}' "$TMP/t"
}

# med: the median of the numbers on stdin; col LABEL N: the median of
# column N of the runs labelled LABEL in $TMP/runs.
med() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
col() { awk -v l="$1" -v c="$2" '$1 == l {print $c}' "$TMP/runs" | med; }
