# Sourced by build-perf-cache.sh and build-sim-cache.sh: what every AOT cache build does before its training run.
#
# aot_work_dir NAME JAVA CACHE: exits 2 (saying so) if JAVA cannot write an AOT cache (-XX:AOTCacheOutput needs JDK 25
# or newer); otherwise sets `work` to a new folder beside CACHE, removed when the script exits. The cache is written
# there under a name of its own and moved into place whole, so that two first runs at once (a server and a client
# started together) each see either no cache or a complete one.
aot_work_dir() {
    local name="$1" java="$2" cache="$3"
    if [[ "$("$java" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -c ' AOTCacheOutput ' || true)" != 1 ]]; then
        echo "$name aot: $java cannot write an AOT cache (-XX:AOTCacheOutput needs JDK 25 or newer)" >&2
        exit 2
    fi
    work="$(mktemp -d "$(dirname "$cache")/.$name-aot.XXXXXX")"
    # shellcheck disable=SC2064 # the folder is known now
    trap "rm -rf '$work'" EXIT
}
