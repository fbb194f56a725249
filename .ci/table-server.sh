# Sourced by .ci/run and .ci/screenshots: a table server as a process.
# start_table_server BIN_DIR DATA_DIR LOG [ARGS...] starts BIN_DIR's
# klaverjas-server on a free port of 127.0.0.1 over DATA_DIR, its output
# in LOG, and sets $server (its pid) and $addr (HOST:PORT).
start_table_server() {
  local bin="$1" data="$2" log="$3"
  shift 3
  "$bin/klaverjas-server" --port 0 --bind 127.0.0.1 --data "$data" "$@" > "$log" 2>&1 &
  server=$!
  for _ in $(seq 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
  addr=$(sed -n 's/.*listening on \([^,]*\),.*/\1/p' "$log")
  test -n "$addr"
}
