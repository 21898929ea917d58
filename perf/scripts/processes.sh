# Shell functions the perf scripts that start JVMs on loopback share; sourced, never run:
#   . "$HERE/processes.sh"
#
# free_port            a UDP port on 127.0.0.1 nothing is bound to now
# await_line FILE PAT  wait up to 30 s for a line matching PAT (grep) in FILE, e.g. a server's "listening"; on a
#                      timeout say so on stderr, naming the calling script, and return 1

free_port() {
  python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

await_line() {
  for _ in $(seq 1 150); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.2; done
  echo "$(basename "$0"): no '$2' in $1" >&2
  return 1
}
