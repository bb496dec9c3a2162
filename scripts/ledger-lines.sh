#!/usr/bin/env bash
# The lines and bytes of each kind of transcript line in the transcripts
# of a home that hold a compact boundary (what `replay --lost --all`
# reads): the kind is the line's top-level "type" when it opens the line,
# else the record type written just before "uuid" (user lines holding a
# tool_result counted apart). Read-only; prints a Markdown table, largest
# first, with the date and the home.
#
#   HOME_DIR=.cache/bench/W scripts/ledger-lines.sh
set -euo pipefail
: "${HOME_DIR:?HOME_DIR: the home to read}"
echo "- transcripts of $HOME_DIR holding a compact boundary, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "| line | lines | MB |"
echo "|---|---:|---:|"
find -L "$HOME_DIR/projects" -name '*.jsonl' -type f -print0 |
	xargs -0 grep -l -F compact_boundary |
	tr '\n' '\0' |
	xargs -0 cat |
	LC_ALL=C awk '
		{
			k = "other"
			if (match($0, /^\{"type":"[^"]*"/)) k = substr($0, 10, RLENGTH - 10)
			else if (match($0, /"type":"(user|assistant|system|attachment|progress)","uuid"/)) {
				k = substr($0, RSTART + 8, RLENGTH - 16)
				if (k == "user" && index($0, "\"tool_result\"")) k = "user (tool result)"
			}
			n[k]++
			b[k] += length($0) + 1
		}
		END {for (k in b) printf "%s\t%d\t%d\n", k, n[k], b[k]}' |
	sort -t "$(printf '\t')" -k3,3nr |
	awk -F'\t' '{printf "| `%s` | %d | %.0f |\n", $1, $2, $3 / 1e6}'
