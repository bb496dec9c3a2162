#!/usr/bin/env bash
# End-to-end test in a real terminal: builds memscope, runs it in tmux on a
# copy of testdata/home, drives it with send-keys, and checks the screen
# (capture-pane) and the files on disk after each step.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null 2>&1; then
  echo "e2e: tmux not installed, skipping"
  exit 0
fi

work=$(mktemp -d)
sock="$work/tmux.sock"
session=memscope-e2e
cleanup() {
  tmux -S "$sock" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/memscope" .
cp -a testdata/home "$work/home"
# The fixture ends history.jsonl with a half-written line; finish it, as
# the client would, so lines appended below stand on their own.
echo '","x":1}' >>"$work/home/history.jsonl"
# A project folder the demo-like memory can point into, and a scripted
# editor that appends a line to whatever file it is given.
cat >"$work/editor.sh" <<'EOF'
#!/usr/bin/env bash
echo "Edited by the e2e test." >>"$1"
EOF
chmod +x "$work/editor.sh"

fail() {
  echo "e2e FAIL: $*" >&2
  echo "---- screen ----" >&2
  tmux -S "$sock" capture-pane -p -t "$session" >&2 || true
  exit 1
}

screen() { tmux -S "$sock" capture-pane -p -t "$session"; }

# wait_for TEXT: poll the screen until TEXT shows (5 s).
wait_for() {
  for _ in $(seq 1 50); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "waited for: $1"
}

# wait_gone TEXT: poll the screen until TEXT is no longer shown (5 s).
wait_gone() {
  for _ in $(seq 1 50); do
    if ! screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "still on screen: $1"
}

keys() { tmux -S "$sock" send-keys -t "$session" "$@"; }

tmux -S "$sock" new-session -d -s "$session" -x 120 -y 36 \
  "EDITOR=$work/editor.sh VISUAL= NO_COLOR=1 $work/memscope --home $work/home --project /tmp/rc/work/beta; echo EXITED; sleep 30"

# Projects pane first, on the requested project.
wait_for "PROJECT"
wait_for "/tmp/rc/work/beta"
wait_for "/home/me/bad"

# Every pane answers its number key.
for i in 1 2 3 4 5 6 7 8; do
  keys "$i"
  sleep 0.2
done

# History: the project's prompts, the mismatched paste flagged, a paste expanded.
keys 4
wait_for "3 prompts"
wait_for "[hash mismatch]"
keys G Space
wait_for "line 1 of a long pasted log"

# Filter narrows the list; esc clears it.
keys /
keys -l "compare"
wait_for "/compare"
keys Enter
wait_gone "what does this log say"
keys Escape
wait_for "what does this log say"

# Pastes: the missing paste and the orphan.
keys 5
wait_for "missing"
wait_for "orphan"

# Switch project from the Projects pane.
keys 1 g Enter
wait_for "opened /home/me/bad"
keys 4
wait_for "plain prompt"

# Help overlay opens and closes.
keys "?"
wait_for "any key closes"
keys j
wait_gone "any key closes"

# Live reload: a new history line appears without a keypress.
printf '%s\n' '{"display":"typed while memscope was open","pastedContents":{},"timestamp":1795349999000,"project":"/home/me/bad"}' >>"$work/home/history.jsonl"
wait_for "typed while memscope was open"

# Quit cleanly.
keys q
wait_for "EXITED"

# Nothing under the home was changed by browsing.
if ! diff -r --no-dereference testdata/home "$work/home" -x history.jsonl; then
  fail "browsing changed files in the home"
fi
echo "e2e ok"
