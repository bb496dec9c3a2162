# Helpers for the scripts that drive memscope in a private tmux server
# (e2e-tmux.sh, live-latency.sh). Source it after setting sock (the
# server's socket) and session (the session's name). wait_tries is how
# many 0.1 s polls wait_for and wait_gone make (default 100: 10 s).

# fail MESSAGE: say what failed, show the screen, stop.
fail() {
  echo "${0##*/} FAIL: $*" >&2
  echo "---- screen ----" >&2
  tmux -S "$sock" capture-pane -p -t "$session" >&2 || true
  exit 1
}

screen() { tmux -S "$sock" capture-pane -p -t "$session"; }

keys() { tmux -S "$sock" send-keys -t "$session" "$@"; }

# wait_for TEXT: poll the screen until TEXT shows.
wait_for() {
  for _ in $(seq 1 "${wait_tries:-100}"); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "waited for: $1"
}

# wait_gone TEXT: poll the screen until TEXT is no longer shown.
wait_gone() {
  for _ in $(seq 1 "${wait_tries:-100}"); do
    if ! screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "still on screen: $1"
}

# ms_until T0 TEXT: milliseconds from T0 (date +%s%N) until TEXT shows,
# polled every 20 ms (30 s at most).
ms_until() {
  local t1
  for _ in $(seq 1 1500); do
    if screen | grep -qF -- "$2"; then
      t1=$(date +%s%N)
      echo $((($t1 - $1) / 1000000))
      return 0
    fi
    sleep 0.02
  done
  fail "waited for: $2"
}
