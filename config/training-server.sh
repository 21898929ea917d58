#!/usr/bin/env bash
# Sourced by config/cds/build-archive.sh and config/aot/build-cache.sh: the perf server their training runs test
# against, on loopback.

# start_training_server LOG COMMAND...: starts COMMAND (a perf server on 127.0.0.1, port 0) in the background with its
# output in LOG; sets `server` to its pid and `port` to the port it listens on, and an EXIT trap that kills it. Fails,
# having killed it, if it does not say so within two minutes (a JVM without its archive starts slowly on a loaded
# machine).
start_training_server()
{
    local log="$1"
    shift
    # The log exists before the loop reads it: the background job opens it only once it runs, and a sed on a missing
    # file (exit 2 under set -e) failed the build on a loaded machine.
    : > "$log"
    "$@" > "$log" 2>&1 &
    server=$!
    # Whatever ends the sourcing script (set -e included), the server does not outlive it.
    trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
    port=""
    for _ in $(seq 1 1200); do
        port="$(sed -n 's/^Server listening on 127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$log")"
        [[ -n "$port" ]] && return 0
        sleep 0.1
    done
    kill "$server" 2>/dev/null || true
    return 1
}
