#!/bin/sh
# Times memscope's memory-write gate (memscope hook pre-tool-use) and the
# hook binary's (memscope-hook hook pre-tool-use, which hooks install
# uses when it lies beside memscope) as whole processes, side by side,
# beside a `true` floor: a Write to a source file (target: at
# most 10 ms) and memory writes in a project with 200 memory files
# (target: at most 40 ms p95). Wall times include process start; on a
# busy machine run it with nice -n -20 as root, and quote `uptime`.
#
#   scripts/gate-bench.sh [RUNS]     default 200
set -eu
cd "$(dirname "$0")/.."
mkdir -p .cache/bench
go build -o .cache/bench/memscope .
go build -o .cache/bench/memscope-hook ./cmd/memscope-hook
go build -o .cache/bench/memscope-gatebench ./scripts/memscope-gatebench
uptime
.cache/bench/memscope-gatebench -memscope "$PWD/.cache/bench/memscope" -hook "$PWD/.cache/bench/memscope-hook" -runs "${1:-200}"
uptime
