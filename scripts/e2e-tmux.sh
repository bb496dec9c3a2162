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

. scripts/tmux-lib.sh
tmux_work memscope-e2e
# memscope's settings file is read from $XDG_CONFIG_HOME: keep the
# machine's own out of every run (the settings step below writes one).
export XDG_CONFIG_HOME="$work/xdg"
unset MEMSCOPE_CONFIG

go build -o "$work/memscope" .
cp -a testdata/home "$work/home"
# A clone writes testdata/home within one clock tick or across several,
# so files' mtimes tie or not by chance, and every "newest first" list
# (search hits, sessions) would hang on the checkout. Give each file its
# own mtime in path order, a second apart: what a slow checkout gives.
stamp=$(( $(date +%s) - 600 ))
while IFS= read -r f; do
  touch -d "@$stamp" "$work/home/$f"
  stamp=$((stamp + 1))
done < <(cd "$work/home" && find . -type f | LC_ALL=C sort)
# The fixture ends history.jsonl with a half-written line; finish it, as
# the client would, so lines appended below stand on their own.
echo '","x":1}' >>"$work/home/history.jsonl"
# A scripted editor that appends a line to whatever file it is given:
# "Edited by the e2e test." by default, an AWS access key when the file
# editor-mode says "secret" (the save must then stop for a y/n).
cat >"$work/editor.sh" <<EOF
#!/usr/bin/env bash
if [ "\$(cat "$work/editor-mode" 2>/dev/null)" = secret ]; then
  echo "aws key AKIAQZ4XB7WJ2RTLMN5K" >>"\$1"
else
  echo "Edited by the e2e test." >>"\$1"
fi
EOF
chmod +x "$work/editor.sh"
# The editor's private copies go under $work/tmp, where the test finds them.
mkdir "$work/tmp"

# meta FILE: its mtime (seconds) and mode, as undo must put them back.
meta() { stat -c '%Y %a' "$1"; }

# start_app CMD: runs CMD (memscope) in a new tmux session of 120x36,
# then ends the previous one (in that order: ending the last session stops
# the tmux server, which a new session must not race); the screen says
# EXITED when CMD ends.
runs=0
start_app() {
  local old=$session
  runs=$((runs + 1))
  session="memscope-e2e-$runs"
  tmux -S "$sock" new-session -d -s "$session" -x 120 -y 36 "$1; echo EXITED; sleep 30"
  if [ "$runs" -gt 1 ]; then tmux -S "$sock" kill-session -t "$old" 2>/dev/null || true; fi
}

# start_sized W H CMD: start_app at another size.
start_sized() {
  local old=$session
  runs=$((runs + 1))
  session="memscope-e2e-$runs"
  tmux -S "$sock" new-session -d -s "$session" -x "$1" -y "$2" "$3; echo EXITED; sleep 30"
  if [ "$runs" -gt 1 ]; then tmux -S "$sock" kill-session -t "$old" 2>/dev/null || true; fi
}

mkdir "$work/out"
start_app "cd $work/out && TMPDIR=$work/tmp EDITOR=$work/editor.sh VISUAL= NO_COLOR=1 $work/memscope --home $work/home --project /tmp/rc/work/beta"

# The Overview first; 2 is the Projects pane, on the requested project.
wait_for "what needs you"
keys 2
wait_for "PROJECT"
wait_for "/tmp/rc/work/beta"
wait_for "/home/me/bad"

# Every pane answers its number key.
for i in 1 2 3 4 5 6 7 8 9 0 F L R S; do
  keys "$i"
  sleep 0.2
done

# At 80x24 every pane keeps "? help" and "q quit" on its help line.
tmux -S "$sock" resize-window -t "$session" -x 80 -y 24
for i in 1 2 3 4 5 6 7 8 9 0 F L R S; do
  keys "$i"
  sleep 0.3
  help_line=$(screen | grep -F "? help" || true)
  case "$help_line" in
  *"? help • q quit"*) ;;
  *) fail "pane $i at 80x24: no '? help • q quit' on the help line" ;;
  esac
done

# A detail longer than its rows scrolls (J/K) and zooms (z): Health's
# prune diff, at 80x24.
keys 9
wait_for "lines 1–"
keys J
wait_for "lines 2–"
keys z
wait_gone "prune actions"
keys Escape
wait_for "prune actions"
tmux -S "$sock" resize-window -t "$session" -x 120 -y 36

# History: the project's prompts, the mismatched paste flagged, a paste expanded.
keys 5
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
keys 6
wait_for "missing"
wait_for "orphan"

# Switch project from the Projects pane.
keys 2 g Enter
wait_for "opened /home/me/bad"
keys 5
wait_for "plain prompt"

# Help overlay opens and closes.
keys "?"
wait_for "any other key closes"
keys Escape
wait_gone "any other key closes"

# Live reload: a new history line appears without a keypress.
printf '%s\n' '{"display":"typed while memscope was open","pastedContents":{},"timestamp":1795349999000,"project":"/home/me/bad"}' >>"$work/home/history.jsonl"
wait_for "typed while memscope was open"

# Nothing under the home was changed by browsing. (Each project load
# checks that the memory folder is writable with a hidden file it creates
# and removes at once: .memscope-write-test-*.)
if ! diff -r --no-dereference testdata/home "$work/home" -x history.jsonl -x '.memscope-write-test-*'; then
  fail "browsing changed files in the home"
fi

mem="$work/home/projects/-tmp-rc-work-beta/memory"

# wait_file CMD...: poll until the shell test succeeds (10 s).
wait_file() {
  for _ in $(seq 1 100); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  fail "file check failed: $*"
}

# sha FILE: its SHA-256. wait_sha FILE WANT: poll until FILE has that
# SHA-256 (10 s); the hash is taken again at every poll.
sha() { sha256sum "$1" | cut -d' ' -f1; }
wait_sha() {
  for _ in $(seq 1 100); do
    if [ -e "$1" ] && [ "$(sha "$1")" = "$2" ]; then return 0; fi
    sleep 0.1
  done
  fail "$1 has SHA-256 $(sha "$1" 2>/dev/null), want $2"
}

# Back to the beta project, Memories pane.
keys 2
sleep 0.3
keys g
sleep 0.2
keys G
sleep 0.2
keys Enter
wait_for "opened /tmp/rc/work/beta"
keys 4
wait_for "prefers_terse.md"

# Edit a memory through the scripted $EDITOR: the file changes on disk,
# and the save is a journaled change (u undoes it, further down).
orig=$(sha256sum "$mem/prefers_terse.md" | cut -d' ' -f1)
orig_meta=$(meta "$mem/prefers_terse.md")
keys /
keys -l "prefers"
keys Enter
sleep 0.3
keys e
wait_for "prefers_terse.md — u undoes it"
wait_file grep -q "Edited by the e2e test." "$mem/prefers_terse.md"
edited=$(sha256sum "$mem/prefers_terse.md" | cut -d' ' -f1)

# Change its type: the frontmatter says project, nothing else moved.
keys t
sleep 0.2
keys 3
sleep 0.2
keys Enter
wait_for "retype to project"
wait_file grep -q "type: project" "$mem/prefers_terse.md"
grep -q "node_type: memory" "$mem/prefers_terse.md" || fail "retype lost metadata"

# Undo the retype: the file is byte for byte what the editor left.
keys u
wait_for "undo: retype"
wait_sha "$mem/prefers_terse.md" "$edited"

# Delete to the trash (with confirmation), then restore it with undo: the
# same bytes, and the same mtime and mode (its age must not reset).
touch -d '45 days ago' "$mem/prefers_terse.md"
keys C-r
sleep 0.5
deleted_meta=$(meta "$mem/prefers_terse.md")
keys d
wait_for "to the trash? y/n"
keys y
wait_file test ! -e "$mem/prefers_terse.md"
ls "$mem"/.trash/*/prefers_terse.md >/dev/null 2>&1 || fail "deleted memory is not in the trash"
wait_for "u undoes it"
wait_for "0/0 ·"
keys u
wait_file test -e "$mem/prefers_terse.md"
# The list shows it again before e edits it.
wait_for "1/1 ·"
test "$(sha256sum "$mem/prefers_terse.md" | cut -d' ' -f1)" = "$edited" || fail "restored file differs"
test "$(meta "$mem/prefers_terse.md")" = "$deleted_meta" || fail "undo of the delete changed mtime/mode: $(meta "$mem/prefers_terse.md"), was $deleted_meta"

# An editor save that adds a secret stops for y/n: n leaves the file as it
# was and the user's text in the private copy the status names.
echo secret >"$work/editor-mode"
keys e
wait_for "write anyway? y/n"
keys n
wait_for "not saved: your version is in $work/tmp/"
test "$(sha256sum "$mem/prefers_terse.md" | cut -d' ' -f1)" = "$edited" || fail "a refused save changed the file"
grep -lq AKIAQZ4XB7WJ2RTLMN5K "$work"/tmp/memscope-edit-*/prefers_terse.md || fail "the refused text is not kept in the copy"
rm -rf "$work"/tmp/memscope-edit-*
# y writes it, and u takes it back.
keys e
wait_for "write anyway? y/n"
keys y
wait_file grep -q AKIAQZ4XB7WJ2RTLMN5K "$mem/prefers_terse.md"
wait_for "prefers_terse.md — u undoes it"
keys u
wait_for "undo: edit prefers_terse.md"
wait_sha "$mem/prefers_terse.md" "$edited"
echo append >"$work/editor-mode"

# u once more undoes the first editor save (the retype and the delete were
# undone already): the file is as in the fixture, bytes, mtime and mode.
# (The undo above has reported, so this u is not refused as "another
# change is still being written".)
keys u
wait_sha "$mem/prefers_terse.md" "$orig"
test "$(meta "$mem/prefers_terse.md")" = "$orig_meta" || fail "undo of the editor save changed mtime/mode: $(meta "$mem/prefers_terse.md"), was $orig_meta"

# Create then edit, twice: n makes the memory and opens the editor on it;
# u undoes the save, u again the create, in that order, each time.
keys Escape
sleep 0.3
for round in 1 2; do
  keys n
  wait_for "› name:"
  keys -l "scratch"
  keys Tab
  # Letters on the type field leave the type alone.
  keys -l "pf"
  wait_for "‹user›"
  keys Tab
  keys -l "a scratch note"
  keys Enter
  wait_file grep -qs "Edited by the e2e test." "$mem/user_scratch.md"
  wait_for "user_scratch.md — u undoes it"
  # The index line is titled from the name typed, not the file name.
  grep -qF -- "- [Scratch](user_scratch.md) — a scratch note" "$mem/MEMORY.md" || fail "round $round: index line for the new memory"
  created=$(grep -v "Edited by the e2e test." "$mem/user_scratch.md" | sha256sum | cut -d' ' -f1)
  keys u
  wait_for "undo: edit user_scratch.md"
  wait_sha "$mem/user_scratch.md" "$created"
  keys u
  wait_for "undo: create"
  wait_file test ! -e "$mem/user_scratch.md"
  if grep -q "user_scratch.md" "$mem/MEMORY.md"; then fail "round $round: the index still links the undone memory"; fi
done

# Prompt's e on the user's CLAUDE.md: the save is journaled like a
# memory edit, and u puts back its bytes and mtime.
claude_md="$work/home/CLAUDE.md"
claude_sha=$(sha "$claude_md")
claude_meta=$(meta "$claude_md")
keys 8
wait_for "auto-memory"
keys g e
wait_file grep -qs "Edited by the e2e test." "$claude_md"
wait_for "CLAUDE.md — u undoes it"
keys u
wait_for "undo: edit CLAUDE.md"
wait_sha "$claude_md" "$claude_sha"
[ "$(meta "$claude_md")" = "$claude_meta" ] || fail "CLAUDE.md after undo: $(meta "$claude_md"), want $claude_meta"
keys 4

# Live reload of memory: Claude Code writes a new memory while memscope is
# open; the Memories pane shows it without a keypress.
keys Escape
sleep 0.3
cat >"$mem/reference_written_live.md" <<'EOF'
---
name: reference-written-live
description: Written while memscope was open
metadata:
  node_type: memory
  type: reference
---

https://example.com/live
EOF
wait_for "reference_written_live.md"

# Retention: the cleanup forecast; archive what it would delete into a
# .tar.gz, which memscope then opens as a home. The home is not touched.
keys Escape
sleep 0.3
keys 0
wait_for "cleanup deletes what is older than 30 days"
wait_for "never swept"
keys a
wait_for "folder or FILE.tar.gz"
keys -l "$work/archive.tar.gz"
keys Enter
wait_for "read back and verified"
# Into a file first: grep -q stops reading at the match, and under
# pipefail memscope's next write would then fail the step (SIGPIPE).
"$work/memscope" --home "$work/archive.tar.gz" stat >"$work/archive-stat" 2>/dev/null || fail "memscope stat on the archive failed"
grep -q "4 sessions" "$work/archive-stat" || fail "the archive does not open as a home with the 4 sessions"

# Export: x in Replay writes the selected session as Markdown into the
# folder memscope was started in.
keys 7
sleep 0.3
keys x
wait_for "exported to $work/out/claude-session-"
ls "$work/out"/claude-session-*.md >/dev/null 2>&1 || fail "no export in $work/out"
head -1 "$work/out"/claude-session-*.md | grep -q "^# " || fail "the export is not a Markdown document"

# Quit cleanly.
keys Escape
sleep 0.3
keys q
wait_for "EXITED"

# An empty home (Claude Code never ran): every pane ends loading; Prompt
# previews the folder memscope started in, Health says what to do.
mkdir -p "$work/empty/projects"
start_app "cd $work/out && NO_COLOR=1 $work/memscope --home $work/empty"
wait_for "what needs you: 0 lines · no project open"
keys 2
wait_for "no projects in this home yet"
keys 8
wait_for "next session:"
keys 9
wait_for "no project in this home yet"
keys C-r
sleep 0.5
for i in 1 2 3 4 5 6 7 8 9 0 F L R S; do
  keys "$i"
  sleep 0.3
  if screen | grep -qE "building the preview…|checking memory…|loading [0-9]+ source|reading…"; then
    fail "pane $i still loading in an empty home"
  fi
done
keys q
wait_for "EXITED"

# Files: a home with /rewind snapshots (internal/filehistgen). Rewind the
# files to before the first turn (y confirms), then undo with u: every
# file is byte for byte what it was.
go run ./internal/filehistgen/memscope-filehistgen "$work/fh" >/dev/null
app="$work/fh/work/app"
before=$(cd "$app" && find . -type f | sort | xargs sha256sum)
start_app "NO_COLOR=1 $work/memscope --home $work/fh/home"
wait_for "0 Rete"
keys F
wait_for "sessions with file history"
keys Enter
wait_for "Fix the README"
keys a
wait_for "y/n"
keys y
wait_for "u undoes it"
grep -q "old line" "$app/README.md" || fail "README.md was not rewound to v1"
test ! -e "$app/new.txt" || fail "new.txt (created in the turn) was not removed"
keys u
wait_for "undone: "
after=$(cd "$app" && find . -type f | sort | xargs sha256sum)
test "$before" = "$after" || fail "undo did not restore the files byte for byte"
keys q
wait_for "EXITED"

# Settings file at 80x24: quit on x (export moved to ctrl+e), delete on D;
# the unknown setting is said (in full with !), ? shows the new keys, d no
# longer deletes, q no longer quits, x does.
mkdir -p "$XDG_CONFIG_HOME/memscope"
printf 'keys:\n  quit: [x, ctrl+c]\n  export: [ctrl+e]\n  delete: [D]\ncolour: red\n' >"$XDG_CONFIG_HOME/memscope/config.yaml"
start_sized 80 24 "cd $work/out && NO_COLOR=1 $work/memscope --home $work/home --project /tmp/rc/work/beta"
wait_for "x/ctrl+c quit"
keys '!'
wait_for 'config.yaml:5: unknown setting'
wait_for '"colour" (ignored; known here'
keys Escape
wait_gone "known here:"
keys 4
wait_for "4 Mem"
keys '?'
wait_for "D          delete to trash"
wait_for "ctrl+e     export memory as Markdown"
keys Escape
wait_gone "Keys — Memories"
keys d
sleep 0.5
screen | grep -qF "to the trash? y/n" && fail "d still deletes after delete was moved to D"
keys D
wait_for "to the trash? y/n"
keys n
wait_gone "to the trash? y/n"
keys q
sleep 0.5
screen | grep -qF EXITED && fail "q still quits after quit was moved to x"
keys x
wait_for "EXITED"
rm "$XDG_CONFIG_HOME/memscope/config.yaml"
# Agent memory: a project whose reviewer agent keeps project-scope memory
# in the repository. m shows it in the Memories and Index panes; a delete
# there goes to the agent's own trash and journal, and u puts it back byte
# for byte. At 80x24 and at 120x40.
agents="$work/agents"
aproj="$agents/work/app"
aslug=$(printf '%s' "$aproj" | sed 's/[^A-Za-z0-9]/-/g')
amem="$aproj/.claude/agent-memory/reviewer"
mkdir -p "$agents/home/projects/$aslug/memory" "$aproj/.git" "$aproj/.claude/agents" "$amem"
echo 'ref: refs/heads/main' >"$aproj/.git/HEAD"
printf '{"type":"user","uuid":"u1","sessionId":"s1","cwd":"%s","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"hi"}}\n' "$aproj" >"$agents/home/projects/$aslug/s1.jsonl"
printf -- '- [Own](own.md) — the project'"'"'s own memory\n' >"$agents/home/projects/$aslug/memory/MEMORY.md"
printf -- '---\nname: own\ndescription: the project memory\ntype: project\n---\n\nOwn.\n' >"$agents/home/projects/$aslug/memory/own.md"
printf -- '---\nname: reviewer\ndescription: reviews\nmemory: project\n---\n\nReview.\n' >"$aproj/.claude/agents/reviewer.md"
printf -- '- [Wrapping](wrapping.md) — wrap errors with %%w\n- [Tests](tests.md) — table tests\n' >"$amem/MEMORY.md"
printf -- '---\nname: wrapping\ndescription: wrap errors\ntype: feedback\n---\n\nWrap them.\n' >"$amem/wrapping.md"
printf -- '---\nname: tests\ndescription: table tests\ntype: project\n---\n\nUse table tests.\n' >"$amem/tests.md"
touch -d '2026-11-01 10:00' "$amem/tests.md"
abefore=$(cd "$amem" && find . -path ./.memscope -prune -o -path ./.trash -prune -o -type f -print | sort | xargs sha256sum)
tmeta=$(meta "$amem/tests.md")
for size in 80x24 120x40; do
  runs=$((runs + 1))
  old=$session
  session="memscope-e2e-$runs"
  tmux -S "$sock" new-session -d -s "$session" -x "${size%x*}" -y "${size#*x}" "NO_COLOR=1 $work/memscope --home $agents/home --project $aproj; echo EXITED; sleep 30"
  tmux -S "$sock" kill-session -t "$old" 2>/dev/null || true
  wait_for "what needs you"
  keys 4
  wait_for "own.md"
  keys m
  wait_for "agent reviewer"
  wait_for "store 2/2"
  wait_for "tests.md"
  wait_gone "own.md"
  keys 3
  wait_for "2/200"
  keys 4
  keys g d
  wait_for "Move tests.md to the trash?"
  keys y
  wait_for "delete tests.md (to .trash"
  test ! -e "$amem/tests.md" || fail "$size: tests.md was not moved to the agent's trash"
  ls "$amem/.trash"/*/tests.md >/dev/null 2>&1 || fail "$size: tests.md is not in $amem/.trash"
  grep -q "tests.md" "$amem/.memscope/journal.jsonl" || fail "$size: the delete is not in the agent's journal"
  keys u
  wait_for "undo: delete tests.md"
  wait_for "1/2 · ● indexed"
  aafter=$(cd "$amem" && find . -path ./.memscope -prune -o -path ./.trash -prune -o -type f -print | sort | xargs sha256sum)
  test "$abefore" = "$aafter" || fail "$size: undo did not restore the agent's memory byte for byte"
  test "$(meta "$amem/tests.md")" = "$tmeta" || fail "$size: undo did not restore tests.md's mtime and mode"
  keys m
  wait_for "own.md"
  test ! -e "$agents/home/projects/$aslug/memory/.memscope" || fail "$size: the project's memory got a journal"
  keys q
  wait_for "EXITED"
done

# Loads, recall and partial compactions (issue 17), at 80x24 and 120x40:
# the demo's Memories detail says which sessions saw each memory's index
# line (and that one past the cut was never seen); the Prompt pane says
# recall is off unless CLAUDE_MEMORY_STORES is set, and on when it is;
# Replay labels a partial compaction from the rewind menu.
part="$work/partial/projects/-tmp-rc-work-beta"
mkdir -p "$part"
cp model/testdata/derived/transcript-rewind-partial.jsonl "$part/fedcb1e2-dbe4-5555-90b5-52df88de5bed.jsonl"
for size in "80 24" "120 40"; do
  read -r w h <<<"$size"
  start_sized "$w" "$h" "cd $work/out && EDITOR=true VISUAL= NO_COLOR=1 $work/memscope --demo"
  wait_for "DEMO HOME"
  # The Prompt pane first: its detail shows the loads once they are read.
  keys 8
  wait_for "recall off (CLAUDE_MEMORY_STORES unset): MEMORY.md loads"
  wait_for "sessions: loaded in 2 sessions, last "
  keys 3
  wait_for "TRUNCATED"
  keys G
  wait_for "↳ never seen by the model (records since"
  keys 4
  keys /
  keys -l "reference_linear"
  keys Enter
  wait_for "sessions: line 206, past the cut: never seen by the"
  keys Escape
  sleep 0.3
  keys /
  keys -l "feedback_terse"
  keys Enter
  wait_for "sessions: line 4: loaded in 2 sessions, last "
  keys Escape
  sleep 0.3
  keys q
  wait_for "EXITED"
  start_sized "$w" "$h" "cd $work/out && NO_COLOR=1 CLAUDE_MEMORY_STORES=1 $work/memscope --demo"
  wait_for "DEMO HOME"
  keys 8
  wait_for "recall ON (CLAUDE_MEMORY_STORES set): MEMORY.md dropped"
  keys q
  wait_for "EXITED"
  start_sized "$w" "$h" "NO_COLOR=1 $work/memscope --home $work/partial"
  wait_for "/tmp/rc/work/beta"
  keys 7
  wait_for "2 compact"
  keys Enter
  wait_for "step 6/6"
  keys "["
  wait_for "after a compact compaction (partial)"
  wait_for "⟲ compact partial"
  keys q
  wait_for "EXITED"
done

# Leftovers: a home as killed memscope writes leave it (scripts/memscope-hostile
# leftovers). The start says so; the Health pane lists each leftover, C
# asks (n keeps them all), y removes them, in the memory folders and in
# the project tree a pending restore named; the user's files stay. At
# 80x24 and at 120x40.
for size in "80 24" "120 40"; do
  rm -rf "$work/lh" "$work/lh-outside" "$work/lh.hostile.json"
  go run ./scripts/memscope-hostile -out "$work/lh" -scenario leftovers >/dev/null
  copy="$work/lh-outside/src/.main.go.memscope-99999999-55"
  staged=$(find "$work/lh/projects" -name '.note.md.memscope-99999999-stage-3')
  user=$(sha "$work/lh-outside/src/main.go")
  test -e "$copy" && test -n "$staged" || fail "the leftovers home has no leftovers"
  # shellcheck disable=SC2086
  start_sized $size "NO_COLOR=1 $work/memscope --home $work/lh --project /home/me/hostile"
  wait_for "leftover(s) of interrupted"
  keys 9
  wait_for "C removes them"
  keys C
  wait_for "y/n"
  wait_for "a copy of"
  keys n
  wait_for "leftovers kept"
  test -e "$copy" || fail "n removed a leftover"
  keys C
  wait_for "y/n"
  keys y
  wait_for "removed "
  test ! -e "$copy" || fail "the restore's copy in the project tree is still there"
  test ! -e "$staged" || fail "the staged copy in the memory folder is still there"
  test "$(sha "$work/lh-outside/src/main.go")" = "$user" || fail "the user's file changed"
  wait_gone "C removes them"
  keys q
  wait_for "EXITED"
done

# Security: a home with a GitHub token in a user prompt and an AWS key in
# a memory file (made up now, so the repository holds none), both two
# hours old. The pane lists them masked; a, y scrubs both (no token left
# in any file, every transcript line still JSON); u, y restores every
# byte; at 120x40, space picks one, a, y scrubs it and d, y forgets the
# copy. At 80x24, then 120x40.
sec="$work/secrets"
ssid=22222222-3333-4444-8555-666666666666
mkdir -p "$sec/projects/-e2e-sec/memory"
token() { python3 -c 'import random,sys; print("".join(random.choice(sys.argv[1]) for _ in range(int(sys.argv[2]))))' "$1" "$2"; }
ghp="ghp_$(token ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 36)"
aws="AKIA$(token ABCDEFGHIJKLMNOPQRSTUVWXYZ234567 16)"
printf '{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"s1","timestamp":"2026-11-20T10:00:00.000Z","sessionId":"%s","cwd":"/e2e/sec","message":{"role":"user","content":"deploy with token %s please"}}\n' "$ssid" "$ghp" >"$sec/projects/-e2e-sec/$ssid.jsonl"
printf -- '---\nname: ci\ndescription: ci keys\nmetadata:\n  type: reference\n---\n\nThe CI bucket key is %s.\n' "$aws" >"$sec/projects/-e2e-sec/memory/ci.md"
printf -- '- [CI](ci.md) — ci keys\n' >"$sec/projects/-e2e-sec/memory/MEMORY.md"
find "$sec" -type f -exec touch -d '2 hours ago' {} +
tree_sha() { (cd "$sec" && find . -path ./.memscope -prune -o -type f -print | sort | xargs sha256sum); }
before=$(tree_sha)
start_sized 80 24 "NO_COLOR=1 $work/memscope --home $sec"
wait_for "2 Proj"
keys S
wait_for "2 secrets in 2 places"
wait_for "github-pat"
wait_for "aws-access-key-id"
if screen | grep -qF -- "$ghp"; then fail "the Security pane shows a secret in full"; fi
keys a
wait_for "y/n"
wait_for "[REDACTED:github-pat]"
keys y
wait_for "scrubbed 2 secrets in 2 files"
if grep -rqF -e "$ghp" -e "$aws" --exclude-dir=.memscope "$sec"; then fail "a secret is still in the home after the scrub"; fi
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$sec/projects/-e2e-sec/$ssid.jsonl" || fail "the scrubbed transcript does not parse"
wait_for "scrub copy"
keys u
wait_for "y/n"
keys y
wait_for "restored scrub"
test "$(tree_sha)" = "$before" || fail "the restore did not put back every byte"
keys q
wait_for "EXITED"
start_sized 120 40 "NO_COLOR=1 $work/memscope --home $sec"
wait_for "2 Proj"
keys S
wait_for "2 secrets in 2 places"
keys Space a
wait_for "scrub 1 secret in 1 file? y/n"
keys y
wait_for "scrubbed 1 secret in 1 file"
keys G d
wait_for "forget scrub"
keys y
wait_for "forgot scrub"
test -z "$(find "$sec/.memscope/scrub" -name manifest.json)" || fail "the forgotten copy is still on disk"
keys q
wait_for "EXITED"

# Live: a home with one running client (its process file names this
# script's pid, alive for the whole test) and its transcript. Lines
# appended while the app is open reach the Live pane and the session open
# in Replay; the times from the write to the screen are printed.
live="$work/live"
sid=11111111-2222-4333-8444-555555555555
tr="$live/projects/-e2e-live/$sid.jsonl"
mkdir -p "$live/sessions" "$live/projects/-e2e-live"
printf '{"pid":%d,"sessionId":"%s","cwd":"/e2e/live","startedAt":"%s","status":"busy"}\n' $$ "$sid" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$live/sessions/$$.json"
n=0
parent=null
# line TYPE BODY: append one transcript record now, chained to the last.
line() {
  n=$((n + 1))
  printf '{"parentUuid":%s,"isSidechain":false,"type":"%s","uuid":"u%d","timestamp":"%s","sessionId":"%s","cwd":"/e2e/live"%s}\n' \
    "$parent" "$1" "$n" "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" "$sid" "$2" >>"$tr"
  parent="\"u$n\""
}
# answer CONTEXT: one response whose request held CONTEXT tokens.
answer() {
  line assistant "$(printf ',"requestId":"r%d","message":{"id":"m%d","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"cache_read_input_tokens":%d,"output_tokens":100}}' "$n" "$n" "$1")"
}
line user ',"message":{"role":"user","content":"start"}'
for c in 40000 60000 80000; do answer "$c"; done
start_app "NO_COLOR=1 $work/memscope --home $live"
wait_for "2 Proj"
keys L
wait_for "pid $$ busy"
wait_for "3 turns · 3 since the last compaction"
t0=$(date +%s%N)
answer 100000
live_ms=$(ms_until "$t0" "4 turns · 4 since the last compaction")
wait_for "context 100k of 200k (50%)"
# A subagent starts: its session folder and subagents/ folder are made
# while the app runs; it shows under its session until its meta file
# says it finished.
sub="$live/projects/-e2e-live/$sid/subagents"
mkdir -p "$sub"
printf '{"agentType":"Explore","description":"find the e2e seed","finished":false}\n' >"$sub/agent-e2e1.meta.json"
t0=$(date +%s%N)
printf '{"parentUuid":null,"isSidechain":true,"type":"assistant","uuid":"s1","timestamp":"%s","sessionId":"%s","cwd":"/e2e/live","requestId":"rs1","message":{"id":"ms1","role":"assistant","model":"claude-haiku-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"cache_read_input_tokens":12000,"output_tokens":100}}}\n' \
  "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" "$sid" >>"$sub/agent-e2e1.jsonl"
agent_ms=$(ms_until "$t0" "└ Explore")
wait_for "subagents: 1 running, 1 in all"
printf '{"agentType":"Explore","description":"find the e2e seed","finished":true}\n' >"$sub/agent-e2e1.meta.json"
wait_gone "└ Explore"
wait_for "subagents: 0 running, 1 in all"
line system ',"subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":170000,"postTokens":15000}'
wait_for "L then c replays it"
wait_for "0 since the last compaction"
keys c
wait_for "after a compact compaction (auto)"
wait_for "● following the file"
keys G
wait_for "step 5/5"
t0=$(date +%s%N)
answer 30000
replay_ms=$(ms_until "$t0" "step 6/6")
wait_for "measured 30003 tokens"
keys q
wait_for "EXITED"
echo "e2e live: append → Live pane ${live_ms} ms, append → Replay timeline ${replay_ms} ms, new subagent → Live pane ${agent_ms} ms"
# Search (ctrl+f) at 80x24 and 120x40 on the fixture home: the hits of
# every store stream into the overlay; enter opens a memory hit in
# Memories, n steps to the next hit, a transcript hit opens Replay at its
# turn with the hit marked; esc stops and closes.
search_e2e() {
  start_sized "$1" "$2" "NO_COLOR=1 $work/memscope --home $work/home --project /tmp/rc/work/beta"
  wait_for "/tmp/rc/work/beta"
  keys C-f
  wait_for "search:"
  keys -l "terse"
  keys Enter
  wait_for "4 hits in 2 files"
  wait_for "«terse»"
  keys j Enter
  wait_for "hit 2/4"
  wait_for "prefers_terse.md"
  wait_gone 'search: "terse"'
  keys n
  wait_for "hit 3/4"
  keys C-f
  wait_for "4 hits in 2 files"
  keys /
  keys C-u
  keys -l "lorem"
  keys Enter
  wait_for "ipsum"
  keys Enter
  wait_for "⌕ search hit: line 3"
  wait_for "step 1/6"
  keys C-f
  wait_for "search:"
  keys Escape
  wait_gone "search:"
  keys q
  wait_for "EXITED"
}
search_e2e 80 24
search_e2e 120 40

# Search hits in CLAUDE.md files and file-history backups (the demo home
# has both) at 80x24 and 120x40: a hit in another project's CLAUDE.md
# opens that project and the Prompt pane at the file, its line marked;
# n steps to a backup hit, which opens the Files pane at the session,
# file and version with the version's text at the line, marked; space
# shows the diff; N comes back to the CLAUDE.md hit.
search_jump_e2e() {
  start_sized "$1" "$2" "NO_COLOR=1 $work/memscope --demo"
  wait_for "/work/shop-api"
  keys C-f
  wait_for "search:"
  keys M-r
  wait_for "[x] regex"
  keys -l 'Plan before apply|createOrder\(eventID\)'
  keys Enter
  wait_for "2 hits in 2 files"
  keys Enter
  wait_for "hit 1/2"
  wait_for "/work/infra"
  wait_for "▶ 3 │ Terraform for the shop. «Plan before apply», always."
  keys n
  wait_for "hit 2/2"
  wait_for "› session 7c0d5e92 › turn"
  wait_for "webhook.go  v1 · the version's text"
  wait_for "▶ 8 │     return «createOrder(eventID)»"
  keys Space
  wait_for "v1 → disk"
  wait_gone "▶ 8 │"
  keys N
  wait_for "hit 1/2"
  wait_for "▶ 3 │ Terraform for the shop. «Plan before apply», always."
  keys q
  wait_for "EXITED"
}
search_jump_e2e 80 24
search_jump_e2e 120 40


# Review inbox (issue 17): a home where the model wrote memory through
# Write and Edit calls, in main sessions and a subagent
# (internal/provgen), at 80x24 and 120x40. The Projects list counts the
# inbox; R opens it; a accepts one (review.json keeps it); d then y
# rejects one to the trash; u brings it back byte for byte, mode and
# mtime included, and into the inbox; in Memories, o opens the turn that
# wrote a memory in Replay.
for size in 80x24 120x40; do
  rv="$work/review-$size"
  go run ./internal/provgen/memscope-provgen "$rv" >/dev/null
  mem=$(echo "$rv"/home/projects/*/memory)
  role_sum=$(sha256sum <"$mem/user_role.md")
  role_meta=$(meta "$mem/user_role.md")
  old=$session
  runs=$((runs + 1))
  session="memscope-e2e-$runs"
  tmux -S "$sock" new-session -d -s "$session" -x "${size%x*}" -y "${size#*x}" \
    "NO_COLOR=1 $work/memscope --home $rv/home --project $rv/project; echo EXITED; sleep 30"
  tmux -S "$sock" kill-session -t "$old" 2>/dev/null || true
  # The Overview first: its review line counts the inbox.
  wait_for "4 memories Claude Code wrote or changed"
  keys 2
  wait_for "REVIEW"
  # The REVIEW column counts the inbox once the home is scanned.
  for _ in $(seq 1 100); do
    screen | grep -F "/project " | grep -qE " 4 +[0-9]+[dh] ago" && break
    sleep 0.1
  done
  screen | grep -F "/project " | grep -qE " 4 +[0-9]+[dh] ago" || fail "$size: the Projects list does not count 4 memories to review"
  keys R
  wait_for "4 memories to review · 0 reviewed"
  wait_for "never reviewed"
  keys a
  wait_for "accepted feedback_terse.md"
  wait_for "3 memories to review · 1 reviewed"
  grep -q '"feedback_terse.md"' "$mem/.memscope/review.json" || fail "$size: review.json does not hold the accepted memory"
  keys / u s e r Enter
  wait_for "user_role.md"
  keys d
  wait_for "move it to the trash? y/n"
  keys y
  wait_for "delete user_role.md"
  test ! -e "$mem/user_role.md" || fail "$size: user_role.md is still there after reject"
  keys Escape
  wait_for "2 memories to review · 1 reviewed"
  # (a key right after Escape would read as alt+key)
  sleep 0.3
  keys u
  wait_for "3 memories to review · 1 reviewed"
  test "$(sha256sum <"$mem/user_role.md")" = "$role_sum" || fail "$size: undo did not restore user_role.md byte for byte"
  test "$(meta "$mem/user_role.md")" = "$role_meta" || fail "$size: undo did not restore user_role.md's mtime and mode"
  keys 4 / d e p l o y Enter
  wait_for "memory-keeper"
  keys Escape
  sleep 0.3
  keys o
  # The subagent's Write shows at the main agent's Task call: step 1 of 2.
  wait_for "step 1/2"
  keys q
  wait_for "EXITED"
done
# The first screen (issue 26), at 80x24 and 120x40: a fresh start on the
# demo shows the Overview, each line counted with the key of the pane that
# fixes it; enter on the first line, the cut, opens the Index scrolled to
# the cut.
for size in "80 24" "120 40"; do
  read -r w h <<<"$size"
  start_sized "$w" "$h" "cd $work/out && NO_COLOR=1 $work/memscope --demo"
  wait_for "DEMO HOME"
  wait_for "what needs you"
  wait_for "4 memories past MEMORY.md's cut"
  wait_for "[3] Index"
  wait_for "8 stale memories"
  wait_gone "counting…"
  screen | grep -q "lint: 6 errors, 20 warnings" || fail "${w}x$h: the Overview lacks lint's counts"
  keys Enter
  wait_for "the client stops here"
  wait_for "TRUNCATED"
  keys 1
  wait_for "what needs you"
  keys q
  wait_for "EXITED"
done

# The loss ledger (issue 32), at 80x24 and 120x40: step to a compaction in
# Replay and read what it lost (the row's counts, the detail's items),
# select the third rule with } and keep it with s, see it in the Prompt
# pane's MEMORY.md; open the first rule at its turn with o and back with
# esc, keep it with t in the place chosen (memory), see it in the Prompt
# pane, u undoes that keep; then memscope undo takes back the first.
ledger_home="$work/ledger/home"
mkdir -p "$ledger_home/projects/-work-shop/memory"
cp engine/ledger/testdata/rules-session.jsonl "$ledger_home/projects/-work-shop/5e1f0c2a-1111-4222-8333-444455556666.jsonl"
for size in "80 24" "120 40"; do
  read -r w h <<<"$size"
  start_sized "$w" "$h" "cd $work/out && NO_COLOR=1 $work/memscope --home $ledger_home --project /work/shop"
  wait_for "/work/shop"
  keys 7
  wait_for "2 compact"
  keys Enter
  wait_for "30 records"
  keys "[" "["
  wait_for "compact auto 167k→14k · lost 3 rules, 2 files"
  for _ in 1 2 3 4 5 6 7 8 9 10 11; do keys J; done
  wait_for "Lost at this compaction: 8 items"
  wait_for "Never mock the database"
  keys "}" "}"
  wait_for "▸ r3"
  keys s
  wait_for "create feedback memory feedback-from-now-on-run"
  keys 8
  wait_for "From now on, run gofmt before"
  # o opens the first rule at its turn (line 7), esc goes back to the
  # compaction; t keeps it where the user chooses (memory, the first
  # place), the Prompt pane loads it, u takes it back.
  keys 7
  wait_for "▸ r3"
  keys "{" "{"
  wait_for "▸ r1"
  keys o
  wait_for "⟲ lost 1:r1 at line 7"
  keys Escape
  wait_for "▸ r1"
  wait_gone "⟲ lost 1:r1"
  keys t
  wait_for "keep 1:r1 to:"
  keys Enter
  wait_for "create feedback memory feedback-never-mock"
  keys 8
  wait_for "Never mock the database"
  keys u
  wait_for "undo: create"
  ! grep -q "mock the database" "$ledger_home/projects/-work-shop/memory/MEMORY.md" || fail "$size: u left the rule kept with t in MEMORY.md"
  keys q
  wait_for "EXITED"
  grep -q "run gofmt before every commit" "$ledger_home/projects/-work-shop/memory/MEMORY.md" || fail "$size: MEMORY.md does not link the kept rule"
  (cd "$work/out" && "$work/memscope" undo --home "$ledger_home" --project /work/shop >/dev/null) || fail "$size: undo of the kept rule failed"
  ! grep -rq gofmt "$ledger_home/projects/-work-shop/memory" --include='*.md' || fail "$size: the kept rule is still there after undo"
done
# The rescue vault in Replay (issue 31), at 80x24 and 120x40: sync, delete
# a session as the sweep would, Replay lists it as only in the vault, enter
# opens the vault's copy read-only, r puts it back byte for byte, it opens
# as an ordinary (followed) session, and u takes the restore back.
vhome="$work/vhome"
cp -a testdata/home "$vhome"
vtr="$vhome/projects/-tmp-rc-work-beta/668e1d4c-98ed-55ff-b990-a2cdf6449cee.jsonl"
vsum=$(sha "$vtr")
"$work/memscope" vault sync --home "$vhome" --vault "$work/vault" >/dev/null || fail "vault sync failed"
rm "$vtr"
for size in "80 24" "120 40"; do
  read -r w h <<<"$size"
  start_sized "$w" "$h" "cd $work/out && NO_COLOR=1 MEMSCOPE_VAULT=$work/vault $work/memscope --home $vhome --project /tmp/rc/work/beta"
  wait_for "/tmp/rc/work/beta"
  keys 7
  wait_for "[only in the vault]"
  keys / 6 6 8 e 1 d 4 c Enter
  sleep 0.3
  keys Enter
  wait_for "read-only copy, r puts it back"
  keys r
  wait_for "u undoes it"
  test "$(sha "$vtr")" = "$vsum" || fail "${w}x$h: the restored transcript differs from the one deleted"
  keys Escape
  wait_gone "[only in the vault]"
  sleep 0.3
  keys Enter
  wait_for "following the file"
  keys Escape
  sleep 0.3
  keys u
  wait_file test ! -e "$vtr" || fail "${w}x$h: u did not take the restore back"
  keys q
  wait_for "EXITED"
done
echo "e2e ok"
